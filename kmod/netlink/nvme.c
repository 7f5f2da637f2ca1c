// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink: NVMe drives - their identity and health in ep-get,
 * fault injection (nvme-inject) and its notification (nvme-fault-ntf).
 * The model (nvme/core.c) keeps the state; this file only puts it.
 */

#include <linux/capability.h>

#include "netlink/netlink.h"

/* The drive's I/O counters: in ep-get replies, brief ones too. */
int pciesw_nl_fill_nvme_io(struct sk_buff *msg,
			   const struct pciesw_endpoint *ep)
{
	struct pciesw_nvme_io io;

	lockdep_assert_held(&ep->sw->lock);
	if (!ep->nvme)
		return 0;
	pciesw_nvme_io_counts(ep->nvme, &io);
	if (nla_put_u64_64bit(msg, PCIESW_A_NVME_BYTES_READ, io.bytes_read,
			      PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_BYTES_WRITTEN,
			      io.bytes_written, PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_HOST_READS, io.reads,
			      PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_HOST_WRITES, io.writes,
			      PCIESW_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * The drive's identity and SMART health, for ep-get and notifications;
 * the serial number only with @serial (a request of CAP_SYS_ADMIN, as
 * the switch's: never in a notification).
 */
int pciesw_nl_fill_nvme(struct sk_buff *msg, const struct pciesw_endpoint *ep,
			bool serial)
{
	struct pciesw_nvme_health h;
	char sn[PCIESW_NVME_SN_LEN + 1];
	char fr[PCIESW_NVME_FW_FR_LEN + 1];

	lockdep_assert_held(&ep->sw->lock);
	if (!ep->nvme)
		return 0;
	pciesw_ep_nvme_health(ep, &h);
	pciesw_nvme_firmware(ep->nvme, fr);
	if (serial) {
		pciesw_nvme_serial(ep->nvme, sn);
		if (nla_put_string(msg, PCIESW_A_NVME_SERIAL, sn))
			return -EMSGSIZE;
	}
	if (nla_put_string(msg, PCIESW_A_NVME_MODEL, pciesw_nvme_model()) ||
	    nla_put_string(msg, PCIESW_A_NVME_FIRMWARE, fr) ||
	    nla_put_s32(msg, PCIESW_A_NVME_TEMP, h.temp) ||
	    nla_put_s32(msg, PCIESW_A_NVME_TEMP_OVER, h.temp_over) ||
	    nla_put_s32(msg, PCIESW_A_NVME_TEMP_CRIT, h.temp_crit) ||
	    nla_put_u8(msg, PCIESW_A_NVME_SPARE, h.spare) ||
	    nla_put_u8(msg, PCIESW_A_NVME_SPARE_THRESHOLD, h.spare_thresh) ||
	    nla_put_u8(msg, PCIESW_A_NVME_PERCENT_USED, h.percent_used) ||
	    nla_put_u8(msg, PCIESW_A_NVME_CRITICAL_WARNING,
		       h.critical_warning) ||
	    nla_put_u8(msg, PCIESW_A_NVME_READ_ONLY, h.read_only) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_MEDIA_ERRORS, h.media_errors,
			      PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_UNSAFE_SHUTDOWNS,
			      h.unsafe_shutdowns, PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_DATA_UNITS_READ,
			      h.data_units_read, PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_DATA_UNITS_WRITTEN,
			      h.data_units_written, PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_POWER_CYCLES, h.power_cycles,
			      PCIESW_A_PAD) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_ERROR_ENTRIES,
			      h.error_entries, PCIESW_A_PAD))
		return -EMSGSIZE;
	return pciesw_nl_fill_nvme_io(msg, ep);
}

/* nvme-fault-ntf: with sw->lock held, as the fault is injected. */
int pciesw_nl_fill_nvme_fault_any(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_event *ev = obj;
	const struct pciesw_nvme_injection *f = &ev->nvme_fault;
	struct pciesw_nvme_health h;
	int err = 0;

	pciesw_ep_nvme_health(ev->ep, &h);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, ev->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_EP_ID, ev->ep->id) ||
	    nla_put_string(msg, PCIESW_A_EP_NAME, ev->ep->name) ||
	    nla_put_u32(msg, PCIESW_A_NVME_FAULT, f->type) ||
	    nla_put_u8(msg, PCIESW_A_NVME_CRITICAL_WARNING,
		       h.critical_warning) ||
	    nla_put_u64_64bit(msg, PCIESW_A_NVME_MEDIA_ERRORS, h.media_errors,
			      PCIESW_A_PAD))
		return -EMSGSIZE;
	switch (f->type) {
	case PCIESW_NVME_FAULT_MEDIA_ERROR:
		err = nla_put_u64_64bit(msg, PCIESW_A_NVME_LBA, f->lba,
					PCIESW_A_PAD) ?:
		      nla_put_u32(msg, PCIESW_A_NVME_COUNT, f->count);
		break;
	case PCIESW_NVME_FAULT_TEMP:
		/* the temperature it has now, forced or modelled again */
		err = nla_put_s32(msg, PCIESW_A_NVME_TEMP, h.temp);
		break;
	case PCIESW_NVME_FAULT_SPARE:
		err = nla_put_u8(msg, PCIESW_A_NVME_SPARE, h.spare);
		break;
	case PCIESW_NVME_FAULT_READ_ONLY:
		err = nla_put_u8(msg, PCIESW_A_NVME_READ_ONLY, h.read_only);
		break;
	}
	return err ? -EMSGSIZE : 0;
}

