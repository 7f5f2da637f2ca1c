/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the live-topology selftests (lane groups, links, endpoints,
 * events, concurrency): sysfs of groups and ports, netlink requests that
 * also return the LTSSM history and notice interrupted dumps, set ops,
 * bounded waits for links that train in modeled time.
 *
 * On top of pciesw_test.h; static inline like it.  Include this instead.
 */
#ifndef _PCIESW_TOPO_H
#define _PCIESW_TOPO_H

#include "pciesw_test.h"

/*
 * A bounded wait for training: modeled time is ms; the deadline is scaled
 * by tp_ms() (5x on the debug kernel) where it is used.
 */
#define TP_WAIT_MS	5000

static const char *const tp_ltssm_names[] = {
	[PCIESW_LTSSM_DETECT] = "detect",
	[PCIESW_LTSSM_POLLING] = "polling",
	[PCIESW_LTSSM_CONFIGURATION] = "configuration",
	[PCIESW_LTSSM_L0] = "l0",
	[PCIESW_LTSSM_RECOVERY] = "recovery",
	[PCIESW_LTSSM_L1] = "l1",
	[PCIESW_LTSSM_DISABLED] = "disabled",
	[PCIESW_LTSSM_HOT_RESET] = "hot-reset",
};

static inline const char *tp_ltssm(uint32_t s)
{
	if (s < sizeof(tp_ltssm_names) / sizeof(tp_ltssm_names[0]) &&
	    tp_ltssm_names[s])
		return tp_ltssm_names[s];
	return "?";
}

/* current_link_speed as the PCI core prints it */
static inline const char *tp_speed_sysfs(uint32_t speed)
{
	static const char *const names[] = {
		"Unknown", "2.5 GT/s PCIe", "5.0 GT/s PCIe", "8.0 GT/s PCIe",
		"16.0 GT/s PCIe", "32.0 GT/s PCIe",
	};

	return speed < 6 ? names[speed] : "?";
}

/* ------------------------------------------------------------------ */
/* sysfs of ports, groups and endpoints                                */

static inline int port_attr(unsigned int id, unsigned int port,
			    const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%u/%s", id,
		 port, attr);
	return sysfs_read(path, buf, len);
}

static inline int port_write(unsigned int id, unsigned int port,
			     const char *attr, const char *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-port%u/%s", id,
		 port, attr);
	return sysfs_write(path, s);
}

static inline int group_attr(unsigned int id, const char *group,
			     const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/group_%s/%s", id,
		 group, attr);
	return sysfs_read(path, buf, len);
}

static inline int group_write_config(unsigned int id, const char *group,
				     const char *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/group_%s/config",
		 id, group);
	return sysfs_write(path, s);
}

static inline int ep_attr(unsigned int id, const char *ep, const char *attr,
			  char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-%s/%s", id, ep,
		 attr);
	return sysfs_read(path, buf, len);
}

/* Does /sys/bus/pciesw/devices/NAME exist? */
static inline bool bus_dev_exists(const char *fmt, unsigned int id,
				  const char *suffix)
{
	char path[PATH_MAX], name[128];

	snprintf(name, sizeof(name), fmt, id, suffix);
	snprintf(path, sizeof(path), PCIESW_DEVS "/%s", name);
	return access(path, F_OK) == 0;
}

static inline bool port_dev_exists(unsigned int id, unsigned int port)
{
	char s[16];

	snprintf(s, sizeof(s), "port%u", port);
	return bus_dev_exists("pciesw%u-%s", id, s);
}

static inline bool ep_dev_exists(unsigned int id, const char *ep)
{
	return bus_dev_exists("pciesw%u-%s", id, ep);
}

/*
 * The name of the directory the device pcieswID-EP really sits in (its
 * parent device), in @buf; 0 or -errno.
 */
