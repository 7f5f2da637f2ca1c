#!/bin/bash
# Run a command in a QEMU guest that boots a test kernel with this machine's
# root filesystem (read-only over virtio-9p, tmpfs overlay on top), so the
# guest runs the host's binaries in the host's working directory. Fails when
# the guest kernel log shows a bug, warning or leak.
#
# Usage: scripts/qemu-run.sh [--kernel KVER|SERIES|debug] [--out DIR]
#                            [--timeout SECS] [--mem MB] [--allow ERE]...
#                            [--known NAME]... [--share DIR] [--cpus N]
#                            [--append ARGS] -- COMMAND [ARGS...]
#   --kernel   a release with /boot/vmlinuz-KVER (6.1.0-57-amd64), a series
#              resolved by scripts/kernels.sh (6.1, 6.12), or "debug" for the
#              KASAN/lockdep/kmemleak kernel of scripts/debug-kernel.sh
#              (built on first use, ~15 min). Default: 6.12.
#   --out      directory for the results (kept); default: a temporary one,
#              deleted after a clean run and kept (path printed) otherwise.
#              The guest sees it writable at $PCIESW_OUT (/run/pciesw-out).
#              Files: console.log, status, dmesg, kmemleak, boot-time.
#   --timeout  kill QEMU and fail after SECS seconds (default 600); 30 s
#              before, the guest dumps its blocked tasks and CPUs' stacks
#              to the console, and on the kill this script prints the
#              kernel's reports and the console's last 80 lines
#   --mem      guest memory in MB (default 2048)
#   --allow    kernel log lines matching this extended regex are not
#              counted as problems (for a test that provokes a warning)
#   --known    a known report of upstream code, matched as a whole, is not
#              counted (and is named on stderr). pciehp-reset-lock: lockdep's
#              circular-dependency report of pciehp's own reset_lock and
#              pci_rescan_remove_lock (pciehp_ist holds reset_lock when it
#              takes the rescan lock, pciehp_(un)configure_device retakes
#              reset_lock under it; upstream's fix moves that up_read()
#              before pci_lock_rescan_remove()). Lockdep is off after any
#              report: run such a test last in its guest.
#   --share    a directory the guest sees writable at $PCIESW_SHARE
#              (/run/pciesw-share), uncached: guests given the same one
#              share it (selftests/run.sh --queue claims tests in it)
#   --cpus     the guest's vCPUs (default 2)
#   --iommu    intel or amd: QEMU's emulated IOMMU of that kind (Intel's
#              with interrupt remapping) and a real DMA-capable disk behind
#              it: a 64 MiB virtio-blk device with iommu_platform=on behind
#              a PCIe Root Port, at 0000:01:00.0 (the bus/devfn of the
#              card's upstream port in its own domain); its image is
#              OUT/realdisk.img. The kernel's IOMMU options come with
#              --append (intel_iommu=on, iommu=pt)
#   --append   kernel command-line arguments beyond the defaults (console,
#              watchdogs), e.g. "pcie_ports=dpc-native"; without it the guest
#              boots with the PCI options a stock kernel has, as users run
# Exit status: COMMAND's, when the kernel log is clean and kmemleak found
# nothing; else 120 = kernel problem (offending lines printed), 124 = timeout,
# 125 = QEMU or guest setup failed (no status recorded), 2 = usage.
# A kernel that dies before COMMAND starts boots once more (console-boot1.log).
# The guest: COMMAND runs as root via bash in the host's current directory,
# stdin /dev/null, output on the serial console (this script's stdout), env
# PCIESW_GUEST=1, PCIESW_OUT, PCIESW_KERNEL (and PCIESW_SHARE). Writes
# outside $PCIESW_OUT, $PCIESW_SHARE and the tmpfs go to the overlay and
# vanish. /tmp and /run are empty tmpfs (the
# host's /tmp is hidden, unless the current directory is under /tmp). The
# debug kernel has no /lib/modules: use insmod, not modprobe. No network
# device (lo only). Env PCIESW_ROOTFLAGS overrides the 9p root options.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# 9p root mount options, measured on 6.12 (2 vCPUs, TCG, host under load):
#                      import yaml+jsonschema  find -size (3500 files)  10 execs
#   cache=loose           2.2 s                    1.3 s                 0.6 s
#   cache=mmap            3.2 s                   20-28 s                2.5 s
#   cache=none           24 s                      2.7 s                 0.7 s
# cache=loose keeps pages, dentries and attributes in the guest. That is
# safe because the guest cannot write the root and the host is expected not
# to change files a running guest uses (a guest may see stale data of files
# rebuilt on the host during its run). msize=512000 is the largest the
# virtio transport takes: fewer round trips for big reads.
rootflags=${PCIESW_ROOTFLAGS:-cache=loose,msize=512000}
guest_out=/run/pciesw-out

