// SPDX-License-Identifier: GPL-2.0
/*
 * dma copy and dma bench: the arguments, the endpoints looked up over
 * netlink, the upstream port's traffic counters around a benchmark, and
 * the report.  The transfers themselves go through /dev/pcieswN (dma.c).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attr.h"
#include "cmd.h"
#include "dma.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* Defaults of dma bench */
#define BENCH_BLOCK	(1ULL << 20)
#define BENCH_DEPTH	16

/* "host" or EP[:OFFSET] (OFFSET with an optional K/M/G/T suffix) */
static int parse_end(const char *arg, struct dma_end *end, struct ep_ref *ep)
{
	const char *colon = strchr(arg, ':');
	char name[PCIESW_NAME_LEN + 1];
	size_t n;

	*end = (struct dma_end){ 0 };
	if (!strcmp(arg, "host")) {
		end->host = true;
		snprintf(end->text, sizeof(end->text), "host");
		return EXIT_OK;
	}
	n = colon ? (size_t)(colon - arg) : strlen(arg);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;	/* parse_ep_arg says it is too long */
	memcpy(name, arg, n);
	name[n] = '\0';
	if (colon && !parse_size(colon + 1, &end->addr))
		return usage_error("invalid offset in \"%s\": expected EP:OFFSET, OFFSET in bytes with an optional K, M, G or T suffix",
				   arg);
	if (parse_ep_arg(name, ep)) {
		ep->name = NULL;
		return EXIT_USAGE;
	}
	/* parse_ep_arg points into @name, which is gone after return */
	ep->name = xstrdup(name);
	return EXIT_OK;
}

/* The endpoint of @end by name or id, for its id and name. */
static int resolve_end(struct nl_session *s, uint32_t id, struct ep_ref *ep,
		       struct dma_end *end)
{
	struct objs o = { 0 };
	struct nl_msg *req;
	int ret;

	if (end->host)
		return EXIT_OK;
	req = ep_request_new(s, PCIESW_CMD_EP_GET, id, ep);
	ret = objs_run(s, req, &o, "cannot get the endpoint");
	if (!ret && (o.n != 1 || !o.tb[0][PCIESW_A_EP_ID])) {
		error("the kernel answered ep-get without one endpoint");
		ret = EXIT_FAIL;
	}
	if (!ret) {
		end->ep_id = nla_get_u32(o.tb[0][PCIESW_A_EP_ID]);
		if (o.tb[0][PCIESW_A_EP_NAME])
			snprintf(end->text, sizeof(end->text), "%s:%" PRIu64,
				 nla_get_string(o.tb[0][PCIESW_A_EP_NAME]),
				 end->addr);
		else
			snprintf(end->text, sizeof(end->text), "%u:%" PRIu64,
				 end->ep_id, end->addr);
	}
	objs_free(&o);
	return ret;
}

/* A count option: 1 .. @max */
static int parse_count_opt(const char *opt, const char *arg, uint64_t max,
			   uint32_t *val)
{
	unsigned long v;

	if (!parse_uint(arg, max, &v) || !v)
		return usage_error("invalid %s \"%s\": expected a number from 1 to %" PRIu64,
				   opt, arg, max);
	*val = v;
	return EXIT_OK;
}

/* A size option: 1 .. @max bytes */
static int parse_size_opt(const char *opt, const char *arg, uint64_t max,
			  uint64_t *val)
{
	char buf[32];

	if (parse_size(arg, val) && *val && *val <= max)
		return EXIT_OK;
	size_text(buf, sizeof(buf), max);
	return usage_error("invalid %s \"%s\": expected bytes from 1 to %s, with an optional K, M, G or T suffix",
			   opt, arg, buf);
}

/* What both commands take. */
struct dma_args {
	uint32_t id;
	struct dma_job job;
	struct ep_ref src_ep, dst_ep;
	bool json, pretty;
	const char *size, *block, *depth, *channels;
	bool bounce;
};

static void dma_args_free(struct dma_args *a)
{
	free((char *)a->src_ep.name);
	free((char *)a->dst_ep.name);
}

/* SWITCH SRC DST, once the options are out of argv */
static int parse_dma_args(int argc, char **argv, struct dma_args *a)
{
	int ret;

	output_options(a->json, a->pretty);
	ret = need_args(argc, argv, 3, "switch", "source", "destination",
			NULL);
	if (ret)
		return ret;
	if (!a->size)
		return usage_error("missing --size");
	ret = parse_switch_arg(argv[0], &a->id);
	if (!ret)
		ret = parse_end(argv[1], &a->job.src, &a->src_ep);
	if (!ret)
		ret = parse_end(argv[2], &a->job.dst, &a->dst_ep);
	if (!ret)
		ret = parse_size_opt("--size", a->size, UINT64_MAX / 2,
				     &a->job.size);
	if (ret)
		return ret;
	if (a->job.src.host && a->job.dst.host)
		return usage_error("host on both sides: DMA moves to or from an endpoint");
	return EXIT_OK;
}

