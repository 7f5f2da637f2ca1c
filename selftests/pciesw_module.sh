#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Loading and unloading pciesw: nr_switches=0/3/256 create exactly that many
# switches, 257 (and garbage) is refused, unloading leaves nothing behind,
# 10 load/unload cycles with readers hammering sysfs, netlink and the char
# device, and an open /dev/pcieswN keeps the module in (rmmod fails while it
# is open, succeeds after close).  Reduced (PCIESW_REDUCED, the debug plan):
# nr_switches=32 instead of 256, 5 cycles instead of 10.
# make soak (pciesw_soak, 100 cycles with the PCI view) is the long form.
#
# PCIESW_KO must name the module file (selftests/run.sh sets it); every load
# passes PCIESW_MODARGS first.  Leaves the module unloaded.

# shellcheck disable=SC2016 # eval '...' on purpose: evaluated by check
. "$(dirname "$0")/lib.sh"

KO=${PCIESW_KO:-}
((EUID == 0)) || skip_all "needs root"
[[ -n $KO && -r $KO ]] ||
	bail "PCIESW_KO does not name the module file (the runner sets it)"
[[ -x $PCIESW_TOOL ]] || bail "$PCIESW_TOOL not built (it is built with the tests)"

# load [ARGS...]: insmod with the runner's arguments, then ARGS; output in $R
load() {
	load_module "$KO" "$@"
}

# Nothing of the module is left: sysfs, /dev, char region, netlink family.
nothing_left() {
	local bad='' maj name
	[[ -e /sys/module/pciesw ]] && bad+=" /sys/module/pciesw"
	[[ -e $PCIESW_BUS ]] && bad+=" $PCIESW_BUS"
	list_dev_nodes
	((N_DEV_NODES)) && bad+=" ${DEV_NODES[*]}"
	while read -r maj name; do
		[[ $name == pciesw ]] && bad+=" char major $maj"
	done </proc/devices
	"$PCIESW_TOOL" family >/dev/null && bad+=" netlink family"
	[[ -z $bad ]] && return 0
	diag "left after unload:$bad"
	return 1
}

# exactly switches pciesw0..N-1, with their /dev nodes, also over netlink
has_switches() {
	local n=$1 want='' i
	for ((i = 0; i < n; i++)); do
		want+=" pciesw$i"
	done
	want=${want# }
	list_switches
	list_dev_nodes
	if [[ "${SWITCHES[*]}" != "$want" ]]; then
		diag "switches: ${SWITCHES[*]:0:8} ... (${#SWITCHES[@]}), want $n"
		return 1
	fi
	if ((N_DEV_NODES != n)); then
		diag "/dev nodes: $N_DEV_NODES, want $n"
		return 1
	fi
	R=$("$PCIESW_TOOL" count)
	if [[ ${R%%:*} != "$n" ]]; then
		diag "netlink switch dump: ${R:0:60}"
		return 1
	fi
}

refcnt_is() {
	rd /sys/module/pciesw/refcnt
	[[ $R == "$1" ]] || { diag "refcnt $R, want $1"; return 1; }
}

# ---- the runner's load ----------------------------------------------------

if mod_loaded; then
	check "rmmod pciesw" mod_unload || diag "$R"
fi
check "nothing left after unload" nothing_left

# ---- nr_switches ------------------------------------------------------------

# 256 switches each with a PCI hierarchy take many minutes on the debug
# kernel: that case loads without the PCI view (pciesw_pci.sh covers the
# view's load/unload); on the debug plan it loads 32 (257 is refused below
# in every plan).
reduce 256 32 "nr_switches (the many-switch load)"; MANY=$R
for n in 0 3 "$MANY"; do
	args=(nr_switches="$n")
	((n == MANY)) && args+=(pci_view=0)
	if load "${args[@]}"; then
		ok "insmod nr_switches=$n"
	else
		fail "insmod nr_switches=$n"
		diag "$R"
		continue
	fi
	rd /sys/module/pciesw/parameters/nr_switches
	check_eq "nr_switches=$n: the parameter reads $n" "$n" "$R"
	check "nr_switches=$n: pciesw0..$((n - 1)) in sysfs, /dev and netlink" \
		has_switches "$n"
	check "nr_switches=$n: module refcount 0" refcnt_is 0
	case $n in
	0)
		check "nr_switches=0: the bus is there" test -w "$PCIESW_BUS/new_device"
		check "nr_switches=0: new_device works" wr "$PCIESW_BUS/new_device" "7 tiny8"
		;;
	3)
		profiles=
		for i in 0 1 2; do
			rd "$PCIESW_DEVS/pciesw$i/profile"
			profiles+="$R "
		done
		check_eq "nr_switches=3: default profile" "pex89048 pex89048 pex89048 " "$profiles"
		;;
	esac
	check "nr_switches=$n: rmmod" mod_unload || diag "$R"
	check "nr_switches=$n: nothing left" nothing_left
