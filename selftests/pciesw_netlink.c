// SPDX-License-Identifier: GPL-2.0
/*
 * The "pciesw" generic netlink family against its spec
 * (Documentation/netlink/specs/pciesw.yaml), sysfs and the documented
 * profiles: get ops (do and dump), switch-new/switch-del, policies and
 * extended ACK messages, the monitor multicast group, and dumps big enough
 * to need several skbs.
 *
 * Switch ids used here: 100-149 (created and deleted by the tests).
 */
#include <pthread.h>

#include "pciesw_test.h"

#define ID_BASE		100
#define ID_END		150

static const char *const profile_names[] = { "pex89048", "pex89144", "tiny8" };

/* ------------------------------------------------------------------ */

FIXTURE(nl)
{
	struct pnl p;
	struct pnl_reply r;
};

FIXTURE_SETUP(nl)
{
	unsigned int id;
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	/* leftovers of an earlier, interrupted run */
	for (id = ID_BASE; id < ID_END; id++)
		if (sw_exists(id))
			sw_del(id);
	err = pnl_open(&self->p);
	ASSERT_EQ(0, err) TH_LOG("family %s: %s", PCIESW_FAMILY_NAME,
				 strerror(-err));
	pnl_reply_init(&self->r);
}

FIXTURE_TEARDOWN(nl)
{
	unsigned int id;

	pnl_reply_free(&self->r);
	pnl_close(&self->p);
	for (id = ID_BASE; id < ID_END; id++)
		if (sw_exists(id))
			sw_del(id);
}

/*
 * The attributes of @o: all as the spec types them, the core ones there,
 * none the spec does not list for this reply.
 */
#define CHECK_ATTRS(o, core, dump) do {					\
	EXPECT_EQ(0, (o)->bad_type) TH_LOG("attribute %d malformed",	\
					   (o)->bad_type);		\
	EXPECT_EQ(0, (o)->dup_type) TH_LOG("attribute %d twice",	\
					   (o)->dup_type);		\
	EXPECT_EQ(0, pnl_missing(o, core))				\
		TH_LOG("attribute %d missing", pnl_missing(o, core));	\
	EXPECT_EQ(0, pnl_not_in_spec(o, (o)->cmd, dump))		\
		TH_LOG("attribute %d not in the spec's reply",		\
		       pnl_not_in_spec(o, (o)->cmd, dump));		\
} while (0)

/* Compare one switch-get object with the sysfs view of that switch. */
static void check_switch_obj(struct __test_metadata *_metadata,
			     const struct pnl_obj *o, unsigned int id,
			     bool dump)
{
	const struct exp_profile *exp;
	char buf[128], name[32];

	CHECK_ATTRS(o, pnl_switch_core, dump);
	EXPECT_EQ(id, o->u[PCIESW_A_SWITCH_ID]);
	snprintf(name, sizeof(name), "pciesw%u", id);
	EXPECT_STREQ(name, o->s[PCIESW_A_SWITCH_NAME]);

	EXPECT_EQ(0, sw_attr(id, "profile", buf, sizeof(buf)));
	EXPECT_STREQ(buf, o->s[PCIESW_A_SWITCH_PROFILE]);
	EXPECT_EQ(0, sw_attr(id, "description", buf, sizeof(buf)));
	EXPECT_STREQ(buf, o->s[PCIESW_A_SWITCH_DESCRIPTION]);
	EXPECT_EQ(0, sw_attr(id, "serial_number", buf, sizeof(buf)));
	EXPECT_STREQ(buf, o->s[PCIESW_A_SWITCH_SERIAL]);
	EXPECT_EQ(sw_attr_u32(id, "lanes"), o->u[PCIESW_A_SWITCH_LANES]);
	EXPECT_EQ(sw_attr_u32(id, "nr_ports"), o->u[PCIESW_A_SWITCH_NR_PORTS]);

	exp = exp_profile(o->s[PCIESW_A_SWITCH_PROFILE]);
	EXPECT_NE(NULL, exp) TH_LOG("profile '%s'",
				     o->s[PCIESW_A_SWITCH_PROFILE]);
	if (exp) {
		EXPECT_EQ(exp->lanes, o->u[PCIESW_A_SWITCH_LANES]);
		EXPECT_EQ(exp->nr_groups, o->u[PCIESW_A_SWITCH_NR_GROUPS]);
		EXPECT_EQ(exp->nr_ports, o->u[PCIESW_A_SWITCH_NR_PORTS]);
	}
}

/* The uAPI header says what the spec says (no module needed). */
FIXTURE(spec)
{
	int unused;
};

FIXTURE_SETUP(spec)
{
}

FIXTURE_TEARDOWN(spec)
{
}

TEST_F(spec, matches_uapi)
{
	unsigned int i;

	for (i = 0; i < sizeof(spec_uapi_ints) / sizeof(spec_uapi_ints[0]);
	     i++)
		EXPECT_EQ(spec_uapi_ints[i].spec, spec_uapi_ints[i].uapi)
			TH_LOG("%s", spec_uapi_ints[i].name ?: "?");
	for (i = 0; i < sizeof(spec_uapi_strs) / sizeof(spec_uapi_strs[0]);
	     i++)
		EXPECT_STREQ(spec_uapi_strs[i].spec, spec_uapi_strs[i].uapi);
	EXPECT_STREQ(SPEC_FAMILY, PCIESW_FAMILY_NAME);
	EXPECT_EQ(SPEC_ATTR_MAX, PCIESW_A_MAX);
	EXPECT_EQ(SPEC_CMD_MAX, PCIESW_CMD_MAX);
}

TEST_F(nl, family)
{
	EXPECT_LT(0, self->p.family);
	EXPECT_LT(0U, self->p.mon_grp) TH_LOG("no \"%s\" multicast group",
					      PCIESW_MCGRP_MONITOR);
}

/* switch-get dump: exactly the switches of sysfs, in id order, as sysfs. */
TEST_F(nl, switch_dump_matches_sysfs)
{
	unsigned int ids[300];
	int n, i;

	ASSERT_EQ(0, sw_new(ID_BASE + 7, "tiny8"));
	ASSERT_EQ(0, sw_new(ID_BASE + 3, "pex89144"));
	ASSERT_EQ(0, sw_new(ID_BASE + 40, NULL));

	n = sysfs_switch_ids(ids, 300);
	ASSERT_LE(3, n);
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_SWITCH_GET, NULL, &self->r));
	ASSERT_EQ((unsigned int)n, self->r.nobjs);
	for (i = 0; i < n; i++) {
		const struct pnl_obj *o = &self->r.objs[i];

		EXPECT_EQ(PCIESW_CMD_SWITCH_GET, o->cmd);
		EXPECT_EQ(PCIESW_FAMILY_VERSION, o->version);
		EXPECT_EQ(ids[i], o->u[PCIESW_A_SWITCH_ID]);
		check_switch_obj(_metadata, o, ids[i], true);
	}
}

/* switch-get do answers what the dump says, for every switch. */
TEST_F(nl, switch_do_matches_dump)
{
	struct pnl_reply one;
	unsigned int i;

	ASSERT_EQ(0, sw_new(ID_BASE + 1, "tiny8"));
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_SWITCH_GET, NULL, &self->r));
	ASSERT_LE(1U, self->r.nobjs);
	for (i = 0; i < self->r.nobjs; i++) {
		const struct pnl_obj *d = &self->r.objs[i];
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, d->u[PCIESW_A_SWITCH_ID]),
			A_END,
		};

		EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_GET, req, &one));
		EXPECT_EQ(1U, one.nobjs);
		if (one.nobjs == 1) {
			const struct pnl_obj *o = &one.objs[0];

			EXPECT_EQ(PCIESW_CMD_SWITCH_GET, o->cmd);
			EXPECT_EQ(0, memcmp(d, o, sizeof(*o)));
		}
		pnl_reply_free(&one);
	}
}

TEST_F(nl, switch_do_missing)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID_BASE + 9), A_END };

	ASSERT_FALSE(sw_exists(ID_BASE + 9));
	EXPECT_EQ(ENODEV, pnl_do(&self->p, PCIESW_CMD_SWITCH_GET, req,
				 &self->r));
	EXPECT_STREQ("no such switch", self->r.msg);
	EXPECT_TRUE(self->r.has_offs);
	EXPECT_EQ(PNL_ATTR_OFFS(0), self->r.offs);
	EXPECT_EQ(0U, self->r.nobjs);
}

/* A request without the switch-id it needs names the missing attribute. */
TEST_F(nl, missing_switch_id)
{
	static const uint8_t cmds[] = {
		PCIESW_CMD_SWITCH_GET, PCIESW_CMD_GROUP_GET,
		PCIESW_CMD_PORT_GET, PCIESW_CMD_SWITCH_DEL,
		PCIESW_CMD_SWITCH_NEW,
	};
	unsigned int i;

	for (i = 0; i < sizeof(cmds); i++) {
		EXPECT_EQ(EINVAL, pnl_do(&self->p, cmds[i], NULL, &self->r))
			TH_LOG("cmd %u", cmds[i]);
		EXPECT_EQ(PCIESW_A_SWITCH_ID, self->r.miss_type)
			TH_LOG("cmd %u", cmds[i]);
		pnl_reply_free(&self->r);
	}
	/* switch-new with only a profile: still no switch */
	{
		struct pnl_attr req[] = {
			A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END,
		};

		EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, req,
					 &self->r));
		EXPECT_EQ(PCIESW_A_SWITCH_ID, self->r.miss_type);
	}
}

