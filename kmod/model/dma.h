/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the DMA engine (dma.c, and dma_run.c, which runs its transfers)
 * and its file interface (dev/dma_file.c) share: the transfer, channel,
 * engine and file structures, the calls the file side makes of the
 * engine, the calls between the engine's two files, and the hooks through
 * which the engine gives back what it ran (struct pciesw_dma_client),
 * which the file side registers: the engine calls nothing of it directly.
 * Nothing else includes this: the views use the pciesw_dma_*() calls of
 * pciesw.h.
 *
 * The engine owns the channels, the routes and the bandwidth booking, the
 * copy, pacing and the production of every completion; the file side owns
 * what an open /dev/pcieswN has submitted: the checks of its descriptors,
 * its pinned host pages, its completion queue, read() and poll().
 *
 * Locks, outermost first: sw->lock, then a channel's lock, or a file's
 * lock, or dma->files_lock; the last three never nest.
 */
#ifndef _PCIESW_DMA_H
#define _PCIESW_DMA_H

#include <linux/list.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "model/pciesw.h"
#include "model/route.h"

/**
 * struct pciesw_dma_end - one side of a transfer, as a worker sees it
 * @mem: the endpoint's page store (referenced), NULL for host memory
 * @pages: host memory: the pinned pages
 * @nr_pages: entries of @pages
 * @off: endpoint: offset in the window; host: offset from the start of
 *	the first pinned page
 * @mm: host memory: the submitter's mm (grabbed), whose pinned_vm counts
 *	@pages against its RLIMIT_MEMLOCK
 */
struct pciesw_dma_end {
	struct pciesw_mem *mem;
	struct page **pages;
	unsigned long nr_pages;
	u64 off;
	struct mm_struct *mm;
};

/**
 * struct pciesw_dma_xfer - one submitted descriptor
 * @node: in its channel's queue, then its file's completion queue (each
 *	under that owner's lock)
 * @file: the file it completes to
 * @src: where the bytes come from
 * @dst: where they go
 * @len: bytes to move
 * @submitted: CLOCK_MONOTONIC ns of its submission
 * @route: its route, decided at submission
 * @link_downs: sw->link_downs when its route's links were last seen up
 * @comp: the completion record read() returns
 * @memcg: the submitter's memory cgroup (referenced) when the destination
 *	is an endpoint: the pages the transfer makes are charged to it
 */
struct pciesw_dma_xfer {
	struct list_head node;
	struct pciesw_dma_file *file;
	struct pciesw_dma_end src;
	struct pciesw_dma_end dst;
	u64 len;
	u64 submitted;
	struct pciesw_route route;
	int link_downs;
	struct pciesw_dma_completion comp;
	struct mem_cgroup *memcg;
};

/**
 * struct pciesw_dma_chan - a DMA channel
 * @dma: the engine
 * @id: channel number
 * @lock: protects @queue and @kicks
 * @queue: descriptors waiting to run, in submission order
 * @kicks: bumped when a pacing worker must look again (a file closed,
 *	the engine stops); read locklessly by the waiting worker
 * @wait: a pacing worker sleeps here until its next chunk is due
 * @busy_until: the modelled end of the channel's last transfer; only its
 *	worker (one at a time) touches it
 * @work: the channel's worker
 */
struct pciesw_dma_chan {
	struct pciesw_dma *dma;
	unsigned int id;
	spinlock_t lock;	/* protects queue, kicks */
	struct list_head queue;
	unsigned long kicks;
	wait_queue_head_t wait;
	u64 busy_until;
	struct work_struct work;
};

/**
 * struct pciesw_dma - the DMA engine of a switch
 * @sw: the switch
 * @wq: runs the channels' workers
 * @inflight: descriptors submitted and not yet completed
 * @group_inflight: the same, per lane group the descriptor's route crosses
 * @stopping: the switch is going: complete everything now
 * @idle: pciesw_dma_stop() waits here for @inflight to reach 0
 * @files_lock: protects @files
 * @files: open files (struct pciesw_dma_file), to wake them at removal
 * @chans: the channels, all PCIESW_DMA_CHANNELS_MAX of them; descriptors
 *	may name the first sw->dma_channels
 */
