/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pciesw internal API: the model's, which every view uses.
 *
 * The model knows nothing of how it is shown: it includes no netlink,
 * sysfs, hwmon or cdev header, calls no view, and returns values and
 * enums, not text for a view; its only strings are the names several
 * views share (LTSSM states, counters, sensors, bifurcations, PCI
 * addresses) and the refusals' messages.  Each check of a request lives
 * once in the model, and every view relies on it.  The views use only the
 * functions declared here, in event.h (events) and route.h (routes), and
 * the instance's (instance.h), and never call each other.  kmod/'s folders
 * say which file is model and which is view (Documentation/architecture.md
 * has the table).
 */
#ifndef _PCIESW_H
#define _PCIESW_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <uapi/linux/pciesw.h>
#include <uapi/linux/pciesw_fw.h>

#define PCIESW_MAX_GROUPS	16
#define PCIESW_MAX_CONFIGS	8
/* port numbers: slots (see profile.c), not ports present at once */
#define PCIESW_MAX_PORTS	96
#define PCIESW_MAX_LANES	256
/* a group is at most x16: at most 16 ports */
#define PCIESW_MAX_GROUP_PORTS	16

/* A bifurcation: @nr_ports ports of @width lanes each. */
struct pciesw_bifurcation {
	u8 nr_ports;
	u8 width;
};

struct pciesw_group_desc {
	const char *name;
	enum pciesw_group_type type;
	u16 first_lane;
	u16 nr_lanes;
	/* index into @configs of the configuration at creation */
	u8 default_config;
	u8 nr_configs;
	struct pciesw_bifurcation configs[PCIESW_MAX_CONFIGS];
};

/* A card model: data only, see profile.c. */
struct pciesw_profile {
	const char *name;
	const char *description;
	const char *part_number;
	const char *serial_prefix;
	/* PCI device and subsystem ids of the switch's ports (vendor 0x1000) */
	u16 pci_device;
	u16 pci_subdevice;
	u16 nr_lanes;
	/* fastest speed of every port of the switch */
	enum pciesw_link_speed max_speed;
	/* the host's root port the upstream port trains against */
	enum pciesw_link_speed host_speed;
	u8 host_width;
	u8 nr_groups;
	struct pciesw_group_desc groups[PCIESW_MAX_GROUPS];
};

const struct pciesw_profile *pciesw_profile_find(const char *name);
const struct pciesw_profile *pciesw_profile_default(void);
unsigned int pciesw_profile_count(void);
const struct pciesw_profile *pciesw_profile_get(unsigned int i);
unsigned int pciesw_profile_nr_slots(const struct pciesw_profile *p);
int pciesw_profile_port_at(const struct pciesw_profile *p, unsigned int lane);
unsigned int pciesw_profile_port_lane(const struct pciesw_profile *p,
				      unsigned int port);
int pciesw_profiles_check(void);

struct pciesw_switch;
struct pciesw_port;
struct pciesw_nvme;

/*
 * VPD image bounds: identifier string <= PCIESW_VPD_ID_MAX, VPD-R fields
 * each < PCIESW_NAME_LEN but V2 (<= 255), VPD-W a fixed data area.
 * 3 + 128 + 3 + 5 * (3 + 31) + 3 + 255 + 7 + 3 + 128 + 1 < 1024.
 */
#define PCIESW_VPD_ID_MAX	128
#define PCIESW_VPD_W_SIZE	128
#define PCIESW_VPD_VALUE_MAX	255
#define PCIESW_VPD_MAX		1024

/**
 * struct pciesw_vpd - the card's VPD (vpd.c)
 * @image: the image, PCI VPD format, through the end tag
 * @len: bytes of @image in use
 * @w: the VPD-W fields (YA, Yx) as they appear in the image, without RW
 * @w_len: bytes of @w in use
 */
struct pciesw_vpd {
	u8 image[PCIESW_VPD_MAX];
	unsigned int len;
	u8 w[PCIESW_VPD_W_SIZE];
	unsigned int w_len;
};

/* One text field of the VPD, decoded for the views. */
struct pciesw_vpd_field {
	char keyword[3];
	bool writable;
	u8 len;
	char value[PCIESW_VPD_VALUE_MAX + 1];
};

/* Broadcom's placeholder endpoint, what its synthetic switches show */
#define PCIESW_EP_PLACEHOLDER_VENDOR	0x1000
#define PCIESW_EP_PLACEHOLDER_DEVICE	0x02b2

/**
 * struct pciesw_ep_ident - what an endpoint is, as software finds it: the
 * IDs of its PCI config header
 * @vendor: Vendor ID
 * @device: Device ID
 * @subsys_vendor: Subsystem Vendor ID
 * @subsys_device: Subsystem ID
 * @revision: Revision ID
 * @class_code: Class Code: base class, subclass, programming interface
 */
struct pciesw_ep_ident {
	u16 vendor;
	u16 device;
	u16 subsys_vendor;
	u16 subsys_device;
	u8 revision;
	u32 class_code;
};

/* Defaults of an endpoint type: what a typical device of it can do. */
struct pciesw_ep_type_desc {
	const char *name;
	enum pciesw_link_speed max_speed;
	u8 max_width;
	u64 mem_size;
	struct pciesw_ep_ident ident;
};

const struct pciesw_ep_type_desc *pciesw_ep_type(enum pciesw_ep_type type);

