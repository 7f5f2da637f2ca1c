// SPDX-License-Identifier: GPL-2.0
/*
 * The pciesw generic netlink family (Documentation/netlink/specs/pciesw.yaml):
 * the family, the pre/post_doit every op on a switch runs, the dump engine
 * and the helpers of the handlers (see netlink.h for which file has which).
 *
 * The family is parallel_ops: no request holds the genl mutex.  A do op on a
 * switch runs under that switch's sw->lock (taken by pciesw_nl_pre_doit());
 * a dump takes each switch's lock in turn.  Switch creation and removal are
 * serialized by instance.c's own lock.
 */

#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/slab.h>

#include "netlink/netlink.h"

/*
 * NL_SET_ERR_MSG_ATTR() for messages chosen at run time; @msg must be a
 * static string (all of the model's refusal texts are).
 */
void pciesw_nl_err(struct netlink_ext_ack *extack, const struct nlattr *attr,
		   const char *msg)
{
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = attr;
	}
}

/*
 * Privileges beyond the CAP_NET_ADMIN that admin-perm (GENL_ADMIN_PERM)
 * asks for: what creates kernel objects (switches with their PCI host
 * bridges, endpoints with their memory windows), toggles the PCI view,
 * injects faults or reads the VPD needs CAP_SYS_ADMIN in the initial user
 * namespace, of the socket's opener and of the sender (netlink_capable()).
 * Returns the refusal's text for a request of @cmd with @attrs that needs
 * it, NULL for one that does not.  The table is in
 * Documentation/architecture.md ("Privileges").
 */
static const char *pciesw_nl_sys_admin_op(u8 cmd, struct nlattr **attrs)
{
	switch (cmd) {
	case PCIESW_CMD_SWITCH_NEW:
		return "creating a switch needs CAP_SYS_ADMIN";
	case PCIESW_CMD_SWITCH_DEL:
		return "deleting a switch needs CAP_SYS_ADMIN";
	case PCIESW_CMD_EP_ADD:
		return "adding an endpoint needs CAP_SYS_ADMIN";
	case PCIESW_CMD_INJECT:
	case PCIESW_CMD_NVME_INJECT:
		return "fault injection needs CAP_SYS_ADMIN";
	case PCIESW_CMD_VPD_GET:
		return "reading the VPD needs CAP_SYS_ADMIN";
	case PCIESW_CMD_SWITCH_SET:
		if (attrs[PCIESW_A_SWITCH_PCI_VIEW])
			return "toggling the PCI view needs CAP_SYS_ADMIN";
		break;
	case PCIESW_CMD_PORT_SET:
		if (attrs[PCIESW_A_PORT_BER] ||
		    attrs[PCIESW_A_PORT_FAILED_LANES] ||
		    attrs[PCIESW_A_PORT_SURPRISE_DOWN_NOW])
			return "fault injection needs CAP_SYS_ADMIN";
		break;
	case PCIESW_CMD_THERMAL_SET:
		if (attrs[PCIESW_A_SENSOR_OVERRIDE] ||
		    attrs[PCIESW_A_SENSOR_OVERRIDE_CLEAR])
			return "a sensor override (fault injection) needs CAP_SYS_ADMIN";
		break;
	}
	return NULL;
}

/*
 * The privilege check of a do request (before anything else of it is
 * looked at, as GENL_ADMIN_PERM's): -EPERM with the reason, or 0.
 */
int pciesw_nl_check_perm(struct sk_buff *skb, struct genl_info *info)
{
	const char *why = pciesw_nl_sys_admin_op(info->genlhdr->cmd,
						 info->attrs);

	if (why && !netlink_capable(skb, CAP_SYS_ADMIN)) {
		pciesw_nl_err(info->extack, NULL, why);
		return -EPERM;
	}
	return 0;
}

/* The same for a dump (only vpd-get's needs it). */
int pciesw_nl_check_dump_perm(struct netlink_callback *cb, u8 cmd)
{
	const char *why = pciesw_nl_sys_admin_op(cmd, NULL);

	if (why && !netlink_capable(cb->skb, CAP_SYS_ADMIN)) {
		pciesw_nl_err(cb->extack, NULL, why);
		return -EPERM;
	}
	return 0;
}

