// SPDX-License-Identifier: GPL-2.0
/*
 * Vital Product Data: the card's VPD image in the PCI VPD format (PCI Local
 * Bus 3.0 section 6.4, PCIe Base 6.0 section 6.27) that lspci decodes:
 *
 *   0x82 identifier string (the product name)
 *   0x90 VPD-R: PN EC SN MN V0 (running firmware, firmware.c) V1 (batch)
 *        V2 (configuration) RV
 *   0x91 VPD-W: YA (asset tag), Yx (system fields), RW (the free space)
 *   0x78 end
 *
 * The RV checksum byte makes the 8-bit sum of every byte from offset 0
 * through itself zero.  VPD-W has a fixed size, so a VPD-W write never moves
 * VPD-R and VPD-R (regenerated when the configuration changes) never moves
 * VPD-W.  Everything here runs with sw->lock held.
 */

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "model/event.h"
#include "model/pciesw.h"

#define VPD_TAG_ID	0x82
#define VPD_TAG_RO	0x90
#define VPD_TAG_RW	0x91
#define VPD_TAG_END	0x78
#define VPD_LARGE_HDR	3	/* tag, 16-bit little-endian length */
#define VPD_FIELD_HDR	3	/* two keyword characters, 8-bit length */

/* What a card of this model reports; the firmware is what it "runs". */
#define PCIESW_VPD_EC		"A2"
#define PCIESW_VPD_MN		"1103"	/* HighPoint's PCI vendor id */

struct pciesw_vpd_w_field {
	char keyword[2];
	u8 len;
	const u8 *value;
};

static unsigned int vpd_put_large(u8 *p, u8 tag, unsigned int len)
{
	p[0] = tag;
	p[1] = len & 0xff;
	p[2] = len >> 8;
	return VPD_LARGE_HDR;
}

static unsigned int vpd_put_field(u8 *p, const char *kw, const void *value,
				  size_t len)
{
	len = min_t(size_t, len, PCIESW_VPD_VALUE_MAX);
	p[0] = kw[0];
	p[1] = kw[1];
	p[2] = len;
	memcpy(p + VPD_FIELD_HDR, value, len);
	return VPD_FIELD_HDR + len;
}

static unsigned int vpd_put_string(u8 *p, const char *kw, const char *s)
{
	return vpd_put_field(p, kw, s, strlen(s));
}

/* V2: every lane group and its bifurcation, "host:1x16 gpu:1x16 ..." */
static void pciesw_vpd_config(struct pciesw_switch *sw, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int g;

	buf[0] = '\0';
	for (g = 0; g < sw->nr_groups && off < len; g++) {
		const struct pciesw_group *grp = &sw->groups[g];
		char cfg[16];

		pciesw_group_config_name(grp->desc, grp->config, cfg,
					 sizeof(cfg));
		off += scnprintf(buf + off, len - off, "%s%s:%s",
				 g ? " " : "", grp->desc->name, cfg);
	}
}

/*
 * Write the whole image from the model and the stored VPD-W fields.  The
 * sizes are bounded (PCIESW_VPD_MAX, checked against the profiles by
 * pciesw_profiles_check()), so this cannot overflow.
 */
