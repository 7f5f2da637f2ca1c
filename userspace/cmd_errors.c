// SPDX-License-Identifier: GPL-2.0
/*
 * Counters: errors show/clear, error thresholds, and bw (traffic rates
 * from two samples of the same counters).
 *
 * In JSON the counters of a port are an object keyed by the spec's counter
 * names ("counter": {"bad-tlp": 5, ...}); the text shows one line per
 * counter.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

static bool is_traffic(uint32_t counter)
{
	return counter >= PCIESW_COUNTER_FIRST_TRAFFIC;
}

static const char *counter_class(uint32_t counter)
{
	if (is_traffic(counter))
		return "traffic";
	if (counter >= PCIESW_COUNTER_FIRST_UNCORRECTABLE)
		return "uncorrectable";
	return "correctable";
}

static int parse_counter_arg(const char *arg, uint32_t *counter)
{
	if (enum_parse(&counter_names, arg, 0, counter))
		return EXIT_OK;
	return usage_error("unknown counter \"%s\" (the help lists them)",
			   arg);
}

/* --- errors show ---------------------------------------------------------- */

/* --all: every counter, traffic too, zero or not */
static bool show_all;

static void print_counters_header(void)
{
	print_text("%-5s %-14s %-24s %s\n", "PORT", "CLASS", "COUNTER",
		   "VALUE");
}

/*
 * The counters of the port @tb: JSON "counter", the error counters (all of
 * them with --all); text, one line per counter not zero (every counter
 * with --all).  Returns the number of text lines.
 */
static size_t print_port_counters(const struct nlmsghdr *nlh,
				  struct nlattr **tb)
{
	struct counter_set c;
	size_t lines = 0;
	uint32_t i;

	counters_read(nlh, &c);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_JSON, "port-id", NULL, tb[PCIESW_A_PORT_ID]);
	open_object("counter");
	for (i = 0; i <= PCIESW_COUNTER_MAX; i++) {
		const char *name = enum_spec(&counter_names, i);

		if (!c.has[i] || (is_traffic(i) && !show_all))
			continue;
		print_uint(PRINT_JSON, name, NULL, c.v[i]);
		if (!c.v[i] && !show_all)
			continue;
		print_attr_u32(PRINT_TEXT, NULL, "%-5s ",
			       tb[PCIESW_A_PORT_ID]);
		print_string(PRINT_TEXT, NULL, "%-14s ", counter_class(i));
		print_string(PRINT_TEXT, NULL, "%-24s ", name);
		print_uint(PRINT_TEXT, NULL, "%s\n", c.v[i]);
		lines++;
	}
	close_object();
	return lines;
}

static void errors_switch(struct nlattr **sw, const struct objs *ports,
			  const struct objs *unused __attribute__((unused)))
{
	size_t i, lines = 0;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_counters_header();
	open_array("ports");
	for (i = 0; i < ports->n; i++) {
		if (!same_switch(ports->tb[i], sw))
			continue;
		open_object(NULL);
		lines += print_port_counters(objs_hdr(ports, i),
					     ports->tb[i]);
		close_object();
	}
	close_array();
	if (!lines)
		print_text("(no errors)\n");
	close_object();
}

/* "errors SWITCH PORT": one port, asked for by id */
static int errors_port(char **argv)
{
	struct objs port = { 0 };
	struct nl_session *s;
	struct nl_msg *req;
	uint32_t id, pid;
	char name[32];
	int ret;

	ret = parse_switch_port(2, argv, &id, &pid);
	if (ret)
		return ret;
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = port_request_new(s, PCIESW_CMD_COUNTER_GET, id, pid);
	ret = objs_run(s, req, &port, "cannot get the counters of the port");
	nl_session_close(s);
	if (ret)
		return ret;

	switch_name(name, sizeof(name), id);
	open_object(NULL);
	print_string(PRINT_ANY, "switch", "%s:\n", name);
	print_counters_header();
	if (port.n && !print_port_counters(objs_hdr(&port, 0), port.tb[0]))
		print_text("(no errors)\n");
	close_object();
	objs_free(&port);
	return finish(EXIT_OK);
}

