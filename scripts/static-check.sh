#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of the kernel side: checkpatch --strict (from the
# linux-source-6.12 tarball) and sparse on every given kernel; and
# mandoc -Tlint of the man pages.  Any finding
# in kmod/ or include/ fails.  Prints TAP.
#   scripts/static-check.sh KDIR...
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
ksrc=$(scripts/ksrc.sh) || exit 1
n=0 failed=0

result() {	# result STATUS DESCRIPTION LOGFILE
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		sed 's/^/# /' "$3"
	fi
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# the generated netlink files (scripts/netlink-gen.sh) are as ynl-gen-c
# writes them: checked alike, except for its long policy lines, which the
# kernel's own generated files have too (net/core/netdev-genl-gen.c)
generated="kmod/netlink/pciesw_nl.c kmod/netlink/pciesw_nl.h include/uapi/linux/pciesw_netlink.h"
{
	perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		-f $(find kmod -name '*.[ch]' | sort | grep -v -e netlink/pciesw_nl.c -e netlink/pciesw_nl.h) \
		include/uapi/linux/pciesw.h
	perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		--ignore LONG_LINE -f $generated
} > "$log" 2>&1
# --terse prints one "total:" line per file; anything else is a finding,
# but an iterator macro (..._for_each_...) reuses its cursor argument by
# design, as list_for_each_entry() does
grep -v '^total: 0 errors, 0 warnings, 0 checks' "$log" |
	while IFS= read -r line; do
		if [[ $line =~ ^([^:]+):([0-9]+):\ CHECK:MACRO_ARG_REUSE: ]] &&
		   sed -n "${BASH_REMATCH[2]}p" "${BASH_REMATCH[1]}" |
			grep -q '^#define [a-z_]*_for_each_[a-z_]*('; then
			continue
		fi
		printf '%s\n' "$line"
	done | grep -v '^total: ' > "$log.f" || true
test ! -s "$log.f"
result $? "checkpatch --strict kmod/ include/" "$log.f"
rm -f "$log.f"

# the man pages; style messages about pages the host lacks (the other
# page of the pair not installed, the system's mandoc.db) do not count
if command -v mandoc >/dev/null; then
	mandoc -Tlint -Wwarning Documentation/man/*.[1-9] > "$log" 2>&1
	result $? "mandoc -Tlint Documentation/man/" "$log"
else
	echo "mandoc missing: run scripts/deps.sh" > "$log"
	result 1 "mandoc -Tlint Documentation/man/" "$log"
fi

scripts/netlink-gen.sh --check > "$log" 2>&1
result $? "generated netlink code matches the spec (scripts/netlink-gen.sh)" "$log"

for kdir in "$@"; do
	name=$(echo "$kdir" | tr / _)
	out=build/sparse/$name
	# C=2 checks every file, also those already built
	if scripts/build-kmod.sh "$kdir" "$out" C=2 > "$log" 2>&1; then
		grep -E '(kmod|include)/[^:]*:[0-9]+:[0-9]+: (warning|error)' \
			"$log" > "$log.f" || true
		test ! -s "$log.f"
		result $? "sparse $kdir" "$log.f"
	else
		result 1 "sparse build $kdir" "$log"
	fi
	rm -f "$log.f"
done
echo "1..$n"
echo "static-checks: $((n - failed)) passed, $failed failed, 0 skipped"
[ "$failed" = 0 ]
