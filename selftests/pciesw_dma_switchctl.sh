#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# switchctl's P2P DMA commands against the module and sysfs: "p2p check"
# for a direct route, one that ACS redirect sends through the host bridge
# and one the host bridge refuses (exit status, text, -j, the fix it
# names); "switch set" round trips with sysfs (host_p2p, dma_pacing, mps,
# dma_channels) both ways, its refusals (mps 100 and 300, channels 0 and
# 17, unprivileged) leaving sysfs as it was; "show" and "port show" with the
# settings and port-bandwidth as sysfs has them; "dma copy" status and
# bytes (ok, host buffers, refused with exit 1 and the status name, beyond
# the window, unprivileged); "-j dma bench" with sane numbers, no upstream
# bytes for direct P2P and upstream bytes for --bounce; pacing making wall
# time at least the modelled time; "monitor -j" seeing switch-change.
# Data integrity (pattern through mmap) is the C tests' job.
#
# Skipped when switchctl is not built or the module has no DMA settings.
# Uses switch ids 44-45.  The guest runs under TCG (each exec ~0.1 s): few
# execs.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
sctl_init 44 45

ID=44
SW=pciesw$ID
SW2=pciesw45
D=$PCIESW_DEVS

wr "$PCIESW_BUS/new_device" "$ID" || bail "cannot create $SW: $W_ERR"
sc -j show "$SW"
jqo '."switch-mps" // empty'
[[ -n $J ]] || bail "the module has no DMA settings (no switch-mps in switch-get)"

# the endpoints: EP_PORT[name]=port, EP_SIZE[name]=window bytes
declare -A EP_PORT EP_SIZE
sc -j ep list "$SW"
while read -r n p s; do
	EP_PORT[$n]=$p
	EP_SIZE[$n]=$s
done < <(jq -r '.endpoints[] | "\(."ep-name") \(."port-id") \(."ep-mem-size")"' <<<"$OUT")
NP=${EP_PORT[nvme0]:-}
GP=${EP_PORT[gpu0]:-}
[[ -n $NP && -n $GP ]] || bail "$SW has no nvme0 and gpu0: ${!EP_PORT[*]}"
UP=0
wait_attr "$D/$SW-port$NP/ltssm_state" l0 || diag "port $NP did not train"
wait_attr "$D/$SW-port$GP/ltssm_state" l0 || diag "port $GP did not train"

# ---- monitor, started first ---------------------------------------------
# shellcheck disable=SC2317 # called by start_monitor
pacing_poke() {
	sc switch set "$SW" pacing on
	sc switch set "$SW" pacing off
}
start_monitor pacing_poke
check_eq "monitor -j is running and reports" 0 "$?" ||
	diag "$(<"$T_TMP/mon.err")"

# ---- settings: show, switch set, sysfs ------------------------------------

# settings_sysfs: "host_p2p dma_pacing mps dma_channels dma_inflight" in $R
settings_sysfs() {
	local f v=
	for f in host_p2p dma_pacing mps dma_channels dma_inflight; do
		rd "$D/$SW/$f"
		v+="$R "
	done
	R=${v% }
}
JQ_SETTINGS='"\(if ."switch-host-p2p" then 1 else 0 end) \(if ."switch-dma-pacing" then 1 else 0 end) \(."switch-mps") \(."switch-dma-channels") \(."switch-dma-inflight")"'

settings_sysfs
check_eq "sysfs: the default settings" "1 0 256 4 0" "$R"
sc -j show "$SW"
jqo "$JQ_SETTINGS"
check_eq "show -j: the settings as sysfs has them" "$R" "$J"
sc switch show "$SW"
check "switch show: the settings line" \
	eval '[[ $RC == 0 && $OUT == *"host-p2p on pacing off mps 256 channels 4 (dma in flight 0)"* ]]' ||
	diag "$OUT"

sc_quiet "switch set: all four settings" \
	switch set "$SW" host-p2p off pacing on mps 512 channels 2
