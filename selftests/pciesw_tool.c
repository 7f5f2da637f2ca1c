// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of the shell selftests (not a test itself).
 *
 *   pciesw_tool delete-module NAME
 *	delete_module(NAME, O_NONBLOCK); prints "ok" or the errno name
 *	(EWOULDBLOCK is printed as EAGAIN, its value); exit 0 on success.
 *   pciesw_tool reader
 *	Until SIGTERM/SIGINT: resolve the family, dump switches, groups and
 *	ports, do switch-get of each, open /dev/pcieswN of each and ask INFO,
 *	read its sysfs attributes; tolerate the module coming and going.
 *	On exit prints "rounds=R nl_ok=N info_ok=I sysfs_ok=S" and exits 0.
 *   pciesw_tool info ID
 *	PCIESW_IOC_INFO on /dev/pcieswID, printed as key=value lines.
 *   pciesw_tool load-module PATH [PARAMS]
 *	finit_module(PATH, PARAMS); prints "ok" or the errno name.
 *   pciesw_tool write FILE STRING
 *	One write(2) of STRING to FILE (bash's builtins write line by line);
 *	prints "ok" or the error text, as bash does ("Invalid argument").
 *   pciesw_tool family
 *	Exit 0 and print the family id if "pciesw" is registered, else 1.
 *   pciesw_tool count
 *	Switches in a switch-get dump, and their ids: "N: ID ID ...".
 *   pciesw_tool nlctrl
 *	Until SIGTERM/SIGINT: what genl-ctrl-list asks nlctrl (a dump of
 *	every generic netlink family, libnl's genl_ctrl_alloc_cache()),
 *	every 20 ms; on exit prints "rounds=N failed=F max_ms=M
 *	blocked_ms=B" and exits 0.  See "Timing" below.
 *   pciesw_tool window-cmp DEV EP OFFSET FILE
 *	Whether endpoint EP's window, mapped from /dev/pcieswN DEV at byte
 *	OFFSET, holds the bytes of FILE: exit 0 if so, 1 if not (the first
 *	difference printed), 2 on an error.
 *   pciesw_tool sysfs-reader FILE [MS]
 *	Read FILE every MS ms (default 10) until it is gone; prints
 *	"started" once the first read is done (a test starts what it
 *	watches after it: an exec under load takes longer than any fixed
 *	wait), and on exit "reads=N dead=D first_dead_ms=T0 last_dead_ms=T1
 *	max_ms=M blocked_ms=B cpu_ms=C": D reads failed (ENODEV: the switch
 *	is dead), the first and last of them at T0 and T1 ms after the
 *	start.  Not under 10 ms on the debug kernel: a SCHED_FIFO read under
 *	TCG there takes milliseconds of CPU, and on a one-vCPU guest a 2 ms
 *	loop took most of the CPU from the teardown it watches.
 *
 * Timing: the loops run SCHED_FIFO, so that they wait for no CPU in the
 * guest, and time each call twice: M is the slowest call's wall time, B
 * the most a call spent off the CPU (wall time less the thread's CPU
 * time: sleeping on a lock, since nothing else in a netlink dump or a
 * sysfs read sleeps), C the most CPU time a call took (a spin).  Under
 * TCG a host that is busy stretches M and C, not B: a vCPU the host does
 * not run still counts the guest's time as the task's.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

/* the sysfs and netlink helpers, without the harness */
#define PCIESW_NO_HARNESS
#include "pciesw_test.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int cmd_delete_module(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0) {
		printf("ok\n");
		return 0;
	}
	printf("%s\n", strerrorname_np(errno) ?: "?");
	return 1;
}

static int cmd_load_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("open: %s\n", strerrorname_np(errno) ?: "?");
		return 1;
	}
	if (syscall(SYS_finit_module, fd, params, 0) == 0) {
		printf("ok\n");
		close(fd);
		return 0;
	}
	printf("%s\n", strerrorname_np(errno) ?: "?");
	close(fd);
	return 1;
}

static int cmd_write(const char *path, const char *s)
{
	int err = sysfs_write(path, s);

	printf("%s\n", err ? strerror(-err) : "ok");
	return !!err;
}

static int info(unsigned int id, struct pciesw_info *inf)
{
	char path[64];
	int fd, ret;

	snprintf(path, sizeof(path), "/dev/pciesw%u", id);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(inf, 0, sizeof(*inf));
	inf->size = sizeof(*inf);
	ret = ioctl(fd, PCIESW_IOC_INFO, inf) ? -errno : 0;
	close(fd);
	return ret;
}

