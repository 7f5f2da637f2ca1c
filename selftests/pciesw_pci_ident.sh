#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the endpoints are on the PCI bus (issue 29, items 1 and 2).
# Identity: lspci -nn names the default card's GPU an NVIDIA H100 PCIe
# [10de:2331] and its drives Samsung PM174X [144d:a826]; IDs given to ep
# add through switchctl (a KIOXIA CM7) and through netlink (the kernel's
# ynl client: a Mellanox ConnectX-7 as a generic endpoint) show in lspci,
# the PCI core's sysfs files, the endpoint's own sysfs files and switchctl
# -j ep show; IDs that mean no device and a bridge's class are refused
# with the kernel's message.  The module's driver keeps them all: the
# stock nvme driver, loaded before and after a drive is added, binds none,
# not even through its sysfs bind file.
# Config space: an Express Endpoint with FLReset+, ExtTag+, DevCap2, the
# model's LnkSta and a Device Serial Number that unprivileged readers do
# not see; reset_method lists flr first and echo 1 > reset takes it (no
# hot reset of the link, an FLR entry in the event log); FLR through
# Device Control resets Command.
#
# Skipped when the kernel has no PCI support or pciutils are missing;
# fails without switchctl.  Uses switch id 78.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
sctl_init 78

ID=78
SW=pciesw$ID
wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"
pci_ep $SW 1; G=$P
pci_ep $SW 2; N0=$P
dev_wait "$G" || bail "$G (gpu0) was not added"
dev_wait "$N0" || bail "$N0 (nvme0) was not added"

# lspci_nn DESC DEV TEXT: lspci -nn's line of DEV has TEXT
lspci_nn() {
	local out
	out=$(lspci -nn -s "$2" 2>/dev/null)
	if [[ $out == *"$3"* ]]; then
		ok "$1"
	else
		fail "$1"
		diag "lspci -nn -s $2: $out"
	fi
}
# ids_are DESC DEV EP V D SV SD REV CLASS: the PCI core's files of DEV
# and the model's of endpoint EP say these IDs
ids_are() {
	local desc=$1 dev=$2 ep=$3 f want got=() model=()
	shift 3
	for f in vendor device subsystem_vendor subsystem_device revision class; do
		rd "$PCI/$dev/$f"; got+=("$R")
		rd "$D/$SW-$ep/$f"; model+=("$R")
	done
	want="$*"
	check_eq "$desc: the PCI core's vendor .. class" "$want" "${got[*]}"
	check_eq "$desc: the model's $SW-$ep/vendor .. class" "$want" "${model[*]}"
}

# ---- the types' defaults ----------------------------------------------------
lspci_nn "gpu0: lspci -nn names NVIDIA Corporation GH100 [H100 PCIe] [10de:2331]" \
	"$G" "3D controller [0302]: NVIDIA Corporation GH100 [H100 PCIe] [10de:2331] (rev a1)"
lspci_nn "nvme0: lspci -nn names Samsung's PM174X [144d:a826]" \
	"$N0" "Non-Volatile memory controller [0108]: Samsung Electronics Co Ltd NVMe SSD Controller PM174X [144d:a826]"
ids_are "gpu0" "$G" gpu0 0x10de 0x2331 0x10de 0x1626 0xa1 0x030200
ids_are "nvme0" "$N0" nvme0 0x144d 0xa826 0x144d 0xa826 0x00 0x010802
sc ep show -j $ID gpu0
jqo '[."ep-vendor", ."ep-device", ."ep-subsystem-vendor", ."ep-subsystem-device", ."ep-revision", ."ep-class"] | map(tostring) | join(" ")'
check_eq "switchctl -j ep show gpu0: the IDs" \
	"$((0x10de)) $((0x2331)) $((0x10de)) $((0x1626)) $((0xa1)) $((0x030200))" "$J"
sc ep show $ID nvme0
check "switchctl ep show nvme0: PCI IDs 144d:a826 subsystem 144d:a826 rev 00 class 010802" \
	eval '[[ $OUT == *"PCI IDs 144d:a826 subsystem 144d:a826 rev 00 class 010802"* ]]' ||
	diag "$OUT"
driver "$G"
check_eq "gpu0 is bound to the module's driver" pciesw "$R"

