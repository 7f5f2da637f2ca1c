#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PCI view's error messages reach the kernel's AER driver through the
# emulated Root Port above the card: the Root Port is bound to pcieport
# with the AER service ("aer ... enabled with IRQ"); an error injected with
# switchctl on a port makes the AER driver log it for that port, with the
# type of the error ("PCIe Bus Error: severity=Correctable, type=Data Link
# Layer" for bad-tlp on the upstream port, "Physical Layer" for
# receiver-error on a downstream port, "Uncorrectable (Non-Fatal),
# type=Transaction Layer" and the Header Log's TLP for poisoned-tlp), and
# clear the port's status (write 1 to clear); a non-fatal error runs the
# endpoint driver's error handlers and the recovery succeeds; an error
# masked in the port's AER Correctable Error Mask sets its status bit but
# logs nothing; a surprise down with DPC off is an ERR_FATAL whose
# recovery hot-resets the link.  Errors an endpoint detects (switchctl
# inject SW EP aer ERROR) on gpu0 and nvme0: lspci decodes the endpoint's
# AER, masked ones (the spec's default masks) set status and send nothing,
# corrected-internal and advisory-non-fatal are ERR_COR, completion-
# timeout, poisoned-tlp (its Header Log) and unsupported-request
# ERR_NONFATAL with the driver's handlers and a successful recovery,
# uncorrectable-internal ERR_FATAL (or DPC where enabled) whose recovery
# resets the link; ep show counts them; bad input is refused.
#
# Skipped when the kernel has no PCI support or no AER driver, or pciutils
# are missing; fails without switchctl.  Uses pciesw0, the runner's card.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
[[ -d /sys/bus/pci_express/drivers/aer ]] ||
	skip_all "kernel without the AER driver (CONFIG_PCIEAER)"
sctl_init

SW=pciesw0
pci_card $SW
pci_rp $SW; RP=$P
pci_port $SW 0; UP=$P
pci_port $SW 1; DP1=$P
pci_port $SW 2; DP2=$P
pci_ep $SW 1; EP1=$P

log_wait "$RP: AER: enabled with IRQ" || true
if dmesg | grep -q "$RP: AER: enabled with IRQ"; then
	ok "Root Port $RP: the AER service is enabled"
else
	fail "Root Port $RP: the AER service is enabled"
	diag "$(dmesg | grep -F "$RP" | tail -n 20)"
fi
check "Root Port: its AER service is bound to the aer driver" \
	test -e "$PCI/$RP/$RP:pcie002/driver"

# correctable, on the upstream port: bad-tlp is a Data Link Layer error
q "$UP"; qup=$R
log_mark
sc_ok "inject $SW 0 bad-tlp" inject $SW 0 bad-tlp
logged "bad-tlp on port 0: the AER driver's Correctable line for $UP" \
	"$qup: (AER: )?PCIe Bus Error: severity=(Correctable|Corrected), type=Data Link Layer, \(Receiver ID\)"
log_since
[[ $R =~ $qup:\ (AER:\ )?\ +\[\ 6\]\ BadTLP ]]
check_eq "bad-tlp: decoded as BadTLP (bit 6)" 0 "$?" || diag "$R"
[[ $R =~ AER:\ (Correctable|Corrected)\ error\ message\ received\ from\ $qup ]]
check_eq "the Root Port names the source ($UP)" 0 "$?" || diag "$R"
aer_reg "$UP" 0x10
check_eq "the AER driver cleared the Correctable Error Status" 0 "$R"

# correctable, on a downstream port: receiver-error is a Physical Layer one
q "$DP2"; qdp2=$R
log_mark
sc_ok "inject $SW 2 receiver-error --count 3" inject $SW 2 receiver-error --count 3
logged "receiver-error on port 2: the Correctable line for $DP2" \
	"$qdp2: (AER: )?PCIe Bus Error: severity=(Correctable|Corrected), type=Physical Layer, \(Receiver ID\)"

# uncorrectable (non-fatal): poisoned-tlp on downstream port 1, its header
# log, the endpoint driver's handlers, the recovery
q "$DP1"; qdp1=$R
log_mark
sc_ok "inject $SW 1 poisoned-tlp" inject $SW 1 poisoned-tlp
logged "poisoned-tlp on port 1: the Non-Fatal line for $DP1" \
	"$qdp1: (AER: )?PCIe Bus Error: severity=(Uncorrectable|Uncorrected) \(Non-Fatal\), type=Transaction Layer, \(Receiver ID\)"
