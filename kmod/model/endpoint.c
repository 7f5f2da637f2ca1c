// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoints: GPUs, NVMe drives and generic devices behind downstream ports.
 * Plugging one in starts link training; pulling one takes the link down.
 * Everything here runs with sw->lock held.
 */

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "model/event.h"
#include "model/pciesw.h"
#include "nvme/nvme.h"

/*
 * The types' defaults name real parts, so that software finding devices by
 * ID (lspci's names, udev, inventory tools) sees what it would on the card:
 * a GPU is an NVIDIA H100 PCIe (as H100 PCIe boards carry it, subsystem
 * 10de:1626), a drive a Samsung PM1743 (Gen5 enterprise NVMe, PM174X
 * controller), a generic device Broadcom's placeholder endpoint, what its
 * synthetic switches show.
 */
static const struct pciesw_ep_type_desc pciesw_ep_types[] = {
	[PCIESW_EP_TYPE_GPU] = {
		.name = "gpu",
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.max_width = 16,
		.mem_size = 16ULL * SZ_1G,	/* BAR1 of a data-center GPU */
		.ident = {
			.vendor = 0x10de,	/* NVIDIA */
			.device = 0x2331,	/* GH100 [H100 PCIe] */
			.subsys_vendor = 0x10de,
			.subsys_device = 0x1626,
			.revision = 0xa1,
			.class_code = 0x030200,	/* 3D controller */
		},
	},
	[PCIESW_EP_TYPE_NVME] = {
		.name = "nvme",
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.max_width = 4,
		.mem_size = 4ULL * SZ_1G,	/* the namespace as a window */
		.ident = {
			.vendor = 0x144d,	/* Samsung */
			.device = 0xa826,	/* NVMe SSD Controller PM174X */
			.subsys_vendor = 0x144d,
			.subsys_device = 0xa826,
			.revision = 0x00,
			.class_code = 0x010802,	/* NVM Express */
		},
	},
	[PCIESW_EP_TYPE_GENERIC] = {
		.name = "generic",
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.max_width = 8,
		.mem_size = 256ULL * SZ_1M,
		.ident = {
			.vendor = PCIESW_EP_PLACEHOLDER_VENDOR,
			.device = PCIESW_EP_PLACEHOLDER_DEVICE,
			.subsys_vendor = PCIESW_EP_PLACEHOLDER_VENDOR,
			.subsys_device = PCIESW_EP_TYPE_GENERIC,
			.revision = 0xb0,
			.class_code = 0xff0000,	/* unassigned class */
		},
	},
};

const struct pciesw_ep_type_desc *pciesw_ep_type(enum pciesw_ep_type type)
{
	if (type < PCIESW_EP_TYPE_GPU || type > PCIESW_EP_TYPE_MAX)
		return NULL;
	return &pciesw_ep_types[type];
}

static void pciesw_ep_event(struct pciesw_endpoint *ep,
			    enum pciesw_event_type type)
{
	struct pciesw_event ev = {
		.type = type,
		.sw = ep->sw,
		.port = ep->port,
		.ep = ep,
	};

	pciesw_event(&ev);
}

/**
 * pciesw_ep_check - would pciesw_ep_add() take these arguments?
 * @port: the port to plug into
 * @type: its kind
 * @speed: fastest speed, or NONE for the type's default
 * @width: widest link, or 0 for the type's default
 * @mem_size: memory window in bytes, or 0 for the type's default
 * @bad: set to the argument refused, on failure
 * @why: set to a static message on failure
 *
 * The one copy of these checks: pciesw_ep_add() makes them, and a view
 * calls this first when it wants to know which argument was refused.
 */
