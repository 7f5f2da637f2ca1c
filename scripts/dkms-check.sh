#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS from a clean state, as a user of the package would: the sources
# into /usr/src/pciesw-VERSION (make dkms-src), dkms add, dkms build for
# each kernel given, dkms status, dkms install for each (the module where
# modinfo and modprobe find it), then dkms remove --all and the copy
# deleted: the host is left as it was found (also when a step fails).
# Refuses to run when pciesw is already known to dkms or the copy exists
# (someone's real installation).  The module is built as make check
# builds it (W=1, -Werror); with --export DIR each kernel's pciesw.ko is
# copied to DIR/KVER/pciesw.ko, so that make check tests the module DKMS
# built instead of building it twice.  The MOK signing key dkms generates
# on its first build is removed again if this run created it.  Prints TAP,
# ends with "dkms-check: P passed, F failed".  Run as root.
#   scripts/dkms-check.sh [--export DIR] KVER...
set -uo pipefail
export_dir=
if [ "${1:-}" = --export ]; then
	export_dir=$2
	shift 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
src=/usr/src/pciesw-$ver
passed=0 failed=0 n=0
case1() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); echo "ok $n - $2"
	else
		failed=$((failed + 1)); echo "not ok $n - $2"
	fi
}
finish() {
	echo "1..$n"
	echo "dkms-check: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! command -v dkms >/dev/null; then
	case1 1 "dkms installed (scripts/deps.sh installs it)"
	finish
fi
if [ -e "$src" ] || [ -e /var/lib/dkms/pciesw ]; then
	echo "# $src or /var/lib/dkms/pciesw exists: not touching an installation"
	case1 1 "dkms: clean state (no pciesw in dkms)"
	finish
fi
mok=()
for f in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
	[ -e "$f" ] || mok+=("$f")
done
cleanup() {
	dkms remove pciesw/"$ver" --all >/dev/null 2>&1
	rm -rf "$src" /var/lib/dkms/pciesw
	((${#mok[@]} == 0)) || rm -f "${mok[@]}"
}
trap 'cleanup; rm -f "$log"' EXIT

make -s dkms-src DESTDIR= >"$log" 2>&1
case1 $? "make dkms-src: sources in $src" || cat "$log"
dkms add pciesw/"$ver" >"$log" 2>&1
rc=$?
case1 $rc "dkms add pciesw/$ver"
[ $rc = 0 ] || sed 's/^/# /' "$log"
for k in "$@"; do
	t=$SECONDS
	PCIESW_KCFLAGS=-Werror dkms build pciesw/"$ver" -k "$k" >"$log" 2>&1
	rc=$?
	[ $rc = 0 ] || { sed 's/^/# /' "$log"; cat /var/lib/dkms/pciesw/"$ver"/build/make.log 2>/dev/null | tail -n 30 | sed 's/^/# /'; }
	ko=/var/lib/dkms/pciesw/$ver/$k/x86_64/module/pciesw.ko
	[ -f "$ko" ] || ko=$ko.xz
	[ $rc = 0 ] && [ -f "$ko" ] || rc=1
	case1 $rc "dkms build -k $k ($((SECONDS - t)) s)"
	if [ $rc = 0 ]; then
		vm=$(modinfo -F vermagic "$ko" 2>/dev/null)
		[[ $vm == "$k "* ]]
		case1 $? "dkms module for $k has vermagic $k (${vm%% *})"
		if [ -n "$export_dir" ]; then
			mkdir -p "$export_dir/$k"
			case $ko in
			*.xz) xz -dc "$ko" >"$export_dir/$k/pciesw.ko" ;;
			*) cp "$ko" "$export_dir/$k/pciesw.ko" ;;
			esac
			case1 $? "pciesw.ko for $k exported to $export_dir/$k"
		fi
	fi
done
st=$(dkms status pciesw/"$ver" 2>&1)
echo "$st" | sed 's/^/# /'
rc=0
for k in "$@"; do
	grep -q "pciesw/$ver, $k, .*: built" <<<"$st" || rc=1
done
case1 $rc "dkms status: built for $*"
# install: what a kernel update does through AUTOINSTALL; modinfo finds the
# module by name through the depmod that dkms runs
for k in "$@"; do
	dkms install pciesw/"$ver" -k "$k" >"$log" 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$log"
	case1 $rc "dkms install -k $k"
	path=$(modinfo -k "$k" -n pciesw 2>&1)
	[[ $path == /lib/modules/$k/updates/dkms/pciesw.ko* ]]
	case1 $? "modinfo -k $k pciesw: $path"
done
st=$(dkms status pciesw/"$ver" 2>&1)
rc=0
for k in "$@"; do
	grep -q "pciesw/$ver, $k, .*: installed" <<<"$st" || rc=1
done
case1 $rc "dkms status: installed for $*"
dkms remove pciesw/"$ver" --all >"$log" 2>&1
case1 $? "dkms remove pciesw/$ver --all" || sed 's/^/# /' "$log"
rm -rf "$src"
rc=0
[ -e /var/lib/dkms/pciesw ] && rc=1
[ -e "$src" ] && rc=1
for f in "${mok[@]}"; do
	[ -e "$f" ] && rm -f "$f"
done
for k in "$@"; do
	ls /lib/modules/"$k"/updates/dkms/pciesw.ko* >/dev/null 2>&1 && rc=1
done
case1 $rc "nothing of pciesw left in /usr/src, /var/lib/dkms, /lib/modules"
finish
