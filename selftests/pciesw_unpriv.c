// SPDX-License-Identifier: GPL-2.0
/*
 * What an unprivileged user can and cannot do: reads (sysfs, netlink get
 * ops, the event log, the monitor group) work but for the VPD and serial
 * numbers (root-only, like the PCI core's vpd); changes (switch-new/switch-del,
 * new_device, del_device) are refused; /dev/pcieswN is root-only (0600,
 * devtmpfs default).  Each check runs in a forked child that became nobody
 * (setgroups/setgid/setuid 65534) and reports through EXPECT only.
 *
 * The privilege table of Documentation/architecture.md, row by row:
 * privileged_ops (nobody with only CAP_NET_ADMIN, netlink), no_sys_admin
 * (root without CAP_SYS_ADMIN: sysfs, debugfs, netlink), user_ns (root of
 * a user namespace, as a container's).
 *
 * Switch ids used here: 230-239.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
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
	"nr_ports",
};
#define NR_ATTRS (sizeof(sw_attrs) / sizeof(sw_attrs[0]))

/* root-only (0400), like the PCI core's vpd; asset_tag is 0600 */
static const char *const root_attrs[] = {
	"serial_number", "vpd", "vpd_info/id_string", "vpd_info/part_number",
	"vpd_info/engineering_change", "vpd_info/serial_number",
	"vpd_info/manufacturer_id", "vpd_info/firmware_version",
	"vpd_info/batch", "vpd_info/config",
};
#define NR_ROOT_ATTRS (sizeof(root_attrs) / sizeof(root_attrs[0]))

FIXTURE(unpriv)
{
	char attr[NR_ATTRS][128];
	char serial[128];
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
	ASSERT_EQ(0, sw_attr(ID, "serial_number", self->serial,
			     sizeof(self->serial)));
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
	for (i = 0; i < NR_ROOT_ATTRS; i++) {
		snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/%s", ID,
			 root_attrs[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
		EXPECT_EQ(0400U, st.st_mode & 07777) TH_LOG("%s", path);
	}
	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/vpd_info/asset_tag",
		 ID);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0600U, st.st_mode & 07777);
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
	for (i = 0; i < NR_ROOT_ATTRS; i++) {
		const char *a = root_attrs[i];

		EXPECT_EQ(-EACCES, sw_attr(ID, a, buf, sizeof(buf)))
			TH_LOG("%s", a ?: "?");
	}
	EXPECT_EQ(-EACCES, sw_attr(ID, "vpd_info/asset_tag", buf,
				   sizeof(buf)));
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
	unsigned int i;
	struct pnl p;

	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_SWITCH_GET, NULL, &r));
	EXPECT_EQ(self->nr_switches, r.nobjs);
	/* serial numbers are root-only */
	if (r.nobjs)
		EXPECT_FALSE(pnl_has(&r.objs[0], PCIESW_A_SWITCH_SERIAL));
	pnl_reply_free(&r);

	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_SWITCH_GET, one, &r));
	EXPECT_EQ(1U, r.nobjs);
	if (r.nobjs == 1) {
		EXPECT_FALSE(pnl_has(&r.objs[0], PCIESW_A_SWITCH_SERIAL));
		EXPECT_STREQ("tiny8", r.objs[0].s[PCIESW_A_SWITCH_PROFILE]);
	}
	pnl_reply_free(&r);

	/* and so is the VPD: do and dump */
	EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_VPD_GET, one, &r));
	EXPECT_STREQ("reading the VPD needs CAP_SYS_ADMIN", r.msg);
	EXPECT_EQ(0U, r.nobjs);
	pnl_reply_free(&r);
	EXPECT_EQ(EPERM, pnl_dump(&p, PCIESW_CMD_VPD_GET, NULL, &r));
	EXPECT_STREQ("reading the VPD needs CAP_SYS_ADMIN", r.msg);
	EXPECT_EQ(0U, r.nobjs);
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

	/* the event log: its creation entry, but no serial number in it */
	EXPECT_EQ(0, pnl_dump(&p, PCIESW_CMD_LOG_GET, one, &r));
	EXPECT_LE(1U, r.nobjs);
	if (r.nobjs)
		EXPECT_STREQ("created (tiny8)",
			     r.objs[0].s[PCIESW_A_LOG_MESSAGE]);
	for (i = 0; i < r.nobjs; i++) {
		EXPECT_EQ(NULL, strstr(r.objs[i].s[PCIESW_A_LOG_MESSAGE],
				       self->serial))
			TH_LOG("log entry %u: %s", i,
			       r.objs[i].s[PCIESW_A_LOG_MESSAGE]);
	}
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

	/*
	 * every op the spec marks admin-perm, and only those, but vpd-get
	 * (root-only, checked by the module, not by admin-perm)
	 */
	for (cmd = 1; cmd <= SPEC_CMD_MAX; cmd++) {
		const struct spec_op *op = &spec_ops[cmd];
		int err;

		if (!op->has_do)
			continue;
		err = pnl_do(&p, cmd, NULL, &r);
		if (op->admin || cmd == PCIESW_CMD_VPD_GET) {
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
	/* but not the serial number: root-only */
	EXPECT_STREQ("", info.serial);
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
 * The netlink check of plain settings is CAP_NET_ADMIN, not uid 0: root
 * without it is refused.
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
			A_U32(PCIESW_A_SWITCH_ID, ID),
			A_U8(PCIESW_A_SWITCH_HOST_P2P, 1), A_END,
		};
		uint64_t all = pciesw_cap_eff();
		struct pnl_reply r;
		struct pnl p;

		/* root minus CAP_NET_ADMIN */
		EXPECT_EQ(0, capset_eff(all & ~net_admin, all));
		EXPECT_EQ(0ULL, pciesw_cap_eff() & net_admin);
		EXPECT_EQ(0, pnl_open(&p));
		if (p.sk) {
			EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_SET, req,
						&r));
			pnl_close(&p);
		}
		fflush(NULL);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* One row of the privilege table: a request and what it gets. */
