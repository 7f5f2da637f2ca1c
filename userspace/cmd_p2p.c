// SPDX-License-Identifier: GPL-2.0
/*
 * p2p check: how DMA between two endpoints of a switch would travel (the
 * module's p2p-check op), with the ports it crosses as port-get shows them,
 * and when the route is not direct, why and what would make it direct.
 */

#include <inttypes.h>
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

/* A route has at most 4 ports; more is room for a module that grows. */
#define MAX_ROUTE_PORTS	16

struct port_list {
	uint32_t id[MAX_ROUTE_PORTS];
	size_t n;
};

static void add_port(const struct nlattr *a, void *arg)
{
	struct port_list *l = arg;

	if (l->n < MAX_ROUTE_PORTS)
		l->id[l->n++] = nla_get_u32(a);
}

/* The object of @o whose @attr is @id, or NULL. */
static struct nlattr **find_by_id(const struct objs *o, int attr,
				  const struct nlattr *id)
{
	size_t i;

	if (!id)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (o->tb[i][attr] &&
		    nla_get_u32(o->tb[i][attr]) == nla_get_u32(id))
			return o->tb[i];
	return NULL;
}

/* ep-id and ep-name (or peer-*) of an endpoint of the reply */
static void print_ep(const char *id_key, const char *name_key,
		     const char *fmt, const struct nlattr *id,
		     const struct objs *eps)
{
	struct nlattr **ep = find_by_id(eps, PCIESW_A_EP_ID, id);

	print_attr_u32(PRINT_JSON, id_key, NULL, id);
	print_attr_string(PRINT_JSON, name_key, NULL,
			  ep ? ep[PCIESW_A_EP_NAME] : NULL);
	if (ep && ep[PCIESW_A_EP_NAME])
		print_attr_string(PRINT_TEXT, NULL, fmt, ep[PCIESW_A_EP_NAME]);
	else
		print_attr_u32(PRINT_TEXT, NULL, fmt, id);
}

/* "port 2 (nvme, 32GT/s x4)"; JSON the port's link as port-get has it */
static void print_route_port(uint32_t id, const struct objs *ports,
			     bool first)
{
	struct nlattr **pt = NULL;
	bool up;
	size_t i;

	for (i = 0; i < ports->n && !pt; i++)
		if (ports->tb[i][PCIESW_A_PORT_ID] &&
		    nla_get_u32(ports->tb[i][PCIESW_A_PORT_ID]) == id)
			pt = ports->tb[i];
	open_object(NULL);
	print_uint(PRINT_ANY, "port-id", first ? "port %s" : " -> port %s",
		   id);
	if (!pt) {
		close_object();
		return;
	}
	up = pt[PCIESW_A_PORT_LINK_ACTIVE] &&
	     nla_get_u8(pt[PCIESW_A_PORT_LINK_ACTIVE]);
	print_attr_string(PRINT_ANY, "group-name", " (%s, ",
			  pt[PCIESW_A_GROUP_NAME]);
	print_attr_enum(up ? PRINT_ANY : PRINT_JSON, "port-speed", "%s",
			pt[PCIESW_A_PORT_SPEED], &link_speed_names);
	print_attr_u32(up ? PRINT_ANY : PRINT_JSON, "port-width", " x%s)",
		       pt[PCIESW_A_PORT_WIDTH]);
	if (!up)
		print_text("link down)");
	print_attr_bandwidth(PRINT_JSON, "port-bandwidth", NULL,
			     pt[PCIESW_A_PORT_BANDWIDTH]);
	close_object();
}

/*
 * The commands that make the route direct (and, refused, allowed).  A
 * route refused at distance 4 never reached the host bridge: ACS P2P
 * Egress Control blocked it (set through the PCI view's ACS capability).
 */
static void print_fixes(const char *sw, const struct port_list *redirect,
			bool refused, bool blocked)
{
	size_t i;
	char *cmd;

	open_array("fix");
	for (i = 0; i < redirect->n; i++) {
		cmd = xasprintf("switchctl port set %s %u acs off", sw,
				redirect->id[i]);
		print_string(PRINT_ANY, NULL, "  direct with: %s\n", cmd);
		free(cmd);
	}
	if (blocked) {
		print_string(PRINT_ANY, NULL, "  %s\n",
			     "blocked by ACS P2P Egress Control (a port's acs_egress)");
	} else if (refused) {
		cmd = xasprintf("switchctl switch set %s host-p2p on", sw);
		print_string(PRINT_ANY, NULL,
			     "  the host bridge does not forward P2P: %s\n",
			     cmd);
		free(cmd);
	}
	close_array();
}

