// SPDX-License-Identifier: GPL-2.0
/*
 * What an unprivileged user can and cannot do: reads (sysfs, netlink get
 * ops, the monitor group) work; changes (switch-new/switch-del, new_device,
 * del_device) are refused; /dev/pcieswN is root-only (0600, devtmpfs
 * default).  Each check runs in a forked child that became nobody
 * (setgroups/setgid/setuid 65534) and reports through EXPECT only.
 *
 * Switch ids used here: 230-239.
 */
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "pciesw_test.h"

#define ID		230	/* exists during each test */
#define ID_FREE		231	/* never exists */

static const char *const sw_attrs[] = {
	"switch_id", "profile", "description", "part_number", "lanes",
	"serial_number", "nr_ports",
};
#define NR_ATTRS (sizeof(sw_attrs) / sizeof(sw_attrs[0]))

FIXTURE(unpriv)
{
	char attr[NR_ATTRS][128];
	unsigned int nr_switches;
};

FIXTURE_SETUP(unpriv)
{
	unsigned int ids[300], i;
	int n;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	if (geteuid() != 0)
		SKIP(return, "must start as root to drop to nobody");
	if (sw_exists(ID))
		sw_del(ID);
	ASSERT_EQ(0, sw_new(ID, "tiny8"));
	for (i = 0; i < NR_ATTRS; i++)
		ASSERT_EQ(0, sw_attr(ID, sw_attrs[i], self->attr[i],
				     sizeof(self->attr[i])));
	n = sysfs_switch_ids(ids, 300);
	ASSERT_LT(0, n);
	self->nr_switches = n;
}

FIXTURE_TEARDOWN(unpriv)
{
	if (sw_exists(ID))
		sw_del(ID);
	if (sw_exists(ID_FREE))
		sw_del(ID_FREE);
}

static int capset_eff(uint64_t eff, uint64_t perm)
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

/* ------------------------------------------------------------------ */

/* As root: what the permissions are, so the rest means something. */
TEST_F(unpriv, modes)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned int i;

	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600U, st.st_mode & 07777) TH_LOG("%s mode %o", path,
						    st.st_mode & 07777);
	EXPECT_EQ(0U, st.st_uid);
	EXPECT_EQ(0U, st.st_gid);

	ASSERT_EQ(0, stat(PCIESW_BUS "/new_device", &st));
	EXPECT_EQ(0200U, st.st_mode & 07777);
	EXPECT_EQ(0U, st.st_uid);
	ASSERT_EQ(0, stat(PCIESW_BUS "/del_device", &st));
	EXPECT_EQ(0200U, st.st_mode & 07777);
	EXPECT_EQ(0U, st.st_uid);

	for (i = 0; i < NR_ATTRS; i++) {
		snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/%s", ID,
			 sw_attrs[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
		EXPECT_EQ(0444U, st.st_mode & 07777) TH_LOG("%s", path);
	}
}

static void nobody_reads_sysfs(struct __test_metadata *_metadata,
			       FIXTURE_DATA(unpriv) *self)
{
	unsigned int ids[300], i;
	char buf[128];

	for (i = 0; i < NR_ATTRS; i++) {
		EXPECT_EQ(0, sw_attr(ID, sw_attrs[i], buf, sizeof(buf)))
			TH_LOG("%s", sw_attrs[i]);
		EXPECT_STREQ(self->attr[i], buf);
	}
	EXPECT_EQ((int)self->nr_switches, sysfs_switch_ids(ids, 300));
	EXPECT_EQ(0, sysfs_read("/sys/module/pciesw/parameters/nr_switches",
				buf, sizeof(buf)));
}

TEST_F(unpriv, sysfs_reads)
{
	PCIESW_AS_NOBODY(nobody_reads_sysfs, self);
}

