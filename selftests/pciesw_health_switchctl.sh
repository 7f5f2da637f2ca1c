#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# switchctl's health and VPD commands against the module, sysfs, hwmon and
# debugfs: "-j errors" shows an injected burst on the right port and type
# (every error type), clear zeroes it, thresholds are listed and notify
# once, BER set/shown/cleared and producing the bad-TLPs the traffic calls
# for, lane failure and surprise down through inject, "bw" rates from a
# known amount of debugfs traffic, "temp" against hwmon with overrides and
# alarms, "vpd show" against sysfs (decoded and raw), "vpd set" round trips
# and refusals that leave the image unchanged, "monitor -j" seeing the
# threshold, thermal-alarm and vpd-change notifications, exit statuses and
# usage errors, and unprivileged use (reads work, changes fail with exit 1
# and a message).
#
# The module always has these ops: a part whose ops fail ("Operation not
# supported") fails, it is not skipped.  Uses switch ids 40-41.  The guest
# runs under TCG (each exec ~0.1 s): few execs.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
sctl_init 40 41

ID=40
SW=pciesw$ID
D=$PCIESW_DEVS
DBG=/sys/kernel/debug/pciesw/$SW



# unsupported: did the last sc fail because the module lacks the op?  (a
# regression: the part fails once and its cases are not run)
unsupported() {
	((RC == 1)) && [[ $ERR == *"Operation not supported"* ]]
}

# the image of sysfs vpd as hex, one string
vpd_hex() {
	R=$(od -An -tx1 -v "$D/$SW/vpd" | tr -d ' \n')
}

wr "$PCIESW_BUS/new_device" "$ID"
wait_attr "$D/$SW-port1/ltssm_state" l0 || diag "$SW did not train"

# ---- monitor, started first ---------------------------------------------
# a VPD-W change (a Y0 field set and removed) is what it must see first
vpd_poke() {
	sc vpd set "$SW" Y0 ping
	sc vpd set "$SW" Y0 ""
}
start_monitor vpd_poke
check_eq "monitor -j is running and reports" 0 "$?" ||
	diag "$(<"$T_TMP/mon.err")"

# ---- errors and inject -----------------------------------------------------

ERR_TYPES=(receiver-error bad-tlp bad-dllp replay-num-rollover
	replay-timer-timeout advisory-non-fatal corrected-internal
	header-log-overflow data-link-protocol surprise-down poisoned-tlp
	flow-control-protocol completion-timeout completer-abort
	unexpected-completion receiver-overflow malformed-tlp ecrc
	unsupported-request acs-violation)
# the counters that are not zero, "PORT NAME VALUE" a line, sorted
JQ_NONZERO='[.ports[] | ."port-id" as $p | .counter | to_entries[] |
	select(.value != 0) | "\($p) \(.key) \(.value)"] | sort | join(";")'

sc -j errors "$SW"
if unsupported; then
	fail "errors, inject, thresholds, BER, bw: the module lacks them: $ERR"
	HAVE_COUNTERS=0
