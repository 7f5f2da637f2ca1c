#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The model lock is off the views: while pex89144 cards with their PCI
# hierarchy are created and deleted in a loop through netlink (switchctl)
# (seconds each on the debug kernel: hundreds of PCI devices added and
# removed), other users of the kernel do not wait for pciesw:
#  - nlctrl, which genl-ctrl-list and every netlink tool ask first, answers
#    genl-ctrl-list's dump without waiting for a lock more than 200 ms: no
#    pciesw request holds the genl mutex (genl-ctrl-list itself runs beside
#    it, and must work);
#  - a reader of a sysfs file of the card being deleted keeps being
#    answered (ENODEV once the card is dead) while the card's devices and
#    PCI tree are still being taken down: no read sleeps on a lock for more
#    than 200 ms or spins for more than a tenth of the teardown;
#  - the link work of another card goes on: a port disabled and enabled on
#    pciesw69 during the churn trains again.
# The old code (views under the model lock, the genl mutex held) made
# nlctrl sleep and the reader spin for the whole creation and teardown.
# Times come from pciesw_tool, which runs SCHED_FIFO and tells a call's
# time off the CPU (a lock) from its CPU time (a spin), so a busy TCG host,
# which stretches both wall and CPU time, does not decide the result.
# Uses switch ids 68-69.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"

command -v genl-ctrl-list >/dev/null ||
	skip_all "genl-ctrl-list (libnl-utils) not installed"
sctl_init 68 69
D=$PCIESW_DEVS
LIMIT_MS=200
reduce 3 2 "pex89144 create/delete rounds"
ROUNDS=$R
# the reader's interval: on the stock kernels the card is dead for only
# 10-40 ms of its teardown, before its port devices go, so every 2 ms;
# on the debug kernel that takes seconds, and a read milliseconds of CPU
READ_MS=2
reduced && READ_MS=10

