// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs benchmark hook pciesw/pcieswN/dma_bench: "SRC SRC_OFF DST
 * DST_OFF LEN" copies between two endpoint windows with the DMA engine's
 * page walk; a read at 0 gives "NS LEN" of the open file's last copy.
 *
 * That it copies (a pattern written through mmap() of /dev/pcieswN read
 * back at the destination, unaligned and page-crossing; a hole copies as
 * zeros and makes no page), that NS is > 0 and kept per open file; every
 * refused input with its errno and nothing copied or made; unplug of
 * either endpoint and deletion of the switch while a large copy runs in
 * another thread (ENODEV or done, no hang; the runner and qemu-run.sh
 * check the kernel log); the file is 0600 root and nobody cannot open it.
 *
 * Default card (pex89048): gpu0 on port 1 (16 GiB window), nvme0-3 on
 * ports 2-5 (4 GiB).
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "pciesw_dma.h"

#define ID		211U	/* pciesw_mem has 210 */
/*
 * The copy that is unplugged, deleted or killed: 256 MiB, 64 MiB reduced
 * (still seconds of copying on the debug kernel, where an unplug takes
 * about 100 ms; making the source costs as much again).
 */
#define RACE_LEN	race_len()

static uint64_t race_len(void)
{
	static uint64_t len;

	if (!len)
		len = tp_reduce(256, 64, "MiB copied under unplug/delete/kill") *
		      MiB;
	return len;
}
#define GPU_PORT	1U
#define NVME0_PORT	2U

struct env {
	struct pnl p;
	int fd;				/* /dev/pcieswID */
	int bfd;			/* dma_bench */
	uint32_t gpu, nvme[4];		/* endpoint ids */
	uint64_t gsize, nsize;		/* their windows */
};

static void bench_path(char *buf, size_t len)
{
	snprintf(buf, len, PCIESW_DEBUGFS "/pciesw%u/dma_bench", ID);
}

static int bench_open(void)
{
	char path[PATH_MAX];

	bench_path(path, sizeof(path));
	return open(path, O_RDWR | O_CLOEXEC);
}

/* One write(2) of @s to @fd: 0 (all of it taken) or -errno. */
static int bench_write_str(int fd, const char *s, size_t len)
{
	ssize_t n = write(fd, s, len);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static int bench_copy(int fd, uint32_t src, uint64_t soff, uint32_t dst,
		      uint64_t doff, uint64_t len)
{
	char buf[128];
	int n = snprintf(buf, sizeof(buf), "%u %llu %u %llu %llu\n", src,
			 (unsigned long long)soff, dst,
			 (unsigned long long)doff, (unsigned long long)len);

	return bench_write_str(fd, buf, n);
}

/* "NS LEN\n" of @fd's last copy: 0 or -errno (-EPROTO if garbled). */
static int bench_result(int fd, uint64_t *ns, uint64_t *len)
{
	unsigned long long a, b;
	char buf[64], nl = 0;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu%c", &a, &b, &nl) != 3 || nl != '\n' ||
	    buf[n - 1] != '\n')
		return -EPROTO;
	*ns = a;
	*len = b;
	return 0;
}

static uint64_t ep_u64(const char *ep, const char *attr)
{
	char buf[32];

	if (ep_attr(ID, ep, attr, buf, sizeof(buf)) || !buf[0])
		return 0;
	return strtoull(buf, NULL, 10);
}

