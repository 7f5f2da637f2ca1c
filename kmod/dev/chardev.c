// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/pcieswN: the data path of a switch.  This file holds the file
 * operations and the ioctl ABI checks; the DMA engine's file side
 * (dma_file.c) checks the descriptors and holds the completion queue that
 * read() and poll() use.  instance.c adds the cdev to the device.
 */

#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/pseudo_fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <pciesw_compat.h>
#include "instance.h"

/* first dev_t of the region; minor N is pcieswN */
static dev_t pciesw_chardev_base;

dev_t pciesw_chardev_devt(u32 id)
{
	return MKDEV(MAJOR(pciesw_chardev_base), id);
}

/*
 * Every open /dev/pcieswN of a switch maps through one address space, that
 * of an anonymous inode of this pseudo filesystem (as vfio and DRM do), so
 * that unmap_mapping_range() reaches every mapping of a window whichever
 * device node it was opened through.
 */
#define PCIESW_FS_MAGIC	0x70637377	/* "pcsw" */

static int pciesw_fs_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, PCIESW_FS_MAGIC) ? 0 : -ENOMEM;
}

/*
 * No .owner: a mount would pin the module while any switch exists, and
 * rmmod removes the switches; the last one's release unmounts it (a kernel
 * mount is released synchronously), and no device outlives the module
 * (open files pin it through the cdev).
 */
static struct file_system_type pciesw_fs_type = {
	.name = "pciesw",
	.init_fs_context = pciesw_fs_init_fs_context,
	.kill_sb = kill_anon_super,
};

/* simple_pin_fs() serializes these with its own lock */
static struct vfsmount *pciesw_fs_mnt;
static int pciesw_fs_count;

int pciesw_chardev_add(struct pciesw_dev *pdev)
{
	struct inode *inode;
	int err;

	err = simple_pin_fs(&pciesw_fs_type, &pciesw_fs_mnt, &pciesw_fs_count);
	if (err)
		return err;
	inode = alloc_anon_inode(pciesw_fs_mnt->mnt_sb);
	if (IS_ERR(inode)) {
		simple_release_fs(&pciesw_fs_mnt, &pciesw_fs_count);
		return PTR_ERR(inode);
	}
	pdev->inode = inode;
	return 0;
}

/* At the device's release: no file, so no mapping, is left. */
void pciesw_chardev_put(struct pciesw_dev *pdev)
{
	if (!pdev->inode)
		return;
	iput(pdev->inode);
	pdev->inode = NULL;
	simple_release_fs(&pciesw_fs_mnt, &pciesw_fs_count);
}

/*
 * Zap every mapping of the window at page offset @pgoff, @pages long (of
 * every window with @all): the endpoint is unplugged, its page store gone,
 * so the next access faults and gets SIGBUS (pciesw_vm_fault()), pages
 * touched before too.  The unplug waited for the faults that had found the
 * window there (pciesw_mem_unplug()): what they mapped is zapped here.
 */
void pciesw_chardev_revoke(struct pciesw_dev *pdev, u64 pgoff, u64 pages,
			   bool all)
{
	if (all)
		unmap_mapping_range(pdev->inode->i_mapping, 0, 0, 1);
	else
		unmap_mapping_range(pdev->inode->i_mapping,
				    (loff_t)pgoff << PAGE_SHIFT,
				    (loff_t)pages << PAGE_SHIFT, 1);
}

/**
 * struct pciesw_chardev_file - an open /dev/pcieswN
 * @pdev: the switch instance, referenced while open
 * @dma: its DMA submissions and completions
 */
struct pciesw_chardev_file {
	struct pciesw_dev *pdev;
	struct pciesw_dma_file *dma;
};