static void pciesw_vpd_build(struct pciesw_switch *sw)
{
	struct pciesw_vpd *vpd = &sw->vpd;
	const struct pciesw_profile *prof = sw->profile;
	char config[PCIESW_VPD_VALUE_MAX + 1], batch[24];
	char fw[PCIESW_FW_VERSION_LEN];
	unsigned int off = 0, ro, rv, pad, i;
	u8 *p = vpd->image;
	u8 sum = 0;

	memset(vpd->image, 0, sizeof(vpd->image));
	off += vpd_put_large(p, VPD_TAG_ID, strlen(prof->description));
	memcpy(p + off, prof->description, strlen(prof->description));
	off += strlen(prof->description);

	/* batches of 8 cards: stable for a switch id, like the serial */
	snprintf(batch, sizeof(batch), "PB2611-%03u", sw->id / 8);
	pciesw_vpd_config(sw, config, sizeof(config));
	pciesw_fw_version_str(pciesw_fw_running_version(sw), fw, sizeof(fw));
	ro = off;
	off += VPD_LARGE_HDR;
	off += vpd_put_string(p + off, "PN", prof->part_number);
	off += vpd_put_string(p + off, "EC", PCIESW_VPD_EC);
	off += vpd_put_string(p + off, "SN", sw->serial);
	off += vpd_put_string(p + off, "MN", PCIESW_VPD_MN);
	off += vpd_put_string(p + off, "V0", fw);
	off += vpd_put_string(p + off, "V1", batch);
	off += vpd_put_string(p + off, "V2", config);
	/* RV: the checksum, then zeros so that VPD-W starts dword aligned */
	rv = off;
	pad = (4 - (rv + VPD_FIELD_HDR + 1) % 4) % 4;
	p[rv] = 'R';
	p[rv + 1] = 'V';
	p[rv + 2] = 1 + pad;
	off = rv + VPD_FIELD_HDR + 1 + pad;
	vpd_put_large(p + ro, VPD_TAG_RO, off - ro - VPD_LARGE_HDR);
	for (i = 0; i < rv + VPD_FIELD_HDR; i++)
		sum += p[i];
	p[rv + VPD_FIELD_HDR] = -sum;

	off += vpd_put_large(p + off, VPD_TAG_RW, PCIESW_VPD_W_SIZE);
	memcpy(p + off, vpd->w, vpd->w_len);
	off += vpd->w_len;
	/* RW: the rest of VPD-W, free for new or longer fields */
	p[off] = 'R';
	p[off + 1] = 'W';
	p[off + 2] = PCIESW_VPD_W_SIZE - vpd->w_len - VPD_FIELD_HDR;
	off += PCIESW_VPD_W_SIZE - vpd->w_len;
	p[off++] = VPD_TAG_END;
	vpd->len = off;
}

void pciesw_vpd_init(struct pciesw_switch *sw)
{
	struct pciesw_vpd *vpd = &sw->vpd;

	/* a new card has an empty asset tag */
	vpd->w_len = vpd_put_field(vpd->w, "YA", "", 0);
	pciesw_vpd_build(sw);
}

static void pciesw_vpd_changed(struct pciesw_switch *sw)
{
	struct pciesw_event ev = { .type = PCIESW_EV_VPD_CHANGE, .sw = sw };

	pciesw_event(&ev);
}

/* VPD-R follows the configuration (V2). */
void pciesw_vpd_update(struct pciesw_switch *sw)
{
	lockdep_assert_held(&sw->lock);
	pciesw_vpd_build(sw);
	pciesw_vpd_changed(sw);
}

ssize_t pciesw_vpd_read(struct pciesw_switch *sw, void *buf, loff_t off,
			size_t count)
{
	lockdep_assert_held(&sw->lock);
	if (off < 0)
		return -EINVAL;
	if (off >= sw->vpd.len)
		return 0;
	count = min_t(size_t, count, sw->vpd.len - off);
	memcpy(buf, sw->vpd.image + off, count);
	return count;
}

unsigned int pciesw_vpd_len(struct pciesw_switch *sw)
{
	lockdep_assert_held(&sw->lock);
	return sw->vpd.len;
}

/*
 * Walk the image: copy the identifier string into @id (when @id is set),
 * or the @idx-th text field into @f (RV and RW are not text).
 */
static int pciesw_vpd_walk(const struct pciesw_vpd *vpd, char *id,
			   size_t id_len, unsigned int idx,
			   struct pciesw_vpd_field *f)
{
	const u8 *p = vpd->image;
	unsigned int off = 0, q, end;

	for (; off + VPD_LARGE_HDR <= vpd->len && p[off] != VPD_TAG_END;
	     off = end) {
		u8 tag = p[off];

		q = off + VPD_LARGE_HDR;
		end = q + (p[off + 1] | p[off + 2] << 8);
		if (tag == VPD_TAG_ID) {
			if (!id)
				continue;
			end = min_t(size_t, end - q, id_len - 1);
			memcpy(id, p + q, end);
			id[end] = '\0';
			return 0;
		}
		if (id)
			continue;
		for (; q + VPD_FIELD_HDR <= end; q += VPD_FIELD_HDR + p[q + 2]) {
			if (p[q] == 'R' && (p[q + 1] == 'V' || p[q + 1] == 'W'))
				continue;
			if (idx--)
				continue;
			f->keyword[0] = p[q];
			f->keyword[1] = p[q + 1];
			f->keyword[2] = '\0';
			f->writable = tag == VPD_TAG_RW;
			f->len = p[q + 2];
			memcpy(f->value, p + q + VPD_FIELD_HDR, f->len);
			f->value[f->len] = '\0';
			return 0;
		}
	}
	return -ENOENT;
}

