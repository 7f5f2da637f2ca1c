// SPDX-License-Identifier: GPL-2.0
/*
 * Routing and the bandwidth model.
 *
 * Routes follow the rules of Linux's p2pdma (drivers/pci/p2pdma.c): two
 * endpoints behind the switch whose downstream ports both have ACS P2P
 * Request Redirect off talk port to port (distance 4, nothing on the
 * upstream port); with redirect on either port the requests go up through
 * the upstream port to the host bridge and come back down (distance 8),
 * which only works if the host bridge forwards P2P (the switch's host-p2p
 * setting), else the route is refused.  ACS P2P Egress Control names, per
 * port, the peers whose traffic it does not let through directly: that
 * traffic is redirected the same way if the port redirects, else blocked
 * (refused; the DMA engine counts an ACS violation).  An endpoint copying within itself
 * uses only its own port (distance 0), once in each direction.  Host
 * memory is reached through the upstream port.
 *
 * Bandwidth of a link, bytes/s in each direction:
 *
 *	GT/s x width x encoding / 8 x MPS / (MPS + 24)
 *
 * encoding 8b/10b on Gen1-2 and 128b/130b on Gen3-5; 24 bytes of overhead
 * per TLP: 4 of framing (the Gen3+ STP token, or STP + END around the
 * 2-byte sequence number on Gen1-2), a 16-byte 4DW header and a 4-byte
 * LCRC.  DLLPs and ordered sets are ignored.  Only payload is booked, in
 * the direction the data flows: a read's requests carry none (a header
 * per Max_Read_Request_Size on the opposite direction of the link, also
 * ignored), so a read from a device books its link's device-to-switch
 * direction alone.
 *
 * Every port has two directional timelines (sw->link_free: switch to
 * device and device to switch; links are full duplex).  A transfer of
 * @len bytes starts when all the directional links it uses are free (and
 * not before it runs), occupies each of them for @len / its rate and ends
 * when the slowest is done: concurrent transfers share a link in
 * proportion to their sizes.  Host memory is never the bottleneck.
 *
 * All of this runs with sw->lock held.
 */

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "model/pciesw.h"
#include "model/route.h"

/* per-TLP overhead in bytes: framing 4, 4DW header 16, LCRC 4 */
#define PCIESW_TLP_OVERHEAD	24

enum {
	PCIESW_LINK_TX,		/* switch to device: egress on the port */
	PCIESW_LINK_RX,		/* device to switch: ingress on the port */
};

static const struct {
	u32 mtps;		/* mega-transfers per second per lane */
	u8 num, den;		/* encoding efficiency */
} pciesw_link_gens[] = {
	[PCIESW_LINK_SPEED_GEN1] = { 2500, 8, 10 },
	[PCIESW_LINK_SPEED_GEN2] = { 5000, 8, 10 },
	[PCIESW_LINK_SPEED_GEN3] = { 8000, 128, 130 },
	[PCIESW_LINK_SPEED_GEN4] = { 16000, 128, 130 },
	[PCIESW_LINK_SPEED_GEN5] = { 32000, 128, 130 },
};

int pciesw_route_init(struct pciesw_switch *sw)
{
	sw->link_free = kcalloc(sw->profile->nr_lanes, sizeof(*sw->link_free),
				GFP_KERNEL);
	return sw->link_free ? 0 : -ENOMEM;
}

void pciesw_route_release(struct pciesw_switch *sw)
{
	kfree(sw->link_free);
}

/* Lanes @first.. became new ports: their links have carried nothing. */
void pciesw_route_lanes_reset(struct pciesw_switch *sw, unsigned int first,
			      unsigned int nr)
{
	lockdep_assert_held(&sw->lock);
	memset(&sw->link_free[first], 0, nr * sizeof(*sw->link_free));
}

/* Bytes/s in each direction of a link; 0 when there is no link. */
u64 pciesw_link_rate(enum pciesw_link_speed speed, unsigned int width,
		     u32 mps)
{
	u64 num, den;

	if (speed < PCIESW_LINK_SPEED_GEN1 || speed > PCIESW_LINK_SPEED_MAX ||
	    !width || !mps)
		return 0;
	/* at most 32000e6 x 16 x 128 x 4096 < 2^58: no overflow */
	num = (u64)pciesw_link_gens[speed].mtps * 1000000 * width *
	      pciesw_link_gens[speed].num * mps;
	den = 8ULL * pciesw_link_gens[speed].den * (mps + PCIESW_TLP_OVERHEAD);
	return div64_u64(num, den);
}