static int pciesw_chardev_open(struct inode *inode, struct file *file)
{
	struct pciesw_dev *pdev = container_of(inode->i_cdev,
					       struct pciesw_dev, cdev);
	struct pciesw_chardev_file *cf;

	cf = kzalloc(sizeof(*cf), GFP_KERNEL_ACCOUNT);
	if (!cf)
		return -ENOMEM;
	cf->dma = pciesw_dma_file_open(pdev->sw, file->f_mode & FMODE_READ,
				       file->f_mode & FMODE_WRITE);
	if (!cf->dma) {
		kfree(cf);
		return -ENOMEM;
	}
	get_device(&pdev->dev);
	cf->pdev = pdev;
	file->private_data = cf;
	file->f_mapping = pdev->inode->i_mapping;
	return nonseekable_open(inode, file);
}

/* DMA still in flight for this file is cancelled or waited for. */
static int pciesw_chardev_release(struct inode *inode, struct file *file)
{
	struct pciesw_chardev_file *cf = file->private_data;

	pciesw_dma_file_release(cf->dma);
	put_device(&cf->pdev->dev);
	kfree(cf);
	return 0;
}

/*
 * The extensible structures of the ioctls (include/uapi/linux/pciesw.h):
 * @usize bytes at @uarg into @ksize at @dst, as clone3() and openat2()
 * take theirs: below @min is EINVAL, above a page E2BIG, beyond @ksize
 * only zeros (E2BIG otherwise), short of it zero-filled.
 */
static int pciesw_copy_struct_in(void *dst, size_t ksize, size_t min,
				 const void __user *uarg, u32 usize)
{
	if (usize < min)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(dst, ksize, uarg, usize);
}

/*
 * The caller's size (every structure starts with its __u32 size), then
 * its structure: the size read first is the one used, whatever the caller
 * changed in between.
 */
static int pciesw_get_struct(void *kstruct, size_t ksize, size_t min,
			     const void __user *uarg, u32 *usize)
{
	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	return pciesw_copy_struct_in(kstruct, ksize, min, uarg, *usize);
}

/*
 * Write back an output structure, as much of it as the caller has room
 * for (its @size), and that size in @size.
 */
static int pciesw_put_struct(void __user *uarg, void *kstruct, size_t ksize,
			     u32 usize)
{
	u32 n = min_t(size_t, usize, ksize);

	/* every structure starts with its __u32 size */
	memcpy(kstruct, &n, sizeof(n));
	return copy_to_user(uarg, kstruct, n) ? -EFAULT : 0;
}

/* What this module has, for PCIESW_IOC_INFO's features. */
#define PCIESW_FEATURES	(PCIESW_FEATURE_EXTENSIBLE |			\
			 PCIESW_FEATURE_COMPLETION_V2 |			\
			 PCIESW_FEATURE_MAP_OFFSET_32 |			\
			 PCIESW_FEATURE_NO_ID_REUSE |			\
			 PCIESW_FEATURE_DMA_FILE_MODE |			\
			 PCIESW_FEATURE_MAP_REVOKE |			\
			 PCIESW_FEATURE_EP_DISCARD)

static long pciesw_ioctl_info(struct pciesw_switch *sw,
			      struct pciesw_info __user *uarg)
{
	struct pciesw_info info;
	const char *why;
	u32 usize;
	int err;

	err = pciesw_get_struct(&info, sizeof(info), PCIESW_INFO_SIZE_VER0,
				uarg, &usize);
	if (err)
		return err;
	if (info.flags || info.reserved1 ||
	    memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	info.abi_version = PCIESW_ABI_VERSION;
	info.features = PCIESW_FEATURES;
	info.completion_version = PCIESW_DMA_COMPLETION_V2;

	mutex_lock(&sw->lock);
	err = pciesw_switch_live(sw, &why);
	if (err) {
		mutex_unlock(&sw->lock);
		return err;
	}
	info.switch_id = sw->id;
	info.nr_lanes = sw->profile->nr_lanes;
	info.nr_groups = sw->nr_groups;
	info.nr_ports = sw->nr_ports;
	info.nr_endpoints = pciesw_switch_nr_endpoints(sw);
	strscpy(info.profile, sw->profile->name, sizeof(info.profile));
	/* root-only, as in sysfs and netlink: "" for the others */
	if (capable(CAP_SYS_ADMIN))
		strscpy(info.serial, sw->serial, sizeof(info.serial));
	mutex_unlock(&sw->lock);

	return pciesw_put_struct(uarg, &info, sizeof(info), usize);
}

static long pciesw_ioctl_ep_map(struct pciesw_switch *sw,
				struct pciesw_ep_map __user *uarg)
{
	struct pciesw_endpoint *ep;
	struct pciesw_ep_map map;
	u32 usize;
	int err;

