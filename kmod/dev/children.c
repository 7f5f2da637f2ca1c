// SPDX-License-Identifier: GPL-2.0
/*
 * The dev view: a switch's child devices (lane groups, ports, endpoints)
 * on the pciesw bus, added with the instance (instance.c) and, while it is
 * published, kept in step with the model by its events, which also send
 * the uevents.
 */

#include <linux/slab.h>
#include <linux/xarray.h>

#include "instance.h"

static void pciesw_child_release(struct device *dev)
{
	struct pciesw_child *child = to_pciesw_child(dev);

	pciesw_switch_put(child->sw);
	kfree(child);
}

static struct pciesw_child *pciesw_child_add(struct pciesw_switch *sw,
					     struct device *parent,
					     const struct device_type *type,
					     u32 index, u64 serial,
					     const char *name)
{
	struct pciesw_child *child;
	int err;

	child = kzalloc(sizeof(*child), GFP_KERNEL);
	if (!child)
		return NULL;
	kref_get(&sw->refs);
	child->sw = sw;
	child->index = index;
	child->serial = serial;
	device_initialize(&child->dev);
	child->dev.parent = parent;
	child->dev.type = type;
	child->dev.release = pciesw_child_release;
	/* lane groups are plain children; ports and endpoints are on the bus */
	if (type != &pciesw_group_devtype)
		child->dev.bus = &pciesw_bus_type;
	err = dev_set_name(&child->dev, "%s", name);
	if (!err)
		err = device_add(&child->dev);
	if (err) {
		dev_err(parent, "cannot add %s: %d\n", name, err);
		put_device(&child->dev);
		return NULL;
	}
	return child;
}

static void pciesw_child_del(struct pciesw_child *child)
{
	/* device_del() waits for the stores that wait for this very event */
	WRITE_ONCE(child->removing, true);
	pciesw_switch_wake(child->sw);
	device_unregister(&child->dev);
}

/*
 * The endpoint's device could not be added: the endpoint leaves the model
 * again (an unplug, so every view follows), and the request that plugged
 * it, which waits for this event, reports the failure.
 */
static void pciesw_dev_ep_failed(struct pciesw_switch *sw, u32 ep_id,
				 u64 serial)
{
	struct pciesw_endpoint *ep;

	mutex_lock(&sw->lock);
	ep = pciesw_ep_lookup(sw, ep_id, U64_MAX);
	if (!IS_ERR(ep) && ep->serial == serial) {
		pr_err("pciesw: %s: cannot add the device of %s: unplugged\n",
		       sw->name, ep->name);
		pciesw_ep_del(ep);
	}
	mutex_unlock(&sw->lock);
}

/* Adds endpoint device @name below port @port_id, unless it exists. */
static int pciesw_dev_ep_add(struct pciesw_dev *pdev, u32 port_id, u32 ep_id,
			     u64 serial, const char *ep_name)
{
	struct pciesw_child *port, *child;
	char name[2 * PCIESW_NAME_LEN];

	if (xa_load(&pdev->eps, ep_id))
		return 0;
	port = port_id < PCIESW_MAX_PORTS ? pdev->ports[port_id] : NULL;
	if (!port)
		return -ENODEV;
	snprintf(name, sizeof(name), "%s-%s", pdev->sw->name, ep_name);
	child = pciesw_child_add(pdev->sw, &port->dev, &pciesw_ep_devtype,
				 ep_id, serial, name);
	if (!child)
		return -ENOMEM;
	if (xa_err(xa_store(&pdev->eps, ep_id, child, GFP_KERNEL))) {
		pciesw_child_del(child);
		return -ENOMEM;
	}
	return 0;
}

static void pciesw_dev_ep_del(struct pciesw_dev *pdev, u32 ep_id)
{
	struct pciesw_child *child = xa_erase(&pdev->eps, ep_id);

	if (child)
		pciesw_child_del(child);
}

/* An endpoint as the model showed it, for adding its device later. */
struct pciesw_dev_ep {
	u32 id;
	u32 port;
	u64 serial;
	char name[PCIESW_NAME_LEN];
};

/*
 * Devices for the ports in @ports, each followed by the endpoint the model
 * has on it.  A switch being created (@creating) fails whole when one of
 * them cannot be added; a published one unplugs an endpoint whose device
 * cannot be added.
 */
