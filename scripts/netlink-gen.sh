#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generate the netlink code of the pciesw family from its spec
# (Documentation/netlink/specs/pciesw.yaml) with the kernel's own
# ynl-gen-c, as the kernel generates drivers/dpll/dpll_nl.[ch] from
# dpll.yaml:
#   include/uapi/linux/pciesw_netlink.h  the uAPI enums and defines
#   kmod/netlink/pciesw_nl.[ch]          policies, split ops, handler names
# The generated files are committed; never edit them by hand.
#   scripts/netlink-gen.sh           regenerate them in place
#   scripts/netlink-gen.sh --check   regenerate into a temporary directory
#                                    and fail if the committed ones differ
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
check=
if [ "${1:-}" = --check ]; then
	check=1
elif [ $# -gt 0 ]; then
	echo "usage: $0 [--check]" >&2
	exit 2
fi
ksrc=$("$top/scripts/ksrc.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files="include/uapi/linux/pciesw_netlink.h kmod/netlink/pciesw_nl.h kmod/netlink/pciesw_nl.c"
mkdir -p "$tmp/include/uapi/linux" "$tmp/kmod/netlink"

# ynl-gen-c looks for the schema next to the spec, inside a kernel tree
cp "$top/Documentation/netlink/specs/pciesw.yaml" \
	"$ksrc/Documentation/netlink/specs/"
gen() {	# gen MODE header|source OUT
	(cd "$ksrc/tools/net/ynl" &&
	 /usr/bin/python3 ynl-gen-c.py --mode "$1" "--$2" \
		--spec ../../../Documentation/netlink/specs/pciesw.yaml \
		-o "$tmp/$3") > "$tmp/log" 2>&1 || {
		cat "$tmp/log" >&2
		echo "netlink-gen: ynl-gen-c --mode $1 --$2 failed" >&2
		exit 1
	}
}
gen uapi header include/uapi/linux/pciesw_netlink.h
gen kernel header kmod/netlink/pciesw_nl.h
gen kernel source kmod/netlink/pciesw_nl.c

if [ -z "$check" ]; then
	for f in $files; do
		cmp -s "$tmp/$f" "$top/$f" || cp "$tmp/$f" "$top/$f"
	done
	echo "netlink-gen: $files up to date"
	exit 0
fi
bad=0
for f in $files; do
	if ! diff -u --label "$f (committed)" --label "$f (from the spec)" \
		"$top/$f" "$tmp/$f"; then
		bad=1
	fi
done
if [ "$bad" != 0 ]; then
	echo "netlink-gen: the generated netlink files differ from what" \
	     "Documentation/netlink/specs/pciesw.yaml gives;" \
	     "run scripts/netlink-gen.sh (make netlink-gen) and commit" >&2
	exit 1
fi
echo "netlink-gen: $files match the spec"
