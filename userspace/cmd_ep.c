// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoints: ep list, ep show, ep add (hot-plug), ep del (hot-unplug),
 * ep discard (a hole in a memory window, through /dev/pcieswN).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/pciesw.h>

#include "attr.h"
#include "cmd.h"
#include "dma.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* "pciesw0 nvme0: ..." with "switch" in JSON; the endpoint of @o */
static int print_one_ep(uint32_t id, struct objs *o)
{
	char name[32];

	switch_name(name, sizeof(name), id);
	if (o->n != 1) {
		error("the kernel answered with %zu endpoints instead of one",
		      o->n);
		objs_free(o);
		return EXIT_FAIL;
	}
	open_object(NULL);
	print_string(PRINT_ANY, "switch", "%s ", name);
	print_ep_detail(o->tb[0]);
	close_object();
	objs_free(o);
	return finish(EXIT_OK);
}

/* --- ep list -------------------------------------------------------------- */

static void list_switch(struct nlattr **sw, const struct objs *eps,
			const struct objs *unused __attribute__((unused)))
{
	size_t i;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_ep_header();
	open_array("endpoints");
	for (i = 0; i < eps->n; i++)
		if (same_switch(eps->tb[i], sw))
			print_ep_line(eps->tb[i]);
	close_array();
	close_object();
}

int cmd_ep_list(int argc, char **argv)
{
	return per_switch_cmd(argc, argv, PCIESW_CMD_EP_GET, "endpoints", 0, NULL,
			      list_switch);
}

const char ep_list_help[] =
	"Columns: endpoint name, id, type, the port it is attached to,\n"
	"maximum link speed and width, memory window size (binary\n"
	"suffixes: 16G is 16 GiB), PCI name (ffff:03:00.0; \"-\" without\n"
	"the PCI view).\n"
	"With -j: {\"switch\": NAME, \"endpoints\": [...]} with the ep-get\n"
	"attributes (ep-mem-size in bytes); without SWITCH, an array of\n"
	"such objects.\n";

/* --- ep show -------------------------------------------------------------- */

/* SWITCH EP, the arguments of ep show and ep del */
static int parse_switch_ep(int argc, char **argv, uint32_t *id,
			   struct ep_ref *ep)
{
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = need_args(argc, argv, 2, "switch", "endpoint", NULL);
	if (!ret)
		ret = parse_switch_arg(argv[0], id);
	if (!ret)
		ret = parse_ep_arg(argv[1], ep);
	return ret;
}

/*
 * ep show, with @eps for the endpoint it gets, and ep del (@eps NULL): the
 * request about the endpoint of the arguments SWITCH EP, switch id in @id
 */
static int ep_get_or_del(int argc, char **argv, uint32_t *id,
			 struct objs *eps)
{
	struct nl_session *s;
	struct nl_msg *req;
	struct ep_ref ep;
	int ret;

	ret = parse_switch_ep(argc, argv, id, &ep);
	if (ret)
		return ret;
	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = ep_request_new(s, eps ? PCIESW_CMD_EP_GET : PCIESW_CMD_EP_DEL,
			     *id, &ep);
	if (eps)
		ret = objs_run(s, req, eps, "cannot get the endpoint");
	else
		ret = nl_request_run(s, req, NULL,
				     "cannot delete endpoint %s of switch %u",
				     ep.name, *id);
	nl_session_close(s);
	return ret;
}

int cmd_ep_show(int argc, char **argv)
{
	struct objs eps = { 0 };
	uint32_t id;
	int ret;

	ret = ep_get_or_del(argc, argv, &id, &eps);
	if (ret)
		return ret;
	return print_one_ep(id, &eps);
}

const char ep_show_help[] =
	"EP is an endpoint name (nvme0) or id (2).  Prints its type,\n"
	"port, limits, memory window, PCI IDs and PCI name (ep-pci-name).\n"
	"An NVMe drive adds its disk, identity (model, firmware; the serial\n"
	"number only for CAP_SYS_ADMIN) and SMART health: composite\n"
	"temperature and its thresholds, available spare, percentage used,\n"
	"critical warning (bits: 0 spare, 1 temperature, 2 reliability,\n"
	"3 read-only), media errors, unsafe shutdowns, data units.\n"
	"With -j: an object with \"switch\" and the ep-get attributes.\n";

