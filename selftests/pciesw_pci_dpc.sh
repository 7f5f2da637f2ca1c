#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Downstream Port Containment and the endpoints' config-space answers, as
# the kernel's DPC driver and PCI core see them (the guest boots with
# pcie_ports=dpc-native, without which 6.2+ binds DPC to Root Ports only):
#
# - the DPC service is bound on the downstream ports, which enabled
#   triggering on fatal errors and the DPC interrupt;
# - a fatal error injected on a port (malformed-tlp) triggers containment:
#   the model's link goes to disabled, the DPC driver logs the containment
#   event and the error from the port's AER registers, recovery runs the
#   endpoint driver's handlers, releases the port and the link trains
#   again; the Root Port receives no ERR_FATAL; a non-fatal one
#   (poisoned-tlp) goes to the AER driver and contains nothing;
# - a surprise down is contained and recovered the same way;
# - with the DPC driver unbound, setpci's Software Trigger contains the
#   link until setpci clears Trigger Status: sysfs dpc_contained, netlink
#   port-dpc-contained, `switchctl port show` say so, a retrain is refused
#   with the reason, the endpoint behind reads as all ones; after the
#   release the endpoint answers Configuration Request Retry Status (the
#   Vendor ID reads 0001h with the Root Port's Software Visibility on) for
#   its readiness time (pci_ready_ms, 1000 for this test), then itself;
# - a link disabled with setpci: the endpoint reads as all ones.
#
# On a kernel that gives DPC to the OS on switch ports only when told to
# (6.2 and later, without pcie_ports=dpc-native on the command line and no
# firmware granting it) the DPC service is not bound there: the test is
# skipped (make check runs it in the guests booted with dpc-native; the
# fault matrix, pciesw_pci_faults.sh, covers the default command line).
# Runs with pci_hotplug=0 (the module keeps the endpoints' pci_devs across
# link changes, so the config answers can be read); pciesw_pci_hotplug.sh
# has pciehp's side.  Skipped when the kernel has no PCI support, no DPC
# driver, or pciutils are missing; fails without switchctl.  Uses pciesw0.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
[[ -d /sys/bus/pci_express/drivers/dpc ]] ||
	skip_all "kernel without the DPC driver (CONFIG_PCIE_DPC)"
sctl_init

SW=pciesw0
pci_card $SW
pci_port $SW 1; DP1=$P
pci_port $SW 2; DP2=$P
pci_ep $SW 1; EP1=$P
pci_ep $SW 2; EP2=$P
q "$DP1"; qdp1=$R
q "$EP1"; qep1=$R

