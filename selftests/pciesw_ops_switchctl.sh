#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# switchctl for operations: export (Prometheus text format: promtool
# check metrics passes, values as sysfs and hwmon show them, --textfile
# writes DIR/pciesw.prom and leaves no temporary file, bad directories
# refused); verify (--dump then verify passes; a changed expectation, a
# tolerance, a missing switch fail with a clear line and exit 1; bad JSON,
# unknown keys, wrong types, a missing file exit 2 naming the problem);
# PCI names in status, port show, ep list/show and show against
# /sys/bus/pci; the command-line habits (prefixes, -j after the command,
# --opt=value, an object alone, monitor filters and -t, extack errors,
# monitor's exit 3 when the module is unloaded; the module is reloaded).
#
# Fails when switchctl is not built; the export part skips without
# promtool (Debian package prometheus), the PCI-name part without the PCI
# view.  Uses switch ids 30-31.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
sctl_init 30 31

D=$PCIESW_DEVS
SW=pciesw30
T0=${EPOCHREALTIME/./}
lap() { diag "$1 at $(((${EPOCHREALTIME/./} - T0) / 1000)) ms"; }

wr "$PCIESW_BUS/new_device" "30 tiny8"
wr "$PCIESW_BUS/new_device" "31 tiny8"
settled $SW || diag "$SW did not settle"

# ---- export ---------------------------------------------------------------
lap "export"

sc_quiet "inject $SW 1 bad-tlp --count 5" inject $SW 1 bad-tlp --count 5
sc_quiet "inject $SW temp 50.5" inject $SW temp 50.5
sc_quiet "errors threshold $SW 1 bad-tlp 3" errors threshold $SW 1 bad-tlp 3

# parse_prom TEXT: samples into MET[series] = value; FAM HELP and TYPE counts
declare -A MET
parse_prom() {
	local l
	MET=()
	N_HELP=0 N_TYPE=0
	while IFS= read -r l; do
		case $l in
		"# HELP "*) N_HELP=$((N_HELP + 1)) ;;
		"# TYPE "*) N_TYPE=$((N_TYPE + 1)) ;;
		"#"* | "") ;;
		*) MET[${l% *}]=${l##* } ;;
		esac
	done <<<"$1"
}

sc_ok "export $SW" export $SW
EXPORT=$OUT
if command -v promtool >/dev/null; then
	res=$(promtool check metrics <<<"$EXPORT" 2>&1)
	check_eq "export: promtool check metrics finds nothing" "0:" "$?:$res"
else
	skip "export: promtool check metrics" "promtool (prometheus) not installed"
fi
parse_prom "$EXPORT"
check "export: HELP and TYPE for every family ($N_TYPE)" \
	eval '((N_TYPE > 20 && N_TYPE == N_HELP))'

P='{switch="pciesw30",port="0"}'
rd "$D/$SW-port0/current_link_width"
check_eq "export: upstream width = sysfs current_link_width" \
	"$R" "${MET[pciesw_port_link_width_lanes$P]:-}"
rd "$D/$SW-port0/current_link_speed"
# "16.0 GT/s PCIe" -> 16000000000
want=${R%% GT/s*}
want=$((${want%.*} * 1000000000 + ${want#*.} * 100000000))
check_eq "export: upstream speed in transfers/s (sysfs: $R)" \
	"$want" "${MET[pciesw_port_link_speed_transfers_per_second$P]:-}"
check_eq "export: upstream link up" 1 "${MET[pciesw_port_up$P]:-}"
rd "$D/$SW-port1/errors/bad_tlp"
check_eq "export: bad-tlp of port 1 = sysfs errors/bad_tlp = 5" "5 5" \
	"$R ${MET['pciesw_port_aer_errors_total{switch="pciesw30",port="1",class="correctable",counter="bad-tlp"}']:-}"
check_eq "export: uncorrectable counters too (acs-violation 0)" 0 \
	"${MET['pciesw_port_aer_errors_total{switch="pciesw30",port="1",class="uncorrectable",counter="acs-violation"}']:-}"
check "export: traffic bytes by direction and type" \
	eval '[[ ${MET['\''pciesw_port_traffic_bytes_total{switch="pciesw30",port="1",direction="ingress",type="non-posted"}'\'']:-} =~ ^[0-9]+$ ]]'
