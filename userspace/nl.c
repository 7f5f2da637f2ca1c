// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink session, requests and error reporting (see nl.h).
 *
 * libnl 3.7 (Debian 12) has no extended-ACK support of its own: it neither
 * sets NETLINK_EXT_ACK nor reads the TLVs after an error, and it ignores the
 * error code that ends a failed dump (NLMSG_DONE carrying a negative errno).
 * So the socket option is set here by hand and custom error, ack and finish
 * callbacks read the kernel's message out of the raw netlink header.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#include "names.h"
#include "spec_names.h"
#include "nl.h"
#include "util.h"

/* What the kernel said about the request in flight. */
struct nl_answer {
	bool done;		/* ACK, error or end of dump seen */
	int err;		/* positive errno, 0 on success */
	char *msg;		/* extack message, or NULL */
	uint32_t miss_type;	/* extack: required attribute that was missing */
	bool has_miss_type;
	bool interrupted;	/* NLM_F_DUMP_INTR: the dump may be inconsistent */
	bool has_offs;		/* extack: where the bad attribute is */
	uint32_t offs;		/* its offset in the request */
	bool has_min, has_max;	/* extack: the policy the attribute broke */
	long long min, max;
	struct msg_list *replies;
};

/* How often an interrupted dump (the objects changed meanwhile) is redone */
#define DUMP_TRIES	5

struct nl_session {
	struct nl_sock *sk;
	struct nl_cb *cb;
	int family;
	struct nl_answer ans;
};

void msg_list_free(struct msg_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		nlmsg_free(l->msgs[i]);
	free(l->msgs);
	*l = (struct msg_list){ 0 };
}

static void msg_list_add(struct msg_list *l, struct nl_msg *msg)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->msgs = xreallocarray(l->msgs, l->cap, sizeof(*l->msgs));
	}
	/* libnl frees the message after the callback; keep a reference */
	nlmsg_get(msg);
	l->msgs[l->n++] = msg;
}

static struct nla_policy ext_ack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG] = { .type = NLA_STRING },
	[NLMSGERR_ATTR_OFFS] = { .type = NLA_U32 },
	[NLMSGERR_ATTR_POLICY] = { .type = NLA_NESTED },
	[NLMSGERR_ATTR_MISS_TYPE] = { .type = NLA_U32 },
};

static struct nla_policy bounds_policy[NL_POLICY_TYPE_ATTR_MAX + 1] = {
	[NL_POLICY_TYPE_ATTR_MIN_VALUE_S] = { .type = NLA_U64 },
	[NL_POLICY_TYPE_ATTR_MAX_VALUE_S] = { .type = NLA_U64 },
	[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] = { .type = NLA_U64 },
	[NL_POLICY_TYPE_ATTR_MAX_VALUE_U] = { .type = NLA_U64 },
};

/* NLMSGERR_ATTR_POLICY: the bounds of the attribute the kernel refused. */
static void read_policy(struct nl_answer *ans, struct nlattr *nest)
{
	struct nlattr *tb[NL_POLICY_TYPE_ATTR_MAX + 1];

	if (nla_parse_nested(tb, NL_POLICY_TYPE_ATTR_MAX, nest,
			     bounds_policy) < 0)
		return;
	if (tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]) {
		ans->min = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]);
		ans->has_min = true;
	} else if (tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_S]) {
		ans->min = (int64_t)nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_S]);
		ans->has_min = true;
	}
	if (tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]) {
		ans->max = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]);
		ans->has_max = true;
	} else if (tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_S]) {
		ans->max = (int64_t)nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_S]);
		ans->has_max = true;
	}
}

/*
 * Reads the extack TLVs that start @off bytes into the message @nlh (an
 * NLMSG_ERROR or NLMSG_DONE the kernel flagged with NLM_F_ACK_TLVS).
 */
static void read_ext_ack(struct nl_answer *ans, const struct nlmsghdr *nlh,
			 size_t off)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlh + off),
		      nlh->nlmsg_len - off, ext_ack_policy) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG] && !ans->msg) {
		const char *m = nla_get_string(tb[NLMSGERR_ATTR_MSG]);

		if (*m)
			ans->msg = xstrdup(m);
	}
	if (tb[NLMSGERR_ATTR_OFFS]) {
		ans->offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
		ans->has_offs = true;
	}
	if (tb[NLMSGERR_ATTR_POLICY])
		read_policy(ans, tb[NLMSGERR_ATTR_POLICY]);
	if (tb[NLMSGERR_ATTR_MISS_TYPE]) {
		ans->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
		ans->has_miss_type = true;
	}
}

