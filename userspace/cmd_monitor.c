// SPDX-License-Identifier: GPL-2.0
/*
 * monitor: print the notifications of the "monitor" multicast group, one
 * line (text) or one JSON object (-j) per notification, flushed at once,
 * until SIGINT or SIGTERM, or until the module goes away.
 *
 * For port changes the monitor says what changed: it keeps the last state
 * it saw of every port (primed with a port dump at start) and compares.
 * The socket is read directly rather than through libnl so that a receive
 * buffer overrun (ENOBUFS: events lost) can be told from other errors and
 * signals interrupt the wait without races (ppoll with them unblocked).
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <netlink/genl/genl.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "util.h"

/* Port ids beyond this are not remembered (a sanity bound, not a limit). */
#define MAX_CACHED_PORT	4096
/* Asked for; the kernel caps it at net.core.rmem_max without CAP_NET_ADMIN */
#define RCVBUF_SIZE	(8 << 20)

struct transition {
	uint64_t time;
	uint32_t from, to;
};

/* The last state of a port that the monitor saw (or a new port's). */
struct port_state {
	bool known;
	bool enabled, active, degraded, acs, contained;
	bool target_known;		/* false for a new port */
	uint32_t group;			/* group-id */
	uint32_t ltssm, speed, width, target, failed;
	uint64_t surprise;
	uint64_t ber;
	char ep[PCIESW_NAME_LEN];	/* "" when no endpoint is attached */
	bool has_last;
	struct transition last;		/* newest LTSSM transition */
};

static struct {
	struct port_state *ports;		/* by port number */
	size_t n;
	uint32_t regrouped;			/* bit g: group g changed */
} cache[PCIESW_MAX_SWITCH_ID + 1];

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

static void cache_forget_switch(uint32_t sw)
{
	if (sw > PCIESW_MAX_SWITCH_ID)
		return;
	free(cache[sw].ports);
	cache[sw].ports = NULL;
	cache[sw].n = 0;
	cache[sw].regrouped = 0;
}

/*
 * A port that was just created (new switch, re-bifurcated group): its link
 * is down in Detect, nothing set yet.  Its target speed is the port's
 * maximum, which the notifications do not say: the first one tells it.
 */
static void port_state_fresh(struct port_state *st, uint32_t group)
{
	*st = (struct port_state){
		.known = true,
		.enabled = true,
		.group = group,
		.ltssm = PCIESW_LTSSM_DETECT,
	};
}

static void cache_forget_all(void)
{
	uint32_t sw;

	for (sw = 0; sw <= PCIESW_MAX_SWITCH_ID; sw++)
		cache_forget_switch(sw);
}

/* The cache entry of a port, grown into existence; NULL past the bounds. */
static struct port_state *cache_port(uint32_t sw, uint32_t port)
{
	size_t n;

	if (sw > PCIESW_MAX_SWITCH_ID || port >= MAX_CACHED_PORT)
		return NULL;
	if (port >= cache[sw].n) {
		n = port + 1;
		cache[sw].ports = xreallocarray(cache[sw].ports, n,
						sizeof(*cache[sw].ports));
		memset(&cache[sw].ports[cache[sw].n], 0,
		       (n - cache[sw].n) * sizeof(*cache[sw].ports));
		cache[sw].n = n;
	}
	return &cache[sw].ports[port];
}

static uint32_t get_u32(struct nlattr **tb, int attr, uint32_t def)
{
	return tb[attr] ? nla_get_u32(tb[attr]) : def;
}

static bool get_flag(struct nlattr **tb, int attr, bool def)
{
	return tb[attr] ? nla_get_u8(tb[attr]) : def;
}

/* The LTSSM history of a port message. */
struct transitions {
	struct transition *t;
	size_t n, cap;
};

static void add_transition(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	struct transitions *h = arg;
	struct transition *t;

	if (nl_parse_nest(nest, tb) < 0)
		memset(tb, 0, sizeof(tb));
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->t = xreallocarray(h->t, h->cap, sizeof(*h->t));
	}
	t = &h->t[h->n++];
	t->time = tb[PCIESW_A_TRANSITION_TIME] ?
		  nla_get_u64(tb[PCIESW_A_TRANSITION_TIME]) : 0;
	t->from = get_u32(tb, PCIESW_A_TRANSITION_FROM, 0);
	t->to = get_u32(tb, PCIESW_A_TRANSITION_TO, 0);
}

