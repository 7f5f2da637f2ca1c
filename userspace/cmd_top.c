// SPDX-License-Identifier: GPL-2.0
/*
 * top: the cards' health at a glance, live.  Every interval a snapshot of
 * what changes without a notification (switches, for DMA in flight;
 * temperatures, counters, thresholds, the endpoints' resident memory and
 * the drives' I/O counters) is fetched, rates and deltas are computed
 * against the snapshot before, and the result goes to a full-screen
 * ncurses view (procps top, iftop) or, in batch mode, to stdout as plain
 * text or one JSON object per snapshot.  Between snapshots the events of
 * the monitor group are shown as they arrive.
 *
 * The ports (each with its LTSSM history, most of what a snapshot would
 * cost), the firmware and the endpoints are fetched at start and again at
 * the refresh after a notification that may touch them (a port's link, an
 * endpoint, a group, a switch, the firmware), when a switch's number of
 * ports or the endpoints of the snapshot differ from theirs, after events
 * were lost, and at least every INFO_MAX_MS: a card created or deleted, a
 * re-bifurcated group, an endpoint added or a link that flapped shows as
 * it is at the next refresh.  When the module goes away the view says so
 * and waits for it to come back.
 */

#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "cmd.h"
#include "nl.h"
#include "objs.h"
#include "print.h"
#include "top.h"
#include "util.h"

const char top_help[] =
	"A full-screen view of the cards, refreshed every SECONDS (default\n"
	"1), like top(1):\n"
	"  a header per card: profile, serial (with CAP_SYS_ADMIN), firmware,\n"
	"  PCI domain, the sensors' temperatures (WARN over their max, CRIT\n"
	"  over crit) with the limits, DMA descriptors in flight, pacing, and\n"
	"  the switch-wide thresholds crossed;\n"
	"  one row per port: PORT, GROUP, ROLE (up: upstream, dn: downstream),\n"
	"  LINK (the LTSSM state, l0 while up; disabled, dpc while Downstream\n"
	"  Port Containment holds it, surprise after a surprise down),\n"
	"  GEN and WIDTH now against the maximum (x8/16* is degraded), RX/s\n"
	"  and TX/s (bytes/s in and out of the port) and TLP/s from the\n"
	"  counters between refreshes, CERR and UERR: correctable and\n"
	"  uncorrectable errors as +DELTA/TOTAL, the delta since top started\n"
	"  or since the last c, \"!\" when a threshold on the port was crossed,\n"
	"  then the endpoint and (when wide enough) PCI names;\n"
	"  the GPUs and drives: resident memory of the window against its size,\n"
	"  the disk and the read and write rates of the drive (its I/O as it\n"
	"  counts it: the disk's, passthrough commands', DMA's);\n"
	"  the last events of the monitor group (see monitor), as they come.\n"
	"Keys: q quit, n/p next/previous card, s sort (port, traffic,\n"
	"errors), e only the ports with errors, c clear the deltas, up/down\n"
	"scroll the ports, h help.  80x24 and larger; redraws on resize.\n"
	"When the module is unloaded it says so and waits for it.\n"
	"  -d, --delay SECONDS   refresh interval, 0.1 to 3600 (0.5: half a\n"
	"                        second)\n"
	"  -b, --batch           batch mode: plain text snapshots on stdout,\n"
	"                        no terminal needed (for logs and scripts)\n"
	"  -n, --iterations N    stop after N snapshots\n"
	"  -j, --json            batch mode, one JSON object per snapshot per\n"
	"                        line: \"time\" (CLOCK_MONOTONIC ns),\n"
	"                        \"interval-ns\" (null for the first),\n"
	"                        \"module-loaded\", \"switches\": [{the switch-get\n"
	"                        attributes, fw-running-version, thermal-highest,\n"
	"                        thermal-sensor: [...], \"thresholds-crossed\":\n"
	"                        [{port-id (null: switch-wide), counter-id}],\n"
	"                        \"ports\": [{port-id, group-name, port-role,\n"
	"                        port-ltssm, \"link-state\" (up, down, disabled,\n"
	"                        dpc-contained, surprise-down), port-speed,\n"
	"                        port-max-speed, port-width, port-max-width,\n"
	"                        port-degraded, rx-bytes-per-sec,\n"
	"                        tx-bytes-per-sec, rx-tlps-per-sec,\n"
	"                        tx-tlps-per-sec (null in the first snapshot),\n"
	"                        correctable-errors, uncorrectable-errors and\n"
	"                        their -delta, threshold-crossed, ep-name,\n"
	"                        ep-pci-name, port-pci-name}], \"endpoints\":\n"
	"                        [{the ep-get attributes,\n"
	"                        nvme-bytes-read-per-sec,\n"
	"                        nvme-bytes-written-per-sec,\n"
	"                        nvme-host-reads-per-sec,\n"
	"                        nvme-host-writes-per-sec (a drive's I/O as it\n"
	"                        counts it; null for a GPU)}]}],\n"
	"                        \"events\": [the events since the snapshot\n"
	"                        before, as monitor -j prints them]\n"
	"Unprivileged users see everything but what needs privilege (the\n"
	"serial numbers).\n";

