/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events, the one way state changes leave the model, and the interface
 * by which the views follow them (event.c; Documentation/architecture.md).
 */
#ifndef _PCIESW_EVENT_H
#define _PCIESW_EVENT_H

#include "model/pciesw.h"
#include "nvme/nvme.h"

/* Events: the one way state changes leave the model. */
enum pciesw_event_type {
	PCIESW_EV_SWITCH_CREATE,
	PCIESW_EV_SWITCH_DELETE,
	PCIESW_EV_GROUP_CHANGE,		/* @group re-bifurcated */
	PCIESW_EV_PORTS_REMOVE,		/* @ports (of @group) are about to go */
	PCIESW_EV_PORTS_ADD,		/* @ports (of @group) exist (again) */
	PCIESW_EV_PORT_CHANGE,		/* link or setting of @port changed */
	PCIESW_EV_EP_ADD,		/* @ep attached to @port */
	PCIESW_EV_EP_DEL,		/* @ep leaves @port */
	PCIESW_EV_VPD_CHANGE,		/* the VPD image changed */
	PCIESW_EV_THRESHOLD,		/* @counter of @port reached @threshold */
	PCIESW_EV_THERMAL_ALARM,	/* @sensor's @level alarm is @active */
	PCIESW_EV_SWITCH_CHANGE,	/* a switch setting changed */
	PCIESW_EV_LINK_TRAINING,	/* @port's LTSSM entered or left
					 * Configuration/Recovery (Link
					 * Training); only the PCI view shows it
					 */
	PCIESW_EV_FW_CHANGE,		/* a partition or what runs changed */
	PCIESW_EV_PORT_ERRORS,		/* @port counted errors (injected);
					 * only the PCI view shows it (AER
					 * messages), the counters say it
					 */
	PCIESW_EV_EP_FUNCTION,		/* the PCI function of @port's
					 * endpoint was bound to the PCI
					 * view's driver; only the block view
					 * acts on it (its disk can come)
					 */
	PCIESW_EV_EP_CHANGE,		/* @ep's state changed (Bus Master
					 * Enable of its function)
					 */
	PCIESW_EV_NVME_FAULT,		/* @nvme_fault was injected into
					 * NVMe drive @ep
					 */
	PCIESW_EV_NVME_FORMAT,		/* NVMe drive @ep was formatted to
					 * @block_size (Format NVM)
					 */
	PCIESW_EV_NVME_AEN,		/* NVMe drive @ep sent asynchronous
					 * event @aen (completion dword 0)
					 */
	PCIESW_EV_EP_ERRORS,		/* endpoint @ep detected @value
					 * errors @ep_aer (injected); the PCI
					 * view reports them (AER), the event
					 * log says it
					 */
};

/* port_id of an event about no port (a switch-wide threshold) */
#define PCIESW_EV_NO_PORT	U32_MAX

/**
 * struct pciesw_event - what changed; only the fields of its type are set
 * @type: what happened
 * @sw: the switch
 * @group: the lane group (GROUP_CHANGE; PORTS_REMOVE, PORTS_ADD: the group
 *	whose ports @ports are; the others keep their numbers and state)
 * @port: the port (PORT_CHANGE, LINK_TRAINING, EP_ADD, EP_DEL; THRESHOLD: NULL for a
 *	switch-wide threshold)
 * @ep: the endpoint (EP_ADD, EP_DEL, EP_CHANGE, NVME_FAULT, NVME_FORMAT,
 *	NVME_AEN)
 * @group_id: @group's id, set by pciesw_event()
 * @port_id: @port's id, or PCIESW_EV_NO_PORT, set by pciesw_event()
 * @ep_id: @ep's id, set by pciesw_event()
 * @ep_name: @ep's name, set by pciesw_event()
 * @ep_serial: @ep's serial, set by pciesw_event()
 * @ep_map_pgoff: @ep's window's mmap page offset, set by pciesw_event()
 * @ep_map_pages: its pages, set by pciesw_event()
 * @ports: the ports affected (PORTS_REMOVE, PORTS_ADD)
 * @counter: the counter (THRESHOLD)
 * @threshold: the threshold it reached (THRESHOLD)
 * @value: the counter's value then (THRESHOLD); errors (EP_ERRORS)
 * @sensor: the sensor (THERMAL_ALARM)
 * @level: warning or critical (THERMAL_ALARM)
 * @active: raised, or cleared (THERMAL_ALARM)
 * @temp: the sensor's temperature then, m°C (THERMAL_ALARM)
 * @nvme_fault: the fault (NVME_FAULT)
 * @block_size: the new logical block size (NVME_FORMAT)
 * @ses: its Secure Erase Settings (NVME_FORMAT)
 * @aen: the event: type, information, log page (NVME_AEN)
 * @ep_aer: the error (EP_ERRORS), @value how many
 * @seq: its place in the switch's queue, set by pciesw_event()
 *
 * @group, @port and @ep point into the model, so they are valid only while
 * the event is raised (a view's snapshot); a view applying the event sees
 * them NULL and uses the ids.
 */
