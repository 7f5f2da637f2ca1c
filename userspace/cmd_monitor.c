// SPDX-License-Identifier: GPL-2.0
/*
 * monitor: print the notifications of the "monitor" multicast group, one
 * line (text) or one JSON object (-j) per notification, flushed at once,
 * until SIGINT or SIGTERM, or until the module goes away.
 *
 * For port changes the monitor says what changed: it keeps the last state
 * it saw of every port (primed with a port dump at start) and compares, in
 * monitor_state.c; monitor_event.c prints an event.  Here: the command
 * line and its filter, receiving, and what top uses.
 * The socket is read directly rather than through libnl so that a receive
 * buffer overrun (ENOBUFS: events lost) can be told from other errors and
 * signals interrupt the wait without races (ppoll with them unblocked).
 */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <netlink/genl/genl.h>

#include "cmd.h"
#include "monitor.h"
#include "nl.h"
#include "objs.h"
#include "print.h"
#include "util.h"

/* Asked for; the kernel caps it at net.core.rmem_max without CAP_NET_ADMIN */
#define RCVBUF_SIZE	(8 << 20)

static volatile sig_atomic_t stop;

/*
 * What monitor prints: [SWITCH] and [EVENT...] on the command line.  The
 * other events still go through the handlers, muted, for the port state
 * the printed ones are compared with.
 */
static struct {
	bool one_switch;
	uint32_t sw;
	uint64_t events;	/* bit cmd: print it; 0: all */
	bool wall;		/* -t: ISO 8601 wall-clock stamps */
} filter;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* One notification of the pciesw family; false when output failed. */
static bool handle_event(const struct nlmsghdr *nlh, struct transitions *h)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct nlattr *tb[PCIESW_A_MAX + 1];
	uint8_t cmd = gnlh->cmd;
	bool shown;

	if (nl_parse_hdr(nlh, tb) < 0)
		return true;	/* said so; the next one may be fine */
	shown = (!filter.events || (cmd < 64 && (filter.events & (1ULL << cmd)))) &&
		(!filter.one_switch || (tb[PCIESW_A_SWITCH_ID] &&
		 nla_get_u32(tb[PCIESW_A_SWITCH_ID]) == filter.sw));
	print_event(nlh, tb, h, shown, filter.wall);
	if (!shown)
		return true;
	if (print_next() < 0) {
		error("cannot write the output");
		return false;
	}
	return true;
}

static bool handle_one(const struct nlmsghdr *nlh, void *h)
{
	return handle_event(nlh, h);
}

/* Did the generic netlink controller say the pciesw family is gone? */
static bool family_gone(const struct nlmsghdr *nlh, int family)
{
	static struct nla_policy policy[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_ID] = { .type = NLA_U16 },
		[CTRL_ATTR_FAMILY_NAME] = { .type = NLA_STRING },
	};
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (gnlh->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, CTRL_ATTR_MAX,
			  policy) < 0)
		return false;
	if (tb[CTRL_ATTR_FAMILY_ID])
		return nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == family;
	return tb[CTRL_ATTR_FAMILY_NAME] &&
	       !strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
		       PCIESW_FAMILY_NAME);
}

/* --- the loop ------------------------------------------------------------- */

/*
 * Events were dropped: what was seen before no longer tells what changed,
 * and the family may have gone meanwhile.  Returns EXIT_OK, MONITOR_GONE
 * or EXIT_FAIL.
 */
unsigned long monitor_events_lost;

static int events_lost(void)
{
	int exists;

	warning("events were lost (receive buffer overrun)");
	monitor_events_lost++;
	cache_forget_all();
	exists = nl_family_exists();
	if (exists < 0)
		return EXIT_FAIL;
	return exists ? EXIT_OK : MONITOR_GONE;
}

