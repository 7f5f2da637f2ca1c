#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make soak: the long form of selftests/pciesw_soak on the debug kernel
# (KASAN, lockdep, kmemleak): 60 s of 4-channel DMA with data verification
# under topology churn (re-bifurcation of the other groups, unplug and
# replug of both ends, links disabled and surprise-downed, ACS and
# host-p2p flips, rmmod attempts), then 100 load/unload cycles with 8
# switches and the PCI view on; no leak (kmemleak, checked by
# qemu-run.sh), a clean kernel log.
#
#   scripts/soak.sh [--kernel debug|6.1|6.12|KVER] [--time SECS]
#                   [--cycles N] [--seed S] [--out DIR]
#
# Builds the module for the kernel and the selftests, runs pciesw_soak
# through selftests/run.sh in one scripts/qemu-run.sh guest.  Output in
# DIR/soak.txt (default build/soak).  Exit status: 0 on a clean run, else
# run.sh's (1) or qemu-run.sh's (120 kernel problem, 124 timeout, 125 no
# guest).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

kernel=debug out=build/soak secs=60 cycles=100 seed=
while (($#)); do
	case $1 in
	--kernel) kernel=${2:?--kernel needs a value}; shift 2 ;;
	--time) secs=${2:?--time needs seconds}; shift 2 ;;
	--cycles) cycles=${2:?--cycles needs a number}; shift 2 ;;
	--seed) seed=${2:?--seed needs a number}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	-h|--help) sed -n '3,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

if [[ $kernel == debug ]]; then
	dir=$(scripts/debug-kernel.sh | tail -n1)
	kdir=$dir/build kobj=build/debug plan=debug
	per_cycle=10	# 8 cards with their PCI view, in and out
else
	kver=$(scripts/kernels.sh "$kernel" 2>/dev/null || echo "$kernel")
	kdir=/lib/modules/$kver/build kobj=build/$kver plan=full
	per_cycle=2
fi
scripts/build-kmod.sh "$kdir" "$kobj" W=1 >/dev/null
make -s switchctl selftests >/dev/null
mkdir -p "$out"

args="--time $secs --cycles $cycles"
[[ -n $seed ]] && args+=" --seed $seed"
limit=$((secs + cycles * per_cycle + 240))
rc=0
scripts/qemu-run.sh --kernel "$kernel" --timeout $((limit + 180)) \
	--out "$out/qemu" -- \
	env PCIESW_SOAK_ARGS="$args" selftests/run.sh --plan "$plan" \
	--timeout "$limit" --ko "$kobj/pciesw.ko" pciesw_soak |
	tee "$out/soak.txt" || rc=${PIPESTATUS[0]}
exit "$rc"
