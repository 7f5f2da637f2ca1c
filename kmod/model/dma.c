// SPDX-License-Identifier: GPL-2.0
/*
 * The DMA engine: peer-to-peer and host transfers between endpoint memory
 * windows and host memory, on channels, along routes the bandwidth model
 * books.  What feeds it - the descriptors an open /dev/pcieswN submits,
 * their pinned host pages and the completion queue read() drains - is its
 * file side, dev/dma_file.c; the settings that govern it (MPS, channels,
 * pacing, host-p2p) are settings.c's.
 *
 * This file holds the engine's state, its channels' queues, what a
 * submission asks of it and the completions; dma_run.c runs what is
 * queued (the channels' workers: booking on the bandwidth model, the copy,
 * pacing, counting the traffic) and holds the bench hook, the engine's
 * copy without the engine.
 *
 * Submission (dev/dma_file.c) checks a batch, with pciesw_dma_check() for what
 * each descriptor names, pins host buffers, and under sw->lock has the
 * engine resolve endpoints to references on their page stores and decide
 * each descriptor's route (pciesw_dma_resolve_all()), then queue the batch
 * on its channels (pciesw_dma_queue()), counting it in flight per switch
 * and per lane group crossed (the group-busy hook of re-bifurcation).
 * A submission takes its descriptors from the slab cache at once, resolves
 * them in one pass under sw->lock (the route of the previous descriptor
 * when the endpoints are the same) and queues a channel's in one splice.
 *
 * Every descriptor completes exactly once: ok, p2p-refused, unplugged,
 * link-down, nomem, or cancelled when its file is closed or the switch is
 * removed before it ran.  Removing the switch cancels what is queued and
 * waits for what is running, and no worker runs after pciesw_dma_stop().
 *
 * Locks: see dma.h.
 */

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "model/dma.h"
#include "nvme/nvme.h"

struct kmem_cache *pciesw_dma_xfer_cache;

/* the file side's hooks (dev/dma_file.c), set at module init */
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
void pciesw_dma_release_all(struct list_head *xs)
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
void pciesw_dma_complete(struct pciesw_dma *dma, struct list_head *xs)
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
 * the one check of a submitted descriptor (dev/dma_file.c) and of the bench
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
int pciesw_dma_resolve(struct pciesw_switch *sw,
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
 * A drive's SMART counts what it moves as the batch is accepted
 * (pciesw_dma_queue()), not as it is resolved: a batch refused after
 * pciesw_dma_resolve_all() (a later descriptor, the file's in-flight cap)
 * moves nothing, and a client retrying it must not add it up again.  The
 * endpoints are those pciesw_dma_resolve_all() found in this hold of
 * sw->lock.
 */
static void pciesw_dma_count_drives(struct pciesw_switch *sw,
				    const struct pciesw_dma_desc *descs,
				    unsigned int n)
{
	struct pciesw_endpoint *ep[2] = {};
	u32 id[2] = { PCIESW_DMA_HOST, PCIESW_DMA_HOST };
	unsigned int i, k;

	lockdep_assert_held(&sw->lock);
	for (i = 0; i < n; i++) {
		const struct pciesw_dma_loc *l[2] = { &descs[i].src,
						      &descs[i].dst };

		for (k = 0; k < 2; k++) {
			if (l[k]->ep_id == PCIESW_DMA_HOST)
				continue;
			if (!ep[k] || l[k]->ep_id != id[k]) {
				ep[k] = pciesw_ep_find(sw, l[k]->ep_id);
				id[k] = l[k]->ep_id;
			}
			if (ep[k] && ep[k]->nvme)
				pciesw_nvme_count(ep[k]->nvme, k == 1,
						  descs[i].len);
		}
	}
}

/*
 * Queue @n resolved descriptors, a batch the file accepted, on their
 * channels and start the channels' workers; the file has counted them
 * already, the drives' SMART counts them here.  With sw->lock held.
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
	pciesw_dma_count_drives(sw, descs, n);
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
