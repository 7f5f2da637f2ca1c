/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * pciesw: a virtual PCIe 5.0 switch card.
 *
 * User API: the "pciesw" generic netlink family (described by
 * Documentation/netlink/specs/pciesw.yaml, which is the reference for
 * attribute types and which op carries which attribute; its constants are
 * in pciesw_netlink.h, generated from it) and the ioctls of the /dev/pcieswN
 * character device.
 *
 * Rules of this ABI: enums and attributes only grow at the end; every
 * structure has fixed-width fields (64-bit ones __aligned_u64, so that a
 * 32-bit process has the same layout and needs no translation), explicit
 * padding and reserved fields that must be zero; every flags field rejects
 * unknown bits.
 *
 * Extensible ioctl structures.  Each structure of an ioctl starts with
 * @size, the bytes the caller passes, and only grows at its end.  The
 * module takes it as copy_struct_from_user() does for clone3(), openat2()
 * and sched_setattr():
 *   - @size below the first version (PCIESW_*_SIZE_VER0): EINVAL;
 *   - @size above what the module knows: accepted if the extra bytes (up to
 *     a page) are all zero, E2BIG otherwise (or if above a page): the
 *     caller asked for something this module does not have;
 *   - @size below what the module knows (an older caller): accepted, the
 *     missing fields taken as 0, which is always their old behaviour.
 * An ioctl's outputs are written back up to the smaller of the two sizes,
 * and @size says how much that was: a caller newer than the module finds
 * @size smaller than it passed and knows the fields past it are not set.
 * The command is matched by its type, number and direction: the size in it
 * (_IOC_SIZE) is that of the caller's header and is not checked, @size is
 * what counts.  Reserved fields not 0 and unknown flags are EINVAL;
 * output fields are ignored on input and overwritten, so that a structure
 * can be reused for another call.
 * PCIESW_IOC_INFO's @features say what a module has, to probe rather than
 * guess from errno.
 */
#ifndef _UAPI_LINUX_PCIESW_H
#define _UAPI_LINUX_PCIESW_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * The netlink part (family name, multicast group, the definitions and the
 * enums of the spec, attributes and commands) is generated from the spec by
 * scripts/netlink-gen.sh; the ioctl part below is written by hand.
 */
#include "pciesw_netlink.h"

/* Ranges of enum pciesw_counter (errors, then traffic) */
#define PCIESW_COUNTER_FIRST_CORRECTABLE	PCIESW_COUNTER_RECEIVER_ERROR
#define PCIESW_COUNTER_LAST_CORRECTABLE	PCIESW_COUNTER_HEADER_LOG_OVERFLOW
#define PCIESW_COUNTER_FIRST_UNCORRECTABLE	PCIESW_COUNTER_DATA_LINK_PROTOCOL
#define PCIESW_COUNTER_LAST_UNCORRECTABLE	PCIESW_COUNTER_ACS_VIOLATION
#define PCIESW_COUNTER_FIRST_TRAFFIC	PCIESW_COUNTER_INGRESS_POSTED_BYTES

/* 0 is no attribute and no command; the spec leaves these implied */
#define PCIESW_A_UNSPEC		0
#define PCIESW_CMD_UNSPEC	0

/* ioctls of /dev/pcieswN */
#define PCIESW_IOC_MAGIC	0xB9

/* Version of the ioctl ABI, reported by PCIESW_IOC_INFO. */
#define PCIESW_ABI_VERSION	1

/*
 * PCIESW_IOC_INFO features: what this module has (bits it does not know
 * are 0; a module older than the field reports none, as @size tells).
 *  EXTENSIBLE: the ioctl structures are extensible as described above
 *	(before it, any @size but the module's own was EINVAL)
 *  COMPLETION_V2: PCIESW_IOC_COMPLETION_FMT and version 2 completion
 *	records (struct pciesw_dma_completion2)
 *  MAP_OFFSET_32: PCIESW_IOC_EP_MAP's offsets are below
 *	PCIESW_MAP_OFFSET_32_MAX whenever the windows fit there, so that a
 *	32-bit process reaches them with mmap() (mmap2 passes 32 bits of
 *	pages: 16 TiB); before it the offset was ep_id << 40
 *  NO_ID_REUSE: endpoint ids and map offsets are not reused (see
 *	struct pciesw_ep_map)
 *  DMA_FILE_MODE: DMA checks the file's mode (EBADF)
 *  MAP_REVOKE: unplugging an endpoint revokes every mapping of its window
 */