int pciesw_nl_nvme_inject_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct nlattr **tb = info->attrs;
	struct pciesw_nvme_injection f = { .count = 1 };
	struct pciesw_endpoint *ep;
	struct nlattr *need = NULL;
	const char *why = NULL;
	int err;

	ep = pciesw_nl_find_ep(sw, info);
	if (IS_ERR(ep))
		return PTR_ERR(ep);
	if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_NVME_FAULT))
		return -EINVAL;
	f.type = nla_get_u32(tb[PCIESW_A_NVME_FAULT]);
	switch (f.type) {
	case PCIESW_NVME_FAULT_MEDIA_ERROR:
		if (tb[PCIESW_A_NVME_LBA])
			f.lba = nla_get_u64(tb[PCIESW_A_NVME_LBA]);
		if (tb[PCIESW_A_NVME_COUNT])
			f.count = nla_get_u32(tb[PCIESW_A_NVME_COUNT]);
		need = tb[PCIESW_A_NVME_LBA];
		break;
	case PCIESW_NVME_FAULT_TEMP:
		f.temp_clear = !!tb[PCIESW_A_NVME_TEMP_CLEAR];
		if (!f.temp_clear &&
		    GENL_REQ_ATTR_CHECK(info, PCIESW_A_NVME_TEMP))
			return -EINVAL;
		if (!f.temp_clear)
			f.temp = nla_get_s32(tb[PCIESW_A_NVME_TEMP]);
		need = tb[PCIESW_A_NVME_TEMP];
		break;
	case PCIESW_NVME_FAULT_SPARE:
		if (GENL_REQ_ATTR_CHECK(info, PCIESW_A_NVME_SPARE))
			return -EINVAL;
		f.spare = nla_get_u8(tb[PCIESW_A_NVME_SPARE]);
		need = tb[PCIESW_A_NVME_SPARE];
		break;
	case PCIESW_NVME_FAULT_READ_ONLY:
		f.read_only = !tb[PCIESW_A_NVME_READ_ONLY] ||
			      nla_get_u8(tb[PCIESW_A_NVME_READ_ONLY]);
		break;
	}
	err = pciesw_nvme_inject(ep, &f, &why);
	if (err)
		pciesw_nl_err(info->extack,
			      ep->nvme ? need : tb[PCIESW_A_EP_ID] ?:
			      tb[PCIESW_A_EP_NAME], why);
	return err;
}
