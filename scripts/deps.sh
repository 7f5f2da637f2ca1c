#!/bin/bash
# Install every Debian 12 package the project needs (build, tests, QEMU
# runner, debug kernel). Idempotent and fast when all are present: dpkg-query
# first, and apt-get only for what is missing. Run as root (CI runs as root).
#
# Usage: scripts/deps.sh
set -euo pipefail

packages=(
	# kernels to test against, and their headers for building the module
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	# debug kernel source; kselftest harness files come from it too
	linux-source-6.12
	# QEMU runner: emulator, initramfs tools
	qemu-system-x86 busybox-static kmod cpio
	# userspace build
	# gcc-multilib: the -m32 build of pciesw_compat32 (the compat ioctl path)
	gcc gcc-multilib make pkg-config libnl-3-dev libnl-genl-3-dev libkmod-dev libjson-c-dev sparse
	# switchctl top's full-screen view
	libncurses-dev
	# test clients and tools
	jq lm-sensors pciutils libnl-utils python3-yaml python3-jsonschema
	# tmux drives switchctl top's screen (selftests/pciesw_top_switchctl.sh)
	tmux
	# hwloc: lstopo finds the card (selftests/pciesw_hwloc.sh)
	hwloc
	# rasdaemon records the PCI view's AER errors (pciesw_pci_ras.sh)
	rasdaemon
	# block device clients (selftests/pciesw_block.sh, G1-G3 of make bench)
	fio xfsprogs e2fsprogs mdadm util-linux
	# the drives' NVMe passthrough (selftests/pciesw_nvme.sh)
	nvme-cli smartmontools
	# devlink (pciesw_devlink.sh drives the switches with the stock tool;
	# script(1) gives it the terminal it shows flash progress on)
	iproute2 bsdutils
	# promtool (switchctl export test)
	prometheus
	# packaging: DKMS (scripts/dkms-check.sh), man page lint
	dkms mandoc
	# debug kernel build
	flex bison libelf-dev bc rsync zstd xz-utils libssl-dev
)

missing=()
for pkg in "${packages[@]}"; do
	# "ii " = installed and configured; anything else (absent, half-installed,
	# config-files only) gets (re)installed.
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
	[[ $status == "ii " ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
	echo "deps.sh: all ${#packages[@]} packages installed" >&2
	exit 0
fi

if ((EUID != 0)); then
	echo "deps.sh: missing packages: ${missing[*]}; run as root to install them" >&2
	exit 1
fi

echo "deps.sh: installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Wait for another apt/dpkg (e.g. unattended-upgrades) instead of failing.
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -q
apt-get "${lock[@]}" install -y -q --no-install-recommends "${missing[@]}"
