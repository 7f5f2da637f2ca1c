// SPDX-License-Identifier: GPL-2.0
/*
 * The pciesw generic netlink family (Documentation/netlink/specs/pciesw.yaml).
 * One fill function per object serves do, dump and notifications.
 */

#include <linux/notifier.h>
#include <net/genetlink.h>

#include <pciesw_compat.h>
#include "pciesw.h"

static struct genl_family pciesw_nl_family;

enum pciesw_nl_mcgrp {
	PCIESW_NL_MCGRP_MONITOR,
};

static bool pciesw_port_link_active(const struct pciesw_port *port)
{
	switch (port->link.ltssm) {
	case PCIESW_LTSSM_L0:
	case PCIESW_LTSSM_L1:
	case PCIESW_LTSSM_RECOVERY:
		return true;
	default:
		return false;
	}
}

static int pciesw_nl_fill_switch(struct sk_buff *msg, struct pciesw_switch *sw)
{
	const struct pciesw_profile *prof = sw->profile;

	lockdep_assert_held(&sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    nla_put_string(msg, PCIESW_A_SWITCH_NAME, sw->name) ||
	    nla_put_string(msg, PCIESW_A_SWITCH_PROFILE, prof->name) ||
	    nla_put_string(msg, PCIESW_A_SWITCH_DESCRIPTION,
			   prof->description) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_LANES, prof->nr_lanes) ||
	    nla_put_string(msg, PCIESW_A_SWITCH_SERIAL, sw->serial) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_NR_GROUPS, sw->nr_groups) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_NR_PORTS, sw->nr_ports))
		return -EMSGSIZE;
	return 0;
}

static int pciesw_nl_fill_group(struct sk_buff *msg,
				const struct pciesw_group *g)
{
	const struct pciesw_group_desc *d = g->desc;
	char name[16];
	unsigned int c;

	lockdep_assert_held(&g->sw->lock);
	pciesw_group_config_name(d, g->config, name, sizeof(name));
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, g->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_GROUP_ID, g->id) ||
	    nla_put_string(msg, PCIESW_A_GROUP_NAME, d->name) ||
	    nla_put_u32(msg, PCIESW_A_GROUP_TYPE, d->type) ||
	    nla_put_u32(msg, PCIESW_A_GROUP_FIRST_LANE, d->first_lane) ||
	    nla_put_u32(msg, PCIESW_A_GROUP_NR_LANES, d->nr_lanes) ||
	    nla_put_string(msg, PCIESW_A_GROUP_CONFIG, name))
		return -EMSGSIZE;
	for (c = 0; c < d->nr_configs; c++) {
		pciesw_group_config_name(d, c, name, sizeof(name));
		if (nla_put_string(msg, PCIESW_A_GROUP_ALLOWED_CONFIG, name))
			return -EMSGSIZE;
	}
	return 0;
}

static int pciesw_nl_fill_port(struct sk_buff *msg,
			       const struct pciesw_port *port)
{
	const struct pciesw_group *g = port->group;
	const struct pciesw_link *link = &port->link;

	lockdep_assert_held(&g->sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, g->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_PORT_ID, port->id) ||
	    nla_put_u32(msg, PCIESW_A_GROUP_ID, g->id) ||
	    nla_put_string(msg, PCIESW_A_GROUP_NAME, g->desc->name) ||
	    nla_put_u32(msg, PCIESW_A_PORT_ROLE, port->role) ||
	    nla_put_u32(msg, PCIESW_A_PORT_FIRST_LANE, port->first_lane) ||
	    nla_put_u32(msg, PCIESW_A_PORT_NR_LANES, port->nr_lanes) ||
	    nla_put_u32(msg, PCIESW_A_PORT_LTSSM, link->ltssm) ||
	    nla_put_u8(msg, PCIESW_A_PORT_LINK_ACTIVE,
		       pciesw_port_link_active(port)) ||
	    nla_put_u32(msg, PCIESW_A_PORT_MAX_SPEED, port->max_speed) ||
	    nla_put_u32(msg, PCIESW_A_PORT_MAX_WIDTH, port->nr_lanes) ||
	    nla_put_u32(msg, PCIESW_A_PORT_TARGET_SPEED, link->target_speed) ||
	    nla_put_u32(msg, PCIESW_A_PORT_SPEED, link->speed) ||
	    nla_put_u32(msg, PCIESW_A_PORT_WIDTH, link->width) ||
	    nla_put_u8(msg, PCIESW_A_PORT_DEGRADED, link->degraded) ||
	    nla_put_u8(msg, PCIESW_A_PORT_ACS_REDIRECT, port->acs_redirect))
		return -EMSGSIZE;
	return 0;
}

