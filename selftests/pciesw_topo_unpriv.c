// SPDX-License-Identifier: GPL-2.0
/*
 * The live topology as an unprivileged user (a forked child that became
 * nobody): every get and dump (groups, ports with their LTSSM history,
 * endpoints), every readable sysfs file of the groups, ports and endpoints,
 * and the monitor group work and show what root sees but a drive's serial
 * number; group-set, port-set, ep-add and ep-del are EPERM, writing group
 * config, ep_add and ep_remove is EACCES, and nothing changes.
 *
 * Switch ids used here: 190.
 */
#include <grp.h>
#include <sys/wait.h>

#include "pciesw_topo.h"

#define ID		190U

FIXTURE(unpriv)
{
	struct pnl p;
	struct tp_reply ports;		/* as root saw them */
	struct pnl_reply groups, eps;
};

FIXTURE_SETUP(unpriv)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	if (geteuid() != 0)
		SKIP(return, "must start as root to drop to nobody");
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID, NULL));
	/* one empty port, one degraded link: more to see */
	ASSERT_EQ(0, tp_ep_del_name(&self->p, ID, "nvme3"));
	ASSERT_EQ(0, tp_port_set1(&self->p, ID, 1,
				  (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, 0x8000)));
	ASSERT_TRUE(tp_wait_ltssm(&self->p, ID, 1, PCIESW_LTSSM_L0, NULL));
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	ASSERT_EQ(0, tp_ports(&self->p, ID, &self->ports));
	ASSERT_EQ(6U, self->ports.r.nobjs);
	ASSERT_EQ(8U, self->ports.r.objs[1].u[PCIESW_A_PORT_WIDTH]);
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_GROUP_GET, req,
			      &self->groups));
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET, req, &self->eps));
}

FIXTURE_TEARDOWN(unpriv)
{
	tp_reply_free(&self->ports);
	pnl_reply_free(&self->groups);
	pnl_reply_free(&self->eps);
	pnl_close(&self->p);
	if (sw_exists(ID))
		sw_del(ID);
}

/* ------------------------------------------------------------------ */

/* As root: the modes that make the rest mean something. */
TEST_F(unpriv, modes)
{
	static const char *const ro[] = {
		"ltssm_state", "ltssm_history", "current_link_speed",
		"current_link_width", "degraded", "acs_redirect", "enabled",
		"failed_lanes", "link_state", "endpoint", NULL };
	char path[PATH_MAX];
	struct stat st;
	unsigned int i;

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/group_nvme/config",
		 ID);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0644U, st.st_mode & 07777);
	EXPECT_EQ(0U, st.st_uid);
	for (i = 0; ro[i]; i++) {
		snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port1/%s",
			 ID, ro[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", ro[i]);
		EXPECT_EQ(0444U, st.st_mode & 07777) TH_LOG("%s", ro[i]);
	}
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port1/ep_add", ID);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0200U, st.st_mode & 07777);
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port1/ep_remove",
		 ID);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0200U, st.st_mode & 07777);
}

