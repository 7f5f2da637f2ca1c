#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# switchctl top: batch mode's JSON (-j) with rates computed right from a
# known DMA copy (4 MiB nvme0 -> gpu0: read completions into nvme0's port,
# the read requests out of it, TLPs without payload, so no TX bytes, the
# writes out of gpu0's port, the 4 MiB nvme0
# counts as read; none for the GPU), error deltas and
# totals after injections, a threshold crossed and marked, a degraded
# link, the events in between; batch text (no escape codes, the degraded
# width, a disabled link and its event); unprivileged use (no serial, no
# error); usage errors.  The full-screen view under tmux at 80x24: the
# header and the rows fit, the keys (h, n/p, s, e, c), an event shown as
# it comes, a resize to 120x30 that adds the PCI columns, q and SIGTERM
# leaving the terminal restored (alternate screen off, exit 0).  Then the
# module unloaded under a screen and a batch run: both say so, wait, and
# show the card again once it is back.
#
# Uses switch id 46.  Under TCG each exec costs ~0.1 s: few of them.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
sctl_init 46
command -v tmux >/dev/null || skip_all "tmux not installed"

ID=46
# jqs FILTER: jq -r over the objects of $OUT as one array, into $J
jqs() {
	J=$(jq -rs "$1" <<<"$OUT" 2>&1)
}
SW=pciesw$ID
TMUX_SOCK=$T_TMP/tmux
tm() { tmux -S "$TMUX_SOCK" "$@"; }

wr "$PCIESW_BUS/new_device" "$ID"
settled "$SW" || diag "$SW did not settle"

# ---- usage -----------------------------------------------------------------

sc_err "top -d 0: exit 2" 2 "invalid delay" top -b -d 0
sc_err "top -n 0: exit 2" 2 "invalid number of iterations" top -b -n 0
sc_err "top without a terminal: exit 2" 2 "needs a terminal" top
sc_err "top of a switch that is not there: exit 1" 1 "no switch pciesw47" \
	top -b -n 1 pciesw47

# ---- batch JSON ------------------------------------------------------------

