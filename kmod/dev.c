// SPDX-License-Identifier: GPL-2.0
/*
 * Switch instances: build the model, hang its devices (switch, lane groups,
 * ports, endpoints) and its char device off it, then publish it; take it
 * down in exactly the reverse order.  While it is published, model events
 * keep the port and endpoint devices in step with the model.
 */

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "dev.h"

/* Serializes creation and removal; protects pciesw_devs and _closed. */
static DEFINE_MUTEX(pciesw_devs_lock);
/* id -> struct pciesw_dev, every instance the module owns */
static DEFINE_XARRAY(pciesw_devs);
/* set at unload: no instance may be created after the last is removed */
static bool pciesw_devs_closed;

static void pciesw_child_release(struct device *dev)
{
	struct pciesw_child *child = to_pciesw_child(dev);

	pciesw_switch_put(child->sw);
	kfree(child);
}

static struct pciesw_child *pciesw_child_add(struct pciesw_switch *sw,
					     struct device *parent,
					     const struct device_type *type,
					     u32 index, const char *name)
{
	struct pciesw_child *child;
	int err;

	child = kzalloc(sizeof(*child), GFP_KERNEL);
	if (!child)
		return NULL;
	kref_get(&sw->refs);
	child->sw = sw;
	child->index = index;
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
	device_unregister(&child->dev);
}

static void pciesw_dev_ep_add(struct pciesw_dev *pdev,
			      struct pciesw_endpoint *ep)
{
	struct pciesw_child *port = pdev->ports[ep->port->id];
	struct pciesw_child *child;
	char name[2 * PCIESW_NAME_LEN];

	if (!port)
		return;
	snprintf(name, sizeof(name), "%s-%s", pdev->sw->name, ep->name);
	child = pciesw_child_add(pdev->sw, &port->dev, &pciesw_ep_devtype,
				 ep->id, name);
	if (child && xa_err(xa_store(&pdev->eps, ep->id, child, GFP_KERNEL)))
		pciesw_child_del(child);
}

static void pciesw_dev_ep_del(struct pciesw_dev *pdev,
			      struct pciesw_endpoint *ep)
{
	struct pciesw_child *child = xa_erase(&pdev->eps, ep->id);

	if (child)
		pciesw_child_del(child);
}

static void pciesw_dev_ports_add(struct pciesw_dev *pdev, unsigned int first)
{
	struct pciesw_switch *sw = pdev->sw;
	char name[2 * PCIESW_NAME_LEN];
	unsigned int i;

	for (i = first; i < sw->nr_ports; i++) {
		snprintf(name, sizeof(name), "%s-port%u", sw->name, i);
		pdev->ports[i] = pciesw_child_add(sw, &pdev->dev,
						  &pciesw_port_devtype, i, name);
		if (sw->ports[i].ep)
			pciesw_dev_ep_add(pdev, sw->ports[i].ep);
	}
}

/* Endpoints first: they are children of the port devices. */
static void pciesw_dev_ports_del(struct pciesw_dev *pdev, unsigned int first)
{
	struct pciesw_switch *sw = pdev->sw;
	unsigned int i;

	for (i = sw->nr_ports; i-- > first;) {
		if (sw->ports[i].ep)
			pciesw_dev_ep_del(pdev, sw->ports[i].ep);
		if (pdev->ports[i])
			pciesw_child_del(pdev->ports[i]);
		pdev->ports[i] = NULL;
	}
}

static void pciesw_dev_uevent_port(struct pciesw_dev *pdev,
				   struct pciesw_port *port)
{
	struct pciesw_child *child = pdev->ports[port->id];
	char ltssm[40], link[32], speed[32], width[32], degraded[32];
	char event[] = "PCIESW_EVENT=port";
	char *envp[7];

	if (!child)
		return;
	envp[0] = event;
	envp[1] = ltssm;
	envp[2] = link;
	envp[3] = speed;
	envp[4] = width;
	envp[5] = degraded;
	envp[6] = NULL;
	snprintf(ltssm, sizeof(ltssm), "PCIESW_LTSSM=%s",
		 pciesw_ltssm_name(port->link.ltssm));
	snprintf(link, sizeof(link), "PCIESW_LINK=%s",
		 pciesw_link_active(port) ? "up" : "down");
	if (port->link.speed)
		snprintf(speed, sizeof(speed), "PCIESW_SPEED=gen%u",
			 port->link.speed);
	else
		strscpy(speed, "PCIESW_SPEED=none", sizeof(speed));
	snprintf(width, sizeof(width), "PCIESW_WIDTH=%u", port->link.width);
	snprintf(degraded, sizeof(degraded), "PCIESW_DEGRADED=%u",
		 port->link.degraded);
	kobject_uevent_env(&child->dev.kobj, KOBJ_CHANGE, envp);
}

