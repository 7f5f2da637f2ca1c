// SPDX-License-Identifier: GPL-2.0
/*
 * gds check, read, write and bench, in the spirit of NVIDIA's gdscheck and
 * gdsio: a file on an NVMe drive of a switch (its block device pcieswSnI,
 * a partition, or an md array over them) read with O_DIRECT straight into
 * a mapping of a GPU's window (mmap of /dev/pcieswN), which the module
 * carries peer-to-peer, drive to GPU; the upstream port's traffic counters
 * around the transfer tell whether it went through the host.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "attr.h"
#include "cmd.h"
#include "dma.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* gds bench's default block */
#define GDS_CHUNK	(1U << 20)
/*
 * O_DIRECT transfers of gds read and write, at most: one for what fits,
 * as cuFileRead() and cuFileWrite() are one I/O each
 */
#define GDS_MAX_IO	(1U << 30)

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22	/* Linux 5.14 */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif
/* O_DIRECT alignment of offsets and sizes we use: 4Kn drives need it */
#define GDS_ALIGN	4096U

/* "pcieswSnI" (or a partition of it): S */
static bool disk_switch(const char *name, uint32_t *id)
{
	unsigned int s, i;
	char c;

	if (sscanf(name, "pciesw%un%u%c", &s, &i, &c) < 2)
		return false;
	*id = s;
	return true;
}

/*
 * The switch whose drive holds @fd's data: its block device, the disk of
 * its partition, or the first pciesw member of its md array.
 */
static bool file_switch(int fd, uint32_t *id)
{
	char path[PATH_MAX], real[PATH_MAX], sub[PATH_MAX + 16];
	struct dirent *e;
	struct stat st;
	const char *name;
	bool found = false;
	DIR *dir;
	char *slash;

	if (fstat(fd, &st))
		return false;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u",
		 major(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev),
		 minor(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev));
	if (!realpath(path, real))
		return false;
	snprintf(sub, sizeof(sub), "%s/partition", real);
	if (!access(sub, F_OK)) {
		slash = strrchr(real, '/');
		if (slash)
			*slash = '\0';
	}
	slash = strrchr(real, '/');
	name = slash ? slash + 1 : real;
	if (disk_switch(name, id))
		return true;
	snprintf(sub, sizeof(sub), "%s/slaves", real);
	dir = opendir(sub);
	if (!dir)
		return false;
	while (!found && (e = readdir(dir)))
		found = disk_switch(e->d_name, id);
	closedir(dir);
	return found;
}

/* A GPU of switch @id by name or id: its id and window size. */
static int resolve_gpu(struct nl_session *s, uint32_t id, const char *arg,
		       uint32_t *ep_id, uint64_t *mem_size)
{
	struct ep_ref ep;
	uint32_t type;
	int ret;

	ret = parse_ep_arg(arg, &ep);
	if (ret)
		return ret;
	ret = ep_get_window(s, id, &ep, "cannot get the GPU", ep_id, mem_size,
			    &type);
	if (!ret && type != PCIESW_EP_TYPE_GPU) {
		error("%s of switch %u is not a GPU", arg, id);
		ret = EXIT_FAIL;
	}
	return ret;
}

/* GPU[:OFFSET] into the name (allocated) and the offset */
static int parse_gpu(const char *arg, char **name, uint64_t *off)
{
	const char *colon = strchr(arg, ':');

	*off = 0;
	if (colon && !parse_size(colon + 1, off))
		return usage_error("invalid offset in \"%s\": expected GPU:OFFSET, OFFSET in bytes with an optional K, M, G or T suffix",
				   arg);
	if (*off % GDS_ALIGN)
		return usage_error("offset %" PRIu64 " in \"%s\" is not a multiple of %u: O_DIRECT needs aligned buffers",
				   *off, arg, GDS_ALIGN);
	*name = colon ? strndup(arg, colon - arg) : xstrdup(arg);
	return EXIT_OK;
}

/*
 * What read, write and bench share.  The upstream port whose bytes they
 * report is that of the drive's switch: the file's data leaves (read) or
 * enters (write) the drive's switch there when it goes through the host,
 * whichever switch the GPU is on (a GPU window of another switch is host
 * memory to the drive's); none when the file is on no pciesw drive.
 */
