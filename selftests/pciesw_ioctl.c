// SPDX-License-Identifier: GPL-2.0
/*
 * PCIESW_IOC_INFO on /dev/pcieswN: what it reports (against sysfs and the
 * documented profiles) and every way a caller can get it wrong.
 *
 * Each variant creates its own switch through new_device in the setup and
 * deletes it in the teardown, so the tests need only the module loaded.
 *
 * The uapi fixture: how the ioctl structures grow (copy_struct_from_user
 * semantics), the feature flags, the versioned completion records, map
 * offsets and endpoint ids that are not reused, and the 32-bit path (the
 * -m32 build of pciesw_compat.c, run from here).
 */
#include <setjmp.h>
#include <signal.h>
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
	EXPECT_EQ(0U, info.reserved1);

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

/*
 * Sizes the module refuses: below the first version (EINVAL), above a
 * page (E2BIG).  Larger and smaller sizes it takes: TEST_F(uapi, ...).
 */
TEST_F(info, bad_size)
{
	static const struct {
		unsigned int size;
		int err;
	} sizes[] = {
		{ 0, EINVAL }, { 4, EINVAL }, { 8, EINVAL },
		{ PCIESW_INFO_SIZE_VER0 - 8, EINVAL },
		{ PCIESW_INFO_SIZE_VER0 - 1, EINVAL },
		{ 4097, E2BIG }, { 0x80000000u, E2BIG }, { 0xffffffffu, E2BIG },
	};
	struct pciesw_info info;
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		info_init_junk(&info);
		info.size = sizes[i].size;
		EXPECT_EQ(sizes[i].err,
			  info_ioctl(self->fd, PCIESW_IOC_INFO, &info))
			TH_LOG("size %u", sizes[i].size);
		/* a refused call writes nothing back */
		EXPECT_EQ(sizes[i].size, info.size);
		EXPECT_EQ(JUNK32, info.switch_id)
			TH_LOG("size %u", sizes[i].size);
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

	for (i = 0; i < 5; i++) {
		for (v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
			info_init_junk(&info);
			if (i < 4)
				info.reserved[i] = vals[v];
			else
				info.reserved1 = (__u32)vals[v] ?: 1;
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
		{ _IOWR(PCIESW_IOC_MAGIC, 0x40, struct pciesw_info), "nr 0x40" },
		{ _IOWR(PCIESW_IOC_MAGIC, 0xff, struct pciesw_info), "nr 0xff" },
		{ _IOWR(PCIESW_IOC_MAGIC + 1, 0x00, struct pciesw_info),
		  "other magic" },
		{ _IOWR('T', 0x00, struct pciesw_info), "magic 'T'" },
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
				     _IOWR(PCIESW_IOC_MAGIC, 0x40,
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

/* ---- uapi: a uAPI that can grow ---- */

#define UAPI_ID		203

FIXTURE(uapi)
{
	int fd;
	long page;
};

FIXTURE_SETUP(uapi)
{
	self->fd = -1;
	self->page = sysconf(_SC_PAGESIZE);
	ASSERT_TRUE(pciesw_present());
	if (sw_exists(UAPI_ID))
		sw_del(UAPI_ID);
	ASSERT_EQ(0, sw_new(UAPI_ID, NULL));
	self->fd = open_sw(UAPI_ID);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(uapi)
{
	if (self->fd >= 0)
		close(self->fd);
	if (sw_exists(UAPI_ID))
		sw_del(UAPI_ID);
}

/* An endpoint attribute by the endpoint's name, -1 if none. */
static long uapi_ep_attr(const char *ep, const char *attr)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-%s/%s", UAPI_ID,
		 ep, attr);
	if (sysfs_read(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 0);
}

/* The port endpoint @ep is plugged into, -1 if none. */
static int uapi_ep_port(const char *ep)
{
	char path[128], buf[64];
	int p;

	for (p = 0; p < 96; p++) {
		snprintf(path, sizeof(path),
			 PCIESW_DEVS "/pciesw%u-port%d/endpoint", UAPI_ID, p);
		if (sysfs_read(path, buf, sizeof(buf)) >= 0 &&
		    !strcmp(buf, ep))
			return p;
	}
	return -1;
}

static int uapi_port_write(int port, const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%d/%s",
		 UAPI_ID, port, attr);
	return sysfs_write(path, val);
}

/* Wait (with a deadline) for the link of @port to be up. */
static bool uapi_wait_up(int port)
{
	char path[128], buf[16];
	struct tp_poll w;

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%d/link_state",
		 UAPI_ID, port);
	tp_poll_start(&w, 10000);
	do {
		if (sysfs_read(path, buf, sizeof(buf)) >= 0 &&
		    !strcmp(buf, "up"))
			return true;
	} while (tp_poll_next(&w));
	return false;
}

/* Unplug and replug nvme0 (a new endpoint, same name); its new id. */
static long uapi_replug(int port)
{
	if (uapi_port_write(port, "ep_remove", "1") ||
	    uapi_port_write(port, "ep_add", "nvme"))
		return -1;
	return uapi_ep_attr("nvme0", "id");
}

static int uapi_map(int fd, uint32_t ep_id, struct pciesw_ep_map *map)
{
	memset(map, 0, sizeof(*map));
	map->size = sizeof(*map);
	map->ep_id = ep_id;
	return ioctl(fd, PCIESW_IOC_EP_MAP, map) ? errno : 0;
}

/* A structure with room after it: the caller of a later header. */
struct uapi_big {
	union {
		struct pciesw_info info;
		struct pciesw_ep_map map;
		struct pciesw_dma_submit sub;
		struct pciesw_completion_fmt fmt;
	};
	unsigned char tail[64];
};

TEST_F(uapi, info_sizes)
{
	struct uapi_big b;
	struct pciesw_info *info = &b.info;
	const size_t v0 = PCIESW_INFO_SIZE_VER0;

	/* today's size: every feature this module has */
	info_init(info);
	ASSERT_EQ(0, info_ioctl(self->fd, PCIESW_IOC_INFO, info));
	EXPECT_EQ(sizeof(*info), info->size);
	EXPECT_EQ((__u32)PCIESW_INFO_SIZE_VER1, info->size);
	EXPECT_EQ((__u64)(PCIESW_FEATURE_EXTENSIBLE |
			  PCIESW_FEATURE_COMPLETION_V2 |
			  PCIESW_FEATURE_MAP_OFFSET_32 |
			  PCIESW_FEATURE_NO_ID_REUSE |
			  PCIESW_FEATURE_DMA_FILE_MODE |
			  PCIESW_FEATURE_MAP_REVOKE),
		  info->features & 0x3f);
	EXPECT_EQ((__u32)PCIESW_DMA_COMPLETION_V2, info->completion_version);

	/* an older caller: the first version, nothing written past it */
	memset(&b, 0xa5, sizeof(b));
	memset(info, 0, v0);
	info->size = v0;
	ASSERT_EQ(0, info_ioctl(self->fd, PCIESW_IOC_INFO, info));
	EXPECT_EQ(v0, info->size);
	EXPECT_EQ((__u32)UAPI_ID, info->switch_id);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, info->features);
	/* ... also with the command of the old header (its _IOC_SIZE) */
	info->size = v0;
	EXPECT_EQ(0, info_ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
					       PCIESW_IOC_MAGIC, 0, v0), info));

	/* a newer caller: zeros past the module's structure are fine */
	memset(&b, 0, sizeof(b));
	info->size = sizeof(b);
	ASSERT_EQ(0, info_ioctl(self->fd, _IOWR(PCIESW_IOC_MAGIC, 0,
						struct uapi_big), &b));
	EXPECT_EQ(sizeof(*info), info->size);	/* what the module wrote */
	EXPECT_EQ((__u32)UAPI_ID, info->switch_id);
	/* ... anything else there asks for what this module lacks */
	memset(&b, 0, sizeof(b));
	info->size = sizeof(b);
	b.tail[63] = 1;
	EXPECT_EQ(E2BIG, info_ioctl(self->fd, PCIESW_IOC_INFO, &b));
	EXPECT_EQ(0U, info->switch_id);
	/* reserved1 and flags are refused whatever the size */
	info_init(info);
	info->reserved1 = 1;
	EXPECT_EQ(EINVAL, info_ioctl(self->fd, PCIESW_IOC_INFO, info));
}

