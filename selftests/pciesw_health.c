// SPDX-License-Identifier: GPL-2.0
/*
 * Error and traffic counters, thresholds and fault injection:
 * - inject: every error counter, on a port, increments exactly that
 *   counter of exactly that port; counter-get do, dump and the switch-wide
 *   sum agree with the port devices' errors/ and traffic/ files; every
 *   refusal with its errno and extended ACK;
 * - counter-clear of a port and of a switch, errors/clear in sysfs;
 * - traffic fed through the debugfs knob (bytes and TLPs at MPS 256);
 * - thresholds, per port and switch-wide: one threshold-ntf per crossing on
 *   the monitor group, re-armed by a clear or by setting it again, fired at
 *   set time when already crossed, removal, at most 64 per switch;
 * - BER: bad-tlp = floor(bits * ber / 1e18) (+-1: the kernel computes it
 *   exactly from the bits since the BER was set, so only the floor of a
 *   value we compute the same way can differ), every 256th BER error a
 *   replay-num-rollover and a retrain (Recovery in the LTSSM history);
 * - surprise down counts surprise-down;
 * - concurrency: injectors, a clearer and readers (counters never go
 *   backwards except across a clear the reader can see); re-bifurcation of
 *   one group while another is busy keeps the other's counters, and the
 *   other groups' ports keep their numbers and counters;
 * - unprivileged: reads work but the VPD's (root-only), changes are
 *   EPERM / EACCES.
 *
 * Switch ids used here: 50-69.
 */
#include <ctype.h>
#include <pthread.h>

#include "pciesw_topo.h"

#define ID		50U
#define NPORTS		6U	/* pex89048: host, gpu, nvme 4x4 */
#define NCTR		(PCIESW_COUNTER_MAX + 1U)
#define NERR		(PCIESW_COUNTER_LAST_UNCORRECTABLE + 1U)
#define MAX_THRESHOLDS	64

/*
 * How long notifications may take to come (the health work): the quiet
 * period of pnl_recv_ntf(), which scales it on the debug kernel.
 */
static int ntf_ms(void)
{
	return 300;
}

/*
 * The spec's name of counter @c with @sep between words ('-': netlink,
 * '_': sysfs), from the uAPI names the spec defines.
 */
static const char *ctr_name(unsigned int c, char sep, char *buf, size_t len)
{
	static const char pre[] = "PCIESW_COUNTER_";
	unsigned int i, k;

	snprintf(buf, len, "?");
	for (i = 0; i < sizeof(spec_uapi_ints) / sizeof(spec_uapi_ints[0]);
	     i++) {
		const char *n = spec_uapi_ints[i].name;

		if (strncmp(n, pre, sizeof(pre) - 1) ||
		    spec_uapi_ints[i].uapi != (long long)c)
			continue;
		n += sizeof(pre) - 1;
		for (k = 0; n[k] && k + 1 < len; k++)
			buf[k] = n[k] == '_' ? sep : tolower(n[k]);
		buf[k] = '\0';
		break;
	}
	return buf;
}

static bool ctr_is_error(unsigned int c)
{
	return c <= PCIESW_COUNTER_LAST_UNCORRECTABLE;
}

/* sysfs errors/NAME or traffic/NAME of a port; -1 when unreadable */
static long long ctr_sysfs(unsigned int id, unsigned int port, unsigned int c)
{
	char name[64], attr[80], buf[64], *end;
	unsigned long long v;

	ctr_name(c, '_', name, sizeof(name));
	snprintf(attr, sizeof(attr), "%s/%s",
		 ctr_is_error(c) ? "errors" : "traffic", name);
	if (port_attr(id, port, attr, buf, sizeof(buf)) || !buf[0])
		return -1;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -1;
	return (long long)v;
}

static int inject(struct pnl *p, unsigned int id, unsigned int port,
		  unsigned int c, uint32_t count, struct pnl_reply *r)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_PORT_ID, port),
				  A_U32(PCIESW_A_COUNTER_ID, c),
				  A_U32(PCIESW_A_INJECT_COUNT, count), A_END };

	if (!count)	/* leave the count out: the default, 1 */
		req[3] = (struct pnl_attr)A_END;
	return tp_do(p, PCIESW_CMD_INJECT, req, r);
}

static int inject1(struct pnl *p, unsigned int id, unsigned int port,
		   unsigned int c, uint32_t count)
{
	struct pnl_reply r;
	int err = inject(p, id, port, c, count, &r);

	pnl_reply_free(&r);
	return err;
}

/* counter-clear of a port, or of the switch (@port < 0) */
static int ctr_clear(struct pnl *p, unsigned int id, int port)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_PORT_ID, port), A_END };
	struct pnl_reply r;
	int err;

	if (port < 0)
		req[1] = (struct pnl_attr)A_END;
	err = tp_do(p, PCIESW_CMD_COUNTER_CLEAR, req, &r);
	pnl_reply_free(&r);
	return err;
}

/* threshold-set; @port < 0: switch-wide */
static int thr_set(struct pnl *p, unsigned int id, int port, unsigned int c,
		   uint64_t value, struct pnl_reply *r)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_COUNTER_ID, c),
				  A_U64(PCIESW_A_THRESHOLD_VALUE, value),
				  A_U32(PCIESW_A_PORT_ID, port), A_END };

	if (port < 0)
		req[3] = (struct pnl_attr)A_END;
	return tp_do(p, PCIESW_CMD_THRESHOLD_SET, req, r);
}

static int thr_set1(struct pnl *p, unsigned int id, int port, unsigned int c,
		    uint64_t value)
{
	struct pnl_reply r;
	int err = thr_set(p, id, port, c, value, &r);

	pnl_reply_free(&r);
	return err;
}

/* threshold-get do; @port < 0: the switch-wide one */
static int thr_get(struct pnl *p, unsigned int id, int port, unsigned int c,
		   struct pnl_reply *r)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_COUNTER_ID, c),
				  A_U32(PCIESW_A_PORT_ID, port), A_END };

	if (port < 0)
		req[2] = (struct pnl_attr)A_END;
	return tp_do(p, PCIESW_CMD_THRESHOLD_GET, req, r);
}

static int set_ber(struct pnl *p, unsigned int id, unsigned int port,
		   uint64_t ber)
{
	return tp_port_set1(p, id, port,
			    (struct pnl_attr)A_U64(PCIESW_A_PORT_BER, ber));
}

/* The threshold-ntfs of switch @id among @r's objects, the last in @last. */
static unsigned int nr_thr_ntf(const struct pnl_reply *r, unsigned int id,
			       const struct pnl_obj **last)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nobjs; i++) {
		if (r->objs[i].cmd != PCIESW_CMD_THRESHOLD_NTF ||
		    r->objs[i].u[PCIESW_A_SWITCH_ID] != id)
			continue;
		n++;
		if (last)
			*last = &r->objs[i];
	}
	return n;
}

/* Notifications that come within ntf_ms() (quiet period). */
static void mon_collect(struct pnl *mon, struct pnl_reply *r)
{
	pnl_reply_init(r);
	pnl_recv_ntf(mon, ntf_ms(), r);
}

static void mon_drain(struct pnl *mon)
{
	struct pnl_reply r;

	pnl_reply_init(&r);
	pnl_recv_ntf(mon, 30, &r);
	pnl_reply_free(&r);
}

