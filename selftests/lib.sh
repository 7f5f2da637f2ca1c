# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# TAP helpers of the pciesw shell selftests.  Source it from a bash test:
#
#   . "$(dirname "$0")/lib.sh"
#   plan 3                      # optional: without it the plan comes last
#   ok "desc" / fail "desc" / skip "desc" "why"
#   bail "desc"                 # fail, then summary: cannot go on
#   check "desc" CMD [ARGS...]  # ok if CMD succeeds
#   check_eq "desc" EXPECTED ACTUAL
#   diag "text"                 # "# text"
#   summary                     # plan if not given yet, totals, exit status
#
#   slow                        # the debug kernel (~5x slower)?
#   deadline MS / before_deadline  # a bounded wait, MS scaled on slow
#   nap [SECS]                  # a sleep without an exec
#   reduced / note_reduced TEXT / reduce FULL SMALL WHAT   # the plan
#   load_module KO [ARGS...]    # insmod KO $PCIESW_MODARGS ARGS...
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

# bail DESC: a failed case, then the summary: for a test that cannot go on
# because the module (not the environment) lacks something
bail() {
	fail "$1"
	summary
}

# A whole test that cannot run here (the environment lacks something).
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

# ---- the kernel, time and the runner's plan -----------------------------

IFS= read -r T_KREL </proc/sys/kernel/osrelease

# slow: the debug kernel (KASAN, lockdep, kmemleak under TCG: ~5x slower),
# or PCIESW_SLOW set (and not 0)
slow() {
	[[ -n ${PCIESW_SLOW:-} && $PCIESW_SLOW != 0 ]] ||
		[[ $T_KREL == *pciesw-debug* ]]
}

# deadline MS: T_END (in EPOCHREALTIME microseconds) MS from now, 5x that
# on the slow kernel.  Then poll: while before_deadline; do ...; nap; done
# (a function that nests waits saves T_END in a local).
deadline() {
	local ms=$1
	slow && ms=$((ms * 5))
	T_END=$((${EPOCHREALTIME/./} + ms * 1000))
}

# before_deadline [END]: now is before END (default T_END)
before_deadline() {
	((${EPOCHREALTIME/./} < ${1:-$T_END}))
}

# nap [SECS]: sleep SECS (default 0.02) without an exec: reads a fifo
# nobody writes, with a timeout
mkfifo "$T_TMP/fifo"
exec 3<>"$T_TMP/fifo"
nap() { read -rt "${1:-0.02}" <&3 || true; }

# wait_for [-t MS] CMD...: until CMD succeeds (a deadline of MS, default
# 5000, more when slow); a test may define its own in its place
wait_for() {
	local ms=5000
	[[ $1 == -t ]] && { ms=$2; shift 2; }
	deadline $ms
	until "$@"; do
		before_deadline || return 1
		nap 0.01
	done
}

# tags_busy NAME MIN: at least MIN requests of disk NAME hold a tag, in
# its hardware queues together (block debugfs): submitted, perhaps waiting
tags_busy() {
	local t l n=0
	for t in /sys/kernel/debug/block/$1/hctx*/tags; do
		while read -r l; do
			[[ $l == busy=* ]] && { n=$((n + ${l#busy=})); break; }
		done <"$t"
	done
	((n >= $2))
}

# running PID: process PID is there and has not exited.  Not kill -0,
# which also succeeds on an exited child the shell has not reaped yet (a
# zombie): in CI's debug guest fio, exited, stayed one through a 50 s
# kill -0 loop until the shell's next command substitution reaped it.
running() {
	local st
	{ read -r st <"/proc/$1/stat"; } 2>/dev/null || return 1
	st=${st##*) }
	[[ ${st:0:1} != Z ]]
}

# reduced: the runner's debug plan (PCIESW_REDUCED set and not 0), where
# the long forms (144-lane cards, many switches, long load/unload cycles)
# run smaller.  A reduced form still runs and asserts, and says what it
# reduced with note_reduced (the runner counts the "REDUCED:" lines).
reduced() {
	[[ -n ${PCIESW_REDUCED:-} && $PCIESW_REDUCED != 0 ]]
}

note_reduced() {
	echo "# REDUCED: $*"
}

# reduce FULL SMALL WHAT: FULL in $R, or in reduced mode SMALL (noted as
# "WHAT: SMALL instead of FULL")
reduce() {
	if reduced; then
		R=$2
		note_reduced "$3: $2 instead of $1"
	else
		R=$1
	fi
}

# load_module KO [ARGS...]: insmod KO with the runner's arguments
# (PCIESW_MODARGS) first, then ARGS (the kernel takes the last value of a
# parameter, so ARGS win); status of insmod, its output in $R
load_module() {
	local ko=$1 ma=()
	shift
	read -ra ma <<<"${PCIESW_MODARGS:-}"
	R=$(insmod "$ko" "${ma[@]}" "$@" 2>&1)
}

# modargs ARGS: PCIESW_MODARGS then ARGS as one parameter string, in $R
# (for finit_module(2) through pciesw_tool load-module)
modargs() {
	R="${PCIESW_MODARGS:-}${PCIESW_MODARGS:+${1:+ }}${1:-}"
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
# it, EAGAIN when it comes between rmmod's check and delete_module(2))
# for 5 s (25 s on the debug kernel); status of the last attempt, message
# in $R.
mod_unload() {
	local end
	deadline 5000; end=$T_END
	while :; do
		R=$(rmmod pciesw 2>&1) && return 0
		[[ $R == *"in use"* || $R == *"temporarily unavailable"* ]] ||
			return 1
		before_deadline "$end" || return 1
		nap 0.1
	done
}
