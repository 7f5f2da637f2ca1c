// SPDX-License-Identifier: GPL-2.0
/*
 * Temperatures (temp) and fault injection (inject): error bursts, bit-error
 * rate, lane failure and surprise down on a port (the last three through
 * port-set, like "port set"), temperature overrides.
 *
 * Temperatures travel in millidegrees Celsius: JSON has those numbers, the
 * text shows degrees with one decimal.
 */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* The highest sensor-override the spec allows, m°C (the lowest is uAPI's). */
#define SENSOR_TEMP_MAX	150000

/* --- temp ----------------------------------------------------------------- */

/* -v: ambient, time constant, hysteresis, override */
static bool temp_verbose;

void print_thermal_sensor(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	const char *alarm = "-";
	bool max, crit;

	(void)arg;
	if (nl_parse_nest(nest, tb) < 0)
		memset(tb, 0, sizeof(tb));
	max = tb[PCIESW_A_SENSOR_MAX_ALARM] &&
	      nla_get_u8(tb[PCIESW_A_SENSOR_MAX_ALARM]);
	crit = tb[PCIESW_A_SENSOR_CRIT_ALARM] &&
	       nla_get_u8(tb[PCIESW_A_SENSOR_CRIT_ALARM]);
	if (crit)
		alarm = max ? "max,crit" : "crit";
	else if (max)
		alarm = "max";

	open_object(NULL);
	print_attr_u32(PRINT_ANY, "sensor-id", "%-6s ", tb[PCIESW_A_SENSOR_ID]);
	print_attr_string(PRINT_ANY, "sensor-label", "%-12s ",
			  tb[PCIESW_A_SENSOR_LABEL]);
	/* "°" is two bytes, one column: the widths of temperatures are one more */
	print_attr_temp(PRINT_ANY, "sensor-temp", "%-10s ",
			tb[PCIESW_A_SENSOR_TEMP]);
	print_attr_temp(PRINT_ANY, "sensor-max", "%-10s ",
			tb[PCIESW_A_SENSOR_MAX]);
	print_attr_temp(PRINT_ANY, "sensor-crit", "%-10s ",
			tb[PCIESW_A_SENSOR_CRIT]);
	print_attr_u32(PRINT_JSON, "sensor-hyst", NULL,
		       tb[PCIESW_A_SENSOR_HYST]);
	print_attr_flag(PRINT_JSON, "sensor-max-alarm", NULL,
			tb[PCIESW_A_SENSOR_MAX_ALARM], NULL, NULL);
	print_attr_flag(PRINT_JSON, "sensor-crit-alarm", NULL,
			tb[PCIESW_A_SENSOR_CRIT_ALARM], NULL, NULL);
	/* absent unless overridden: null in JSON */
	print_attr_s32(PRINT_JSON, "sensor-override", NULL,
		       tb[PCIESW_A_SENSOR_OVERRIDE]);
	if (!temp_verbose) {
		print_string(PRINT_TEXT, NULL, "%s\n", alarm);
	} else {
		print_string(PRINT_TEXT, NULL, "%-9s ", alarm);
		print_attr_temp(PRINT_TEXT, NULL, "%-10s ",
				tb[PCIESW_A_SENSOR_HYST]);
		print_attr_temp(PRINT_TEXT, NULL, "%s\n",
				tb[PCIESW_A_SENSOR_OVERRIDE]);
	}
	close_object();
}

static void temp_switch(struct nlattr **sw, const struct objs *th,
			const struct objs *unused __attribute__((unused)))
{
	struct nlattr **tb = NULL;
	size_t i, found = 0;

	for (i = 0; i < th->n && !tb; i++) {
		if (same_switch(th->tb[i], sw)) {
			tb = th->tb[i];
			found = i;
		}
	}
	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, sw[PCIESW_A_SWITCH_ID]);
	if (!tb) {
		/* a module without thermal-get would have failed the dump */
		print_text(" no temperatures\n");
		close_object();
		return;
	}
	print_attr_temp(PRINT_ANY, "thermal-highest", " highest %s",
			tb[PCIESW_A_THERMAL_HIGHEST]);
	print_attr_temp(temp_verbose ? PRINT_ANY : PRINT_JSON,
			"thermal-ambient", ", ambient %s",
			tb[PCIESW_A_THERMAL_AMBIENT]);
	print_attr_u32(temp_verbose ? PRINT_ANY : PRINT_JSON,
		       "thermal-time-constant", ", time constant %s ms",
		       tb[PCIESW_A_THERMAL_TIME_CONSTANT]);
	print_text("\n%-6s %-12s %-9s %-9s %-9s %s\n", "SENSOR", "LABEL",
		   "TEMP", "MAX", "CRIT", temp_verbose ?
		   "ALARM     HYST      OVERRIDE" : "ALARM");
	open_array("thermal-sensor");
	nl_for_each_attr(objs_hdr(th, found), PCIESW_A_THERMAL_SENSOR,
			 print_thermal_sensor, NULL);
	close_array();
	close_object();
}

