// SPDX-License-Identifier: GPL-2.0
/*
 * top's snapshot: every refresh, the dumps of what changes without a
 * notification (switches, temperatures, counters, thresholds, the
 * endpoints' resident memory and I/O counters), each reply parsed into a
 * compact table of the attributes top reads; and the ports, firmware and
 * endpoints kept across snapshots, fetched again when they may have
 * changed.  Also the sessions with the module, connected when it comes.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "nl.h"
#include "objs.h"
#include "top.h"
#include "util.h"

/* The ports and firmware are fetched again at least this often, ms */
#define INFO_MAX_MS	10000

static const uint16_t ta_type[NR_TA] = {
#define TA_TYPE(name) [TA_##name] = PCIESW_A_##name,
	TOP_ATTRS(TA_TYPE)
#undef TA_TYPE
};

/* Where each attribute type goes in a compact table (0: nowhere). */
uint8_t ta_slot[PCIESW_A_MAX + 1];

void ta_init(void)
{
	int i;

	for (i = TA_NONE + 1; i < NR_TA; i++)
		ta_slot[ta_type[i]] = i;
}

/*
 * The kinds of objects every snapshot fetches, beside the switches (their
 * DMA in flight): a threshold's crossed flag clears (threshold-set,
 * counter-clear) and an endpoint's resident memory grows without a
 * notification.
 */
struct tobjs_part {
	uint8_t cmd;
	const char *what;	/* "ports": names it in errors */
	size_t off;		/* of its struct tobjs in the snapshot or info */
};

static const struct tobjs_part snap_parts[] = {
	{ PCIESW_CMD_THERMAL_GET, "temperatures", offsetof(struct snap, thermal) },
	{ PCIESW_CMD_COUNTER_GET, "counters", offsetof(struct snap, counters) },
	{ PCIESW_CMD_THRESHOLD_GET, "thresholds", offsetof(struct snap, thresholds) },
	{ PCIESW_CMD_EP_GET, "endpoints", offsetof(struct snap, eps) },
};
#define NR_PARTS (sizeof(snap_parts) / sizeof(snap_parts[0]))

static const struct tobjs_part info_parts[] = {
	{ PCIESW_CMD_FW_GET, "firmware", offsetof(struct info, fw) },
	{ PCIESW_CMD_PORT_GET, "ports", offsetof(struct info, ports) },
	{ PCIESW_CMD_EP_GET, "endpoints", offsetof(struct info, eps) },
};
#define NR_INFO_PARTS (sizeof(info_parts) / sizeof(info_parts[0]))

static void tobjs_free(struct tobjs *o)
{
	nl_dump_free(&o->d);
	free(o->tb);
	*o = (struct tobjs){ 0 };
}

const struct nlmsghdr *tobjs_hdr(const struct tobjs *o, size_t i)
{
	return o->d.msgs[i];
}

