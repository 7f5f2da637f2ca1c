#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# switchctl on the live topology: lanes set (by group name and id, refused
# configs, unknown groups: exit statuses and the kernel's error text),
# ep add/del (and their refusals), port set (failed lanes, state, surprise
# down, retrain), "-j status" against sysfs for every port, and "monitor
# -j" capturing the whole sequence, one JSON object per line, in order.
# Unprivileged: reads work, changes fail with exit 1.
#
# Skipped when switchctl is not built.  Uses switch ids 240-241.  The
# guest runs under TCG (each exec ~0.1 s, ~1 s on the debug kernel): the
# checks use bash builtins and few jq calls.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
sctl_init 240 241

ID=240
SW=pciesw$ID
D=$PCIESW_DEVS

speed_gen() {
	case $1 in
	"2.5 GT/s PCIe") R=gen1 ;; "5.0 GT/s PCIe") R=gen2 ;;
	"8.0 GT/s PCIe") R=gen3 ;; "16.0 GT/s PCIe") R=gen4 ;;
	"32.0 GT/s PCIe") R=gen5 ;; *) R=none ;;
	esac
}

# The ports of $SW as sysfs shows them, one TSV line each, as jq prints
# them from "switchctl -j status".
sysfs_ports() {
	local p d ltssm width speed deg en failed acs ep role ids=()
	# the port devices there are, by number (numbers can have gaps)
	for d in "$D/$SW"-port*; do
		[[ -e $d ]] && ids+=("${d##*-port}")
	done
	SYSFS_PORTS=
	for p in $(printf '%s\n' "${ids[@]}" | sort -n); do
		d=$D/$SW-port$p
		rd "$d/ltssm_state"; ltssm=$R
		rd "$d/current_link_width"; width=$R
		rd "$d/current_link_speed"; speed_gen "$R"; speed=$R
		rd "$d/degraded"; deg=$R
		rd "$d/enabled"; en=$R
		rd "$d/failed_lanes"; failed=$((R))
		rd "$d/role"; role=$R
		rd "$d/acs_redirect"; acs=$R
		[[ $role == upstream ]] && acs=null
		rd "$d/endpoint"; ep=${R:-null}
		SYSFS_PORTS+="$p	$role	$ltssm	$width	$speed	$deg	$en	$failed	$acs	$ep"$'\n'
	done
	SYSFS_PORTS=${SYSFS_PORTS%$'\n'}
}

