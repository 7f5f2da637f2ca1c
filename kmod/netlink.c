// SPDX-License-Identifier: GPL-2.0
/*
 * The pciesw generic netlink family (Documentation/netlink/specs/pciesw.yaml).
 * One fill function per object serves do, dump and notifications.
 */

#include <linux/log2.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include <pciesw_compat.h>
#include "pciesw.h"

static struct genl_family pciesw_nl_family;

enum pciesw_nl_mcgrp {
	PCIESW_NL_MCGRP_MONITOR,
};

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
	    nla_put_u32(msg, PCIESW_A_SWITCH_NR_PORTS, sw->nr_ports) ||
	    nla_put_u8(msg, PCIESW_A_SWITCH_HOST_P2P,
		       pciesw_switch_setting(sw, PCIESW_SETTING_HOST_P2P)) ||
	    nla_put_u8(msg, PCIESW_A_SWITCH_DMA_PACING,
		       pciesw_switch_setting(sw, PCIESW_SETTING_DMA_PACING)) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_MPS,
			pciesw_switch_setting(sw, PCIESW_SETTING_MPS)) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_DMA_CHANNELS,
			pciesw_switch_setting(sw, PCIESW_SETTING_DMA_CHANNELS)) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_DMA_INFLIGHT,
			pciesw_dma_inflight(sw)) ||
	    nla_put_u8(msg, PCIESW_A_SWITCH_PCI_VIEW,
		       pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW)) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_PCI_DOMAIN,
			pciesw_pci_domain(sw)))
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

/* The LTSSM history, oldest first, one nest per transition. */
static int pciesw_nl_fill_history(struct sk_buff *msg,
				  const struct pciesw_port *port)
{
	struct pciesw_ltssm_transition *t;
	unsigned int i, n;
	int err = 0;

	t = kmalloc_array(PCIESW_LTSSM_HISTORY, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	n = pciesw_link_history(port, t);
	for (i = 0; i < n && !err; i++) {
		struct nlattr *nest;

		nest = nla_nest_start(msg, PCIESW_A_PORT_LTSSM_TRANSITION);
		if (!nest ||
		    nla_put_u64_64bit(msg, PCIESW_A_TRANSITION_TIME,
				      t[i].time_ns, PCIESW_A_PAD) ||
		    nla_put_u32(msg, PCIESW_A_TRANSITION_FROM, t[i].from) ||
		    nla_put_u32(msg, PCIESW_A_TRANSITION_TO, t[i].to)) {
			err = -EMSGSIZE;
			break;
		}
		nla_nest_end(msg, nest);
	}
	kfree(t);
	return err;
}

static int pciesw_nl_fill_port(struct sk_buff *msg,
			       const struct pciesw_port *port)
{
	const struct pciesw_group *g = port->group;
	const struct pciesw_link *link = &port->link;
	char pci[PCIESW_PCI_NAME_LEN];

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
		       pciesw_link_active(port)) ||
	    nla_put_u32(msg, PCIESW_A_PORT_MAX_SPEED, port->max_speed) ||
	    nla_put_u32(msg, PCIESW_A_PORT_MAX_WIDTH, port->nr_lanes) ||
	    nla_put_u32(msg, PCIESW_A_PORT_TARGET_SPEED, link->target_speed) ||
	    nla_put_u32(msg, PCIESW_A_PORT_SPEED, link->speed) ||
	    nla_put_u32(msg, PCIESW_A_PORT_WIDTH, link->width) ||
	    nla_put_u8(msg, PCIESW_A_PORT_DEGRADED, link->degraded) ||
	    nla_put_u8(msg, PCIESW_A_PORT_ENABLED, link->enabled) ||
	    nla_put_u32(msg, PCIESW_A_PORT_FAILED_LANES, link->failed_lanes) ||
	    nla_put_u64_64bit(msg, PCIESW_A_PORT_SURPRISE_DOWN,
			      link->surprise_down, PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_PORT_BER, pciesw_port_ber(port),
			      PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_PORT_BANDWIDTH,
			      pciesw_port_bandwidth(port), PCIESW_A_PAD))
		return -EMSGSIZE;
	/* ACS is a capability of downstream ports only */
	if (port->role == PCIESW_PORT_ROLE_DOWNSTREAM &&
	    nla_put_u8(msg, PCIESW_A_PORT_ACS_REDIRECT, port->acs_redirect))
		return -EMSGSIZE;
	if (port->ep &&
	    (nla_put_u32(msg, PCIESW_A_EP_ID, port->ep->id) ||
	     nla_put_string(msg, PCIESW_A_EP_NAME, port->ep->name)))
		return -EMSGSIZE;
	if (pciesw_switch_setting(g->sw, PCIESW_SETTING_PCI_VIEW)) {
		pciesw_port_pci_name(port, pci, sizeof(pci));
		if (nla_put_string(msg, PCIESW_A_PORT_PCI_NAME, pci))
			return -EMSGSIZE;
	}
	return pciesw_nl_fill_history(msg, port);
}

static int pciesw_nl_fill_ep(struct sk_buff *msg,
			     const struct pciesw_endpoint *ep)
{
	char pci[PCIESW_PCI_NAME_LEN];

	lockdep_assert_held(&ep->sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, ep->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_EP_ID, ep->id) ||
	    nla_put_string(msg, PCIESW_A_EP_NAME, ep->name) ||
	    nla_put_u32(msg, PCIESW_A_EP_TYPE, ep->type) ||
	    nla_put_u32(msg, PCIESW_A_EP_MAX_SPEED, ep->max_speed) ||
	    nla_put_u32(msg, PCIESW_A_EP_MAX_WIDTH, ep->max_width) ||
	    nla_put_u64_64bit(msg, PCIESW_A_EP_MEM_SIZE, ep->mem_size,
			      PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_EP_MEM_RESIDENT,
			      pciesw_mem_resident(ep->mem), PCIESW_A_PAD) ||
	    nla_put_u32(msg, PCIESW_A_PORT_ID, ep->port->id))
		return -EMSGSIZE;
	if (pciesw_switch_setting(ep->sw, PCIESW_SETTING_PCI_VIEW)) {
		pciesw_ep_pci_name(ep, pci, sizeof(pci));
		if (nla_put_string(msg, PCIESW_A_EP_PCI_NAME, pci))
			return -EMSGSIZE;
	}
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

static unsigned int pciesw_nl_count_eps(struct pciesw_switch *sw)
{
	return pciesw_switch_nr_endpoints(sw);
}

/* endpoints are dumped in id order, @idx-th of the list */
static int pciesw_nl_fill_ep_idx(struct sk_buff *msg,
				 struct pciesw_switch *sw, unsigned int idx)
{
	struct pciesw_endpoint *ep;

