// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe controller of each NVMe drive, part of the model: the admin
 * and NVM commands that the kernel's NVMe passthrough ioctls carry
 * (NVMe 1.4), answered from the drive's state and executed on its memory
 * window, the same bytes its block device, the DMA engine and mmap of
 * /dev/pcieswN see.  The block view (blk_nvme.c) takes the ioctls, checks
 * them as drivers/nvme/host/ioctl.c does and calls pciesw_nvme_exec() with
 * the data in kernel memory; this file knows no ioctl and no block layer.
 *
 * Admin: Identify, Get Log Page, Get and Set Features are nvme_admin.c's;
 * Device Self-test, Format NVM and Firmware Image Download and Commit
 * are nvme_maint.c's.
 * NVM: Flush, Write, Read, Compare, Write Zeroes, Dataset Management
 * (deallocate gives the window's pages back, as a discard of the block
 * device does).  Anything else is an Invalid Opcode; a command that fails
 * is logged in the error log (16 entries)
 * and counted in the SMART log.  Errors carry Do Not Retry, as a real
 * controller sets it for what a retry cannot fix.
 *
 * State: each drive has one struct pciesw_nvme, made with its endpoint
 * (which holds a reference, as does each of its disks): the SMART
 * counters, lockless atomics that the block view's requests, the DMA
 * engine and the commands here add to, and the features and error log,
 * under @lock.  The composite temperature is the card's nvme SerDes
 * sensor (thermal.c), read under sw->lock.
 *
 * Faults (pciesw_nvme_inject(), from fault injection): media errors on a
 * range of blocks (reads that touch it fail with Unrecovered Read Error,
 * counted in SMART's Media Errors and logged, until a write of the range
 * reallocates it, as a drive does), a forced composite temperature, the
 * available spare, and read-only media (writes fail with Attempted Write
 * to Read Only Range).  The SMART log's critical warning follows: bit 0
 * while the spare is below its threshold, bit 1 while the temperature is
 * over its over or under its under threshold (FID 4), bit 3 while the
 * media is read-only.  The block view asks pciesw_nvme_media_fails() of
 * every request, so its disk fails the same reads and writes.  A failing
 * self-test makes the next device self-test to complete fail its media
 * check segment.  A warning bit that comes on, when a fault is injected
 * or a threshold set, is an asynchronous event (pciesw_nvme_aen_check()).
 */

#include <linux/crc32.h>
#include <linux/highmem.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/nvme.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "event.h"
#include "nvme_ctrl.h"

/* the firmware revision of the factory image, in read-only slot 1 */
#define PCIESW_NVME_FW		"GDC7402Q"
/* the IEEE OUI of Samsung, 00-25-38 */
const u8 pciesw_nvme_oui[3] = { 0x00, 0x25, 0x38 };

#define PCIESW_NVME_SENSOR	3	/* thermal.c's "serdes-nvme" */
#define PCIESW_NVME_SPARE_THRESH	10	/* percent */

/* the information of the SMART / health asynchronous events */
enum {
	PCIESW_NVME_AEN_RELIABILITY,
	PCIESW_NVME_AEN_TEMP,
	PCIESW_NVME_AEN_SPARE,
};

/* Command Submission and Execution of the effects log: one namespace */
#define PCIESW_NVME_CSE_NS	BIT(16)

/*
 * The PCI IDs of an NVMe drive, as the Identify Controller data gives
 * them: its PCI function's (ep->ident, set when it was plugged in; a
 * Samsung PM1743 by default).
 */
void pciesw_nvme_pci_ids(const struct pciesw_endpoint *ep,
			 struct pciesw_nvme_pci_ids *ids)
{
	ids->vendor = ep->ident.vendor;
	ids->device = ep->ident.device;
	ids->subsystem_vendor = ep->ident.subsys_vendor;
	ids->subsystem_device = ep->ident.subsys_device;
}

static void pciesw_nvme_be32(u8 *dst, u32 v)
{
	__be32 b = cpu_to_be32(v);

	memcpy(dst, &b, sizeof(b));
}

/* A space padded, not terminated field of the Identify data. */
void pciesw_nvme_str(char *dst, size_t len, const char *src)
{
	memset(dst, ' ', len);
	memcpy(dst, src, min(len, strlen(src)));
}

