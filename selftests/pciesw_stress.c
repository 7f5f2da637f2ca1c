// SPDX-License-Identifier: GPL-2.0
/*
 * The live topology under concurrency, for a bounded time (PCIESW_STRESS_MS,
 * default 4 s, 2.5 s on the debug kernel or with PCIESW_SLOW, longer, up
 * to 30 s, until at least 10 dumps and 10 changes were made):
 *  - two writers re-bifurcate the same lane group (netlink and sysfs,
 *    alternating configs) while readers dump the ports and read the port
 *    attributes of sysfs and a writer clears the ports' error counters
 *    (a store in a group directory, whose port the re-bifurcation
 *    removes): every dump is consistent (port ids 0..n-1, each group's
 *    ports tile the group in one of its allowed configs), every attribute
 *    well-formed, no store outlives its port's removal (a deadlock until
 *    the test's timeout), and afterwards the last config written is the
 *    one both views show;
 *  - hot-plug and unplug (netlink and sysfs) and link operations racing
 *    with endpoint/port dumps and sysfs reads of ports and endpoints;
 *  - rmmod while readers loop over port sysfs files and netlink dumps: it
 *    succeeds (retried while a dump holds the module), nothing oopses; the
 *    module is loaded again from PCIESW_KO for the runner.
 *
 * Threads use their own netlink sockets and only tp_req()-based calls, and
 * report through counters the main thread checks.
 *
 * Switch ids used here: 180-183.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "pciesw_topo.h"

#define ID		180U
#define ID_HP		181U
#define ID_RM		182U

static unsigned int run_ms(void)
{
	const char *e = getenv("PCIESW_STRESS_MS");

	if (e && atoi(e) > 0)
		return atoi(e);
	return tp_slow() ? 2500 : 4000;
}

static const char *const group_names[] = { "host", "gpu", "nvme" };
static const char *const allowed[3][6] = {
	{ "1x16", "1x8" },
	{ "1x16", "2x8", "4x4" },
	{ "1x16", "2x8", "4x4", "8x2", "16x1" },
};

/* Shared by the threads of a test. */
struct shared {
	atomic_bool stop;
	unsigned int id;
	unsigned int group;		/* the group being re-bifurcated */
	/* results */
	atomic_uint writes_nl, writes_sysfs, write_errs;
	atomic_uint dumps, dumps_intr, dumps_bad, dump_errs;
	atomic_uint reads, reads_bad, reads_gone;
	atomic_uint stores;
	atomic_uint hp_ops, hp_errs, link_ops;
	atomic_uint max_dgrams;		/* of a port dump */
	char bad[4][256];		/* the first problems seen */
	pthread_mutex_t lock;		/* protects bad */
};

