#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest-side runner of the pciesw selftests, e.g. from the repository root:
#
#   scripts/qemu-run.sh --kernel 6.1.0-57-amd64 -- \
#       selftests/run.sh --ko build/6.1.0-57-amd64/pciesw.ko
#
#   selftests/run.sh [--ko PATH] [--timeout SECS] [--plan full|debug]
#                    [--queue] [--list] [TEST...]
#
#   --ko PATH      the module to test (default: build/$(uname -r)/pciesw.ko)
#   --timeout S    kill a test after S seconds (default 180)
#   --plan P       full: module defaults (but blk=0 outside the block
#                  tests), every test in its full form (the
#                  stock kernels); debug: the PCI view off (pci_view=0) but
#                  in the PCI-view tests, and the reduced forms of the long
#                  tests (144-lane variants, many-switch loops, load/unload
#                  cycles).  Default: debug on a *pciesw-debug kernel (KASAN,
#                  lockdep, kmemleak: ~5x slower), else full.
#   --queue        the tests are a queue that runners in other guests
#                  share (qemu-run.sh --share, $PCIESW_SHARE): in the
#                  order given, each runner runs the tests it claims
#                  first (mkdir), so the guests end close together
#                  whatever the tests cost; the TAP plan comes last.
#                  A test of BOOT_TESTS is claimed once per boot
#                  configuration (the kernel's default command line, or
#                  pcie_ports=dpc-native), so guests booted each way
#                  sharing a queue both run it
#   --list         print the test names and exit
#   TEST           a test name (pciesw_ioctl, pciesw_bus.sh, or without .sh);
#                  default: all of them
#
# For each test: unload pciesw if loaded, insmod PATH with the plan's
# module arguments for that test, run it with a timeout, then rmmod if it is
# loaded.  The test's environment: PCIESW_KO=PATH and PCIESW_MODARGS (the
# arguments it was loaded with: a test that reloads the module passes them
# first, then its own), PCIESW_REDUCED=1 on the debug plan (a test that
# runs a smaller form prints "# REDUCED: what"; counted as reduced, never as
# skipped).  A failed rmmod, a timeout, a test that exits non-zero without
# reporting a failed case, a kernel taint (warning, oops) that appeared
# during the test, and a skip that selftests/expected-skips does not list
# count as failed cases of that test.  In a qemu-run.sh guest
# (PCIESW_TIMEOUT, its --timeout) a test's timeout is cut so that it ends
# 60 s before the guest's cap: a test that hangs is killed and reported, the
# tests after it run or are reported "not run", and the run keeps its TAP.
#
# Output is TAP: one "ok N selftests: pciesw: TEST" line per test, its own
# output before it prefixed with "# ", and after it "# runner: TEST: P
# passed, F failed, S skipped, R reduced in Ts, cpu Cs" (C: the CPU time
# the guest's vCPUs were busy meanwhile).  Then the tests sorted by time
# ("# time: T s  cpu C s  TEST") and the last line counts the cases (lines
# "ok N", "not ok N", "... # SKIP" of the tests' output, a test skipped as
# a whole counting as one):
#
#   pciesw-selftests: P passed, F failed, S skipped, R reduced
#
# Exit status 0 iff F is 0.  Runs as root, in a scripts/qemu-run.sh guest
# only (PCIESW_GUEST=1): it loads and unloads kernel modules.

set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)

ALL_TESTS=(pciesw_ioctl pciesw_mem pciesw_netlink pciesw_unpriv pciesw_bus.sh
	   pciesw_module.sh pciesw_switchctl.sh
	   pciesw_lanes pciesw_link pciesw_hotplug pciesw_events
	   pciesw_topo_unpriv pciesw_topo_switchctl.sh pciesw_stress
	   pciesw_health pciesw_thermal pciesw_vpd pciesw_health_switchctl.sh
	   pciesw_dma_switchctl.sh pciesw_top_switchctl.sh pciesw_dma pciesw_debugfs pciesw_pci.sh pciesw_pci_churn.sh
	   pciesw_pci_hotplug.sh pciesw_pci_aer.sh pciesw_pci_dpc.sh pciesw_pci_faults.sh pciesw_pci_ras.sh pciesw_pci_ident.sh pciesw_pci_fidelity.sh pciesw_pci_quirks.sh pciesw_views.sh pciesw_ops_switchctl.sh pciesw_install.sh
	   pciesw_docs.sh pciesw_block.sh pciesw_block_conformance.sh
	   pciesw_nvme_ioctl pciesw_nvme.sh pciesw_nvme_faults.sh
	   pciesw_devlink.sh pciesw_fuzz pciesw_soak
	   pciesw_faults.sh pciesw_hwloc.sh)