else
	HAVE_COUNTERS=1
	check_eq "errors -j: exit 0" 0 "$RC" || diag "$ERR"
	jqo '[.ports[] | .counter | length] | unique | join(",")'
	check_eq "errors -j: the 20 error counters of every port" 20 "$J"
	jqo "$JQ_NONZERO"
	check_eq "errors -j: a new switch has no errors" "" "$J"
	sc errors "$SW"
	check "errors: text says there are none" \
		eval '[[ $RC == 0 && $OUT == *"(no errors)"* ]]'

	sc_quiet "inject $SW 2 completion-timeout --count 7" \
		inject "$SW" 2 completion-timeout --count 7
	sc -j errors "$SW"
	jqo "$JQ_NONZERO"
	check_eq "errors -j: the burst on port 2, completion-timeout, nothing else" \
		"2 completion-timeout 7" "$J"
	check_attr "sysfs errors/completion_timeout of port 2" \
		"$D/$SW-port2/errors/completion_timeout" 7
	sc errors "$SW"
	check "errors: the text line of the burst" \
		eval '[[ $OUT == *"2     uncorrectable  completion-timeout       7"* ]]' ||
		diag "$OUT"

	# every error type on port 3, type i with a burst of i+1; but
	# "inject ... surprise-down" drops the link for real (tested below)
	want=
	for i in "${!ERR_TYPES[@]}"; do
		if [[ ${ERR_TYPES[i]} == surprise-down ]]; then
			want+="surprise-down=0 "
			continue
		fi
		sc inject "$SW" 3 "${ERR_TYPES[i]}" --count $((i + 1))
		((RC == 0)) || diag "inject ${ERR_TYPES[i]}: $RC $ERR"
		want+="${ERR_TYPES[i]}=$((i + 1)) "
	done
	sc -j errors "$SW" 3
	jqo '.counter | to_entries | map("\(.key)=\(.value)") | join(" ")'
	check_eq "errors -j SWITCH 3: every error type counted exactly (its burst)" \
		"${want% }" "$J"
	jqo '."port-id", .switch'
	check_eq "errors -j SWITCH PORT: one port object" $'3\npciesw40' "$J"
	got=
	for t in "${ERR_TYPES[@]}"; do
		rd "$D/$SW-port3/errors/${t//-/_}"
		got+="$t=$R "
	done
	check_eq "sysfs errors/ of port 3 as errors -j shows them" \
		"${want% }" "${got% }"
	sc -j errors --all "$SW" 3
	jqo '.counter | length'
	check_eq "errors --all -j: all 32 counters, traffic too" 32 "$J"

	sc_err "inject of a traffic counter: exit 2" 2 \
		"only error counters can be injected" \
		inject "$SW" 3 ingress-posted-bytes
	sc_err "inject of an unknown fault: exit 2" 2 "unknown fault" \
		inject "$SW" 3 nosuch
	sc_err "inject --count 0: exit 2" 2 "invalid count" \
		inject "$SW" 3 bad-tlp --count 0
	sc_err "inject --count 1000001: exit 2" 2 "invalid count" \
		inject "$SW" 3 bad-tlp --count 1000001
	sc_err "inject on port 99: exit 1, the kernel's reason" 1 "" \
		inject "$SW" 99 bad-tlp
	sc_err "inject on a missing switch: exit 1" 1 "no such switch" \
		inject pciesw99 1 bad-tlp

	sc_quiet "errors clear $SW 3" errors clear "$SW" 3
	sc -j errors "$SW"
	jqo "$JQ_NONZERO"
	check_eq "errors -j: port 3 cleared, port 2 kept its burst" \
		"2 completion-timeout 7" "$J"
	sc_quiet "errors $SW --clear" errors "$SW" --clear
	sc -j errors "$SW"
	jqo "$JQ_NONZERO"
	check_eq "errors -j: every port cleared" "" "$J"
	sc_err "errors clear without a switch: exit 2" 2 "missing switch" \
		errors clear
fi

# ---- thresholds ------------------------------------------------------------

if ((HAVE_COUNTERS)); then
	sc_quiet "errors threshold $SW 2 bad-tlp 10" \
		errors threshold "$SW" 2 bad-tlp 10
	sc_quiet "errors threshold $SW receiver-error 5 (switch-wide)" \
		errors threshold "$SW" receiver-error 5
	sc -j errors thresholds "$SW"
	JQ_TH='[.thresholds[] | "\(."port-id") \(."counter-id") \(."threshold-value") \(."counter-value") \(."threshold-crossed")"] | sort | join(";")'
	jqo "$JQ_TH"
	check_eq "errors thresholds -j: both listed, not crossed" \
		"2 bad-tlp 10 0 false;null receiver-error 5 0 false" "$J"
	sc errors thresholds "$SW"
	check "errors thresholds: text has the switch-wide one" \
		eval '[[ $OUT == *"switch "*"receiver-error"*" 5 "* ]]' ||
		diag "$OUT"

	sc inject "$SW" 2 bad-tlp --count 9
	sc inject "$SW" 2 bad-tlp --count 3
	sc inject "$SW" 5 receiver-error --count 3
	sc inject "$SW" 4 receiver-error --count 2
	sc -j errors thresholds "$SW"
	jqo "$JQ_TH"
	check_eq "errors thresholds -j: both crossed, with the counters' values" \
		"2 bad-tlp 10 12 true;null receiver-error 5 5 true" "$J"

	sc_quiet "errors threshold ... 0 removes it" \
		errors threshold "$SW" 2 bad-tlp 0
	sc_err "removing it again: exit 1, the kernel's reason" 1 \
		"no threshold on this counter" errors threshold "$SW" 2 bad-tlp 0
	sc -j errors thresholds "$SW"
	jqo "$JQ_TH"
	check_eq "errors thresholds -j: the switch-wide one is left" \
		"null receiver-error 5 5 true" "$J"
	sc_err "errors threshold of an unknown counter: exit 2" 2 \
		"unknown counter" errors threshold "$SW" 2 nosuch 1
	sc_err "errors threshold with a bad value: exit 2" 2 \
		"invalid threshold" errors threshold "$SW" 2 bad-tlp 1k
	sc_quiet "errors clear $SW" errors clear "$SW"