/* --delay bounds, ms */
#define TOP_MIN_MS	100
#define TOP_MAX_MS	3600000

struct top_state top;

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* --- events ------------------------------------------------------------------ */

/* An event as monitor prints it, as a string (no newline). */
static char *event_text(const struct nlmsghdr *nlh)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f, *old;

	f = open_memstream(&s, &len);
	if (!f)
		return xstrdup("?");
	old = print_output(f);
	monitor_print_event(nlh);
	print_output(old);
	fclose(f);
	while (len && s[len - 1] == '\n')
		s[--len] = '\0';
	return s;
}

static void add_line(char *line)
{
	if (top.nr_lines == NR_EVENT_LINES) {
		free(top.lines[0]);
		memmove(top.lines, top.lines + 1,
			(NR_EVENT_LINES - 1) * sizeof(*top.lines));
		top.nr_lines--;
	}
	top.lines[top.nr_lines++] = line;
}

/* One event: to the screen now, or kept for the next batch snapshot. */
static bool on_event(const struct nlmsghdr *nlh, void *arg)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct nlattr *tb[PCIESW_A_MAX + 1];
	struct nlmsghdr *copy;
	char stamp[16], *text;
	struct tm tm;
	time_t t;

	(void)arg;
	/* the ports or firmware may have changed: fetched at the next refresh */
	if (gnlh->cmd != PCIESW_CMD_THRESHOLD_NTF &&
	    gnlh->cmd != PCIESW_CMD_THERMAL_ALARM_NTF &&
	    gnlh->cmd != PCIESW_CMD_VPD_CHANGE_NTF)
		top.info.stale = true;
	/* a new card or re-created ports: their deltas count from 0 */
	if ((gnlh->cmd == PCIESW_CMD_SWITCH_CREATE_NTF ||
	     gnlh->cmd == PCIESW_CMD_SWITCH_DELETE_NTF ||
	     gnlh->cmd == PCIESW_CMD_GROUP_CHANGE_NTF) &&
	    !nl_parse_hdr(nlh, tb) && tb[PCIESW_A_SWITCH_ID])
		forget_bases(nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
	if (!top.screen) {
		if (top.nr_pending == top.cap_pending) {
			top.cap_pending = top.cap_pending ?
					  top.cap_pending * 2 : 16;
			top.pending = xreallocarray(top.pending,
						    top.cap_pending,
						    sizeof(*top.pending));
		}
		copy = xmalloc(nlh->nlmsg_len);
		memcpy(copy, nlh, nlh->nlmsg_len);
		top.pending[top.nr_pending++] = copy;
		return true;
	}
	/* the screen: wall-clock time instead of monitor's seconds */
	text = event_text(nlh);
	t = time(NULL);
	if (!localtime_r(&t, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm))
		snprintf(stamp, sizeof(stamp), "?");
	add_line(xasprintf("%s %s", stamp,
			   strstr(text, "] ") ? strstr(text, "] ") + 2 : text));
	free(text);
	return true;
}

/* Reads what came on the event socket; false when the module went away. */
static bool read_events(void)
{
	int ret;

	ret = monitor_receive(top.ev_fd, top.family, &top.ev_buf,
			      &top.ev_cap, on_event, NULL);
	if (ret == MONITOR_GONE) {
		close_sessions();
		return false;
	}
	return true;
}

/*
 * The events kept for a batch snapshot, printed (as a JSON array "events"
 * with -j) and dropped.
 */
void print_pending(void)
{
	size_t i;

	open_array("events");
	for (i = 0; i < top.nr_pending; i++) {
		monitor_print_event(top.pending[i]);
		free(top.pending[i]);
	}
	close_array();
	top.nr_pending = 0;
}

/* One batch snapshot; false when stdout cannot be written. */
static bool batch_output(bool ok)
{
	if (!ok && !top.said_gone && !top.o.json) {
		/* once, on stderr too: the text says it every time */
		warning("the pciesw module is not loaded; waiting for it");
		top.said_gone = true;
	}
	if (top.o.json)
		batch_json(ok);
	else
		batch_text(ok);
	if (print_next() < 0) {
		error("cannot write the output");
		return false;
	}
	return true;
}

/* --- the loop ---------------------------------------------------------------- */

static int parse_top_args(int argc, char **argv)
{
	const char *delay = NULL, *iter = NULL;
	bool pretty = false;
	const struct cmd_opt opts[] = {
		{ "--delay", "-d", NULL, &delay },
		{ "--batch", "-b", &top.o.batch, NULL },
		{ "--iterations", "-n", NULL, &iter },
		JSON_OPTIONS(top.o.json, pretty),
		{ NULL, NULL, NULL, NULL },
	};
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	top.o.interval_ms = 1000;
	if (delay && (!parse_milli(delay, false, &top.o.interval_ms) ||
		      top.o.interval_ms < TOP_MIN_MS ||
		      top.o.interval_ms > TOP_MAX_MS))
		return usage_error("invalid delay \"%s\": expected seconds from %g to %d (0.5 is half a second)",
				   delay, TOP_MIN_MS / 1000.0,
				   TOP_MAX_MS / 1000);
	if (iter && (!parse_uint(iter, UINT32_MAX, &top.o.count) ||
		     !top.o.count))
		return usage_error("invalid number of iterations \"%s\": expected a number from 1",
				   iter);
	if (pretty)
		return usage_error("top -j prints one object per line: no --pretty");
	ret = parse_target(argc, argv, &top.o.t);
	if (ret)
		return ret;
	output_options(top.o.json, false);
	top.o.json = print_is_json();
	if (top.o.json)
		top.o.batch = true;
	return EXIT_OK;
}