/*
 * pre_doit of every op on a switch: resolve the switch switch-id names,
 * refuse one that is being removed, and lock it for the op; the reference
 * is in info->user_ptr[0] (pciesw_nl_sw()) until the post_doit, the reply
 * the op builds in info->user_ptr[1].
 */
int pciesw_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		       struct genl_info *info)
{
	struct pciesw_switch *sw;
	const char *why = NULL;
	int err;

	err = pciesw_nl_check_perm(skb, info);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_SWITCH_ID))
		return -EINVAL;
	sw = pciesw_switch_get(nla_get_u32(info->attrs[PCIESW_A_SWITCH_ID]));
	if (!sw) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[PCIESW_A_SWITCH_ID],
				    "no such switch");
		return -ENODEV;
	}
	mutex_lock(&sw->lock);
	err = pciesw_switch_live(sw, &why);
	if (err) {
		mutex_unlock(&sw->lock);
		pciesw_switch_put(sw);
		pciesw_nl_err(info->extack, NULL, why);
		return err;
	}
	info->user_ptr[0] = sw;
	return 0;
}

/*
 * post_doit of every op on a switch: unlock it, wait (without sw->lock)
 * until every view shows what the op did, then send the reply the op
 * built (pciesw_nl_reply()) and drop the reference: a caller who reads
 * sysfs or the PCI view after the reply sees the change, and a monitor has
 * been sent its notifications before the reply shows their state.
 */
void pciesw_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
			 struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct sk_buff *reply = info->user_ptr[1];

	mutex_unlock(&sw->lock);
	pciesw_switch_sync(sw);
	if (reply)
		genlmsg_reply(reply, info);
	pciesw_switch_put(sw);
}

/*
 * Reply to a do request with one object filled by @fill, now (under
 * sw->lock); pciesw_nl_post_doit() sends it.
 */
int pciesw_nl_reply(struct genl_info *info, u8 cmd,
		    int (*fill)(struct sk_buff *msg, const void *obj),
		    const void *obj)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &pciesw_nl_family, 0, cmd);
	err = hdr ? fill(msg, obj) : -EMSGSIZE;
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	info->user_ptr[1] = msg;
	return 0;
}

/* The port a request names by port-id, which it must carry. */
struct pciesw_port *pciesw_nl_find_port(struct pciesw_switch *sw,
					struct genl_info *info)
{
	struct nlattr *attr = info->attrs[PCIESW_A_PORT_ID];
	struct pciesw_port *port;

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_PORT_ID))
		return ERR_PTR(-EINVAL);
	port = pciesw_port_find(sw, nla_get_u32(attr));
	if (!port) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no such port on this switch");
		return ERR_PTR(-ENOENT);
	}
	return port;
}

/* The port a request names, NULL if it names none (switch-wide). */
struct pciesw_port *pciesw_nl_find_port_opt(struct pciesw_switch *sw,
					    struct genl_info *info)
{
	if (!info->attrs[PCIESW_A_PORT_ID])
		return NULL;
	return pciesw_nl_find_port(sw, info);
}

/* The endpoint a request names by @id_attr or @name_attr. */
struct pciesw_endpoint *pciesw_nl_find_ep_by(struct pciesw_switch *sw,
					     struct genl_info *info,
					     int id_attr, int name_attr,
					     const char *need)
{
	struct nlattr *id = info->attrs[id_attr];
	struct nlattr *name = info->attrs[name_attr];
	struct pciesw_endpoint *ep;

	if (!id && !name) {
		pciesw_nl_err(info->extack, NULL, need);
		return ERR_PTR(-EINVAL);
	}
	ep = id ? pciesw_ep_find(sw, nla_get_u32(id)) :
		  pciesw_ep_find_name(sw, nla_data(name));
	if (!ep) {
		NL_SET_ERR_MSG_ATTR(info->extack, id ?: name,
				    "no such endpoint on this switch");
		return ERR_PTR(-ENOENT);
	}
	return ep;
}

/* The endpoint a request names by ep-id or ep-name. */
struct pciesw_endpoint *pciesw_nl_find_ep(struct pciesw_switch *sw,
					  struct genl_info *info)
{
	return pciesw_nl_find_ep_by(sw, info, PCIESW_A_EP_ID, PCIESW_A_EP_NAME,
				    "need ep-id or ep-name");
}