static void pciesw_dev_uevent_group(struct pciesw_dev *pdev,
				    struct pciesw_group *g)
{
	char group[48], config[32], cfg[16];
	char event[] = "PCIESW_EVENT=lanes";
	char *envp[4];

	envp[0] = event;
	envp[1] = group;
	envp[2] = config;
	envp[3] = NULL;
	pciesw_group_config_name(g->desc, g->config, cfg, sizeof(cfg));
	snprintf(group, sizeof(group), "PCIESW_GROUP=%s", g->desc->name);
	snprintf(config, sizeof(config), "PCIESW_CONFIG=%s", cfg);
	kobject_uevent_env(&pdev->dev.kobj, KOBJ_CHANGE, envp);
}

static void pciesw_dev_uevent_vpd(struct pciesw_dev *pdev)
{
	char event[] = "PCIESW_EVENT=vpd";
	char *envp[2];

	envp[0] = event;
	envp[1] = NULL;
	kobject_uevent_env(&pdev->dev.kobj, KOBJ_CHANGE, envp);
}

/* A switch setting changed: the settings as they are now. */
static void pciesw_dev_uevent_switch(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	char p2p[32], pacing[32], mps[32], channels[32];
	char event[] = "PCIESW_EVENT=switch";
	char *envp[6];

	envp[0] = event;
	envp[1] = p2p;
	envp[2] = pacing;
	envp[3] = mps;
	envp[4] = channels;
	envp[5] = NULL;
	snprintf(p2p, sizeof(p2p), "PCIESW_HOST_P2P=%u",
		 pciesw_switch_setting(sw, PCIESW_SETTING_HOST_P2P));
	snprintf(pacing, sizeof(pacing), "PCIESW_DMA_PACING=%u",
		 pciesw_switch_setting(sw, PCIESW_SETTING_DMA_PACING));
	snprintf(mps, sizeof(mps), "PCIESW_MPS=%u",
		 pciesw_switch_setting(sw, PCIESW_SETTING_MPS));
	snprintf(channels, sizeof(channels), "PCIESW_DMA_CHANNELS=%u",
		 pciesw_switch_setting(sw, PCIESW_SETTING_DMA_CHANNELS));
	kobject_uevent_env(&pdev->dev.kobj, KOBJ_CHANGE, envp);
}

/* A counter reached its threshold: uevent on its port, or on the switch. */
static void pciesw_dev_uevent_threshold(struct pciesw_dev *pdev,
					const struct pciesw_event *ev)
{
	struct pciesw_child *port = ev->port ? pdev->ports[ev->port->id] : NULL;
	char counter[64], threshold[48], value[48];
	char event[] = "PCIESW_EVENT=threshold";
	char *envp[5];

	if (ev->port && !port)
		return;
	envp[0] = event;
	envp[1] = counter;
	envp[2] = threshold;
	envp[3] = value;
	envp[4] = NULL;
	snprintf(counter, sizeof(counter), "PCIESW_COUNTER=%s",
		 pciesw_counter_name(ev->counter));
	snprintf(threshold, sizeof(threshold), "PCIESW_THRESHOLD=%llu",
		 ev->threshold);
	snprintf(value, sizeof(value), "PCIESW_VALUE=%llu", ev->value);
	kobject_uevent_env(port ? &port->dev.kobj : &pdev->dev.kobj,
			   KOBJ_CHANGE, envp);
}

static void pciesw_dev_uevent_thermal(struct pciesw_dev *pdev,
				      const struct pciesw_event *ev)
{
	char sensor[32], label[48], alarm[32], active[32], temp[32];
	char event[] = "PCIESW_EVENT=thermal";
	char *envp[7];

	envp[0] = event;
	envp[1] = sensor;
	envp[2] = label;
	envp[3] = alarm;
	envp[4] = active;
	envp[5] = temp;
	envp[6] = NULL;
	snprintf(sensor, sizeof(sensor), "PCIESW_SENSOR=%u", ev->sensor);
	snprintf(label, sizeof(label), "PCIESW_LABEL=%s",
		 pciesw_sensor_label(ev->sensor));
	snprintf(alarm, sizeof(alarm), "PCIESW_ALARM=%s",
		 ev->level == PCIESW_ALARM_CRITICAL ? "critical" : "warning");
	snprintf(active, sizeof(active), "PCIESW_ACTIVE=%u", ev->active);
	snprintf(temp, sizeof(temp), "PCIESW_TEMP=%d", ev->temp);
	kobject_uevent_env(&pdev->dev.kobj, KOBJ_CHANGE, envp);
}

