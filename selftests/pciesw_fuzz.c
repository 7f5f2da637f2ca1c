// SPDX-License-Identifier: GPL-2.0
/*
 * A fuzzer of every way into the module, with concurrent workers:
 *
 *  - netlink workers: requests built from the spec (pciesw_spec.h, made by
 *    gen_spec.py from Documentation/netlink/specs/pciesw.yaml: each op's
 *    request attributes, their types and ranges), valid and mutated (wrong
 *    types and lengths, out-of-range values, unknown attributes, nested
 *    garbage, strings without NUL, bad flags, unknown commands), sent 32
 *    per datagram (the kernel parses and acks each); dumps of every op
 *    that has one, one at a time; broken headers (truncated nlmsghdr and
 *    genlmsghdr, lengths beyond the datagram), alone.
 *  - device workers on /dev/pcieswN: the ioctls with structured random
 *    arguments (bad sizes, flags, reserved fields, pointers), DMA batches
 *    of random descriptors (endpoint and host ends, bad ids, offsets near
 *    and past the window's end, overlaps, zero and huge lengths, read-only
 *    and unmapped host buffers), read() of completions with odd sizes,
 *    mmap() of windows at random offsets, lengths and protections, touched
 *    (SIGBUS after an unplug is expected and caught).
 *  - file workers: random and plausible strings written to every writable
 *    sysfs attribute of the test switch (its device, ports, groups,
 *    endpoints, hwmon) and to its debugfs files; the list is rescanned as
 *    ports and endpoints come and go.  Never the bus's new_device and
 *    del_device, nor pci_view=1 (the PCI view is slow to build on the
 *    debug kernel and is driven by pciesw_pci_churn.sh).
 *  - the main thread: now and then creates and deletes a spare switch (slow
 *    on the debug kernel, so rarely), plugs endpoints back into empty
 *    ports of the test switch so that DMA and mmap keep something to aim
 *    at, and watches /dev/kmsg for kernel problems while the run lasts.
 *
 * Every worker prints its seed; --seed S gives worker i the seed S + i, so
 * a run is reproducible given the same options (up to the interleaving of
 * the workers).  The counts of inputs per class are printed at the end.
 *
 *   pciesw_fuzz [--seed S] [--time SECS] [--inputs N] [--nl N] [--dev N]
 *               [--fs N] [--min-inputs N] [--profile 0|1]
 *
 * At the end: per class of input, the count, those accepted and the
 * workers' time per input, and how busy the guest's CPUs were; --profile
 * 1 sends do requests one per datagram and prints the time per command,
 * well-formed and mutated (where a slow run spends its time).
 *
 * (or, without arguments, those of PCIESW_FUZZ_ARGS: run.sh passes none)
 *
 * Stops after SECS seconds or N inputs, whichever comes first (default:
 * 12 s, or PCIESW_FUZZ_TIME; 10 s reduced on the debug plan); fails when
 * fewer than --min-inputs were made, when a request got no answer within
 * its deadline (a hang), when the kernel log showed a problem, or when
 * the test switch is gone or unreadable afterwards.  scripts/fuzz.sh
 * (make fuzz) runs the full form on the debug kernel.
 *
 * Switch ids used here: 240 (the test switch), 241 (the spare).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "pciesw_topo.h"
#include "pciesw_dma.h"

#define ID		240U
#define ID_SPARE	241U
#define NO_SUCH_ID	252U	/* a valid id no switch has during the run */

/* ------------------------------------------------------------------ */
/* Counts                                                              */

enum fz_class {
	FZ_NL_DO, FZ_NL_DUMP, FZ_NL_HDR, FZ_IOCTL, FZ_DMA, FZ_READ, FZ_MMAP,
	FZ_SYSFS, FZ_DEBUGFS, FZ_LIFE, FZ_NR
};

static const char *const fz_names[FZ_NR] = {
	"netlink-do", "netlink-dump", "netlink-header", "ioctl", "dma-submit",
	"dma-read", "mmap", "sysfs-write", "debugfs-write", "lifecycle",
};

static atomic_ullong fz_count[FZ_NR];
static atomic_ullong fz_ok[FZ_NR];	/* inputs the kernel took (0 / ok) */
static atomic_ullong fz_ns[FZ_NR];	/* workers' time in each class */
static atomic_ullong fz_total;
static atomic_ullong fz_accepted;
static atomic_uint fz_hangs, fz_proto, fz_sigbus, fz_kproblems;
static atomic_bool fz_stop;
static unsigned long long fz_max_inputs = ~0ULL;
static int nl_family;

/* the class of the input a worker made last, for its time */
static __thread enum fz_class fz_cur;

static void count(enum fz_class c, bool accepted)
{
	fz_cur = c;
	atomic_fetch_add_explicit(&fz_count[c], 1, memory_order_relaxed);
	if (accepted) {
		atomic_fetch_add_explicit(&fz_ok[c], 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&fz_accepted, 1,
					  memory_order_relaxed);
	}
	if (atomic_fetch_add_explicit(&fz_total, 1, memory_order_relaxed) + 1
	    >= fz_max_inputs)
		atomic_store(&fz_stop, true);
}

/* ------------------------------------------------------------------ */
/* Random numbers: xorshift64*, one state per worker                  */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

static uint32_t rn(struct rng *r, uint32_t n)	/* 0..n-1 */
{
	return n ? (uint32_t)((rnd(r) >> 32) % n) : 0;
}

static bool one_in(struct rng *r, uint32_t n)
{
	return rn(r, n) == 0;
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
	if (!r->s)
		r->s = 1;
	rnd(r);
}

/*
 * The time since *@t0 goes to the class of the last input counted:
 * where the workers' time goes, printed at the end.
 */
static void charge(uint64_t *t0)
{
	uint64_t now = tp_now_ns();

	atomic_fetch_add_explicit(&fz_ns[fz_cur], now - *t0,
				  memory_order_relaxed);
	*t0 = now;
}

static void rnd_bytes(struct rng *r, void *p, size_t n)
{
	unsigned char *b = p;

	while (n--)
		*b++ = rnd(r);
}

