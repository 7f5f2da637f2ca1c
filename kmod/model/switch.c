// SPDX-License-Identifier: GPL-2.0
/*
 * The switch model: a card built from a profile, its lane groups and ports,
 * the registry of published switches.
 */

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "model/event.h"
#include "model/pciesw.h"
#include "model/route.h"

/*
 * Published switches by id.  The xarray's own lock protects it; a switch in
 * it holds one reference that is dropped only after it has been erased, so a
 * lookup that takes its reference under xa_lock() never sees a freed switch.
 */
static DEFINE_XARRAY(pciesw_switches);

static void pciesw_switch_event(struct pciesw_switch *sw,
				enum pciesw_event_type type)
{
	struct pciesw_event ev = { .type = type, .sw = sw };

	pciesw_event(&ev);
}

void pciesw_group_config_name(const struct pciesw_group_desc *desc,
			      unsigned int config, char *buf, size_t len)
{
	const struct pciesw_bifurcation *b = &desc->configs[config];

	snprintf(buf, len, "%ux%u", b->nr_ports, b->width);
}

/*
 * Lay out the ports of group @g in its current configuration, each in the
 * slot its first lane numbers (see profile.c), links untrained.
 */
static void pciesw_group_build_ports(struct pciesw_switch *sw,
				     struct pciesw_group *g)
{
	const struct pciesw_bifurcation *b = &g->desc->configs[g->config];
	unsigned int i;

	g->nr_ports = b->nr_ports;
	for (i = 0; i < b->nr_ports; i++) {
		unsigned int lane = g->desc->first_lane + i * b->width;
		int id = pciesw_profile_port_at(sw->profile, lane);
		struct pciesw_port *port = &sw->ports[id];

		memset(port, 0, sizeof(*port));
		port->group = g;
		port->id = id;
		port->present = true;
		port->first_lane = lane;
		port->nr_lanes = b->width;
		port->stats = &sw->stats[port->first_lane];
		port->max_speed = sw->profile->max_speed;
		port->role = g->desc->type == PCIESW_GROUP_TYPE_HOST ?
			     PCIESW_PORT_ROLE_UPSTREAM :
			     PCIESW_PORT_ROLE_DOWNSTREAM;
		pciesw_link_init(port);
	}
	sw->nr_ports += b->nr_ports;
}

/* Empty the slots of @g's ports: they are no longer present. */
static void pciesw_group_clear_ports(struct pciesw_switch *sw,
				     struct pciesw_group *g)
{
	unsigned int i;

	for (i = 0; i < g->nr_ports; i++) {
		struct pciesw_port *port = pciesw_group_port(g, i);
		unsigned int id = port->id;

		memset(port, 0, sizeof(*port));
		port->id = id;
	}
	sw->nr_ports -= g->nr_ports;
	g->nr_ports = 0;
}

/*
 * The @i-th port of @g in lane order (< g->nr_ports): the one whose first
 * lane is the group's first plus @i widths of its configuration.
 */
struct pciesw_port *pciesw_group_port(struct pciesw_group *g, unsigned int i)
{
	const struct pciesw_bifurcation *b = &g->desc->configs[g->config];
	int id = pciesw_profile_port_at(g->sw->profile,
					g->desc->first_lane + i * b->width);

	lockdep_assert_held(&g->sw->lock);
	return &g->sw->ports[id];
}

/* @ports: the numbers of @g's ports now, and no other. */
static void pciesw_group_ports_mask(struct pciesw_group *g,
				    unsigned long *ports)
{
	unsigned int i;

	bitmap_zero(ports, PCIESW_MAX_PORTS);
	for (i = 0; i < g->nr_ports; i++)
		__set_bit(pciesw_group_port(g, i)->id, ports);
}

/* The endpoint type a group's connector takes by default. */
static enum pciesw_ep_type pciesw_group_ep_type(const struct pciesw_group *g)
{
	return g->desc->type == PCIESW_GROUP_TYPE_GPU ? PCIESW_EP_TYPE_GPU :
							PCIESW_EP_TYPE_NVME;
}

/* DMA in flight whose route crosses a port of @g? */
static bool pciesw_group_busy(const struct pciesw_group *g)
{
	return pciesw_dma_group_busy(g->sw, g->id);
}