/**
 * pciesw_nvme_create - the controller of NVMe drive @ep, as it is plugged in
 * @ep: the endpoint, with its window made
 *
 * With sw->lock held.  Its serial number and namespace ids are derived
 * from the switch's serial number and the drive's name, so they are the
 * same for the same drive of the same card, and tell nothing of the
 * switch's serial number (which is for root only).  NULL without memory.
 */
struct pciesw_nvme *pciesw_nvme_create(struct pciesw_endpoint *ep)
{
	struct pciesw_nvme *n = kzalloc(sizeof(*n), GFP_KERNEL);
	const char *sw_serial = ep->sw->serial;
	char sn[21];
	u32 h1, h2;

	if (!n)
		return NULL;
	kref_init(&n->refs);
	n->mem = pciesw_mem_get(ep->mem);
	n->size = ep->mem_size;
	n->lba_shift = ilog2(ep->block_size ?: PCIESW_BLOCK_SIZE_DEFAULT);
	pciesw_nvme_pci_ids(ep, &n->ids);
	h1 = crc32_le(~0U, sw_serial, strlen(sw_serial));
	h2 = crc32_le(h1, ep->name, strlen(ep->name));
	snprintf(sn, sizeof(sn), "S%07X%08X", h1 & 0xfffffff, h2);
	memset(n->sn, ' ', sizeof(n->sn));
	memcpy(n->sn, sn, strlen(sn));
	memcpy(n->eui64, pciesw_nvme_oui, sizeof(pciesw_nvme_oui));
	pciesw_nvme_be32(n->eui64 + 3, h2);
	n->eui64[7] = ep->port->id;
	pciesw_nvme_be32(n->nguid, h1);
	pciesw_nvme_be32(n->nguid + 4, h2);
	memcpy(n->nguid + 8, n->eui64, sizeof(n->eui64));
	n->created_ns = ktime_get_ns();
	atomic64_set(&n->power_cycles, 1);
	spin_lock_init(&n->lock);
	n->temp_over = PCIESW_NVME_WCTEMP;
	n->spare = 100;
	strscpy(n->name, ep->name, sizeof(n->name));
	mutex_init(&n->fw_lock);
	n->raw[PCIESW_NVME_FEAT_ASYNC_EVENT] = PCIESW_NVME_AEN_DEFAULT;
	pciesw_nvme_str(n->fw_fr[0], PCIESW_NVME_FW_FR_LEN, PCIESW_NVME_FW);
	n->fw_slot = 1;
	return n;
}

struct pciesw_nvme *pciesw_nvme_get(struct pciesw_nvme *n)
{
	kref_get(&n->refs);
	return n;
}

static void pciesw_nvme_release(struct kref *kref)
{
	struct pciesw_nvme *n = container_of(kref, struct pciesw_nvme, refs);

	pciesw_mem_put(n->mem);
	kvfree(n->fw_img);
	mutex_destroy(&n->fw_lock);
	kfree(n);
}

/* The last reference puts the window's: process context, may sleep. */
void pciesw_nvme_put(struct pciesw_nvme *n)
{
	if (n)
		kref_put(&n->refs, pciesw_nvme_release);
}

/*
 * A host read or write of @bytes that the drive completed (a block
 * request, a DMA transfer, a Read or Write command): SMART counts it.
 * Lockless.
 */
void pciesw_nvme_count(struct pciesw_nvme *n, bool write, u64 bytes)
{
	if (write) {
		atomic64_add(bytes, &n->bytes_written);
		atomic64_inc(&n->write_cmds);
	} else {
		atomic64_add(bytes, &n->bytes_read);
		atomic64_inc(&n->read_cmds);
	}
}

/* The drive lost its link or power without a shutdown (surprise down). */
void pciesw_nvme_unsafe_shutdown(struct pciesw_nvme *n)
{
	atomic64_inc(&n->unsafe_shutdowns);
}

/* Its slot's power came back on. */
void pciesw_nvme_power_cycle(struct pciesw_nvme *n)
{
	atomic64_inc(&n->power_cycles);
}

/* ---- what it supports ---- */