log() { printf 'qemu-run: %s\n' "$*" >&2; }
usage() {
	sed -n '7,52s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
	exit "${1:-2}"
}

kernel=6.12 out='' timeout_s=600 mem=2048 share='' cpus=2 extra='' iommu=''
allow=() known=()
while (($#)); do
	case $1 in
		--kernel) kernel=${2:?--kernel needs a value}; shift 2 ;;
		--out) out=${2:?--out needs a value}; shift 2 ;;
		--timeout) timeout_s=${2:?--timeout needs a value}; shift 2 ;;
		--mem) mem=${2:?--mem needs a value}; shift 2 ;;
		--allow) allow+=("${2:?--allow needs a value}"); shift 2 ;;
		--kernel=*) kernel=${1#*=}; shift ;;
		--out=*) out=${1#*=}; shift ;;
		--timeout=*) timeout_s=${1#*=}; shift ;;
		--mem=*) mem=${1#*=}; shift ;;
		--allow=*) allow+=("${1#*=}"); shift ;;
		--known) known+=("${2:?--known needs a value}"); shift 2 ;;
		--known=*) known+=("${1#*=}"); shift ;;
		--share) share=${2:?--share needs a directory}; shift 2 ;;
		--share=*) share=${1#*=}; shift ;;
		--cpus) cpus=${2:?--cpus needs a number}; shift 2 ;;
		--cpus=*) cpus=${1#*=}; shift ;;
		--iommu) iommu=${2:?--iommu needs intel or amd}; shift 2 ;;
		--iommu=*) iommu=${1#*=}; shift ;;
		--append) extra+=" ${2:?--append needs arguments}"; shift 2 ;;
		--append=*) extra+=" ${1#*=}"; shift ;;
		-h|--help) usage 0 ;;
		--) shift; break ;;
		*) log "unknown argument '$1'"; usage >&2 ;;
	esac
done
(($#)) || { log "no COMMAND given"; usage >&2; }
[[ $timeout_s =~ ^[0-9]+$ && $mem =~ ^[0-9]+$ && $cpus =~ ^[1-9][0-9]*$ ]] ||
	{ log "--timeout, --mem and --cpus take numbers"; usage >&2; }
[[ -z $iommu || $iommu == intel || $iommu == amd ]] ||
	{ log "--iommu takes intel or amd"; usage >&2; }
for k in "${known[@]}"; do
	[[ $k == pciehp-reset-lock ]] || { log "unknown --known report '$k'"; usage >&2; }
done
if [[ -n $share ]]; then
	[[ -d $share ]] || { log "--share $share: not a directory"; exit 2; }
	share=$(cd "$share" && pwd)
fi
command -v qemu-system-x86_64 >/dev/null || { log "qemu-system-x86_64 missing: run scripts/deps.sh"; exit 125; }

# --- kernel and initramfs ---------------------------------------------------
# Boot the uncompressed vmlinux through its PVH entry point when it has one
# (Debian's kernels and the debug kernel do): QEMU loads the ELF directly,
# which skips the firmware's real-mode boot and the kernel's self-
# decompression, ~10 s under TCG for 6.1's xz. Cached by bzImage hash.
pvh_kernel() {
	local bz=$1 dir sum elf tmp setup off len magic notes
	dir=${PCIESW_CACHE:-/var/cache/pciesw}/vmlinux
	sum=$(sha256sum "$bz" | cut -c1-16)
	elf=$dir/$(basename "$bz")-$sum.elf
	if [[ ! -s $elf ]]; then
		mkdir -p "$dir"
		tmp=$(mktemp "$dir/tmp.XXXXXX")
		# x86 boot protocol: setup_sects at 0x1f1, payload_offset/length
		# (relative to the protected-mode code) at 0x248/0x24c.
		setup=$(od -An -tu1 -j $((0x1f1)) -N1 "$bz" | tr -d ' ')
		((setup)) || setup=4
		off=$(($(od -An -tu4 -j $((0x248)) -N4 "$bz") + (setup + 1) * 512))
		len=$(od -An -tu4 -j $((0x24c)) -N4 "$bz" | tr -d ' ')
		magic=$(od -An -tx1 -j "$off" -N4 "$bz" | tr -d ' ')
		# Decompressors complain about the size the kernel appends after
		# the stream; the ELF checks below judge the result.
		case $magic in
			fd377a58) tail -c +$((off + 1)) "$bz" | head -c "$len" | xz -dc >"$tmp" 2>/dev/null || true ;;
			28b52ffd) tail -c +$((off + 1)) "$bz" | head -c "$len" | zstd -qdc >"$tmp" 2>/dev/null || true ;;
			1f8b*) tail -c +$((off + 1)) "$bz" | head -c "$len" | gzip -dc >"$tmp" 2>/dev/null || true ;;
		esac
		# Note 0x12 of owner "Xen" is XEN_ELFNOTE_PHYS32_ENTRY, the PVH entry.
		notes=$(readelf -n "$tmp" 2>/dev/null || true)
		if [[ $(od -An -tx1 -N4 "$tmp") == " 7f 45 4c 46" &&
			($notes == *"(0x00000012)"* || $notes == *PHYS32_ENTRY*) ]]; then
			chmod 644 "$tmp"
			mv "$tmp" "$elf"
			find "$dir" -name "$(basename "$bz")-*.elf" ! -name "$(basename "$elf")" -delete
		else
			rm -f "$tmp"
			log "$bz: no PVH vmlinux inside, booting it as is (slower)"
			echo "$bz"
			return
		fi
	fi
	echo "$elf"
}

