#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The NVMe drives' disks (kmod/block/disk.c) pass what a block device is expected
# to pass, with the PCI view on (the module's default; the runner keeps it
# on in every plan) and no kernel warning (the runner fails a test that
# taints the kernel, qemu-run.sh one that leaves a report in the log):
#
# - discards (blkdiscard -o/-l on nvme0, 512-byte blocks) of one sector,
#   of sectors inside a page, across a page boundary, of odd multiples of
#   the sector at offsets that are not page multiples, page-aligned runs,
#   one that reaches past the written data to the end of the device, and
#   the whole device: inside the range the data reads as zeros, outside it
#   reads as written, and the drive's and the module's mem_resident drop
#   by exactly the written pages the range covers whole (the partial pages
#   at its edges are zeroed, kept); BLKDISCARD ranges the queue refuses
#   (on the 4Kn drive nvme3: 512-byte offset or length; past the end; on
#   nvme0: an offset that is not a sector multiple) fail with EINVAL and
#   change nothing;
# - fsync from 8 concurrent writers (fio --fsync=1, buffered, on the raw
#   nvme1; fio --fdatasync=1 on ext4 on nvme2, e2fsck clean afterwards):
#   no error, fio --verify passes, and again from the drive afterwards
#   (--verify_only, O_DIRECT; on ext4 after a remount); the queue
#   declares a write cache (queue/write_cache "write back"), so the
#   flushes reach the driver: counted in the disk's stat;
# - every I/O scheduler in queue/scheduler (bfq and kyber loaded first
#   where they are modules) switched in turn, over and over, while fio
#   writes and verifies (direct libaio and buffered writers on nvme1): no
#   error, the data verified, each switch taken, every scheduler set at
#   least once while fio ran;
# - blockdev --setro on nvme0: /sys/block/X/ro reads 1, O_DIRECT and
#   buffered writes fail with EPERM, reads work and return the data;
#   --setrw: ro 0, both writes work again and fsync succeeds, the data
#   reads back (the module has no read-only attribute of its own);
# - O_DIRECT at the offsets and lengths the queue limits allow
#   (queue/logical_block_size, dma_alignment, max_sectors_kb,
#   max_segments of nvme0 and of the 4Kn nvme3): offsets that are block
#   but not page multiples, odd multiples of the block, a write longer
#   than twice max_sectors_kb (split: at least 3 requests in the disk's
#   stat), buffers aligned only to dma_alignment + 1, more iovecs than
#   max_segments: what is written reads back identically (through a
#   buffer aligned differently); offsets or lengths not multiples of the
#   logical block, buffers misaligned beyond dma_alignment: EINVAL for
#   reads and writes, and the refused writes changed nothing;
# - Bus Master Enable of nvme1's PCI function cleared (setpci) while fio
#   writes: ep show, the event log and switchctl monitor say so, no write
#   completes while it is clear and a read waits instead of failing; set
#   again, the read completes and fio finishes and verifies; the PCI view
#   then turned off: the disk comes back off the endpoint and reads at once
#   (the drivers unbound with the view cleared Bus Master Enable).
#
# Reduced (the debug kernel): smaller fio jobs, one round of schedulers.
# Needs fio, blkdiscard, blockdev, mkfs.ext4, e2fsck, python3
# (scripts/deps.sh).  Uses switch id 77.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"

for t in fio blkdiscard blockdev mkfs.ext4 e2fsck python3; do
	command -v $t >/dev/null || skip_all "$t not installed (scripts/deps.sh)"
done
sctl_init 77
ID=77
SW=pciesw$ID
MP=/sys/module/pciesw/parameters
MNT=$T_TMP/mnt
mkdir -p "$MNT"

# a smaller form on the debug plan: fio's bytes per job, scheduler rounds
reduce 1M 256k "fio bytes per job"
FIO_SIZE=$R
reduce 3 1 "rounds of every I/O scheduler under fio"
SCHED_ROUNDS=$R

rd $MP/pci_view
check_eq "loaded with the PCI view on" Y "$R"
wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"
rd $PCIESW_DEVS/$SW/pci_view
check_eq "$SW has its PCI view" 1 "$R"
# nvme3 becomes a small 4Kn drive
sc_ok "ep del nvme3" ep del $ID nvme3
sc_ok "ep add a 4Kn drive" ep add $ID 5 nvme size 64M block-size 4096

