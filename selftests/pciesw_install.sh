#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install and the operations pieces it installs, in the guest (whose
# root is a tmpfs overlay of the host's: what is installed vanishes with
# the guest): first a staged "make install DESTDIR=STAGE PREFIX=/usr" (a
# package build: all under the stage, nothing run) and its uninstall;
# then "make install DESTDIR=" puts switchctl, the module (under
# /lib/modules/KVER/updates, depmod), header, spec, man pages, completion,
# udev rules and the systemd unit in place and creates group pciesw; then
# modprobe pciesw, and systemd-udevd (started by the test, the distribution's
# rules plus the installed ones, module autoloading masked) gives
# /dev/pciesw0 group pciesw mode 0660 and the drives' disks their
# by-uuid, by-label and (PCI view on) by-path links, so a user in group pciesw runs
# "switchctl dma copy" (and nobody cannot); the example uevent rule logs a
# link-down through logger (to a /dev/log sink of the test); pciesw-journal
# sends structured journal entries (to a stand-in journald socket) and
# exits 3 when the module goes; "switchctl load" finds the installed
# module and, with the modprobe.d example in place, creates two cards;
# make uninstall removes it all.  Leaves the module unloaded and the guest as it found it.
#
# While it runs, /lib/modules/KVER is a tmpfs with only the kernel's
# modules.builtin* files (and then what make install adds): the real
# "depmod -a KVER" of make install then indexes one module instead of the
# 4230 of Debian's tree, which takes minutes under TCG over 9p (55 s on
# the host).
# Needs PCIESW_KO (run.sh sets it), userspace/switchctl built, make, udev.

. "$(dirname "$0")/lib.sh"
top=$(cd "$T_LIB_DIR/.." && pwd)
cd "$top" || bail "cd $top"
KVER=$(uname -r)
KO=$(cd "$(dirname "$PCIESW_KO")" && pwd)/$(basename "$PCIESW_KO")
USER_NAME=pciesw-test
UDEVD_PID= SINK_PID= JOURNAL_PID=
had_group=0
getent group pciesw >/dev/null && had_group=1

cleanup() {
	[[ -n $JOURNAL_PID ]] && kill "$JOURNAL_PID" 2>/dev/null
	[[ -n $SINK_PID ]] && kill "$SINK_PID" 2>/dev/null
	[[ -n $UDEVD_PID ]] && kill "$UDEVD_PID" 2>/dev/null && wait "$UDEVD_PID" 2>/dev/null
	[[ -n $UDEVD_PID ]] && rm -rf /run/udev
	rm -f /etc/udev/rules.d/80-drivers.rules /etc/udev/rules.d/61-pciesw-events.rules \
		/etc/modprobe.d/pciesw.conf /dev/log
	make -s uninstall DESTDIR= KVER="$KVER" >/dev/null 2>&1
	userdel "$USER_NAME" 2>/dev/null
	((had_group)) || groupdel pciesw 2>/dev/null
	mod_loaded && mod_unload
	((MODS_MOUNTED)) && umount "/lib/modules/$KVER"
	((MODS_CREATED)) && rmdir "/lib/modules/$KVER"
	rm -rf "$T_TMP"
}
trap cleanup EXIT
MODS_MOUNTED=0 MODS_CREATED=0