#define PCIESW_FEATURE_EXTENSIBLE	(1ULL << 0)
#define PCIESW_FEATURE_COMPLETION_V2	(1ULL << 1)
#define PCIESW_FEATURE_MAP_OFFSET_32	(1ULL << 2)
#define PCIESW_FEATURE_NO_ID_REUSE	(1ULL << 3)
#define PCIESW_FEATURE_DMA_FILE_MODE	(1ULL << 4)
#define PCIESW_FEATURE_MAP_REVOKE	(1ULL << 5)
#define PCIESW_FEATURE_EP_DISCARD	(1ULL << 6)

/**
 * struct pciesw_info - identity and shape of a switch
 * @size: in: bytes of the caller's structure, at least
 *	PCIESW_INFO_SIZE_VER0; out: bytes written back
 * @flags: in: must be 0
 * @switch_id: out: the N of pcieswN
 * @abi_version: out: PCIESW_ABI_VERSION
 * @nr_lanes: out: lanes of the switch
 * @nr_groups: out: lane groups
 * @nr_ports: out: ports (upstream and downstream)
 * @nr_endpoints: out: endpoints attached to downstream ports
 * @profile: out: profile name, NUL-terminated
 * @serial: out: serial number, NUL-terminated; empty unless the caller
 *	has CAP_SYS_ADMIN (serial numbers are root-only, as the VPD)
 * @reserved: in: must be 0; out: 0
 * @features: out: PCIESW_FEATURE_* (since PCIESW_INFO_SIZE_VER1)
 * @completion_version: out: the newest completion record version the
 *	module writes (1 before PCIESW_FEATURE_COMPLETION_V2)
 * @reserved1: in: must be 0; out: 0
 */
struct pciesw_info {
	__u32 size;
	__u32 flags;
	__u32 switch_id;
	__u32 abi_version;
	__u32 nr_lanes;
	__u32 nr_groups;
	__u32 nr_ports;
	__u32 nr_endpoints;
	char profile[PCIESW_NAME_LEN];
	char serial[PCIESW_NAME_LEN];
	__aligned_u64 reserved[4];
	/* PCIESW_INFO_SIZE_VER0 */
	__aligned_u64 features;
	__u32 completion_version;
	__u32 reserved1;
	/* PCIESW_INFO_SIZE_VER1 */
};

#define PCIESW_INFO_SIZE_VER0	128
#define PCIESW_INFO_SIZE_VER1	144

#define PCIESW_IOC_INFO		_IOWR(PCIESW_IOC_MAGIC, 0x00, struct pciesw_info)

/**
 * struct pciesw_ep_map - where an endpoint's memory window is in mmap()
 * @size: in: bytes of the caller's structure, at least
 *	PCIESW_EP_MAP_SIZE_VER0; out: bytes written back
 * @flags: in: must be 0
 * @ep_id: in: the endpoint (ep-id in netlink, id in sysfs)
 * @reserved0: in: must be 0
 * @offset: out: the mmap() offset of byte 0 of the window; ignored on
 *	input
 * @mem_size: out: bytes in the window; ignored on input
 * @reserved: in: must be 0; out: 0
 *
 * A structure filled by an earlier call can be passed again as it is
 * (@ep_id changed or not): the outputs it holds are overwritten, only
 * @flags and the reserved fields must still be 0.
 * The window is mapped with mmap(MAP_SHARED) of /dev/pcieswN at @offset
 * (plus any page-aligned offset into the window, up to @mem_size).  It is
 * the same memory DMA reads and writes; pages that were never written read
 * as zeros.  mmap() follows the file's mode as for any file: PROT_WRITE
 * needs a file open O_RDWR (EACCES), a read-only MAP_SHARED mapping of an
 * O_RDONLY file is fine.  Unplugging the endpoint (or removing the switch)
 * revokes every mapping of its window, in every process and through every
 * open file: by the time the request returns, any access, to pages touched
 * before too, gives SIGBUS.  ENOENT: no such endpoint.
 *
 * Offsets are handed out when the endpoint is plugged in, as DRM hands out
 * its fake offsets: a range of the window's size (aligned to its size
 * rounded up to a power of two) below PCIESW_MAP_OFFSET_32_MAX, where a
 * 32-bit process reaches all of it, as long as the switch's windows fit
 * there (above it otherwise, for 64-bit processes only).  They are taken
 * in turn, not lowest first: a range is used again only once the switch
 * has gone round the whole space, and never while an endpoint holds it, so
 * the offset of an unplugged endpoint names no window (mmap() gives ENXIO)
 * rather than the next endpoint's.  Endpoint ids are allocated the same
 * way, in turn up to PCIESW_EP_ID_MAX: an unplugged endpoint's id gives
 * ENOENT here, in DMA and in netlink, and does not name the endpoint
 * plugged after it.
 */