struct pciesw_event {
	enum pciesw_event_type type;
	struct pciesw_switch *sw;
	struct pciesw_group *group;
	struct pciesw_port *port;
	struct pciesw_endpoint *ep;
	u32 group_id;
	u32 port_id;
	u32 ep_id;
	char ep_name[PCIESW_NAME_LEN];
	u64 ep_serial;
	u64 ep_map_pgoff;
	u64 ep_map_pages;
	DECLARE_BITMAP(ports, PCIESW_MAX_PORTS);
	enum pciesw_counter counter;
	u64 threshold;
	u64 value;
	unsigned int sensor;
	enum pciesw_alarm level;
	bool active;
	int temp;
	struct pciesw_nvme_injection nvme_fault;
	u32 block_size;
	u8 ses;
	u32 aen;
	enum pciesw_ep_aer_error ep_aer;
	u64 seq;
};

/*
 * event.c: the views subscribe by id; an event is applied to them in this
 * order.
 */
enum pciesw_view_id {
	/* block devices that go, before the devices they hang off (block/disk.c) */
	PCIESW_VIEW_BLK_GO,
	PCIESW_VIEW_PCI,	/* the PCI hierarchy (pci*.c) */
	PCIESW_VIEW_DEBUGFS,	/* debugfs directories (dev/debugfs.c) */
	/* mappings of unplugged windows, before their devices go (dev/chardev.c) */
	PCIESW_VIEW_CHARDEV,
	PCIESW_VIEW_DEV,	/* devices and uevents (dev/children.c) */
	/* block devices that come, after the devices they hang off (block/disk.c) */
	PCIESW_VIEW_BLK,
	PCIESW_VIEW_HWMON,	/* hwmon alarms (dev/hwmon.c) */
	PCIESW_VIEW_NETLINK,	/* notifications (netlink/family.c) */
	PCIESW_VIEW_DEVLINK,	/* health reports (devlink/health.c) */
	PCIESW_NR_VIEWS
};

/**
 * struct pciesw_view - how a view follows the model
 * @snapshot: with sw->lock held when the event is raised: take what
 *	@apply will need of the model (optional; NULL is a valid snapshot)
 * @apply: later, in event order, without sw->lock: update the view;
 *	frees the snapshot
 * @ep_function: at once, without sw->lock, from the PCI driver's probe or
 *	remove (the PCI core's locks held): the PCI function of the endpoint
 *	behind port @port_id is bound or goes (optional)
 */
struct pciesw_view {
	void *(*snapshot)(const struct pciesw_event *ev);
	void (*apply)(const struct pciesw_event *ev, void *snap);
	void (*ep_function)(struct pciesw_switch *sw, u32 port_id, bool bound);
};

void pciesw_view_register(enum pciesw_view_id id, const struct pciesw_view *v);
void pciesw_view_unregister(enum pciesw_view_id id);
void pciesw_event(struct pciesw_event *ev);
void pciesw_event_init(struct pciesw_switch *sw);
void pciesw_event_drain(struct pciesw_switch *sw);
int pciesw_event_wq_init(void);
void pciesw_event_wq_exit(void);
void pciesw_switch_sync(struct pciesw_switch *sw);
void pciesw_switch_sync_unless(struct pciesw_switch *sw, const bool *stop);
void pciesw_switch_wake(struct pciesw_switch *sw);
void pciesw_ep_function(struct pciesw_switch *sw, u32 port_id, bool bound);
unsigned int pciesw_generation(void);
u32 pciesw_switch_generation(const struct pciesw_switch *sw);

#endif /* _PCIESW_EVENT_H */
