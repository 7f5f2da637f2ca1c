// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs of the child devices of a switch: lane groups (group_NAME), ports
 * (pcieswN-portM) and endpoints (pcieswN-gpu0 ...).  Port attributes use
 * the value formats of the PCI core's attributes of the same names.
 *
 * Port and endpoint devices are added and removed from the switch's event
 * queue without sw->lock (model/event.c), so attribute calls sleep on it; a
 * store waits for the views with pciesw_child_sync(), which lets the
 * removal of its own device go ahead meanwhile.
 */

#include <linux/capability.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "instance.h"
#include "model/route.h"

/*
 * After a store on @child changed the switch: return once every view shows
 * it, or once @child's own removal starts.  That removal may be queued
 * ahead of the change and waits for running stores; the lookup behind
 * pciesw_sysfs_sync() does not find the files of a group (errors/clear),
 * so stop waiting when the removal says it has begun.
 */
static void pciesw_child_sync(struct pciesw_child *child,
			      struct device_attribute *attr)
{
	struct kernfs_node *kn;

	kn = sysfs_break_active_protection(&child->dev.kobj, &attr->attr);
	pciesw_switch_sync_unless(child->sw, &child->removing);
	if (kn)
		sysfs_unbreak_active_protection(kn);
}

/* ---- ports ---- */

/* A speed as the PCI core prints current_link_speed */
static const char * const pciesw_speed_names[] = {
	[PCIESW_LINK_SPEED_NONE] = "Unknown",
	[PCIESW_LINK_SPEED_GEN1] = "2.5 GT/s PCIe",
	[PCIESW_LINK_SPEED_GEN2] = "5.0 GT/s PCIe",
	[PCIESW_LINK_SPEED_GEN3] = "8.0 GT/s PCIe",
	[PCIESW_LINK_SPEED_GEN4] = "16.0 GT/s PCIe",
	[PCIESW_LINK_SPEED_GEN5] = "32.0 GT/s PCIe",
};

static const char *pciesw_speed_name(enum pciesw_link_speed speed)
{
	if (speed < ARRAY_SIZE(pciesw_speed_names))
		return pciesw_speed_names[speed];
	return "Unknown";
}

typedef ssize_t (*pciesw_port_fmt)(struct pciesw_port *port, char *buf);

static ssize_t pciesw_port_show(struct device *dev, char *buf,
				pciesw_port_fmt fmt)
{
	struct pciesw_child *child = to_pciesw_child(dev);
	struct pciesw_port *port;
	ssize_t ret;

	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	port = pciesw_port_find(child->sw, child->index);
	if (port)
		ret = fmt(port, buf);
	else
		ret = -ENODEV;
	mutex_unlock(&child->sw->lock);
	return ret;
}

#define PCIESW_PORT_ATTR_RO(_name, _fmt, ...)				\
static ssize_t pciesw_port_fmt_##_name(struct pciesw_port *port,	\
				       char *buf)			\
{									\
	return sysfs_emit(buf, _fmt "\n", __VA_ARGS__);			\
}									\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return pciesw_port_show(dev, buf, pciesw_port_fmt_##_name);	\
}									\
static DEVICE_ATTR_RO(_name)

PCIESW_PORT_ATTR_RO(port_id, "%u", port->id);
PCIESW_PORT_ATTR_RO(role, "%s",
		    port->role == PCIESW_PORT_ROLE_UPSTREAM ? "upstream" :
							      "downstream");
PCIESW_PORT_ATTR_RO(lane_group, "%s", port->group->desc->name);
PCIESW_PORT_ATTR_RO(lanes, "%u-%u", port->first_lane,
		    port->first_lane + port->nr_lanes - 1);
PCIESW_PORT_ATTR_RO(link_state, "%s",
		    pciesw_link_active(port) ? "up" : "down");
PCIESW_PORT_ATTR_RO(ltssm_state, "%s", pciesw_ltssm_name(port->link.ltssm));
PCIESW_PORT_ATTR_RO(current_link_speed, "%s",
		    pciesw_speed_name(port->link.speed));