TEST_F(uapi, ep_map_sizes)
{
	long id = uapi_ep_attr("nvme0", "id");
	struct pciesw_ep_map want;
	struct uapi_big b;

	ASSERT_LE(0, id);
	ASSERT_EQ(0, uapi_map(self->fd, id, &want));
	/* reachable by a 32-bit process: all of the window below 16 TiB */
	EXPECT_GE(PCIESW_MAP_OFFSET_32_MAX, want.offset + want.mem_size);
	EXPECT_EQ(0ULL, want.offset % self->page);

	memset(&b, 0, sizeof(b));
	b.map.size = sizeof(b);
	b.map.ep_id = id;
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_EP_MAP, &b));
	EXPECT_EQ(sizeof(b.map), b.map.size);
	EXPECT_EQ(want.offset, b.map.offset);
	EXPECT_EQ(want.mem_size, b.map.mem_size);

	memset(&b, 0, sizeof(b));
	b.map.size = sizeof(b);
	b.map.ep_id = id;
	b.tail[0] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &b));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(0ULL, b.map.offset);

	memset(&b, 0, sizeof(b));
	b.map.size = PCIESW_EP_MAP_SIZE_VER0 - 8;
	b.map.ep_id = id;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &b));
	EXPECT_EQ(EINVAL, errno);
	b.map.size = 4096 + 8;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_EP_MAP, &b));
	EXPECT_EQ(E2BIG, errno);
}

