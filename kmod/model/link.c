// SPDX-License-Identifier: GPL-2.0
/*
 * Links: the LTSSM of each port, speed and width negotiation, lane faults.
 *
 * Training takes modeled time: every LTSSM step is due PCIESW_LTSSM_STEP_NS
 * after the previous one, and one delayed work per switch runs the steps
 * that are due, so software sees Detect, Polling, Configuration and L0 go by
 * as on hardware.  Everything here runs with sw->lock held.
 */

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>

#include "model/event.h"
#include "model/pciesw.h"
#include "nvme/nvme.h"

#define PCIESW_LTSSM_STEP_NS	(2 * NSEC_PER_MSEC)

static const char * const pciesw_ltssm_names[] = {
	[PCIESW_LTSSM_DETECT] = "detect",
	[PCIESW_LTSSM_POLLING] = "polling",
	[PCIESW_LTSSM_CONFIGURATION] = "configuration",
	[PCIESW_LTSSM_L0] = "l0",
	[PCIESW_LTSSM_RECOVERY] = "recovery",
	[PCIESW_LTSSM_L1] = "l1",
	[PCIESW_LTSSM_DISABLED] = "disabled",
	[PCIESW_LTSSM_HOT_RESET] = "hot-reset",
};

const char *pciesw_ltssm_name(enum pciesw_ltssm state)
{
	if (state < ARRAY_SIZE(pciesw_ltssm_names) && pciesw_ltssm_names[state])
		return pciesw_ltssm_names[state];
	return "unknown";
}

bool pciesw_link_active(const struct pciesw_port *port)
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

static struct pciesw_switch *port_sw(const struct pciesw_port *port)
{
	return port->group->sw;
}

static void pciesw_port_changed(struct pciesw_port *port)
{
	struct pciesw_event ev = {
		.type = PCIESW_EV_PORT_CHANGE,
		.sw = port_sw(port),
		.port = port,
	};

	pciesw_event(&ev);
}

/* Link Status' Link Training: the LTSSM is in Configuration or Recovery. */
static bool pciesw_ltssm_training(enum pciesw_ltssm s)
{
	return s == PCIESW_LTSSM_CONFIGURATION || s == PCIESW_LTSSM_RECOVERY;
}

/* Software holds the link in Disabled: Link Disable, or DPC containment. */
bool pciesw_link_held(const struct pciesw_port *port)
{
	return !port->link.enabled || port->link.contained;
}

bool pciesw_link_training(const struct pciesw_port *port)
{
	return pciesw_ltssm_training(port->link.ltssm);
}

static void pciesw_link_set_state(struct pciesw_port *port,
				  enum pciesw_ltssm to)
{
	struct pciesw_link *link = &port->link;
	unsigned int slot = link->history_next % PCIESW_LTSSM_HISTORY;
	struct pciesw_event ev = {
		.type = PCIESW_EV_LINK_TRAINING,
		.sw = port_sw(port),
		.port = port,
	};
	bool training = pciesw_ltssm_training(link->ltssm);
	bool was_up = pciesw_link_active(port);

	if (link->ltssm == to)
		return;
	BUILD_BUG_ON(PCIESW_LTSSM_MAX > 0xf);
	link->history_ns[slot] = ktime_get_ns();
	link->history_states[slot] = link->ltssm | to << 4;
	link->history_next++;
	link->ltssm = to;
	/* DMA that is copying across it looks again (dma_run.c) */
	if (was_up && !pciesw_link_active(port))
		atomic_inc(&port_sw(port)->link_downs);
	if (training != pciesw_ltssm_training(to))
		pciesw_event(&ev);
}

unsigned int pciesw_link_history(const struct pciesw_port *port,
				 struct pciesw_ltssm_transition *out)
{
	const struct pciesw_link *link = &port->link;
	u64 first = 0, i;
	unsigned int n = 0;

