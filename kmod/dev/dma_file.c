// SPDX-License-Identifier: GPL-2.0
/*
 * The file side of the DMA engine: what an open /dev/pcieswN submits and
 * reads back (chardev.c is the view, this is the model behind it).
 *
 * Submission (process context, pciesw_dma_submit()) checks a whole batch,
 * pins the host buffers of the calling process, then, under sw->lock, has
 * the engine resolve endpoints and routes (pciesw_dma_resolve_all()),
 * counts the batch against the file's limit and hands it to the engine's
 * channels (pciesw_dma_queue()).  All or nothing: a refused batch leaves
 * nothing pinned, referenced or queued.
 *
 * Every descriptor completes exactly once (model/dma.c); its completion comes
 * to its file's queue here, through the hooks this file registers with the
 * engine (pciesw_dma_file_complete()), for read() and poll(), or is freed when
 * the file is closed. Closing a file cancels what it has queued and waits for
 * what is running; the host pages a transfer pinned are unpinned when it has
 * run (pciesw_dma_unpin()).
 */

#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "model/dma.h"

/* ---- completions ---- */

/*
 * The one completion of each of the @n descriptors on @xs (released
 * already) reaches their file @f, in order: its queue, with one wake-up,
 * or freed when the file is closed.  Nothing of @xs nor @f may be
 * touched afterwards by the caller.
 */
static void pciesw_dma_file_complete(struct pciesw_dma_file *f,
				     struct list_head *xs, unsigned int n)
{
	struct pciesw_dma_xfer *x, *tmp;
	bool closed;

	spin_lock(&f->lock);
	closed = f->closed;
	if (!closed) {
		list_splice_tail_init(xs, &f->done);
		f->nr_done += n;
	}
	f->inflight -= n;
	/*
	 * Under the lock: release checks @inflight under it too, so it
	 * cannot free @f before this wake-up has returned.
	 */
	wake_up_all(&f->wait);
	spin_unlock(&f->lock);
	list_for_each_entry_safe(x, tmp, xs, node)
		pciesw_dma_xfer_free(x);
}

/* ---- files ---- */

/*
 * @can_read, @can_write: the file's mode; a descriptor may read only the
 * endpoint memory of a readable file and write only that of a writable
 * one (pciesw_dma_prepare()), as read() and write() would.
 */
struct pciesw_dma_file *pciesw_dma_file_open(struct pciesw_switch *sw,
					     bool can_read, bool can_write)
{
	struct pciesw_dma *dma = sw->dma;
	struct pciesw_dma_file *f;

	/* one per open file, of whoever opens it: charged to its memcg */
	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return NULL;
	kref_get(&sw->refs);
	f->sw = sw;
	f->can_read = can_read;
	f->can_write = can_write;
	f->comp_version = PCIESW_DMA_COMPLETION_V1;
	spin_lock_init(&f->lock);
	INIT_LIST_HEAD(&f->done);
	init_waitqueue_head(&f->wait);
	spin_lock(&dma->files_lock);
	list_add_tail(&f->node, &dma->files);
	spin_unlock(&dma->files_lock);
	return f;
}

static bool pciesw_dma_file_idle(struct pciesw_dma_file *f)
{
	bool idle;

	spin_lock(&f->lock);
	idle = !f->inflight;
	spin_unlock(&f->lock);
	return idle;
}

/*
 * The file is closed: what it queued completes as cancelled, what runs
 * finishes; then nothing of it is left anywhere.
 */