static void uapi_desc(struct pciesw_dma_desc *d, uint32_t ep, void *host,
		      uint64_t len, uint64_t user_data, bool to_ep)
{
	memset(d, 0, sizeof(*d));
	d->src.ep_id = to_ep ? PCIESW_DMA_HOST : ep;
	d->src.addr = to_ep ? (uintptr_t)host : 0;
	d->dst.ep_id = to_ep ? ep : PCIESW_DMA_HOST;
	d->dst.addr = to_ep ? 0 : (uintptr_t)host;
	d->len = len;
	d->user_data = user_data;
}

/* Wait for @n bytes of records (one read each), 0 on success. */
static int uapi_read(int fd, void *buf, size_t n)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if (poll(&pfd, 1, tp_ms(10000)) != 1)
			return ETIMEDOUT;
		r = read(fd, (char *)buf + got, n - got);
		if (r < 0)
			return errno;
		got += r;
	}
	return 0;
}

TEST_F(uapi, dma_sizes_and_records)
{
	long id = uapi_ep_attr("nvme0", "id");
	/* descriptors 16 bytes longer than today's, as a later header's */
	struct { struct pciesw_dma_desc d; __u64 more[2]; } big[2];
	struct pciesw_dma_completion2 *c2;
	struct pciesw_dma_completion c1[2];
	struct pciesw_completion_fmt fmt;
	unsigned char rec[2 * sizeof(struct pciesw_dma_completion2)];
	struct uapi_big b;
	char host[64];

	ASSERT_LE(0, id);
	ASSERT_TRUE(uapi_wait_up(uapi_ep_port("nvme0")));
	memset(host, 0x5a, sizeof(host));
	memset(big, 0, sizeof(big));
	uapi_desc(&big[0].d, id, host, sizeof(host), 11, true);
	uapi_desc(&big[1].d, id, host, sizeof(host), 12, false);

	/* a larger submit structure and larger descriptors, zero tails */
	memset(&b, 0, sizeof(b));
	b.sub.size = sizeof(b);
	b.sub.desc_size = sizeof(big[0]);
	b.sub.nr_descs = 2;
	b.sub.descs = (uintptr_t)big;
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b))
		TH_LOG("submit: %s", strerror(errno));
	EXPECT_EQ(2U, b.sub.nr_submitted);
	/* version 1 records by default: today's 32 bytes, as before */
	ASSERT_EQ(0, uapi_read(self->fd, c1, sizeof(c1)));
	EXPECT_EQ(11ULL, c1[0].user_data);
	EXPECT_EQ(sizeof(host), c1[0].bytes);
	EXPECT_EQ((__u32)PCIESW_DMA_STATUS_OK, c1[0].status);
	EXPECT_EQ(12ULL, c1[1].user_data);

	/* a descriptor's non-zero tail: E2BIG, naming it */
	big[1].more[1] = 1;
	b.sub.nr_submitted = 7;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(0U, b.sub.nr_submitted);
	EXPECT_EQ(1U, b.sub.error_index);
	big[1].more[1] = 0;
	/* the submit structure's non-zero tail */
	b.tail[8] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b));
	EXPECT_EQ(E2BIG, errno);
	b.tail[8] = 0;
	/* below the first versions, above a page */
	b.sub.size = PCIESW_DMA_SUBMIT_SIZE_VER0 - 8;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b));
	EXPECT_EQ(EINVAL, errno);
	b.sub.size = sizeof(b);
	b.sub.desc_size = PCIESW_DMA_DESC_SIZE_VER0 - 8;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b));
	EXPECT_EQ(EINVAL, errno);
	b.sub.desc_size = 4096 + 8;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b));
	EXPECT_EQ(E2BIG, errno);

	/* the record format: ask, bad requests, then version 2 */
	memset(&fmt, 0, sizeof(fmt));
	fmt.size = sizeof(fmt);
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_COMPLETION_FMT, &fmt));
	EXPECT_EQ((__u32)PCIESW_DMA_COMPLETION_V1, fmt.version);
	EXPECT_EQ(sizeof(struct pciesw_dma_completion), fmt.record_size);
	fmt.record_size = 0;
	fmt.version = PCIESW_DMA_COMPLETION_V2 + 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_COMPLETION_FMT, &fmt));
	EXPECT_EQ(EINVAL, errno);
	fmt.version = PCIESW_DMA_COMPLETION_V2;
	fmt.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_COMPLETION_FMT, &fmt));
	EXPECT_EQ(EINVAL, errno);
	fmt.flags = 0;
	fmt.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_COMPLETION_FMT, &fmt));
	EXPECT_EQ(EINVAL, errno);
	fmt.reserved[1] = 0;

	/* not while records are owed: they would be of two versions */
	b.sub.desc_size = sizeof(big[0]);
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b));
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_COMPLETION_FMT, &fmt));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, uapi_read(self->fd, c1, sizeof(c1)));

	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_COMPLETION_FMT, &fmt));
	EXPECT_EQ((__u32)PCIESW_DMA_COMPLETION_V2, fmt.version);
	EXPECT_EQ(sizeof(struct pciesw_dma_completion2), fmt.record_size);
	ASSERT_EQ(0, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &b));
	/* one version 1 record's room is too small now */
	EXPECT_EQ(-1, read(self->fd, c1, sizeof(c1[0])));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, uapi_read(self->fd, rec, sizeof(rec)));
	c2 = (struct pciesw_dma_completion2 *)rec;
	EXPECT_EQ(sizeof(*c2), c2->size);
	EXPECT_EQ(PCIESW_DMA_COMPLETION_V2, c2->version);
	EXPECT_EQ(0U, c2->flags);
	EXPECT_EQ(11ULL, c2->user_data);
	EXPECT_EQ(sizeof(host), c2->bytes);
	EXPECT_EQ((__u32)PCIESW_DMA_STATUS_OK, c2->status);
	EXPECT_EQ(0U, c2->reserved0 | c2->reserved1);
	EXPECT_EQ(0ULL, c2->reserved[0] | c2->reserved[1]);
	/* the next record is where @size says */
	c2 = (struct pciesw_dma_completion2 *)(rec + c2->size);
	EXPECT_EQ(12ULL, c2->user_data);
	EXPECT_EQ(PCIESW_DMA_COMPLETION_V2, c2->version);
	/* older structure of the format ioctl: the same answer */
	fmt.version = 0;
	fmt.record_size = 0;	/* an output: must come in as 0 */
	ASSERT_EQ(0, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
					  PCIESW_IOC_MAGIC, 3, 32), &fmt));
	EXPECT_EQ((__u32)PCIESW_DMA_COMPLETION_V2, fmt.version);
}

