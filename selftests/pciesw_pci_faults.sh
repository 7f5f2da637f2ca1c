#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fault matrix, in the configuration users run: the module's defaults
# (PCI view, pciehp driving the slots, disks) on whatever command line the
# guest booted (the kernel's default, and again with pcie_ports=dpc-native).
# On switch 76 (pex89048: gpu0 on port 1, nvme0-3 on ports 2-5), for each
# fault: fio --verify writes the affected drive's disk and a DMA loop runs
# gpu0 -> nvme2, the fault is applied and undone as a user would, and then
# the card settles: every link up, the PCI devices those of the model, a
# disk on each drive's PCI function within 10 s, data verified where the
# drive stayed (an I/O error is what a drive that went gives its writers).
#
#   surprise down       switchctl port set SW 2 surprise-down
#   Link Disable        setpci Link Control on port 3, then cleared; pciehp
#                       powers the slot off, sysfs power turns it on
#   Secondary Bus Reset the kernel's bus/slot reset of nvme1
#   ep del / ep add     nvme3 out and a new drive on port 5
#   slot power          /sys/bus/pci/slots/N/power 0 then 1 (Slot Control)
#   fatal error         an injected malformed TLP on port 2 (AER or DPC)
#   non-fatal error     an injected poisoned TLP on port 3
#   re-bifurcation      gpu 2x8 then 1x16, gpu0 re-added
#   firmware activation switchctl fw toggle: every link retrains
#
# After the matrix, rmmod returns within 10 s; the runner fails the test on
# any kernel warning, oops, lockdep or KASAN report it raised.  On the debug
# plan the drives' fio runs are shorter.  Skipped without PCI support,
# pciehp, pciutils or fio.  Uses switch id 76.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
[[ -d /sys/bus/pci_express/drivers/pciehp ]] ||
	skip_all "kernel without pciehp (CONFIG_HOTPLUG_PCI_PCIE)"
command -v fio >/dev/null || skip_all "fio not installed"
sctl_init 76

ID=76
SW=pciesw$ID
for p in pci_view pci_hotplug blk; do
	rd /sys/module/pciesw/parameters/$p
	[[ $R == Y || $R == 1 ]] || bail "loaded with $p=$R (the runner keeps the defaults)"
done
read -r CMDLINE </proc/cmdline
diag "kernel command line: $CMDLINE"

reduce 6 3 "seconds of fio on the drive under each fault"
FIO_S=$R

wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"

# wait_for MS COND...: until COND holds, at most MS (5x on debug)
wait_for() {
	local end ms=$1
	shift
	deadline "$ms"; end=$T_END
	while :; do
		"$@" && return 0
		before_deadline "$end" || return 1
		nap 0.05
	done
}

