/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * pciesw: a virtual PCIe 5.0 switch card.
 *
 * User API: the "pciesw" generic netlink family (described by
 * Documentation/netlink/specs/pciesw.yaml, which is the reference for
 * attribute types and which op carries which attribute) and the ioctls of
 * the /dev/pcieswN character device.
 *
 * Rules of this ABI: enums and attributes only grow at the end; every
 * structure has fixed-width fields, explicit padding and reserved fields that
 * must be zero; every flags field rejects unknown bits.
 */
#ifndef _UAPI_LINUX_PCIESW_H
#define _UAPI_LINUX_PCIESW_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define PCIESW_FAMILY_NAME	"pciesw"
#define PCIESW_FAMILY_VERSION	1
#define PCIESW_MCGRP_MONITOR	"monitor"

/* Largest switch id; the id is also the minor number of /dev/pcieswN. */
#define PCIESW_MAX_SWITCH_ID	255
#define PCIESW_NAME_LEN		32
/* Lowest temperature a limit, override or ambient may be set to, m°C. */
#define PCIESW_TEMP_MIN		(-40000)

/**
 * enum pciesw_group_type - what a lane group connects to
 * @PCIESW_GROUP_TYPE_HOST: the upstream (host) side, one upstream port
 * @PCIESW_GROUP_TYPE_GPU: the GPU enclosure connector (CDFP)
 * @PCIESW_GROUP_TYPE_NVME: the NVMe connectors (MCIO 8i)
 */
enum pciesw_group_type {
	PCIESW_GROUP_TYPE_HOST = 1,
	PCIESW_GROUP_TYPE_GPU,
	PCIESW_GROUP_TYPE_NVME,

	/* private: */
	__PCIESW_GROUP_TYPE_MAX,
	PCIESW_GROUP_TYPE_MAX = (__PCIESW_GROUP_TYPE_MAX - 1)
};

/**
 * enum pciesw_port_role - direction of a switch port
 * @PCIESW_PORT_ROLE_UPSTREAM: faces the host (PCIe Upstream Port)
 * @PCIESW_PORT_ROLE_DOWNSTREAM: faces an endpoint (PCIe Downstream Port)
 */
enum pciesw_port_role {
	PCIESW_PORT_ROLE_UPSTREAM = 1,
	PCIESW_PORT_ROLE_DOWNSTREAM,

	/* private: */
	__PCIESW_PORT_ROLE_MAX,
	PCIESW_PORT_ROLE_MAX = (__PCIESW_PORT_ROLE_MAX - 1)
};

/**
 * enum pciesw_ltssm - Link Training and Status State Machine state
 * @PCIESW_LTSSM_DETECT: looking for a link partner (none present)
 * @PCIESW_LTSSM_POLLING: bit lock and symbol lock with the partner
 * @PCIESW_LTSSM_CONFIGURATION: lane and width negotiation
 * @PCIESW_LTSSM_L0: link up, normal operation
 * @PCIESW_LTSSM_RECOVERY: retraining (speed change, errors)
 * @PCIESW_LTSSM_L1: low-power standby
 * @PCIESW_LTSSM_DISABLED: disabled by software
 * @PCIESW_LTSSM_HOT_RESET: hot reset in progress
 */
enum pciesw_ltssm {
	PCIESW_LTSSM_DETECT = 1,
	PCIESW_LTSSM_POLLING,
	PCIESW_LTSSM_CONFIGURATION,
	PCIESW_LTSSM_L0,
	PCIESW_LTSSM_RECOVERY,
	PCIESW_LTSSM_L1,
	PCIESW_LTSSM_DISABLED,
	PCIESW_LTSSM_HOT_RESET,

	/* private: */
	__PCIESW_LTSSM_MAX,
	PCIESW_LTSSM_MAX = (__PCIESW_LTSSM_MAX - 1)
};