	if (link->history_next > PCIESW_LTSSM_HISTORY)
		first = link->history_next - PCIESW_LTSSM_HISTORY;
	for (i = first; i < link->history_next; i++, n++) {
		unsigned int slot = i % PCIESW_LTSSM_HISTORY;
		u8 states = link->history_states[slot];

		out[n].time_ns = link->history_ns[slot];
		out[n].from = states & 0xf;
		out[n].to = states >> 4;
	}
	return n;
}

/* What sits at the other end: the host's root port or an endpoint. */
static bool pciesw_link_partner(const struct pciesw_port *port,
				enum pciesw_link_speed *speed, u8 *width)
{
	const struct pciesw_profile *prof = port_sw(port)->profile;

	if (port->role == PCIESW_PORT_ROLE_UPSTREAM) {
		*speed = prof->host_speed;
		*width = prof->host_width;
		return true;
	}
	if (!port->ep || port->power_off)
		return false;
	*speed = port->ep->max_speed;
	*width = port->ep->max_width;
	return true;
}

/*
 * The widest link width both ends support whose lanes are all healthy,
 * counting from lane 0 or, with lane reversal, from the last lane.
 */
static u8 pciesw_link_best_width(const struct pciesw_port *port, u8 most)
{
	u32 failed = port->link.failed_lanes;
	u8 w;

	for (w = 16; w; w >>= 1) {
		u32 low = GENMASK(w - 1, 0);

		if (w > most)
			continue;
		if (!(failed & low) ||
		    !(failed & (low << (port->nr_lanes - w))))
			return w;
	}
	return 0;
}

/* Speed and width as negotiated on entry to L0; false if it cannot train. */
static bool pciesw_link_negotiate(struct pciesw_port *port)
{
	struct pciesw_link *link = &port->link;
	enum pciesw_link_speed pspeed;
	u8 pwidth, most;

	if (!pciesw_link_partner(port, &pspeed, &pwidth))
		return false;
	most = min(port->nr_lanes, pwidth);
	link->width = pciesw_link_best_width(port, most);
	if (!link->width) {
		link->speed = PCIESW_LINK_SPEED_NONE;
		return false;
	}
	link->speed = min3(port->max_speed, pspeed, link->target_speed);
	link->degraded = link->width < most;
	return true;
}

static void pciesw_link_schedule(struct pciesw_port *port)
{
	struct pciesw_switch *sw = port_sw(port);

	port->link.step_at = ktime_get_ns() + PCIESW_LTSSM_STEP_NS;
	queue_delayed_work(system_wq, &sw->link_work,
			   nsecs_to_jiffies(PCIESW_LTSSM_STEP_NS) ?: 1);
}

/* Leave the link layer up state: speed and width are gone. */
static void pciesw_link_down_fields(struct pciesw_link *link)
{
	link->speed = PCIESW_LINK_SPEED_NONE;
	link->width = 0;
	link->degraded = false;
}

static void __pciesw_link_drop(struct pciesw_port *port, enum pciesw_ltssm to)
{
	port->link.goal = PCIESW_LINK_IDLE;
	port->link.step_at = 0;
	pciesw_link_set_state(port, to);
	pciesw_link_down_fields(&port->link);
}

/* Take the link down to @to (Detect or Disabled) now, without training. */
void pciesw_link_drop(struct pciesw_port *port, enum pciesw_ltssm to)
{
	bool was_up = pciesw_link_active(port);

	__pciesw_link_drop(port, to);
	if (was_up)
		pciesw_port_changed(port);
}

/*
 * Begin working towards @goal.  TRAIN starts in Detect; if nothing is there
 * the link stays in Detect.
 */
