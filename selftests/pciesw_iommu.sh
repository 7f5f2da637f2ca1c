#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The card beside a real device behind an IOMMU, as on a server.  Runs in
# a q35 guest with QEMU's Intel or AMD IOMMU and a real virtio disk that
# goes through it at 0000:01:00.0 (scripts/qemu-run.sh --iommu), booted
# with the kernel's IOMMU options (intel_iommu=on, iommu=pt).  The card's
# upstream port is 01:00.0 in its own domain: a domain the IOMMU drivers
# read as segment 0 (0x10000 in 16 bits) made the real disk's context or
# device-table entry the card's, cleared when the card's device went.
#
#   - the real disk's data verifies (O_DIRECT write and read back, a new
#     place each time) before insmod, after insmod, after the fault
#     matrix's link events (pciesw_pci_faults.sh, run whole: surprise
#     down, Link Disable, SBR, ep del/add, slot power, fatal and non-fatal
#     errors, re-bifurcation, firmware activation), after the PCI view off
#     and on, a hot-added card, and after rmmod
#   - the real disk is behind the IOMMU (has a group); no card device has
#     an IOMMU group, at any of those points; the kernel never logged one
#     of the card's devices joining a group
#   - no DMAR fault, AMD-Vi event or IO page fault in the kernel log
#   - pci_domain: one asked for is the card's; one a PCI bus has (0000)
#     and one above 0xffff are refused at insmod, saying why
#
# Run only when named (run.sh's NAMED_TESTS): make check runs it in its
# IOMMU guests.  Uses switch ids 76 (the matrix) and 77.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
REAL=0000:01:00.0
[[ -e $PCI/$REAL ]] ||
	bail "no real device at $REAL: run this test in a qemu-run.sh --iommu guest"
read -r CMDLINE </proc/cmdline
diag "kernel command line: $CMDLINE"

# the real disk: the block device of the virtio function at $REAL (the
# guest's initramfs loads only what its root needs)
modprobe -q virtio_blk 2>/dev/null
real_disk() {
	local b
	VD=
	for b in "$PCI/$REAL"/virtio*/block/*; do
		[[ -e $b ]] && VD=${b##*/}
	done
	[[ -n $VD && -b /dev/$VD ]]
}
wait_for -t 10000 real_disk || bail "no block device on $REAL"
# the real disk is behind the IOMMU the guest's boot line turns on (AMD's
# by default, Intel's with intel_iommu=on); Intel's default leaves it to
# the kernel, and the card must keep off DMAR's segments either way
if [[ -e /sys/firmware/acpi/tables/DMAR && " $CMDLINE " != *" intel_iommu=on "* ]]; then
	diag "intel_iommu=on not given: the real disk's IOMMU group: $(readlink "$PCI/$REAL/iommu_group" 2>/dev/null || echo none)"
elif [[ -e $PCI/$REAL/iommu_group ]]; then
	G=$(readlink -f "$PCI/$REAL/iommu_group")
	rd "$G/type"
	ok "the real disk $VD ($REAL) is behind the IOMMU: group ${G##*/}, type $R"
else
	fail "the real disk $VD ($REAL) is behind the IOMMU: it has no IOMMU group"
fi

# verify WHEN: write 1 MiB of new data at a new place of the real disk
# with O_DIRECT (DMA through the IOMMU), read it back the same way,
# compare; dd is bounded, as a disk whose DMA the IOMMU blocks hangs
VERIFY_N=0
dd if=/dev/urandom of="$T_TMP/pattern" bs=1M count=1 status=none
verify() {
	local at=$VERIFY_N
	VERIFY_N=$((VERIFY_N + 1))
	if timeout -s KILL 60 dd if="$T_TMP/pattern" of="/dev/$VD" bs=1M \
		seek="$at" count=1 oflag=direct conv=notrunc status=none 2>"$T_TMP/dd" &&
	   timeout -s KILL 60 dd if="/dev/$VD" of="$T_TMP/back" bs=1M \
		skip="$at" count=1 iflag=direct status=none 2>>"$T_TMP/dd" &&
	   cmp -s "$T_TMP/pattern" "$T_TMP/back"; then
		ok "$1: the real disk's data verifies (MiB $at, O_DIRECT)"
	else
		fail "$1: the real disk's data verifies (MiB $at, O_DIRECT)"
		diag "dd: $(head -c 300 "$T_TMP/dd")"
	fi
}

