// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe passthrough ioctls of the block view's disks (and of their
 * partitions), the uAPI of <linux/nvme_ioctl.h> as the nvme driver's
 * namespaces take it (drivers/nvme/host/ioctl.c), so that nvme-cli and
 * smartctl speak NVMe to a drive: NVME_IOCTL_ID, NVME_IOCTL_ADMIN_CMD,
 * NVME_IOCTL_ADMIN64_CMD, NVME_IOCTL_IO_CMD, NVME_IOCTL_IO64_CMD(_VEC)
 * and NVME_IOCTL_SUBMIT_IO; the controller's own (RESET, SUBSYS_RESET,
 * RESCAN) are ENOTTY on a namespace, as there.
 *
 * Checked here as there: a command with flags is EINVAL, an I/O command
 * for another namespace EINVAL, a metadata buffer EINVAL (the namespace
 * has none), data past the queue's max_hw_sectors EINVAL, a bad pointer
 * EFAULT (a read-direction command's buffer is checked before it runs, as
 * the nvme driver pins it first); who may send what is nvme_cmd_allowed()
 * (admin commands need CAP_SYS_ADMIN but for the Identify that forming I/O
 * needs; an I/O command the effects log lists, with no effect beyond the
 * data, goes without it from a file open for writing if it writes, and for
 * reading otherwise; partitions need it for every I/O command but the
 * 32-bit passthrough's), EACCES. The controller (nvme/core.c, the model)
 * executes the command on a bounce buffer; its NVMe status is the ioctl's
 * return value and dword 0 of its completion goes to the struct's result.
 *
 * Each command holds a request of the disk's queue while it runs, which
 * keeps the disk (and @d) there: once the disk is dead the allocation
 * fails with ENODEV, as the nvme driver's does for a removed controller.
 * A command whose effects reach beyond its data to the namespace (Format
 * NVM: NVME_CMD_EFFECTS_CSE_MASK) runs with the queue frozen instead, as
 * nvme_passthru_start() runs it: the I/O in flight completes first, and
 * none starts until it is done (holding references to the disk and the
 * switch, not a request, which the freeze would wait for).
 * While a link on the way is down, a command waits as the requests do, up
 * to blk_timeout_ms (then EIO; a signal: EINTR), but without a request, so
 * that a freeze of the queue does not wait behind it.  The data of a
 * command that succeeds is counted on the ports as a request's is; one
 * that fails (an errno, or an NVMe status) moved none.
 */

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/delay.h>
#include <linux/nvme.h>
#include <linux/nvme_ioctl.h>
#include <linux/pagemap.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include "block/blk.h"
#include "model/event.h"

/* vendor specific commands start here; the kernel lets only root send them */
#define PCIESW_NVME_VENDOR_START	0x80

#ifdef CONFIG_COMPAT_FOR_U64_ALIGNMENT
/* struct nvme_user_io as 32-bit x86 lays it out (no tail padding) */
struct pciesw_nvme_user_io32 {
	__u8	opcode;
	__u8	flags;
	__u16	control;
	__u16	nblocks;
	__u16	rsvd;
	__u64	metadata;
	__u64	addr;
	__u64	slba;
	__u32	dsmgmt;
	__u32	reftag;
	__u16	apptag;
	__u16	appmask;
} __packed;
#define PCIESW_NVME_IOCTL_SUBMIT_IO32 \
	_IOW('N', 0x42, struct pciesw_nvme_user_io32)
#endif

/*
 * A user pointer of the structs: a 32-bit caller's upper bits are
 * ignored, as a 32-bit kernel would.
 */
static void __user *pciesw_nvme_user_ptr(u64 ptr)
{
	if (in_compat_syscall())
		ptr = (compat_uptr_t)ptr;
	return u64_to_user_ptr(ptr);
}

/* The admin commands anyone may send: the Identify data I/O needs. */
static bool pciesw_nvme_admin_allowed(const struct pciesw_nvme_cmd *c)
{
	switch (c->opcode) {
	case nvme_admin_identify:
		switch (c->cdw[10] & 0xff) {
		case NVME_ID_CNS_NS:
		case NVME_ID_CNS_CS_NS:
		case NVME_ID_CNS_NS_CS_INDEP:
		case NVME_ID_CNS_CS_CTRL:
		case NVME_ID_CNS_CTRL:
			return true;
		}
		break;
	case nvme_admin_set_features:
		/* what the driver manages itself: for nobody */
		switch (c->cdw[10] & 0xff) {
		case NVME_FEAT_KATO:
		case NVME_FEAT_HOST_BEHAVIOR:
		case NVME_FEAT_HOST_MEM_BUF:
		case NVME_FEAT_NUM_QUEUES:
		case NVME_FEAT_AUTO_PST:
			return false;
		}
		break;
	}
	return capable(CAP_SYS_ADMIN);
}

/* nvme_cmd_allowed() of drivers/nvme/host/ioctl.c (6.12) */
static bool pciesw_nvme_allowed(const struct pciesw_nvme_cmd *c,
				bool partition, bool can_write)
{
	u32 effects;

	if (partition)
		return capable(CAP_SYS_ADMIN);
	if (c->opcode >= PCIESW_NVME_VENDOR_START ||
	    c->opcode == nvme_fabrics_command)
		return capable(CAP_SYS_ADMIN);
	if (c->admin)
		return pciesw_nvme_admin_allowed(c);
	effects = pciesw_nvme_effects(false, c->opcode);
	if (!(effects & NVME_CMD_EFFECTS_CSUPP))
		return capable(CAP_SYS_ADMIN);
	/* (6.12 lets the UUID selection and scope bits by too: none is set) */
	if (effects & ~(NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC))
		return capable(CAP_SYS_ADMIN);
	if (((c->opcode & 1) || (effects & NVME_CMD_EFFECTS_LBCC)) &&
	    !can_write)
		return capable(CAP_SYS_ADMIN);
	return true;
}

/*
 * A request of the disk's queue for a command, once the disk's drive is
 * there (its link up): the request keeps the disk (and its pciesw_blk_disk)
 * there, and once the disk is dead the allocation fails with ENODEV.
 * While a link on the way is down the command waits as the requests do
 * (*@since: when it began waiting, 0 before), up to blk_timeout_ms, but
 * holding no request: a freeze of the queue (a block size change, a switch
 * of I/O scheduler) does not wait for the link behind it, and holds the
 * command back while it lasts.  The request, or ERR_PTR -ENODEV
 * (removed), -EIO (waited too long), -EINTR.
 */
static struct request *pciesw_nvme_hold(struct request_queue *q, bool to_dev,
					u64 *since)
{
	struct pciesw_blk_disk *d;
	struct request *rq;
	int state;

	for (;;) {
		rq = blk_mq_alloc_request(q, to_dev ? REQ_OP_DRV_OUT :
						      REQ_OP_DRV_IN, 0);
		if (IS_ERR(rq))
			return rq;
		d = q->queuedata;
		state = atomic_read(&d->state);
		if (state == PCIESW_BLK_UP)
			return rq;
		blk_mq_free_request(rq);
		if (state == PCIESW_BLK_DEAD)
			return ERR_PTR(-ENODEV);
		if (pciesw_blk_wait_expired(since))
			return ERR_PTR(-EIO);
		msleep_interruptible(10);
		if (signal_pending(current))
			return ERR_PTR(-EINTR);
	}
}

/*
 * The user's buffer can take what a read-direction command returns: every
 * page of it there and writable, as the nvme driver's pinning of it checks
 * before the command is sent, so that a bad pointer is EFAULT before the
 * command has done anything (a Write Zeroes zeroed, a Format formatted).
 */
static int pciesw_nvme_user_check(u64 ubuf, u32 len, bool vec, size_t bytes)
{
	struct iovec fast[UIO_FASTIOV], *iov = fast;
	void __user *p = pciesw_nvme_user_ptr(ubuf);
	struct iov_iter iter;
	ssize_t n;
	int ret = 0;

	if (!vec)
		return fault_in_writeable(p, len) ? -EFAULT : 0;
	/* @len counts the vectors */
	n = import_iovec(READ, p, len, ARRAY_SIZE(fast), &iov, &iter);
	if (n < 0)
		return n;
	if (fault_in_iov_iter_writeable(&iter, bytes))
		ret = -EFAULT;
	kfree(iov);
	return ret;
}

/* The user's data into the bounce buffer (a write) or out of it (a read). */
static int pciesw_nvme_user_copy(void *buf, u64 ubuf, u32 len, bool vec,
				 bool to_dev, size_t *bytes)
{
	struct iovec fast[UIO_FASTIOV], *iov = fast;
	void __user *p = pciesw_nvme_user_ptr(ubuf);
	struct iov_iter iter;
	ssize_t n;

	if (!vec) {
		*bytes = len;
		if (to_dev)
			return copy_from_user(buf, p, len) ? -EFAULT : 0;
		return copy_to_user(p, buf, len) ? -EFAULT : 0;
	}
	/* @len counts the vectors */
	n = import_iovec(to_dev ? WRITE : READ, p, len, ARRAY_SIZE(fast),
			 &iov, &iter);
	if (n < 0)
		return n;
	if (*bytes == SIZE_MAX) {
		*bytes = n;
	} else if (to_dev ? !copy_from_iter_full(buf, *bytes, &iter) :
			    copy_to_iter(buf, *bytes, &iter) != *bytes) {
		n = -EFAULT;
	}
	kfree(iov);
	return n < 0 ? n : 0;
}

/* The end of a command's freeze of the queue: its references go. */
static void pciesw_nvme_thaw(struct request_queue *q,
			     struct pciesw_blk_disk *d)
{
	struct pciesw_switch *sw = d->sw;

	blk_mq_unfreeze_queue(q);
	pciesw_blk_disk_put(d);
	pciesw_switch_put(sw);
}

/*
 * Run @c on the drive of @bdev with the user's data at @ubuf (@len bytes,
 * or @len vectors with @vec).  The NVMe status, or a negative errno.
 */
static int pciesw_nvme_submit(struct block_device *bdev,
			      struct pciesw_nvme_cmd *c, u64 ubuf, u32 len,
			      u64 umeta, u32 meta_len, bool vec)
{
	struct request_queue *q = bdev->bd_disk->queue;
	bool to_dev = c->opcode & 1;
	struct pciesw_switch *sync = NULL;
	struct request *rq = NULL;
	struct pciesw_blk_disk *d;
	bool freeze = pciesw_nvme_effects(c->admin, c->opcode) &
		      NVME_CMD_EFFECTS_CSE_MASK;
	size_t bytes = 0;
	unsigned int noio;
	void *buf = NULL;
	u64 since = 0;
	int ret, err, state;

	/* the namespace has no metadata */
	if (umeta && meta_len)
		return -EINVAL;
	if (ubuf && len) {
		if (vec) {
			bytes = SIZE_MAX;
			ret = pciesw_nvme_user_copy(NULL, ubuf, len, true,
						    to_dev, &bytes);
			if (ret)
				return ret;
		} else {
			bytes = len;
		}
		if (bytes > (u64)queue_max_hw_sectors(q) << SECTOR_SHIFT)
			return -EINVAL;
	}
	if (bytes) {
		/* zeroed: what the controller leaves out reads as zeros */
		buf = kvzalloc(bytes, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		if (to_dev)
			ret = pciesw_nvme_user_copy(buf, ubuf, len, vec, true,
						    &bytes);
		else
			ret = pciesw_nvme_user_check(ubuf, len, vec, bytes);
		if (ret)
			goto out;
	}
again:
	rq = pciesw_nvme_hold(q, to_dev, &since);
	if (IS_ERR(rq)) {
		ret = PTR_ERR(rq);
		rq = NULL;
		goto out;
	}
	d = q->queuedata;
	c->wce = pciesw_blk_wc_get(q);
	c->nr_io_queues = d->set.nr_hw_queues;
	if (freeze) {
		/*
		 * as nvme_passthru_start(): the disk's I/O in flight done
		 * first, none while it runs.  A freeze waits for every
		 * request, so the command holds the disk by references
		 * instead of its own.
		 */
		refcount_inc(&d->refs);
		kref_get(&d->sw->refs);
		/*
		 * started while the request still keeps the disk, so that
		 * no removal of the disk can come before the freeze's start
		 * (which runs the hardware queues); a removal after it waits
		 * for the freeze as every user of the queue does
		 */
		blk_freeze_queue_start(q);
		blk_mq_free_request(rq);
		rq = NULL;
		blk_mq_freeze_queue_wait(q);
		state = atomic_read(&d->state);
		if (state != PCIESW_BLK_UP) {
			pciesw_nvme_thaw(q, d);
			if (state == PCIESW_BLK_DEAD) {
				ret = -ENODEV;
				goto out;
			}
			goto again;
		}
	}
	c->buf = buf;
	c->len = bytes;
	/* as a request's: window pages made without I/O from reclaim */
	noio = memalloc_noio_save();
	ret = pciesw_nvme_exec(d->nvme, d->sw, c);
	memalloc_noio_restore(noio);
	/* a command the drive failed moved no data: nothing on the ports */
	if (ret == 0 && bytes)
		pciesw_blk_account_host(d, to_dev, bytes);
	if (ret == 0 && c->formatted) {
		sync = d->sw;
		kref_get(&sync->refs);
	}
	/* the user's buffer is written out of the freeze: it may fault */
	if (freeze)
		pciesw_nvme_thaw(q, d);
	if (ret >= 0 && bytes && !to_dev) {
		err = pciesw_nvme_user_copy(buf, ubuf, len, vec, false, &bytes);
		if (err)
			ret = err;
	}
out:
	kvfree(buf);
	if (rq)
		blk_mq_free_request(rq);
	/*
	 * a format: its disk has its new block size when the ioctl returns,
	 * as the nvme driver rescans the namespace before it returns; the
	 * block view freezes the queue for that, so without the request
	 */
	if (sync) {
		pciesw_switch_sync(sync);
		pciesw_switch_put(sync);
	}
	/* the disk's write cache follows Set Features, out of the request */
	if (ret == 0 && c->set_wce >= 0 && c->set_wce != c->wce) {
		err = pciesw_blk_wc_set(q, c->set_wce);
		if (err)
			ret = err;
	}
	return ret;
}

/* The command of a struct nvme_passthru_cmd(64)'s fields. */
static void pciesw_nvme_cmd_of(struct pciesw_nvme_cmd *c, bool admin,
			       const struct nvme_passthru_cmd64 *u)
{
	memset(c, 0, sizeof(*c));
	c->admin = admin;
	c->opcode = u->opcode;
	c->nsid = u->nsid;
	c->cdw[2] = u->cdw2;
	c->cdw[3] = u->cdw3;
	c->cdw[10] = u->cdw10;
	c->cdw[11] = u->cdw11;
	c->cdw[12] = u->cdw12;
	c->cdw[13] = u->cdw13;
	c->cdw[14] = u->cdw14;
	c->cdw[15] = u->cdw15;
}

/*
 * NVME_IOCTL_ADMIN_CMD, NVME_IOCTL_IO_CMD (@is64 false: struct
 * nvme_passthru_cmd, a 32-bit result) and their 64-bit forms.
 */
static int pciesw_nvme_user_cmd(struct block_device *bdev, void __user *argp,
				bool admin, bool is64, bool vec, bool partition,
				bool can_write)
{
	struct nvme_passthru_cmd64 u;
	struct pciesw_nvme_cmd c;
	int status;

	/* the same fields up to the result */
	BUILD_BUG_ON(offsetof(struct nvme_passthru_cmd, timeout_ms) !=
		     offsetof(struct nvme_passthru_cmd64, timeout_ms));
	memset(&u, 0, sizeof(u));
	if (copy_from_user(&u, argp, is64 ? sizeof(u) :
			   sizeof(struct nvme_passthru_cmd)))
		return -EFAULT;
	if (u.flags)
		return -EINVAL;
	if (!admin && u.nsid != PCIESW_NVME_NSID)
		return -EINVAL;
	pciesw_nvme_cmd_of(&c, admin, &u);
	if (!pciesw_nvme_allowed(&c, partition, can_write))
		return -EACCES;
	status = pciesw_nvme_submit(bdev, &c, u.addr, u.data_len, u.metadata,
				    u.metadata_len, vec);
	if (status < 0)
		return status;
	if (is64) {
		struct nvme_passthru_cmd64 __user *p = argp;

		if (put_user((u64)c.result, &p->result))
			return -EFAULT;
	} else {
		struct nvme_passthru_cmd __user *p = argp;

		if (put_user(c.result, &p->result))
			return -EFAULT;
	}
	return status;
}

/* NVME_IOCTL_SUBMIT_IO: a Read, Write or Compare of struct nvme_user_io. */
static int pciesw_nvme_submit_io(struct block_device *bdev,
				 void __user *argp, bool partition,
				 bool can_write)
{
	struct pciesw_nvme_cmd c;
	struct nvme_user_io io;
	unsigned int shift;

	if (copy_from_user(&io, argp, offsetofend(struct nvme_user_io,
						  appmask)))
		return -EFAULT;
	if (io.flags)
		return -EINVAL;
	switch (io.opcode) {
	case nvme_cmd_write:
	case nvme_cmd_read:
	case nvme_cmd_compare:
		break;
	default:
		return -EINVAL;
	}
	/* no metadata, so no protection information to strip or insert */
	if ((io.control & NVME_RW_PRINFO_PRACT) &&
	    pciesw_nvme_user_ptr(io.metadata))
		return -EINVAL;
	shift = ilog2(bdev_logical_block_size(bdev));
	memset(&c, 0, sizeof(c));
	c.opcode = io.opcode;
	c.nsid = PCIESW_NVME_NSID;
	c.cdw[10] = lower_32_bits(io.slba);
	c.cdw[11] = upper_32_bits(io.slba);
	c.cdw[12] = io.nblocks | (u32)io.control << 16;
	c.cdw[13] = io.dsmgmt;
	c.cdw[14] = io.reftag;
	c.cdw[15] = io.apptag | (u32)io.appmask << 16;
	if (!pciesw_nvme_allowed(&c, partition, can_write))
		return -EACCES;
	return pciesw_nvme_submit(bdev, &c, io.addr,
				  ((u32)io.nblocks + 1) << shift, 0, 0, false);
}

/* The disk's ioctl: what the block layer leaves to the driver. */
int pciesw_blk_ioctl(struct block_device *bdev, pciesw_blk_mode_t mode,
		     unsigned int cmd, unsigned long arg)
{
	bool can_write = mode & PCIESW_BLK_OPEN_WRITE;
	bool part = bdev_is_partition(bdev);
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case NVME_IOCTL_ID:
		force_successful_syscall_return();
		return PCIESW_NVME_NSID;
	/* the controller's, as the nvme driver sends them to its admin queue */
	case NVME_IOCTL_ADMIN_CMD:
		return pciesw_nvme_user_cmd(bdev, argp, true, false, false,
					    false, can_write);
	case NVME_IOCTL_ADMIN64_CMD:
		return pciesw_nvme_user_cmd(bdev, argp, true, true, false,
					    false, can_write);
	/* 6.12 checks the partition for all but this one */
	case NVME_IOCTL_IO_CMD:
		return pciesw_nvme_user_cmd(bdev, argp, false, false, false,
					    false, can_write);
	case NVME_IOCTL_IO64_CMD:
		return pciesw_nvme_user_cmd(bdev, argp, false, true, false,
					    part, can_write);
	case NVME_IOCTL_IO64_CMD_VEC:
		return pciesw_nvme_user_cmd(bdev, argp, false, true, true,
					    part, can_write);
#ifdef CONFIG_COMPAT_FOR_U64_ALIGNMENT
	case PCIESW_NVME_IOCTL_SUBMIT_IO32:
#endif
	case NVME_IOCTL_SUBMIT_IO:
		return pciesw_nvme_submit_io(bdev, argp, part, can_write);
	}
	return -ENOTTY;
}
