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
 * Admin: Identify (CNS 0 namespace, 1 controller, 2 active namespaces, 3
 * namespace identification descriptors), Get Log Page (error information,
 * SMART / health, firmware slot, commands supported and effects, device
 * self-test), Get and Set Features (arbitration, power management,
 * temperature threshold, error recovery, volatile write cache, number of
 * queues, interrupt coalescing, write atomicity, asynchronous event
 * configuration, timestamp); Device Self-test, Format NVM and Firmware
 * Image Download and Commit are nvme_maint.c's.
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

/* What the drive says it is: a Samsung PM1743 (PCIe 5.0, U.2) */
#define PCIESW_NVME_FW		"GDC7402Q"
#define PCIESW_NVME_NQN		"nqn.1994-11.com.samsung:nvme:PM1743:2.5-inch:"
/* the IEEE OUI of Samsung, 00-25-38 */
static const u8 pciesw_nvme_oui[3] = { 0x00, 0x25, 0x38 };

#define PCIESW_NVME_SENSOR	3	/* thermal.c's "serdes-nvme" */
#define PCIESW_NVME_DST_SIZE	564	/* the device self-test log */
#define PCIESW_NVME_ID_SIZE	4096
#define PCIESW_NVME_SPARE_THRESH	10	/* percent */

/* the Select field of Get Features */
enum {
	PCIESW_NVME_SEL_CURRENT,
	PCIESW_NVME_SEL_DEFAULT,
	PCIESW_NVME_SEL_SAVED,
	PCIESW_NVME_SEL_SUPPORTED,
};

/* Optional Admin Command Support bits <linux/nvme.h> does not name */
#define PCIESW_NVME_OACS_FORMAT	BIT(1)
#define PCIESW_NVME_OACS_FW	BIT(2)
#define PCIESW_NVME_OACS_DST	BIT(4)

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

/* A 128-bit little-endian field of @v. */
static void pciesw_nvme_put128(u8 *dst, u64 v)
{
	__le64 l = cpu_to_le64(v);

	memcpy(dst, &l, sizeof(l));
	memset(dst + sizeof(l), 0, sizeof(l));
}

