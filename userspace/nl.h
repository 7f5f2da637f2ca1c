/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink side of switchctl: a session with the "pciesw" generic netlink
 * family, requests that collect every reply (do or multipart dump) before
 * anything is printed, and errors reported with the kernel's extack text.
 */
#ifndef SWITCHCTL_NL_H
#define SWITCHCTL_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include <linux/pciesw.h>

struct nl_session;

/* The replies of one request, in the order the kernel sent them. */
struct msg_list {
	struct nl_msg **msgs;
	size_t n;
	size_t cap;
};

void msg_list_free(struct msg_list *l);

/*
 * Connects and resolves the family.  Returns EXIT_OK, or prints why not and
 * returns EXIT_NOMODULE (no "pciesw" family: module not loaded) or EXIT_FAIL.
 */
int nl_session_open(struct nl_session **sp);
void nl_session_close(struct nl_session *s);

/* A request for @cmd; a dump when @dump.  Never NULL (exits on ENOMEM). */
struct nl_msg *nl_request_new(struct nl_session *s, uint8_t cmd, bool dump);
/* Attribute puts that cannot fail short of a bug; they exit if they do. */
void nl_put_u8(struct nl_msg *req, int attr, uint8_t value);
void nl_put_u32(struct nl_msg *req, int attr, uint32_t value);
void nl_put_s32(struct nl_msg *req, int attr, int32_t value);
void nl_put_u64(struct nl_msg *req, int attr, uint64_t value);
void nl_put_flag(struct nl_msg *req, int attr);
void nl_put_string(struct nl_msg *req, int attr, const char *value);

/*
 * Sends @req (and frees it), waits for the end of the answer (ACK, error or
 * end of dump) and appends every reply to @replies (may be NULL when no
 * reply is expected).  On failure prints "error: <extack message>", or
 * "error: <what>: <strerror>" when the kernel gave no message, and returns
 * EXIT_FAIL; @replies is then emptied.  Returns EXIT_OK on success.
 */
int nl_request_run(struct nl_session *s, struct nl_msg *req,
		   struct msg_list *replies, const char *what, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * As nl_request_run(), except that when the kernel answers with the error
 * @quiet_err (a positive errno) nothing is printed and -@quiet_err is
 * returned: for a request with an attribute an older module refuses
 * (EINVAL, an unknown attribute), which the caller then asks again without.
 */
int nl_request_try(struct nl_session *s, struct nl_msg *req,
		   struct msg_list *replies, int quiet_err,
		   const char *what, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * The replies of a dump as they came: the datagrams (@bufs) and each
 * reply's header in them, in order.  No copy and no allocation a reply:
 * for a dump of many objects (top's, each refresh).
 */
struct nl_dump {
	void **bufs;
	size_t nr_bufs;
	const struct nlmsghdr **msgs;
	size_t n, cap;
};

/* A datagram's buffer: a dump's are at most 32 KiB (the kernel's cap). */
#define NL_DUMP_BUF_SIZE	65536

void nl_dump_free(struct nl_dump *d);
/*
 * As nl_request_try() (@quiet_err 0: as nl_request_run()), for a dump:
 * its replies into @d.  The session's socket is then read without libnl,
 * which no longer knows the sequence numbers to expect: a session that
 * runs one such dump runs all its later requests so.
 */
int nl_dump_run(struct nl_session *s, struct nl_msg *req, struct nl_dump *d,
		int quiet_err, const char *what, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * Parses a reply into @tb[0..PCIESW_A_MAX], checking attribute types and
 * that strings are terminated.  Returns 0, or prints an error and returns -1.
 */
int nl_parse_reply(struct nl_msg *msg, struct nlattr **tb);
/* The same for a message as received: a reply or a notification. */
int nl_parse_hdr(const struct nlmsghdr *nlh, struct nlattr **tb);
/*
 * Parses one nest of a reply (port-ltssm-transition, counter,
 * thermal-sensor, vpd-field) into @tb[0..PCIESW_A_MAX].
 * Returns 0, or -1 for a malformed nest (nothing printed).
 */
int nl_parse_nest(const struct nlattr *nest, struct nlattr **tb);

/*
 * Parses only the attributes a caller reads, for the many replies of a
 * dump: @slot[type] (@slot has PCIESW_A_MAX + 1 entries) is where an
 * attribute of that type goes in @tb[0..@nr_slots), 0 for one not read.
 * Those are checked as nl_parse_hdr() checks them (the last of a type
 * wins); the others are skipped unread, with no PCIESW_A_MAX-wide table to
 * clear.  Returns 0, or prints an error and returns -1.
 */
int nl_parse_slots(const struct nlmsghdr *nlh, const uint8_t *slot,
		   struct nlattr **tb, size_t nr_slots);
/* The same for a nest; -1 for a malformed one (nothing printed). */
int nl_parse_nest_slots(const struct nlattr *nest, const uint8_t *slot,
			struct nlattr **tb, size_t nr_slots);

/*
 * Calls @fn for every attribute of type @type in the message @nlh, in
 * order: the way to read multi-attr attributes (tb[] keeps only the last).
 */
void nl_for_each_attr(const struct nlmsghdr *nlh, int type,
		      void (*fn)(const struct nlattr *a, void *arg),
		      void *arg);

/*
 * Monitoring.  The file descriptor of the session's socket, to receive
 * notifications on without libnl; the family id of "pciesw"; joining a
 * multicast groups ({family, group} pairs) of generic netlink families.
 * nl_subscribe() prints why it failed and returns EXIT_FAIL, or returns
 * EXIT_OK.
 */
#define NL_MAX_SUBSCRIBE 4
int nl_session_fd(const struct nl_session *s);
int nl_session_family(const struct nl_session *s);
int nl_subscribe(struct nl_session *s, const char *const (*groups)[2],
		 size_t n);
/*
 * Does the "pciesw" family exist?  1 yes, 0 no, -1 cannot tell (printed).
 */
int nl_family_exists(void);

#endif /* SWITCHCTL_NL_H */
