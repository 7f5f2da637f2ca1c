// SPDX-License-Identifier: GPL-2.0
/*
 * Lane groups of the live topology: every bifurcation of every group of the
 * default profile (pex89048: host 1x16|1x8, gpu 1x16|2x8|4x4, nvme
 * 1x16|2x8|4x4|8x2|16x1), set over netlink by group name, by group id and
 * through sysfs group_NAME/config (variants).  After each change: the
 * ports (numbered by their first lane as kmod/model/profile.c documents, lanes
 * tiling each group as configured, widths), the port devices, the
 * endpoints re-attached in lane order (the surplus unplugged), the links
 * retrained, and the ports of the other groups untouched (same number,
 * endpoint, link, settings and LTSSM history).  Stable numbers on pex89048
 * and pex89144: re-bifurcating a GPU group leaves every other port's
 * number, sysfs device, endpoint, counters, link and PCI address alone,
 * and the new ports get the documented numbers.  Refused configurations,
 * unknown groups.
 *
 * Switch ids used here: 150-151.
 */
#include "pciesw_topo.h"

#define ID		150U
#define MAX_PORTS	40U

enum method { BY_NAME, BY_ID, BY_SYSFS };

static const char *const group_names[] = { "host", "gpu", "nvme" };
static const unsigned int group_ep_type[] = { 0, PCIESW_EP_TYPE_GPU,
					      PCIESW_EP_TYPE_NVME };

FIXTURE(lanes)
{
	struct pnl p;
	struct pnl mon;
	struct pnl_reply r;
	const struct exp_profile *exp;
};

FIXTURE_VARIANT(lanes)
{
	enum method how;
};

FIXTURE_VARIANT_ADD(lanes, netlink_name) { .how = BY_NAME };
FIXTURE_VARIANT_ADD(lanes, netlink_id) { .how = BY_ID };
FIXTURE_VARIANT_ADD(lanes, sysfs) { .how = BY_SYSFS };

FIXTURE_SETUP(lanes)
{
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	self->exp = exp_profile("pex89048");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_open_monitor(&self->mon));
	pnl_reply_init(&self->r);
	err = tp_switch_fresh(&self->p, ID, NULL);
	ASSERT_EQ(0, err) TH_LOG("pciesw%u: %s", ID, strerror(-err));
}

FIXTURE_TEARDOWN(lanes)
{
	pnl_reply_free(&self->r);
	pnl_close(&self->mon);
	pnl_close(&self->p);
	if (sw_exists(ID))
		sw_del(ID);
	if (sw_exists(ID + 1))
		sw_del(ID + 1);
}

/* Set group @g to @cfg the variant's way: 0 or the errno. */
static int set_config(FIXTURE_DATA(lanes) *self, enum method how,
		      unsigned int g, const char *cfg)
{
	char buf[64];
	int err;

	pnl_reply_free(&self->r);
	switch (how) {
	case BY_NAME:
		return tp_group_set_name(&self->p, ID, group_names[g], cfg,
					 &self->r);
	case BY_ID:
		return tp_group_set_id(&self->p, ID, g, cfg, &self->r);
	default:
		pnl_reply_init(&self->r);
		snprintf(buf, sizeof(buf), "%s\n", cfg);
		err = group_write_config(ID, group_names[g], buf);
		return -err;
	}
}

/* What a port looked like: for the ports a change must leave alone. */
struct snap {
	unsigned int nr;
	struct pnl_obj o[MAX_PORTS];
	struct tp_hist h[MAX_PORTS];
};

static void take_snap(struct __test_metadata *_metadata, struct pnl *p,
		      struct snap *s)
{
	struct tp_reply t;
	unsigned int i;

	ASSERT_EQ(0, tp_ports(p, ID, &t));
	ASSERT_GE(MAX_PORTS, t.r.nobjs);
	s->nr = t.r.nobjs;
	for (i = 0; i < t.r.nobjs; i++) {
		s->o[i] = t.r.objs[i];
		s->h[i] = t.h[i];
	}
	tp_reply_free(&t);
}

/* The fields of a port's state that only its own changes may change. */
static const int kept_attrs[] = {
	PCIESW_A_GROUP_ID, PCIESW_A_PORT_ROLE, PCIESW_A_PORT_FIRST_LANE,
	PCIESW_A_PORT_NR_LANES, PCIESW_A_PORT_LTSSM, PCIESW_A_PORT_LINK_ACTIVE,
	PCIESW_A_PORT_MAX_SPEED, PCIESW_A_PORT_MAX_WIDTH,
	PCIESW_A_PORT_TARGET_SPEED, PCIESW_A_PORT_SPEED, PCIESW_A_PORT_WIDTH,
	PCIESW_A_PORT_DEGRADED, PCIESW_A_PORT_ACS_REDIRECT,
	PCIESW_A_PORT_ENABLED, PCIESW_A_PORT_FAILED_LANES, PCIESW_A_EP_ID, 0
};

/* Port @b is port @a moved (or not): same state, same history. */
static void check_same_port(struct __test_metadata *_metadata,
			    const struct pnl_obj *a, const struct tp_hist *ha,
			    const struct pnl_obj *b, const struct tp_hist *hb,
			    const char *why)
{
	unsigned int i;

	for (i = 0; kept_attrs[i]; i++) {
		EXPECT_EQ(pnl_has(a, kept_attrs[i]), pnl_has(b, kept_attrs[i]))
			TH_LOG("%s: port %u -> %u: %s present", why,
			       a->u[PCIESW_A_PORT_ID], b->u[PCIESW_A_PORT_ID],
			       spec_attrs[kept_attrs[i]].name);
		EXPECT_EQ(a->u[kept_attrs[i]], b->u[kept_attrs[i]])
			TH_LOG("%s: port %u -> %u: %s", why,
			       a->u[PCIESW_A_PORT_ID], b->u[PCIESW_A_PORT_ID],
			       spec_attrs[kept_attrs[i]].name);
	}
	EXPECT_EQ(a->u64[PCIESW_A_PORT_SURPRISE_DOWN],
		  b->u64[PCIESW_A_PORT_SURPRISE_DOWN]);
	EXPECT_STREQ(a->s[PCIESW_A_EP_NAME], b->s[PCIESW_A_EP_NAME])
		TH_LOG("%s: port %u", why, a->u[PCIESW_A_PORT_ID]);
	EXPECT_EQ(ha->n, hb->n) TH_LOG("%s: port %u: history", why,
				       a->u[PCIESW_A_PORT_ID]);
	if (ha->n == hb->n)
		EXPECT_EQ(0, memcmp(ha->t, hb->t,
				    (ha->n < TP_HIST_MAX ? ha->n : TP_HIST_MAX) *
				    sizeof(ha->t[0])))
			TH_LOG("%s: port %u: history differs", why,
			       a->u[PCIESW_A_PORT_ID]);
}

/* Expected configs of the three groups. */
struct layout {
	const char *cfg[3];
};

static unsigned int cfg_ports(const char *cfg)
{
	unsigned int n = 0, w = 0;

	parse_bif(cfg, &n, &w);
	return n;
}