/* Retrains (transitions into Recovery) of a port after @since (ns). */
static int nr_recovery(struct pnl *p, unsigned int id, unsigned int port,
		       uint64_t since)
{
	struct tp_hist *h = malloc(sizeof(*h));
	unsigned int i, n = 0;
	int err;

	if (!h)
		return -1;
	err = tp_port_get(p, id, port, NULL, h);
	for (i = 0; !err && i < h->n && i < TP_HIST_MAX; i++)
		if (h->t[i].to == PCIESW_LTSSM_RECOVERY && h->t[i].time > since)
			n++;
	free(h);
	return err ? -1 : (int)n;
}

/* Wait (bounded) until the port has retrained @want times after @since. */
static int wait_recovery(struct pnl *p, unsigned int id, unsigned int port,
			 uint64_t since, int want)
{
	struct tp_poll w;
	int n;

	tp_poll_start(&w, TP_WAIT_MS);
	do {
		n = nr_recovery(p, id, port, since);
		if (n >= want)
			break;
	} while (tp_poll_next(&w));
	/* and back in L0 */
	tp_wait_ltssm(p, id, port, PCIESW_LTSSM_L0, NULL);
	return nr_recovery(p, id, port, since);
}

/* Wait (bounded) until counter @c of a port is at least @want. */
static long long ctr_wait(struct pnl *p, unsigned int id, int port,
			  unsigned int c, long long want)
{
	struct tp_poll w;
	long long v;

	tp_poll_start(&w, TP_WAIT_MS);
	do {
		v = ctr_val(p, id, port, c);
		if (v >= want)
			return v;
	} while (tp_poll_next(&w));
	return v;
}

/* ------------------------------------------------------------------ */

FIXTURE(health)
{
	struct pnl p, mon;
	char name[NCTR][40];
};

FIXTURE_SETUP(health)
{
	struct pnl_obj o;
	unsigned int c;
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_open_monitor(&self->mon));
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID, NULL));
	err = ctr_get(&self->p, ID, 0, &o);
	ASSERT_EQ(0, err) TH_LOG("counter-get: %s", strerror(abs(err)));
	for (c = 0; c < NCTR; c++)
		ctr_name(c, '-', self->name[c], sizeof(self->name[c]));
	mon_drain(&self->mon);
}

FIXTURE_TEARDOWN(health)
{
	pnl_close(&self->mon);
	pnl_close(&self->p);
	for (unsigned int id = ID; id < ID + 3; id++)
		if (sw_exists(id))
			sw_del(id);
}

/*
 * Every counter of every port (dump), the switch-wide sums (do without
 * port-id) and every sysfs file against @exp.
 */
static void check_all(struct __test_metadata *_metadata,
		      FIXTURE_DATA(health) *self, uint64_t exp[][NCTR],
		      unsigned int nports, const char *when)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	uint64_t sum[NCTR] = { 0 };
	struct pnl_reply r;
	struct pnl_obj *o = malloc(sizeof(*o));
	unsigned int i, c;

	ASSERT_NE(NULL, o);
	ASSERT_EQ(0, tp_call(&self->p, PCIESW_CMD_COUNTER_GET, true, req, &r));
	EXPECT_EQ(nports, r.nobjs) TH_LOG("%s", when);
	for (i = 0; i < r.nobjs && i < nports; i++) {
		const struct pnl_obj *d = &r.objs[i];
		unsigned int port = d->u[PCIESW_A_PORT_ID];

		EXPECT_EQ(0, d->bad_type);
		EXPECT_EQ(0, d->dup_type);
		EXPECT_EQ(0, pnl_not_in_spec(d, PCIESW_CMD_COUNTER_GET, true));
		EXPECT_TRUE(pnl_has(d, PCIESW_A_PORT_ID));
		EXPECT_EQ(ID, d->u[PCIESW_A_SWITCH_ID]);
		ASSERT_GT(nports, port);
		/* every counter, once */
		EXPECT_EQ(NCTR, d->nr_ctr);
		EXPECT_EQ(~0ULL >> (64 - NCTR), d->ctr_mask);
		for (c = 0; c < NCTR; c++) {
			EXPECT_EQ(exp[port][c], d->ctr[c])
				TH_LOG("%s: port %u %s", when, port,
				       self->name[c]);
			EXPECT_EQ((long long)exp[port][c],
				  ctr_sysfs(ID, port, c))
				TH_LOG("%s: sysfs of port %u %s", when, port,
				       self->name[c]);
			sum[c] += exp[port][c];
		}
		/* the do of the port says the same */
		ASSERT_EQ(0, ctr_get(&self->p, ID, port, o));
		EXPECT_EQ(0, memcmp(d->ctr, o->ctr, sizeof(o->ctr)))
			TH_LOG("%s: do and dump of port %u differ", when, port);
	}
	pnl_reply_free(&r);
	ASSERT_EQ(0, ctr_get(&self->p, ID, -1, o));
	EXPECT_FALSE(pnl_has(o, PCIESW_A_PORT_ID));
	EXPECT_EQ(NCTR, o->nr_ctr);
	for (c = 0; c < NCTR; c++)
		EXPECT_EQ(sum[c], o->ctr[c])
			TH_LOG("%s: switch-wide %s", when, self->name[c]);
	free(o);
}

/* Every error counter, each on another port: exactly that one counts. */
TEST_F_TIMEOUT(health, inject_every_counter, 120)
{
	uint64_t exp[NPORTS][NCTR];
	unsigned int c, port;
	char when[96];

	memset(exp, 0, sizeof(exp));
	check_all(_metadata, self, exp, NPORTS, "new switch");
	for (c = 0; c < NERR; c++) {
		port = c % NPORTS;
		ASSERT_EQ(0, inject1(&self->p, ID, port, c, c + 1))
			TH_LOG("%s", self->name[c]);
		exp[port][c] += c + 1;
		/* the whole table after each: nothing else moved */
		snprintf(when, sizeof(when), "after %u x %s on port %u",
			 c + 1, self->name[c], port);
		check_all(_metadata, self, exp, NPORTS, when);
	}
	/* the same counter on another port adds there only */
	ASSERT_EQ(0, inject1(&self->p, ID, 5, PCIESW_COUNTER_RECEIVER_ERROR,
			     3));
	exp[5][PCIESW_COUNTER_RECEIVER_ERROR] += 3;
	check_all(_metadata, self, exp, NPORTS, "receiver-error on port 5");
}

/* No inject-count is 1; 1000000 is allowed; counts are 64-bit. */
/*
 * 5000 injects, each a netlink round trip and an event for the PCI view:
 * ~30 s on the debug kernel, more with a guest beside it.
 */
TEST_F_TIMEOUT(health, inject_counts, 120)
{
	unsigned int i;

	ASSERT_EQ(0, inject1(&self->p, ID, 2, PCIESW_COUNTER_ECRC, 0));
	EXPECT_EQ(1, ctr_val(&self->p, ID, 2, PCIESW_COUNTER_ECRC));
	ASSERT_EQ(0, inject1(&self->p, ID, 2, PCIESW_COUNTER_ECRC, 1000000));
	EXPECT_EQ(1000001, ctr_val(&self->p, ID, 2, PCIESW_COUNTER_ECRC));
	/* past 32 bits */
	for (i = 0; i < 5000; i++)
		if (inject1(&self->p, ID, 3, PCIESW_COUNTER_BAD_DLLP, 1000000))
			break;
	EXPECT_EQ(5000U, i);
	EXPECT_EQ(5000000000LL,
		  ctr_val(&self->p, ID, 3, PCIESW_COUNTER_BAD_DLLP));
	EXPECT_EQ(5000000000LL, ctr_sysfs(ID, 3, PCIESW_COUNTER_BAD_DLLP));
}

