// SPDX-License-Identifier: GPL-2.0
/*
 * Events of the live topology, for a scripted sequence on one switch
 * (switch-new, group-set, ep-del, ep-add, port-set failed lanes,
 * disable/enable, surprise down, retrain, target speed, ACS, hot reset,
 * switch-del): the notifications of the "monitor" multicast group, step by
 * step, exactly (command, order, contents), and the uevents
 * (NETLINK_KOBJECT_UEVENT): KOBJ_CHANGE on pcieswN-portM with PCIESW_EVENT=
 * port and the link, on pcieswN with PCIESW_EVENT=lanes, add/remove of the
 * endpoint devices under their port devices.
 *
 * An expectation is a string: "port-change port=1 width=8 degraded=1";
 * the keys are listed at match_one().  Entries starting with '~' match the
 * same number of notifications in any order (links that train together).
 *
 * Switch ids used here: 175-176.
 */
#include <sys/socket.h>

#include "pciesw_topo.h"

#define ID		175U
#define ID2		176U

/* ------------------------------------------------------------------ */
/* uevents                                                             */

#define UEV_MAX		1024
#define UEV_LEN		2048

struct uev {
	char action[16];
	char devpath[256];
	char name[64];		/* last component of DEVPATH */
	char env[UEV_LEN];	/* KEY=VALUE\0...\0 */
	unsigned int envlen;
};

struct uevs {
	unsigned int n;
	struct uev *ev;		/* UEV_MAX */
};

static int uev_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd, sz = 16 << 20;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -errno;
	}
	return fd;
}

static const char *uev_get(const struct uev *u, const char *key)
{
	size_t kl = strlen(key);
	unsigned int off = 0;

	while (off < u->envlen) {
		const char *kv = u->env + off;

		if (!strncmp(kv, key, kl) && kv[kl] == '=')
			return kv + kl + 1;
		off += strlen(kv) + 1;
	}
	return NULL;
}

/* Is @u about switch @id (itself or anything below it)? */
static bool uev_ours(const struct uev *u, unsigned int id)
{
	char me[32], below[40];
	size_t l;

	l = snprintf(me, sizeof(me), "pciesw%u", id);
	snprintf(below, sizeof(below), "/pciesw%u/", id);
	if (strstr(u->devpath, below))
		return true;
	return !strncmp(u->name, me, l) && (!u->name[l] || u->name[l] == '-');
}

/* Append what arrives within @ms of the last one, ours only. */
static void uev_collect(int fd, unsigned int id, int ms, struct uevs *us)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[UEV_LEN + 512];

	/* a quiet period, like pnl_recv_ntf()'s: 5x on the debug kernel */
	while (poll(&pfd, 1, ms > 0 ? (int)tp_ms(ms) : ms) == 1) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		struct uev *u;
		char *at, *p;
		const char *dp;

		if (n <= 0)
			break;
		buf[n] = '\0';
		at = strchr(buf, '@');
		if (!at || us->n >= UEV_MAX)
			continue;
		u = &us->ev[us->n];
		memset(u, 0, sizeof(*u));
		snprintf(u->action, sizeof(u->action), "%.*s",
			 (int)(at - buf), buf);
		p = buf + strlen(buf) + 1;
		if (p - buf < n) {
			u->envlen = n - (p - buf);
			if (u->envlen > sizeof(u->env))
				u->envlen = sizeof(u->env);
			memcpy(u->env, p, u->envlen);
			u->env[sizeof(u->env) - 1] = '\0';
		}
		dp = uev_get(u, "DEVPATH");
		snprintf(u->devpath, sizeof(u->devpath), "%s", dp ? dp : at + 1);
		p = strrchr(u->devpath, '/');
		snprintf(u->name, sizeof(u->name), "%.63s",
			 p ? p + 1 : u->devpath);
		if (uev_ours(u, id))
			us->n++;
	}
}

/*
 * Does @u match "ACTION NAME [PARENT/]... KEY=VALUE ..."?  NAME is the
 * last component of DEVPATH, "PARENT/NAME" also checks the one before.
 */