PCIESW_PORT_ATTR_RO(current_link_width, "%u", port->link.width);
PCIESW_PORT_ATTR_RO(max_link_speed, "%s", pciesw_speed_name(port->max_speed));
PCIESW_PORT_ATTR_RO(max_link_width, "%u", port->nr_lanes);
PCIESW_PORT_ATTR_RO(target_link_speed, "%s",
		    pciesw_speed_name(port->link.target_speed));
PCIESW_PORT_ATTR_RO(degraded, "%u", port->link.degraded);
PCIESW_PORT_ATTR_RO(enabled, "%u", port->link.enabled);
PCIESW_PORT_ATTR_RO(failed_lanes, "0x%x", port->link.failed_lanes);
PCIESW_PORT_ATTR_RO(acs_redirect, "%u", port->acs_redirect);
PCIESW_PORT_ATTR_RO(acs_egress, "0x%llx", port->acs_egress);
PCIESW_PORT_ATTR_RO(dpc_contained, "%u", port->link.contained);
PCIESW_PORT_ATTR_RO(surprise_down_count, "%llu", port->link.surprise_down);
PCIESW_PORT_ATTR_RO(endpoint, "%s", port->ep ? port->ep->name : "");
/* modelled bytes/s in each direction, 0 while the link is down */
PCIESW_PORT_ATTR_RO(bandwidth, "%llu", pciesw_port_bandwidth(port));

static ssize_t pciesw_port_fmt_history(struct pciesw_port *port, char *buf)
{
	struct pciesw_ltssm_transition *t;
	unsigned int i, n;
	ssize_t len = 0;

	t = kmalloc_array(PCIESW_LTSSM_HISTORY, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	n = pciesw_link_history(port, t);
	for (i = 0; i < n; i++)
		len += sysfs_emit_at(buf, len, "%llu %s %s\n", t[i].time_ns,
				     pciesw_ltssm_name(t[i].from),
				     pciesw_ltssm_name(t[i].to));
	kfree(t);
	return len;
}

/* one "TIME_NS FROM TO" line per transition, oldest first */
static ssize_t ltssm_history_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return pciesw_port_show(dev, buf, pciesw_port_fmt_history);
}
static DEVICE_ATTR_RO(ltssm_history);

/* write a type (gpu, nvme, generic) to plug an endpoint into the port */
static ssize_t ep_add_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct pciesw_child *child = to_pciesw_child(dev);
	struct pciesw_endpoint *ep;
	struct pciesw_port *port;
	const char *why = NULL;
	enum pciesw_ep_type t;
	u64 serial = 0;
	u32 id = 0;
	int ret;

	/* as netlink's ep-add: an endpoint brings a memory window */
	if (!capable(CAP_SYS_ADMIN)) {
		dev_err(dev, "ep_add: adding an endpoint needs CAP_SYS_ADMIN\n");
		return -EPERM;
	}
	for (t = PCIESW_EP_TYPE_GPU; t <= PCIESW_EP_TYPE_MAX; t++)
		if (sysfs_streq(buf, pciesw_ep_type(t)->name))
			break;
	if (t > PCIESW_EP_TYPE_MAX) {
		dev_err(dev, "ep_add: unknown endpoint type (gpu, nvme, generic)\n");
		return -EINVAL;
	}
	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	port = pciesw_port_find(child->sw, child->index);
	if (port) {
		ep = pciesw_ep_add(port, t, PCIESW_LINK_SPEED_NONE, 0, 0, 0,
				   NULL, &why);
	} else {
		ep = ERR_PTR(-ENODEV);
		why = "the port is gone";
	}
	if (!IS_ERR(ep)) {
		id = ep->id;
		serial = ep->serial;
	}
	mutex_unlock(&child->sw->lock);
	pciesw_child_sync(child, attr);
	if (!IS_ERR(ep)) {
		/* the device view unplugs it again if its device failed */
		mutex_lock(&child->sw->lock);
		ep = pciesw_ep_find(child->sw, id);
		if (!ep || ep->serial != serial) {
			ep = ERR_PTR(-ENOMEM);
			why = "the endpoint's device could not be added (out of memory)";
		}
		mutex_unlock(&child->sw->lock);
	}
	if (IS_ERR(ep)) {
		dev_err(dev, "ep_add: %s\n", why);
		return PTR_ERR(ep);
	}
	return count;
}
static DEVICE_ATTR_WO(ep_add);

