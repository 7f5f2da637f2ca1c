// SPDX-License-Identifier: GPL-2.0
/*
 * The block view: every NVMe drive of a switch is a blk-mq disk whose data
 * is the drive's memory window (model/mem.c), the same bytes the DMA engine and
 * mmap of /dev/pcieswN see.  Modelled on drivers/block/null_blk and brd.c:
 * requests are served inline from the sparse page store, a discard or
 * write-zeroes gives the window's pages back.  A write's new pages are
 * charged to the memory cgroup of its bio (pciesw_blk_memcg_enter()) and
 * allocated in the NOIO scope (memalloc_noio_save()), as brd's: reclaim
 * must not wait for I/O that may be queued behind this request; past
 * the module's mem_limit_mb (model/mem.c) a write fails with BLK_STS_NOSPC
 * (ENOSPC), what was written before it in the request staying written.
 *
 * Names: pcieswSnI for NVMe drive nvmeI of switch S (partitions pcieswSnIpP),
 * stable for a switch and endpoint and apart from the nvme driver's nvmeCnN.
 * The disk hangs off the endpoint's PCI device while the PCI view is on (so
 * udev's by-path links name it), else off the pciesw endpoint device.
 *
 * Every request is a transfer through the switch model, the drive being the
 * bus master: a read is the drive's memory writes to host memory (posted
 * bytes in on the drive's port, out on the upstream port), a write its read
 * requests and their completions; both count on the two ports (traffic
 * counters, the thermal model, the ports' bit-error rates).  With pacing on
 * a request is booked on the bandwidth model (model/route.c) and completes at
 * its modelled end, from an hrtimer (with an I/O error if the drive or the GPU
 * it went to was unplugged or the disk removed by then). Each uncorrectable
 * error counted on the drive's port since the last request fails one request
 * with an I/O error (counted in the disk's io_errors); correctable errors only
 * count.
 *
 * The link: while the drive's or the upstream link is down but not
 * surprise-removed (disabled, hot reset, training), requests wait, as on an
 * NVMe controller reset, and fail once they have waited blk_timeout_ms
 * (30 s, nvme's io_timeout); they resume when the link is back.  A surprise
 * down of the drive's link, an unplug, a re-bifurcation that removes its
 * port, a change of the PCI view or removing the switch remove the disk as
 * an NVMe hot removal does (blk_mark_disk_dead(), then del_gendisk()): what
 * is in flight and what comes fails with I/O errors.  When the link trains
 * again (or a drive is plugged in) a new disk appears.
 *
 * The view follows the model's events (model/event.c) in two slots: with
 * sw->lock held, a snapshot sets each disk's state at once (new requests see it
 * without a lock); later, PCIESW_VIEW_BLK_GO, before the PCI and dev views,
 * removes the disks that went, and PCIESW_VIEW_BLK, after them, adds those
 * whose drive's link came up (and gives a formatted drive's disk its new
 * logical block size, and sends a drive's asynchronous events as uevents). Both
 * run from the switch's event work, so disks are added and removed by one
 * thread.
 *
 * With the PCI view on, a disk hangs off its drive's PCI function while the
 * module's PCI driver is bound to it: it comes when the function is bound
 * (the view's own scan, pciehp, a rescan) and goes in the driver's remove
 * (pciehp, `echo 1 > .../remove`), before the function does.
 *
 * This file adds and removes the disks as the model's events say; the
 * requests are served in io.c, the passthrough ioctls in ioctl.c,
 * and each disk has the drive's sensors in hwmon (hwmon.c) for its
 * lifetime; blk.h is what they share.
 *
 * Locks: the PCI core's (device lock of the function, rescan lock) ->
 * pciesw_blk.attach_lock -> sw->lock -> pciesw_blk.lock.  Requests take
 * sw->lock only to book a paced transfer; the hardware queues are blocking
 * (BLK_MQ_F_BLOCKING).
 */

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "block/blk.h"

static bool pciesw_blk_on = true;
module_param_named(blk, pciesw_blk_on, bool, 0444);
MODULE_PARM_DESC(blk, "NVMe drives are block devices, default 1");

/*
 * Each drive is its own controller with its own tag set.  The defaults are
 * what a small controller advertises: two I/O queues (submitters on two
 * CPUs do not share tags, as on NVMe), 64 deep (null_blk's depth); every
 * queue costs its requests, tags and per-CPU context maps.
 */
static unsigned int pciesw_blk_hw_queues = 2;
module_param_named(blk_hw_queues, pciesw_blk_hw_queues, uint, 0444);
MODULE_PARM_DESC(blk_hw_queues,
		 "Hardware queues of each NVMe drive's disk, 1-64 (default 2)");

