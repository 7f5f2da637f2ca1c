/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the pciesw C selftests: the kselftest harness, what the
 * profiles are documented to look like, sysfs access and a small generic
 * netlink client (libnl-genl) that also returns the extended ACK.
 *
 * Everything is static inline so that each test is one translation unit.
 */
#ifndef _PCIESW_TEST_H
#define _PCIESW_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include <uapi/linux/pciesw.h>

#ifndef PCIESW_NO_HARNESS
/* The harness (from linux-source) is not -Wextra clean; our code is. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
/* TEST_F() expands to a setjmp() whose locals -Wextra frowns upon. */
#pragma GCC diagnostic ignored "-Wclobbered"
#endif

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define PCIESW_BUS	"/sys/bus/pciesw"
#define PCIESW_DEVS	PCIESW_BUS "/devices"

/* ------------------------------------------------------------------ */
/* The kernel under test, time, and the runner's plan                  */

/* The debug kernel (KASAN, lockdep) under TCG, or PCIESW_SLOW set. */
static inline bool tp_slow(void)
{
	struct utsname u;
	const char *e = getenv("PCIESW_SLOW");

	if (e && *e && strcmp(e, "0"))
		return true;
	return uname(&u) == 0 && strstr(u.release, "pciesw-debug");
}

/* A deadline of @ms on a stock kernel: 5x that on the debug kernel. */
static inline unsigned int tp_ms(unsigned int ms)
{
	return tp_slow() ? 5 * ms : ms;
}

/*
 * Set the calling thread's effective and permitted capabilities (bit n:
 * capability n): a test of what a caller without some of them may do.
 */
static inline int capset_eff(uint64_t eff, uint64_t perm)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {
		{ .effective = (uint32_t)eff, .permitted = (uint32_t)perm },
		{ .effective = (uint32_t)(eff >> 32),
		  .permitted = (uint32_t)(perm >> 32) },
	};

	return syscall(SYS_capset, &hdr, data);
}

static inline uint64_t tp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline void tp_msleep(unsigned int ms)
{
	usleep(ms * 1000);
}

/*
 * A bounded poll: the deadline scales with the kernel (tp_ms()), the nap
 * between two reads starts at 1 ms and doubles up to 20 ms, so a state
 * that comes at once is seen at once and a slow one costs few reads.
 *
 *	struct tp_poll w;
 *
 *	tp_poll_start(&w, 5000);
 *	do {
 *		if (reached())
 *			return true;
 *	} while (tp_poll_next(&w));
 *	return false;
 */
struct tp_poll {
	uint64_t end;
	unsigned int nap_us;
};

#define TP_POLL_MAX_NAP_US	20000

static inline void tp_poll_start(struct tp_poll *w, unsigned int ms)
{
	w->end = tp_now_ns() + (uint64_t)tp_ms(ms) * 1000000ULL;
	w->nap_us = 1000;
}

/* Nap before the next read; false when the deadline has passed. */
static inline bool tp_poll_next(struct tp_poll *w)
{
	uint64_t now = tp_now_ns();

	if (now >= w->end)
		return false;
	if ((uint64_t)w->nap_us * 1000 > w->end - now)
		w->nap_us = (w->end - now) / 1000 + 1;
	usleep(w->nap_us);
	w->nap_us = w->nap_us * 2 > TP_POLL_MAX_NAP_US ? TP_POLL_MAX_NAP_US :
							   w->nap_us * 2;
	return true;
}

/*
 * Wait until the thread whose id is in *@tid (0 until the thread has
 * stored it) sleeps in system call @nr, as /proc/self/task/TID/syscall
 * says ("running" while it runs): for a test that must act only once a
 * thread blocks, say in read(2).  5 s, 25 s on the debug kernel.
 */
static inline bool tp_wait_blocked(const pid_t *tid, long nr)
{
	struct tp_poll w;

	tp_poll_start(&w, 5000);
	do {
		pid_t t = __atomic_load_n(tid, __ATOMIC_ACQUIRE);
		char path[64], buf[64] = "";
		long v;
		FILE *f;

		if (!t)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", t);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%ld", &v) == 1 &&
		    v == nr) {
			fclose(f);
			return true;
		}
		fclose(f);
	} while (tp_poll_next(&w));
	return false;
}

/*
 * The runner's plan (selftests/run.sh): PCIESW_REDUCED set (and not "0")
 * on the debug kernel, where the long forms (144-lane variants, many
 * switches, long load/unload cycles) run smaller.  A reduced form still
 * runs and asserts; it says so with tp_note_reduced(), which the runner
 * counts.
 */
static inline bool tp_reduced(void)
{
	const char *e = getenv("PCIESW_REDUCED");

	return e && *e && strcmp(e, "0");
}