int monitor_receive(int fd, int family, char **buf, size_t *cap,
		    bool (*fn)(const struct nlmsghdr *nlh, void *arg),
		    void *arg)
{
	struct sockaddr_nl from;
	socklen_t fromlen = sizeof(from);
	struct nlmsghdr *nlh;
	ssize_t len;
	int rem;

	/* the size of the datagram, so that none is truncated */
	len = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	if (len >= 0 && (size_t)len > *cap) {
		*cap = len;
		*buf = xreallocarray(*buf, 1, *cap);
	}
	if (len >= 0)
		len = recvfrom(fd, *buf, *cap, MSG_DONTWAIT,
			       (struct sockaddr *)&from, &fromlen);
	if (len < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return EXIT_OK;
		if (errno == ENOBUFS)
			return events_lost();
		error("cannot receive notifications: %s", strerror(errno));
		return EXIT_FAIL;
	}
	/* only the kernel speaks on these groups */
	if (fromlen < sizeof(from) || from.nl_pid)
		return EXIT_OK;

	rem = len;
	for (nlh = (struct nlmsghdr *)*buf; nlmsg_ok(nlh, rem);
	     nlh = nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
			continue;
		if (nlh->nlmsg_type == GENL_ID_CTRL) {
			if (family_gone(nlh, family))
				return MONITOR_GONE;
		} else if (nlh->nlmsg_type == family) {
			if (!fn(nlh, arg))
				return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

/* --- for top: the same events, one at a time ----------------------------- */

/* The LTSSM history buffer of monitor_print_event() */
static struct transitions top_history;

int monitor_prime(void)
{
	cache_forget_all();
	return prime_cache();
}

int monitor_prime_with(const struct nlmsghdr *const *ports, size_t n)
{
	cache_forget_all();
	return prime_from(ports, n);
}

void monitor_forget(void)
{
	cache_forget_all();
	free(top_history.t);
	top_history = (struct transitions){ 0 };
}

void monitor_print_event(const struct nlmsghdr *nlh)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];

	if (nl_parse_hdr(nlh, tb) < 0)
		return;
	print_event(nlh, tb, &top_history, true, filter.wall);
}

int monitor_subscribe(struct nl_session *s)
{
	static const char *const groups[][2] = {
		{ PCIESW_FAMILY_NAME, PCIESW_MCGRP_MONITOR },
		{ "nlctrl", "notify" },
	};
	int fd = nl_session_fd(s), size = RCVBUF_SIZE, ret;

	/* the controller tells when the family goes (module unloaded) */
	ret = nl_subscribe(s, groups, sizeof(groups) / sizeof(groups[0]));
	if (ret)
		return ret;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return EXIT_OK;
}

static int parse_monitor_args(int argc, char **argv)
{
	bool json = false, pretty = false;
	const struct cmd_opt opts[] = {
		JSON_OPTIONS(json, pretty),
		{ "--timestamp", "-t", &filter.wall, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	int ret, i, ev;
	char *all;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	for (i = 0; i < argc; i++) {
		ev = event_by_name(argv[i]);
		if (ev >= 0) {
			filter.events |= 1ULL << ev;
			continue;
		}
		if (i == 0 && parse_switch_id(argv[i], &filter.sw)) {
			filter.one_switch = true;
			continue;
		}
		all = event_name_list();
		ret = usage_error("invalid %s \"%s\": expected %s%s",
				  i ? "event" : "switch or event", argv[i],
				  i ? "" : "a switch (pciesw0) or ", all);
		free(all);
		return ret;
	}
	output_options(json, pretty);
	return EXIT_OK;
}

int cmd_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct transitions h = { 0 };
	sigset_t block, orig;
	struct nl_session *s;
	size_t cap = 65536;
	char *buf = NULL;
	int fd, family, ret;

	ret = parse_monitor_args(argc, argv);
	if (ret)
		return ret;
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = monitor_subscribe(s);
	if (!ret)
		ret = prime_cache();
	if (ret)
		goto out;
	fd = nl_session_fd(s);
	family = nl_session_family(s);

	/* signals are delivered only inside ppoll(): no wake-up is lost */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	buf = xmalloc(cap);
	while (!stop) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (ppoll(&pfd, 1, NULL, &orig) < 0) {
			if (errno == EINTR)
				continue;
			error("cannot wait for notifications: %s",
			      strerror(errno));
			ret = EXIT_FAIL;
			break;
		}
		ret = monitor_receive(fd, family, &buf, &cap, handle_one, &h);
		if (ret == MONITOR_GONE) {
			/* non-zero, so that a supervisor starts it again */
			error("the pciesw module was unloaded (netlink family gone); monitor ends");
			ret = EXIT_NOMODULE;
			break;
		}
		if (ret)
			break;
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
out:
	free(buf);
	free(h.t);
	cache_forget_all();
	nl_session_close(s);
	return finish(ret);
}

const char monitor_help[] =
	"Listens to the module's \"monitor\" notifications and prints one\n"
	"line per event, flushed at once, until SIGINT or SIGTERM (exit\n"
	"0).  If the module is unloaded, says so on stderr and exits 3,\n"
	"so that a supervisor (systemd Restart=) starts it again.\n"
	"SWITCH: only that switch's events; EVENT...: only those events\n"
	"(the names below: switch-create, port-change, ...).\n"
	"  -t, --timestamp  stamp events with the wall-clock time, ISO\n"
	"                   8601 local time (2026-12-01T11:42:03.123456+00:00):\n"
	"                   the text lines begin with it instead of the\n"
	"                   CLOCK_MONOTONIC seconds, JSON has \"timestamp\"\n"
	"Text lines begin with the CLOCK_MONOTONIC time (seconds) when the\n"
	"event was received:\n"
	"  [  105.120333] switch pciesw2 created (profile tiny8, 8 lanes, 2 ports)\n"
	"  [  105.211009] pciesw0 lanes nvme: 16x1\n"
	"  [  105.302417] pciesw0 ep add nvme4 on port 7 (nvme, gen5 x4, 4G)\n"
	"  [  105.310250] pciesw0 port 7: link up gen5 x1 (l0)\n"
	"  [  105.422871] pciesw0 port 1: link degraded x8 (was x16)\n"
	"  [  106.001234] pciesw0 port 3: threshold bad-tlp reached (10 >= 10)\n"
	"  [  107.500000] pciesw0 sensor 0: warning alarm raised (96.0\u00b0C)\n"
	"  [  108.250000] pciesw0 vpd changed: YA \"rack7\"\n"
	"  [  109.000000] pciesw0 settings: host-p2p off pacing on mps 256 channels 4 (dma in flight 0)\n"
	"For a port it says what changed since the state seen before:\n"
	"link up or down, speed, width, degraded set or cleared, LTSSM\n"
	"state (or the states a retrain went through), settings, endpoint.\n"
	"  -j, --json    one JSON object per line: \"event\" (switch-create,\n"
	"                switch-delete, group-change, port-change, ep-add,\n"
	"                ep-del, ep-change, threshold, thermal-alarm,\n"
	"                vpd-change, switch-change, fw-change),\n"
	"                \"time\" (CLOCK_MONOTONIC ns, when\n"
	"                received), \"switch\" (the name) and the object's\n"
	"                attributes as the get commands print them.  A\n"
	"                port-change also has \"changes\": link-up,\n"
	"                link-down, degraded, degraded-cleared, width,\n"
	"                speed, ltssm, retrain, enabled, disabled,\n"
	"                dpc-contained, dpc-released,\n"
	"                target-speed, failed-lanes, acs-redirect, ber,\n"
	"                surprise-down, ep-attached, ep-detached, or state\n"
	"                (nothing to compare with);\n"
	"                its port-ltssm-transition holds only the\n"
	"                transitions since the port's previous event.\n"
	"                threshold: switch-id, port-id (null: on the sum\n"
	"                over the switch), counter-id, threshold-value,\n"
	"                counter-value; thermal-alarm: switch-id,\n"
	"                sensor-id, sensor-temp (m\u00b0C), alarm-level\n"
	"                (warning, critical), alarm-active (false: it\n"
	"                cleared); vpd-change: as vpd show -j prints it\n"
	"                (its fields only with CAP_SYS_ADMIN);\n"
	"                switch-change: switch-id, switch-name and the\n"
	"                settings as show -j prints them; fw-change:\n"
	"                switch-id, fw-running-version, fw-running-part,\n"
	"                fw-pending, fw-boots.\n"
	"  -p, --pretty  indented JSON (implies -j)\n"
	"The global -j and -p (before the command) work too.  Events lost\n"
	"to a receive buffer overrun are reported on stderr.\n";