static void env_setup(struct __test_metadata *_metadata, struct env *e)
{
	char name[32];
	long v;
	int i;

	e->fd = e->bfd = -1;
	ASSERT_TRUE(pciesw_present());
	ASSERT_EQ(0, pnl_open(&e->p));
	ASSERT_EQ(0, tp_switch_fresh(&e->p, ID, NULL));
	snprintf(name, sizeof(name), "/dev/pciesw%u", ID);
	e->fd = open(name, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, e->fd);
	e->bfd = bench_open();
	ASSERT_LE(0, e->bfd) TH_LOG("no dma_bench in debugfs: %s",
				    strerror(errno));
	v = dma_ep_id(ID, "gpu0");
	ASSERT_LE(0, v);
	e->gpu = v;
	e->gsize = ep_u64("gpu0", "mem_size");
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "nvme%d", i);
		v = dma_ep_id(ID, name);
		ASSERT_LE(0, v);
		e->nvme[i] = v;
	}
	e->nsize = ep_u64("nvme0", "mem_size");
	ASSERT_EQ(16 * GiB, e->gsize);
	ASSERT_EQ(4 * GiB, e->nsize);
	/* the ports the race unplugs */
	ASSERT_EQ((uint64_t)GPU_PORT, ep_u64("gpu0", "port"));
	ASSERT_EQ((uint64_t)NVME0_PORT, ep_u64("nvme0", "port"));
}

static void env_teardown(struct env *e)
{
	if (e->bfd >= 0)
		close(e->bfd);
	if (e->fd >= 0)
		close(e->fd);
	if (sw_exists(ID))
		sw_del(ID);
	pnl_close(&e->p);
}

/* Resident bytes of every endpoint, summed; -1 if one is unreadable. */
static long long resident_all(void)
{
	static const char *const eps[] = { "gpu0", "nvme0", "nvme1", "nvme2",
					   "nvme3" };
	long long sum = 0, r;
	unsigned int i;

	for (i = 0; i < sizeof(eps) / sizeof(eps[0]); i++) {
		r = dma_ep_resident(ID, eps[i]);
		if (r < 0)
			return -1;
		sum += r;
	}
	return sum;
}

FIXTURE(bench)
{
	struct env e;
};

FIXTURE_SETUP(bench)
{
	env_setup(_metadata, &self->e);
}

FIXTURE_TEARDOWN(bench)
{
	env_teardown(&self->e);
}

/*
 * A pattern written through mmap() arrives at the destination, unaligned
 * on both sides and across pages, and nothing around it changes; whole
 * pages into a hole make exactly those pages; NS > 0, LEN the bytes.
 */
TEST_F(bench, copies)
{
	struct env *e = &self->e;
	const uint64_t soff = 2 * 4096 + 123, doff = 5 * 4096 + 7;
	const uint64_t len = 3 * 4096 + 1000, big = 8 * MiB;
	unsigned char *s, *d;
	long long before, after;
	uint64_t ns, got;

	/* gpu0 [0, 16 KiB + ...) holds the pattern; nvme0 is empty */
	s = dma_map(e->fd, e->gpu, 0, 8 * 4096);
	ASSERT_NE(MAP_FAILED, s);
	pat_fill(s + soff, len, 1);
	EXPECT_EQ(0, bench_result(e->bfd, &ns, &got));
	EXPECT_EQ(0ULL, ns);
	EXPECT_EQ(0ULL, got);	/* no copy yet */

	ASSERT_EQ(0, bench_copy(e->bfd, e->gpu, soff, e->nvme[0], doff, len));
	ASSERT_EQ(0, bench_result(e->bfd, &ns, &got));
	EXPECT_LT(0ULL, ns);
	EXPECT_EQ(len, got);
	d = dma_map(e->fd, e->nvme[0], 0, 16 * 4096);
	ASSERT_NE(MAP_FAILED, d);
	EXPECT_EQ(-1, pat_check(d + doff, len, 1));
	EXPECT_EQ(-1, zero_check(d, doff));		/* a byte before */
	EXPECT_EQ(-1, zero_check(d + doff + len, 16 * 4096 - doff - len));
	/* the source is read, not changed */
	EXPECT_EQ(-1, pat_check(s + soff, len, 1));
	munmap(d, 16 * 4096);
	munmap(s, 8 * 4096);

	/* 8 MiB of whole pages into a hole: exactly 8 MiB made */
	s = dma_map(e->fd, e->gpu, 64 * MiB, big);
	ASSERT_NE(MAP_FAILED, s);
	pat_fill(s, big, 2);
	before = dma_ep_resident(ID, "nvme1");
	ASSERT_LE(0, before);
	ASSERT_EQ(0, bench_copy(e->bfd, e->gpu, 64 * MiB, e->nvme[1], GiB,
				big));
	after = dma_ep_resident(ID, "nvme1");
	EXPECT_EQ((long long)big, after - before);
	ASSERT_EQ(0, bench_result(e->bfd, &ns, &got));
	EXPECT_LT(0ULL, ns);
	EXPECT_EQ(big, got);
	TH_LOG("8 MiB in %llu ns", (unsigned long long)ns);
	d = dma_map(e->fd, e->nvme[1], GiB, big);
	ASSERT_NE(MAP_FAILED, d);
	EXPECT_EQ(-1, pat_check(d, big, 2));
	munmap(d, big);
	munmap(s, big);

	/* the last byte of each window is inside it */
	ASSERT_EQ(0, bench_copy(e->bfd, e->gpu, e->gsize - 1, e->nvme[2],
				e->nsize - 1, 1));
	ASSERT_EQ(0, bench_result(e->bfd, &ns, &got));
	EXPECT_EQ(1ULL, got);
	/* one endpoint to itself */
	ASSERT_EQ(0, bench_copy(e->bfd, e->gpu, 64 * MiB, e->gpu, 80 * MiB,
				MiB));
	d = dma_map(e->fd, e->gpu, 80 * MiB, MiB);
	ASSERT_NE(MAP_FAILED, d);
	EXPECT_EQ(-1, pat_check(d, MiB, 2));
	munmap(d, MiB);
}

