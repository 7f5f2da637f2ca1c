/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pciesw internal API.
 *
 * The model (profile.c, switch.c) knows nothing of how it is shown: it
 * includes no netlink, sysfs, hwmon or cdev header.  The views (bus.c,
 * chardev.c, netlink.c) use only the functions declared here and never call
 * each other; dev.c puts a switch and its views together.
 */
#ifndef _PCIESW_H
#define _PCIESW_H

#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <uapi/linux/pciesw.h>

#define PCIESW_MAX_GROUPS	16
#define PCIESW_MAX_CONFIGS	8
#define PCIESW_MAX_PORTS	96
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
int pciesw_profiles_check(void);

struct pciesw_switch;
struct pciesw_port;

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

/* Defaults of an endpoint type: what a typical device of it can do. */
struct pciesw_ep_type_desc {
	const char *name;
	enum pciesw_link_speed max_speed;
	u8 max_width;
	u64 mem_size;
};

const struct pciesw_ep_type_desc *pciesw_ep_type(enum pciesw_ep_type type);

/**
 * struct pciesw_endpoint - a device plugged into a downstream port
 * @sw: the switch it belongs to
 * @port: the port it is attached to; never NULL while it is listed
 * @id: unique in the switch while it exists
 * @type: gpu, nvme or generic
 * @type_idx: the per-type index
 * @name: type and per-type index, e.g. "nvme2"
 * @max_speed: fastest speed it trains to
 * @max_width: widest link it trains to
 * @mem_size: size of its memory window (BAR / namespace) in bytes
 * @node: entry in sw->endpoints, ordered by id
 */
struct pciesw_endpoint {
	struct pciesw_switch *sw;
	struct pciesw_port *port;
	u32 id;
	enum pciesw_ep_type type;
	int type_idx;
	char name[PCIESW_NAME_LEN];
	enum pciesw_link_speed max_speed;
	u8 max_width;
	u64 mem_size;
	struct list_head node;
};

