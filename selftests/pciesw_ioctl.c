// SPDX-License-Identifier: GPL-2.0
/*
 * PCIESW_IOC_INFO on /dev/pcieswN: what it reports (against sysfs and the
 * documented profiles) and every way a caller can get it wrong.
 *
 * Each variant creates its own switch through new_device in the setup and
 * deletes it in the teardown, so the tests need only the module loaded.
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>

#include "pciesw_test.h"

/* Filler the kernel must overwrite (outputs) or leave alone (on errors). */
#define JUNK32	0xa5a5a5a5u

FIXTURE(info)
{
	unsigned int id;
	int fd;
	const struct exp_profile *exp;
};

FIXTURE_VARIANT(info)
{
	unsigned int id;
	const char *profile;	/* NULL: "ID" alone, the default profile */
};

FIXTURE_VARIANT_ADD(info, default_profile)
{
	.id = 200,
	.profile = NULL,
};

FIXTURE_VARIANT_ADD(info, pex89048)
{
	.id = 201,
	.profile = "pex89048",
};

FIXTURE_VARIANT_ADD(info, pex89144)
{
	.id = 202,
	.profile = "pex89144",
};

FIXTURE_VARIANT_ADD(info, tiny8)
{
	.id = 255,
	.profile = "tiny8",
};

static int open_sw(unsigned int id)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/pciesw%u", id);
	return open(path, O_RDWR | O_CLOEXEC);
}

FIXTURE_SETUP(info)
{
	int err;

	self->fd = -1;
	self->id = variant->id;
	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	self->exp = exp_profile(variant->profile);
	ASSERT_NE(NULL, self->exp);
	/* a leftover of an earlier run would make new_device fail */
	if (sw_exists(self->id))
		sw_del(self->id);
	err = sw_new(self->id, variant->profile);
	ASSERT_EQ(0, err) TH_LOG("new_device %u %s: %s", self->id,
				 variant->profile ?: "", strerror(-err));
	self->fd = open_sw(self->id);
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/pciesw%u: %s", self->id,
				      strerror(errno));
}

FIXTURE_TEARDOWN(info)
{
	if (self->fd >= 0)
		close(self->fd);
	if (sw_exists(self->id))
		sw_del(self->id);
}

static void info_init(struct pciesw_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
}

/* Fill the output fields with junk (inputs stay valid). */
static void info_init_junk(struct pciesw_info *info)
{
	info_init(info);
	info->switch_id = JUNK32;
	info->abi_version = JUNK32;
	info->nr_lanes = JUNK32;
	info->nr_groups = JUNK32;
	info->nr_ports = JUNK32;
	info->nr_endpoints = JUNK32;
	memset(info->profile, 0xa5, sizeof(info->profile));
	memset(info->serial, 0xa5, sizeof(info->serial));
}

/* The ioctl's errno, 0 on success. */
static int info_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* A char array holds a NUL-terminated string with only zeros after it. */
static bool nul_padded(const char *a, size_t len)
{
	size_t n = strnlen(a, len);

	if (n == len)
		return false;
	for (; n < len; n++)
		if (a[n])
			return false;
	return true;
}

TEST_F(info, matches_sysfs)
{
	struct pciesw_info info;
	char buf[128];
	unsigned int i;

	info_init_junk(&info);
	ASSERT_EQ(0, info_ioctl(self->fd, PCIESW_IOC_INFO, &info));

	EXPECT_EQ(sizeof(info), info.size);
	EXPECT_EQ(0U, info.flags);
	EXPECT_EQ((__u32)PCIESW_ABI_VERSION, info.abi_version);

	EXPECT_EQ(self->id, info.switch_id);
	EXPECT_EQ(sw_attr_u32(self->id, "switch_id"), info.switch_id);

	EXPECT_EQ(self->exp->lanes, info.nr_lanes);
	EXPECT_EQ(sw_attr_u32(self->id, "lanes"), info.nr_lanes);

	EXPECT_EQ(self->exp->nr_ports, info.nr_ports);
	EXPECT_EQ(sw_attr_u32(self->id, "nr_ports"), info.nr_ports);

	EXPECT_EQ(self->exp->nr_groups, info.nr_groups);
	/* the endpoints sysfs shows on the ports */
	EXPECT_EQ(sysfs_nr_endpoints(self->id), (int)info.nr_endpoints);
	EXPECT_GE(self->exp->nr_ports, info.nr_endpoints);

	EXPECT_TRUE(nul_padded(info.profile, sizeof(info.profile)));
	EXPECT_STREQ(self->exp->name, info.profile);
	ASSERT_EQ(0, sw_attr(self->id, "profile", buf, sizeof(buf)));
	EXPECT_STREQ(buf, info.profile);

	EXPECT_TRUE(nul_padded(info.serial, sizeof(info.serial)));
	EXPECT_NE(0, info.serial[0]);
	ASSERT_EQ(0, sw_attr(self->id, "serial_number", buf, sizeof(buf)));
	EXPECT_STREQ(buf, info.serial);

	for (i = 0; i < 4; i++)
		EXPECT_EQ(0U, info.reserved[i]) TH_LOG("reserved[%u]", i);
}

