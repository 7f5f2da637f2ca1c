// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint memory windows through /dev/pcieswN: PCIESW_IOC_EP_MAP, mmap()
 * of a sparse 16 GiB GPU window, resident bytes, sharing between mappings
 * and processes, and an unplug or the switch's removal revoking every
 * mapping of the window (SIGBUS, touched pages too).  Memory accounting:
 * PCIESW_IOC_EP_DISCARD (punch a hole), the module's mem_limit_mb (SIGBUS,
 * DMA nomem, then room again after a discard), a cgroup v2 memory.max
 * stopping a process that fills a 16 GiB window, and RLIMIT_MEMLOCK on
 * the DMA engine's pinned host buffers.
 */
#define _GNU_SOURCE		/* mremap(), sched_setaffinity() */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include "pciesw_test.h"

#define MEM_ID	210
#define MiB	(1024ULL * 1024)
#define GiB	(1024 * MiB)

FIXTURE(mem)
{
	int fd;
	long page;
};

static long ep_attr(unsigned int id, const char *ep, const char *attr)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-%s/%s", id, ep,
		 attr);
	if (sysfs_read(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 0);
}

static int ep_map(int fd, uint32_t ep_id, struct pciesw_ep_map *map)
{
	memset(map, 0, sizeof(*map));
	map->size = sizeof(*map);
	map->ep_id = ep_id;
	return ioctl(fd, PCIESW_IOC_EP_MAP, map) ? -errno : 0;
}

/* Map @len bytes of endpoint @ep (by name) at @off into its window. */
static void *map_ep(int fd, const char *ep, uint64_t off, size_t len,
		    int flags)
{
	struct pciesw_ep_map map;
	long id = ep_attr(MEM_ID, ep, "id");

	if (id < 0 || ep_map(fd, id, &map))
		return MAP_FAILED;
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd,
		    map.offset + off);
}

static uint64_t pattern(uint64_t i)
{
	return i * 0x9e3779b97f4a7c15ULL + 1;
}

FIXTURE_SETUP(mem)
{
	char path[32];

	ASSERT_TRUE(pciesw_present());
	sw_del(MEM_ID);
	ASSERT_EQ(0, sw_new(MEM_ID, NULL));
	snprintf(path, sizeof(path), "/dev/pciesw%u", MEM_ID);
	self->fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->page = sysconf(_SC_PAGESIZE);
}

#define MOD_PARAMS	"/sys/module/pciesw/parameters/"

FIXTURE_TEARDOWN(mem)
{
	if (self->fd >= 0)
		close(self->fd);
	/* the limit a test lowered goes back to the default */
	sysfs_write(MOD_PARAMS "mem_limit_mb", "0");
	sw_del(MEM_ID);
}

static long long mod_param(const char *name)
{
	char buf[64];

	if (sysfs_read(name, buf, sizeof(buf)) < 0)
		return -1;
	return strtoll(buf, NULL, 0);
}

TEST_F(mem, ep_map_ioctl)
{
	struct pciesw_ep_map map, a, b;
	long gpu = ep_attr(MEM_ID, "gpu0", "id");
	long nvme = ep_attr(MEM_ID, "nvme0", "id");

	ASSERT_LE(0, gpu);
	ASSERT_LE(0, nvme);
	ASSERT_EQ(0, ep_map(self->fd, gpu, &map));
	EXPECT_EQ(16 * GiB, map.mem_size);
	EXPECT_EQ(ep_attr(MEM_ID, "gpu0", "mem_size"), (long)map.mem_size);
	EXPECT_EQ(0ULL, map.offset % self->page);
	ASSERT_EQ(0, ep_map(self->fd, nvme, &map));
	EXPECT_EQ(4 * GiB, map.mem_size);

	/* windows do not overlap: each gets its own offset range */
	ASSERT_EQ(0, ep_map(self->fd, gpu, &a));
	ASSERT_EQ(0, ep_map(self->fd, nvme, &b));
	EXPECT_TRUE(a.offset + a.mem_size <= b.offset ||
		    b.offset + b.mem_size <= a.offset);

	EXPECT_EQ(-ENOENT, ep_map(self->fd, 4000, &map));

	memset(&map, 0, sizeof(map));
	map.size = sizeof(map) - 8;
	map.ep_id = gpu;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(EINVAL, errno);
	map.size = sizeof(map);
	map.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(EINVAL, errno);
	map.flags = 0;
	map.reserved0 = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(EINVAL, errno);
	map.reserved0 = 0;
	map.reserved[3] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(EINVAL, errno);
	map.reserved[3] = 0;

	/*
	 * Outputs are ignored on input and overwritten: the structure of
	 * one call serves the next (gpu0's, reused for nvme0 and back),
	 * and so does one with garbage in them.
	 */
	map = a;
	map.ep_id = nvme;
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map))
		TH_LOG("reused structure: %s", strerror(errno));
	EXPECT_EQ(sizeof(map), map.size);
	EXPECT_EQ(b.offset, map.offset);
	EXPECT_EQ(b.mem_size, map.mem_size);
	map.ep_id = gpu;
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(a.offset, map.offset);
	EXPECT_EQ(a.mem_size, map.mem_size);
	map.offset = ~0ULL;
	map.mem_size = 1;
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(a.offset, map.offset);
	EXPECT_EQ(a.mem_size, map.mem_size);
	/* but not with a reserved field or flag set */
	map.reserved0 = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(EINVAL, errno);
	map.reserved0 = 0;
	map.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &map));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

