// SPDX-License-Identifier: GPL-2.0
/*
 * Links of the live topology: speed and width negotiation (speed = min of
 * the port's maximum, the partner's and the target; width = min of the
 * port's lanes, the partner's width and the healthy lanes), lane failures
 * (the widest power of 2 of healthy lanes from lane 0 or, reversed, from
 * the last lane; degraded), retrain, hot reset, disable/enable, surprise
 * down, the LTSSM history (order, CLOCK_MONOTONIC timestamps, 64 entries,
 * sysfs = netlink) and the port attributes of sysfs against netlink.
 *
 * Links train in modeled time (2 ms per LTSSM step): every wait is bounded
 * polling, never a sleep that assumes a speed; only the cases that prove
 * a port stays where it is watch it for a while (stay_watch()).
 *
 * Switch ids used here: 160-162.
 */
#include "pciesw_topo.h"

#define ID		160U	/* pex89048 */
#define ID_TINY		161U	/* tiny8: Gen4 */
#define ID_HIST		162U

#define GPU_PORT	1U	/* x16, gpu0 (Gen5 x16) */

/*
 * The cases that prove a port does NOT move (stays in Detect or Disabled,
 * records no transition) watch it for 100 ms, 500 ms on the debug kernel.
 * That is enough: a link steps every 2 ms of modeled time and a training
 * from Detect takes 3 steps, which take 20-30 ms under TCG (the LTSSM
 * history's timestamps) and about 5x that on the debug kernel, so a port
 * that was going to retrain would have moved within a third of the watch.
 */
static void stay_watch(void)
{
	tp_msleep(tp_ms(100));
}
#define NVME_PORT	2U	/* x4, nvme0 (Gen5 x4) in the default 4x4 */

FIXTURE(link)
{
	struct pnl p;
	struct pnl_reply r;
};

FIXTURE_SETUP(link)
{
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	pnl_reply_init(&self->r);
	err = tp_switch_fresh(&self->p, ID, NULL);
	ASSERT_EQ(0, err) TH_LOG("pciesw%u: %s", ID, strerror(-err));
}

FIXTURE_TEARDOWN(link)
{
	pnl_reply_free(&self->r);
	pnl_close(&self->p);
	if (sw_exists(ID))
		sw_del(ID);
	if (sw_exists(ID_TINY))
		sw_del(ID_TINY);
	if (sw_exists(ID_HIST))
		sw_del(ID_HIST);
}

static uint32_t min3u(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t m = a < b ? a : b;

	return m < c ? m : c;
}

struct want_attr {
	const char *attr;
	char want[64];
};

/* The sysfs attributes of port @port of switch @id against netlink @o. */
static void check_sysfs_port(struct __test_metadata *_metadata,
			     unsigned int id, const struct pnl_obj *o)
{
	unsigned int port = o->u[PCIESW_A_PORT_ID], n = 0, i;
	bool active = o->u[PCIESW_A_PORT_LINK_ACTIVE];
	struct want_attr attrs[16];
	char buf[PCIESW_NAME_LEN + 64];

#define WANT(_a, ...) do {						\
		attrs[n].attr = (_a);					\
		snprintf(attrs[n].want, sizeof(attrs[n].want), __VA_ARGS__); \
		n++;							\
	} while (0)
	WANT("port_id", "%u", port);
	WANT("link_state", "%s", active ? "up" : "down");
	WANT("ltssm_state", "%s", tp_ltssm(o->u[PCIESW_A_PORT_LTSSM]));
	WANT("current_link_speed", "%s",
	     tp_speed_sysfs(o->u[PCIESW_A_PORT_SPEED]));
	WANT("current_link_width", "%u", o->u[PCIESW_A_PORT_WIDTH]);
	WANT("max_link_speed", "%s",
	     tp_speed_sysfs(o->u[PCIESW_A_PORT_MAX_SPEED]));
	WANT("max_link_width", "%u", o->u[PCIESW_A_PORT_MAX_WIDTH]);
	WANT("target_link_speed", "%s",
	     tp_speed_sysfs(o->u[PCIESW_A_PORT_TARGET_SPEED]));
	WANT("degraded", "%u", o->u[PCIESW_A_PORT_DEGRADED]);
	WANT("enabled", "%u", o->u[PCIESW_A_PORT_ENABLED]);
	WANT("failed_lanes", "0x%x", o->u[PCIESW_A_PORT_FAILED_LANES]);
	WANT("acs_redirect", "%u", o->u[PCIESW_A_PORT_ACS_REDIRECT]);
	WANT("surprise_down_count", "%llu",
	     (unsigned long long)o->u64[PCIESW_A_PORT_SURPRISE_DOWN]);
	WANT("endpoint", "%.31s", o->s[PCIESW_A_EP_NAME]);
	WANT("lanes", "%u-%u", o->u[PCIESW_A_PORT_FIRST_LANE],
	     o->u[PCIESW_A_PORT_FIRST_LANE] + o->u[PCIESW_A_PORT_NR_LANES] - 1);
#undef WANT
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, port_attr(id, port, attrs[i].attr, buf,
				       sizeof(buf)))
			TH_LOG("pciesw%u-port%u/%s", id, port, attrs[i].attr);
		EXPECT_STREQ(attrs[i].want, buf)
			TH_LOG("pciesw%u-port%u/%s", id, port, attrs[i].attr);
	}
	/* what the link state implies */
	EXPECT_EQ(active, o->u[PCIESW_A_PORT_SPEED] != 0);
	EXPECT_EQ(active, o->u[PCIESW_A_PORT_WIDTH] != 0);
}

