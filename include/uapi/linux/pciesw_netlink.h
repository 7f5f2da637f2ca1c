/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/pciesw.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_PCIESW_NETLINK_H
#define _UAPI_LINUX_PCIESW_NETLINK_H

#define PCIESW_FAMILY_NAME	"pciesw"
#define PCIESW_FAMILY_VERSION	1

#define PCIESW_MAX_SWITCH_ID	255
#define PCIESW_NAME_LEN		32
#define PCIESW_TEMP_MIN		-40000

/**
 * enum pciesw_group_type - What a lane group connects to.
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
 * enum pciesw_port_role - Direction of a switch port.
 * @PCIESW_PORT_ROLE_UPSTREAM: faces the host
 * @PCIESW_PORT_ROLE_DOWNSTREAM: faces an endpoint
 */
enum pciesw_port_role {
	PCIESW_PORT_ROLE_UPSTREAM = 1,
	PCIESW_PORT_ROLE_DOWNSTREAM,

	/* private: */
	__PCIESW_PORT_ROLE_MAX,
	PCIESW_PORT_ROLE_MAX = (__PCIESW_PORT_ROLE_MAX - 1)
};

/**
 * enum pciesw_ltssm - Link Training and Status State Machine state of a port.
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
 * enum pciesw_link_speed - PCIe generation of a link; none when the link is
 *   down.
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
 * enum pciesw_ep_type - Kind of an endpoint behind a downstream port.
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
 * enum pciesw_counter - Per-port counters. Errors are counted in AER terms by
 *   the port that detects them; traffic is counted per direction (ingress =
 *   received by the switch on that port, egress = sent by it) and TLP class:
 *   bytes are payload, as a switch's counters count it; posted and completion
 *   TLPs are one per MPS bytes; non-posted TLPs are read requests, one per 512
 *   bytes asked for (the max read request size), which carry no payload: a
 *   read adds its bytes to the completion counters only.
 * @PCIESW_COUNTER_RECEIVER_ERROR: correctable, physical layer receive error
 * @PCIESW_COUNTER_BAD_TLP: correctable, TLP with a bad LCRC or sequence number
 * @PCIESW_COUNTER_BAD_DLLP: correctable, DLLP with a bad CRC
 * @PCIESW_COUNTER_REPLAY_NUM_ROLLOVER: correctable, a TLP was replayed four
 *   times
 * @PCIESW_COUNTER_REPLAY_TIMER_TIMEOUT: correctable, no ACK before the replay
 *   timer expired
 * @PCIESW_COUNTER_ADVISORY_NON_FATAL: correctable, an uncorrectable error
 *   handled as advisory
 * @PCIESW_COUNTER_CORRECTED_INTERNAL: correctable, an internal error the
 *   switch corrected
 * @PCIESW_COUNTER_HEADER_LOG_OVERFLOW: correctable, the AER header log was
 *   full
 * @PCIESW_COUNTER_DATA_LINK_PROTOCOL: uncorrectable, data link protocol error
 * @PCIESW_COUNTER_SURPRISE_DOWN: uncorrectable, the link went down without
 *   warning
 * @PCIESW_COUNTER_POISONED_TLP: uncorrectable, a poisoned TLP was received
 * @PCIESW_COUNTER_FLOW_CONTROL_PROTOCOL: uncorrectable, flow control protocol
 *   error
 * @PCIESW_COUNTER_COMPLETION_TIMEOUT: uncorrectable, a request got no
 *   completion in time
 * @PCIESW_COUNTER_COMPLETER_ABORT: uncorrectable, the completer aborted a
 *   request
 * @PCIESW_COUNTER_UNEXPECTED_COMPLETION: uncorrectable, a completion matched
 *   no request
 * @PCIESW_COUNTER_RECEIVER_OVERFLOW: uncorrectable, a receive buffer
 *   overflowed
 * @PCIESW_COUNTER_MALFORMED_TLP: uncorrectable, a malformed TLP was received
 * @PCIESW_COUNTER_ECRC: uncorrectable, end-to-end CRC check failed
 * @PCIESW_COUNTER_UNSUPPORTED_REQUEST: uncorrectable, a request the port does
 *   not support
 * @PCIESW_COUNTER_ACS_VIOLATION: uncorrectable, a request blocked by Access
 *   Control Services
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

/**
 * enum pciesw_alarm - Temperature alarm levels.
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
 * enum pciesw_p2p_route - How traffic between two endpoints of a switch
 *   travels.
 * @PCIESW_P2P_ROUTE_DIRECT: port to switch to port; nothing crosses the
 *   upstream port
 * @PCIESW_P2P_ROUTE_HOST_BRIDGE: ACS P2P Request Redirect on a port sends it
 *   up through the upstream port to the host bridge and back down
 * @PCIESW_P2P_ROUTE_REFUSED: it would have to go through the host bridge, and
 *   the switch's host-p2p setting says the host bridge does not forward P2P
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
 * enum pciesw_dma_status - Status of a DMA completion record (struct
 *   pciesw_dma_completion).
 * @PCIESW_DMA_STATUS_OK: all bytes moved
 * @PCIESW_DMA_STATUS_P2P_REFUSED: the route goes through a host bridge that
 *   does not allow P2P; an acs-violation was counted on the ingress port;
 *   nothing moved
 * @PCIESW_DMA_STATUS_UNPLUGGED: an endpoint of the transfer was unplugged;
 *   bytes says how far it got
 * @PCIESW_DMA_STATUS_CANCELLED: the file was closed or the switch removed
 *   before it ran
 * @PCIESW_DMA_STATUS_LINK_DOWN: a link on the route was down when it was to
 *   run (nothing moved) or went down while it ran (bytes says how far it got)
 * @PCIESW_DMA_STATUS_NOMEM: the endpoint memory could not be allocated: the
 *   module's mem_limit_mb, the submitter's memory cgroup limit, or no memory;
 *   bytes says how far it got
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

/**
 * enum pciesw_fw_state - What a firmware partition holds.
 * @PCIESW_FW_STATE_EMPTY: Nothing (erased, or being written).
 * @PCIESW_FW_STATE_VALID: A whole image whose CRC-32 matched.
 * @PCIESW_FW_STATE_INVALID: A write that was cut short (power loss) or failed
 *   its check.
 */