TEST_F(health, inject_refused)
{
	const struct {
		const char *what;
		struct pnl_attr req[5];
		int err;
		const char *msg;
		int miss;
	} cases[] = {
		{ "traffic counter",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID,
			  PCIESW_COUNTER_INGRESS_POSTED_BYTES), A_END },
		  EINVAL, "only error counters can be injected", -1 },
		{ "traffic tlps",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID,
			  PCIESW_COUNTER_EGRESS_COMPLETION_TLPS), A_END },
		  EINVAL, "only error counters can be injected", -1 },
		{ "count 0",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC),
		    A_U32(PCIESW_A_INJECT_COUNT, 0), A_END },
		  ERANGE, "integer out of range", -1 },
		{ "count 1000001",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC),
		    A_U32(PCIESW_A_INJECT_COUNT, 1000001), A_END },
		  ERANGE, "integer out of range", -1 },
		{ "port 6",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 6),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC), A_END },
		  ENOENT, "no such port on this switch", -1 },
		{ "port 0xffffffff",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, 0xffffffff),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC), A_END },
		  ENOENT, "no such port on this switch", -1 },
		{ "no switch",
		  { A_U32(PCIESW_A_SWITCH_ID, ID + 9),
		    A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC), A_END },
		  ENODEV, "no such switch", -1 },
		{ "no switch-id",
		  { A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC), A_END },
		  EINVAL, NULL, PCIESW_A_SWITCH_ID },
		{ "no port-id",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC), A_END },
		  EINVAL, NULL, PCIESW_A_PORT_ID },
		{ "no counter-id",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_INJECT_COUNT, 5), A_END },
		  EINVAL, NULL, PCIESW_A_COUNTER_ID },
	};
	uint64_t exp[NPORTS][NCTR];
	struct pnl_reply r;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(cases[i].err, tp_do(&self->p, PCIESW_CMD_INJECT,
					      cases[i].req, &r))
			TH_LOG("%s", cases[i].what);
		if (cases[i].msg) {
			EXPECT_STREQ(cases[i].msg, r.msg)
				TH_LOG("%s", cases[i].what);
			EXPECT_TRUE(r.has_offs) TH_LOG("%s", cases[i].what);
		}
		if (cases[i].miss > 0)
			EXPECT_EQ(cases[i].miss, r.miss_type)
				TH_LOG("%s", cases[i].what);
		pnl_reply_free(&r);
	}
	/* an unknown counter id: refused by the policy */
	{
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID),
			A_U32(PCIESW_A_PORT_ID, 1),
			A_U32(PCIESW_A_COUNTER_ID, NCTR), A_END,
		};
		int err = tp_do(&self->p, PCIESW_CMD_INJECT, req, &r);

		EXPECT_EQ(ERANGE, err);
		EXPECT_STREQ("integer out of range", r.msg);
		EXPECT_EQ(PNL_ATTR_OFFS(2), r.offs);
		pnl_reply_free(&r);
	}
	/* nothing was counted */
	memset(exp, 0, sizeof(exp));
	check_all(_metadata, self, exp, NPORTS, "after refusals");
}

/* Clear one port, the switch, and through sysfs errors/clear. */
TEST_F(health, clear)
{
	uint64_t exp[NPORTS][NCTR];
	unsigned int port, c;
	struct pnl_reply r;

	memset(exp, 0, sizeof(exp));
	for (port = 0; port < NPORTS; port++) {
		for (c = 0; c < NERR; c += 3) {
			ASSERT_EQ(0, inject1(&self->p, ID, port, c, port + 2));
			exp[port][c] = port + 2;
		}
	}
	if (tp_have_feed(ID)) {
		ASSERT_EQ(0, tp_feed(ID, 2, "ingress", "posted", 1000));
		exp[2][PCIESW_COUNTER_INGRESS_POSTED_BYTES] = 1000;
		exp[2][PCIESW_COUNTER_INGRESS_POSTED_TLPS] = 4;
	}
	check_all(_metadata, self, exp, NPORTS, "injected");

	ASSERT_EQ(0, ctr_clear(&self->p, ID, 2));
	memset(exp[2], 0, sizeof(exp[2]));
	check_all(_metadata, self, exp, NPORTS, "port 2 cleared");

	ASSERT_EQ(0, port_write(ID, 4, "errors/clear", "1\n"));
	memset(exp[4], 0, sizeof(exp[4]));
	check_all(_metadata, self, exp, NPORTS, "port 4 cleared in sysfs");

	ASSERT_EQ(0, ctr_clear(&self->p, ID, -1));
	memset(exp, 0, sizeof(exp));
	check_all(_metadata, self, exp, NPORTS, "switch cleared");

	/* refusals */
	EXPECT_EQ(ENOENT, tp_do(&self->p, PCIESW_CMD_COUNTER_CLEAR,
				(struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, ID),
					A_U32(PCIESW_A_PORT_ID, NPORTS),
					A_END }, &r));
	EXPECT_STREQ("no such port on this switch", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(ENODEV, tp_do(&self->p, PCIESW_CMD_COUNTER_CLEAR,
				(struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, ID + 9),
					A_END }, &r));
	EXPECT_STREQ("no such switch", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(EINVAL, tp_do(&self->p, PCIESW_CMD_COUNTER_CLEAR, NULL, &r));
	EXPECT_EQ(PCIESW_A_SWITCH_ID, r.miss_type);
	pnl_reply_free(&r);
	EXPECT_EQ(ENOENT, tp_do(&self->p, PCIESW_CMD_COUNTER_GET,
				(struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, ID),
					A_U32(PCIESW_A_PORT_ID, NPORTS),
					A_END }, &r));
	EXPECT_STREQ("no such port on this switch", r.msg);
	pnl_reply_free(&r);
}

/* sysfs modes of the counter files */
TEST_F(health, sysfs_modes)
{
	char path[PATH_MAX], name[64];
	struct stat st;
	unsigned int c;

	for (c = 0; c < NCTR; c++) {
		snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port1/%s/%s",
			 ID, ctr_is_error(c) ? "errors" : "traffic",
			 ctr_name(c, '_', name, sizeof(name)));
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
		EXPECT_EQ(0444U, st.st_mode & 07777) TH_LOG("%s", path);
	}
	ASSERT_EQ(0, stat(PCIESW_DEVS "/pciesw50-port1/errors/clear", &st));
	EXPECT_EQ(0200U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(PCIESW_DEVS "/pciesw50-port1/ber", &st));
	EXPECT_EQ(0644U, st.st_mode & 07777);
}

/*
 * Traffic through the debugfs knob: payload bytes (none for read
 * requests), and TLPs at MPS 256.
 */