# wait_lines FILE N: until FILE has N lines (10 s, 50 s on the debug kernel)
L=()
wait_lines() {
	local n
	deadline 10000
	while before_deadline; do
		[[ -e $1 ]] || { nap 0.05; continue; }
		mapfile -t L <"$1"
		n=${#L[@]}
		((n >= $2)) && return 0
		nap 0.05
	done
	return 1
}

sc errors threshold "$SW" 3 bad-tlp 2
# every second until told to stop: the changes go in after the first
# snapshot, and it stops two snapshots after the last (however slow the
# guest, the snapshot that began after it has them all)
"$SWITCHCTL" top -j -d 1 "$SW" >"$T_TMP/top.json" 2>"$T_TMP/top.err" &
TOP_PID=$!
wait_lines "$T_TMP/top.json" 1 || diag "top -j printed nothing"
sc dma copy "$SW" nvme0:0 gpu0:0 --size 4M
check_eq "dma copy of 4 MiB nvme0 -> gpu0" 0 "$RC" || diag "$ERR"
sc inject "$SW" 3 bad-tlp --count 3
sc inject "$SW" 4 poisoned-tlp --count 2
sc inject "$SW" 1 lane 0xff00
settled "$SW"
mapfile -t L <"$T_TMP/top.json"
wait_lines "$T_TMP/top.json" $((${#L[@]} + 2)) || diag "top -j stopped"
kill -TERM "$TOP_PID"
wait "$TOP_PID"
check_eq "top -j: exit 0 on SIGTERM, nothing on stderr" "0 " "$? $(<"$T_TMP/top.err")"
OUT=$(<"$T_TMP/top.json")
jqs 'length'
check "top -j: one JSON object a line, at least three" \
	eval '[[ $J == "$(wc -l <"$T_TMP/top.json")" ]] && ((J >= 3))' || diag "$J"
jqs '[.[0]["interval-ns"] == null, all(.[1:][]; .["interval-ns"] > 0)] | map(tostring) | join(" ")'
check_eq "interval-ns: null first, then measured" "true true" "$J"
# rate = floor(bytes / interval): the bytes of the snapshots after the
# copy, sum(rate * interval), are at most the bytes and lose less than one
# a second
jqs '(map(.["interval-ns"] // 0) | add / 1e9) as $s |
	[.[1:][] | .["interval-ns"] as $ns | .switches[0].ports[] |
	 {p: .["port-id"], rx: (.["rx-bytes-per-sec"] * $ns / 1e9),
	  tx: (.["tx-bytes-per-sec"] * $ns / 1e9),
	  rxt: (.["rx-tlps-per-sec"] * $ns / 1e9),
	  txt: (.["tx-tlps-per-sec"] * $ns / 1e9)}] |
	group_by(.p) | map({p: .[0].p, rx: (map(.rx) | add),
		tx: (map(.tx) | add), rxt: (map(.rxt) | add),
		txt: (map(.txt) | add)}) |
	def near(v; n): v <= n + 0.5 and v > n - $s - 0.5;
	.[] | select(.p <= 2) |
	"\(.p) \(near(.rx; [0, 0, 4194304][.p])) \(near(.tx; [0, 4194304, 0][.p]))" +
	" \(near(.rxt; [0, 0, 16384][.p])) \(near(.txt; [0, 16384, 8192][.p]))"'
check_eq "4 MiB copy: port 2 in (its requests: TLPs only), port 1 out, port 0 nothing" \
	$'0 true true true true\n1 true true true true\n2 true true true true' "$J" ||
	diag "$(jq -c '.switches[0].ports[] | [."port-id", ."rx-bytes-per-sec", ."tx-bytes-per-sec"]' <<<"$OUT")"
# the drive counts the copy's reads of its window as the host's reads
jqs '(map(.["interval-ns"] // 0) | add / 1e9) as $s |
	[.[1:][] | .["interval-ns"] as $ns | .switches[0].endpoints[] |
	 select(.["ep-name"] == "nvme0") |
	 {r: (.["nvme-bytes-read-per-sec"] * $ns / 1e9),
	  w: (.["nvme-bytes-written-per-sec"] * $ns / 1e9),
	  c: .["nvme-host-reads-per-sec"]}] |
	def near(v; n): v <= n + 0.5 and v > n - $s - 0.5;
	"\(near(map(.r) | add; 4194304)) \(near(map(.w) | add; 0)) \(all(.[]; .c >= 0))"'
check_eq "drive rates from the 4 MiB copy: nvme0 read 4 MiB and wrote nothing" \
	"true true true" "$J" ||
	diag "$(jq -c '.switches[0].endpoints[] | select(."ep-name" == "nvme0")' <<<"$OUT")"
jqs '[.[1:][] | .switches[0].endpoints[] | select(.["ep-name"] == "gpu0") |
	.["nvme-bytes-read-per-sec"], .["nvme-host-writes-per-sec"]] | unique | map(tostring) | join(" ")'
check_eq "a GPU has no drive rates" "null" "$J"
jqs '.[-1].switches[0].ports[] | select(.["port-id"] >= 2) |
	"\(.["port-id"]) \(.["correctable-errors"]) \(.["correctable-errors-delta"]) \(.["uncorrectable-errors"]) \(.["uncorrectable-errors-delta"]) \(.["threshold-crossed"])"'
check_eq "error deltas and totals: 3 bad-tlp on port 3 (threshold crossed), 2 poisoned-tlp on port 4" \
	$'2 0 0 0 0 false\n3 3 3 0 0 true\n4 0 0 2 2 false\n5 0 0 0 0 false' "$J"
jqs '.[-1].switches[0] | [(.ports[] | select(.["port-id"] == 1) |
	.["link-state"], .["port-width"], .["port-max-width"], .["port-degraded"]),
	(.["thresholds-crossed"][] | .["port-id"], .["counter-id"])] | map(tostring) | join(" ")'
check_eq "port 1 degraded to x8 of 16; thresholds-crossed lists port 3 bad-tlp" \
	"up 8 16 true 3 bad-tlp" "$J"
jqs '[.[].events[] | select(.event == "port-change" and .["port-id"] == 1) |
	.changes[]] | index("degraded") != null'
check_eq "events: the degraded link of port 1" true "$J"
jqs '[.[].events[] | select(.event == "threshold")] | length'
check_eq "events: the threshold notification" 1 "$J"
jqs '.[0].switches[0] | [.["switch-name"], .["switch-profile"],
	(.["switch-serial"] != null), (.["fw-running-version"] != null),
	(.["thermal-sensor"] | length), (.endpoints | length),
	(.ports | length)] | map(tostring) | join(" ")'