/* The same answer twice, and from a second open file. */
TEST_F(info, repeatable)
{
	struct pciesw_info a, b;
	int fd2;

	info_init(&a);
	ASSERT_EQ(0, info_ioctl(self->fd, PCIESW_IOC_INFO, &a));
	info_init(&b);
	ASSERT_EQ(0, info_ioctl(self->fd, PCIESW_IOC_INFO, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));

	fd2 = open("/dev/pciesw0", O_RDONLY | O_CLOEXEC);
	if (fd2 >= 0 && self->id != 0) {
		/* another switch answers for itself */
		info_init(&b);
		EXPECT_EQ(0, info_ioctl(fd2, PCIESW_IOC_INFO, &b));
		EXPECT_EQ(0U, b.switch_id);
		close(fd2);
	}
	fd2 = open_sw(self->id);
	ASSERT_LE(0, fd2);
	info_init(&b);
	EXPECT_EQ(0, info_ioctl(fd2, PCIESW_IOC_INFO, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	close(fd2);
}

/* The device node is a char device whose minor is the switch id. */
TEST_F(info, dev_node)
{
	char path[64], buf[64];
	unsigned int maj, min;
	struct stat st;

	snprintf(path, sizeof(path), "/dev/pciesw%u", self->id);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(self->id, minor(st.st_rdev));
	ASSERT_EQ(0, sw_attr(self->id, "dev", buf, sizeof(buf)));
	ASSERT_EQ(2, sscanf(buf, "%u:%u", &maj, &min));
	EXPECT_EQ(maj, major(st.st_rdev));
	EXPECT_EQ(min, minor(st.st_rdev));
}

TEST_F(info, bad_size)
{
	static const unsigned int sizes[] = {
		0, 4, 8, sizeof(struct pciesw_info) - 8,
		sizeof(struct pciesw_info) - 1, sizeof(struct pciesw_info) + 1,
		sizeof(struct pciesw_info) + 8, 2 * sizeof(struct pciesw_info),
		4096, 0x80000000u, 0xffffffffu,
	};
	struct pciesw_info info;
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		info_init_junk(&info);
		info.size = sizes[i];
		EXPECT_EQ(EINVAL, info_ioctl(self->fd, PCIESW_IOC_INFO, &info))
			TH_LOG("size %u", sizes[i]);
		/* a refused call writes nothing back */
		EXPECT_EQ(sizes[i], info.size);
		EXPECT_EQ(JUNK32, info.switch_id) TH_LOG("size %u", sizes[i]);
	}
}

TEST_F(info, bad_flags)
{
	struct pciesw_info info;
	unsigned int bit;

	for (bit = 0; bit < 32; bit++) {
		info_init_junk(&info);
		info.flags = 1u << bit;
		EXPECT_EQ(EINVAL, info_ioctl(self->fd, PCIESW_IOC_INFO, &info))
			TH_LOG("flags 0x%x", 1u << bit);
		EXPECT_EQ(JUNK32, info.switch_id);
	}
	info_init_junk(&info);
	info.flags = ~0u;
	EXPECT_EQ(EINVAL, info_ioctl(self->fd, PCIESW_IOC_INFO, &info));
}

TEST_F(info, bad_reserved)
{
	static const __u64 vals[] = { 1, 0x80, 1ULL << 32, 1ULL << 63, ~0ULL };
	struct pciesw_info info;
	unsigned int i, v;

	for (i = 0; i < 4; i++) {
		for (v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
			info_init_junk(&info);
			info.reserved[i] = vals[v];
			EXPECT_EQ(EINVAL,
				  info_ioctl(self->fd, PCIESW_IOC_INFO, &info))
				TH_LOG("reserved[%u] = 0x%llx", i,
				       (unsigned long long)vals[v]);
			EXPECT_EQ(JUNK32, info.switch_id);
		}
	}
}

/* Output fields are outputs: junk in them on input is fine. */
TEST_F(info, outputs_ignored_on_input)
{
	struct pciesw_info info;

	info_init_junk(&info);
	EXPECT_EQ(0, info_ioctl(self->fd, PCIESW_IOC_INFO, &info));
	EXPECT_EQ(self->id, info.switch_id);
}

struct pciesw_info_big {
	struct pciesw_info info;
	__u64 more[2];
};

TEST_F(info, unknown_cmd)
{
	const struct {
		unsigned long cmd;
		const char *what;
	} cmds[] = {
		{ _IOWR(PCIESW_IOC_MAGIC, 0x01, struct pciesw_info), "next nr" },
		{ _IOWR(PCIESW_IOC_MAGIC, 0xff, struct pciesw_info), "nr 0xff" },
		{ _IOWR(PCIESW_IOC_MAGIC + 1, 0x00, struct pciesw_info),
		  "other magic" },
		{ _IOWR('T', 0x00, struct pciesw_info), "magic 'T'" },
		{ _IOWR(PCIESW_IOC_MAGIC, 0x00, struct pciesw_info_big),
		  "bigger size" },
		{ _IOWR(PCIESW_IOC_MAGIC, 0x00, __u32), "smaller size" },
		{ _IOR(PCIESW_IOC_MAGIC, 0x00, struct pciesw_info),
		  "read only" },
		{ _IOW(PCIESW_IOC_MAGIC, 0x00, struct pciesw_info),
		  "write only" },
		{ _IO(PCIESW_IOC_MAGIC, 0x00), "no data" },
		{ 0, "cmd 0" },
		{ 0x5401 /* TCGETS */, "TCGETS" },
	};
	struct pciesw_info_big big;
	unsigned int i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		memset(&big, 0, sizeof(big));
		big.info.size = sizeof(big.info);
		EXPECT_EQ(ENOTTY, info_ioctl(self->fd, cmds[i].cmd, &big))
			TH_LOG("%s (0x%lx)", cmds[i].what, cmds[i].cmd);
	}
}