TEST_F(health, traffic)
{
	static const char *const dirs[] = { "ingress", "egress" };
	static const char *const cls[] = { "posted", "non-posted",
					   "completion" };
	static const uint64_t sizes[] = { 1, 255, 256, 257, 1048576, 4097 };
	uint64_t exp[NPORTS][NCTR];
	unsigned int d, k, i, port = 3;
	struct pnl_obj *o = malloc(sizeof(*o));

	ASSERT_TRUE(tp_have_feed(ID)) {
		TH_LOG("no debugfs traffic knob (the module always has it)");
		free(o);
	}
	ASSERT_NE(NULL, o);
	memset(exp, 0, sizeof(exp));
	for (d = 0; d < 2; d++) {
		for (k = 0; k < 3; k++) {
			unsigned int b = PCIESW_COUNTER_INGRESS_POSTED_BYTES +
					 d * 3 + k;
			unsigned int t = PCIESW_COUNTER_INGRESS_POSTED_TLPS +
					 d * 3 + k;

			for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
				ASSERT_EQ(0, tp_feed(ID, port, dirs[d], cls[k],
						     sizes[i]));
				/* read requests carry no payload */
				if (k != 1)
					exp[port][b] += sizes[i];
				exp[port][t] += (sizes[i] + 255) / 256;
			}
		}
	}
	/* non-posted requests carry no data: their TLP count is not MPS */
	ASSERT_EQ(0, ctr_get(&self->p, ID, port, o));
	for (d = 0; d < 2; d++) {
		unsigned int t = PCIESW_COUNTER_INGRESS_NON_POSTED_TLPS + d * 3;

		EXPECT_LE(6U, o->ctr[t]) TH_LOG("%s", self->name[t]);
		exp[port][t] = o->ctr[t];
	}
	check_all(_metadata, self, exp, NPORTS, "traffic on port 3");
	/* bad input */
	EXPECT_EQ(-EINVAL, tp_feed(ID, port, "sideways", "posted", 1));
	EXPECT_EQ(-EINVAL, tp_feed(ID, port, "ingress", "junk", 1));
	check_all(_metadata, self, exp, NPORTS, "after bad input");
	free(o);
}

/* threshold-ntf of a per-port threshold: the spec's event attributes */
static const int thr_ntf_attrs[] = {
	PCIESW_A_SWITCH_ID, PCIESW_A_PORT_ID, PCIESW_A_COUNTER_ID,
	PCIESW_A_THRESHOLD_VALUE, PCIESW_A_COUNTER_VALUE, 0
};

/* A per-port threshold: one notification per crossing. */
TEST_F(health, threshold_port)
{
	const unsigned int c = PCIESW_COUNTER_BAD_DLLP;
	const struct pnl_obj *last = NULL;
	struct pnl_reply ntf, r;

	ASSERT_EQ(0, thr_set1(&self->p, ID, 2, c, 5));
	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 3));
	/* other ports and counters do not count */
	ASSERT_EQ(0, inject1(&self->p, ID, 3, c, 10));
	ASSERT_EQ(0, inject1(&self->p, ID, 2, PCIESW_COUNTER_ECRC, 10));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);

	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 2));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(1U, nr_thr_ntf(&ntf, ID, &last));
	EXPECT_EQ(0, pnl_not_in(last, thr_ntf_attrs));
	EXPECT_EQ(0, pnl_missing(last, thr_ntf_attrs));
	EXPECT_EQ(0, last->bad_type);
	EXPECT_TRUE(pnl_has(last, PCIESW_A_PORT_ID));
	EXPECT_EQ(2U, last->u[PCIESW_A_PORT_ID]);
	EXPECT_EQ(c, last->u[PCIESW_A_COUNTER_ID]);
	EXPECT_EQ(5ULL, last->u64[PCIESW_A_THRESHOLD_VALUE]);
	EXPECT_EQ(5ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&ntf);

	/* stays quiet */
	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 100));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);
	/* threshold-get says crossed */
	ASSERT_EQ(0, thr_get(&self->p, ID, 2, c, &r));
	ASSERT_EQ(1U, r.nobjs);
	EXPECT_EQ(0, pnl_not_in_spec(&r.objs[0], PCIESW_CMD_THRESHOLD_GET,
				     false));
	EXPECT_EQ(5ULL, r.objs[0].u64[PCIESW_A_THRESHOLD_VALUE]);
	EXPECT_EQ(1U, r.objs[0].u[PCIESW_A_THRESHOLD_CROSSED]);
	EXPECT_EQ(105ULL, r.objs[0].u64[PCIESW_A_COUNTER_VALUE]);
	EXPECT_EQ(2U, r.objs[0].u[PCIESW_A_PORT_ID]);
	pnl_reply_free(&r);

	/* a clear of another port does not re-arm it; of this port does */
	ASSERT_EQ(0, ctr_clear(&self->p, ID, 3));
	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 1));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, ctr_clear(&self->p, ID, 2));
	ASSERT_EQ(0, thr_get(&self->p, ID, 2, c, &r));
	ASSERT_EQ(1U, r.nobjs);
	EXPECT_EQ(0U, r.objs[0].u[PCIESW_A_THRESHOLD_CROSSED]);
	EXPECT_EQ(0ULL, r.objs[0].u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&r);
	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 4));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 7));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(1U, nr_thr_ntf(&ntf, ID, &last));
	EXPECT_EQ(11ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&ntf);

	/* setting it again re-arms: already crossed, it fires at once */
	ASSERT_EQ(0, thr_set1(&self->p, ID, 2, c, 5));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(1U, nr_thr_ntf(&ntf, ID, &last));
	EXPECT_EQ(11ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
	EXPECT_EQ(5ULL, last->u64[PCIESW_A_THRESHOLD_VALUE]);
	pnl_reply_free(&ntf);

	/* removed: silent, gone */
	ASSERT_EQ(0, ctr_clear(&self->p, ID, 2));
	ASSERT_EQ(0, thr_set1(&self->p, ID, 2, c, 0));
	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 50));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);
	EXPECT_EQ(ENOENT, thr_get(&self->p, ID, 2, c, &r));
	EXPECT_STREQ("no threshold on this counter", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(ENOENT, thr_set(&self->p, ID, 2, c, 0, &r));
	EXPECT_STREQ("no threshold on this counter", r.msg);
	pnl_reply_free(&r);
}

/* A switch-wide threshold: on the sum over all ports. */
TEST_F(health, threshold_switch_wide)
{
	const unsigned int c = PCIESW_COUNTER_ECRC;
	const struct pnl_obj *last = NULL;
	struct pnl_reply ntf, r;

	ASSERT_EQ(0, thr_set1(&self->p, ID, -1, c, 10));
	ASSERT_EQ(0, inject1(&self->p, ID, 1, c, 4));
	ASSERT_EQ(0, inject1(&self->p, ID, 3, c, 4));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, inject1(&self->p, ID, 5, c, 2));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(1U, nr_thr_ntf(&ntf, ID, &last));
	EXPECT_FALSE(pnl_has(last, PCIESW_A_PORT_ID));
	EXPECT_EQ(c, last->u[PCIESW_A_COUNTER_ID]);
	EXPECT_EQ(10ULL, last->u64[PCIESW_A_THRESHOLD_VALUE]);
	EXPECT_EQ(10ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, inject1(&self->p, ID, 0, c, 20));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);

	/* the switch-wide do (no port-id) */
	ASSERT_EQ(0, thr_get(&self->p, ID, -1, c, &r));
	ASSERT_EQ(1U, r.nobjs);
	EXPECT_FALSE(pnl_has(&r.objs[0], PCIESW_A_PORT_ID));
	EXPECT_EQ(1U, r.objs[0].u[PCIESW_A_THRESHOLD_CROSSED]);
	EXPECT_EQ(30ULL, r.objs[0].u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&r);

	/* a switch clear re-arms it */
	ASSERT_EQ(0, ctr_clear(&self->p, ID, -1));
	ASSERT_EQ(0, inject1(&self->p, ID, 2, c, 9));
	ASSERT_EQ(0, inject1(&self->p, ID, 4, c, 1));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(1U, nr_thr_ntf(&ntf, ID, &last));
	EXPECT_EQ(10ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&ntf);
}

