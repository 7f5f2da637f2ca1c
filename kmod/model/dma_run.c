// SPDX-License-Identifier: GPL-2.0
/*
 * The DMA engine's transfers: the channels' workers, which run what dma.c
 * queued (book it on the bandwidth model, move its bytes, pace it, count
 * its traffic, hand it back to dma.c to complete), and the bench hook, the
 * same copy without the engine.  dma.h is what the two share.
 *
 * Channels: one work item each on an unbound workqueue of the switch
 * (max_active = dma-channels), so channels run in parallel on the CPUs and
 * a channel runs its descriptors in order.  A worker takes a run of
 * descriptors off its queue (up to PCIESW_DMA_RUN_MAX, PCIESW_DMA_RUN_BYTES
 * past the first), checks their routes and links and books them on the
 * bandwidth model in one pass under sw->lock, moves the bytes with the CPU
 * in chunks, adds up the traffic of each route, unpins and drops their
 * references, counts the traffic on every port crossed, then delivers the
 * run's completions, a file's at once with one wake-up.  With pacing on,
 * a run is one descriptor and each chunk waits for the time the model
 * says it has crossed the links, so the data arrives at link speed and the
 * completion at the modelled end; closing the file or removing the switch
 * ends the waiting (the transfer then finishes at memory speed).
 *
 * The model's clock for a descriptor starts when the channel could have
 * started it: at submission, or when the channel's previous descriptor
 * ended in the model, whichever is later.  So the modelled links stay busy
 * back to back however late a worker wakes, and duration_ns = modelled end
 * - that start: the transfer's time on its links, including waiting for
 * links that other channels' transfers occupy, not for its own channel.
 *
 * Link-down is checked when the descriptor is booked and before every
 * chunk (a link going down bumps sw->link_downs, so the worker looks at
 * its route's links only then): a link lost mid-transfer ends it with
 * link-down and the bytes moved.
 *
 * Locks: see dma.h.
 */

#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "model/dma.h"

/* bytes moved between two checks for an unplug, and counted at a time */
#define PCIESW_DMA_CHUNK	SZ_64K
/* longest a pacing worker sleeps before it looks for an unplug again */
#define PCIESW_DMA_PACE_MAX_NS	(10 * NSEC_PER_MSEC)
/* unpaced, a worker takes up to this many descriptors, or bytes, a run */
#define PCIESW_DMA_RUN_MAX	64
#define PCIESW_DMA_RUN_BYTES	SZ_1M
/* traffic is counted at least every so many bytes moved */
#define PCIESW_DMA_ACCT_MAX	SZ_1M

/* ---- execution ---- */

/*
 * The page that backs byte @e->off of a side: for a source a missing
 * endpoint page is NULL (it reads as zeros), for a destination it is
 * allocated unless @zero says the bytes to write are zeros anyway.  An
 * endpoint's page comes with a reference (a block discard may take it out
 * of the window meanwhile): pciesw_dma_put_page() it.
 */
static struct page *pciesw_dma_page(struct pciesw_dma_end *e, bool dst,
				    bool zero)
{
	unsigned long idx = e->off >> PAGE_SHIFT;

	if (!e->mem)
		return e->pages[idx];
	if (!dst || zero)
		return pciesw_mem_get_page(e->mem, idx);
	return pciesw_mem_get_page_alloc(e->mem, idx);
}

static void pciesw_dma_put_page(struct pciesw_dma_end *e, struct page *page)
{
	if (e->mem && !IS_ERR_OR_NULL(page))
		put_page(page);
}

static bool pciesw_dma_gone(const struct pciesw_dma_xfer *x)
{
	return (x->src.mem && pciesw_mem_gone(x->src.mem)) ||
	       (x->dst.mem && pciesw_mem_gone(x->dst.mem));
}

