// SPDX-License-Identifier: GPL-2.0
/*
 * switchctl: command-line tool for pciesw virtual PCIe switch cards.
 *
 * This file holds the grammar: global options, the command table with its
 * help texts, and dispatch.  The commands themselves live in cmd_*.c.
 *
 *   switchctl [OPTIONS] [OBJECT] COMMAND [ARGS]
 */

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/pciesw.h>

#include "cmd.h"
#include "objs.h"
#include "print.h"
#include "util.h"

#ifndef SWITCHCTL_VERSION
#define SWITCHCTL_VERSION "unknown"
#endif

struct command {
	const char *object;	/* NULL for a top-level command */
	const char *name;
	const char *args;	/* argument synopsis */
	const char *summary;	/* one line for the command list */
	const char *help;	/* the rest of "COMMAND --help" */
	bool own_options;	/* takes -j/-p after the command too */
	/*
	 * The object's default: "OBJECT [ARGS]" runs it when ARGS do not
	 * begin with one of the object's commands ("errors pciesw0").
	 */
	bool dflt;
	int (*run)(int argc, char **argv);
};

static const char switch_arg_help[] =
	"SWITCH is a switch name (pciesw0) or number (0), 0-255.\n";

/* show and switch show */
static const char show_help[] =
	"Prints the switch (all switch-get attributes; switch-serial only\n"
	"with CAP_SYS_ADMIN) and its lane\n"
	"groups: name, type, lanes, bifurcation config and the allowed\n"
	"configs.  The switch's settings (see switch set): whether the\n"
	"host bridge forwards P2P (host-p2p), DMA pacing, Max Payload\n"
	"Size (mps, bytes), DMA channels, the DMA descriptors in flight\n"
	"now, and the PCI view: on or off, and the PCI domain (hex, as\n"
	"lspci writes it, e.g. 10000; switch-pci-domain is a number).\n"
	"The firmware: the version that runs, its partition (A or B) and\n"
	"the version the other partition holds (see fw show).\n"
	"With -j: an object with the switch-* attributes (switch-host-p2p\n"
	"and switch-dma-pacing true/false), fw-running-version and\n"
	"fw-stored-version (null when that partition holds no valid image)\n"
	"and \"groups\", an array of\n"
	"objects with the group-* attributes; without SWITCH, an array of\n"
	"such objects.\n";