/* Set when already crossed: fires at once, once. */
TEST_F(health, threshold_already_crossed)
{
	const unsigned int c = PCIESW_COUNTER_POISONED_TLP;
	const struct pnl_obj *last = NULL;
	struct pnl_reply ntf;

	ASSERT_EQ(0, inject1(&self->p, ID, 4, c, 7));
	ASSERT_EQ(0, thr_set1(&self->p, ID, 4, c, 5));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(1U, nr_thr_ntf(&ntf, ID, &last));
	EXPECT_EQ(4U, last->u[PCIESW_A_PORT_ID]);
	EXPECT_EQ(7ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, inject1(&self->p, ID, 4, c, 7));
	mon_collect(&self->mon, &ntf);
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);
	/* the same for a switch-wide one */
	ASSERT_EQ(0, thr_set1(&self->p, ID, -1, c, 14));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(1U, nr_thr_ntf(&ntf, ID, &last));
	EXPECT_FALSE(pnl_has(last, PCIESW_A_PORT_ID));
	EXPECT_EQ(14ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&ntf);
}

/* A threshold on a traffic counter, crossed by the accounting hot path. */
TEST_F(health, threshold_traffic)
{
	const unsigned int c = PCIESW_COUNTER_EGRESS_COMPLETION_BYTES;
	const struct pnl_obj *last = NULL;
	struct pnl_reply ntf;

	ASSERT_TRUE(tp_have_feed(ID))
		TH_LOG("no debugfs traffic knob (the module always has it)");
	ASSERT_EQ(0, thr_set1(&self->p, ID, 1, c, 1 << 20));
	ASSERT_EQ(0, thr_set1(&self->p, ID, -1,
			      PCIESW_COUNTER_EGRESS_COMPLETION_TLPS, 8192));
	ASSERT_EQ(0, tp_feed(ID, 1, "egress", "completion", 1 << 19));
	ASSERT_EQ(0, tp_feed(ID, 2, "egress", "completion", 1 << 20));
	mon_collect(&self->mon, &ntf);
	/* port 2's MiB crosses nothing of port 1; 6144 TLPs < 8192 */
	EXPECT_EQ(0U, nr_thr_ntf(&ntf, ID, NULL));
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, tp_feed(ID, 1, "egress", "completion", 1 << 19));
	mon_collect(&self->mon, &ntf);
	ASSERT_EQ(2U, nr_thr_ntf(&ntf, ID, NULL));
	for (unsigned int i = 0; i < ntf.nobjs; i++) {
		last = &ntf.objs[i];
		if (last->cmd != PCIESW_CMD_THRESHOLD_NTF)
			continue;
		if (pnl_has(last, PCIESW_A_PORT_ID)) {
			EXPECT_EQ(1U, last->u[PCIESW_A_PORT_ID]);
			EXPECT_EQ(c, last->u[PCIESW_A_COUNTER_ID]);
			EXPECT_EQ(1ULL << 20,
				  last->u64[PCIESW_A_COUNTER_VALUE]);
		} else {
			EXPECT_EQ((uint32_t)PCIESW_COUNTER_EGRESS_COMPLETION_TLPS,
				  last->u[PCIESW_A_COUNTER_ID]);
			EXPECT_EQ(8192ULL, last->u64[PCIESW_A_COUNTER_VALUE]);
		}
	}
	pnl_reply_free(&ntf);
}

/* At most 64 per switch; every refusal of threshold-set. */
TEST_F(health, threshold_limits)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	unsigned int n = 0, port, c;
	struct pnl_reply r;

	for (port = 0; port < NPORTS && n < MAX_THRESHOLDS; port++)
		for (c = 0; c < 10 && n < MAX_THRESHOLDS; c++, n++)
			ASSERT_EQ(0, thr_set1(&self->p, ID, port, c, 1000 + n));
	for (c = 0; n < MAX_THRESHOLDS; c++, n++)
		ASSERT_EQ(0, thr_set1(&self->p, ID, -1, c, 1000 + n));
	ASSERT_EQ(0, tp_call(&self->p, PCIESW_CMD_THRESHOLD_GET, true, req,
			     &r));
	EXPECT_EQ((unsigned int)MAX_THRESHOLDS, r.nobjs);
	pnl_reply_free(&r);

	EXPECT_EQ(ENOSPC, thr_set(&self->p, ID, 5, 20, 1, &r));
	EXPECT_STREQ("too many thresholds (at most 64 per switch)", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(ENOSPC, thr_set(&self->p, ID, -1, 31, 1, &r));
	pnl_reply_free(&r);
	/* changing one that exists needs no room */
	EXPECT_EQ(0, thr_set1(&self->p, ID, 0, 0, 7));
	/* removing one makes room */
	EXPECT_EQ(0, thr_set1(&self->p, ID, 0, 1, 0));
	EXPECT_EQ(0, thr_set1(&self->p, ID, 5, 20, 1));
	EXPECT_EQ(ENOSPC, thr_set(&self->p, ID, 5, 21, 1, &r));
	pnl_reply_free(&r);

	/* refusals */
	EXPECT_EQ(ENOENT, thr_set(&self->p, ID, NPORTS, 0, 1, &r));
	EXPECT_STREQ("no such port on this switch", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(EINVAL, tp_do(&self->p, PCIESW_CMD_THRESHOLD_SET,
				(struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, ID),
					A_U64(PCIESW_A_THRESHOLD_VALUE, 5),
					A_END }, &r));
	EXPECT_EQ(PCIESW_A_COUNTER_ID, r.miss_type);
	pnl_reply_free(&r);
	EXPECT_EQ(EINVAL, tp_do(&self->p, PCIESW_CMD_THRESHOLD_SET,
				(struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, ID),
					A_U32(PCIESW_A_COUNTER_ID, 0),
					A_END }, &r));
	EXPECT_EQ(PCIESW_A_THRESHOLD_VALUE, r.miss_type);
	pnl_reply_free(&r);
	EXPECT_EQ(ENODEV, thr_set(&self->p, ID + 9, 0, 0, 1, &r));
	EXPECT_STREQ("no such switch", r.msg);
	pnl_reply_free(&r);
}

/* BER: errors in proportion to the bits carried. */
TEST_F(health, ber_proportional)
{
	const struct {
		unsigned int port;
		uint64_t ber, in, out;
	} cases[] = {
		{ 1, 1000000000ULL, 1ULL << 33, 0 },	/* 1e-9, 8 GiB */
		{ 2, 1000000000000000ULL, 12345, 0 },	/* 1e-3 */
		{ 3, 30000000000000ULL, 1000000, 0 },	/* 3e-5 */
		{ 4, 0, 1ULL << 30, 1ULL << 30 },	/* error-free */
		{ 5, 1000000000000ULL, 62500, 62500 },	/* both ways */
	};
	char buf[64];
	unsigned int i;

	ASSERT_TRUE(tp_have_feed(ID))
		TH_LOG("no debugfs traffic knob (the module always has it)");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pnl_obj o;

		ASSERT_EQ(0, set_ber(&self->p, ID, cases[i].port,
				     cases[i].ber));
		ASSERT_EQ(0, tp_port_get(&self->p, ID, cases[i].port, &o,
					 NULL));
		EXPECT_TRUE(pnl_has(&o, PCIESW_A_PORT_BER));
		EXPECT_EQ(cases[i].ber, o.u64[PCIESW_A_PORT_BER]);
		ASSERT_EQ(0, port_attr(ID, cases[i].port, "ber", buf,
				       sizeof(buf)));
		EXPECT_EQ(cases[i].ber, strtoull(buf, NULL, 10));
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int port = cases[i].port;
		/* bits * ber / 1e18, exactly (no overflow at these sizes) */
		__uint128_t bits = (__uint128_t)(cases[i].in + cases[i].out) * 8;
		long long want = (long long)(bits * cases[i].ber /
					     1000000000000000000ULL);
		long long got;

		if (cases[i].in)
			ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted",
					     cases[i].in));
		if (cases[i].out)
			ASSERT_EQ(0, tp_feed(ID, port, "egress", "completion",
					     cases[i].out));
		got = ctr_wait(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP,
			       want - 1);
		EXPECT_LE(want - 1, got) TH_LOG("port %u", port);
		EXPECT_GE(want + 1, got) TH_LOG("port %u", port);
		TH_LOG("port %u: ber %llu, %llu bits: %lld bad-tlp (%lld)",
		       port, (unsigned long long)cases[i].ber,
		       (unsigned long long)bits, got, want);
		/* fewer than 256: no rollover */
		EXPECT_EQ(0, ctr_val(&self->p, ID, port,
				     PCIESW_COUNTER_REPLAY_NUM_ROLLOVER));
	}
	/* the host port carried nothing */
	EXPECT_EQ(0, ctr_val(&self->p, ID, 0, PCIESW_COUNTER_BAD_TLP));
}

