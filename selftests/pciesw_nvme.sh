#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The NVMe drives speak NVMe through the kernel's passthrough ioctls
# (kmod/block/ioctl.c, kmod/nvme/core.c), with the stock clients: nvme-cli's
# id-ctrl and id-ns (the PCI vendor, serial, model, one namespace, the
# capacity and the two LBA formats, the current one the disk's), the
# SMART log (data units written grow by a dd's bytes, a temperature, a
# surprise down counts as an unsafe shutdown), the error log (a refused
# command is logged), the firmware log, Get/Set Features of the volatile
# write cache (the disk's write_cache follows), nvme write / read / compare
# / write-zeroes of known data against the disk's own bytes, dsm --ad
# giving the window's pages back (NUSE, mem_resident), smartctl's PASSED
# and an admin command refused to root without CAP_SYS_ADMIN, Identify
# not, device self-tests (smartctl -t short completes in the model's 2 s
# and smartctl -l selftest has it, another one meanwhile is refused, an
# extended one aborted, a bad Self-test Code refused), Format NVM to
# 4096-byte blocks and back (the disk's logical block size follows, the
# data is erased; a bad format or erase refused), firmware download and
# commit (into slot 2, active after a hot reset of the drive's link; now,
# into slot 3; slot 1 read-only, a corrupted or missing image, an image
# that needs a reset and boot partitions refused); a command waiting for
# the drive's link holds no freeze of the queue up, a format waits for the
# I/O in flight (the queue frozen).  Needs nvme (nvme-cli), smartctl
# (smartmontools), setpriv, jq (scripts/deps.sh).  Uses switch id 191.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"

for t in nvme smartctl setpriv cmp; do
	command -v $t >/dev/null || skip_all "$t not installed (scripts/deps.sh)"
done
sctl_init 191
ID=191
SW=pciesw$ID
D=/dev/${SW}n0
D3=/dev/${SW}n3

wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"
sc_ok "ep add a 4Kn drive" ep del $ID nvme3
sc_ok "ep add a 4Kn drive" ep add $ID 5 nvme size 64M block-size 4096

# wait_disk NAME: until /dev/NAME is there
wait_disk() {
	deadline 5000
	until [[ -b /dev/$1 ]]; do
		before_deadline || return 1
		nap
	done
}
check "the drives' disks appear" eval "wait_disk ${SW}n0 && wait_disk ${SW}n3"

# nv ARGS...: nvme ARGS into $OUT, $ERR, $RC
nv() {
	nvme "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(<"$T_TMP/out")
	ERR=$(<"$T_TMP/err")
}

# jget FILTER: jq -r FILTER of $OUT into J
jget() {
	J=$(jq -r "$1" <<<"$OUT" 2>/dev/null)
}

# ---- Identify ----
nv id-ctrl $D -o json
check_eq "id-ctrl succeeds" 0 "$RC" || diag "$ERR"
jget '[.vid, .ssvid, .nn, (.mn | sub(" +$"; "")), (.fr | sub(" +$"; "")), .ver] | join(" ")'
check_eq "id-ctrl: vid, ssvid, nn, mn, fr, ver 1.4" \
	"$((0x144d)) $((0x144d)) 1 SAMSUNG MZWLO3T8HCLS-00A07 GDC7402Q $((0x10400))" "$J"
jget '.sn | sub(" +$"; "")'
sn=$J
check "id-ctrl: a serial number" eval '[[ $sn =~ ^S[0-9A-F]{15}$ ]]' ||
	diag "sn '$sn'"
jget '[.oacs, .oncs, .vwc, .lpa, .elpe, .frmw, .wctemp, .cctemp, .mdts] | join(" ")'
check_eq "id-ctrl: oacs (format, firmware, self-test) oncs vwc lpa elpe frmw wctemp cctemp mdts" \
	"$((0x16)) $((0x4d)) 7 7 15 $((0x17)) 343 353 8" "$J"
nv id-ctrl /dev/${SW}n1 -o json
jget '.sn | sub(" +$"; "")'
check "another drive, another serial" eval '[[ -n $J && $J != "$sn" ]]'

nv id-ns $D -o json
jget '[.nsze, .ncap, .flbas, .nlbaf, .lbafs[0].ds, .lbafs[1].ds] | join(" ")'
check_eq "id-ns: 4G of 512-byte blocks, formats 512 and 4096" \
	"$((4 << 21)) $((4 << 21)) 0 1 9 12" "$J"