# Tests whose result depends on how the guest booted (the kernel's default
# command line, or pcie_ports=dpc-native, which gives 6.2+ kernels' DPC
# driver the switch ports): make check runs them in both.
BOOT_TESTS=(pciesw_pci_dpc.sh pciesw_pci_faults.sh)
boot=default
read -r cmdline </proc/cmdline
[[ " $cmdline " == *" pcie_ports=dpc-native "* ]] && boot=dpc-native

# Tests that run only when named: pciesw_iommu.sh needs a guest with an
# IOMMU and a real disk behind it (qemu-run.sh --iommu).
NAMED_TESTS=(pciesw_iommu.sh)

# The tests of the PCI view itself: they keep it on in every plan.  On the
# debug plan every other test runs without it, because creating and
# removing a PCI hierarchy for every switch of every test is most of that
# kernel's time (seconds per 144-lane card) and finds nothing the PCI-view
# tests do not: pciesw_pci_churn.sh drives both profiles through every
# operation with the view on, so lockdep still sees each lock order;
# pciesw_views.sh shows that the rest of the kernel does not wait for it.
# pciesw_block_conformance.sh checks the disks as users have them, with
# the view on (their parents are the drives' PCI functions).
PCI_VIEW_TESTS=(pciesw_pci.sh pciesw_pci_churn.sh pciesw_pci_hotplug.sh
		pciesw_pci_aer.sh pciesw_pci_dpc.sh pciesw_pci_faults.sh
		pciesw_pci_ident.sh pciesw_pci_fidelity.sh pciesw_views.sh
		pciesw_block_conformance.sh pciesw_nvme_faults.sh
		pciesw_pci_quirks.sh pciesw_iommu.sh pciesw_hwloc.sh)

# Tests of the model's own fault behaviour: they inject errors and
# surprise downs and check what the model does with them (a link that
# stays down, counters, events, health reporters).  With the PCI view on,
# the kernel's DPC and AER drivers act on those errors as on a server:
# they contain, reset and recover the links (and wait up to 60 s for an
# endpoint whose link another operation keeps down).  So these tests run
# without the view in every plan (pciesw_soak's load/unload cycles still
# make theirs); pciesw_pci_aer.sh and pciesw_pci_dpc.sh test what the
# kernel does, pciesw_pci_churn.sh the view under every operation.
MODEL_FAULT_TESTS=(pciesw_link pciesw_lanes pciesw_events
		   pciesw_topo_switchctl.sh pciesw_health
		   pciesw_health_switchctl.sh pciesw_devlink.sh pciesw_stress
		   pciesw_soak pciesw_top_switchctl.sh)

# The tests with pciehp driving the PCI view's slots (pci_hotplug=1, the
# module's default).  Every other test loads the module with
# pci_hotplug=0: pciehp's own delays (about 1 s for each endpoint it adds)
# would cost every ep add/del of the suite, and pciehp powering empty
# slots off would change the port state those tests check; the module
# then adds and removes the PCI devices itself, as those tests expect.
HOTPLUG_TESTS=(pciesw_pci_hotplug.sh pciesw_pci_faults.sh
	       pciesw_pci_fidelity.sh pciesw_iommu.sh)

# Skips that are allowed, with their reasons: TEST<TAB>ERE<TAB>reason
EXPECTED_SKIPS=$(dirname "${BASH_SOURCE[0]}")/expected-skips