/* Where the TLVs of an NLMSG_ERROR start: after the (maybe echoed) request. */
static size_t err_tlv_offset(const struct nlmsghdr *nlh,
			     const struct nlmsgerr *e)
{
	size_t echoed = 0;

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= NLMSG_HDRLEN)
		echoed = e->msg.nlmsg_len - NLMSG_HDRLEN;
	return NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*e) + echoed);
}

/* NLMSG_ERROR with an error code. */
static int cb_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nl_answer *ans = arg;
	/*
	 * libnl hands over nlmsg_data() of the received header, which still
	 * sits in the receive buffer: step back to the header for the flags
	 * and the length the TLVs are bounded by (libnl checked the length
	 * covers the nlmsgerr before calling us).
	 */
	const struct nlmsghdr *nlh =
		(const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);

	(void)nla;
	ans->done = true;
	ans->err = e->error < 0 ? -e->error : e->error;
	read_ext_ack(ans, nlh, err_tlv_offset(nlh, e));
	return NL_STOP;
}

/* NLMSG_ERROR with code 0: the request succeeded; it may carry a warning. */
static void ack_hdr(struct nl_answer *ans, const struct nlmsghdr *nlh)
{
	ans->done = true;
	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr))
		read_ext_ack(ans, nlh, err_tlv_offset(nlh, nlmsg_data(nlh)));
	if (ans->msg)
		warning("%s", ans->msg);
}

static int cb_ack(struct nl_msg *msg, void *arg)
{
	ack_hdr(arg, nlmsg_hdr(msg));
	return NL_STOP;
}

/* NLMSG_DONE: the end of a dump, with the dump's error code. */
static void finish_hdr(struct nl_answer *ans, const struct nlmsghdr *nlh)
{
	int code;

	ans->done = true;
	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
		memcpy(&code, nlmsg_data(nlh), sizeof(code));
		if (code < 0) {
			ans->err = -code;
			read_ext_ack(ans, nlh,
				     NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int)));
		}
	}
}

static int cb_finish(struct nl_msg *msg, void *arg)
{
	finish_hdr(arg, nlmsg_hdr(msg));
	return NL_STOP;
}

static int cb_valid(struct nl_msg *msg, void *arg)
{
	struct nl_answer *ans = arg;

	if (ans->replies)
		msg_list_add(ans->replies, msg);
	return NL_OK;
}

static int cb_dump_intr(struct nl_msg *msg, void *arg)
{
	struct nl_answer *ans = arg;

	(void)msg;
	ans->interrupted = true;
	return NL_OK;
}