void pciesw_dma_file_release(struct pciesw_dma_file *f)
{
	struct pciesw_dma *dma = f->sw->dma;
	struct pciesw_dma_xfer *x, *tmp;
	LIST_HEAD(cancelled);

	spin_lock(&dma->files_lock);
	list_del(&f->node);
	spin_unlock(&dma->files_lock);

	spin_lock(&f->lock);
	f->closed = true;
	spin_unlock(&f->lock);
	pciesw_dma_unqueue(dma, f, &cancelled);
	pciesw_dma_cancel(dma, &cancelled);
	wait_event(f->wait, pciesw_dma_file_idle(f));

	/* nothing completes to @f any more: no lock needed */
	list_for_each_entry_safe(x, tmp, &f->done, node) {
		list_del(&x->node);
		pciesw_dma_xfer_free(x);
	}
	WARN_ON(f->pinned);
	pciesw_switch_put(f->sw);
	kfree(f);
}

bool pciesw_dma_file_dead(struct pciesw_dma_file *f)
{
	return READ_ONCE(f->sw->dead);
}

struct wait_queue_head *pciesw_dma_file_wait(struct pciesw_dma_file *f)
{
	return &f->wait;
}

bool pciesw_dma_readable(struct pciesw_dma_file *f)
{
	bool ready;

	spin_lock(&f->lock);
	ready = !list_empty(&f->done);
	spin_unlock(&f->lock);
	return ready;
}

/* Completions are ready, or none ever will be. */
static bool pciesw_dma_read_ready(struct pciesw_dma_file *f)
{
	return pciesw_dma_readable(f) || pciesw_dma_file_dead(f);
}

static size_t pciesw_dma_record_size(u32 version)
{
	return version == PCIESW_DMA_COMPLETION_V2 ?
	       sizeof(struct pciesw_dma_completion2) :
	       sizeof(struct pciesw_dma_completion);
}

/**
 * pciesw_dma_file_format - the completion record version of a file
 * @f: the file
 * @version: in: the version to read from now on, or 0 to keep it; out:
 *	the file's version
 * @record_size: out: the bytes of one of its records
 *
 * A change waits for nothing: -EBUSY while the file has descriptors
 * submitted and not read back, so that read() never mixes versions.
 */
int pciesw_dma_file_format(struct pciesw_dma_file *f, u32 *version,
			   u32 *record_size)
{
	int err = 0;

	spin_lock(&f->lock);
	if (*version && *version != f->comp_version) {
		if (f->outstanding)
			err = -EBUSY;
		else
			f->comp_version = *version;
	}
	*version = f->comp_version;
	spin_unlock(&f->lock);
	*record_size = pciesw_dma_record_size(*version);
	return err;
}

/* read() copies out this many bytes of records at a time */
#define PCIESW_DMA_READ_CHUNK	512

/* The record of @c in @version at @buf, a kernel buffer. */
static void pciesw_dma_put_record(void *buf, u32 version,
				  const struct pciesw_dma_completion *c)
{
	struct pciesw_dma_completion2 *c2 = buf;

	if (version != PCIESW_DMA_COMPLETION_V2) {
		memcpy(buf, c, sizeof(*c));
		return;
	}
	memset(c2, 0, sizeof(*c2));
	c2->size = sizeof(*c2);
	c2->version = PCIESW_DMA_COMPLETION_V2;
	c2->status = c->status;
	c2->user_data = c->user_data;
	c2->bytes = c->bytes;
	c2->duration_ns = c->duration_ns;
	c2->channel = c->channel;
}

/*
 * Copy the records of @got out to @buf, @rec bytes each, a
 * PCIESW_DMA_READ_CHUNK at a time, and free the descriptors of the
 * records copied whole.  Returns how many; the others stay on @got, in
 * order.
 */