static unsigned int pciesw_blk_queue_depth = 64;
module_param_named(blk_queue_depth, pciesw_blk_queue_depth, uint, 0444);
MODULE_PARM_DESC(blk_queue_depth,
		 "Depth of each hardware queue, 1-1024 (default 64)");

/* ---- disks ---- */

/*
 * Drop a reference to @d (struct pciesw_blk_disk's @refs); the last frees
 * it.  Process context.
 */
void pciesw_blk_disk_put(struct pciesw_blk_disk *d)
{
	if (!refcount_dec_and_test(&d->refs))
		return;
	if (d->parent)
		put_device(d->parent);
	pciesw_nvme_put(d->nvme);
	pciesw_mem_put(d->mem);
	kfree(d);
}

/* Make and add the disk of @d, listed already; false when it failed. */
static bool pciesw_blk_disk_add(struct pciesw_blk_disk *d)
{
	struct queue_limits lim = {
		.logical_block_size = d->block_size,
		.physical_block_size = d->block_size,
		.io_min = d->block_size,
		.max_hw_sectors = PCIESW_BLK_MAX_SECTORS,
		.max_hw_discard_sectors = UINT_MAX >> SECTOR_SHIFT,
		.max_write_zeroes_sectors = UINT_MAX >> SECTOR_SHIFT,
		.discard_granularity = PAGE_SIZE,
	};
	struct gendisk *disk;
	int err;

	d->set.ops = &pciesw_blk_mq_ops;
	d->set.nr_hw_queues = clamp(pciesw_blk_hw_queues, 1U, 64U);
	d->set.queue_depth = clamp(pciesw_blk_queue_depth, 1U, 1024U);
	d->set.numa_node = NUMA_NO_NODE;
	d->set.cmd_size = sizeof(struct pciesw_blk_cmd);
	/*
	 * no I/O scheduler unless one is chosen (as a multi-queue drive): it
	 * would allocate a second set of requests and gains a RAM disk
	 * nothing
	 */
	d->set.flags = BLK_MQ_F_BLOCKING | BLK_MQ_F_SHOULD_MERGE |
		       BLK_MQ_F_NO_SCHED_BY_DEFAULT;
	d->set.driver_data = d;
	err = blk_mq_alloc_tag_set(&d->set);
	if (err)
		goto err;
	disk = pciesw_blk_alloc_disk(&d->set, &lim, d);
	if (IS_ERR(disk)) {
		err = PTR_ERR(disk);
		goto err_set;
	}
	disk->fops = &pciesw_blk_fops;
	disk->private_data = d;
	strscpy(disk->disk_name, d->name, sizeof(disk->disk_name));
	set_capacity(disk, d->size >> SECTOR_SHIFT);
	err = device_add_disk(d->parent, disk, NULL);
	if (err) {
		put_disk(disk);
		goto err_set;
	}
	d->disk = disk;
	pciesw_blk_hwmon_add(d);
	return true;

err_set:
	blk_mq_free_tag_set(&d->set);
err:
	pr_err("pciesw: %s: cannot add the disk: %d\n", d->name, err);
	return false;
}

/* A hot removal: what is in flight and what comes fails, the disk goes. */
static void pciesw_blk_disk_del(struct pciesw_blk_disk *d)
{
	if (d->disk) {
		pciesw_blk_hwmon_del(d);
		blk_mark_disk_dead(d->disk);
		del_gendisk(d->disk);
		put_disk(d->disk);
		blk_mq_free_tag_set(&d->set);
	}
	pciesw_blk_disk_put(d);
}

/* ---- the view ---- */

static struct pciesw_blk *pciesw_blk_of(struct pciesw_switch *sw)
{
	struct pciesw_dev *pdev = pciesw_dev_of(sw);

	return pdev ? pdev->blk : NULL;
}

static bool pciesw_blk_port_up(const struct pciesw_port *port)
{
	return port && pciesw_link_active(port);
}

/* With sw->lock: the state the model gives disk @d now. */
static enum pciesw_blk_state pciesw_blk_state_of(struct pciesw_switch *sw,
						 struct pciesw_blk_disk *d)
{
	struct pciesw_endpoint *ep = pciesw_ep_find(sw, d->ep_id);
	struct pciesw_port *up;