int cmd_errors_show(int argc, char **argv)
{
	bool clear = false;
	const struct cmd_opt opts[] = {
		{ "--all", "-a", &show_all, NULL },
		{ "--clear", NULL, &clear, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	if (clear) {
		if (show_all)
			return usage_error("--clear clears; it shows nothing (--all)");
		return cmd_errors_clear(argc, argv);
	}
	if (argc > 2)
		return usage_error("too many arguments: \"%s\"", argv[2]);
	if (argc == 2)
		return errors_port(argv);
	return per_switch_cmd(argc, argv, PCIESW_CMD_COUNTER_GET, "counters",
			      0, NULL, errors_switch);
}

const char errors_show_help[] =
	"\"switchctl errors [SWITCH [PORT]]\" is \"errors show\".  One line\n"
	"per error counter that is not zero: port, class (correctable,\n"
	"uncorrectable), counter, value; \"(no errors)\" if there is none.\n"
	"  -a, --all   every counter, zero or not, traffic counters too\n"
	"              (bytes and TLPs per direction and TLP class)\n"
	"  --clear     clear the counters instead (see errors clear;\n"
	"              needs CAP_NET_ADMIN)\n"
	"With -j: {\"switch\": NAME, \"ports\": [{switch-id, port-id,\n"
	"\"counter\": {NAME: VALUE, ...}}]} with every error counter (and\n"
	"with --all every counter) under its spec name (bad-tlp,\n"
	"ingress-posted-bytes); with PORT, one such port object with\n"
	"\"switch\"; without SWITCH, an array of switch objects.\n";

/* --- errors clear --------------------------------------------------------- */

int cmd_errors_clear(int argc, char **argv)
{
	struct port_target t;
	struct nl_session *s;
	struct nl_msg *req;
	int ret;

	ret = parse_switch_opt_port(argc, argv, &t);
	if (ret)
		return ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = port_target_request_new(s, PCIESW_CMD_COUNTER_CLEAR, false, &t);
	ret = t.one ?
	      nl_request_run(s, req, NULL,
			     "cannot clear the counters of port %u of switch %u",
			     t.port, t.id) :
	      nl_request_run(s, req, NULL,
			     "cannot clear the counters of switch %u", t.id);
	nl_session_close(s);
	return finish(ret);
}

const char errors_clear_help[] =
	"Zeroes every counter (errors and traffic) of PORT, or of every\n"
	"port of SWITCH, and re-arms the thresholds on them.  Prints\n"
	"nothing on success.\n";

/* --- errors threshold / thresholds ---------------------------------------- */

int cmd_errors_threshold(int argc, char **argv)
{
	struct port_target t = { 0 };
	struct nl_session *s;
	struct nl_msg *req;
	unsigned long value;
	uint32_t counter;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	t.one = argc == 4;
	if (argc < 3)
		return usage_error("expected SWITCH [PORT] COUNTER VALUE");
	if (argc > 4)
		return usage_error("too many arguments: \"%s\"", argv[4]);
	ret = t.one ? parse_switch_port(argc, argv, &t.id, &t.port) :
		      parse_switch_arg(argv[0], &t.id);
	if (!ret)
		ret = parse_counter_arg(argv[argc - 2], &counter);
	if (ret)
		return ret;
	if (!parse_uint(argv[argc - 1], UINT64_MAX, &value))
		return usage_error("invalid threshold \"%s\": expected a number (0 removes the threshold)",
				   argv[argc - 1]);

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = port_target_request_new(s, PCIESW_CMD_THRESHOLD_SET, false, &t);
	nl_put_u32(req, PCIESW_A_COUNTER_ID, counter);
	nl_put_u64(req, PCIESW_A_THRESHOLD_VALUE, value);
	ret = nl_request_run(s, req, NULL, "cannot set the %s threshold",
			     argv[argc - 2]);
	nl_session_close(s);
	return finish(ret);
}

const char errors_threshold_help[] =
	"Sets the threshold of COUNTER on PORT, or without PORT on the sum\n"
	"over the switch's ports.  When the counter reaches VALUE, one\n"
	"threshold notification goes out (see monitor); it is re-armed\n"
	"by clearing the counter or setting the threshold again.  A\n"
	"counter already at VALUE notifies at once.  VALUE 0 removes the\n"
	"threshold.  At most 64 thresholds per switch.\n"
	"COUNTER is a counter's spec name; correctable: "
	ERROR_COUNTER_NAMES_HELP
	"traffic: ingress-posted-bytes, ingress-non-posted-bytes,\n"
	"  ingress-completion-bytes, egress-*-bytes, ingress-*-tlps,\n"
	"  egress-*-tlps (posted, non-posted, completion).\n"
	"Prints nothing on success.\n";

static void thresholds_switch(struct nlattr **sw, const struct objs *th,
			      const struct objs *unused __attribute__((unused)))
{
	size_t i, n = 0;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_text("%-6s %-24s %-20s %-20s %s\n", "PORT", "COUNTER",
		   "THRESHOLD", "VALUE", "CROSSED");
	open_array("thresholds");
	for (i = 0; i < th->n; i++) {
		struct nlattr **tb = th->tb[i];

		if (!same_switch(tb, sw))
			continue;
		n++;
		open_object(NULL);
		print_attr_u32(PRINT_JSON, "switch-id", NULL,
			       tb[PCIESW_A_SWITCH_ID]);
		/* no port-id: on the sum over the switch's ports */
		print_attr_u32(PRINT_JSON, "port-id", NULL,
			       tb[PCIESW_A_PORT_ID]);
		if (tb[PCIESW_A_PORT_ID])
			print_attr_u32(PRINT_TEXT, NULL, "%-6s ",
				       tb[PCIESW_A_PORT_ID]);
		else
			print_text("%-6s ", "switch");
		print_attr_enum(PRINT_ANY, "counter-id", "%-24s ",
				tb[PCIESW_A_COUNTER_ID], &counter_names);
		print_attr_u64(PRINT_ANY, "threshold-value", "%-20s ",
			       tb[PCIESW_A_THRESHOLD_VALUE]);
		print_attr_u64(PRINT_ANY, "counter-value", "%-20s ",
			       tb[PCIESW_A_COUNTER_VALUE]);
		print_attr_flag(PRINT_ANY, "threshold-crossed", "%s\n",
				tb[PCIESW_A_THRESHOLD_CROSSED], "yes", "no");
		close_object();
	}
	close_array();
	if (!n)
		print_text("(no thresholds)\n");
	close_object();
}

int cmd_errors_thresholds(int argc, char **argv)
{
	return per_switch_cmd(argc, argv, PCIESW_CMD_THRESHOLD_GET,
			      "thresholds", 0, NULL, thresholds_switch);
}

const char errors_thresholds_help[] =
	"Columns: port (\"switch\" for a threshold on the sum over the\n"
	"switch's ports), counter, threshold, the counter's value now,\n"
	"and whether it crossed the threshold since it was armed.\n"
	"With -j: {\"switch\": NAME, \"thresholds\": [...]} with the\n"
	"threshold-get attributes switch-id, port-id (null: switch-wide),\n"
	"counter-id, threshold-value, counter-value, threshold-crossed;\n"
	"without SWITCH, an array of such objects.\n";

/* --- bw ------------------------------------------------------------------- */

/* Shortest and longest --interval, ms */
#define BW_MIN_MS	10
#define BW_MAX_MS	3600000

static void sleep_ms(uint64_t ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = ms % 1000 * 1000000,
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The two samples and the time between them. */
struct bw_samples {
	struct objs before, after;
	uint64_t ns;
};

static const struct bw_samples *bw;

/* The reply of @before for the port of @tb, or -1. */
static long find_port(const struct objs *before, struct nlattr **tb)
{
	size_t i;

	if (!tb[PCIESW_A_PORT_ID])
		return -1;
	for (i = 0; i < before->n; i++)
		if (same_switch(before->tb[i], tb) &&
		    before->tb[i][PCIESW_A_PORT_ID] &&
		    nla_get_u32(before->tb[i][PCIESW_A_PORT_ID]) ==
		    nla_get_u32(tb[PCIESW_A_PORT_ID]))
			return i;
	return -1;
}

/* per second, rounded down */
static uint64_t per_sec(uint64_t delta, uint64_t ns)
{
	return (unsigned __int128)delta * 1000000000 / ns;
}

/* Sums of the traffic counters of one direction and kind, per second. */
enum { IN_BYTES, OUT_BYTES, IN_TLPS, OUT_TLPS, NR_SUMS };

static const char *const sum_keys[NR_SUMS] = {
	[IN_BYTES] = "ingress-bytes-per-s",
	[OUT_BYTES] = "egress-bytes-per-s",
	[IN_TLPS] = "ingress-tlps-per-s",
	[OUT_TLPS] = "egress-tlps-per-s",
};

/* Which sum a traffic counter adds to (the enum's order: 3 of each). */
static int sum_of(uint32_t counter)
{
	return (counter - PCIESW_COUNTER_FIRST_TRAFFIC) / 3;
}

static void bw_port(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct counter_set now, then = { 0 };
	uint64_t rate, sums[NR_SUMS] = { 0 };
	char buf[32];
	long prev;
	uint32_t i;
	int k;

	counters_read(nlh, &now);
	prev = find_port(&bw->before, tb);
	if (prev >= 0)
		counters_read(objs_hdr(&bw->before, prev),
			      &then);
	open_object(NULL);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_ANY, "port-id", "%-5s ", tb[PCIESW_A_PORT_ID]);
	open_object("counter-rate");
	for (i = PCIESW_COUNTER_FIRST_TRAFFIC; i <= PCIESW_COUNTER_MAX; i++) {
		if (!now.has[i])
			continue;
		/* less than before: cleared (or a new port) in between */
		rate = per_sec(now.v[i] >= then.v[i] ? now.v[i] - then.v[i] :
			       now.v[i], bw->ns);
		sums[sum_of(i)] += rate;
		print_uint(PRINT_JSON, enum_spec(&counter_names, i), NULL,
			   rate);
	}
	close_object();
	for (k = 0; k < NR_SUMS; k++) {
		print_uint(PRINT_JSON, sum_keys[k], NULL, sums[k]);
		rate_text(buf, sizeof(buf), sums[k],
			  k == IN_BYTES || k == OUT_BYTES ? "B/s" : "TLP/s");
		print_string(PRINT_TEXT, NULL,
			     k == NR_SUMS - 1 ? "%s\n" : "%-14s ", buf);
	}
	close_object();
}

static void bw_switch(struct nlattr **sw, const struct objs *after,
		      const struct objs *unused __attribute__((unused)))
{
	size_t i;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_uint(PRINT_JSON, "interval-ns", NULL, bw->ns);
	print_text("%-5s %-14s %-14s %-14s %s\n", "PORT", "INGRESS", "EGRESS",
		   "INGRESS-TLPS", "EGRESS-TLPS");
	open_array("ports");
	for (i = 0; i < after->n; i++)
		if (same_switch(after->tb[i], sw))
			bw_port(objs_hdr(after, i), after->tb[i]);
	close_array();
	close_object();
}

int cmd_bw(int argc, char **argv)
{
	const char *interval = NULL;
	const struct cmd_opt opts[] = {
		{ "--interval", "-i", NULL, &interval },
		{ NULL, NULL, NULL, NULL },
	};
	struct bw_samples samples = { 0 };
	struct objs sw = { 0 };
	struct nl_session *s;
	struct target t;
	int64_t ms = 1000;
	uint64_t t0;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	if (interval && (!parse_milli(interval, false, &ms) ||
			 ms < BW_MIN_MS || ms > BW_MAX_MS))
		return usage_error("invalid interval \"%s\": expected seconds from %g to %d (0.5 is half a second)",
				   interval, BW_MIN_MS / 1000.0,
				   BW_MAX_MS / 1000);
	ret = parse_target(argc, argv, &t);
	if (ret)
		return ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	/* the time of a sample: when its dump ended */
	ret = fetch_with_children(s, &t, PCIESW_CMD_COUNTER_GET, &sw,
				  &samples.before, "counters");
	t0 = now_ns();
	if (!ret) {
		sleep_ms(ms);
		ret = objs_fetch(s, PCIESW_CMD_COUNTER_GET, true, !t.all,
				 t.id, &samples.after, "cannot list counters");
		samples.ns = now_ns() - t0;
	}
	nl_session_close(s);
	if (ret)
		goto out;

	bw = &samples;
	print_per_switch(&t, &sw, &samples.after, NULL, bw_switch);
	ret = finish(EXIT_OK);
out:
	objs_free(&sw);
	objs_free(&samples.before);
	objs_free(&samples.after);
	return ret;
}

const char bw_help[] =
	"Reads the traffic counters twice, S seconds apart (default 1;\n"
	"0.01 to 3600, with up to three decimals), and prints per port\n"
	"the ingress (received by the switch on the port) and egress\n"
	"rates in bytes and TLPs per second, over all TLP classes, with\n"
	"SI prefixes (1.05 GB/s = 1.05e9 bytes/s).  A counter that went\n"
	"down between the samples (cleared) counts from zero.\n"
	"With -j: {\"switch\", \"interval-ns\" (measured), \"ports\":\n"
	"[{switch-id, port-id, ingress-bytes-per-s, egress-bytes-per-s,\n"
	"ingress-tlps-per-s, egress-tlps-per-s, \"counter-rate\": {the\n"
	"traffic counters' spec names: per second}}]}, whole numbers;\n"
	"without SWITCH, an array of such objects.\n";
