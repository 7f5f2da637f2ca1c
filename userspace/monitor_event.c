// SPDX-License-Identifier: GPL-2.0
/*
 * monitor: one notification through the print layer, a text line or a
 * JSON object: the time it came, the switch, what happened.  The port
 * state it is compared with is monitor_state.c's.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netlink/genl/genl.h>

#include "attr.h"
#include "monitor.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "util.h"

/* Now, local time in ISO 8601: "2026-12-01T11:42:03.123456+00:00". */
static void wall_text(char *buf, size_t len)
{
	struct timespec ts;
	char date[24], zone[8];
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (!localtime_r(&ts.tv_sec, &tm) ||
	    !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) ||
	    strftime(zone, sizeof(zone), "%z", &tm) != 5) {
		snprintf(buf, len, "?");
		return;
	}
	/* %z is +hhmm; ISO 8601 extended format wants +hh:mm */
	snprintf(buf, len, "%s.%06d%.3s:%.2s", date, (int)(ts.tv_nsec / 1000),
		 zone, zone + 3);
}

/*
 * The start of every event: JSON "event", "time" (CLOCK_MONOTONIC ns, like
 * transition-time) and "switch"; text "[seconds.micro] ", with @wall the
 * wall-clock time instead (JSON "timestamp" too).
 */