static const struct command commands[] = {
	{
		.name = "list",
		.summary = "one line per switch: profile, lanes, serial",
		.help = "The serial number is root-only: without CAP_SYS_ADMIN the\n"
			"kernel leaves it out.\n"
			"With -j: an array of objects with the switch-get attributes\n"
			"switch-id, switch-name, switch-profile, switch-lanes,\n"
			"switch-serial (with CAP_SYS_ADMIN), switch-nr-ports.\n",
		.run = cmd_list,
	},
	{
		.name = "show",
		.args = "[SWITCH]",
		.summary = "details of switches and their lane groups",
		.help = show_help,
		.run = cmd_show,
	},
	{
		.name = "status",
		.args = "[SWITCH]",
		.summary = "one line per port: link, speed, width, endpoint",
		.help = "Columns: port id, lane group, role, lanes, width (configured/\n"
			"negotiated, \"-\" while the link is down), negotiated, target and\n"
			"maximum speed, LTSSM state, link (up, down, or disabled when\n"
			"software disabled it), ACS P2P request redirect (downstream\n"
			"ports), degraded (negotiated width below what both ends can do),\n"
			"failed lanes (bit n: lane n of the port is dead; none), the\n"
			"port's PCI name (domain:bus:dev.fn as lspci, dmesg and AER\n"
			"write it, e.g. 10000:02:00.0; \"-\" without the PCI view) and the\n"
			"attached endpoint.\n"
			"With -j: {\"switch\": NAME, \"ports\": [...]} where each port has\n"
			"the port-get attributes but the LTSSM history (see port show;\n"
			"enums as their spec names, e.g. \"port-ltssm\": \"l0\",\n"
			"\"port-speed\": \"gen5\"; flags as true/false; ep-id and ep-name\n"
			"null without an endpoint); without SWITCH, an array of such\n"
			"objects.\n",
		.run = cmd_status,
	},
	{
		.object = "lanes",
		.name = "show",
		.args = "[SWITCH]",
		.summary = "lane groups: bifurcation, allowed configs, ports",
		.help = "Columns: group id, name, type, lanes, bifurcation config (NxW:\n"
			"N ports of W lanes), the ids of the group's ports now, and the\n"
			"configs the group allows.\n"
			"With -j: {\"switch\": NAME, \"groups\": [...]} where each group\n"
			"has the group-get attributes and \"ports\", an array of its port\n"
			"ids; without SWITCH, an array of such objects.\n",
		.dflt = true,
		.run = cmd_lanes_show,
	},
	{
		.object = "lanes",
		.name = "set",
		.args = "SWITCH GROUP CONFIG",
		.summary = "re-bifurcate a lane group (needs CAP_NET_ADMIN)",
		.help = "GROUP is a lane group name (nvme) or id (2); CONFIG one of the\n"
			"configs it allows (see lanes show): NxW, N ports of W lanes, as\n"
			"in \"switchctl lanes set pciesw0 nvme 16x1\".\n"
			"The group's links go down, its ports are re-created, its\n"
			"endpoints re-attached in lane order (those left without a port\n"
			"are unplugged), then the links retrain.  Port numbers are\n"
			"physical: each lane where some allowed config starts a port has\n"
			"a fixed number (the default config's ports first, then the other\n"
			"slots in lane order), so the new ports get their slots' numbers\n"
			"and every other port keeps its number and state.  Refused while\n"
			"DMA is in flight on the group.\n"
			"Prints nothing on success.\n",
		.run = cmd_lanes_set,
	},
	{
		.object = "port",
		.name = "show",
		.args = "SWITCH [PORT]",
		.summary = "ports in detail, with their LTSSM history",
		.help = "Prints the port PORT (a number), or every port of SWITCH: role,\n"
			"lane group, lanes, link state, LTSSM state, negotiated speed and\n"
			"width, degraded, target and maximum speed, maximum width, failed\n"
			"lanes, injected bit-error rate (BER, 0: none), the link's\n"
			"modelled throughput each way (port-bandwidth, bytes/s: speed x\n"
			"width x encoding x TLP efficiency at the switch's MPS; while the\n"
			"link is up), ACS redirect, surprise-down count, endpoint, the\n"
			"PCI name (port-pci-name, 10000:02:00.0; with the PCI view), and\n"
			"the last\n"
			"64 LTSSM transitions: CLOCK_MONOTONIC time in seconds, the time\n"
			"since the previous transition, from -> to.\n"
			"With -j: with PORT, an object with \"switch\" (the name) and the\n"
			"port-get attributes, port-ltssm-transition an array of\n"
			"{transition-time (ns), transition-from, transition-to}, oldest\n"
			"first; without PORT, {\"switch\": NAME, \"ports\": [...]}.\n",
		.dflt = true,
		.run = cmd_port_show,
	},
	{
		.object = "port",
		.name = "set",
		.args = "SWITCH PORT SETTING...",
		.summary = "change a port's link (needs CAP_NET_ADMIN; faults CAP_SYS_ADMIN)",
		.help = "Settings, as many as needed, in one request (the module checks\n"
			"them all before it changes anything):\n"
			"  state up|down          enable or disable the link (down: LTSSM\n"
			"                         Disabled until state up)\n"
			"  speed GEN              target link speed, gen1 .. gen5 (or\n"
			"                         2.5GT/s .. 32GT/s); an up link retrains\n"
			"  failed-lanes MASK|none dead lanes of the port, bit n = lane n\n"
			"                         (0x8000: lane 15); the link retrains as\n"
			"                         wide as its healthy lanes allow (degraded)\n"
			"  acs on|off             ACS P2P request redirect (downstream\n"
			"                         ports only)\n"
			"  retrain                retrain the link (Recovery)\n"
			"  hot-reset              hot reset: Hot Reset, then Detect .. L0\n"
			"  surprise-down          drop the link without warning (counted);\n"
			"                         it stays down until retrain or hot-reset\n"
			"  ber RATE               injected bit-error rate of the link\n"
			"                         (1e-9, 2.5e-12; 0 clears; see inject)\n"
			"failed-lanes, surprise-down and ber need CAP_SYS_ADMIN (fault\n"
			"injection), the others CAP_NET_ADMIN.\n"
			"Link training takes some milliseconds of modeled time and goes\n"
			"on after the command returns: follow it with monitor or port\n"
			"show.  Prints nothing on success.\n",
		.run = cmd_port_set,
	},
	{
		.object = "ep",
		.name = "list",
		.args = "[SWITCH]",
		.summary = "one line per endpoint: type, port, limits",
		.help = "Columns: endpoint name, id, type, the port it is attached to,\n"
			"maximum link speed and width, memory window size (binary\n"
			"suffixes: 16G is 16 GiB), PCI name (10000:03:00.0; \"-\" without\n"
			"the PCI view).\n"
			"With -j: {\"switch\": NAME, \"endpoints\": [...]} with the ep-get\n"
			"attributes (ep-mem-size in bytes); without SWITCH, an array of\n"
			"such objects.\n",
		.dflt = true,
		.run = cmd_ep_list,
	},
	{
		.object = "ep",
		.name = "show",
		.args = "SWITCH EP",
		.summary = "an endpoint in detail",
		.help = "EP is an endpoint name (nvme0) or id (2).  Prints its type,\n"
			"port, limits, memory window and PCI name (ep-pci-name).\n"
			"With -j: an object with \"switch\" and the ep-get attributes.\n",
		.run = cmd_ep_show,
	},
	{
		.object = "ep",
		.name = "add",
		.args = "SWITCH PORT TYPE [OPTION]...",
		.summary = "hot-plug an endpoint (needs CAP_SYS_ADMIN)",
		.help = "PORT is an empty downstream port, TYPE gpu, nvme or generic.\n"
			"Options (without them, the type's defaults):\n"
			"  speed GEN     maximum link speed, gen1 .. gen5\n"
			"  width N       maximum link width: 1, 2, 4, 8 or 16 lanes\n"
			"  size BYTES    memory window, whole pages, with an optional K,\n"
			"                M, G or T suffix (binary: 16G is 16 GiB)\n"
			"  block-size N  NVMe: logical block size of its block device\n"
			"                (/dev/pcieswSnI), 512 (default) or 4096\n"
			"Prints the new endpoint as ep show does; its link then trains.\n",
		.run = cmd_ep_add,
	},
	{
		.object = "ep",
		.name = "del",
		.args = "SWITCH EP",
		.summary = "hot-unplug an endpoint (needs CAP_NET_ADMIN)",
		.help = "EP is an endpoint name (nvme0) or id (2).  Its port's link goes\n"
			"down.\n",
		.run = cmd_ep_del,
	},
	{
		.object = "ep",
		.name = "discard",
		.args = "SWITCH EP [offset BYTES] [size BYTES]",
		.summary = "free a range of an endpoint's memory window",
		.help = "Punches a hole in the window (PCIESW_IOC_EP_DISCARD): its pages\n"
			"are freed and every mapping of the range zapped, so it reads as\n"
			"zeros again through mmap, DMA and the block device; the memory\n"
			"leaves mem_resident and the memory cgroup it was charged to.\n"
			"  offset BYTES  start in the window, default 0\n"
			"  size BYTES    length, default to the end of the window\n"
			"Both whole pages, with an optional K, M, G or T suffix.  Prints\n"
			"the resident bytes freed.  Needs read-write access to\n"
			"/dev/pcieswN.\n",
		.run = cmd_ep_discard,
	},
	{
		.name = "temp",
		.args = "[SWITCH] [-v]",
		.summary = "temperatures of the on-die sensors, limits, alarms",
		.help = "One line per sensor: id (hwmon temp<id+1>), label, temperature,\n"
			"max (warning) and crit limits, and the alarms raised (max,\n"
			"crit; an alarm clears when the temperature falls the\n"
			"hysteresis below its limit).  The first line has the highest\n"
			"temperature of all sensors.\n"
			"  -v, --verbose  also the ambient temperature and time constant\n"
			"                 of the thermal model, each sensor's hysteresis\n"
			"                 and override (see inject ... temp)\n"
			"With -j: {\"switch\", the thermal-get attributes: switch-id,\n"
			"thermal-ambient, thermal-time-constant (ms), thermal-highest,\n"
			"thermal-sensor: [{sensor-id, sensor-label, sensor-temp,\n"
			"sensor-max, sensor-crit, sensor-hyst, sensor-max-alarm,\n"
			"sensor-crit-alarm, sensor-override (null unless set)}]};\n"
			"temperatures in millidegrees Celsius.  Without SWITCH, an array\n"
			"of such objects.\n",
		.run = cmd_temp,
	},
	{
		.object = "errors",
		.name = "show",
		.args = "[SWITCH [PORT]] [--all] [--clear]",
		.summary = "error counters of the ports (the default)",
		.help = "\"switchctl errors [SWITCH [PORT]]\" is \"errors show\".  One line\n"
			"per error counter that is not zero: port, class (correctable,\n"
			"uncorrectable), counter, value; \"(no errors)\" if there is none.\n"
			"  -a, --all   every counter, zero or not, traffic counters too\n"
			"              (bytes and TLPs per direction and TLP class)\n"
			"  --clear     clear the counters instead (see errors clear;\n"
			"              needs CAP_NET_ADMIN)\n"
			"With -j: {\"switch\": NAME, \"ports\": [{switch-id, port-id,\n"
			"\"counter\": {NAME: VALUE, ...}}]} with every error counter (and\n"
			"with --all every counter) under its spec name (bad-tlp,\n"
			"ingress-posted-bytes); with PORT, one such port object with\n"
			"\"switch\"; without SWITCH, an array of switch objects.\n",
		.dflt = true,
		.run = cmd_errors_show,
	},
	{
		.object = "errors",
		.name = "clear",
		.args = "SWITCH [PORT]",
		.summary = "zero counters (needs CAP_NET_ADMIN)",
		.help = "Zeroes every counter (errors and traffic) of PORT, or of every\n"
			"port of SWITCH, and re-arms the thresholds on them.  Prints\n"
			"nothing on success.\n",
		.run = cmd_errors_clear,
	},
	{
		.object = "errors",
		.name = "threshold",
		.args = "SWITCH [PORT] COUNTER VALUE",
		.summary = "set a counter threshold (needs CAP_NET_ADMIN)",
		.help = "Sets the threshold of COUNTER on PORT, or without PORT on the sum\n"
			"over the switch's ports.  When the counter reaches VALUE, one\n"
			"threshold notification goes out (see monitor); it is re-armed\n"
			"by clearing the counter or setting the threshold again.  A\n"
			"counter already at VALUE notifies at once.  VALUE 0 removes the\n"
			"threshold.  At most 64 thresholds per switch.\n"
			"COUNTER is a counter's spec name; correctable: receiver-error, bad-tlp,\n"
			"  bad-dllp, replay-num-rollover, replay-timer-timeout,\n"
			"  advisory-non-fatal, corrected-internal, header-log-overflow;\n"
			"uncorrectable: data-link-protocol, surprise-down, poisoned-tlp,\n"
			"  flow-control-protocol, completion-timeout, completer-abort,\n"
			"  unexpected-completion, receiver-overflow, malformed-tlp, ecrc,\n"
			"  unsupported-request, acs-violation.\n"
			"traffic: ingress-posted-bytes, ingress-non-posted-bytes,\n"
			"  ingress-completion-bytes, egress-*-bytes, ingress-*-tlps,\n"
			"  egress-*-tlps (posted, non-posted, completion).\n"
			"Prints nothing on success.\n",
		.run = cmd_errors_threshold,
	},
	{
		.object = "errors",
		.name = "thresholds",
		.args = "[SWITCH]",
		.summary = "the counter thresholds set",
		.help = "Columns: port (\"switch\" for a threshold on the sum over the\n"
			"switch's ports), counter, threshold, the counter's value now,\n"
			"and whether it crossed the threshold since it was armed.\n"
			"With -j: {\"switch\": NAME, \"thresholds\": [...]} with the\n"
			"threshold-get attributes switch-id, port-id (null: switch-wide),\n"
			"counter-id, threshold-value, counter-value, threshold-crossed;\n"
			"without SWITCH, an array of such objects.\n",
		.run = cmd_errors_thresholds,
	},
	{
		.name = "bw",
		.args = "[SWITCH] [--interval S]",
		.summary = "traffic per port: bytes/s and TLPs/s in and out",
		.help = "Reads the traffic counters twice, S seconds apart (default 1;\n"
			"0.01 to 3600, with up to three decimals), and prints per port\n"
			"the ingress (received by the switch on the port) and egress\n"
			"rates in bytes and TLPs per second, over all TLP classes, with\n"
			"SI prefixes (1.05 GB/s = 1.05e9 bytes/s).  A counter that went\n"
			"down between the samples (cleared) counts from zero.\n"
			"With -j: {\"switch\", \"interval-ns\" (measured), \"ports\":\n"
			"[{switch-id, port-id, ingress-bytes-per-s, egress-bytes-per-s,\n"
			"ingress-tlps-per-s, egress-tlps-per-s, \"counter-rate\": {the\n"
			"traffic counters' spec names: per second}}]}, whole numbers;\n"
			"without SWITCH, an array of such objects.\n",
		.run = cmd_bw,
	},
	{
		.name = "inject",
		.args = "SWITCH PORT|temp FAULT...",
		.summary = "fault injection (needs CAP_SYS_ADMIN)",
		.help = "Faults of a port:\n"
			"  SWITCH PORT COUNTER [--count N]\n"
			"        count N (default 1, at most 1000000) errors of the\n"
			"        error counter COUNTER as if the port had detected them;\n"
			"        the link itself is not affected\n"
			"  SWITCH PORT ber RATE\n"
			"        bit-error rate of the link (1e-9, 2.5e-12; 0 clears; at\n"
			"        most 1e-3): each bit error in the traffic counts a\n"
			"        bad-tlp, every 256th a replay-num-rollover and a retrain\n"
			"  SWITCH PORT lane MASK|none\n"
			"        failed lanes, bit n = lane n of the port (as port set\n"
			"        failed-lanes): the link retrains narrower\n"
			"  SWITCH PORT surprise-down\n"
			"        drop the link without warning (counts surprise-down)\n"
			"Temperature:\n"
			"  SWITCH temp [SENSOR] DEGREES|clear\n"
			"        force the temperature of SENSOR (id or label, see temp;\n"
			"        without it every sensor) to DEGREES Celsius (-40 to\n"
			"        150, e.g. 97.5) until cleared; alarms follow it\n"
			"Error counters; correctable: receiver-error, bad-tlp,\n"
			"  bad-dllp, replay-num-rollover, replay-timer-timeout,\n"
			"  advisory-non-fatal, corrected-internal, header-log-overflow;\n"
			"uncorrectable: data-link-protocol, surprise-down, poisoned-tlp,\n"
			"  flow-control-protocol, completion-timeout, completer-abort,\n"
			"  unexpected-completion, receiver-overflow, malformed-tlp, ecrc,\n"
			"  unsupported-request, acs-violation.\n"
			"Prints nothing on success.\n",
		.run = cmd_inject,
	},
	{
		.object = "vpd",
		.name = "show",
		.args = "[SWITCH] [--raw]",
		.summary = "the card's Vital Product Data, decoded (needs CAP_SYS_ADMIN)",
		.help = "Prints the identifier string and the text fields of VPD-R\n"
			"(read-only: PN part number, EC, SN serial, MN, V0 firmware,\n"
			"V1 production batch, V2 configuration) and VPD-W (writable:\n"
			"YA asset tag, Y0-Y9/YB-YZ), and the free space left in VPD-W.\n"
			"  -r, --raw   the image instead, as a hex dump (PCI VPD format,\n"
			"              as sysfs \"vpd\" holds it)\n"
			"With -j: {\"switch\", switch-id, vpd-id-string, \"vpd-field\":\n"
			"[{vpd-keyword, vpd-value, vpd-writable}], vpd-rw-free}; with\n"
			"--raw {\"switch\", switch-id, \"vpd-image\": hex string}.  Without\n"
			"SWITCH, an array of such objects.\n",
		.dflt = true,
		.run = cmd_vpd_show,
	},
	{
		.object = "vpd",
		.name = "set",
		.args = "SWITCH FIELD TEXT",
		.summary = "change a VPD-W field (needs CAP_NET_ADMIN)",
		.help = "FIELD is asset-tag (the YA keyword) or a VPD-W keyword: YA,\n"
			"Y0-Y9, YB-YZ; TEXT printable ASCII (\"\" removes a Yx field).\n"
			"The module refuses anything else (read-only fields, a value that\n"
			"does not fit) and the image stays as it was.  Prints nothing on\n"
			"success.\n",
		.run = cmd_vpd_set,
	},
	{
		.object = "fw",
		.name = "show",
		.args = "[SWITCH]",
		.summary = "the firmware that runs and the two partitions",
		.help = "Prints the running version, the partition it booted from\n"
			"(A or B) and the boots so far, then per partition its state\n"
			"(valid, empty: erased or being written, invalid: a write cut\n"
			"short), version, build time (UTC), payload bytes and CRC-32.\n"
			"Updating is devlink's job: \"devlink dev flash pciesw/pcieswN\n"
			"file NAME\" writes /lib/firmware/NAME into the partition the\n"
			"switch does not run from, \"devlink dev reload pciesw/pcieswN\n"
			"action fw_activate\" (or fw toggle) boots it.\n"
			"With -j: {\"switch\", switch-id, fw-running-version,\n"
			"fw-running-part, fw-pending, fw-boots, \"fw-part\": [{fw-part-id,\n"
			"\"partition\", fw-part-state, fw-part-version,\n"
			"fw-part-build-time, fw-part-len, fw-part-crc, \"running\"}]};\n"
			"without SWITCH an array of such objects.\n",
		.dflt = true,
		.run = cmd_fw_show,
	},
	{
		.object = "fw",
		.name = "toggle",
		.args = "SWITCH",
		.summary = "boot the other firmware partition (needs CAP_NET_ADMIN)",
		.help = "As devlink's reload action fw_activate: the switch boots the\n"
			"partition it does not run from and every link retrains; the\n"
			"running version and VPD V0 change.  When that partition holds\n"
			"no valid image the switch boots the running one again and a\n"
			"warning says so.  Refused while a flash is in progress.\n",
		.run = cmd_fw_toggle,
	},
	{
		.object = "fw",
		.name = "image",
		.args = "--version X.Y.Z [--part P] [--size N] [--build-time T] -o FILE",
		.summary = "build a firmware image for devlink dev flash",
		.help = "Writes an image (include/uapi/linux/pciesw_fw.h: a 64-byte\n"
			"header with magic, target part number, version, build time,\n"
			"payload length and the payload's CRC-32, then the payload) to\n"
			"FILE.  Talks to no module.\n"
			"  --version X.Y.Z  the image's version (0-255.0-255.0-65535)\n"
			"  --part P         the card's part number (VPD PN), default\n"
			"                   PSW-7638D (profile pex89048)\n"
			"  --size N         payload bytes (K, M suffixes), default 64K;\n"
			"                   a card takes at most 1M\n"
			"  --build-time T   seconds since 1970, default now\n"
			"Copy FILE under /lib/firmware and flash it with devlink.\n",
		/* its --version is the image's, not switchctl's */
		.own_options = true,
		.run = cmd_fw_image,
	},
	{
		.object = "log",
		.name = "show",
		.args = "[SWITCH] [--since T] [-j]",
		.summary = "the event log: the last 256 events of each switch",
		.help = "One line per event, oldest first: number, time (UTC), the\n"
			"object that changed (switch, group NAME, portN, an endpoint,\n"
			"sensorN, vpd, fw) and what happened.  Links are logged when they\n"
			"come up, go down or change their degraded state.\n"
			"  --since T   only events at or after T, seconds since 1970\n"
			"              (date +%s), fractions allowed\n"
			"With -j: {\"switch\", switch-id, \"log\": [{log-seq, log-time (ns\n"
			"since 1970), log-object, log-message}]}; without SWITCH an array\n"
			"of such objects.\n",
		.own_options = true,
		.dflt = true,
		.run = cmd_log_show,
	},
	{
		.object = "log",
		.name = "clear",
		.args = "SWITCH",
		.summary = "empty the event log (needs CAP_NET_ADMIN)",
		.help = "Later events are numbered on from the last one.  Prints\n"
			"nothing on success.\n",
		.run = cmd_log_clear,
	},
	{
		.object = "p2p",
		.name = "check",
		.args = "SWITCH EP_A EP_B [-j]",
		.summary = "how DMA between two endpoints travels, and why",
		.help = "EP_A and EP_B are endpoint names (nvme0) or ids.  Prints the route\n"
			"DMA from EP_A to EP_B takes (Linux p2pdma rules):\n"
			"  direct                   port -> switch -> port, distance 4,\n"
			"                           nothing crosses the upstream port\n"
			"  through the host bridge  ACS P2P request redirect on a port sends\n"
			"                           it up through the upstream port and back,\n"
			"                           distance 8\n"
			"  refused                  it would go through the host bridge, and\n"
			"                           the switch's host-p2p setting is off\n"
			"then the ports it crosses with their lane group and link, the\n"
			"modelled throughput of the slowest link, and when the route is\n"
			"not direct, the ports whose ACS redirect is on and the commands\n"
			"that make it direct (\"direct with: switchctl port set SWITCH\n"
			"PORT acs off\"); when refused also the one that lets the host\n"
			"bridge forward P2P (switchctl switch set SWITCH host-p2p on).\n"
			"  -j, --json    (also before the command) an object: \"switch\",\n"
			"                the p2p-check reply's attributes switch-id, ep-id,\n"
			"                peer-ep-id, p2p-route, p2p-distance, p2p-port (an\n"
			"                array of port ids, in order), p2p-bandwidth\n"
			"                (bytes/s), p2p-redirect-port (an array),\n"
			"                switch-host-p2p; and ep-name, peer-ep-name,\n"
			"                \"ports\": [{port-id, group-name, port-speed,\n"
			"                port-width, port-bandwidth}] for the ports of\n"
			"                the route, \"fix\": [the commands, as strings]\n"
			"  -p, --pretty  indented JSON\n"
			"Exit status 1 also when the route is refused (the report is\n"
			"printed all the same, with an error line on stderr).\n",
		.own_options = true,
		.run = cmd_p2p_check,
	},
	{
		.object = "dma",
		.name = "copy",
		.args = "SWITCH SRC DST --size N [-j]",
		.summary = "one DMA transfer through /dev/pcieswN",
		.help = "SRC and DST are EP[:OFFSET], an endpoint name (nvme0) or id and a\n"
			"byte offset in its memory window (default 0; K, M, G, T\n"
			"suffixes: gpu0:4K), or \"host\", a host memory buffer of\n"
			"switchctl's; one of them is an endpoint.\n"
			"  -s, --size N  bytes to move (K, M, G, T suffixes: 64M)\n"
			"Moves N bytes on DMA channel 0, in descriptors of at most 1G\n"
			"that run in order, and prints the bytes moved, the transfers\n"
			"by completion status, the wall time and throughput and the\n"
			"modelled time (the bandwidth model's, summed over the\n"
			"transfers).\n"
			"  -j, --json    (also before the command) {switch, src, dst, size,\n"
			"                bytes, completions, \"status\": {STATUS: count},\n"
			"                wall-ns, bytes-per-s, modelled-ns}; statuses are\n"
			"                the spec's dma-status names: ok, p2p-refused,\n"
			"                unplugged, cancelled, link-down, nomem\n"
			"  -p, --pretty  indented JSON\n"
			"A transfer that completes with another status than ok makes the\n"
			"exit status 1 and an error line name the status (the report is\n"
			"printed all the same).  Needs read-write access to /dev/pcieswN.\n",
		.own_options = true,
		.run = cmd_dma_copy,
	},
	{
		.object = "dma",
		.name = "bench",
		.args = "SWITCH SRC DST --size N [OPTION]... [-j]",
		.summary = "DMA throughput: blocks in flight over channels",
		.help = "SRC and DST as in dma copy.  Moves N bytes from SRC to DST in\n"
			"blocks, keeping a number of them in flight, block i on channel\n"
			"i % C, and prints the throughput (wall clock), completions per\n"
			"second, the modelled time summed over the transfers, and the\n"
			"payload bytes the switch's upstream port counted during the\n"
			"run (its posted and completion byte counters, both ways: 0 for\n"
			"direct P2P; with --bounce twice the size, up and down).\n"
			"  -s, --size N      bytes to move (K, M, G, T suffixes)\n"
			"  -b, --block B     bytes per transfer (default 1M, at most 1G)\n"
			"  -q, --depth Q     blocks in flight (default 16, at most 4096)\n"
			"  -c, --channels C  DMA channels used (default: all the switch\n"
			"                    has, see switch set ... channels)\n"
			"  --bounce          the same move through host memory: each block\n"
			"                    SRC -> host buffer, then host buffer -> DST\n"
			"                    (two dependent transfers), for comparison\n"
			"                    with P2P; SRC and DST are endpoints\n"
			"Host memory in flight (depth x block) is at most 1G.\n"
			"  -j, --json        (also before the command) {switch, src, dst,\n"
			"                    size, bounce, block, depth, channels, bytes,\n"
			"                    completions, \"status\": {STATUS: count},\n"
			"                    wall-ns, bytes-per-s, completions-per-s,\n"
			"                    modelled-ns, upstream-port, upstream-bytes}\n"
			"  -p, --pretty      indented JSON\n"
			"A transfer that completes with another status than ok makes the\n"
			"exit status 1 and an error line name the status (the report is\n"
			"printed all the same).  Needs read-write access to /dev/pcieswN.\n",
		.own_options = true,
		.run = cmd_dma_bench,
	},
	{
		.object = "gds",
		.name = "check",
		.args = "[SWITCH] [-j]",
		.summary = "which drive/GPU pairs a file read goes peer-to-peer between",
		.help = "For every NVMe drive and GPU of the same switch (of SWITCH, or\n"
			"all): whether an O_DIRECT read from the drive's block device\n"
			"into a mapping of the GPU's window goes peer-to-peer (direct,\n"
			"or through the host bridge when ACS redirects) or is refused\n"
			"(host-p2p off: the read fails with EIO), and what fixes it.\n"
			"  -j, --json    (also before the command) [{switch, ep-name,\n"
			"                ep-disk-name, peer-ep-name, p2p-route, p2p}]\n"
			"  -p, --pretty  indented JSON\n"
			"Exit status 1 when a pair is refused.\n",
		.own_options = true,
		.run = cmd_gds_check,
	},
	{
		.object = "gds",
		.name = "read",
		.args = "FILE GPU[:OFFSET] [--size N] [-j]",
		.summary = "one O_DIRECT read of a file into a GPU's window",
		.help = "Reads FILE (a file on a pciesw drive, the drive pcieswSnI, a\n"
			"partition or an md array of them) with O_DIRECT into a mapping\n"
			"of GPU's window at OFFSET (a multiple of 4K; default 0), one\n"
			"read (of at most 1G) as cuFileRead() does: GPUDirect Storage,\n"
			"the drive writing into the GPU; the window is faulted in first.\n"
			"  -s, --size N    bytes (default: the whole file)\n"
			"  --switch SWITCH the GPU's switch, when FILE is elsewhere\n"
			"                  (a GPU of another switch is host memory to the\n"
			"                  drive: the data crosses both upstream ports)\n"
			"  -j, --json      {switch (the GPU's), file, dst, gpu-offset,\n"
			"                  bytes, wall-ns, bytes-per-s, upstream-switch,\n"
			"                  upstream-port, upstream-bytes, host-copies}\n"
			"Prints the bytes, the time, the payload bytes meanwhile of the\n"
			"upstream port of the drive's switch, where the data leaves it for\n"
			"the host (0: peer-to-peer, direct; the GPU's switch may be\n"
			"another; none when FILE is on no pciesw drive), and the copies\n"
			"through host memory (0).  Needs read-write access to /dev/pcieswN.\n",
		.own_options = true,
		.run = cmd_gds_read,
	},
	{
		.object = "gds",
		.name = "write",
		.args = "GPU[:OFFSET] FILE --size N [-j]",
		.summary = "one O_DIRECT write of a GPU's window into a file",
		.help = "Writes N bytes of GPU's window from OFFSET (a multiple of 4K)\n"
			"into FILE with O_DIRECT, created if need be: the drive reads\n"
			"them from the GPU peer-to-peer.  Options and report as gds read.\n",
		.own_options = true,
		.run = cmd_gds_write,
	},
	{
		.object = "gds",
		.name = "bench",
		.args = "FILE GPU [--block B] [--depth Q] [--threads T] [--bounce] [-j]",
		.summary = "GDS throughput: a file into a GPU, blocks in flight",
		.help = "Reads FILE into GPU's window (wrapping around in it) in blocks\n"
			"of B (default 1M, a multiple of 4K) with Q x T blocks in flight\n"
			"(T threads, each with Q synchronous readers; defaults 1), and\n"
			"prints the throughput, IOPS, latency percentiles and the\n"
			"payload bytes of the drive's switch's upstream port (as gds read).\n"
			"  -s, --size N    read only the first N bytes of FILE\n"
			"  --bounce        without GDS: read each block into a host buffer,\n"
			"                  then DMA it host -> GPU through /dev/pcieswN\n"
			"  --switch SWITCH as gds read\n"
			"  -j, --json      {switch, file, dst, bounce, block, depth,\n"
			"                  threads, bytes, wall-ns, bytes-per-s, iops,\n"
			"                  lat-p50-ns, lat-p99-ns, lat-max-ns,\n"
			"                  upstream-switch, upstream-port, upstream-bytes,\n"
			"                  host-copies}\n",
		.own_options = true,
		.run = cmd_gds_bench,
	},
	{
		.name = "monitor",
		.args = "[SWITCH] [EVENT...] [-j] [-p] [-t]",
		.summary = "print events as they happen, until interrupted",
		.help = "Listens to the module's \"monitor\" notifications and prints one\n"
			"line per event, flushed at once, until SIGINT or SIGTERM (exit\n"
			"0).  If the module is unloaded, says so on stderr and exits 3,\n"
			"so that a supervisor (systemd Restart=) starts it again.\n"
			"SWITCH: only that switch's events; EVENT...: only those events\n"
			"(the names below: switch-create, port-change, ...).\n"
			"  -t, --timestamp  stamp events with the wall-clock time, ISO\n"
			"                   8601 local time (2026-12-01T11:42:03.123456+00:00):\n"
			"                   the text lines begin with it instead of the\n"
			"                   CLOCK_MONOTONIC seconds, JSON has \"timestamp\"\n"
			"Text lines begin with the CLOCK_MONOTONIC time (seconds) when the\n"
			"event was received:\n"
			"  [  105.120333] switch pciesw2 created (profile tiny8, 8 lanes, 2 ports)\n"
			"  [  105.211009] pciesw0 lanes nvme: 16x1\n"
			"  [  105.302417] pciesw0 ep add nvme4 on port 7 (nvme, gen5 x4, 4G)\n"
			"  [  105.310250] pciesw0 port 7: link up gen5 x1 (l0)\n"
			"  [  105.422871] pciesw0 port 1: link degraded x8 (was x16)\n"
			"  [  106.001234] pciesw0 port 3: threshold bad-tlp reached (10 >= 10)\n"
			"  [  107.500000] pciesw0 sensor 0: warning alarm raised (96.0\u00b0C)\n"
			"  [  108.250000] pciesw0 vpd changed: YA \"rack7\"\n"
			"  [  109.000000] pciesw0 settings: host-p2p off pacing on mps 256 channels 4 (dma in flight 0)\n"
			"For a port it says what changed since the state seen before:\n"
			"link up or down, speed, width, degraded set or cleared, LTSSM\n"
			"state (or the states a retrain went through), settings, endpoint.\n"
			"  -j, --json    one JSON object per line: \"event\" (switch-create,\n"
			"                switch-delete, group-change, port-change, ep-add,\n"
			"                ep-del, threshold, thermal-alarm, vpd-change,\n"
			"                switch-change, fw-change),\n"
			"                \"time\" (CLOCK_MONOTONIC ns, when\n"
			"                received), \"switch\" (the name) and the object's\n"
			"                attributes as the get commands print them.  A\n"
			"                port-change also has \"changes\": link-up,\n"
			"                link-down, degraded, degraded-cleared, width,\n"
			"                speed, ltssm, retrain, enabled, disabled,\n"
			"                dpc-contained, dpc-released,\n"
			"                target-speed, failed-lanes, acs-redirect, ber,\n"
			"                surprise-down, ep-attached, ep-detached, or state\n"
			"                (nothing to compare with);\n"
			"                its port-ltssm-transition holds only the\n"
			"                transitions since the port's previous event.\n"
			"                threshold: switch-id, port-id (null: on the sum\n"
			"                over the switch), counter-id, threshold-value,\n"
			"                counter-value; thermal-alarm: switch-id,\n"
			"                sensor-id, sensor-temp (m\u00b0C), alarm-level\n"
			"                (warning, critical), alarm-active (false: it\n"
			"                cleared); vpd-change: as vpd show -j prints it\n"
			"                (its fields only with CAP_SYS_ADMIN);\n"
			"                switch-change: switch-id, switch-name and the\n"
			"                settings as show -j prints them; fw-change:\n"
			"                switch-id, fw-running-version, fw-running-part,\n"
			"                fw-pending, fw-boots.\n"
			"  -p, --pretty  indented JSON (implies -j)\n"
			"The global -j and -p (before the command) work too.  Events lost\n"
			"to a receive buffer overrun are reported on stderr.\n",
		.own_options = true,
		.run = cmd_monitor,
	},
	{
		.name = "top",
		.args = "[SWITCH] [-d SECONDS] [-b] [-n COUNT] [-j]",
		.summary = "the cards' health live, full screen (or -b batch)",
		.help = top_help,
		.own_options = true,
		.run = cmd_top,
	},
	{
		.object = "switch",
		.name = "add",
		.args = "ID [PROFILE]",
		.summary = "create switch ID (needs CAP_SYS_ADMIN)",
		.help = "ID is a number (3) or name (pciesw3), 0-255.  PROFILE names a\n"
			"card model known to the module; without it the module's default\n"
			"(pex89048, the 48-lane card) is used.\n",
		.run = cmd_switch_add,
	},
	{
		.object = "switch",
		.name = "del",
		.args = "ID",
		.summary = "delete switch ID (needs CAP_SYS_ADMIN)",
		.help = "ID is a number (3) or name (pciesw3), 0-255.\n",
		.run = cmd_switch_del,
	},
	{
		.object = "switch",
		.name = "show",
		.args = "[SWITCH]",
		.summary = "the same as show: a switch, its settings, lane groups",
		.help = show_help,
		.dflt = true,
		.run = cmd_show,
	},
	{
		.object = "switch",
		.name = "set",
		.args = "SWITCH SETTING...",
		.summary = "change a switch's settings (needs CAP_NET_ADMIN; pci-view CAP_SYS_ADMIN)",
		.help = "Settings, as many as needed, in one request (the module checks\n"
			"them all before it changes anything):\n"
			"  host-p2p on|off   the host bridge above the switch forwards P2P\n"
			"                    (default on); off: DMA that ACS redirect sends\n"
			"                    up to it is refused (status p2p-refused)\n"
			"  pacing on|off     on: a DMA completion is not delivered before\n"
			"                    the modelled end of its transfer (default off:\n"
			"                    as fast as memory allows)\n"
			"  mps N             Max Payload Size, bytes: 128 to 4096, a power\n"
			"                    of 2 (default 256); refused while DMA is in\n"
			"                    flight\n"
			"  channels N        DMA channels, 1 to 16 (default 4); refused\n"
			"                    while DMA is in flight\n"
			"  pci-view on|off   the switch shows on the PCI bus (lspci) as a\n"
			"                    hierarchy in a domain of its own (default on)\n"
			"pci-view needs CAP_SYS_ADMIN, the others CAP_NET_ADMIN.\n"
			"show prints them.  Prints nothing on success.\n",
		.run = cmd_switch_set,
	},
	{
		.name = "export",
		.args = "[SWITCH] [--textfile DIR]",
		.summary = "metrics in the Prometheus text format (needs CAP_SYS_ADMIN)",
		.help = "Prints the state of the switches (all, or SWITCH) in the\n"
			"Prometheus text exposition format (HELP and TYPE lines, base\n"
			"units in the names, _total for counters, _info for inventory).\n"
			"  --textfile DIR  write DIR/pciesw.prom instead, atomically (a\n"
			"                  temporary file in DIR renamed over it), for\n"
			"                  node_exporter --collector.textfile.directory=DIR;\n"
			"                  run it from a timer (e.g. every 15 s)\n"
			"Metrics (labels switch=\"pciesw0\", port=\"3\" where they apply):\n"
			"  pciesw_switch_info{profile,serial,pci_domain}, pciesw_switch_lanes,\n"
			"  pciesw_vpd_info{id_string,part_number,engineering_change,\n"
			"    serial_number,manufacturer_id,firmware_version,asset_tag},\n"
			"  pciesw_dma_inflight_descriptors,\n"
			"  pciesw_port_info{role,group,pci_name,ep}, pciesw_port_up,\n"
			"  pciesw_port_enabled, pciesw_port_link_speed_transfers_per_second,\n"
			"  pciesw_port_link_max_speed_transfers_per_second,\n"
			"  pciesw_port_link_width_lanes, pciesw_port_link_max_width_lanes,\n"
			"  pciesw_port_link_degraded, pciesw_port_failed_lanes_mask,\n"
			"  pciesw_port_link_bandwidth_bytes_per_second,\n"
			"  pciesw_port_surprise_downs_total,\n"
			"  pciesw_port_aer_errors_total{class,counter} (every AER counter,\n"
			"    spec names: class=\"correctable\",counter=\"bad-tlp\"),\n"
			"  pciesw_port_traffic_bytes_total{direction,type},\n"
			"  pciesw_port_traffic_tlps_total{direction,type} (direction ingress\n"
			"    or egress, type posted, non-posted or completion),\n"
			"  pciesw_threshold{port,counter}, pciesw_threshold_crossed{port,\n"
			"    counter} (port=\"switch\": on the sum over the switch),\n"
			"  pciesw_temperature_celsius{sensor,label}, and _max_celsius,\n"
			"  _crit_celsius, _max_alarm, _crit_alarm of each sensor.\n"
			"The temperatures are also on hwmon (chip \"pciesw\"), which\n"
			"node_exporter's hwmon collector already reads\n"
			"(node_hwmon_temp_celsius{chip=...}); the export has them per\n"
			"switch and sensor label so they join the port metrics.\n"
			"Needs CAP_SYS_ADMIN: it reads the VPD and the serial numbers,\n"
			"which are root-only.\n",
		.run = cmd_export,
	},
	{
		.name = "verify",
		.args = "FILE | --dump [SWITCH]",
		.summary = "check the cards against an as-built description (needs CAP_SYS_ADMIN)",
		.help = "Compares the live switches with FILE (\"-\": stdin), a JSON\n"
			"as-built description, and prints one line per check:\n"
			"  PASS pciesw0 port 1 width: expected >=8, found 16\n"
			"  FAIL pciesw0 part-number: expected \"X\", found \"Y\"\n"
			"then \"N passed, M failed\".  Exit 1 if any check failed.\n"
			"  -d, --dump    print the description of the switches now (all,\n"
			"                or SWITCH) in that format, ready to edit\n"
			"  -j, --json    {\"file\", \"checks\": [{result (pass, fail),\n"
			"                switch, port (null: the card), check, expected,\n"
			"                found}], passed, failed}\n"
			"  -p, --pretty  indented JSON\n"
			"FILE: {\"format\": \"pciesw-as-built\", \"version\": 1,\n"
			"\"switches\": [{\"switch\": \"pciesw0\", \"profile\", \"part-number\"\n"
			"(VPD PN), \"serial\", \"firmware\" (VPD V0), \"lanes\": {GROUP:\n"
			"\"NxW\"}, \"ports\": [{\"port\": N, \"role\", \"speed\" (gen1 ..\n"
			"gen5, none while down), \"width\" (lanes, 0 while down),\n"
			"\"pci-name\", \"ep\" (null: no endpoint), \"ep-type\",\n"
			"\"ep-pci-name\"}]}]}.  Only \"switch\" and \"port\" are required;\n"
			"what is left out is not checked.  Tolerances: \"width\": \">=8\",\n"
			"\"speed\": \">=gen4\", or \"min-width\": 8, \"min-speed\": \"gen4\".\n"
			"Unknown keys, wrong types and invalid JSON are errors that\n"
			"name the place in the file (exit 2).\n"
			"Needs CAP_SYS_ADMIN (--dump too): it reads the VPD and the\n"
			"serial numbers, which are root-only.\n",
		.own_options = true,
		.run = cmd_verify,
	},
	{
		.name = "load",
		.args = "[--switches N] [PATH]",
		.summary = "load the module (installed, or the file PATH)",
		.help = "Without PATH, loads the installed module like modprobe would;\n"
			"with PATH, inserts that pciesw.ko.\n"
			"  --switches N   create switches pciesw0..N-1 (0-256; module\n"
			"                 parameter nr_switches, default 1)\n"
			"Needs CAP_SYS_MODULE.  Fails if the module is already loaded.\n",
		.run = cmd_load,
	},
	{
		.name = "unload",
		.summary = "unload the pciesw module",
		.help = "Fails while the module is in use (e.g. /dev/pcieswN open).\n"
			"Needs CAP_SYS_MODULE.\n",
		.run = cmd_unload,
	},
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char exit_help[] =
	"Exit status:\n"
	"  0  success\n"
	"  1  the operation failed (kernel refused it, no such object, permission)\n"
	"  2  usage error (verify: also an invalid FILE)\n"
	"  3  the pciesw module is not loaded (no \"pciesw\" netlink family),\n"
	"     or (monitor) it was unloaded\n";

/* The command column of the command lists */
#define SYNOPSIS_WIDTH 29

static void print_synopsis(FILE *f, const struct command *c)
{
	char *s = xasprintf("%s%s%s%s%s", c->object ? c->object : "",
			    c->object ? " " : "", c->name,
			    c->args ? " " : "", c->args ? c->args : "");

	/* a synopsis too long for the column puts the summary below it */
	if (strlen(s) > SYNOPSIS_WIDTH)
		fprintf(f, "  %s\n  %-*s %s\n", s, SYNOPSIS_WIDTH, "",
			c->summary);
	else
		fprintf(f, "  %-*s %s\n", SYNOPSIS_WIDTH, s, c->summary);
	free(s);
}

static void main_help(void)
{
	size_t i;

	printf("Usage: switchctl [OPTIONS] COMMAND [ARGS]\n"
	       "       switchctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
	       "       switchctl [OBJECT] [COMMAND] --help\n"
	       "\n"
	       "Objects and commands may be shortened to a unique prefix (port sh);\n"
	       "an object alone, or followed by SWITCH, shows or lists (port\n"
	       "pciesw0 = port show pciesw0).  Options take --opt=value as well\n"
	       "as --opt value; \"--\" ends the options.  JSON (-j) is an object\n"
	       "for one switch, an array of such objects for all switches.\n"
	       "Errors the kernel reports keep the command's context and name the\n"
	       "attribute (its spec name): \"error: cannot set switch 0: switch-mps:\n"
	       "MPS must be a power of 2 ...\"; a number outside the range of the\n"
	       "kernel's policy or the spec gets the range: \"ATTR: 0 is out of\n"
	       "range 1-16\".\n"
	       "\n"
	       "Manage pciesw virtual PCIe switch cards through the \"%s\" generic\n"
	       "netlink family.\n"
	       "\n"
	       "Commands:\n", PCIESW_FAMILY_NAME);
	for (i = 0; i < NR_COMMANDS; i++)
		print_synopsis(stdout, &commands[i]);
	printf("  %-*s %s\n", SYNOPSIS_WIDTH, "help [OBJECT] [COMMAND]",
	       "this help, or a command's");
	printf("\n%s"
	       "\n"
	       "Options (before the command, or after it as in iproute2):\n"
	       "  -j, --json      JSON output; keys are the attribute names of the\n"
	       "                  netlink spec (Documentation/netlink/specs/pciesw.yaml)\n"
	       "  -p, --pretty    indented JSON (implies --json)\n"
	       "  -h, --help      this help\n"
	       "  -V, --version   print the version\n"
	       "\n%s", switch_arg_help, exit_help);
}

static void command_help(const struct command *c)
{
	printf("Usage: switchctl [OPTIONS] %s%s%s%s%s\n\n%c%s.\n",
	       c->object ? c->object : "", c->object ? " " : "", c->name,
	       c->args ? " " : "", c->args ? c->args : "",
	       toupper((unsigned char)c->summary[0]), c->summary + 1);
	if (c->help)
		printf("\n%s", c->help);
	if (c->args && strstr(c->args, "SWITCH"))
		printf("\n%s", switch_arg_help);
	printf("\n%s", exit_help);
}

static bool is_object(const char *word);

static void object_help(const char *object)
{
	const struct command *dflt = NULL;
	size_t i;

	printf("Usage: switchctl [OPTIONS] %s COMMAND [ARGS]\n\nCommands:\n",
	       object);
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!commands[i].object || strcmp(commands[i].object, object))
			continue;
		print_synopsis(stdout, &commands[i]);
		if (commands[i].dflt)
			dflt = &commands[i];
	}
	if (dflt)
		printf("\nWithout COMMAND: %s %s.\n", object, dflt->name);
	printf("\nswitchctl %s COMMAND --help shows a command's help.\n\n%s",
	       object, exit_help);
}

