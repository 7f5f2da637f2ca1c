// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware: two partitions, A and B, as on a Switchtec card.  The switch
 * runs from one; an update is written into the other (the "stored" image),
 * and a firmware activation boots it: every link retrains and the VPD's V0
 * field shows the new version.  An image is checked whole before anything
 * is written (pciesw_fw_check()), then written in chunks whose CRC is
 * computed as they land, so a write cut short (the "power loss" fault of
 * debugfs) leaves a partition that is not bootable next to the intact
 * running one.  Booting a partition that holds no valid image falls back
 * to the running one.  The image format is include/uapi/linux/pciesw_fw.h
 * (Documentation/firmware.md).  Everything here runs with sw->lock held.
 */

#include <linux/crc32.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "model/event.h"
#include "model/pciesw.h"

/* What a card ships with: A runs 1.10.2, B holds the 1.10.0 it came with */
#define PCIESW_FW_FACTORY		PCIESW_FW_VERSION(1, 10, 2)
#define PCIESW_FW_FACTORY_OLD		PCIESW_FW_VERSION(1, 10, 0)
#define PCIESW_FW_FACTORY_TIME		1767225600ULL	/* 2026-01-01 */
#define PCIESW_FW_FACTORY_OLD_TIME	1759276800ULL	/* 2025-10-01 */
#define PCIESW_FW_FACTORY_LEN		65536

static void pciesw_fw_changed(struct pciesw_switch *sw)
{
	struct pciesw_event ev = { .type = PCIESW_EV_FW_CHANGE, .sw = sw };

	pciesw_event(&ev);
}

static void pciesw_fw_factory(struct pciesw_fw_part *p, u32 version,
			      u64 build_time)
{
	p->state = PCIESW_FW_STATE_VALID;
	p->version = version;
	p->build_time = build_time;
	p->len = PCIESW_FW_FACTORY_LEN;
	p->crc = version ^ 0x5a5a5a5a;
}

void pciesw_fw_init(struct pciesw_switch *sw)
{
	struct pciesw_fw *fw = &sw->fw;

	memset(fw, 0, sizeof(*fw));
	pciesw_fw_factory(&fw->parts[0], PCIESW_FW_FACTORY,
			  PCIESW_FW_FACTORY_TIME);
	pciesw_fw_factory(&fw->parts[1], PCIESW_FW_FACTORY_OLD,
			  PCIESW_FW_FACTORY_OLD_TIME);
	fw->running = 0;
}

void pciesw_fw_version_str(u32 version, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u", PCIESW_FW_MAJOR(version),
		 PCIESW_FW_MINOR(version), PCIESW_FW_PATCH(version));
}

char pciesw_fw_part_name(unsigned int part)
{
	return 'A' + part;
}

u32 pciesw_fw_running_version(const struct pciesw_switch *sw)
{
	return sw->fw.parts[sw->fw.running].version;
}

/* The partition the switch does not run from. */
const struct pciesw_fw_part *pciesw_fw_stored(const struct pciesw_switch *sw)
{
	return &sw->fw.parts[!sw->fw.running];
}

/**
 * pciesw_fw_check - check a whole image before anything is written
 * @sw: the switch it is for
 * @data: the image: header and payload
 * @size: its bytes
 * @img: set to the decoded header when it is good
 * @why: set to what is wrong with it otherwise
 */
int pciesw_fw_check(struct pciesw_switch *sw, const u8 *data, size_t size,
		    struct pciesw_fw_image *img, const char **why)
{
	const struct pciesw_fw_header *h = (const void *)data;
	const char *part = sw->profile->part_number;
	u32 len, version;
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	if (size < sizeof(*h)) {
		*why = "image is shorter than its header";
		return -EINVAL;
	}
	if (le32_to_cpu(h->magic) != PCIESW_FW_MAGIC) {
		*why = "not a pciesw firmware image (bad magic)";
		return -EINVAL;
	}
	if (le16_to_cpu(h->hdr_version) != PCIESW_FW_HDR_VERSION ||
	    le16_to_cpu(h->hdr_len) != sizeof(*h)) {
		*why = "unsupported image header version or length";
		return -EINVAL;
	}
	for (i = 0; i < sizeof(h->reserved); i++) {
		if (h->reserved[i]) {
			*why = "reserved bytes of the image header are not zero";
			return -EINVAL;
		}
	}
	if (strnlen(h->part, sizeof(h->part)) != strlen(part) ||
	    strncmp(h->part, part, sizeof(h->part))) {
		*why = "image is for another part number than this card's";
		return -EINVAL;
	}
	len = le32_to_cpu(h->payload_len);
	if (len > PCIESW_FW_MAX_PAYLOAD) {
		*why = "image payload is too large for a partition (1 MiB)";
		return -EFBIG;
	}
	if (!len || size - sizeof(*h) != len) {
		*why = "image size does not match the payload length of its header";
		return -EINVAL;
	}
	if ((crc32_le(~0U, data + sizeof(*h), len) ^ ~0U) !=
	    le32_to_cpu(h->payload_crc)) {
		*why = "image payload fails its CRC-32 check";
		return -EBADMSG;
	}
	version = le32_to_cpu(h->version);
	if (version < PCIESW_FW_MIN_VERSION) {
		*why = "image version is older than the minimum this card takes (1.10.0)";
		return -EINVAL;
	}
	img->version = version;
	img->build_time = le64_to_cpu(h->build_time);
	img->len = len;
	img->crc = le32_to_cpu(h->payload_crc);
	img->payload = data + sizeof(*h);
	return 0;
}

/*
 * Start writing @img, checked by pciesw_fw_check(), into the partition the
 * switch does not run from: it is erased first.  @img->payload must stay
 * valid until pciesw_fw_flash_end().  Returns the partition.
 */