static unsigned int cfg_width(const char *cfg)
{
	unsigned int n = 0, w = 0;

	parse_bif(cfg, &n, &w);
	return w;
}

/* @ids (ascending) as comma-separated "FIRST-LAST" runs, sysfs ports. */
static void fmt_runs(const unsigned int *ids, unsigned int n, char *buf,
		     size_t len)
{
	unsigned int i, start;
	size_t off = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		start = i;
		while (i + 1 < n && ids[i + 1] == ids[i] + 1)
			i++;
		off += snprintf(buf + off, len - off, "%s%u-%u",
				off ? "," : "", ids[start], ids[i]);
		if (off >= len)
			return;
	}
}

static void sort_ids(unsigned int *ids, unsigned int n)
{
	unsigned int i, j, v;

	for (i = 1; i < n; i++) {
		v = ids[i];
		for (j = i; j > 0 && ids[j - 1] > v; j--)
			ids[j] = ids[j - 1];
		ids[j] = v;
	}
}

/* The port number of the @k-th port (lane order) of group @g in @cfg. */
static unsigned int group_port(struct __test_metadata *_metadata,
			       const struct exp_profile *exp, unsigned int g,
			       const char *cfg, unsigned int k)
{
	unsigned int lane = exp->groups[g].first_lane + k * cfg_width(cfg);
	int id = exp_port_at(exp, lane, NULL);

	EXPECT_LE(0, id) TH_LOG("no slot at lane %u", lane);
	return id < 0 ? 0 : id;
}

/*
 * The switch has layout @l: groups, ports, port devices, sysfs and netlink
 * agreeing, every port numbered as documented for its first lane.
 * Training need not be over.
 */
static void check_layout(struct __test_metadata *_metadata, struct pnl *p,
			 const struct exp_profile *exp, const struct layout *l)
{
	unsigned int g, k, i, port, total = 0, n, w, ids[16], prev = 0;
	bool wanted[MAX_PORTS] = { false };
	struct pnl_reply gr;
	struct tp_reply t;
	char buf[128], want[128];

	for (g = 0; g < 3; g++)
		total += cfg_ports(l->cfg[g]);

	/* groups, both views */
	ASSERT_EQ(0, pnl_dump(p, PCIESW_CMD_GROUP_GET,
			      (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, ID), A_END }, &gr));
	ASSERT_EQ(3U, gr.nobjs);
	for (g = 0; g < 3; g++) {
		n = cfg_ports(l->cfg[g]);
		EXPECT_STREQ(l->cfg[g], gr.objs[g].s[PCIESW_A_GROUP_CONFIG])
			TH_LOG("group %s", group_names[g]);
		EXPECT_EQ(0, group_attr(ID, group_names[g], "config", buf,
					sizeof(buf)));
		EXPECT_STREQ(l->cfg[g], buf) TH_LOG("sysfs group_%s/config",
						    group_names[g]);
		EXPECT_EQ(0, group_attr(ID, group_names[g], "ports", buf,
					sizeof(buf)));
		for (k = 0; k < n; k++) {
			ids[k] = group_port(_metadata, exp, g, l->cfg[g], k);
			if (ids[k] < MAX_PORTS)
				wanted[ids[k]] = true;
		}
		sort_ids(ids, n);
		fmt_runs(ids, n, want, sizeof(want));
		EXPECT_STREQ(want, buf) TH_LOG("sysfs group_%s/ports",
					       group_names[g]);
	}
	pnl_reply_free(&gr);

	EXPECT_EQ((long)total, sw_attr_u32(ID, "nr_ports"));
	ASSERT_EQ(0, tp_ports(p, ID, &t));
	ASSERT_EQ(total, t.r.nobjs);
	/* the dump is in port number order; each where its lane says */
	for (i = 0; i < t.r.nobjs; i++) {
		const struct pnl_obj *o = &t.r.objs[i];

		port = o->u[PCIESW_A_PORT_ID];
		if (i)
			EXPECT_LT(prev, port) TH_LOG("dump #%u", i);
		prev = port;
	}
	for (g = 0; g < 3; g++) {
		const struct exp_group *eg = &exp->groups[g];

		n = cfg_ports(l->cfg[g]);
		w = cfg_width(l->cfg[g]);
		for (k = 0; k < n; k++) {
			const struct pnl_obj *o = NULL;
			unsigned int lane = eg->first_lane + k * w;

			port = group_port(_metadata, exp, g, l->cfg[g], k);
			for (i = 0; i < t.r.nobjs; i++)
				if (t.r.objs[i].u[PCIESW_A_PORT_ID] == port)
					o = &t.r.objs[i];
			EXPECT_NE(NULL, o) TH_LOG("%s %s: no port %u (lane %u)",
						  group_names[g], l->cfg[g],
						  port, lane);
			if (!o)
				continue;
			EXPECT_EQ(g, o->u[PCIESW_A_GROUP_ID]) TH_LOG("port %u",
								    port);
			EXPECT_STREQ(group_names[g], o->s[PCIESW_A_GROUP_NAME]);
			EXPECT_EQ(lane, o->u[PCIESW_A_PORT_FIRST_LANE])
				TH_LOG("port %u", port);
			EXPECT_EQ(w, o->u[PCIESW_A_PORT_NR_LANES])
				TH_LOG("port %u", port);
			EXPECT_EQ(w, o->u[PCIESW_A_PORT_MAX_WIDTH]);
			EXPECT_EQ(g ? (uint32_t)PCIESW_PORT_ROLE_DOWNSTREAM :
				  (uint32_t)PCIESW_PORT_ROLE_UPSTREAM,
				  o->u[PCIESW_A_PORT_ROLE]);

			/* the port device says the same */
			EXPECT_TRUE(port_dev_exists(ID, port))
				TH_LOG("no pciesw%u-port%u", ID, port);
			EXPECT_EQ(0, port_attr(ID, port, "port_id", buf,
					       sizeof(buf)));
			snprintf(want, sizeof(want), "%u", port);
			EXPECT_STREQ(want, buf);
			EXPECT_EQ(0, port_attr(ID, port, "lanes", buf,
					       sizeof(buf)));
			snprintf(want, sizeof(want), "%u-%u", lane,
				 lane + w - 1);
			EXPECT_STREQ(want, buf) TH_LOG("port %u lanes", port);
			EXPECT_EQ(0, port_attr(ID, port, "max_link_width", buf,
					       sizeof(buf)));
			snprintf(want, sizeof(want), "%u", w);
			EXPECT_STREQ(want, buf);
			EXPECT_EQ(0, port_attr(ID, port, "lane_group", buf,
					       sizeof(buf)));
			EXPECT_STREQ(group_names[g], buf);
			EXPECT_EQ(0, port_attr(ID, port, "role", buf,
					       sizeof(buf)));
			EXPECT_STREQ(g ? "downstream" : "upstream", buf);
			EXPECT_EQ(0, port_attr(ID, port, "endpoint", buf,
					       sizeof(buf)));
			EXPECT_STREQ(o->s[PCIESW_A_EP_NAME], buf)
				TH_LOG("port %u endpoint", port);
		}
	}
	/* and no port devices for the numbers not in use */
	for (port = 0; port < MAX_PORTS; port++)
		if (!wanted[port])
			EXPECT_FALSE(port_dev_exists(ID, port))
				TH_LOG("pciesw%u-port%u still there", ID,
				       port);
	tp_reply_free(&t);
}