void pciesw_vpd_id_string(struct pciesw_switch *sw, char *buf, size_t len)
{
	lockdep_assert_held(&sw->lock);
	if (pciesw_vpd_walk(&sw->vpd, buf, len, 0, NULL))
		buf[0] = '\0';
}

int pciesw_vpd_field(struct pciesw_switch *sw, unsigned int idx,
		     struct pciesw_vpd_field *f)
{
	lockdep_assert_held(&sw->lock);
	return pciesw_vpd_walk(&sw->vpd, NULL, 0, idx, f);
}

int pciesw_vpd_find(struct pciesw_switch *sw, const char *keyword,
		    struct pciesw_vpd_field *f)
{
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	for (i = 0; !pciesw_vpd_walk(&sw->vpd, NULL, 0, i, f); i++)
		if (!strcmp(f->keyword, keyword))
			return 0;
	return -ENOENT;
}

unsigned int pciesw_vpd_rw_free(struct pciesw_switch *sw)
{
	lockdep_assert_held(&sw->lock);
	return PCIESW_VPD_W_SIZE - sw->vpd.w_len - VPD_FIELD_HDR;
}

/* YA first, then the Yx fields in keyword order: one layout per content. */
static int pciesw_vpd_w_cmp(const void *a, const void *b)
{
	const struct pciesw_vpd_w_field *x = a, *y = b;
	bool xa = x->keyword[1] == 'A', ya = y->keyword[1] == 'A';

	if (xa != ya)
		return xa ? -1 : 1;
	return memcmp(x->keyword, y->keyword, 2);
}

/* YA (asset tag) and Y0-Y9, YB-YZ (system fields) are VPD-W's fields. */
static bool pciesw_vpd_w_keyword(const char *kw)
{
	return kw[0] == 'Y' && (isdigit(kw[1]) || isupper(kw[1]));
}

int pciesw_vpd_set(struct pciesw_switch *sw, const char *keyword,
		   const char *value, const char **why)
{
	struct pciesw_vpd_w_field *fields;
	struct pciesw_vpd *vpd = &sw->vpd;
	size_t vlen = strlen(value);
	unsigned int n = 0, i, q, len = 0;
	struct pciesw_vpd_field f;
	u8 w[PCIESW_VPD_W_SIZE];
	bool found = false;
	int err;

	lockdep_assert_held(&sw->lock);
	err = pciesw_switch_live(sw, why);
	if (err)
		return err;
	if (strlen(keyword) != 2 ||
	    !(isupper(keyword[0]) || isdigit(keyword[0])) ||
	    !(isupper(keyword[1]) || isdigit(keyword[1]))) {
		*why = "a VPD keyword is two characters, A-Z or 0-9";
		return -EINVAL;
	}
	if (!strcmp(keyword, "RV")) {
		*why = "VPD-R fields are read-only";
		return -EROFS;
	}
	if (!strcmp(keyword, "RW")) {
		*why = "RW is the free space of VPD-W, not a field";
		return -EINVAL;
	}
	if (!pciesw_vpd_find(sw, keyword, &f) && !f.writable) {
		*why = "VPD-R fields are read-only";
		return -EROFS;
	}
	if (!pciesw_vpd_w_keyword(keyword)) {
		*why = "only YA and Y0-Y9, YB-YZ can be written";
		return -EINVAL;
	}
	for (i = 0; i < vlen; i++) {
		if (value[i] < 0x20 || value[i] > 0x7e) {
			*why = "a VPD value must be printable ASCII";
			return -EINVAL;
		}
	}
	if (vlen > PCIESW_VPD_VALUE_MAX) {
		*why = "a VPD value is at most 255 bytes";
		return -EINVAL;
	}

	/* off the stack: with the image it is more than a frame should hold */
	fields = kmalloc_array(PCIESW_VPD_W_SIZE / VPD_FIELD_HDR,
			       sizeof(*fields), GFP_KERNEL);
	if (!fields) {
		*why = "no memory";
		return -ENOMEM;
	}
	/* the current fields with this one replaced, added or removed */
	for (q = 0; q < vpd->w_len; q += VPD_FIELD_HDR + vpd->w[q + 2]) {
		struct pciesw_vpd_w_field *e = &fields[n];

		memcpy(e->keyword, vpd->w + q, 2);
		e->len = vpd->w[q + 2];
		e->value = vpd->w + q + VPD_FIELD_HDR;
		if (!memcmp(e->keyword, keyword, 2)) {
			found = true;
			/* "" removes a Yx field; YA stays, empty */
			if (!vlen && keyword[1] != 'A')
				continue;
			e->len = vlen;
			e->value = value;
		}
		n++;
	}
	if (!found && vlen) {
		memcpy(fields[n].keyword, keyword, 2);
		fields[n].len = vlen;
		fields[n].value = value;
		n++;
	}
	for (i = 0; i < n; i++)
		len += VPD_FIELD_HDR + fields[i].len;
	/* RW's header must still fit */
	if (len > PCIESW_VPD_W_SIZE - VPD_FIELD_HDR) {
		kfree(fields);
		*why = "not enough room in VPD-W";
		return -ENOSPC;
	}
	sort(fields, n, sizeof(fields[0]), pciesw_vpd_w_cmp, NULL);
	for (i = 0, q = 0; i < n; i++)
		q += vpd_put_field(w + q, fields[i].keyword, fields[i].value,
				   fields[i].len);
	kfree(fields);

	memcpy(vpd->w, w, q);
	vpd->w_len = q;
	pciesw_vpd_build(sw);
	pciesw_vpd_changed(sw);
	return 0;
}