	list_for_each_entry(ep, &sw->endpoints, node)
		if (!idx--)
			return pciesw_nl_fill_ep(msg, ep);
	return -ENOENT;
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

static const struct pciesw_nl_obj pciesw_nl_ep_obj = {
	.cmd = PCIESW_CMD_EP_GET,
	.count = pciesw_nl_count_eps,
	.fill = pciesw_nl_fill_ep_idx,
};

static int pciesw_nl_fill_vpd(struct sk_buff *msg, struct pciesw_switch *sw)
{
	struct pciesw_vpd_field *f;
	unsigned int i;
	struct nlattr *a;
	int err = -EMSGSIZE;

	lockdep_assert_held(&sw->lock);
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	pciesw_vpd_id_string(sw, f->value, sizeof(f->value));
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    nla_put_string(msg, PCIESW_A_VPD_ID_STRING, f->value))
		goto out;
	for (i = 0; !pciesw_vpd_field(sw, i, f); i++) {
		struct nlattr *nest = nla_nest_start(msg, PCIESW_A_VPD_FIELD);

		if (!nest ||
		    nla_put_string(msg, PCIESW_A_VPD_KEYWORD, f->keyword) ||
		    nla_put_string(msg, PCIESW_A_VPD_VALUE, f->value) ||
		    nla_put_u8(msg, PCIESW_A_VPD_WRITABLE, f->writable))
			goto out;
		nla_nest_end(msg, nest);
	}
	if (nla_put_u32(msg, PCIESW_A_VPD_RW_FREE, pciesw_vpd_rw_free(sw)))
		goto out;
	a = nla_reserve(msg, PCIESW_A_VPD_IMAGE, pciesw_vpd_len(sw));
	if (!a)
		goto out;
	pciesw_vpd_read(sw, nla_data(a), 0, nla_len(a));
	err = 0;
out:
	kfree(f);
	return err;
}

static int pciesw_nl_fill_vpd_idx(struct sk_buff *msg,
				  struct pciesw_switch *sw, unsigned int idx)
{
	return pciesw_nl_fill_vpd(msg, sw);
}

static const struct pciesw_nl_obj pciesw_nl_vpd_obj = {
	.cmd = PCIESW_CMD_VPD_GET,
	.count = pciesw_nl_count_one,
	.fill = pciesw_nl_fill_vpd_idx,
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
	/* what the reply shows has been notified before it arrives */
	pciesw_switch_sync(sw);

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
 * cb->args[0] is the switch id to resume at, cb->args[1] the index in it,
 * cb->args[2] is set once the filter has been checked.
 */
static int pciesw_nl_get_dumpit(const struct pciesw_nl_obj *obj,
				struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct nlattr **attrs = pciesw_dump_attrs(cb);
	u32 id = cb->args[0], last = PCIESW_MAX_SWITCH_ID;
	unsigned int idx = cb->args[1], i;
	struct pciesw_switch *sw;
	int err = 0;

	/* the ops share a policy with do: a dump filters by switch-id only */
	for (i = 1; attrs && i <= genl_dumpit_info(cb)->op.maxattr; i++) {
		if (attrs[i] && i != PCIESW_A_SWITCH_ID) {
			NL_SET_ERR_MSG_ATTR(cb->extack, attrs[i],
					    "a dump takes switch-id only");
			return -EINVAL;
		}
	}
	if (attrs && attrs[PCIESW_A_SWITCH_ID]) {
		last = nla_get_u32(attrs[PCIESW_A_SWITCH_ID]);
		/* a filter naming no switch is an error, not an empty dump */
		if (!cb->args[2]) {
			sw = pciesw_switch_get(last);
			if (!sw) {
				NL_SET_ERR_MSG_ATTR(cb->extack,
						    attrs[PCIESW_A_SWITCH_ID],
						    "no such switch");
				return -ENODEV;
			}
			pciesw_switch_put(sw);
			cb->args[2] = 1;
		}
		id = max(id, last);
	}

	while (id <= last && (sw = pciesw_switch_get_next(&id))) {
		if (id > last) {
			pciesw_switch_put(sw);
			break;
		}
		mutex_lock(&sw->lock);
		/*
		 * Events bump the generation under sw->lock: read with the lock
		 * held, a change between two rounds marks the dump
		 * NLM_F_DUMP_INTR.
		 */
		cb->seq = pciesw_generation();
		for (; idx < obj->count(sw); idx++) {
			void *hdr;

			hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, &pciesw_nl_family,
					  NLM_F_MULTI, obj->cmd);
			if (!hdr) {
				err = -EMSGSIZE;
				break;
			}
			genl_dump_check_consistent(cb, hdr);
			err = obj->fill(skb, sw, idx);
			if (err) {
				genlmsg_cancel(skb, hdr);
				break;
			}
			genlmsg_end(skb, hdr);
		}
		mutex_unlock(&sw->lock);
		pciesw_switch_sync(sw);
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

/*
 * Run @fn on the locked, live switch a set request names; @fn reports its
 * own refusals through the extack.
 */
static int pciesw_nl_locked(struct genl_info *info,
			    int (*fn)(struct pciesw_switch *sw,
				      struct genl_info *info))
{
	struct pciesw_switch *sw;
	const char *why;
	int err;

	sw = pciesw_nl_get_switch(info);
	if (IS_ERR(sw))
		return PTR_ERR(sw);
	mutex_lock(&sw->lock);
	err = pciesw_switch_live(sw, &why);
	if (err)
		pciesw_nl_err(info->extack, NULL, why);
	else
		err = fn(sw, info);
	mutex_unlock(&sw->lock);
	/* the request returns once every view shows what it changed */
	pciesw_switch_sync(sw);
	pciesw_switch_put(sw);
	return err;
}

/* The endpoint a request names by @id_attr or @name_attr. */
static struct pciesw_endpoint *pciesw_nl_find_ep_by(struct pciesw_switch *sw,
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
static struct pciesw_endpoint *pciesw_nl_find_ep(struct pciesw_switch *sw,
						 struct genl_info *info)
{
	return pciesw_nl_find_ep_by(sw, info, PCIESW_A_EP_ID, PCIESW_A_EP_NAME,
				    "need ep-id or ep-name");
}

static struct pciesw_port *pciesw_nl_find_port(struct pciesw_switch *sw,
					       struct genl_info *info)
{
	struct nlattr *attr = info->attrs[PCIESW_A_PORT_ID];

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_PORT_ID))
		return ERR_PTR(-EINVAL);
	if (nla_get_u32(attr) >= sw->nr_ports) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no such port on this switch");
		return ERR_PTR(-ENOENT);
	}
	return &sw->ports[nla_get_u32(attr)];
}

