// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink: switches, lane groups, ports and endpoints.  One fill
 * function per object serves do, dump and notifications.
 */

#include <linux/capability.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "netlink/netlink.h"
#include "model/route.h"

/*
 * The serial number only with @serial: for a request of CAP_SYS_ADMIN
 * (like the PCI core's VPD, see pciesw_nl_check_perm()), never in a
 * notification, which any listener of the monitor group receives.
 */
static int pciesw_nl_fill_switch(struct sk_buff *msg, struct pciesw_switch *sw,
				 bool serial)
{
	const struct pciesw_profile *prof = sw->profile;
	u32 domain;

	lockdep_assert_held(&sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    nla_put_string(msg, PCIESW_A_SWITCH_NAME, sw->name) ||
	    nla_put_string(msg, PCIESW_A_SWITCH_PROFILE, prof->name) ||
	    nla_put_string(msg, PCIESW_A_SWITCH_DESCRIPTION,
			   prof->description) ||
	    nla_put_u32(msg, PCIESW_A_SWITCH_LANES, prof->nr_lanes) ||
	    (serial &&
	     nla_put_string(msg, PCIESW_A_SWITCH_SERIAL, sw->serial)) ||
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
		       pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW)))
		return -EMSGSIZE;
	/* absent if the switch could have no domain (and has no view) */
	domain = pciesw_pci_domain(sw);
	if (domain != PCIESW_PCI_DOMAIN_NONE &&
	    nla_put_u32(msg, PCIESW_A_SWITCH_PCI_DOMAIN, domain))
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
	/* ACS and DPC are capabilities of downstream ports only */
	if (port->role == PCIESW_PORT_ROLE_DOWNSTREAM &&
	    (nla_put_u8(msg, PCIESW_A_PORT_ACS_REDIRECT, port->acs_redirect) ||
	     nla_put_u8(msg, PCIESW_A_PORT_DPC_CONTAINED,
			port->link.contained)))
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

/* A drive's serial number only with @serial, as the switch's. */
static int pciesw_nl_fill_ep(struct sk_buff *msg,
			     const struct pciesw_endpoint *ep, bool serial)
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
	    nla_put_u32(msg, PCIESW_A_PORT_ID, ep->port->id) ||
	    nla_put_u8(msg, PCIESW_A_EP_BUS_MASTER, !ep->bus_master_off) ||
	    nla_put_u32(msg, PCIESW_A_EP_VENDOR, ep->ident.vendor) ||
	    nla_put_u32(msg, PCIESW_A_EP_DEVICE, ep->ident.device) ||
	    nla_put_u32(msg, PCIESW_A_EP_SUBSYSTEM_VENDOR,
			ep->ident.subsys_vendor) ||
	    nla_put_u32(msg, PCIESW_A_EP_SUBSYSTEM_DEVICE,
			ep->ident.subsys_device) ||
	    nla_put_u32(msg, PCIESW_A_EP_REVISION, ep->ident.revision) ||
	    nla_put_u32(msg, PCIESW_A_EP_CLASS, ep->ident.class_code) ||
	    nla_put_64bit(msg, PCIESW_A_EP_AER_COUNTS, sizeof(ep->aer_errors),
			  ep->aer_errors, PCIESW_A_PAD))
		return -EMSGSIZE;
	if (pciesw_switch_setting(ep->sw, PCIESW_SETTING_PCI_VIEW)) {
		pciesw_ep_pci_name(ep, pci, sizeof(pci));
		if (nla_put_string(msg, PCIESW_A_EP_PCI_NAME, pci))
			return -EMSGSIZE;
	}
	if (ep->type == PCIESW_EP_TYPE_NVME) {
		char disk[PCIESW_DISK_NAME_LEN];

		pciesw_ep_disk_name(ep, disk, sizeof(disk));
		if (nla_put_u32(msg, PCIESW_A_EP_BLOCK_SIZE, ep->block_size) ||
		    nla_put_string(msg, PCIESW_A_EP_DISK_NAME, disk))
			return -EMSGSIZE;
		return pciesw_nl_fill_nvme(msg, ep, serial);
	}
	return 0;
}