/* 1 MiB written into a 16 GiB window costs 1 MiB, and reads back. */
TEST_F(mem, sparse_window)
{
	size_t len = 16 * GiB, i, n = MiB / sizeof(uint64_t);
	uint64_t *p, *q;

	EXPECT_EQ(0, ep_attr(MEM_ID, "gpu0", "mem_resident"));
	p = map_ep(self->fd, "gpu0", 0, len, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, ep_attr(MEM_ID, "gpu0", "mem_resident"));

	/* 512 KiB at the start, 512 KiB at the very end, unaligned values */
	for (i = 0; i < n / 2; i++)
		p[i] = pattern(i);
	for (i = 0; i < n / 2; i++)
		p[len / 8 - n / 2 + i] = pattern(n + i);
	EXPECT_EQ((long)MiB, ep_attr(MEM_ID, "gpu0", "mem_resident"));
	ASSERT_EQ(0, munmap(p, len));

	/* a second mapping of a part of the window sees the same memory */
	q = map_ep(self->fd, "gpu0", len - MiB, MiB, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, q);
	for (i = 0; i < n / 2; i++)
		if (q[n / 2 + i] != pattern(n + i))
			break;
	EXPECT_EQ(n / 2, i);
	/* reading a page nobody wrote gives zeros and backs nothing */
	EXPECT_EQ(0ULL, q[0]);
	EXPECT_EQ(0ULL, q[n / 2 - 1]);
	EXPECT_EQ((long)MiB, ep_attr(MEM_ID, "gpu0", "mem_resident"));
	/* a write there, after the read, backs that page and reads back */
	q[0] = pattern(7);
	EXPECT_EQ(pattern(7), q[0]);
	EXPECT_EQ(0ULL, q[1]);
	EXPECT_EQ((long)MiB + self->page,
		  ep_attr(MEM_ID, "gpu0", "mem_resident"));
	ASSERT_EQ(0, munmap(q, MiB));
}

TEST_F(mem, shared_between_processes)
{
	volatile uint64_t *p;
	pid_t pid;
	int status;

	p = map_ep(self->fd, "nvme0", 4096 * 10, self->page, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		p[3] = 0xfeedfacecafebeefULL;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0xfeedfacecafebeefULL, p[3]);
	EXPECT_EQ(0, munmap((void *)p, self->page));
}

TEST_F(mem, bad_mappings)
{
	struct pciesw_ep_map map;
	long gpu = ep_attr(MEM_ID, "gpu0", "id");
	void *p;

	ASSERT_EQ(0, ep_map(self->fd, gpu, &map));
	/* device memory has no private copy */
	p = mmap(NULL, self->page, PROT_READ, MAP_PRIVATE, self->fd,
		 map.offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* past the end of the window */
	p = mmap(NULL, 2 * self->page, PROT_READ, MAP_SHARED, self->fd,
		 map.offset + map.mem_size - self->page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
		 map.offset + map.mem_size);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* an offset that names no endpoint */
	p = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
		 (off_t)4000 << 40);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(ENXIO, errno);
	/* a mapping cannot be grown past what was checked */
	p = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, map.offset + map.mem_size - self->page);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(MAP_FAILED, mremap(p, self->page, 2 * self->page,
				     MREMAP_MAYMOVE));
	EXPECT_EQ(0, munmap(p, self->page));
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/* Whether touching @p gets SIGBUS. */
static bool gets_sigbus(volatile uint64_t *p, bool write)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	bool faulted = false;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_jmp, 1))
		faulted = true;
	else if (write)
		*p = 1;
	else
		(void)*p;
	sigaction(SIGBUS, &old, NULL);
	return faulted;
}

/*
 * Unplug revokes every mapping of the window: pages touched before (in
 * this mapping and another one, of another open file) and new faults all
 * get SIGBUS.
 */
