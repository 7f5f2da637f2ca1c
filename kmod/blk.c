// SPDX-License-Identifier: GPL-2.0
/*
 * The block view: every NVMe drive of a switch is a blk-mq disk whose data
 * is the drive's memory window (mem.c), the same bytes the DMA engine and
 * mmap of /dev/pcieswN see.  Modelled on drivers/block/null_blk and brd.c:
 * requests are served inline from the sparse page store, a discard or
 * write-zeroes gives the window's pages back.  A write's new pages are
 * charged to the memory cgroup of its bio (pciesw_blk_memcg_enter()) and
 * allocated in the NOIO scope (memalloc_noio_save()), as brd's: reclaim
 * must not wait for I/O that may be queued behind this request; past
 * the module's mem_limit_mb (mem.c) a write fails with BLK_STS_NOSPC
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
 * a request is booked on the bandwidth model (route.c) and completes at its
 * modelled end, from an hrtimer (with an I/O error if the drive or the GPU
 * it went to was unplugged or the disk removed by then).  Each uncorrectable error counted on the
 * drive's port since the last request fails one request with an I/O error
 * (counted in the disk's io_errors); correctable errors only count.
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
 * The view follows the model's events (event.c) in two slots: with sw->lock
 * held, a snapshot sets each disk's state at once (new requests see it
 * without a lock); later, PCIESW_VIEW_BLK_GO, before the PCI and dev views,
 * removes the disks that went, and PCIESW_VIEW_BLK, after them, adds those
 * whose drive's link came up.  Both run from the switch's event work, so
 * disks are added and removed by one thread.
 *
 * With the PCI view on, a disk hangs off its drive's PCI function while the
 * module's PCI driver is bound to it: it comes when the function is bound
 * (the view's own scan, pciehp, a rescan) and goes in the driver's remove
 * (pciehp, `echo 1 > .../remove`), before the function does.
 *
 * Locks: the PCI core's (device lock of the function, rescan lock) ->
 * pciesw_blk.attach_lock -> sw->lock -> pciesw_blk.lock.  Requests take
 * sw->lock only to book a paced transfer; the hardware queues are blocking
 * (BLK_MQ_F_BLOCKING).
 */

#include <linux/blk-cgroup.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "dev.h"
#include "route.h"

static bool pciesw_blk_on = true;
module_param_named(blk, pciesw_blk_on, bool, 0444);
MODULE_PARM_DESC(blk, "NVMe drives are block devices, default 1");

static unsigned int pciesw_blk_timeout_ms = 30000;
module_param_named(blk_timeout_ms, pciesw_blk_timeout_ms, uint, 0644);
MODULE_PARM_DESC(blk_timeout_ms,
		 "How long a request waits for a drive's link that is down before it fails, ms (default 30000)");

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

/* the largest request: 1 MiB, an NVMe drive's typical MDTS */
#define PCIESW_BLK_MAX_SECTORS	(SZ_1M >> SECTOR_SHIFT)

enum pciesw_blk_state {
	PCIESW_BLK_UP,		/* requests go */
	PCIESW_BLK_WAIT,	/* a link on the way is down: requests wait */
	PCIESW_BLK_DEAD,	/* removed: requests fail, the disk goes */
};

/**
 * struct pciesw_blk_disk - the disk of one NVMe drive
 * @blk: the switch's block view
 * @node: in blk->disks
 * @sw: the switch (blk holds the reference)
 * @ep_id: the drive's endpoint id
 * @ep_serial: and serial: the id may name a later endpoint
 * @port_id: its port
 * @port_lane: first lane of its port (its counters)
 * @up_lane: first lane of the upstream port
 * @surprise: the port's surprise-down count when the disk was made
 * @pci: the parent is the endpoint's PCI device
 * @pci_name: its name, found when the disk is added
 * @mem: the drive's window, referenced
 * @size: bytes
 * @block_size: logical block size
 * @name: the disk's name
 * @state: enum pciesw_blk_state; written with sw->lock held (or before the
 *	disk is listed), read locklessly by requests
 * @unc_seen: uncorrectable errors of the port that already failed a
 *	request (or were there when the disk was made)
 * @io_errors: requests failed by injected errors or refused routes
 * @set: the tag set
 * @disk: the gendisk, NULL until added
 * @parent: the device it hangs off, referenced
 */