static size_t pciesw_dma_put_records(char __user *buf, u32 version,
				     size_t rec, struct list_head *got)
{
	void *objs[PCIESW_DMA_READ_CHUNK / sizeof(struct pciesw_dma_completion)];
	u8 kbuf[PCIESW_DMA_READ_CHUNK] __aligned(8);
	size_t per = sizeof(kbuf) / rec, done = 0, i, k, left;
	struct pciesw_dma_xfer *x, *tmp;

	while (!list_empty(got)) {
		k = 0;
		list_for_each_entry(x, got, node) {
			if (k == per)
				break;
			pciesw_dma_put_record(kbuf + k * rec, version,
					      &x->comp);
			k++;
		}
		left = copy_to_user(buf + done * rec, kbuf, k * rec);
		/* what was copied whole is read */
		k = (k * rec - left) / rec;
		i = 0;
		list_for_each_entry_safe(x, tmp, got, node) {
			if (i == k)
				break;
			list_del(&x->node);
			objs[i++] = x;
		}
		if (k)
			kmem_cache_free_bulk(pciesw_dma_xfer_cache, k, objs);
		done += k;
		if (left)
			break;
	}
	return done;
}

/**
 * pciesw_dma_read - read() of completion records
 * @f: the file
 * @buf: user buffer
 * @count: its size; at least one record of the file's version
 * @nonblock: -EAGAIN rather than wait
 *
 * Returns whole records, as many as are ready and fit; waits for one
 * unless @nonblock.  -ENODEV once the switch is gone and none are left.
 */
ssize_t pciesw_dma_read(struct pciesw_dma_file *f, char __user *buf,
			size_t count, bool nonblock)
{
	struct pciesw_dma_xfer *x, *tmp;
	size_t rec, max, taken, n = 0;
	LIST_HEAD(got);
	u32 version;
	int err;

	for (;;) {
		spin_lock(&f->lock);
		/* it changes only while nothing is outstanding */
		version = f->comp_version;
		rec = pciesw_dma_record_size(version);
		max = count / rec;
		if (!max) {
			spin_unlock(&f->lock);
			return -EINVAL;
		}
		if (f->nr_done <= max) {
			/* all of them: not one at a time under the lock */
			list_splice_init(&f->done, &got);
			n = f->nr_done;
		} else {
			list_for_each_entry_safe(x, tmp, &f->done, node) {
				if (n == max)
					break;
				list_move_tail(&x->node, &got);
				n++;
			}
		}
		f->nr_done -= n;
		spin_unlock(&f->lock);
		if (n)
			break;
		if (pciesw_dma_file_dead(f))
			return -ENODEV;
		if (nonblock)
			return -EAGAIN;
		err = wait_event_interruptible(f->wait,
					       pciesw_dma_read_ready(f));
		if (err)
			return err;
	}

	taken = n;
	n = pciesw_dma_put_records(buf, version, rec, &got);
	spin_lock(&f->lock);
	f->outstanding -= n;
	/* what could not be copied goes back to the front, in order */
	list_splice(&got, &f->done);
	f->nr_done += taken - n;
	spin_unlock(&f->lock);
	return n ? n * rec : -EFAULT;
}

/* ---- host memory ---- */

/*
 * Host pages stay pinned behind queued work (seconds with pacing): long
 * term pins, counted in the process's pinned_vm (VmPin) against its
 * RLIMIT_MEMLOCK as RDMA's ib_umem_get() and io_uring's registered
 * buffers count theirs; CAP_IPC_LOCK lifts the limit.  -ENOMEM past it,
 * as theirs.
 */