fi

# ---- BER -------------------------------------------------------------------

if ((HAVE_COUNTERS)); then
	sc_quiet "inject $SW 1 ber 1e-9" inject "$SW" 1 ber 1e-9
	sc -j port show "$SW" 1
	jqo '."port-ber"'
	check_eq "port show -j: port-ber 1e-9 is 1000000000" 1000000000 "$J"
	sc port show "$SW" 1
	check "port show: BER 1e-9" eval '[[ $OUT == *"BER 1e-9"* ]]' ||
		diag "$OUT"
	[[ -e $D/$SW-port1/ber ]] &&
		check_attr "sysfs ber" "$D/$SW-port1/ber" 1000000000
	sc_quiet "port set $SW 1 ber 2.5e-12" port set "$SW" 1 ber 2.5e-12
	sc -j status "$SW"
	jqo '.ports[] | select(."port-id" == 1) | ."port-ber"'
	check_eq "status -j: port-ber 2.5e-12 is 2500000" 2500000 "$J"
	sc_err "ber above 1e-3: exit 2" 2 "invalid bit-error rate" \
		inject "$SW" 1 ber 2e-3
	sc_err "ber finer than 1e-18: exit 2" 2 "invalid bit-error rate" \
		inject "$SW" 1 ber 1e-19
	sc_err "ber with --count: exit 2" 2 "--count is for error bursts" \
		inject "$SW" 1 ber 1e-9 --count 2

	# 1 MiB in, 1e-6: floor(8388608 * 1e-6) = 8 bad TLPs, exactly
	if check "debugfs traffic knob of port 1" test -w "$DBG/port1/traffic"; then
		sc_quiet "inject $SW 1 ber 1e-6" inject "$SW" 1 ber 1e-6
		wr "$DBG/port1/traffic" "ingress posted 1048576" ||
			diag "debugfs traffic: $W_ERR"
		# the bad TLPs are counted as the traffic is: poll (5 s, 25 s
		# on the debug kernel); more than 8 fails below too
		deadline 5000
		while :; do
			sc -j errors "$SW" 1
			jqo '.counter."bad-tlp"'
			[[ $J == 8 ]] && break
			before_deadline || break
			nap 0.05
		done
		check_eq "BER 1e-6 over 1 MiB: 8 bad-tlp on port 1" 8 "$J"
	fi
	sc_quiet "inject $SW 1 ber 0 clears it" inject "$SW" 1 ber 0
	sc -j port show "$SW" 1
	jqo '."port-ber"'
	check_eq "port show -j: port-ber 0" 0 "$J"
fi

# ---- lane failure, surprise down --------------------------------------------

sc_quiet "inject $SW 1 lane 0x8000" inject "$SW" 1 lane 0x8000
wait_attr "$D/$SW-port1/current_link_width" 8
check_attr "lane 15 dead: x8" "$D/$SW-port1/current_link_width" 8
check_attr "... failed_lanes 0x8000" "$D/$SW-port1/failed_lanes" 0x8000
sc_quiet "inject $SW 1 lane none" inject "$SW" 1 lane none
wait_attr "$D/$SW-port1/current_link_width" 16
check_attr "repaired: x16" "$D/$SW-port1/current_link_width" 16
sc_err "inject lane with a bad mask: exit 2" 2 "invalid lane mask" \
	inject "$SW" 1 lane bogus