	err = pciesw_get_struct(&map, sizeof(map), PCIESW_EP_MAP_SIZE_VER0,
				uarg, &usize);
	if (err)
		return err;
	/*
	 * @offset and @mem_size are outputs: whatever they hold on input
	 * (a structure reused from an earlier call) is overwritten.
	 */
	if (map.flags || map.reserved0 ||
	    memchr_inv(map.reserved, 0, sizeof(map.reserved)))
		return -EINVAL;

	mutex_lock(&sw->lock);
	ep = pciesw_ep_lookup(sw, map.ep_id, U64_MAX);
	if (!IS_ERR(ep)) {
		map.offset = ep->map_pgoff << PAGE_SHIFT;
		map.mem_size = ep->mem_size;
	}
	mutex_unlock(&sw->lock);
	if (IS_ERR(ep))
		return PTR_ERR(ep);

	return pciesw_put_struct(uarg, &map, sizeof(map), usize);
}

/*
 * The descriptors of a batch, @desc_size bytes each: an older caller's
 * shorter ones are zero-filled, a newer caller's longer ones must have
 * only zeros past what the module knows (E2BIG, *@bad names the first
 * that has not).
 */
static int pciesw_get_descs(struct pciesw_dma_desc *descs, u64 udescs,
			    u32 desc_size, u32 n, u32 *bad)
{
	const char __user *p = u64_to_user_ptr(udescs);
	u32 i;
	int err;

	if (desc_size == sizeof(*descs))
		return copy_from_user(descs, p, array_size(n, sizeof(*descs))) ?
		       -EFAULT : 0;
	for (i = 0; i < n; i++, p += desc_size) {
		err = copy_struct_from_user(&descs[i], sizeof(*descs), p,
					    desc_size);
		if (err) {
			if (err == -E2BIG)
				*bad = i;
			return err;
		}
	}
	return 0;
}

/*
 * The ABI checks of the submit structure; the model checks the
 * descriptors.  On failure nr_submitted is 0 and error_index names the
 * descriptor at fault, or PCIESW_DMA_NO_INDEX (also on success).
 */
static long pciesw_ioctl_dma_submit(struct pciesw_chardev_file *cf,
				    struct pciesw_dma_submit __user *uarg)
{
	struct pciesw_dma_desc *descs = NULL;
	struct pciesw_dma_submit sub;
	u32 idx = PCIESW_DMA_NO_INDEX;
	u32 usize;
	int err;

	err = pciesw_get_struct(&sub, sizeof(sub), PCIESW_DMA_SUBMIT_SIZE_VER0,
				uarg, &usize);
	if (err)
		return err;
	if (sub.flags || sub.desc_size < PCIESW_DMA_DESC_SIZE_VER0 ||
	    memchr_inv(sub.reserved, 0, sizeof(sub.reserved)) ||
	    !pciesw_dma_batch_ok(sub.nr_descs)) {
		err = -EINVAL;
		goto out;
	}
	if (sub.desc_size > PAGE_SIZE) {
		err = -E2BIG;
		goto out;
	}
	descs = kvmalloc_array(sub.nr_descs, sizeof(*descs),
			       GFP_KERNEL_ACCOUNT);
	if (!descs) {
		err = -ENOMEM;
		goto out;
	}
	err = pciesw_get_descs(descs, sub.descs, sub.desc_size, sub.nr_descs,
			       &idx);
	if (err)
		goto out;
	err = pciesw_dma_submit(cf->dma, descs, sub.nr_descs, &idx);
out:
	kvfree(descs);
	sub.nr_submitted = err ? 0 : sub.nr_descs;
	sub.error_index = idx;
	/*
	 * The outcome stays that of the submission: once submitted, the
	 * completions tell even a caller whose structure is read-only.
	 */
	if (put_user(sub.nr_submitted, &uarg->nr_submitted))
		return err;
	put_user(sub.error_index, &uarg->error_index);
	return err;
}

static long pciesw_ioctl_completion_fmt(struct pciesw_chardev_file *cf,
					struct pciesw_completion_fmt __user *uarg)
{
	struct pciesw_completion_fmt fmt;
	u32 usize;
	int err;

