// SPDX-License-Identifier: GPL-2.0
/*
 * G4 of make bench (selftests/pciesw_bench_block.sh runs it; not a test):
 * 4 KiB reads of a drive through the NVMe passthrough ioctl
 * (NVME_IOCTL_IO_CMD, Read) against the same reads through its disk
 * (pread, O_DIRECT), one at a time, at the same pseudo-random offsets in
 * the first @span bytes, alternating rounds of the two so that neither
 * gets a warmer cache or a quieter host.  Every passthrough read is
 * compared with the disk's read of the same block first (the bench
 * measures the right bytes).
 *
 *   pciesw_bench_nvme DISK [READS [SPAN_MIB]]
 *
 * Prints "disk-iops N", "ioctl-iops N" and "ratio R" (ioctl / disk), one
 * per line; exit 1 on an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>

#define BS		4096U
#define ROUNDS		8U

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift64: the same offsets for both paths */
static uint64_t next_off(uint64_t *s, uint64_t blocks)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s % blocks) * BS;
}

static int nvme_read(int fd, uint32_t nsid, unsigned int lba_shift,
		     uint64_t off, void *buf)
{
	uint64_t slba = off >> lba_shift;
	struct nvme_passthru_cmd c = {
		.opcode = 0x02,		/* Read */
		.nsid = nsid,
		.addr = (uintptr_t)buf,
		.data_len = BS,
		.cdw10 = (uint32_t)slba,
		.cdw11 = (uint32_t)(slba >> 32),
		.cdw12 = (BS >> lba_shift) - 1,	/* NLB, 0's based */
	};
	int st = ioctl(fd, NVME_IOCTL_IO_CMD, &c);

	if (st) {
		fprintf(stderr, "bench_nvme: read at %llu: %s\n",
			(unsigned long long)off,
			st < 0 ? strerror(errno) : "NVMe status");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long reads = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000;
	unsigned long span = (argc > 3 ? strtoul(argv[3], NULL, 0) : 256) << 20;
	uint64_t t_disk = 0, t_ioctl = 0, seed, s, t;
	unsigned int lba_shift, ssz, r;
	unsigned long i, per;
	void *a, *b;
	int fd, nsid;

	if (argc < 2 || !reads || span < BS) {
		fprintf(stderr, "usage: pciesw_bench_nvme DISK [READS [SPAN_MIB]]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&a, BS, BS) || posix_memalign(&b, BS, BS)) {
		perror(argv[1]);
		return 1;
	}
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0 || ioctl(fd, BLKSSZGET, &ssz) || ssz > BS) {
		fprintf(stderr, "bench_nvme: %s: no namespace or block size\n",
			argv[1]);
		return 1;
	}
	lba_shift = __builtin_ctz(ssz);
	/* the passthrough reads what the disk reads */
	seed = 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < 64; i++) {
		uint64_t off = next_off(&seed, span / BS);

		if (pread(fd, a, BS, off) != BS ||
		    nvme_read(fd, nsid, lba_shift, off, b))
			return 1;
		if (memcmp(a, b, BS)) {
			fprintf(stderr, "bench_nvme: data at %llu differs\n",
				(unsigned long long)off);
			return 1;
		}
	}
	per = (reads + ROUNDS - 1) / ROUNDS;
	seed = 0x2545f4914f6cdd1dULL;
	for (r = 0; r < ROUNDS; r++) {
		s = seed;
		t = now_ns();
		for (i = 0; i < per; i++)
			if (pread(fd, a, BS, next_off(&s, span / BS)) != BS) {
				perror("pread");
				return 1;
			}
		t_disk += now_ns() - t;
		s = seed;
		t = now_ns();
		for (i = 0; i < per; i++)
			if (nvme_read(fd, nsid, lba_shift,
				      next_off(&s, span / BS), b))
				return 1;
		t_ioctl += now_ns() - t;
		seed = s;
	}
	printf("disk-iops %.0f\n", per * ROUNDS * 1e9 / t_disk);
	printf("ioctl-iops %.0f\n", per * ROUNDS * 1e9 / t_ioctl);
	printf("ratio %.3f\n", (double)t_disk / t_ioctl);
	return 0;
}