/**
 * struct pciesw_dma_acct - traffic moved and not counted yet
 * @src_lane: the route's ports, as in struct pciesw_route
 * @dst_lane: see @src_lane
 * @up_lane: see @src_lane
 * @host_bridge: the route goes up to the host bridge and back down
 * @bytes: payload bytes
 * @np_tlps: read requests they took (one per Max_Read_Request_Size of
 *	each chunk, as pciesw_stats_account() counts them), which carry no
 *	payload
 * @tlps: posted and completion TLPs they took (one per Max_Payload_Size)
 *
 * A worker's own (on its stack): the chunks of consecutive transfers on
 * one route add up here and reach the port counters at once, before the
 * transfers' completions, so that a completion read back always finds
 * its traffic counted.
 */
struct pciesw_dma_acct {
	u16 src_lane;
	u16 dst_lane;
	u16 up_lane;
	bool host_bridge;
	u64 bytes;
	u64 np_tlps;
	u64 tlps;
};

/* Count what @a holds on every port it crossed, and empty it. */
static void pciesw_dma_acct_flush(struct pciesw_switch *sw,
				  struct pciesw_dma_acct *a)
{
	struct pciesw_port_stats *src = &sw->stats[a->src_lane];
	struct pciesw_port_stats *dst = &sw->stats[a->dst_lane];
	struct pciesw_port_stats *up = &sw->stats[a->up_lane];

	if (!a->bytes)
		return;
	/* the engine's read requests go out (no payload), data comes back */
	pciesw_stats_account_tlps(sw, src, PCIESW_DIR_EGRESS,
				  PCIESW_TLP_NON_POSTED, 0, a->np_tlps);
	pciesw_stats_account_tlps(sw, src, PCIESW_DIR_INGRESS,
				  PCIESW_TLP_COMPLETION, a->bytes, a->tlps);
	if (a->host_bridge) {
		/* up to the host bridge and back down */
		pciesw_stats_account_tlps(sw, up, PCIESW_DIR_EGRESS,
					  PCIESW_TLP_POSTED, a->bytes, a->tlps);
		pciesw_stats_account_tlps(sw, up, PCIESW_DIR_INGRESS,
					  PCIESW_TLP_POSTED, a->bytes, a->tlps);
	}
	pciesw_stats_account_tlps(sw, dst, PCIESW_DIR_EGRESS,
				  PCIESW_TLP_POSTED, a->bytes, a->tlps);
	a->bytes = 0;
	a->np_tlps = 0;
	a->tlps = 0;
}

/* @bytes, one chunk, moved by @x: into @a (counted when it fills). */
static void pciesw_dma_acct_add(struct pciesw_switch *sw,
				struct pciesw_dma_acct *a,
				const struct pciesw_dma_xfer *x, u64 bytes)
{
	const struct pciesw_route *r = &x->route;
	bool hb = r->kind == PCIESW_P2P_ROUTE_HOST_BRIDGE;

	if (!bytes)
		return;
	if (a->bytes && (a->src_lane != r->src_lane ||
			 a->dst_lane != r->dst_lane ||
			 a->up_lane != r->up_lane || a->host_bridge != hb))
		pciesw_dma_acct_flush(sw, a);
	a->src_lane = r->src_lane;
	a->dst_lane = r->dst_lane;
	a->up_lane = r->up_lane;
	a->host_bridge = hb;
	a->bytes += bytes;
	a->np_tlps += pciesw_stats_tlps(sw, PCIESW_TLP_NON_POSTED, bytes);
	a->tlps += pciesw_stats_tlps(sw, PCIESW_TLP_POSTED, bytes);
	if (a->bytes >= PCIESW_DMA_ACCT_MAX)
		pciesw_dma_acct_flush(sw, a);
}

/* Stop waiting for the model: nobody will read it, or the switch goes. */
static bool pciesw_dma_hurry(const struct pciesw_dma_xfer *x)
{
	return READ_ONCE(x->file->closed) ||
	       READ_ONCE(x->file->sw->dma->stopping);
}

