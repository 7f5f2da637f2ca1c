// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe controller's admin commands that say what it is and has and
 * set what it keeps (core.c dispatches them, ctrl.h is what the
 * controller's files share): Identify (CNS 0 namespace, 1 controller, 2
 * active namespaces, 3 namespace identification descriptors), Get Log
 * Page (error information, SMART / health, firmware slot, commands
 * supported and effects, device self-test, the last written by
 * maint.c), Get and Set Features (arbitration, power management,
 * temperature threshold, error recovery, volatile write cache, number of
 * queues, interrupt coalescing, write atomicity, asynchronous event
 * configuration, timestamp).
 */

#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "ctrl.h"

/* the subsystem NQN, the serial number follows */
#define PCIESW_NVME_NQN		"nqn.1994-11.com.samsung:nvme:PM1743:2.5-inch:"

#define PCIESW_NVME_DST_SIZE	564	/* the device self-test log */
#define PCIESW_NVME_ID_SIZE	4096

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

/* A 128-bit little-endian field of @v. */
static void pciesw_nvme_put128(u8 *dst, u64 v)
{
	__le64 l = cpu_to_le64(v);

	memcpy(dst, &l, sizeof(l));
	memset(dst + sizeof(l), 0, sizeof(l));
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

int pciesw_nvme_identify(struct pciesw_nvme *n,
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

int pciesw_nvme_get_log(struct pciesw_nvme *n,
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

int pciesw_nvme_get_features(struct pciesw_nvme *n,
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

int pciesw_nvme_set_features(struct pciesw_nvme *n,
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
