#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# switchctl (userspace/switchctl) against sysfs: -j list/show/status carry
# the spec's attribute names and the values sysfs shows; switch add/del;
# "error: ..." and exit 1 when the kernel refuses, 2 on usage errors, 3
# when the module is not loaded; unprivileged reads work, changes do not;
# each command's --help names the capability the kernel asks of it.
#
# Fails when switchctl is not built.  Needs the module loaded and PCIESW_KO
# (run.sh sets both): it unloads the module to check exit status 3 and
# reloads it with PCIESW_MODARGS.  Uses switch ids 20-23.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
IDS=(20 21 22 23)
sctl_init "${IDS[@]}"

# The sysfs view of every switch, one TSV line each, as jq will print it.
sysfs_switch_lines() {
	local s d
	list_switches
	SYSFS_LINES=
	for s in "${SWITCHES[@]}"; do
		d=$PCIESW_DEVS/$s
		local id prof lanes serial ports
		rd "$d/switch_id"; id=$R
		rd "$d/profile"; prof=$R
		rd "$d/lanes"; lanes=$R
		rd "$d/serial_number"; serial=$R
		rd "$d/nr_ports"; ports=$R
		SYSFS_LINES+="$id	$s	$prof	$lanes	$serial	$ports"$'\n'
	done
}

# wait for the upstream link of pcieswN to train (modeled time)
wait_l0() {
	wait_attr "$PCIESW_DEVS/pciesw$1-port0/ltssm_state" l0
}

wr "$PCIESW_BUS/new_device" "20 tiny8"
wr "$PCIESW_BUS/new_device" "21 pex89144"
wait_l0 20
wait_l0 21

# ---- list ------------------------------------------------------------------

sysfs_switch_lines
sc_ok "switchctl -j list" -j list
got=$(jq -r '.[] | [."switch-id", ."switch-name", ."switch-profile",
	."switch-lanes", ."switch-serial", ."switch-nr-ports"] | @tsv' <<<"$OUT" 2>&1)
check_eq "list: every switch of sysfs, with its sysfs values" "${SYSFS_LINES%$'\n'}" "$got"
check_eq "list: a JSON array" array "$(jq -r type <<<"$OUT" 2>&1)"

sc_ok "switchctl list (text)" list
check "list (text) names pciesw21 and its profile" \
	eval '[[ $OUT == *pciesw21*pex89144* ]]'

# ---- show ------------------------------------------------------------------

sc_ok "switchctl -j show pciesw21" -j show pciesw21
got=$(jq -r '[."switch-id", ."switch-profile", ."switch-lanes",
	."switch-nr-groups", ."switch-nr-ports"] | @tsv' <<<"$OUT" 2>&1)
check_eq "show: the switch's attributes" $'21\tpex89144\t144\t9\t21' "$got"
got=$(jq -r '.groups[] | [."group-id", ."group-name", ."group-type",
	."group-first-lane", ."group-nr-lanes", ."group-config"] | @tsv' <<<"$OUT" 2>&1)
want=$'0\thost\thost\t0\t16\t1x16'
for g in 0 1 2 3; do
	want+=$'\n'"$((g + 1))	gpu$g	gpu	$((16 + 16 * g))	16	1x16"
done
for g in 0 1 2 3; do
	want+=$'\n'"$((g + 5))	nvme$g	nvme	$((80 + 16 * g))	16	4x4"
done
check_eq "show: the lane groups of a pex89144" "$want" "$got"
got=$(jq -r '.groups[1]."group-allowed-config" | join(" ")' <<<"$OUT" 2>&1)
check_eq "show: allowed configs of a GPU group" "1x16 2x8 4x4" "$got"

sc_ok "switchctl -j show (all)" -j show
got=$(jq -r '.[]."switch-id"' <<<"$OUT" 2>&1 | tr '\n' ' ')
want=
for s in "${SWITCHES[@]}"; do
	want+="${s#pciesw} "