/**
 * struct pciesw_endpoint - a device plugged into a downstream port
 * @sw: the switch it belongs to
 * @port: the port it is attached to; never NULL while it is listed
 * @id: unique in the switch while it exists (a later endpoint may reuse it)
 * @serial: unique in the switch for its whole life, never reused: tells
 *	a view's object of this endpoint from one of a later endpoint that
 *	got the same @id before the view caught up
 * @type: gpu, nvme or generic
 * @type_idx: the per-type index
 * @name: type and per-type index, e.g. "nvme2"
 * @max_speed: fastest speed it trains to
 * @max_width: widest link it trains to
 * @mem_size: size of its memory window (BAR / namespace) in bytes
 * @block_size: NVMe drives: logical block size of the namespace, 512 or
 *	4096 bytes (its block device's); 0 for the other types
 * @ident: its PCI IDs, set when it is plugged in (the type's by default)
 * @mem: the pages of its memory window (mem.c)
 * @nvme: NVMe drives: the controller's state (nvme/core.c); NULL for the others
 * @map_pgoff: where its window starts in the character device's mmap space
 * @bus_master_off: software cleared Bus Master Enable in its PCI function:
 *	it may not start a transfer (a drive's commands wait); set through
 *	pciesw_ep_set_bus_master() only, clear while the PCI view is off
 * @aer_errors: the errors it detected (injected), by enum
 *	pciesw_ep_aer_error; under sw->lock, which pciesw_ep_inject_aer() holds
 * @node: entry in sw->endpoints, ordered by id
 */
struct pciesw_endpoint {
	struct pciesw_switch *sw;
	struct pciesw_port *port;
	u32 id;
	u64 serial;
	enum pciesw_ep_type type;
	int type_idx;
	char name[PCIESW_NAME_LEN];
	enum pciesw_link_speed max_speed;
	u8 max_width;
	u64 mem_size;
	u32 block_size;
	struct pciesw_ep_ident ident;
	struct pciesw_mem *mem;
	struct pciesw_nvme *nvme;
	u64 map_pgoff;
	bool bus_master_off;
	u64 aer_errors[PCIESW_EP_AER_ERROR_MAX + 1];
	struct list_head node;
};

struct pciesw_group {
	struct pciesw_switch *sw;
	const struct pciesw_group_desc *desc;
	unsigned int id;
	/* index into desc->configs */
	unsigned int config;
	/* ports present: desc->configs[config].nr_ports of them */
	unsigned int nr_ports;
};

#define PCIESW_LTSSM_HISTORY	64

struct pciesw_ltssm_transition {
	u64 time_ns;			/* CLOCK_MONOTONIC */
	enum pciesw_ltssm from;
	enum pciesw_ltssm to;
};

/* What the link is working towards; see link.c. */
enum pciesw_link_goal {
	PCIESW_LINK_IDLE,		/* nothing to do */
	PCIESW_LINK_TRAIN,		/* Detect .. L0 */
	PCIESW_LINK_RETRAIN,		/* L0 -> Recovery -> L0 */
	PCIESW_LINK_HOT_RESET,		/* Hot Reset -> Detect .. L0 */
};

/**
 * struct pciesw_link - the link of a port, as both ends negotiated it
 * @ltssm: current LTSSM state
 * @goal: what the pending steps lead to
 * @step_at: when the next LTSSM step is due (ns), 0 when none is
 * @enabled: software has not disabled the link
 * @contained: Downstream Port Containment holds the link in Disabled until
 *	software releases it (the PCI view's DPC, pciesw_port_set_contained())
 * @target_speed: Target Link Speed (Link Control 2)
 * @speed: negotiated speed, NONE when down
 * @width: negotiated width, 0 when down
 * @failed_lanes: bit n set: lane n of the port is dead
 * @degraded: trained narrower than both ends could do
 * @surprise_down: times the link dropped without warning
 * @history_ns: when each of the last %PCIESW_LTSSM_HISTORY transitions
 *	happened, a ring (see pciesw_link_history())
 * @history_states: their states, from | to << 4: apart from the times, so
 *	a port does not carry 1 KiB of padded 16-byte entries
 * @history_next: total transitions recorded; next slot is this mod size
 */
struct pciesw_link {
	enum pciesw_ltssm ltssm;
	enum pciesw_link_goal goal;
	u64 step_at;
	bool enabled;
	bool contained;
	enum pciesw_link_speed target_speed;
	enum pciesw_link_speed speed;
	u8 width;
	u32 failed_lanes;
	bool degraded;
	u64 surprise_down;
	u64 history_ns[PCIESW_LTSSM_HISTORY];
	u8 history_states[PCIESW_LTSSM_HISTORY];
	u64 history_next;
};

/* Counters, thresholds and injected faults of ports (health.c). */
#define PCIESW_MAX_THRESHOLDS	64
/* a threshold on the sum over all ports, not on one port's lanes */
#define PCIESW_THRESHOLD_SWITCH	U16_MAX
#define PCIESW_INJECT_MAX	1000000
/* bit-error rates are errors per 10^18 bits; at most 1e-3 */
#define PCIESW_BER_SCALE	1000000000000000000ULL
#define PCIESW_BER_MAX		1000000000000000ULL
/* defaults of Max_Payload_Size and Max_Read_Request_Size, bytes */
#define PCIESW_MPS_DEFAULT	256
#define PCIESW_MRRS_DEFAULT	512

enum pciesw_dir {
	PCIESW_DIR_INGRESS,		/* received by the switch on the port */
	PCIESW_DIR_EGRESS,		/* sent by the switch on the port */
};

enum pciesw_tlp_class {
	PCIESW_TLP_POSTED,		/* memory writes, messages */
	PCIESW_TLP_NON_POSTED,		/* reads, config and I/O requests */
	PCIESW_TLP_COMPLETION,		/* completions (with data) */
};

/* flags of struct pciesw_port_stats */
#define PCIESW_STATS_RETRAIN	0	/* BER asks for a link retrain */