struct priv_row {
	const char *what;
	uint8_t cmd;
	bool dump;
	struct pnl_attr attrs[5];
	int err;		/* with only CAP_NET_ADMIN */
	const char *msg;	/* its extack, for EPERM */
};

#define SW_A		A_U32(PCIESW_A_SWITCH_ID, ID)
#define SYS_ADMIN(w)	EPERM, w " needs CAP_SYS_ADMIN"

static const struct priv_row priv_rows[] = {
	{ "switch-new", PCIESW_CMD_SWITCH_NEW, false,
	  { A_U32(PCIESW_A_SWITCH_ID, ID_FREE),
	    A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END },
	  SYS_ADMIN("creating a switch") },
	{ "switch-del", PCIESW_CMD_SWITCH_DEL, false, { SW_A, A_END },
	  SYS_ADMIN("deleting a switch") },
	{ "switch-set pci-view", PCIESW_CMD_SWITCH_SET, false,
	  { SW_A, A_U8(PCIESW_A_SWITCH_PCI_VIEW, 0), A_END },
	  SYS_ADMIN("toggling the PCI view") },
	{ "switch-set host-p2p and pci-view", PCIESW_CMD_SWITCH_SET, false,
	  { SW_A, A_U8(PCIESW_A_SWITCH_HOST_P2P, 0),
	    A_U8(PCIESW_A_SWITCH_PCI_VIEW, 0), A_END },
	  SYS_ADMIN("toggling the PCI view") },
	{ "ep-add", PCIESW_CMD_EP_ADD, false,
	  { SW_A, A_U32(PCIESW_A_PORT_ID, 1),
	    A_U32(PCIESW_A_EP_TYPE, PCIESW_EP_TYPE_NVME), A_END },
	  SYS_ADMIN("adding an endpoint") },
	{ "inject", PCIESW_CMD_INJECT, false,
	  { SW_A, A_U32(PCIESW_A_PORT_ID, 1),
	    A_U32(PCIESW_A_COUNTER_ID, PCIESW_COUNTER_ECRC),
	    A_U32(PCIESW_A_INJECT_COUNT, 1), A_END },
	  SYS_ADMIN("fault injection") },
	{ "nvme-inject", PCIESW_CMD_NVME_INJECT, false,
	  { SW_A, A_STR(PCIESW_A_EP_NAME, "nvme0"),
	    A_U32(PCIESW_A_NVME_FAULT, PCIESW_NVME_FAULT_SPARE),
	    A_U8(PCIESW_A_NVME_SPARE, 5), A_END },
	  SYS_ADMIN("fault injection") },
	{ "port-set ber", PCIESW_CMD_PORT_SET, false,
	  { SW_A, A_U32(PCIESW_A_PORT_ID, 1), A_U64(PCIESW_A_PORT_BER, 0),
	    A_END },
	  SYS_ADMIN("fault injection") },
	{ "port-set failed-lanes", PCIESW_CMD_PORT_SET, false,
	  { SW_A, A_U32(PCIESW_A_PORT_ID, 1),
	    A_U32(PCIESW_A_PORT_FAILED_LANES, 0), A_END },
	  SYS_ADMIN("fault injection") },
	{ "port-set surprise-down-now", PCIESW_CMD_PORT_SET, false,
	  { SW_A, A_U32(PCIESW_A_PORT_ID, 1),
	    A_RAW(PCIESW_A_PORT_SURPRISE_DOWN_NOW, NULL, 0), A_END },
	  SYS_ADMIN("fault injection") },
	{ "thermal-set sensor-override", PCIESW_CMD_THERMAL_SET, false,
	  { SW_A, A_S32(PCIESW_A_SENSOR_OVERRIDE, 50000), A_END },
	  SYS_ADMIN("a sensor override (fault injection)") },
	{ "thermal-set sensor-override-clear", PCIESW_CMD_THERMAL_SET, false,
	  { SW_A, A_RAW(PCIESW_A_SENSOR_OVERRIDE_CLEAR, NULL, 0), A_END },
	  SYS_ADMIN("a sensor override (fault injection)") },
	{ "vpd-get", PCIESW_CMD_VPD_GET, false, { SW_A, A_END },
	  SYS_ADMIN("reading the VPD") },
	{ "vpd-get dump", PCIESW_CMD_VPD_GET, true, { A_END },
	  SYS_ADMIN("reading the VPD") },
	/* plain settings: CAP_NET_ADMIN is enough */
	{ "switch-set host-p2p", PCIESW_CMD_SWITCH_SET, false,
	  { SW_A, A_U8(PCIESW_A_SWITCH_HOST_P2P, 0), A_END }, 0, NULL },
	{ "port-set enabled", PCIESW_CMD_PORT_SET, false,
	  { SW_A, A_U32(PCIESW_A_PORT_ID, 1), A_U8(PCIESW_A_PORT_ENABLED, 1),
	    A_END }, 0, NULL },
	{ "thermal-set ambient", PCIESW_CMD_THERMAL_SET, false,
	  { SW_A, A_S32(PCIESW_A_THERMAL_AMBIENT, 30000), A_END }, 0, NULL },
	{ "vpd-set", PCIESW_CMD_VPD_SET, false,
	  { SW_A, A_STR(PCIESW_A_VPD_KEYWORD, "YA"),
	    A_STR(PCIESW_A_VPD_VALUE, "net-admin"), A_END }, 0, NULL },
	{ "counter-clear", PCIESW_CMD_COUNTER_CLEAR, false, { SW_A, A_END },
	  0, NULL },
	{ "ep-del", PCIESW_CMD_EP_DEL, false,
	  { SW_A, A_STR(PCIESW_A_EP_NAME, "nvme1"), A_END }, 0, NULL },
	/* reads */
	{ "switch-get", PCIESW_CMD_SWITCH_GET, false, { SW_A, A_END }, 0, NULL },
	{ "ep-get dump", PCIESW_CMD_EP_GET, true, { SW_A, A_END }, 0, NULL },
};

