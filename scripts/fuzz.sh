#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make fuzz: the full run of selftests/pciesw_fuzz on the debug kernel
# (KASAN, lockdep, kmemleak): at least 1,000,000 inputs in at most 15
# minutes, a clean kernel log and the module unloading at the end.
#
#   scripts/fuzz.sh [--kernel debug|6.1|6.12|KVER] [--seed S] [--inputs N]
#                   [--time SECS] [--out DIR]
#
# Builds the module for the kernel (the debug kernel's tree from
# scripts/debug-kernel.sh) and the selftests, then runs pciesw_fuzz through
# selftests/run.sh in one scripts/qemu-run.sh guest: run.sh loads the
# module, fails the run on a taint, and unloads it afterwards (a failed
# rmmod fails the run); qemu-run.sh fails it on any bug, warning or
# kmemleak report in the kernel log.  The fuzzer stops at N inputs
# (default 1000000) or after SECS seconds (default 840), and fails when
# it made fewer than N.  Its seeds are printed: --seed S repeats a run.
# Output in DIR/fuzz.txt (default build/fuzz).  Exit status: 0 on a clean
# run, else run.sh's (1) or qemu-run.sh's (120 kernel problem, 124
# timeout, 125 no guest).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

kernel=debug out=build/fuzz inputs=1000000 secs=840 seed=
while (($#)); do
	case $1 in
	--kernel) kernel=${2:?--kernel needs a value}; shift 2 ;;
	--seed) seed=${2:?--seed needs a number}; shift 2 ;;
	--inputs) inputs=${2:?--inputs needs a number}; shift 2 ;;
	--time) secs=${2:?--time needs seconds}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	-h|--help) sed -n '3,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

if [[ $kernel == debug ]]; then
	dir=$(scripts/debug-kernel.sh | tail -n1)
	kdir=$dir/build kobj=build/debug plan=debug
else
	kver=$(scripts/kernels.sh "$kernel" 2>/dev/null || echo "$kernel")
	kdir=/lib/modules/$kver/build kobj=build/$kver plan=full
fi
scripts/build-kmod.sh "$kdir" "$kobj" W=1 >/dev/null
make -s switchctl selftests >/dev/null
mkdir -p "$out"

args="--inputs $inputs --min-inputs $inputs --time $secs"
[[ -n $seed ]] && args+=" --seed $seed"
rc=0
# run.sh's timeout: the fuzz time, setup and the final checks
scripts/qemu-run.sh --kernel "$kernel" --timeout $((secs + 420)) \
	--out "$out/qemu" -- \
	env PCIESW_FUZZ_ARGS="$args" selftests/run.sh --plan "$plan" \
	--timeout $((secs + 240)) --ko "$kobj/pciesw.ko" pciesw_fuzz |
	tee "$out/fuzz.txt" || rc=${PIPESTATUS[0]}
exit "$rc"