/*
 * After group @g went to @l: every port of it with an endpoint trained at
 * min(port, endpoint) width and Gen5, the others in Detect.
 */
static void check_trained(struct __test_metadata *_metadata, struct pnl *p,
			  const struct layout *l, unsigned int g)
{
	struct tp_reply t;
	unsigned int i, seen = 0, n = cfg_ports(l->cfg[g]);
	unsigned int w = cfg_width(l->cfg[g]);

	ASSERT_TRUE(tp_wait_trained(p, ID));
	ASSERT_EQ(0, tp_ports(p, ID, &t));
	for (i = 0; i < t.r.nobjs; i++) {
		const struct pnl_obj *o = &t.r.objs[i];
		unsigned int pw = g == 0 ? 16 : 0;	/* host: x16 */

		if (o->u[PCIESW_A_GROUP_ID] != g)
			continue;
		seen++;

		if (pnl_has(o, PCIESW_A_EP_NAME)) {
			char buf[64];

			EXPECT_EQ(0, ep_attr(ID, o->s[PCIESW_A_EP_NAME],
					     "max_link_width", buf,
					     sizeof(buf)));
			pw = strtoul(buf, NULL, 10);
		}
		if (pw) {
			EXPECT_EQ((uint32_t)PCIESW_LTSSM_L0,
				  o->u[PCIESW_A_PORT_LTSSM]) TH_LOG("port %u", i);
			EXPECT_EQ(pw < w ? pw : w, o->u[PCIESW_A_PORT_WIDTH])
				TH_LOG("port %u", i);
			EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN5,
				  o->u[PCIESW_A_PORT_SPEED]);
			EXPECT_EQ(0U, o->u[PCIESW_A_PORT_DEGRADED]);
		} else {
			EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT,
				  o->u[PCIESW_A_PORT_LTSSM]) TH_LOG("port %u", i);
			EXPECT_EQ(0U, o->u[PCIESW_A_PORT_WIDTH]);
		}
		/* a re-created port starts afresh */
		EXPECT_EQ(1U, o->u[PCIESW_A_PORT_ENABLED]);
		EXPECT_EQ(0U, o->u[PCIESW_A_PORT_FAILED_LANES]);
		EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN5,
			  o->u[PCIESW_A_PORT_TARGET_SPEED]);
		EXPECT_EQ(0U, o->u[PCIESW_A_PORT_ACS_REDIRECT]);
		EXPECT_EQ(0ULL, o->u64[PCIESW_A_PORT_SURPRISE_DOWN]);
		/* with a history of its own: from Detect on */
		if (t.h[i].n)
			EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT,
				  t.h[i].t[0].from) TH_LOG("port %u", i);
	}
	EXPECT_EQ(n, seen) TH_LOG("ports of group %s", group_names[g]);
	tp_reply_free(&t);
}

/* Endpoint names on the ports of group @g, in lane order. */
static unsigned int group_eps(const struct snap *s, unsigned int g,
			      char names[][PCIESW_NAME_LEN], uint32_t *ids)
{
	unsigned int i, j, n = 0, lanes[16];

	for (i = 0; i < s->nr; i++) {
		unsigned int lane = s->o[i].u[PCIESW_A_PORT_FIRST_LANE];

		if (s->o[i].u[PCIESW_A_GROUP_ID] != g ||
		    !pnl_has(&s->o[i], PCIESW_A_EP_NAME))
			continue;
		/* insert by lane: the dump is in port number order */
		for (j = n; j > 0 && lanes[j - 1] > lane; j--) {
			lanes[j] = lanes[j - 1];
			memcpy(names[j], names[j - 1], PCIESW_NAME_LEN);
			ids[j] = ids[j - 1];
		}
		lanes[j] = lane;
		snprintf(names[j], PCIESW_NAME_LEN, "%s",
			 s->o[i].s[PCIESW_A_EP_NAME]);
		ids[j] = s->o[i].u[PCIESW_A_EP_ID];
		n++;
	}
	return n;
}

/* Plug an endpoint of the group's type into every empty port of @g. */
static void fill_group(struct __test_metadata *_metadata, struct pnl *p,
		       const struct exp_profile *exp, const struct layout *l,
		       unsigned int g)
{
	unsigned int k, i;

	if (!group_ep_type[g])
		return;		/* the upstream port takes none */
	for (k = 0; k < cfg_ports(l->cfg[g]); k++) {
		struct pnl_obj o;
		int err;

		i = group_port(_metadata, exp, g, l->cfg[g], k);
		ASSERT_EQ(0, tp_port_get(p, ID, i, &o, NULL));
		if (pnl_has(&o, PCIESW_A_EP_NAME))
			continue;
		err = tp_ep_add(p, ID, i, group_ep_type[g], 0, 0, NULL, NULL);
		ASSERT_EQ(0, err) TH_LOG("ep-add on port %u: %s", i,
					 strerror(err));
	}
}

/* The entry of port @id in @s, NULL if it has none. */
static const struct pnl_obj *snap_port(const struct snap *s, unsigned int id,
				       unsigned int *idx)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->o[i].u[PCIESW_A_PORT_ID] == id) {
			if (idx)
				*idx = i;
			return &s->o[i];
		}
	return NULL;
}

/*
 * Change group @g to @cfg the variant's way and check everything: the
 * layout, the endpoints of @g re-attached in port order (the surplus
 * unplugged, with ep-del notifications), the other groups' ports as they
 * were, the links of @g retrained.
 */