/**
 * struct pciesw_port_stats - counters of the port whose first lane this is
 * @counters: enum pciesw_counter; lockless, only clear makes them go back
 * @armed: bit c: an uncrossed threshold watches counter c of this port
 *	(written under sw->lock, read locklessly by the hot path)
 * @ber: injected bit-error rate, errors per 10^18 bits (READ_ONCE)
 * @ber_bits: bits the link carried since @ber was set
 * @ber_errors: errors @ber_bits have produced so far
 * @flags: PCIESW_STATS_*
 *
 * Indexed by first lane in sw->stats, so they follow a port whose id
 * changes when an earlier lane group is re-bifurcated.
 */
struct pciesw_port_stats {
	atomic64_t counters[PCIESW_COUNTER_MAX + 1];
	unsigned long armed;
	u64 ber;
	atomic64_t ber_bits;
	atomic64_t ber_errors;
	unsigned long flags;
};

/**
 * struct pciesw_threshold - notify once when a counter reaches @value
 * @lane: first lane of the port, or PCIESW_THRESHOLD_SWITCH
 * @counter: which counter
 * @crossed: reached since armed; quiet until re-armed
 * @value: counter value that fires it, > 0
 */
struct pciesw_threshold {
	u16 lane;
	enum pciesw_counter counter;
	bool crossed;
	u64 value;
};

/* Temperatures (thermal.c) */
#define PCIESW_NR_SENSORS	5
#define PCIESW_TEMP_MAX		150000	/* highest settable limit, m°C */
#define PCIESW_TEMP_HYST	5000	/* alarms clear this far below, m°C */
#define PCIESW_AMBIENT_MAX	85000	/* highest settable ambient, m°C */
#define PCIESW_TAU_MIN_MS	100	/* time constant range */
#define PCIESW_TAU_MAX_MS	3600000

/**
 * struct pciesw_sensor - one on-die temperature sensor
 * @temp_uc: modelled temperature, micro-degrees C
 * @max: warning limit, m°C
 * @crit: critical limit, m°C
 * @override: forced temperature while @overridden, m°C
 * @overridden: @override replaces the model (fault injection)
 * @max_alarm: the warning alarm is raised
 * @crit_alarm: the critical alarm is raised
 */
struct pciesw_sensor {
	s64 temp_uc;
	int max;
	int crit;
	int override;
	bool overridden;
	bool max_alarm;
	bool crit_alarm;
};

/* the last temperatures of every sensor, one sample per model update */
#define PCIESW_THERMAL_HISTORY	32

struct pciesw_temp_sample {
	u64 time_ns;			/* CLOCK_MONOTONIC */
	int temp[PCIESW_NR_SENSORS];	/* m°C */
};

/**
 * struct pciesw_thermal - the thermal model of a switch
 * @ambient: inlet air, m°C
 * @tau_ms: time constant of the first-order model
 * @updated_ns: when the model was last advanced
 * @bytes_seen: sw->egress_bytes at @updated_ns
 * @idle: the model work is not ticking
 * @sensors: the sensors
 * @history: the last PCIESW_THERMAL_HISTORY samples, a ring
 * @history_next: samples taken; the next goes at this mod size
 */
struct pciesw_thermal {
	int ambient;
	u32 tau_ms;
	u64 updated_ns;
	u64 bytes_seen;
	bool idle;
	struct pciesw_sensor sensors[PCIESW_NR_SENSORS];
	struct pciesw_temp_sample history[PCIESW_THERMAL_HISTORY];
	u64 history_next;
};

/* Firmware (firmware.c): two partitions, A and B */
#define PCIESW_FW_PARTS		2
/* the oldest image a card takes: older ones lack its fixes */
#define PCIESW_FW_MIN_VERSION	PCIESW_FW_VERSION(1, 10, 0)
#define PCIESW_FW_VERSION_LEN	16	/* "255.255.65535" */

/* enum pciesw_fw_state (uapi): empty, valid, invalid */
/**
 * struct pciesw_fw_part - one firmware partition
 * @state: what it holds
 * @version: the image's version (VALID)
 * @build_time: the image's build time, seconds since the epoch (VALID)
 * @len: payload bytes it holds
 * @crc: CRC-32 of the payload as written
 */
struct pciesw_fw_part {
	enum pciesw_fw_state state;
	u32 version;
	u64 build_time;
	u32 len;
	u32 crc;
};

/* An image pciesw_fw_check() accepted: its header, decoded. */
struct pciesw_fw_image {
	u32 version;
	u64 build_time;
	u32 len;
	u32 crc;
	const u8 *payload;
};

/**
 * struct pciesw_fw - the firmware of a switch
 * @parts: partitions A and B
 * @running: the partition the switch booted from
 * @pending: the other partition was written since; a reset boots it
 * @flashing: the other partition is being written
 * @image: what is being written (@flashing)
 * @written: payload bytes written so far (@flashing)
 * @crc: running CRC of the bytes written (@flashing)
 * @power_loss_at: fault injection: the next flash loses power once this
 *	many payload bytes are written; 0: off
 * @boots: times the switch booted a firmware since creation
 */
struct pciesw_fw {
	struct pciesw_fw_part parts[PCIESW_FW_PARTS];
	unsigned int running;
	bool pending;
	bool flashing;
	struct pciesw_fw_image image;
	u32 written;
	u32 crc;
	u32 power_loss_at;
	u64 boots;
};

/* The event log (log.c): the last PCIESW_LOG_SIZE events of a switch */
#define PCIESW_LOG_SIZE		256
#define PCIESW_LOG_OBJECT_LEN	24
#define PCIESW_LOG_MESSAGE_LEN	96

/**
 * struct pciesw_log_entry - one logged event
 * @seq: its number, from 1 for the switch's first
 * @time_ns: when, CLOCK_REALTIME
 * @object: what changed ("switch", "port3", "nvme0", "sensor1", "fw", ...)
 * @message: what happened to it
 */