nv id-ns $D3 -o json
jget '[.nsze, .flbas] | join(" ")'
check_eq "id-ns of the 4Kn drive: 64M of 4096-byte blocks, format 1" \
	"$((64 << 8)) 1" "$J"

# ---- SMART ----
nv smart-log $D -o json
check_eq "smart-log succeeds" 0 "$RC" || diag "$ERR"
jget '.data_units_written'
dw0=$J
jget '.host_write_commands'
wc0=$J
jget '[.avail_spare, .spare_thresh, .critical_warning] | join(" ")'
check_eq "smart-log: spare 100, threshold 10, no warning" "100 10 0" "$J"
jget '.temperature'
check "smart-log: a temperature (K) from the thermal model" \
	eval '((J > 273 && J < 400))' || diag "temperature $J"
dd if=/dev/urandom of="$T_TMP/data" bs=1M count=4 status=none
dd if="$T_TMP/data" of=$D bs=1M oflag=direct status=none
nv smart-log $D -o json
jget '.data_units_written'
check "4 MiB written: data units written +8 (of 512,000 bytes)" \
	eval '((J - dw0 >= 8 && J - dw0 <= 9))' || diag "$dw0 -> $J"
jget '.host_write_commands'
check "host write commands grow" eval '((J >= wc0 + 4))' ||
	diag "$wc0 -> $J"

# ---- passthrough I/O ----
head -c 4096 /dev/urandom >"$T_TMP/blk"
nv write $D -s 16 -c 7 -z 4096 -d "$T_TMP/blk"
check_eq "nvme write of 8 blocks" 0 "$RC" || diag "$OUT" "$ERR"
dd if=$D of="$T_TMP/back" bs=4096 skip=2 count=1 iflag=direct status=none
check "the disk reads what nvme write wrote" cmp -s "$T_TMP/blk" "$T_TMP/back"
nv read $D -s 0 -c 7 -z 4096 -d "$T_TMP/rd"
check "nvme read reads what dd wrote" \
	cmp -s -n 4096 "$T_TMP/rd" "$T_TMP/data"
nv compare $D -s 16 -c 7 -z 4096 -d "$T_TMP/blk"
check_eq "nvme compare of the same data" 0 "$RC" || diag "$OUT" "$ERR"
nv compare $D -s 0 -c 7 -z 4096 -d "$T_TMP/blk"
check "nvme compare of other data: Compare Failure" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4285)"* ]]' ||
	diag "$RC $OUT $ERR"
nv write-zeroes $D -s 16 -c 7
check_eq "nvme write-zeroes" 0 "$RC" || diag "$ERR"
dd if=$D of="$T_TMP/back" bs=4096 skip=2 count=1 iflag=direct status=none
check "the blocks read as zeros" cmp -s -n 4096 "$T_TMP/back" /dev/zero
nv read $D -s $((4 << 21)) -c 0 -z 512 -d "$T_TMP/rd"
check "nvme read past the end: LBA Out of Range" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4080)"* ]]' ||
	diag "$RC $OUT $ERR"

# ---- Dataset Management ----
rd $PCIESW_DEVS/$SW-nvme0/mem_resident
res0=$R
nv id-ns $D -o json
jget '.nuse'
check_eq "NUSE: the resident blocks" $((res0 / 512)) "$J"
nv dsm $D --ad -s 0 -b 8192
check_eq "nvme dsm --ad of 4 MiB" 0 "$RC" || diag "$ERR"
rd $PCIESW_DEVS/$SW-nvme0/mem_resident
check_eq "deallocate gives the pages back" 0 "$R"
nv id-ns $D -o json
jget '.nuse'
check_eq "NUSE follows" 0 "$J"

# ---- logs and features ----
nv error-log $D -o json
jget '.errors[0].error_count'
ec=$J
check "error-log: the refused commands are logged" eval '((ec >= 2))' ||
	diag "$OUT"
jget '.errors[0].status_field'
# the status field (bits 15:1), or nvme-cli's status without the phase tag
check "the newest: LBA Out of Range with DNR" \
	eval '((J == 0x4080 << 1 || J == 0x4080))' || diag "status_field $J"
nv smart-log $D -o json
jget '.num_err_log_entries'
check_eq "smart-log counts them" "$ec" "$J"
nv fw-log $D
check "fw-log: slot 1 active, its revision" \
	eval '[[ $OUT == *GDC7402Q* ]]' || diag "$OUT" "$ERR"