int nl_session_open(struct nl_session **sp)
{
	struct nl_session *s = xcalloc(1, sizeof(*s));
	struct nl_answer *ans = &s->ans;
	int one = 1, err;

	*sp = NULL;
	s->sk = nl_socket_alloc();
	if (!s->sk) {
		error("cannot allocate a netlink socket");
		goto fail;
	}
	err = genl_connect(s->sk);
	if (err < 0) {
		error("cannot open a generic netlink socket: %s",
		      nl_geterror(err));
		goto fail;
	}
	/* a reply bigger than a page must not be truncated */
	nl_socket_enable_msg_peek(s->sk);
	/*
	 * Ask for extack messages; errors then also stop echoing our request
	 * back (CAP_ACK).  Kernels before 4.12 lack these: carry on without.
	 */
	if (setsockopt(nl_socket_get_fd(s->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		       &one, sizeof(one)) < 0 && errno != ENOPROTOOPT)
		warning("cannot enable netlink extended ACK: %s",
			strerror(errno));
	if (setsockopt(nl_socket_get_fd(s->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		       &one, sizeof(one)) < 0 && errno != ENOPROTOOPT)
		warning("cannot enable netlink capped ACK: %s",
			strerror(errno));

	s->family = genl_ctrl_resolve(s->sk, PCIESW_FAMILY_NAME);
	if (s->family == -NLE_OBJ_NOTFOUND) {
		error("pciesw module not loaded (no \"%s\" netlink family)",
		      PCIESW_FAMILY_NAME);
		nl_session_close(s);
		return EXIT_NOMODULE;
	}
	if (s->family < 0) {
		error("cannot look up the \"%s\" netlink family: %s",
		      PCIESW_FAMILY_NAME, nl_geterror(s->family));
		goto fail;
	}

	s->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!s->cb) {
		error("out of memory");
		goto fail;
	}
	if (nl_cb_err(s->cb, NL_CB_CUSTOM, cb_error, ans) < 0 ||
	    nl_cb_set(s->cb, NL_CB_ACK, NL_CB_CUSTOM, cb_ack, ans) < 0 ||
	    nl_cb_set(s->cb, NL_CB_FINISH, NL_CB_CUSTOM, cb_finish, ans) < 0 ||
	    nl_cb_set(s->cb, NL_CB_VALID, NL_CB_CUSTOM, cb_valid, ans) < 0 ||
	    nl_cb_set(s->cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, cb_dump_intr,
		      ans) < 0) {
		error("cannot set up netlink callbacks");
		goto fail;
	}
	*sp = s;
	return EXIT_OK;

fail:
	nl_session_close(s);
	return EXIT_FAIL;
}

void nl_session_close(struct nl_session *s)
{
	if (!s)
		return;
	nl_cb_put(s->cb);
	nl_socket_free(s->sk);
	free(s->ans.msg);
	free(s);
}

static void __attribute__((noreturn)) request_bug(void)
{
	error("cannot build a netlink request (out of memory)");
	exit(EXIT_FAIL);
}

struct nl_msg *nl_request_new(struct nl_session *s, uint8_t cmd, bool dump)
{
	struct nl_msg *req = nlmsg_alloc();

	if (!req)
		request_bug();
	if (!genlmsg_put(req, NL_AUTO_PORT, NL_AUTO_SEQ, s->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, PCIESW_FAMILY_VERSION))
		request_bug();
	return req;
}

void nl_put_u8(struct nl_msg *req, int attr, uint8_t value)
{
	if (nla_put_u8(req, attr, value) < 0)
		request_bug();
}

void nl_put_s32(struct nl_msg *req, int attr, int32_t value)
{
	if (nla_put_s32(req, attr, value) < 0)
		request_bug();
}

void nl_put_u64(struct nl_msg *req, int attr, uint64_t value)
{
	if (nla_put_u64(req, attr, value) < 0)
		request_bug();
}

void nl_put_flag(struct nl_msg *req, int attr)
{
	if (nla_put_flag(req, attr) < 0)
		request_bug();
}

void nl_put_u32(struct nl_msg *req, int attr, uint32_t value)
{
	if (nla_put_u32(req, attr, value) < 0)
		request_bug();
}

void nl_put_string(struct nl_msg *req, int attr, const char *value)
{
	if (nla_put_string(req, attr, value) < 0)
		request_bug();
}

/*
 * The attribute the extack's offset points to in the request @req (@len
 * bytes from its netlink header), or NULL when it is not a whole one.
 */
static const struct nlattr *bad_attr(const struct nl_answer *ans,
				     const void *req, size_t len)
{
	const struct nlattr *a;

	if (!ans->has_offs || !req || ans->offs < NLMSG_HDRLEN ||
	    ans->offs > len || len - ans->offs < NLA_HDRLEN)
		return NULL;
	a = (const struct nlattr *)((const char *)req + ans->offs);
	if (a->nla_len < NLA_HDRLEN || a->nla_len > len - ans->offs)
		return NULL;
	return a;
}

/* An integer attribute's value, signed as the spec types it. */
static bool attr_int(const struct nlattr *a, long long *v)
{
	int type = nla_type(a);
	bool sign = type <= PCIESW_A_MAX &&
		    spec_reply_policy[type].type == NLA_S32;

	switch (nla_len(a)) {
	case 1:
		*v = nla_get_u8(a);
		return true;
	case 4:
		*v = sign ? (long long)(int32_t)nla_get_u32(a) :
			    (long long)nla_get_u32(a);
		return true;
	case 8:
		*v = (long long)nla_get_u64(a);
		return true;
	default:
		return false;
	}
}

/*
 * The kernel refused: say why, after what the command was doing, in the
 * kernel's words when it gave some; a bad attribute by its spec name, and
 * a number out of range with the range (the policy's, from the extack, or
 * else the spec's): "cannot set switch 3: switch-mps: 64 is out of range
 * 128-4096".
 */
static void report_error(const struct nl_answer *ans, const char *what,
			 const void *req, size_t len)
{
	const struct nlattr *a = bad_attr(ans, req, len);
	bool has_min = ans->has_min, has_max = ans->has_max;
	long long min = ans->min, max = ans->max, v;
	const char *name;
	int type;

	if (ans->err == EPERM) {
		/* the module says what it needs beyond CAP_NET_ADMIN */
		if (ans->msg)
			error("%s: operation not permitted: %s", what,
			      ans->msg);
		else
			error("%s: operation not permitted (need CAP_NET_ADMIN)",
			      what);
		return;
	}
	if (a) {
		type = nla_type(a);
		name = attr_name(type);
		if (!has_min && !has_max && type <= PCIESW_A_MAX) {
			has_min = spec_attr_checks[type].has_min;
			has_max = spec_attr_checks[type].has_max;
			min = spec_attr_checks[type].min;
			max = spec_attr_checks[type].max;
		}
		if (attr_int(a, &v) && ((has_min && v < min) ||
					(has_max && v > max))) {
			if (has_min && has_max)
				error("%s: %s: %lld is out of range %lld-%lld",
				      what, name, v, min, max);
			else if (has_max)
				error("%s: %s: %lld is above the maximum %lld",
				      what, name, v, max);
			else
				error("%s: %s: %lld is below the minimum %lld",
				      what, name, v, min);
			return;
		}
		error("%s: %s: %s", what, name,
		      ans->msg ? ans->msg : strerror(ans->err));
		return;
	}
	if (ans->msg)
		error("%s: %s", what, ans->msg);
	else if (ans->has_miss_type)
		error("%s: missing attribute %s", what,
		      attr_name(ans->miss_type));
	else
		error("%s: %s", what, strerror(ans->err));
}

void nl_dump_free(struct nl_dump *d)
{
	size_t i;

	for (i = 0; i < d->nr_bufs; i++)
		free(d->bufs[i]);
	free(d->bufs);
	free(d->msgs);
	*d = (struct nl_dump){ 0 };
}

/*
 * Reads one datagram of the answer to request @seq into @d: the replies
 * stay where they came, in the datagram's buffer; the end of the dump, an
 * ACK or an error go to the session's answer as the callbacks put them.
 * 0, or a libnl error.
 */
static int recv_dump(struct nl_session *s, uint32_t seq, struct nl_dump *d)
{
	struct nl_answer *ans = &s->ans;
	char *buf = xmalloc(NL_DUMP_BUF_SIZE);
	struct nlmsghdr *nlh;
	bool kept = false;
	ssize_t n;
	int len, err = 0;

	do
		n = recv(nl_socket_get_fd(s->sk), buf, NL_DUMP_BUF_SIZE,
			 MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0 || n > NL_DUMP_BUF_SIZE) {
		free(buf);
		return n < 0 ? -nl_syserr2nlerr(errno) : -NLE_MSG_TRUNC;
	}
	/* kept while the replies in it are: only as big as it is */
	if (n < NL_DUMP_BUF_SIZE) {
		char *shrunk = realloc(buf, n ? n : 1);

		if (shrunk)
			buf = shrunk;
	}
	len = n;
	for (nlh = (struct nlmsghdr *)buf; !ans->done && nlmsg_ok(nlh, len);
	     nlh = nlmsg_next(nlh, &len)) {
		/* a late answer to a request given up on */
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			ans->interrupted = true;
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			break;
		case NLMSG_OVERRUN:
			err = -NLE_MSG_OVERFLOW;
			break;
		case NLMSG_DONE:
			finish_hdr(ans, nlh);
			break;
		case NLMSG_ERROR:
			if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
				err = -NLE_MSG_TRUNC;
			else if (((struct nlmsgerr *)nlmsg_data(nlh))->error)
				cb_error(NULL, nlmsg_data(nlh), ans);
			else
				ack_hdr(ans, nlh);
			break;
		default:
			if (d->n == d->cap) {
				d->cap = d->cap ? d->cap * 2 : 64;
				d->msgs = xreallocarray(d->msgs, d->cap,
							sizeof(*d->msgs));
			}
			d->msgs[d->n++] = nlh;
			kept = true;
			break;
		}
		if (err)
			break;
	}
	if (kept) {
		d->bufs = xreallocarray(d->bufs, d->nr_bufs + 1,
					sizeof(*d->bufs));
		d->bufs[d->nr_bufs++] = buf;
	} else {
		free(buf);
	}
	return err;
}

