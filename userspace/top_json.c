// SPDX-License-Identifier: GPL-2.0
/*
 * top's batch JSON (-j): one object per snapshot per line, every card
 * with its attributes, sensors, thresholds crossed, ports and endpoints,
 * then the events since the snapshot before as monitor -j prints them.
 */

#include <stdlib.h>

#include "attr.h"
#include "cmd.h"
#include "names.h"
#include "print.h"
#include "top.h"
#include "util.h"

void json_attr_str(const char *key, const struct nlattr *a)
{
	print_attr_string(PRINT_JSON, key, NULL, a);
}

void json_rate(const char *key, bool has, uint64_t v)
{
	if (has)
		print_uint(PRINT_JSON, key, NULL, v);
	else
		print_null(PRINT_JSON, key, NULL);
}

static void json_thermal(uint32_t id)
{
	long ti = find_obj(&top.cur.thermal, id, UINT32_MAX, 0);

	if (ti < 0)
		return;
	print_attr_s32(PRINT_JSON, "thermal-highest", NULL,
		       top.cur.thermal.tb[ti][TA_THERMAL_HIGHEST]);
	open_array("thermal-sensor");
	nl_for_each_attr(tobjs_hdr(&top.cur.thermal, ti),
			 PCIESW_A_THERMAL_SENSOR, print_thermal_sensor, NULL);
	close_array();
}

/* A row of table @t: the members of its columns, in their order. */
static void json_row(const struct table *t, const void *row)
{
	size_t c;

	open_object(NULL);
	for (c = 0; c < t->n; c++)
		t->cols[c].json(row);
	close_object();
}

static void json_switch(size_t i)
{
	struct nlattr **sw = top.cur.sw.tb[i];
	uint32_t id = u32_or(sw, TA_SWITCH_ID, 0);
	const struct tobjs *th = &top.cur.thresholds;
	struct port_row *rows;
	struct ep_row *eps;
	size_t n, k;
	long fi;

	open_object(NULL);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, sw[TA_SWITCH_ID]);
	json_attr_str("switch-name", sw[TA_SWITCH_NAME]);
	json_attr_str("switch-profile", sw[TA_SWITCH_PROFILE]);
	if (sw[TA_SWITCH_SERIAL])
		json_attr_str("switch-serial", sw[TA_SWITCH_SERIAL]);
	fi = find_obj(&top.info.fw, id, UINT32_MAX, i);
	json_attr_str("fw-running-version",
		      fi >= 0 ? top.info.fw.tb[fi][TA_FW_RUNNING_VERSION] :
		      NULL);
	print_attr_flag(PRINT_JSON, "switch-pci-view", NULL,
			sw[TA_SWITCH_PCI_VIEW], NULL, NULL);
	print_attr_u32(PRINT_JSON, "switch-pci-domain", NULL,
		       sw[TA_SWITCH_PCI_DOMAIN]);
	print_attr_u32(PRINT_JSON, "switch-dma-inflight", NULL,
		       sw[TA_SWITCH_DMA_INFLIGHT]);
	print_attr_flag(PRINT_JSON, "switch-dma-pacing", NULL,
			sw[TA_SWITCH_DMA_PACING], NULL, NULL);
	json_thermal(id);
	open_array("thresholds-crossed");
	for (k = 0; k < th->n; k++) {
		struct nlattr **tb = th->tb[k];

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != id ||
		    !flag_of(tb, TA_THRESHOLD_CROSSED))
			continue;
		open_object(NULL);
		print_attr_u32(PRINT_JSON, "port-id", NULL, tb[TA_PORT_ID]);
		print_attr_enum(PRINT_JSON, "counter-id", NULL,
				tb[TA_COUNTER_ID], &counter_names);
		close_object();
	}
	close_array();
	open_array("ports");
	n = port_rows(id, &rows, false);
	for (k = 0; k < n; k++)
		json_row(&port_table, &rows[k]);
	free(rows);
	close_array();
	open_array("endpoints");
	n = ep_rows(id, true, &eps);
	for (k = 0; k < n; k++)
		json_row(&ep_table, &eps[k]);
	free(eps);
	close_array();
	close_object();
}

void batch_json(bool ok)
{
	size_t i;

	open_object(NULL);
	print_uint(PRINT_JSON, "time", NULL, ok ? top.cur.ns : now_ns());
	if (ok && top.have_prev)
		print_uint(PRINT_JSON, "interval-ns", NULL,
			   top.cur.ns - top.prev.ns);
	else
		print_null(PRINT_JSON, "interval-ns", NULL);
	print_bool(PRINT_JSON, "module-loaded", NULL, top.loaded, NULL);
	open_array("switches");
	for (i = 0; ok && i < top.cur.sw.n; i++)
		json_switch(i);
	close_array();
	print_pending();
	close_object();
}
