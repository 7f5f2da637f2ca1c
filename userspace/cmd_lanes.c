// SPDX-License-Identifier: GPL-2.0
/*
 * Lane groups: lanes show, lanes set (bifurcation).
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
#include "util.h"

/* --- lanes show ----------------------------------------------------------- */

/* the ports tell which port ids each group has now */
static void lanes_switch(struct nlattr **sw, const struct objs *groups,
			 const struct objs *ports)
{
	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_switch_groups(sw, groups, 0, ports);
	close_object();
}

int cmd_lanes_show(int argc, char **argv)
{
	return per_switch_cmd(argc, argv, PCIESW_CMD_GROUP_GET, "lane groups", PCIESW_CMD_PORT_GET, "ports",
			      lanes_switch);
}

const char lanes_show_help[] =
	"Columns: group id, name, type, lanes, bifurcation config (NxW:\n"
	"N ports of W lanes), the ids of the group's ports now, and the\n"
	"configs the group allows.\n"
	"With -j: {\"switch\": NAME, \"groups\": [...]} where each group\n"
	"has the group-get attributes and \"ports\", an array of its port\n"
	"ids; without SWITCH, an array of such objects.\n";

/* --- lanes set ------------------------------------------------------------ */

/* "NxW", both decimal numbers: what the module's configs look like */
static bool valid_config(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n || s[n] != 'x' || strlen(s) > 15)
		return false;
	s += n + 1;
	n = strspn(s, "0123456789");
	return n && !s[n];
}

int cmd_lanes_set(int argc, char **argv)
{
	struct nl_session *s;
	struct nl_msg *req;
	unsigned long gid;
	bool by_id;
	uint32_t id;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = need_args(argc, argv, 3, "switch", "lane group",
			"bifurcation config", NULL);
	if (!ret)
		ret = parse_switch_arg(argv[0], &id);
	if (ret)
		return ret;
	by_id = parse_uint(argv[1], UINT32_MAX, &gid);
	if (!by_id && (!*argv[1] || strlen(argv[1]) >= PCIESW_NAME_LEN))
		return usage_error("invalid lane group \"%s\": a name (nvme) of 1 to %u characters or a group id",
				   argv[1], PCIESW_NAME_LEN - 1);
	if (!valid_config(argv[2]))
		return usage_error("invalid bifurcation \"%s\": expected NxW, N ports of W lanes (4x4, 16x1)",
				   argv[2]);

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = nl_request_new(s, PCIESW_CMD_GROUP_SET, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	if (by_id)
		nl_put_u32(req, PCIESW_A_GROUP_ID, gid);
	else
		nl_put_string(req, PCIESW_A_GROUP_NAME, argv[1]);
	nl_put_string(req, PCIESW_A_GROUP_CONFIG, argv[2]);
	ret = nl_request_run(s, req, NULL, "cannot set lane group %s of switch %u to %s",
			     argv[1], id, argv[2]);
	nl_session_close(s);
	return finish(ret);
}

const char lanes_set_help[] =
	"GROUP is a lane group name (nvme) or id (2); CONFIG one of the\n"
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
	"Prints nothing on success.\n";