static inline void __attribute__((format(printf, 1, 2)))
tp_note_reduced(const char *fmt, ...)
{
	va_list ap;

	printf("# REDUCED: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/*
 * @full, or @small in reduced mode (noted: "@what: @small instead of
 * @full").
 */
static inline unsigned int tp_reduce(unsigned int full, unsigned int small,
				     const char *what)
{
	if (!tp_reduced())
		return full;
	tp_note_reduced("%s: %u instead of %u", what, small, full);
	return small;
}

/* A profile: @full, or @small in reduced mode (noted). */
static inline const char *tp_reduce_profile(const char *full,
					    const char *small,
					    const char *what)
{
	if (!tp_reduced())
		return full;
	tp_note_reduced("%s: %s instead of %s", what, small, full);
	return small;
}

/*
 * The module arguments the runner loaded pciesw with (PCIESW_MODARGS, ""
 * if none).  A test that loads the module itself passes them first and
 * its own after them: the kernel takes the last value of a parameter, so
 * the test's own still win.
 */
static inline const char *tp_modargs(void)
{
	const char *e = getenv("PCIESW_MODARGS");

	return e ? e : "";
}

/* finit_module(@ko, "PCIESW_MODARGS @args"); 0 or -errno. */
static inline int tp_load_module(const char *ko, const char *args)
{
	char params[512];
	int fd, ret;

	snprintf(params, sizeof(params), "%s%s%s", tp_modargs(),
		 *tp_modargs() && args && *args ? " " : "", args ? args : "");
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/*
 * Runs @argv[0], a helper program built beside this one (the -m32 builds
 * of the compat tests), with @argv's arguments: its exit status; -ENOENT
 * when it was not built (no gcc-multilib), -ENOEXEC when the kernel runs
 * no 32-bit programs; another -errno when it could not be run.
 */
static inline int tp_run_sibling(char *const argv[])
{
	char prog[PATH_MAX];
	int status, n;
	ssize_t len;
	pid_t pid;

	len = readlink("/proc/self/exe", prog, sizeof(prog) - 1);
	if (len < 0)
		return -errno;
	prog[len] = 0;
	n = strrchr(prog, '/') - prog + 1;
	if (snprintf(prog + n, sizeof(prog) - n, "%s", argv[0]) >=
	    (int)(sizeof(prog) - n))
		return -ENAMETOOLONG;
	if (access(prog, X_OK))
		return -ENOENT;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execv(prog, argv);
		printf("# exec %s: %s\n", prog, strerror(errno));
		_exit(errno == ENOEXEC ? 126 : 127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (!WIFEXITED(status))
		return -EINTR;
	if (WEXITSTATUS(status) == 126)
		return -ENOEXEC;
	return WEXITSTATUS(status);
}

/* ------------------------------------------------------------------ */
/* What the profiles are documented to build (DESIGN.md, the brief).   */

struct exp_group {
	const char *name;
	unsigned int type;
	unsigned int first_lane;
	unsigned int nr_lanes;
	const char *config;		/* default bifurcation */
	const char *allowed[6];		/* NULL-terminated */
};

struct exp_profile {
	const char *name;
	unsigned int lanes;
	unsigned int nr_groups;
	unsigned int nr_ports;
	unsigned int max_speed;		/* of every port */
	unsigned int host_speed;	/* the upstream link trains at */
	unsigned int host_width;
	struct exp_group groups[9];
};

#define EXP_HOST16 { "host", PCIESW_GROUP_TYPE_HOST, 0, 16, "1x16", \
		     { "1x16", "1x8" } }
#define EXP_GPU(n, l) { n, PCIESW_GROUP_TYPE_GPU, l, 16, "1x16", \
			{ "1x16", "2x8", "4x4" } }
#define EXP_NVME(n, l) { n, PCIESW_GROUP_TYPE_NVME, l, 16, "4x4", \
			 { "1x16", "2x8", "4x4", "8x2", "16x1" } }

static const struct exp_profile exp_profiles[] = {
	{
		.name = "pex89048", .lanes = 48, .nr_groups = 3, .nr_ports = 6,
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.host_speed = PCIESW_LINK_SPEED_GEN5, .host_width = 16,
		.groups = { EXP_HOST16, EXP_GPU("gpu", 16),
			    EXP_NVME("nvme", 32) },
	},
	{
		.name = "pex89144", .lanes = 144, .nr_groups = 9,
		.nr_ports = 21,
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.host_speed = PCIESW_LINK_SPEED_GEN5, .host_width = 16,
		.groups = { EXP_HOST16,
			    EXP_GPU("gpu0", 16), EXP_GPU("gpu1", 32),
			    EXP_GPU("gpu2", 48), EXP_GPU("gpu3", 64),
			    EXP_NVME("nvme0", 80), EXP_NVME("nvme1", 96),
			    EXP_NVME("nvme2", 112), EXP_NVME("nvme3", 128) },
	},
	{
		.name = "tiny8", .lanes = 8, .nr_groups = 2, .nr_ports = 3,
		.max_speed = PCIESW_LINK_SPEED_GEN4,
		.host_speed = PCIESW_LINK_SPEED_GEN4, .host_width = 4,
		.groups = {
			{ "host", PCIESW_GROUP_TYPE_HOST, 0, 4, "1x4",
			  { "1x4", "1x2" } },
			{ "nvme", PCIESW_GROUP_TYPE_NVME, 4, 4, "2x2",
			  { "1x4", "2x2", "4x1" } },
		},
	},
};

static inline const struct exp_profile *exp_profile(const char *name)
{
	unsigned int i;

	if (!name)
		name = "pex89048";	/* the default */
	for (i = 0; i < sizeof(exp_profiles) / sizeof(exp_profiles[0]); i++)
		if (!strcmp(exp_profiles[i].name, name))
			return &exp_profiles[i];
	return NULL;
}

/* "NxW" -> N and W; false if malformed */
static inline bool parse_bif(const char *s, unsigned int *n, unsigned int *w)
{
	char x;

	return sscanf(s, "%u%c%u", n, &x, w) == 3 && x == 'x' && *n && *w;
}

/* Does config @cfg ("NxW") of group @g start a port at @lane? */
static inline bool exp_starts(const struct exp_group *g, const char *cfg,
			      unsigned int lane)
{
	unsigned int n, w, off = lane - g->first_lane;

	return parse_bif(cfg, &n, &w) && off % w == 0 && off / w < n;
}

/*
 * The documented port number of the port whose first lane is @lane (see
 * kmod/model/profile.c), computed here from the expectations, not the module:
 * first the slots the groups' default configs use, in lane order, then the
 * other slots (lanes where some allowed config starts a port) in lane
 * order.  -1 if no config starts a port at @lane.  *@nr_slots, if not
 * NULL: how many numbers the profile has.
 */
static inline int exp_port_at(const struct exp_profile *e, unsigned int lane,
			      unsigned int *nr_slots)
{
	unsigned int pass, g, l, c, n = 0;
	int found = -1;

	for (pass = 0; pass < 2; pass++) {
		for (g = 0; g < e->nr_groups; g++) {
			const struct exp_group *eg = &e->groups[g];

			for (l = eg->first_lane;
			     l < eg->first_lane + eg->nr_lanes; l++) {
				bool dflt = exp_starts(eg, eg->config, l);
				bool any = false;

				for (c = 0; eg->allowed[c]; c++)
					any |= exp_starts(eg, eg->allowed[c],
							  l);
				if (pass ? !any || dflt : !dflt)
					continue;
				if (l == lane)
					found = n;
				n++;
			}
		}
	}
	if (nr_slots)
		*nr_slots = n;
	return found;
}

/* ------------------------------------------------------------------ */
/* sysfs                                                               */

static inline bool pciesw_present(void)
{
	return access(PCIESW_BUS "/new_device", F_OK) == 0;
}

/* Read a sysfs file, trailing newline removed. 0 or -errno. */
static inline int sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

static inline int sw_attr(unsigned int id, const char *attr, char *buf,
			  size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/%s", id, attr);
	return sysfs_read(path, buf, len);
}

/* A numeric attribute of pcieswN, or -1 when unreadable/garbled. */
static inline long sw_attr_u32(unsigned int id, const char *attr)
{
	char buf[64], *end;
	unsigned long v;

	if (sw_attr(id, attr, buf, sizeof(buf)) || !buf[0])
		return -1;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	return (long)v;
}

/*
 * Endpoints attached to switch @id according to sysfs (the "endpoint"
 * attribute of each port device), -1 if unreadable.
 */
static inline int sysfs_nr_endpoints(unsigned int id)
{
	long nr = sw_attr_u32(id, "nr_ports");
	char path[PATH_MAX], buf[64];
	int i, n = 0, seen = 0;

	if (nr < 0)
		return -1;
	/* port numbers are physical: the ports present can have gaps */
	for (i = 0; i < 96 && seen < nr; i++) {		/* 96: max ports */
		snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%d",
			 id, i);
		if (access(path, F_OK))
			continue;
		seen++;
		snprintf(path, sizeof(path),
			 PCIESW_DEVS "/pciesw%u-port%d/endpoint", id, i);
		if (sysfs_read(path, buf, sizeof(buf)))
			return -1;
		if (buf[0])
			n++;
	}
	return n;
}

static inline bool sw_exists(unsigned int id)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u", id);
	return access(path, F_OK) == 0;
}