/* Reply to a do request with one object filled by @fill. */
static int pciesw_nl_reply(struct genl_info *info, u8 cmd,
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
	return genlmsg_reply(msg, info);
}

static int pciesw_nl_fill_ep_any(struct sk_buff *msg, const void *ep)
{
	return pciesw_nl_fill_ep(msg, ep);
}

static int pciesw_nl_ep_get_locked(struct pciesw_switch *sw,
				   struct genl_info *info)
{
	struct pciesw_endpoint *ep = pciesw_nl_find_ep(sw, info);

	if (IS_ERR(ep))
		return PTR_ERR(ep);
	return pciesw_nl_reply(info, PCIESW_CMD_EP_GET, pciesw_nl_fill_ep_any,
			       ep);
}

static int pciesw_nl_ep_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_ep_get_locked);
}

static int pciesw_nl_ep_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_ep_obj, skb, cb);
}

static int pciesw_nl_ep_add_locked(struct pciesw_switch *sw,
				   struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct pciesw_endpoint *ep;
	struct pciesw_port *port;
	const char *why = NULL;

	port = pciesw_nl_find_port(sw, info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_EP_TYPE))
		return -EINVAL;
	if (tb[PCIESW_A_EP_MAX_WIDTH] &&
	    !is_power_of_2(nla_get_u32(tb[PCIESW_A_EP_MAX_WIDTH]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PCIESW_A_EP_MAX_WIDTH],
				    "width must be 1, 2, 4, 8 or 16");
		return -EINVAL;
	}
	if (tb[PCIESW_A_EP_MEM_SIZE] &&
	    (nla_get_u64(tb[PCIESW_A_EP_MEM_SIZE]) & ~PAGE_MASK)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PCIESW_A_EP_MEM_SIZE],
				    "memory size must be a multiple of the page size");
		return -EINVAL;
	}
	ep = pciesw_ep_add(port, nla_get_u32(tb[PCIESW_A_EP_TYPE]),
			   tb[PCIESW_A_EP_MAX_SPEED] ?
			   nla_get_u32(tb[PCIESW_A_EP_MAX_SPEED]) : 0,
			   tb[PCIESW_A_EP_MAX_WIDTH] ?
			   nla_get_u32(tb[PCIESW_A_EP_MAX_WIDTH]) : 0,
			   tb[PCIESW_A_EP_MEM_SIZE] ?
			   nla_get_u64(tb[PCIESW_A_EP_MEM_SIZE]) : 0, &why);
	if (IS_ERR(ep)) {
		pciesw_nl_err(info->extack, tb[PCIESW_A_PORT_ID], why);
		return PTR_ERR(ep);
	}
	return pciesw_nl_reply(info, PCIESW_CMD_EP_ADD, pciesw_nl_fill_ep_any,
			       ep);
}

static int pciesw_nl_ep_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_ep_add_locked);
}

static int pciesw_nl_ep_del_locked(struct pciesw_switch *sw,
				   struct genl_info *info)
{
	struct pciesw_endpoint *ep = pciesw_nl_find_ep(sw, info);

	if (IS_ERR(ep))
		return PTR_ERR(ep);
	pciesw_ep_del(ep);
	return 0;
}

static int pciesw_nl_ep_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_ep_del_locked);
}

static int pciesw_nl_group_set_locked(struct pciesw_switch *sw,
				      struct genl_info *info)
{
	struct nlattr *cfg_attr = info->attrs[PCIESW_A_GROUP_CONFIG];
	struct nlattr *id = info->attrs[PCIESW_A_GROUP_ID];
	struct nlattr *name = info->attrs[PCIESW_A_GROUP_NAME];
	const char *why = NULL;
	struct pciesw_group *g;
	int cfg, err;

	if (!id && !name) {
		NL_SET_ERR_MSG(info->extack, "need group-id or group-name");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_GROUP_CONFIG))
		return -EINVAL;
	if (id)
		g = nla_get_u32(id) < sw->nr_groups ?
		    &sw->groups[nla_get_u32(id)] : NULL;
	else
		g = pciesw_group_find(sw, nla_data(name));
	if (!g) {
		NL_SET_ERR_MSG_ATTR(info->extack, id ?: name,
				    "no such lane group on this switch");
		return -ENOENT;
	}
	cfg = pciesw_group_find_config(g, nla_data(cfg_attr));
	if (cfg < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, cfg_attr,
				    "bifurcation not allowed for this lane group");
		return -EINVAL;
	}
	err = pciesw_group_set_config(g, cfg, &why);
	if (err)
		pciesw_nl_err(info->extack, cfg_attr, why);
	return err;
}

static int pciesw_nl_group_set_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_group_set_locked);
}

/*
 * Check every value before changing anything, so a refused request
 * leaves the port as it was.
 */
static int pciesw_nl_port_set_check(struct pciesw_port *port,
				    struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct nlattr *a;
	bool enabled;

	a = tb[PCIESW_A_PORT_TARGET_SPEED];
	if (a && nla_get_u32(a) > port->max_speed) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "target speed above what the port supports");
		return -EINVAL;
	}
	a = tb[PCIESW_A_PORT_FAILED_LANES];
	if (a && (nla_get_u32(a) & ~GENMASK(port->nr_lanes - 1, 0))) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "lane beyond the width of the port");
		return -EINVAL;
	}
	a = tb[PCIESW_A_PORT_ACS_REDIRECT];
	if (a && port->role != PCIESW_PORT_ROLE_DOWNSTREAM) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "ACS redirect exists on downstream ports only");
		return -EINVAL;
	}
	/* the link as it will be once port-enabled is applied */
	enabled = tb[PCIESW_A_PORT_ENABLED] ?
		  nla_get_u8(tb[PCIESW_A_PORT_ENABLED]) : port->link.enabled;
	a = tb[PCIESW_A_PORT_RETRAIN] ?: tb[PCIESW_A_PORT_HOT_RESET];
	if (a && !enabled) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "link is disabled");
		return -ENETDOWN;
	}
	a = tb[PCIESW_A_PORT_SURPRISE_DOWN_NOW];
	if (a && tb[PCIESW_A_PORT_ENABLED]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "surprise down and port-enabled do not go together");
		return -EINVAL;
	}
	if (a && !pciesw_link_active(port)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "link is not up");
		return -ENOLINK;
	}
	return 0;
}