static void report(struct shared *sh, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* no __printf in userspace */
static void report(struct shared *sh, const char *fmt, ...)
{
	va_list ap;

	unsigned int i;

	pthread_mutex_lock(&sh->lock);
	for (i = 0; i < 4 && sh->bad[i][0]; i++)
		;
	if (i < 4) {
		va_start(ap, fmt);
		vsnprintf(sh->bad[i], sizeof(sh->bad[i]), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&sh->lock);
}

/* Log the problems the threads reported; true if there were none. */
#define NO_PROBLEMS(sh) do {						\
		unsigned int _i;					\
									\
		EXPECT_EQ(0, (sh)->bad[0][0]);				\
		for (_i = 0; _i < 4 && (sh)->bad[_i][0]; _i++)		\
			TH_LOG("problem: %s", (sh)->bad[_i]);		\
	} while (0)

static bool cfg_allowed(unsigned int g, unsigned int n, unsigned int w)
{
	char cfg[16];
	unsigned int i;

	snprintf(cfg, sizeof(cfg), "%ux%u", n, w);
	for (i = 0; allowed[g][i]; i++)
		if (!strcmp(allowed[g][i], cfg))
			return true;
	return false;
}

/*
 * Is this port dump of a pex89048 consistent?  Port ids ascending, each the
 * documented number of its first lane (kmod/model/profile.c), each group's ports
 * tiling its 16 lanes in an allowed config, an endpoint name at most once.
 * NULL if so, else what is wrong.
 */
static const char *dump_problem(const struct pnl_obj *o, unsigned int n,
				char *why, size_t len)
{
	const struct exp_profile *exp = exp_profile("pex89048");
	unsigned int i, g, seen = 0;

	if (!n)
		return "empty dump";
	for (i = 0; i < n; i++) {
		unsigned int id = o[i].u[PCIESW_A_PORT_ID];
		unsigned int lane = o[i].u[PCIESW_A_PORT_FIRST_LANE];

		if (i && id <= o[i - 1].u[PCIESW_A_PORT_ID]) {
			snprintf(why, len, "dump #%u is port %u after %u", i,
				 id, o[i - 1].u[PCIESW_A_PORT_ID]);
			return why;
		}
		if (exp_port_at(exp, lane, NULL) != (int)id) {
			snprintf(why, len, "port %u starts at lane %u, numbered %d",
				 id, lane, exp_port_at(exp, lane, NULL));
			return why;
		}
	}
	for (g = 0; g < 3; g++) {
		unsigned int k = 0, w = 0, lane = 16 * g, j;

		/* the group's ports in lane order: find each next lane */
		for (;;) {
			for (j = 0; j < n; j++)
				if (o[j].u[PCIESW_A_GROUP_ID] == g &&
				    o[j].u[PCIESW_A_PORT_FIRST_LANE] == lane + k * w)
					break;
			if (j == n)
				break;
			if (!k)
				w = o[j].u[PCIESW_A_PORT_NR_LANES];
			if (!w || o[j].u[PCIESW_A_PORT_NR_LANES] != w) {
				snprintf(why, len,
					 "group %s: port %u lanes %u+%u, want x%u",
					 group_names[g], o[j].u[PCIESW_A_PORT_ID],
					 o[j].u[PCIESW_A_PORT_FIRST_LANE],
					 o[j].u[PCIESW_A_PORT_NR_LANES], w);
				return why;
			}
			k++;
			if (k * w >= 16)
				break;
		}
		if (!k || k * w != 16 || !cfg_allowed(g, k, w)) {
			snprintf(why, len,
				 "group %s: %u ports of x%u from lane %u (%u ports in the dump)",
				 group_names[g], k, w, lane, n);
			return why;
		}
		seen += k;
	}
	if (seen != n) {
		snprintf(why, len, "%u ports in the dump, %u in the groups", n,
			 seen);
		return why;
	}
	for (i = 0; i < n; i++) {
		unsigned int j;

		if (!pnl_has(&o[i], PCIESW_A_EP_NAME))
			continue;
		for (j = i + 1; j < n; j++)
			if (pnl_has(&o[j], PCIESW_A_EP_NAME) &&
			    !strcmp(o[i].s[PCIESW_A_EP_NAME],
				    o[j].s[PCIESW_A_EP_NAME])) {
				snprintf(why, len, "%.31s on ports %u and %u",
					 o[i].s[PCIESW_A_EP_NAME], i, j);
				return why;
			}
	}
	return NULL;
}

/* One port dump of sh->id, checked and counted. */
static void dump_once(struct shared *sh, struct pnl *p)
{
	struct tp_reply t;
	char why[256];
	const char *bad;
	int err = tp_ports(p, sh->id, &t);

	if (err) {
		atomic_fetch_add(&sh->dump_errs, 1);
		report(sh, "port dump: %s", strerror(err));
	} else if (t.intr) {
		/* the kernel said the dump was interrupted: allowed */
		atomic_fetch_add(&sh->dumps_intr, 1);
	} else {
		unsigned int m = atomic_load(&sh->max_dgrams);

		while (t.r.ndgrams > m &&
		       !atomic_compare_exchange_weak(&sh->max_dgrams, &m,
						     t.r.ndgrams))
			;
		atomic_fetch_add(&sh->dumps, 1);
		bad = dump_problem(t.r.objs, t.r.nobjs, why, sizeof(why));
		if (bad) {
			atomic_fetch_add(&sh->dumps_bad, 1);
			report(sh, "inconsistent port dump (%u datagrams): %s",
			       t.r.ndgrams, bad);
		}
	}
	tp_reply_free(&t);
}

static void *dumper(void *arg)
{
	struct shared *sh = arg;
	struct pnl p;

	if (pnl_open(&p)) {
		report(sh, "dumper: no netlink");
		return NULL;
	}
	while (!atomic_load(&sh->stop))
		dump_once(sh, &p);
	pnl_close(&p);
	return NULL;
}

/*
 * pnl_open() with a 4 KiB receive buffer and no MSG_PEEK from the start:
 * the kernel sizes dump skbs by the largest buffer the socket ever read
 * with.
 */
static int open_small(struct pnl *p)
{
	memset(p, 0, sizeof(*p));
	p->sk = nl_socket_alloc();
	if (!p->sk)
		return -ENOMEM;
	nl_socket_set_msg_buf_size(p->sk, 4096);
	nl_socket_disable_msg_peek(p->sk);
	if (genl_connect(p->sk)) {
		nl_socket_free(p->sk);
		p->sk = NULL;
		return -EIO;
	}
	pnl_set_timeout(p->sk, 10000);
	p->family = genl_ctrl_resolve(p->sk, PCIESW_FAMILY_NAME);
	if (p->family < 0) {
		nl_socket_free(p->sk);
		p->sk = NULL;
		return -ENOENT;
	}
	return 0;
}

/*
 * The same with a 4 KiB receive buffer (no MSG_PEEK): the kernel then
 * fills 4 KiB skbs, and a dump of 18 ports takes several.
 */
static void *small_dumper(void *arg)
{
	struct shared *sh = arg;
	struct pnl p;

	if (open_small(&p)) {
		report(sh, "dumper: no netlink");
		return NULL;
	}
	while (!atomic_load(&sh->stop))
		dump_once(sh, &p);
	pnl_close(&p);
	return NULL;
}

static bool one_of(const char *v, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(v, *set))
			return true;
	return false;
}

/*
 * Read the attributes of the port devices that may exist; a port that
 * went away (ENOENT, ENODEV) is fine, a malformed value is not.
 */
