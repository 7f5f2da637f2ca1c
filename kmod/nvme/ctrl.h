/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the NVMe controller (core.c, which says how they are
 * split, and its nvme_*.c) share: the controller's state, struct
 * pciesw_nvme, the log entries and limits more than one of them knows,
 * the small helpers every command uses and the functions they call of
 * each other.  Nothing else includes this: the rest of the module knows a
 * drive's controller through nvme.h.
 */
#ifndef _PCIESW_NVME_CTRL_H
#define _PCIESW_NVME_CTRL_H

#include <linux/kref.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "nvme/nvme.h"
#include "model/pciesw.h"

/* What the drive says it is: a Samsung PM1743 (PCIe 5.0, U.2) */
#define PCIESW_NVME_MODEL	"SAMSUNG MZWLO3T8HCLS-00A07"
/* the IEEE OUI of Samsung, 00-25-38 (core.c) */
extern const u8 pciesw_nvme_oui[3];

/* temperature limits, kelvin: warning (the default over threshold) */
#define PCIESW_NVME_WCTEMP	343
#define PCIESW_NVME_CCTEMP	353

#define PCIESW_NVME_ERR_LOG	16	/* error log entries, ELPE + 1 */
#define PCIESW_NVME_ERR_SIZE	64
#define PCIESW_NVME_DST_ENTRIES	20
/*
 * How long a device self-test takes, in the model's time: a short one a
 * couple of seconds (the spec allows two minutes), an extended one ten
 * (Identify's EDSTT says one minute, the whole minute that covers it).
 */
#define PCIESW_NVME_DST_SHORT_MS	2000
#define PCIESW_NVME_DST_EXT_MS		10000
#define PCIESW_NVME_EDSTT		1	/* minutes */
#define PCIESW_NVME_BAD_RANGES	16	/* media error ranges kept */

/* m°C of a temperature in kelvins, and back (as <linux/units.h>) */
#define PCIESW_NVME_MC(k)	((int)(k) * 1000 - 273150)
#define PCIESW_NVME_K(mc)	DIV_ROUND_CLOSEST((mc) + 273150, 1000)

/* one error information log entry (NVMe 1.4, figure 194) */
struct pciesw_nvme_err {
	__le64 error_count;
	__le16 sqid;
	__le16 cmdid;
	__le16 status;
	__le16 param_loc;
	__le64 lba;
	__le32 nsid;
	u8 vs;
	u8 trtype;
	u8 rsvd30[2];
	__le64 cs;
	__le16 trtype_info;
	u8 rsvd42[22];
};

static_assert(sizeof(struct pciesw_nvme_err) == PCIESW_NVME_ERR_SIZE);

/* firmware slots: 1 (read-only, the factory image), 2 and 3 */
#define PCIESW_NVME_FW_SLOTS	3

/*
 * The Asynchronous Event Configuration at reset: every SMART critical
 * warning sends an event (nothing here sets it as a controller driver
 * would).
 */
#define PCIESW_NVME_AEN_DEFAULT	0x1f

/* one Self-test Result Data Structure of the log (NVMe 1.4, figure 204) */
struct pciesw_nvme_dst_result {
	u8 status;		/* 7:4 the self-test code, 3:0 its result */
	u8 segment;		/* the failed segment */
	u8 valid;		/* 0 NSID, 1 FLBA, 2 SCT, 3 SC valid */
	u8 rsvd3;
	__le64 poh;
	__le32 nsid;
	__le64 flba;
	u8 sct;
	u8 sc;
	u8 vs[2];
} __packed;

static_assert(sizeof(struct pciesw_nvme_dst_result) == 28);

/* Features kept as the host set them: arbitration, error recovery, ... */
enum {
	PCIESW_NVME_FEAT_ARB,
	PCIESW_NVME_FEAT_ERR_RECOVERY,
	PCIESW_NVME_FEAT_IRQ_COALESCE,
	PCIESW_NVME_FEAT_WRITE_ATOMIC,
	PCIESW_NVME_FEAT_ASYNC_EVENT,
	PCIESW_NVME_NR_RAW,
};