/**
 * enum pciesw_link_speed - PCIe generation of a link
 * @PCIESW_LINK_SPEED_NONE: no speed (link down)
 * @PCIESW_LINK_SPEED_GEN1: 2.5 GT/s, 8b/10b
 * @PCIESW_LINK_SPEED_GEN2: 5 GT/s, 8b/10b
 * @PCIESW_LINK_SPEED_GEN3: 8 GT/s, 128b/130b
 * @PCIESW_LINK_SPEED_GEN4: 16 GT/s, 128b/130b
 * @PCIESW_LINK_SPEED_GEN5: 32 GT/s, 128b/130b
 */
enum pciesw_link_speed {
	PCIESW_LINK_SPEED_NONE,
	PCIESW_LINK_SPEED_GEN1,
	PCIESW_LINK_SPEED_GEN2,
	PCIESW_LINK_SPEED_GEN3,
	PCIESW_LINK_SPEED_GEN4,
	PCIESW_LINK_SPEED_GEN5,

	/* private: */
	__PCIESW_LINK_SPEED_MAX,
	PCIESW_LINK_SPEED_MAX = (__PCIESW_LINK_SPEED_MAX - 1)
};

/**
 * enum pciesw_ep_type - kind of an endpoint behind a downstream port
 * @PCIESW_EP_TYPE_GPU: a GPU; its memory window is a BAR
 * @PCIESW_EP_TYPE_NVME: an NVMe SSD; its memory window is a namespace
 * @PCIESW_EP_TYPE_GENERIC: any other device with a memory window
 */
enum pciesw_ep_type {
	PCIESW_EP_TYPE_GPU = 1,
	PCIESW_EP_TYPE_NVME,
	PCIESW_EP_TYPE_GENERIC,

	/* private: */
	__PCIESW_EP_TYPE_MAX,
	PCIESW_EP_TYPE_MAX = (__PCIESW_EP_TYPE_MAX - 1)
};

/**
 * enum pciesw_counter - per-port counters
 *
 * Errors (AER terms, counted by the port that detects them): correctable
 * %PCIESW_COUNTER_RECEIVER_ERROR .. %PCIESW_COUNTER_HEADER_LOG_OVERFLOW,
 * uncorrectable %PCIESW_COUNTER_DATA_LINK_PROTOCOL ..
 * %PCIESW_COUNTER_ACS_VIOLATION.  Traffic: bytes and TLPs received
 * (ingress) and sent (egress) by the port, per TLP class: posted and
 * completion bytes are data payload, one TLP per MPS bytes; non-posted
 * bytes are what read requests ask for, one TLP per 512 bytes (MRRS).
 */
enum pciesw_counter {
	PCIESW_COUNTER_RECEIVER_ERROR,
	PCIESW_COUNTER_BAD_TLP,
	PCIESW_COUNTER_BAD_DLLP,
	PCIESW_COUNTER_REPLAY_NUM_ROLLOVER,
	PCIESW_COUNTER_REPLAY_TIMER_TIMEOUT,
	PCIESW_COUNTER_ADVISORY_NON_FATAL,
	PCIESW_COUNTER_CORRECTED_INTERNAL,
	PCIESW_COUNTER_HEADER_LOG_OVERFLOW,
	PCIESW_COUNTER_DATA_LINK_PROTOCOL,
	PCIESW_COUNTER_SURPRISE_DOWN,
	PCIESW_COUNTER_POISONED_TLP,
	PCIESW_COUNTER_FLOW_CONTROL_PROTOCOL,
	PCIESW_COUNTER_COMPLETION_TIMEOUT,
	PCIESW_COUNTER_COMPLETER_ABORT,
	PCIESW_COUNTER_UNEXPECTED_COMPLETION,
	PCIESW_COUNTER_RECEIVER_OVERFLOW,
	PCIESW_COUNTER_MALFORMED_TLP,
	PCIESW_COUNTER_ECRC,
	PCIESW_COUNTER_UNSUPPORTED_REQUEST,
	PCIESW_COUNTER_ACS_VIOLATION,
	PCIESW_COUNTER_INGRESS_POSTED_BYTES,
	PCIESW_COUNTER_INGRESS_NON_POSTED_BYTES,
	PCIESW_COUNTER_INGRESS_COMPLETION_BYTES,
	PCIESW_COUNTER_EGRESS_POSTED_BYTES,
	PCIESW_COUNTER_EGRESS_NON_POSTED_BYTES,
	PCIESW_COUNTER_EGRESS_COMPLETION_BYTES,
	PCIESW_COUNTER_INGRESS_POSTED_TLPS,
	PCIESW_COUNTER_INGRESS_NON_POSTED_TLPS,
	PCIESW_COUNTER_INGRESS_COMPLETION_TLPS,
	PCIESW_COUNTER_EGRESS_POSTED_TLPS,
	PCIESW_COUNTER_EGRESS_NON_POSTED_TLPS,
	PCIESW_COUNTER_EGRESS_COMPLETION_TLPS,