static void *sysfs_reader(void *arg)
{
	static const char *const ltssm[] = {
		"detect", "polling", "configuration", "l0", "recovery", "l1",
		"disabled", "hot-reset", NULL };
	static const char *const speeds[] = {
		"Unknown", "2.5 GT/s PCIe", "5.0 GT/s PCIe", "8.0 GT/s PCIe",
		"16.0 GT/s PCIe", "32.0 GT/s PCIe", NULL };
	static const char *const updown[] = { "up", "down", NULL };
	static const char *const widths[] = { "0", "1", "2", "4", "8", "16",
					      NULL };
	struct shared *sh = arg;
	char buf[4096];
	unsigned int port = 0;

	while (!atomic_load(&sh->stop)) {
		static const char *const attrs[] = {
			"ltssm_state", "current_link_speed",
			"current_link_width", "link_state", "lanes",
			"endpoint", "ltssm_history", "max_link_width",
			"port_id", NULL };
		unsigned int a;

		for (a = 0; attrs[a]; a++) {
			int err = port_attr(sh->id, port, attrs[a], buf,
					    sizeof(buf));
			bool ok = true;
			unsigned int x, y;

			if (err == -ENOENT || err == -ENODEV) {
				atomic_fetch_add(&sh->reads_gone, 1);
				continue;
			}
			if (err) {
				report(sh, "port%u/%s: %s", port, attrs[a],
				       strerror(-err));
				atomic_fetch_add(&sh->reads_bad, 1);
				continue;
			}
			atomic_fetch_add(&sh->reads, 1);
			switch (a) {
			case 0:
				ok = one_of(buf, ltssm);
				break;
			case 1:
				ok = one_of(buf, speeds);
				break;
			case 2:
			case 7:
				ok = one_of(buf, widths);
				break;
			case 3:
				ok = one_of(buf, updown);
				break;
			case 4:
				ok = sscanf(buf, "%u-%u", &x, &y) == 2 &&
				     x <= y && y < 48;
				break;
			case 8:
				ok = (unsigned int)atoi(buf) == port;
				break;
			default:
				break;
			}
			if (!ok) {
				report(sh, "port%u/%s: '%.200s'", port,
				       attrs[a], buf);
				atomic_fetch_add(&sh->reads_bad, 1);
			}
		}
		port = (port + 1) % 24;
	}
	return NULL;
}

/*
 * Clear the error counters of every port that may exist: errors/clear is
 * in a group directory of the port, and a store on it waits for the views
 * while the port's own removal may be queued ahead.
 */
static void *store_writer(void *arg)
{
	struct shared *sh = arg;
	unsigned int port = 0;

	while (!atomic_load(&sh->stop)) {
		int err = port_write(sh->id, port, "errors/clear", "1\n");

		if (!err) {
			atomic_fetch_add(&sh->stores, 1);
		} else if (err == -ENOENT || err == -ENODEV) {
			atomic_fetch_add(&sh->reads_gone, 1);
		} else {
			report(sh, "port%u/errors/clear: %s", port,
			       strerror(-err));
			atomic_fetch_add(&sh->reads_bad, 1);
		}
		port = (port + 1) % 24;
	}
	return NULL;
}

/* Re-bifurcate sh->group through netlink, through the configs in @arg. */
struct writer {
	struct shared *sh;
	bool sysfs;
	const char *const *cfgs;
};

static void *writer(void *arg)
{
	struct writer *w = arg;
	struct shared *sh = w->sh;
	struct pnl p;
	unsigned int i = 0;

	if (!w->sysfs && pnl_open(&p)) {
		report(sh, "writer: no netlink");
		return NULL;
	}
	while (!atomic_load(&sh->stop)) {
		const char *cfg = w->cfgs[i++];
		struct pnl_reply r;
		char buf[32];
		int err;

		if (!w->cfgs[i])
			i = 0;
		if (w->sysfs) {
			snprintf(buf, sizeof(buf), "%s\n", cfg);
			err = -group_write_config(sh->id,
						  group_names[sh->group], buf);
		} else {
			err = tp_group_set_name(&p, sh->id,
						group_names[sh->group], cfg,
						&r);
			pnl_reply_free(&r);
		}
		if (err) {
			atomic_fetch_add(&sh->write_errs, 1);
			report(sh, "%s %s: %s", w->sysfs ? "sysfs" : "netlink",
			       cfg, strerror(err));
		} else {
			atomic_fetch_add(w->sysfs ? &sh->writes_sysfs :
				   &sh->writes_nl, 1);
		}
	}
	if (!w->sysfs)
		pnl_close(&p);
	return NULL;
}

static void run_threads(pthread_t *t, unsigned int n,
			void *(**fn)(void *), void **arg, struct shared *sh)
{
	unsigned int i;

	uint64_t end;

	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, fn[i], arg[i]);
	usleep(run_ms() * 1000);	/* how long the race runs */
	/* a slow kernel: a little longer, until something raced at all */
	end = tp_now_ns() + 30 * 1000000000ULL;
	while (tp_now_ns() < end &&
	       (atomic_load(&sh->dumps) + atomic_load(&sh->dumps_intr) < 10 ||
		atomic_load(&sh->writes_nl) + atomic_load(&sh->writes_sysfs) +
		atomic_load(&sh->hp_ops) < 10))
		usleep(10000);	/* polls the race counters */
	atomic_store(&sh->stop, true);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static struct shared *shared_new(unsigned int id, unsigned int group)
{
	struct shared *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	sh->id = id;
	sh->group = group;
	pthread_mutex_init(&sh->lock, NULL);
	return sh;
}

