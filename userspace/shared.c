// SPDX-License-Identifier: GPL-2.0
/*
 * What more than one command file needs beyond objs.h: a request that
 * names one switch (switch add and del, fw toggle, log clear), the port
 * settings of port set (inject sends them too), the upstream port and its payload
 * bytes (dma bench, the gds commands), and the firmware (fw show, show).
 */

#include "attr.h"
#include "nl.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* --- a request about one switch ------------------------------------------- */

int switch_request_run(uint8_t cmd, uint32_t id, const char *profile,
		       const char *what)
{
	struct nl_session *s;
	struct nl_msg *req;
	int ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = nl_request_new(s, cmd, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	if (profile)
		nl_put_string(req, PCIESW_A_SWITCH_PROFILE, profile);
	ret = nl_request_run(s, req, NULL, what, id);
	nl_session_close(s);
	return finish(ret);
}

/* --- port settings -------------------------------------------------------- */

void port_settings_init(struct port_settings *ps)
{
	*ps = (struct port_settings){ .enabled = -1, .acs = -1 };
}

int parse_switch_port(int argc, char **argv, uint32_t *id, uint32_t *port)
{
	int ret;

	ret = need_args(argc, argv, -1, "switch", "port", NULL);
	if (!ret)
		ret = parse_switch_arg(argv[0], id);
	if (!ret)
		ret = parse_port_arg(argv[1], port);
	return ret;
}

int parse_switch_opt_port(int argc, char **argv, struct port_target *t)
{
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = need_args(argc, argv, 2, "switch", NULL);
	if (ret)
		return ret;
	t->one = argc == 2;
	t->port = 0;
	if (t->one)
		return parse_switch_port(argc, argv, &t->id, &t->port);
	return parse_switch_arg(argv[0], &t->id);
}

int parse_ber_arg(const char *arg, uint64_t *ber)
{
	if (parse_ber(arg, ber) && *ber <= PORT_BER_MAX)
		return EXIT_OK;
	return usage_error("invalid bit-error rate \"%s\": expected 0 or a rate from 1e-18 to 1e-3, such as 1e-9 or 2.5e-12",
			   arg);
}

struct nl_msg *port_request_new(struct nl_session *s, uint8_t cmd,
				uint32_t id, uint32_t port)
{
	struct nl_msg *req = nl_request_new(s, cmd, false);

	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	nl_put_u32(req, PCIESW_A_PORT_ID, port);
	return req;
}

struct nl_msg *port_target_request_new(struct nl_session *s, uint8_t cmd,
				       bool dump, const struct port_target *t)
{
	struct nl_msg *req;

	if (t->one)
		return port_request_new(s, cmd, t->id, t->port);
	req = nl_request_new(s, cmd, dump);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, t->id);
	return req;
}

int port_set_run(uint32_t id, uint32_t port, const struct port_settings *ps)
{
	struct nl_session *s;
	struct nl_msg *req;
	int ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	/* one request: the module checks every value before changing any */
	req = port_request_new(s, PCIESW_CMD_PORT_SET, id, port);
	if (ps->enabled >= 0)
		nl_put_u8(req, PCIESW_A_PORT_ENABLED, ps->enabled);
	if (ps->speed)
		nl_put_u32(req, PCIESW_A_PORT_TARGET_SPEED, ps->speed);
	if (ps->has_failed)
		nl_put_u32(req, PCIESW_A_PORT_FAILED_LANES, ps->failed);
	if (ps->acs >= 0)
		nl_put_u8(req, PCIESW_A_PORT_ACS_REDIRECT, ps->acs);
	if (ps->retrain)
		nl_put_flag(req, PCIESW_A_PORT_RETRAIN);
	if (ps->hot_reset)
		nl_put_flag(req, PCIESW_A_PORT_HOT_RESET);
	if (ps->surprise_down)
		nl_put_flag(req, PCIESW_A_PORT_SURPRISE_DOWN_NOW);
	if (ps->has_ber)
		nl_put_u64(req, PCIESW_A_PORT_BER, ps->ber);
	ret = nl_request_run(s, req, NULL, "cannot set port %u of switch %u",
			     port, id);
	nl_session_close(s);
	return finish(ret);
}
/* --- the upstream port ---------------------------------------------------- */