struct pciesw_group {
	struct pciesw_switch *sw;
	const struct pciesw_group_desc *desc;
	unsigned int id;
	/* index into desc->configs */
	unsigned int config;
	unsigned int first_port;
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
 * @target_speed: Target Link Speed (Link Control 2)
 * @speed: negotiated speed, NONE when down
 * @width: negotiated width, 0 when down
 * @failed_lanes: bit n set: lane n of the port is dead
 * @degraded: trained narrower than both ends could do
 * @surprise_down: times the link dropped without warning
 * @history: the last %PCIESW_LTSSM_HISTORY transitions, a ring
 * @history_next: total transitions recorded; next slot is this mod size
 */
struct pciesw_link {
	enum pciesw_ltssm ltssm;
	enum pciesw_link_goal goal;
	u64 step_at;
	bool enabled;
	enum pciesw_link_speed target_speed;
	enum pciesw_link_speed speed;
	u8 width;
	u32 failed_lanes;
	bool degraded;
	u64 surprise_down;
	struct pciesw_ltssm_transition history[PCIESW_LTSSM_HISTORY];
	u64 history_next;
};

struct pciesw_port {
	struct pciesw_group *group;
	unsigned int id;
	enum pciesw_port_role role;
	u16 first_lane;
	u8 nr_lanes;
	enum pciesw_link_speed max_speed;
	bool acs_redirect;
	/* the endpoint attached to a downstream port, or NULL */
	struct pciesw_endpoint *ep;
	struct pciesw_link link;
};

/**
 * struct pciesw_switch - one virtual switch card (the model)
 * @id: the N of pcieswN, unique while the switch exists
 * @profile: the card model it was built from
 * @name: "pcieswN"
 * @serial: serial number, unique per id and stable across reloads
 * @refs: lifetime; the registry, the views and in-flight lookups hold one
 * @lock: protects everything below it
 * @published: events reach the views (after publish, until unpublish)
 * @dead: set once when the switch is unpublished; no new state changes
 * @link_work: runs the LTSSM steps that are due (link.c)
 * @endpoints: attached endpoints, ordered by id
 * @ep_ids: allocates endpoint ids
 * @ep_type_ids: allocates the per-type index in endpoint names
 * @vpd: the card's VPD
 */
struct pciesw_switch {
	u32 id;
	const struct pciesw_profile *profile;
	char name[PCIESW_NAME_LEN];
	char serial[PCIESW_NAME_LEN];
	struct kref refs;
	struct mutex lock;	/* protects all fields below */
	bool published;
	bool dead;
	struct delayed_work link_work;
	unsigned int nr_groups;
	struct pciesw_group groups[PCIESW_MAX_GROUPS];
	unsigned int nr_ports;
	struct pciesw_port ports[PCIESW_MAX_PORTS];
	struct list_head endpoints;
	struct ida ep_ids;
	struct ida ep_type_ids[PCIESW_EP_TYPE_MAX + 1];
	struct pciesw_vpd vpd;
};

struct pciesw_switch *pciesw_switch_create(u32 id,
					   const struct pciesw_profile *profile);
void pciesw_switch_put(struct pciesw_switch *sw);
int pciesw_switch_publish(struct pciesw_switch *sw);
void pciesw_switch_unpublish(struct pciesw_switch *sw);
struct pciesw_switch *pciesw_switch_get(u32 id);
struct pciesw_switch *pciesw_switch_get_next(u32 *id);
unsigned int pciesw_switch_nr_endpoints(struct pciesw_switch *sw);
void pciesw_group_config_name(const struct pciesw_group_desc *desc,
			      unsigned int config, char *buf, size_t len);
int pciesw_group_find_config(const struct pciesw_group *g, const char *name);
struct pciesw_group *pciesw_group_find(struct pciesw_switch *sw,
				       const char *name);
int pciesw_group_set_config(struct pciesw_group *g, unsigned int config,
			    const char **why);

/* link.c: LTSSM and negotiation; all called with sw->lock held */
void pciesw_link_init(struct pciesw_port *port);
void pciesw_link_work(struct work_struct *work);
void pciesw_link_start(struct pciesw_port *port, enum pciesw_link_goal goal);
void pciesw_link_drop(struct pciesw_port *port, enum pciesw_ltssm to);
bool pciesw_link_active(const struct pciesw_port *port);
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
int pciesw_port_surprise_down(struct pciesw_port *port, const char **why);
unsigned int pciesw_link_history(const struct pciesw_port *port,
				 struct pciesw_ltssm_transition *out);
const char *pciesw_ltssm_name(enum pciesw_ltssm state);
const char *pciesw_speed_name(enum pciesw_link_speed speed);

/* endpoint.c; all called with sw->lock held */
struct pciesw_endpoint *pciesw_ep_add(struct pciesw_port *port,
				      enum pciesw_ep_type type,
				      enum pciesw_link_speed speed, u8 width,
				      u64 mem_size, const char **why);
void pciesw_ep_del(struct pciesw_endpoint *ep);
struct pciesw_endpoint *pciesw_ep_find(struct pciesw_switch *sw, u32 id);
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

/* Events: the one way state changes leave the model. */
enum pciesw_event_type {
	PCIESW_EV_SWITCH_CREATE,
	PCIESW_EV_SWITCH_DELETE,
	PCIESW_EV_GROUP_CHANGE,		/* @group re-bifurcated */
	PCIESW_EV_PORTS_REMOVE,		/* ports @first.. are about to go */
	PCIESW_EV_PORTS_ADD,		/* ports @first.. exist (again) */
	PCIESW_EV_PORT_CHANGE,		/* link or setting of @port changed */
	PCIESW_EV_EP_ADD,		/* @ep attached to @port */
	PCIESW_EV_EP_DEL,		/* @ep leaves @port */
	PCIESW_EV_VPD_CHANGE,		/* the VPD image changed */
};

/**
 * struct pciesw_event - what changed; only the fields of its type are set
 * @type: what happened
 * @sw: the switch
 * @group: the lane group (GROUP_CHANGE)
 * @port: the port (PORT_CHANGE, EP_ADD, EP_DEL)
 * @ep: the endpoint (EP_ADD, EP_DEL)
 * @first: first port id affected (PORTS_REMOVE, PORTS_ADD)
 */
struct pciesw_event {
	enum pciesw_event_type type;
	struct pciesw_switch *sw;
	struct pciesw_group *group;
	struct pciesw_port *port;
	struct pciesw_endpoint *ep;
	unsigned int first;
};

struct notifier_block;
int pciesw_event_register(struct notifier_block *nb);
void pciesw_event_unregister(struct notifier_block *nb);
void pciesw_event(struct pciesw_event *ev);
unsigned int pciesw_generation(void);

/* dev.c: a switch and its views */
int pciesw_dev_new(u32 id, const char *profile, const char **why);
int pciesw_dev_del(u32 id, const char **why);
int pciesw_dev_init(void);
void pciesw_dev_exit(void);

/* Views */
int pciesw_bus_init(void);
void pciesw_bus_exit(void);
int pciesw_chardev_init(void);
void pciesw_chardev_exit(void);
int pciesw_netlink_init(void);
void pciesw_netlink_exit(void);

#endif /* _PCIESW_H */
