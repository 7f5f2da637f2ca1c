/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the DMA selftest and the benchmark (pciesw_dma.c,
 * pciesw_bench.c): PCIESW_IOC_DMA_SUBMIT and completions, endpoint
 * windows in mmap(), switch settings, p2p-check, the bandwidth model of
 * the issue and test patterns.
 *
 * On top of pciesw_topo.h; static inline like it.  Define
 * PCIESW_NO_HARNESS before including it to use it outside the harness.
 */
#ifndef _PCIESW_DMA_H
#define _PCIESW_DMA_H

#include <sys/ioctl.h>
#include <sys/mman.h>

#include "pciesw_topo.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)
#define GiB	(1024 * MiB)

#define DMA_MRRS	512	/* Max_Read_Request_Size of the engine */
#define DMA_TLP_OVERHEAD 24	/* bytes per TLP in the bandwidth model */

static inline struct pciesw_dma_loc dma_ep(uint32_t ep_id, uint64_t off)
{
	return (struct pciesw_dma_loc){ .ep_id = ep_id, .addr = off };
}

static inline struct pciesw_dma_loc dma_host(const void *p)
{
	return (struct pciesw_dma_loc){ .ep_id = PCIESW_DMA_HOST,
					.addr = (uintptr_t)p };
}

static inline struct pciesw_dma_desc dma_desc(struct pciesw_dma_loc src,
					      struct pciesw_dma_loc dst,
					      uint64_t len, uint64_t user_data,
					      uint32_t channel)
{
	return (struct pciesw_dma_desc){ .src = src, .dst = dst, .len = len,
					 .user_data = user_data,
					 .channel = channel };
}

static inline void dma_submit_init(struct pciesw_dma_submit *s,
				   const struct pciesw_dma_desc *d,
				   unsigned int n)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->desc_size = sizeof(*d);
	s->nr_descs = n;
	s->descs = (uintptr_t)d;
}

/* PCIESW_IOC_DMA_SUBMIT of a prepared @s: 0 or -errno. */
static inline int dma_submit_raw(int fd, struct pciesw_dma_submit *s)
{
	return ioctl(fd, PCIESW_IOC_DMA_SUBMIT, s) ? -errno : 0;
}

/*
 * Submit @n descriptors; 0 or -errno.  The kernel's nr_submitted and
 * error_index in @out when not NULL.
 */
static inline int dma_submit(int fd, const struct pciesw_dma_desc *d,
			     unsigned int n, struct pciesw_dma_submit *out)
{
	struct pciesw_dma_submit s;
	int err;

	dma_submit_init(&s, d, n);
	err = dma_submit_raw(fd, &s);
	if (out)
		*out = s;
	return err;
}

/*
 * Read completions into @c (room for @max), waiting at most @ms for the
 * first (poll); the number read, or -errno (-ETIMEDOUT when none came).
 */
static inline int dma_read(int fd, struct pciesw_dma_completion *c,
			   unsigned int max, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int r;

	r = poll(&pfd, 1, ms);
	if (r < 0)
		return -errno;
	if (r == 0)
		return -ETIMEDOUT;
	n = read(fd, c, max * sizeof(*c));
	if (n < 0)
		return -errno;
	if (n % sizeof(*c))
		return -EPROTO;
	return n / sizeof(*c);
}

/*
 * Collect @n completions into @c within @ms in all; the number collected
 * (less than @n on a timeout or error).
 */