/*
 * ep-brief: what changes without a notification, the window's resident
 * memory and a drive's I/O counters (top asks for every endpoint's once a
 * refresh).
 */
static int pciesw_nl_fill_ep_brief(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_endpoint *ep = obj;

	lockdep_assert_held(&ep->sw->lock);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, ep->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_EP_ID, ep->id) ||
	    nla_put_u64_64bit(msg, PCIESW_A_EP_MEM_RESIDENT,
			      pciesw_mem_resident(ep->mem), PCIESW_A_PAD))
		return -EMSGSIZE;
	return pciesw_nl_fill_nvme_io(msg, ep);
}

int pciesw_nl_fill_switch_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_switch(msg, (struct pciesw_switch *)obj, false);
}

static int pciesw_nl_fill_switch_serial(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_switch(msg, (struct pciesw_switch *)obj, true);
}

int pciesw_nl_fill_group_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_group(msg, obj);
}

int pciesw_nl_fill_port_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_port(msg, obj);
}

int pciesw_nl_fill_ep_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_ep(msg, obj, false);
}

static int pciesw_nl_fill_ep_serial(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_ep(msg, obj, true);
}

/* ---- switches ---- */

static int pciesw_nl_fill_switch_dump(struct sk_buff *msg,
				      struct pciesw_switch *sw, const void *obj,
				      enum pciesw_nl_form form)
{
	return pciesw_nl_fill_switch(msg, sw, form == PCIESW_NL_FORM_SERIAL);
}

static const struct pciesw_nl_obj pciesw_nl_switch_obj = {
	.cmd = PCIESW_CMD_SWITCH_GET,
	.find = pciesw_nl_find_switch,
	.fill = pciesw_nl_fill_switch_dump,
};

int pciesw_nl_switch_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_reply(info, PCIESW_CMD_SWITCH_GET,
			       netlink_capable(skb, CAP_SYS_ADMIN) ?
			       pciesw_nl_fill_switch_serial :
			       pciesw_nl_fill_switch_any, pciesw_nl_sw(info));
}

int pciesw_nl_switch_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return pciesw_nl_dumpit(&pciesw_nl_switch_obj,
				pciesw_nl_form_serial(cb->skb), skb, cb);
}

int pciesw_nl_switch_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *prof_attr = info->attrs[PCIESW_A_SWITCH_PROFILE];
	struct nlattr *id_attr = info->attrs[PCIESW_A_SWITCH_ID];
	const char *profile = NULL;
	const char *why = NULL;
	int err;

	err = pciesw_nl_check_perm(skb, info);
	if (err)
		return err;
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
	err = pciesw_instance_new(nla_get_u32(id_attr), profile, &why);
	if (err)
		pciesw_nl_err(info->extack, id_attr, why);
	return err;
}

int pciesw_nl_switch_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *id_attr = info->attrs[PCIESW_A_SWITCH_ID];
	const char *why = NULL;
	int err;

	err = pciesw_nl_check_perm(skb, info);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_SWITCH_ID))
		return -EINVAL;
	err = pciesw_instance_del(nla_get_u32(id_attr), &why);
	if (err)
		pciesw_nl_err(info->extack, id_attr, why);
	return err;
}

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

/* the values are checked by pciesw_switch_set(): EINVAL, and its message */
int pciesw_nl_switch_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
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
	if (err) {
		pciesw_nl_err(info->extack,
			      info->attrs[pciesw_nl_settings[bad].attr], why);
		return err;
	}
	if ((set.set & BIT(PCIESW_SETTING_PCI_VIEW)) &&
	    set.val[PCIESW_SETTING_PCI_VIEW]) {
		/*
		 * The view is made from the event queue and turns the setting
		 * back off if it cannot be: wait for it (post_doit unlocks).
		 */
		mutex_unlock(&sw->lock);
		pciesw_switch_sync(sw);
		mutex_lock(&sw->lock);
		if (!pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW)) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[PCIESW_A_SWITCH_PCI_VIEW],
					    "the PCI view could not be created (out of memory)");
			return -ENOMEM;
		}
	}
	return 0;
}