/*
 * A hole copies as zeros: over data the destination becomes zeros, into
 * a hole no page is made, also for the longest copy (1 GiB).
 */
TEST_F(bench, hole)
{
	struct env *e = &self->e;
	const uint64_t off = 3 * MiB + 100, len = 5 * 4096 + 17;
	long long before, after;
	unsigned char *d;
	uint64_t ns, got;

	d = dma_map(e->fd, e->nvme[0], 3 * MiB, 8 * 4096);
	ASSERT_NE(MAP_FAILED, d);
	pat_fill(d, 8 * 4096, 3);
	/* nvme2 at 2 GiB was never touched */
	ASSERT_EQ(0, bench_copy(e->bfd, e->nvme[2], 2 * GiB, e->nvme[0], off,
				len));
	EXPECT_EQ(-1, zero_check(d + 100, len));
	EXPECT_EQ(-1, pat_check(d, 100, 3));		/* around it: as was */
	EXPECT_EQ(-1, pat_check(d + 100 + len, 8 * 4096 - 100 - len,
				(3 + 100 + len) % PAT_P));
	munmap(d, 8 * 4096);

	before = resident_all();
	ASSERT_LE(0, before);
	ASSERT_EQ(0, bench_copy(e->bfd, e->gpu, 8 * GiB, e->nvme[3], 0,
				PCIESW_DMA_MAX_LEN));
	ASSERT_EQ(0, bench_result(e->bfd, &ns, &got));
	EXPECT_EQ(PCIESW_DMA_MAX_LEN, got);
	EXPECT_LT(0ULL, ns);
	after = resident_all();
	EXPECT_EQ(before, after);
}