static const struct command *default_command(const char *object)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (commands[i].dflt && !strcmp(commands[i].object, object))
			return &commands[i];
	return NULL;
}

static const struct command *find_command(const char *object,
					  const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++) {
		const struct command *c = &commands[i];

		if (!!c->object != !!object ||
		    (object && strcmp(c->object, object)))
			continue;
		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

/*
 * The word @w, or the one word it is a prefix of (iproute2's "port sh"),
 * among the top-level words (@object NULL: objects and commands without
 * one) or the commands of @object.  An exact match wins.  NULL if there is
 * none; with several, a usage error naming them, *@ret set.
 */
static const char *resolve(const char *object, const char *w, int *ret)
{
	const char *found = NULL, *word;
	char *all = NULL, *next;
	size_t i, len = strlen(w), n = 0;

	*ret = EXIT_OK;
	for (i = 0; i < NR_COMMANDS; i++) {
		const struct command *c = &commands[i];

		if (object)
			word = c->object && !strcmp(c->object, object) ?
			       c->name : NULL;
		else
			word = c->object ? c->object : c->name;
		if (word && !strcmp(word, w))
			return word;
	}
	if (!len)
		return NULL;
	for (i = 0; i < NR_COMMANDS; i++) {
		const struct command *c = &commands[i];

		if (object)
			word = c->object && !strcmp(c->object, object) ?
			       c->name : NULL;
		else
			word = c->object ? c->object : c->name;
		/* an object's word comes once per command: count it once */
		if (!word || strncmp(word, w, len) ||
		    (found && !strcmp(found, word)) ||
		    (all && strstr(all, word)))
			continue;
		next = xasprintf("%s%s%s", all ? all : "", all ? ", " : "",
				 word);
		free(all);
		all = next;
		if (!found)
			found = word;
		n++;
	}
	if (n > 1) {
		*ret = usage_error("ambiguous command \"%s%s%s\": %s",
				   object ? object : "", object ? " " : "", w,
				   all);
		found = NULL;
	}
	free(all);
	return found;
}

static bool is_object(const char *word)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (commands[i].object && !strcmp(commands[i].object, word))
			return true;
	return false;
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/*
 * -j, -p (and bundles such as -jp), --json and --pretty after the command
 * (before a "--") are the global options, as iproute2 takes them: taken
 * out of argv[0..*argc), the output set up by them.  -V there is a usage
 * error (it goes before the command).
 */
static int output_options_after(int *argc, char **argv)
{
	bool json = false, pretty = false;
	const char *a;
	int i, n = 0;

	for (i = 0; i < *argc; i++) {
		a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[n++] = argv[i++];
			break;
		}
		if (a[0] == '-' && a[1] && a[1] != '-' &&
		    strspn(a + 1, "jpV") == strlen(a + 1)) {
			if (strchr(a, 'V'))
				return usage_error("option \"%s\" goes before the command",
						   a);
			json = true;
			pretty = pretty || strchr(a, 'p');
			continue;
		}
		if (!strcmp(a, "--json")) {
			json = true;
			continue;
		}
		if (!strcmp(a, "--pretty")) {
			json = pretty = true;
			continue;
		}
		if (!strcmp(a, "--version"))
			return usage_error("option \"%s\" goes before the command",
					   a);
		argv[n++] = argv[i];
	}
	*argc = n;
	output_options(json, pretty);
	return EXIT_OK;
}