	err = pciesw_get_struct(&fmt, sizeof(fmt), PCIESW_COMPLETION_FMT_SIZE_VER0,
				uarg, &usize);
	if (err)
		return err;
	if (fmt.flags || fmt.record_size ||
	    memchr_inv(fmt.reserved, 0, sizeof(fmt.reserved)) ||
	    fmt.version > PCIESW_DMA_COMPLETION_V2)
		return -EINVAL;
	err = pciesw_dma_file_format(cf->dma, &fmt.version, &fmt.record_size);
	if (err)
		return err;
	return pciesw_put_struct(uarg, &fmt, sizeof(fmt), usize);
}

/*
 * Give a range of an endpoint's window back (PCIESW_IOC_EP_DISCARD): its
 * pages are freed and every mapping of the range zapped, so that it reads
 * as zeros everywhere.  Writes the window: a file open for writing.
 */
static long pciesw_ioctl_ep_discard(struct pciesw_chardev_file *cf,
				    struct file *file,
				    struct pciesw_ep_discard __user *uarg)
{
	struct pciesw_switch *sw = cf->pdev->sw;
	struct pciesw_ep_discard dis;
	struct pciesw_endpoint *ep;
	struct pciesw_mem *mem = NULL;
	u64 end;
	u32 usize;
	long err;

	err = pciesw_get_struct(&dis, sizeof(dis), PCIESW_EP_DISCARD_SIZE_VER0,
				uarg, &usize);
	if (err)
		return err;
	if (dis.flags || dis.reserved0 ||
	    dis.freed || memchr_inv(dis.reserved, 0, sizeof(dis.reserved)) ||
	    !dis.len || !IS_ALIGNED(dis.offset, PAGE_SIZE) ||
	    !IS_ALIGNED(dis.len, PAGE_SIZE))
		return -EINVAL;
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (check_add_overflow(dis.offset, dis.len, &end))
		return -EOVERFLOW;

	mutex_lock(&sw->lock);
	ep = pciesw_ep_lookup(sw, dis.ep_id, U64_MAX);
	if (IS_ERR(ep))
		err = PTR_ERR(ep);
	else if (end > ep->mem_size)
		err = -ERANGE;
	else
		mem = pciesw_mem_get(ep->mem);
	mutex_unlock(&sw->lock);
	if (err)
		return err;