struct pciesw_blk_disk {
	struct pciesw_blk *blk;
	struct list_head node;
	struct pciesw_switch *sw;
	u32 ep_id;
	u64 ep_serial;
	u32 port_id;
	u16 port_lane;
	u16 up_lane;
	u64 surprise;
	bool pci;
	char pci_name[PCIESW_PCI_NAME_LEN];
	struct pciesw_mem *mem;
	u64 size;
	u32 block_size;
	char name[DISK_NAME_LEN];
	atomic_t state;
	atomic64_t unc_seen;
	atomic64_t io_errors;
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	struct device *parent;
};

/**
 * struct pciesw_blk - the block view of a switch
 * @sw: the switch
 * @lock: protects @disks (the list; each disk's state is atomic)
 * @disks: the drives' disks, being made, live, or dead and about to go
 * @attach_lock: serialises adding and removing disks with the binding of
 *	their PCI functions; protects @bound
 * @bound: the downstream ports whose endpoint's PCI function is bound to
 *	the PCI view's driver: a disk hangs off it only then
 */
struct pciesw_blk {
	struct pciesw_switch *sw;
	spinlock_t lock;	/* protects disks */
	struct list_head disks;
	struct mutex attach_lock;	/* protects bound, disks' (un)making */
	DECLARE_BITMAP(bound, PCIESW_MAX_PORTS);
};

/**
 * struct pciesw_blk_cmd - per request
 * @timer: completes a paced request at its modelled end
 * @status: its status then
 * @peer_page: a page of the GPU window its buffer maps (the bio pins it),
 *	NULL for host memory
 * @wait_since: CLOCK_MONOTONIC ns it first found the link down, 0 if not
 */
struct pciesw_blk_cmd {
	struct hrtimer timer;
	blk_status_t status;
	struct page *peer_page;
	u64 wait_since;
};

/* ---- requests ---- */

/* Uncorrectable errors counted on the drive's port, all kinds. */
static u64 pciesw_blk_unc(struct pciesw_blk_disk *d)
{
	struct pciesw_port_stats *st = &d->sw->stats[d->port_lane];
	u64 sum = 0;
	int c;

	for (c = PCIESW_COUNTER_FIRST_UNCORRECTABLE;
	     c <= PCIESW_COUNTER_LAST_UNCORRECTABLE; c++)
		sum += atomic64_read(&st->counters[c]);
	return sum;
}

/* One new uncorrectable error fails this request: claim it. */
static bool pciesw_blk_unc_hit(struct pciesw_blk_disk *d)
{
	u64 now = pciesw_blk_unc(d);
	s64 seen = atomic64_read(&d->unc_seen);

	do {
		if ((u64)seen >= now)
			return false;
	} while (!atomic64_try_cmpxchg(&d->unc_seen, &seen, seen + 1));
	return true;
}

/**
 * struct pciesw_blk_xfer - what a read or write request moves, and how
 * @write: host (or GPU) to drive
 * @peer: the GPU window (referenced) its buffer maps, NULL for host memory
 * @route: the way between the drive and @peer, when there is one
 */
struct pciesw_blk_xfer {
	bool write;
	struct pciesw_mem *peer;
	struct pciesw_route route;
};

static void pciesw_blk_count(struct pciesw_switch *sw, u16 lane,
			     enum pciesw_dir dir, enum pciesw_tlp_class cls,
			     u64 bytes)
{
	pciesw_stats_account(sw, &sw->stats[lane], dir, cls, bytes);
}

/*
 * Count @bytes the drive moved.  The drive is the bus master: a read is
 * its memory writes (posted) to the buffer, a write its read requests to
 * the buffer and their completions with the data.  To host memory they
 * cross the upstream port; to a GPU directly only the two downstream
 * ports, or up to the host bridge and back with ACS redirect.
 */