struct pciesw_log_entry {
	u64 seq;
	u64 time_ns;
	char object[PCIESW_LOG_OBJECT_LEN];
	char message[PCIESW_LOG_MESSAGE_LEN];
};

/**
 * struct pciesw_log - the event log of a switch
 * @ring: PCIESW_LOG_SIZE entries; entry seq s is at (s - 1) % size
 * @last: seq of the last entry logged, 0 before the first
 * @first: seq of the oldest entry kept (after a clear: @last + 1)
 * @up: bit p: port p's link was last logged up
 * @degraded: bit p: and degraded
 * @fw_boots: sw->fw.boots when the firmware was last logged
 */
struct pciesw_log {
	struct pciesw_log_entry *ring;
	u64 last;
	u64 first;
	DECLARE_BITMAP(up, PCIESW_MAX_PORTS);
	DECLARE_BITMAP(degraded, PCIESW_MAX_PORTS);
	u64 fw_boots;
};

/*
 * A port slot of the switch (sw->ports[id]): @id is the slot's fixed
 * number (see profile.c); the other fields mean something only while the
 * current bifurcation of its group has a port there, @present.
 */
struct pciesw_port {
	struct pciesw_group *group;
	unsigned int id;
	bool present;
	enum pciesw_port_role role;
	u16 first_lane;
	u8 nr_lanes;
	enum pciesw_link_speed max_speed;
	bool acs_redirect;
	/*
	 * ACS P2P Egress Control: bit n set, peer-to-peer traffic between
	 * this port and port n is redirected (with acs_redirect) or blocked
	 */
	u64 acs_egress;
	/* the slot's power controller has it off: nothing there trains */
	bool power_off;
	/* the endpoint attached to a downstream port, or NULL */
	struct pciesw_endpoint *ep;
	struct pciesw_link link;
	/* &sw->stats[first_lane] */
	struct pciesw_port_stats *stats;
};

/**
 * struct pciesw_switch - one virtual switch card (the model)
 * @id: the N of pcieswN, unique while the switch exists
 * @profile: the card model it was built from
 * @name: "pcieswN"
 * @serial: serial number, unique per id and stable across reloads
 * @refs: lifetime; the registry, the views and in-flight lookups hold one
 * @stats: port counters by first lane (profile->nr_lanes entries); the
 *	array is fixed for the switch's life, its counters are lockless
 * @armed: bit c: an uncrossed switch-wide threshold watches counter c
 *	(written under @lock, read locklessly)
 * @mps: Max_Payload_Size in bytes, splits data into TLPs; written under
 *	@lock (switch-set), read locklessly (READ_ONCE)
 * @mrrs: Max_Read_Request_Size in bytes, splits reads into requests;
 *	written under @lock (pciesw_switch_set_mrrs()), read locklessly
 * @egress_bytes: bytes sent on all ports ever (drives the thermal model)
 * @health_work: checks thresholds, retrains links past the BER limit
 * @thermal_work: advances the thermal model while it is not settled
 * @dma: the DMA engine (dma*.c), from creation to release
 * @link_downs: bumped (under @lock) each time a link of the switch leaves
 *	the active LTSSM states; a DMA worker reads it locklessly to know
 *	when to look at its route's links again
 * @ev_lock: protects @ev_queue, @ev_queued and @ev_done (event.c)
 * @ev_queue: events raised and not yet applied to the views, in order
 * @ev_queued: seq of the last event queued
 * @ev_done: seq of the last event every view has applied
 * @ev_wait: pciesw_switch_sync() waits here for @ev_done
 * @ev_work: applies @ev_queue to the views
 * @lock: protects everything below it
 * @generation: bumped by every event of the switch, for dumps
 * @published: events reach the views (after publish, until unpublish)
 * @dead: set once when the switch is unpublished; no new state changes
 * @link_work: runs the LTSSM steps that are due (link.c)
 * @nvme_work: completes drives' device self-tests when due (nvme/maint.c)
 * @endpoints: attached endpoints, ordered by id
 * @ep_ids: allocates endpoint ids, in turn from @ep_id_next
 * @ep_id_next: where the next endpoint id is looked for (endpoint.c)
 * @map_next: per mmap offset space (below 16 TiB, above), the page offset
 *	at which the next window's offset is looked for (endpoint.c)
 * @ep_serial: the serial of the last endpoint created
 * @ep_type_ids: allocates the per-type index in endpoint names
 * @vpd: the card's VPD
 * @nr_thresholds: entries of @thresholds in use
 * @thresholds: counter thresholds, in the order they were set; room for
 *	PCIESW_MAX_THRESHOLDS made when the first is set (most switches have
 *	none, and without the array the switch fits a 4 KiB allocation)
 * @thermal: the thermal model
 * @host_p2p: the host bridge above the card forwards peer-to-peer traffic
 * @dma_pacing: DMA completions wait for the modelled end of their transfer
 *	(read locklessly by the DMA workers)
 * @dma_channels: DMA channels descriptors may name, 1..16
 * @pci_view: the card shows on the PCI bus (the PCI view follows it)
 * @pci_domain: its PCI domain, chosen by the PCI view before the switch
 *	is published, fixed from then on; PCIESW_PCI_DOMAIN_NONE if there
 *	was none to have (the PCI view is off and stays off)
 * @fw: the firmware partitions and what runs
 * @log: the event log
 * @link_free: per lane, the CLOCK_MONOTONIC ns at which the link of the
 *	port starting at that lane is free again, [0] switch to device
 *	(egress), [1] device to switch (ingress): the bandwidth model's
 *	directional timelines (route.c)
 */