static bool uev_match(const struct uev *u, const char *spec)
{
	char buf[512], *tok, *save = NULL;
	int i = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		char *eq = strchr(tok, '=');

		if (i == 0) {
			if (strcmp(u->action, tok))
				return false;
		} else if (i == 1) {
			size_t dl = strlen(u->devpath), tl = strlen(tok);

			if (!strcmp(tok, "*"))
				continue;
			if (tl > dl || strcmp(u->devpath + dl - tl, tok) ||
			    (tl < dl && u->devpath[dl - tl - 1] != '/'))
				return false;
		} else if (eq) {
			const char *v;

			*eq = '\0';
			v = uev_get(u, tok);
			if (!v || strcmp(v, eq + 1))
				return false;
		}
	}
	return true;
}

/* The index of the first event from @from on matching @spec, -1 if none. */
static int uev_find(const struct uevs *us, unsigned int from,
		    const char *spec)
{
	unsigned int i;

	for (i = from; i < us->n; i++)
		if (uev_match(&us->ev[i], spec))
			return i;
	return -1;
}

static unsigned int uev_count(const struct uevs *us, const char *spec)
{
	unsigned int i, n = 0;

	for (i = 0; i < us->n; i++)
		n += uev_match(&us->ev[i], spec);
	return n;
}

static void uev_dump(struct __test_metadata *_metadata, const struct uevs *us)
{
	unsigned int i;

	for (i = 0; i < us->n; i++) {
		const char *ev = uev_get(&us->ev[i], "PCIESW_EVENT");

		TH_LOG("  uevent %s %s%s%s", us->ev[i].action, us->ev[i].devpath,
		       ev ? " PCIESW_EVENT=" : "", ev ? ev : "");
	}
}

/* These uevents came in this order (others may come in between). */
static void uev_expect_seq(struct __test_metadata *_metadata,
			   const struct uevs *us, const char *const *specs,
			   const char *step)
{
	int at = 0;

	for (; *specs; specs++) {
		int i = uev_find(us, at, *specs);

		EXPECT_LE(0, i) TH_LOG("%s: no uevent '%s' (in order)", step,
				       *specs);
		if (i < 0) {
			uev_dump(_metadata, us);
			return;
		}
		at = i + 1;
	}
}

/* ------------------------------------------------------------------ */
/* notifications                                                       */

static const struct {
	const char *name;
	uint8_t cmd;
} ntf_names[] = {
	{ "switch-create", PCIESW_CMD_SWITCH_CREATE_NTF },
	{ "switch-delete", PCIESW_CMD_SWITCH_DELETE_NTF },
	{ "group-change", PCIESW_CMD_GROUP_CHANGE_NTF },
	{ "port-change", PCIESW_CMD_PORT_CHANGE_NTF },
	{ "ep-add", PCIESW_CMD_EP_ADD_NTF },
	{ "ep-del", PCIESW_CMD_EP_DEL_NTF },
	{ "vpd-change", PCIESW_CMD_VPD_CHANGE_NTF },
};

static const char *ntf_name(uint8_t cmd)
{
	unsigned int i;

	for (i = 0; i < sizeof(ntf_names) / sizeof(ntf_names[0]); i++)
		if (ntf_names[i].cmd == cmd)
			return ntf_names[i].name;
	return "?";
}

static uint32_t ltssm_by_name(const char *s)
{
	uint32_t i;

	for (i = 1; i <= PCIESW_LTSSM_MAX; i++)
		if (!strcmp(s, tp_ltssm(i)))
			return i;
	return 0;
}

/*
 * Does notification @o match @spec: "CMD key=value ..."?  Keys: port,
 * ltssm (a name), active, speed, width, degraded, enabled, failed (hex),
 * target, acs, surprise, ep (a name, "-" for none), epport, epwidth,
 * group, config, profile.
 */
