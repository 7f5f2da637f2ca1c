// SPDX-License-Identifier: GPL-2.0
/*
 * The P2P DMA engine through /dev/pcieswN: data integrity on every route
 * (ep->ep direct and through the host bridge, host->ep, ep->host, inside
 * one endpoint) from 1 byte to 64 MiB at unaligned offsets; every submit
 * error of the uAPI with nothing moved; read()/poll(); the ACS routing
 * table against p2p-check; traffic counters exact on every port; the
 * bandwidth model and pacing; settings refused while busy; unplug, close,
 * switch removal and rmmod with DMA in flight; each descriptor completing
 * exactly once; the file mode (O_RDONLY, O_WRONLY) for DMA and mmap; the
 * device node closed to nobody.
 *
 * Default card (pex89048): port 0 upstream (Gen5 x16 to the host), port 1
 * gpu0 (x16), ports 2-5 nvme0-3 (x4).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>

#include "pciesw_dma.h"

#define ID		60U
#define NPORTS		6U
#define NCTR		(PCIESW_COUNTER_MAX + 1U)
#define WAIT_MS		20000	/* for a completion: TCG debug is slow */
#define UP		0U	/* the upstream port */
#define MPS		256U	/* the default */

struct env {
	struct pnl p;
	int fd;
	uint32_t gpu, nvme[4];		/* endpoint ids */
	unsigned int gpu_port, nvme_port[4];
};

static long ep_port(const char *ep)
{
	char buf[32];

	if (ep_attr(ID, ep, "port", buf, sizeof(buf)) || !buf[0])
		return -1;
	return strtol(buf, NULL, 10);
}

static void env_setup(struct __test_metadata *_metadata, struct env *e)
{
	struct pciesw_dma_submit s;
	char path[32], name[8];
	long v;
	int i;

	e->fd = -1;
	ASSERT_TRUE(pciesw_present());
	ASSERT_EQ(0, pnl_open(&e->p));
	ASSERT_EQ(0, tp_switch_fresh(&e->p, ID, NULL));
	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	e->fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, e->fd);
	v = dma_ep_id(ID, "gpu0");
	ASSERT_LE(0, v);
	e->gpu = v;
	e->gpu_port = ep_port("gpu0");
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "nvme%d", i);
		v = dma_ep_id(ID, name);
		ASSERT_LE(0, v);
		e->nvme[i] = v;
		e->nvme_port[i] = ep_port(name);
	}
	ASSERT_EQ(1U, e->gpu_port);
	ASSERT_EQ(2U, e->nvme_port[0]);
	/* the DMA engine is there: a batch of 0 is not ENOTTY */
	dma_submit_init(&s, NULL, 0);
	ASSERT_NE(-ENOTTY, dma_submit_raw(e->fd, &s))
		TH_LOG("PCIESW_IOC_DMA_SUBMIT is ENOTTY: no DMA engine");
}

static void env_teardown(struct env *e)
{
	if (e->fd >= 0)
		close(e->fd);
	sw_del(ID);
	pnl_close(&e->p);
}

/* The id of the endpoint a variant names (-1: the host). */
enum { HOST = -1, GPU = 0, NVME0, NVME1, NVME2 };

static uint32_t loc_ep(const struct env *e, int who)
{
	return who == HOST ? PCIESW_DMA_HOST :
	       who == GPU ? e->gpu : e->nvme[who - NVME0];
}

static unsigned int loc_port(const struct env *e, int who)
{
	return who == HOST ? UP :
	       who == GPU ? e->gpu_port : e->nvme_port[who - NVME0];
}

/* ------------------------------------------------------------------ */
/* Counters: snapshots of every port, expected deltas                  */

struct snap {
	uint64_t c[NPORTS][NCTR];
};

static void snap_take(struct __test_metadata *_metadata, struct env *e,
		      struct snap *s)
{
	struct pnl_obj *o = malloc(sizeof(*o));
	unsigned int port;

	ASSERT_NE(NULL, o);
	for (port = 0; port < NPORTS; port++) {
		ASSERT_EQ(0, ctr_get(&e->p, ID, port, o));
		ASSERT_EQ((1ULL << NCTR) - 1, o->ctr_mask);
		memcpy(s->c[port], o->ctr, sizeof(s->c[port]));
	}
	free(o);
}

/*
 * Wait until the switch has no descriptor in flight (its dma-inflight is
 * 0): 5 s, 25 s on the debug kernel.
 */
static bool wait_inflight_0(struct env *e)
{
	struct tp_poll w;

	tp_poll_start(&w, 5000);
	do {
		if (dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_DMA_INFLIGHT) == 0)
			return true;
	} while (tp_poll_next(&w));
	return false;
}

/*
 * Wait until port @port has sent more posted bytes than @since: a copy to
 * the endpoint behind it is under way (the engine counts each chunk as it
 * moves it).
 */
static bool wait_moving(struct env *e, unsigned int port, uint64_t since)
{
	const unsigned int c = PCIESW_COUNTER_EGRESS_POSTED_BYTES;
	struct tp_poll w;

	tp_poll_start(&w, 5000);
	do {
		long long v = ctr_val(&e->p, ID, port, c);

		if (v >= 0 && (uint64_t)v > since)
			return true;
	} while (tp_poll_next(&w));
	return false;
}

/*
 * A read of @len from behind @port: requests out (no payload: their bytes
 * stay 0), completions with the data in.
 */
static void exp_read(struct snap *x, unsigned int port, uint64_t len)
{
	x->c[port][PCIESW_COUNTER_EGRESS_NON_POSTED_TLPS] +=
		div_up(len, DMA_MRRS);
	x->c[port][PCIESW_COUNTER_INGRESS_COMPLETION_BYTES] += len;
	x->c[port][PCIESW_COUNTER_INGRESS_COMPLETION_TLPS] += div_up(len, MPS);
}

static void exp_posted(struct snap *x, unsigned int port, bool egress,
		       uint64_t len)
{
	int b = egress ? PCIESW_COUNTER_EGRESS_POSTED_BYTES :
			 PCIESW_COUNTER_INGRESS_POSTED_BYTES;
	int t = egress ? PCIESW_COUNTER_EGRESS_POSTED_TLPS :
			 PCIESW_COUNTER_INGRESS_POSTED_TLPS;

	x->c[port][b] += len;
	x->c[port][t] += div_up(len, MPS);
}

/* What a transfer of @len from port @sp to port @dp adds (0: the host). */
static void exp_xfer(struct snap *x, unsigned int sp, unsigned int dp,
		     bool via_host, uint64_t len)
{
	exp_read(x, sp, len);
	if (via_host) {
		exp_posted(x, UP, true, len);	/* up to the host bridge */
		exp_posted(x, UP, false, len);	/* and back down */
	}
	exp_posted(x, dp, true, len);
}

/* after - before == exp on every counter of every port */
static void snap_expect(struct __test_metadata *_metadata,
			const struct snap *before, const struct snap *after,
			const struct snap *exp, const char *what)
{
	unsigned int port, c, bad = 0;

	for (port = 0; port < NPORTS; port++)
		for (c = 0; c < NCTR; c++) {
			uint64_t d = after->c[port][c] - before->c[port][c];

			if (d == exp->c[port][c])
				continue;
			bad++;
			TH_LOG("%s: port %u counter %u moved by %llu, expected %llu",
			       what, port, c, (unsigned long long)d,
			       (unsigned long long)exp->c[port][c]);
		}
	EXPECT_EQ(0U, bad);
}

/* |got - want| within 2 ns + 1 ppm (integer rounding of the model) */
static bool near_ns(uint64_t got, double want)
{
	double d = got > want ? got - want : want - got;

	return d <= 2 + want * 1e-6;
}

static bool near_bw(uint64_t got, double want)
{
	double d = got > want ? got - want : want - got;

	return d <= 16 + want * 1e-8;
}

/*
 * p2p-check of @a -> @b agrees with @route; the ports crossed in order,
 * the redirecting ports, the bottleneck bandwidth of those ports.
 */
static void p2p_expect(struct __test_metadata *_metadata, struct env *e,
		       int a, int b, uint32_t route, bool redir_a,
		       bool redir_b, uint8_t host_p2p)
{
	unsigned int pa = loc_port(e, a), pb = loc_port(e, b), i, n = 0;
	uint32_t want[4], wr[2], nr = 0;
	uint64_t bw = UINT64_MAX;
	struct pnl_obj *o = malloc(sizeof(*o));

	ASSERT_NE(NULL, o);
	ASSERT_EQ(0, dma_p2p_check(&e->p, ID, loc_ep(e, a), loc_ep(e, b), o));
	EXPECT_EQ(0, pnl_not_in_spec(o, PCIESW_CMD_P2P_CHECK, false));
	EXPECT_EQ(route, o->u[PCIESW_A_P2P_ROUTE]);
	EXPECT_EQ(host_p2p, o->u[PCIESW_A_SWITCH_HOST_P2P]);
	EXPECT_EQ(loc_ep(e, a), o->u[PCIESW_A_EP_ID]);
	EXPECT_EQ(loc_ep(e, b), o->u[PCIESW_A_PEER_EP_ID]);
	if (a == b) {
		want[n++] = pa;
		EXPECT_EQ(0U, o->u[PCIESW_A_P2P_DISTANCE]);
	} else if (route == PCIESW_P2P_ROUTE_DIRECT) {
		want[n++] = pa;
		want[n++] = pb;
		EXPECT_EQ(4U, o->u[PCIESW_A_P2P_DISTANCE]);
	} else {
		want[n++] = pa;
		want[n++] = UP;
		want[n++] = UP;
		want[n++] = pb;
		if (route == PCIESW_P2P_ROUTE_HOST_BRIDGE)
			EXPECT_EQ(8U, o->u[PCIESW_A_P2P_DISTANCE]);
	}
	if (route != PCIESW_P2P_ROUTE_DIRECT) {
		if (redir_a)
			wr[nr++] = pa;
		if (redir_b)
			wr[nr++] = pb;
	}
	if (route != PCIESW_P2P_ROUTE_REFUSED) {
		ASSERT_EQ(n, o->nr_p2p_port);
		for (i = 0; i < n; i++) {
			uint64_t pbw = dma_port_bw(&e->p, ID, want[i]);

			EXPECT_EQ(want[i], o->p2p_port[i]) TH_LOG("port %u", i);
			if (pbw < bw)
				bw = pbw;
		}
		EXPECT_EQ(bw, o->u64[PCIESW_A_P2P_BANDWIDTH]);
	}
	ASSERT_EQ(nr, o->nr_redirect_port);
	for (i = 0; i < nr; i++)
		EXPECT_EQ(wr[i], o->redirect_port[i]);
	free(o);
}