	dis.freed = pciesw_mem_discard(mem, dis.offset >> PAGE_SHIFT,
				       dis.len >> PAGE_SHIFT);
	/* after the discard: no fault maps a page it took out (model/mem.c) */
	pciesw_mem_zap(mem, dis.offset, dis.len);
	pciesw_mem_put(mem);
	return pciesw_put_struct(uarg, &dis, sizeof(dis), usize);
}

/*
 * A command is matched without the size in it: that is the size of the
 * caller's structure when it was built, and the structure's own size field
 * says what the caller passes (an older or newer header than the module's).
 */
#define PCIESW_IOC_NOSIZE(cmd)	((cmd) & ~IOCSIZE_MASK)

static long pciesw_chardev_ioctl(struct file *file, unsigned int cmd,
				 unsigned long arg)
{
	struct pciesw_chardev_file *cf = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (PCIESW_IOC_NOSIZE(cmd)) {
	case PCIESW_IOC_NOSIZE(PCIESW_IOC_INFO):
		return pciesw_ioctl_info(cf->pdev->sw, uarg);
	case PCIESW_IOC_NOSIZE(PCIESW_IOC_EP_MAP):
		return pciesw_ioctl_ep_map(cf->pdev->sw, uarg);
	case PCIESW_IOC_NOSIZE(PCIESW_IOC_DMA_SUBMIT):
		return pciesw_ioctl_dma_submit(cf, uarg);
	case PCIESW_IOC_NOSIZE(PCIESW_IOC_COMPLETION_FMT):
		return pciesw_ioctl_completion_fmt(cf, uarg);
	case PCIESW_IOC_NOSIZE(PCIESW_IOC_EP_DISCARD):
		return pciesw_ioctl_ep_discard(cf, file, uarg);
	default:
		return -ENOTTY;
	}
}

/* Completion records of the file's version, whole ones only. */
static ssize_t pciesw_chardev_read(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct pciesw_chardev_file *cf = file->private_data;

	return pciesw_dma_read(cf->dma, buf, count,
			       file->f_flags & O_NONBLOCK);
}

/* POLLIN: a completion is ready; POLLHUP: the switch is gone, none left */
static __poll_t pciesw_chardev_poll(struct file *file, poll_table *wait)
{
	struct pciesw_chardev_file *cf = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, pciesw_dma_file_wait(cf->dma), wait);
	if (pciesw_dma_readable(cf->dma))
		mask |= EPOLLIN | EPOLLRDNORM;
	else if (pciesw_dma_file_dead(cf->dma))
		mask |= EPOLLHUP | EPOLLERR;
	return mask;
}

/*
 * Memory window mappings.  The vma holds a reference to the window's page
 * store, so the pages outlive an unplug (or the switch) while mapped, and
 * counts as one of its mappings (pciesw_mem_map()): a page made where a
 * read mapped the zero page zaps that.
 */
static void pciesw_vm_open(struct vm_area_struct *vma)
{
	struct pciesw_mem *mem = pciesw_mem_get(vma->vm_private_data);
	u64 span = pciesw_map_span(pciesw_mem_size(mem));

	pciesw_mem_map(mem, vma->vm_file->f_mapping,
		       vma->vm_pgoff & ~(span - 1));
}

static void pciesw_vm_close(struct vm_area_struct *vma)
{
	pciesw_mem_unmap(vma->vm_private_data);
	pciesw_mem_put(vma->vm_private_data);
}

/*
 * The window's page index of the fault, or -1 when the fault is past the
 * window (a mapping never reaches past the window its offset names) or
 * the window is gone.
 */
static s64 pciesw_vm_idx(struct vm_fault *vmf)
{
	struct pciesw_mem *mem = vmf->vma->vm_private_data;
	u64 span = pciesw_map_span(pciesw_mem_size(mem));
	/* the window's offset is aligned to its span (model/endpoint.c) */
	u64 base = vmf->vma->vm_pgoff & ~(span - 1);

	if ((vmf->pgoff & ~(span - 1)) != base || pciesw_mem_gone(mem))
		return -1;
	return vmf->pgoff - base;
}

static vm_fault_t pciesw_vm_fault(struct vm_fault *vmf)
{
	struct pciesw_mem *mem = vmf->vma->vm_private_data;
	s64 idx = pciesw_vm_idx(vmf);
	struct page *page;

	if (idx < 0)
		return VM_FAULT_SIGBUS;
	/*
	 * referenced: a discard of the window cannot free it under us;
	 * locked: nor leave it mapped (pciesw_mem_discard()); a read of a
	 * hole maps the zero page, which the first write replaces
	 */
	page = pciesw_mem_fault_page(mem, idx, vmf->flags & FAULT_FLAG_WRITE);
	/*
	 * as shmem: the memory cgroup's limit (-ENOMEM) is VM_FAULT_OOM,
	 * the module's limit (-ENOSPC, a full tmpfs) SIGBUS
	 */
	if (IS_ERR(page))
		return vmf_error(PTR_ERR(page));
	vmf->page = page;
	return VM_FAULT_LOCKED;
}

/*
 * A write to a page mapped read only: a shared writable mapping has its
 * pages so until first written, because this exists (vma_wants_writenotify()).
 */