/*
 * A port's "write 1" store: @act runs on the port with sw->lock held, and
 * the store returns once every view shows what it did
 */
static int pciesw_port_store_1(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       int (*act)(struct device *dev,
					  struct pciesw_port *port))
{
	struct pciesw_child *child = to_pciesw_child(dev);
	struct pciesw_port *port;
	bool yes;
	int ret;

	ret = kstrtobool(buf, &yes);
	if (ret || !yes)
		return -EINVAL;
	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	port = pciesw_port_find(child->sw, child->index);
	ret = port ? act(dev, port) : -ENODEV;
	mutex_unlock(&child->sw->lock);
	pciesw_child_sync(child, attr);
	return ret;
}

static int pciesw_port_ep_remove(struct device *dev, struct pciesw_port *port)
{
	if (!port->ep) {
		dev_err(dev, "ep_remove: no endpoint on this port\n");
		return -ENODEV;
	}
	pciesw_ep_del(port->ep);
	return 0;
}

/* write 1 to unplug the port's endpoint */
static ssize_t ep_remove_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	int ret = pciesw_port_store_1(dev, attr, buf, pciesw_port_ep_remove);

	return ret ?: count;
}
static DEVICE_ATTR_WO(ep_remove);

/* ---- port health: errors/, traffic/ and ber ---- */

struct pciesw_counter_attr {
	struct device_attribute attr;
	enum pciesw_counter counter;
};

static ssize_t pciesw_counter_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct pciesw_counter_attr *ca = container_of(attr,
						      struct pciesw_counter_attr,
						      attr);
	struct pciesw_child *child = to_pciesw_child(dev);
	struct pciesw_switch *sw = child->sw;
	struct pciesw_port *port;
	u64 v = 0;
	int ret;

	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	port = pciesw_port_find(sw, child->index);
	if (port)
		v = pciesw_counter_read(sw, port, ca->counter);
	else
		ret = -ENODEV;
	mutex_unlock(&sw->lock);
	return ret ?: sysfs_emit(buf, "%llu\n", v);
}

/* the spec's counter name with '-' -> '_' */
#define PCIESW_COUNTER_ATTR(_name, _c)					\
static struct pciesw_counter_attr pciesw_counter_attr_##_name = {	\
	.attr = __ATTR(_name, 0444, pciesw_counter_show, NULL),		\
	.counter = PCIESW_COUNTER_##_c,					\
}

PCIESW_COUNTER_ATTR(receiver_error, RECEIVER_ERROR);
PCIESW_COUNTER_ATTR(bad_tlp, BAD_TLP);
PCIESW_COUNTER_ATTR(bad_dllp, BAD_DLLP);
PCIESW_COUNTER_ATTR(replay_num_rollover, REPLAY_NUM_ROLLOVER);
PCIESW_COUNTER_ATTR(replay_timer_timeout, REPLAY_TIMER_TIMEOUT);
PCIESW_COUNTER_ATTR(advisory_non_fatal, ADVISORY_NON_FATAL);
PCIESW_COUNTER_ATTR(corrected_internal, CORRECTED_INTERNAL);
PCIESW_COUNTER_ATTR(header_log_overflow, HEADER_LOG_OVERFLOW);
PCIESW_COUNTER_ATTR(data_link_protocol, DATA_LINK_PROTOCOL);
PCIESW_COUNTER_ATTR(surprise_down, SURPRISE_DOWN);
PCIESW_COUNTER_ATTR(poisoned_tlp, POISONED_TLP);
PCIESW_COUNTER_ATTR(flow_control_protocol, FLOW_CONTROL_PROTOCOL);
PCIESW_COUNTER_ATTR(completion_timeout, COMPLETION_TIMEOUT);
PCIESW_COUNTER_ATTR(completer_abort, COMPLETER_ABORT);
PCIESW_COUNTER_ATTR(unexpected_completion, UNEXPECTED_COMPLETION);
PCIESW_COUNTER_ATTR(receiver_overflow, RECEIVER_OVERFLOW);
PCIESW_COUNTER_ATTR(malformed_tlp, MALFORMED_TLP);
PCIESW_COUNTER_ATTR(ecrc, ECRC);
PCIESW_COUNTER_ATTR(unsupported_request, UNSUPPORTED_REQUEST);
PCIESW_COUNTER_ATTR(acs_violation, ACS_VIOLATION);
PCIESW_COUNTER_ATTR(ingress_posted_bytes, INGRESS_POSTED_BYTES);
PCIESW_COUNTER_ATTR(ingress_non_posted_bytes, INGRESS_NON_POSTED_BYTES);
PCIESW_COUNTER_ATTR(ingress_completion_bytes, INGRESS_COMPLETION_BYTES);
PCIESW_COUNTER_ATTR(egress_posted_bytes, EGRESS_POSTED_BYTES);
PCIESW_COUNTER_ATTR(egress_non_posted_bytes, EGRESS_NON_POSTED_BYTES);
PCIESW_COUNTER_ATTR(egress_completion_bytes, EGRESS_COMPLETION_BYTES);
PCIESW_COUNTER_ATTR(ingress_posted_tlps, INGRESS_POSTED_TLPS);
PCIESW_COUNTER_ATTR(ingress_non_posted_tlps, INGRESS_NON_POSTED_TLPS);
PCIESW_COUNTER_ATTR(ingress_completion_tlps, INGRESS_COMPLETION_TLPS);
PCIESW_COUNTER_ATTR(egress_posted_tlps, EGRESS_POSTED_TLPS);
PCIESW_COUNTER_ATTR(egress_non_posted_tlps, EGRESS_NON_POSTED_TLPS);
PCIESW_COUNTER_ATTR(egress_completion_tlps, EGRESS_COMPLETION_TLPS);