static int pciesw_nl_port_set_locked(struct pciesw_switch *sw,
				     struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct pciesw_port *port;
	const char *why = NULL;
	int err;

	port = pciesw_nl_find_port(sw, info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	if (!tb[PCIESW_A_PORT_ENABLED] && !tb[PCIESW_A_PORT_TARGET_SPEED] &&
	    !tb[PCIESW_A_PORT_FAILED_LANES] && !tb[PCIESW_A_PORT_ACS_REDIRECT] &&
	    !tb[PCIESW_A_PORT_RETRAIN] && !tb[PCIESW_A_PORT_HOT_RESET] &&
	    !tb[PCIESW_A_PORT_SURPRISE_DOWN_NOW] && !tb[PCIESW_A_PORT_BER]) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	err = pciesw_nl_port_set_check(port, info);
	if (err)
		return err;

	/* the policy checked the range: cannot fail */
	if (tb[PCIESW_A_PORT_BER])
		err = pciesw_port_set_ber(port,
					  nla_get_u64(tb[PCIESW_A_PORT_BER]),
					  &why);
	if (!err && tb[PCIESW_A_PORT_ACS_REDIRECT])
		err = pciesw_port_set_acs(port,
					  nla_get_u8(tb[PCIESW_A_PORT_ACS_REDIRECT]),
					  &why);
	if (!err && tb[PCIESW_A_PORT_TARGET_SPEED])
		err = pciesw_port_set_target_speed(port,
						   nla_get_u32(tb[PCIESW_A_PORT_TARGET_SPEED]),
						   &why);
	if (!err && tb[PCIESW_A_PORT_FAILED_LANES])
		err = pciesw_port_set_failed_lanes(port,
						   nla_get_u32(tb[PCIESW_A_PORT_FAILED_LANES]),
						   &why);
	if (!err && tb[PCIESW_A_PORT_ENABLED])
		err = pciesw_port_set_enabled(port,
					      nla_get_u8(tb[PCIESW_A_PORT_ENABLED]),
					      &why);
	if (!err && tb[PCIESW_A_PORT_SURPRISE_DOWN_NOW])
		err = pciesw_port_surprise_down(port, &why);
	if (!err && tb[PCIESW_A_PORT_HOT_RESET])
		err = pciesw_port_hot_reset(port, &why);
	else if (!err && tb[PCIESW_A_PORT_RETRAIN])
		err = pciesw_port_retrain(port, &why);
	if (err)
		pciesw_nl_err(info->extack, NULL, why);
	return err;
}

static int pciesw_nl_port_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_port_set_locked);
}

static int pciesw_nl_vpd_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_get_doit(&pciesw_nl_vpd_obj, info);
}

static int pciesw_nl_vpd_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_vpd_obj, skb, cb);
}

static int pciesw_nl_vpd_set_locked(struct pciesw_switch *sw,
				    struct genl_info *info)
{
	struct nlattr *kw = info->attrs[PCIESW_A_VPD_KEYWORD];
	const char *why = NULL;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_VPD_KEYWORD) ||
	    GENL_REQ_ATTR_CHECK(info, PCIESW_A_VPD_VALUE))
		return -EINVAL;
	err = pciesw_vpd_set(sw, nla_data(kw),
			     nla_data(info->attrs[PCIESW_A_VPD_VALUE]), &why);
	if (err)
		pciesw_nl_err(info->extack, err == -ENOSPC ?
			      info->attrs[PCIESW_A_VPD_VALUE] : kw, why);
	return err;
}

static int pciesw_nl_vpd_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_vpd_set_locked);
}

/* ---- health: counters, thresholds, fault injection, temperatures ---- */

/* The counters of @port, or their sums over the switch when it is NULL. */
static int pciesw_nl_fill_counters(struct sk_buff *msg,
				   struct pciesw_switch *sw,
				   const struct pciesw_port *port)
{
	enum pciesw_counter c;

	lockdep_assert_held(&sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    (port && nla_put_u32(msg, PCIESW_A_PORT_ID, port->id)))
		return -EMSGSIZE;
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

static int pciesw_nl_fill_counters_idx(struct sk_buff *msg,
				       struct pciesw_switch *sw,
				       unsigned int idx)
{
	return pciesw_nl_fill_counters(msg, sw, &sw->ports[idx]);
}

static const struct pciesw_nl_obj pciesw_nl_counter_obj = {
	.cmd = PCIESW_CMD_COUNTER_GET,
	.count = pciesw_nl_count_ports,
	.fill = pciesw_nl_fill_counters_idx,
};

struct pciesw_nl_counters {
	struct pciesw_switch *sw;
	const struct pciesw_port *port;
};

static int pciesw_nl_fill_counters_any(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_nl_counters *c = obj;

	return pciesw_nl_fill_counters(msg, c->sw, c->port);
}

/* The port a request names, NULL if it names none (switch-wide). */
static struct pciesw_port *pciesw_nl_find_port_opt(struct pciesw_switch *sw,
						   struct genl_info *info)
{
	if (!info->attrs[PCIESW_A_PORT_ID])
		return NULL;
	return pciesw_nl_find_port(sw, info);
}

static int pciesw_nl_counter_get_locked(struct pciesw_switch *sw,
					struct genl_info *info)
{
	struct pciesw_nl_counters c = { .sw = sw };
	struct pciesw_port *port = pciesw_nl_find_port_opt(sw, info);

	if (IS_ERR(port))
		return PTR_ERR(port);
	c.port = port;
	return pciesw_nl_reply(info, PCIESW_CMD_COUNTER_GET,
			       pciesw_nl_fill_counters_any, &c);
}

static int pciesw_nl_counter_get_doit(struct sk_buff *skb,
				      struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_counter_get_locked);
}

static int pciesw_nl_counter_get_dumpit(struct sk_buff *skb,
					struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_counter_obj, skb, cb);
}

static int pciesw_nl_counter_clear_locked(struct pciesw_switch *sw,
					  struct genl_info *info)
{
	struct pciesw_port *port = pciesw_nl_find_port_opt(sw, info);

	if (IS_ERR(port))
		return PTR_ERR(port);
	if (port)
		pciesw_port_counters_clear(port);
	else
		pciesw_switch_counters_clear(sw);
	return 0;
}

static int pciesw_nl_counter_clear_doit(struct sk_buff *skb,
					struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_counter_clear_locked);
}

/*
 * A threshold as get replies and threshold-ntf tell it; @crossed is < 0
 * in the notification, which does not carry it.
 */
struct pciesw_nl_threshold {
	struct pciesw_switch *sw;
	const struct pciesw_port *port;
	enum pciesw_counter counter;
	u64 threshold;
	u64 value;
	int crossed;
};

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

static int pciesw_nl_fill_threshold_any(struct sk_buff *msg, const void *obj)
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

static unsigned int pciesw_nl_count_thresholds(struct pciesw_switch *sw)
{
	return sw->nr_thresholds;
}