enum pciesw_fw_state {
	PCIESW_FW_STATE_EMPTY,
	PCIESW_FW_STATE_VALID,
	PCIESW_FW_STATE_INVALID,
};

/**
 * enum pciesw_nvme_fault - A fault of an NVMe drive (nvme-inject).
 * @PCIESW_NVME_FAULT_MEDIA_ERROR: nvme-count logical blocks from nvme-lba
 *   become unreadable: reads that touch them fail with Unrecovered Read Error
 *   until the blocks are written again.
 * @PCIESW_NVME_FAULT_TEMP: The drive's composite temperature is nvme-temp (or
 *   the card's model again with nvme-temp-clear).
 * @PCIESW_NVME_FAULT_SPARE: The available spare is nvme-spare percent.
 * @PCIESW_NVME_FAULT_READ_ONLY: The media is read-only (nvme-read-only 1) or
 *   writable again.
 * @PCIESW_NVME_FAULT_SELF_TEST_FAIL: The drive's next device self-test fails:
 *   it completes with a failed segment (6, the media check) in the self-test
 *   log.
 */
enum pciesw_nvme_fault {
	PCIESW_NVME_FAULT_MEDIA_ERROR = 1,
	PCIESW_NVME_FAULT_TEMP,
	PCIESW_NVME_FAULT_SPARE,
	PCIESW_NVME_FAULT_READ_ONLY,
	PCIESW_NVME_FAULT_SELF_TEST_FAIL,

	/* private: */
	__PCIESW_NVME_FAULT_MAX,
	PCIESW_NVME_FAULT_MAX = (__PCIESW_NVME_FAULT_MAX - 1)
};