static void nobody_reads_netlink(struct __test_metadata *_metadata,
				 FIXTURE_DATA(unpriv) *self)
{
	struct pnl_attr one[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	struct pnl_attr port[] = {
		A_U32(PCIESW_A_SWITCH_ID, ID), A_U32(PCIESW_A_PORT_ID, 1), A_END,
	};
	struct pnl_reply r;
	struct pnl p;

	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_SWITCH_GET, NULL, &r));
	EXPECT_EQ(self->nr_switches, r.nobjs);
	pnl_reply_free(&r);

	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_SWITCH_GET, one, &r));
	EXPECT_EQ(1U, r.nobjs);
	if (r.nobjs == 1) {
		EXPECT_STREQ(self->attr[5], r.objs[0].s[PCIESW_A_SWITCH_SERIAL]);
		EXPECT_STREQ("tiny8", r.objs[0].s[PCIESW_A_SWITCH_PROFILE]);
	}
	pnl_reply_free(&r);

	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_PORT_GET, one, &r));
	EXPECT_EQ(3U, r.nobjs);
	pnl_reply_free(&r);
	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_PORT_GET, port, &r));
	EXPECT_EQ(1U, r.nobjs);
	pnl_reply_free(&r);

	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_GROUP_GET, one, &r));
	EXPECT_EQ(2U, r.nobjs);
	pnl_reply_free(&r);
	/* all ports of all switches */
	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_PORT_GET, NULL, &r));
	EXPECT_LE(3U + 1, r.nobjs);
	pnl_reply_free(&r);

	/* errors are the same as for root, not EPERM */
	EXPECT_EQ(ENODEV, pnl_do(&p, PCIESW_CMD_SWITCH_GET,
				 (struct pnl_attr[]){
					A_U32(PCIESW_A_SWITCH_ID, ID_FREE),
					A_END }, &r));
	EXPECT_STREQ("no such switch", r.msg);
	pnl_close(&p);
}

TEST_F(unpriv, netlink_reads)
{
	PCIESW_AS_NOBODY(nobody_reads_netlink, self);
}

static void nobody_changes_netlink(struct __test_metadata *_metadata)
{
	struct pnl_attr new_free[] = {
		A_U32(PCIESW_A_SWITCH_ID, ID_FREE),
		A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END,
	};
	struct pnl_attr del_id[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	struct pnl_attr del_free[] = { A_U32(PCIESW_A_SWITCH_ID, ID_FREE),
				       A_END };
	struct pnl_reply r;
	struct pnl p;
	int cmd;

	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_NEW, new_free, &r));
	pnl_reply_free(&r);
	/* permission comes before existence */
	EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_NEW, del_id, &r));
	pnl_reply_free(&r);
	EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_DEL, del_id, &r));
	pnl_reply_free(&r);
	EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_DEL, del_free, &r));
	pnl_reply_free(&r);
	/* and before validation */
	EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_NEW, NULL, &r));
	pnl_reply_free(&r);

	/* every op the spec marks admin-perm, and only those */
	for (cmd = 1; cmd <= SPEC_CMD_MAX; cmd++) {
		const struct spec_op *op = &spec_ops[cmd];
		int err;

		if (!op->has_do)
			continue;
		err = pnl_do(&p, cmd, NULL, &r);
		if (op->admin) {
			EXPECT_EQ(EPERM, err) TH_LOG("%s", op->name);
		} else {
			EXPECT_NE(EPERM, err) TH_LOG("%s", op->name);
		}
		pnl_reply_free(&r);
	}
	pnl_close(&p);
}

TEST_F(unpriv, netlink_changes_refused)
{
	PCIESW_AS_NOBODY(nobody_changes_netlink);
	/* nothing happened */
	EXPECT_TRUE(sw_exists(ID));
	EXPECT_FALSE(sw_exists(ID_FREE));
}

static void nobody_changes_sysfs(struct __test_metadata *_metadata)
{
	char buf[16];
	int err;

	snprintf(buf, sizeof(buf), "%u tiny8\n", ID_FREE);
	err = sysfs_write(PCIESW_BUS "/new_device", buf);
	EXPECT_TRUE(err == -EACCES || err == -EPERM) TH_LOG("%s",
							     strerror(-err));
	snprintf(buf, sizeof(buf), "%u\n", ID);
	err = sysfs_write(PCIESW_BUS "/del_device", buf);
	EXPECT_TRUE(err == -EACCES || err == -EPERM) TH_LOG("%s",
							     strerror(-err));
	/* read-only attributes stay read-only */
	err = sysfs_write(PCIESW_DEVS "/pciesw230/profile", "pex89048\n");
	EXPECT_TRUE(err == -EACCES || err == -EPERM) TH_LOG("%s",
							     strerror(-err));
}

TEST_F(unpriv, sysfs_changes_refused)
{
	PCIESW_AS_NOBODY(nobody_changes_sysfs);
	EXPECT_TRUE(sw_exists(ID));
	EXPECT_FALSE(sw_exists(ID_FREE));
}