/* Wait for port @port to be trained (L0), return it in @o. */
#define WAIT_L0(id, port, o) do {					\
	ASSERT_TRUE(tp_wait_ltssm(&self->p, (id), (port),		\
				  PCIESW_LTSSM_L0, (o)))		\
		TH_LOG("pciesw%u port %u not in L0", (id), (port));	\
} while (0)

/* ------------------------------------------------------------------ */
/* Negotiation                                                         */

static const uint32_t widths[] = { 1, 2, 4, 8, 16 };

/*
 * Ports of every width (the nvme group in each of its configs), an
 * endpoint of a different max speed/width on each, target speeds set
 * before it is plugged (first training) and after (retrain): the link
 * trains at min(port max, endpoint max, target) x min(lanes, ep width).
 */
TEST_F_TIMEOUT(link, negotiation, 120)
{
	static const char *const cfgs[] = { "1x16", "2x8", "4x4", "8x2",
					    "16x1" };
	unsigned int c, k, i, combos = 0, ports[16];
	struct tp_reply t;

	for (c = 0; c < 5; c++) {
		unsigned int n = 0, w = 0;

		ASSERT_TRUE(parse_bif(cfgs[c], &n, &w));
		ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", cfgs[c],
					       &self->r));
		pnl_reply_free(&self->r);
		/* the group's ports in lane order: numbers are physical */
		for (k = 0; k < n; k++) {
			int port = tp_port_at_lane(&self->p, ID, 32 + k * w);

			ASSERT_LE(0, port) TH_LOG("%s: lane %u", cfgs[c],
						  32 + k * w);
			ports[k] = port;
		}
		for (k = 0; k < n; k++) {
			unsigned int port = ports[k];
			uint32_t ew = widths[(k + c) % 5];
			uint32_t es = 1 + (2 * k + c) % 5;
			uint32_t tg = 1 + (3 * k + c + 1) % 5;
			int err;

			ASSERT_EQ(0, tp_port_unplug(&self->p, ID, port));
			ASSERT_EQ(0, tp_port_set1(&self->p, ID, port,
				(struct pnl_attr)A_U32(
					PCIESW_A_PORT_TARGET_SPEED, tg)));
			err = tp_ep_add(&self->p, ID, port,
					PCIESW_EP_TYPE_GENERIC, es, ew, NULL,
					NULL);
			ASSERT_EQ(0, err) TH_LOG("ep-add: %s", strerror(err));
		}
		ASSERT_TRUE(tp_wait_trained(&self->p, ID));
		/* first training, then a retrain at another target */
		for (int pass = 0; pass < 2; pass++) {
			ASSERT_EQ(0, tp_ports(&self->p, ID, &t));
			ASSERT_EQ(NVME_PORT + n, t.r.nobjs);
			for (k = 0; k < n; k++) {
				const struct pnl_obj *o = NULL;
				uint32_t ew = widths[(k + c) % 5];
				uint32_t es = 1 + (2 * k + c) % 5;
				uint32_t tg = pass ? 1 + (k + 2 * c) % 5 :
						     1 + (3 * k + c + 1) % 5;

				for (i = 0; i < t.r.nobjs; i++)
					if (t.r.objs[i].u[PCIESW_A_PORT_ID] ==
					    ports[k])
						o = &t.r.objs[i];
				ASSERT_NE(NULL, o) TH_LOG("port %u", ports[k]);

				EXPECT_EQ((uint32_t)PCIESW_LTSSM_L0,
					  o->u[PCIESW_A_PORT_LTSSM]);
				EXPECT_EQ(tg, o->u[PCIESW_A_PORT_TARGET_SPEED]);
				EXPECT_EQ(min3u(PCIESW_LINK_SPEED_GEN5, es, tg),
					  o->u[PCIESW_A_PORT_SPEED])
					TH_LOG("%s port %u: ep gen%u x%u, target gen%u",
					       cfgs[c], k, es, ew, tg);
				EXPECT_EQ(ew < w ? ew : w,
					  o->u[PCIESW_A_PORT_WIDTH])
					TH_LOG("%s port %u: ep gen%u x%u, x%u port",
					       cfgs[c], k, es, ew, w);
				EXPECT_EQ(0U, o->u[PCIESW_A_PORT_DEGRADED]);
				check_sysfs_port(_metadata, ID, o);
				combos++;
			}
			tp_reply_free(&t);
			if (pass)
				break;
			for (k = 0; k < n; k++)
				ASSERT_EQ(0, tp_port_set1(&self->p, ID,
					ports[k],
					(struct pnl_attr)A_U32(
						PCIESW_A_PORT_TARGET_SPEED,
						1 + (k + 2 * c) % 5)));
			ASSERT_TRUE(tp_wait_trained(&self->p, ID));
		}
	}
	EXPECT_EQ(62U, combos);

	/* the upstream port against the host: target speed only */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 0,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_TARGET_SPEED,
					PCIESW_LINK_SPEED_GEN3)));
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	ASSERT_EQ(0, tp_ports(&self->p, ID, &t));
	EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN3,
		  t.r.objs[0].u[PCIESW_A_PORT_SPEED]);
	EXPECT_EQ(16U, t.r.objs[0].u[PCIESW_A_PORT_WIDTH]);
	check_sysfs_port(_metadata, ID, &t.r.objs[0]);
	tp_reply_free(&t);
}

