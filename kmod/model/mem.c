// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint memory windows (a GPU's BAR, an NVMe namespace): sparse page
 * stores in the manner of drivers/block/brd.c.  A page exists once something
 * wrote to it (or mapped it); until then the window reads as zeros, so a
 * 16 GiB window costs only what is touched.  A page leaves the store
 * before the store goes only by a discard (an NVMe drive's block view
 * trimming its blocks, pciesw_mem_discard()): the xarray's reference is
 * dropped with put_page(), so whoever took its own reference with
 * pciesw_mem_get_page() or pciesw_mem_get_page_alloc() keeps a valid
 * page: the DMA engine, the block view and the mmap fault handler use
 * those; pciesw_mem_page() and pciesw_mem_peek() take none.
 */

#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/pagemap.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include "model/pciesw.h"

/*
 * GPU windows' pages by page frame number: a block request whose buffer
 * is a mapping of a GPU window (an O_DIRECT read into it) finds the window
 * from its pages, so that the transfer goes peer-to-peer.  Entries are
 * added as a tagged window's pages are made and removed before they are
 * given back; a lookup takes its reference on the store under RCU, and a
 * store is freed after an RCU grace period, so it never finds a freed one.
 */
static DEFINE_XARRAY(pciesw_mem_pfns);
/* pages in pciesw_mem_pfns: lookups cost nothing while there are none */
static atomic_long_t pciesw_mem_nr_tagged = ATOMIC_LONG_INIT(0);

/*
 * The zero page that holes of untagged windows map, made on the first such
 * fault, freed at module exit (pciesw_mem_exit()): mappings pin the module.
 */
static struct page *pciesw_mem_zero_shared;

/*
 * debugfs pciesw/fault_delay_ms (a test knob): a fault of a mapping waits
 * this long between finding the window there and mapping its page, so
 * that a test can unplug the endpoint in between; read locklessly
 */
static unsigned int pciesw_mem_fault_delay_ms;

void pciesw_mem_set_fault_delay(unsigned int ms)
{
	WRITE_ONCE(pciesw_mem_fault_delay_ms, min(ms, 1000U));
}

unsigned int pciesw_mem_get_fault_delay(void)
{
	return READ_ONCE(pciesw_mem_fault_delay_ms);
}

/* resident pages of all stores of the module, at most the limit */
static atomic_long_t pciesw_mem_nr_pages = ATOMIC_LONG_INIT(0);
/* mem_limit_mb: MiB, 0 for the default (half of RAM); read locklessly */
static unsigned long pciesw_mem_limit_mb;

/* The limit in pages. */
static unsigned long pciesw_mem_limit_pages(void)
{
	unsigned long mb = READ_ONCE(pciesw_mem_limit_mb);

	if (!mb)
		return totalram_pages() / 2;
	if (mb > ULONG_MAX >> (20 - PAGE_SHIFT))
		return ULONG_MAX;
	return mb << (20 - PAGE_SHIFT);
}

static int pciesw_mem_limit_set(const char *val, const struct kernel_param *kp)
{
	unsigned long mb;
	int err = kstrtoul(val, 0, &mb);

	if (err)
		return err;
	WRITE_ONCE(pciesw_mem_limit_mb, mb);
	return 0;
}

/* What is in force, in MiB: the default shows as its value. */
static int pciesw_mem_limit_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n",
			  pciesw_mem_limit_pages() >> (20 - PAGE_SHIFT));
}

static const struct kernel_param_ops pciesw_mem_limit_ops = {
	.set = pciesw_mem_limit_set,
	.get = pciesw_mem_limit_get,
};
module_param_cb(mem_limit_mb, &pciesw_mem_limit_ops, NULL, 0644);
MODULE_PARM_DESC(mem_limit_mb,
		 "Most resident memory of all endpoint windows together, MiB; 0: half of RAM (default); reads the limit in force");

/* mem_resident: read only, bytes of all windows */
static int pciesw_mem_resident_set(const char *val,
				   const struct kernel_param *kp)
{
	return -EPERM;
}

static int pciesw_mem_resident_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)atomic_long_read(&pciesw_mem_nr_pages) <<
			  PAGE_SHIFT);
}