rd "$D/$SW-port1/surprise_down_count"
sd=$R
sc_quiet "inject $SW 1 surprise-down" inject "$SW" 1 surprise-down
check_attr "surprise down: detect" "$D/$SW-port1/ltssm_state" detect
check_attr "surprise down: counted by the port" \
	"$D/$SW-port1/surprise_down_count" $((sd + 1))
if ((HAVE_COUNTERS)); then
	sc -j errors "$SW" 1
	jqo '.counter."surprise-down"'
	check_eq "surprise down: the AER surprise-down counter" 1 "$J"
fi
sc_err "inject surprise-down of a link that is down: exit 1" 1 \
	"link is not up" inject "$SW" 1 surprise-down
sc port set "$SW" 1 retrain
wait_attr "$D/$SW-port1/ltssm_state" l0

# ---- bw ---------------------------------------------------------------------

sc_err "bw --interval 0: exit 2" 2 "invalid interval" bw "$SW" --interval 0
sc_err "bw --interval abc: exit 2" 2 "invalid interval" bw "$SW" --interval abc
sc_err "bw --interval without a value: exit 2" 2 "needs a value" bw --interval
if ((HAVE_COUNTERS)) &&
	check "debugfs traffic knob of ports 0 and 2" \
		test -w "$DBG/port2/traffic" -a -w "$DBG/port0/traffic"; then
	sc errors clear "$SW"
	# 10 MiB into port 2 and 1 MiB of completions out of port 0, between
	# the two samples 3 s apart
	"$SWITCHCTL" -j bw "$SW" --interval 3 >"$T_TMP/bw" 2>"$T_TMP/bw.err" &
	BW_PID=$!
	# the traffic goes in once bw took its first sample and sleeps until
	# the second: it is then in nanosleep (35, or clock_nanosleep 230 as
	# glibc calls it); a start slower than 3 s (debug kernel, busy host)
	# would otherwise put the traffic before the first sample
	nr=
	deadline 3000
	while before_deadline; do
		read -r nr _ <"/proc/$BW_PID/syscall" 2>/dev/null
		[[ $nr == 35 || $nr == 230 ]] && break
		nap
	done
	[[ $nr == 35 || $nr == 230 ]] || diag "bw did not reach its sleep"
	wr "$DBG/port2/traffic" "ingress posted 10485760" ||
		diag "debugfs traffic: $W_ERR"
	wr "$DBG/port0/traffic" "egress completion 1048576"
	wait "$BW_PID"
	check_eq "bw -j: exit 0" 0 "$?" || diag "$(<"$T_TMP/bw.err")"
	OUT=$(<"$T_TMP/bw")
	# a rate is the count over the interval rounded down to a whole number
	# per second: rate * interval <= count < (rate + 1) * interval
	jqo '.["interval-ns"] as $ns |
		def gave(r; n): r * $ns / 1e9 <= n + 0.5 and
			(r + 1) * $ns / 1e9 >= n - 0.5;
		.ports[] | select(."ingress-bytes-per-s" + ."egress-bytes-per-s" +
			."ingress-tlps-per-s" + ."egress-tlps-per-s" > 0) |
		"\(."port-id") \(gave(."ingress-bytes-per-s"; 10485760))" +
		" \(gave(."ingress-tlps-per-s"; 40960))" +
		" \(gave(."egress-bytes-per-s"; 1048576))" +
		" \(gave(."egress-tlps-per-s"; 4096))"'
	check_eq "bw -j: 10 MiB (40960 TLPs) in on port 2, 1 MiB (4096 TLPs) out on port 0, nothing else" \
		$'0 false false true true\n2 true true false false' "$J" ||
		diag "$OUT"
	jqo '.["interval-ns"] >= 3000000000 and .["interval-ns"] < 6000000000'
	check_eq "bw -j: interval-ns measured, about 3 s" true "$J"
	jqo '.ports[] | select(."port-id" == 2) | ."counter-rate" | length'
	check_eq "bw -j: counter-rate has the 12 traffic counters" 12 "$J"
	sc bw "$SW" --interval 0.1
	check "bw: text, a header and a line per port" \
		eval '[[ $RC == 0 && $OUT == *"INGRESS"*"EGRESS-TLPS"*"0 B/s"* ]]' ||
		diag "$OUT"
fi

# ---- temp ----------------------------------------------------------------