/*
 * Policies.  Out-of-range integers are refused by the netlink core with
 * ERANGE ("integer out of range"), malformed ones with EINVAL.
 */
TEST_F(nl, policy)
{
	const uint8_t u8v = 0;
	const uint16_t u16v = 0;
	const uint64_t u64v = 0;
	const uint32_t u32v = 0;
	const struct {
		const char *what;
		uint8_t cmd;
		bool dump;
		struct pnl_attr req[3];
		int err;
	} cases[] = {
		{ "switch-id 256", PCIESW_CMD_SWITCH_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 256), A_END }, ERANGE },
		{ "switch-id 0xffffffff", PCIESW_CMD_SWITCH_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 0xffffffff), A_END }, ERANGE },
		{ "switch-new id 256", PCIESW_CMD_SWITCH_NEW, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 256), A_END }, ERANGE },
		{ "switch-del id 1000", PCIESW_CMD_SWITCH_DEL, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 1000), A_END }, ERANGE },
		{ "port-get id 256", PCIESW_CMD_PORT_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 256),
		    A_U32(PCIESW_A_PORT_ID, 0), A_END }, ERANGE },
		{ "switch-id as u8", PCIESW_CMD_SWITCH_GET, false,
		  { A_RAW(PCIESW_A_SWITCH_ID, &u8v, 1), A_END }, EINVAL },
		{ "switch-id as u16", PCIESW_CMD_SWITCH_GET, false,
		  { A_RAW(PCIESW_A_SWITCH_ID, &u16v, 2), A_END }, EINVAL },
		{ "switch-id as u64", PCIESW_CMD_SWITCH_GET, false,
		  { A_RAW(PCIESW_A_SWITCH_ID, &u64v, 8), A_END }, EINVAL },
		{ "switch-id empty", PCIESW_CMD_SWITCH_GET, false,
		  { A_RAW(PCIESW_A_SWITCH_ID, NULL, 0), A_END }, EINVAL },
		{ "port-id as u8", PCIESW_CMD_PORT_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 0),
		    A_RAW(PCIESW_A_PORT_ID, &u8v, 1), A_END }, EINVAL },
		{ "group-id as u64", PCIESW_CMD_GROUP_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 0),
		    A_RAW(PCIESW_A_GROUP_ID, &u64v, 8), A_END }, EINVAL },
		{ "unknown attribute", PCIESW_CMD_SWITCH_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 0),
		    A_U32(PCIESW_A_MAX + 1, 0), A_END }, EINVAL },
		{ "attribute 0", PCIESW_CMD_SWITCH_GET, false,
		  { A_U32(0, 0), A_U32(PCIESW_A_SWITCH_ID, 0), A_END }, EINVAL },
		{ "reply-only attribute", PCIESW_CMD_SWITCH_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 0),
		    A_STR(PCIESW_A_SWITCH_NAME, "pciesw0"), A_END }, EINVAL },
		{ "pad attribute", PCIESW_CMD_SWITCH_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 0),
		    A_RAW(PCIESW_A_PAD, &u32v, 4), A_END }, EINVAL },
		{ "group-id on port-get", PCIESW_CMD_PORT_GET, false,
		  { A_U32(PCIESW_A_SWITCH_ID, 0),
		    A_U32(PCIESW_A_GROUP_ID, 0), A_END }, EINVAL },
		{ "dump with unknown attribute", PCIESW_CMD_PORT_GET, true,
		  { A_U32(PCIESW_A_MAX + 1, 0), A_END }, EINVAL },
		{ "dump with switch-id 256", PCIESW_CMD_GROUP_GET, true,
		  { A_U32(PCIESW_A_SWITCH_ID, 256), A_END }, ERANGE },
		{ "dump with switch-id as u8", PCIESW_CMD_PORT_GET, true,
		  { A_RAW(PCIESW_A_SWITCH_ID, &u8v, 1), A_END }, EINVAL },
		{ "profile not a string", PCIESW_CMD_SWITCH_NEW, false,
		  { A_U32(PCIESW_A_SWITCH_ID, ID_BASE + 20),
		    A_RAW(PCIESW_A_SWITCH_PROFILE, "tiny8", 5), A_END },
		  EINVAL },
		{ "profile too long", PCIESW_CMD_SWITCH_NEW, false,
		  { A_U32(PCIESW_A_SWITCH_ID, ID_BASE + 20),
		    A_STR(PCIESW_A_SWITCH_PROFILE,
			  "tiny8-tiny8-tiny8-tiny8-tiny8-tiny8"), A_END },
		  EINVAL },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = pnl_req(&self->p, cases[i].cmd, cases[i].dump,
				  cases[i].req, &self->r);

		EXPECT_EQ(cases[i].err, err) TH_LOG("%s: %s", cases[i].what,
						     strerror(err));
		/* the core names the attribute and says what is wrong */
		EXPECT_NE(0, self->r.msg[0]) TH_LOG("%s: no extack message",
						     cases[i].what);
		EXPECT_TRUE(self->r.has_offs) TH_LOG("%s: no offset",
						      cases[i].what);
		EXPECT_EQ(0U, self->r.nobjs) TH_LOG("%s", cases[i].what);
		pnl_reply_free(&self->r);
	}
	/* nothing was created by the refused switch-new */
	EXPECT_FALSE(sw_exists(ID_BASE + 20));
}

/* Notifications are not requests; unknown commands are not either. */
TEST_F(nl, unknown_cmd)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, 0), A_END };
	unsigned int cmd;

	for (cmd = 0; cmd <= 255; cmd++) {
		if (cmd && cmd <= SPEC_CMD_MAX && !spec_ops[cmd].is_ntf)
			continue;
		if (cmd > SPEC_CMD_MAX + 2 && cmd != 200 && cmd != 255)
			continue;
		EXPECT_EQ(EOPNOTSUPP, pnl_do(&self->p, cmd, req, &self->r))
			TH_LOG("cmd %u", cmd);
		pnl_reply_free(&self->r);
		EXPECT_EQ(EOPNOTSUPP, pnl_dump(&self->p, cmd, NULL, &self->r))
			TH_LOG("dump cmd %u", cmd);
		pnl_reply_free(&self->r);
	}
}

/*
 * Every op the spec gives a do: with no attributes at all it is refused
 * with EINVAL naming a missing attribute of its request.
 */
TEST_F(nl, no_attributes)
{
	unsigned int cmd;

	for (cmd = 1; cmd <= SPEC_CMD_MAX; cmd++) {
		const struct spec_op *op = &spec_ops[cmd];

		if (!op->has_do || op->is_ntf)
			continue;
		EXPECT_EQ(EINVAL, pnl_do(&self->p, cmd, NULL, &self->r))
			TH_LOG("%s", op->name);
		EXPECT_TRUE(self->r.miss_type > 0 &&
			    self->r.miss_type <= SPEC_ATTR_MAX &&
			    op->do_req[self->r.miss_type])
			TH_LOG("%s: missing attribute %d", op->name,
			       self->r.miss_type);
		pnl_reply_free(&self->r);
	}
}

/*
 * A dump request carries only what the spec lists for it: an attribute of
 * the do request that the dump does not take (group-id in a group-get
 * dump, any attribute in a switch-get dump) is refused, not ignored (a
 * caller would think it filtered).  This is what ynl-gen-c's per-op
 * policies do.
 */
TEST_F(nl, dump_request_per_spec)
{
	unsigned int cmd;
	int a;

	for (cmd = 1; cmd <= SPEC_CMD_MAX; cmd++) {
		const struct spec_op *op = &spec_ops[cmd];

		if (!op->has_dump)
			continue;
		for (a = 1; a <= SPEC_ATTR_MAX; a++) {
			struct pnl_attr req[] = {
				A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(a, 0), A_END,
			};

			if (!op->do_req[a] || op->dump_req[a] ||
			    spec_attrs[a].type != T_U32)
				continue;
			/* with switch-id only where the dump takes it */
			EXPECT_EQ(EINVAL, pnl_dump(&self->p, cmd,
						   op->dump_req[PCIESW_A_SWITCH_ID] ?
						   req : req + 1, &self->r))
				TH_LOG("%s dump accepts %s", op->name,
				       spec_attrs[a].name);
			pnl_reply_free(&self->r);
		}
	}
}