/* tiny8 is a Gen4 part: nothing trains faster, targets above are refused. */
TEST_F(link, gen4_profile)
{
	struct pnl_obj o;
	struct tp_reply t;
	unsigned int i;

	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID_TINY, "tiny8"));
	ASSERT_EQ(0, tp_ports(&self->p, ID_TINY, &t));
	ASSERT_EQ(3U, t.r.nobjs);
	for (i = 0; i < 3; i++) {
		const struct pnl_obj *p = &t.r.objs[i];

		EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN4,
			  p->u[PCIESW_A_PORT_MAX_SPEED]);
		EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN4,
			  p->u[PCIESW_A_PORT_TARGET_SPEED]);
		/* host Gen4 x4; nvme Gen5 x4 on x2 ports */
		EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN4,
			  p->u[PCIESW_A_PORT_SPEED]) TH_LOG("port %u", i);
		EXPECT_EQ(i ? 2U : 4U, p->u[PCIESW_A_PORT_WIDTH]);
		check_sysfs_port(_metadata, ID_TINY, p);
	}
	tp_reply_free(&t);

	/* a Gen5 target is beyond the port */
	EXPECT_EQ(EINVAL, tp_port_set(&self->p, ID_TINY, 1,
				      (struct pnl_attr[]){
					A_U32(PCIESW_A_PORT_TARGET_SPEED,
					      PCIESW_LINK_SPEED_GEN5), A_END },
				      &self->r));
	EXPECT_STREQ("target speed above what the port supports", self->r.msg);
	EXPECT_EQ(PNL_ATTR_OFFS(2), self->r.offs);
	pnl_reply_free(&self->r);

	/* a Gen5 x8 generic endpoint on the x2 port: Gen4 x2 */
	ASSERT_EQ(0, tp_port_unplug(&self->p, ID_TINY, 2));
	ASSERT_EQ(0, tp_ep_add(&self->p, ID_TINY, 2, PCIESW_EP_TYPE_GENERIC,
			       PCIESW_LINK_SPEED_GEN5, 8, NULL, NULL));
	WAIT_L0(ID_TINY, 2, &o);
	EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN4, o.u[PCIESW_A_PORT_SPEED]);
	EXPECT_EQ(2U, o.u[PCIESW_A_PORT_WIDTH]);
	/* a Gen2 target: Gen2 */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID_TINY, 2,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_TARGET_SPEED,
					PCIESW_LINK_SPEED_GEN2)));
	ASSERT_TRUE(tp_wait_trained(&self->p, ID_TINY));
	ASSERT_EQ(0, tp_port_get(&self->p, ID_TINY, 2, &o, NULL));
	EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN2, o.u[PCIESW_A_PORT_SPEED]);
	check_sysfs_port(_metadata, ID_TINY, &o);
	/* a Gen3 endpoint under a Gen4 target: Gen3 */
	ASSERT_EQ(0, tp_port_unplug(&self->p, ID_TINY, 1));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID_TINY, 1,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_TARGET_SPEED,
					PCIESW_LINK_SPEED_GEN4)));
	ASSERT_EQ(0, tp_ep_add(&self->p, ID_TINY, 1, PCIESW_EP_TYPE_NVME,
			       PCIESW_LINK_SPEED_GEN3, 1, NULL, NULL));
	WAIT_L0(ID_TINY, 1, &o);
	EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN3, o.u[PCIESW_A_PORT_SPEED]);
	EXPECT_EQ(1U, o.u[PCIESW_A_PORT_WIDTH]);
	check_sysfs_port(_metadata, ID_TINY, &o);
}

/* Target speeds the policy or the port refuse; nothing changes. */
TEST_F(link, target_speed_refused)
{
	const struct {
		uint32_t speed;
		int err;
	} bad[] = { { 0, ERANGE }, { 6, ERANGE }, { 0xffffffff, ERANGE } };
	struct pnl_obj before, after;
	unsigned int i;

	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &before, NULL));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(bad[i].err,
			  tp_port_set(&self->p, ID, GPU_PORT,
				      (struct pnl_attr[]){
					A_U32(PCIESW_A_PORT_TARGET_SPEED,
					      bad[i].speed), A_END },
				      &self->r)) TH_LOG("speed %u",
							bad[i].speed);
		EXPECT_EQ(PNL_ATTR_OFFS(2), self->r.offs);
		pnl_reply_free(&self->r);
	}
	/* checked before anything changes: a good ACS with a bad lane */
	EXPECT_EQ(EINVAL, tp_port_set(&self->p, ID, GPU_PORT,
				      (struct pnl_attr[]){
					A_U8(PCIESW_A_PORT_ACS_REDIRECT, 1),
					A_U32(PCIESW_A_PORT_FAILED_LANES,
					      0x10000), A_END }, &self->r));
	EXPECT_STREQ("lane beyond the width of the port", self->r.msg);
	pnl_reply_free(&self->r);
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &after, NULL));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
}

/* ------------------------------------------------------------------ */
/* Lane failures                                                       */

struct lane_case {
	uint32_t mask;
	uint32_t width;		/* 0: the link cannot train */
};

/* Wait for the outcome of failed-lanes @mask on a port with a partner. */
static void set_failed(struct __test_metadata *_metadata, struct pnl *p,
		       unsigned int id, unsigned int port, uint32_t mask,
		       uint32_t want_width, struct pnl_obj *o)
{
	struct tp_hist h0, h;
	bool done = false;
	struct tp_poll w;

	ASSERT_EQ(0, tp_port_get(p, id, port, NULL, &h0));
	ASSERT_EQ(0, tp_port_set1(p, id, port,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, mask)));
	tp_poll_start(&w, TP_WAIT_MS);
	do {
		ASSERT_EQ(0, tp_port_get(p, id, port, o, &h));
		if (want_width)
			done = o->u[PCIESW_A_PORT_LTSSM] == PCIESW_LTSSM_L0 &&
			       o->u[PCIESW_A_PORT_WIDTH] == want_width;
		else	/* tried, failed and fell back to Detect */
			done = o->u[PCIESW_A_PORT_LTSSM] ==
			       PCIESW_LTSSM_DETECT &&
			       (h.n != h0.n ||
				memcmp(&h.t[h.n - 1], &h0.t[h0.n - 1],
				       sizeof(h.t[0]))) &&
			       h.n > 1 &&
			       (h.t[h.n - 1].from ==
				PCIESW_LTSSM_CONFIGURATION ||
				h.t[h.n - 1].from == PCIESW_LTSSM_RECOVERY);
	} while (!done && tp_poll_next(&w));
	EXPECT_TRUE(done) TH_LOG("mask 0x%x: want x%u, have %s x%u", mask,
				 want_width,
				 tp_ltssm(o->u[PCIESW_A_PORT_LTSSM]),
				 o->u[PCIESW_A_PORT_WIDTH]);
}

