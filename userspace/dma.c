// SPDX-License-Identifier: GPL-2.0
/*
 * The DMA data path (see dma.h): a window of blocks in flight, refilled as
 * completions come back.  Each descriptor's user_data says which block it
 * moves, which host slot it uses and which leg of a bounce it is, so
 * completions may come back in any order (channels run in parallel).
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dma.h"
#include "util.h"

/* Waiting longer than this for a completion is a failure. */
#define DMA_TIMEOUT_MS	60000
/* Completions read at once */
#define DMA_READ_BATCH	256

/* user_data: block << 13 | slot << 1 | leg; slots are below 4096 */
#define UD_SLOT_BITS	12
#define UD_SLOT_MASK	((1u << UD_SLOT_BITS) - 1)
_Static_assert(PCIESW_DMA_MAX_INFLIGHT <= (1u << UD_SLOT_BITS),
	       "a slot per descriptor in flight must fit in user_data");

struct run {
	int fd;
	const struct dma_job *job;
	struct dma_result *res;
	uint64_t nblocks;
	uint64_t next;		/* the next block to start */
	uint64_t done;		/* blocks finished, ok or not */
	uint32_t inflight;	/* blocks started and not finished */
	char *host;		/* slots of job->block bytes, or NULL */
	size_t host_len;
	uint32_t *free_slot;
	uint32_t nfree;
	struct pciesw_dma_desc batch[PCIESW_DMA_MAX_BATCH];
	uint32_t nbatch;
};

static bool uses_host(const struct dma_job *job)
{
	return job->src.host || job->dst.host || job->bounce;
}

static uint64_t nr_blocks(const struct dma_job *job)
{
	return job->size / job->block + !!(job->size % job->block);
}

uint64_t dma_host_bytes(const struct dma_job *job)
{
	uint64_t slots = nr_blocks(job);

	if (!uses_host(job))
		return 0;
	if (slots > job->depth)
		slots = job->depth;
	return slots * job->block;
}

int dma_open(uint32_t id, int *fd)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/pciesw%u", id);
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd >= 0)
		return EXIT_OK;
	if (errno == ENOENT)
		error("cannot open %s: no such device (no switch %u?)", path,
		      id);
	else
		error("cannot open %s: %s", path, strerror(errno));
	return EXIT_FAIL;
}

/* What the submission errnos of the uAPI mean. */
static const char *submit_error(int err)
{
	switch (err) {
	case ERANGE:
		return "beyond the end of the endpoint's memory window";
	case EOVERFLOW:
		return "offset + length wraps around";
	case ENOENT:
		return "no such endpoint";
	case EINVAL:
		return "invalid descriptor (length, channel or flags)";
	case EAGAIN:
		return "too many transfers in flight or too much host memory pinned";
	case EFAULT:
		return "host buffer not accessible";
	case ENODEV:
		return "the switch was removed";
	case ENOTTY:
		return "the module has no DMA (an older pciesw)";
	default:
		return strerror(err);
	}
}

static void describe_loc(char *buf, size_t len,
			 const struct pciesw_dma_loc *loc,
			 const struct dma_end *end)
{
	if (loc->ep_id == PCIESW_DMA_HOST)
		snprintf(buf, len, "host");
	else
		snprintf(buf, len, "%.*s:%" PRIu64,
			 (int)strcspn(end->text, ":"), end->text,
			 (uint64_t)loc->addr);
}

static int flush(struct run *r)
{
	struct pciesw_dma_submit sub = {
		.size = sizeof(sub),
		.desc_size = sizeof(struct pciesw_dma_desc),
		.nr_descs = r->nbatch,
		.descs = (uintptr_t)r->batch,
	};
	const struct pciesw_dma_desc *d;
	char src[80], dst[80];
	int err;

	if (!r->nbatch)
		return EXIT_OK;
	if (!ioctl(r->fd, PCIESW_IOC_DMA_SUBMIT, &sub)) {
		r->nbatch = 0;
		return EXIT_OK;
	}
	err = errno;
	if (sub.error_index >= r->nbatch) {
		error("cannot submit DMA: %s", submit_error(err));
		return EXIT_FAIL;
	}
	d = &r->batch[sub.error_index];
	describe_loc(src, sizeof(src), &d->src, &r->job->src);
	describe_loc(dst, sizeof(dst), &d->dst, &r->job->dst);
	error("cannot submit DMA %s -> %s (%" PRIu64 " bytes, channel %u): %s",
	      src, dst, (uint64_t)d->len, d->channel, submit_error(err));
	return EXIT_FAIL;
}

static void set_loc(struct pciesw_dma_loc *loc, const struct dma_end *end,
		    uint64_t off, const char *slot)
{
	if (end->host) {
		loc->ep_id = PCIESW_DMA_HOST;
		loc->addr = (uintptr_t)slot;
	} else {
		loc->ep_id = end->ep_id;
		loc->addr = end->addr + off;
	}
}