/* Each open file has its result; a refused write leaves it as it was. */
TEST_F(bench, per_open_file)
{
	struct env *e = &self->e;
	uint64_t ns, got, ns2, got2;
	int b = bench_open();

	ASSERT_LE(0, b);
	ASSERT_EQ(0, bench_copy(e->bfd, e->gpu, 0, e->nvme[0], 0, 4096));
	ASSERT_EQ(0, bench_result(b, &ns, &got));
	EXPECT_EQ(0ULL, ns);
	EXPECT_EQ(0ULL, got);
	ASSERT_EQ(0, bench_copy(b, e->gpu, 0, e->nvme[1], 0, 3 * 4096 + 5));
	ASSERT_EQ(0, bench_result(e->bfd, &ns, &got));
	EXPECT_EQ(4096ULL, got);
	EXPECT_LT(0ULL, ns);
	ASSERT_EQ(0, bench_result(b, &ns2, &got2));
	EXPECT_EQ(3 * 4096ULL + 5, got2);
	EXPECT_LT(0ULL, ns2);
	/* a read again at 0 says the same; a read from the end nothing */
	ASSERT_EQ(0, bench_result(e->bfd, &ns2, &got2));
	EXPECT_EQ(ns, ns2);
	EXPECT_EQ(got, got2);
	EXPECT_EQ(-EINVAL, bench_copy(e->bfd, e->gpu, 0, e->nvme[0], 0, 0));
	EXPECT_EQ(-ENOENT, bench_copy(e->bfd, 4000, 0, e->nvme[0], 0, 1));
	ASSERT_EQ(0, bench_result(e->bfd, &ns2, &got2));
	EXPECT_EQ(ns, ns2);
	EXPECT_EQ(got, got2);
	close(b);
	/* a new open starts with nothing */
	b = bench_open();
	ASSERT_LE(0, b);
	ASSERT_EQ(0, bench_result(b, &ns, &got));
	EXPECT_EQ(0ULL, ns);
	EXPECT_EQ(0ULL, got);
	close(b);
}

/*
 * Every refused input with its errno; afterwards the destination holds
 * what it held, no endpoint has a page more, the file's result is none.
 */
