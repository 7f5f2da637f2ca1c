// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/pcieswN: the data path of a switch.  This file holds the file
 * operations and the ioctl ABI checks; dev.c adds the cdev to the device.
 */

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <pciesw_compat.h>
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

static long pciesw_ioctl_ep_map(struct pciesw_switch *sw,
				struct pciesw_ep_map __user *uarg)
{
	struct pciesw_endpoint *ep;
	struct pciesw_ep_map map;

	if (copy_from_user(&map, uarg, sizeof(map)))
		return -EFAULT;
	if (map.size != sizeof(map) || map.flags || map.reserved0 ||
	    map.offset || map.mem_size ||
	    memchr_inv(map.reserved, 0, sizeof(map.reserved)))
		return -EINVAL;

	mutex_lock(&sw->lock);
	ep = sw->dead ? NULL : pciesw_ep_find(sw, map.ep_id);
	if (ep) {
		map.offset = (u64)ep->id << PCIESW_MAP_SHIFT;
		map.mem_size = ep->mem_size;
	}
	mutex_unlock(&sw->lock);
	if (!ep)
		return sw->dead ? -ENODEV : -ENOENT;

	if (copy_to_user(uarg, &map, sizeof(map)))
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
	case PCIESW_IOC_EP_MAP:
		return pciesw_ioctl_ep_map(pdev->sw, uarg);
	default:
		return -ENOTTY;
	}
}

/*
 * Memory window mappings.  The vma holds a reference to the window's page
 * store, so the pages outlive an unplug (or the switch) while mapped.
 */
static void pciesw_vm_open(struct vm_area_struct *vma)
{
	pciesw_mem_get(vma->vm_private_data);
}

static void pciesw_vm_close(struct vm_area_struct *vma)
{
	pciesw_mem_put(vma->vm_private_data);
}

static vm_fault_t pciesw_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct pciesw_mem *mem = vma->vm_private_data;
	unsigned int shift = PCIESW_MAP_SHIFT - PAGE_SHIFT;
	struct page *page;

	/* a mapping never reaches past the window its offset names */
	if (vmf->pgoff >> shift != vma->vm_pgoff >> shift ||
	    pciesw_mem_gone(mem))
		return VM_FAULT_SIGBUS;
	page = pciesw_mem_page(mem, vmf->pgoff & (BIT(shift) - 1));
	if (IS_ERR(page))
		return PTR_ERR(page) == -ENOMEM ? VM_FAULT_OOM :
						  VM_FAULT_SIGBUS;
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct pciesw_vm_ops = {
	.open = pciesw_vm_open,
	.close = pciesw_vm_close,
	.fault = pciesw_vm_fault,
};

static int pciesw_chardev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct pciesw_dev *pdev = file->private_data;
	struct pciesw_switch *sw = pdev->sw;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 start = off & (PCIESW_MEM_MAX - 1);
	u64 len = vma->vm_end - vma->vm_start;
	struct pciesw_endpoint *ep;
	struct pciesw_mem *mem = NULL;

	/* device memory: a private (copy-on-write) view of it makes no sense */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;

	mutex_lock(&sw->lock);
	ep = sw->dead ? NULL : pciesw_ep_find(sw, off >> PCIESW_MAP_SHIFT);
	if (ep && start <= ep->mem_size && len <= ep->mem_size - start)
		mem = pciesw_mem_get(ep->mem);
	mutex_unlock(&sw->lock);
	if (!mem)
		return ep ? -EINVAL : -ENXIO;

	vma->vm_private_data = mem;
	vma->vm_ops = &pciesw_vm_ops;
	/* a core dump would read (and so allocate) the whole window */
	pciesw_vm_flags_set(vma, VM_DONTDUMP | VM_DONTEXPAND);
	return 0;
}

const struct file_operations pciesw_chardev_fops = {
	.owner = THIS_MODULE,
	.open = pciesw_chardev_open,
	.release = pciesw_chardev_release,
	.unlocked_ioctl = pciesw_chardev_ioctl,
	.mmap = pciesw_chardev_mmap,
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
