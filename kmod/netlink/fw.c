// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink: the firmware partitions (fw-get, fw-toggle) and the
 * event log (log-get, log-clear).  Updating an image is devlink's job
 * (devlink/devlink.c); these show and switch what the model holds.
 */

#include "netlink/netlink.h"

static int pciesw_nl_fill_fw(struct sk_buff *msg, struct pciesw_switch *sw)
{
	const struct pciesw_fw *fw = &sw->fw;
	char ver[PCIESW_FW_VERSION_LEN];
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	pciesw_fw_version_str(pciesw_fw_running_version(sw), ver, sizeof(ver));
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    nla_put_string(msg, PCIESW_A_FW_RUNNING_VERSION, ver) ||
	    nla_put_u32(msg, PCIESW_A_FW_RUNNING_PART, fw->running) ||
	    nla_put_u8(msg, PCIESW_A_FW_PENDING, fw->pending) ||
	    nla_put_u64_64bit(msg, PCIESW_A_FW_BOOTS, fw->boots,
			      PCIESW_A_PAD))
		return -EMSGSIZE;
	for (i = 0; i < PCIESW_FW_PARTS; i++) {
		const struct pciesw_fw_part *p = &fw->parts[i];
		struct nlattr *nest = nla_nest_start(msg, PCIESW_A_FW_PART);

		pciesw_fw_version_str(p->version, ver, sizeof(ver));
		if (!nest ||
		    nla_put_u32(msg, PCIESW_A_FW_PART_ID, i) ||
		    nla_put_u32(msg, PCIESW_A_FW_PART_STATE, p->state) ||
		    (p->state == PCIESW_FW_STATE_VALID &&
		     (nla_put_string(msg, PCIESW_A_FW_PART_VERSION, ver) ||
		      nla_put_u64_64bit(msg, PCIESW_A_FW_PART_BUILD_TIME,
					p->build_time, PCIESW_A_PAD))) ||
		    nla_put_u32(msg, PCIESW_A_FW_PART_LEN, p->len) ||
		    nla_put_u32(msg, PCIESW_A_FW_PART_CRC, p->crc))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

int pciesw_nl_fill_fw_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_fw(msg, (struct pciesw_switch *)obj);
}

static int pciesw_nl_fill_fw_dump(struct sk_buff *msg, struct pciesw_switch *sw,
				  const void *obj, enum pciesw_nl_form form)
{
	return pciesw_nl_fill_fw(msg, sw);
}

static const struct pciesw_nl_obj pciesw_nl_fw_obj = {
	.cmd = PCIESW_CMD_FW_GET,
	.find = pciesw_nl_find_switch,
	.fill = pciesw_nl_fill_fw_dump,
};

int pciesw_nl_fw_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_reply(info, PCIESW_CMD_FW_GET, pciesw_nl_fill_fw_any,
			       pciesw_nl_sw(info));
}

int pciesw_nl_fw_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return pciesw_nl_dumpit(&pciesw_nl_fw_obj, PCIESW_NL_FORM_PLAIN,
				skb, cb);
}

/*
 * A fallback to the running partition still booted the switch: the op
 * succeeds, and its extended ACK carries the warning.
 */
int pciesw_nl_fw_toggle_doit(struct sk_buff *skb, struct genl_info *info)
{
	const char *why = NULL;
	int err;

	err = pciesw_fw_activate(pciesw_nl_sw(info), &why);
	if (err)
		pciesw_nl_err(info->extack, NULL, why);
	return err == -ENOEXEC ? 0 : err;
}

/* pciesw_nl_obj.find of log entries: by seq, from the oldest kept */
static const void *pciesw_nl_find_log(struct pciesw_switch *sw,
				      unsigned long *pos)
{
	const struct pciesw_log_entry *e;
	u64 seq = *pos;

	e = pciesw_log_find(sw, &seq);
	*pos = seq;
	return e;
}

static int pciesw_nl_fill_log(struct sk_buff *msg, struct pciesw_switch *sw,
			      const void *obj, enum pciesw_nl_form form)
{
	const struct pciesw_log_entry *e = obj;

	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    nla_put_u64_64bit(msg, PCIESW_A_LOG_SEQ, e->seq, PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_LOG_TIME, e->time_ns,
			      PCIESW_A_PAD) ||
	    nla_put_string(msg, PCIESW_A_LOG_OBJECT, e->object) ||
	    nla_put_string(msg, PCIESW_A_LOG_MESSAGE, e->message))
		return -EMSGSIZE;
	return 0;
}

static const struct pciesw_nl_obj pciesw_nl_log_obj = {
	.cmd = PCIESW_CMD_LOG_GET,
	.find = pciesw_nl_find_log,
	.fill = pciesw_nl_fill_log,
};

int pciesw_nl_log_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return pciesw_nl_dumpit(&pciesw_nl_log_obj, PCIESW_NL_FORM_PLAIN,
				skb, cb);
}

int pciesw_nl_log_clear_doit(struct sk_buff *skb, struct genl_info *info)
{
	pciesw_log_clear(pciesw_nl_sw(info));
	return 0;
}
