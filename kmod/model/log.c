// SPDX-License-Identifier: GPL-2.0
/*
 * The event log, as a Switchtec card keeps one (log-dump): a ring of the
 * last PCIESW_LOG_SIZE events of the switch, each with its time, the
 * object that changed and what happened to it.  Every event the switch
 * raises while it is published passes through here (event.c), so the log
 * belongs to the model: the views read it (netlink log-get, the devlink
 * health dumps) and toggling a view does not touch it.  A port's link is
 * logged when it comes up, goes down or changes its degraded state, not at
 * every LTSSM step.  Everything but init and release runs with sw->lock
 * held.
 */

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "model/event.h"
#include "model/pciesw.h"

int pciesw_log_init(struct pciesw_switch *sw)
{
	sw->log.ring = kvcalloc(PCIESW_LOG_SIZE, sizeof(*sw->log.ring),
				GFP_KERNEL);
	sw->log.first = 1;
	return sw->log.ring ? 0 : -ENOMEM;
}

void pciesw_log_release(struct pciesw_switch *sw)
{
	kvfree(sw->log.ring);
	sw->log.ring = NULL;
}

/* An entry of @object's, with sw->lock held (the model's own entries too). */
void pciesw_log_add(struct pciesw_switch *sw, const char *object,
		    const char *fmt, ...)
{
	struct pciesw_log *log = &sw->log;
	struct pciesw_log_entry *e;
	va_list args;

	lockdep_assert_held(&sw->lock);
	e = &log->ring[log->last % PCIESW_LOG_SIZE];
	e->seq = ++log->last;
	e->time_ns = ktime_get_real_ns();
	strscpy(e->object, object, sizeof(e->object));
	va_start(args, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, args);
	va_end(args);
	if (log->last - log->first >= PCIESW_LOG_SIZE)
		log->first = log->last - PCIESW_LOG_SIZE + 1;
}

static void pciesw_log_port(struct pciesw_switch *sw,
			    const struct pciesw_port *port)
{
	struct pciesw_log *log = &sw->log;
	const struct pciesw_link *link = &port->link;
	bool up = pciesw_link_active(port);
	char obj[PCIESW_LOG_OBJECT_LEN];

	if (port->id >= PCIESW_MAX_PORTS)
		return;
	snprintf(obj, sizeof(obj), "port%u", port->id);
	if (up && (!test_bit(port->id, log->up) ||
		   test_bit(port->id, log->degraded) != link->degraded)) {
		pciesw_log_add(sw, obj, "link up gen%u x%u%s", link->speed,
			       link->width, link->degraded ? " degraded" : "");
	} else if (!up && test_bit(port->id, log->up) &&
		   link->ltssm != PCIESW_LTSSM_RECOVERY) {
		pciesw_log_add(sw, obj, "link down (%s)",
			       pciesw_ltssm_name(link->ltssm));
	} else {
		return;
	}
	assign_bit(port->id, log->up, up);
	assign_bit(port->id, log->degraded, up && link->degraded);
}

static void pciesw_log_fw(struct pciesw_switch *sw)
{
	const struct pciesw_fw *fw = &sw->fw;
	const struct pciesw_fw_part *run = &fw->parts[fw->running];
	const struct pciesw_fw_part *other = &fw->parts[!fw->running];
	char ver[PCIESW_FW_VERSION_LEN], over[PCIESW_FW_VERSION_LEN];
	char name = pciesw_fw_part_name(fw->running);
	char oname = pciesw_fw_part_name(!fw->running);

	pciesw_fw_version_str(run->version, ver, sizeof(ver));
	pciesw_fw_version_str(other->version, over, sizeof(over));
	if (fw->boots != sw->log.fw_boots) {
		sw->log.fw_boots = fw->boots;
		if (other->state == PCIESW_FW_STATE_VALID)
			pciesw_log_add(sw, "fw", "booted %s from partition %c",
				       ver, name);
		else
			pciesw_log_add(sw, "fw",
				       "booted %s from partition %c: partition %c holds no valid image, fell back",
				       ver, name, oname);
	} else if (fw->flashing) {
		pciesw_fw_version_str(fw->image.version, over, sizeof(over));
		pciesw_log_add(sw, "fw", "erased partition %c, writing %s",
			       oname, over);
	} else if (other->state == PCIESW_FW_STATE_VALID) {
		pciesw_log_add(sw, "fw",
			       "partition %c holds %s, booted by the next activation",
			       oname, over);
	} else {
		pciesw_log_add(sw, "fw",
			       "partition %c invalid: write cut short after %u bytes",
			       oname, other->len);
	}
}

/*
 * Software reset @ep's PCI function (Function Level Reset through its
 * Device Control): the PCI view resets its config space, the log says so.
 */
void pciesw_log_ep_flr(struct pciesw_endpoint *ep)
{
	pciesw_log_add(ep->sw, ep->name, "function level reset");
}

/* What a SMART / health asynchronous event of an NVMe drive says */
static const char *pciesw_nvme_aen_name(u32 aen)
{
	switch (aen >> 8 & 0xff) {
	case 1:
		return "temperature threshold";
	case 2:
		return "spare below threshold";
	}
	return "reliability degraded";
}