TEST_F(mem, unplug_while_mapped)
{
	volatile uint64_t *p;
	char path[128];
	long port = ep_attr(MEM_ID, "gpu0", "port");

	volatile uint64_t *q;
	char dev[32];
	int fd2;

	p = map_ep(self->fd, "gpu0", 0, 4 * self->page, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 42;
	snprintf(dev, sizeof(dev), "/dev/pciesw%u", MEM_ID);
	fd2 = open(dev, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	q = map_ep(fd2, "gpu0", 0, self->page, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, q);
	EXPECT_EQ(42ULL, q[0]);
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%ld/ep_remove",
		 MEM_ID, port);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-gpu0", MEM_ID);
	EXPECT_NE(0, access(path, F_OK));

	EXPECT_TRUE(gets_sigbus(&p[0], false));
	EXPECT_TRUE(gets_sigbus(&p[0], true));
	EXPECT_TRUE(gets_sigbus(&q[0], false));
	EXPECT_TRUE(gets_sigbus(&p[self->page / sizeof(uint64_t) * 2], false));
	EXPECT_EQ(0, munmap((void *)p, 4 * self->page));
	EXPECT_EQ(0, munmap((void *)q, self->page));
	close(fd2);
}

/* The switch can go while a window is mapped; the mapping is revoked. */
TEST_F(mem, delete_switch_while_mapped)
{
	volatile uint64_t *p;

	p = map_ep(self->fd, "nvme1", 0, self->page, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	p[1] = 7;
	ASSERT_EQ(0, sw_del(MEM_ID));
	EXPECT_TRUE(gets_sigbus(&p[1], false));
	EXPECT_TRUE(gets_sigbus(&p[2], true));
	EXPECT_EQ(0, munmap((void *)p, self->page));
	close(self->fd);
	self->fd = -1;
}

/* PCIESW_IOC_EP_DISCARD of @len bytes at @off: 0 or -errno, *freed set. */
static int ep_discard(int fd, uint32_t ep_id, uint64_t off, uint64_t len,
		      uint64_t *freed)
{
	struct pciesw_ep_discard d = {
		.size = sizeof(d), .ep_id = ep_id, .offset = off, .len = len,
	};

	if (ioctl(fd, PCIESW_IOC_EP_DISCARD, &d))
		return -errno;
	if (freed)
		*freed = d.freed;
	return 0;
}

/*
 * One DMA of @len bytes from @src to @dst; the completion's status, or
 * -errno of the submission, or -ETIMEDOUT.
 */
static int dma1_once(int fd, struct pciesw_dma_loc src,
		     struct pciesw_dma_loc dst, uint64_t len)
{
	struct pciesw_dma_desc d = { .src = src, .dst = dst, .len = len };
	struct pciesw_dma_submit sub = {
		.size = sizeof(sub), .desc_size = sizeof(d), .nr_descs = 1,
		.descs = (uintptr_t)&d,
	};
	struct pciesw_dma_completion c;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (ioctl(fd, PCIESW_IOC_DMA_SUBMIT, &sub))
		return -errno;
	if (poll(&pfd, 1, tp_ms(10000)) != 1)
		return -ETIMEDOUT;
	if (read(fd, &c, sizeof(c)) != sizeof(c))
		return -EIO;
	return c.status;
}

/* dma1_once(), again while the new switch's links are still training */
static int dma1(int fd, struct pciesw_dma_loc src, struct pciesw_dma_loc dst,
		uint64_t len)
{
	struct tp_poll w;
	int st;

	tp_poll_start(&w, 10000);
	do {
		st = dma1_once(fd, src, dst, len);
	} while (st == PCIESW_DMA_STATUS_LINK_DOWN && tp_poll_next(&w));
	return st;
}

static struct pciesw_dma_loc loc_ep(uint32_t ep, uint64_t off)
{
	return (struct pciesw_dma_loc){ .ep_id = ep, .addr = off };
}

static struct pciesw_dma_loc loc_host(const void *p)
{
	return (struct pciesw_dma_loc){ .ep_id = PCIESW_DMA_HOST,
					.addr = (uintptr_t)p };
}

/*
 * A hole read through mappings maps a zero page that backs nothing, for a
 * GPU window (its own) and an NVMe one (the module's); once the page is
 * written, by DMA or through another mapping, every mapping that read the
 * hole sees the data, a read-only one of another open file too, and the
 * window's resident bytes count that one page.
 */
TEST_F(mem, hole_read_then_written)
{
	const char *eps[] = { "gpu0", "nvme0" };
	long pg = self->page, words = pg / 8;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		long id = ep_attr(MEM_ID, eps[k], "id");
		long r0 = ep_attr(MEM_ID, eps[k], "mem_resident");
		volatile uint64_t *a, *b, *ro;
		struct pciesw_ep_map map;
		uint64_t v = pattern(40 + k);
		char dev[32];
		int rfd;

		ASSERT_LE(0, id);
		snprintf(dev, sizeof(dev), "/dev/pciesw%u", MEM_ID);
		rfd = open(dev, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, rfd);
		ASSERT_EQ(0, ep_map(rfd, id, &map));
		ro = mmap(NULL, 4 * pg, PROT_READ, MAP_SHARED, rfd, map.offset);
		ASSERT_NE(MAP_FAILED, ro);
		a = map_ep(self->fd, eps[k], 0, 4 * pg, MAP_SHARED);
		b = map_ep(self->fd, eps[k], 0, 4 * pg, MAP_SHARED);
		ASSERT_NE(MAP_FAILED, a);
		ASSERT_NE(MAP_FAILED, b);
		EXPECT_EQ(0ULL, a[0]);
		EXPECT_EQ(0ULL, b[words]);
		EXPECT_EQ(0ULL, ro[0]);
		EXPECT_EQ(0ULL, ro[words]);
		EXPECT_EQ(r0, ep_attr(MEM_ID, eps[k], "mem_resident"));

		/* DMA into page 0: both mappings that read it see it */
		EXPECT_EQ(PCIESW_DMA_STATUS_OK,
			  dma1(self->fd, loc_host(&v), loc_ep(id, 8), 8));
		EXPECT_EQ(v, a[1]);
		EXPECT_EQ(v, ro[1]);
		EXPECT_EQ(r0 + pg, ep_attr(MEM_ID, eps[k], "mem_resident"));
		/* a write through b to page 1, which a and ro read as zeros */
		b[words] = v + 1;
		EXPECT_EQ(v + 1, a[words]);
		EXPECT_EQ(v + 1, ro[words]);
		EXPECT_EQ(0ULL, a[2 * words]);
		EXPECT_EQ(r0 + 2 * pg, ep_attr(MEM_ID, eps[k], "mem_resident"));
		munmap((void *)a, 4 * pg);
		munmap((void *)b, 4 * pg);
		munmap((void *)ro, 4 * pg);
		close(rfd);
	}
}

/*
 * A hole punched in a mapped window: the pages go (resident drops, of the
 * endpoint and of the module), mapped ones read as zeros at once, the
 * pages around keep their data; bad ranges and a read-only file refused.
 */
TEST_F(mem, discard_range)
{
	long gpu = ep_attr(MEM_ID, "gpu0", "id");
	long pg = self->page, words = pg / 8;
	long long mod0 = mod_param(MOD_PARAMS "mem_resident");
	struct pciesw_ep_discard d = { 0 };
	volatile uint64_t *p;
	uint64_t freed = 1;
	char dev[32];
	int i, ro;

	ASSERT_LE(0, gpu);
	ASSERT_LE(0, mod0);
	p = map_ep(self->fd, "gpu0", 0, 4 * pg, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < 4; i++)
		p[i * words] = pattern(i);
	EXPECT_EQ(4 * pg, ep_attr(MEM_ID, "gpu0", "mem_resident"));
	EXPECT_EQ(mod0 + 4 * pg, mod_param(MOD_PARAMS "mem_resident"));

	ASSERT_EQ(0, ep_discard(self->fd, gpu, pg, 2 * pg, &freed));
	EXPECT_EQ((uint64_t)(2 * pg), freed);
	EXPECT_EQ(2 * pg, ep_attr(MEM_ID, "gpu0", "mem_resident"));
	EXPECT_EQ(mod0 + 2 * pg, mod_param(MOD_PARAMS "mem_resident"));
	/* the mapping sees the hole at once; the edges keep their data */
	EXPECT_EQ(pattern(0), p[0]);
	EXPECT_EQ(0ULL, p[words]);
	EXPECT_EQ(0ULL, p[2 * words]);
	EXPECT_EQ(pattern(3), p[3 * words]);
	/* a hole nothing was in frees nothing; a write refills it */
	ASSERT_EQ(0, ep_discard(self->fd, gpu, 16 * GiB - 4 * pg, 4 * pg,
				&freed));
	EXPECT_EQ(0ULL, freed);
	p[words] = 5;
	EXPECT_EQ(5ULL, p[words]);
	/* the reads of the hole above backed nothing: the write one page */
	EXPECT_EQ(3 * pg, ep_attr(MEM_ID, "gpu0", "mem_resident"));
	EXPECT_EQ(0ULL, p[2 * words]);

	EXPECT_EQ(-EINVAL, ep_discard(self->fd, gpu, 1, pg, NULL));
	EXPECT_EQ(-EINVAL, ep_discard(self->fd, gpu, 0, pg + 1, NULL));
	EXPECT_EQ(-EINVAL, ep_discard(self->fd, gpu, 0, 0, NULL));
	EXPECT_EQ(-EOVERFLOW, ep_discard(self->fd, gpu, -(uint64_t)pg,
					 2 * pg, NULL));
	EXPECT_EQ(-ERANGE, ep_discard(self->fd, gpu, 16 * GiB, pg, NULL));
	EXPECT_EQ(-ERANGE, ep_discard(self->fd, gpu, 0, 16 * GiB + pg, NULL));
	EXPECT_EQ(-ENOENT, ep_discard(self->fd, 4000, 0, pg, NULL));
	d.ep_id = gpu;
	d.len = pg;
	d.size = sizeof(d) - 8;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_DISCARD, &d));
	EXPECT_EQ(EINVAL, errno);
	d.size = sizeof(d);
	d.reserved[2] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_DISCARD, &d));
	EXPECT_EQ(EINVAL, errno);
	d.reserved[2] = 0;
	d.freed = 1;	/* an output */
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_DISCARD, &d));
	EXPECT_EQ(EINVAL, errno);
	d.freed = 0;
	{
		/* a newer caller's larger struct: a zero tail is fine */
		struct {
			struct pciesw_ep_discard d;
			uint64_t tail;
		} big = { .d = d };

		big.d.size = sizeof(big);
		big.d.offset = 3 * pg;
		EXPECT_EQ(0, ioctl(self->fd, PCIESW_IOC_EP_DISCARD, &big));
		EXPECT_EQ(sizeof(d), big.d.size);
		big.d.size = sizeof(big);
		big.d.freed = 0;
		big.tail = 1;
		EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_DISCARD, &big));
		EXPECT_EQ(E2BIG, errno);
	}
	snprintf(dev, sizeof(dev), "/dev/pciesw%u", MEM_ID);
	ro = open(dev, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ro);
	EXPECT_EQ(-EBADF, ep_discard(ro, gpu, 0, pg, NULL));
	close(ro);
	EXPECT_EQ(pattern(0), p[0]);
	EXPECT_EQ(0, munmap((void *)p, 4 * pg));
}