/* SWITCH given: it must exist when top starts. */
static int check_target(void)
{
	struct nl_session *s;
	struct objs o = { 0 };
	char *what;
	int ret;

	if (top.o.t.all)
		return EXIT_OK;
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	what = xasprintf("no switch pciesw%u", top.o.t.id);
	ret = objs_fetch(s, PCIESW_CMD_SWITCH_GET, false, true, top.o.t.id, &o,
			 what);
	free(what);
	objs_free(&o);
	nl_session_close(s);
	return ret;
}

/*
 * Waits until @deadline (CLOCK_MONOTONIC ns) for events and keys.
 * False to quit.
 */
static bool wait_until(uint64_t deadline, const sigset_t *orig)
{
	struct pollfd pfd[2];
	struct timespec ts;
	uint64_t now;
	int n, ch;

	while (!stop && (now = now_ns()) < deadline) {
		n = 0;
		if (top.loaded)
			pfd[n++] = (struct pollfd){ .fd = top.ev_fd,
						    .events = POLLIN };
		if (top.screen)
			pfd[n++] = (struct pollfd){ .fd = STDIN_FILENO,
						    .events = POLLIN };
		ts.tv_sec = (deadline - now) / 1000000000;
		ts.tv_nsec = (deadline - now) % 1000000000;
		if (ppoll(pfd, n, &ts, orig) < 0) {
			if (errno == EINTR && top.screen) {
				/* SIGWINCH: ncurses queues a KEY_RESIZE */
				ch = getch();
				if (ch != ERR && !screen_key(ch))
					return false;
				screen_draw();
			}
			continue;
		}
		if (top.loaded && n && (pfd[0].revents & POLLIN)) {
			if (!read_events())
				return true;	/* gone: the next snapshot says so */
			if (top.screen)
				screen_draw();
		}
		if (top.screen) {
			bool any = false;

			while ((ch = getch()) != ERR) {
				if (!screen_key(ch))
					return false;
				any = true;
			}
			if (any)
				screen_draw();
		}
	}
	return !stop;
}

int cmd_top(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, orig;
	uint64_t next;
	bool ok, go = true;
	int ret;

	ret = parse_top_args(argc, argv);
	if (ret)
		return ret;
	ta_init();
	/*
	 * Each refresh frees the snapshot before last, a few hundred KiB:
	 * returned to the system, it faulted back in at the next one, a
	 * tenth of top's kernel time.  Kept instead (a few MiB at most).
	 */
	mallopt(M_TRIM_THRESHOLD, 32 << 20);
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	top.screen = !top.o.batch;
	if (top.screen && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return usage_error("top needs a terminal; -b (batch mode) works without one");
	/* the module may come later: top waits for it */
	message_capture(top.msg, sizeof(top.msg));
	ret = check_target();
	message_capture(NULL, 0);
	if (ret == EXIT_NOMODULE)
		ret = EXIT_OK;
	if (ret) {
		fprintf(stderr, "%s\n", top.msg);
		return ret;
	}
	top.msg[0] = '\0';
	top.card = top.o.t.all ? 0 : (int)top.o.t.id;
	top.rebase = true;

	/* signals are delivered only while waiting: no wake-up is lost */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigaddset(&block, SIGWINCH);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	if (top.screen) {
		screen_start();
		/* errors go to the status line, not over the screen */
		message_capture(top.msg, sizeof(top.msg));
	}

	next = now_ns();
	while (go && !stop) {
		if (top.screen)
			top.msg[0] = '\0';
		ok = take_snapshot();
		if (ok)
			update_bases();
		if (top.screen) {
			if (!ok && !top.loaded)
				snprintf(top.msg, sizeof(top.msg),
					 "the pciesw module is not loaded: waiting for it");
			screen_draw();
		} else if (!batch_output(ok)) {
			ret = EXIT_FAIL;
			break;
		}
		top.snapshots++;
		if (top.o.count && top.snapshots >= top.o.count)
			break;
		next += top.o.interval_ms * 1000000;
		if (next < now_ns())
			next = now_ns();
		go = wait_until(next, &orig);
	}
	screen_end();
	message_capture(NULL, 0);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	snap_free(&top.cur);
	snap_free(&top.prev);
	close_sessions();
	info_free(&top.info);
	clear_deltas();
	while (top.nr_lines)
		free(top.lines[--top.nr_lines]);
	while (top.nr_pending)
		free(top.pending[--top.nr_pending]);
	free(top.pending);
	free(top.ev_buf);
	free(top.res);
	return finish(ret);
}