static int pciesw_dev_ports_add(struct pciesw_dev *pdev,
				const unsigned long *ports, bool creating)
{
	struct pciesw_switch *sw = pdev->sw;
	char name[2 * PCIESW_NAME_LEN];
	struct pciesw_dev_ep *eps;
	unsigned int n = 0, i = 0;
	unsigned long id;
	int err = 0;

	eps = kcalloc(bitmap_weight(ports, PCIESW_MAX_PORTS), sizeof(*eps),
		      GFP_KERNEL);
	if (!eps)
		return -ENOMEM;
	mutex_lock(&sw->lock);
	for_each_set_bit(id, ports, PCIESW_MAX_PORTS) {
		struct pciesw_port *port = pciesw_port_find(sw, id);

		if (!port || !port->ep)
			continue;
		eps[n].id = port->ep->id;
		eps[n].port = id;
		eps[n].serial = port->ep->serial;
		strscpy(eps[n].name, port->ep->name, sizeof(eps[n].name));
		n++;
	}
	mutex_unlock(&sw->lock);

	for_each_set_bit(id, ports, PCIESW_MAX_PORTS) {
		if (!pdev->ports[id]) {
			snprintf(name, sizeof(name), "%s-port%lu", sw->name, id);
			pdev->ports[id] = pciesw_child_add(sw, &pdev->dev,
							   &pciesw_port_devtype,
							   id, 0, name);
			if (!pdev->ports[id])
				err = -ENOMEM;
		}
		for (; i < n && eps[i].port == id; i++) {
			if (!pciesw_dev_ep_add(pdev, id, eps[i].id,
					       eps[i].serial, eps[i].name))
				continue;
			err = -ENOMEM;
			if (!creating)
				pciesw_dev_ep_failed(sw, eps[i].id,
						     eps[i].serial);
		}
	}
	kfree(eps);
	return err;
}

/* The devices of the ports in @ports, their endpoints' first. */
static void pciesw_dev_ports_del(struct pciesw_dev *pdev,
				 const unsigned long *ports)
{
	struct pciesw_child *child;
	unsigned long id, ep;

	for (id = PCIESW_MAX_PORTS; id-- > 0;) {
		if (!test_bit(id, ports) || !pdev->ports[id])
			continue;
		xa_for_each(&pdev->eps, ep, child)
			if (child->dev.parent == &pdev->ports[id]->dev)
				pciesw_dev_ep_del(pdev, ep);
		pciesw_child_del(pdev->ports[id]);
		pdev->ports[id] = NULL;
	}
}

/*
 * A uevent as the model showed it when the event was raised: sent later on
 * the port @port (PCIESW_EV_NO_PORT: on the switch).
 */
struct pciesw_dev_uevent {
	u32 port;
	unsigned int n;
	size_t used;
	char *envp[8];
	char buf[320];
};

static __printf(2, 3)
void pciesw_uev_add(struct pciesw_dev_uevent *u, const char *fmt, ...)
{
	size_t room = sizeof(u->buf) - u->used;
	va_list args;
	int len;

	if (u->n >= ARRAY_SIZE(u->envp) - 1 || !room)
		return;
	va_start(args, fmt);
	len = vsnprintf(u->buf + u->used, room, fmt, args);
	va_end(args);
	if (len < 0 || len >= room)
		return;
	u->envp[u->n++] = u->buf + u->used;
	u->used += len + 1;
}

static void pciesw_uev_port(struct pciesw_dev_uevent *u,
			    const struct pciesw_port *port)
{
	pciesw_uev_add(u, "PCIESW_EVENT=port");
	pciesw_uev_add(u, "PCIESW_LTSSM=%s",
		       pciesw_ltssm_name(port->link.ltssm));
	pciesw_uev_add(u, "PCIESW_LINK=%s",
		       pciesw_link_active(port) ? "up" : "down");
	if (port->link.speed)
		pciesw_uev_add(u, "PCIESW_SPEED=gen%u", port->link.speed);
	else
		pciesw_uev_add(u, "PCIESW_SPEED=none");
	pciesw_uev_add(u, "PCIESW_WIDTH=%u", port->link.width);
	pciesw_uev_add(u, "PCIESW_DEGRADED=%u", port->link.degraded);
}