int pciesw_group_find_config(const struct pciesw_group *g, const char *name)
{
	char buf[16];
	unsigned int c;

	for (c = 0; c < g->desc->nr_configs; c++) {
		pciesw_group_config_name(g->desc, c, buf, sizeof(buf));
		if (!strcmp(buf, name))
			return c;
	}
	return -EINVAL;
}

struct pciesw_group *pciesw_group_find(struct pciesw_switch *sw,
				       const char *name)
{
	unsigned int g;

	for (g = 0; g < sw->nr_groups; g++)
		if (!strcmp(sw->groups[g].desc->name, name))
			return &sw->groups[g];
	return NULL;
}

/*
 * Re-bifurcate @g: its links go down, its ports are re-created in the
 * slots the new configuration uses, its endpoints are re-attached in lane
 * order (those left without a port are unplugged), then the new links
 * train.  The ports of the other groups are not touched: they keep their
 * numbers, links, counters and endpoints.
 */
int pciesw_group_set_config(struct pciesw_group *g, unsigned int config,
			    const char **why)
{
	struct pciesw_endpoint *eps[PCIESW_MAX_GROUP_PORTS];
	struct pciesw_switch *sw = g->sw;
	struct pciesw_event ev = { .sw = sw, .group = g };
	unsigned int i, n = 0, new_n;
	int err;

	lockdep_assert_held(&sw->lock);
	err = pciesw_switch_live(sw, why);
	if (err)
		return err;
	if (config >= g->desc->nr_configs) {
		*why = "bifurcation not allowed for this lane group";
		return -EINVAL;
	}
	if (pciesw_group_busy(g)) {
		*why = "DMA in flight on this lane group";
		return -EBUSY;
	}
	if (config == g->config)
		return 0;

	new_n = g->desc->configs[config].nr_ports;

	/* endpoints that will have no port are unplugged first */
	for (i = 0; i < g->nr_ports; i++) {
		struct pciesw_endpoint *ep = pciesw_group_port(g, i)->ep;

		if (!ep)
			continue;
		if (n < new_n)
			eps[n++] = ep;
		else
			pciesw_ep_del(ep);
	}
	for (i = 0; i < g->nr_ports; i++)
		pciesw_link_drop(pciesw_group_port(g, i), PCIESW_LTSSM_DETECT);

	ev.type = PCIESW_EV_PORTS_REMOVE;
	pciesw_group_ports_mask(g, ev.ports);
	pciesw_event(&ev);

	for (i = 0; i < n; i++) {
		eps[i]->port->ep = NULL;
		eps[i]->port = NULL;
	}
	/* the group's new ports start with fresh counters */
	pciesw_health_lanes_reset(sw, g->desc->first_lane, g->desc->nr_lanes);
	pciesw_route_lanes_reset(sw, g->desc->first_lane, g->desc->nr_lanes);
	pciesw_group_clear_ports(sw, g);
	g->config = config;
	pciesw_group_build_ports(sw, g);
	for (i = 0; i < n; i++) {
		struct pciesw_port *port = pciesw_group_port(g, i);

		eps[i]->port = port;
		port->ep = eps[i];
	}

	ev.type = PCIESW_EV_PORTS_ADD;
	pciesw_group_ports_mask(g, ev.ports);
	pciesw_event(&ev);
	ev.type = PCIESW_EV_GROUP_CHANGE;
	pciesw_event(&ev);
	/* V2 names the configuration */
	pciesw_vpd_update(sw);

	for (i = 0; i < new_n; i++)
		pciesw_link_start(pciesw_group_port(g, i), PCIESW_LINK_TRAIN);
	return 0;
}

/*
 * What pciesw_switch_create() set up before its first allocation, undone
 * in reverse: the works, the id allocators, the lock, the switch.
 */
static void pciesw_switch_free(struct pciesw_switch *sw)
{
	unsigned int i;

	pciesw_thermal_stop(sw);
	for (i = 0; i < ARRAY_SIZE(sw->ep_type_ids); i++)
		ida_destroy(&sw->ep_type_ids[i]);
	ida_destroy(&sw->ep_ids);
	mutex_destroy(&sw->lock);
	kfree(sw);
}

