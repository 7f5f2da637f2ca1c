// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe passthrough ioctls of the drives' disks (kmod/block/ioctl.c,
 * kmod/nvme*.c) with bad input, as the nvme driver answers it: flags
 * (EINVAL), a data length past max_hw_sectors (EINVAL), bad pointers
 * (EFAULT; a read-direction command's before it runs), metadata (EINVAL),
 * another namespace in an I/O command (EINVAL), unknown opcodes (Invalid Opcode with Do Not Retry, 0x4001),
 * bad fields, log pages, features and namespaces (0x4002, 0x4109, 0x410d,
 * 0x400b), LBA ranges (0x4080), the controller's ioctls (ENOTTY); data
 * through NVME_IOCTL_IO_CMD, IO64_CMD, IO64_CMD_VEC and SUBMIT_IO against
 * the disk's bytes, a Compare Failure (0x4285); the data of failed
 * commands not counted on the ports; who may send what
 * (nvme_cmd_allowed(): root without CAP_SYS_ADMIN, a file open for
 * reading); and the 32-bit path (pciesw_nvme32, pciesw_nvme_compat.c
 * built -m32).  Uses switch id 192 (a tiny8 card: two drives).
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "pciesw_test.h"

#define NVME_ID		192
#define DNR		0x4000
#define SZ		4096

FIXTURE(nvme) {
	int fd;
	char dev[64];
};

static bool nvme_disk_there(const char *dev)
{
	struct tp_poll w;

	tp_poll_start(&w, 5000);
	do {
		if (!access(dev, R_OK))
			return true;
	} while (tp_poll_next(&w));
	return false;
}

FIXTURE_SETUP(nvme)
{
	self->fd = -1;
	ASSERT_TRUE(pciesw_present());
	if (sw_exists(NVME_ID))
		sw_del(NVME_ID);
	ASSERT_EQ(0, sw_new(NVME_ID, "tiny8"));
	snprintf(self->dev, sizeof(self->dev), "/dev/pciesw%un0", NVME_ID);
	ASSERT_TRUE(nvme_disk_there(self->dev));
	self->fd = open(self->dev, O_RDWR);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(nvme)
{
	if (self->fd >= 0)
		close(self->fd);
	if (sw_exists(NVME_ID))
		sw_del(NVME_ID);
}

/* An admin command's ioctl: the status, or -errno. */
static int nv_admin(int fd, struct nvme_passthru_cmd *c)
{
	int r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, c);

	return r < 0 ? -errno : r;
}

static int nv_io(int fd, struct nvme_passthru_cmd *c)
{
	int r = ioctl(fd, NVME_IOCTL_IO_CMD, c);

	return r < 0 ? -errno : r;
}

/* Identify with CNS @cns of @nsid into @buf. */
static int nv_identify(int fd, uint32_t nsid, uint8_t cns, void *buf)
{
	struct nvme_passthru_cmd c = {
		.opcode = 0x06, .nsid = nsid, .cdw10 = cns,
		.addr = (uintptr_t)buf, .data_len = SZ,
	};

	return nv_admin(fd, &c);
}

/* A Read (0x02), Write (0x01) or Compare (0x05) of @nlb 512-byte blocks */
static int nv_rw(int fd, uint8_t op, uint64_t slba, uint32_t nlb, void *buf)
{
	struct nvme_passthru_cmd c = {
		.opcode = op, .nsid = 1, .cdw10 = (uint32_t)slba,
		.cdw11 = slba >> 32, .cdw12 = nlb - 1,
		.addr = (uintptr_t)buf, .data_len = nlb * 512,
	};

	return nv_io(fd, &c);
}

/*
 * The completion bytes of every port of the switch, both directions
 * (sysfs traffic/): the data of the drive's writes, which it reads from
 * host memory, and nothing else (a partition scan only reads).  -1 when
 * unreadable.
 */
static long long completion_bytes(void)
{
	static const char *const f[] = { "ingress_completion_bytes",
					 "egress_completion_bytes" };
	char path[PATH_MAX], buf[32];
	long long sum = 0;
	int port, i;

	/* port numbers are physical: the ports present can have gaps */
	for (port = 0; port < 96; port++) {
		for (i = 0; i < 2; i++) {
			snprintf(path, sizeof(path),
				 PCIESW_DEVS "/pciesw%u-port%d/traffic/%s",
				 NVME_ID, port, f[i]);
			if (sysfs_read(path, buf, sizeof(buf)))
				break;
			sum += strtoll(buf, NULL, 10);
		}
	}
	return sum;
}

TEST_F(nvme, identify)
{
	static uint8_t id[SZ];
	uint16_t vid;
	uint32_t nn;

	EXPECT_EQ(1, ioctl(self->fd, NVME_IOCTL_ID));
	ASSERT_EQ(0, nv_identify(self->fd, 0, 1, id));
	memcpy(&vid, id, 2);
	memcpy(&nn, id + 516, 4);
	EXPECT_EQ(0x144d, vid);
	EXPECT_EQ(1U, nn);
	ASSERT_EQ(0, nv_identify(self->fd, 1, 0, id));
	/* NSZE: the 4 GiB window in 512-byte blocks */
	EXPECT_EQ(4ULL << 21, *(uint64_t *)id);
	/* the active namespace list: 1, then none above it */
	ASSERT_EQ(0, nv_identify(self->fd, 0, 2, id));
	EXPECT_EQ(1U, *(uint32_t *)id);
	EXPECT_EQ(0U, *(uint32_t *)(id + 4));
	ASSERT_EQ(0, nv_identify(self->fd, 1, 2, id));
	EXPECT_EQ(0U, *(uint32_t *)id);
	/* descriptors: EUI-64 first */
	ASSERT_EQ(0, nv_identify(self->fd, 1, 3, id));
	EXPECT_EQ(1, id[0]);
	EXPECT_EQ(8, id[1]);
}

TEST_F(nvme, bad_input)
{
	static uint8_t buf[2 << 20];
	struct nvme_passthru_cmd c;
	struct nvme_passthru_cmd64 c64;

	/* flags: EINVAL, before anything else */
	c = (struct nvme_passthru_cmd){ .opcode = 0x06, .cdw10 = 1,
		.flags = 1, .addr = (uintptr_t)buf, .data_len = SZ };
	EXPECT_EQ(-EINVAL, nv_admin(self->fd, &c));
	/* data past max_hw_sectors (1 MiB) */
	c.flags = 0;
	c.data_len = (1 << 20) + 4096;
	EXPECT_EQ(-EINVAL, nv_admin(self->fd, &c));
	c.data_len = UINT32_MAX;
	EXPECT_EQ(-EINVAL, nv_admin(self->fd, &c));
	c.data_len = 1 << 20;
	EXPECT_EQ(0, nv_admin(self->fd, &c));
	/* bad pointers: of the data, of the struct */
	c.data_len = SZ;
	c.addr = 8;
	EXPECT_EQ(-EFAULT, nv_admin(self->fd, &c));
	EXPECT_EQ(-EFAULT, nv_rw(self->fd, 0x01, 0, 8, (void *)8));
	EXPECT_EQ(-EFAULT, nv_rw(self->fd, 0x02, 0, 8, (void *)8));
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_ADMIN_CMD, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_IO64_CMD, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	/* metadata: the namespace has none */
	c = (struct nvme_passthru_cmd){ .opcode = 0x02, .nsid = 1,
		.addr = (uintptr_t)buf, .data_len = 512,
		.metadata = (uintptr_t)buf, .metadata_len = 8 };
	EXPECT_EQ(-EINVAL, nv_io(self->fd, &c));
	/* an I/O command for another namespace */
	c.metadata = 0;
	c.metadata_len = 0;
	c.nsid = 2;
	EXPECT_EQ(-EINVAL, nv_io(self->fd, &c));
	/* unknown opcodes: Invalid Opcode, Do Not Retry */
	c = (struct nvme_passthru_cmd){ .opcode = 0x7e };
	EXPECT_EQ(DNR | 0x1, nv_admin(self->fd, &c));
	c.opcode = 0xc1;
	EXPECT_EQ(DNR | 0x1, nv_admin(self->fd, &c));
	/* Format NVM: of no namespace, with protection information */
	c.opcode = 0x80;
	EXPECT_EQ(DNR | 0xb, nv_admin(self->fd, &c));
	c.nsid = 1;
	c.cdw10 = 1 << 5;
	EXPECT_EQ(DNR | 0x10a, nv_admin(self->fd, &c));
	c.cdw10 = 7;	/* LBA format 7 */
	EXPECT_EQ(DNR | 0x10a, nv_admin(self->fd, &c));
	/* Device Self-test: another namespace, Self-test Code 0 */
	c = (struct nvme_passthru_cmd){ .opcode = 0x14, .nsid = 2,
		.cdw10 = 1 };
	EXPECT_EQ(DNR | 0xb, nv_admin(self->fd, &c));
	c.nsid = 0;
	c.cdw10 = 0;
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	/* Firmware Image Download: fewer bytes than NUMD, past 256 KiB */
	c = (struct nvme_passthru_cmd){ .opcode = 0x11, .cdw10 = 1023,
		.addr = (uintptr_t)buf, .data_len = 512 };
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	c.cdw10 = 127;
	c.cdw11 = (256 << 10) / 4;
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	/* a piece past the end of the image: a gap */
	c.cdw11 = 0;
	EXPECT_EQ(0, nv_admin(self->fd, &c));
	c.cdw11 = 256;
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	/* ... and before it: overlapping */
	c.cdw11 = 64;
	EXPECT_EQ(DNR | 0x114, nv_admin(self->fd, &c));
	/* Firmware Commit: slot 5; the 512 bytes are no image; slot 3 empty */
	c = (struct nvme_passthru_cmd){ .opcode = 0x10, .cdw10 = 5 };
	EXPECT_EQ(DNR | 0x106, nv_admin(self->fd, &c));
	c.cdw10 = 2;
	EXPECT_EQ(DNR | 0x107, nv_admin(self->fd, &c));
	c.cdw10 = 3 | 2 << 3;
	EXPECT_EQ(DNR | 0x107, nv_admin(self->fd, &c));
	c = (struct nvme_passthru_cmd){ .opcode = 0x7c, .nsid = 1 };
	EXPECT_EQ(DNR | 0x1, nv_io(self->fd, &c));
	/* bad fields, namespaces, log pages, features */
	EXPECT_EQ(DNR | 0x2, nv_identify(self->fd, 1, 0x7f, buf));
	EXPECT_EQ(DNR | 0xb, nv_identify(self->fd, 2, 0, buf));
	EXPECT_EQ(DNR | 0xb, nv_identify(self->fd, 0xffffffff, 0, buf));
	c = (struct nvme_passthru_cmd){ .opcode = 0x02, .nsid = 0xffffffff,
		.cdw10 = 0x7f | (SZ / 4 - 1) << 16, .addr = (uintptr_t)buf,
		.data_len = SZ };
	EXPECT_EQ(DNR | 0x109, nv_admin(self->fd, &c));
	c.cdw10 = 0x02 | (512 / 4 - 1) << 16;
	EXPECT_EQ(0, nv_admin(self->fd, &c));
	c.cdw12 = 2;	/* an offset that is no dword */
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	c.cdw12 = 512;	/* past the log */
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	c = (struct nvme_passthru_cmd){ .opcode = 0x0a, .cdw10 = 0x7f };
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	c = (struct nvme_passthru_cmd){ .opcode = 0x09, .cdw10 = 6 | 1u << 31,
		.cdw11 = 1 };
	EXPECT_EQ(DNR | 0x10d, nv_admin(self->fd, &c));
	/* features the driver keeps: for nobody */
	c = (struct nvme_passthru_cmd){ .opcode = 0x09, .cdw10 = 7 };
	EXPECT_EQ(-EACCES, nv_admin(self->fd, &c));
	/* LBA ranges; more than MDTS; no buffer */
	EXPECT_EQ(DNR | 0x80, nv_rw(self->fd, 0x02, (4ULL << 21) - 7, 8,
				      buf));
	EXPECT_EQ(DNR | 0x80, nv_rw(self->fd, 0x01, UINT64_MAX, 1, buf));
	c = (struct nvme_passthru_cmd){ .opcode = 0x02, .nsid = 1,
		.cdw12 = 0xffff, .addr = (uintptr_t)buf, .data_len = 1 << 20 };
	EXPECT_EQ(DNR | 0x2, nv_io(self->fd, &c));
	c.cdw12 = 7;
	c.data_len = 0;
	EXPECT_EQ(DNR | 0x2, nv_io(self->fd, &c));
	/* the 64-bit struct: the same checks, its 64-bit result */
	c64 = (struct nvme_passthru_cmd64){ .opcode = 0x0a, .cdw10 = 6,
		.result = UINT64_MAX, .flags = 2 };
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_ADMIN64_CMD, &c64));
	EXPECT_EQ(EINVAL, errno);
	c64.flags = 0;
	EXPECT_EQ(0, ioctl(self->fd, NVME_IOCTL_ADMIN64_CMD, &c64));
	EXPECT_EQ(1ULL, c64.result);	/* the write cache is on */
	/* the controller's ioctls are not a namespace's */
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_RESET));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_SUBSYS_RESET));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_RESCAN));
	EXPECT_EQ(ENOTTY, errno);
	/* every refusal with a status was logged: the error log's count */
	c = (struct nvme_passthru_cmd){ .opcode = 0x02, .nsid = 0xffffffff,
		.cdw10 = 0x01 | (64 / 4 - 1) << 16, .addr = (uintptr_t)buf,
		.data_len = 64 };
	ASSERT_EQ(0, nv_admin(self->fd, &c));
	EXPECT_LE(14ULL, *(uint64_t *)buf);
}

