#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the benchmarks of issue 5 (P1..P6) in a QEMU guest on 6.12.
#
#   scripts/bench.sh [--kernel 6.1|6.12|KVER] [--out DIR]
#
# Builds pciesw.ko for the kernel, switchctl (P5 times it) and
# selftests/pciesw_bench, boots the kernel with scripts/qemu-run.sh (its
# defaults: 2 vCPUs, 2 GiB) and runs pciesw_bench, which loads the module
# itself (P6 measures what insmod and the default card cost) and prints
# each figure with its target and PASS or MISS, every ratio measured in
# that one guest run, then a summary.  The output is also kept in
# DIR/bench.txt (default build/bench).
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
make -s -C selftests KSRC="$(scripts/ksrc.sh)" pciesw_bench >/dev/null
make -s switchctl >/dev/null
mkdir -p "$out"

# the guest: nothing loaded yet; pciesw_bench loads the module (P6)
rc=0
scripts/qemu-run.sh --kernel "$kver" --timeout 1500 --out "$out/qemu" -- \
	selftests/pciesw_bench "build/$kver/pciesw.ko" userspace/switchctl |
	tee "$out/bench.txt" || rc=${PIPESTATUS[0]}
summary=$(grep -E '^summary: [0-9]+ PASS, [0-9]+ MISS$' "$out/bench.txt" || true)
if ((rc == 0 || rc == 1)); then
	if [[ -z $summary ]]; then
		echo "bench.sh: no summary: the bench failed (see above)" >&2
		rc=1
	elif [[ $summary != *" 0 MISS" ]]; then
		echo "bench.sh: $summary: a figure missed its target" >&2
		rc=1
	fi
fi
exit "$rc"