/* --- ep add --------------------------------------------------------------- */

/* The PCI IDs "ep add" can set: option, attribute, largest value, what */
enum { EP_NR_IDS = 6 };

static const struct {
	const char *word;
	int attr;
	unsigned long max;
	const char *what;
} ep_ids[EP_NR_IDS] = {
	{ "vendor", PCIESW_A_EP_VENDOR, 0xffff, "a vendor ID, 0x0002 to 0xfffe" },
	{ "device", PCIESW_A_EP_DEVICE, 0xffff, "a device ID, 0x0000 to 0xfffe" },
	{ "subsystem-vendor", PCIESW_A_EP_SUBSYSTEM_VENDOR, 0xffff,
	  "a subsystem vendor ID, 0x0000 to 0xffff" },
	{ "subsystem", PCIESW_A_EP_SUBSYSTEM_DEVICE, 0xffff,
	  "a subsystem ID, 0x0000 to 0xffff" },
	{ "revision", PCIESW_A_EP_REVISION, 0xff,
	  "a revision ID, 0x00 to 0xff" },
	{ "class", PCIESW_A_EP_CLASS, 0xffffff,
	  "a 24-bit class code (base class, subclass, prog-if), e.g. 0x010802" },
};

/* The option of "ep add" @word sets PCI ID n, or -1 */
static int ep_id_option(const char *word)
{
	int n;

	for (n = 0; n < EP_NR_IDS; n++)
		if (!strcmp(word, ep_ids[n].word))
			return n;
	return -1;
}

/* What "ep add" asks for beyond SWITCH PORT TYPE; 0: the type's default. */
struct ep_options {
	uint32_t speed;
	uint32_t width;
	uint64_t size;
	uint32_t block_size;
	bool has_id[EP_NR_IDS];
	uint32_t id[EP_NR_IDS];
};

static int parse_ep_options(int argc, char **argv, struct ep_options *o)
{
	bool seen_speed = false, seen_width = false, seen_size = false;
	bool seen_bs = false;
	unsigned long v;
	char *choices;
	int i;

	*o = (struct ep_options){ 0 };
	for (i = 0; i < argc; i += 2) {
		const char *word = argv[i], *arg;
		int n = ep_id_option(word);
		bool *seen;

		if (n >= 0) {
			if (o->has_id[n])
				return usage_error("\"%s\" given twice", word);
			if (i + 1 >= argc)
				return usage_error("\"%s\" needs a value", word);
			if (!parse_uint_hex(argv[i + 1], ep_ids[n].max, &v))
				return usage_error("invalid %s \"%s\": expected %s (hex with 0x)",
						   word, argv[i + 1],
						   ep_ids[n].what);
			o->has_id[n] = true;
			o->id[n] = v;
			continue;
		}
		if (!strcmp(word, "speed"))
			seen = &seen_speed;
		else if (!strcmp(word, "width"))
			seen = &seen_width;
		else if (!strcmp(word, "size"))
			seen = &seen_size;
		else if (!strcmp(word, "block-size"))
			seen = &seen_bs;
		else
			return usage_error("unknown option \"%s\": expected speed, width, size, block-size, vendor, device, subsystem-vendor, subsystem, revision or class",
					   word);
		if (*seen)
			return usage_error("\"%s\" given twice", word);
		*seen = true;
		if (i + 1 >= argc)
			return usage_error("\"%s\" needs a value", word);
		arg = argv[i + 1];

		if (seen == &seen_speed) {
			if (enum_parse(&link_speed_names, arg,
				       PCIESW_LINK_SPEED_GEN1, &o->speed))
				continue;
			choices = enum_choices(&link_speed_names,
					       PCIESW_LINK_SPEED_GEN1);
			usage_error("invalid speed \"%s\": expected %s", arg,
				    choices);
			free(choices);
			return EXIT_USAGE;
		}
		if (seen == &seen_bs) {
			if (!parse_uint(arg, UINT32_MAX, &v) ||
			    (v != 512 && v != 4096))
				return usage_error("invalid block size \"%s\": expected 512 or 4096",
						   arg);
			o->block_size = v;
			continue;
		}
		if (seen == &seen_width) {
			if (!parse_uint(arg[0] == 'x' ? arg + 1 : arg, 16, &v) ||
			    !v)
				return usage_error("invalid width \"%s\": expected lanes, 1 to 16",
						   arg);
			o->width = v;
			continue;
		}
		if (!parse_size(arg, &o->size) || !o->size)
			return usage_error("invalid size \"%s\": expected bytes, with an optional K, M, G or T suffix (16G)",
					   arg);
	}
	return EXIT_OK;
}