/* A number of a random size, with the edges of each size common. */
static uint64_t rnd_num(struct rng *r)
{
	static const uint64_t edges[] = {
		0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256,
		511, 512, 4095, 4096, 4097, 65535, 65536, 0x7fffffff,
		0x80000000, 0xffffffff, 0x100000000ULL, 1ULL << 40,
		0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL,
		~0ULL - 1, 1000000, 1000001, 1ULL << 30, (1ULL << 30) + 1,
	};

	switch (rn(r, 4)) {
	case 0:
		return edges[rn(r, sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return rn(r, 64);
	case 2:
		return rnd(r) >> rn(r, 64);
	default:
		return rnd(r);
	}
}

/* Strings that mean something to some parser of the module. */
static const char *const words[] = {
	"0", "1", "2", "4", "8", "16", "-1", "255", "256", "4096", "128",
	"1x16", "2x8", "4x4", "8x2", "16x1", "1x8", "1x4", "3x5", "0x16",
	"host", "gpu", "nvme", "generic", "pex89048", "pex89144", "tiny8",
	"gpu0", "nvme0", "nvme3", "pciesw240", "y", "n", "off", "no",
	"2.5GT/s", "8.0GT/s", "32.0GT/s", "64.0GT/s", "rx posted 4096",
	"tx completion 100", "rx", "0 0 1 0 4096", "1 0 0 4096 65536",
	"18446744073709551615", "18446744073709551616", "4294967296",
	"PN", "SN", "V0", "YA", "RV", " ", "\t", "", "\n", "0x10", "1e3",
	"1000000000000000", "1000000000000001",
};

/* A string for a parser: words, numbers, junk, long, NULs, whitespace. */
static size_t rnd_str(struct rng *r, char *buf, size_t cap)
{
	size_t n = 0, want;

	switch (rn(r, 6)) {
	case 0: /* a word, maybe with a newline */
		n = snprintf(buf, cap, "%s%s",
			     words[rn(r, sizeof(words) / sizeof(words[0]))],
			     one_in(r, 2) ? "\n" : "");
		break;
	case 1: /* a number */
		n = snprintf(buf, cap, one_in(r, 3) ? "%lld\n" : "%llu",
			     (unsigned long long)rnd_num(r));
		break;
	case 2: /* two or three words */
		n = snprintf(buf, cap, "%s %s %s",
			     words[rn(r, sizeof(words) / sizeof(words[0]))],
			     words[rn(r, sizeof(words) / sizeof(words[0]))],
			     one_in(r, 2) ? words[rn(r, 10)] : "");
		break;
	case 3: /* printable junk */
		want = rn(r, 48);
		for (n = 0; n < want && n < cap; n++)
			buf[n] = 32 + rn(r, 95);
		break;
	case 4: /* binary junk, NULs included */
		want = rn(r, 64);
		n = want < cap ? want : cap;
		rnd_bytes(r, buf, n);
		break;
	default: /* long: at and around page and buffer sizes */
		want = one_in(r, 2) ? rn(r, 300) : 4096 - 2 + rn(r, 4);
		n = want < cap ? want : cap;
		memset(buf, "a19 x\n"[rn(r, 6)], n);
		break;
	}
	if (n > cap)
		n = cap;
	return n;
}

/* ------------------------------------------------------------------ */
/* What the workers know of the test switch                            */

#define MAX_EPS	32

struct known_ep {
	uint32_t id;
	uint64_t mem_size;
};

static pthread_mutex_t eps_lock = PTHREAD_MUTEX_INITIALIZER; /* eps, nr_eps */
static struct known_ep eps[MAX_EPS];
static unsigned int nr_eps;

static void eps_set(const struct known_ep *e, unsigned int n)
{
	pthread_mutex_lock(&eps_lock);
	memcpy(eps, e, n * sizeof(*e));
	nr_eps = n;
	pthread_mutex_unlock(&eps_lock);
}

static bool eps_pick(struct rng *r, struct known_ep *e)
{
	bool ok = false;

	pthread_mutex_lock(&eps_lock);
	if (nr_eps) {
		*e = eps[rn(r, nr_eps)];
		ok = true;
	}
	pthread_mutex_unlock(&eps_lock);
	return ok;
}

/* an id value for attribute @a: mostly one that names something real */
static uint64_t id_value(struct rng *r, int a)
{
	struct known_ep e;

	switch (a) {
	case PCIESW_A_SWITCH_ID:
		return one_in(r, 8) ? rnd_num(r) : ID;
	case PCIESW_A_EP_ID:
	case PCIESW_A_PEER_EP_ID:
		if (!one_in(r, 4) && eps_pick(r, &e))
			return e.id;
		return rnd_num(r);
	case PCIESW_A_PORT_ID:
	case PCIESW_A_GROUP_ID:
	case PCIESW_A_SENSOR_ID:
		return one_in(r, 6) ? rnd_num(r) : rn(r, 10);
	default:
		return rnd_num(r);
	}
}

/* ------------------------------------------------------------------ */
/* Netlink                                                             */

struct nlw {
	int fd;
	uint32_t seq;
	unsigned char *tx;
	size_t tx_len;
	unsigned char *rx;
};

#define NL_TX	(128 * 1024)
#define NL_RX	(256 * 1024)
#define NL_BATCH 32
#define NL_MSG_MAX 3000	/* a message's room in a batch */

static int nl_open(struct nlw *w)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, big = 4 << 20;

	w->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (w->fd < 0)
		return -errno;
	if (bind(w->fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -errno;
	setsockopt(w->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(w->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(w->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	w->tx = malloc(NL_TX);
	w->rx = malloc(NL_RX);
	return w->tx && w->rx ? 0 : -ENOMEM;
}

static void fnl_close(struct nlw *w)
{
	close(w->fd);
	free(w->tx);
	free(w->rx);
}

/* Append an attribute (header + payload, padded) at @p; its total size. */
static size_t put_attr(unsigned char *p, size_t room, uint16_t type,
		       const void *data, size_t len)
{
	struct nlattr *nla = (struct nlattr *)p;
	size_t tot = NLA_ALIGN(NLA_HDRLEN + len);

	if (tot > room || NLA_HDRLEN + len > 0xffff)
		return 0;
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, tot - NLA_HDRLEN - len);
	return tot;
}

static size_t gen_attr(struct rng *r, unsigned char *p, size_t room, int a,
		       bool valid, int depth);

/* Inside a nest: attributes of its set, valid or not, or garbage. */
static size_t gen_nest_body(struct rng *r, unsigned char *p, size_t room,
			    int nest, bool valid, int depth)
{
	size_t off = 0, n;
	unsigned int i, k = 1 + rn(r, 4);

	if (!valid && one_in(r, 4)) {	/* garbage */
		n = rn(r, 64);
		if (n > room)
			n = room;
		rnd_bytes(r, p, n);
		return n;
	}
	for (i = 0; i < k; i++) {
		int a;

		if (nest >= 0 && !(!valid && one_in(r, 5))) {
			int tries = 0;

			do
				a = 1 + rn(r, SPEC_ATTR_MAX);
			while (!spec_nests[nest][a] && ++tries < 200);
		} else {
			a = 1 + rn(r, SPEC_ATTR_MAX + 3);
		}
		n = gen_attr(r, p + off, room - off, a, valid, depth + 1);
		off += n;
	}
	return off;
}

/*
 * One attribute @a: in range when @valid (mostly), else anything its type
 * can be told apart from: other lengths, out-of-range values, strings
 * without NUL or too long, nests of junk.
 */
static size_t gen_attr(struct rng *r, unsigned char *p, size_t room, int a,
		       bool valid, int depth)
{
	const struct spec_attr *s = a >= 0 && a <= SPEC_ATTR_MAX ?
				    &spec_attrs[a] : NULL;
	unsigned char buf[512];
	uint16_t type = a;
	size_t len = 0, n;
	uint64_t v;
	int t = s ? s->type : T_BIN;

	if (!valid && one_in(r, 6))	/* a type the spec does not give it */
		t = T_PAD + rn(r, T_NEST + 1);
	switch (t) {
	case T_FLAG:
		len = valid ? 0 : rn(r, 3) * 4;
		memset(buf, 0, len);
		break;
	case T_U8:
	case T_U16:
	case T_U32:
	case T_U64:
	case T_UINT:
		if (s && (a == PCIESW_A_SWITCH_ID || a == PCIESW_A_PORT_ID ||
			  a == PCIESW_A_GROUP_ID || a == PCIESW_A_EP_ID ||
			  a == PCIESW_A_SENSOR_ID || a == PCIESW_A_PEER_EP_ID))
			v = id_value(r, a);
		else if (s && s->nr_enum && !one_in(r, 4))
			v = rn(r, s->nr_enum + 1);
		else if (s && (s->has_min || s->has_max) && !one_in(r, 3)) {
			long long lo = s->has_min ? s->min : 0;
			long long hi = s->has_max ? s->max : lo + 1000000;

			switch (rn(r, 5)) {
			case 0: v = lo; break;
			case 1: v = hi; break;
			case 2: v = lo - 1; break;
			case 3: v = hi + 1; break;
			default: v = lo + rnd(r) % (uint64_t)(hi - lo + 1);
			}
		} else {
			v = rnd_num(r);
		}
		if (a == PCIESW_A_INJECT_COUNT && v > 1000 && !one_in(r, 50))
			v %= 1000;	/* bursts of a million: rarely */
		len = t == T_U8 ? 1 : t == T_U16 ? 2 : t == T_U32 ? 4 : 8;
		if (t == T_UINT && one_in(r, 2))
			len = 4;
		if (!valid && one_in(r, 3))
			len = rn(r, 13);
		memset(buf, 0, sizeof(buf));
		memcpy(buf, &v, len < 8 ? len : 8);
		break;
	case T_STR:
		if (valid && !one_in(r, 5)) {
			const char *w = words[rn(r, sizeof(words) /
						 sizeof(words[0]))];

			len = strlen(w) + 1;
			memcpy(buf, w, len);
		} else {
			len = rnd_str(r, (char *)buf, sizeof(buf) - 1);
			if (s && s->max_len && one_in(r, 2)) {
				len = s->max_len + rn(r, 3);
				memset(buf, 'k', len);
			}
			if (valid || one_in(r, 2))
				buf[len++] = 0;
		}
		break;
	case T_NEST:
		if (depth > 3 || room < NLA_HDRLEN)
			return 0;
		n = gen_nest_body(r, p + NLA_HDRLEN, room - NLA_HDRLEN,
				  s ? s->nest : -1, valid, depth);
		if (NLA_HDRLEN + n > 0xffff)
			return 0;
		((struct nlattr *)p)->nla_type = type |
			(valid || !one_in(r, 3) ? NLA_F_NESTED : 0);
		((struct nlattr *)p)->nla_len = NLA_HDRLEN + n;
		return NLA_ALIGN(NLA_HDRLEN + n);
	default: /* T_BIN, T_PAD, unknown */
		len = rn(r, one_in(r, 8) ? sizeof(buf) : 40);
		rnd_bytes(r, buf, len);
		break;
	}
	if (!valid && one_in(r, 12))
		type |= one_in(r, 2) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
	return put_attr(p, room, type, buf, len);
}

/*
 * Keep the slow and the destructive out of random requests: switch-new
 * and switch-del only with ids that exist (EEXIST) or cannot, and the PCI
 * view never turned on.  Applied to the finished top-level attributes.
 */
static size_t tame(struct rng *r, int cmd, unsigned char *p, size_t len,
		   size_t room)
{
	size_t off = 0;
	uint32_t id;

	while (off + NLA_HDRLEN <= len) {
		struct nlattr *nla = (struct nlattr *)(p + off);
		int t = nla->nla_type & NLA_TYPE_MASK;

		if (nla->nla_len < NLA_HDRLEN || off + nla->nla_len > len)
			break;
		if ((cmd == PCIESW_CMD_SWITCH_NEW ||
		     cmd == PCIESW_CMD_SWITCH_DEL) && t == PCIESW_A_SWITCH_ID)
			nla->nla_type = 0xffff & ~NLA_TYPE_MASK;
		if (t == PCIESW_A_SWITCH_PCI_VIEW)
			memset(p + off + NLA_HDRLEN, 0,
			       nla->nla_len - NLA_HDRLEN);
		off += NLA_ALIGN(nla->nla_len);
	}
	if (cmd == PCIESW_CMD_SWITCH_NEW || cmd == PCIESW_CMD_SWITCH_DEL) {
		/* the last one counts: nla_parse keeps the last */
		if (cmd == PCIESW_CMD_SWITCH_NEW)
			id = one_in(r, 2) ? ID : PCIESW_MAX_SWITCH_ID + 1 + rn(r, 9);
		else
			id = one_in(r, 2) ? NO_SUCH_ID :
			     PCIESW_MAX_SWITCH_ID + 1 + rn(r, 9);
		len += put_attr(p + len, room - len, PCIESW_A_SWITCH_ID, &id,
				sizeof(id));
	}
	return len;
}

/*
 * --profile: do requests one per datagram, the time of each charged to
 * its command, well-formed or mutated: which requests the time goes to.
 */
static bool fz_profile;
static atomic_ullong prof_ns[256][2], prof_n[256][2];
static __thread bool gen_valid;	/* the last request made was well-formed */

/* One request of @cmd (do or dump) at @p: its length. */
static size_t gen_msg(struct rng *r, struct nlw *w, unsigned char *p,
		      size_t room, int cmd, bool dump, uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)p;
	struct genlmsghdr *g = (struct genlmsghdr *)(p + NLMSG_HDRLEN);
	const unsigned char *req = NULL;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN, n;
	bool valid = one_in(r, 3);
	unsigned int i, extra;
	int a;

	(void)w;
	gen_valid = valid;
	if (cmd >= 0 && cmd <= SPEC_CMD_MAX)
		req = dump ? spec_ops[cmd].dump_req : spec_ops[cmd].do_req;
	nlh->nlmsg_type = nl_family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK |
			   (dump ? NLM_F_DUMP : 0);
	if (!valid && one_in(r, 10))
		nlh->nlmsg_flags |= (NLM_F_ECHO | NLM_F_EXCL | NLM_F_CREATE |
				     NLM_F_REPLACE | NLM_F_APPEND |
				     (dump ? 0 : NLM_F_ROOT)) & rnd(r);
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 0;
	g->cmd = cmd;
	g->version = valid || !one_in(r, 4) ? 1 : rn(r, 256);
	g->reserved = valid || !one_in(r, 4) ? 0 : rnd(r);

	/* the op's attributes, in the spec's order, some left out */
	for (a = 1; req && a <= SPEC_ATTR_MAX; a++) {
		if (!req[a] || (a != PCIESW_A_SWITCH_ID && one_in(r, 4)))
			continue;
		if (a == PCIESW_A_SWITCH_ID && !valid && one_in(r, 10))
			continue;
		n = gen_attr(r, p + off, room - off, a,
			     valid || !one_in(r, 3), 0);
		off += n;
	}
	/* and for a mutated one, more: any attribute, unknown ones, junk */
	extra = valid ? 0 : rn(r, 4);
	for (i = 0; i < extra; i++) {
		switch (rn(r, 4)) {
		case 0:
			a = SPEC_ATTR_MAX + 1 + rn(r, 40);
			break;
		case 1:
			a = one_in(r, 4) ? 0 : rnd(r) & NLA_TYPE_MASK;
			break;
		default:
			a = 1 + rn(r, SPEC_ATTR_MAX);
		}
		off += gen_attr(r, p + off, room - off, a, false, 0);
	}
	/*
	 * Most mutated requests break the policy for sure, with a
	 * fixed-size attribute of another size: rejected before the op
	 * takes any lock, so cheap, which keeps the inputs per second up on
	 * the debug kernel.
	 */
	if (!valid && !one_in(r, 4)) {
		static const uint16_t fixed[] = {
			PCIESW_A_SWITCH_ID, PCIESW_A_PORT_ID, PCIESW_A_GROUP_ID,
			PCIESW_A_EP_ID, PCIESW_A_COUNTER_ID,
		};
		unsigned char junk[16];

		rnd_bytes(r, junk, sizeof(junk));
		off += put_attr(p + off, room - off,
				fixed[rn(r, sizeof(fixed) / sizeof(fixed[0]))],
				junk, (4 + 1 + rn(r, 12)) % 16);
	}
	off = NLMSG_HDRLEN + GENL_HDRLEN +
	      tame(r, cmd, p + NLMSG_HDRLEN + GENL_HDRLEN,
		   off - NLMSG_HDRLEN - GENL_HDRLEN,
		   room - NLMSG_HDRLEN - GENL_HDRLEN);
	if (!valid && one_in(r, 20) && off > NLMSG_HDRLEN + GENL_HDRLEN + 4) {
		/* the last attribute claims more than is there */
		off -= 1 + rn(r, 3);
	}
	nlh->nlmsg_len = off;
	return NLMSG_ALIGN(off);
}

/* a command: mostly a do op of the spec, sometimes any number */
static int pick_cmd(struct rng *r, bool dump)
{
	int c, tries = 0;

	if (one_in(r, 30))
		return rn(r, 256);
	do
		c = 1 + rn(r, SPEC_CMD_MAX);
	while (!(dump ? spec_ops[c].has_dump : spec_ops[c].has_do) &&
	       ++tries < 100);
	return c;
}

/*
 * Wait for the answers to [first, last]: one NLMSG_ERROR (ack) each, or
 * NLMSG_DONE for a dump.  @ndone: answers received.  -ETIMEDOUT: a hang.
 */
static int nl_wait(struct nlw *w, uint32_t first, uint32_t last,
		   unsigned int *ndone, unsigned int *nok)
{
	unsigned int want = last - first + 1;
	int ms = tp_ms(30000);
	uint64_t end = tp_now_ns() + ms * 1000000ULL;

	*ndone = *nok = 0;
	while (*ndone < want) {
		struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t len;

		/* a dump that never ends is a hang too */
		if (tp_now_ns() > end)
			return -ETIMEDOUT;
		/*
		 * The answers of a batch are mostly there already: poll only
		 * when there is none (a system call less per answer).
		 */
		len = recv(w->fd, w->rx, NL_RX, MSG_DONTWAIT);
		if (len < 0) {
			if (errno == EAGAIN) {
				if (poll(&pfd, 1, ms) <= 0)
					return -ETIMEDOUT;
				continue;
			}
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS)	/* replies dropped */
				return -ENOBUFS;
			return -errno;
		}
		for (nlh = (struct nlmsghdr *)w->rx; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			if (nlh->nlmsg_seq < first || nlh->nlmsg_seq > last)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nlh);

				/* a dump's error ends it too */
				(*ndone)++;
				if (!e->error)
					(*nok)++;
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				(*ndone)++;
				(*nok)++;
			}
		}
	}
	return 0;
}

/* A datagram of NL_BATCH do requests. */
static int nl_batch(struct rng *r, struct nlw *w)
{
	uint32_t first = w->seq + 1;
	unsigned int i, done, ok, nr = fz_profile ? 1 : NL_BATCH;
	size_t off = 0;
	uint64_t t0 = tp_now_ns();
	int err, cmd = 0;

	for (i = 0; i < nr; i++) {
		cmd = pick_cmd(r, false);
		off += gen_msg(r, w, w->tx + off, NL_MSG_MAX, cmd, false,
			       ++w->seq);
	}
	if (send(w->fd, w->tx, off, 0) < 0)
		return -errno;
	err = nl_wait(w, first, w->seq, &done, &ok);
	for (i = 0; i < done; i++)
		count(FZ_NL_DO, i < ok);
	if (err == -ENOBUFS) {
		/* answers lost, counted as sent */
		for (; i < nr; i++)
			count(FZ_NL_DO, false);
		err = 0;
	}
	if (fz_profile) {
		atomic_fetch_add(&prof_ns[cmd & 255][gen_valid],
				 tp_now_ns() - t0);
		atomic_fetch_add(&prof_n[cmd & 255][gen_valid], 1);
	}
	return err;
}

static int fnl_dump(struct rng *r, struct nlw *w)
{
	unsigned int done, ok;
	size_t len;
	int err;

	len = gen_msg(r, w, w->tx, NL_MSG_MAX, pick_cmd(r, true), true,
		      ++w->seq);
	if (send(w->fd, w->tx, len, 0) < 0)
		return -errno;
	err = nl_wait(w, w->seq, w->seq, &done, &ok);
	if (err == -ENOBUFS)
		err = 0;
	count(FZ_NL_DUMP, ok);
	return err;
}

/* A broken header, alone: may get no answer at all. */
static void nl_header(struct rng *r, struct nlw *w)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)w->tx;
	size_t len = gen_msg(r, w, w->tx, NL_MSG_MAX, pick_cmd(r, false),
			     false, ++w->seq);
	size_t sent = len;

	switch (rn(r, 5)) {
	case 0:	/* shorter than nlmsghdr */
		sent = rn(r, NLMSG_HDRLEN);
		break;
	case 1:	/* genlmsghdr cut */
		nlh->nlmsg_len = NLMSG_HDRLEN + rn(r, GENL_HDRLEN);
		sent = nlh->nlmsg_len;
		break;
	case 2:	/* claims more than the datagram */
		nlh->nlmsg_len = len + 1 + rn(r, 4096);
		break;
	case 3:	/* claims less than its attributes */
		nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + rn(r, 8);
		break;
	default: /* a message of another type, or none */
		nlh->nlmsg_type = one_in(r, 2) ? rn(r, NLMSG_MIN_TYPE) :
				  rn(r, 0x10000);
		if (nlh->nlmsg_type == GENL_ID_CTRL)
			nlh->nlmsg_type = NLMSG_NOOP;
		break;
	}
	send(w->fd, w->tx, sent, 0);
	count(FZ_NL_HDR, false);
	/* whatever answers came, later waits skip their seqs */
}

