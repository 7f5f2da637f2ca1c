#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the benchmarks of issue 5 (P1..P6) in a QEMU guest on 6.12.
#
#   scripts/bench.sh [--kernel 6.1|6.12|KVER] [--out DIR]
#
# Builds pciesw.ko for the kernel and selftests/pciesw_bench, boots the
# kernel with scripts/qemu-run.sh (its defaults: 2 vCPUs, 2 GiB) and runs
# pciesw_bench, which loads the module itself (P6 measures what insmod and
# the default card cost) and prints each figure with its target and PASS
# or MISS, every ratio measured in that one guest run, then a summary.
# The output is also kept in DIR/bench.txt (default build/bench).
# Exit status: qemu-run.sh's (0 when the guest ran clean), not the MISSes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

series=6.12 out=build/bench
while (($#)); do
	case $1 in
	--kernel) series=${2:?--kernel needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	-h|--help) sed -n '3,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

kver=$(scripts/kernels.sh "$series" 2>/dev/null || echo "$series")
scripts/build-kmod.sh "/lib/modules/$kver/build" "build/$kver" >/dev/null
make -s -C selftests KSRC="$(scripts/ksrc.sh)" pciesw_bench >/dev/null
mkdir -p "$out"

# the guest: nothing loaded yet; pciesw_bench loads the module (P6)
scripts/qemu-run.sh --kernel "$kver" --timeout 1500 --out "$out/qemu" -- \
	selftests/pciesw_bench "build/$kver/pciesw.ko" | tee "$out/bench.txt"
exit "${PIPESTATUS[0]}"