TEST_F(nvme, io)
{
	static uint8_t w[SZ], r[SZ], d[SZ];
	struct nvme_passthru_cmd64 c64;
	struct nvme_passthru_cmd c;
	struct nvme_user_io io;
	struct iovec iov[2];
	unsigned int i;
	void *al;
	int dfd;

	for (i = 0; i < SZ; i++)
		w[i] = i * 7 + 3;
	ASSERT_EQ(0, nv_rw(self->fd, 0x01, 8, 8, w));
	/* the disk reads it, past its page cache */
	dfd = open(self->dev, O_RDONLY | O_DIRECT);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, posix_memalign(&al, SZ, SZ));
	EXPECT_EQ(SZ, pread(dfd, al, SZ, 8 * 512));
	EXPECT_EQ(0, memcmp(w, al, SZ));
	free(al);
	close(dfd);
	ASSERT_EQ(0, nv_rw(self->fd, 0x02, 8, 8, r));
	EXPECT_EQ(0, memcmp(w, r, SZ));
	EXPECT_EQ(0, nv_rw(self->fd, 0x05, 8, 8, w));
	w[100] ^= 1;
	EXPECT_EQ(DNR | 0x285, nv_rw(self->fd, 0x05, 8, 8, w));
	w[100] ^= 1;
	/* a hole reads as zeros */
	memset(r, 0xaa, SZ);
	ASSERT_EQ(0, nv_rw(self->fd, 0x02, 1 << 20, 8, r));
	memset(d, 0, SZ);
	EXPECT_EQ(0, memcmp(d, r, SZ));
	/* the vectored 64-bit command */
	memset(r, 0, SZ);
	iov[0] = (struct iovec){ .iov_base = r, .iov_len = 1000 };
	iov[1] = (struct iovec){ .iov_base = r + 1000, .iov_len = SZ - 1000 };
	c64 = (struct nvme_passthru_cmd64){ .opcode = 0x02, .nsid = 1,
		.cdw10 = 8, .cdw12 = 7, .addr = (uintptr_t)iov, .vec_cnt = 2 };
	ASSERT_EQ(0, ioctl(self->fd, NVME_IOCTL_IO64_CMD_VEC, &c64));
	EXPECT_EQ(0, memcmp(w, r, SZ));
	/* SUBMIT_IO, the old structure */
	memset(r, 0, SZ);
	io = (struct nvme_user_io){ .opcode = 0x02, .nblocks = 7, .slba = 8,
		.addr = (uintptr_t)r };
	ASSERT_EQ(0, ioctl(self->fd, NVME_IOCTL_SUBMIT_IO, &io));
	EXPECT_EQ(0, memcmp(w, r, SZ));
	io.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_SUBMIT_IO, &io));
	EXPECT_EQ(EINVAL, errno);
	io.flags = 0;
	io.opcode = 0x08;
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_SUBMIT_IO, &io));
	EXPECT_EQ(EINVAL, errno);
	/* Write Zeroes, Flush */
	c = (struct nvme_passthru_cmd){ .opcode = 0x08, .nsid = 1,
		.cdw10 = 8, .cdw12 = 7 };
	EXPECT_EQ(0, nv_io(self->fd, &c));
	c = (struct nvme_passthru_cmd){ .opcode = 0x00, .nsid = 1 };
	EXPECT_EQ(0, nv_io(self->fd, &c));
	ASSERT_EQ(0, nv_rw(self->fd, 0x02, 8, 8, r));
	EXPECT_EQ(0, memcmp(d, r, SZ));
}