struct gds {
	uint32_t id;		/* the GPU's switch */
	const char *file;
	int file_fd;
	uint64_t file_size;
	char *gpu_name;
	uint32_t gpu_id;
	uint64_t gpu_off, gpu_size;
	int dev_fd;
	uint8_t *map;		/* the GPU window from gpu_off */
	uint64_t map_len;
	bool on_drive;		/* the file is on a pciesw drive, of: */
	uint32_t drive_id;
	uint32_t up_port;	/* drive_id's upstream port */
	uint64_t up_before;
	struct nl_session *s;
	const char *switch_arg;
	bool json, pretty;
};

/* Bytes of @fd: a file's size or a block device's. */
static uint64_t fd_size(int fd)
{
	struct stat st;
	uint64_t n = 0;

	if (fstat(fd, &st))
		return 0;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, &n) ? 0 : n;
	return st.st_size;
}

/* Opens FILE (O_DIRECT), finds its switch, maps the GPU's window. */
static int gds_open(struct gds *g, int flags, uint64_t want)
{
	struct pciesw_ep_map map = { .size = sizeof(map) };
	int ret;

	g->file_fd = open(g->file, flags | O_DIRECT | O_CLOEXEC, 0644);
	if (g->file_fd < 0) {
		error("cannot open %s with O_DIRECT: %s", g->file,
		      strerror(errno));
		return EXIT_FAIL;
	}
	g->file_size = fd_size(g->file_fd);
	g->on_drive = file_switch(g->file_fd, &g->drive_id);
	if (g->switch_arg) {
		ret = parse_switch_arg(g->switch_arg, &g->id);
		if (ret)
			return ret;
	} else if (g->on_drive) {
		g->id = g->drive_id;
	} else {
		error("%s is not on a pciesw drive (pcieswSnI, a partition or an md array of them): name the GPU's switch with --switch",
		      g->file);
		return EXIT_FAIL;
	}
	ret = nl_session_open(&g->s);
	if (!ret)
		ret = resolve_gpu(g->s, g->id, g->gpu_name, &g->gpu_id,
				  &g->gpu_size);
	if (!ret && g->on_drive)
		ret = find_upstream(g->s, g->drive_id, &g->up_port);
	if (ret)
		return ret;
	if (g->gpu_off >= g->gpu_size) {
		error("offset %" PRIu64 " is beyond the %" PRIu64 "-byte window of %s",
		      g->gpu_off, g->gpu_size, g->gpu_name);
		return EXIT_FAIL;
	}
	g->map_len = g->gpu_size - g->gpu_off;
	if (want && want < g->map_len)
		g->map_len = (want + GDS_ALIGN - 1) / GDS_ALIGN * GDS_ALIGN;
	ret = dma_open(g->id, &g->dev_fd);
	if (ret)
		return ret;
	map.ep_id = g->gpu_id;
	if (ioctl(g->dev_fd, PCIESW_IOC_EP_MAP, &map)) {
		error("cannot find the window of %s: %s", g->gpu_name,
		      strerror(errno));
		return EXIT_FAIL;
	}
	g->map = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      g->dev_fd, map.offset + g->gpu_off);
	if (g->map == MAP_FAILED) {
		g->map = NULL;
		error("cannot map the window of %s: %s", g->gpu_name,
		      strerror(errno));
		return EXIT_FAIL;
	}
	if (!g->on_drive)
		return EXIT_OK;
	return port_bytes(g->s, g->drive_id, g->up_port, &g->up_before);
}

static void gds_close(struct gds *g)
{
	if (g->map)
		munmap(g->map, g->map_len);
	if (g->dev_fd >= 0)
		close(g->dev_fd);
	if (g->file_fd >= 0)
		close(g->file_fd);
	if (g->s)
		nl_session_close(g->s);
	free(g->gpu_name);
}

/* where gds_touch() goes back to when a page of the window is refused */
static sigjmp_buf gds_sigbus_env;

static void gds_sigbus(int sig)
{
	(void)sig;
	siglongjmp(gds_sigbus_env, 1);
}

/*
 * By hand, on a kernel without MADV_POPULATE_* (before 5.14, or without
 * CONFIG_ADVISE_SYSCALLS): touch every page, with SIGBUS (a page the
 * module refused) turned into an error.  Single-threaded: before the
 * workers start.
 */