TEST_F(info, bad_pointer)
{
	long page = sysconf(_SC_PAGESIZE);
	struct pciesw_info *info;
	char *map;

	EXPECT_EQ(EFAULT, info_ioctl(self->fd, PCIESW_IOC_INFO, NULL));
	EXPECT_EQ(EFAULT, info_ioctl(self->fd, PCIESW_IOC_INFO, (void *)1));
	EXPECT_EQ(EFAULT, info_ioctl(self->fd, PCIESW_IOC_INFO,
				     (void *)-4096L));

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));

	/* the struct runs into an inaccessible page */
	info = (struct pciesw_info *)(map + page - sizeof(*info) + 8);
	memset(info, 0, sizeof(*info) - 8);
	info->size = sizeof(*info);
	EXPECT_EQ(EFAULT, info_ioctl(self->fd, PCIESW_IOC_INFO, info));

	/* entirely inaccessible */
	EXPECT_EQ(EFAULT, info_ioctl(self->fd, PCIESW_IOC_INFO, map + page));

	/* valid input in a read-only page: the answer cannot be written */
	info = (struct pciesw_info *)map;
	info_init(info);
	ASSERT_EQ(0, mprotect(map, page, PROT_READ));
	EXPECT_EQ(EFAULT, info_ioctl(self->fd, PCIESW_IOC_INFO, info));

	/* the same place made writable again works */
	ASSERT_EQ(0, mprotect(map, page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, info_ioctl(self->fd, PCIESW_IOC_INFO, info));
	EXPECT_EQ(self->id, info->switch_id);
	munmap(map, 2 * page);
}

/* Other file operations a char device may be asked for. */
TEST_F(info, no_seek)
{
	errno = 0;
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
}

/*
 * del_device while the device is open: the file stays usable (no crash,
 * no use after free) but the switch is gone; a switch re-created with the
 * same id is a new one that the old file does not reach.
 */
TEST_F(info, open_across_delete)
{
	struct pciesw_info info;
	char path[64];
	int fd2;

	ASSERT_EQ(0, sw_del(self->id));
	EXPECT_FALSE(sw_exists(self->id));
	snprintf(path, sizeof(path), "/dev/pciesw%u", self->id);
	EXPECT_NE(0, access(path, F_OK));

	info_init_junk(&info);
	EXPECT_EQ(ENODEV, info_ioctl(self->fd, PCIESW_IOC_INFO, &info));
	EXPECT_EQ(JUNK32, info.switch_id);
	/* still refused, and argument checks still run first or not at all */
	info_init(&info);
	EXPECT_EQ(ENODEV, info_ioctl(self->fd, PCIESW_IOC_INFO, &info));
	EXPECT_EQ(ENOTTY, info_ioctl(self->fd,
				     _IOWR(PCIESW_IOC_MAGIC, 1,
					   struct pciesw_info), &info));

	/* same id again: a new switch, the old file still sees the old one */
	ASSERT_EQ(0, sw_new(self->id, "tiny8"));
	fd2 = open_sw(self->id);
	ASSERT_LE(0, fd2);
	info_init(&info);
	EXPECT_EQ(0, info_ioctl(fd2, PCIESW_IOC_INFO, &info));
	EXPECT_STREQ("tiny8", info.profile);
	info_init(&info);
	EXPECT_EQ(ENODEV, info_ioctl(self->fd, PCIESW_IOC_INFO, &info));

	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	EXPECT_EQ(0, close(fd2));
	/* teardown deletes the new one */
}

/* Deleting with the file open, then closing it, leaves no trace. */
TEST_F(info, close_after_delete)
{
	struct pciesw_info info;

	ASSERT_EQ(0, sw_del(self->id));
	info_init(&info);
	EXPECT_EQ(ENODEV, info_ioctl(self->fd, PCIESW_IOC_INFO, &info));
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	/* the id is free again */
	EXPECT_EQ(0, sw_new(self->id, NULL));
	EXPECT_TRUE(sw_exists(self->id));
}

TEST_HARNESS_MAIN
