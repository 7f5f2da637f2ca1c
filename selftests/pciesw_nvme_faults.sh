#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults of the NVMe drives (switchctl inject SWITCH nvmeN ..., netlink
# nvme-inject; kmod/nvme/io.c) as the stock tools see them, and the drives'
# sensors in hwmon (kmod/block/hwmon.c).  Each fault is seen by nvme
# smart-log, smartctl, switchctl ep show and, for the temperature,
# sensors: a media error (the disk's reads of the range fail with EIO,
# nvme read with Unrecovered Read Error 0x281, SMART counts it, the error
# log has its LBA; a write heals it, one that fails does not, and with
# the table of ranges full a write inside a range keeps it whole), a
# composite temperature over the threshold (critical warning bit 1,
# smartctl FAILED, temp1_alarm; back under it, cleared), a spare below its
# threshold (bit 0) and read-only media (writes fail with EIO / 0x182,
# bit 3), a failing self-test (the next one fails its segment 6 in
# smartctl -l selftest), and the
# asynchronous events of the warnings (uevents NVME_AEN=, as the nvme
# driver sends them; also of a threshold set through hwmon and of the
# thermal model crossing one).  Each inject has its
# event-log line and its nvme-fault notification (switchctl monitor), is
# refused without CAP_SYS_ADMIN, and the serial number is in ep show only
# for root.  Needs nvme (nvme-cli), smartctl (smartmontools), sensors
# (lm-sensors), setpriv, jq (scripts/deps.sh).  Uses switch id 193.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"

for t in nvme smartctl sensors setpriv; do
	command -v $t >/dev/null || skip_all "$t not installed (scripts/deps.sh)"
done
sctl_init 193
ID=193
SW=pciesw$ID
D=/dev/${SW}n0

wr "$PCIESW_BUS/new_device" "$ID" || bail "new_device $ID: $W_ERR"
settled $SW || diag "$SW did not settle"

deadline 5000
until [[ -b $D ]]; do
	before_deadline || break
	nap
done
check "the drive's disk appears" test -b $D

# nv ARGS...: nvme ARGS into $OUT, $ERR, $RC
nv() {
	nvme "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(<"$T_TMP/out")
	ERR=$(<"$T_TMP/err")
}

jget() {
	J=$(jq -r "$1" <<<"$OUT" 2>/dev/null)
}

# smart FILTER: nvme smart-log's FILTER into J
smart() {
	nv smart-log $D -o json
	jget "$1"
}

# show FILTER: switchctl ep show -j's FILTER into J
show() {
	sc ep show $ID nvme0 -j
	jqo "$1"
}

# smartctl_says: PASSED or FAILED
smartctl_says() {
	local o
	o=$(smartctl -H -d nvme $D 2>&1)
	if [[ $o == *"result: PASSED"* ]]; then
		J=PASSED
	elif [[ $o == *"result: FAILED"* ]]; then
		J=FAILED
	else
		J="?: $o"
	fi
}

# ---- the drive's hwmon device ----
HW=
for h in /sys/class/hwmon/hwmon*; do
	[[ $(<"$h/name") == nvme ]] || continue
	# the device the disk hangs off is the hwmon device's parent
	[[ -e $h/device/block/${SW}n0 ]] && HW=$h
done
check "one hwmon device \"nvme\" beside the disk" test -n "$HW"
hw() {
	R=$(<"$HW/$1")
}
if [[ -n $HW ]]; then
	hw temp1_label
	check_eq "temp1_label: Composite" Composite "$R"
	hw temp1_crit
	check_eq "temp1_crit: CCTEMP 353 K" 79850 "$R"
	hw temp1_max
	check_eq "temp1_max: the over threshold (FID 4), 343 K" 69850 "$R"
	hw temp1_alarm
	check_eq "temp1_alarm: 0" 0 "$R"
	pci=$(basename "$(readlink -f "$HW/device")")
	check "its parent is the drive's PCI function" \
		eval '[[ $pci =~ ^[0-9a-f]{4,}:[0-9a-f]{2}:00\.0$ ]]' ||
		diag "parent $pci"
	OUT=$(sensors 2>&1)
	check "sensors: nvme-pci-XXXX with the Composite temperature" \
		eval '[[ $OUT == *nvme-pci-*Composite:* ]]' || diag "$OUT"
	# temp1_max is writable, as nvme's: Set Features Temperature Threshold
	wr "$HW/temp1_max" 75000
	nv get-feature $D -f 4
	check "temp1_max written: the feature follows (348 K)" \
		eval '[[ $OUT == *"value:"*15c ]]' || diag "$OUT"
	wr "$HW/temp1_max" 69850