/* Every 256th BER error: a replay-num-rollover and a retrain. */
TEST_F(health, ber_rollover_retrain)
{
	const unsigned int port = 2;
	uint64_t t0;
	long long v;

	ASSERT_TRUE(tp_have_feed(ID))
		TH_LOG("no debugfs traffic knob (the module always has it)");
	/* 1e-6: one error per 125000 bytes */
	ASSERT_EQ(0, set_ber(&self->p, ID, port, 1000000000000ULL));
	t0 = tp_now_ns();
	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 31250000));
	EXPECT_EQ(250, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	/*
	 * no rollover and no retrain below 256: rollovers are counted as
	 * the traffic is (at once), the retrain is the health work's, which
	 * is queued as the counter moves; it runs within milliseconds (the
	 * retrain after the 256th below comes that fast), so 100 ms (500 on
	 * the debug kernel) of nothing is enough
	 */
	tp_msleep(tp_ms(100));
	EXPECT_EQ(0, ctr_val(&self->p, ID, port,
			     PCIESW_COUNTER_REPLAY_NUM_ROLLOVER));
	EXPECT_EQ(0, nr_recovery(&self->p, ID, port, t0));

	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 1250000));
	EXPECT_EQ(260, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	v = ctr_wait(&self->p, ID, port, PCIESW_COUNTER_REPLAY_NUM_ROLLOVER, 1);
	EXPECT_EQ(1, v);
	EXPECT_EQ(1, wait_recovery(&self->p, ID, port, t0, 1));

	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 32500000));
	EXPECT_EQ(520, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	v = ctr_wait(&self->p, ID, port, PCIESW_COUNTER_REPLAY_NUM_ROLLOVER, 2);
	EXPECT_EQ(2, v);
	EXPECT_EQ(2, wait_recovery(&self->p, ID, port, t0, 2));
	/* other ports untouched */
	EXPECT_EQ(0, nr_recovery(&self->p, ID, 3, t0));
	EXPECT_EQ(0, ctr_val(&self->p, ID, 3, PCIESW_COUNTER_BAD_TLP));
}

/* Setting the BER restarts its bit count; 0 stops it; limits. */
TEST_F(health, ber_set)
{
	const unsigned int port = 5;
	struct pnl_reply r;
	char buf[64];

	ASSERT_TRUE(tp_have_feed(ID))
		TH_LOG("no debugfs traffic knob (the module always has it)");
	ASSERT_EQ(0, set_ber(&self->p, ID, port, 1000000000000ULL));
	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 187500));
	EXPECT_EQ(1, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	/* the same value again: 1.5 errors' worth of bits forgotten */
	ASSERT_EQ(0, set_ber(&self->p, ID, port, 1000000000000ULL));
	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 93750));
	EXPECT_EQ(1, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 31250));
	EXPECT_EQ(2, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	/* through sysfs (root) */
	ASSERT_EQ(0, port_write(ID, port, "ber", "1000000000000000\n"));
	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 125));
	EXPECT_EQ(3, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	/* 0: an error-free link */
	ASSERT_EQ(0, set_ber(&self->p, ID, port, 0));
	ASSERT_EQ(0, port_attr(ID, port, "ber", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	ASSERT_EQ(0, tp_feed(ID, port, "ingress", "posted", 1ULL << 32));
	EXPECT_EQ(3, ctr_val(&self->p, ID, port, PCIESW_COUNTER_BAD_TLP));
	/* above 1e-3 */
	EXPECT_EQ(ERANGE, tp_port_set(&self->p, ID, port,
				      (struct pnl_attr[]){
					A_U64(PCIESW_A_PORT_BER,
					      1000000000000001ULL),
					A_END }, &r));
	EXPECT_STREQ("integer out of range", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(-EINVAL, port_write(ID, port, "ber", "1000000000000001\n"));
	EXPECT_EQ(-EINVAL, port_write(ID, port, "ber", "lots\n"));
	ASSERT_EQ(0, port_attr(ID, port, "ber", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
}

/* Surprise down (port-set) counts the AER surprise-down counter. */
TEST_F(health, surprise_down)
{
	uint64_t exp[NPORTS][NCTR];
	struct pnl_obj o;

	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 3,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	memset(exp, 0, sizeof(exp));
	exp[3][PCIESW_COUNTER_SURPRISE_DOWN] = 1;
	check_all(_metadata, self, exp, NPORTS, "surprise down on port 3");
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 3, &o, NULL));
	EXPECT_EQ(1ULL, o.u64[PCIESW_A_PORT_SURPRISE_DOWN]);
	/* injected surprise-down errors only count */
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 3,
				  (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_RETRAIN)));
	ASSERT_TRUE(tp_wait_ltssm(&self->p, ID, 3, PCIESW_LTSSM_L0, NULL));
	ASSERT_EQ(0, inject1(&self->p, ID, 3, PCIESW_COUNTER_SURPRISE_DOWN,
			     4));
	exp[3][PCIESW_COUNTER_SURPRISE_DOWN] = 5;
	check_all(_metadata, self, exp, NPORTS, "4 injected");
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 3, &o, NULL));
	EXPECT_EQ((uint32_t)PCIESW_LTSSM_L0, o.u[PCIESW_A_PORT_LTSSM]);
}

/* ------------------------------------------------------------------ */
/* Concurrency                                                         */

#define RACE_CTR	PCIESW_COUNTER_BAD_DLLP
#define RACE_CLEARED	3U	/* the port the clearer clears */

struct race {
	volatile bool stop;
	unsigned int gen;		/* odd while a clear is in flight */
	uint64_t injected[NPORTS];	/* successful injections */
	unsigned int errs, backwards, reads, clears;
	char why[160];
	pthread_mutex_t lock;
};

static void race_fail(struct race *rc, const char *fmt, unsigned int port,
		      long long a, long long b)
{
	pthread_mutex_lock(&rc->lock);
	if (!rc->backwards++)
		snprintf(rc->why, sizeof(rc->why), fmt, port, a, b);
	pthread_mutex_unlock(&rc->lock);
}

static void *race_injector(void *arg)
{
	struct race *rc = arg;
	unsigned int i;
	struct pnl p;

	if (pnl_open(&p)) {
		__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	for (i = 0; !rc->stop; i++) {
		unsigned int port = 1 + i % (NPORTS - 1);
		uint32_t n = 1 + i % 7;

		if (inject1(&p, ID, port, RACE_CTR, n))
			__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&rc->injected[port], n,
					   __ATOMIC_RELAXED);
	}
	pnl_close(&p);
	return NULL;
}