struct pciesw_switch {
	u32 id;
	const struct pciesw_profile *profile;
	char name[PCIESW_NAME_LEN];
	char serial[PCIESW_NAME_LEN];
	struct kref refs;
	struct pciesw_port_stats *stats;
	unsigned long armed;
	u32 mps;
	u32 mrrs;
	atomic64_t egress_bytes;
	struct work_struct health_work;
	struct delayed_work thermal_work;
	struct pciesw_dma *dma;
	atomic_t link_downs;
	spinlock_t ev_lock;	/* protects ev_queue, ev_queued, ev_done */
	struct list_head ev_queue;
	u64 ev_queued;
	u64 ev_done;
	wait_queue_head_t ev_wait;
	struct work_struct ev_work;
	struct mutex lock;	/* protects all fields below */
	u32 generation;
	bool published;
	bool dead;
	struct delayed_work link_work;
	struct delayed_work nvme_work;
	unsigned int nr_groups;
	struct pciesw_group groups[PCIESW_MAX_GROUPS];
	/* ports present now, of nr_slots in @ports (by port number) */
	unsigned int nr_ports;
	unsigned int nr_slots;
	struct pciesw_port *ports;
	struct list_head endpoints;
	struct ida ep_ids;
	u32 ep_id_next;
	u64 map_next[2];
	u64 ep_serial;
	struct ida ep_type_ids[PCIESW_EP_TYPE_MAX + 1];
	struct pciesw_vpd vpd;
	unsigned int nr_thresholds;
	struct pciesw_threshold *thresholds;
	struct pciesw_thermal thermal;
	bool host_p2p;
	bool dma_pacing;
	u32 dma_channels;
	bool pci_view;
	u32 pci_domain;
	struct pciesw_fw fw;
	struct pciesw_log log;
	u64 (*link_free)[2];
};

struct pciesw_switch *pciesw_switch_create(u32 id,
					   const struct pciesw_profile *profile);
void pciesw_switch_put(struct pciesw_switch *sw);
int pciesw_switch_publish(struct pciesw_switch *sw);
void pciesw_switch_unpublish(struct pciesw_switch *sw);
struct pciesw_switch *pciesw_switch_get(u32 id);
struct pciesw_switch *pciesw_switch_get_next(u32 *id);
unsigned int pciesw_switch_nr_endpoints(struct pciesw_switch *sw);
struct pciesw_port *pciesw_port_by_lane(struct pciesw_switch *sw,
					unsigned int lane);
int pciesw_switch_live(const struct pciesw_switch *sw, const char **why);
struct pciesw_port *pciesw_port_find(struct pciesw_switch *sw, u32 id);
struct pciesw_port *pciesw_port_next(struct pciesw_switch *sw,
				     struct pciesw_port *port);

struct pciesw_port *pciesw_port_next_of(struct pciesw_switch *sw,
					const struct pciesw_group *g,
					struct pciesw_port *port);
struct pciesw_port *pciesw_group_port(struct pciesw_group *g,
				      unsigned int i);

/* Every port of @sw present now, in id order; with sw->lock held. */
#define pciesw_for_each_port(sw, port)					\
	for ((port) = pciesw_port_next((sw), NULL); (port);		\
	     (port) = pciesw_port_next((sw), (port)))

/* The ports of group @g (every port if NULL), in id order; sw->lock held. */
#define pciesw_for_each_port_of(sw, g, port)				\
	for ((port) = pciesw_port_next_of((sw), (g), NULL); (port);	\
	     (port) = pciesw_port_next_of((sw), (g), (port)))
void pciesw_group_config_name(const struct pciesw_group_desc *desc,
			      unsigned int config, char *buf, size_t len);
int pciesw_group_find_config(const struct pciesw_group *g, const char *name);
struct pciesw_group *pciesw_group_find(struct pciesw_switch *sw,
				       const char *name);
int pciesw_group_set_config(struct pciesw_group *g, unsigned int config,
			    const char **why);

/*
 * The card's PCI topology, as its firmware numbers it (pci_addr.c): an
 * emulated Root Port (the one the card's slot hangs off, which collects
 * its error messages) is device 0 of its own root bus 00 in the domain
 * the PCI view found free for it when the switch was created (the highest
 * below 0x10000 that no PCI bus and no firmware table names, so that no
 * IOMMU covers it: pci/domain.c; sw->pci_domain); the upstream port is device
 * 0 on the Root Port's secondary bus 01, its internal bus is 02,
 * downstream port k (port number k + 1, so the address of a port never
 * changes: see profile.c) is a device on bus 02 whose secondary bus is
 * 3 + k, and the endpoint behind it is device 0 there.  More than 32
 * downstream ports make the devices on bus 02 multi-function, 8 ports
 * each.
 */
#define PCIESW_PCI_UP_BUS	1	/* the upstream port's */
#define PCIESW_PCI_INT_BUS	2	/* the downstream ports' */
#define PCIESW_PCI_EP_BUS(k)	(3 + (k))	/* behind downstream port k */
/* no domain could be had: the switch has no PCI view */
#define PCIESW_PCI_DOMAIN_NONE	U32_MAX
#define PCIESW_PCI_NAME_LEN	16	/* "ffff:01:1f.7" */

u32 pciesw_pci_domain(const struct pciesw_switch *sw);
unsigned int pciesw_pci_max_down(const struct pciesw_profile *profile);
bool pciesw_pci_multifunction(const struct pciesw_profile *profile);
u8 pciesw_pci_down_devfn(const struct pciesw_profile *profile, unsigned int k);
int pciesw_pci_down_index(const struct pciesw_profile *profile, u8 devfn);
void pciesw_port_pci_name(const struct pciesw_port *port, char *buf,
			  size_t len);
void pciesw_ep_pci_name(const struct pciesw_endpoint *ep, char *buf,
			size_t len);