int cmd_temp(int argc, char **argv)
{
	const struct cmd_opt opts[] = {
		{ "--verbose", "-v", &temp_verbose, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	return per_switch_cmd(argc, argv, PCIESW_CMD_THERMAL_GET,
			      "temperatures", 0, NULL, temp_switch);
}

const char temp_help[] =
	"One line per sensor: id (hwmon temp<id+1>), label, temperature,\n"
	"max (warning) and crit limits, and the alarms raised (max,\n"
	"crit; an alarm clears when the temperature falls the\n"
	"hysteresis below its limit).  The first line has the highest\n"
	"temperature of all sensors.\n"
	"  -v, --verbose  also the ambient temperature and time constant\n"
	"                 of the thermal model, each sensor's hysteresis\n"
	"                 and override (see inject ... temp)\n"
	"With -j: {\"switch\", the thermal-get attributes: switch-id,\n"
	"thermal-ambient, thermal-time-constant (ms), thermal-highest,\n"
	"thermal-sensor: [{sensor-id, sensor-label, sensor-temp,\n"
	"sensor-max, sensor-crit, sensor-hyst, sensor-max-alarm,\n"
	"sensor-crit-alarm, sensor-override (null unless set)}]};\n"
	"temperatures in millidegrees Celsius.  Without SWITCH, an array\n"
	"of such objects.\n";

/* --- inject --------------------------------------------------------------- */

/* Finds the sensor labelled @label on switch @id. */
struct sensor_lookup {
	const char *label;
	long id;
};

static void match_sensor(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	struct sensor_lookup *l = arg;

	if (nl_parse_nest(nest, tb) < 0 || !tb[PCIESW_A_SENSOR_ID] ||
	    !tb[PCIESW_A_SENSOR_LABEL])
		return;
	if (!strcmp(nla_get_string(tb[PCIESW_A_SENSOR_LABEL]), l->label))
		l->id = nla_get_u32(tb[PCIESW_A_SENSOR_ID]);
}

static int sensor_by_label(struct nl_session *s, uint32_t id,
			   const char *label, uint32_t *sensor)
{
	struct sensor_lookup l = { .label = label, .id = -1 };
	struct objs th = { 0 };
	int ret;

	ret = objs_fetch(s, PCIESW_CMD_THERMAL_GET, false, true, id, &th,
			 "cannot get the temperatures");
	if (ret)
		return ret;
	if (th.n)
		nl_for_each_attr(objs_hdr(&th, 0), PCIESW_A_THERMAL_SENSOR,
				 match_sensor, &l);
	objs_free(&th);
	if (l.id < 0) {
		error("no sensor labelled \"%s\" on switch %u (see switchctl temp)",
		      label, id);
		return EXIT_FAIL;
	}
	*sensor = l.id;
	return EXIT_OK;
}

/* "inject SWITCH temp [SENSOR] VALUE|clear" */
static int inject_temp(uint32_t id, int argc, char **argv)
{
	const char *value, *sensor_arg = NULL;
	struct nl_session *s;
	struct nl_msg *req;
	unsigned long v;
	uint32_t sensor = 0;
	int64_t mc = 0;
	bool clear;
	int ret;

	ret = need_args(argc, argv, 2,
			"temperature (degrees Celsius, or clear)", NULL);
	if (ret)
		return ret;
	value = argv[argc - 1];
	clear = !strcmp(value, "clear");
	if (!clear && (!parse_milli(value, true, &mc) ||
		       mc < PCIESW_TEMP_MIN || mc > SENSOR_TEMP_MAX))
		return usage_error("invalid temperature \"%s\": expected degrees Celsius from %d to %d (85.5), or clear",
				   value, PCIESW_TEMP_MIN / 1000,
				   SENSOR_TEMP_MAX / 1000);
	if (argc == 2) {
		sensor_arg = argv[0];
		if (parse_uint(sensor_arg, UINT32_MAX, &v))
			sensor = v;
	}

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	if (sensor_arg && !parse_uint(sensor_arg, UINT32_MAX, &v))
		ret = sensor_by_label(s, id, sensor_arg, &sensor);
	if (ret) {
		nl_session_close(s);
		return ret;
	}
	req = nl_request_new(s, PCIESW_CMD_THERMAL_SET, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	/* no sensor-id: every sensor */
	if (sensor_arg)
		nl_put_u32(req, PCIESW_A_SENSOR_ID, sensor);
	if (clear)
		nl_put_flag(req, PCIESW_A_SENSOR_OVERRIDE_CLEAR);
	else
		nl_put_s32(req, PCIESW_A_SENSOR_OVERRIDE, mc);
	ret = nl_request_run(s, req, NULL,
			     "cannot override the temperature of switch %u",
			     id);
	nl_session_close(s);
	return finish(ret);
}

/* "inject SWITCH PORT COUNTER [--count N]": a burst of errors */
static int inject_errors(uint32_t id, uint32_t port, const char *type,
			 const char *count)
{
	struct nl_session *s;
	struct nl_msg *req;
	unsigned long n = 1;
	uint32_t counter;
	int ret;

	if (!enum_parse(&counter_names, type, 0, &counter))
		return usage_error("unknown fault \"%s\": expected an error counter, ber, lane or surprise-down (the help lists them)",
				   type);
	if (counter >= PCIESW_COUNTER_FIRST_TRAFFIC)
		return usage_error("%s is a traffic counter: only error counters can be injected",
				   type);
	if (count && !parse_uint(count, 1000000, &n))
		return usage_error("invalid count \"%s\": expected 1 to 1000000",
				   count);
	if (!n)
		return usage_error("invalid count \"%s\": expected 1 to 1000000",
				   count);

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = port_request_new(s, PCIESW_CMD_INJECT, id, port);
	nl_put_u32(req, PCIESW_A_COUNTER_ID, counter);
	nl_put_u32(req, PCIESW_A_INJECT_COUNT, n);
	ret = nl_request_run(s, req, NULL,
			     "cannot inject %s on port %u of switch %u",
			     type, port, id);
	nl_session_close(s);
	return finish(ret);
}

/* Faults of an NVMe drive, through nvme-inject. */
static bool is_nvme_fault(const char *word)
{
	return !strcmp(word, "media-error") || !strcmp(word, "temp") ||
	       !strcmp(word, "spare") || !strcmp(word, "read-only") ||
	       !strcmp(word, "self-test-fail");
}

/* "[lba L] [count N]" of a media error */
static int parse_media_error(int argc, char **argv, uint64_t *lba,
			     unsigned long *count)
{
	bool seen_lba = false, seen_count = false;
	unsigned long v;
	int i;

	for (i = 0; i < argc; i += 2) {
		bool is_lba = !strcmp(argv[i], "lba");

		if (!is_lba && strcmp(argv[i], "count"))
			return usage_error("unknown option \"%s\": expected lba or count",
					   argv[i]);
		if (is_lba ? seen_lba : seen_count)
			return usage_error("\"%s\" given twice", argv[i]);
		if (i + 1 >= argc)
			return usage_error("\"%s\" needs a value", argv[i]);
		if (is_lba) {
			seen_lba = true;
			if (!parse_uint(argv[i + 1], ULONG_MAX, &v))
				return usage_error("invalid lba \"%s\": expected a logical block number",
						   argv[i + 1]);
			*lba = v;
		} else {
			seen_count = true;
			if (!parse_uint(argv[i + 1], 1000000, &v) || !v)
				return usage_error("invalid count \"%s\": expected 1 to 1000000 blocks",
						   argv[i + 1]);
			*count = v;
		}
	}
	return EXIT_OK;
}

/*
 * "inject SWITCH EP media-error [lba L] [count N] | temp DEGREES|clear |
 * spare PCT | read-only [on|off] | self-test-fail"
 */
static int inject_nvme(uint32_t id, const char *ep_arg, int argc,
		       char **argv)
{
	const char *fault = argv[0];
	struct nl_session *s;
	struct nl_msg *req;
	struct ep_ref ep;
	uint64_t lba = 0;
	unsigned long count = 1, v = 0;
	int64_t mc = 0;
	bool clear = false;
	int ro = 1;
	uint32_t type;
	int ret;

	ret = parse_ep_arg(ep_arg, &ep);
	if (ret)
		return ret;
	if (!strcmp(fault, "media-error")) {
		type = PCIESW_NVME_FAULT_MEDIA_ERROR;
		ret = parse_media_error(argc - 1, argv + 1, &lba, &count);
		if (ret)
			return ret;
	} else if (!strcmp(fault, "temp")) {
		type = PCIESW_NVME_FAULT_TEMP;
		if (argc < 2)
			return usage_error("missing temperature (degrees Celsius, or clear)");
		if (argc > 2)
			return usage_error("too many arguments: \"%s\"", argv[2]);
		clear = !strcmp(argv[1], "clear");
		if (!clear && (!parse_milli(argv[1], true, &mc) ||
			       mc < PCIESW_TEMP_MIN || mc > SENSOR_TEMP_MAX))
			return usage_error("invalid temperature \"%s\": expected degrees Celsius from %d to %d, or clear",
					   argv[1], PCIESW_TEMP_MIN / 1000,
					   SENSOR_TEMP_MAX / 1000);
	} else if (!strcmp(fault, "spare")) {
		type = PCIESW_NVME_FAULT_SPARE;
		if (argc < 2)
			return usage_error("missing available spare (percent)");
		if (argc > 2)
			return usage_error("too many arguments: \"%s\"", argv[2]);
		if (!parse_uint(argv[1], 100, &v))
			return usage_error("invalid spare \"%s\": expected a percentage, 0 to 100",
					   argv[1]);
	} else if (!strcmp(fault, "self-test-fail")) {
		type = PCIESW_NVME_FAULT_SELF_TEST_FAIL;
		if (argc > 1)
			return usage_error("too many arguments: \"%s\"", argv[1]);
	} else {
		type = PCIESW_NVME_FAULT_READ_ONLY;
		if (argc > 2)
			return usage_error("too many arguments: \"%s\"", argv[2]);
		if (argc == 2) {
			ret = parse_on_off("read-only", argv[1], "on", "off",
					   &ro);
			if (ret)
				return ret;
		}
	}

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = ep_request_new(s, PCIESW_CMD_NVME_INJECT, id, &ep);
	nl_put_u32(req, PCIESW_A_NVME_FAULT, type);
	switch (type) {
	case PCIESW_NVME_FAULT_MEDIA_ERROR:
		nl_put_u64(req, PCIESW_A_NVME_LBA, lba);
		nl_put_u32(req, PCIESW_A_NVME_COUNT, count);
		break;
	case PCIESW_NVME_FAULT_TEMP:
		if (clear)
			nl_put_flag(req, PCIESW_A_NVME_TEMP_CLEAR);
		else
			nl_put_s32(req, PCIESW_A_NVME_TEMP, mc);
		break;
	case PCIESW_NVME_FAULT_SPARE:
		nl_put_u8(req, PCIESW_A_NVME_SPARE, v);
		break;
	case PCIESW_NVME_FAULT_READ_ONLY:
		nl_put_u8(req, PCIESW_A_NVME_READ_ONLY, ro);
		break;
	}
	ret = nl_request_run(s, req, NULL,
			     "cannot inject %s into %s of switch %u", fault,
			     ep_arg, id);
	nl_session_close(s);
	return finish(ret);
}

/* "inject SWITCH EP aer ERROR [--count N]": an error the endpoint detects */
static int inject_ep_aer(uint32_t id, const char *ep_arg, int argc,
			 char **argv, const char *count)
{
	struct nl_session *s;
	struct nl_msg *req;
	struct ep_ref ep;
	unsigned long n = 1;
	uint32_t err;
	char *choices;
	int ret;

	ret = parse_ep_arg(ep_arg, &ep);
	if (ret)
		return ret;
	if (argc < 2)
		return usage_error("missing AER error: completion-timeout, unsupported-request, poisoned-tlp, uncorrectable-internal, corrected-internal or advisory-non-fatal");
	if (argc > 2)
		return usage_error("too many arguments: \"%s\"", argv[2]);
	if (!enum_parse(&ep_aer_error_names, argv[1], 0, &err)) {
		choices = enum_choices(&ep_aer_error_names, 0);
		ret = usage_error("unknown AER error \"%s\": expected %s",
				  argv[1], choices ? choices : "one of inject --help");
		free(choices);
		return ret;
	}
	if (count && (!parse_uint(count, 1000000, &n) || !n))
		return usage_error("invalid count \"%s\": expected 1 to 1000000",
				   count);

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = ep_request_new(s, PCIESW_CMD_INJECT, id, &ep);
	nl_put_u32(req, PCIESW_A_EP_AER_ERROR, err);
	nl_put_u32(req, PCIESW_A_INJECT_COUNT, n);
	ret = nl_request_run(s, req, NULL,
			     "cannot inject %s into %s of switch %u", argv[1],
			     ep_arg, id);
	nl_session_close(s);
	return finish(ret);
}

/* Faults of the link, set through port-set. */
static bool is_link_fault(const char *word)
{
	return !strcmp(word, "ber") || !strcmp(word, "lane") ||
	       !strcmp(word, "lanes") || !strcmp(word, "surprise-down");
}

/* "ber RATE", "lane MASK", "surprise-down" */
static int link_fault(uint32_t id, uint32_t port, int argc, char **argv)
{
	struct port_settings ps;
	int want, ret = EXIT_OK;

	port_settings_init(&ps);
	if (!strcmp(argv[0], "ber")) {
		want = 2;
		ps.has_ber = true;
		if (argc >= 2)
			ret = parse_ber_arg(argv[1], &ps.ber);
	} else if (!strcmp(argv[0], "lane") || !strcmp(argv[0], "lanes")) {
		want = 2;
		ps.has_failed = true;
		if (argc >= 2)
			ret = parse_lane_mask(argv[1], &ps.failed);
	} else {	/* surprise-down */
		want = 1;
		ps.surprise_down = true;
	}
	if (argc < want)
		return usage_error("\"%s\" needs a value", argv[0]);
	if (argc > want)
		return usage_error("too many arguments: \"%s\"", argv[want]);
	if (ret)
		return ret;
	return port_set_run(id, port, &ps);
}

int cmd_inject(int argc, char **argv)
{
	const char *count = NULL;
	const struct cmd_opt opts[] = {
		{ "--count", "-c", NULL, &count },
		{ NULL, NULL, NULL, NULL },
	};
	uint32_t id, port;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	if (argc >= 2 && !strcmp(argv[1], "temp")) {
		if (count)
			return usage_error("--count is for error bursts");
		ret = parse_switch_arg(argv[0], &id);
		return ret ? ret : inject_temp(id, argc - 2, argv + 2);
	}
	if (argc >= 3 && !strcmp(argv[2], "aer")) {
		ret = parse_switch_arg(argv[0], &id);
		return ret ? ret : inject_ep_aer(id, argv[1], argc - 2,
						 argv + 2, count);
	}
	if (argc >= 3 && is_nvme_fault(argv[2])) {
		if (count)
			return usage_error("--count is for error bursts (media-error takes count N)");
		ret = parse_switch_arg(argv[0], &id);
		return ret ? ret : inject_nvme(id, argv[1], argc - 2, argv + 2);
	}
	ret = parse_switch_port(argc, argv, &id, &port);
	if (ret)
		return ret;
	if (argc < 3)
		return usage_error("missing fault: an error counter, ber, lane or surprise-down");
	if (is_link_fault(argv[2])) {
		if (count)
			return usage_error("--count is for error bursts, not %s",
					   argv[2]);
		return link_fault(id, port, argc - 2, argv + 2);
	}
	if (argc > 3)
		return usage_error("too many arguments: \"%s\"", argv[3]);
	return inject_errors(id, port, argv[2], count);
}

const char inject_help[] =
	"Faults of a port:\n"
	"  SWITCH PORT COUNTER [--count N]\n"
	"        count N (default 1, at most 1000000) errors of the\n"
	"        error counter COUNTER as if the port had detected them;\n"
	"        the link itself is not affected\n"
	"  SWITCH PORT ber RATE\n"
	"        bit-error rate of the link (1e-9, 2.5e-12; 0 clears; at\n"
	"        most 1e-3): each bit error in the traffic counts a\n"
	"        bad-tlp, every 256th a replay-num-rollover and a retrain\n"
	"  SWITCH PORT lane MASK|none\n"
	"        failed lanes, bit n = lane n of the port (as port set\n"
	"        failed-lanes): the link retrains narrower\n"
	"  SWITCH PORT surprise-down\n"
	"        drop the link without warning (counts surprise-down)\n"
	"Temperature:\n"
	"  SWITCH temp [SENSOR] DEGREES|clear\n"
	"        force the temperature of SENSOR (id or label, see temp;\n"
	"        without it every sensor) to DEGREES Celsius (-40 to\n"
	"        150, e.g. 97.5) until cleared; alarms follow it\n"
	"Faults of an NVMe drive EP (name, e.g. nvme0, or id); its SMART\n"
	"log, error log, disk, passthrough commands and hwmon follow:\n"
	"  SWITCH EP media-error [lba L] [count N]\n"
	"        N blocks (default 1) from logical block L (default 0)\n"
	"        become unreadable: reads that touch them fail (EIO;\n"
	"        Unrecovered Read Error 0x281), each counted in SMART\n"
	"        Media Errors and logged, until the blocks are written\n"
	"  SWITCH EP temp DEGREES|clear\n"
	"        force the drive's composite temperature (whole kelvins);\n"
	"        over its threshold (FID 4) critical warning bit 1 is set\n"
	"  SWITCH EP spare PCT\n"
	"        available spare, percent; below 10 sets warning bit 0\n"
	"  SWITCH EP read-only [on|off]\n"
	"        media read-only: writes fail (EIO; Attempted Write to Read\n"
	"        Only Range 0x182), warning bit 3 set\n"
	"  SWITCH EP self-test-fail\n"
	"        the next device self-test fails its segment 6 (media check)\n"
	"Errors an endpoint EP (name, e.g. gpu0 or nvme0, or id) detects,\n"
	"reported through its AER capability as the endpoint reports them\n"
	"and counted in its AER errors (ep show):\n"
	"  SWITCH EP aer ERROR [--count N]\n"
	"        N errors (default 1): its AER status bit is set and, unless\n"
	"        masked, ERR_COR, or ERR_NONFATAL or ERR_FATAL by its\n"
	"        Uncorrectable Error Severity, goes to the Root Port.\n"
	"        ERROR: completion-timeout, unsupported-request, poisoned-tlp\n"
	"        (non-fatal by default), uncorrectable-internal (fatal,\n"
	"        masked by default), corrected-internal (correctable, masked\n"
	"        by default), advisory-non-fatal (an Unsupported Request\n"
	"        handled as Advisory Non-Fatal: ERR_COR, masked by default)\n"
	"Error counters; correctable: "
	ERROR_COUNTER_NAMES_HELP
	"Prints nothing on success.\n";