mod_loaded && { mod_unload || bail "rmmod pciesw: $R"; }
mkdir -p "$T_TMP/builtin"
[[ -d /lib/modules/$KVER ]] || { mkdir -p "/lib/modules/$KVER" && MODS_CREATED=1; }
cp /lib/modules/"$KVER"/modules.builtin* "$T_TMP/builtin/" 2>/dev/null
mount -t tmpfs -o mode=0755 pciesw-modules "/lib/modules/$KVER" && MODS_MOUNTED=1
cp "$T_TMP"/builtin/* "/lib/modules/$KVER/" 2>/dev/null
check "/lib/modules/$KVER: a tmpfs with the modules.builtin files" test "$MODS_MOUNTED" = 1

# ---- make install into a staging tree (a package build) ---------------------
# DESTDIR and PREFIX=/usr: every file under the stage, with the paths that
# PREFIX gives (the unit names the PREFIX's pciesw-journal); nothing is
# run or changed on the system itself (no depmod, group or reload)
STAGE=$T_TMP/stage
dep_before=$(stat -c %Y "/lib/modules/$KVER/modules.dep" 2>/dev/null)
R=$(make -s install DESTDIR="$STAGE" PREFIX=/usr KVER="$KVER" KO="$KO" 2>&1)
check_eq "make install DESTDIR=STAGE PREFIX=/usr: exit 0" 0 "$?" || diag "$R"
missing=
for f in usr/bin/switchctl usr/bin/pciesw-journal \
	"lib/modules/$KVER/updates/pciesw.ko" usr/include/linux/pciesw.h \
	usr/share/pciesw/pciesw.yaml usr/share/man/man8/switchctl.8 \
	usr/share/man/man4/pciesw.4 usr/lib/udev/rules.d/60-pciesw.rules \
	usr/lib/systemd/system/pciesw-monitor.service \
	usr/lib/sysusers.d/pciesw.conf; do
	[[ -f $STAGE/$f ]] || missing+=" $f"
done
check_eq "staged install: the files under DESTDIR with PREFIX's paths" "" "$missing"
R=$(grep '^ExecStart=' "$STAGE/usr/lib/systemd/system/pciesw-monitor.service")
check_eq "staged unit runs PREFIX's pciesw-journal" \
	"ExecStart=/usr/bin/pciesw-journal" "$R"
check "staged install: nothing outside DESTDIR (no /usr/bin/switchctl, no depmod)" \
	test ! -e /usr/bin/switchctl -a \
	"$(stat -c %Y "/lib/modules/$KVER/modules.dep" 2>/dev/null)" = "$dep_before"
R=$(make -s uninstall DESTDIR="$STAGE" PREFIX=/usr KVER="$KVER" 2>&1)
check_eq "make uninstall DESTDIR=STAGE PREFIX=/usr: exit 0" 0 "$?" || diag "$R"
left=$(find "$STAGE" -type f)
check_eq "staged uninstall: no file left in the stage" "" "$left"
rm -rf "$STAGE"

# ---- make install -----------------------------------------------------------
R=$(make -s install DESTDIR= KVER="$KVER" KO="$KO" 2>&1)
check_eq "make install DESTDIR= KVER=$KVER: exit 0" 0 "$?" || diag "$R"
missing=
for f in /usr/local/bin/switchctl /usr/local/bin/pciesw-journal \
	"/lib/modules/$KVER/updates/pciesw.ko" /usr/local/include/linux/pciesw.h \
	/usr/local/include/linux/pciesw_netlink.h \
	/usr/local/include/linux/pciesw_fw.h /usr/local/share/doc/pciesw/firmware.md \
	/usr/local/share/pciesw/pciesw.yaml /usr/local/share/man/man8/switchctl.8 \
	/usr/local/share/man/man4/pciesw.4 \
	/usr/local/share/bash-completion/completions/switchctl \
	/usr/local/lib/udev/rules.d/60-pciesw.rules \
	/usr/local/lib/systemd/system/pciesw-monitor.service \
	/usr/local/share/doc/pciesw/examples/61-pciesw-events.rules \
	/usr/local/share/doc/pciesw/examples/modprobe.d-pciesw.conf \
	/usr/local/share/doc/pciesw/examples/modules-load.d-pciesw.conf; do
	[[ -f $f ]] || missing+=" $f"
done
check_eq "make install: every file in place" "" "$missing"
R=$(grep '^ExecStart=' /usr/local/lib/systemd/system/pciesw-monitor.service)
check_eq "the unit runs the installed pciesw-journal" \
	"ExecStart=/usr/local/bin/pciesw-journal" "$R"
check "make install created group pciesw" getent group pciesw
R=$(modinfo -n pciesw 2>&1)
check_eq "depmod ran: modinfo -n pciesw" "/lib/modules/$KVER/updates/pciesw.ko" "$R"
# bash completion: the objects and an object's commands
R=$(bash -c '. /usr/share/bash-completion/bash_completion 2>/dev/null
	. /usr/local/share/bash-completion/completions/switchctl
	COMP_WORDS=(switchctl ep ""); COMP_CWORD=2; COMP_LINE="switchctl ep "
	COMP_POINT=${#COMP_LINE}; _switchctl; echo "${COMPREPLY[*]}"' 2>&1)
check_eq "bash completion: switchctl ep <TAB>" "list show add del discard --help" "$R"

# ---- udev, group pciesw, DMA without root --------------------------------------
useradd --system --no-create-home --shell /usr/sbin/nologin -G pciesw "$USER_NAME"
check_eq "useradd $USER_NAME in group pciesw" 0 "$?"
# systemd-udevd with the distribution's rules and the installed one; the
# rule that loads modules for new devices (PCI view endpoints) masked
ln -s /dev/null /etc/udev/rules.d/80-drivers.rules
cp /usr/local/share/doc/pciesw/examples/61-pciesw-events.rules /etc/udev/rules.d/
# logger of the example rule writes to /dev/log: a sink stands in for syslog
python3 "$T_LIB_DIR/dgram_sink.py" /dev/log "$T_TMP/syslog" &
SINK_PID=$!
/lib/systemd/systemd-udevd >"$T_TMP/udevd.log" 2>&1 &
UDEVD_PID=$!
deadline 10000
while [[ ! -e $T_TMP/syslog || ! -S /run/udev/control ]] && before_deadline "$T_END"; do
	nap 0.1
done
check "systemd-udevd and the /dev/log sink started" test -S /run/udev/control -a -e "$T_TMP/syslog"

read -ra ma <<<"${PCIESW_MODARGS:-}"
R=$(modprobe pciesw "${ma[@]}" 2>&1)
check_eq "modprobe pciesw ${ma[*]}" 0 "$?" || diag "$R"
udevadm settle --timeout=60
R=$(stat -c '%G %a' /dev/pciesw0 2>&1)
check_eq "/dev/pciesw0 is group pciesw, mode 660 (60-pciesw.rules)" "pciesw 660" "$R" ||
	diag "$(cat "$T_TMP/udevd.log")"
# the drives' disks get the persistent links nvme disks get (60-pciesw.rules)
UUID=7a1b3c4d-0e5f-4a6b-8c7d-9e0f1a2b3c4d
R=$(mkfs.ext4 -q -F -U $UUID -L pciesw-test /dev/pciesw0n0 2>&1)
check_eq "mkfs.ext4 on pciesw0n0" 0 "$?" || diag "$R"
udevadm settle --timeout=60
R=$(readlink -f /dev/disk/by-uuid/$UUID)
check_eq "/dev/disk/by-uuid/$UUID -> pciesw0n0" /dev/pciesw0n0 "$R"
R=$(readlink -f /dev/disk/by-label/pciesw-test)
check_eq "/dev/disk/by-label/pciesw-test -> pciesw0n0" /dev/pciesw0n0 "$R"
if [[ $(cat "$PCIESW_DEVS/pciesw0/pci_view") == 1 ]]; then
	pf=$(readlink -f /sys/block/pciesw0n0/device)
	R=$(readlink -f "/dev/disk/by-path/pci-${pf##*/}")
	check_eq "/dev/disk/by-path/pci-${pf##*/} -> pciesw0n0 (the PCI view)" \
		/dev/pciesw0n0 "$R" || diag "$(ls -l /dev/disk/by-path 2>&1)"