/* The replies gathered so far, into @replies (libnl's) or @raw, dropped */
static void drop_replies(struct msg_list *replies, struct nl_dump *raw)
{
	if (replies)
		msg_list_free(replies);
	if (raw)
		nl_dump_free(raw);
}

/* nl_request_run() and nl_request_try(), @ap for @what */
static int request_run(struct nl_session *s, struct nl_msg *req,
		       struct msg_list *replies, struct nl_dump *raw,
		       int quiet_err, const char *what, va_list ap)
{
	struct nl_answer *ans = &s->ans;
	bool dump = nlmsg_hdr(req)->nlmsg_flags & NLM_F_DUMP;
	char *context = NULL;
	void *sent = NULL;
	size_t sent_len = 0;
	int err, ret = EXIT_OK, tries = 0;

again:
	free(ans->msg);
	*ans = (struct nl_answer){ .replies = replies };

	/*
	 * nl_send_auto() sets NLM_F_ACK, so a do ends in an ACK or an error;
	 * a dump ends in NLMSG_DONE (or an error if it cannot start).  Until
	 * one of those arrives, replies keep coming, maybe over many reads.
	 */
	nlmsg_hdr(req)->nlmsg_seq = NL_AUTO_SEQ;
	err = nl_send_auto(s->sk, req);
	/* what was sent, for the extack's offset of a bad attribute */
	if (!sent && err >= 0) {
		sent_len = nlmsg_hdr(req)->nlmsg_len;
		sent = xmalloc(sent_len);
		memcpy(sent, nlmsg_hdr(req), sent_len);
	}
	while (err >= 0 && !ans->done)
		err = raw ? recv_dump(s, nlmsg_hdr(req)->nlmsg_seq, raw) :
			    nl_recvmsgs(s->sk, s->cb);
	/* our callbacks stop libnl with an error code after a kernel error */
	if (ans->done && ans->err)
		err = 0;
	/*
	 * The objects changed while the dump went on (NLM_F_DUMP_INTR): what
	 * came may mix old and new.  Ask again, a few times.
	 */
	if (dump && ans->interrupted && !ans->err &&
	    (err >= 0 || err == -NLE_DUMP_INTR) && ++tries < DUMP_TRIES) {
		drop_replies(replies, raw);
		goto again;
	}

	if (quiet_err && err >= 0 && ans->err == quiet_err) {
		drop_replies(replies, raw);
		ret = -quiet_err;
	} else if (err < 0 || ans->err || ans->interrupted) {
		if (vasprintf(&context, what, ap) < 0)
			context = NULL;
		if (err < 0 && err != -NLE_DUMP_INTR)
			error("%s: %s", context ? context : what,
			      nl_geterror(err));
		else if (ans->err)
			report_error(ans, context ? context : what, sent,
				     sent_len);
		else
			error("%s: the kernel's answer changed while it was read, %d times; try again",
			      context ? context : what, tries);
		free(context);
		drop_replies(replies, raw);
		ret = EXIT_FAIL;
	}
	nlmsg_free(req);
	free(sent);
	ans->replies = NULL;
	return ret;
}

