#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PCI view under churn: a pex89048 and a pex89144, each with its PCI
# hierarchy, taken through bifurcation, hot-unplug and plug, every link
# operation (disable/enable, lane failure, retrain, hot reset, surprise
# down) and the view switched off and on, while DMA runs on both cards and
# lspci reads the trees; after every step the PCI devices are exactly the
# model's ports and endpoints, with the model's link widths and speeds.
# Ends with rmmod while both cards and their trees are there.
#
# This is the test that keeps the PCI view on in every plan (run.sh): on
# the debug kernel the other tests run without it, so this is where
# lockdep, KASAN and kmemleak see every path and lock order of the view
# (creation, removal, rescans, config reads, DMA beside them, unload).
# Uses switch ids 66-67; leaves the module unloaded.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

command -v lspci >/dev/null || skip_all "lspci (pciutils) not installed"
sctl_init 66 67

KO=${PCIESW_KO:?run.sh sets PCIESW_KO}
# the DMA loops and the reader stop when this file exists
STOP=$T_TMP/stop
PIDS=()

# endpoint_port SW EP: the port id EP is attached to, into R
endpoint_port() {
	rd "$D/$1-$2/port"
}

# check_tree DESC SW: tree and links against the model, once settled
# (with the seconds since the last check_tree: where the test's time goes)
T_LAST=${EPOCHREALTIME/./}
check_tree() {
	local now
	settled "$2" || diag "$2 did not settle"
	tree_ok "$1: PCI tree = model" "$2"
	links_ok "$1: PCI links = model" "$2"
	now=${EPOCHREALTIME/./}
	diag "$1: $(((now - T_LAST) / 1000000)).$(((now - T_LAST) / 100000 % 10)) s"
	T_LAST=$now
}

# The load beside the churn rests between its runs: DMA in flight and
# config reads through most of the churn, not CPU burners that starve what
# they run beside.  On the debug plan (one vCPU) longer: there the reader
# and the two DMA loops took most of the CPU, and the churn 300 s; each
# still runs dozens of times beside every step.
DMA_REST=0.3 READER_REST=0.2
reduced && DMA_REST=1 READER_REST=2 &&
	note_reduced "the DMA loops rest 1 s between runs, the reader 2 s between passes"

# dma_loop SW SRC DST LOG: DMA benches from SRC to DST until $STOP, each
# run's JSON report appended to LOG (one line each; read once at the end:
# a jq per run cost the debug kernel half a second of CPU); endpoints that
# are unplugged for a moment make runs fail, not the loop
dma_loop() {
	local sw=$1 src=$2 dst=$3 log=$4
	while [[ ! -e $STOP ]]; do
		"$SWITCHCTL" -j dma bench "$sw" "$src" "$dst" --size 8M \
			--block 256K --depth 8 >>"$log" 2>/dev/null
		nap $DMA_REST
	done
}

# bifurcate SW GROUP CONFIG: re-bifurcate GROUP; the module refuses it
# (EBUSY) while a DMA run crosses the group, so wait for a gap between the
# loops' runs (they rest DMA_REST after each), for as long as a bench takes
bifurcate() {
	deadline 10000
	while ! wr "$D/$1/group_$2/config" "$3"; do
		if [[ $W_ERR != "Device or resource busy" ]] || ! before_deadline; then
			fail "$1 $2 $3: $W_ERR"
			return 1
		fi
		nap 0.05
	done
}

