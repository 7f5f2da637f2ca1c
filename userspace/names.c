// SPDX-License-Identifier: GPL-2.0
/*
 * Enum <-> string tables (see names.h), indexed by the uAPI values through
 * designated initializers.  The static asserts fail the build when the uAPI
 * grows an entry that has no name here yet.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/pciesw.h>

#include "names.h"
#include "util.h"

#define TABLE(arr) { .names = (arr), .n = sizeof(arr) / sizeof((arr)[0]) }

static const struct enum_name group_types[] = {
	[PCIESW_GROUP_TYPE_HOST] = { "host", "host" },
	[PCIESW_GROUP_TYPE_GPU] = { "gpu", "gpu" },
	[PCIESW_GROUP_TYPE_NVME] = { "nvme", "nvme" },
};

static const struct enum_name port_roles[] = {
	[PCIESW_PORT_ROLE_UPSTREAM] = { "upstream", "upstream" },
	[PCIESW_PORT_ROLE_DOWNSTREAM] = { "downstream", "downstream" },
};

/* text: the names the PCIe spec uses for the states */
static const struct enum_name ltssms[] = {
	[PCIESW_LTSSM_DETECT] = { "detect", "Detect" },
	[PCIESW_LTSSM_POLLING] = { "polling", "Polling" },
	[PCIESW_LTSSM_CONFIGURATION] = { "configuration", "Configuration" },
	[PCIESW_LTSSM_L0] = { "l0", "L0" },
	[PCIESW_LTSSM_RECOVERY] = { "recovery", "Recovery" },
	[PCIESW_LTSSM_L1] = { "l1", "L1" },
	[PCIESW_LTSSM_DISABLED] = { "disabled", "Disabled" },
	[PCIESW_LTSSM_HOT_RESET] = { "hot-reset", "Hot-Reset" },
};

static const struct enum_name link_speeds[] = {
	[PCIESW_LINK_SPEED_NONE] = { "none", "-" },
	[PCIESW_LINK_SPEED_GEN1] = { "gen1", "2.5GT/s" },
	[PCIESW_LINK_SPEED_GEN2] = { "gen2", "5GT/s" },
	[PCIESW_LINK_SPEED_GEN3] = { "gen3", "8GT/s" },
	[PCIESW_LINK_SPEED_GEN4] = { "gen4", "16GT/s" },
	[PCIESW_LINK_SPEED_GEN5] = { "gen5", "32GT/s" },
};

static const struct enum_name ep_types[] = {
	[PCIESW_EP_TYPE_GPU] = { "gpu", "gpu" },
	[PCIESW_EP_TYPE_NVME] = { "nvme", "nvme" },
	[PCIESW_EP_TYPE_GENERIC] = { "generic", "generic" },
};

