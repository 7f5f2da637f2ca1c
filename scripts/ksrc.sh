#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Extract the few files the project uses from Debian's linux-source-6.12
# tarball (never copied into the repository): the kselftest harness,
# checkpatch and the ynl netlink tools.  Prints the extracted tree.
#   scripts/ksrc.sh [DIR]   (default build/ksrc)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/ksrc}
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n1)
if [ -z "$tarball" ]; then
	echo "ksrc: /usr/src/linux-source-6.12.tar.* missing (scripts/deps.sh installs it)" >&2
	exit 1
fi
stamp="$dir/.stamp"
want="$tarball $(stat -c %Y "$tarball")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xf "$tarball" -C "$dir" --strip-components=1 \
		linux-source-6.12/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.12/tools/testing/selftests/kselftest.h \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch \
		linux-source-6.12/tools/net/ynl \
		linux-source-6.12/Documentation/netlink \
		linux-source-6.12/MAINTAINERS
	echo "$want" > "$stamp"
fi
echo "$dir"