/**
 * enum pciesw_ep_aer_error - An error an endpoint detects and reports with its
 *   AER capability (inject with ep-id or ep-name): its AER status bit is set
 *   and, unless masked, it sends ERR_COR, or ERR_NONFATAL or ERR_FATAL by its
 *   Uncorrectable Error Severity.
 * @PCIESW_EP_AER_ERROR_COMPLETION_TIMEOUT: uncorrectable (non-fatal by
 *   default), a request it sent got no completion
 * @PCIESW_EP_AER_ERROR_UNSUPPORTED_REQUEST: uncorrectable (non-fatal by
 *   default), it received a posted request it does not support (header logged)
 * @PCIESW_EP_AER_ERROR_POISONED_TLP: uncorrectable (non-fatal by default), it
 *   received a poisoned memory write (header logged)
 * @PCIESW_EP_AER_ERROR_UNCORRECTABLE_INTERNAL: uncorrectable (fatal by
 *   default; masked by default), an internal error
 * @PCIESW_EP_AER_ERROR_CORRECTED_INTERNAL: correctable (masked by default), an
 *   internal error it corrected
 * @PCIESW_EP_AER_ERROR_ADVISORY_NON_FATAL: correctable (masked by default): it
 *   completed a non-posted request it does not support with UR, an Unsupported
 *   Request handled as an Advisory Non-Fatal Error (PCIe 6.2.3.2.4.1) -
 *   Unsupported Request status and Advisory Non-Fatal status, ERR_COR; if
 *   Unsupported Request's severity is fatal, an ERR_FATAL instead
 */
enum pciesw_ep_aer_error {
	PCIESW_EP_AER_ERROR_COMPLETION_TIMEOUT,
	PCIESW_EP_AER_ERROR_UNSUPPORTED_REQUEST,
	PCIESW_EP_AER_ERROR_POISONED_TLP,
	PCIESW_EP_AER_ERROR_UNCORRECTABLE_INTERNAL,
	PCIESW_EP_AER_ERROR_CORRECTED_INTERNAL,
	PCIESW_EP_AER_ERROR_ADVISORY_NON_FATAL,

	/* private: */
	__PCIESW_EP_AER_ERROR_MAX,
	PCIESW_EP_AER_ERROR_MAX = (__PCIESW_EP_AER_ERROR_MAX - 1)
};