static void port_state_read(const struct nlmsghdr *nlh, struct nlattr **tb,
			    struct port_state *st, struct transitions *h)
{
	*st = (struct port_state){ .known = true };
	st->target_known = tb[PCIESW_A_PORT_TARGET_SPEED];
	st->group = get_u32(tb, PCIESW_A_GROUP_ID, UINT32_MAX);
	st->enabled = get_flag(tb, PCIESW_A_PORT_ENABLED, true);
	st->active = get_flag(tb, PCIESW_A_PORT_LINK_ACTIVE, false);
	st->degraded = get_flag(tb, PCIESW_A_PORT_DEGRADED, false);
	st->acs = get_flag(tb, PCIESW_A_PORT_ACS_REDIRECT, false);
	st->contained = get_flag(tb, PCIESW_A_PORT_DPC_CONTAINED, false);
	st->ltssm = get_u32(tb, PCIESW_A_PORT_LTSSM, 0);
	st->speed = get_u32(tb, PCIESW_A_PORT_SPEED, 0);
	st->width = get_u32(tb, PCIESW_A_PORT_WIDTH, 0);
	st->target = get_u32(tb, PCIESW_A_PORT_TARGET_SPEED, 0);
	st->failed = get_u32(tb, PCIESW_A_PORT_FAILED_LANES, 0);
	st->surprise = tb[PCIESW_A_PORT_SURPRISE_DOWN] ?
		       nla_get_u64(tb[PCIESW_A_PORT_SURPRISE_DOWN]) : 0;
	st->ber = tb[PCIESW_A_PORT_BER] ? nla_get_u64(tb[PCIESW_A_PORT_BER]) : 0;
	if (tb[PCIESW_A_EP_NAME])
		snprintf(st->ep, sizeof(st->ep), "%s",
			 nla_get_string(tb[PCIESW_A_EP_NAME]));
	h->n = 0;
	nl_for_each_attr(nlh, PCIESW_A_PORT_LTSSM_TRANSITION, add_transition,
			 h);
	if (h->n) {
		st->has_last = true;
		st->last = h->t[h->n - 1];
	}
}

/* The first transition of @h newer than what @old saw (0: all are). */
static size_t first_new_transition(const struct port_state *old,
				   const struct transitions *h)
{
	size_t i;

	if (!old || !old->known || !old->has_last)
		return 0;
	for (i = h->n; i > 0; i--) {
		const struct transition *t = &h->t[i - 1];

		if (t->time == old->last.time && t->from == old->last.from &&
		    t->to == old->last.to)
			return i;
	}
	/* the ring moved past what we saw, or the port was re-created */
	return 0;
}

/* --- what changed --------------------------------------------------------- */

#define MAX_CHANGES	16

struct changes {
	const char *token[MAX_CHANGES];	/* JSON "changes" */
	char *text[MAX_CHANGES];	/* the text line */
	size_t n;
};

static void __attribute__((format(printf, 3, 4)))
change(struct changes *c, const char *token, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->n == MAX_CHANGES)
		return;
	va_start(ap, fmt);
	n = vasprintf(&c->text[c->n], fmt, ap);
	va_end(ap);
	if (n < 0) {
		error("out of memory");
		exit(EXIT_FAIL);
	}
	c->token[c->n++] = token;
}

static void changes_free(struct changes *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->text[i]);
	c->n = 0;
}

/* Spec names for the text, as the JSON has them; numbers when unknown. */
static const char *spec_name(const struct enum_table *t, uint32_t v,
			     char *buf, size_t len)
{
	const char *s = enum_spec(t, v);

	if (s)
		return s;
	snprintf(buf, len, "%u", v);
	return buf;
}

#define SPEED(v, b)	spec_name(&link_speed_names, (v), (b), sizeof(b))
#define LTSSM(v, b)	spec_name(&ltssm_names, (v), (b), sizeof(b))

/* "link up gen5 x4 (l0)", "link down (detect)", "disabled (disabled)" */
static void change_link_state(struct changes *c, const char *token,
			      const char *prefix, const struct port_state *st)
{
	char b1[16], b2[16];

	if (st->active)
		change(c, token, "%slink up %s x%u (%s)", prefix,
		       SPEED(st->speed, b1), st->width, LTSSM(st->ltssm, b2));
	else if (!st->enabled)
		change(c, token, "%sdisabled (%s)", prefix,
		       LTSSM(st->ltssm, b2));
	else
		change(c, token, "%slink down (%s)", prefix,
		       LTSSM(st->ltssm, b2));
}

/* "l0 -> recovery -> l0": the transitions from @first on */
static char *transition_chain(const struct transitions *h, size_t first)
{
	char b[16], *s, *next;
	size_t i;

	s = xstrdup(LTSSM(h->t[first].from, b));
	for (i = first; i < h->n; i++) {
		next = xasprintf("%s -> %s", s, LTSSM(h->t[i].to, b));
		free(s);
		s = next;
	}
	return s;
}

