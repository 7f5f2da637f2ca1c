#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# /sys/bus/pciesw/new_device ("ID [PROFILE]") and del_device ("ID"): good
# input creates and removes switches with their sysfs device and /dev node;
# malformed input is refused with EINVAL and a pciesw line in the kernel
# log; a used id is EEXIST, a missing one ENODEV.
#
# Needs the module loaded (as selftests/run.sh does); uses ids 3-12, 255.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"

((EUID == 0)) || skip_all "needs root"
[[ -w $PCIESW_BUS/new_device ]] || bail "pciesw is not loaded (the runner loads it)"
[[ -x $PCIESW_TOOL ]] || bail "$PCIESW_TOOL not built (it is built with the tests)"

NEW=$PCIESW_BUS/new_device
DEL=$PCIESW_BUS/del_device
IDS=(1 2 3 4 5 6 7 8 9 10 11 12 255)

cleanup() {
	local id
	for id in "${IDS[@]}"; do
		[[ -e $PCIESW_DEVS/pciesw$id ]] && wr "$DEL" "$id"
	done
	rm -rf "$T_TMP"
}
trap cleanup EXIT
cleanup_before() {
	local id
	for id in "${IDS[@]}"; do
		[[ -e $PCIESW_DEVS/pciesw$id ]] && wr "$DEL" "$id"
	done
	return 0
}
cleanup_before

# exists ID PROFILE LANES PORTS: the switch is there, whole, as expected
switch_is() {
	local id=$1 d=$PCIESW_DEVS/pciesw$1 bad=
	[[ -d $d/ ]] || { diag "no $d"; return 1; }
	[[ -c /dev/pciesw$id ]] || { diag "no char device /dev/pciesw$id"; return 1; }
	rd "$d/switch_id"; [[ $R == "$id" ]] || bad+=" switch_id=$R"
	rd "$d/profile"; [[ $R == "$2" ]] || bad+=" profile=$R"
	rd "$d/lanes"; [[ $R == "$3" ]] || bad+=" lanes=$R"
	rd "$d/nr_ports"; [[ $R == "$4" ]] || bad+=" nr_ports=$R"
	rd "$d/dev"; [[ $R == *:"$id" ]] || bad+=" dev=$R"
	[[ -z $bad ]] || { diag "pciesw$id:$bad"; return 1; }
}

switch_gone() {
	count_switch_entries "$1"
	if [[ -e $PCIESW_DEVS/pciesw$1 || -e /dev/pciesw$1 || $R != 0 ]]; then
		diag "pciesw$1 left: $R sysfs entries, /dev node: $([[ -e /dev/pciesw$1 ]] && echo yes || echo no)"
		return 1
	fi
}

# ---- good input ------------------------------------------------------------