done
check_eq "show without a switch: all of them, in order" "$want" "$got"

# ---- status ----------------------------------------------------------------

sc_ok "switchctl -j status pciesw20" -j status pciesw20
got=$(jq -r '.switch, (.ports | length)' <<<"$OUT" 2>&1 | tr '\n' ' ')
rd "$PCIESW_DEVS/pciesw20/nr_ports"
nports=$R
check_eq "status: the switch and all its ports" "pciesw20 $nports " "$got"
got=$(jq -r '.ports[0] | [."port-id", ."port-role", ."port-width",
	."port-speed", ."port-ltssm", ."port-link-active"] | @tsv' <<<"$OUT" 2>&1)
check_eq "status: tiny8 upstream port trained Gen4 x4" \
	$'0\tupstream\t4\tgen4\tl0\ttrue' "$got"
# every port against its sysfs device
want='' got=''
for ((p = 0; p < nports; p++)); do
	d=$PCIESW_DEVS/pciesw20-port$p
	rd "$d/role"; role=$R
	rd "$d/current_link_width"; width=$R
	rd "$d/ltssm_state"; ltssm=$R
	want+="$p	$role	$width	$ltssm"$'\n'
done
got=$(jq -r '.ports[] | [."port-id", ."port-role", ."port-width",
	."port-ltssm"] | @tsv' <<<"$OUT" 2>&1)
check_eq "status: every port as sysfs shows it" "${want%$'\n'}" "$got"

sc_ok "switchctl -j status 21 (by number)" -j status 21
got=$(jq -r '.switch, (.ports | length), .ports[0]."port-speed", .ports[0]."port-width"' \
	<<<"$OUT" 2>&1 | tr '\n' ' ')
check_eq "status 21: pex89144, 21 ports, upstream Gen5 x16" "pciesw21 21 gen5 16 " "$got"

sc_ok "switchctl status pciesw21 (text)" status pciesw21

# ---- errors and exit statuses ----------------------------------------------

sc_err "status of a missing switch: exit 1, error: no such switch" 1 \
	"no such switch" -j status pciesw99
sc_err "show of a missing switch: exit 1" 1 "no such switch" show 99
sc "bogus-command"
check_eq "unknown command: exit 2" 2 "$RC"
sc --bogus-option list
check_eq "unknown option: exit 2" 2 "$RC"
sc switch add
check_eq "switch add without an id: exit 2" 2 "$RC"
sc
check_eq "no command: exit 2" 2 "$RC"
sc --help
check_eq "--help: exit 0" 0 "$RC"
sc switch add --help
check_eq "switch add --help: exit 0" 0 "$RC"

# ---- switch add / del --------------------------------------------------------

sc_ok "switch add 22 tiny8" switch add 22 tiny8
rd "$PCIESW_DEVS/pciesw22/profile"
check_eq "pciesw22 exists with profile tiny8" tiny8 "$R"
sc_err "switch add of a used id: exit 1, kernel's message" 1 "already in use" \
	switch add 22
sc_err "switch add with an unknown profile: exit 1, unknown profile" 1 \
	"unknown profile" switch add 23 nosuch
check "no pciesw23 was created" test ! -e "$PCIESW_DEVS/pciesw23"
sc_ok "switch del 22" switch del 22
check "pciesw22 is gone" test ! -e "$PCIESW_DEVS/pciesw22"
sc_err "switch del of a missing id: exit 1, no such switch" 1 "no such switch" \
	switch del 22

# ---- unprivileged ------------------------------------------------------------