/**
 * pciesw_nvme_effects - the Commands Supported and Effects of an opcode
 * @admin: of an admin command (else an NVM command)
 * @opcode: the opcode
 *
 * NVME_CMD_EFFECTS_*: 0 for what the controller does not support.  The
 * log page says the same (pciesw_nvme_log_effects()), and the block view
 * decides who may send a command from it, as the nvme driver does.
 */
u32 pciesw_nvme_effects(bool admin, u8 opcode)
{
	if (admin) {
		switch (opcode) {
		case nvme_admin_get_log_page:
		case nvme_admin_identify:
		case nvme_admin_get_features:
		case nvme_admin_dev_self_test:
			return NVME_CMD_EFFECTS_CSUPP;
		case nvme_admin_set_features:
			return NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_CCC;
		case nvme_admin_download_fw:
			return NVME_CMD_EFFECTS_CSUPP;
		case nvme_admin_activate_fw:
			/* the revision Identify reports may change */
			return NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_CCC;
		case nvme_admin_format_nvm:
			/* the namespace's blocks and format change, quiesced */
			return NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC |
			       NVME_CMD_EFFECTS_NCC | PCIESW_NVME_CSE_NS;
		}
		return 0;
	}
	switch (opcode) {
	case nvme_cmd_flush:
	case nvme_cmd_read:
	case nvme_cmd_compare:
		return NVME_CMD_EFFECTS_CSUPP;
	case nvme_cmd_write:
	case nvme_cmd_write_zeroes:
	case nvme_cmd_dsm:
		return NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC;
	}
	return 0;
}

/*
 * The composite temperature, K: the forced one, else the card's thermal
 * model's (@locked: the caller holds sw->lock).
 */
u16 pciesw_nvme_temp(struct pciesw_nvme *n, struct pciesw_switch *sw,
		     bool locked)
{
	bool forced;
	u16 k;
	int mc;

	spin_lock(&n->lock);
	forced = n->temp_forced;
	k = n->temp_force;
	spin_unlock(&n->lock);
	if (forced)
		return k;
	if (!locked)
		mutex_lock(&sw->lock);
	mc = pciesw_sensor_temp(sw, PCIESW_NVME_SENSOR);
	if (!locked)
		mutex_unlock(&sw->lock);
	return clamp(PCIESW_NVME_K(mc), 0, 0xffff);
}

/* What the SMART log says, with the composite temperature @temp (K). */
void pciesw_nvme_fill_health(struct pciesw_nvme *n, u16 temp,
			     struct pciesw_nvme_health *h)
{
	u16 over, under;

	memset(h, 0, sizeof(*h));
	spin_lock(&n->lock);
	over = n->temp_over;
	under = n->temp_under;
	h->spare = n->spare;
	h->read_only = n->read_only;
	h->error_entries = n->err_count;
	spin_unlock(&n->lock);
	h->temp = PCIESW_NVME_MC(temp);
	h->temp_over = PCIESW_NVME_MC(over);
	h->temp_under = PCIESW_NVME_MC(under);
	h->temp_crit = PCIESW_NVME_MC(PCIESW_NVME_CCTEMP);
	h->spare_thresh = PCIESW_NVME_SPARE_THRESH;
	h->percent_used = 0;
	if (h->spare < h->spare_thresh)
		h->critical_warning |= NVME_SMART_CRIT_SPARE;
	if (temp >= over || temp < under)
		h->critical_warning |= NVME_SMART_CRIT_TEMPERATURE;
	if (h->read_only)
		h->critical_warning |= NVME_SMART_CRIT_MEDIA;
	h->media_errors = atomic64_read(&n->media_errors);
	h->unsafe_shutdowns = atomic64_read(&n->unsafe_shutdowns);
	/* thousands of 512 byte units, rounded up */
	h->data_units_read = DIV_ROUND_UP_ULL(atomic64_read(&n->bytes_read),
					      512 * 1000);
	h->data_units_written =
		DIV_ROUND_UP_ULL(atomic64_read(&n->bytes_written), 512 * 1000);
	h->host_reads = atomic64_read(&n->read_cmds);
	h->host_writes = atomic64_read(&n->write_cmds);
	h->power_cycles = atomic64_read(&n->power_cycles);
	h->power_on_hours = pciesw_nvme_poh(n, ktime_get_ns());
}

