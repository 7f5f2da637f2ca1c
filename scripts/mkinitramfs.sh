#!/bin/bash
# Build (or reuse from cache) the tiny initramfs of scripts/qemu-run.sh:
# busybox-static plus, for a packaged kernel, the modules needed to mount the
# host's root over virtio-9p with a tmpfs overlay. Its /init mounts that root
# and switch_roots into it, running the guest-init script the host named.
#
# Usage: scripts/mkinitramfs.sh KVER|debug
#   Prints the path of the (uncompressed) cpio archive on stdout. Cached as
#   /var/cache/pciesw/initramfs/KVER-HASH.cpio, HASH covering this script,
#   busybox and the kernel's modules; env PCIESW_CACHE moves the cache.
set -euo pipefail

kver=${1:?usage: $0 KVER|debug}
cache=${PCIESW_CACHE:-/var/cache/pciesw}/initramfs
busybox=/bin/busybox

die() { echo "mkinitramfs: error: $*" >&2; exit 1; }

[[ -x $busybox ]] || die "$busybox missing: run scripts/deps.sh (busybox-static)"
# A dynamically linked busybox would need the host's libc in the initramfs.
if [[ $(LC_ALL=C ldd "$busybox" 2>&1 || true) != *"not a dynamic executable"* ]]; then
	die "$busybox is not static: install busybox-static"
fi

# Modules the root mount needs, in load order: virtio-pci (built into 6.12,
# a module on 6.1), 9p over virtio, overlayfs. The debug kernel has them all
# built in and loads nothing.
wanted=(virtio_pci 9pnet_virtio 9p overlay)
mods=()
if [[ $kver != debug ]]; then
	[[ -d /lib/modules/$kver/kernel ]] || die "no modules for $kver in /lib/modules/$kver"
	command -v modprobe >/dev/null || die "modprobe missing: run scripts/deps.sh (kmod)"
	for m in "${wanted[@]}"; do
		deps=$(modprobe -S "$kver" --show-depends "$m" 2>&1) ||
			die "cannot resolve module $m for $kver: $deps"
		# Lines are "insmod PATH [params]" or "builtin NAME".
		while read -r verb path _; do
			[[ $verb == insmod ]] || continue
			[[ " ${mods[*]} " == *" $path "* ]] || mods+=("$path")
		done <<<"$deps"
	done
fi

# The key changes with the contents (not paths: clones of the repo share
# images) of this script, busybox and the modules (a kernel package update
# may keep the release string but change the modules).
key=$(cat "${BASH_SOURCE[0]}" "$busybox" "${mods[@]}" | sha256sum | cut -c1-16)
img=$cache/$kver-$key.cpio
if [[ -s $img ]]; then
	echo "$img"
	exit 0
fi

mkdir -p "$cache"
stage=$(mktemp -d "$cache/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
mkdir -p "$root"/{bin,dev,proc,sys,lower,rw,newroot,modules}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
# The kernel opens /dev/console for /init before anything is mounted; only
# root can create the node, and /init copes without it.
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true

# Modules go in uncompressed (6.12's are .ko.xz): busybox insmod passes the
# file to init_module() as is. The load order is the file order in /modules.
i=0
for path in "${mods[@]}"; do
	name=$(printf '%02d-%s' "$i" "$(basename "$path")")
	case $path in
		*.ko) cp "$path" "$root/modules/$name" ;;
		*.ko.xz) xz -dc "$path" >"$root/modules/${name%.xz}" ;;
		*.ko.zst) zstd -qdc "$path" >"$root/modules/${name%.zst}" ;;
		*.ko.gz) gzip -dc "$path" >"$root/modules/${name%.gz}" ;;
		*) die "unknown module format: $path" ;;
	esac
	i=$((i + 1))
done

cat >"$root/init" <<'EOF'
#!/bin/sh
# PID 1 of the initramfs (busybox sh), written by scripts/mkinitramfs.sh.
# Mounts the host root (9p, read-only) under a tmpfs overlay, the writable
# out share, and switch_roots into the guest-init script named in OUT/env.
export PATH=/bin
busybox mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
busybox mount -t proc proc /proc
busybox mount -t sysfs sysfs /sys

# Progress into the kernel log at KERN_INFO: timestamped in dmesg, kept off
# the console.
mark() { echo "<6>pciesw-initramfs: $*" >/dev/kmsg; }

fail() {
	echo "pciesw-initramfs: FATAL: $*"
	busybox poweroff -f
	busybox reboot -f
}

# Options from the kernel command line: pciesw.out= (where the out share is
# mounted in the new root), pciesw.rootflags= (9p options of the root).
out=/run/pciesw-out
rootflags=cache=loose,msize=512000
for arg in $(busybox cat /proc/cmdline); do
	case $arg in
		pciesw.out=*) out=${arg#pciesw.out=} ;;
		pciesw.rootflags=*) rootflags=${arg#pciesw.rootflags=} ;;
	esac
done

mark "start"
for m in /modules/*.ko; do
	[ -e "$m" ] || continue
	busybox insmod "$m" || fail "insmod $m"
done

mark "modules loaded"
busybox mount -t 9p -o ro,trans=virtio,version=9p2000.L,$rootflags hostroot /lower ||
	fail "mounting the host root (9p tag hostroot)"
busybox mount -t tmpfs -o mode=0755 tmpfs /rw || fail "tmpfs for the overlay"
busybox mkdir -p /rw/upper /rw/work
busybox mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot ||
	fail "overlay root"
# /run is a tmpfs in the guest; guest-init keeps this one.
busybox mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs /newroot/run || fail "tmpfs /run"
busybox mkdir -p "/newroot$out"
busybox mount -t 9p -o trans=virtio,version=9p2000.L,cache=none,msize=512000 pciesw_out "/newroot$out" ||
	fail "mounting the out share (9p tag pciesw_out)"
[ -r "/newroot$out/env" ] || fail "$out/env missing"
# Defines PCIESW_INIT (absolute path of guest-init.sh in the host root).
. "/newroot$out/env"
[ -f "/newroot$PCIESW_INIT" ] || fail "guest init $PCIESW_INIT not found"

mark "root mounted, switching to $PCIESW_INIT"
# Our stdio is open on /dev/console: move the mounts, guest-init keeps them.
for fs in dev proc sys; do
	busybox mount --move "/$fs" "/newroot/$fs" || fail "moving /$fs"
done
exec busybox switch_root /newroot /bin/bash "$PCIESW_INIT" "$out"
EOF
chmod 755 "$root/init"

# Uncompressed: unpacking a few MB is faster than gunzip under TCG.
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) >"$stage/initramfs.cpio"
# Atomic: a concurrent run sees either no image or a complete one.
mv "$stage/initramfs.cpio" "$img"
# Older images of this kernel (previous script or busybox versions) are dead.
find "$cache" -maxdepth 1 -name "$kver-*.cpio" ! -name "$(basename "$img")" -delete
echo "$img"