/*
 * Each row as a process that has CAP_NET_ADMIN and nothing else (nobody,
 * capset): the CAP_SYS_ADMIN rows are refused with their message, the
 * others work; a refused request changes nothing; serial numbers are
 * left out of its replies.  @in_userns: instead, the root of a new user
 * namespace (all capabilities there, none in the initial one): every
 * change is refused (admin-perm wants CAP_NET_ADMIN in the initial user
 * namespace too), reads work as for nobody.
 */
static void priv_table(struct __test_metadata *_metadata, bool in_userns)
{
	const uint64_t net_admin = 1ULL << CAP_NET_ADMIN;
	struct pnl_reply r;
	unsigned int i;
	struct pnl p;
	char buf[128];

	if (!in_userns) {
		EXPECT_EQ(0, prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
		EXPECT_TRUE(pciesw_drop_to_nobody());
		EXPECT_EQ(0, capset_eff(net_admin, net_admin));
		EXPECT_EQ(net_admin, pciesw_cap_eff());
	} else {
		int fd;

		/* what unshare -Ur does, as nobody: root of its own userns */
		EXPECT_TRUE(pciesw_drop_to_nobody());
		/* setuid() made it undumpable: /proc/self would be root's */
		EXPECT_EQ(0, prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
		EXPECT_EQ(0, unshare(CLONE_NEWUSER)) TH_LOG("%s",
							     strerror(errno));
		fd = open("/proc/self/uid_map", O_WRONLY);
		EXPECT_LE(0, fd);
		snprintf(buf, sizeof(buf), "0 %u 1\n", PCIESW_NOBODY);
		EXPECT_EQ((ssize_t)strlen(buf), write(fd, buf, strlen(buf)));
		close(fd);
		EXPECT_EQ(0U, geteuid());
		EXPECT_NE(0ULL, pciesw_cap_eff() & net_admin);
	}
	if (_metadata->exit_code != KSFT_PASS)
		return;
	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	for (i = 0; i < sizeof(priv_rows) / sizeof(priv_rows[0]); i++) {
		const struct priv_row *row = &priv_rows[i];
		bool change = row->err || (row->cmd != PCIESW_CMD_SWITCH_GET &&
					   row->cmd != PCIESW_CMD_EP_GET);
		int want = in_userns && change ? EPERM : row->err;
		int err;

		err = row->dump ? pnl_dump(&p, row->cmd, row->attrs, &r) :
				  pnl_do(&p, row->cmd, row->attrs, &r);
		EXPECT_EQ(want, err) TH_LOG("%s: %s", row->what, r.msg);
		if (want == EPERM && row->msg && !in_userns)
			EXPECT_STREQ(row->msg, r.msg) TH_LOG("%s", row->what);
		if (!err && row->cmd == PCIESW_CMD_SWITCH_GET) {
			EXPECT_EQ(1U, r.nobjs);
			if (r.nobjs)
				EXPECT_FALSE(pnl_has(&r.objs[0],
						     PCIESW_A_SWITCH_SERIAL));
		}
		/* a drive's model, never its serial number */
		if (!err && row->cmd == PCIESW_CMD_EP_GET) {
			unsigned int k, drives = 0;

			for (k = 0; k < r.nobjs; k++) {
				drives += pnl_has(&r.objs[k],
						  PCIESW_A_NVME_MODEL);
				EXPECT_FALSE(pnl_has(&r.objs[k],
						     PCIESW_A_NVME_SERIAL));
			}
			EXPECT_LT(0U, drives);
		}
		pnl_reply_free(&r);
	}
	pnl_close(&p);
	/* nothing refused happened */
	EXPECT_FALSE(sw_exists(ID_FREE));
	EXPECT_TRUE(sw_exists(ID));
	EXPECT_EQ(0, sw_attr(ID, "pci_view", buf, sizeof(buf)));
}

static const struct pnl_attr nvme1[] = {
	A_U32(PCIESW_A_SWITCH_ID, ID), A_STR(PCIESW_A_EP_NAME, "nvme1"), A_END,
};

TEST_F(unpriv, privileged_ops)
{
	struct pnl_attr one[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	char buf[128];
	struct pnl_reply r;
	struct pnl p;
	int st;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		priv_table(_metadata, false);
		fflush(NULL);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* the plain settings did happen (host-p2p is 1 by default) */
	EXPECT_EQ(0, sw_attr(ID, "host_p2p", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	EXPECT_EQ(0, sw_attr(ID, "vpd_info/asset_tag", buf, sizeof(buf)));
	EXPECT_STREQ("net-admin", buf);
	ASSERT_EQ(0, pnl_open(&p));
	EXPECT_EQ(ENOENT, pnl_do(&p, PCIESW_CMD_EP_GET, nvme1, &r));
	pnl_reply_free(&r);

	/* root (CAP_SYS_ADMIN) gets the serial and the VPD */
	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_SWITCH_GET, one, &r));
	EXPECT_EQ(1U, r.nobjs);
	if (r.nobjs)
		EXPECT_STREQ(self->serial, r.objs[0].s[PCIESW_A_SWITCH_SERIAL]);
	pnl_reply_free(&r);
	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_VPD_GET, one, &r));
	EXPECT_EQ(1U, r.nobjs);
	pnl_reply_free(&r);
	pnl_close(&p);
}

TEST_F(unpriv, user_ns)
{
	struct pnl_reply r;
	struct pnl p;
	char buf[128];
	int st;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		priv_table(_metadata, true);
		fflush(NULL);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_EQ(0, sw_attr(ID, "host_p2p", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	ASSERT_EQ(0, pnl_open(&p));
	EXPECT_EQ(0, pnl_do(&p, PCIESW_CMD_EP_GET, nvme1, &r));
	pnl_reply_free(&r);
	pnl_close(&p);
}

/*
 * Root without CAP_SYS_ADMIN (but with CAP_NET_ADMIN and
 * CAP_DAC_OVERRIDE, so file modes let it write): the sysfs and debugfs
 * writes that create switches or endpoints, toggle the PCI view or inject
 * faults are refused with EPERM; a plain setting is not; nor is netlink's
 * switch-new let through.
 */
TEST_F(unpriv, no_sys_admin)
{
	const uint64_t sys_admin = 1ULL << CAP_SYS_ADMIN;
	char buf[32];
	int st;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		static const struct {
			const char *path, *val;
		} refused[] = {
			{ PCIESW_BUS "/new_device", "231 tiny8\n" },
			{ PCIESW_BUS "/del_device", "230\n" },
			{ PCIESW_DEVS "/pciesw230/pci_view", "0\n" },
			{ PCIESW_DEVS "/pciesw230-port1/ep_add", "nvme\n" },
			{ PCIESW_DEVS "/pciesw230-port1/ber", "0\n" },
			{ "/sys/kernel/debug/pciesw/pciesw230/thermal_tick",
			  "1\n" },
			{ "/sys/kernel/debug/pciesw/pciesw230/port1/traffic",
			  "ingress posted 4096\n" },
			{ "/sys/kernel/debug/pciesw/pciesw230/dma_bench",
			  "0 0 1 0 4096\n" },
			{ "/sys/kernel/debug/pciesw/pciesw230/fw_power_loss",
			  "20000\n" },
		};
		struct pnl_attr req[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID_FREE),
			A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END,
		};
		uint64_t all = pciesw_cap_eff();
		struct pnl_reply r;
		struct pnl p;
		unsigned int i;

		EXPECT_EQ(0, capset_eff(all & ~sys_admin, all));
		EXPECT_EQ(0ULL, pciesw_cap_eff() & sys_admin);
		for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
			int err = sysfs_write(refused[i].path, refused[i].val);

			/* debugfs may be absent (not mounted) */
			if (err == -ENOENT && !strncmp(refused[i].path,
						       "/sys/kernel/debug", 17))
				continue;
			EXPECT_EQ(-EPERM, err) TH_LOG("%s: %s",
						       refused[i].path,
						       strerror(-err));
		}
		EXPECT_EQ(0, sysfs_write(PCIESW_DEVS "/pciesw230/host_p2p",
					 "1\n"));
		EXPECT_EQ(0, pnl_open(&p));
		if (p.sk) {
			EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_SWITCH_NEW, req,
						&r));
			EXPECT_STREQ("creating a switch needs CAP_SYS_ADMIN",
				     r.msg);
			pnl_close(&p);
		}
		fflush(NULL);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_FALSE(sw_exists(ID_FREE));
	EXPECT_TRUE(sw_exists(ID));
	/* the refused debugfs writes changed nothing */
	if (!sysfs_read("/sys/kernel/debug/pciesw/pciesw230/fw_power_loss",
			buf, sizeof(buf)))
		EXPECT_STREQ("0", buf);
}

TEST_HARNESS_MAIN