void pciesw_link_start(struct pciesw_port *port, enum pciesw_link_goal goal)
{
	struct pciesw_link *link = &port->link;
	bool was_up = pciesw_link_active(port);
	enum pciesw_link_speed s;
	u8 w;

	/* links first train when the switch is published (power-on) */
	if (pciesw_link_held(port) || !port_sw(port)->published)
		return;
	link->goal = goal;
	switch (goal) {
	case PCIESW_LINK_RETRAIN:
		pciesw_link_set_state(port, PCIESW_LTSSM_RECOVERY);
		break;
	case PCIESW_LINK_HOT_RESET:
		pciesw_link_set_state(port, PCIESW_LTSSM_HOT_RESET);
		pciesw_link_down_fields(link);
		break;
	default:
		pciesw_link_set_state(port, PCIESW_LTSSM_DETECT);
		pciesw_link_down_fields(link);
		if (!pciesw_link_partner(port, &s, &w)) {
			link->goal = PCIESW_LINK_IDLE;
			link->step_at = 0;
			if (was_up)
				pciesw_port_changed(port);
			return;
		}
		break;
	}
	if (was_up && !pciesw_link_active(port))
		pciesw_port_changed(port);
	pciesw_link_schedule(port);
}

/* One LTSSM step of @port, now that it is due. */
static void pciesw_link_step(struct pciesw_port *port)
{
	struct pciesw_link *link = &port->link;
	enum pciesw_link_speed old_speed = link->speed, s;
	enum pciesw_ltssm from = link->ltssm;
	u8 old_width = link->width, w;

	link->step_at = 0;
	switch (link->ltssm) {
	case PCIESW_LTSSM_HOT_RESET:
		pciesw_link_set_state(port, PCIESW_LTSSM_DETECT);
		link->goal = PCIESW_LINK_TRAIN;
		break;
	case PCIESW_LTSSM_DETECT:
		/* receiver detection: nothing there, nothing to train */
		if (!pciesw_link_partner(port, &s, &w)) {
			link->goal = PCIESW_LINK_IDLE;
			return;
		}
		pciesw_link_set_state(port, PCIESW_LTSSM_POLLING);
		break;
	case PCIESW_LTSSM_POLLING:
		pciesw_link_set_state(port, PCIESW_LTSSM_CONFIGURATION);
		break;
	case PCIESW_LTSSM_CONFIGURATION:
	case PCIESW_LTSSM_RECOVERY:
		if (!pciesw_link_negotiate(port)) {
			/* no usable lanes: back to Detect, and stay there */
			pciesw_link_drop(port, PCIESW_LTSSM_DETECT);
			return;
		}
		pciesw_link_set_state(port, PCIESW_LTSSM_L0);
		link->goal = PCIESW_LINK_IDLE;
		/* link up, or a retrain that changed speed or width */
		if (from != PCIESW_LTSSM_RECOVERY ||
		    link->speed != old_speed || link->width != old_width)
			pciesw_port_changed(port);
		return;
	default:
		link->goal = PCIESW_LINK_IDLE;
		return;
	}
	pciesw_link_schedule(port);
}

void pciesw_link_work(struct work_struct *work)
{
	struct pciesw_switch *sw = container_of(to_delayed_work(work),
						struct pciesw_switch,
						link_work);
	struct pciesw_port *port;
	u64 now;

	mutex_lock(&sw->lock);
	if (sw->dead)
		goto out;
	now = ktime_get_ns();
	pciesw_for_each_port(sw, port)
		if (port->link.step_at && port->link.step_at <= now)
			pciesw_link_step(port);
	/* steps that became due later get another run */
	pciesw_for_each_port(sw, port) {
		if (port->link.step_at) {
			queue_delayed_work(system_wq, &sw->link_work, 1);
			break;
		}
	}
out:
	mutex_unlock(&sw->lock);
}

void pciesw_link_init(struct pciesw_port *port)
{
	struct pciesw_link *link = &port->link;

	memset(link, 0, sizeof(*link));
	link->enabled = true;
	link->ltssm = PCIESW_LTSSM_DETECT;
	link->target_speed = port->max_speed;
}