static int pciesw_port_errors_clear(struct device *dev,
				    struct pciesw_port *port)
{
	pciesw_port_counters_clear(port);
	return 0;
}

/* write 1 to zero every counter of the port (errors and traffic) */
static ssize_t errors_clear_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	int ret = pciesw_port_store_1(dev, attr, buf, pciesw_port_errors_clear);

	return ret ?: count;
}

static struct device_attribute dev_attr_errors_clear =
	__ATTR(clear, 0200, NULL, errors_clear_store);

static struct attribute *pciesw_port_errors_attrs[] = {
	&pciesw_counter_attr_receiver_error.attr.attr,
	&pciesw_counter_attr_bad_tlp.attr.attr,
	&pciesw_counter_attr_bad_dllp.attr.attr,
	&pciesw_counter_attr_replay_num_rollover.attr.attr,
	&pciesw_counter_attr_replay_timer_timeout.attr.attr,
	&pciesw_counter_attr_advisory_non_fatal.attr.attr,
	&pciesw_counter_attr_corrected_internal.attr.attr,
	&pciesw_counter_attr_header_log_overflow.attr.attr,
	&pciesw_counter_attr_data_link_protocol.attr.attr,
	&pciesw_counter_attr_surprise_down.attr.attr,
	&pciesw_counter_attr_poisoned_tlp.attr.attr,
	&pciesw_counter_attr_flow_control_protocol.attr.attr,
	&pciesw_counter_attr_completion_timeout.attr.attr,
	&pciesw_counter_attr_completer_abort.attr.attr,
	&pciesw_counter_attr_unexpected_completion.attr.attr,
	&pciesw_counter_attr_receiver_overflow.attr.attr,
	&pciesw_counter_attr_malformed_tlp.attr.attr,
	&pciesw_counter_attr_ecrc.attr.attr,
	&pciesw_counter_attr_unsupported_request.attr.attr,
	&pciesw_counter_attr_acs_violation.attr.attr,
	&dev_attr_errors_clear.attr,
	NULL
};

static const struct attribute_group pciesw_port_errors_group = {
	.name = "errors",
	.attrs = pciesw_port_errors_attrs,
};