/* The upstream port of switch @id, from a port dump. */
int find_upstream(struct nl_session *s, uint32_t id, uint32_t *port)
{
	struct objs ports = { 0 };
	size_t i;
	int ret;

	ret = objs_fetch(s, PCIESW_CMD_PORT_GET, true, true, id, &ports,
			 "cannot list ports");
	if (ret)
		return ret;
	ret = EXIT_FAIL;
	for (i = 0; i < ports.n && ret; i++) {
		struct nlattr **tb = ports.tb[i];

		if (tb[PCIESW_A_PORT_ID] && tb[PCIESW_A_PORT_ROLE] &&
		    nla_get_u32(tb[PCIESW_A_PORT_ROLE]) ==
		    PCIESW_PORT_ROLE_UPSTREAM) {
			*port = nla_get_u32(tb[PCIESW_A_PORT_ID]);
			ret = EXIT_OK;
		}
	}
	if (ret)
		error("switch %u has no upstream port", id);
	objs_free(&ports);
	return ret;
}

/*
 * Payload bytes the port @port counted, both ways: its byte counters are
 * payload (a read request carries none; the completions carry the data).
 */
int port_bytes(struct nl_session *s, uint32_t id, uint32_t port,
	       uint64_t *bytes)
{
	struct objs o = { 0 };
	struct counter_set c;
	struct nl_msg *req;
	uint32_t i;
	int ret;

	req = port_request_new(s, PCIESW_CMD_COUNTER_GET, id, port);
	ret = objs_run(s, req, &o, "cannot get the counters of the upstream port");
	if (ret)
		return ret;
	*bytes = 0;
	if (o.n == 1) {
		counters_read(objs_hdr(&o, 0), &c);
		for (i = PCIESW_COUNTER_INGRESS_POSTED_BYTES;
		     i <= PCIESW_COUNTER_EGRESS_COMPLETION_BYTES; i++)
			*bytes += c.v[i];
	}
	objs_free(&o);
	return EXIT_OK;
}

/* --- firmware ------------------------------------------------------------- */

/* "A" or "B": the name of an fw-part-id or fw-running-part. */
const char *fw_part_name(const struct nlattr *a)
{
	return !a ? "?" : nla_get_u32(a) ? "B" : "A";
}

/* The stored version of a fw-get reply: the other partition's, if valid. */
static void stored_version(const struct nlattr *nest, void *arg)
{
	struct nlattr **top = ((struct nlattr ***)arg)[0];
	const char **out = ((const char ***)arg)[1];
	struct nlattr *tb[PCIESW_A_MAX + 1];

	if (nl_parse_nest(nest, tb) || !tb[PCIESW_A_FW_PART_ID] ||
	    !top[PCIESW_A_FW_RUNNING_PART] ||
	    nla_get_u32(tb[PCIESW_A_FW_PART_ID]) ==
	    nla_get_u32(top[PCIESW_A_FW_RUNNING_PART]))
		return;
	if (tb[PCIESW_A_FW_PART_VERSION])
		*out = nla_get_string(tb[PCIESW_A_FW_PART_VERSION]);
}

/* show's firmware line: "  firmware 1.10.2 (partition A), stored 1.10.0" */
void print_fw_summary(const struct objs *fw, struct nlattr **sw)
{
	const char *stored = NULL;
	void *arg[2];
	size_t i;

	for (i = 0; i < fw->n; i++)
		if (same_switch(fw->tb[i], sw))
			break;
	if (i == fw->n)
		return;
	arg[0] = fw->tb[i];
	arg[1] = &stored;
	nl_for_each_attr(objs_hdr(fw, i), PCIESW_A_FW_PART, stored_version,
			 arg);
	print_attr_string(PRINT_ANY, "fw-running-version", "  firmware %s",
			  fw->tb[i][PCIESW_A_FW_RUNNING_VERSION]);
	print_string(PRINT_TEXT, NULL, " (partition %s)",
		     fw_part_name(fw->tb[i][PCIESW_A_FW_RUNNING_PART]));
	print_string(PRINT_ANY, "fw-stored-version", ", stored %s\n", stored);
}