	/* private: */
	__PCIESW_COUNTER_MAX,
	PCIESW_COUNTER_MAX = (__PCIESW_COUNTER_MAX - 1)
};

#define PCIESW_COUNTER_FIRST_CORRECTABLE	PCIESW_COUNTER_RECEIVER_ERROR
#define PCIESW_COUNTER_LAST_CORRECTABLE	PCIESW_COUNTER_HEADER_LOG_OVERFLOW
#define PCIESW_COUNTER_FIRST_UNCORRECTABLE	PCIESW_COUNTER_DATA_LINK_PROTOCOL
#define PCIESW_COUNTER_LAST_UNCORRECTABLE	PCIESW_COUNTER_ACS_VIOLATION
#define PCIESW_COUNTER_FIRST_TRAFFIC	PCIESW_COUNTER_INGRESS_POSTED_BYTES

/**
 * enum pciesw_alarm - temperature alarm levels
 * @PCIESW_ALARM_WARNING: the sensor reached its max (warning) limit
 * @PCIESW_ALARM_CRITICAL: the sensor reached its crit (critical) limit
 */
enum pciesw_alarm {
	PCIESW_ALARM_WARNING = 1,
	PCIESW_ALARM_CRITICAL,

	/* private: */
	__PCIESW_ALARM_MAX,
	PCIESW_ALARM_MAX = (__PCIESW_ALARM_MAX - 1)
};

/**
 * enum pciesw_p2p_route - how traffic between two endpoints travels
 * @PCIESW_P2P_ROUTE_DIRECT: port to switch to port; nothing upstream
 * @PCIESW_P2P_ROUTE_HOST_BRIDGE: ACS P2P Request Redirect sends it up
 *	through the upstream port to the host bridge and back down
 * @PCIESW_P2P_ROUTE_REFUSED: it would have to go through the host bridge,
 *	and the switch's host-p2p setting says that does not forward P2P
 */
enum pciesw_p2p_route {
	PCIESW_P2P_ROUTE_DIRECT = 1,
	PCIESW_P2P_ROUTE_HOST_BRIDGE,
	PCIESW_P2P_ROUTE_REFUSED,

	/* private: */
	__PCIESW_P2P_ROUTE_MAX,
	PCIESW_P2P_ROUTE_MAX = (__PCIESW_P2P_ROUTE_MAX - 1)
};

/**
 * enum pciesw_dma_status - status of a DMA completion record
 * @PCIESW_DMA_STATUS_OK: all bytes moved
 * @PCIESW_DMA_STATUS_P2P_REFUSED: the route goes through a host bridge that
 *	does not allow P2P; an acs-violation was counted on the ingress port;
 *	nothing moved
 * @PCIESW_DMA_STATUS_UNPLUGGED: an endpoint of the transfer was unplugged;
 *	bytes says how far it got
 * @PCIESW_DMA_STATUS_CANCELLED: the file was closed or the switch removed
 *	before it ran
 * @PCIESW_DMA_STATUS_LINK_DOWN: a link on the route was down when it ran;
 *	nothing moved
 * @PCIESW_DMA_STATUS_NOMEM: endpoint memory could not be allocated; bytes
 *	says how far it got
 */