static bool match_one(const struct pnl_obj *o, const char *spec,
		      char *why, size_t whylen)
{
	char buf[256], *tok, *save = NULL;
	int i = 0;

	snprintf(buf, sizeof(buf), "%s", spec[0] == '~' ? spec + 1 : spec);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		char *v = strchr(tok, '=');
		unsigned long n;
		uint32_t have;
		int a = 0;

		if (i == 0) {
			if (strcmp(tok, ntf_name(o->cmd))) {
				snprintf(why, whylen, "is %s", ntf_name(o->cmd));
				return false;
			}
			continue;
		}
		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(tok, "ep")) {
			bool none = !strcmp(v, "-");

			if (none ? pnl_has(o, PCIESW_A_EP_NAME) :
				   strcmp(v, o->s[PCIESW_A_EP_NAME])) {
				snprintf(why, whylen, "ep '%.31s'",
					 o->s[PCIESW_A_EP_NAME]);
				return false;
			}
			continue;
		}
		if (!strcmp(tok, "group") || !strcmp(tok, "config") ||
		    !strcmp(tok, "profile")) {
			a = tok[0] == 'g' ? PCIESW_A_GROUP_NAME :
			    tok[0] == 'c' ? PCIESW_A_GROUP_CONFIG :
					    PCIESW_A_SWITCH_PROFILE;
			if (strcmp(v, o->s[a])) {
				snprintf(why, whylen, "%s '%s'", tok, o->s[a]);
				return false;
			}
			continue;
		}
		if (!strcmp(tok, "ltssm"))
			n = ltssm_by_name(v);
		else
			n = strtoul(v, NULL, 0);
		if (!strcmp(tok, "surprise")) {
			if (o->u64[PCIESW_A_PORT_SURPRISE_DOWN] != n) {
				snprintf(why, whylen, "surprise %llu",
					 (unsigned long long)
					 o->u64[PCIESW_A_PORT_SURPRISE_DOWN]);
				return false;
			}
			continue;
		}
		a = !strcmp(tok, "port") ? PCIESW_A_PORT_ID :
		    !strcmp(tok, "ltssm") ? PCIESW_A_PORT_LTSSM :
		    !strcmp(tok, "active") ? PCIESW_A_PORT_LINK_ACTIVE :
		    !strcmp(tok, "speed") ? PCIESW_A_PORT_SPEED :
		    !strcmp(tok, "width") ? PCIESW_A_PORT_WIDTH :
		    !strcmp(tok, "degraded") ? PCIESW_A_PORT_DEGRADED :
		    !strcmp(tok, "enabled") ? PCIESW_A_PORT_ENABLED :
		    !strcmp(tok, "failed") ? PCIESW_A_PORT_FAILED_LANES :
		    !strcmp(tok, "target") ? PCIESW_A_PORT_TARGET_SPEED :
		    !strcmp(tok, "acs") ? PCIESW_A_PORT_ACS_REDIRECT :
		    !strcmp(tok, "epwidth") ? PCIESW_A_EP_MAX_WIDTH : 0;
		if (!a || !pnl_has(o, a)) {
			snprintf(why, whylen, "no %s", tok);
			return false;
		}
		have = o->u[a];
		if (have != n) {
			snprintf(why, whylen, "%s %u", tok, have);
			return false;
		}
	}
	return true;
}