int pciesw_ep_check(const struct pciesw_port *port, enum pciesw_ep_type type,
		    enum pciesw_link_speed speed, unsigned int width,
		    u64 mem_size, enum pciesw_ep_arg *bad, const char **why)
{
	if (width && (width > 16 || !is_power_of_2(width))) {
		*bad = PCIESW_EP_ARG_WIDTH;
		*why = "width must be 1, 2, 4, 8 or 16";
		return -EINVAL;
	}
	if (mem_size & ~PAGE_MASK) {
		*bad = PCIESW_EP_ARG_MEM_SIZE;
		*why = "memory size must be a multiple of the page size";
		return -EINVAL;
	}
	if (!pciesw_ep_type(type)) {
		*bad = PCIESW_EP_ARG_TYPE;
		*why = "unknown endpoint type";
		return -EINVAL;
	}
	if (port->role != PCIESW_PORT_ROLE_DOWNSTREAM) {
		*bad = PCIESW_EP_ARG_PORT;
		*why = "endpoints attach to downstream ports only";
		return -EINVAL;
	}
	if (port->ep) {
		*bad = PCIESW_EP_ARG_PORT;
		*why = "port already has an endpoint";
		return -EBUSY;
	}
	if (speed > PCIESW_LINK_SPEED_MAX) {
		*bad = PCIESW_EP_ARG_SPEED;
		*why = "unknown link speed";
		return -EINVAL;
	}
	if (mem_size > PCIESW_MEM_MAX) {
		*bad = PCIESW_EP_ARG_MEM_SIZE;
		*why = "memory size is at most 1 TiB";
		return -EINVAL;
	}
	return 0;
}

/**
 * pciesw_ep_check_ident - are these IDs a PCI endpoint's?
 * @ident: the IDs
 * @bad: set to the argument refused, on failure
 * @why: set to a static message on failure
 *
 * A Vendor ID of 0000h or FFFFh, or 0001h (what a Retry Status completion
 * returns), and a Device ID of FFFFh are what software takes for no device;
 * a bridge's class does not go with an endpoint's header (the PCI core
 * ignores it).  Any other value is taken, whether pci.ids names it or not.
 */
int pciesw_ep_check_ident(const struct pciesw_ep_ident *ident,
			  enum pciesw_ep_arg *bad, const char **why)
{
	u32 cls = ident->class_code >> 8;

	if (ident->vendor == 0x0000 || ident->vendor == 0x0001 ||
	    ident->vendor == 0xffff) {
		*bad = PCIESW_EP_ARG_VENDOR;
		*why = "vendor ID 0x0000, 0x0001 and 0xffff mean no device";
		return -EINVAL;
	}
	if (ident->device == 0xffff) {
		*bad = PCIESW_EP_ARG_DEVICE;
		*why = "device ID 0xffff means no device";
		return -EINVAL;
	}
	if (ident->class_code > 0xffffff) {
		*bad = PCIESW_EP_ARG_CLASS;
		*why = "class code is 24 bits (base class, subclass, prog-if)";
		return -EINVAL;
	}
	if (cls == 0x0604 || cls == 0x0607 || cls == 0x0609) {
		*bad = PCIESW_EP_ARG_CLASS;
		*why = "an endpoint cannot have a bridge's class (06:04, 06:07, 06:09)";
		return -EINVAL;
	}
	return 0;
}

/*
 * Endpoint ids and mmap offsets are handed out in turn, not lowest free
 * first, as PIDs are: an id or offset someone kept after an unplug names
 * nothing (ENOENT, ENXIO) rather than the endpoint plugged in after it,
 * until the whole space has been gone round.
 */
static int pciesw_ep_id_alloc(struct pciesw_switch *sw)
{
	int id;

	id = ida_alloc_range(&sw->ep_ids, sw->ep_id_next, PCIESW_EP_ID_MAX,
			     GFP_KERNEL);
	if (id == -ENOSPC && sw->ep_id_next)
		id = ida_alloc_range(&sw->ep_ids, 0, PCIESW_EP_ID_MAX,
				     GFP_KERNEL);
	if (id >= 0)
		sw->ep_id_next = id == PCIESW_EP_ID_MAX ? 0 : id + 1;
	return id;
}

/*
 * The pages of mmap offset space a window of @mem_size bytes takes: its
 * size rounded up to a power of two, to which its offset is aligned (the
 * fault handler finds the start of the window from any page of it).
 */
u64 pciesw_map_span(u64 mem_size)
{
	return roundup_pow_of_two(max_t(u64, mem_size >> PAGE_SHIFT, 1));
}

/*
 * The offset range of @ep's window: its span and one page more, so that
 * the offset just past a window names no other one (mmap() there is
 * refused as past the end of this window).
 */
static bool pciesw_map_overlaps(const struct pciesw_endpoint *ep, u64 pgoff,
				u64 pages)
{
	u64 end = ep->map_pgoff + pciesw_map_span(ep->mem_size) + 1;

	return pgoff < end && ep->map_pgoff < pgoff + pages + 1;
}