	if (sw->dead || !ep || ep->serial != d->ep_serial ||
	    ep->port->link.surprise_down != d->surprise ||
	    !ep->port->present ||
	    d->pci != pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW))
		return PCIESW_BLK_DEAD;
	up = pciesw_port_by_lane(sw, d->up_lane);
	if (!pciesw_blk_port_up(ep->port) || !pciesw_blk_port_up(up) ||
	    up->role != PCIESW_PORT_ROLE_UPSTREAM ||
	    (d->pci && ep->bus_master_off))
		return PCIESW_BLK_WAIT;
	return PCIESW_BLK_UP;
}

/*
 * With sw->lock held, when the model changes: every disk's state follows
 * at once.  The dead stay listed until PCIESW_VIEW_BLK_GO removes them.
 */
static void *pciesw_blk_snapshot(const struct pciesw_event *ev)
{
	struct pciesw_blk *blk = pciesw_blk_of(ev->sw);
	struct pciesw_blk_disk *d;
	unsigned long dead = 0;

	if (!blk)
		return NULL;
	switch (ev->type) {
	case PCIESW_EV_EP_DEL:
	case PCIESW_EV_EP_CHANGE:
	case PCIESW_EV_PORT_CHANGE:
	case PCIESW_EV_PORTS_REMOVE:
	case PCIESW_EV_SWITCH_CHANGE:
	case PCIESW_EV_SWITCH_DELETE:
		break;
	default:
		return NULL;
	}
	spin_lock(&blk->lock);
	list_for_each_entry(d, &blk->disks, node) {
		enum pciesw_blk_state s = pciesw_blk_state_of(ev->sw, d);

		/* the endpoint is still listed while its removal is raised */
		if (ev->type == PCIESW_EV_EP_DEL && ev->ep_id == d->ep_id)
			s = PCIESW_BLK_DEAD;
		if (ev->type == PCIESW_EV_SWITCH_DELETE)
			s = PCIESW_BLK_DEAD;
		if (ev->type == PCIESW_EV_PORTS_REMOVE &&
		    (test_bit(d->port_id, ev->ports) || test_bit(0, ev->ports)))
			s = PCIESW_BLK_DEAD;
		if (atomic_read(&d->state) != PCIESW_BLK_DEAD)
			atomic_set(&d->state, s);
		dead |= s == PCIESW_BLK_DEAD;
	}
	spin_unlock(&blk->lock);
	/* any non-NULL snapshot: there is something to remove */
	return dead ? blk : NULL;
}

/*
 * Before the PCI and dev views: the dead disks go, their parents stay.
 * With attach_lock, as an unbinding function removes its disk: a function
 * whose disk is taken here is not removed before the disk is gone.
 */
static void pciesw_blk_go_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_blk *blk = snap;
	struct pciesw_blk_disk *d, *tmp;
	LIST_HEAD(gone);

	if (!blk)
		return;
	mutex_lock(&blk->attach_lock);
	spin_lock(&blk->lock);
	list_for_each_entry_safe(d, tmp, &blk->disks, node)
		if (atomic_read(&d->state) == PCIESW_BLK_DEAD)
			list_move_tail(&d->node, &gone);
	spin_unlock(&blk->lock);
	list_for_each_entry_safe(d, tmp, &gone, node) {
		list_del(&d->node);
		pciesw_blk_disk_del(d);
	}
	mutex_unlock(&blk->attach_lock);
}

/* Whether @ep has a disk listed (an unbound function's can go meanwhile) */
static bool pciesw_blk_find(struct pciesw_blk *blk,
			    const struct pciesw_endpoint *ep)
{
	struct pciesw_blk_disk *d;
	bool found = false;

	spin_lock(&blk->lock);
	list_for_each_entry(d, &blk->disks, node)
		if (d->ep_id == ep->id && d->ep_serial == ep->serial)
			found = true;
	spin_unlock(&blk->lock);
	return found;
}

/* The device a new disk of @d hangs off, referenced; NULL if none. */
static struct device *pciesw_blk_parent(struct pciesw_dev *pdev,
					struct pciesw_blk_disk *d)
{
	struct pciesw_child *child;

#if IS_ENABLED(CONFIG_PCI)
	if (d->pci)
		return bus_find_device_by_name(&pci_bus_type, NULL,
					       d->pci_name);
#endif
	child = xa_load(&pdev->eps, d->ep_id);
	return child ? get_device(&child->dev) : NULL;
}