int pciesw_port_set_enabled(struct pciesw_port *port, bool on,
			    const char **why)
{
	if (port->link.enabled == on)
		return 0;
	port->link.enabled = on;
	if (on)
		pciesw_link_start(port, PCIESW_LINK_TRAIN);
	else
		__pciesw_link_drop(port, PCIESW_LTSSM_DISABLED);
	pciesw_port_changed(port);
	return 0;
}

/*
 * The checks of the port changes below, each the one copy of its rule: a
 * view that applies several changes at once checks them all first, so a
 * refused request leaves the port as it was.
 */

/*
 * Retrain or hot reset: the link must be enabled, as it is now or, with
 * @enabled, as a request that also enables or disables it will leave it.
 */
int pciesw_port_check_retrain(const struct pciesw_port *port,
			      const bool *enabled, const char **why)
{
	if (!(enabled ? *enabled : port->link.enabled)) {
		*why = "link is disabled";
		return -ENETDOWN;
	}
	if (port->link.contained) {
		*why = "link is held by DPC containment until software clears DPC Trigger Status";
		return -ENETDOWN;
	}
	return 0;
}

int pciesw_port_check_target_speed(const struct pciesw_port *port,
				   enum pciesw_link_speed speed,
				   const char **why)
{
	if (speed < PCIESW_LINK_SPEED_GEN1 || speed > port->max_speed) {
		*why = "target speed above what the port supports";
		return -EINVAL;
	}
	return 0;
}

int pciesw_port_check_failed_lanes(const struct pciesw_port *port, u32 mask,
				   const char **why)
{
	if (mask & ~GENMASK(port->nr_lanes - 1, 0)) {
		*why = "lane beyond the width of the port";
		return -EINVAL;
	}
	return 0;
}

int pciesw_port_check_acs(const struct pciesw_port *port, const char **why)
{
	if (port->role != PCIESW_PORT_ROLE_DOWNSTREAM) {
		*why = "ACS redirect exists on downstream ports only";
		return -EINVAL;
	}
	return 0;
}

int pciesw_port_check_surprise_down(const struct pciesw_port *port,
				    const char **why)
{
	if (!pciesw_link_active(port)) {
		*why = "link is not up";
		return -ENOLINK;
	}
	return 0;
}

int pciesw_port_retrain(struct pciesw_port *port, const char **why)
{
	int err = pciesw_port_check_retrain(port, NULL, why);

	if (err)
		return err;
	if (pciesw_link_active(port))
		pciesw_link_start(port, PCIESW_LINK_RETRAIN);
	else
		pciesw_link_start(port, PCIESW_LINK_TRAIN);
	return 0;
}

int pciesw_port_hot_reset(struct pciesw_port *port, const char **why)
{
	int err = pciesw_port_check_retrain(port, NULL, why);

	if (err)
		return err;
	pciesw_link_start(port, PCIESW_LINK_HOT_RESET);
	/* resetting the upstream port resets the switch: new firmware boots */
	if (port->role == PCIESW_PORT_ROLE_UPSTREAM)
		pciesw_fw_reset(port_sw(port));
	/* a drive's controller resets with its link (its new firmware runs) */
	else if (port->ep)
		pciesw_nvme_reset(port->ep);
	return 0;
}

int pciesw_port_set_target_speed(struct pciesw_port *port,
				 enum pciesw_link_speed speed,
				 const char **why)
{
	int err = pciesw_port_check_target_speed(port, speed, why);

	if (err)
		return err;
	if (port->link.target_speed == speed)
		return 0;
	port->link.target_speed = speed;
	pciesw_port_changed(port);
	/* a new target takes effect through Recovery, as on hardware */
	if (pciesw_link_active(port))
		pciesw_link_start(port, PCIESW_LINK_RETRAIN);
	return 0;
}