/* ------------------------------------------------------------------ */
/* Windows and host buffers: one end of a transfer                     */

struct end {
	int who;
	uint64_t off;		/* in the window, or into the host buffer */
	unsigned char *map;	/* what covers [off, off + len) */
	void *base;		/* mmap()ed area */
	size_t maplen;
};

/* Make @x cover @len bytes at @x->off: a window mapping or a host buffer. */
static void end_map(struct __test_metadata *_metadata, struct env *e,
		    struct end *x, uint64_t len)
{
	uint64_t start = x->off & ~4095ULL;

	/* a page before (when there is one) and a byte after: guards */
	if (x->who == HOST || start >= 4096)
		start -= 4096;
	x->maplen = (x->off + len + 1 - start + 4095) & ~4095ULL;
	if (x->who == HOST) {
		x->base = dma_host_buf(x->maplen);
		ASSERT_NE(NULL, x->base);
		memset(x->base, 0xee, x->maplen);
	} else {
		x->base = dma_map(e->fd, loc_ep(e, x->who), start, x->maplen);
		ASSERT_NE(MAP_FAILED, x->base);
	}
	x->map = (unsigned char *)x->base + (x->off - start);
}

static void end_unmap(struct end *x)
{
	if (x->base && x->base != MAP_FAILED)
		munmap(x->base, x->maplen);
	x->base = NULL;
}

static struct pciesw_dma_loc end_loc(struct env *e, const struct end *x)
{
	return x->who == HOST ? dma_host(x->map) : dma_ep(loc_ep(e, x->who),
							  x->off);
}

/* The byte a fresh end holds outside what DMA writes. */
static unsigned char end_guard(const struct end *x)
{
	return x->who == HOST ? 0xee : 0;
}

/* Expect one completion @c of descriptor @d: ok, all bytes. */
static void expect_ok(struct __test_metadata *_metadata,
		      const struct pciesw_dma_completion *c,
		      const struct pciesw_dma_desc *d)
{
	EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_OK, c->status)
		TH_LOG("status %s", dma_status_name(c->status));
	EXPECT_EQ(d->len, c->bytes);
	EXPECT_EQ(d->user_data, c->user_data);
	EXPECT_EQ(d->channel, c->channel);
}

/* ------------------------------------------------------------------ */
/* Routes                                                              */

FIXTURE(route)
{
	struct env e;
};

FIXTURE_VARIANT(route)
{
	int src, dst;
	bool redir_src, redir_dst;	/* ACS P2P Request Redirect */
	bool big;			/* also 64 MiB */
};

FIXTURE_VARIANT_ADD(route, direct_gpu_nvme) {
	.src = GPU, .dst = NVME0, .big = true,
};

FIXTURE_VARIANT_ADD(route, direct_nvme_nvme) {
	.src = NVME1, .dst = NVME2,
};

FIXTURE_VARIANT_ADD(route, via_host_dst_redirect) {
	.src = GPU, .dst = NVME0, .redir_dst = true, .big = true,
};

FIXTURE_VARIANT_ADD(route, via_host_src_redirect) {
	.src = NVME1, .dst = GPU, .redir_src = true,
};

FIXTURE_VARIANT_ADD(route, via_host_both_redirect) {
	.src = NVME0, .dst = NVME2, .redir_src = true, .redir_dst = true,
};

FIXTURE_VARIANT_ADD(route, host_to_ep) {
	.src = HOST, .dst = GPU, .big = true,
};

FIXTURE_VARIANT_ADD(route, ep_to_host) {
	.src = NVME0, .dst = HOST, .big = true,
};

FIXTURE_VARIANT_ADD(route, same_ep) {
	.src = GPU, .dst = GPU,
};

FIXTURE_SETUP(route)
{
	env_setup(_metadata, &self->e);
	if (_metadata->exit_code)
		return;
	if (variant->redir_src)
		ASSERT_EQ(0, tp_port_set1(&self->e.p, ID,
					  loc_port(&self->e, variant->src),
					  (struct pnl_attr)A_U8(PCIESW_A_PORT_ACS_REDIRECT, 1)));
	if (variant->redir_dst)
		ASSERT_EQ(0, tp_port_set1(&self->e.p, ID,
					  loc_port(&self->e, variant->dst),
					  (struct pnl_attr)A_U8(PCIESW_A_PORT_ACS_REDIRECT, 1)));
}

FIXTURE_TEARDOWN(route)
{
	env_teardown(&self->e);
}

static bool route_via_host(const FIXTURE_VARIANT(route) *v)
{
	return v->src != HOST && v->dst != HOST &&
	       (v->redir_src || v->redir_dst);
}

/* Region of size index @i: 160 MiB apart, destination 80 MiB further. */
#define REGION		(160 * MiB)

/*
 * Sizes from 1 byte to 64 MiB at offsets that cross pages; each written
 * as a pattern (mmap or host memory), moved by DMA, checked at the
 * destination and, for an endpoint destination, read back by DMA into
 * host memory; the bytes around the destination untouched.
 */
TEST_F_TIMEOUT(route, integrity, 180)
{
	static const uint64_t sizes[] = {
		1, 2, 7, 511, 4095, 4096, 4097, 65536 + 3, MiB + 17,
		3 * MiB + 4095, 64 * MiB,
	};
	static const uint64_t skew[] = { 0, 1, 4095, 4093, 511, 2048, 7 };
	struct env *e = &self->e;
	unsigned int i, n = sizeof(sizes) / sizeof(sizes[0]);

	if (!variant->big)
		n--;
	for (i = 0; i < n; i++) {
		uint64_t len = sizes[i];
		struct end s = { .who = variant->src,
				 .off = i * REGION + skew[i % 7] },
			   d = { .who = variant->dst,
				 .off = i * REGION + 80 * MiB +
					skew[(i + 3) % 7] };
		struct pciesw_dma_desc desc;
		struct pciesw_dma_completion c;
		long long bad;

		end_map(_metadata, e, &s, len);
		end_map(_metadata, e, &d, len);
		pat_fill(s.map, len, i + 1);
		desc = dma_desc(end_loc(e, &s), end_loc(e, &d), len,
				0x1000 + i, i % 4);
		ASSERT_EQ(0, dma_run1(e->fd, desc, &c, WAIT_MS))
			TH_LOG("size %llu", (unsigned long long)len);
		expect_ok(_metadata, &c, &desc);
		bad = pat_check(d.map, len, i + 1);
		EXPECT_EQ(-1, bad) TH_LOG("size %llu: byte %lld differs",
					  (unsigned long long)len, bad);
		if (d.map != d.base)
			EXPECT_EQ(end_guard(&d), d.map[-1]);
		EXPECT_EQ(end_guard(&d), d.map[len]);
		/* the source is what it was */
		EXPECT_EQ(-1, pat_check(s.map, len, i + 1));

		if (variant->dst != HOST) {
			/* read back through DMA */
			unsigned char *h = dma_host_buf(len + 2);

			ASSERT_NE(NULL, h);
			h[0] = h[len + 1] = 0xa5;
			desc = dma_desc(end_loc(e, &d), dma_host(h + 1), len,
					0x2000 + i, (i + 1) % 4);
			ASSERT_EQ(0, dma_run1(e->fd, desc, &c, WAIT_MS));
			expect_ok(_metadata, &c, &desc);
			EXPECT_EQ(-1, pat_check(h + 1, len, i + 1));
			EXPECT_EQ(0xa5, h[0]);
			EXPECT_EQ(0xa5, h[len + 1]);
			munmap(h, len + 2);
		}
		end_unmap(&s);
		end_unmap(&d);
	}
}

/*
 * One unaligned transfer: the traffic counters of every port move by
 * exactly what crossed it (nothing upstream for direct P2P, both ways
 * through the host bridge), p2p-check names the same route, and the
 * completion's duration is the model's on idle links.
 */
TEST_F(route, counters_and_model)
{
	struct env *e = &self->e;
	uint64_t len = MiB + 5, bw = UINT64_MAX;
	struct end s = { .who = variant->src, .off = 3 },
		   d = { .who = variant->dst, .off = 8 * MiB + 4097 };
	struct snap before, after, exp = { 0 };
	struct pciesw_dma_completion c;
	struct pciesw_dma_desc desc;
	unsigned int sp = loc_port(e, variant->src);
	unsigned int dp = loc_port(e, variant->dst);
	bool via = route_via_host(variant);

	end_map(_metadata, e, &s, len);
	end_map(_metadata, e, &d, len);
	pat_fill(s.map, len, 99);
	snap_take(_metadata, e, &before);
	desc = dma_desc(end_loc(e, &s), end_loc(e, &d), len, 7, 2);
	ASSERT_EQ(0, dma_run1(e->fd, desc, &c, WAIT_MS));
	expect_ok(_metadata, &c, &desc);
	snap_take(_metadata, e, &after);
	exp_xfer(&exp, sp, dp, via, len);
	snap_expect(_metadata, &before, &after, &exp, "transfer");
	EXPECT_EQ(-1, pat_check(d.map, len, 99));

	if (variant->src != HOST && variant->dst != HOST)
		p2p_expect(_metadata, e, variant->src, variant->dst,
			   via ? PCIESW_P2P_ROUTE_HOST_BRIDGE :
				 PCIESW_P2P_ROUTE_DIRECT,
			   variant->redir_src, variant->redir_dst, 1);

	/* duration: len over the slowest link crossed */
	bw = dma_port_bw(&e->p, ID, sp);
	if (dma_port_bw(&e->p, ID, dp) < bw)
		bw = dma_port_bw(&e->p, ID, dp);
	if ((via || sp == UP || dp == UP) && dma_port_bw(&e->p, ID, UP) < bw)
		bw = dma_port_bw(&e->p, ID, UP);
	ASSERT_LT(0ULL, bw);
	EXPECT_TRUE(near_ns(c.duration_ns, dma_model_ns(len, bw)))
		TH_LOG("duration %llu ns, model %.0f ns",
		       (unsigned long long)c.duration_ns,
		       dma_model_ns(len, bw));
	end_unmap(&s);
	end_unmap(&d);
}