static inline int ep_dev_parent(unsigned int id, const char *ep, char *buf,
				size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], *slash;

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u-%s", id, ep);
	if (!realpath(path, real))
		return -errno;
	slash = strrchr(real, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	slash = strrchr(real, '/');
	slash = slash ? slash + 1 : real;
	if (strlen(slash) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, slash, strlen(slash) + 1);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Netlink with the LTSSM history                                      */

#define TP_HIST_MAX	96	/* more than the 64 the module keeps */

struct tp_trans {
	uint64_t time;
	uint32_t from, to;
};

struct tp_hist {
	unsigned int n;		/* transitions in the message */
	bool bad;		/* a malformed transition nest */
	struct tp_trans t[TP_HIST_MAX];
};

/* A reply whose objects (r.objs[i]) come with their history (h[i]). */
struct tp_reply {
	struct pnl_reply r;	/* first: the pnl callbacks take it */
	struct tp_hist *h;
	unsigned int hcap;
	bool intr;		/* NLM_F_DUMP_INTR seen */
};

static inline void tp_reply_free(struct tp_reply *t)
{
	pnl_reply_free(&t->r);
	free(t->h);
	t->h = NULL;
	t->hcap = 0;
}

static inline void tp_parse_hist(struct nlmsghdr *nlh, struct tp_hist *h)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *nla, *in;
	int rem, rem2;

	memset(h, 0, sizeof(*h));
	nla_for_each_attr(nla, genlmsg_attrdata(gh, 0),
			  genlmsg_attrlen(gh, 0), rem) {
		struct tp_trans t = { 0, 0, 0 };
		int seen = 0;

		if (nla_type(nla) != PCIESW_A_PORT_LTSSM_TRANSITION)
			continue;
		nla_for_each_nested(in, nla, rem2) {
			switch (nla_type(in)) {
			case PCIESW_A_TRANSITION_TIME:
				if (nla_len(in) == 8) {
					t.time = nla_get_u64(in);
					seen |= 1;
				}
				break;
			case PCIESW_A_TRANSITION_FROM:
				if (nla_len(in) == 4) {
					t.from = nla_get_u32(in);
					seen |= 2;
				}
				break;
			case PCIESW_A_TRANSITION_TO:
				if (nla_len(in) == 4) {
					t.to = nla_get_u32(in);
					seen |= 4;
				}
				break;
			default:
				break;
			}
		}
		if (seen != 7)
			h->bad = true;
		if (h->n < TP_HIST_MAX)
			h->t[h->n] = t;
		h->n++;
	}
}

/* Datagrams received by this thread's tp_req(), when counting. */
static __thread unsigned int *tp_dgram_counter;

static inline int tp_recv_count(struct nl_sock *sk, struct sockaddr_nl *nla,
				unsigned char **buf, struct ucred **creds)
{
	int n = nl_recv(sk, nla, buf, creds);

	if (n > 0 && tp_dgram_counter)
		(*tp_dgram_counter)++;
	return n;
}

static inline int tp_cb_valid(struct nl_msg *msg, void *arg)
{
	struct tp_reply *t = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	unsigned int before = t->r.nobjs;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		t->intr = true;
	pnl_cb_valid(msg, &t->r);
	if (t->r.nobjs == before)
		return NL_STOP;
	if (t->r.nobjs > t->hcap) {
		unsigned int cap = t->r.cap;
		struct tp_hist *h = realloc(t->h, cap * sizeof(*h));

		if (!h)
			return NL_STOP;
		t->h = h;
		t->hcap = cap;
	}
	tp_parse_hist(nlh, &t->h[t->r.nobjs - 1]);
	return NL_OK;
}

static inline int tp_cb_intr(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct tp_reply *)arg)->intr = true;
	return NL_OK;
}

static inline int tp_cb_finish(struct nl_msg *msg, void *arg)
{
	struct tp_reply *t = arg;

	if (nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP_INTR)
		t->intr = true;
	return pnl_cb_finish(msg, &t->r);
}