/* One write(2) of @s; 0 or -errno. */
static inline int sysfs_write(const char *path, const char *s)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(s))
		err = -EIO;
	close(fd);
	return err;
}

/* new_device "ID [PROFILE]"; 0 or -errno */
static inline int sw_new(unsigned int id, const char *profile)
{
	char buf[64];

	if (profile)
		snprintf(buf, sizeof(buf), "%u %s\n", id, profile);
	else
		snprintf(buf, sizeof(buf), "%u\n", id);
	return sysfs_write(PCIESW_BUS "/new_device", buf);
}

static inline int sw_del(unsigned int id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u\n", id);
	return sysfs_write(PCIESW_BUS "/del_device", buf);
}

static inline int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Ids of the switches (pcieswN) in /sys/bus/pciesw/devices, sorted; the
 * count, or -1 if an entry is named neither pcieswN nor pcieswN-...
 */
static inline int sysfs_switch_ids(unsigned int *ids, int max)
{
	struct dirent *de;
	int n = 0, bad = 0;
	DIR *d;

	d = opendir(PCIESW_DEVS);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		unsigned int id;
		char tail;

		int len = -1;

		if (de->d_name[0] == '.')
			continue;
		/* ports and endpoints are pcieswN-...: not switches */
		if (sscanf(de->d_name, "pciesw%u%n%c", &id, &len, &tail) != 1 ||
		    len < 0 || de->d_name[len]) {
			if (sscanf(de->d_name, "pciesw%u-%c", &id, &tail) != 2)
				bad = 1;
			continue;
		}
		if (n < max)
			ids[n] = id;
		n++;
	}
	closedir(d);
	if (bad || n > max)
		return -1;
	qsort(ids, n, sizeof(*ids), cmp_uint);
	return n;
}

/* ------------------------------------------------------------------ */
/* Generic netlink client                                              */

/* Attribute types; the spec's tables (pciesw_spec.h, generated) use them. */
enum { T_NONE, T_PAD, T_FLAG, T_U8, T_U16, T_U32, T_U64, T_UINT, T_STR,
       T_BIN, T_NEST };

#include "pciesw_spec.h"

#define PNL_STR_LEN	96
#define PNL_MAX_ALLOWED	8
#define PNL_MAX_SENSORS	8
#define PNL_MAX_VPD	24
#define PNL_BIN_LEN	1024
#define PNL_MAX_PORTS	8

