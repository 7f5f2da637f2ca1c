#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The model lock is off the views: while pex89144 cards with their PCI
# hierarchy are created and deleted in a loop through netlink (switchctl) (seconds each on the debug
# kernel: hundreds of PCI devices added and removed), other users of the
# kernel do not wait for pciesw:
#  - nlctrl, which genl-ctrl-list and every netlink tool ask first, keeps
#    answering genl-ctrl-list's dump within 200 ms: no pciesw request holds
#    the genl mutex (genl-ctrl-list itself runs beside it, and must work);
#  - a reader of the sysfs files of a card being deleted gets its answer
#    (the value, or ENODEV once the card is dead) within 200 ms while the
#    card's devices and PCI tree are still being taken down, instead of
#    spinning until the teardown is over;
#  - the link work of another card goes on: a port disabled and enabled on
#    pciesw69 during the churn trains again within its usual time.
# Each bound is a latency that the old code (views under the model lock,
# the genl mutex held) missed by seconds; 200 ms leaves the debug kernel's
# own slowness (~0.1 s for a genl-ctrl-list run) room.
# Uses switch ids 68-69.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"

command -v genl-ctrl-list >/dev/null ||
	skip_all "genl-ctrl-list (libnl-utils) not installed"
sctl_init 68 69
D=$PCIESW_DEVS
STOP=$T_TMP/stop
LIMIT_MS=200
reduce 3 2 "pex89144 create/delete rounds"
ROUNDS=$R

now_us() {
	local t=${EPOCHREALTIME/./}
	R=$((10#$t))
}

# genl_sampler LOG: genl-ctrl-list's wall time in ms, one a line, to $STOP
genl_sampler() {
	local t0
	while [[ ! -e $STOP ]]; do
		now_us; t0=$R
		genl-ctrl-list >/dev/null 2>&1 || echo fail >>"$1"
		now_us
		echo $(((R - t0) / 1000)) >>"$1"
		nap 0.05
	done
}

# reader FILE LOG: read FILE until it is gone; per read "ms value|error"
reader() {
	local t0 v
	while [[ -e $1 ]]; do
		now_us; t0=$R
		if IFS= read -r v <"$1" 2>/dev/null; then
			v=ok
		else
			v=err
		fi
		now_us
		echo "$(((R - t0) / 1000)) $v" >>"$2"
		nap 0.01
	done
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
genl_sampler "$T_TMP/genl" &
SAMPLER=$!
"$PCIESW_TOOL" nlctrl >"$T_TMP/nlctrl" &
NLCTRL=$!

for ((round = 1; round <= ROUNDS; round++)); do
	# through netlink, as switchctl does: the requests that held the
	# genl mutex for the whole creation and deletion
	sc switch add 68 pex89144
	((RC == 0)) || bail "switch add 68 pex89144: $ERR"
	rd "$D/pciesw68/pci_view"
	[[ $R == 1 ]] || fail "round $round: pciesw68 has no PCI view"
	settled pciesw68 || diag "pciesw68 did not settle"

	# a link operation on the other card while this one is torn down
	sc port set pciesw69 2 state down
	: >"$T_TMP/read.$round"
	reader "$D/pciesw68-port2/link_state" "$T_TMP/read.$round" &
	RPID=$!
	nap 0.1
	sc switch del 68
	((RC == 0)) || fail "switch del 68: $ERR"
	sc port set pciesw69 2 state up
	wait "$RPID"

	max_of "$T_TMP/read.$round"
	((R < LIMIT_MS)) &&
		ok "round $round: sysfs reads during the teardown took at most ${R} ms" ||
		fail "round $round: a sysfs read during the teardown took ${R} ms (limit $LIMIT_MS)"
	n=0 dead=0
	while read -r _ v; do
		n=$((n + 1))
		[[ $v == err ]] && dead=$((dead + 1))
	done <"$T_TMP/read.$round"
	diag "round $round: $n reads, $dead of them after the card was dead"
	((dead > 0)) &&
		ok "round $round: reads were answered while the card was being taken down" ||
		fail "round $round: no read was answered during the teardown"
done

: >"$STOP"
wait "$SAMPLER"
kill "$NLCTRL"
wait "$NLCTRL"
rd "$T_TMP/nlctrl"
diag "nlctrl during the churn: $R"
[[ $R =~ rounds=([0-9]+)\ failed=([0-9]+)\ max_ms=([0-9]+) ]] ||
	bail "pciesw_tool nlctrl: no result ($R)"
rounds=${BASH_REMATCH[1]} failed=${BASH_REMATCH[2]} max=${BASH_REMATCH[3]}
((rounds >= 10)) && ok "nlctrl was asked $rounds times during the churn" ||
	fail "nlctrl was asked only $rounds times during the churn"
check_eq "nlctrl answered every time" 0 "$failed"
((max < LIMIT_MS)) &&
	ok "nlctrl (genl-ctrl-list's dump) answered within $LIMIT_MS ms throughout (max ${max} ms)" ||
	fail "nlctrl took ${max} ms to answer during the churn (limit $LIMIT_MS)"
n=0
while read -r _; do n=$((n + 1)); done <"$T_TMP/genl"
diag "genl-ctrl-list (exec included) ran $n times during the churn, in ms:" \
	"$(tr '\n' ' ' <"$T_TMP/genl")"
((n >= ROUNDS)) && ok "genl-ctrl-list ran during the churn ($n times)" ||
	fail "genl-ctrl-list ran only $n times"
check_eq "genl-ctrl-list never failed" 0 "$(grep -c fail "$T_TMP/genl")"

wait_attr "$D/pciesw69-port2/link_state" up ||
	fail "pciesw69 port 2 did not train again"
check_attr "pciesw69: port 2 trained again beside the churn" \
	"$D/pciesw69-port2/link_state" up
summary