struct worker {
	pthread_t thr;
	pid_t tid;
	int idx;
	uint64_t seed;
	const char *kind;
	char err[160];
	char last[PATH_MAX + 64];	/* what it did last, for a hang */
};

static void *nl_worker(void *arg)
{
	struct worker *wk = arg;
	struct rng r;
	struct nlw w = { 0 };
	uint64_t t0;
	int err;

	wk->tid = gettid();
	rng_seed(&r, wk->seed);
	err = nl_open(&w);
	if (err) {
		snprintf(wk->err, sizeof(wk->err), "netlink socket: %s",
			 strerror(-err));
		return NULL;
	}
	w.seq = (uint32_t)wk->idx << 24;
	t0 = tp_now_ns();
	while (!atomic_load(&fz_stop)) {
		unsigned int k = rn(&r, 100);

		if (k < 88) {
			strcpy(wk->last, "a batch of requests");
			err = nl_batch(&r, &w);
		} else if (k < 98) {
			snprintf(wk->last, sizeof(wk->last), "a dump (cmd %u)",
				 ((struct genlmsghdr *)(w.tx + NLMSG_HDRLEN))->cmd);
			err = fnl_dump(&r, &w);
		} else {
			nl_header(&r, &w);
			err = 0;
		}
		charge(&t0);
		if (err == -ETIMEDOUT) {
			atomic_fetch_add(&fz_hangs, 1);
			snprintf(wk->err, sizeof(wk->err),
				 "%.100s: no (last) answer within %u ms", wk->last,
				 tp_ms(30000));
			break;
		} else if (err) {
			atomic_fetch_add(&fz_proto, 1);
			snprintf(wk->err, sizeof(wk->err), "netlink: %s",
				 strerror(-err));
			break;
		}
	}
	fnl_close(&w);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* /dev/pcieswN: ioctls, DMA, read, mmap                               */

static __thread sigjmp_buf *bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	if (bus_jmp)
		siglongjmp(*bus_jmp, 1);
	abort();
}

