/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the block view's files share: the disks and the view's state
 * (disk.c adds and removes them), and the per-request data and the request
 * path's operations (io.c).  See disk.c for the view and its locks.
 */
#ifndef _PCIESW_BLK_H
#define _PCIESW_BLK_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "instance.h"
#include "model/route.h"
#include "nvme/nvme.h"

/* the largest request: 1 MiB, an NVMe drive's typical MDTS */
#define PCIESW_BLK_MAX_SECTORS	(SZ_1M >> SECTOR_SHIFT)

enum pciesw_blk_state {
	PCIESW_BLK_UP,		/* requests go */
	PCIESW_BLK_WAIT,	/* a link on the way is down, or the drive
				 * may not master the bus: requests wait
				 */
	PCIESW_BLK_DEAD,	/* removed: requests fail, the disk goes */
};

/**
 * struct pciesw_blk_disk - the disk of one NVMe drive
 * @blk: the switch's block view
 * @node: in blk->disks
 * @sw: the switch (blk holds the reference)
 * @ep_id: the drive's endpoint id
 * @ep_serial: and serial: the id may name a later endpoint
 * @port_id: its port
 * @port_lane: first lane of its port (its counters)
 * @up_lane: first lane of the upstream port
 * @surprise: the port's surprise-down count when the disk was made
 * @pci: the parent is the endpoint's PCI device
 * @pci_name: its name, found when the disk is added
 * @mem: the drive's window, referenced
 * @nvme: the drive's NVMe controller (nvme/core.c), referenced
 * @size: bytes
 * @block_size: logical block size
 * @name: the disk's name
 * @state: enum pciesw_blk_state; written with sw->lock held (or before the
 *	disk is listed), read locklessly by requests
 * @unc_seen: uncorrectable errors of the port that already failed a
 *	request (or were there when the disk was made)
 * @io_errors: requests failed by injected errors or refused routes
 * @set: the tag set
 * @disk: the gendisk, NULL until added
 * @parent: the device it hangs off, referenced
 * @hwmon: the drive's hwmon device (hwmon.c), NULL if none
 * @refs: the view's, until it removes the disk (or never made it), and
 *	that of a passthrough command that runs without a request of the
 *	disk's queue, with the queue frozen (ioctl.c); the last frees it
 */
struct pciesw_blk_disk {
	struct pciesw_blk *blk;
	struct list_head node;
	struct pciesw_switch *sw;
	u32 ep_id;
	u64 ep_serial;
	u32 port_id;
	u16 port_lane;
	u16 up_lane;
	u64 surprise;
	bool pci;
	char pci_name[PCIESW_PCI_NAME_LEN];
	struct pciesw_mem *mem;
	struct pciesw_nvme *nvme;
	u64 size;
	u32 block_size;
	char name[DISK_NAME_LEN];
	atomic_t state;
	atomic64_t unc_seen;
	atomic64_t io_errors;
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	struct device *parent;
	struct device *hwmon;
	refcount_t refs;
};

/**
 * struct pciesw_blk - the block view of a switch
 * @sw: the switch
 * @lock: protects @disks (the list; each disk's state is atomic)
 * @disks: the drives' disks, being made, live, or dead and about to go
 * @attach_lock: serialises adding and removing disks with the binding of
 *	their PCI functions; protects @bound
 * @bound: the downstream ports whose endpoint's PCI function is bound to
 *	the PCI view's driver: a disk hangs off it only then
 */
struct pciesw_blk {
	struct pciesw_switch *sw;
	spinlock_t lock;	/* protects disks */
	struct list_head disks;
	struct mutex attach_lock;	/* protects bound, disks' (un)making */
	DECLARE_BITMAP(bound, PCIESW_MAX_PORTS);
};

/**
 * struct pciesw_blk_cmd - per request
 * @timer: completes a paced request at its modelled end
 * @status: its status then
 * @peer_page: a page of the GPU window its buffer maps (the bio pins it),
 *	NULL for host memory
 * @wait_since: CLOCK_MONOTONIC ns it first found the link down, 0 if not
 */
struct pciesw_blk_cmd {
	struct hrtimer timer;
	blk_status_t status;
	struct page *peer_page;
	u64 wait_since;
};

/* disk.c: the disks */
void pciesw_blk_disk_put(struct pciesw_blk_disk *d);

/* io.c: the requests */
extern const struct blk_mq_ops pciesw_blk_mq_ops;
extern const struct block_device_operations pciesw_blk_fops;
u64 pciesw_blk_unc(struct pciesw_blk_disk *d);
void pciesw_blk_account_host(struct pciesw_blk_disk *d, bool write,
			     u64 bytes);
bool pciesw_blk_wait_expired(u64 *wait_since);

/* hwmon.c: the drive's sensors, as long as its disk */
void pciesw_blk_hwmon_add(struct pciesw_blk_disk *d);
void pciesw_blk_hwmon_del(struct pciesw_blk_disk *d);

/* ioctl.c: the NVMe passthrough ioctls */
int pciesw_blk_ioctl(struct block_device *bdev, pciesw_blk_mode_t mode,
		     unsigned int cmd, unsigned long arg);

#endif /* _PCIESW_BLK_H */