/*
 * The module's limit on resident endpoint memory: past it a fault of a
 * mapping gets SIGBUS and a DMA into a window completes with nomem; a
 * discard makes room again.
 */
TEST_F(mem, module_limit)
{
	long long lim0 = mod_param(MOD_PARAMS "mem_limit_mb");
	long long res = mod_param(MOD_PARAMS "mem_resident");
	long gpu = ep_attr(MEM_ID, "gpu0", "id");
	long pg = self->page, words = pg / 8, i;
	long long lim, room;
	volatile uint64_t *p;
	void *buf;
	char v[32];

	ASSERT_LE(0, gpu);
	ASSERT_LT(0, lim0);
	ASSERT_LE(0, res);
	/* the default: half of RAM */
	EXPECT_LE(lim0 * (long long)MiB,
		  sysconf(_SC_PHYS_PAGES) * (long long)pg / 2);
	EXPECT_LT(lim0 * (long long)MiB,
		  sysconf(_SC_PHYS_PAGES) * (long long)pg / 2 + (long long)MiB);
	EXPECT_NE(0, sysfs_write(MOD_PARAMS "mem_resident", "0"));
	EXPECT_NE(0, sysfs_write(MOD_PARAMS "mem_limit_mb", "x"));

	lim = res / (long long)MiB + 2;
	snprintf(v, sizeof(v), "%lld", lim);
	ASSERT_EQ(0, sysfs_write(MOD_PARAMS "mem_limit_mb", v));
	EXPECT_EQ(lim, mod_param(MOD_PARAMS "mem_limit_mb"));
	room = (lim * (long long)MiB - res) / pg;

	p = map_ep(self->fd, "gpu0", 0, 4 * MiB, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < 4 * (long)MiB / pg; i++)
		if (gets_sigbus(&p[i * words], true))
			break;
	/* every page up to the limit, then SIGBUS */
	EXPECT_EQ(room, i);
	EXPECT_EQ(lim * (long long)MiB, mod_param(MOD_PARAMS "mem_resident"));
	EXPECT_TRUE(gets_sigbus(&p[i * words], true));
	/* reading a hole past the limit needs no page: zeros */
	EXPECT_FALSE(gets_sigbus(&p[i * words], false));
	EXPECT_EQ(0ULL, p[i * words]);
	EXPECT_EQ(lim * (long long)MiB, mod_param(MOD_PARAMS "mem_resident"));

	buf = mmap(NULL, 64 * 1024, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0xa5, 64 * 1024);
	EXPECT_EQ(PCIESW_DMA_STATUS_NOMEM,
		  dma1(self->fd, loc_host(buf), loc_ep(gpu, 8 * MiB),
		       64 * 1024));
	/* reading a hole allocates nothing: it goes */
	EXPECT_EQ(PCIESW_DMA_STATUS_OK,
		  dma1(self->fd, loc_ep(gpu, 8 * MiB), loc_host(buf),
		       64 * 1024));
	EXPECT_EQ(0, ((volatile char *)buf)[100]);

	/* a hole of 1 MiB: room for the DMA, and the faults work again */
	ASSERT_EQ(0, ep_discard(self->fd, gpu, 0, MiB, NULL));
	EXPECT_EQ(lim * (long long)MiB - (long long)MiB,
		  mod_param(MOD_PARAMS "mem_resident"));
	memset(buf, 0x5a, 64 * 1024);
	EXPECT_EQ(PCIESW_DMA_STATUS_OK,
		  dma1(self->fd, loc_host(buf), loc_ep(gpu, 8 * MiB),
		       64 * 1024));
	EXPECT_FALSE(gets_sigbus(&p[0], true));
	EXPECT_EQ(1ULL, p[0]);

	/* the default again: the rest of the window can be written */
	ASSERT_EQ(0, sysfs_write(MOD_PARAMS "mem_limit_mb", "0"));
	EXPECT_EQ(lim0, mod_param(MOD_PARAMS "mem_limit_mb"));
	EXPECT_FALSE(gets_sigbus(&p[(4 * MiB - pg) / 8], true));
	EXPECT_EQ(0, munmap((void *)p, 4 * MiB));
	munmap(buf, 64 * 1024);
}