settings_sysfs
check_eq "sysfs after switch set" "0 1 512 2 0" "$R"
sc -j switch show "$SW"
jqo "$JQ_SETTINGS"
check_eq "switch show -j after switch set" "0 1 512 2 0" "$J"

for kv in host_p2p=1 dma_pacing=0 mps=4096 dma_channels=16; do
	wr "$D/$SW/${kv%=*}" "${kv#*=}" || diag "sysfs ${kv%=*}: $W_ERR"
done
sc -j show "$SW"
jqo "$JQ_SETTINGS"
check_eq "show -j after sysfs writes" "1 0 4096 16 0" "$J"
sc_quiet "switch set mps 256 channels 4" switch set "$SW" mps 256 channels 4

for bad in "mps 100" "mps 300" "mps 8192" "channels 0" "channels 17"; do
	# shellcheck disable=SC2086 # two words
	sc switch set "$SW" $bad
	settings_sysfs
	check "switch set $bad: exit 1, an error, sysfs unchanged" \
		eval '[[ $RC == 1 && $ERR == "error: "* && -z $OUT && $R == "1 0 256 4 0" ]]' ||
		diag "$RC $ERR / $R"
done
sc_err "switch set without a setting: exit 2" 2 "nothing to set" \
	switch set "$SW"
sc_err "switch set mps 1k: exit 2" 2 "invalid mps" switch set "$SW" mps 1k
sc_err "switch set pacing yes: exit 2" 2 "invalid pacing" \
	switch set "$SW" pacing yes
sc_err "switch set mps twice: exit 2" 2 "given twice" \
	switch set "$SW" mps 256 mps 512
sc_err "switch set on a missing switch: exit 1" 1 "" \
	switch set pciesw99 pacing on
as_nobody switch set "$SW" pacing on
settings_sysfs
check "nobody: switch set fails with exit 1 and an error, sysfs unchanged" \
	eval '[[ $RC == 1 && $ERR == "error: "*"not permitted"* && $R == "1 0 256 4 0" ]]' ||
	diag "$RC $ERR / $R"

# ---- port-bandwidth --------------------------------------------------------

rd "$D/$SW-port$GP/bandwidth"
BW_G=$R
rd "$D/$SW-port$NP/bandwidth"
BW_N=$R
sc -j port show "$SW" "$GP"
jqo '."port-bandwidth"'
check_eq "port show -j: port-bandwidth as sysfs bandwidth" "$BW_G" "$J"
check "port-bandwidth is not 0 on a trained link" eval '((BW_G > 0))'
sc port show "$SW" "$GP"
check "port show: the bandwidth each way" \
	eval '[[ $OUT == *"B/s each way"* ]]' || diag "$OUT"
sc -j status "$SW"
jqo "[.ports[] | select(.\"port-id\" == $NP) | .\"port-bandwidth\"][0]"
check_eq "status -j: port-bandwidth too" "$BW_N" "$J"
BOTTLENECK=$((BW_N < BW_G ? BW_N : BW_G))

# ---- p2p check -------------------------------------------------------------

JQ_P2P='"\(."p2p-route") \(."p2p-distance") \(."p2p-port" | join(",")) \(."p2p-redirect-port" | join(",")) \(."switch-host-p2p") \(."ep-name")>\(."peer-ep-name") \(.fix | join(";"))"'

sc p2p check "$SW" nvme0 gpu0
check "p2p check, direct: exit 0, route and distance" \
	eval '[[ $RC == 0 && $OUT == "$SW: nvme0 -> gpu0: direct, distance 4"* ]]' ||
	diag "$RC $ERR" "$OUT"
check "p2p check, direct: the ports with group and link" \
	eval '[[ $OUT == *"route: port $NP (nvme, "*" x"*") -> port $GP (gpu, "*")"* ]]' ||
	diag "$OUT"
check "p2p check, direct: the bottleneck, no reason, no fix" \
	eval '[[ $OUT == *"bottleneck: "*"B/s each way"* && $OUT != *"not direct"* && $OUT != *"direct with"* ]]' ||
	diag "$OUT"