static const struct kernel_param_ops pciesw_mem_resident_ops = {
	.set = pciesw_mem_resident_set,
	.get = pciesw_mem_resident_get,
};
module_param_cb(mem_resident, &pciesw_mem_resident_ops, NULL, 0444);
MODULE_PARM_DESC(mem_resident,
		 "Bytes resident in all endpoint windows together (read only)");

/* Count one more resident page, unless the module's limit is reached. */
static bool pciesw_mem_charge(void)
{
	if (atomic_long_inc_return(&pciesw_mem_nr_pages) <=
	    pciesw_mem_limit_pages())
		return true;
	atomic_long_dec(&pciesw_mem_nr_pages);
	return false;
}

static void pciesw_mem_uncharge(void)
{
	atomic_long_dec(&pciesw_mem_nr_pages);
}

/**
 * struct pciesw_mem - the pages of one memory window
 * @refs: the endpoint holds one until it is unplugged, each user mapping
 *	  (and later each DMA transfer) one while it uses the store
 * @size: bytes, a multiple of PAGE_SIZE
 * @gone: the endpoint was unplugged: no new mappings, faults get SIGBUS
 * @tagged: its pages are in pciesw_mem_pfns (a GPU window)
 * @owner: the switch of its endpoint, only compared, never followed
 * @owner_ep: the endpoint's id
 * @resident: pages in @pages
 * @pages: page index -> struct page; its lock serialises insertions,
 *	   lookups run under RCU (inside xa_load())
 * @zero: a tagged window's own zero page, NULL until a hole is mapped
 * @zero_mapped: a fault mapped the zero page (never cleared): making a
 *	page must zap the zero page's mappings at its index
 * @map_lock: protects @mapping and @nr_maps; taken before the mapping's
 *	i_mmap_rwsem (unmap_mapping_range())
 * @mapping: the address space of the file its mappings map, NULL without
 *	mappings (valid while one exists: it holds the file)
 * @map_pgoff: the window's page offset in @mapping
 * @nr_maps: mappings (vmas) of the window
 * @rcu: frees the store after lookups through pciesw_mem_pfns are done
 */
struct pciesw_mem {
	struct kref refs;
	u64 size;
	bool gone;
	bool tagged;
	const void *owner;
	u32 owner_ep;
	atomic64_t resident;
	struct xarray pages;
	struct page *zero;
	bool zero_mapped;
	struct mutex map_lock;	/* protects mapping, nr_maps */
	struct address_space *mapping;
	u64 map_pgoff;
	unsigned int nr_maps;
	struct rcu_head rcu;
};

struct pciesw_mem *pciesw_mem_create(u64 size)
{
	struct pciesw_mem *mem;

	mem = kzalloc(sizeof(*mem), GFP_KERNEL);
	if (!mem)
		return NULL;
	kref_init(&mem->refs);
	mem->size = size;
	atomic64_set(&mem->resident, 0);
	/* the index's nodes are charged as the page cache's are */
	xa_init_flags(&mem->pages, XA_FLAGS_ACCOUNT);
	mutex_init(&mem->map_lock);
	return mem;
}

/*
 * Before the store has pages: it is endpoint @ep_id of switch @owner, and
 * with @tag its pages can be found by pciesw_mem_of_page().
 */
void pciesw_mem_set_owner(struct pciesw_mem *mem, const void *owner,
			  u32 ep_id, bool tag)
{
	mem->owner = owner;
	mem->owner_ep = ep_id;
	mem->tagged = tag;
}

static void pciesw_mem_untag(struct pciesw_mem *mem, struct page *page)
{
	if (!mem->tagged)
		return;
	xa_erase(&pciesw_mem_pfns, page_to_pfn(page));
	atomic_long_dec(&pciesw_mem_nr_tagged);
}

/*
 * Pages a loop over a whole window handles between two chances to
 * reschedule: a full 16 GiB window is 4 Mi pages, and the last reference
 * of an endpoint's store is often put under sw->lock (ep del,
 * re-bifurcation), by a kernel that may not preempt.
 */
#define PCIESW_MEM_RESCHED_PAGES	1024