/* --help anywhere among a command's arguments (before "--") asks for help. */
static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (is_help(argv[i]))
			return true;
	return false;
}

static int finish_help(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the output");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * The command named by argv[0..] ("COMMAND" or "OBJECT COMMAND"), and in
 * *used how many words that took.  For "OBJECT" alone or "OBJECT --help"
 * returns NULL with *ret = EXIT_OK: the caller shows the object's help.
 * Otherwise NULL means a usage error, already printed, exit code in *ret.
 * With @dflt, an object with a default command runs it for "OBJECT" alone
 * and for "OBJECT ARGS" whose ARGS name none of its commands.
 */
static const struct command *lookup(int argc, char **argv, int *used,
				    int *ret, bool dflt)
{
	const struct command *c = NULL, *d;
	const char *word, *sub;

	word = resolve(NULL, argv[0], ret);
	if (!word) {
		if (!*ret)
			*ret = usage_error("unknown command \"%s\"", argv[0]);
		return NULL;
	}
	/* the full word from here on: help texts and messages use it */
	argv[0] = (char *)word;
	if (!is_object(word)) {
		*used = 1;
		return find_command(NULL, word);
	}
	usage_context(word);
	*used = 2;
	d = dflt ? default_command(word) : NULL;
	if (argc >= 2 && !is_help(argv[1])) {
		sub = resolve(word, argv[1], ret);
		if (*ret)
			return NULL;
		if (sub) {
			argv[1] = (char *)sub;
			c = find_command(word, sub);
		}
	}
	if (!c && d && (argc < 2 || !is_help(argv[1]))) {
		*used = 1;
		return d;
	}
	if (argc < 2 || is_help(argv[1])) {
		*used = 1;
		return NULL;
	}
	if (!c)
		*ret = usage_error("unknown command \"%s %s\"", word,
				   argv[1]);
	return c;
}

/* "help [OBJECT] [COMMAND]" */
static int cmd_help(int argc, char **argv)
{
	const struct command *c;
	int used, ret;

	if (!argc || (argc == 1 && is_help(argv[0]))) {
		main_help();
		return finish_help();
	}
	c = lookup(argc, argv, &used, &ret, false);
	if (ret)
		return ret;
	if (argc > used && !is_help(argv[used]))
		return usage_error("too many arguments: \"%s\"", argv[used]);
	if (c)
		command_help(c);
	else
		object_help(argv[0]);
	return finish_help();
}

int main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, pretty = false;
	const struct command *c;
	char *context;
	int opt, used, ret;

	/* getopt's own messages would not match ours: ':' and opterr = 0 */
	opterr = 0;
	/* '+': options end at the command, whose arguments are its own */
	while ((opt = getopt_long(argc, argv, "+:jphV", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = pretty = true;
			break;
		case 'h':
			main_help();
			return finish_help();
		case 'V':
			printf("switchctl %s (netlink family %s version %d)\n",
			       SWITCHCTL_VERSION, PCIESW_FAMILY_NAME,
			       PCIESW_FAMILY_VERSION);
			return finish_help();
		default:
			if (optopt)
				return usage_error("unknown option \"-%c\"",
						   optopt);
			return usage_error("unknown option \"%s\"",
					   argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc)
		return usage_error("missing command");
	print_init(json, pretty);

	if (!strcmp(argv[0], "help"))
		return cmd_help(argc - 1, argv + 1);

	c = lookup(argc, argv, &used, &ret, true);
	if (!c) {
		if (ret)
			return ret;
		/* "switch" alone is a usage error, "switch --help" is not */
		if (argc < 2)
			return usage_error("missing command after \"%s\"",
					   argv[0]);
		object_help(argv[0]);
		return finish_help();
	}
	if (wants_help(argc - used, argv + used)) {
		command_help(c);
		return finish_help();
	}
	/* usage errors of the command point to the command's --help */
	context = c->object ? xasprintf("%s %s", c->object, c->name) :
			      xstrdup(c->name);
	usage_context(context);
	argc -= used;
	argv += used;
	ret = c->own_options ? EXIT_OK : output_options_after(&argc, argv);
	if (!ret)
		ret = c->run(argc, argv);
	usage_context(NULL);
	free(context);
	return ret;
}