#define HOST_LEN	(1024 * 1024)

struct devw {
	int fd;
	unsigned char *host;	/* HOST_LEN read-write */
	unsigned char *ro;	/* a read-only page */
	unsigned char *none;	/* a PROT_NONE page */
	unsigned int inflight;
	char path[64];
};

static void dev_reopen(struct rng *r, struct devw *d)
{
	static const int modes[] = { O_RDWR, O_RDWR, O_RDWR, O_RDONLY,
				     O_WRONLY };

	if (d->fd >= 0)
		close(d->fd);
	d->fd = open(d->path, modes[rn(r, 5)] | O_NONBLOCK | O_CLOEXEC);
	d->inflight = 0;
}

/* a pointer for a struct of @len bytes: mostly good, sometimes not */
static void *rnd_ptr(struct rng *r, struct devw *d, size_t len)
{
	switch (rn(r, 12)) {
	case 0: return NULL;
	case 1: return d->none;
	case 2: return d->ro;
	case 3: return d->none - (len > 1 ? rn(r, len) : 0);	/* straddles */
	case 4: return (void *)0xffff888000000000ULL;
	case 5: return (void *)(uintptr_t)rnd(r);
	default: return d->host + rn(r, HOST_LEN - 4096);
	}
}

static struct pciesw_dma_loc rnd_loc(struct rng *r, struct devw *d,
				     uint64_t len)
{
	struct pciesw_dma_loc l = { 0 };
	struct known_ep e;

	if (one_in(r, 3) || !eps_pick(r, &e)) {
		l.ep_id = one_in(r, 10) ? rnd_num(r) : PCIESW_DMA_HOST;
		if (l.ep_id == PCIESW_DMA_HOST) {
			void *p = len < HOST_LEN && !one_in(r, 8) ?
				  d->host + rn(r, HOST_LEN - len + 1) :
				  rnd_ptr(r, d, len);

			l.addr = (uintptr_t)p;
		} else {
			l.addr = rnd_num(r);
		}
		return l;
	}
	l.ep_id = e.id;
	switch (rn(r, 6)) {
	case 0: l.addr = e.mem_size - len; break;
	case 1: l.addr = e.mem_size - len + 1 + rn(r, 4096); break;
	case 2: l.addr = rnd_num(r); break;
	default: l.addr = rn(r, 1 << 20) & ~(uint64_t)(one_in(r, 2) ? 0 : 63);
	}
	if (one_in(r, 30))
		l.reserved = rnd(r);
	return l;
}