/* ep_remove of endpoint @ep of the test switch: 0 or -1 */
static int ep_remove(const char *ep)
{
	long port = ep_attr(MEM_ID, ep, "port");
	char path[128];

	if (port < 0)
		return -1;
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%ld/ep_remove",
		 MEM_ID, port);
	return sysfs_write(path, "1");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int on_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* what the spinner of unplug_frees_yielding reports */
struct spin_report {
	volatile int started;
	volatile int stop;
	volatile long long max_gap_ns;
};

/*
 * Freeing a big window on an unplug (under sw->lock, by a kernel that
 * does not preempt: Debian's are voluntary) gives the CPU up as it goes:
 * a process spinning on the same CPU as the writer of ep_remove is never
 * kept off it for long, where one loop over 512 MiB of pages (128 Ki
 * pages) kept it off for the whole free.  On the debug kernel (KASAN,
 * ~5x slower, preemptible) 64 MiB, which still frees in 16 batches: 512
 * took longer than the harness's timeout there.
 */
TEST_F(mem, unplug_frees_yielding)
{
	long gpu = ep_attr(MEM_ID, "gpu0", "id");
	long long size = (tp_slow() ? 64 : 512) * (long long)MiB;
	struct spin_report *r;
	long long t0, t1, have;
	char *buf;
	int status;
	pid_t pid;

	ASSERT_LE(0, gpu);
	buf = mmap(NULL, MiB, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0x5a, MiB);
	/* @size resident in gpu0: 1 MiB, then copies doubling it */
	ASSERT_EQ(PCIESW_DMA_STATUS_OK,
		  dma1(self->fd, loc_host(buf), loc_ep(gpu, 0), MiB));
	for (have = MiB; have < size; have *= 2)
		ASSERT_EQ(PCIESW_DMA_STATUS_OK,
			  dma1(self->fd, loc_ep(gpu, 0), loc_ep(gpu, have),
			       have));
	ASSERT_EQ(size, ep_attr(MEM_ID, "gpu0", "mem_resident"));
	munmap(buf, MiB);

	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		long long prev, t, max = 0;

		if (on_cpu0())
			_exit(2);
		prev = now_ns();
		r->started = 1;
		while (!r->stop) {
			t = now_ns();
			if (t - prev > max)
				max = t - prev;
			prev = t;
		}
		r->max_gap_ns = max;
		_exit(0);
	}
	ASSERT_EQ(0, on_cpu0());
	while (!r->started)
		usleep(1000);
	usleep(50000);
	t0 = now_ns();
	ASSERT_EQ(0, ep_remove("gpu0"));
	t1 = now_ns();
	r->stop = 1;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	TH_LOG("ep_remove freeing %lld MiB: %lld ms; longest the spinner on the same CPU was off it: %lld ms",
	       size / MiB, (t1 - t0) / 1000000, r->max_gap_ns / 1000000);
	/* a few scheduler slices, not the free */
	EXPECT_GT(tp_ms(50) * 1000000LL, r->max_gap_ns);
	munmap(r, sizeof(*r));
}

