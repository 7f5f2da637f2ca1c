// SPDX-License-Identifier: GPL-2.0
/*
 * The 32-bit (compat) path of /dev/pcieswN, built with -m32 -static as
 * pciesw_compat32 and run by pciesw_ioctl (TEST_F(uapi, compat32)):
 *
 *   pciesw_compat32 SWITCH_ID EP_ID
 *
 * PCIESW_IOC_INFO, PCIESW_IOC_EP_MAP of EP_ID (16 or more: its old offset
 * EP_ID << 40 was past what mmap2 reaches), mmap() of the first and last
 * page of its window, DMA from and to host memory, completions of both
 * record versions.  Exit status 0 when all is well, 1 otherwise (each
 * failure printed as a "# " line).  No libnl, no harness: only libc, so
 * that the static 32-bit build needs nothing but gcc-multilib.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64	/* mmap() with a 64-bit off_t: mmap2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uapi/linux/pciesw.h>

#include "pciesw_compat.h"

/* the layouts a 64-bit module reads: no translation needed */
_Static_assert(sizeof(struct pciesw_info) == PCIESW_INFO_SIZE_VER1, "info");
_Static_assert(offsetof(struct pciesw_info, features) ==
	       PCIESW_INFO_SIZE_VER0, "info.features");
_Static_assert(sizeof(struct pciesw_ep_map) == PCIESW_EP_MAP_SIZE_VER0, "map");
_Static_assert(offsetof(struct pciesw_ep_map, offset) == 16, "map.offset");
_Static_assert(sizeof(struct pciesw_dma_submit) ==
	       PCIESW_DMA_SUBMIT_SIZE_VER0, "submit");
_Static_assert(offsetof(struct pciesw_dma_submit, descs) == 16, "descs");
_Static_assert(sizeof(struct pciesw_dma_desc) == PCIESW_DMA_DESC_SIZE_VER0,
	       "desc");
_Static_assert(offsetof(struct pciesw_dma_desc, len) == 32, "desc.len");
_Static_assert(sizeof(struct pciesw_dma_completion) == 32, "completion");
_Static_assert(sizeof(struct pciesw_dma_completion2) == 64, "completion2");
_Static_assert(offsetof(struct pciesw_dma_completion2, user_data) == 16,
	       "completion2.user_data");
_Static_assert(sizeof(struct pciesw_completion_fmt) ==
	       PCIESW_COMPLETION_FMT_SIZE_VER0, "fmt");

static int submit(int fd, uint32_t ep, void *host, uint64_t addr,
		  uint32_t len, uint64_t user_data, int to_ep)
{
	struct pciesw_dma_desc d;
	struct pciesw_dma_submit s;

	memset(&d, 0, sizeof(d));
	d.src.ep_id = to_ep ? PCIESW_DMA_HOST : ep;
	d.src.addr = to_ep ? (uintptr_t)host : addr;
	d.dst.ep_id = to_ep ? ep : PCIESW_DMA_HOST;
	d.dst.addr = to_ep ? addr : (uintptr_t)host;
	d.len = len;
	d.user_data = user_data;
	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	s.desc_size = sizeof(d);
	s.nr_descs = 1;
	s.descs = (uintptr_t)&d;
	return ioctl(fd, PCIESW_IOC_DMA_SUBMIT, &s) ? -errno : 0;
}

static ssize_t read_rec(int fd, void *buf, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, 30000) != 1)
		return -1;
	return read(fd, buf, len);
}