fi
wipefs -q -a /dev/pciesw0n0
R=$(setpriv --reuid="$USER_NAME" --regid=nogroup --init-groups \
	/usr/local/bin/switchctl dma copy pciesw0 nvme0 gpu0 --size 1M 2>&1)
check_eq "switchctl dma copy as $USER_NAME (group pciesw, not root)" 0 "$?" || diag "$R"
[[ $R == *"1048576 bytes"*"(1 ok)"* ]]
check_eq "the copy moved 1 MiB: $R" 0 "$?"
R=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	/usr/local/bin/switchctl dma copy pciesw0 nvme0 gpu0 --size 1M 2>&1)
rc=$?
[[ $rc == 1 && $R == *"ermission denied"* ]]
check_eq "switchctl dma copy as nobody (not in the group): permission denied, exit 1" 0 "$?" ||
	diag "exit $rc: $R"

# the example rule reacts to a port's uevent: link down, logged
/usr/local/bin/switchctl port set pciesw0 1 state down
udevadm settle --timeout=60
deadline 10000
while ! grep -q 'pciesw0-port1: link down' "$T_TMP/syslog" && before_deadline "$T_END"; do
	nap 0.1
done
R=$(grep -a 'link down' "$T_TMP/syslog" | head -n1)
[[ $R == *"pciesw0-port1: link down (LTSSM disabled)"* ]]
check_eq "61-pciesw-events.rules example: logger got the link down of pciesw0-port1" 0 "$?" ||
	diag "syslog sink: $(cat "$T_TMP/syslog")"