#define RACE_THREADS	4
#define RACE_PAGES	16

static __thread sigjmp_buf race_jmp;

static void on_sigbus_race(int sig)
{
	(void)sig;
	siglongjmp(race_jmp, 1);
}

struct race_thread {
	pthread_t tid;
	volatile uint64_t *p;
	long words;
	bool write;
	volatile bool *stop;
	unsigned long faults;
};

/*
 * Fault the mapping's pages in again and again, until SIGBUS or stop;
 * what the last fault mapped stays mapped.
 */
static void *race_faulter(void *arg)
{
	struct race_thread *t = arg;
	int i;

	if (sigsetjmp(race_jmp, 1))
		return NULL;
	for (;;) {
		for (i = 0; i < RACE_PAGES; i++) {
			if (*t->stop)
				return NULL;
			if (t->write)
				t->p[i * t->words] = i + 1;
			else
				(void)t->p[i * t->words];
			t->faults++;
		}
		madvise((void *)t->p, RACE_PAGES * t->words * 8,
			MADV_DONTNEED);
	}
}

/*
 * Faults racing the unplug: threads keep faulting pages of gpu0 in (half
 * of them writing, half reading holes: the zero page), each fault held
 * back 1 s after it found the window there (debugfs fault_delay_ms: longer
 * than the unplug takes to reach the revoke's zap), while the endpoint is
 * removed.  Once ep_remove returned, every page of
 * every mapping gets SIGBUS: no fault that began before the unplug left
 * its page mapped after the revoke.
 */
TEST_F(mem, unplug_races_faults)
{
	struct sigaction sa = { .sa_handler = on_sigbus_race }, old;
	struct race_thread t[RACE_THREADS];
	volatile bool stop = false;
	unsigned long faults = 0;
	long words = self->page / 8;
	int i, j, mapped = 0;
	long long t0;

	if (sysfs_write("/sys/kernel/debug/pciesw/fault_delay_ms", "1000"))
		SKIP(return, "no debugfs pciesw/fault_delay_ms");
	sigaction(SIGBUS, &sa, &old);
	for (i = 0; i < RACE_THREADS; i++) {
		t[i].p = map_ep(self->fd, "gpu0",
				(uint64_t)i * RACE_PAGES * self->page,
				RACE_PAGES * self->page, MAP_SHARED);
		ASSERT_NE(MAP_FAILED, t[i].p);
		t[i].words = words;
		t[i].write = i % 2;
		t[i].stop = &stop;
		t[i].faults = 0;
		ASSERT_EQ(0, pthread_create(&t[i].tid, NULL, race_faulter,
					    &t[i]));
	}
	/* every thread in the middle of a fault */
	usleep(1200000);
	t0 = now_ns();
	EXPECT_EQ(0, ep_remove("gpu0"));
	TH_LOG("ep_remove took %lld ms", (now_ns() - t0) / 1000000);
	stop = true;
	for (i = 0; i < RACE_THREADS; i++) {
		pthread_join(t[i].tid, NULL);
		faults += t[i].faults;
	}
	sigaction(SIGBUS, &old, NULL);
	sysfs_write("/sys/kernel/debug/pciesw/fault_delay_ms", "0");
	TH_LOG("%lu faults before the unplug", faults);
	EXPECT_LT(0UL, faults);

	for (i = 0; i < RACE_THREADS; i++) {
		for (j = 0; j < RACE_PAGES; j++)
			if (!gets_sigbus(&t[i].p[j * words], false)) {
				TH_LOG("mapping %d page %d: still mapped", i, j);
				mapped++;
			}
		munmap((void *)t[i].p, RACE_PAGES * self->page);
	}
	EXPECT_EQ(0, mapped);
}

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_TEST		CG_ROOT "/pciesw_mem_test"
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

