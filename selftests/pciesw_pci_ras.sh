#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rasdaemon records the errors the PCI view reports: with rasdaemon -r
# running, an injected bad-tlp on a downstream port and a poisoned-tlp on
# another are logged by the kernel's AER driver, whose ras:aer_event
# tracepoint rasdaemon reads; `ras-mc-ctl --errors` then lists both, with
# the port's PCI name, the error and its severity, and the Header Log of
# the poisoned TLP.
#
# rasdaemon 0.6.8 reads its trace instance only when the buffer is
# buffer_percent full (50 by default since 6.1), so events would wait for
# pages of others: the test makes the instance first with buffer_percent
# 0, as later rasdaemon releases do themselves.
#
# Skipped when the kernel has no PCI support or no ras:aer_event
# tracepoint, or rasdaemon or pciutils are missing.  Runs on the stock
# kernels (the debug kernel has no tracing; pciesw_pci_aer.sh covers the
# kernel's side there).  Uses pciesw0.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
command -v rasdaemon >/dev/null && command -v ras-mc-ctl >/dev/null ||
	skip_all "rasdaemon not installed"
TR=/sys/kernel/tracing
[[ -d $TR/events ]] || mount -t tracefs nodev $TR 2>/dev/null
[[ -d $TR/events/ras/aer_event ]] ||
	skip_all "kernel without the ras:aer_event tracepoint"
sctl_init

SW=pciesw0
pci_card $SW
pci_port $SW 1; DP1=$P
pci_port $SW 2; DP2=$P

# a database of this run only (the guest's root is an overlay)
rm -f /var/lib/rasdaemon/ras-mc_event.db
mkdir -p /var/lib/rasdaemon
rmdir $TR/instances/rasdaemon 2>/dev/null
mkdir $TR/instances/rasdaemon && echo 0 >$TR/instances/rasdaemon/buffer_percent
rasdaemon -f -r >"$T_TMP/ras.out" 2>&1 &
RAS=$!
# rasdaemon stopped within 5 s (a bare wait would hang the test for good
# on a rasdaemon that does not end), then its trace instance removed and
# the test's temporary directory
cleanup() {
	local i
	kill $RAS 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		running $RAS || break
		nap 0.05
	done
	if running $RAS; then
		echo "# rasdaemon did not end on SIGTERM within 5 s: killed"
		kill -9 $RAS 2>/dev/null
	fi
	wait $RAS 2>/dev/null
	rmdir $TR/instances/rasdaemon 2>/dev/null
	rm -rf "$T_TMP"	# lib.sh's EXIT trap, which this one replaces
}
trap cleanup EXIT
listening() { grep -q "Listening to events" "$T_TMP/ras.out"; }
deadline 10000
until listening || ! before_deadline; do nap 0.05; done
check "rasdaemon records AER events" listening || diag "$(<"$T_TMP/ras.out")"

sc_ok "inject $SW 2 bad-tlp" inject $SW 2 bad-tlp
sc_ok "inject $SW 1 poisoned-tlp" inject $SW 1 poisoned-tlp
# errors: ras-mc-ctl's list of AER events, into R
errors() {
	R=$(ras-mc-ctl --errors 2>&1 | sed -n '/^PCIe AER events:/,/^$/p')
}
both() { errors; [[ $R == *"$DP2 Corrected error: Bad TLP"* && $R == *"$DP1 Uncorrected (Non-Fatal) error: Poisoned TLP"* ]]; }
deadline 10000
until both || ! before_deadline; do nap 0.1; done
check "ras-mc-ctl --errors: $DP2 Corrected error: Bad TLP" \
	eval '[[ $R == *"$DP2 Corrected error: Bad TLP"* ]]' || diag "$R"
check "ras-mc-ctl --errors: $DP1 Uncorrected (Non-Fatal) error: Poisoned TLP" \
	eval '[[ $R == *"$DP1 Uncorrected (Non-Fatal) error: Poisoned TLP"* ]]'
check "... with the TLP's Header Log" \
	eval '[[ $R == *"TLP Header: 40000001 "* ]]'
n=$(grep -c '^[0-9]' <<<"$R")
check_eq "two AER events recorded" 2 "$n" || diag "$R"
summary
