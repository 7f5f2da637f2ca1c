// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe controller's maintenance commands, those that change the drive
 * or take their time (core.c dispatches them, ctrl.h is what the
 * controller's files share): Device Self-test, Format NVM (LBA formats
 * 512 and 4096; the endpoint's block size follows, and PCIESW_EV_NVME_FORMAT
 * tells the block view, which changes the disk's), Firmware Image Download
 * and Firmware Commit (three slots, the first read-only; the image format
 * is <uapi/linux/pciesw_fw.h>'s; activation now or at the next reset),
 * and the Controller Level Reset, which aborts a short self-test and
 * activates the firmware committed for the next reset.
 *
 * Device Self-test runs in the model's time: a short one takes
 * PCIESW_NVME_DST_SHORT_MS (2 s), an extended one PCIESW_NVME_DST_EXT_MS
 * (10 s); the self-test log shows its progress meanwhile, Self-test Code
 * 0xf aborts it, a Function Level Reset of the drive aborts a short one.
 * The switch's NVMe work completes it on time (the result, with the
 * power-on hours, in the log's 20 entries, newest first; the event log
 * says it started, completed, failed or was aborted), and whoever reads
 * the log first completes it as well.  A self-test failure injected
 * (io.c) makes the next one to complete fail its media check
 * segment.
 */

#include <linux/crc32.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "ctrl.h"
#include "model/event.h"

/* the segment an injected self-test failure fails: 6, the media check */
#define PCIESW_NVME_DST_FAIL_SEG	6

/* Firmware Commit's Commit Actions */
enum {
	PCIESW_NVME_CA_REPLACE,		/* the image into the slot */
	PCIESW_NVME_CA_REPLACE_RESET,	/* and activate it at the next reset */
	PCIESW_NVME_CA_RESET,		/* activate the slot at the next reset */
	PCIESW_NVME_CA_NOW,		/* replace, activate it now */
};

/* Format NVM's Secure Erase Settings: none, or a user data erase */
#define PCIESW_NVME_SES_USER_DATA	1

/* Device Self-test: the Self-test Code of the command and the log */
enum {
	PCIESW_NVME_STC_NONE,
	PCIESW_NVME_STC_SHORT,
	PCIESW_NVME_STC_EXTENDED,
	PCIESW_NVME_STC_ABORT = 0xf,
};

/* ... and the Self-test Result of a result entry */
enum {
	PCIESW_NVME_DSTR_OK,
	PCIESW_NVME_DSTR_ABORTED,	/* by a Device Self-test command */
	PCIESW_NVME_DSTR_RESET,		/* by a Controller Level Reset */
	PCIESW_NVME_DSTR_FORMAT = 4,	/* by a Format NVM */
	PCIESW_NVME_DSTR_SEGMENT = 7,	/* a segment failed */
	PCIESW_NVME_DSTR_UNUSED = 0xf,
};

/* ---- Device Self-test ---- */

static const char *pciesw_nvme_dst_name(u8 op)
{
	return op == PCIESW_NVME_STC_SHORT ? "short" : "extended";
}

/*
 * With @n->lock: record the result of the self-test running, newest
 * first in the log, and stop it.
 */
static void pciesw_nvme_dst_record(struct pciesw_nvme *n, u8 result, u64 now)
{
	struct pciesw_nvme_dst_result *r;

	lockdep_assert_held(&n->lock);
	r = &n->dst[n->dst_count++ % PCIESW_NVME_DST_ENTRIES];
	memset(r, 0, sizeof(*r));
	r->status = n->dst_op << 4 | result;
	r->poh = cpu_to_le64(pciesw_nvme_poh(n, now));
	if (result == PCIESW_NVME_DSTR_SEGMENT) {
		r->segment = PCIESW_NVME_DST_FAIL_SEG;
		/* the namespace it failed on, when one was tested */
		if (n->dst_nsid && n->dst_nsid != NVME_NSID_ALL)
			r->valid |= BIT(0);
		r->nsid = cpu_to_le32(n->dst_nsid);
	}
	n->dst_op = PCIESW_NVME_STC_NONE;
}

/*
 * With sw->lock: complete drive @n's self-test if its time has come, and
 * log it.  Returns the ns until the one running completes, 0 if none runs.
 */
static u64 pciesw_nvme_dst_update(struct pciesw_nvme *n,
				  struct pciesw_switch *sw)
{
	u64 now = ktime_get_ns(), left = 0;
	u8 op = PCIESW_NVME_STC_NONE;
	bool fail = false;

	lockdep_assert_held(&sw->lock);
	spin_lock(&n->lock);
	if (n->dst_op && now >= n->dst_end) {
		op = n->dst_op;
		fail = n->dst_fail;
		n->dst_fail = false;
		pciesw_nvme_dst_record(n, fail ? PCIESW_NVME_DSTR_SEGMENT :
					  PCIESW_NVME_DSTR_OK, now);
	} else if (n->dst_op) {
		left = n->dst_end - now;
	}
	spin_unlock(&n->lock);
	if (op && fail)
		pciesw_log_add(sw, n->name,
			       "%s device self-test failed in segment %u",
			       pciesw_nvme_dst_name(op),
			       PCIESW_NVME_DST_FAIL_SEG);
	else if (op)
		pciesw_log_add(sw, n->name,
			       "%s device self-test completed without error",
			       pciesw_nvme_dst_name(op));
	return left;
}

/*
 * With sw->lock: complete the self-tests of @sw's drives that are due, and
 * run the switch's NVMe work again when the next one is.
 */
static void pciesw_nvme_dst_arm(struct pciesw_switch *sw)
{
	struct pciesw_endpoint *ep;
	u64 next = 0, left;

	lockdep_assert_held(&sw->lock);
	list_for_each_entry(ep, &sw->endpoints, node) {
		if (!ep->nvme)
			continue;
		left = pciesw_nvme_dst_update(ep->nvme, sw);
		if (left && (!next || left < next))
			next = left;
	}
	if (next && !sw->dead)
		mod_delayed_work(system_wq, &sw->nvme_work,
				 nsecs_to_jiffies(next) + 1);
}

/**
 * pciesw_nvme_work - the switch's NVMe work: self-tests that complete
 * @work: sw->nvme_work
 *
 * Queued for the first self-test of the switch's drives due to complete;
 * completes it (its result in the drive's log and the switch's event log)
 * and queues itself for the next.  Cancelled once the switch is dead.
 */
void pciesw_nvme_work(struct work_struct *work)
{
	struct pciesw_switch *sw = container_of(to_delayed_work(work),
						struct pciesw_switch,
						nvme_work);

	mutex_lock(&sw->lock);
	pciesw_nvme_dst_arm(sw);
	mutex_unlock(&sw->lock);
}

/**
 * pciesw_nvme_reset - a Controller Level Reset of NVMe drive @ep
 * @ep: the drive (its PCI function had a Function Level Reset)
 *
 * With sw->lock held.  A short self-test running is aborted (an extended
 * one goes on, as the spec says); the firmware committed for activation at
 * the next reset runs.
 */
void pciesw_nvme_reset(struct pciesw_endpoint *ep)
{
	struct pciesw_nvme *n = ep->nvme;
	char fr[PCIESW_NVME_FW_FR_LEN + 1];
	bool aborted = false;
	u8 slot;

	lockdep_assert_held(&ep->sw->lock);
	if (!n)
		return;
	pciesw_nvme_dst_update(n, ep->sw);
	spin_lock(&n->lock);
	if (n->dst_op == PCIESW_NVME_STC_SHORT) {
		pciesw_nvme_dst_record(n, PCIESW_NVME_DSTR_RESET,
				       ktime_get_ns());
		aborted = true;
	}
	spin_unlock(&n->lock);
	if (aborted)
		pciesw_log_add(ep->sw, n->name,
			       "short device self-test aborted by the reset");
	mutex_lock(&n->fw_lock);
	slot = n->fw_next;
	if (slot) {
		n->fw_slot = slot;
		n->fw_next = 0;
		memcpy(fr, n->fw_fr[slot - 1], PCIESW_NVME_FW_FR_LEN);
	}
	mutex_unlock(&n->fw_lock);
	if (slot) {
		fr[PCIESW_NVME_FW_FR_LEN] = '\0';
		pciesw_log_add(ep->sw, n->name,
			       "firmware %s of slot %u activated by the reset",
			       strim(fr), slot);
	}
}

/*
 * Device Self-test: start a short or extended one (Self-test Code 1, 2)
 * or abort the one running (0xf; nothing to abort is no error).  One at a
 * time: another while one runs is Device Self-test in Progress.  NSID 0
 * tests the controller alone, ours or the broadcast id the namespace too.
 */
int pciesw_nvme_self_test(struct pciesw_nvme *n,
			  struct pciesw_switch *sw,
			  struct pciesw_nvme_cmd *c)
{
	u8 stc = c->cdw[10] & 0xf, op = PCIESW_NVME_STC_NONE;
	u64 now, ms;
	int ret = 0;

	switch (stc) {
	case PCIESW_NVME_STC_SHORT:
	case PCIESW_NVME_STC_EXTENDED:
	case PCIESW_NVME_STC_ABORT:
		break;
	default:
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	}
	if (c->nsid && c->nsid != PCIESW_NVME_NSID && c->nsid != NVME_NSID_ALL)
		return pciesw_nvme_err(NVME_SC_INVALID_NS);
	ms = stc == PCIESW_NVME_STC_SHORT ? PCIESW_NVME_DST_SHORT_MS :
					    PCIESW_NVME_DST_EXT_MS;
	mutex_lock(&sw->lock);
	pciesw_nvme_dst_update(n, sw);
	now = ktime_get_ns();
	spin_lock(&n->lock);
	if (stc == PCIESW_NVME_STC_ABORT) {
		op = n->dst_op;
		if (op)
			pciesw_nvme_dst_record(n, PCIESW_NVME_DSTR_ABORTED,
					       now);
	} else if (n->dst_op) {
		ret = pciesw_nvme_err(NVME_SC_SELT_TEST_IN_PROGRESS);
	} else {
		n->dst_op = stc;
		n->dst_nsid = c->nsid;
		n->dst_start = now;
		n->dst_end = now + ms * NSEC_PER_MSEC;
	}
	spin_unlock(&n->lock);
	if (stc == PCIESW_NVME_STC_ABORT && op) {
		pciesw_log_add(sw, n->name, "%s device self-test aborted",
			       pciesw_nvme_dst_name(op));
	} else if (stc != PCIESW_NVME_STC_ABORT && !ret) {
		pciesw_log_add(sw, n->name, "%s device self-test started",
			       pciesw_nvme_dst_name(stc));
		pciesw_nvme_dst_arm(sw);
	}
	mutex_unlock(&sw->lock);
	return ret;
}

/* The device self-test log: what runs, then the results, newest first. */
void pciesw_nvme_log_self_test(struct pciesw_nvme *n,
			       struct pciesw_switch *sw, u8 *p)
{
	struct pciesw_nvme_dst_result *r = (void *)(p + 4);
	u64 now, i, count;

	mutex_lock(&sw->lock);
	pciesw_nvme_dst_update(n, sw);
	mutex_unlock(&sw->lock);
	now = ktime_get_ns();
	spin_lock(&n->lock);
	p[0] = n->dst_op;
	/* the percentage done; 100 only once it is recorded */
	if (n->dst_op)
		p[1] = min_t(u64, 99, div64_u64((now - n->dst_start) * 100,
						n->dst_end - n->dst_start));
	count = min_t(u64, n->dst_count, PCIESW_NVME_DST_ENTRIES);
	for (i = 0; i < count; i++)
		r[i] = n->dst[(n->dst_count - 1 - i) % PCIESW_NVME_DST_ENTRIES];
	for (; i < PCIESW_NVME_DST_ENTRIES; i++)
		r[i].status = PCIESW_NVME_DSTR_UNUSED;
	spin_unlock(&n->lock);
}

/* ---- Format NVM ---- */

/*
 * With sw->lock: the model's endpoint of drive @n has the new block size,
 * and the views learn it (the disk's block size follows, as the nvme
 * driver's namespace scan after a format does).
 */
static void pciesw_nvme_formatted(struct pciesw_nvme *n,
				  struct pciesw_switch *sw, u32 block_size,
				  u8 ses)
{
	struct pciesw_endpoint *ep;

	lockdep_assert_held(&sw->lock);
	list_for_each_entry(ep, &sw->endpoints, node) {
		struct pciesw_event ev = {
			.type = PCIESW_EV_NVME_FORMAT,
			.sw = sw,
			.port = ep->port,
			.ep = ep,
			.block_size = block_size,
			.ses = ses,
		};

		if (ep->nvme != n)
			continue;
		ep->block_size = block_size;
		pciesw_event(&ev);
		break;
	}
}

/*
 * Format NVM: LBA format 0 (512-byte blocks) or 1 (4096), neither with
 * metadata, so no protection information; Secure Erase Settings 0 (none)
 * or 1 (user data erase), no cryptographic erase.  Every block is erased
 * either way (deallocated: its pages given back, its mappings zapped),
 * the media errors with them, and a self-test running is aborted.  Read
 * only media is not formatted (Attempted Write to Read Only Range).
 */
int pciesw_nvme_format(struct pciesw_nvme *n, struct pciesw_switch *sw,
		       struct pciesw_nvme_cmd *c)
{
	u32 cdw10 = c->cdw[10];
	u8 lbaf = cdw10 & 0xf, pi = cdw10 >> 5 & 0x7, ses = cdw10 >> 9 & 0x7;
	unsigned int shift = lbaf ? 12 : 9;
	bool ro;
	u8 op;

	if (c->nsid != PCIESW_NVME_NSID && c->nsid != NVME_NSID_ALL)
		return pciesw_nvme_err(NVME_SC_INVALID_NS);
	if (lbaf > 1 || pi)
		return pciesw_nvme_err(NVME_SC_INVALID_FORMAT);
	if (ses > PCIESW_NVME_SES_USER_DATA)
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	spin_lock(&n->lock);
	ro = n->read_only;
	spin_unlock(&n->lock);
	if (ro)
		return pciesw_nvme_err(NVME_SC_READ_ONLY);
	pciesw_mem_zero(n->mem, 0, n->size);
	mutex_lock(&sw->lock);
	pciesw_nvme_dst_update(n, sw);
	spin_lock(&n->lock);
	op = n->dst_op;
	if (op)
		pciesw_nvme_dst_record(n, PCIESW_NVME_DSTR_FORMAT,
				       ktime_get_ns());
	n->nr_bad = 0;
	WRITE_ONCE(n->lba_shift, shift);
	spin_unlock(&n->lock);
	if (op)
		pciesw_log_add(sw, n->name,
			       "%s device self-test aborted by a format",
			       pciesw_nvme_dst_name(op));
	pciesw_nvme_formatted(n, sw, 1U << shift, ses);
	mutex_unlock(&sw->lock);
	c->formatted = true;
	return 0;
}

/* ---- Firmware Image Download and Commit ---- */

/*
 * Firmware Image Download: NUMD + 1 dwords of the image at dword OFST.
 * The pieces come in order: offset 0 starts a new image, another piece
 * goes at the end of what came (before it: Overlapping Range; past it, or
 * past PCIESW_NVME_FW_MAX: Invalid Field).
 */
int pciesw_nvme_fw_download(struct pciesw_nvme *n,
			    struct pciesw_nvme_cmd *c)
{
	u64 len = ((u64)c->cdw[10] + 1) * 4, off = (u64)c->cdw[11] * 4;
	u8 *img = NULL;
	int ret = 0;

	if (!c->buf || c->len < len || off + len > PCIESW_NVME_FW_MAX)
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	if (!READ_ONCE(n->fw_img)) {
		img = kvzalloc(PCIESW_NVME_FW_MAX, GFP_KERNEL);
		if (!img)
			return -ENOMEM;
	}
	mutex_lock(&n->fw_lock);
	if (!n->fw_img) {
		n->fw_img = img;
		img = NULL;
	}
	if (!off)
		n->fw_len = 0;
	if (off < n->fw_len) {
		ret = pciesw_nvme_err(NVME_SC_OVERLAPPING_RANGE);
	} else if (off > n->fw_len) {
		ret = pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	} else {
		memcpy(n->fw_img + off, c->buf, len);
		n->fw_len = off + len;
	}
	mutex_unlock(&n->fw_lock);
	kvfree(img);
	return ret;
}

/*
 * With @n->fw_lock: whether the image downloaded is one (its header's
 * magic, length and revision, its payload's CRC); its header in *@h.
 * What came after the payload is padding (nvme-cli sends whole 4 KiB
 * pieces): ignored.
 */
static bool pciesw_nvme_fw_valid(struct pciesw_nvme *n,
				 struct pciesw_nvme_fw_header *h)
{
	u32 plen;
	int i;

	lockdep_assert_held(&n->fw_lock);
	if (n->fw_len < sizeof(*h))
		return false;
	memcpy(h, n->fw_img, sizeof(*h));
	plen = le32_to_cpu(h->payload_len);
	if (le32_to_cpu(h->magic) != PCIESW_NVME_FW_MAGIC ||
	    le16_to_cpu(h->hdr_len) != sizeof(*h) ||
	    plen > n->fw_len - sizeof(*h) ||
	    memchr_inv(h->reserved, 0, sizeof(h->reserved)))
		return false;
	for (i = 0; i < PCIESW_NVME_FW_FR_LEN; i++)
		if (h->fr[i] < ' ' || h->fr[i] > '~')
			return false;
	/* left-justified: not blank, and trimmed it starts where it did */
	if (h->fr[0] == ' ')
		return false;
	return (crc32_le(~0U, n->fw_img + sizeof(*h), plen) ^ ~0U) ==
	       le32_to_cpu(h->payload_crc);
}

/*
 * Firmware Commit: Commit Action 0 puts the image downloaded into slot FS
 * (0: the controller picks the writable slot it does not run), 1 also
 * activates it at the next reset, 2 activates slot FS's image at the next
 * reset, 3 puts the image there and runs it now (an image that needs a
 * reset: Firmware Activation Requires Controller Level Reset, and it runs
 * after the next).  Slot 1 is read-only (Invalid Firmware Slot), a bad or
 * missing image Invalid Firmware Image; the boot partition actions are
 * not supported.  The image goes once committed.  A reset is a Function
 * Level Reset, a hot reset of the drive's link or its slot's power coming
 * back (pciesw_nvme_reset()).
 */
int pciesw_nvme_fw_commit(struct pciesw_nvme *n,
			  struct pciesw_switch *sw,
			  struct pciesw_nvme_cmd *c)
{
	u8 fs = c->cdw[10] & 0x7, ca = c->cdw[10] >> 3 & 0x7;
	char fr[PCIESW_NVME_FW_FR_LEN + 1] = "";
	struct pciesw_nvme_fw_header h;
	bool now = false, later;
	int ret = 0;

	if (ca > PCIESW_NVME_CA_NOW)
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	if (fs > PCIESW_NVME_FW_SLOTS)
		return pciesw_nvme_err(NVME_SC_FIRMWARE_SLOT);
	mutex_lock(&sw->lock);
	mutex_lock(&n->fw_lock);
	if (ca == PCIESW_NVME_CA_RESET) {
		if (!fs)
			ret = pciesw_nvme_err(NVME_SC_FIRMWARE_SLOT);
		else if (!memchr_inv(n->fw_fr[fs - 1], 0, PCIESW_NVME_FW_FR_LEN))
			ret = pciesw_nvme_err(NVME_SC_FIRMWARE_IMAGE);
		else
			n->fw_next = fs;
		goto out;
	}
	if (!fs)
		fs = n->fw_slot == 2 ? 3 : 2;
	if (fs == 1) {
		ret = pciesw_nvme_err(NVME_SC_FIRMWARE_SLOT);
		goto out;
	}
	if (!pciesw_nvme_fw_valid(n, &h)) {
		ret = pciesw_nvme_err(NVME_SC_FIRMWARE_IMAGE);
		goto out;
	}
	memcpy(n->fw_fr[fs - 1], h.fr, PCIESW_NVME_FW_FR_LEN);
	n->fw_len = 0;
	/* a slot that changed no longer runs at the next reset */
	if (n->fw_next == fs)
		n->fw_next = 0;
	if (ca == PCIESW_NVME_CA_REPLACE_RESET) {
		n->fw_next = fs;
	} else if (ca == PCIESW_NVME_CA_NOW) {
		if (le16_to_cpu(h.flags) & PCIESW_NVME_FW_NEEDS_RESET) {
			n->fw_next = fs;
			ret = pciesw_nvme_err(NVME_SC_FW_NEEDS_RESET);
		} else {
			n->fw_slot = fs;
			n->fw_next = 0;
			now = true;
		}
	}
out:
	memcpy(fr, n->fw_fr[max_t(int, fs, 1) - 1], PCIESW_NVME_FW_FR_LEN);
	mutex_unlock(&n->fw_lock);
	strim(fr);
	/* committed, to run after the next reset */
	later = (ret & 0x7ff) == NVME_SC_FW_NEEDS_RESET ||
		(!ret && !now && ca != PCIESW_NVME_CA_REPLACE);
	if (ca != PCIESW_NVME_CA_RESET && (!ret || later))
		pciesw_log_add(sw, n->name, "firmware %s written to slot %u",
			       fr, fs);
	if (now)
		pciesw_log_add(sw, n->name, "firmware %s of slot %u activated",
			       fr, fs);
	else if (later)
		pciesw_log_add(sw, n->name,
			       "firmware %s of slot %u runs after the next reset",
			       fr, fs);
	mutex_unlock(&sw->lock);
	return ret;
}