static void nobody_gets(struct __test_metadata *_metadata,
			FIXTURE_DATA(unpriv) *self)
{
	struct pnl_attr sw[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	struct pnl_reply r;
	struct tp_reply t;
	struct pnl_obj o;
	struct tp_hist h;
	unsigned int i;
	struct pnl p;

	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	/* port dump and port-get, with the LTSSM history */
	EXPECT_EQ(0, tp_ports(&p, ID, &t));
	EXPECT_EQ(self->ports.r.nobjs, t.r.nobjs);
	for (i = 0; i < t.r.nobjs && i < self->ports.r.nobjs; i++) {
		EXPECT_EQ(0, memcmp(&self->ports.r.objs[i], &t.r.objs[i],
				    sizeof(o))) TH_LOG("port %u", i);
		EXPECT_EQ(0, memcmp(&self->ports.h[i], &t.h[i], sizeof(h)))
			TH_LOG("port %u history", i);
		EXPECT_EQ(0, tp_port_get(&p, ID, i, &o, &h));
		EXPECT_EQ(0, memcmp(&self->ports.r.objs[i], &o, sizeof(o)));
	}
	tp_reply_free(&t);
	/* all ports of all switches */
	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_PORT_GET, NULL, &r));
	EXPECT_LT(self->ports.r.nobjs, r.nobjs);
	pnl_reply_free(&r);
	/* groups */
	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_GROUP_GET, sw, &r));
	EXPECT_EQ(self->groups.nobjs, r.nobjs);
	for (i = 0; i < r.nobjs && i < self->groups.nobjs; i++)
		EXPECT_EQ(0, memcmp(&self->groups.objs[i], &r.objs[i],
				    sizeof(o)));
	pnl_reply_free(&r);
	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_GROUP_GET,
			    (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, ID),
				A_U32(PCIESW_A_GROUP_ID, 2), A_END }, &r));
	EXPECT_EQ(1U, r.nobjs);
	if (r.nobjs == 1)
		EXPECT_STREQ("4x4", r.objs[0].s[PCIESW_A_GROUP_CONFIG]);
	pnl_reply_free(&r);
	/* endpoints */
	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_EP_GET, sw, &r));
	EXPECT_EQ(self->eps.nobjs, r.nobjs);
	for (i = 0; i < r.nobjs && i < self->eps.nobjs; i++) {
		o = self->eps.objs[i];
		/* what root saw but a drive's serial number */
		EXPECT_EQ(pnl_has(&o, PCIESW_A_NVME_MODEL),
			  pnl_has(&o, PCIESW_A_NVME_SERIAL)) TH_LOG("ep %u", i);
		EXPECT_FALSE(pnl_has(&r.objs[i], PCIESW_A_NVME_SERIAL));
		o.count[PCIESW_A_NVME_SERIAL] = 0;
		memset(o.s[PCIESW_A_NVME_SERIAL], 0, PNL_STR_LEN);
		/* the drive's temperature is live: the model's, not fixed */
		o.u[PCIESW_A_NVME_TEMP] = r.objs[i].u[PCIESW_A_NVME_TEMP];
		EXPECT_EQ(0, memcmp(&o, &r.objs[i], sizeof(o)))
			TH_LOG("ep %u", i);
	}
	pnl_reply_free(&r);
	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_EP_GET,
			    (struct pnl_attr[]){
				A_U32(PCIESW_A_SWITCH_ID, ID),
				A_STR(PCIESW_A_EP_NAME, "gpu0"), A_END }, &r));
	EXPECT_EQ(1U, r.nobjs);
	pnl_reply_free(&r);
	/* errors are the same as root's, not EPERM */
	EXPECT_EQ(ENOENT, pnl_do(&p, PCIESW_CMD_EP_GET,
				 (struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, ID),
					A_STR(PCIESW_A_EP_NAME, "nvme3"),
					A_END }, &r));
	pnl_reply_free(&r);
	pnl_close(&p);
}

TEST_F(unpriv, netlink_gets)
{
	PCIESW_AS_NOBODY(nobody_gets, self);
}

/* Every regular file of a directory that root can read: @dir/NAME. */
struct files {
	unsigned int n;
	char name[64][64];
	char val[64][4096];
};

static void read_dir(const char *dir, struct files *f)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[PATH_MAX];
	struct stat st;

	if (!d)
		return;
	while ((de = readdir(d)) && f->n < 64) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* only what everybody may read */
		if (de->d_name[0] == '.' || stat(path, &st) ||
		    !S_ISREG(st.st_mode) || !(st.st_mode & 0004))
			continue;
		snprintf(f->name[f->n], sizeof(f->name[0]), "%.63s", de->d_name);
		if (sysfs_read(path, f->val[f->n], sizeof(f->val[0])))
			snprintf(f->val[f->n], sizeof(f->val[0]), "<error>");
		f->n++;
	}
	closedir(d);
}

static const char *const sysfs_dirs[] = {
	"pciesw190", "pciesw190/group_host", "pciesw190/group_gpu",
	"pciesw190/group_nvme", "pciesw190-port0", "pciesw190-port1",
	"pciesw190-port5", "pciesw190-gpu0", "pciesw190-nvme0",
};
#define NR_DIRS	(sizeof(sysfs_dirs) / sizeof(sysfs_dirs[0]))

static void nobody_sysfs(struct __test_metadata *_metadata,
			 struct files *root)
{
	struct files *f = calloc(1, sizeof(*f));
	char dir[PATH_MAX];
	unsigned int d, i;

