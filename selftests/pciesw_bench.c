// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw benchmarks P1..P6 of issue 5, run by scripts/bench.sh (make
 * bench) in a QEMU guest; not a test (run.sh does not run it).  Every
 * figure is a ratio of two things measured in this run, in this guest,
 * printed with its target and PASS or MISS.
 *
 *   pciesw_bench [PCIESW_KO]
 *
 * With PCIESW_KO and the module not loaded, it loads it (finit_module) to
 * measure what the module and its default card cost (P6).  Uses switch
 * ids 84-99.
 *
 * P6 memory: "free" is MemFree plus the pages on the per-CPU free lists
 * (/proc/zoneinfo), read after sync and drop_caches; its drop over insmod
 * (module + default card) and over creating 16 more switches (/16: per
 * switch), with the slab, vmalloc, percpu and kernel-stack deltas as a
 * breakdown; the module's own size is the size column of /proc/modules.
 * The PCI view's share is what turning it off on 15 of the switches frees
 * of the slab objects in use (/proc/slabinfo): freed objects do not give
 * their slab pages back while others share them, so "free" would hide it.
 * Holes: reading them through a mapping, and DMA from holes to holes,
 * should leave mem_resident where it was.
 */
#define _GNU_SOURCE
#define PCIESW_NO_HARNESS
#include <sys/syscall.h>

#include "pciesw_dma.h"

#define BID		84U	/* the switch the benchmarks use */
#define NSW		16U	/* P6: switches 84..99 */
#define REPS		3
#define WAIT_MS		60000

static int npass, nmiss;
static char out[16][320];	/* the figures, printed in P order at the end */
static int nout;

static void fail(const char *what, int err)
{
	fprintf(stderr, "pciesw_bench: %s: %s\n", what, strerror(err < 0 ?
								-err : err));
	exit(1);
}

static void line(const char *id, const char *what, double v, const char *unit,
		 const char *target, bool pass, const char *extra)
{
	if (nout < 16)
		snprintf(out[nout++], sizeof(out[0]),
			 "%-3s %-44s %9.3f%-4s %-18s %s  %s", id, what, v,
			 unit, target, pass ? "PASS" : "MISS", extra);
	fprintf(stderr, "bench: %s %s done\n", id, what);
	if (pass)
		npass++;
	else
		nmiss++;
}