/*
 * Where VPD-W's fields are in the image: from just after its tag to the
 * RW field (fixed size, so they never move: see the top of the file).
 */
static unsigned int pciesw_vpd_w_start(const struct pciesw_vpd *vpd)
{
	return vpd->len - 1 - PCIESW_VPD_W_SIZE;
}

/**
 * pciesw_vpd_write - write bytes of the image, as VPD through config space
 * @sw: the switch, sw->lock held
 * @off: offset in the image
 * @buf: the bytes
 * @len: how many, at most 4 (one VPD data register)
 * @why: set to a static message on failure
 *
 * The rules are pciesw_vpd_set()'s, byte by byte: only the values of the
 * VPD-W fields can change, to printable ASCII; a byte written with the
 * value it has is accepted anywhere in the image (a dword that spans a
 * field's header), any other change is refused and nothing is written.
 */
int pciesw_vpd_write(struct pciesw_switch *sw, unsigned int off,
		     const u8 *buf, unsigned int len, const char **why)
{
	struct pciesw_vpd *vpd = &sw->vpd;
	unsigned int start, i, q;
	bool changed = false;
	int err;

	lockdep_assert_held(&sw->lock);
	err = pciesw_switch_live(sw, why);
	if (err)
		return err;
	if (len > 4 || off >= vpd->len || len > vpd->len - off) {
		*why = "beyond the end of the VPD";
		return -EINVAL;
	}
	start = pciesw_vpd_w_start(vpd);
	for (i = 0; i < len; i++) {
		unsigned int a = off + i;
		bool value = false;

		if (vpd->image[a] == buf[i])
			continue;
		if (a < start) {
			*why = "VPD-R fields are read-only";
			return -EROFS;
		}
		for (q = 0; q < vpd->w_len; q += VPD_FIELD_HDR + vpd->w[q + 2])
			if (a >= start + q + VPD_FIELD_HDR &&
			    a < start + q + VPD_FIELD_HDR + vpd->w[q + 2])
				value = true;
		if (!value) {
			*why = "only the values of VPD-W fields can be written";
			return -EINVAL;
		}
		if (buf[i] < 0x20 || buf[i] > 0x7e) {
			*why = "a VPD value must be printable ASCII";
			return -EINVAL;
		}
		changed = true;
	}
	if (!changed)
		return 0;
	for (i = 0; i < len; i++)
		if (off + i >= start && off + i < start + vpd->w_len)
			vpd->w[off + i - start] = buf[i];
	pciesw_vpd_build(sw);
	pciesw_vpd_changed(sw);
	return 0;
}
