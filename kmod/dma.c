// SPDX-License-Identifier: GPL-2.0
/*
 * The DMA engine: peer-to-peer and host transfers between endpoint memory
 * windows and host memory, on channels, along routes the bandwidth model
 * books.  What feeds it - the descriptors an open /dev/pcieswN submits,
 * their pinned host pages and the completion queue read() drains - is its
 * file side, dma_file.c; the settings that govern it (MPS, channels,
 * pacing, host-p2p) are settings.c's.
 *
 * Submission (dma_file.c) checks a batch, with pciesw_dma_check() for what
 * each descriptor names, pins host buffers, and under sw->lock has the
 * engine resolve endpoints to references on their page stores and decide
 * each descriptor's route (pciesw_dma_resolve_all()), then queue the batch
 * on its channels (pciesw_dma_queue()), counting it in flight per switch
 * and per lane group crossed (the group-busy hook of re-bifurcation).
 *
 * Channels: one work item each on an unbound workqueue of the switch
 * (max_active = dma-channels), so channels run in parallel on the CPUs and
 * a channel runs its descriptors in order.  A worker takes a run of
 * descriptors off its queue (up to PCIESW_DMA_RUN_MAX, PCIESW_DMA_RUN_BYTES
 * past the first), checks their routes and links and books them on the
 * bandwidth model in one pass under sw->lock, moves the bytes with the CPU
 * in chunks, adds up the traffic of each route, unpins and drops their
 * references, counts the traffic on every port crossed, then delivers the
 * run's completions, a file's at once with one wake-up.  A submission
 * likewise takes its descriptors from the slab cache at once, resolves
 * them in one pass under sw->lock (the route of the previous descriptor
 * when the endpoints are the same) and queues a channel's in one splice.
 * With pacing on, a run is one descriptor and each chunk waits for the time
 * the model says it has crossed the links, so the data arrives at link
 * speed and the completion at the modelled end; closing the file or
 * removing the switch ends the waiting (the transfer then finishes at
 * memory speed).
 *
 * The model's clock for a descriptor starts when the channel could have
 * started it: at submission, or when the channel's previous descriptor
 * ended in the model, whichever is later.  So the modelled links stay busy
 * back to back however late a worker wakes, and duration_ns = modelled end
 * - that start: the transfer's time on its links, including waiting for
 * links that other channels' transfers occupy, not for its own channel.
 *
 * Every descriptor completes exactly once: ok, p2p-refused, unplugged,
 * link-down, nomem, or cancelled when its file is closed or the switch is
 * removed before it ran.  Link-down is checked when the descriptor is
 * booked and before every chunk (a link going down bumps
 * sw->link_downs, so the worker looks at its route's links only then):
 * a link lost mid-transfer ends it with link-down and the bytes moved.
 * Removing the switch cancels what is queued and waits for what is
 * running, and no worker runs after pciesw_dma_stop().
 *
 * Locks: see dma.h.
 */

#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "dma.h"

/* bytes moved between two checks for an unplug, and counted at a time */
#define PCIESW_DMA_CHUNK	SZ_64K
/* longest a pacing worker sleeps before it looks for an unplug again */
#define PCIESW_DMA_PACE_MAX_NS	(10 * NSEC_PER_MSEC)
/* unpaced, a worker takes up to this many descriptors, or bytes, a run */
#define PCIESW_DMA_RUN_MAX	64
#define PCIESW_DMA_RUN_BYTES	SZ_1M
/* traffic is counted at least every so many bytes moved */
#define PCIESW_DMA_ACCT_MAX	SZ_1M

static void pciesw_dma_chan_work(struct work_struct *work);

struct kmem_cache *pciesw_dma_xfer_cache;

/* the file side's hooks (dma_file.c), set at module init */
static const struct pciesw_dma_client *pciesw_dma_client;

void pciesw_dma_client_register(const struct pciesw_dma_client *c)
{
	pciesw_dma_client = c;
}

int pciesw_dma_cache_init(void)
{
	/*
	 * Descriptors are made for whoever submits them and held until read
	 * back (PCIESW_DMA_MAX_INFLIGHT a file): charged to the submitter's
	 * memory cgroup, endpoint-to-endpoint ones pinning nothing else.
	 */
	pciesw_dma_xfer_cache = KMEM_CACHE(pciesw_dma_xfer, SLAB_ACCOUNT);
	return pciesw_dma_xfer_cache ? 0 : -ENOMEM;
}

void pciesw_dma_cache_exit(void)
{
	kmem_cache_destroy(pciesw_dma_xfer_cache);
}

/* ---- engine state ---- */

unsigned int pciesw_dma_inflight(struct pciesw_switch *sw)
{
	return atomic_read(&sw->dma->inflight);
}

