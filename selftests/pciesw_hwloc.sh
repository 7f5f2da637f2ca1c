#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwloc sees the card: lstopo (Debian's hwloc, built with 16-bit PCI
# domains, as MPI, Slurm and the GPU/NIC affinity tools on it are) shows
# the switch's bridges under a host bridge of their own, the GPU and the
# drives below their downstream ports, and each drive's disk under its
# PCI function: the locality a GPUDirect-Storage user looks for.  Read
# from lstopo-no-graphics --of xml, checked against the model (pciesw0,
# pex89048: gpu0 on port 1, nvme0-3 on ports 2-5) and again for a second
# card, which has a domain of its own.  Uses switch id 78.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
command -v lstopo-no-graphics >/dev/null || skip_all "hwloc (lstopo-no-graphics) not installed"
command -v python3 >/dev/null || bail "python3 missing"
sctl_init 78

# topo: lstopo's objects as "TYPE BUSID PARENT-BUSID" lines (busid "-"
# where there is none), OS devices as "OSDev NAME PARENT-BUSID", in $T_TMP/topo
topo() {
	lstopo-no-graphics --of xml >"$T_TMP/topo.xml" 2>"$T_TMP/lstopo.err" ||
		{ diag "lstopo: $(head -c 300 "$T_TMP/lstopo.err")"; return 1; }
	python3 - "$T_TMP/topo.xml" >"$T_TMP/topo" <<'EOF'
import sys
import xml.etree.ElementTree as ET

def walk(o, parent):
    t = o.get("type")
    busid = o.get("pci_busid", "-")
    if t == "OSDev":
        print("OSDev", o.get("name"), parent)
    elif t in ("Bridge", "PCIDev"):
        print(t, busid, parent)
    if t in ("Bridge", "PCIDev"):
        parent = busid
    for c in o.findall("object"):
        walk(c, parent)

walk(ET.parse(sys.argv[1]).getroot().find("object"), "-")
EOF
}

# parent_of TYPE NAME: the PCI parent lstopo gives object NAME, into R
parent_of() {
	R=$(awk -v t="$1" -v n="$2" '$1 == t && $2 == n { print $3; exit }' "$T_TMP/topo")
}

# card_ok SW: the card's tree in lstopo is the model's
card_ok() {
	local sw=$1 p ep port dport disk bad=0 n=0
	pci_dom "${sw#pciesw}"
	pci_rp "$sw"; local rp=$P
	pci_port "$sw" 0; local up=$P
	parent_of Bridge "$rp"
	check_eq "$sw: lstopo: the Root Port $rp is under a host bridge" "-" "$R"
	parent_of Bridge "$up"
	check_eq "$sw: lstopo: the upstream port $up is below the Root Port" "$rp" "$R"
	for p in "$D/$sw"-port*; do
		port=${p##*port}
		((port == 0)) && continue
		rd "$p/endpoint"; ep=$R
		[[ -n $ep ]] || continue
		pci_port "$sw" "$port"; dport=$P
		pci_ep "$sw" "$port"
		parent_of Bridge "$dport"
		[[ $R == "$up" ]] || { bad=1; diag "port $port ($dport): parent '$R', want $up"; }
		parent_of PCIDev "$P"
		[[ $R == "$dport" ]] || { bad=1; diag "$ep ($P): parent '$R', want $dport"; }
		n=$((n + 1))
		[[ $ep == nvme* ]] || continue
		disk=${sw}n${ep#nvme}
		parent_of OSDev "$disk"
		[[ $R == "$P" ]] || { bad=1; diag "$disk: parent '$R', want $ep's function $P"; }
	done
	check_eq "$sw: lstopo: every endpoint ($n) below its downstream port, every drive's disk under its function" 0 "$bad"
}

settled pciesw0 || diag "pciesw0 did not settle"
tree_ok "pciesw0: the PCI tree is there" pciesw0
# disks SW: until every drive of SW has its disk (10 s)
disks() {
	local p ep
	have() {
		for p in "$D/$1"-port*; do
			rd "$p/endpoint"; ep=$R
			[[ $ep == nvme* ]] || continue
			[[ -e /sys/block/${1}n${ep#nvme} ]] || return 1
		done
	}
	wait_for -t 10000 have "$1" || diag "$1: not every drive has its disk"
}
disks pciesw0
check "lstopo-no-graphics --of xml" topo
check_eq "lstopo: the GPU (10de:2331) is there" 1 \
	"$(grep -c "pci_type=\"0302 \[10de:2331\]" "$T_TMP/topo.xml")"
card_ok pciesw0

wr "$PCIESW_BUS/new_device" 78 || fail "new_device 78: $W_ERR"
settled pciesw78 || diag "pciesw78 did not settle"
tree_ok "pciesw78: the PCI tree is there" pciesw78
disks pciesw78
check "lstopo again" topo
card_ok pciesw78
summary