struct pciesw_ep_map {
	__u32 size;
	__u32 flags;
	__u32 ep_id;
	__u32 reserved0;
	__aligned_u64 offset;
	__aligned_u64 mem_size;
	__aligned_u64 reserved[4];
};

#define PCIESW_EP_MAP_SIZE_VER0		64
#define PCIESW_MAP_OFFSET_32_MAX	(1ULL << 44)
#define PCIESW_EP_ID_MAX		0x7fffffffu

#define PCIESW_IOC_EP_MAP	_IOWR(PCIESW_IOC_MAGIC, 0x01, struct pciesw_ep_map)

/*
 * DMA.  PCIESW_IOC_DMA_SUBMIT queues a batch of descriptors on the switch's
 * DMA channels; each descriptor later yields exactly one struct
 * pciesw_dma_completion, read() from the same file (poll() says POLLIN when
 * one is ready), whatever happens to it: done, refused by the route,
 * endpoint unplugged mid-transfer, or cancelled by close() or switch
 * removal (those of a closed file are not delivered to anyone).
 *
 * A batch is checked whole before anything is queued: on an error nothing
 * is submitted, nr_submitted is 0 and error_index names the descriptor at
 * fault (or PCIESW_DMA_NO_INDEX when the batch itself is).  Errors:
 *   EINVAL     size or desc_size below their first version, flags or
 *              reserved fields not 0; nr_descs 0
 *              or above PCIESW_DMA_MAX_BATCH; in a descriptor: flags or
 *              reserved not 0, len 0 or above PCIESW_DMA_MAX_LEN, channel
 *              not below the switch's dma-channels, host on both sides
 *   E2BIG      size or desc_size above the module's with non-zero bytes
 *              past it (in a descriptor: error_index names it), or
 *              above a page
 *   ENOENT     no endpoint with that id
 *   EOVERFLOW  addr + len wraps around
 *   ERANGE     beyond the end of the endpoint's memory window
 *   EFAULT     descs unreadable, or a host buffer not mapped (writable for
 *              a destination)
 *   EBADF      the file's mode does not allow the descriptor: one that
 *              reads endpoint memory (to host memory or another
 *              endpoint) needs a file open for reading, one that writes
 *              endpoint memory (from host memory or another endpoint) a
 *              file open for writing, as read() and write() would; so
 *              O_RDWR for endpoint to endpoint.  Host buffers are the
 *              caller's memory: a destination must be writable (EFAULT)
 *   EAGAIN     this file already has PCIESW_DMA_MAX_INFLIGHT descriptors
 *              submitted and not read back, or PCIESW_DMA_MAX_PINNED bytes
 *              of host memory pinned
 *   ENOMEM     pinning the host buffer would take the process's pinned
 *              memory (VmPin in /proc/PID/status) past its RLIMIT_MEMLOCK
 *              and it lacks CAP_IPC_LOCK (or no memory)
 *   ENODEV     the switch was removed
 * Host buffers are pinned (long-term, FOLL_LONGTERM) from submission until
 * their completion, and count against RLIMIT_MEMLOCK meanwhile.  Endpoint
 * pages a transfer makes are charged to the submitter's memory cgroup;
 * past its limit, or past the module's mem_limit_mb, the descriptor
 * completes with PCIESW_DMA_STATUS_NOMEM.
 */
