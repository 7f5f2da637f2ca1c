# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the switchctl shell selftests, on top of lib.sh:
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/switchctl_lib.sh"
#   sctl_init ID...             # fails unless switchctl and the module are
#                               # there, skips without jq; IDs are deleted
#                               # now and on exit
#   sc ARGS...                  # run switchctl: $OUT, $ERR, $RC
#   as_nobody ARGS...           # the same as uid/gid 65534, no groups
#   sc_ok / sc_quiet / sc_err   # one TAP case about a switchctl run
#   jqo FILTER                  # jq -r FILTER on $OUT into $J
#   wait_attr FILE VALUE / check_attr DESC FILE VALUE  (nap: lib.sh)
#   settled SW                  # until the links of switch SW settled
#   start_monitor POKE          # switchctl monitor -j into $T_TMP/mon
#   mon_wait A B                # until a line of it has both A and B
#
# Everything avoids execs where it can: under TCG each costs ~0.1 s.

SWITCHCTL=${SWITCHCTL:-$T_LIB_DIR/../userspace/switchctl}
SCTL_IDS=()
MON_PID=

# shellcheck disable=SC2317 # called by the EXIT trap
sctl_cleanup() {
	local id
	[[ -n $MON_PID ]] && kill "$MON_PID" 2>/dev/null
	for id in "${SCTL_IDS[@]}"; do
		[[ -e $PCIESW_DEVS/pciesw$id ]] && wr "$PCIESW_BUS/del_device" "$id"
	done
	rm -rf "$T_TMP"
}

# sctl_init ID...: the switch ids the test uses (deleted now and on exit)
sctl_init() {
	local id
	# switchctl is built with the tests and the runner loads the module:
	# without them the test fails; jq is the environment's
	[[ -x $SWITCHCTL ]] || bail "switchctl not built ($SWITCHCTL)"
	command -v jq >/dev/null || skip_all "jq not installed"
	[[ -e $PCIESW_BUS/new_device ]] ||
		bail "pciesw is not loaded (the runner loads it)"
	SCTL_IDS=("$@")
	trap sctl_cleanup EXIT
	for id in "$@"; do
		[[ -e $PCIESW_DEVS/pciesw$id ]] && wr "$PCIESW_BUS/del_device" "$id"
	done
}

sc() {
	"$SWITCHCTL" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(<"$T_TMP/out")
	ERR=$(<"$T_TMP/err")
}

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SWITCHCTL" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(<"$T_TMP/out")
	ERR=$(<"$T_TMP/err")
}

# sc_ok DESC ARGS...: succeeds without a word on stderr
sc_ok() {
	local desc=$1
	shift
	sc "$@"
	if ((RC == 0)) && [[ -z $ERR ]]; then
		ok "$desc"
	else
		fail "$desc"
		diag "switchctl $* -> $RC" "$ERR"
	fi
}

# sc_quiet DESC ARGS...: succeeds and prints nothing at all (a change)
sc_quiet() {
	local desc=$1
	shift
	sc "$@"
	if ((RC == 0)) && [[ -z $ERR && -z $OUT ]]; then
		ok "$desc"
	else
		fail "$desc"
		diag "switchctl $* -> $RC" "$ERR" "stdout: ${OUT:0:200}"
	fi
}

# sc_err DESC STATUS MESSAGE ARGS...: exit STATUS, stderr "error: ...MESSAGE",
# nothing on stdout
sc_err() {
	local desc=$1 want=$2 msg=$3
	shift 3
	sc "$@"
	if ((RC == want)) && [[ $ERR == "error: "*"$msg"* && -z $OUT ]]; then
		ok "$desc"
	else
		fail "$desc"
		diag "switchctl $* -> $RC, want $want" "stderr: $ERR" "stdout: ${OUT:0:200}"
	fi
}

jqo() {
	J=$(jq -r "$1" <<<"$OUT" 2>&1)
}

# wait_attr FILE VALUE: until FILE reads VALUE (5 s at most, 25 s on the
# debug kernel)
wait_attr() {
	deadline 5000
	while :; do
		rd "$1" && [[ $R == "$2" ]] && return 0
		before_deadline || return 1
		nap
	done
}

# settled SW: every port with an endpoint (and the upstream port) in L0 or
# disabled (5 s at most, 25 s on the debug kernel)
settled() {
	local p st ep all
	deadline 5000
	while :; do
		all=1
		for p in "$PCIESW_DEVS/$1"-port*; do
			rd "$p/ltssm_state"; st=$R
			rd "$p/endpoint"; ep=$R
			rd "$p/role"
			if [[ $R == upstream || -n $ep ]]; then
				[[ $st == l0 || $st == disabled ]] || all=0
			fi
		done
		((all)) && return 0
		before_deadline || return 1
		nap
	done
}

# check_attr DESC FILE VALUE
check_attr() {
	rd "$2"
	check_eq "$1" "$3" "$R"
}

# start_monitor POKE: run `switchctl monitor -j` into $T_TMP/mon until it
# has printed something; POKE (a function) makes a change it must see.  A
# monitor that died while it started (an event that comes while it
# subscribes must not kill it) is counted in MON_RESTARTS and started
# again, 5 times at most.
MON_RESTARTS=0
start_monitor() {
	local poke=$1 try t i
	for ((try = 0; try < 5; try++)); do
		((try)) && MON_RESTARTS=$((MON_RESTARTS + 1))
		: >"$T_TMP/mon"
		"$SWITCHCTL" monitor -j >"$T_TMP/mon" 2>"$T_TMP/mon.err" &
		MON_PID=$!
		for ((t = 0; t < 10; t++)); do
			# give it time to start before the first change
			for ((i = 0; i < 25; i++)); do
				running "$MON_PID" || break 2
				nap
			done
			"$poke"
			for ((i = 0; i < 50; i++)); do
				[[ -s $T_TMP/mon ]] && return 0
				running "$MON_PID" || break 2
				nap
			done
		done
		wait "$MON_PID"
		diag "monitor exited with $? while starting: $(<"$T_TMP/mon.err")"
	done
	MON_PID=
	return 1
}

# mon_wait A B: until a line of $T_TMP/mon (the monitor's output) contains
# both A and B (5 s at most, 25 s on the debug kernel).  The monitor prints
# notifications in the order the module sent them, so once the one a
# test's last change caused is there, every earlier one is too.
mon_wait() {
	local l lines
	deadline 5000
	while :; do
		mapfile -t lines <"$T_TMP/mon"
		for l in "${lines[@]}"; do
			[[ $l == *"$1"* && $l == *"$2"* ]] && return 0
		done
		before_deadline || return 1
		nap
	done
}