/* pnl_req(), with each object's history and DUMP_INTR noticed. */
static inline int tp_req(struct pnl *p, uint8_t cmd, bool dump,
			 const struct pnl_attr *attrs, struct tp_reply *t)
{
	struct nl_msg *msg;
	struct nl_cb *cb;
	int ret;

	memset(t, 0, sizeof(*t));
	pnl_reply_init(&t->r);
	msg = pnl_msg(p, cmd, dump, attrs);
	if (!msg)
		return -ENOMEM;
	ret = nl_send_auto(p->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return -EIO;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, tp_cb_valid, t);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, pnl_cb_ack, &t->r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, tp_cb_finish, t);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, tp_cb_intr, t);
	nl_cb_err(cb, NL_CB_CUSTOM, pnl_cb_err, &t->r);
	nl_cb_overwrite_recv(cb, tp_recv_count);
	tp_dgram_counter = &t->r.ndgrams;
	while (!t->r.done) {
		ret = nl_recvmsgs(p->sk, cb);
		if (ret < 0 && !t->r.done)
			break;
	}
	tp_dgram_counter = NULL;
	nl_cb_put(cb);
	if (!t->r.done) {
		t->r.timed_out = true;
		return -ETIMEDOUT;
	}
	return t->r.err;
}

/*
 * pnl_do()/pnl_dump() without the histories, safe to use from several
 * threads at once (pnl_wait() counts datagrams through a global).
 */
static inline int tp_call(struct pnl *p, uint8_t cmd, bool dump,
			  const struct pnl_attr *attrs, struct pnl_reply *r)
{
	struct tp_reply t;
	int err = tp_req(p, cmd, dump, attrs, &t);

	free(t.h);
	*r = t.r;
	return err;
}

static inline int tp_do(struct pnl *p, uint8_t cmd,
			const struct pnl_attr *attrs, struct pnl_reply *r)
{
	return tp_call(p, cmd, false, attrs, r);
}

/* One port: its attributes in @o, its history in @h (either may be NULL). */
static inline int tp_port_get(struct pnl *p, unsigned int id,
			      unsigned int port, struct pnl_obj *o,
			      struct tp_hist *h)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_PORT_ID, port), A_END };
	struct tp_reply t;
	int err;

	err = tp_req(p, PCIESW_CMD_PORT_GET, false, req, &t);
	if (!err && t.r.nobjs != 1)
		err = -EPROTO;
	if (!err) {
		if (o)
			*o = t.r.objs[0];
		if (h)
			*h = t.h[0];
	}
	tp_reply_free(&t);
	return err;
}

/* The ports of switch @id (dump), with their histories. */
static inline int tp_ports(struct pnl *p, unsigned int id, struct tp_reply *t)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };

	return tp_req(p, PCIESW_CMD_PORT_GET, true, req, t);
}

/*
 * The number of the port of switch @id whose first lane is @lane, -1 if
 * there is none now.  Port numbers are physical (fixed per lane), so a test
 * that walks a group's ports in lane order asks by lane.
 */
static inline int tp_port_at_lane(struct pnl *p, unsigned int id,
				  unsigned int lane)
{
	struct tp_reply t;
	unsigned int i;
	int port = -1;

	if (tp_ports(p, id, &t))
		return -1;
	for (i = 0; i < t.r.nobjs; i++)
		if (t.r.objs[i].u[PCIESW_A_PORT_FIRST_LANE] == lane)
			port = t.r.objs[i].u[PCIESW_A_PORT_ID];
	tp_reply_free(&t);
	return port;
}

/* group-get of group @gid: its config in @cfg (16 bytes). */
static inline int tp_group_config(struct pnl *p, unsigned int id,
				  unsigned int gid, char *cfg)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_GROUP_ID, gid), A_END };
	struct pnl_reply r;
	int err;

	err = tp_do(p, PCIESW_CMD_GROUP_GET, req, &r);
	if (!err && r.nobjs != 1)
		err = -EPROTO;
	if (!err)
		snprintf(cfg, 16, "%.15s", r.objs[0].s[PCIESW_A_GROUP_CONFIG]);
	pnl_reply_free(&r);
	return err;
}