static int pciesw_nl_fill_threshold_idx(struct sk_buff *msg,
					struct pciesw_switch *sw,
					unsigned int idx)
{
	struct pciesw_nl_threshold t;

	pciesw_nl_threshold_of(sw, &sw->thresholds[idx], &t);
	return pciesw_nl_fill_threshold(msg, &t);
}

static const struct pciesw_nl_obj pciesw_nl_threshold_obj = {
	.cmd = PCIESW_CMD_THRESHOLD_GET,
	.count = pciesw_nl_count_thresholds,
	.fill = pciesw_nl_fill_threshold_idx,
};

static int pciesw_nl_threshold_get_locked(struct pciesw_switch *sw,
					  struct genl_info *info)
{
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

static int pciesw_nl_threshold_get_doit(struct sk_buff *skb,
					struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_threshold_get_locked);
}

static int pciesw_nl_threshold_get_dumpit(struct sk_buff *skb,
					  struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_threshold_obj, skb, cb);
}

static int pciesw_nl_threshold_set_locked(struct pciesw_switch *sw,
					  struct genl_info *info)
{
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

static int pciesw_nl_threshold_set_doit(struct sk_buff *skb,
					struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_threshold_set_locked);
}

static int pciesw_nl_inject_locked(struct pciesw_switch *sw,
				   struct genl_info *info)
{
	struct nlattr *cattr = info->attrs[PCIESW_A_COUNTER_ID];
	struct nlattr *nattr = info->attrs[PCIESW_A_INJECT_COUNT];
	struct pciesw_port *port;
	const char *why = NULL;
	int err;

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

static int pciesw_nl_inject_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_inject_locked);
}

/* Brings the model up to date first, so every view reads it current. */
static int pciesw_nl_fill_thermal(struct sk_buff *msg,
				  struct pciesw_switch *sw)
{
	const struct pciesw_thermal *th = &sw->thermal;
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	pciesw_thermal_update(sw);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    nla_put_s32(msg, PCIESW_A_THERMAL_AMBIENT, th->ambient) ||
	    nla_put_u32(msg, PCIESW_A_THERMAL_TIME_CONSTANT, th->tau_ms) ||
	    nla_put_s32(msg, PCIESW_A_THERMAL_HIGHEST,
			pciesw_thermal_highest(sw)))
		return -EMSGSIZE;
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		const struct pciesw_sensor *s = &th->sensors[i];
		struct nlattr *nest;

		nest = nla_nest_start(msg, PCIESW_A_THERMAL_SENSOR);
		if (!nest ||
		    nla_put_u32(msg, PCIESW_A_SENSOR_ID, i) ||
		    nla_put_string(msg, PCIESW_A_SENSOR_LABEL,
				   pciesw_sensor_label(i)) ||
		    nla_put_s32(msg, PCIESW_A_SENSOR_TEMP,
				pciesw_sensor_temp(sw, i)) ||
		    nla_put_s32(msg, PCIESW_A_SENSOR_MAX, s->max) ||
		    nla_put_s32(msg, PCIESW_A_SENSOR_CRIT, s->crit) ||
		    nla_put_u32(msg, PCIESW_A_SENSOR_HYST, PCIESW_TEMP_HYST) ||
		    nla_put_u8(msg, PCIESW_A_SENSOR_MAX_ALARM, s->max_alarm) ||
		    nla_put_u8(msg, PCIESW_A_SENSOR_CRIT_ALARM,
			       s->crit_alarm) ||
		    (s->overridden &&
		     nla_put_s32(msg, PCIESW_A_SENSOR_OVERRIDE, s->override)))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int pciesw_nl_fill_thermal_idx(struct sk_buff *msg,
				      struct pciesw_switch *sw,
				      unsigned int idx)
{
	return pciesw_nl_fill_thermal(msg, sw);
}

static const struct pciesw_nl_obj pciesw_nl_thermal_obj = {
	.cmd = PCIESW_CMD_THERMAL_GET,
	.count = pciesw_nl_count_one,
	.fill = pciesw_nl_fill_thermal_idx,
};

static int pciesw_nl_thermal_get_doit(struct sk_buff *skb,
				      struct genl_info *info)
{
	return pciesw_nl_get_doit(&pciesw_nl_thermal_obj, info);
}

static int pciesw_nl_thermal_get_dumpit(struct sk_buff *skb,
					struct netlink_callback *cb)
{
	return pciesw_nl_get_dumpit(&pciesw_nl_thermal_obj, skb, cb);
}

/*
 * Check every value before changing anything, so a refused request
 * leaves the model as it was.
 */
static int pciesw_nl_thermal_set_locked(struct pciesw_switch *sw,
					struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	int sensor = -1, max = 0, crit = 0, ovr = 0;
	const char *why = NULL;
	int err = 0;

	if (!tb[PCIESW_A_THERMAL_AMBIENT] &&
	    !tb[PCIESW_A_THERMAL_TIME_CONSTANT] &&
	    !tb[PCIESW_A_SENSOR_MAX] && !tb[PCIESW_A_SENSOR_CRIT] &&
	    !tb[PCIESW_A_SENSOR_OVERRIDE] &&
	    !tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR]) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	if (tb[PCIESW_A_SENSOR_ID]) {
		if (nla_get_u32(tb[PCIESW_A_SENSOR_ID]) >= PCIESW_NR_SENSORS) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[PCIESW_A_SENSOR_ID],
					    "no such sensor");
			return -ENOENT;
		}
		sensor = nla_get_u32(tb[PCIESW_A_SENSOR_ID]);
	}
	if (tb[PCIESW_A_SENSOR_OVERRIDE] && tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR]) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR],
				    "sensor-override and sensor-override-clear do not go together");
		return -EINVAL;
	}
	if (tb[PCIESW_A_SENSOR_MAX])
		max = nla_get_s32(tb[PCIESW_A_SENSOR_MAX]);
	if (tb[PCIESW_A_SENSOR_CRIT])
		crit = nla_get_s32(tb[PCIESW_A_SENSOR_CRIT]);
	if (tb[PCIESW_A_SENSOR_OVERRIDE])
		ovr = nla_get_s32(tb[PCIESW_A_SENSOR_OVERRIDE]);
	err = pciesw_sensor_check_limits(sw, sensor,
					 tb[PCIESW_A_SENSOR_MAX] ? &max : NULL,
					 tb[PCIESW_A_SENSOR_CRIT] ? &crit : NULL,
					 &why);
	if (err) {
		pciesw_nl_err(info->extack, tb[PCIESW_A_SENSOR_CRIT] ?:
			      tb[PCIESW_A_SENSOR_MAX], why);
		return err;
	}

	/* the policies checked the ranges: none of these can fail now */
	if (tb[PCIESW_A_THERMAL_AMBIENT])
		err = pciesw_thermal_set_ambient(sw,
						 nla_get_s32(tb[PCIESW_A_THERMAL_AMBIENT]),
						 &why);
	if (!err && tb[PCIESW_A_THERMAL_TIME_CONSTANT])
		err = pciesw_thermal_set_tau(sw,
					     nla_get_u32(tb[PCIESW_A_THERMAL_TIME_CONSTANT]),
					     &why);
	if (!err && (tb[PCIESW_A_SENSOR_MAX] || tb[PCIESW_A_SENSOR_CRIT]))
		err = pciesw_sensor_set_limits(sw, sensor,
					       tb[PCIESW_A_SENSOR_MAX] ? &max : NULL,
					       tb[PCIESW_A_SENSOR_CRIT] ? &crit : NULL,
					       &why);
	if (!err && tb[PCIESW_A_SENSOR_OVERRIDE])
		err = pciesw_sensor_set_override(sw, sensor, &ovr, &why);
	else if (!err && tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR])
		err = pciesw_sensor_set_override(sw, sensor, NULL, &why);
	if (err)
		pciesw_nl_err(info->extack, NULL, why);
	return err;
}

