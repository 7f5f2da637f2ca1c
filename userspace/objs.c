// SPDX-License-Identifier: GPL-2.0
/*
 * Fetching objects and parsing the arguments commands share (see objs.h).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "objs.h"
#include "print.h"
#include "util.h"

void objs_free(struct objs *o)
{
	msg_list_free(&o->msgs);
	free(o->tb);
	*o = (struct objs){ 0 };
}

const struct nlmsghdr *objs_hdr(const struct objs *o, size_t i)
{
	return nlmsg_hdr(o->msgs.msgs[i]);
}

/* Parses every reply of @o->msgs. */
static int objs_parse(struct objs *o)
{
	size_t i;

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

int objs_run(struct nl_session *s, struct nl_msg *req, struct objs *o,
	     const char *what)
{
	int ret;

	ret = nl_request_run(s, req, &o->msgs, "%s", what);
	if (ret)
		return ret;
	return objs_parse(o);
}

int objs_try(struct nl_session *s, struct nl_msg *req, struct objs *o,
	     int quiet_err, const char *what)
{
	int ret;

	ret = nl_request_try(s, req, &o->msgs, quiet_err, "%s", what);
	if (ret)
		return ret;
	return objs_parse(o);
}

int objs_fetch(struct nl_session *s, uint8_t cmd, bool dump, bool filter,
	       uint32_t id, struct objs *o, const char *what)
{
	struct nl_msg *req = nl_request_new(s, cmd, dump);

	if (filter)
		nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	return objs_run(s, req, o, what);
}

int parse_port_arg(const char *arg, uint32_t *port)
{
	unsigned long v;

	if (!parse_uint(arg, UINT32_MAX, &v))
		return usage_error("invalid port \"%s\": expected a port number",
				   arg);
	*port = v;
	return EXIT_OK;
}

int parse_ep_arg(const char *arg, struct ep_ref *ep)
{
	unsigned long v;

	ep->by_id = parse_uint(arg, UINT32_MAX, &v);
	ep->id = ep->by_id ? v : 0;
	ep->name = arg;
	if (!ep->by_id && (!*arg || strlen(arg) >= PCIESW_NAME_LEN))
		return usage_error("invalid endpoint \"%s\": a name (nvme0) of 1 to %u characters or an endpoint id",
				   arg, PCIESW_NAME_LEN - 1);
	return EXIT_OK;
}

void put_ep_ref(struct nl_msg *req, const struct ep_ref *ep, bool peer)
{
	if (ep->by_id)
		nl_put_u32(req, peer ? PCIESW_A_PEER_EP_ID : PCIESW_A_EP_ID,
			   ep->id);
	else
		nl_put_string(req, peer ? PCIESW_A_PEER_EP_NAME :
					  PCIESW_A_EP_NAME, ep->name);
}

struct nl_msg *ep_request_new(struct nl_session *s, uint8_t cmd, uint32_t id,
			      const struct ep_ref *ep)
{
	struct nl_msg *req = nl_request_new(s, cmd, false);

	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	put_ep_ref(req, ep, false);
	return req;
}

int ep_get_window(struct nl_session *s, uint32_t id, const struct ep_ref *ep,
		  const char *what, uint32_t *ep_id, uint64_t *mem_size,
		  uint32_t *type)
{
	struct objs o = { 0 };
	struct nl_msg *req;
	int ret;

	req = ep_request_new(s, PCIESW_CMD_EP_GET, id, ep);
	ret = objs_run(s, req, &o, what);
	if (!ret && (o.n != 1 || !o.tb[0][PCIESW_A_EP_ID] ||
		     !o.tb[0][PCIESW_A_EP_MEM_SIZE] ||
		     !o.tb[0][PCIESW_A_EP_TYPE])) {
		error("the kernel answered ep-get without one endpoint");
		ret = EXIT_FAIL;
	}
	if (!ret) {
		*ep_id = nla_get_u32(o.tb[0][PCIESW_A_EP_ID]);
		*mem_size = nla_get_u64(o.tb[0][PCIESW_A_EP_MEM_SIZE]);
		*type = nla_get_u32(o.tb[0][PCIESW_A_EP_TYPE]);
	}
	objs_free(&o);
	return ret;
}

int parse_on_off(const char *word, const char *arg, const char *on,
			const char *off, int *val)
{
	if (!strcmp(arg, on))
		*val = 1;
	else if (!strcmp(arg, off))
		*val = 0;
	else
		return usage_error("invalid %s \"%s\": expected %s or %s",
				   word, arg, on, off);
	return EXIT_OK;
}

int parse_lane_mask(const char *arg, uint32_t *mask)
{
	unsigned long v;

	if (!strcmp(arg, "none")) {
		*mask = 0;
		return EXIT_OK;
	}
	if (!parse_uint_hex(arg, UINT32_MAX, &v))
		return usage_error("invalid lane mask \"%s\": expected a number (0x8000: lane 15 of the port) or none",
				   arg);
	*mask = v;
	return EXIT_OK;
}

static const struct cmd_opt *find_opt(const struct cmd_opt *opts,
				      const char *arg)
{
	for (; opts->name; opts++)
		if (!strcmp(arg, opts->name) ||
		    (opts->alias && !strcmp(arg, opts->alias)))
			return opts;
	return NULL;
}

int take_options(int *argc, char **argv, const struct cmd_opt *opts)
{
	const struct cmd_opt *o;
	const char *eq;
	char *name;
	int i, n = 0;

	for (i = 0; i < *argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (++i < *argc)
				argv[n++] = argv[i];
			break;
		}
		/* "--name=value", as getopt_long takes it */
		eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
		if (eq) {
			name = xasprintf("%.*s", (int)(eq - a), a);
			o = find_opt(opts, name);
			free(name);
			if (!o)
				return usage_error("unknown option \"%.*s\"",
						   (int)(eq - a), a);
			if (!o->value)
				return usage_error("\"%s\" takes no value",
						   o->name);
			if (*o->value)
				return usage_error("\"%s\" given twice",
						   o->name);
			*o->value = eq + 1;
			continue;
		}
		o = a[0] == '-' ? find_opt(opts, a) : NULL;
		if (!o) {
			if (a[0] == '-' && a[1] && (a[1] < '0' || a[1] > '9'))
				return usage_error("unknown option \"%s\"", a);
			argv[n++] = argv[i];
			continue;
		}
		if (o->value) {
			if (*o->value)
				return usage_error("\"%s\" given twice",
						   o->name);
			if (i + 1 >= *argc)
				return usage_error("\"%s\" needs a value",
						   o->name);
			*o->value = argv[++i];
		} else {
			if (*o->set)
				return usage_error("\"%s\" given twice",
						   o->name);
			*o->set = true;
		}
	}
	*argc = n;
	return EXIT_OK;
}