static int pciesw_dma_charge_pinned(struct mm_struct *mm, unsigned long nr)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;

	if ((u64)atomic64_add_return(nr, &mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		atomic64_sub(nr, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Pin the host buffer of one side: @addr, @len bytes (@addr + @len does
 * not wrap).
 */
static int pciesw_dma_pin(struct pciesw_dma_end *e, u64 addr, u64 len,
			  bool write)
{
	unsigned long first = addr >> PAGE_SHIFT;
	unsigned long last = (addr + len - 1) >> PAGE_SHIFT;
	unsigned long nr = last - first + 1, done = 0;
	struct mm_struct *mm = current->mm;
	int ret;

	ret = pciesw_dma_charge_pinned(mm, nr);
	if (ret)
		return ret;
	e->pages = kvmalloc_array(nr, sizeof(*e->pages), GFP_KERNEL_ACCOUNT);
	if (!e->pages) {
		atomic64_sub(nr, &mm->pinned_vm);
		return -ENOMEM;
	}
	while (done < nr) {
		/* pin_user_pages_fast() takes an int count */
		int want = min_t(unsigned long, nr - done, SZ_64K);

		ret = pin_user_pages_fast((first + done) << PAGE_SHIFT, want,
					  FOLL_LONGTERM |
					  (write ? FOLL_WRITE : 0),
					  e->pages + done);
		if (ret <= 0)
			break;
		done += ret;
	}
	if (done < nr) {
		unpin_user_pages(e->pages, done);
		kvfree(e->pages);
		e->pages = NULL;
		atomic64_sub(nr, &mm->pinned_vm);
		return -EFAULT;
	}
	mmgrab(mm);
	e->mm = mm;
	e->nr_pages = nr;
	e->off = offset_in_page(addr);
	return 0;
}

static void pciesw_dma_end_unpin(struct pciesw_dma_end *e, bool dirty)
{
	if (!e->pages)
		return;
	if (dirty)
		unpin_user_pages_dirty_lock(e->pages, e->nr_pages, true);
	else
		unpin_user_pages(e->pages, e->nr_pages);
	atomic64_sub(e->nr_pages, &e->mm->pinned_vm);
	mmdrop(e->mm);
	e->mm = NULL;
	kvfree(e->pages);
	e->pages = NULL;
}

/* Unpin the host buffer of @x, if it has one, and uncount it. */
static void pciesw_dma_unpin(struct pciesw_dma_xfer *x)
{
	struct pciesw_dma_file *f = x->file;
	bool host = x->src.pages || x->dst.pages;

	pciesw_dma_end_unpin(&x->src, false);
	pciesw_dma_end_unpin(&x->dst, true);
	if (host) {
		spin_lock(&f->lock);
		f->pinned -= x->len;
		spin_unlock(&f->lock);
	}
}

/* ---- submission ---- */

/*
 * The checks of a descriptor that need no lock, and its host buffer
 * pinned.  @x is filled in once the checks pass (zeroed first); on
 * failure nothing is left pinned.
 */
static int pciesw_dma_prepare(struct pciesw_dma_file *f,
			      const struct pciesw_dma_desc *d,
			      struct pciesw_dma_xfer *x)
{
	bool src_host = d->src.ep_id == PCIESW_DMA_HOST;
	bool dst_host = d->dst.ep_id == PCIESW_DMA_HOST;
	u64 addr = src_host ? d->src.addr : d->dst.addr;
	u64 end;
	int err;

	if (d->flags || d->reserved)
		return -EINVAL;
	err = pciesw_dma_check(&d->src, &d->dst, d->len);
	if (err)
		return err;
	/*
	 * The file mode, as for read() and write() of the device: reading
	 * an endpoint (into a host buffer or another endpoint) needs a file
	 * open for reading, writing one (from either) a file open for
	 * writing.  A host buffer is the caller's own memory: pinning it
	 * for writing checks the caller may write it.
	 */
	if ((!src_host && !f->can_read) || (!dst_host && !f->can_write))
		return -EBADF;
	memset(x, 0, sizeof(*x));
	x->file = f;
	x->len = d->len;
	x->comp.user_data = d->user_data;
	x->comp.channel = d->channel;
	x->src.off = d->src.addr;
	x->dst.off = d->dst.addr;
	if (!src_host && !dst_host)
		goto charge;

	if (check_add_overflow(addr, d->len, &end))
		return -EOVERFLOW;
	spin_lock(&f->lock);
	if (f->pinned + d->len > PCIESW_DMA_MAX_PINNED) {
		spin_unlock(&f->lock);
		return -EAGAIN;
	}
	f->pinned += d->len;
	spin_unlock(&f->lock);

	err = pciesw_dma_pin(src_host ? &x->src : &x->dst, addr, d->len,
			     dst_host);
	if (err) {
		spin_lock(&f->lock);
		f->pinned -= d->len;
		spin_unlock(&f->lock);
		return err;
	}
charge:
	/* the endpoint pages it makes are charged to the submitter */
	if (!dst_host)
		x->memcg = get_mem_cgroup_from_mm(current->mm);
	return 0;
}

/**
 * pciesw_dma_submit - queue a batch of descriptors
 * @f: the submitting file
 * @descs: the descriptors
 * @n: how many, 1..PCIESW_DMA_MAX_BATCH
 * @error_index: on failure, the first descriptor refused, or
 *	PCIESW_DMA_NO_INDEX
 *
 * All or nothing: the errors are those of the uAPI's list.  Host buffers
 * are those of the calling process.
 */
int pciesw_dma_submit(struct pciesw_dma_file *f,
		      const struct pciesw_dma_desc *descs, unsigned int n,
		      u32 *error_index)
{
	struct pciesw_switch *sw = f->sw;
	unsigned int i, j, prepared, bad = 0;
	struct pciesw_dma_xfer **xs;
	int err = 0, err2;

	*error_index = PCIESW_DMA_NO_INDEX;
	if (!pciesw_dma_batch_ok(n))
		return -EINVAL;
	xs = kvmalloc_array(n, sizeof(*xs), GFP_KERNEL_ACCOUNT);
	if (!xs)
		return -ENOMEM;
	/* the batch's descriptors at once, charged to the submitter */
	if (!kmem_cache_alloc_bulk(pciesw_dma_xfer_cache, GFP_KERNEL_ACCOUNT,
				   n, (void **)xs)) {
		kvfree(xs);
		return -ENOMEM;
	}

	/* without the lock: the checks that need none, and pinning */
	for (prepared = 0; prepared < n; prepared++) {
		err = pciesw_dma_prepare(f, &descs[prepared], xs[prepared]);
		if (err)
			break;
	}
	if (err)
		bad = prepared;

	/* the rest, under the lock, of those that passed the first checks */
	mutex_lock(&sw->lock);
	if (sw->dead || !sw->published) {
		err = -ENODEV;
		bad = PCIESW_DMA_NO_INDEX;
		goto out_unlock;
	}
	err2 = pciesw_dma_resolve_all(sw, descs, xs, prepared, &j);
	if (err2) {
		/* an earlier descriptor is at fault */
		err = err2;
		bad = j;
		goto out_unlock;
	}
	if (err)
		goto out_unlock;

	spin_lock(&f->lock);
	if (f->outstanding + n > PCIESW_DMA_MAX_INFLIGHT) {
		bad = PCIESW_DMA_MAX_INFLIGHT - f->outstanding;
		spin_unlock(&f->lock);
		err = -EAGAIN;
		goto out_unlock;
	}
	f->outstanding += n;
	f->inflight += n;
	spin_unlock(&f->lock);

	pciesw_dma_queue(sw, descs, xs, n);
	mutex_unlock(&sw->lock);
	kvfree(xs);
	return 0;

out_unlock:
	mutex_unlock(&sw->lock);
	for (i = 0; i < prepared; i++)
		pciesw_dma_xfer_release(xs[i]);
	kmem_cache_free_bulk(pciesw_dma_xfer_cache, n, (void **)xs);
	kvfree(xs);
	*error_index = bad;
	return err;
}

/* How the engine gives back what it ran: its completions, pinned pages. */
static const struct pciesw_dma_client pciesw_dma_file_client = {
	.complete = pciesw_dma_file_complete,
	.unpin = pciesw_dma_unpin,
};

void pciesw_dma_file_init(void)
{
	pciesw_dma_client_register(&pciesw_dma_file_client);
}

void pciesw_dma_file_exit(void)
{
	pciesw_dma_client_register(NULL);
}
