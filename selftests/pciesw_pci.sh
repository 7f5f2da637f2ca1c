#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PCI view: every switch is a PCI hierarchy in a domain of its own, the
# lowest free one above 0xffff when it was created.
# The default card's tree in lspci -tv, drivers (pcieport on the ports,
# pciesw on the endpoints), lspci -vvv decoding VPD (checksum good), DSN,
# AER, ACS as the model says; the PCI core's current_link_width/speed
# against the model and switchctl for every port, after a lane failure
# too; AER status from injected errors and its write-1-to-clear; the tree
# config writes the model applies (setpci Link Disable and the netlink
# event, Retrain Link with Link Training and LBMS, Target Link Speed,
# LABS, Secondary Bus Reset and the endpoint's reset, the endpoint's
# sysfs reset, ACS redirect and p2p check, MPS and MRRS, slot power and
# indicators, AER masks, VPD-W
# written and VPD-R refused through the sysfs vpd file); the Gen5
# extended capabilities in lspci -vvv, Lane Error Status from a failed
# lane, Lane Margining commands answered from lane health and BER;
# after bifurcation changes and hot-unplug/plug; remove + rescan; the
# pci_view setting (sysfs, switchctl); the pci_view=0 module parameter;
# 10 load/unload cycles with lspci reading in a loop (5 on the debug plan,
# PCIESW_REDUCED).  Every load passes PCIESW_MODARGS first.
#
# Skipped when the kernel has no PCI support or pciutils are missing;
# fails without switchctl.  Uses switch ids 64-65.  PCIESW_KO names the
# module file (run.sh sets it) for the load/unload part; leaves the module
# unloaded.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
sctl_init 64 65

D=$PCIESW_DEVS
ID=64
SW=pciesw$ID

# ---- the default card, as loaded ----------------------------------------
SW0=pciesw0
if [[ ! -e $D/$SW0 ]]; then
	bail "pciesw0 is not there (the runner loads the module with it)"
fi
rd "$D/$SW0/pci_view"
check_eq "pciesw0: pci_view is on by default" 1 "$R"
rd "$D/$SW0/pci_domain"
check_eq "pciesw0: pci_domain is the highest free one below 10000" ffff "$R"
D0=$R
settled $SW0 || diag "pciesw0 did not settle"
tree_ok "pciesw0: PCI devices = Root Port, model ports + endpoints" $SW0
pci_rp $SW0; RP0=$P
pci_port $SW0 0; UP0=$P
pci_port $SW0 1; DP0=$P

out=$(lspci -tv 2>/dev/null)
if [[ $out == *"[$D0:00]---00.0-[01-"*"---00.0-[02-"*"NVIDIA Corporation GH100 [H100 PCIe]"* ]]; then
	ok "lspci -tv shows the card's tree"
else
	fail "lspci -tv shows the card's tree"
	diag "$out"
fi
diag "$out"