static int cmd_info(const char *arg)
{
	struct pciesw_info inf;
	unsigned int id = strtoul(arg, NULL, 10);
	int err = info(id, &inf);

	if (err) {
		printf("error=%s\n", strerrorname_np(-err) ?: "?");
		return 1;
	}
	printf("switch_id=%u\nabi_version=%u\nnr_lanes=%u\nnr_groups=%u\n"
	       "nr_ports=%u\nnr_endpoints=%u\nprofile=%s\nserial=%s\n",
	       inf.switch_id, inf.abi_version, inf.nr_lanes, inf.nr_groups,
	       inf.nr_ports, inf.nr_endpoints, inf.profile, inf.serial);
	return 0;
}

static int cmd_reader(void)
{
	static const char *const attrs[] = { "switch_id", "profile", "lanes",
					     "serial_number", "nr_ports" };
	unsigned long rounds = 0, nl_ok = 0, info_ok = 0, sysfs_ok = 0;
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop) {
		unsigned int ids[300];
		struct pnl_reply r;
		struct pnl p;
		int n, i, a;

		rounds++;
		if (pnl_open(&p) == 0) {
			pnl_set_timeout(p.sk, 2000);
			if (pnl_dump(&p, PCIESW_CMD_SWITCH_GET, NULL, &r) == 0)
				nl_ok++;
			for (i = 0; i < (int)r.nobjs && !stop; i++) {
				struct pnl_reply one;
				struct pnl_attr req[] = {
					A_U32(PCIESW_A_SWITCH_ID,
					      r.objs[i].u[PCIESW_A_SWITCH_ID]),
					A_END,
				};

				if (pnl_do(&p, PCIESW_CMD_SWITCH_GET, req,
					   &one) == 0)
					nl_ok++;
				pnl_reply_free(&one);
			}
			pnl_reply_free(&r);
			if (pnl_dump(&p, PCIESW_CMD_PORT_GET, NULL, &r) == 0)
				nl_ok++;
			pnl_reply_free(&r);
			if (pnl_dump(&p, PCIESW_CMD_GROUP_GET, NULL, &r) == 0)
				nl_ok++;
			pnl_reply_free(&r);
			pnl_close(&p);
		}
		n = sysfs_switch_ids(ids, 300);
		for (i = 0; i < n && !stop; i++) {
			struct pciesw_info inf;
			char buf[128];

			if (info(ids[i], &inf) == 0)
				info_ok++;
			for (a = 0; a < 5; a++)
				if (sw_attr(ids[i], attrs[a], buf,
					    sizeof(buf)) == 0)
					sysfs_ok++;
		}
		if (n <= 0)	/* paces the reader while the module is out */
			usleep(10000);
	}
	printf("rounds=%lu nl_ok=%lu info_ok=%lu sysfs_ok=%lu\n", rounds,
	       nl_ok, info_ok, sysfs_ok);
	return 0;
}

static int cmd_family(void)
{
	struct pnl p;

	if (pnl_open(&p))
		return 1;
	printf("%d\n", p.family);
	pnl_close(&p);
	return 0;
}

static int cmd_count(void)
{
	struct pnl_reply r;
	unsigned int i;
	struct pnl p;
	int err;

	if (pnl_open(&p)) {
		printf("no family\n");
		return 1;
	}
	err = pnl_dump(&p, PCIESW_CMD_SWITCH_GET, NULL, &r);
	if (err) {
		printf("error=%s\n", strerrorname_np(err) ?: "?");
		return 1;
	}
	printf("%u:", r.nobjs);
	for (i = 0; i < r.nobjs; i++)
		printf(" %u", r.objs[i].u[PCIESW_A_SWITCH_ID]);
	printf("\n");
	pnl_reply_free(&r);
	pnl_close(&p);
	return 0;
}