# the hwmon device of the switch (under its thermal platform device)
HWMON=
for h in "$D/$SW"/*thermal*/hwmon/hwmon*; do
	[[ -e $h/temp1_input ]] && HWMON=$h
done
sc -j temp "$SW"
if unsupported; then
	fail "temp, temperature overrides, thermal alarms: the module lacks them: $ERR"
	HAVE_THERMAL=0
else
	HAVE_THERMAL=1
	check_eq "temp -j: exit 0" 0 "$RC" || diag "$ERR"
	jqo '[."thermal-sensor"[] | "\(."sensor-id"):\(."sensor-label")"] | join(" ")'
	check_eq "temp -j: five sensors" \
		"0:core 1:serdes-host 2:serdes-gpu 3:serdes-nvme 4:dma" "$J"
	jqo '[."thermal-sensor"[] | "\(."sensor-max")/\(."sensor-crit")/\(."sensor-override")"] | unique | join(" ")'
	check_eq "temp -j: default limits 95/105 degrees, no override" \
		"95000/105000/null" "$J"
	if check "a hwmon device under $SW" test -n "$HWMON"; then
		jqo '[."thermal-sensor"[] | ."sensor-temp"] | join(" ")'
		tv=() hw=()
		read -ra tv <<<"$J"
		for i in 1 2 3 4 5; do
			rd "$HWMON/temp${i}_input"
			hw+=("$R")
		done
		fine=1
		for i in 0 1 2 3 4; do
			d=$((tv[i] - hw[i]))
			((d < -1000 || d > 1000)) && fine=0
		done
		check_eq "temp -j: each sensor as hwmon temp*_input shows it (1 degree)" \
			1 "$fine" || diag "switchctl: ${tv[*]}" "hwmon: ${hw[*]}"
	fi

	sc_quiet "inject $SW temp 97.5 (every sensor)" inject "$SW" temp 97.5
	sc -j temp "$SW"
	jqo '[."thermal-sensor"[] | "\(."sensor-temp")/\(."sensor-override")/\(."sensor-max-alarm")/\(."sensor-crit-alarm")"] | unique | join(" ")'
	check_eq "temp -j: overridden to 97500, max alarm" \
		"97500/97500/true/false" "$J"
	jqo '."thermal-highest"'
	check_eq "temp -j: highest 97500" 97500 "$J"
	sc temp "$SW"
	check "temp: text shows 97.5 and the max alarm" \
		eval '[[ $OUT == *"highest 97.5"*"core "*"97.5"*" max"* ]]' ||
		diag "$OUT"
	sc_quiet "inject $SW temp core 110" inject "$SW" temp core 110
	sc -j temp "$SW"
	jqo '."thermal-sensor"[0] | "\(."sensor-temp") \(."sensor-crit-alarm")"'
	check_eq "temp -j: core at 110, critical alarm" "110000 true" "$J"
	[[ -n $HWMON ]] && check_attr "hwmon temp1_input follows the override" \
		"$HWMON/temp1_input" 110000
	sc temp -v "$SW"
	check "temp -v: ambient, time constant and the override column" \
		eval '[[ $OUT == *"ambient "*"time constant "*"OVERRIDE"* ]]' ||
		diag "$OUT"
	sc_quiet "inject $SW temp clear" inject "$SW" temp clear
	sc -j temp "$SW"
	jqo '[."thermal-sensor"[] | ."sensor-override"] | unique | join(",")'
	check_eq "temp -j: overrides cleared" "" "$J"
	sc_err "inject temp 200: exit 2" 2 "invalid temperature" \
		inject "$SW" temp 200
	sc_err "inject temp of an unknown sensor: exit 1" 1 \
		"no sensor labelled \"nosuch\"" inject "$SW" temp nosuch 50
	sc_err "inject temp with --count: exit 2" 2 "--count" \
		inject "$SW" temp 50 --count 2
fi

# ---- vpd -------------------------------------------------------------------

sc -j vpd show "$SW"
if unsupported; then
	fail "vpd show/set: the module lacks them: $ERR"
	HAVE_VPD=0
