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

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <uapi/linux/pciesw.h>

#define PCIESW_MAX_GROUPS	16
#define PCIESW_MAX_CONFIGS	8
#define PCIESW_MAX_PORTS	96

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

struct pciesw_group {
	struct pciesw_switch *sw;
	const struct pciesw_group_desc *desc;
	unsigned int id;
	/* index into desc->configs */
	unsigned int config;
	unsigned int first_port;
	unsigned int nr_ports;
};

/* Link state of a port, as both ends negotiated it. */
struct pciesw_link {
	enum pciesw_ltssm ltssm;
	enum pciesw_link_speed target_speed;
	enum pciesw_link_speed speed;	/* NONE when down */
	u8 width;			/* 0 when down */
	/* the partner's capability; NONE when nothing is attached */
	enum pciesw_link_speed partner_speed;
	u8 partner_width;
	bool degraded;
};

struct pciesw_port {
	struct pciesw_group *group;
	unsigned int id;
	enum pciesw_port_role role;
	u16 first_lane;
	u8 nr_lanes;
	enum pciesw_link_speed max_speed;
	bool acs_redirect;
	struct pciesw_link link;
};

/**
 * struct pciesw_switch - one virtual switch card (the model)
 * @id: the N of pcieswN, unique while the switch exists
 * @profile: the card model it was built from
 * @serial: serial number, unique per id and stable across reloads
 * @refs: lifetime; the registry, the views and in-flight lookups hold one
 * @lock: protects @groups, @ports, @nr_ports and @dead
 * @dead: set once when the switch is unpublished; no new state changes
 */
struct pciesw_switch {
	u32 id;
	const struct pciesw_profile *profile;
	char name[PCIESW_NAME_LEN];
	char serial[PCIESW_NAME_LEN];
	struct kref refs;
	struct mutex lock;	/* protects groups, ports, link state, dead */
	bool dead;
	unsigned int nr_groups;
	struct pciesw_group groups[PCIESW_MAX_GROUPS];
	unsigned int nr_ports;
	struct pciesw_port ports[PCIESW_MAX_PORTS];
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

/* Events: the one way state changes leave the model. */
enum pciesw_event_type {
	PCIESW_EV_SWITCH_CREATE,
	PCIESW_EV_SWITCH_DELETE,
};

struct pciesw_event {
	enum pciesw_event_type type;
	struct pciesw_switch *sw;
};

struct notifier_block;
int pciesw_event_register(struct notifier_block *nb);
void pciesw_event_unregister(struct notifier_block *nb);

/* dev.c: a switch and its views */
int pciesw_dev_new(u32 id, const char *profile, const char **why);
int pciesw_dev_del(u32 id, const char **why);
void pciesw_dev_exit(void);

/* Views */
int pciesw_bus_init(void);
void pciesw_bus_exit(void);
int pciesw_chardev_init(void);
void pciesw_chardev_exit(void);
int pciesw_netlink_init(void);
void pciesw_netlink_exit(void);

#endif /* _PCIESW_H */