/*
 * NL_SET_ERR_MSG_ATTR() for messages chosen at run time; @msg must be a
 * static string (all of the model's refusal texts are).
 */
static void pciesw_nl_err(struct netlink_ext_ack *extack,
			  const struct nlattr *attr, const char *msg)
{
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = attr;
	}
}

/* Which object of a switch a get op is about, and how to put it. */
struct pciesw_nl_obj {
	u8 cmd;
	int id_attr;		/* 0: the switch itself */
	const char *missing;	/* extack text when the index is out of range */
	unsigned int (*count)(struct pciesw_switch *sw);
	int (*fill)(struct sk_buff *msg, struct pciesw_switch *sw,
		    unsigned int idx);
};

static unsigned int pciesw_nl_count_one(struct pciesw_switch *sw)
{
	return 1;
}

static int pciesw_nl_fill_switch_idx(struct sk_buff *msg,
				     struct pciesw_switch *sw, unsigned int idx)
{
	return pciesw_nl_fill_switch(msg, sw);
}

static unsigned int pciesw_nl_count_groups(struct pciesw_switch *sw)
{
	return sw->nr_groups;
}

static int pciesw_nl_fill_group_idx(struct sk_buff *msg,
				    struct pciesw_switch *sw, unsigned int idx)
{
	return pciesw_nl_fill_group(msg, &sw->groups[idx]);
}

static unsigned int pciesw_nl_count_ports(struct pciesw_switch *sw)
{
	return sw->nr_ports;
}

static int pciesw_nl_fill_port_idx(struct sk_buff *msg,
				   struct pciesw_switch *sw, unsigned int idx)
{
	return pciesw_nl_fill_port(msg, &sw->ports[idx]);
}

static const struct pciesw_nl_obj pciesw_nl_switch_obj = {
	.cmd = PCIESW_CMD_SWITCH_GET,
	.count = pciesw_nl_count_one,
	.fill = pciesw_nl_fill_switch_idx,
};

static const struct pciesw_nl_obj pciesw_nl_group_obj = {
	.cmd = PCIESW_CMD_GROUP_GET,
	.id_attr = PCIESW_A_GROUP_ID,
	.missing = "no such lane group on this switch",
	.count = pciesw_nl_count_groups,
	.fill = pciesw_nl_fill_group_idx,
};

static const struct pciesw_nl_obj pciesw_nl_port_obj = {
	.cmd = PCIESW_CMD_PORT_GET,
	.id_attr = PCIESW_A_PORT_ID,
	.missing = "no such port on this switch",
	.count = pciesw_nl_count_ports,
	.fill = pciesw_nl_fill_port_idx,
};

/* Look up the switch a request names; says what is wrong when it can't. */
static struct pciesw_switch *pciesw_nl_get_switch(struct genl_info *info)
{
	struct pciesw_switch *sw;

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_SWITCH_ID))
		return ERR_PTR(-EINVAL);
	sw = pciesw_switch_get(nla_get_u32(info->attrs[PCIESW_A_SWITCH_ID]));
	if (!sw) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[PCIESW_A_SWITCH_ID],
				    "no such switch");
		return ERR_PTR(-ENODEV);
	}
	return sw;
}

static int pciesw_nl_get_doit(const struct pciesw_nl_obj *obj,
			      struct genl_info *info)
{
	struct pciesw_switch *sw;
	unsigned int idx = 0;
	struct sk_buff *msg;
	void *hdr;
	int err;