static int pciesw_nl_thermal_set_doit(struct sk_buff *skb,
				      struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_thermal_set_locked);
}

/* ---- switch settings, p2p-check ---- */

/* The attribute of each setting. */
static const struct {
	int attr;
	bool u8;
} pciesw_nl_settings[PCIESW_NR_SETTINGS] = {
	[PCIESW_SETTING_HOST_P2P] = { PCIESW_A_SWITCH_HOST_P2P, true },
	[PCIESW_SETTING_DMA_PACING] = { PCIESW_A_SWITCH_DMA_PACING, true },
	[PCIESW_SETTING_MPS] = { PCIESW_A_SWITCH_MPS, false },
	[PCIESW_SETTING_DMA_CHANNELS] = { PCIESW_A_SWITCH_DMA_CHANNELS, false },
	[PCIESW_SETTING_PCI_VIEW] = { PCIESW_A_SWITCH_PCI_VIEW, true },
};

static int pciesw_nl_switch_set_locked(struct pciesw_switch *sw,
				       struct genl_info *info)
{
	struct pciesw_settings set = { };
	enum pciesw_setting bad = 0;
	const char *why = NULL;
	unsigned int i;
	int err;

	for (i = 0; i < PCIESW_NR_SETTINGS; i++) {
		struct nlattr *a = info->attrs[pciesw_nl_settings[i].attr];

		if (!a)
			continue;
		set.set |= BIT(i);
		set.val[i] = pciesw_nl_settings[i].u8 ? nla_get_u8(a) :
							nla_get_u32(a);
	}
	if (!set.set) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	err = pciesw_switch_set(sw, &set, &bad, &why);
	if (err)
		pciesw_nl_err(info->extack,
			      info->attrs[pciesw_nl_settings[bad].attr], why);
	return err;
}

static int pciesw_nl_switch_set_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_switch_set_locked);
}

struct pciesw_nl_p2p {
	struct pciesw_switch *sw;
	const struct pciesw_endpoint *ep;
	const struct pciesw_endpoint *peer;
	struct pciesw_route route;
};

static int pciesw_nl_fill_p2p(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_nl_p2p *p = obj;
	const struct pciesw_route *r = &p->route;
	unsigned int i;

	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, p->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_EP_ID, p->ep->id) ||
	    nla_put_u32(msg, PCIESW_A_PEER_EP_ID, p->peer->id) ||
	    nla_put_u32(msg, PCIESW_A_P2P_ROUTE, r->kind) ||
	    nla_put_u32(msg, PCIESW_A_P2P_DISTANCE, r->distance) ||
	    nla_put_u64_64bit(msg, PCIESW_A_P2P_BANDWIDTH,
			      pciesw_route_bandwidth(p->sw, r), PCIESW_A_PAD) ||
	    nla_put_u8(msg, PCIESW_A_SWITCH_HOST_P2P,
		       pciesw_switch_setting(p->sw, PCIESW_SETTING_HOST_P2P)))
		return -EMSGSIZE;
	for (i = 0; i < r->nr_ports; i++)
		if (nla_put_u32(msg, PCIESW_A_P2P_PORT, r->ports[i]))
			return -EMSGSIZE;
	for (i = 0; i < r->nr_redirect; i++)
		if (nla_put_u32(msg, PCIESW_A_P2P_REDIRECT_PORT, r->redirect[i]))
			return -EMSGSIZE;
	return 0;
}

static int pciesw_nl_p2p_check_locked(struct pciesw_switch *sw,
				      struct genl_info *info)
{
	struct pciesw_nl_p2p p = { .sw = sw };
	struct pciesw_endpoint *ep, *peer;
	int err;

	ep = pciesw_nl_find_ep(sw, info);
	if (IS_ERR(ep))
		return PTR_ERR(ep);
	peer = pciesw_nl_find_ep_by(sw, info, PCIESW_A_PEER_EP_ID,
				    PCIESW_A_PEER_EP_NAME,
				    "need peer-ep-id or peer-ep-name");
	if (IS_ERR(peer))
		return PTR_ERR(peer);
	err = pciesw_route_find(sw, ep, peer, &p.route);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "switch has no upstream port");
		return err;
	}
	p.ep = ep;
	p.peer = peer;
	return pciesw_nl_reply(info, PCIESW_CMD_P2P_CHECK, pciesw_nl_fill_p2p,
			       &p);
}

static int pciesw_nl_p2p_check_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	return pciesw_nl_locked(info, pciesw_nl_p2p_check_locked);
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

static const struct nla_policy pciesw_group_set_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_GROUP_ID] = { .type = NLA_U32 },
	[PCIESW_A_GROUP_NAME] = { .type = NLA_NUL_STRING,
				  .len = PCIESW_NAME_LEN - 1 },
	/* any length: it is matched against the group's allowed configs */
	[PCIESW_A_GROUP_CONFIG] = { .type = NLA_NUL_STRING },
};

static pciesw_nl_range_t pciesw_ber_range = {
	.max = PCIESW_BER_MAX,
};

static const struct nla_policy pciesw_port_set_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32 },
	[PCIESW_A_PORT_TARGET_SPEED] =
		NLA_POLICY_RANGE(NLA_U32, PCIESW_LINK_SPEED_GEN1,
				 PCIESW_LINK_SPEED_MAX),
	[PCIESW_A_PORT_ACS_REDIRECT] = NLA_POLICY_MAX(NLA_U8, 1),
	[PCIESW_A_PORT_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[PCIESW_A_PORT_FAILED_LANES] = { .type = NLA_U32 },
	[PCIESW_A_PORT_RETRAIN] = { .type = NLA_FLAG },
	[PCIESW_A_PORT_HOT_RESET] = { .type = NLA_FLAG },
	[PCIESW_A_PORT_SURPRISE_DOWN_NOW] = { .type = NLA_FLAG },
	[PCIESW_A_PORT_BER] = NLA_POLICY_FULL_RANGE(NLA_U64, &pciesw_ber_range),
};