enum pciesw_dma_status {
	PCIESW_DMA_STATUS_OK,
	PCIESW_DMA_STATUS_P2P_REFUSED,
	PCIESW_DMA_STATUS_UNPLUGGED,
	PCIESW_DMA_STATUS_CANCELLED,
	PCIESW_DMA_STATUS_LINK_DOWN,
	PCIESW_DMA_STATUS_NOMEM,

	/* private: */
	__PCIESW_DMA_STATUS_MAX,
	PCIESW_DMA_STATUS_MAX = (__PCIESW_DMA_STATUS_MAX - 1)
};

/* Netlink attributes; see the spec for which op carries which. */
enum pciesw_a {
	PCIESW_A_UNSPEC,
	PCIESW_A_PAD,
	PCIESW_A_SWITCH_ID,		/* u32 */
	PCIESW_A_SWITCH_NAME,		/* string, "pciesw0" */
	PCIESW_A_SWITCH_PROFILE,	/* string */
	PCIESW_A_SWITCH_DESCRIPTION,	/* string */
	PCIESW_A_SWITCH_LANES,		/* u32 */
	PCIESW_A_SWITCH_SERIAL,		/* string */
	PCIESW_A_SWITCH_NR_GROUPS,	/* u32 */
	PCIESW_A_SWITCH_NR_PORTS,	/* u32 */
	PCIESW_A_GROUP_ID,		/* u32, index within the switch */
	PCIESW_A_GROUP_NAME,		/* string */
	PCIESW_A_GROUP_TYPE,		/* u32, enum pciesw_group_type */
	PCIESW_A_GROUP_FIRST_LANE,	/* u32 */
	PCIESW_A_GROUP_NR_LANES,	/* u32 */
	PCIESW_A_GROUP_CONFIG,		/* string, bifurcation "NxW" */
	PCIESW_A_GROUP_ALLOWED_CONFIG,	/* string, multi-attr */
	PCIESW_A_PORT_ID,		/* u32, index within the switch */
	PCIESW_A_PORT_ROLE,		/* u32, enum pciesw_port_role */
	PCIESW_A_PORT_FIRST_LANE,	/* u32 */
	PCIESW_A_PORT_NR_LANES,		/* u32 */
	PCIESW_A_PORT_LTSSM,		/* u32, enum pciesw_ltssm */
	PCIESW_A_PORT_LINK_ACTIVE,	/* u8, Data Link Layer Link Active */
	PCIESW_A_PORT_MAX_SPEED,	/* u32, enum pciesw_link_speed */
	PCIESW_A_PORT_MAX_WIDTH,	/* u32, lanes */
	PCIESW_A_PORT_TARGET_SPEED,	/* u32, enum pciesw_link_speed */
	PCIESW_A_PORT_SPEED,		/* u32, negotiated, 0 when down */
	PCIESW_A_PORT_WIDTH,		/* u32, negotiated, 0 when down */
	PCIESW_A_PORT_DEGRADED,		/* u8, width below what both sides can do */
	PCIESW_A_PORT_ACS_REDIRECT,	/* u8, ACS P2P Request Redirect */
	PCIESW_A_PORT_ENABLED,		/* u8, link not disabled by software */
	PCIESW_A_PORT_FAILED_LANES,	/* u32, bit n: lane n of the port dead */
	PCIESW_A_PORT_SURPRISE_DOWN,	/* u64, surprise link-down count */
	PCIESW_A_PORT_RETRAIN,		/* flag, set op: retrain the link */
	PCIESW_A_PORT_HOT_RESET,	/* flag, set op: hot reset */
	PCIESW_A_PORT_SURPRISE_DOWN_NOW, /* flag, set op: drop the link */
	PCIESW_A_PORT_LTSSM_TRANSITION,	/* nest, multi-attr, oldest first */
	PCIESW_A_TRANSITION_TIME,	/* u64, CLOCK_MONOTONIC ns */
	PCIESW_A_TRANSITION_FROM,	/* u32, enum pciesw_ltssm */
	PCIESW_A_TRANSITION_TO,		/* u32, enum pciesw_ltssm */
	PCIESW_A_EP_ID,			/* u32 */
	PCIESW_A_EP_NAME,		/* string, "nvme0" */
	PCIESW_A_EP_TYPE,		/* u32, enum pciesw_ep_type */
	PCIESW_A_EP_MAX_SPEED,		/* u32, enum pciesw_link_speed */
	PCIESW_A_EP_MAX_WIDTH,		/* u32 */
	PCIESW_A_EP_MEM_SIZE,		/* u64, memory window bytes */
	PCIESW_A_PORT_BER,		/* u64, bit errors per 10^18 bits */
	PCIESW_A_COUNTER,		/* nest, multi-attr: id + value */
	PCIESW_A_COUNTER_ID,		/* u32, enum pciesw_counter */
	PCIESW_A_COUNTER_VALUE,		/* u64 */
	PCIESW_A_THRESHOLD_VALUE,	/* u64, 0 removes */
	PCIESW_A_THRESHOLD_CROSSED,	/* u8 */
	PCIESW_A_INJECT_COUNT,		/* u32, 1..1000000 */
	PCIESW_A_THERMAL_AMBIENT,	/* s32, millidegrees C */
	PCIESW_A_THERMAL_TIME_CONSTANT,	/* u32, ms */
	PCIESW_A_THERMAL_HIGHEST,	/* s32, millidegrees C */
	PCIESW_A_THERMAL_SENSOR,	/* nest, multi-attr */
	PCIESW_A_SENSOR_ID,		/* u32, hwmon temp<N+1> */
	PCIESW_A_SENSOR_LABEL,		/* string */
	PCIESW_A_SENSOR_TEMP,		/* s32, millidegrees C */
	PCIESW_A_SENSOR_MAX,		/* s32, millidegrees C */
	PCIESW_A_SENSOR_CRIT,		/* s32, millidegrees C */
	PCIESW_A_SENSOR_HYST,		/* u32, millidegrees */
	PCIESW_A_SENSOR_MAX_ALARM,	/* u8 */
	PCIESW_A_SENSOR_CRIT_ALARM,	/* u8 */
	PCIESW_A_SENSOR_OVERRIDE,	/* s32, millidegrees C */
	PCIESW_A_SENSOR_OVERRIDE_CLEAR,	/* flag */
	PCIESW_A_ALARM_LEVEL,		/* u32, enum pciesw_alarm */
	PCIESW_A_ALARM_ACTIVE,		/* u8 */
	PCIESW_A_VPD_IMAGE,		/* binary */
	PCIESW_A_VPD_ID_STRING,		/* string */
	PCIESW_A_VPD_FIELD,		/* nest, multi-attr */
	PCIESW_A_VPD_KEYWORD,		/* string, 2 characters */
	PCIESW_A_VPD_VALUE,		/* string, printable ASCII */
	PCIESW_A_VPD_WRITABLE,		/* u8 */
	PCIESW_A_VPD_RW_FREE,		/* u32 */
	PCIESW_A_EP_MEM_RESIDENT,	/* u64, bytes of the window in memory */
	PCIESW_A_SWITCH_HOST_P2P,	/* u8, host bridge forwards P2P */
	PCIESW_A_SWITCH_DMA_PACING,	/* u8 */
	PCIESW_A_SWITCH_MPS,		/* u32, Max Payload Size, bytes */
	PCIESW_A_SWITCH_DMA_CHANNELS,	/* u32, 1..16 */
	PCIESW_A_SWITCH_DMA_INFLIGHT,	/* u32 */
	PCIESW_A_PORT_BANDWIDTH,	/* u64, modelled bytes/s per direction */
	PCIESW_A_PEER_EP_ID,		/* u32 */
	PCIESW_A_PEER_EP_NAME,		/* string */
	PCIESW_A_P2P_ROUTE,		/* u32, enum pciesw_p2p_route */
	PCIESW_A_P2P_DISTANCE,		/* u32 */
	PCIESW_A_P2P_PORT,		/* u32, multi-attr, in order */
	PCIESW_A_P2P_BANDWIDTH,		/* u64, bytes/s */
	PCIESW_A_P2P_REDIRECT_PORT,	/* u32, multi-attr */
	PCIESW_A_SWITCH_PCI_VIEW,	/* u8, on the PCI bus */
	PCIESW_A_SWITCH_PCI_DOMAIN,	/* u32, PCI domain of the view */
	PCIESW_A_PORT_PCI_NAME,		/* string, "20000:01:00.0" */
	PCIESW_A_EP_PCI_NAME,		/* string */