/* The switch's dma-channels setting (0 if the module does not say). */
static int switch_channels(struct nl_session *s, uint32_t id, uint32_t *n)
{
	struct objs o = { 0 };
	int ret;

	ret = objs_fetch(s, PCIESW_CMD_SWITCH_GET, false, true, id, &o,
			 "cannot get the switch");
	if (ret)
		return ret;
	*n = o.n == 1 && o.tb[0][PCIESW_A_SWITCH_DMA_CHANNELS] ?
	     nla_get_u32(o.tb[0][PCIESW_A_SWITCH_DMA_CHANNELS]) : 0;
	objs_free(&o);
	return EXIT_OK;
}

/* per second, rounded down; 0 for no time */
static uint64_t per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (unsigned __int128)n * 1000000000 / ns : 0;
}

/* "64 ok, 2 p2p-refused" in text; {"ok": 64, ...} in JSON */
static void print_statuses(const struct dma_result *res, const char *fmt)
{
	const char *name;
	char *text = NULL, *next;
	uint32_t st;

	open_object("status");
	for (st = 0; st <= DMA_STATUS_UNKNOWN; st++) {
		if (!res->status[st])
			continue;
		name = enum_spec(&dma_status_names, st);
		if (!name)
			name = "unknown";
		print_uint(PRINT_JSON, name, NULL, res->status[st]);
		next = xasprintf("%s%s%" PRIu64 " %s", text ? text : "",
				 text ? ", " : "", res->status[st], name);
		free(text);
		text = next;
	}
	close_object();
	print_string(PRINT_TEXT, NULL, fmt, text);
	free(text);
}

/* The error line of a run with failed transfers; EXIT_FAIL. */
static int report_failures(const struct dma_args *a,
			   const struct dma_result *res)
{
	const char *name = enum_spec(&dma_status_names, res->first_status);
	char sw[32];

	switch_name(sw, sizeof(sw), a->id);
	error("%" PRIu64 " of %" PRIu64 " DMA transfers failed, the first with status %s%s",
	      res->failed, res->completions, name ? name : "unknown",
	      res->first_status == PCIESW_DMA_STATUS_P2P_REFUSED ?
	      " (see switchctl p2p check)" : "");
	return EXIT_FAIL;
}

/* What copy and bench print; @upstream is NULL for copy. */
static void print_report(const struct dma_args *a,
			 const struct dma_result *res,
			 const uint64_t *upstream, uint32_t up_port)
{
	const struct dma_job *job = &a->job;
	char sw[32], buf[32];

	switch_name(sw, sizeof(sw), a->id);
	open_object(NULL);
	print_string(PRINT_ANY, "switch", "%s: ", sw);
	print_string(PRINT_ANY, "src", "%s -> ", job->src.text);
	if (job->bounce)
		print_text("host -> ");
	print_string(PRINT_ANY, "dst", "%s", job->dst.text);
	print_uint(PRINT_JSON, "size", NULL, job->size);
	if (upstream) {
		print_bool(PRINT_ANY, "bounce", "%s", job->bounce,
			   job->bounce ? " (bounce)" : "");
		size_text(buf, sizeof(buf), job->size);
		print_string(PRINT_TEXT, NULL, ", %s", buf);
		size_text(buf, sizeof(buf), job->block);
		print_uint(PRINT_JSON, "block", NULL, job->block);
		print_string(PRINT_TEXT, NULL, " in %s blocks", buf);
		print_uint(PRINT_ANY, "depth", ", depth %s", job->depth);
		print_uint(PRINT_ANY, "channels", ", %s channels\n",
			   job->channels);
		print_text("  moved:     ");
	} else {
		print_text(": ");
	}
	print_uint(PRINT_ANY, "bytes", "%s bytes", res->bytes);
	print_uint(PRINT_ANY, "completions", " in %s transfers",
		   res->completions);
	print_statuses(res, " (%s)");

	duration_text(buf, sizeof(buf), res->wall_ns);
	print_uint(PRINT_JSON, "wall-ns", NULL, res->wall_ns);
	print_string(PRINT_TEXT, NULL, upstream ? "\n  wall:      %s" :
			   ", wall %s", buf);
	rate_text(buf, sizeof(buf), per_sec(res->bytes, res->wall_ns), "B/s");
	print_uint(PRINT_JSON, "bytes-per-s", NULL,
		   per_sec(res->bytes, res->wall_ns));
	print_string(PRINT_TEXT, NULL, ", %s", buf);
	if (upstream)
		print_uint(PRINT_ANY, "completions-per-s", ", %s completions/s",
			   per_sec(res->completions, res->wall_ns));
	duration_text(buf, sizeof(buf), res->modelled_ns);
	print_uint(PRINT_JSON, "modelled-ns", NULL, res->modelled_ns);
	print_string(PRINT_TEXT, NULL, upstream ?
		     "\n  modelled:  %s summed over the transfers" :
		     ", modelled %s\n", buf);
	if (upstream) {
		print_uint(PRINT_ANY, "upstream-port", "\n  upstream:  port %s",
			   up_port);
		print_uint(PRINT_ANY, "upstream-bytes", ", %s bytes\n",
			   *upstream);
	}
	close_object();
}