/* Exactly these notifications (about switch @id), in this order. */
static void expect_ntfs(struct __test_metadata *_metadata,
			const struct pnl_reply *r, unsigned int id,
			const char *const *exp, const char *step)
{
	const struct pnl_obj *got[128];
	unsigned int n = 0, ne, i, j, k;
	char why[96];
	bool used[64];

	for (i = 0; i < r->nobjs; i++) {
		const struct pnl_obj *o = &r->objs[i];

		/* every notification is a notification of the spec */
		EXPECT_TRUE(o->cmd <= SPEC_CMD_MAX && spec_ops[o->cmd].is_ntf)
			TH_LOG("%s: cmd %u", step, o->cmd);
		EXPECT_EQ(0, o->bad_type) TH_LOG("%s: attribute %d", step,
						 o->bad_type);
		EXPECT_EQ(0, pnl_not_in_spec(o, o->cmd, false))
			TH_LOG("%s: %s carries attribute %d", step,
			       ntf_name(o->cmd),
			       pnl_not_in_spec(o, o->cmd, false));
		if (o->u[PCIESW_A_SWITCH_ID] == id && n < 128)
			got[n++] = o;
	}
	for (ne = 0; exp[ne]; ne++)
		;
	EXPECT_EQ(ne, n) TH_LOG("%s: %u notifications, want %u", step, n, ne);
	if (n == ne) {
		int before = _metadata->exit_code;

		for (i = 0; i < n;) {
			/* a run of '~' entries: any order */
			for (k = i; k < n && exp[k][0] == '~'; k++)
				;
			if (k == i) {
				why[0] = '\0';
				EXPECT_TRUE(match_one(got[i], exp[i], why,
						      sizeof(why)))
					TH_LOG("%s: #%u: want '%s': %s", step,
					       i, exp[i], why);
				i++;
				continue;
			}
			memset(used, 0, sizeof(used));
			for (j = i; j < k; j++) {
				bool found = false;
				unsigned int e;

				for (e = i; e < k && !found; e++) {
					if (used[e - i] ||
					    !match_one(got[j], exp[e], why,
						       sizeof(why)))
						continue;
					used[e - i] = found = true;
				}
				EXPECT_TRUE(found)
					TH_LOG("%s: #%u matches none of #%u-#%u",
					       step, j, i, k - 1);
			}
			i = k;
		}
		if (_metadata->exit_code == before)
			return;
	}
	/* something is off: say what came */
	for (i = 0; i < n; i++)
		TH_LOG("%s: got #%u %s port %u ltssm %s active %u w%u ep '%s' failed 0x%x",
		       step, i, ntf_name(got[i]->cmd),
		       got[i]->u[PCIESW_A_PORT_ID],
		       tp_ltssm(got[i]->u[PCIESW_A_PORT_LTSSM]),
		       got[i]->u[PCIESW_A_PORT_LINK_ACTIVE],
		       got[i]->u[PCIESW_A_PORT_WIDTH],
		       got[i]->s[PCIESW_A_EP_NAME],
		       got[i]->u[PCIESW_A_PORT_FAILED_LANES]);
}

/* ------------------------------------------------------------------ */

FIXTURE(ev)
{
	struct pnl p;
	struct pnl mon;
	int ufd;
	struct uevs us;
	struct pnl_reply ntf;
};

FIXTURE_SETUP(ev)
{
	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	if (sw_exists(ID))
		sw_del(ID);
	if (sw_exists(ID2))
		sw_del(ID2);
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_open_monitor(&self->mon));
	self->ufd = uev_open();
	ASSERT_LE(0, self->ufd) TH_LOG("uevent socket: %s",
				       strerror(-self->ufd));
	self->us.ev = calloc(UEV_MAX, sizeof(*self->us.ev));
	ASSERT_NE(NULL, self->us.ev);
	pnl_reply_init(&self->ntf);
}

FIXTURE_TEARDOWN(ev)
{
	pnl_reply_free(&self->ntf);
	free(self->us.ev);
	if (self->ufd >= 0)
		close(self->ufd);
	pnl_close(&self->mon);
	pnl_close(&self->p);
	if (sw_exists(ID))
		sw_del(ID);
	if (sw_exists(ID2))
		sw_del(ID2);
}

/*
 * After a step: wait until switch @id has settled (or, when @port >= 0,
 * that port is in @ltssm), then take what both sockets got.
 */
static void collect(struct __test_metadata *_metadata,
		    FIXTURE_DATA(ev) *self, int port, uint32_t ltssm)
{
	bool ok = port < 0 ? tp_wait_trained(&self->p, ID) :
			     tp_wait_ltssm(&self->p, ID, port, ltssm, NULL);

	ASSERT_TRUE(ok) TH_LOG("links of pciesw%u not settled", ID);
	pnl_reply_free(&self->ntf);
	pnl_reply_init(&self->ntf);
	pnl_recv_ntf(&self->mon, 20, &self->ntf);
	self->us.n = 0;
	uev_collect(self->ufd, ID, 20, &self->us);
}