static const struct nla_policy pciesw_ep_get_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_EP_ID] = { .type = NLA_U32 },
	[PCIESW_A_EP_NAME] = { .type = NLA_NUL_STRING,
			       .len = PCIESW_NAME_LEN - 1 },
};

static const struct nla_policy pciesw_ep_add_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32 },
	[PCIESW_A_EP_TYPE] = NLA_POLICY_RANGE(NLA_U32, PCIESW_EP_TYPE_GPU,
					      PCIESW_EP_TYPE_MAX),
	[PCIESW_A_EP_MAX_SPEED] =
		NLA_POLICY_RANGE(NLA_U32, PCIESW_LINK_SPEED_GEN1,
				 PCIESW_LINK_SPEED_MAX),
	[PCIESW_A_EP_MAX_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 16),
	[PCIESW_A_EP_MEM_SIZE] = { .type = NLA_U64 },
};

static const struct nla_policy pciesw_vpd_set_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	/* shorter keywords get a better message from pciesw_vpd_set() */
	[PCIESW_A_VPD_KEYWORD] = { .type = NLA_NUL_STRING, .len = 2 },
	[PCIESW_A_VPD_VALUE] = { .type = NLA_NUL_STRING,
				 .len = PCIESW_VPD_VALUE_MAX },
};

static const struct nla_policy pciesw_counter_get_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32 },
};

static const struct nla_policy pciesw_threshold_get_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32 },
	[PCIESW_A_COUNTER_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_COUNTER_MAX),
};

static const struct nla_policy pciesw_threshold_set_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32 },
	[PCIESW_A_COUNTER_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_COUNTER_MAX),
	[PCIESW_A_THRESHOLD_VALUE] = { .type = NLA_U64 },
};

static pciesw_nl_range_t pciesw_inject_range = {
	.min = 1,
	.max = PCIESW_INJECT_MAX,
};

static const struct nla_policy pciesw_inject_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32 },
	[PCIESW_A_COUNTER_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_COUNTER_MAX),
	[PCIESW_A_INJECT_COUNT] = NLA_POLICY_FULL_RANGE(NLA_U32,
							&pciesw_inject_range),
};

static pciesw_nl_srange_t pciesw_ambient_range = {
	.min = PCIESW_TEMP_MIN,
	.max = PCIESW_AMBIENT_MAX,
};

static pciesw_nl_range_t pciesw_tau_range = {
	.min = PCIESW_TAU_MIN_MS,
	.max = PCIESW_TAU_MAX_MS,
};

static pciesw_nl_srange_t pciesw_temp_range = {
	.min = PCIESW_TEMP_MIN,
	.max = PCIESW_TEMP_MAX,
};

static const struct nla_policy pciesw_thermal_set_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_THERMAL_AMBIENT] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &pciesw_ambient_range),
	[PCIESW_A_THERMAL_TIME_CONSTANT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_tau_range),
	[PCIESW_A_SENSOR_ID] = { .type = NLA_U32 },
	[PCIESW_A_SENSOR_MAX] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &pciesw_temp_range),
	[PCIESW_A_SENSOR_CRIT] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &pciesw_temp_range),
	[PCIESW_A_SENSOR_OVERRIDE] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &pciesw_temp_range),
	[PCIESW_A_SENSOR_OVERRIDE_CLEAR] = { .type = NLA_FLAG },
};

/* the values are checked by pciesw_switch_set(): EINVAL, and its message */
static const struct nla_policy pciesw_switch_set_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_SWITCH_HOST_P2P] = { .type = NLA_U8 },
	[PCIESW_A_SWITCH_DMA_PACING] = { .type = NLA_U8 },
	[PCIESW_A_SWITCH_MPS] = { .type = NLA_U32 },
	[PCIESW_A_SWITCH_DMA_CHANNELS] = { .type = NLA_U32 },
	[PCIESW_A_SWITCH_PCI_VIEW] = { .type = NLA_U8 },
};

static const struct nla_policy pciesw_p2p_check_policy[] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_EP_ID] = { .type = NLA_U32 },
	[PCIESW_A_EP_NAME] = { .type = NLA_NUL_STRING,
			       .len = PCIESW_NAME_LEN - 1 },
	[PCIESW_A_PEER_EP_ID] = { .type = NLA_U32 },
	[PCIESW_A_PEER_EP_NAME] = { .type = NLA_NUL_STRING,
				    .len = PCIESW_NAME_LEN - 1 },
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
	{
		.cmd = PCIESW_CMD_GROUP_SET,
		.doit = pciesw_nl_group_set_doit,
		.policy = pciesw_group_set_policy,
		.maxattr = ARRAY_SIZE(pciesw_group_set_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_PORT_SET,
		.doit = pciesw_nl_port_set_doit,
		.policy = pciesw_port_set_policy,
		.maxattr = ARRAY_SIZE(pciesw_port_set_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_EP_GET,
		.doit = pciesw_nl_ep_get_doit,
		.dumpit = pciesw_nl_ep_get_dumpit,
		.policy = pciesw_ep_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_ep_get_policy) - 1,
	},
	{
		.cmd = PCIESW_CMD_EP_ADD,
		.doit = pciesw_nl_ep_add_doit,
		.policy = pciesw_ep_add_policy,
		.maxattr = ARRAY_SIZE(pciesw_ep_add_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_EP_DEL,
		.doit = pciesw_nl_ep_del_doit,
		.policy = pciesw_ep_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_ep_get_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_VPD_GET,
		.doit = pciesw_nl_vpd_get_doit,
		.dumpit = pciesw_nl_vpd_get_dumpit,
		.policy = pciesw_switch_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_switch_get_policy) - 1,
	},
	{
		.cmd = PCIESW_CMD_VPD_SET,
		.doit = pciesw_nl_vpd_set_doit,
		.policy = pciesw_vpd_set_policy,
		.maxattr = ARRAY_SIZE(pciesw_vpd_set_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_COUNTER_GET,
		.doit = pciesw_nl_counter_get_doit,
		.dumpit = pciesw_nl_counter_get_dumpit,
		.policy = pciesw_counter_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_counter_get_policy) - 1,
	},
	{
		.cmd = PCIESW_CMD_COUNTER_CLEAR,
		.doit = pciesw_nl_counter_clear_doit,
		.policy = pciesw_counter_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_counter_get_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_THRESHOLD_GET,
		.doit = pciesw_nl_threshold_get_doit,
		.dumpit = pciesw_nl_threshold_get_dumpit,
		.policy = pciesw_threshold_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_threshold_get_policy) - 1,
	},
	{
		.cmd = PCIESW_CMD_THRESHOLD_SET,
		.doit = pciesw_nl_threshold_set_doit,
		.policy = pciesw_threshold_set_policy,
		.maxattr = ARRAY_SIZE(pciesw_threshold_set_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_INJECT,
		.doit = pciesw_nl_inject_doit,
		.policy = pciesw_inject_policy,
		.maxattr = ARRAY_SIZE(pciesw_inject_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_THERMAL_GET,
		.doit = pciesw_nl_thermal_get_doit,
		.dumpit = pciesw_nl_thermal_get_dumpit,
		.policy = pciesw_switch_get_policy,
		.maxattr = ARRAY_SIZE(pciesw_switch_get_policy) - 1,
	},
	{
		.cmd = PCIESW_CMD_THERMAL_SET,
		.doit = pciesw_nl_thermal_set_doit,
		.policy = pciesw_thermal_set_policy,
		.maxattr = ARRAY_SIZE(pciesw_thermal_set_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_SWITCH_SET,
		.doit = pciesw_nl_switch_set_doit,
		.policy = pciesw_switch_set_policy,
		.maxattr = ARRAY_SIZE(pciesw_switch_set_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = PCIESW_CMD_P2P_CHECK,
		.doit = pciesw_nl_p2p_check_doit,
		.policy = pciesw_p2p_check_policy,
		.maxattr = ARRAY_SIZE(pciesw_p2p_check_policy) - 1,
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
	.resv_start_op = PCIESW_CMD_EP_DEL_NTF + 1,
	.mcgrps = pciesw_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(pciesw_nl_mcgrps),
};

static int pciesw_nl_fill_switch_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_switch(msg, (struct pciesw_switch *)obj);
}

static int pciesw_nl_fill_group_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_group(msg, obj);
}

static int pciesw_nl_fill_port_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_port(msg, obj);
}

static int pciesw_nl_fill_vpd_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_vpd(msg, (struct pciesw_switch *)obj);
}

