/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory windows of the endpoints (mem.c), part of the model: what
 * pciesw.h gives every file, kept apart as the store's own interface.
 */
#ifndef PCIESW_MEM_H
#define PCIESW_MEM_H

#include <linux/bits.h>
#include <linux/mm_types.h>
#include <linux/types.h>

/*
 * mem.c: sparse memory windows, of at most 1 TiB.  A window is mapped by
 * user space in /dev/pcieswN at the page offset its endpoint was given
 * (ep->map_pgoff, endpoint.c), aligned to pciesw_map_span() pages.
 */
#define PCIESW_MEM_MAX		BIT_ULL(40)

struct pciesw_mem;
struct page;
struct pciesw_mem *pciesw_mem_create(u64 size);
struct pciesw_mem *pciesw_mem_get(struct pciesw_mem *mem);
void pciesw_mem_put(struct pciesw_mem *mem);
void pciesw_mem_put_many(struct pciesw_mem *mem, unsigned int n);
u64 pciesw_mem_size(const struct pciesw_mem *mem);
u64 pciesw_mem_resident(const struct pciesw_mem *mem);
void pciesw_mem_unplug(struct pciesw_mem *mem);
bool pciesw_mem_gone(const struct pciesw_mem *mem);
void pciesw_mem_set_fault_delay(unsigned int ms);
unsigned int pciesw_mem_get_fault_delay(void);
struct page *pciesw_mem_page(struct pciesw_mem *mem, unsigned long idx);
struct page *pciesw_mem_page_fill(struct pciesw_mem *mem, unsigned long idx,
				  const void *fill, bool *filled);
struct page *pciesw_mem_peek(struct pciesw_mem *mem, unsigned long idx);
struct page *pciesw_mem_get_page(struct pciesw_mem *mem, unsigned long idx);
struct page *pciesw_mem_get_page_alloc(struct pciesw_mem *mem,
				       unsigned long idx);
struct page *pciesw_mem_fault_page(struct pciesw_mem *mem, unsigned long idx,
				   bool write);
vm_fault_t pciesw_mem_mkwrite(struct pciesw_mem *mem, unsigned long idx,
			      struct page *page);
void pciesw_mem_map(struct pciesw_mem *mem, struct address_space *mapping,
		    u64 map_pgoff);
void pciesw_mem_unmap(struct pciesw_mem *mem);
void pciesw_mem_zap(struct pciesw_mem *mem, u64 off, u64 len);
void pciesw_mem_exit(void);
u64 pciesw_mem_discard(struct pciesw_mem *mem, unsigned long idx,
		       unsigned long nr);
void pciesw_mem_zero(struct pciesw_mem *mem, u64 pos, u64 len);
void pciesw_mem_set_owner(struct pciesw_mem *mem, const void *owner,
			  u32 ep_id, bool tag);
struct pciesw_mem *pciesw_mem_of_page(struct page *page, const void **owner,
				      u32 *ep_id);
bool pciesw_mem_page_gone(struct page *page);

#endif /* PCIESW_MEM_H */