/* The first free range of @span pages from @from, below @to. */
static bool pciesw_map_find(struct pciesw_switch *sw, u64 from, u64 to,
			    u64 span, u64 *pgoff)
{
	struct pciesw_endpoint *ep;
	u64 off = ALIGN(from, span);

	while (off < to && span <= to - off) {
		bool clash = false;

		list_for_each_entry(ep, &sw->endpoints, node) {
			if (pciesw_map_overlaps(ep, off, span)) {
				off = ALIGN(ep->map_pgoff +
					    pciesw_map_span(ep->mem_size) + 1,
					    span);
				clash = true;
				break;
			}
		}
		if (!clash) {
			*pgoff = off;
			return true;
		}
	}
	return false;
}

/*
 * An mmap offset for a window of @mem_size bytes: below 16 TiB, where a
 * 32-bit process reaches it, if the switch's windows leave room there,
 * above otherwise; in turn from where the last one was taken.
 */
static int pciesw_map_alloc(struct pciesw_switch *sw, u64 mem_size,
			    u64 *pgoff)
{
	static const u64 limit[2] = {
		PCIESW_MAP_OFFSET_32_MAX >> PAGE_SHIFT,
		(PCIESW_MAP_OFFSET_32_MAX >> PAGE_SHIFT) +
			2 * PCIESW_MAX_PORTS * (PCIESW_MEM_MAX >> PAGE_SHIFT),
	};
	u64 span = pciesw_map_span(mem_size);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(limit); i++) {
		u64 base = i ? limit[i - 1] : 0;

		if (pciesw_map_find(sw, max(sw->map_next[i], base), limit[i],
				    span, pgoff) ||
		    pciesw_map_find(sw, base, limit[i], span, pgoff)) {
			sw->map_next[i] = *pgoff + span + 1;
			return 0;
		}
	}
	return -ENOSPC;
}

/* The endpoint whose window holds mmap page offset @pgoff, or ends at it. */
struct pciesw_endpoint *pciesw_ep_find_map(struct pciesw_switch *sw,
					   u64 pgoff)
{
	struct pciesw_endpoint *ep;

	lockdep_assert_held(&sw->lock);
	list_for_each_entry(ep, &sw->endpoints, node)
		if (pgoff >= ep->map_pgoff &&
		    pgoff - ep->map_pgoff <= ep->mem_size >> PAGE_SHIFT)
			return ep;
	return NULL;
}

/**
 * pciesw_ep_add - plug an endpoint into a downstream port
 * @port: an empty downstream port
 * @type: its kind
 * @speed: fastest speed, or NONE for the type's default
 * @width: widest link, or 0 for the type's default
 * @mem_size: memory window in bytes, or 0 for the type's default
 * @block_size: NVMe: logical block size, 512 or 4096, or 0 for 512
 * @ident: its PCI IDs, or NULL for the type's
 * @why: set to a static message on failure
 *
 * The arguments are checked by pciesw_ep_check(),
 * pciesw_ep_check_block_size() and pciesw_ep_check_ident().
 */