Q=/sys/block/${SW}n0/queue/write_cache
rd $Q
check_eq "the disk's write cache is on" "write back" "$R"
nv get-feature $D -f 6
check "get-feature 6: on" eval '[[ $OUT == *"value:"*0*1 ]]' || diag "$OUT"
nv set-feature $D -f 6 -v 0
check_eq "set-feature 6 0" 0 "$RC" || diag "$ERR"
rd $Q
check_eq "the disk's write cache follows: off" "write through" "$R"
nv get-feature $D -f 6
check "get-feature 6: off" eval '[[ $OUT == *"value:"*0*0 ]]' || diag "$OUT"
wr $Q "write back"
nv get-feature $D -f 6
check "and back on from sysfs" eval '[[ $OUT == *"value:"*0*1 ]]' ||
	diag "$OUT"
nv set-feature $D -f 4 -v 300
nv get-feature $D -f 4
check "temperature threshold set and read back" \
	eval '[[ $OUT == *"value:"*12c ]]' || diag "$OUT"
nv smart-log $D -o json
jget '.critical_warning'
check_eq "over the threshold: the temperature warning" 2 "$J"
nv set-feature $D -f 4 -v 343

# ---- smartctl ----
OUT=$(smartctl -a -d nvme $D 2>&1)
check "smartctl -a: PASSED" \
	eval '[[ $OUT == *"self-assessment test result: PASSED"* ]]' ||
	diag "$OUT"
check "smartctl names the model" \
	eval '[[ $OUT == *"SAMSUNG MZWLO3T8HCLS-00A07"* ]]'

# ---- device self-test ----
# dst_op: the self-test running, of nvme self-test-log, into J
dst_op() {
	nv self-test-log $D -o json
	jget '."Current Device Self-Test Operation"'
}
# smartctl has NVMe self-tests since 7.4; nvme-cli starts it before that
OUT=$(smartctl -t short -d nvme $D 2>&1)
if [[ $OUT == *"Self-test has begun"* ]]; then
	SMARTCTL_DST=1
	ok "smartctl -t short starts a short self-test"
else
	SMARTCTL_DST=
	nv device-self-test $D -s 1
	check_eq "nvme device-self-test -s 1 (smartctl has no NVMe self-test)" \
		0 "$RC" || diag "$OUT" "$ERR"
fi
# (a slow kernel may have been 2 s getting here: then it is done)
dst_op
check "self-test-log: a short self-test runs (or ran)" \
	eval '[[ $J == 1 || $OUT == *"Self test code":1* ]]' || diag "$OUT"
deadline 6000
while dst_op; [[ $J != 0 ]]; do
	before_deadline || break
	nap 0.2
done
check_eq "it completes in the model's 2 s" 0 "$J"
if [[ -n $SMARTCTL_DST ]]; then
	OUT=$(smartctl -l selftest -d nvme $D 2>&1)
	check "smartctl -l selftest: the short one, without error" \
		eval '[[ $OUT == *" 0 "*Short*"Completed without error"* ]]' ||
		diag "$OUT"
fi
nv self-test-log $D -o json
jget '(."List of Valid Reports"[0] | [."Self test code", ."Self test result"]) | join(" ")'
check_eq "self-test-log: the short one (1), without error (0)" "1 0" "$J" ||
	diag "$OUT"
nv device-self-test $D -s 2
check_eq "nvme device-self-test -s 2: an extended one" 0 "$RC" || diag "$ERR"
dst_op
check_eq "self-test-log: it runs (10 s)" 2 "$J"
nv device-self-test $D -s 1
check "another meanwhile: Device Self-test in Progress" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x411d)"* ]]' ||
	diag "$RC $OUT $ERR"
nv device-self-test $D -s 0xf
check_eq "device-self-test -s 0xf aborts it" 0 "$RC" || diag "$ERR"
dst_op
jget '[."Current Device Self-Test Operation",
	."List of Valid Reports"[0]."Self test code",
	."List of Valid Reports"[0]."Self test result",
	."List of Valid Reports"[1]."Self test code",
	."List of Valid Reports"[1]."Self test result"] | join(" ")'
check_eq "self-test-log: none runs; extended aborted (1), short passed" \
	"0 2 1 1 0" "$J" || diag "$OUT"