enum pciesw_a {
	PCIESW_A_PAD = 1,
	PCIESW_A_SWITCH_ID,
	PCIESW_A_SWITCH_NAME,
	PCIESW_A_SWITCH_PROFILE,
	PCIESW_A_SWITCH_DESCRIPTION,
	PCIESW_A_SWITCH_LANES,
	PCIESW_A_SWITCH_SERIAL,
	PCIESW_A_SWITCH_NR_GROUPS,
	PCIESW_A_SWITCH_NR_PORTS,
	PCIESW_A_GROUP_ID,
	PCIESW_A_GROUP_NAME,
	PCIESW_A_GROUP_TYPE,
	PCIESW_A_GROUP_FIRST_LANE,
	PCIESW_A_GROUP_NR_LANES,
	PCIESW_A_GROUP_CONFIG,
	PCIESW_A_GROUP_ALLOWED_CONFIG,
	PCIESW_A_PORT_ID,
	PCIESW_A_PORT_ROLE,
	PCIESW_A_PORT_FIRST_LANE,
	PCIESW_A_PORT_NR_LANES,
	PCIESW_A_PORT_LTSSM,
	PCIESW_A_PORT_LINK_ACTIVE,
	PCIESW_A_PORT_MAX_SPEED,
	PCIESW_A_PORT_MAX_WIDTH,
	PCIESW_A_PORT_TARGET_SPEED,
	PCIESW_A_PORT_SPEED,
	PCIESW_A_PORT_WIDTH,
	PCIESW_A_PORT_DEGRADED,
	PCIESW_A_PORT_ACS_REDIRECT,
	PCIESW_A_PORT_ENABLED,
	PCIESW_A_PORT_FAILED_LANES,
	PCIESW_A_PORT_SURPRISE_DOWN,
	PCIESW_A_PORT_RETRAIN,
	PCIESW_A_PORT_HOT_RESET,
	PCIESW_A_PORT_SURPRISE_DOWN_NOW,
	PCIESW_A_PORT_LTSSM_TRANSITION,
	PCIESW_A_TRANSITION_TIME,
	PCIESW_A_TRANSITION_FROM,
	PCIESW_A_TRANSITION_TO,
	PCIESW_A_EP_ID,
	PCIESW_A_EP_NAME,
	PCIESW_A_EP_TYPE,
	PCIESW_A_EP_MAX_SPEED,
	PCIESW_A_EP_MAX_WIDTH,
	PCIESW_A_EP_MEM_SIZE,
	PCIESW_A_PORT_BER,
	PCIESW_A_COUNTER,
	PCIESW_A_COUNTER_ID,
	PCIESW_A_COUNTER_VALUE,
	PCIESW_A_THRESHOLD_VALUE,
	PCIESW_A_THRESHOLD_CROSSED,
	PCIESW_A_INJECT_COUNT,
	PCIESW_A_THERMAL_AMBIENT,
	PCIESW_A_THERMAL_TIME_CONSTANT,
	PCIESW_A_THERMAL_HIGHEST,
	PCIESW_A_THERMAL_SENSOR,
	PCIESW_A_SENSOR_ID,
	PCIESW_A_SENSOR_LABEL,
	PCIESW_A_SENSOR_TEMP,
	PCIESW_A_SENSOR_MAX,
	PCIESW_A_SENSOR_CRIT,
	PCIESW_A_SENSOR_HYST,
	PCIESW_A_SENSOR_MAX_ALARM,
	PCIESW_A_SENSOR_CRIT_ALARM,
	PCIESW_A_SENSOR_OVERRIDE,
	PCIESW_A_SENSOR_OVERRIDE_CLEAR,
	PCIESW_A_ALARM_LEVEL,
	PCIESW_A_ALARM_ACTIVE,
	PCIESW_A_VPD_IMAGE,
	PCIESW_A_VPD_ID_STRING,
	PCIESW_A_VPD_FIELD,
	PCIESW_A_VPD_KEYWORD,
	PCIESW_A_VPD_VALUE,
	PCIESW_A_VPD_WRITABLE,
	PCIESW_A_VPD_RW_FREE,
	PCIESW_A_EP_MEM_RESIDENT,
	PCIESW_A_SWITCH_HOST_P2P,
	PCIESW_A_SWITCH_DMA_PACING,
	PCIESW_A_SWITCH_MPS,
	PCIESW_A_SWITCH_DMA_CHANNELS,
	PCIESW_A_SWITCH_DMA_INFLIGHT,
	PCIESW_A_PORT_BANDWIDTH,
	PCIESW_A_PEER_EP_ID,
	PCIESW_A_PEER_EP_NAME,
	PCIESW_A_P2P_ROUTE,
	PCIESW_A_P2P_DISTANCE,
	PCIESW_A_P2P_PORT,
	PCIESW_A_P2P_BANDWIDTH,
	PCIESW_A_P2P_REDIRECT_PORT,
	PCIESW_A_SWITCH_PCI_VIEW,
	PCIESW_A_SWITCH_PCI_DOMAIN,
	PCIESW_A_PORT_PCI_NAME,
	PCIESW_A_EP_PCI_NAME,
	PCIESW_A_EP_BLOCK_SIZE,
	PCIESW_A_EP_DISK_NAME,
	PCIESW_A_FW_RUNNING_VERSION,
	PCIESW_A_FW_RUNNING_PART,
	PCIESW_A_FW_PENDING,
	PCIESW_A_FW_BOOTS,
	PCIESW_A_FW_PART,
	PCIESW_A_FW_PART_ID,
	PCIESW_A_FW_PART_STATE,
	PCIESW_A_FW_PART_VERSION,
	PCIESW_A_FW_PART_BUILD_TIME,
	PCIESW_A_FW_PART_LEN,
	PCIESW_A_FW_PART_CRC,
	PCIESW_A_LOG_SEQ,
	PCIESW_A_LOG_TIME,
	PCIESW_A_LOG_OBJECT,
	PCIESW_A_LOG_MESSAGE,
	PCIESW_A_PORT_DPC_CONTAINED,
	PCIESW_A_EP_BUS_MASTER,
	PCIESW_A_EP_VENDOR,
	PCIESW_A_EP_DEVICE,
	PCIESW_A_EP_SUBSYSTEM_VENDOR,
	PCIESW_A_EP_SUBSYSTEM_DEVICE,
	PCIESW_A_EP_REVISION,
	PCIESW_A_EP_CLASS,
	PCIESW_A_NVME_FAULT,
	PCIESW_A_NVME_LBA,
	PCIESW_A_NVME_COUNT,
	PCIESW_A_NVME_TEMP,
	PCIESW_A_NVME_TEMP_CLEAR,
	PCIESW_A_NVME_SPARE,
	PCIESW_A_NVME_READ_ONLY,
	PCIESW_A_NVME_MODEL,
	PCIESW_A_NVME_SERIAL,
	PCIESW_A_NVME_FIRMWARE,
	PCIESW_A_NVME_SPARE_THRESHOLD,
	PCIESW_A_NVME_PERCENT_USED,
	PCIESW_A_NVME_CRITICAL_WARNING,
	PCIESW_A_NVME_MEDIA_ERRORS,
	PCIESW_A_NVME_UNSAFE_SHUTDOWNS,
	PCIESW_A_NVME_DATA_UNITS_READ,
	PCIESW_A_NVME_DATA_UNITS_WRITTEN,
	PCIESW_A_NVME_POWER_CYCLES,
	PCIESW_A_NVME_ERROR_ENTRIES,
	PCIESW_A_NVME_TEMP_OVER,
	PCIESW_A_NVME_TEMP_CRIT,
	PCIESW_A_COUNTER_VALUES,
	PCIESW_A_COUNTER_PACKED,
	PCIESW_A_EP_AER_ERROR,
	PCIESW_A_EP_AER_COUNTS,
	PCIESW_A_EP_BRIEF,
	PCIESW_A_NVME_BYTES_READ,
	PCIESW_A_NVME_BYTES_WRITTEN,
	PCIESW_A_NVME_HOST_READS,
	PCIESW_A_NVME_HOST_WRITES,