/* Runs the job of @a; with @bench also counts the upstream port's bytes. */
static int dma_cmd(struct dma_args *a, bool bench)
{
	struct dma_result res;
	struct nl_session *s;
	uint64_t before = 0, after = 0, upstream;
	uint32_t up_port = 0, nr_channels = 0;
	int fd = -1, ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = resolve_end(s, a->id, &a->src_ep, &a->job.src);
	if (!ret)
		ret = resolve_end(s, a->id, &a->dst_ep, &a->job.dst);
	if (!ret && bench)
		ret = switch_channels(s, a->id, &nr_channels);
	if (!ret && bench && !a->job.channels)
		a->job.channels = nr_channels ? nr_channels : 1;
	if (!ret && nr_channels && a->job.channels > nr_channels) {
		error("--channels %u: switch %u has %u DMA channels (switchctl switch set pciesw%u channels N)",
		      a->job.channels, a->id, nr_channels, a->id);
		ret = EXIT_FAIL;
	}
	if (!ret && bench)
		ret = find_upstream(s, a->id, &up_port);
	if (!ret)
		ret = dma_open(a->id, &fd);
	if (!ret && bench)
		ret = port_bytes(s, a->id, up_port, &before);
	if (!ret)
		ret = dma_run(fd, &a->job, &res);
	if (fd >= 0)
		close(fd);
	if (!ret && bench)
		ret = port_bytes(s, a->id, up_port, &after);
	nl_session_close(s);
	if (ret)
		return ret;

	/* cleared in between: count from zero */
	upstream = after >= before ? after - before : after;
	print_report(a, &res, bench ? &upstream : NULL, up_port);
	ret = finish(EXIT_OK);
	if (!ret && res.failed)
		ret = report_failures(a, &res);
	return ret;
}

int cmd_dma_copy(int argc, char **argv)
{
	struct dma_args a = { 0 };
	const struct cmd_opt opts[] = {
		{ "--size", "-s", NULL, &a.size },
		JSON_OPTIONS(a.json, a.pretty),
		{ NULL, NULL, NULL, NULL },
	};
	struct dma_job *job = &a.job;
	uint64_t depth;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (!ret)
		ret = parse_dma_args(argc, argv, &a);
	if (ret)
		goto out;
	/* one transfer, in pieces of the largest a descriptor takes, in order */
	job->block = job->size < PCIESW_DMA_MAX_LEN ? job->size :
						       PCIESW_DMA_MAX_LEN;
	job->channels = 1;
	depth = job->size / job->block + !!(job->size % job->block);
	if (depth > PCIESW_DMA_MAX_INFLIGHT)
		depth = PCIESW_DMA_MAX_INFLIGHT;
	if ((job->src.host || job->dst.host) &&
	    depth > PCIESW_DMA_MAX_PINNED / job->block)
		depth = PCIESW_DMA_MAX_PINNED / job->block;
	job->depth = depth;
	ret = dma_cmd(&a, false);
out:
	dma_args_free(&a);
	return ret;
}

