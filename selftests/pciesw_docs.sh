#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation's examples run as written: every line of the README
# that begins with "    $ " (its example blocks; the README says so) runs,
# in order, as root with bash from the repository root, userspace/ first on
# PATH as if installed, each a case that must exit 0 (pipelines with
# pipefail); among them the kernel's ynl client on the spec and the Python
# example Documentation/examples/ynl_status.py (the kernel's ynl library,
# found at run time through scripts/ksrc.sh), whose output is also checked.
# The README's two set-up commands are not run here: make check runs the
# first (scripts/deps.sh) as its first step.  Needs the module loaded with one default card (run.sh's load),
# jq and python3-jsonschema; leaves pciesw0 with lane 15 of port 1 failed
# (the runner reloads the module for the next test).

. "$(dirname "$0")/lib.sh"
top=$(cd "$T_LIB_DIR/.." && pwd)
cd "$top" || bail "cd $top"
export PATH=$top/userspace:$PATH

[[ -d $PCIESW_DEVS/pciesw0 ]] || bail "no pciesw0 (the runner loads the module)"
wait_attr() {	# FILE VALUE: until FILE reads VALUE, 10 s (scaled)
	local end
	deadline 10000; end=$T_END
	while rd "$1"; [[ $R != "$2" ]]; do
		before_deadline "$end" || return 1
		nap 0.05
	done
}
wait_attr "$PCIESW_DEVS/pciesw0-port1/ltssm_state" l0

mapfile -t examples < <(sed -n 's/^    \$ //p' README)
((${#examples[@]} >= 5)) || fail "README has its examples (${#examples[@]} found)"
for cmd in "${examples[@]}"; do
	out=$(bash -o pipefail -c "$cmd" 2>&1)
	rc=$?
	if ((rc == 0)); then
		ok "README: $cmd"
	else
		fail "README: $cmd (exit $rc)"
		diag "$out"
	fi
	case $cmd in
	*ynl_status.py\ 0\ --acs\ 2)
		[[ $out == "pciesw0 (pex89048, 48 lanes, serial "* &&
			$out == *"port  0 host   up   gen5  x16  l0 "*":01:00.0"* &&
			$out == *"port-change-ntf: port 2 acs-redirect 1"*"port-change-ntf: port 2 acs-redirect 0"* ]]
		check_eq "ynl_status.py: the ports and two notifications, through the kernel's ynl library" 0 "$?" ||
			diag "$out" ;;
	*cli.py*--dump\ switch-get)
		[[ $out == *"'switch-name': 'pciesw0'"* ]]
		check_eq "ynl cli.py --dump switch-get names pciesw0" 0 "$?" || diag "$out" ;;
	esac
done
summary