ko=
timeout_s=180
plan=
queue=
tests=()
usage() {
	sed -n '9,28s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
	exit 2
}
while (($#)); do
	case $1 in
	--ko) ko=${2:?--ko needs a path}; shift 2 ;;
	--ko=*) ko=${1#*=}; shift ;;
	--timeout) timeout_s=${2:?--timeout needs a number}; shift 2 ;;
	--timeout=*) timeout_s=${1#*=}; shift ;;
	--plan) plan=${2:?--plan needs full or debug}; shift 2 ;;
	--plan=*) plan=${1#*=}; shift ;;
	--queue) queue=${PCIESW_SHARE:-none}; shift ;;
	--list) printf '%s\n' "${ALL_TESTS[@]}"; exit 0 ;;
	-h|--help) usage ;;
	-*) echo "run.sh: unknown option $1" >&2; usage ;;
	*) tests+=("$1"); shift ;;
	esac
done
[[ $timeout_s =~ ^[0-9]+$ ]] || usage
if [[ -z $plan ]]; then
	plan=full
	[[ $(uname -r) == *pciesw-debug* ]] && plan=debug
fi
[[ $plan == full || $plan == debug ]] || usage
if [[ $queue == none || -n $queue && ! -d $queue ]]; then
	echo "run.sh: --queue: no directory shared with the other guests (qemu-run.sh --share)" >&2
	exit 2
fi
[[ -n $ko ]] || ko=$top/build/$(uname -r)/pciesw.ko
if [[ ! -r $ko ]]; then
	echo "run.sh: no module at $ko (build it with scripts/build-kmod.sh)" >&2
	exit 2
fi
ko=$(cd "$(dirname "$ko")" && pwd)/$(basename "$ko")
if ((EUID != 0)); then
	echo "run.sh: must run as root (in the QEMU guest)" >&2
	exit 2
fi
if [[ ${PCIESW_GUEST:-} != 1 ]]; then
	echo "run.sh: refusing to load modules outside a scripts/qemu-run.sh guest" >&2
	exit 2
fi

