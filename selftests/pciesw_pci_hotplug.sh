#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PCI view's downstream ports are hot-plug slots that the kernel's own
# pciehp drives, and their MSI vectors fire: a new card's port 2 has
# HotPlug+ in SltCap and its presence in SltSta, pcieport's hot-plug
# service is bound to pciehp, the port's vector is a PCIESW-MSI interrupt
# in /proc/interrupts whose count grows on ep del, ep add and on a link
# bandwidth change with LBMIE/LABIE set; pciehp (not the module) removes and
# adds the endpoint's pci_dev on ep del / ep add and after a surprise
# down, and says so in dmesg (Slot(N): Card not present / Card present /
# Link Down); after a re-bifurcation the module adds the new ports and
# pciehp drives their slots.  The module is loaded with pci_hotplug=1 (the
# runner's other tests load it with pci_hotplug=0).
#
# Skipped when the kernel has no PCI support, no pciehp or pciutils are
# missing; fails without switchctl.  Uses switch id 74.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
[[ -d /sys/bus/pci_express/drivers/pciehp ]] ||
	skip_all "kernel without pciehp (CONFIG_HOTPLUG_PCI_PCIE)"
sctl_init 74

ID=74
SW=pciesw$ID
rd /sys/module/pciesw/parameters/pci_hotplug
[[ $R == Y ]] || bail "loaded with pci_hotplug=$R (the runner sets 1)"

wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"
tree_ok "$SW: PCI devices = model ports + endpoints" $SW
pci_port $SW 2; P2=$P
pci_ep $SW 2; E2=$P
rd "$D/$SW-port2/endpoint"
EP=$R
[[ -n $EP ]] || bail "$SW port 2 has no endpoint"

# wait_for COND...: until COND holds, at most 15 s (pciehp takes ~1 s)
wait_for() {
	local i
	for ((i = 0; i < 300; i++)); do
		"$@" && return 0
		nap 0.05
	done
	return 1
}
present() { [[ -e $PCI/$1 ]]; }
absent() { [[ ! -e $PCI/$1 ]]; }