nv device-self-test $D -s 3
check "a bad Self-test Code: Invalid Field" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4002)"* ]]' ||
	diag "$RC $OUT $ERR"
sc log show $ID -j
jqo '[.log[] | select(."log-object" == "nvme0") | ."log-message"] | join("|")'
check "the event log has the self-tests" \
	eval '[[ $J == *"short device self-test started"* &&
		$J == *"short device self-test completed without error"* &&
		$J == *"extended device self-test aborted"* ]]' || diag "$J"

# ---- Format NVM ----
dd if="$T_TMP/data" of=$D bs=1M oflag=direct status=none
nv format $D -l 1 -s 1 --force
check_eq "nvme format -l 1 -s 1: 4096-byte blocks, user data erase" \
	0 "$RC" || diag "$OUT" "$ERR"
check_eq "the disk's logical block size follows" 4096 \
	"$(blockdev --getss $D 2>&1)"
nv id-ns $D -o json
jget '[.flbas, .nsze] | join(" ")'
check_eq "id-ns: format 1, 4G of 4096-byte blocks" "1 $((4 << 18))" "$J"
rd $PCIESW_DEVS/$SW-nvme0/mem_resident
check_eq "the namespace is erased: no page resident" 0 "$R"
check "it reads zeros" eval 'dd if=$D bs=1M count=4 iflag=direct status=none |
	cmp -s -n $((4 << 20)) - /dev/zero'
dd if="$T_TMP/data" of=$D bs=1M oflag=direct status=none
check "4096-byte blocks take writes and read them back" \
	eval 'dd if=$D bs=1M count=4 iflag=direct status=none |
	cmp -s - "$T_TMP/data"'
nv admin-passthru $D -o 0x80 -n 1 --cdw10=2
check "LBA format 2: Invalid Format" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x410a)"* ]]' ||
	diag "$RC $OUT $ERR"
nv admin-passthru $D -o 0x80 -n 1 --cdw10=$((2 << 9))
check "a cryptographic erase: Invalid Field" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4002)"* ]]' ||
	diag "$RC $OUT $ERR"
nv format $D -l 0 --force
check_eq "nvme format -l 0: back to 512" 0 "$RC" || diag "$OUT" "$ERR"
check_eq "the disk's logical block size follows" 512 \
	"$(blockdev --getss $D 2>&1)"
sc ep show $ID nvme0 -j
jqo '."ep-block-size"'
check_eq "ep show: the drive's block size" 512 "$J"
sc log show $ID -j
jqo '[.log[] | select(."log-object" == "nvme0") | ."log-message"] | join("|")'
check "the event log has the formats" \
	eval '[[ $J == *"formatted: 4096-byte logical blocks, user data erased"* &&
		$J == *"formatted: 512-byte logical blocks, blocks deallocated"* ]]' ||
	diag "$J"

# ---- firmware ----
# mkfw FR FLAGS FILE: a drive firmware image (include/uapi/linux/pciesw_fw.h)
mkfw() {
	python3 - "$@" <<-'EOF'
	import struct, sys, zlib
	fr, flags, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	payload = bytes(range(256)) * 48
	hdr = struct.pack("<IHH8sII8x", 0x46564e50, 32, flags,
			  fr.ljust(8).encode(), len(payload), zlib.crc32(payload))
	open(out, "wb").write(hdr + payload)
	EOF
}
# fr: the firmware revision of id-ctrl into J
fr() {
	nv id-ctrl $D -o json
	jget '.fr | sub(" +$"; "")'
}
mkfw GDC7403Q 0 "$T_TMP/fw3"
mkfw GDC7404Q 0 "$T_TMP/fw4"
mkfw GDC7405Q 1 "$T_TMP/fw5"
nv fw-download $D -f "$T_TMP/fw3"
check_eq "nvme fw-download of an image (12 KiB, in 4 KiB pieces)" 0 "$RC" ||
	diag "$OUT" "$ERR"
nv fw-commit $D -s 2 -a 1
check_eq "nvme fw-commit -s 2 -a 1: into slot 2, active at the next reset" \
	0 "$RC" || diag "$OUT" "$ERR"
fr
check_eq "id-ctrl: the old firmware runs until then" GDC7402Q "$J"
nv fw-log $D
check "fw-log: slot 1 runs, slot 2 next, holding GDC7403Q" \
	eval '[[ $(grep ^afi <<<"$OUT") == *": 0x21" && $OUT == *"frs2"*GDC7403Q* ]]' ||
	diag "$OUT"