static void dev_dma(struct rng *r, struct devw *d)
{
	struct pciesw_dma_desc desc[8];
	struct pciesw_dma_submit s;
	unsigned int i, n = 1 + rn(r, 8);
	int ret;

	if (one_in(r, 2)) {	/* a batch that should go: copies that run */
		struct known_ep e;

		n = 1 + rn(r, 4);
		for (i = 0; i < n; i++) {
			uint64_t len = 1 + rn(r, 65536);
			struct pciesw_dma_loc ep, host;

			if (!eps_pick(r, &e))
				return;
			ep = dma_ep(e.id, rn(r, 1 << 20));
			host = dma_host(d->host + rn(r, HOST_LEN - len));
			desc[i] = dma_desc(one_in(r, 2) ? ep : host,
					   one_in(r, 2) ? host : ep, len, rnd(r), 0);
			if (desc[i].src.ep_id == PCIESW_DMA_HOST &&
			    desc[i].dst.ep_id == PCIESW_DMA_HOST)
				desc[i].dst = ep;
			if (eps_pick(r, &e) && one_in(r, 3))	/* p2p */
				desc[i].src = dma_ep(e.id, rn(r, 1 << 20));
		}
		dma_submit_init(&s, desc, n);
		ret = ioctl(d->fd, PCIESW_IOC_DMA_SUBMIT, &s);
		if (!ret)
			d->inflight += s.nr_submitted;
		count(FZ_DMA, !ret);
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t len = one_in(r, 10) ? rnd_num(r) : 1 + rn(r, 65536);

		/*
		 * Big lengths only where they are refused: a copy of up to
		 * PCIESW_DMA_MAX_LEN that goes makes as many endpoint pages
		 * (no limit yet, issue 15) and takes seconds of the guest's
		 * CPU; large copies are the soak's and pciesw_dma's.
		 */
		if (len > (4 << 20) && len <= PCIESW_DMA_MAX_LEN)
			len = PCIESW_DMA_MAX_LEN + 1 + (len & 0xffff);

		desc[i] = dma_desc(rnd_loc(r, d, len), rnd_loc(r, d, len), len,
				   rnd(r), one_in(r, 10) ? rnd_num(r) : rn(r, 4));
		if (one_in(r, 4) && i) {	/* overlaps the one before */
			desc[i].src = desc[i - 1].dst;
			desc[i].dst = desc[i - 1].src;
			desc[i].dst.addr += rn(r, 64);
		}
		if (one_in(r, 40))
			desc[i].flags = 1u << rn(r, 32);
		if (one_in(r, 40))
			desc[i].reserved = rnd(r);
	}
	dma_submit_init(&s, desc, n);
	switch (rn(r, 16)) {
	case 0: s.size = rnd_num(r); break;
	case 1: s.desc_size = rnd_num(r); break;
	case 2: s.nr_descs = rnd_num(r) & (one_in(r, 2) ? 0x7ff : ~0u); break;
	case 3: s.flags = 1u << rn(r, 32); break;
	case 4: s.reserved[rn(r, 2)] = rnd(r); break;
	case 5: s.descs = (uintptr_t)rnd_ptr(r, d, n * sizeof(desc[0])); break;
	}
	ret = ioctl(d->fd, PCIESW_IOC_DMA_SUBMIT, &s);
	if (!ret)
		d->inflight += s.nr_submitted;
	count(FZ_DMA, !ret);
}

static void dev_read(struct rng *r, struct devw *d)
{
	struct pciesw_dma_completion c[64];
	size_t sz = sizeof(c[0]);
	size_t want;
	ssize_t n;

	switch (rn(r, 6)) {
	case 0: want = rn(r, sz); break;
	case 1: want = sz + 1 + rn(r, sz - 1); break;
	default: want = sz * (1 + rn(r, 64)); break;
	}
	n = read(d->fd, one_in(r, 20) ? (void *)d->ro : (void *)c, want);
	if (n > 0) {
		unsigned int got = n / sz;

		d->inflight = got > d->inflight ? 0 : d->inflight - got;
	}
	count(FZ_READ, n >= 0);
}

static void dev_ioctl(struct rng *r, struct devw *d)
{
	static const unsigned long cmds[] = {
		PCIESW_IOC_INFO, PCIESW_IOC_EP_MAP, PCIESW_IOC_DMA_SUBMIT,
	};
	unsigned char arg[256] __attribute__((aligned(8)));
	unsigned long cmd;
	void *p = arg;
	int ret;

	memset(arg, 0, sizeof(arg));
	cmd = cmds[rn(r, 3)];
	if (cmd == PCIESW_IOC_INFO) {
		struct pciesw_info *in = (void *)arg;

		in->size = sizeof(*in);
	} else if (cmd == PCIESW_IOC_EP_MAP) {
		struct pciesw_ep_map *m = (void *)arg;
		struct known_ep e;

		m->size = sizeof(*m);
		m->ep_id = !one_in(r, 3) && eps_pick(r, &e) ? e.id :
			   rnd_num(r);
	} else {
		struct pciesw_dma_submit *s = (void *)arg;

		s->size = sizeof(*s);
		s->desc_size = sizeof(struct pciesw_dma_desc);
		s->nr_descs = rn(r, 3);
		s->descs = (uintptr_t)rnd_ptr(r, d, 64);
	}
	switch (rn(r, 10)) {
	case 0: *(uint32_t *)arg = rnd_num(r); break;		/* size */
	case 1: ((uint32_t *)arg)[1] = 1u << rn(r, 32); break;	/* flags */
	case 2: rnd_bytes(r, arg + 8 + rn(r, 100), 1 + rn(r, 8)); break;
	case 3: rnd_bytes(r, arg, sizeof(arg)); break;
	case 4: p = rnd_ptr(r, d, _IOC_SIZE(cmd)); break;
	case 5: /* another command number, size or direction */
		switch (rn(r, 4)) {
		case 0: cmd = _IOC(_IOC_DIR(cmd), PCIESW_IOC_MAGIC,
				   rn(r, 16), _IOC_SIZE(cmd)); break;
		case 1: cmd = _IOC(_IOC_DIR(cmd), PCIESW_IOC_MAGIC,
				   _IOC_NR(cmd), rn(r, 256)); break;
		case 2: cmd = _IOC(rn(r, 4), PCIESW_IOC_MAGIC, _IOC_NR(cmd),
				   _IOC_SIZE(cmd)); break;
		default: cmd = rnd(r) & 0xffffffff;
			if (_IOC_TYPE(cmd) != PCIESW_IOC_MAGIC &&
			    _IOC_TYPE(cmd) != 'T')
				break;
			cmd = _IOC(_IOC_READ, PCIESW_IOC_MAGIC, 0x40, 8);
		}
		break;
	}
	ret = ioctl(d->fd, cmd, p);
	count(FZ_IOCTL, !ret);
	if (!ret && cmd == PCIESW_IOC_DMA_SUBMIT && p == arg)
		d->inflight += ((struct pciesw_dma_submit *)arg)->nr_submitted;
}