/* Set ops have no dump. */
TEST_F(nl, set_ops_no_dump)
{
	EXPECT_EQ(EOPNOTSUPP, pnl_dump(&self->p, PCIESW_CMD_SWITCH_NEW, NULL,
				       &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(EOPNOTSUPP, pnl_dump(&self->p, PCIESW_CMD_SWITCH_DEL, NULL,
				       &self->r));
}

/* ------------------------------------------------------------------ */
/* switch-new / switch-del                                             */

TEST_F(nl, switch_new_del)
{
	const unsigned int id = ID_BASE + 10;
	struct pnl_attr req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id),
		A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END,
	};
	struct pnl_attr id_only[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	char buf[64], path[64];

	snprintf(path, sizeof(path), "/dev/pciesw%u", id);
	ASSERT_FALSE(sw_exists(id));
	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, req, &self->r));
	EXPECT_EQ(0U, self->r.nobjs);
	ASSERT_TRUE(sw_exists(id));
	EXPECT_EQ(0, sw_attr(id, "profile", buf, sizeof(buf)));
	EXPECT_STREQ("tiny8", buf);
	EXPECT_EQ(0, access(path, F_OK));
	pnl_reply_free(&self->r);

	/* visible to get at once */
	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_GET, id_only, &self->r));
	ASSERT_EQ(1U, self->r.nobjs);
	check_switch_obj(_metadata, &self->r.objs[0], id, false);
	pnl_reply_free(&self->r);

	/* duplicate, with another profile or the same */
	EXPECT_EQ(EEXIST, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, req,
				 &self->r));
	EXPECT_NE(NULL, strstr(self->r.msg, "already in use"))
		TH_LOG("extack: '%s'", self->r.msg);
	pnl_reply_free(&self->r);
	EXPECT_EQ(EEXIST, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, id_only,
				 &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(-EEXIST, sw_new(id, NULL));
	/* the duplicate changed nothing */
	EXPECT_EQ(0, sw_attr(id, "profile", buf, sizeof(buf)));
	EXPECT_STREQ("tiny8", buf);

	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_DEL, id_only, &self->r));
	EXPECT_FALSE(sw_exists(id));
	EXPECT_NE(0, access(path, F_OK));
	pnl_reply_free(&self->r);

	/* delete again: gone */
	EXPECT_EQ(ENODEV, pnl_do(&self->p, PCIESW_CMD_SWITCH_DEL, id_only,
				 &self->r));
	EXPECT_STREQ("no such switch", self->r.msg);
	EXPECT_TRUE(self->r.has_offs);
	EXPECT_EQ(PNL_ATTR_OFFS(0), self->r.offs);
	pnl_reply_free(&self->r);
	EXPECT_EQ(ENODEV, pnl_do(&self->p, PCIESW_CMD_SWITCH_GET, id_only,
				 &self->r));
}

TEST_F(nl, switch_new_default_profile)
{
	const unsigned int id = ID_BASE + 11;
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	char buf[64];

	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, req, &self->r));
	ASSERT_TRUE(sw_exists(id));
	EXPECT_EQ(0, sw_attr(id, "profile", buf, sizeof(buf)));
	EXPECT_STREQ("pex89048", buf);
	/* created over netlink, deleted through sysfs */
	EXPECT_EQ(0, sw_del(id));
	EXPECT_FALSE(sw_exists(id));
	/* and the other way round */
	EXPECT_EQ(0, sw_new(id, "pex89144"));
	pnl_reply_free(&self->r);
	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_DEL, req, &self->r));
	EXPECT_FALSE(sw_exists(id));
}

TEST_F(nl, switch_new_each_profile)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		const unsigned int id = ID_BASE + 12 + i;
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, id),
			A_STR(PCIESW_A_SWITCH_PROFILE, profile_names[i]), A_END,
		};
		char buf[64];

		EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, req,
				    &self->r)) TH_LOG("%s", profile_names[i]);
		pnl_reply_free(&self->r);
		EXPECT_EQ(0, sw_attr(id, "profile", buf, sizeof(buf)));
		EXPECT_STREQ(profile_names[i], buf);
		EXPECT_EQ(exp_profile(profile_names[i])->nr_ports,
			  sw_attr_u32(id, "nr_ports"));
	}
}

TEST_F(nl, switch_new_bad_profile)
{
	const char *const bad[] = { "nosuch", "", "PEX89048", "pex89048 ",
				    "tiny", "tiny8x" };
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID_BASE + 20),
			A_STR(PCIESW_A_SWITCH_PROFILE, bad[i]), A_END,
		};

		EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, req,
					 &self->r)) TH_LOG("'%s'", bad[i]);
		EXPECT_STREQ("unknown profile", self->r.msg)
			TH_LOG("'%s'", bad[i]);
		/* pointing at the profile */
		EXPECT_TRUE(self->r.has_offs);
		EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
		pnl_reply_free(&self->r);
		EXPECT_FALSE(sw_exists(ID_BASE + 20));
	}
}

/* ------------------------------------------------------------------ */
/* Lane groups and ports, per profile                                  */

FIXTURE(shape)
{
	struct pnl p;
	struct pnl_reply r;
	const struct exp_profile *exp;
	unsigned int id;
};

FIXTURE_VARIANT(shape)
{
	const char *profile;
};

FIXTURE_VARIANT_ADD(shape, pex89048) { .profile = "pex89048" };
FIXTURE_VARIANT_ADD(shape, pex89144) { .profile = "pex89144" };
FIXTURE_VARIANT_ADD(shape, tiny8) { .profile = "tiny8" };

FIXTURE_SETUP(shape)
{
	int err;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	self->id = ID_BASE + 30;
	self->exp = exp_profile(variant->profile);
	ASSERT_NE(NULL, self->exp);
	if (sw_exists(self->id))
		sw_del(self->id);
	err = sw_new(self->id, variant->profile);
	ASSERT_EQ(0, err) TH_LOG("new_device: %s", strerror(-err));
	ASSERT_EQ(0, pnl_open(&self->p));
	pnl_reply_init(&self->r);
	/* links train in modeled time */
	ASSERT_TRUE(pnl_wait_trained(&self->p, self->id, 5000))
		TH_LOG("links of pciesw%u not trained after 5 s", self->id);
}

FIXTURE_TEARDOWN(shape)
{
	pnl_reply_free(&self->r);
	pnl_close(&self->p);
	if (sw_exists(self->id))
		sw_del(self->id);
}

static void check_groups(struct __test_metadata *_metadata,
			 const struct exp_profile *exp, unsigned int id,
			 const struct pnl_reply *r)
{
	unsigned int g, c, lane = 0;

	ASSERT_EQ(exp->nr_groups, r->nobjs);
	for (g = 0; g < r->nobjs; g++) {
		const struct exp_group *eg = &exp->groups[g];
		const struct pnl_obj *o = &r->objs[g];
		unsigned int n, w;

		EXPECT_EQ(PCIESW_CMD_GROUP_GET, o->cmd);
		CHECK_ATTRS(o, pnl_group_core, true);
		EXPECT_EQ(id, o->u[PCIESW_A_SWITCH_ID]);
		EXPECT_EQ(g, o->u[PCIESW_A_GROUP_ID]);
		EXPECT_STREQ(eg->name, o->s[PCIESW_A_GROUP_NAME]);
		EXPECT_EQ(eg->type, o->u[PCIESW_A_GROUP_TYPE]);
		EXPECT_EQ(eg->first_lane, o->u[PCIESW_A_GROUP_FIRST_LANE]);
		EXPECT_EQ(eg->nr_lanes, o->u[PCIESW_A_GROUP_NR_LANES]);
		EXPECT_STREQ(eg->config, o->s[PCIESW_A_GROUP_CONFIG]);
		/* groups tile the lanes */
		EXPECT_EQ(lane, o->u[PCIESW_A_GROUP_FIRST_LANE]);
		lane += o->u[PCIESW_A_GROUP_NR_LANES];

		for (c = 0; eg->allowed[c]; c++)
			;
		EXPECT_EQ(c, o->nr_allowed) TH_LOG("group %s", eg->name);
		for (c = 0; eg->allowed[c] && c < o->nr_allowed; c++)
			EXPECT_STREQ(eg->allowed[c], o->allowed[c]);
		/* every allowed config fits the group */
		for (c = 0; c < o->nr_allowed && c < PNL_MAX_ALLOWED; c++) {
			EXPECT_TRUE(parse_bif(o->allowed[c], &n, &w));
			EXPECT_LE(n * w, o->u[PCIESW_A_GROUP_NR_LANES]);
		}
	}
	EXPECT_EQ(exp->lanes, lane);
}

TEST_F(shape, group_dump)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, self->id), A_END };

	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_GROUP_GET, req, &self->r));
	check_groups(_metadata, self->exp, self->id, &self->r);
}

TEST_F(shape, group_do)
{
	struct pnl_reply one;
	unsigned int g;

	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_GROUP_GET,
			      (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, self->id), A_END },
			      &self->r));
	ASSERT_EQ(self->exp->nr_groups, self->r.nobjs);
	for (g = 0; g < self->exp->nr_groups; g++) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, self->id),
			A_U32(PCIESW_A_GROUP_ID, g), A_END,
		};

		EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_GROUP_GET, req, &one));
		EXPECT_EQ(1U, one.nobjs);
		if (one.nobjs == 1) {
			EXPECT_EQ(0, memcmp(&self->r.objs[g], &one.objs[0],
					    sizeof(one.objs[0])))
				TH_LOG("group %u: do differs from dump", g);
		}
		pnl_reply_free(&one);
	}
}