static struct attribute *pciesw_port_traffic_attrs[] = {
	&pciesw_counter_attr_ingress_posted_bytes.attr.attr,
	&pciesw_counter_attr_ingress_non_posted_bytes.attr.attr,
	&pciesw_counter_attr_ingress_completion_bytes.attr.attr,
	&pciesw_counter_attr_egress_posted_bytes.attr.attr,
	&pciesw_counter_attr_egress_non_posted_bytes.attr.attr,
	&pciesw_counter_attr_egress_completion_bytes.attr.attr,
	&pciesw_counter_attr_ingress_posted_tlps.attr.attr,
	&pciesw_counter_attr_ingress_non_posted_tlps.attr.attr,
	&pciesw_counter_attr_ingress_completion_tlps.attr.attr,
	&pciesw_counter_attr_egress_posted_tlps.attr.attr,
	&pciesw_counter_attr_egress_non_posted_tlps.attr.attr,
	&pciesw_counter_attr_egress_completion_tlps.attr.attr,
	NULL
};

static const struct attribute_group pciesw_port_traffic_group = {
	.name = "traffic",
	.attrs = pciesw_port_traffic_attrs,
};

static ssize_t pciesw_port_fmt_ber(struct pciesw_port *port, char *buf)
{
	return sysfs_emit(buf, "%llu\n", pciesw_port_ber(port));
}

static ssize_t ber_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return pciesw_port_show(dev, buf, pciesw_port_fmt_ber);
}

/* bit errors per 10^18 bits (1e-9 is 1000000000), 0 for none */
static ssize_t ber_store(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count)
{
	struct pciesw_child *child = to_pciesw_child(dev);
	struct pciesw_port *port;
	const char *why = NULL;
	u64 ber;
	int ret;

	if (!capable(CAP_SYS_ADMIN)) {
		dev_err(dev, "ber: fault injection needs CAP_SYS_ADMIN\n");
		return -EPERM;
	}
	ret = kstrtou64(buf, 0, &ber);
	if (ret)
		return ret;
	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	port = pciesw_port_find(child->sw, child->index);
	if (port)
		ret = pciesw_port_set_ber(port, ber, &why);
	else
		ret = -ENODEV;
	mutex_unlock(&child->sw->lock);
	pciesw_child_sync(child, attr);
	if (ret) {
		if (why)
			dev_err(dev, "ber: %s\n", why);
		return ret;
	}
	return count;
}
static DEVICE_ATTR_RW(ber);

static struct attribute *pciesw_port_attrs[] = {
	&dev_attr_port_id.attr,
	&dev_attr_role.attr,
	&dev_attr_lane_group.attr,
	&dev_attr_lanes.attr,
	&dev_attr_link_state.attr,
	&dev_attr_ltssm_state.attr,
	&dev_attr_ltssm_history.attr,
	&dev_attr_current_link_speed.attr,
	&dev_attr_current_link_width.attr,
	&dev_attr_max_link_speed.attr,
	&dev_attr_max_link_width.attr,
	&dev_attr_target_link_speed.attr,
	&dev_attr_degraded.attr,
	&dev_attr_enabled.attr,
	&dev_attr_failed_lanes.attr,
	&dev_attr_acs_redirect.attr,
	&dev_attr_acs_egress.attr,
	&dev_attr_dpc_contained.attr,
	&dev_attr_surprise_down_count.attr,
	&dev_attr_endpoint.attr,
	&dev_attr_bandwidth.attr,
	&dev_attr_ep_add.attr,
	&dev_attr_ep_remove.attr,
	&dev_attr_ber.attr,
	NULL
};

static const struct attribute_group pciesw_port_group = {
	.attrs = pciesw_port_attrs,
};

static const struct attribute_group *pciesw_port_groups[] = {
	&pciesw_port_group,
	&pciesw_port_errors_group,
	&pciesw_port_traffic_group,
	NULL
};

const struct device_type pciesw_port_devtype = {
	.name = "pciesw_port",
	.groups = pciesw_port_groups,
};

/* ---- lane groups ---- */

static ssize_t pciesw_group_show(struct device *dev, char *buf,
				 ssize_t (*fmt)(struct pciesw_group *g,
						char *buf))
{
	struct pciesw_child *child = to_pciesw_child(dev);
	ssize_t ret;

	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	ret = fmt(&child->sw->groups[child->index], buf);
	mutex_unlock(&child->sw->lock);
	return ret;
}

static ssize_t pciesw_group_fmt_config(struct pciesw_group *g, char *buf)
{
	char name[16];

	pciesw_group_config_name(g->desc, g->config, name, sizeof(name));
	return sysfs_emit(buf, "%s\n", name);
}