#define PCIESW_DMA_HOST		0xffffffffu	/* pciesw_dma_loc.ep_id */
#define PCIESW_DMA_MAX_BATCH	1024
#define PCIESW_DMA_MAX_INFLIGHT	4096
#define PCIESW_DMA_MAX_LEN	(1ULL << 30)
#define PCIESW_DMA_MAX_PINNED	(1ULL << 30)
#define PCIESW_DMA_NO_INDEX	0xffffffffu

/**
 * struct pciesw_dma_loc - one end of a transfer
 * @ep_id: an endpoint of the switch, or PCIESW_DMA_HOST for host memory
 * @reserved: must be 0
 * @addr: byte offset in the endpoint's memory window, or for the host a
 *	user-space address of the calling process
 */
struct pciesw_dma_loc {
	__u32 ep_id;
	__u32 reserved;
	__aligned_u64 addr;
};

/**
 * struct pciesw_dma_desc - one transfer, desc_size bytes of the array
 *	(extensible as the ioctl structures are, per descriptor)
 * @src: where the bytes come from
 * @dst: where they go
 * @len: bytes, 1..PCIESW_DMA_MAX_LEN
 * @user_data: returned in the completion
 * @flags: must be 0
 * @channel: the DMA channel, below the switch's dma-channels setting;
 *	a channel runs its descriptors in order, channels run in parallel
 * @reserved: must be 0
 */
struct pciesw_dma_desc {
	struct pciesw_dma_loc src;
	struct pciesw_dma_loc dst;
	__aligned_u64 len;
	__aligned_u64 user_data;
	__u32 flags;
	__u32 channel;
	__aligned_u64 reserved;
};

#define PCIESW_DMA_DESC_SIZE_VER0	64

/**
 * struct pciesw_dma_submit - argument of PCIESW_IOC_DMA_SUBMIT
 * @size: in: bytes of the caller's structure, at least
 *	PCIESW_DMA_SUBMIT_SIZE_VER0
 * @flags: in: must be 0
 * @desc_size: in: bytes of each descriptor (the array's stride), at least
 *	PCIESW_DMA_DESC_SIZE_VER0
 * @nr_descs: in: descriptors at @descs, 1..PCIESW_DMA_MAX_BATCH
 * @descs: in: user pointer to the descriptors
 * @nr_submitted: out: @nr_descs on success, 0 on error
 * @error_index: out: on error, the descriptor at fault or
 *	PCIESW_DMA_NO_INDEX
 * @reserved: in: must be 0
 */
struct pciesw_dma_submit {
	__u32 size;
	__u32 flags;
	__u32 desc_size;
	__u32 nr_descs;
	__aligned_u64 descs;
	__u32 nr_submitted;
	__u32 error_index;
	__aligned_u64 reserved[2];
};

#define PCIESW_DMA_SUBMIT_SIZE_VER0	48

/*
 * Completion records.  read() returns records of one version, that of the
 * file: version 1 (struct pciesw_dma_completion, 32 bytes, no header: what
 * every file reads unless it asks for another, so that binaries older
 * than versions keep working) or version 2 (struct pciesw_dma_completion2),
 * chosen with PCIESW_IOC_COMPLETION_FMT.  A version 2 record starts with
 * its own size and version: a reader tells versions apart by @version,
 * and steps from one record to the next by @size, so that a later version
 * can append fields that an older reader skips.  read() takes at least one
 * record (EINVAL below), returns whole records only, and blocks until at
 * least one is ready unless O_NONBLOCK (EAGAIN).
 */
#define PCIESW_DMA_COMPLETION_V1	1
#define PCIESW_DMA_COMPLETION_V2	2

/**
 * struct pciesw_dma_completion - a version 1 completion record
 * @user_data: the descriptor's
 * @bytes: bytes moved
 * @duration_ns: modelled time of the transfer along its route (the
 *	bandwidth model; with pacing on, also the least time it took)
 * @status: enum pciesw_dma_status
 * @channel: the channel it ran on
 */
struct pciesw_dma_completion {
	__aligned_u64 user_data;
	__aligned_u64 bytes;
	__aligned_u64 duration_ns;
	__u32 status;
	__u32 channel;
};

