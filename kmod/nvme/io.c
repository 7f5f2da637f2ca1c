// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe controller's NVM commands, its error log and the drive's
 * faults (core.c dispatches the commands, ctrl.h is what the
 * controller's files share).
 *
 * NVM: Flush, Write, Read, Compare, Write Zeroes, Dataset Management
 * (deallocate gives the window's pages back, as a discard of the block
 * device does).  A command that fails, admin or NVM, is logged in the
 * error log (16 entries, pciesw_nvme_log_error()).
 *
 * Faults (pciesw_nvme_inject(), from fault injection): media errors on a
 * range of blocks (reads that touch it fail with Unrecovered Read Error,
 * counted in SMART's Media Errors and logged, until a write of the range
 * that succeeds reallocates it, as a drive does), a forced composite temperature, the
 * available spare, and read-only media (writes fail with Attempted Write
 * to Read Only Range).  The SMART log's critical warning follows: bit 0
 * while the spare is below its threshold, bit 1 while the temperature is
 * over its over or under its under threshold (FID 4), bit 3 while the
 * media is read-only.  The block view asks pciesw_nvme_media_fails() of
 * every request, so its disk fails the same reads and writes.  A failing
 * self-test makes the next device self-test to complete fail its media
 * check segment (maint.c).  A warning bit that comes on, when a
 * fault is injected, a threshold set (Set Features, hwmon) or the thermal
 * model's temperature crosses one, is an asynchronous event
 * (pciesw_nvme_aen_check()).
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "ctrl.h"
#include "model/event.h"

/* ---- NVM commands ---- */

/*
 * Copy @len bytes between the window at @pos and @buf: a hole reads as
 * zeros and costs nothing; a write makes its pages (the caller is in the
 * NOIO scope).  -ENOSPC past the module's memory limit, -ENOMEM.
 */
static int pciesw_nvme_copy(struct pciesw_nvme *n, bool write, u64 pos,
			    u8 *buf, u64 len)
{
	while (len) {
		unsigned int po = offset_in_page(pos);
		unsigned int k = min_t(u64, len, PAGE_SIZE - po);
		pgoff_t idx = pos >> PAGE_SHIFT;
		struct page *wp;
		void *w;

		wp = write ? pciesw_mem_get_page_alloc(n->mem, idx) :
			     pciesw_mem_get_page(n->mem, idx);
		if (IS_ERR(wp))
			return PTR_ERR(wp);
		if (wp) {
			w = kmap_local_page(wp);
			if (write)
				memcpy(w + po, buf, k);
			else
				memcpy(buf, w + po, k);
			kunmap_local(w);
			if (write)
				flush_dcache_page(wp);
			put_page(wp);
		} else {
			memset(buf, 0, k);
		}
		pos += k;
		buf += k;
		len -= k;
	}
	return 0;
}

/* Compare: whether the window at @pos holds the @len bytes of @buf. */
static bool pciesw_nvme_same(struct pciesw_nvme *n, u64 pos, const u8 *buf,
			     u64 len)
{
	bool same = true;

	while (len && same) {
		unsigned int po = offset_in_page(pos);
		unsigned int k = min_t(u64, len, PAGE_SIZE - po);
		struct page *wp = pciesw_mem_get_page(n->mem, pos >> PAGE_SHIFT);
		void *w;

		if (wp) {
			w = kmap_local_page(wp);
			same = !memcmp(w + po, buf, k);
			kunmap_local(w);
			put_page(wp);
		} else {
			same = !memchr_inv(buf, 0, k);
		}
		pos += k;
		buf += k;
		len -= k;
	}
	return same;
}

/*
 * With @n->lock: a write of @nlb blocks from @slba, done, reallocated what
 * of them had a media error, as a drive remaps a block it writes.  A range
 * the write splits in two needs a second entry: with the table full it
 * stays whole (its written blocks too), as a drive out of spare blocks
 * keeps them bad, rather than forget the bad blocks after the write.
 */
static void pciesw_nvme_heal(struct pciesw_nvme *n, u64 slba, u64 nlb)
{
	u64 end = slba + nlb;
	unsigned int i = 0;

	lockdep_assert_held(&n->lock);
	while (i < n->nr_bad) {
		u64 bs = n->bad[i].slba, be = bs + n->bad[i].nlb;

		if (be <= slba || bs >= end) {
			i++;
			continue;
		}
		if (bs < slba) {
			if (be > end) {
				/* the write is inside: what is left after it */
				if (n->nr_bad == PCIESW_NVME_BAD_RANGES) {
					i++;
					continue;
				}
				n->bad[n->nr_bad].slba = end;
				n->bad[n->nr_bad++].nlb = be - end;
			}
			/* what is left before the write */
			n->bad[i].nlb = slba - bs;
			i++;
		} else if (be > end) {
			n->bad[i].slba = end;
			n->bad[i].nlb = be - end;
			i++;
		} else {
			n->bad[i] = n->bad[--n->nr_bad];
		}
	}
}

/* @nlb blocks from @slba were written: their media errors are gone. */
static void pciesw_nvme_written(struct pciesw_nvme *n, u64 slba, u64 nlb)
{
	spin_lock(&n->lock);
	pciesw_nvme_heal(n, slba, nlb);
	spin_unlock(&n->lock);
}

/*
 * Whether the media lets @nlb blocks from @slba be read (@write false) or
 * written: 0, or the NVMe status of the failure (its first bad block in
 * *@lba).  A read of a bad block counts a media error.  A write heals its
 * blocks only once its data is there (pciesw_nvme_written()): one that
 * fails leaves them bad, not good with their old data.
 */
static u16 pciesw_nvme_media(struct pciesw_nvme *n, bool write, u64 slba,
			     u64 nlb, u64 *lba)
{
	u16 sc = 0;
	unsigned int i;

	spin_lock(&n->lock);
	if (write) {
		if (n->read_only)
			sc = NVME_SC_READ_ONLY;
	} else {
		for (i = 0; i < n->nr_bad; i++) {
			u64 bs = n->bad[i].slba, be = bs + n->bad[i].nlb;

			if (be > slba && bs < slba + nlb) {
				*lba = max(bs, slba);
				sc = NVME_SC_READ_ERROR;
				break;
			}
		}
	}
	spin_unlock(&n->lock);
	if (sc == NVME_SC_READ_ERROR)
		atomic64_inc(&n->media_errors);
	return sc;
}

/* Whether @nlb blocks (of 1 << @shift bytes) from @slba are in the namespace */
static bool pciesw_nvme_in_range(struct pciesw_nvme *n, unsigned int shift,
				 u64 slba, u64 nlb)
{
	u64 blocks = n->size >> shift;

	return slba <= blocks && nlb <= blocks - slba;
}

static int pciesw_nvme_rw(struct pciesw_nvme *n, struct pciesw_nvme_cmd *c)
{
	u64 slba = (u64)c->cdw[11] << 32 | c->cdw[10];
	u64 nlb = (c->cdw[12] & 0xffff) + 1;
	unsigned int shift = pciesw_nvme_shift(n);
	u64 len = nlb << shift, pos = slba << shift;
	int err;

	c->slba = slba;
	if (len > PCIESW_NVME_MAX_XFER || !c->buf || len > c->len)
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	if (!pciesw_nvme_in_range(n, shift, slba, nlb))
		return pciesw_nvme_err(NVME_SC_LBA_RANGE);
	err = pciesw_nvme_media(n, c->opcode == nvme_cmd_write, slba, nlb,
				&c->slba);
	if (err)
		return pciesw_nvme_err(err);
	switch (c->opcode) {
	case nvme_cmd_compare:
		if (!pciesw_nvme_same(n, pos, c->buf, len))
			return pciesw_nvme_err(NVME_SC_COMPARE_FAILED);
		break;
	case nvme_cmd_read:
	case nvme_cmd_write:
		err = pciesw_nvme_copy(n, c->opcode == nvme_cmd_write, pos,
				       c->buf, len);
		if (err == -ENOSPC)
			return pciesw_nvme_err(NVME_SC_CAP_EXCEEDED);
		if (err)
			return err;
		if (c->opcode == nvme_cmd_write)
			pciesw_nvme_written(n, slba, nlb);
		break;
	}
	pciesw_nvme_count(n, c->opcode == nvme_cmd_write, len);
	return 0;
}

static int pciesw_nvme_write_zeroes(struct pciesw_nvme *n,
				    struct pciesw_nvme_cmd *c)
{
	u64 slba = (u64)c->cdw[11] << 32 | c->cdw[10];
	u64 nlb = (c->cdw[12] & 0xffff) + 1;
	unsigned int shift = pciesw_nvme_shift(n);
	u16 sc;

	c->slba = slba;
	if (!pciesw_nvme_in_range(n, shift, slba, nlb))
		return pciesw_nvme_err(NVME_SC_LBA_RANGE);
	sc = pciesw_nvme_media(n, true, slba, nlb, &c->slba);
	if (sc)
		return pciesw_nvme_err(sc);
	pciesw_mem_zero(n->mem, slba << shift, nlb << shift);
	pciesw_nvme_written(n, slba, nlb);
	return 0;
}

/* Dataset Management: Deallocate gives the ranges' pages back. */
static int pciesw_nvme_dsm(struct pciesw_nvme *n, struct pciesw_nvme_cmd *c)
{
	unsigned int i, nr = (c->cdw[10] & 0xff) + 1;
	unsigned int shift = pciesw_nvme_shift(n);
	const struct nvme_dsm_range *r = c->buf;

	if (!c->buf || c->len < nr * sizeof(*r))
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	for (i = 0; i < nr; i++) {
		c->slba = le64_to_cpu(r[i].slba);
		if (!pciesw_nvme_in_range(n, shift, c->slba,
					  le32_to_cpu(r[i].nlb)))
			return pciesw_nvme_err(NVME_SC_LBA_RANGE);
	}
	if (!(c->cdw[11] & NVME_DSMGMT_AD))
		return 0;
	for (i = 0; i < nr; i++) {
		u16 sc = pciesw_nvme_media(n, true, le64_to_cpu(r[i].slba),
					   le32_to_cpu(r[i].nlb), &c->slba);

		if (sc)
			return pciesw_nvme_err(sc);
	}
	for (i = 0; i < nr; i++) {
		pciesw_mem_zero(n->mem, le64_to_cpu(r[i].slba) << shift,
				(u64)le32_to_cpu(r[i].nlb) << shift);
		pciesw_nvme_written(n, le64_to_cpu(r[i].slba),
				    le32_to_cpu(r[i].nlb));
	}
	return 0;
}

int pciesw_nvme_io(struct pciesw_nvme *n, struct pciesw_nvme_cmd *c)
{
	if (!pciesw_nvme_effects(false, c->opcode))
		return pciesw_nvme_err(NVME_SC_INVALID_OPCODE);
	/* Flush also takes the broadcast id (VWC says so) */
	if (c->nsid != PCIESW_NVME_NSID &&
	    !(c->opcode == nvme_cmd_flush && c->nsid == NVME_NSID_ALL))
		return pciesw_nvme_err(NVME_SC_INVALID_NS);
	switch (c->opcode) {
	case nvme_cmd_flush:
		/* the window is the medium: nothing is cached */
		return 0;
	case nvme_cmd_read:
	case nvme_cmd_write:
	case nvme_cmd_compare:
		return pciesw_nvme_rw(n, c);
	case nvme_cmd_write_zeroes:
		return pciesw_nvme_write_zeroes(n, c);
	case nvme_cmd_dsm:
		return pciesw_nvme_dsm(n, c);
	}
	return pciesw_nvme_err(NVME_SC_INVALID_OPCODE);
}

/* A command failed with NVMe status @status: log it. */
void pciesw_nvme_log_error(struct pciesw_nvme *n,
			   const struct pciesw_nvme_cmd *c, u16 id,
			   int status)
{
	struct pciesw_nvme_err *e;
	bool lba = (status & 0x7ff) == NVME_SC_LBA_RANGE ||
		   (status & 0x7ff) == NVME_SC_READ_ERROR;

	spin_lock(&n->lock);
	e = &n->errs[n->err_count++ % PCIESW_NVME_ERR_LOG];
	memset(e, 0, sizeof(*e));
	e->error_count = cpu_to_le64(n->err_count);
	e->sqid = cpu_to_le16(c->admin ? 0 : 1);
	e->cmdid = cpu_to_le16(id);
	/* the status field of the completion: phase tag 0 */
	e->status = cpu_to_le16(status << 1);
	e->param_loc = cpu_to_le16(0xffff);
	e->lba = cpu_to_le64(lba ? c->slba : 0);
	e->nsid = cpu_to_le32(c->nsid);
	spin_unlock(&n->lock);
}

/**
 * pciesw_nvme_media_fails - may the block view read or write these bytes?
 * @n: the drive's controller
 * @write: a write (or discard, write zeroes), else a read
 * @pos: the first byte
 * @len: bytes
 *
 * The media's faults for a request of the drive's disk, as for a Read or
 * Write command: true when it fails (a bad block read, counted and logged
 * as an Unrecovered Read Error; a write of read-only media, logged).
 * Any context that may take a spinlock.
 */
bool pciesw_nvme_media_fails(struct pciesw_nvme *n, bool write, u64 pos,
			     u64 len)
{
	struct pciesw_nvme_cmd c = {
		.opcode = write ? nvme_cmd_write : nvme_cmd_read,
		.nsid = PCIESW_NVME_NSID,
	};
	unsigned int shift = pciesw_nvme_shift(n);
	u64 slba = pos >> shift;
	u64 nlb = ((pos + len + (1ULL << shift) - 1) >> shift) - slba;
	u16 sc, id;

	if (!len)
		return false;
	c.slba = slba;
	sc = pciesw_nvme_media(n, write, slba, nlb, &c.slba);
	if (!sc)
		return false;
	spin_lock(&n->lock);
	id = n->cmd_ids++;
	spin_unlock(&n->lock);
	pciesw_nvme_log_error(n, &c, id, pciesw_nvme_err(sc));
	return true;
}

/**
 * pciesw_nvme_media_written - the block view wrote these bytes
 * @n: the drive's controller
 * @pos: the first byte
 * @len: bytes
 *
 * A write (or discard, write zeroes) of the drive's disk that
 * pciesw_nvme_media_fails() let go has its data on the media: the media
 * errors of the blocks it covers whole are gone, as a Write's.  Not called
 * for one that failed, whose blocks stay bad.  Any context that may take a
 * spinlock.
 */
void pciesw_nvme_media_written(struct pciesw_nvme *n, u64 pos, u64 len)
{
	unsigned int shift = pciesw_nvme_shift(n);
	u64 bs = 1ULL << shift;
	u64 slba = (pos + bs - 1) >> shift, elba = (pos + len) >> shift;

	if (elba > slba)
		pciesw_nvme_written(n, slba, elba - slba);
}

/**
 * pciesw_nvme_inject - inject a fault into NVMe drive @ep
 * @ep: the drive
 * @f: the fault
 * @why: the reason of a refusal
 *
 * With sw->lock held.  Raises PCIESW_EV_NVME_FAULT: the event log says
 * it and netlink notifies it.  -EINVAL for a range outside the
 * namespace, a spare over 100 or a temperature out of range.
 */
int pciesw_nvme_inject(struct pciesw_endpoint *ep,
		       const struct pciesw_nvme_injection *f, const char **why)
{
	struct pciesw_nvme *n = ep->nvme;
	struct pciesw_event ev = {
		.type = PCIESW_EV_NVME_FAULT,
		.sw = ep->sw,
		.port = ep->port,
		.ep = ep,
		.nvme_fault = *f,
	};
	int err = 0;

	lockdep_assert_held(&ep->sw->lock);
	if (!n) {
		*why = "not an NVMe drive";
		return -EOPNOTSUPP;
	}
	switch (f->type) {
	case PCIESW_NVME_FAULT_MEDIA_ERROR:
		if (!f->count ||
		    !pciesw_nvme_in_range(n, pciesw_nvme_shift(n), f->lba,
					  f->count)) {
			*why = "the blocks are not all in the namespace";
			return -EINVAL;
		}
		break;
	case PCIESW_NVME_FAULT_TEMP:
		if (!f->temp_clear &&
		    (f->temp < PCIESW_TEMP_MIN || f->temp > PCIESW_TEMP_MAX)) {
			*why = "temperature out of range";
			return -EINVAL;
		}
		break;
	case PCIESW_NVME_FAULT_SPARE:
		if (f->spare > 100) {
			*why = "the spare is a percentage, 0 to 100";
			return -EINVAL;
		}
		break;
	case PCIESW_NVME_FAULT_READ_ONLY:
	case PCIESW_NVME_FAULT_SELF_TEST_FAIL:
		break;
	default:
		*why = "unknown fault";
		return -EINVAL;
	}
	spin_lock(&n->lock);
	switch (f->type) {
	case PCIESW_NVME_FAULT_MEDIA_ERROR:
		if (n->nr_bad == PCIESW_NVME_BAD_RANGES) {
			*why = "too many media error ranges (16)";
			err = -ENOSPC;
			break;
		}
		n->bad[n->nr_bad].slba = f->lba;
		n->bad[n->nr_bad++].nlb = f->count;
		break;
	case PCIESW_NVME_FAULT_TEMP:
		n->temp_forced = !f->temp_clear;
		n->temp_force = f->temp_clear ? 0 : PCIESW_NVME_K(f->temp);
		break;
	case PCIESW_NVME_FAULT_SPARE:
		n->spare = f->spare;
		break;
	case PCIESW_NVME_FAULT_READ_ONLY:
		n->read_only = f->read_only;
		break;
	case PCIESW_NVME_FAULT_SELF_TEST_FAIL:
		/* the next to complete: the one running, if one runs */
		n->dst_fail = true;
		break;
	}
	spin_unlock(&n->lock);
	if (!err) {
		pciesw_event(&ev);
		pciesw_nvme_aen_check(ep);
	}
	return err;
}