/* The modelled throughput of @port's link, 0 while it is down. */
u64 pciesw_port_bandwidth(const struct pciesw_port *port)
{
	const struct pciesw_switch *sw = port->group->sw;

	lockdep_assert_held(&port->group->sw->lock);
	if (!pciesw_link_active(port))
		return 0;
	return pciesw_link_rate(port->link.speed, port->link.width,
				READ_ONCE(sw->mps));
}

static struct pciesw_port *pciesw_upstream_port(struct pciesw_switch *sw)
{
	struct pciesw_port *port;

	pciesw_for_each_port(sw, port)
		if (port->role == PCIESW_PORT_ROLE_UPSTREAM)
			return port;
	return NULL;
}

static void pciesw_route_add_port(struct pciesw_route *r,
				  const struct pciesw_port *port)
{
	unsigned int i;

	r->ports[r->nr_ports++] = port->id;
	for (i = 0; i < r->nr_groups; i++)
		if (r->groups[i] == port->group->id)
			return;
	r->groups[r->nr_groups++] = port->group->id;
}

/* @port's ACS P2P Egress Control blocks its traffic with @peer. */
static bool pciesw_route_egress_blocks(const struct pciesw_port *port,
				       const struct pciesw_port *peer)
{
	return !port->acs_redirect && peer->id < 64 &&
	       (port->acs_egress & BIT_ULL(peer->id));
}

/**
 * pciesw_route_find - how data from @src to @dst crosses the switch
 * @sw: the switch
 * @src: the source endpoint, NULL for host memory
 * @dst: the destination endpoint, NULL for host memory
 * @r: filled in
 *
 * Returns 0, or -EINVAL for host memory on both sides, -ENODEV when the
 * switch has no upstream port.
 */
int pciesw_route_find(struct pciesw_switch *sw,
		      const struct pciesw_endpoint *src,
		      const struct pciesw_endpoint *dst,
		      struct pciesw_route *r)
{
	struct pciesw_port *up = pciesw_upstream_port(sw);
	struct pciesw_port *sp = src ? src->port : up;
	struct pciesw_port *dp = dst ? dst->port : up;

	lockdep_assert_held(&sw->lock);
	memset(r, 0, sizeof(*r));
	if (!src && !dst)
		return -EINVAL;
	if (!up)
		return -ENODEV;
	r->host_src = !src;
	r->host_dst = !dst;
	r->up_lane = up->first_lane;
	r->src_lane = sp->first_lane;
	r->dst_lane = dp->first_lane;
	r->kind = PCIESW_P2P_ROUTE_DIRECT;

	if (!src || !dst) {
		/* host memory: through the upstream port */
		pciesw_route_add_port(r, sp);
		pciesw_route_add_port(r, dp);
		return 0;
	}
	if (src == dst) {
		pciesw_route_add_port(r, sp);
		return 0;
	}
	if (sp->acs_redirect)
		r->redirect[r->nr_redirect++] = sp->id;
	if (dp->acs_redirect)
		r->redirect[r->nr_redirect++] = dp->id;
	pciesw_route_add_port(r, sp);
	if (pciesw_route_egress_blocks(sp, dp) ||
	    pciesw_route_egress_blocks(dp, sp)) {
		r->kind = PCIESW_P2P_ROUTE_REFUSED;
		r->distance = 4;
	} else if (!r->nr_redirect) {
		r->distance = 4;
	} else {
		r->kind = sw->host_p2p ? PCIESW_P2P_ROUTE_HOST_BRIDGE :
					 PCIESW_P2P_ROUTE_REFUSED;
		r->distance = 8;
		pciesw_route_add_port(r, up);
		pciesw_route_add_port(r, up);
	}
	pciesw_route_add_port(r, dp);
	return 0;
}

/* Modelled throughput of the slowest link of @r (0 when refused or down). */
u64 pciesw_route_bandwidth(struct pciesw_switch *sw,
			   const struct pciesw_route *r)
{
	u64 bw = U64_MAX;
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	if (r->kind == PCIESW_P2P_ROUTE_REFUSED)
		return 0;
	for (i = 0; i < r->nr_ports; i++) {
		const struct pciesw_port *port = pciesw_port_find(sw,
								  r->ports[i]);

		if (!port)
			return 0;
		bw = min(bw, pciesw_port_bandwidth(port));
	}
	return bw == U64_MAX ? 0 : bw;
}