/* ---- lane groups ---- */

static const void *pciesw_nl_find_group(struct pciesw_switch *sw,
					unsigned long *pos)
{
	return *pos < sw->nr_groups ? &sw->groups[*pos] : NULL;
}

static int pciesw_nl_fill_group_dump(struct sk_buff *msg,
				     struct pciesw_switch *sw, const void *obj,
				     enum pciesw_nl_form form)
{
	return pciesw_nl_fill_group(msg, obj);
}

static const struct pciesw_nl_obj pciesw_nl_group_obj = {
	.cmd = PCIESW_CMD_GROUP_GET,
	.find = pciesw_nl_find_group,
	.fill = pciesw_nl_fill_group_dump,
};

int pciesw_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct nlattr *id = info->attrs[PCIESW_A_GROUP_ID];

	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_GROUP_ID))
		return -EINVAL;
	if (nla_get_u32(id) >= sw->nr_groups) {
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "no such lane group on this switch");
		return -ENOENT;
	}
	return pciesw_nl_reply(info, PCIESW_CMD_GROUP_GET,
			       pciesw_nl_fill_group_any,
			       &sw->groups[nla_get_u32(id)]);
}

int pciesw_nl_group_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	return pciesw_nl_dumpit(&pciesw_nl_group_obj, PCIESW_NL_FORM_PLAIN,
				skb, cb);
}

int pciesw_nl_group_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
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

/* ---- ports ---- */

static int pciesw_nl_fill_port_dump(struct sk_buff *msg,
				    struct pciesw_switch *sw, const void *obj,
				    enum pciesw_nl_form form)
{
	return pciesw_nl_fill_port(msg, obj);
}

static const struct pciesw_nl_obj pciesw_nl_port_obj = {
	.cmd = PCIESW_CMD_PORT_GET,
	.find = pciesw_nl_find_next_port,
	.fill = pciesw_nl_fill_port_dump,
};

int pciesw_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_port *port;

	port = pciesw_nl_find_port(pciesw_nl_sw(info), info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	return pciesw_nl_reply(info, PCIESW_CMD_PORT_GET,
			       pciesw_nl_fill_port_any, port);
}

int pciesw_nl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return pciesw_nl_dumpit(&pciesw_nl_port_obj, PCIESW_NL_FORM_PLAIN,
				skb, cb);
}

/*
 * Check every value before changing anything, so a refused request
 * leaves the port as it was.
 */
static int pciesw_nl_port_set_check(struct pciesw_port *port,
				    struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	const char *why = NULL;
	struct nlattr *a;
	bool enabled;
	int err = 0;

	a = tb[PCIESW_A_PORT_TARGET_SPEED];
	if (a)
		err = pciesw_port_check_target_speed(port, nla_get_u32(a), &why);
	if (err)
		goto bad;
	a = tb[PCIESW_A_PORT_FAILED_LANES];
	if (a)
		err = pciesw_port_check_failed_lanes(port, nla_get_u32(a), &why);
	if (err)
		goto bad;
	a = tb[PCIESW_A_PORT_ACS_REDIRECT];
	if (a)
		err = pciesw_port_check_acs(port, &why);
	if (err)
		goto bad;
	/* the link as it will be once port-enabled is applied */
	enabled = tb[PCIESW_A_PORT_ENABLED] ?
		  nla_get_u8(tb[PCIESW_A_PORT_ENABLED]) : port->link.enabled;
	a = tb[PCIESW_A_PORT_RETRAIN] ?: tb[PCIESW_A_PORT_HOT_RESET];
	if (a)
		err = pciesw_port_check_retrain(port, &enabled, &why);
	if (err)
		goto bad;
	a = tb[PCIESW_A_PORT_SURPRISE_DOWN_NOW];
	if (a && tb[PCIESW_A_PORT_ENABLED]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "surprise down and port-enabled do not go together");
		return -EINVAL;
	}
	if (a)
		err = pciesw_port_check_surprise_down(port, &why);
	if (err)
		goto bad;
	return 0;