	if (!f)
		return;
	for (d = 0; d < NR_DIRS; d++) {
		snprintf(dir, sizeof(dir), PCIESW_DEVS "/%s", sysfs_dirs[d]);
		f->n = 0;
		read_dir(dir, f);
		EXPECT_EQ(root[d].n, f->n) TH_LOG("%s", sysfs_dirs[d]);
		for (i = 0; i < f->n && i < root[d].n; i++) {
			EXPECT_STREQ(root[d].name[i], f->name[i]);
			EXPECT_STREQ(root[d].val[i], f->val[i])
				TH_LOG("%s/%s", sysfs_dirs[d], f->name[i]);
		}
	}
	free(f);
}

TEST_F(unpriv, sysfs_reads)
{
	struct files *root = calloc(NR_DIRS, sizeof(*root));
	char dir[PATH_MAX];
	unsigned int d, total = 0;

	ASSERT_NE(NULL, root);
	for (d = 0; d < NR_DIRS; d++) {
		snprintf(dir, sizeof(dir), PCIESW_DEVS "/%s", sysfs_dirs[d]);
		read_dir(dir, &root[d]);
		EXPECT_LT(3U, root[d].n) TH_LOG("%s", sysfs_dirs[d]);
		total += root[d].n;
	}
	EXPECT_LT(60U, total);
	PCIESW_AS_NOBODY(nobody_sysfs, root);
	free(root);
}

static void nobody_changes(struct __test_metadata *_metadata)
{
	const uint64_t size = 1 << 20;
	const struct {
		const char *what;
		uint8_t cmd;
		struct pnl_attr req[5];
	} cases[] = {
		{ "group-set by name", PCIESW_CMD_GROUP_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_STR(PCIESW_A_GROUP_NAME, "nvme"),
		    A_STR(PCIESW_A_GROUP_CONFIG, "16x1"), A_END } },
		{ "group-set by id", PCIESW_CMD_GROUP_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_GROUP_ID, 1),
		    A_STR(PCIESW_A_GROUP_CONFIG, "4x4"), A_END } },
		{ "group-set, bad config", PCIESW_CMD_GROUP_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_STR(PCIESW_A_GROUP_NAME, "nvme"),
		    A_STR(PCIESW_A_GROUP_CONFIG, "3x5"), A_END } },
		{ "port-set disable", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U8(PCIESW_A_PORT_ENABLED, 0), A_END } },
		{ "port-set failed lanes", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_U32(PCIESW_A_PORT_FAILED_LANES, 0), A_END } },
		{ "port-set target speed", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 0),
		    A_U32(PCIESW_A_PORT_TARGET_SPEED, 1), A_END } },
		{ "port-set acs", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 2),
		    A_U8(PCIESW_A_PORT_ACS_REDIRECT, 1), A_END } },
		{ "port-set retrain", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_FLAG(PCIESW_A_PORT_RETRAIN), A_END } },
		{ "port-set hot reset", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_FLAG(PCIESW_A_PORT_HOT_RESET), A_END } },
		{ "port-set surprise down", PCIESW_CMD_PORT_SET,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1),
		    A_FLAG(PCIESW_A_PORT_SURPRISE_DOWN_NOW), A_END } },
		{ "ep-add", PCIESW_CMD_EP_ADD,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 5),
		    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_GPU),
		    A_RAW(PCIESW_A_EP_MEM_SIZE, &size, 8), A_END } },
		{ "ep-del by name", PCIESW_CMD_EP_DEL,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_STR(PCIESW_A_EP_NAME, "nvme0"), A_END } },
		{ "ep-del by id", PCIESW_CMD_EP_DEL,
		  { A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_EP_ID, 0),
		    A_END } },
		{ "ep-del of nothing", PCIESW_CMD_EP_DEL,
		  { A_U32(PCIESW_A_SWITCH_ID, ID),
		    A_STR(PCIESW_A_EP_NAME, "nvme9"), A_END } },
	};
	struct pnl_reply r;
	struct pnl p;
	unsigned int i;
	int err;

	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(EPERM, pnl_do(&p, cases[i].cmd, cases[i].req, &r))
			TH_LOG("%s", cases[i].what);
		pnl_reply_free(&r);
	}
	pnl_close(&p);

	/* the files say no before anything is parsed */
	err = group_write_config(ID, "nvme", "16x1\n");
	EXPECT_EQ(-EACCES, err) TH_LOG("group_nvme/config: %s", strerror(-err));
	err = group_write_config(ID, "gpu", "bogus\n");
	EXPECT_EQ(-EACCES, err);
	err = port_write(ID, 5, "ep_add", "gpu\n");
	EXPECT_EQ(-EACCES, err) TH_LOG("ep_add: %s", strerror(-err));
	err = port_write(ID, 2, "ep_remove", "1\n");
	EXPECT_EQ(-EACCES, err) TH_LOG("ep_remove: %s", strerror(-err));
	err = port_write(ID, 5, "ep_remove", "1\n");
	EXPECT_EQ(-EACCES, err);
	err = port_write(ID, 1, "enabled", "0\n");
	EXPECT_EQ(-EACCES, err);
}

