// SPDX-License-Identifier: GPL-2.0
/*
 * Switches: list, show, status, switch add/del/set.
 *
 * Every command first fetches all it needs (switches, then their lane
 * groups or ports), and prints only once everything arrived: a failure
 * halfway leaves stdout empty instead of half a JSON document.  Without a
 * SWITCH argument, a command prints a JSON array of what it prints for one
 * switch, so scripts handle one shape.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* --- list ----------------------------------------------------------------- */

int cmd_list(int argc, char **argv)
{
	struct nl_session *s;
	struct objs sw = { 0 };
	size_t i;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	if (argc)
		return usage_error("too many arguments: \"%s\"", argv[0]);
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = objs_fetch(s, PCIESW_CMD_SWITCH_GET, true, false, 0, &sw,
			 "cannot list switches");
	nl_session_close(s);
	if (ret)
		return ret;

	open_array(NULL);
	print_text("%-10s %-12s %5s  %-14s %5s\n", "NAME", "PROFILE", "LANES",
		   "SERIAL", "PORTS");
	for (i = 0; i < sw.n; i++) {
		struct nlattr **tb = sw.tb[i];

		open_object(NULL);
		print_attr_u32(PRINT_JSON, "switch-id", NULL,
			       tb[PCIESW_A_SWITCH_ID]);
		print_attr_string(PRINT_ANY, "switch-name", "%-10s ",
				  tb[PCIESW_A_SWITCH_NAME]);
		print_attr_string(PRINT_ANY, "switch-profile", "%-12s ",
				  tb[PCIESW_A_SWITCH_PROFILE]);
		print_attr_u32(PRINT_ANY, "switch-lanes", "%5s  ",
			       tb[PCIESW_A_SWITCH_LANES]);
		print_attr_string(PRINT_ANY, "switch-serial", "%-14s ",
				  tb[PCIESW_A_SWITCH_SERIAL]);
		print_attr_u32(PRINT_ANY, "switch-nr-ports", "%5s",
			       tb[PCIESW_A_SWITCH_NR_PORTS]);
		print_text("\n");
		close_object();
	}
	close_array();
	objs_free(&sw);
	return finish(EXIT_OK);
}

const char list_help[] =
	"The serial number is root-only: without CAP_SYS_ADMIN the\n"
	"kernel leaves it out.\n"
	"With -j: an array of objects with the switch-get attributes\n"
	"switch-id, switch-name, switch-profile, switch-lanes,\n"
	"switch-serial (with CAP_SYS_ADMIN), switch-nr-ports.\n";

/* --- show ----------------------------------------------------------------- */

static void show_switch(struct nlattr **tb, const struct objs *groups,
			const struct objs *fw)
{
	open_object(NULL);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_ANY, "switch-name", "%s:",
			  tb[PCIESW_A_SWITCH_NAME]);
	print_attr_string(PRINT_ANY, "switch-profile", " profile %s",
			  tb[PCIESW_A_SWITCH_PROFILE]);
	print_attr_string(PRINT_ANY, "switch-description", " (%s)\n",
			  tb[PCIESW_A_SWITCH_DESCRIPTION]);
	print_attr_u32(PRINT_TEXT, NULL, "  id %s", tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_ANY, "switch-lanes", " lanes %s",
		       tb[PCIESW_A_SWITCH_LANES]);
	print_attr_string(PRINT_ANY, "switch-serial", " serial %s",
			  tb[PCIESW_A_SWITCH_SERIAL]);
	print_attr_u32(PRINT_ANY, "switch-nr-groups", " groups %s",
		       tb[PCIESW_A_SWITCH_NR_GROUPS]);
	print_attr_u32(PRINT_ANY, "switch-nr-ports", " ports %s\n",
		       tb[PCIESW_A_SWITCH_NR_PORTS]);
	print_text("  ");
	print_switch_settings(tb);
	print_text("\n");
	print_pci_view(tb);
	print_fw_summary(fw, tb);

	print_text("  lane groups:\n");
	print_switch_groups(tb, groups, 4, NULL);
	close_object();
}