static inline int tp_group_set_name(struct pnl *p, unsigned int id,
				    const char *group, const char *cfg,
				    struct pnl_reply *r)
{
	struct pnl_attr req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id),
		A_STR(PCIESW_A_GROUP_NAME, group),
		A_STR(PCIESW_A_GROUP_CONFIG, cfg), A_END,
	};

	return tp_do(p, PCIESW_CMD_GROUP_SET, req, r);
}

static inline int tp_group_set_id(struct pnl *p, unsigned int id,
				  unsigned int gid, const char *cfg,
				  struct pnl_reply *r)
{
	struct pnl_attr req[] = {
		A_U32(PCIESW_A_SWITCH_ID, id),
		A_U32(PCIESW_A_GROUP_ID, gid),
		A_STR(PCIESW_A_GROUP_CONFIG, cfg), A_END,
	};

	return tp_do(p, PCIESW_CMD_GROUP_SET, req, r);
}

/*
 * port-set on port @port of switch @id with up to 4 more attributes
 * (@more, A_END-terminated); the reply (extack) in @r, to be freed.
 */
static inline int tp_port_set(struct pnl *p, unsigned int id,
			      unsigned int port, const struct pnl_attr *more,
			      struct pnl_reply *r)
{
	struct pnl_attr req[8] = { A_U32(PCIESW_A_SWITCH_ID, id),
				   A_U32(PCIESW_A_PORT_ID, port) };
	int i;

	for (i = 0; i < 5 && more[i].type >= 0; i++)
		req[2 + i] = more[i];
	req[2 + i] = (struct pnl_attr)A_END;
	return tp_do(p, PCIESW_CMD_PORT_SET, req, r);
}

/* port-set with one u32/u8/flag attribute, reply freed. */
static inline int tp_port_set1(struct pnl *p, unsigned int id,
			       unsigned int port, struct pnl_attr a)
{
	struct pnl_attr more[] = { a, A_END };
	struct pnl_reply r;
	int err = tp_port_set(p, id, port, more, &r);

	pnl_reply_free(&r);
	return err;
}

#define A_FLAG(t)	{ .type = (t), .kind = PA_RAW, .raw = NULL, .len = 0 }

/*
 * ep-add on port @port; speed/width 0 leave them out.  The new endpoint's
 * id and name in @ep_id/@name (32 bytes) when not NULL.
 */
static inline int tp_ep_add(struct pnl *p, unsigned int id, unsigned int port,
			    unsigned int type, unsigned int speed,
			    unsigned int width, uint32_t *ep_id, char *name)
{
	struct pnl_attr req[6] = {
		A_U32(PCIESW_A_SWITCH_ID, id), A_U32(PCIESW_A_PORT_ID, port),
		A_U32(PCIESW_A_EP_TYPE, type),
	};
	struct pnl_reply r;
	int i = 3, err;

	if (speed)
		req[i++] = (struct pnl_attr)A_U32(PCIESW_A_EP_MAX_SPEED, speed);
	if (width)
		req[i++] = (struct pnl_attr)A_U32(PCIESW_A_EP_MAX_WIDTH, width);
	req[i] = (struct pnl_attr)A_END;
	err = tp_do(p, PCIESW_CMD_EP_ADD, req, &r);
	if (!err && r.nobjs != 1)
		err = -EPROTO;
	if (!err) {
		if (ep_id)
			*ep_id = r.objs[0].u[PCIESW_A_EP_ID];
		if (name)
			snprintf(name, PCIESW_NAME_LEN, "%.31s",
				 r.objs[0].s[PCIESW_A_EP_NAME]);
	}
	pnl_reply_free(&r);
	return err;
}

static inline int tp_ep_del_name(struct pnl *p, unsigned int id,
				 const char *name)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_STR(PCIESW_A_EP_NAME, name), A_END };
	struct pnl_reply r;
	int err = tp_do(p, PCIESW_CMD_EP_DEL, req, &r);

	pnl_reply_free(&r);
	return err;
}