bad=
for p in "$D/$SW0"-port*; do
	i=${p##*-port}
	pci_port $SW0 "$i"
	driver "$P"
	[[ $R == pcieport ]] || bad+=" $P:$R"
	rd "$p/endpoint"
	if [[ -n $R ]]; then
		pci_ep $SW0 "$i"
		driver "$P"
		[[ $R == pciesw ]] || bad+=" $P:$R"
	fi
done
check_eq "ports bound to pcieport, endpoints to pciesw" "" "$bad"
driver "$RP0"
check_eq "Root Port $RP0 bound to pcieport" pcieport "$R"
pci_ep $SW0 1
rd "$PCI/$P/class"
check_eq "gpu endpoint: 3D controller class" 0x030200 "$R"
pci_ep $SW0 2
rd "$PCI/$P/class"
check_eq "nvme endpoint: NVM Express class" 0x010802 "$R"
rd "$PCI/$UP0/vendor"
check_eq "switch vendor Broadcom" 0x1000 "$R"
lspci_has "Root Port: Type 4, Root Control, AER with its root registers" \
	"$RP0" "Express \(v2\) Root Port.*RootCap:.*RootSta:.*Advanced Error Reporting.*RootCmd:.*RootSta:.*ErrorSrc:"
pci_bus "$UP0"; upbus=$PB
rd "$PCI/$RP0/secondary_bus_number"
check_eq "Root Port: the upstream port's bus is its secondary" \
	"$((16#$upbus))" "$R"

rd "$D/$SW0/serial_number"; serial=$R
lspci_has "upstream port: VPD decoded, checksum good" "$UP0" \
	"Vital Product Data.*\[SN\] Serial number: $serial.*checksum good.*End"
# DSN: Broadcom's 00-80-ee-00 above the serial's number
num=$((10#${serial:5}))
printf -v dsn '00-80-ee-00-%02x-%02x-%02x-%02x' $((num >> 24 & 255)) \
	$((num >> 16 & 255)) $((num >> 8 & 255)) $((num & 255))
lspci_has "upstream port: DSN is the serial, in Broadcom's format" "$UP0" \
	"Device Serial Number $dsn"
lspci_has "downstream port: the same DSN" "$DP0" \
	"Device Serial Number $dsn"
# what the real downstream ports show
S='[[:space:]]+'
lspci_has "downstream port: DevCap MaxPayload 512" "$DP0" \
	"DevCap:${S}MaxPayload 512 bytes"
lspci_has "downstream port: LnkCap Surprise+ LLActRep+ BwNot+" "$DP0" \
	"LnkCap:.*Surprise\+ LLActRep\+ BwNot\+"
# (hot-plug slots with pci_hotplug=1, pciesw_pci_fidelity.sh's)
hp=- hpre=-
[[ $(</sys/module/pciesw/parameters/pci_hotplug) == [Y1] ]] && hp=+ hpre='\+'
lspci_has "downstream port: SltCap power controller, MRL, indicators, HotPlug$hp Surprise$hp" \
	"$DP0" "SltCap:${S}AttnBtn- PwrCtrl\+ MRL\+ AttnInd\+ PwrInd\+ HotPlug$hpre Surprise$hpre"
lspci_has "downstream port: the MRL is closed" "$DP0" \
	"SltSta:${S}Status: AttnBtn- PowerFlt- MRL- "
lspci_has "downstream port: DevCap2 10BitTagComp+ ARIFwd+ AtomicOpsCap Routing+" \
	"$DP0" "DevCap2:.*10BitTagComp\+.*ARIFwd\+.*AtomicOpsCap: Routing\+"
lspci_has "downstream port: AERCap ECRCGenCap+ ECRCChkCap+" "$DP0" \
	"AERCap:.*ECRCGenCap\+ ECRCGenEn- ECRCChkCap\+ ECRCChkEn-"
lspci_has "downstream port: DpcCap PoisonedTLP+ SwTrigger+ DL_ActiveErr+" "$DP0" \
	"DpcCap:.*RPExt- PoisonedTLP\+ SwTrigger\+.*DL_ActiveErr\+"
lspci_has "upstream port: AtomicOps routing, ECRC; no ARI forwarding" "$UP0" \
	"DevCap:${S}MaxPayload 512 bytes.*DevCap2:.*AtomicOpsCap: Routing\+.*ECRCGenCap\+ ECRCGenEn- ECRCChkCap\+"
lspci_hasnt "upstream port: no ARIFwd+" "$UP0" "ARIFwd\+"
# ECRC enables: writable on the ports, read-only 0 on an endpoint
setpci -s "$DP0" ECAP_AER+0x18.l=0x140:0x140
check_eq "downstream port: ECRC generation and check enables are writable" \
	$((0x140)) $((0x$(setpci -s "$DP0" ECAP_AER+0x18.l) & 0x140))
setpci -s "$DP0" ECAP_AER+0x18.l=0:0x140
pci_ep $SW0 2; EN=$P
setpci -s "$EN" ECAP_AER+0x18.l=0x140:0x140
check_eq "endpoint: no ECRC, the enables read 0" 0 \
	$((0x$(setpci -s "$EN" ECAP_AER+0x18.l) & 0x140))
# DPC Control: Poisoned TLP Egress Blocking and DL_Active ERR_COR enables
# are writable
dpcctl=$(setpci -s "$DP0" ECAP_DPC+6.w)
setpci -s "$DP0" ECAP_DPC+6.w=0x00a0:0x00a0
lspci_has "DpcCtl: PoisonedTLP+ DL_ActiveErr+ once written" "$DP0" \
	"DpcCtl:.*PoisonedTLP\+ SwTrigger- DL_ActiveErr\+"
setpci -s "$DP0" ECAP_DPC+6.w="$dpcctl"
lspci_has "upstream port: Upstream Port, AER" "$UP0" \
	"Express \(v2\) Upstream Port.*Advanced Error Reporting"
lspci_has "downstream port: slot, presence, DLActive, ACS" "$DP0" \
	"Downstream Port \(Slot\+\).*DLActive\+.*PresDet\+.*Access Control Services"
links_ok "pciesw0: PCI link width/speed = model, every port and endpoint" $SW0

# ---- a second card to change ---------------------------------------------
wr "$PCIESW_BUS/new_device" "$ID" || fail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"
DOM=$(dom $ID)
check_eq "$SW: the next free domain down" fffe "$DOM"
tree_ok "$SW: its own domain $DOM" $SW
# a domain freed is the first free again; the view off keeps the domain
wr "$PCIESW_BUS/del_device" "$ID" || fail "del_device $ID: $W_ERR"
wr "$PCIESW_BUS/new_device" "$((ID + 1))" || fail "new_device $((ID + 1)): $W_ERR"
rd "$D/pciesw$((ID + 1))/pci_domain"
check_eq "pciesw$((ID + 1)): takes the domain pciesw$ID left" fffe "$R"
wr "$D/pciesw$((ID + 1))/pci_view" 0 || fail "pci_view 0: $W_ERR"
rd "$D/pciesw$((ID + 1))/pci_domain"
check_eq "pciesw$((ID + 1)): keeps its domain with the view off" fffe "$R"
wr "$PCIESW_BUS/del_device" "$((ID + 1))" || fail "del_device $((ID + 1)): $W_ERR"
wr "$PCIESW_BUS/new_device" "$ID" || fail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"
DOM=$(dom $ID)
check_eq "$SW: created again, in the first free domain" fffe "$DOM"

# switchctl -j status against the PCI core
sc -j status $SW
bad=
while read -r port width; do
	pci_port $SW "$port"
	rd "$PCI/$P/current_link_width"
	[[ $R == "$width" ]] || bad+=" $P:$R!=$width"
done < <(jq -r '.ports[] | "\(."port-id") \(."port-width")"' <<<"$OUT")
check_eq "switchctl status port widths = PCI current_link_width" "" "$bad"

# lane failure: x16 -> x8, LnkSta says downgraded, and LBMS (unreliable
# operation corrected), not LABS; both cleared first (RW1C)
pci_port $SW 1
setpci -s "$P" CAP_EXP+0x12.w=0xc000
sc port set $SW 1 failed-lanes 0xff00
check_eq "port set failed-lanes" 0 "$RC"
wait_attr "$D/$SW-port1/current_link_width" 8 || diag "port1 did not retrain"
settled $SW
check_attr "model: port1 degraded" "$D/$SW-port1/degraded" 1
R=$((0x$(setpci -s "$P" CAP_EXP+0x12.w) & 0xc000))
check_eq "lane failure: LnkSta LBMS+ LABS-" $((0x4000)) "$R"
check_attr "PCI: port1 current_link_width 8" "$PCI/$P/current_link_width" 8
# pciutils >= 3.10 adds "(downgraded)"; all say LnkSta narrower than LnkCap
lspci_has "lspci: port1 LnkSta x8 below LnkCap x16 (downgraded)" "$P" \
	"LnkCap:[^$NL]*Width x16.*LnkSta:[^$NL]*Width x8( \(downgraded\))?$NL"
links_ok "$SW after the lane failure: PCI = model for every port" $SW
sc port set $SW 1 failed-lanes none
wait_attr "$D/$SW-port1/current_link_width" 16
settled $SW

# AER status from injected errors; write 1 to clear.  With error reporting
# off in Device Control the port sends no message, and the status stays
# for software (the AER driver would read and clear it at once)
pci_port $SW 2; P2=$P
setpci -s "$P2" CAP_EXP+8.w=0:7
lspci_has "AER: no correctable error yet" "$P2" "CESta:[^$NL]*RxErr-"
sc inject $SW 2 receiver-error --count 3
check_eq "inject receiver-error" 0 "$RC"
lspci_has "AER: RxErr+ after injected receiver errors" "$P2" \
	"DevSta:[^$NL]*CorrErr\+.*CESta:[^$NL]*RxErr\+"
setpci -s "$P2" ECAP_AER+0x10.l=0x00000001
lspci_has "AER: RxErr- after software clears it" "$P2" "CESta:[^$NL]*RxErr-"
# (and DPC off: the DPC driver would contain the fatal one and clear it)
dpcctl=$(setpci -s "$P2" ECAP_DPC+6.w)
setpci -s "$P2" ECAP_DPC+6.w=0:3
sc inject $SW 2 malformed-tlp
lspci_has "AER: MalfTLP+ (fatal by severity: FatalErr+)" "$P2" \
	"DevSta:[^$NL]*FatalErr\+.*UESta:[^$NL]*MalfTLP\+"
sc errors clear $SW 2
lspci_has "AER: clear counters clears the status" "$P2" \
	"UESta:[^$NL]*MalfTLP-"
setpci -s "$P2" CAP_EXP+8.w=7:7 ECAP_DPC+6.w="$dpcctl"

# ACS control follows the model's redirect
lspci_has "ACS: redirect off" "$P2" "ACSCtl:[^$NL]*ReqRedir- CmpltRedir-"
sc port set $SW 2 acs on
lspci_has "ACS: port set acs on -> ReqRedir+ CmpltRedir+" "$P2" \
	"ACSCtl:[^$NL]*ReqRedir\+ CmpltRedir\+"
sc port set $SW 2 acs off

# ---- config writes reach the model --------------------------------------
T_CFG=${EPOCHREALTIME/./}
# the debug plan's reduced form leaves out the monitor, the speed changes,
# the sysfs reset, MRRS, slot power, AER masks, the refused VPD write and
# most margin commands
reduced && note_reduced "config writes: the checks that need no monitor, speed change or timeout"
# (the model applies them off the config path; config space follows)
cfg_poke() {
	sc port set $SW 5 acs on
	sc port set $SW 5 acs off
}
MON_PID=
if ! reduced; then
	start_monitor cfg_poke
	check_eq "monitor -j is running" 0 "$?" || diag "$(<"$T_TMP/mon.err")"
fi
pci_ep $SW 2; E2=$P
# lnksta DEV: Link Status of DEV as a number, in $R
lnksta() { R=$((0x$(setpci -s "$1" CAP_EXP+0x12.w))); }
# hist_mark / hist_has TO: the model's LTSSM history of port 2 gained a
# transition to TO since hist_mark (bash only: no process per check)
hist_mark() { mapfile -t HIST <"$D/$SW-port2/ltssm_history"; H0=${#HIST[@]}; }
hist_has() {
	local i
	mapfile -t HIST <"$D/$SW-port2/ltssm_history"
	for ((i = H0; i < ${#HIST[@]}; i++)); do
		[[ ${HIST[i]} == *" $1" ]] && return 0
	done
	return 1
}

setpci -s "$P2" CAP_EXP+0x10.w=0x0010:0x0010
wait_attr "$D/$SW-port2/ltssm_state" disabled
check_attr "setpci Link Disable: the model's port 2 is disabled" \
	"$D/$SW-port2/enabled" 0
sc -j status $SW
check_eq "switchctl status: port 2 disabled" false \
	"$(jq -r '.ports[] | select(."port-id" == 2) | ."port-enabled"' <<<"$OUT")"
if [[ -n $MON_PID ]]; then
	mon_wait '"event":"port-change"' '"disabled"' ||
		fail "monitor -j: no port-change disabled after Link Disable"
fi
lspci_has "lspci: LnkCtl Disabled+, DLActive-" "$P2" \
	"LnkCtl:[^$NL]*Disabled\+.*LnkSta:.*DLActive-"
setpci -s "$P2" CAP_EXP+0x10.w=0x0000:0x0010
wait_attr "$D/$SW-port2/ltssm_state" l0
check_attr "clearing Link Disable: the link trains again" \
	"$D/$SW-port2/enabled" 1
sc port set $SW 2 state down
R=$((0x$(setpci -s "$P2" CAP_EXP+0x10.w)))
check "switchctl state down shows as Link Disable in LnkCtl" \
	test $((R & 0x10)) -ne 0
sc port set $SW 2 state up
wait_attr "$D/$SW-port2/ltssm_state" l0

# Retrain Link: Link Training while it trains, LBMS when it is done (as
# pcie_retrain_link() waits for it); Target Link Speed changes the speed
hist_mark
# one setpci: the read follows the write by microseconds, not the 2 ms of
# modeled Recovery; LBMS and LABS cleared first
R=$((0x$(setpci -s "$P2" CAP_EXP+0x12.w=0xc000 CAP_EXP+0x10.w=0x0020:0x0020 \
	CAP_EXP+0x12.w)))
check "Retrain Link: Link Training reads 1 at once" test $((R & 0x0800)) -ne 0
deadline 5000
while lnksta "$P2"; ((R & 0x0800)) && before_deadline; do nap; done
check "Retrain Link: Link Training clears, LBMS set" \
	test $((R & 0x4800)) -eq $((0x4000))
check "Retrain Link: the model's link went through Recovery" hist_has recovery
if ! reduced; then
	rd "$PCI/$P2/current_link_speed"; s0=$R
	# as pcie_retrain_link() after a new target speed
	setpci -s "$P2" CAP_EXP+0x12.w=0xc000 CAP_EXP+0x30.w=0x0002:0x000f \
		CAP_EXP+0x10.w=0x0020:0x0020
	wait_attr "$PCI/$P2/current_link_speed" "5.0 GT/s PCIe"
	check_attr "Target Link Speed 5GT/s + retrain: model target gen2" \
		"$D/$SW-port2/target_link_speed" "5.0 GT/s PCIe"
	check_attr "... PCI current_link_speed 5.0 GT/s" \
		"$PCI/$P2/current_link_speed" "5.0 GT/s PCIe"
	lnksta "$P2"
	check "... LBMS+ LABS- (software's retrain)" \
		test $((R & 0xc000)) -eq $((0x4000))
	setpci -s "$P2" CAP_EXP+0x12.w=0xc000
	sc port set $SW 2 speed gen5
	wait_attr "$PCI/$P2/current_link_speed" "$s0"
	lspci_has "switchctl target speed gen5: LnkCtl2 5GT/s+ -> 32GT/s, LABS+" "$P2" \
		"LnkSta:.*ABWMgmt\+.*LnkCtl2: Target Link Speed: 32GT/s"
	setpci -s "$P2" CAP_EXP+0x12.w=0xc000
fi

# Secondary Bus Reset: a hot reset of the link, the endpoint's config
# space back to its defaults; the kernel's bus reset of the endpoint
setpci -s "$E2" COMMAND=0x0006
hist_mark
setpci -s "$P2" BRIDGE_CONTROL=0x0040:0x0040 BRIDGE_CONTROL=0x0000:0x0040
wait_attr "$D/$SW-port2/ltssm_state" l0
check "Secondary Bus Reset: the model's link went through hot-reset" \
	hist_has hot-reset
check "... the endpoint answers again once its reset is over" ep_ready "$E2"
check_eq "... the endpoint's Command register is reset" 0000 \
	"$(setpci -s "$E2" COMMAND)"
if ! reduced; then
	# the bus reset (FLR comes first by default: pciesw_pci_ident.sh)
	hist_mark
	check "echo bus > $E2/reset_method" wr "$PCI/$E2/reset_method" bus
	check "echo 1 > $E2/reset succeeds" wr "$PCI/$E2/reset" 1
	check "... through a hot reset of port 2" hist_has hot-reset
	wr "$PCI/$E2/reset_method" default
	settled $SW
fi

# ACS Control: the kernel's and setpci's writes are the model's redirect
setpci -s "$P2" ECAP_ACS+6.w=0x000c:0x000c
wait_attr "$D/$SW-port2/acs_redirect" 1
check_attr "setpci ACS ReqRedir+ CmpltRedir+: the model's acs_redirect" \
	"$D/$SW-port2/acs_redirect" 1
sc p2p check $SW nvme0 gpu0
check "... switchctl p2p check: through the host bridge" \
	eval '[[ $OUT == *"distance 8"* ]]'
setpci -s "$P2" ECAP_ACS+6.w=0x0000:0x000c
wait_attr "$D/$SW-port2/acs_redirect" 0
sc p2p check $SW nvme0 gpu0
check "setpci ACS redirect off: p2p check direct again" \
	eval '[[ $RC == 0 && $OUT == *"direct, distance 4"* ]]'

# ACS P2P Egress Control: the vector names port numbers; port 2 naming the
# port of the other endpoint blocks their P2P, or redirects it with
# ReqRedir; Egress Control off lets it through again
S='[[:space:]]+'
lspci_has "ACSCap: SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+" \
	"$P2" "ACSCap:${S}SrcValid\+ TransBlk\+ ReqRedir\+ CmpltRedir\+ UpstreamFwd\+ EgressCtrl\+ DirectTrans\+"
rd "$D/$SW-port2/endpoint"
[[ $R == nvme0 ]] && peer=gpu0 || peer=nvme0
pp=
for f in "$D/$SW"-port*/endpoint; do
	rd "$f"
	[[ $R == "$peer" ]] && { pp=${f%/endpoint}; pp=${pp##*-port}; }
done
[[ -n $pp ]] || fail "the port of $peer"
egress=$(printf '0x%x' $((1 << ${pp:-1})))
setpci -s "$P2" ECAP_ACS+8.l="$egress"
nap 0.3
check_attr "egress vector with Egress Control off: the model's acs_egress 0" \
	"$D/$SW-port2/acs_egress" 0x0
setpci -s "$P2" ECAP_ACS+6.w=0x0020:0x0020
wait_attr "$D/$SW-port2/acs_egress" "$egress"
check_attr "setpci EgressCtrl+ naming port $pp: the model's acs_egress" \
	"$D/$SW-port2/acs_egress" "$egress"
sc p2p check $SW nvme0 gpu0
check "... p2p check: refused, blocked by egress control" \
	eval '[[ $OUT == *"refused, distance 4"* && $OUT == *"Egress Control"* ]]' ||
	diag "$OUT"
setpci -s "$P2" ECAP_ACS+6.w=0x000c:0x000c
wait_attr "$D/$SW-port2/acs_redirect" 1
sc p2p check $SW nvme0 gpu0
check "... with ReqRedir+ CmpltRedir+: redirected through the host bridge" \
	eval '[[ $OUT == *"distance 8"* ]]' || diag "$OUT"
setpci -s "$P2" ECAP_ACS+6.w=0:0x002c
wait_attr "$D/$SW-port2/acs_egress" 0x0
wait_attr "$D/$SW-port2/acs_redirect" 0
sc p2p check $SW nvme0 gpu0
check "... Egress Control and redirect off: direct again" \
	eval '[[ $RC == 0 && $OUT == *"direct, distance 4"* ]]' || diag "$OUT"
setpci -s "$P2" ECAP_ACS+8.l=0

# Device Control: MPS is the switch's (one value), MRRS the endpoints'
setpci -s "$P2" CAP_EXP+8.w=0x0040:0x00e0
wait_attr "$D/$SW/mps" 512
check_attr "setpci MaxPayload 512: the switch's mps" "$D/$SW/mps" 512
lspci_has "... every port shows it" "$(pci_port $SW 0; echo "$P")" \
	"DevCtl:.*MaxPayload 512 bytes"
sc switch set $SW mps 256
R=$((0x$(setpci -s "$P2" CAP_EXP+8.w)))
check_eq "switchctl mps 256: config space shows it" 1 $(((R >> 5) & 7))
if ! reduced; then
	pci_ep $SW 1; E1=$P
	setpci -s "$E2" CAP_EXP+8.w=0x1000:0x7000
	deadline 5000
	while (((0x$(setpci -s "$E1" CAP_EXP+8.w) & 0x7000) != 0x1000)) &&
		before_deadline; do nap; done
	check "setpci MaxReadReq 256 on one endpoint: the model's, all show it" \
		before_deadline
	setpci -s "$E2" CAP_EXP+8.w=0x2000:0x7000
fi

# Slot Control: Power Controller Control is the model's slot power (off:
# the link goes down and cannot train), the indicators are stored
if ! reduced; then
	setpci -s "$P2" CAP_EXP+0x18.w=0x0440:0x04c0
	wait_attr "$D/$SW-port2/ltssm_state" detect
	check_attr "Slot Control power off: port 2's link is down, still enabled" \
		"$D/$SW-port2/enabled" 1
	lspci_has "SltCtl: AttnInd On, PwrInd On, Power+ (off)" "$P2" \
		"SltCtl:.*AttnInd On, PwrInd On, Power\+"
	setpci -s "$P2" CAP_EXP+0x18.w=0x00c0:0x04c0
	wait_attr "$D/$SW-port2/ltssm_state" l0
	check_attr "Slot Control power on: the link trains again" \
		"$D/$SW-port2/ltssm_state" l0
fi

# AER masks: a masked error counts and sets its status bit (as the spec
# says) but is not reported: no Device Status bit, no First Error Pointer
if ! reduced; then
	setpci -s "$P2" ECAP_AER+0x08.l=0x00040000:0x00040000
	sc inject $SW 2 malformed-tlp
	lspci_has "AER: masked MalfTLP: UESta MalfTLP+, DevSta FatalErr-, FEP 0" "$P2" \
		"DevSta:[^$NL]*FatalErr-.*UESta:[^$NL]*MalfTLP\+.*First Error Pointer: 00"
	sc errors clear $SW 2
	setpci -s "$P2" ECAP_AER+0x08.l=0x00000000:0x00040000
fi

# VPD-W through config space, by the rules of every view: a VPD-W value
# changes (the write waits for the model), a VPD-R write is refused and
# pci_write_vpd() says so (F never clears: it times out)
sc vpd set $SW asset-tag abcdefgh
pci_port $SW 0; U=$P
img=$(od -An -tx1 -v "$PCI/$U/vpd" | tr -d ' \n')
pre=${img%%5941086162636465*}
al=$(((${#pre} / 2 + 3 + 3) / 4 * 4))
printf 'WXYZ' | dd of="$PCI/$U/vpd" bs=4 seek=$((al / 4)) conv=notrunc \
	status=none 2>"$T_TMP/dd.err"
check_eq "VPD write of the asset tag through config space succeeds" 0 "$?" ||
	diag "$(<"$T_TMP/dd.err")"
rd "$D/$SW/vpd_info/asset_tag"
check "... and lands in the model's VPD-W" eval '[[ $R == *WXYZ* && ${#R} == 8 ]]' ||
	diag "$R"
if ! reduced; then
	printf 'ZZZZ' | dd of="$PCI/$U/vpd" bs=4 seek=1 conv=notrunc status=none \
		2>"$T_TMP/dd.err"
	check "VPD-R write through config space: refused (the write fails)" \
		test $? -ne 0
	check_eq "... and the image is unchanged there" "${img:8:8}" \
		"$(od -An -tx1 -v -j4 -N4 "$D/$SW/vpd" | tr -d ' \n')"
fi

sc vpd set $SW asset-tag ""

if [[ -n $MON_PID ]]; then
	kill -TERM "$MON_PID"
	wait "$MON_PID"
	MON_PID=
fi

# ---- Gen5 extended capabilities ------------------------------------------
# (pciutils 3.9 names PL 32.0 GT/s "Extended Capability ID 0x2a")
lspci_has "Gen5: Secondary PCIe, DLF, PL 16 GT/s, Lane Margining, PL 32 GT/s" "$P2" \
	"Secondary PCI Express.*Data Link Feature.*Physical Layer 16.0 GT/s.*Lane Margining at the Receiver.*(Physical Layer 32.0 GT/s|Extended Capability ID 0x2a)"
# the capabilities where Broadcom's PEX890xx parts have them, in their
# chain's order (Documentation/pci-view.md)
lspci_has "downstream port: the PEX890xx layout, in chain order" "$P2" \
	"\[40\] Power Management.*\[48\] MSI.*\[68\] Express.*\[a4\] Subsystem.*\[100 v1\] Device Serial Number.*\[fb4 v2\] Advanced Error Reporting.*\[db4 v1\] Secondary PCI Express.*\[148 v1\] Virtual Channel.*\[af4 v1\] Data Link Feature.*\[d00 v1\] Physical Layer 16.0 GT/s.*\[d40 v1\] Lane Margining.*\[e40 v1\] (Physical Layer 32.0 GT/s|Extended Capability ID 0x2a).*\[b70 v1\] Vendor Specific Information: ID=0001 Rev=0 Len=010.*\[f24 v1\] Access Control Services.*\[b60 v1\] Downstream Port Containment"
lspci_has "Virtual Channel: VC0 alone, enabled, every TC" "$P2" \
	"Virtual Channel.*LPEVC=0 .*VC0:.*Arb:.*Fixed\+.*Ctrl:.*Enable\+ ID=0 ArbSelect=Fixed TC/VC=ff"
lspci_has "upstream port: VPD after the Subsystem ID, the Gen5 chain" "$U" \
	"\[a4\] Subsystem.*\[ac\] Vital Product Data.*\[100 v1\] Device Serial Number.*\[e40 v1\].*\[b70 v1\] Vendor Specific"
lspci_hasnt "upstream port: no ACS, no DPC" "$U" \
	"Access Control Services|Downstream Port Containment"
sc port set $SW 2 failed-lanes 0x4
wait_attr "$D/$SW-port2/current_link_width" 2
lspci_has "failed lane 2: Lane Error Status says lane 2" "$P2" \
	"LaneErrStat: LaneErr at lane: 2$NL"
# margin CMD LANE: Lane Control of LANE = CMD (receiver 1), its Lane
# Status in $R
margin() {
	local o=$((8 + 4 * $2))
	R=$(setpci -s "$P2" "$(printf 'ECAP_LMR+%#x' $o).w=$1" \
		"$(printf 'ECAP_LMR+%#x' $((o + 2))).w")
}
margin 0x8a09 0
check_eq "margining: report timing steps: 16" 1009 "$R"
if ! reduced; then
	margin 0x0819 0
	check_eq "margining: 8 timing steps on a healthy lane: no errors" 8019 "$R"
	margin 0x0f19 0
	check_eq "margining: 15 steps: past the eye, error limit exceeded" 1819 "$R"
	margin 0x0819 2
	check_eq "margining: the failed lane NAKs" c019 "$R"
	sc port set $SW 2 ber 1e-9
	margin 0x0819 0
	check_eq "margining at BER 1e-9: 8 steps now fail" 2019 "$R"
	margin 0x9c38 0
	check_eq "margining: no command" 9c38 "$R"
fi

sc port set $SW 2 ber 0 failed-lanes none
wait_attr "$D/$SW-port2/current_link_width" 4
diag "config writes and Gen5 capabilities took $(((${EPOCHREALTIME/./} - T_CFG) / 1000)) ms"

# VPD follows the model: V2 names the bifurcation
wr "$D/$SW/group_nvme/config" 2x8 || fail "nvme 2x8: $W_ERR"
settled $SW
tree_ok "bifurcation nvme 2x8: PCI tree follows" $SW
links_ok "nvme 2x8: PCI link = model" $SW
pci_port $SW 0
lspci_has "VPD V2 says nvme:2x8" "$P" "\[V2\][^$NL]*nvme:2x8"
wr "$D/$SW/group_nvme/config" 16x1 || fail "nvme 16x1: $W_ERR"
settled $SW
tree_ok "bifurcation nvme 16x1: PCI tree follows" $SW
wr "$D/$SW/group_gpu/config" 4x4 || fail "gpu 4x4: $W_ERR"
settled $SW
tree_ok "bifurcation gpu 4x4 (other ports keep their numbers): PCI tree follows" $SW
links_ok "gpu 4x4, nvme 16x1: PCI link = model" $SW
wr "$D/$SW/group_gpu/config" 1x16
wr "$D/$SW/group_nvme/config" 4x4
settled $SW
tree_ok "back to 1x16 / 4x4" $SW

# stable port numbers: gpu 4x4 and back leaves every nvme port's PCI
# device where it was (same address, same pci_dev: same sysfs inode), and
# the gpu group's new ports 6-8 (lanes 20, 24, 28) sit at 02:06.0-02:08.0
# with their number in Link Capabilities
# (nvme 2x8 earlier unplugged nvme2-3: ports 4 and 5 are empty)
declare -A PINO EINO
for i in 2 3 4 5; do
	pci_port $SW $i; PINO[$i]=$(stat -Lc %i "$PCI/$P")
	pci_ep $SW $i; EINO[$i]=$(stat -Lc %i "$PCI/$P" 2>/dev/null)
done
check "the nvme drives on ports 2 and 3 are on the PCI bus" \
	test -n "${EINO[2]}" -a -n "${EINO[3]}"
stable_pci() {
	local i bad=
	for i in 2 3 4 5; do
		pci_port $SW $i
		lspci -s "$P" | grep -q . || bad+=" $P:lspci"
		[[ $(stat -Lc %i "$PCI/$P" 2>/dev/null) == "${PINO[$i]}" ]] ||
			bad+=" $P:re-created"
		[[ -n ${EINO[$i]} ]] || continue
		pci_ep $SW $i
		lspci -s "$P" | grep -q . || bad+=" $P:lspci"
		[[ $(stat -Lc %i "$PCI/$P" 2>/dev/null) == "${EINO[$i]}" ]] ||
			bad+=" $P:re-created"
	done
	if [[ -n $bad ]]; then
		fail "$1:$bad"
	else
		ok "$1"
	fi
}
wr "$D/$SW/group_gpu/config" 4x4 || fail "gpu 4x4: $W_ERR"
settled $SW
tree_ok "gpu 4x4: PCI tree follows" $SW
stable_pci "gpu 4x4: the nvme ports' and drives' PCI devices are untouched"
for i in 1 6 7 8; do
	pci_port $SW $i
	check "gpu 4x4: port $i is $P" test -e "$PCI/$P"
	lspci_has "gpu 4x4: $P LnkCap Port #$i" "$P" "LnkCap:[^$NL]*Port #$i,"
done
check_eq "gpu 4x4: group_gpu/ports" "1-1,6-8" "$(cat "$D/$SW/group_gpu/ports")"
wr "$D/$SW/group_gpu/config" 1x16 || fail "gpu 1x16: $W_ERR"
settled $SW
tree_ok "gpu 1x16 again: PCI tree follows" $SW
stable_pci "gpu 1x16 again: the nvme ports' and drives' PCI devices are untouched"
pci_port $SW 6
check "gpu 1x16 again: port 6 ($P) is gone" test ! -e "$PCI/$P"

# hot-unplug and plug
pci_ep $SW 3; E3=$P
pci_port $SW 3; P3=$P
wr "$D/$SW-port3/ep_remove" 1 || fail "ep_remove: $W_ERR"
check "hot-unplug: the endpoint's PCI device is gone" test ! -e "$PCI/$E3"
tree_ok "hot-unplug: PCI tree follows" $SW
lspci_has "hot-unplug: PresDet- and PresDet changed" "$P3" \
	"SltSta:[^$NL]*PresDet-.*Changed:[^$NL]*PresDet\+"
setpci -s "$P3" CAP_EXP+0x1a.w=0x0108
wr "$D/$SW-port3/ep_add" nvme || fail "ep_add: $W_ERR"
settled $SW
check "hot-plug: the endpoint is back" dev_wait "$E3"
driver "$E3"
check_eq "hot-plug: bound to pciesw" pciesw "$R"
lspci_has "hot-plug: PresDet+, DLActive+" "$P3" \
	"DLActive\+.*PresDet\+"
links_ok "after hot-plug: PCI link = model" $SW

# remove and rescan, as software does it
echo 1 >"$PCI/$P3/remove"
check "remove: the port is gone" test ! -e "$PCI/$P3"
check "remove: so is its endpoint" test ! -e "$PCI/$E3"
echo 1 >/sys/bus/pci/rescan
check "rescan: the port is back" test -e "$PCI/$P3"
check "rescan: its endpoint is back" test -e "$PCI/$E3"
pci_port $SW 0
echo 1 >"$PCI/$P/remove"
pci_count $SW
check_eq "remove the upstream port: all but the Root Port goes" 1 "$N"
# a hot-plug while the tree is removed changes nothing on the PCI bus
wr "$D/$SW-port2/ep_remove" 1 || fail "ep_remove port2: $W_ERR"
echo 1 >/sys/bus/pci/rescan
tree_ok "rescan: the tree is back, without the unplugged endpoint" $SW
wr "$D/$SW-port2/ep_add" nvme || fail "ep_add port2: $W_ERR"
settled $SW
tree_ok "hot-plug after rescan" $SW
links_ok "after remove/rescan: PCI link = model" $SW

# the setting
wr "$D/$SW/pci_view" 0 || fail "pci_view 0: $W_ERR"
pci_count $SW
check_eq "pci_view 0: no PCI device in $DOM" 0 "$N"
check "pci_view 0: the PCI bus is gone" test ! -e "/sys/class/pci_bus/$DOM:00"
wr "$D/$SW/pci_view" 1 || fail "pci_view 1: $W_ERR"
tree_ok "pci_view 1: the tree is back" $SW
sc switch set $SW pci-view off
check_eq "switchctl switch set pci-view off" 0 "$RC"
rd "$D/$SW/pci_view"
check_eq "pci_view reads 0" 0 "$R"
pci_count $SW
check_eq "pci-view off: no PCI device" 0 "$N"
sc switch set $SW pci-view on
tree_ok "switchctl switch set pci-view on" $SW
wr "$D/$SW/pci_view" 2
check_eq "pci_view 2 refused" "Invalid argument" "$W_ERR"
wr "$PCIESW_BUS/del_device" "$ID"
pci_count $SW
check_eq "del_device: no PCI device left" 0 "$N"

# ---- module parameter, load/unload cycles ---------------------------------
KO=${PCIESW_KO:-}
if [[ -z $KO || ! -r $KO ]]; then
	bail "pci_view=0 and load/unload cycles: PCIESW_KO does not name the module file (the runner sets it)"
fi
rmmod pciesw || fail "rmmod"
load_module "$KO" pci_view=0 || fail "insmod pci_view=0: $R"
rd "$D/$SW0/pci_view"
check_eq "pci_view=0: the switch's setting is off" 0 "$R"
pci_count $SW0
check_eq "pci_view=0: nothing on the PCI bus" 0 "$N"
wr "$D/$SW0/pci_view" 1
settled $SW0
tree_ok "pci_view=0, then pcieswN/pci_view 1: the tree" $SW0
rmmod pciesw || fail "rmmod"

( while :; do lspci -D -vvv >/dev/null 2>&1; cat $PCI/[1-9a-f]???:*/config >/dev/null 2>&1; done ) &
reader=$!
reduce 10 5 "load/unload cycles with lspci reading"; CYCLES=$R
bad=0
for ((c = 0; c < CYCLES; c++)); do
	load_module "$KO" nr_switches=2 || { bad=1; diag "insmod: $R"; break; }
	[[ -e $PCI/fffe:00:00.0 ]] || { bad=2; break; }
	((c % 2)) && nap 0.3	# on purpose: lspci reads the tree in between
	rmmod pciesw || { bad=3; break; }
	[[ -e $PCI/$D0:00:00.0 ]] && { bad=4; break; }
done
kill $reader
wait $reader 2>/dev/null
check_eq "$CYCLES load/unload cycles with lspci reading" 0 "$bad"
pci_count $SW0
check_eq "after unload: no PCI device left" 0 "$N"
summary
