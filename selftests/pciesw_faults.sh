#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures: the kernel's fault injection (failslab and
# fail_page_alloc, limited by the stack-trace filter to allocations made
# with the module on the stack, whichever task makes them: the caller, the
# views' event work, the DMA engine's workers) fails one allocation at a
# time at points spread over each operation: creating a switch, turning
# its PCI view on (also while links retrain, so that the view's jobs queue
# behind a creation that fails), plugging an endpoint, re-bifurcating a group, netlink
# dumps and DMA (host -> endpoint, endpoint -> endpoint, into pages not
# allocated yet).  After each failure the operation either failed with a
# clear error or succeeded, and the model is unchanged or fully changed
# (a switch is there with all its ports and endpoints in sysfs, /dev and
# netlink, or not at all; a group has the old or the new configuration
# with the ports of that one; ...), the module still works and, at the
# end of the run, the kernel log has no warning and kmemleak no leak
# (checked by the runner's QEMU wrapper).
#
# Where a failure lands: fault injection's "space" counts down the bytes
# (slab) or pages (page allocator) the filtered allocations ask for, and
# the first allocation that does not fit fails.  The test measures each
# operation's total once, then fails it at its first allocation and at
# POINTS points spread over that total, with a random offset within each
# slice (the seed is printed; PCIESW_FAULTS_SEED repeats a run).
#
# The full sweep: 4 points per operation (PCIESW_FAULTS_POINTS=N sets N
# on any plan).  The reduced form (the debug plan of make check, where
# each operation costs seconds: ~60 s instead of ~300) fails every
# operation with each allocator at its first allocation and at one
# random point of its total; the seed makes each run land elsewhere, so
# runs add up.  The full sweep by name: scripts/qemu-run.sh --kernel debug
# -- env PCIESW_FAULTS_POINTS=4 selftests/run.sh --plan debug --ko
# build/debug/pciesw.ko pciesw_faults.sh
#
# Debian's stock kernels have no fault injection: there the test is
# skipped as a whole (listed in expected-skips); it runs on the debug
# kernel.  Uses switch id 70.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

DBG=/sys/kernel/debug
SLAB=$DBG/failslab
PAGE=$DBG/fail_page_alloc
[[ -d $SLAB && -d $PAGE ]] ||
	skip_all "kernel without fault injection (FAILSLAB, FAIL_PAGE_ALLOC)"
[[ -e $SLAB/require-start ]] ||
	skip_all "kernel without FAULT_INJECTION_STACKTRACE_FILTER"
sctl_init 70

SW=pciesw70
D=$PCIESW_DEVS
if [[ -n ${PCIESW_FAULTS_POINTS:-} ]]; then
	POINTS=$PCIESW_FAULTS_POINTS
elif reduced; then
	POINTS=1
	note_reduced "1 random point per operation instead of 4"
else
	POINTS=4
fi
SEED=${PCIESW_FAULTS_SEED:-$((${EPOCHREALTIME/./} % 1000000))}
RANDOM=$SEED
diag "seed $SEED (PCIESW_FAULTS_SEED=$SEED repeats this run), $POINTS points per operation"

# ---- fault injection set-up ---------------------------------------------------

# the module's address range, from /proc/modules: its base and the size of
# its memory cover its code (printed as unsigned 64-bit: bash's arithmetic
# is signed, and module addresses are above 2^63)
mod_range() {
	local name size refs deps state addr
	while read -r name size refs deps state addr _; do
		[[ $name == pciesw ]] || continue
		MOD_START=$addr
		printf -v MOD_END '%#x' $((addr + size))
		return 0
	done </proc/modules
	return 1
}
mod_range || bail "pciesw not in /proc/modules"
((MOD_START != 0)) || bail "/proc/modules hides the module's address (kptr_restrict)"

# fi_set ATTR FILE VALUE
fi_set() {
	wr "$1/$2" "$3" || bail "fault injection: $1/$2 = $3: $W_ERR"
}