check_eq "export: the bad-tlp threshold crossed" 1 \
	"${MET['pciesw_threshold_crossed{switch="pciesw30",port="1",counter="bad-tlp"}']:-}"
temp=
for k in "${!MET[@]}"; do
	[[ $k == 'pciesw_temperature_celsius{switch="pciesw30",sensor="0",'* ]] && temp=${MET[$k]}
done
HW=
for h in "$D/$SW"/*thermal*/hwmon/hwmon*; do
	[[ -e $h/temp1_input ]] && HW=$h
done
rd "$HW/temp1_input"
check_eq "export: sensor 0 at the override, as hwmon temp1_input" \
	"50.500 50500" "$temp $R"
rd "$D/$SW/part_number"
check "export: pciesw_vpd_info has the part number of sysfs ($R)" \
	eval '[[ $EXPORT == *"pciesw_vpd_info{switch=\"pciesw30\""*"part_number=\"$R\""* ]]'
check_eq "export: no DMA in flight" 0 \
	"${MET['pciesw_dma_inflight_descriptors{switch="pciesw30"}']:-}"

TF=$T_TMP/textfile
mkdir "$TF"
sc_quiet "export --textfile=DIR (the = form)" export $SW --textfile="$TF"
shopt -s nullglob dotglob
files=("$TF"/*)
shopt -u nullglob dotglob
check "export --textfile: only DIR/pciesw.prom, mode 0644" \
	eval '[[ ${#files[@]} == 1 && ${files[0]} == "$TF/pciesw.prom" &&
		$(stat -c %a "$TF/pciesw.prom") == 644 ]]'
rd "$TF/pciesw.prom"
parse_prom "$(<"$TF/pciesw.prom")"
check "export --textfile: the same families as stdout" \
	eval '((N_TYPE > 20 && N_TYPE == N_HELP))'
sc_err "export --textfile missing dir: exit 1" 1 "No such file" \
	export --textfile "$TF/nope"
sc_err "export --textfile a file: exit 1" 1 "not a directory" \
	export --textfile "$TF/pciesw.prom"
sc_err "export --textfile without DIR: usage" 2 "needs a value" export --textfile

sc_quiet "inject $SW temp clear" inject $SW temp clear

# ---- verify ---------------------------------------------------------------
lap "verify"

AB=$T_TMP/asbuilt.json
sc_ok "verify --dump $SW" verify --dump $SW
printf '%s\n' "$OUT" >"$AB"
rd "$D/$SW/nr_ports"
check "verify --dump: format, version, switch, part number" \
	eval '[[ $OUT == *"\"format\": \"pciesw-as-built\""*"\"version\": 1"*"\"switch\": \"pciesw30\""*"\"part-number\": \"PSW-T8\""* ]]'
sc_ok "verify the dump: passes" verify "$AB"
check "verify: PASS lines and a summary with 0 failed" \
	eval '[[ $OUT == *"PASS pciesw30 port 0 width: expected "* &&
		$OUT == *" passed, 0 failed" && $OUT != *FAIL* ]]'
sc_ok "verify -j (after the command)" verify "$AB" -j
jqo '[.failed, (.checks | length) == .passed, .checks[0].result] | @tsv'
check_eq "verify -j: 0 failed, one entry per check" $'0\ttrue\tpass' "$J"

# changed expectations, in one file: every check says what it found
jq '.switches[0]."part-number" = "PSW-X1" |
	.switches[0].ports[0].width = 16 |
	.switches[0].ports[0].speed = ">=gen1" |
	.switches[0].ports[1] |= (del(.width) | ."min-width" = 16) |
	.switches += [{"switch": "pciesw32"}]' "$AB" >"$T_TMP/e.json"
rd "$D/$SW-port0/current_link_width"
w0=$R
rd "$D/$SW-port1/current_link_width"
w1=$R
sc verify "$T_TMP/e.json"
check "verify, changed expectations: exit 1, a FAIL line each, the tolerance passes" \
	eval '((RC == 1)) &&
	[[ $OUT == *"FAIL pciesw30 part-number: expected PSW-X1, found PSW-T8"* &&
	   $OUT == *"FAIL pciesw30 port 0 width: expected 16, found $w0"* &&
	   $OUT == *"PASS pciesw30 port 0 speed: expected >=gen1, found gen"* &&
	   $OUT == *"FAIL pciesw30 port 1 width: expected >=16, found $w1"* &&
	   $OUT == *"FAIL pciesw32 present: expected yes, found no"* &&
	   $OUT == *", 4 failed" ]]' || diag "$RC $OUT"
sc -j verify "$T_TMP/e.json"
jqo '[.checks[] | select(.result == "fail") | .check] | join(",")'
check_eq "verify -j, changed expectations: exit 1, the failed checks" \
	"1 part-number,width,width,present" "$RC $J"

printf '{"switches": [' >"$T_TMP/bad.json"
sc_err "verify, truncated JSON: exit 2" 2 "not valid JSON" verify "$T_TMP/bad.json"
printf '{"switches": [}' >"$T_TMP/bad.json"
sc_err "verify, invalid JSON: exit 2" 2 "not valid JSON" verify "$T_TMP/bad.json"
printf '{"switches": [{"switch": "pciesw30", "ports": [{"port": 0, "widht": 4}]}]}' >"$T_TMP/bad.json"
sc_err "verify, unknown key: exit 2, where and which, no checks printed" 2 \
	'switches[0].ports[0]: unknown key "widht"' verify "$T_TMP/bad.json"
printf '{"switches": [{"switch": "pciesw30", "serial": 5}]}' >"$T_TMP/bad.json"
sc_err "verify, a number for a string: exit 2" 2 '"serial" must be a string' \
	verify "$T_TMP/bad.json"
printf '{"switches": [{"switch": "pciesw30", "ports": [{"port": 1, "width": "wide"}]}]}' >"$T_TMP/bad.json"
sc_err "verify, a bad width: exit 2" 2 '"width" must be a width' verify "$T_TMP/bad.json"
sc_err "verify, missing file: exit 2" 2 "cannot open" verify "$T_TMP/none.json"
sc_err "verify without FILE: usage" 2 "missing FILE" verify

# ---- PCI names ---------------------------------------------------------------
lap "PCI"

sc -j show $SW
if [[ $OUT == *'"switch-pci-view":true'* ]]; then
	jqo '."switch-pci-domain"'
	rd "$D/$SW/pci_domain"
	check_eq "show -j: switch-pci-domain = sysfs pci_domain ($R)" $((16#$R)) "$J"
	dom=$R
	sc show $SW
	check "show: pci-view on, domain $dom" eval '[[ $OUT == *"pci-view on, domain $dom"* ]]'
	sc_ok "status -j $SW" -j status $SW
	bad=
	while IFS=$'\t' read -r port name w; do
		rd "/sys/bus/pci/devices/$name/current_link_width" || { bad+=" $port:$name"; continue; }
		[[ $R == "$w" ]] || bad+=" $port:$name:$R!=$w"
	done < <(jq -r '.ports[] | [."port-id", ."port-pci-name", ."port-width"] | @tsv' <<<"$OUT")
	check_eq "status -j: every port-pci-name is a PCI device with the port's width" "" "$bad"
	# port 0's name as the module gives it (checked above to be a device)
	name=$(jq -r '.ports[] | select(."port-id" == 0) | ."port-pci-name"' <<<"$OUT")
	sc status $SW
	check "status: the PCI column" eval '[[ $OUT == *PCI*"$name"* ]]'
	sc port show $SW 0
	check "port show: PCI $name" eval '[[ $OUT == *"PCI $name"* ]]'
	sc_ok "ep list -j $SW" -j ep list $SW
	bad=
	first=
	while IFS=$'\t' read -r ep name; do
		[[ -n $first ]] || first="$ep $name"
		[[ -e /sys/bus/pci/devices/$name ]] || bad+=" $ep:$name"
	done < <(jq -r '.endpoints[] | [."ep-name", ."ep-pci-name"] | @tsv' <<<"$OUT")
	check_eq "ep list -j: every ep-pci-name is a PCI device" "" "$bad"
	sc ep show $SW "${first% *}"
	check "ep show: PCI ${first#* }" eval '[[ $OUT == *"PCI ${first#* }"* ]]'
else
	# the debug plan's pci_view=0: no PCI names, said so
	check "show -j: switch-pci-view false" \
		eval '[[ $OUT == *"\"switch-pci-view\":false"* ]]'
	sc_ok "status -j $SW" -j status $SW
	jqo '[.ports[] | select(."port-pci-name" != null)] | length'
	check_eq "status -j: no port-pci-name without the PCI view" 0 "$J"
	sc port show $SW 0
	check "port show: PCI - without the PCI view" eval '[[ $OUT == *"PCI -"* ]]'
fi

# ---- habits -----------------------------------------------------------------
lap "habits"

sc_ok "prefixes: port sh" -j port sh $SW 0
check "port sh = port show" eval '[[ $OUT == *'\''"port-id":0,'\''* ]]'
sc_ok "-p after the command" ep list $SW -p
check "ep list -p: indented JSON" eval '[[ $OUT == *$'\''\n  '\''* ]]'
sc_ok "an object alone: ep SWITCH lists" -j ep $SW
check "ep SWITCH: the ep list" eval '[[ $OUT == *'\''"endpoints":[{'\''* ]]'
sc_ok "-- ends the options" -j status -- $SW
check "status -- SWITCH: that switch" eval '[[ $OUT == *'\''"switch":"pciesw30"'\''* ]]'
sc_err "ambiguous prefix: usage, the candidates" 2 'ambiguous command "e": ep, errors, export' e
sc_err "-V after the command: usage" 2 "goes before the command" status -V
# out of the spec's range: the policy refuses it, and switchctl names the
# attribute and the range from the extended ACK's policy bounds; in range
# but not a power of 2: the model's own reason
sc_err "extack: the context, the attribute and the policy's range (mps 64)" 1 \
	"cannot set switch 30: switch-mps: 64 is out of range 128-4096" switch set $SW mps 64
sc_err "extack: the policy's range (channels 17)" 1 \
	"switch-dma-channels: 17 is out of range 1-16" switch set $SW channels 17
sc_err "extack: the context, the attribute and the kernel's reason (mps 300)" 1 \
	"cannot set switch 30: switch-mps: MPS must be a power of 2" switch set $SW mps 300

# monitor SWITCH EVENT -t: only that switch's port changes, ISO 8601 stamps
lap "monitor"
"$SWITCHCTL" monitor $SW port-change -t -j >"$T_TMP/mon" 2>"$T_TMP/mon.err" &
MON_PID=$!
nap 0.5
onoff=on
for ((i = 0; i < 5; i++)); do
	# filtered out: another switch's change, and this one's settings;
	# then a port change of this one
	"$SWITCHCTL" switch set pciesw31 pacing $onoff 2>/dev/null
	"$SWITCHCTL" switch set $SW pacing $onoff 2>/dev/null
	"$SWITCHCTL" port set $SW 1 acs $onoff 2>/dev/null
	[[ $onoff == on ]] && onoff=off || onoff=on
	mon_wait '"event":"port-change"' "\"$SW\"" && break
done
mapfile -t lines <"$T_TMP/mon"
bad=
for l in "${lines[@]}"; do
	[[ $l == *'"event":"port-change"'* && $l == *'"switch":"'$SW'"'* &&
	   $l =~ \"timestamp\":\"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}[+-][0-9]{2}:[0-9]{2}\" ]] ||
		bad+="$l"$'\n'
done
check "monitor $SW port-change -t: only those, ISO 8601 timestamps (${#lines[@]} lines)" \
	eval '((${#lines[@]} > 0)) && [[ -z $bad ]]' || diag "$bad" "$(<"$T_TMP/mon.err")"
sc_err "monitor: a bad event name, usage" 2 'invalid event "bogus"' monitor $SW bogus

# the module goes away: the monitor says so and exits 3 (a supervisor restarts it)
lap "unload"
if [[ -n ${PCIESW_KO:-} && -r ${PCIESW_KO:-} ]]; then
	for id in 30 31; do
		[[ -e $D/pciesw$id ]] && wr "$PCIESW_BUS/del_device" $id
	done
	if mod_unload; then
		wait "$MON_PID"
		rc=$?
		MON_PID=
		check "monitor: module unloaded, exit 3 with a message" \
			eval '((rc == 3)) && [[ $(<"$T_TMP/mon.err") == *"module was unloaded"* ]]' ||
			diag "exit $rc: $(<"$T_TMP/mon.err")"
		load_module "$PCIESW_KO" || diag "insmod: $R"
		check "module reloaded" mod_loaded
	else
		fail "rmmod to see the monitor exit"
		diag "$R"
	fi
else
	fail "monitor on unload: PCIESW_KO does not name the module file (the runner sets it)"
fi

lap end
summary
