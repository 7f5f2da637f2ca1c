#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: install what is missing, build the module for Debian's 6.1 and
# 6.12 kernels and for the debug kernel, run the static checks, then the
# selftests in QEMU on each kernel.  Prints the time of every step and of
# every test program on every kernel, slowest first, and the total against
# the budget; ends with one "N passed, N failed" line counting every build,
# static check and test case.
#
# Budget: the whole of make check, from a fresh clone on a 2-core machine
# with the debug kernel built from scratch, within BUDGET seconds (CI stops
# at 90 minutes).  Caps: each QEMU run is killed at its cap, a test at its
# per-test timeout.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

BUDGET=2700
STOCK_CAP=900 STOCK_PER_TEST=300
DEBUG_CAP=1800 DEBUG_PER_TEST=600

passed=0 failed=0 skipped=0 reduced=0
t0=$SECONDS t_step=$SECONDS step_name=
stages=()
# step NAME: a new step; the time of the previous one is recorded
step() {
	[[ -n $step_name ]] && stages+=("$((SECONDS - t_step)) $step_name")
	step_name=$*
	t_step=$SECONDS
	printf '\n==== %s ====\n' "$*"
}

# add the counts of a "WHAT: P passed, F failed, S skipped" line in $1
count() {
	local line
	line=$(grep -E '^[a-z-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n1)
	if [ -z "$line" ]; then
		echo "check: no summary line in $1" >&2
		failed=$((failed + 1))
		return
	fi
	set -- $(echo "$line" | sed -E 's/^[a-z-]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?(, ([0-9]+) reduced)?.*/\1 \2 \4 \6/')
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + ${3:-0}))
	reduced=$((reduced + ${4:-0}))
}

# one pass/fail case: $1 = status, $2 = description
case1() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); echo "ok - $2"
	else
		failed=$((failed + 1)); echo "not ok - $2"
	fi
}

step "dependencies"
scripts/deps.sh || { echo "check: scripts/deps.sh failed"; exit 1; }

results=build/results
rm -rf "$results"
mkdir -p "$results"

k61=$(scripts/kernels.sh 6.1) || exit 1
k612=$(scripts/kernels.sh 6.12) || exit 1
step "debug kernel"
dbgdir=$(scripts/debug-kernel.sh | tail -n1)
case1 $? "debug kernel available ($dbgdir)"

step "userspace"
make -s switchctl selftests
case1 $? "switchctl and selftests build with -Werror"

declare -A kdir=(
	[$k61]=/lib/modules/$k61/build
	[$k612]=/lib/modules/$k612/build
	[debug]=$dbgdir/build
)
kernels=("$k61" "$k612" debug)

for k in "${kernels[@]}"; do
	step "module for $k (W=1, -Werror)"
	scripts/build-kmod.sh "${kdir[$k]}" "build/$k" > "$results/build-$k.log" 2>&1
	rc=$?
	[ $rc = 0 ] || cat "$results/build-$k.log"
	case1 $rc "pciesw.ko builds warning-free for $k"
done

step "static checks"
scripts/static-check.sh "${kdir[$k61]}" "${kdir[$k612]}" | tee "$results/static.tap"
count "$results/static.tap"

for k in "${kernels[@]}"; do
	step "selftests on $k"
	if [ ! -f "build/$k/pciesw.ko" ]; then
		case1 1 "selftests on $k: no module"
		continue
	fi
	# KASAN, lockdep and kmemleak under TCG run about 5x slower: there
	# run.sh's debug plan (PCI view only in the PCI-view tests, reduced
	# forms of the long tests) keeps the run near the stock kernels'
	per_test=$STOCK_PER_TEST cap=$STOCK_CAP plan=full
	if [ "$k" = debug ]; then
		per_test=$DEBUG_PER_TEST cap=$DEBUG_CAP plan=debug
	fi
	scripts/qemu-run.sh --kernel "$k" --out "$results/$k" --timeout $cap -- \
		selftests/run.sh --plan $plan --timeout $per_test --ko "build/$k/pciesw.ko" |
		tee "$results/$k.tap"
	rc=${PIPESTATUS[0]}
	count "$results/$k.tap"
	# a kernel warning, leak or crash fails the run even if the tests passed
	case1 $rc "QEMU run on $k: clean kernel log, no leaks, exit 0"
done

step "times"
# every test program on every kernel, slowest first
for k in "${kernels[@]}"; do
	[ -f "$results/$k.tap" ] || continue
	sed -nE "s/^# runner: ([^:]+): .* in ([0-9.]+)s$/\2 $k \1/p" "$results/$k.tap"
done | sort -rn | awk '{ printf "%8.1f s  %-22s %s\n", $1, $2, $3 }' |
	tee "$results/times.txt"
echo
printf '%s\n' "${stages[@]}" | sort -rn | while read -r t name; do
	printf '%8d s  step: %s\n' "$t" "$name"
done | tee -a "$results/times.txt"
total=$((SECONDS - t0))
echo "check: ${total} s in all, budget ${BUDGET} s ($((BUDGET - total)) s left)" |
	tee -a "$results/times.txt"
# over budget is not a failure of the code (a slower or busier machine),
# but the next feature has nothing left to spend: say so loudly
((total > BUDGET)) &&
	echo "check: WARNING: ${total} s is over the budget of ${BUDGET} s: make tests cheaper before adding more"

echo
echo "tap and logs: $results/"
echo "check: $passed passed, $failed failed, $skipped skipped, $reduced reduced"
[ "$failed" = 0 ]