# fi_disarm: no failure anywhere (on exit too)
fi_disarm() {
	local a
	for a in "$SLAB" "$PAGE"; do
		wr "$a/times" 0
		wr "$a/probability" 0
	done
}

fi_cleanup() {
	fi_disarm
	sctl_cleanup
}
trap fi_cleanup EXIT

for a in "$SLAB" "$PAGE"; do
	fi_set "$a" times 0
	fi_set "$a" probability 100
	fi_set "$a" interval 1
	fi_set "$a" verbose 0
	fi_set "$a" task-filter N
	fi_set "$a" ignore-gfp-wait N
	fi_set "$a" stacktrace-depth 32
	fi_set "$a" require-start "$MOD_START"
	fi_set "$a" require-end "$MOD_END"
	fi_set "$a" reject-start 0
	fi_set "$a" reject-end 0
done
fi_set "$SLAB" cache-filter N
fi_set "$PAGE" ignore-gfp-highmem N
fi_set "$PAGE" min-order 0

# fi_arm ATTR SPACE: the first filtered allocation after SPACE bytes/pages
# fails, once
fi_arm() {
	fi_set "$1" space "$2"
	fi_set "$1" times 1
}

# fi_fired ATTR: did the armed failure happen?  Disarms.
fi_fired() {
	rd "$1/times"
	local t=$R
	fi_set "$1" times 0
	[[ $t == 0 ]]
}

SPACE_MAX=2000000000

# ---- the model, whole or not at all -----------------------------------------

# baseline: the sysfs entries, netlink view and /dev node of a whole SW
wr "$PCIESW_BUS/new_device" "70 tiny8" || bail "new_device 70 tiny8: $W_ERR"
settled "$SW" || diag "$SW did not settle"
count_switch_entries 70; WHOLE_ENTRIES=$R
sc -j port show "$SW"
jqo '.ports | length'; WHOLE_PORTS=$J
rd "$D/$SW/group_nvme/config"; NVME_CFG=$R
diag "$SW whole: $WHOLE_ENTRIES sysfs entries, $WHOLE_PORTS ports, nvme group $NVME_CFG"
wr "$PCIESW_BUS/del_device" 70 || bail "del_device 70: $W_ERR"

# sw_state: "absent", "whole" or what is wrong, in $R
sw_state() {
	local ent dev nl
	count_switch_entries 70; ent=$R
	[[ -e /dev/$SW ]] && dev=1 || dev=0
	sc -j show "$SW"
	((RC == 0)) && nl=1 || nl=0
	if ((ent == 0 && dev == 0 && nl == 0)); then
		R=absent
	elif ((ent == WHOLE_ENTRIES && dev == 1 && nl == 1)); then
		R=whole
	else
		R="partial: $ent of $WHOLE_ENTRIES sysfs entries, /dev $dev, netlink $nl"
	fi
}

# points TOTAL: POINTS failure points over [0, TOTAL), one in each slice at
# a random offset, in the array PTS
points() {
	local total=$1 i slice p
	PTS=(0)
	((total > 1)) || return 0
	slice=$(((total + POINTS - 1) / POINTS))
	for ((i = 0; i < POINTS; i++)); do
		p=$((i * slice + (RANDOM * 32768 + RANDOM) % slice))
		((p < total)) && PTS+=("$p")
	done
}

# measure ATTR OP: the bytes/pages OP's filtered allocations take, in $R
measure() {
	local attr=$1 op=$2
	fi_set "$attr" space "$SPACE_MAX"
	fi_set "$attr" times 1
	"$op"
	rd "$attr/space"
	local left=$R
	fi_set "$attr" times 0
	R=$((SPACE_MAX - left))
}