static long long cg_read(const char *file, const char *key)
{
	char path[128], buf[512], *at;

	snprintf(path, sizeof(path), CG_TEST "/%s", file);
	if (sysfs_read(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!key)
		return strtoll(buf, NULL, 10);
	at = strstr(buf, key);
	return at ? strtoll(at + strlen(key), NULL, 10) : -1;
}

/*
 * A cgroup v2 with memory.max = 64 MiB and in it a process filling the
 * 16 GiB GPU window through mmap: the window's pages are charged to the
 * cgroup, so at 64 MiB the charge fails in the fault, the memcg OOM killer
 * kills the process (SIGKILL, oom_kill in memory.events), as for a shmem
 * file; the host and the module go on.  The pages stay in the window, and
 * charged, until the endpoint is unplugged: then memory.current drops.
 */
TEST_F(mem, memcg_limits_a_filler)
{
	long port = ep_attr(MEM_ID, "gpu0", "port");
	volatile uint64_t *q;
	struct statfs sfs;
	long long cur, res;
	struct tp_poll w;
	char path[128];
	int status;
	pid_t pid;

	ASSERT_LE(0, port);
	if (statfs(CG_ROOT, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
		ASSERT_EQ(0, mount("cgroup2", CG_ROOT, "cgroup2",
				   MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL));
	ASSERT_EQ(0, sysfs_write(CG_ROOT "/cgroup.subtree_control",
				 "+memory"));
	rmdir(CG_TEST);
	ASSERT_EQ(0, mkdir(CG_TEST, 0755));
	ASSERT_EQ(0, sysfs_write(CG_TEST "/memory.max", "64M"));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		size_t len = 16 * GiB, i;
		volatile char *p;
		char me[16];

		snprintf(me, sizeof(me), "%d", getpid());
		/* killable whatever the runner's oom_score_adj is */
		if (sysfs_write("/proc/self/oom_score_adj", "0") ||
		    sysfs_write(CG_TEST "/cgroup.procs", me))
			_exit(2);
		p = map_ep(self->fd, "gpu0", 0, len, MAP_SHARED);
		if (p == MAP_FAILED)
			_exit(3);
		for (i = 0; i < len; i += self->page)
			p[i] = 1;
		_exit(0);	/* 16 GiB went in: the limit did nothing */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (!WIFSIGNALED(status))
		TH_LOG("the filler exited %d", WEXITSTATUS(status));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_LE(1, cg_read("memory.events", "oom_kill "));

	/* the charge: what the window holds, near memory.max */
	cur = cg_read("memory.current", NULL);
	res = ep_attr(MEM_ID, "gpu0", "mem_resident");
	TH_LOG("memory.current %lld, gpu0 resident %lld", cur, res);
	EXPECT_LE(48 * (long long)MiB, res);
	EXPECT_LE(res, 64 * (long long)MiB);
	EXPECT_LE(res, cur);

	/* the host is fine: the module answers, the window works */
	q = map_ep(self->fd, "gpu0", 0, self->page, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, q);
	q[1] = 77;
	EXPECT_EQ(77ULL, q[1]);
	EXPECT_EQ(0, munmap((void *)q, self->page));

	/* unplug: the pages are freed and the charge goes back */
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%ld/ep_remove",
		 MEM_ID, port);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	tp_poll_start(&w, 10000);
	do {
		cur = cg_read("memory.current", NULL);
	} while (cur > 8 * (long long)MiB && tp_poll_next(&w));
	TH_LOG("memory.current after the unplug: %lld", cur);
	EXPECT_LE(0, cur);
	EXPECT_GT(8 * (long long)MiB, cur);
	EXPECT_EQ(0, rmdir(CG_TEST));
}


#define CG_DMA_FILES	4

/*
 * DMA descriptors are kernel memory of whoever submits them, held until
 * their completions are read back (PCIESW_DMA_MAX_INFLIGHT a file):
 * charged to the submitter's memory cgroup.  A process in a cgroup
 * submits the limit of endpoint-to-endpoint descriptors (hole to hole: no
 * page is made, nothing is pinned) on each of 4 files and reads nothing
 * back: memory.current rises by at least 128 bytes a descriptor (one is
 * larger), one more is refused (EAGAIN), and reading them back gives the
 * charge back.
 */
TEST_F(mem, memcg_charges_dma_descriptors)
{
	long gpu = ep_attr(MEM_ID, "gpu0", "id");
	long nvme = ep_attr(MEM_ID, "nvme0", "id");
	long long *cur;
	struct statfs sfs;
	int status;
	pid_t pid;

	ASSERT_LE(0, gpu);
	ASSERT_LE(0, nvme);
	if (statfs(CG_ROOT, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
		ASSERT_EQ(0, mount("cgroup2", CG_ROOT, "cgroup2",
				   MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL));
	ASSERT_EQ(0, sysfs_write(CG_ROOT "/cgroup.subtree_control",
				 "+memory"));
	rmdir(CG_TEST);
	ASSERT_EQ(0, mkdir(CG_TEST, 0755));
	cur = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, cur);
	/* links up: a first DMA from here */
	ASSERT_EQ(PCIESW_DMA_STATUS_OK,
		  dma1(self->fd, loc_ep(gpu, GiB), loc_ep(nvme, GiB), 4096));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct pciesw_dma_desc *d = calloc(PCIESW_DMA_MAX_BATCH,
						   sizeof(*d));
		struct pciesw_dma_completion *c = calloc(PCIESW_DMA_MAX_BATCH,
							 sizeof(*c));
		struct pciesw_dma_submit sub = {
			.size = sizeof(sub), .desc_size = sizeof(*d),
		};
		int fds[CG_DMA_FILES], i, k, n;
		char me[16], dev[32];

		snprintf(me, sizeof(me), "%d", getpid());
		if (!d || !c || on_cpu0() ||
		    sysfs_write(CG_TEST "/cgroup.procs", me))
			_exit(2);
		snprintf(dev, sizeof(dev), "/dev/pciesw%u", MEM_ID);
		for (i = 0; i < CG_DMA_FILES; i++) {
			fds[i] = open(dev, O_RDWR | O_CLOEXEC | O_NONBLOCK);
			if (fds[i] < 0)
				_exit(3);
		}
		for (i = 0; i < PCIESW_DMA_MAX_BATCH; i++) {
			d[i].src = loc_ep(gpu, GiB + i * 4096ULL);
			d[i].dst = loc_ep(nvme, GiB + i * 4096ULL);
			d[i].len = 4096;
		}
		/* warm: the first submission's own allocations */
		sub.nr_descs = 1;
		sub.descs = (uintptr_t)d;
		for (i = 0; i < CG_DMA_FILES; i++)
			if (ioctl(fds[i], PCIESW_IOC_DMA_SUBMIT, &sub) ||
			    dma1_once(fds[i], d[0].src, d[0].dst, 4096) < 0)
				_exit(4);
		usleep(100000);
		for (i = 0; i < CG_DMA_FILES; i++)
			while (read(fds[i], c, PCIESW_DMA_MAX_BATCH *
				    sizeof(*c)) > 0)
				;
		cur[0] = cg_read("memory.current", NULL);
		sub.nr_descs = PCIESW_DMA_MAX_BATCH;
		for (i = 0; i < CG_DMA_FILES; i++)
			for (k = 0; k < PCIESW_DMA_MAX_INFLIGHT /
					PCIESW_DMA_MAX_BATCH; k++)
				if (ioctl(fds[i], PCIESW_IOC_DMA_SUBMIT, &sub))
					_exit(5);
		cur[1] = cg_read("memory.current", NULL);
		/* the file's limit: not one more */
		sub.nr_descs = 1;
		if (ioctl(fds[0], PCIESW_IOC_DMA_SUBMIT, &sub) != -1 ||
		    errno != EAGAIN)
			_exit(6);
		/* all read back: the descriptors are freed */
		for (i = 0; i < CG_DMA_FILES; i++) {
			struct pollfd pfd = { .fd = fds[i], .events = POLLIN };

			for (k = 0; k < PCIESW_DMA_MAX_INFLIGHT; k += n) {
				if (poll(&pfd, 1, 10000) != 1)
					_exit(7);
				n = read(fds[i], c, PCIESW_DMA_MAX_BATCH *
					 sizeof(*c));
				if (n <= 0)
					_exit(8);
				n /= sizeof(*c);
			}
		}
		cur[2] = cg_read("memory.current", NULL);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	TH_LOG("memory.current: %lld before, %lld holding %d descriptors, %lld read back",
	       cur[0], cur[1], CG_DMA_FILES * PCIESW_DMA_MAX_INFLIGHT, cur[2]);
	EXPECT_LE(cur[0] + CG_DMA_FILES * PCIESW_DMA_MAX_INFLIGHT * 128LL,
		  cur[1]);
	EXPECT_LE(cur[2] + CG_DMA_FILES * PCIESW_DMA_MAX_INFLIGHT * 128LL,
		  cur[1]);
	EXPECT_EQ(0, ep_attr(MEM_ID, "nvme0", "mem_resident"));
	munmap(cur, 4096);
	EXPECT_EQ(0, rmdir(CG_TEST));
}

/*
 * Pinned host buffers count against RLIMIT_MEMLOCK (VmPin): a process
 * without CAP_IPC_LOCK and a 64 KiB limit can DMA from a 32 KiB buffer,
 * not from a 256 KiB one (ENOMEM, nothing submitted), nor hold two 32 KiB
 * buffers pinned past the limit... and root is exempt.
 */
TEST_F(mem, memlock_limit)
{
	long gpu = ep_attr(MEM_ID, "gpu0", "id");
	int status;
	pid_t pid;

	ASSERT_LE(0, gpu);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit rl = { 64 * 1024, 64 * 1024 };
		char *buf = mmap(NULL, 256 * 1024, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		int st;

		if (buf == MAP_FAILED)
			_exit(10);
		memset(buf, 1, 256 * 1024);
		/* nobody: no CAP_IPC_LOCK; the open file stays usable */
		if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgid(65534) ||
		    setuid(65534))
			_exit(11);
		st = dma1(self->fd, loc_host(buf), loc_ep(gpu, 0), 32 * 1024);
		if (st != PCIESW_DMA_STATUS_OK)
			_exit(12);
		st = dma1(self->fd, loc_host(buf), loc_ep(gpu, 0), 256 * 1024);
		if (st != -ENOMEM)
			_exit(13);
		/* the pin of the first went back: the limit is not used up */
		st = dma1(self->fd, loc_ep(gpu, 0), loc_host(buf), 64 * 1024);
		_exit(st == PCIESW_DMA_STATUS_OK ? 0 : 14);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* root (CAP_IPC_LOCK) under the same limit */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit rl = { 64 * 1024, 64 * 1024 };
		char *buf = mmap(NULL, 256 * 1024, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (buf == MAP_FAILED || setrlimit(RLIMIT_MEMLOCK, &rl))
			_exit(10);
		memset(buf, 1, 256 * 1024);
		_exit(dma1(self->fd, loc_host(buf), loc_ep(gpu, 0),
			   256 * 1024) == PCIESW_DMA_STATUS_OK ? 0 : 12);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
