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
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objprint.h"
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

static const char *const sort_names[NR_SORTS] = { "port", "traffic", "errors" };

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

/* --- the screen -------------------------------------------------------------- */

static bool curses_on;
/* The terminal's locale is UTF-8: the degree sign can be shown. */
static bool utf8;

static void screen_end(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

/* A crash still gives the terminal back. */
static void on_fatal(int sig)
{
	screen_end();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int attr_of(int mark)
{
	if (!has_colors())
		return mark == M_CRIT ? A_REVERSE : mark == M_WARN ? A_BOLD :
		       A_NORMAL;
	switch (mark) {
	case M_GOOD:
		return COLOR_PAIR(1);
	case M_WARN:
		return COLOR_PAIR(2) | A_BOLD;
	case M_CRIT:
		return COLOR_PAIR(3) | A_BOLD;
	default:
		return A_NORMAL;
	}
}

static void screen_start(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	size_t i;

	setlocale(LC_CTYPE, "");
	utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	initscr();
	curses_on = true;
	atexit(screen_end);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], on_fatal);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_GREEN, -1);
		init_pair(2, COLOR_YELLOW, -1);
		init_pair(3, COLOR_RED, -1);
	}
}

/* Draws @s at row @y from column @x, at most to the right edge. */
static void put(int y, int x, const char *s, int mark)
{
	char buf[512], *d = buf;
	int cols = COLS;

	if (y >= LINES || x >= cols)
		return;
	/* "45.0°C" is "45.0C" where the terminal cannot show the sign */
	for (; !utf8 && *s && d < buf + sizeof(buf) - 1; s++) {
		if (!strncmp(s, "\u00b0", 2)) {
			s++;
			continue;
		}
		*d++ = *s;
	}
	*d = '\0';
	attrset(attr_of(mark));
	mvaddnstr(y, x, utf8 ? s : buf, cols - x);
	attrset(A_NORMAL);
}

/* The cells of a row, the columns the screen has room for. */
static void put_cells(int y, const struct column *cols, int n,
		      char cell[][CELL_LEN], const int *mark, int attr)
{
	char buf[CELL_LEN + 2];
	int c, x = 0;

	for (c = 0; c < n; c++) {
		if (cols[c].min_cols > COLS)
			continue;
		snprintf(buf, sizeof(buf), cols[c].left ? "%-*s" : "%*s",
			 cols[c].width, cell[c]);
		if (attr)
			attron(attr);
		put(y, x, buf, mark ? mark[c] : M_NONE);
		if (attr) {
			attron(attr);
			mvchgat(y, x, (int)strlen(buf) < COLS - x ?
				(int)strlen(buf) + 1 : COLS - x, attr, 0,
				NULL);
			attroff(attr);
		}
		x += (int)strlen(buf) + 1;
	}
}

static void put_titles(int y, const struct column *cols, int n)
{
	char cell[NR_COLS][CELL_LEN];
	int c;

	for (c = 0; c < n; c++)
		snprintf(cell[c], CELL_LEN, "%s", cols[c].title);
	put_cells(y, cols, n, cell, NULL, A_REVERSE);
}

/* The index in the snapshot of the card shown, or -1. */
static long shown_card(void)
{
	long i, best = -1;

	for (i = 0; i < (long)top.cur.sw.n; i++) {
		uint32_t id = u32_or(top.cur.sw.tb[i], TA_SWITCH_ID, 0);

		if ((int)id == top.card)
			return i;
		/* gone: the next one after it, or the first */
		if (best < 0 || ((int)id > top.card &&
				 (int)u32_or(top.cur.sw.tb[best],
					     TA_SWITCH_ID, 0) < top.card))
			best = i;
	}
	if (best >= 0)
		top.card = u32_or(top.cur.sw.tb[best], TA_SWITCH_ID, 0);
	return best;
}

static void next_card(int dir)
{
	long i = shown_card(), n = top.cur.sw.n;

	if (i < 0 || n < 2)
		return;
	i = (i + dir + n) % n;
	top.card = u32_or(top.cur.sw.tb[i], TA_SWITCH_ID, 0);
	top.scroll = 0;
}

static void draw_help(void)
{
	static const char *const lines[] = {
		"switchctl top: keys",
		"",
		"  q        quit",
		"  n / p    next / previous card",
		"  s        sort the ports: by port, traffic, errors",
		"  e        only the ports with errors (on/off)",
		"  c        clear the deltas: count errors from now",
		"  up/down  scroll the ports",
		"  h        this help; any key goes back",
		"",
		"LINK: LTSSM state, disabled, DPC (contained), SURPRISE (down)",
		"GEN, WIDTH: now/max, * degraded; CERR, UERR: +delta/total,",
		"! a threshold crossed; WARN/CRIT: a sensor over max/crit",
	};
	size_t i;

	erase();
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		put(i, 0, lines[i], i ? M_NONE : M_GOOD);
	refresh();
}

