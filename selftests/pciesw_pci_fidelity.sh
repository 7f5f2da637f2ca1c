#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fidelity: lspci -vvv of a downstream port of the default card (a
# PEX89048) compared capability by capability with a description of the
# real part kept beside this test (pex890xx-dsp.ref: Broadcom's layout and
# bits as the public dumps of the family show them).  Every capability
# the description lists is there, at its offset, with its title, in the
# chain's order, and no other; each bit pattern it gives is shown; each
# difference it lists on purpose (with the reason) still holds, so the
# list stays true; the capabilities the real part has and the emulation
# leaves out are absent.
#
# Skipped when the kernel has no PCI support or pciutils are missing.
# Uses pciesw0, the runner's card, with hot-plug slots (the default).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/switchctl_lib.sh"
. "$(dirname "$0")/pci_lib.sh"

pci_require
REF=$(dirname "$0")/pex890xx-dsp.ref
[[ -r $REF ]] || bail "no $REF"

SW=pciesw0
pci_card $SW
pci_port $SW 1; DP=$P
rd "$D/$SW-port1/max_link_width"
[[ $R == 16 ]] || bail "port 1 is x$R, not x16 as the description's port"

out=$(lspci -vvv -s "$DP" 2>/dev/null)
[[ -n $out ]] || bail "lspci -vvv -s $DP says nothing"

# the capabilities lspci shows, by offset ("68", "100 v1"): title, text
declare -A title block
order=()
cur=
while IFS= read -r line; do
	if [[ $line =~ ^[[:space:]]*Capabilities:\ \[([0-9a-f]+( v[0-9]+)?)\]\ (.*)$ ]]; then
		cur=${BASH_REMATCH[1]}
		order+=("$cur")
		title[$cur]=${BASH_REMATCH[3]}
		block[$cur]=$line$NL
	elif [[ $line =~ ^[[:space:]]*Kernel ]]; then
		cur=
	elif [[ -n $cur ]]; then
		block[$cur]+=$line$NL
	fi
done <<<"$out"

want=()
cur=
while IFS= read -r line; do
	case $line in
	'' | '#'*)
		continue ;;
	cap\ *)
		[[ $line =~ ^cap\ \[([^]]+)\]\ (.*)$ ]] || bail "$REF: $line"
		cur=${BASH_REMATCH[1]}
		re=${BASH_REMATCH[2]}
		want+=("$cur")
		if [[ -z ${title[$cur]+x} ]]; then
			fail "[$cur] $re: no capability there"
		elif [[ ${title[$cur]} =~ ^$re ]]; then
			ok "[$cur] ${title[$cur]}"
		else
			fail "[$cur] is not $re"
			diag "${block[$cur]}"
		fi ;;
	has\ *)
		re=${line#has }
		if [[ ${block[$cur]} =~ $re ]]; then
			ok "[$cur] has $re"
		else
			fail "[$cur] has $re"
			diag "${block[$cur]}"
		fi ;;
	differs\ *)
		[[ $line =~ ^differs\ (.*)\ --\ (.*)$ ]] || bail "$REF: $line"
		re=${BASH_REMATCH[1]}
		why=${BASH_REMATCH[2]}
		if [[ ${block[$cur]} =~ $re ]]; then
			fail "[$cur] listed as differing ($re: $why) but shows it: update $REF"
		else
			ok "[$cur] differs on purpose from the real '$re': $why"
		fi ;;
	absent\ *)
		[[ $line =~ ^absent\ \[([^]]+)\]\ (.*)\ --\ (.*)$ ]] || bail "$REF: $line"
		off=${BASH_REMATCH[1]}
		what=${BASH_REMATCH[2]}
		why=${BASH_REMATCH[3]}
		found=
		for o in "${order[@]}"; do
			[[ ${o%% *} == "$off" ]] && found=$o
		done
		check_eq "[$off] $what absent on purpose: $why" "" "$found" ;;
	*)
		bail "$REF: $line" ;;
	esac
done <"$REF"

check_eq "the chain: the description's capabilities, in its order, no other" \
	"${want[*]}" "${order[*]}"
summary