static void pciesw_uev_group(struct pciesw_dev_uevent *u,
			     const struct pciesw_group *g)
{
	char cfg[16];

	pciesw_group_config_name(g->desc, g->config, cfg, sizeof(cfg));
	pciesw_uev_add(u, "PCIESW_EVENT=lanes");
	pciesw_uev_add(u, "PCIESW_GROUP=%s", g->desc->name);
	pciesw_uev_add(u, "PCIESW_CONFIG=%s", cfg);
}

/* A switch setting changed: the settings as they are now. */
static void pciesw_uev_switch(struct pciesw_dev_uevent *u,
			      const struct pciesw_switch *sw)
{
	pciesw_uev_add(u, "PCIESW_EVENT=switch");
	pciesw_uev_add(u, "PCIESW_HOST_P2P=%u",
		       pciesw_switch_setting(sw, PCIESW_SETTING_HOST_P2P));
	pciesw_uev_add(u, "PCIESW_DMA_PACING=%u",
		       pciesw_switch_setting(sw, PCIESW_SETTING_DMA_PACING));
	pciesw_uev_add(u, "PCIESW_MPS=%u",
		       pciesw_switch_setting(sw, PCIESW_SETTING_MPS));
	pciesw_uev_add(u, "PCIESW_DMA_CHANNELS=%u",
		       pciesw_switch_setting(sw, PCIESW_SETTING_DMA_CHANNELS));
}

/* A counter reached its threshold: uevent on its port, or on the switch. */
static void pciesw_uev_threshold(struct pciesw_dev_uevent *u,
				 const struct pciesw_event *ev)
{
	pciesw_uev_add(u, "PCIESW_EVENT=threshold");
	pciesw_uev_add(u, "PCIESW_COUNTER=%s",
		       pciesw_counter_name(ev->counter));
	pciesw_uev_add(u, "PCIESW_THRESHOLD=%llu", ev->threshold);
	pciesw_uev_add(u, "PCIESW_VALUE=%llu", ev->value);
}

static void pciesw_uev_thermal(struct pciesw_dev_uevent *u,
			       const struct pciesw_event *ev)
{
	pciesw_uev_add(u, "PCIESW_EVENT=thermal");
	pciesw_uev_add(u, "PCIESW_SENSOR=%u", ev->sensor);
	pciesw_uev_add(u, "PCIESW_LABEL=%s", pciesw_sensor_label(ev->sensor));
	pciesw_uev_add(u, "PCIESW_ALARM=%s",
		       ev->level == PCIESW_ALARM_CRITICAL ? "critical" :
							    "warning");
	pciesw_uev_add(u, "PCIESW_ACTIVE=%u", ev->active);
	pciesw_uev_add(u, "PCIESW_TEMP=%d", ev->temp);
}

/* The firmware changed: what runs, and what the other partition holds. */
static void pciesw_uev_fw(struct pciesw_dev_uevent *u,
			  const struct pciesw_switch *sw)
{
	const struct pciesw_fw_part *stored = pciesw_fw_stored(sw);
	char ver[PCIESW_FW_VERSION_LEN];

	pciesw_uev_add(u, "PCIESW_EVENT=firmware");
	pciesw_fw_version_str(pciesw_fw_running_version(sw), ver, sizeof(ver));
	pciesw_uev_add(u, "PCIESW_FW_RUNNING=%s", ver);
	if (stored->state == PCIESW_FW_STATE_VALID) {
		pciesw_fw_version_str(stored->version, ver, sizeof(ver));
		pciesw_uev_add(u, "PCIESW_FW_STORED=%s", ver);
	} else {
		pciesw_uev_add(u, "PCIESW_FW_STORED=none");
	}
}