TEST_F(bench, refused)
{
	struct env *e = &self->e;
	const uint64_t doff = 64 * MiB, pg = 4096;
	const uint32_t g = e->gpu, n0 = e->nvme[0], n1 = e->nvme[1];
	const uint64_t gs = e->gsize, ns0 = e->nsize;
	long long before, after;
	unsigned char *s, *d;
	uint64_t ns, got;
	char cmd[256];

	s = dma_map(e->fd, g, 0, 2 * pg);
	d = dma_map(e->fd, n0, doff, 2 * pg);
	ASSERT_NE(MAP_FAILED, s);
	ASSERT_NE(MAP_FAILED, d);
	pat_fill(s, 2 * pg, 7);
	pat_fill(d, 2 * pg, 3);
	before = resident_all();
	ASSERT_LE(0, before);

#define RAW(err, ...) do {						\
	int _n = snprintf(cmd, sizeof(cmd), __VA_ARGS__);		\
									\
	EXPECT_EQ(-(err), bench_write_str(e->bfd, cmd, _n))		\
		TH_LOG("\"%s\"", cmd);					\
} while (0)
#define CPY(err, a, b, c, dd, l) do {					\
	EXPECT_EQ(-(err), bench_copy(e->bfd, a, b, c, dd, l))		\
		TH_LOG("%s %s %s %s %s", #a, #b, #c, #dd, #l);		\
} while (0)

	/* malformed: EINVAL (with the good command's ids and offsets) */
	RAW(EINVAL, "\n");
	RAW(EINVAL, " \t \n");
	RAW(EINVAL, "%u 0 %u", g, n0);
	RAW(EINVAL, "%u 0 %u 67108864", g, n0);
	RAW(EINVAL, "%u 0 %u 67108864 4096 0\n", g, n0);
	RAW(EINVAL, "%u 0 %u 67108864 4096 x\n", g, n0);
	RAW(EINVAL, "a%u 0 %u 67108864 4096\n", g, n0);
	RAW(EINVAL, "%u 0 %u 67108864 4k\n", g, n0);
	RAW(EINVAL, "%u 0 %u 0x4000000 4096\n", g, n0);
	RAW(EINVAL, "-%u 0 %u 67108864 4096\n", g + 1, n0);
	RAW(EINVAL, "%u 0 %u 67108864 -4096\n", g, n0);
	RAW(EINVAL, "%u,0,%u,67108864,4096\n", g, n0);
	RAW(EINVAL, "%u 0 %u 67108864 4096\n\n0", g, n0);
	RAW(EINVAL, "%u 0 %u 67108864\n4096", g, n0);
	RAW(EINVAL, "%u\n 0 %u 67108864 4096\n", g, n0);
	RAW(EINVAL, "%u 0 %u 67108864\n 4096\n", g, n0);
	/* 199 bytes, a good command in the middle: more than it takes */
	RAW(EINVAL, "%100s%u 0 %u 67108864 4096%80s", "", g, n0, "");
	EXPECT_EQ(-EINVAL, bench_write_str(e->bfd, "", 0));
	/* a number too big for its field: ERANGE */
	RAW(ERANGE, "4294967296 0 %u 67108864 4096\n", n0);
	RAW(ERANGE, "%u 0 99999999999 67108864 4096\n", g);
	RAW(ERANGE, "%u 18446744073709551616 %u 67108864 4096\n", g, n0);
	RAW(ERANGE, "%u 0 %u 18446744073709551616 4096\n", g, n0);
	RAW(ERANGE, "%u 0 %u 67108864 18446744073709551616\n", g, n0);
	/* a missing endpoint: ENOENT */
	CPY(ENOENT, 4000, 0, n0, doff, pg);
	CPY(ENOENT, g, 0, 4000, doff, pg);
	CPY(ENOENT, PCIESW_DMA_HOST - 1, 0, n0, doff, pg);
	CPY(ENOENT, g, 0, PCIESW_DMA_HOST - 1, doff, pg);
	/* offset + LEN wraps: EOVERFLOW */
	CPY(EOVERFLOW, g, UINT64_MAX - 100, n0, doff, pg);
	CPY(EOVERFLOW, g, 0, n0, UINT64_MAX - pg + 1, pg);
	CPY(EOVERFLOW, g, UINT64_MAX, n0, doff, 1);
	/* past the window: ERANGE, one byte past exactly */
	CPY(ERANGE, g, gs - pg + 1, n0, doff, pg);
	CPY(ERANGE, g, 0, n0, ns0 - pg + 1, pg);
	CPY(ERANGE, g, gs, n0, doff, 1);
	CPY(ERANGE, g, 0, n1, ns0, 1);
	CPY(ERANGE, g, 0, n1, ns0 - PCIESW_DMA_MAX_LEN + 1, PCIESW_DMA_MAX_LEN);
	/* host memory, LEN 0 or over 1 GiB: EINVAL */
	CPY(EINVAL, PCIESW_DMA_HOST, (uintptr_t)d, n0, doff, pg);
	CPY(EINVAL, g, 0, PCIESW_DMA_HOST, (uintptr_t)d, pg);
	CPY(EINVAL, g, 0, n0, doff, 0);
	CPY(EINVAL, g, 0, n0, doff, PCIESW_DMA_MAX_LEN + 1);
	CPY(EINVAL, g, 0, n0, doff, UINT64_MAX);
	/* what is checked first: LEN and host before the endpoints */
	CPY(EINVAL, 4000, 0, 4000, 0, 0);
	CPY(EINVAL, PCIESW_DMA_HOST, 0, 4000, 0, pg);
#undef RAW
#undef CPY

	EXPECT_EQ(-1, pat_check(d, 2 * pg, 3));
	EXPECT_EQ(-1, pat_check(s, 2 * pg, 7));
	after = resident_all();
	EXPECT_EQ(before, after);
	ASSERT_EQ(0, bench_result(e->bfd, &ns, &got));
	EXPECT_EQ(0ULL, ns);
	EXPECT_EQ(0ULL, got);
	munmap(s, 2 * pg);
	munmap(d, 2 * pg);
}

/* ------------------------------------------------------------------ */
/* Unplug and deletion while a copy runs                               */