static inline unsigned int dma_collect(int fd, struct pciesw_dma_completion *c,
				       unsigned int n, int ms)
{
	uint64_t end = tp_now_ns() + (uint64_t)ms * 1000000ULL;
	unsigned int got = 0;

	while (got < n) {
		int64_t left = (int64_t)(end - tp_now_ns()) / 1000000;
		int r;

		if (left < 0)
			break;
		r = dma_read(fd, c + got, n - got, (int)left);
		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

/* Submit one descriptor and wait (@ms) for its completion: 0 or -errno. */
static inline int dma_run1(int fd, struct pciesw_dma_desc d,
			   struct pciesw_dma_completion *c, int ms)
{
	int err = dma_submit(fd, &d, 1, NULL);

	if (err)
		return err;
	return dma_collect(fd, c, 1, ms) == 1 ? 0 : -ETIMEDOUT;
}

/* Completion status names, for messages. */
static inline const char *dma_status_name(uint32_t st)
{
	static const char *const names[] = {
		"ok", "p2p-refused", "unplugged", "cancelled", "link-down",
		"nomem",
	};

	return st < sizeof(names) / sizeof(names[0]) ? names[st] : "?";
}

/* ------------------------------------------------------------------ */
/* Endpoint windows                                                    */

/* An endpoint's id from sysfs (pcieswID-EP/id), -1 if none. */
static inline long dma_ep_id(unsigned int id, const char *ep)
{
	char buf[32];

	if (ep_attr(id, ep, "id", buf, sizeof(buf)) || !buf[0])
		return -1;
	return strtol(buf, NULL, 10);
}

/* An endpoint's resident bytes (sysfs mem_resident), -1 if unreadable. */
static inline long long dma_ep_resident(unsigned int id, const char *ep)
{
	char buf[32];

	if (ep_attr(id, ep, "mem_resident", buf, sizeof(buf)) || !buf[0])
		return -1;
	return strtoll(buf, NULL, 10);
}

/*
 * mmap() @len bytes of endpoint @ep_id's window from byte @off (page
 * aligned) of it, shared, read-write; MAP_FAILED on error.
 */
static inline void *dma_map(int fd, uint32_t ep_id, uint64_t off, size_t len)
{
	struct pciesw_ep_map map = { .size = sizeof(map), .ep_id = ep_id };

	if (ioctl(fd, PCIESW_IOC_EP_MAP, &map))
		return MAP_FAILED;
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    map.offset + off);
}

/* An anonymous private buffer of @len bytes (host memory); NULL if none. */
static inline void *dma_host_buf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ------------------------------------------------------------------ */
/* Patterns: byte i of pattern @seed is T[(i + seed) % P], P prime, so  */
/* a transfer shifted by a page or a chunk never matches.               */

#define PAT_P	65521U

static unsigned char pat_table[2 * PAT_P];

static inline void pat_init(void)
{
	uint32_t x = 0x12345678;
	unsigned int i;

	if (pat_table[0] || pat_table[1])
		return;
	for (i = 0; i < PAT_P; i++) {
		x = x * 1664525 + 1013904223;
		pat_table[i] = (unsigned char)(x >> 24) | (i == 0);
	}
	memcpy(pat_table + PAT_P, pat_table, PAT_P);
}

static inline void pat_fill(void *buf, size_t len, uint64_t seed)
{
	unsigned char *p = buf;
	size_t done = 0, k = seed % PAT_P;

	pat_init();
	while (done < len) {
		size_t n = len - done < PAT_P ? len - done : PAT_P;

		memcpy(p + done, pat_table + k, n);
		done += n;
	}
}

/* The first byte of @buf that differs from the pattern, or -1. */
static inline long long pat_check(const void *buf, size_t len, uint64_t seed)
{
	const unsigned char *p = buf;
	size_t done = 0, k = seed % PAT_P, i;

	pat_init();
	while (done < len) {
		size_t n = len - done < PAT_P ? len - done : PAT_P;

		if (memcmp(p + done, pat_table + k, n))
			for (i = 0; i < n; i++)
				if (p[done + i] != pat_table[k + i])
					return done + i;
		done += n;
	}
	return -1;
}

/* The first non-zero byte of @buf, or -1. */
static inline long long zero_check(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return i;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Settings, p2p-check, endpoints with a given link                    */

/* switch-set of one u8 (host-p2p, dma-pacing) or u32 attribute. */
static inline int dma_switch_set(struct pnl *p, unsigned int id, int attr,
				 uint32_t val, struct pnl_reply *r)
{
	bool u8 = attr == PCIESW_A_SWITCH_HOST_P2P ||
		  attr == PCIESW_A_SWITCH_DMA_PACING;
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(attr, val), A_END };
	struct pnl_reply tmp;
	int err;

	if (u8)
		req[1] = (struct pnl_attr)A_U8(attr, val);
	err = tp_do(p, PCIESW_CMD_SWITCH_SET, req, r ? r : &tmp);
	if (!r)
		pnl_reply_free(&tmp);
	return err;
}

/* switch-get of @id into @o. */
static inline int dma_switch_get(struct pnl *p, unsigned int id,
				 struct pnl_obj *o)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	struct pnl_reply r;
	int err = tp_do(p, PCIESW_CMD_SWITCH_GET, req, &r);

	if (!err && r.nobjs != 1)
		err = -EPROTO;
	if (!err)
		*o = r.objs[0];
	pnl_reply_free(&r);
	return err;
}