sc p2p check "$SW" nvme0 gpu0 -j
jqo "$JQ_P2P"
check_eq "p2p check -j, direct" "direct 4 $NP,$GP  true nvme0>gpu0 " "$J"
jqo '."p2p-bandwidth"'
check_eq "p2p check -j: p2p-bandwidth is the slower port's bandwidth" \
	"$BOTTLENECK" "$J"
jqo '[.ports[] | "\(."port-id"):\(."group-name"):\(."port-bandwidth")"] | join(" ")'
check_eq "p2p check -j: the ports of the route" \
	"$NP:nvme:$BW_N $GP:gpu:$BW_G" "$J"
as_nobody -j p2p check "$SW" gpu0 nvme0
jqo "$JQ_P2P"
check_eq "nobody: p2p check works (the other way)" \
	"direct 4 $GP,$NP  true gpu0>nvme0 " "$J"

sc_quiet "port set $SW $NP acs on" port set "$SW" "$NP" acs on
sc p2p check "$SW" nvme0 gpu0
check "p2p check, ACS redirect: exit 0, through the host bridge" \
	eval '[[ $RC == 0 && $OUT == "$SW: nvme0 -> gpu0: through the host bridge, distance 8"* ]]' ||
	diag "$RC $ERR" "$OUT"
check "p2p check, ACS redirect: the reason and the fix" \
	eval '[[ $OUT == *"not direct: ACS redirect is on at port $NP"* && $OUT == *"direct with: switchctl port set $SW $NP acs off"* ]]' ||
	diag "$OUT"
check "p2p check, ACS redirect: the upstream port in the route" \
	eval '[[ $OUT == *"-> port $UP (host, "* ]]' || diag "$OUT"
sc -j p2p check "$SW" nvme0 gpu0
jqo "$JQ_P2P"
check_eq "p2p check -j, ACS redirect" \
	"host-bridge 8 $NP,$UP,$UP,$GP $NP true nvme0>gpu0 switchctl port set $SW $NP acs off" "$J"

sc_quiet "switch set host-p2p off" switch set "$SW" host-p2p off
sc p2p check "$SW" nvme0 gpu0
check "p2p check, refused: exit 1, the report, an error line" \
	eval '[[ $RC == 1 && $OUT == "$SW: nvme0 -> gpu0: refused"* && $ERR == "error: "*"refused"* ]]' ||
	diag "$RC $ERR" "$OUT"
check "p2p check, refused: the host bridge and its fix" \
	eval '[[ $OUT == *"the host bridge does not forward P2P: switchctl switch set $SW host-p2p on"* && $OUT == *"direct with: switchctl port set $SW $NP acs off"* ]]' ||
	diag "$OUT"
sc -j p2p check "$SW" nvme0 gpu0
jqo '"\(."p2p-route") \(."p2p-redirect-port" | join(",")) \(."switch-host-p2p") \(.fix | join(";"))"'
check_eq "p2p check -j, refused: exit 1" 1 "$RC"
check_eq "p2p check -j, refused" \
	"refused $NP false switchctl port set $SW $NP acs off;switchctl switch set $SW host-p2p on" "$J"

# DMA on the refused route
sc -j errors "$SW" "$NP"
jqo '.counter."acs-violation"'
ACS0=$J
sc dma copy "$SW" nvme0:0 gpu0:0 --size 64K
check "dma copy, refused: exit 1, the status name" \
	eval '[[ $RC == 1 && $ERR == "error: "*"p2p-refused"* && $OUT == *"(1 p2p-refused)"* ]]' ||
	diag "$RC $ERR" "$OUT"
sc -j dma copy "$SW" nvme0:0 gpu0:0 --size 64K
jqo '"\(.bytes) \(.completions) \(.status | to_entries | map("\(.key)=\(.value)") | join(","))"'
check_eq "dma copy -j, refused: nothing moved, status p2p-refused" \
	"0 1 p2p-refused=1" "$J"
sc -j errors "$SW" "$NP"
jqo '.counter."acs-violation"'
check_eq "refused DMA: an acs-violation per transfer on the ingress port" \
	$((ACS0 + 2)) "$J"