# sweep NAME ATTR SETUP OP CHECK UNDO: measure OP once (after SETUP, then
# UNDO), then for each point: SETUP, arm ATTR, OP (status in OP_RC, error
# text in OP_ERR), disarm, CHECK (a description of what is wrong in
# $R and status 1, or status 0), UNDO.  One TAP case per point.
sweep() {
	local name=$1 attr=$2 setup=$3 op=$4 chk=$5 undo=$6 total p fired
	local nfired=0 nerr=0 what=${2##*/} t0=$SECONDS
	"$setup"
	measure "$attr" "$op"; total=$R
	"$undo"
	case $what in
	failslab) what="slab bytes" ;;
	fail_page_alloc) what="pages" ;;
	esac
	diag "$name: $total $what"
	if ((total == 0)); then
		fail "$name: allocates nothing through $what (measured)"
		return
	fi
	points "$total"
	for p in "${PTS[@]}"; do
		"$setup"
		kmsg_mark "faults $name at $p"
		fi_arm "$attr" "$p"
		"$op"
		fi_fired "$attr" && fired=1 || fired=0
		nfired=$((nfired + fired))
		((OP_RC)) && nerr=$((nerr + 1))
		if "$chk"; then
			ok "$name: failure at $p of $total: ${OP_ERR:-succeeded}, $R"
		else
			fail "$name: failure at $p of $total: $R"
			diag "operation: rc $OP_RC ${OP_ERR:+($OP_ERR)}, fault fired: $fired"
		fi
		"$undo"
	done
	diag "$name: ${#PTS[@]} points, $nfired failures injected, $nerr made the operation fail, $((SECONDS - t0)) s"
	((nfired > 0)) && ok "$name: failures were injected" ||
		fail "$name: no failure injected at any point"
}

# the error text of a failed sysfs write or switchctl run
op_wr() {
	OP_ERR=
	wr "$1" "$2" && OP_RC=0 || { OP_RC=1; OP_ERR=$W_ERR; }
}

op_sc() {
	sc "$@"
	OP_RC=$RC OP_ERR=
	((RC)) && OP_ERR=${ERR%%$'\n'*}
	((RC == 0 || RC == 1)) || OP_ERR="exit $RC: $OP_ERR"
}

# A failed operation says what failed: an errno text or switchctl's
# "error: ..." line, never a crash of the tool (exit > 1) or silence.
err_clear() {
	((OP_RC == 0)) && return 0
	[[ -n $OP_ERR && $OP_ERR != "exit "* ]]
}

nothing() { :; }

# ---- switch creation ----------------------------------------------------------

create() { op_wr "$PCIESW_BUS/new_device" "70 tiny8"; }
create_check() {
	sw_state
	err_clear || { R="unclear error: rc $OP_RC '$OP_ERR'"; return 1; }
	if ((OP_RC == 0)); then
		[[ $R == whole ]] || { R="created, but $R"; return 1; }
	else
		[[ $R == absent ]] || { R="refused, but $R"; return 1; }
	fi
}
delete() {
	[[ -e $D/$SW ]] || return 0
	wr "$PCIESW_BUS/del_device" 70 || fail "del_device 70 after a fault: $W_ERR"
}
sweep "create" "$SLAB" nothing create create_check delete
sweep "create" "$PAGE" nothing create create_check delete