/* One u32/u8 attribute of switch-get, -1 on failure. */
static inline long long dma_switch_val(struct pnl *p, unsigned int id,
				       int attr)
{
	struct pnl_obj *o = malloc(sizeof(*o));
	long long v = -1;

	if (o && !dma_switch_get(p, id, o) && pnl_has(o, attr))
		v = o->u[attr];
	free(o);
	return v;
}

/* p2p-check between endpoints @a and @b (ids) into @o. */
static inline int dma_p2p_check(struct pnl *p, unsigned int id, uint32_t a,
				uint32_t b, struct pnl_obj *o)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_U32(PCIESW_A_EP_ID, a),
				  A_U32(PCIESW_A_PEER_EP_ID, b), A_END };
	struct pnl_reply r;
	int err = tp_do(p, PCIESW_CMD_P2P_CHECK, req, &r);

	if (!err && r.nobjs != 1)
		err = -EPROTO;
	if (!err)
		*o = r.objs[0];
	pnl_reply_free(&r);
	return err;
}

/* port-bandwidth of a port, 0 when missing (or the link down). */
static inline uint64_t dma_port_bw(struct pnl *p, unsigned int id,
				   unsigned int port)
{
	struct pnl_obj *o = malloc(sizeof(*o));
	uint64_t bw = 0;

	if (o && !tp_port_get(p, id, port, o, NULL))
		bw = o->u64[PCIESW_A_PORT_BANDWIDTH];
	free(o);
	return bw;
}

/*
 * Replace the endpoint on downstream port @port by a new one of @type with
 * @speed/@width (0: the type's) and wait for its link; its id in @ep_id
 * and name in @name (PCIESW_NAME_LEN bytes).  0 or -errno.
 */
static inline int dma_ep_replace(struct pnl *p, unsigned int id,
				 unsigned int port, unsigned int type,
				 unsigned int speed, unsigned int width,
				 uint32_t *ep_id, char *name)
{
	int err = tp_port_unplug(p, id, port);

	if (!err)
		err = tp_ep_add(p, id, port, type, speed, width, ep_id, name);
	if (!err && !tp_wait_ltssm(p, id, port, PCIESW_LTSSM_L0, NULL))
		err = -ETIMEDOUT;
	return err;
}

/* ------------------------------------------------------------------ */
/* The bandwidth model (the issue; the spec's port-bandwidth)          */

/* GT/s of a link speed, in MT/s. */
static inline uint64_t dma_mts(unsigned int speed)
{
	static const uint64_t mts[] = { 0, 2500, 5000, 8000, 16000, 32000 };

	return speed < 6 ? mts[speed] : 0;
}

/*
 * Bytes/s per direction of a link: GT/s x width x encoding / 8 x MPS /
 * (MPS + 24), as a double (exact enough to compare integers with).
 */
static inline double dma_model_bw(unsigned int speed, unsigned int width,
				  unsigned int mps)
{
	double enc = speed <= PCIESW_LINK_SPEED_GEN2 ? 8.0 / 10 : 128.0 / 130;

	return dma_mts(speed) * 1e6 * width * enc / 8 *
	       mps / (mps + DMA_TLP_OVERHEAD);
}

/* Modelled ns of @bytes over a link of @bw bytes/s. */
static inline double dma_model_ns(uint64_t bytes, double bw)
{
	return bytes * 1e9 / bw;
}

static inline uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

#endif /* _PCIESW_DMA_H */