static void change(struct __test_metadata *_metadata,
		   FIXTURE_DATA(lanes) *self, enum method how,
		   struct layout *l, unsigned int g, const char *cfg)
{
	char names[16][PCIESW_NAME_LEN];
	uint32_t ids[16];
	struct snap *before = calloc(1, sizeof(*before));
	struct snap *after = calloc(1, sizeof(*after));
	unsigned int i, j, k, n_eps, n_new = cfg_ports(cfg);
	struct pnl_reply ntf;
	unsigned int dels = 0;
	int err;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	take_snap(_metadata, &self->p, before);
	n_eps = group_eps(before, g, names, ids);
	/* forget what came before */
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 0, &ntf);
	pnl_reply_free(&ntf);

	err = set_config(self, how, g, cfg);
	ASSERT_EQ(0, err) TH_LOG("%s %s: %s (%s)", group_names[g], cfg,
				 strerror(err), self->r.msg);
	l->cfg[g] = cfg;
	check_layout(_metadata, &self->p, self->exp, l);
	take_snap(_metadata, &self->p, after);

	/* ports of the other groups: as they were, by the same number */
	for (i = 0; i < before->nr; i++) {
		unsigned int id = before->o[i].u[PCIESW_A_PORT_ID];

		if (before->o[i].u[PCIESW_A_GROUP_ID] == g)
			continue;
		ASSERT_NE(NULL, snap_port(after, id, &j))
			TH_LOG("%s %s: port %u is gone", group_names[g], cfg,
			       id);
		check_same_port(_metadata, &before->o[i], &before->h[i],
				&after->o[j], &after->h[j], cfg);
	}
	/* the group's endpoints, in lane order, the surplus gone */
	for (k = 0; k < n_new; k++) {
		unsigned int id = group_port(_metadata, self->exp, g, cfg, k);
		const struct pnl_obj *o = snap_port(after, id, NULL);

		ASSERT_NE(NULL, o) TH_LOG("%s %s: no port %u", group_names[g],
					  cfg, id);
		if (k < n_eps) {
			EXPECT_STREQ(names[k], o->s[PCIESW_A_EP_NAME])
				TH_LOG("%s %s: port %u", group_names[g], cfg,
				       id);
			EXPECT_EQ(ids[k], o->u[PCIESW_A_EP_ID]);
		} else {
			EXPECT_FALSE(pnl_has(o, PCIESW_A_EP_NAME))
				TH_LOG("%s %s: port %u has %s", group_names[g],
				       cfg, id, o->s[PCIESW_A_EP_NAME]);
		}
	}
	for (k = 0; k < n_eps; k++) {
		char buf[64], want[64];

		if (k < n_new) {
			unsigned int id = group_port(_metadata, self->exp, g,
						     cfg, k);

			/* the device moved with it, under its new port */
			EXPECT_TRUE(ep_dev_exists(ID, names[k]));
			EXPECT_EQ(0, ep_dev_parent(ID, names[k], buf,
						   sizeof(buf)));
			snprintf(want, sizeof(want), "pciesw%u-port%u", ID, id);
			EXPECT_STREQ(want, buf) TH_LOG("parent of %s",
						       names[k]);
			EXPECT_EQ(0, ep_attr(ID, names[k], "port", buf,
					     sizeof(buf)));
			snprintf(want, sizeof(want), "%u", id);
			EXPECT_STREQ(want, buf);
		} else {
			struct pnl_attr req[] = {
				A_U32(PCIESW_A_SWITCH_ID, ID),
				A_STR(PCIESW_A_EP_NAME, names[k]), A_END,
			};

			EXPECT_FALSE(ep_dev_exists(ID, names[k]))
				TH_LOG("%s %s: %s still there", group_names[g],
				       cfg, names[k]);
			pnl_reply_free(&self->r);
			EXPECT_EQ(ENOENT, pnl_do(&self->p, PCIESW_CMD_EP_GET,
						 req, &self->r))
				TH_LOG("%s", names[k]);
		}
	}
	/* one ep-del notification per unplugged endpoint, in order */
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 20, &ntf);
	for (i = 0; i < ntf.nobjs; i++) {
		const struct pnl_obj *o = &ntf.objs[i];

		if (o->u[PCIESW_A_SWITCH_ID] != ID ||
		    o->cmd != PCIESW_CMD_EP_DEL_NTF)
			continue;
		k = n_new + dels++;
		EXPECT_GT(n_eps, k) TH_LOG("unexpected ep-del %s",
					   o->s[PCIESW_A_EP_NAME]);
		if (k < n_eps)
			EXPECT_STREQ(names[k], o->s[PCIESW_A_EP_NAME]);
	}
	EXPECT_EQ(n_eps > n_new ? n_eps - n_new : 0, dels);
	pnl_reply_free(&ntf);

	check_trained(_metadata, &self->p, l, g);
	free(before);
	free(after);
}

/*
 * Every allowed bifurcation of every group, in an order that goes through
 * all of them and back to the defaults; each group's ports full of
 * endpoints before each change, so re-attaching and unplugging both
 * happen.  Settings on the ports of later groups must survive.
 */
TEST_F_TIMEOUT(lanes, every_config, 150)
{
	static const char *const seq[3][6] = {
		{ "1x8", "1x16" },
		{ "2x8", "4x4", "1x16" },
		{ "16x1", "2x8", "8x2", "1x16", "4x4" },
	};
	struct layout l = { { "1x16", "1x16", "4x4" } };
	unsigned int g, i;

	check_layout(_metadata, &self->p, self->exp, &l);

	/* state on the nvme ports that gpu and host changes must keep */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 2,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED,
							0)));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 3,
				  (struct pnl_attr)A_U8(
					PCIESW_A_PORT_ACS_REDIRECT, 1)));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 4,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, 0x8)));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 5,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_TARGET_SPEED,
					PCIESW_LINK_SPEED_GEN3)));
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	/* a surprise down, counted, then trained again */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 5,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 5,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_RETRAIN)));
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));

	for (g = 0; g < 3; g++) {
		for (i = 0; seq[g][i]; i++) {
			fill_group(_metadata, &self->p, self->exp, &l, g);
			change(_metadata, self, variant->how, &l, g,
			       seq[g][i]);
			if (_metadata->exit_code != KSFT_PASS)
				TH_LOG("at %s %s", group_names[g], seq[g][i]);
		}
	}
	/* back at the defaults */
	for (g = 0; g < 3; g++)
		EXPECT_STREQ(self->exp->groups[g].config, l.cfg[g]);
}

/* Setting the config a group has: success, and nothing is re-created. */
TEST_F(lanes, same_config)
{
	struct layout l = { { "1x16", "1x16", "4x4" } };
	struct snap *before = calloc(1, sizeof(*before));
	struct snap *after = calloc(1, sizeof(*after));
	struct pnl_reply ntf;
	unsigned int g, i;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	take_snap(_metadata, &self->p, before);
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 0, &ntf);
	pnl_reply_free(&ntf);
	for (g = 0; g < 3; g++) {
		const char *cfg = l.cfg[g];

		EXPECT_EQ(0, set_config(self, variant->how, g, cfg))
			TH_LOG("%s", cfg);
	}
	check_layout(_metadata, &self->p, self->exp, &l);
	take_snap(_metadata, &self->p, after);
	ASSERT_EQ(before->nr, after->nr);
	for (i = 0; i < before->nr; i++)
		check_same_port(_metadata, &before->o[i], &before->h[i],
				&after->o[i], &after->h[i], "same config");
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 50, &ntf);
	for (i = 0; i < ntf.nobjs; i++)
		EXPECT_NE(ID, ntf.objs[i].u[PCIESW_A_SWITCH_ID])
			TH_LOG("notification %u", ntf.objs[i].cmd);
	pnl_reply_free(&ntf);
	free(before);
	free(after);
}

/*
 * The example of the brief: nvme 4x4 -> 1x16 keeps nvme0 on the one port
 * and unplugs nvme1..3 (ep-del notifications); -> 16x1 puts nvme0 on the
 * first port and leaves the others empty; gpu0 stays on its port.
 */