int main(int argc, char **argv)
{
	struct pciesw_dma_completion2 c2;
	struct pciesw_dma_completion c1;
	struct pciesw_completion_fmt fmt;
	struct pciesw_ep_map map;
	struct pciesw_info info;
	long page = sysconf(_SC_PAGESIZE);
	char path[64], host[256], back[256];
	unsigned int sw, ep;
	unsigned char *p, *q;
	int fd, i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SWITCH_ID EP_ID\n", argv[0]);
		return 2;
	}
	sw = strtoul(argv[1], NULL, 0);
	ep = strtoul(argv[2], NULL, 0);
	printf("# pciesw_compat: %zu-bit process, switch %u, endpoint %u\n",
	       sizeof(long) * 8, sw, ep);
	snprintf(path, sizeof(path), "/dev/pciesw%u", sw);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("# open %s: %s\n", path, strerror(errno));
		return 1;
	}

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	CHECK(!ioctl(fd, PCIESW_IOC_INFO, &info), "INFO");
	CHECK(info.size == sizeof(info), "size %u", info.size);
	CHECK(info.switch_id == sw, "switch_id %u", info.switch_id);
	CHECK(info.features & PCIESW_FEATURE_MAP_OFFSET_32,
	      "features 0x%llx", (unsigned long long)info.features);

	memset(&map, 0, sizeof(map));
	map.size = sizeof(map);
	map.ep_id = ep;
	if (ioctl(fd, PCIESW_IOC_EP_MAP, &map)) {
		printf("# EP_MAP %u: %s\n", ep, strerror(errno));
		return 1;
	}
	CHECK(map.offset + map.mem_size <= PCIESW_MAP_OFFSET_32_MAX,
	      "offset 0x%llx size 0x%llx", (unsigned long long)map.offset,
	      (unsigned long long)map.mem_size);

	/* the first and the last page of the window */
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)map.offset);
	q = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)(map.offset + map.mem_size - page));
	CHECK(p != MAP_FAILED, "mmap at 0x%llx",
	      (unsigned long long)map.offset);
	CHECK(q != MAP_FAILED, "mmap of the last page");
	if (p == MAP_FAILED || q == MAP_FAILED)
		return 1;
	for (i = 0; i < (int)sizeof(host); i++)
		host[i] = (char)(i * 7 + 3);
	memcpy(p, host, sizeof(host));
	q[page - 1] = 0x42;

	/* window -> host, version 1 records */
	memset(back, 0, sizeof(back));
	CHECK(!submit(fd, ep, back, 0, sizeof(back), 0x1234567890ULL, 0),
	      "submit ep -> host");
	CHECK(read_rec(fd, &c1, sizeof(c1)) == sizeof(c1), "read v1");
	CHECK(c1.user_data == 0x1234567890ULL && c1.bytes == sizeof(back) &&
	      c1.status == PCIESW_DMA_STATUS_OK, "record v1 %llx %llu %u",
	      (unsigned long long)c1.user_data,
	      (unsigned long long)c1.bytes, c1.status);
	CHECK(!memcmp(back, host, sizeof(host)), "data from the window");

	/* host -> the window's last bytes, version 2 records */
	memset(&fmt, 0, sizeof(fmt));
	fmt.size = sizeof(fmt);
	fmt.version = PCIESW_DMA_COMPLETION_V2;
	CHECK(!ioctl(fd, PCIESW_IOC_COMPLETION_FMT, &fmt), "COMPLETION_FMT");
	CHECK(fmt.record_size == sizeof(c2), "record_size %u",
	      fmt.record_size);
	CHECK(!submit(fd, ep, host, map.mem_size - sizeof(host),
		      sizeof(host), 0xfeedULL << 32, 1), "submit host -> ep");
	CHECK(read_rec(fd, &c2, sizeof(c2)) == sizeof(c2), "read v2");
	CHECK(c2.size == sizeof(c2) && c2.version == PCIESW_DMA_COMPLETION_V2 &&
	      c2.user_data == 0xfeedULL << 32 && c2.bytes == sizeof(host) &&
	      c2.status == PCIESW_DMA_STATUS_OK, "record v2 %u %u %llx %u",
	      c2.size, c2.version, (unsigned long long)c2.user_data,
	      c2.status);
	CHECK(!memcmp(q + page - sizeof(host), host, sizeof(host)),
	      "data in the window's last page");

	munmap(p, page);
	munmap(q, page);
	close(fd);
	printf("# pciesw_compat: %s\n", failed ? "FAILED" : "ok");
	return failed;
}