# ---- the stock nvme driver binds none of the drives -------------------------
nvme_was=0
[[ -d /sys/module/nvme ]] && nvme_was=1
if modprobe nvme 2>/dev/null || [[ -d /sys/bus/pci/drivers/nvme ]]; then
	ok "modprobe nvme"
	driver "$N0"
	check_eq "... nvme0 stays with the module's driver" pciesw "$R"
	check "... the nvme driver has none of the card's functions" \
		eval '! ls /sys/bus/pci/drivers/nvme | grep -q "^$PD:"'
	# the override makes the match fail (ENODEV), not the driver
	# already bound (EBUSY)
	wr /sys/bus/pci/drivers/nvme/bind "$N0"
	check_eq "... echo $N0 > drivers/nvme/bind: no such device" \
		"No such device" "$W_ERR"
	have_nvme=1
else
	skip "modprobe nvme" "the guest kernel has no nvme driver"
	have_nvme=0
fi

# ---- IDs through switchctl: a KIOXIA CM7 on port 5 --------------------------
sc_quiet "ep del nvme3" ep del $ID nvme3
sc_ok "ep add port 5 nvme vendor 0x1e0f device 0x0013 subsystem-vendor 0x1e0f subsystem 0x0001 revision 1" \
	ep add $ID 5 nvme vendor 0x1e0f device 0x0013 subsystem-vendor 0x1e0f \
	subsystem 0x0001 revision 1
pci_ep $SW 5; K=$P
rd "$D/$SW-port5/endpoint"; KEP=$R
if dev_wait "$K"; then
	lspci_nn "lspci -nn: KIOXIA CM7 2.5\" [1e0f:0013] (rev 01)" "$K" \
		"KIOXIA Corporation NVMe SSD Controller CM7 2.5\" [1e0f:0013] (rev 01)"
	ids_are "$KEP (switchctl)" "$K" "$KEP" 0x1e0f 0x0013 0x1e0f 0x0001 0x01 0x010802
	driver "$K"
	check_eq "... added with nvme loaded: bound to the module's driver" \
		pciesw "$R"
else
	fail "$K ($KEP) was added"
fi

# ---- refused IDs ------------------------------------------------------------
sc_quiet "ep del $KEP" ep del $ID "$KEP"
sc_err "vendor 0xffff: refused by the kernel" 1 "vendor ID 0x0000, 0x0001 and 0xffff mean no device" \
	ep add $ID 5 nvme vendor 0xffff
sc_err "vendor 0x0000: refused" 1 "mean no device" ep add $ID 5 nvme vendor 0
sc_err "device 0xffff: refused" 1 "device ID 0xffff means no device" \
	ep add $ID 5 gpu device 0xffff
sc_err "class 0x060400: refused" 1 "an endpoint cannot have a bridge's class" \
	ep add $ID 5 generic class 0x060400
sc_err "vendor 0x10000: switchctl's usage error" 2 'invalid vendor "0x10000"' \
	ep add $ID 5 nvme vendor 0x10000
sc_err "class 0x1000000: switchctl's usage error" 2 'invalid class "0x1000000"' \
	ep add $ID 5 nvme class 0x1000000
rd "$D/$SW-port5/endpoint"
check_eq "... port 5 stayed empty" "" "$R"

# ---- IDs through netlink: the kernel's ynl library, one process -----------
ksrc=$("$T_LIB_DIR/../scripts/ksrc.sh" 2>/dev/null)
YNL=$ksrc/tools/net/ynl
SPEC=$T_LIB_DIR/../Documentation/netlink/specs/pciesw.yaml
if [[ -n $ksrc && -f $YNL/lib/ynl.py ]]; then
	# vendor 1 refused (the attribute named), then ConnectX-7 IDs taken
	out=$(python3 - "$YNL" "$SPEC" "$ID" 2>&1 <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from lib import YnlFamily, NlError
ynl = YnlFamily(sys.argv[2], '')
sw = int(sys.argv[3])
try:
    ynl.do('ep-add', {'switch-id': sw, 'port-id': 5, 'ep-type': 'nvme',
                      'ep-vendor': 1})
    print('vendor 1: taken')
except NlError as e:
    print('vendor 1: refused:', e.nl_msg.extack)
r = ynl.do('ep-add', {'switch-id': sw, 'port-id': 5, 'ep-type': 'generic',
                      'ep-vendor': 0x15b3, 'ep-device': 0x1021,
                      'ep-subsystem-vendor': 0x15b3,
                      'ep-subsystem-device': 0x0041, 'ep-revision': 0,
                      'ep-class': 0x020000})
print('added:', r['ep-name'], '%04x:%04x' % (r['ep-vendor'], r['ep-device']))
PY
)
	check "ynl ep-add with vendor 1: refused, the attribute named" \
		eval '[[ $out == *"vendor 1: refused"*"mean no device"*"ep-vendor"* ]]' ||
		diag "$out"
	check "ynl ep-add of a generic endpoint with ConnectX-7 IDs: the reply has them" \
		eval '[[ $out == *"added: generic"*" 15b3:1021"* ]]' || diag "$out"
	rd "$D/$SW-port5/endpoint"; XEP=$R
	if dev_wait "$K"; then
		lspci_nn "lspci -nn: Mellanox MT2910 Family [ConnectX-7] [15b3:1021]" \
			"$K" "Ethernet controller [0200]: Mellanox Technologies MT2910 Family [ConnectX-7] [15b3:1021]"
		ids_are "$XEP (netlink)" "$K" "$XEP" 0x15b3 0x1021 0x15b3 0x0041 0x00 0x020000
	else
		fail "$K ($XEP) was added"
	fi