static void pciesw_mem_release(struct kref *kref)
{
	struct pciesw_mem *mem = container_of(kref, struct pciesw_mem, refs);
	unsigned long idx, n = 0;
	struct page *page;

	/* pages still mapped or pinned somewhere keep their own reference */
	xa_for_each(&mem->pages, idx, page) {
		pciesw_mem_untag(mem, page);
		pciesw_mem_uncharge();
		put_page(page);
		if (!(++n % PCIESW_MEM_RESCHED_PAGES))
			cond_resched();
	}
	xa_destroy(&mem->pages);
	if (mem->zero) {
		pciesw_mem_untag(mem, mem->zero);
		put_page(mem->zero);
	}
	mutex_destroy(&mem->map_lock);
	kfree_rcu(mem, rcu);
}

/**
 * pciesw_mem_of_page - the tagged window @page belongs to, referenced
 * @page: any page
 * @owner: set to the switch of its endpoint (compare only)
 * @ep_id: set to the endpoint's id
 *
 * NULL when @page is no page of a live tagged window.  pciesw_mem_put()
 * the store after use.
 */
struct pciesw_mem *pciesw_mem_of_page(struct page *page, const void **owner,
				      u32 *ep_id)
{
	struct pciesw_mem *mem;

	if (!atomic_long_read(&pciesw_mem_nr_tagged))
		return NULL;
	rcu_read_lock();
	mem = xa_load(&pciesw_mem_pfns, page_to_pfn(page));
	if (mem && !kref_get_unless_zero(&mem->refs))
		mem = NULL;
	rcu_read_unlock();
	if (mem) {
		*owner = mem->owner;
		*ep_id = mem->owner_ep;
	}
	return mem;
}

/**
 * pciesw_mem_page_gone - whether the window of a tagged page is gone
 * @page: a page pciesw_mem_of_page() found, kept (pinned) by the caller
 *
 * True once its window is unplugged, or freed (or the page left it).  No
 * reference is taken, so that it works in any context: the block view's
 * paced requests complete from an hrtimer, where a last pciesw_mem_put()
 * could not free the store.
 */
bool pciesw_mem_page_gone(struct page *page)
{
	struct pciesw_mem *mem;
	bool gone;

	/* a store is freed an RCU grace period after it left the xarray */
	rcu_read_lock();
	mem = xa_load(&pciesw_mem_pfns, page_to_pfn(page));
	gone = !mem || READ_ONCE(mem->gone);
	rcu_read_unlock();
	return gone;
}

struct pciesw_mem *pciesw_mem_get(struct pciesw_mem *mem)
{
	kref_get(&mem->refs);
	return mem;
}

/* The last reference frees the pages: process context, may sleep. */
void pciesw_mem_put(struct pciesw_mem *mem)
{
	kref_put(&mem->refs, pciesw_mem_release);
}

/* @n pciesw_mem_put()s at once */
void pciesw_mem_put_many(struct pciesw_mem *mem, unsigned int n)
{
	if (refcount_sub_and_test(n, &mem->refs.refcount))
		pciesw_mem_release(&mem->refs);
}

u64 pciesw_mem_size(const struct pciesw_mem *mem)
{
	return mem->size;
}

u64 pciesw_mem_resident(const struct pciesw_mem *mem)
{
	return (u64)atomic64_read(&mem->resident) << PAGE_SHIFT;
}

bool pciesw_mem_gone(const struct pciesw_mem *mem)
{
	return READ_ONCE(mem->gone);
}

/* The zero page @mem's holes map, made if need be; an ERR_PTR if not. */
static struct page *pciesw_mem_zero_page(struct pciesw_mem *mem)
{
	struct page **slot = mem->tagged ? &mem->zero : &pciesw_mem_zero_shared;
	struct page *page = READ_ONCE(*slot), *cur;

	if (page)
		return page;
	/* not resident in the window, not charged: one page, read only */
	page = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
	if (!page)
		return ERR_PTR(-ENOMEM);
	if (mem->tagged) {
		int err = xa_insert(&pciesw_mem_pfns, page_to_pfn(page), mem,
				    GFP_KERNEL);

		if (err) {
			__free_page(page);
			return ERR_PTR(err);
		}
		atomic_long_inc(&pciesw_mem_nr_tagged);
	}
	/* zeroed before it is published (a full barrier) */
	cur = cmpxchg(slot, NULL, page);
	if (cur) {
		pciesw_mem_untag(mem, page);
		__free_page(page);
		return cur;
	}
	return page;
}

