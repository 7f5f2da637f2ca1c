#!/bin/bash
# Print the kernel release to test for a kernel series.
#
# Usage: scripts/kernels.sh SERIES...     e.g. scripts/kernels.sh 6.1 6.12
#   Prints, one per line, the newest installed release of each SERIES that has
#   both /boot/vmlinuz-REL (to boot under QEMU) and /lib/modules/REL/build
#   (to build the module against), e.g. 6.1.0-57-amd64, 6.12.117+deb12-amd64.
#   Exits 1 naming the series if one has no such release.
set -euo pipefail

if (($# == 0)); then
	echo "usage: $0 SERIES... (e.g. 6.1 6.12)" >&2
	exit 2
fi

rc=0
for series in "$@"; do
	best=
	for img in /boot/vmlinuz-"$series".* /boot/vmlinuz-"$series"-*; do
		[[ -e $img ]] || continue
		# The globs end the series with '.' or '-', so 6.1 never matches 6.12.
		rel=${img#/boot/vmlinuz-}
		# Only the generic flavour that linux-image-amd64 installs, not
		# -cloud-amd64 or -rt-amd64 if someone installed those too.
		[[ $rel == *-amd64 && $rel != *-cloud-amd64 && $rel != *-rt-amd64 ]] || continue
		[[ -e /lib/modules/$rel/build/Makefile ]] || continue
		if [[ -z $best ]] || dpkg --compare-versions "$rel" gt "$best"; then
			best=$rel
		fi
	done
	if [[ -n $best ]]; then
		echo "$best"
	else
		echo "$0: no installed $series kernel with both /boot/vmlinuz-$series* and" \
			"/lib/modules/<release>/build: run scripts/deps.sh" >&2
		rc=1
	fi
done
exit "$rc"