else
	HAVE_VPD=1
	check_eq "vpd show -j: exit 0" 0 "$RC" || diag "$ERR"
	jqo '[."vpd-id-string", (."vpd-field"[] | select(.["vpd-writable"] | not) | ."vpd-value")] | join("|")'
	want=
	for f in id_string part_number engineering_change serial_number \
		manufacturer_id firmware_version batch config; do
		rd "$D/$SW/vpd_info/$f"
		want+="$R|"
	done
	check_eq "vpd show -j: ID string and VPD-R fields as sysfs vpd_info/ has them" \
		"${want%|}" "$J"
	jqo '[."vpd-field"[] | ."vpd-keyword"] | join(" ")'
	check "vpd show -j: keywords PN EC SN MN V0 V1 V2, then YA" \
		eval '[[ $J == "PN EC SN MN V0 V1 V2 YA"* ]]' || diag "$J"
	sc vpd "$SW"
	check "vpd (default: show): text has the decoded fields" \
		eval '[[ $OUT == *"PN  part number"*"V2  configuration"*"YA  asset tag"*"VPD-W space left"* ]]' ||
		diag "$OUT"

	sc_quiet "vpd set $SW asset-tag rack7-slot3" vpd set "$SW" asset-tag rack7-slot3
	sc -j vpd show "$SW"
	jqo '."vpd-field"[] | select(."vpd-keyword" == "YA") | "\(."vpd-value") \(."vpd-writable")"'
	check_eq "vpd show -j: the asset tag round-trips, writable" "rack7-slot3 true" "$J"
	check_attr "sysfs vpd_info/asset_tag" "$D/$SW/vpd_info/asset_tag" rack7-slot3
	sc -j vpd show "$SW" --raw
	jqo '."vpd-image"'
	vpd_hex
	check_eq "vpd show --raw -j: the image, as sysfs vpd holds it" "$R" "$J"
	IMG=$R
	sc vpd show "$SW" --raw
	check "vpd show --raw: a hex dump" \
		eval '[[ $OUT == *"00000000  82 "* ]]' || diag "${OUT:0:300}"

	sc_err "vpd set PN: exit 1, read-only" 1 "VPD-R fields are read-only" \
		vpd set "$SW" PN foo
	sc_err "vpd set RW: exit 1" 1 "RW is the free space of VPD-W" \
		vpd set "$SW" RW foo
	sc_err "vpd set of a value that does not fit: exit 1" 1 \
		"not enough room in VPD-W" \
		vpd set "$SW" Y1 "$(printf '%0200d' 0)"
	sc_err "vpd set of a non-printable value: exit 1" 1 \
		"printable ASCII" vpd set "$SW" YA $'tab\there'
	sc_err "vpd set of a 256-byte value: exit 2" 2 "at most 255 bytes" \
		vpd set "$SW" YA "$(printf '%0256d' 0)"
	sc_err "vpd set of a three-letter field: exit 2" 2 "invalid field" \
		vpd set "$SW" XYZ foo
	sc_err "vpd set without a value: exit 2" 2 "expected SWITCH FIELD TEXT" \
		vpd set "$SW" YA
	vpd_hex
	check_eq "after the refusals the image is unchanged" "$IMG" "$R"

	sc lanes set "$SW" nvme 16x1
	sc -j vpd show "$SW"
	jqo '."vpd-field"[] | select(."vpd-keyword" == "V2") | ."vpd-value"'
	check "vpd show -j: V2 follows the bifurcation (nvme:16x1)" \
		eval '[[ $J == *"nvme:16x1"* ]]' || diag "$J"
fi
sc_err "vpd show of a missing switch: exit 1" 1 "no such switch" \
	vpd show pciesw99

# ---- usage -------------------------------------------------------------------

sc_err "errors with an unknown option: exit 2" 2 "unknown option \"--bogus\"" \
	errors "$SW" --bogus
sc_err "temp with two switches: exit 2" 2 "too many arguments" temp 40 41
sc errors threshold --help
check "errors threshold --help lists the counters" \
	eval '[[ $RC == 0 && $OUT == *"unsupported-request"* ]]'
sc help
check "help lists the health commands" \
	eval '[[ $OUT == *"temp "*"errors show"*"bw "*"inject "*"vpd show"* ]]'

# ---- unprivileged --------------------------------------------------------