static sigjmp_buf uapi_jmp;

static void uapi_sigbus(int sig)
{
	siglongjmp(uapi_jmp, sig);
}

/*
 * Unplug and replug: the new endpoint has another id and another map
 * offset; the old id and offset name nothing (ENOENT, ENXIO) rather than
 * the new endpoint, and the old mapping gives SIGBUS.
 */
TEST_F(uapi, stale_id_and_offset)
{
	struct pciesw_ep_map old, cur;
	struct pciesw_dma_desc d;
	struct pciesw_dma_submit sub;
	struct sigaction sa, osa;
	volatile char *p;
	long id = uapi_ep_attr("nvme0", "id"), nid;
	int port = uapi_ep_port("nvme0");
	char host[16];
	void *m;

	ASSERT_LE(0, id);
	ASSERT_LE(0, port);
	ASSERT_EQ(0, uapi_map(self->fd, id, &old));
	m = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, old.offset);
	ASSERT_NE(MAP_FAILED, m);
	p = m;
	p[0] = 1;

	nid = uapi_replug(port);
	ASSERT_LE(0, nid);
	EXPECT_NE(id, nid);
	EXPECT_EQ(ENOENT, uapi_map(self->fd, id, &cur));
	ASSERT_EQ(0, uapi_map(self->fd, nid, &cur));
	EXPECT_NE(old.offset, cur.offset);
	EXPECT_GE(PCIESW_MAP_OFFSET_32_MAX, cur.offset + cur.mem_size);
	/* the old offset: no window there */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, self->page, PROT_READ, MAP_SHARED,
				   self->fd, old.offset));
	EXPECT_EQ(ENXIO, errno);
	/* DMA to the old id */
	uapi_desc(&d, id, host, sizeof(host), 1, true);
	memset(&sub, 0, sizeof(sub));
	sub.size = sizeof(sub);
	sub.desc_size = sizeof(d);
	sub.nr_descs = 1;
	sub.descs = (uintptr_t)&d;
	EXPECT_EQ(-1, ioctl(self->fd, PCIESW_IOC_DMA_SUBMIT, &sub));
	EXPECT_EQ(ENOENT, errno);
	/* the old mapping is revoked, the page touched before too */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = uapi_sigbus;
	ASSERT_EQ(0, sigaction(SIGBUS, &sa, &osa));
	if (!sigsetjmp(uapi_jmp, 1)) {
		p[0] = 2;
		EXPECT_TRUE(false) TH_LOG("the old mapping still works");
	}
	sigaction(SIGBUS, &osa, NULL);
	munmap(m, self->page);

	/* and again: ids and offsets go on, not back */
	id = nid;
	old = cur;
	nid = uapi_replug(port);
	ASSERT_LE(0, nid);
	EXPECT_LT(id, nid);
	ASSERT_EQ(0, uapi_map(self->fd, nid, &cur));
	EXPECT_NE(old.offset, cur.offset);
}