/* link.c: LTSSM and negotiation; all called with sw->lock held */
void pciesw_link_init(struct pciesw_port *port);
void pciesw_link_work(struct work_struct *work);
void pciesw_link_start(struct pciesw_port *port, enum pciesw_link_goal goal);
void pciesw_link_drop(struct pciesw_port *port, enum pciesw_ltssm to);
bool pciesw_link_active(const struct pciesw_port *port);
bool pciesw_link_held(const struct pciesw_port *port);
bool pciesw_link_training(const struct pciesw_port *port);
int pciesw_port_check_retrain(const struct pciesw_port *port,
			      const bool *enabled, const char **why);
int pciesw_port_check_target_speed(const struct pciesw_port *port,
				   enum pciesw_link_speed speed,
				   const char **why);
int pciesw_port_check_failed_lanes(const struct pciesw_port *port, u32 mask,
				   const char **why);
int pciesw_port_check_acs(const struct pciesw_port *port, const char **why);
int pciesw_port_check_surprise_down(const struct pciesw_port *port,
				    const char **why);
int pciesw_port_set_enabled(struct pciesw_port *port, bool on,
			    const char **why);
int pciesw_port_retrain(struct pciesw_port *port, const char **why);
int pciesw_port_hot_reset(struct pciesw_port *port, const char **why);
int pciesw_port_set_target_speed(struct pciesw_port *port,
				 enum pciesw_link_speed speed,
				 const char **why);
int pciesw_port_set_failed_lanes(struct pciesw_port *port, u32 mask,
				 const char **why);
int pciesw_port_set_acs(struct pciesw_port *port, bool on, const char **why);
int pciesw_port_set_acs_egress(struct pciesw_port *port, u64 ports,
			       const char **why);
int pciesw_port_set_contained(struct pciesw_port *port, bool on,
			      const char **why);
int pciesw_port_set_slot_power(struct pciesw_port *port, bool on,
			       const char **why);
int pciesw_port_surprise_down(struct pciesw_port *port, const char **why);
unsigned int pciesw_link_history(const struct pciesw_port *port,
				 struct pciesw_ltssm_transition *out);
const char *pciesw_ltssm_name(enum pciesw_ltssm state);

#include "model/mem.h"

/* endpoint.c; all called with sw->lock held */

/* logical block size of an NVMe drive unless ep-add names one */
#define PCIESW_BLOCK_SIZE_DEFAULT	512

/* the argument of an endpoint add that pciesw_ep_check() refused */
enum pciesw_ep_arg {
	PCIESW_EP_ARG_PORT,
	PCIESW_EP_ARG_TYPE,
	PCIESW_EP_ARG_SPEED,
	PCIESW_EP_ARG_WIDTH,
	PCIESW_EP_ARG_MEM_SIZE,
	PCIESW_EP_ARG_VENDOR,
	PCIESW_EP_ARG_DEVICE,
	PCIESW_EP_ARG_CLASS,
};

int pciesw_ep_check(const struct pciesw_port *port, enum pciesw_ep_type type,
		    enum pciesw_link_speed speed, unsigned int width,
		    u64 mem_size, enum pciesw_ep_arg *bad, const char **why);
struct pciesw_endpoint *pciesw_ep_add(struct pciesw_port *port,
				      enum pciesw_ep_type type,
				      enum pciesw_link_speed speed, u8 width,
				      u64 mem_size, u32 block_size,
				      const struct pciesw_ep_ident *ident,
				      const char **why);
int pciesw_ep_check_ident(const struct pciesw_ep_ident *ident,
			  enum pciesw_ep_arg *bad, const char **why);
int pciesw_ep_check_block_size(enum pciesw_ep_type type, u32 block_size,
			       const char **why);
/* "pcieswSnI": the block device of NVMe drive nvmeI of switch S */
#define PCIESW_DISK_NAME_LEN	32
void pciesw_ep_disk_name(const struct pciesw_endpoint *ep, char *buf,
			 size_t len);
void pciesw_ep_del(struct pciesw_endpoint *ep);
void pciesw_ep_set_bus_master(struct pciesw_endpoint *ep, bool on);
int pciesw_ep_inject_aer(struct pciesw_endpoint *ep,
			 enum pciesw_ep_aer_error err, u32 count,
			 const char **why);
const char *pciesw_ep_aer_error_name(enum pciesw_ep_aer_error err);
void pciesw_ep_free(struct pciesw_endpoint *ep);
struct pciesw_endpoint *pciesw_ep_find(struct pciesw_switch *sw, u32 id);
struct pciesw_endpoint *pciesw_ep_find_map(struct pciesw_switch *sw,
					   u64 pgoff);
u64 pciesw_map_span(u64 mem_size);
struct pciesw_endpoint *pciesw_ep_lookup(struct pciesw_switch *sw, u32 id,
					 u64 pgoff);
struct pciesw_endpoint *pciesw_ep_find_name(struct pciesw_switch *sw,
					    const char *name);

/* vpd.c: all called with sw->lock held */
void pciesw_vpd_init(struct pciesw_switch *sw);
void pciesw_vpd_update(struct pciesw_switch *sw);
ssize_t pciesw_vpd_read(struct pciesw_switch *sw, void *buf, loff_t off,
			size_t count);
unsigned int pciesw_vpd_len(struct pciesw_switch *sw);
void pciesw_vpd_id_string(struct pciesw_switch *sw, char *buf, size_t len);
int pciesw_vpd_field(struct pciesw_switch *sw, unsigned int idx,
		     struct pciesw_vpd_field *f);
int pciesw_vpd_find(struct pciesw_switch *sw, const char *keyword,
		    struct pciesw_vpd_field *f);
