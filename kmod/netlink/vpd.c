// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink: the card's VPD.
 */

#include <linux/slab.h>

#include "netlink/netlink.h"

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

int pciesw_nl_fill_vpd_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_vpd(msg, (struct pciesw_switch *)obj);
}

/*
 * vpd-change-ntf: which switch, not what its VPD says; any listener of
 * the monitor group gets it, the VPD is for CAP_SYS_ADMIN (vpd-get).
 */
int pciesw_nl_fill_vpd_ntf(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_switch *sw = obj;

	return nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ? -EMSGSIZE : 0;
}

static int pciesw_nl_fill_vpd_dump(struct sk_buff *msg,
				   struct pciesw_switch *sw, const void *obj,
				   enum pciesw_nl_form form)
{
	return pciesw_nl_fill_vpd(msg, sw);
}

static const struct pciesw_nl_obj pciesw_nl_vpd_obj = {
	.cmd = PCIESW_CMD_VPD_GET,
	.find = pciesw_nl_find_switch,
	.fill = pciesw_nl_fill_vpd_dump,
};

int pciesw_nl_vpd_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_reply(info, PCIESW_CMD_VPD_GET,
			       pciesw_nl_fill_vpd_any, pciesw_nl_sw(info));
}

/* root-only, as the PCI core's vpd attribute (pciesw_nl_check_perm()) */
int pciesw_nl_vpd_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	int err = pciesw_nl_check_dump_perm(cb, PCIESW_CMD_VPD_GET);

	if (err)
		return err;
	return pciesw_nl_dumpit(&pciesw_nl_vpd_obj, PCIESW_NL_FORM_PLAIN,
				skb, cb);
}

int pciesw_nl_vpd_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
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

