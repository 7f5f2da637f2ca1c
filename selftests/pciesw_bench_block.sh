#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The block benchmarks of make bench (scripts/bench.sh runs this in the
# guest after pciesw_bench, with the module loaded and pciesw0, its
# pex89048 card, present); not a selftest.  Each figure is printed with
# its target and PASS or MISS, as pciesw_bench prints P1..P6, then
# "summary: N PASS, M MISS".
#   G1  a file on XFS over md raid0 of the card's four drives into gpu0,
#       pacing on, the upstream port degraded to x8 (the bottleneck):
#       switchctl gds bench vs --bounce >= 1.8x throughput; upstream
#       payload bytes exactly 0 (GDS) and 2x the file (bounce).
#       BENCH_G1_MIB sets the file's size (default 1024).
#   G2  unpaced fio on one drive vs null_blk memory_backed=1 in the same
#       guest: 4 KiB random reads >= 0.5x its IOPS, 1 MiB sequential
#       reads >= 0.8x its throughput.
#   G4  4 KiB reads one at a time through the NVMe passthrough ioctl
#       (NVME_IOCTL_IO_CMD) vs the same reads through the disk (O_DIRECT
#       pread), selftests/pciesw_bench_nvme: >= 0.8x its IOPS.
#   G3  a 4 GiB drive holding a 100 MiB file costs about 100 MiB resident
#       (100-130 MiB); after deleting it and fstrim, at most 16 MiB (the
#       file system's log and metadata).
# Usage: selftests/pciesw_bench_block.sh [SWITCHCTL]
set -u
SC=${1:-userspace/switchctl}
npass=0 nmiss=0
MNT=$(mktemp -d)

# line ID WHAT VALUE UNIT TARGET PASS(0/1) EXTRA
line() {
	printf '%-3s %-44s %9.3f%-4s %-18s %s  %s\n' "$1" "$2" "$3" "$4" "$5" \
		"$( (($6)) && echo PASS || echo MISS)" "$7"
	if (($6)); then npass=$((npass + 1)); else nmiss=$((nmiss + 1)); fi
}