if command -v setpriv >/dev/null; then
	# nobody CHANGE... must fail with exit 1 and say why
	nobody_refused() {
		local desc=$1
		shift
		as_nobody "$@"
		check "nobody: $desc fails with exit 1 and an error" \
			eval '[[ $RC == 1 && $ERR == "error: "*"not permitted"* ]]' ||
			diag "$RC $ERR"
	}
	if ((HAVE_COUNTERS)); then
		sc inject "$SW" 1 ecrc --count 4
		as_nobody -j errors "$SW"
		check_eq "nobody: errors -j works" 0 "$RC"
		nobody_refused "inject" inject "$SW" 1 ecrc
		nobody_refused "errors clear" errors clear "$SW"
		nobody_refused "errors threshold" errors threshold "$SW" 1 ecrc 5
		sc -j errors "$SW" 1
		jqo '.counter.ecrc'
		check_eq "nobody: the counters are as they were" 4 "$J"
		sc -j errors thresholds "$SW"
		jqo '[.thresholds[] | select(."counter-id" == "ecrc")] | length'
		check_eq "nobody: no threshold was set" 0 "$J"
	fi
	if ((HAVE_THERMAL)); then
		as_nobody -j temp "$SW"
		check_eq "nobody: temp -j works" 0 "$RC"
		nobody_refused "inject temp" inject "$SW" temp 90
	fi
	if ((HAVE_VPD)); then
		# root-only, like the PCI core's vpd
		nobody_refused "vpd show" vpd show "$SW"
		nobody_refused "vpd set" vpd set "$SW" asset-tag nobody
		check_attr "nobody: the asset tag is as it was" \
			"$D/$SW/vpd_info/asset_tag" rack7-slot3
	fi
else
	# util-linux is always installed: a missing setpriv is a broken guest
	fail "unprivileged switchctl: no setpriv (util-linux)"
fi

# ---- what the monitor saw ------------------------------------------------

# the asset tag's vpd-change is the last event the test caused
mon_wait '"event":"vpd-change"' 'rack7-slot3' ||
	diag "the monitor did not print the vpd-change of rack7-slot3"
kill -TERM "$MON_PID"
wait "$MON_PID"
check_eq "monitor exits 0 on SIGTERM" 0 "$?" || diag "$(<"$T_TMP/mon.err")"
MON_PID=
got=$(jq -r 'select(.switch == "pciesw40") |
	if .event == "threshold" then
		"threshold:\(."port-id"):\(."counter-id"):\(."counter-value"):\(."threshold-value")"
	elif .event == "thermal-alarm" then
		"thermal-alarm:\(."sensor-id"):\(."alarm-level"):\(."alarm-active")"
	elif .event == "vpd-change" then
		"vpd-change:" + ([."vpd-field"[] | select(."vpd-keyword" == "YA") | ."vpd-value"] | join(""))
	elif .event == "port-change" and (.changes | index("ber")) then
		"ber:\(."port-id"):\(."port-ber")"
	else empty end' "$T_TMP/mon" 2>&1)
want_ev=()
if ((HAVE_COUNTERS)); then
	want_ev+=("threshold:2:bad-tlp:12:10" "threshold:null:receiver-error:5:5"
		"ber:1:1000000000" "ber:1:0")
fi
if ((HAVE_THERMAL)); then
	want_ev+=("thermal-alarm:0:warning:true" "thermal-alarm:0:critical:true"
		"thermal-alarm:0:critical:false")
fi
((HAVE_VPD)) && want_ev+=("vpd-change:rack7-slot3")
mapfile -t lines <<<"$got"
i=0
for l in "${lines[@]}"; do
	((i < ${#want_ev[@]})) && [[ $l == "${want_ev[i]}" ]] && i=$((i + 1))
done
if ((i == ${#want_ev[@]})); then
	ok "monitor -j: threshold, ber, thermal-alarm and vpd-change events in order"
else
	fail "monitor -j: threshold, ber, thermal-alarm and vpd-change events in order"
	diag "missing from #$i: ${want_ev[i]}" "got:" "$got"
fi
# exactly one notification per threshold crossing
n=$(grep -c '"event":"threshold"' "$T_TMP/mon")
((HAVE_COUNTERS)) && check_eq "monitor -j: one threshold event per crossing" 2 "$n"

summary