/**
 * pciesw_nvme_health - the health of drive @n, as its SMART log says it
 * @n: the drive's controller
 * @sw: its switch
 * @h: filled in
 *
 * Process context, sw->lock not held (the card's sensor is read under it).
 */
void pciesw_nvme_health(struct pciesw_nvme *n, struct pciesw_switch *sw,
			struct pciesw_nvme_health *h)
{
	pciesw_nvme_fill_health(n, pciesw_nvme_temp(n, sw, false), h);
}

/* The same for NVMe drive @ep, with sw->lock held. */
void pciesw_ep_nvme_health(const struct pciesw_endpoint *ep,
			   struct pciesw_nvme_health *h)
{
	lockdep_assert_held(&ep->sw->lock);
	pciesw_nvme_fill_health(ep->nvme,
				pciesw_nvme_temp(ep->nvme, ep->sw, true), h);
}

const char *pciesw_nvme_model(void)
{
	return PCIESW_NVME_MODEL;
}

/* The firmware revision it runs, terminated, without its padding. */
void pciesw_nvme_firmware(struct pciesw_nvme *n,
			  char fr[PCIESW_NVME_FW_FR_LEN + 1])
{
	mutex_lock(&n->fw_lock);
	memcpy(fr, n->fw_fr[n->fw_slot - 1], PCIESW_NVME_FW_FR_LEN);
	mutex_unlock(&n->fw_lock);
	fr[PCIESW_NVME_FW_FR_LEN] = '\0';
	strim(fr);
}

/* The serial number, terminated, without its padding. */
void pciesw_nvme_serial(const struct pciesw_nvme *n,
			char sn[PCIESW_NVME_SN_LEN + 1])
{
	memcpy(sn, n->sn, PCIESW_NVME_SN_LEN);
	sn[PCIESW_NVME_SN_LEN] = '\0';
	strim(sn);
}

/**
 * pciesw_nvme_set_temp_thresh - set a temperature threshold, as Set Features
 * @n: the drive's controller
 * @under: the under threshold (else the over one)
 * @mc: m°C, clamped to what the feature holds (0 to 65535 K)
 *
 * For hwmon's temp1_min and temp1_max, as the nvme driver sets them.
 */
int pciesw_nvme_set_temp_thresh(struct pciesw_nvme *n, bool under, long mc)
{
	long k = clamp_val(mc, -273150L, 65535L * 1000 - 273150);

	k = PCIESW_NVME_K(k);
	spin_lock(&n->lock);
	if (under)
		n->temp_under = k;
	else
		n->temp_over = k;
	spin_unlock(&n->lock);
	return 0;
}

/* ---- Asynchronous events ---- */

/**
 * pciesw_nvme_aen_check - send the asynchronous events a warning calls for
 * @ep: an NVMe drive
 *
 * With sw->lock held, after its health may have changed: each SMART
 * critical warning bit that came on since the last look, and that the
 * Asynchronous Event Configuration feature enables, is an asynchronous
 * event (type SMART / health status, its information, log page 2),
 * raised as PCIESW_EV_NVME_AEN: the event log says it, and the block view
 * sends the uevent the nvme driver sends for one (NVME_AEN=).
 */
void pciesw_nvme_aen_check(struct pciesw_endpoint *ep)
{
	struct pciesw_nvme *n = ep->nvme;
	struct pciesw_nvme_health h;
	unsigned long on;
	unsigned int bit;

	lockdep_assert_held(&ep->sw->lock);
	if (!n)
		return;
	pciesw_ep_nvme_health(ep, &h);
	spin_lock(&n->lock);
	on = h.critical_warning & ~n->aen_cw &
	     n->raw[PCIESW_NVME_FEAT_ASYNC_EVENT] & 0xff;
	n->aen_cw = h.critical_warning;
	spin_unlock(&n->lock);
	for_each_set_bit(bit, &on, 8) {
		u32 info = bit == 0 ? PCIESW_NVME_AEN_SPARE :
			   bit == 1 ? PCIESW_NVME_AEN_TEMP :
				      PCIESW_NVME_AEN_RELIABILITY;
		struct pciesw_event ev = {
			.type = PCIESW_EV_NVME_AEN,
			.sw = ep->sw,
			.port = ep->port,
			.ep = ep,
			.aen = NVME_LOG_SMART << 16 | info << 8 | NVME_AER_SMART,
		};

		pciesw_event(&ev);
	}
}

