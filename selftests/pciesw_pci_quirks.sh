#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The real part's quirks, off by default (issue 29 item 4).
# Off: pci_placeholder_ms is 0 and pci_mgmt_ep N, a card has no 1000:00b2
# and no port at device 0x1f, and a drive read right after a bus reset
# answers with its own IDs.
# On (the module reloaded with pci_mgmt_ep=1 pci_placeholder_ms=2000):
# lspci -nn shows the management endpoint [1000:00b2], class [0107], as the
# only device of the last bus, behind DOMAIN:<internal bus>:1f.0 (a port
# with no slot), with the upstream port's subsystem and DSN, bound to the
# module's driver, and the Root Port's and the upstream port's subordinate
# bus is its bus; a bus reset of a drive (reset_method bus, through
# pciehp's slot reset) leaves it answering 02b21000 (the placeholder), then
# its own IDs, and pciehp, told by Data Link Layer State Changed, removes
# and adds it again: bound, its disk back.  rmmod works with both on.
# The runner loads the module with pci_hotplug=0; the reload sets 1, but
# on the debug plan (pciehp's own lockdep report would end the guest's
# lockdep): there the function stays through the swap, its disk too.
# A pex89144 (full plan) has its management endpoint at 1f.0 as well.
# A long placeholder (pci_placeholder_ms=10000, pci_hotplug=0, the module
# scanning the slot itself) stalls nothing: right after a bus reset a
# switchctl request (which waits for the switch's event queue) and later
# del_device and rmmod return well before the placeholder's time is up;
# a function removed meanwhile is added by the module's scan at its end,
# with its own IDs, bound, its disk back.
#
# Skipped when the kernel has no PCI support or pciutils are missing;
# fails without switchctl.  Uses switch ids 79 and 80.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
sctl_init 79 80

ID=79
BIG=80
SW=pciesw$ID
PH_MS=2000
# the placeholder no view may wait for, and what a request may take then
# (ms; the debug kernel is ~5x slower, the bound still below PH_LONG)
PH_LONG=10000
STALL_MS=5000
slow && STALL_MS=8000
PARAMS=/sys/module/pciesw/parameters