static void diff_link(struct changes *c, const struct port_state *o,
		      const struct port_state *n)
{
	char b1[16], b2[16], was[32] = "";

	if (o->enabled != n->enabled)
		change(c, n->enabled ? "enabled" : "disabled", "%s",
		       n->enabled ? "enabled" : "disabled");
	if (o->contained != n->contained)
		change(c, n->contained ? "dpc-contained" : "dpc-released",
		       "%s", n->contained ? "DPC contained" : "DPC released");
	if (o->active != n->active) {
		if (n->active)
			change(c, "link-up", "link up %s x%u (%s)",
			       SPEED(n->speed, b1), n->width,
			       LTSSM(n->ltssm, b2));
		else
			change(c, "link-down", "link down (%s)",
			       LTSSM(n->ltssm, b2));
		if (n->active && n->degraded)
			change(c, "degraded", "degraded");
		return;
	}
	if (!n->active) {
		if (o->ltssm != n->ltssm)
			change(c, "ltssm", "ltssm %s -> %s",
			       LTSSM(o->ltssm, b1), LTSSM(n->ltssm, b2));
		return;
	}
	if (o->width != n->width)
		snprintf(was, sizeof(was), " (was x%u)", o->width);
	if (n->degraded && !o->degraded)
		change(c, "degraded", "link degraded x%u%s", n->width, was);
	else if (!n->degraded && o->degraded)
		change(c, "degraded-cleared", "link no longer degraded, x%u%s",
		       n->width, was);
	else if (o->width != n->width)
		change(c, "width", "width x%u -> x%u", o->width, n->width);
	if (o->speed != n->speed)
		change(c, "speed", "speed %s -> %s", SPEED(o->speed, b1),
		       SPEED(n->speed, b2));
	if (o->ltssm != n->ltssm)
		change(c, "ltssm", "ltssm %s -> %s", LTSSM(o->ltssm, b1),
		       LTSSM(n->ltssm, b2));
}

static void diff_settings(struct changes *c, const struct port_state *o,
			  const struct port_state *n)
{
	char b[16];

	if (o->target_known && o->target != n->target)
		change(c, "target-speed", "target speed %s",
		       SPEED(n->target, b));
	if (o->failed != n->failed) {
		lane_mask_text(b, sizeof(b), n->failed);
		change(c, "failed-lanes", "failed lanes %s", b);
	}
	if (o->acs != n->acs)
		change(c, "acs-redirect", "acs %s", n->acs ? "on" : "off");
	if (o->ber != n->ber) {
		char rate[32];

		ber_text(rate, sizeof(rate), n->ber);
		change(c, "ber", "ber %s", rate);
	}
	if (n->surprise > o->surprise)
		change(c, "surprise-down", "surprise down (%" PRIu64 " so far)",
		       n->surprise);
	if (strcmp(o->ep, n->ep)) {
		if (*o->ep)
			change(c, "ep-detached", "ep %s detached", o->ep);
		if (*n->ep)
			change(c, "ep-attached", "ep %s attached", n->ep);
	}
}

static void diff_port(struct changes *c, const struct port_state *o,
		      const struct port_state *n, const struct transitions *h,
		      size_t first)
{
	char b[16], *chain;

	if (!o || !o->known) {
		/* nothing to compare with: say how it is */
		change_link_state(c, "state", "state: ", n);
		if (n->active && n->degraded)
			change(c, "degraded", "degraded");
		return;
	}
	diff_link(c, o, n);
	diff_settings(c, o, n);
	if (c->n)
		return;
	if (first < h->n) {
		/* the same state as before, reached through other states */
		chain = transition_chain(h, first);
		if (n->active)
			change(c, "retrain", "retrained %s x%u (%s)",
			       SPEED(n->speed, b), n->width, chain);
		else
			change(c, "ltssm", "ltssm %s", chain);
		free(chain);
		return;
	}
	change_link_state(c, "state", "unchanged: ", n);
}

/* After a switch appeared: its @nr ports are new. */
static void cache_switch_created(uint32_t sw, uint32_t nr)
{
	struct port_state *st;
	uint32_t i;

	cache_forget_switch(sw);
	for (i = 0; i < nr; i++) {
		st = cache_port(sw, i);
		if (st)
			port_state_fresh(st, UINT32_MAX);
	}
}

/*
 * After group @gid of switch @sw was re-bifurcated: its ports are new, in
 * slots whose numbers the event does not say; every other port keeps its
 * number and state (port numbers are physical).  The group's ports the
 * monitor knew are forgotten, and a port of the group it meets next is a
 * new one.
 */