static void draw(void)
{
	char title[200], buf[CELL_LEN];
	struct port_row *rows = NULL;
	struct hline h[3];
	int y = 0, events, room, k;
	size_t n = 0, nh, i, eps = 0;
	long ci;

	if (top.help) {
		draw_help();
		return;
	}
	erase();
	title_text(title, sizeof(title));
	ci = top.loaded && top.have_cur ? shown_card() : -1;
	if (ci >= 0 && top.cur.sw.n > 1)
		snprintf(title + strlen(title), sizeof(title) - strlen(title),
			 "  card %ld/%zu (n/p)", ci + 1, top.cur.sw.n);
	put(y++, 0, title, M_NONE);
	/* the events take the bottom lines, at least 3 and at most 8 */
	events = LINES / 4;
	events = events < 3 ? 3 : events > 8 ? 8 : events;
	room = LINES - events - 1;
	if (ci < 0) {
		if (top.loaded && top.have_cur)
			put(y++, 0, top.o.t.all ? "no switches" :
			    "the switch is not present; waiting for it",
			    M_WARN);
	} else {
		uint32_t id = u32_or(top.cur.sw.tb[ci], TA_SWITCH_ID, 0);

		nh = header_lines(ci, h, 3);
		for (i = 0; i < nh; i++)
			put(y++, 0, h[i].text, h[i].mark);
		put_titles(y++, port_cols, NR_COLS);
		n = port_rows(id, &rows, true);
		for (i = 0; i < shown_eps()->n; i++)
			if (u32_or(shown_eps()->tb[i], TA_SWITCH_ID,
				   UINT32_MAX) == id &&
			    shows_ep(shown_eps()->tb[i]))
				eps++;
		if (top.scroll > (int)n - 1)
			top.scroll = n ? n - 1 : 0;
		for (i = top.scroll; i < n && y < room; i++) {
			if (y == room - 1 && i + 1 < n) {
				snprintf(buf, sizeof(buf), "... %zu more (up/down)",
					 n - i);
				put(y++, 0, buf, M_NONE);
				break;
			}
			put_cells(y++, port_cols, NR_COLS, rows[i].cell,
				  rows[i].mark, 0);
		}
		/* the endpoints, when there is room left */
		if (eps && room - y >= 2) {
			put_titles(y++, ep_cols, NR_ECOLS);
			for (i = 0; i < shown_eps()->n && y < room; i++) {
				char cell[NR_ECOLS][CELL_LEN];

				if (u32_or(shown_eps()->tb[i], TA_SWITCH_ID,
					   UINT32_MAX) != id ||
				    !shows_ep(shown_eps()->tb[i]))
					continue;
				ep_cells(i, cell);
				put_cells(y++, ep_cols, NR_ECOLS, cell, NULL, 0);
			}
		}
		free(rows);
	}
	/* the status line and the events */
	y = LINES - events - 1;
	snprintf(title, sizeof(title), "events  sort: %s%s  h: help  q: quit",
		 sort_names[top.sort], top.errors_only ? "  errors only" : "");
	put(y++, 0, *top.msg ? top.msg : title, *top.msg ? M_WARN : M_NONE);
	mvchgat(y - 1, 0, -1, A_REVERSE, 0, NULL);
	k = top.nr_lines > (size_t)events ? (int)top.nr_lines - events : 0;
	for (; k < (int)top.nr_lines; k++)
		put(y++, 0, top.lines[k], M_NONE);
	refresh();
}

/* A key; false to quit. */
static bool key(int ch)
{
	if (top.help && ch != ERR && ch != KEY_RESIZE) {
		top.help = false;
		return true;
	}
	switch (ch) {
	case 'q':
	case 'Q':
		return false;
	case 'n':
		next_card(1);
		break;
	case 'p':
		next_card(-1);
		break;
	case 's':
		top.sort = (top.sort + 1) % NR_SORTS;
		break;
	case 'e':
		top.errors_only = !top.errors_only;
		top.scroll = 0;
		break;
	case 'c':
		clear_deltas();
		if (take_snapshot())
			update_bases();
		break;
	case 'h':
	case '?':
		top.help = true;
		break;
	case KEY_DOWN:
		top.scroll++;
		break;
	case KEY_UP:
		if (top.scroll)
			top.scroll--;
		break;
	case KEY_RESIZE:
	default:
		break;
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
				if (ch != ERR && !key(ch))
					return false;
				draw();
			}
			continue;
		}
		if (top.loaded && n && (pfd[0].revents & POLLIN)) {
			if (!read_events())
				return true;	/* gone: the next snapshot says so */
			if (top.screen)
				draw();
		}
		if (top.screen) {
			bool any = false;

			while ((ch = getch()) != ERR) {
				if (!key(ch))
					return false;
				any = true;
			}
			if (any)
				draw();
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
			draw();
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