/* ------------------------------------------------------------------ */
/* Everything else on the default card                                 */

FIXTURE(dma)
{
	struct env e;
};

FIXTURE_SETUP(dma)
{
	env_setup(_metadata, &self->e);
}

FIXTURE_TEARDOWN(dma)
{
	env_teardown(&self->e);
}

/* Nothing is queued, in flight or readable; nothing moved. */
static void expect_idle(struct __test_metadata *_metadata, struct env *e)
{
	struct pollfd pfd = { .fd = e->fd, .events = POLLIN };

	EXPECT_EQ(0, poll(&pfd, 1, 50));
	EXPECT_EQ(0, dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_DMA_INFLIGHT));
}

/*
 * Submit the batch @d[0..n) expecting -@err at @index (nr_submitted 0).
 */
static void expect_refused(struct __test_metadata *_metadata, struct env *e,
			   const struct pciesw_dma_desc *d, unsigned int n,
			   int err, uint32_t index, const char *what)
{
	struct pciesw_dma_submit s;

	EXPECT_EQ(-err, dma_submit(e->fd, d, n, &s)) TH_LOG("%s", what);
	EXPECT_EQ(0U, s.nr_submitted) TH_LOG("%s", what);
	EXPECT_EQ(index, s.error_index) TH_LOG("%s", what);
}

/*
 * A drive's I/O counters, as ep-get has them (the SMART log's data units
 * and host commands): bytes read and written, reads and writes.
 */
struct drive_io {
	uint64_t bytes_read, bytes_written, reads, writes;
};

static void drive_io_get(struct __test_metadata *_metadata, struct env *e,
			 int who, struct drive_io *io)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
				  A_U32(PCIESW_A_EP_ID, loc_ep(e, who)),
				  A_END };
	static const int io_attrs[] = {
		PCIESW_A_NVME_BYTES_READ, PCIESW_A_NVME_BYTES_WRITTEN,
		PCIESW_A_NVME_HOST_READS, PCIESW_A_NVME_HOST_WRITES, 0
	};
	struct pnl_reply r;
	const struct pnl_obj *o;

	ASSERT_EQ(0, pnl_do(&e->p, PCIESW_CMD_EP_GET, req, &r));
	ASSERT_EQ(1U, r.nobjs);
	o = &r.objs[0];
	EXPECT_EQ(0, pnl_missing(o, io_attrs));
	io->bytes_read = o->u64[PCIESW_A_NVME_BYTES_READ];
	io->bytes_written = o->u64[PCIESW_A_NVME_BYTES_WRITTEN];
	io->reads = o->u64[PCIESW_A_NVME_HOST_READS];
	io->writes = o->u64[PCIESW_A_NVME_HOST_WRITES];
	pnl_reply_free(&r);
}

/* after - before == the reads and writes of @exp, on drive @who */
static void drive_io_expect(struct __test_metadata *_metadata, struct env *e,
			    int who, const struct drive_io *before,
			    const struct drive_io *exp, const char *what)
{
	struct drive_io now;

	drive_io_get(_metadata, e, who, &now);
	EXPECT_EQ(exp->bytes_read, now.bytes_read - before->bytes_read)
		TH_LOG("%s: bytes read", what);
	EXPECT_EQ(exp->bytes_written,
		  now.bytes_written - before->bytes_written)
		TH_LOG("%s: bytes written", what);
	EXPECT_EQ(exp->reads, now.reads - before->reads)
		TH_LOG("%s: reads", what);
	EXPECT_EQ(exp->writes, now.writes - before->writes)
		TH_LOG("%s: writes", what);
}

/* Three good descriptors gpu0 -> nvme0, 4 KiB each at 0, 1 MiB, 2 MiB. */
static void good3(struct env *e, struct pciesw_dma_desc *d)
{
	int i;

	for (i = 0; i < 3; i++)
		d[i] = dma_desc(dma_ep(e->gpu, i * MiB),
				dma_ep(e->nvme[0], i * MiB + 1), 4096, i, i);
}

TEST_F(dma, submit_einval)
{
	struct env *e = &self->e;
	struct pciesw_dma_desc d[3], big[PCIESW_DMA_MAX_BATCH + 1];
	struct pciesw_dma_submit s;
	struct snap before, after, none = { 0 };
	unsigned char *dst;
	unsigned int i;

	snap_take(_metadata, e, &before);
	good3(e, d);

	/* the batch itself */
	dma_submit_init(&s, d, 3);
	s.size = sizeof(s) - 8;
	EXPECT_EQ(-EINVAL, dma_submit_raw(e->fd, &s));
	/*
	 * Larger: only zeros past the module's structure (E2BIG); taking
	 * larger and smaller ones is pciesw_ioctl's uapi.dma_sizes_and_records
	 */
	struct { struct pciesw_dma_submit s; uint64_t more; } sb;
	dma_submit_init(&sb.s, d, 3);
	sb.s.size = sizeof(sb.s) + 8;
	sb.more = 1;
	EXPECT_EQ(-E2BIG, dma_submit_raw(e->fd, &sb.s));
	dma_submit_init(&s, d, 3);
	s.desc_size = 4096 + 8;
	EXPECT_EQ(-E2BIG, dma_submit_raw(e->fd, &s));
	struct { const char *what; int field; uint64_t v; } bad[] = {
		{ "flags 1", 0, 1 }, { "flags bit 31", 0, 1U << 31 },
		{ "desc_size - 8", 1, sizeof(d[0]) - 8 },
		{ "desc_size 0", 1, 0 },
		{ "nr_descs 0", 2, 0 },
		{ "nr_descs max + 1", 2, PCIESW_DMA_MAX_BATCH + 1 },
		{ "reserved[0]", 3, 1 }, { "reserved[1]", 4, 1ULL << 63 },
	};
	memset(big, 0, sizeof(big));
	for (i = 0; i < PCIESW_DMA_MAX_BATCH + 1; i++)
		big[i] = d[0];
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dma_submit_init(&s, d, 3);
		switch (bad[i].field) {
		case 0: s.flags = bad[i].v; break;
		case 1: s.desc_size = bad[i].v; break;
		case 2: s.nr_descs = bad[i].v; s.descs = (uintptr_t)big; break;
		case 3: s.reserved[0] = bad[i].v; break;
		case 4: s.reserved[1] = bad[i].v; break;
		}
		EXPECT_EQ(-EINVAL, dma_submit_raw(e->fd, &s))
			TH_LOG("%s", bad[i].what);
		EXPECT_EQ(0U, s.nr_submitted) TH_LOG("%s", bad[i].what);
		EXPECT_EQ((uint32_t)PCIESW_DMA_NO_INDEX, s.error_index)
			TH_LOG("%s", bad[i].what);
	}
	/* the whole batch of MAX is fine */
	EXPECT_EQ(0, dma_submit(e->fd, big, PCIESW_DMA_MAX_BATCH, &s));
	EXPECT_EQ((unsigned int)PCIESW_DMA_MAX_BATCH, s.nr_submitted);
	EXPECT_EQ((unsigned int)PCIESW_DMA_MAX_BATCH,
		  dma_collect(e->fd, (void *)big, PCIESW_DMA_MAX_BATCH,
			      WAIT_MS));
	snap_take(_metadata, e, &before);

	/* in a descriptor: each at index 1, the good one before it */
	for (i = 0; i < 13; i++) {
		const char *what = "?";

		good3(e, d);
		d[0].dst.addr = 64 * MiB;	/* what must not arrive */
		switch (i) {
		case 0: d[1].src.reserved = 1; what = "src.reserved"; break;
		case 1: d[1].dst.reserved = 1u << 31; what = "dst.reserved"; break;
		case 2: d[1].flags = 1; what = "flags 1"; break;
		case 3: d[1].flags = 1u << 31; what = "flags bit 31"; break;
		case 4: d[1].reserved = 1; what = "reserved"; break;
		case 5: d[1].reserved = 1ULL << 63; what = "reserved bit 63"; break;
		case 6: d[1].len = 0; what = "len 0"; break;
		case 7: d[1].len = PCIESW_DMA_MAX_LEN + 1; what = "len max + 1"; break;
		case 8: d[1].channel = 4; what = "channel = channels"; break;
		case 9: d[1].channel = UINT32_MAX; what = "channel ~0"; break;
		case 10:
			d[1].src = dma_host(big);
			d[1].dst = dma_host(big + 1);
			what = "host both sides";
			break;
		case 11: d[1].len = ~0ULL; what = "len ~0"; break;
		case 12: d[1].src.reserved = 0x80000000u; d[1].dst.reserved = 1;
			what = "both reserved"; break;
		}
		expect_refused(_metadata, e, d, 3, EINVAL, 1, what);
	}
	expect_idle(_metadata, e);
	snap_take(_metadata, e, &after);
	snap_expect(_metadata, &before, &after, &none, "refused batches");
	dst = dma_map(e->fd, e->nvme[0], 64 * MiB, 4096 * 2);
	ASSERT_NE(MAP_FAILED, dst);
	EXPECT_EQ(-1, zero_check(dst, 4096 * 2));
	munmap(dst, 4096 * 2);
}

/*
 * The file mode: a descriptor that reads endpoint memory needs a file open
 * for reading, one that writes it a file open for writing (EBADF, nothing
 * moved); mmap() follows the VFS rules (PROT_WRITE of MAP_SHARED needs
 * O_RDWR, any mapping O_RDONLY or O_RDWR: EACCES).
 */
