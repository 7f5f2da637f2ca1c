// SPDX-License-Identifier: GPL-2.0
/*
 * monitor: the last state of every port that the monitor saw, primed with
 * a port dump at start and kept by the notifications, and what a port
 * change changed since: link up or down, speed, width, degraded, LTSSM
 * state or the states a retrain went through, settings, endpoint.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "monitor.h"
#include "nl.h"
#include "objprint.h"
#include "util.h"

/* Port ids beyond this are not remembered (a sanity bound, not a limit). */
#define MAX_CACHED_PORT	4096

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

void cache_forget_all(void)
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

void changes_free(struct changes *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->text[i]);
	c->n = 0;
}

/* Spec names for the text, as the JSON has them; numbers when unknown. */
const char *spec_name(const struct enum_table *t, uint32_t v, char *buf,
		      size_t len)
{
	const char *s = enum_spec(t, v);

	if (s)
		return s;
	snprintf(buf, len, "%u", v);
	return buf;
}


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
void cache_switch_event(struct nlattr **tb, bool created)
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
void cache_group_event(struct nlattr **tb)
{
	/* its ports were re-created; the other ports are as they were */
	if (tb[PCIESW_A_SWITCH_ID] && tb[PCIESW_A_GROUP_ID])
		cache_group_changed(nla_get_u32(tb[PCIESW_A_SWITCH_ID]),
				    nla_get_u32(tb[PCIESW_A_GROUP_ID]));
	else if (tb[PCIESW_A_SWITCH_ID])
		cache_forget_switch(nla_get_u32(tb[PCIESW_A_SWITCH_ID]));
}

/* An ep-add or ep-del notification. */
void cache_ep_event(struct nlattr **tb, bool add)
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
size_t cache_port_event(const struct nlmsghdr *nlh, struct nlattr **tb,
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

/* --- priming -------------------------------------------------------------- */

/*
 * The ports of a port dump (its @n replies), so that the first events can
 * say what changed.  Prints why it failed, returns an exit code.
 */
int prime_from(const struct nlmsghdr *const *ports, size_t n)
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
int prime_cache(void)
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