bad:
	pciesw_nl_err(info->extack, a, why);
	return err;
}

int pciesw_nl_port_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
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

/* ---- endpoints ---- */

/* endpoints are dumped in id order (the list is ordered by id) */
static const void *pciesw_nl_find_ep_next(struct pciesw_switch *sw,
					  unsigned long *pos)
{
	struct pciesw_endpoint *ep;

	list_for_each_entry(ep, &sw->endpoints, node) {
		if (ep->id >= *pos) {
			*pos = ep->id;
			return ep;
		}
	}
	return NULL;
}

static int pciesw_nl_fill_ep_dump(struct sk_buff *msg, struct pciesw_switch *sw,
				  const void *obj, enum pciesw_nl_form form)
{
	if (form == PCIESW_NL_FORM_BRIEF)
		return pciesw_nl_fill_ep_brief(msg, obj);
	return pciesw_nl_fill_ep(msg, obj, form == PCIESW_NL_FORM_SERIAL);
}

static const struct pciesw_nl_obj pciesw_nl_ep_obj = {
	.cmd = PCIESW_CMD_EP_GET,
	.find = pciesw_nl_find_ep_next,
	.fill = pciesw_nl_fill_ep_dump,
};

int pciesw_nl_ep_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_endpoint *ep = pciesw_nl_find_ep(pciesw_nl_sw(info), info);

	if (IS_ERR(ep))
		return PTR_ERR(ep);
	return pciesw_nl_reply(info, PCIESW_CMD_EP_GET,
			       nla_get_flag(info->attrs[PCIESW_A_EP_BRIEF]) ?
			       pciesw_nl_fill_ep_brief :
			       netlink_capable(skb, CAP_SYS_ADMIN) ?
			       pciesw_nl_fill_ep_serial :
			       pciesw_nl_fill_ep_any, ep);
}

/* ep-brief is read in every round, as counter-packed is (counter-get) */
int pciesw_nl_ep_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = pciesw_dump_attrs(cb);
	bool brief = attrs && nla_get_flag(attrs[PCIESW_A_EP_BRIEF]);

	return pciesw_nl_dumpit(&pciesw_nl_ep_obj,
				brief ? PCIESW_NL_FORM_BRIEF :
				pciesw_nl_form_serial(cb->skb), skb, cb);
}

/* The IDs ep-add asks for: each one given, the type's for the others. */
static void pciesw_nl_ep_ident(u32 type, struct nlattr **tb,
			       struct pciesw_ep_ident *ident)
{
	*ident = pciesw_ep_type(type)->ident;
	if (tb[PCIESW_A_EP_VENDOR])
		ident->vendor = nla_get_u32(tb[PCIESW_A_EP_VENDOR]);
	if (tb[PCIESW_A_EP_DEVICE])
		ident->device = nla_get_u32(tb[PCIESW_A_EP_DEVICE]);
	if (tb[PCIESW_A_EP_SUBSYSTEM_VENDOR])
		ident->subsys_vendor =
			nla_get_u32(tb[PCIESW_A_EP_SUBSYSTEM_VENDOR]);
	if (tb[PCIESW_A_EP_SUBSYSTEM_DEVICE])
		ident->subsys_device =
			nla_get_u32(tb[PCIESW_A_EP_SUBSYSTEM_DEVICE]);
	if (tb[PCIESW_A_EP_REVISION])
		ident->revision = nla_get_u32(tb[PCIESW_A_EP_REVISION]);
	if (tb[PCIESW_A_EP_CLASS])
		ident->class_code = nla_get_u32(tb[PCIESW_A_EP_CLASS]);
}

