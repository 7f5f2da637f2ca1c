/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/pciesw.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_PCIESW_GEN_H
#define _LINUX_PCIESW_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/pciesw_netlink.h>

/* Ops table for pciesw */
extern const struct genl_split_ops pciesw_nl_ops[35];

int pciesw_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		       struct genl_info *info);
void
pciesw_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		    struct genl_info *info);

int pciesw_nl_switch_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_switch_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);
int pciesw_nl_switch_new_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_switch_del_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_group_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int pciesw_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int pciesw_nl_group_set_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_port_set_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_ep_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_ep_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int pciesw_nl_ep_add_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_ep_del_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_counter_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_counter_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int pciesw_nl_counter_clear_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_threshold_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_threshold_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb);
int pciesw_nl_threshold_set_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_inject_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_thermal_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_thermal_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int pciesw_nl_thermal_set_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_vpd_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_vpd_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int pciesw_nl_vpd_set_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_switch_set_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_p2p_check_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_fw_get_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_fw_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int pciesw_nl_fw_toggle_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_log_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int pciesw_nl_log_clear_doit(struct sk_buff *skb, struct genl_info *info);
int pciesw_nl_nvme_inject_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	PCIESW_NLGRP_MONITOR,
};

#endif /* _LINUX_PCIESW_GEN_H */