kill "$UDEVD_PID"; wait "$UDEVD_PID" 2>/dev/null; UDEVD_PID=
# the guest as it was: a stale /run/udev/control makes tools that follow
# (mdadm) wait for a udev that is gone
rm -rf /run/udev
rm -f /etc/udev/rules.d/80-drivers.rules /etc/udev/rules.d/61-pciesw-events.rules

# ---- pciesw-journal: structured entries, exit 3 when the module goes -------------
python3 "$T_LIB_DIR/dgram_sink.py" "$T_TMP/journal.sock" "$T_TMP/journal" &
JOURNAL_SINK=$!
deadline 10000
while [[ ! -e $T_TMP/journal ]] && before_deadline "$T_END"; do nap 0.1; done
PCIESW_JOURNAL_SOCKET=$T_TMP/journal.sock /usr/local/bin/pciesw-journal \
	>"$T_TMP/pj.out" 2>"$T_TMP/pj.err" &
JOURNAL_PID=$!
# the monitor subscribes, then primes its port cache: poke until it reports
deadline 20000
while ! grep -q 'PCIESW_EVENT=port-change' "$T_TMP/journal" 2>/dev/null &&
	before_deadline "$T_END"; do
	/usr/local/bin/switchctl port set pciesw0 1 state up
	nap 1
	grep -q 'PCIESW_EVENT=port-change' "$T_TMP/journal" && break
	/usr/local/bin/switchctl port set pciesw0 1 state down
	nap 1
done
entry=$(awk 'BEGIN { RS = "--\n" } /PCIESW_EVENT=port-change/ { print; exit }' "$T_TMP/journal")
fields=
for f in SYSLOG_IDENTIFIER=pciesw-monitor PCIESW_EVENT=port-change \
	PCIESW_SWITCH=pciesw0 PCIESW_PORT=1 'PCIESW_CHANGES=' 'PRIORITY=' \
	'MESSAGE=pciesw0 port 1: port-change' 'PCIESW_JSON={'; do
	[[ $'\n'$entry == *$'\n'"$f"* ]] || fields+=" $f"
done
check_eq "pciesw-journal: a port-change entry with its fields" "" "$fields" ||
	diag "entry: $entry" "stderr: $(cat "$T_TMP/pj.err")"
mod_unload
check_eq "rmmod pciesw under pciesw-journal" 0 "$?" || diag "$R"
deadline 20000
while running "$JOURNAL_PID" && before_deadline "$T_END"; do nap 0.1; done
wait "$JOURNAL_PID"
check_eq "pciesw-journal exits 3 when the module goes (the unit restarts it)" 3 "$?" ||
	diag "$(cat "$T_TMP/pj.err")"
JOURNAL_PID=
kill "$JOURNAL_SINK" 2>/dev/null

# ---- switchctl load: the installed module, with the modprobe.d example ----------
cp /usr/local/share/doc/pciesw/examples/modprobe.d-pciesw.conf /etc/modprobe.d/pciesw.conf
R=$(/usr/local/bin/switchctl load 2>&1)
check_eq "switchctl load (no path): the installed module" 0 "$?" || diag "$R"
list_switches
check_eq "the modprobe.d example's nr_switches=2: two cards" "pciesw0 pciesw1" "${SWITCHES[*]}"
R=$(/usr/local/bin/switchctl unload 2>&1)
check_eq "switchctl unload" 0 "$?" || diag "$R"
rm -f /etc/modprobe.d/pciesw.conf
mod_loaded && mod_unload

# ---- make uninstall -------------------------------------------------------------
R=$(make -s uninstall DESTDIR= KVER="$KVER" 2>&1)
check_eq "make uninstall: exit 0" 0 "$?" || diag "$R"
left=$(find /usr/local /lib/modules/"$KVER" -name '*pciesw*' -o -name switchctl 2>/dev/null)
check_eq "make uninstall: nothing left" "" "$left"
R=$(modinfo -n pciesw 2>&1)
check "modprobe no longer finds pciesw" test "$?" != 0
summary