/*
 * The 32-bit path: pciesw_compat32 (pciesw_compat.c built with -m32) does
 * INFO, EP_MAP and mmap() of an endpoint whose id is 16 or more (its old
 * offset, id << 40, was out of a 32-bit process's reach), DMA and reads
 * completions of both versions.
 */
TEST_F(uapi, compat32)
{
	int port = uapi_ep_port("nvme0"), ret, n;
	long id = uapi_ep_attr("nvme0", "id");
	char arg_sw[24], arg_ep[24];
	char *argv[] = { "pciesw_compat32", arg_sw, arg_ep, NULL };

	ASSERT_LE(0, port);
	for (n = 0; id >= 0 && id < 16 && n < 32; n++)
		id = uapi_replug(port);
	ASSERT_LE(16, id);
	ASSERT_TRUE(uapi_wait_up(port));

	snprintf(arg_sw, sizeof(arg_sw), "%u", UAPI_ID);
	snprintf(arg_ep, sizeof(arg_ep), "%ld", id);
	ret = tp_run_sibling(argv);
	/* gcc-multilib is a dependency: a missing program is a failure */
	ASSERT_NE(-ENOENT, ret)
		TH_LOG("pciesw_compat32 is not built: install gcc-multilib (scripts/deps.sh) and make selftests");
	if (ret == -ENOEXEC)
		SKIP(return, "the kernel runs no 32-bit programs");
	EXPECT_EQ(0, ret);
}

TEST_HARNESS_MAIN