/*
 * With sw->lock held (the view's snapshot, see event.c): the notification
 * as the model is now, multicast later in event order; NULL when nobody
 * listens or there is no memory (a listener then misses it, as netlink's
 * own multicast can drop).
 */
static struct sk_buff *pciesw_nl_notify(u8 cmd,
					int (*fill)(struct sk_buff *msg,
						    const void *obj),
					const void *obj)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&pciesw_nl_family, &init_net,
				PCIESW_NL_MCGRP_MONITOR))
		return NULL;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, 0, 0, &pciesw_nl_family, 0, cmd);
	if (!hdr || fill(msg, obj)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

static struct sk_buff *pciesw_nl_notify_threshold(const struct pciesw_event *ev)
{
	struct pciesw_nl_threshold t = {
		.sw = ev->sw,
		.port = ev->port,
		.counter = ev->counter,
		.threshold = ev->threshold,
		.value = ev->value,
		.crossed = -1,
	};

	return pciesw_nl_notify(PCIESW_CMD_THRESHOLD_NTF,
				pciesw_nl_fill_threshold_any, &t);
}

static int pciesw_nl_fill_alarm_any(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_event *ev = obj;

	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, ev->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_SENSOR_ID, ev->sensor) ||
	    nla_put_s32(msg, PCIESW_A_SENSOR_TEMP, ev->temp) ||
	    nla_put_u32(msg, PCIESW_A_ALARM_LEVEL, ev->level) ||
	    nla_put_u8(msg, PCIESW_A_ALARM_ACTIVE, ev->active))
		return -EMSGSIZE;
	return 0;
}

static void *pciesw_nl_snapshot(const struct pciesw_event *ev)
{
	switch (ev->type) {
	case PCIESW_EV_SWITCH_CREATE:
		return pciesw_nl_notify(PCIESW_CMD_SWITCH_CREATE_NTF,
					pciesw_nl_fill_switch_any, ev->sw);
	case PCIESW_EV_SWITCH_DELETE:
		return pciesw_nl_notify(PCIESW_CMD_SWITCH_DELETE_NTF,
					pciesw_nl_fill_switch_any, ev->sw);
	case PCIESW_EV_GROUP_CHANGE:
		return pciesw_nl_notify(PCIESW_CMD_GROUP_CHANGE_NTF,
					pciesw_nl_fill_group_any, ev->group);
	case PCIESW_EV_PORT_CHANGE:
		return pciesw_nl_notify(PCIESW_CMD_PORT_CHANGE_NTF,
					pciesw_nl_fill_port_any, ev->port);
	case PCIESW_EV_EP_ADD:
		return pciesw_nl_notify(PCIESW_CMD_EP_ADD_NTF,
					pciesw_nl_fill_ep_any, ev->ep);
	case PCIESW_EV_EP_DEL:
		return pciesw_nl_notify(PCIESW_CMD_EP_DEL_NTF,
					pciesw_nl_fill_ep_any, ev->ep);
	case PCIESW_EV_VPD_CHANGE:
		return pciesw_nl_notify(PCIESW_CMD_VPD_CHANGE_NTF,
					pciesw_nl_fill_vpd_any, ev->sw);
	case PCIESW_EV_THRESHOLD:
		return pciesw_nl_notify_threshold(ev);
	case PCIESW_EV_THERMAL_ALARM:
		return pciesw_nl_notify(PCIESW_CMD_THERMAL_ALARM_NTF,
					pciesw_nl_fill_alarm_any, ev);
	case PCIESW_EV_SWITCH_CHANGE:
		return pciesw_nl_notify(PCIESW_CMD_SWITCH_CHANGE_NTF,
					pciesw_nl_fill_switch_any, ev->sw);
	case PCIESW_EV_PORTS_REMOVE:
	case PCIESW_EV_PORTS_ADD:
		/* the group change that follows says it */
		break;
	}
	return NULL;
}

/* In event order, after the devices and the PCI view show the change. */
static void pciesw_nl_apply(const struct pciesw_event *ev, void *snap)
{
	if (snap)
		genlmsg_multicast(&pciesw_nl_family, snap, 0,
				  PCIESW_NL_MCGRP_MONITOR, GFP_KERNEL);
}

static const struct pciesw_view pciesw_nl_view = {
	.snapshot = pciesw_nl_snapshot,
	.apply = pciesw_nl_apply,
};

int pciesw_netlink_init(void)
{
	int err;

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