log_wait "$qdp1: AER: device recovery (successful|failed)"
log_since
[[ $R =~ $qdp1:\ (AER:\ )?\ +\[12\]\ (TLP|PoisonTLP|Poisoned\ TLP) ]]
check_eq "poisoned-tlp: decoded as PoisonTLP (bit 12)" 0 "$?" || diag "$R"
pci_bus "$EP1"; epbus=$PB
[[ $R =~ $qdp1:\ (AER:\ )?\ +TLP\ Header:\ 40000001\ ${epbus}00000f\ 00000000\ 00000000 ]]
check_eq "the Header Log: the endpoint's (${epbus}:00.0) memory write" 0 "$?" ||
	diag "$R"
q "$EP1"; qep1=$R
log_since
[[ $R =~ $qep1:\ pciesw:\ error\ detected.*$qep1:\ pciesw:\ resumed ]]
check_eq "the endpoint driver's error_detected and resume ran" 0 "$?"
log_since
[[ $R =~ $qdp1:\ AER:\ device\ recovery\ successful ]]
check_eq "the AER driver's recovery is successful" 0 "$?" || diag "$R"
aer_reg "$DP1" 0x04
check_eq "the AER driver cleared the Uncorrectable Error Status" 0 "$R"

# masked: bad-tlp masked on downstream port 2 sets its status bit and logs
# nothing; an unmasked error after it is logged alone
setpci -s "$DP2" ECAP_AER+0x14.l=0x40:0x40
log_mark
sc_ok "inject $SW 2 bad-tlp (masked)" inject $SW 2 bad-tlp
nap 0.3
aer_reg "$DP2" 0x10
check_eq "masked bad-tlp: its status bit is set" $((0x40)) "$((R & 0x40))"
sc_ok "inject $SW 2 bad-dllp (unmasked)" inject $SW 2 bad-dllp
log_wait "$qdp2: (AER: )? +\[ 7\] BadDLLP"
check_eq "unmasked bad-dllp after it: logged" 0 "$?" || diag "$R"
log_since
[[ $R =~ BadTLP ]]
check_eq "masked bad-tlp: no line for it" 1 "$?" || diag "$R"
n=$(grep -c "PCIe Bus Error" <<<"$R")
check_eq "one error logged after the mark (bad-dllp)" 1 "$n" || diag "$R"
setpci -s "$DP2" ECAP_AER+0x14.l=0:0x40

# DPC's DL_Active ERR_COR Enable is stored, and no ERR_COR goes when the
# link comes back (Documentation/pci-view.md: the AER driver would leak a
# device reference on a message without status)
pci_ep $SW 2; EP2=$P
dpcctl=$(setpci -s "$DP2" ECAP_DPC+6.w)
setpci -s "$DP2" ECAP_DPC+6.w=0x0080:0x0080
check_eq "DL_Active ERR_COR Enable: writable" $((0x80)) \
	$((0x$(setpci -s "$DP2" ECAP_DPC+6.w) & 0x80))
log_mark
sc_ok "port set $SW 2 state down, DL_Active ERR_COR on" port set $SW 2 state down
wait_attr "$D/$SW-port2/ltssm_state" disabled
sc_ok "port set $SW 2 state up" port set $SW 2 state up
check "... the link trains" wait_attr "$D/$SW-port2/ltssm_state" l0
check "... and the endpoint answers" ep_ready "$EP2"
log_since
[[ $R =~ error\ message\ received\ from\ $qdp2 ]]
check_eq "... no message from the port" 1 "$?" || diag "$R"
setpci -s "$DP2" ECAP_DPC+6.w="$dpcctl"

# fatal: a surprise down with DPC off (pciesw_pci_dpc.sh has it on) is an
# ERR_FATAL to the Root Port; the AER driver's recovery resets the link
# below the port (Secondary Bus Reset: a hot reset in the model)
dpcctl=$(setpci -s "$DP2" ECAP_DPC+6.w)
setpci -s "$DP2" ECAP_DPC+6.w=0:3
port_hist_mark $SW 2
log_mark
sc_ok "port set $SW 2 surprise-down (DPC off)" port set $SW 2 surprise-down
logged "surprise down: the Root Port receives ERR_FATAL from $DP2" \
	"(Uncorrectable|Uncorrected) \(Fatal\) error (message )?received(:| from) $qdp2"
