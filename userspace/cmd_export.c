// SPDX-License-Identifier: GPL-2.0
/*
 * switchctl export: the cards' state in the Prometheus text exposition
 * format, for node_exporter's textfile collector (or any scraper that
 * reads a file or a command's output).
 *
 * Naming follows the Prometheus conventions: base units in the name
 * (_transfers_per_second, _lanes, _celsius, _bytes), _total for counters,
 * _info for inventory (value 1, the facts in labels).  Every family has
 * its HELP and TYPE lines and all its samples together.
 */

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "names.h"
#include "objprint.h"
#include "objs.h"
#include "util.h"

/* What one export run fetched: all parsed before anything is written. */
struct export_data {
	struct objs sw, ports, ctr, thr, thermal, vpd, eps;
};

static void export_data_free(struct export_data *d)
{
	objs_free(&d->sw);
	objs_free(&d->ports);
	objs_free(&d->ctr);
	objs_free(&d->thr);
	objs_free(&d->thermal);
	objs_free(&d->vpd);
	objs_free(&d->eps);
}

/* A label value, escaped as the text format wants (\\, \", \n). */
static void put_label_value(FILE *f, const char *v)
{
	fputc('"', f);
	for (; v && *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static const char *str_attr(const struct nlattr *a)
{
	return a ? nla_get_string((struct nlattr *)a) : "";
}

static uint32_t u32_attr(const struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

/* The name of the switch an object belongs to: "pciesw3". */
static void obj_switch(char *buf, size_t len, struct nlattr **tb)
{
	switch_name(buf, len, u32_attr(tb[PCIESW_A_SWITCH_ID]));
}

/* {switch="pciesw0",port="3" */
static void port_labels(FILE *f, struct nlattr **tb)
{
	char sw[16];

	obj_switch(sw, sizeof(sw), tb);
	fprintf(f, "{switch=\"%s\",port=\"%u\"", sw,
		u32_attr(tb[PCIESW_A_PORT_ID]));
}

/* Speeds in transfers per second (base unit), 0 for none/unknown. */
static uint64_t speed_tps(const struct nlattr *a)
{
	static const uint64_t tps[] = {
		[PCIESW_LINK_SPEED_GEN1] = 2500000000ULL,
		[PCIESW_LINK_SPEED_GEN2] = 5000000000ULL,
		[PCIESW_LINK_SPEED_GEN3] = 8000000000ULL,
		[PCIESW_LINK_SPEED_GEN4] = 16000000000ULL,
		[PCIESW_LINK_SPEED_GEN5] = 32000000000ULL,
	};
	uint32_t v = u32_attr(a);

	return v < sizeof(tps) / sizeof(tps[0]) ? tps[v] : 0;
}

/* One gauge or counter per port, from a u8/u32/u64 attribute or a function. */
enum port_val { PV_U8, PV_U32, PV_U64, PV_SPEED };

static void port_family(FILE *f, const struct export_data *d,
			const char *name, const char *type, const char *help,
			int attr, enum port_val kind)
{
	size_t i;

	family(f, name, type, help);
	for (i = 0; i < d->ports.n; i++) {
		struct nlattr **tb = d->ports.tb[i];
		const struct nlattr *a = tb[attr];
		uint64_t v;

		if (!a)
			continue;
		switch (kind) {
		case PV_U8:
			v = nla_get_u8(a);
			break;
		case PV_U32:
			v = nla_get_u32(a);
			break;
		case PV_U64:
			v = nla_get_u64(a);
			break;
		default:
			v = speed_tps(a);
			break;
		}
		fputs(name, f);
		port_labels(f, tb);
		fprintf(f, "} %llu\n", (unsigned long long)v);
	}
}

static void export_switches(FILE *f, const struct export_data *d)
{
	char buf[32];
	size_t i;

	family(f, "pciesw_switch_info", "gauge",
	       "Switch card inventory (value 1): profile, serial, PCI domain.");
	for (i = 0; i < d->sw.n; i++) {
		struct nlattr **tb = d->sw.tb[i];

		fputs("pciesw_switch_info{switch=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_SWITCH_NAME]));
		fputs(",profile=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_SWITCH_PROFILE]));
		fputs(",serial=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_SWITCH_SERIAL]));
		fputs(",pci_domain=", f);
		buf[0] = '\0';
		if (tb[PCIESW_A_SWITCH_PCI_DOMAIN] &&
		    tb[PCIESW_A_SWITCH_PCI_VIEW] &&
		    nla_get_u8(tb[PCIESW_A_SWITCH_PCI_VIEW]))
			snprintf(buf, sizeof(buf), "%04x",
				 nla_get_u32(tb[PCIESW_A_SWITCH_PCI_DOMAIN]));
		put_label_value(f, buf);
		fputs("} 1\n", f);
	}
	family(f, "pciesw_switch_lanes", "gauge", "Lanes of the switch.");
	for (i = 0; i < d->sw.n; i++) {
		struct nlattr **tb = d->sw.tb[i];

		fputs("pciesw_switch_lanes{switch=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_SWITCH_NAME]));
		fprintf(f, "} %u\n", u32_attr(tb[PCIESW_A_SWITCH_LANES]));
	}
	family(f, "pciesw_dma_inflight_descriptors", "gauge",
	       "DMA descriptors in flight on the switch now.");
	for (i = 0; i < d->sw.n; i++) {
		struct nlattr **tb = d->sw.tb[i];

		fputs("pciesw_dma_inflight_descriptors{switch=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_SWITCH_NAME]));
		fprintf(f, "} %u\n",
			u32_attr(tb[PCIESW_A_SWITCH_DMA_INFLIGHT]));
	}
}

/* VPD keywords as label names; others become vpd_<keyword>. */
static const char *const vpd_labels[][2] = {
	{ "PN", "part_number" }, { "EC", "engineering_change" },
	{ "SN", "serial_number" }, { "MN", "manufacturer_id" },
	{ "V0", "firmware_version" }, { "YA", "asset_tag" },
};

static void vpd_label(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	const char *kw, *name = NULL;
	FILE *f = arg;
	size_t i;

	if (nl_parse_nest(nest, tb) < 0 || !tb[PCIESW_A_VPD_KEYWORD] ||
	    !tb[PCIESW_A_VPD_VALUE])
		return;
	kw = nla_get_string(tb[PCIESW_A_VPD_KEYWORD]);
	for (i = 0; i < sizeof(vpd_labels) / sizeof(vpd_labels[0]); i++)
		if (!strcmp(kw, vpd_labels[i][0]))
			name = vpd_labels[i][1];
	if (name) {
		fprintf(f, ",%s=", name);
	} else {
		/* label names: [a-zA-Z_][a-zA-Z0-9_]*; keywords are 2 chars */
		fputs(",vpd_", f);
		for (; *kw; kw++)
			fputc((*kw >= 'A' && *kw <= 'Z') ? *kw - 'A' + 'a' :
			      (*kw >= '0' && *kw <= '9') ||
			      (*kw >= 'a' && *kw <= 'z') ? *kw : '_', f);
		fputc('=', f);
	}
	put_label_value(f, nla_get_string(tb[PCIESW_A_VPD_VALUE]));
}

static void export_vpd(FILE *f, const struct export_data *d)
{
	char sw[16];
	size_t i;

	family(f, "pciesw_vpd_info", "gauge",
	       "Vital Product Data of the card (value 1): part number, serial, firmware version, asset tag.");
	for (i = 0; i < d->vpd.n; i++) {
		struct nlattr **tb = d->vpd.tb[i];

		obj_switch(sw, sizeof(sw), tb);
		fprintf(f, "pciesw_vpd_info{switch=\"%s\",id_string=", sw);
		put_label_value(f, str_attr(tb[PCIESW_A_VPD_ID_STRING]));
		nl_for_each_attr(objs_hdr(&d->vpd, i), PCIESW_A_VPD_FIELD,
				 vpd_label, f);
		fputs("} 1\n", f);
	}
}

static void export_ports(FILE *f, const struct export_data *d)
{
	size_t i;

	family(f, "pciesw_port_info", "gauge",
	       "A port of a switch (value 1): role, lane group, PCI name, endpoint.");
	for (i = 0; i < d->ports.n; i++) {
		struct nlattr **tb = d->ports.tb[i];

		fputs("pciesw_port_info", f);
		port_labels(f, tb);
		fputs(",role=", f);
		put_label_value(f, tb[PCIESW_A_PORT_ROLE] ?
				enum_spec(&port_role_names,
					  nla_get_u32(tb[PCIESW_A_PORT_ROLE])) :
				NULL);
		fputs(",group=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_GROUP_NAME]));
		fputs(",pci_name=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_PORT_PCI_NAME]));
		fputs(",ep=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_EP_NAME]));
		fputs("} 1\n", f);
	}
	port_family(f, d, "pciesw_port_up", "gauge",
		    "1 if the port's link is up (data link layer active).",
		    PCIESW_A_PORT_LINK_ACTIVE, PV_U8);
	port_family(f, d, "pciesw_port_enabled", "gauge",
		    "0 if software disabled the port's link.",
		    PCIESW_A_PORT_ENABLED, PV_U8);
	port_family(f, d, "pciesw_port_link_speed_transfers_per_second",
		    "gauge", "Negotiated link speed (0 while down).",
		    PCIESW_A_PORT_SPEED, PV_SPEED);
	port_family(f, d, "pciesw_port_link_max_speed_transfers_per_second",
		    "gauge", "Maximum link speed of the port.",
		    PCIESW_A_PORT_MAX_SPEED, PV_SPEED);
	port_family(f, d, "pciesw_port_link_width_lanes", "gauge",
		    "Negotiated link width (0 while down).",
		    PCIESW_A_PORT_WIDTH, PV_U32);
	port_family(f, d, "pciesw_port_link_max_width_lanes", "gauge",
		    "Maximum link width of the port.",
		    PCIESW_A_PORT_MAX_WIDTH, PV_U32);
	port_family(f, d, "pciesw_port_link_degraded", "gauge",
		    "1 if the link trained narrower than both ends can do.",
		    PCIESW_A_PORT_DEGRADED, PV_U8);
	port_family(f, d, "pciesw_port_failed_lanes_mask", "gauge",
		    "Dead lanes of the port, bit n = lane n (0: none).",
		    PCIESW_A_PORT_FAILED_LANES, PV_U32);
	port_family(f, d, "pciesw_port_link_bandwidth_bytes_per_second",
		    "gauge", "Modelled throughput of the link each way.",
		    PCIESW_A_PORT_BANDWIDTH, PV_U64);
	port_family(f, d, "pciesw_port_surprise_downs_total", "counter",
		    "Surprise link downs of the port.",
		    PCIESW_A_PORT_SURPRISE_DOWN, PV_U64);
}

/* Counter families: which counter ids each takes and how it labels them. */
enum ctr_family { CF_AER, CF_BYTES, CF_TLPS };

static bool ctr_in_family(uint32_t id, enum ctr_family cf)
{
	if (cf == CF_AER)
		return id <= PCIESW_COUNTER_LAST_UNCORRECTABLE;
	if (id < PCIESW_COUNTER_FIRST_TRAFFIC)
		return false;
	/* spec names end in -bytes or -tlps */
	return !!strstr(enum_spec(&counter_names, id) ?: "",
			cf == CF_BYTES ? "-bytes" : "-tlps");
}

/* "ingress-non-posted-bytes": direction ingress, type non-posted */
static void traffic_labels(FILE *f, const char *spec)
{
	const char *dash = strchr(spec, '-'), *last = strrchr(spec, '-');

	if (!dash || dash == last) {
		fputs(",counter=", f);
		put_label_value(f, spec);
		return;
	}
	fprintf(f, ",direction=\"%.*s\",type=\"%.*s\"", (int)(dash - spec),
		spec, (int)(last - dash - 1), dash + 1);
}

static void export_counters(FILE *f, const struct export_data *d,
			    enum ctr_family cf)
{
	static const char *const names[] = {
		[CF_AER] = "pciesw_port_aer_errors_total",
		[CF_BYTES] = "pciesw_port_traffic_bytes_total",
		[CF_TLPS] = "pciesw_port_traffic_tlps_total",
	};
	static const char *const helps[] = {
		[CF_AER] = "AER error counters of the port, by class and counter (spec names).",
		[CF_BYTES] = "Payload bytes the port received (ingress) or sent (egress), by TLP type.",
		[CF_TLPS] = "TLPs the port received (ingress) or sent (egress), by TLP type.",
	};
	struct counter_set c;
	size_t i;
	uint32_t id;

	family(f, names[cf], "counter", helps[cf]);
	for (i = 0; i < d->ctr.n; i++) {
		counters_read(objs_hdr(&d->ctr, i), &c);
		for (id = 0; id <= PCIESW_COUNTER_MAX; id++) {
			const char *spec = enum_spec(&counter_names, id);

			if (!c.has[id] || !spec || !ctr_in_family(id, cf))
				continue;
			fputs(names[cf], f);
			port_labels(f, d->ctr.tb[i]);
			if (cf == CF_AER)
				fprintf(f, ",class=\"%s\",counter=\"%s\"",
					id <= PCIESW_COUNTER_LAST_CORRECTABLE ?
					"correctable" : "uncorrectable", spec);
			else
				traffic_labels(f, spec);
			fprintf(f, "} %llu\n", (unsigned long long)c.v[id]);
		}
	}
}

static void threshold_labels(FILE *f, struct nlattr **tb)
{
	char sw[16];

	obj_switch(sw, sizeof(sw), tb);
	fprintf(f, "{switch=\"%s\",port=", sw);
	if (tb[PCIESW_A_PORT_ID])
		fprintf(f, "\"%u\"", nla_get_u32(tb[PCIESW_A_PORT_ID]));
	else
		fputs("\"switch\"", f);
	fputs(",counter=", f);
	put_label_value(f, enum_spec(&counter_names,
				     u32_attr(tb[PCIESW_A_COUNTER_ID])));
	fputc('}', f);
}

static void export_thresholds(FILE *f, const struct export_data *d)
{
	size_t i;

	family(f, "pciesw_threshold", "gauge",
	       "Counter thresholds set (port \"switch\": on the sum over the switch's ports).");
	for (i = 0; i < d->thr.n; i++) {
		fputs("pciesw_threshold", f);
		threshold_labels(f, d->thr.tb[i]);
		fprintf(f, " %llu\n", (unsigned long long)
			(d->thr.tb[i][PCIESW_A_THRESHOLD_VALUE] ?
			 nla_get_u64(d->thr.tb[i][PCIESW_A_THRESHOLD_VALUE]) :
			 0));
	}
	family(f, "pciesw_threshold_crossed", "gauge",
	       "1 if the counter reached its threshold since it was armed.");
	for (i = 0; i < d->thr.n; i++) {
		const struct nlattr *a = d->thr.tb[i][PCIESW_A_THRESHOLD_CROSSED];

		fputs("pciesw_threshold_crossed", f);
		threshold_labels(f, d->thr.tb[i]);
		fprintf(f, " %u\n", a ? nla_get_u8(a) : 0);
	}
}

/* Millidegrees as degrees, exactly: "45.125", "-5.5". */
static void put_celsius(FILE *f, int32_t mc)
{
	int64_t v = mc;
	const char *sign = v < 0 ? "-" : "";

	if (v < 0)
		v = -v;
	fprintf(f, "%s%lld.%03lld", sign, (long long)(v / 1000),
		(long long)(v % 1000));
}

struct sensor_walk {
	FILE *f;
	const char *name;	/* the family */
	int attr;		/* the value; a u8 alarm when @alarm */
	bool alarm;
	char sw[16];
};

static void sensor_sample(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	struct sensor_walk *w = arg;

	if (nl_parse_nest(nest, tb) < 0 || !tb[w->attr])
		return;
	fprintf(w->f, "%s{switch=\"%s\",sensor=\"%u\",label=", w->name, w->sw,
		u32_attr(tb[PCIESW_A_SENSOR_ID]));
	put_label_value(w->f, str_attr(tb[PCIESW_A_SENSOR_LABEL]));
	fputs("} ", w->f);
	if (w->alarm)
		fprintf(w->f, "%u", nla_get_u8(tb[w->attr]));
	else
		put_celsius(w->f, nla_get_s32(tb[w->attr]));
	fputc('\n', w->f);
}

static void export_thermal(FILE *f, const struct export_data *d)
{
	static const struct {
		const char *name, *help;
		int attr;
		bool alarm;
	} fams[] = {
		{ "pciesw_temperature_celsius",
		  "Temperature of an on-die sensor (node_exporter's hwmon collector reads the same as node_hwmon_temp_celsius).",
		  PCIESW_A_SENSOR_TEMP, false },
		{ "pciesw_temperature_max_celsius",
		  "Warning limit of the sensor.", PCIESW_A_SENSOR_MAX, false },
		{ "pciesw_temperature_crit_celsius",
		  "Critical limit of the sensor.", PCIESW_A_SENSOR_CRIT, false },
		{ "pciesw_temperature_max_alarm",
		  "1 while the sensor's warning alarm is raised.",
		  PCIESW_A_SENSOR_MAX_ALARM, true },
		{ "pciesw_temperature_crit_alarm",
		  "1 while the sensor's critical alarm is raised.",
		  PCIESW_A_SENSOR_CRIT_ALARM, true },
	};
	struct sensor_walk w = { .f = f };
	size_t i, k;

	for (k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		family(f, fams[k].name, "gauge", fams[k].help);
		w.name = fams[k].name;
		w.attr = fams[k].attr;
		w.alarm = fams[k].alarm;
		for (i = 0; i < d->thermal.n; i++) {
			obj_switch(w.sw, sizeof(w.sw), d->thermal.tb[i]);
			nl_for_each_attr(objs_hdr(&d->thermal, i),
					 PCIESW_A_THERMAL_SENSOR, sensor_sample,
					 &w);
		}
	}
}

/* {switch="pciesw0",ep="nvme0" */
static void ep_labels(FILE *f, struct nlattr **tb)
{
	char sw[16];

	obj_switch(sw, sizeof(sw), tb);
	fprintf(f, "{switch=\"%s\",ep=", sw);
	put_label_value(f, str_attr(tb[PCIESW_A_EP_NAME]));
}

/* The NVMe drives' identity and SMART health (ep-get). */
static void export_nvme(FILE *f, const struct export_data *d)
{
	enum nv { NV_U8, NV_PCT, NV_U64, NV_TEMP };
	static const struct {
		const char *name, *type, *help;
		int attr;
		enum nv kind;
	} fams[] = {
		{ "pciesw_nvme_temperature_celsius", "gauge",
		  "Composite temperature of an NVMe drive (SMART; whole kelvins).",
		  PCIESW_A_NVME_TEMP, NV_TEMP },
		{ "pciesw_nvme_available_spare_ratio", "gauge",
		  "Available spare of an NVMe drive (SMART), 0 to 1.",
		  PCIESW_A_NVME_SPARE, NV_PCT },
		{ "pciesw_nvme_available_spare_threshold_ratio", "gauge",
		  "Available spare threshold of an NVMe drive (SMART), 0 to 1.",
		  PCIESW_A_NVME_SPARE_THRESHOLD, NV_PCT },
		{ "pciesw_nvme_percentage_used_ratio", "gauge",
		  "Percentage used of an NVMe drive's life (SMART), 0 to 1 (may exceed 1).",
		  PCIESW_A_NVME_PERCENT_USED, NV_PCT },
		{ "pciesw_nvme_critical_warning", "gauge",
		  "SMART critical warning bits of an NVMe drive (0: none; 1 spare, 2 temperature, 4 reliability, 8 read-only).",
		  PCIESW_A_NVME_CRITICAL_WARNING, NV_U8 },
		{ "pciesw_nvme_media_errors_total", "counter",
		  "Unrecovered data integrity errors of an NVMe drive (SMART).",
		  PCIESW_A_NVME_MEDIA_ERRORS, NV_U64 },
		{ "pciesw_nvme_unsafe_shutdowns_total", "counter",
		  "Unsafe shutdowns of an NVMe drive (SMART).",
		  PCIESW_A_NVME_UNSAFE_SHUTDOWNS, NV_U64 },
		{ "pciesw_nvme_data_units_read_total", "counter",
		  "Data units (512000 bytes) an NVMe drive read for the host (SMART).",
		  PCIESW_A_NVME_DATA_UNITS_READ, NV_U64 },
		{ "pciesw_nvme_data_units_written_total", "counter",
		  "Data units (512000 bytes) an NVMe drive wrote for the host (SMART).",
		  PCIESW_A_NVME_DATA_UNITS_WRITTEN, NV_U64 },
		{ "pciesw_nvme_read_bytes_total", "counter",
		  "Bytes an NVMe drive read for the host: its disk, passthrough commands, DMA.",
		  PCIESW_A_NVME_BYTES_READ, NV_U64 },
		{ "pciesw_nvme_written_bytes_total", "counter",
		  "Bytes an NVMe drive wrote for the host: its disk, passthrough commands, DMA.",
		  PCIESW_A_NVME_BYTES_WRITTEN, NV_U64 },
		{ "pciesw_nvme_host_read_commands_total", "counter",
		  "Read commands an NVMe drive completed (SMART).",
		  PCIESW_A_NVME_HOST_READS, NV_U64 },
		{ "pciesw_nvme_host_write_commands_total", "counter",
		  "Write commands an NVMe drive completed (SMART).",
		  PCIESW_A_NVME_HOST_WRITES, NV_U64 },
	};
	size_t i, k;

	family(f, "pciesw_nvme_info", "gauge",
	       "An NVMe drive: model, serial number (root only), firmware.");
	for (i = 0; i < d->eps.n; i++) {
		struct nlattr **tb = d->eps.tb[i];

		if (!tb[PCIESW_A_NVME_MODEL])
			continue;
		fputs("pciesw_nvme_info", f);
		ep_labels(f, tb);
		fputs(",model=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_NVME_MODEL]));
		fputs(",serial=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_NVME_SERIAL]));
		fputs(",firmware=", f);
		put_label_value(f, str_attr(tb[PCIESW_A_NVME_FIRMWARE]));
		fputs("} 1\n", f);
	}
	for (k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		family(f, fams[k].name, fams[k].type, fams[k].help);
		for (i = 0; i < d->eps.n; i++) {
			struct nlattr **tb = d->eps.tb[i];
			const struct nlattr *a = tb[fams[k].attr];

			if (!a)
				continue;
			fputs(fams[k].name, f);
			ep_labels(f, tb);
			fputs("} ", f);
			switch (fams[k].kind) {
			case NV_U8:
				fprintf(f, "%u\n", nla_get_u8(a));
				break;
			case NV_PCT:
				fprintf(f, "%u.%02u\n", nla_get_u8(a) / 100,
					nla_get_u8(a) % 100);
				break;
			case NV_U64:
				fprintf(f, "%llu\n",
					(unsigned long long)nla_get_u64(a));
				break;
			default:
				put_celsius(f, nla_get_s32(a));
				fputc('\n', f);
				break;
			}
		}
	}
}

/*
 * What each endpoint's AER capability detected (ep-aer-counts), by the
 * spec's error names: a u64 array indexed by enum ep-aer-error, entries
 * this switchctl does not know left out.
 */
static void export_ep_aer(FILE *f, const struct export_data *d)
{
	size_t i, k, n;
	uint64_t v;

	family(f, "pciesw_ep_aer_errors_total", "counter",
	       "Errors an endpoint detected and reported through its AER capability, by error.");
	for (i = 0; i < d->eps.n; i++) {
		const struct nlattr *a = d->eps.tb[i][PCIESW_A_EP_AER_COUNTS];

		if (!a)
			continue;
		n = nla_len(a) / sizeof(v);
		for (k = 0; k < n; k++) {
			const char *name = enum_spec(&ep_aer_error_names, k);

			if (!name)
				continue;
			memcpy(&v, (const char *)nla_data(a) + k * sizeof(v),
			       sizeof(v));
			fputs("pciesw_ep_aer_errors_total", f);
			ep_labels(f, d->eps.tb[i]);
			fprintf(f, ",error=\"%s\"} %llu\n", name,
				(unsigned long long)v);
		}
	}
}

static void export_write(FILE *f, const struct export_data *d)
{
	export_switches(f, d);
	export_vpd(f, d);
	export_ports(f, d);
	export_counters(f, d, CF_AER);
	export_counters(f, d, CF_BYTES);
	export_counters(f, d, CF_TLPS);
	export_thresholds(f, d);
	export_thermal(f, d);
	export_nvme(f, d);
	export_ep_aer(f, d);
}

static int export_fetch(const struct target *t, struct export_data *d)
{
	static const struct objs_part parts[] = {
		{ PCIESW_CMD_PORT_GET, "ports", offsetof(struct export_data, ports) },
		{ PCIESW_CMD_COUNTER_GET, "counters", offsetof(struct export_data, ctr) },
		{ PCIESW_CMD_THRESHOLD_GET, "thresholds", offsetof(struct export_data, thr) },
		{ PCIESW_CMD_THERMAL_GET, "sensors", offsetof(struct export_data, thermal) },
		{ PCIESW_CMD_VPD_GET, "VPD", offsetof(struct export_data, vpd) },
		{ PCIESW_CMD_EP_GET, "endpoints", offsetof(struct export_data, eps) },
	};
	struct nl_session *s;
	int ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = fetch_with_parts(s, t, &d->sw, d, parts,
			       sizeof(parts) / sizeof(parts[0]));
	nl_session_close(s);
	return ret;
}

/* DIR/pciesw.prom, replaced atomically: a scrape never sees half a file. */
static int write_textfile(const char *dir, const char *buf, size_t len)
{
	char *tmp = xasprintf("%s/.pciesw.prom.XXXXXX", dir);
	char *dst = xasprintf("%s/pciesw.prom", dir);
	int fd, ret = EXIT_FAIL;
	size_t off = 0;

	fd = mkstemp(tmp);
	if (fd < 0) {
		error("cannot create a file in %s: %s", dir, strerror(errno));
		goto out;
	}
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("cannot write %s: %s", tmp, strerror(errno));
			goto fail;
		}
		off += n;
	}
	/* mkstemp() makes it 0600; node_exporter runs as another user */
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		error("cannot write %s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		error("cannot write %s: %s", tmp, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, dst) < 0) {
		error("cannot rename %s to %s: %s", tmp, dst, strerror(errno));
		goto fail;
	}
	ret = EXIT_OK;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(tmp);
	free(dst);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	const char *dir = NULL;
	const struct cmd_opt opts[] = {
		{ "--textfile", NULL, NULL, &dir },
		{ NULL, NULL, NULL, NULL },
	};
	struct export_data d = { 0 };
	struct target t;
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (!ret)
		ret = parse_target(argc, argv, &t);
	if (ret)
		return ret;
	if (dir && stat(dir, &st) < 0) {
		error("--textfile %s: %s", dir, strerror(errno));
		return EXIT_FAIL;
	}
	if (dir && !S_ISDIR(st.st_mode)) {
		error("--textfile %s: not a directory", dir);
		return EXIT_FAIL;
	}
	ret = export_fetch(&t, &d);
	if (ret) {
		export_data_free(&d);
		return ret;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		error("out of memory");
		export_data_free(&d);
		return EXIT_FAIL;
	}
	export_write(f, &d);
	export_data_free(&d);
	if (fclose(f)) {
		error("out of memory");
		free(buf);
		return EXIT_FAIL;
	}
	if (dir) {
		ret = write_textfile(dir, buf, len);
	} else {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
			error("cannot write the output");
			ret = EXIT_FAIL;
		}
	}
	free(buf);
	return ret;
}

const char export_help[] =
	"Prints the state of the switches (all, or SWITCH) in the\n"
	"Prometheus text exposition format (HELP and TYPE lines, base\n"
	"units in the names, _total for counters, _info for inventory).\n"
	"  --textfile DIR  write DIR/pciesw.prom instead, atomically (a\n"
	"                  temporary file in DIR renamed over it), for\n"
	"                  node_exporter --collector.textfile.directory=DIR;\n"
	"                  run it from a timer (e.g. every 15 s)\n"
	"Metrics (labels switch=\"pciesw0\", port=\"3\" where they apply):\n"
	"  pciesw_switch_info{profile,serial,pci_domain}, pciesw_switch_lanes,\n"
	"  pciesw_vpd_info{id_string,part_number,engineering_change,\n"
	"    serial_number,manufacturer_id,firmware_version,asset_tag},\n"
	"  pciesw_dma_inflight_descriptors,\n"
	"  pciesw_port_info{role,group,pci_name,ep}, pciesw_port_up,\n"
	"  pciesw_port_enabled, pciesw_port_link_speed_transfers_per_second,\n"
	"  pciesw_port_link_max_speed_transfers_per_second,\n"
	"  pciesw_port_link_width_lanes, pciesw_port_link_max_width_lanes,\n"
	"  pciesw_port_link_degraded, pciesw_port_failed_lanes_mask,\n"
	"  pciesw_port_link_bandwidth_bytes_per_second,\n"
	"  pciesw_port_surprise_downs_total,\n"
	"  pciesw_port_aer_errors_total{class,counter} (every AER counter,\n"
	"    spec names: class=\"correctable\",counter=\"bad-tlp\"),\n"
	"  pciesw_port_traffic_bytes_total{direction,type},\n"
	"  pciesw_port_traffic_tlps_total{direction,type} (direction ingress\n"
	"    or egress, type posted, non-posted or completion),\n"
	"  pciesw_threshold{port,counter}, pciesw_threshold_crossed{port,\n"
	"    counter} (port=\"switch\": on the sum over the switch),\n"
	"  pciesw_temperature_celsius{sensor,label}, and _max_celsius,\n"
	"  _crit_celsius, _max_alarm, _crit_alarm of each sensor.\n"
	"NVMe drives (labels switch, ep=\"nvme0\"), from their SMART log:\n"
	"  pciesw_nvme_info{model,serial,firmware},\n"
	"  pciesw_nvme_temperature_celsius (composite),\n"
	"  pciesw_nvme_available_spare_ratio, and _threshold_ratio,\n"
	"  pciesw_nvme_percentage_used_ratio, pciesw_nvme_critical_warning,\n"
	"  pciesw_nvme_media_errors_total, pciesw_nvme_unsafe_shutdowns_total,\n"
	"  pciesw_nvme_data_units_read_total, _written_total (512000 bytes).\n"
	"Endpoints (labels switch, ep, error: the names inject ... aer takes):\n"
	"  pciesw_ep_aer_errors_total, the errors each reported through AER.\n"
	"The temperatures are also on hwmon (chip \"pciesw\"), which\n"
	"node_exporter's hwmon collector already reads\n"
	"(node_hwmon_temp_celsius{chip=...}); the export has them per\n"
	"switch and sensor label so they join the port metrics.\n"
	"Needs CAP_SYS_ADMIN: it reads the VPD and the serial numbers,\n"
	"which are root-only.\n";
