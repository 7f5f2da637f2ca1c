// SPDX-License-Identifier: GPL-2.0
/*
 * The 32-bit (compat) path of the drives' NVMe passthrough ioctls, built
 * with -m32 -static as pciesw_nvme32 and run by pciesw_nvme_ioctl
 * (TEST_F(nvme, compat32)):
 *
 *   pciesw_nvme32 /dev/pcieswSnI
 *
 * NVME_IOCTL_ID, an Identify through NVME_IOCTL_ADMIN_CMD, a Write and a
 * Read through NVME_IOCTL_IO_CMD, the 64-bit result of
 * NVME_IOCTL_ADMIN64_CMD, NVME_IOCTL_IO64_CMD_VEC with 32-bit iovecs,
 * NVME_IOCTL_SUBMIT_IO with the 32-bit layout of struct nvme_user_io (its
 * own ioctl number), a bad pointer.  Exit status 0 when all is well, 1
 * otherwise (each failure printed as a "# " line).  Only libc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>

#include "pciesw_compat.h"

/* the same layouts in 32 and 64 bit: no translation needed */
_Static_assert(sizeof(struct nvme_passthru_cmd) == 72, "cmd");
_Static_assert(sizeof(struct nvme_passthru_cmd64) == 80, "cmd64");

#define SZ 4096

int main(int argc, char **argv)
{
	static uint8_t id[SZ], w[SZ], r[SZ];
	struct nvme_passthru_cmd c;
	struct nvme_passthru_cmd64 c64;
	struct nvme_user_io io;
	struct iovec iov[2];
	int fd, ret, i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DISK\n", argv[0]);
		return 1;
	}
	/* a 64-bit build would test nothing of the compat path */
	if (sizeof(long) != 4) {
		printf("# %s is not a 32-bit build\n", argv[0]);
		return 1;
	}
	fd = open(argv[1], O_RDWR);
	CHECK(fd >= 0, "open %s", argv[1]);
	if (fd < 0)
		return 1;
	ret = ioctl(fd, NVME_IOCTL_ID);
	CHECK(ret == 1, "NVME_IOCTL_ID %d", ret);

	c = (struct nvme_passthru_cmd){ .opcode = 0x06, .cdw10 = 1,
		.addr = (uintptr_t)id, .data_len = SZ };
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	CHECK(ret == 0 && id[0] == 0x4d && id[1] == 0x14,
	      "identify %d vid %02x%02x", ret, id[1], id[0]);

	for (i = 0; i < SZ; i++)
		w[i] = i * 13 + 1;
	c = (struct nvme_passthru_cmd){ .opcode = 0x01, .nsid = 1,
		.cdw10 = 64, .cdw12 = 7, .addr = (uintptr_t)w, .data_len = SZ };
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &c);
	CHECK(ret == 0, "write %d", ret);
	c.opcode = 0x02;
	c.addr = (uintptr_t)r;
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &c);
	CHECK(ret == 0 && !memcmp(w, r, SZ), "read %d", ret);

	/* the upper half of a pointer is ignored, as a 32-bit kernel does */
	memset(r, 0, SZ);
	c.addr = (uintptr_t)r | 0xdead000000000000ULL;
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &c);
	CHECK(ret == 0 && !memcmp(w, r, SZ), "read, upper bits %d", ret);

	c64 = (struct nvme_passthru_cmd64){ .opcode = 0x0a, .cdw10 = 7,
		.result = UINT64_MAX };
	ret = ioctl(fd, NVME_IOCTL_ADMIN64_CMD, &c64);
	CHECK(ret == 0 && c64.result >> 32 == 0, "get features %d %llx", ret,
	      (unsigned long long)c64.result);

	memset(r, 0, SZ);
	iov[0] = (struct iovec){ .iov_base = r, .iov_len = 512 };
	iov[1] = (struct iovec){ .iov_base = r + 512, .iov_len = SZ - 512 };
	c64 = (struct nvme_passthru_cmd64){ .opcode = 0x02, .nsid = 1,
		.cdw10 = 64, .cdw12 = 7, .addr = (uintptr_t)iov, .vec_cnt = 2 };
	ret = ioctl(fd, NVME_IOCTL_IO64_CMD_VEC, &c64);
	CHECK(ret == 0 && !memcmp(w, r, SZ), "vectored read %d", ret);

	memset(r, 0, SZ);
	_Static_assert(sizeof(io) == 44, "the 32-bit nvme_user_io");
	io = (struct nvme_user_io){ .opcode = 0x02, .nblocks = 7, .slba = 64,
		.addr = (uintptr_t)r };
	ret = ioctl(fd, NVME_IOCTL_SUBMIT_IO, &io);
	CHECK(ret == 0 && !memcmp(w, r, SZ), "submit io %d", ret);

	c = (struct nvme_passthru_cmd){ .opcode = 0x02, .nsid = 1,
		.cdw12 = 7, .addr = 8, .data_len = SZ };
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &c);
	CHECK(ret == -1 && errno == EFAULT, "bad pointer %d", ret);
	close(fd);
	return failed;
}