done

# ---- refused values ------------------------------------------------------

kmsg_mark too-many
modargs nr_switches=257
R=$("$PCIESW_TOOL" load-module "$KO" "$R")
check_eq "finit_module nr_switches=257 fails with EINVAL" EINVAL "$R"
mod_loaded && mod_unload
check "nr_switches=257: nothing left" nothing_left
for v in 1000 -1 abc 4294967296; do
	if load nr_switches="$v"; then
		fail "insmod nr_switches=$v is refused"
		mod_unload
	else
		ok "insmod nr_switches=$v is refused"
	fi
done
check "refused loads left nothing" nothing_left
kmsg_snapshot
check "kernel log explains nr_switches=257" kmsg_has too-many "pciesw: *nr_switches*257*"

# ---- load/unload cycles under readers ---------------------------------------

"$PCIESW_TOOL" reader >"$T_TMP/reader.out" 2>&1 &
reader=$!
(
	n=0
	while [[ ! -e $T_TMP/stop ]]; do
		for f in "$PCIESW_DEVS"/pciesw*/{switch_id,profile,nr_ports,serial_number,ltssm_state}; do
			read -r _ <"$f" && n=$((n + 1))
		done 2>/dev/null
	done
	echo "$n" >"$T_TMP/sysfs.count"
) &
sysfs_reader=$!

reduce 10 5 "load/unload cycles under readers"; CYCLES=$R
errors=0 retried=0
for ((c = 1; c <= CYCLES; c++)); do
	if ! load nr_switches=2; then
		errors=$((errors + 1))
		diag "cycle $c: insmod: $R"
		continue
	fi
	[[ -e $PCIESW_DEVS/pciesw1 ]] || { errors=$((errors + 1)); diag "cycle $c: no pciesw1"; }
	if ! rmmod pciesw 2>/dev/null; then
		retried=$((retried + 1))
		mod_unload || { errors=$((errors + 1)); diag "cycle $c: rmmod: $R"; }
	fi
done
check_eq "$CYCLES load/unload cycles with readers running" 0 "$errors"
((retried)) && diag "rmmod had to wait for a reader in $retried cycles"

: >"$T_TMP/stop"
kill -TERM "$reader" 2>/dev/null
wait "$reader"
check_eq "the netlink/chardev reader exited cleanly" 0 "$?"
wait "$sysfs_reader"
rd "$T_TMP/reader.out"
diag "reader: $R"
[[ $R =~ rounds=([0-9]+)\ nl_ok=([0-9]+)\ info_ok=([0-9]+) ]]
check "the reader reached the module over netlink" test "${BASH_REMATCH[2]:-0}" -gt 0
check "the reader reached the module through /dev" test "${BASH_REMATCH[3]:-0}" -gt 0
rd "$T_TMP/sysfs.count"
diag "sysfs reads: $R"
check "the sysfs reader read attributes" test "${R:-0}" -gt 0
check "nothing left after the cycles" nothing_left

# ---- an open /dev/pciesw0 holds the module --------------------------------

if load; then
	ok "insmod (default: 1 switch)"
else
	fail "insmod (default: 1 switch)"
	diag "$R"
fi
if exec {fd}</dev/pciesw0; then
	ok "open /dev/pciesw0"
	rd /sys/module/pciesw/refcnt
	check "open file: module refcount above 0" test "$R" -gt 0 || diag "refcnt $R"
	R=$(rmmod pciesw 2>&1)
	st=$?
	check "rmmod fails while /dev/pciesw0 is open" eval '[[ $st != 0 && $R == *"in use"* ]]' ||
		diag "$st: $R"
	R=$("$PCIESW_TOOL" delete-module pciesw)
	check_eq "delete_module(2) fails with EWOULDBLOCK (EAGAIN)" EAGAIN "$R"
	check "the module is still loaded" mod_loaded
	check "and its switch still there" test -e "$PCIESW_DEVS/pciesw0/switch_id"
	# the switch can go; the open file still holds the module
	check "del_device 0 with the file open" wr "$PCIESW_BUS/del_device" 0
	R=$(rmmod pciesw 2>&1)
	st=$?
	check "rmmod still fails: the file is open" eval '[[ $st != 0 && $R == *"in use"* ]]' ||
		diag "$st: $R"
	exec {fd}<&-
	check "close: module refcount 0" refcnt_is 0
	check "rmmod after close" mod_unload || diag "$R"
	check "nothing left" nothing_left
else
	fail "open /dev/pciesw0"
fi

summary