TEST_F(shape, group_do_bad_id)
{
	const uint32_t bad[] = { self->exp->nr_groups, 16, 0xffffffff };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, self->id),
			A_U32(PCIESW_A_GROUP_ID, bad[i]), A_END,
		};

		EXPECT_EQ(ENOENT, pnl_do(&self->p, PCIESW_CMD_GROUP_GET, req,
					 &self->r)) TH_LOG("group %u", bad[i]);
		EXPECT_NE(NULL, strstr(self->r.msg, "no such lane group"))
			TH_LOG("extack '%s'", self->r.msg);
		EXPECT_TRUE(self->r.has_offs);
		EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
		pnl_reply_free(&self->r);
	}
	/* no group-id at all */
	EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_GROUP_GET,
				 (struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, self->id),
					A_END }, &self->r));
	EXPECT_EQ(PCIESW_A_GROUP_ID, self->r.miss_type);
}

/*
 * Ports: contiguous ids, laid out group by group in the group's
 * bifurcation; the upstream port trained at the host's speed and width;
 * a downstream port with an endpoint (@eps: the switch's ep-get dump)
 * trained at what both ends can do, one with nothing attached in Detect.
 * Expects training to be over.
 */
static void check_ports(struct __test_metadata *_metadata,
			const struct exp_profile *exp, unsigned int id,
			const struct pnl_obj *ports, unsigned int nr,
			const struct pnl_reply *eps)
{
	unsigned int g, k, p = 0, upstream = 0, attached = 0;

	ASSERT_EQ(exp->nr_ports, nr);
	for (g = 0; g < exp->nr_groups; g++) {
		const struct exp_group *eg = &exp->groups[g];
		unsigned int n, w;

		ASSERT_TRUE(parse_bif(eg->config, &n, &w));
		for (k = 0; k < n; k++, p++) {
			const struct pnl_obj *o = &ports[p];
			bool host = eg->type == PCIESW_GROUP_TYPE_HOST;
			uint32_t speed = 0, width = 0;

			ASSERT_LT(p, nr) TH_LOG("too few ports for group %s",
						eg->name);
			EXPECT_EQ(PCIESW_CMD_PORT_GET, o->cmd);
			CHECK_ATTRS(o, pnl_port_core, true);
			EXPECT_EQ(id, o->u[PCIESW_A_SWITCH_ID]);
			EXPECT_EQ(p, o->u[PCIESW_A_PORT_ID]);
			EXPECT_EQ(g, o->u[PCIESW_A_GROUP_ID]);
			EXPECT_STREQ(eg->name, o->s[PCIESW_A_GROUP_NAME]);
			EXPECT_EQ(eg->first_lane + k * w,
				  o->u[PCIESW_A_PORT_FIRST_LANE])
				TH_LOG("port %u", p);
			EXPECT_EQ(w, o->u[PCIESW_A_PORT_NR_LANES]);
			EXPECT_EQ(w, o->u[PCIESW_A_PORT_MAX_WIDTH]);
			EXPECT_EQ(exp->max_speed, o->u[PCIESW_A_PORT_MAX_SPEED]);
			EXPECT_EQ(exp->max_speed,
				  o->u[PCIESW_A_PORT_TARGET_SPEED]);
			EXPECT_EQ(0U, o->u[PCIESW_A_PORT_DEGRADED]);
			/* ACS is a capability of downstream ports */
			EXPECT_EQ(!host, pnl_has(o, PCIESW_A_PORT_ACS_REDIRECT))
				TH_LOG("port %u", p);
			EXPECT_GE(1U, o->u[PCIESW_A_PORT_ACS_REDIRECT]);
			EXPECT_EQ(host ? (uint32_t)PCIESW_PORT_ROLE_UPSTREAM :
				  (uint32_t)PCIESW_PORT_ROLE_DOWNSTREAM,
				  o->u[PCIESW_A_PORT_ROLE]) TH_LOG("port %u", p);
			if (host) {
				upstream++;
				EXPECT_FALSE(pnl_has(o, PCIESW_A_EP_ID));
				speed = exp->host_speed;
				width = exp->host_width;
			} else if (pnl_has(o, PCIESW_A_EP_ID)) {
				const struct pnl_obj *ep = NULL;
				unsigned int e;

				attached++;
				for (e = 0; e < eps->nobjs; e++)
					if (eps->objs[e].u[PCIESW_A_EP_ID] ==
					    o->u[PCIESW_A_EP_ID])
						ep = &eps->objs[e];
				EXPECT_NE(NULL, ep) TH_LOG("port %u: ep %u",
							   p, o->u[PCIESW_A_EP_ID]);
				if (ep) {
					EXPECT_EQ(p, ep->u[PCIESW_A_PORT_ID]);
					EXPECT_STREQ(ep->s[PCIESW_A_EP_NAME],
						     o->s[PCIESW_A_EP_NAME]);
					speed = ep->u[PCIESW_A_EP_MAX_SPEED];
					width = ep->u[PCIESW_A_EP_MAX_WIDTH];
				}
			}
			if (speed) {
				/* both ends' best, capped by the target */
				if (speed > exp->max_speed)
					speed = exp->max_speed;
				if (width > w)
					width = w;
				EXPECT_EQ((uint32_t)PCIESW_LTSSM_L0,
					  o->u[PCIESW_A_PORT_LTSSM])
					TH_LOG("port %u", p);
				EXPECT_EQ(1U, o->u[PCIESW_A_PORT_LINK_ACTIVE]);
				EXPECT_EQ(speed, o->u[PCIESW_A_PORT_SPEED])
					TH_LOG("port %u", p);
				EXPECT_EQ(width, o->u[PCIESW_A_PORT_WIDTH])
					TH_LOG("port %u", p);
			} else {
				/* nothing attached: no partner to train with */
				EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT,
					  o->u[PCIESW_A_PORT_LTSSM])
					TH_LOG("port %u", p);
				EXPECT_EQ(0U, o->u[PCIESW_A_PORT_LINK_ACTIVE]);
				EXPECT_EQ((uint32_t)PCIESW_LINK_SPEED_NONE,
					  o->u[PCIESW_A_PORT_SPEED]);
				EXPECT_EQ(0U, o->u[PCIESW_A_PORT_WIDTH]);
			}
		}
		/* the default bifurcations use every lane of the group */
		EXPECT_EQ(eg->nr_lanes, n * w);
	}
	EXPECT_EQ(p, nr);
	EXPECT_EQ(1U, upstream);
	EXPECT_EQ(attached, eps->nobjs);
	EXPECT_EQ((uint32_t)PCIESW_PORT_ROLE_UPSTREAM,
		  ports[0].u[PCIESW_A_PORT_ROLE]);
}

/* Dump the ports and endpoints of switch @id and check the ports. */
static unsigned int check_switch_ports(struct __test_metadata *_metadata,
				       struct pnl *p,
				       const struct exp_profile *exp,
				       unsigned int id)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	struct pnl_reply ports, eps;
	unsigned int ndgrams;

	EXPECT_EQ(0, pnl_dump(p, PCIESW_CMD_EP_GET, req, &eps));
	EXPECT_EQ(0, pnl_dump(p, PCIESW_CMD_PORT_GET, req, &ports));
	EXPECT_EQ(sw_attr_u32(id, "nr_ports"), ports.nobjs);
	check_ports(_metadata, exp, id, ports.objs, ports.nobjs, &eps);
	ndgrams = ports.ndgrams;
	pnl_reply_free(&ports);
	pnl_reply_free(&eps);
	return ndgrams;
}

TEST_F(shape, port_dump)
{
	check_switch_ports(_metadata, &self->p, self->exp, self->id);
}

/* A downstream port whose device is unplugged goes back to Detect. */
TEST_F(shape, port_unplugged)
{
	struct pnl_attr sw_only[] = { A_U32(PCIESW_A_SWITCH_ID, self->id),
				      A_END };
	unsigned int port = 0, ep = 0, i, nr_eps;

	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_PORT_GET, sw_only, &self->r));
	for (i = 0; i < self->r.nobjs; i++)
		if (pnl_has(&self->r.objs[i], PCIESW_A_EP_ID)) {
			port = i;
			ep = self->r.objs[i].u[PCIESW_A_EP_ID];
			break;
		}
	/* every profile comes with endpoints */
	ASSERT_NE(0U, port) TH_LOG("%s: no endpoint attached to unplug",
				   variant->profile);
	pnl_reply_free(&self->r);
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET, sw_only, &self->r));
	nr_eps = self->r.nobjs;
	pnl_reply_free(&self->r);

	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_EP_DEL,
			    (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, self->id),
				A_U32(PCIESW_A_EP_ID, ep), A_END }, &self->r));
	pnl_reply_free(&self->r);
	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_PORT_GET,
			    (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, self->id),
				A_U32(PCIESW_A_PORT_ID, port), A_END },
			    &self->r));
	ASSERT_EQ(1U, self->r.nobjs);
	EXPECT_FALSE(pnl_has(&self->r.objs[0], PCIESW_A_EP_ID));
	EXPECT_EQ((uint32_t)PCIESW_LTSSM_DETECT,
		  self->r.objs[0].u[PCIESW_A_PORT_LTSSM]);
	EXPECT_EQ(0U, self->r.objs[0].u[PCIESW_A_PORT_LINK_ACTIVE]);
	EXPECT_EQ(0U, self->r.objs[0].u[PCIESW_A_PORT_SPEED]);
	EXPECT_EQ(0U, self->r.objs[0].u[PCIESW_A_PORT_WIDTH]);
	pnl_reply_free(&self->r);
	/* the whole switch still checks out, one endpoint fewer */
	check_switch_ports(_metadata, &self->p, self->exp, self->id);
	EXPECT_EQ((int)nr_eps - 1, sysfs_nr_endpoints(self->id));
}