const char dma_copy_help[] =
	"SRC and DST are EP[:OFFSET], an endpoint name (nvme0) or id and a\n"
	"byte offset in its memory window (default 0; K, M, G, T\n"
	"suffixes: gpu0:4K), or \"host\", a host memory buffer of\n"
	"switchctl's; one of them is an endpoint.\n"
	"  -s, --size N  bytes to move (K, M, G, T suffixes: 64M)\n"
	"Moves N bytes on DMA channel 0, in descriptors of at most 1G\n"
	"that run in order, and prints the bytes moved, the transfers\n"
	"by completion status, the wall time and throughput and the\n"
	"modelled time (the bandwidth model's, summed over the\n"
	"transfers).\n"
	"  -j, --json    (also before the command) {switch, src, dst, size,\n"
	"                bytes, completions, \"status\": {STATUS: count},\n"
	"                wall-ns, bytes-per-s, modelled-ns}; statuses are\n"
	"                the spec's dma-status names: ok, p2p-refused,\n"
	"                unplugged, cancelled, link-down, nomem\n"
	"  -p, --pretty  indented JSON\n"
	"A transfer that completes with another status than ok makes the\n"
	"exit status 1 and an error line name the status (the report is\n"
	"printed all the same).  Needs read-write access to /dev/pcieswN.\n";

int cmd_dma_bench(int argc, char **argv)
{
	struct dma_args a = { 0 };
	const struct cmd_opt opts[] = {
		{ "--size", "-s", NULL, &a.size },
		{ "--block", "-b", NULL, &a.block },
		{ "--depth", "-q", NULL, &a.depth },
		{ "--channels", "-c", NULL, &a.channels },
		{ "--bounce", NULL, &a.bounce, NULL },
		JSON_OPTIONS(a.json, a.pretty),
		{ NULL, NULL, NULL, NULL },
	};
	struct dma_job *job = &a.job;
	char buf[32];
	int ret;

	ret = take_options(&argc, argv, opts);
	if (!ret)
		ret = parse_dma_args(argc, argv, &a);
	job->bounce = a.bounce;
	job->block = job->size < BENCH_BLOCK ? job->size : BENCH_BLOCK;
	job->depth = BENCH_DEPTH;
	if (!ret && a.block)
		ret = parse_size_opt("--block", a.block, PCIESW_DMA_MAX_LEN,
				     &job->block);
	if (!ret && a.depth)
		ret = parse_count_opt("--depth", a.depth,
				      PCIESW_DMA_MAX_INFLIGHT, &job->depth);
	if (!ret && a.channels)
		ret = parse_count_opt("--channels", a.channels, 16,
				      &job->channels);
	if (ret)
		goto out;
	if (job->bounce && (job->src.host || job->dst.host)) {
		ret = usage_error("--bounce moves between two endpoints through host memory: SRC and DST are endpoints");
		goto out;
	}
	if (dma_host_bytes(job) > PCIESW_DMA_MAX_PINNED) {
		size_text(buf, sizeof(buf), PCIESW_DMA_MAX_PINNED);
		ret = usage_error("--depth x --block of host memory is more than the %s a file may pin",
				  buf);
		goto out;
	}
	ret = dma_cmd(&a, true);
out:
	dma_args_free(&a);
	return ret;
}

const char dma_bench_help[] =
	"SRC and DST as in dma copy.  Moves N bytes from SRC to DST in\n"
	"blocks, keeping a number of them in flight, block i on channel\n"
	"i % C, and prints the throughput (wall clock), completions per\n"
	"second, the modelled time summed over the transfers, and the\n"
	"payload bytes the switch's upstream port counted during the\n"
	"run (its posted and completion byte counters, both ways: 0 for\n"
	"direct P2P; with --bounce twice the size, up and down).\n"
	"  -s, --size N      bytes to move (K, M, G, T suffixes)\n"
	"  -b, --block B     bytes per transfer (default 1M, at most 1G)\n"
	"  -q, --depth Q     blocks in flight (default 16, at most 4096)\n"
	"  -c, --channels C  DMA channels used (default: all the switch\n"
	"                    has, see switch set ... channels)\n"
	"  --bounce          the same move through host memory: each block\n"
	"                    SRC -> host buffer, then host buffer -> DST\n"
	"                    (two dependent transfers), for comparison\n"
	"                    with P2P; SRC and DST are endpoints\n"
	"Host memory in flight (depth x block) is at most 1G.\n"
	"  -j, --json        (also before the command) {switch, src, dst,\n"
	"                    size, bounce, block, depth, channels, bytes,\n"
	"                    completions, \"status\": {STATUS: count},\n"
	"                    wall-ns, bytes-per-s, completions-per-s,\n"
	"                    modelled-ns, upstream-port, upstream-bytes}\n"
	"  -p, --pretty      indented JSON\n"
	"A transfer that completes with another status than ok makes the\n"
	"exit status 1 and an error line name the status (the report is\n"
	"printed all the same).  Needs read-write access to /dev/pcieswN.\n";
