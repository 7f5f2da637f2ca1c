// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink notifications: model events to the monitor multicast
 * group, as a view of the per-switch event queue (model/event.c).
 */

#include "netlink/netlink.h"

/*
 * With sw->lock held (the view's snapshot, see model/event.c): the notification
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
	case PCIESW_EV_EP_CHANGE:
	case PCIESW_EV_NVME_FORMAT:
		/* a format changes the drive's block size */
		return pciesw_nl_notify(PCIESW_CMD_EP_CHANGE_NTF,
					pciesw_nl_fill_ep_any, ev->ep);
	case PCIESW_EV_VPD_CHANGE:
		return pciesw_nl_notify(PCIESW_CMD_VPD_CHANGE_NTF,
					pciesw_nl_fill_vpd_ntf, ev->sw);
	case PCIESW_EV_THRESHOLD:
		return pciesw_nl_notify_threshold(ev);
	case PCIESW_EV_THERMAL_ALARM:
		return pciesw_nl_notify(PCIESW_CMD_THERMAL_ALARM_NTF,
					pciesw_nl_fill_alarm_any, ev);
	case PCIESW_EV_SWITCH_CHANGE:
		return pciesw_nl_notify(PCIESW_CMD_SWITCH_CHANGE_NTF,
					pciesw_nl_fill_switch_any, ev->sw);
	case PCIESW_EV_FW_CHANGE:
		return pciesw_nl_notify(PCIESW_CMD_FW_CHANGE_NTF,
					pciesw_nl_fill_fw_any, ev->sw);
	case PCIESW_EV_PORTS_REMOVE:
	case PCIESW_EV_PORTS_ADD:
		/* the group change that follows says it */
		break;
	case PCIESW_EV_LINK_TRAINING:
		/* config space's Link Training bit; the LTSSM history has it */
		break;
	case PCIESW_EV_PORT_ERRORS:
		/* AER messages of the PCI view; the counters have them */
		break;
	case PCIESW_EV_EP_ERRORS:
		/* AER messages of the PCI view; ep-aer-counts has them */
		break;
	case PCIESW_EV_EP_FUNCTION:
		/* the PCI core's uevent says it */
		break;
	case PCIESW_EV_NVME_FAULT:
		return pciesw_nl_notify(PCIESW_CMD_NVME_FAULT_NTF,
					pciesw_nl_fill_nvme_fault_any, ev);
	case PCIESW_EV_NVME_AEN:
		/* the block view's uevent; nvme-fault-ntf has the warning */
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

const struct pciesw_view pciesw_nl_view = {
	.snapshot = pciesw_nl_snapshot,
	.apply = pciesw_nl_apply,
};