JQ_PORTS='.ports[] | [."port-id", ."port-role", ."port-ltssm",
	."port-width", ."port-speed", (if ."port-degraded" then 1 else 0 end),
	(if ."port-enabled" then 1 else 0 end), ."port-failed-lanes",
	(if ."port-acs-redirect" == null then "null"
	 elif ."port-acs-redirect" then 1 else 0 end),
	(."ep-name" // "null")] | @tsv'

# status_matches_sysfs DESC: "switchctl -j status" = sysfs, every port
status_matches_sysfs() {
	sc -j status "$SW"
	local got
	got=$(jq -r "$JQ_PORTS" <<<"$OUT" 2>&1)
	sysfs_ports
	check_eq "$1" "$SYSFS_PORTS" "$got"
}

wr "$PCIESW_BUS/new_device" "$ID"
settled "$SW" || diag "$SW did not train"

# ---- monitor, started first ---------------------------------------------

# an ACS change is what it must see before the test goes on
acs_poke() {
	sc port set "$SW" 2 acs on
	sc port set "$SW" 2 acs off
}
start_monitor acs_poke
check_eq "monitor -j is running and reports" 0 "$?"
check_eq "monitor -j did not die while it started" 0 "$MON_RESTARTS"

# ---- lanes set -----------------------------------------------------------

sc_ok "lanes set $SW nvme 16x1" lanes set "$SW" nvme 16x1
check_attr "sysfs: nvme is 16x1" "$D/$SW/group_nvme/config" 16x1
check_attr "sysfs: 18 ports" "$D/$SW/nr_ports" 18
sc_ok "lanes set $ID 2 2x8 (switch and group by number)" lanes set "$ID" 2 2x8
check_attr "sysfs: nvme is 2x8" "$D/$SW/group_nvme/config" 2x8
sc -j lanes show "$SW"
got=$(jq -r '.groups[] | select(."group-name" == "nvme") |
	."group-config", (.ports | map(tostring) | join(","))' <<<"$OUT" 2>&1 |
	tr '\n' ' ')
check_eq "lanes show -j: nvme 2x8 on ports 2 and 4 (lanes 32, 40)" "2x8 2,4 " "$got"

sc_err "lanes set 3x5: exit 1, the kernel's reason" 1 \
	"bifurcation not allowed for this lane group" lanes set "$SW" nvme 3x5
sc_err "lanes set 32x1: exit 1" 1 \
	"bifurcation not allowed for this lane group" lanes set "$SW" nvme 32x1
sc_err "lanes set of the host group to 2x8: exit 1" 1 \
	"bifurcation not allowed for this lane group" lanes set "$SW" host 2x8
sc_err "lanes set of an unknown group: exit 1" 1 \
	"no such lane group on this switch" lanes set "$SW" nosuch 4x4
sc_err "lanes set of group id 9: exit 1" 1 \
	"no such lane group on this switch" lanes set "$SW" 9 4x4
sc_err "lanes set of a missing switch: exit 1" 1 "no such switch" \
	lanes set pciesw99 nvme 4x4
sc_err "lanes set with a malformed config: exit 2" 2 "" \
	lanes set "$SW" nvme bogus
sc lanes set "$SW" nvme
check_eq "lanes set without a config: exit 2" 2 "$RC"
check_attr "after the refusals nvme is still 2x8" "$D/$SW/group_nvme/config" 2x8
settled "$SW" || diag "$SW did not train after 2x8"

# ---- ep del / add --------------------------------------------------------

sc_ok "ep del $SW nvme1" ep del "$SW" nvme1
check "the device pciesw240-nvme1 is gone" test ! -e "$D/$SW-nvme1"
check_attr "port 4 is empty" "$D/$SW-port4/endpoint" ""
sc_err "ep add with width 3: exit 1" 1 "width must be 1, 2, 4, 8 or 16" \
	ep add "$SW" 4 nvme width 3
sc_err "ep add with a size that is not whole pages: exit 1" 1 \
	"memory size must be a multiple of the page size" \
	ep add "$SW" 4 nvme size 4097
sc -j ep add "$SW" 4 nvme width 16
got=$(jq -r '[."ep-name", ."port-id", ."ep-max-width", ."ep-type"] | @tsv' \
	<<<"$OUT" 2>&1)
check_eq "ep add -j: prints the new endpoint" $'0 nvme1\t4\t16\tnvme' "$RC $got" ||
	diag "$ERR"
check "the device pciesw240-nvme1 is under pciesw240-port4" \
	test -e "$D/$SW-port4/$SW-nvme1"
sc_err "ep add on the upstream port: exit 1" 1 \
	"endpoints attach to downstream ports only" ep add "$SW" 0 gpu
sc_err "ep add on an occupied port: exit 1" 1 "port already has an endpoint" \
	ep add "$SW" 4 gpu
sc_err "ep del of an unknown endpoint: exit 1" 1 \
	"no such endpoint on this switch" ep del "$SW" nosuch
wait_attr "$D/$SW-port4/current_link_width" 8 ||
	diag "port 4 did not train x8"

# ---- port set ------------------------------------------------------------

sc_ok "port set failed-lanes 0x8000" port set "$SW" 1 failed-lanes 0x8000
wait_attr "$D/$SW-port1/current_link_width" 8
check_attr "lane 15 dead: the x16 link retrains x8" "$D/$SW-port1/current_link_width" 8
check_attr "... degraded" "$D/$SW-port1/degraded" 1
check_attr "... failed_lanes 0x8000" "$D/$SW-port1/failed_lanes" 0x8000
status_matches_sysfs "status -j: every port as sysfs shows it (degraded link)"

sc_ok "port set state down" port set "$SW" 1 state down
check_attr "disabled: enabled 0" "$D/$SW-port1/enabled" 0
check_attr "disabled: ltssm disabled" "$D/$SW-port1/ltssm_state" disabled
check_attr "disabled: link down" "$D/$SW-port1/link_state" down
check_attr "disabled: speed Unknown" "$D/$SW-port1/current_link_speed" Unknown
status_matches_sysfs "status -j: every port as sysfs shows it (disabled link)"
sc_err "port set retrain of a disabled link: exit 1" 1 "link is disabled" \
	port set "$SW" 1 retrain
sc_ok "port set state up" port set "$SW" 1 state up
wait_attr "$D/$SW-port1/ltssm_state" l0
check_attr "enabled: trained again" "$D/$SW-port1/ltssm_state" l0

sc_ok "port set surprise-down" port set "$SW" 1 surprise-down
check_attr "surprise down: detect" "$D/$SW-port1/ltssm_state" detect
check_attr "surprise down: counted" "$D/$SW-port1/surprise_down_count" 1
sc_err "port set surprise-down of a link that is down: exit 1" 1 \
	"link is not up" port set "$SW" 1 surprise-down
sc_ok "port set retrain" port set "$SW" 1 retrain
wait_attr "$D/$SW-port1/ltssm_state" l0
check_attr "retrained: x8 still (lane 15 is dead)" "$D/$SW-port1/current_link_width" 8
sc_ok "port set failed-lanes none" port set "$SW" 1 failed-lanes none
wait_attr "$D/$SW-port1/current_link_width" 16
check_attr "repaired: x16" "$D/$SW-port1/current_link_width" 16
check_attr "repaired: not degraded" "$D/$SW-port1/degraded" 0
sc_ok "port set speed gen3" port set "$SW" 0 speed gen3
wait_attr "$D/$SW-port0/current_link_speed" "8.0 GT/s PCIe"
settled "$SW"
status_matches_sysfs "status -j: every port as sysfs shows it (Gen3 upstream)"

# ---- switches ------------------------------------------------------------

sc_ok "switch add 241 tiny8" switch add 241 tiny8
sc_ok "switch del 241" switch del 241

# ---- unprivileged --------------------------------------------------------

if command -v setpriv >/dev/null; then
	as_nobody lanes set "$SW" nvme 4x4
	check "nobody: lanes set fails with exit 1 and an error" \
		eval '[[ $RC == 1 && $ERR == "error: "* ]]' || diag "$RC $ERR"
	check_attr "nobody: nvme is still 2x8" "$D/$SW/group_nvme/config" 2x8
	as_nobody ep del "$SW" nvme0
	check "nobody: ep del fails with exit 1" eval '[[ $RC == 1 ]]'
	check "nobody: nvme0 is still there" test -e "$D/$SW-nvme0"
	as_nobody -j lanes show "$SW"
	check_eq "nobody: lanes show works" 0 "$RC"
else
	# util-linux is always installed: a missing setpriv is a broken guest
	fail "unprivileged switchctl: no setpriv (util-linux)"
fi

# ---- what the monitor saw ------------------------------------------------

# pciesw241's switch-delete is the last event of the sequence
mon_wait '"event":"switch-delete"' '"pciesw241"' ||
	diag "the monitor did not print pciesw241's switch-delete"
kill -TERM "$MON_PID"
wait "$MON_PID"
check_eq "monitor exits 0 on SIGTERM" 0 "$?" || diag "$(<"$T_TMP/mon.err")"
MON_PID=
# every line one JSON object with an event
got=$(jq -r 'select(.switch == "pciesw240" or .switch == "pciesw241") |
	.event + ":" + (if .event == "group-change" then
		."group-name" + ":" + ."group-config"
	elif .event == "ep-add" or .event == "ep-del" then
		."ep-name" + ":" + (."port-id" | tostring)
	elif .event == "port-change" then
		(."port-id" | tostring) + ":w" + (."port-width" | tostring) +
		":deg=" + (."port-degraded" | tostring) + ":" +
		(.changes | join(","))
	else .switch end)' "$T_TMP/mon" 2>&1)
check "monitor -j: one JSON object per line" \
	eval '[[ $(jq -r .event "$T_TMP/mon" 2>&1 | grep -vc "^[a-z-]*$") == 0 ]]'
# the sequence, in order (other events may come in between)
want=(
	"group-change:nvme:16x1"
	"group-change:nvme:2x8"
	"ep-del:nvme1:4"
	"ep-add:nvme1:4"
	"port-change:1:w16:deg=false:failed-lanes"
	"port-change:1:w8:deg=true:degraded*"
	"port-change:1:w0:deg=false:disabled*"
	"port-change:1:w0:*enabled*"
	"port-change:1:w8:deg=true:link-up*"
	"port-change:1:w0:*surprise-down*"
	"port-change:1:w8:deg=true:link-up*"
	"port-change:1:w16:deg=false:degraded-cleared*"
	"switch-create:pciesw241"
	"switch-delete:pciesw241"
)
mapfile -t lines <<<"$got"
i=0
for l in "${lines[@]}"; do
	# shellcheck disable=SC2053 # want[] are patterns
	((i < ${#want[@]})) && [[ $l == ${want[i]} ]] && i=$((i + 1))
done
if ((i == ${#want[@]})); then
	ok "monitor -j: the sequence in order"
else
	fail "monitor -j: the sequence in order"
	diag "missing from #$i: ${want[i]}" "got:" "$got"
fi

summary