sc -j p2p check "$SW" gpu0 nvme1
jqo '."p2p-route"'
check_eq "p2p check, ports without ACS redirect: direct still" direct "$J"

sc_quiet "switch set host-p2p on" switch set "$SW" host-p2p on
sc -j dma copy "$SW" nvme0:0 gpu0:0 --size 64K
jqo '"\(.bytes) \(.status.ok)"'
check "dma copy through the host bridge: ok" \
	eval '[[ $RC == 0 && $J == "65536 1" ]]' || diag "$RC $ERR $J"
sc_quiet "port set $SW $NP acs off" port set "$SW" "$NP" acs off
sc -j p2p check "$SW" nvme0 gpu0
jqo '."p2p-route"'
check_eq "p2p check: direct again" direct "$J"
sc_err "p2p check of a missing endpoint: exit 1" 1 "" \
	p2p check "$SW" nvme0 nosuch9
sc_err "p2p check without the peer: exit 2" 2 "missing endpoint" \
	p2p check "$SW" nvme0

# ---- dma copy --------------------------------------------------------------

sc dma copy "$SW" nvme0:0 gpu0:4096 --size 1M
check "dma copy nvme0 -> gpu0: exit 0, bytes and status" \
	eval '[[ $RC == 0 && -z $ERR && $OUT == "$SW: nvme0:0 -> gpu0:4096: 1048576 bytes in 1 transfers (1 ok), wall "*", modelled "* ]]' ||
	diag "$RC $ERR" "$OUT"
sc -j dma copy "$SW" nvme0:4K gpu0:1M -s 3M
jqo '"\(.src) \(.dst) \(.size) \(.bytes) \(.completions) \(.status.ok) \(."wall-ns" > 0) \(."modelled-ns" > 0)"'
check_eq "dma copy -j" "nvme0:4096 gpu0:1048576 3145728 3145728 1 1 true true" "$J"
sc -j dma copy "$SW" host gpu0:0 --size 100000
jqo '"\(.src) \(.bytes) \(.status.ok)"'
check_eq "dma copy from host memory" "host 100000 1" "$J"
sc -j dma copy "$SW" nvme0 host --size 100000
jqo '"\(.dst) \(.bytes) \(.status.ok)"'
check_eq "dma copy to host memory" "host 100000 1" "$J"
sc_err "dma copy beyond the window: exit 1" 1 "beyond the end" \
	dma copy "$SW" "gpu0:${EP_SIZE[gpu0]}" nvme0 --size 1
sc_err "dma copy of a missing endpoint: exit 1" 1 "" \
	dma copy "$SW" nosuch9 gpu0 --size 1
sc_err "dma copy host to host: exit 2" 2 "host on both sides" \
	dma copy "$SW" host host --size 1
sc_err "dma copy without --size: exit 2" 2 "missing --size" \
	dma copy "$SW" nvme0 gpu0
sc_err "dma copy --size 0: exit 2" 2 "invalid --size" \
	dma copy "$SW" nvme0 gpu0 --size 0
as_nobody dma copy "$SW" nvme0 gpu0 --size 4K
check "nobody: dma copy fails with exit 1 and an error" \
	eval '[[ $RC == 1 && $ERR == "error: cannot open /dev/$SW"* ]]' ||
	diag "$RC $ERR"

# ---- dma bench -------------------------------------------------------------

JQ_BENCH='"\(.bytes) \(.completions) \(.status | to_entries | map("\(.key)=\(.value)") | join(",")) \(.block) \(.depth) \(.channels) \(.bounce) \(."wall-ns" > 0) \(."bytes-per-s" > 0) \(."completions-per-s" > 0) \(."modelled-ns" > 0) \(."upstream-port")"'
sc -j dma bench "$SW" nvme0 gpu0 --size 16M --block 256K --depth 8 --channels 2
jqo "$JQ_BENCH"
check_eq "dma bench -j, P2P: sane numbers" \
	"16777216 64 ok=64 262144 8 2 false true true true true $UP" "$J" ||
	diag "$RC $ERR" "$OUT"
