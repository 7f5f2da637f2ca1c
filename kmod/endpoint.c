// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoints: GPUs, NVMe drives and generic devices behind downstream ports.
 * Plugging one in starts link training; pulling one takes the link down.
 * Everything here runs with sw->lock held.
 */

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "pciesw.h"

static const struct pciesw_ep_type_desc pciesw_ep_types[] = {
	[PCIESW_EP_TYPE_GPU] = {
		.name = "gpu",
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.max_width = 16,
		.mem_size = 16ULL * SZ_1G,	/* BAR1 of a data-center GPU */
	},
	[PCIESW_EP_TYPE_NVME] = {
		.name = "nvme",
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.max_width = 4,
		.mem_size = 4ULL * SZ_1G,	/* the namespace as a window */
	},
	[PCIESW_EP_TYPE_GENERIC] = {
		.name = "generic",
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.max_width = 8,
		.mem_size = 256ULL * SZ_1M,
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
 * pciesw_ep_add - plug an endpoint into a downstream port
 * @port: an empty downstream port
 * @type: its kind
 * @speed: fastest speed, or NONE for the type's default
 * @width: widest link, or 0 for the type's default
 * @mem_size: memory window in bytes, or 0 for the type's default
 * @block_size: NVMe: logical block size, 512 or 4096, or 0 for 512
 * @why: set to a static message on failure
 *
 * The arguments are checked by pciesw_ep_check() and
 * pciesw_ep_check_block_size().
 */
struct pciesw_endpoint *pciesw_ep_add(struct pciesw_port *port,
				      enum pciesw_ep_type type,
				      enum pciesw_link_speed speed, u8 width,
				      u64 mem_size, u32 block_size,
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
	if (err)
		return ERR_PTR(err);

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep) {
		*why = "out of memory";
		return ERR_PTR(-ENOMEM);
	}
	id = ida_alloc(&sw->ep_ids, GFP_KERNEL);
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
	if (type == PCIESW_EP_TYPE_NVME)
		ep->block_size = block_size ?: PCIESW_BLOCK_SIZE_DEFAULT;
	ep->mem = pciesw_mem_create(ep->mem_size);
	if (!ep->mem)
		goto err_idx;
	/* a GPU's pages are found from an O_DIRECT buffer mapping them */
	pciesw_mem_set_owner(ep->mem, sw, ep->id, type == PCIESW_EP_TYPE_GPU);

	/* keep the list ordered by id */
	list_for_each_entry(pos, &sw->endpoints, node)
		if (pos->id > ep->id)
			break;
	list_add_tail(&ep->node, &pos->node);
	ep->port = port;
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
 * The name of an NVMe drive's block device (blk.c), shared by the views:
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
	pciesw_link_drop(port, port->link.enabled ? PCIESW_LTSSM_DETECT :
					     PCIESW_LTSSM_DISABLED);
	list_del(&ep->node);
	ida_free(&sw->ep_type_ids[ep->type], ep->type_idx);
	ida_free(&sw->ep_ids, ep->id);
	/* mappings of the window may outlive it; they see it gone */
	pciesw_ep_free(ep);
}

/* Free an endpoint that is no longer listed. */
void pciesw_ep_free(struct pciesw_endpoint *ep)
{
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