static void cache_group_changed(uint32_t sw, uint32_t gid)
{
	size_t i;

	if (sw > PCIESW_MAX_SWITCH_ID)
		return;
	for (i = 0; i < cache[sw].n; i++)
		if (cache[sw].ports[i].group == gid)
			cache[sw].ports[i].known = false;
	if (gid < 32)
		cache[sw].regrouped |= 1U << gid;
}

/* The cache entry of @port, fresh if its group was re-bifurcated. */
static struct port_state *cache_port_of(uint32_t sw, uint32_t port,
					uint32_t group)
{
	struct port_state *st = cache_port(sw, port);

	if (st && !st->known && group < 32 &&
	    (cache[sw].regrouped & 1U << group))
		port_state_fresh(st, group);
	return st;
}

/* --- what the notifications change in the cache --------------------------- */

/* A switch-create or switch-delete notification. */
static void cache_switch_event(struct nlattr **tb, bool created)
{
	if (!tb[PCIESW_A_SWITCH_ID])
		return;
	if (created)
		cache_switch_created(nla_get_u32(tb[PCIESW_A_SWITCH_ID]),
				     get_u32(tb, PCIESW_A_SWITCH_NR_PORTS, 0));
	else
		cache_forget_switch(nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
}

/* A group-change notification. */
static void cache_group_event(struct nlattr **tb)
{
	/* its ports were re-created; the other ports are as they were */
	if (tb[PCIESW_A_SWITCH_ID] && tb[PCIESW_A_GROUP_ID])
		cache_group_changed(nla_get_u32(tb[PCIESW_A_SWITCH_ID]),
				    nla_get_u32(tb[PCIESW_A_GROUP_ID]));
	else if (tb[PCIESW_A_SWITCH_ID])
		cache_forget_switch(nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
}

/* An ep-add or ep-del notification. */
static void cache_ep_event(struct nlattr **tb, bool add)
{
	struct port_state *st = NULL;

	/* the port's next event need not say it again */
	if (tb[PCIESW_A_SWITCH_ID] && tb[PCIESW_A_PORT_ID])
		st = cache_port(nla_get_u32(tb[PCIESW_A_SWITCH_ID]),
				nla_get_u32(tb[PCIESW_A_PORT_ID]));
	if (st && st->known) {
		if (add && tb[PCIESW_A_EP_NAME])
			snprintf(st->ep, sizeof(st->ep), "%s",
				 nla_get_string(tb[PCIESW_A_EP_NAME]));
		else if (!add)
			st->ep[0] = '\0';
	}
}

/*
 * A port-change notification (@nlh, parsed into @tb): what changed since
 * the port's state seen before goes into @c, the port's LTSSM history into
 * @h; returns the first transition of @h that is new.  The port's state
 * is then the notification's.
 */
static size_t cache_port_event(const struct nlmsghdr *nlh, struct nlattr **tb,
			       struct transitions *h, struct changes *c)
{
	struct port_state now, *old = NULL;
	size_t first;

	port_state_read(nlh, tb, &now, h);
	if (tb[PCIESW_A_SWITCH_ID] && tb[PCIESW_A_PORT_ID])
		old = cache_port_of(nla_get_u32(tb[PCIESW_A_SWITCH_ID]),
				    nla_get_u32(tb[PCIESW_A_PORT_ID]),
				    now.group);
	first = first_new_transition(old, h);
	diff_port(c, old, &now, h, first);
	if (old)
		*old = now;
	return first;
}

/* --- printing events ------------------------------------------------------ */

/* Now, local time in ISO 8601: "2026-12-01T11:42:03.123456+00:00". */
static void wall_text(char *buf, size_t len)
{
	struct timespec ts;
	char date[24], zone[8];
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (!localtime_r(&ts.tv_sec, &tm) ||
	    !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) ||
	    strftime(zone, sizeof(zone), "%z", &tm) != 5) {
		snprintf(buf, len, "?");
		return;
	}
	/* %z is +hhmm; ISO 8601 extended format wants +hh:mm */
	snprintf(buf, len, "%s.%06d%.3s:%.2s", date, (int)(ts.tv_nsec / 1000),
		 zone, zone + 3);
}

/*
 * The start of every event: JSON "event", "time" (CLOCK_MONOTONIC ns, like
 * transition-time) and "switch"; text "[seconds.micro] ", with @wall the
 * wall-clock time instead (JSON "timestamp" too).
 */
static void event_begin(const char *event, uint32_t cmd, struct nlattr **tb,
			bool wall)
{
	struct timespec ts;
	uint64_t ns;
	char buf[48];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	open_object(NULL);
	if (event)
		print_string(PRINT_JSON, "event", NULL, event);
	else
		print_uint(PRINT_JSON, "event", NULL, cmd);
	print_uint(PRINT_JSON, "time", NULL, ns);
	if (wall) {
		wall_text(buf, sizeof(buf));
		print_string(PRINT_ANY, "timestamp", "[%s] ", buf);
	} else {
		mono_text(buf, sizeof(buf), ns);
		print_string(PRINT_TEXT, NULL, "[%s] ", buf);
	}
	if (tb[PCIESW_A_SWITCH_ID]) {
		switch_name(buf, sizeof(buf),
			    nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
		print_string(PRINT_JSON, "switch", NULL, buf);
	} else {
		print_null(PRINT_JSON, "switch", NULL);
	}
}

/* "pciesw0 " in text, before what happened on the switch */
static void text_switch(struct nlattr **tb)
{
	char name[32];

	if (tb[PCIESW_A_SWITCH_ID]) {
		switch_name(name, sizeof(name),
			    nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
		print_string(PRINT_TEXT, NULL, "%s ", name);
	} else {
		print_null(PRINT_TEXT, NULL, "%s ");
	}
}

static void event_switch(struct nlattr **tb, bool created)
{
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_ANY, "switch-name", created ?
			  "switch %s created" : "switch %s deleted",
			  tb[PCIESW_A_SWITCH_NAME]);
	print_attr_string(created ? PRINT_ANY : PRINT_JSON, "switch-profile",
			  " (profile %s", tb[PCIESW_A_SWITCH_PROFILE]);
	print_attr_string(PRINT_JSON, "switch-description", NULL,
			  tb[PCIESW_A_SWITCH_DESCRIPTION]);
	print_attr_u32(created ? PRINT_ANY : PRINT_JSON, "switch-lanes",
		       ", %s lanes", tb[PCIESW_A_SWITCH_LANES]);
	print_attr_string(PRINT_JSON, "switch-serial", NULL,
			  tb[PCIESW_A_SWITCH_SERIAL]);
	print_attr_u32(PRINT_JSON, "switch-nr-groups", NULL,
		       tb[PCIESW_A_SWITCH_NR_GROUPS]);
	print_attr_u32(created ? PRINT_ANY : PRINT_JSON, "switch-nr-ports",
		       ", %s ports)", tb[PCIESW_A_SWITCH_NR_PORTS]);
	cache_switch_event(tb, created);
}

/* "pciesw0 lanes nvme: 16x1" */
static void event_group(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	text_switch(tb);
	print_attr_string(PRINT_TEXT, NULL, "lanes %s: ",
			  tb[PCIESW_A_GROUP_NAME]);
	print_attr_string(PRINT_TEXT, NULL, "%s", tb[PCIESW_A_GROUP_CONFIG]);
	if (print_is_json())
		print_group_attrs(nlh, tb, 0, NULL);
	cache_group_event(tb);
}

/* "pciesw0 ep add nvme4 on port 7 (nvme, gen5 x4, 4G)" */
static void event_ep(struct nlattr **tb, bool add)
{
	char b[32];

	text_switch(tb);
	print_attr_string(PRINT_TEXT, NULL, add ? "ep add %s" : "ep del %s",
			  tb[PCIESW_A_EP_NAME]);
	print_attr_u32(PRINT_TEXT, NULL, add ? " on port %s" : " from port %s",
		       tb[PCIESW_A_PORT_ID]);
	if (add) {
		print_string(PRINT_TEXT, NULL, " (%s,",
			     tb[PCIESW_A_EP_TYPE] ?
			     spec_name(&ep_type_names,
				       nla_get_u32(tb[PCIESW_A_EP_TYPE]),
				       b, sizeof(b)) : NULL);
		print_string(PRINT_TEXT, NULL, " %s",
			     tb[PCIESW_A_EP_MAX_SPEED] ?
			     SPEED(nla_get_u32(tb[PCIESW_A_EP_MAX_SPEED]), b) :
			     NULL);
		print_attr_u32(PRINT_TEXT, NULL, " x%s,",
			       tb[PCIESW_A_EP_MAX_WIDTH]);
		if (tb[PCIESW_A_EP_MEM_SIZE])
			size_text(b, sizeof(b),
				  nla_get_u64(tb[PCIESW_A_EP_MEM_SIZE]));
		print_string(PRINT_TEXT, NULL, " %s)",
			     tb[PCIESW_A_EP_MEM_SIZE] ? b : NULL);
	}
	if (print_is_json())
		print_ep_detail(tb);
	cache_ep_event(tb, add);
}

/* "pciesw0 ep nvme1: bus master off" */
static void event_ep_change(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_string(PRINT_TEXT, NULL, "ep %s:", tb[PCIESW_A_EP_NAME]);
	print_attr_flag(PRINT_TEXT, NULL, " bus master %s",
			tb[PCIESW_A_EP_BUS_MASTER], "on", "off");
	if (print_is_json())
		print_ep_detail(tb);
}

/* "pciesw0 ep nvme0: nvme fault temp, temperature 90 C, warning 0x02" */
static void event_nvme_fault(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_u32(PRINT_JSON, "ep-id", NULL, tb[PCIESW_A_EP_ID]);
	print_attr_string(PRINT_ANY, "ep-name", "ep %s:", tb[PCIESW_A_EP_NAME]);
	print_attr_enum(PRINT_ANY, "nvme-fault", " nvme fault %s",
			tb[PCIESW_A_NVME_FAULT], &nvme_fault_names);
	if (tb[PCIESW_A_NVME_LBA])
		print_attr_u64(PRINT_ANY, "nvme-lba", ", lba %s",
			       tb[PCIESW_A_NVME_LBA]);
	if (tb[PCIESW_A_NVME_COUNT])
		print_attr_u32(PRINT_ANY, "nvme-count", ", count %s",
			       tb[PCIESW_A_NVME_COUNT]);
	if (tb[PCIESW_A_NVME_TEMP])
		print_attr_temp(PRINT_ANY, "nvme-temp", ", temperature %s",
				tb[PCIESW_A_NVME_TEMP]);
	if (tb[PCIESW_A_NVME_SPARE])
		print_attr_u8(PRINT_ANY, "nvme-spare", ", spare %s%%",
			      tb[PCIESW_A_NVME_SPARE]);
	if (tb[PCIESW_A_NVME_READ_ONLY])
		print_attr_flag(PRINT_ANY, "nvme-read-only", ", media %s",
				tb[PCIESW_A_NVME_READ_ONLY], "read-only",
				"writable");
	print_attr_u8(PRINT_ANY, "nvme-critical-warning",
		      ", critical warning %s", tb[PCIESW_A_NVME_CRITICAL_WARNING]);
	print_attr_u64(PRINT_ANY, "nvme-media-errors", ", media errors %s",
		       tb[PCIESW_A_NVME_MEDIA_ERRORS]);
}

/* "pciesw0 port 3: link up gen5 x4 (l0)" */
static void event_port(const struct nlmsghdr *nlh, struct nlattr **tb,
		       struct transitions *h)
{
	struct changes c = { 0 };
	size_t i, first;

	first = cache_port_event(nlh, tb, h, &c);
	text_switch(tb);
	print_attr_u32(PRINT_TEXT, NULL, "port %s: ", tb[PCIESW_A_PORT_ID]);
	open_array("changes");
	for (i = 0; i < c.n; i++) {
		print_string(PRINT_JSON, NULL, NULL, c.token[i]);
		print_text("%s%s", i ? ", " : "", c.text[i]);
	}
	close_array();
	/* JSON: the port, with the transitions since its last event */
	if (print_is_json())
		print_port_detail(nlh, tb, first);
	changes_free(&c);
}

/*
 * "pciesw0 port 3: threshold bad-tlp reached (10 >= 10)"; without a port,
 * on the sum over the switch's ports: "pciesw0 all ports: ..."
 */
static void event_threshold(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_JSON, "port-id", NULL, tb[PCIESW_A_PORT_ID]);
	if (tb[PCIESW_A_PORT_ID])
		print_attr_u32(PRINT_TEXT, NULL, "port %s: ",
			       tb[PCIESW_A_PORT_ID]);
	else
		print_text("all ports: ");
	print_attr_enum(PRINT_ANY, "counter-id", "threshold %s reached",
			tb[PCIESW_A_COUNTER_ID], &counter_names);
	print_attr_u64(PRINT_ANY, "counter-value", " (%s",
		       tb[PCIESW_A_COUNTER_VALUE]);
	print_attr_u64(PRINT_ANY, "threshold-value", " >= %s)",
		       tb[PCIESW_A_THRESHOLD_VALUE]);
}

/* "pciesw0 sensor 0: warning alarm raised (96.0°C)" */
static void event_thermal_alarm(struct nlattr **tb)
{
	text_switch(tb);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_ANY, "sensor-id", "sensor %s: ",
		       tb[PCIESW_A_SENSOR_ID]);
	print_attr_enum(PRINT_ANY, "alarm-level", "%s alarm",
			tb[PCIESW_A_ALARM_LEVEL], &alarm_names);
	print_attr_flag(PRINT_ANY, "alarm-active", " %s",
			tb[PCIESW_A_ALARM_ACTIVE], "raised", "cleared");
	print_attr_temp(PRINT_ANY, "sensor-temp", " (%s)",
			tb[PCIESW_A_SENSOR_TEMP]);
}