# resolve test names to files
resolved=()
for t in "${tests[@]:-${ALL_TESTS[@]}}"; do
	t=${t##*/}
	found=
	for c in "$t" "$t.sh"; do
		for a in "${ALL_TESTS[@]}" "${NAMED_TESTS[@]}"; do
			[[ $a == "$c" ]] && found=$a
		done
	done
	if [[ -z $found ]]; then
		echo "run.sh: unknown test '$t' (see --list)" >&2
		exit 2
	fi
	resolved+=("$found")
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pciesw-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# kernel taint bits that a test must not set: all but O (out-of-tree
# module, 12) and E (unsigned module, 13), which loading pciesw sets
taint_mask=$((~((1 << 12) | (1 << 13))))
taint() {
	local t
	read -r t </proc/sys/kernel/tainted
	echo $((t & taint_mask))
}

# cpu_busy: the CPU time all CPUs spent busy since boot, in 1/100 s, into
# R (/proc/stat: user, nice, system, irq, softirq).  A test's share of
# it is what it costs where the guests keep the host's cores busy (make
# check's debug phase); its wall time also counts its sleeps.
cpu_busy() {
	local _ user nice sys irq softirq
	read -r _ user nice sys _ _ irq softirq _ </proc/stat
	R=$((user + nice + sys + irq + softirq))
}

mod_loaded() {
	[[ -e /sys/module/pciesw ]]
}

# rmmod, retried briefly: a netlink dump that is still finishing holds
# the module for a moment
unload() {
	local i out
	for ((i = 0; i < 30; i++)); do
		out=$(rmmod pciesw 2>&1) && return 0
		sleep 0.1
	done
	echo "$out"
	return 1
}

# The tests of the block view: the others run with blk=0 in every plan,
# since making and removing a disk for every NVMe drive of every card they
# create costs time (16 disks a pex89144) and finds nothing these do not.
# pciesw_install.sh checks the udev links of the disks.
BLK_TESTS=(pciesw_block.sh pciesw_block_conformance.sh pciesw_install.sh
	   pciesw_pci_faults.sh pciesw_nvme_ioctl pciesw_nvme.sh
	   pciesw_nvme_faults.sh pciesw_pci_quirks.sh pciesw_iommu.sh
	   pciesw_hwloc.sh)

# modargs TEST: the plan's module arguments for TEST
modargs() {
	local v args=() blk=0 pci=0 hp=0
	for v in "${BLK_TESTS[@]}"; do
		[[ $v == "$1" ]] && blk=1
	done
	((blk)) || args+=(blk=0)
	# its GPU-unplug case unplugs while 1M reads it queued at once are in
	# flight: 256 of them at gen1 x1 are ~1 s, the default depth's 64 end
	# about when the test sees them all started
	[[ $1 == pciesw_block.sh ]] && args+=(blk_queue_depth=256)
	# it times the Retry Status an endpoint answers after a reset
	[[ $1 == pciesw_pci_dpc.sh ]] && args+=(pci_ready_ms=1000)
	for v in "${HOTPLUG_TESTS[@]}"; do
		[[ $v == "$1" ]] && hp=1
	done
	((hp)) || args+=(pci_hotplug=0)
	if [[ $plan == debug ]]; then
		for v in "${PCI_VIEW_TESTS[@]}"; do
			[[ $v == "$1" ]] && pci=1
		done
		((pci)) || args+=(pci_view=0)
	else
		for v in "${MODEL_FAULT_TESTS[@]}"; do
			[[ $v == "$1" ]] && args+=(pci_view=0)
		done
	fi
	((${#args[@]})) && echo "${args[*]}"
	return 0
}

# The allowed skips: "TEST<TAB>ERE" lines (the reason is for people).
allowed=()
if [[ -r $EXPECTED_SKIPS ]]; then
	while IFS=$'\t' read -r at are _; do
		[[ -z $at || $at == \#* ]] && continue
		allowed+=("$at"$'\t'"$are")
	done <"$EXPECTED_SKIPS"
fi

# skip_allowed TEST LINE: LINE (a skipped case) is listed for TEST
skip_allowed() {
	local a
	for a in "${allowed[@]}"; do
		[[ ${a%%$'\t'*} == "$1" && $2 =~ ${a#*$'\t'} ]] && return 0
	done
	return 1
}

total_pass=0 total_fail=0 total_skip=0 total_reduced=0
n=0
times=()
echo "TAP version 13"
echo "# plan: $plan"
[[ -z $queue ]] && echo "1..${#resolved[@]}"
for t in "${resolved[@]}"; do
	# another runner of the queue has it (mkdir is atomic on the host)
	claim=$t
	for v in "${BOOT_TESTS[@]}"; do
		[[ $v == "$t" ]] && claim=$t@$boot
	done
	[[ -n $queue ]] && ! mkdir "$queue/$claim" 2>/dev/null && continue
	n=$((n + 1))
	name="selftests: pciesw: $t"
	prog=$here/$t
	extra=()	# failures the runner found, one case each
	pass=0 failc=0 skipc=0 redc=0
	args=$(modargs "$t")
	reduced=0
	[[ $plan == debug ]] && reduced=1
	echo "# $name"
	if ((reduced)); then
		echo "# runner: $t: insmod ${args:-(no arguments)}, PCIESW_REDUCED=1"
	else
		echo "# runner: $t: insmod ${args:-(no arguments)}"
	fi

	# the test's timeout, shortened to end before the guest's cap
	# (qemu-run.sh's --timeout, less a margin for the rmmod, the
	# kmemleak scans and the dmesg after the run): a test that hangs is
	# killed and reported as such, and the run keeps its TAP
	t_out=$timeout_s left=
	if [[ ${PCIESW_TIMEOUT:-} =~ ^[0-9]+$ ]]; then
		read -r up _ </proc/uptime
		left=$((PCIESW_TIMEOUT - 60 - ${up%.*}))
		((left < t_out)) && t_out=$left
	fi
	if [[ -n $left ]] && ((left < 10)); then
		extra+=("not run: ${left} s left before the guest's cap of ${PCIESW_TIMEOUT} s (less 60 s for the end of the run)")
	elif [[ ! -x $prog ]]; then
		extra+=("$t is not built: make -C selftests KSRC=\$(scripts/ksrc.sh)")
	elif mod_loaded && ! out=$(unload); then
		extra+=("cannot unload pciesw before the test: $out")
	elif ! out=$(insmod "$ko" $args 2>&1); then
		extra+=("insmod $ko $args: $out")
	fi

	status=0
	start=${EPOCHREALTIME/./}
	cpu_busy; busy0=$R
	if ((${#extra[@]} == 0)); then
		taint_before=$(taint)
		PCIESW_KO=$ko PCIESW_MODARGS=$args PCIESW_REDUCED=$reduced \
			timeout -k 10 "$t_out" "$prog" >"$tmp/out" 2>&1 </dev/null
		status=$?
		whole_skip=
		while IFS= read -r line; do
			printf '# %s\n' "$line"
			[[ $line == *REDUCED:* ]] && redc=$((redc + 1))
			[[ $line =~ ^1\.\.0\ *\#\ *[Ss][Kk][Ii][Pp] ]] && whole_skip=$line
			if [[ $line =~ ^(not\ )?ok\ [0-9]+ ]]; then
				if [[ $line =~ \#\ *[Ss][Kk][Ii][Pp] ]]; then
					skipc=$((skipc + 1))
					skip_allowed "$t" "$line" ||
						extra+=("unexpected skip (not in selftests/expected-skips): $line")
				elif [[ $line == not* ]]; then
					failc=$((failc + 1))
				else
					pass=$((pass + 1))
				fi
			fi
		done <"$tmp/out"
		if ((status == 124 || status == 137)); then
			extra+=("timed out after ${t_out}s")
			# where it was stuck: the tasks still blocked
			echo "pciesw-run: $t timed out: blocked tasks" >/dev/kmsg
			echo w >/proc/sysrq-trigger
			dmesg | sed -n "/pciesw-run: $t timed out/,\$p" | tail -n 80 |
				sed 's/^/# runner: /'
		elif ((status == 4 && pass + failc + skipc == 0)); then
			skipc=1	# skipped as a whole
			skip_allowed "$t" "${whole_skip:-1..0 # SKIP}" ||
				extra+=("unexpected skip of the whole test (not in selftests/expected-skips): ${whole_skip:-exit status 4}")
		elif ((status != 0 && status != 4 && failc == 0)); then
			extra+=("exited with status $status but reported no failed case")
		fi
		taint_after=$(taint)
		if ((taint_after != taint_before)); then
			extra+=("kernel tainted during the test: $taint_before -> $taint_after (see dmesg)")
		fi
		if mod_loaded && ! out=$(unload); then
			extra+=("rmmod pciesw after the test failed: $out")
		fi
	fi
	d=$((${EPOCHREALTIME/./} - start))
	secs=$((d / 1000000)).$((d / 100000 % 10))
	cpu_busy; busy=$((R - busy0))
	cpu=$((busy / 100)).$((busy / 10 % 10))
	for e in "${extra[@]}"; do
		echo "# runner: FAIL: $e"
	done
	failc=$((failc + ${#extra[@]}))
	echo "# runner: $t: $pass passed, $failc failed, $skipc skipped, $redc reduced in ${secs}s, cpu ${cpu}s"
	times+=("$(printf '%8s s  cpu %8s s  %s' "$secs" "$cpu" "$t")")
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + failc))
	total_skip=$((total_skip + skipc))
	total_reduced=$((total_reduced + redc))
	if ((failc)); then
		echo "not ok $n $name"
	elif ((pass == 0 && skipc)); then
		echo "ok $n $name # SKIP"
	else
		echo "ok $n $name"
	fi
done

[[ -n $queue ]] && echo "1..$n"
# slowest first: what the next feature can spend is read off here
printf '%s\n' "${times[@]}" | sort -rn | sed 's/^/# time: /'
echo "pciesw-selftests: $total_pass passed, $total_fail failed, $total_skip skipped, $total_reduced reduced"
((total_fail == 0))