int cmd_ep_add(int argc, char **argv)
{
	struct objs eps = { 0 };
	struct ep_options o;
	struct nl_session *s;
	struct nl_msg *req;
	uint32_t id, type;
	unsigned long port;
	char *choices, *what;
	int ret, i;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = need_args(argc, argv, -1, "switch", "port", "endpoint type",
			NULL);
	if (!ret)
		ret = parse_switch_arg(argv[0], &id);
	if (ret)
		return ret;
	if (!parse_uint(argv[1], UINT32_MAX, &port))
		return usage_error("invalid port \"%s\": expected a port number",
				   argv[1]);
	if (!enum_parse(&ep_type_names, argv[2], 0, &type)) {
		choices = enum_choices(&ep_type_names, 0);
		usage_error("invalid endpoint type \"%s\": expected %s",
			    argv[2], choices);
		free(choices);
		return EXIT_USAGE;
	}
	ret = parse_ep_options(argc - 3, argv + 3, &o);
	if (ret)
		return ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = port_request_new(s, PCIESW_CMD_EP_ADD, id, port);
	nl_put_u32(req, PCIESW_A_EP_TYPE, type);
	if (o.speed)
		nl_put_u32(req, PCIESW_A_EP_MAX_SPEED, o.speed);
	if (o.width)
		nl_put_u32(req, PCIESW_A_EP_MAX_WIDTH, o.width);
	if (o.size)
		nl_put_u64(req, PCIESW_A_EP_MEM_SIZE, o.size);
	if (o.block_size)
		nl_put_u32(req, PCIESW_A_EP_BLOCK_SIZE, o.block_size);
	for (i = 0; i < EP_NR_IDS; i++)
		if (o.has_id[i])
			nl_put_u32(req, ep_ids[i].attr, o.id[i]);
	what = xasprintf("cannot add an endpoint to port %lu of switch %u",
			 port, id);
	/* the reply is the new endpoint */
	ret = objs_run(s, req, &eps, what);
	free(what);
	nl_session_close(s);
	if (ret)
		return ret;
	return print_one_ep(id, &eps);
}

const char ep_add_help[] =
	"PORT is an empty downstream port, TYPE gpu, nvme or generic.\n"
	"Options (without them, the type's defaults):\n"
	"  speed GEN     maximum link speed, gen1 .. gen5\n"
	"  width N       maximum link width: 1, 2, 4, 8 or 16 lanes\n"
	"  size BYTES    memory window, whole pages, with an optional K,\n"
	"                M, G or T suffix (binary: 16G is 16 GiB)\n"
	"  block-size N  NVMe: logical block size of its block device\n"
	"                (/dev/pcieswSnI), 512 (default) or 4096\n"
	"  vendor ID, device ID, subsystem-vendor ID, subsystem ID,\n"
	"  revision ID, class CODE\n"
	"                its PCI IDs (0x hex or decimal), each the type's\n"
	"                unless given: gpu 10de:2331 (NVIDIA H100 PCIe),\n"
	"                subsystem 10de:1626, rev a1, class 030200; nvme\n"
	"                144d:a826 (Samsung PM174X), subsystem 144d:a826,\n"
	"                rev 00, class 010802; generic 1000:02b2 (Broadcom\n"
	"                placeholder), subsystem 1000:0003, rev b0, class\n"
	"                ff0000.  Vendor 0x0000/0x0001/0xffff, device 0xffff\n"
	"                and a bridge's class are refused\n"
	"Prints the new endpoint as ep show does; its link then trains.\n";

/* --- ep del --------------------------------------------------------------- */

int cmd_ep_del(int argc, char **argv)
{
	uint32_t id;

	return finish(ep_get_or_del(argc, argv, &id, NULL));
}

const char ep_del_help[] =
	"EP is an endpoint name (nvme0) or id (2).  Its port's link goes\n"
	"down.\n";

/* --- ep discard ----------------------------------------------------------- */