static int gds_touch(struct gds *g, uint64_t len, bool write)
{
	struct sigaction sa = { .sa_handler = gds_sigbus }, old;
	volatile uint64_t i = 0;
	int ret = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old))
		return -errno;
	if (sigsetjmp(gds_sigbus_env, 1)) {
		ret = -EFAULT;
	} else {
		for (; i < len; i += GDS_ALIGN) {
			if (write)
				g->map[i] = 0;
			else
				__atomic_load_n(&g->map[i], __ATOMIC_RELAXED);
		}
	}
	sigaction(SIGBUS, &old, NULL);
	return ret;
}

/*
 * Fault the first @len bytes of the GPU window in (@write: writable pages)
 * before a transfer, so that the run times the I/O, not the faults.  A
 * page the module refuses (the endpoint memory limit) is an error, not a
 * SIGBUS.
 */
static int gds_populate(struct gds *g, uint64_t len, bool write)
{
	int err = 0;

	len = (len + GDS_ALIGN - 1) / GDS_ALIGN * GDS_ALIGN;
	if (len > g->map_len)
		len = g->map_len;
	if (madvise(g->map, len, write ? MADV_POPULATE_WRITE :
					 MADV_POPULATE_READ))
		err = errno == EINVAL || errno == ENOSYS ?
		      gds_touch(g, len, write) : -errno;
	if (!err)
		return 0;
	error("cannot fault in %" PRIu64 " bytes of %s's window: %s%s",
	      len, g->gpu_name, strerror(-err),
	      err == -EFAULT ?
	      " (the module refused pages: endpoint memory above mem_limit_mb?)" :
	      "");
	return -1;
}

/* Payload bytes of the drive's switch's upstream port since gds_open(). */
static uint64_t gds_upstream(struct gds *g)
{
	uint64_t after = 0;

	if (!g->on_drive ||
	    port_bytes(g->s, g->drive_id, g->up_port, &after))
		return 0;
	return after >= g->up_before ? after - g->up_before : after;
}

/*
 * "  upstream:  port P, N bytes", naming the drive's switch when the GPU
 * is on another; null in JSON (and said) when the file is on no drive.
 */
static void print_upstream(struct gds *g, uint64_t upstream)
{
	char sw[32];

	if (!g->on_drive) {
		print_null(PRINT_JSON, "upstream-switch", NULL);
		print_null(PRINT_JSON, "upstream-port", NULL);
		print_null(PRINT_JSON, "upstream-bytes", NULL);
		print_text("  upstream:  none counted (%s is on no pciesw drive)\n",
			   g->file);
		return;
	}
	switch_name(sw, sizeof(sw), g->drive_id);
	print_string(PRINT_JSON, "upstream-switch", NULL, sw);
	print_uint(PRINT_ANY, "upstream-port", "  upstream:  port %s",
		   g->up_port);
	if (g->drive_id != g->id)
		print_text(" of %s (the drive's switch)", sw);
	print_uint(PRINT_ANY, "upstream-bytes", ", %s bytes\n", upstream);
}

static void print_transfer(struct gds *g, bool write, uint64_t bytes,
			   uint64_t ns, uint64_t upstream, int copies)
{
	char sw[32], buf[32];

	switch_name(sw, sizeof(sw), g->id);
	open_object(NULL);
	print_string(PRINT_ANY, "switch", "%s: ", sw);
	print_string(PRINT_ANY, write ? "src" : "file", "%s -> ",
		     write ? g->gpu_name : g->file);
	print_string(PRINT_ANY, write ? "file" : "dst", "%s",
		     write ? g->file : g->gpu_name);
	print_uint(PRINT_ANY, "gpu-offset", ":%s\n", g->gpu_off);
	print_uint(PRINT_ANY, "bytes", "  moved:     %s bytes", bytes);
	duration_text(buf, sizeof(buf), ns);
	print_uint(PRINT_JSON, "wall-ns", NULL, ns);
	print_string(PRINT_TEXT, NULL, " in %s", buf);
	rate_text(buf, sizeof(buf),
		  ns ? (unsigned __int128)bytes * 1000000000 / ns : 0, "B/s");
	print_string(PRINT_TEXT, NULL, ", %s\n", buf);
	print_uint(PRINT_JSON, "bytes-per-s", NULL,
		   ns ? (unsigned __int128)bytes * 1000000000 / ns : 0);
	print_upstream(g, upstream);
	print_int(PRINT_ANY, "host-copies",
		  "  copies through host memory: %s\n", copies);
	close_object();
}