/* The fields that change: V2 (configuration) and the writable ones. */
static void text_vpd_field(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	bool *first = arg;

	if (nl_parse_nest(nest, tb) < 0 || !tb[PCIESW_A_VPD_KEYWORD] ||
	    !tb[PCIESW_A_VPD_VALUE])
		return;
	if (strcmp(nla_get_string(tb[PCIESW_A_VPD_KEYWORD]), "V2") &&
	    !(tb[PCIESW_A_VPD_WRITABLE] &&
	      nla_get_u8(tb[PCIESW_A_VPD_WRITABLE])))
		return;
	print_attr_string(PRINT_TEXT, NULL, *first ? ": %s" : ", %s",
			  tb[PCIESW_A_VPD_KEYWORD]);
	print_attr_string(PRINT_TEXT, NULL, " \"%s\"", tb[PCIESW_A_VPD_VALUE]);
	*first = false;
}

/* CAP_SYS_ADMIN is effective: vpd-get may be asked */
static bool have_sys_admin(void)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ULL << 21);	/* CAP_SYS_ADMIN */
}

/*
 * "pciesw0 vpd changed: V2 "host:1x16 gpu:1x16 nvme:4x4", YA "rack7"".
 * The notification names the switch only (the VPD is root-only, anyone
 * may listen): the fields are asked for with vpd-get, by a monitor that
 * may.
 */