/*
 * Pacing: wait until CLOCK_MONOTONIC @t, unless told to hurry or an
 * endpoint of @x goes (nothing wakes us for that: look every
 * PCIESW_DMA_PACE_MAX_NS).
 */
static void pciesw_dma_pace(struct pciesw_dma_chan *chan,
			    const struct pciesw_dma_xfer *x, u64 t)
{
	unsigned long kicks;
	u64 now, nap;

	for (;;) {
		kicks = READ_ONCE(chan->kicks);
		now = ktime_get_ns();
		if (now >= t || pciesw_dma_hurry(x) || pciesw_dma_gone(x))
			return;
		nap = min(t - now, PCIESW_DMA_PACE_MAX_NS);
		wait_event_interruptible_hrtimeout(chan->wait,
						   READ_ONCE(chan->kicks) != kicks,
						   ns_to_ktime(nap));
	}
}

/*
 * The page walk of every transfer: move bytes from @src to @dst until
 * *@done reaches @until, no piece spanning a page of either side, both
 * sides' offsets and *@done advanced by what was moved.  Returns
 * PCIESW_DMA_STATUS_NOMEM when a destination page could not be made (the
 * module's mem_limit_mb, the memory cgroup's limit, or no memory).
 * The engine runs it chunk by chunk; so does the bench hook, without the
 * engine around it (pciesw_dma_bench_run()).
 */
static u32 pciesw_dma_copy_pages(struct pciesw_dma_end *src,
				 struct pciesw_dma_end *dst, u64 *done,
				 u64 until)
{
	while (*done < until) {
		size_t so = offset_in_page(src->off);
		size_t doff = offset_in_page(dst->off);
		size_t n = min_t(u64, until - *done,
				 PAGE_SIZE - max(so, doff));
		struct page *sp, *dp;
		bool held;
		void *d, *s;

		sp = pciesw_dma_page(src, false, false);
		held = false;
		if (sp && n == PAGE_SIZE && dst->mem) {
			pgoff_t didx = dst->off >> PAGE_SHIFT;

			dp = pciesw_mem_get_page(dst->mem, didx);
			held = !!dp;
			if (!dp) {
				/*
				 * A whole new endpoint page: fill it as it is
				 * made, not zero it first and copy again
				 */
				bool filled;

				s = kmap_local_page(sp);
				dp = pciesw_mem_page_fill(dst->mem, didx, s,
							  &filled);
				kunmap_local(s);
				if (!IS_ERR(dp) && !filled) {
					/* another made it meanwhile */
					dp = pciesw_mem_get_page_alloc(dst->mem,
								       didx);
					held = !IS_ERR(dp);
				}
			}
			if (held) {
				d = kmap_local_page(dp);
				s = kmap_local_page(sp);
				memcpy(d, s, n);
				kunmap_local(s);
				kunmap_local(d);
				flush_dcache_page(dp);
			}
		} else {
			dp = pciesw_dma_page(dst, true, !sp);
			held = dst->mem && !IS_ERR_OR_NULL(dp);
			if (!IS_ERR_OR_NULL(dp)) {
				d = kmap_local_page(dp);
				if (sp) {
					s = kmap_local_page(sp);
					memcpy(d + doff, s + so, n);
					kunmap_local(s);
				} else {
					memset(d + doff, 0, n);
				}
				kunmap_local(d);
				flush_dcache_page(dp);
			}
		}
		pciesw_dma_put_page(src, sp);
		if (IS_ERR(dp))
			return PCIESW_DMA_STATUS_NOMEM;
		if (held)
			put_page(dp);
		src->off += n;
		dst->off += n;
		*done += n;
	}
	return PCIESW_DMA_STATUS_OK;
}

/*
 * A link of @x's route went down since its links were last seen up: look
 * (under sw->lock) only when some link of the switch went down since.
 */