struct racer {
	int fd;
	uint32_t src, dst;
	uint64_t len;
	int ret;		/* of the write: 0 or -errno */
	uint64_t t_end;
};

static void *racer_run(void *arg)
{
	struct racer *r = arg;

	r->ret = bench_copy(r->fd, r->src, 0, r->dst, 0, r->len);
	r->t_end = tp_now_ns();
	return NULL;
}

enum { UNPLUG_SRC, UNPLUG_DST, DELETE_SWITCH };

FIXTURE(race)
{
	struct env e;
};

FIXTURE_VARIANT(race)
{
	int what;
};

FIXTURE_VARIANT_ADD(race, unplug_src) { .what = UNPLUG_SRC };
FIXTURE_VARIANT_ADD(race, unplug_dst) { .what = UNPLUG_DST };
FIXTURE_VARIANT_ADD(race, delete_switch) { .what = DELETE_SWITCH };

FIXTURE_SETUP(race)
{
	env_setup(_metadata, &self->e);
}

FIXTURE_TEARDOWN(race)
{
	env_teardown(&self->e);
}

/*
 * RACE_LEN of data in gpu0 from 1 MiB of pattern doubled by the hook
 * itself (the kernel's copy is much faster than ours under TCG).
 */
static void fill_source(struct __test_metadata *_metadata, struct env *e)
{
	unsigned char *s = dma_map(e->fd, e->gpu, 0, MiB);
	uint64_t have;

	ASSERT_NE(MAP_FAILED, s);
	pat_fill(s, MiB, 11);
	munmap(s, MiB);
	for (have = MiB; have < RACE_LEN; have *= 2)
		ASSERT_EQ(0, bench_copy(e->bfd, e->gpu, 0, e->gpu, have, have));
	ASSERT_LE((long long)RACE_LEN, dma_ep_resident(ID, "gpu0"));
}

/*
 * gpu0 -> nvme0, RACE_LEN, in a thread; once nvme0 has pages (the copy
 * runs) the endpoint is unplugged or the switch deleted: the write ends
 * within seconds with ENODEV or having copied everything.
 */
TEST_F_TIMEOUT(race, mid_copy, 120)
{
	struct env *e = &self->e;
	struct racer r = { .fd = e->bfd, .src = e->gpu, .dst = e->nvme[0],
			   .len = RACE_LEN, .ret = 1 };
	const char *dst_name = "nvme0";
	long long res = -1;
	struct timespec ts;
	struct tp_poll w;
	pthread_t th;
	uint64_t t0, ns, got;
	int err;

	fill_source(_metadata, e);
	ASSERT_EQ(0, dma_ep_resident(ID, dst_name));
	ASSERT_EQ(0, pthread_create(&th, NULL, racer_run, &r));
	/* the copy runs: the destination gets its first pages */
	tp_poll_start(&w, 5000);
	do {
		res = dma_ep_resident(ID, dst_name);
		if (res != 0)
			break;
	} while (tp_poll_next(&w));
	EXPECT_LT(0, res);
	t0 = tp_now_ns();
	switch (variant->what) {
	case UNPLUG_SRC:
		err = tp_port_unplug(&e->p, ID, GPU_PORT);
		break;
	case UNPLUG_DST:
		err = tp_port_unplug(&e->p, ID, NVME0_PORT);
		break;
	default:
		/* waits for the hook's handler: debugfs removal does */
		err = sw_del(ID);
		break;
	}
	EXPECT_EQ(0, err);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += tp_ms(20000) / 1000;
	ASSERT_EQ(0, pthread_timedjoin_np(th, NULL, &ts))
		TH_LOG("the copy did not end");
	EXPECT_TRUE(r.ret == 0 || r.ret == -ENODEV)
		TH_LOG("write: %s", strerror(-r.ret));
	TH_LOG("%s %.1f ms after the %s", r.ret ? "ENODEV" : "done",
	       ((int64_t)(r.t_end - t0)) / 1e6,
	       variant->what == DELETE_SWITCH ? "deletion" : "unplug");

	switch (variant->what) {
	case UNPLUG_SRC:
		/* stopped part way, or all there */
		res = dma_ep_resident(ID, dst_name);
		if (r.ret) {
			EXPECT_GT((long long)RACE_LEN, res);
		} else {
			EXPECT_EQ((long long)RACE_LEN, res);
		}
		EXPECT_EQ(-ENOENT, bench_copy(e->bfd, e->gpu, 0, e->nvme[0], 0,
					      4096));
		break;
	case UNPLUG_DST:
		EXPECT_EQ(-ENOENT, bench_copy(e->bfd, e->gpu, 0, e->nvme[0], 0,
					      4096));
		/* the source is still there and the hook works */
		EXPECT_EQ(0, bench_copy(e->bfd, e->gpu, 0, e->nvme[1], 0,
					4096));
		break;
	default:
		/* the file is gone with the switch: debugfs says EIO */
		EXPECT_FALSE(sw_exists(ID));
		err = bench_copy(e->bfd, e->gpu, 0, e->nvme[1], 0, 4096);
		EXPECT_TRUE(err == -EIO || err == -ENODEV)
			TH_LOG("write after deletion: %s", strerror(-err));
		EXPECT_GT(0, bench_open());
		break;
	}
	if (!r.ret && variant->what != DELETE_SWITCH) {
		ASSERT_EQ(0, bench_result(e->bfd, &ns, &got));
		EXPECT_LT(0ULL, ns);
	}
}