TEST_F(lanes, nvme_example)
{
	struct layout l = { { "1x16", "1x16", "4x4" } };
	struct pnl_obj o;
	unsigned int i, k;

	ASSERT_EQ(0, tp_port_get(&self->p, ID, 2, &o, NULL));
	ASSERT_STREQ("nvme0", o.s[PCIESW_A_EP_NAME]);
	change(_metadata, self, variant->how, &l, 2, "1x16");
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 2, &o, NULL));
	EXPECT_STREQ("nvme0", o.s[PCIESW_A_EP_NAME]);
	EXPECT_EQ(4U, o.u[PCIESW_A_PORT_WIDTH]);	/* nvme x4 on x16 */
	for (i = 1; i < 4; i++) {
		char name[16];

		snprintf(name, sizeof(name), "nvme%u", i);
		EXPECT_FALSE(ep_dev_exists(ID, name)) TH_LOG("%s", name);
	}
	EXPECT_EQ(2, sysfs_nr_endpoints(ID));	/* gpu0, nvme0 */

	change(_metadata, self, variant->how, &l, 2, "16x1");
	EXPECT_EQ(18L, sw_attr_u32(ID, "nr_ports"));
	for (k = 0; k < 16; k++) {
		i = group_port(_metadata, self->exp, 2, "16x1", k);
		ASSERT_EQ(0, tp_port_get(&self->p, ID, i, &o, NULL));
		if (k == 0) {
			EXPECT_STREQ("nvme0", o.s[PCIESW_A_EP_NAME]);
			EXPECT_EQ(1U, o.u[PCIESW_A_PORT_WIDTH]);
		} else {
			EXPECT_FALSE(pnl_has(&o, PCIESW_A_EP_NAME))
				TH_LOG("port %u", i);
			EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT,
				  o.u[PCIESW_A_PORT_LTSSM]);
		}
	}
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 1, &o, NULL));
	EXPECT_STREQ("gpu0", o.s[PCIESW_A_EP_NAME]);
	EXPECT_EQ(16U, o.u[PCIESW_A_PORT_WIDTH]);
}

/* Offset of the group-config attribute in our group-set requests. */
static unsigned int config_offs(enum method how, const char *group)
{
	if (how == BY_ID)
		return PNL_ATTR_OFFS(2);
	return PNL_ATTR_OFFS(1) + NLA_ALIGN(NLA_HDRLEN + strlen(group) + 1);
}

/*
 * Configurations a group does not allow are refused with EINVAL and the
 * reason, nothing changes; unknown groups are ENOENT.
 */
TEST_F(lanes, bad_configs)
{
	static const struct {
		unsigned int g;
		const char *cfg;
		bool nl_only;	/* sysfs strips blanks, as sysfs does */
	} bad[] = {
		{ 2, "3x5", false }, { 2, "32x1", false }, { 2, "", false },
		{ 2, "4X4", false }, { 2, "4x4 ", true }, { 2, " 4x4", true },
		{ 2, "04x4", false }, { 2, "4x4x4", false },
		{ 2, "1x32", false }, { 2, "0x16", false }, { 1, "8x2", false },
		{ 1, "16x1", false }, { 0, "2x8", false }, { 0, "4x4", false },
		{ 0, "1x4", false },
	};
	struct layout l = { { "1x16", "1x16", "4x4" } };
	struct snap *before = calloc(1, sizeof(*before));
	struct snap *after = calloc(1, sizeof(*after));
	struct pnl_reply ntf;
	unsigned int i;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	take_snap(_metadata, &self->p, before);
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 0, &ntf);
	pnl_reply_free(&ntf);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err;

		if (bad[i].nl_only && variant->how == BY_SYSFS)
			continue;
		err = set_config(self, variant->how, bad[i].g, bad[i].cfg);

		EXPECT_EQ(EINVAL, err) TH_LOG("%s '%s': %s",
					      group_names[bad[i].g], bad[i].cfg,
					      strerror(err));
		if (variant->how == BY_SYSFS)
			continue;
		EXPECT_STREQ("bifurcation not allowed for this lane group",
			     self->r.msg) TH_LOG("%s '%s'",
						 group_names[bad[i].g],
						 bad[i].cfg);
		EXPECT_TRUE(self->r.has_offs);
		EXPECT_EQ(config_offs(variant->how, group_names[bad[i].g]),
			  self->r.offs) TH_LOG("'%s'", bad[i].cfg);
	}
	if (variant->how == BY_SYSFS) {
		/* a lone newline, or nothing but blanks */
		EXPECT_EQ(-EINVAL, group_write_config(ID, "nvme", "\n"));
		EXPECT_EQ(-EINVAL, group_write_config(ID, "nvme", "  \n"));
		/* a group that does not exist has no directory */
		EXPECT_EQ(-ENOENT, group_write_config(ID, "nosuch", "4x4\n"));
	} else {
		struct pnl_attr by_name[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID),
			A_STR(PCIESW_A_GROUP_NAME, "nosuch"),
			A_STR(PCIESW_A_GROUP_CONFIG, "4x4"), A_END,
		};
		const uint32_t bad_ids[] = { 3, 16, 0xffffffff };

		pnl_reply_free(&self->r);
		EXPECT_EQ(ENOENT, pnl_do(&self->p, PCIESW_CMD_GROUP_SET,
					 by_name, &self->r));
		EXPECT_STREQ("no such lane group on this switch", self->r.msg);
		EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
		for (i = 0; i < 3; i++) {
			pnl_reply_free(&self->r);
			EXPECT_EQ(ENOENT, tp_group_set_id(&self->p, ID,
							  bad_ids[i], "4x4",
							  &self->r));
			EXPECT_STREQ("no such lane group on this switch",
				     self->r.msg);
			EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
		}
		/* the name of a group of another profile */
		pnl_reply_free(&self->r);
		EXPECT_EQ(ENOENT, tp_group_set_name(&self->p, ID, "nvme0",
						    "4x4", &self->r));
		/* neither id nor name; no config */
		pnl_reply_free(&self->r);
		EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_GROUP_SET,
					 (struct pnl_attr[]){
						A_U32(PCIESW_A_SWITCH_ID, ID),
						A_STR(PCIESW_A_GROUP_CONFIG,
						      "4x4"), A_END },
					 &self->r));
		EXPECT_STREQ("need group-id or group-name", self->r.msg);
		pnl_reply_free(&self->r);
		EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_GROUP_SET,
					 (struct pnl_attr[]){
						A_U32(PCIESW_A_SWITCH_ID, ID),
						A_STR(PCIESW_A_GROUP_NAME,
						      "nvme"), A_END },
					 &self->r));
		EXPECT_EQ(PCIESW_A_GROUP_CONFIG, self->r.miss_type);
		/* a switch that does not exist */
		ASSERT_FALSE(sw_exists(ID + 1));
		pnl_reply_free(&self->r);
		EXPECT_EQ(ENODEV, tp_group_set_name(&self->p, ID + 1, "nvme",
						    "4x4", &self->r));
		EXPECT_STREQ("no such switch", self->r.msg);
	}

	/* nothing changed: same ports, same histories, no notification */
	check_layout(_metadata, &self->p, self->exp, &l);
	take_snap(_metadata, &self->p, after);
	ASSERT_EQ(before->nr, after->nr);
	for (i = 0; i < before->nr; i++)
		check_same_port(_metadata, &before->o[i], &before->h[i],
				&after->o[i], &after->h[i], "refused");
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 50, &ntf);
	for (i = 0; i < ntf.nobjs; i++)
		EXPECT_NE(ID, ntf.objs[i].u[PCIESW_A_SWITCH_ID])
			TH_LOG("notification %u after a refused change",
			       ntf.objs[i].cmd);
	pnl_reply_free(&ntf);
	free(before);
	free(after);
}