int pciesw_port_set_failed_lanes(struct pciesw_port *port, u32 mask,
				 const char **why)
{
	int err = pciesw_port_check_failed_lanes(port, mask, why);

	if (err)
		return err;
	if (port->link.failed_lanes == mask)
		return 0;
	port->link.failed_lanes = mask;
	pciesw_port_changed(port);
	/* a lane that dies or comes back makes the link retrain */
	if (pciesw_link_active(port))
		pciesw_link_start(port, PCIESW_LINK_RETRAIN);
	else if (port->link.goal == PCIESW_LINK_IDLE)
		pciesw_link_start(port, PCIESW_LINK_TRAIN);
	return 0;
}

int pciesw_port_set_acs(struct pciesw_port *port, bool on, const char **why)
{
	int err = pciesw_port_check_acs(port, why);

	if (err)
		return err;
	if (port->acs_redirect != on) {
		port->acs_redirect = on;
		pciesw_port_changed(port);
	}
	return 0;
}

/* ACS P2P Egress Control (through the PCI view): @ports, 0 when off. */
int pciesw_port_set_acs_egress(struct pciesw_port *port, u64 ports,
			       const char **why)
{
	int err = pciesw_port_check_acs(port, why);

	if (err)
		return err;
	if (port->acs_egress != ports) {
		port->acs_egress = ports;
		pciesw_port_changed(port);
	}
	return 0;
}

/*
 * The slot's power controller (Slot Control, through the PCI view): off,
 * the device in the slot is unpowered and its link goes down (and stays
 * in Detect); on again, it trains.
 */
int pciesw_port_set_slot_power(struct pciesw_port *port, bool on,
			       const char **why)
{
	if (port->role != PCIESW_PORT_ROLE_DOWNSTREAM) {
		*why = "slot power exists on downstream ports only";
		return -EINVAL;
	}
	if (port->power_off == !on)
		return 0;
	port->power_off = !on;
	if (on && port->ep && port->ep->nvme) {
		pciesw_nvme_power_cycle(port->ep->nvme);
		pciesw_nvme_reset(port->ep);
	}
	if (!on && !pciesw_link_held(port))
		pciesw_link_drop(port, PCIESW_LTSSM_DETECT);
	else if (on)
		pciesw_link_start(port, PCIESW_LINK_TRAIN);
	pciesw_port_changed(port);
	return 0;
}

/*
 * Downstream Port Containment (PCIe 6.2.10), which the PCI view's DPC
 * capability triggers and releases: the link goes to Disabled at once and
 * stays there, whatever else software asks of it, until the release; then
 * it trains from Detect, as after any link-down reset.
 */
int pciesw_port_set_contained(struct pciesw_port *port, bool on,
			      const char **why)
{
	if (port->role != PCIESW_PORT_ROLE_DOWNSTREAM) {
		*why = "DPC exists on downstream ports only";
		return -EINVAL;
	}
	if (port->link.contained == on)
		return 0;
	port->link.contained = on;
	if (on)
		__pciesw_link_drop(port, PCIESW_LTSSM_DISABLED);
	else
		pciesw_link_start(port, PCIESW_LINK_TRAIN);
	pciesw_port_changed(port);
	return 0;
}

/*
 * The link drops without warning, as when a cable is pulled or a device
 * dies; it stays down (Detect) until software retrains or resets it.
 */
int pciesw_port_surprise_down(struct pciesw_port *port, const char **why)
{
	int err = pciesw_port_check_surprise_down(port, why);

	if (err)
		return err;
	port->link.surprise_down++;
	/* a drive that loses its link without a shutdown counts it */
	if (port->ep && port->ep->nvme)
		pciesw_nvme_unsafe_shutdown(port->ep->nvme);
	/* AER: the port that saw its link go down reports Surprise Down */
	pciesw_stats_error(port_sw(port), port->stats,
			   PCIESW_COUNTER_SURPRISE_DOWN, 1);
	pciesw_link_drop(port, PCIESW_LTSSM_DETECT);
	return 0;
}