/* The zero page @mem's holes map, NULL if none was made yet. */
static struct page *pciesw_mem_zero_peek(struct pciesw_mem *mem)
{
	return mem->tagged ? READ_ONCE(mem->zero) :
			     READ_ONCE(pciesw_mem_zero_shared);
}

/*
 * A fault that found the window there may still be about to map a page:
 * it holds that page locked until its entry is in place, and looks at
 * @gone again under the lock (pciesw_mem_fault_page()).  Wait for the
 * locks of the window's pages and of its zero page: then every such fault
 * has mapped its page, which the zap that follows the unplug
 * (pciesw_chardev_revoke()) takes out, or will see @gone and fail.  Only
 * a window with mappings can have faults; a discard's racing erase is
 * harmless, the page being referenced here.
 */
static void pciesw_mem_wait_faults(struct pciesw_mem *mem)
{
	unsigned long idx, n = 0;
	struct page *page;
	unsigned int maps;

	mutex_lock(&mem->map_lock);
	maps = mem->nr_maps;
	mutex_unlock(&mem->map_lock);
	if (!maps)
		return;
	page = pciesw_mem_zero_peek(mem);
	if (page) {
		lock_page(page);
		unlock_page(page);
	}
	xa_for_each(&mem->pages, idx, page) {
		page = pciesw_mem_get_page(mem, idx);
		if (page) {
			lock_page(page);
			unlock_page(page);
			put_page(page);
		}
		if (!(++n % PCIESW_MEM_RESCHED_PAGES))
			cond_resched();
	}
}

/*
 * The endpoint is unplugged: its window no longer answers.  Once this
 * returns, no fault maps a page of it without seeing it gone, so that
 * zapping its mappings revokes them for good.  Sleeps.
 */
void pciesw_mem_unplug(struct pciesw_mem *mem)
{
	WRITE_ONCE(mem->gone, true);
	/* pairs with pciesw_mem_fault_gone(): a fault's lock or @gone seen */
	smp_mb();
	pciesw_mem_wait_faults(mem);
}

/*
 * Under the lock of the page a fault is about to map: whether the window
 * was unplugged since the fault looked.  The barrier pairs with
 * pciesw_mem_unplug()'s between setting @gone and waiting for the pages'
 * locks: either the unplug waits for this lock, or this sees @gone.
 */
static bool pciesw_mem_fault_gone(struct pciesw_mem *mem)
{
	/* the page lock taken before @gone is read (see above) */
	smp_mb();
	return READ_ONCE(mem->gone);
}

/*
 * Page @idx of @mem was just made: no mapping may keep the zero page there.
 * A fault that found the hole holds the zero page's lock until its entry
 * is in place (pciesw_mem_fault_page()): waiting for the lock means it is,
 * and the zap takes it out; a fault after that finds the page.  The
 * barrier pairs with the fault's between setting @zero_mapped and looking
 * for the page: one of the two sees the other's store.
 */
static void pciesw_mem_zap_zero(struct pciesw_mem *mem, pgoff_t idx)
{
	struct page *zero;

	/* the page is published before zero_mapped is read (see above) */
	smp_mb();
	if (!READ_ONCE(mem->zero_mapped))
		return;
	zero = pciesw_mem_zero_peek(mem);
	might_sleep();
	mutex_lock(&mem->map_lock);
	if (mem->mapping && zero) {
		lock_page(zero);
		unlock_page(zero);
		unmap_mapping_range(mem->mapping,
				    (loff_t)(mem->map_pgoff + idx) << PAGE_SHIFT,
				    PAGE_SIZE, 1);
	}
	mutex_unlock(&mem->map_lock);
}

/**
 * pciesw_mem_zap - zap the mappings of @len bytes at @off of the window
 * @mem: the store
 * @off: byte offset in the window
 * @len: bytes
 *
 * A discard took their pages out (after pciesw_mem_discard(), so that no
 * fault maps one again); the next access faults in the window's page.
 * Without a mapping there is nothing to zap.  Sleeps.
 */
