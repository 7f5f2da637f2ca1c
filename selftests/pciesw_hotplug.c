// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint hot-plug and unplug over netlink (ep-add, ep-del by id and by
 * name) and sysfs (port ep_add with gpu|nvme|generic, ep_remove with 1):
 * the endpoint device pcieswN-NAME appears as a child of its port device
 * and goes away, the port and the ep-get views follow, the link trains
 * and drops; names reuse the lowest free index; refused requests (upstream
 * port, occupied port, bad width, memory size, speed, type, unknown
 * endpoint) change nothing.
 *
 * Switch ids used here: 170-171.
 */
#include "pciesw_topo.h"

#define ID		170U
#define GPU_PORT	1U
#define NVME0_PORT	2U
/*
 * An empty port after nvme 8x2: its ports are 2, 10, 3, 13, 4, 16, 5, 19
 * by lane (numbers are physical), nvme0-3 re-attach to the first four
 */
#define EMPTY_PORT	4U

FIXTURE(hp)
{
	struct pnl p;
	struct pnl_reply r;
};

FIXTURE_SETUP(hp)
{
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	ASSERT_EQ(0, pnl_open(&self->p));
	pnl_reply_init(&self->r);
	err = tp_switch_fresh(&self->p, ID, NULL);
	ASSERT_EQ(0, err) TH_LOG("pciesw%u: %s", ID, strerror(-err));
}

FIXTURE_TEARDOWN(hp)
{
	pnl_reply_free(&self->r);
	pnl_close(&self->p);
	if (sw_exists(ID))
		sw_del(ID);
}

/* The endpoints of the switch (ep-get dump). */
static unsigned int nr_eps(struct __test_metadata *_metadata, struct pnl *p)
{
	struct pnl_reply r;
	unsigned int n;

	EXPECT_EQ(0, pnl_dump(p, PCIESW_CMD_EP_GET,
			      (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, ID), A_END }, &r));
	n = r.nobjs;
	pnl_reply_free(&r);
	return n;
}

/*
 * Endpoint @name is attached to @port with these properties, in every
 * view: ep-get by id and by name, the port, the device and its attributes.
 */