/* Parses every reply of @o->d, what top reads of it. */
static int tobjs_parse(struct tobjs *o)
{
	size_t i;

	o->n = o->d.n;
	o->tb = xreallocarray(NULL, o->n ? o->n : 1, sizeof(*o->tb));
	for (i = 0; i < o->n; i++) {
		if (nl_parse_slots(tobjs_hdr(o, i), ta_slot, o->tb[i],
				   NR_TA) < 0) {
			tobjs_free(o);
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

/*
 * A dump of @cmd (of the switch top watches, if one) into @o, with the
 * flag attribute @flag unless 0 (counter-packed, ep-brief); an error
 * @quiet_err is returned as -@quiet_err, not printed (0: none).
 */
static int tobjs_fetch(uint8_t cmd, int flag, int quiet_err,
		       struct tobjs *o, const char *what)
{
	struct nl_msg *req = nl_request_new(top.s, cmd, true);
	int ret;

	if (!top.o.t.all)
		nl_put_u32(req, PCIESW_A_SWITCH_ID, top.o.t.id);
	if (flag)
		nl_put_flag(req, flag);
	/* top.s runs these dumps only (nl_dump_run()) */
	ret = nl_dump_run(top.s, req, &o->d, quiet_err, "%s", what);
	if (ret)
		return ret;
	return tobjs_parse(o);
}

void snap_free(struct snap *sn)
{
	size_t i;

	tobjs_free(&sn->sw);
	for (i = 0; i < NR_PARTS; i++)
		tobjs_free((struct tobjs *)((char *)sn + snap_parts[i].off));
	free(sn->sums);
	free(sn->io);
	*sn = (struct snap){ 0 };
}

void info_free(struct info *in)
{
	size_t i;

	for (i = 0; i < NR_INFO_PARTS; i++)
		tobjs_free((struct tobjs *)((char *)in + info_parts[i].off));
	*in = (struct info){ 0 };
}

/*
 * The object of @o of switch @sw (and port @port unless UINT32_MAX),
 * or -1.  Dumps come in switch and port order, so the search starts at
 * @hint, where the last one was found.
 */
long find_obj(const struct tobjs *o, uint32_t sw, uint32_t port,
	      size_t hint)
{
	size_t i, k;

	for (k = 0; k < o->n; k++) {
		struct nlattr **tb;

		i = (hint + k) % o->n;
		tb = o->tb[i];
		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != sw)
			continue;
		if (port != UINT32_MAX &&
		    u32_or(tb, TA_PORT_ID, UINT32_MAX) != port)
			continue;
		return i;
	}
	return -1;
}

int cmp_io(const void *a, const void *b)
{
	const struct ep_io *x = a, *y = b;

	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	return x->ep < y->ep ? -1 : x->ep > y->ep;
}

/*
 * The drives' I/O counters of snapshot @sn, from its endpoints (the drive
 * counts what its disk, passthrough commands and DMA moved: the module
 * puts them in every reply, brief or not, so no file of the block layer
 * is read for them).
 */
static void ep_ios(struct snap *sn)
{
	const struct tobjs *eps = &sn->eps;
	size_t i;

	sn->io = xcalloc(eps->n ? eps->n : 1, sizeof(*sn->io));
	for (i = 0; i < eps->n; i++) {
		struct nlattr **tb = eps->tb[i];
		struct ep_io *io = &sn->io[sn->nr_io];

		if (!tb[TA_NVME_BYTES_READ] || !tb[TA_EP_ID])
			continue;
		io->sw = u32_or(tb, TA_SWITCH_ID, 0);
		io->ep = nla_get_u32(tb[TA_EP_ID]);
		io->rbytes = nla_get_u64(tb[TA_NVME_BYTES_READ]);
		io->wbytes = u64_or(tb, TA_NVME_BYTES_WRITTEN, 0);
		io->reads = u64_or(tb, TA_NVME_HOST_READS, 0);
		io->writes = u64_or(tb, TA_NVME_HOST_WRITES, 0);
		sn->nr_io++;
	}
	/* a dump comes in that order: sorted, in case one did not */
	for (i = 1; i < sn->nr_io; i++) {
		if (cmp_io(&sn->io[i - 1], &sn->io[i]) > 0) {
			qsort(sn->io, sn->nr_io, sizeof(*sn->io), cmp_io);
			break;
		}
	}
}

void close_sessions(void)
{
	nl_session_close(top.s);
	nl_session_close(top.ev);
	top.s = top.ev = NULL;
	top.loaded = false;
	top.nested = false;
	top.full_eps = false;
	top.primed = false;
	monitor_forget();
	/* what changed while the module was away came without events */
	info_free(&top.info);
}

/*
 * Connects when the family is there: a session for requests, one for the
 * events.  Quiet while the module is away (top waits for it).  Watching
 * every switch, the first snapshot's port dump primes monitor's port
 * states (update_info()): its own would be a second dump of the same.
 */
static void connect_family(void)
{
	int exists;

	exists = nl_family_exists();
	if (exists <= 0)
		return;
	if (nl_session_open(&top.s) || nl_session_open(&top.ev) ||
	    monitor_subscribe(top.ev) || (!top.o.t.all && monitor_prime())) {
		close_sessions();
		return;
	}
	top.primed = !top.o.t.all;
	top.ev_fd = nl_session_fd(top.ev);
	top.family = nl_session_family(top.ev);
	top.loaded = true;
	top.said_gone = false;
}

/*
 * The endpoints shown with snapshot @sn: its own when the module refused
 * ep-brief (whole each refresh), else those kept with the ports.
 */
static const struct tobjs *eps_of(const struct snap *sn)
{
	return top.full_eps ? &sn->eps : &top.info.eps;
}

/* The endpoints shown now (top.res has their resident memory). */
const struct tobjs *shown_eps(void)
{
	return eps_of(&top.cur);
}

/* Do replies @a and @b name the same endpoint (switch and endpoint id)? */
static bool same_ep(struct nlattr **a, struct nlattr **b)
{
	return u32_or(a, TA_SWITCH_ID, UINT32_MAX) ==
	       u32_or(b, TA_SWITCH_ID, UINT32_MAX) &&
	       u32_or(a, TA_EP_ID, UINT32_MAX) == u32_or(b, TA_EP_ID, UINT32_MAX);
}

/*
 * Are the endpoints kept those of @sn's ep-brief dump, one for one (both
 * in switch and endpoint order)?  An endpoint added or removed whose
 * notification is not read yet shows so.
 */
static bool eps_fit(const struct snap *sn)
{
	const struct tobjs *e = &top.info.eps, *b = &sn->eps;
	size_t i;

	if (top.full_eps)
		return true;
	if (e->n != b->n)
		return false;
	for (i = 0; i < e->n; i++)
		if (!same_ep(e->tb[i], b->tb[i]))
			return false;
	return true;
}

/*
 * Do the ports, firmware and endpoints kept still fit the switches of
 * @sn: for each, as many ports as its switch-nr-ports and its firmware,
 * none of a switch that is gone, the endpoints of its ep-brief dump?  A
 * card created, deleted or re-bifurcated, an endpoint added or removed,
 * whose notification is not read yet shows so.
 */
static bool info_fits(const struct snap *sn)
{
	static uint32_t nports[PCIESW_MAX_SWITCH_ID + 1];
	static bool fw[PCIESW_MAX_SWITCH_ID + 1];
	const struct tobjs *p = &top.info.ports, *f = &top.info.fw;
	size_t i, n = 0;
	uint32_t id;

	memset(nports, 0, sizeof(nports));
	memset(fw, 0, sizeof(fw));
	for (i = 0; i < p->n; i++) {
		id = u32_or(p->tb[i], TA_SWITCH_ID, UINT32_MAX);
		if (id <= PCIESW_MAX_SWITCH_ID)
			nports[id]++;
	}
	for (i = 0; i < f->n; i++) {
		id = u32_or(f->tb[i], TA_SWITCH_ID, UINT32_MAX);
		if (id <= PCIESW_MAX_SWITCH_ID)
			fw[id] = true;
	}
	for (i = 0; i < sn->sw.n; i++) {
		struct nlattr **tb = sn->sw.tb[i];

		id = u32_or(tb, TA_SWITCH_ID, UINT32_MAX);
		if (id > PCIESW_MAX_SWITCH_ID)
			continue;
		if (tb[TA_SWITCH_NR_PORTS] &&
		    nla_get_u32(tb[TA_SWITCH_NR_PORTS]) != nports[id])
			return false;
		/* firmware that could not be fetched is not asked again */
		if (f->n && !fw[id])
			return false;
		n += nports[id];
	}
	return n == p->n && eps_fit(sn);
}

/*
 * Fetches the ports, firmware and endpoints again when they may have
 * changed.
 */
static void update_info(const struct snap *sn, uint64_t now)
{
	struct info in = { 0 };
	size_t i;

	if (top.info.have && !top.info.stale &&
	    top.info.lost == monitor_events_lost &&
	    now - top.info.ns < INFO_MAX_MS * 1000000ull && info_fits(sn))
		return;
	in.lost = monitor_events_lost;
	for (i = 0; i < NR_INFO_PARTS; i++) {
		/* the endpoints are in each snapshot whole then */
		if (info_parts[i].cmd == PCIESW_CMD_EP_GET && top.full_eps)
			continue;
		tobjs_fetch(info_parts[i].cmd, 0, 0,
			    (struct tobjs *)((char *)&in + info_parts[i].off),
			    info_parts[i].what);
	}
	/* the ports were fetched after joining the monitor group */
	if (!top.primed && in.ports.n) {
		if (monitor_prime_with(in.ports.d.msgs, in.ports.n)) {
			info_free(&in);
			close_sessions();
			return;
		}
		top.primed = true;
	}
	in.ns = now_ns();
	in.have = true;
	info_free(&top.info);
	top.info = in;
}

/*
 * Each endpoint's resident memory in snapshot @sn (top.res, by the index
 * of the endpoints shown): from its ep-brief dump; an endpoint it lacks
 * (the endpoints were fetched again after it) keeps the value fetched
 * with it.
 */
static void link_resident(const struct snap *sn)
{
	const struct tobjs *e = eps_of(sn);
	const struct tobjs *b = &sn->eps;
	size_t i, j = 0, k;

	free(top.res);
	top.res = xreallocarray(NULL, e->n ? e->n : 1, sizeof(*top.res));
	for (i = 0; i < e->n; i++) {
		struct nlattr **tb = e->tb[i];

		top.res[i] = tb[TA_EP_MEM_RESIDENT];
		if (top.full_eps)
			continue;
		/* in the same order: the next one, mostly */
		for (k = 0; k < b->n; k++, j = (j + 1) % b->n) {
			if (same_ep(b->tb[j], tb)) {
				if (b->tb[j][TA_EP_MEM_RESIDENT])
					top.res[i] = b->tb[j][TA_EP_MEM_RESIDENT];
				break;
			}
		}
	}
}

/*
 * The counters, packed (counter-values: a third of the nested form's
 * size, and far less to parse); a module older than counter-packed
 * refuses it as an unknown attribute, and is asked for the nested form
 * from then on.
 */
static int fetch_counters(struct tobjs *o, const char *what)
{
	int ret;

	if (!top.nested) {
		ret = tobjs_fetch(PCIESW_CMD_COUNTER_GET,
				  PCIESW_A_COUNTER_PACKED, EINVAL, o, what);
		if (ret != -EINVAL)
			return ret;
		top.nested = true;
	}
	return tobjs_fetch(PCIESW_CMD_COUNTER_GET, 0, 0, o, what);
}

/*
 * The endpoints' resident memory, what changes without a notification
 * (ep-brief: a tenth of the size, and nothing for the module to work
 * out); the rest of the endpoints comes with the ports.  A module older
 * than ep-brief refuses it, and is asked for the whole endpoints each
 * refresh from then on.
 */
static int fetch_eps(struct tobjs *o, const char *what)
{
	int ret;

	if (!top.full_eps) {
		ret = tobjs_fetch(PCIESW_CMD_EP_GET, PCIESW_A_EP_BRIEF, EINVAL,
				  o, what);
		if (ret != -EINVAL)
			return ret;
		top.full_eps = true;
		/* the ones kept would not be refreshed: fetched each time */
		tobjs_free(&top.info.eps);
	}
	return tobjs_fetch(PCIESW_CMD_EP_GET, 0, 0, o, what);
}

/*
 * Takes a snapshot into top.cur (the one before into top.prev), and the
 * ports and firmware into top.info when they may have changed.  False
 * when the module is not there (or went away meanwhile).
 */
bool take_snapshot(void)
{
	struct snap sn = { 0 };
	size_t i;
	int ret;

	if (!top.loaded)
		connect_family();
	if (!top.loaded)
		return false;
	ret = tobjs_fetch(PCIESW_CMD_SWITCH_GET, 0, 0, &sn.sw,
			  "cannot list switches");
	if (!ret) {
		/* what a part cannot give (permission, an older module) stays out */
		for (i = 0; i < NR_PARTS; i++) {
			struct tobjs *o = (struct tobjs *)((char *)&sn +
							   snap_parts[i].off);

			if (snap_parts[i].cmd == PCIESW_CMD_COUNTER_GET)
				fetch_counters(o, snap_parts[i].what);
			else if (snap_parts[i].cmd == PCIESW_CMD_EP_GET)
				fetch_eps(o, snap_parts[i].what);
			else
				tobjs_fetch(snap_parts[i].cmd, 0, 0, o,
					    snap_parts[i].what);
		}
	}
	if (ret) {
		snap_free(&sn);
		if (nl_family_exists() == 0)
			close_sessions();
		return false;
	}
	sn.ns = now_ns();
	/* once a snapshot: the rows, the rates and the bases use them */
	sn.sums = xcalloc(sn.counters.n ? sn.counters.n : 1, sizeof(*sn.sums));
	for (i = 0; i < sn.counters.n; i++)
		port_sums(tobjs_hdr(&sn.counters, i), &sn.sums[i]);
	update_info(&sn, sn.ns);
	link_resident(&sn);
	ep_ios(&sn);
	snap_free(&top.prev);
	top.prev = top.cur;
	top.have_prev = top.have_cur;
	top.cur = sn;
	top.have_cur = true;
	return true;
}
