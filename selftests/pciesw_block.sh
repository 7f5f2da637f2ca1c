#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The NVMe drives as block devices (kmod/block/disk.c) and the GPUDirect-Storage
# path, with real clients: the disks of a card appear with their names,
# parents, sizes and block sizes (lsblk; a 4Kn drive from ep add
# block-size 4096), the hardware queues and their depth in sysfs (mq/N,
# nr_tags, nr_requests) as the module parameters give them; data written
# through the disk reads back, discard
# gives the window's memory back, a write past the module's mem_limit_mb
# fails with ENOSPC until a discard makes room (blkdiscard, switchctl ep
# discard); I/O is counted on the drive's and the
# upstream port; write-zeroes frees as discard does, /proc/diskstats
# counts; XFS (ext4 on the debug kernel) + fio --verify on one drive, a
# file read into gpu0 with
# O_DIRECT (switchctl gds read) reads back identically through mmap with
# 0 upstream bytes and gds write puts it back into a file; fio with its
# buffers in gpu0's window (--iomem=mmapshared) verifies with 0 upstream
# bytes; ext4 + fio
# --verify and a gds read of an ext4 file; ACS redirect doubles it
# on the upstream port, host-p2p off fails it with EIO and an
# acs-violation on the drive's port (gds check says so); bad input
# (misaligned O_DIRECT: EINVAL, past the end: ENOSPC / end of device,
# another switch's GPU window: the host path, which gds read --switch
# reports as the drive's switch's upstream bytes; the GPU unplugged under
# a read into its window: EIO, the drive works on); an injected
# correctable error only counts, an uncorrectable one fails exactly one
# request; a disabled link makes
# I/O wait (EIO after blk_timeout_ms, success once it is back); fstrim
# of the mounted filesystem frees the deleted files' pages; ep del of the
# mounted drive: EIO, umount works; an md RAID1 over two drives keeps its
# data when one is surprise-removed under fio, its disk disappears and a
# hot reset brings a new one; fio on the raw drive fails with EIO and
# ends when it is surprise-removed.  The kernel log stays
# clean (qemu-run checks it).
# Needs mkfs.ext4, mkfs.xfs, fio, mdadm, lsblk, blkdiscard, fstrim
# (scripts/deps.sh).  Uses switch ids 72 and 73.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"

for t in mkfs.ext4 mkfs.xfs fio mdadm lsblk blkdiscard fstrim; do
	command -v $t >/dev/null || skip_all "$t not installed (scripts/deps.sh)"
done
sctl_init 72
# no udevd runs in the test guest: mdadm makes its device nodes itself
export MDADM_NO_UDEV=1
ID=72
SW=pciesw$ID
MNT=$T_TMP/mnt
mkdir -p "$MNT"
# The filesystem of the mounted-drive cases on nvme2 (fio --verify, gds
# read/write, fstrim, ep del under a mount): XFS, and ext4 on the debug
# kernel, which leaves XFS out (a tenth of its build); ext4 also has its
# own cases on nvme1 below on every kernel.  No atime writes, and no
# journal commit of ext4's inside a measured transfer (commit=60: the
# metadata of the writes before is synced first).
reduce xfs ext4 "filesystem of the mounted-drive cases (the debug kernel has no XFS)"
FS=$R
FS_MKFS=(mkfs.xfs -q -f -K)
FS_MOUNT=(mount -o noatime)
if [[ $FS == ext4 ]]; then
	# shellcheck disable=SC2054 # commas are mkfs/mount option syntax
	FS_MKFS=(mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0)
	# shellcheck disable=SC2054
	FS_MOUNT=(mount -o noatime,commit=60)
fi

wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"
# the card's default drives are 4G; make nvme3 a small 4Kn one
sc_ok "ep del nvme3" ep del $ID nvme3
sc_ok "ep add a 4Kn drive" ep add $ID 5 nvme size 64M block-size 4096

