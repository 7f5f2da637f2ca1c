#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the benchmarks of issues 5 and 31 (P1..P7), of issue 12 (G1..G3:
# the drives as block devices, GDS) and of issue 30 (G4: NVMe passthrough)
# in a QEMU guest on 6.12.
#
#   scripts/bench.sh [--kernel 6.1|6.12|KVER] [--out DIR]
#
# Builds pciesw.ko for the kernel, switchctl (P5 and P7 time it) and
# selftests/pciesw_bench, boots the kernel with scripts/qemu-run.sh (its
# defaults: 2 vCPUs, 2 GiB) and runs pciesw_bench, which loads the module
# itself (P6 measures what insmod and the default card cost) and prints
# each figure with its target and PASS or MISS, every ratio measured in
# that one guest run, then a summary; then, with the module loaded again,
# selftests/pciesw_bench_block.sh prints G1..G4 and its own summary (the
# guest has 4 GiB: G1 puts a 1 GiB file on the drives and in gpu0).  The
# output is also kept in DIR/bench.txt (default build/bench).
# Exit status: 0 when every figure passed; 1 when one MISSed or the bench
# failed before its summary; qemu-run.sh's status (120 kernel problem,
# 124 timeout, 125 no guest) when the guest did not run clean.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

series=6.12 out=build/bench
while (($#)); do
	case $1 in
	--kernel) series=${2:?--kernel needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	-h|--help) sed -n '3,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

kver=$(scripts/kernels.sh "$series" 2>/dev/null || echo "$series")
scripts/build-kmod.sh "/lib/modules/$kver/build" "build/$kver" >/dev/null
make -s -C selftests KSRC="$(scripts/ksrc.sh)" pciesw_bench \
	pciesw_bench_nvme >/dev/null
make -s switchctl >/dev/null
mkdir -p "$out"

# the guest: nothing loaded yet; pciesw_bench loads the module (P6)
rc=0
# shellcheck disable=SC2016 # expanded in the guest
scripts/qemu-run.sh --kernel "$kver" --timeout 2400 --mem 4096 --out "$out/qemu" -- \
	bash -c 'selftests/pciesw_bench "$1" "$2"; a=$?
		rmmod pciesw 2>/dev/null; insmod "$1" && sleep 0.5 &&
		selftests/pciesw_bench_block.sh "$2"; b=$?
		exit $((a > b ? a : b))' bench "build/$kver/pciesw.ko" \
	userspace/switchctl | tee "$out/bench.txt" || rc=${PIPESTATUS[0]}
summaries=$(grep -cE '^summary: [0-9]+ PASS, [0-9]+ MISS$' "$out/bench.txt" || true)
if ((rc == 0 || rc == 1)); then
	if ((summaries != 2)); then
		echo "bench.sh: a summary is missing: a bench failed (see above)" >&2
		rc=1
	elif grep -E '^summary: ' "$out/bench.txt" | grep -qv ' 0 MISS$'; then
		echo "bench.sh: a figure missed its target" >&2
		rc=1
	fi
fi
exit "$rc"