	sw = pciesw_nl_get_switch(info);
	if (IS_ERR(sw))
		return PTR_ERR(sw);
	if (obj->id_attr && GENL_REQ_ATTR_CHECK(info, obj->id_attr)) {
		err = -EINVAL;
		goto out_put;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_put;
	}
	hdr = genlmsg_put_reply(msg, info, &pciesw_nl_family, 0, obj->cmd);
	if (!hdr) {
		err = -EMSGSIZE;
		goto out_free;
	}

	mutex_lock(&sw->lock);
	if (obj->id_attr) {
		idx = nla_get_u32(info->attrs[obj->id_attr]);
		if (idx >= obj->count(sw)) {
			mutex_unlock(&sw->lock);
			pciesw_nl_err(info->extack, info->attrs[obj->id_attr],
				      obj->missing);
			err = -ENOENT;
			goto out_free;
		}
	}
	err = obj->fill(msg, sw, idx);
	mutex_unlock(&sw->lock);
	if (err)
		goto out_free;

	genlmsg_end(msg, hdr);
	pciesw_switch_put(sw);
	return genlmsg_reply(msg, info);

out_free:
	nlmsg_free(msg);
out_put:
	pciesw_switch_put(sw);
	return err;
}

/*
 * Dump every object of every switch (or of the switch the request names).
 * cb->args[0] is the switch id to resume at, cb->args[1] the index in it.
 */
static int pciesw_nl_get_dumpit(const struct pciesw_nl_obj *obj,
				struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct nlattr **attrs = pciesw_dump_attrs(cb);
	u32 id = cb->args[0], last = PCIESW_MAX_SWITCH_ID;
	unsigned int idx = cb->args[1];
	struct pciesw_switch *sw;
	int err = 0;

	if (attrs && attrs[PCIESW_A_SWITCH_ID]) {
		last = nla_get_u32(attrs[PCIESW_A_SWITCH_ID]);
		id = max(id, last);
	}

	while (id <= last && (sw = pciesw_switch_get_next(&id))) {
		if (id > last) {
			pciesw_switch_put(sw);
			break;
		}
		mutex_lock(&sw->lock);
		for (; idx < obj->count(sw); idx++) {
			void *hdr;

			hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, &pciesw_nl_family,
					  NLM_F_MULTI, obj->cmd);
			if (!hdr) {
				err = -EMSGSIZE;
				break;
			}
			err = obj->fill(skb, sw, idx);
			if (err) {
				genlmsg_cancel(skb, hdr);
				break;
			}
			genlmsg_end(skb, hdr);
		}
		mutex_unlock(&sw->lock);
		pciesw_switch_put(sw);
		if (err)
			break;
		id++;
		idx = 0;
	}

	cb->args[0] = id;
	cb->args[1] = idx;
	/* a full skb ends this round; an object too big for any skb fails */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int pciesw_nl_switch_get_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	return pciesw_nl_get_doit(&pciesw_nl_switch_obj, info);
}

static int pciesw_nl_switch_get_dumpit(struct sk_buff *skb,
				       struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_switch_obj, skb, cb);
}

static int pciesw_nl_group_get_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	return pciesw_nl_get_doit(&pciesw_nl_group_obj, info);
}

static int pciesw_nl_group_get_dumpit(struct sk_buff *skb,
				      struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_group_obj, skb, cb);
}

static int pciesw_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_get_doit(&pciesw_nl_port_obj, info);
}

static int pciesw_nl_port_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_port_obj, skb, cb);
}

static int pciesw_nl_switch_new_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct nlattr *prof_attr = info->attrs[PCIESW_A_SWITCH_PROFILE];
	struct nlattr *id_attr = info->attrs[PCIESW_A_SWITCH_ID];
	const char *profile = NULL;
	const char *why = NULL;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_SWITCH_ID))
		return -EINVAL;
	if (prof_attr) {
		profile = nla_data(prof_attr);
		if (!pciesw_profile_find(profile)) {
			NL_SET_ERR_MSG_ATTR(info->extack, prof_attr,
					    "unknown profile");
			return -EINVAL;
		}
	}
	err = pciesw_dev_new(nla_get_u32(id_attr), profile, &why);
	if (err)
		pciesw_nl_err(info->extack, id_attr, why);
	return err;
}