fi

# ---- baseline ----
smart '[.critical_warning, .media_errors, .avail_spare] | join(" ")'
check_eq "smart-log: no warning, no media error, spare 100" "0 0 100" "$J"
smartctl_says
check_eq "smartctl: PASSED" PASSED "$J"
show '[."nvme-model", ."nvme-critical-warning", ."nvme-spare", ."nvme-media-errors", ."nvme-read-only"] | join(" ")'
check_eq "ep show: model, no warning, spare 100, no media error" \
	"SAMSUNG MZWLO3T8HCLS-00A07 0 100 0 false" "$J"
nv id-ctrl $D -o json
jget '.sn | sub(" +$"; "")'
sn=$J
show '."nvme-serial"'
check_eq "ep show as root: the serial number id-ctrl has" "$sn" "$J"
as_nobody ep show $ID nvme0 -j
jqo '[."nvme-serial", ."nvme-model"] | map(tostring) | join(" ")'
check_eq "ep show unprivileged: no serial number" \
	"null SAMSUNG MZWLO3T8HCLS-00A07" "$J"
sc ep show $ID nvme0
check "ep show text: model and health" \
	eval '[[ $OUT == *"model SAMSUNG"* && $OUT == *"critical warning 0x00"* ]]' ||
	diag "$OUT"

# the monitor sees each fault's notification
mon_poke() {
	sc inject $ID nvme1 spare 100
}
start_monitor mon_poke
check_eq "monitor -j is running" 0 "$?" || diag "$(<"$T_TMP/mon.err")"

# ---- privileges ----
RC=0
OUT=$(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
	"$SWITCHCTL" inject $ID nvme0 spare 5 2>&1) || RC=$?
check "inject without CAP_SYS_ADMIN: refused" \
	eval '((RC != 0)) && [[ $OUT == *CAP_SYS_ADMIN* ]]' || diag "$RC $OUT"
sc_err "inject into a GPU: refused" 1 "not an NVMe drive" \
	inject $ID gpu0 spare 5
sc_err "a media error past the namespace: refused" 1 "namespace" \
	inject $ID nvme0 media-error lba $((1 << 40))

# ---- media error ----
# in the middle of the disk, away from what udev's blkid probes when a
# writer closes it (the first and last blocks): LBAs L..L+7 are the
# disk's 4 KiB block B
L=1000000
B=$((L / 8))
dd if=/dev/urandom of="$T_TMP/blk" bs=4096 count=2 status=none
dd if="$T_TMP/blk" of=$D bs=4096 seek=$B oflag=direct status=none
sc_quiet "inject media-error lba $L count 8" \
	inject $ID nvme0 media-error lba $L count 8
RC=0
OUT=$(dd if=$D of=/dev/null bs=4096 skip=$B count=1 iflag=direct 2>&1) || RC=$?
check "the disk's read of the blocks fails: EIO" \
	eval '((RC != 0)) && [[ $OUT == *"nput/output error"* ]]' ||
	diag "$RC $OUT"
dd if=$D of="$T_TMP/ok" bs=4096 skip=$((B + 1)) count=1 iflag=direct \
	status=none
check "the blocks after the range read" \
	cmp -s "$T_TMP/ok" <(tail -c 4096 "$T_TMP/blk")
nv read $D -s $((L + 4)) -c 0 -z 512 -d "$T_TMP/rd"
check "nvme read: Unrecovered Read Error" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4281)"* ]]' ||
	diag "$RC $OUT $ERR"