/* The reply @tb (message @nlh) of p2p-check on switch @sw. */
static bool print_check(const struct nlmsghdr *nlh, struct nlattr **tb,
			const char *sw, const struct objs *ports,
			const struct objs *eps)
{
	struct port_list route = { 0 }, redirect = { 0 };
	uint32_t kind = tb[PCIESW_A_P2P_ROUTE] ?
			nla_get_u32(tb[PCIESW_A_P2P_ROUTE]) : 0;
	size_t i;

	nl_for_each_attr(nlh, PCIESW_A_P2P_PORT, add_port, &route);
	nl_for_each_attr(nlh, PCIESW_A_P2P_REDIRECT_PORT, add_port,
			 &redirect);

	open_object(NULL);
	print_string(PRINT_ANY, "switch", "%s: ", sw);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_ep("ep-id", "ep-name", "%s", tb[PCIESW_A_EP_ID], eps);
	print_ep("peer-ep-id", "peer-ep-name", " -> %s",
		 tb[PCIESW_A_PEER_EP_ID], eps);
	print_attr_enum(PRINT_ANY, "p2p-route", ": %s",
			tb[PCIESW_A_P2P_ROUTE], &p2p_route_names);
	print_attr_u32(PRINT_ANY, "p2p-distance", ", distance %s\n",
		       tb[PCIESW_A_P2P_DISTANCE]);

	open_array("p2p-port");
	for (i = 0; i < route.n; i++)
		print_uint(PRINT_JSON, NULL, NULL, route.id[i]);
	close_array();
	print_text("  route: ");
	open_array("ports");
	for (i = 0; i < route.n; i++)
		print_route_port(route.id[i], ports, !i);
	close_array();
	if (!route.n)
		print_text("-");
	print_text("\n");
	/* nothing moves on a refused route: no bottleneck to speak of */
	print_attr_bandwidth(kind == PCIESW_P2P_ROUTE_REFUSED ? PRINT_JSON :
			     PRINT_ANY, "p2p-bandwidth",
			     "  bottleneck: %s each way\n",
			     tb[PCIESW_A_P2P_BANDWIDTH]);
	print_attr_flag(PRINT_JSON, "switch-host-p2p", NULL,
			tb[PCIESW_A_SWITCH_HOST_P2P], NULL, NULL);

	open_array("p2p-redirect-port");
	for (i = 0; i < redirect.n; i++) {
		print_uint(PRINT_JSON, NULL, NULL, redirect.id[i]);
		print_uint(PRINT_TEXT, NULL,
			   !i ? (redirect.n > 1 ?
				 "  not direct: ACS redirect is on at ports %s" :
				 "  not direct: ACS redirect is on at port %s") :
			   ", %s", redirect.id[i]);
	}
	close_array();
	if (redirect.n)
		print_text("\n");
	print_fixes(sw, &redirect, kind == PCIESW_P2P_ROUTE_REFUSED,
		    kind == PCIESW_P2P_ROUTE_REFUSED &&
		    tb[PCIESW_A_P2P_DISTANCE] &&
		    nla_get_u32(tb[PCIESW_A_P2P_DISTANCE]) == 4);
	close_object();
	return kind != PCIESW_P2P_ROUTE_REFUSED;
}

int cmd_p2p_check(int argc, char **argv)
{
	bool json = false, pretty = false;
	const struct cmd_opt opts[] = {
		JSON_OPTIONS(json, pretty),
		{ NULL, NULL, NULL, NULL },
	};
	struct objs check = { 0 }, ports = { 0 }, eps = { 0 };
	struct ep_ref a, b;
	struct nl_session *s;
	struct nl_msg *req;
	char sw[32];
	uint32_t id;
	bool allowed;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	output_options(json, pretty);
	ret = need_args(argc, argv, 3, "switch", "endpoint", "endpoint", NULL);
	if (!ret)
		ret = parse_switch_arg(argv[0], &id);
	if (!ret)
		ret = parse_ep_arg(argv[1], &a);
	if (!ret)
		ret = parse_ep_arg(argv[2], &b);
	if (ret)
		return ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = ep_request_new(s, PCIESW_CMD_P2P_CHECK, id, &a);
	put_ep_ref(req, &b, true);
	ret = objs_run(s, req, &check, "cannot check the route");
	if (!ret && check.n != 1) {
		error("the kernel answered p2p-check with %zu messages instead of one",
		      check.n);
		ret = EXIT_FAIL;
	}
	if (!ret)
		ret = objs_fetch(s, PCIESW_CMD_PORT_GET, true, true, id, &ports,
				 "cannot list ports");
	if (!ret)
		ret = objs_fetch(s, PCIESW_CMD_EP_GET, true, true, id, &eps,
				 "cannot list endpoints");
	nl_session_close(s);
	if (ret)
		goto out;

	switch_name(sw, sizeof(sw), id);
	allowed = print_check(objs_hdr(&check, 0), check.tb[0], sw, &ports,
			      &eps);
	ret = finish(EXIT_OK);
	if (!ret && !allowed) {
		error("DMA between %s and %s is refused: its route goes through the host bridge, which does not forward P2P",
		      argv[1], argv[2]);
		ret = EXIT_FAIL;
	}
out:
	objs_free(&check);
	objs_free(&ports);
	objs_free(&eps);
	return ret;
}

const char p2p_check_help[] =
	"EP_A and EP_B are endpoint names (nvme0) or ids.  Prints the route\n"
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
	"printed all the same, with an error line on stderr).\n";