/* A space padded, not terminated field of the Identify data. */
static void pciesw_nvme_str(char *dst, size_t len, const char *src)
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
static u16 pciesw_nvme_temp(struct pciesw_nvme *n, struct pciesw_switch *sw,
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
static void pciesw_nvme_fill_health(struct pciesw_nvme *n, u16 temp,
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

/* ---- Identify ---- */

static void pciesw_nvme_id_ctrl(struct pciesw_nvme *n, struct nvme_id_ctrl *id)
{
	char nqn[sizeof(id->subnqn)];

	id->vid = cpu_to_le16(n->ids.vendor);
	id->ssvid = cpu_to_le16(n->ids.subsystem_vendor);
	memcpy(id->sn, n->sn, sizeof(id->sn));
	pciesw_nvme_str(id->mn, sizeof(id->mn), PCIESW_NVME_MODEL);
	mutex_lock(&n->fw_lock);
	memcpy(id->fr, n->fw_fr[n->fw_slot - 1], sizeof(id->fr));
	mutex_unlock(&n->fw_lock);
	id->rab = 6;
	/* the OUI, least significant byte first */
	id->ieee[0] = pciesw_nvme_oui[2];
	id->ieee[1] = pciesw_nvme_oui[1];
	id->ieee[2] = pciesw_nvme_oui[0];
	id->mdts = PCIESW_NVME_MDTS;
	id->cntlid = cpu_to_le16(1);
	id->ver = cpu_to_le32(0x00010400);	/* 1.4 */
	id->cntrltype = 1;			/* I/O controller */
	/* Format NVM, firmware download and commit, Device Self-test */
	id->oacs = cpu_to_le16(PCIESW_NVME_OACS_FORMAT | PCIESW_NVME_OACS_FW |
			       PCIESW_NVME_OACS_DST);
	/* FNA 0: a format is of the namespace; no cryptographic erase */
	id->acl = 3;
	id->aerl = 3;
	/* slot 1 read only, 3 slots, activation without a reset */
	id->frmw = BIT(4) | PCIESW_NVME_FW_SLOTS << 1 | 1;
	/* any granularity: the image's pieces are dwords */
	id->fwug = 0xff;
	/* SMART per namespace, the effects log, extended Get Log Page */
	id->lpa = BIT(0) | NVME_CTRL_LPA_CMD_EFFECTS_LOG | BIT(2);
	id->elpe = PCIESW_NVME_ERR_LOG - 1;
	id->npss = 0;
	id->wctemp = cpu_to_le16(PCIESW_NVME_WCTEMP);
	id->cctemp = cpu_to_le16(PCIESW_NVME_CCTEMP);
	id->edstt = cpu_to_le16(PCIESW_NVME_EDSTT);
	id->dsto = 1;		/* one self-test at a time */
	pciesw_nvme_put128(id->tnvmcap, n->size);
	id->sqes = 0x66;
	id->cqes = 0x44;
	id->maxcmd = cpu_to_le16(1024);
	id->nn = cpu_to_le32(1);
	id->oncs = cpu_to_le16(NVME_CTRL_ONCS_COMPARE | NVME_CTRL_ONCS_DSM |
			       NVME_CTRL_ONCS_WRITE_ZEROES |
			       NVME_CTRL_ONCS_TIMESTAMP);
	/* a volatile write cache; Flush takes the broadcast namespace id */
	id->vwc = NVME_CTRL_VWC_PRESENT | 3 << 1;
	snprintf(nqn, sizeof(nqn), "%s%.20s", PCIESW_NVME_NQN, n->sn);
	strim(nqn);
	strscpy(id->subnqn, nqn, sizeof(id->subnqn));
	/* PS0: 25 W */
	id->psd[0].max_power = cpu_to_le16(2500);
	id->psd[0].entry_lat = 0;
	id->psd[0].exit_lat = 0;
}

static void pciesw_nvme_id_ns(struct pciesw_nvme *n, struct nvme_id_ns *id)
{
	unsigned int shift = pciesw_nvme_shift(n);
	u64 blocks = n->size >> shift;
	u64 used = DIV_ROUND_UP_ULL(pciesw_mem_resident(n->mem), 1ULL << shift);

	id->nsze = cpu_to_le64(blocks);
	id->ncap = cpu_to_le64(blocks);
	id->nuse = cpu_to_le64(min(used, blocks));
	id->nsfeat = BIT(0);			/* thin provisioned: NUSE */
	id->nlbaf = 1;				/* two formats */
	id->flbas = shift == 12;
	/* deallocated blocks read as zeros; Write Zeroes may deallocate */
	id->dlfeat = BIT(3) | 1;
	pciesw_nvme_put128(id->nvmcap, n->size);
	memcpy(id->nguid, n->nguid, sizeof(id->nguid));
	memcpy(id->eui64, n->eui64, sizeof(id->eui64));
	id->lbaf[0].ds = 9;
	id->lbaf[0].rp = 1;			/* better */
	id->lbaf[1].ds = 12;
	id->lbaf[1].rp = 0;			/* best */
}

static void pciesw_nvme_id_descs(struct pciesw_nvme *n, u8 *p)
{
	struct nvme_ns_id_desc *desc = (struct nvme_ns_id_desc *)p;

	desc->nidt = NVME_NIDT_EUI64;
	desc->nidl = NVME_NIDT_EUI64_LEN;
	memcpy(p + sizeof(*desc), n->eui64, NVME_NIDT_EUI64_LEN);
	p += sizeof(*desc) + NVME_NIDT_EUI64_LEN;
	desc = (struct nvme_ns_id_desc *)p;
	desc->nidt = NVME_NIDT_NGUID;
	desc->nidl = NVME_NIDT_NGUID_LEN;
	memcpy(p + sizeof(*desc), n->nguid, NVME_NIDT_NGUID_LEN);
	p += sizeof(*desc) + NVME_NIDT_NGUID_LEN;
	desc = (struct nvme_ns_id_desc *)p;
	desc->nidt = NVME_NIDT_CSI;
	desc->nidl = NVME_NIDT_CSI_LEN;
	p[sizeof(*desc)] = NVME_CSI_NVM;
}

static int pciesw_nvme_identify(struct pciesw_nvme *n,
				struct pciesw_nvme_cmd *c)
{
	u8 cns = c->cdw[10] & 0xff;
	void *id;

	switch (cns) {
	case NVME_ID_CNS_NS:
	case NVME_ID_CNS_NS_DESC_LIST:
		if (c->nsid != PCIESW_NVME_NSID)
			return pciesw_nvme_err(NVME_SC_INVALID_NS);
		break;
	case NVME_ID_CNS_CTRL:
		break;
	case NVME_ID_CNS_NS_ACTIVE_LIST:
		if (c->nsid >= 0xfffffffe)
			return pciesw_nvme_err(NVME_SC_INVALID_NS);
		break;
	default:
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	}
	id = kzalloc(PCIESW_NVME_ID_SIZE, GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	switch (cns) {
	case NVME_ID_CNS_NS:
		pciesw_nvme_id_ns(n, id);
		break;
	case NVME_ID_CNS_CTRL:
		pciesw_nvme_id_ctrl(n, id);
		break;
	case NVME_ID_CNS_NS_ACTIVE_LIST:
		/* the namespaces above the one named: ours, or none */
		if (c->nsid < PCIESW_NVME_NSID)
			*(__le32 *)id = cpu_to_le32(PCIESW_NVME_NSID);
		break;
	case NVME_ID_CNS_NS_DESC_LIST:
		pciesw_nvme_id_descs(n, id);
		break;
	}
	pciesw_nvme_out(c, id, PCIESW_NVME_ID_SIZE);
	kfree(id);
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

/* ---- Get Log Page ---- */

static void pciesw_nvme_log_smart(struct pciesw_nvme *n,
				  struct pciesw_switch *sw,
				  struct nvme_smart_log *log)
{
	u16 temp = pciesw_nvme_temp(n, sw, false);
	struct pciesw_nvme_health h;

	pciesw_nvme_fill_health(n, temp, &h);
	log->critical_warning = h.critical_warning;
	log->temperature[0] = temp & 0xff;
	log->temperature[1] = temp >> 8;
	log->avail_spare = h.spare;
	log->spare_thresh = h.spare_thresh;
	log->percent_used = h.percent_used;
	pciesw_nvme_put128(log->data_units_read, h.data_units_read);
	pciesw_nvme_put128(log->data_units_written, h.data_units_written);
	pciesw_nvme_put128(log->host_reads, h.host_reads);
	pciesw_nvme_put128(log->host_writes, h.host_writes);
	pciesw_nvme_put128(log->power_cycles, h.power_cycles);
	pciesw_nvme_put128(log->power_on_hours, h.power_on_hours);
	pciesw_nvme_put128(log->unsafe_shutdowns, h.unsafe_shutdowns);
	pciesw_nvme_put128(log->media_errors, h.media_errors);
	pciesw_nvme_put128(log->num_err_log_entries, h.error_entries);
	log->temp_sensor[0] = cpu_to_le16(temp);
}

/* The error log: the newest entry first, unused ones zero. */
static void pciesw_nvme_log_errors(struct pciesw_nvme *n, u8 *p)
{
	struct pciesw_nvme_err *e = (struct pciesw_nvme_err *)p;
	u64 i, count;

	spin_lock(&n->lock);
	count = min_t(u64, n->err_count, PCIESW_NVME_ERR_LOG);
	for (i = 0; i < count; i++)
		e[i] = n->errs[(n->err_count - 1 - i) % PCIESW_NVME_ERR_LOG];
	spin_unlock(&n->lock);
}

/* The slot running, the one after the next reset, each slot's revision */
static void pciesw_nvme_log_fw(struct pciesw_nvme *n,
			       struct nvme_fw_slot_info_log *log)
{
	unsigned int i;

	mutex_lock(&n->fw_lock);
	log->afi = n->fw_next << 4 | n->fw_slot;
	for (i = 0; i < PCIESW_NVME_FW_SLOTS; i++)
		memcpy(&log->frs[i], n->fw_fr[i], sizeof(log->frs[i]));
	mutex_unlock(&n->fw_lock);
}

static void pciesw_nvme_log_effects(struct nvme_effects_log *log)
{
	unsigned int op;

	for (op = 0; op < 256; op++) {
		log->acs[op] = cpu_to_le32(pciesw_nvme_effects(true, op));
		log->iocs[op] = cpu_to_le32(pciesw_nvme_effects(false, op));
	}
}

static int pciesw_nvme_get_log(struct pciesw_nvme *n,
			       struct pciesw_switch *sw,
			       struct pciesw_nvme_cmd *c)
{
	u8 lid = c->cdw[10] & 0xff;
	u64 numd = ((u64)(c->cdw[11] & 0xffff) << 16 | c->cdw[10] >> 16) + 1;
	u64 off = (u64)c->cdw[13] << 32 | c->cdw[12];
	size_t size;
	u8 *log;

	switch (lid) {
	case NVME_LOG_ERROR:
		size = PCIESW_NVME_ERR_LOG * PCIESW_NVME_ERR_SIZE;
		break;
	case NVME_LOG_SMART:
		if (c->nsid && c->nsid != PCIESW_NVME_NSID &&
		    c->nsid != NVME_NSID_ALL)
			return pciesw_nvme_err(NVME_SC_INVALID_NS);
		size = sizeof(struct nvme_smart_log);
		break;
	case NVME_LOG_FW_SLOT:
		size = sizeof(struct nvme_fw_slot_info_log);
		break;
	case NVME_LOG_CMD_EFFECTS:
		size = sizeof(struct nvme_effects_log);
		break;
	case NVME_LOG_DEVICE_SELF_TEST:
		size = PCIESW_NVME_DST_SIZE;
		break;
	default:
		return pciesw_nvme_err(NVME_SC_INVALID_LOG_PAGE);
	}
	/* the offset is in bytes, dword aligned, inside the log */
	if (off & 3 || off >= size)
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	log = kzalloc(size, GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	switch (lid) {
	case NVME_LOG_ERROR:
		pciesw_nvme_log_errors(n, log);
		break;
	case NVME_LOG_SMART:
		pciesw_nvme_log_smart(n, sw, (struct nvme_smart_log *)log);
		break;
	case NVME_LOG_FW_SLOT:
		pciesw_nvme_log_fw(n, (struct nvme_fw_slot_info_log *)log);
		break;
	case NVME_LOG_CMD_EFFECTS:
		pciesw_nvme_log_effects((struct nvme_effects_log *)log);
		break;
	case NVME_LOG_DEVICE_SELF_TEST:
		pciesw_nvme_log_self_test(n, sw, log);
		break;
	}
	/* past the end of the log the transfer reads zeros */
	if (c->buf)
		memcpy(c->buf, log + off,
		       min3((u64)c->len, numd * 4, (u64)(size - off)));
	kfree(log);
	return 0;
}

/* ---- Features ---- */

/* The features kept as set: their index in @raw, or -1. */
static int pciesw_nvme_raw_feature(u8 fid)
{
	switch (fid) {
	case NVME_FEAT_ARBITRATION:
		return PCIESW_NVME_FEAT_ARB;
	case NVME_FEAT_ERR_RECOVERY:
		return PCIESW_NVME_FEAT_ERR_RECOVERY;
	case NVME_FEAT_IRQ_COALESCE:
		return PCIESW_NVME_FEAT_IRQ_COALESCE;
	case NVME_FEAT_WRITE_ATOMIC:
		return PCIESW_NVME_FEAT_WRITE_ATOMIC;
	case NVME_FEAT_ASYNC_EVENT:
		return PCIESW_NVME_FEAT_ASYNC_EVENT;
	}
	return -1;
}

/* The bits of each raw feature the controller keeps. */
static const u32 pciesw_nvme_raw_mask[PCIESW_NVME_NR_RAW] = {
	[PCIESW_NVME_FEAT_ARB] = 0xffffff07,
	[PCIESW_NVME_FEAT_ERR_RECOVERY] = 0x1ffff,
	[PCIESW_NVME_FEAT_IRQ_COALESCE] = 0xffff,
	[PCIESW_NVME_FEAT_WRITE_ATOMIC] = 0x1,
	/* SMART warnings, namespace attribute and firmware activation */
	[PCIESW_NVME_FEAT_ASYNC_EVENT] = 0x3ff,
};

/* The timestamp now, ms, with its attributes in bits 55:48. */
static u64 pciesw_nvme_timestamp(struct pciesw_nvme *n)
{
	u64 now = ktime_get_ns();

	lockdep_assert_held(&n->lock);
	if (!n->ts_set_ns)
		/* origin 0: counting from the controller's reset */
		return div_u64(now - n->created_ns, NSEC_PER_MSEC);
	/* origin 1: the host set it; the timestamp is not stopped */
	return ((n->ts_ms + div_u64(now - n->ts_set_ns, NSEC_PER_MSEC)) &
		GENMASK_ULL(47, 0)) | 1ULL << 49;
}

/* Temperature Threshold: only the composite sensor (TMPSEL 0, or all). */
static int pciesw_nvme_temp_sel(u32 cdw11, u16 **th, struct pciesw_nvme *n)
{
	u32 tmpsel = cdw11 >> 16 & 0xf, thsel = cdw11 >> 20 & 0x3;

	if ((tmpsel && tmpsel != 0xf) || thsel > 1)
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	*th = thsel ? &n->temp_under : &n->temp_over;
	return 0;
}

static int pciesw_nvme_get_features(struct pciesw_nvme *n,
				    struct pciesw_nvme_cmd *c)
{
	u8 fid = c->cdw[10] & 0xff, sel = c->cdw[10] >> 8 & 0x7;
	bool def = sel == PCIESW_NVME_SEL_DEFAULT;
	int raw = pciesw_nvme_raw_feature(fid), err = 0;
	__le64 ts;
	u16 *th;

	if (sel > PCIESW_NVME_SEL_SUPPORTED)
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	switch (fid) {
	case NVME_FEAT_ARBITRATION:
	case NVME_FEAT_POWER_MGMT:
	case NVME_FEAT_TEMP_THRESH:
	case NVME_FEAT_ERR_RECOVERY:
	case NVME_FEAT_VOLATILE_WC:
	case NVME_FEAT_NUM_QUEUES:
	case NVME_FEAT_IRQ_COALESCE:
	case NVME_FEAT_WRITE_ATOMIC:
	case NVME_FEAT_ASYNC_EVENT:
	case NVME_FEAT_TIMESTAMP:
		break;
	default:
		return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
	}
	/* none is saveable or namespace specific; all but one changeable */
	if (sel == PCIESW_NVME_SEL_SUPPORTED) {
		c->result = fid == NVME_FEAT_NUM_QUEUES ? 0 : BIT(2);
		return 0;
	}
	spin_lock(&n->lock);
	switch (fid) {
	case NVME_FEAT_POWER_MGMT:
		c->result = def ? 0 : n->power_state;
		break;
	case NVME_FEAT_TEMP_THRESH:
		err = pciesw_nvme_temp_sel(c->cdw[11], &th, n);
		if (err)
			break;
		if (def)
			c->result = th == &n->temp_over ? PCIESW_NVME_WCTEMP : 0;
		else
			c->result = *th;
		break;
	case NVME_FEAT_VOLATILE_WC:
		c->result = def ? 1 : c->wce;
		break;
	case NVME_FEAT_NUM_QUEUES:
		c->result = (c->nr_io_queues - 1) << 16 | (c->nr_io_queues - 1);
		break;
	case NVME_FEAT_TIMESTAMP:
		ts = cpu_to_le64(def ? 0 : pciesw_nvme_timestamp(n));
		pciesw_nvme_out(c, &ts, sizeof(ts));
		break;
	case NVME_FEAT_ASYNC_EVENT:
		c->result = def ? PCIESW_NVME_AEN_DEFAULT : n->raw[raw];
		break;
	default:
		c->result = def ? 0 : n->raw[raw];
		break;
	}
	spin_unlock(&n->lock);
	return err;
}

static int pciesw_nvme_set_features(struct pciesw_nvme *n,
				    struct pciesw_nvme_cmd *c)
{
	u8 fid = c->cdw[10] & 0xff;
	u32 v = c->cdw[11];
	int raw = pciesw_nvme_raw_feature(fid), err = 0;
	u64 ts = 0;
	__le64 le;
	u16 *th;

	/* Save: nothing is saveable */
	if (c->cdw[10] & BIT(31))
		return pciesw_nvme_err(NVME_SC_FEATURE_NOT_SAVEABLE);
	switch (fid) {
	case NVME_FEAT_POWER_MGMT:
		/* PS0 is the only power state */
		if (v & 0x1f)
			return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
		break;
	case NVME_FEAT_VOLATILE_WC:
		c->set_wce = v & 1;
		return 0;
	case NVME_FEAT_NUM_QUEUES:
		/* only before the queues are made, as at a reset */
		return pciesw_nvme_err(NVME_SC_CMD_SEQ_ERROR);
	case NVME_FEAT_TIMESTAMP:
		if (!c->buf || c->len < sizeof(ts))
			return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
		memcpy(&le, c->buf, sizeof(le));
		ts = le64_to_cpu(le) & GENMASK_ULL(47, 0);
		break;
	case NVME_FEAT_TEMP_THRESH:
		break;
	default:
		if (raw < 0)
			return pciesw_nvme_err(NVME_SC_INVALID_FIELD);
		break;
	}
	spin_lock(&n->lock);
	switch (fid) {
	case NVME_FEAT_POWER_MGMT:
		n->power_state = v & 0x1f;
		break;
	case NVME_FEAT_TEMP_THRESH:
		err = pciesw_nvme_temp_sel(v, &th, n);
		if (!err)
			*th = v & 0xffff;
		break;
	case NVME_FEAT_TIMESTAMP:
		n->ts_ms = ts;
		n->ts_set_ns = ktime_get_ns() ?: 1;
		break;
	default:
		n->raw[raw] = v & pciesw_nvme_raw_mask[raw];
		break;
	}
	spin_unlock(&n->lock);
	return err;
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
