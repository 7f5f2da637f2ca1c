/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch as the rest of the kernel sees it: a device on the pciesw bus
 * whose dev_t is /dev/pcieswN.  Shared by dev.c and the views that hang off
 * the device (bus.c, chardev.c); the model never sees this.
 */
#ifndef _PCIESW_DEV_H
#define _PCIESW_DEV_H

#include <linux/cdev.h>
#include <linux/device.h>

#include <pciesw_compat.h>

#include "pciesw.h"

/**
 * struct pciesw_dev - one switch instance
 * @dev: the pcieswN device; its release frees this structure
 * @cdev: /dev/pcieswN
 * @sw: the model, referenced for the lifetime of @dev
 */
struct pciesw_dev {
	struct device dev;
	struct cdev cdev;
	struct pciesw_switch *sw;
};

static inline struct pciesw_dev *to_pciesw_dev(struct device *dev)
{
	return container_of(dev, struct pciesw_dev, dev);
}

extern pciesw_bus_t pciesw_bus_type;
extern const struct attribute_group *pciesw_dev_groups[];
extern const struct file_operations pciesw_chardev_fops;
dev_t pciesw_chardev_devt(u32 id);

#endif /* _PCIESW_DEV_H */