# (6.1's AER driver files Surprise Down under Transaction Layer)
logged "... the AER line: Fatal, Data Link Layer" \
	"$qdp2: (AER: )?PCIe Bus Error: severity=(Uncorrectable|Uncorrected) \(Fatal\), type=(Data Link|Transaction) Layer"
logged "... recovery successful" "$qdp2: AER: device recovery successful"
log_since
[[ $R =~ $qdp2:\ (AER:\ )?\ +\[\ 5\]\ (SDES|SurpDn|Surprise) ]]
check_eq "... decoded as Surprise Down (bit 5)" 0 "$?" || diag "$R"
check "... the recovery hot-reset the link" port_hist_has $SW 2 hot-reset
check "... which trained again" wait_attr "$D/$SW-port2/ltssm_state" l0
check "... and the endpoint answers" ep_ready "$EP2"
setpci -s "$DP2" ECAP_DPC+6.w="$dpcctl"

# ---- errors an endpoint detects: its AER capability ----
# (pciesw_nvme_faults.sh checks a drive's disk across their recovery)
# ep_of NAME: the endpoint's PCI name (P), the downstream port above it
# (DP), both ERE-quoted (QP, QDP), its port number (PORTN)
ep_of() {
	sc ep show -j $SW "$1"
	[[ $OUT =~ \"ep-pci-name\":\"([^\"]*)\" ]]
	P=${BASH_REMATCH[1]:-}
	[[ $OUT =~ \"port-id\":([0-9]+) ]]
	PORTN=${BASH_REMATCH[1]:-}
	DP=$(readlink -f "$PCI/$P/..") && DP=${DP##*/}
	q "$P"; QP=$R
	q "$DP"; QDP=$R
}
# has DESC ERE: one case, the log read last (R) matches ERE
has() {
	[[ $R =~ $2 ]]
	check_eq "$1" 0 "$?" || diag "$R"
}
# sta DEV: its Uncorrectable and Correctable Error Status, into US and CS
sta() {
	local v
	mapfile -t v < <(setpci -s "$1" ECAP_AER+0x04.l ECAP_AER+0x10.l)
	US=$((0x${v[0]:-0})) CS=$((0x${v[1]:-0}))
}

ep_of gpu0; GPU=$P; QGPU=$QP

# masked by default (the spec's masks): status set, no message
log_mark
for e in corrected-internal uncorrectable-internal advisory-non-fatal; do
	sc_ok "inject gpu0 aer $e (masked)" inject $SW gpu0 aer $e
done
sta "$GPU"
check_eq "... Correctable Status: CorrIntErr, AdvNonFatalErr" \
	$((0x6000)) $((CS & 0x6000))
check_eq "... Uncorrectable Status: UncorrIntErr, UnsupReq" \
	$((0x500000)) $((US & 0x500000))
lspci_out=$(lspci -vvv -s "$GPU" 2>&1)
[[ $lspci_out == *"Advanced Error Reporting"* &&
   $lspci_out =~ UESvrt:.*CmpltTO-.*UnsupReq- &&
   $lspci_out =~ CESta:.*AdvNonFatalErr\+ && $lspci_out =~ CEMsk:.*AdvNonFatalErr\+ ]]
check_eq "... lspci decodes gpu0's AER (CESta AdvNonFatalErr+, masked)" 0 "$?" ||
	diag "$lspci_out"
log_since
[[ $R =~ received(:|\ from)\ $QGPU ]]
check_eq "... and no message" 1 "$?" || diag "$R"
setpci -s "$GPU" ECAP_AER+0x10.l=0xffffffff ECAP_AER+0x04.l=0xffffffff \
	ECAP_AER+0x14.l=0:0x6000

# correctable, unmasked: ERR_COR from the GPU
log_mark
sc_ok "inject gpu0 aer corrected-internal" inject $SW gpu0 aer corrected-internal
sc_ok "inject gpu0 aer advisory-non-fatal" inject $SW gpu0 aer advisory-non-fatal
logged "... ERR_COR, [13] NonFatalErr from gpu0" \
	"$QGPU: (AER: )? +\[13\] NonFatalErr"
has "... ERR_COR received from $GPU" \
	"(Correctable|Corrected) error (message )?received(:| from) $QGPU"
has "... [14] CorrIntErr" "$QGPU: (AER: )? +\[14\] CorrIntErr"
[[ $R =~ $QGPU.*(Non-Fatal|Fatal\)) ]]
check_eq "... no uncorrectable message for the advisory error" 1 "$?"
sta "$GPU"
check_eq "... its Unsupported Request status stays" $((1 << 20)) $((US & (1 << 20)))
setpci -s "$GPU" ECAP_AER+0x04.l=0x100000

# non-fatal: ERR_NONFATAL, the driver's handlers, recovery
log_mark
sc_ok "inject gpu0 aer completion-timeout" inject $SW gpu0 aer completion-timeout
logged "... recovery successful" "$QDP: AER: device recovery successful"
has "... the Non-Fatal line for gpu0, [14] CmpltTO" \
	"$QGPU: (AER: )?PCIe Bus Error: severity=(Uncorrectable|Uncorrected) \(Non-Fatal\), type=Transaction Layer, \(Requester ID\).*$QGPU: (AER: )? +\[14\] CmpltTO"
has "... gpu0's driver: error_detected and resume" \
	"$QGPU: pciesw: error detected.*$QGPU: pciesw: resumed"

ep_of nvme0; NV=$P; QNV=$QP; NVDP=$DP; QNVDP=$QDP; nvport=$PORTN
log_mark
sc_ok "inject nvme0 aer poisoned-tlp" inject $SW nvme0 aer poisoned-tlp
logged "... recovery successful" "$QNVDP: AER: device recovery successful"
has "... the Non-Fatal line for nvme0, the poisoned write's header" \
	"$QNV: (AER: )?PCIe Bus Error: severity=(Uncorrectable|Uncorrected) \(Non-Fatal\).*$QNV: (AER: )? +TLP Header: 40004001 0000000f 00000000 00000000"
log_mark
sc_ok "inject nvme0 aer unsupported-request" inject $SW nvme0 aer unsupported-request
logged "... recovery successful" "$QNVDP: AER: device recovery successful"
has "... [20] UnsupReq" "$QNV: (AER: )? +\[20\] UnsupReq"
sta "$NV"
check_eq "... the AER driver cleared its status" "0 0" "$US $CS"

# fatal: Uncorrectable Internal Error, unmasked; ERR_FATAL to the Root
# Port, or DPC on the downstream port where the DPC driver enabled it
# (6.1, or pcie_ports=dpc-native); either resets the link
dpcctl=$(setpci -s "$NVDP" ECAP_DPC+6.w)
setpci -s "$NV" ECAP_AER+0x08.l=0:0x400000
port_hist_mark $SW $nvport
log_mark
sc_ok "inject nvme0 aer uncorrectable-internal" \
	inject $SW nvme0 aer uncorrectable-internal
logged "... recovery successful" "$QNVDP: AER: device recovery successful"
if (((0x$dpcctl & 3) != 0)); then
	pci_bus "$NV"; nvbus=$PB
	has "... DPC on $NVDP: ERR_FATAL from $NV" \
		"$QNVDP: DPC: (containment event, status:0x[0-9a-f]+ source:0x${nvbus}00|containment event, status:0x[0-9a-f]+, ERR_FATAL received from $QNV)"
else
	has "... ERR_FATAL received from $NV" \
		"(Uncorrectable|Uncorrected) \(Fatal\) error (message )?received(:| from) $QNV"
	has "... the AER line names it (Inaccessible: status not read)" \
		"$QNV: (AER: )?PCIe Bus Error: severity=(Uncorrectable|Uncorrected) \(Fatal\)"
fi
check "... the link was reset" eval \
	"port_hist_has $SW $nvport hot-reset || port_hist_has $SW $nvport disabled"
check "... and nvme0 answers again" ep_ready "$NV"

# counted per endpoint; bad input refused
sc ep show -j $SW gpu0
[[ $OUT =~ \"completion-timeout\":1, && $OUT =~ \"corrected-internal\":2, ]]
check_eq "ep show: gpu0's AER errors counted" 0 "$?" || diag "$OUT"
sc_err "unknown AER error: refused" 2 "unknown AER error" \
	inject $SW gpu0 aer bogus
sc_err "an endpoint that is not there: refused" 1 "" \
	inject $SW gpu9 aer completion-timeout
RC=0
OUT=$(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
	"$SWITCHCTL" inject $SW gpu0 aer completion-timeout 2>&1) || RC=$?
check "without CAP_SYS_ADMIN: refused" \
	eval '((RC != 0)) && [[ $OUT == *CAP_SYS_ADMIN* ]]' || diag "$RC $OUT"
summary