void output_options(bool json, bool pretty)
{
	/* -p before the command set pretty already; -j after keeps it */
	if (pretty)
		print_init(true, true);
	else if (json && !print_is_json())
		print_init(true, false);
}

/*
 * One counter nest: its two attributes read as they come, not parsed
 * into a table of every attribute of the family (a reply of 16 large
 * cards has tens of thousands of these, and top reads one a second).
 */
static void read_counter(const struct nlattr *nest, void *arg)
{
	struct counter_set *c = arg;
	bool has_id = false, has_val = false;
	const struct nlattr *a;
	uint32_t id = 0;
	uint64_t val = 0;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) == PCIESW_A_COUNTER_ID &&
		    nla_len(a) == sizeof(uint32_t)) {
			id = nla_get_u32((struct nlattr *)a);
			has_id = true;
		} else if (nla_type(a) == PCIESW_A_COUNTER_VALUE &&
			   nla_len(a) == sizeof(uint64_t)) {
			val = nla_get_u64((struct nlattr *)a);
			has_val = true;
		}
	}
	/* a counter newer than this switchctl is left out */
	if (!has_id || !has_val || id > PCIESW_COUNTER_MAX)
		return;
	c->v[id] = val;
	c->has[id] = true;
}

/*
 * counter-values: u64s by counter id, only 4-byte aligned in the message.
 * Entries beyond what this switchctl knows (a newer module) are left out.
 */
static void read_counter_values(const struct nlattr *a, struct counter_set *c)
{
	const unsigned char *p = nla_data(a);
	size_t i, n = nla_len(a) / sizeof(uint64_t);

	if (n > PCIESW_COUNTER_MAX + 1)
		n = PCIESW_COUNTER_MAX + 1;
	for (i = 0; i < n; i++) {
		memcpy(&c->v[i], p + i * sizeof(uint64_t), sizeof(uint64_t));
		c->has[i] = true;
	}
}

void counters_read(const struct nlmsghdr *nlh, struct counter_set *c)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct nlattr *a;
	int rem;

	*c = (struct counter_set){ 0 };
	nla_for_each_attr(a, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(a) == PCIESW_A_COUNTER)
			read_counter(a, c);
		else if (nla_type(a) == PCIESW_A_COUNTER_VALUES)
			read_counter_values(a, c);
	}
}

int no_options(int *argc, char **argv)
{
	int i;

	for (i = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			/* the rest are arguments, whatever they look like */
			memmove(&argv[i], &argv[i + 1],
				(*argc - i - 1) * sizeof(*argv));
			(*argc)--;
			break;
		}
		if (argv[i][0] == '-' && argv[i][1])
			return usage_error("unknown option \"%s\"", argv[i]);
	}
	return EXIT_OK;
}