# no_groups WHEN: no device of the card's domain $PD has an IOMMU group
no_groups() {
	local d bad=
	for d in "$PCI/$PD":*; do
		[[ -e $d ]] || continue
		[[ -e $d/iommu_group ]] && bad+=" ${d##*/}"
	done
	for d in /sys/kernel/iommu_groups/*/devices/"$PD":*; do
		[[ -e $d ]] && bad+=" ${d##*/}"
	done
	check_eq "$1: no card device has an IOMMU group" "" "$bad"
}

# the kernel's IOMMU complaints since boot (faults on the real disk's DMA)
iommu_faults() {
	dmesg | grep -E 'DMAR: \[|DMAR: DRHD: handling fault|AMD-Vi: Event logged|IO_PAGE_FAULT|iommu fault|Present bit in context entry' |
		head -n 5
}

verify "before insmod"
mod_loaded && { mod_unload || bail "rmmod before the test: $R"; }
verify "after the runner's rmmod"

# ---- pci_domain: asked for, taken, out of range --------------------------
load_module "$PCIESW_KO" pci_domain=0
check "pci_domain=0 (domain 0000 has a PCI bus): insmod fails" \
	eval '! mod_loaded'
check "pci_domain=0: the log says a PCI bus names it" \
	eval 'dmesg | tail -n 20 | grep -q "pci_domain=0000 is taken: a PCI bus in it names it"'
load_module "$PCIESW_KO" pci_domain=0x10000
check "pci_domain=0x10000: insmod fails" eval '! mod_loaded'
load_module "$PCIESW_KO" pci_domain=0xabcd
check_eq "pci_domain=0xabcd: insmod" "" "$R"
pci_dom 0
check_eq "pci_domain=0xabcd: pciesw0's domain" abcd "$PD"
settled pciesw0 || diag "pciesw0 did not settle"
no_groups "pci_domain=0xabcd"
mod_unload || fail "rmmod: $R"
verify "after pci_domain=0xabcd and rmmod"

# ---- the module's defaults ---------------------------------------------
load_module "$PCIESW_KO"
check_eq "insmod with the defaults" "" "$R"
pci_dom 0
check_eq "pciesw0: the highest domain no bus or firmware table names" ffff "$PD"
settled pciesw0 || diag "pciesw0 did not settle"
tree_ok "pciesw0: the PCI tree is there" pciesw0
no_groups "after insmod"
verify "after insmod"

# ---- the fault matrix, in the same guest ---------------------------------
if bash "$(dirname "$0")/pciesw_pci_faults.sh" >"$T_TMP/matrix" 2>&1; then
	ok "the fault matrix ran clean"
else
	fail "the fault matrix ran clean"
fi
# its cases, as cases of this test
while IFS= read -r l; do
	case $l in
	"ok "*) ok "matrix: ${l#ok * - }" ;;
	"not ok "*) fail "matrix: ${l#not ok * - }" ;;
	"# "*) diag "matrix: ${l#\# }" ;;
	esac
done <"$T_TMP/matrix"
no_groups "after the fault matrix"
verify "after the fault matrix (it ends with rmmod)"

# ---- the PCI view off and on, a card hot-added and removed ---------------
load_module "$PCIESW_KO"
check_eq "insmod again" "" "$R"
settled pciesw0 || diag "pciesw0 did not settle"
wr "$D/pciesw0/pci_view" 0
check_eq "pciesw0: PCI view off" "" "$W_ERR"
verify "after the PCI view off"
wr "$D/pciesw0/pci_view" 1
check_eq "pciesw0: PCI view on" "" "$W_ERR"
settled pciesw0 || diag "pciesw0 did not settle"
no_groups "after the PCI view on"
wr "$PCIESW_BUS/new_device" 77 || fail "new_device 77: $W_ERR"
settled pciesw77 || diag "pciesw77 did not settle"
pci_dom 77
check "pciesw77: a domain of its own below ffff" eval '[[ $PD == [0-9a-f][0-9a-f][0-9a-f][0-9a-f] && $PD != ffff ]]'
no_groups "pciesw77, hot-added"
wr "$PCIESW_BUS/del_device" 77 || fail "del_device 77: $W_ERR"
verify "after a card came and went"

# ---- rmmod --------------------------------------------------------------
pci_dom 0
mod_unload
check_eq "rmmod" "" "$R"
verify "after rmmod"
check_eq "the kernel never added a card device to an IOMMU group" "" \
	"$(dmesg | grep 'to iommu group' | grep -v ' 0000:' | head -n 3)"
check_eq "no IOMMU fault in the kernel log" "" "$(iommu_faults)"
summary