/* DMA whose route crosses a port of lane group @group is in flight. */
bool pciesw_dma_group_busy(struct pciesw_switch *sw, unsigned int group)
{
	lockdep_assert_held(&sw->lock);
	return atomic_read(&sw->dma->group_inflight[group]) > 0;
}

int pciesw_dma_init(struct pciesw_switch *sw)
{
	struct pciesw_dma *dma;
	unsigned int i;
	int err;

	dma = kzalloc(sizeof(*dma), GFP_KERNEL);
	if (!dma)
		return -ENOMEM;
	dma->sw = sw;
	atomic_set(&dma->inflight, 0);
	for (i = 0; i < ARRAY_SIZE(dma->group_inflight); i++)
		atomic_set(&dma->group_inflight[i], 0);
	init_waitqueue_head(&dma->idle);
	spin_lock_init(&dma->files_lock);
	INIT_LIST_HEAD(&dma->files);
	for (i = 0; i < PCIESW_DMA_CHANNELS_MAX; i++) {
		struct pciesw_dma_chan *chan = &dma->chans[i];

		chan->dma = dma;
		chan->id = i;
		spin_lock_init(&chan->lock);
		INIT_LIST_HEAD(&chan->queue);
		init_waitqueue_head(&chan->wait);
		INIT_WORK(&chan->work, pciesw_dma_chan_work);
	}
	err = pciesw_route_init(sw);
	if (err)
		goto err_free;
	dma->wq = alloc_workqueue("%s_dma", WQ_UNBOUND, sw->dma_channels,
				  sw->name);
	if (!dma->wq) {
		err = -ENOMEM;
		goto err_route;
	}
	sw->dma = dma;
	return 0;

err_route:
	pciesw_route_release(sw);
err_free:
	kfree(dma);
	return err;
}

/* At release: nothing is in flight (see pciesw_dma_stop()). */
void pciesw_dma_release(struct pciesw_switch *sw)
{
	struct pciesw_dma *dma = sw->dma;

	if (!dma)
		return;
	WARN_ON(atomic_read(&dma->inflight));
	WARN_ON(!list_empty(&dma->files));
	destroy_workqueue(dma->wq);
	pciesw_route_release(sw);
	kfree(dma);
	sw->dma = NULL;
}

/* A new number of channels (settings.c): as many workers run at once. */
void pciesw_dma_set_channels(struct pciesw_switch *sw, unsigned int n)
{
	lockdep_assert_held(&sw->lock);
	workqueue_set_max_active(sw->dma->wq, n);
}

/* ---- completion ---- */

/* Drop what @x holds: page stores, pinned pages; its completion is due. */
void pciesw_dma_xfer_release(struct pciesw_dma_xfer *x)
{
	if (x->src.mem) {
		pciesw_mem_put(x->src.mem);
		x->src.mem = NULL;
	}
	if (x->dst.mem) {
		pciesw_mem_put(x->dst.mem);
		x->dst.mem = NULL;
	}
	if (x->src.pages || x->dst.pages)
		pciesw_dma_client->unpin(x);
	mem_cgroup_put(x->memcg);
	x->memcg = NULL;
}

/*
 * pciesw_dma_xfer_release() of each descriptor on @xs, the references of
 * consecutive ones on a page store dropped at once.
 */
static void pciesw_dma_release_all(struct list_head *xs)
{
	struct pciesw_mem *mem[2] = {};
	unsigned int i, nr[2] = {};
	struct pciesw_dma_xfer *x;

	list_for_each_entry(x, xs, node) {
		struct pciesw_mem *m[2] = { x->src.mem, x->dst.mem };

		for (i = 0; i < 2; i++) {
			if (m[i] != mem[i]) {
				if (nr[i])
					pciesw_mem_put_many(mem[i], nr[i]);
				mem[i] = m[i];
				nr[i] = 0;
			}
			nr[i] += !!m[i];
		}
		x->src.mem = NULL;
		x->dst.mem = NULL;
		pciesw_dma_xfer_release(x);
	}
	for (i = 0; i < 2; i++)
		if (nr[i])
			pciesw_mem_put_many(mem[i], nr[i]);
}

/*
 * The one completion of each descriptor on @xs (released already), in
 * order: out of the engine's counts, then to their files, a file's
 * consecutive ones at once (the client's complete hook).  Nothing of @xs
 * nor their files may be touched afterwards by the caller.
 */