# The event log's ring (34 KiB, kvcalloc()) is the first page allocation
# of a creation (the switch itself is a slab object), and one failure only
# sends it to its vmalloc() fallback.  Two in a row fail it:
# pciesw_log_init() fails before pciesw_health_init() ran, and the error
# path must undo no more than was done (it once cancelled the health
# work, never initialised: a WARN).  When the slab needs a new page for
# the switch, that takes both failures instead; only the fallback logs
# "vmalloc error", so that says which happened, and another try is made.
# warn_alloc() says it at most 10 times in 5 s: the sweeps before may
# have used them up, so the case waits for a new window first.
log_ring() {
	local try left
	nap 5
	for ((try = 1; try <= 5; try++)); do
		delete
		kmsg_mark "faults log ring $try"
		fi_set "$PAGE" space 0
		fi_set "$PAGE" times 2
		create
		rd "$PAGE/times"; left=$R
		fi_set "$PAGE" times 0
		kmsg_snapshot
		if ((left != 0)) ||
		   ! kmsg_has "faults log ring $try" "*vmalloc error*"; then
			continue
		fi
		if create_check; then
			ok "create: the log ring and its vmalloc fallback fail: ${OP_ERR:-succeeded}, $R"
		else
			fail "create: the log ring and its vmalloc fallback fail: $R"
			diag "operation: rc $OP_RC ${OP_ERR:+($OP_ERR)}"
		fi
		delete
		return
	done
	delete
	fail "create: the log ring's allocation was not the one failed, $((try - 1)) tries"
}
log_ring

# ---- on a whole switch ------------------------------------------------------------

make_sw() {
	[[ -e $D/$SW ]] && return 0
	wr "$PCIESW_BUS/new_device" "70 tiny8" || bail "new_device 70 tiny8: $W_ERR"
	settled "$SW" || diag "$SW did not settle"
}