now_us() {
	local t=${EPOCHREALTIME/./}
	R=$((10#$t))
}

# genl_run LOG: one genl-ctrl-list, its wall time in ms (or "fail") to
# LOG.  One beside each creation and each deletion, not a loop: under TCG
# on the debug kernel an exec costs seconds of CPU, and a loop of them on
# a one-vCPU guest took most of the CPU from the churn it runs beside
# (pciesw_tool nlctrl asks the same dump every 20 ms, from one process).
genl_run() {
	local t0
	now_us; t0=$R
	genl-ctrl-list >/dev/null 2>&1 || echo fail >>"$1"
	now_us
	echo $(((R - t0) / 1000)) >>"$1"
}

# max_of LOG: the largest number in the first column, into R
max_of() {
	local m=0 n _
	while read -r n _; do
		[[ $n =~ ^[0-9]+$ ]] && ((n > m)) && m=$n
	done <"$1"
	R=$m
}

wr "$PCIESW_BUS/new_device" "69 pex89048" ||
	bail "new_device 69 pex89048: $W_ERR"
settled pciesw69 || diag "pciesw69 did not settle"

# genl-ctrl-list itself, and what it asks nlctrl from one process
# (pciesw_tool nlctrl: libnl's family dump every 20 ms), which times the
# kernel's answer without an exec: under TCG an exec alone takes 0.1-0.5 s
# of CPU the card's creation competes for.  The first runs page the tools
# in; they are not measured.
genl-ctrl-list >/dev/null 2>&1
genl-ctrl-list >/dev/null 2>&1
: >"$T_TMP/genl"
"$PCIESW_TOOL" nlctrl >"$T_TMP/nlctrl" &
NLCTRL=$!

for ((round = 1; round <= ROUNDS; round++)); do
	# through netlink, as switchctl does: the requests that held the
	# genl mutex for the whole creation and deletion
	genl_run "$T_TMP/genl" &
	GENL=$!
	sc switch add 68 pex89144
	((RC == 0)) || bail "switch add 68 pex89144: $ERR"
	wait "$GENL"
	rd "$D/pciesw68/pci_view"
	[[ $R == 1 ]] || fail "round $round: pciesw68 has no PCI view"
	settled pciesw68 || diag "pciesw68 did not settle"

	# a link operation on the other card while this one is torn down
	sc port set pciesw69 2 state down
	"$PCIESW_TOOL" sysfs-reader "$D/pciesw68-port2/link_state" \
		$READ_MS >"$T_TMP/read.$round" &
	RPID=$!
	# the deletion starts once the reader reads: an exec on a busy
	# host took longer than any fixed wait, and the reader saw nothing
	deadline 10000
	until grep -q started "$T_TMP/read.$round"; do
		before_deadline || break
		nap 0.02
	done
	genl_run "$T_TMP/genl" &
	GENL=$!
	now_us; t0=$R
	sc switch del 68
	((RC == 0)) || fail "switch del 68: $ERR"
	now_us; del_ms=$(((R - t0) / 1000))
	sc port set pciesw69 2 state up
	wait "$RPID" "$GENL"

	# its result is the line after "started"
	mapfile -t lines <"$T_TMP/read.$round"
	R=${lines[-1]:-}
	diag "round $round: switch del took $del_ms ms; reader: $R"
	if [[ ! $R =~ dead=([0-9]+)\ first_dead_ms=(-?[0-9]+)\ last_dead_ms=(-?[0-9]+)\ max_ms=([0-9]+)\ blocked_ms=([0-9]+)\ cpu_ms=([0-9]+) ]]; then
		fail "round $round: pciesw_tool sysfs-reader: no result"
		continue
	fi
	dead=${BASH_REMATCH[1]} blocked=${BASH_REMATCH[5]} cpu=${BASH_REMATCH[6]}
	((dead >= 2)) &&
		ok "round $round: $dead reads answered while the card was being taken down" ||
		fail "round $round: only $dead reads answered during the teardown"
	((blocked < LIMIT_MS)) &&
		ok "round $round: no read slept on a lock more than ${blocked} ms" ||
		fail "round $round: a read slept ${blocked} ms during the teardown (limit $LIMIT_MS)"
	# a spinning reader spins through the whole teardown; a busy host
	# stretches a read's CPU time too, so the bound is a tenth of it
	spin=$((del_ms / 10 > LIMIT_MS ? del_ms / 10 : LIMIT_MS))
	((cpu < spin)) &&
		ok "round $round: no read spun more than ${cpu} ms" ||
		fail "round $round: a read spun ${cpu} ms during the teardown (limit $spin ms, a tenth of it)"
done

kill "$NLCTRL"
wait "$NLCTRL"
rd "$T_TMP/nlctrl"
diag "nlctrl during the churn: $R"
[[ $R =~ rounds=([0-9]+)\ failed=([0-9]+)\ max_ms=([0-9]+)\ blocked_ms=([0-9]+) ]] ||
	bail "pciesw_tool nlctrl: no result ($R)"
rounds=${BASH_REMATCH[1]} failed=${BASH_REMATCH[2]} max=${BASH_REMATCH[4]}
((rounds >= 10)) && ok "nlctrl was asked $rounds times during the churn" ||
	fail "nlctrl was asked only $rounds times during the churn"
check_eq "nlctrl answered every time" 0 "$failed"
((max < LIMIT_MS)) &&
	ok "nlctrl (genl-ctrl-list's dump) never waited on a lock more than ${max} ms (limit $LIMIT_MS)" ||
	fail "nlctrl's answer waited ${max} ms on a lock during the churn (limit $LIMIT_MS)"
n=0
while read -r _; do n=$((n + 1)); done <"$T_TMP/genl"
diag "genl-ctrl-list (exec included) beside each creation and deletion, in ms:" \
	"$(tr '\n' ' ' <"$T_TMP/genl")"
check_eq "genl-ctrl-list ran beside each creation and deletion" \
	$((2 * ROUNDS)) "$n"
check_eq "genl-ctrl-list never failed" 0 "$(grep -c fail "$T_TMP/genl")"

wait_attr "$D/pciesw69-port2/link_state" up ||
	fail "pciesw69 port 2 did not train again"
check_attr "pciesw69: port 2 trained again beside the churn" \
	"$D/pciesw69-port2/link_state" up
summary