/* A thermal-sensor nest; has_* say which attributes came. */
struct pnl_sensor {
	uint32_t id;
	char label[32];
	int32_t temp, max, crit, override;
	uint32_t hyst;
	uint8_t max_alarm, crit_alarm;
	bool has_id, has_label, has_temp, has_max, has_crit, has_hyst,
	     has_max_alarm, has_crit_alarm, has_override;
};

/* A vpd-field nest. */
struct pnl_vpd_field {
	char kw[4];
	char value[256];
	uint8_t writable;
	bool has_kw, has_value, has_writable;
};

/* One received message, its attributes decoded. */
struct pnl_obj {
	uint8_t cmd;
	uint8_t version;
	unsigned char count[SPEC_ATTR_MAX + 1];	/* times each attribute came */
	int bad_type;		/* attribute the spec does not know or whose */
				/* length/format is not the spec's; 0 if none */
	int dup_type;		/* single attribute seen twice, 0 if none */
	uint32_t u[SPEC_ATTR_MAX + 1];		/* u8, u16 and u32 values */
	uint64_t u64[SPEC_ATTR_MAX + 1];	/* u64 values */
	char s[SPEC_ATTR_MAX + 1][PNL_STR_LEN];
	unsigned int nr_allowed;		/* group-allowed-config */
	char allowed[PNL_MAX_ALLOWED][16];
	/* counter nests (counter-get): value of counter i if bit i is set */
	uint64_t ctr_mask;
	unsigned int nr_ctr;			/* counter nests received */
	uint64_t ctr[PCIESW_COUNTER_MAX + 1];
	/* thermal-sensor nests (thermal-get), in message order */
	unsigned int nr_sensors;
	struct pnl_sensor sensor[PNL_MAX_SENSORS];
	/* vpd-field nests (vpd-get), in message order */
	unsigned int nr_vpd;
	struct pnl_vpd_field vpd[PNL_MAX_VPD];
	/* p2p-port and p2p-redirect-port (p2p-check), in message order */
	unsigned int nr_p2p_port, nr_redirect_port;
	uint32_t p2p_port[PNL_MAX_PORTS], redirect_port[PNL_MAX_PORTS];
	/* the binary attribute (vpd-image); bin_len may exceed PNL_BIN_LEN */
	unsigned int bin_len;
	unsigned char bin[PNL_BIN_LEN];
};

static inline bool pnl_has(const struct pnl_obj *o, int type)
{
	return type > 0 && type <= SPEC_ATTR_MAX && o->count[type];
}

/*
 * The first attribute of @o that the spec does not list for the reply of
 * @cmd (@dump: its dump reply; notifications: the op they notify), 0 if
 * all are allowed.  Pad attributes may come anywhere.
 */
static inline int pnl_not_in_spec(const struct pnl_obj *o, int cmd, bool dump)
{
	const struct spec_op *op;
	int a;

	if (cmd <= 0 || cmd > SPEC_CMD_MAX)
		return -1;
	op = &spec_ops[cmd];
	for (a = 1; a <= SPEC_ATTR_MAX; a++) {
		if (!o->count[a] || spec_attrs[a].type == T_PAD)
			continue;
		if (!(dump && !op->is_ntf ? op->dump_reply[a] : op->do_reply[a]))
			return a;
	}
	return 0;
}

/*
 * The first attribute of @o that is not in the 0-terminated @allowed (pad
 * attributes may come anywhere), 0 if none: for event ops, whose
 * attributes gen_spec.py does not tabulate.
 */
static inline int pnl_not_in(const struct pnl_obj *o, const int *allowed)
{
	const int *w;
	int a;

	for (a = 1; a <= SPEC_ATTR_MAX; a++) {
		if (!o->count[a] || spec_attrs[a].type == T_PAD)
			continue;
		for (w = allowed; *w && *w != a; w++)
			;
		if (!*w)
			return a;
	}
	return 0;
}

/* The first attribute of the 0-terminated @want that @o lacks, 0 if none. */
static inline int pnl_missing(const struct pnl_obj *o, const int *want)
{
	for (; *want; want++)
		if (!pnl_has(o, *want))
			return *want;
	return 0;
}

/* Attributes every reply of these carries (the spec lists more). */
static const int pnl_switch_core[] = {
	PCIESW_A_SWITCH_ID, PCIESW_A_SWITCH_NAME, PCIESW_A_SWITCH_PROFILE,
	PCIESW_A_SWITCH_DESCRIPTION, PCIESW_A_SWITCH_LANES,
	PCIESW_A_SWITCH_SERIAL, PCIESW_A_SWITCH_NR_GROUPS,
	PCIESW_A_SWITCH_NR_PORTS, 0
};
static const int pnl_group_core[] = {
	PCIESW_A_SWITCH_ID, PCIESW_A_GROUP_ID, PCIESW_A_GROUP_NAME,
	PCIESW_A_GROUP_TYPE, PCIESW_A_GROUP_FIRST_LANE,
	PCIESW_A_GROUP_NR_LANES, PCIESW_A_GROUP_CONFIG,
	PCIESW_A_GROUP_ALLOWED_CONFIG, 0
};
static const int pnl_port_core[] = {
	PCIESW_A_SWITCH_ID, PCIESW_A_PORT_ID, PCIESW_A_GROUP_ID,
	PCIESW_A_GROUP_NAME, PCIESW_A_PORT_ROLE, PCIESW_A_PORT_FIRST_LANE,
	PCIESW_A_PORT_NR_LANES, PCIESW_A_PORT_LTSSM, PCIESW_A_PORT_LINK_ACTIVE,
	PCIESW_A_PORT_MAX_SPEED, PCIESW_A_PORT_MAX_WIDTH,
	PCIESW_A_PORT_TARGET_SPEED, PCIESW_A_PORT_SPEED, PCIESW_A_PORT_WIDTH,
	PCIESW_A_PORT_DEGRADED, 0	/* + acs-redirect on downstream ports */
};