static void check_ep(struct __test_metadata *_metadata, struct pnl *p,
		     const char *name, unsigned int port, const char *type,
		     unsigned int speed, unsigned int width,
		     unsigned long long mem)
{
	struct pnl_attr by_name[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
				      A_STR(PCIESW_A_EP_NAME, name), A_END };
	char buf[64], want[64];
	struct pnl_reply r;
	struct pnl_obj o, e;

	ASSERT_EQ(0, pnl_do(p, PCIESW_CMD_EP_GET, by_name, &r))
		TH_LOG("ep-get %s", name);
	ASSERT_EQ(1U, r.nobjs);
	e = r.objs[0];
	pnl_reply_free(&r);
	EXPECT_STREQ(name, e.s[PCIESW_A_EP_NAME]);
	EXPECT_EQ(port, e.u[PCIESW_A_PORT_ID]);
	EXPECT_EQ(speed, e.u[PCIESW_A_EP_MAX_SPEED]) TH_LOG("%s", name);
	EXPECT_EQ(width, e.u[PCIESW_A_EP_MAX_WIDTH]) TH_LOG("%s", name);
	EXPECT_EQ(mem, e.u64[PCIESW_A_EP_MEM_SIZE]) TH_LOG("%s", name);
	/* by id: the same */
	{
		struct pnl_attr by_id[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID),
			A_U32(PCIESW_A_EP_ID, e.u[PCIESW_A_EP_ID]), A_END,
		};

		ASSERT_EQ(0, pnl_do(p, PCIESW_CMD_EP_GET, by_id, &r));
		ASSERT_EQ(1U, r.nobjs);
		EXPECT_EQ(0, memcmp(&e, &r.objs[0], sizeof(e)));
		pnl_reply_free(&r);
	}
	/* the port */
	ASSERT_EQ(0, tp_port_get(p, ID, port, &o, NULL));
	EXPECT_STREQ(name, o.s[PCIESW_A_EP_NAME]);
	EXPECT_EQ(e.u[PCIESW_A_EP_ID], o.u[PCIESW_A_EP_ID]);
	EXPECT_EQ(0, port_attr(ID, port, "endpoint", buf, sizeof(buf)));
	EXPECT_STREQ(name, buf);
	/* the device, under its port's */
	EXPECT_TRUE(ep_dev_exists(ID, name)) TH_LOG("pciesw%u-%s", ID, name);
	EXPECT_EQ(0, ep_dev_parent(ID, name, buf, sizeof(buf)));
	snprintf(want, sizeof(want), "pciesw%u-port%u", ID, port);
	EXPECT_STREQ(want, buf);
	EXPECT_EQ(0, ep_attr(ID, name, "name", buf, sizeof(buf)));
	EXPECT_STREQ(name, buf);
	EXPECT_EQ(0, ep_attr(ID, name, "type", buf, sizeof(buf)));
	EXPECT_STREQ(type, buf);
	EXPECT_EQ(0, ep_attr(ID, name, "port", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%u", port);
	EXPECT_STREQ(want, buf);
	EXPECT_EQ(0, ep_attr(ID, name, "id", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%u", e.u[PCIESW_A_EP_ID]);
	EXPECT_STREQ(want, buf);
	EXPECT_EQ(0, ep_attr(ID, name, "max_link_speed", buf, sizeof(buf)));
	EXPECT_STREQ(tp_speed_sysfs(speed), buf);
	EXPECT_EQ(0, ep_attr(ID, name, "max_link_width", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%u", width);
	EXPECT_STREQ(want, buf);
	EXPECT_EQ(0, ep_attr(ID, name, "mem_size", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%llu", mem);
	EXPECT_STREQ(want, buf);
	EXPECT_EQ(0, ep_attr(ID, name, "uevent", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "DEVTYPE=pciesw_endpoint")) TH_LOG("%s",
								       buf);
}

/* Endpoint @name is gone from every view; port @port is empty and down. */
static void check_no_ep(struct __test_metadata *_metadata, struct pnl *p,
			const char *name, unsigned int port)
{
	struct pnl_attr by_name[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
				      A_STR(PCIESW_A_EP_NAME, name), A_END };
	struct pnl_reply r;
	struct pnl_obj o;
	char buf[64];

	EXPECT_EQ(ENOENT, pnl_do(p, PCIESW_CMD_EP_GET, by_name, &r))
		TH_LOG("%s", name);
	pnl_reply_free(&r);
	EXPECT_FALSE(ep_dev_exists(ID, name)) TH_LOG("pciesw%u-%s", ID, name);
	ASSERT_EQ(0, tp_port_get(p, ID, port, &o, NULL));
	EXPECT_FALSE(pnl_has(&o, PCIESW_A_EP_ID));
	EXPECT_FALSE(pnl_has(&o, PCIESW_A_EP_NAME));
	EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT, o.u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_LINK_ACTIVE]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_WIDTH]);
	EXPECT_EQ(0, port_attr(ID, port, "endpoint", buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	EXPECT_EQ(0, port_attr(ID, port, "link_state", buf, sizeof(buf)));
	EXPECT_STREQ("down", buf);
}

#define GIB	(1ULL << 30)
#define MIB	(1ULL << 20)

/* Unplug by name and by id, plug each type with its defaults. */
TEST_F(hp, netlink_types)
{
	static const struct {
		unsigned int type;
		const char *tname;
		unsigned int width;
		unsigned long long mem;
	} types[] = {
		{ PCIESW_EP_TYPE_GPU, "gpu", 16, 16 * GIB },
		{ PCIESW_EP_TYPE_NVME, "nvme", 4, 4 * GIB },
		{ PCIESW_EP_TYPE_GENERIC, "generic", 8, 256 * MIB },
	};
	struct pnl_attr del_id[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
				     A_U32(PCIESW_A_EP_ID, 0), A_END };
	unsigned int i, n0;
	struct pnl_obj o;
	char name[PCIESW_NAME_LEN];
	uint32_t id;

	n0 = nr_eps(_metadata, &self->p);
	ASSERT_EQ(5U, n0);	/* gpu0, nvme0-3 */
	check_ep(_metadata, &self->p, "gpu0", GPU_PORT, "gpu",
		 PCIESW_LINK_SPEED_GEN5, 16, 16 * GIB);
	check_ep(_metadata, &self->p, "nvme3", 5, "nvme",
		 PCIESW_LINK_SPEED_GEN5, 4, 4 * GIB);

	/* gpu0 by name */
	ASSERT_EQ(0, tp_ep_del_name(&self->p, ID, "gpu0"));
	check_no_ep(_metadata, &self->p, "gpu0", GPU_PORT);
	/* nvme0 by id */
	ASSERT_EQ(0, tp_port_get(&self->p, ID, NVME0_PORT, &o, NULL));
	del_id[1].u = o.u[PCIESW_A_EP_ID];
	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_EP_DEL, del_id, &self->r));
	EXPECT_EQ(0U, self->r.nobjs);
	pnl_reply_free(&self->r);
	check_no_ep(_metadata, &self->p, "nvme0", NVME0_PORT);
	EXPECT_EQ(n0 - 2, nr_eps(_metadata, &self->p));
	EXPECT_EQ((int)n0 - 2, sysfs_nr_endpoints(ID));

	/* each type in turn on the x16 port, with the type's defaults */
	for (i = 0; i < 3; i++) {
		char want[PCIESW_NAME_LEN];

		ASSERT_EQ(0, tp_ep_add(&self->p, ID, GPU_PORT, types[i].type,
				       0, 0, &id, name));
		/* the lowest free index of the type */
		snprintf(want, sizeof(want), "%s0", types[i].tname);
		EXPECT_STREQ(want, name);
		check_ep(_metadata, &self->p, name, GPU_PORT, types[i].tname,
			 PCIESW_LINK_SPEED_GEN5, types[i].width, types[i].mem);
		ASSERT_TRUE(tp_wait_ltssm(&self->p, ID, GPU_PORT,
					  PCIESW_LTSSM_L0, &o));
		EXPECT_EQ(types[i].width, o.u[PCIESW_A_PORT_WIDTH]);
		EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN5,
			  o.u[PCIESW_A_PORT_SPEED]);
		del_id[1].u = id;
		ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_EP_DEL, del_id,
				    &self->r));
		pnl_reply_free(&self->r);
		check_no_ep(_metadata, &self->p, name, GPU_PORT);
	}
	/* the freed index of nvme0 comes back first */
	ASSERT_EQ(0, tp_ep_add(&self->p, ID, NVME0_PORT, PCIESW_EP_TYPE_NVME, 0,
			       0, NULL, name));
	EXPECT_STREQ("nvme0", name);
	ASSERT_EQ(0, tp_ep_add(&self->p, ID, GPU_PORT, PCIESW_EP_TYPE_NVME, 0,
			       0, NULL, name));
	EXPECT_STREQ("nvme4", name);
	check_ep(_metadata, &self->p, "nvme4", GPU_PORT, "nvme",
		 PCIESW_LINK_SPEED_GEN5, 4, 4 * GIB);
}

/* ep-add with its own speed, width and (huge, sparse) memory window. */
TEST_F(hp, netlink_options)
{
	const uint64_t big = 1ULL << 40;	/* 1 TiB */
	struct pnl_attr add[] = {
		A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, GPU_PORT),
		A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_GPU),
		A_U32(PCIESW_A_EP_MAX_SPEED, PCIESW_LINK_SPEED_GEN3),
		A_U32(PCIESW_A_EP_MAX_WIDTH, 8),
		A_RAW(PCIESW_A_EP_MEM_SIZE, &big, 8), A_END,
	};
	struct pnl_obj o;

	ASSERT_EQ(0, tp_port_unplug(&self->p, ID, GPU_PORT));
	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_EP_ADD, add, &self->r));
	/* the reply is the new endpoint */
	ASSERT_EQ(1U, self->r.nobjs);
	o = self->r.objs[0];
	EXPECT_EQ((uint32_t)PCIESW_CMD_EP_ADD, o.cmd);
	EXPECT_EQ(ID, o.u[PCIESW_A_SWITCH_ID]);
	EXPECT_STREQ("gpu0", o.s[PCIESW_A_EP_NAME]);
	EXPECT_EQ((uint32_t)PCIESW_EP_TYPE_GPU, o.u[PCIESW_A_EP_TYPE]);
	EXPECT_EQ(GPU_PORT, o.u[PCIESW_A_PORT_ID]);
	EXPECT_EQ(big, o.u64[PCIESW_A_EP_MEM_SIZE]);
	check_ep(_metadata, &self->p, "gpu0", GPU_PORT, "gpu",
		 PCIESW_LINK_SPEED_GEN3, 8, big);
	ASSERT_TRUE(tp_wait_ltssm(&self->p, ID, GPU_PORT, PCIESW_LTSSM_L0, &o));
	EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_GEN3, o.u[PCIESW_A_PORT_SPEED]);
	EXPECT_EQ(8U, o.u[PCIESW_A_PORT_WIDTH]);
	EXPECT_EQ(0U, o.u[PCIESW_A_PORT_DEGRADED]);
}