static void file_modes(struct __test_metadata *_metadata, struct env *e)
{
	struct pciesw_ep_map map = { .size = sizeof(map) };
	struct pciesw_dma_completion c;
	struct pciesw_dma_submit s;
	struct pciesw_dma_desc d;
	size_t pg = 4096;
	unsigned char *h;
	char path[32];
	int rd, wr;
	void *m;

	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	rd = open(path, O_RDONLY | O_CLOEXEC);
	wr = open(path, O_WRONLY | O_CLOEXEC);
	h = dma_host_buf(pg);
	ASSERT_LE(0, rd);
	ASSERT_LE(0, wr);
	ASSERT_NE(NULL, h);
	memset(h, 0x5a, pg);

	/* O_RDONLY: nothing that writes an endpoint (the known defect) */
	d = dma_desc(dma_host(h), dma_ep(e->nvme[0], 96 * MiB), pg, 1, 0);
	EXPECT_EQ(-EBADF, dma_submit(rd, &d, 1, &s));
	EXPECT_EQ(0U, s.nr_submitted);
	EXPECT_EQ(0U, s.error_index);
	d = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 96 * MiB), pg, 2,
		     0);
	EXPECT_EQ(-EBADF, dma_submit(rd, &d, 1, &s));
	EXPECT_EQ(0U, s.nr_submitted);
	expect_idle(_metadata, e);
	/* but reading one into the caller's buffer is fine */
	d = dma_desc(dma_ep(e->nvme[0], 96 * MiB), dma_host(h), pg, 3, 0);
	ASSERT_EQ(0, dma_submit(rd, &d, 1, &s));
	ASSERT_EQ(1U, dma_collect(rd, &c, 1, WAIT_MS));
	EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_OK, c.status);
	EXPECT_EQ(0, h[0]);	/* never written: zeros */

	/* O_WRONLY: nothing that reads an endpoint */
	d = dma_desc(dma_ep(e->nvme[0], 0), dma_host(h), pg, 4, 0);
	EXPECT_EQ(-EBADF, dma_submit(wr, &d, 1, &s));
	EXPECT_EQ(0U, s.error_index);
	d = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 96 * MiB), pg, 5,
		     0);
	EXPECT_EQ(-EBADF, dma_submit(wr, &d, 1, &s));
	/* writing one from host memory is what it is for */
	d = dma_desc(dma_host(h), dma_ep(e->nvme[1], 96 * MiB), pg, 6, 0);
	EXPECT_EQ(0, dma_submit(wr, &d, 1, &s));
	EXPECT_EQ(1U, s.nr_submitted);
	/* (its completion cannot be read: read() needs FMODE_READ) */
	EXPECT_EQ(-1, read(wr, &c, sizeof(c)));
	EXPECT_EQ(EBADF, errno);

	/* mmap: the VFS rules */
	map.ep_id = e->nvme[0];
	ASSERT_EQ(0, ioctl(rd, PCIESW_IOC_EP_MAP, &map));
	m = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, rd, map.offset);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EACCES, errno);
	m = mmap(NULL, pg, PROT_READ, MAP_SHARED, rd, map.offset);
	EXPECT_NE(MAP_FAILED, m);
	if (m != MAP_FAILED) {
		/* and it cannot be made writable later */
		EXPECT_EQ(-1, mprotect(m, pg, PROT_READ | PROT_WRITE));
		EXPECT_EQ(EACCES, errno);
		munmap(m, pg);
	}
	m = mmap(NULL, pg, PROT_WRITE, MAP_SHARED, wr, map.offset);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EACCES, errno);
	close(wr);
	close(rd);
	munmap(h, pg);
}

TEST_F(dma, submit_errors)
{
	struct env *e = &self->e;
	struct pciesw_dma_desc d[3];
	struct pciesw_dma_submit s;
	struct pciesw_dma_completion c[3];
	struct snap before, after, none = { 0 };
	struct drive_io io0, io1, io_none = { 0 }, io_ok = { 0 };
	uint64_t nsize = 4 * GiB;	/* nvme window */
	unsigned char *ro, *gone, *h, *dst;
	size_t pg = 4096;

	h = dma_host_buf(3 * pg);
	ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gone = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(NULL, h);
	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_NE(MAP_FAILED, gone);
	ASSERT_EQ(0, munmap(gone, pg));
	ASSERT_EQ(0, munmap(h + 2 * pg, pg));	/* a hole after h[0..2pg) */
	snap_take(_metadata, e, &before);
	drive_io_get(_metadata, e, NVME0, &io0);
	drive_io_get(_metadata, e, NVME1, &io1);

#define REFUSE(idx_fix, err, what) do {					\
	good3(e, d);							\
	d[0].dst.addr = 64 * MiB;					\
	idx_fix;							\
	expect_refused(_metadata, e, d, 3, err, 1, what);		\
} while (0)
	REFUSE(d[1].src.ep_id = 4000, ENOENT, "src ep 4000");
	REFUSE(d[1].dst.ep_id = 4000, ENOENT, "dst ep 4000");
	REFUSE(d[1].dst.ep_id = PCIESW_DMA_HOST - 1, ENOENT, "dst ep ~0 - 1");
	REFUSE(d[1].src.addr = UINT64_MAX - 100, EOVERFLOW, "src wraps");
	REFUSE(d[1].dst.addr = UINT64_MAX - 4095, EOVERFLOW, "dst wraps");
	REFUSE((d[1].src = dma_host(h), d[1].src.addr = UINT64_MAX - 10),
	       EOVERFLOW, "host src wraps");
	/* one past the end, exactly */
	REFUSE(d[1].dst.addr = nsize - 4096 + 1, ERANGE, "dst end + 1");
	REFUSE((d[1].src = dma_ep(e->nvme[1], nsize - 4095)), ERANGE,
	       "src end + 1");
	REFUSE(d[1].dst.addr = nsize, ERANGE, "dst at the end");
	REFUSE((d[1].dst.addr = nsize - PCIESW_DMA_MAX_LEN + 1,
		d[1].len = PCIESW_DMA_MAX_LEN), ERANGE, "max len, end + 1");
	REFUSE(d[1].dst = dma_host(ro), EFAULT, "read-only destination");
	REFUSE(d[1].dst = dma_host(gone), EFAULT, "unmapped destination");
	REFUSE(d[1].src = dma_host(gone), EFAULT, "unmapped source");
	REFUSE((d[1].dst = dma_host(h + pg + 1), d[1].len = pg), EFAULT,
	       "destination runs into an unmapped page");
#undef REFUSE
	/* descs unreadable: the batch, not a descriptor */
	dma_submit_init(&s, (void *)8, 3);
	EXPECT_EQ(-EFAULT, dma_submit_raw(e->fd, &s));
	EXPECT_EQ(0U, s.nr_submitted);
	EXPECT_EQ((uint32_t)PCIESW_DMA_NO_INDEX, s.error_index);
	EXPECT_EQ(-1, ioctl(e->fd, PCIESW_IOC_DMA_SUBMIT, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	expect_idle(_metadata, e);
	snap_take(_metadata, e, &after);
	snap_expect(_metadata, &before, &after, &none, "refused batches");
	/*
	 * the good d[0] of each refused batch moved nothing: the drives
	 * count none of it (it was resolved before the bad d[1] was)
	 */
	drive_io_expect(_metadata, e, NVME0, &io0, &io_none,
			"refused batches");
	drive_io_expect(_metadata, e, NVME1, &io1, &io_none,
			"refused batches");
	dst = dma_map(e->fd, e->nvme[0], 64 * MiB, 2 * pg);
	ASSERT_NE(MAP_FAILED, dst);
	EXPECT_EQ(-1, zero_check(dst, 2 * pg));

	/* the last byte of a window is fine; a read-only source is too */
	good3(e, d);
	d[0].dst.addr = nsize - 4096;
	d[1].src = dma_host(ro);
	d[2].src = dma_ep(e->nvme[0], nsize - 1);
	d[2].dst = dma_host(h);
	d[2].len = 1;
	h[0] = 0x11;
	ASSERT_EQ(0, dma_submit(e->fd, d, 3, &s));
	EXPECT_EQ(3U, s.nr_submitted);
	ASSERT_EQ(3U, dma_collect(e->fd, c, 3, WAIT_MS));
	EXPECT_EQ(0, h[0]);
	/* what ran counts: two pages written to nvme0, one byte read */
	io_ok = (struct drive_io){ .bytes_read = 1, .bytes_written = 2 * pg,
				   .reads = 1, .writes = 2 };
	drive_io_expect(_metadata, e, NVME0, &io0, &io_ok, "a good batch");
	munmap(dst, 2 * pg);
	munmap(ro, pg);
	munmap(h, 2 * pg);
	file_modes(_metadata, e);
}

/* PCIESW_DMA_MAX_INFLIGHT submitted and not read back: EAGAIN. */
TEST_F(dma, inflight_limit)
{
	struct env *e = &self->e;
	struct pciesw_dma_desc *d = calloc(PCIESW_DMA_MAX_BATCH, sizeof(*d));
	struct pciesw_dma_completion *c = calloc(PCIESW_DMA_MAX_INFLIGHT + 1,
						 sizeof(*c));
	struct pciesw_dma_submit s;
	struct drive_io io, exp = { 0 };
	unsigned int i, got;

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, c);
	drive_io_get(_metadata, e, NVME0, &io);
	for (i = 0; i < PCIESW_DMA_MAX_BATCH; i++)
		d[i] = dma_desc(dma_ep(e->gpu, i), dma_ep(e->nvme[0], i), 1,
				i, i % 4);
	for (i = 0; i < PCIESW_DMA_MAX_INFLIGHT / PCIESW_DMA_MAX_BATCH - 1;
	     i++)
		ASSERT_EQ(0, dma_submit(e->fd, d, PCIESW_DMA_MAX_BATCH, NULL));
	ASSERT_EQ(0, dma_submit(e->fd, d, PCIESW_DMA_MAX_BATCH - 1, NULL));
	/* 4095 out: a batch of 2 does not fit, as a whole */
	EXPECT_EQ(-EAGAIN, dma_submit(e->fd, d, 2, &s));
	EXPECT_EQ(0U, s.nr_submitted);
	EXPECT_TRUE(s.error_index == 1 ||
		    s.error_index == PCIESW_DMA_NO_INDEX)
		TH_LOG("error_index %u", s.error_index);
	EXPECT_EQ(0, dma_submit(e->fd, d, 1, NULL));
	/*
	 * 4096 out, all done by now but not read back; a client that
	 * retries on EAGAIN moves nothing, and the drive counts nothing
	 */
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(-EAGAIN, dma_submit(e->fd, d, 1, &s));
		EXPECT_EQ(0U, s.nr_submitted);
		EXPECT_EQ(-EAGAIN,
			  dma_submit(e->fd, d, PCIESW_DMA_MAX_BATCH, &s));
	}
	/* the 4096 accepted, a byte each to nvme0 */
	exp.bytes_written = PCIESW_DMA_MAX_INFLIGHT;
	exp.writes = PCIESW_DMA_MAX_INFLIGHT;
	drive_io_expect(_metadata, e, NVME0, &io, &exp, "EAGAIN retried");
	got = dma_collect(e->fd, c, 1, WAIT_MS);
	EXPECT_EQ(1U, got);
	EXPECT_EQ(0, dma_submit(e->fd, d, 1, NULL));
	got += dma_collect(e->fd, c + got, PCIESW_DMA_MAX_INFLIGHT, WAIT_MS);
	EXPECT_EQ((unsigned int)PCIESW_DMA_MAX_INFLIGHT + 1, got);
	for (i = 0; i < got; i++)
		if (c[i].status != PCIESW_DMA_STATUS_OK || c[i].bytes != 1)
			break;
	EXPECT_EQ(got, i);
	expect_idle(_metadata, e);
	free(d);
	free(c);
}