/* pciesw_nl_obj.find of the objects a switch has one of: itself. */
const void *pciesw_nl_find_switch(struct pciesw_switch *sw,
				  unsigned long *pos)
{
	return *pos ? NULL : sw;
}

/* pciesw_nl_obj.find of per-port objects: ports in id order, holes skipped. */
const void *pciesw_nl_find_next_port(struct pciesw_switch *sw,
				     unsigned long *pos)
{
	struct pciesw_port *port;

	pciesw_for_each_port(sw, port) {
		if (port->id >= *pos) {
			*pos = port->id;
			return port;
		}
	}
	return NULL;
}

/*
 * Dump consistency is per switch.  cb->seq is the switch's id and the low
 * 23 bits of its generation (pciesw_switch_generation(), bumped by each of
 * its events), read under sw->lock when a round starts on it;
 * genl_dump_check_consistent() marks a message NLM_F_DUMP_INTR when its
 * cb->seq differs from the previous message's.  Within one switch that
 * means the switch changed between two rounds of the dump.  Going on to the
 * next switch after one was dumped whole is no interruption (each switch is
 * dumped consistently, a change of one does not mark a dump of another), so
 * cb->prev_seq is cleared first.  A switch removed while only part of it
 * had been dumped is: its id stays in cb->prev_seq, cb->seq is set to 0 and
 * from then on is never cleared, so the next message and the final
 * NLMSG_DONE are marked.  (A change of exactly 2^23 events between two
 * rounds would go unseen.)
 */
#define PCIESW_NL_DUMP_GEN_BITS	23

static u32 pciesw_nl_dump_seq(struct pciesw_switch *sw)
{
	return (sw->id + 1) << PCIESW_NL_DUMP_GEN_BITS |
	       (pciesw_switch_generation(sw) &
		GENMASK(PCIESW_NL_DUMP_GEN_BITS - 1, 0));
}

/* The form of a dump of objects with serial numbers, for @skb's sender */
enum pciesw_nl_form pciesw_nl_form_serial(struct sk_buff *skb)
{
	return netlink_capable(skb, CAP_SYS_ADMIN) ? PCIESW_NL_FORM_SERIAL :
						     PCIESW_NL_FORM_PLAIN;
}

/* cb->args[]: where a dump is, between rounds */
enum {
	PCIESW_NL_DUMP_ID,	/* the switch id to resume at */
	PCIESW_NL_DUMP_POS,	/* the position in it (pciesw_nl_obj.find) */
	PCIESW_NL_DUMP_FLAGS,
};

#define PCIESW_NL_DUMP_CHECKED	BIT(0)	/* the switch-id filter exists */
#define PCIESW_NL_DUMP_STARTED	BIT(1)	/* objects of DUMP_ID were put */
#define PCIESW_NL_DUMP_CUT	BIT(2)	/* that switch vanished midway */

/*
 * Dump every object of every switch (or of the switch the request names,
 * whose policy allows switch-id only).
 */
int pciesw_nl_dumpit(const struct pciesw_nl_obj *obj,
		     enum pciesw_nl_form form, struct sk_buff *skb,
		     struct netlink_callback *cb)
{
	struct nlattr **attrs = pciesw_dump_attrs(cb);
	u32 id = cb->args[PCIESW_NL_DUMP_ID], last = PCIESW_MAX_SWITCH_ID;
	unsigned long pos = cb->args[PCIESW_NL_DUMP_POS];
	unsigned long flags = cb->args[PCIESW_NL_DUMP_FLAGS];
	struct pciesw_switch *sw;
	int err = 0;

	if (attrs && attrs[PCIESW_A_SWITCH_ID]) {
		last = nla_get_u32(attrs[PCIESW_A_SWITCH_ID]);
		/* a filter naming no switch is an error, not an empty dump */
		if (!(flags & PCIESW_NL_DUMP_CHECKED)) {
			sw = pciesw_switch_get(last);
			if (!sw) {
				NL_SET_ERR_MSG_ATTR(cb->extack,
						    attrs[PCIESW_A_SWITCH_ID],
						    "no such switch");
				return -ENODEV;
			}
			pciesw_switch_put(sw);
			flags |= PCIESW_NL_DUMP_CHECKED;
		}
		id = max(id, last);
	}