static void event_begin(const char *event, uint32_t cmd, struct nlattr **tb,
			bool wall)
{
	struct timespec ts;
	uint64_t ns;
	char buf[48];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	open_object(NULL);
	if (event)
		print_string(PRINT_JSON, "event", NULL, event);
	else
		print_uint(PRINT_JSON, "event", NULL, cmd);
	print_uint(PRINT_JSON, "time", NULL, ns);
	if (wall) {
		wall_text(buf, sizeof(buf));
		print_string(PRINT_ANY, "timestamp", "[%s] ", buf);
	} else {
		mono_text(buf, sizeof(buf), ns);
		print_string(PRINT_TEXT, NULL, "[%s] ", buf);
	}
	if (tb[PCIESW_A_SWITCH_ID]) {
		switch_name(buf, sizeof(buf),
			    nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
		print_string(PRINT_JSON, "switch", NULL, buf);
	} else {
		print_null(PRINT_JSON, "switch", NULL);
	}
}

/* "pciesw0 " in text, before what happened on the switch */
static void text_switch(struct nlattr **tb)
{
	char name[32];

	if (tb[PCIESW_A_SWITCH_ID]) {
		switch_name(name, sizeof(name),
			    nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
		print_string(PRINT_TEXT, NULL, "%s ", name);
	} else {
		print_null(PRINT_TEXT, NULL, "%s ");
	}
}

static void event_switch(struct nlattr **tb, bool created)
{
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_ANY, "switch-name", created ?
			  "switch %s created" : "switch %s deleted",
			  tb[PCIESW_A_SWITCH_NAME]);
	print_attr_string(created ? PRINT_ANY : PRINT_JSON, "switch-profile",
			  " (profile %s", tb[PCIESW_A_SWITCH_PROFILE]);
	print_attr_string(PRINT_JSON, "switch-description", NULL,
			  tb[PCIESW_A_SWITCH_DESCRIPTION]);
	print_attr_u32(created ? PRINT_ANY : PRINT_JSON, "switch-lanes",
		       ", %s lanes", tb[PCIESW_A_SWITCH_LANES]);
	print_attr_string(PRINT_JSON, "switch-serial", NULL,
			  tb[PCIESW_A_SWITCH_SERIAL]);
	print_attr_u32(PRINT_JSON, "switch-nr-groups", NULL,
		       tb[PCIESW_A_SWITCH_NR_GROUPS]);
	print_attr_u32(created ? PRINT_ANY : PRINT_JSON, "switch-nr-ports",
		       ", %s ports)", tb[PCIESW_A_SWITCH_NR_PORTS]);
	cache_switch_event(tb, created);
}

/* "pciesw0 lanes nvme: 16x1" */
static void event_group(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	text_switch(tb);
	print_attr_string(PRINT_TEXT, NULL, "lanes %s: ",
			  tb[PCIESW_A_GROUP_NAME]);
	print_attr_string(PRINT_TEXT, NULL, "%s", tb[PCIESW_A_GROUP_CONFIG]);
	if (print_is_json())
		print_group_attrs(nlh, tb, 0, NULL);
	cache_group_event(tb);
}

/* "pciesw0 ep add nvme4 on port 7 (nvme, gen5 x4, 4G)" */
static void event_ep(struct nlattr **tb, bool add)
{
	char b[32];

	text_switch(tb);
	print_attr_string(PRINT_TEXT, NULL, add ? "ep add %s" : "ep del %s",
			  tb[PCIESW_A_EP_NAME]);
	print_attr_u32(PRINT_TEXT, NULL, add ? " on port %s" : " from port %s",
		       tb[PCIESW_A_PORT_ID]);
	if (add) {
		print_string(PRINT_TEXT, NULL, " (%s,",
			     tb[PCIESW_A_EP_TYPE] ?
			     spec_name(&ep_type_names,
				       nla_get_u32(tb[PCIESW_A_EP_TYPE]),
				       b, sizeof(b)) : NULL);
		print_string(PRINT_TEXT, NULL, " %s",
			     tb[PCIESW_A_EP_MAX_SPEED] ?
			     SPEED(nla_get_u32(tb[PCIESW_A_EP_MAX_SPEED]), b) :
			     NULL);
		print_attr_u32(PRINT_TEXT, NULL, " x%s,",
			       tb[PCIESW_A_EP_MAX_WIDTH]);
		if (tb[PCIESW_A_EP_MEM_SIZE])
			size_text(b, sizeof(b),
				  nla_get_u64(tb[PCIESW_A_EP_MEM_SIZE]));
		print_string(PRINT_TEXT, NULL, " %s)",
			     tb[PCIESW_A_EP_MEM_SIZE] ? b : NULL);
	}
	if (print_is_json())
		print_ep_detail(tb);
	cache_ep_event(tb, add);
}

/* "pciesw0 ep nvme1: bus master off" */
static void event_ep_change(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_string(PRINT_TEXT, NULL, "ep %s:", tb[PCIESW_A_EP_NAME]);
	print_attr_flag(PRINT_TEXT, NULL, " bus master %s",
			tb[PCIESW_A_EP_BUS_MASTER], "on", "off");
	if (print_is_json())
		print_ep_detail(tb);
}

/* "pciesw0 ep nvme0: nvme fault temp, temperature 90 C, warning 0x02" */
static void event_nvme_fault(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_u32(PRINT_JSON, "ep-id", NULL, tb[PCIESW_A_EP_ID]);
	print_attr_string(PRINT_ANY, "ep-name", "ep %s:", tb[PCIESW_A_EP_NAME]);
	print_attr_enum(PRINT_ANY, "nvme-fault", " nvme fault %s",
			tb[PCIESW_A_NVME_FAULT], &nvme_fault_names);
	if (tb[PCIESW_A_NVME_LBA])
		print_attr_u64(PRINT_ANY, "nvme-lba", ", lba %s",
			       tb[PCIESW_A_NVME_LBA]);
	if (tb[PCIESW_A_NVME_COUNT])
		print_attr_u32(PRINT_ANY, "nvme-count", ", count %s",
			       tb[PCIESW_A_NVME_COUNT]);
	if (tb[PCIESW_A_NVME_TEMP])
		print_attr_temp(PRINT_ANY, "nvme-temp", ", temperature %s",
				tb[PCIESW_A_NVME_TEMP]);
	if (tb[PCIESW_A_NVME_SPARE])
		print_attr_u8(PRINT_ANY, "nvme-spare", ", spare %s%%",
			      tb[PCIESW_A_NVME_SPARE]);
	if (tb[PCIESW_A_NVME_READ_ONLY])
		print_attr_flag(PRINT_ANY, "nvme-read-only", ", media %s",
				tb[PCIESW_A_NVME_READ_ONLY], "read-only",
				"writable");
	print_attr_u8(PRINT_ANY, "nvme-critical-warning",
		      ", critical warning %s", tb[PCIESW_A_NVME_CRITICAL_WARNING]);
	print_attr_u64(PRINT_ANY, "nvme-media-errors", ", media errors %s",
		       tb[PCIESW_A_NVME_MEDIA_ERRORS]);
}

/* "pciesw0 port 3: link up gen5 x4 (l0)" */
static void event_port(const struct nlmsghdr *nlh, struct nlattr **tb,
		       struct transitions *h)
{
	struct changes c = { 0 };
	size_t i, first;

	first = cache_port_event(nlh, tb, h, &c);
	text_switch(tb);
	print_attr_u32(PRINT_TEXT, NULL, "port %s: ", tb[PCIESW_A_PORT_ID]);
	open_array("changes");
	for (i = 0; i < c.n; i++) {
		print_string(PRINT_JSON, NULL, NULL, c.token[i]);
		print_text("%s%s", i ? ", " : "", c.text[i]);
	}
	close_array();
	/* JSON: the port, with the transitions since its last event */
	if (print_is_json())
		print_port_detail(nlh, tb, first);
	changes_free(&c);
}

/*
 * "pciesw0 port 3: threshold bad-tlp reached (10 >= 10)"; without a port,
 * on the sum over the switch's ports: "pciesw0 all ports: ..."
 */
static void event_threshold(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_JSON, "port-id", NULL, tb[PCIESW_A_PORT_ID]);
	if (tb[PCIESW_A_PORT_ID])
		print_attr_u32(PRINT_TEXT, NULL, "port %s: ",
			       tb[PCIESW_A_PORT_ID]);
	else
		print_text("all ports: ");
	print_attr_enum(PRINT_ANY, "counter-id", "threshold %s reached",
			tb[PCIESW_A_COUNTER_ID], &counter_names);
	print_attr_u64(PRINT_ANY, "counter-value", " (%s",
		       tb[PCIESW_A_COUNTER_VALUE]);
	print_attr_u64(PRINT_ANY, "threshold-value", " >= %s)",
		       tb[PCIESW_A_THRESHOLD_VALUE]);
}