/* With sw->lock: a disk for @ep, listed so that changes reach its state. */
static void pciesw_blk_list(struct pciesw_blk *blk, struct pciesw_endpoint *ep,
			    struct pciesw_port *up)
{
	struct pciesw_switch *sw = blk->sw;
	struct pciesw_blk_disk *d;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return;
	refcount_set(&d->refs, 1);
	d->blk = blk;
	d->sw = sw;
	d->ep_id = ep->id;
	d->ep_serial = ep->serial;
	d->port_id = ep->port->id;
	d->port_lane = ep->port->first_lane;
	d->up_lane = up->first_lane;
	d->surprise = ep->port->link.surprise_down;
	d->pci = pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW);
	if (d->pci)
		pciesw_ep_pci_name(ep, d->pci_name, sizeof(d->pci_name));
	d->mem = pciesw_mem_get(ep->mem);
	d->nvme = pciesw_nvme_get(ep->nvme);
	d->size = ep->mem_size;
	d->block_size = ep->block_size ?: PCIESW_BLOCK_SIZE_DEFAULT;
	pciesw_ep_disk_name(ep, d->name, sizeof(d->name));
	atomic64_set(&d->unc_seen, pciesw_blk_unc(d));
	atomic_set(&d->state, pciesw_blk_state_of(sw, d));
	spin_lock(&blk->lock);
	list_add_tail(&d->node, &blk->disks);
	spin_unlock(&blk->lock);
}

/*
 * A Format NVM changed drive @ev->ep_id's logical block size: its disk's
 * follows, the queue frozen while it changes, as the nvme driver's
 * namespace scan after a format updates it (the capacity stays).  With
 * attach_lock, which every removal of a disk takes.
 */
static void pciesw_blk_format(struct pciesw_blk *blk,
			      const struct pciesw_event *ev)
{
	struct pciesw_blk_disk *d;
	int err;

	mutex_lock(&blk->attach_lock);
	list_for_each_entry(d, &blk->disks, node) {
		if (d->ep_id != ev->ep_id || d->ep_serial != ev->ep_serial)
			continue;
		d->block_size = ev->block_size;
		if (!d->disk)
			continue;
		err = pciesw_blk_set_block_size(d->disk->queue, ev->block_size);
		if (err)
			pr_err("pciesw: %s: cannot set the block size to %u: %d\n",
			       d->name, ev->block_size, err);
	}
	mutex_unlock(&blk->attach_lock);
}

/*
 * NVMe drive @ev->ep_id sent an asynchronous event: the uevent the nvme
 * driver sends on its controller's device for a SMART / health event,
 * KOBJ_CHANGE with NVME_AEN=<completion dword 0>, on the device the
 * drive's disk hangs off (its PCI function, or its endpoint device); no
 * disk, no driver to tell.
 */
static void pciesw_blk_aen(struct pciesw_blk *blk,
			   const struct pciesw_event *ev)
{
	struct pciesw_blk_disk *d;
	char env[32], *envp[2] = { env, NULL };

	snprintf(env, sizeof(env), "NVME_AEN=%#08x", ev->aen);
	mutex_lock(&blk->attach_lock);
	list_for_each_entry(d, &blk->disks, node)
		if (d->ep_id == ev->ep_id && d->ep_serial == ev->ep_serial &&
		    d->disk && d->parent)
			kobject_uevent_env(&d->parent->kobj, KOBJ_CHANGE, envp);
	mutex_unlock(&blk->attach_lock);
}

/*
 * After the PCI and dev views: a disk for each NVMe drive whose link is up
 * and that has none, once the device it hangs off is there (with the PCI
 * view: its function bound, which pciehp may do later, and which then
 * raises PCIESW_EV_EP_FUNCTION).  Disks are added by the event work and
 * removed by it or by an unbinding function, both with blk->attach_lock;
 * so the work walks the list with that lock and takes blk->lock to change
 * it.
 */