/**
 * struct pciesw_nvme - the controller state of one NVMe drive
 * @refs: the endpoint holds one, each of its disks one
 * @mem: the drive's window (the namespace), referenced
 * @size: bytes of the namespace
 * @lba_shift: log2 of its logical block size
 * @ids: its PCI IDs, as pciesw_nvme_pci_ids() gave them for the endpoint
 * @sn: serial number, space padded, not terminated
 * @eui64: the namespace's IEEE EUI-64
 * @nguid: and its NGUID
 * @created_ns: when the drive was plugged in (CLOCK_MONOTONIC)
 * @bytes_read: bytes the host read (Read, Compare), for data units read
 * @bytes_written: bytes the host wrote (Write)
 * @read_cmds: Read and Compare commands (and block reads) completed
 * @write_cmds: Write commands (and block writes) completed
 * @power_cycles: times the drive was powered on
 * @unsafe_shutdowns: times it lost power or its link without a shutdown
 * @media_errors: reads failed by an unrecovered (injected) media error
 * @lock: protects every field below
 * @temp_over: over temperature threshold of the composite sensor, K
 * @temp_under: under temperature threshold, K
 * @power_state: the power state (power management feature)
 * @raw: the features kept as set, by PCIESW_NVME_FEAT_*
 * @ts_ms: the timestamp the host set, ms since the epoch
 * @ts_set_ns: when it set it (CLOCK_MONOTONIC), 0 before it did
 * @err_count: errors logged ever
 * @errs: the last PCIESW_NVME_ERR_LOG, error count n at (n - 1) % size
 * @cmd_ids: numbers the commands, for the error log's command ids
 * @temp_forced: @temp_force replaces the card's sensor (fault injection)
 * @temp_force: the forced composite temperature, K
 * @spare: available spare, percent
 * @read_only: the media is read-only (fault injection)
 * @nr_bad: ranges in @bad
 * @bad: the ranges of blocks with an unrecovered media error
 * @name: the drive's endpoint name, for the event log
 * @dst_op: the device self-test running (PCIESW_NVME_STC_*), or none
 * @dst_nsid: the namespace id it was started for
 * @dst_start: when it started (CLOCK_MONOTONIC ns)
 * @dst_end: when it completes
 * @dst_fail: the next self-test fails (fault injection)
 * @dst_count: self-tests ever recorded in @dst
 * @dst: the last PCIESW_NVME_DST_ENTRIES results, n at (n - 1) % size
 * @fw_lock: protects the firmware fields below (after sw->lock)
 * @fw_fr: the firmware revision in each slot (index 0: slot 1), zeros
 *	for an empty slot
 * @fw_slot: the slot the controller runs, 1 to PCIESW_NVME_FW_SLOTS
 * @fw_next: the slot it runs after the next reset, 0 for the same
 * @fw_img: the image being downloaded, PCIESW_NVME_FW_MAX bytes, NULL
 *	before the first Firmware Image Download
 * @fw_len: its bytes downloaded
 * @aen_cw: the critical warning bits when they were last looked at for
 *	asynchronous events (under @lock)
 */