static void *race_clearer(void *arg)
{
	struct race *rc = arg;
	struct pnl p;

	if (pnl_open(&p)) {
		__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	while (!rc->stop) {
		__atomic_add_fetch(&rc->gen, 1, __ATOMIC_SEQ_CST);
		if (ctr_clear(&p, ID, RACE_CLEARED))
			__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&rc->gen, 1, __ATOMIC_SEQ_CST);
		rc->clears++;
		tp_msleep(5);	/* paces the clearer: readers see both sides */
	}
	pnl_close(&p);
	return NULL;
}

/*
 * Readers: netlink do (@arg's mode 0), sysfs (1), dump (2).  A value may
 * go down only if a clear of that port ran between the two reads.
 */
struct reader {
	struct race *rc;
	int mode;
};

static void *race_reader(void *arg)
{
	struct reader *rd = arg;
	struct race *rc = rd->rc;
	long long prev[NPORTS];
	unsigned int prev_gen = 0, port;
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	struct pnl_obj *o = malloc(sizeof(*o));
	struct pnl p;

	if (!o || pnl_open(&p)) {
		__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		free(o);
		return NULL;
	}
	for (port = 0; port < NPORTS; port++)
		prev[port] = -1;
	while (!rc->stop) {
		unsigned int g1 = __atomic_load_n(&rc->gen, __ATOMIC_SEQ_CST);
		long long v[NPORTS];
		struct pnl_reply r;
		unsigned int g2, i;

		for (port = 0; port < NPORTS; port++)
			v[port] = -1;
		if (rd->mode == 2) {
			if (!tp_call(&p, PCIESW_CMD_COUNTER_GET, true, req, &r))
				for (i = 0; i < r.nobjs; i++)
					if (r.objs[i].u[PCIESW_A_PORT_ID] <
					    NPORTS &&
					    (r.objs[i].ctr_mask &
					     (1ULL << RACE_CTR)))
						v[r.objs[i].u[PCIESW_A_PORT_ID]] =
						(long long)r.objs[i].ctr[RACE_CTR];
			pnl_reply_free(&r);
		} else {
			for (port = 0; port < NPORTS; port++)
				v[port] = rd->mode ?
					  ctr_sysfs(ID, port, RACE_CTR) :
					  ctr_val(&p, ID, port, RACE_CTR);
		}
		g2 = __atomic_load_n(&rc->gen, __ATOMIC_SEQ_CST);
		for (port = 0; port < NPORTS; port++) {
			/*
			 * a clear ran, or was in flight, between the start
			 * of the previous read and the end of this one
			 */
			bool cleared = port == RACE_CLEARED &&
				       (prev_gen != g2 || (prev_gen & 1));

			if (v[port] < 0) {
				__atomic_add_fetch(&rc->errs, 1,
						   __ATOMIC_RELAXED);
				continue;
			}
			if (prev[port] >= 0 && v[port] < prev[port] && !cleared)
				race_fail(rc, rd->mode == 0 ? "do: port %u went from %lld to %lld" :
					  rd->mode == 1 ? "sysfs: port %u went from %lld to %lld" :
					  "dump: port %u went from %lld to %lld",
					  port, prev[port], v[port]);
			prev[port] = v[port];
		}
		prev_gen = g1;
		__atomic_add_fetch(&rc->reads, 1, __ATOMIC_RELAXED);
	}
	pnl_close(&p);
	free(o);
	return NULL;
}

TEST_F(health, concurrent_inject_clear_read)
{
	struct race rc = { 0 };
	struct reader rd[3] = { { &rc, 0 }, { &rc, 1 }, { &rc, 2 } };
	pthread_t th[7];
	unsigned int i, port;

	pthread_mutex_init(&rc.lock, NULL);
	ASSERT_EQ(0, pthread_create(&th[0], NULL, race_injector, &rc));
	ASSERT_EQ(0, pthread_create(&th[1], NULL, race_injector, &rc));
	ASSERT_EQ(0, pthread_create(&th[2], NULL, race_clearer, &rc));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pthread_create(&th[3 + i], NULL, race_reader,
					    &rd[i]));
	sleep(tp_slow() ? 5 : 2);	/* how long the race runs */
	rc.stop = true;
	for (i = 0; i < 6; i++)
		pthread_join(th[i], NULL);
	TH_LOG("%u reads, %u clears", rc.reads, rc.clears);
	EXPECT_EQ(0U, rc.backwards) TH_LOG("%u times, first: %s", rc.backwards,
					   rc.why);
	EXPECT_EQ(0U, rc.errs);
	EXPECT_LT(10U, rc.reads);
	EXPECT_LT(2U, rc.clears);
	/* nothing lost on the ports nobody cleared */
	for (port = 0; port < NPORTS; port++) {
		if (port == RACE_CLEARED)
			continue;
		EXPECT_EQ((long long)rc.injected[port],
			  ctr_val(&self->p, ID, port, RACE_CTR))
			TH_LOG("port %u", port);
	}
}

/*
 * Re-bifurcating a group zeroes its ports' statistics; the ports of the
 * other groups keep their numbers (physical, by first lane) and with them
 * their counters and thresholds.  gpu 2x8 on pex89048: ports 1 and 7
 * (lanes 16 and 24), the nvme ports 2..5 untouched.
 */
TEST_F(health, bifurcation_keeps_numbers)
{
	static const unsigned int present[] = { 0, 1, 2, 3, 4, 5, 7 };
	struct pnl_reply r;
	struct pnl_obj o;
	unsigned int i;

	ASSERT_EQ(0, inject1(&self->p, ID, 1, PCIESW_COUNTER_ECRC, 5));
	ASSERT_EQ(0, inject1(&self->p, ID, 2, PCIESW_COUNTER_RECEIVER_ERROR,
			     7));
	ASSERT_EQ(0, inject1(&self->p, ID, 5, PCIESW_COUNTER_MALFORMED_TLP,
			     9));
	ASSERT_EQ(0, thr_set1(&self->p, ID, 1, PCIESW_COUNTER_ECRC, 100));
	ASSERT_EQ(0, thr_set1(&self->p, ID, 5, PCIESW_COUNTER_MALFORMED_TLP,
			      100));
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "gpu", "2x8", &r));
	pnl_reply_free(&r);
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	/* gpu: ports 1 and 7, new; nvme: 2..5, lanes 32.. as before */
	EXPECT_EQ(0, ctr_val(&self->p, ID, 1, PCIESW_COUNTER_ECRC));
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 7, &o, NULL));
	EXPECT_EQ(24U, o.u[PCIESW_A_PORT_FIRST_LANE]);
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 2, &o, NULL));
	EXPECT_EQ(32U, o.u[PCIESW_A_PORT_FIRST_LANE]);
	EXPECT_EQ(7, ctr_val(&self->p, ID, 2, PCIESW_COUNTER_RECEIVER_ERROR));
	EXPECT_EQ(9, ctr_val(&self->p, ID, 5, PCIESW_COUNTER_MALFORMED_TLP));
	EXPECT_EQ(9, ctr_sysfs(ID, 5, PCIESW_COUNTER_MALFORMED_TLP));
	for (i = 0; i < sizeof(present) / sizeof(present[0]); i++) {
		if (present[i] != 2)
			EXPECT_EQ(0, ctr_val(&self->p, ID, present[i],
					     PCIESW_COUNTER_RECEIVER_ERROR))
				TH_LOG("port %u", present[i]);
	}
	/* the gpu group's threshold went with its ports; nvme's stayed */
	EXPECT_EQ(ENOENT, thr_get(&self->p, ID, 1, PCIESW_COUNTER_ECRC, &r));
	pnl_reply_free(&r);
	ASSERT_EQ(0, thr_get(&self->p, ID, 5, PCIESW_COUNTER_MALFORMED_TLP, &r));
	EXPECT_EQ(1U, r.nobjs);
	if (r.nobjs == 1)
		EXPECT_EQ(9ULL, r.objs[0].u64[PCIESW_A_COUNTER_VALUE]);
	pnl_reply_free(&r);
}