/* text: the spec names too (sysfs has them with '_' for '-') */
static const struct enum_name counters[] = {
	[PCIESW_COUNTER_RECEIVER_ERROR] = { "receiver-error", "receiver-error" },
	[PCIESW_COUNTER_BAD_TLP] = { "bad-tlp", "bad-tlp" },
	[PCIESW_COUNTER_BAD_DLLP] = { "bad-dllp", "bad-dllp" },
	[PCIESW_COUNTER_REPLAY_NUM_ROLLOVER] = { "replay-num-rollover", "replay-num-rollover" },
	[PCIESW_COUNTER_REPLAY_TIMER_TIMEOUT] = { "replay-timer-timeout", "replay-timer-timeout" },
	[PCIESW_COUNTER_ADVISORY_NON_FATAL] = { "advisory-non-fatal", "advisory-non-fatal" },
	[PCIESW_COUNTER_CORRECTED_INTERNAL] = { "corrected-internal", "corrected-internal" },
	[PCIESW_COUNTER_HEADER_LOG_OVERFLOW] = { "header-log-overflow", "header-log-overflow" },
	[PCIESW_COUNTER_DATA_LINK_PROTOCOL] = { "data-link-protocol", "data-link-protocol" },
	[PCIESW_COUNTER_SURPRISE_DOWN] = { "surprise-down", "surprise-down" },
	[PCIESW_COUNTER_POISONED_TLP] = { "poisoned-tlp", "poisoned-tlp" },
	[PCIESW_COUNTER_FLOW_CONTROL_PROTOCOL] = { "flow-control-protocol", "flow-control-protocol" },
	[PCIESW_COUNTER_COMPLETION_TIMEOUT] = { "completion-timeout", "completion-timeout" },
	[PCIESW_COUNTER_COMPLETER_ABORT] = { "completer-abort", "completer-abort" },
	[PCIESW_COUNTER_UNEXPECTED_COMPLETION] = { "unexpected-completion", "unexpected-completion" },
	[PCIESW_COUNTER_RECEIVER_OVERFLOW] = { "receiver-overflow", "receiver-overflow" },
	[PCIESW_COUNTER_MALFORMED_TLP] = { "malformed-tlp", "malformed-tlp" },
	[PCIESW_COUNTER_ECRC] = { "ecrc", "ecrc" },
	[PCIESW_COUNTER_UNSUPPORTED_REQUEST] = { "unsupported-request", "unsupported-request" },
	[PCIESW_COUNTER_ACS_VIOLATION] = { "acs-violation", "acs-violation" },
	[PCIESW_COUNTER_INGRESS_POSTED_BYTES] = { "ingress-posted-bytes", "ingress-posted-bytes" },
	[PCIESW_COUNTER_INGRESS_NON_POSTED_BYTES] = { "ingress-non-posted-bytes", "ingress-non-posted-bytes" },
	[PCIESW_COUNTER_INGRESS_COMPLETION_BYTES] = { "ingress-completion-bytes", "ingress-completion-bytes" },
	[PCIESW_COUNTER_EGRESS_POSTED_BYTES] = { "egress-posted-bytes", "egress-posted-bytes" },
	[PCIESW_COUNTER_EGRESS_NON_POSTED_BYTES] = { "egress-non-posted-bytes", "egress-non-posted-bytes" },
	[PCIESW_COUNTER_EGRESS_COMPLETION_BYTES] = { "egress-completion-bytes", "egress-completion-bytes" },
	[PCIESW_COUNTER_INGRESS_POSTED_TLPS] = { "ingress-posted-tlps", "ingress-posted-tlps" },
	[PCIESW_COUNTER_INGRESS_NON_POSTED_TLPS] = { "ingress-non-posted-tlps", "ingress-non-posted-tlps" },
	[PCIESW_COUNTER_INGRESS_COMPLETION_TLPS] = { "ingress-completion-tlps", "ingress-completion-tlps" },
	[PCIESW_COUNTER_EGRESS_POSTED_TLPS] = { "egress-posted-tlps", "egress-posted-tlps" },
	[PCIESW_COUNTER_EGRESS_NON_POSTED_TLPS] = { "egress-non-posted-tlps", "egress-non-posted-tlps" },
	[PCIESW_COUNTER_EGRESS_COMPLETION_TLPS] = { "egress-completion-tlps", "egress-completion-tlps" },
};

static const struct enum_name alarms[] = {
	[PCIESW_ALARM_WARNING] = { "warning", "warning" },
	[PCIESW_ALARM_CRITICAL] = { "critical", "critical" },
};

static const struct enum_name p2p_routes[] = {
	[PCIESW_P2P_ROUTE_DIRECT] = { "direct", "direct" },
	[PCIESW_P2P_ROUTE_HOST_BRIDGE] = { "host-bridge", "through the host bridge" },
	[PCIESW_P2P_ROUTE_REFUSED] = { "refused", "refused" },
};

/* text = spec name: scripts grep the status of dma copy either way */
static const struct enum_name dma_statuses[] = {
	[PCIESW_DMA_STATUS_OK] = { "ok", "ok" },
	[PCIESW_DMA_STATUS_P2P_REFUSED] = { "p2p-refused", "p2p-refused" },
	[PCIESW_DMA_STATUS_UNPLUGGED] = { "unplugged", "unplugged" },
	[PCIESW_DMA_STATUS_CANCELLED] = { "cancelled", "cancelled" },
	[PCIESW_DMA_STATUS_LINK_DOWN] = { "link-down", "link-down" },
	[PCIESW_DMA_STATUS_NOMEM] = { "nomem", "nomem" },
};