static void event_vpd(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct objs vpd = { 0 };
	struct nl_session *s;
	bool first = true;

	text_switch(tb);
	print_text("vpd changed");
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	if (!tb[PCIESW_A_VPD_FIELD] && tb[PCIESW_A_SWITCH_ID] &&
	    have_sys_admin() && !nl_session_open(&s)) {
		if (!objs_fetch(s, PCIESW_CMD_VPD_GET, false, true,
				nla_get_u32(tb[PCIESW_A_SWITCH_ID]), &vpd,
				"cannot read the VPD") && vpd.n == 1) {
			nlh = objs_hdr(&vpd, 0);
			tb = vpd.tb[0];
		}
		nl_session_close(s);
	}
	if (print_is_json())
		print_vpd_fields(nlh, tb);
	else
		nl_for_each_attr(nlh, PCIESW_A_VPD_FIELD, text_vpd_field,
				 &first);
	objs_free(&vpd);
}

/* "pciesw0 firmware: running 1.11.0 (partition B), 2 boots" */
static void event_fw(struct nlattr **tb)
{
	text_switch(tb);
	print_text("firmware: ");
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_ANY, "fw-running-version", "running %s",
			  tb[PCIESW_A_FW_RUNNING_VERSION]);
	print_attr_u32(PRINT_JSON, "fw-running-part", NULL,
		       tb[PCIESW_A_FW_RUNNING_PART]);
	if (tb[PCIESW_A_FW_RUNNING_PART])
		print_text(" (partition %c)",
			   nla_get_u32(tb[PCIESW_A_FW_RUNNING_PART]) ? 'B' : 'A');
	print_attr_flag(PRINT_ANY, "fw-pending", "%s",
			tb[PCIESW_A_FW_PENDING], ", other partition pending", "");
	print_attr_u64(PRINT_ANY, "fw-boots", ", %s boots",
		       tb[PCIESW_A_FW_BOOTS]);
}