struct pciesw_endpoint *pciesw_ep_add(struct pciesw_port *port,
				      enum pciesw_ep_type type,
				      enum pciesw_link_speed speed, u8 width,
				      u64 mem_size, u32 block_size,
				      const struct pciesw_ep_ident *ident,
				      const char **why)
{
	const struct pciesw_ep_type_desc *desc = pciesw_ep_type(type);
	struct pciesw_switch *sw = port->group->sw;
	struct pciesw_endpoint *ep, *pos;
	enum pciesw_ep_arg bad;
	int id, idx, err;

	lockdep_assert_held(&sw->lock);
	err = pciesw_ep_check(port, type, speed, width, mem_size, &bad, why);
	if (!err)
		err = pciesw_ep_check_block_size(type, block_size, why);
	if (!err && ident)
		err = pciesw_ep_check_ident(ident, &bad, why);
	if (err)
		return ERR_PTR(err);

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep) {
		*why = "out of memory";
		return ERR_PTR(-ENOMEM);
	}
	id = pciesw_ep_id_alloc(sw);
	if (id < 0)
		goto err_free;
	idx = ida_alloc(&sw->ep_type_ids[type], GFP_KERNEL);
	if (idx < 0)
		goto err_id;

	ep->sw = sw;
	ep->id = id;
	ep->serial = ++sw->ep_serial;
	ep->type = type;
	ep->type_idx = idx;
	snprintf(ep->name, sizeof(ep->name), "%s%d", desc->name, idx);
	ep->max_speed = speed ?: desc->max_speed;
	ep->max_width = width ?: desc->max_width;
	ep->mem_size = mem_size ?: desc->mem_size;
	ep->ident = ident ? *ident : desc->ident;
	if (type == PCIESW_EP_TYPE_NVME)
		ep->block_size = block_size ?: PCIESW_BLOCK_SIZE_DEFAULT;
	if (pciesw_map_alloc(sw, ep->mem_size, &ep->map_pgoff)) {
		ida_free(&sw->ep_type_ids[type], idx);
		ida_free(&sw->ep_ids, id);
		kfree(ep);
		*why = "out of mmap offset space for the window";
		return ERR_PTR(-ENOSPC);
	}
	ep->mem = pciesw_mem_create(ep->mem_size);
	if (!ep->mem)
		goto err_idx;
	/* a GPU's pages are found from an O_DIRECT buffer mapping them */
	pciesw_mem_set_owner(ep->mem, sw, ep->id, type == PCIESW_EP_TYPE_GPU);
	ep->port = port;
	if (type == PCIESW_EP_TYPE_NVME) {
		ep->nvme = pciesw_nvme_create(ep);
		if (!ep->nvme) {
			pciesw_mem_put(ep->mem);
			goto err_idx;
		}
	}

	/* keep the list ordered by id */
	list_for_each_entry(pos, &sw->endpoints, node)
		if (pos->id > ep->id)
			break;
	list_add_tail(&ep->node, &pos->node);
	port->ep = ep;
	pciesw_ep_event(ep, PCIESW_EV_EP_ADD);
	pciesw_link_start(port, PCIESW_LINK_TRAIN);
	return ep;

err_idx:
	ida_free(&sw->ep_type_ids[type], idx);
	ida_free(&sw->ep_ids, id);
	kfree(ep);
	*why = "out of memory";
	return ERR_PTR(-ENOMEM);
err_id:
	ida_free(&sw->ep_ids, id);
err_free:
	kfree(ep);
	*why = "out of endpoint ids";
	return ERR_PTR(-ENOSPC);
}

/*
 * The logical block size of an NVMe drive's namespace: 512 or 4096 bytes,
 * 0 for the default; pciesw_ep_add() checks it with this.
 */
int pciesw_ep_check_block_size(enum pciesw_ep_type type, u32 block_size,
			       const char **why)
{
	if (!block_size)
		return 0;
	if (type != PCIESW_EP_TYPE_NVME) {
		*why = "only NVMe drives have a block size";
		return -EINVAL;
	}
	if (block_size != 512 && block_size != 4096) {
		*why = "block size must be 512 or 4096";
		return -EINVAL;
	}
	return 0;
}

/*
 * The name of an NVMe drive's block device (block/disk.c), shared by the views:
 * stable for a switch and a drive name, apart from the nvme driver's.
 */
void pciesw_ep_disk_name(const struct pciesw_endpoint *ep, char *buf,
			 size_t len)
{
	snprintf(buf, len, "pciesw%un%d", ep->sw->id, ep->type_idx);
}

/* Unplug @ep: its link goes down and it is freed. */
void pciesw_ep_del(struct pciesw_endpoint *ep)
{
	struct pciesw_switch *sw = ep->sw;
	struct pciesw_port *port = ep->port;

	lockdep_assert_held(&sw->lock);
	/* gone for DMA and mappings now, not once the views have caught up */
	pciesw_mem_unplug(ep->mem);
	pciesw_ep_event(ep, PCIESW_EV_EP_DEL);
	port->ep = NULL;
	pciesw_link_drop(port, pciesw_link_held(port) ? PCIESW_LTSSM_DISABLED :
							PCIESW_LTSSM_DETECT);
	list_del(&ep->node);
	ida_free(&sw->ep_type_ids[ep->type], ep->type_idx);
	ida_free(&sw->ep_ids, ep->id);
	/* mappings of the window may outlive it; they see it gone */
	pciesw_ep_free(ep);
}

/**
 * pciesw_ep_set_bus_master - software set or cleared Bus Master Enable
 * @ep: the endpoint
 * @on: the bit's new value
 *
 * A function without Bus Master Enable may not issue memory requests: a
 * drive fetches no commands and moves no data, so its disk's requests wait
 * (and fail after blk_timeout_ms, as nvme's time out); the switch's own DMA
 * engine is a master of its own and goes on.
 */