check_eq "the card: name, profile, serial (root), firmware, 5 sensors, 5 endpoints, 6 ports" \
	"$SW pex89048 true true 5 5 6" "$J"

# ---- unprivileged ------------------------------------------------------------

as_nobody top -j -n 1 "$SW"
OUT_NOBODY=$OUT
jqo '[.switches[0] | has("switch-serial"), (.ports | length)] | map(tostring) | join(" ")'
check_eq "as nobody: exit 0, no stderr, no serial, the ports" "0  false 6" \
	"$RC $ERR $J"
OUT=$OUT_NOBODY

# ---- batch text --------------------------------------------------------------

# snapshots N: until top -b's output has N snapshots
snapshots() {
	deadline 10000
	while before_deadline; do
		mapfile -t L <"$T_TMP/top.txt"
		NSNAP=0
		for l in "${L[@]}"; do
			[[ $l == "switchctl top - "* ]] && NSNAP=$((NSNAP + 1))
		done
		((NSNAP >= $1)) && return 0
		nap 0.05
	done
	return 1
}

: >"$T_TMP/top.txt"
"$SWITCHCTL" top -b -d 1 "$SW" >"$T_TMP/top.txt" 2>"$T_TMP/top.err" &
TOP_PID=$!
snapshots 1
sc port set "$SW" 5 state down
snapshots $((NSNAP + 2))
kill -TERM "$TOP_PID"
wait "$TOP_PID"
check_eq "top -b: exit 0 on SIGTERM" 0 "$?"
OUT=$(<"$T_TMP/top.txt")
check "top -b: no escape codes" eval '[[ $OUT != *$'"'"'\e'"'"'* ]]'
check "top -b: three snapshots or more" eval '(($(grep -c "^switchctl top - " <<<"$OUT") >= 3))'
check "top -b: header with profile, firmware, temperatures and limits" \
	eval '[[ $OUT == *"$SW pex89048"*"fw "*"temp core "*"max 95.0"*"crit 105.0"* ]]' ||
	diag "$OUT"
check "top -b: port 1 x8/16* (degraded), port 3 +0/3! (threshold)" \
	eval '[[ $OUT =~ \ 1\ gpu\ +dn\ l0\ +5/5\ +x8/16\* && $OUT =~ \ 3\ nvme.*\+0/3! ]]' ||
	diag "$OUT"
check "top -b: port 5 disabled in the last snapshot, its event listed before" \
	eval '[[ $OUT =~ events:.*"$SW port 5: disabled".*\ 5\ nvme\ +dn\ disabled ]]' ||
	diag "$OUT"
sc port set "$SW" 5 state up

# ---- the screen --------------------------------------------------------------

# screen_has TEXT: until the pane shows TEXT (10 s, 50 s on the debug kernel)
screen_has() {
	deadline 10000
	while before_deadline; do
		SCREEN=$(tm capture-pane -p -t top 2>/dev/null)
		[[ $SCREEN == *"$1"* ]] && return 0
		nap 0.1
	done
	return 1
}

# key K TEXT DESC: send key K, then the screen shows TEXT
# start_screen ARGS...: top ARGS in the tmux session "top" at 80x24; its
# exit status goes to $T_TMP/rc (tmux does not always say it)
start_screen() {
	rm -f "$T_TMP/rc"
	tm -f /dev/null new-session -d -s top -x 80 -y 24 \
		"TERM=screen $SWITCHCTL top $*; echo \$? >$T_TMP/rc"
	tm set-option -t top remain-on-exit on >/dev/null
}

# dead_wait: until the pane's program exited; its status and whether the
# terminal is still on the alternate screen into $R
dead_wait() {
	deadline 5000
	while before_deadline && [[ ! -s $T_TMP/rc ]]; do
		nap 0.05
	done
	rd "$T_TMP/rc"
	R="$R $(tm display -p -t top '#{alternate_on}')"
}

key() {
	tm send-keys -t top "$1"
	check "screen: $3" screen_has "$2" || diag "$SCREEN"
}

start_screen -d 0.5
check "screen at 80x24: title, the first card's header and port table" \
	screen_has "pciesw0 pex89048" || diag "$SCREEN"