unsigned int pciesw_vpd_rw_free(struct pciesw_switch *sw);
int pciesw_vpd_set(struct pciesw_switch *sw, const char *keyword,
		   const char *value, const char **why);
int pciesw_vpd_write(struct pciesw_switch *sw, unsigned int off,
		     const u8 *buf, unsigned int len, const char **why);

/*
 * health.c: counters, thresholds, fault injection.  pciesw_stats_account()
 * and pciesw_stats_error() are lockless (the DMA engine calls them from its
 * workers); everything else is called with sw->lock held.
 */
int pciesw_health_init(struct pciesw_switch *sw);
void pciesw_health_stop(struct pciesw_switch *sw);
void pciesw_health_release(struct pciesw_switch *sw);
void pciesw_health_work(struct work_struct *work);
void pciesw_health_lanes_reset(struct pciesw_switch *sw, unsigned int first,
			       unsigned int nr);
const char *pciesw_counter_name(enum pciesw_counter c);
bool pciesw_counter_is_error(enum pciesw_counter c);
/*
 * The TLPs that carry @bytes of class @cls: one per Max_Payload_Size
 * (posted, completion) or Max_Read_Request_Size (non-posted).
 */
static inline u64 pciesw_stats_tlps(struct pciesw_switch *sw,
				    enum pciesw_tlp_class cls, u64 bytes)
{
	u64 unit = cls == PCIESW_TLP_NON_POSTED ? READ_ONCE(sw->mrrs) :
						  READ_ONCE(sw->mps);

	return div64_u64(bytes + unit - 1, unit);
}

void pciesw_stats_account_tlps(struct pciesw_switch *sw,
			       struct pciesw_port_stats *st,
			       enum pciesw_dir dir, enum pciesw_tlp_class cls,
			       u64 bytes, u64 tlps);
void pciesw_stats_account(struct pciesw_switch *sw,
			  struct pciesw_port_stats *stats, enum pciesw_dir dir,
			  enum pciesw_tlp_class cls, u64 bytes);
void pciesw_stats_error(struct pciesw_switch *sw,
			struct pciesw_port_stats *stats, enum pciesw_counter c,
			u64 n);
u64 pciesw_counter_read(struct pciesw_switch *sw,
			const struct pciesw_port *port, enum pciesw_counter c);
void pciesw_port_counters_clear(struct pciesw_port *port);
void pciesw_switch_counters_clear(struct pciesw_switch *sw);
int pciesw_port_inject(struct pciesw_port *port, enum pciesw_counter c,
		       u32 count, const char **why);
int pciesw_port_set_ber(struct pciesw_port *port, u64 ber, const char **why);
u64 pciesw_port_ber(const struct pciesw_port *port);
int pciesw_threshold_set(struct pciesw_switch *sw, struct pciesw_port *port,
			 enum pciesw_counter c, u64 value, const char **why);
struct pciesw_threshold *pciesw_threshold_find(struct pciesw_switch *sw,
					       const struct pciesw_port *port,
					       enum pciesw_counter c);
struct pciesw_port *pciesw_threshold_port(struct pciesw_switch *sw,
					  const struct pciesw_threshold *t);

/*
 * thermal.c: the thermal model and its work.  pciesw_thermal_init() and
 * pciesw_thermal_stop() belong to the switch's lifecycle (switch.c); all
 * else is called with sw->lock held.
 */
void pciesw_thermal_init(struct pciesw_switch *sw);
void pciesw_thermal_stop(struct pciesw_switch *sw);
void pciesw_thermal_kick(struct pciesw_switch *sw);
void pciesw_thermal_update(struct pciesw_switch *sw);
const char *pciesw_sensor_label(unsigned int sensor);
int pciesw_sensor_temp(const struct pciesw_switch *sw, unsigned int sensor);
int pciesw_thermal_highest(const struct pciesw_switch *sw);
unsigned int pciesw_thermal_history(const struct pciesw_switch *sw,
				    struct pciesw_temp_sample *out);
unsigned int pciesw_thermal_alarms(const struct pciesw_switch *sw,
				   enum pciesw_alarm level);
int pciesw_thermal_set_ambient(struct pciesw_switch *sw, int ambient,
			       const char **why);
int pciesw_thermal_set_tau(struct pciesw_switch *sw, u32 tau_ms,
			   const char **why);
int pciesw_sensor_check_limits(struct pciesw_switch *sw, int sensor,
			       const int *max, const int *crit,
			       const char **why);
int pciesw_sensor_set_limits(struct pciesw_switch *sw, int sensor,
			     const int *max, const int *crit, const char **why);
int pciesw_sensor_set_override(struct pciesw_switch *sw, int sensor,
			       const int *temp, const char **why);

/*
 * settings.c: the switch settings.  Each view changes them through
 * pciesw_switch_set(), which checks every value before it changes any, and
 * reads them through pciesw_switch_setting(); both with sw->lock held.
 */
#define PCIESW_DMA_CHANNELS_MAX		16
#define PCIESW_DMA_CHANNELS_DEFAULT	4
#define PCIESW_MPS_MIN			128
#define PCIESW_MPS_MAX			4096

enum pciesw_setting {
	PCIESW_SETTING_HOST_P2P,	/* 0 or 1 */
	PCIESW_SETTING_DMA_PACING,	/* 0 or 1 */
	PCIESW_SETTING_MPS,		/* bytes, power of 2, 128..4096 */
	PCIESW_SETTING_DMA_CHANNELS,	/* 1..16 */
	PCIESW_SETTING_PCI_VIEW,	/* 0 or 1: the card is on the PCI bus */
	PCIESW_NR_SETTINGS
};

/**
 * struct pciesw_settings - a change of switch settings
 * @set: bit s: @val[s] is the new value of setting s
 * @val: by enum pciesw_setting
 */