static bool pciesw_dma_link_lost(struct pciesw_dma_xfer *x)
{
	struct pciesw_switch *sw = x->file->sw;
	int downs = atomic_read(&sw->link_downs);
	bool up;

	if (downs == x->link_downs)
		return false;
	mutex_lock(&sw->lock);
	up = pciesw_route_links_up(sw, &x->route);
	mutex_unlock(&sw->lock);
	x->link_downs = downs;
	return !up;
}

/*
 * Move the bytes of @x, a chunk at a time, its traffic into @acct; with
 * @end, each chunk is counted at once and waits for its modelled time on
 * the links (from @start to @end in proportion to the bytes).  Returns
 * the status; x->comp.bytes says how far it got.
 */
static u32 pciesw_dma_copy(struct pciesw_dma_chan *chan,
			   struct pciesw_dma_xfer *x, u64 start, u64 end,
			   struct pciesw_dma_acct *acct)
{
	struct pciesw_switch *sw = x->file->sw;
	u64 done = 0;

	while (done < x->len) {
		u64 chunk_end = min_t(u64, x->len, done + PCIESW_DMA_CHUNK);
		struct mem_cgroup *old;
		u64 first = done;
		u32 status;

		if (pciesw_dma_gone(x))
			return PCIESW_DMA_STATUS_UNPLUGGED;
		/* a link on the way went down: what moved so far stays */
		if (pciesw_dma_link_lost(x))
			return PCIESW_DMA_STATUS_LINK_DOWN;
		/* the pages it makes are the submitter's, not the worker's */
		old = set_active_memcg(x->memcg);
		status = pciesw_dma_copy_pages(&x->src, &x->dst, &done,
					       chunk_end);
		set_active_memcg(old);
		x->comp.bytes = done;
		pciesw_dma_acct_add(sw, acct, x, done - first);
		if (status != PCIESW_DMA_STATUS_OK)
			return status;
		if (end) {
			pciesw_dma_acct_flush(sw, acct);
			pciesw_dma_pace(chan, x, start +
					mul_u64_u64_div_u64(end - start, done,
							    x->len));
		}
		cond_resched();
	}
	return PCIESW_DMA_STATUS_OK;
}

/**
 * struct pciesw_dma_booking - the links of the route last booked in a run
 * @r: that route, NULL for none yet
 * @links: its links and their rates (pciesw_route_links())
 *
 * On a worker's stack, good while it holds sw->lock: the descriptors of a
 * run mostly share one route, whose links need looking up once.
 */
struct pciesw_dma_booking {
	const struct pciesw_route *r;
	struct pciesw_route_links links;
};

static bool pciesw_dma_same_links(const struct pciesw_route *a,
				  const struct pciesw_route *b)
{
	return a->src_lane == b->src_lane && a->dst_lane == b->dst_lane &&
	       a->up_lane == b->up_lane && a->kind == b->kind;
}

/*
 * Can @x on @chan go: its file open, its endpoints there, its route not
 * refused and its links up; then book it on the model, from @start to
 * @end.  Returns the status.
 */
static u32 pciesw_dma_book(struct pciesw_dma_chan *chan,
			   struct pciesw_dma_xfer *x,
			   struct pciesw_dma_booking *b, u64 *start, u64 *end)
{
	struct pciesw_switch *sw = chan->dma->sw;
	u64 ready;