# the PCI view on: off (nothing in its domain) or on (the tree = the
# model's ports and endpoints)
view_off() {
	make_sw
	wr "$D/$SW/pci_view" 0 || fail "$SW pci_view 0 after a fault: $W_ERR"
}
view_on() { op_wr "$D/$SW/pci_view" 1; }
# ... while port 1's link retrains over and over: the view's jobs for
# those events queue up behind its creation, and must not outlive a
# creation that failed
view_on_busy() {
	local pid
	( while :; do "$SWITCHCTL" port set "$SW" 1 retrain >/dev/null 2>&1; done ) &
	pid=$!
	nap 0.2
	view_on
	kill "$pid"
	wait "$pid" 2>/dev/null
	settled "$SW" || diag "$SW did not settle after the retrains"
}
view_check() {
	local v want
	err_clear || { R="unclear error: rc $OP_RC '$OP_ERR'"; return 1; }
	rd "$D/$SW/pci_view"; v=$R
	if ((OP_RC == 0)) && [[ $v != 1 ]]; then
		R="accepted, but pci_view reads $v"
		return 1
	fi
	expected "$SW"; want=$N
	pci_count "$SW"
	if [[ $v == 0 ]]; then
		((N == 0)) || { R="view off with $N PCI devices"; return 1; }
		R="view off"
		return 0
	fi
	((N == want)) || { R="view on with $N PCI devices of $want"; return 1; }
	R="view on, $N PCI devices"
}
# Two error paths of the PCI core itself do not survive a failed
# allocation, and any host bridge driver meets them:
#  - the bus scan: a failed device_add() WARNs (probe.c pci_device_add)
#    and 6.12's pci_add_new_bus() leaves the freed bus in
#    bridge->subordinate for the resource sizing to use;
#  - the root bus's creation: when pci_register_host_bridge() fails,
#    pci_create_root_bus() puts the bridge's device after the bus's
#    release has freed what that put reaches (KASAN: use-after-free in
#    kobject_put(), 6.12).
# So allocations under pci_scan_child_bus_extend() and
# pci_create_root_bus() are not failed: fault injection rejects one
# address range, the span of both functions (they are neighbours in
# probe.c; every symbol inside the span is printed, and the test bails
# if the span holds more than the few functions between them).  The
# module's own allocations, the resource assignment and the port
# driver's probe are failed.
# sym_span SYM...: the lowest start and the highest end (the next
# symbol's address) of the SYMs, into REJ_START/END; the symbols in
# between, into REJ_SYMS (one awk pass: /proc/kallsyms of the debug
# kernel is ~10 MB, and bash's read takes it a byte per system call)
sym_span() {
	local r
	r=$(awk -v syms=" $* " '
		index(syms, " " $3 " ") && !($3 in seen) {
			seen[$3] = $1
			if (s == "" || $1 < s) s = $1
		}
		{ a[NR] = $1; n[NR] = $3 }
		END {
			for (k in seen) {
				e0 = ""
				for (i in a)
					if (a[i] > seen[k] && (e0 == "" || a[i] < e0))
						e0 = a[i]
				if (e0 == "") exit 1
				if (e == "" || e0 > e) e = e0
			}
			if (length(seen) != split(syms, x, " ")) exit 1
			for (i in a)
				if (a[i] >= s && a[i] < e) names[n[i]] = 1
			printf "0x%s 0x%s", s, e
			for (k in names) printf " %s", k
			print ""
		}' /proc/kallsyms) || return 1
	read -r REJ_START REJ_END REJ_SYMS <<<"$r"
}
if [[ -e /sys/bus/pci ]]; then
	sym_span pci_scan_child_bus_extend pci_create_root_bus ||
		bail "pci_scan_child_bus_extend or pci_create_root_bus not in /proc/kallsyms"
	diag "not failed: allocations under $REJ_START-$REJ_END: $REJ_SYMS"
	n=$(wc -w <<<"$REJ_SYMS")
	((n <= 16 && REJ_END - REJ_START <= 0x4000)) ||
		bail "pci_scan_child_bus_extend and pci_create_root_bus are not neighbours ($n symbols between)"
	fi_set "$SLAB" reject-start "$REJ_START"
	fi_set "$SLAB" reject-end "$REJ_END"
	sweep "pci view on" "$SLAB" view_off view_on view_check view_off
	sweep "pci view on, links retraining" "$SLAB" view_off view_on_busy \
		view_check view_off
	fi_set "$SLAB" reject-start 0
	fi_set "$SLAB" reject-end 0
fi

# ep add: the endpoint there with its sysfs device and link, or not at all
EP_PORT=
ep_free() {
	make_sw
	local p
	sc -j ep list "$SW"
	jqo '.endpoints[0]."port-id" // empty'; p=$J
	[[ -n $p ]] || { EP_PORT=${EP_PORT:-1}; return 0; }
	EP_PORT=$p
	jqo '.endpoints[0]."ep-name"'
	sc ep del "$SW" "$J"
	((RC == 0)) || fail "ep del before ep add: $ERR"
}
ep_add() { op_sc ep add "$SW" "$EP_PORT" nvme size 1M; }
ep_check() {
	err_clear || { R="unclear error: rc $OP_RC '$OP_ERR'"; return 1; }
	rd "$D/$SW-port$EP_PORT/endpoint"
	local ep=$R
	if [[ -z $ep ]]; then
		((OP_RC)) || { R="ep add succeeded, port $EP_PORT has no endpoint"; return 1; }
		R="no endpoint"
		return 0
	fi
	[[ -e $D/$SW-$ep ]] || { R="port names $ep, no sysfs device"; return 1; }
	R="endpoint $ep plugged"
}
sweep "ep add" "$SLAB" ep_free ep_add ep_check nothing

# bifurcation: the old or the new configuration, with its ports
bif_old() {
	make_sw
	rd "$D/$SW/group_nvme/config"
	[[ $R == "$NVME_CFG" ]] && return 0
	wr "$D/$SW/group_nvme/config" "$NVME_CFG" ||
		fail "group back to $NVME_CFG after a fault: $W_ERR"
}
BIF_NEW=4x1
bif_new() { op_wr "$D/$SW/group_nvme/config" "$BIF_NEW"; }
bif_check() {
	local cfg want ports
	err_clear || { R="unclear error: rc $OP_RC '$OP_ERR'"; return 1; }
	rd "$D/$SW/group_nvme/config"; cfg=$R
	if ((OP_RC == 0)); then
		[[ $cfg == "$BIF_NEW" ]] || { R="accepted, config $cfg"; return 1; }
	fi
	case $cfg in
	"$BIF_NEW") want=$((1 + 4)) ;;
	"$NVME_CFG") want=$WHOLE_PORTS ;;
	*) R="config $cfg is neither"; return 1 ;;
	esac
	sc -j port show "$SW"
	jqo '.ports | length'; ports=$J
	[[ $ports == "$want" ]] || { R="config $cfg with $ports ports (want $want)"; return 1; }
	R="config $cfg, $ports ports"
}
sweep "bifurcation" "$SLAB" bif_old bif_new bif_check bif_old