/*
 * Only the data of a command that succeeds is counted on the ports: a
 * write (its data read from host memory, completions on the ports) that
 * fails with an NVMe status or an errno moved nothing.
 */
TEST_F(nvme, traffic)
{
	static uint8_t buf[SZ];
	struct nvme_passthru_cmd c;
	long long before, after;

	memset(buf, 0x5a, SZ);
	before = completion_bytes();
	ASSERT_LE(0, before);
	/* LBA out of range; a Compare that fails; more data than MDTS */
	EXPECT_EQ(DNR | 0x80, nv_rw(self->fd, 0x01, (4ULL << 21) - 7, 8,
				      buf));
	EXPECT_EQ(DNR | 0x285, nv_rw(self->fd, 0x05, 1 << 20, 8, buf));
	c = (struct nvme_passthru_cmd){ .opcode = 0x01, .nsid = 1,
		.cdw12 = 0xffff, .addr = (uintptr_t)buf, .data_len = SZ };
	EXPECT_EQ(DNR | 0x2, nv_io(self->fd, &c));
	/* Firmware Image Download of fewer bytes than NUMD */
	c = (struct nvme_passthru_cmd){ .opcode = 0x11, .cdw10 = 1023,
		.addr = (uintptr_t)buf, .data_len = 512 };
	EXPECT_EQ(DNR | 0x2, nv_admin(self->fd, &c));
	after = completion_bytes();
	EXPECT_EQ(before, after) TH_LOG("failed commands counted");
	/* a write that succeeds: 4 KiB in upstream, out on the drive's port */
	ASSERT_EQ(0, nv_rw(self->fd, 0x01, 8, 8, buf));
	EXPECT_EQ(before + 2 * SZ, completion_bytes());
}