static void pciesw_blk_account(struct pciesw_blk_disk *d,
			       const struct pciesw_blk_xfer *x, bool p2p,
			       u64 bytes)
{
	struct pciesw_switch *sw = d->sw;
	bool hb = p2p && x->route.kind == PCIESW_P2P_ROUTE_HOST_BRIDGE;
	u16 far = d->up_lane;
	enum pciesw_tlp_class req;

	/* the GPU's port: where the data leaves (read) or enters (write) */
	if (p2p)
		far = x->write ? x->route.src_lane : x->route.dst_lane;
	req = x->write ? PCIESW_TLP_NON_POSTED : PCIESW_TLP_POSTED;
	pciesw_blk_count(sw, d->port_lane, PCIESW_DIR_INGRESS, req, bytes);
	if (hb) {
		pciesw_blk_count(sw, d->up_lane, PCIESW_DIR_EGRESS, req, bytes);
		pciesw_blk_count(sw, d->up_lane, PCIESW_DIR_INGRESS, req, bytes);
	}
	pciesw_blk_count(sw, far, PCIESW_DIR_EGRESS, req, bytes);
	if (!x->write)
		return;
	pciesw_blk_count(sw, far, PCIESW_DIR_INGRESS, PCIESW_TLP_COMPLETION,
			 bytes);
	if (hb) {
		pciesw_blk_count(sw, d->up_lane, PCIESW_DIR_EGRESS,
				 PCIESW_TLP_COMPLETION, bytes);
		pciesw_blk_count(sw, d->up_lane, PCIESW_DIR_INGRESS,
				 PCIESW_TLP_COMPLETION, bytes);
	}
	pciesw_blk_count(sw, d->port_lane, PCIESW_DIR_EGRESS,
			 PCIESW_TLP_COMPLETION, bytes);
}

/*
 * The GPU window of this switch that a segment's page belongs to, or NULL
 * (host memory; a GPU window of another switch is host memory to this
 * one: its traffic leaves through the upstream port).  Referenced.
 */
static struct pciesw_mem *pciesw_blk_gpu_of(struct pciesw_blk_disk *d,
					    struct page *page, u32 *ep_id)
{
	const void *owner;
	struct pciesw_mem *mem = pciesw_mem_of_page(page, &owner, ep_id);

	if (mem && owner != d->sw) {
		pciesw_mem_put(mem);
		mem = NULL;
	}
	return mem;
}

/* The first GPU window of this switch the request's buffer maps, a page. */
static struct pciesw_mem *pciesw_blk_peer(struct pciesw_blk_disk *d,
					  struct request *rq, u32 *ep_id,
					  struct page **page)
{
	struct req_iterator iter;
	struct pciesw_mem *mem;
	struct bio_vec bv;

	rq_for_each_segment(bv, rq, iter) {
		mem = pciesw_blk_gpu_of(d, bv.bv_page, ep_id);
		if (mem) {
			*page = bv.bv_page;
			return mem;
		}
	}
	return NULL;
}

/*
 * Copy one segment between the window at @pos and @page: a read of a page
 * never written yields zeros and allocates nothing.
 */
static blk_status_t pciesw_blk_copy(struct pciesw_blk_disk *d, bool write,
				    u64 pos, struct page *page,
				    unsigned int off, unsigned int len)
{
	while (len) {
		unsigned int po = offset_in_page(pos);
		unsigned int n = min_t(unsigned int, len, PAGE_SIZE - po);
		pgoff_t idx = pos >> PAGE_SHIFT;
		struct page *wp, *bp = page + (off >> PAGE_SHIFT);
		unsigned int bo = offset_in_page(off);
		void *w, *b;

		n = min_t(unsigned int, n, PAGE_SIZE - bo);
		if (write) {
			wp = pciesw_mem_get_page_alloc(d->mem, idx);
			/* the module's mem_limit_mb: NOSPC; no memory */
			if (IS_ERR(wp))
				return errno_to_blk_status(PTR_ERR(wp));
		} else {
			wp = pciesw_mem_get_page(d->mem, idx);
		}
		b = kmap_local_page(bp);
		if (wp) {
			w = kmap_local_page(wp);
			if (write)
				memcpy(w + po, b + bo, n);
			else
				memcpy(b + bo, w + po, n);
			kunmap_local(w);
			if (write)
				flush_dcache_page(wp);
			put_page(wp);
		} else {
			memset(b + bo, 0, n);
		}
		kunmap_local(b);
		if (!write)
			flush_dcache_page(bp);
		pos += n;
		off += n;
		len -= n;
	}
	return BLK_STS_OK;
}

