// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/pcieswN: the data path of a switch.  This file holds the file
 * operations and the ioctl ABI checks; dev.c adds the cdev to the device.
 */

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dev.h"

/* first dev_t of the region; minor N is pcieswN */
static dev_t pciesw_chardev_base;

dev_t pciesw_chardev_devt(u32 id)
{
	return MKDEV(MAJOR(pciesw_chardev_base), id);
}

static int pciesw_chardev_open(struct inode *inode, struct file *file)
{
	struct pciesw_dev *pdev = container_of(inode->i_cdev,
					       struct pciesw_dev, cdev);

	get_device(&pdev->dev);
	file->private_data = pdev;
	return nonseekable_open(inode, file);
}

static int pciesw_chardev_release(struct inode *inode, struct file *file)
{
	struct pciesw_dev *pdev = file->private_data;

	put_device(&pdev->dev);
	return 0;
}

static long pciesw_ioctl_info(struct pciesw_switch *sw,
			      struct pciesw_info __user *uarg)
{
	struct pciesw_info info;

	if (copy_from_user(&info, uarg, sizeof(info)))
		return -EFAULT;
	if (info.size != sizeof(info) || info.flags ||
	    memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.abi_version = PCIESW_ABI_VERSION;

	mutex_lock(&sw->lock);
	if (sw->dead) {
		mutex_unlock(&sw->lock);
		return -ENODEV;
	}
	info.switch_id = sw->id;
	info.nr_lanes = sw->profile->nr_lanes;
	info.nr_groups = sw->nr_groups;
	info.nr_ports = sw->nr_ports;
	info.nr_endpoints = pciesw_switch_nr_endpoints(sw);
	strscpy(info.profile, sw->profile->name, sizeof(info.profile));
	strscpy(info.serial, sw->serial, sizeof(info.serial));
	mutex_unlock(&sw->lock);

	if (copy_to_user(uarg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static long pciesw_chardev_ioctl(struct file *file, unsigned int cmd,
				 unsigned long arg)
{
	struct pciesw_dev *pdev = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case PCIESW_IOC_INFO:
		return pciesw_ioctl_info(pdev->sw, uarg);
	default:
		return -ENOTTY;
	}
}

const struct file_operations pciesw_chardev_fops = {
	.owner = THIS_MODULE,
	.open = pciesw_chardev_open,
	.release = pciesw_chardev_release,
	.unlocked_ioctl = pciesw_chardev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

int pciesw_chardev_init(void)
{
	return alloc_chrdev_region(&pciesw_chardev_base, 0,
				   PCIESW_MAX_SWITCH_ID + 1, "pciesw");
}

void pciesw_chardev_exit(void)
{
	unregister_chrdev_region(pciesw_chardev_base,
				 PCIESW_MAX_SWITCH_ID + 1);
}