	/* private: */
	__PCIESW_A_MAX,
	PCIESW_A_MAX = (__PCIESW_A_MAX - 1)
};

enum pciesw_cmd {
	PCIESW_CMD_UNSPEC,
	PCIESW_CMD_SWITCH_GET,		/* do + dump */
	PCIESW_CMD_SWITCH_NEW,		/* CAP_NET_ADMIN */
	PCIESW_CMD_SWITCH_DEL,		/* CAP_NET_ADMIN */
	PCIESW_CMD_GROUP_GET,		/* do + dump */
	PCIESW_CMD_PORT_GET,		/* do + dump */
	PCIESW_CMD_SWITCH_CREATE_NTF,	/* monitor group */
	PCIESW_CMD_SWITCH_DELETE_NTF,	/* monitor group */
	PCIESW_CMD_GROUP_SET,		/* CAP_NET_ADMIN */
	PCIESW_CMD_PORT_SET,		/* CAP_NET_ADMIN */
	PCIESW_CMD_EP_GET,		/* do + dump */
	PCIESW_CMD_EP_ADD,		/* CAP_NET_ADMIN */
	PCIESW_CMD_EP_DEL,		/* CAP_NET_ADMIN */
	PCIESW_CMD_GROUP_CHANGE_NTF,	/* monitor group */
	PCIESW_CMD_PORT_CHANGE_NTF,	/* monitor group */
	PCIESW_CMD_EP_ADD_NTF,		/* monitor group */
	PCIESW_CMD_EP_DEL_NTF,		/* monitor group */
	PCIESW_CMD_COUNTER_GET,		/* do + dump */
	PCIESW_CMD_COUNTER_CLEAR,	/* CAP_NET_ADMIN */
	PCIESW_CMD_THRESHOLD_GET,	/* do + dump */
	PCIESW_CMD_THRESHOLD_SET,	/* CAP_NET_ADMIN */
	PCIESW_CMD_THRESHOLD_NTF,	/* monitor group */
	PCIESW_CMD_INJECT,		/* CAP_NET_ADMIN */
	PCIESW_CMD_THERMAL_GET,		/* do + dump */
	PCIESW_CMD_THERMAL_SET,		/* CAP_NET_ADMIN */
	PCIESW_CMD_THERMAL_ALARM_NTF,	/* monitor group */
	PCIESW_CMD_VPD_GET,		/* do + dump */
	PCIESW_CMD_VPD_SET,		/* CAP_NET_ADMIN */
	PCIESW_CMD_VPD_CHANGE_NTF,	/* monitor group */
	PCIESW_CMD_SWITCH_SET,		/* CAP_NET_ADMIN */
	PCIESW_CMD_SWITCH_CHANGE_NTF,	/* monitor group */
	PCIESW_CMD_P2P_CHECK,		/* do */