static long long clock_us(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* Wall and CPU time of one call, and the worst so far. */
struct call_timer {
	long long wall0, cpu0;
	long long max_wall, max_off, max_cpu;
};

static void call_start(struct call_timer *t)
{
	t->wall0 = clock_us(CLOCK_MONOTONIC);
	t->cpu0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
}

static void call_end(struct call_timer *t)
{
	long long wall = clock_us(CLOCK_MONOTONIC) - t->wall0;
	long long cpu = clock_us(CLOCK_THREAD_CPUTIME_ID) - t->cpu0;

	if (wall > t->max_wall)
		t->max_wall = wall;
	if (cpu > t->max_cpu)
		t->max_cpu = cpu;
	if (wall - cpu > t->max_off)
		t->max_off = wall - cpu;
}

/* No wait for a CPU in the guest: what is left is the kernel's. */
static void realtime(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		fprintf(stderr, "SCHED_FIFO: %s\n", strerror(errno));
}

static int cmd_nlctrl(void)
{
	unsigned long rounds = 0, failed = 0;
	struct call_timer t = {};
	struct nl_sock *sk;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	realtime();
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk)) {
		printf("cannot connect\n");
		return 1;
	}
	while (!stop) {
		struct nl_cache *cache = NULL;

		call_start(&t);
		if (genl_ctrl_alloc_cache(sk, &cache))
			failed++;
		else
			nl_cache_free(cache);
		call_end(&t);
		rounds++;
		usleep(20000);
	}
	nl_socket_free(sk);
	printf("rounds=%lu failed=%lu max_ms=%lld blocked_ms=%lld\n", rounds,
	       failed, t.max_wall / 1000, t.max_off / 1000);
	return 0;
}

static int cmd_sysfs_reader(const char *path, const char *ms)
{
	unsigned int us = (ms ? atoi(ms) : 10) * 1000;
	long long start = clock_us(CLOCK_MONOTONIC), first = -1, last = -1;
	unsigned long reads = 0, dead = 0;
	struct call_timer t = {};
	char buf[256];

	realtime();
	for (;;) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		if (fd < 0)
			break;
		call_start(&t);
		n = read(fd, buf, sizeof(buf));
		call_end(&t);
		close(fd);
		if (!reads++) {
			printf("started\n");
			fflush(stdout);
		}
		if (n < 0) {
			long long at = clock_us(CLOCK_MONOTONIC) - start;

			dead++;
			if (first < 0)
				first = at;
			last = at;
		}
		usleep(us ? us : 1000);
	}
	printf("reads=%lu dead=%lu first_dead_ms=%lld last_dead_ms=%lld max_ms=%lld blocked_ms=%lld cpu_ms=%lld\n",
	       reads, dead, first / 1000, last / 1000, t.max_wall / 1000,
	       t.max_off / 1000, t.max_cpu / 1000);
	return 0;
}

static int cmd_window_cmp(const char *dev, const char *ep, const char *off,
			  const char *file)
{
	struct pciesw_ep_map map = { .size = sizeof(map) };
	unsigned long long o = strtoull(off, NULL, 0);
	int fd = open(dev, O_RDWR), ffd = open(file, O_RDONLY);
	unsigned char *w, *f;
	struct stat st;
	size_t i;

	map.ep_id = strtoul(ep, NULL, 0);
	if (fd < 0 || ffd < 0 || fstat(ffd, &st) ||
	    ioctl(fd, PCIESW_IOC_EP_MAP, &map)) {
		perror("window-cmp");
		return 2;
	}
	w = mmap(NULL, o + st.st_size, PROT_READ, MAP_SHARED, fd, map.offset);
	f = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, ffd, 0);
	if (w == MAP_FAILED || f == MAP_FAILED) {
		perror("window-cmp: mmap");
		return 2;
	}
	for (i = 0; i < (size_t)st.st_size; i++)
		if (w[o + i] != f[i]) {
			printf("differ at byte %zu\n", i);
			return 1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "delete-module"))
		return cmd_delete_module(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "reader"))
		return cmd_reader();
	if (argc == 3 && !strcmp(argv[1], "info"))
		return cmd_info(argv[2]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "load-module"))
		return cmd_load_module(argv[2], argc == 4 ? argv[3] : "");
	if (argc == 4 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3]);
	if (argc == 2 && !strcmp(argv[1], "family"))
		return cmd_family();
	if (argc == 2 && !strcmp(argv[1], "count"))
		return cmd_count();
	if (argc == 2 && !strcmp(argv[1], "nlctrl"))
		return cmd_nlctrl();
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "sysfs-reader"))
		return cmd_sysfs_reader(argv[2], argc == 4 ? argv[3] : NULL);
	if (argc == 6 && !strcmp(argv[1], "window-cmp"))
		return cmd_window_cmp(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr,
		"usage: %s delete-module NAME | load-module PATH [PARAMS] | write FILE STRING |\n"
		"       reader | info ID | family | count | nlctrl | sysfs-reader FILE [MS] |\n"
		"       window-cmp DEV EP OFFSET FILE\n",
		argv[0]);
	return 2;
}