/* With sw->lock held: the uevent this event sends, as the model is now. */
static void *pciesw_dev_snapshot(const struct pciesw_event *ev)
{
	struct pciesw_dev_uevent *u;

	switch (ev->type) {
	case PCIESW_EV_PORT_CHANGE:
	case PCIESW_EV_GROUP_CHANGE:
	case PCIESW_EV_VPD_CHANGE:
	case PCIESW_EV_THRESHOLD:
	case PCIESW_EV_THERMAL_ALARM:
	case PCIESW_EV_SWITCH_CHANGE:
	case PCIESW_EV_FW_CHANGE:
		break;
	default:
		return NULL;
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return NULL;
	u->port = PCIESW_EV_NO_PORT;
	switch (ev->type) {
	case PCIESW_EV_PORT_CHANGE:
		u->port = ev->port_id;
		pciesw_uev_port(u, ev->port);
		break;
	case PCIESW_EV_GROUP_CHANGE:
		pciesw_uev_group(u, ev->group);
		break;
	case PCIESW_EV_VPD_CHANGE:
		pciesw_uev_add(u, "PCIESW_EVENT=vpd");
		break;
	case PCIESW_EV_FW_CHANGE:
		pciesw_uev_fw(u, ev->sw);
		break;
	case PCIESW_EV_THRESHOLD:
		u->port = ev->port_id;
		pciesw_uev_threshold(u, ev);
		break;
	case PCIESW_EV_THERMAL_ALARM:
		pciesw_uev_thermal(u, ev);
		break;
	default:
		pciesw_uev_switch(u, ev->sw);
		break;
	}
	return u;
}

static void pciesw_dev_uevent(struct pciesw_dev *pdev,
			      struct pciesw_dev_uevent *u)
{
	struct kobject *kobj = &pdev->dev.kobj;

	if (u->port != PCIESW_EV_NO_PORT) {
		/* the port went meanwhile: so does its uevent */
		if (u->port >= PCIESW_MAX_PORTS || !pdev->ports[u->port])
			return;
		kobj = &pdev->ports[u->port]->dev.kobj;
	}
	kobject_uevent_env(kobj, KOBJ_CHANGE, u->envp);
}

/* Keep the devices in step with the model; pdev->ports/eps are ours. */
static void pciesw_dev_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_dev *pdev = pciesw_dev_of(ev->sw);
	struct pciesw_dev_uevent *u = snap;

	if (!pdev)
		goto out;
	switch (ev->type) {
	case PCIESW_EV_PORTS_REMOVE:
		pciesw_dev_ports_del(pdev, ev->ports);
		break;
	case PCIESW_EV_PORTS_ADD:
		pciesw_dev_ports_add(pdev, ev->ports, false);
		break;
	case PCIESW_EV_EP_ADD:
		if (pciesw_dev_ep_add(pdev, ev->port_id, ev->ep_id,
				      ev->ep_serial, ev->ep_name))
			pciesw_dev_ep_failed(pdev->sw, ev->ep_id,
					     ev->ep_serial);
		break;
	case PCIESW_EV_EP_DEL:
		pciesw_dev_ep_del(pdev, ev->ep_id);
		break;
	default:
		if (u)
			pciesw_dev_uevent(pdev, u);
		break;
	}
out:
	kfree(u);
}

static const struct pciesw_view pciesw_dev_view = {
	.snapshot = pciesw_dev_snapshot,
	.apply = pciesw_dev_apply,
};

/* Children of an unpublished switch: no events race with these. */
void pciesw_dev_children_del(struct pciesw_dev *pdev)
{
	DECLARE_BITMAP(all, PCIESW_MAX_PORTS);
	unsigned int g;

	bitmap_fill(all, PCIESW_MAX_PORTS);
	pciesw_dev_ports_del(pdev, all);
	for (g = PCIESW_MAX_GROUPS; g-- > 0;) {
		if (pdev->groups[g])
			pciesw_child_del(pdev->groups[g]);
		pdev->groups[g] = NULL;
	}
}

int pciesw_dev_children_add(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	char name[2 * PCIESW_NAME_LEN];
	DECLARE_BITMAP(ports, PCIESW_MAX_PORTS);
	struct pciesw_port *port;
	unsigned int g;
	int err = 0;

	bitmap_zero(ports, PCIESW_MAX_PORTS);
	mutex_lock(&sw->lock);
	pciesw_for_each_port(sw, port)
		__set_bit(port->id, ports);
	mutex_unlock(&sw->lock);

	/* lane groups are fixed for the switch's life */
	for (g = 0; g < sw->nr_groups; g++) {
		snprintf(name, sizeof(name), "group_%s",
			 sw->groups[g].desc->name);
		pdev->groups[g] = pciesw_child_add(sw, &pdev->dev,
						   &pciesw_group_devtype, g, 0,
						   name);
		if (!pdev->groups[g])
			err = -ENOMEM;
	}
	if (pciesw_dev_ports_add(pdev, ports, true))
		err = -ENOMEM;
	if (err)
		pciesw_dev_children_del(pdev);
	return err;
}

void pciesw_dev_view_init(void)
{
	pciesw_view_register(PCIESW_VIEW_DEV, &pciesw_dev_view);
}

void pciesw_dev_view_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_DEV);
}