static void dev_mmap(struct rng *r, struct devw *d)
{
	static const int prots[] = { PROT_READ | PROT_WRITE, PROT_READ,
				     PROT_WRITE, PROT_NONE,
				     PROT_READ | PROT_EXEC };
	struct pciesw_ep_map m = { .size = sizeof(m) };
	volatile unsigned char *v;
	sigjmp_buf jb;
	struct known_ep e;
	size_t len = 4096 * (1 + rn(r, 16)), i;
	uint64_t off = 0;
	int prot = prots[rn(r, 5)];
	void *p;

	if (eps_pick(r, &e)) {
		m.ep_id = e.id;
		if (!ioctl(d->fd, PCIESW_IOC_EP_MAP, &m))
			off = m.offset;
	}
	switch (rn(r, 8)) {
	case 0: off += rnd_num(r); break;			/* anywhere */
	case 1: off += m.mem_size - 4096 * rn(r, 3); break;	/* the end */
	case 2: off += rn(r, 4096); break;			/* unaligned */
	case 3: len = rnd_num(r); break;
	default: off += 4096ULL * rn(r, 256);
	}
	p = mmap(NULL, len, prot, one_in(r, 8) ? MAP_PRIVATE : MAP_SHARED,
		 d->fd, off);
	count(FZ_MMAP, p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	if (len <= 64 * 4096 && (prot & PROT_READ)) {
		v = p;
		bus_jmp = &jb;
		if (sigsetjmp(jb, 1)) {
			atomic_fetch_add(&fz_sigbus, 1);
		} else {
			for (i = 0; i < len; i += 4096 * (1 + rn(r, 3))) {
				unsigned char c = v[i];

				if (prot & PROT_WRITE)
					v[i] = c + 1;
			}
		}
		bus_jmp = NULL;
	}
	if (one_in(r, 4))
		madvise(p, len, MADV_DONTNEED);
	munmap(p, len);
}

static void *dev_worker(void *arg)
{
	struct worker *wk = arg;
	struct devw d = { .fd = -1 };
	unsigned long long n = 0;
	struct rng r;
	uint64_t t0;

	wk->tid = gettid();
	rng_seed(&r, wk->seed);
	snprintf(d.path, sizeof(d.path), "/dev/pciesw%u", ID);
	d.host = mmap(NULL, HOST_LEN + 2 * 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (d.host == MAP_FAILED) {
		snprintf(wk->err, sizeof(wk->err), "mmap: %m");
		return NULL;
	}
	memset(d.host, 0x5a, HOST_LEN);
	d.ro = d.host + HOST_LEN;
	d.none = d.ro + 4096;
	mprotect(d.ro, 4096, PROT_READ);
	mprotect(d.none, 4096, PROT_NONE);
	dev_reopen(&r, &d);
	t0 = tp_now_ns();
	while (!atomic_load(&fz_stop)) {
		unsigned int k = rn(&r, 100);

		if (d.fd < 0 || one_in(&r, 3000)) {
			dev_reopen(&r, &d);
			if (d.fd < 0) {
				tp_msleep(10);
				continue;
			}
		}
		if (d.inflight > 1024 || k < 15) {
			strcpy(wk->last, "read");
			dev_read(&r, &d);
		} else if (k < 60) {
			strcpy(wk->last, "ioctl");
			dev_ioctl(&r, &d);
		} else if (k < 92) {
			strcpy(wk->last, "dma submit");
			dev_dma(&r, &d);
		} else {
			strcpy(wk->last, "mmap");
			dev_mmap(&r, &d);
		}
		charge(&t0);
		n++;
	}
	if (d.fd >= 0)
		close(d.fd);
	munmap(d.host, HOST_LEN + 2 * 4096);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* sysfs and debugfs                                                   */

#define MAX_FILES 1024

/*
 * A file worker's files, each with the descriptor it last opened (-1:
 * none): a write goes through an open descriptor at offset 0 (pwrite),
 * as the first write after an open would, so that most inputs cost the
 * write alone; one in REOPEN opens the file anew, so open and release
 * are fuzzed too.
 */
struct files {
	char *path[MAX_FILES];
	int fd[MAX_FILES];
	unsigned int n;
};

#ifndef REOPEN
#define REOPEN	16
#endif

static void files_free(struct files *f)
{
	while (f->n) {
		f->n--;
		if (f->fd[f->n] >= 0)
			close(f->fd[f->n]);
		free(f->path[f->n]);
	}
}

/*
 * A device of another subsystem below the switch's (the PCI view's host
 * bridge and functions, the drives' disks): its files are the PCI core's
 * and the block layer's, not pciesw's (numa_node, remove, reset, ...).
 */
static bool foreign_device(const char *dir)
{
	static const char *const foreign[] = { "pci", "pci_bus", "block" };
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;
	size_t i;

	snprintf(link, sizeof(link), "%s/subsystem", dir);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	for (i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++)
		if (!strcmp(base, foreign[i]))
			return true;
	return false;
}

/* the writable regular files under @dir (not following links), @depth */
static void files_scan(struct files *f, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d;

	if (foreign_device(dir))
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && f->n < MAX_FILES) {
		char path[PATH_MAX];
		struct stat st;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "uevent") ||
		    !strcmp(de->d_name, "power") ||
		    !strcmp(de->d_name, "subsystem") ||
		    !strcmp(de->d_name, "driver"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth > 0) {
			files_scan(f, path, depth - 1);
		} else if (S_ISREG(st.st_mode) && (st.st_mode & 0222)) {
			f->fd[f->n] = -1;
			f->path[f->n++] = strdup(path);
		}
	}
	closedir(d);
}

/* the test switch's writable sysfs attributes and debugfs files */
static void files_rescan(struct files *f)
{
	char prefix[32], path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	files_free(f);
	snprintf(prefix, sizeof(prefix), "pciesw%u", ID);
	d = opendir(PCIESW_DEVS);
	while (d && (de = readdir(d))) {
		size_t pl = strlen(prefix);

		if (strncmp(de->d_name, prefix, pl) ||
		    (de->d_name[pl] && de->d_name[pl] != '-'))
			continue;
		/* the entries are links to the devices */
		snprintf(path, sizeof(path), PCIESW_DEVS "/%s/", de->d_name);
		files_scan(f, path, 3);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "/sys/kernel/debug/pciesw/%s", prefix);
	files_scan(f, path, 2);
}

/* pci_view: anything but a yes (building the PCI view is slow) */
static void no_yes(char *buf, size_t n)
{
	bool yes;
	char c = n ? buf[0] : 0;

	yes = c == '1' || c == 'y' || c == 'Y' || c == 't' || c == 'T' ||
	      ((c == 'o' || c == 'O') && n > 1 &&
	       (buf[1] == 'n' || buf[1] == 'N'));
	if (yes)
		buf[0] = 'x';
}

static void *fs_worker(void *arg)
{
	struct worker *wk = arg;
	struct files f = { .n = 0 };
	char buf[4200];
	unsigned long long n = 0;
	struct rng r;
	uint64_t t0;

	wk->tid = gettid();
	rng_seed(&r, wk->seed);
	files_rescan(&f);
	t0 = tp_now_ns();
	while (!atomic_load(&fz_stop)) {
		const char *path;
		unsigned int i;
		size_t len;
		ssize_t w;
		int *fd;

		if (!f.n || one_in(&r, 400)) {
			files_rescan(&f);
			if (!f.n) {
				tp_msleep(10);
				continue;
			}
		}
		i = rn(&r, f.n);
		path = f.path[i];
		fd = &f.fd[i];
		len = rnd_str(&r, buf, sizeof(buf));
		if (strstr(path, "/pci_view"))
			no_yes(buf, len);
		snprintf(wk->last, sizeof(wk->last), "write of %zu bytes '%.40s' to %s",
			 len, buf, path);
		if (*fd >= 0 && one_in(&r, REOPEN)) {
			close(*fd);
			*fd = -1;
		}
		if (*fd < 0) {
			*fd = open(path, O_WRONLY | O_CLOEXEC);
			if (*fd < 0) {
				if (errno == ENOENT)
					files_rescan(&f);
				continue;
			}
		}
		w = pwrite(*fd, buf, len, 0);
		/* the file went (device removed): open it anew next time */
		if (w < 0 && (errno == ENODEV || errno == EIO ||
			      errno == ENOENT)) {
			close(*fd);
			*fd = -1;
		}
		count(strncmp(path, "/sys/kernel/debug", 17) ? FZ_SYSFS :
		      FZ_DEBUGFS, w >= 0);
		charge(&t0);
		n++;
	}
	files_free(&f);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The main thread: setup, topology upkeep, the kernel log             */

/* The endpoints of the test switch, found by EP_MAP on ids 0..MAX_EPS-1. */
static unsigned int eps_refresh(void)
{
	struct known_ep e[MAX_EPS];
	char path[64];
	unsigned int i, n = 0;
	int fd;

	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (i = 0; i < 2 * MAX_EPS && n < MAX_EPS; i++) {
		struct pciesw_ep_map m = { .size = sizeof(m), .ep_id = i };

		if (!ioctl(fd, PCIESW_IOC_EP_MAP, &m) && m.mem_size) {
			e[n].id = i;
			e[n].mem_size = m.mem_size;
			n++;
		}
	}
	close(fd);
	eps_set(e, n);
	return n;
}

/* Plug endpoints into the empty downstream ports (up to 4 added). */
static void eps_replug(struct pnl *p)
{
	struct tp_reply t = { 0 };
	unsigned int i, added = 0;

	if (tp_ports(p, ID, &t))
		return;
	for (i = 0; i < t.r.nobjs && added < 4; i++) {
		struct pnl_obj *o = &t.r.objs[i];

		if (o->u[PCIESW_A_PORT_ROLE] != PCIESW_PORT_ROLE_DOWNSTREAM ||
		    pnl_has(o, PCIESW_A_EP_ID))
			continue;
		if (!tp_ep_add(p, ID, o->u[PCIESW_A_PORT_ID],
			       PCIESW_EP_TYPE_GENERIC, 0, 0, NULL, NULL))
			added++;
	}
	tp_reply_free(&t);
}

/* Lines of the kernel log that are a problem (qemu-run.sh's list). */
static const char *const kproblems[] = {
	"BUG:", "BUG ", "WARNING:", "Oops", "KASAN:", "UBSAN:",
	"general protection fault", "kernel BUG at", "Kernel panic",
	"blocked for more than", "detected stall",
	"possible circular locking", "Disabling lock debugging",
};

static void kmsg_check(int fd)
{
	char line[2048];
	ssize_t n;
	size_t i;

	while ((n = read(fd, line, sizeof(line) - 1)) > 0) {
		line[n] = 0;
		for (i = 0; i < sizeof(kproblems) / sizeof(kproblems[0]); i++)
			if (strstr(line, kproblems[i])) {
				if (atomic_fetch_add(&fz_kproblems, 1) < 5)
					printf("# kernel: %s", strchr(line, ';') ?
					       strchr(line, ';') + 1 : line);
				break;
			}
	}
}

/* The guest's CPU time so far, busy and all, in ticks (/proc/stat). */
static void cpu_ticks(unsigned long long *busy, unsigned long long *all)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int i;

	*busy = *all = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (i = 0; i < 8; i++)
			*all += v[i];
		*busy = *all - v[3] - v[4];	/* less idle and iowait */
	}
	fclose(f);
}