# netlink dumps: the whole answer or an error, never a short one
dump() { op_sc -j port show "$SW"; }
dump_check() {
	err_clear || { R="unclear error: rc $OP_RC '$OP_ERR'"; return 1; }
	((OP_RC)) && { R="dump refused"; return 0; }
	jqo '.ports | length'
	[[ $J == "$WHOLE_PORTS" || $J == 5 ]] || { R="dump has $J ports"; return 1; }
	R="$J ports"
}
sweep "port dump" "$SLAB" bif_old dump dump_check nothing

# DMA: every transfer completes, ok or with a status, and moves what it says
OFF=0
# the DMA runs between the card's own drives: a fresh card, whatever the
# ep add sweep left
delete
make_sw
dma_fresh() {
	make_sw
	# a window region without pages: the copy allocates them (tiny8's
	# drives have 1 MiB windows: 16 slots of 64K, given back first)
	OFF=$(((OFF + 1) % 16))
	local ep
	for ep in nvme0 nvme1; do
		sc ep discard "$SW" $ep offset $((OFF * 64))K size 64K
		((RC == 0)) || fail "ep discard $ep before a DMA: $ERR"
	done
}
# the same, with the source written first: a copy of pages never written
# moves zeros and allocates nothing at the destination
dma_fresh_src() {
	dma_fresh
	sc dma copy "$SW" host "nvme0:$((OFF * 64))K" --size 64K
	((RC == 0)) || fail "dma copy host -> nvme0 before the ep -> ep copy: $ERR"
}
dma_host() { op_sc -j dma copy "$SW" host "nvme0:$((OFF * 64))K" --size 64K; }
dma_p2p() { op_sc -j dma copy "$SW" "nvme0:$((OFF * 64))K" "nvme1:$((OFF * 64))K" --size 64K; }
dma_check() {
	err_clear || { R="unclear error: rc $OP_RC '$OP_ERR'"; return 1; }
	((OP_RC)) && [[ -z $OUT ]] && { R="refused"; return 0; }
	jqo '[.status | to_entries[] | "\(.key)=\(.value)"] | join(",")'
	local st=$J
	jqo '.bytes'
	case $st in
	ok=*) [[ $J == 65536 ]] || { R="ok, but $J bytes"; return 1; } ;;
	nomem=*) ;;
	*) R="status $st"; return 1 ;;
	esac
	R="$st, $J bytes"
}
sweep "dma host->ep" "$SLAB" dma_fresh dma_host dma_check nothing
sweep "dma host->ep" "$PAGE" dma_fresh dma_host dma_check nothing
sweep "dma ep->ep" "$SLAB" dma_fresh_src dma_p2p dma_check nothing
sweep "dma ep->ep" "$PAGE" dma_fresh_src dma_p2p dma_check nothing

# ---- afterwards: everything works ---------------------------------------------------

fi_disarm
delete
wr "$PCIESW_BUS/new_device" "70 tiny8"
check_eq "after the faults: new_device 70 tiny8" "" "$W_ERR"
settled "$SW" || diag "$SW did not settle"
sw_state
check_eq "after the faults: $SW whole" whole "$R"
sc dma copy "$SW" host nvme0 --size 1M
check_eq "after the faults: a DMA copy is ok" 0 "$RC" || diag "$ERR"
wr "$PCIESW_BUS/del_device" 70
check_eq "after the faults: del_device 70" "" "$W_ERR"
summary