/*
 * A switch built from @profile, unpublished, or NULL.  Each step that can
 * fail is undone, in the exact reverse order, by the error path and by
 * pciesw_switch_release(), which takes over once the ports exist.
 */
struct pciesw_switch *pciesw_switch_create(u32 id,
					   const struct pciesw_profile *profile)
{
	struct pciesw_port *port;
	struct pciesw_switch *sw;
	unsigned int g, i;

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
	pciesw_event_init(sw);
	INIT_DELAYED_WORK(&sw->link_work, pciesw_link_work);
	INIT_DELAYED_WORK(&sw->nvme_work, pciesw_nvme_work);
	INIT_LIST_HEAD(&sw->endpoints);
	ida_init(&sw->ep_ids);
	for (i = 0; i < ARRAY_SIZE(sw->ep_type_ids); i++)
		ida_init(&sw->ep_type_ids[i]);
	pciesw_settings_init(sw);
	pciesw_thermal_init(sw);
	if (pciesw_log_init(sw))
		goto err_free;
	if (pciesw_health_init(sw))
		goto err_log;
	if (pciesw_dma_init(sw))
		goto err_health;
	/*
	 * ~700 bytes a port with its LTSSM history: one per slot of the
	 * profile, not PCIESW_MAX_PORTS, so a small card stays small
	 */
	sw->nr_slots = pciesw_profile_nr_slots(profile);
	sw->ports = kvcalloc(sw->nr_slots, sizeof(*sw->ports), GFP_KERNEL);
	if (!sw->ports)
		goto err_dma;
	for (i = 0; i < sw->nr_slots; i++)
		sw->ports[i].id = i;

	mutex_lock(&sw->lock);
	sw->nr_groups = profile->nr_groups;
	for (g = 0; g < sw->nr_groups; g++) {
		struct pciesw_group *grp = &sw->groups[g];

		grp->sw = sw;
		grp->desc = &profile->groups[g];
		grp->id = g;
		grp->config = grp->desc->default_config;
		pciesw_group_build_ports(sw, grp);
	}
	pciesw_fw_init(sw);
	pciesw_vpd_init(sw);
	/*
	 * the card ships with a device on every port of its connectors;
	 * from here on the release undoes it all, endpoints first
	 */
	pciesw_for_each_port(sw, port) {
		const char *why;

		if (port->role != PCIESW_PORT_ROLE_DOWNSTREAM)
			continue;
		if (IS_ERR(pciesw_ep_add(port, pciesw_group_ep_type(port->group),
					 PCIESW_LINK_SPEED_NONE, 0, 0, 0, NULL,
					 &why))) {
			mutex_unlock(&sw->lock);
			pciesw_switch_put(sw);
			return NULL;
		}
	}
	mutex_unlock(&sw->lock);
	return sw;

err_dma:
	pciesw_dma_release(sw);
err_health:
	pciesw_health_release(sw);
err_log:
	pciesw_log_release(sw);
err_free:
	pciesw_switch_free(sw);
	return NULL;
}

/* pciesw_switch_create() undone, in the exact reverse order. */
static void pciesw_switch_release(struct kref *kref)
{
	struct pciesw_switch *sw = container_of(kref, struct pciesw_switch,
						refs);
	struct pciesw_endpoint *ep, *tmp;

	/* unpublished (or never published): no events, no link work */
	list_for_each_entry_safe(ep, tmp, &sw->endpoints, node) {
		list_del(&ep->node);
		pciesw_mem_unplug(ep->mem);
		pciesw_ep_free(ep);
	}
	kvfree(sw->ports);
	pciesw_dma_release(sw);
	pciesw_health_release(sw);
	pciesw_log_release(sw);
	pciesw_switch_free(sw);
}

void pciesw_switch_put(struct pciesw_switch *sw)
{
	kref_put(&sw->refs, pciesw_switch_release);
}