int need_args(int argc, char **argv, int max, ...)
{
	const char *name;
	va_list ap;
	int i = 0;

	va_start(ap, max);
	while ((name = va_arg(ap, const char *)) && i < argc)
		i++;
	va_end(ap);
	if (name)
		return usage_error("missing %s", name);
	if (max >= 0 && argc > max)
		return usage_error("too many arguments: \"%s\"", argv[max]);
	return EXIT_OK;
}

int parse_switch_arg(const char *arg, uint32_t *id)
{
	if (!parse_switch_id(arg, id))
		return usage_error("invalid switch \"%s\": expected pciesw<N> or <N>, N from 0 to %u",
				   arg, PCIESW_MAX_SWITCH_ID);
	return EXIT_OK;
}

int parse_target(int argc, char **argv, struct target *t)
{
	t->all = true;
	if (no_options(&argc, argv))
		return EXIT_USAGE;
	if (argc > 1)
		return usage_error("too many arguments: \"%s\"", argv[1]);
	if (argc == 1) {
		if (parse_switch_arg(argv[0], &t->id))
			return EXIT_USAGE;
		t->all = false;
	}
	return EXIT_OK;
}

int fetch_with_parts(struct nl_session *s, const struct target *t,
		     struct objs *sw, void *base, const struct objs_part *parts,
		     size_t n)
{
	char *what;
	size_t i;
	int ret;

	what = t->all ? xstrdup("cannot list switches") :
			xasprintf("cannot get switch %u", t->id);
	ret = objs_fetch(s, PCIESW_CMD_SWITCH_GET, t->all, !t->all, t->id, sw,
			 what);
	free(what);
	for (i = 0; !ret && i < n; i++) {
		what = t->all ? xasprintf("cannot list %s", parts[i].what) :
				xasprintf("cannot list %s of switch %u",
					  parts[i].what, t->id);
		ret = objs_fetch(s, parts[i].cmd, true, !t->all, t->id,
				 (struct objs *)((char *)base + parts[i].off),
				 what);
		free(what);
	}
	return ret;
}

int fetch_with_children(struct nl_session *s, const struct target *t,
			uint8_t cmd, struct objs *sw, struct objs *ch,
			const char *children)
{
	const struct objs_part part = { cmd, children, 0 };
	int ret;

	ret = fetch_with_parts(s, t, sw, ch, &part, 1);
	if (ret)
		objs_free(sw);
	return ret;
}

void print_per_switch(const struct target *t, const struct objs *sw,
		      const struct objs *ch, const struct objs *extra,
		      void (*print_one)(struct nlattr **sw,
					const struct objs *ch,
					const struct objs *extra))
{
	size_t i;

	if (t->all)
		open_array(NULL);
	for (i = 0; i < sw->n; i++) {
		if (i)
			print_text("\n");
		print_one(sw->tb[i], ch, extra);
	}
	if (t->all)
		close_array();
}

int per_switch_cmd(int argc, char **argv, uint8_t cmd, const char *children,
		   uint8_t extra_cmd, const char *extra_children,
		   void (*print_one)(struct nlattr **sw, const struct objs *ch,
				     const struct objs *extra))
{
	struct objs sw = { 0 }, ch = { 0 }, extra = { 0 };
	struct nl_session *s;
	struct target t;
	int ret;

	ret = parse_target(argc, argv, &t);
	if (ret)
		return ret;
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = fetch_with_children(s, &t, cmd, &sw, &ch, children);
	if (!ret && extra_cmd) {
		char *what = xasprintf("cannot list %s", extra_children);

		ret = objs_fetch(s, extra_cmd, true, !t.all, t.id, &extra,
				 what);
		free(what);
		if (ret) {
			objs_free(&sw);
			objs_free(&ch);
		}
	}
	nl_session_close(s);
	if (ret)
		return ret;

	print_per_switch(&t, &sw, &ch, &extra, print_one);
	objs_free(&sw);
	objs_free(&ch);
	objs_free(&extra);
	return finish(EXIT_OK);
}

bool same_switch(struct nlattr **tb, struct nlattr **sw)
{
	return tb[PCIESW_A_SWITCH_ID] && sw[PCIESW_A_SWITCH_ID] &&
	       nla_get_u32(tb[PCIESW_A_SWITCH_ID]) ==
	       nla_get_u32(sw[PCIESW_A_SWITCH_ID]);
}

int finish(int ret)
{
	if (print_finish() < 0 && !ret) {
		error("cannot write the output");
		ret = EXIT_FAIL;
	}
	return ret;
}