static void run_lane_cases(struct __test_metadata *_metadata, struct pnl *p,
			   unsigned int id, unsigned int port,
			   unsigned int lanes, unsigned int partner,
			   const struct lane_case *cases, unsigned int n)
{
	unsigned int i;
	struct pnl_obj o;

	for (i = 0; i < n; i++) {
		const struct lane_case *c = &cases[i];

		/* the rule of DESIGN.md/link.c agrees with the table */
		EXPECT_EQ(c->width, tp_best_width(lanes, partner, c->mask))
			TH_LOG("table: 0x%x", c->mask);
		set_failed(_metadata, p, id, port, c->mask, c->width, &o);
		EXPECT_EQ(c->mask, o.u[PCIESW_A_PORT_FAILED_LANES]);
		EXPECT_EQ(c->width, o.u[PCIESW_A_PORT_WIDTH])
			TH_LOG("port %u mask 0x%x", port, c->mask);
		EXPECT_EQ((uint32_t)(c->width != 0),
			  o.u[PCIESW_A_PORT_LINK_ACTIVE]);
		EXPECT_EQ((uint32_t)(c->width &&
				     c->width < (lanes < partner ? lanes :
						 partner)),
			  o.u[PCIESW_A_PORT_DEGRADED])
			TH_LOG("port %u mask 0x%x: degraded", port, c->mask);
		EXPECT_EQ(c->width ? (uint32_t)PCIESW_LINK_SPEED_GEN5 : 0U,
			  o.u[PCIESW_A_PORT_SPEED]);
		check_sysfs_port(_metadata, id, &o);
		if (!c->width) {
			/* it does not keep trying: it stays in Detect */
			struct tp_hist h0, h;
			struct pnl_obj o2;

			ASSERT_EQ(0, tp_port_get(p, id, port, NULL, &h0));
			stay_watch();
			ASSERT_EQ(0, tp_port_get(p, id, port, &o2, &h));
			EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT,
				  o2.u[PCIESW_A_PORT_LTSSM]);
			EXPECT_EQ(h0.n, h.n) TH_LOG("mask 0x%x: retrying",
						    c->mask);
		}
	}
}

/* A dead lane retrains an x16 link narrower: degraded. */
TEST_F(link, lane_failure_x16)
{
	static const struct lane_case cases[] = {
		{ 0x8000, 8 },	/* lane 15 dead: x8 on lanes 0-7 */
		{ 0x0000, 16 },	/* repaired: full width again */
		{ 0x0001, 8 },	/* lane 0 dead: x8, lanes reversed */
		{ 0x8001, 0 },	/* both ends dead: cannot train */
		{ 0x0000, 16 },
		{ 0x0100, 8 },	/* lane 8: lanes 0-7 */
		{ 0x0080, 8 },	/* lane 7: lanes 15-8 */
		{ 0x0180, 4 },	/* lanes 7, 8: lanes 0-3 */
		{ 0x0810, 4 },	/* lanes 4, 11: lanes 0-3 */
		{ 0x0F0F, 4 },	/* lanes 0-3, 8-11: lanes 15-12 */
		{ 0x4002, 1 },	/* lanes 1, 14: lane 0 */
		{ 0xFFFE, 1 },	/* only lane 0 */
		{ 0x7FFF, 1 },	/* only lane 15, reversed */
		{ 0x00FF, 8 },
		{ 0xFF00, 8 },
		{ 0xFFFF, 0 },	/* all dead */
		{ 0x0000, 16 },
	};

	run_lane_cases(_metadata, &self->p, ID, GPU_PORT, 16, 16, cases,
		       sizeof(cases) / sizeof(cases[0]));
}

/* The upstream port fails lanes against the host the same way. */
TEST_F(link, lane_failure_upstream)
{
	static const struct lane_case cases[] = {
		{ 0x8000, 8 }, { 0x0003, 8 }, { 0x0000, 16 },
	};

	run_lane_cases(_metadata, &self->p, ID, 0, 16, 16, cases, 3);
}

/* An x4 endpoint on an x16 port only needs 4 healthy lanes: not degraded. */
TEST_F(link, lane_failure_narrow_partner)
{
	static const struct lane_case cases[] = {
		{ 0x8000, 4 },	/* lanes 0-3 fine */
		{ 0x0001, 4 },	/* lanes 15-12 */
		{ 0x000F, 4 },
		{ 0x0002, 4 },
		{ 0x8001, 0 },
		{ 0x0010, 4 },
		{ 0xF00F, 0 },
		{ 0xFEF7, 0 },	/* lanes 3 and 8 left: x1 needs 0 or 15 */
		{ 0x7FFF, 1 },
		{ 0x0000, 4 },
	};

	ASSERT_EQ(0, tp_port_unplug(&self->p, ID, GPU_PORT));
	ASSERT_EQ(0, tp_ep_add(&self->p, ID, GPU_PORT, PCIESW_EP_TYPE_GENERIC,
			       0, 4, NULL, NULL));
	WAIT_L0(ID, GPU_PORT, NULL);
	run_lane_cases(_metadata, &self->p, ID, GPU_PORT, 16, 4, cases,
		       sizeof(cases) / sizeof(cases[0]));
}