TEST_F(shape, port_do)
{
	struct pnl_reply one;
	unsigned int p;

	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_PORT_GET,
			      (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, self->id), A_END },
			      &self->r));
	ASSERT_EQ(self->exp->nr_ports, self->r.nobjs);
	for (p = 0; p < self->r.nobjs; p++) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, self->id),
			A_U32(PCIESW_A_PORT_ID, p), A_END,
		};

		EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_PORT_GET, req, &one));
		EXPECT_EQ(1U, one.nobjs);
		if (one.nobjs == 1)
			EXPECT_EQ(0, memcmp(&self->r.objs[p], &one.objs[0],
					    sizeof(one.objs[0])))
				TH_LOG("port %u: do differs from dump", p);
		pnl_reply_free(&one);
	}
}

TEST_F(shape, port_do_bad_id)
{
	const uint32_t bad[] = { self->exp->nr_ports, self->exp->nr_ports + 1,
				 96, 0xffffffff };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, self->id),
			A_U32(PCIESW_A_PORT_ID, bad[i]), A_END,
		};

		EXPECT_EQ(ENOENT, pnl_do(&self->p, PCIESW_CMD_PORT_GET, req,
					 &self->r)) TH_LOG("port %u", bad[i]);
		EXPECT_NE(NULL, strstr(self->r.msg, "no such port"))
			TH_LOG("extack '%s'", self->r.msg);
		EXPECT_TRUE(self->r.has_offs);
		EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
		EXPECT_EQ(0U, self->r.nobjs);
		pnl_reply_free(&self->r);
	}
	/* no port-id */
	EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_PORT_GET,
				 (struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, self->id),
					A_END }, &self->r));
	EXPECT_EQ(PCIESW_A_PORT_ID, self->r.miss_type);
	pnl_reply_free(&self->r);
	/* a port of a switch that does not exist: the switch is missing */
	EXPECT_EQ(ENODEV, pnl_do(&self->p, PCIESW_CMD_PORT_GET,
				 (struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, self->id + 1),
					A_U32(PCIESW_A_PORT_ID, 0),
					A_END }, &self->r));
	EXPECT_STREQ("no such switch", self->r.msg);
	EXPECT_EQ(PNL_ATTR_OFFS(0), self->r.offs);
}

/* A dump filtered on a missing switch returns nothing of other switches. */
TEST_F(shape, dump_missing_switch)
{
	static const uint8_t cmds[] = { PCIESW_CMD_GROUP_GET,
					PCIESW_CMD_PORT_GET };
	unsigned int i;

	ASSERT_FALSE(sw_exists(self->id + 1));
	for (i = 0; i < 2; i++) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, self->id + 1), A_END,
		};
		int err = pnl_dump(&self->p, cmds[i], req, &self->r);

		EXPECT_TRUE(err == 0 || err == ENODEV) TH_LOG("%d", err);
		EXPECT_EQ(0U, self->r.nobjs);
		pnl_reply_free(&self->r);
	}
}

/* ------------------------------------------------------------------ */
/* Dumps over many switches                                            */

/*
 * Unfiltered dumps of every object type with @n extra switches: each object
 * exactly once, in (switch id, object id) order, matching sysfs.
 */
static void check_full_dumps(struct __test_metadata *_metadata,
			     struct pnl *p, bool want_multi)
{
	unsigned int ids[300], total_ports = 0, total_groups = 0;
	struct pnl_reply r;
	unsigned int i, k, j;
	int n;

	n = sysfs_switch_ids(ids, 300);
	ASSERT_LT(0, n);

	ASSERT_EQ(0, pnl_dump(p, PCIESW_CMD_SWITCH_GET, NULL, &r));
	EXPECT_EQ((unsigned int)n, r.nobjs);
	for (i = 0; i < r.nobjs && i < (unsigned int)n; i++) {
		EXPECT_EQ(ids[i], r.objs[i].u[PCIESW_A_SWITCH_ID])
			TH_LOG("switch #%u", i);
		total_ports += r.objs[i].u[PCIESW_A_SWITCH_NR_PORTS];
		total_groups += r.objs[i].u[PCIESW_A_SWITCH_NR_GROUPS];
	}
	if (want_multi)
		EXPECT_LT(1U, r.ndgrams) TH_LOG("switch dump in one datagram");
	pnl_reply_free(&r);

	ASSERT_EQ(0, pnl_dump(p, PCIESW_CMD_PORT_GET, NULL, &r));
	EXPECT_EQ(total_ports, r.nobjs);
	for (i = 0, j = 0; i < (unsigned int)n; i++) {
		long np = sw_attr_u32(ids[i], "nr_ports");

		for (k = 0; k < np && j < r.nobjs; k++, j++) {
			EXPECT_EQ(ids[i], r.objs[j].u[PCIESW_A_SWITCH_ID])
				TH_LOG("port #%u", j);
			EXPECT_EQ(k, r.objs[j].u[PCIESW_A_PORT_ID])
				TH_LOG("port #%u of pciesw%u", j, ids[i]);
		}
	}
	EXPECT_EQ(j, r.nobjs);
	if (want_multi)
		EXPECT_LT(4U, r.ndgrams);
	pnl_reply_free(&r);

	ASSERT_EQ(0, pnl_dump(p, PCIESW_CMD_GROUP_GET, NULL, &r));
	EXPECT_EQ(total_groups, r.nobjs);
	for (i = 0, j = 0; i < (unsigned int)n; i++) {
		const struct exp_profile *exp;
		char prof[64];

		ASSERT_EQ(0, sw_attr(ids[i], "profile", prof, sizeof(prof)));
		exp = exp_profile(prof);
		ASSERT_NE(NULL, exp);
		for (k = 0; k < exp->nr_groups && j < r.nobjs; k++, j++) {
			EXPECT_EQ(ids[i], r.objs[j].u[PCIESW_A_SWITCH_ID])
				TH_LOG("group #%u", j);
			EXPECT_EQ(k, r.objs[j].u[PCIESW_A_GROUP_ID])
				TH_LOG("group #%u of pciesw%u", j, ids[i]);
		}
	}
	EXPECT_EQ(j, r.nobjs);
	if (want_multi)
		EXPECT_LT(1U, r.ndgrams);
	pnl_reply_free(&r);
}

/*
 * 40 switches, a third of them 144-lane cards, each with its PCI hierarchy:
 * minutes on the debug kernel (KASAN, lockdep) under TCG.  The debug plan
 * (tp_reduced()) makes 16, still of all three profiles (five 144-lane
 * cards), enough for the port dump's five datagrams and more (8 make 3).
 */
TEST_F_TIMEOUT(nl, many_switches, 900)
{
	unsigned int i, n = tp_reduce(40, 16,
				      "switches of the many-switch dumps");

	for (i = 0; i < n; i++) {
		int err = sw_new(ID_BASE + i, profile_names[i % 3]);

		ASSERT_EQ(0, err) TH_LOG("new_device %u: %s", ID_BASE + i,
					 strerror(-err));
	}
	check_full_dumps(_metadata, &self->p, true);
	ASSERT_TRUE(pnl_wait_trained(&self->p, ID_BASE + 1, 5000));

	/* a filtered port dump of a big switch spans datagrams, resumes
	 * in the middle of the switch and returns each port once */
	EXPECT_LT(1U, check_switch_ports(_metadata, &self->p,
					 exp_profile("pex89144"), ID_BASE + 1));

	/* holes in the id space */
	for (i = 0; i < n; i += 3)
		ASSERT_EQ(0, sw_del(ID_BASE + i));
	check_full_dumps(_metadata, &self->p, false);
}

/* ------------------------------------------------------------------ */
/* The monitor group                                                   */

/* pnl_switch_core but the serial number */
static const int pnl_switch_ntf_core[] = {
	PCIESW_A_SWITCH_ID, PCIESW_A_SWITCH_NAME, PCIESW_A_SWITCH_PROFILE,
	PCIESW_A_SWITCH_DESCRIPTION, PCIESW_A_SWITCH_LANES,
	PCIESW_A_SWITCH_NR_GROUPS, PCIESW_A_SWITCH_NR_PORTS, 0
};

static void check_ntf(struct __test_metadata *_metadata,
		      const struct pnl_obj *o, uint8_t cmd, unsigned int id,
		      const char *profile)
{
	EXPECT_EQ(cmd, o->cmd);
	EXPECT_EQ(PCIESW_FAMILY_VERSION, o->version);
	CHECK_ATTRS(o, pnl_switch_ntf_core, false);
	/* anyone may listen: no serial number (root-only, like the VPD) */
	EXPECT_FALSE(pnl_has(o, PCIESW_A_SWITCH_SERIAL));
	EXPECT_EQ(id, o->u[PCIESW_A_SWITCH_ID]);
	EXPECT_STREQ(profile, o->s[PCIESW_A_SWITCH_PROFILE]);
	EXPECT_EQ(exp_profile(profile)->nr_ports,
		  o->u[PCIESW_A_SWITCH_NR_PORTS]);
}