sc_quiet "hot reset" port set $ID 2 hot-reset
settled $SW || diag "$SW did not settle"
deadline 5000
until fr; [[ $J == GDC7403Q ]]; do
	before_deadline || break
	nap 0.05
done
check_eq "after the reset (hot reset of its link): GDC7403Q runs" GDC7403Q "$J"
nv fw-log $D
check "fw-log: slot 2 runs" eval '[[ $(grep ^afi <<<"$OUT") == *": 0x2" ]]' ||
	diag "$OUT"
nv fw-download $D -f "$T_TMP/fw4"
nv fw-commit $D -s 1 -a 0
check "into slot 1, read-only: Invalid Firmware Slot" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4106)"* ]]' ||
	diag "$RC $OUT $ERR"
nv fw-commit $D -s 3 -a 3
check_eq "fw-commit -s 3 -a 3: runs at once" 0 "$RC" || diag "$OUT" "$ERR"
fr
check_eq "id-ctrl: GDC7404Q" GDC7404Q "$J"
nv fw-commit $D -s 2 -a 0
check "the image went with the commit: Invalid Firmware Image" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4107)"* ]]' ||
	diag "$RC $OUT $ERR"
head -c 100 "$T_TMP/fw4" >"$T_TMP/fwbad"
printf 'XXXX' >>"$T_TMP/fwbad"
tail -c +105 "$T_TMP/fw4" >>"$T_TMP/fwbad"
nv fw-download $D -f "$T_TMP/fwbad"
nv fw-commit $D -s 2 -a 0
check "a corrupted image (its CRC): Invalid Firmware Image" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4107)"* ]]' ||
	diag "$RC $OUT $ERR"
nv fw-download $D -f "$T_TMP/fw5"
nv fw-commit $D -s 2 -a 3
check "an image that needs a reset, -a 3: Requires Controller Level Reset" \
	eval '[[ $OUT$ERR == *"requires"*"reset"* || $OUT$ERR == *"(0x4111)"* ]]' ||
	diag "$RC $OUT $ERR"
fr
check_eq "GDC7404Q runs until the reset" GDC7404Q "$J"
nv admin-passthru $D -o 0x10 --cdw10=$((4 << 3 | 2))
check "a boot partition action: Invalid Field" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4002)"* ]]' ||
	diag "$RC $OUT $ERR"
sc ep show $ID nvme0 -j
jqo '."nvme-firmware"'
check_eq "ep show: the firmware the drive runs" GDC7404Q "$J"
sc log show $ID -j
jqo '[.log[] | select(."log-object" == "nvme0") | ."log-message"] | join("|")'
check "the event log has the commits and the activations" \
	eval '[[ $J == *"firmware GDC7403Q written to slot 2"* &&
		$J == *"firmware GDC7403Q of slot 2 runs after the next reset"* &&
		$J == *"firmware GDC7403Q of slot 2 activated by the reset"* &&
		$J == *"firmware GDC7404Q of slot 3 activated"* ]]' ||
	diag "$J"

# ---- privileges ----
RC=0
OUT=$(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
	nvme smart-log $D 2>&1) || RC=$?
check "smart-log without CAP_SYS_ADMIN: refused" \
	eval '((RC != 0)) && [[ $OUT == *"ermission denied"* ]]' ||
	diag "$RC $OUT"
RC=0
OUT=$(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
	nvme id-ctrl $D 2>&1) || RC=$?
check_eq "id-ctrl without CAP_SYS_ADMIN: allowed" 0 "$RC" || diag "$OUT"

# ---- a command waiting for the link holds no freeze of the queue up ----
# nvme0's link down, an nvme read waits for it (as the disk's requests do,
# up to blk_timeout_ms, here a minute); a switch of the disk's I/O
# scheduler freezes its queue meanwhile: the freeze must not wait for the
# link behind the command.  Once the link is up, the read completes.
MP=/sys/module/pciesw/parameters
Q=/sys/block/${SW}n0/queue
echo 60000 >$MP/blk_timeout_ms
sc_quiet "nvme0's link down" port set $ID 2 state down
nvme read $D -s 0 -c 7 -z 4096 -d "$T_TMP/rd" >"$T_TMP/wait.out" 2>&1 &
NV=$!
# waiting_in_ioctl PID: PID is in the disk's ioctl (its kernel stack)
waiting_in_ioctl() {
	grep -q pciesw_blk_ioctl "/proc/$1/stack" 2>/dev/null
}
check "nvme read waits for the link in the disk's ioctl" \
	wait_for -t 20000 waiting_in_ioctl $NV