/* Adds leg @leg of block @b (host slot @slot) to the batch. */
static int queue(struct run *r, uint64_t b, uint32_t slot, int leg)
{
	const struct dma_job *job = r->job;
	struct pciesw_dma_desc *d = &r->batch[r->nbatch++];
	const struct dma_end host = { .host = true };
	uint64_t off = b * job->block;
	const char *buf = r->host ? r->host + (size_t)slot * job->block : NULL;

	memset(d, 0, sizeof(*d));
	set_loc(&d->src, job->bounce && leg ? &host : &job->src, off, buf);
	set_loc(&d->dst, job->bounce && !leg ? &host : &job->dst, off, buf);
	d->len = job->size - off < job->block ? job->size - off : job->block;
	d->user_data = b << (UD_SLOT_BITS + 1) | (uint64_t)slot << 1 | leg;
	d->channel = b % job->channels;
	return r->nbatch == PCIESW_DMA_MAX_BATCH ? flush(r) : EXIT_OK;
}

/* Starts blocks until @depth are in flight or none is left. */
static int start_blocks(struct run *r)
{
	uint32_t slot = 0;
	int ret;

	while (r->next < r->nblocks && r->inflight < r->job->depth) {
		if (r->host)
			slot = r->free_slot[--r->nfree];
		ret = queue(r, r->next++, slot, 0);
		r->inflight++;
		if (ret)
			return ret;
	}
	return flush(r);
}

static int complete(struct run *r, const struct pciesw_dma_completion *c)
{
	struct dma_result *res = r->res;
	uint32_t slot = (c->user_data >> 1) & UD_SLOT_MASK;
	uint64_t b = c->user_data >> (UD_SLOT_BITS + 1);
	int leg = c->user_data & 1;

	res->completions++;
	res->modelled_ns += c->duration_ns;
	res->status[c->status < DMA_STATUS_UNKNOWN ? c->status :
		    DMA_STATUS_UNKNOWN]++;
	if (c->status != PCIESW_DMA_STATUS_OK && !res->failed++)
		res->first_status = c->status;
	if (r->job->bounce && !leg && c->status == PCIESW_DMA_STATUS_OK)
		return queue(r, b, slot, 1);
	if (!r->job->bounce || leg)
		res->bytes += c->bytes;
	r->done++;
	r->inflight--;
	if (r->host)
		r->free_slot[r->nfree++] = slot;
	return EXIT_OK;
}

/* Waits for completions and handles those that came. */
static int reap(struct run *r)
{
	struct pciesw_dma_completion c[DMA_READ_BATCH];
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	ssize_t n, i;
	int ret;

	ret = poll(&pfd, 1, DMA_TIMEOUT_MS);
	if (ret < 0)
		goto fail;
	if (!ret) {
		error("no DMA completion for %d s (%" PRIu64 " of %" PRIu64 " blocks done)",
		      DMA_TIMEOUT_MS / 1000, r->done, r->nblocks);
		return EXIT_FAIL;
	}
	n = read(r->fd, c, sizeof(c));
	if (n < 0)
		goto fail;
	for (i = 0; i < n / (ssize_t)sizeof(c[0]); i++) {
		ret = complete(r, &c[i]);
		if (ret)
			return ret;
	}
	return EXIT_OK;
fail:
	if (errno == EINTR || errno == EAGAIN)
		return EXIT_OK;
	error("cannot read DMA completions: %s", strerror(errno));
	return EXIT_FAIL;
}

int dma_run(int fd, const struct dma_job *job, struct dma_result *res)
{
	struct run *r = xcalloc(1, sizeof(*r));
	uint64_t t0;
	uint32_t i;
	int ret = EXIT_OK;

	*res = (struct dma_result){ 0 };
	r->fd = fd;
	r->job = job;
	r->res = res;
	r->nblocks = nr_blocks(job);
	r->host_len = dma_host_bytes(job);
	if (r->host_len) {
		/* populated: no page faults while the clock runs */
		r->host = mmap(NULL, r->host_len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
			       -1, 0);
		if (r->host == MAP_FAILED) {
			error("cannot allocate %zu bytes of host buffer: %s",
			      r->host_len, strerror(errno));
			free(r);
			return EXIT_FAIL;
		}
		r->nfree = r->host_len / job->block;
		r->free_slot = xcalloc(r->nfree, sizeof(*r->free_slot));
		for (i = 0; i < r->nfree; i++)
			r->free_slot[i] = r->nfree - 1 - i;
	}

	t0 = now_ns();
	ret = start_blocks(r);
	while (!ret && r->done < r->nblocks) {
		ret = reap(r);
		if (!ret)
			ret = start_blocks(r);
	}
	res->wall_ns = now_ns() - t0;

	if (r->host)
		munmap(r->host, r->host_len);
	free(r->free_slot);
	free(r);
	return ret;
}