/*
 * @ntf holds what the monitor socket got while switch @a was created and
 * deleted, then switch @b.  Among them exactly four switch notifications,
 * in order; any other notification about @a or @b (ports training...) comes
 * after the switch's create and before its delete.
 */
static void check_switch_ntfs(struct __test_metadata *_metadata,
			      const struct pnl_reply *ntf, unsigned int a,
			      const char *prof_a, unsigned int b,
			      const char *prof_b)
{
	const struct pnl_obj *sw[8];
	unsigned int i, n = 0, state_a = 0, state_b = 0;

	for (i = 0; i < ntf->nobjs; i++) {
		const struct pnl_obj *o = &ntf->objs[i];
		unsigned int id = o->u[PCIESW_A_SWITCH_ID];
		unsigned int *state = id == a ? &state_a :
				      id == b ? &state_b : NULL;

		EXPECT_TRUE(o->cmd > 0 && o->cmd <= SPEC_CMD_MAX &&
			    spec_ops[o->cmd].is_ntf)
			TH_LOG("cmd %u on the monitor group", o->cmd);
		EXPECT_TRUE(pnl_has(o, PCIESW_A_SWITCH_ID));
		if (o->cmd == PCIESW_CMD_SWITCH_CREATE_NTF ||
		    o->cmd == PCIESW_CMD_SWITCH_DELETE_NTF) {
			if (n < 8)
				sw[n] = o;
			n++;
			if (state)
				(*state)++;
			continue;
		}
		/* about a switch of ours: only while it exists */
		if (state)
			EXPECT_EQ(1U, *state)
				TH_LOG("cmd %u about pciesw%u %s", o->cmd, id,
				       *state ? "after its delete" :
						"before its create");
	}
	ASSERT_EQ(4U, n);
	check_ntf(_metadata, sw[0], PCIESW_CMD_SWITCH_CREATE_NTF, a, prof_a);
	check_ntf(_metadata, sw[1], PCIESW_CMD_SWITCH_DELETE_NTF, a, prof_a);
	check_ntf(_metadata, sw[2], PCIESW_CMD_SWITCH_CREATE_NTF, b, prof_b);
	check_ntf(_metadata, sw[3], PCIESW_CMD_SWITCH_DELETE_NTF, b, prof_b);
}

/* a 144-lane card is created and deleted: slow on the debug kernel */
TEST_F_TIMEOUT(nl, monitor, 300)
{
	const unsigned int a = ID_BASE + 21, b = ID_BASE + 22;
	struct pnl_attr new_a[] = {
		A_U32(PCIESW_A_SWITCH_ID, a),
		A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END,
	};
	struct pnl_attr bad_a[] = {
		A_U32(PCIESW_A_SWITCH_ID, a),
		A_STR(PCIESW_A_SWITCH_PROFILE, "nosuch"), A_END,
	};
	struct pnl_attr del_a[] = { A_U32(PCIESW_A_SWITCH_ID, a), A_END };
	struct pnl_reply ntf;
	struct pnl mon;

	ASSERT_EQ(0, pnl_open_monitor(&mon));
	pnl_reply_init(&ntf);

	/* over netlink: create, refused duplicate, refused profile, delete */
	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, new_a, &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(EEXIST, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, new_a,
				 &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_DEL, del_a, &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(EINVAL, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, bad_a,
				 &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(ENODEV, pnl_do(&self->p, PCIESW_CMD_SWITCH_DEL, del_a,
				 &self->r));
	pnl_reply_free(&self->r);
	/* through sysfs */
	EXPECT_EQ(0, sw_new(b, "pex89144"));
	EXPECT_EQ(0, sw_del(b));

	pnl_recv_ntf(&mon, 500, &ntf);
	check_switch_ntfs(_metadata, &ntf, a, "tiny8", b, "pex89144");
	pnl_reply_free(&ntf);
	pnl_close(&mon);
}

/* Requests get no notification on the requesting, unsubscribed socket. */
TEST_F(nl, no_ntf_unsubscribed)
{
	struct pnl_attr new_a[] = { A_U32(PCIESW_A_SWITCH_ID, ID_BASE + 23),
				    A_END };
	struct pnl_reply ntf;

	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, new_a, &self->r));
	pnl_reply_free(&self->r);
	EXPECT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_DEL, new_a, &self->r));
	pnl_reply_init(&ntf);
	nl_socket_disable_seq_check(self->p.sk);
	pnl_recv_ntf(&self->p, 200, &ntf);
	EXPECT_EQ(0U, ntf.nobjs);
	pnl_reply_free(&ntf);
}

/* ------------------------------------------------------------------ */
/* Policies generated from the spec                                    */

/*
 * The ranges the spec now carries (before, only the hand-written policies
 * had them, not the spec): refused by the netlink core with ERANGE and its
 * "integer out of range", pointing at the attribute.
 */
TEST_F(nl, policy_spec_ranges)
{
	const struct {
		const char *what;
		uint8_t cmd;
		struct pnl_attr req[4];
	} cases[] = {
		{ "port-set target-speed 0 (none)", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 0),
		    A_U32(PCIESW_A_PORT_TARGET_SPEED, 0), A_END } },
		{ "port-set target-speed 6", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 0),
		    A_U32(PCIESW_A_PORT_TARGET_SPEED, 6), A_END } },
		{ "ep-add max-speed 0", PCIESW_CMD_EP_ADD,
		  { A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_EP_MAX_SPEED, 0), A_END } },
		{ "ep-add max-width 0", PCIESW_CMD_EP_ADD,
		  { A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_EP_MAX_WIDTH, 0), A_END } },
		{ "ep-add max-width 17", PCIESW_CMD_EP_ADD,
		  { A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_EP_MAX_WIDTH, 17), A_END } },
		{ "ep-add type 0", PCIESW_CMD_EP_ADD,
		  { A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_EP_TYPE, 0), A_END } },
		{ "inject count 0", PCIESW_CMD_INJECT,
		  { A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 0),
		    A_U32(PCIESW_A_INJECT_COUNT, 0), A_END } },
		{ "threshold-get counter 32", PCIESW_CMD_THRESHOLD_GET,
		  { A_U32(PCIESW_A_SWITCH_ID, 0),
		    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_MAX + 1),
		    A_END } },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = pnl_do(&self->p, cases[i].cmd, cases[i].req,
				 &self->r);

		EXPECT_EQ(ERANGE, err) TH_LOG("%s: %s", cases[i].what,
					      strerror(err));
		EXPECT_STREQ("integer out of range", self->r.msg)
			TH_LOG("%s", cases[i].what);
		/* the offending attribute is the last one */
		EXPECT_TRUE(self->r.has_offs) TH_LOG("%s", cases[i].what);
		pnl_reply_free(&self->r);
	}
}

/*
 * Each dump has its own policy (the spec's dump request): an attribute of
 * the do request is refused with the core's message for it (before, the
 * dump's handler refused it with its own "a dump takes switch-id only").
 * Since 6.2 the core applies it before the dump starts and its error names
 * the attribute's offset; before (the module's compat layer checks it in
 * the dump's first round) the refusal comes in NLMSG_DONE, without one.
 */
TEST_F(nl, policy_dump_own)
{
	struct pnl_attr req[] = {
		A_U32(PCIESW_A_SWITCH_ID, 0), A_U32(PCIESW_A_PORT_ID, 0), A_END,
	};

	EXPECT_EQ(EINVAL, pnl_dump(&self->p, PCIESW_CMD_PORT_GET, req,
				   &self->r));
	EXPECT_NE(0, self->r.msg[0]);
	if (self->r.has_offs)
		EXPECT_EQ(PNL_ATTR_OFFS(1), self->r.offs);
	EXPECT_EQ(0U, self->r.nobjs);
}

/* ------------------------------------------------------------------ */
/* counter-packed: counter-values instead of the counter nests          */

#define NR_CTR		(PCIESW_COUNTER_MAX + 1U)

/* what every counter-get reply carries */
static const int ctr_core[] = { PCIESW_A_SWITCH_ID, 0 };

/* The counter-values of @o, which must carry them and no counter nest. */
static void packed_values(struct __test_metadata *_metadata,
			  const struct pnl_obj *o, bool dump, uint64_t *v)
{
	CHECK_ATTRS(o, ctr_core, dump);
	EXPECT_EQ(1, o->count[PCIESW_A_COUNTER_VALUES]);
	EXPECT_EQ(0U, o->nr_ctr);
	ASSERT_EQ(NR_CTR * sizeof(uint64_t), o->bin_len);
	memcpy(v, o->bin, NR_CTR * sizeof(uint64_t));
}

/* A nested reply: every counter once, no counter-values. */
static void nested_values(struct __test_metadata *_metadata,
			  const struct pnl_obj *o, bool dump)
{
	CHECK_ATTRS(o, ctr_core, dump);
	EXPECT_EQ(0, o->count[PCIESW_A_COUNTER_VALUES]);
	EXPECT_EQ(NR_CTR, o->nr_ctr);
	EXPECT_EQ(~0ULL >> (64 - NR_CTR), o->ctr_mask);
}

/*
 * After known injected errors, the packed counters (counter-packed) of a
 * port (do), of the switch (do without port-id) and of every port (a dump
 * of five pex89144 cards and more: over 100 ports, some 40 KB packed, more
 * than one round's skb holds, and each round must keep to the packed
 * form) equal the nested ones.
 */