/* Every link @r crosses is up (what pciesw_route_reserve() books on). */
bool pciesw_route_links_up(struct pciesw_switch *sw,
			   const struct pciesw_route *r)
{
	u16 lanes[3] = { r->src_lane, r->dst_lane, r->up_lane };
	unsigned int i, n = r->kind == PCIESW_P2P_ROUTE_HOST_BRIDGE ? 3 : 2;

	lockdep_assert_held(&sw->lock);
	for (i = 0; i < n; i++) {
		struct pciesw_port *port = pciesw_port_by_lane(sw, lanes[i]);

		if (!port || !pciesw_port_bandwidth(port))
			return false;
	}
	return true;
}

/**
 * pciesw_route_reserve - book @len bytes on the links of @r
 * @sw: the switch
 * @r: the route (not refused)
 * @len: bytes
 * @now: when the transfer can start, CLOCK_MONOTONIC ns
 * @start_out: set to when it starts: @now, or later when a link it needs is
 *	still busy with earlier transfers
 * @end: set to its modelled end, > @start
 *
 * The data enters the switch on the source's port (device to switch) and
 * leaves on the destination's (switch to device); through the host bridge
 * it also goes up and comes back down the upstream port.  Returns -ENOLINK,
 * booking nothing, when a link on the way is down.
 */
int pciesw_route_reserve(struct pciesw_switch *sw,
			 const struct pciesw_route *r, u64 len, u64 now,
			 u64 *start_out, u64 *end)
{
	struct pciesw_route_links l;
	int err;

	err = pciesw_route_links(sw, r, &l);
	if (!err)
		pciesw_route_book(sw, &l, len, now, start_out, end);
	return err;
}

/**
 * pciesw_route_links - the directional links @r occupies, with their rates
 * @sw: the switch
 * @r: the route (not refused)
 * @l: filled in; good for pciesw_route_book() while sw->lock stays held
 *
 * Returns -ENOLINK when a link on the way is down.
 */
int pciesw_route_links(struct pciesw_switch *sw, const struct pciesw_route *r,
		       struct pciesw_route_links *l)
{
	struct pciesw_route_use *use = l->use;
	unsigned int i, n = 0;

	lockdep_assert_held(&sw->lock);
	use[n++] = (struct pciesw_route_use){ r->src_lane, PCIESW_LINK_RX };
	use[n++] = (struct pciesw_route_use){ r->dst_lane, PCIESW_LINK_TX };
	if (r->kind == PCIESW_P2P_ROUTE_HOST_BRIDGE) {
		use[n++] = (struct pciesw_route_use){ r->up_lane,
						      PCIESW_LINK_TX };
		use[n++] = (struct pciesw_route_use){ r->up_lane,
						      PCIESW_LINK_RX };
	}
	for (i = 0; i < n; i++) {
		struct pciesw_port *port = pciesw_port_by_lane(sw, use[i].lane);

		use[i].rate = port ? pciesw_port_bandwidth(port) : 0;
		if (!use[i].rate)
			return -ENOLINK;
	}
	l->nr = n;
	l->len = 0;
	return 0;
}

/**
 * pciesw_route_book - pciesw_route_reserve() on links already looked up
 * @sw: the switch
 * @l: from pciesw_route_links() in this hold of sw->lock; remembers the
 *	time @len takes on each link for the next call with the same @len
 * @len: bytes
 * @now: when the transfer can start, CLOCK_MONOTONIC ns
 * @start_out: set to when it starts
 * @end: set to its modelled end, > @start_out
 */
void pciesw_route_book(struct pciesw_switch *sw, struct pciesw_route_links *l,
		       u64 len, u64 now, u64 *start_out, u64 *end)
{
	struct pciesw_route_use *use = l->use;
	u64 start = now, last;
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	if (l->len != len) {
		for (i = 0; i < l->nr; i++)
			/* rounded up: a byte takes time; len <= 2^30 */
			use[i].ns = div64_u64(len * NSEC_PER_SEC +
					      use[i].rate - 1, use[i].rate);
		l->len = len;
	}
	for (i = 0; i < l->nr; i++)
		start = max(start, sw->link_free[use[i].lane][use[i].dir]);
	last = start;
	for (i = 0; i < l->nr; i++) {
		u64 t = start + use[i].ns;

		sw->link_free[use[i].lane][use[i].dir] = t;
		last = max(last, t);
	}
	*start_out = start;
	*end = last;
}