struct feeder {
	volatile bool stop;
	unsigned int errs;
	uint64_t fed[2], injected[2];	/* ports 0 and 1 */
};

static void *feed_thread(void *arg)
{
	struct feeder *f = arg;
	unsigned int i;
	struct pnl p;

	if (pnl_open(&p)) {
		f->errs++;
		return NULL;
	}
	for (i = 0; !f->stop; i++) {
		unsigned int port = i % 2;

		if (tp_feed(ID, port, "egress", "posted", 4096 + i))
			f->errs++;
		else
			f->fed[port] += 4096 + i;
		if (inject1(&p, ID, port, PCIESW_COUNTER_CORRECTED_INTERNAL, 1))
			f->errs++;
		else
			f->injected[port]++;
	}
	pnl_close(&p);
	return NULL;
}

/* Re-bifurcating nvme while traffic runs on host and gpu ports. */
TEST_F(health, bifurcation_under_traffic)
{
	static const char *const cfgs[] = { "2x8", "16x1", "1x16", "8x2",
					    "4x4" };
	struct feeder f = { 0 };
	struct pnl_reply r;
	pthread_t th;
	unsigned int i, port;

	ASSERT_TRUE(tp_have_feed(ID))
		TH_LOG("no debugfs traffic knob (the module always has it)");
	ASSERT_EQ(0, pthread_create(&th, NULL, feed_thread, &f));
	for (i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		EXPECT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", cfgs[i],
					       &r)) TH_LOG("%s", cfgs[i]);
		pnl_reply_free(&r);
		tp_msleep(50);	/* paces the writer: traffic between changes */
	}
	f.stop = true;
	pthread_join(th, NULL);
	EXPECT_EQ(0U, f.errs);
	for (port = 0; port < 2; port++) {
		EXPECT_EQ((long long)f.fed[port],
			  ctr_val(&self->p, ID, port,
				  PCIESW_COUNTER_EGRESS_POSTED_BYTES));
		EXPECT_EQ((long long)f.injected[port],
			  ctr_val(&self->p, ID, port,
				  PCIESW_COUNTER_CORRECTED_INTERNAL));
	}
	/* the re-created nvme ports start from zero */
	for (port = 2; port < NPORTS; port++)
		EXPECT_EQ(0, ctr_val(&self->p, ID, port,
				     PCIESW_COUNTER_EGRESS_POSTED_BYTES));
}

/* ------------------------------------------------------------------ */

static void nobody_health(struct __test_metadata *_metadata)
{
	struct pnl_attr sw[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	const struct {
		const char *what;
		uint8_t cmd;
		struct pnl_attr req[5];
	} ops[] = {
		{ "inject", PCIESW_CMD_INJECT,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC), A_END } },
		{ "counter-clear port", PCIESW_CMD_COUNTER_CLEAR,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_END } },
		{ "counter-clear switch", PCIESW_CMD_COUNTER_CLEAR,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_END } },
		{ "threshold-set", PCIESW_CMD_THRESHOLD_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC),
		    A_U64(PCIESW_A_THRESHOLD_VALUE, 1), A_END } },
		{ "threshold remove", PCIESW_CMD_THRESHOLD_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC),
		    A_U64(PCIESW_A_THRESHOLD_VALUE, 0), A_END } },
		{ "port-set ber", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U64(PCIESW_A_PORT_BER, 1000), A_END } },
		{ "thermal-set", PCIESW_CMD_THERMAL_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_S32(PCIESW_A_THERMAL_AMBIENT, 20000), A_END } },
		{ "thermal-set override", PCIESW_CMD_THERMAL_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_S32(PCIESW_A_SENSOR_OVERRIDE, 99000), A_END } },
		{ "vpd-set", PCIESW_CMD_VPD_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_STR(PCIESW_A_VPD_KEYWORD, "YA"),
		    A_STR(PCIESW_A_VPD_VALUE, "x"), A_END } },
	};
	struct pnl_obj *o = malloc(sizeof(*o));
	struct pnl_reply r;
	unsigned int i;
	struct pnl p;
	int err;

	/* sysfs: reads yes, writes no */
	EXPECT_EQ(11, ctr_sysfs(ID, 1, PCIESW_COUNTER_ECRC));
	EXPECT_EQ(0, ctr_sysfs(ID, 1, PCIESW_COUNTER_INGRESS_POSTED_BYTES));
	err = port_write(ID, 1, "errors/clear", "1\n");
	EXPECT_EQ(-EACCES, err);
	err = port_write(ID, 1, "ber", "1000\n");
	EXPECT_EQ(-EACCES, err);

	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk || !o) {
		free(o);
		return;
	}
	EXPECT_EQ(0, ctr_get(&p, ID, 1, o));
	EXPECT_EQ(11ULL, o->ctr[PCIESW_COUNTER_ECRC]);
	EXPECT_EQ(0, ctr_get(&p, ID, -1, o));
	EXPECT_EQ(11ULL, o->ctr[PCIESW_COUNTER_ECRC]);
	EXPECT_EQ(0, tp_call(&p, PCIESW_CMD_COUNTER_GET, true, sw, &r));
	EXPECT_EQ(NPORTS, r.nobjs);
	pnl_reply_free(&r);
	EXPECT_EQ(0, tp_call(&p, PCIESW_CMD_THRESHOLD_GET, true, sw, &r));
	EXPECT_EQ(1U, r.nobjs);
	pnl_reply_free(&r);
	EXPECT_EQ(0, tp_do(&p, PCIESW_CMD_THERMAL_GET, sw, &r));
	pnl_reply_free(&r);
	/* VPD holds serial numbers: root-only, as the PCI core's vpd file */
	EXPECT_EQ(EPERM, tp_do(&p, PCIESW_CMD_VPD_GET, sw, &r));
	pnl_reply_free(&r);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		EXPECT_EQ(EPERM, tp_do(&p, ops[i].cmd, ops[i].req, &r))
			TH_LOG("%s", ops[i].what);
		pnl_reply_free(&r);
	}
	pnl_close(&p);
	free(o);
}

TEST_F(health, unprivileged)
{
	uint64_t exp[NPORTS][NCTR];

	if (geteuid() != 0)
		SKIP(return, "must start as root to drop to nobody");
	ASSERT_EQ(0, inject1(&self->p, ID, 1, PCIESW_COUNTER_ECRC, 11));
	ASSERT_EQ(0, thr_set1(&self->p, ID, 1, PCIESW_COUNTER_ECRC, 100));
	PCIESW_AS_NOBODY(nobody_health);
	/* nothing changed */
	memset(exp, 0, sizeof(exp));
	exp[1][PCIESW_COUNTER_ECRC] = 11;
	check_all(_metadata, self, exp, NPORTS, "after nobody");
}

TEST_HARNESS_MAIN