void pciesw_mem_zap(struct pciesw_mem *mem, u64 off, u64 len)
{
	mutex_lock(&mem->map_lock);
	if (mem->mapping)
		unmap_mapping_range(mem->mapping,
				    ((loff_t)mem->map_pgoff << PAGE_SHIFT) + off,
				    len, 1);
	mutex_unlock(&mem->map_lock);
}

/**
 * pciesw_mem_map - a mapping (vma) of the window now exists
 * @mem: the store
 * @mapping: the address space of the file it maps
 * @map_pgoff: the window's page offset there
 */
void pciesw_mem_map(struct pciesw_mem *mem, struct address_space *mapping,
		    u64 map_pgoff)
{
	mutex_lock(&mem->map_lock);
	mem->mapping = mapping;
	mem->map_pgoff = map_pgoff;
	mem->nr_maps++;
	mutex_unlock(&mem->map_lock);
}

/* A mapping of the window is gone (before its file is put). */
void pciesw_mem_unmap(struct pciesw_mem *mem)
{
	mutex_lock(&mem->map_lock);
	if (!--mem->nr_maps)
		mem->mapping = NULL;
	mutex_unlock(&mem->map_lock);
}

/*
 * The page at index @idx, allocated when it does not exist yet: filled with
 * the PAGE_SIZE bytes at @fill (then *@filled is set: nothing is left to
 * copy), or zeroed.  A new page is complete before it is published, so
 * nobody ever sees it uninitialised; racing allocators agree on one page
 * through xa_cmpxchg().  -ENOSPC past the module's limit, -ENOMEM when
 * the page or its charge to the current memory cgroup fails.
 */
struct page *pciesw_mem_page_fill(struct pciesw_mem *mem, pgoff_t idx,
				  const void *fill, bool *filled)
{
	struct page *page, *cur;

	if (filled)
		*filled = false;
	if (idx >= mem->size >> PAGE_SHIFT)
		return ERR_PTR(-EINVAL);
	page = xa_load(&mem->pages, idx);
	if (page)
		return page;

	if (!pciesw_mem_charge())
		return ERR_PTR(-ENOSPC);
	/*
	 * user mappings get these pages too: highmem-able, not movable;
	 * charged to the memory cgroup of who makes them exist
	 */
	page = alloc_page(GFP_HIGHUSER | __GFP_ACCOUNT |
			  (fill ? 0 : __GFP_ZERO));
	if (!page) {
		pciesw_mem_uncharge();
		return ERR_PTR(-ENOMEM);
	}
	if (fill) {
		void *d = kmap_local_page(page);

		memcpy(d, fill, PAGE_SIZE);
		kunmap_local(d);
		flush_dcache_page(page);
	}
	if (mem->tagged) {
		/* findable before it is published: no lookup misses it */
		int err = xa_insert(&pciesw_mem_pfns, page_to_pfn(page), mem,
				    GFP_KERNEL);

		if (err) {
			__free_page(page);
			pciesw_mem_uncharge();
			return ERR_PTR(err);
		}
		atomic_long_inc(&pciesw_mem_nr_tagged);
	}
	cur = xa_cmpxchg(&mem->pages, idx, NULL, page, GFP_KERNEL);
	if (unlikely(cur)) {
		pciesw_mem_untag(mem, page);
		__free_page(page);
		pciesw_mem_uncharge();
		return xa_is_err(cur) ? ERR_PTR(xa_err(cur)) : cur;
	}
	atomic64_inc(&mem->resident);
	pciesw_mem_zap_zero(mem, idx);
	if (filled)
		*filled = !!fill;
	return page;
}

/* The page at index @idx, allocated zeroed when it does not exist yet. */
struct page *pciesw_mem_page(struct pciesw_mem *mem, pgoff_t idx)
{
	return pciesw_mem_page_fill(mem, idx, NULL, NULL);
}

/**
 * pciesw_mem_get_page - the page at @idx with a reference, or NULL (zeros)
 * @mem: the store
 * @idx: page index in the window
 *
 * As the page cache's lookups: the reference is taken speculatively under
 * RCU and kept only if the page is still the one at @idx, so a racing
 * discard never hands out a freed page.  put_page() it after use.
 */