	for (;;) {
		u32 want = id;

		sw = id <= last ? pciesw_switch_get_next(&id) : NULL;
		if (sw && id > last) {
			pciesw_switch_put(sw);
			sw = NULL;
		}
		if ((flags & PCIESW_NL_DUMP_STARTED) && (!sw || id != want)) {
			/* the switch this dump was in the middle of is gone */
			flags = (flags & ~PCIESW_NL_DUMP_STARTED) |
				PCIESW_NL_DUMP_CUT;
			cb->seq = 0;
			pos = 0;
		}
		if (!sw)
			break;
		if (id != want)
			pos = 0;

		mutex_lock(&sw->lock);
		if (!(flags & (PCIESW_NL_DUMP_STARTED | PCIESW_NL_DUMP_CUT)))
			cb->prev_seq = 0;
		cb->seq = pciesw_nl_dump_seq(sw);
		for (;;) {
			const void *o = obj->find(sw, &pos);
			void *hdr;

			if (!o)
				break;
			hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, &pciesw_nl_family,
					  NLM_F_MULTI, obj->cmd);
			if (!hdr) {
				err = -EMSGSIZE;
				break;
			}
			genl_dump_check_consistent(cb, hdr);
			err = obj->fill(skb, sw, o, form);
			if (err) {
				genlmsg_cancel(skb, hdr);
				break;
			}
			genlmsg_end(skb, hdr);
			flags |= PCIESW_NL_DUMP_STARTED;
			pos++;
		}
		mutex_unlock(&sw->lock);
		/* what the dump shows has been notified before it arrives */
		pciesw_switch_sync(sw);
		pciesw_switch_put(sw);
		if (err)
			break;
		flags &= ~PCIESW_NL_DUMP_STARTED;
		id++;
		pos = 0;
	}

	cb->args[PCIESW_NL_DUMP_ID] = id;
	cb->args[PCIESW_NL_DUMP_POS] = pos;
	cb->args[PCIESW_NL_DUMP_FLAGS] = flags;
	/* a full skb ends this round; an object too big for any skb fails */
	if (err && !skb->len)
		return err;
	return skb->len;
}

#ifdef PCIESW_HAVE_SPLIT_OPS
static int pciesw_nl_compat_ops(void)
{
	return 0;
}
#else
/*
 * Before 6.2 (no split ops): one struct genl_ops per command, built at init
 * from the generated split ops (the do's and the dump's of a command merged).
 * It has one policy: the do's, which must accept what the dump's does; the
 * dump's own policy is applied by pciesw_nl_compat_dumpit().  The family's
 * pre_doit/post_doit call those of the command's do.
 */
static struct genl_ops pciesw_nl_compat_table[ARRAY_SIZE(pciesw_nl_ops)];

static const struct genl_split_ops *pciesw_nl_split_op(u8 cmd, u8 cap)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pciesw_nl_ops); i++)
		if (pciesw_nl_ops[i].cmd == cmd &&
		    (pciesw_nl_ops[i].flags & cap))
			return &pciesw_nl_ops[i];
	return NULL;
}

static int pciesw_nl_compat_pre_doit(const struct genl_ops *ops,
				     struct sk_buff *skb,
				     struct genl_info *info)
{
	const struct genl_split_ops *op;

	op = pciesw_nl_split_op(ops->cmd, GENL_CMD_CAP_DO);
	return op && op->pre_doit ? op->pre_doit(op, skb, info) : 0;
}

static void pciesw_nl_compat_post_doit(const struct genl_ops *ops,
				       struct sk_buff *skb,
				       struct genl_info *info)
{
	const struct genl_split_ops *op;

	op = pciesw_nl_split_op(ops->cmd, GENL_CMD_CAP_DO);
	if (op && op->post_doit)
		op->post_doit(op, skb, info);
}

/*
 * The dump's own policy, strictly, as 6.2+ applies it before the dump:
 * here in its first round, whose extack (unlike the start callback's
 * before 6.2) reaches the caller, in NLMSG_DONE.  cb->args[] of the dump
 * engine end before PCIESW_NL_COMPAT_CHECKED.
 */
#define PCIESW_NL_COMPAT_CHECKED					\
	(sizeof_field(struct netlink_callback, args) / sizeof(long) - 1)