/* Requests that are refused, and leave everything as it was. */
TEST_F(hp, netlink_refused)
{
	const uint64_t odd = 4097, page = 4096;
	const struct {
		const char *what;
		struct pnl_attr req[7];
		int err;
		const char *msg;	/* NULL: any non-empty */
		int bad_attr;		/* attribute pointed at, 0: none */
	} cases[] = {
		{ "upstream port",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 0),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_GPU), A_END },
		  EINVAL, "endpoints attach to downstream ports only",
		  PCIESW_A_PORT_ID },
		{ "occupied port",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, NVME0_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME), A_END },
		  EBUSY, "port already has an endpoint", PCIESW_A_PORT_ID },
		{ "width 3",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME),
		    A_U32(PCIESW_A_EP_MAX_WIDTH, 3), A_END },
		  EINVAL, "width must be 1, 2, 4, 8 or 16",
		  PCIESW_A_EP_MAX_WIDTH },
		{ "width 12",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME),
		    A_U32(PCIESW_A_EP_MAX_WIDTH, 12), A_END },
		  EINVAL, "width must be 1, 2, 4, 8 or 16",
		  PCIESW_A_EP_MAX_WIDTH },
		{ "width 32",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME),
		    A_U32(PCIESW_A_EP_MAX_WIDTH, 32), A_END },
		  ERANGE, NULL, PCIESW_A_EP_MAX_WIDTH },
		{ "width 0",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME),
		    A_U32(PCIESW_A_EP_MAX_WIDTH, 0), A_END },
		  ERANGE, NULL, PCIESW_A_EP_MAX_WIDTH },
		{ "memory size not whole pages",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME),
		    A_RAW(PCIESW_A_EP_MEM_SIZE, &odd, 8), A_END },
		  EINVAL, "memory size must be a multiple of the page size",
		  PCIESW_A_EP_MEM_SIZE },
		{ "speed 6",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME),
		    A_U32(PCIESW_A_EP_MAX_SPEED, 6), A_END },
		  ERANGE, NULL, PCIESW_A_EP_MAX_SPEED },
		{ "speed 0",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME),
		    A_U32(PCIESW_A_EP_MAX_SPEED, 0), A_END },
		  ERANGE, NULL, PCIESW_A_EP_MAX_SPEED },
		{ "type 0",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, 0), A_END },
		  ERANGE, NULL, PCIESW_A_EP_TYPE },
		{ "type 4",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_U32(PCIESW_A_EP_TYPE, 4), A_END },
		  ERANGE, NULL, PCIESW_A_EP_TYPE },
		{ "no such port",
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 18),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME), A_END },
		  ENOENT, "no such port on this switch", PCIESW_A_PORT_ID },
		{ "no type",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, EMPTY_PORT),
		    A_END },
		  EINVAL, NULL, 0 },
		{ "no port",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME), A_END },
		  EINVAL, NULL, 0 },
		/* a good size on the occupied port: the port is the problem */
		{ "occupied port, good size",
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_U32(PCIESW_A_PORT_ID, GPU_PORT),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_GPU),
		    A_RAW(PCIESW_A_EP_MEM_SIZE, &page, 8), A_END },
		  EBUSY, "port already has an endpoint", PCIESW_A_PORT_ID },
	};
	struct pnl_reply before, after;
	unsigned int i;
	char buf[64];

	/* an empty port to plug into: nvme 8x2 leaves 4 of its 8 empty */
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", "8x2", &self->r));
	pnl_reply_free(&self->r);
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET,
			      (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, ID), A_END },
			      &before));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = pnl_do(&self->p, PCIESW_CMD_EP_ADD, cases[i].req,
				 &self->r);
		unsigned int k, off = NLMSG_HDRLEN + GENL_HDRLEN;

		EXPECT_EQ(cases[i].err, err) TH_LOG("%s: %s", cases[i].what,
						     strerror(err));
		if (cases[i].msg) {
			EXPECT_STREQ(cases[i].msg, self->r.msg)
				TH_LOG("%s", cases[i].what);
		} else if (cases[i].bad_attr) {
			EXPECT_NE(0, self->r.msg[0]) TH_LOG("%s",
							    cases[i].what);
		}
		if (cases[i].bad_attr) {
			/* the offset of the attribute it names */
			for (k = 0; cases[i].req[k].type != cases[i].bad_attr;
			     k++)
				off += cases[i].req[k].kind == PA_RAW ? 12 : 8;
			EXPECT_TRUE(self->r.has_offs) TH_LOG("%s",
							     cases[i].what);
			EXPECT_EQ(off, self->r.offs) TH_LOG("%s",
							    cases[i].what);
		} else {
			EXPECT_LT(0, self->r.miss_type) TH_LOG("%s",
							       cases[i].what);
		}
		EXPECT_EQ(0U, self->r.nobjs);
		pnl_reply_free(&self->r);
	}
	/* nothing was plugged in */
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET,
			      (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, ID), A_END },
			      &after));
	ASSERT_EQ(before.nobjs, after.nobjs);
	for (i = 0; i < before.nobjs; i++)
		EXPECT_EQ(0, memcmp(&before.objs[i], &after.objs[i],
				    sizeof(before.objs[0])));
	pnl_reply_free(&before);
	pnl_reply_free(&after);
	EXPECT_FALSE(ep_dev_exists(ID, "nvme4"));
	EXPECT_FALSE(ep_dev_exists(ID, "gpu1"));
	EXPECT_EQ(0, port_attr(ID, 0, "endpoint", buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	EXPECT_EQ(0, port_attr(ID, EMPTY_PORT, "endpoint", buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
}

/* Unplugging something that is not there: ENOENT, naming the attribute. */
TEST_F(hp, netlink_del_unknown)
{
	struct pnl_attr by_name[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
				      A_STR(PCIESW_A_EP_NAME, "nvme9"), A_END };
	struct pnl_attr by_id[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
				    A_U32(PCIESW_A_EP_ID, 999), A_END };
	struct pnl_attr neither[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	struct pnl_attr gone[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
				   A_STR(PCIESW_A_EP_NAME, "gpu0"), A_END };

	EXPECT_EQ(ENOENT, pnl_do(&self->p, PCIESW_CMD_EP_DEL, by_name,
				 &self->r));
	EXPECT_STREQ("no such endpoint on this switch", self->r.msg);
	EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
	pnl_reply_free(&self->r);
	EXPECT_EQ(ENOENT, pnl_do(&self->p, PCIESW_CMD_EP_DEL, by_id, &self->r));
	EXPECT_STREQ("no such endpoint on this switch", self->r.msg);
	EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
	pnl_reply_free(&self->r);
	EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_EP_DEL, neither,
				 &self->r));
	EXPECT_STREQ("need ep-id or ep-name", self->r.msg);
	pnl_reply_free(&self->r);
	/* twice: the second time it is gone */
	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_EP_DEL, gone, &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(ENOENT, pnl_do(&self->p, PCIESW_CMD_EP_DEL, gone, &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(4U, nr_eps(_metadata, &self->p));
}

/* The same through the port's ep_add / ep_remove files. */
TEST_F(hp, sysfs)
{
	static const struct {
		const char *type;
		const char *name;	/* nvme0-3 are there */
		unsigned int width;
		unsigned long long mem;
	} types[] = {
		{ "gpu", "gpu0", 16, 16 * GIB },
		{ "nvme", "nvme4", 4, 4 * GIB },
		{ "generic", "generic0", 8, 256 * MIB },
	};
	unsigned int i;
	struct pnl_obj o;
	char name[32];

	EXPECT_EQ(0, port_write(ID, GPU_PORT, "ep_remove", "1\n"));
	check_no_ep(_metadata, &self->p, "gpu0", GPU_PORT);
	/* nothing left to remove */
	EXPECT_EQ(-ENODEV, port_write(ID, GPU_PORT, "ep_remove", "1\n"));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, port_write(ID, GPU_PORT, "ep_add", types[i].type));
		snprintf(name, sizeof(name), "%s", types[i].name);
		check_ep(_metadata, &self->p, name, GPU_PORT, types[i].type,
			 PCIESW_LINK_SPEED_GEN5, types[i].width, types[i].mem);
		ASSERT_TRUE(tp_wait_ltssm(&self->p, ID, GPU_PORT,
					  PCIESW_LTSSM_L0, &o));
		EXPECT_EQ(types[i].width, o.u[PCIESW_A_PORT_WIDTH]);
		/* occupied now */
		EXPECT_EQ(-EBUSY, port_write(ID, GPU_PORT, "ep_add", "nvme\n"));
		/* "0" and garbage are not "1" */
		EXPECT_EQ(-EINVAL, port_write(ID, GPU_PORT, "ep_remove",
					      "0\n"));
		EXPECT_EQ(-EINVAL, port_write(ID, GPU_PORT, "ep_remove",
					      "maybe\n"));
		EXPECT_TRUE(ep_dev_exists(ID, name));
		EXPECT_EQ(0, port_write(ID, GPU_PORT, "ep_remove", "1"));
		check_no_ep(_metadata, &self->p, name, GPU_PORT);
	}
	/* unknown types, the upstream port */
	EXPECT_EQ(-EINVAL, port_write(ID, GPU_PORT, "ep_add", "fpga\n"));
	EXPECT_EQ(-EINVAL, port_write(ID, GPU_PORT, "ep_add", "\n"));
	EXPECT_EQ(-EINVAL, port_write(ID, GPU_PORT, "ep_add", "GPU\n"));
	EXPECT_EQ(-EINVAL, port_write(ID, 0, "ep_add", "gpu\n"));
	EXPECT_EQ(-ENODEV, port_write(ID, 0, "ep_remove", "1\n"));
	EXPECT_EQ(0, port_attr(ID, GPU_PORT, "endpoint", name, sizeof(name)));
	EXPECT_STREQ("", name);
	EXPECT_EQ(4, sysfs_nr_endpoints(ID));	/* nvme0-3 */
	/* what sysfs plugged in netlink unplugs, and the other way round */
	EXPECT_EQ(0, port_write(ID, GPU_PORT, "ep_add", "generic\n"));
	EXPECT_EQ(0, tp_ep_del_name(&self->p, ID, "generic0"));
	check_no_ep(_metadata, &self->p, "generic0", GPU_PORT);
	ASSERT_EQ(0, tp_ep_add(&self->p, ID, GPU_PORT, PCIESW_EP_TYPE_GPU, 0, 0,
			       NULL, NULL));
	EXPECT_EQ(0, port_write(ID, GPU_PORT, "ep_remove", "1\n"));
	check_no_ep(_metadata, &self->p, "gpu0", GPU_PORT);
}

/* Plug and unplug every port of a 16x1 group, twice. */
TEST_F(hp, many)
{
	unsigned int i, round, port[16];
	char name[PCIESW_NAME_LEN], want[PCIESW_NAME_LEN];

	ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", "16x1", &self->r));
	pnl_reply_free(&self->r);
	/* its ports in lane order (numbers are physical, not in lane order) */
	for (i = 0; i < 16; i++) {
		int k = tp_port_at_lane(&self->p, ID, 32 + i);

		ASSERT_LE(0, k) TH_LOG("no port at lane %u", 32 + i);
		port[i] = k;
	}
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 16; i++)
			ASSERT_EQ(0, tp_port_unplug(&self->p, ID, port[i]));
		EXPECT_EQ(1U, nr_eps(_metadata, &self->p));
		for (i = 0; i < 16; i++) {
			int err = round ?
				  -port_write(ID, port[i], "ep_add",
					      "nvme\n") :
				  tp_ep_add(&self->p, ID, port[i],
					    PCIESW_EP_TYPE_NVME, 0, 0, NULL,
					    NULL);

			ASSERT_EQ(0, err) TH_LOG("port %u", port[i]);
		}
		EXPECT_EQ(17U, nr_eps(_metadata, &self->p));
		ASSERT_TRUE(tp_wait_trained(&self->p, ID));
		for (i = 0; i < 16; i++) {
			struct pnl_obj o;

			ASSERT_EQ(0, tp_port_get(&self->p, ID, port[i],
						 &o, NULL));
			snprintf(want, sizeof(want), "nvme%u", i);
			snprintf(name, sizeof(name), "%.31s",
				 o.s[PCIESW_A_EP_NAME]);
			EXPECT_STREQ(want, name);
			EXPECT_EQ(1U, o.u[PCIESW_A_PORT_WIDTH]);
			EXPECT_TRUE(ep_dev_exists(ID, want));
		}
	}
}

TEST_HARNESS_MAIN