/* The endpoint's id and window size, by ep-get. */
static int ep_window(uint32_t id, const struct ep_ref *ep, uint32_t *ep_id,
		     uint64_t *mem_size)
{
	struct nl_session *s;
	uint32_t type;
	int ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = ep_get_window(s, id, ep, "cannot get the endpoint", ep_id,
			    mem_size, &type);
	nl_session_close(s);
	return ret;
}

static const char *discard_error(int err)
{
	switch (err) {
	case EBADF:
		return "/dev/pcieswN must be open for writing";
	case EINVAL:
		return "offset and size must be multiples of the page size";
	case ERANGE:
		return "beyond the end of the endpoint's memory window";
	case EOVERFLOW:
		return "offset + size wraps around";
	case ENOENT:
		return "no such endpoint";
	case ENODEV:
		return "the switch was removed";
	case ENOTTY:
		return "the module has no PCIESW_IOC_EP_DISCARD (too old)";
	default:
		return strerror(err);
	}
}

/*
 * SWITCH EP [offset BYTES] [size BYTES]: PCIESW_IOC_EP_DISCARD of the range
 * (by default from offset to the end of the window).
 */
int cmd_ep_discard(int argc, char **argv)
{
	struct pciesw_ep_discard d = { .size = sizeof(d) };
	bool seen_off = false, seen_len = false;
	uint64_t off = 0, len = 0, mem_size;
	long page = sysconf(_SC_PAGESIZE);
	struct ep_ref ep;
	uint32_t id, ep_id;
	int i, fd, ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	ret = need_args(argc, argv, -1, "switch", "endpoint", NULL);
	if (!ret)
		ret = parse_switch_arg(argv[0], &id);
	if (!ret)
		ret = parse_ep_arg(argv[1], &ep);
	if (ret)
		return ret;
	for (i = 2; i < argc; i += 2) {
		bool is_off = !strcmp(argv[i], "offset");
		bool *seen = is_off ? &seen_off : &seen_len;

		if (!is_off && strcmp(argv[i], "size"))
			return usage_error("unknown option \"%s\": expected offset or size",
					   argv[i]);
		if (*seen)
			return usage_error("\"%s\" given twice", argv[i]);
		*seen = true;
		if (i + 1 >= argc)
			return usage_error("\"%s\" needs a value", argv[i]);
		if (!parse_size(argv[i + 1], is_off ? &off : &len) ||
		    (!is_off && !len))
			return usage_error("invalid %s \"%s\": expected bytes, with an optional K, M, G or T suffix (16G)",
					   argv[i], argv[i + 1]);
	}
	if (off % page || len % page)
		return usage_error("offset and size must be multiples of the page size (%ld)",
				   page);

	ret = ep_window(id, &ep, &ep_id, &mem_size);
	if (ret)
		return ret;
	if (!seen_len)
		len = off < mem_size ? mem_size - off : 0;
	if (!len) {
		error("nothing to discard: offset %llu is at or past the end of the window (%llu bytes)",
		      (unsigned long long)off, (unsigned long long)mem_size);
		return EXIT_FAIL;
	}
	ret = dma_open(id, &fd);
	if (ret)
		return ret;
	d.ep_id = ep_id;
	d.offset = off;
	d.len = len;
	if (ioctl(fd, PCIESW_IOC_EP_DISCARD, &d)) {
		error("cannot discard %s of switch %u: %s", argv[1], id,
		      discard_error(errno));
		close(fd);
		return EXIT_FAIL;
	}
	close(fd);
	printf("pciesw%u %s: discarded %llu bytes at offset %llu, %llu resident bytes freed\n",
	       id, argv[1], (unsigned long long)len, (unsigned long long)off,
	       (unsigned long long)d.freed);
	return EXIT_OK;
}

const char ep_discard_help[] =
	"Punches a hole in the window (PCIESW_IOC_EP_DISCARD): its pages\n"
	"are freed and every mapping of the range zapped, so it reads as\n"
	"zeros again through mmap, DMA and the block device; the memory\n"
	"leaves mem_resident and the memory cgroup it was charged to.\n"
	"  offset BYTES  start in the window, default 0\n"
	"  size BYTES    length, default to the end of the window\n"
	"Both whole pages, with an optional K, M, G or T suffix.  Prints\n"
	"the resident bytes freed.  Needs read-write access to\n"
	"/dev/pcieswN.\n";