void pciesw_ep_set_bus_master(struct pciesw_endpoint *ep, bool on)
{
	lockdep_assert_held(&ep->sw->lock);
	if (ep->bus_master_off == !on)
		return;
	ep->bus_master_off = !on;
	pciesw_ep_event(ep, PCIESW_EV_EP_CHANGE);
}

static const char *const pciesw_ep_aer_names[] = {
	[PCIESW_EP_AER_ERROR_COMPLETION_TIMEOUT] = "completion timeout",
	[PCIESW_EP_AER_ERROR_UNSUPPORTED_REQUEST] = "unsupported request",
	[PCIESW_EP_AER_ERROR_POISONED_TLP] = "poisoned TLP",
	[PCIESW_EP_AER_ERROR_UNCORRECTABLE_INTERNAL] = "uncorrectable internal error",
	[PCIESW_EP_AER_ERROR_CORRECTED_INTERNAL] = "corrected internal error",
	[PCIESW_EP_AER_ERROR_ADVISORY_NON_FATAL] = "advisory non-fatal error",
};

const char *pciesw_ep_aer_error_name(enum pciesw_ep_aer_error err)
{
	return err < ARRAY_SIZE(pciesw_ep_aer_names) ?
	       pciesw_ep_aer_names[err] : "error";
}

/**
 * pciesw_ep_inject_aer - fault injection: @ep detected @count errors @err
 * @ep: the endpoint
 * @err: what it detected
 * @count: how many (1 to PCIESW_INJECT_MAX)
 * @why: the reason of a refusal
 *
 * With sw->lock held.  Counted in the endpoint's @aer_errors; the PCI view
 * sets its AER status and sends the message it sends (PCIESW_EV_EP_ERRORS).
 * An endpoint behind a link that is down detects nothing: refused.
 */
int pciesw_ep_inject_aer(struct pciesw_endpoint *ep,
			 enum pciesw_ep_aer_error err, u32 count,
			 const char **why)
{
	struct pciesw_event ev = {
		.type = PCIESW_EV_EP_ERRORS,
		.sw = ep->sw,
		.port = ep->port,
		.ep = ep,
		.ep_aer = err,
		.value = count,
	};

	lockdep_assert_held(&ep->sw->lock);
	if (err > PCIESW_EP_AER_ERROR_MAX) {
		*why = "unknown endpoint error";
		return -EINVAL;
	}
	if (!count || count > PCIESW_INJECT_MAX) {
		*why = "inject count must be 1-1000000";
		return -EINVAL;
	}
	if (!pciesw_link_active(ep->port)) {
		*why = "the endpoint's link is down: it detects no errors";
		return -ENETDOWN;
	}
	ep->aer_errors[err] += count;
	pciesw_event(&ev);
	return 0;
}

/* Free an endpoint that is no longer listed. */
void pciesw_ep_free(struct pciesw_endpoint *ep)
{
	pciesw_nvme_put(ep->nvme);
	pciesw_mem_put(ep->mem);
	kfree(ep);
}

struct pciesw_endpoint *pciesw_ep_find(struct pciesw_switch *sw, u32 id)
{
	struct pciesw_endpoint *ep;

	lockdep_assert_held(&sw->lock);
	list_for_each_entry(ep, &sw->endpoints, node)
		if (ep->id == id)
			return ep;
	return NULL;
}

/*
 * The endpoint that a request names, by id (@pgoff == U64_MAX) or by an
 * mmap page offset in its window: ERR_PTR(-ENODEV) once the switch is being
 * removed (nothing on it can be used any more), -ENOENT if there is none.
 * The one such check of every view that serves requests.
 */
struct pciesw_endpoint *pciesw_ep_lookup(struct pciesw_switch *sw, u32 id,
					 u64 pgoff)
{
	struct pciesw_endpoint *ep;

	lockdep_assert_held(&sw->lock);
	if (sw->dead)
		return ERR_PTR(-ENODEV);
	ep = pgoff == U64_MAX ? pciesw_ep_find(sw, id) :
				pciesw_ep_find_map(sw, pgoff);
	return ep ?: ERR_PTR(-ENOENT);
}

struct pciesw_endpoint *pciesw_ep_find_name(struct pciesw_switch *sw,
					    const char *name)
{
	struct pciesw_endpoint *ep;

	lockdep_assert_held(&sw->lock);
	list_for_each_entry(ep, &sw->endpoints, node)
		if (!strcmp(ep->name, name))
			return ep;
	return NULL;
}
