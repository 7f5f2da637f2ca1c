/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch as the rest of the kernel sees it: a device on the pciesw bus
 * whose dev_t is /dev/pcieswN, with child devices for its lane groups,
 * ports and endpoints.  Shared by instance.c, which builds it, and the
 * views that hang off these devices; the model never sees this.
 */
#ifndef _PCIESW_INSTANCE_H
#define _PCIESW_INSTANCE_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/platform_device.h>

#include <pciesw_compat.h>

#include "model/event.h"
#include "model/pciesw.h"

/**
 * struct pciesw_child - a lane group, port or endpoint device
 * @dev: the device; its parent is the switch (group, port) or port (ep)
 * @sw: the switch, referenced for the lifetime of @dev
 * @index: group id, port id or endpoint id in @sw
 * @serial: the endpoint's serial (endpoints only): its id may name a
 *	later endpoint before this device is removed
 * @removing: set once before @dev is removed, so stores on it stop waiting
 *	for the views (pciesw_child_sync())
 */
struct pciesw_child {
	struct device dev;
	struct pciesw_switch *sw;
	u32 index;
	u64 serial;
	bool removing;
};

/**
 * struct pciesw_dev - one switch instance
 * @dev: the pcieswN device; its release frees this structure
 * @cdev: /dev/pcieswN
 * @sw: the model, referenced for the lifetime of @dev
 * @groups: lane group devices, by group id
 * @ports: port devices, by port id; changed only by the dev view
 *	(dev/children.c), from the switch's event queue or while it is not
 *	published
 * @eps: endpoint devices, by endpoint id (likewise)
 * @thermal: the platform device @hwmon hangs off (dev/hwmon.c)
 * @hwmon: the hwmon device of the temperature sensors
 * @dbg: the debugfs directory, owned by the debugfs view (dev/debugfs.c)
 * @blk: the disks of the NVMe drives, owned by the block view (block/disk.c)
 * @pci: the PCI hierarchy while the PCI view is on, owned by the PCI view
 *	(pci*.c), changed only from the switch's event queue or while it is
 *	not published
 * @devlink: the devlink instance (devlink/devlink.c), registered while
 *	the switch is published
 * @inode: the address space every open /dev/pcieswN maps through
 *	(dev/chardev.c), so that an unplug can zap every mapping of a window
 */
struct pciesw_dev {
	struct device dev;
	struct cdev cdev;
	struct pciesw_switch *sw;
	struct pciesw_child *groups[PCIESW_MAX_GROUPS];
	struct pciesw_child *ports[PCIESW_MAX_PORTS];
	struct xarray eps;
	struct platform_device *thermal;
	struct device *hwmon;
	struct pciesw_debugfs *dbg;
	struct pciesw_blk *blk;
	struct pciesw_pci *pci;
	struct devlink *devlink;
	struct inode *inode;
};

static inline struct pciesw_dev *to_pciesw_dev(struct device *dev)
{
	return container_of(dev, struct pciesw_dev, dev);
}

static inline struct pciesw_child *to_pciesw_child(struct device *dev)
{
	return container_of(dev, struct pciesw_child, dev);
}

/*
 * Lock @sw from a sysfs or debugfs file: sleeps (interruptibly) for the
 * model lock, which no one holds across device or debugfs removal, and
 * -ENODEV once the switch is dead.
 */
static inline int pciesw_view_lock(struct pciesw_switch *sw)
{
	const char *why;
	int err;

	err = mutex_lock_interruptible(&sw->lock);
	if (err)
		return err;
	err = pciesw_switch_live(sw, &why);
	if (err)
		mutex_unlock(&sw->lock);
	return err;
}

/* instance.c: the switch instances */
struct pciesw_dev *pciesw_dev_of(struct pciesw_switch *sw);

/* dev/children.c: the child devices */
int pciesw_dev_children_add(struct pciesw_dev *pdev);
void pciesw_dev_children_del(struct pciesw_dev *pdev);
void pciesw_dev_view_init(void);
void pciesw_dev_view_exit(void);

/*
 * After a sysfs store changed @sw: return once every view shows it.  The
 * removal of @dev's own files may be queued ahead of the change, and it
 * waits for running stores: let it proceed meanwhile.  Only for files in
 * @dev's own directory (the lookup does not see into groups); a child's
 * stores use pciesw_child_sync().
 */
static inline void pciesw_sysfs_sync(struct device *dev,
				     struct device_attribute *attr,
				     struct pciesw_switch *sw)
{
	struct kernfs_node *kn;

	kn = sysfs_break_active_protection(&dev->kobj, &attr->attr);
	pciesw_switch_sync(sw);
	if (kn)
		sysfs_unbreak_active_protection(kn);
}

extern pciesw_bus_t pciesw_bus_type;
extern const struct attribute_group *pciesw_dev_groups[];
extern const struct device_type pciesw_switch_devtype;
extern const struct device_type pciesw_group_devtype;
extern const struct device_type pciesw_port_devtype;
extern const struct device_type pciesw_ep_devtype;
extern const struct file_operations pciesw_chardev_fops;
dev_t pciesw_chardev_devt(u32 id);
int pciesw_chardev_add(struct pciesw_dev *pdev);
void pciesw_chardev_put(struct pciesw_dev *pdev);
void pciesw_chardev_revoke(struct pciesw_dev *pdev, u64 pgoff, u64 pages,
			   bool all);

/* dev/hwmon.c */
int pciesw_hwmon_add(struct pciesw_dev *pdev);
void pciesw_hwmon_del(struct pciesw_dev *pdev);
void pciesw_hwmon_init(void);
void pciesw_hwmon_exit(void);

/* dev/debugfs.c */
void pciesw_debugfs_init(void);
void pciesw_debugfs_exit(void);
int pciesw_debugfs_add(struct pciesw_dev *pdev);
void pciesw_debugfs_del(struct pciesw_dev *pdev);

/* block/disk.c */
int pciesw_blk_add(struct pciesw_dev *pdev);
void pciesw_blk_del(struct pciesw_dev *pdev);
void pciesw_blk_init(void);
void pciesw_blk_exit(void);

/* pci/host.c: the PCI view's hierarchies */
int pciesw_pci_add(struct pciesw_dev *pdev);
void pciesw_pci_del(struct pciesw_dev *pdev);

/* devlink/devlink.c */
int pciesw_devlink_add(struct pciesw_dev *pdev);
void pciesw_devlink_register(struct pciesw_dev *pdev);
void pciesw_devlink_unregister(struct pciesw_dev *pdev);
void pciesw_devlink_del(struct pciesw_dev *pdev);

/* devlink/health.c: the health reporters' view */
void pciesw_devlink_init(void);
void pciesw_devlink_exit(void);

#endif /* _PCIESW_INSTANCE_H */
