// SPDX-License-Identifier: GPL-2.0
/*
 * What top computes between snapshots: the traffic and error sums of a
 * port's counters, rates per second, the drives' I/O rates, and the bases
 * the error deltas count from (since top started, or the last c).
 */

#include <stdlib.h>
#include <string.h>

#include "objs.h"
#include "top.h"
#include "util.h"

static uint64_t per_sec(uint64_t delta, uint64_t ns)
{
	return ns ? (unsigned __int128)delta * 1000000000 / ns : 0;
}

/* now - then; a counter that went back was cleared (or is new) */
static uint64_t counter_delta(uint64_t now, uint64_t then)
{
	return now >= then ? now - then : now;
}

static struct err_base *err_base(uint32_t sw, uint32_t port)
{
	size_t n;

	if (sw > PCIESW_MAX_SWITCH_ID || port > 4096)
		return NULL;
	if (port >= top.base[sw].n) {
		n = port + 1;
		top.base[sw].p = xreallocarray(top.base[sw].p, n,
					       sizeof(*top.base[sw].p));
		memset(&top.base[sw].p[top.base[sw].n], 0,
		       (n - top.base[sw].n) * sizeof(*top.base[sw].p));
		top.base[sw].n = n;
	}
	return &top.base[sw].p[port];
}

void forget_bases(uint32_t sw)
{
	if (sw > PCIESW_MAX_SWITCH_ID)
		return;
	free(top.base[sw].p);
	top.base[sw].p = NULL;
	top.base[sw].n = 0;
}

void port_sums(const struct nlmsghdr *nlh, struct port_sums *ps)
{
	struct counter_set c;
	uint32_t i;

	counters_read(nlh, &c);
	*ps = (struct port_sums){ 0 };
	for (i = PCIESW_COUNTER_FIRST_CORRECTABLE;
	     i <= PCIESW_COUNTER_LAST_CORRECTABLE; i++)
		ps->ce += c.v[i];
	for (i = PCIESW_COUNTER_FIRST_UNCORRECTABLE;
	     i <= PCIESW_COUNTER_LAST_UNCORRECTABLE; i++)
		ps->ue += c.v[i];
	ps->rx = c.v[PCIESW_COUNTER_INGRESS_POSTED_BYTES] +
		 c.v[PCIESW_COUNTER_INGRESS_NON_POSTED_BYTES] +
		 c.v[PCIESW_COUNTER_INGRESS_COMPLETION_BYTES];
	ps->tx = c.v[PCIESW_COUNTER_EGRESS_POSTED_BYTES] +
		 c.v[PCIESW_COUNTER_EGRESS_NON_POSTED_BYTES] +
		 c.v[PCIESW_COUNTER_EGRESS_COMPLETION_BYTES];
	ps->rx_tlps = c.v[PCIESW_COUNTER_INGRESS_POSTED_TLPS] +
		      c.v[PCIESW_COUNTER_INGRESS_NON_POSTED_TLPS] +
		      c.v[PCIESW_COUNTER_INGRESS_COMPLETION_TLPS];
	ps->tx_tlps = c.v[PCIESW_COUNTER_EGRESS_POSTED_TLPS] +
		      c.v[PCIESW_COUNTER_EGRESS_NON_POSTED_TLPS] +
		      c.v[PCIESW_COUNTER_EGRESS_COMPLETION_TLPS];
}

/*
 * The rates of row @r's port of switch @sw between the last two
 * snapshots, its error totals and their deltas; its counters are looked
 * for at @hint first (find_obj()).
 */
void port_rates(struct port_row *r, uint32_t sw, size_t hint)
{
	const struct snap *c = &top.cur, *p = &top.prev;
	uint64_t ns = top.have_prev ? c->ns - p->ns : 0;
	struct port_sums now = { 0 }, then = { 0 };
	struct err_base *b;
	long ci, pi;

	ci = find_obj(&c->counters, sw, r->port, hint);
	if (ci >= 0)
		now = c->sums[ci];
	pi = top.have_prev && ci >= 0 ?
	     find_obj(&p->counters, sw, r->port, ci) : -1;
	if (pi >= 0) {
		then = p->sums[pi];
		r->has_rate = true;
		r->rx = per_sec(counter_delta(now.rx, then.rx), ns);
		r->tx = per_sec(counter_delta(now.tx, then.tx), ns);
		r->rx_tlps = per_sec(counter_delta(now.rx_tlps, then.rx_tlps),
				     ns);
		r->tx_tlps = per_sec(counter_delta(now.tx_tlps, then.tx_tlps),
				     ns);
	}
	r->ce = now.ce;
	r->ue = now.ue;
	b = err_base(sw, r->port);
	if (b && b->known) {
		r->ce_delta = counter_delta(now.ce, b->ce);
		r->ue_delta = counter_delta(now.ue, b->ue);
	}
}

/*
 * After a snapshot: where the error deltas of its ports count from.  The
 * first snapshot (or the first after c) is the base of every port; a
 * port that comes later (a new card, a re-bifurcated group) counts from
 * 0, and so does one whose counters were cleared meanwhile.
 */
void update_bases(void)
{
	const struct tobjs *o = &top.cur.counters;
	const struct port_sums *now;
	struct err_base *b;
	size_t i;

	for (i = 0; i < o->n; i++) {
		b = err_base(u32_or(o->tb[i], TA_SWITCH_ID, UINT32_MAX),
			     u32_or(o->tb[i], TA_PORT_ID, UINT32_MAX));
		if (!b)
			continue;
		now = &top.cur.sums[i];
		if (!b->known) {
			b->known = true;
			b->ce = top.rebase ? now->ce : 0;
			b->ue = top.rebase ? now->ue : 0;
		} else if (now->ce < b->ce || now->ue < b->ue) {
			b->ce = b->ue = 0;
		}
	}
	top.rebase = false;
}

/* 'c': the deltas count from the next snapshot */
void clear_deltas(void)
{
	uint32_t sw;

	for (sw = 0; sw <= PCIESW_MAX_SWITCH_ID; sw++)
		forget_bases(sw);
	top.rebase = true;
}

static const struct ep_io *find_io(const struct snap *sn, uint32_t sw,
				   uint32_t ep)
{
	struct ep_io key = { .sw = sw, .ep = ep };

	if (!sn->nr_io)
		return NULL;
	return bsearch(&key, sn->io, sn->nr_io, sizeof(*sn->io), cmp_io);
}

/* The I/O rates of the drive of @tb, between the last two snapshots. */
void io_rates(struct nlattr **tb, struct io_rates *r)
{
	const struct ep_io *now, *then;
	uint32_t sw = u32_or(tb, TA_SWITCH_ID, 0);
	uint64_t ns;

	*r = (struct io_rates){ 0 };
	if (!tb[TA_EP_ID] || !top.have_prev)
		return;
	now = find_io(&top.cur, sw, nla_get_u32(tb[TA_EP_ID]));
	then = find_io(&top.prev, sw, nla_get_u32(tb[TA_EP_ID]));
	if (!now || !then)
		return;
	ns = top.cur.ns - top.prev.ns;
	r->has = true;
	r->rbytes = per_sec(counter_delta(now->rbytes, then->rbytes), ns);
	r->wbytes = per_sec(counter_delta(now->wbytes, then->wbytes), ns);
	r->reads = per_sec(counter_delta(now->reads, then->reads), ns);
	r->writes = per_sec(counter_delta(now->writes, then->writes), ns);
}
