#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# devlink drives a switch with the stock iproute2 tool (issue 14), on one
# tiny8 card created once:
#  - dev info: driver, asic.id, board.id/board.rev (VPD PN/EC), running
#    and stored firmware agree with VPD V0 and switchctl; no serial number
#    (root-only), for root or nobody, nor in the event log;
#  - dev flash: images of each bad kind (wrong part, bad CRC, too large,
#    older than the minimum, not an image) are refused with their message
#    and change nothing; a good one is written with progress into the
#    inactive partition (stored changes, running does not);
#  - dev reload action fw_activate boots it: running version, VPD V0 and
#    switchctl change, the links retrain, a fw-change notification and an
#    event-log entry go out; a hot reset of the upstream port boots a
#    newly flashed image too;
#  - a power loss mid-flash (debugfs) leaves the running image; activating
#    the broken partition falls back and says so (devlink and fw toggle);
#  - health reporters link (degraded link, surprise down, link down; diagnose;
#    recovered by hand), thermal (alarm, diagnose,
#    recover refused while hot, healthy when it clears) and aer (threshold,
#    a second crossing within the grace period stays an error)
#    with diagnose and dump (which carries the event log), in devlink
#    monitor health;
#  - the event log: log show [-j] [--since], survives a view toggle, log
#    clear; unprivileged users cannot change the firmware or the log.
# The reduced form (debug plan) leaves out the rarer bad images, the hot
# reset, the PCI view toggle and the aer reporter.  Uses switch id 72.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"

command -v devlink >/dev/null || skip_all "devlink (iproute2) not installed"
sctl_init 72
SW=pciesw72
DL=pciesw/$SW
DBG=/sys/kernel/debug/pciesw/$SW
FWDIR=$T_TMP/firmware
FWPATH=/sys/module/firmware_class/parameters/path
OLD_FWPATH=

# dl ARGS...: devlink ARGS, $OUT, $ERR, $RC as sc does
dl() {
	devlink "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(<"$T_TMP/out")
	ERR=$(<"$T_TMP/err")
}

# dl_err DESC MESSAGE ARGS...: devlink ARGS fails, saying MESSAGE
dl_err() {
	local desc=$1 msg=$2
	shift 2
	dl "$@"
	if ((RC)) && [[ $ERR == *"$msg"* ]]; then
		ok "$desc"
	else
		fail "$desc"
		diag "devlink $* -> $RC" "$OUT" "$ERR"
	fi
}

# the firmware loader looks in $FWDIR first, as it would in /lib/firmware
mkdir -p "$FWDIR"
if [[ -w $FWPATH ]]; then
	rd "$FWPATH"; OLD_FWPATH=$R
	wr "$FWPATH" "$FWDIR"
else
	FWDIR=/lib/firmware
fi
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	[[ -n ${DLMON:-} ]] && kill "$DLMON" 2>/dev/null
	[[ -w $FWPATH ]] && wr "$FWPATH" "$OLD_FWPATH"
	rm -f /lib/firmware/pciesw-test-*.bin
	sctl_cleanup
}
trap cleanup EXIT

wr "$PCIESW_BUS/new_device" "72 tiny8" || bail "new_device 72 tiny8: $W_ERR"
settled $SW || diag "$SW did not settle"
devlink monitor health >"$T_TMP/dlmon" 2>&1 &
DLMON=$!

# image NAME PART VERSION [ARGS...]: switchctl fw image into $FWDIR
image() {
	"$SWITCHCTL" fw image --part "$2" --version "$3" "${@:4}" \
		-o "$FWDIR/pciesw-test-$1.bin"
}

