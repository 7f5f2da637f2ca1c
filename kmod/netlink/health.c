// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink: port counters, thresholds and fault injection.
 */

#include "netlink/netlink.h"

/*
 * The counters of @port, or their sums over the switch when it is NULL: a
 * counter nest per counter, or with @packed one counter-values array of
 * them all, indexed by counter id (a third of the size; top asks for every
 * port's once a refresh).  The array is built aside and copied: in the
 * message it is only 4-byte aligned on architectures with efficient
 * unaligned access (nla_put_64bit() pads on the others).
 */
static int pciesw_nl_fill_counters(struct sk_buff *msg,
				   struct pciesw_switch *sw,
				   const struct pciesw_port *port, bool packed)
{
	u64 v[PCIESW_COUNTER_MAX + 1];
	enum pciesw_counter c;

	lockdep_assert_held(&sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    (port && nla_put_u32(msg, PCIESW_A_PORT_ID, port->id)))
		return -EMSGSIZE;
	if (packed) {
		for (c = 0; c <= PCIESW_COUNTER_MAX; c++)
			v[c] = pciesw_counter_read(sw, port, c);
		return nla_put_64bit(msg, PCIESW_A_COUNTER_VALUES, sizeof(v),
				     v, PCIESW_A_PAD);
	}
	for (c = 0; c <= PCIESW_COUNTER_MAX; c++) {
		struct nlattr *nest = nla_nest_start(msg, PCIESW_A_COUNTER);

		if (!nest ||
		    nla_put_u32(msg, PCIESW_A_COUNTER_ID, c) ||
		    nla_put_u64_64bit(msg, PCIESW_A_COUNTER_VALUE,
				      pciesw_counter_read(sw, port, c),
				      PCIESW_A_PAD))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int pciesw_nl_fill_counters_dump(struct sk_buff *msg,
					struct pciesw_switch *sw,
					const void *obj,
					enum pciesw_nl_form form)
{
	return pciesw_nl_fill_counters(msg, sw, obj,
				       form == PCIESW_NL_FORM_PACKED);
}

static const struct pciesw_nl_obj pciesw_nl_counter_obj = {
	.cmd = PCIESW_CMD_COUNTER_GET,
	.find = pciesw_nl_find_next_port,
	.fill = pciesw_nl_fill_counters_dump,
};

struct pciesw_nl_counters {
	struct pciesw_switch *sw;
	const struct pciesw_port *port;
	bool packed;
};

static int pciesw_nl_fill_counters_any(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_nl_counters *c = obj;

	return pciesw_nl_fill_counters(msg, c->sw, c->port, c->packed);
}

int pciesw_nl_counter_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct pciesw_nl_counters c = {
		.sw = sw,
		.packed = nla_get_flag(info->attrs[PCIESW_A_COUNTER_PACKED]),
	};
	struct pciesw_port *port = pciesw_nl_find_port_opt(sw, info);

	if (IS_ERR(port))
		return PTR_ERR(port);
	c.port = port;
	return pciesw_nl_reply(info, PCIESW_CMD_COUNTER_GET,
			       pciesw_nl_fill_counters_any, &c);
}

/*
 * The request's attributes stay in the dump's info until its end (parsed
 * once, by genetlink, before the first round): each round reads
 * counter-packed there again, so every message of one dump has one form.
 */
int pciesw_nl_counter_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct nlattr **attrs = pciesw_dump_attrs(cb);
	bool packed = attrs && nla_get_flag(attrs[PCIESW_A_COUNTER_PACKED]);

	return pciesw_nl_dumpit(&pciesw_nl_counter_obj,
				packed ? PCIESW_NL_FORM_PACKED :
				PCIESW_NL_FORM_PLAIN, skb, cb);
}

int pciesw_nl_counter_clear_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct pciesw_port *port = pciesw_nl_find_port_opt(sw, info);

	if (IS_ERR(port))
		return PTR_ERR(port);
	if (port)
		pciesw_port_counters_clear(port);
	else
		pciesw_switch_counters_clear(sw);
	return 0;
}

static int pciesw_nl_fill_threshold(struct sk_buff *msg,
				    const struct pciesw_nl_threshold *t)
{
	lockdep_assert_held(&t->sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, t->sw->id) ||
	    (t->port && nla_put_u32(msg, PCIESW_A_PORT_ID, t->port->id)) ||
	    nla_put_u32(msg, PCIESW_A_COUNTER_ID, t->counter) ||
	    nla_put_u64_64bit(msg, PCIESW_A_THRESHOLD_VALUE, t->threshold,
			      PCIESW_A_PAD) ||
	    (t->crossed >= 0 &&
	     nla_put_u8(msg, PCIESW_A_THRESHOLD_CROSSED, t->crossed)) ||
	    nla_put_u64_64bit(msg, PCIESW_A_COUNTER_VALUE, t->value,
			      PCIESW_A_PAD))
		return -EMSGSIZE;
	return 0;
}

int pciesw_nl_fill_threshold_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_threshold(msg, obj);
}