#define COVERS(arr, max) \
	_Static_assert(sizeof(arr) / sizeof((arr)[0]) == (max) + 1, \
		       #arr " does not name every value up to " #max)
COVERS(group_types, PCIESW_GROUP_TYPE_MAX);
COVERS(port_roles, PCIESW_PORT_ROLE_MAX);
COVERS(ltssms, PCIESW_LTSSM_MAX);
COVERS(link_speeds, PCIESW_LINK_SPEED_MAX);
COVERS(ep_types, PCIESW_EP_TYPE_MAX);
COVERS(counters, PCIESW_COUNTER_MAX);
COVERS(alarms, PCIESW_ALARM_MAX);
COVERS(p2p_routes, PCIESW_P2P_ROUTE_MAX);
COVERS(dma_statuses, PCIESW_DMA_STATUS_MAX);

const struct enum_table group_type_names = TABLE(group_types);
const struct enum_table port_role_names = TABLE(port_roles);
const struct enum_table ltssm_names = TABLE(ltssms);
const struct enum_table link_speed_names = TABLE(link_speeds);
const struct enum_table ep_type_names = TABLE(ep_types);
const struct enum_table counter_names = TABLE(counters);
const struct enum_table alarm_names = TABLE(alarms);
const struct enum_table p2p_route_names = TABLE(p2p_routes);
const struct enum_table dma_status_names = TABLE(dma_statuses);

const struct enum_name *enum_lookup(const struct enum_table *t, uint32_t v)
{
	if (v >= t->n || !t->names[v].spec)
		return NULL;
	return &t->names[v];
}

const char *enum_spec(const struct enum_table *t, uint32_t v)
{
	const struct enum_name *n = enum_lookup(t, v);

	return n ? n->spec : NULL;
}

bool enum_parse(const struct enum_table *t, const char *s, uint32_t min,
		uint32_t *v)
{
	size_t i;

	for (i = min; i < t->n; i++) {
		const struct enum_name *n = &t->names[i];

		if (n->spec && (!strcasecmp(s, n->spec) ||
				!strcasecmp(s, n->text))) {
			*v = i;
			return true;
		}
	}
	return false;
}

char *enum_choices(const struct enum_table *t, uint32_t min)
{
	char *s = xstrdup(""), *next;
	size_t i, left = 0;

	for (i = min; i < t->n; i++)
		if (t->names[i].spec)
			left++;
	for (i = min; i < t->n; i++) {
		if (!t->names[i].spec)
			continue;
		left--;
		next = xasprintf("%s%s%s", s, t->names[i].spec,
				 !left ? "" : left == 1 ? " or " : ", ");
		free(s);
		s = next;
	}
	return s;
}

/* The spec's attribute names, for messages about a request's attributes. */
static const char *const attr_names[] = {
	[PCIESW_A_PAD] = "pad",
	[PCIESW_A_SWITCH_ID] = "switch-id",
	[PCIESW_A_SWITCH_NAME] = "switch-name",
	[PCIESW_A_SWITCH_PROFILE] = "switch-profile",
	[PCIESW_A_SWITCH_DESCRIPTION] = "switch-description",
	[PCIESW_A_SWITCH_LANES] = "switch-lanes",
	[PCIESW_A_SWITCH_SERIAL] = "switch-serial",
	[PCIESW_A_SWITCH_NR_GROUPS] = "switch-nr-groups",
	[PCIESW_A_SWITCH_NR_PORTS] = "switch-nr-ports",
	[PCIESW_A_GROUP_ID] = "group-id",
	[PCIESW_A_GROUP_NAME] = "group-name",
	[PCIESW_A_GROUP_TYPE] = "group-type",
	[PCIESW_A_GROUP_FIRST_LANE] = "group-first-lane",
	[PCIESW_A_GROUP_NR_LANES] = "group-nr-lanes",
	[PCIESW_A_GROUP_CONFIG] = "group-config",
	[PCIESW_A_GROUP_ALLOWED_CONFIG] = "group-allowed-config",
	[PCIESW_A_PORT_ID] = "port-id",
	[PCIESW_A_PORT_ROLE] = "port-role",
	[PCIESW_A_PORT_FIRST_LANE] = "port-first-lane",
	[PCIESW_A_PORT_NR_LANES] = "port-nr-lanes",
	[PCIESW_A_PORT_LTSSM] = "port-ltssm",
	[PCIESW_A_PORT_LINK_ACTIVE] = "port-link-active",
	[PCIESW_A_PORT_MAX_SPEED] = "port-max-speed",
	[PCIESW_A_PORT_MAX_WIDTH] = "port-max-width",
	[PCIESW_A_PORT_TARGET_SPEED] = "port-target-speed",
	[PCIESW_A_PORT_SPEED] = "port-speed",
	[PCIESW_A_PORT_WIDTH] = "port-width",
	[PCIESW_A_PORT_DEGRADED] = "port-degraded",
	[PCIESW_A_PORT_ACS_REDIRECT] = "port-acs-redirect",
	[PCIESW_A_PORT_ENABLED] = "port-enabled",
	[PCIESW_A_PORT_FAILED_LANES] = "port-failed-lanes",
	[PCIESW_A_PORT_SURPRISE_DOWN] = "port-surprise-down",
	[PCIESW_A_PORT_RETRAIN] = "port-retrain",
	[PCIESW_A_PORT_HOT_RESET] = "port-hot-reset",
	[PCIESW_A_PORT_SURPRISE_DOWN_NOW] = "port-surprise-down-now",
	[PCIESW_A_PORT_LTSSM_TRANSITION] = "port-ltssm-transition",
	[PCIESW_A_TRANSITION_TIME] = "transition-time",
	[PCIESW_A_TRANSITION_FROM] = "transition-from",
	[PCIESW_A_TRANSITION_TO] = "transition-to",
	[PCIESW_A_EP_ID] = "ep-id",
	[PCIESW_A_EP_NAME] = "ep-name",
	[PCIESW_A_EP_TYPE] = "ep-type",
	[PCIESW_A_EP_MAX_SPEED] = "ep-max-speed",
	[PCIESW_A_EP_MAX_WIDTH] = "ep-max-width",
	[PCIESW_A_EP_MEM_SIZE] = "ep-mem-size",
	[PCIESW_A_PORT_BER] = "port-ber",
	[PCIESW_A_COUNTER] = "counter",
	[PCIESW_A_COUNTER_ID] = "counter-id",
	[PCIESW_A_COUNTER_VALUE] = "counter-value",
	[PCIESW_A_THRESHOLD_VALUE] = "threshold-value",
	[PCIESW_A_THRESHOLD_CROSSED] = "threshold-crossed",
	[PCIESW_A_INJECT_COUNT] = "inject-count",
	[PCIESW_A_THERMAL_AMBIENT] = "thermal-ambient",
	[PCIESW_A_THERMAL_TIME_CONSTANT] = "thermal-time-constant",
	[PCIESW_A_THERMAL_HIGHEST] = "thermal-highest",
	[PCIESW_A_THERMAL_SENSOR] = "thermal-sensor",
	[PCIESW_A_SENSOR_ID] = "sensor-id",
	[PCIESW_A_SENSOR_LABEL] = "sensor-label",
	[PCIESW_A_SENSOR_TEMP] = "sensor-temp",
	[PCIESW_A_SENSOR_MAX] = "sensor-max",
	[PCIESW_A_SENSOR_CRIT] = "sensor-crit",
	[PCIESW_A_SENSOR_HYST] = "sensor-hyst",
	[PCIESW_A_SENSOR_MAX_ALARM] = "sensor-max-alarm",
	[PCIESW_A_SENSOR_CRIT_ALARM] = "sensor-crit-alarm",
	[PCIESW_A_SENSOR_OVERRIDE] = "sensor-override",
	[PCIESW_A_SENSOR_OVERRIDE_CLEAR] = "sensor-override-clear",
	[PCIESW_A_ALARM_LEVEL] = "alarm-level",
	[PCIESW_A_ALARM_ACTIVE] = "alarm-active",
	[PCIESW_A_VPD_IMAGE] = "vpd-image",
	[PCIESW_A_VPD_ID_STRING] = "vpd-id-string",
	[PCIESW_A_VPD_FIELD] = "vpd-field",
	[PCIESW_A_VPD_KEYWORD] = "vpd-keyword",
	[PCIESW_A_VPD_VALUE] = "vpd-value",
	[PCIESW_A_VPD_WRITABLE] = "vpd-writable",
	[PCIESW_A_VPD_RW_FREE] = "vpd-rw-free",
	[PCIESW_A_EP_MEM_RESIDENT] = "ep-mem-resident",
	[PCIESW_A_SWITCH_HOST_P2P] = "switch-host-p2p",
	[PCIESW_A_SWITCH_DMA_PACING] = "switch-dma-pacing",
	[PCIESW_A_SWITCH_MPS] = "switch-mps",
	[PCIESW_A_SWITCH_DMA_CHANNELS] = "switch-dma-channels",
	[PCIESW_A_SWITCH_DMA_INFLIGHT] = "switch-dma-inflight",
	[PCIESW_A_PORT_BANDWIDTH] = "port-bandwidth",
	[PCIESW_A_PEER_EP_ID] = "peer-ep-id",
	[PCIESW_A_PEER_EP_NAME] = "peer-ep-name",
	[PCIESW_A_P2P_ROUTE] = "p2p-route",
	[PCIESW_A_P2P_DISTANCE] = "p2p-distance",
	[PCIESW_A_P2P_PORT] = "p2p-port",
	[PCIESW_A_P2P_BANDWIDTH] = "p2p-bandwidth",
	[PCIESW_A_P2P_REDIRECT_PORT] = "p2p-redirect-port",
	[PCIESW_A_SWITCH_PCI_VIEW] = "switch-pci-view",
	[PCIESW_A_SWITCH_PCI_DOMAIN] = "switch-pci-domain",
	[PCIESW_A_PORT_PCI_NAME] = "port-pci-name",
	[PCIESW_A_EP_PCI_NAME] = "ep-pci-name",
};

/*
 * Not asserted complete like the enums above: this only names attributes in
 * error messages, and the uAPI grows attributes switchctl never sends.
 */
const char *attr_name(uint32_t type)
{
	if (type >= sizeof(attr_names) / sizeof(attr_names[0]) ||
	    !attr_names[type])
		return "(unknown)";
	return attr_names[type];
}