# wait_disk NAME: until /sys/block/NAME and /dev/NAME exist
wait_disk() {
	deadline 5000
	until [[ -e /sys/block/$1 && -b /dev/$1 ]]; do
		before_deadline || return 1
		nap
	done
}

for i in 0 1 2 3; do
	check "disk ${SW}n$i appears" wait_disk ${SW}n$i ||
		bail "no disk ${SW}n$i"
done
D0=/dev/${SW}n0 D1=/dev/${SW}n1 D2=/dev/${SW}n2 D3=/dev/${SW}n3
rd /sys/block/${SW}n3/queue/logical_block_size
check_eq "nvme3: 4096-byte logical blocks" 4096 "$R"

# py_cases DESC SCRIPT ARGS...: run python3 SCRIPT (stdin) with ARGS; each
# line it prints is a case: "ok<TAB>desc" or "not ok<TAB>desc<TAB>why"; a
# script that dies is a failed case DESC
py_cases() {
	local desc=$1 l st
	shift
	python3 - "$@" >"$T_TMP/py.out" 2>"$T_TMP/py.err"
	st=$?
	while IFS=$'\t' read -r -a l; do
		case ${l[0]:-} in
		ok) ok "${l[1]}" ;;
		"not ok") fail "${l[1]}"; diag "${l[2]:-}" ;;
		\#*) echo "${l[*]}" ;;
		*) diag "${l[*]}" ;;
		esac
	done <"$T_TMP/py.out"
	((st == 0)) || { fail "$desc: python3 exited with $st"; diag "$(<"$T_TMP/py.err")"; }
}

# the helpers of the python scripts below
cat >"$T_TMP/blkt.py" <<'PY'
import errno, mmap, os, sys

PG = mmap.PAGESIZE


def out(good, desc, why=""):
    line = ("ok" if good else "not ok") + "\t" + desc
    if not good and why:
        line += "\t" + why
    print(line, flush=True)


def num(path):
    with open(path) as f:
        return int(f.read().split()[0])


def buf(n):
    """a page-aligned buffer of n bytes (anonymous mmap)"""
    return mmap.mmap(-1, max(n, 1))


def pwrite(fd, data, off, mis=0):
    """O_DIRECT-able pwritev of data from a buffer at page offset mis"""
    m = buf(len(data) + mis)
    m[mis:mis + len(data)] = data
    return os.pwritev(fd, [memoryview(m)[mis:mis + len(data)]], off)


def pread(fd, n, off, mis=0):
    m = buf(n + mis)
    got = os.preadv(fd, [memoryview(m)[mis:mis + n]], off)
    return bytes(m[mis:mis + got])