int nl_request_run(struct nl_session *s, struct nl_msg *req,
		   struct msg_list *replies, const char *what, ...)
{
	va_list ap;
	int ret;

	va_start(ap, what);
	ret = request_run(s, req, replies, NULL, 0, what, ap);
	va_end(ap);
	return ret;
}

int nl_request_try(struct nl_session *s, struct nl_msg *req,
		   struct msg_list *replies, int quiet_err,
		   const char *what, ...)
{
	va_list ap;
	int ret;

	va_start(ap, what);
	ret = request_run(s, req, replies, NULL, quiet_err, what, ap);
	va_end(ap);
	return ret;
}

int nl_dump_run(struct nl_session *s, struct nl_msg *req, struct nl_dump *d,
		int quiet_err, const char *what, ...)
{
	va_list ap;
	int ret;

	va_start(ap, what);
	ret = request_run(s, req, NULL, d, quiet_err, what, ap);
	va_end(ap);
	return ret;
}

/* The spec's attribute types (spec_names.h) */
#define reply_policy spec_reply_policy

int nl_parse_hdr(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	int err;

	/*
	 * Attributes newer than this switchctl are ignored, not refused.
	 * (libnl's prototype lacks the const it honours.)
	 */
	err = genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, PCIESW_A_MAX,
			    reply_policy);
	if (err < 0) {
		error("malformed message from the kernel: %s",
		      nl_geterror(err));
		return -1;
	}
	return 0;
}