/* ------------------------------------------------------------------ */

FIXTURE(groups)
{
	struct pnl p;
	struct shared *sh;
};

FIXTURE_VARIANT(groups)
{
	unsigned int group;
	const char *nl_cfgs[4];
	const char *sysfs_cfgs[4];
	const char *last_sysfs, *last_nl;
};

/* the last group: its ports are the last ones */
FIXTURE_VARIANT_ADD(groups, nvme) {
	.group = 2,
	.nl_cfgs = { "1x16", "16x1", "2x8" },
	.sysfs_cfgs = { "8x2", "4x4", "16x1" },
	.last_sysfs = "2x8", .last_nl = "8x2",
};

/* a middle group: the nvme ports keep their numbers through every change */
FIXTURE_VARIANT_ADD(groups, gpu) {
	.group = 1,
	.nl_cfgs = { "4x4", "1x16" },
	.sysfs_cfgs = { "2x8", "4x4" },
	.last_sysfs = "4x4", .last_nl = "2x8",
};

/*
 * Fill the LTSSM histories of the ports outside group @g (hot resets: 5
 * transitions each), so that port dumps are big and take several skbs.
 */
static bool grow_histories(struct pnl *p, unsigned int id, unsigned int g)
{
	struct tp_reply t;
	unsigned int round, i;

	for (round = 0; round < 13; round++) {
		if (tp_ports(p, id, &t))
			return false;
		for (i = 0; i < t.r.nobjs; i++) {
			const struct pnl_obj *o = &t.r.objs[i];

			if (o->u[PCIESW_A_GROUP_ID] != g &&
			    (!o->u[PCIESW_A_GROUP_ID] ||
			     pnl_has(o, PCIESW_A_EP_ID)))
				tp_port_set1(p, id, o->u[PCIESW_A_PORT_ID],
					     (struct pnl_attr)A_FLAG(
						PCIESW_A_PORT_HOT_RESET));
		}
		tp_reply_free(&t);
		if (!tp_wait_trained(p, id))
			return false;
	}
	return true;
}

FIXTURE_SETUP(groups)
{
	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID, NULL));
	ASSERT_TRUE(grow_histories(&self->p, ID, variant->group));
	self->sh = shared_new(ID, variant->group);
	ASSERT_NE(NULL, self->sh);
}

FIXTURE_TEARDOWN(groups)
{
	free(self->sh);
	pnl_close(&self->p);
	if (sw_exists(ID))
		sw_del(ID);
}

/* The group's config, the same in netlink and sysfs. */
static void check_config(struct __test_metadata *_metadata, struct pnl *p,
			 unsigned int g, const char *want)
{
	char cfg[16], buf[32];

	ASSERT_EQ(0, tp_group_config(p, ID, g, cfg));
	EXPECT_STREQ(want, cfg);
	ASSERT_EQ(0, group_attr(ID, group_names[g], "config", buf,
				sizeof(buf)));
	EXPECT_STREQ(want, buf);
}

TEST_F_TIMEOUT(groups, writers_and_readers, 90)
{
	struct writer wn = { self->sh, false, variant->nl_cfgs };
	struct writer ws = { self->sh, true, variant->sysfs_cfgs };
	void *(*fn[])(void *) = { writer, writer, dumper, small_dumper,
				  sysfs_reader, store_writer };
	void *arg[] = { &wn, &ws, self->sh, self->sh, self->sh, self->sh };
	struct shared *sh = self->sh;
	struct tp_reply t;
	char buf[32], why[256];
	pthread_t th[6];

	run_threads(th, 6, fn, arg, sh);
	TH_LOG("writes %u netlink + %u sysfs (%u failed); dumps %u (%u interrupted, "
	       "%u inconsistent, %u failed, up to %u datagrams); sysfs reads %u, "
	       "stores %u (%u gone, %u bad)",
	       sh->writes_nl, sh->writes_sysfs, sh->write_errs, sh->dumps,
	       sh->dumps_intr, sh->dumps_bad, sh->dump_errs, sh->max_dgrams,
	       sh->reads, sh->stores, sh->reads_gone, sh->reads_bad);
	NO_PROBLEMS(sh);
	EXPECT_LT(0U, sh->writes_nl);
	EXPECT_LT(0U, sh->writes_sysfs);
	EXPECT_LT(0U, sh->dumps + sh->dumps_intr);
	EXPECT_LT(0U, sh->reads);
	EXPECT_LT(0U, sh->stores);
	EXPECT_EQ(0U, sh->write_errs);
	EXPECT_EQ(0U, sh->dumps_bad);
	EXPECT_EQ(0U, sh->dump_errs);
	EXPECT_EQ(0U, sh->reads_bad);

	/* the last config written wins, in both views, either way */
	snprintf(buf, sizeof(buf), "%s\n", variant->last_sysfs);
	ASSERT_EQ(0, group_write_config(ID, group_names[variant->group], buf));
	check_config(_metadata, &self->p, variant->group, variant->last_sysfs);
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID,
				       group_names[variant->group],
				       variant->last_nl, &t.r));
	pnl_reply_free(&t.r);
	check_config(_metadata, &self->p, variant->group, variant->last_nl);
	/* and the switch is whole: consistent, trained */
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	ASSERT_EQ(0, tp_ports(&self->p, ID, &t));
	EXPECT_TRUE(!dump_problem(t.r.objs, t.r.nobjs, why, sizeof(why)))
		TH_LOG("%s", why);
	EXPECT_EQ((long)t.r.nobjs, sw_attr_u32(ID, "nr_ports"));
	tp_reply_free(&t);
}

