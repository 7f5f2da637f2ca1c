# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the PCI-view selftests, on top of lib.sh and switchctl_lib.sh:
#
#   dom ID                      # PCI domain of switch ID (its pci_domain)
#   pci_bus NAME                # the bus of a PCI name, into $PB
#   pci_rp SW / pci_port SW PORT / pci_ep SW PORT   # PCI names, into $P
#   tree_ok DESC SW             # PCI devices = the model's ports + endpoints
#   links_ok DESC SW            # PCI link width/speed = the model's
#   pci_count SW                # PCI devices in the switch's domain, in $N
#   lspci_has / lspci_hasnt DESC DEV REGEX   # lspci -vvv of DEV
#   driver DEV                  # the driver bound to DEV, in $R
#   pci_require                 # skip_all without PCI, lspci or setpci
#   log_mark, log_wait, logged  # what the kernel logged since a mark
#   ep_ready DEV                # until the endpoint answers config reads
#   dev_wait DEV                # until the PCI device DEV exists
#   pci_card SW                 # the runner's card is there, settled
#   port_hist_mark/_has SW PORT [STATE]  # LTSSM transitions since a mark

D=$PCIESW_DEVS
PCI=/sys/bus/pci/devices
NL=$'\n'

# pci_bus NAME: the bus number of PCI name NAME (DDDD:BB:DD.F, the
# domain 4 or 5 hex digits), two hex digits, into PB (not R: the tests
# keep the kernel log they match in R)
pci_bus() {
	PB=${1#*:}
	PB=${PB%%:*}
}

# dom ID: the PCI domain of switch ID, as its pci_domain attribute says;
# once the switch is gone, what it said last (so that "nothing left in its
# domain" is checked in the right domain); "none" if never read, which
# names no PCI device (pci_dom ID sets $PD and remembers; dom ID prints
# it, in a subshell)
declare -A PCI_DOMS
pci_dom() {
	# (2>/dev/null first: redirections apply left to right)
	if IFS= read -r PD 2>/dev/null <"$PCIESW_DEVS/pciesw$1/pci_domain" &&
		[[ -n $PD ]]; then
		PCI_DOMS[$1]=$PD
	fi
	PD=${PCI_DOMS[$1]:-}
	[[ -n $PD ]] || PD=none
}
dom() {
	pci_dom "$1"
	printf '%s' "$PD"
}

# pci_layout SW: how the switch places its downstream ports on its internal
# bus, into PCI_MF[SW]: a profile that can have more than 30 downstream
# ports (the most of each non-host group's allowed_configs, summed) puts
# port k+1 at function k (02:k/8.k%8), the others at device = port number
# (port n at 02:n.0; devices 0 and 0x1f stay free)
declare -A PCI_MF
pci_layout() {
	local g c most n=0
	[[ -n ${PCI_MF[$1]:-} ]] && return
	for g in "$D/$1"/group_*; do
		rd "$g/type"
		[[ $R == host ]] && continue
		rd "$g/allowed_configs"
		most=0
		for c in $R; do
			((${c%x*} > most)) && most=${c%x*}
		done
		n=$((n + most))
	done
	PCI_MF[$1]=$((n > 30))
}

# pci_rp SW: PCI name of the Root Port above the card's upstream port:
# the one device of the root bus of the switch's domain (the lowest bus
# there), into P
pci_rp() {
	local b
	pci_dom "${1#pciesw}"
	P=$PD:00:00.0
	# bus 00 is the lowest when it is there: no need to list the domain's
	# buses (a pex89144 has 85), which the per-port helpers do per port
	[[ -e /sys/class/pci_bus/$PD:00 ]] && return
	for b in /sys/class/pci_bus/"$PD":*; do
		[[ -e $b ]] || break
		P=${b##*/}:00.0
		break
	done
}

# pci_sec DEV DEFAULT: the secondary bus number of bridge DEV as two hex
# digits, DEFAULT if DEV is not there (removed, or the view is off)
pci_sec() {
	local b
	if IFS= read -r b 2>/dev/null <"$PCI/$1/secondary_bus_number"; then
		printf -v R '%02x' "$b"
	else
		printf -v R '%02x' "$2"
	fi
}

# pci_port SW PORT: PCI name of a port, found as the kernel numbered the
# bridges above it: the upstream port on the Root Port's secondary bus,
# the downstream ports (at device n, or function n - 1) on the upstream
# port's;
# where a bridge is missing, the bus numbers the card's firmware gives
# (1, 2; see pciesw(4))
pci_port() {
	local k=$(($2 - 1)) up
	pci_rp "$1"
	pci_layout "$1"
	pci_sec "$P" 1; up=$PD:$R:00.0
	if (($2 == 0)); then
		P=$up
		return
	fi
	pci_sec "$up" 2
	if ((PCI_MF[$1])); then
		printf -v P '%s:%s:%02x.%u' "$PD" "$R" $((k / 8)) $((k % 8))
	else
		printf -v P '%s:%s:%02x.0' "$PD" "$R" "$2"
	fi
}

# pci_ep SW PORT: PCI name of the endpoint behind a downstream port: device
# 0 of the port's secondary bus (firmware's 3 + k if the port is missing)
pci_ep() {
	local pp
	pci_port "$1" "$2"; pp=$P
	pci_sec "$pp" $(($2 + 2))
	P=$PD:$R:00.0
}

# expected SW: the Root Port, ports + endpoints of the model, into N
expected() {
	local p
	N=1
	for p in "$D/$1"-port*; do
		N=$((N + 1))
		rd "$p/endpoint"
		[[ -n $R ]] && N=$((N + 1))
	done
}

# pci_count SW: PCI devices of its domain, into N
pci_count() {
	local f
	N=0
	pci_dom "${1#pciesw}"
	for f in "$PCI/$PD":*; do
		[[ -e $f ]] && N=$((N + 1))
	done
}

# tree_ok DESC SW: the PCI devices are exactly the Root Port and the
# model's ports and eps
tree_ok() {
	local want p i port bad=
	# endpoints whose link just came up answer after their readiness
	# time (pci_ready_ms), then are scanned: a few hundred ms
	deadline 10000
	while :; do
		expected "$2"; want=$N
		pci_count "$2"
		((N == want)) || ! before_deadline && break
		nap 0.05
	done
	if ((N != want)); then
		fail "$1: $N PCI devices, model has the Root Port + $((want - 1)) ports + endpoints"
		return 1
	fi
	pci_rp "$2"
	[[ -e $PCI/$P ]] || bad+=" $P"
	for p in "$D/$2"-port*; do
		i=${p##*-port}
		pci_port "$2" "$i"; port=$P
		[[ -e $PCI/$port ]] || bad+=" $port"
		rd "$p/endpoint"
		if [[ -n $R ]]; then
			pci_ep "$2" "$i"
			[[ -e $PCI/$P ]] || bad+=" $P"
		fi
	done
	if [[ -n $bad ]]; then
		fail "$1: missing$bad"
		return 1
	fi
	ok "$1"
}

# links_diff SW: the ports and endpoints whose PCI link width or speed
# differ from the model's, into BAD (empty when none)
links_diff() {
	local p i w s
	BAD=
	for p in "$D/$1"-port*; do
		i=${p##*-port}
		rd "$p/current_link_width"; w=$R
		rd "$p/current_link_speed"; s=$R
		pci_port "$1" "$i"
		rd "$PCI/$P/current_link_width"
		[[ $R == "$w" ]] || BAD+=" $P:width:$R!=$w"
		rd "$PCI/$P/current_link_speed"
		[[ $R == "$s" ]] || BAD+=" $P:speed:$R!=$s"
		rd "$p/endpoint"
		# an endpoint behind a link that is down answers nothing
		if [[ -n $R && $w != 0 ]]; then
			pci_ep "$1" "$i"
			rd "$PCI/$P/current_link_width"
			# one whose link just came up answers once it is ready
			if [[ $R != "$w" ]]; then
				ep_ready "$P" || BAD+=" $P:no-answer"
				rd "$PCI/$P/current_link_width"
			fi
			[[ $R == "$w" ]] || BAD+=" $P:width:$R!=$w"
		fi
	done
}

# links_ok DESC SW: PCI current_link_width/speed == the model, every port
# and every endpoint (whose link is its port's).  The model is read before
# the PCI view, so a link that changes between the two (the kernel's AER
# recovery retrains one after a surprise down on a port that is not a
# hot-plug slot) differs for a moment: a difference must last 2 s to count.
links_ok() {
	local end saved=${T_END:-0}
	deadline 2000; end=$T_END; T_END=$saved
	links_diff "$2"
	while [[ -n $BAD ]] && before_deadline "$end"; do
		nap 0.1
		links_diff "$2"
	done
	if [[ -n $BAD ]]; then
		fail "$1:$BAD"
		return 1
	fi
	ok "$1"
}

# lspci_has DESC DEV REGEX: lspci -vvv of DEV matches REGEX
lspci_has() {
	local out
	# stderr apart: without /lib/modules lspci complains about libkmod
	out=$(lspci -vvv -s "$2" 2>/dev/null)
	if [[ $out =~ $3 ]]; then
		ok "$1"
	else
		fail "$1"
		diag "lspci -vvv -s $2:" "$out"
	fi
}

lspci_hasnt() {
	local out
	out=$(lspci -vvv -s "$2" 2>/dev/null)
	if [[ $out =~ $3 ]]; then
		fail "$1"
		diag "$out"
	else
		ok "$1"
	fi
}

# driver DEV: the name of the driver bound to DEV, into R
driver() {
	R=$(readlink "$PCI/$1/driver" 2>/dev/null)
	R=${R##*/}
}

# pci_require: what every PCI-view test needs of the environment
# (selftests/expected-skips lists these skips), else the test is skipped
pci_require() {
	[[ -d /sys/bus/pci/devices ]] || skip_all "kernel without PCI support"
	command -v lspci >/dev/null || skip_all "lspci (pciutils) not installed"
	command -v setpci >/dev/null || skip_all "setpci (pciutils) not installed"
}

# ---- the kernel log, for the error-handling tests --------------------------
#   log_mark; log_since; log_wait ERE; logged DESC ERE; q NAME

# log_mark: later log_since reads only what the kernel logged after it;
# the mark names this run (its PID) so that a test run again in the same
# boot does not read from an earlier run's mark of the same number
log_mark() {
	MARK="${0##*/}: pid $$ mark $((++NMARK))"
	echo "$MARK" >/dev/kmsg
}
NMARK=0 MARK=
# log_since: the kernel log after the last mark (all of it before the
# first), into R
log_since() {
	if [[ -n $MARK ]]; then
		R=$(dmesg | sed -n "/$MARK\$/,\$p")
	else
		R=$(dmesg)
	fi
}
# log_wait ERE: until the log after the mark matches ERE (5 s, 25 s debug)
log_wait() {
	deadline 5000
	while :; do
		log_since
		[[ $R =~ $1 ]] && return 0
		before_deadline || return 1
		nap 0.05
	done
}
# logged DESC ERE: one case, a kernel log line matching ERE comes
logged() {
	if log_wait "$2"; then
		ok "$1"
	else
		fail "$1"
		diag "$R"
	fi
}
# q NAME: NAME ERE-quoted (the dots of a PCI name), into R
q() { R=${1//./\\.}; }
# aer_reg DEV OFF: a dword of DEV's AER capability, as a number, into R
aer_reg() {
	R=$((0x$(setpci -s "$1" "ECAP_AER+$2.l")))
}
# ep_id DEV: the first dword of endpoint DEV's config space as setpci
# prints it (device ID, vendor ID: 233110de for an H100), from the PCI
# core's files of the device, into R; endpoints have their type's IDs
ep_id() {
	local v d
	[[ -r $PCI/$1/vendor && -r $PCI/$1/device ]] || return 1
	v=$(<"$PCI/$1/vendor") && d=$(<"$PCI/$1/device") || return 1
	R=${d#0x}${v#0x}
}
# ep_ready DEV: until endpoint DEV answers config reads with its IDs, not
# all ones (link down) or Retry Status (resetting): 20 s, 100 s debug
ep_ready() {
	local id= v
	ep_id "$1" && id=$R
	deadline 20000
	while :; do
		v=$(setpci -s "$1" 0.l 2>/dev/null)
		# a device not added yet: any IDs but all ones and Retry Status
		if [[ -n $id ]]; then
			[[ $v == "$id" ]] && return 0
		elif [[ -n $v && $v != ffffffff && $v != ????0001 ]]; then
			return 0
		fi
		before_deadline || return 1
		nap 0.05
	done
}
# dev_wait DEV: until PCI device DEV exists (10 s, 50 s debug): one that
# was hot-added is scanned once it has answered
dev_wait() {
	deadline 10000
	while :; do
		[[ -e $PCI/$1 ]] && return 0
		before_deadline || return 1
		nap 0.05
	done
}
# pci_card SW: the runner's card SW is there and its links settled
pci_card() {
	[[ -e $D/$1 ]] || bail "$1 is not there (the runner loads the module with it)"
	settled "$1" || diag "$1 did not settle"
}
# port_hist_mark SW PORT: remember the last entry of the port's LTSSM
# history; port_hist_has SW PORT STATE: a transition to STATE came after it
port_hist_mark() {
	mapfile -t HIST <"$D/$1-port$2/ltssm_history"
	HMARK=${HIST[-1]}
}
port_hist_has() {
	local i after=0
	mapfile -t HIST <"$D/$1-port$2/ltssm_history"
	for ((i = 0; i < ${#HIST[@]}; i++)); do
		((after)) && [[ ${HIST[i]} == *" $3" ]] && return 0
		[[ ${HIST[i]} == "$HMARK" ]] && after=1
	done
	return 1
}