smart '.media_errors'
check_eq "smart-log: two media errors" 2 "$J"
nv error-log $D -o json
jget '[.errors[0].lba, .errors[0].status_field] | join(" ")'
check "error-log: the newest is the read's LBA, status 0x281" \
	eval '[[ $J == "$((L + 4)) $((0x4281 << 1))" ||
		$J == "$((L + 4)) $((0x4281))" ]]' ||
	diag "$J"
OUT=$(smartctl -a -d nvme $D 2>&1)
check "smartctl: Media and Data Integrity Errors: 2" \
	eval '[[ $OUT =~ Media\ and\ Data\ Integrity\ Errors:\ +2 ]]' ||
	diag "$OUT"
show '."nvme-media-errors"'
check_eq "ep show: two media errors" 2 "$J"
dd if="$T_TMP/blk" of=$D bs=4096 seek=$B count=1 oflag=direct status=none
dd if=$D of="$T_TMP/back" bs=4096 skip=$B count=1 iflag=direct status=none
check "a write reallocates the blocks: they read again" \
	cmp -s "$T_TMP/back" <(head -c 4096 "$T_TMP/blk")

# on nvme1 (its media error counts are its own): a write that fails
# leaves its blocks bad; a write inside a range with the table of ranges
# full keeps the rest of the range bad
D1=/dev/${SW}n1
MP=/sys/module/pciesw/parameters
deadline 5000
until [[ -b $D1 ]]; do
	before_deadline || break
	nap
done
# bad_read BLOCK: the disk's read of 4 KiB block BLOCK fails with EIO
bad_read() {
	local out
	! out=$(dd if=$D1 of=/dev/null bs=4096 skip=$1 count=1 iflag=direct \
		2>&1) && [[ $out == *"nput/output error"* ]]
}
sc_quiet "nvme1: inject media-error lba $L count 16" \
	inject $ID nvme1 media-error lba $L count 16
# no window page is there for the blocks: past the limit none is made
# (at least 1 MiB resident first: a limit of 0 MiB is the default)
dd if=/dev/urandom of=$D1 bs=1M count=2 seek=$((B / 256 + 64)) oflag=direct \
	status=none
R=$(<$MP/mem_resident)
echo $((R >> 20)) >$MP/mem_limit_mb
check "past mem_limit_mb the disk's write of the blocks fails: ENOSPC" eval \
	'! dd if="$T_TMP/blk" of=$D1 bs=4096 seek=$B count=1 oflag=direct \
		2>"$T_TMP/err" status=none &&
	grep -q "No space left on device" "$T_TMP/err"'
nv write $D1 -s $((L + 8)) -c 7 -z 4096 -d "$T_TMP/blk"
check "... nvme write: Capacity Exceeded" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4081)"* ]]' ||
	diag "$RC $OUT $ERR"
echo 0 >$MP/mem_limit_mb
check "a failed write leaves its blocks bad: the read fails" bad_read $B
check "... the failed nvme write's too" bad_read $((B + 1))
dd if="$T_TMP/blk" of=$D1 bs=4096 seek=$B count=2 oflag=direct status=none
dd if=$D1 of="$T_TMP/back" bs=4096 skip=$B count=2 iflag=direct status=none
check "a write that succeeds heals them" cmp -s "$T_TMP/back" "$T_TMP/blk"
# a range of three blocks and 15 more: the table is full (16)
sc_quiet "nvme1: inject media-error lba $L count 24" \
	inject $ID nvme1 media-error lba $L count 24
bad=0
for i in $(seq 1 15); do
	sc inject $ID nvme1 media-error lba $((L + 64 * i)) count 8
	((RC == 0)) || bad=$((bad + 1))
done
check_eq "15 more ranges injected" 0 "$bad"
sc_err "a 17th range: refused" 1 "too many media error ranges" \
	inject $ID nvme1 media-error lba $((L + 2048)) count 8
dd if="$T_TMP/blk" of=$D1 bs=4096 seek=$((B + 1)) count=1 oflag=direct \
	status=none
check "a write in the middle of a range, table full: the first block stays bad" \
	bad_read $B