# churn SW GPUGROUP NVMEGROUP [all]: the gpu group split and joined (every
# later port and endpoint is re-created), an unplug and plug, a surprise
# down and the view off and on; with "all" also the nvme group and every
# other link operation (the paths are the same on both profiles; the
# 144-lane card's steps each take seconds on the debug kernel, so it goes
# through the ones whose cost grows with the size of the card)
churn() {
	local sw=$1 gg=$2 ng=$3 all=${4:-} cfg p

	# bifurcation: the gpu group split and joined (with all: the nvme
	# group split wider and back too)
	rd "$D/$sw/group_$gg/config"; cfg=$R
	bifurcate "$sw" "$gg" 4x4
	check_tree "$sw: $gg 4x4" "$sw"
	bifurcate "$sw" "$gg" "$cfg"
	check_tree "$sw: $gg back to $cfg" "$sw"
	if ((${#all})); then
		rd "$D/$sw/group_$ng/config"; cfg=$R
		bifurcate "$sw" "$ng" 2x8
		check_tree "$sw: $ng 2x8" "$sw"
		bifurcate "$sw" "$ng" "$cfg"
		check_tree "$sw: $ng back to $cfg" "$sw"
	fi

	# hot-unplug and plug of the DMA loop's destination
	endpoint_port "$sw" nvme0; p=$R
	if [[ -z $p ]]; then
		fail "$sw: no nvme0 to unplug"
		return
	fi
	sc ep del "$sw" nvme0
	check_eq "$sw: ep del nvme0 (port $p)" 0 "$RC" || diag "$ERR"
	check_tree "$sw: nvme0 unplugged" "$sw"
	sc ep add "$sw" "$p" nvme
	check_eq "$sw: ep add nvme on port $p" 0 "$RC" || diag "$ERR"
	check_tree "$sw: nvme plugged on port $p" "$sw"

	# link operations on that port
	((${#all})) || sw_link_short "$sw" "$p"
	((${#all})) && sw_link_all "$sw" "$p"

	# the view off and on with everything running
	wr "$D/$sw/pci_view" 0 || fail "$sw pci_view 0: $W_ERR"
	pci_count "$sw"
	check_eq "$sw: pci_view 0: its domain is empty" 0 "$N"
	wr "$D/$sw/pci_view" 1 || fail "$sw pci_view 1: $W_ERR"
	check_tree "$sw: pci_view 1" "$sw"
}

# surprise_down SW PORT: a surprise down of PORT, waited for in the port's
# LTSSM history (Detect since the mark), not in its state: with DPC on the
# kernel's DPC driver may have the link back up before a poll sees it down
surprise_down() {
	port_hist_mark "$1" "$2"
	sc port set "$1" "$2" surprise-down
	check_eq "$1: port $2 surprise-down" 0 "$RC" || diag "$ERR"
	deadline 5000
	until port_hist_has "$1" "$2" detect; do
		if ! before_deadline; then
			diag "$1 port $2: no Detect in its LTSSM history"
			return
		fi
		nap 0.05
	done
}

# sw_link_short SW PORT: a surprise down and the retrain after it
sw_link_short() {
	local sw=$1 p=$2
	surprise_down "$sw" "$p"
	sc port set "$sw" "$p" retrain
	check_eq "$sw: port $p retrain after the surprise down" 0 "$RC" || diag "$ERR"
	check_tree "$sw: port $p back after the surprise down" "$sw"
}

# sw_link_all SW PORT: every link operation on PORT, its endpoint kept
sw_link_all() {
	local sw=$1 p=$2 ep
	rd "$D/$sw-port$p/endpoint"; ep=$R
	sc port set "$sw" "$p" state down
	check_eq "$sw: port $p state down" 0 "$RC" || diag "$ERR"
	wait_attr "$D/$sw-port$p/ltssm_state" disabled ||
		diag "$sw port $p: not disabled"
	links_ok "$sw: port $p disabled: PCI links = model" "$sw"
	sc port set "$sw" "$p" state up
	check_eq "$sw: port $p state up" 0 "$RC" || diag "$ERR"
	wait_attr "$D/$sw-port$p/ltssm_state" l0 || diag "$sw port $p: not in L0"
	check_tree "$sw: port $p enabled again" "$sw"
	sc port set "$sw" "$p" failed-lanes 0x2
	check_eq "$sw: port $p failed-lanes 0x2" 0 "$RC" || diag "$ERR"
	wait_attr "$D/$sw-port$p/degraded" 1 || diag "$sw port $p: not degraded"
	check_tree "$sw: port $p degraded" "$sw"
	sc port set "$sw" "$p" failed-lanes none
	check_eq "$sw: port $p failed-lanes none" 0 "$RC" || diag "$ERR"
	wait_attr "$D/$sw-port$p/degraded" 0 || diag "$sw port $p: still degraded"
	sc port set "$sw" "$p" retrain
	check_eq "$sw: port $p retrain" 0 "$RC" || diag "$ERR"
	check_tree "$sw: port $p retrained" "$sw"
	sc port set "$sw" "$p" hot-reset
	check_eq "$sw: port $p hot-reset" 0 "$RC" || diag "$ERR"
	check_tree "$sw: port $p after hot reset" "$sw"
	surprise_down "$sw" "$p"
	links_ok "$sw: port $p surprise down: PCI links = model" "$sw"
	sc port set "$sw" "$p" retrain
	check_eq "$sw: port $p retrain after the surprise down" 0 "$RC" || diag "$ERR"
	check_tree "$sw: port $p back after the surprise down" "$sw"
	check_attr "$sw: port $p still has its endpoint" \
		"$D/$sw-port$p/endpoint" "$ep"
}

# ---- the two cards, the load beside them ------------------------------------
wr "$PCIESW_BUS/new_device" "66 pex89048" || fail "new_device 66 pex89048: $W_ERR"
wr "$PCIESW_BUS/new_device" "67 pex89144" || fail "new_device 67 pex89144: $W_ERR"
for sw in pciesw66 pciesw67; do
	rd "$D/$sw/pci_view"
	check_eq "$sw: the PCI view is on" 1 "$R"
	check_tree "$sw: created" "$sw"
done

# pex89144 can have more than 32 downstream ports: they are functions
pci_layout pciesw66
pci_layout pciesw67
check_eq "pex89048: downstream ports are devices of the internal bus" 0 "${PCI_MF[pciesw66]}"
check_eq "pex89144: downstream ports are functions of the internal bus" 1 "${PCI_MF[pciesw67]}"

for sw in pciesw66 pciesw67; do
	dma_loop "$sw" gpu0 nvme0 "$T_TMP/dma.$sw" &
	PIDS+=($!)
done
# the reader: every device's config space, and lspci -vvv of the trees;
# on the debug plan lspci every 10th pass only (its decoding of the
# pex89144's ~100 functions took 40-90 s a pass there, a vCPU of the
# guest's two, and reads no config the cat does not: it slowed every step
# of the churn it ran beside).  Each pass's seconds go to reader.times:
# the end says the longest.
LSPCI_EVERY=1
reduced && LSPCI_EVERY=10 &&
	note_reduced "the reader runs lspci -vvv every 10th pass, not every pass"
( n=0
while [[ ! -e $STOP ]]; do
	t=$EPOCHREALTIME
	((n++ % LSPCI_EVERY == 0)) && lspci -D -vvv >/dev/null 2>&1
	cat "$PCI"/[1-9a-f]???:*/config >/dev/null 2>&1
	echo "$t $EPOCHREALTIME" >>"$T_TMP/reader.times"
	nap $READER_REST
done ) &
PIDS+=($!)

churn pciesw66 gpu nvme all
churn pciesw67 gpu0 nvme1

# ---- the load ends cleanly -----------------------------------------------------
: >"$STOP"
# a bench moves 8 MiB; the slowest (debug kernel, paced by nothing) takes
# seconds.  Twice in six runs the loops seemed to take over a minute to
# end while kill -0 was their test: probably ended and not yet reaped
# (lib.sh's running).  What each waits in is printed when it takes over
# 60 s, and 3 minutes is the limit before calling it hung
stuck=0 t_stop=$EPOCHSECONDS
for pid in "${PIDS[@]}"; do
	for ((i = 0; i < 1800; i++)); do
		running "$pid" || break
		((i == 600)) && diag "pid $pid still running 60 s after the churn:" \
			"$(ps -o pid,stat,wchan:32,args --pid "$pid" --ppid "$pid" 2>/dev/null)" \
			"$(for c in "$pid" $(pgrep -P "$pid"); do echo "$c:"; cat "/proc/$c/stack" 2>/dev/null; done)"
		nap 0.1
	done
	if running "$pid"; then
		stuck=$((stuck + 1))
		kill "$pid"
	fi
	wait "$pid" 2>/dev/null
done
((EPOCHSECONDS - t_stop > 60)) &&
	diag "the loops ended $((EPOCHSECONDS - t_stop)) s after the churn"
diag "reader: $(awk '{ d = $2 - $1; n++; if (d > m) m = d }
	END { printf "%d passes, the longest %.1f s", n, m }' "$T_TMP/reader.times")"
check_eq "DMA loops and the lspci reader end (3 minutes at most)" 0 "$stuck"
for sw in pciesw66 pciesw67; do
	# each run's status counts, one object a line (a line cut short
	# by a killed loop is not a run)
	mapfile -t sts < <(jq -cR 'fromjson? | .status' "$T_TMP/dma.$sw")
	runs=${#sts[@]} okruns=0
	for st in "${sts[@]}"; do
		[[ $st == '{"ok":'*'}' && $st != *,* ]] && okruns=$((okruns + 1))
	done
	# statuses a run may end with while its endpoints and links churn
	bad=$(printf '%s\n' "${sts[@]}" | jq -r 'keys[] | select(IN("ok",
		"unplugged", "cancelled", "link-down") | not)')
	diag "$sw: $runs DMA runs during the churn, $okruns all ok"
	check_eq "$sw: DMA runs ended only in ok/unplugged/cancelled/link-down" "" "$bad"
	((okruns > 0)) && ok "$sw: DMA ran (all ok) during the churn" ||
		fail "$sw: no DMA run was all ok during the churn"
	sc dma copy "$sw" gpu0 nvme0 --size 1M
	check_eq "$sw: a DMA copy after the churn is ok" 0 "$RC" || diag "$ERR"
done

# ---- rmmod with both cards and their PCI hierarchies -----------------------------
for sw in pciesw66 pciesw67; do
	pci_count "$sw"
	((N > 0)) || fail "$sw: no PCI devices before rmmod"
done
check "rmmod with both cards and their PCI trees" mod_unload || diag "$R"
for sw in pciesw66 pciesw67; do
	pci_count "$sw"
	check_eq "$sw: after rmmod nothing in its PCI domain" 0 "$N"
done
check "after rmmod the pciesw bus is gone" test ! -e "$PCIESW_BUS"
summary