struct pciesw_nvme {
	struct kref refs;
	struct pciesw_mem *mem;
	u64 size;
	unsigned int lba_shift;
	struct pciesw_nvme_pci_ids ids;
	char sn[20];
	u8 eui64[8];
	u8 nguid[16];
	u64 created_ns;
	atomic64_t bytes_read;
	atomic64_t bytes_written;
	atomic64_t read_cmds;
	atomic64_t write_cmds;
	atomic64_t power_cycles;
	atomic64_t unsafe_shutdowns;
	atomic64_t media_errors;
	spinlock_t lock;	/* protects the fields below */
	u16 temp_over;
	u16 temp_under;
	u8 power_state;
	u32 raw[PCIESW_NVME_NR_RAW];
	u64 ts_ms;
	u64 ts_set_ns;
	u64 err_count;
	struct pciesw_nvme_err errs[PCIESW_NVME_ERR_LOG];
	u16 cmd_ids;
	bool temp_forced;
	u16 temp_force;
	u8 spare;
	bool read_only;
	unsigned int nr_bad;
	struct {
		u64 slba;
		u64 nlb;
	} bad[PCIESW_NVME_BAD_RANGES];
	char name[PCIESW_NAME_LEN];
	u8 dst_op;
	u32 dst_nsid;
	u64 dst_start;
	u64 dst_end;
	bool dst_fail;
	u64 dst_count;
	struct pciesw_nvme_dst_result dst[PCIESW_NVME_DST_ENTRIES];
	struct mutex fw_lock;	/* protects the fields below */
	char fw_fr[PCIESW_NVME_FW_SLOTS][PCIESW_NVME_FW_FR_LEN];
	u8 fw_slot;
	u8 fw_next;
	u8 *fw_img;
	u32 fw_len;
	u8 aen_cw;
};

/* An error status: what a retry cannot fix, so Do Not Retry is set. */
static inline int pciesw_nvme_err(u16 sc)
{
	return sc | NVME_STATUS_DNR;
}

/* Copy @len bytes of @src to the command's buffer, as far as it goes. */
static inline void pciesw_nvme_out(struct pciesw_nvme_cmd *c, const void *src,
				   size_t len)
{
	if (c->buf)
		memcpy(c->buf, src, min_t(size_t, len, c->len));
}

/*
 * The log2 of the logical block size now: a command reads it once, as a
 * Format NVM may change it under the commands of the disk's queue.
 */
static inline unsigned int pciesw_nvme_shift(const struct pciesw_nvme *n)
{
	return READ_ONCE(n->lba_shift);
}

/* The power-on hours at @now (CLOCK_MONOTONIC ns): since it was plugged in */
static inline u64 pciesw_nvme_poh(const struct pciesw_nvme *n, u64 now)
{
	return div_u64(div_u64(now - n->created_ns, NSEC_PER_SEC), 3600);
}

/* core.c */
void pciesw_nvme_str(char *dst, size_t len, const char *src);
u16 pciesw_nvme_temp(struct pciesw_nvme *n, struct pciesw_switch *sw,
		     bool locked);
void pciesw_nvme_fill_health(struct pciesw_nvme *n, u16 temp,
			     struct pciesw_nvme_health *h);

/* admin.c */
int pciesw_nvme_identify(struct pciesw_nvme *n, struct pciesw_nvme_cmd *c);
int pciesw_nvme_get_log(struct pciesw_nvme *n, struct pciesw_switch *sw,
			struct pciesw_nvme_cmd *c);
int pciesw_nvme_get_features(struct pciesw_nvme *n,
			     struct pciesw_nvme_cmd *c);
int pciesw_nvme_set_features(struct pciesw_nvme *n,
			     struct pciesw_nvme_cmd *c);

/* maint.c */
int pciesw_nvme_self_test(struct pciesw_nvme *n, struct pciesw_switch *sw,
			  struct pciesw_nvme_cmd *c);
void pciesw_nvme_log_self_test(struct pciesw_nvme *n,
			       struct pciesw_switch *sw, u8 *p);
int pciesw_nvme_format(struct pciesw_nvme *n, struct pciesw_switch *sw,
		       struct pciesw_nvme_cmd *c);
int pciesw_nvme_fw_download(struct pciesw_nvme *n, struct pciesw_nvme_cmd *c);
int pciesw_nvme_fw_commit(struct pciesw_nvme *n, struct pciesw_switch *sw,
			  struct pciesw_nvme_cmd *c);

/* io.c */
int pciesw_nvme_io(struct pciesw_nvme *n, struct pciesw_nvme_cmd *c);
void pciesw_nvme_log_error(struct pciesw_nvme *n,
			   const struct pciesw_nvme_cmd *c, u16 id,
			   int status);

#endif /* _PCIESW_NVME_CTRL_H */
