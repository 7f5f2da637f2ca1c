/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * pciesw firmware image format (Documentation/firmware.md).
 *
 * An image is a 64-byte header followed by @payload_len bytes of payload;
 * every field is little-endian.  `switchctl fw image` builds one, and
 * `devlink dev flash pciesw/pcieswN file NAME` writes one (from
 * /lib/firmware/NAME) into the partition the switch does not run from.
 */
#ifndef _UAPI_LINUX_PCIESW_FW_H
#define _UAPI_LINUX_PCIESW_FW_H

#include <linux/types.h>

#define PCIESW_FW_MAGIC		0x46575350	/* "PSWF" */
#define PCIESW_FW_HDR_VERSION	1
#define PCIESW_FW_PART_LEN	16
/* the most payload a partition holds */
#define PCIESW_FW_MAX_PAYLOAD	(1U << 20)

/* version: major.minor.patch, each field 0..255, 0..255, 0..65535 */
#define PCIESW_FW_VERSION(major, minor, patch) \
	((__u32)(major) << 24 | (__u32)(minor) << 16 | (__u32)(patch))
#define PCIESW_FW_MAJOR(v)	((v) >> 24)
#define PCIESW_FW_MINOR(v)	(((v) >> 16) & 0xff)
#define PCIESW_FW_PATCH(v)	((v) & 0xffff)

/**
 * struct pciesw_fw_header - the start of a firmware image
 * @magic: PCIESW_FW_MAGIC
 * @hdr_version: PCIESW_FW_HDR_VERSION
 * @hdr_len: sizeof(struct pciesw_fw_header), 64
 * @part: the part number (VPD PN) of the card it is for, NUL padded
 * @version: PCIESW_FW_VERSION(major, minor, patch)
 * @payload_len: bytes of payload after the header, 1..PCIESW_FW_MAX_PAYLOAD
 * @build_time: when it was built, seconds since 1970-01-01 UTC
 * @payload_crc: CRC-32 of the payload (IEEE 802.3, as zlib's crc32())
 * @reserved: zero
 */
struct pciesw_fw_header {
	__le32 magic;
	__le16 hdr_version;
	__le16 hdr_len;
	char part[PCIESW_FW_PART_LEN];
	__le32 version;
	__le32 payload_len;
	__le64 build_time;
	__le32 payload_crc;
	__u8 reserved[20];
};

/*
 * An NVMe drive's firmware image (Firmware Image Download, Firmware
 * Commit through the NVMe passthrough; pciesw(4)): a 32-byte header
 * followed by @payload_len bytes of payload (what is downloaded after it
 * is padding, ignored); every field little-endian.  A commit refuses
 * anything else with Invalid Firmware Image.
 */
#define PCIESW_NVME_FW_MAGIC	0x46564e50	/* "PNVF" */
#define PCIESW_NVME_FW_FR_LEN	8
/* the largest image a drive takes, header included */
#define PCIESW_NVME_FW_MAX	(256U << 10)
/* @flags: the image cannot be activated without a reset */
#define PCIESW_NVME_FW_NEEDS_RESET	(1U << 0)

/**
 * struct pciesw_nvme_fw_header - the start of an NVMe drive's image
 * @magic: PCIESW_NVME_FW_MAGIC
 * @hdr_len: sizeof(struct pciesw_nvme_fw_header), 32
 * @flags: PCIESW_NVME_FW_NEEDS_RESET, or 0
 * @fr: its firmware revision (Identify Controller FR): printable ASCII,
 *	left-justified and space padded, not blank
 * @payload_len: bytes of payload after the header
 * @payload_crc: CRC-32 of the payload (IEEE 802.3, as zlib's crc32())
 * @reserved: zero
 */
struct pciesw_nvme_fw_header {
	__le32 magic;
	__le16 hdr_len;
	__le16 flags;
	char fr[PCIESW_NVME_FW_FR_LEN];
	__le32 payload_len;
	__le32 payload_crc;
	__u8 reserved[8];
};

#endif /* _UAPI_LINUX_PCIESW_FW_H */
