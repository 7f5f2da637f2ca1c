// SPDX-License-Identifier: GPL-2.0
/*
 * Ports: port show (in detail, with the LTSSM history), port set.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* --- port show ------------------------------------------------------------ */

int cmd_port_show(int argc, char **argv)
{
	struct objs ports = { 0 };
	struct port_target t;
	struct nl_session *s;
	struct nl_msg *req;
	char name[32];
	size_t i;
	int ret;

	ret = parse_switch_opt_port(argc, argv, &t);
	if (ret)
		return ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	/* a dump filtered by switch-id says "no such switch" too */
	req = port_target_request_new(s, PCIESW_CMD_PORT_GET, true, &t);
	ret = objs_run(s, req, &ports,
		       t.one ? "cannot get the port" : "cannot list ports");
	nl_session_close(s);
	if (ret)
		return ret;

	switch_name(name, sizeof(name), t.id);
	open_object(NULL);
	print_string(t.one ? PRINT_ANY : PRINT_JSON, "switch", "%s ", name);
	if (!t.one)
		open_array("ports");
	for (i = 0; i < ports.n; i++) {
		if (!t.one) {
			if (i)
				print_text("\n");
			print_string(PRINT_TEXT, NULL, "%s ", name);
			open_object(NULL);
		}
		print_port_detail(objs_hdr(&ports, i), ports.tb[i], 0);
		if (!t.one)
			close_object();
	}
	if (!t.one)
		close_array();
	close_object();
	objs_free(&ports);
	return finish(EXIT_OK);
}

const char port_show_help[] =
	"Prints the port PORT (a number), or every port of SWITCH: role,\n"
	"lane group, lanes, link state, LTSSM state, negotiated speed and\n"
	"width, degraded, target and maximum speed, maximum width, failed\n"
	"lanes, injected bit-error rate (BER, 0: none), the link's\n"
	"modelled throughput each way (port-bandwidth, bytes/s: speed x\n"
	"width x encoding x TLP efficiency at the switch's MPS; while the\n"
	"link is up), ACS redirect, surprise-down count, endpoint, the\n"
	"PCI name (port-pci-name, ffff:02:01.0; with the PCI view), and\n"
	"the last\n"
	"64 LTSSM transitions: CLOCK_MONOTONIC time in seconds, the time\n"
	"since the previous transition, from -> to.\n"
	"With -j: with PORT, an object with \"switch\" (the name) and the\n"
	"port-get attributes, port-ltssm-transition an array of\n"
	"{transition-time (ns), transition-from, transition-to}, oldest\n"
	"first; without PORT, {\"switch\": NAME, \"ports\": [...]}.\n";

/* --- port set ------------------------------------------------------------- */

static int parse_speed(const char *arg, uint32_t *speed)
{
	char *choices;

	if (enum_parse(&link_speed_names, arg, PCIESW_LINK_SPEED_GEN1, speed))
		return EXIT_OK;
	choices = enum_choices(&link_speed_names, PCIESW_LINK_SPEED_GEN1);
	usage_error("invalid speed \"%s\": expected %s (or the rate, 32GT/s)",
		    arg, choices);
	free(choices);
	return EXIT_USAGE;
}

/* The words of "port set", indexes into set_words[]. */
enum set_word {
	SET_STATE,
	SET_SPEED,
	SET_FAILED_LANES,
	SET_ACS,
	SET_RETRAIN,
	SET_HOT_RESET,
	SET_SURPRISE_DOWN,
	SET_BER,
	NR_SET_WORDS,
};

static const char *const set_words[NR_SET_WORDS] = {
	[SET_STATE] = "state",
	[SET_SPEED] = "speed",
	[SET_FAILED_LANES] = "failed-lanes",
	[SET_ACS] = "acs",
	[SET_RETRAIN] = "retrain",
	[SET_HOT_RESET] = "hot-reset",
	[SET_SURPRISE_DOWN] = "surprise-down",
	[SET_BER] = "ber",
};

static int parse_port_settings(int argc, char **argv,
			       struct port_settings *ps)
{
	bool seen[NR_SET_WORDS] = { false };
	int i, w, ret;

	port_settings_init(ps);
	if (!argc)
		return usage_error("nothing to set");
	for (i = 0; i < argc; i++) {
		const char *arg;

		for (w = 0; w < NR_SET_WORDS; w++)
			if (!strcmp(argv[i], set_words[w]))
				break;
		if (w == NR_SET_WORDS)
			return usage_error("unknown setting \"%s\"", argv[i]);
		if (seen[w])
			return usage_error("\"%s\" given twice", set_words[w]);
		seen[w] = true;
		switch (w) {
		case SET_RETRAIN:
			ps->retrain = true;
			continue;
		case SET_HOT_RESET:
			ps->hot_reset = true;
			continue;
		case SET_SURPRISE_DOWN:
			ps->surprise_down = true;
			continue;
		}
		if (i + 1 >= argc)
			return usage_error("\"%s\" needs a value",
					   set_words[w]);
		arg = argv[++i];
		switch (w) {
		case SET_STATE:
			ret = parse_on_off("state", arg, "up", "down",
					   &ps->enabled);
			break;
		case SET_SPEED:
			ret = parse_speed(arg, &ps->speed);
			break;
		case SET_FAILED_LANES:
			ps->has_failed = true;
			ret = parse_lane_mask(arg, &ps->failed);
			break;
		case SET_BER:
			ps->has_ber = true;
			ret = parse_ber_arg(arg, &ps->ber);
			break;
		default:	/* SET_ACS */
			ret = parse_on_off("acs", arg, "on", "off", &ps->acs);
			break;
		}
		if (ret)
			return ret;
	}
	return EXIT_OK;
}

int cmd_port_set(int argc, char **argv)
{
	struct port_settings ps;
	uint32_t id, port = 0;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = parse_switch_port(argc, argv, &id, &port);
	if (!ret)
		ret = parse_port_settings(argc - 2, argv + 2, &ps);
	if (ret)
		return ret;
	return port_set_run(id, port, &ps);
}

const char port_set_help[] =
	"Settings, as many as needed, in one request (the module checks\n"
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
	"show.  Prints nothing on success.\n";