/*
 * The same race made deterministic: a port dump read one datagram at a
 * time (4 KiB), the group re-bifurcated after the first one.  The kernel
 * fills the next skb while the previous one is read, so the dump's first
 * two datagrams show the old layout and the rest the new one: unless the
 * kernel marks the dump NLM_F_DUMP_INTR, it must be consistent.
 */
TEST_F(groups, torn_dump)
{
	const char *from = variant->group == 2 ? "16x1" : "4x4";
	struct pnl_obj *objs = calloc(64, sizeof(*objs));
	unsigned int n = 0, dgrams = 0;
	bool done = false, intr = false;
	char buf[8192], why[256];
	struct pnl_reply r;
	struct nl_msg *msg;
	struct pnl small;
	int fd;

	ASSERT_NE(NULL, objs);
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID,
				       group_names[variant->group], from, &r));
	pnl_reply_free(&r);
	/* every port with a long history: a dump of many datagrams */
	ASSERT_TRUE(grow_histories(&self->p, ID, 99));
	ASSERT_EQ(0, open_small(&small));
	fd = nl_socket_get_fd(small.sk);

	msg = nlmsg_alloc();
	ASSERT_NE(NULL, msg);
	ASSERT_NE(NULL, genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
				    small.family, 0, NLM_F_DUMP,
				    PCIESW_CMD_PORT_GET,
				    PCIESW_FAMILY_VERSION));
	ASSERT_EQ(0, nla_put_u32(msg, PCIESW_A_SWITCH_ID, ID));
	ASSERT_LT(0, nl_send_auto(small.sk, msg));
	nlmsg_free(msg);

	while (!done) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		int rem = len;

		ASSERT_LT(0, len) TH_LOG("recv: %s", strerror(errno));
		dgrams++;
		for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (nlh->nlmsg_type == NLMSG_DONE ||
			    nlh->nlmsg_type == NLMSG_ERROR) {
				done = true;
				break;
			}
			if (n < 64)
				pnl_decode(nlh, &objs[n++]);
		}
		if (dgrams == 1) {
			/* re-bifurcate between the datagrams */
			ASSERT_EQ(0, tp_group_set_name(&self->p, ID,
						       group_names[variant->group],
						       "1x16", &r));
			pnl_reply_free(&r);
		}
	}
	TH_LOG("%u ports in %u datagrams%s", n, dgrams,
	       intr ? ", NLM_F_DUMP_INTR" : "");
	if (!intr)
		EXPECT_TRUE(!dump_problem(objs, n, why, sizeof(why)))
			TH_LOG("a dump that is not marked interrupted: %s",
			       why);
	pnl_close(&small);
	free(objs);
}

/* ------------------------------------------------------------------ */
/* Hot-plug races                                                      */

/* Plug and unplug on ports [lo, hi) of sh->id, netlink or sysfs. */
struct plugger {
	struct shared *sh;
	bool sysfs;
	unsigned int lo, hi;
	unsigned int seed;
};

static void *plugger(void *arg)
{
	struct plugger *pl = arg;
	struct shared *sh = pl->sh;
	struct pnl p;

	if (pnl_open(&p)) {
		report(sh, "plugger: no netlink");
		return NULL;
	}
	while (!atomic_load(&sh->stop)) {
		unsigned int port = pl->lo + rand_r(&pl->seed) % (pl->hi - pl->lo);
		struct pnl_obj o;
		int err;

		if (tp_port_get(&p, sh->id, port, &o, NULL))
			continue;
		if (pnl_has(&o, PCIESW_A_EP_NAME)) {
			err = pl->sysfs ? -port_write(sh->id, port, "ep_remove",
						      "1\n") :
					  tp_ep_del_name(&p, sh->id,
							 o.s[PCIESW_A_EP_NAME]);
		} else {
			static const char *const types[] = { "gpu", "nvme",
							     "generic" };
			unsigned int t = rand_r(&pl->seed) % 3;

			err = pl->sysfs ? -port_write(sh->id, port, "ep_add",
						      types[t]) :
					  tp_ep_add(&p, sh->id, port, t + 1, 0,
						    1u << (rand_r(&pl->seed) % 5),
						    NULL, NULL);
		}
		/* only this thread touches these ports */
		if (err) {
			atomic_fetch_add(&sh->hp_errs, 1);
			report(sh, "%s hot-plug on port %u: %s",
			       pl->sysfs ? "sysfs" : "netlink", port,
			       strerror(err));
		}
		atomic_fetch_add(&sh->hp_ops, 1);
	}
	pnl_close(&p);
	return NULL;
}

