/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pciesw generic netlink family: what its files share.  The policies,
 * the op table and the handler names are generated from the spec
 * (pciesw_nl.[ch]); the handlers are split by object:
 *   family.c           family, pre/post_doit, dump engine, helpers
 *   topology.c  switches, lane groups, ports, endpoints
 *   health.c    counters, thresholds, fault injection
 *   nvme.c      NVMe drives' health and fault injection
 *   thermal.c   the thermal model
 *   vpd.c       VPD
 *   netlink/p2p.c       p2p-check
 *   fw.c        firmware partitions, event log
 *   notify.c    notifications (the netlink view of model events)
 */
#ifndef _PCIESW_NETLINK_H
#define _PCIESW_NETLINK_H

#include "netlink/pciesw_nl_compat.h"
#include "netlink/pciesw_nl.h"
#include "model/event.h"
#include "model/pciesw.h"

extern struct genl_family pciesw_nl_family;

/*
 * The switch a do request names, resolved and locked by pciesw_nl_pre_doit()
 * (sw->lock held until the post_doit).
 */
static inline struct pciesw_switch *pciesw_nl_sw(struct genl_info *info)
{
	return info->user_ptr[0];
}

void pciesw_nl_err(struct netlink_ext_ack *extack, const struct nlattr *attr,
		   const char *msg);
int pciesw_nl_check_perm(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_check_dump_perm(struct netlink_callback *cb, u8 cmd);
int pciesw_nl_reply(struct genl_info *info, u8 cmd,
		    int (*fill)(struct sk_buff *msg, const void *obj),
		    const void *obj);
struct pciesw_port *pciesw_nl_find_port(struct pciesw_switch *sw,
					struct genl_info *info);
struct pciesw_port *pciesw_nl_find_port_opt(struct pciesw_switch *sw,
					    struct genl_info *info);
struct pciesw_endpoint *pciesw_nl_find_ep_by(struct pciesw_switch *sw,
					     struct genl_info *info,
					     int id_attr, int name_attr,
					     const char *need);
struct pciesw_endpoint *pciesw_nl_find_ep(struct pciesw_switch *sw,
					  struct genl_info *info);

/* Which form of its objects a dump asks for, the same in every round */
enum pciesw_nl_form {
	PCIESW_NL_FORM_PLAIN,
	PCIESW_NL_FORM_SERIAL,	/* with serial numbers: CAP_SYS_ADMIN */
	PCIESW_NL_FORM_BRIEF,	/* ep-brief */
	PCIESW_NL_FORM_PACKED,	/* counter-packed */
};

/*
 * What a dump lists per switch.  @find returns the first object of @sw at
 * or after position *@pos (and sets *@pos to its position), NULL when there
 * is none; positions are ids or indexes, so objects may have holes between
 * them.  @fill puts it in @form, which objects with one form ignore.
 */
struct pciesw_nl_obj {
	u8 cmd;
	const void *(*find)(struct pciesw_switch *sw, unsigned long *pos);
	int (*fill)(struct sk_buff *msg, struct pciesw_switch *sw,
		    const void *obj, enum pciesw_nl_form form);
};

const void *pciesw_nl_find_switch(struct pciesw_switch *sw,
				  unsigned long *pos);
const void *pciesw_nl_find_next_port(struct pciesw_switch *sw,
				     unsigned long *pos);
int pciesw_nl_dumpit(const struct pciesw_nl_obj *obj,
		     enum pciesw_nl_form form, struct sk_buff *skb,
		     struct netlink_callback *cb);
enum pciesw_nl_form pciesw_nl_form_serial(struct sk_buff *skb);

/* Fill functions, also used by the notifications; with sw->lock held */
int pciesw_nl_fill_switch_any(struct sk_buff *msg, const void *obj);
int pciesw_nl_fill_group_any(struct sk_buff *msg, const void *obj);
int pciesw_nl_fill_port_any(struct sk_buff *msg, const void *obj);
int pciesw_nl_fill_ep_any(struct sk_buff *msg, const void *obj);
int pciesw_nl_fill_nvme_io(struct sk_buff *msg,
			   const struct pciesw_endpoint *ep);
int pciesw_nl_fill_nvme(struct sk_buff *msg, const struct pciesw_endpoint *ep,
			bool serial);
int pciesw_nl_fill_nvme_fault_any(struct sk_buff *msg, const void *obj);
int pciesw_nl_fill_vpd_any(struct sk_buff *msg, const void *obj);
int pciesw_nl_fill_fw_any(struct sk_buff *msg, const void *obj);
int pciesw_nl_fill_vpd_ntf(struct sk_buff *msg, const void *obj);

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

int pciesw_nl_fill_threshold_any(struct sk_buff *msg, const void *obj);

/* notify.c */
#define PCIESW_NL_MCGRP_MONITOR	PCIESW_NLGRP_MONITOR
extern const struct pciesw_view pciesw_nl_view;

#endif /* _PCIESW_NETLINK_H */