static void pciesw_blk_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_switch *sw = ev->sw;
	struct pciesw_dev *pdev = pciesw_dev_of(sw);
	struct pciesw_blk *blk = pdev ? pdev->blk : NULL;
	struct pciesw_blk_disk *d, *tmp;
	struct pciesw_endpoint *ep;
	struct pciesw_port *up;
	bool dead;

	if (!blk || !pciesw_blk_on)
		return;
	switch (ev->type) {
	case PCIESW_EV_NVME_FORMAT:
		pciesw_blk_format(blk, ev);
		return;
	case PCIESW_EV_NVME_AEN:
		pciesw_blk_aen(blk, ev);
		return;
	case PCIESW_EV_EP_ADD:
	case PCIESW_EV_PORTS_ADD:
	case PCIESW_EV_PORT_CHANGE:
	case PCIESW_EV_SWITCH_CHANGE:
	case PCIESW_EV_EP_FUNCTION:
		break;
	default:
		return;
	}
	mutex_lock(&sw->lock);
	pciesw_for_each_port(sw, up)
		if (up->role == PCIESW_PORT_ROLE_UPSTREAM)
			break;
	list_for_each_entry(ep, &sw->endpoints, node)
		if (up && !sw->dead && ep->type == PCIESW_EP_TYPE_NVME &&
		    pciesw_blk_port_up(ep->port) && !pciesw_blk_find(blk, ep))
			pciesw_blk_list(blk, ep, up);
	mutex_unlock(&sw->lock);

	mutex_lock(&blk->attach_lock);
	list_for_each_entry_safe(d, tmp, &blk->disks, node) {
		if (d->disk || d->parent)
			continue;
		dead = atomic_read(&d->state) == PCIESW_BLK_DEAD;
		/* its function is not there yet: its binding says when */
		if (!dead && d->pci && !test_bit(d->port_id, blk->bound))
			continue;
		d->parent = dead ? NULL : pciesw_blk_parent(pdev, d);
		if (!dead && !d->parent)
			pr_err("pciesw: %s: no device to hang the disk off\n",
			       d->name);
		if (d->parent && pciesw_blk_disk_add(d))
			continue;
		spin_lock(&blk->lock);
		list_del(&d->node);
		spin_unlock(&blk->lock);
		pciesw_blk_disk_put(d);
	}
	mutex_unlock(&blk->attach_lock);
}

/*
 * The PCI function of the endpoint behind @port_id is bound, or goes (its
 * driver's remove, under the PCI core's locks): its disk goes with it, as
 * an nvme controller's namespaces go when its driver unbinds, even if the
 * model still has the drive; a new binding brings a new disk.
 */
static void pciesw_blk_ep_function(struct pciesw_switch *sw, u32 port_id,
				   bool bound)
{
	struct pciesw_blk *blk = pciesw_blk_of(sw);
	struct pciesw_blk_disk *d, *tmp;
	LIST_HEAD(gone);

	if (!blk || port_id >= PCIESW_MAX_PORTS)
		return;
	mutex_lock(&blk->attach_lock);
	if (bound) {
		set_bit(port_id, blk->bound);
		mutex_unlock(&blk->attach_lock);
		return;
	}
	clear_bit(port_id, blk->bound);
	spin_lock(&blk->lock);
	list_for_each_entry_safe(d, tmp, &blk->disks, node)
		if (d->pci && d->port_id == port_id) {
			atomic_set(&d->state, PCIESW_BLK_DEAD);
			list_move_tail(&d->node, &gone);
		}
	spin_unlock(&blk->lock);
	list_for_each_entry_safe(d, tmp, &gone, node) {
		list_del(&d->node);
		pciesw_blk_disk_del(d);
	}
	mutex_unlock(&blk->attach_lock);
}

static const struct pciesw_view pciesw_blk_go_view = {
	.snapshot = pciesw_blk_snapshot,
	.apply = pciesw_blk_go_apply,
};

static const struct pciesw_view pciesw_blk_view = {
	.apply = pciesw_blk_apply,
	.ep_function = pciesw_blk_ep_function,
};

/* Before the switch is published. */
int pciesw_blk_add(struct pciesw_dev *pdev)
{
	struct pciesw_blk *blk = kzalloc(sizeof(*blk), GFP_KERNEL);

	if (!blk)
		return -ENOMEM;
	blk->sw = pdev->sw;
	spin_lock_init(&blk->lock);
	INIT_LIST_HEAD(&blk->disks);
	mutex_init(&blk->attach_lock);
	pdev->blk = blk;
	return 0;
}

/* After it is unpublished and its events applied: the disks that are left. */
void pciesw_blk_del(struct pciesw_dev *pdev)
{
	struct pciesw_blk *blk = pdev->blk;
	struct pciesw_blk_disk *d, *tmp;

	if (!blk)
		return;
	list_for_each_entry_safe(d, tmp, &blk->disks, node) {
		list_del(&d->node);
		atomic_set(&d->state, PCIESW_BLK_DEAD);
		pciesw_blk_disk_del(d);
	}
	pdev->blk = NULL;
	mutex_destroy(&blk->attach_lock);
	kfree(blk);
}

void pciesw_blk_init(void)
{
	pciesw_view_register(PCIESW_VIEW_BLK_GO, &pciesw_blk_go_view);
	pciesw_view_register(PCIESW_VIEW_BLK, &pciesw_blk_view);
}

void pciesw_blk_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_BLK);
	pciesw_view_unregister(PCIESW_VIEW_BLK_GO);
}