/* show and switch show */
const char show_help[] =
	"Prints the switch (all switch-get attributes; switch-serial only\n"
	"with CAP_SYS_ADMIN) and its lane\n"
	"groups: name, type, lanes, bifurcation config and the allowed\n"
	"configs.  The switch's settings (see switch set): whether the\n"
	"host bridge forwards P2P (host-p2p), DMA pacing, Max Payload\n"
	"Size (mps, bytes), DMA channels, the DMA descriptors in flight\n"
	"now, and the PCI view: on or off, and the PCI domain (hex, as\n"
	"lspci writes it, e.g. ffff; switch-pci-domain is a number).\n"
	"The firmware: the version that runs, its partition (A or B) and\n"
	"the version the other partition holds (see fw show).\n"
	"With -j: an object with the switch-* attributes (switch-host-p2p\n"
	"and switch-dma-pacing true/false), fw-running-version and\n"
	"fw-stored-version (null when that partition holds no valid image)\n"
	"and \"groups\", an array of\n"
	"objects with the group-* attributes; without SWITCH, an array of\n"
	"such objects.\n";

int cmd_show(int argc, char **argv)
{
	return per_switch_cmd(argc, argv, PCIESW_CMD_GROUP_GET, "lane groups",
			      PCIESW_CMD_FW_GET, "firmware", show_switch);
}

/* --- status --------------------------------------------------------------- */

static void status_switch(struct nlattr **sw, const struct objs *ports,
			  const struct objs *unused __attribute__((unused)))
{
	size_t i;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_port_header();
	open_array("ports");
	for (i = 0; i < ports->n; i++)
		if (same_switch(ports->tb[i], sw))
			print_port_line(ports->tb[i]);
	close_array();
	close_object();
}

int cmd_status(int argc, char **argv)
{
	return per_switch_cmd(argc, argv, PCIESW_CMD_PORT_GET, "ports", 0, NULL,
			      status_switch);
}

const char status_help[] =
	"Columns: port id, lane group, role, lanes, width (configured/\n"
	"negotiated, \"-\" while the link is down), negotiated, target and\n"
	"maximum speed, LTSSM state, link (up, down, or disabled when\n"
	"software disabled it), ACS P2P request redirect (downstream\n"
	"ports), degraded (negotiated width below what both ends can do),\n"
	"failed lanes (bit n: lane n of the port is dead; none), the\n"
	"port's PCI name (domain:bus:dev.fn as lspci, dmesg and AER\n"
	"write it, e.g. ffff:02:01.0; \"-\" without the PCI view) and the\n"
	"attached endpoint.\n"
	"With -j: {\"switch\": NAME, \"ports\": [...]} where each port has\n"
	"the port-get attributes but the LTSSM history (see port show;\n"
	"enums as their spec names, e.g. \"port-ltssm\": \"l0\",\n"
	"\"port-speed\": \"gen5\"; flags as true/false; ep-id and ep-name\n"
	"null without an endpoint); without SWITCH, an array of such\n"
	"objects.\n";

/* --- switch add / del ----------------------------------------------------- */

/*
 * "switch add ID [PROFILE]" (@max 2) and "switch del ID" (@max 1): request
 * @cmd about the switch ID, one that need not exist; @what, with the id,
 * says what failed.
 */
static int switch_id_request(int argc, char **argv, int max, uint8_t cmd,
			     const char *what)
{
	uint32_t id;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = need_args(argc, argv, max, "switch id", NULL);
	if (ret)
		return ret;
	if (!parse_switch_id(argv[0], &id))
		return usage_error("invalid switch id \"%s\": expected <N> or pciesw<N>, N from 0 to %u",
				   argv[0], PCIESW_MAX_SWITCH_ID);
	if (argc == 2 && (!*argv[1] || strlen(argv[1]) >= PCIESW_NAME_LEN))
		return usage_error("invalid profile name \"%s\": 1 to %u characters",
				   argv[1], PCIESW_NAME_LEN - 1);
	return switch_request_run(cmd, id, argc == 2 ? argv[1] : NULL, what);
}

int cmd_switch_add(int argc, char **argv)
{
	return switch_id_request(argc, argv, 2, PCIESW_CMD_SWITCH_NEW,
				 "cannot create switch %u");
}

const char switch_add_help[] =
	"ID is a number (3) or name (pciesw3), 0-255.  PROFILE names a\n"
	"card model known to the module; without it the module's default\n"
	"(pex89048, the 48-lane card) is used.\n";

int cmd_switch_del(int argc, char **argv)
{
	return switch_id_request(argc, argv, 1, PCIESW_CMD_SWITCH_DEL,
				 "cannot delete switch %u");
}

const char switch_del_help[] =
	"ID is a number (3) or name (pciesw3), 0-255.\n";

/* --- switch set ----------------------------------------------------------- */