int pciesw_fw_flash_begin(struct pciesw_switch *sw,
			  const struct pciesw_fw_image *img, const char **why)
{
	struct pciesw_fw *fw = &sw->fw;
	struct pciesw_fw_part *p = &fw->parts[!fw->running];
	int err = pciesw_switch_live(sw, why);

	lockdep_assert_held(&sw->lock);
	if (err)
		return err;
	if (fw->flashing) {
		*why = "a firmware flash is already in progress";
		return -EBUSY;
	}
	memset(p, 0, sizeof(*p));
	p->state = PCIESW_FW_STATE_EMPTY;
	fw->pending = false;
	fw->flashing = true;
	fw->image = *img;
	fw->written = 0;
	fw->crc = ~0U;
	pciesw_fw_changed(sw);
	return !fw->running;
}

/* The write stopped with @fw->written bytes in the partition. */
static void pciesw_fw_flash_cut(struct pciesw_switch *sw)
{
	struct pciesw_fw *fw = &sw->fw;
	struct pciesw_fw_part *p = &fw->parts[!fw->running];

	p->state = PCIESW_FW_STATE_INVALID;
	p->len = fw->written;
	p->crc = fw->crc ^ ~0U;
	fw->flashing = false;
	fw->image.payload = NULL;
	pciesw_fw_changed(sw);
}

/* Write the next @len bytes of the image; -EIO: the power went. */
int pciesw_fw_flash_write(struct pciesw_switch *sw, u32 len, const char **why)
{
	struct pciesw_fw *fw = &sw->fw;
	const u8 *p = fw->image.payload + fw->written;

	lockdep_assert_held(&sw->lock);
	if (!fw->flashing || len > fw->image.len - fw->written) {
		*why = "no firmware flash of that length is in progress";
		return -EINVAL;
	}
	if (fw->power_loss_at && fw->written + len >= fw->power_loss_at) {
		len = fw->power_loss_at - min(fw->power_loss_at, fw->written);
		fw->crc = crc32_le(fw->crc, p, len);
		fw->written += len;
		fw->power_loss_at = 0;
		pciesw_fw_flash_cut(sw);
		*why = "power lost mid-flash: partition invalid, the running image is intact";
		return -EIO;
	}
	fw->crc = crc32_le(fw->crc, p, len);
	fw->written += len;
	return 0;
}

/*
 * Finish the write: the partition is valid, and a reset boots it, when
 * every byte landed and the CRC of what landed matches the header's.
 */
int pciesw_fw_flash_end(struct pciesw_switch *sw, const char **why)
{
	struct pciesw_fw *fw = &sw->fw;
	struct pciesw_fw_part *p = &fw->parts[!fw->running];

	lockdep_assert_held(&sw->lock);
	if (!fw->flashing)
		return 0;
	if (fw->written != fw->image.len) {
		pciesw_fw_flash_cut(sw);
		*why = "firmware flash ended before the whole image was written";
		return -EIO;
	}
	if ((fw->crc ^ ~0U) != fw->image.crc) {
		pciesw_fw_flash_cut(sw);
		*why = "firmware written to the partition fails its CRC-32 check";
		return -EIO;
	}
	p->state = PCIESW_FW_STATE_VALID;
	p->version = fw->image.version;
	p->build_time = fw->image.build_time;
	p->len = fw->image.len;
	p->crc = fw->image.crc;
	fw->flashing = false;
	fw->pending = true;
	fw->image.payload = NULL;
	pciesw_fw_changed(sw);
	return 0;
}

/* Boot partition @part: the links retrain on the new firmware. */
static void pciesw_fw_boot(struct pciesw_switch *sw, unsigned int part)
{
	struct pciesw_fw *fw = &sw->fw;
	struct pciesw_port *port;

	fw->running = part;
	fw->pending = false;
	fw->boots++;
	pciesw_for_each_port(sw, port)
		if (pciesw_link_active(port) &&
		    port->link.goal == PCIESW_LINK_IDLE)
			pciesw_link_start(port, PCIESW_LINK_RETRAIN);
	pciesw_vpd_update(sw);
	pciesw_fw_changed(sw);
}

int pciesw_fw_check_activate(struct pciesw_switch *sw, const char **why)
{
	int err = pciesw_switch_live(sw, why);

	lockdep_assert_held(&sw->lock);
	if (err)
		return err;
	if (sw->fw.flashing) {
		*why = "a firmware flash is in progress";
		return -EBUSY;
	}
	return 0;
}

/*
 * Boot the other partition.  When it holds no valid image the boot falls
 * back to the running one: the switch still resets, and -ENOEXEC with
 * @why says so.
 */
int pciesw_fw_activate(struct pciesw_switch *sw, const char **why)
{
	struct pciesw_fw *fw = &sw->fw;
	unsigned int other = !fw->running;
	int err = pciesw_fw_check_activate(sw, why);

	if (err)
		return err;
	if (fw->parts[other].state != PCIESW_FW_STATE_VALID) {
		pciesw_fw_boot(sw, fw->running);
		*why = other ? "partition B holds no valid image: fell back to partition A" :
			       "partition A holds no valid image: fell back to partition B";
		return -ENOEXEC;
	}
	pciesw_fw_boot(sw, other);
	return 0;
}

/* A hot reset of the upstream port boots a newly written image. */
void pciesw_fw_reset(struct pciesw_switch *sw)
{
	lockdep_assert_held(&sw->lock);
	if (sw->fw.pending && !sw->fw.flashing)
		pciesw_fw_boot(sw, !sw->fw.running);
}

void pciesw_fw_set_power_loss(struct pciesw_switch *sw, u32 at)
{
	lockdep_assert_held(&sw->lock);
	sw->fw.power_loss_at = at;
}