/* Model events, with sw->lock held: keep the devices in step. */
static int pciesw_dev_event(struct notifier_block *nb, unsigned long type,
			    void *data)
{
	const struct pciesw_event *ev = data;
	struct pciesw_dev *pdev = xa_load(&pciesw_devs, ev->sw->id);

	if (!pdev || pdev->sw != ev->sw)
		return NOTIFY_DONE;
	pciesw_pci_event(pdev, ev);
	switch (ev->type) {
	case PCIESW_EV_PORTS_REMOVE:
		pciesw_debugfs_ports_del(pdev, ev->first);
		pciesw_dev_ports_del(pdev, ev->first);
		break;
	case PCIESW_EV_PORTS_ADD:
		pciesw_dev_ports_add(pdev, ev->first);
		pciesw_debugfs_ports_add(pdev, ev->first);
		break;
	case PCIESW_EV_EP_ADD:
		pciesw_dev_ep_add(pdev, ev->ep);
		break;
	case PCIESW_EV_EP_DEL:
		pciesw_dev_ep_del(pdev, ev->ep);
		break;
	case PCIESW_EV_PORT_CHANGE:
		pciesw_dev_uevent_port(pdev, ev->port);
		break;
	case PCIESW_EV_GROUP_CHANGE:
		pciesw_dev_uevent_group(pdev, ev->group);
		break;
	case PCIESW_EV_VPD_CHANGE:
		pciesw_dev_uevent_vpd(pdev);
		break;
	case PCIESW_EV_THRESHOLD:
		pciesw_dev_uevent_threshold(pdev, ev);
		break;
	case PCIESW_EV_THERMAL_ALARM:
		pciesw_hwmon_alarm(pdev, ev);
		pciesw_dev_uevent_thermal(pdev, ev);
		break;
	case PCIESW_EV_SWITCH_CHANGE:
		pciesw_dev_uevent_switch(pdev);
		break;
	default:
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block pciesw_dev_event_nb = {
	.notifier_call = pciesw_dev_event,
};

static void pciesw_dev_release(struct device *dev)
{
	struct pciesw_dev *pdev = to_pciesw_dev(dev);

	xa_destroy(&pdev->eps);
	pciesw_switch_put(pdev->sw);
	kfree(pdev);
}

/* Children of an unpublished switch: no events can race with these. */
static void pciesw_dev_children_del(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	unsigned int g;

	mutex_lock(&sw->lock);
	pciesw_dev_ports_del(pdev, 0);
	for (g = sw->nr_groups; g-- > 0;) {
		if (pdev->groups[g])
			pciesw_child_del(pdev->groups[g]);
		pdev->groups[g] = NULL;
	}
	mutex_unlock(&sw->lock);
}

static int pciesw_dev_children_add(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	char name[2 * PCIESW_NAME_LEN];
	unsigned int g;
	int err = 0;

	mutex_lock(&sw->lock);
	for (g = 0; g < sw->nr_groups; g++) {
		snprintf(name, sizeof(name), "group_%s",
			 sw->groups[g].desc->name);
		pdev->groups[g] = pciesw_child_add(sw, &pdev->dev,
						   &pciesw_group_devtype, g, name);
	}
	pciesw_dev_ports_add(pdev, 0);
	for (g = 0; g < sw->nr_groups; g++)
		if (!pdev->groups[g])
			err = -ENOMEM;
	for (g = 0; g < sw->nr_ports; g++)
		if (!pdev->ports[g])
			err = -ENOMEM;
	mutex_unlock(&sw->lock);
	if (err)
		pciesw_dev_children_del(pdev);
	return err;
}

static int pciesw_dev_add(u32 id, const struct pciesw_profile *profile)
{
	struct pciesw_switch *sw;
	struct pciesw_dev *pdev;
	int err;

	sw = pciesw_switch_create(id, profile);
	if (!sw)
		return -ENOMEM;
	pdev = kzalloc(sizeof(*pdev), GFP_KERNEL);
	if (!pdev) {
		pciesw_switch_put(sw);
		return -ENOMEM;
	}
	/* from here on the device's release frees pdev and drops sw */
	pdev->sw = sw;
	xa_init(&pdev->eps);
	device_initialize(&pdev->dev);
	pdev->dev.bus = &pciesw_bus_type;
	pdev->dev.type = &pciesw_switch_devtype;
	pdev->dev.groups = pciesw_dev_groups;
	pdev->dev.release = pciesw_dev_release;
	pdev->dev.devt = pciesw_chardev_devt(id);
	err = dev_set_name(&pdev->dev, "%s", sw->name);
	if (err)
		goto err_put;
	cdev_init(&pdev->cdev, &pciesw_chardev_fops);
	pdev->cdev.owner = THIS_MODULE;

	err = xa_insert(&pciesw_devs, id, pdev, GFP_KERNEL);
	if (err)
		goto err_put;
	err = cdev_device_add(&pdev->cdev, &pdev->dev);
	if (err)
		goto err_erase;
	err = pciesw_dev_children_add(pdev);
	if (err)
		goto err_cdev_del;
	err = pciesw_hwmon_add(pdev);
	if (err)
		goto err_children_del;
	err = pciesw_debugfs_add(pdev);
	if (err)
		goto err_hwmon_del;
	err = pciesw_pci_add(pdev);
	if (err)
		goto err_debugfs_del;
	err = pciesw_switch_publish(sw);
	if (err)
		goto err_pci_del;
	return 0;

err_pci_del:
	pciesw_pci_del(pdev);
err_debugfs_del:
	pciesw_debugfs_del(pdev);
err_hwmon_del:
	pciesw_hwmon_del(pdev);
err_children_del:
	pciesw_dev_children_del(pdev);
err_cdev_del:
	cdev_device_del(&pdev->cdev, &pdev->dev);
err_erase:
	xa_erase(&pciesw_devs, id);
err_put:
	put_device(&pdev->dev);
	return err;
}

static void pciesw_dev_remove(struct pciesw_dev *pdev)
{
	u32 id = pdev->sw->id;

	pciesw_switch_unpublish(pdev->sw);
	pciesw_pci_del(pdev);
	pciesw_debugfs_del(pdev);
	pciesw_hwmon_del(pdev);
	pciesw_dev_children_del(pdev);
	cdev_device_del(&pdev->cdev, &pdev->dev);
	xa_erase(&pciesw_devs, id);
	put_device(&pdev->dev);
}

/**
 * pciesw_dev_new - create switch @id
 * @id: 0..PCIESW_MAX_SWITCH_ID
 * @profile: profile name, NULL for the default
 * @why: set to a static message saying what was wrong on failure
 */
int pciesw_dev_new(u32 id, const char *profile, const char **why)
{
	const struct pciesw_profile *prof = pciesw_profile_default();
	int err;

	if (id > PCIESW_MAX_SWITCH_ID) {
		*why = "switch id out of range (0-255)";
		return -EINVAL;
	}
	if (profile) {
		prof = pciesw_profile_find(profile);
		if (!prof) {
			*why = "unknown profile";
			return -EINVAL;
		}
	}

	mutex_lock(&pciesw_devs_lock);
	if (pciesw_devs_closed) {
		*why = "module is unloading";
		err = -ENODEV;
	} else if (xa_load(&pciesw_devs, id)) {
		*why = "switch id already in use";
		err = -EEXIST;
	} else {
		err = pciesw_dev_add(id, prof);
		if (err)
			*why = "cannot create the switch";
	}
	mutex_unlock(&pciesw_devs_lock);
	return err;
}

int pciesw_dev_del(u32 id, const char **why)
{
	struct pciesw_dev *pdev;
	int err = 0;

	mutex_lock(&pciesw_devs_lock);
	pdev = xa_load(&pciesw_devs, id);
	if (pdev) {
		pciesw_dev_remove(pdev);
	} else {
		*why = "no such switch";
		err = -ENODEV;
	}
	mutex_unlock(&pciesw_devs_lock);
	return err;
}

int pciesw_dev_init(void)
{
	int err;

	pciesw_debugfs_init();
	err = pciesw_event_register(&pciesw_dev_event_nb);
	if (err)
		pciesw_debugfs_exit();
	return err;
}

void pciesw_dev_exit(void)
{
	struct pciesw_dev *pdev;
	unsigned long id;

	mutex_lock(&pciesw_devs_lock);
	pciesw_devs_closed = true;
	xa_for_each(&pciesw_devs, id, pdev)
		pciesw_dev_remove(pdev);
	mutex_unlock(&pciesw_devs_lock);
	pciesw_event_unregister(&pciesw_dev_event_nb);
	pciesw_debugfs_exit();
}