	__PCIESW_A_MAX,
	PCIESW_A_MAX = (__PCIESW_A_MAX - 1)
};

enum pciesw_cmd {
	PCIESW_CMD_SWITCH_GET = 1,
	PCIESW_CMD_SWITCH_NEW,
	PCIESW_CMD_SWITCH_DEL,
	PCIESW_CMD_GROUP_GET,
	PCIESW_CMD_PORT_GET,
	PCIESW_CMD_SWITCH_CREATE_NTF,
	PCIESW_CMD_SWITCH_DELETE_NTF,
	PCIESW_CMD_GROUP_SET,
	PCIESW_CMD_PORT_SET,
	PCIESW_CMD_EP_GET,
	PCIESW_CMD_EP_ADD,
	PCIESW_CMD_EP_DEL,
	PCIESW_CMD_GROUP_CHANGE_NTF,
	PCIESW_CMD_PORT_CHANGE_NTF,
	PCIESW_CMD_EP_ADD_NTF,
	PCIESW_CMD_EP_DEL_NTF,
	PCIESW_CMD_COUNTER_GET,
	PCIESW_CMD_COUNTER_CLEAR,
	PCIESW_CMD_THRESHOLD_GET,
	PCIESW_CMD_THRESHOLD_SET,
	PCIESW_CMD_THRESHOLD_NTF,
	PCIESW_CMD_INJECT,
	PCIESW_CMD_THERMAL_GET,
	PCIESW_CMD_THERMAL_SET,
	PCIESW_CMD_THERMAL_ALARM_NTF,
	PCIESW_CMD_VPD_GET,
	PCIESW_CMD_VPD_SET,
	PCIESW_CMD_VPD_CHANGE_NTF,
	PCIESW_CMD_SWITCH_SET,
	PCIESW_CMD_SWITCH_CHANGE_NTF,
	PCIESW_CMD_P2P_CHECK,
	PCIESW_CMD_FW_GET,
	PCIESW_CMD_FW_TOGGLE,
	PCIESW_CMD_FW_CHANGE_NTF,
	PCIESW_CMD_LOG_GET,
	PCIESW_CMD_LOG_CLEAR,
	PCIESW_CMD_EP_CHANGE_NTF,
	PCIESW_CMD_NVME_INJECT,
	PCIESW_CMD_NVME_FAULT_NTF,

	__PCIESW_CMD_MAX,
	PCIESW_CMD_MAX = (__PCIESW_CMD_MAX - 1)
};

#define PCIESW_MCGRP_MONITOR	"monitor"

#endif /* _UAPI_LINUX_PCIESW_NETLINK_H */