static void pciesw_nl_threshold_of(struct pciesw_switch *sw,
				   const struct pciesw_threshold *thr,
				   struct pciesw_nl_threshold *t)
{
	t->sw = sw;
	t->port = pciesw_threshold_port(sw, thr);
	t->counter = thr->counter;
	t->threshold = thr->value;
	t->value = pciesw_counter_read(sw, t->port, thr->counter);
	t->crossed = thr->crossed;
}

static const void *pciesw_nl_find_threshold(struct pciesw_switch *sw,
					    unsigned long *pos)
{
	return *pos < sw->nr_thresholds ? &sw->thresholds[*pos] : NULL;
}

static int pciesw_nl_fill_threshold_dump(struct sk_buff *msg,
					 struct pciesw_switch *sw,
					 const void *obj,
					 enum pciesw_nl_form form)
{
	struct pciesw_nl_threshold t;

	pciesw_nl_threshold_of(sw, obj, &t);
	return pciesw_nl_fill_threshold(msg, &t);
}

static const struct pciesw_nl_obj pciesw_nl_threshold_obj = {
	.cmd = PCIESW_CMD_THRESHOLD_GET,
	.find = pciesw_nl_find_threshold,
	.fill = pciesw_nl_fill_threshold_dump,
};

int pciesw_nl_threshold_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct nlattr *cattr = info->attrs[PCIESW_A_COUNTER_ID];
	struct pciesw_threshold *thr;
	struct pciesw_nl_threshold t;
	struct pciesw_port *port;

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_COUNTER_ID))
		return -EINVAL;
	port = pciesw_nl_find_port_opt(sw, info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	thr = pciesw_threshold_find(sw, port, nla_get_u32(cattr));
	if (!thr) {
		NL_SET_ERR_MSG_ATTR(info->extack, cattr,
				    "no threshold on this counter");
		return -ENOENT;
	}
	pciesw_nl_threshold_of(sw, thr, &t);
	return pciesw_nl_reply(info, PCIESW_CMD_THRESHOLD_GET,
			       pciesw_nl_fill_threshold_any, &t);
}

int pciesw_nl_threshold_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	return pciesw_nl_dumpit(&pciesw_nl_threshold_obj, PCIESW_NL_FORM_PLAIN,
				skb, cb);
}

int pciesw_nl_threshold_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct nlattr *cattr = info->attrs[PCIESW_A_COUNTER_ID];
	struct pciesw_port *port;
	const char *why = NULL;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_COUNTER_ID) ||
	    GENL_REQ_ATTR_CHECK(info, PCIESW_A_THRESHOLD_VALUE))
		return -EINVAL;
	port = pciesw_nl_find_port_opt(sw, info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	err = pciesw_threshold_set(sw, port, nla_get_u32(cattr),
				   nla_get_u64(info->attrs[PCIESW_A_THRESHOLD_VALUE]),
				   &why);
	if (err)
		pciesw_nl_err(info->extack, err == -ENOSPC ? NULL : cattr, why);
	return err;
}

/*
 * inject into an endpoint (ep-id or ep-name): ep-aer-error, no port-id or
 * counter-id
 */
static int pciesw_nl_inject_ep(struct pciesw_switch *sw,
			       struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct nlattr *nattr = tb[PCIESW_A_INJECT_COUNT];
	struct pciesw_endpoint *ep;
	const char *why = NULL;
	int err;

	if (tb[PCIESW_A_PORT_ID] || tb[PCIESW_A_COUNTER_ID]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PCIESW_A_PORT_ID] ?:
				    tb[PCIESW_A_COUNTER_ID],
				    "an endpoint's error (ep-aer-error) is injected without port-id or counter-id");
		return -EINVAL;
	}
	ep = pciesw_nl_find_ep(sw, info);
	if (IS_ERR(ep))
		return PTR_ERR(ep);
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_EP_AER_ERROR))
		return -EINVAL;
	err = pciesw_ep_inject_aer(ep, nla_get_u32(tb[PCIESW_A_EP_AER_ERROR]),
				   nattr ? nla_get_u32(nattr) : 1, &why);
	if (err)
		pciesw_nl_err(info->extack, err == -EINVAL ? nattr :
			      tb[PCIESW_A_EP_ID] ?: tb[PCIESW_A_EP_NAME], why);
	return err;
}

int pciesw_nl_inject_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct nlattr *cattr = info->attrs[PCIESW_A_COUNTER_ID];
	struct nlattr *nattr = info->attrs[PCIESW_A_INJECT_COUNT];
	struct nlattr *eattr = info->attrs[PCIESW_A_EP_AER_ERROR];
	struct pciesw_port *port;
	const char *why = NULL;
	int err;

	if (eattr || info->attrs[PCIESW_A_EP_ID] ||
	    info->attrs[PCIESW_A_EP_NAME])
		return pciesw_nl_inject_ep(sw, info);
	port = pciesw_nl_find_port(sw, info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_COUNTER_ID))
		return -EINVAL;
	err = pciesw_port_inject(port, nla_get_u32(cattr),
				 nattr ? nla_get_u32(nattr) : 1, &why);
	if (err)
		pciesw_nl_err(info->extack, cattr, why);
	return err;
}