int nl_parse_reply(struct nl_msg *msg, struct nlattr **tb)
{
	return nl_parse_hdr(nlmsg_hdr(msg), tb);
}

int nl_parse_nest(const struct nlattr *nest, struct nlattr **tb)
{
	return nla_parse_nested(tb, PCIESW_A_MAX, (struct nlattr *)nest,
				reply_policy) < 0 ? -1 : 0;
}

/* nl_parse_slots() of the attributes at @head, @len bytes */
static int parse_slots(const struct nlattr *head, int len, const uint8_t *slot,
		       struct nlattr **tb, size_t nr_slots)
{
	const struct nlattr *pos;
	int rem, type, err;

	memset(tb, 0, nr_slots * sizeof(*tb));
	nla_for_each_attr(pos, head, len, rem) {
		type = nla_type(pos);
		if (type > PCIESW_A_MAX || !slot[type])
			continue;
		/* libnl's own check of this one attribute, as nla_parse()'s */
		err = nla_validate(pos, pos->nla_len, PCIESW_A_MAX,
				   reply_policy);
		if (err < 0)
			return err;
		if (slot[type] < nr_slots)
			tb[slot[type]] = (struct nlattr *)pos;
	}
	return 0;
}

int nl_parse_slots(const struct nlmsghdr *nlh, const uint8_t *slot,
		   struct nlattr **tb, size_t nr_slots)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	int err = -NLE_MSG_TOOSHORT;

	if (genlmsg_valid_hdr((struct nlmsghdr *)nlh, 0))
		err = parse_slots(genlmsg_attrdata(gnlh, 0),
				  genlmsg_attrlen(gnlh, 0), slot, tb,
				  nr_slots);
	if (err < 0) {
		error("malformed message from the kernel: %s",
		      nl_geterror(err));
		return -1;
	}
	return 0;
}

int nl_parse_nest_slots(const struct nlattr *nest, const uint8_t *slot,
			struct nlattr **tb, size_t nr_slots)
{
	return parse_slots(nla_data(nest), nla_len(nest), slot, tb,
			   nr_slots) < 0 ? -1 : 0;
}

void nl_for_each_attr(const struct nlmsghdr *nlh, int type,
		      void (*fn)(const struct nlattr *a, void *arg),
		      void *arg)
{
	const struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct nlattr *pos;
	int rem;

	nla_for_each_attr(pos, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem)
		if (nla_type(pos) == type)
			fn(pos, arg);
}

int nl_session_fd(const struct nl_session *s)
{
	return nl_socket_get_fd(s->sk);
}

int nl_session_family(const struct nl_session *s)
{
	return s->family;
}

int nl_subscribe(struct nl_session *s, const char *const (*groups)[2],
		 size_t n)
{
	int grp[NL_MAX_SUBSCRIBE], err;
	size_t i;

	if (n > NL_MAX_SUBSCRIBE)
		return EXIT_FAIL;
	/*
	 * Resolve every group before joining any: once joined, notifications
	 * could arrive in the middle of the controller's replies.
	 */
	for (i = 0; i < n; i++) {
		grp[i] = genl_ctrl_resolve_grp(s->sk, groups[i][0],
					       groups[i][1]);
		if (grp[i] < 0) {
			error("cannot find the multicast group \"%s\" of \"%s\": %s",
			      groups[i][1], groups[i][0], nl_geterror(grp[i]));
			return EXIT_FAIL;
		}
	}
	for (i = 0; i < n; i++) {
		err = nl_socket_add_membership(s->sk, grp[i]);
		if (err < 0) {
			error("cannot join the multicast group \"%s\" of \"%s\": %s",
			      groups[i][1], groups[i][0], nl_geterror(err));
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

int nl_family_exists(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int err;

	if (!sk) {
		error("cannot allocate a netlink socket");
		return -1;
	}
	err = genl_connect(sk);
	if (err < 0) {
		error("cannot open a generic netlink socket: %s",
		      nl_geterror(err));
		nl_socket_free(sk);
		return -1;
	}
	err = genl_ctrl_resolve(sk, PCIESW_FAMILY_NAME);
	nl_socket_free(sk);
	if (err >= 0)
		return 1;
	if (err == -NLE_OBJ_NOTFOUND)
		return 0;
	error("cannot look up the \"%s\" netlink family: %s",
	      PCIESW_FAMILY_NAME, nl_geterror(err));
	return -1;
}