/* Make @sw visible to lookups; the registry takes its own reference. */
int pciesw_switch_publish(struct pciesw_switch *sw)
{
	struct pciesw_port *port;
	int err;

	kref_get(&sw->refs);
	err = xa_insert(&pciesw_switches, sw->id, sw, GFP_KERNEL);
	if (err) {
		pciesw_switch_put(sw);
		return err;
	}
	/* from here on events flow; the links start training as at power-on */
	mutex_lock(&sw->lock);
	sw->published = true;
	pciesw_switch_event(sw, PCIESW_EV_SWITCH_CREATE);
	pciesw_for_each_port(sw, port)
		pciesw_link_start(port, PCIESW_LINK_TRAIN);
	mutex_unlock(&sw->lock);
	return 0;
}

/* Hide @sw from lookups; holders of references see it dead. */
void pciesw_switch_unpublish(struct pciesw_switch *sw)
{
	struct pciesw_endpoint *ep;

	xa_erase(&pciesw_switches, sw->id);
	mutex_lock(&sw->lock);
	sw->dead = true;
	pciesw_switch_event(sw, PCIESW_EV_SWITCH_DELETE);
	sw->published = false;
	mutex_unlock(&sw->lock);
	/* the views show the switch's last state, then hear no more */
	pciesw_event_drain(sw);
	/* dead refuses new DMA: finish what is in flight */
	pciesw_dma_stop(sw);
	/*
	 * then the windows no longer answer: mappings that outlive the
	 * switch (the files keep it) fault with SIGBUS once the cdev view
	 * zapped them
	 */
	mutex_lock(&sw->lock);
	list_for_each_entry(ep, &sw->endpoints, node)
		pciesw_mem_unplug(ep->mem);
	mutex_unlock(&sw->lock);
	/* dead stops the works from re-arming themselves */
	cancel_delayed_work_sync(&sw->link_work);
	cancel_delayed_work_sync(&sw->nvme_work);
	pciesw_health_stop(sw);
	pciesw_thermal_stop(sw);
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

/*
 * The port whose first lane is @lane, NULL if there is none now (a slot
 * at @lane exists but the bifurcation starts no port there).
 */
struct pciesw_port *pciesw_port_by_lane(struct pciesw_switch *sw,
					unsigned int lane)
{
	struct pciesw_port *port;
	int id;

	lockdep_assert_held(&sw->lock);
	id = pciesw_profile_port_at(sw->profile, lane);
	if (id < 0)
		return NULL;
	port = pciesw_port_find(sw, id);
	return port && port->first_lane == lane ? port : NULL;
}

/*
 * The one check every request that changes a switch makes first: 0 while
 * @sw is live, -ENODEV and why once it is being removed.
 */
int pciesw_switch_live(const struct pciesw_switch *sw, const char **why)
{
	lockdep_assert_held(&sw->lock);
	if (sw->dead) {
		*why = "switch is being removed";
		return -ENODEV;
	}
	return 0;
}

/* Port @id of @sw, NULL if it has none by that number now. */
struct pciesw_port *pciesw_port_find(struct pciesw_switch *sw, u32 id)
{
	lockdep_assert_held(&sw->lock);
	return id < sw->nr_slots && sw->ports[id].present ? &sw->ports[id] :
							    NULL;
}

/*
 * The present port of group @g (of any group if NULL) after @port in id
 * order (the first for NULL), or NULL.
 */
struct pciesw_port *pciesw_port_next_of(struct pciesw_switch *sw,
					const struct pciesw_group *g,
					struct pciesw_port *port)
{
	u32 id;

	lockdep_assert_held(&sw->lock);
	for (id = port ? port->id + 1 : 0; id < sw->nr_slots; id++)
		if (sw->ports[id].present && (!g || sw->ports[id].group == g))
			return &sw->ports[id];
	return NULL;
}

/* The present port after @port in id order (the first for NULL), or NULL. */
struct pciesw_port *pciesw_port_next(struct pciesw_switch *sw,
				     struct pciesw_port *port)
{
	return pciesw_port_next_of(sw, NULL, port);
}

unsigned int pciesw_switch_nr_endpoints(struct pciesw_switch *sw)
{
	struct pciesw_port *port;
	unsigned int n = 0;

	lockdep_assert_held(&sw->lock);
	pciesw_for_each_port(sw, port)
		if (port->ep)
			n++;
	return n;
}