/*
 * SIGKILL while the copy runs: the writer dies within seconds, the copy
 * stopped where it was (never more than asked), and the hook works on.
 */
TEST_F_TIMEOUT(bench, killed_mid_copy, 120)
{
	struct env *e = &self->e;
	long long res = -1;
	struct tp_poll w;
	int st = 0;
	pid_t pid;

	fill_source(_metadata, e);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int b = bench_open();

		_exit(b < 0 ? 2 : bench_copy(b, e->gpu, 0, e->nvme[0], 0,
					     RACE_LEN) ? 3 : 0);
	}
	tp_poll_start(&w, 5000);
	do {
		res = dma_ep_resident(ID, "nvme0");
		if (res != 0)
			break;
	} while (tp_poll_next(&w));
	EXPECT_LT(0, res);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	tp_poll_start(&w, 20000);
	do {
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
		st = -1;
	} while (tp_poll_next(&w));
	ASSERT_NE(-1, st) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		TH_LOG("the killed writer did not die");
	}
	/* done before the signal came, or killed in the copy */
	EXPECT_TRUE((WIFEXITED(st) && WEXITSTATUS(st) == 0) ||
		    (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL))
		TH_LOG("status 0x%x", st);
	res = dma_ep_resident(ID, "nvme0");
	EXPECT_GE((long long)RACE_LEN, res);
	TH_LOG("%s, %lld of %llu bytes at the destination",
	       WIFSIGNALED(st) ? "killed" : "done", res,
	       (unsigned long long)RACE_LEN);
	EXPECT_EQ(0, bench_copy(e->bfd, e->gpu, 0, e->nvme[1], 0, MiB));
}

/* ------------------------------------------------------------------ */
/* Root only                                                           */

static void nobody_open(struct __test_metadata *_metadata)
{
	char path[PATH_MAX];

	bench_path(path, sizeof(path));
	EXPECT_EQ(-1, open(path, O_WRONLY));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, open(path, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
}

TEST_F(bench, root_only)
{
	char path[PATH_MAX];
	struct stat st;

	bench_path(path, sizeof(path));
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0600U, st.st_mode & 07777);
	EXPECT_EQ(0U, st.st_uid);
	EXPECT_EQ(0U, st.st_gid);
	PCIESW_AS_NOBODY(nobody_open);
}

TEST_HARNESS_MAIN