struct pciesw_settings {
	unsigned long set;
	u32 val[PCIESW_NR_SETTINGS];
};

void pciesw_settings_init(struct pciesw_switch *sw);
int pciesw_switch_set(struct pciesw_switch *sw, const struct pciesw_settings *s,
		      enum pciesw_setting *bad, const char **why);
u32 pciesw_switch_setting(const struct pciesw_switch *sw,
			  enum pciesw_setting s);
u32 pciesw_switch_mrrs(const struct pciesw_switch *sw);
int pciesw_switch_set_mrrs(struct pciesw_switch *sw, u32 v, const char **why);

/*
 * dma.c: the DMA engine, whose channels run on an unbound workqueue of
 * the switch (dma_run.c).
 */
struct pciesw_dma;
struct pciesw_dma_file;
struct wait_queue_head;

int pciesw_dma_cache_init(void);
void pciesw_dma_cache_exit(void);
int pciesw_dma_init(struct pciesw_switch *sw);
void pciesw_dma_stop(struct pciesw_switch *sw);
void pciesw_dma_release(struct pciesw_switch *sw);
bool pciesw_dma_group_busy(struct pciesw_switch *sw, unsigned int group);
unsigned int pciesw_dma_inflight(struct pciesw_switch *sw);
void pciesw_dma_set_channels(struct pciesw_switch *sw, unsigned int n);

/*
 * dev/dma_file.c: what an open /dev/pcieswN feeds the engine: its submissions,
 * its completion queue (read(), poll()).
 */

/* A batch of @n descriptors is one the engine takes: 1..MAX_BATCH. */
static inline bool pciesw_dma_batch_ok(unsigned int n)
{
	return n && n <= PCIESW_DMA_MAX_BATCH;
}

void pciesw_dma_file_init(void);
void pciesw_dma_file_exit(void);
struct pciesw_dma_file *pciesw_dma_file_open(struct pciesw_switch *sw,
					     bool can_read, bool can_write);
void pciesw_dma_file_release(struct pciesw_dma_file *f);
int pciesw_dma_submit(struct pciesw_dma_file *f,
		      const struct pciesw_dma_desc *descs, unsigned int n,
		      u32 *error_index);
ssize_t pciesw_dma_read(struct pciesw_dma_file *f, char __user *buf,
			size_t count, bool nonblock);
bool pciesw_dma_readable(struct pciesw_dma_file *f);
int pciesw_dma_file_format(struct pciesw_dma_file *f, u32 *version,
			   u32 *record_size);
bool pciesw_dma_file_dead(struct pciesw_dma_file *f);
struct wait_queue_head *pciesw_dma_file_wait(struct pciesw_dma_file *f);
/* dma_run.c: the bench hook (debugfs): the engine's copy without it */
struct pciesw_dma_bench;
struct pciesw_dma_bench *pciesw_dma_bench_start(struct pciesw_switch *sw,
						const struct pciesw_dma_loc *src,
						const struct pciesw_dma_loc *dst,
						u64 len);
int pciesw_dma_bench_run(struct pciesw_dma_bench *b, u64 *ns);

/*
 * firmware.c: the partitions, flashing, booting.  All called with sw->lock
 * held.
 */
void pciesw_fw_init(struct pciesw_switch *sw);
void pciesw_fw_version_str(u32 version, char *buf, size_t len);
u32 pciesw_fw_running_version(const struct pciesw_switch *sw);
const struct pciesw_fw_part *pciesw_fw_stored(const struct pciesw_switch *sw);
char pciesw_fw_part_name(unsigned int part);
int pciesw_fw_check(struct pciesw_switch *sw, const u8 *data, size_t size,
		    struct pciesw_fw_image *img, const char **why);
int pciesw_fw_flash_begin(struct pciesw_switch *sw,
			  const struct pciesw_fw_image *img, const char **why);
int pciesw_fw_flash_write(struct pciesw_switch *sw, u32 len,
			  const char **why);
int pciesw_fw_flash_end(struct pciesw_switch *sw, const char **why);
int pciesw_fw_check_activate(struct pciesw_switch *sw, const char **why);
int pciesw_fw_activate(struct pciesw_switch *sw, const char **why);
void pciesw_fw_reset(struct pciesw_switch *sw);
void pciesw_fw_set_power_loss(struct pciesw_switch *sw, u32 at);

/*
 * log.c: the event log; pciesw_log_init() and pciesw_log_release() belong
 * to the switch's lifecycle, the rest is called with sw->lock held.
 */
struct pciesw_event;

int pciesw_log_init(struct pciesw_switch *sw);
void pciesw_log_release(struct pciesw_switch *sw);
void pciesw_log_event(const struct pciesw_event *ev);
void pciesw_log_ep_flr(struct pciesw_endpoint *ep);
__printf(3, 4)
void pciesw_log_add(struct pciesw_switch *sw, const char *object,
		    const char *fmt, ...);
const struct pciesw_log_entry *pciesw_log_find(struct pciesw_switch *sw,
					       u64 *seq);
void pciesw_log_clear(struct pciesw_switch *sw);

/* instance.c: a switch and its views, created and removed */
int pciesw_instance_new(u32 id, const char *profile, const char **why);
int pciesw_instance_del(u32 id, const char **why);
int pciesw_instance_init(void);
void pciesw_instance_exit(void);

/* Views */
int pciesw_bus_init(void);
void pciesw_bus_exit(void);
int pciesw_chardev_init(void);
void pciesw_chardev_exit(void);
int pciesw_netlink_init(void);
void pciesw_netlink_exit(void);
int pciesw_pci_init(void);
void pciesw_pci_exit(void);

#endif /* _PCIESW_H */
