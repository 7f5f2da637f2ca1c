// SPDX-License-Identifier: GPL-2.0
/*
 * Switch instances: build the model, hang its device and char device off
 * it, then publish it; take it down in exactly the reverse order.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "dev.h"

/* Serializes creation and removal; protects pciesw_devs and _closed. */
static DEFINE_MUTEX(pciesw_devs_lock);
/* id -> struct pciesw_dev, every instance the module owns */
static DEFINE_XARRAY(pciesw_devs);
/* set at unload: no instance may be created after the last is removed */
static bool pciesw_devs_closed;

static void pciesw_dev_release(struct device *dev)
{
	struct pciesw_dev *pdev = to_pciesw_dev(dev);

	pciesw_switch_put(pdev->sw);
	kfree(pdev);
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
	device_initialize(&pdev->dev);
	pdev->dev.bus = &pciesw_bus_type;
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
	err = pciesw_switch_publish(sw);
	if (err)
		goto err_cdev_del;
	return 0;

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

void pciesw_dev_exit(void)
{
	struct pciesw_dev *pdev;
	unsigned long id;

	mutex_lock(&pciesw_devs_lock);
	pciesw_devs_closed = true;
	xa_for_each(&pciesw_devs, id, pdev)
		pciesw_dev_remove(pdev);
	mutex_unlock(&pciesw_devs_lock);
}