/*
 * Replace nvme@idx by a slow endpoint (@speed x1) and turn pacing on:
 * transfers to it stay in flight for a known time.
 */
static void slow_nvme(struct __test_metadata *_metadata, struct env *e,
		      int idx, unsigned int speed)
{
	ASSERT_EQ(0, dma_ep_replace(&e->p, ID, e->nvme_port[idx],
				    PCIESW_EP_TYPE_NVME, speed, 1,
				    &e->nvme[idx], NULL));
	ASSERT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_DMA_PACING, 1,
				    NULL));
}

/* PCIESW_DMA_MAX_PINNED bytes of host memory pinned: EAGAIN. */
TEST_F(dma, pinned_limit)
{
	struct env *e = &self->e;
	size_t len = 64 * MiB;
	unsigned int n = PCIESW_DMA_MAX_PINNED / len, i;
	struct pciesw_dma_desc *d = calloc(n, sizeof(*d)), one;
	struct pciesw_dma_submit s;
	unsigned char *h = dma_host_buf(len);
	uint64_t t0;

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, h);
	slow_nvme(_metadata, e, 0, PCIESW_LINK_SPEED_GEN1);
	memset(h, 1, len);
	/* 1 GiB of the same 64 MiB, each 0.3 s on Gen1 x1: in flight */
	for (i = 0; i < n; i++)
		d[i] = dma_desc(dma_host(h), dma_ep(e->nvme[0], 0), len, i, 0);
	ASSERT_EQ(0, dma_submit(e->fd, d, n, &s));
	EXPECT_EQ(n, s.nr_submitted);
	one = dma_desc(dma_host(h), dma_ep(e->nvme[1], 0), 1, 99, 1);
	EXPECT_EQ(-EAGAIN, dma_submit(e->fd, &one, 1, &s));
	EXPECT_EQ(0U, s.nr_submitted);
	EXPECT_TRUE(s.error_index == 0 || s.error_index == PCIESW_DMA_NO_INDEX)
		TH_LOG("error_index %u", s.error_index);
	/* endpoint to endpoint pins nothing */
	one = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[1], 0), 1, 98, 1);
	EXPECT_EQ(0, dma_submit(e->fd, &one, 1, NULL));
	/* close() with all that queued: cancelled, unpinned, no hang */
	t0 = tp_now_ns();
	close(e->fd);
	e->fd = -1;
	EXPECT_GT(5000000000ULL, tp_now_ns() - t0);
	wait_inflight_0(e);
	EXPECT_EQ(0, dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_DMA_INFLIGHT));
	munmap(h, len);
	free(d);
}

struct reader {
	pid_t tid;
	int fd;
	ssize_t ret;
	int err;
	struct pciesw_dma_completion c[4];
};

static void *blocking_reader(void *arg)
{
	struct reader *r = arg;

	__atomic_store_n(&r->tid, gettid(), __ATOMIC_RELEASE);
	r->ret = read(r->fd, r->c, sizeof(r->c));
	r->err = errno;
	return NULL;
}

TEST_F(dma, read_poll)
{
	struct env *e = &self->e;
	struct pciesw_dma_completion c[11];
	struct pciesw_dma_desc d[3];
	struct pollfd pfd = { .fd = e->fd, .events = POLLIN };
	struct reader rd = { .fd = e->fd };
	pthread_t th;
	unsigned int got = 0;
	int fl;

	/* below one record */
	EXPECT_EQ(-1, read(e->fd, c, sizeof(c[0]) - 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, read(e->fd, c, 0));
	EXPECT_EQ(EINVAL, errno);
	/* nothing ready */
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fl = fcntl(e->fd, F_GETFL);
	ASSERT_EQ(0, fcntl(e->fd, F_SETFL, fl | O_NONBLOCK));
	EXPECT_EQ(-1, read(e->fd, c, sizeof(c)));
	EXPECT_EQ(EAGAIN, errno);

	good3(e, d);
	ASSERT_EQ(0, dma_submit(e->fd, d, 3, NULL));
	EXPECT_EQ(1, poll(&pfd, 1, WAIT_MS));
	EXPECT_TRUE(pfd.revents & POLLIN);
	/* whole records only, even with room for 10.5 */
	while (got < 3) {
		ssize_t n;

		ASSERT_EQ(1, poll(&pfd, 1, WAIT_MS));
		n = read(e->fd, c + got, sizeof(c[0]) * 10 + sizeof(c[0]) / 2);
		ASSERT_LT(0, n);
		ASSERT_EQ(0U, n % sizeof(c[0]));
		got += n / sizeof(c[0]);
	}
	EXPECT_EQ(3U, got);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	EXPECT_EQ(-1, read(e->fd, c, sizeof(c)));
	EXPECT_EQ(EAGAIN, errno);
	/* exactly one record fits a one-record read */
	ASSERT_EQ(0, dma_submit(e->fd, d, 2, NULL));
	ASSERT_EQ(1, poll(&pfd, 1, WAIT_MS));
	/* both completed: two records wait, a one-record read takes one */
	ASSERT_TRUE(wait_inflight_0(e));
	EXPECT_EQ((ssize_t)sizeof(c[0]), read(e->fd, c, sizeof(c[0])));
	EXPECT_EQ(1U, dma_collect(e->fd, c, 1, WAIT_MS));

	/* a blocking read() sleeps until a completion comes */
	ASSERT_EQ(0, fcntl(e->fd, F_SETFL, fl));
	ASSERT_EQ(0, pthread_create(&th, NULL, blocking_reader, &rd));
	/* the reader is asleep in read(2) before anything completes */
	EXPECT_TRUE(tp_wait_blocked(&rd.tid, SYS_read));
	ASSERT_EQ(0, dma_submit(e->fd, d, 1, NULL));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ((ssize_t)sizeof(c[0]), rd.ret) TH_LOG("errno %d", rd.err);
	EXPECT_EQ(d[0].user_data, rd.c[0].user_data);
	expect_idle(_metadata, e);
}

/*
 * 3000 descriptors of mixed routes over 4 channels: each completes
 * exactly once with its user_data and channel, and a channel completes
 * its descriptors in submission order; every port's counters have each
 * transfer's bytes and TLPs once they are read back (the engine counts a
 * run of transfers at once: the TLPs must still be each transfer's).
 */
TEST_F_TIMEOUT(dma, completes_once, 120)
{
	enum { N = 3000, B = 500 };
	struct env *e = &self->e;
	struct pciesw_dma_desc *d = calloc(N, sizeof(*d));
	struct pciesw_dma_completion *c = calloc(N + 1, sizeof(*c));
	unsigned char *seen = calloc(N, 1), *h = dma_host_buf(64 * KiB);
	int last[4] = { -1, -1, -1, -1 };
	unsigned int i, got, order_bad = 0, dup = 0;
	struct pollfd pfd = { .fd = e->fd, .events = POLLIN };
	struct snap before, after, exp = { 0 };

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, seen);
	ASSERT_NE(NULL, h);
	for (i = 0; i < N; i++) {
		uint64_t len = 1 + (i * 37) % (8 * KiB);
		struct pciesw_dma_loc s, t;

		/* the engine adds up a run's traffic: the TLPs stay each's */
		switch (i % 3) {
		case 0:
			s = dma_ep(e->gpu, i * 16 * KiB);
			t = dma_ep(e->nvme[0], i * 16 * KiB + 1);
			exp_xfer(&exp, e->gpu_port, e->nvme_port[0], false,
				 len);
			break;
		case 1:
			s = dma_ep(e->nvme[1], i * 8 * KiB + 3);
			t = dma_ep(e->gpu, 256 * MiB + i * 16 * KiB);
			exp_xfer(&exp, e->nvme_port[1], e->gpu_port, false,
				 len);
			break;
		default:
			s = dma_host(h + i % 4096);
			t = dma_ep(e->nvme[2], i * 16 * KiB + 5);
			exp_xfer(&exp, UP, e->nvme_port[2], false, len);
			break;
		}
		d[i] = dma_desc(s, t, len, 0xabc00000ULL + i, (i * 7) % 4);
	}
	snap_take(_metadata, e, &before);
	for (i = 0; i < N; i += B)
		ASSERT_EQ(0, dma_submit(e->fd, d + i, B, NULL));
	got = dma_collect(e->fd, c, N, 60000);
	EXPECT_EQ((unsigned int)N, got);
	/* counted before their completions were delivered */
	snap_take(_metadata, e, &after);
	snap_expect(_metadata, &before, &after, &exp, "3000 small transfers");
	for (i = 0; i < got; i++) {
		uint64_t k = c[i].user_data - 0xabc00000ULL;

		if (k >= N) {
			dup++;
			TH_LOG("completion %u: user_data %#llx", i,
			       (unsigned long long)c[i].user_data);
			continue;
		}
		if (seen[k]++)
			dup++;
		EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_OK, c[i].status);
		EXPECT_EQ(d[k].len, c[i].bytes);
		EXPECT_EQ(d[k].channel, c[i].channel);
		if (c[i].channel < 4) {
			if ((int)k < last[c[i].channel])
				order_bad++;
			last[c[i].channel] = k;
		}
	}
	EXPECT_EQ(0U, dup);
	EXPECT_EQ(0U, order_bad);
	for (i = 0; i < N; i++)
		if (!seen[i])
			break;
	EXPECT_EQ((unsigned int)N, i);
	/* and nothing more */
	EXPECT_EQ(0, poll(&pfd, 1, 200));
	expect_idle(_metadata, e);
	free(d);
	free(c);
	free(seen);
	munmap(h, 64 * KiB);
}

/*
 * ACS redirect on neither, one or both of gpu0's and nvme0's ports, with
 * the host bridge forwarding P2P or not: p2p-check and the DMA agree on
 * the route; the refused case moves nothing and counts one acs-violation
 * on the ingress (source) port.
 */