/* gds read FILE GPU[:OFFSET] [--size N] / gds write GPU[:OFFSET] FILE */
static int gds_rw(int argc, char **argv, bool write)
{
	struct gds g = { .file_fd = -1, .dev_fd = -1 };
	const char *size_arg = NULL;
	const struct cmd_opt opts[] = {
		{ "--size", "-s", NULL, &size_arg },
		{ "--switch", NULL, NULL, &g.switch_arg },
		JSON_OPTIONS(g.json, g.pretty),
		{ NULL, NULL, NULL, NULL },
	};
	uint64_t size = 0, done = 0, t0, ns;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	output_options(g.json, g.pretty);
	if (argc < 2)
		return usage_error(write ? "expected GPU[:OFFSET] FILE" :
				   "expected FILE GPU[:OFFSET]");
	if (argc > 2)
		return usage_error("too many arguments: \"%s\"", argv[2]);
	if (size_arg && (!parse_size(size_arg, &size) || !size))
		return usage_error("invalid --size \"%s\": expected bytes with an optional K, M, G or T suffix",
				   size_arg);
	if (write && !size)
		return usage_error("missing --size");
	g.file = write ? argv[1] : argv[0];
	ret = parse_gpu(write ? argv[0] : argv[1], &g.gpu_name, &g.gpu_off);
	if (ret)
		return ret;
	ret = gds_open(&g, write ? O_WRONLY | O_CREAT : O_RDONLY, size);
	if (ret)
		goto out;
	if (!size)
		size = g.file_size;
	if (size > g.map_len) {
		error("%" PRIu64 " bytes do not fit in the window of %s from offset %" PRIu64,
		      size, g.gpu_name, g.gpu_off);
		ret = EXIT_FAIL;
		goto out;
	}
	/*
	 * GPU memory is there before a transfer (as in gds bench): read
	 * faults (it is gds write's source)
	 */
	if (gds_populate(&g, size, false)) {
		ret = EXIT_FAIL;
		goto out;
	}
	done = 0;
	t0 = now_ns();
	while (done < size) {
		uint64_t n = size - done;
		ssize_t r;

		if (n > GDS_MAX_IO)
			n = GDS_MAX_IO;
		/* O_DIRECT: whole blocks (the window has room: map_len) */
		n = (n + GDS_ALIGN - 1) / GDS_ALIGN * GDS_ALIGN;
		if (done + n > g.map_len)
			n = g.map_len - done;
		r = write ? pwrite(g.file_fd, g.map + done, n, done) :
			    pread(g.file_fd, g.map + done, n, done);
		if (r < 0) {
			error("cannot %s %s at offset %" PRIu64 ": %s",
			      write ? "write" : "read", g.file, done,
			      strerror(errno));
			ret = EXIT_FAIL;
			goto out;
		}
		if (!r)
			break;
		done += r;
	}
	if (done > size)
		done = size;
	ns = now_ns() - t0;
	if (write && ftruncate(g.file_fd, size) && errno != EINVAL)
		warning("cannot set the size of %s: %s", g.file,
			  strerror(errno));
	print_transfer(&g, write, done, ns, gds_upstream(&g), 0);
	ret = finish(EXIT_OK);
out:
	gds_close(&g);
	return ret;
}

int cmd_gds_read(int argc, char **argv)
{
	return gds_rw(argc, argv, false);
}

const char gds_read_help[] =
	"Reads FILE (a file on a pciesw drive, the drive pcieswSnI, a\n"
	"partition or an md array of them) with O_DIRECT into a mapping\n"
	"of GPU's window at OFFSET (a multiple of 4K; default 0), one\n"
	"read (of at most 1G) as cuFileRead() does: GPUDirect Storage,\n"
	"the drive writing into the GPU; the window is faulted in first.\n"
	"  -s, --size N    bytes (default: the whole file)\n"
	"  --switch SWITCH the GPU's switch, when FILE is elsewhere\n"
	"                  (a GPU of another switch is host memory to the\n"
	"                  drive: the data crosses both upstream ports)\n"
	"  -j, --json      {switch (the GPU's), file, dst, gpu-offset,\n"
	"                  bytes, wall-ns, bytes-per-s, upstream-switch,\n"
	"                  upstream-port, upstream-bytes, host-copies}\n"
	"Prints the bytes, the time, the payload bytes meanwhile of the\n"
	"upstream port of the drive's switch, where the data leaves it for\n"
	"the host (0: peer-to-peer, direct; the GPU's switch may be\n"
	"another; none when FILE is on no pciesw drive), and the copies\n"
	"through host memory (0).  Needs read-write access to /dev/pcieswN.\n";