# state: devlink dev info, VPD V0 and switchctl fw show in one line, in $ST:
# "RUNNING STORED V0 FW-RUNNING FW-PART PART-A-STATE PART-B-STATE"
state() {
	local info vpd=
	info=$(devlink -j dev info $DL)
	# bash drops the image's NUL bytes, which V0 does not need
	IFS= read -r -N 1024 vpd <"$PCIESW_DEVS/$SW/vpd" 2>/dev/null || :
	sc fw show $SW -j
	ST=$(jq -rn --argjson i "$info" --argjson f "$OUT" '
		$i.info["'$DL'"].versions as $v |
		[$v.running.fw, ($v.stored.fw // "none"),
		 $f."fw-running-version", $f."fw-running-part",
		 ($f."fw-part"[] | ."fw-part-state")] | join(" ")')
	# V0 in the raw image: "V0", a length byte, the value, then "V1"
	V0=${vpd#*V0?}
	V0=${V0%%V1*}
	# what runs: dev info, fw show's version and partition
	read -r a _ b c _ <<<"$ST"
	RUN="$a $b $c"
}

# --- inventory -------------------------------------------------------------
dl -j dev info $DL
info=$OUT
rd "$PCIESW_DEVS/$SW/serial_number"; serial=$R
rd "$PCIESW_DEVS/$SW/part_number"; pn=$R
sc vpd show $SW -j
ec=$(jq -r '."vpd-field"[] | select(."vpd-keyword" == "EC") | ."vpd-value"' <<<"$OUT")
check_eq "dev info: driver, no serial, asic.id, board.id (PN), board.rev (EC)" \
	"pciesw null c010:a024 $pn $ec" \
	"$(jq -r ".info[\"$DL\"] | \"\(.driver) \(.serial_number) \" +
		(.versions.fixed | \"\(.\"asic.id\") \(.\"board.id\") \(.\"board.rev\")\")" \
		<<<"$info")"
# serial numbers are root-only, and devlink cannot tell who asks
setpriv --reuid=65534 --regid=65534 --clear-groups devlink -j dev info $DL \
	>"$T_TMP/out" 2>&1
check_eq "dev info as nobody: the same, no serial number" \
	"pciesw null $pn" \
	"$(jq -r ".info[\"$DL\"] | \"\(.driver) \(.serial_number) \" +
		.versions.fixed.\"board.id\"" "$T_TMP/out" 2>&1)"
check "dev info: the serial number nowhere in it" \
	eval '[[ $info == *[a-zA-Z]* && $info != *"$serial"* ]]'
as_nobody log show $SW -j
check_eq "event log as nobody: created (tiny8), no serial number anywhere" \
	"0 created (tiny8) 0" \
	"$RC $(jq -r '[(.log[] | select(."log-object" == "switch") |
		."log-message")][0], ([.log[] | ."log-message" |
		select(contains($s))] | length)' --arg s "$serial" <<<"$OUT" |
		paste -sd' ')"
state
sc show $SW -j
check_eq "running and stored: dev info, VPD V0, fw show and show agree" \
	"1.10.2 1.10.0 1.10.2 0 valid valid 1.10.2 1.10.2 1.10.0" \
	"$ST $V0 $(jq -r '"\(."fw-running-version") \(."fw-stored-version")"' <<<"$OUT")"

# --- bad images: refused with their reason, nothing changes ---------------
image new PSW-T8 1.11.0
image part PSW-7638D 1.11.0
image crc PSW-T8 1.11.0
dd if=/dev/zero of="$FWDIR/pciesw-test-crc.bin" bs=1 seek=200 count=1 \
	conv=notrunc status=none
printf 'PSWF' >"$FWDIR/pciesw-test-short.bin"
bad=(part "another part number" crc "CRC-32")
if reduced; then
	note_reduced "bad images: wrong part and bad CRC only"
else
	image huge PSW-T8 1.11.0 --size 1048577
	image old PSW-T8 1.9.9
	bad+=(huge "too large" old "older than the minimum"
	      short "shorter than its header")
fi
for ((i = 0; i < ${#bad[@]}; i += 2)); do
	dl_err "flash of a bad image (${bad[i]}) refused: ${bad[i + 1]}" \
		"${bad[i + 1]}" dev flash $DL file "pciesw-test-${bad[i]}.bin"
done
state
check_eq "the refused images changed nothing" \
	"1.10.2 1.10.0 1.10.2 0 valid valid" "$ST"

# --- a good image: progress, stored changes, running does not -------------
# devlink shows the progress on a terminal only: give it one.  script(1)
# reads lib.sh's idle fifo (fd 3): at EOF on stdin it may drop the output;
# and it can end before it drained the terminal of a command that exits at
# once (util-linux 2.38, seen on a busy host): the command lingers 0.2 s
script -qec "devlink dev flash $DL file pciesw-test-new.bin; rc=\$?; sleep 0.2; exit \$rc" \
	/dev/null <&3 >"$T_TMP/out" 2>&1
RC=$?
OUT=$(<"$T_TMP/out")
if ((RC == 0)) && [[ $OUT == *"Writing partition B"*"100%"* ]]; then
	ok "flash of 1.11.0 with progress"
else
	fail "flash of 1.11.0 with progress"
	diag "rc $RC: $OUT"
fi
state
check_eq "after the flash: stored 1.11.0, still running 1.10.2" \
	"1.10.2 1.11.0 1.10.2 0 valid valid 1.10.2" "$ST $V0"

# --- activation ------------------------------------------------------------
# a change the monitor must see once it runs
poke() { "$SWITCHCTL" vpd set $SW asset-tag mon >/dev/null 2>&1; }
start_monitor poke
dl dev reload $DL action fw_activate
check "reload action fw_activate" test "$RC" = 0 -a -z "$ERR"
state
check_eq "after activation: running 1.11.0 (B) everywhere, stored 1.10.2" \
	"1.11.0 1.10.2 1.11.0 1 valid valid 1.11.0" "$ST $V0"
check "fw-change notification" \
	mon_wait '"event":"fw-change"' '"fw-running-version":"1.11.0"'
sc port show $SW 0 -j
check_eq "the links retrained" "recovery l0" \
	"$(jq -r '."port-ltssm-transition"[-1] | "\(."transition-from") \(."transition-to")"' <<<"$OUT")"
sc log show $SW -j
check_eq "event log: the boot" "booted 1.11.0 from partition B" \
	"$(jq -r '[.log[] | select(."log-object" == "fw") | ."log-message"] | last' <<<"$OUT")"

if reduced; then
	note_reduced "no hot-reset activation"
else
	image next PSW-T8 1.12.0
	dl dev flash $DL file pciesw-test-next.bin
	sc_quiet "hot reset of the upstream port" port set $SW 0 hot-reset
	state
	check_eq "a hot reset of the upstream port boots the new image" \
		"1.12.0 1.11.0 1.12.0 0" "${ST% valid valid}"
	settled $SW || diag "$SW did not settle after the hot reset"
fi

# --- power loss mid-flash ----------------------------------------------------
state; before=$RUN
wr "$DBG/fw_power_loss" 20000 || diag "fw_power_loss: $W_ERR"
dl_err "power loss mid-flash: the flash fails and says so" "power lost" \
	dev flash $DL file pciesw-test-new.bin
state
check_eq "the running image is intact, the other partition invalid" \
	"$before invalid" "$RUN $(jq -r '."fw-part"[1 - ."fw-running-part"]."fw-part-state"' <<<"$OUT")"
dl dev reload $DL action fw_activate
if ((RC == 0)) && [[ $ERR == *"holds no valid image: fell back"* ]]; then
	ok "activating the broken partition falls back, with a warning"
else
	fail "activating the broken partition falls back, with a warning"
	diag "rc $RC: $OUT $ERR"
fi
sc fw toggle $SW
if ((RC == 0)) && [[ $ERR == "warning: "*"fell back"* ]]; then
	ok "fw toggle falls back too, with a warning"
else
	fail "fw toggle falls back too, with a warning"
	diag "rc $RC: $OUT $ERR"
fi
as_nobody fw toggle $SW
check "fw toggle needs CAP_NET_ADMIN" test "$RC" = 1
state
check_eq "still running the same image" "$before" "$RUN"
dl dev flash $DL file pciesw-test-new.bin
sc_quiet "fw toggle boots the re-flashed partition" fw toggle $SW
state
check_eq "running 1.11.0 again" 1.11.0 "${ST%% *}"

# --- health ----------------------------------------------------------------
# health REPORTER: "STATE ERRORS RECOVERIES" of the reporter, in $R
health() {
	R=$(devlink -j health show $DL reporter "$1" |
	    jq -r ".health[\"$DL\"][0] | \"\(.state) \(.error) \(.recover)\"")
}
# health_wait REPORTER STATE: until "STATE ERRORS RECOVERIES" is that
health_wait() {
	deadline 5000
	while :; do
		health "$1"
		[[ $R == "$2" ]] && return 0
		before_deadline || { diag "$1: $R"; return 1; }
		nap 0.05
	done
}
dl -j health show
check_eq "three reporters" "link thermal aer" \
	"$(jq -r ".health[\"$DL\"] | map(.reporter) | join(\" \")" <<<"$OUT")"
sc_quiet "a dead lane on port 1" inject $SW 1 lane 0x2
# the automatic recovery leaves the link as the fault left it
check "link: the degraded link is reported, the reporter in error" \
	health_wait link "error 1 0"
dl health diagnose $DL reporter link
check "link diagnose: every port's state" grep -q "port: 1 .*degraded: true" <<<"$OUT"
dl health dump show $DL reporter link
check "link dump: the port's LTSSM history, counters, event log" \
	grep -qzE "port: 1 .*ltssm_history.*error_counters.*event_log" <<<"$OUT"
dl health recover $DL reporter link
check "link recover by hand (a retrain)" test "$RC" = 0
health link
check_eq "link: recovered once" "healthy 1 1" "$R"
sc_quiet "port 1's lane back" inject $SW 1 lane none
sc_quiet "a surprise down of port 1" inject $SW 1 surprise-down
check "link: the surprise down is reported" health_wait link "error 2 1"
dl health diagnose $DL reporter link
check "link diagnose: port 1 down" grep -q "port: 1 .*up: false" <<<"$OUT"
dl health recover $DL reporter link
check "link recover retrains the surprise-downed link" test "$RC" = 0
check "link: healthy, recovered twice" health_wait link "healthy 2 2"
# a link that goes down while enabled (not one disabled on purpose)
sc_quiet "port 1's drive pulled" ep del $SW nvme0
check "link: the link going down is reported" health_wait link "error 3 2"
dl health dump clear $DL reporter link
dl health dump show $DL reporter link
check "link dump: port 1 down in Detect" \
	grep -qzE "port: 1 .*ltssm: [Dd]etect" <<<"$OUT"
sc_ok "a drive in port 1 again" ep add $SW 1 nvme
check "link: healthy once the reported link is back up" \
	health_wait link "healthy 3 2"

sc_quiet "sensor 0 at 120 degrees" inject $SW temp 0 120
check "thermal: the alarm is reported, not recovered" \
	health_wait thermal "error 2 0"
dl_err "thermal recover refused while hot" "still above its limit" \
	health recover $DL reporter thermal
dl health diagnose $DL reporter thermal
check "thermal diagnose: the sensors, the hot one in alarm" \
	grep -qE "temp_mC: 120000 .*crit_alarm: true" <<<"$OUT"
dl -j health dump show $DL reporter thermal
check_eq "thermal dump: the sensors and their history" "true 120000" \
	"$(jq -r '"\(.history | length > 0) \(.sensors[0].temp_mC)"' <<<"$OUT")"
sc_quiet "sensor 0 back to the model" inject $SW temp 0 clear
check "thermal: healthy once the alarm clears" health_wait thermal "healthy 2 0"

if reduced; then
	note_reduced "no aer reporter"
else
	sc_quiet "bad-tlp threshold 3 on port 2" errors threshold $SW 2 bad-tlp 3
	# the second crossing comes within the grace period (1 s) of the
	# first one's automatic recovery (three switchctl calls, about 50 ms
	# on the stock kernels): it stays an error until recovered by hand
	sc_quiet "4 bad TLPs on port 2" inject $SW 2 bad-tlp --count 4
	sc_quiet "bad-tlp threshold 5" errors threshold $SW 2 bad-tlp 5
	sc_quiet "2 more bad TLPs" inject $SW 2 bad-tlp --count 2
	check "aer: the crossing within the grace period is not recovered" \
		health_wait aer "error 2 1"
	dl health recover $DL reporter aer
	check "aer: recovered by hand" health_wait aer "healthy 2 2"
	# the dump kept is the first report's: a new one reads the counters now
	dl health dump clear $DL reporter aer
	dl -j health dump show $DL reporter aer
	check_eq "aer dump: the port's counter" "2 6" \
		"$(jq -r '"\(.port) \(.error_counters[] | select(.counter == "bad-tlp") | .value)"' <<<"$OUT")"
fi
kill "$DLMON"
wait "$DLMON" 2>/dev/null
DLMON=
check "devlink monitor health saw the reports" \
	grep -qzE "reporter link.*reporter thermal" "$T_TMP/dlmon"

# --- event log ----------------------------------------------------------------
sc log show $SW -j
read -r n first last <<<"$(jq -r '"\(.log | length) \(.log[0]."log-seq") \(.log[-1]."log-time")"' <<<"$OUT")"
check_eq "log show: the thermal alarm, the link, the boots" true \
	"$(jq '[.log[] | "\(."log-object") \(."log-message")"] |
		any(startswith("sensor0 critical alarm raised")) and
		any(startswith("port1 link up gen")) and
		any(startswith("fw booted 1.11.0"))' <<<"$OUT")"
if reduced; then
	note_reduced "no PCI view toggle"
else
	sc_quiet "PCI view off" switch set $SW pci-view off
	sc_quiet "PCI view on" switch set $SW pci-view on
	sc log show $SW -j
	check_eq "the log survives a view toggle" true \
		"$(jq "(.log | length >= $n) and .log[0].\"log-seq\" == $first" <<<"$OUT")"
fi
# --since takes seconds with at most three decimals: the last entry's ms
since=$((last / 1000000000)).$(printf '%03d' $((last / 1000000 % 1000)))
sc log show $SW -j --since "$since"
check_eq "log show --since: the entries from then on only" true \
	"$(jq ".log | length >= 1 and all(.\"log-time\" >= $((last / 1000000 * 1000000)))" <<<"$OUT")"
as_nobody log clear $SW
check "log clear needs CAP_NET_ADMIN" test "$RC" = 1
sc_quiet "log clear" log clear $SW
sc log show $SW -j
check_eq "the log is empty after log clear" 0 "$(jq '.log | length' <<<"$OUT")"

summary