good=(
	"3"		3 pex89048 48 6
	"4 tiny8"	4 tiny8 8 3
	"5 pex89144"	5 pex89144 144 21
	$'6\n'		6 pex89048 48 6
	$'  7   tiny8  \n'	7 tiny8 8 3
	$'8\tpex89144'	8 pex89144 144 21
	$'\t9\n\n'	9 pex89048 48 6
	"255 tiny8"	255 tiny8 8 3
)
for ((i = 0; i < ${#good[@]}; i += 5)); do
	in=${good[i]} id=${good[i + 1]}
	shown=${in//$'\n'/\\n}
	shown=${shown//$'\t'/\\t}
	if wr "$NEW" "$in"; then
		check "new_device \"$shown\" creates pciesw$id (${good[i + 2]})" \
			switch_is "$id" "${good[i + 2]}" "${good[i + 3]}" "${good[i + 4]}"
	else
		fail "new_device \"$shown\" creates pciesw$id (${good[i + 2]})"
		diag "write: $W_ERR"
	fi
done

# ports of a switch are devices too, named after it
count_switch_entries 5
check_eq "pciesw5 has itself and 21 ports (and endpoints) on the bus" 1 \
	$((R >= 22))

# ---- malformed input -------------------------------------------------------

list_switches
before=$N_SWITCHES
long=$(printf '1%.0s' {1..200})
bad=(
	$'\n'			"empty line"
	"   "			"blanks only"
	"abc"			"not a number"
	"3x"			"number with a tail"
	"-1"			"negative"
	"256"			"id above 255"
	"4294967296"		"id above u32"
	"0x10"			"hex"
	"1 nosuch"		"unknown profile"
	"1 tiny8 extra"		"extra word"
	"1,tiny8"		"comma"
	"1 TINY8"		"profile in capitals"
	"$long"			"200-digit id"
	"1 $long"		"200-character profile"
	$'1\ntiny8'		"newline inside"
	$'1\n2'			"two lines"
)
for ((i = 0; i < ${#bad[@]}; i += 2)); do
	kmsg_mark "new-$i"
	if wr "$NEW" "${bad[i]}"; then
		fail "new_device refuses ${bad[i + 1]} with EINVAL"
		diag "write succeeded"
	else
		check_eq "new_device refuses ${bad[i + 1]} with EINVAL" \
			"Invalid argument" "$W_ERR"
	fi
done
list_switches
check_eq "malformed new_device input created nothing" "$before" "$N_SWITCHES"
check "no pciesw1 or pciesw2 appeared" \
	eval '[[ ! -e $PCIESW_DEVS/pciesw1 && ! -e $PCIESW_DEVS/pciesw2 ]]'

# ---- existing and missing ids ----------------------------------------------

kmsg_mark dup
if wr "$NEW" "3"; then
	fail "new_device of a used id: EEXIST"
else
	check_eq "new_device of a used id: EEXIST" "File exists" "$W_ERR"
fi
kmsg_mark dup-profile
wr "$NEW" "3 tiny8"
check_eq "new_device of a used id with another profile: EEXIST" "File exists" "$W_ERR"
check "the used id kept its switch" switch_is 3 pex89048 48 6

# ---- del_device ------------------------------------------------------------

check "del_device \"3\"" wr "$DEL" "3"
check "pciesw3, its ports and /dev/pciesw3 are gone" switch_gone 3
check "del_device \" 4 \\n\"" wr "$DEL" $' 4 \n'
check "pciesw4 is gone" switch_gone 4

kmsg_mark del-missing
wr "$DEL" "3"
check_eq "del_device of a missing id: ENODEV" "No such device" "$W_ERR"
wr "$DEL" "1"
check_eq "del_device of a never used id: ENODEV" "No such device" "$W_ERR"

badd=(
	$'\n'		"empty line"
	"abc"		"not a number"
	"5 tiny8"	"a profile"
	"5 5"		"two ids"
	"256"		"id above 255"
	"-5"		"negative"
	"5x"		"number with a tail"
	"$long"		"200-digit id"
)
for ((i = 0; i < ${#badd[@]}; i += 2)); do
	kmsg_mark "del-$i"
	if wr "$DEL" "${badd[i]}"; then
		fail "del_device refuses ${badd[i + 1]} with EINVAL"
	else
		check_eq "del_device refuses ${badd[i + 1]} with EINVAL" \
			"Invalid argument" "$W_ERR"
	fi
done
check "malformed del_device input kept pciesw5" switch_is 5 pex89144 144 21

# ---- what the kernel log says ----------------------------------------------

kmsg_snapshot
for ((i = 0; i < ${#bad[@]}; i += 2)); do
	check "kernel log explains new_device ${bad[i + 1]}" \
		kmsg_has "new-$i" "pciesw: new_device*"
done
for ((i = 0; i < ${#badd[@]}; i += 2)); do
	check "kernel log explains del_device ${badd[i + 1]}" \
		kmsg_has "del-$i" "pciesw: del_device*"
done
check "kernel log explains the used id" kmsg_has dup "pciesw: new_device 3*in use*"
check "kernel log explains the missing id" kmsg_has del-missing "pciesw: del_device 3*no such switch*"

# ---- the same id again ---------------------------------------------------

check "an id is free again after del_device" wr "$NEW" "3 tiny8"
check "and makes a new switch with the new profile" switch_is 3 tiny8 8 3
rd "$PCIESW_DEVS/pciesw3/serial_number"
serial3=$R
wr "$DEL" 3
wr "$NEW" "3 tiny8"
rd "$PCIESW_DEVS/pciesw3/serial_number"
check_eq "the same id and profile get the same serial number" "$serial3" "$R"

# the extremes of the id range
check "pciesw255 exists" switch_is 255 tiny8 8 3
check "del_device \"255\"" wr "$DEL" 255
check "pciesw255 is gone" switch_gone 255

# ---- create and delete under readers and a racing writer --------------------

# the debug plan: fewer rounds, and a pex89048 where a big card is raced
reduce 30 8 "create/delete rounds under readers"; ROUNDS=$R
reduce 40 10 "racing writer rounds"; RACES=$R
reduce pex89144 pex89048 "the big card of the create/delete rounds"; BIG=$R
"$PCIESW_TOOL" reader >"$T_TMP/reader.out" 2>&1 &
reader=$!
racer() {
	local i
	for ((i = 0; i < RACES; i++)); do
		printf '11 tiny8\n' >"$NEW" 2>/dev/null
		printf '11\n' >"$DEL" 2>/dev/null
	done
}
racer &
racer_pid=$!
errors=0
for ((i = 0; i < ROUNDS; i++)); do
	wr "$NEW" "12 $BIG" || { errors=$((errors + 1)); diag "new_device 12: $W_ERR"; }
	wr "$DEL" 12 || { errors=$((errors + 1)); diag "del_device 12: $W_ERR"; }
	wr "$NEW" "11 pex89048" || [[ $W_ERR == "File exists" ]] ||
		{ errors=$((errors + 1)); diag "new_device 11: $W_ERR"; }
	wr "$DEL" 11 || [[ $W_ERR == "No such device" ]] ||
		{ errors=$((errors + 1)); diag "del_device 11: $W_ERR"; }
done
wait "$racer_pid"
kill -TERM "$reader" 2>/dev/null
wait "$reader"
rstatus=$?
check_eq "$ROUNDS create/delete rounds under a reader and a racing writer" 0 "$errors"
check_eq "the reader survived" 0 "$rstatus"
rd "$T_TMP/reader.out"
diag "reader: $R"
# both writers end with a delete
check "raced ids leave nothing behind" eval 'switch_gone 11 && switch_gone 12'

# ---- everything removed ----------------------------------------------------

for id in "${IDS[@]}"; do
	[[ -e $PCIESW_DEVS/pciesw$id ]] && wr "$DEL" "$id"
done
all_gone=1
for id in "${IDS[@]}"; do
	switch_gone "$id" || all_gone=0
done
check_eq "del_device removed all test switches" 1 "$all_gone"

summary