int cmd_gds_write(int argc, char **argv)
{
	return gds_rw(argc, argv, true);
}

const char gds_write_help[] =
	"Writes N bytes of GPU's window from OFFSET (a multiple of 4K)\n"
	"into FILE with O_DIRECT, created if need be: the drive reads\n"
	"them from the GPU peer-to-peer.  Options and report as gds read.\n";

/* --- gds check ------------------------------------------------------------ */

/* One drive/GPU pair: whether a file read goes peer-to-peer, and why. */
static int check_pair(struct nl_session *s, uint32_t id, const char *sw,
		      struct nlattr **nvme, struct nlattr **gpu, bool *p2p)
{
	struct objs o = { 0 };
	struct nl_msg *req;
	uint32_t kind = PCIESW_P2P_ROUTE_REFUSED;
	int ret;

	req = nl_request_new(s, PCIESW_CMD_P2P_CHECK, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	nl_put_u32(req, PCIESW_A_EP_ID, nla_get_u32(nvme[PCIESW_A_EP_ID]));
	nl_put_u32(req, PCIESW_A_PEER_EP_ID, nla_get_u32(gpu[PCIESW_A_EP_ID]));
	ret = objs_run(s, req, &o, "cannot check the route");
	if (ret)
		return ret;
	if (o.n == 1 && o.tb[0][PCIESW_A_P2P_ROUTE])
		kind = nla_get_u32(o.tb[0][PCIESW_A_P2P_ROUTE]);
	open_object(NULL);
	print_string(PRINT_ANY, "switch", "%s: ", sw);
	print_attr_string(PRINT_ANY, "ep-name", "%s", nvme[PCIESW_A_EP_NAME]);
	print_attr_string(PRINT_ANY, "ep-disk-name", " (/dev/%s)",
			  nvme[PCIESW_A_EP_DISK_NAME]);
	print_attr_string(PRINT_ANY, "peer-ep-name", " -> %s: ",
			  gpu[PCIESW_A_EP_NAME]);
	print_attr_enum(PRINT_JSON, "p2p-route", NULL,
			o.n == 1 ? o.tb[0][PCIESW_A_P2P_ROUTE] : NULL,
			&p2p_route_names);
	switch (kind) {
	case PCIESW_P2P_ROUTE_DIRECT:
		print_bool(PRINT_ANY, "p2p", "%s\n", true,
			   "peer-to-peer, direct (no upstream traffic)");
		*p2p = true;
		break;
	case PCIESW_P2P_ROUTE_HOST_BRIDGE:
		print_bool(PRINT_ANY, "p2p", "%s\n", true,
			   "peer-to-peer through the host bridge (ACS redirect: twice the bytes on the upstream port)");
		print_text("  direct with: switchctl port set %s PORT acs off (switchctl p2p check %s %s %s)\n",
			   sw, sw,
			   nla_get_string(nvme[PCIESW_A_EP_NAME]),
			   nla_get_string(gpu[PCIESW_A_EP_NAME]));
		*p2p = true;
		break;
	default:
		print_bool(PRINT_ANY, "p2p", "%s\n", false,
			   "refused: ACS redirects to the host bridge, which does not forward P2P; O_DIRECT reads into the GPU fail with EIO");
		print_text("  fix: switchctl switch set %s host-p2p on, or switchctl port set %s PORT acs off on the ports switchctl p2p check names\n",
			   sw, sw);
		*p2p = false;
		break;
	}
	close_object();
	objs_free(&o);
	return EXIT_OK;
}

int cmd_gds_check(int argc, char **argv)
{
	bool json = false, pretty = false, all = true, p2p;
	const struct cmd_opt opts[] = {
		JSON_OPTIONS(json, pretty),
		{ NULL, NULL, NULL, NULL },
	};
	struct objs eps = { 0 };
	struct nl_session *s;
	unsigned int pairs = 0;
	uint32_t id = 0;
	size_t i, j;
	char sw[32];
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	output_options(json, pretty);
	if (argc > 1)
		return usage_error("too many arguments: \"%s\"", argv[1]);
	if (argc == 1) {
		ret = parse_switch_arg(argv[0], &id);
		if (ret)
			return ret;
	}
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = objs_fetch(s, PCIESW_CMD_EP_GET, true, argc == 1, id, &eps,
			 "cannot list endpoints");
	open_array(NULL);
	for (i = 0; !ret && i < eps.n; i++) {
		struct nlattr **a = eps.tb[i];

		if (!a[PCIESW_A_EP_TYPE] || !a[PCIESW_A_SWITCH_ID] ||
		    nla_get_u32(a[PCIESW_A_EP_TYPE]) != PCIESW_EP_TYPE_NVME)
			continue;
		for (j = 0; !ret && j < eps.n; j++) {
			struct nlattr **b = eps.tb[j];

			if (!b[PCIESW_A_EP_TYPE] || !b[PCIESW_A_SWITCH_ID] ||
			    nla_get_u32(b[PCIESW_A_EP_TYPE]) !=
			    PCIESW_EP_TYPE_GPU ||
			    nla_get_u32(b[PCIESW_A_SWITCH_ID]) !=
			    nla_get_u32(a[PCIESW_A_SWITCH_ID]))
				continue;
			id = nla_get_u32(a[PCIESW_A_SWITCH_ID]);
			switch_name(sw, sizeof(sw), id);
			ret = check_pair(s, id, sw, a, b, &p2p);
			all &= p2p;
			pairs++;
		}
	}
	close_array();
	nl_session_close(s);
	objs_free(&eps);
	if (ret)
		return ret;
	if (!pairs)
		print_text("no drive and GPU on the same switch: nothing goes peer-to-peer\n");
	ret = finish(EXIT_OK);
	if (!ret && !all) {
		error("some drive/GPU pairs cannot go peer-to-peer (see above)");
		ret = EXIT_FAIL;
	}
	return ret;
}

const char gds_check_help[] =
	"For every NVMe drive and GPU of the same switch (of SWITCH, or\n"
	"all): whether an O_DIRECT read from the drive's block device\n"
	"into a mapping of the GPU's window goes peer-to-peer (direct,\n"
	"or through the host bridge when ACS redirects) or is refused\n"
	"(host-p2p off: the read fails with EIO), and what fixes it.\n"
	"  -j, --json    (also before the command) [{switch, ep-name,\n"
	"                ep-disk-name, peer-ep-name, p2p-route, p2p}]\n"
	"  -p, --pretty  indented JSON\n"
	"Exit status 1 when a pair is refused.\n";

/* --- gds bench ------------------------------------------------------------ */

struct bench {
	struct gds *g;
	uint64_t block, size, slots;
	bool bounce;
	uint64_t next;		/* next block to take, under lock */
	pthread_mutex_t lock;
	uint64_t *lat;		/* latency of each block, ns */
	int err;
};

/* One thread: takes blocks until none are left. */
static void *bench_worker(void *arg)
{
	struct bench *b = arg;
	struct gds *g = b->g;
	uint8_t *host = NULL;
	int dev = -1;
	uint64_t nr = b->size / b->block;

	if (b->bounce) {
		if (posix_memalign((void **)&host, GDS_ALIGN, b->block) ||
		    dma_open(g->id, &dev)) {
			b->err = ENOMEM;
			free(host);
			return NULL;
		}
		memset(host, 0, b->block);
	}
	for (;;) {
		uint64_t i, off, t0, woff;
		ssize_t r;

		pthread_mutex_lock(&b->lock);
		i = b->next < nr && !b->err ? b->next++ : nr;
		pthread_mutex_unlock(&b->lock);
		if (i >= nr)
			break;
		off = i * b->block;
		/* the GPU buffer wraps in the window */
		woff = off % (g->map_len / b->block * b->block);
		t0 = now_ns();
		if (!b->bounce) {
			r = pread(g->file_fd, g->map + woff, b->block, off);
		} else {
			struct pciesw_dma_desc d = {
				.src = { .ep_id = PCIESW_DMA_HOST,
					 .addr = (uintptr_t)host },
				.dst = { .ep_id = g->gpu_id,
					 .addr = g->gpu_off + woff },
				.len = b->block,
			};
			struct pciesw_dma_submit sub = {
				.size = sizeof(sub),
				.desc_size = sizeof(d),
				.nr_descs = 1,
				.descs = (uintptr_t)&d,
			};
			struct pciesw_dma_completion c;

			r = pread(g->file_fd, host, b->block, off);
			if (r == (ssize_t)b->block &&
			    (ioctl(dev, PCIESW_IOC_DMA_SUBMIT, &sub) ||
			     read(dev, &c, sizeof(c)) != sizeof(c) ||
			     c.status != PCIESW_DMA_STATUS_OK))
				r = -1;
		}
		b->lat[i] = now_ns() - t0;
		if (r != (ssize_t)b->block) {
			pthread_mutex_lock(&b->lock);
			b->err = r < 0 ? errno ? errno : EIO : EIO;
			pthread_mutex_unlock(&b->lock);
			break;
		}
	}
	if (dev >= 0)
		close(dev);
	free(host);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int cmd_gds_bench(int argc, char **argv)
{
	struct gds g = { .file_fd = -1, .dev_fd = -1 };
	const char *block_arg = NULL, *depth_arg = NULL, *threads_arg = NULL;
	const char *size_arg = NULL;
	bool bounce = false;
	const struct cmd_opt opts[] = {
		{ "--block", "-b", NULL, &block_arg },
		{ "--depth", "-q", NULL, &depth_arg },
		{ "--threads", "-t", NULL, &threads_arg },
		{ "--size", "-s", NULL, &size_arg },
		{ "--switch", NULL, NULL, &g.switch_arg },
		{ "--bounce", NULL, &bounce, NULL },
		JSON_OPTIONS(g.json, g.pretty),
		{ NULL, NULL, NULL, NULL },
	};
	struct bench b = { .block = GDS_CHUNK };
	unsigned long depth = 1, threads = 1;
	uint64_t t0, ns, nr, upstream, i;
	pthread_t *tids = NULL;
	char sw[32], buf[32];
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	output_options(g.json, g.pretty);
	if (argc < 2)
		return usage_error("expected FILE GPU");
	if (argc > 2)
		return usage_error("too many arguments: \"%s\"", argv[2]);
	if (block_arg && (!parse_size(block_arg, &b.block) ||
			  !b.block || b.block % GDS_ALIGN ||
			  b.block > PCIESW_DMA_MAX_LEN))
		return usage_error("invalid --block \"%s\": expected a multiple of 4K up to 1G",
				   block_arg);
	if (depth_arg && (!parse_uint(depth_arg, 256, &depth) || !depth))
		return usage_error("invalid --depth \"%s\": expected 1 to 256",
				   depth_arg);
	if (threads_arg && (!parse_uint(threads_arg, 64, &threads) ||
			    !threads))
		return usage_error("invalid --threads \"%s\": expected 1 to 64",
				   threads_arg);
	if (size_arg && (!parse_size(size_arg, &b.size) || !b.size))
		return usage_error("invalid --size \"%s\": expected bytes with an optional K, M, G or T suffix",
				   size_arg);
	g.file = argv[0];
	ret = parse_gpu(argv[1], &g.gpu_name, &g.gpu_off);
	if (ret)
		return ret;
	ret = gds_open(&g, O_RDONLY, 0);
	if (ret)
		goto out;
	if (!b.size || b.size > g.file_size)
		b.size = g.file_size;
	nr = b.size / b.block;
	if (!nr || g.map_len < b.block) {
		error("%s is smaller than one --block, or the window of %s is",
		      g.file, g.gpu_name);
		ret = EXIT_FAIL;
		goto out;
	}
	b.size = nr * b.block;
	b.g = &g;
	b.bounce = bounce;
	b.slots = depth * threads;
	b.lat = calloc(nr, sizeof(*b.lat));
	tids = calloc(b.slots, sizeof(*tids));
	if (!b.lat || !tids) {
		error("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	pthread_mutex_init(&b.lock, NULL);
	/* GPU memory is there before a transfer: the buffer's pages */
	if (gds_populate(&g, b.size, true)) {
		ret = EXIT_FAIL;
		goto out;
	}
	t0 = now_ns();
	/* depth x threads synchronous readers: that many blocks in flight */
	for (i = 0; i < b.slots; i++)
		if (pthread_create(&tids[i], NULL, bench_worker, &b))
			break;
	b.slots = i;
	for (i = 0; i < b.slots; i++)
		pthread_join(tids[i], NULL);
	ns = now_ns() - t0;
	upstream = gds_upstream(&g);
	if (b.err) {
		error("cannot read %s%s: %s", g.file,
		      bounce ? " and DMA it to the GPU" : " into the GPU",
		      strerror(b.err));
		ret = EXIT_FAIL;
		goto out;
	}
	qsort(b.lat, nr, sizeof(*b.lat), cmp_u64);

	switch_name(sw, sizeof(sw), g.id);
	open_object(NULL);
	print_string(PRINT_ANY, "switch", "%s: ", sw);
	print_string(PRINT_ANY, "file", "%s -> ", g.file);
	if (bounce)
		print_text("host -> ");
	print_string(PRINT_ANY, "dst", "%s", g.gpu_name);
	print_bool(PRINT_ANY, "bounce", "%s", bounce,
		   bounce ? " (bounce)" : " (GDS)");
	size_text(buf, sizeof(buf), b.block);
	print_uint(PRINT_JSON, "block", NULL, b.block);
	print_string(PRINT_TEXT, NULL, ", %s blocks", buf);
	print_uint(PRINT_ANY, "depth", ", depth %s", depth);
	print_uint(PRINT_ANY, "threads", ", %s threads\n", threads);
	print_uint(PRINT_ANY, "bytes", "  moved:     %s bytes", b.size);
	duration_text(buf, sizeof(buf), ns);
	print_uint(PRINT_JSON, "wall-ns", NULL, ns);
	print_string(PRINT_TEXT, NULL, " in %s", buf);
	rate_text(buf, sizeof(buf),
		  (unsigned __int128)b.size * 1000000000 / ns, "B/s");
	print_string(PRINT_TEXT, NULL, ", %s", buf);
	print_uint(PRINT_JSON, "bytes-per-s", NULL,
		   (unsigned __int128)b.size * 1000000000 / ns);
	print_uint(PRINT_ANY, "iops", ", %s IOPS\n",
		   (unsigned __int128)nr * 1000000000 / ns);
	print_uint(PRINT_ANY, "lat-p50-ns", "  latency:   p50 %s ns",
		   b.lat[nr / 2]);
	print_uint(PRINT_ANY, "lat-p99-ns", ", p99 %s ns",
		   b.lat[nr - 1 - nr / 100]);
	print_uint(PRINT_ANY, "lat-max-ns", ", max %s ns\n", b.lat[nr - 1]);
	print_upstream(&g, upstream);
	print_int(PRINT_ANY, "host-copies",
		  "  copies through host memory: %s per block\n", bounce);
	close_object();
	ret = finish(EXIT_OK);
	pthread_mutex_destroy(&b.lock);
out:
	free(tids);
	free(b.lat);
	gds_close(&g);
	return ret;
}

const char gds_bench_help[] =
	"Reads FILE into GPU's window (wrapping around in it) in blocks\n"
	"of B (default 1M, a multiple of 4K) with Q x T blocks in flight\n"
	"(T threads, each with Q synchronous readers; defaults 1), and\n"
	"prints the throughput, IOPS, latency percentiles and the\n"
	"payload bytes of the drive's switch's upstream port (as gds read).\n"
	"  -s, --size N    read only the first N bytes of FILE\n"
	"  --bounce        without GDS: read each block into a host buffer,\n"
	"                  then DMA it host -> GPU through /dev/pcieswN\n"
	"  --switch SWITCH as gds read\n"
	"  -j, --json      {switch, file, dst, bounce, block, depth,\n"
	"                  threads, bytes, wall-ns, bytes-per-s, iops,\n"
	"                  lat-p50-ns, lat-p99-ns, lat-max-ns,\n"
	"                  upstream-switch, upstream-port, upstream-bytes,\n"
	"                  host-copies}\n";
