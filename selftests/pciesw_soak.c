// SPDX-License-Identifier: GPL-2.0
/*
 * Soak: DMA under topology churn, then load/unload cycles.
 *
 * 1. For --time SECS (default 6 s, PCIESW_SOAK_TIME): four DMA channels each
 *    run chains host -> endpoint X -> endpoint Y -> host of a pattern
 *    (X on gpu0, Y on nvme0 of a pex89144), the destination checked after
 *    each chain, while the main thread, in random order: re-bifurcates the
 *    other groups (gpu1-3, nvme1-3), hot-unplugs and re-plugs X and Y,
 *    disables and re-enables their links, surprise-downs them, flips ACS
 *    redirect on X's port and the switch's host-p2p, and tries rmmod, which
 *    must fail (EBUSY/EAGAIN: /dev/pcieswN is open).  Every descriptor
 *    completes exactly once (no duplicate, none missing once drained) with
 *    a status that matches what happened since it was submitted:
 *      ok           only with bytes == len, and a chain of three oks must
 *                   leave the pattern in the destination
 *      unplugged    X or Y was unplugged since
 *      link-down    a link was disabled, surprise-downed or re-trained
 *                   (after a re-plug) since, or was not up yet
 *      p2p-refused  (X -> Y only) ACS redirect on with host-p2p off at the
 *                   time, or a flip of either since
 *    anything else (cancelled, nomem) fails: nothing here closes the file
 *    or removes the switch while descriptors are queued.  Re-bifurcating
 *    the other groups must not disturb the chains at all.  When the time
 *    is up, ACS redirect goes off and the links train, and a chain must
 *    then verify: a random schedule may have refused every earlier one.
 * 2. --cycles N (default 3) load/unload cycles with nr_switches=8 and
 *    pci_view=1: each load makes the 8 switches with their PCI view, each
 *    unload leaves nothing (kmemleak on the debug kernel: qemu-run.sh).
 *
 * Reduced (debug plan): 4 s, 1 cycle (8 PCI views cost ~30 s there).  make soak (scripts/soak.sh) runs
 * the long form: 60 s, 100 cycles.  Options also come from
 * PCIESW_SOAK_ARGS (run.sh passes none).  Leaves the module unloaded.
 *
 * Switch ids used here: 244 (and 0-7 in the cycles, with nothing else).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "pciesw_topo.h"
#include "pciesw_dma.h"

#define ID		244U
#define NCHAN		4
#define MAX_LEN		(256 * 1024)
#define REGION		(1024 * 1024)	/* per channel, in X and Y */

/* what happened, counted by the main thread before it does it */
static atomic_uint ev_unplug, ev_link, ev_p2p;
static atomic_bool link_unsettled;	/* a link may not be up (yet) */
static atomic_bool p2p_refusing;	/* X -> Y may be refused now */
static atomic_bool stop;
static atomic_uint completions;
static atomic_ullong verified;	/* chains checked, for the main thread */

static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER; /* x_id, y_id */
static long x_id = -1, y_id = -1;

struct snap {
	unsigned int unplug, link, p2p;
	bool unsettled, refusing;
};

static void snap_take(struct snap *s)
{
	s->unplug = atomic_load(&ev_unplug);
	s->link = atomic_load(&ev_link);
	s->p2p = atomic_load(&ev_p2p);
	s->unsettled = atomic_load(&link_unsettled);
	s->refusing = atomic_load(&p2p_refusing);
}

struct chain {
	bool busy;
	uint64_t seq;
	uint64_t len;
	struct snap snap;
	unsigned int seen;	/* steps completed, bit per step */
	uint32_t status[3];
	uint64_t bytes[3];
	unsigned char *src, *dst;
};

struct result {
	unsigned long long chains, verified, refused_at_submit;
	unsigned long long st[PCIESW_DMA_STATUS_MAX + 2];
	unsigned int bad;
	char why[256];
};

