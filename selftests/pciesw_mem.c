// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint memory windows through /dev/pcieswN: PCIESW_IOC_EP_MAP, mmap()
 * of a sparse 16 GiB GPU window, resident bytes, sharing between mappings
 * and processes, and an unplug or the switch's removal revoking every
 * mapping of the window (SIGBUS, touched pages too).
 */
#define _GNU_SOURCE		/* mremap() */
#include <setjmp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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

FIXTURE_TEARDOWN(mem)
{
	if (self->fd >= 0)
		close(self->fd);
	sw_del(MEM_ID);
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
	map.offset = 1;		/* an output: must come in as 0 */
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
	/* reading a page nobody wrote gives zeros (and backs that page) */
	EXPECT_EQ(0ULL, q[0]);
	EXPECT_EQ(0ULL, q[n / 2 - 1]);
	EXPECT_EQ((long)MiB + 2 * self->page,
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

TEST_HARNESS_MAIN