# disk_of PORT: the disk of the drive behind PORT, into R ("" if none)
disk_of() {
	local ep
	rd "$D/$SW-port$1/endpoint"; ep=$R
	R=
	[[ $ep == nvme* ]] || return 1
	R=${SW}n${ep#nvme}
	[[ -b /dev/$R && -e /sys/block/$R ]]
}

# disk_on_function PORT: the drive's disk hangs off its PCI function
disk_on_function() {
	local want dev disk
	disk_of "$1" || return 1
	disk=$R
	pci_ep $SW "$1"; want=$P
	dev=$(readlink -f "/sys/block/$disk/device" 2>/dev/null)
	[[ ${dev##*/} == "$want" ]]
}

# card_settled: links up (or trained) on every port with an endpoint, the
# PCI devices those of the model, a disk on each drive's function
card_settled() {
	local p ep t
	settled $SW || return 1
	expected $SW; t=$N
	pci_count $SW
	((N == t)) || return 1
	for p in "$D/$SW"-port*; do
		rd "$p/endpoint"; ep=$R
		[[ -n $ep ]] || continue
		rd "$p/link_state"
		[[ $R == up ]] || return 1
		[[ $ep == nvme* ]] || continue
		p=${p##*port}
		disk_on_function "$p" || return 1
	done
	return 0
}

# why_unsettled: what card_settled found missing, as diagnostics
why_unsettled() {
	local p ep
	expected $SW; diag "expected $N PCI devices"
	pci_count $SW; diag "found $N in domain $PD"
	for p in "$D/$SW"-port*; do
		rd "$p/endpoint"; ep=$R
		rd "$p/link_state"
		diag "${p##*/}: link $R, endpoint ${ep:-none}"
		[[ $ep == nvme* ]] || continue
		p=${p##*port}
		disk_on_function "$p" ||
			{ pci_ep $SW "$p"; diag "$ep: no disk on $P: $(readlink -f "/sys/block/${SW}n${ep#nvme}/device")"; }
	done
	diag "disks: $(cd /sys/block && grep . pciesw$ID*/dev | tr '\n' ' ')"
	dmesg | grep -v "bridge window" | tail -n 25 | while read -r l; do diag "dmesg: $l"; done
}

# writes PORT: the writes the disk of the drive behind PORT completed, in R
writes() {
	local a
	R=-1
	disk_of "$1" || return 1
	read -ra a <"/sys/block/$R/stat" 2>/dev/null || return 1
	R=${a[4]}
}

# fio_start PORT: fio --verify on the disk of the drive behind PORT, once
# it has written (never creating a file where the disk's node is missing)
FIO_PID=
fio_start() {
	local w0
	FIO_PID=
	disk_of "$1" || { diag "fio: no disk for port $1"; return 1; }
	FIO_DISK=$R
	writes "$1"; w0=$R
	fio --name=verify --filename="/dev/$FIO_DISK" --allow_file_create=0 \
		--clocksource=clock_gettime \
		--rw=write --bs=64k --size=16M --direct=1 --ioengine=psync \
		--verify=crc32c --verify_backlog=16 --verify_fatal=1 \
		--time_based --runtime="$FIO_S" --output="$T_TMP/fio" \
		>/dev/null 2>&1 &
	FIO_PID=$!
	started() { writes "$1"; ((R > w0 + 2)); }
	wait_for 30000 started "$1" ||
		diag "fio: no writes on /dev/$FIO_DISK within 30 s (writes $R, before $w0)"
}

# fio_end STAYED: wait for fio; STAYED=1: it must have verified every
# block it wrote, 0: the drive went, it may end with an I/O error but
# never with a verify error
fio_end() {
	local rc
	[[ -n $FIO_PID ]] || return 1
	wait "$FIO_PID"; rc=$?
	FIO_PID=
	if (($1)); then
		((rc == 0)) && return 0
		diag "fio on /dev/$FIO_DISK: exit $rc: $(grep -E 'err=|verify' "$T_TMP/fio" | head -n 3)"
		return 1
	fi
	# an I/O error (EIO) is what the writers of a drive that went get
	if grep -qiE 'verify: bad|bad magic|crc32c' "$T_TMP/fio"; then
		diag "fio on /dev/$FIO_DISK: verify error"
		return 1
	fi
	return 0
}

# DMA loop: gpu0 -> nvme2, in the background, until stopped; its failures
# during a fault are expected, its copies after the matrix must succeed
DMA_PID=
dma_loop() {
	while [[ -e $T_TMP/dma ]]; do
		"$SWITCHCTL" dma copy $SW gpu0 nvme2 --size 262144 >/dev/null 2>&1
		nap 0.1
	done
}
: >"$T_TMP/dma"
dma_loop &
DMA_PID=$!

# settle DESC: one case: the card settled after the fault DESC
settle() {
	if wait_for 20000 card_settled; then
		ok "$1: the card settled (links up, PCI = model, disks on their functions)"
	else
		fail "$1: the card did not settle within 20 s"
		why_unsettled
	fi
}

# slot_of PORT: the pciehp slot of the downstream port, its sysfs dir in R
slot_of() {
	local s a bus
	pci_port $SW "$1"
	pci_sec "$P" xx; bus=$PD:$R
	R=
	for s in /sys/bus/pci/slots/*; do
		read -r a <"$s/address" 2>/dev/null || continue
		[[ $a == "$bus:00" || $a == "$bus" ]] && { R=$s; return 0; }
	done
	return 1
}

# ---- surprise down: pciehp removes the drive and adds it back ------------
fio_start 2
check_eq "surprise down: port set" 0 "$(sc port set $SW 2 surprise-down; echo "$RC")"
check "surprise down: fio saw no corrupt data" fio_end 0
settle "surprise down"

# ---- Link Disable through setpci, then cleared ---------------------------
pci_port $SW 3; P3=$P
fio_start 3
setpci -s "$P3" CAP_EXP+10.w=0010:0010
gone3() { disk_of 3 && return 1; pci_ep $SW 3; [[ ! -e $PCI/$P ]]; }
check "Link Disable: the drive's function and disk go" wait_for 10000 gone3
setpci -s "$P3" CAP_EXP+10.w=0000:0010
# pciehp turned the slot's power off when the link went (as on hardware)
# unless the link came back first; then the operator turns it on
back3() { pci_ep $SW 3; [[ -e $PCI/$P ]]; }
if ! wait_for 5000 back3; then
	if slot_of 3; then
		read -r pw <"$R/power"
		diag "Link Disable: slot power $pw; turning it on"
		[[ $pw == 0 ]] && wr "$R/power" 1
	else
		fail "Link Disable: port 3 has no pciehp slot"
	fi
fi
check "Link Disable: fio saw no corrupt data" fio_end 0
settle "Link Disable"

# ---- Secondary Bus Reset through the kernel's reset of the drive ---------
pci_ep $SW 3; E3=$P
fio_start 3
if [[ -w $PCI/$E3/reset_method ]]; then
	read -r methods <"$PCI/$E3/reset_method"
	m=
	for x in bus slot; do
		[[ " $methods " == *" $x "* ]] && { m=$x; break; }
	done
	if [[ -n $m ]]; then
		wr "$PCI/$E3/reset_method" "$m"
		wr "$PCI/$E3/reset" 1
		check_eq "SBR ($m reset of $E3): done" "" "$W_ERR"
		wr "$PCI/$E3/reset_method" default
	else
		fail "SBR: $E3 offers neither a bus nor a slot reset ($methods)"
	fi
else
	fail "SBR: no reset_method for $E3"
fi
check "SBR: fio verified every block (the drive stayed)" fio_end 1
settle "SBR"

# ---- ep del / ep add: a new drive gets its disk --------------------------
fio_start 5
sc ep del $SW nvme3
check_eq "ep del nvme3" 0 "$RC"
check "ep del: fio saw no corrupt data" fio_end 0
sc ep add $SW 5 nvme
check_eq "ep add on port 5" 0 "$RC"
check "ep add: the new drive's disk is on its function within 10 s" \
	wait_for 10000 disk_on_function 5
settle "ep del/ep add"

# ---- slot power off and on (Slot Control, through pciehp) ----------------
fio_start 4
if slot_of 4; then
	S4=$R
	wr "$S4/power" 0
	check_eq "slot power off" "" "$W_ERR"
	check "slot power off: fio saw no corrupt data" fio_end 0
	off4() { ! disk_of 4; }
	check "slot power off: the disk is gone" wait_for 5000 off4
	wr "$S4/power" 1
	check_eq "slot power on" "" "$W_ERR"
else
	fail "slot power: port 4 has no pciehp slot"
	fio_end 0
fi
settle "slot power off/on"

# ---- a fatal error: AER (or DPC) recovery ---------------------------------
fio_start 2
sc inject $SW 2 malformed-tlp
check_eq "inject malformed-tlp (fatal)" 0 "$RC"
check "fatal error: fio saw no corrupt data" fio_end 0
settle "fatal error"

# ---- a non-fatal error: the drive stays -----------------------------------
fio_start 3
sc inject $SW 3 poisoned-tlp
check_eq "inject poisoned-tlp (non-fatal)" 0 "$RC"
check "non-fatal error: fio saw no corrupt data" fio_end 0
settle "non-fatal error"

# ---- re-bifurcation of the GPU group -------------------------------------
sc lanes set $SW gpu 2x8
check_eq "lanes set gpu 2x8" 0 "$RC"
settle "gpu 2x8"
sc lanes set $SW gpu 1x16
check_eq "lanes set gpu 1x16" 0 "$RC"
rd "$D/$SW-port1/endpoint"
if [[ -z $R ]]; then
	sc ep add $SW 1 gpu
	check_eq "ep add gpu on port 1" 0 "$RC"
fi
settle "gpu 1x16"

# ---- firmware activation: every link retrains -----------------------------
fio_start 2
sc fw toggle $SW
check_eq "fw toggle" 0 "$RC"
check "fw activation: fio saw no corrupt data" fio_end 0
settle "fw activation"

# ---- after the matrix ---------------------------------------------------
rm -f "$T_TMP/dma"
wait "$DMA_PID"
sc dma copy $SW gpu0 nvme2 --size 1048576
check_eq "after the matrix: DMA gpu0 -> nvme2 works" 0 "$RC"
fio_start 2
check "after the matrix: fio verifies nvme0's disk" fio_end 1

sc switch del $ID
check_eq "switch del" 0 "$RC"
t0=${EPOCHREALTIME/./}
rmmod pciesw
check_eq "rmmod" 0 $?
ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
check "rmmod returned within 10 s (${ms} ms)" test "$ms" -le 10000
summary