TEST_F(unpriv, changes_refused)
{
	struct pnl_attr sw[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	struct pnl_reply g, e;
	struct tp_reply t;
	unsigned int i;

	PCIESW_AS_NOBODY(nobody_changes);

	/* nothing changed: same groups, ports (and histories), endpoints */
	ASSERT_EQ(0, tp_ports(&self->p, ID, &t));
	ASSERT_EQ(self->ports.r.nobjs, t.r.nobjs);
	for (i = 0; i < t.r.nobjs; i++) {
		EXPECT_EQ(0, memcmp(&self->ports.r.objs[i], &t.r.objs[i],
				    sizeof(t.r.objs[0]))) TH_LOG("port %u", i);
		EXPECT_EQ(0, memcmp(&self->ports.h[i], &t.h[i],
				    sizeof(t.h[0]))) TH_LOG("port %u", i);
	}
	tp_reply_free(&t);
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_GROUP_GET, sw, &g));
	ASSERT_EQ(self->groups.nobjs, g.nobjs);
	for (i = 0; i < g.nobjs; i++)
		EXPECT_EQ(0, memcmp(&self->groups.objs[i], &g.objs[i],
				    sizeof(g.objs[0])));
	pnl_reply_free(&g);
	ASSERT_EQ(0, pnl_dump(&self->p, PCIESW_CMD_EP_GET, sw, &e));
	ASSERT_EQ(self->eps.nobjs, e.nobjs);
	pnl_reply_free(&e);
	EXPECT_TRUE(ep_dev_exists(ID, "nvme0"));
	EXPECT_FALSE(ep_dev_exists(ID, "gpu1"));
}

/*
 * nobody on the monitor group sees root's changes: the group change and
 * the port's notifications.
 */
static void nobody_monitors(struct __test_metadata *_metadata, int ready,
			    int go)
{
	struct pnl_reply ntf;
	struct pnl mon;
	unsigned int i, groups = 0, ports = 0;
	char c = 1;

	EXPECT_EQ(0, pnl_open_monitor(&mon));
	if (!mon.sk)
		return;
	EXPECT_EQ(1, write(ready, &c, 1));
	EXPECT_EQ(1, read(go, &c, 1));
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&mon, 200, &ntf);
	for (i = 0; i < ntf.nobjs; i++) {
		const struct pnl_obj *o = &ntf.objs[i];

		if (o->u[PCIESW_A_SWITCH_ID] != ID)
			continue;
		if (o->cmd == PCIESW_CMD_GROUP_CHANGE_NTF) {
			groups++;
			EXPECT_STREQ("8x2", o->s[PCIESW_A_GROUP_CONFIG]);
		}
		ports += o->cmd == PCIESW_CMD_PORT_CHANGE_NTF;
	}
	EXPECT_EQ(1U, groups);
	EXPECT_LE(4U, ports);
	pnl_reply_free(&ntf);
	pnl_close(&mon);
}

TEST_F(unpriv, monitor)
{
	int ready[2], go[2];
	struct pnl_reply r;
	pid_t pid;
	int st;
	char c;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		EXPECT_TRUE(pciesw_drop_to_nobody());
		if (_metadata->exit_code == KSFT_PASS)
			nobody_monitors(_metadata, ready[1], go[0]);
		fflush(NULL);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	EXPECT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", "8x2", &r));
	pnl_reply_free(&r);
	ASSERT_TRUE(tp_wait_trained(&self->p, ID));
	EXPECT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

TEST_HARNESS_MAIN