TEST_F_TIMEOUT(dma, acs_table, 90)
{
	struct env *e = &self->e;
	unsigned int pa = e->gpu_port, pb = e->nvme_port[0], k = 0;
	int ra, rb, hp;
	unsigned char *src, *dst;
	uint64_t len = 4096 + 3;

	src = dma_map(e->fd, e->gpu, 0, 4 * MiB);
	dst = dma_map(e->fd, e->nvme[0], 0, 4 * MiB);
	ASSERT_NE(MAP_FAILED, src);
	ASSERT_NE(MAP_FAILED, dst);
	for (hp = 1; hp >= 0; hp--)
		for (ra = 0; ra <= 1; ra++)
			for (rb = 0; rb <= 1; rb++, k++) {
				struct snap before, after, exp = { 0 };
				struct pciesw_dma_completion c;
				struct pciesw_dma_desc d;
				bool via = ra || rb;
				bool refused = via && !hp;
				uint32_t route = !via ? PCIESW_P2P_ROUTE_DIRECT :
						 hp ? PCIESW_P2P_ROUTE_HOST_BRIDGE :
						      PCIESW_P2P_ROUTE_REFUSED;

				ASSERT_EQ(0, dma_switch_set(&e->p, ID,
					  PCIESW_A_SWITCH_HOST_P2P, hp, NULL));
				ASSERT_EQ(0, tp_port_set1(&e->p, ID, pa,
					  (struct pnl_attr)A_U8(PCIESW_A_PORT_ACS_REDIRECT, ra)));
				ASSERT_EQ(0, tp_port_set1(&e->p, ID, pb,
					  (struct pnl_attr)A_U8(PCIESW_A_PORT_ACS_REDIRECT, rb)));
				p2p_expect(_metadata, e, GPU, NVME0, route,
					   ra, rb, hp);
				pat_fill(src + k * 8192 + 1, len, k);
				snap_take(_metadata, e, &before);
				d = dma_desc(dma_ep(e->gpu, k * 8192 + 1),
					     dma_ep(e->nvme[0], k * 8192 + 2),
					     len, k, k % 4);
				ASSERT_EQ(0, dma_run1(e->fd, d, &c, WAIT_MS));
				snap_take(_metadata, e, &after);
				if (refused) {
					EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_P2P_REFUSED,
						  c.status);
					EXPECT_EQ(0ULL, c.bytes);
					EXPECT_EQ(k, c.user_data);
					exp.c[pa][PCIESW_COUNTER_ACS_VIOLATION] = 1;
					EXPECT_EQ(-1, zero_check(dst + k * 8192,
								 8192));
				} else {
					expect_ok(_metadata, &c, &d);
					exp_xfer(&exp, pa, pb, via, len);
					EXPECT_EQ(-1, pat_check(dst + k * 8192 + 2,
								len, k));
				}
				TH_LOG("host-p2p %d, redirect %d/%d: %s", hp,
				       ra, rb, dma_status_name(c.status));
				snap_expect(_metadata, &before, &after, &exp,
					    "acs");
			}
	expect_idle(_metadata, e);
	munmap(src, 4 * MiB);
	munmap(dst, 4 * MiB);
}

/* A link on the route down: link-down, nothing moved. */
/*
 * Paced at Gen1 x1, a 256 MiB copy to nvme0 takes a second: its link goes
 * down (disabled) while it copies.  It ends with link-down and the bytes
 * moved so far, which the port counted; the next descriptor on the
 * channel is link-down with none; another endpoint's is fine.
 */
static void link_down_mid_transfer(struct __test_metadata *_metadata,
				   struct env *e)
{
	unsigned int pb = e->nvme_port[0], i;
	struct pciesw_dma_completion c[3];
	struct pciesw_dma_desc d[3];
	struct snap before, after;
	uint64_t len = 256 * MiB;

	slow_nvme(_metadata, e, 0, PCIESW_LINK_SPEED_GEN1);
	ASSERT_TRUE(tp_wait_ltssm(&e->p, ID, pb, PCIESW_LTSSM_L0, NULL));
	d[0] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), len, 1, 0);
	d[1] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], len), 4096, 2,
			0);
	d[2] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[1], 0), 4096, 3, 1);
	snap_take(_metadata, e, &before);
	ASSERT_EQ(0, dma_submit(e->fd, d, 3, NULL));
	EXPECT_TRUE(wait_moving(e, pb,
				before.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES]));
	ASSERT_EQ(0, tp_port_set1(&e->p, ID, pb,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED, 0)));
	ASSERT_EQ(3U, dma_collect(e->fd, c, 3, WAIT_MS));
	for (i = 0; i < 3; i++) {
		const struct pciesw_dma_completion *x = &c[i];

		if (x->user_data == 3) {
			expect_ok(_metadata, x, &d[2]);
			continue;
		}
		EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_LINK_DOWN, x->status)
			TH_LOG("%llu: status %s",
			       (unsigned long long)x->user_data,
			       dma_status_name(x->status));
		if (x->user_data == 1) {
			EXPECT_LT(0ULL, x->bytes);
			EXPECT_GT(len, x->bytes);
			TH_LOG("link down after %llu of %llu bytes",
			       (unsigned long long)x->bytes,
			       (unsigned long long)len);
			/* what moved is what was counted on the port */
			snap_take(_metadata, e, &after);
			EXPECT_EQ(x->bytes,
				  after.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES] -
				  before.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES]);
		} else {
			EXPECT_EQ(0ULL, x->bytes);
		}
	}
	expect_idle(_metadata, e);
}

TEST_F(dma, link_down)
{
	struct env *e = &self->e;
	unsigned int pb = e->nvme_port[0];
	struct pciesw_dma_completion c;
	struct pciesw_dma_desc d;
	struct snap before, after, none = { 0 };
	unsigned char *dst;

	ASSERT_EQ(0, tp_port_set1(&e->p, ID, pb,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED, 0)));
	ASSERT_TRUE(tp_wait_ltssm(&e->p, ID, pb, PCIESW_LTSSM_DISABLED, NULL));
	EXPECT_EQ(0ULL, dma_port_bw(&e->p, ID, pb));
	snap_take(_metadata, e, &before);
	d = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), 8192, 5, 0);
	ASSERT_EQ(0, dma_run1(e->fd, d, &c, WAIT_MS));
	EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_LINK_DOWN, c.status);
	EXPECT_EQ(0ULL, c.bytes);
	EXPECT_EQ(5ULL, c.user_data);
	snap_take(_metadata, e, &after);
	snap_expect(_metadata, &before, &after, &none, "link down");
	dst = dma_map(e->fd, e->nvme[0], 0, 8192);
	ASSERT_NE(MAP_FAILED, dst);
	EXPECT_EQ(-1, zero_check(dst, 8192));
	munmap(dst, 8192);
	/* up again: it moves */
	ASSERT_EQ(0, tp_port_set1(&e->p, ID, pb,
				  (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED, 1)));
	ASSERT_TRUE(tp_wait_ltssm(&e->p, ID, pb, PCIESW_LTSSM_L0, NULL));
	ASSERT_EQ(0, dma_run1(e->fd, d, &c, WAIT_MS));
	expect_ok(_metadata, &c, &d);
	link_down_mid_transfer(_metadata, e);
}

