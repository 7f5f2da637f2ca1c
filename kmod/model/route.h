/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How traffic crosses the switch (route.c): routes and the bandwidth
 * model, for the DMA engine and the views that report or use routes.
 */
#ifndef _PCIESW_ROUTE_H
#define _PCIESW_ROUTE_H

#include "model/pciesw.h"

/*
 * route.c: how traffic crosses the switch, and the bandwidth model.  All
 * called with sw->lock held.
 */

/* ports a route crosses: at most source, upstream twice, destination */
#define PCIESW_ROUTE_MAX_PORTS	4

/**
 * struct pciesw_route - the way a transfer takes through the switch
 * @kind: direct, through the host bridge, or refused; a transfer to or
 *	from host memory is DIRECT (it has no peer-to-peer decision to make)
 * @host_src: the data comes from host memory through the upstream port
 * @host_dst: the data goes to host memory through the upstream port
 * @distance: p2pdma-style hops between the two endpoints: 0 within one
 *	device, 4 direct, 8 through the host bridge
 * @src_lane: first lane of the port the data enters the switch through
 * @dst_lane: first lane of the port the data leaves the switch through
 * @up_lane: first lane of the upstream port
 * @nr_ports: entries of @ports
 * @ports: ids of the ports crossed, in order (as they were when routed)
 * @nr_groups: entries of @groups
 * @groups: the lane groups whose ports it crosses, each once
 * @nr_redirect: entries of @redirect
 * @redirect: ids of the ports whose ACS redirect keeps it from being direct
 */
struct pciesw_route {
	enum pciesw_p2p_route kind;
	bool host_src;
	bool host_dst;
	u32 distance;
	u16 src_lane;
	u16 dst_lane;
	u16 up_lane;
	u8 nr_ports;
	u8 ports[PCIESW_ROUTE_MAX_PORTS];
	u8 nr_groups;
	u8 groups[3];
	u8 nr_redirect;
	u8 redirect[2];
};

int pciesw_route_init(struct pciesw_switch *sw);
void pciesw_route_release(struct pciesw_switch *sw);
void pciesw_route_lanes_reset(struct pciesw_switch *sw, unsigned int first,
			      unsigned int nr);
u64 pciesw_link_rate(enum pciesw_link_speed speed, unsigned int width,
		     u32 mps);
u64 pciesw_port_bandwidth(const struct pciesw_port *port);
int pciesw_route_find(struct pciesw_switch *sw,
		      const struct pciesw_endpoint *src,
		      const struct pciesw_endpoint *dst,
		      struct pciesw_route *r);
u64 pciesw_route_bandwidth(struct pciesw_switch *sw,
			   const struct pciesw_route *r);
bool pciesw_route_links_up(struct pciesw_switch *sw,
			   const struct pciesw_route *r);
/**
 * struct pciesw_route_use - one directional link a transfer occupies
 * @lane: the port's first lane
 * @dir: into the switch or out of it (route.c)
 * @rate: its modelled bytes/s
 * @ns: the time pciesw_route_links.len bytes take on it
 */
struct pciesw_route_use {
	u16 lane;
	u8 dir;
	u64 rate;
	u64 ns;
};

/**
 * struct pciesw_route_links - the links of a route, looked up under
 *	sw->lock and good while it stays held (pciesw_route_links())
 * @use: the links
 * @nr: entries of @use
 * @len: the length @use's ns are for, 0 for none yet
 */
struct pciesw_route_links {
	struct pciesw_route_use use[4];
	unsigned int nr;
	u64 len;
};

int pciesw_route_links(struct pciesw_switch *sw, const struct pciesw_route *r,
		       struct pciesw_route_links *l);
void pciesw_route_book(struct pciesw_switch *sw, struct pciesw_route_links *l,
		       u64 len, u64 now, u64 *start_out, u64 *end);
int pciesw_route_reserve(struct pciesw_switch *sw,
			 const struct pciesw_route *r, u64 len, u64 now,
			 u64 *start_out, u64 *end);

#endif /* _PCIESW_ROUTE_H */
