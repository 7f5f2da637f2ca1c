// SPDX-License-Identifier: GPL-2.0
/*
 * Switch instances, the one place a switch is created and removed (module
 * load, the bus's new_device, netlink's switch-new): build the model, hang
 * its devices (switch, lane groups, ports, endpoints, dev/children.c) and its
 * char device off it, add it to every view, then publish it and, once every
 * view shows it, register it with devlink; take it down in exactly the reverse
 * order. The views find a switch's instance here (pciesw_dev_of()); they never
 * call each other.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "instance.h"

/* Serializes creation and removal; protects pciesw_devs and _closed. */
static DEFINE_MUTEX(pciesw_devs_lock);
/* id -> struct pciesw_dev, every instance the module owns */
static DEFINE_XARRAY(pciesw_devs);
/* set at unload: no instance may be created after the last is removed */
static bool pciesw_devs_closed;

/*
 * The switch instance of @sw.  Views call it while applying an event: the
 * instance is removed only after its switch's events have been applied.
 */
struct pciesw_dev *pciesw_dev_of(struct pciesw_switch *sw)
{
	struct pciesw_dev *pdev = xa_load(&pciesw_devs, sw->id);

	return pdev && pdev->sw == sw ? pdev : NULL;
}

/*
 * Switch devices not yet released.  Their last reference can be devlink's,
 * which devlink_free() drops from an RCU-deferred work on system_wq, after
 * the switch is gone: module exit waits for them (pciesw_instance_exit()).
 */
static atomic_t pciesw_devs_live = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(pciesw_devs_released);

static void pciesw_dev_release(struct device *dev)
{
	struct pciesw_dev *pdev = to_pciesw_dev(dev);

	xa_destroy(&pdev->eps);
	pciesw_chardev_put(pdev);
	pciesw_switch_put(pdev->sw);
	kfree(pdev);
	/* last: module exit may go on once it is 0 */
	if (atomic_dec_and_test(&pciesw_devs_live))
		wake_up_all(&pciesw_devs_released);
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
	atomic_inc(&pciesw_devs_live);
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
	err = pciesw_chardev_add(pdev);
	if (err)
		goto err_put;

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
	/* the disks follow the PCI functions, bound in the PCI view's scan */
	err = pciesw_blk_add(pdev);
	if (err)
		goto err_debugfs_del;
	err = pciesw_pci_add(pdev);
	if (err)
		goto err_blk_del;
	err = pciesw_devlink_add(pdev);
	if (err)
		goto err_pci_del;
	err = pciesw_switch_publish(sw);
	if (err)
		goto err_devlink_del;
	/* the creation is announced before the request returns */
	pciesw_switch_sync(sw);
	/* devlink meets a switch that is ready, never one being built */
	pciesw_devlink_register(pdev);
	return 0;

err_devlink_del:
	pciesw_devlink_del(pdev);
err_pci_del:
	pciesw_pci_del(pdev);
err_blk_del:
	pciesw_blk_del(pdev);
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

	pciesw_devlink_unregister(pdev);
	pciesw_switch_unpublish(pdev->sw);
	/* nor of any window of a switch that is gone */
	pciesw_chardev_revoke(pdev, 0, 0, true);
	pciesw_devlink_del(pdev);
	pciesw_pci_del(pdev);
	pciesw_blk_del(pdev);
	pciesw_debugfs_del(pdev);
	pciesw_hwmon_del(pdev);
	pciesw_dev_children_del(pdev);
	cdev_device_del(&pdev->cdev, &pdev->dev);
	xa_erase(&pciesw_devs, id);
	put_device(&pdev->dev);
}

/**
 * pciesw_instance_new - create switch @id
 * @id: 0..PCIESW_MAX_SWITCH_ID
 * @profile: profile name, NULL for the default
 * @why: set to a static message saying what was wrong on failure
 */
int pciesw_instance_new(u32 id, const char *profile, const char **why)
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

int pciesw_instance_del(u32 id, const char **why)
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

int pciesw_instance_init(void)
{
	pciesw_debugfs_init();
	pciesw_hwmon_init();
	pciesw_devlink_init();
	pciesw_dev_view_init();
	pciesw_blk_init();
	return 0;
}

void pciesw_instance_exit(void)
{
	struct pciesw_dev *pdev;
	unsigned long id;

	mutex_lock(&pciesw_devs_lock);
	pciesw_devs_closed = true;
	xa_for_each(&pciesw_devs, id, pdev)
		pciesw_dev_remove(pdev);
	mutex_unlock(&pciesw_devs_lock);
	/*
	 * devlink_free() puts its device from a work that an RCU callback
	 * queues: let the callbacks run, then wait for the releases, which
	 * call into this module (and the views torn down below)
	 */
	rcu_barrier();
	wait_event(pciesw_devs_released, !atomic_read(&pciesw_devs_live));
	pciesw_blk_exit();
	pciesw_dev_view_exit();
	pciesw_devlink_exit();
	pciesw_hwmon_exit();
	pciesw_debugfs_exit();
}