/* "pciesw0 sensor 0: warning alarm raised (96.0°C)" */
static void event_thermal_alarm(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_ANY, "sensor-id", "sensor %s: ",
		       tb[PCIESW_A_SENSOR_ID]);
	print_attr_enum(PRINT_ANY, "alarm-level", "%s alarm",
			tb[PCIESW_A_ALARM_LEVEL], &alarm_names);
	print_attr_flag(PRINT_ANY, "alarm-active", " %s",
			tb[PCIESW_A_ALARM_ACTIVE], "raised", "cleared");
	print_attr_temp(PRINT_ANY, "sensor-temp", " (%s)",
			tb[PCIESW_A_SENSOR_TEMP]);
}

/* The fields that change: V2 (configuration) and the writable ones. */
static void text_vpd_field(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	bool *first = arg;

	if (nl_parse_nest(nest, tb) < 0 || !tb[PCIESW_A_VPD_KEYWORD] ||
	    !tb[PCIESW_A_VPD_VALUE])
		return;
	if (strcmp(nla_get_string(tb[PCIESW_A_VPD_KEYWORD]), "V2") &&
	    !(tb[PCIESW_A_VPD_WRITABLE] &&
	      nla_get_u8(tb[PCIESW_A_VPD_WRITABLE])))
		return;
	print_attr_string(PRINT_TEXT, NULL, *first ? ": %s" : ", %s",
			  tb[PCIESW_A_VPD_KEYWORD]);
	print_attr_string(PRINT_TEXT, NULL, " \"%s\"", tb[PCIESW_A_VPD_VALUE]);
	*first = false;
}

/* CAP_SYS_ADMIN is effective: vpd-get may be asked */
static bool have_sys_admin(void)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ULL << 21);	/* CAP_SYS_ADMIN */
}

/*
 * "pciesw0 vpd changed: V2 "host:1x16 gpu:1x16 nvme:4x4", YA "rack7"".
 * The notification names the switch only (the VPD is root-only, anyone
 * may listen): the fields are asked for with vpd-get, by a monitor that
 * may.
 */
static void event_vpd(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct objs vpd = { 0 };
	struct nl_session *s;
	bool first = true;

	text_switch(tb);
	print_text("vpd changed");
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	if (!tb[PCIESW_A_VPD_FIELD] && tb[PCIESW_A_SWITCH_ID] &&
	    have_sys_admin() && !nl_session_open(&s)) {
		if (!objs_fetch(s, PCIESW_CMD_VPD_GET, false, true,
				nla_get_u32(tb[PCIESW_A_SWITCH_ID]), &vpd,
				"cannot read the VPD") && vpd.n == 1) {
			nlh = objs_hdr(&vpd, 0);
			tb = vpd.tb[0];
		}
		nl_session_close(s);
	}
	if (print_is_json())
		print_vpd_fields(nlh, tb);
	else
		nl_for_each_attr(nlh, PCIESW_A_VPD_FIELD, text_vpd_field,
				 &first);
	objs_free(&vpd);
}

/* "pciesw0 firmware: running 1.11.0 (partition B), 2 boots" */
static void event_fw(struct nlattr **tb)
{
	text_switch(tb);
	print_text("firmware: ");
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_ANY, "fw-running-version", "running %s",
			  tb[PCIESW_A_FW_RUNNING_VERSION]);
	print_attr_u32(PRINT_JSON, "fw-running-part", NULL,
		       tb[PCIESW_A_FW_RUNNING_PART]);
	if (tb[PCIESW_A_FW_RUNNING_PART])
		print_text(" (partition %c)",
			   nla_get_u32(tb[PCIESW_A_FW_RUNNING_PART]) ? 'B' : 'A');
	print_attr_flag(PRINT_ANY, "fw-pending", "%s",
			tb[PCIESW_A_FW_PENDING], ", other partition pending", "");
	print_attr_u64(PRINT_ANY, "fw-boots", ", %s boots",
		       tb[PCIESW_A_FW_BOOTS]);
}