/* Print a file of /proc (a stuck thread's stack, syscall, wchan). */
static void show_proc(pid_t tid, const char *what)
{
	char path[64], buf[4096];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, what);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	printf("# %s:\n", what);
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		printf("#   %s\n", l);
}

/*
 * Join a worker; one still running long after the stop is stuck in the
 * kernel: say where, count it as a hang, then wait for it anyway.
 */
static void join_or_tell(struct worker *w)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += tp_ms(30000) / 1000;
	if (!pthread_timedjoin_np(w->thr, NULL, &ts))
		return;
	atomic_fetch_add(&fz_hangs, 1);
	printf("# worker %d (%s, seed %llu) stuck for %u s after the stop\n",
	       w->idx, w->kind, (unsigned long long)w->seed,
	       tp_ms(30000) / 1000);
	printf("# its last input: %s\n", w->last);
	snprintf(w->err, sizeof(w->err), "stuck in the kernel (stack above)");
	show_proc(w->tid, "syscall");
	show_proc(w->tid, "wchan");
	show_proc(w->tid, "stack");
	pthread_join(w->thr, NULL);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pciesw_fuzz [--seed S] [--time SECS] [--inputs N] [--min-inputs N]\n"
		"                   [--nl N] [--dev N] [--fs N] [--profile 0|1]\n");
	exit(2);
}