/* x4 and x1 ports. */
TEST_F(link, lane_failure_x4_x1)
{
	static const struct lane_case x4[] = {
		{ 0x8, 2 }, { 0x1, 2 }, { 0x9, 0 }, { 0x6, 1 }, { 0x4, 2 },
		{ 0xE, 1 }, { 0x7, 1 }, { 0xF, 0 }, { 0x0, 4 },
	};
	static const struct lane_case x1[] = {
		{ 0x1, 0 }, { 0x0, 1 },
	};
	const uint32_t too_big[] = { 0x10, 0x80000000, 0xffffffff };
	unsigned int i;

	run_lane_cases(_metadata, &self->p, ID, NVME_PORT, 4, 4, x4,
		       sizeof(x4) / sizeof(x4[0]));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(EINVAL, tp_port_set(&self->p, ID, NVME_PORT,
					      (struct pnl_attr[]){
						A_U32(PCIESW_A_PORT_FAILED_LANES,
						      too_big[i]), A_END },
					      &self->r));
		EXPECT_STREQ("lane beyond the width of the port", self->r.msg);
		EXPECT_EQ(PNL_ATTR_OFFS(2), self->r.offs);
		pnl_reply_free(&self->r);
	}

	ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", "16x1",
				       &self->r));
	pnl_reply_free(&self->r);
	WAIT_L0(ID, NVME_PORT, NULL);
	run_lane_cases(_metadata, &self->p, ID, NVME_PORT, 1, 4, x1, 2);
	EXPECT_EQ(EINVAL, tp_port_set1(&self->p, ID, NVME_PORT,
				       (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, 0x2)));
}

/* A port without a partner takes a mask and stays in Detect. */
TEST_F(link, lane_failure_empty_port)
{
	struct pnl_obj o;
	struct tp_hist h0, h;

	ASSERT_EQ(0, tp_port_unplug(&self->p, ID, NVME_PORT));
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME_PORT, NULL, &h0));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, NVME_PORT,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, 0x1)));
	stay_watch();
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME_PORT, &o, &h));
	EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT, o.u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(1U, o.u[PCIESW_A_PORT_FAILED_LANES]);
	EXPECT_EQ(h0.n, h.n);
	/* plugged in later: trains with the lanes it has */
	ASSERT_EQ(0, tp_ep_add(&self->p, ID, NVME_PORT, PCIESW_EP_TYPE_NVME, 0,
			       0, NULL, NULL));
	WAIT_L0(ID, NVME_PORT, &o);
	EXPECT_EQ(2U, o.u[PCIESW_A_PORT_WIDTH]);
	EXPECT_EQ(1U, o.u[PCIESW_A_PORT_DEGRADED]);
}

/* ------------------------------------------------------------------ */
/* Retrain, hot reset, disable/enable, surprise down                   */

/*
 * Do port-set @a on @port and wait for exactly @n transitions ending in
 * @to; check they are @want (from, to pairs).
 */
static void expect_transitions(struct __test_metadata *_metadata,
			       struct pnl *p, unsigned int id,
			       unsigned int port, struct pnl_attr a,
			       const uint32_t (*want)[2], unsigned int n)
{
	struct tp_hist h0, h;
	unsigned int i;

	ASSERT_EQ(0, tp_port_get(p, id, port, NULL, &h0));
	ASSERT_EQ(0, tp_port_set1(p, id, port, a));
	EXPECT_TRUE(tp_wait_hist(p, id, port, &h0, n, want[n - 1][1], &h))
		TH_LOG("port %u: %u -> %u transitions", port, h0.n, h.n);
	if (h.n < n || h.n > TP_HIST_MAX)
		return;
	for (i = 0; i < n; i++) {
		const struct tp_trans *t = &h.t[h.n - n + i];

		EXPECT_EQ(want[i][0], t->from) TH_LOG("#%u: %s -> %s", i,
						      tp_ltssm(t->from),
						      tp_ltssm(t->to));
		EXPECT_EQ(want[i][1], t->to) TH_LOG("#%u: %s -> %s", i,
						    tp_ltssm(t->from),
						    tp_ltssm(t->to));
	}
}

enum {
	DET = PCIESW_LTSSM_DETECT, POL = PCIESW_LTSSM_POLLING,
	CFG = PCIESW_LTSSM_CONFIGURATION, L0 = PCIESW_LTSSM_L0,
	REC = PCIESW_LTSSM_RECOVERY, DIS = PCIESW_LTSSM_DISABLED,
	HRS = PCIESW_LTSSM_HOT_RESET,
};

TEST_F(link, retrain)
{
	static const uint32_t retrain[][2] = { { L0, REC }, { REC, L0 } };
	static const uint32_t train[][2] = { { DET, POL }, { POL, CFG },
					     { CFG, L0 } };
	struct pnl_obj before, o;
	struct tp_hist h0, h;

	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &before, NULL));
	expect_transitions(_metadata, &self->p, ID, GPU_PORT,
			   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_RETRAIN),
			   retrain, 2);
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, NULL));
	EXPECT_EQ(before.u[PCIESW_A_PORT_SPEED], o.u[PCIESW_A_PORT_SPEED]);
	EXPECT_EQ(before.u[PCIESW_A_PORT_WIDTH], o.u[PCIESW_A_PORT_WIDTH]);
	/* the upstream port too */
	expect_transitions(_metadata, &self->p, ID, 0,
			   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_RETRAIN),
			   retrain, 2);
	/* a link that is down but has a partner trains from Detect */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, GPU_PORT,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	expect_transitions(_metadata, &self->p, ID, GPU_PORT,
			   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_RETRAIN),
			   train, 3);
	/* a port with nothing attached has nothing to train with */
	ASSERT_EQ(0, tp_port_unplug(&self->p, ID, NVME_PORT));
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME_PORT, NULL, &h0));
	EXPECT_EQ(0, tp_port_set1(&self->p, ID, NVME_PORT,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_RETRAIN)));
	stay_watch();
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME_PORT, &o, &h));
	EXPECT_EQ((uint32_t)DET, o.u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(h0.n, h.n);
}