if [[ $kernel == debug ]]; then
	kdir=$("$here/debug-kernel.sh" | tail -n 1) || { log "no debug kernel (scripts/debug-kernel.sh failed)"; exit 125; }
	bzimage=$kdir/bzImage
	kver=$(cat "$kdir/kernel.release")
	initrd=$("$here/mkinitramfs.sh" debug) || exit 125
else
	if [[ $kernel =~ ^[0-9]+\.[0-9]+$ ]]; then
		kernel=$("$here/kernels.sh" "$kernel") || exit 125
	fi
	kver=$kernel
	bzimage=/boot/vmlinuz-$kver
	[[ -r $bzimage ]] || { log "no kernel $bzimage (see scripts/kernels.sh)"; exit 125; }
	initrd=$("$here/mkinitramfs.sh" "$kver") || exit 125
fi

# --- out directory: the guest's only way to hand results back --------------
keep_out=1
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/pciesw-qemu.XXXXXX")
	keep_out=0
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/{console.log,status,dmesg,kmemleak,boot-time,cmd,env,realdisk.img}

# Shell-quote for the POSIX sh of the initramfs and bash of guest-init.
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
{
	echo "PCIESW_INIT=$(q "$here/guest-init.sh")"
	echo "PCIESW_CWD=$(q "$PWD")"
	echo "PCIESW_KERNEL=$(q "$kver")"
	echo "PCIESW_TIMEOUT=$timeout_s"
	if [[ -n $share ]]; then
		echo "PCIESW_SHARE=/run/pciesw-share"
	fi
} >"$out/env"
# The command travels as a script, not on the kernel command line: any
# argument survives, quoted by bash for bash.
printf '%q ' exec "$@" >"$out/cmd"
echo >>"$out/cmd"

kernel_img=$(pvh_kernel "$bzimage")