/*
 * Discard and write-zeroes: whole pages go (and the mappings of them
 * through /dev/pcieswN, which would keep showing the old data), the edges
 * are zeroed.
 */
static blk_status_t pciesw_blk_zero(struct pciesw_blk_disk *d, u64 pos,
				    u64 len)
{
	u64 end = pos + len;

	while (pos < end) {
		unsigned int po = offset_in_page(pos);
		u64 n = min_t(u64, end - pos, PAGE_SIZE - po);
		struct page *wp;
		void *w;

		if (!po && n == PAGE_SIZE) {
			u64 pages = (end - pos) >> PAGE_SHIFT;

			if (pciesw_mem_discard(d->mem, pos >> PAGE_SHIFT,
					       pages))
				pciesw_mem_zap(d->mem, pos, pages << PAGE_SHIFT);
			pos += pages << PAGE_SHIFT;
			continue;
		}
		wp = pciesw_mem_get_page(d->mem, pos >> PAGE_SHIFT);
		if (wp) {
			w = kmap_local_page(wp);
			memset(w + po, 0, n);
			kunmap_local(w);
			flush_dcache_page(wp);
			put_page(wp);
		}
		pos += n;
	}
	return BLK_STS_OK;
}

/*
 * Under sw->lock: the route between the drive and the request's buffer
 * (for a GPU peer: by p2pdma's rules; refused counts an ACS violation on
 * the drive's port, where the requests enter the switch), and with @paced
 * its booking on the bandwidth model, the modelled end in *@end.
 * -ENOLINK when a link on the way is down, -ENODEV when an endpoint is
 * gone, -EREMOTEIO when the route is refused.
 */
static int pciesw_blk_route(struct pciesw_blk_disk *d,
			    struct pciesw_blk_xfer *x, u32 peer_id, u64 len,
			    bool paced, u64 *end)
{
	struct pciesw_switch *sw = d->sw;
	struct pciesw_endpoint *ep, *gpu = NULL;
	u64 start;
	int err;

	mutex_lock(&sw->lock);
	ep = pciesw_ep_lookup(sw, d->ep_id, U64_MAX);
	if (IS_ERR(ep) || ep->serial != d->ep_serial)
		ep = NULL;
	if (ep && x->peer) {
		gpu = pciesw_ep_find(sw, peer_id);
		if (gpu && gpu->mem != x->peer)
			gpu = NULL;
	}
	if (!ep || (x->peer && !gpu)) {
		err = -ENODEV;
		goto out;
	}
	err = pciesw_route_find(sw, x->write ? gpu : ep, x->write ? ep : gpu,
				&x->route);
	if (err)
		goto out;
	if (x->route.kind == PCIESW_P2P_ROUTE_REFUSED) {
		/* our own error: it does not fail the next request too */
		atomic64_inc(&d->unc_seen);
		pciesw_stats_error(sw, &sw->stats[d->port_lane],
				   PCIESW_COUNTER_ACS_VIOLATION, 1);
		err = -EREMOTEIO;
		goto out;
	}
	if (paced)
		err = pciesw_route_reserve(sw, &x->route, len, ktime_get_ns(),
					   &start, end);
out:
	mutex_unlock(&sw->lock);
	return err;
}

/*
 * The pages a write makes are charged to the memory cgroup of the bio's
 * blkcg (the submitter's; for writeback, the dirtier's), as loop.c
 * charges its worker's allocations; without blk-cgroup, to the current
 * task's.  Returns the css to give to pciesw_blk_memcg_exit().
 */
static struct cgroup_subsys_state *
pciesw_blk_memcg_enter(struct request *rq, struct mem_cgroup **old)
{
	struct cgroup_subsys_state *css = NULL;

#if IS_ENABLED(CONFIG_BLK_CGROUP) && IS_ENABLED(CONFIG_MEMCG)
	struct cgroup_subsys_state *blkcg = NULL;

	if (rq->bio)
		blkcg = bio_blkcg_css(rq->bio);
	if (blkcg)
		css = cgroup_get_e_css(blkcg->cgroup, &memory_cgrp_subsys);
	if (css)
		*old = set_active_memcg(mem_cgroup_from_css(css));
#endif
	return css;
}