static unsigned long long num_arg(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	unsigned int nr_nl = 2, nr_dev = 1, nr_fs = 1, secs, i, nw = 0;
	unsigned long long min_inputs = 0, last_total = 0;
	unsigned long long busy0, all0, busy1 = 0, all1 = 0;
	uint64_t seed = 0, start, now, last_life, last_print;
	struct worker wk[64];
	struct sigaction sa = { .sa_handler = on_sigbus };
	struct rlimit nofile;
	bool have_seed = false;
	const char *e;
	struct pnl p;
	char printk[64] = "";
	int kmsg, fails = 0, err, lives = 0, tn = 0;
	FILE *pk;

	/* pciesw_test.h brings the kselftest harness; its runner is unused */
	(void)test_harness_run;
	e = getenv("PCIESW_FUZZ_TIME");
	secs = e && atoi(e) > 0 ? atoi(e) : 12;
	if (tp_reduced() && !(e && atoi(e) > 0))
		secs = tp_reduce(12, 10, "seconds of fuzzing");
	/* run.sh passes no arguments: scripts/fuzz.sh gives them here */
	e = getenv("PCIESW_FUZZ_ARGS");
	if (argc == 1 && e && *e) {
		static char *av[32];
		char *s = strdup(e), *tok;

		argc = 0;
		av[argc++] = argv[0];
		for (tok = strtok(s, " "); tok && argc < 31;
		     tok = strtok(NULL, " "))
			av[argc++] = tok;
		argv = av;
	}
	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i], *v = i + 1 < (unsigned int)argc ?
						 argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(a, "--seed"))
			seed = num_arg(v), have_seed = true;
		else if (!strcmp(a, "--time"))
			secs = num_arg(v);
		else if (!strcmp(a, "--inputs"))
			fz_max_inputs = num_arg(v);
		else if (!strcmp(a, "--min-inputs"))
			min_inputs = num_arg(v);
		else if (!strcmp(a, "--nl"))
			nr_nl = num_arg(v);
		else if (!strcmp(a, "--dev"))
			nr_dev = num_arg(v);
		else if (!strcmp(a, "--fs"))
			nr_fs = num_arg(v);
		else if (!strcmp(a, "--profile"))
			fz_profile = num_arg(v);
		else
			usage();
		i++;
	}
	if (nr_nl + nr_dev + nr_fs > 64 || nr_nl + nr_dev + nr_fs == 0)
		usage();
	if (!have_seed) {
		seed = tp_now_ns() ^ ((uint64_t)getpid() << 32);
		seed &= 0xffffffffffffULL;
	}

	/* the file workers keep a descriptor open per file */
	if (!getrlimit(RLIMIT_NOFILE, &nofile)) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..3\n");
	printf("# pciesw_fuzz --seed %llu --time %u%s: %u netlink, %u device, %u file workers\n",
	       (unsigned long long)seed, secs, fz_max_inputs != ~0ULL ?
	       " --inputs N" : "", nr_nl, nr_dev, nr_fs);

	/* the setup */
	if (pnl_open(&p)) {
		printf("not ok 1 setup # netlink family not found\n");
		return 1;
	}
	nl_family = p.family;
	if (sw_exists(ID))
		sw_del(ID);
	if (sw_exists(ID_SPARE))
		sw_del(ID_SPARE);
	err = sw_new(ID, "pex89048");
	if (err) {
		printf("not ok 1 setup # creating switch %u: %s\n", ID,
		       strerror(-err));
		return 1;
	}
	eps_replug(&p);
	printf("# switch %u: %u endpoints\n", ID, eps_refresh());
	printf("ok 1 setup\n");
	sigaction(SIGBUS, &sa, NULL);

	/*
	 * Error messages the fuzz provokes go to the log, not the (serial,
	 * slow) console; problems are caught from /dev/kmsg as they come.
	 */
	pk = fopen("/proc/sys/kernel/printk", "r");
	if (pk) {
		if (!fgets(printk, sizeof(printk), pk))
			printk[0] = 0;
		fclose(pk);
		sysfs_write("/proc/sys/kernel/printk", "3");
	}
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);

	for (i = 0; i < nr_nl + nr_dev + nr_fs; i++, nw++) {
		void *(*fn)(void *);

		wk[i].idx = i;
		wk[i].seed = seed + i;
		wk[i].err[0] = 0;
		wk[i].last[0] = 0;
		if (i < nr_nl)
			wk[i].kind = "netlink", fn = nl_worker;
		else if (i < nr_nl + nr_dev)
			wk[i].kind = "device", fn = dev_worker;
		else
			wk[i].kind = "file", fn = fs_worker;
		printf("# worker %u (%s): seed %llu\n", i, wk[i].kind,
		       (unsigned long long)wk[i].seed);
		if (pthread_create(&wk[i].thr, NULL, fn, &wk[i])) {
			printf("not ok 2 fuzz # pthread_create failed\n");
			return 1;
		}
	}

	cpu_ticks(&busy0, &all0);
	start = last_life = last_print = tp_now_ns();
	while (!atomic_load(&fz_stop)) {
		tp_msleep(200);
		now = tp_now_ns();
		if (kmsg >= 0)
			kmsg_check(kmsg);
		if (now - start >= (uint64_t)secs * 1000000000ULL)
			break;
		/* endpoints back into empty ports, the list refreshed */
		if (++tn % 5 == 0) {
			eps_replug(&p);
			eps_refresh();
		}
		/* a spare switch created and deleted: at most every 60 s */
		if (now - last_life >= 60000000000ULL ||
		    (!lives && now - start >= (uint64_t)secs * 500000000ULL)) {
			int a = sw_new(ID_SPARE, one_in(&(struct rng){ now }, 2) ?
				       "tiny8" : "pex89048");
			int b = sw_del(ID_SPARE);

			count(FZ_LIFE, !a && !b);
			lives++;
			last_life = now;
		}
		if (now - last_print >= 60000000000ULL) {
			unsigned long long t = atomic_load(&fz_total);

			printf("# %llu s: %llu inputs (%llu/s)\n",
			       (unsigned long long)((now - start) / 1000000000ULL),
			       t, (t - last_total) * 1000000000ULL /
			       (now - last_print));
			last_total = t;
			last_print = now;
		}
		for (i = 0; i < nw; i++)
			if (wk[i].err[0])
				atomic_store(&fz_stop, true);
	}
	atomic_store(&fz_stop, true);
	cpu_ticks(&busy1, &all1);
	for (i = 0; i < nw; i++)
		join_or_tell(&wk[i]);
	now = tp_now_ns();
	if (kmsg >= 0) {
		kmsg_check(kmsg);
		close(kmsg);
	}
	if (printk[0])
		sysfs_write("/proc/sys/kernel/printk", printk);

	{
		double s = (now - start) / 1e9;
		unsigned long long t = atomic_load(&fz_total);

		printf("# %-14s %10s %10s %10s %8s\n", "class", "inputs",
		       "accepted", "us/input", "time s");
		for (i = 0; i < FZ_NR; i++) {
			unsigned long long c = atomic_load(&fz_count[i]);
			unsigned long long ns = atomic_load(&fz_ns[i]);

			printf("# %-14s %10llu %10llu %10.1f %8.1f\n",
			       fz_names[i], c,
			       (unsigned long long)atomic_load(&fz_ok[i]),
			       c ? ns / 1e3 / c : 0.0, ns / 1e9);
		}
		for (i = 0; fz_profile && i < 256; i++) {
			int v;

			for (v = 0; v < 2; v++) {
				unsigned long long c = atomic_load(&prof_n[i][v]);
				unsigned long long ns = atomic_load(&prof_ns[i][v]);

				if (c)
					printf("# profile %-22s %-9s %8llu %10.1f us %8.1f s\n",
					       i <= SPEC_CMD_MAX && spec_ops[i].name ?
					       spec_ops[i].name : "?",
					       v ? "valid" : "mutated", c,
					       ns / 1e3 / c, ns / 1e9);
			}
		}
		printf("# total %llu inputs in %.1f s (%.0f/s), %llu accepted, %u SIGBUS caught\n",
		       t, s, t / s, (unsigned long long)atomic_load(&fz_accepted),
		       atomic_load(&fz_sigbus));
		if (all1 > all0)
			printf("# the guest's CPUs were %.0f%% busy\n",
			       100.0 * (busy1 - busy0) / (all1 - all0));
		for (i = 0; i < nw; i++)
			if (wk[i].err[0]) {
				printf("# worker %u (%s, seed %llu): %s\n", i,
				       wk[i].kind,
				       (unsigned long long)wk[i].seed,
				       wk[i].err);
				fails++;
			}
		if (atomic_load(&fz_kproblems)) {
			printf("# %u problem lines in the kernel log\n",
			       atomic_load(&fz_kproblems));
			fails++;
		}
		if (t < min_inputs) {
			printf("# %llu inputs, fewer than the %llu asked for\n",
			       t, min_inputs);
			fails++;
		}
		printf("%sok 2 fuzz\n", fails ? "not " : "");
	}

	/* afterwards: the switch is there and answers, then goes */
	err = -ENOENT;
	if (sw_exists(ID)) {
		struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
		struct pnl_reply r;

		err = pnl_do(&p, PCIESW_CMD_SWITCH_GET, req, &r);
		pnl_reply_free(&r);
		if (!err)
			err = sw_del(ID);
	}
	if (sw_exists(ID_SPARE))
		sw_del(ID_SPARE);
	pnl_close(&p);
	if (err)
		printf("not ok 3 after # switch %u: %s\n", ID, strerror(-err));
	else
		printf("ok 3 after\n");
	return fails || err ? 1 : 0;
}