# QEMU's option parser splits on commas: double them in paths.
qpath() { printf '%s' "${1//,/,,}"; }
# loglevel=5: warnings and worse reach the console (and so this script's
# output) live; dmesg in OUT has everything. The RCU stall (21 s) and soft
# lockup (20 s) detectors fire falsely when emulated vCPUs starve on a busy
# host: raise them to 100/120 s, still well inside --timeout.
append="console=ttyS0 loglevel=5 panic=-1 rcupdate.rcu_cpu_stall_timeout=100 watchdog_thresh=60"
# No PCI options unless asked for (--append): the tests meet the card as
# a server booted with its distribution's defaults does.
append+=$extra
append+=" pciesw.out=$guest_out pciesw.rootflags=$rootflags"
# shellcheck disable=SC2054 # commas are QEMU option syntax
qemu=(
	# No KVM here. q35: a PCIe host bridge (MMCONFIG, extended config
	# space) like the servers the module targets. rdrand: the guest's RNG
	# is seeded at once; without it getrandom() (python) blocked ~10 s.
	qemu-system-x86_64 -accel tcg -machine q35 -cpu qemu64,+rdrand -smp "$cpus" -m "$mem"
	# -display none, not -nographic: with -nographic SeaBIOS also writes its
	# banner and screen-clearing escapes to the serial console. No NIC,
	# no default devices; -no-reboot turns a guest panic/reboot into exit.
	-display none -nodefaults -no-reboot
	# Serial console to stdout and into console.log; stdin stays out of it.
	-chardev "stdio,id=con,signal=off,logfile=$(qpath "$out/console.log")"
	-serial chardev:con
	-kernel "$kernel_img" -initrd "$initrd" -append "$append"
	# multidevs=remap: the host root may span several filesystems; keeps
	# inode numbers unique in the guest.
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev "local,id=out,path=$(qpath "$out"),security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=out,mount_tag=pciesw_out
)
if [[ -n $iommu ]]; then
	# The IOMMU before the devices it translates for; the Root Port is
	# the first bridge, so its secondary bus is 01.
	if [[ $iommu == intel ]]; then
		qemu+=(-device intel-iommu,intremap=on)
	else
		qemu+=(-device amd-iommu)
	fi
	truncate -s 64M "$out/realdisk.img"
	qemu+=(
		-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1
		-drive "file=$(qpath "$out/realdisk.img"),if=none,id=realdisk,format=raw,cache=unsafe"
		-device virtio-blk-pci,drive=realdisk,bus=rp1,addr=0,iommu_platform=on,disable-legacy=on
	)
fi
if [[ -n $share ]]; then
	qemu+=(
		-fsdev "local,id=share,path=$(qpath "$share"),security_model=none,multidevs=remap"
		-device virtio-9p-pci,fsdev=share,mount_tag=pciesw_share
	)
fi

# A kernel that dies while it boots, before guest-init started COMMAND (no
# boot-time file), is the emulator's or the boot's failure, not a result
# of COMMAND: seen once in many runs, 6.12 under TCG took an int3 Oops in
# sched_clock_cpu() ~2.7 s into boot (a stale translation of code that
# text_poke_bp() had patched back). Boot once more then, and say so; a
# failure after COMMAND started is never retried.
for attempt in 1 2; do
	log "booting $kver (timeout ${timeout_s}s, ${mem} MB), out: $out"
	start=$SECONDS
	# In the background so that a signal to this script can stop QEMU (timeout
	# runs it in its own process group, out of reach of the terminal's Ctrl-C).
	# The serial line ends lines with CR LF: strip the CR so that the guest's
	# output (TAP, "N passed, N failed") reads like a local run's.
	exec {con}> >(sed -u 's/\r$//')
	sed_pid=$!
	timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null >&"$con" &
	qpid=$!
	interrupted=0
	trap 'interrupted=1; kill -TERM "$qpid" 2>/dev/null || true' INT TERM HUP
	qrc=0
	while :; do
		wait "$qpid" && qrc=0 || qrc=$?
		kill -0 "$qpid" 2>/dev/null || break
	done
	trap - INT TERM HUP
	exec {con}>&-
	wait "$sed_pid" || true
	sed -i 's/\r$//' "$out/console.log" 2>/dev/null || true
	elapsed=$((SECONDS - start))
	if ((interrupted)); then
		log "interrupted; QEMU stopped. Out: $out"
		exit 130
	fi
	[[ $qrc == 0 && ! -e $out/boot-time && ! -s $out/status &&
	   $attempt == 1 ]] ||
		break
	died=$(grep -m1 -E 'Oops|Kernel panic|BUG:|general protection' \
		"$out/console.log" 2>/dev/null || echo "no output")
	log "the kernel died before COMMAND started ($died); booting once more"
	mv "$out/console.log" "$out/console-boot1.log" 2>/dev/null || true
	rm -f "$out"/{status,dmesg,kmemleak}
done

# --- verdict ------------------------------------------------------------------
fail() {
	local rc=$1
	shift
	log "FAIL ($kver): $*"
	log "console log and results kept in $out"
	exit "$rc"
}