TEST_F(link, hot_reset)
{
	static const uint32_t reset[][2] = { { L0, HRS }, { HRS, DET },
					     { DET, POL }, { POL, CFG },
					     { CFG, L0 } };
	static const uint32_t empty[][2] = { { DET, HRS }, { HRS, DET } };
	struct pnl_obj o;

	expect_transitions(_metadata, &self->p, ID, GPU_PORT,
			   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_HOT_RESET),
			   reset, 5);
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, NULL));
	EXPECT_EQ(16U, o.u[PCIESW_A_PORT_WIDTH]);
	EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN5, o.u[PCIESW_A_PORT_SPEED]);
	expect_transitions(_metadata, &self->p, ID, 0,
			   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_HOT_RESET),
			   reset, 5);
	/* nothing attached: reset, back to Detect, nothing to train */
	ASSERT_EQ(0, tp_port_unplug(&self->p, ID, NVME_PORT));
	expect_transitions(_metadata, &self->p, ID, NVME_PORT,
			   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_HOT_RESET),
			   empty, 2);
	stay_watch();
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME_PORT, &o, NULL));
	EXPECT_EQ((uint32_t)DET, o.u[PCIESW_A_PORT_LTSSM]);
}

TEST_F(link, disable_enable)
{
	static const uint32_t enable[][2] = { { DIS, DET }, { DET, POL },
					      { POL, CFG }, { CFG, L0 } };
	struct pnl_obj o;
	struct tp_hist h0, h;

	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, NULL, &h0));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, GPU_PORT,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED,
							0)));
	/* down at once, and it stays down */
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, &h));
	EXPECT_EQ((uint32_t)DIS, o.u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_ENABLED]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_LINK_ACTIVE]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_SPEED]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_WIDTH]);
	ASSERT_EQ(h0.n + 1, h.n);
	EXPECT_EQ((uint32_t)L0, h.t[h.n - 1].from);
	EXPECT_EQ((uint32_t)DIS, h.t[h.n - 1].to);
	check_sysfs_port(_metadata, ID, &o);
	stay_watch();
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, &h0));
	EXPECT_EQ((uint32_t)DIS, o.u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(h.n, h0.n);

	/* retrain, hot reset: the link is disabled */
	EXPECT_EQ(ENETDOWN, tp_port_set(&self->p, ID, GPU_PORT,
					(struct pnl_attr[]){
						A_FLAG(PCIESW_A_PORT_RETRAIN),
						A_END }, &self->r));
	EXPECT_STREQ("link is disabled", self->r.msg);
	pnl_reply_free(&self->r);
	EXPECT_EQ(ENETDOWN, tp_port_set1(&self->p, ID, GPU_PORT,
					 (struct pnl_attr)A_FLAG(
						PCIESW_A_PORT_HOT_RESET)));
	EXPECT_EQ(ENOLINK, tp_port_set1(&self->p, ID, GPU_PORT,
					(struct pnl_attr)A_FLAG(
						PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	/* unplug and plug while disabled: still disabled */
	ASSERT_EQ(0, tp_ep_del_name(&self->p, ID, "gpu0"));
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, NULL));
	EXPECT_EQ((uint32_t)DIS, o.u[PCIESW_A_PORT_LTSSM]);
	ASSERT_EQ(0, tp_ep_add(&self->p, ID, GPU_PORT, PCIESW_EP_TYPE_GPU, 0, 0,
			       NULL, NULL));
	stay_watch();
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, NULL));
	EXPECT_EQ((uint32_t)DIS, o.u[PCIESW_A_PORT_LTSSM]);

	/* enabled again: trains from Detect */
	expect_transitions(_metadata, &self->p, ID, GPU_PORT,
			   (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED, 1),
			   enable, 4);
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, NULL));
	EXPECT_EQ(1U, o.u[PCIESW_A_PORT_ENABLED]);
	EXPECT_EQ(16U, o.u[PCIESW_A_PORT_WIDTH]);
	check_sysfs_port(_metadata, ID, &o);

	/* disable and retrain in one request: refused, nothing changes */
	EXPECT_EQ(ENETDOWN, tp_port_set(&self->p, ID, GPU_PORT,
					(struct pnl_attr[]){
						A_U8(PCIESW_A_PORT_ENABLED, 0),
						A_FLAG(PCIESW_A_PORT_RETRAIN),
						A_END }, &self->r));
	pnl_reply_free(&self->r);
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, NULL));
	EXPECT_EQ(1U, o.u[PCIESW_A_PORT_ENABLED]);
	EXPECT_EQ((uint32_t)L0, o.u[PCIESW_A_PORT_LTSSM]);
	/* a port disabled with nothing attached: Disabled, then Detect */
	ASSERT_EQ(0, tp_port_unplug(&self->p, ID, NVME_PORT));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, NVME_PORT,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED,
							0)));
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME_PORT, &o, NULL));
	EXPECT_EQ((uint32_t)DIS, o.u[PCIESW_A_PORT_LTSSM]);
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, NVME_PORT,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED,
							1)));
	stay_watch();
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME_PORT, &o, NULL));
	EXPECT_EQ((uint32_t)DET, o.u[PCIESW_A_PORT_LTSSM]);
}