/* Link operations on random nvme ports; refusals are fine. */
static void *linker(void *arg)
{
	struct plugger *pl = arg;
	struct shared *sh = pl->sh;
	struct pnl p;

	if (pnl_open(&p))
		return NULL;
	while (!atomic_load(&sh->stop)) {
		unsigned int port = pl->lo + rand_r(&pl->seed) % (pl->hi - pl->lo);
		struct pnl_attr a[] = {
			A_FLAG(PCIESW_A_PORT_RETRAIN),
			A_FLAG(PCIESW_A_PORT_HOT_RESET),
			A_FLAG(PCIESW_A_PORT_SURPRISE_DOWN_NOW),
			A_U32(PCIESW_A_PORT_FAILED_LANES, 0),
			A_U32(PCIESW_A_PORT_FAILED_LANES, 1),
			A_U8(PCIESW_A_PORT_ENABLED, 1),
			A_U8(PCIESW_A_PORT_ACS_REDIRECT, 1),
		};

		tp_port_set1(&p, sh->id, port, a[rand_r(&pl->seed) % 7]);
		atomic_fetch_add(&sh->link_ops, 1);
	}
	pnl_close(&p);
	return NULL;
}

/* Endpoint dumps: ids increasing, names and ports unique, ports valid. */
static void *ep_dumper(void *arg)
{
	struct shared *sh = arg;
	struct pnl p;

	if (pnl_open(&p))
		return NULL;
	while (!atomic_load(&sh->stop)) {
		struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, sh->id),
					  A_END };
		struct pnl_reply r;
		unsigned int i, j;
		int err = tp_call(&p, PCIESW_CMD_EP_GET, true, req, &r);

		if (err) {
			report(sh, "ep dump: %s", strerror(err));
			atomic_fetch_add(&sh->dump_errs, 1);
		}
		for (i = 0; !err && i < r.nobjs; i++) {
			const struct pnl_obj *o = &r.objs[i];

			/* nvme 16x1 on pex89048: ports 1-5, 9-20 */
			if (o->u[PCIESW_A_PORT_ID] < 1 ||
			    o->u[PCIESW_A_PORT_ID] > 20 ||
			    (o->u[PCIESW_A_PORT_ID] >= 6 &&
			     o->u[PCIESW_A_PORT_ID] <= 8))
				report(sh, "ep %.31s on port %u",
				       o->s[PCIESW_A_EP_NAME],
				       o->u[PCIESW_A_PORT_ID]);
			for (j = i + 1; j < r.nobjs; j++) {
				const struct pnl_obj *q = &r.objs[j];

				if (q->u[PCIESW_A_EP_ID] <= o->u[PCIESW_A_EP_ID] ||
				    !strcmp(q->s[PCIESW_A_EP_NAME],
					    o->s[PCIESW_A_EP_NAME]) ||
				    q->u[PCIESW_A_PORT_ID] ==
				    o->u[PCIESW_A_PORT_ID]) {
					atomic_fetch_add(&sh->dumps_bad, 1);
					report(sh, "ep dump (%u datagrams): #%u and #%u "
					       "(%.31s id %u port %u, %.31s id %u port %u)",
					       r.ndgrams, i, j,
					       o->s[PCIESW_A_EP_NAME],
					       o->u[PCIESW_A_EP_ID],
					       o->u[PCIESW_A_PORT_ID],
					       q->s[PCIESW_A_EP_NAME],
					       q->u[PCIESW_A_EP_ID],
					       q->u[PCIESW_A_PORT_ID]);
				}
			}
		}
		if (!err)
			atomic_fetch_add(&sh->dumps, 1);
		pnl_reply_free(&r);
		dump_once(sh, &p);
	}
	pnl_close(&p);
	return NULL;
}

/* sysfs of endpoint devices that come and go. */
static void *ep_reader(void *arg)
{
	struct shared *sh = arg;
	unsigned int k = 0;

	while (!atomic_load(&sh->stop)) {
		static const char *const types[] = { "gpu", "nvme", "generic" };
		static const char *const attrs[] = { "name", "port", "type",
						     "mem_size", "id" };
		char name[32], buf[64];
		unsigned int a;

		snprintf(name, sizeof(name), "%s%u", types[k % 3], k / 3 % 12);
		for (a = 0; a < 5; a++) {
			int err = ep_attr(sh->id, name, attrs[a], buf,
					  sizeof(buf));

			if (err == -ENOENT || err == -ENODEV) {
				atomic_fetch_add(&sh->reads_gone, 1);
				continue;
			}
			if (err || (a == 0 && strcmp(buf, name)) ||
			    (a == 2 && strcmp(buf, types[k % 3]))) {
				report(sh, "%s/%s: %s '%s'", name, attrs[a],
				       strerror(-err), buf);
				atomic_fetch_add(&sh->reads_bad, 1);
				continue;
			}
			atomic_fetch_add(&sh->reads, 1);
		}
		k++;
	}
	return NULL;
}

FIXTURE(hp)
{
	struct pnl p;
	struct shared *sh;
};