TEST_F(nl, counter_packed)
{
	static const struct { unsigned int port, ctr; uint32_t n; } inj[] = {
		{ 1, PCIESW_COUNTER_BAD_TLP, 3 },
		{ 1, PCIESW_COUNTER_RECEIVER_ERROR, 7 },
		{ 2, PCIESW_COUNTER_BAD_DLLP, 5 },
	};
	const unsigned int id = ID_BASE;
	struct pnl_attr do_req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id), A_U32(PCIESW_A_PORT_ID, 1),
		A_RAW(PCIESW_A_COUNTER_PACKED, NULL, 0), A_END,
	};
	struct pnl_attr sum_req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id),
		A_RAW(PCIESW_A_COUNTER_PACKED, NULL, 0), A_END,
	};
	struct pnl_attr nested_req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id), A_U32(PCIESW_A_PORT_ID, 1), A_END,
	};
	struct pnl_attr dump_req[] = {
		A_RAW(PCIESW_A_COUNTER_PACKED, NULL, 0), A_END,
	};
	uint64_t v[NR_CTR];
	struct pnl_reply n;
	unsigned int i, c;

	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, sw_new(id + i, "pex89144"));
	for (i = 0; i < ARRAY_SIZE(inj); i++) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, id),
			A_U32(PCIESW_A_PORT_ID, inj[i].port),
			A_U32(PCIESW_A_COUNTER_ID, inj[i].ctr),
			A_U32(PCIESW_A_INJECT_COUNT, inj[i].n), A_END,
		};

		ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_INJECT, req,
				    &self->r)) TH_LOG("%s", self->r.msg);
		pnl_reply_free(&self->r);
	}

	/* a port: do, nested and packed */
	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_COUNTER_GET, nested_req, &n))
		TH_LOG("%s", n.msg);
	ASSERT_EQ(1U, n.nobjs);
	nested_values(_metadata, &n.objs[0], false);
	EXPECT_EQ(3ULL, n.objs[0].ctr[PCIESW_COUNTER_BAD_TLP]);
	EXPECT_EQ(7ULL, n.objs[0].ctr[PCIESW_COUNTER_RECEIVER_ERROR]);
	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_COUNTER_GET, do_req,
			    &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(1U, self->r.nobjs);
	EXPECT_EQ(1U, self->r.objs[0].u[PCIESW_A_PORT_ID]);
	packed_values(_metadata, &self->r.objs[0], false, v);
	for (c = 0; c < NR_CTR; c++)
		EXPECT_EQ(n.objs[0].ctr[c], v[c]) TH_LOG("counter %u", c);
	pnl_reply_free(&n);
	pnl_reply_free(&self->r);

	/* the switch's sums */
	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_COUNTER_GET, sum_req,
			    &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(1U, self->r.nobjs);
	EXPECT_FALSE(pnl_has(&self->r.objs[0], PCIESW_A_PORT_ID));
	packed_values(_metadata, &self->r.objs[0], false, v);
	EXPECT_EQ(3ULL, v[PCIESW_COUNTER_BAD_TLP]);
	EXPECT_EQ(7ULL, v[PCIESW_COUNTER_RECEIVER_ERROR]);
	EXPECT_EQ(5ULL, v[PCIESW_COUNTER_BAD_DLLP]);
	pnl_reply_free(&self->r);

	/* every port of every switch: the dumps, object by object */
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_COUNTER_GET, NULL, &n));
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_COUNTER_GET, dump_req,
			      &self->r)) TH_LOG("%s", self->r.msg);
	EXPECT_LT(1U, self->r.ndgrams);
	ASSERT_EQ(n.nobjs, self->r.nobjs);
	ASSERT_LE(5U * 21, self->r.nobjs);
	for (i = 0; i < n.nobjs; i++) {
		const struct pnl_obj *a = &n.objs[i], *b = &self->r.objs[i];

		nested_values(_metadata, a, true);
		packed_values(_metadata, b, true, v);
		EXPECT_EQ(a->u[PCIESW_A_SWITCH_ID], b->u[PCIESW_A_SWITCH_ID]);
		EXPECT_EQ(a->u[PCIESW_A_PORT_ID], b->u[PCIESW_A_PORT_ID]);
		for (c = 0; c < NR_CTR; c++)
			EXPECT_EQ(a->ctr[c], v[c])
				TH_LOG("switch %u port %u counter %u",
				       a->u[PCIESW_A_SWITCH_ID],
				       a->u[PCIESW_A_PORT_ID], c);
		if (a->u[PCIESW_A_SWITCH_ID] == id &&
		    a->u[PCIESW_A_PORT_ID] == 2)
			EXPECT_EQ(5ULL, v[PCIESW_COUNTER_BAD_DLLP]);
	}
	pnl_reply_free(&n);
	pnl_reply_free(&self->r);
}

static const int ep_brief_core[] = {
	PCIESW_A_SWITCH_ID, PCIESW_A_EP_ID, PCIESW_A_EP_MEM_RESIDENT, 0
};

/* and a drive's I/O counters */
static const int ep_brief_io[] = {
	PCIESW_A_NVME_BYTES_READ, PCIESW_A_NVME_BYTES_WRITTEN,
	PCIESW_A_NVME_HOST_READS, PCIESW_A_NVME_HOST_WRITES, 0
};

/* The attributes of @o but pad. */
static unsigned int nr_attrs(const struct pnl_obj *o)
{
	unsigned int t, n = 0;

	for (t = 1; t <= SPEC_ATTR_MAX; t++)
		if (t != PCIESW_A_PAD && pnl_has(o, t))
			n++;
	return n;
}

/*
 * ep-brief: an ep-get dump of five pex89144 cards (100 endpoints, more
 * than one round's skb holds, each round brief) answers with switch-id,
 * ep-id and ep-mem-resident alone, and a drive's I/O counters, those of
 * the whole dump (no I/O runs); a do alike.
 */
TEST_F(nl, ep_brief)
{
	const unsigned int id = ID_BASE;
	struct pnl_attr dump_req[] = {
		A_RAW(PCIESW_A_EP_BRIEF, NULL, 0), A_END,
	};
	struct pnl_attr do_req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id), A_STR(PCIESW_A_EP_NAME, "nvme0"),
		A_RAW(PCIESW_A_EP_BRIEF, NULL, 0), A_END,
	};
	struct pnl_reply n;
	uint32_t nvme0 = UINT32_MAX;
	unsigned int i;

	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, sw_new(id + i, "pex89144"));
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET, NULL, &n));
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET, dump_req,
			      &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(n.nobjs, self->r.nobjs);
	ASSERT_LE(5U * 20, self->r.nobjs);
	for (i = 0; i < n.nobjs; i++) {
		const struct pnl_obj *a = &n.objs[i], *b = &self->r.objs[i];

		bool drive = a->u[PCIESW_A_EP_TYPE] == PCIESW_EP_TYPE_NVME;
		const int *io;

		CHECK_ATTRS(b, ep_brief_core, true);
		EXPECT_EQ(drive ? 7U : 3U, nr_attrs(b));
		EXPECT_EQ(a->u[PCIESW_A_SWITCH_ID], b->u[PCIESW_A_SWITCH_ID]);
		EXPECT_EQ(a->u[PCIESW_A_EP_ID], b->u[PCIESW_A_EP_ID]);
		EXPECT_EQ(a->u64[PCIESW_A_EP_MEM_RESIDENT],
			  b->u64[PCIESW_A_EP_MEM_RESIDENT]);
		for (io = ep_brief_io; drive && *io; io++) {
			EXPECT_TRUE(pnl_has(a, *io) && pnl_has(b, *io));
			EXPECT_EQ(a->u64[*io], b->u64[*io]);
		}
		if (a->u[PCIESW_A_SWITCH_ID] == id &&
		    !strcmp(a->s[PCIESW_A_EP_NAME], "nvme0"))
			nvme0 = a->u[PCIESW_A_EP_ID];
	}
	pnl_reply_free(&n);
	pnl_reply_free(&self->r);

	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_EP_GET, do_req, &self->r))
		TH_LOG("%s", self->r.msg);
	ASSERT_EQ(1U, self->r.nobjs);
	CHECK_ATTRS(&self->r.objs[0], ep_brief_core, false);
	EXPECT_EQ(0, pnl_missing(&self->r.objs[0], ep_brief_io));
	EXPECT_EQ(7U, nr_attrs(&self->r.objs[0]));
	EXPECT_EQ(nvme0, self->r.objs[0].u[PCIESW_A_EP_ID]);
	pnl_reply_free(&self->r);
}

/* ------------------------------------------------------------------ */
/* parallel_ops: no pciesw request holds the genl mutex                */

struct par_ctx {
	volatile bool stop;
	unsigned int family;
	unsigned long ok, failed;
	pthread_mutex_t lock;	/* protects ok and failed */
};

static void par_count(struct par_ctx *c, bool ok)
{
	pthread_mutex_lock(&c->lock);
	if (ok)
		c->ok++;
	else
		c->failed++;
	pthread_mutex_unlock(&c->lock);
}