/* port-bandwidth (netlink and sysfs) against the formula. */
TEST_F_TIMEOUT(dma, port_bandwidth, 90)
{
	static const struct { unsigned int speed, width; } links[] = {
		{ PCIESW_LINK_SPEED_GEN1, 1 }, { PCIESW_LINK_SPEED_GEN2, 2 },
		{ PCIESW_LINK_SPEED_GEN3, 1 }, { PCIESW_LINK_SPEED_GEN3, 4 },
		{ PCIESW_LINK_SPEED_GEN4, 1 }, { PCIESW_LINK_SPEED_GEN4, 2 },
		{ PCIESW_LINK_SPEED_GEN5, 1 }, { PCIESW_LINK_SPEED_GEN5, 4 },
	};
	static const unsigned int mps[] = { 128, 256, 512, 4096 };
	struct env *e = &self->e;
	unsigned int pb = e->nvme_port[0], i, j;
	char buf[32];

	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		ASSERT_EQ(0, dma_ep_replace(&e->p, ID, pb, PCIESW_EP_TYPE_NVME,
					    links[i].speed, links[i].width,
					    NULL, NULL));
		for (j = 0; j < 4; j++) {
			double want = dma_model_bw(links[i].speed,
						   links[i].width, mps[j]);
			uint64_t got;

			ASSERT_EQ(0, dma_switch_set(&e->p, ID,
						    PCIESW_A_SWITCH_MPS,
						    mps[j], NULL));
			got = dma_port_bw(&e->p, ID, pb);
			EXPECT_TRUE(near_bw(got, want))
				TH_LOG("gen%u x%u mps %u: %llu, model %.1f",
				       links[i].speed, links[i].width, mps[j],
				       (unsigned long long)got, want);
			ASSERT_EQ(0, port_attr(ID, pb, "bandwidth", buf,
					       sizeof(buf)));
			EXPECT_EQ(got, strtoull(buf, NULL, 10));
			/* the upstream link: Gen5 x16 */
			got = dma_port_bw(&e->p, ID, UP);
			want = dma_model_bw(PCIESW_LINK_SPEED_GEN5, 16, mps[j]);
			EXPECT_TRUE(near_bw(got, want))
				TH_LOG("upstream mps %u: %llu, model %.1f",
				       mps[j], (unsigned long long)got, want);
		}
	}
	/* a port without a partner: no link, no bandwidth */
	ASSERT_EQ(0, tp_port_unplug(&e->p, ID, pb));
	ASSERT_TRUE(tp_wait_ltssm(&e->p, ID, pb, PCIESW_LTSSM_DETECT, NULL));
	EXPECT_EQ(0ULL, dma_port_bw(&e->p, ID, pb));
	ASSERT_EQ(0, port_attr(ID, pb, "bandwidth", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
}

/* switch-set values, sysfs, channels honoured at submit */
TEST_F(dma, settings)
{
	struct env *e = &self->e;
	struct pciesw_dma_desc d[3];
	struct pciesw_dma_completion c[3];
	struct pnl_reply r;
	struct pnl_obj o;
	/*
	 * the policy (the spec's ranges) refuses what is out of range with
	 * ERANGE, the model the rest (an MPS not a power of 2) with EINVAL;
	 * both with a message
	 */
	static const struct { int attr; uint32_t v; int err; } bad[] = {
		{ PCIESW_A_SWITCH_MPS, 64, ERANGE },
		{ PCIESW_A_SWITCH_MPS, 384, EINVAL },
		{ PCIESW_A_SWITCH_MPS, 8192, ERANGE },
		{ PCIESW_A_SWITCH_MPS, 0, ERANGE },
		{ PCIESW_A_SWITCH_DMA_CHANNELS, 0, ERANGE },
		{ PCIESW_A_SWITCH_DMA_CHANNELS, 17, ERANGE },
		{ PCIESW_A_SWITCH_HOST_P2P, 2, ERANGE },
		{ PCIESW_A_SWITCH_DMA_PACING, 2, ERANGE },
	};
	unsigned int i;

	ASSERT_EQ(0, dma_switch_get(&e->p, ID, &o));
	EXPECT_EQ(0, pnl_not_in_spec(&o, PCIESW_CMD_SWITCH_GET, false));
	EXPECT_EQ(1U, o.u[PCIESW_A_SWITCH_HOST_P2P]);
	EXPECT_EQ(0U, o.u[PCIESW_A_SWITCH_DMA_PACING]);
	EXPECT_EQ(256U, o.u[PCIESW_A_SWITCH_MPS]);
	EXPECT_EQ(4U, o.u[PCIESW_A_SWITCH_DMA_CHANNELS]);
	EXPECT_EQ(0U, o.u[PCIESW_A_SWITCH_DMA_INFLIGHT]);
	EXPECT_EQ(1, sw_attr_u32(ID, "host_p2p"));
	EXPECT_EQ(0, sw_attr_u32(ID, "dma_pacing"));
	EXPECT_EQ(256, sw_attr_u32(ID, "mps"));
	EXPECT_EQ(4, sw_attr_u32(ID, "dma_channels"));
	EXPECT_EQ(0, sw_attr_u32(ID, "dma_inflight"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(bad[i].err, dma_switch_set(&e->p, ID, bad[i].attr,
						     bad[i].v, &r))
			TH_LOG("attr %d = %u", bad[i].attr, bad[i].v);
		EXPECT_NE(0, r.msg[0]) TH_LOG("no extack message");
		pnl_reply_free(&r);
	}
	ASSERT_EQ(0, dma_switch_get(&e->p, ID, &o));
	EXPECT_EQ(256U, o.u[PCIESW_A_SWITCH_MPS]);
	EXPECT_EQ(4U, o.u[PCIESW_A_SWITCH_DMA_CHANNELS]);

	ASSERT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_DMA_CHANNELS, 2,
				    NULL));
	EXPECT_EQ(2, sw_attr_u32(ID, "dma_channels"));
	good3(e, d);
	expect_refused(_metadata, e, d, 3, EINVAL, 2, "channel 2 of 2");
	d[2].channel = 1;
	ASSERT_EQ(0, dma_submit(e->fd, d, 3, NULL));
	ASSERT_EQ(3U, dma_collect(e->fd, c, 3, WAIT_MS));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(d[c[i].user_data].channel, c[i].channel);
	ASSERT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_DMA_CHANNELS,
				    16, NULL));
	d[0].channel = 15;
	ASSERT_EQ(0, dma_run1(e->fd, d[0], c, WAIT_MS));
	EXPECT_EQ(15U, c[0].channel);
	/* sysfs writes reach the same settings */
	ASSERT_EQ(0, sysfs_write(PCIESW_DEVS "/pciesw60/mps", "512"));
	EXPECT_EQ(512, dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_MPS));
	ASSERT_EQ(0, sysfs_write(PCIESW_DEVS "/pciesw60/host_p2p", "0"));
	EXPECT_EQ(0, dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_HOST_P2P));
	EXPECT_EQ(-EINVAL, sysfs_write(PCIESW_DEVS "/pciesw60/mps", "300"));
	EXPECT_EQ(-EINVAL,
		  sysfs_write(PCIESW_DEVS "/pciesw60/dma_channels", "17"));
}

/*
 * Pacing on, a Gen3 x1 endpoint: a transfer takes at least its modelled
 * time, and duration_ns is the model; two transfers sharing the link
 * take the model of both.
 */
TEST_F(dma, pacing)
{
	struct env *e = &self->e;
	uint64_t len = 16 * MiB, t0, wall, bw;
	double model = dma_model_bw(PCIESW_LINK_SPEED_GEN3, 1, MPS);
	struct pciesw_dma_completion c[2];
	struct pciesw_dma_desc d[2];
	struct pnl_obj o;

	slow_nvme(_metadata, e, 0, PCIESW_LINK_SPEED_GEN3);
	EXPECT_EQ(1, sw_attr_u32(ID, "dma_pacing"));
	bw = dma_port_bw(&e->p, ID, e->nvme_port[0]);
	EXPECT_TRUE(near_bw(bw, model));
	ASSERT_EQ(0, dma_p2p_check(&e->p, ID, e->gpu, e->nvme[0], &o));
	EXPECT_EQ(bw, o.u64[PCIESW_A_P2P_BANDWIDTH]);

	d[0] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), len, 1, 0);
	t0 = tp_now_ns();
	ASSERT_EQ(0, dma_run1(e->fd, d[0], c, WAIT_MS));
	wall = tp_now_ns() - t0;
	expect_ok(_metadata, c, d);
	EXPECT_TRUE(near_ns(c[0].duration_ns, dma_model_ns(len, bw)))
		TH_LOG("duration %llu, model %.0f",
		       (unsigned long long)c[0].duration_ns,
		       dma_model_ns(len, bw));
	EXPECT_LE(c[0].duration_ns, wall);
	EXPECT_GT(c[0].duration_ns + 10000000000ULL, wall);
	TH_LOG("16 MiB over Gen3 x1: model %.2f ms, wall %.2f ms",
	       dma_model_ns(len, bw) / 1e6, wall / 1e6);

	/* two on separate channels share the link */
	d[0] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), len / 2,
			2, 0);
	d[1] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], len), len / 2,
			3, 1);
	t0 = tp_now_ns();
	ASSERT_EQ(0, dma_submit(e->fd, d, 2, NULL));
	ASSERT_EQ(2U, dma_collect(e->fd, c, 2, WAIT_MS));
	wall = tp_now_ns() - t0;
	EXPECT_LE((uint64_t)(dma_model_ns(len, bw) * 0.999), wall);
	/* the later one waited for the link: more than its own bytes' time */
	EXPECT_LE((uint64_t)(dma_model_ns(len / 2, bw) * 1.5),
		  c[0].duration_ns > c[1].duration_ns ? c[0].duration_ns :
							c[1].duration_ns);

	/* pacing off: the same model, completion as soon as done */
	ASSERT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_DMA_PACING, 0,
				    NULL));
	/*
	 * models time on purpose: the link's modelled timeline is in the
	 * past again (paced completions came at its end already)
	 */
	tp_msleep(50);
	d[0] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), len, 4, 0);
	ASSERT_EQ(0, dma_run1(e->fd, d[0], c, WAIT_MS));
	EXPECT_TRUE(near_ns(c[0].duration_ns, dma_model_ns(len, bw)));
}

/*
 * DMA in flight (paced, nvme1 -> a Gen1 x1 nvme0: only the nvme group
 * busy): mps and channels EBUSY, host-p2p fine; the nvme group cannot
 * be re-bifurcated, the gpu group can; afterwards everything can.
 */
TEST_F(dma, busy_settings)
{
	struct env *e = &self->e;
	struct pciesw_dma_completion c[2];
	struct pciesw_dma_desc d[2];
	struct pnl_reply r;
	char cfg[16];
	long long inflight;

	slow_nvme(_metadata, e, 0, PCIESW_LINK_SPEED_GEN1);
	/* 2 x 64 MiB at ~228 MB/s: 0.6 s of modelled time */
	d[0] = dma_desc(dma_ep(e->nvme[1], 0), dma_ep(e->nvme[0], 0),
			64 * MiB, 1, 0);
	d[1] = d[0];
	d[1].user_data = 2;
	ASSERT_EQ(0, dma_submit(e->fd, d, 2, NULL));
	inflight = dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_DMA_INFLIGHT);
	EXPECT_LE(1, inflight);
	EXPECT_LE(1, sw_attr_u32(ID, "dma_inflight"));

	EXPECT_EQ(EBUSY, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_MPS, 512,
					&r));
	EXPECT_NE(0, r.msg[0]);
	TH_LOG("mps while busy: %s", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(EBUSY, dma_switch_set(&e->p, ID,
					PCIESW_A_SWITCH_DMA_CHANNELS, 2, &r));
	EXPECT_NE(0, r.msg[0]);
	pnl_reply_free(&r);
	EXPECT_EQ(-EBUSY, sysfs_write(PCIESW_DEVS "/pciesw60/mps", "512"));
	EXPECT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_HOST_P2P, 0,
				    NULL));
	EXPECT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_HOST_P2P, 1,
				    NULL));

	EXPECT_EQ(EBUSY, tp_group_set_name(&e->p, ID, "nvme", "2x8", &r));
	EXPECT_NE(0, r.msg[0]);
	TH_LOG("nvme group while busy: %s", r.msg);
	pnl_reply_free(&r);
	EXPECT_EQ(-EBUSY, group_write_config(ID, "nvme", "2x8"));
	EXPECT_EQ(0, tp_group_set_name(&e->p, ID, "gpu", "2x8", &r));
	pnl_reply_free(&r);
	ASSERT_EQ(0, tp_group_config(&e->p, ID, 2, cfg));
	EXPECT_STREQ("4x4", cfg);

	ASSERT_EQ(2U, dma_collect(e->fd, c, 2, WAIT_MS));
	expect_ok(_metadata, &c[0], &d[0]);
	expect_ok(_metadata, &c[1], &d[1]);
	EXPECT_EQ(0, dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_DMA_INFLIGHT));
	EXPECT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_MPS, 512, NULL));
	EXPECT_EQ(0, dma_switch_set(&e->p, ID, PCIESW_A_SWITCH_DMA_CHANNELS, 2,
				    NULL));
	EXPECT_EQ(0, tp_group_set_name(&e->p, ID, "nvme", "2x8", &r));
	pnl_reply_free(&r);
}