static void bad(struct result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->bad++ < 8) {
		printf("# dma: ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
}

/* does status @st of step @step agree with what happened since @s? */
static bool status_ok(const struct snap *s, int step, uint32_t st)
{
	bool unplug = atomic_load(&ev_unplug) != s->unplug;
	bool link = atomic_load(&ev_link) != s->link || s->unsettled || unplug;
	bool p2p = atomic_load(&ev_p2p) != s->p2p || s->refusing;

	switch (st) {
	case PCIESW_DMA_STATUS_OK:
		return true;
	case PCIESW_DMA_STATUS_UNPLUGGED:
		return unplug;
	case PCIESW_DMA_STATUS_LINK_DOWN:
		return link;
	case PCIESW_DMA_STATUS_P2P_REFUSED:
		return step == 1 && p2p;
	default:
		return false;
	}
}

static void chain_done(struct chain *c, struct result *r)
{
	int i;
	bool all_ok = true;

	r->chains++;
	for (i = 0; i < 3; i++) {
		uint32_t st = c->status[i];

		r->st[st <= PCIESW_DMA_STATUS_MAX ? st :
		      PCIESW_DMA_STATUS_MAX + 1]++;
		if (!status_ok(&c->snap, i, st))
			bad(r, "chain %llu step %d: %s that nothing explains",
			    (unsigned long long)c->seq, i, dma_status_name(st));
		if (st == PCIESW_DMA_STATUS_OK && c->bytes[i] != c->len)
			bad(r, "chain %llu step %d: ok with %llu of %llu bytes",
			    (unsigned long long)c->seq, i,
			    (unsigned long long)c->bytes[i],
			    (unsigned long long)c->len);
		if (st != PCIESW_DMA_STATUS_OK && c->bytes[i] > c->len)
			bad(r, "chain %llu step %d: %llu bytes of %llu",
			    (unsigned long long)c->seq, i,
			    (unsigned long long)c->bytes[i],
			    (unsigned long long)c->len);
		all_ok &= st == PCIESW_DMA_STATUS_OK;
	}
	if (all_ok) {
		long long at = pat_check(c->dst, c->len, c->seq);

		if (at >= 0)
			bad(r, "chain %llu: three oks but byte %lld of %llu differs",
			    (unsigned long long)c->seq, at,
			    (unsigned long long)c->len);
		else
			atomic_store(&verified, ++r->verified);
	}
	c->busy = false;
}

struct dma_ctx {
	int fd;
	struct chain ch[NCHAN];
	uint64_t seq;
	struct result res;
	unsigned int inflight;	/* descriptors */
};

static void chain_submit(struct dma_ctx *d, int n, uint64_t rnd)
{
	struct chain *c = &d->ch[n];
	struct pciesw_dma_desc desc[3];
	uint64_t off = (uint64_t)n * REGION;
	long x, y;
	int err;

	/*
	 * What happened so far, then the ids: an unplug forgets the id
	 * before it is counted, so an id read here is of an endpoint whose
	 * unplug, if any, comes after the snapshot.
	 */
	snap_take(&c->snap);
	pthread_mutex_lock(&ids_lock);
	x = x_id;
	y = y_id;
	pthread_mutex_unlock(&ids_lock);
	if (x < 0 || y < 0)
		return;
	c->seq = ++d->seq;
	c->len = 4096 + rnd % (MAX_LEN - 4096 + 1);
	pat_fill(c->src, c->len, c->seq);
	memset(c->dst, 0, c->len);
	c->seen = 0;
	desc[0] = dma_desc(dma_host(c->src), dma_ep(x, off), c->len,
			   c->seq << 2 | 0, n);
	desc[1] = dma_desc(dma_ep(x, off), dma_ep(y, off), c->len,
			   c->seq << 2 | 1, n);
	desc[2] = dma_desc(dma_ep(y, off), dma_host(c->dst), c->len,
			   c->seq << 2 | 2, n);
	err = dma_submit(d->fd, desc, 3, NULL);
	if (err) {
		/* an endpoint went between reading its id and submitting */
		if (err != -ENOENT)
			bad(&d->res, "submit: %s", strerror(-err));
		d->res.refused_at_submit++;
		return;
	}
	c->busy = true;
	d->inflight += 3;
}

static void handle(struct dma_ctx *d, const struct pciesw_dma_completion *co)
{
	uint64_t seq = co->user_data >> 2;
	unsigned int step = co->user_data & 3, n = co->channel;
	struct chain *c;

	atomic_fetch_add(&completions, 1);
	if (n >= NCHAN || step > 2 || !d->ch[n].busy || d->ch[n].seq != seq) {
		bad(&d->res, "completion of no queued descriptor: data %llx channel %u",
		    (unsigned long long)co->user_data, n);
		return;
	}
	c = &d->ch[n];
	if (c->seen & (1u << step)) {
		bad(&d->res, "chain %llu step %u completed twice",
		    (unsigned long long)seq, step);
		return;
	}
	c->seen |= 1u << step;
	c->status[step] = co->status;
	c->bytes[step] = co->bytes;
	d->inflight--;
	if (c->seen == 7)
		chain_done(c, &d->res);
}

static void *dma_thread(void *arg)
{
	struct dma_ctx *d = arg;
	struct pciesw_dma_completion co[16];
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int n, i, r;

	for (;;) {
		bool stopping = atomic_load(&stop);

		for (n = 0; n < NCHAN && !stopping; n++)
			if (!d->ch[n].busy) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				chain_submit(d, n, x);
			}
		if (stopping && !d->inflight)
			break;
		r = dma_read(d->fd, co, 16, stopping ? tp_ms(20000) : 20);
		if (r == -ETIMEDOUT) {
			if (stopping) {
				bad(&d->res, "%u descriptors never completed",
				    d->inflight);
				break;
			}
			continue;
		}
		if (r < 0) {
			bad(&d->res, "read: %s", strerror(-r));
			break;
		}
		for (i = 0; i < r; i++)
			handle(d, &co[i]);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The churn                                                           */

enum { A_REBIF, A_UNPLUG, A_DISABLE, A_SURPRISE, A_ACS, A_HOSTP2P, A_RMMOD,
       A_NR };
static const char *const a_names[A_NR] = {
	"re-bifurcations", "unplug+replug", "link disable+enable",
	"surprise-downs", "ACS flips", "host-p2p flips", "rmmod attempts",
};

struct churn {
	struct pnl p;
	int x_port, y_port;
	bool acs, host_p2p;
	unsigned int done[A_NR], errs;
};

static void churn_err(struct churn *c, const char *what, int err)
{
	if (c->errs++ < 8)
		printf("# churn: %s: %s\n", what, strerror(-err));
}

static void update_refusing(struct churn *c)
{
	atomic_store(&p2p_refusing, c->acs && !c->host_p2p);
}

/* wait until the DMA thread made progress (or 200 ms): the change bites */
static void let_dma_run(void)
{
	unsigned int c0 = atomic_load(&completions);
	struct tp_poll w;

	tp_poll_start(&w, 200);
	while (atomic_load(&completions) == c0 && tp_poll_next(&w))
		;
}

/* X's and Y's links up again: only then may link-down not happen */
static void settle(struct churn *c)
{
	if (!tp_wait_ltssm(&c->p, ID, c->x_port, PCIESW_LTSSM_L0, NULL) ||
	    !tp_wait_ltssm(&c->p, ID, c->y_port, PCIESW_LTSSM_L0, NULL)) {
		churn_err(c, "links not trained", -ETIMEDOUT);
		return;
	}
	atomic_store(&link_unsettled, false);
}

static void churn_one(struct churn *c, unsigned int a, uint64_t r)
{
	static const char *const gpu_cfg[] = { "1x16", "2x8", "4x4" };
	static const char *const nvme_cfg[] = { "1x16", "2x8", "4x4", "8x2",
						"16x1" };
	bool on_x = r & 1;
	int port = on_x ? c->x_port : c->y_port;
	struct pnl_reply rep;
	char name[32];
	uint32_t ep;
	int err;

	switch (a) {
	case A_REBIF:
		if (r & 2)
			snprintf(name, sizeof(name), "gpu%u", 1 + (unsigned int)(r >> 8) % 3);
		else
			snprintf(name, sizeof(name), "nvme%u", 1 + (unsigned int)(r >> 8) % 3);
		err = tp_group_set_name(&c->p, ID, name, r & 2 ?
					gpu_cfg[(r >> 16) % 3] :
					nvme_cfg[(r >> 16) % 5], &rep);
		pnl_reply_free(&rep);
		if (err && err != -EALREADY)
			churn_err(c, "group-set", err);
		break;
	case A_UNPLUG:
		/* the id forgotten first: see chain_submit() */
		pthread_mutex_lock(&ids_lock);
		if (on_x)
			x_id = -1;
		else
			y_id = -1;
		pthread_mutex_unlock(&ids_lock);
		atomic_store(&link_unsettled, true);
		atomic_fetch_add(&ev_unplug, 1);
		err = tp_port_unplug(&c->p, ID, port);
		if (err)
			churn_err(c, "unplug", err);
		let_dma_run();
		err = tp_ep_add(&c->p, ID, port, on_x ? PCIESW_EP_TYPE_GPU :
				PCIESW_EP_TYPE_NVME, 0, 0, &ep, NULL);
		if (err) {
			churn_err(c, "replug", err);
			break;
		}
		pthread_mutex_lock(&ids_lock);
		if (on_x)
			x_id = ep;
		else
			y_id = ep;
		pthread_mutex_unlock(&ids_lock);
		settle(c);
		break;
	case A_DISABLE:
		atomic_store(&link_unsettled, true);
		atomic_fetch_add(&ev_link, 1);
		err = tp_port_set1(&c->p, ID, port,
				   (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED, 0));
		if (err)
			churn_err(c, "link disable", err);
		let_dma_run();
		err = tp_port_set1(&c->p, ID, port,
				   (struct pnl_attr)A_U8(PCIESW_A_PORT_ENABLED, 1));
		if (err)
			churn_err(c, "link enable", err);
		settle(c);
		break;
	case A_SURPRISE:
		atomic_store(&link_unsettled, true);
		atomic_fetch_add(&ev_link, 1);
		err = tp_port_set1(&c->p, ID, port,
				   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_SURPRISE_DOWN_NOW));
		if (err)
			churn_err(c, "surprise-down", err);
		let_dma_run();
		/* it stays down until software retrains it */
		err = tp_port_set1(&c->p, ID, port,
				   (struct pnl_attr)A_FLAG(PCIESW_A_PORT_RETRAIN));
		if (err)
			churn_err(c, "retrain", err);
		settle(c);
		break;
	case A_ACS:
		atomic_fetch_add(&ev_p2p, 1);
		c->acs = !c->acs;
		atomic_store(&p2p_refusing, true);
		err = tp_port_set1(&c->p, ID, c->x_port,
				   (struct pnl_attr)A_U8(PCIESW_A_PORT_ACS_REDIRECT, c->acs));
		if (err)
			churn_err(c, "acs", err);
		update_refusing(c);
		break;
	case A_HOSTP2P:
		atomic_fetch_add(&ev_p2p, 1);
		c->host_p2p = !c->host_p2p;
		atomic_store(&p2p_refusing, true);
		err = dma_switch_set(&c->p, ID, PCIESW_A_SWITCH_HOST_P2P,
				     c->host_p2p, NULL);
		if (err)
			churn_err(c, "host-p2p", err);
		update_refusing(c);
		break;
	case A_RMMOD:
		if (!syscall(SYS_delete_module, "pciesw", O_NONBLOCK)) {
			printf("# churn: rmmod succeeded with /dev/pciesw%u open\n", ID);
			c->errs += 100;
			atomic_store(&stop, true);
		} else if (errno != EBUSY && errno != EAGAIN) {
			churn_err(c, "rmmod", -errno);
		}
		break;
	}
	c->done[a]++;
}

static unsigned long long num_arg(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "usage: pciesw_soak [--time SECS] [--cycles N] [--seed S]\n");
		exit(2);
	}
	return v;
}