/* pciesw requests: port dumps and counter gets of switch 0 */
static void *par_pciesw(void *arg)
{
	struct par_ctx *c = arg;
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, 0), A_END };
	struct pnl_reply r;
	struct pnl p;

	if (pnl_open(&p)) {
		par_count(c, false);
		return NULL;
	}
	while (!c->stop) {
		par_count(c, pnl_dump(&p, PCIESW_CMD_PORT_GET, req, &r) == 0 &&
			  r.nobjs > 0);
		pnl_reply_free(&r);
		par_count(c, pnl_do(&p, PCIESW_CMD_COUNTER_GET, req, &r) == 0 &&
			  r.nobjs == 1);
		pnl_reply_free(&r);
	}
	pnl_close(&p);
	return NULL;
}

/* nlctrl: CTRL_CMD_GETFAMILY of pciesw, as any genetlink user does */
static void *par_ctrl(void *arg)
{
	struct par_ctx *c = arg;
	unsigned long *n = calloc(1, sizeof(*n));
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk || !n || genl_connect(sk)) {
		par_count(c, false);
		goto out;
	}
	pnl_set_timeout(sk, 5000);
	while (!c->stop) {
		bool ok = genl_ctrl_resolve(sk, PCIESW_FAMILY_NAME) ==
			  (int)c->family;

		par_count(c, ok);
		if (ok)
			(*n)++;
	}
out:
	if (sk)
		nl_socket_free(sk);
	return n;
}

TEST_F_TIMEOUT(nl, parallel_ops, 120)
{
	struct par_ctx c = { .family = self->p.family };
	pthread_t pciesw[4], ctrl;
	unsigned long *lookups;
	unsigned int i;

	pthread_mutex_init(&c.lock, NULL);
	ASSERT_TRUE(sw_exists(0));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&pciesw[i], NULL, par_pciesw, &c));
	ASSERT_EQ(0, pthread_create(&ctrl, NULL, par_ctrl, &c));
	sleep(tp_slow() ? 10 : 3);
	c.stop = true;
	for (i = 0; i < 4; i++)
		pthread_join(pciesw[i], NULL);
	pthread_join(ctrl, (void **)&lookups);
	ASSERT_NE(NULL, lookups);
	EXPECT_EQ(0UL, c.failed);
	EXPECT_LT(0UL, *lookups) TH_LOG("no GETFAMILY answered");
	EXPECT_LT(*lookups, c.ok);
	TH_LOG("%lu requests, %lu of them GETFAMILY", c.ok, *lookups);
	free(lookups);
}

/* ------------------------------------------------------------------ */
/* Dump consistency per switch                                         */

#define DC_A	(ID_BASE + 40)	/* dumped: pex89144, a port dump of many skbs */
#define DC_B	(ID_BASE + 41)	/* changed while DC_A is dumped */

/* A raw genetlink socket: to read a dump one datagram at a time. */
static int dc_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 10 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Ask for the ports of switch @id on a new socket (the first round is built
 * right away); the socket, or -1.  New, because a socket's dump rounds grow
 * to the largest buffer it was read with: read with dc_recv()'s, a
 * pex89144's ports take several rounds.
 */
static int dc_send(int family, unsigned int id)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr g;
		struct nlattr a;
		uint32_t id;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = family,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			 .nlmsg_seq = 1 },
		.g = { .cmd = PCIESW_CMD_PORT_GET,
		       .version = PCIESW_FAMILY_VERSION },
		.a = { .nla_len = NLA_HDRLEN + 4,
		       .nla_type = PCIESW_A_SWITCH_ID },
		.id = id,
	};
	int fd = dc_open();

	if (fd >= 0 && send(fd, &req, sizeof(req), 0) != sizeof(req)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

struct dc_result {
	unsigned int dgrams, ports, intr;
	int err;
};

static void dc_read(int fd, char *buf, size_t len, struct dc_result *res);

/*
 * Read the rest of the dump and close @fd; count its ports and the
 * NLM_F_DUMP_INTR marks (on any message, NLMSG_DONE included).
 */
static void dc_recv(int fd, struct dc_result *res)
{
	static char buf[8192];

	memset(res, 0, sizeof(*res));
	dc_read(fd, buf, sizeof(buf), res);
	close(fd);
}

static void dc_read(int fd, char *buf, size_t len, struct dc_result *res)
{

	for (;;) {
		ssize_t n = recv(fd, buf, len, 0);
		struct nlmsghdr *nlh;

		if (n <= 0) {
			res->err = n ? errno : EIO;
			return;
		}
		res->dgrams++;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				res->intr++;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				res->err = -((struct nlmsgerr *)
					     NLMSG_DATA(nlh))->error;
				return;
			}
			if (nlh->nlmsg_type == NLMSG_DONE)
				return;
			res->ports++;
		}
	}
}

static void dc_port_enable(struct pnl *p, unsigned int id, unsigned int port,
			   bool on)
{
	struct pnl_attr req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id), A_U32(PCIESW_A_PORT_ID, port),
		A_U8(PCIESW_A_PORT_ENABLED, on), A_END,
	};
	struct pnl_reply r;

	pnl_do(p, PCIESW_CMD_PORT_SET, req, &r);
	pnl_reply_free(&r);
}

struct dc_churn {
	volatile bool stop;
	unsigned long rounds;
};

/* pciesw DC_B: a downstream port disabled and enabled again, over and over */
static void *dc_churn(void *arg)
{
	struct dc_churn *c = arg;
	struct pnl p;

	if (pnl_open(&p))
		return NULL;
	while (!c->stop) {
		dc_port_enable(&p, DC_B, 1, false);
		dc_port_enable(&p, DC_B, 1, true);
		c->rounds++;
	}
	pnl_close(&p);
	return NULL;
}

/*
 * A dump of one switch is marked NLM_F_DUMP_INTR when that switch changes
 * between two of its rounds, and only then: changes of another switch,
 * however many, do not mark it.
 */
TEST_F_TIMEOUT(nl, dump_consistency_per_switch, 300)
{
	struct dc_churn churn = { };
	unsigned int i, rounds = tp_reduce(20, 5, "dump rounds");
	struct dc_result res;
	uint64_t end;
	long nports;
	pthread_t t;
	int fd;

	ASSERT_EQ(0, sw_new(DC_A, "pex89144"));
	ASSERT_EQ(0, sw_new(DC_B, "pex89048"));
	nports = sw_attr_u32(DC_A, "nr_ports");
	ASSERT_LT(1, nports);
	/* training links are changes of DC_A: let them settle first */
	ASSERT_TRUE(pnl_wait_trained(&self->p, DC_A, 30000));
	ASSERT_TRUE(pnl_wait_trained(&self->p, DC_B, 30000));
	/* the dump needs several rounds, or nothing could come between */
	fd = dc_send(self->p.family, DC_A);
	ASSERT_LE(0, fd);
	dc_recv(fd, &res);
	ASSERT_EQ(0, res.err);
	ASSERT_EQ((unsigned int)nports, res.ports);
	ASSERT_LT(1U, res.dgrams);
	EXPECT_EQ(0U, res.intr);

	/* a change of DC_B between the rounds: not an interruption */
	fd = dc_send(self->p.family, DC_A);
	ASSERT_LE(0, fd);
	dc_port_enable(&self->p, DC_B, 1, false);
	dc_port_enable(&self->p, DC_B, 1, true);
	dc_recv(fd, &res);
	EXPECT_EQ(0, res.err);
	EXPECT_EQ((unsigned int)nports, res.ports);
	EXPECT_EQ(0U, res.intr) TH_LOG("a change of pciesw%u marked a dump of pciesw%u",
				       DC_B, DC_A);

	/*
	 * DC_B changing all the time: no dump of DC_A is marked (at least
	 * @rounds dumps, and until DC_B changed 10 times or a minute passed)
	 */
	ASSERT_EQ(0, pthread_create(&t, NULL, dc_churn, &churn));
	end = tp_now_ns() + 60ULL * 1000000000;
	for (i = 0; i < rounds || (churn.rounds < 10 && tp_now_ns() < end);
	     i++) {
		fd = dc_send(self->p.family, DC_A);
		EXPECT_LE(0, fd);
		if (fd < 0)
			break;
		dc_recv(fd, &res);
		EXPECT_EQ(0, res.err);
		EXPECT_EQ((unsigned int)nports, res.ports);
		EXPECT_EQ(0U, res.intr) TH_LOG("round %u", i);
	}
	churn.stop = true;
	pthread_join(t, NULL);
	EXPECT_LT(0UL, churn.rounds);
	TH_LOG("%u dumps while pciesw%u changed %lu times", i, DC_B,
	       churn.rounds);

	/* a change of DC_A itself between the rounds: marked */
	fd = dc_send(self->p.family, DC_A);
	ASSERT_LE(0, fd);
	dc_port_enable(&self->p, DC_A, 1, false);
	dc_recv(fd, &res);
	EXPECT_EQ(0, res.err);
	EXPECT_EQ((unsigned int)nports, res.ports);
	EXPECT_LT(0U, res.intr) TH_LOG("a change of pciesw%u did not mark its dump",
				       DC_A);
	dc_port_enable(&self->p, DC_A, 1, true);

	sw_del(DC_B);
	sw_del(DC_A);
}

TEST_HARNESS_MAIN