check "screen: every column up to EP fits in 80, the events below (line 18)" \
	eval '[[ $SCREEN == *"CERR     UERR EP"* &&
		$(sed -n 18p <<<"$SCREEN") == "events  sort: port"* ]]' ||
	diag "$SCREEN"
key n "$SW pex89048" "n: the next card"
key p "pciesw0 pex89048" "p: the previous card"
key n "$SW pex89048" "n again"
check "screen: port 1 x8/16* and port 3 +0/3! on $SW" \
	eval '[[ $SCREEN =~ x8/16\* && $SCREEN =~ \+0/3! ]]' || diag "$SCREEN"
key h "q        quit" "h: the help"
key x "sort: port" "any key leaves the help"
key s "sort: traffic" "s: sort by traffic"
key s "sort: errors" "s: sort by errors"
key e "errors only" "e: only the ports with errors"
check "e: ports 3 and 4 only" eval '[[ $(grep -cE "^ +[0-9]+ (host|gpu|nvme) " <<<"$SCREEN") == 2 ]]' ||
	diag "$SCREEN"
sc inject "$SW" 4 poisoned-tlp --count 1
check "a new error: +1 on port 4" screen_has "+1/3" || diag "$SCREEN"
key c "+0/3" "c: the deltas start again"
sc port set "$SW" 2 state down
check "an event shown as it comes" screen_has "$SW port 2: disabled" ||
	diag "$SCREEN"
sc port set "$SW" 2 state up
tm set-option -t top window-size manual >/dev/null
tm resize-window -t top -x 120 -y 30
check "resize to 120x30: redrawn with the PCI columns" screen_has "PORT-PCI" ||
	diag "$SCREEN"
check "resize: 30 lines used, the events below (line 23)" \
	eval '[[ $(tm display -p -t top "#{pane_height}") == 30 &&
		$(sed -n 23p <<<"$SCREEN") == "events  sort:"* ]]' || diag "$SCREEN"
tm send-keys -t top q
dead_wait
check_eq "q: exit 0, the terminal restored (no alternate screen)" "0 0" "$R"
tm kill-session -t top

# SIGTERM gives the terminal back too
start_screen -d 0.5 "$SW"
screen_has "$SW pex89048" || diag "$SCREEN"
# top: the child of the pane's shell
P=$(tm display -p -t top '#{pane_pid}')
# (pgrep: /proc/PID/task/PID/children needs CONFIG_PROC_CHILDREN, which
# the debug kernel does not have)
R=$(pgrep -P "$P")
kill -TERM "${R%%$'\n'*}"
dead_wait
check_eq "SIGTERM: exit 0, the terminal restored" "0 0" "$R"
tm kill-session -t top

# ---- the module unloaded under it ----------------------------------------------

start_screen -d 0.5
screen_has "pciesw0 pex89048" || diag "$SCREEN"
"$SWITCHCTL" top -j -d 0.5 >"$T_TMP/unload.json" 2>"$T_TMP/unload.err" &
TOP_PID=$!
wait_lines "$T_TMP/unload.json" 1
if check "rmmod under top" mod_unload; then
	check "screen: the module is not loaded, waiting" \
		screen_has "not loaded: waiting" || diag "$SCREEN"
	load_module "$PCIESW_KO"
	check_eq "the module loaded again" 0 "$?" || diag "$R"
	check "screen: the card again" screen_has "pciesw0 pex89048" ||
		diag "$SCREEN"
	wait_lines "$T_TMP/unload.json" $((${#L[@]} + 2))
fi
check "batch top still running" running "$TOP_PID"
kill -TERM "$TOP_PID"
wait "$TOP_PID"
check_eq "batch top: exit 0 on SIGTERM" 0 "$?"
OUT=$(<"$T_TMP/unload.json")
jqo '.["module-loaded"]' 
check "batch top -j: loaded, unloaded, loaded again (switches empty while away)" \
	eval '[[ $(uniq <<<"$J" | tr "\n" " ") == "true false true " ]]' ||
	diag "$J"
jqo 'select(.["module-loaded"] | not) | .switches | length'
check "batch top -j: no stale rows while unloaded" eval '[[ $(sort -u <<<"$J") == 0 ]]'
check "screen still running" eval '[[ ! -e $T_TMP/rc ]]'
tm send-keys -t top q
tm kill-server 2>/dev/null

summary