/* ------------------------------------------------------------------ */
/* Load/unload cycles                                                  */

static int unload(void)
{
	struct tp_poll w;

	tp_poll_start(&w, 3000);
	do {
		if (!syscall(SYS_delete_module, "pciesw", O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
	} while ((errno == EAGAIN || errno == EBUSY) && tp_poll_next(&w));
	return -errno;
}

static int cycles(const char *ko, unsigned int n)
{
	unsigned int i, s, bad = 0;
	char path[PATH_MAX], buf[16];
	int err;

	err = unload();
	if (err) {
		printf("# cycles: rmmod before: %s\n", strerror(-err));
		return 1;
	}
	for (i = 0; i < n && bad < 3; i++) {
		err = tp_load_module(ko, "nr_switches=8 pci_view=1");
		if (err) {
			printf("# cycle %u: insmod: %s\n", i, strerror(-err));
			bad++;
			break;
		}
		for (s = 0; s < 9; s++) {
			bool want = s < 8;

			if (sw_exists(s) != want) {
				printf("# cycle %u: switch %u %s\n", i, s,
				       want ? "missing" : "unexpected");
				bad++;
			}
			if (!want)
				continue;
			snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/pci_view", s);
			if (sysfs_read(path, buf, sizeof(buf)) || strcmp(buf, "1")) {
				printf("# cycle %u: switch %u: pci_view '%s'\n",
				       i, s, buf);
				bad++;
			}
		}
		err = unload();
		if (err) {
			printf("# cycle %u: rmmod: %s\n", i, strerror(-err));
			bad++;
			break;
		}
		if (!access(PCIESW_BUS, F_OK) || !access("/sys/module/pciesw", F_OK)) {
			printf("# cycle %u: left after rmmod: %s\n", i, PCIESW_BUS);
			bad++;
		}
	}
	printf("# %u load/unload cycles with 8 switches and the PCI view\n", i);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned int secs = tp_reduced() ? 4 : 6, ncycles = tp_reduced() ? 1 : 3;
	unsigned int i, a;
	uint64_t seed = tp_now_ns() & 0xffffffffffULL, x, end;
	struct dma_ctx d = { .fd = -1 };
	struct churn c = { .host_p2p = false };
	const char *e, *ko = getenv("PCIESW_KO");
	unsigned long long v0, quiet;
	struct tp_poll w;
	pthread_t thr;
	char path[64];
	int fails = 0, err;

	(void)test_harness_run;	/* pciesw_test.h brings the harness */
	e = getenv("PCIESW_SOAK_ARGS");
	if (argc == 1 && e && *e) {
		static char *av[16];
		char *s = strdup(e), *tok;

		argc = 0;
		av[argc++] = argv[0];
		for (tok = strtok(s, " "); tok && argc < 15; tok = strtok(NULL, " "))
			av[argc++] = tok;
		argv = av;
	} else if (tp_reduced()) {
		tp_note_reduced("soak: %u s instead of 6, %u cycles instead of 3",
				secs, ncycles);
	}
	e = getenv("PCIESW_SOAK_TIME");
	if (e && atoi(e) > 0)
		secs = atoi(e);
	for (i = 1; i + 1 < (unsigned int)argc; i += 2) {
		if (!strcmp(argv[i], "--time"))
			secs = num_arg(argv[i + 1]);
		else if (!strcmp(argv[i], "--cycles"))
			ncycles = num_arg(argv[i + 1]);
		else if (!strcmp(argv[i], "--seed"))
			seed = num_arg(argv[i + 1]);
		else
			num_arg("");
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..2\n");
	printf("# pciesw_soak --time %u --cycles %u --seed %llu\n", secs,
	       ncycles, (unsigned long long)seed);
	if (!ko) {
		printf("1..0 # SKIP PCIESW_KO not set (run by selftests/run.sh)\n");
		return 4;
	}

	/* the card: X on gpu0, Y on nvme0, links up */
	if (pnl_open(&c.p) || (sw_exists(ID) && sw_del(ID)) ||
	    sw_new(ID, "pex89144")) {
		printf("not ok 1 soak # setup: switch %u\n", ID);
		return 1;
	}
	c.x_port = tp_port_at_lane(&c.p, ID, 16);
	c.y_port = tp_port_at_lane(&c.p, ID, 80);
	for (i = 0; i < 2; i++) {
		int port = i ? c.y_port : c.x_port;
		uint32_t ep;

		tp_port_unplug(&c.p, ID, port);
		err = tp_ep_add(&c.p, ID, port, i ? PCIESW_EP_TYPE_NVME :
				PCIESW_EP_TYPE_GPU, 0, 0, &ep, NULL);
		if (err) {
			printf("not ok 1 soak # setup: ep-add on port %d: %s\n",
			       port, strerror(-err));
			return 1;
		}
		*(i ? &y_id : &x_id) = ep;
	}
	dma_switch_set(&c.p, ID, PCIESW_A_SWITCH_HOST_P2P, 0, NULL);
	atomic_store(&link_unsettled, true);
	settle(&c);
	snprintf(path, sizeof(path), "/dev/pciesw%u", ID);
	d.fd = open(path, O_RDWR | O_CLOEXEC);
	for (i = 0; i < NCHAN; i++) {
		d.ch[i].src = dma_host_buf(MAX_LEN);
		d.ch[i].dst = dma_host_buf(MAX_LEN);
		if (!d.ch[i].src || !d.ch[i].dst)
			d.fd = -1;
	}
	if (d.fd < 0) {
		printf("not ok 1 soak # setup: %s or host buffers\n", path);
		return 1;
	}
	pthread_create(&thr, NULL, dma_thread, &d);

	x = seed * 0x9E3779B97F4A7C15ULL | 1;
	end = tp_now_ns() + (uint64_t)secs * 1000000000ULL;
	while (tp_now_ns() < end && !atomic_load(&stop)) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* re-bifurcation, the cheap and harmless one, most often */
		a = x % 10 < 3 ? A_REBIF : 1 + (x >> 8) % (A_NR - 1);
		churn_one(&c, a, x >> 12);
		let_dma_run();
	}
	/*
	 * Quiet again (ACS redirect off, links up): a random schedule may
	 * have refused or broken every chain so far, but from here every
	 * chain has nothing to explain a failure, and one must verify.
	 */
	if (c.acs)
		churn_one(&c, A_ACS, 0);
	settle(&c);
	v0 = atomic_load(&verified);
	tp_poll_start(&w, tp_ms(10000));
	while (!atomic_load(&stop) && atomic_load(&verified) == v0 &&
	       tp_poll_next(&w))
		;
	quiet = atomic_load(&verified) - v0;
	atomic_store(&stop, true);
	pthread_join(thr, NULL);

	for (a = 0; a < A_NR; a++)
		printf("# churn: %u %s\n", c.done[a], a_names[a]);
	printf("# dma: %llu chains, %llu verified, %llu refused at submission\n",
	       d.res.chains, d.res.verified, d.res.refused_at_submit);
	for (i = 0; i <= PCIESW_DMA_STATUS_MAX; i++)
		if (d.res.st[i])
			printf("# dma: %llu descriptors %s\n", d.res.st[i],
			       dma_status_name(i));
	printf("# dma: %llu chains verified once quiet\n", quiet);
	if (!quiet)
		bad(&d.res, "no chain verified once the churn stopped");
	if (c.errs)
		printf("# churn: %u operations failed\n", c.errs);
	fails = d.res.bad || c.errs;
	printf("%sok 1 soak\n", fails ? "not " : "");

	/* closed: the module may go now */
	close(d.fd);
	sw_del(ID);
	pnl_close(&c.p);
	err = cycles(ko, ncycles);
	printf("%sok 2 cycles\n", err ? "not " : "");
	return fails || err ? 1 : 0;
}