struct pciesw_dma {
	struct pciesw_switch *sw;
	struct workqueue_struct *wq;
	atomic_t inflight;
	atomic_t group_inflight[PCIESW_MAX_GROUPS];
	bool stopping;
	wait_queue_head_t idle;
	spinlock_t files_lock;	/* protects files */
	struct list_head files;
	struct pciesw_dma_chan chans[PCIESW_DMA_CHANNELS_MAX];
};

/**
 * struct pciesw_dma_file - what an open /dev/pcieswN has submitted
 * @sw: the switch, referenced
 * @can_read: opened for reading: its descriptors may read endpoint memory
 * @can_write: opened for writing: its descriptors may write endpoint memory
 * @node: in dma->files
 * @lock: protects everything below
 * @closed: released: completions are freed, not queued
 * @done: completions ready to read, in completion order
 * @nr_done: entries of @done
 * @outstanding: descriptors submitted and not read back
 * @inflight: descriptors submitted and not completed
 * @pinned: bytes of host buffers pinned for this file
 * @comp_version: the version of the completion records read() returns
 * @wait: readers and poll wait here for completions, release for
 *	@inflight to reach 0
 */
struct pciesw_dma_file {
	struct pciesw_switch *sw;
	bool can_read;
	bool can_write;
	struct list_head node;
	spinlock_t lock;	/* protects the fields below */
	bool closed;
	struct list_head done;
	unsigned int nr_done;
	unsigned int outstanding;
	unsigned int inflight;
	u64 pinned;
	u32 comp_version;
	wait_queue_head_t wait;
};

/*
 * The descriptors, from one slab cache (main.c creates it first and
 * destroys it last): submission takes a batch's at once, read() gives
 * them back as many at a time.
 */
extern struct kmem_cache *pciesw_dma_xfer_cache;

/* dma.c: the engine */
int pciesw_dma_check(const struct pciesw_dma_loc *src,
		     const struct pciesw_dma_loc *dst, u64 len);
int pciesw_dma_resolve_all(struct pciesw_switch *sw,
			   const struct pciesw_dma_desc *descs,
			   struct pciesw_dma_xfer **xs, unsigned int n,
			   unsigned int *bad);
void pciesw_dma_queue(struct pciesw_switch *sw,
		      const struct pciesw_dma_desc *descs,
		      struct pciesw_dma_xfer **xs, unsigned int n);
void pciesw_dma_unqueue(struct pciesw_dma *dma, struct pciesw_dma_file *f,
			struct list_head *out);
void pciesw_dma_xfer_release(struct pciesw_dma_xfer *x);
void pciesw_dma_cancel(struct pciesw_dma *dma, struct list_head *xs);
/* dma.c, for dma_run.c: a run's end, the bench hook's endpoints */
void pciesw_dma_release_all(struct list_head *xs);
void pciesw_dma_complete(struct pciesw_dma *dma, struct list_head *xs);
int pciesw_dma_resolve(struct pciesw_switch *sw,
		       const struct pciesw_dma_loc *l, u64 len,
		       struct pciesw_endpoint **epp);

/* dma_run.c: a channel's worker (chan->work) */
void pciesw_dma_chan_work(struct work_struct *work);

/**
 * struct pciesw_dma_client - how the engine gives back what it ran
 * @complete: the one completion of each of the @n descriptors on @xs
 *	(released already) reaches their file @f, in order; nothing of @xs
 *	nor @f may be touched afterwards by the engine
 * @unpin: unpin the host buffer of @x and uncount it
 *
 * The file side (dev/dma_file.c) registers it at module init, as the views
 * register for the model's events (event.c): the engine calls no file of
 * whoever submits.
 */
struct pciesw_dma_client {
	void (*complete)(struct pciesw_dma_file *f, struct list_head *xs,
			 unsigned int n);
	void (*unpin)(struct pciesw_dma_xfer *x);
};

void pciesw_dma_client_register(const struct pciesw_dma_client *c);

static inline void pciesw_dma_xfer_free(struct pciesw_dma_xfer *x)
{
	kmem_cache_free(pciesw_dma_xfer_cache, x);
}

#endif /* _PCIESW_DMA_H */