/* "pciesw0 settings: host-p2p on pacing off mps 256 channels 4 (...)" */
static void event_switch_change(struct nlattr **tb)
{
	text_switch(tb);
	print_text("settings: ");
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_JSON, "switch-name", NULL,
			  tb[PCIESW_A_SWITCH_NAME]);
	print_switch_settings(tb);
}

static const char *const event_names[] = {
	[PCIESW_CMD_SWITCH_CREATE_NTF] = "switch-create",
	[PCIESW_CMD_SWITCH_DELETE_NTF] = "switch-delete",
	[PCIESW_CMD_GROUP_CHANGE_NTF] = "group-change",
	[PCIESW_CMD_PORT_CHANGE_NTF] = "port-change",
	[PCIESW_CMD_EP_ADD_NTF] = "ep-add",
	[PCIESW_CMD_EP_DEL_NTF] = "ep-del",
	[PCIESW_CMD_THRESHOLD_NTF] = "threshold",
	[PCIESW_CMD_THERMAL_ALARM_NTF] = "thermal-alarm",
	[PCIESW_CMD_VPD_CHANGE_NTF] = "vpd-change",
	[PCIESW_CMD_SWITCH_CHANGE_NTF] = "switch-change",
	[PCIESW_CMD_FW_CHANGE_NTF] = "fw-change",
	[PCIESW_CMD_EP_CHANGE_NTF] = "ep-change",
	[PCIESW_CMD_NVME_FAULT_NTF] = "nvme-fault",
};