static void pciesw_dma_complete(struct pciesw_dma *dma, struct list_head *xs)
{
	unsigned int groups[PCIESW_MAX_GROUPS] = {};
	struct pciesw_dma_xfer *x, *tmp;
	unsigned int i, n = 0;

	list_for_each_entry(x, xs, node) {
		for (i = 0; i < x->route.nr_groups; i++)
			groups[x->route.groups[i]]++;
		n++;
	}
	if (!n)
		return;
	for (i = 0; i < PCIESW_MAX_GROUPS; i++)
		if (groups[i])
			atomic_sub(groups[i], &dma->group_inflight[i]);
	if (atomic_sub_and_test(n, &dma->inflight))
		wake_up_all(&dma->idle);
	while (!list_empty(xs)) {
		struct pciesw_dma_file *f;
		LIST_HEAD(one);

		f = list_first_entry(xs, struct pciesw_dma_xfer, node)->file;
		n = 0;
		list_for_each_entry_safe(x, tmp, xs, node) {
			if (x->file != f)
				break;
			list_move_tail(&x->node, &one);
			n++;
		}
		pciesw_dma_client->complete(f, &one, n);
	}
}

/* The descriptors on @xs never ran: they complete as cancelled. */
void pciesw_dma_cancel(struct pciesw_dma *dma, struct list_head *xs)
{
	struct pciesw_dma_xfer *x;

	list_for_each_entry(x, xs, node) {
		x->comp.status = PCIESW_DMA_STATUS_CANCELLED;
		pciesw_dma_xfer_release(x);
	}
	pciesw_dma_complete(dma, xs);
}

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
 *	each chunk, as pciesw_stats_account() counts them)
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
	/* the engine's read requests go out, the data comes back */
	pciesw_stats_account_tlps(sw, src, PCIESW_DIR_EGRESS,
				  PCIESW_TLP_NON_POSTED, a->bytes, a->np_tlps);
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
static void pciesw_dma_chan_work(struct work_struct *work)
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

/* ---- queues ---- */

/*
 * Take @f's descriptors (all of them when @f is NULL) off the channels'
 * queues, and wake the pacing workers so that they stop waiting.  Returns
 * them on @out.
 */
void pciesw_dma_unqueue(struct pciesw_dma *dma, struct pciesw_dma_file *f,
			struct list_head *out)
{
	struct pciesw_dma_xfer *x, *tmp;
	unsigned int i;

	for (i = 0; i < PCIESW_DMA_CHANNELS_MAX; i++) {
		struct pciesw_dma_chan *chan = &dma->chans[i];

		spin_lock(&chan->lock);
		list_for_each_entry_safe(x, tmp, &chan->queue, node)
			if (!f || x->file == f)
				list_move_tail(&x->node, out);
		WRITE_ONCE(chan->kicks, chan->kicks + 1);
		spin_unlock(&chan->lock);
		wake_up_all(&chan->wait);
	}
}

/*
 * The switch is going (sw->dead is set, so nothing new is submitted):
 * cancel what is queued, let the running transfers finish without pacing,
 * wait for them and for the workers to return.
 */
void pciesw_dma_stop(struct pciesw_switch *sw)
{
	struct pciesw_dma *dma = sw->dma;
	struct pciesw_dma_file *f;
	LIST_HEAD(cancelled);

	WRITE_ONCE(dma->stopping, true);
	pciesw_dma_unqueue(dma, NULL, &cancelled);
	pciesw_dma_cancel(dma, &cancelled);
	wait_event(dma->idle, !atomic_read(&dma->inflight));
	drain_workqueue(dma->wq);

	/* readers waiting for completions that will never come */
	spin_lock(&dma->files_lock);
	list_for_each_entry(f, &dma->files, node)
		wake_up_all(&f->wait);
	spin_unlock(&dma->files_lock);
}

/* ---- submission: what a descriptor names, its route ---- */

static bool pciesw_dma_loc_bad(const struct pciesw_dma_loc *l)
{
	return l->reserved;
}

/**
 * pciesw_dma_check - the checks of a transfer that need no lock
 * @src: where the bytes come from
 * @dst: where they go
 * @len: how many
 *
 * Reserved fields clear, @len 1..PCIESW_DMA_MAX_LEN, not host to host:
 * the one check of a submitted descriptor (dma_file.c) and of the bench
 * hook's copy.  0 or -EINVAL.
 */
int pciesw_dma_check(const struct pciesw_dma_loc *src,
		     const struct pciesw_dma_loc *dst, u64 len)
{
	if (pciesw_dma_loc_bad(src) || pciesw_dma_loc_bad(dst) || !len ||
	    len > PCIESW_DMA_MAX_LEN ||
	    (src->ep_id == PCIESW_DMA_HOST && dst->ep_id == PCIESW_DMA_HOST))
		return -EINVAL;
	return 0;
}

