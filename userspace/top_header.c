// SPDX-License-Identifier: GPL-2.0
/*
 * What the text and the screen show above a card's rows: the title line
 * of a snapshot and the header lines of a card (its identity, firmware
 * and PCI domain; the sensors' temperatures against their limits; DMA,
 * pacing and the thresholds crossed), each marked by how it stands out.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "names.h"
#include "objprint.h"
#include "top.h"

static void happend(struct hline *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void happend(struct hline *h, const char *fmt, ...)
{
	size_t n = strlen(h->text);
	va_list ap;

	if (n >= sizeof(h->text) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(h->text + n, sizeof(h->text) - n, fmt, ap);
	va_end(ap);
}

/* "core 45.1 host 43.0 ... °C (max 95.0 crit 105.0)", marked */
static void thermal_line(struct hline *h, uint32_t sw)
{
	long ti = find_obj(&top.cur.thermal, sw, UINT32_MAX, 0);
	struct nlattr *tb[NR_TA];
	const struct nlmsghdr *nlh;
	struct nlattr *a;
	int rem, max = 0, crit = 0;
	bool same = true, first = true;
	char t[32];

	snprintf(h->text, sizeof(h->text), "  temp");
	if (ti < 0) {
		happend(h, " -");
		return;
	}
	nlh = tobjs_hdr(&top.cur.thermal, ti);
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		const char *label;
		int tmax, tcrit, temp;

		if (nla_type(a) != PCIESW_A_THERMAL_SENSOR ||
		    nl_parse_nest_slots(a, ta_slot, tb, NR_TA) < 0 ||
		    !tb[TA_SENSOR_TEMP])
			continue;
		temp = nla_get_s32(tb[TA_SENSOR_TEMP]);
		tmax = tb[TA_SENSOR_MAX] ?
		       nla_get_s32(tb[TA_SENSOR_MAX]) : 0;
		tcrit = tb[TA_SENSOR_CRIT] ?
			nla_get_s32(tb[TA_SENSOR_CRIT]) : 0;
		if (!first && (tmax != max || tcrit != crit))
			same = false;
		max = tmax;
		crit = tcrit;
		label = tb[TA_SENSOR_LABEL] ?
			nla_get_string(tb[TA_SENSOR_LABEL]) : "?";
		if (!strncmp(label, "serdes-", 7))
			label += 7;
		temp_text(t, sizeof(t), temp);
		happend(h, " %s %s", label, t);
		if (flag_of(tb, TA_SENSOR_CRIT_ALARM) ||
		    (tcrit && temp >= tcrit)) {
			happend(h, " CRIT");
			h->mark = M_CRIT;
		} else if (flag_of(tb, TA_SENSOR_MAX_ALARM) ||
			   (tmax && temp >= tmax)) {
			happend(h, " WARN");
			if (h->mark < M_WARN)
				h->mark = M_WARN;
		}
		if (!same)
			happend(h, " (max %d.%d crit %d.%d)", tmax / 1000,
				abs(tmax % 1000) / 100, tcrit / 1000,
				abs(tcrit % 1000) / 100);
		first = false;
	}
	if (!first && same) {
		temp_text(t, sizeof(t), max);
		happend(h, "  max %s", t);
		temp_text(t, sizeof(t), crit);
		happend(h, " crit %s", t);
	}
}

/* The header lines of switch @sw (index @i of the snapshot's switches). */
size_t header_lines(size_t i, struct hline *h, size_t max)
{
	struct nlattr **sw = top.cur.sw.tb[i];
	uint32_t id = u32_or(sw, TA_SWITCH_ID, 0);
	const struct tobjs *th = &top.cur.thresholds;
	size_t n = 0, k;
	long fi;

	if (max < 3)
		return 0;
	memset(h, 0, max * sizeof(*h));
	happend(&h[0], "%s %s",
		sw[TA_SWITCH_NAME] ?
		nla_get_string(sw[TA_SWITCH_NAME]) : "?",
		sw[TA_SWITCH_PROFILE] ?
		nla_get_string(sw[TA_SWITCH_PROFILE]) : "?");
	if (sw[TA_SWITCH_SERIAL])
		happend(&h[0], "  serial %s",
			nla_get_string(sw[TA_SWITCH_SERIAL]));
	fi = find_obj(&top.info.fw, id, UINT32_MAX, i);
	if (fi >= 0 && top.info.fw.tb[fi][TA_FW_RUNNING_VERSION])
		happend(&h[0], "  fw %s",
			nla_get_string(top.info.fw.tb[fi][TA_FW_RUNNING_VERSION]));
	if (flag_of(sw, TA_SWITCH_PCI_VIEW))
		happend(&h[0], "  domain %x",
			u32_or(sw, TA_SWITCH_PCI_DOMAIN, 0));
	else
		happend(&h[0], "  pci-view off");
	n++;
	thermal_line(&h[n++], id);
	happend(&h[n], "  dma in flight %u  pacing %s",
		u32_or(sw, TA_SWITCH_DMA_INFLIGHT, 0),
		flag_of(sw, TA_SWITCH_DMA_PACING) ? "on" : "off");
	for (k = 0; k < th->n; k++) {
		struct nlattr **tb = th->tb[k];
		const char *name;

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != id ||
		    !flag_of(tb, TA_THRESHOLD_CROSSED))
			continue;
		name = enum_spec(&counter_names,
				 u32_or(tb, TA_COUNTER_ID, 0));
		if (tb[TA_PORT_ID])
			happend(&h[n], "  threshold %s port %u!", name ? name : "?",
				nla_get_u32(tb[TA_PORT_ID]));
		else
			happend(&h[n], "  threshold %s switch!", name ? name : "?");
		h[n].mark = M_CRIT;
	}
	n++;
	return n;
}

/* "switchctl top  12:00:01  2 switches  every 1.0 s" */
void title_text(char *buf, size_t len)
{
	char stamp[16];
	struct tm tm;
	time_t t = time(NULL);

	if (!localtime_r(&t, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm))
		snprintf(stamp, sizeof(stamp), "?");
	if (!top.loaded)
		snprintf(buf, len,
			 "switchctl top - %s  pciesw module not loaded: waiting for it",
			 stamp);
	else
		snprintf(buf, len,
			 "switchctl top - %s  %zu switch%s  every %" PRId64 ".%" PRId64 " s",
			 stamp, top.cur.sw.n, top.cur.sw.n == 1 ? "" : "es",
			 top.o.interval_ms / 1000,
			 top.o.interval_ms % 1000 / 100);
}