static void nobody_chardev(struct __test_metadata *_metadata, int root_fd)
{
	struct pciesw_info info;
	char path[64];

	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	errno = 0;
	EXPECT_EQ(-1, open(path, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
	errno = 0;
	EXPECT_EQ(-1, open(path, O_RDWR));
	EXPECT_EQ(EACCES, errno);

	/* a file opened by root and handed down still answers INFO */
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	EXPECT_EQ(0, ioctl(root_fd, PCIESW_IOC_INFO, &info));
	EXPECT_EQ((__u32)ID, info.switch_id);
}

TEST_F(unpriv, chardev)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	PCIESW_AS_NOBODY(nobody_chardev, fd);
	close(fd);
}

/* The monitor group needs no privilege. */
static void nobody_monitors(struct __test_metadata *_metadata, int go,
			    int done)
{
	const struct pnl_obj *sw[2];
	unsigned int i, n = 0;
	struct pnl_reply ntf;
	struct pnl mon;
	char c = 1;

	EXPECT_EQ(0, pnl_open_monitor(&mon));
	/* tell the parent to go on even if that failed */
	EXPECT_EQ(1, write(go, &c, 1));
	if (!mon.sk)
		return;
	EXPECT_EQ(1, read(done, &c, 1));
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&mon, 300, &ntf);
	/* the switch notifications; others (ports training) may come too */
	for (i = 0; i < ntf.nobjs; i++) {
		const struct pnl_obj *o = &ntf.objs[i];

		if (o->cmd != PCIESW_CMD_SWITCH_CREATE_NTF &&
		    o->cmd != PCIESW_CMD_SWITCH_DELETE_NTF)
			continue;
		if (n < 2)
			sw[n] = o;
		n++;
	}
	EXPECT_EQ(2U, n);
	if (n == 2) {
		EXPECT_EQ(PCIESW_CMD_SWITCH_CREATE_NTF, sw[0]->cmd);
		EXPECT_EQ((uint32_t)ID_FREE, sw[0]->u[PCIESW_A_SWITCH_ID]);
		EXPECT_EQ(PCIESW_CMD_SWITCH_DELETE_NTF, sw[1]->cmd);
		EXPECT_EQ((uint32_t)ID_FREE, sw[1]->u[PCIESW_A_SWITCH_ID]);
	}
	pnl_reply_free(&ntf);
	pnl_close(&mon);
}

TEST_F(unpriv, monitor)
{
	int go[2], done[2], st;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		EXPECT_TRUE(pciesw_drop_to_nobody());
		nobody_monitors(_metadata, go[1], done[0]);
		_exit(0);
	}
	EXPECT_EQ(1, read(go[0], &c, 1));
	EXPECT_EQ(0, sw_new(ID_FREE, "tiny8"));
	EXPECT_EQ(0, sw_del(ID_FREE));
	EXPECT_EQ(1, write(done[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/*
 * The netlink check is CAP_NET_ADMIN, not uid 0: root without it is
 * refused, nobody with it is let in.
 */
TEST_F(unpriv, cap_net_admin)
{
	const uint64_t net_admin = 1ULL << CAP_NET_ADMIN;
	int st;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID_FREE),
			A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END,
		};
		struct pnl_attr del[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID_FREE), A_END,
		};
		uint64_t all = pciesw_cap_eff();
		struct pnl_reply r;
		struct pnl p;

		/* root minus CAP_NET_ADMIN */
		EXPECT_EQ(0, capset_eff(all & ~net_admin, all));
		EXPECT_EQ(0ULL, pciesw_cap_eff() & net_admin);
		EXPECT_EQ(0, pnl_open(&p));
		if (p.sk) {
			EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_NEW, req,
						&r));
			pnl_close(&p);
		}
		EXPECT_FALSE(sw_exists(ID_FREE));

		/* nobody with CAP_NET_ADMIN only */
		EXPECT_EQ(0, prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
		EXPECT_EQ(0, setgroups(0, NULL));
		EXPECT_EQ(0, setgid(PCIESW_NOBODY));
		EXPECT_EQ(0, setuid(PCIESW_NOBODY));
		EXPECT_EQ(0, capset_eff(net_admin, net_admin));
		EXPECT_EQ(net_admin, pciesw_cap_eff());
		EXPECT_EQ(0, pnl_open(&p));
		if (p.sk) {
			EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_SWITCH_NEW, req,
					    &r));
			EXPECT_TRUE(sw_exists(ID_FREE));
			EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_SWITCH_DEL, del,
					    &r));
			pnl_close(&p);
		}
		fflush(NULL);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_FALSE(sw_exists(ID_FREE));
}

TEST_HARNESS_MAIN