# jnum KEY: the number KEY has in the JSON object $OUT, into J
jnum() {
	J=0
	[[ $OUT =~ \"$1\":([0-9]+) ]] && J=${BASH_REMATCH[1]}
}

# fio_num JOB ARGS...: fio's JSON read iops and bw_bytes into IOPS, BW
fio_num() {
	local o
	o=$(fio --output-format=json --name=b --direct=1 --ioengine=libaio \
		--time_based --runtime=3 --ramp_time=1 --disk_util=0 "$@" 2>/dev/null)
	IOPS=$(jq '.jobs[0].read.iops | floor' <<<"$o")
	BW=$(jq '.jobs[0].read.bw_bytes' <<<"$o")
}

# --- G2: one drive vs null_blk --------------------------------------------
D=/dev/pciesw0n0
dd if=/dev/urandom of=$D bs=1M count=256 oflag=direct status=none
# null_blk with the drive's hardware queues and depth: the same blk-mq work
nq=$(ls -d /sys/block/pciesw0n0/mq/* | wc -l)
qd=$(</sys/block/pciesw0n0/mq/0/nr_tags)
modprobe null_blk nr_devices=1 memory_backed=1 gb=1 queue_mode=2 \
	submit_queues="$nq" hw_queue_depth="$qd" 2>/dev/null
if [[ -b /dev/nullb0 ]]; then
	dd if=/dev/urandom of=/dev/nullb0 bs=1M count=256 oflag=direct status=none
	fio_num --filename=$D --rw=randread --bs=4k --iodepth=32 --size=256M
	p4=$IOPS
	fio_num --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=32 --size=256M
	n4=$IOPS
	fio_num --filename=$D --rw=read --bs=1M --iodepth=8 --size=256M
	p1=$BW
	fio_num --filename=/dev/nullb0 --rw=read --bs=1M --iodepth=8 --size=256M
	n1=$BW
	r=$(awk -v a="$p4" -v b="$n4" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
	line G2 "4K randread IOPS, drive / null_blk" "$r" x ">= 0.5x" \
		"$(awk -v r="$r" 'BEGIN { print (r >= 0.5) }')" "$p4 vs $n4 IOPS"
	r=$(awk -v a="$p1" -v b="$n1" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
	line G2 "1M seqread throughput, drive / null_blk" "$r" x ">= 0.8x" \
		"$(awk -v r="$r" 'BEGIN { print (r >= 0.8) }')" "$p1 vs $n1 B/s"
	rmmod null_blk
else
	line G2 "null_blk (modprobe null_blk) missing" 0 x ">= 0.5x" 0 ""
fi

# --- G4: passthrough reads vs the disk's ------------------------------------
OUT=$(selftests/pciesw_bench_nvme $D 20000 256)
if [[ $OUT =~ disk-iops\ ([0-9]+).*ioctl-iops\ ([0-9]+).*ratio\ ([0-9.]+) ]]; then
	di=${BASH_REMATCH[1]} ii=${BASH_REMATCH[2]} r=${BASH_REMATCH[3]}
	line G4 "4K reads QD1, NVME_IOCTL_IO_CMD / disk" "$r" x ">= 0.8x" \
		"$(awk -v r="$r" 'BEGIN { print (r >= 0.8) }')" "$ii vs $di IOPS"
else
	line G4 "pciesw_bench_nvme failed" 0 x ">= 0.8x" 0 ""
fi

# --- G3: memory of a sparse drive -----------------------------------------
blkdiscard /dev/pciesw0n1
mkfs.xfs -q -f -K /dev/pciesw0n1 && mount /dev/pciesw0n1 "$MNT"
R=/sys/bus/pciesw/devices/pciesw0-nvme1/mem_resident
read -r base <"$R"
dd if=/dev/urandom of="$MNT/f" bs=1M count=100 status=none && sync
read -r full <"$R"
rm "$MNT/f" && sync && fstrim "$MNT"
read -r after <"$R"
umount "$MNT"
mib=$(awk -v v="$full" 'BEGIN { printf "%.3f", v / 1048576 }')
line G3 "4G drive with a 100M file: resident" "$mib" MiB "100-130 MiB" \
	"$(awk -v m="$mib" 'BEGIN { print (m >= 100 && m <= 130) }')" \
	"$((base >> 20)) MiB after mkfs"
mib=$(awk -v v="$after" 'BEGIN { printf "%.3f", v / 1048576 }')
line G3 "... after rm and fstrim: resident" "$mib" MiB "<= 16 MiB" \
	"$(awk -v m="$mib" 'BEGIN { print (m <= 16) }')" ""

# --- G1: GDS vs bounce through a x8 upstream port --------------------------
size=${BENCH_G1_MIB:-1024}
# the file on the drives and its copy in gpu0 are 2x its size resident:
# above the default limit (half of the guest's 4 GiB), so 3 GiB for G1
echo 3072 >/sys/module/pciesw/parameters/mem_limit_mb
mdadm --create /dev/md/pcieswb --run --level=0 --raid-devices=4 \
	--chunk=512 --homehost=any -q /dev/pciesw0n0 /dev/pciesw0n1 \
	/dev/pciesw0n2 /dev/pciesw0n3 2>/dev/null
mkfs.xfs -q -f -K /dev/md/pcieswb && mount -o noatime /dev/md/pcieswb "$MNT"
# O_DIRECT: no page cache next to the windows in the guest's memory
dd if=/dev/zero of="$MNT/f" bs=1M count="$size" oflag=direct status=none
sync && sleep 0.5
"$SC" port set 0 0 failed-lanes 0xff00 && sleep 0.2
"$SC" switch set 0 pacing on
OUT=$("$SC" -j gds bench "$MNT/f" gpu0 --block 1M --depth 4 --threads 2)
jnum bytes-per-s; gds=$J
jnum upstream-bytes; gds_up=$J
OUT=$("$SC" -j gds bench "$MNT/f" gpu0 --block 1M --depth 4 --threads 2 --bounce)
jnum bytes-per-s; bounce=$J
jnum upstream-bytes; bounce_up=$J
"$SC" switch set 0 pacing off
"$SC" port set 0 0 failed-lanes none
r=$(awk -v a="$gds" -v b="$bounce" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
line G1 "${size}M file -> gpu0, x8 upstream: GDS / bounce" "$r" x ">= 1.8x" \
	"$(awk -v r="$r" 'BEGIN { print (r >= 1.8) }')" "$gds vs $bounce B/s"
line G1 "upstream payload bytes, GDS" "$gds_up" B "exactly 0" \
	"$((gds_up == 0))" ""
want=$((2 * size << 20))
line G1 "upstream payload bytes, bounce (2x the file)" \
	"$(awk -v v="$bounce_up" 'BEGIN { printf "%.3f", v / 1073741824 }')" GiB \
	"exactly $((2 * size))M" "$((bounce_up == want))" "$bounce_up bytes"
umount "$MNT"
echo 0 >/sys/module/pciesw/parameters/mem_limit_mb
mdadm --stop /dev/md/pcieswb -q 2>/dev/null
rmdir "$MNT"
echo "summary: $npass PASS, $nmiss MISS"
((nmiss == 0))