/* Remove the endpoint of port @port, if any (netlink). */
static inline int tp_port_unplug(struct pnl *p, unsigned int id,
				 unsigned int port)
{
	struct pnl_obj o;
	int err = tp_port_get(p, id, port, &o, NULL);

	if (err || !pnl_has(&o, PCIESW_A_EP_NAME))
		return err;
	return tp_ep_del_name(p, id, o.s[PCIESW_A_EP_NAME]);
}

/*
 * Wait (bounded) until port @port is in LTSSM state @ltssm and nothing is
 * pending that the state says: L0 and Recovery mean trained when L0.  The
 * last port-get in @o (may be NULL).  True if reached.
 */
static inline bool tp_wait_ltssm(struct pnl *p, unsigned int id,
				 unsigned int port, uint32_t ltssm,
				 struct pnl_obj *o)
{
	struct pnl_obj tmp, *obj = o ? o : &tmp;
	struct tp_poll w;

	tp_poll_start(&w, TP_WAIT_MS);
	do {
		if (tp_port_get(p, id, port, obj, NULL) == 0 &&
		    obj->u[PCIESW_A_PORT_LTSSM] == ltssm)
			return true;
	} while (tp_poll_next(&w));
	return false;
}

/*
 * Wait until port @port has recorded @n more transitions than @since, the
 * last one into @to.  For links that pass through a state they end in
 * (a retrain: L0 -> Recovery -> L0).
 */
static inline bool tp_wait_hist(struct pnl *p, unsigned int id,
				unsigned int port, const struct tp_hist *since,
				unsigned int n, uint32_t to, struct tp_hist *h)
{
	const struct tp_trans *last = since->n ?
				      &since->t[since->n - 1] : NULL;
	unsigned int i, k;
	struct tp_poll w;

	h->n = 0;
	tp_poll_start(&w, TP_WAIT_MS);
	do {
		if (tp_port_get(p, id, port, NULL, h) == 0 && h->n) {
			/* transitions after @last */
			for (i = h->n, k = 0; i > 0; i--, k++)
				if (last && h->t[i - 1].time == last->time &&
				    h->t[i - 1].from == last->from &&
				    h->t[i - 1].to == last->to)
					break;
			if (k >= n && h->t[h->n - 1].to == to)
				return k == n;
		}
	} while (tp_poll_next(&w));
	return false;
}

/*
 * Is port @o settled: not in a training state, and in L0 if it has a
 * partner (the host, an endpoint) and is enabled?  A port whose link
 * cannot train (all lanes dead, surprise down) never is: wait for those
 * with tp_wait_ltssm().
 */
static inline bool tp_port_settled(const struct pnl_obj *o)
{
	bool partner = o->u[PCIESW_A_PORT_ROLE] == PCIESW_PORT_ROLE_UPSTREAM ||
		       pnl_has(o, PCIESW_A_EP_ID);

	switch (o->u[PCIESW_A_PORT_LTSSM]) {
	case PCIESW_LTSSM_L0:
	case PCIESW_LTSSM_DISABLED:
		return true;
	case PCIESW_LTSSM_DETECT:
		return !partner || !o->u[PCIESW_A_PORT_ENABLED];
	default:
		return false;
	}
}

/* Wait (bounded) until every port of switch @id is settled. */
static inline bool tp_wait_trained(struct pnl *p, unsigned int id)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	struct pnl_reply r;
	struct tp_poll w;

	tp_poll_start(&w, TP_WAIT_MS);
	do {
		bool done = tp_call(p, PCIESW_CMD_PORT_GET, true, req, &r) == 0 &&
			    r.nobjs > 0;
		unsigned int i;

		for (i = 0; done && i < r.nobjs; i++)
			done = tp_port_settled(&r.objs[i]);
		pnl_reply_free(&r);
		if (done)
			return true;
	} while (tp_poll_next(&w));
	return false;
}