# dpc_service DEV: DEV's port service bound to the dpc driver, into R
dpc_service() {
	local s d
	R=
	for s in "$PCI/$1/$1":pcie*; do
		d=$(readlink "$s/driver" 2>/dev/null)
		[[ ${d##*/} == dpc ]] && R=${s##*/}
	done
	[[ -n $R ]]
}
# dpc_reg DEV OFF: a word of DEV's DPC capability, as a number, into R
dpc_reg() {
	R=$((0x$(setpci -s "$1" "ECAP_DPC+$2.w")))
}
# vendor DEV: the first dword of DEV's config space as read now, into R
vendor() {
	R=$(setpci -s "$1" 0.l)
}
read -r cmdline </proc/cmdline
if ! dpc_service "$DP1" && [[ " $cmdline " != *" pcie_ports=dpc-native "* ]]; then
	skip_all "DPC is not native on switch ports without pcie_ports=dpc-native"
fi
check "$DP1: its DPC service is bound to the dpc driver" dpc_service "$DP1"
check "$DP2: its DPC service is bound to the dpc driver" dpc_service "$DP2"
SVC2=$R
dpc_reg "$DP1" 6
check_eq "$DP1: the driver enabled DPC on ERR_FATAL with its interrupt" \
	$((0x9)) $((R & 0xb))
lspci_has "lspci: the DPC capability, software triggering" "$DP1" \
	"Downstream Port Containment.*DpcCap:.*SwTrigger\+"
lspci_has "lspci: the downstream port reports surprise down" "$DP1" \
	"LnkCap:.*Surprise\+"

# ---- a fatal error: contained, logged from the port's AER, recovered ----
port_hist_mark $SW 1
rd "$D/$SW-port1/surprise_down_count"; sd0=$R
log_mark
sc_ok "inject $SW 1 malformed-tlp (fatal)" inject $SW 1 malformed-tlp
logged "malformed-tlp: the DPC driver's containment event on $DP1" \
	"$qdp1: DPC: containment event, status:0x[0-9a-f]*1[ :]"
logged "... 'unmasked uncorrectable error detected'" \
	"$qdp1: DPC: .*unmasked uncorrectable error detected"
logged "... the error from the port's AER: Fatal, MalfTLP" \
	"$qdp1: (AER: )?PCIe Bus Error: severity=(Uncorrectable|Uncorrected) \(Fatal\), type=Transaction Layer"
logged "... the recovery succeeds" "$qdp1: AER: device recovery successful"
log_since
[[ $R =~ $qep1:\ pciesw:\ error\ detected\ \(channel\ state\ 2\).*$qep1:\ pciesw:\ resumed ]]
check_eq "... the endpoint driver saw a frozen channel, then resumed" 0 "$?" ||
	diag "$R"
[[ $R =~ (Fatal|Uncorrect[a-z]*)\ error\ (message\ )?received ]]
check_eq "... the Root Port got no error message (DPC keeps it)" 1 "$?" ||
	diag "$R"
check "... the model's link was held in disabled" port_hist_has $SW 1 disabled
check "... and is back in L0" wait_attr "$D/$SW-port1/ltssm_state" l0
check_attr "... not contained any more" "$D/$SW-port1/dpc_contained" 0
dpc_reg "$DP1" 8
check_eq "... DPC Status clear" 0 "$R"
aer_reg "$DP1" 0x04
check_eq "... the Uncorrectable Error Status cleared" 0 "$R"
check "... the endpoint's pci_dev stayed" test -e "$PCI/$EP1"
ep_id "$EP1"; id1=$R
vendor "$EP1"
check_eq "... and answers" "$id1" "$R"

# ---- a non-fatal error goes to AER, nothing is contained ----------------
port_hist_mark $SW 1
log_mark
sc_ok "inject $SW 1 poisoned-tlp (non-fatal)" inject $SW 1 poisoned-tlp
logged "poisoned-tlp: the AER driver's recovery" \
	"$qdp1: AER: device recovery (successful|failed)"
log_since
[[ $R =~ containment\ event ]]
check_eq "... no containment event" 1 "$?" || diag "$R"
check "... the link never left L0" eval '! port_hist_has $SW 1 disabled'

# ---- a surprise down: contained, recovered ------------------------------
port_hist_mark $SW 1
log_mark
sc_ok "port set $SW 1 surprise-down" port set $SW 1 surprise-down
logged "surprise down: a containment event on $DP1" \
	"$qdp1: DPC: containment event"
logged "... the recovery succeeds" "$qdp1: AER: device recovery successful"
log_since
[[ $R =~ $qdp1:\ (AER:\ )?\ +\[\ 5\]\ (SDES|SurpDn|Surprise) ]]
check_eq "... the port's AER says Surprise Down (bit 5)" 0 "$?" || diag "$R"
check_attr "... counted" "$D/$SW-port1/surprise_down_count" $((sd0 + 1))
check "... the link was held in disabled" port_hist_has $SW 1 disabled
check "... and is back in L0" wait_attr "$D/$SW-port1/ltssm_state" l0
check "... the endpoint's pci_dev stayed" test -e "$PCI/$EP1"

# ---- software trigger, the DPC driver bound: it recovers ----------------
log_mark
setpci -s "$DP1" ECAP_DPC+6.w=0x40:0x40
logged "setpci Software Trigger: the driver says 'software trigger'" \
	"$qdp1: DPC: .*software trigger detected"
logged "... and recovers" "$qdp1: AER: device recovery successful"
check "... the link is back in L0" wait_attr "$D/$SW-port1/ltssm_state" l0

# ---- software trigger, no driver: contained until setpci releases -------
echo "$SVC2" >/sys/bus/pci_express/drivers/dpc/unbind
check "$DP2: the DPC driver unbound" eval '! dpc_service "$DP2"'
setpci -s "$DP2" ECAP_DPC+6.w=0x0041:0x0043
check "setpci DPC on + Software Trigger: the model contains port 2" \
	wait_attr "$D/$SW-port2/dpc_contained" 1
check_attr "... its link disabled" "$D/$SW-port2/ltssm_state" disabled
dpc_reg "$DP2" 8
check_eq "... DPC Status: triggered, by software, interrupt" \
	$((0x2f)) "$R"
sc -j port show $SW 2
jqo '."port-dpc-contained"'
check_eq "netlink: port-dpc-contained" true "$J"
sc port show $SW 2
check "switchctl port show: 'link dpc'" eval '[[ $OUT == *"link dpc"* ]]' ||
	diag "$OUT"
sc_err "a retrain is refused while contained" 1 \
	"held by DPC containment" port set $SW 2 retrain
vendor "$EP2"
check_eq "the endpoint behind the contained port reads all ones" \
	ffffffff "$R"
log_mark
# from before the write: the readiness time starts when the released link
# is back up, which can be before setpci has exited
ep_id "$EP2"; id2=$R
seen=() t0=$EPOCHREALTIME
setpci -s "$DP2" ECAP_DPC+8.w=0x0009
deadline 20000
while before_deadline; do
	vendor "$EP2"
	# (${seen[-1]} of an empty array is an error, not "")
	((${#seen[@]})) && [[ ${seen[-1]} == "$R" ]] || seen+=("$R")
	[[ $R == "$id2" ]] && break
	nap 0.02
done
t1=$EPOCHREALTIME
# all ones first while the link trains, if a read comes that soon
R="${seen[*]}"
check_eq "setpci clears Trigger Status: Retry Status, then the endpoint" \
	"ffff0001 $id2" "${R#ffffffff }"
ms=$(((${t1/./} - ${t0/./}) / 1000))
check "... which lasted its readiness time (${ms} ms >= 1000)" test "$ms" -ge 1000
check_attr "... released" "$D/$SW-port2/dpc_contained" 0
check_attr "... its link in L0" "$D/$SW-port2/ltssm_state" l0
setpci -s "$DP2" ECAP_DPC+6.w=0:0x0043
echo "$SVC2" >/sys/bus/pci_express/drivers/dpc/bind
check "$DP2: the DPC driver bound again" dpc_service "$DP2"

# ---- Link Disable: the endpoint behind reads all ones -------------------
setpci -s "$DP2" CAP_EXP+0x10.w=0x0010:0x0010
wait_attr "$D/$SW-port2/ltssm_state" disabled
vendor "$EP2"
check_eq "setpci Link Disable: the endpoint reads all ones" ffffffff "$R"
lspci_has "... lspci shows no header" "$EP2" "Unknown header type 7f"
setpci -s "$DP2" CAP_EXP+0x10.w=0x0000:0x0010
wait_attr "$D/$SW-port2/ltssm_state" l0
check "Link Disable cleared: the endpoint answers once it is ready" \
	ep_ready "$EP2"
summary
