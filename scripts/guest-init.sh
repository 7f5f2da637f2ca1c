#!/bin/bash
# PID 1 of a scripts/qemu-run.sh guest, after the initramfs switch_root'ed
# into the overlay (host root over 9p, read-only, + tmpfs). Sets up the usual
# mounts, runs the host's command from OUT/cmd in the host's working
# directory, leaves status, kmemleak report and dmesg in OUT, powers off.
#
# Usage (by the initramfs only): guest-init.sh OUTDIR
#   OUTDIR  mount point of the writable out share (/run/pciesw-out)
# Reads OUTDIR/env (PCIESW_CWD, ...) and OUTDIR/cmd (a bash script).
# Not -e: PID 1 must reach the poweroff whatever fails; its exit would panic.
set -uo pipefail

out=${1:-/run/pciesw-out}
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8

say() { echo "pciesw-guest: $*"; }
# Markers in the kernel log (KERN_INFO: dmesg only) relate kernel messages
# to the phases of the run.
mark() { echo "<6>pciesw-guest: $*" >/dev/kmsg; }
# Each exec of a dynamically linked host binary costs ~0.1-0.2 s under TCG:
# the setup uses bash builtins and the static busybox (one 9p file, cached).
bb=/bin/busybox

# Always end QEMU: ACPI poweroff, or reboot (QEMU runs with -no-reboot).
# busybox's applets call reboot(2) directly; the host's poweroff is
# systemctl, which needs systemd as PID 1.
halt_guest() {
	$bb sync
	$bb poweroff -f
	$bb reboot -f
	$bb sleep 1000
}

now() { local up _; read -r up _ </proc/uptime; echo "$up"; }
is_mounted() { local _d m _r; while read -r _d m _r; do [[ $m == "$1" ]] && return 0; done </proc/mounts; return 1; }
t_init=$(now)

[[ -e /proc/mounts ]] || $bb mount -t proc -o nosuid,nodev,noexec proc /proc
is_mounted /sys || $bb mount -t sysfs -o nosuid,nodev,noexec sysfs /sys
is_mounted /dev || $bb mount -t devtmpfs -o nosuid,mode=0755 devtmpfs /dev
# The initramfs already put a tmpfs on /run with the out share inside it.
is_mounted /run || $bb mount -t tmpfs -o nosuid,nodev,mode=0755 tmpfs /run

# shellcheck source=/dev/null
set -a && . "$out/env" && set +a
PCIESW_CWD=${PCIESW_CWD:-/} PCIESW_INIT=${PCIESW_INIT:-}

# The rest in one busybox shell: it runs most applets without an exec, and
# `mount -a` mounts the whole table with one. On the debug kernel an exec
# costs 0.15-0.3 s: this setup took 4.3 s as separate commands, now 1.2 s.
fstab=/run/pciesw-fstab
{
	echo "devpts /dev/pts devpts nosuid,noexec,gid=5,mode=620,ptmxmode=0666 0 0"
	echo "tmpfs /dev/shm tmpfs nosuid,nodev,mode=1777 0 0"
	echo "debugfs /sys/kernel/debug debugfs nosuid,nodev,noexec 0 0"
	# A tmpfs /tmp would hide the host's /tmp: keep the overlay's (writable
	# too) when the host ran us from there.
	case "$PCIESW_CWD/:$PCIESW_INIT" in
		/tmp/* | *:/tmp/*) ;;
		*) echo "tmpfs /tmp tmpfs nosuid,nodev,mode=1777 0 0" ;;
	esac
	# qemu-run.sh --share: uncached, so that guests sharing it see each
	# other's changes at once
	[[ -z ${PCIESW_SHARE:-} ]] ||
		echo "pciesw_share $PCIESW_SHARE 9p trans=virtio,version=9p2000.L,cache=none,msize=512000 0 0"
} >"$fstab"
# shellcheck disable=SC2016 # expanded by the busybox shell
$bb sh -c '
	mkdir -p /dev/pts /dev/shm /run/user ${PCIESW_SHARE:-}
	mkdir -p -m 1777 /run/lock
	mount -a -T "$1" || echo "pciesw-guest: some mounts of $1 failed"
	# devtmpfs lacks these; bash process substitution needs /dev/fd.
	ln -sfn /proc/self/fd /dev/fd
	ln -sfn /proc/self/fd/0 /dev/stdin
	ln -sfn /proc/self/fd/1 /dev/stdout
	ln -sfn /proc/self/fd/2 /dev/stderr
	# Writes to host paths land in the tmpfs upper layer, /var/tmp too.
	chmod 1777 /var/tmp
	hostname pciesw-guest
	ip link set lo up
' guest-setup "$fstab"
is_mounted /tmp || say "working directory under /tmp: /tmp stays the host's (overlay)"
# kmemleak's own thread scans 60 s after boot and then every 10 minutes,
# ~10 s of a vCPU each under TCG; the two scans after the command (below)
# are the ones that report, so the periodic ones only cost time.
[[ -e /sys/kernel/debug/kmemleak ]] && echo scan=off >/sys/kernel/debug/kmemleak
exec </dev/null >/dev/console 2>&1

t_cmd=$(now)
say "kernel $(</proc/sys/kernel/osrelease): guest-init at ${t_init}s, command at ${t_cmd}s uptime"
echo "$t_cmd" >"$out/boot-time"

# 30 s before qemu-run.sh kills QEMU at its --timeout: the stacks of the
# blocked tasks (sysrq w) and of the CPUs (sysrq l) on the console, and
# the kernel log in OUT, so that a run that hangs says where
if [[ ${PCIESW_TIMEOUT:-} =~ ^[0-9]+$ ]] && ((PCIESW_TIMEOUT > 60)); then
	(
		sleep "$((PCIESW_TIMEOUT - 30 - ${t_cmd%.*}))"
		say "30 s before the run's cap of ${PCIESW_TIMEOUT} s: blocked tasks and CPUs"
		echo 7 >/proc/sys/kernel/printk
		echo w >/proc/sysrq-trigger
		echo l >/proc/sysrq-trigger
		dmesg >"$out/dmesg"
	) &
	watchdog=$!
fi

export PCIESW_OUT=$out PCIESW_GUEST=1
mark "command start"
if cd "$PCIESW_CWD"; then
	bash "$out/cmd" </dev/null
	status=$?
else
	say "cannot cd to $PCIESW_CWD"
	status=125
fi
echo "$status" >"$out/status"
[[ -n ${watchdog:-} ]] && kill "$watchdog" 2>/dev/null
mark "command exited $status"
end=$(now)

kml=/sys/kernel/debug/kmemleak
if [[ -e $kml ]]; then
	# A leak is reported only when two scans in a row find it unreferenced
	# with unchanged contents (checksum) and older than 5 s at the scan, so
	# a single scan right after the command misses its leaks. A scan takes
	# ~10 s under TCG, so the second one usually needs no extra wait. Boot
	# leaves no reported objects, so no "clear" before the command.
	echo scan >"$kml"
	wait_s=$(awk -v end="$end" '{ w = end + 6 - $1; print (w > 0 ? w : 0) }' /proc/uptime)
	sleep "$wait_s"
	echo scan >"$kml"
	cat "$kml" >"$out/kmemleak"
fi
dmesg >"$out/dmesg"
halt_guest