/* /proc/meminfo field in KiB, -1 if absent. */
static long long meminfo(const char *key)
{
	char l[256];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(l, sizeof(l), f))
		if (!strncmp(l, key, n) && l[n] == ':') {
			v = strtoll(l + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/*
 * Pages on the per-CPU free lists (/proc/zoneinfo "count:" of each
 * pageset), in KiB: free, yet not in MemFree.
 */
static long long pcp_kib(void)
{
	char l[256];
	long long sum = 0, v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return 0;
	while (fgets(l, sizeof(l), f))
		if (sscanf(l, " count: %lld", &v) == 1)
			sum += v;
	fclose(f);
	return sum * (sysconf(_SC_PAGESIZE) / 1024);
}

/* KiB of slab objects in use: active objects times object size */
static long long slab_objs_kib(void)
{
	char l[512], name[64];
	long long sum = 0, active, total, size;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return 0;
	while (fgets(l, sizeof(l), f))
		if (sscanf(l, "%63s %lld %lld %lld", name, &active, &total,
			   &size) == 4)
			sum += active * size;
	fclose(f);
	return sum / 1024;
}

/*
 * free: MemFree + the per-CPU lists, so that deltas are what was used;
 * objs: slab objects in use (KiB)
 */
struct mem {
	long long free, slab, unrecl, vmalloc, percpu, stack, objs;
};

static void mem_take(struct mem *m)
{
	sync();
	sysfs_write("/proc/sys/vm/drop_caches", "3");
	usleep(200000);
	m->free = meminfo("MemFree") + pcp_kib();
	m->slab = meminfo("Slab");
	m->unrecl = meminfo("SUnreclaim");
	m->vmalloc = meminfo("VmallocUsed");
	m->percpu = meminfo("Percpu");
	m->stack = meminfo("KernelStack");
	m->objs = slab_objs_kib();
}

/* "pciesw SIZE ..." of /proc/modules: bytes of the loaded module. */
static long long module_size(void)
{
	char l[512];
	long long v = -1;
	FILE *f = fopen("/proc/modules", "r");

	if (!f)
		return -1;
	while (fgets(l, sizeof(l), f))
		if (!strncmp(l, "pciesw ", 7)) {
			v = strtoll(l + 7, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static double secs(uint64_t ns)
{
	return ns / 1e9;
}

/*
 * Submit @n descriptors (batches of up to 1024, at most
 * PCIESW_DMA_MAX_INFLIGHT not read back) and wait for them all.
 */
static uint64_t run_all(int fd, struct pciesw_dma_desc *d, unsigned int n)
{
	struct pciesw_dma_completion *c = calloc(n, sizeof(*c));
	uint64_t t0 = tp_now_ns();
	unsigned int i = 0, got = 0;
	int err;

	if (!c)
		fail("calloc", ENOMEM);
	while (got < n) {
		while (i < n) {
			unsigned int k = n - i < PCIESW_DMA_MAX_BATCH ?
					 n - i : PCIESW_DMA_MAX_BATCH;

			if (i - got + k > PCIESW_DMA_MAX_INFLIGHT)
				break;
			err = dma_submit(fd, d + i, k, NULL);
			if (err)
				fail("submit", err);
			i += k;
		}
		err = dma_read(fd, c + got, n - got, WAIT_MS);
		if (err <= 0)
			fail("completions missing", err ? err : ETIMEDOUT);
		got += err;
	}
	t0 = tp_now_ns() - t0;
	for (i = 0; i < n; i++)
		if (c[i].status != PCIESW_DMA_STATUS_OK)
			fail(dma_status_name(c[i].status), EIO);
	free(c);
	return t0;
}

/* @len bytes from @src to @dst in @block pieces over @chans channels. */
static uint64_t xfer(int fd, struct pciesw_dma_loc src,
		     struct pciesw_dma_loc dst, uint64_t len, uint64_t block,
		     unsigned int chans)
{
	unsigned int n = div_up(len, block), i;
	struct pciesw_dma_desc *d = calloc(n, sizeof(*d));
	uint64_t t;

	if (!d)
		fail("calloc", ENOMEM);
	for (i = 0; i < n; i++) {
		uint64_t off = i * block;
		struct pciesw_dma_loc s = src, t2 = dst;

		s.addr += off;
		t2.addr += off;
		d[i] = dma_desc(s, t2, len - off < block ? len - off : block,
				i, i % chans);
	}
	t = run_all(fd, d, n);
	free(d);
	return t;
}

static uint64_t best_xfer(int fd, struct pciesw_dma_loc src,
			  struct pciesw_dma_loc dst, uint64_t len,
			  uint64_t block, unsigned int chans)
{
	uint64_t best = UINT64_MAX, t;
	int r;

	for (r = 0; r < REPS; r++) {
		t = xfer(fd, src, dst, len, block, chans);
		if (t < best)
			best = t;
	}
	return best;
}

/* Sum of the byte counters of port @port. */
static uint64_t port_bytes(struct pnl *p, unsigned int id, unsigned int port)
{
	struct pnl_obj *o = malloc(sizeof(*o));
	uint64_t sum = 0;
	int c;

	if (!o || ctr_get(p, id, port, o))
		fail("counter-get", EIO);
	for (c = PCIESW_COUNTER_INGRESS_POSTED_BYTES;
	     c <= PCIESW_COUNTER_EGRESS_COMPLETION_BYTES; c++)
		sum += o->ctr[c];
	free(o);
	return sum;
}

static int load_module(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = -errno;
	close(fd);
	return err;
}

/*
 * P6: KiB of the drop in free memory that none of the counters shows:
 * pages from the page allocator (kmalloc above 8 KiB, page tables).
 */
static long long mem_other(const struct mem *a, const struct mem *b)
{
	return a->free - b->free - (b->slab - a->slab) -
	       (b->vmalloc - a->vmalloc) - (b->percpu - a->percpu) -
	       (b->stack - a->stack);
}

/* P6: switch @id's PCI view on or off (sysfs, done when it returns) */
static void pci_view_set(unsigned int id, bool on)
{
	char path[96];

	snprintf(path, sizeof(path), PCIESW_BUS "/devices/pciesw%u/pci_view",
		 id);
	if (sysfs_write(path, on ? "1" : "0"))
		fail(path, errno);
}

/* P6: memory */
static void bench_memory(struct pnl *p, const char *ko)
{
	struct mem a, b, c;
	long long msize;
	unsigned int i;
	char extra[320];

	if (ko && !pciesw_present()) {
		mem_take(&a);
		if (load_module(ko))
			fail("finit_module", errno);
		if (pnl_open(p))
			fail("netlink", ENOENT);
		tp_wait_trained(p, 0);
		mem_take(&b);
		msize = module_size();
		snprintf(extra, sizeof(extra),
			 "(free -%lld KiB; module %lld KiB in /proc/modules; "
			 "slab %+lld (unreclaimable %+lld), vmalloc %+lld, "
			 "percpu %+lld, stacks %+lld, other pages %+lld KiB)",
			 a.free - b.free, msize / 1024, b.slab - a.slab,
			 b.unrecl - a.unrecl, b.vmalloc - a.vmalloc,
			 b.percpu - a.percpu, b.stack - a.stack,
			 mem_other(&a, &b));
		line("P6", "insmod: module + default card (KiB)",
		     a.free - b.free, "", "<= 512 KiB", a.free - b.free <= 512,
		     extra);
	} else if (pnl_open(p)) {
		fail("netlink (module not loaded? pass PCIESW_KO)", ENOENT);
	}

	for (i = 0; i < NSW; i++)
		sw_del(BID + i);
	mem_take(&a);
	for (i = 0; i < NSW; i++)
		if (sw_new(BID + i, NULL))
			fail("new_device", errno);
	for (i = 0; i < NSW; i++)
		tp_wait_trained(p, BID + i);
	mem_take(&b);
	/* the share of the PCI view: turn it off on all but BID */
	for (i = 1; i < NSW; i++)
		pci_view_set(BID + i, false);
	mem_take(&c);
	snprintf(extra, sizeof(extra),
		 "(16 switches: free -%lld KiB; slab %+lld (unreclaimable "
		 "%+lld), vmalloc %+lld, percpu %+lld, stacks %+lld, other "
		 "pages %+lld KiB; of it the PCI view %.0f KiB of slab "
		 "objects a switch (PCI core and config images); module "
		 "%lld KiB)",
		 a.free - b.free, b.slab - a.slab, b.unrecl - a.unrecl,
		 b.vmalloc - a.vmalloc,
		 b.percpu - a.percpu, b.stack - a.stack, mem_other(&a, &b),
		 (b.objs - c.objs) / (double)(NSW - 1),
		 module_size() / 1024);
	line("P6", "default card with PCI view, per switch (KiB)",
	     (a.free - b.free) / (double)NSW, "", "<= 256 KiB",
	     (a.free - b.free) / (double)NSW <= 256, extra);
	for (i = 1; i < NSW; i++)
		sw_del(BID + i);
}

/*
 * P6: holes cost nothing to read, through a mapping (one byte of 256 pages
 * between the pages bench_resident() wrote) or by DMA into another
 * endpoint's holes (16 MiB, gpu0 at 1 GiB + 1 MiB, clear of the pages
 * written and read, to nvme0 at 1 GiB).
 */
static void bench_holes(int fd, uint32_t gpu)
{
	size_t len = 16 * GiB, stride = 64 * MiB, off;
	uint32_t nvme = dma_ep_id(BID, "nvme0");
	long long g0 = dma_ep_resident(BID, "gpu0"), g1, g2;
	long long n0 = dma_ep_resident(BID, "nvme0"), n2;
	volatile unsigned char *w = dma_map(fd, gpu, 0, len);
	unsigned int sum = 0;
	char extra[160];

	if (w == MAP_FAILED)
		fail("mmap 16 GiB", errno);
	for (off = stride / 2; off < len; off += stride)
		sum += w[off];
	g1 = dma_ep_resident(BID, "gpu0");
	munmap((void *)w, len);
	snprintf(extra, sizeof(extra),
		 "(256 pages read, %s; mem_resident %lld -> %lld bytes)",
		 sum ? "NOT zeros" : "zeros", g0, g1);
	line("P6", "resident after reading 1 MiB of holes (KiB)",
	     (g1 - g0) / 1024.0, "", "0 KiB", g1 == g0 && !sum, extra);

	xfer(fd, dma_ep(gpu, GiB + MiB), dma_ep(nvme, GiB), 16 * MiB,
	     16 * MiB, 1);
	g2 = dma_ep_resident(BID, "gpu0");
	n2 = dma_ep_resident(BID, "nvme0");
	snprintf(extra, sizeof(extra),
		 "(16 MiB gpu0 -> nvme0, both holes; mem_resident gpu0 "
		 "%lld -> %lld, nvme0 %lld -> %lld bytes)", g1, g2, n0, n2);
	line("P6", "resident after DMA hole -> hole (KiB)",
	     (g2 - g1 + n2 - n0) / 1024.0, "", "0 KiB",
	     g2 == g1 && n2 == n0, extra);
}

/* P6: 1 MiB written into a 16 GiB window, 4 KiB every 64 MiB */
static void bench_resident(int fd, uint32_t gpu)
{
	size_t len = 16 * GiB, stride = 64 * MiB, off;
	long long before = dma_ep_resident(BID, "gpu0"), after;
	unsigned char *w = dma_map(fd, gpu, 0, len);
	struct mem a, b;
	char extra[160];

	if (w == MAP_FAILED)
		fail("mmap 16 GiB", errno);
	mem_take(&a);
	for (off = 0; off < len; off += stride)
		memset(w + off, 0x5a, 4096);
	mem_take(&b);
	after = dma_ep_resident(BID, "gpu0");
	munmap(w, len);
	snprintf(extra, sizeof(extra),
		 "(mem_resident %lld -> %lld bytes; free -%lld KiB)",
		 before, after, a.free - b.free);
	line("P6", "resident after 1 MiB into 16 GiB (MiB)",
	     (after - before) / (double)MiB, "", "~1 MiB (+-64 KiB)",
	     llabs(after - before - (long long)MiB) <= 64 * 1024, extra);
	bench_holes(fd, gpu);
}

int main(int argc, char **argv)
{
	const char *ko = argc > 1 ? argv[1] : getenv("PCIESW_KO");
	uint64_t len = 64 * MiB, t_dma, t_mem, t1, t2, up, t;
	unsigned char *s, *dst, *h;
	struct pnl p;
	uint32_t gpu, nvme;
	unsigned int i, r;
	char path[32], extra[256];
	int fd;
	struct utsname u;

	uname(&u);
	bench_memory(&p, ko);
	snprintf(path, sizeof(path), "/dev/pciesw%u", BID);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail(path, errno);
	gpu = dma_ep_id(BID, "gpu0");
	nvme = dma_ep_id(BID, "nvme0");
	bench_resident(fd, gpu);

	/* P1: unpaced ep->ep 64 MiB vs memcpy, pages present on both sides */
	s = dma_map(fd, gpu, 0, len);
	dst = dma_map(fd, nvme, 0, len);
	if (s == MAP_FAILED || dst == MAP_FAILED)
		fail("mmap", errno);
	pat_fill(s, len, 1);
	xfer(fd, dma_ep(gpu, 0), dma_ep(nvme, 0), len, len, 1);
	t_dma = best_xfer(fd, dma_ep(gpu, 0), dma_ep(nvme, 0), len, len, 1);
	if (pat_check(dst, len, 1) != -1)
		fail("P1 data differs", EIO);
	{
		unsigned char *a = dma_host_buf(len), *b = dma_host_buf(len);

		if (!a || !b)
			fail("host buffers", ENOMEM);
		pat_fill(a, len, 2);
		memset(b, 0, len);
		t_mem = UINT64_MAX;
		for (r = 0; r < REPS; r++) {
			t = tp_now_ns();
			memcpy(b, a, len);
			t = tp_now_ns() - t;
			if (t < t_mem)
				t_mem = t;
		}
		if (pat_check(b, len, 2) != -1)
			fail("memcpy", EIO);
		munmap(a, len);
		munmap(b, len);
	}
	snprintf(extra, sizeof(extra), "(DMA %.0f MB/s, memcpy %.0f MB/s)",
		 len / secs(t_dma) / 1e6, len / secs(t_mem) / 1e6);
	line("P1", "ep->ep 64 MiB unpaced / memcpy 64 MiB",
	     (double)t_mem / t_dma, "", ">= 0.9", (double)t_mem / t_dma >= 0.9,
	     extra);
	t1 = best_xfer(fd, dma_ep(gpu, 0), dma_ep(nvme, 0), len, MiB, 1);
	t2 = best_xfer(fd, dma_ep(gpu, 0), dma_ep(nvme, 0), len, MiB, 2);
	snprintf(extra, sizeof(extra),
		 "(1 MiB blocks: 1 channel %.0f MB/s, 2 channels %.0f MB/s)",
		 len / secs(t1) / 1e6, len / secs(t2) / 1e6);
	line("P1", "2 channels / 1 channel", (double)t1 / t2, "x", ">= 1.7x",
	     (double)t1 / t2 >= 1.7, extra);

	/* P2: NVMe -> GPU, P2P vs bounce through a host buffer */
	h = dma_host_buf(len);
	if (!h)
		fail("host buffer", ENOMEM);
	memset(h, 0, len);
	up = port_bytes(&p, BID, 0);
	t1 = best_xfer(fd, dma_ep(nvme, 0), dma_ep(gpu, 0), len, MiB, 4);
	up = port_bytes(&p, BID, 0) - up;
	t2 = UINT64_MAX;
	for (r = 0; r < REPS; r++) {
		/* each block: nvme -> host, then host -> gpu when it is in */
		struct pciesw_dma_completion c[64];
		unsigned int n = len / MiB, done = 0;
		uint64_t t0 = tp_now_ns();

		for (i = 0; i < n; i++) {
			struct pciesw_dma_desc d = dma_desc(
				dma_ep(nvme, i * MiB), dma_host(h + i * MiB),
				MiB, i, i % 4);

			if (dma_submit(fd, &d, 1, NULL))
				fail("submit", errno);
		}
		while (done < n) {
			int k = dma_read(fd, c, 64, WAIT_MS), j;

			if (k <= 0)
				fail("bounce completions", -k);
			for (j = 0; j < k; j++) {
				struct pciesw_dma_desc d;

				if (c[j].status != PCIESW_DMA_STATUS_OK)
					fail("bounce", EIO);
				if (c[j].user_data >= n) {
					done++;
					continue;
				}
				i = c[j].user_data;
				d = dma_desc(dma_host(h + i * MiB),
					     dma_ep(gpu, i * MiB), MiB, n + i,
					     i % 4);
				if (dma_submit(fd, &d, 1, NULL))
					fail("submit", errno);
			}
		}
		t = tp_now_ns() - t0;
		if (t < t2)
			t2 = t;
	}
	snprintf(extra, sizeof(extra),
		 "(P2P %.0f MB/s, bounce %.0f MB/s; upstream bytes during P2P: %llu)",
		 len / secs(t1) / 1e6, len / secs(t2) / 1e6,
		 (unsigned long long)up);
	line("P2", "NVMe->GPU P2P / host bounce (0 upstream)", (double)t2 / t1,
	     "x", ">= 1.8x, 0 up", (double)t2 / t1 >= 1.8 && up == 0, extra);
	munmap(h, len);
	munmap(s, len);
	munmap(dst, len);

	/* P3: paced throughput / modelled, 1 MiB blocks over 4 channels */
	{
		static const struct { unsigned int speed, width; } l[] = {
			{ PCIESW_LINK_SPEED_GEN3, 1 },
			{ PCIESW_LINK_SPEED_GEN4, 1 },
			{ PCIESW_LINK_SPEED_GEN5, 1 },
			{ PCIESW_LINK_SPEED_GEN3, 4 },
		};
		uint32_t ep;
		char what[64];

		if (dma_switch_set(&p, BID, PCIESW_A_SWITCH_DMA_PACING, 1,
				   NULL))
			fail("pacing on", EIO);
		for (i = 0; i < 4; i++) {
			uint64_t bw, n;
			double ratio;

			if (dma_ep_replace(&p, BID, 2, PCIESW_EP_TYPE_NVME,
					   l[i].speed, l[i].width, &ep, NULL))
				fail("ep-add", EIO);
			bw = dma_port_bw(&p, BID, 2);
			/* about 0.3 s of modelled time */
			n = (uint64_t)(bw * 0.3 / MiB);
			n = n < 8 ? 8 : n;
			t = xfer(fd, dma_ep(gpu, 0), dma_ep(ep, 0), n * MiB,
				 MiB, 4);
			ratio = n * MiB / secs(t) / bw;
			snprintf(what, sizeof(what),
				 "paced / model, Gen%u x%u", l[i].speed,
				 l[i].width);
			snprintf(extra, sizeof(extra),
				 "(%llu MiB: %.1f MB/s, model %.1f MB/s)",
				 (unsigned long long)n, n * MiB / secs(t) / 1e6,
				 bw / 1e6);
			line("P3", what, ratio, "", "0.97 .. 1.03",
			     ratio >= 0.97 && ratio <= 1.03, extra);
		}
		if (dma_switch_set(&p, BID, PCIESW_A_SWITCH_DMA_PACING, 0,
				   NULL))
			fail("pacing off", EIO);
		if (dma_ep_replace(&p, BID, 2, PCIESW_EP_TYPE_NVME, 0, 0,
				   &nvme, NULL))
			fail("ep-add", EIO);
	}

	/* P4: 4 KiB descriptors in batches of 64 vs a 4 KiB memcpy loop */
	{
		enum { N = 16384, BATCH = 64, DEPTH = 1024 };
		struct pciesw_dma_desc *d = calloc(N, sizeof(*d));
		struct pciesw_dma_completion c[DEPTH];
		unsigned int sub = 0, done = 0;
		unsigned char *a = dma_host_buf(len), *b = dma_host_buf(len);
		double dps, mps;

		if (!d || !a || !b)
			fail("calloc", ENOMEM);
		for (i = 0; i < N; i++)
			d[i] = dma_desc(dma_ep(gpu, i * 4 * KiB),
					dma_ep(nvme, i * 4 * KiB), 4 * KiB, i,
					i / BATCH % 4);
		run_all(fd, d, N);	/* pages present */
		t1 = tp_now_ns();
		while (done < N) {
			while (sub < N && sub - done + BATCH <= DEPTH) {
				if (dma_submit(fd, d + sub, BATCH, NULL))
					fail("submit", errno);
				sub += BATCH;
			}
			int k = dma_read(fd, c, DEPTH, WAIT_MS);

			if (k <= 0)
				fail("P4 completions", -k);
			done += k;
		}
		t1 = tp_now_ns() - t1;
		dps = N / secs(t1);
		memset(a, 1, len);
		memset(b, 0, len);
		t2 = tp_now_ns();
		for (i = 0; i < N; i++)
			memcpy(b + i * 4 * KiB, a + i * 4 * KiB, 4 * KiB);
		t2 = tp_now_ns() - t2;
		mps = N / secs(t2);
		snprintf(extra, sizeof(extra),
			 "(DMA %.0f desc/s, memcpy %.0f copies/s)", dps, mps);
		line("P4", "4 KiB descs, batches of 64 / 4 KiB memcpy",
		     dps / mps, "", ">= 0.5", dps / mps >= 0.5, extra);
		free(d);
		munmap(a, len);
		munmap(b, len);
	}
	snprintf(out[nout++], sizeof(out[0]),
		 "P5  not defined by the issue (nothing measured)");

	close(fd);
	sw_del(BID);
	printf("pciesw benchmarks: kernel %s, %ld vCPUs, ratios measured in this run\n",
	       u.release, sysconf(_SC_NPROCESSORS_ONLN));
	printf("%-3s %-44s %13s %-18s %s\n", "", "figure", "value", "target",
	       "result");
	for (r = 1; r <= 6; r++) {
		char id[4];

		snprintf(id, sizeof(id), "P%u", r);
		for (i = 0; i < (unsigned int)nout; i++)
			if (!strncmp(out[i], id, 2))
				printf("%s\n", out[i]);
	}
	printf("summary: %d PASS, %d MISS\n", npass, nmiss);
	return 0;
}
