#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The uAPI header and the netlink spec must agree: generate the uAPI header
# from the spec with the kernel's own ynl-gen-c and check that every enum
# constant of either header exists in the other with the same value.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$("$top/scripts/ksrc.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ynl-gen-c looks for the schema next to the spec, inside a kernel tree
cp "$top/Documentation/netlink/specs/pciesw.yaml" "$ksrc/Documentation/netlink/specs/"
mkdir -p "$tmp/gen/linux"
(cd "$ksrc/tools/net/ynl" &&
 /usr/bin/python3 ynl-gen-c.py --mode uapi --header \
	--spec ../../../Documentation/netlink/specs/pciesw.yaml \
	-o "$tmp/gen/linux/pciesw.h")

# enum constants (not macros) of a header, private __..._MAX ones included;
# the spec has no *_UNSPEC (0 is implied), so those are not compared
names() {
	grep -oE '^\s+_*PCIESW_[A-Z0-9_]+' "$1" | sed 's/^[[:space:]]*//' |
		grep -v '_UNSPEC$'
}
{ names "$tmp/gen/linux/pciesw.h"; names "$top/include/uapi/linux/pciesw.h"; } |
	sort -u > "$tmp/names"

dump() {	# dump INCLUDE_DIR: print NAME=VALUE of every name, or fail to build
	{
		echo '#include <stdio.h>'
		echo '#include <linux/pciesw.h>'
		echo 'int main(void) {'
		sed 's/.*/printf("&=%d\\n", (int)&);/' "$tmp/names"
		echo 'return 0; }'
	} > "$tmp/dump.c"
	gcc -I"$1" -o "$tmp/dump" "$tmp/dump.c" && "$tmp/dump"
}
dump "$tmp/gen" > "$tmp/from-spec"
dump "$top/include/uapi" > "$tmp/from-header"
if ! diff -u "$tmp/from-spec" "$tmp/from-header"; then
	echo "check-uapi: include/uapi/linux/pciesw.h and the spec disagree" >&2
	exit 1
fi
echo "check-uapi: $(wc -l < "$tmp/names") constants agree"