/* The outcome of one request. */
struct pnl_reply {
	int err;		/* 0, or the errno the kernel answered with */
	bool done;		/* ACK, error or end of dump received */
	bool timed_out;		/* no answer in time (or a libnl failure) */
	char msg[256];		/* NLMSGERR_ATTR_MSG */
	bool has_offs;
	uint32_t offs;		/* NLMSGERR_ATTR_OFFS */
	int miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, -1 if absent */
	bool has_policy;	/* NLMSGERR_ATTR_POLICY present */
	unsigned int ndgrams;	/* datagrams received */
	unsigned int nobjs;
	unsigned int cap;
	struct pnl_obj *objs;
};

struct pnl {
	struct nl_sock *sk;
	int family;
	unsigned int mon_grp;
};

static inline void pnl_reply_init(struct pnl_reply *r)
{
	memset(r, 0, sizeof(*r));
	r->miss_type = -1;
}

static inline void pnl_reply_free(struct pnl_reply *r)
{
	free(r->objs);
	r->objs = NULL;
	r->nobjs = r->cap = 0;
}

static inline int pnl_set_timeout(struct nl_sock *sk, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };

	return setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVTIMEO,
			  &tv, sizeof(tv));
}

/*
 * Connect and resolve the family.  0, or -ENOENT when the family is not
 * registered (module not loaded), or another -errno.
 */