static_assert(PCIESW_NL_DUMP_FLAGS < PCIESW_NL_COMPAT_CHECKED);

static int pciesw_nl_compat_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	const struct genl_split_ops *op;
	int err;

	op = pciesw_nl_split_op(genl_dumpit_info(cb)->op.cmd,
				GENL_CMD_CAP_DUMP);
	if (!op)
		return -EOPNOTSUPP;
	if (!cb->args[PCIESW_NL_COMPAT_CHECKED]) {
		err = __nla_validate(nlmsg_attrdata(cb->nlh, GENL_HDRLEN),
				     nlmsg_attrlen(cb->nlh, GENL_HDRLEN),
				     op->maxattr, op->policy,
				     NL_VALIDATE_STRICT, cb->extack);
		if (err)
			return err;
		cb->args[PCIESW_NL_COMPAT_CHECKED] = 1;
	}
	return op->dumpit(skb, cb);
}

/* Every attribute the dump's policy allows, the do's allows alike. */
static bool pciesw_nl_compat_covers(const struct genl_split_ops *dop,
				    const struct genl_split_ops *uop)
{
	unsigned int a;

	for (a = 1; a <= uop->maxattr; a++) {
		if (uop->policy[a].type == NLA_UNSPEC)
			continue;
		if (a > dop->maxattr ||
		    dop->policy[a].type != uop->policy[a].type)
			return false;
	}
	return true;
}

static int pciesw_nl_compat_ops(void)
{
	const u8 caps = GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(pciesw_nl_ops); i++) {
		const struct genl_split_ops *dop, *uop;
		struct genl_ops *op;
		u8 cmd = pciesw_nl_ops[i].cmd;

		/* the first split op of a command makes its genl_ops */
		if (pciesw_nl_split_op(cmd, caps) != &pciesw_nl_ops[i])
			continue;
		dop = pciesw_nl_split_op(cmd, GENL_CMD_CAP_DO);
		uop = pciesw_nl_split_op(cmd, GENL_CMD_CAP_DUMP);
		if (dop && uop && !pciesw_nl_compat_covers(dop, uop)) {
			pr_err("pciesw: netlink cmd %u: the do policy does not take the dump's attributes\n",
			       cmd);
			return -EINVAL;
		}
		op = &pciesw_nl_compat_table[n++];
		op->cmd = cmd;
		op->flags = (dop ?: uop)->flags & ~caps;
		op->validate = (dop ?: uop)->validate;
		op->policy = (dop ?: uop)->policy;
		op->maxattr = (dop ?: uop)->maxattr;
		if (dop)
			op->doit = dop->doit;
		if (uop)
			op->dumpit = pciesw_nl_compat_dumpit;
	}
	pciesw_nl_family.ops = pciesw_nl_compat_table;
	pciesw_nl_family.n_ops = n;
	return 0;
}
#endif

static const struct genl_multicast_group pciesw_nl_mcgrps[] = {
	[PCIESW_NLGRP_MONITOR] = { .name = PCIESW_MCGRP_MONITOR },
};

/*
 * Not netnsok: the switches are global, their family is in the initial
 * network namespace only (as the notifications are).
 */
struct genl_family pciesw_nl_family __ro_after_init = {
	.name = PCIESW_FAMILY_NAME,
	.version = PCIESW_FAMILY_VERSION,
	.module = THIS_MODULE,
	.parallel_ops = true,
#ifdef PCIESW_HAVE_SPLIT_OPS
	.split_ops = pciesw_nl_ops,
	.n_split_ops = ARRAY_SIZE(pciesw_nl_ops),
#else
	.pre_doit = pciesw_nl_compat_pre_doit,
	.post_doit = pciesw_nl_compat_post_doit,
#endif
	.resv_start_op = PCIESW_CMD_EP_DEL_NTF + 1,
	.mcgrps = pciesw_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(pciesw_nl_mcgrps),
};

int pciesw_netlink_init(void)
{
	int err;

	err = pciesw_nl_compat_ops();
	if (err)
		return err;
	err = genl_register_family(&pciesw_nl_family);
	if (err)
		return err;
	pciesw_view_register(PCIESW_VIEW_NETLINK, &pciesw_nl_view);
	return 0;
}

void pciesw_netlink_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_NETLINK);
	genl_unregister_family(&pciesw_nl_family);
}