static int pciesw_nl_switch_del_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct nlattr *id_attr = info->attrs[PCIESW_A_SWITCH_ID];
	const char *why = NULL;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_SWITCH_ID))
		return -EINVAL;
	err = pciesw_dev_del(nla_get_u32(id_attr), &why);
	if (err)
		pciesw_nl_err(info->extack, id_attr, why);
	return err;
}

static const struct nla_policy pciesw_switch_get_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

static const struct nla_policy pciesw_switch_new_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_SWITCH_PROFILE] = { .type = NLA_NUL_STRING,
				      .len = PCIESW_NAME_LEN - 1 },
};

static const struct nla_policy pciesw_group_get_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_GROUP_ID] = { .type = NLA_U32 },
};

static const struct nla_policy pciesw_port_get_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32 },
};

static const struct genl_ops pciesw_nl_ops[] = {
	{
		.cmd = PCIESW_CMD_SWITCH_GET,
		.doit = pciesw_nl_switch_get_doit,
		.dumpit = pciesw_nl_switch_get_dumpit,
		.policy = pciesw_switch_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_switch_get_policy) - 1,
	},
	{
		.cmd = PCIESW_CMD_SWITCH_NEW,
		.doit = pciesw_nl_switch_new_doit,
		.policy = pciesw_switch_new_policy,
		.maxattr = ARRAY_SIZE(pciesw_switch_new_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_SWITCH_DEL,
		.doit = pciesw_nl_switch_del_doit,
		.policy = pciesw_switch_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_switch_get_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_GROUP_GET,
		.doit = pciesw_nl_group_get_doit,
		.dumpit = pciesw_nl_group_get_dumpit,
		.policy = pciesw_group_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_group_get_policy) - 1,
	},
	{
		.cmd = PCIESW_CMD_PORT_GET,
		.doit = pciesw_nl_port_get_doit,
		.dumpit = pciesw_nl_port_get_dumpit,
		.policy = pciesw_port_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_port_get_policy) - 1,
	},
};

static const struct genl_multicast_group pciesw_nl_mcgrps[] = {
	[PCIESW_NL_MCGRP_MONITOR] = { .name = PCIESW_MCGRP_MONITOR },
};

static struct genl_family pciesw_nl_family __ro_after_init = {
	.name = PCIESW_FAMILY_NAME,
	.version = PCIESW_FAMILY_VERSION,
	.module = THIS_MODULE,
	.ops = pciesw_nl_ops,
	.n_ops = ARRAY_SIZE(pciesw_nl_ops),
	.resv_start_op = PCIESW_CMD_PORT_GET + 1,
	.mcgrps = pciesw_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(pciesw_nl_mcgrps),
};

/* Called with sw->lock held (see pciesw_event()). */
static void pciesw_nl_notify_switch(struct pciesw_switch *sw, u8 cmd)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&pciesw_nl_family, &init_net,
				PCIESW_NL_MCGRP_MONITOR))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &pciesw_nl_family, 0, cmd);
	if (!hdr || pciesw_nl_fill_switch(msg, sw)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&pciesw_nl_family, msg, 0, PCIESW_NL_MCGRP_MONITOR,
			  GFP_KERNEL);
}

static int pciesw_nl_event(struct notifier_block *nb, unsigned long type,
			   void *data)
{
	const struct pciesw_event *ev = data;

	switch (ev->type) {
	case PCIESW_EV_SWITCH_CREATE:
		pciesw_nl_notify_switch(ev->sw, PCIESW_CMD_SWITCH_CREATE_NTF);
		break;
	case PCIESW_EV_SWITCH_DELETE:
		pciesw_nl_notify_switch(ev->sw, PCIESW_CMD_SWITCH_DELETE_NTF);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block pciesw_nl_event_nb = {
	.notifier_call = pciesw_nl_event,
};

int pciesw_netlink_init(void)
{
	int err;

	err = genl_register_family(&pciesw_nl_family);
	if (err)
		return err;
	err = pciesw_event_register(&pciesw_nl_event_nb);
	if (err)
		genl_unregister_family(&pciesw_nl_family);
	return err;
}

void pciesw_netlink_exit(void)
{
	pciesw_event_unregister(&pciesw_nl_event_nb);
	genl_unregister_family(&pciesw_nl_family);
}