static inline int pnl_open(struct pnl *p)
{
	int one = 1, grp;

	memset(p, 0, sizeof(*p));
	p->sk = nl_socket_alloc();
	if (!p->sk)
		return -ENOMEM;
	if (genl_connect(p->sk)) {
		nl_socket_free(p->sk);
		p->sk = NULL;
		return -EIO;
	}
	setsockopt(nl_socket_get_fd(p->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(p->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	pnl_set_timeout(p->sk, 10000);
	p->family = genl_ctrl_resolve(p->sk, PCIESW_FAMILY_NAME);
	if (p->family < 0) {
		nl_socket_free(p->sk);
		p->sk = NULL;
		return -ENOENT;
	}
	grp = genl_ctrl_resolve_grp(p->sk, PCIESW_FAMILY_NAME,
				    PCIESW_MCGRP_MONITOR);
	p->mon_grp = grp > 0 ? (unsigned int)grp : 0;
	return 0;
}

static inline void pnl_close(struct pnl *p)
{
	if (p->sk)
		nl_socket_free(p->sk);
	p->sk = NULL;
}

/* Does @nla have the length and format of spec type @t? */
static inline bool pnl_type_ok(const struct nlattr *nla, unsigned char t,
			       int nest)
{
	int len = nla_len(nla);
	const char *d = nla_data(nla);
	const struct nlattr *in;
	int rem;

	switch (t) {
	case T_PAD:
	case T_BIN:
		return true;
	case T_FLAG:
		return len == 0;
	case T_U8:
		return len == 1;
	case T_U16:
		return len == 2;
	case T_U32:
		return len == 4;
	case T_U64:
		return len == 8;
	case T_UINT:
		return len == 4 || len == 8;
	case T_STR:
		return len >= 1 && !d[len - 1] && strlen(d) == (size_t)len - 1;
	case T_NEST:
		if (nest < 0)
			return false;
		nla_for_each_attr(in, nla_data(nla), len, rem) {
			int it = nla_type(in);

			if (it <= 0 || it > SPEC_ATTR_MAX ||
			    (!spec_nests[nest][it] &&
			     spec_attrs[it].type != T_PAD) ||
			    !pnl_type_ok(in, spec_attrs[it].type,
					 spec_attrs[it].nest))
				return false;
		}
		return rem == 0;
	}
	return false;
}

static inline void pnl_decode_counter(const struct nlattr *nla,
				      struct pnl_obj *o)
{
	const struct nlattr *in;
	bool has_id = false, has_val = false;
	uint32_t id = 0;
	uint64_t val = 0;
	int rem;

	o->nr_ctr++;
	nla_for_each_nested(in, nla, rem) {
		if (nla_type(in) == PCIESW_A_COUNTER_ID) {
			id = nla_get_u32(in);
			has_id = true;
		} else if (nla_type(in) == PCIESW_A_COUNTER_VALUE) {
			val = nla_get_u64(in);
			has_val = true;
		}
	}
	if (!has_id || !has_val || id > PCIESW_COUNTER_MAX) {
		o->bad_type = PCIESW_A_COUNTER;
		return;
	}
	if (o->ctr_mask & (1ULL << id))
		o->dup_type = PCIESW_A_COUNTER;
	o->ctr_mask |= 1ULL << id;
	o->ctr[id] = val;
}

static inline void pnl_decode_sensor(const struct nlattr *nla,
				     struct pnl_obj *o)
{
	struct pnl_sensor *sn;
	const struct nlattr *in;
	int rem;

	if (o->nr_sensors >= PNL_MAX_SENSORS) {
		o->bad_type = PCIESW_A_THERMAL_SENSOR;
		return;
	}
	sn = &o->sensor[o->nr_sensors++];
	nla_for_each_nested(in, nla, rem) {
		switch (nla_type(in)) {
		case PCIESW_A_SENSOR_ID:
			sn->id = nla_get_u32(in);
			sn->has_id = true;
			break;
		case PCIESW_A_SENSOR_LABEL:
			snprintf(sn->label, sizeof(sn->label), "%s",
				 (char *)nla_data(in));
			sn->has_label = true;
			break;
		case PCIESW_A_SENSOR_TEMP:
			sn->temp = (int32_t)nla_get_u32(in);
			sn->has_temp = true;
			break;
		case PCIESW_A_SENSOR_MAX:
			sn->max = (int32_t)nla_get_u32(in);
			sn->has_max = true;
			break;
		case PCIESW_A_SENSOR_CRIT:
			sn->crit = (int32_t)nla_get_u32(in);
			sn->has_crit = true;
			break;
		case PCIESW_A_SENSOR_HYST:
			sn->hyst = nla_get_u32(in);
			sn->has_hyst = true;
			break;
		case PCIESW_A_SENSOR_MAX_ALARM:
			sn->max_alarm = nla_get_u8(in);
			sn->has_max_alarm = true;
			break;
		case PCIESW_A_SENSOR_CRIT_ALARM:
			sn->crit_alarm = nla_get_u8(in);
			sn->has_crit_alarm = true;
			break;
		case PCIESW_A_SENSOR_OVERRIDE:
			sn->override = (int32_t)nla_get_u32(in);
			sn->has_override = true;
			break;
		default:
			break;
		}
	}
}

static inline void pnl_decode_vpd_field(const struct nlattr *nla,
					struct pnl_obj *o)
{
	struct pnl_vpd_field *f;
	const struct nlattr *in;
	int rem;

	if (o->nr_vpd >= PNL_MAX_VPD) {
		o->bad_type = PCIESW_A_VPD_FIELD;
		return;
	}
	f = &o->vpd[o->nr_vpd++];
	nla_for_each_nested(in, nla, rem) {
		switch (nla_type(in)) {
		case PCIESW_A_VPD_KEYWORD:
			snprintf(f->kw, sizeof(f->kw), "%s",
				 (char *)nla_data(in));
			f->has_kw = true;
			break;
		case PCIESW_A_VPD_VALUE:
			snprintf(f->value, sizeof(f->value), "%s",
				 (char *)nla_data(in));
			f->has_value = true;
			break;
		case PCIESW_A_VPD_WRITABLE:
			f->writable = nla_get_u8(in);
			f->has_writable = true;
			break;
		default:
			break;
		}
	}
}

static inline void pnl_decode(struct nlmsghdr *nlh, struct pnl_obj *o)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *nla;
	int rem;

	memset(o, 0, sizeof(*o));
	o->cmd = gh->cmd;
	o->version = gh->version;
	nla_for_each_attr(nla, genlmsg_attrdata(gh, 0),
			  genlmsg_attrlen(gh, 0), rem) {
		int type = nla_type(nla);
		const struct spec_attr *sa;

		if (type <= 0 || type > SPEC_ATTR_MAX ||
		    spec_attrs[type].type == T_NONE) {
			o->bad_type = type ? type : -1;
			continue;
		}
		sa = &spec_attrs[type];
		if (!pnl_type_ok(nla, sa->type, sa->nest)) {
			o->bad_type = type;
			continue;
		}
		if (o->count[type] && !sa->multi && sa->type != T_PAD)
			o->dup_type = type;
		if (o->count[type] < 255)
			o->count[type]++;
		switch (sa->type) {
		case T_U8:
			o->u[type] = nla_get_u8(nla);
			break;
		case T_U16:
			o->u[type] = nla_get_u16(nla);
			break;
		case T_U32:
			o->u[type] = nla_get_u32(nla);
			if (type == PCIESW_A_P2P_PORT &&
			    o->nr_p2p_port < PNL_MAX_PORTS)
				o->p2p_port[o->nr_p2p_port++] = o->u[type];
			if (type == PCIESW_A_P2P_REDIRECT_PORT &&
			    o->nr_redirect_port < PNL_MAX_PORTS)
				o->redirect_port[o->nr_redirect_port++] =
					o->u[type];
			break;
		case T_U64:
			o->u64[type] = nla_get_u64(nla);
			break;
		case T_STR:
			if (type == PCIESW_A_GROUP_ALLOWED_CONFIG) {
				if (o->nr_allowed < PNL_MAX_ALLOWED)
					snprintf(o->allowed[o->nr_allowed],
						 sizeof(o->allowed[0]), "%s",
						 (char *)nla_data(nla));
				o->nr_allowed++;
			} else {
				snprintf(o->s[type], PNL_STR_LEN, "%s",
					 (char *)nla_data(nla));
			}
			break;
		case T_BIN:
			o->bin_len = nla_len(nla);
			memcpy(o->bin, nla_data(nla),
			       o->bin_len < PNL_BIN_LEN ? o->bin_len :
							  PNL_BIN_LEN);
			break;
		case T_NEST:
			if (type == PCIESW_A_COUNTER)
				pnl_decode_counter(nla, o);
			else if (type == PCIESW_A_THERMAL_SENSOR)
				pnl_decode_sensor(nla, o);
			else if (type == PCIESW_A_VPD_FIELD)
				pnl_decode_vpd_field(nla, o);
			break;
		default:
			break;
		}
	}
	if (rem)
		o->bad_type = -2;	/* trailing garbage */
}

static inline int pnl_cb_valid(struct nl_msg *msg, void *arg)
{
	struct pnl_reply *r = arg;

	if (r->nobjs == r->cap) {
		unsigned int cap = r->cap ? r->cap * 2 : 16;
		struct pnl_obj *o = realloc(r->objs, cap * sizeof(*o));

		if (!o)
			return NL_STOP;
		r->objs = o;
		r->cap = cap;
	}
	pnl_decode(nlmsg_hdr(msg), &r->objs[r->nobjs++]);
	return NL_OK;
}

static inline void pnl_parse_ext_ack(struct nlmsghdr *nlh,
				     struct pnl_reply *r)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	unsigned int off = sizeof(*e);
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)off;
	if (len <= 0)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)e + off), len, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(r->msg, sizeof(r->msg), "%s",
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS]) {
		r->has_offs = true;
		r->offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		r->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
	if (tb[NLMSGERR_ATTR_POLICY])
		r->has_policy = true;
}