/*
 * A read-direction command with a bad buffer is EFAULT before it runs, as
 * the nvme driver pins the buffer first: a Write Zeroes leaves the blocks
 * alone, a device self-test does not start.
 */
TEST_F(nvme, bad_buffer_first)
{
	static uint8_t w[SZ], r[SZ], log[512];
	struct nvme_passthru_cmd64 c64;
	struct nvme_passthru_cmd c;
	struct iovec iov;
	unsigned int i;
	void *gone;

	/* a page that was there: past access_ok(), not mapped */
	gone = mmap(NULL, SZ, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	ASSERT_EQ(0, munmap(gone, SZ));
	for (i = 0; i < SZ; i++)
		w[i] = i * 5 + 1;
	ASSERT_EQ(0, nv_rw(self->fd, 0x01, 16, 8, w));
	c = (struct nvme_passthru_cmd){ .opcode = 0x08, .nsid = 1,
		.cdw10 = 16, .cdw12 = 7, .addr = (uintptr_t)gone,
		.data_len = SZ };
	EXPECT_EQ(-EFAULT, nv_io(self->fd, &c));
	/* a read-only page is no better: the command writes it */
	c.addr = (uintptr_t)"read-only";
	c.data_len = 8;
	EXPECT_EQ(-EFAULT, nv_io(self->fd, &c));
	iov = (struct iovec){ .iov_base = gone, .iov_len = SZ };
	c64 = (struct nvme_passthru_cmd64){ .opcode = 0x08, .nsid = 1,
		.cdw10 = 16, .cdw12 = 7, .addr = (uintptr_t)&iov,
		.vec_cnt = 1 };
	EXPECT_EQ(-1, ioctl(self->fd, NVME_IOCTL_IO64_CMD_VEC, &c64));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ(0, nv_rw(self->fd, 0x02, 16, 8, r));
	EXPECT_EQ(0, memcmp(w, r, SZ))
		TH_LOG("a Write Zeroes that failed with EFAULT zeroed the blocks");
	/* Device Self-test, short: refused, none runs */
	c = (struct nvme_passthru_cmd){ .opcode = 0x14, .nsid = 0xffffffff,
		.cdw10 = 1, .addr = (uintptr_t)gone, .data_len = SZ };
	EXPECT_EQ(-EFAULT, nv_admin(self->fd, &c));
	/* the self-test log: byte 0, the operation in progress */
	c = (struct nvme_passthru_cmd){ .opcode = 0x02, .nsid = 0xffffffff,
		.cdw10 = 0x06 | 127 << 16, .addr = (uintptr_t)log,
		.data_len = sizeof(log) };
	ASSERT_EQ(0, nv_admin(self->fd, &c));
	EXPECT_EQ(0, log[0])
		TH_LOG("a self-test refused with EFAULT started");
}

/* nvme_cmd_allowed(): root without CAP_SYS_ADMIN, in a child */
TEST_F(nvme, permissions)
{
	uint64_t all = (1ULL << (CAP_LAST_CAP + 1)) - 1;
	int ro, status;
	pid_t pid;

	ro = open(self->dev, O_RDONLY);
	ASSERT_LE(0, ro);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		static uint8_t buf[SZ];
		struct nvme_passthru_cmd c = { .opcode = 0x02,
			.nsid = 0xffffffff, .cdw10 = 0x02 | 127 << 16,
			.addr = (uintptr_t)buf, .data_len = 512 };
		int bad = 0;

		if (capset_eff(all & ~(1ULL << CAP_SYS_ADMIN), all))
			_exit(2);
		/* admin: only the Identify that I/O needs */
		bad |= nv_admin(self->fd, &c) != -EACCES;
		bad |= (nv_identify(self->fd, 0, 1, buf) != 0) << 1;
		bad |= (nv_identify(self->fd, 1, 0, buf) != 0) << 2;
		bad |= (nv_identify(self->fd, 1, 3, buf) != -EACCES) << 3;
		/* I/O: reads from a reader, writes from a writer */
		bad |= (nv_rw(ro, 0x02, 0, 8, buf) != 0) << 4;
		bad |= (nv_rw(ro, 0x01, 0, 8, buf) != -EACCES) << 5;
		bad |= (nv_rw(self->fd, 0x01, 0, 8, buf) != 0) << 6;
		c = (struct nvme_passthru_cmd){ .opcode = 0x08, .nsid = 1 };
		bad |= (nv_io(ro, &c) != -EACCES) << 7;
		bad |= (nv_io(self->fd, &c) != 0) << 8;
		/* what the effects log does not list, vendor commands */
		c.opcode = 0x7c;
		bad |= (nv_io(self->fd, &c) != -EACCES) << 9;
		c.opcode = 0x81;
		bad |= (nv_io(self->fd, &c) != -EACCES) << 10;
		if (bad)
			printf("# refusals wrong: %#x\n", bad);
		_exit(bad ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(ro);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* The 32-bit path: pciesw_nvme32 (pciesw_nvme_compat.c, -m32 -static). */
TEST_F(nvme, compat32)
{
	char *argv[] = { "pciesw_nvme32", self->dev, NULL };
	int ret = tp_run_sibling(argv);

	/* gcc-multilib is a dependency: a missing program is a failure */
	ASSERT_NE(-ENOENT, ret)
		TH_LOG("pciesw_nvme32 is not built: install gcc-multilib (scripts/deps.sh) and make selftests");
	if (ret == -ENOEXEC)
		SKIP(return, "the kernel runs no 32-bit programs");
	EXPECT_EQ(0, ret);
}

TEST_HARNESS_MAIN