struct page *pciesw_mem_get_page(struct pciesw_mem *mem, pgoff_t idx)
{
	struct page *page;

	if (idx >= mem->size >> PAGE_SHIFT)
		return NULL;
	rcu_read_lock();
	for (;;) {
		page = xa_load(&mem->pages, idx);
		if (!page)
			break;
		if (!get_page_unless_zero(page))
			continue;
		if (likely(xa_load(&mem->pages, idx) == page))
			break;
		put_page(page);
	}
	rcu_read_unlock();
	return page;
}

/**
 * pciesw_mem_get_page_alloc - the page at @idx with a reference, made if
 *	need be (zeroed)
 * @mem: the store
 * @idx: page index in the window
 *
 * As pciesw_mem_get_page(), safe against a racing discard.  An ERR_PTR
 * when the page cannot be made.  put_page() it after use.
 */
struct page *pciesw_mem_get_page_alloc(struct pciesw_mem *mem, pgoff_t idx)
{
	struct page *page;

	for (;;) {
		page = pciesw_mem_get_page(mem, idx);
		if (page)
			return page;
		page = pciesw_mem_page(mem, idx);
		if (IS_ERR(page))
			return page;
	}
}

/**
 * pciesw_mem_discard - make @nr pages from @idx read as zeros again
 * @mem: the store
 * @idx: first page index
 * @nr: pages
 *
 * Their memory is given back (resident drops, the memory cgroup's charge
 * with the last reference); holders of a reference from
 * pciesw_mem_get_page() keep theirs until they put it.  A fault of a
 * mapping that found a page maps it with the page locked
 * (pciesw_mem_fault_page()): waiting for the lock here means that no
 * fault maps a discarded page once this returns, so that the caller's
 * unmap_mapping_range() of the range leaves no mapping of one behind.
 * Returns the bytes given back.  Sleeps.
 */
u64 pciesw_mem_discard(struct pciesw_mem *mem, pgoff_t idx, pgoff_t nr)
{
	pgoff_t last = min_t(u64, idx + nr, mem->size >> PAGE_SHIFT);
	struct page *page;
	unsigned long i;
	u64 freed = 0;

	if (idx >= last)
		return 0;
	/* the resident pages only: a 16 GiB window is 4M indexes of holes */
	xa_for_each_range(&mem->pages, i, page, idx, last - 1) {
		page = xa_erase(&mem->pages, i);
		if (!page)
			continue;
		pciesw_mem_untag(mem, page);
		atomic64_dec(&mem->resident);
		pciesw_mem_uncharge();
		/* a fault that found it before the erase has mapped it */
		lock_page(page);
		unlock_page(page);
		put_page(page);
		freed += PAGE_SIZE;
		if (need_resched())
			cond_resched();
	}
	return freed;
}

/**
 * pciesw_mem_zero - make @len bytes at @pos of the window read as zeros
 * @mem: the store
 * @pos: byte offset in the window
 * @len: bytes
 *
 * A discard, write-zeroes or deallocate: the whole pages of the range go
 * (and the mappings of them, which would keep showing the old data), its
 * edges are zeroed.  Sleeps.
 */
void pciesw_mem_zero(struct pciesw_mem *mem, u64 pos, u64 len)
{
	u64 end = pos + len;

	while (pos < end) {
		unsigned int po = offset_in_page(pos);
		u64 n = min_t(u64, end - pos, PAGE_SIZE - po);
		struct page *wp;
		void *w;

		if (!po && n == PAGE_SIZE) {
			u64 pages = (end - pos) >> PAGE_SHIFT;

			if (pciesw_mem_discard(mem, pos >> PAGE_SHIFT, pages))
				pciesw_mem_zap(mem, pos, pages << PAGE_SHIFT);
			pos += pages << PAGE_SHIFT;
			continue;
		}
		wp = pciesw_mem_get_page(mem, pos >> PAGE_SHIFT);
		if (wp) {
			w = kmap_local_page(wp);
			memset(w + po, 0, n);
			kunmap_local(w);
			flush_dcache_page(wp);
			put_page(wp);
		}
		pos += n;
	}
}