/* A fault was injected into an NVMe drive: which, and with what. */
static void pciesw_log_nvme_fault(struct pciesw_switch *sw,
				  const struct pciesw_event *ev)
{
	const struct pciesw_nvme_injection *f = &ev->nvme_fault;
	const char *obj = ev->ep->name;

	switch (f->type) {
	case PCIESW_NVME_FAULT_MEDIA_ERROR:
		pciesw_log_add(sw, obj,
			       "media error injected: %u blocks from lba %llu",
			       f->count, f->lba);
		break;
	case PCIESW_NVME_FAULT_TEMP:
		if (f->temp_clear)
			pciesw_log_add(sw, obj,
				       "composite temperature override cleared");
		else
			pciesw_log_add(sw, obj,
				       "composite temperature forced to %d mC",
				       f->temp);
		break;
	case PCIESW_NVME_FAULT_SPARE:
		pciesw_log_add(sw, obj, "available spare set to %u%%",
			       f->spare);
		break;
	case PCIESW_NVME_FAULT_READ_ONLY:
		pciesw_log_add(sw, obj, "media %s", f->read_only ?
			       "read-only" : "writable again");
		break;
	case PCIESW_NVME_FAULT_SELF_TEST_FAIL:
		pciesw_log_add(sw, obj, "next device self-test fails");
		break;
	}
}

/* Called by pciesw_event() for every event of a published switch. */
void pciesw_log_event(const struct pciesw_event *ev)
{
	struct pciesw_switch *sw = ev->sw;
	char obj[PCIESW_LOG_OBJECT_LEN], cfg[16];

	lockdep_assert_held(&sw->lock);
	switch (ev->type) {
	case PCIESW_EV_SWITCH_CREATE:
		/* no serial: anyone may read the log (log-get, devlink) */
		pciesw_log_add(sw, "switch", "created (%s)",
			       sw->profile->name);
		break;
	case PCIESW_EV_SWITCH_DELETE:
		pciesw_log_add(sw, "switch", "removed");
		break;
	case PCIESW_EV_GROUP_CHANGE:
		snprintf(obj, sizeof(obj), "group %s", ev->group->desc->name);
		pciesw_group_config_name(ev->group->desc, ev->group->config,
					 cfg, sizeof(cfg));
		pciesw_log_add(sw, obj, "bifurcated %s", cfg);
		break;
	case PCIESW_EV_PORT_CHANGE:
		pciesw_log_port(sw, ev->port);
		break;
	case PCIESW_EV_EP_ADD:
		pciesw_log_add(sw, ev->ep->name, "attached to port%u",
			       ev->port_id);
		break;
	case PCIESW_EV_EP_DEL:
		pciesw_log_add(sw, ev->ep->name, "detached from port%u",
			       ev->port_id);
		break;
	case PCIESW_EV_VPD_CHANGE:
		pciesw_log_add(sw, "vpd", "changed");
		break;
	case PCIESW_EV_THRESHOLD:
		if (ev->port_id == PCIESW_EV_NO_PORT)
			strscpy(obj, "switch", sizeof(obj));
		else
			snprintf(obj, sizeof(obj), "port%u", ev->port_id);
		pciesw_log_add(sw, obj, "%s reached %llu (threshold %llu)",
			       pciesw_counter_name(ev->counter), ev->value,
			       ev->threshold);
		break;
	case PCIESW_EV_THERMAL_ALARM:
		snprintf(obj, sizeof(obj), "sensor%u", ev->sensor);
		pciesw_log_add(sw, obj, "%s alarm %s at %d mC",
			       ev->level == PCIESW_ALARM_CRITICAL ? "critical" :
								    "warning",
			       ev->active ? "raised" : "cleared", ev->temp);
		break;
	case PCIESW_EV_SWITCH_CHANGE:
		pciesw_log_add(sw, "switch", "settings changed");
		break;
	case PCIESW_EV_FW_CHANGE:
		pciesw_log_fw(sw);
		break;
	case PCIESW_EV_PORTS_REMOVE:
	case PCIESW_EV_PORTS_ADD:
		/* the group change says it */
		break;
	case PCIESW_EV_LINK_TRAINING:
		/* a step of the LTSSM: the port change after it says it */
		break;
	case PCIESW_EV_PORT_ERRORS:
		/* the counters say it, the PCI view sends the messages */
		break;
	case PCIESW_EV_EP_FUNCTION:
		/* the PCI core logs the function it adds */
		break;
	case PCIESW_EV_EP_ERRORS:
		pciesw_log_add(sw, ev->ep->name, "%s injected (%llu)",
			       pciesw_ep_aer_error_name(ev->ep_aer), ev->value);
		break;
	case PCIESW_EV_EP_CHANGE:
		pciesw_log_add(sw, ev->ep->name, "bus master %s",
			       ev->ep->bus_master_off ? "disabled" : "enabled");
		break;
	case PCIESW_EV_NVME_FAULT:
		pciesw_log_nvme_fault(sw, ev);
		break;
	case PCIESW_EV_NVME_AEN:
		pciesw_log_add(sw, ev->ep->name,
			       "asynchronous event: SMART/health %s (NVME_AEN=%#08x)",
			       pciesw_nvme_aen_name(ev->aen), ev->aen);
		break;
	case PCIESW_EV_NVME_FORMAT:
		pciesw_log_add(sw, ev->ep->name,
			       "formatted: %u-byte logical blocks, %s",
			       ev->block_size, ev->ses ? "user data erased" :
			       "blocks deallocated");
		break;
	}
}

/*
 * The oldest entry kept whose seq is at least *@seq (then set to it), or
 * NULL when there is none.
 */
const struct pciesw_log_entry *pciesw_log_find(struct pciesw_switch *sw,
					       u64 *seq)
{
	struct pciesw_log *log = &sw->log;

	lockdep_assert_held(&sw->lock);
	if (*seq < log->first)
		*seq = log->first;
	if (*seq > log->last)
		return NULL;
	return &log->ring[(*seq - 1) % PCIESW_LOG_SIZE];
}

void pciesw_log_clear(struct pciesw_switch *sw)
{
	lockdep_assert_held(&sw->lock);
	sw->log.first = sw->log.last + 1;
}