check "... and the last" bad_read $((B + 2))
# heal them all
dd if=/dev/zero of=$D1 bs=4096 seek=$B count=3 oflag=direct status=none
for i in $(seq 1 15); do
	dd if=/dev/zero of=$D1 bs=4096 seek=$((B + 8 * i)) count=1 \
		oflag=direct status=none
done
check "written whole, every range reads again" \
	dd if=$D1 of=/dev/null bs=4096 skip=$B count=128 iflag=direct status=none

# ---- temperature ----
# the asynchronous events' uevents, as the nvme driver sends them
udevadm monitor --kernel --property >"$T_TMP/uev" 2>&1 &
uev_pid=$!
nap 0.5
sc_quiet "inject temp 90" inject $ID nvme0 temp 90
smart '[.temperature, .critical_warning] | join(" ")'
check_eq "smart-log: 363 K, warning bit 1" "363 2" "$J"
smartctl_says
check_eq "smartctl: FAILED" FAILED "$J"
show '[."nvme-temp", ."nvme-critical-warning"] | join(" ")'
check_eq "ep show: 89.85 C, warning 2" "89850 2" "$J"
if [[ -n $HW ]]; then
	hw temp1_input
	check_eq "hwmon temp1_input: 89850" 89850 "$R"
	hw temp1_alarm
	check_eq "hwmon temp1_alarm: 1" 1 "$R"
	OUT=$(sensors 2>&1)
	check "sensors: +89.x C and ALARM" \
		eval '[[ $OUT == *"Composite:"*"+89."*"ALARM"* ]]' || diag "$OUT"
fi
sc_quiet "inject temp 40" inject $ID nvme0 temp 40
smart '[.temperature, .critical_warning] | join(" ")'
check_eq "back under the threshold: 313 K, no warning" "313 0" "$J"
smartctl_says
check_eq "smartctl: PASSED again" PASSED "$J"
if [[ -n $HW ]]; then
	hw temp1_alarm
	check_eq "hwmon temp1_alarm: 0 again" 0 "$R"
fi
sc_quiet "inject temp clear" inject $ID nvme0 temp clear

# ---- spare ----
sc_quiet "inject spare 5" inject $ID nvme0 spare 5
smart '[.avail_spare, .critical_warning] | join(" ")'
check_eq "smart-log: spare 5, warning bit 0" "5 1" "$J"
smartctl_says
check_eq "smartctl: FAILED" FAILED "$J"
show '[."nvme-spare", ."nvme-critical-warning"] | join(" ")'
check_eq "ep show: spare 5, warning 1" "5 1" "$J"
sc_quiet "inject spare 100" inject $ID nvme0 spare 100
smart '.critical_warning'
check_eq "spare back: no warning" 0 "$J"

# uev_wait VALUE: until the uevents have NVME_AEN=VALUE
uev_wait() {
	deadline 5000
	until grep -q "^NVME_AEN=$1\$" "$T_TMP/uev"; do
		before_deadline || return 1
		nap 0.1
	done
}
check "a uevent NVME_AEN=0x020101 (temperature threshold)" \
	uev_wait 0x020101 || diag "$(<"$T_TMP/uev")"
check "a uevent NVME_AEN=0x020201 (spare below threshold)" \
	uev_wait 0x020201 || diag "$(<"$T_TMP/uev")"
kill "$uev_pid" 2>/dev/null
wait "$uev_pid" 2>/dev/null

# ---- asynchronous events of the temperature thresholds (nvme1) ----
# a threshold changed through hwmon, and the thermal model's temperature
# (the serdes-nvme sensor), crossing one are events as Set Features' are;
# nothing here reads nvme1's SMART log, which would look for them too
HW1=
for h in /sys/class/hwmon/hwmon*; do
	[[ $(<"$h/name") == nvme && -e $h/device/block/${SW}n1 ]] && HW1=$h