# jnum KEY: the number KEY has in the JSON object $OUT, into J (no jq)
jnum() {
	J=
	[[ $OUT =~ \"$1\":([0-9]+) ]] && J=${BASH_REMATCH[1]}
}

# counter PORT NAME: counter NAME of port PORT of $SW into J
counter() {
	local l
	J=
	sc errors show $ID "$1" --all
	while read -r l; do
		[[ $l =~ ^$1\ +[a-z]+\ +$2\ +([0-9]+) ]] && J=${BASH_REMATCH[1]}
	done <<<"$OUT"
}

# port_bytes PORT: the payload bytes of port PORT of $SW, both ways, into J
port_bytes() {
	local l
	J=0
	sc errors show $ID "$1" --all
	while read -r l; do
		[[ $l =~ ^$1\ +[a-z]+\ +[a-z-]+-bytes\ +([0-9]+) ]] &&
			J=$((J + BASH_REMATCH[1]))
	done <<<"$OUT"
}


# reads NAME MIN: disk NAME has completed (with "started", completed or
# has in flight) at least MIN reads (/sys/block/NAME/stat, inflight)
reads() {
	local st inf=(0)
	read -r -a st </sys/block/$1/stat
	[[ ${3:-} == started ]] && read -r -a inf </sys/block/$1/inflight
	((${st[0]:-0} + ${inf[0]:-0} >= $2))
}

# wait_disk NAME: until /sys/block/NAME exists (or, with "gone", not)
wait_disk() {
	deadline 5000
	while :; do
		if [[ ${2:-} == gone ]]; then
			[[ ! -e /sys/block/$1 ]] && return 0
		else
			[[ -e /sys/block/$1 ]] && return 0
		fi
		before_deadline || return 1
		nap
	done
}

# disk_gone NAME SEQ: until the disk NAME whose diskseq was SEQ is gone:
# no NAME, or a new disk of that name (DPC recovers a surprise down, and
# the drive comes back as a new disk)
disk_gone() {
	deadline 5000
	while :; do
		rd /sys/block/$1/diskseq 2>/dev/null || return 0
		[[ $R != "$2" ]] && return 0
		before_deadline || return 1
		nap
	done
}

check "the 4Kn drive's disk appears" wait_disk ${SW}n3
rd /sys/block/${SW}n3/queue/logical_block_size
check_eq "4Kn: 4096-byte logical blocks" 4096 "$R"
rd /sys/block/${SW}n0/queue/logical_block_size
check_eq "default: 512-byte logical blocks" 512 "$R"
rd /sys/block/${SW}n3/size
check_eq "capacity is the window (64M)" $((64 << 11)) "$R"
OUT=$(lsblk -dno NAME,SIZE /dev/${SW}n0 /dev/${SW}n1 /dev/${SW}n2 /dev/${SW}n3 2>&1)
# shellcheck disable=SC2086 # the words, whatever lsblk's column widths
check_eq "lsblk lists the four drives" \
	"${SW}n0 4G ${SW}n1 4G ${SW}n2 4G ${SW}n3 64M" "$(echo $OUT)"
parent=$(readlink -f /sys/block/${SW}n0/device)
sc ep show -j $ID nvme0
rd $PCIESW_DEVS/$SW/pci_view
if [[ $R == 1 ]]; then
	[[ $OUT =~ \"ep-pci-name\":\"([^\"]*)\" ]]
	check_eq "parent: the drive's PCI device" "${BASH_REMATCH[1]:-}" \
		"${parent##*/}"
else
	check_eq "parent: the pciesw endpoint device" "$SW-nvme0" "${parent##*/}"
fi
[[ $OUT =~ \"ep-disk-name\":\"([^\"]*)\" ]]
check_eq "ep show names the disk" "${SW}n0" "${BASH_REMATCH[1]:-}"
sc_err "block-size other than 512/4096 refused" 2 "expected 512 or 4096" \
	ep add $ID 5 nvme block-size 1024
# the queues (pciesw(4)): blk_hw_queues hardware queues, at most one per
# possible CPU, each with blk_queue_depth tags; with no I/O scheduler
# nr_requests is the depth, with one blk-mq's 2 x min(depth, 128)
MP=/sys/module/pciesw/parameters
Q=/sys/block/${SW}n0
rd $MP/blk_hw_queues; hwq=$R
rd /sys/devices/system/cpu/possible
ncpu=$(( ${R##*-} + 1 ))
((hwq > ncpu)) && hwq=$ncpu
R=$(ls -d $Q/mq/[0-9]* | wc -l)
check_eq "hardware queues (mq/N): blk_hw_queues, one per CPU at most" "$hwq" "$R"
rd $MP/blk_queue_depth; depth=$R
R=$(sort -u $Q/mq/*/nr_tags)
check_eq "each hardware queue has blk_queue_depth tags" "$depth" "$R"
rd $Q/queue/scheduler; sched=$R
nr=$depth
[[ $sched == *"[none]"* ]] || nr=$((2 * (depth < 128 ? depth : 128)))
rd $Q/queue/nr_requests
check_eq "queue/nr_requests: the depth (scheduler: $sched)" "$nr" "$R"

# --- data, discard, counters on the 4Kn drive ----------------------------
D3=/dev/${SW}n3
head -c $((4 << 20)) /dev/urandom >"$T_TMP/r4"
sc errors clear $ID
dd if="$T_TMP/r4" of=$D3 bs=1M oflag=direct status=none
dd if=$D3 of="$T_TMP/r4b" bs=1M count=4 iflag=direct status=none
check "data read back through the disk" cmp -s "$T_TMP/r4" "$T_TMP/r4b"
rd $PCIESW_DEVS/$SW-nvme3/mem_resident
check_eq "4M written: 4M resident" $((4 << 20)) "$R"
# reads count posted bytes in on the drive's port (5) and out upstream
counter 5 ingress-posted-bytes
check_eq "read: posted bytes in on the drive's port" $((4 << 20)) "$J"
counter 0 egress-posted-bytes
check_eq "... and out on the upstream port" $((4 << 20)) "$J"
# writes: the drive's read requests carry no payload, their completions
# the data (one request per 512 bytes, the max read request size)
counter 5 ingress-non-posted-bytes
check_eq "write: read requests in on the drive's port, no payload" 0 "$J"
counter 5 ingress-non-posted-tlps
check_eq "... one per 512 bytes" $(((4 << 20) / 512)) "$J"
counter 5 egress-completion-bytes
check_eq "... the data out in completions" $((4 << 20)) "$J"
blkdiscard $D3
rd $PCIESW_DEVS/$SW-nvme3/mem_resident
check_eq "blkdiscard: nothing resident" 0 "$R"
dd if=$D3 of="$T_TMP/z" bs=1M count=1 iflag=direct status=none
check "discarded blocks read as zeros" cmp -s -n 1048576 "$T_TMP/z" /dev/zero
# write-zeroes (blkdiscard -z) gives the pages back as discard does
dd if="$T_TMP/r4" of=$D3 bs=1M oflag=direct status=none
blkdiscard -z $D3
rd $PCIESW_DEVS/$SW-nvme3/mem_resident
check_eq "write-zeroes (blkdiscard -z): nothing resident" 0 "$R"
dd if=$D3 of="$T_TMP/z" bs=1M count=1 iflag=direct status=none
check "zeroed blocks read as zeros" cmp -s -n 1048576 "$T_TMP/z" /dev/zero
# /proc/diskstats counts the disk's I/O (fields 6 and 10: sectors of 512
# bytes read and written); 4 MiB written and read just now at least
read -r -a ds < <(grep " ${SW}n3 " /proc/diskstats)
check "diskstats: the 4 MiB read and written counted" \
	test "${ds[5]:-0}" -ge 8192 -a "${ds[9]:-0}" -ge 8192 ||
	diag "diskstats: ${ds[*]}"

# --- a write's window pages are allocated in the NOIO scope --------------
# A request must not recurse into I/O through reclaim (it could wait for
# itself): kmod/block/disk.c serves it under memalloc_noio_save(), as brd does.  The
# page allocator applies the scope before its tracepoint, so
# kmem:mm_page_alloc shows the window's pages (GFP_HIGHUSER | __GFP_ACCOUNT
# in kmod/model/mem.c: __GFP_HIGHMEM, __GFP_HARDWALL, not movable) without __GFP_IO
# and __GFP_FS: as GFP_NOIO|..., never as GFP_HIGHUSER.  What this proves:
# every page the write made was allocated without I/O reclaim.
TR=/sys/kernel/tracing
[[ -e $TR/events ]] || mount -t tracefs nodev $TR 2>/dev/null
EV=$TR/events/kmem/mm_page_alloc
if [[ -e $EV/enable ]]; then
	echo 0 >$TR/tracing_on
	echo >$TR/trace
	# any task: the request may be issued by the writer or by kblockd
	echo 1 >$EV/enable
	echo 1 >$TR/tracing_on
	dd if="$T_TMP/r4" of=$D3 bs=1M oflag=direct status=none
	echo 0 >$TR/tracing_on
	echo 0 >$EV/enable
	win=0 io=0
	while read -r l; do
		[[ $l == *gfp_flags=* ]] || continue
		f=${l##*gfp_flags=}
		f=${f%% *}
		[[ $f == *__GFP_ACCOUNT* && $f != *MOVABLE* &&
		   ($f == *GFP_HIGHUSER* || $f == *__GFP_HIGHMEM*) ]] || continue
		win=$((win + 1))
		[[ $f == *GFP_HIGHUSER* || $f == *__GFP_IO* ||
		   $f == *__GFP_FS* ]] && io=$((io + 1))
	done <$TR/trace
	echo >$TR/trace
	# its 1024 pages, but for one the writer may make before the trace
	check "a 4 MiB write allocated its window pages (traced: $win)" \
		test $win -ge 1000
	check_eq "... none with __GFP_IO: in the NOIO scope" 0 "$io"
	blkdiscard $D3
else
	skip "window pages allocated in the NOIO scope" "no kmem:mm_page_alloc tracepoint"
fi

# --- the module's mem_limit_mb: a write past it fails with ENOSPC --------
rd $MP/mem_resident
res=$R
lim=$((res / 1048576 + 2))
echo $lim >$MP/mem_limit_mb
check "past mem_limit_mb: the write fails with ENOSPC" eval \
	'! dd if="$T_TMP/r4" of=$D3 bs=1M oflag=direct status=none 2>"$T_TMP/err" &&
	grep -q "No space left on device" "$T_TMP/err"'
rd $MP/mem_resident
check_eq "... with the windows filled up to the limit" $((lim << 20)) "$R"
blkdiscard $D3
rd $MP/mem_resident
check_eq "blkdiscard gives the memory back" "$res" "$R"
check "... and writes work again" \
	dd if="$T_TMP/r4" of=$D3 bs=1M count=1 oflag=direct status=none
echo 0 >$MP/mem_limit_mb
sc ep discard $ID nvme3 offset 4K
check_eq "switchctl ep discard: the rest of the window freed" \
	"pciesw$ID nvme3: discarded $(((64 << 20) - 4096)) bytes at offset 4096, $(((1 << 20) - 4096)) resident bytes freed" "$OUT"
rd $PCIESW_DEVS/$SW-nvme3/mem_resident
check_eq "... one page left" 4096 "$R"
sc_err "ep discard: unaligned offset refused" 2 "multiples of the page size" \
	ep discard $ID nvme3 offset 100
# a mapping of the window through /dev/pcieswN sees a blkdiscard at once
dd if="$T_TMP/r4" of=$D3 bs=1M count=1 oflag=direct status=none
rd $PCIESW_DEVS/$SW-nvme3/id
check "blkdiscard zaps the window's mappings: zeros there" \
	python3 - /dev/$SW "$R" $D3 <<'PY'
import fcntl, mmap, os, struct, subprocess, sys
fd = os.open(sys.argv[1], os.O_RDWR)
# struct pciesw_ep_map; PCIESW_IOC_EP_MAP = _IOWR(0xB9, 0x01, 64 bytes)
arg = bytearray(struct.pack("=4I6Q", 64, 0, int(sys.argv[2]), 0, 0, 0,
			    0, 0, 0, 0))
fcntl.ioctl(fd, 0xC040B901, arg)
off = struct.unpack_from("=Q", arg, 16)[0]
m = mmap.mmap(fd, 8192, mmap.MAP_SHARED, mmap.PROT_READ, offset=off)
if m[:8192] == bytes(8192):
	sys.exit("the window reads zeros before the discard")
subprocess.run(["blkdiscard", sys.argv[3]], check=True)
if m[:8192] != bytes(8192):
	sys.exit("the mapping still shows the discarded data")
PY
blkdiscard $D3

# --- XFS (ext4) + fio --verify, GDS: a file into gpu0 ---------------------
GDS_PORT=4
check "mkfs.$FS" "${FS_MKFS[@]}" /dev/${SW}n2
check "mount $FS" "${FS_MOUNT[@]}" /dev/${SW}n2 "$MNT"
check "fio --verify=crc32c (libaio) on $FS" fio --name=v \
	--filename="$MNT/fio" --direct=1 --rw=randwrite --bs=16k --size=1M \
	--ioengine=libaio --iodepth=8 --verify=crc32c --output=/dev/null
check "fio --verify=crc32c (io_uring) on the 4Kn drive" fio --name=u \
	--filename=$D3 --direct=1 --rw=randrw --bs=16k --size=1M \
	--ioengine=io_uring --iodepth=8 --verify=crc32c --output=/dev/null
cp "$T_TMP/r4" "$MNT/f" && sync
sc_ok "gds check: direct" gds check $ID
[[ $OUT == *"nvme0 (/dev/${SW}n0) -> gpu0: peer-to-peer, direct"* ]] ||
	diag "$OUT"
sc gds read -j "$MNT/f" gpu0:1M
jnum upstream-bytes
check_eq "gds read: 0 upstream bytes" 0 "$J"
jnum bytes
check_eq "gds read: the whole file" $((4 << 20)) "$J"
# a GPU window the module cannot give pages to (mem_limit_mb): an error
# that says so, not SIGBUS
rd $MP/mem_resident
echo $((R / 1048576 + 1)) >$MP/mem_limit_mb
sc_err "gds bench into a window past mem_limit_mb: an error" 1 \
	"the module refused pages" gds bench "$MNT/f" gpu0:512M --block 1M --depth 1
echo 0 >$MP/mem_limit_mb
# the GPU window at 1M, through mmap of /dev/pciesw72 (gpu0 is ep 0)
check "the GPU window holds the file (mmap)" \
	"$PCIESW_TOOL" window-cmp /dev/$SW 0 $((1 << 20)) "$T_TMP/r4"
# the other way: the window into a file, read by the drive from the GPU;
# the file's blocks are allocated and written first, so that no metadata
# write of the filesystem's (host memory, upstream) falls in the
# measured transfer
dd if=/dev/zero of="$MNT/g" bs=1M count=4 oflag=direct status=none && sync
sc gds write -j gpu0:1M "$MNT/g" --size 4M
jnum upstream-bytes
check_eq "gds write: 0 upstream bytes" 0 "$J" || diag "$RC $ERR"
check "gds write: the file holds the window" cmp -s "$T_TMP/r4" "$MNT/g"
# fio with its buffers in gpu0's window, --iomem=mmapshared:/dev/pcieswN
# (pciesw(4), BLOCK DEVICES; gpu0 is endpoint 0, whose window maps at
# offset 0): the writes read the GPU, the verify reads write it, all
# peer-to-peer
D0=/dev/${SW}n0
sync
sc errors clear $ID
check "fio --iomem=mmapshared:/dev/$SW --verify=crc32c on nvme0" fio \
	--name=m --filename=$D0 --direct=1 --rw=write --bs=64k --size=2M \
	--ioengine=psync --iomem=mmapshared:/dev/$SW --verify=crc32c \
	--output=/dev/null
# (nothing of it upstream: all of nvme0's port's traffic is gpu0's port's;
# the upstream port itself may carry the mounted filesystem's log writes)
port_bytes 2; n=$J
port_bytes 1
check_eq "... nvme0's traffic all through gpu0's port, none upstream" \
	"$n" "$J"
counter 1 ingress-completion-bytes
check_eq "... the writes' data from gpu0's port" $((2 << 20)) "$J"
counter 1 egress-posted-bytes
check_eq "... the verify reads' data to gpu0's port" $((2 << 20)) "$J"
# ext4 on another drive: fio --verify, and a file into gpu0 peer-to-peer
MNT4=$T_TMP/mnt4
mkdir -p "$MNT4"
# nothing of ext4's own behind the gds read's back: no inode tables left
# for the lazy-init thread to zero, no atime to journal for the read (on
# the debug kernel one journal commit fell inside the read: 1536 bytes
# upstream)
check "mkfs.ext4" mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
	/dev/${SW}n1
check "mount ext4" mount -o noatime /dev/${SW}n1 "$MNT4"
check "fio --verify=crc32c (libaio) on ext4" fio --name=e \
	--filename="$MNT4/fio" --direct=1 --rw=randwrite --bs=16k --size=1M \
	--ioengine=libaio --iodepth=8 --verify=crc32c --output=/dev/null
head -c $((2 << 20)) /dev/urandom >"$T_TMP/r2"
cp "$T_TMP/r2" "$MNT4/f" && sync
sc gds read -j "$MNT4/f" gpu0:8M
jnum upstream-bytes
check_eq "gds read of an ext4 file: 0 upstream bytes" 0 "$J" || diag "$RC $ERR"
check "the GPU window holds the ext4 file (mmap)" \
	"$PCIESW_TOOL" window-cmp /dev/$SW 0 $((8 << 20)) "$T_TMP/r2"
check "umount ext4" umount "$MNT4"
wipefs -q -a /dev/${SW}n1
sc port set $ID 1 acs on
sc gds read -j "$MNT/f" gpu0
jnum upstream-bytes
check_eq "ACS redirect: twice the bytes upstream" $((8 << 20)) "$J"
sc switch set $ID host-p2p off
sc gds check $ID
check_eq "gds check: refused, exit 1" 1 "$RC"
sc errors clear $ID
sc gds read "$MNT/f" gpu0
check "host-p2p off: gds read fails with EIO" \
	eval '((RC == 1)) && [[ $ERR == *"Input/output error"* ]]'
counter $GDS_PORT acs-violation
check "acs-violation on the drive's port" eval '((J > 0))'
sc switch set $ID host-p2p on
sc port set $ID 1 acs off

# --- bad input -------------------------------------------------------------
dd if=$D3 of=/dev/null bs=512 count=1 iflag=direct status=none 2>"$T_TMP/e"
check_eq "misaligned O_DIRECT (512 B on the 4Kn drive): EINVAL" \
	"Invalid argument" "$(grep -o 'Invalid argument' "$T_TMP/e")"
dd if=/dev/zero of=$D3 bs=4k count=1 seek=$((64 << 8)) oflag=direct \
	status=none 2>"$T_TMP/e"
check_eq "a write past the end: ENOSPC" "No space left on device" \
	"$(grep -o 'No space left on device' "$T_TMP/e")"
R=$(dd if=$D3 bs=4k count=1 skip=$((64 << 8)) iflag=direct status=none | wc -c)
check_eq "a read past the end: nothing (end of device)" 0 "$R"
# a GPU window of another switch is host memory to this one (pciesw(4))
wr "$PCIESW_BUS/new_device" "$((ID + 1)) tiny8" ||
	bail "new_device $((ID + 1)) tiny8: $W_ERR"
settled pciesw$((ID + 1)) || diag "pciesw$((ID + 1)) did not settle"
sc ep show -j $((ID + 1)) nvme0
jnum port-id; OTHER_PORT=$J
sc_ok "the other switch's nvme0 out" ep del $((ID + 1)) nvme0
sc_ok "a GPU on the other switch" ep add $((ID + 1)) "$OTHER_PORT" gpu size 16M
sc ep show -j $((ID + 1)) gpu0
jnum ep-id; OTHER_GPU=$J
sc errors clear $ID
sc gds read -j "$MNT/f" gpu0 --switch $((ID + 1))
check_eq "gds read into another switch's GPU: done" 0 "$RC" || diag "$ERR"
# it reports what left the drive's switch for the host, not the GPU's
# switch's upstream port (which the model leaves alone: host memory)
jnum upstream-bytes
check_eq "... gds read reports the drive's switch's upstream bytes" \
	$((4 << 20)) "$J" || diag "$OUT"
[[ $OUT =~ \"upstream-switch\":\"([^\"]*)\" ]]
check_eq "... and names that switch" "$SW" "${BASH_REMATCH[1]:-}"
counter 0 egress-posted-bytes
check_eq "... through the drive's switch's upstream port (the host path)" \
	$((4 << 20)) "$J"
check "... the other GPU's window holds the file (mmap)" \
	"$PCIESW_TOOL" window-cmp /dev/pciesw$((ID + 1)) "$OTHER_GPU" 0 "$T_TMP/r4"
wr "$PCIESW_BUS/del_device" $((ID + 1)) ||
	fail "del_device $((ID + 1)): $W_ERR"
# gpu0 unplugged under a paced read into its window: the read fails with
# EIO, as a GDS read whose GPU vanished does, the drive and the kernel are
# fine.  The read (gds read: one O_DIRECT read, n 1M requests) is queued
# while nvme0's link is down, so that all its buffer is pinned before the
# unplug (a read issued after it gets EFAULT from the revoked mapping;
# faulting in the 256M window and queueing take seconds on a loaded host);
# the link back at gen1 x1, the requests start within ~0.2 s and their
# data moves at once, but they end at the bandwidth model's time, ~1 s
# later: the unplug comes when all have started, some still in flight,
# which must fail although their data had moved (run.sh loads the module
# with blk_queue_depth=256 for this test: 64 requests would all be over
# about when the test sees them started).  Reduced (the debug
# kernel, where starting a request takes longer than the link takes to
# move it): 64M, the unplug while the link is still down, so that the
# requests fail when they start.
sc_ok "pacing on" switch set $ID pacing on
sc_ok "nvme0 at gen1 x1, link down" port set $ID 2 speed gen1 \
	failed-lanes 0xe state down
rd $Q/mq/0/nr_tags
n=$((R < 256 ? R : 256))
if reduced; then
	n=$((n < 64 ? n : 64))
	note_reduced "GPU unplug under a read: ${n}M, before the link is up"
fi
read -r -a ds </sys/block/${SW}n0/stat
( "$SWITCHCTL" gds read $D0 gpu0 --size ${n}M >"$T_TMP/o" 2>&1
  echo $? >"$T_TMP/rc" ) &
check "the read's $n requests queued, waiting for the link" \
	wait_for -t 20000 tags_busy ${SW}n0 $n
if reduced; then
	sc_ok "ep del gpu0 under the read" ep del $ID gpu0
	sc_ok "link up" port set $ID 2 state up
else
	sc_ok "link up" port set $ID 2 state up
	check "... they all start" \
		wait_for reads ${SW}n0 $((ds[0] + n)) started
	check "... and some are still in flight" \
		eval '! reads ${SW}n0 $((ds[0] + n))'
	sc_ok "ep del gpu0 under the read" ep del $ID gpu0
fi
wait
rd "$T_TMP/rc"
check_eq "the read into the unplugged window fails (exit 1)" 1 "$R" ||
	diag "$(cat "$T_TMP/o")"
check "... with EIO" grep -q "Input/output error" "$T_TMP/o" ||
	diag "gds read: $(cat "$T_TMP/o")"
sc_ok "pacing off" switch set $ID pacing off
sc_ok "nvme0 back at full width" port set $ID 2 speed gen5 failed-lanes none
sc_ok "a GPU back on port 1" ep add $ID 1 gpu
check "nvme0 reads after it" \
	dd if=$D0 of=/dev/null bs=1M count=4 iflag=direct status=none

# --- errors and the link on nvme0 (port 2) -------------------------------
echo 300 >/sys/module/pciesw/parameters/blk_timeout_ms
counter 2 bad-tlp; n=$J
sc_ok "a correctable error (bad-tlp) on nvme0's port" inject $ID 2 bad-tlp
check "correctable error: the next read succeeds" \
	dd if=$D0 of=/dev/null bs=4k count=1 iflag=direct status=none
counter 2 bad-tlp
check_eq "... and the error is counted" $((n + 1)) "$J"
sc inject $ID 2 poisoned-tlp
check "uncorrectable error: the next read fails" \
	eval '! dd if=$D0 of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null'
check "... and only that one" \
	dd if=$D0 of=/dev/null bs=4k count=1 iflag=direct status=none
sc port set $ID 2 state down
check "link down past blk_timeout_ms: EIO" \
	eval '! dd if=$D0 of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null'
echo 10000 >/sys/module/pciesw/parameters/blk_timeout_ms
( nap 0.3; "$SWITCHCTL" port set $ID 2 state up ) &
check "link down, then up: the request waits and succeeds" \
	dd if=$D0 of=/dev/null bs=4k count=1 iflag=direct status=none
wait
echo 30000 >/sys/module/pciesw/parameters/blk_timeout_ms

# --- fstrim: the deleted files' blocks leave the drive --------------------
# resident counted after the rm and its metadata are on the drive (ext4's
# journal commit of it made 32K of new pages): what fstrim alone frees
rm -f "$MNT/f" "$MNT/g" "$MNT/fio" && sync
rd $PCIESW_DEVS/$SW-nvme2/mem_resident; res=$R
check "fstrim on the mounted $FS" fstrim "$MNT"
rd $PCIESW_DEVS/$SW-nvme2/mem_resident
check "fstrim: the deleted files' 9M are no longer resident" \
	test $((res - R)) -ge $((9 << 20)) || diag "resident $res -> $R"

# --- ep del of a mounted drive ------------------------------------------
sc_quiet "ep del of a mounted drive ($FS)" ep del $ID nvme2
check "its disk goes" wait_disk ${SW}n2 gone
check "the mounted fs sees EIO" \
	eval '! dd if=/dev/zero of="$MNT/after" bs=4k count=1 oflag=direct,sync status=none 2>/dev/null'
check "umount works" umount "$MNT"

# --- md RAID1 survives a surprise down -----------------------------------
check "mdadm RAID1 over nvme0 and nvme1" mdadm --create /dev/md/pcieswt \
	--run --level=1 --raid-devices=2 --metadata=1.2 --assume-clean \
	--homehost=any $D0 /dev/${SW}n1 -q
# the data at the start, fio writing behind it when the drive goes
dd if="$T_TMP/r4" of=/dev/md/pcieswt bs=1M oflag=direct status=none
fio --name=s --filename=/dev/md/pcieswt --offset=8M --size=2M \
	--direct=1 --rw=randwrite --bs=4k --ioengine=libaio \
	--iodepth=4 --time_based --runtime=1 --disk_util=0 \
	--output=/dev/null &
FIO=$!
nap 0.3
rd /sys/block/${SW}n0/diskseq; seq=$R
sc_quiet "surprise down under fio" port set $ID 2 surprise-down
wait $FIO
check "the drive's disk disappears" disk_gone ${SW}n0 "$seq"
check "RAID1 keeps the data" eval 'dd if=/dev/md/pcieswt bs=1M count=4 \
	iflag=direct status=none | cmp -s "$T_TMP/r4"'
# by name, or whatever array holds the drives if the name is missing
mdadm --stop /dev/md/pcieswt -q 2>/dev/null || mdadm --stop --scan -q
sc_quiet "hot reset" port set $ID 2 hot-reset
check "the link back: a new disk" wait_disk ${SW}n0

# --- fio on the raw drive under a surprise down: EIO, it ends -------------
# Paced at gen1 x1, fio's 1M reads are in flight when the link goes: they
# fail with EIO (the disk, marked dead, then has no capacity: a read that
# comes after gets the end of the device).  32 of them at once keep ~140
# ms of modelled transfers queued on the link, more than a read takes to
# copy and submit even on the debug kernel (at depth 4 it often had none
# in flight there: fio then read only the end of the device).  devtmpfs
# makes the node a moment after the disk appears: fio must not make a
# file in its place.
check "the new disk's node" wait_for test -b $D0
sc_ok "pacing on, nvme0 at gen1 x1" switch set $ID pacing on
sc_ok "... nvme0 at gen1 x1" port set $ID 2 speed gen1 failed-lanes 0xe
read -r -a ds </sys/block/${SW}n0/stat
fio --name=r --filename=$D0 --direct=1 --rw=randread --bs=1M --size=64M \
	--ioengine=libaio --iodepth=32 --time_based --runtime=30 \
	--disk_util=0 --allow_file_create=0 >"$T_TMP/fio.out" 2>&1 &
FIO=$!
check "fio reads the raw drive" wait_for reads ${SW}n0 $((ds[0] + 8))
rd /sys/block/${SW}n0/diskseq; seq=$R
sc_quiet "surprise down under fio" port set $ID 2 surprise-down
deadline 10000
while running $FIO && before_deadline; do
	nap 0.05
done
check "fio ends (no hang)" eval '! running $FIO' || {
	# where it waits: its processes' kernel stacks, the disk's requests
	for t in /proc/[0-9]*/task/*; do
		[[ $(<"$t/comm") == fio ]] 2>/dev/null &&
			diag "fio ${t#/proc/}: $(tr '\n' ' ' <"$t/stack")"
	done
	for t in /sys/kernel/debug/block/${SW}n0/hctx*/busy; do
		[[ -r $t ]] && diag "$t: $(tr '\n' ' ' <"$t")"
	done
	kill $FIO
}
wait $FIO
rc=$?
check "fio fails with EIO" eval '((rc != 0)) &&
	grep -q "Input/output error" "$T_TMP/fio.out"' ||
	diag "fio $rc: $(grep -m3 'error\|READ:' "$T_TMP/fio.out")"
check "the drive's disk disappears" disk_gone ${SW}n0 "$seq"
sc_ok "pacing off" switch set $ID pacing off
summary