( echo mq-deadline >$Q/scheduler; echo $? >"$T_TMP/sched.rc" ) 2>/dev/null &
SCHED=$!
check "meanwhile the I/O scheduler switches (a freeze of the queue)" \
	wait_for -t 20000 test -s "$T_TMP/sched.rc" ||
	diag "nvme: $(tr '\n' ' ' <"/proc/$NV/stack")"
check "... mq-deadline, with the link still down" \
	eval '[[ $(<$Q/scheduler) == *"[mq-deadline]"* ]] && running $NV'
sc_quiet "nvme0's link up" port set $ID 2 state up
wait $NV
check_eq "the waiting nvme read completes" 0 "$?" ||
	diag "$(<"$T_TMP/wait.out")"
wait $SCHED
echo none >$Q/scheduler
echo 30000 >$MP/blk_timeout_ms

# ---- Format NVM waits for the disk's I/O in flight ----
# as nvme_passthru_start(): a command whose effects reach the namespace
# runs with the queue frozen.  A paced read into gpu0's window (gds read,
# peer to peer: booked on the bandwidth model) waits while gpu0's link is
# down, its request in flight; nvme0's link is up, so a format could run
# at once.  It must wait for the read: the read gets the data the format
# then erases (run first, the format would leave it zeros to read).
echo 60000 >$MP/blk_timeout_ms
sc ep show $ID gpu0 -j
jqo '[."port-id", ."ep-id"] | join(" ")'
read -r GP GID <<<"$J"
dd if=/dev/urandom of="$T_TMP/r1" bs=1M count=1 status=none
dd if="$T_TMP/r1" of=$D bs=1M oflag=direct status=none
sc_ok "pacing on" switch set $ID pacing on
sc_quiet "gpu0's link (port $GP) down" port set $ID "$GP" state down
( "$SWITCHCTL" gds read $D gpu0 --size 1M >"$T_TMP/gds.out" 2>&1
  echo $? >"$T_TMP/gds.rc" ) &
GDS=$!
check "the read into gpu0's window waits for its link, in flight" \
	wait_for -t 20000 tags_busy ${SW}n0 1 || diag "$(<"$T_TMP/gds.out")"
nvme format $D -l 0 --force >"$T_TMP/fmt.out" 2>&1 &
NF=$!
# in_freeze PID: PID waits for a freeze of a queue (its kernel stack)
in_freeze() {
	grep -q blk_mq_freeze_queue "/proc/$1/stack" 2>/dev/null
}
check "nvme format waits for a freeze of the queue" \
	wait_for -t 20000 in_freeze $NF || diag "$(<"$T_TMP/fmt.out")"
sc_quiet "gpu0's link up" port set $ID "$GP" state up
wait $NF
check_eq "then the format completes" 0 "$?" || diag "$(<"$T_TMP/fmt.out")"
wait $GDS
check_eq "... and the read succeeded" 0 "$(<"$T_TMP/gds.rc")" ||
	diag "$(<"$T_TMP/gds.out")"
check "the read ran before the format: the data it erased" \
	"$PCIESW_TOOL" window-cmp /dev/$SW "$GID" 0 "$T_TMP/r1"
check "... which the disk no longer has" eval \
	'! dd if=$D bs=1M count=1 iflag=direct status=none | cmp -s - "$T_TMP/r1"'
sc_ok "pacing off" switch set $ID pacing off
echo 30000 >$MP/blk_timeout_ms

# ---- an unsafe shutdown ----
sc_quiet "surprise down" port set $ID 2 surprise-down
sc_quiet "hot reset" port set $ID 2 hot-reset
settled $SW || diag "$SW did not settle"
check "the disk comes back" wait_disk ${SW}n0
deadline 5000
until nvme smart-log $D -o json >"$T_TMP/out" 2>/dev/null; do
	before_deadline || break
	nap 0.05
done
OUT=$(<"$T_TMP/out")
jget '.unsafe_shutdowns'
check_eq "smart-log: one unsafe shutdown" 1 "$J"
jget '.data_units_written'
check "the counters are the drive's: they stay" eval '((J >= dw0 + 8))'
summary