/* The value of event @name ("port-change"), or -1. */
static int event_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (event_names[i] && !strcmp(event_names[i], name))
			return i;
	return -1;
}

/* "switch-create, switch-delete, ...": the events' names; free() it. */
static char *event_name_list(void)
{
	char *all = xstrdup(""), *next;
	size_t ev;

	for (ev = 0; ev < sizeof(event_names) / sizeof(event_names[0]); ev++) {
		if (!event_names[ev])
			continue;
		next = xasprintf("%s%s%s", all, *all ? ", " : "",
				 event_names[ev]);
		free(all);
		all = next;
	}
	return all;
}

/*
 * One notification of the pciesw family through the print layer: a JSON
 * object or a text line.  @shown false: muted, for the state only.  @wall:
 * stamped with the wall-clock time (-t).
 */
static void print_event(const struct nlmsghdr *nlh, struct nlattr **tb,
			struct transitions *h, bool shown, bool wall)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	uint8_t cmd = gnlh->cmd;
	const char *name = NULL;

	if (cmd < sizeof(event_names) / sizeof(event_names[0]))
		name = event_names[cmd];
	print_mute(!shown);
	event_begin(name, cmd, tb, wall);
	switch (cmd) {
	case PCIESW_CMD_SWITCH_CREATE_NTF:
	case PCIESW_CMD_SWITCH_DELETE_NTF:
		event_switch(tb, cmd == PCIESW_CMD_SWITCH_CREATE_NTF);
		break;
	case PCIESW_CMD_GROUP_CHANGE_NTF:
		event_group(nlh, tb);
		break;
	case PCIESW_CMD_PORT_CHANGE_NTF:
		event_port(nlh, tb, h);
		break;
	case PCIESW_CMD_EP_ADD_NTF:
	case PCIESW_CMD_EP_DEL_NTF:
		event_ep(tb, cmd == PCIESW_CMD_EP_ADD_NTF);
		break;
	case PCIESW_CMD_EP_CHANGE_NTF:
		event_ep_change(tb);
		break;
	case PCIESW_CMD_THRESHOLD_NTF:
		event_threshold(tb);
		break;
	case PCIESW_CMD_THERMAL_ALARM_NTF:
		event_thermal_alarm(tb);
		break;
	case PCIESW_CMD_VPD_CHANGE_NTF:
		event_vpd(nlh, tb);
		break;
	case PCIESW_CMD_SWITCH_CHANGE_NTF:
		event_switch_change(tb);
		break;
	case PCIESW_CMD_FW_CHANGE_NTF:
		event_fw(tb);
		break;
	case PCIESW_CMD_NVME_FAULT_NTF:
		event_nvme_fault(tb);
		break;
	default:
		/* a module newer than this switchctl */
		text_switch(tb);
		print_string(PRINT_TEXT, NULL, "%s", "event");
		print_uint(PRINT_TEXT, NULL, " %s (unknown to switchctl)", cmd);
		break;
	}
	print_text("\n");
	close_object();
	print_mute(false);
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
 * The ports of a port dump (its @n replies), so that the first events can
 * say what changed.  Prints why it failed, returns an exit code.
 */
static int prime_from(const struct nlmsghdr *const *ports, size_t n)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	struct transitions h = { 0 };
	struct port_state *st;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct nlmsghdr *nlh = ports[i];

		if (nl_parse_hdr(nlh, tb) < 0) {
			free(h.t);
			return EXIT_FAIL;
		}
		if (!tb[PCIESW_A_SWITCH_ID] || !tb[PCIESW_A_PORT_ID])
			continue;
		st = cache_port(nla_get_u32(tb[PCIESW_A_SWITCH_ID]),
				nla_get_u32(tb[PCIESW_A_PORT_ID]));
		if (st)
			port_state_read(nlh, tb, st, &h);
	}
	free(h.t);
	return EXIT_OK;
}

/* The ports as they are now, so that the first events can say what changed. */
static int prime_cache(void)
{
	struct nl_dump ports = { 0 };
	struct nl_session *s;
	int ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = nl_dump_run(s, nl_request_new(s, PCIESW_CMD_PORT_GET, true),
			  &ports, 0, "cannot list ports");
	nl_session_close(s);
	if (!ret)
		ret = prime_from(ports.msgs, ports.n);
	nl_dump_free(&ports);
	return ret;
}

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