/**
 * struct pciesw_dma_completion2 - a version 2 completion record
 * @size: bytes of this record (sizeof() for version 2); the next record
 *	starts @size bytes after this one
 * @version: PCIESW_DMA_COMPLETION_V2
 * @reserved0: 0
 * @flags: PCIESW_DMA_COMP_* (none defined yet); readers ignore bits they
 *	do not know
 * @status: enum pciesw_dma_status
 * @user_data: the descriptor's
 * @bytes: bytes moved
 * @duration_ns: as in version 1
 * @channel: the channel it ran on
 * @reserved1: 0
 * @reserved: 0, room for what later versions report
 */
struct pciesw_dma_completion2 {
	__u32 size;
	__u16 version;
	__u16 reserved0;
	__u32 flags;
	__u32 status;
	__aligned_u64 user_data;
	__aligned_u64 bytes;
	__aligned_u64 duration_ns;
	__u32 channel;
	__u32 reserved1;
	__aligned_u64 reserved[2];
};

/**
 * struct pciesw_completion_fmt - argument of PCIESW_IOC_COMPLETION_FMT
 * @size: in: bytes of the caller's structure, at least
 *	PCIESW_COMPLETION_FMT_SIZE_VER0; out: bytes written back
 * @flags: in: must be 0
 * @version: in: the record version read() of this file is to return
 *	from now on, PCIESW_DMA_COMPLETION_V1 up to INFO's completion_version,
 *	or 0 to leave it and only ask; out: the file's version
 * @record_size: in: must be 0; out: bytes of one record of that version
 * @reserved: in: must be 0; out: 0
 *
 * Per open file.  EINVAL: a version the module does not write (above
 * completion_version), flags or reserved not 0.  EBUSY: a change while the
 * file has descriptors submitted and not read back (their records would
 * be of two versions).
 */
struct pciesw_completion_fmt {
	__u32 size;
	__u32 flags;
	__u32 version;
	__u32 record_size;
	__aligned_u64 reserved[2];
};

#define PCIESW_COMPLETION_FMT_SIZE_VER0	32

#define PCIESW_IOC_DMA_SUBMIT	_IOWR(PCIESW_IOC_MAGIC, 0x02, struct pciesw_dma_submit)
#define PCIESW_IOC_COMPLETION_FMT _IOWR(PCIESW_IOC_MAGIC, 0x03, \
					struct pciesw_completion_fmt)

/**
 * struct pciesw_ep_discard - give a range of a memory window back
 * @size: in: sizeof(struct pciesw_ep_discard) as the caller knows it (at
 *	least PCIESW_EP_DISCARD_SIZE_VER0; a larger one with a zero tail);
 *	out: the bytes the module wrote back
 * @flags: in: must be 0
 * @ep_id: in: the endpoint
 * @reserved0: in: must be 0
 * @offset: in: first byte of the range in the window, page-aligned
 * @len: in: bytes, page-aligned, not 0
 * @freed: in: must be 0; out: resident bytes the range gave back
 * @reserved: in: must be 0
 *
 * PCIESW_IOC_EP_DISCARD frees the pages of the range (what
 * fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) does to a file,
 * which a character device cannot offer): the range reads as zeros again
 * through every mapping, DMA and the block device, its memory leaves
 * mem_resident (of the endpoint and of the module) and the memory cgroup
 * it was charged to.  Every mapping of the range is zapped (the next
 * access faults in a zero page); DMA running on the range at the same time
 * may or may not see its bytes survive.  Needs a file open for writing
 * (EBADF).  Errors: EINVAL (size, flags, reserved, unaligned or empty
 * range), EOVERFLOW (offset + len wraps), ERANGE (beyond the window),
 * ENOENT (no such endpoint), ENODEV (the switch was removed).
 */
struct pciesw_ep_discard {
	__u32 size;
	__u32 flags;
	__u32 ep_id;
	__u32 reserved0;
	__aligned_u64 offset;
	__aligned_u64 len;
	__aligned_u64 freed;
	__aligned_u64 reserved[3];
};

#define PCIESW_EP_DISCARD_SIZE_VER0	64

/* since PCIESW_FEATURE_EP_DISCARD */
#define PCIESW_IOC_EP_DISCARD	_IOWR(PCIESW_IOC_MAGIC, 0x04, struct pciesw_ep_discard)

#endif /* _UAPI_LINUX_PCIESW_H */