	/* private: */
	__PCIESW_CMD_MAX,
	PCIESW_CMD_MAX = (__PCIESW_CMD_MAX - 1)
};

/* ioctls of /dev/pcieswN */
#define PCIESW_IOC_MAGIC	0xB9

/* Version of the ioctl ABI, reported by PCIESW_IOC_INFO. */
#define PCIESW_ABI_VERSION	1

/**
 * struct pciesw_info - identity and shape of a switch
 * @size: in: sizeof(struct pciesw_info); anything else is refused (-EINVAL)
 * @flags: in: must be 0
 * @switch_id: out: the N of pcieswN
 * @abi_version: out: PCIESW_ABI_VERSION
 * @nr_lanes: out: lanes of the switch
 * @nr_groups: out: lane groups
 * @nr_ports: out: ports (upstream and downstream)
 * @nr_endpoints: out: endpoints attached to downstream ports
 * @profile: out: profile name, NUL-terminated
 * @serial: out: serial number, NUL-terminated
 * @reserved: in: must be 0; out: 0
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
	__u64 reserved[4];
};

#define PCIESW_IOC_INFO		_IOWR(PCIESW_IOC_MAGIC, 0x00, struct pciesw_info)

/**
 * struct pciesw_ep_map - where an endpoint's memory window is in mmap()
 * @size: in: sizeof(struct pciesw_ep_map); anything else is refused
 * @flags: in: must be 0
 * @ep_id: in: the endpoint (ep-id in netlink, id in sysfs)
 * @reserved0: in: must be 0
 * @offset: out: the mmap() offset of byte 0 of the window
 * @mem_size: out: bytes in the window
 * @reserved: in: must be 0; out: 0
 *
 * The window is mapped with mmap(MAP_SHARED) of /dev/pcieswN at @offset
 * (plus any page-aligned offset into the window, up to @mem_size).  It is
 * the same memory DMA reads and writes; pages that were never written read
 * as zeros.  Once the endpoint is unplugged, pages not yet touched through
 * the mapping give SIGBUS.  ENOENT: no such endpoint.
 */
