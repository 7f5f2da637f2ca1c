// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe controller of each NVMe drive, part of the model: the admin
 * and NVM commands that the kernel's NVMe passthrough ioctls carry
 * (NVMe 1.4), answered from the drive's state and executed on its memory
 * window, the same bytes its block device, the DMA engine and mmap of
 * /dev/pcieswN see.  The block view (block/ioctl.c) takes the ioctls, checks
 * them as drivers/nvme/host/ioctl.c does and calls pciesw_nvme_exec() with
 * the data in kernel memory; the controller knows no ioctl and no block
 * layer.
 *
 * This file is the controller itself: its state, made and released with
 * the drive, the SMART counters and the health they report, the
 * asynchronous events its warnings raise, what it says it is, the
 * commands it supports and pciesw_nvme_exec(), which hands each command
 * to the file of its kind:
 *
 *	admin.c	Identify, Get Log Page, Get and Set Features
 *	maint.c	Device Self-test, Format NVM, Firmware Image Download
 *			and Commit, and the reset of the drive
 *	io.c	the NVM commands, the error log, the faults injected
 *
 * ctrl.h is what they share.  Anything else is an Invalid Opcode; a
 * command that fails is logged in the error log (16 entries) and counted
 * in the SMART log.  Errors carry Do Not Retry, as a real controller sets
 * it for what a retry cannot fix.
 *
 * State: each drive has one struct pciesw_nvme (ctrl.h), made with
 * its endpoint (which holds a reference, as does each of its disks): the
 * SMART counters, lockless atomics that the block view's requests, the
 * DMA engine and the commands add to, and the features and error log,
 * under @lock.  The composite temperature is the card's nvme SerDes
 * sensor (model/thermal.c), read under sw->lock.  The SMART log's critical
 * warning follows the faults injected (io.c) and the temperature
 * thresholds; a warning bit that comes on is an asynchronous event
 * (pciesw_nvme_aen_check()).
 */

#include <linux/crc32.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/nvme.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "ctrl.h"
#include "model/event.h"

/* the firmware revision of the factory image, in read-only slot 1 */
#define PCIESW_NVME_FW		"GDC7402Q"
/* the IEEE OUI of Samsung, 00-25-38 */
const u8 pciesw_nvme_oui[3] = { 0x00, 0x25, 0x38 };

#define PCIESW_NVME_SENSOR	3	/* model/thermal.c's "serdes-nvme" */
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

/* ---- health and identity ---- */

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

/* The drive's I/O counters, exact (SMART rounds bytes to data units). */
void pciesw_nvme_io_counts(const struct pciesw_nvme *n,
			   struct pciesw_nvme_io *io)
{
	io->bytes_read = atomic64_read(&n->bytes_read);
	io->bytes_written = atomic64_read(&n->bytes_written);
	io->reads = atomic64_read(&n->read_cmds);
	io->writes = atomic64_read(&n->write_cmds);
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

/**
 * pciesw_nvme_set_temp_thresh - set a temperature threshold, as Set Features
 * @n: the drive's controller
 * @sw: its switch
 * @under: the under threshold (else the over one)
 * @mc: m°C, clamped to what the feature holds (0 to 65535 K)
 *
 * For hwmon's temp1_min and temp1_max, as the nvme driver sets them; a
 * warning that comes on is an asynchronous event, as after Set Features.
 * Process context, sw->lock not held.
 */
int pciesw_nvme_set_temp_thresh(struct pciesw_nvme *n,
				struct pciesw_switch *sw, bool under, long mc)
{
	long k = clamp_val(mc, -273150L, 65535L * 1000 - 273150);

	k = PCIESW_NVME_K(k);
	spin_lock(&n->lock);
	if (under)
		n->temp_under = k;
	else
		n->temp_over = k;
	spin_unlock(&n->lock);
	pciesw_nvme_aen_poll(n, sw);
	return 0;
}

/* ---- the commands, to the file of their kind ---- */

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
