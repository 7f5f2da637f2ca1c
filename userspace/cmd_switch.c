// SPDX-License-Identifier: GPL-2.0
/*
 * Switches: list, show, status, switch add/del.
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
#include "print.h"
#include "util.h"

/* The replies of one request, parsed. */
struct objs {
	struct msg_list msgs;
	struct nlattr *(*tb)[PCIESW_A_MAX + 1];
	size_t n;
};

static void objs_free(struct objs *o)
{
	msg_list_free(&o->msgs);
	free(o->tb);
	*o = (struct objs){ 0 };
}

/*
 * Get objects of type @cmd: one switch (a do), or a dump of all, optionally
 * only those of switch @id (@filter).
 */
static int objs_fetch(struct nl_session *s, uint8_t cmd, bool dump,
		      bool filter, uint32_t id, struct objs *o,
		      const char *what)
{
	struct nl_msg *req = nl_request_new(s, cmd, dump);
	size_t i;
	int ret;

	if (filter)
		nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	ret = nl_request_run(s, req, &o->msgs, "%s", what);
	if (ret)
		return ret;
	o->n = o->msgs.n;
	o->tb = xcalloc(o->n, sizeof(*o->tb));
	for (i = 0; i < o->n; i++) {
		if (nl_parse_reply(o->msgs.msgs[i], o->tb[i]) < 0) {
			objs_free(o);
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

/* These commands take no options: "-x" is a wrong option, not a switch. */
static int no_options(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return usage_error("unknown option \"%s\"", argv[i]);
	return EXIT_OK;
}

/* Which switches a command is about: [SWITCH]. */
struct target {
	bool all;
	uint32_t id;
};

static int parse_target(int argc, char **argv, struct target *t)
{
	t->all = true;
	if (no_options(argc, argv))
		return EXIT_USAGE;
	if (argc > 1)
		return usage_error("too many arguments: \"%s\"", argv[1]);
	if (argc == 1) {
		if (!parse_switch_id(argv[0], &t->id))
			return usage_error("invalid switch \"%s\": expected pciesw<N> or <N>, N from 0 to %u",
					   argv[0], PCIESW_MAX_SWITCH_ID);
		t->all = false;
	}
	return EXIT_OK;
}

/*
 * The switches of @t and the objects of type @cmd (groups, ports) that
 * belong to them.  One switch is asked for by id, so a wrong id gets the
 * kernel's "no such switch" rather than an empty list.
 */
static int fetch_with_children(struct nl_session *s, const struct target *t,
			       uint8_t cmd, struct objs *sw, struct objs *ch,
			       const char *children)
{
	char *what;
	int ret;

	what = t->all ? xstrdup("cannot list switches") :
			xasprintf("cannot get switch %u", t->id);
	ret = objs_fetch(s, PCIESW_CMD_SWITCH_GET, t->all, !t->all, t->id, sw,
			 what);
	free(what);
	if (ret)
		return ret;
	what = t->all ? xasprintf("cannot list %s", children) :
			xasprintf("cannot list %s of switch %u", children,
				  t->id);
	ret = objs_fetch(s, cmd, true, !t->all, t->id, ch, what);
	free(what);
	if (ret)
		objs_free(sw);
	return ret;
}

/* Does the object @tb belong to switch @sw?  (Absent ids match nothing.) */
static bool same_switch(struct nlattr **tb, struct nlattr **sw)
{
	return tb[PCIESW_A_SWITCH_ID] && sw[PCIESW_A_SWITCH_ID] &&
	       nla_get_u32(tb[PCIESW_A_SWITCH_ID]) ==
	       nla_get_u32(sw[PCIESW_A_SWITCH_ID]);
}

/* "first-last" of a lane range, "-" when unknown. */
static void lanes_text(char *buf, size_t len, const struct nlattr *first,
		       const struct nlattr *nr)
{
	uint32_t f, n;

	if (!first || !nr || !nla_get_u32(nr)) {
		snprintf(buf, len, "-");
		return;
	}
	f = nla_get_u32(first);
	n = nla_get_u32(nr);
	snprintf(buf, len, "%u-%llu", f, (unsigned long long)f + n - 1);
}

static int finish(int ret)
{
	if (print_finish() < 0 && !ret) {
		error("cannot write the output");
		ret = EXIT_FAIL;
	}
	return ret;
}

/* --- list ----------------------------------------------------------------- */

int cmd_list(int argc, char **argv)
{
	struct nl_session *s;
	struct objs sw = { 0 };
	size_t i;
	int ret;

	if (no_options(argc, argv))
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

/* --- show ----------------------------------------------------------------- */

static void show_group(struct nl_msg *msg, struct nlattr **tb)
{
	struct genlmsghdr *gnlh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *pos;
	char lanes[32];
	bool any = false;
	int rem;

	open_object(NULL);
	print_attr_u32(PRINT_ANY, "group-id", "    %-3s ", tb[PCIESW_A_GROUP_ID]);
	print_attr_string(PRINT_ANY, "group-name", "%-8s ",
			  tb[PCIESW_A_GROUP_NAME]);
	print_attr_enum(PRINT_ANY, "group-type", "%-5s ",
			tb[PCIESW_A_GROUP_TYPE], &group_type_names);
	print_attr_u32(PRINT_JSON, "group-first-lane", NULL,
		       tb[PCIESW_A_GROUP_FIRST_LANE]);
	print_attr_u32(PRINT_JSON, "group-nr-lanes", NULL,
		       tb[PCIESW_A_GROUP_NR_LANES]);
	lanes_text(lanes, sizeof(lanes), tb[PCIESW_A_GROUP_FIRST_LANE],
		   tb[PCIESW_A_GROUP_NR_LANES]);
	print_string(PRINT_TEXT, NULL, "%-8s ", lanes);
	print_attr_string(PRINT_ANY, "group-config", "%-7s ",
			  tb[PCIESW_A_GROUP_CONFIG]);

	/* multi-attr: tb[] holds only the last one, walk them all */
	open_array("group-allowed-config");
	nla_for_each_attr(pos, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(pos) != PCIESW_A_GROUP_ALLOWED_CONFIG)
			continue;
		print_string(PRINT_ANY, NULL, any ? " %s" : "%s",
			     nla_get_string(pos));
		any = true;
	}
	if (!any)
		print_null(PRINT_TEXT, NULL, "%s");
	close_array();
	print_text("\n");
	close_object();
}

static void show_switch(struct nlattr **tb, const struct objs *groups)
{
	size_t i;

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

	print_text("  lane groups:\n    %-3s %-8s %-5s %-8s %-7s %s\n", "ID",
		   "NAME", "TYPE", "LANES", "CONFIG", "ALLOWED");
	open_array("groups");
	for (i = 0; i < groups->n; i++)
		if (same_switch(groups->tb[i], tb))
			show_group(groups->msgs.msgs[i], groups->tb[i]);
	close_array();
	close_object();
}

int cmd_show(int argc, char **argv)
{
	struct objs sw = { 0 }, groups = { 0 };
	struct nl_session *s;
	struct target t;
	size_t i;
	int ret;

	ret = parse_target(argc, argv, &t);
	if (ret)
		return ret;
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = fetch_with_children(s, &t, PCIESW_CMD_GROUP_GET, &sw, &groups,
				  "lane groups");
	nl_session_close(s);
	if (ret)
		return ret;

	if (t.all)
		open_array(NULL);
	for (i = 0; i < sw.n; i++) {
		if (i)
			print_text("\n");
		show_switch(sw.tb[i], &groups);
	}
	if (t.all)
		close_array();
	objs_free(&sw);
	objs_free(&groups);
	return finish(EXIT_OK);
}

/* --- status --------------------------------------------------------------- */

/* "x16/x8": configured vs negotiated width, "x16/-" while the link is down */
static void width_text(char *buf, size_t len, const struct nlattr *max,
		       const struct nlattr *cur)
{
	int n;

	n = max ? snprintf(buf, len, "x%u/", nla_get_u32(max)) :
		  snprintf(buf, len, "-/");
	if (n < 0 || (size_t)n >= len)
		return;
	if (cur && nla_get_u32(cur))
		snprintf(buf + n, len - n, "x%u", nla_get_u32(cur));
	else
		snprintf(buf + n, len - n, "-");
}

static void status_port(struct nlattr **tb)
{
	const struct nlattr *role = tb[PCIESW_A_PORT_ROLE];
	bool upstream = role && nla_get_u32(role) == PCIESW_PORT_ROLE_UPSTREAM;
	char buf[32];

	open_object(NULL);
	print_attr_u32(PRINT_ANY, "port-id", "%-4s ", tb[PCIESW_A_PORT_ID]);
	print_attr_u32(PRINT_JSON, "group-id", NULL, tb[PCIESW_A_GROUP_ID]);
	print_attr_string(PRINT_ANY, "group-name", "%-6s ",
			  tb[PCIESW_A_GROUP_NAME]);
	print_attr_enum(PRINT_ANY, "port-role", "%-10s ", role,
			&port_role_names);

	print_attr_u32(PRINT_JSON, "port-first-lane", NULL,
		       tb[PCIESW_A_PORT_FIRST_LANE]);
	print_attr_u32(PRINT_JSON, "port-nr-lanes", NULL,
		       tb[PCIESW_A_PORT_NR_LANES]);
	lanes_text(buf, sizeof(buf), tb[PCIESW_A_PORT_FIRST_LANE],
		   tb[PCIESW_A_PORT_NR_LANES]);
	print_string(PRINT_TEXT, NULL, "%-7s ", buf);

	print_attr_u32(PRINT_JSON, "port-max-width", NULL,
		       tb[PCIESW_A_PORT_MAX_WIDTH]);
	print_attr_u32(PRINT_JSON, "port-width", NULL, tb[PCIESW_A_PORT_WIDTH]);
	width_text(buf, sizeof(buf), tb[PCIESW_A_PORT_MAX_WIDTH],
		   tb[PCIESW_A_PORT_WIDTH]);
	print_string(PRINT_TEXT, NULL, "%-8s ", buf);

	print_attr_enum(PRINT_ANY, "port-speed", "%-7s ",
			tb[PCIESW_A_PORT_SPEED], &link_speed_names);
	print_attr_enum(PRINT_ANY, "port-target-speed", "%-7s ",
			tb[PCIESW_A_PORT_TARGET_SPEED], &link_speed_names);
	print_attr_enum(PRINT_ANY, "port-max-speed", "%-7s ",
			tb[PCIESW_A_PORT_MAX_SPEED], &link_speed_names);
	print_attr_enum(PRINT_ANY, "port-ltssm", "%-13s ",
			tb[PCIESW_A_PORT_LTSSM], &ltssm_names);
	print_attr_flag(PRINT_ANY, "port-link-active", "%-5s ",
			tb[PCIESW_A_PORT_LINK_ACTIVE], "up", "down");
	/* ACS P2P redirect is a downstream port's setting */
	print_attr_flag(PRINT_JSON, "port-acs-redirect", NULL,
			tb[PCIESW_A_PORT_ACS_REDIRECT], NULL, NULL);
	if (upstream)
		print_null(PRINT_TEXT, NULL, "%-4s ");
	else
		print_attr_flag(PRINT_TEXT, NULL, "%-4s ",
				tb[PCIESW_A_PORT_ACS_REDIRECT], "on", "off");
	print_attr_flag(PRINT_ANY, "port-degraded", "%s\n",
			tb[PCIESW_A_PORT_DEGRADED], "yes", "no");
	close_object();
}

static void status_switch(struct nlattr **sw, const struct objs *ports)
{
	size_t i;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_text("%-4s %-6s %-10s %-7s %-8s %-7s %-7s %-7s %-13s %-5s %-4s %s\n",
		   "PORT", "GROUP", "ROLE", "LANES", "WIDTH", "SPEED", "TARGET",
		   "MAX", "LTSSM", "LINK", "ACS", "DEGRADED");
	open_array("ports");
	for (i = 0; i < ports->n; i++)
		if (same_switch(ports->tb[i], sw))
			status_port(ports->tb[i]);
	close_array();
	close_object();
}

int cmd_status(int argc, char **argv)
{
	struct objs sw = { 0 }, ports = { 0 };
	struct nl_session *s;
	struct target t;
	size_t i;
	int ret;

	ret = parse_target(argc, argv, &t);
	if (ret)
		return ret;
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = fetch_with_children(s, &t, PCIESW_CMD_PORT_GET, &sw, &ports,
				  "ports");
	nl_session_close(s);
	if (ret)
		return ret;

	if (t.all)
		open_array(NULL);
	for (i = 0; i < sw.n; i++) {
		if (i)
			print_text("\n");
		status_switch(sw.tb[i], &ports);
	}
	if (t.all)
		close_array();
	objs_free(&sw);
	objs_free(&ports);
	return finish(EXIT_OK);
}

/* --- switch add / del ----------------------------------------------------- */

static int parse_id_arg(const char *arg, uint32_t *id)
{
	if (!parse_switch_id(arg, id))
		return usage_error("invalid switch id \"%s\": expected <N> or pciesw<N>, N from 0 to %u",
				   arg, PCIESW_MAX_SWITCH_ID);
	return EXIT_OK;
}

int cmd_switch_add(int argc, char **argv)
{
	struct nl_session *s;
	struct nl_msg *req;
	uint32_t id;
	int ret;

	if (no_options(argc, argv))
		return EXIT_USAGE;
	if (argc < 1)
		return usage_error("missing switch id");
	if (argc > 2)
		return usage_error("too many arguments: \"%s\"", argv[2]);
	ret = parse_id_arg(argv[0], &id);
	if (ret)
		return ret;
	if (argc == 2 && (!*argv[1] || strlen(argv[1]) >= PCIESW_NAME_LEN))
		return usage_error("invalid profile name \"%s\": 1 to %u characters",
				   argv[1], PCIESW_NAME_LEN - 1);

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = nl_request_new(s, PCIESW_CMD_SWITCH_NEW, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	if (argc == 2)
		nl_put_string(req, PCIESW_A_SWITCH_PROFILE, argv[1]);
	ret = nl_request_run(s, req, NULL, "cannot create switch %u", id);
	nl_session_close(s);
	return finish(ret);
}

int cmd_switch_del(int argc, char **argv)
{
	struct nl_session *s;
	struct nl_msg *req;
	uint32_t id;
	int ret;

	if (no_options(argc, argv))
		return EXIT_USAGE;
	if (argc < 1)
		return usage_error("missing switch id");
	if (argc > 1)
		return usage_error("too many arguments: \"%s\"", argv[1]);
	ret = parse_id_arg(argv[0], &id);
	if (ret)
		return ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = nl_request_new(s, PCIESW_CMD_SWITCH_DEL, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	ret = nl_request_run(s, req, NULL, "cannot delete switch %u", id);
	nl_session_close(s);
	return finish(ret);
}