/*
 * A config longer than any bifurcation name is just another config the
 * group does not allow: EINVAL with the same message, pointing at it (the
 * spec puts no length limit on group-config).
 */
TEST_F(lanes, bad_config_too_long)
{
	static const char *const bad[] = {
		"16x1-and-then-some-more-text",
		"1x16xxxxxxxxxxxxxxx",	/* 19 characters */
		"4x4             ",	/* 16 */
	};
	char cfg[16];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = set_config(self, variant->how, 2, bad[i]);

		EXPECT_EQ(EINVAL, err) TH_LOG("'%s': %s", bad[i],
					      strerror(err));
		if (variant->how == BY_SYSFS)
			continue;
		EXPECT_STREQ("bifurcation not allowed for this lane group",
			     self->r.msg) TH_LOG("'%s'", bad[i]);
		EXPECT_TRUE(self->r.has_offs);
		EXPECT_EQ(config_offs(variant->how, "nvme"), self->r.offs);
	}
	ASSERT_EQ(0, tp_group_config(&self->p, ID, 2, cfg));
	EXPECT_STREQ("4x4", cfg);
}

/*
 * Stable port numbers (kmod/model/profile.c): re-bifurcating a GPU group touches
 * only its own ports.  The documented numbers are spelled out here, not
 * computed: gpu 4x4 and nvme 8x2, in lane order.
 */
FIXTURE(stable)
{
	struct pnl p;
	const struct exp_profile *exp;
};

FIXTURE_VARIANT(stable)
{
	const char *profile;
	const char *gpu;		/* the group re-bifurcated */
	unsigned int gpu_lane;
	const char *nvme;
	unsigned int nvme_lane;
	unsigned int gpu_4x4[4];	/* port numbers, lane order */
	unsigned int nvme_8x2[8];
	unsigned int nvme_4x4[4];
};

FIXTURE_VARIANT_ADD(stable, pex89048) {
	.profile = "pex89048", .gpu = "gpu", .gpu_lane = 16,
	.nvme = "nvme", .nvme_lane = 32,
	.gpu_4x4 = { 1, 6, 7, 8 },
	.nvme_8x2 = { 2, 10, 3, 13, 4, 16, 5, 19 },
	.nvme_4x4 = { 2, 3, 4, 5 },
};

FIXTURE_VARIANT_ADD(stable, pex89144) {
	.profile = "pex89144", .gpu = "gpu0", .gpu_lane = 16,
	.nvme = "nvme0", .nvme_lane = 80,
	.gpu_4x4 = { 1, 21, 22, 23 },
	.nvme_8x2 = { 5, 34, 6, 37, 7, 40, 8, 43 },
	.nvme_4x4 = { 5, 6, 7, 8 },
};

#define SID		(ID + 1)
#define STABLE_MAX	96U

FIXTURE_SETUP(stable)
{
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	self->exp = exp_profile(variant->profile);
	ASSERT_NE(NULL, self->exp);
	ASSERT_EQ(0, pnl_open(&self->p));
	err = tp_switch_fresh(&self->p, SID, variant->profile);
	ASSERT_EQ(0, err) TH_LOG("pciesw%u: %s", SID, strerror(-err));
	ASSERT_TRUE(tp_wait_trained(&self->p, SID));
}

FIXTURE_TEARDOWN(stable)
{
	pnl_close(&self->p);
	if (sw_exists(SID))
		sw_del(SID);
}

/* What must not change on a port another group's change leaves alone. */
struct kept {
	unsigned int nr;
	struct pnl_obj o[STABLE_MAX];
	struct tp_hist h[STABLE_MAX];
	int fd[STABLE_MAX];		/* open on its sysfs "lanes" */
	ino_t dev_ino[STABLE_MAX];	/* its sysfs device directory */
	ino_t pci_ino[STABLE_MAX];	/* its PCI device, 0 if none */
	ino_t ep_pci_ino[STABLE_MAX];	/* its endpoint's PCI device */
	char lanes[STABLE_MAX][32];
};

static ino_t path_ino(const char *fmt, const char *arg, unsigned int n)
{
	char path[160];
	struct stat st;

	snprintf(path, sizeof(path), fmt, arg, n);
	return stat(path, &st) ? 0 : st.st_ino;
}

static ino_t pci_ino(const char *name)
{
	return name[0] ? path_ino("/sys/bus/pci/devices/%s", name, 0) : 0;
}

/* Snapshot every port outside group @skip, with an error injected on it. */
static void kept_take(struct __test_metadata *_metadata, struct pnl *p,
		      unsigned int skip, struct kept *k, bool inject)
{
	struct tp_reply t;
	unsigned int i;
	char path[128];

	if (inject) {
		struct pnl_reply r;

		ASSERT_EQ(0, tp_ports(p, SID, &t));
		for (i = 0; i < t.r.nobjs; i++) {
			struct pnl_attr req[] = {
				A_U32(PCIESW_A_SWITCH_ID, SID),
				A_U32(PCIESW_A_PORT_ID,
				      t.r.objs[i].u[PCIESW_A_PORT_ID]),
				A_U32(PCIESW_A_COUNTER_ID,
				      PCIESW_COUNTER_BAD_TLP),
				A_U32(PCIESW_A_INJECT_COUNT,
				      3 + t.r.objs[i].u[PCIESW_A_PORT_ID]),
				A_END };

			if (t.r.objs[i].u[PCIESW_A_GROUP_ID] == skip)
				continue;
			ASSERT_EQ(0, tp_do(p, PCIESW_CMD_INJECT, req, &r));
			pnl_reply_free(&r);
		}
		tp_reply_free(&t);
	}
	ASSERT_EQ(0, tp_ports(p, SID, &t));
	k->nr = 0;
	for (i = 0; i < t.r.nobjs && k->nr < STABLE_MAX; i++) {
		const struct pnl_obj *o = &t.r.objs[i];
		unsigned int id = o->u[PCIESW_A_PORT_ID], n = k->nr;
		char pname[64] = "";

		if (o->u[PCIESW_A_GROUP_ID] == skip)
			continue;
		k->o[n] = *o;
		k->h[n] = t.h[i];
		snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%u/lanes",
			 SID, id);
		k->fd[n] = open(path, O_RDONLY);
		EXPECT_LE(0, k->fd[n]) TH_LOG("%s", path);
		EXPECT_EQ(0, port_attr(SID, id, "lanes", k->lanes[n],
				       sizeof(k->lanes[n])));
		snprintf(pname, sizeof(pname), "pciesw%u-port", SID);
		k->dev_ino[n] = path_ino(PCIESW_DEVS "/%s%u", pname, id);
		EXPECT_NE((ino_t)0, k->dev_ino[n]) TH_LOG("port %u", id);
		k->pci_ino[n] = pci_ino(o->s[PCIESW_A_PORT_PCI_NAME]);
		k->ep_pci_ino[n] = pnl_has(o, PCIESW_A_EP_PCI_NAME) ?
				   pci_ino(o->s[PCIESW_A_EP_PCI_NAME]) : 0;
		k->nr++;
	}
	tp_reply_free(&t);
}