static vm_fault_t pciesw_vm_page_mkwrite(struct vm_fault *vmf)
{
	s64 idx = pciesw_vm_idx(vmf);

	if (idx < 0)
		return VM_FAULT_SIGBUS;
	return pciesw_mem_mkwrite(vmf->vma->vm_private_data, idx, vmf->page);
}

static const struct vm_operations_struct pciesw_vm_ops = {
	.open = pciesw_vm_open,
	.close = pciesw_vm_close,
	.fault = pciesw_vm_fault,
	.page_mkwrite = pciesw_vm_page_mkwrite,
};

static int pciesw_chardev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct pciesw_chardev_file *cf = file->private_data;
	struct pciesw_switch *sw = cf->pdev->sw;
	u64 len = vma->vm_end - vma->vm_start;
	u64 start = 0;
	struct pciesw_endpoint *ep;
	struct pciesw_mem *mem = NULL;

	/*
	 * device memory: a private (copy-on-write) view of it makes no sense.
	 * VM_MAYSHARE, not VM_SHARED: mmap() clears VM_SHARED of a MAP_SHARED
	 * mapping of a file not open for writing (a read-only mapping of an
	 * O_RDONLY file, which VM_MAYWRITE being clear keeps read-only).
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;

	mutex_lock(&sw->lock);
	ep = pciesw_ep_lookup(sw, 0, vma->vm_pgoff);
	if (IS_ERR(ep))
		ep = NULL;
	else
		start = (u64)(vma->vm_pgoff - ep->map_pgoff) << PAGE_SHIFT;
	if (ep && start <= ep->mem_size && len <= ep->mem_size - start) {
		mem = pciesw_mem_get(ep->mem);
		pciesw_mem_map(mem, file->f_mapping, ep->map_pgoff);
	}
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
	.read = pciesw_chardev_read,
	.poll = pciesw_chardev_poll,
	.unlocked_ioctl = pciesw_chardev_ioctl,
	.mmap = pciesw_chardev_mmap,
	.compat_ioctl = compat_ptr_ioctl,
};

/* A 32-bit process's layout is the same: compat_ptr_ioctl is enough. */
static_assert(sizeof(struct pciesw_info) == PCIESW_INFO_SIZE_VER1);
static_assert(offsetof(struct pciesw_info, features) ==
	      PCIESW_INFO_SIZE_VER0);
static_assert(sizeof(struct pciesw_ep_map) == PCIESW_EP_MAP_SIZE_VER0);
static_assert(sizeof(struct pciesw_dma_submit) ==
	      PCIESW_DMA_SUBMIT_SIZE_VER0);
static_assert(sizeof(struct pciesw_dma_desc) == PCIESW_DMA_DESC_SIZE_VER0);
static_assert(sizeof(struct pciesw_completion_fmt) ==
	      PCIESW_COMPLETION_FMT_SIZE_VER0);
static_assert(sizeof(struct pciesw_ep_discard) == PCIESW_EP_DISCARD_SIZE_VER0);
static_assert(sizeof(struct pciesw_dma_completion) == 32);
static_assert(sizeof(struct pciesw_dma_completion2) == 64);

/* In event order: no mapping of an unplugged endpoint's window outlives it. */
static void pciesw_chardev_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_dev *pdev;

	if (ev->type != PCIESW_EV_EP_DEL)
		return;
	pdev = pciesw_dev_of(ev->sw);
	if (pdev)
		pciesw_chardev_revoke(pdev, ev->ep_map_pgoff,
				      ev->ep_map_pages, false);
}

static const struct pciesw_view pciesw_chardev_view = {
	.apply = pciesw_chardev_apply,
};

int pciesw_chardev_init(void)
{
	int err = alloc_chrdev_region(&pciesw_chardev_base, 0,
				      PCIESW_MAX_SWITCH_ID + 1, "pciesw");

	if (!err)
		pciesw_view_register(PCIESW_VIEW_CHARDEV, &pciesw_chardev_view);
	return err;
}

void pciesw_chardev_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_CHARDEV);
	unregister_chrdev_region(pciesw_chardev_base,
				 PCIESW_MAX_SWITCH_ID + 1);
}