else
	skip "ynl ep-add with IDs" "the kernel's ynl library is not there (scripts/ksrc.sh)"
fi

# ---- config space: Express Endpoint, DevCap, LnkSta, DSN ---------------------
# (lspci -n: numbers only, no pci.ids to read; one lspci a device)
# has DESC TEXT ERE: TEXT matches ERE
has() {
	if [[ $2 =~ $3 ]]; then
		ok "$1"
	else
		fail "$1"
		diag "$2"
	fi
}
gv=$(lspci -n -vvv -s "$G" 2>/dev/null)
nv=$(lspci -n -vvv -s "$N0" 2>/dev/null)
rd "$D/$SW-port1/current_link_width"; gw=$R
has "gpu0: Express Endpoint, DevCap ExtTag+ FLReset+, DevCap2 ranges ABCD" "$gv" \
	"Express \(v2\) Endpoint.*DevCap:.*ExtTag\+.*FLReset\+.*DevCap2: Completion Timeout: Range ABCD, TimeoutDis\+"
has "gpu0: LnkSta 32GT/s x$gw (the model's link)" "$gv" \
	"LnkSta:[[:space:]]+Speed 32GT/s[^,]*, Width x$gw"
has "nvme0: LnkSta 32GT/s x4" "$nv" "LnkSta:[[:space:]]+Speed 32GT/s[^,]*, Width x4"
gdsn=$(sed -n 's/.*Device Serial Number //p' <<<"$gv")
ndsn=$(sed -n 's/.*Device Serial Number //p' <<<"$nv")
check "gpu0 and nvme0 have Device Serial Numbers, not the same ($gdsn, $ndsn)" \
	eval '[[ -n $gdsn && -n $ndsn && $gdsn != "$ndsn" ]]'
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups lspci -n -vvv -s "$G" 2>&1)
check "... which an unprivileged lspci does not read" \
	eval '[[ $out == *"10de:2331"* && $out != *"Device Serial Number"* ]]' || diag "$out"

# ---- Function Level Reset --------------------------------------------------
read -r methods <"$PCI/$G/reset_method"
check_eq "gpu0: reset_method lists flr first" "flr" "${methods%% *}"
port_hist_mark $SW 1
sc log show $ID
n0=$(grep -c "gpu0.*function level reset" <<<"$OUT")
cmd=$(setpci -s "$G" COMMAND)
check "echo 1 > $G/reset succeeds" wr "$PCI/$G/reset" 1
check "... without a hot reset of the link" eval '! port_hist_has $SW 1 hot-reset'
sc log show $ID
n1=$(grep -c "gpu0.*function level reset" <<<"$OUT")
check_eq "... the model logged gpu0's function level reset" $((n0 + 1)) "$n1" ||
	diag "$OUT"
check_eq "... the PCI core restored Command" "$cmd" \
	"$(setpci -s "$G" COMMAND)"
setpci -s "$G" COMMAND=0x0006
setpci -s "$G" CAP_EXP+8.w=0x8000:0x8000
check_eq "Initiate FLR in Device Control: Command reset to 0" 0000 \
	"$(setpci -s "$G" COMMAND)"
check_eq "... and the bit reads 0" 0 \
	$((0x$(setpci -s "$G" CAP_EXP+8.w) & 0x8000))
setpci -s "$G" COMMAND="$cmd"
driver "$G"
check_eq "... gpu0 still bound to the module's driver" pciesw "$R"

if ((have_nvme && !nvme_was)); then
	modprobe -r nvme 2>/dev/null
fi
summary