FIXTURE_SETUP(hp)
{
	struct pnl_reply r;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID_HP, NULL));
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID_HP, "nvme", "16x1", &r));
	pnl_reply_free(&r);
	self->sh = shared_new(ID_HP, 2);
	ASSERT_NE(NULL, self->sh);
}

FIXTURE_TEARDOWN(hp)
{
	free(self->sh);
	pnl_close(&self->p);
	if (sw_exists(ID_HP))
		sw_del(ID_HP);
}

TEST_F_TIMEOUT(hp, plug_unplug_under_readers, 90)
{
	struct shared *sh = self->sh;
	/* nvme 16x1: ports 2-5 and 9-20 (physical numbers); 6-8 are gpu's */
	struct plugger nl = { sh, false, 9, 15, 1 };
	struct plugger sy = { sh, true, 15, 21, 2 };
	struct plugger lk = { sh, false, 9, 21, 3 };
	void *(*fn[])(void *) = { plugger, plugger, linker, ep_dumper,
				  small_dumper, sysfs_reader, ep_reader };
	void *arg[] = { &nl, &sy, &lk, sh, sh, sh, sh };
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID_HP), A_END };
	struct pnl_reply eps;
	struct tp_reply t;
	pthread_t th[7];
	unsigned int i, n = 0;
	char buf[64];

	run_threads(th, 7, fn, arg, sh);
	TH_LOG("hot-plug ops %u (%u failed), link ops %u; dumps %u (%u interrupted, "
	       "%u inconsistent, %u failed, up to %u datagrams); sysfs reads %u "
	       "(%u gone, %u bad)",
	       sh->hp_ops, sh->hp_errs, sh->link_ops, sh->dumps,
	       sh->dumps_intr, sh->dumps_bad, sh->dump_errs, sh->max_dgrams,
	       sh->reads, sh->reads_gone, sh->reads_bad);
	NO_PROBLEMS(sh);
	EXPECT_LT(0U, sh->hp_ops);
	EXPECT_EQ(0U, sh->hp_errs);
	EXPECT_EQ(0U, sh->dumps_bad);
	EXPECT_EQ(0U, sh->reads_bad);

	/* the views agree on what is plugged in where */
	ASSERT_EQ(0, tp_ports(&self->p, ID_HP, &t));
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET, req, &eps));
	for (i = 0; i < t.r.nobjs; i++) {
		const struct pnl_obj *o = &t.r.objs[i];
		unsigned int id = o->u[PCIESW_A_PORT_ID];

		EXPECT_EQ(0, port_attr(ID_HP, id, "endpoint", buf,
				       sizeof(buf)));
		if (!pnl_has(o, PCIESW_A_EP_NAME)) {
			EXPECT_STREQ("", buf) TH_LOG("port %u", id);
			continue;
		}
		n++;
		EXPECT_STREQ(o->s[PCIESW_A_EP_NAME], buf) TH_LOG("port %u", id);
		EXPECT_TRUE(ep_dev_exists(ID_HP, buf)) TH_LOG("%s", buf);
		EXPECT_EQ(0, ep_attr(ID_HP, buf, "port", buf, sizeof(buf)));
		EXPECT_EQ(id, (unsigned int)atoi(buf));
	}
	EXPECT_EQ(n, eps.nobjs);
	EXPECT_EQ((int)n, sysfs_nr_endpoints(ID_HP));
	pnl_reply_free(&eps);
	tp_reply_free(&t);
}

/* ------------------------------------------------------------------ */
/* rmmod under readers                                                 */

/* Every attribute of every port device of every switch, in a loop. */
static void *all_sysfs_reader(void *arg)
{
	struct shared *sh = arg;
	char path[PATH_MAX], buf[4096];

	while (!atomic_load(&sh->stop)) {
		DIR *d = opendir(PCIESW_DEVS);
		struct dirent *de;

		if (!d) {
			usleep(1000);	/* paces the reader: the module is out */
			continue;
		}
		while ((de = readdir(d)) && !atomic_load(&sh->stop)) {
			DIR *pd;
			struct dirent *ae;

			if (!strstr(de->d_name, "-port"))
				continue;
			snprintf(path, sizeof(path), PCIESW_DEVS "/%s",
				 de->d_name);
			pd = opendir(path);
			if (!pd)
				continue;
			while ((ae = readdir(pd))) {
				char file[PATH_MAX + 300];
				int err;

				if (ae->d_name[0] == '.' ||
				    !strncmp(ae->d_name, "ep_", 3) ||
				    ae->d_type != DT_REG)
					continue;
				snprintf(file, sizeof(file), "%s/%s", path,
					 ae->d_name);
				err = sysfs_read(file, buf, sizeof(buf));
				if (!err)
					atomic_fetch_add(&sh->reads, 1);
				else if (err == -ENOENT || err == -ENODEV)
					atomic_fetch_add(&sh->reads_gone, 1);
				else if (err != -EACCES)
					report(sh, "%s: %s", file,
					       strerror(-err));
			}
			closedir(pd);
		}
		closedir(d);
	}
	return NULL;
}

