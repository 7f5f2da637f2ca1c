// SPDX-License-Identifier: GPL-2.0
/*
 * The block view's requests: each one a transfer through the switch model
 * (disk.c says how), served inline from the drive's memory window, routed
 * peer-to-peer when its buffer is a GPU window's pages, paced on the
 * bandwidth model, waiting while a link on the way is down and failing
 * for the uncorrectable errors counted on the drive's port and for the
 * drive's media faults (nvme/io.c: a read of a block with a media error, a
 * write of read-only media), as its Read and Write commands fail.
 */

#include <linux/blk-cgroup.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>

#include "block/blk.h"

static unsigned int pciesw_blk_timeout_ms = 30000;
module_param_named(blk_timeout_ms, pciesw_blk_timeout_ms, uint, 0644);
MODULE_PARM_DESC(blk_timeout_ms,
		 "How long a request waits for a drive's link that is down before it fails, ms (default 30000)");

/* Uncorrectable errors counted on the drive's port, all kinds. */
u64 pciesw_blk_unc(struct pciesw_blk_disk *d)
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

/* A transfer of @bytes between the drive and host memory, counted. */
void pciesw_blk_account_host(struct pciesw_blk_disk *d, bool write,
			     u64 bytes)
{
	struct pciesw_blk_xfer x = { .write = write };

	pciesw_blk_account(d, &x, false, bytes);
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
	return !pciesw_blk_wait_expired(&cmd->wait_since);
}

/*
 * Whether something that began waiting for a link at *@wait_since (set
 * now if 0) has waited blk_timeout_ms: what the requests and the
 * passthrough commands both wait.
 */
bool pciesw_blk_wait_expired(u64 *wait_since)
{
	u64 now = ktime_get_ns();

	if (!*wait_since)
		*wait_since = now;
	return now - *wait_since >=
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
	 * The drive's media faults (nvme/io.c): a read of a block with a media
	 * error, a write of read-only media fail as their commands do
	 */
	if (op != REQ_OP_FLUSH &&
	    pciesw_nvme_media_fails(d->nvme, op != REQ_OP_READ,
				    (u64)blk_rq_pos(rq) << SECTOR_SHIFT, len)) {
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
		/* the drive's SMART counts what the host read and wrote */
		if (!st)
			pciesw_nvme_count(d->nvme, false, len);
		break;
	case REQ_OP_WRITE:
		css = pciesw_blk_memcg_enter(rq, &old_memcg);
		st = pciesw_blk_rw(d, rq, &x);
		pciesw_blk_memcg_exit(css, old_memcg);
		if (!st)
			pciesw_nvme_count(d->nvme, true, len);
		break;
	case REQ_OP_FLUSH:
		/* the window is the medium: nothing is cached */
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		/* whole pages go, as brd's discard; the edges are zeroed */
		pciesw_mem_zero(d->mem, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
				len);
		break;
	default:
		st = BLK_STS_NOTSUPP;
		break;
	}
	memalloc_noio_restore(noio);
	/* a write's blocks are good again once its data is there, not before */
	if (st == BLK_STS_OK && op != REQ_OP_READ && op != REQ_OP_FLUSH)
		pciesw_nvme_media_written(d->nvme,
					  (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
					  len);
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

const struct blk_mq_ops pciesw_blk_mq_ops = {
	.queue_rq = pciesw_blk_queue_rq,
	.init_request = pciesw_blk_init_request,
};

/*
 * The passthrough structs are the same in 32 and 64 bit, as the nvme
 * driver's block devices take them: only the pointer is converted (and
 * NVME_IOCTL_SUBMIT_IO's 32-bit layout has its own number).
 */
const struct block_device_operations pciesw_blk_fops = {
	.owner = THIS_MODULE,
	.ioctl = pciesw_blk_ioctl,
	.compat_ioctl = blkdev_compat_ptr_ioctl,
};