/* ep-del of the destination mid-transfer: unplugged, partial bytes. */
TEST_F(dma, unplug_mid_transfer)
{
	struct env *e = &self->e;
	uint64_t len = 64 * MiB, t0;
	struct pciesw_dma_completion c[3];
	struct pciesw_dma_desc d[3];
	struct snap before, after;
	unsigned int pb = e->nvme_port[0], i;

	slow_nvme(_metadata, e, 0, PCIESW_LINK_SPEED_GEN1);
	d[0] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), len, 1, 0);
	d[1] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], len), 4096, 2,
			0);
	d[2] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[1], 0), 4096, 3, 0);
	snap_take(_metadata, e, &before);
	ASSERT_EQ(0, dma_submit(e->fd, d, 3, NULL));
	/* mid-transfer: the first chunks have reached nvme0 */
	EXPECT_TRUE(wait_moving(e, pb,
				before.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES]));
	t0 = tp_now_ns();
	ASSERT_EQ(0, tp_port_unplug(&e->p, ID, pb));
	EXPECT_GT(5000000000ULL, tp_now_ns() - t0);
	ASSERT_EQ(3U, dma_collect(e->fd, c, 3, WAIT_MS));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(i + 1, c[i].user_data);	/* one channel: in order */
	EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_UNPLUGGED, c[0].status)
		TH_LOG("status %s", dma_status_name(c[0].status));
	EXPECT_GT(len, c[0].bytes);
	TH_LOG("unplugged after %llu of %llu bytes",
	       (unsigned long long)c[0].bytes, (unsigned long long)len);
	EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_UNPLUGGED, c[1].status);
	EXPECT_EQ(0ULL, c[1].bytes);
	expect_ok(_metadata, &c[2], &d[2]);
	/* what moved is what was counted on the port */
	snap_take(_metadata, e, &after);
	EXPECT_EQ(c[0].bytes + c[1].bytes,
		  after.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES] -
		  before.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES]);
	expect_idle(_metadata, e);
}

/*
 * Unpaced, real data: 8 x 64 MiB to nvme0 on one channel, ep-del while
 * they copy: the one running stops part way (or had finished), the rest
 * are unplugged with 0 bytes; the port counted exactly what moved.
 */
TEST_F(dma, unplug_while_copying)
{
	enum { N = 8 };
	struct env *e = &self->e;
	uint64_t len = 64 * MiB, moved = 0;
	struct pciesw_dma_completion c[N];
	struct pciesw_dma_desc d[N];
	struct snap before, after;
	unsigned int pb = e->nvme_port[0], i, unplugged = 0;
	unsigned char *s;

	s = dma_map(e->fd, e->gpu, 0, len);
	ASSERT_NE(MAP_FAILED, s);
	pat_fill(s, len, 9);
	munmap(s, len);
	for (i = 0; i < N; i++)
		d[i] = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), len,
				i, 0);
	snap_take(_metadata, e, &before);
	ASSERT_EQ(0, dma_submit(e->fd, d, N, NULL));
	/* while they copy: the first chunks have reached nvme0 */
	EXPECT_TRUE(wait_moving(e, pb,
				before.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES]));
	ASSERT_EQ(0, tp_port_unplug(&e->p, ID, pb));
	ASSERT_EQ((unsigned int)N, dma_collect(e->fd, c, N, WAIT_MS));
	for (i = 0; i < N; i++) {
		EXPECT_EQ(i, c[i].user_data);
		moved += c[i].bytes;
		if (c[i].status == PCIESW_DMA_STATUS_OK) {
			EXPECT_EQ(0U, unplugged);	/* none after one */
			EXPECT_EQ(len, c[i].bytes);
			continue;
		}
		EXPECT_EQ((uint32_t)PCIESW_DMA_STATUS_UNPLUGGED, c[i].status);
		EXPECT_GT(len, c[i].bytes);
		if (unplugged++) {
			EXPECT_EQ(0ULL, c[i].bytes);
		} else {
			TH_LOG("descriptor %u unplugged after %llu bytes", i,
			       (unsigned long long)c[i].bytes);
		}
	}
	EXPECT_LT(0U, unplugged);
	snap_take(_metadata, e, &after);
	EXPECT_EQ(moved, after.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES] -
			 before.c[pb][PCIESW_COUNTER_EGRESS_POSTED_BYTES]);
	EXPECT_EQ(moved,
		  after.c[e->gpu_port][PCIESW_COUNTER_INGRESS_COMPLETION_BYTES] -
		  before.c[e->gpu_port][PCIESW_COUNTER_INGRESS_COMPLETION_BYTES]);
	expect_idle(_metadata, e);
}

/* close() with descriptors queued and running: quick, all cleaned up. */
TEST_F(dma, close_queued)
{
	struct env *e = &self->e;
	enum { N = 400 };
	struct pciesw_dma_desc *d = calloc(N, sizeof(*d));
	unsigned char *h = dma_host_buf(MiB);
	long long moved;
	uint64_t t0;
	unsigned int i;
	char path[32];

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, h);
	slow_nvme(_metadata, e, 0, PCIESW_LINK_SPEED_GEN1);
	for (i = 0; i < N; i++)
		d[i] = dma_desc(i % 2 ? dma_host(h) : dma_ep(e->gpu, 0),
				i % 4 == 3 ? dma_host(h) :
					     dma_ep(e->nvme[0], i * MiB),
				MiB, i, i % 4);
	for (i = 0; i < N; i++)
		if (d[i].src.ep_id == PCIESW_DMA_HOST &&
		    d[i].dst.ep_id == PCIESW_DMA_HOST)
			d[i].src = dma_ep(e->gpu, 0);
	moved = ctr_val(&e->p, ID, e->nvme_port[0],
			PCIESW_COUNTER_EGRESS_POSTED_BYTES);
	ASSERT_LE(0, moved);
	ASSERT_EQ(0, dma_submit(e->fd, d, N, NULL));
	/* queued and running: the first chunks have reached nvme0 */
	EXPECT_TRUE(wait_moving(e, e->nvme_port[0], moved));
	t0 = tp_now_ns();
	close(e->fd);
	e->fd = -1;
	EXPECT_GT(3000000000ULL, tp_now_ns() - t0);
	wait_inflight_0(e);
	EXPECT_EQ(0, dma_switch_val(&e->p, ID, PCIESW_A_SWITCH_DMA_INFLIGHT));
	/* the device works for the next opener, the buffer is ours */
	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	e->fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, e->fd);
	expect_idle(_metadata, e);
	memset(h, 3, MiB);
	EXPECT_EQ(0, munmap(h, MiB));
	free(d);
}

/* del_device with DMA in flight: cancelled, delivered once, ENODEV. */
TEST_F(dma, delete_switch_in_flight)
{
	struct env *e = &self->e;
	enum { N = 16 };
	struct pciesw_dma_desc d[N];
	struct pciesw_dma_completion c[N + 1];
	unsigned char seen[N] = { 0 }, *s;
	unsigned int i, got, cancelled = 0;
	long long moved;
	uint64_t t0;

	/* 16 x 64 MiB of real data on 2 channels: seconds of copying */
	s = dma_map(e->fd, e->gpu, 0, 64 * MiB);
	ASSERT_NE(MAP_FAILED, s);
	pat_fill(s, 64 * MiB, 5);
	munmap(s, 64 * MiB);
	for (i = 0; i < N; i++)
		d[i] = dma_desc(dma_ep(e->gpu, 0),
				dma_ep(e->nvme[0], i % 2 * 64 * MiB), 64 * MiB,
				i, i % 2);
	moved = ctr_val(&e->p, ID, e->nvme_port[0],
			PCIESW_COUNTER_EGRESS_POSTED_BYTES);
	ASSERT_LE(0, moved);
	ASSERT_EQ(0, dma_submit(e->fd, d, N, NULL));
	/* in flight: the first chunks have reached nvme0 */
	EXPECT_TRUE(wait_moving(e, e->nvme_port[0], moved));
	t0 = tp_now_ns();
	ASSERT_EQ(0, sw_del(ID));
	/*
	 * it does not wait for the copying (the cancelled count below says
	 * so); removing the PCI hierarchy alone takes seconds on the debug
	 * kernel
	 */
	EXPECT_GT(20000000000ULL, tp_now_ns() - t0);
	got = dma_collect(e->fd, c, N + 1, 3000);
	EXPECT_EQ((unsigned int)N, got);
	for (i = 0; i < got; i++) {
		ASSERT_GT((uint64_t)N, c[i].user_data);
		EXPECT_EQ(0, seen[c[i].user_data]++);
		EXPECT_TRUE(c[i].status == PCIESW_DMA_STATUS_OK ||
			    c[i].status == PCIESW_DMA_STATUS_UNPLUGGED ||
			    c[i].status == PCIESW_DMA_STATUS_CANCELLED)
			TH_LOG("status %u", c[i].status);
		cancelled += c[i].status == PCIESW_DMA_STATUS_CANCELLED;
		if (c[i].status == PCIESW_DMA_STATUS_CANCELLED)
			EXPECT_EQ(0ULL, c[i].bytes);
	}
	EXPECT_LT(0U, cancelled);
	EXPECT_EQ(-ENODEV, dma_submit(e->fd, d, 1, NULL));
}

/* rmmod with DMA in flight: refused; the DMA finishes. */
TEST_F(dma, rmmod_in_flight)
{
	struct env *e = &self->e;
	struct pciesw_dma_completion c;
	struct pciesw_dma_desc d;

	slow_nvme(_metadata, e, 0, PCIESW_LINK_SPEED_GEN1);
	d = dma_desc(dma_ep(e->gpu, 0), dma_ep(e->nvme[0], 0), 32 * MiB, 1, 0);
	ASSERT_EQ(0, dma_submit(e->fd, &d, 1, NULL));
	EXPECT_EQ(-1, syscall(SYS_delete_module, "pciesw", O_NONBLOCK));
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY)
		TH_LOG("errno %d", errno);
	ASSERT_EQ(1U, dma_collect(e->fd, &c, 1, WAIT_MS));
	expect_ok(_metadata, &c, &d);
	EXPECT_TRUE(pciesw_present());
}

static void nobody_open(struct __test_metadata *_metadata)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	EXPECT_EQ(-1, open(path, O_RDWR));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, open(path, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
}

TEST_F(dma, unprivileged)
{
	struct stat st;
	char path[32];

	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0600U, st.st_mode & 07777);
	EXPECT_EQ(0U, st.st_uid);
	PCIESW_AS_NOBODY(nobody_open);
}

TEST_HARNESS_MAIN