int pciesw_nl_ep_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	/* the attribute each argument pciesw_ep_check() refuses came from */
	static const int arg_attr[] = {
		[PCIESW_EP_ARG_PORT] = PCIESW_A_PORT_ID,
		[PCIESW_EP_ARG_TYPE] = PCIESW_A_EP_TYPE,
		[PCIESW_EP_ARG_SPEED] = PCIESW_A_EP_MAX_SPEED,
		[PCIESW_EP_ARG_WIDTH] = PCIESW_A_EP_MAX_WIDTH,
		[PCIESW_EP_ARG_MEM_SIZE] = PCIESW_A_EP_MEM_SIZE,
		[PCIESW_EP_ARG_VENDOR] = PCIESW_A_EP_VENDOR,
		[PCIESW_EP_ARG_DEVICE] = PCIESW_A_EP_DEVICE,
		[PCIESW_EP_ARG_CLASS] = PCIESW_A_EP_CLASS,
	};
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct nlattr **tb = info->attrs;
	struct pciesw_ep_ident ident;
	enum pciesw_link_speed speed;
	struct pciesw_endpoint *ep;
	struct pciesw_port *port;
	enum pciesw_ep_arg bad;
	const char *why = NULL;
	u32 type, width, block_size, id;
	u64 mem_size, serial;
	int err;

	port = pciesw_nl_find_port(sw, info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_EP_TYPE))
		return -EINVAL;
	type = nla_get_u32(tb[PCIESW_A_EP_TYPE]);
	speed = tb[PCIESW_A_EP_MAX_SPEED] ?
		nla_get_u32(tb[PCIESW_A_EP_MAX_SPEED]) : 0;
	width = tb[PCIESW_A_EP_MAX_WIDTH] ?
		nla_get_u32(tb[PCIESW_A_EP_MAX_WIDTH]) : 0;
	mem_size = tb[PCIESW_A_EP_MEM_SIZE] ?
		   nla_get_u64(tb[PCIESW_A_EP_MEM_SIZE]) : 0;
	block_size = tb[PCIESW_A_EP_BLOCK_SIZE] ?
		     nla_get_u32(tb[PCIESW_A_EP_BLOCK_SIZE]) : 0;
	err = pciesw_ep_check(port, type, speed, width, mem_size, &bad, &why);
	if (err) {
		pciesw_nl_err(info->extack, tb[arg_attr[bad]], why);
		return err;
	}
	err = pciesw_ep_check_block_size(type, block_size, &why);
	if (err) {
		pciesw_nl_err(info->extack, tb[PCIESW_A_EP_BLOCK_SIZE], why);
		return err;
	}
	pciesw_nl_ep_ident(type, tb, &ident);
	err = pciesw_ep_check_ident(&ident, &bad, &why);
	if (err) {
		pciesw_nl_err(info->extack, tb[arg_attr[bad]], why);
		return err;
	}
	ep = pciesw_ep_add(port, type, speed, width, mem_size, block_size,
			   &ident, &why);
	if (IS_ERR(ep)) {
		pciesw_nl_err(info->extack, tb[PCIESW_A_PORT_ID], why);
		return PTR_ERR(ep);
	}
	/*
	 * Its device is added from the event queue, which unplugs it again
	 * if that fails: wait for it (post_doit unlocks).
	 */
	id = ep->id;
	serial = ep->serial;
	mutex_unlock(&sw->lock);
	pciesw_switch_sync(sw);
	mutex_lock(&sw->lock);
	ep = pciesw_ep_find(sw, id);
	if (!ep || ep->serial != serial) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PCIESW_A_PORT_ID],
				    "the endpoint's device could not be added (out of memory)");
		return -ENOMEM;
	}
	return pciesw_nl_reply(info, PCIESW_CMD_EP_ADD, pciesw_nl_fill_ep_any,
			       ep);
}

int pciesw_nl_ep_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_endpoint *ep = pciesw_nl_find_ep(pciesw_nl_sw(info), info);

	if (IS_ERR(ep))
		return PTR_ERR(ep);
	pciesw_ep_del(ep);
	return 0;
}