done
check "nvme1 has its hwmon device" test -n "$HW1"
# aen1_wait N: until the event log has N temperature events of nvme1
aen1_wait() {
	deadline 5000
	while :; do
		sc log show $ID -j
		jqo '[.log[] | select(."log-object" == "nvme1" and
			(."log-message" | contains("temperature threshold (NVME_AEN=0x020101)")))] |
			length'
		[[ $J == "$1" ]] && return 0
		before_deadline || return 1
		nap 0.1
	done
}
check "nvme1: no temperature event yet" aen1_wait 0 || diag "$J"
if [[ -n $HW1 ]]; then
	wr "$HW1/temp1_max" 20000
	check "hwmon temp1_max under the temperature: an asynchronous event" \
		aen1_wait 1 || diag "$J"
	wr "$HW1/temp1_max" 69850
	check "... and none when it is back over it" aen1_wait 1 || diag "$J"
fi
sc_quiet "inject temp serdes-nvme 80 (the drives' composite)" \
	inject $ID temp serdes-nvme 80
check "the thermal model over the threshold: an asynchronous event" \
	aen1_wait 2 || diag "$J"
sc_quiet "inject temp clear" inject $ID temp clear

# ---- read-only ----
sc_quiet "inject read-only" inject $ID nvme0 read-only
RC=0
OUT=$(dd if="$T_TMP/blk" of=$D bs=4096 seek=$((B + 4)) count=1 oflag=direct \
	2>&1) ||
	RC=$?
check "the disk's write fails: EIO" \
	eval '((RC != 0)) && [[ $OUT == *"nput/output error"* ]]' ||
	diag "$RC $OUT"
nv write $D -s $((L + 40)) -c 7 -z 4096 -d "$T_TMP/blk"
check "nvme write: Attempted Write to Read Only Range" \
	eval '((RC != 0)) && [[ $OUT$ERR == *"(0x4182)"* ]]' ||
	diag "$RC $OUT $ERR"
dd if=$D of=/dev/null bs=4096 count=4 iflag=direct status=none
check_eq "reads still work" 0 "$?"
smart '.critical_warning'
check_eq "smart-log: warning bit 3" 8 "$J"
smartctl_says
check_eq "smartctl: FAILED" FAILED "$J"
show '[."nvme-read-only", ."nvme-critical-warning"] | join(" ")'
check_eq "ep show: read-only, warning 8" "true 8" "$J"
sc_quiet "inject read-only off" inject $ID nvme0 read-only off
dd if="$T_TMP/blk" of=$D bs=4096 seek=$((B + 4)) count=1 oflag=direct \
	status=none
check_eq "writable again" 0 "$?"
smartctl_says
check_eq "smartctl: PASSED" PASSED "$J"

# ---- a failing self-test ----
sc_ok "inject self-test-fail" inject $ID nvme0 self-test-fail
nv device-self-test $D -s 1
check_eq "a short self-test starts" 0 "$RC" || diag "$ERR"
deadline 6000
until nv self-test-log $D -o json
	jget '."Current Device Self-Test Operation"'; [[ $J == 0 ]]; do
	before_deadline || break
	nap 0.2
done
# smartctl reads the self-test log of an NVMe drive since 7.4
OUT=$(smartctl -l selftest -d nvme $D 2>&1)
if [[ $OUT == *"Self-test Log"* ]]; then
	check "smartctl -l selftest: it failed in segment 6" \
		eval '[[ $OUT == *" 0 "*Short*"failed segment"*" 6 "* ]]' ||
		diag "$OUT"
fi
nv self-test-log $D -o json
jget '[."List of Valid Reports"[0]."Self test result",
	(."List of Valid Reports"[0] |
	 ."Segment number" // ."Segment Number")] | join(" ")'
check_eq "self-test-log: result 7, segment 6" "7 6" "$J" || diag "$OUT"

# ---- the event log and the notifications ----
sc log show $ID -j
jqo '[.log[] | select(."log-object" == "nvme0") | ."log-message"] | join("|")'
check "the event log has each fault" \
	eval '[[ $J == *"media error injected: 8 blocks from lba $L"* &&
		$J == *"composite temperature forced to 90000 mC"* &&
		$J == *"available spare set to 5%"* &&
		$J == *"media read-only"* && $J == *"writable again"* &&
		$J == *"next device self-test fails"* &&
		$J == *"asynchronous event: SMART/health temperature threshold (NVME_AEN=0x020101)"* &&
		$J == *"short device self-test failed in segment 6"* ]]' ||
	diag "$J"