	lockdep_assert_held(&sw->lock);
	if (sw->dead || READ_ONCE(x->file->closed))
		return PCIESW_DMA_STATUS_CANCELLED;
	if (pciesw_dma_gone(x))
		return PCIESW_DMA_STATUS_UNPLUGGED;
	if (x->route.kind == PCIESW_P2P_ROUTE_REFUSED) {
		/* the request entered the switch at the source's port */
		pciesw_stats_error(sw, &sw->stats[x->route.src_lane],
				   PCIESW_COUNTER_ACS_VIOLATION, 1);
		return PCIESW_DMA_STATUS_P2P_REFUSED;
	}
	x->link_downs = atomic_read(&sw->link_downs);
	ready = max(x->submitted, chan->busy_until);
	if (!b->r || !pciesw_dma_same_links(b->r, &x->route)) {
		b->r = NULL;
		if (pciesw_route_links(sw, &x->route, &b->links))
			return PCIESW_DMA_STATUS_LINK_DOWN;
		b->r = &x->route;
	}
	pciesw_route_book(sw, &b->links, x->len, ready, start, end);
	chan->busy_until = *end;
	x->comp.duration_ns = *end - ready;
	return PCIESW_DMA_STATUS_OK;
}

/*
 * Run @run, descriptors taken off @chan's queue in order: book them all
 * in one pass through sw->lock, move their bytes one after the other,
 * count their traffic, then deliver their completions together.  Paced,
 * a run is one descriptor (pciesw_dma_chan_work()), whose chunks wait for
 * the model.  A descriptor booked ahead whose file closes or whose switch
 * goes before its turn did not run: cancelled.
 */
static void pciesw_dma_run(struct pciesw_dma_chan *chan,
			   struct list_head *run, unsigned int n)
{
	struct pciesw_switch *sw = chan->dma->sw;
	struct pciesw_dma_booking booking = {};
	struct pciesw_dma_acct acct = {};
	u64 start = 0, end = 0;
	struct pciesw_dma_xfer *x;
	bool paced;

	mutex_lock(&sw->lock);
	paced = n == 1 && READ_ONCE(sw->dma_pacing);
	list_for_each_entry(x, run, node)
		x->comp.status = pciesw_dma_book(chan, x, &booking, &start,
						 &end);
	mutex_unlock(&sw->lock);

	list_for_each_entry(x, run, node) {
		if (x->comp.status != PCIESW_DMA_STATUS_OK) {
			/* nothing to move */
		} else if (n > 1 && pciesw_dma_hurry(x)) {
			x->comp.status = PCIESW_DMA_STATUS_CANCELLED;
			x->comp.duration_ns = 0;
		} else {
			x->comp.status = pciesw_dma_copy(chan, x, start,
							 paced ? end : 0,
							 &acct);
		}
	}
	pciesw_dma_release_all(run);
	pciesw_dma_acct_flush(sw, &acct);
	pciesw_dma_complete(chan->dma, run);
}

/*
 * Take the next run off @chan's queue, in order: up to @max descriptors
 * and, past the first, PCIESW_DMA_RUN_BYTES.  Returns how many.
 */
static unsigned int pciesw_dma_take(struct pciesw_dma_chan *chan,
				    unsigned int max, struct list_head *run)
{
	struct pciesw_dma_xfer *x, *tmp;
	unsigned int n = 0;
	u64 bytes = 0;

	spin_lock(&chan->lock);
	list_for_each_entry_safe(x, tmp, &chan->queue, node) {
		if (n == max || (n && bytes + x->len > PCIESW_DMA_RUN_BYTES))
			break;
		bytes += x->len;
		list_move_tail(&x->node, run);
		n++;
	}
	spin_unlock(&chan->lock);
	return n;
}

/*
 * A channel's worker: runs until its queue is empty, a run at a time;
 * with pacing on, one descriptor at a time, each booked on the model as
 * it starts, so that the channels' bookings interleave as on the links.
 */
void pciesw_dma_chan_work(struct work_struct *work)
{
	struct pciesw_dma_chan *chan = container_of(work, struct pciesw_dma_chan,
						    work);
	struct pciesw_switch *sw = chan->dma->sw;
	unsigned int n;

	for (;;) {
		LIST_HEAD(run);

		n = pciesw_dma_take(chan, READ_ONCE(sw->dma_pacing) ? 1 :
					  PCIESW_DMA_RUN_MAX, &run);
		if (!n)
			return;
		pciesw_dma_run(chan, &run, n);
	}
}