static inline int pnl_cb_err(struct sockaddr_nl *nla, struct nlmsgerr *e,
			     void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct pnl_reply *r = arg;

	(void)nla;
	r->err = -e->error;
	r->done = true;
	pnl_parse_ext_ack(nlh, r);
	return NL_STOP;
}

static inline int pnl_cb_ack(struct nl_msg *msg, void *arg)
{
	struct pnl_reply *r = arg;

	pnl_parse_ext_ack(nlmsg_hdr(msg), r);
	r->done = true;
	return NL_STOP;
}

static inline int pnl_cb_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct pnl_reply *r = arg;

	/*
	 * a dump that failed half way carries the error in NLMSG_DONE, and
	 * its extended ACK message after it
	 */
	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
		int e = *(int *)nlmsg_data(nlh);
		int len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)sizeof(int);
		struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

		if (e < 0)
			r->err = -e;
		if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && len > 0 &&
		    !nla_parse(tb, NLMSGERR_ATTR_MAX,
			       (struct nlattr *)((char *)nlmsg_data(nlh) +
						 sizeof(int)), len, NULL) &&
		    tb[NLMSGERR_ATTR_MSG])
			snprintf(r->msg, sizeof(r->msg), "%s",
				 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	}
	r->done = true;
	return NL_STOP;
}

static unsigned int *pnl_dgram_counter;

static inline int pnl_recv_count(struct nl_sock *sk, struct sockaddr_nl *nla,
				 unsigned char **buf, struct ucred **creds)
{
	int n = nl_recv(sk, nla, buf, creds);

	if (n > 0 && pnl_dgram_counter)
		(*pnl_dgram_counter)++;
	return n;
}

/* Receive until the request is answered; false on timeout/libnl failure. */
static inline bool pnl_wait(struct nl_sock *sk, struct pnl_reply *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret = 0;

	if (!cb)
		return false;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, pnl_cb_valid, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, pnl_cb_ack, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, pnl_cb_finish, r);
	nl_cb_err(cb, NL_CB_CUSTOM, pnl_cb_err, r);
	nl_cb_overwrite_recv(cb, pnl_recv_count);
	pnl_dgram_counter = &r->ndgrams;
	while (!r->done) {
		ret = nl_recvmsgs(sk, cb);
		if (ret < 0 && !r->done)
			break;
	}
	pnl_dgram_counter = NULL;
	nl_cb_put(cb);
	if (!r->done)
		r->timed_out = true;
	return r->done;
}

/* Request attributes. */
enum { PA_U32, PA_U8, PA_STR, PA_RAW, PA_U64 };
struct pnl_attr {
	int type;
	int kind;
	uint32_t u;
	const char *s;
	const void *raw;
	int len;
	uint64_t u64;
};

#define A_U32(t, v)	{ .type = (t), .kind = PA_U32, .u = (v) }
#define A_S32(t, v)	{ .type = (t), .kind = PA_U32, .u = (uint32_t)(v) }
#define A_U64(t, v)	{ .type = (t), .kind = PA_U64, .u64 = (v) }
#define A_U8(t, v)	{ .type = (t), .kind = PA_U8, .u = (v) }
#define A_STR(t, v)	{ .type = (t), .kind = PA_STR, .s = (v) }
#define A_RAW(t, p, l)	{ .type = (t), .kind = PA_RAW, .raw = (p), .len = (l) }
#define A_END		{ .type = -1 }

/* Offset of the n-th attribute of a request made of u32 attributes only. */
#define PNL_ATTR_OFFS(n)	(NLMSG_HDRLEN + GENL_HDRLEN + 8 * (n))

/*
 * A request message for @cmd (@dump: NLM_F_DUMP) carrying @attrs
 * (terminated by A_END, may be NULL); NULL when out of memory.
 */
static inline struct nl_msg *pnl_msg(const struct pnl *p, uint8_t cmd,
				     bool dump, const struct pnl_attr *attrs)
{
	struct nl_msg *msg;
	int i, ret = 0;

	msg = nlmsg_alloc();
	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, p->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, PCIESW_FAMILY_VERSION))
		ret = -1;
	for (i = 0; !ret && attrs && attrs[i].type >= 0; i++) {
		const struct pnl_attr *a = &attrs[i];

		switch (a->kind) {
		case PA_U32:
			ret = nla_put_u32(msg, a->type, a->u);
			break;
		case PA_U8:
			ret = nla_put_u8(msg, a->type, a->u);
			break;
		case PA_U64:
			ret = nla_put_u64(msg, a->type, a->u64);
			break;
		case PA_STR:
			ret = nla_put_string(msg, a->type, a->s);
			break;
		default:
			ret = nla_put(msg, a->type, a->len, a->raw);
			break;
		}
	}
	if (ret) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * Send @cmd with @attrs (terminated by A_END, may be NULL) and collect the
 * answer in @r.  @dump adds NLM_F_DUMP.  Returns r->err, or -ETIMEDOUT when
 * nothing came back.
 */