def first_diff(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return min(len(a), len(b))


def errno_of(fn):
    try:
        fn()
    except OSError as e:
        return e.errno
    return 0
PY
export PYTHONPATH=$T_TMP

# --- 1. discards ------------------------------------------------------------
# Regions A (the first MiB) and B (the last 256 KiB) of nvme0 hold random
# data before each discard; they are the only resident pages (the device
# is discarded whole first).
py_cases "discards" "$D0" "$PCIESW_DEVS/$SW-nvme0/mem_resident" \
	"$MP/mem_resident" "$D3" "$PCIESW_DEVS/$SW-nvme3/mem_resident" <<'PY'
import fcntl, struct, subprocess, sys
from blkt import *

dev, ep_res, mod_res, dev4k, ep4k_res = sys.argv[1:6]
fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
size = os.lseek(fd, 0, os.SEEK_END)
A = (0, 1 << 20)
B = (size - (256 << 10), 256 << 10)
data = {r: os.urandom(r[1]) for r in (A, B)}
BLKDISCARD = 0x1277


def blkdiscard(*args):
    p = subprocess.run(["blkdiscard", *args, dev], capture_output=True,
                       text=True)
    return p.returncode, p.stderr.strip()


def fill():
    for r in (A, B):
        pwrite(fd, data[r], r[0])


def full_pages(o, n, r):
    """pages of region r that [o, o + n) covers whole"""
    lo = max(o, r[0])
    hi = min(o + n, r[0] + r[1])
    first = -(-lo // PG)
    last = hi // PG
    return max(0, last - first)


def case(desc, o=None, n=None):
    whole = o is None
    if whole:
        o, n = 0, size
    fill()
    r0, m0 = num(ep_res), num(mod_res)
    rc, err = blkdiscard(*([] if whole else ["-o", str(o), "-l", str(n)]))
    if rc:
        out(False, f"discard {desc}: blkdiscard succeeds", err)
        return
    bad = ""
    for r in (A, B):
        want = bytearray(data[r])
        lo, hi = max(o, r[0]), min(o + n, r[0] + r[1])
        if lo < hi:
            want[lo - r[0]:hi - r[0]] = bytes(hi - lo)
        got = pread(fd, r[1], r[0])
        if got != want:
            i = first_diff(got, want)
            where = "inside" if o <= r[0] + i < o + n else "outside"
            bad = (f"byte {r[0] + i} ({where} the range) reads "
                   f"{got[i]:#x}, want {want[i]:#x}")
            break
    out(not bad, f"discard {desc}: zeros inside, the data outside", bad)
    freed = PG * sum(full_pages(o, n, r) for r in (A, B))
    r1, m1 = num(ep_res), num(mod_res)
    out(r0 - r1 == freed and m0 - m1 == freed,
        f"discard {desc}: {freed // PG} whole pages freed",
        f"drive resident {r0} -> {r1}, module {m0} -> {m1}, "
        f"want {freed} bytes less")


# start empty: the whole device
rc, err = blkdiscard()
out(rc == 0 and num(ep_res) == 0, "discard the whole device: nothing resident",
    f"{rc} {err} resident {num(ep_res)}")
fill()
out(num(ep_res) == A[1] + B[1], "regions A and B written: their pages resident",
    f"resident {num(ep_res)}")
S = 512
case("of one sector", 0, S)
case("of one sector inside a page", 3 * PG + 3 * S, S)
case("of two sectors across a page boundary", 5 * PG + PG - S, 2 * S)
case("of 3 pages at a sector offset", 7 * PG + S, 3 * PG)
case("of 37 sectors at an odd sector offset", 16 * PG + 3 * S, 37 * S)
case("of 9 aligned pages", 32 * PG, 9 * PG)
case("of 255 sectors ending at a page edge", 64 * PG - 255 * S, 255 * S)
case("of the first MiB less 7 sectors", 3 * S, A[1] - 7 * S)
case("across the empty middle into the last region",
     A[1] - PG - 3 * S, size - (128 << 10) - S - (A[1] - PG - 3 * S))
case("of the whole device")
out(num(ep_res) == 0, "after the whole device: nothing resident",
    f"resident {num(ep_res)}")


# refused: BLKDISCARD ranges that break the queue's limits
fd4 = os.open(dev4k, os.O_RDWR | os.O_DIRECT)
size4 = os.lseek(fd4, 0, os.SEEK_END)
d4 = os.urandom(64 << 10)
pwrite(fd4, d4, 0)
res4 = num(ep4k_res)
for desc, o, n in (("a 512-byte offset", 512, 4096),
                   ("a 512-byte length", 0, 512),
                   ("a length of 2.5 blocks", 4096, 10240),
                   ("past the end", size4 - 4096, 8192)):
    e = errno_of(lambda: fcntl.ioctl(fd4, BLKDISCARD, struct.pack("QQ", o, n)))
    out(e == errno.EINVAL, f"4Kn drive: discard at {desc}: EINVAL",
        f"errno {e}")
out(pread(fd4, len(d4), 0) == d4 and num(ep4k_res) == res4,
    "4Kn drive: the refused discards changed nothing")
pwrite(fd, data[A], 0)
e = errno_of(lambda: fcntl.ioctl(fd, BLKDISCARD, struct.pack("QQ", 100, 512)))
out(e == errno.EINVAL, "discard at an offset not a sector multiple: EINVAL",
    f"errno {e}")
out(pread(fd, A[1], 0) == data[A], "... nothing changed")
PY

# --- 5. O_DIRECT at the offsets, lengths and buffers the limits allow -------
py_cases "O_DIRECT" "$D0" /sys/block/${SW}n0 "$D3" /sys/block/${SW}n3 <<'PY'
import sys
from blkt import *

for dev, sysb in zip(sys.argv[1::2], sys.argv[2::2]):
    name = os.path.basename(dev)[len("pciesw"):]
    q = sysb + "/queue/"
    L = num(q + "logical_block_size")
    A = num(q + "dma_alignment") + 1
    maxs = num(q + "max_sectors_kb") << 10
    nseg = num(q + "max_segments")
    print(f"# {name}: logical block {L}, dma_alignment {A - 1}, "
          f"max_sectors_kb {maxs >> 10}, max_segments {nseg}", flush=True)
    fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
    base = 8 << 20
    # an offset that is a block but not a page multiple, where there is one
    odd = 7 * L if L < PG else 3 * L
    # the buffer offset aligned only to dma_alignment + 1 (if less than a
    # page), and one misaligned beyond it
    amis = A if A < PG else 0
    bad_mis = A // 2 if A > 1 else 0

    def stat():
        with open(sysb + "/stat") as f:
            s = [int(x) for x in f.read().split()]
        return s[0], s[4]

    def wr_rd(desc, off, n, wmis, rmis):
        d = os.urandom(n)
        try:
            w = pwrite(fd, d, off, wmis)
            g = pread(fd, n, off, rmis)
        except OSError as e:
            out(False, f"{name}: {desc}", f"{e}")
            return
        why = f"wrote {w} of {n}"
        if g != d:
            why += f", read back {len(g)}, first difference at {first_diff(g, d)}"
        out(w == n and g == d, f"{name}: {desc}: reads back identically", why)

    wr_rd(f"{13 * L} bytes (13 blocks) at offset {base + odd}",
          base + odd, 13 * L, 0, amis)
    wr_rd(f"{3 * PG + L} bytes from a buffer at page offset {amis} "
          f"(dma_alignment {A - 1})", base + (64 << 10) + L, 3 * PG + L,
          amis, 0)
    n = 2 * maxs + 3 * L
    r0, w0 = stat()
    wr_rd(f"{n} bytes (2 x max_sectors_kb + 3 blocks) at offset "
          f"{base + (1 << 20) + odd}, buffer at page offset {amis}",
          base + (1 << 20) + odd, n, amis, amis)
    r1, w1 = stat()
    out(w1 - w0 >= 3 and r1 - r0 >= 3,
        f"{name}: ... split into at least 3 requests each way",
        f"writes {w1 - w0}, reads {r1 - r0}")
    # more iovecs than max_segments, each a block in its own page, at
    # offsets aligned to dma_alignment + 1 only
    k = nseg + 5
    step = 2 * PG if L >= PG else PG
    m = buf(k * step)
    d = os.urandom(k * L)
    iov = []
    for i in range(k):
        o = i * step + ((i * A) % PG if A < PG else 0)
        m[o:o + L] = d[i * L:(i + 1) * L]
        iov.append(memoryview(m)[o:o + L])
    off = base + (4 << 20) + odd
    try:
        w = os.pwritev(fd, iov, off)
        g = pread(fd, k * L, off)
    except OSError as e:
        w, g = -1, repr(e)
    out(w == k * L and g == d,
        f"{name}: pwritev of {k} iovecs of a block (max_segments {nseg}) "
        f"at offset {off}: reads back identically", f"wrote {w}: {g[:40]}")

    # refused: EINVAL, the data untouched
    d = os.urandom(4 * PG)
    pwrite(fd, d, base)
    bad = 512 if L > 512 else 100
    cases = [(f"offset {base + bad} (not a block multiple)", base + bad, L, 0),
             (f"length {L + bad} (not a block multiple)", base, L + bad, 0)]
    if bad_mis:
        cases.append((f"a buffer at page offset {bad_mis} (dma_alignment "
                      f"{A - 1})", base, 2 * L, bad_mis))
    for desc, off, n, mis in cases:
        ew = errno_of(lambda: pwrite(fd, os.urandom(n), off, mis))
        er = errno_of(lambda: pread(fd, n, off, mis))
        out(ew == errno.EINVAL and er == errno.EINVAL,
            f"{name}: O_DIRECT at {desc}: EINVAL", f"write {ew}, read {er}")
    out(pread(fd, len(d), base) == d,
        f"{name}: ... the refused writes changed nothing")
    os.close(fd)
PY

# --- 4. a read-only device refuses writes --------------------------------
# ro_py MODE: the read-only checks of nvme0 (prep: write the data; ro: writes
# EPERM, reads the data; rw: writes work again)
ro_py() {
	py_cases "read-only $1" "$1" "$D0" "$T_TMP/ro.dat" <<'PY'
import sys
from blkt import *

mode, dev, saved = sys.argv[1:4]
off = 16 << 20
if mode == "prep":
    d = os.urandom(64 << 10)
    fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
    pwrite(fd, d, off)
    with open(saved, "wb") as f:
        f.write(d)
    sys.exit(0)
with open(saved, "rb") as f:
    d = f.read()


def direct_write():
    fd = os.open(dev, os.O_WRONLY | os.O_DIRECT)
    try:
        pwrite(fd, new, off + (64 << 10))
    finally:
        os.close(fd)


def buffered_write():
    fd = os.open(dev, os.O_WRONLY)
    try:
        os.pwrite(fd, new, off + (128 << 10) + 512)
        os.fsync(fd)
    finally:
        os.close(fd)


new = os.urandom(8192)
fd = os.open(dev, os.O_RDONLY | os.O_DIRECT)
got = pread(fd, len(d), off)
os.close(fd)
fd = os.open(dev, os.O_RDONLY)
gotb = os.pread(fd, len(d), off)
os.close(fd)
out(got == d and gotb == d, f"{mode}: O_DIRECT and buffered reads return the data")
want = errno.EPERM if mode == "ro" else 0
e = errno_of(direct_write)
out(e == want, f"{mode}: an O_DIRECT write " +
    ("fails with EPERM" if want else "works"), f"errno {e}")
e = errno_of(buffered_write)
out(e == want, f"{mode}: a buffered write + fsync " +
    ("fails with EPERM" if want else "works"), f"errno {e}")
if mode == "rw":
    fd = os.open(dev, os.O_RDONLY | os.O_DIRECT)
    a = pread(fd, len(new), off + (64 << 10))
    b = pread(fd, len(new) + 512, off + (128 << 10))[512:]
    os.close(fd)
    out(a == new and b == new, "rw: both writes read back (O_DIRECT)")
PY
}
ro_py prep
check "blockdev --setro" blockdev --setro $D0
check_attr "/sys/block/${SW}n0/ro reads 1" /sys/block/${SW}n0/ro 1
R=$(blockdev --getro $D0)
check_eq "blockdev --getro: 1" 1 "$R"
ro_py ro
check "blockdev --setrw" blockdev --setrw $D0
check_attr "/sys/block/${SW}n0/ro reads 0" /sys/block/${SW}n0/ro 0
ro_py rw

# --- 2. flushes from many concurrent writers --------------------------------
# 8 buffered writers, each fsync()ing every write, in their own MiBs of
# the raw nvme1; fio verifies through the page cache, then again from the
# drive (--verify_only, O_DIRECT: the same jobs, the same offsets)
Q1=/sys/block/${SW}n1
FIO_FSYNC=(--rw=randwrite --bs=4k --size="$FIO_SIZE" --numjobs=8
	   --offset_increment=4M --ioengine=psync --verify=crc32c
	   --verify_fatal=1 --group_reporting --disk_util=0)
# the drive declares a volatile write cache (with FUA), as NVMe drives
# do: fsync's flushes reach kmod/block/disk.c, counted in the disk's stat (field 16)
rd $Q1/queue/write_cache
check_eq "queue/write_cache: write back" "write back" "$R"
read -r -a st <$Q1/stat
fl0=${st[15]:-0}
check "fio: 8 writers, --fsync=1, on the raw disk" \
	fio --name=fsync --filename=$D1 --fsync=1 "${FIO_FSYNC[@]}" \
	--output="$T_TMP/fio.out" || diag "$(tail -n 20 "$T_TMP/fio.out")"
read -r -a st <$Q1/stat
fl=$((${st[15]:-0} - fl0))
check "... their flushes reached the drive ($fl in its stat)" test $fl -ge 8
check "... the data on the drive verified (fio --verify_only, O_DIRECT)" \
	fio --name=fsync --filename=$D1 --direct=1 --verify_only \
	"${FIO_FSYNC[@]}" --output="$T_TMP/fio.out" ||
	diag "$(tail -n 20 "$T_TMP/fio.out")"
# the same with fdatasync on ext4
# shellcheck disable=SC2054 # commas are mkfs option syntax
check "mkfs.ext4 on nvme2" mkfs.ext4 -q -F \
	-E lazy_itable_init=0,lazy_journal_init=0 $D2
check "mount ext4" mount -o noatime $D2 "$MNT"
check "fio: 8 writers, --fdatasync=1, on ext4" \
	fio --name=fds --directory="$MNT" --fdatasync=1 "${FIO_FSYNC[@]}" \
	--offset_increment=0 --output="$T_TMP/fio.out" ||
	diag "$(tail -n 20 "$T_TMP/fio.out")"
umount "$MNT"
check "e2fsck: the filesystem is clean" \
	eval 'e2fsck -fn $D2 >"$T_TMP/fsck.out" 2>&1' ||
	diag "$(tail -n 20 "$T_TMP/fsck.out")"
mount -o noatime $D2 "$MNT"
check "... the files verified after a remount (fio --verify_only)" \
	fio --name=fds --directory="$MNT" --direct=1 --verify_only \
	"${FIO_FSYNC[@]}" --offset_increment=0 --output="$T_TMP/fio.out" ||
	diag "$(tail -n 20 "$T_TMP/fio.out")"
umount "$MNT"

# --- 3. the I/O scheduler switched while fio writes and verifies ----------
# bfq and kyber are modules on Debian's kernels (the debug kernel has no
# modules: its built-in ones are listed)
modprobe -q bfq 2>/dev/null
modprobe -q kyber-iosched 2>/dev/null
rd $Q1/queue/scheduler
read -r -a scheds <<<"${R//[\[\]]/}"
diag "schedulers: ${scheds[*]}"
check "more than one scheduler to switch between" test ${#scheds[@]} -ge 2
# switcher: every scheduler in turn until $T_TMP/stop exists; the number
# of switches in $T_TMP/sw.n, errors in $T_TMP/sw.err
switcher() {
	local n=0 s
	while [[ ! -e $T_TMP/stop ]]; do
		for s in "${scheds[@]}"; do
			{ echo "$s" >$Q1/queue/scheduler; } 2>>"$T_TMP/sw.err" ||
				echo "echo $s failed" >>"$T_TMP/sw.err"
			rd $Q1/queue/scheduler
			[[ $R == *"[$s]"* ]] ||
				echo "set $s, reads $R" >>"$T_TMP/sw.err"
			n=$((n + 1))
			echo $n >"$T_TMP/sw.n"
			nap 0.01
		done
	done
}
: >"$T_TMP/sw.err"
echo 0 >"$T_TMP/sw.n"
switcher &
SWITCHER=$!
# direct libaio and buffered writers, each verifying what it wrote
FIO_SCHED=(--filename="$D1" --rw=randwrite --bs=4k --size="$FIO_SIZE"
	   --verify=crc32c --verify_fatal=1 --disk_util=0
	   --name=direct --direct=1 --ioengine=libaio --iodepth=16
	   --name=buffered --offset=16M --direct=0 --ioengine=psync --fsync=16)
want=$((SCHED_ROUNDS * ${#scheds[@]}))
runs=0 during=0 fio_bad=0
while ((during < want && runs < 8)); do
	rd "$T_TMP/sw.n"; n0=$R
	fio "${FIO_SCHED[@]}" --output="$T_TMP/fio.out" >/dev/null ||
		{ fio_bad=1; diag "$(tail -n 20 "$T_TMP/fio.out")"; }
	rd "$T_TMP/sw.n"
	during=$((during + R - n0))
	runs=$((runs + 1))
done
touch "$T_TMP/stop"
wait $SWITCHER
echo none >$Q1/queue/scheduler
check_eq "fio --verify under scheduler switches: $runs runs, no error" 0 "$fio_bad"
check "... $during switches while fio ran (want $want: every scheduler)" \
	test $during -ge $want
check_eq "... every switch taken" "" "$(<"$T_TMP/sw.err")"

# --- 4. Bus Master Enable cleared and set again while fio writes ----------
# A function without Bus Master Enable moves no data: the requests wait
# (none completes, none fails: less than blk_timeout_ms), the model and
# netlink say so, and once software sets it again fio finishes and
# verifies.  setpci writes the Command register as software would.
BDF=$(basename "$(readlink -f /sys/block/${SW}n1/device)")
check "nvme1's disk hangs off a PCI function ($BDF)" \
	test -e "/sys/bus/pci/devices/$BDF/config"
ep_bus_master() {
	J=
	sc ep show -j $ID nvme1
	[[ $OUT =~ \"ep-bus-master\":(true|false) ]] && J=${BASH_REMATCH[1]}
}
# until_ok MS CMD...: until CMD succeeds, MS ms at most
until_ok() {
	deadline "$1"
	shift
	until "$@"; do
		before_deadline || return 1
		nap
	done
}
ep_bus_master
check_eq "nvme1 masters the bus once its driver bound it" true "$J"
# completed writes of the disk
disk_io() {
	local st
	read -r -a st </sys/block/${SW}n1/stat
	WDONE=${st[4]}
}
"$SWITCHCTL" monitor -j $ID >"$T_TMP/mon" 2>&1 &
MON=$!
fio --name=bme --filename="$D1" --rw=randwrite --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=8 --size="$FIO_SIZE" --loops=1000 \
	--time_based --runtime=4 --verify=crc32c --verify_fatal=1 \
	--disk_util=0 --output="$T_TMP/fio.out" >/dev/null &
FIO=$!
nap 0.5
setpci -s "$BDF" COMMAND.w=0000:0004
ep_bus_master_is() { ep_bus_master && [[ $J == "$1" ]]; }
check "Bus Master Enable cleared: ep show says bus master off" \
	until_ok 5000 ep_bus_master_is false
nap 0.2
disk_io; w0=$WDONE
# a read waits too (it would fail at once if the drive refused it)
dd if="$D1" of=/dev/null bs=4k count=1 skip=100 iflag=direct 2>"$T_TMP/dd.err" &
DD=$!
nap 1
disk_io
check_eq "... no write completes for 1 s" "$w0" "$WDONE"
check "... a read waits, neither done nor failed" running $DD
sc log $ID
check "... the event log says so" grep -Eq "nvme1 +bus master disabled" \
	<<<"$OUT"
mon_has() { grep -q "\"event\":\"ep-change\".*\"ep-bus-master\":$1" "$T_TMP/mon"; }
check "... switchctl monitor shows an ep-change" until_ok 5000 mon_has false
setpci -s "$BDF" COMMAND.w=0004:0004
check "Bus Master Enable set again: bus master on" \
	until_ok 5000 ep_bus_master_is true
check "... and its end" until_ok 5000 mon_has true
kill $MON
wait $MON 2>/dev/null
check "... the waiting read completes" wait $DD ||
	diag "$(<"$T_TMP/dd.err")"
check "... fio finishes with every block verified" wait $FIO ||
	diag "$(tail -n 20 "$T_TMP/fio.out")"
disk_io
check "... writes complete again" test "$WDONE" -gt "$w0"

# --- 5. the PCI view turned off: the drivers unbound with it (which clear
# Bus Master Enable) stop no drive; the disk comes back off the endpoint
wr "$PCIESW_DEVS/$SW/pci_view" 0 || fail "pci_view 0: $W_ERR"
off_endpoint() {
	[[ $(basename "$(readlink -f /sys/block/${SW}n1/device)") == "$SW-nvme1" ]] &&
		[[ -b $D1 ]]
}
check "PCI view off: nvme1's disk hangs off the endpoint" until_ok 10000 off_endpoint
check "... and reads at once" \
	timeout 10 dd if="$D1" of=/dev/null bs=4k count=1 iflag=direct
ep_bus_master
check_eq "... ep show: bus master on" true "$J"

summary