static ssize_t pciesw_group_fmt_allowed(struct pciesw_group *g, char *buf)
{
	char name[16];
	unsigned int c;
	ssize_t len = 0;

	for (c = 0; c < g->desc->nr_configs; c++) {
		pciesw_group_config_name(g->desc, c, name, sizeof(name));
		len += sysfs_emit_at(buf, len, "%s%s", c ? " " : "", name);
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

/*
 * The group's port numbers, ascending, as comma-separated "FIRST-LAST"
 * runs: "2-5" for nvme 4x4, "1-1,6-8" for gpu 4x4 on pex89048.
 */
static ssize_t pciesw_group_fmt_ports(struct pciesw_group *g, char *buf)
{
	struct pciesw_port *port, *run = NULL, *last = NULL;
	ssize_t len = 0;

	pciesw_for_each_port_of(g->sw, g, port) {
		if (last && port->id == last->id + 1) {
			last = port;
			continue;
		}
		if (run)
			len += sysfs_emit_at(buf, len, "%s%u-%u",
					     len ? "," : "", run->id, last->id);
		run = port;
		last = port;
	}
	if (run)
		len += sysfs_emit_at(buf, len, "%s%u-%u", len ? "," : "",
				     run->id, last->id);
	return len + sysfs_emit_at(buf, len, "\n");
}

static ssize_t pciesw_group_fmt_lanes(struct pciesw_group *g, char *buf)
{
	return sysfs_emit(buf, "%u-%u\n", g->desc->first_lane,
			  g->desc->first_lane + g->desc->nr_lanes - 1);
}

static ssize_t pciesw_group_fmt_type(struct pciesw_group *g, char *buf)
{
	static const char * const names[] = {
		[PCIESW_GROUP_TYPE_HOST] = "host",
		[PCIESW_GROUP_TYPE_GPU] = "gpu",
		[PCIESW_GROUP_TYPE_NVME] = "nvme",
	};

	return sysfs_emit(buf, "%s\n", names[g->desc->type]);
}

#define PCIESW_GROUP_ATTR_SHOW(_name, _fmt)				\
static ssize_t group_##_name##_show(struct device *dev,			\
			    struct device_attribute *attr, char *buf)	\
{									\
	return pciesw_group_show(dev, buf, _fmt);			\
}

PCIESW_GROUP_ATTR_SHOW(config, pciesw_group_fmt_config)
PCIESW_GROUP_ATTR_SHOW(allowed_configs, pciesw_group_fmt_allowed)
PCIESW_GROUP_ATTR_SHOW(ports, pciesw_group_fmt_ports)
PCIESW_GROUP_ATTR_SHOW(lanes, pciesw_group_fmt_lanes)
PCIESW_GROUP_ATTR_SHOW(type, pciesw_group_fmt_type)

/* write an allowed bifurcation ("4x4") to re-bifurcate the group */
static ssize_t group_config_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct pciesw_child *child = to_pciesw_child(dev);
	struct pciesw_group *g = &child->sw->groups[child->index];
	const char *why = NULL;
	char name[16];
	int cfg, ret;

	if (strscpy(name, buf, sizeof(name)) < 0)
		return -EINVAL;
	cfg = pciesw_group_find_config(g, strim(name));
	if (cfg < 0) {
		dev_err(dev, "config: bifurcation not allowed for this lane group\n");
		return -EINVAL;
	}
	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	ret = pciesw_group_set_config(g, cfg, &why);
	mutex_unlock(&child->sw->lock);
	pciesw_child_sync(child, attr);
	if (ret) {
		dev_err(dev, "config: %s\n", why);
		return ret;
	}
	return count;
}

static struct device_attribute dev_attr_group_config =
	__ATTR(config, 0644, group_config_show, group_config_store);
static struct device_attribute dev_attr_group_allowed_configs =
	__ATTR(allowed_configs, 0444, group_allowed_configs_show, NULL);
static struct device_attribute dev_attr_group_ports =
	__ATTR(ports, 0444, group_ports_show, NULL);
static struct device_attribute dev_attr_group_lanes =
	__ATTR(lanes, 0444, group_lanes_show, NULL);
static struct device_attribute dev_attr_group_type =
	__ATTR(type, 0444, group_type_show, NULL);