/* The same, with sw->lock not held, for drive @n if it is still plugged */
static void pciesw_nvme_aen_poll(struct pciesw_nvme *n,
				 struct pciesw_switch *sw)
{
	struct pciesw_endpoint *ep;

	mutex_lock(&sw->lock);
	list_for_each_entry(ep, &sw->endpoints, node)
		if (ep->nvme == n)
			pciesw_nvme_aen_check(ep);
	mutex_unlock(&sw->lock);
}

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
 * With @n->lock: a write of @nlb blocks from @slba reallocates what of
 * them had a media error, as a drive remaps a block it writes.
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
			/* what is left before the write */
			n->bad[i].nlb = slba - bs;
			if (be > end && n->nr_bad < PCIESW_NVME_BAD_RANGES) {
				n->bad[n->nr_bad].slba = end;
				n->bad[n->nr_bad++].nlb = be - end;
			}
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

/*
 * Whether the media lets @nlb blocks from @slba be read (@write false) or
 * written: 0, or the NVMe status of the failure (its first bad block in
 * *@lba).  A read of a bad block counts a media error; a write heals.
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
		else
			pciesw_nvme_heal(n, slba, nlb);
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
	for (i = 0; i < nr; i++)
		pciesw_mem_zero(n->mem, le64_to_cpu(r[i].slba) << shift,
				(u64)le32_to_cpu(r[i].nlb) << shift);
	return 0;
}

static int pciesw_nvme_io(struct pciesw_nvme *n, struct pciesw_nvme_cmd *c)
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
static void pciesw_nvme_log_error(struct pciesw_nvme *n,
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

/**
 * pciesw_nvme_exec - execute a command of the host
 * @n: the drive's controller
 * @sw: its switch (the thermal model's temperature)
 * @c: the command, its data in @c->buf
 *
 * Process context, the caller in the NOIO scope for what an NVM command
 * allocates in the window.  Returns the NVMe status of its completion
 * (0: success; else a status code with its type, and Do Not Retry), or
 * -ENOMEM / -ENODEV (the drive was unplugged under it).
 */
int pciesw_nvme_exec(struct pciesw_nvme *n, struct pciesw_switch *sw,
		     struct pciesw_nvme_cmd *c)
{
	u16 id;
	int ret;

	c->result = 0;
	c->set_wce = -1;
	c->formatted = false;
	c->slba = 0;
	if (pciesw_mem_gone(n->mem))
		return -ENODEV;
	spin_lock(&n->lock);
	id = n->cmd_ids++;
	spin_unlock(&n->lock);
	if (!c->admin) {
		ret = pciesw_nvme_io(n, c);
	} else {
		switch (c->opcode) {
		case nvme_admin_identify:
			ret = pciesw_nvme_identify(n, c);
			break;
		case nvme_admin_get_log_page:
			ret = pciesw_nvme_get_log(n, sw, c);
			break;
		case nvme_admin_get_features:
			ret = pciesw_nvme_get_features(n, c);
			break;
		case nvme_admin_set_features:
			ret = pciesw_nvme_set_features(n, c);
			if (!ret)
				pciesw_nvme_aen_poll(n, sw);
			break;
		case nvme_admin_dev_self_test:
			ret = pciesw_nvme_self_test(n, sw, c);
			break;
		case nvme_admin_format_nvm:
			ret = pciesw_nvme_format(n, sw, c);
			break;
		case nvme_admin_download_fw:
			ret = pciesw_nvme_fw_download(n, c);
			break;
		case nvme_admin_activate_fw:
			ret = pciesw_nvme_fw_commit(n, sw, c);
			break;
		default:
			ret = pciesw_nvme_err(NVME_SC_INVALID_OPCODE);
			break;
		}
	}
	if (ret > 0)
		pciesw_nvme_log_error(n, c, id, ret);
	return ret;
}