static void pciesw_blk_memcg_exit(struct cgroup_subsys_state *css,
				  struct mem_cgroup *old)
{
	if (css) {
		set_active_memcg(old);
		css_put(css);
	}
}

static blk_status_t pciesw_blk_rw(struct pciesw_blk_disk *d,
				  struct request *rq,
				  const struct pciesw_blk_xfer *x)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct pciesw_mem *mem;
	struct bio_vec bv;
	blk_status_t st;
	bool p2p;
	u32 id;

	rq_for_each_segment(bv, rq, iter) {
		p2p = false;
		if (x->peer) {
			mem = pciesw_blk_gpu_of(d, bv.bv_page, &id);
			p2p = mem == x->peer;
			if (mem)
				pciesw_mem_put(mem);
			/* the GPU went under the transfer */
			if (p2p && pciesw_mem_gone(x->peer))
				return BLK_STS_IOERR;
		}
		if (pciesw_mem_gone(d->mem))
			return BLK_STS_IOERR;
		st = pciesw_blk_copy(d, x->write, pos, bv.bv_page,
				     bv.bv_offset, bv.bv_len);
		if (st)
			return st;
		pciesw_blk_account(d, x, p2p, bv.bv_len);
		pos += bv.bv_len;
	}
	return BLK_STS_OK;
}

static void pciesw_blk_end(struct request *rq, blk_status_t st)
{
	struct pciesw_blk_cmd *cmd = blk_mq_rq_to_pdu(rq);

	cmd->wait_since = 0;
	blk_mq_end_request(rq, st);
}

/*
 * A paced request's modelled end.  Its data moved when it started; if the
 * drive or the GPU it went to was unplugged since, or the disk removed (a
 * surprise down), the transfer did not finish: an I/O error, as a DMA to
 * a device that vanished gets.
 */
static enum hrtimer_restart pciesw_blk_timer(struct hrtimer *t)
{
	struct pciesw_blk_cmd *cmd = container_of(t, struct pciesw_blk_cmd,
						  timer);
	struct request *rq = blk_mq_rq_from_pdu(cmd);
	struct pciesw_blk_disk *d = rq->q->queuedata;
	blk_status_t st = cmd->status;

	if (atomic_read(&d->state) == PCIESW_BLK_DEAD ||
	    pciesw_mem_gone(d->mem) ||
	    (cmd->peer_page && pciesw_mem_page_gone(cmd->peer_page)))
		st = BLK_STS_IOERR;
	pciesw_blk_end(rq, st);
	return HRTIMER_NORESTART;
}

/*
 * A request waits for a link that is down: BLK_STS_RESOURCE has blk-mq
 * run the queue again shortly (or when the link comes back), until it has
 * waited blk_timeout_ms.  Returns false when it is time to fail it.
 */
static bool pciesw_blk_wait(struct pciesw_blk_cmd *cmd)
{
	u64 now = ktime_get_ns();

	if (!cmd->wait_since)
		cmd->wait_since = now;
	return now - cmd->wait_since <
	       (u64)READ_ONCE(pciesw_blk_timeout_ms) * NSEC_PER_MSEC;
}