/* Port and group dumps of all switches, the family coming and going. */
static void *all_dumper(void *arg)
{
	struct shared *sh = arg;

	while (!atomic_load(&sh->stop)) {
		struct pnl_reply r;
		struct pnl p;

		if (pnl_open(&p)) {
			usleep(1000);	/* paces the dumper: the module is out */
			continue;
		}
		pnl_set_timeout(p.sk, 2000);
		while (!atomic_load(&sh->stop)) {
			int err = tp_call(&p, PCIESW_CMD_PORT_GET, true, NULL,
					  &r);

			pnl_reply_free(&r);
			if (!err)
				err = tp_call(&p, PCIESW_CMD_GROUP_GET, true,
					      NULL, &r);
			pnl_reply_free(&r);
			if (err)
				break;	/* the family went away */
			atomic_fetch_add(&sh->dumps, 1);
		}
		pnl_close(&p);
	}
	return NULL;
}

/* A port attribute held open and read again and again. */
static void *held_reader(void *arg)
{
	struct shared *sh = arg;
	char buf[4096];
	int fd;

	fd = open(PCIESW_DEVS "/pciesw182-port1/ltssm_history", O_RDONLY);
	if (fd < 0) {
		report(sh, "open ltssm_history: %s", strerror(errno));
		return NULL;
	}
	while (!atomic_load(&sh->stop)) {
		ssize_t n = pread(fd, buf, sizeof(buf), 0);

		if (n < 0 && errno != ENODEV)
			report(sh, "held ltssm_history: %s", strerror(errno));
		if (n < 0)
			usleep(1000);	/* paces the reader: the switch is gone */
	}
	close(fd);
	return NULL;
}

FIXTURE(rm)
{
	struct pnl p;
	struct shared *sh;
	const char *ko;
};

FIXTURE_SETUP(rm)
{
	self->ko = getenv("PCIESW_KO");
	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_TRUE(self->ko && !access(self->ko, R_OK))
		TH_LOG("PCIESW_KO does not name the module file (the runner sets it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID_RM, NULL));
	/* a big card beside the default one: pex89048 on the debug plan */
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID_RM + 1,
				     tp_reduce_profile("pex89144", "pex89048",
						       "rmmod under readers, the big card")));
	self->sh = shared_new(ID_RM, 2);
	ASSERT_NE(NULL, self->sh);
}

FIXTURE_TEARDOWN(rm)
{
	free(self->sh);
	pnl_close(&self->p);
	/* whatever happened, leave the module loaded for the runner */
	if (self->ko && !pciesw_present())
		tp_load_module(self->ko, "");
	if (sw_exists(ID_RM))
		sw_del(ID_RM);
	if (sw_exists(ID_RM + 1))
		sw_del(ID_RM + 1);
}

TEST_F_TIMEOUT(rm, rmmod_under_readers, 90)
{
	void *(*fn[])(void *) = { all_sysfs_reader, all_sysfs_reader,
				  all_dumper, all_dumper, held_reader };
	struct shared *sh = self->sh;
	unsigned int i, tries = 0;
	uint64_t end;
	pthread_t th[5];
	int err = -1;

	pnl_close(&self->p);	/* our own socket must not matter either */
	for (i = 0; i < 5; i++)
		pthread_create(&th[i], NULL, fn[i], sh);
	/* the readers are going (bounded: the debug kernel is slow) */
	end = tp_now_ns() + 20 * 1000000000ULL;
	usleep(run_ms() * 1000 / 4);	/* how long they read before rmmod */
	while ((!sh->reads || !sh->dumps) && tp_now_ns() < end)
		usleep(10000);	/* polls the read counters */
	ASSERT_LT(0U, sh->reads);
	ASSERT_LT(0U, sh->dumps);

	/* rmmod: refused only while a dump holds the module */
	end = tp_now_ns() + 30 * 1000000000ULL;
	while (tp_now_ns() < end) {
		tries++;
		if (syscall(SYS_delete_module, "pciesw", O_NONBLOCK) == 0) {
			err = 0;
			break;
		}
		err = errno;
		if (err != EAGAIN && err != EWOULDBLOCK && err != EBUSY)
			break;
		usleep(2000);	/* retries while a dump holds the module */
	}
	EXPECT_EQ(0, err) TH_LOG("delete_module after %u tries: %s", tries,
				 strerror(err));
	TH_LOG("rmmod after %u tries; %u sysfs reads (%u gone), %u dumps",
	       tries, sh->reads, sh->reads_gone, sh->dumps);
	/* the readers keep going against nothing for a while (on purpose) */
	usleep(200 * 1000);
	atomic_store(&sh->stop, true);
	for (i = 0; i < 5; i++)
		pthread_join(th[i], NULL);
	NO_PROBLEMS(sh);
	EXPECT_FALSE(pciesw_present());
	EXPECT_NE(0, access("/sys/module/pciesw", F_OK));
	EXPECT_FALSE(sw_exists(ID_RM));

	/* and it loads again, with the runner's arguments */
	err = tp_load_module(self->ko, "");
	EXPECT_EQ(0, err) TH_LOG("finit_module: %s", strerror(-err));
	EXPECT_TRUE(pciesw_present());
	EXPECT_TRUE(sw_exists(0));
}

TEST_HARNESS_MAIN