if command -v setpriv >/dev/null; then
	as_nobody -j list
	check_eq "nobody: list works" "0 $N_SWITCHES" "$RC $(jq length <<<"$OUT" 2>&1)"
	as_nobody -j status pciesw20
	check_eq "nobody: status works" 0 "$RC"
	as_nobody switch add 23
	check "nobody: switch add fails with exit 1 and an error" \
		eval '[[ $RC == 1 && $ERR == "error: "* ]]' || diag "$RC $ERR"
	check "nobody: nothing was created" test ! -e "$PCIESW_DEVS/pciesw23"
	as_nobody switch del 20
	check_eq "nobody: switch del fails with exit 1" 1 "$RC"
	check "nobody: pciesw20 is still there" test -e "$PCIESW_DEVS/pciesw20"

	# --help names the capability the kernel checks: each command runs
	# as nobody with only CAP_NET_ADMIN; refused for want of
	# CAP_SYS_ADMIN (the kernel's message names it) or not, its help
	# must say the same (the summary's "needs", or for a setting of
	# set, a line naming the setting and CAP_SYS_ADMIN)
	priv_cases=(
		"switch add|switch add 23 tiny8"
		"switch del|switch del 20"
		"ep add|ep add pciesw20 1 nvme"
		"ep del|ep del pciesw20 99"
		"inject|inject pciesw20 1 bad-tlp"
		"inject|inject pciesw20 temp clear"
		"inject|inject pciesw21 nvme0 spare 5"
		"vpd show|vpd show pciesw20"
		"vpd set|vpd set pciesw20 asset-tag nobody"
		"export|export pciesw20"
		"verify|verify --dump pciesw20"
		"errors clear|errors clear pciesw20"
		"log clear|log clear pciesw20"
		"port set|port set pciesw20 1 acs off"
		"port set|port set pciesw20 1 ber 0|ber"
		"port set|port set pciesw20 1 failed-lanes none|failed-lanes"
		"switch set|switch set pciesw20 host-p2p on"
		"switch set|switch set pciesw20 pci-view on|pci-view"
	)
	for c in "${priv_cases[@]}"; do
		IFS='|' read -r words args key <<<"$c"
		# shellcheck disable=SC2086 # words and arguments
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=+net_admin --ambient-caps=+net_admin \
			"$SWITCHCTL" $args >"$T_TMP/out" 2>"$T_TMP/err"
		ERR=$(<"$T_TMP/err")
		[[ $ERR == *"needs CAP_SYS_ADMIN"* ]] && kcap=CAP_SYS_ADMIN ||
			kcap=CAP_NET_ADMIN
		# shellcheck disable=SC2086
		sc $words --help
		if [[ -n $key ]]; then
			grep -q -- "$key.*CAP_SYS_ADMIN" <<<"$OUT" && hcap=CAP_SYS_ADMIN ||
				hcap=CAP_NET_ADMIN
		else
			hcap=$(grep -om1 'needs CAP_[A-Z_]*' <<<"$OUT")
			hcap=${hcap#needs }
		fi
		check_eq "help of $words${key:+ $key} names what the kernel checks: $args" \
			"$kcap" "$hcap" || diag "as CAP_NET_ADMIN: ${ERR:-(no error)}"
	done
else
	# util-linux is always installed: a missing setpriv is a broken guest
	fail "unprivileged switchctl: no setpriv (util-linux)"
fi

# ---- module not loaded -------------------------------------------------------

if [[ -n ${PCIESW_KO:-} && -r ${PCIESW_KO:-} ]]; then
	cleanup_ids() { for id in "${IDS[@]}"; do [[ -e $PCIESW_DEVS/pciesw$id ]] && wr "$PCIESW_BUS/del_device" "$id"; done; }
	cleanup_ids
	if mod_unload; then
		sc_err "module not loaded: exit 3 with an error" 3 "" -j list
		sc status pciesw0
		check_eq "module not loaded: status exits 3 too" 3 "$RC"
		load_module "$PCIESW_KO" || diag "insmod: $R"
		check "module reloaded" mod_loaded
	else
		fail "rmmod to test exit status 3"
		diag "$R"
	fi
else
	fail "module not loaded: exit 3: PCIESW_KO does not name the module file (the runner sets it)"
fi

summary