# irqs: the interrupts of the port's MSI vector so far, into R
irqs() {
	local irq l f n=0
	irq=$(ls "$PCI/$P2/msi_irqs" 2>/dev/null | head -n1)
	R=-1
	[[ -n $irq ]] || return
	while read -r l; do
		[[ $l == "$irq:"* ]] || continue
		for f in ${l#*:}; do
			[[ $f =~ ^[0-9]+$ ]] && n=$((n + f))
		done
		R=$n
	done </proc/interrupts
}

# ---- the slot and its driver -------------------------------------------
lspci_has "SltCap: HotPlug+" "$P2" "SltCap:.*HotPlug\+"
lspci_has "SltSta: presence detected" "$P2" "SltSta:.*PresDet\+"
lspci_has "MSI enabled, a message at fee00000" "$P2" \
	"MSI: Enable\+.*${NL}.*Address: 00000000fee00000"
svc=
for f in "$PCI/$P2/$P2":pcie*; do
	[[ -e $f/driver ]] && [[ $(readlink "$f/driver") == */pciehp ]] &&
		svc=${f##*/}
done
check "pciehp is bound to the port's hot-plug service" test -n "$svc"
check "... /sys/bus/pci_express/drivers/pciehp lists it" \
	test -e "/sys/bus/pci_express/drivers/pciehp/$svc"
irq=$(ls "$PCI/$P2/msi_irqs" 2>/dev/null | head -n1)
line=$(grep "^ *$irq:" /proc/interrupts)
if [[ -n $irq && $line == *PCIESW-MSI* && $line == *pciehp* ]]; then
	ok "/proc/interrupts: the port's vector $irq is PCIESW-MSI, for pciehp"
else
	fail "/proc/interrupts: the port's vector $irq is PCIESW-MSI, for pciehp"
	diag "$line"
fi

# ---- ep del / ep add: pciehp removes and adds the pci_dev ---------------
irqs; n0=$R
kmsg_mark del
sc ep del $SW "$EP"
check_eq "ep del" 0 "$RC"
check "ep del: the endpoint's pci_dev is gone" wait_for absent "$E2"
irqs
check "ep del: the port's interrupt count grew ($n0 -> $R)" test "$R" -gt "$n0"
irqs; n0=$R
kmsg_mark add
sc ep add $SW 2 gpu
check_eq "ep add" 0 "$RC"
check "ep add: the endpoint's pci_dev is back" wait_for present "$E2"
irqs
check "ep add: the port's interrupt count grew ($n0 -> $R)" test "$R" -gt "$n0"
wait_for test -e "$PCI/$E2/driver"
driver "$E2"
check_eq "ep add: the endpoint is bound to pciesw" pciesw "$R"

# ---- surprise down: pciehp takes the device away, then back -------------
kmsg_mark surprise
sc port set $SW 2 surprise-down
check_eq "port set surprise-down" 0 "$RC"
seen_down() { kmsg_snapshot; kmsg_has surprise "*$P2*pciehp: Slot(*): Link Down*"; }
check "surprise down: pciehp says Link Down" wait_for seen_down
check "surprise down: the endpoint's pci_dev is back after it" \
	wait_for present "$E2"

# ---- a bandwidth change with LBMIE/LABIE: the vector fires --------------
setpci -s "$P2" CAP_EXP+0x12.w=c000
setpci -s "$P2" CAP_EXP+0x10.w=0c00:0c00
irqs; n0=$R
sc port set $SW 2 failed-lanes 0xc
check_eq "port set failed-lanes" 0 "$RC"
lnksta() { R=$(printf '%d' 0x"$(setpci -s "$P2" CAP_EXP+0x12.w)"); }
# lanes that fail make the link unreliable: Link Bandwidth Management
# Status, not Link Autonomous Bandwidth Status (PCIe 5.0 7.5.3.8)
bw() { lnksta; ((R & 0x4000)); }
check "lane failure: LnkSta BWMgmt+" wait_for bw
lnksta
check "lane failure: LnkSta ABWMgmt- (not an autonomous change)" \
	test $((R & 0x8000)) = 0
irqs
check "lane failure with LBMIE/LABIE: the interrupt count grew ($n0 -> $R)" \
	test "$R" -gt "$n0"
sc port set $SW 2 failed-lanes none
setpci -s "$P2" CAP_EXP+0x10.w=0000:0c00
setpci -s "$P2" CAP_EXP+0x12.w=c000

# ---- re-bifurcation: the module adds the ports, pciehp their slots -------
# (the new ports' drivers are bound after the module's rescan, outside the
# rescan lock: on the debug kernel lockdep sees pciehp's probe there)
wr "$D/$SW/group_gpu/config" 4x4 || fail "gpu 4x4: $W_ERR"
settled $SW
pci_port $SW 6; P6=$P
pci_ep $SW 6; E6=$P
hp_bound() {
	local f
	for f in "$PCI/$1/$1":pcie*; do
		[[ $(readlink "$f/driver" 2>/dev/null) == */pciehp ]] && return 0
	done
	return 1
}
check "gpu 4x4: pciehp is bound to new port 6's slot" wait_for hp_bound "$P6"
rd "$D/$SW-port6/endpoint"
if [[ -z $R ]]; then
	kmsg_mark add6
	sc ep add $SW 6 generic
	check_eq "ep add on port 6" 0 "$RC"
	check "ep add on port 6: pciehp adds its pci_dev" wait_for present "$E6"
	kmsg_snapshot
	check "... pciehp: Slot(6): Card present" \
		kmsg_has add6 "*$P6*pciehp: Slot(6*): Card present*"
else
	check "gpu 4x4: port 6's endpoint is on the PCI bus" present "$E6"
fi
wr "$D/$SW/group_gpu/config" 1x16 || fail "gpu 1x16: $W_ERR"
settled $SW
check "gpu back to 1x16: port 6 is gone" wait_for absent "$P6"

# ---- what pciehp said ----------------------------------------------------
kmsg_snapshot
for m in "del:Card not present" "add:Card present"; do
	if kmsg_has "${m%%:*}" "*$P2*pciehp: Slot(*): ${m#*:}*"; then
		ok "dmesg after ep ${m%%:*}: pciehp: Slot(N): ${m#*:}"
	else
		fail "dmesg after ep ${m%%:*}: pciehp: Slot(N): ${m#*:}"
		kmsg_after "${m%%:*}"
		diag "${K_LINES[@]}"
	fi
done
tree_ok "$SW at the end: PCI devices = model ports + endpoints" $SW

wr "$PCIESW_BUS/del_device" "$ID"
summary