# card: a new card, settled, its domain in PD, its upstream port in USP,
# the internal bus in INT, its first drive's disk in DISK and the drive's
# PCI function in EP, its IDs (as setpci prints them) in EPID
card() {
	local dev
	wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
	settled $SW || diag "$SW did not settle"
	pci_rp $SW
	pci_sec "$P" 1; USP=$PD:$R:00.0
	pci_sec "$USP" 2; INT=$R
	DISK=${SW}n0
	deadline 10000
	until [[ -b /dev/$DISK ]] || ! before_deadline; do
		nap 0.05
	done
	dev=$(readlink -f "/sys/block/$DISK/device" 2>/dev/null)
	EP=${dev##*/}
	[[ -e $PCI/$EP ]] || bail "$DISK hangs off no PCI function ($dev)"
	ep_id "$EP" || bail "$EP: no IDs"
	EPID=$R
}

# mgmt_eps: the PCI devices 1000:00b2 of the card's domain, into R
mgmt_eps() {
	local f v d
	R=
	for f in "$PCI/$PD":*; do
		[[ -e $f/vendor ]] || continue
		v=$(<"$f/vendor") d=$(<"$f/device")
		[[ $v == 0x1000 && $d == 0x00b2 ]] && R+=" ${f##*/}"
	done
	R=${R# }
}

# bus_reset: a Secondary Bus Reset of the drive, as echo 1 > reset does
# it with reset_method bus (through pciehp's slot reset when it drives
# the slot); then the drive's first dword as read at once, into R
bus_reset() {
	wr "$PCI/$EP/reset_method" bus || bail "$EP reset_method bus: $W_ERR"
	wr "$PCI/$EP/reset" 1 || fail "echo 1 > $EP/reset: $W_ERR"
	R=$(setpci -s "$EP" 0.l 2>&1)
}

# ---- off by default --------------------------------------------------------
rd $PARAMS/pci_placeholder_ms
check_eq "pci_placeholder_ms is 0 (off) by default" 0 "$R"
rd $PARAMS/pci_mgmt_ep
check_eq "pci_mgmt_ep is N (off) by default" N "$R"
card
mgmt_eps
check_eq "off: no management endpoint 1000:00b2 in $PD" "" "$R"
check "off: no port at $PD:$INT:1f.0" eval '[[ ! -e $PCI/$PD:$INT:1f.0 ]]'
bus_reset
check_eq "off: $EP answers with its own IDs right after a bus reset" "$EPID" "$R"

# ---- both on ---------------------------------------------------------------
mod_unload || bail "rmmod: $R"
# pciehp drives the slots (the runner loads the module with pci_hotplug=0)
hp=pci_hotplug=1
if reduced; then
	hp=pci_hotplug=0
	note_reduced "the placeholder without pciehp (pci_hotplug=0): pciehp's own lockdep report"
fi
load_module "$PCIESW_KO" pci_mgmt_ep=1 pci_placeholder_ms=$PH_MS $hp ||
	bail "insmod pci_mgmt_ep=1 pci_placeholder_ms=$PH_MS: $R"
sctl_init $ID $BIG
card
HP=N
rd $PARAMS/pci_hotplug
[[ $R == Y && -d /sys/bus/pci_express/drivers/pciehp ]] && HP=Y

mgmt_eps; M=$R
if [[ -n $M && $M != *" "* ]]; then
	ok "on: one management endpoint: $M"
else
	fail "on: one management endpoint 1000:00b2 in $PD, found: '$M'"
	bail "no management endpoint"
fi
out=$(lspci -nn -s "$M" 2>/dev/null)
check "lspci -nn: $M is a Serial Attached SCSI controller [0107] [1000:00b2]" \
	eval '[[ $out == *"Serial Attached SCSI controller [0107]"*"[1000:00b2]"* ]]' ||
	diag "$out"
up=$(readlink -f "$PCI/$M/..")
check_eq "$M is behind the port at device 0x1f of the internal bus" \
	"$PD:$INT:1f.0" "${up##*/}"
lspci_has "$PD:$INT:1f.0 is a downstream port without a slot" "$PD:$INT:1f.0" \
	"Express \(v2\) Downstream Port \(Slot-\)"
dsn=$(lspci -vvv -s "$USP" 2>/dev/null | grep -o "Device Serial Number .*")
lspci_has "$M has the switch's DSN (${dsn#Device Serial Number })" "$M" "${dsn:-none}"
lspci_has "$M is a PCI Express Endpoint" "$M" "Express \(v2\) Endpoint"
rd "$PCI/$M/subsystem_device"; sd=$R
rd "$PCI/$USP/subsystem_device"
check_eq "$M: subsystem device the profile's part, as the ports'" "$R" "$sd"
driver "$M"
check_eq "$M is bound to the module's driver" pciesw "$R"
b=$((0x${M:${#PD}+1:2}))
rd "$PCI/$P/subordinate_bus_number"
check_eq "Root Port $P: subordinate bus is the management endpoint's" "$b" "$R"
rd "$PCI/$USP/subordinate_bus_number"
check_eq "upstream port $USP: subordinate bus is the management endpoint's" "$b" "$R"

# the placeholder: the drive answers as 1000:02b2 after its bus reset
log_mark
bus_reset
check_eq "on: $EP answers as the placeholder 1000:02b2 right after a bus reset" \
	02b21000 "$R"
# pciehp logs Card present (or Link Up) once it removed the function,
# before it adds it
if [[ $HP == Y ]]; then
	logged "pciehp removes the function on the swap (Link Down) and adds it again" \
		"pciehp: Slot\([0-9-]+\): Link Down.*pciehp: Slot\([0-9-]+\): (Card present|Link Up)"
fi
deadline $((PH_MS + 15000))
until [[ $(setpci -s "$EP" 0.l 2>/dev/null) == "$EPID" ]] || ! before_deadline; do
	nap 0.05
done
v=$(setpci -s "$EP" 0.l 2>&1)
check_eq "then $EP answers with its own IDs" "$EPID" "$v"
deadline 15000
until { driver "$EP"; [[ $R == pciesw && -b /dev/$DISK ]]; } || ! before_deadline; do
	nap 0.05
done
driver "$EP"
check_eq "$EP is bound again to the module's driver" pciesw "$R"
check "its disk /dev/$DISK is back" test -b "/dev/$DISK"
dev=$(readlink -f "/sys/block/$DISK/device" 2>/dev/null)
check_eq "/dev/$DISK hangs off $EP" "$EP" "${dev##*/}"

# pex89144, whose 80 downstream ports are functions 02:00.0-02:09.7:
# device 0x1f is free there too
if reduced; then
	note_reduced "no pex89144 (the management endpoint of the 80-port layout)"
else
	wr "$PCIESW_BUS/new_device" "$BIG pex89144" || bail "new_device $BIG: $W_ERR"
	pci_rp pciesw$BIG
	pci_sec "$P" 1
	pci_sec "$PD:$R:00.0" 2
	M=$PD:$R:1f.0
	rd "$PCI/$M/subordinate_bus_number"
	printf -v b '%02x' "${R:-0}"
	rd "$PCI/$PD:$b:00.0/device"
	check_eq "pex89144: 1000:00b2 behind $M, on bus $b" 0x00b2 "$R"
	rd "$PCI/$P/subordinate_bus_number"
	check_eq "pex89144: the Root Port's subordinate bus is $b" "$((0x$b))" "$R"
	wr "$PCIESW_BUS/del_device" "$BIG" || fail "del_device $BIG: $W_ERR"
fi

# ---- unload with both on ---------------------------------------------------
wr "$PCIESW_BUS/del_device" "$ID" || fail "del_device $ID: $W_ERR"
if mod_unload; then
	ok "rmmod with pci_mgmt_ep=1 pci_placeholder_ms=$PH_MS"
else
	fail "rmmod with pci_mgmt_ep=1 pci_placeholder_ms=$PH_MS: $R"
fi

# ---- a long placeholder stalls no view -------------------------------------
# Without pciehp the module scans the slot itself once the placeholder's
# time is up; until then the switch's event queue, and with it every
# request that waits for the views, and rmmod, go on.
if ! load_module "$PCIESW_KO" pci_placeholder_ms=$PH_LONG pci_hotplug=0; then
	fail "insmod pci_placeholder_ms=$PH_LONG pci_hotplug=0: $R"
	summary
fi
sctl_init $ID
card
bus_reset
check_eq "long: $EP answers as the placeholder right after a bus reset" \
	02b21000 "$R"
# gone in the placeholder's time: the module's own scan at its end adds
# the real endpoint again
wr "$PCI/$EP/remove" 1 || fail "echo 1 > $EP/remove: $W_ERR"
# the link-up event was queued with the placeholder: a request's reply
# waits for the views to apply it
t0=${EPOCHREALTIME/./}
sc switch show $SW
ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
check "long: switchctl switch show returns in ${ms} ms, not after the ${PH_LONG} ms placeholder (< $STALL_MS)" \
	test $((RC == 0 && ms < STALL_MS)) = 1 || diag "rc $RC: $ERR"
deadline $((PH_LONG + 15000))
until { driver "$EP"; [[ $R == pciesw && -b /dev/$DISK ]]; } || ! before_deadline; do
	nap 0.05
done
ep_id "$EP"
check_eq "long: after the placeholder the module's scan adds $EP with its own IDs" \
	"$EPID" "$R"
driver "$EP"
check_eq "long: $EP is bound to the module's driver" pciesw "$R"
check "long: its disk /dev/$DISK is back" test -b "/dev/$DISK"
# rmmod while a placeholder answers
bus_reset
check_eq "long: $EP answers as the placeholder after a second bus reset" \
	02b21000 "$R"
t0=${EPOCHREALTIME/./}
wr "$PCIESW_BUS/del_device" "$ID" || fail "del_device $ID: $W_ERR"
mod_unload; rc=$?
ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
check "long: del_device and rmmod return in ${ms} ms, not after the placeholder (< $STALL_MS)" \
	test $((rc == 0 && ms < STALL_MS)) = 1 || diag "rmmod: $R"
summary