TEST_F(link, surprise_down)
{
	static const uint32_t train[][2] = { { DET, POL }, { POL, CFG },
					     { CFG, L0 } };
	struct pnl_obj o;
	struct tp_hist h0, h;

	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, &h0));
	EXPECT_EQ(0ULL, o.u64[PCIESW_A_PORT_SURPRISE_DOWN]);
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, GPU_PORT,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, &h));
	EXPECT_EQ((uint32_t)DET, o.u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_LINK_ACTIVE]);
	EXPECT_EQ(1ULL, o.u64[PCIESW_A_PORT_SURPRISE_DOWN]);
	EXPECT_EQ(1U, o.u[PCIESW_A_PORT_ENABLED]);
	EXPECT_STREQ("gpu0", o.s[PCIESW_A_EP_NAME]);
	ASSERT_EQ(h0.n + 1, h.n);
	EXPECT_EQ((uint32_t)L0, h.t[h.n - 1].from);
	EXPECT_EQ((uint32_t)DET, h.t[h.n - 1].to);
	check_sysfs_port(_metadata, ID, &o);
	/* it stays down: nobody retrains it */
	stay_watch();
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, &h0));
	EXPECT_EQ((uint32_t)DET, o.u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(h.n, h0.n);
	/* not up: nothing to drop */
	EXPECT_EQ(ENOLINK, tp_port_set(&self->p, ID, GPU_PORT,
				       (struct pnl_attr[]){
					A_FLAG(PCIESW_A_PORT_SURPRISE_DOWN_NOW),
					A_END }, &self->r));
	EXPECT_STREQ("link is not up", self->r.msg);
	pnl_reply_free(&self->r);
	expect_transitions(_metadata, &self->p, ID, GPU_PORT,
			   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_RETRAIN),
			   train, 3);
	/* with port-enabled in the same request: refused */
	EXPECT_EQ(EINVAL, tp_port_set(&self->p, ID, GPU_PORT,
				      (struct pnl_attr[]){
					A_U8(PCIESW_A_PORT_ENABLED, 1),
					A_FLAG(PCIESW_A_PORT_SURPRISE_DOWN_NOW),
					A_END }, &self->r));
	pnl_reply_free(&self->r);
	/* counted again */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, GPU_PORT,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	ASSERT_EQ(0, tp_port_get(&self->p, ID, GPU_PORT, &o, NULL));
	EXPECT_EQ(2ULL, o.u64[PCIESW_A_PORT_SURPRISE_DOWN]);
	check_sysfs_port(_metadata, ID, &o);
	/* a hot reset brings it back too */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, GPU_PORT,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_HOT_RESET)));
	WAIT_L0(ID, GPU_PORT, &o);
	EXPECT_EQ(2ULL, o.u64[PCIESW_A_PORT_SURPRISE_DOWN]);
}

/* ------------------------------------------------------------------ */
/* LTSSM history                                                       */

/* The sysfs ltssm_history of a port, parsed. */
static int sysfs_history(unsigned int id, unsigned int port,
			 struct tp_hist *h)
{
	char path[PATH_MAX], line[128];
	FILE *f;
	int ret = 0;

	memset(h, 0, sizeof(*h));
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%u/ltssm_history",
		 id, port);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long t;
		char from[32], to[32];
		uint32_t i, fi = 0, ti = 0;

		if (sscanf(line, "%llu %31s %31s", &t, from, to) != 3) {
			ret = -EINVAL;
			break;
		}
		for (i = 1; i <= PCIESW_LTSSM_MAX; i++) {
			if (!strcmp(from, tp_ltssm(i)))
				fi = i;
			if (!strcmp(to, tp_ltssm(i)))
				ti = i;
		}
		if (!fi || !ti)
			ret = -EINVAL;
		if (h->n < TP_HIST_MAX)
			h->t[h->n] = (struct tp_trans){ t, fi, ti };
		h->n++;
	}
	fclose(f);
	return ret;
}

/* The history is a chain of states, in time order, within [start, now]. */
static void check_chain(struct __test_metadata *_metadata,
			const struct tp_hist *h, uint64_t start, uint64_t now,
			uint32_t current)
{
	unsigned int i;

	ASSERT_GE((unsigned int)TP_HIST_MAX, h->n);
	EXPECT_FALSE(h->bad);
	for (i = 0; i < h->n; i++) {
		const struct tp_trans *t = &h->t[i];

		EXPECT_NE(t->from, t->to) TH_LOG("#%u", i);
		EXPECT_LE(start, t->time) TH_LOG("#%u before the test", i);
		EXPECT_GE(now, t->time) TH_LOG("#%u in the future", i);
		if (i) {
			EXPECT_EQ(h->t[i - 1].to, t->from) TH_LOG("#%u", i);
			EXPECT_LE(h->t[i - 1].time, t->time) TH_LOG("#%u", i);
		}
	}
	if (h->n)
		EXPECT_EQ(current, h->t[h->n - 1].to);
}

/*
 * A new switch: its links' histories start at its creation, step by step
 * (each LTSSM step takes 2 ms of modeled time); 40 retrains later the
 * oldest transitions have been dropped and the last 64 are kept; sysfs and
 * netlink show the same.
 */