static struct attribute *pciesw_group_attrs[] = {
	&dev_attr_group_type.attr,
	&dev_attr_group_lanes.attr,
	&dev_attr_group_config.attr,
	&dev_attr_group_allowed_configs.attr,
	&dev_attr_group_ports.attr,
	NULL
};
ATTRIBUTE_GROUPS(pciesw_group);

const struct device_type pciesw_group_devtype = {
	.name = "pciesw_lane_group",
	.groups = pciesw_group_groups,
};

/* ---- endpoints ---- */

static ssize_t pciesw_ep_show(struct device *dev, char *buf,
			      ssize_t (*fmt)(struct pciesw_endpoint *ep,
					     char *buf))
{
	struct pciesw_child *child = to_pciesw_child(dev);
	struct pciesw_endpoint *ep;
	ssize_t ret;

	ret = pciesw_view_lock(child->sw);
	if (ret)
		return ret;
	ep = pciesw_ep_find(child->sw, child->index);
	/* a later endpoint with this id is not this device's */
	ret = ep && ep->serial == child->serial ? fmt(ep, buf) : -ENODEV;
	mutex_unlock(&child->sw->lock);
	return ret;
}

#define PCIESW_EP_ATTR_RO(_name, _fmt, ...)				\
static ssize_t pciesw_ep_fmt_##_name(struct pciesw_endpoint *ep,	\
				     char *buf)				\
{									\
	return sysfs_emit(buf, _fmt "\n", __VA_ARGS__);			\
}									\
static ssize_t ep_##_name##_show(struct device *dev,			\
				 struct device_attribute *attr,		\
				 char *buf)				\
{									\
	return pciesw_ep_show(dev, buf, pciesw_ep_fmt_##_name);		\
}									\
static struct device_attribute dev_attr_ep_##_name =			\
	__ATTR(_name, 0444, ep_##_name##_show, NULL)

PCIESW_EP_ATTR_RO(id, "%u", ep->id);
PCIESW_EP_ATTR_RO(name, "%s", ep->name);
PCIESW_EP_ATTR_RO(type, "%s", pciesw_ep_type(ep->type)->name);
PCIESW_EP_ATTR_RO(port, "%u", ep->port->id);
PCIESW_EP_ATTR_RO(max_link_speed, "%s", pciesw_speed_name(ep->max_speed));
PCIESW_EP_ATTR_RO(max_link_width, "%u", ep->max_width);
PCIESW_EP_ATTR_RO(mem_size, "%llu", ep->mem_size);
PCIESW_EP_ATTR_RO(mem_resident, "%llu", pciesw_mem_resident(ep->mem));
/* the PCI IDs, as the PCI core's files of its function show them */
PCIESW_EP_ATTR_RO(vendor, "0x%04x", ep->ident.vendor);
PCIESW_EP_ATTR_RO(device, "0x%04x", ep->ident.device);
PCIESW_EP_ATTR_RO(subsystem_vendor, "0x%04x", ep->ident.subsys_vendor);
PCIESW_EP_ATTR_RO(subsystem_device, "0x%04x", ep->ident.subsys_device);
PCIESW_EP_ATTR_RO(revision, "0x%02x", ep->ident.revision);
PCIESW_EP_ATTR_RO(class, "0x%06x", ep->ident.class_code);

static struct attribute *pciesw_ep_attrs[] = {
	&dev_attr_ep_id.attr,
	&dev_attr_ep_name.attr,
	&dev_attr_ep_type.attr,
	&dev_attr_ep_port.attr,
	&dev_attr_ep_max_link_speed.attr,
	&dev_attr_ep_max_link_width.attr,
	&dev_attr_ep_mem_size.attr,
	&dev_attr_ep_mem_resident.attr,
	&dev_attr_ep_vendor.attr,
	&dev_attr_ep_device.attr,
	&dev_attr_ep_subsystem_vendor.attr,
	&dev_attr_ep_subsystem_device.attr,
	&dev_attr_ep_revision.attr,
	&dev_attr_ep_class.attr,
	NULL
};
ATTRIBUTE_GROUPS(pciesw_ep);

const struct device_type pciesw_ep_devtype = {
	.name = "pciesw_endpoint",
	.groups = pciesw_ep_groups,
};