/* @l's @addr + @len is inside the window of @ep (none: host memory). */
static int pciesw_dma_bounds(const struct pciesw_endpoint *ep,
			     const struct pciesw_dma_loc *l, u64 len)
{
	u64 end;

	if (!ep)
		return 0;
	if (check_add_overflow(l->addr, len, &end))
		return -EOVERFLOW;
	if (end > ep->mem_size)
		return -ERANGE;
	return 0;
}

/* An endpoint side: the endpoint, with @addr + @len inside its window. */
static int pciesw_dma_resolve(struct pciesw_switch *sw,
			      const struct pciesw_dma_loc *l, u64 len,
			      struct pciesw_endpoint **epp)
{
	struct pciesw_endpoint *ep;
	int err;

	*epp = NULL;
	if (l->ep_id == PCIESW_DMA_HOST)
		return 0;
	ep = pciesw_ep_find(sw, l->ep_id);
	if (!ep)
		return -ENOENT;
	err = pciesw_dma_bounds(ep, l, len);
	if (err)
		return err;
	*epp = ep;
	return 0;
}

/*
 * The checks that need sw->lock (channel, endpoints, window bounds) and
 * the route of each of @n descriptors, in order.  Returns the index of the
 * first one refused in *@bad.  Nothing changes under the lock meanwhile:
 * a descriptor naming the same endpoints as the one before takes its
 * route, as pciesw_route_find() would have found it again.
 */
int pciesw_dma_resolve_all(struct pciesw_switch *sw,
			   const struct pciesw_dma_desc *descs,
			   struct pciesw_dma_xfer **xs, unsigned int n,
			   unsigned int *bad)
{
	const struct pciesw_dma_desc *prev = NULL;
	struct pciesw_endpoint *src, *dst;
	unsigned int i;
	int err;

	lockdep_assert_held(&sw->lock);
	for (i = 0; i < n; i++) {
		const struct pciesw_dma_desc *d = &descs[i];

		*bad = i;
		if (d->channel >= sw->dma_channels)
			return -EINVAL;
		if (prev && d->src.ep_id == prev->src.ep_id &&
		    d->dst.ep_id == prev->dst.ep_id) {
			/* the same endpoints: only the bounds differ */
			err = pciesw_dma_bounds(src, &d->src, d->len);
			if (!err)
				err = pciesw_dma_bounds(dst, &d->dst, d->len);
			if (err)
				return err;
			xs[i]->route = xs[i - 1]->route;
		} else {
			err = pciesw_dma_resolve(sw, &d->src, d->len, &src);
			if (!err)
				err = pciesw_dma_resolve(sw, &d->dst, d->len,
							 &dst);
			if (!err)
				err = pciesw_route_find(sw, src, dst,
							&xs[i]->route);
			if (err)
				return err;
		}
		prev = d;
		if (src)
			xs[i]->src.mem = pciesw_mem_get(src->mem);
		if (dst)
			xs[i]->dst.mem = pciesw_mem_get(dst->mem);
	}
	return 0;
}

/*
 * Queue @n resolved descriptors on their channels and start the channels'
 * workers; the file has counted them already.  With sw->lock held.
 */
void pciesw_dma_queue(struct pciesw_switch *sw,
		      const struct pciesw_dma_desc *descs,
		      struct pciesw_dma_xfer **xs, unsigned int n)
{
	unsigned int groups[PCIESW_MAX_GROUPS] = {};
	struct pciesw_dma *dma = sw->dma;
	unsigned long kick = 0;
	unsigned int i, j;
	u64 now;

	lockdep_assert_held(&sw->lock);
	/* counted before any of them can complete */
	atomic_add(n, &dma->inflight);
	for (i = 0; i < n; i++)
		for (j = 0; j < xs[i]->route.nr_groups; j++)
			groups[xs[i]->route.groups[j]]++;
	for (i = 0; i < PCIESW_MAX_GROUPS; i++)
		if (groups[i])
			atomic_add(groups[i], &dma->group_inflight[i]);
	now = ktime_get_ns();
	/* each run of consecutive descriptors of a channel in one go */
	for (i = 0; i < n; i = j) {
		struct pciesw_dma_chan *chan = &dma->chans[descs[i].channel];
		LIST_HEAD(run);

		for (j = i; j < n && descs[j].channel == chan->id; j++) {
			xs[j]->submitted = now;
			list_add_tail(&xs[j]->node, &run);
		}
		spin_lock(&chan->lock);
		list_splice_tail(&run, &chan->queue);
		spin_unlock(&chan->lock);
		kick |= BIT(chan->id);
	}
	for_each_set_bit(i, &kick, PCIESW_DMA_CHANNELS_MAX)
		queue_work(dma->wq, &dma->chans[i].work);
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