/* Every port of @k is as it was: same number, device, state, address. */
static void kept_check(struct __test_metadata *_metadata, struct pnl *p,
		       const struct kept *k, const char *why)
{
	struct tp_reply t;
	unsigned int i, j;
	char buf[64];

	ASSERT_EQ(0, tp_ports(p, SID, &t));
	for (i = 0; i < k->nr; i++) {
		unsigned int id = k->o[i].u[PCIESW_A_PORT_ID];
		const struct pnl_obj *o = NULL;
		const struct tp_hist *h = NULL;
		char pname[64];
		ssize_t n;

		for (j = 0; j < t.r.nobjs; j++)
			if (t.r.objs[j].u[PCIESW_A_PORT_ID] == id) {
				o = &t.r.objs[j];
				h = &t.h[j];
			}
		EXPECT_NE(NULL, o) TH_LOG("%s: port %u is gone", why, id);
		if (!o)
			continue;
		/* state, endpoint (same ep id and name) and LTSSM history */
		check_same_port(_metadata, &k->o[i], &k->h[i], o, h, why);
		/* the counter injected before */
		EXPECT_EQ(0, port_attr(SID, id, "errors/bad_tlp", buf,
				       sizeof(buf)));
		EXPECT_EQ(3 + id, strtoul(buf, NULL, 10))
			TH_LOG("%s: port %u bad_tlp %s", why, id, buf);
		/* the same kobject: the open attribute still reads */
		n = pread(k->fd[i], buf, sizeof(buf) - 1, 0);
		EXPECT_LT(0, n) TH_LOG("%s: port %u: read of the open lanes: %s",
				       why, id, strerror(errno));
		if (n > 0) {
			buf[n] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			EXPECT_STREQ(k->lanes[i], buf) TH_LOG("%s: port %u", why,
							      id);
		}
		snprintf(pname, sizeof(pname), "pciesw%u-port", SID);
		EXPECT_EQ(k->dev_ino[i],
			  path_ino(PCIESW_DEVS "/%s%u", pname, id))
			TH_LOG("%s: port %u: its device was re-created", why, id);
		/* the PCI address, and the same pci_dev behind it */
		EXPECT_STREQ(k->o[i].s[PCIESW_A_PORT_PCI_NAME],
			     o->s[PCIESW_A_PORT_PCI_NAME]) TH_LOG("port %u", id);
		EXPECT_EQ(k->pci_ino[i], pci_ino(o->s[PCIESW_A_PORT_PCI_NAME]))
			TH_LOG("%s: port %u: PCI device %s re-created", why, id,
			       o->s[PCIESW_A_PORT_PCI_NAME]);
		if (k->ep_pci_ino[i])
			EXPECT_EQ(k->ep_pci_ino[i],
				  pci_ino(o->s[PCIESW_A_EP_PCI_NAME]))
				TH_LOG("%s: port %u: endpoint %s re-created",
				       why, id, o->s[PCIESW_A_EP_PCI_NAME]);
	}
	tp_reply_free(&t);
}

static void kept_close(struct kept *k)
{
	unsigned int i;

	for (i = 0; i < k->nr; i++)
		if (k->fd[i] >= 0)
			close(k->fd[i]);
}

/* Link Capabilities' Port Number of the PCI function @name, -1 if none. */
static int pci_lnkcap_port(const char *name)
{
	unsigned char cfg[256];
	unsigned int pos, guard;
	char path[128];
	int fd, ret = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (pread(fd, cfg, sizeof(cfg), 0) == sizeof(cfg)) {
		pos = cfg[0x34] & ~3U;
		for (guard = 0; pos >= 0x40 && pos < 0xfc && guard < 48;
		     guard++) {
			if (cfg[pos] == 0x10) {		/* PCI Express */
				ret = cfg[pos + 0x0c + 3];
				break;
			}
			pos = cfg[pos + 1] & ~3U;
		}
	}
	close(fd);
	return ret;
}

/*
 * Downstream port @id's address on bus 02: device @id (the port number), or
 * in port order over 8 functions per device when there are more port
 * numbers than devices 1-0x1e.
 */
static void down_pci_name(const struct exp_profile *exp, unsigned int id,
			  const char *domain, char *buf, size_t len)
{
	unsigned int slots, k = id - 1;

	exp_port_at(exp, 0, &slots);
	if (slots - 1 > 0x1e)
		snprintf(buf, len, "%s:02:%02x.%u", domain, k >> 3, k & 7);
	else
		snprintf(buf, len, "%s:02:%02x.0", domain, id);
}

/* The gpu group's ports now: the documented numbers, devices, addresses. */
static void check_gpu_ports(struct __test_metadata *_metadata,
			    FIXTURE_DATA(stable) *self,
			    const FIXTURE_VARIANT(stable) *variant,
			    const unsigned int *want, unsigned int n,
			    unsigned int w)
{
	char domain[32], name[64], buf[64], view[8];
	unsigned int k;
	struct pnl_obj o;

	ASSERT_EQ(0, sw_attr(SID, "pci_domain", domain, sizeof(domain)));
	ASSERT_EQ(0, sw_attr(SID, "pci_view", view, sizeof(view)));
	for (k = 0; k < n; k++) {
		unsigned int lane = variant->gpu_lane + k * w;

		EXPECT_EQ((int)want[k], tp_port_at_lane(&self->p, SID, lane))
			TH_LOG("%s lane %u", variant->gpu, lane);
		EXPECT_EQ((int)want[k], exp_port_at(self->exp, lane, NULL))
			TH_LOG("the test's own map, lane %u", lane);
		ASSERT_EQ(0, tp_port_get(&self->p, SID, want[k], &o, NULL));
		EXPECT_EQ(lane, o.u[PCIESW_A_PORT_FIRST_LANE]);
		EXPECT_TRUE(port_dev_exists(SID, want[k]));
		/* netlink names the PCI function only while the view is on */
		if (view[0] == '1')
			down_pci_name(self->exp, want[k], domain, name,
				      sizeof(name));
		else
			name[0] = '\0';
		EXPECT_STREQ(name, o.s[PCIESW_A_PORT_PCI_NAME])
			TH_LOG("port %u", want[k]);
		if (pci_ino(name))	/* the PCI view is on */
			EXPECT_EQ((int)want[k], pci_lnkcap_port(name))
				TH_LOG("%s: Link Capabilities Port Number",
				       name);
	}
	EXPECT_EQ(0, group_attr(SID, variant->gpu, "config", buf,
				sizeof(buf)));
}