static inline int pnl_req(struct pnl *p, uint8_t cmd, bool dump,
			  const struct pnl_attr *attrs, struct pnl_reply *r)
{
	struct nl_msg *msg;
	int ret;

	pnl_reply_init(r);
	msg = pnl_msg(p, cmd, dump, attrs);
	if (!msg)
		return -ENOMEM;
	ret = nl_send_auto(p->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return -EIO;
	if (!pnl_wait(p->sk, r))
		return -ETIMEDOUT;
	return r->err;
}

static inline int pnl_do(struct pnl *p, uint8_t cmd,
			 const struct pnl_attr *attrs, struct pnl_reply *r)
{
	return pnl_req(p, cmd, false, attrs, r);
}

static inline int pnl_dump(struct pnl *p, uint8_t cmd,
			   const struct pnl_attr *attrs, struct pnl_reply *r)
{
	return pnl_req(p, cmd, true, attrs, r);
}

/*
 * Links train in modeled time after a switch appears or a device is
 * plugged in: wait until every port of switch @id that has a partner (the
 * upstream port: the host; a downstream port: an endpoint) is in L0, for
 * at most @ms (scaled by tp_ms()).
 */
static inline bool pnl_wait_trained(struct pnl *p, unsigned int id,
				    unsigned int ms)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	struct pnl_reply r;
	struct tp_poll w;

	tp_poll_start(&w, ms);
	do {
		bool done = pnl_dump(p, PCIESW_CMD_PORT_GET, req, &r) == 0 &&
			    r.nobjs > 0;
		unsigned int i;

		for (i = 0; done && i < r.nobjs; i++) {
			const struct pnl_obj *o = &r.objs[i];

			if ((o->u[PCIESW_A_PORT_ROLE] ==
			     PCIESW_PORT_ROLE_UPSTREAM ||
			     pnl_has(o, PCIESW_A_EP_ID)) &&
			    o->u[PCIESW_A_PORT_LTSSM] != PCIESW_LTSSM_L0)
				done = false;
		}
		pnl_reply_free(&r);
		if (done)
			return true;
	} while (tp_poll_next(&w));
	return false;
}

/* A socket subscribed to the monitor group. 0 or -errno. */
static inline int pnl_open_monitor(struct pnl *p)
{
	int err = pnl_open(p);

	if (err)
		return err;
	if (!p->mon_grp) {
		pnl_close(p);
		return -ENOENT;
	}
	nl_socket_disable_seq_check(p->sk);
	if (nl_socket_add_membership(p->sk, p->mon_grp)) {
		pnl_close(p);
		return -EIO;
	}
	return 0;
}

static inline int pnl_cb_seq_ok(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static inline int pnl_cb_ntf(struct nl_msg *msg, void *arg)
{
	pnl_cb_valid(msg, arg);
	return NL_OK;
}

/*
 * Collect the notifications that arrive within @ms milliseconds (5x that on
 * the debug kernel: tp_ms()) of the last one (or of the call), appending
 * them to r->objs.  The module sends a notification as the change is made,
 * so what a finished request caused is queued already; the quiet period is
 * for what work items send (link training, health, thermal) and is the
 * watch of the tests that prove that nothing more comes.
 */
static inline void pnl_recv_ntf(struct pnl *p, int ms, struct pnl_reply *r)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(p->sk),
			      .events = POLLIN };
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);

	if (!cb)
		return;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, pnl_cb_ntf, r);
	/* notifications carry sequence number 0 */
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, pnl_cb_seq_ok, NULL);
	while (poll(&pfd, 1, ms > 0 ? (int)tp_ms(ms) : ms) == 1) {
		if (nl_recvmsgs(p->sk, cb) < 0)
			break;
	}
	nl_cb_put(cb);
}

/* ------------------------------------------------------------------ */
/* Unprivileged checks                                                 */

#define PCIESW_NOBODY	65534

/* CapEff of this process, from /proc/self/status; ~0 if unreadable. */
static inline uint64_t pciesw_cap_eff(void)
{
	unsigned long long v = ~0ULL;
	char line[256];
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Become nobody for good, no capability left; false if that failed. */
static inline bool pciesw_drop_to_nobody(void)
{
	if (setgroups(0, NULL) || setgid(PCIESW_NOBODY) ||
	    setuid(PCIESW_NOBODY))
		return false;
	return getuid() == PCIESW_NOBODY && geteuid() == PCIESW_NOBODY &&
	       getgid() == PCIESW_NOBODY && pciesw_cap_eff() == 0;
}

#ifndef PCIESW_NO_HARNESS
/*
 * Run fn(_metadata, ...) in a forked child that became nobody.  @fn
 * reports with EXPECT_* (the harness' metadata is shared with the child),
 * never ASSERT_*.
 */
#define PCIESW_AS_NOBODY(fn, ...) do {					\
	pid_t _pid = fork();						\
	int _st;							\
									\
	ASSERT_LE(0, _pid);						\
	if (_pid == 0) {						\
		EXPECT_TRUE(pciesw_drop_to_nobody());			\
		if (_metadata->exit_code == KSFT_PASS)			\
			fn(_metadata, ##__VA_ARGS__);			\
		fflush(NULL);						\
		_exit(0);						\
	}								\
	ASSERT_EQ(_pid, waitpid(_pid, &_st, 0));			\
	EXPECT_TRUE(WIFEXITED(_st) && WEXITSTATUS(_st) == 0)		\
		TH_LOG("child status 0x%x", _st);			\
} while (0)
#endif

#endif /* _PCIESW_TEST_H */