/* What "switch set" asks for; -1: unchanged. */
struct switch_settings {
	int host_p2p;
	int pacing;
	int pci_view;
	bool has_mps, has_channels;
	uint32_t mps;
	uint32_t channels;
};

/* The words of "switch set", each with a value, each at most once. */
enum { SW_HOST_P2P, SW_PACING, SW_MPS, SW_CHANNELS, SW_PCI_VIEW,
	NR_SW_WORDS };

static const char *const sw_words[NR_SW_WORDS] = {
	[SW_HOST_P2P] = "host-p2p",
	[SW_PACING] = "pacing",
	[SW_MPS] = "mps",
	[SW_CHANNELS] = "channels",
	[SW_PCI_VIEW] = "pci-view",
};

/* A number setting; the module says what range it takes. */
static int parse_u32_setting(const char *word, const char *arg,
			     uint32_t *val)
{
	unsigned long v;

	if (!parse_uint(arg, UINT32_MAX, &v))
		return usage_error("invalid %s \"%s\": expected a number",
				   word, arg);
	*val = v;
	return EXIT_OK;
}

static int parse_switch_settings(int argc, char **argv,
				 struct switch_settings *ss)
{
	bool seen[NR_SW_WORDS] = { false };
	int i, w, ret;

	*ss = (struct switch_settings){ .host_p2p = -1, .pacing = -1,
					.pci_view = -1 };
	if (!argc)
		return usage_error("nothing to set");
	for (i = 0; i < argc; i += 2) {
		for (w = 0; w < NR_SW_WORDS; w++)
			if (!strcmp(argv[i], sw_words[w]))
				break;
		if (w == NR_SW_WORDS)
			return usage_error("unknown setting \"%s\"", argv[i]);
		if (seen[w])
			return usage_error("\"%s\" given twice", sw_words[w]);
		seen[w] = true;
		if (i + 1 >= argc)
			return usage_error("\"%s\" needs a value",
					   sw_words[w]);
		switch (w) {
		case SW_HOST_P2P:
			ret = parse_on_off(sw_words[w], argv[i + 1], "on",
					   "off", &ss->host_p2p);
			break;
		case SW_PACING:
			ret = parse_on_off(sw_words[w], argv[i + 1], "on",
					   "off", &ss->pacing);
			break;
		case SW_PCI_VIEW:
			ret = parse_on_off(sw_words[w], argv[i + 1], "on",
					   "off", &ss->pci_view);
			break;
		case SW_MPS:
			ss->has_mps = true;
			ret = parse_u32_setting(sw_words[w], argv[i + 1],
						&ss->mps);
			break;
		default:	/* SW_CHANNELS */
			ss->has_channels = true;
			ret = parse_u32_setting(sw_words[w], argv[i + 1],
						&ss->channels);
			break;
		}
		if (ret)
			return ret;
	}
	return EXIT_OK;
}

int cmd_switch_set(int argc, char **argv)
{
	struct switch_settings ss;
	struct nl_session *s;
	struct nl_msg *req;
	uint32_t id;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = need_args(argc, argv, -1, "switch", NULL);
	if (!ret)
		ret = parse_switch_arg(argv[0], &id);
	if (!ret)
		ret = parse_switch_settings(argc - 1, argv + 1, &ss);
	if (ret)
		return ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	/* one request: the module checks every value before changing any */
	req = nl_request_new(s, PCIESW_CMD_SWITCH_SET, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	if (ss.host_p2p >= 0)
		nl_put_u8(req, PCIESW_A_SWITCH_HOST_P2P, ss.host_p2p);
	if (ss.pacing >= 0)
		nl_put_u8(req, PCIESW_A_SWITCH_DMA_PACING, ss.pacing);
	if (ss.pci_view >= 0)
		nl_put_u8(req, PCIESW_A_SWITCH_PCI_VIEW, ss.pci_view);
	/* numbers out of range are sent too: the module says what it takes */
	if (ss.has_mps)
		nl_put_u32(req, PCIESW_A_SWITCH_MPS, ss.mps);
	if (ss.has_channels)
		nl_put_u32(req, PCIESW_A_SWITCH_DMA_CHANNELS, ss.channels);
	ret = nl_request_run(s, req, NULL, "cannot set switch %u", id);
	nl_session_close(s);
	return finish(ret);
}

const char switch_set_help[] =
	"Settings, as many as needed, in one request (the module checks\n"
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
	"show prints them.  Prints nothing on success.\n";
