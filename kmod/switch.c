// SPDX-License-Identifier: GPL-2.0
/*
 * The switch model: a card built from a profile, its lane groups and ports,
 * the registry of published switches and the event chain the views listen on.
 */

#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "pciesw.h"

/*
 * Published switches by id.  The xarray's own lock protects it; a switch in
 * it holds one reference that is dropped only after it has been erased, so a
 * lookup that takes its reference under xa_lock() never sees a freed switch.
 */
static DEFINE_XARRAY(pciesw_switches);

/* Views subscribe here; the chain's rwsem protects the list of sinks. */
static BLOCKING_NOTIFIER_HEAD(pciesw_events);

int pciesw_event_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&pciesw_events, nb);
}

void pciesw_event_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&pciesw_events, nb);
}

/*
 * Tell the views what changed.  Called with sw->lock held so that events
 * leave in the order the changes happened; sinks must not take it.
 */
static void pciesw_event(struct pciesw_switch *sw, enum pciesw_event_type type)
{
	struct pciesw_event ev = { .type = type, .sw = sw };

	lockdep_assert_held(&sw->lock);
	blocking_notifier_call_chain(&pciesw_events, type, &ev);
}

void pciesw_group_config_name(const struct pciesw_group_desc *desc,
			      unsigned int config, char *buf, size_t len)
{
	const struct pciesw_bifurcation *b = &desc->configs[config];

	snprintf(buf, len, "%ux%u", b->nr_ports, b->width);
}

static enum pciesw_link_speed pciesw_speed_min(enum pciesw_link_speed a,
					       enum pciesw_link_speed b)
{
	return a < b ? a : b;
}

/*
 * Negotiate a port's link with what is on the other end: speed is the
 * lowest of both ends and the target, width the lowest of both ends.
 */
static void pciesw_link_train(struct pciesw_port *port)
{
	struct pciesw_link *link = &port->link;

	if (link->partner_speed == PCIESW_LINK_SPEED_NONE) {
		link->ltssm = PCIESW_LTSSM_DETECT;
		link->speed = PCIESW_LINK_SPEED_NONE;
		link->width = 0;
		link->degraded = false;
		return;
	}
	link->ltssm = PCIESW_LTSSM_L0;
	link->speed = pciesw_speed_min(pciesw_speed_min(port->max_speed,
							link->partner_speed),
				       link->target_speed);
	link->width = min(port->nr_lanes, link->partner_width);
	link->degraded = false;
}

/* Lay out the ports of group @g in its current bifurcation. */
static void pciesw_group_build_ports(struct pciesw_switch *sw,
				     struct pciesw_group *g)
{
	const struct pciesw_profile *prof = sw->profile;
	const struct pciesw_bifurcation *b = &g->desc->configs[g->config];
	unsigned int i;

	g->first_port = sw->nr_ports;
	g->nr_ports = b->nr_ports;
	for (i = 0; i < b->nr_ports; i++) {
		struct pciesw_port *port = &sw->ports[sw->nr_ports++];

		memset(port, 0, sizeof(*port));
		port->group = g;
		port->id = g->first_port + i;
		port->first_lane = g->desc->first_lane + i * b->width;
		port->nr_lanes = b->width;
		port->max_speed = prof->max_speed;
		port->link.target_speed = prof->max_speed;
		if (g->desc->type == PCIESW_GROUP_TYPE_HOST) {
			port->role = PCIESW_PORT_ROLE_UPSTREAM;
			port->link.partner_speed = prof->host_speed;
			port->link.partner_width = prof->host_width;
		} else {
			port->role = PCIESW_PORT_ROLE_DOWNSTREAM;
		}
		pciesw_link_train(port);
	}
}

struct pciesw_switch *pciesw_switch_create(u32 id,
					   const struct pciesw_profile *profile)
{
	struct pciesw_switch *sw;
	unsigned int g;

	sw = kzalloc(sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return NULL;

	sw->id = id;
	sw->profile = profile;
	snprintf(sw->name, sizeof(sw->name), "pciesw%u", id);
	/* 7919 is prime to 900000: distinct ids give distinct serials */
	snprintf(sw->serial, sizeof(sw->serial), "%s%06u",
		 profile->serial_prefix, 100000 + (id * 7919) % 900000);
	kref_init(&sw->refs);
	mutex_init(&sw->lock);

	sw->nr_groups = profile->nr_groups;
	for (g = 0; g < sw->nr_groups; g++) {
		struct pciesw_group *grp = &sw->groups[g];

		grp->sw = sw;
		grp->desc = &profile->groups[g];
		grp->id = g;
		grp->config = grp->desc->default_config;
		pciesw_group_build_ports(sw, grp);
	}
	return sw;
}

static void pciesw_switch_release(struct kref *kref)
{
	struct pciesw_switch *sw = container_of(kref, struct pciesw_switch,
						refs);

	mutex_destroy(&sw->lock);
	kfree(sw);
}

void pciesw_switch_put(struct pciesw_switch *sw)
{
	kref_put(&sw->refs, pciesw_switch_release);
}

/* Make @sw visible to lookups; the registry takes its own reference. */
int pciesw_switch_publish(struct pciesw_switch *sw)
{
	int err;

	kref_get(&sw->refs);
	err = xa_insert(&pciesw_switches, sw->id, sw, GFP_KERNEL);
	if (err) {
		pciesw_switch_put(sw);
		return err;
	}
	mutex_lock(&sw->lock);
	pciesw_event(sw, PCIESW_EV_SWITCH_CREATE);
	mutex_unlock(&sw->lock);
	return 0;
}

/* Hide @sw from lookups; holders of references see it dead. */
void pciesw_switch_unpublish(struct pciesw_switch *sw)
{
	xa_erase(&pciesw_switches, sw->id);
	mutex_lock(&sw->lock);
	sw->dead = true;
	pciesw_event(sw, PCIESW_EV_SWITCH_DELETE);
	mutex_unlock(&sw->lock);
	pciesw_switch_put(sw);
}

struct pciesw_switch *pciesw_switch_get(u32 id)
{
	struct pciesw_switch *sw;

	xa_lock(&pciesw_switches);
	sw = xa_load(&pciesw_switches, id);
	if (sw)
		kref_get(&sw->refs);
	xa_unlock(&pciesw_switches);
	return sw;
}

/* The published switch with the lowest id >= *@id, for dumps. */
struct pciesw_switch *pciesw_switch_get_next(u32 *id)
{
	unsigned long index = *id;
	struct pciesw_switch *sw;

	xa_lock(&pciesw_switches);
	sw = xa_find(&pciesw_switches, &index, PCIESW_MAX_SWITCH_ID,
		     XA_PRESENT);
	if (sw) {
		kref_get(&sw->refs);
		*id = index;
	}
	xa_unlock(&pciesw_switches);
	return sw;
}

unsigned int pciesw_switch_nr_endpoints(struct pciesw_switch *sw)
{
	unsigned int i, n = 0;

	lockdep_assert_held(&sw->lock);
	for (i = 0; i < sw->nr_ports; i++)
		if (sw->ports[i].role == PCIESW_PORT_ROLE_DOWNSTREAM &&
		    sw->ports[i].link.partner_speed != PCIESW_LINK_SPEED_NONE)
			n++;
	return n;
}