mon_wait '"nvme-fault":"read-only"' '"nvme-read-only":false' ||
	diag "the monitor did not print the last nvme-fault"
got=$(jq -r 'select(.event == "nvme-fault" and ."ep-name" == "nvme0") |
	."nvme-fault"' "$T_TMP/mon" | sort | uniq -c | awk '{print $2 ":" $1}' |
	paste -sd ' ')
check_eq "monitor: one nvme-fault per inject" \
	"media-error:1 read-only:2 self-test-fail:1 spare:2 temp:3" "$got" ||
	diag "$(<"$T_TMP/mon")"

# ---- export ----
if command -v promtool >/dev/null; then
	sc export $ID
	check "export: the drive's metrics" \
		eval '[[ $OUT == *"pciesw_nvme_media_errors_total{switch=\"$SW\",ep=\"nvme0\"} 2"* &&
			$OUT == *pciesw_nvme_temperature_celsius* ]]' ||
		diag "${OUT:0:400}"
	RC=0
	P=$(promtool check metrics <<<"$OUT" 2>&1) || RC=$?
	check_eq "export: promtool check metrics clean" "0 " "$RC $P"
fi

# ---- errors the drive reports through AER (the PCI view) ----
# the recovery of an uncorrectable error leaves the disk working: a
# non-fatal one without a reset, a fatal one once its link was reset
# aer_wait N: until the kernel logged N "device recovery" lines for $dp
# since the mark (10 s)
aer_wait() {
	deadline 10000
	while :; do
		R=$(dmesg | sed -n "/pciesw-selftest: mark aer\$/,\$p" |
		    grep -c "$dp: AER: device recovery successful")
		((R >= $1)) && return 0
		before_deadline || return 1
		nap 0.1
	done
}
# disk_rw: a block written at block 8192 reads back
disk_rw() {
	dd if="$T_TMP/blk" of=$D bs=4096 seek=8192 oflag=direct status=none &&
		dd if=$D of="$T_TMP/back" bs=4096 skip=8192 count=1 iflag=direct \
			status=none && cmp -s "$T_TMP/blk" "$T_TMP/back"
}
sc ep show -j $ID nvme0
[[ $OUT =~ \"ep-pci-name\":\"([^\"]*)\" ]]
pcin=${BASH_REMATCH[1]:-}
dp=$(readlink -f "/sys/bus/pci/devices/$pcin/..") && dp=${dp##*/}
dd if=/dev/urandom of="$T_TMP/blk" bs=4096 count=1 status=none
kmsg_mark aer
sc_ok "inject nvme0 aer poisoned-tlp (non-fatal)" \
	inject $ID nvme0 aer poisoned-tlp
check "... the AER driver recovers it" aer_wait 1
check "... the disk still writes and reads" disk_rw
setpci -s "$pcin" ECAP_AER+0x08.l=0:0x400000
sc_ok "inject nvme0 aer uncorrectable-internal (fatal, unmasked)" \
	inject $ID nvme0 aer uncorrectable-internal
check "... recovered after the reset of its link" aer_wait 2
check "... the disk writes and reads again" disk_rw
if command -v promtool >/dev/null; then
	sc export $ID
	m='pciesw_ep_aer_errors_total{switch="'$SW'",ep="nvme0",error='
	check "export: the drive's AER errors, by error" \
		eval '[[ $OUT == *"${m}\"poisoned-tlp\"} 1"* &&
			$OUT == *"${m}\"uncorrectable-internal\"} 1"* &&
			$OUT == *"${m}\"completion-timeout\"} 0"* ]]' ||
		diag "$(grep pciesw_ep_aer <<<"$OUT" | head -n 8)"
	RC=0
	P=$(promtool check metrics <<<"$OUT" 2>&1) || RC=$?
	check_eq "export with AER counts: promtool check metrics clean" "0 " "$RC $P"
fi

summary