if ((qrc == 124 || qrc == 137)); then
	# what the guest was doing: the kernel's reports (hung tasks) and the
	# stacks guest-init dumped shortly before the cap, then the last lines
	log "the kernel's reports on the console before the cap:"
	grep -nE 'INFO: task .* blocked|BUG[: ]|WARNING:|Oops|pciesw-guest: .*cap' \
		"$out/console.log" | head -n 20 >&2
	log "the console's last 80 lines:"
	tail -n 80 "$out/console.log" >&2
	fail 124 "timed out after ${timeout_s}s: QEMU killed"
fi
((qrc == 0)) || fail 125 "QEMU exited with status $qrc"

# Kernel problems. The guest's dmesg has the whole log; without it (guest
# crashed before saving it) the console has what was printed at loglevel<5.
klog=$out/dmesg
[[ -s $klog ]] || klog=$out/console.log
allow_re=
if ((${#allow[@]})); then
	allow_re=$(IFS='|'; echo "${allow[*]}")
fi
# Reports begin with one of these. "Call Trace:" catches dump_stack() callers
# that print no such header; the traces printed on purpose by fault injection
# and by allocation-failure warnings (which tests provoke) do not count, nor
# the trace that belongs to a line already reported; nor the OOM killer's
# report (pciesw_mem's memcg test has a cgroup's memory.max stop a process). Not matched on purpose:
# "lockdep" alone (the lockdep banner at boot) and "KASAN"/"UBSAN" without a
# colon (the "KernelAddressSanitizer initialized" banner); their reports
# start with "BUG:"/"WARNING:"/"UBSAN:".
problems=$(awk -v allow="$allow_re" -v known=" ${known[*]} " '
	# pciehp-reset-lock (see --known): the report that starts at line i
	function pciehp_reset_lock(i,	j, want, held) {
		for (j = i + 1; j <= i + 12; j++) {
			if (L[j] ~ /\(&ctrl->reset_lock\).*at: pciehp_(un)?configure_device\+/ &&
			    L[j - 1] ~ /irq\/[0-9]+-pciehp\/[0-9]+ is trying to acquire lock:/)
				want = 1
			if (L[j] ~ /\(pci_rescan_remove_lock\).*at: pciehp_(un)?configure_device\+/ &&
			    L[j - 1] ~ /but task is already holding lock:/)
				held = 1
		}
		return want && held
	}
	NR == FNR { L[FNR] = $0; next }
	BEGIN {
		pat = "BUG[: ]|WARNING:|Oops|KASAN:|UBSAN:|general protection fault|" \
			"kernel BUG at|Kernel panic|INFO: task .* blocked for more than|" \
			"rcu: INFO: .*detected stall|possible circular locking|" \
			"Disabling lock debugging due to kernel taint"
		state = 0	# 1: benign trace expected, 2: trace of a reported line
	}
	allow != "" && $0 ~ allow { next }
	/possible circular locking dependency detected/ &&
	    known ~ / pciehp-reset-lock / && pciehp_reset_lock(FNR) {
		printf "qemu-run: line %d: known upstream report pciehp-reset-lock, not counted (lockdep is off after it)\n", FNR > "/dev/stderr"
		state = 1
		next
	}
	/FAULT_INJECTION: forcing a failure|page allocation failure:|vmalloc error:|invoked oom-killer:/ { state = 1; next }
	/Call Trace:/ {
		if (state == 0) print FNR ": " $0
		state = 0
		next
	}
	$0 ~ pat { print FNR ": " $0; state = 2 }
' "$klog" "$klog")

status=
[[ -s $out/status ]] && status=$(<"$out/status")
boot=$(cat "$out/boot-time" 2>/dev/null || echo '?')

bad=0
if [[ -n $problems ]]; then
	bad=1
	log "kernel log problems in $(basename "$klog") ($kver):"
	head -n 40 <<<"$problems" >&2
	first=$(head -n 1 <<<"$problems" | cut -d: -f1)
	log "first report, from line $first of $klog:"
	sed -n "${first},$((first + 40))p" "$klog" >&2
fi
if [[ -s $out/kmemleak ]]; then
	bad=1
	log "kmemleak reports leaks ($(grep -c '^unreferenced object' "$out/kmemleak") objects):"
	head -n 60 "$out/kmemleak" >&2
fi
[[ -n $status ]] || fail 125 "the guest recorded no exit status (kernel panic or init failure?): see $out/console.log"
((bad == 0)) || fail 120 "kernel problems found (COMMAND exited $status)"

log "$kver: COMMAND exited $status; it started at ${boot}s guest uptime, ${elapsed}s wall in QEMU"
((keep_out)) || rm -rf "$out"
exit "$status"