/* "pciesw0 settings: host-p2p on pacing off mps 256 channels 4 (...)" */
static void event_switch_change(struct nlattr **tb)
{
	text_switch(tb);
	print_text("settings: ");
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_JSON, "switch-name", NULL,
			  tb[PCIESW_A_SWITCH_NAME]);
	print_switch_settings(tb);
}

static const char *const event_names[] = {
	[PCIESW_CMD_SWITCH_CREATE_NTF] = "switch-create",
	[PCIESW_CMD_SWITCH_DELETE_NTF] = "switch-delete",
	[PCIESW_CMD_GROUP_CHANGE_NTF] = "group-change",
	[PCIESW_CMD_PORT_CHANGE_NTF] = "port-change",
	[PCIESW_CMD_EP_ADD_NTF] = "ep-add",
	[PCIESW_CMD_EP_DEL_NTF] = "ep-del",
	[PCIESW_CMD_THRESHOLD_NTF] = "threshold",
	[PCIESW_CMD_THERMAL_ALARM_NTF] = "thermal-alarm",
	[PCIESW_CMD_VPD_CHANGE_NTF] = "vpd-change",
	[PCIESW_CMD_SWITCH_CHANGE_NTF] = "switch-change",
	[PCIESW_CMD_FW_CHANGE_NTF] = "fw-change",
	[PCIESW_CMD_EP_CHANGE_NTF] = "ep-change",
	[PCIESW_CMD_NVME_FAULT_NTF] = "nvme-fault",
};

/* The value of event @name ("port-change"), or -1. */
int event_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (event_names[i] && !strcmp(event_names[i], name))
			return i;
	return -1;
}

/* "switch-create, switch-delete, ...": the events' names; free() it. */
char *event_name_list(void)
{
	char *all = xstrdup(""), *next;
	size_t ev;

	for (ev = 0; ev < sizeof(event_names) / sizeof(event_names[0]); ev++) {
		if (!event_names[ev])
			continue;
		next = xasprintf("%s%s%s", all, *all ? ", " : "",
				 event_names[ev]);
		free(all);
		all = next;
	}
	return all;
}

/*
 * One notification of the pciesw family through the print layer: a JSON
 * object or a text line.  @shown false: muted, for the state only.  @wall:
 * stamped with the wall-clock time (-t).
 */
void print_event(const struct nlmsghdr *nlh, struct nlattr **tb,
		 struct transitions *h, bool shown, bool wall)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	uint8_t cmd = gnlh->cmd;
	const char *name = NULL;

	if (cmd < sizeof(event_names) / sizeof(event_names[0]))
		name = event_names[cmd];
	print_mute(!shown);
	event_begin(name, cmd, tb, wall);
	switch (cmd) {
	case PCIESW_CMD_SWITCH_CREATE_NTF:
	case PCIESW_CMD_SWITCH_DELETE_NTF:
		event_switch(tb, cmd == PCIESW_CMD_SWITCH_CREATE_NTF);
		break;
	case PCIESW_CMD_GROUP_CHANGE_NTF:
		event_group(nlh, tb);
		break;
	case PCIESW_CMD_PORT_CHANGE_NTF:
		event_port(nlh, tb, h);
		break;
	case PCIESW_CMD_EP_ADD_NTF:
	case PCIESW_CMD_EP_DEL_NTF:
		event_ep(tb, cmd == PCIESW_CMD_EP_ADD_NTF);
		break;
	case PCIESW_CMD_EP_CHANGE_NTF:
		event_ep_change(tb);
		break;
	case PCIESW_CMD_THRESHOLD_NTF:
		event_threshold(tb);
		break;
	case PCIESW_CMD_THERMAL_ALARM_NTF:
		event_thermal_alarm(tb);
		break;
	case PCIESW_CMD_VPD_CHANGE_NTF:
		event_vpd(nlh, tb);
		break;
	case PCIESW_CMD_SWITCH_CHANGE_NTF:
		event_switch_change(tb);
		break;
	case PCIESW_CMD_FW_CHANGE_NTF:
		event_fw(tb);
		break;
	case PCIESW_CMD_NVME_FAULT_NTF:
		event_nvme_fault(tb);
		break;
	default:
		/* a module newer than this switchctl */
		text_switch(tb);
		print_string(PRINT_TEXT, NULL, "%s", "event");
		print_uint(PRINT_TEXT, NULL, " %s (unknown to switchctl)", cmd);
		break;
	}
	print_text("\n");
	close_object();
	print_mute(false);
}