/*
 * A monitor socket with a big receive buffer (root may force it), so
 * that a burst of notifications is not lost.  0 or -errno.
 */
static inline int tp_open_monitor(struct pnl *p)
{
	int err = pnl_open_monitor(p), sz = 8 << 20;

	if (err)
		return err;
	setsockopt(nl_socket_get_fd(p->sk), SOL_SOCKET, SO_RCVBUFFORCE, &sz,
		   sizeof(sz));
	return 0;
}

/* Create switch @id (deleting a leftover first) and wait for its links. */
static inline int tp_switch_fresh(struct pnl *p, unsigned int id,
				  const char *profile)
{
	int err;

	if (sw_exists(id))
		sw_del(id);
	err = sw_new(id, profile);
	if (err)
		return err;
	return tp_wait_trained(p, id) ? 0 : -ETIMEDOUT;
}

/* ------------------------------------------------------------------ */
/* Test-only knobs in debugfs (not ABI)                                */

#define PCIESW_DEBUGFS	"/sys/kernel/debug/pciesw"

/*
 * Account @bytes of traffic on port @port as if it had crossed the link:
 * debugfs pcieswN/portM/traffic takes "DIR CLASS BYTES" (ingress|egress,
 * posted|non-posted|completion).  0 or -errno.
 */
static inline int tp_feed(unsigned int id, unsigned int port, const char *dir,
			  const char *cls, uint64_t bytes)
{
	char path[PATH_MAX], buf[96];

	snprintf(path, sizeof(path), PCIESW_DEBUGFS "/pciesw%u/port%u/traffic",
		 id, port);
	snprintf(buf, sizeof(buf), "%s %s %llu\n", dir, cls,
		 (unsigned long long)bytes);
	return sysfs_write(path, buf);
}

static inline bool tp_have_feed(unsigned int id)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCIESW_DEBUGFS "/pciesw%u/port0/traffic",
		 id);
	return access(path, W_OK) == 0;
}

/* ------------------------------------------------------------------ */
/* Counters                                                            */

/* counter-get of a port (@port >= 0) or the switch-wide sums (-1). */
static inline int ctr_get(struct pnl *p, unsigned int id, int port,
		   struct pnl_obj *o)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_PORT_ID, port), A_END };
	struct pnl_reply r;
	int err;

	if (port < 0)
		req[1] = (struct pnl_attr)A_END;
	err = tp_do(p, PCIESW_CMD_COUNTER_GET, req, &r);
	if (!err && r.nobjs != 1)
		err = -EPROTO;
	if (!err)
		*o = r.objs[0];
	pnl_reply_free(&r);
	return err;
}

/* One counter of a port, -1 on failure. */
static inline long long ctr_val(struct pnl *p, unsigned int id, int port,
			 unsigned int c)
{
	struct pnl_obj *o = malloc(sizeof(*o));
	long long v = -1;

	if (o && !ctr_get(p, id, port, o) && (o->ctr_mask & (1ULL << c)))
		v = (long long)o->ctr[c];
	free(o);
	return v;
}

/* ------------------------------------------------------------------ */
/* Expected widths                                                     */

/*
 * The width a link trains to (kmod/model/link.c, DESIGN.md): the widest power of 2
 * up to min(@lanes, @partner) whose lanes, counted from lane 0 or (lane
 * reversal) from the last lane, are all healthy; 0 if none.
 */
static inline unsigned int tp_best_width(unsigned int lanes,
					 unsigned int partner, uint32_t failed)
{
	unsigned int most = lanes < partner ? lanes : partner, w;

	for (w = 16; w; w >>= 1) {
		uint32_t low = (uint32_t)((1ULL << w) - 1);

		if (w > most)
			continue;
		if (!(failed & low) || !(failed & (low << (lanes - w))))
			return w;
	}
	return 0;
}

#endif /* _PCIESW_TOPO_H */