TEST_F_TIMEOUT(link, history, 120)
{
	static struct tp_trans all[200];
	unsigned int n_all = 0, i, r;
	struct tp_hist h, hs;
	struct pnl_obj o;
	uint64_t start, now;

	start = tp_now_ns();
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID_HIST, "tiny8"));
	now = tp_now_ns();
	ASSERT_EQ(0, tp_port_get(&self->p, ID_HIST, 1, &o, &h));
	ASSERT_EQ(3U, h.n);
	check_chain(_metadata, &h, start, now, L0);
	EXPECT_EQ((uint32_t)DET, h.t[0].from);
	EXPECT_EQ((uint32_t)POL, h.t[0].to);
	EXPECT_EQ((uint32_t)CFG, h.t[1].to);
	EXPECT_EQ((uint32_t)L0, h.t[2].to);
	for (i = 1; i < 3; i++)
		EXPECT_LE(2000000ULL, h.t[i].time - h.t[i - 1].time)
			TH_LOG("step %u took %llu ns", i,
			       (unsigned long long)(h.t[i].time -
						    h.t[i - 1].time));
	memcpy(all, h.t, 3 * sizeof(all[0]));
	n_all = 3;

	for (r = 0; r < 40; r++) {
		struct tp_hist prev = h;

		ASSERT_EQ(0, tp_port_set1(&self->p, ID_HIST, 1,
					  (struct pnl_attr)A_FLAG(
						PCIESW_A_PORT_RETRAIN)));
		ASSERT_TRUE(tp_wait_hist(&self->p, ID_HIST, 1, &prev, 2, L0,
					 &h)) TH_LOG("retrain %u", r);
		ASSERT_LE(2U, h.n);
		all[n_all++] = h.t[h.n - 2];
		all[n_all++] = h.t[h.n - 1];
		EXPECT_EQ((uint32_t)L0, h.t[h.n - 2].from);
		EXPECT_EQ((uint32_t)REC, h.t[h.n - 2].to);
		EXPECT_LE(2000000ULL, h.t[h.n - 1].time - h.t[h.n - 2].time);
	}
	now = tp_now_ns();
	ASSERT_EQ(83U, n_all);
	ASSERT_EQ(0, tp_port_get(&self->p, ID_HIST, 1, &o, &h));
	EXPECT_EQ(64U, h.n);
	check_chain(_metadata, &h, start, now, o.u[PCIESW_A_PORT_LTSSM]);
	/* exactly the newest 64 */
	for (i = 0; i < h.n && i < 64; i++) {
		const struct tp_trans *w = &all[n_all - h.n + i];

		EXPECT_EQ(w->time, h.t[i].time) TH_LOG("#%u", i);
		EXPECT_EQ(w->from, h.t[i].from) TH_LOG("#%u", i);
		EXPECT_EQ(w->to, h.t[i].to) TH_LOG("#%u", i);
	}
	/* sysfs says the same */
	ASSERT_EQ(0, sysfs_history(ID_HIST, 1, &hs));
	ASSERT_EQ(h.n, hs.n);
	for (i = 0; i < h.n; i++) {
		EXPECT_EQ(h.t[i].time, hs.t[i].time) TH_LOG("#%u", i);
		EXPECT_EQ(h.t[i].from, hs.t[i].from) TH_LOG("#%u", i);
		EXPECT_EQ(h.t[i].to, hs.t[i].to) TH_LOG("#%u", i);
	}
	/* and the other ports' histories are untouched by all this */
	ASSERT_EQ(0, tp_port_get(&self->p, ID_HIST, 0, &o, &h));
	EXPECT_EQ(3U, h.n);
	check_chain(_metadata, &h, start, now, L0);
	ASSERT_EQ(0, sysfs_history(ID_HIST, 0, &hs));
	ASSERT_EQ(h.n, hs.n);
	EXPECT_EQ(0, memcmp(h.t, hs.t, h.n * sizeof(h.t[0])));
	/* a port without a partner has no history at all */
	ASSERT_EQ(0, tp_port_unplug(&self->p, ID_HIST, 2));
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID_HIST, "nvme", "4x1",
				       &self->r));
	ASSERT_EQ(0, sysfs_history(ID_HIST, 4, &hs));
	EXPECT_EQ(0U, hs.n);
}

/* ------------------------------------------------------------------ */
/* sysfs against netlink, in many states                               */

TEST_F(link, sysfs_matches_netlink)
{
	struct tp_reply t;
	unsigned int i;

	/* degraded, disabled, ACS on, surprise down, empty, Gen3 */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, GPU_PORT,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, 0x8000)));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 2,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED,
							0)));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 3,
				  (struct pnl_attr)A_U8(
					PCIESW_A_PORT_ACS_REDIRECT, 1)));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 4,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	ASSERT_EQ(0, tp_port_unplug(&self->p, ID, 5));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 0,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_TARGET_SPEED,
					PCIESW_LINK_SPEED_GEN3)));
	WAIT_L0(ID, 0, NULL);
	ASSERT_TRUE(tp_wait_ltssm(&self->p, ID, GPU_PORT, L0, NULL));
	ASSERT_EQ(0, tp_ports(&self->p, ID, &t));
	ASSERT_EQ(6U, t.r.nobjs);
	EXPECT_EQ(8U, t.r.objs[GPU_PORT].u[PCIESW_A_PORT_WIDTH]);
	EXPECT_EQ(1U, t.r.objs[GPU_PORT].u[PCIESW_A_PORT_DEGRADED]);
	EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN3,
		  t.r.objs[0].u[PCIESW_A_PORT_SPEED]);
	for (i = 0; i < t.r.nobjs; i++)
		check_sysfs_port(_metadata, ID, &t.r.objs[i]);
	tp_reply_free(&t);
}

TEST_HARNESS_MAIN
