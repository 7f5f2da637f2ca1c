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
#include "spec_names.h"
#include "util.h"

/*
 * The spec names come from the spec (spec_names.h, generated at build
 * time); the text forms people read, where they differ, are here.
 */
#define TABLE(sp, tx) { .spec = (sp), .text = (tx), \
			.n = sizeof(sp) / sizeof((sp)[0]) }

/* text: the names the PCIe spec uses for the states */
static const char *const ltssm_text[] = {
	[PCIESW_LTSSM_DETECT] = "Detect",
	[PCIESW_LTSSM_POLLING] = "Polling",
	[PCIESW_LTSSM_CONFIGURATION] = "Configuration",
	[PCIESW_LTSSM_L0] = "L0",
	[PCIESW_LTSSM_RECOVERY] = "Recovery",
	[PCIESW_LTSSM_L1] = "L1",
	[PCIESW_LTSSM_DISABLED] = "Disabled",
	[PCIESW_LTSSM_HOT_RESET] = "Hot-Reset",
};

static const char *const link_speed_text[] = {
	[PCIESW_LINK_SPEED_NONE] = "-",
	[PCIESW_LINK_SPEED_GEN1] = "2.5GT/s",
	[PCIESW_LINK_SPEED_GEN2] = "5GT/s",
	[PCIESW_LINK_SPEED_GEN3] = "8GT/s",
	[PCIESW_LINK_SPEED_GEN4] = "16GT/s",
	[PCIESW_LINK_SPEED_GEN5] = "32GT/s",
};

static const char *const p2p_route_text[] = {
	[PCIESW_P2P_ROUTE_DIRECT] = "direct",
	[PCIESW_P2P_ROUTE_HOST_BRIDGE] = "through the host bridge",
	[PCIESW_P2P_ROUTE_REFUSED] = "refused",
};

/*
 * The uAPI grows an entry the spec lacks (or the other way round): the
 * build fails here rather than print a number for it.
 */
#define COVERS(arr, max) \
	_Static_assert(sizeof(arr) / sizeof((arr)[0]) == (max) + 1, \
		       #arr " does not name every value up to " #max)
COVERS(spec_enum_group_type, PCIESW_GROUP_TYPE_MAX);
COVERS(spec_enum_port_role, PCIESW_PORT_ROLE_MAX);
COVERS(spec_enum_ltssm, PCIESW_LTSSM_MAX);
COVERS(ltssm_text, PCIESW_LTSSM_MAX);
COVERS(spec_enum_link_speed, PCIESW_LINK_SPEED_MAX);
COVERS(link_speed_text, PCIESW_LINK_SPEED_MAX);
COVERS(spec_enum_ep_type, PCIESW_EP_TYPE_MAX);
COVERS(spec_enum_counter, PCIESW_COUNTER_MAX);
COVERS(spec_enum_alarm, PCIESW_ALARM_MAX);
COVERS(spec_enum_p2p_route, PCIESW_P2P_ROUTE_MAX);
COVERS(p2p_route_text, PCIESW_P2P_ROUTE_MAX);
COVERS(spec_enum_dma_status, PCIESW_DMA_STATUS_MAX);
COVERS(spec_enum_ep_aer_error, PCIESW_EP_AER_ERROR_MAX);

/* text NULL: the text form is the spec name */
const struct enum_table group_type_names = TABLE(spec_enum_group_type, NULL);
const struct enum_table port_role_names = TABLE(spec_enum_port_role, NULL);
const struct enum_table ltssm_names = TABLE(spec_enum_ltssm, ltssm_text);
const struct enum_table link_speed_names =
	TABLE(spec_enum_link_speed, link_speed_text);
const struct enum_table ep_type_names = TABLE(spec_enum_ep_type, NULL);
/* counters: sysfs has them with '_' for '-'; scripts grep either */
const struct enum_table counter_names = TABLE(spec_enum_counter, NULL);
const struct enum_table alarm_names = TABLE(spec_enum_alarm, NULL);
const struct enum_table p2p_route_names =
	TABLE(spec_enum_p2p_route, p2p_route_text);
/* text = spec name: scripts grep the status of dma copy either way */
const struct enum_table dma_status_names = TABLE(spec_enum_dma_status, NULL);
/* text = spec name: empty, valid, invalid */
const struct enum_table fw_state_names = TABLE(spec_enum_fw_state, NULL);
/* text = spec name: media-error, temp, spare, read-only, self-test-fail */
const struct enum_table nvme_fault_names = TABLE(spec_enum_nvme_fault, NULL);
/* text = spec name: completion-timeout, ..., advisory-non-fatal */
const struct enum_table ep_aer_error_names = TABLE(spec_enum_ep_aer_error, NULL);

bool enum_lookup(const struct enum_table *t, uint32_t v, struct enum_name *n)
{
	if (v >= t->n || !t->spec[v])
		return false;
	n->spec = t->spec[v];
	n->text = t->text && t->text[v] ? t->text[v] : t->spec[v];
	return true;
}

const char *enum_spec(const struct enum_table *t, uint32_t v)
{
	return v < t->n ? t->spec[v] : NULL;
}

bool enum_parse(const struct enum_table *t, const char *s, uint32_t min,
		uint32_t *v)
{
	size_t i;

	for (i = min; i < t->n; i++) {
		struct enum_name n;

		if (enum_lookup(t, i, &n) && (!strcasecmp(s, n.spec) ||
					      !strcasecmp(s, n.text))) {
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
		if (t->spec[i])
			left++;
	for (i = min; i < t->n; i++) {
		if (!t->spec[i])
			continue;
		left--;
		next = xasprintf("%s%s%s", s, t->spec[i],
				 !left ? "" : left == 1 ? " or " : ", ");
		free(s);
		s = next;
	}
	return s;
}

/*
 * The spec's attribute names (spec_names.h), for messages about a
 * request's attributes; an attribute newer than this switchctl has none.
 */
const char *attr_name(uint32_t type)
{
	if (type >= sizeof(spec_attr_names) / sizeof(spec_attr_names[0]) ||
	    !spec_attr_names[type])
		return "(unknown)";
	return spec_attr_names[type];
}
