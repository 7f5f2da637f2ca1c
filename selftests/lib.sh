# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# TAP helpers of the pciesw shell selftests.  Source it from a bash test:
#
#   . "$(dirname "$0")/lib.sh"
#   plan 3                      # optional: without it the plan comes last
#   ok "desc" / fail "desc" / skip "desc" "why"
#   check "desc" CMD [ARGS...]  # ok if CMD succeeds
#   check_eq "desc" EXPECTED ACTUAL
#   diag "text"                 # "# text"
#   summary                     # plan if not given yet, totals, exit status
#
# Exit status of summary: 0 all passed (skips allowed), 1 a case failed or
# the plan was not met, 4 (KSFT_SKIP) everything was skipped.
#
# The guest runs under TCG, where every exec costs ~0.1 s: the helpers use
# bash builtins only, except where noted.

set -u

T_NUM=0
T_PASS=0
T_FAIL=0
T_SKIP=0
T_PLAN=
T_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/pciesw-test.XXXXXX")
trap 'rm -rf "$T_TMP"' EXIT

PCIESW_BUS=/sys/bus/pciesw
PCIESW_DEVS=$PCIESW_BUS/devices
PCIESW_TOOL=$T_LIB_DIR/pciesw_tool

echo "TAP version 13"

plan() {
	T_PLAN=$1
	echo "1..$1"
}

diag() {
	local l
	for l in "$@"; do
		while IFS= read -r line; do
			printf '# %s\n' "$line"
		done <<<"$l"
	done
}

ok() {
	T_NUM=$((T_NUM + 1))
	T_PASS=$((T_PASS + 1))
	echo "ok $T_NUM - $*"
}

fail() {
	T_NUM=$((T_NUM + 1))
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_NUM - $*"
}

# skip DESC [REASON]
skip() {
	T_NUM=$((T_NUM + 1))
	T_SKIP=$((T_SKIP + 1))
	echo "ok $T_NUM - $1 # SKIP ${2:-}"
}

# A whole test that cannot run here.
skip_all() {
	echo "1..0 # SKIP $*"
	exit 4
}

# check DESC CMD [ARGS...]: status 1 if it failed, for "check ... || diag"
check() {
	local desc=$1
	shift
	if "$@"; then
		ok "$desc"
	else
		fail "$desc"
		return 1
	fi
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [[ "$2" == "$3" ]]; then
		ok "$1"
	else
		fail "$1"
		diag "expected: '$2'" "     got: '$3'"
		return 1
	fi
}

summary() {
	local rc=0
	[[ -n $T_PLAN ]] || echo "1..$T_NUM"
	if [[ -n $T_PLAN && $T_PLAN != "$T_NUM" ]]; then
		diag "planned $T_PLAN cases, ran $T_NUM"
		rc=1
	fi
	diag "pass:$T_PASS fail:$T_FAIL skip:$T_SKIP"
	if ((T_FAIL)); then
		rc=1
	elif ((rc == 0 && T_PASS == 0 && T_SKIP > 0)); then
		rc=4
	fi
	exit "$rc"
}

# ---- files -------------------------------------------------------------

# rd FILE: the first line of FILE in $R ("" and status 1 if unreadable).
rd() {
	R=
	IFS= read -r R <"$1" 2>/dev/null || [[ -n $R ]]
}

# wr FILE STRING: write STRING in one write(2).  Status 0 on success; on
# failure W_ERR is the error text ("Invalid argument", "File exists",
# "Permission denied", ...).  Bash's stdout is line buffered: its printf
# writes a string with a newline inside in several write(2)s, which a sysfs
# file takes as several inputs; such strings go through pciesw_tool.
wr() {
	local e=
	W_ERR=
	if [[ ${2%$'\n'} == *$'\n'* ]]; then
		W_ERR=$("$PCIESW_TOOL" write "$1" "$2")
		[[ $W_ERR == ok ]] && { W_ERR=; return 0; }
		return 1
	fi
	if { printf '%s' "$2" >"$1"; } 2>"$T_TMP/wr.err"; then
		return 0
	fi
	IFS= read -r e <"$T_TMP/wr.err" || true
	W_ERR=${e##*: }
	return 1
}

# The switch devices (pcieswN, not their ports/endpoints), sorted by id, in
# the array SWITCHES (names); N_SWITCHES is their number.
list_switches() {
	local d n ids=()
	SWITCHES=()
	for d in "$PCIESW_DEVS"/pciesw*; do
		n=${d##*/}
		[[ $n =~ ^pciesw([0-9]+)$ ]] || continue
		ids[${BASH_REMATCH[1]}]=1
	done
	for n in "${!ids[@]}"; do
		SWITCHES+=("pciesw$n")
	done
	N_SWITCHES=${#SWITCHES[@]}
}

# The /dev/pciesw* nodes in DEV_NODES; N_DEV_NODES their number.
list_dev_nodes() {
	local d
	DEV_NODES=()
	for d in /dev/pciesw*; do
		[[ -e $d ]] && DEV_NODES+=("$d")
	done
	N_DEV_NODES=${#DEV_NODES[@]}
}

# Entries of /sys/bus/pciesw/devices that belong to switch N (itself, its
# ports and endpoints): their number in $R.
count_switch_entries() {
	local d c=0
	for d in "$PCIESW_DEVS/pciesw$1" "$PCIESW_DEVS/pciesw$1"-*; do
		[[ -e $d || -L $d ]] && c=$((c + 1))
	done
	R=$c
}

# ---- kernel log ----------------------------------------------------------
# A test marks the log before each action (echo to /dev/kmsg, no exec), then
# reads dmesg once (kmsg_snapshot: one exec) and asks what each action logged.

kmsg_mark() {
	echo "pciesw-selftest: mark $1" >/dev/kmsg
}

kmsg_snapshot() {
	dmesg >"$T_TMP/dmesg" 2>/dev/null
	mapfile -t K_LOG <"$T_TMP/dmesg"
}

# kmsg_after MARK: the log lines between mark MARK and the next mark, in
# array K_LINES (timestamps removed).
kmsg_after() {
	local l in=0
	K_LINES=()
	for l in "${K_LOG[@]}"; do
		l=${l#\[*\] }
		if [[ $l == "pciesw-selftest: mark "* ]]; then
			if [[ $l == "pciesw-selftest: mark $1" ]]; then
				in=1
			elif ((in)); then
				break
			fi
			continue
		fi
		((in)) && K_LINES+=("$l")
	done
}

# kmsg_has MARK GLOB: did the log after MARK get a line matching GLOB?
kmsg_has() {
	local l
	kmsg_after "$1"
	for l in "${K_LINES[@]}"; do
		# shellcheck disable=SC2053 # GLOB is a pattern
		[[ $l == $2 ]] && return 0
	done
	return 1
}

# ---- module --------------------------------------------------------------

mod_loaded() {
	[[ -e /sys/module/pciesw ]]
}

# mod_unload: rmmod, retried while something holds a passing reference (a
# netlink dump in progress, a reader's open file: "in use" when rmmod sees
# it, EAGAIN when it comes between rmmod's check and delete_module(2));
# status of the last attempt, message in $R.
mod_unload() {
	local i
	for ((i = 0; i < 50; i++)); do
		R=$(rmmod pciesw 2>&1) && return 0
		[[ $R == *"in use"* || $R == *"temporarily unavailable"* ]] ||
			return 1
		sleep 0.1
	done
	return 1
}