static blk_status_t pciesw_blk_queue_rq(struct blk_mq_hw_ctx *hctx,
					const struct blk_mq_queue_data *bd)
{
	struct pciesw_blk_disk *d = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct pciesw_blk_cmd *cmd = blk_mq_rq_to_pdu(rq);
	enum req_op op = req_op(rq);
	u64 len = blk_rq_bytes(rq), end = 0;
	struct pciesw_blk_xfer x = { .write = op == REQ_OP_WRITE };
	struct page *peer_page = NULL;
	struct cgroup_subsys_state *css;
	struct mem_cgroup *old_memcg = NULL;
	bool paced = false;
	unsigned int noio;
	blk_status_t st;
	u32 peer_id = 0;
	int err = 0;

	switch (atomic_read(&d->state)) {
	case PCIESW_BLK_WAIT:
		if (pciesw_blk_wait(cmd))
			return BLK_STS_RESOURCE;
		st = BLK_STS_IOERR;
		goto start;
	case PCIESW_BLK_DEAD:
		st = BLK_STS_IOERR;
		goto start;
	default:
		break;
	}
	if ((op == REQ_OP_READ || op == REQ_OP_WRITE) && len) {
		paced = READ_ONCE(d->sw->dma_pacing);
		x.peer = pciesw_blk_peer(d, rq, &peer_id, &peer_page);
		if (paced || x.peer)
			err = pciesw_blk_route(d, &x, peer_id, len, paced,
					       &end);
		if (err == -ENOLINK && pciesw_blk_wait(cmd)) {
			if (x.peer)
				pciesw_mem_put(x.peer);
			return BLK_STS_RESOURCE;
		}
		if (err == -EREMOTEIO)
			atomic64_inc(&d->io_errors);
	}
	st = err ? BLK_STS_IOERR : BLK_STS_OK;
start:
	cmd->wait_since = 0;
	blk_mq_start_request(rq);
	if (st)
		goto end;
	if (pciesw_mem_gone(d->mem)) {
		st = BLK_STS_IOERR;
		goto end;
	}
	if (pciesw_blk_unc_hit(d)) {
		atomic64_inc(&d->io_errors);
		st = BLK_STS_IOERR;
		goto end;
	}
	/*
	 * A write makes window pages and their index's nodes: reclaim must
	 * not issue I/O from here, which could wait for this very request
	 * (swap or writeback to this disk), as brd and zram allocate.
	 */
	noio = memalloc_noio_save();
	switch (op) {
	case REQ_OP_READ:
		st = pciesw_blk_rw(d, rq, &x);
		break;
	case REQ_OP_WRITE:
		css = pciesw_blk_memcg_enter(rq, &old_memcg);
		st = pciesw_blk_rw(d, rq, &x);
		pciesw_blk_memcg_exit(css, old_memcg);
		break;
	case REQ_OP_FLUSH:
		/* the window is the medium: nothing is cached */
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		st = pciesw_blk_zero(d, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
				     len);
		break;
	default:
		st = BLK_STS_NOTSUPP;
		break;
	}
	memalloc_noio_restore(noio);
	if (paced && st == BLK_STS_OK && end > ktime_get_ns()) {
		if (x.peer)
			pciesw_mem_put(x.peer);
		cmd->status = st;
		cmd->peer_page = peer_page;
		hrtimer_start(&cmd->timer, ns_to_ktime(end), HRTIMER_MODE_ABS);
		return BLK_STS_OK;
	}
end:
	if (x.peer)
		pciesw_mem_put(x.peer);
	pciesw_blk_end(rq, st);
	return BLK_STS_OK;
}

static int pciesw_blk_init_request(struct blk_mq_tag_set *set,
				   struct request *rq, unsigned int hctx_idx,
				   unsigned int numa_node)
{
	struct pciesw_blk_cmd *cmd = blk_mq_rq_to_pdu(rq);

	hrtimer_init(&cmd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	cmd->timer.function = pciesw_blk_timer;
	return 0;
}

static const struct blk_mq_ops pciesw_blk_mq_ops = {
	.queue_rq = pciesw_blk_queue_rq,
	.init_request = pciesw_blk_init_request,
};

static const struct block_device_operations pciesw_blk_fops = {
	.owner = THIS_MODULE,
};

/* ---- disks ---- */

static void pciesw_blk_free(struct pciesw_blk_disk *d)
{
	if (d->parent)
		put_device(d->parent);
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
		blk_mark_disk_dead(d->disk);
		del_gendisk(d->disk);
		put_disk(d->disk);
		blk_mq_free_tag_set(&d->set);
	}
	pciesw_blk_free(d);
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
	    up->role != PCIESW_PORT_ROLE_UPSTREAM)
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

/* Before the PCI and dev views: the dead disks go, their parents stay. */
static void pciesw_blk_go_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_blk *blk = snap;
	struct pciesw_blk_disk *d, *tmp;
	LIST_HEAD(gone);

	if (!blk)
		return;
	spin_lock(&blk->lock);
	list_for_each_entry_safe(d, tmp, &blk->disks, node)
		if (atomic_read(&d->state) == PCIESW_BLK_DEAD)
			list_move_tail(&d->node, &gone);
	spin_unlock(&blk->lock);
	list_for_each_entry_safe(d, tmp, &gone, node) {
		list_del(&d->node);
		pciesw_blk_disk_del(d);
	}
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
		pciesw_blk_free(d);
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