/**
 * pciesw_mem_fault_page - the page at @idx for a fault of a mapping
 * @mem: the store
 * @idx: page index
 * @write: a write fault: the page is made if need be; else a hole gives
 *	   the zero page (mapped read only: the mapping has page_mkwrite)
 *
 * Referenced and locked (VM_FAULT_LOCKED), and still the store's page at
 * @idx when it was locked: a discard that took it out waits for the lock
 * (pciesw_mem_discard()), then zaps the mappings.  The zero page is
 * returned locked with @idx still a hole: whoever makes the page waits for
 * the lock, then zaps it (pciesw_mem_zap_zero()).  An ERR_PTR as
 * pciesw_mem_page_fill(), or -ENODEV once the window is unplugged: an
 * unplug waits for the lock of a page a fault returns (pciesw_mem_unplug()),
 * so the zap after it finds the page mapped.
 */
struct page *pciesw_mem_fault_page(struct pciesw_mem *mem, pgoff_t idx,
				   bool write)
{
	unsigned int delay = READ_ONCE(pciesw_mem_fault_delay_ms);
	struct page *page;

	/* the test knob: a fault that found the window there dawdles */
	if (unlikely(delay))
		msleep(delay);
	for (;;) {
		page = write ? pciesw_mem_get_page_alloc(mem, idx) :
			       pciesw_mem_get_page(mem, idx);
		if (IS_ERR(page))
			return page;
		if (!page) {
			page = pciesw_mem_zero_page(mem);
			if (IS_ERR(page))
				return page;
			WRITE_ONCE(mem->zero_mapped, true);
			/* pairs with pciesw_mem_zap_zero()'s */
			smp_mb();
			lock_page(page);
			if (likely(!xa_load(&mem->pages, idx))) {
				if (pciesw_mem_fault_gone(mem)) {
					unlock_page(page);
					return ERR_PTR(-ENODEV);
				}
				get_page(page);
				return page;
			}
			unlock_page(page);
			continue;
		}
		lock_page(page);
		if (likely(xa_load(&mem->pages, idx) == page)) {
			if (!pciesw_mem_fault_gone(mem))
				return page;
			unlock_page(page);
			put_page(page);
			return ERR_PTR(-ENODEV);
		}
		unlock_page(page);
		put_page(page);
	}
}

/**
 * pciesw_mem_mkwrite - a mapping's first write to @page, mapped at @idx
 * @mem: the store
 * @idx: page index
 * @page: the page mapped there
 *
 * VM_FAULT_LOCKED with @page locked when it is still the store's page at
 * @idx; for the zero page, the window's page is made (which zaps the zero
 * page's mappings of @idx) and VM_FAULT_NOPAGE retries the access, which
 * faults the page in; VM_FAULT_NOPAGE too when a discard took @page out.
 */
vm_fault_t pciesw_mem_mkwrite(struct pciesw_mem *mem, pgoff_t idx,
			      struct page *page)
{
	if (page == pciesw_mem_zero_peek(mem)) {
		struct page *p = pciesw_mem_page(mem, idx);

		if (IS_ERR(p))
			return vmf_error(PTR_ERR(p));
		/* made by someone else, who may not have zapped it yet */
		pciesw_mem_zap_zero(mem, idx);
		return VM_FAULT_NOPAGE;
	}
	lock_page(page);
	if (likely(xa_load(&mem->pages, idx) == page))
		return VM_FAULT_LOCKED;
	unlock_page(page);
	return VM_FAULT_NOPAGE;
}

/* At module exit, no mapping left: the shared zero page goes. */
void pciesw_mem_exit(void)
{
	if (pciesw_mem_zero_shared)
		put_page(pciesw_mem_zero_shared);
	pciesw_mem_zero_shared = NULL;
}

/* The page at index @idx if it exists, NULL if it reads as zeros. */
struct page *pciesw_mem_peek(struct pciesw_mem *mem, pgoff_t idx)
{
	if (idx >= mem->size >> PAGE_SHIFT)
		return NULL;
	return xa_load(&mem->pages, idx);
}