jqo '."upstream-bytes"'
check_eq "dma bench -j, P2P: no bytes on the upstream port" 0 "$J"
jqo '(."bytes-per-s" * ."wall-ns" / 1e9 / .bytes * 100 | round)'
check "dma bench -j: throughput x wall time = bytes" \
	eval '((J >= 98 && J <= 102))' || diag "$J"

sc -j dma bench "$SW" nvme0 gpu0 -s 16M -b 256K -q 8 -c 2 --bounce
jqo "$JQ_BENCH"
check_eq "dma bench -j --bounce: two transfers a block" \
	"16777216 128 ok=128 262144 8 2 true true true true true $UP" "$J" ||
	diag "$RC $ERR" "$OUT"
jqo '."upstream-bytes"'
check_eq "dma bench -j --bounce: the data crossed the upstream port up and down" \
	$((2 * 16777216)) "$J"

sc dma bench "$SW" nvme0 gpu0 --size 4M --block 1M
check "dma bench (text): the report" \
	eval '[[ $RC == 0 && $OUT == "$SW: nvme0:0 -> gpu0:0, 4M in 1M blocks, depth 16, 4 channels"*"upstream:  port $UP, 0 bytes"* ]]' ||
	diag "$RC $ERR" "$OUT"
sc_err "dma bench --channels beyond the switch's: exit 1" 1 "DMA channels" \
	dma bench "$SW" nvme0 gpu0 --size 1M --channels 8
sc_err "dma bench --bounce from the host: exit 2" 2 "--bounce" \
	dma bench "$SW" host gpu0 --size 1M --bounce
sc_err "dma bench --depth 0: exit 2" 2 "invalid --depth" \
	dma bench "$SW" nvme0 gpu0 --size 1M --depth 0

# pacing: one transfer at a time, each not done before its modelled end
sc_quiet "switch set pacing on" switch set "$SW" pacing on
sc -j dma bench "$SW" nvme0 gpu0 --size 8M --block 1M --depth 1 --channels 1
jqo '"\(.status.ok) \(."wall-ns" >= ."modelled-ns")"'
check_eq "dma bench -j, paced: wall time at least the modelled time" \
	"8 true" "$J" || diag "$OUT"
sc_quiet "switch set pacing off" switch set "$SW" pacing off

# a second shape: tiny8, Gen4 x2 endpoints
if wr "$PCIESW_BUS/new_device" "45 tiny8"; then
	wait_attr "$D/$SW2-port1/ltssm_state" l0
	wait_attr "$D/$SW2-port2/ltssm_state" l0
	sc -j p2p check "$SW2" nvme0 nvme1
	jqo '"\(."p2p-route") \(."p2p-distance") \(."p2p-bandwidth")"'
	rd "$D/$SW2-port1/bandwidth"
	check_eq "tiny8: p2p check nvme0 nvme1 direct, the port's bandwidth" \
		"direct 4 $R" "$J"
	sc -j dma bench "$SW2" nvme0 nvme1 --size 2M --block 64K
	jqo '"\(.status.ok) \(.channels) \(."upstream-bytes")"'
	check_eq "tiny8: dma bench on all the switch's channels" "32 4 0" "$J"
else
	fail "tiny8 switch: cannot create it: $W_ERR"
fi

# ---- monitor ---------------------------------------------------------------
# pciesw45's switch-create came after every change of $SW
mon_wait '"event":"switch-create"' '"pciesw45"' ||
	diag "the monitor did not print pciesw45's switch-create"
kill "$MON_PID" 2>/dev/null
wait "$MON_PID" 2>/dev/null
MON_PID=
got=$(jq -r 'select(.event == "switch-change" and .switch == "'"$SW"'") |
	"\(if ."switch-host-p2p" then 1 else 0 end)\(if ."switch-dma-pacing" then 1 else 0 end):\(."switch-mps"):\(."switch-dma-channels")"' \
	"$T_TMP/mon" 2>&1 | tr '\n' ' ')
check "monitor -j: switch-change events with the settings" \
	eval '[[ $got == *"11:256:4 "*"10:256:4 "*"01:512:2 "* ]]' ||
	diag "$got"

summary