/*
 * Nothing more comes for @ms (5x on the debug kernel): the link stays as it
 * is.  The module sends the notification and the uevent of a change as it
 * makes it, and a link steps every 2 ms of modelled time (a few ms under
 * TCG), so a watch of 20-100 ms covers several steps of anything that was
 * still going to happen.
 */
static void quiet(struct __test_metadata *_metadata, FIXTURE_DATA(ev) *self,
		  int ms, const char *step)
{
	static const char *const none[] = { NULL };

	pnl_reply_free(&self->ntf);
	pnl_reply_init(&self->ntf);
	pnl_recv_ntf(&self->mon, ms, &self->ntf);
	expect_ntfs(_metadata, &self->ntf, ID, none, step);
	self->us.n = 0;
	uev_collect(self->ufd, ID, 0, &self->us);
	EXPECT_EQ(0U, self->us.n) TH_LOG("%s: uevents", step);
}

static int port_set(FIXTURE_DATA(ev) *self, unsigned int port,
		    struct pnl_attr a)
{
	return tp_port_set1(&self->p, ID, port, a);
}

#define STEP(name, ...)	static const char *const name[] = { __VA_ARGS__, NULL }

TEST_F_TIMEOUT(ev, sequence, 120)
{
	struct pnl_attr new_sw[] = {
		A_U32(PCIESW_A_SWITCH_ID, ID), A_END,
	};
	struct pnl_reply r;
	struct tp_hist h0, h;

	/* 1: switch-new over netlink; every link trains */
	ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, new_sw, &r));
	pnl_reply_free(&r);
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "switch-create profile=pex89048",
		     "~port-change port=0 ltssm=l0 active=1 width=16 speed=5",
		     "~port-change port=1 ltssm=l0 active=1 width=16 ep=gpu0",
		     "~port-change port=2 ltssm=l0 active=1 width=4 ep=nvme0",
		     "~port-change port=3 ltssm=l0 active=1 width=4 ep=nvme1",
		     "~port-change port=4 ltssm=l0 active=1 width=4 ep=nvme2",
		     "~port-change port=5 ltssm=l0 active=1 width=4 ep=nvme3");
		static const char *const u[] = {
			"add pciesw175", "add pciesw175-port0",
			"add pciesw175-port1",
			"add pciesw175-port1/pciesw175-gpu0 DEVTYPE=pciesw_endpoint",
			"add pciesw175-port5/pciesw175-nvme3",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "switch-new");
		uev_expect_seq(_metadata, &self->us, u, "switch-new");
		EXPECT_EQ(6U, uev_count(&self->us,
					"change * PCIESW_EVENT=port"))
			TH_LOG("the 6 links came up");
		EXPECT_LE(0, uev_find(&self->us, 0,
				      "change pciesw175-port1 SUBSYSTEM=pciesw "
				      "DEVTYPE=pciesw_port PCIESW_EVENT=port "
				      "PCIESW_LINK=up PCIESW_LTSSM=l0 "
				      "PCIESW_SPEED=gen5 PCIESW_WIDTH=16 "
				      "PCIESW_DEGRADED=0"));
		EXPECT_LE(0, uev_find(&self->us, 0,
				      "change pciesw175-port2 PCIESW_EVENT=port "
				      "PCIESW_LINK=up PCIESW_WIDTH=4"));
	}

	/*
	 * 2: nvme 4x4 -> 16x1: the four links drop, the group changes,
	 * nvme0-3 train again, x1 each, on the first four ports by lane
	 * (lanes 32-35: ports 2, 9, 10, 11, numbers being physical)
	 */
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", "16x1", &r));
	pnl_reply_free(&r);
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=2 active=0 ep=nvme0",
		     "port-change port=3 active=0 ep=nvme1",
		     "port-change port=4 active=0 ep=nvme2",
		     "port-change port=5 active=0 ep=nvme3",
		     "group-change group=nvme config=16x1",
		     "vpd-change",
		     "~port-change port=2 ltssm=l0 active=1 width=1 ep=nvme0",
		     "~port-change port=9 ltssm=l0 active=1 width=1 ep=nvme1",
		     "~port-change port=10 ltssm=l0 active=1 width=1 ep=nvme2",
		     "~port-change port=11 ltssm=l0 active=1 width=1 ep=nvme3");
		static const char *const u[] = {
			"change pciesw175-port2 PCIESW_EVENT=port PCIESW_LINK=down PCIESW_WIDTH=0 PCIESW_SPEED=none",
			"remove pciesw175-port2/pciesw175-nvme0",
			"remove pciesw175-port2",
			"add pciesw175-port2",
			"add pciesw175-port2/pciesw175-nvme0",
			"add pciesw175-port17",
			"change pciesw175 PCIESW_EVENT=lanes PCIESW_GROUP=nvme PCIESW_CONFIG=16x1",
			"change pciesw175-port2 PCIESW_EVENT=port PCIESW_LINK=up PCIESW_WIDTH=1",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "nvme 16x1");
		uev_expect_seq(_metadata, &self->us, u, "nvme 16x1");
		EXPECT_EQ(1U, uev_count(&self->us,
					"change pciesw175 PCIESW_EVENT=lanes"));
		/* the ports before the group are left alone */
		EXPECT_EQ(0U, uev_count(&self->us, "remove pciesw175-port1"));
	}

	/* 3: nvme 16x1 -> 1x16: nvme1-3 are unplugged, nvme0 stays */
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", "1x16", &r));
	pnl_reply_free(&r);
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "ep-del ep=nvme1 port=9", "port-change port=9 active=0 ep=-",
		     "ep-del ep=nvme2", "port-change port=10 active=0 ep=-",
		     "ep-del ep=nvme3", "port-change port=11 active=0 ep=-",
		     "port-change port=2 active=0 ep=nvme0",
		     "group-change group=nvme config=1x16",
		     "vpd-change",
		     "port-change port=2 ltssm=l0 active=1 width=4 ep=nvme0");
		static const char *const u[] = {
			"remove pciesw175-port9/pciesw175-nvme1",
			"remove pciesw175-port11/pciesw175-nvme3",
			"change pciesw175 PCIESW_EVENT=lanes PCIESW_GROUP=nvme PCIESW_CONFIG=1x16",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "nvme 1x16");
		uev_expect_seq(_metadata, &self->us, u, "nvme 1x16");
		EXPECT_EQ(0U, uev_count(&self->us, "add pciesw175-port3"));
	}

	/* 4: ep-del nvme0: unplugged, the link goes down */
	ASSERT_EQ(0, tp_ep_del_name(&self->p, ID, "nvme0"));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "ep-del ep=nvme0", "port-change port=2 active=0 ltssm=detect ep=-");
		static const char *const u[] = {
			"remove pciesw175-port2/pciesw175-nvme0",
			"change pciesw175-port2 PCIESW_EVENT=port PCIESW_LINK=down PCIESW_LTSSM=detect PCIESW_WIDTH=0",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "ep-del");
		uev_expect_seq(_metadata, &self->us, u, "ep-del");
	}

	/* 5: ep-add of an x16 nvme: plugged, trains x16 */
	ASSERT_EQ(0, tp_ep_add(&self->p, ID, 2, PCIESW_EP_TYPE_NVME, 0, 16,
			       NULL, NULL));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "ep-add ep=nvme0 epwidth=16",
		     "port-change port=2 ltssm=l0 active=1 width=16 ep=nvme0");
		static const char *const u[] = {
			"add pciesw175-port2/pciesw175-nvme0 SUBSYSTEM=pciesw",
			"change pciesw175-port2 PCIESW_EVENT=port PCIESW_LINK=up PCIESW_WIDTH=16",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "ep-add");
		uev_expect_seq(_metadata, &self->us, u, "ep-add");
	}

	/* 6: lane 15 of the GPU port dies: the setting, then x8 degraded */
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 1, NULL, &h0));
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, 0x8000)));
	ASSERT_TRUE(tp_wait_hist(&self->p, ID, 1, &h0, 2, PCIESW_LTSSM_L0, &h));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=1 failed=0x8000 width=16 degraded=0",
		     "port-change port=1 failed=0x8000 ltssm=l0 width=8 degraded=1 speed=5");
		static const char *const u[] = {
			"change pciesw175-port1 PCIESW_EVENT=port PCIESW_LINK=up PCIESW_WIDTH=8 PCIESW_DEGRADED=1 PCIESW_LTSSM=l0",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "lane failure");
		uev_expect_seq(_metadata, &self->us, u, "lane failure");
	}

	/* 7: repaired: x16 again */
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 1, NULL, &h0));
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_U32(
					PCIESW_A_PORT_FAILED_LANES, 0)));
	ASSERT_TRUE(tp_wait_hist(&self->p, ID, 1, &h0, 2, PCIESW_LTSSM_L0, &h));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=1 failed=0 width=8 degraded=1",
		     "port-change port=1 failed=0 width=16 degraded=0");
		static const char *const u[] = {
			"change pciesw175-port1 PCIESW_EVENT=port PCIESW_LINK=up PCIESW_WIDTH=16 PCIESW_DEGRADED=0",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "lane repair");
		uev_expect_seq(_metadata, &self->us, u, "lane repair");
	}

	/* 8: disabled, and it stays so */
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_U8(
					PCIESW_A_PORT_ENABLED, 0)));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=1 enabled=0 ltssm=disabled active=0 width=0 speed=0");
		static const char *const u[] = {
			"change pciesw175-port1 PCIESW_EVENT=port PCIESW_LINK=down PCIESW_LTSSM=disabled PCIESW_SPEED=none PCIESW_WIDTH=0",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "disable");
		uev_expect_seq(_metadata, &self->us, u, "disable");
	}
	quiet(_metadata, self, 50, "disabled");

	/* 9: enabled: the setting, then the link up */
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_U8(
					PCIESW_A_PORT_ENABLED, 1)));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=1 enabled=1 active=0",
		     "port-change port=1 enabled=1 ltssm=l0 active=1 width=16");

		expect_ntfs(_metadata, &self->ntf, ID, e, "enable");
	}

	/* 10: surprise down: counted, down, and it stays down */
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_SURPRISE_DOWN_NOW)));
	collect(_metadata, self, 1, PCIESW_LTSSM_DETECT);
	{
		STEP(e, "port-change port=1 ltssm=detect active=0 surprise=1 ep=gpu0");
		static const char *const u[] = {
			"change pciesw175-port1 PCIESW_EVENT=port PCIESW_LINK=down PCIESW_LTSSM=detect",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "surprise down");
		uev_expect_seq(_metadata, &self->us, u, "surprise down");
	}
	quiet(_metadata, self, 100, "after surprise down");

	/* 11: retrained from Detect: up */
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_RETRAIN)));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=1 ltssm=l0 active=1 surprise=1");

		expect_ntfs(_metadata, &self->ntf, ID, e, "retrain up");
	}

	/* 12: a retrain that changes nothing says nothing */
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 1, NULL, &h0));
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_RETRAIN)));
	ASSERT_TRUE(tp_wait_hist(&self->p, ID, 1, &h0, 2, PCIESW_LTSSM_L0, &h));
	quiet(_metadata, self, 20, "retrain in L0");

	/* 13: target speed: the setting, then the retrained link */
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 1, NULL, &h0));
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_U32(
					PCIESW_A_PORT_TARGET_SPEED,
					PCIESW_LINK_SPEED_GEN3)));
	ASSERT_TRUE(tp_wait_hist(&self->p, ID, 1, &h0, 2, PCIESW_LTSSM_L0, &h));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=1 target=3 speed=5",
		     "port-change port=1 target=3 speed=3 ltssm=l0");
		static const char *const u[] = {
			"change pciesw175-port1 PCIESW_EVENT=port PCIESW_SPEED=gen3",
			NULL };

		expect_ntfs(_metadata, &self->ntf, ID, e, "target speed");
		uev_expect_seq(_metadata, &self->us, u, "target speed");
	}

	/* 14: ACS on; on again is no change */
	ASSERT_EQ(0, port_set(self, 2, (struct pnl_attr)A_U8(
					PCIESW_A_PORT_ACS_REDIRECT, 1)));
	ASSERT_EQ(0, port_set(self, 2, (struct pnl_attr)A_U8(
					PCIESW_A_PORT_ACS_REDIRECT, 1)));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=2 acs=1 ltssm=l0");

		expect_ntfs(_metadata, &self->ntf, ID, e, "acs");
	}

	/* 15: hot reset: down in Hot Reset, then up */
	ASSERT_EQ(0, tp_port_get(&self->p, ID, 1, NULL, &h0));
	ASSERT_EQ(0, port_set(self, 1, (struct pnl_attr)A_FLAG(
					PCIESW_A_PORT_HOT_RESET)));
	ASSERT_TRUE(tp_wait_hist(&self->p, ID, 1, &h0, 5, PCIESW_LTSSM_L0, &h));
	collect(_metadata, self, -1, 0);
	{
		STEP(e, "port-change port=1 ltssm=hot-reset active=0",
		     "port-change port=1 ltssm=l0 active=1 speed=3");

		expect_ntfs(_metadata, &self->ntf, ID, e, "hot reset");
	}

	/* 16: setting the config it has: nothing */
	ASSERT_EQ(0, tp_group_set_name(&self->p, ID, "nvme", "1x16", &r));
	pnl_reply_free(&r);
	quiet(_metadata, self, 20, "same config");

	/* 17: another switch comes and goes; then this one goes */
	{
		struct pnl_attr new2[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID2),
			A_STR(PCIESW_A_SWITCH_PROFILE, "tiny8"), A_END,
		};
		struct pnl_attr del[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };

		STEP(e2, "switch-create profile=tiny8", "switch-delete profile=tiny8");
		STEP(e, "switch-delete profile=pex89048");
		static const char *const u[] = {
			"remove pciesw175-port2/pciesw175-nvme0",
			"remove pciesw175-port2", "remove pciesw175", NULL };

		ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_NEW, new2, &r));
		pnl_reply_free(&r);
		ASSERT_EQ(0, sw_del(ID2));
		ASSERT_EQ(0, pnl_do(&self->p, PCIESW_CMD_SWITCH_DEL, del, &r));
		pnl_reply_free(&r);
		pnl_reply_free(&self->ntf);
		pnl_reply_init(&self->ntf);
		pnl_recv_ntf(&self->mon, 50, &self->ntf);
		/* tiny8's links may have come up before it went: skip those */
		{
			struct pnl_reply only = self->ntf;
			unsigned int i, k = 0;

			only.objs = calloc(self->ntf.nobjs + 1,
					   sizeof(*only.objs));
			ASSERT_NE(NULL, only.objs);
			for (i = 0; i < self->ntf.nobjs; i++)
				if (self->ntf.objs[i].cmd !=
				    PCIESW_CMD_PORT_CHANGE_NTF)
					only.objs[k++] = self->ntf.objs[i];
			only.nobjs = k;
			expect_ntfs(_metadata, &only, ID2, e2, "switch 176");
			free(only.objs);
		}
		expect_ntfs(_metadata, &self->ntf, ID, e, "switch-del");
		self->us.n = 0;
		uev_collect(self->ufd, ID, 50, &self->us);
		uev_expect_seq(_metadata, &self->us, u, "switch-del");
		/* the switch device goes last */
		EXPECT_EQ((int)self->us.n - 1,
			  uev_find(&self->us, 0, "remove pciesw175"));
	}
}

TEST_HARNESS_MAIN