TEST_F_TIMEOUT(stable, gpu_rebifurcation, 120)
{
	static const unsigned int gpu_1x16[] = { 1 };
	struct kept *k = calloc(1, sizeof(*k));
	struct pnl_reply r;
	char buf[64], want[64];
	unsigned int i;

	ASSERT_NE(NULL, k);
	kept_take(_metadata, &self->p, 1, k, true);
	ASSERT_LT(4U, k->nr);
	if (!k->pci_ino[1])
		TH_LOG("no PCI view (pci_view=0?): PCI addresses by name only");

	ASSERT_EQ(0, tp_group_set_name(&self->p, SID, variant->gpu, "4x4", &r));
	pnl_reply_free(&r);
	ASSERT_TRUE(tp_wait_trained(&self->p, SID));
	check_gpu_ports(_metadata, self, variant, variant->gpu_4x4, 4, 4);
	/* the sysfs view of the group: 1 and three numbers after the rest */
	EXPECT_EQ(0, group_attr(SID, variant->gpu, "ports", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "1-1,%u-%u", variant->gpu_4x4[1],
		 variant->gpu_4x4[3]);
	EXPECT_STREQ(want, buf);
	kept_check(_metadata, &self->p, k, "gpu 4x4");

	ASSERT_EQ(0, tp_group_set_name(&self->p, SID, variant->gpu, "1x16",
				       &r));
	pnl_reply_free(&r);
	ASSERT_TRUE(tp_wait_trained(&self->p, SID));
	check_gpu_ports(_metadata, self, variant, gpu_1x16, 1, 16);
	for (i = 1; i < 4; i++) {
		unsigned int id = variant->gpu_4x4[i];

		EXPECT_FALSE(port_dev_exists(SID, id)) TH_LOG("port %u", id);
	}
	kept_check(_metadata, &self->p, k, "gpu 1x16 again");
	kept_close(k);
	free(k);
}

/* nvme 8x2: the documented lane -> number map; endpoints in lane order. */
TEST_F(stable, nvme_8x2)
{
	struct pnl_reply r;
	struct pnl_obj o;
	unsigned int i;
	char name[16];

	ASSERT_EQ(0, tp_group_set_name(&self->p, SID, variant->nvme, "8x2", &r));
	pnl_reply_free(&r);
	for (i = 0; i < 8; i++) {
		unsigned int lane = variant->nvme_lane + 2 * i;

		EXPECT_EQ((int)variant->nvme_8x2[i],
			  tp_port_at_lane(&self->p, SID, lane))
			TH_LOG("lane %u", lane);
		EXPECT_EQ((int)variant->nvme_8x2[i],
			  exp_port_at(self->exp, lane, NULL))
			TH_LOG("the test's own map, lane %u", lane);
		ASSERT_EQ(0, tp_port_get(&self->p, SID, variant->nvme_8x2[i],
					 &o, NULL));
		EXPECT_EQ(2U, o.u[PCIESW_A_PORT_NR_LANES]);
		EXPECT_TRUE(port_dev_exists(SID, variant->nvme_8x2[i]));
		/* the four drives re-attached to the first four by lane */
		if (i < 4) {
			snprintf(name, sizeof(name), "nvme%u", i);
			EXPECT_STREQ(name, o.s[PCIESW_A_EP_NAME])
				TH_LOG("port %u", variant->nvme_8x2[i]);
		} else {
			EXPECT_FALSE(pnl_has(&o, PCIESW_A_EP_NAME));
		}
	}
	ASSERT_EQ(0, tp_group_set_name(&self->p, SID, variant->nvme, "4x4", &r));
	pnl_reply_free(&r);
	for (i = 0; i < 4; i++)
		EXPECT_EQ((int)variant->nvme_4x4[i],
			  tp_port_at_lane(&self->p, SID,
					  variant->nvme_lane + 4 * i));
	/* the x2-only slots (lanes 34, 38, 42, 46 on pex89048) are gone */
	for (i = 1; i < 8; i += 2) {
		unsigned int id = variant->nvme_8x2[i];

		EXPECT_FALSE(port_dev_exists(SID, id)) TH_LOG("port %u", id);
	}
}

/* Another profile's groups take the same requests (tiny8: 1x4|2x2|4x1). */
FIXTURE(tiny)
{
	struct pnl p;
};

FIXTURE_SETUP(tiny)
{
	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID + 1, "tiny8"));
}

FIXTURE_TEARDOWN(tiny)
{
	pnl_close(&self->p);
	if (sw_exists(ID + 1))
		sw_del(ID + 1);
}

TEST_F(tiny, configs)
{
	static const char *const cfgs[] = { "4x1", "1x4", "2x2" };
	struct pnl_reply r;
	struct tp_reply t;
	unsigned int i, k;
	char buf[32];

	for (i = 0; i < 3; i++) {
		unsigned int n = cfg_ports(cfgs[i]), w = cfg_width(cfgs[i]);

		EXPECT_EQ(0, tp_group_set_name(&self->p, ID + 1, "nvme",
					       cfgs[i], &r));
		pnl_reply_free(&r);
		EXPECT_EQ(0, group_attr(ID + 1, "nvme", "config", buf,
					sizeof(buf)));
		EXPECT_STREQ(cfgs[i], buf);
		ASSERT_EQ(0, tp_ports(&self->p, ID + 1, &t));
		ASSERT_EQ(1 + n, t.r.nobjs);
		/* by port number: lanes 4, 6 are ports 1, 2; 5, 7 are 3, 4 */
		for (k = 0; k < n; k++) {
			static const unsigned int id_of[4] = { 1, 3, 2, 4 };
			unsigned int lane = 4 + k * w, j;
			const struct pnl_obj *o = NULL;

			for (j = 0; j < t.r.nobjs; j++)
				if (t.r.objs[j].u[PCIESW_A_PORT_FIRST_LANE] ==
				    lane)
					o = &t.r.objs[j];
			ASSERT_NE(NULL, o) TH_LOG("%s: lane %u", cfgs[i], lane);
			EXPECT_EQ(id_of[lane - 4], o->u[PCIESW_A_PORT_ID])
				TH_LOG("%s: lane %u", cfgs[i], lane);
			EXPECT_EQ(w, o->u[PCIESW_A_PORT_NR_LANES]);
		}
		tp_reply_free(&t);
	}
	/* a pex89048 config the tiny8 group does not have */
	EXPECT_EQ(EINVAL, tp_group_set_name(&self->p, ID + 1, "nvme", "4x4",
					    &r));
	pnl_reply_free(&r);
	EXPECT_EQ(EINVAL, tp_group_set_name(&self->p, ID + 1, "host", "1x16",
					    &r));
	pnl_reply_free(&r);
	/* the host group goes x2: the upstream link trains x2 */
	EXPECT_EQ(0, tp_group_set_name(&self->p, ID + 1, "host", "1x2", &r));
	pnl_reply_free(&r);
	ASSERT_TRUE(tp_wait_trained(&self->p, ID + 1));
	EXPECT_EQ(0, port_attr(ID + 1, 0, "current_link_width", buf,
			       sizeof(buf)));
	EXPECT_STREQ("2", buf);
	EXPECT_EQ(0, port_attr(ID + 1, 0, "current_link_speed", buf,
			       sizeof(buf)));
	EXPECT_STREQ("16.0 GT/s PCIe", buf);
}

TEST_HARNESS_MAIN
