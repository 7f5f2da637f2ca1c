// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink: p2p-check, how DMA between two endpoints would travel.
 */

#include "netlink/netlink.h"
#include "model/route.h"

struct pciesw_nl_p2p {
	struct pciesw_switch *sw;
	const struct pciesw_endpoint *ep;
	const struct pciesw_endpoint *peer;
	struct pciesw_route route;
};

static int pciesw_nl_fill_p2p(struct sk_buff *msg, const void *obj)
{
	const struct pciesw_nl_p2p *p = obj;
	const struct pciesw_route *r = &p->route;
	unsigned int i;

	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, p->sw->id) ||
	    nla_put_u32(msg, PCIESW_A_EP_ID, p->ep->id) ||
	    nla_put_u32(msg, PCIESW_A_PEER_EP_ID, p->peer->id) ||
	    nla_put_u32(msg, PCIESW_A_P2P_ROUTE, r->kind) ||
	    nla_put_u32(msg, PCIESW_A_P2P_DISTANCE, r->distance) ||
	    nla_put_u64_64bit(msg, PCIESW_A_P2P_BANDWIDTH,
			      pciesw_route_bandwidth(p->sw, r), PCIESW_A_PAD) ||
	    nla_put_u8(msg, PCIESW_A_SWITCH_HOST_P2P,
		       pciesw_switch_setting(p->sw, PCIESW_SETTING_HOST_P2P)))
		return -EMSGSIZE;
	for (i = 0; i < r->nr_ports; i++)
		if (nla_put_u32(msg, PCIESW_A_P2P_PORT, r->ports[i]))
			return -EMSGSIZE;
	for (i = 0; i < r->nr_redirect; i++)
		if (nla_put_u32(msg, PCIESW_A_P2P_REDIRECT_PORT, r->redirect[i]))
			return -EMSGSIZE;
	return 0;
}

int pciesw_nl_p2p_check_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct pciesw_nl_p2p p = { .sw = sw };
	struct pciesw_endpoint *ep, *peer;
	int err;

	ep = pciesw_nl_find_ep(sw, info);
	if (IS_ERR(ep))
		return PTR_ERR(ep);
	peer = pciesw_nl_find_ep_by(sw, info, PCIESW_A_PEER_EP_ID,
				    PCIESW_A_PEER_EP_NAME,
				    "need peer-ep-id or peer-ep-name");
	if (IS_ERR(peer))
		return PTR_ERR(peer);
	err = pciesw_route_find(sw, ep, peer, &p.route);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "switch has no upstream port");
		return err;
	}
	p.ep = ep;
	p.peer = peer;
	return pciesw_nl_reply(info, PCIESW_CMD_P2P_CHECK, pciesw_nl_fill_p2p,
			       &p);
}