struct pciesw_ep_map {
	__u32 size;
	__u32 flags;
	__u32 ep_id;
	__u32 reserved0;
	__u64 offset;
	__u64 mem_size;
	__u64 reserved[4];
};

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
 *   EINVAL     size, flags, desc_size or reserved fields wrong; nr_descs 0
 *              or above PCIESW_DMA_MAX_BATCH; in a descriptor: flags or
 *              reserved not 0, len 0 or above PCIESW_DMA_MAX_LEN, channel
 *              not below the switch's dma-channels, host on both sides
 *   ENOENT     no endpoint with that id
 *   EOVERFLOW  addr + len wraps around
 *   ERANGE     beyond the end of the endpoint's memory window
 *   EFAULT     descs unreadable, or a host buffer not mapped (writable for
 *              a destination)
 *   EAGAIN     this file already has PCIESW_DMA_MAX_INFLIGHT descriptors
 *              submitted and not read back, or PCIESW_DMA_MAX_PINNED bytes
 *              of host memory pinned
 *   ENODEV     the switch was removed
 * Host buffers are pinned from submission until their completion.
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
	__u64 addr;
};

/**
 * struct pciesw_dma_desc - one transfer
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
	__u64 len;
	__u64 user_data;
	__u32 flags;
	__u32 channel;
	__u64 reserved;
};

/**
 * struct pciesw_dma_submit - argument of PCIESW_IOC_DMA_SUBMIT
 * @size: in: sizeof(struct pciesw_dma_submit)
 * @flags: in: must be 0
 * @desc_size: in: sizeof(struct pciesw_dma_desc)
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
	__u64 descs;
	__u32 nr_submitted;
	__u32 error_index;
	__u64 reserved[2];
};

/**
 * struct pciesw_dma_completion - what read() returns, one per descriptor
 * @user_data: the descriptor's
 * @bytes: bytes moved
 * @duration_ns: modelled time of the transfer along its route (the
 *	bandwidth model; with pacing on, also the least time it took)
 * @status: enum pciesw_dma_status
 * @channel: the channel it ran on
 *
 * read() takes a multiple of its size (EINVAL below one record), returns
 * whole records, blocks until at least one is ready unless O_NONBLOCK
 * (EAGAIN).
 */
struct pciesw_dma_completion {
	__u64 user_data;
	__u64 bytes;
	__u64 duration_ns;
	__u32 status;
	__u32 channel;
};

#define PCIESW_IOC_DMA_SUBMIT	_IOWR(PCIESW_IOC_MAGIC, 0x02, struct pciesw_dma_submit)

#endif /* _UAPI_LINUX_PCIESW_H */