/* ---- the bench hook: the engine's copy without the engine ---- */

/**
 * struct pciesw_dma_bench - a copy between two endpoint windows, prepared
 * @sw: the switch, referenced
 * @src: the source window (page store referenced) and offset
 * @dst: the destination window and offset
 * @len: bytes to copy
 */
struct pciesw_dma_bench {
	struct pciesw_switch *sw;
	struct pciesw_dma_end src;
	struct pciesw_dma_end dst;
	u64 len;
};

/**
 * pciesw_dma_bench_start - prepare a copy as the engine would
 * @sw: the switch, sw->lock held
 * @src: source endpoint id and offset
 * @dst: destination endpoint id and offset
 * @len: bytes, 1..PCIESW_DMA_MAX_LEN
 *
 * For benchmarks (debugfs): the checks and references of a submission
 * (live switch, existing endpoints, window bounds; a reference on the
 * switch and on both page stores), none of the engine: no descriptor,
 * route, model or channel.  Host memory is refused.  -EINVAL, -ENODEV,
 * -ENOENT, -EOVERFLOW, -ERANGE or -ENOMEM.
 */
struct pciesw_dma_bench *pciesw_dma_bench_start(struct pciesw_switch *sw,
						const struct pciesw_dma_loc *src,
						const struct pciesw_dma_loc *dst,
						u64 len)
{
	struct pciesw_endpoint *se, *de;
	struct pciesw_dma_bench *b;
	int err;

	lockdep_assert_held(&sw->lock);
	if (pciesw_dma_check(src, dst, len) ||
	    src->ep_id == PCIESW_DMA_HOST || dst->ep_id == PCIESW_DMA_HOST)
		return ERR_PTR(-EINVAL);
	if (sw->dead || !sw->published)
		return ERR_PTR(-ENODEV);
	err = pciesw_dma_resolve(sw, src, len, &se);
	if (!err)
		err = pciesw_dma_resolve(sw, dst, len, &de);
	if (err)
		return ERR_PTR(err);
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return ERR_PTR(-ENOMEM);
	kref_get(&sw->refs);
	b->sw = sw;
	b->src.mem = pciesw_mem_get(se->mem);
	b->src.off = src->addr;
	b->dst.mem = pciesw_mem_get(de->mem);
	b->dst.off = dst->addr;
	b->len = len;
	return b;
}

/**
 * pciesw_dma_bench_run - do the copy of pciesw_dma_bench_start(), free it
 * @b: what it returned
 * @ns: set to the nanoseconds the copy took
 *
 * Without sw->lock: the engine's page walk (pciesw_dma_copy_pages()) a
 * PCIESW_DMA_CHUNK at a time, with the engine's unplug check and
 * cond_resched() between chunks; no accounting, pacing or completion.
 * -ENODEV when an endpoint is unplugged or the switch removed meanwhile,
 * -EINTR on a fatal signal, -ENOMEM when a page could not be made.
 */
int pciesw_dma_bench_run(struct pciesw_dma_bench *b, u64 *ns)
{
	u64 done = 0, t0 = ktime_get_ns();
	int err = 0;

	while (done < b->len) {
		u64 chunk_end = min_t(u64, b->len, done + PCIESW_DMA_CHUNK);

		if (pciesw_mem_gone(b->src.mem) ||
		    pciesw_mem_gone(b->dst.mem) || READ_ONCE(b->sw->dead)) {
			err = -ENODEV;
			break;
		}
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		if (pciesw_dma_copy_pages(&b->src, &b->dst, &done,
					  chunk_end) != PCIESW_DMA_STATUS_OK) {
			err = -ENOMEM;
			break;
		}
		cond_resched();
	}
	*ns = ktime_get_ns() - t0;
	pciesw_mem_put(b->src.mem);
	pciesw_mem_put(b->dst.mem);
	pciesw_switch_put(b->sw);
	kfree(b);
	return err;
}
