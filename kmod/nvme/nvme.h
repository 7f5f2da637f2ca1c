/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NVMe controller of an NVMe drive (core.c and the nvme_*.c it
 * names, part of the model): the admin and NVM commands it answers, on
 * the drive's memory window, and the per-drive state they report (SMART
 * counters, features, the error log).  The block view (block/ioctl.c) feeds
 * it the commands of the kernel's NVMe passthrough ioctls and counts its
 * own requests here.  What the controller's files share among themselves
 * is ctrl.h, which nothing else includes.
 */
#ifndef _PCIESW_NVME_H
#define _PCIESW_NVME_H

#include <linux/types.h>
#include <uapi/linux/pciesw_fw.h>

struct pciesw_endpoint;
struct pciesw_nvme;
struct pciesw_switch;
struct work_struct;

/* the drive's one namespace */
#define PCIESW_NVME_NSID	1
/* Maximum Data Transfer Size: 2^8 minimum pages (4 KiB) = 1 MiB */
#define PCIESW_NVME_MDTS	8
#define PCIESW_NVME_MAX_XFER	(4096U << PCIESW_NVME_MDTS)

/* The PCI IDs of an NVMe drive (the Identify Controller data has two) */
struct pciesw_nvme_pci_ids {
	u16 vendor;
	u16 device;
	u16 subsystem_vendor;
	u16 subsystem_device;
};

void pciesw_nvme_pci_ids(const struct pciesw_endpoint *ep,
			 struct pciesw_nvme_pci_ids *ids);

/**
 * struct pciesw_nvme_cmd - one command for pciesw_nvme_exec()
 * @admin: an admin command (else an NVM I/O command)
 * @opcode: its opcode
 * @nsid: its namespace id
 * @cdw: its command dwords; 10 to 15 are the command's own
 * @buf: its data, in kernel memory: what a command transfers to the
 *	controller, or zeroed room for what it returns; NULL if none
 * @len: bytes of @buf
 * @result: out: dword 0 of the completion
 * @wce: in: the disk's volatile write cache is on
 * @nr_io_queues: in: the I/O queues the disk has
 * @set_wce: out: Set Features turned the write cache on (1) or off (0);
 *	-1 when it did not touch it
 * @formatted: out: a Format NVM changed the namespace's format; the
 *	disk's block size follows once the switch's views have applied it
 * @slba: out: the first LBA of a command that failed on its range
 */
struct pciesw_nvme_cmd {
	bool admin;
	u8 opcode;
	u32 nsid;
	u32 cdw[16];
	void *buf;
	u32 len;
	u32 result;
	bool wce;
	u16 nr_io_queues;
	s8 set_wce;
	bool formatted;
	u64 slba;
};

/**
 * struct pciesw_nvme_injection - a fault injected into a drive
 * @type: enum pciesw_nvme_fault
 * @lba: media error: the first logical block
 * @count: media error: the blocks
 * @temp: temp: the composite temperature, m°C (whole kelvins kept)
 * @temp_clear: temp: the card's thermal model gives it again
 * @spare: spare: the available spare, percent
 * @read_only: read-only: the media is (or is no longer) read-only
 */
struct pciesw_nvme_injection {
	u32 type;
	u64 lba;
	u32 count;
	int temp;
	bool temp_clear;
	u8 spare;
	bool read_only;
};

/**
 * struct pciesw_nvme_health - what the SMART log says of a drive
 * @temp: composite temperature, m°C (whole kelvins, as NVMe reports it)
 * @temp_over: its over temperature threshold (FID 4), m°C
 * @temp_under: its under temperature threshold, m°C
 * @temp_crit: the critical composite temperature (CCTEMP), m°C
 * @spare: available spare, percent
 * @spare_thresh: available spare threshold, percent
 * @percent_used: percentage used
 * @critical_warning: NVME_SMART_CRIT_*
 * @read_only: the media is read-only
 * @media_errors: unrecovered data integrity errors
 * @unsafe_shutdowns: unsafe shutdowns
 * @data_units_read: thousands of 512-byte units read, rounded up
 * @data_units_written: and written
 * @host_reads: read commands completed
 * @host_writes: write commands completed
 * @power_cycles: power cycles
 * @power_on_hours: hours since the drive was plugged in
 * @error_entries: error information log entries ever made
 */
struct pciesw_nvme_health {
	int temp;
	int temp_over;
	int temp_under;
	int temp_crit;
	u8 spare;
	u8 spare_thresh;
	u8 percent_used;
	u8 critical_warning;
	bool read_only;
	u64 media_errors;
	u64 unsafe_shutdowns;
	u64 data_units_read;
	u64 data_units_written;
	u64 host_reads;
	u64 host_writes;
	u64 power_cycles;
	u64 power_on_hours;
	u64 error_entries;
};

/**
 * struct pciesw_nvme_io - what the host read and wrote, as the drive counts
 * @bytes_read: bytes read (its disk, Read and Compare, DMA from its window)
 * @bytes_written: bytes written
 * @reads: read commands completed
 * @writes: write commands completed
 */
struct pciesw_nvme_io {
	u64 bytes_read;
	u64 bytes_written;
	u64 reads;
	u64 writes;
};

/* the Identify Controller strings: space padded there, terminated here */
#define PCIESW_NVME_SN_LEN	20

struct pciesw_nvme *pciesw_nvme_create(struct pciesw_endpoint *ep);
struct pciesw_nvme *pciesw_nvme_get(struct pciesw_nvme *n);
void pciesw_nvme_put(struct pciesw_nvme *n);
int pciesw_nvme_exec(struct pciesw_nvme *n, struct pciesw_switch *sw,
		     struct pciesw_nvme_cmd *c);
u32 pciesw_nvme_effects(bool admin, u8 opcode);
void pciesw_nvme_count(struct pciesw_nvme *n, bool write, u64 bytes);
void pciesw_nvme_unsafe_shutdown(struct pciesw_nvme *n);
void pciesw_nvme_power_cycle(struct pciesw_nvme *n);
void pciesw_nvme_health(struct pciesw_nvme *n, struct pciesw_switch *sw,
			struct pciesw_nvme_health *h);
void pciesw_ep_nvme_health(const struct pciesw_endpoint *ep,
			   struct pciesw_nvme_health *h);
void pciesw_nvme_io_counts(const struct pciesw_nvme *n,
			   struct pciesw_nvme_io *io);
const char *pciesw_nvme_model(void);
void pciesw_nvme_firmware(struct pciesw_nvme *n,
			  char fr[PCIESW_NVME_FW_FR_LEN + 1]);
void pciesw_nvme_serial(const struct pciesw_nvme *n,
			char sn[PCIESW_NVME_SN_LEN + 1]);
int pciesw_nvme_set_temp_thresh(struct pciesw_nvme *n,
				struct pciesw_switch *sw, bool under, long mc);
bool pciesw_nvme_media_fails(struct pciesw_nvme *n, bool write, u64 pos,
			     u64 len);
void pciesw_nvme_media_written(struct pciesw_nvme *n, u64 pos, u64 len);
int pciesw_nvme_inject(struct pciesw_endpoint *ep,
		       const struct pciesw_nvme_injection *f, const char **why);
void pciesw_nvme_reset(struct pciesw_endpoint *ep);
void pciesw_nvme_aen_check(struct pciesw_endpoint *ep);
void pciesw_nvme_work(struct work_struct *work);

#endif /* _PCIESW_NVME_H */
