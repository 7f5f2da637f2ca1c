// SPDX-License-Identifier: GPL-2.0
/*
 * The card's VPD: the raw image (sysfs "vpd" binary file and netlink
 * vpd-image) parsed here the way lspci parses a PCI device's VPD (0x82
 * identifier string, 0x90 VPD-R, 0x91 VPD-W, 0x78 end; two-character
 * keywords with 8-bit lengths; RV: the 8-bit sum of every byte from offset
 * 0 through the RV checksum byte is 0; RW last in VPD-W), the decoded
 * fields against vpd_info/ and netlink vpd-field, serial numbers unique
 * and stable, V2 following re-bifurcation, VPD-W writes (YA asset tag, Yx)
 * and every refused write leaving the image byte-identical, unprivileged
 * access, readers racing writers never seeing a torn image.
 *
 * Switch ids used here: 80-89.
 */
#include <pthread.h>

#include "pciesw_topo.h"

#define ID		80U
#define ID_A		81U	/* extra switches: serial numbers */
#define ID_B		82U
#define ID_C		83U
#define VPD_W_SIZE	128	/* VPD-W data area: fields + RW */

/* ------------------------------------------------------------------ */
/* The parser                                                          */

#define VPD_MAX_FIELDS	48

struct vpd_field {
	char kw[3];
	char val[256];
	unsigned int off;	/* of the keyword */
	unsigned int len;	/* of the value */
	bool writable;		/* in VPD-W */
};

struct vpd_img {
	char id[256];
	unsigned int nf;
	struct vpd_field f[VPD_MAX_FIELDS];
	unsigned int ro_off, ro_end;	/* VPD-R tag .. end of its data */
	unsigned int w_off, w_end;	/* VPD-W tag .. end of its data */
	unsigned int rv_csum;		/* offset of the checksum byte */
	unsigned int rw_len;		/* RW data bytes */
	bool has_w;
};

static bool vpd_kw_ok(const uint8_t *k)
{
	return ((k[0] >= 'A' && k[0] <= 'Z') || (k[0] >= '0' && k[0] <= '9')) &&
	       ((k[1] >= 'A' && k[1] <= 'Z') || (k[1] >= '0' && k[1] <= '9'));
}

/*
 * Parse @b (@len bytes, the whole image) like lspci: NULL when it is a
 * well-formed image with a correct RV checksum, else what is wrong.
 */
static const char *vpd_parse(const uint8_t *b, unsigned int len,
			     struct vpd_img *v)
{
	unsigned int off = 0, i;
	uint8_t sum = 0;
	bool seen_ro = false, rv = false;

	memset(v, 0, sizeof(*v));
	if (len < 3 || b[0] != 0x82)
		return "does not start with the 0x82 identifier string";
	off = 3 + (b[1] | b[2] << 8);
	if (off > len)
		return "identifier string overruns the image";
	for (i = 3; i < off; i++)
		if (b[i] < 0x20 || b[i] > 0x7e)
			return "identifier string not printable";
	memcpy(v->id, b + 3, off - 3 < 255 ? off - 3 : 255);

	while (off < len && b[off] != 0x78) {
		uint8_t tag = b[off];
		unsigned int q, end;

		if (off + 3 > len)
			return "truncated large resource header";
		if (tag != 0x90 && tag != 0x91)
			return "unknown resource tag";
		if (tag == 0x90 && (seen_ro || v->has_w))
			return "VPD-R twice or after VPD-W";
		if (tag == 0x91 && (!seen_ro || v->has_w))
			return "VPD-W before VPD-R or twice";
		q = off + 3;
		end = q + (b[off + 1] | b[off + 2] << 8);
		if (end > len)
			return "resource overruns the image";
		if (tag == 0x90) {
			seen_ro = true;
			v->ro_off = off;
			v->ro_end = end;
		} else {
			v->has_w = true;
			v->w_off = off;
			v->w_end = end;
		}
		while (q < end) {
			unsigned int fl;
			struct vpd_field *f;

			if (q + 3 > end)
				return "truncated field header";
			if (!vpd_kw_ok(b + q))
				return "bad keyword";
			fl = b[q + 2];
			if (q + 3 + fl > end)
				return "field overruns its resource";
			if (b[q] == 'R' && b[q + 1] == 'V') {
				if (tag != 0x90)
					return "RV outside VPD-R";
				if (!fl)
					return "RV without checksum byte";
				if (q + 3 + fl != end)
					return "RV is not the last VPD-R field";
				v->rv_csum = q + 3;
				rv = true;
			} else if (b[q] == 'R' && b[q + 1] == 'W') {
				if (tag != 0x91)
					return "RW outside VPD-W";
				if (q + 3 + fl != end)
					return "RW is not the last VPD-W field";
				v->rw_len = fl;
			} else {
				if (v->nf >= VPD_MAX_FIELDS)
					return "too many fields";
				f = &v->f[v->nf++];
				f->kw[0] = b[q];
				f->kw[1] = b[q + 1];
				f->off = q;
				f->len = fl;
				f->writable = tag == 0x91;
				for (i = 0; i < fl; i++) {
					if (b[q + 3 + i] < 0x20 ||
					    b[q + 3 + i] > 0x7e)
						return "field value not printable";
					f->val[i] = b[q + 3 + i];
				}
			}
			q += 3 + fl;
		}
		off = end;
	}
	if (off >= len)
		return "no 0x78 end tag";
	if (off + 1 != len)
		return "bytes after the end tag";
	if (!seen_ro || !rv)
		return "no VPD-R with RV";
	for (i = 0; i <= v->rv_csum; i++)
		sum += b[i];
	if (sum)
		return "RV checksum: bytes 0..RV do not sum to 0";
	return NULL;
}

static const struct vpd_field *vpd_get(const struct vpd_img *v,
				       const char *kw)
{
	unsigned int i;

	for (i = 0; i < v->nf; i++)
		if (!strcmp(v->f[i].kw, kw))
			return &v->f[i];
	return NULL;
}

/* The value of field @kw, "<missing>" when there is none. */
static const char *vpd_val(const struct vpd_img *v, const char *kw)
{
	const struct vpd_field *f = vpd_get(v, kw);

	return f ? f->val : "<missing>";
}

/* ------------------------------------------------------------------ */
/* Reading it                                                          */

struct vpd_raw {
	unsigned int len;
	uint8_t b[2048];
};

/* The sysfs vpd file in one read(); 0 or -errno. */
static int vpd_sysfs(unsigned int id, struct vpd_raw *r)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), PCIESW_DEVS "/pciesw%u/vpd", id);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, r->b, sizeof(r->b));
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	r->len = n;
	/* nothing more: one read had it all */
	n = read(fd, r->b + r->len, sizeof(r->b) - r->len);
	close(fd);
	return n == 0 ? 0 : -EFBIG;
}

/* netlink vpd-get of switch @id; the object in @o. */
static int vpd_nl(struct pnl *p, unsigned int id, struct pnl_obj *o)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id), A_END };
	struct pnl_reply r;
	int err = tp_do(p, PCIESW_CMD_VPD_GET, req, &r);

	if (!err && r.nobjs != 1)
		err = -EPROTO;
	if (!err)
		*o = r.objs[0];
	pnl_reply_free(&r);
	return err;
}

static int vpd_set(struct pnl *p, unsigned int id, const char *kw,
		   const char *val, struct pnl_reply *r)
{
	struct pnl_attr req[] = { A_U32(PCIESW_A_SWITCH_ID, id),
				  A_STR(PCIESW_A_VPD_KEYWORD, kw),
				  A_STR(PCIESW_A_VPD_VALUE, val), A_END };

	return tp_do(p, PCIESW_CMD_VPD_SET, req, r);
}

static int vpd_set1(struct pnl *p, unsigned int id, const char *kw,
		    const char *val)
{
	struct pnl_reply r;
	int err = vpd_set(p, id, kw, val, &r);

	pnl_reply_free(&r);
	return err;
}

/* The V2 value of a profile's default bifurcation. */
static void exp_v2(const struct exp_profile *e, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int g;

	buf[0] = '\0';
	for (g = 0; g < e->nr_groups; g++)
		off += snprintf(buf + off, len - off, "%s%s:%s", g ? " " : "",
				e->groups[g].name, e->groups[g].config);
}

/* vpd-change-ntf of switch @id among @r's objects */
static unsigned int nr_vpd_ntf(const struct pnl_reply *r, unsigned int id)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nobjs; i++)
		if (r->objs[i].cmd == PCIESW_CMD_VPD_CHANGE_NTF &&
		    r->objs[i].u[PCIESW_A_SWITCH_ID] == id)
			n++;
	return n;
}

/* Drain the monitor socket. */
static void mon_drain(struct pnl *mon)
{
	struct pnl_reply r;

	pnl_reply_init(&r);
	pnl_recv_ntf(mon, 50, &r);
	pnl_reply_free(&r);
}

/* ------------------------------------------------------------------ */

FIXTURE(vpd)
{
	struct pnl p, mon;
	const struct exp_profile *exp;
	struct vpd_raw raw;
	struct vpd_img img;
};

FIXTURE_VARIANT(vpd)
{
	const char *profile;
};

FIXTURE_VARIANT_ADD(vpd, pex89048) { .profile = "pex89048" };
FIXTURE_VARIANT_ADD(vpd, pex89144) { .profile = "pex89144" };
FIXTURE_VARIANT_ADD(vpd, tiny8) { .profile = "tiny8" };

FIXTURE_SETUP(vpd)
{
	const char *why;

	ASSERT_TRUE(pciesw_present())
		TH_LOG("pciesw is not loaded (the runner loads it)");
	self->exp = exp_profile(variant->profile);
	ASSERT_NE(NULL, self->exp);
	ASSERT_EQ(0, pnl_open(&self->p));
	ASSERT_EQ(0, tp_open_monitor(&self->mon));
	ASSERT_EQ(0, tp_switch_fresh(&self->p, ID, variant->profile));
	ASSERT_EQ(0, vpd_sysfs(ID, &self->raw));
	why = vpd_parse(self->raw.b, self->raw.len, &self->img);
	ASSERT_EQ(NULL, why) TH_LOG("image of pciesw%u: %s", ID, why);
	mon_drain(&self->mon);
}

FIXTURE_TEARDOWN(vpd)
{
	unsigned int ids[] = { ID, ID_A, ID_B, ID_C }, i;

	pnl_close(&self->mon);
	pnl_close(&self->p);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (sw_exists(ids[i]))
			sw_del(ids[i]);
}

/* The image as created: layout, fields, all views agree. */
TEST_F(vpd, image)
{
	static const char *const ro[] = { "PN", "EC", "SN", "MN", "V0", "V1",
					  "V2" };
	static const struct { const char *file, *kw; } info[] = {
		{ "part_number", "PN" }, { "engineering_change", "EC" },
		{ "serial_number", "SN" }, { "manufacturer_id", "MN" },
		{ "firmware_version", "V0" }, { "batch", "V1" },
		{ "config", "V2" }, { "asset_tag", "YA" },
	};
	const struct vpd_img *v = &self->img;
	char buf[300], path[64], v2[256];
	struct pnl_obj o;
	unsigned int i, k;

	/* netlink has the same bytes */
	ASSERT_EQ(0, vpd_nl(&self->p, ID, &o));
	EXPECT_EQ(0, o.bad_type);
	EXPECT_EQ(0, pnl_not_in_spec(&o, PCIESW_CMD_VPD_GET, false));
	ASSERT_EQ(self->raw.len, o.bin_len);
	EXPECT_EQ(0, memcmp(self->raw.b, o.bin, o.bin_len));

	/* identifier string: the profile's description */
	ASSERT_EQ(0, sw_attr(ID, "description", buf, sizeof(buf)));
	EXPECT_STREQ(buf, v->id);
	EXPECT_STREQ(v->id, o.s[PCIESW_A_VPD_ID_STRING]);

	/* VPD-R: PN EC SN MN V0 V1 V2 in this order, then RV */
	ASSERT_LE(7U, v->nf);
	for (i = 0; i < 7; i++) {
		EXPECT_STREQ(ro[i], v->f[i].kw);
		EXPECT_FALSE(v->f[i].writable);
		EXPECT_LT(0U, v->f[i].len) TH_LOG("%s empty", ro[i]);
	}
	ASSERT_EQ(0, sw_attr(ID, "part_number", buf, sizeof(buf)));
	EXPECT_STREQ(buf, vpd_val(v, "PN"));
	ASSERT_EQ(0, sw_attr(ID, "serial_number", buf, sizeof(buf)));
	EXPECT_STREQ(buf, vpd_val(v, "SN"));
	exp_v2(self->exp, v2, sizeof(v2));
	EXPECT_STREQ(v2, vpd_val(v, "V2"));
	/* VPD-R's length makes VPD-W start dword-aligned (RV padding) */
	EXPECT_EQ(0U, v->ro_end % 4);

	/* VPD-W: YA (empty on a new card) first, RW last; fixed size */
	ASSERT_TRUE(v->has_w);
	ASSERT_EQ(8U, v->nf);
	EXPECT_STREQ("YA", v->f[7].kw);
	EXPECT_TRUE(v->f[7].writable);
	EXPECT_EQ(0U, v->f[7].len);
	EXPECT_EQ((unsigned int)VPD_W_SIZE, v->w_end - v->w_off - 3);
	EXPECT_EQ(VPD_W_SIZE - 3 - 3U, v->rw_len);
	EXPECT_EQ(v->rw_len, o.u[PCIESW_A_VPD_RW_FREE]);
	EXPECT_TRUE(pnl_has(&o, PCIESW_A_VPD_RW_FREE));

	/* netlink fields: the text fields in image order */
	ASSERT_EQ(v->nf, o.nr_vpd);
	for (i = 0; i < v->nf && i < o.nr_vpd; i++) {
		EXPECT_TRUE(o.vpd[i].has_kw && o.vpd[i].has_value &&
			    o.vpd[i].has_writable);
		EXPECT_STREQ(v->f[i].kw, o.vpd[i].kw);
		EXPECT_STREQ(v->f[i].val, o.vpd[i].value);
		EXPECT_EQ(v->f[i].writable, !!o.vpd[i].writable);
	}

	/* vpd_info/ */
	ASSERT_EQ(0, sw_attr(ID, "vpd_info/id_string", buf, sizeof(buf)));
	EXPECT_STREQ(v->id, buf);
	for (k = 0; k < sizeof(info) / sizeof(info[0]); k++) {
		snprintf(path, sizeof(path), "vpd_info/%s", info[k].file);
		EXPECT_EQ(0, sw_attr(ID, path, buf, sizeof(buf)))
			TH_LOG("%s", path);
		EXPECT_STREQ(vpd_val(v, info[k].kw), buf)
			TH_LOG("%s", path);
	}
}

/* A dump has one object per switch, the same as the do. */
TEST_F(vpd, dump)
{
	struct pnl_attr one[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	unsigned int ids[300], i, n;
	struct pnl_reply r;
	int nsw;

	nsw = sysfs_switch_ids(ids, 300);
	ASSERT_LT(0, nsw);
	ASSERT_EQ(0, tp_call(&self->p, PCIESW_CMD_VPD_GET, true, NULL, &r));
	EXPECT_EQ((unsigned int)nsw, r.nobjs);
	for (i = 0, n = 0; i < r.nobjs; i++) {
		struct vpd_img v;

		EXPECT_EQ(NULL, vpd_parse(r.objs[i].bin, r.objs[i].bin_len,
					  &v));
		EXPECT_EQ(0, pnl_not_in_spec(&r.objs[i], PCIESW_CMD_VPD_GET,
					     true));
		if (r.objs[i].u[PCIESW_A_SWITCH_ID] == ID) {
			n++;
			EXPECT_EQ(self->raw.len, r.objs[i].bin_len);
			EXPECT_EQ(0, memcmp(self->raw.b, r.objs[i].bin,
					    self->raw.len));
		}
	}
	EXPECT_EQ(1U, n);
	pnl_reply_free(&r);
	ASSERT_EQ(0, tp_call(&self->p, PCIESW_CMD_VPD_GET, true, one, &r));
	EXPECT_EQ(1U, r.nobjs);
	pnl_reply_free(&r);
}

/* Serial numbers: unique per switch, stable for an id. */
/* three cards made and one remade: 144-lane ones are slow on the debug kernel */
TEST_F_TIMEOUT(vpd, serial, 240)
{
	const unsigned int ids[] = { ID, ID_A, ID_B, ID_C };
	char sn[4][256];
	struct vpd_raw raw, again;
	struct vpd_img v;
	unsigned int i, j;

	for (i = 1; i < 4; i++)
		ASSERT_EQ(0, tp_switch_fresh(&self->p, ids[i],
					     self->exp->name));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, vpd_sysfs(ids[i], &raw));
		ASSERT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
		ASSERT_NE(NULL, vpd_get(&v, "SN"));
		snprintf(sn[i], sizeof(sn[i]), "%s", vpd_val(&v, "SN"));
		EXPECT_LT(0U, strlen(sn[i]));
		for (j = 0; j < i; j++)
			EXPECT_STRNE(sn[j], sn[i]);
	}
	/* ID_B again: the same serial, the same image */
	ASSERT_EQ(0, vpd_sysfs(ID_B, &raw));
	ASSERT_EQ(0, sw_del(ID_B));
	ASSERT_EQ(0, sw_new(ID_B, self->exp->name));
	ASSERT_EQ(0, vpd_sysfs(ID_B, &again));
	ASSERT_EQ(NULL, vpd_parse(again.b, again.len, &v));
	EXPECT_STREQ(sn[2], vpd_val(&v, "SN"));
	EXPECT_EQ(raw.len, again.len);
	EXPECT_EQ(0, memcmp(raw.b, again.b, raw.len));
}

/*
 * V2 follows every bifurcation of the last group; the checksum stays
 * right, VPD-W (with an asset tag) is untouched, a vpd-change-ntf is sent.
 */
TEST_F(vpd, v2_follows_bifurcation)
{
	const struct exp_group *g = &self->exp->groups[self->exp->nr_groups - 1];
	struct pnl_reply r, ntf;
	struct vpd_raw before, raw;
	struct vpd_img v;
	struct pnl_obj o;
	char buf[300];
	unsigned int a;

	ASSERT_EQ(0, vpd_set1(&self->p, ID, "YA", "keep-me"));
	ASSERT_EQ(0, vpd_sysfs(ID, &before));
	ASSERT_EQ(NULL, vpd_parse(before.b, before.len, &self->img));
	mon_drain(&self->mon);
	/* every allowed config, then back to the default */
	for (a = 0; a < 7; a++) {
		const char *cfg = a < 6 ? g->allowed[a] : g->config;
		char v2[256], *at;
		const char *why;

		if (!cfg)
			continue;
		ASSERT_EQ(0, tp_group_set_name(&self->p, ID, g->name, cfg, &r))
			TH_LOG("%s %s: %s", g->name, cfg, r.msg);
		pnl_reply_free(&r);
		pnl_reply_init(&ntf);
		pnl_recv_ntf(&self->mon, 300, &ntf);
		EXPECT_LE(1U, nr_vpd_ntf(&ntf, ID)) TH_LOG("%s", cfg);
		pnl_reply_free(&ntf);

		ASSERT_EQ(0, vpd_sysfs(ID, &raw));
		why = vpd_parse(raw.b, raw.len, &v);
		EXPECT_EQ(NULL, why) TH_LOG("after %s: %s", cfg, why);
		if (why)
			continue;
		exp_v2(self->exp, v2, sizeof(v2));
		at = strrchr(v2, ':');
		snprintf(at + 1, sizeof(v2) - (at + 1 - v2), "%s", cfg);
		EXPECT_STREQ(v2, vpd_val(&v, "V2"));
		/* VPD-W unchanged, byte for byte */
		EXPECT_EQ(self->img.w_end - self->img.w_off, v.w_end - v.w_off);
		EXPECT_EQ(0, memcmp(before.b + self->img.w_off, raw.b + v.w_off,
				    v.w_end - v.w_off));
		EXPECT_STREQ("keep-me", vpd_val(&v, "YA"));
		/* the other views follow */
		EXPECT_EQ(0, sw_attr(ID, "vpd_info/config", buf, sizeof(buf)));
		EXPECT_STREQ(v2, buf);
		EXPECT_EQ(0, vpd_nl(&self->p, ID, &o));
		EXPECT_EQ(raw.len, o.bin_len);
		EXPECT_EQ(0, memcmp(raw.b, o.bin, raw.len));
	}
}

/* The asset tag and Yx fields: set, replace, remove, fill VPD-W. */
TEST_F(vpd, vpd_w_writes)
{
	struct vpd_raw raw;
	struct pnl_reply r, ntf;
	struct pnl_obj o;
	struct vpd_img v;
	char big[VPD_W_SIZE + 8], buf[300];
	unsigned int free0 = self->img.rw_len;

	ASSERT_EQ(0, vpd_set(&self->p, ID, "YA", "RACK7-U12", &r));
	pnl_reply_free(&r);
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 300, &ntf);
	EXPECT_EQ(1U, nr_vpd_ntf(&ntf, ID));
	pnl_reply_free(&ntf);
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	ASSERT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
	EXPECT_STREQ("RACK7-U12", vpd_val(&v, "YA"));
	EXPECT_EQ(free0 - 9, v.rw_len);
	/* VPD-R did not move or change */
	EXPECT_EQ(self->img.ro_end, v.ro_end);
	EXPECT_EQ(0, memcmp(self->raw.b, raw.b, self->img.ro_end));
	EXPECT_EQ(self->raw.len, raw.len);
	EXPECT_EQ(0, sw_attr(ID, "vpd_info/asset_tag", buf, sizeof(buf)));
	EXPECT_STREQ("RACK7-U12", buf);
	ASSERT_EQ(0, vpd_nl(&self->p, ID, &o));
	EXPECT_EQ(free0 - 9, o.u[PCIESW_A_VPD_RW_FREE]);
	EXPECT_EQ(0, memcmp(raw.b, o.bin, raw.len));

	/* Yx fields sort after YA by keyword; "" removes them */
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "Y1", "one"));
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "Y0", "zero"));
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "YZ", "zed"));
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	ASSERT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
	ASSERT_EQ(11U, v.nf);
	EXPECT_STREQ("YA", v.f[7].kw);
	EXPECT_STREQ("Y0", v.f[8].kw);
	EXPECT_STREQ("zero", v.f[8].val);
	EXPECT_STREQ("Y1", v.f[9].kw);
	EXPECT_STREQ("YZ", v.f[10].kw);
	EXPECT_EQ(free0 - 9 - 7 - 6 - 6, v.rw_len);
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "Y1", ""));
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "Y0", ""));
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "YZ", ""));
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	ASSERT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
	EXPECT_EQ(8U, v.nf);
	EXPECT_EQ(free0 - 9, v.rw_len);

	/* an empty asset tag stays, empty */
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "YA", ""));
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	EXPECT_EQ(self->raw.len, raw.len);
	EXPECT_EQ(0, memcmp(self->raw.b, raw.b, raw.len));

	/* exactly all the room there is, then one more byte */
	memset(big, 'A', sizeof(big));
	big[free0] = '\0';
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "YA", big));
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	ASSERT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
	EXPECT_EQ(0U, v.rw_len);
	EXPECT_EQ(free0, (unsigned int)strlen(vpd_val(&v, "YA")));
	ASSERT_EQ(ENOSPC, vpd_set(&self->p, ID, "Y3", "x", &r));
	EXPECT_STREQ("not enough room in VPD-W", r.msg);
	pnl_reply_free(&r);
	big[free0] = 'A';
	big[free0 + 1] = '\0';
	ASSERT_EQ(0, vpd_set1(&self->p, ID, "YA", ""));
	ASSERT_EQ(ENOSPC, vpd_set(&self->p, ID, "YA", big, &r));
	EXPECT_STREQ("not enough room in VPD-W", r.msg);
	pnl_reply_free(&r);

	/* vpd_info/asset_tag writes YA (root), one trailing newline dropped */
	ASSERT_EQ(0, sysfs_write(PCIESW_DEVS "/pciesw80/vpd_info/asset_tag",
				 "via sysfs\n"));
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	ASSERT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
	EXPECT_STREQ("via sysfs", vpd_val(&v, "YA"));
	EXPECT_EQ(-ENOSPC, sysfs_write(PCIESW_DEVS
				       "/pciesw80/vpd_info/asset_tag", big));
	EXPECT_EQ(-EINVAL, sysfs_write(PCIESW_DEVS
				       "/pciesw80/vpd_info/asset_tag",
				       "tab\there\n"));
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	ASSERT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
	EXPECT_STREQ("via sysfs", vpd_val(&v, "YA"));
}

/* Every refused write: exact errno and message, the image unchanged. */
TEST_F(vpd, invalid_writes)
{
	static const char *const policy = "Attribute failed policy validation";
	char long256[257], nonprint[3][8];
	struct {
		const char *kw, *val;
		int err;
		const char *msg;
	} cases[] = {
		{ "PN", "X", EROFS, "VPD-R fields are read-only" },
		{ "EC", "X", EROFS, "VPD-R fields are read-only" },
		{ "SN", "X", EROFS, "VPD-R fields are read-only" },
		{ "MN", "X", EROFS, "VPD-R fields are read-only" },
		{ "V0", "X", EROFS, "VPD-R fields are read-only" },
		{ "V1", "X", EROFS, "VPD-R fields are read-only" },
		{ "V2", "host:1x8", EROFS, "VPD-R fields are read-only" },
		{ "RV", "", EROFS, "VPD-R fields are read-only" },
		{ "RW", "X", EINVAL,
		  "RW is the free space of VPD-W, not a field" },
		{ "ZZ", "X", EINVAL, "only YA and Y0-Y9, YB-YZ can be written" },
		{ "V3", "X", EINVAL, "only YA and Y0-Y9, YB-YZ can be written" },
		{ "CP", "X", EINVAL, "only YA and Y0-Y9, YB-YZ can be written" },
		{ "ya", "X", EINVAL,
		  "a VPD keyword is two characters, A-Z or 0-9" },
		{ "Yb", "X", EINVAL,
		  "a VPD keyword is two characters, A-Z or 0-9" },
		{ "Y-", "X", EINVAL,
		  "a VPD keyword is two characters, A-Z or 0-9" },
		{ "Y", "X", EINVAL,
		  "a VPD keyword is two characters, A-Z or 0-9" },
		{ "", "X", EINVAL,
		  "a VPD keyword is two characters, A-Z or 0-9" },
		{ "YAX", "X", EINVAL, policy },
		{ "YA", nonprint[0], EINVAL,
		  "a VPD value must be printable ASCII" },
		{ "YA", nonprint[1], EINVAL,
		  "a VPD value must be printable ASCII" },
		{ "Y5", nonprint[2], EINVAL,
		  "a VPD value must be printable ASCII" },
		{ "YA", long256, EINVAL, policy },
		{ "YA", long256 + 1, ENOSPC, "not enough room in VPD-W" },
		{ "Y7", long256 + 128, ENOSPC, "not enough room in VPD-W" },
	};
	struct pnl_reply r, ntf;
	struct vpd_raw raw;
	unsigned int i;

	memset(long256, 'L', 256);
	long256[256] = '\0';
	snprintf(nonprint[0], 8, "a\tb");
	snprintf(nonprint[1], 8, "a\x7f");
	snprintf(nonprint[2], 8, "\xc3\xa9t\xc3\xa9");
	ASSERT_EQ(self->img.rw_len, VPD_W_SIZE - 6U);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(cases[i].err, vpd_set(&self->p, ID, cases[i].kw,
						cases[i].val, &r))
			TH_LOG("%s=\"%.20s\"", cases[i].kw, cases[i].val);
		EXPECT_STREQ(cases[i].msg, r.msg)
			TH_LOG("%s=\"%.20s\"", cases[i].kw, cases[i].val);
		EXPECT_TRUE(r.has_offs) TH_LOG("%s", cases[i].kw);
		pnl_reply_free(&r);
		ASSERT_EQ(0, vpd_sysfs(ID, &raw));
		EXPECT_EQ(self->raw.len, raw.len);
		EXPECT_EQ(0, memcmp(self->raw.b, raw.b, raw.len))
			TH_LOG("image changed by %s", cases[i].kw);
	}
	/* missing attributes */
	{
		struct pnl_attr no_kw[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
					    A_STR(PCIESW_A_VPD_VALUE, "x"),
					    A_END };
		struct pnl_attr no_val[] = { A_U32(PCIESW_A_SWITCH_ID, ID),
					     A_STR(PCIESW_A_VPD_KEYWORD, "YA"),
					     A_END };
		struct pnl_attr no_sw[] = { A_STR(PCIESW_A_VPD_KEYWORD, "YA"),
					    A_STR(PCIESW_A_VPD_VALUE, "x"),
					    A_END };
		struct pnl_attr bad_sw[] = {
			A_U32(PCIESW_A_SWITCH_ID, ID + 9),
			A_STR(PCIESW_A_VPD_KEYWORD, "YA"),
			A_STR(PCIESW_A_VPD_VALUE, "x"), A_END,
		};

		EXPECT_EQ(EINVAL, tp_do(&self->p, PCIESW_CMD_VPD_SET, no_kw,
					&r));
		EXPECT_EQ(PCIESW_A_VPD_KEYWORD, r.miss_type);
		pnl_reply_free(&r);
		EXPECT_EQ(EINVAL, tp_do(&self->p, PCIESW_CMD_VPD_SET, no_val,
					&r));
		EXPECT_EQ(PCIESW_A_VPD_VALUE, r.miss_type);
		pnl_reply_free(&r);
		EXPECT_EQ(EINVAL, tp_do(&self->p, PCIESW_CMD_VPD_SET, no_sw,
					&r));
		EXPECT_EQ(PCIESW_A_SWITCH_ID, r.miss_type);
		pnl_reply_free(&r);
		EXPECT_EQ(ENODEV, tp_do(&self->p, PCIESW_CMD_VPD_SET, bad_sw,
					&r));
		EXPECT_STREQ("no such switch", r.msg);
		pnl_reply_free(&r);
		EXPECT_EQ(ENODEV, tp_do(&self->p, PCIESW_CMD_VPD_GET,
					(struct pnl_attr[]){
						A_U32(PCIESW_A_SWITCH_ID, ID + 9),
						A_END }, &r));
		EXPECT_STREQ("no such switch", r.msg);
		pnl_reply_free(&r);
	}
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	EXPECT_EQ(0, memcmp(self->raw.b, raw.b, raw.len));
	/* and nothing was announced */
	pnl_reply_init(&ntf);
	pnl_recv_ntf(&self->mon, 100, &ntf);
	EXPECT_EQ(0U, nr_vpd_ntf(&ntf, ID));
	pnl_reply_free(&ntf);
	/* the vpd file is read-only, for root too */
	EXPECT_NE(0, sysfs_write(PCIESW_DEVS "/pciesw80/vpd", "\x82"));
}

static void nobody_vpd(struct __test_metadata *_metadata)
{
	struct pnl_attr one[] = { A_U32(PCIESW_A_SWITCH_ID, ID), A_END };
	struct vpd_raw raw;
	struct pnl_reply r;
	struct pnl p;
	char buf[300];
	int err;

	/* root-only, like the PCI core's vpd: sysfs 0400, vpd-get EPERM */
	EXPECT_EQ(-EACCES, vpd_sysfs(ID, &raw));
	EXPECT_EQ(-EACCES, sw_attr(ID, "vpd_info/serial_number", buf,
				   sizeof(buf)));
	EXPECT_EQ(-EACCES, sw_attr(ID, "vpd_info/asset_tag", buf,
				   sizeof(buf)));
	err = sysfs_write(PCIESW_DEVS "/pciesw80/vpd_info/asset_tag", "x\n");
	EXPECT_EQ(-EACCES, err);
	EXPECT_EQ(0, pnl_open(&p));
	if (!p.sk)
		return;
	EXPECT_EQ(EPERM, pnl_do(&p, PCIESW_CMD_VPD_GET, one, &r));
	EXPECT_STREQ("reading the VPD needs CAP_SYS_ADMIN", r.msg);
	EXPECT_EQ(0U, r.nobjs);
	pnl_reply_free(&r);
	EXPECT_EQ(EPERM, vpd_set(&p, ID, "YA", "mine", &r));
	pnl_reply_free(&r);
	/* permission before validation */
	EXPECT_EQ(EPERM, vpd_set(&p, ID, "PN", "\x01", &r));
	pnl_reply_free(&r);
	pnl_close(&p);
}

TEST_F(vpd, unprivileged)
{
	struct vpd_raw raw;

	if (geteuid() != 0)
		SKIP(return, "must start as root to drop to nobody");
	PCIESW_AS_NOBODY(nobody_vpd);
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	EXPECT_EQ(0, memcmp(self->raw.b, raw.b, raw.len));
}

/* ------------------------------------------------------------------ */
/* Readers racing writers                                              */

struct race {
	unsigned int id;
	const char *group;
	const char *cfg[2];
	volatile bool stop;
	unsigned int reads, writes, torn, errs;
	char torn_why[128];
	pthread_mutex_t lock;
};

static void race_bad(struct race *rc, const char *why)
{
	pthread_mutex_lock(&rc->lock);
	if (!rc->torn++)
		snprintf(rc->torn_why, sizeof(rc->torn_why), "%s", why);
	pthread_mutex_unlock(&rc->lock);
}

static void *race_writer(void *arg)
{
	struct race *rc = arg;
	struct pnl p;
	char val[80];
	unsigned int i;

	if (pnl_open(&p)) {
		__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	for (i = 0; !rc->stop; i++) {
		int err;

		memset(val, 'a' + i % 26, sizeof(val));
		val[(i * 7) % 60] = '\0';
		err = vpd_set1(&p, rc->id, i % 3 ? "YA" : "Y5",
			       i % 6 == 3 ? "" : val);
		if (err)
			__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&rc->writes, 1, __ATOMIC_RELAXED);
	}
	pnl_close(&p);
	return NULL;
}

static void *race_reconfig(void *arg)
{
	struct race *rc = arg;
	struct pnl_reply r;
	struct pnl p;
	unsigned int i;

	if (pnl_open(&p)) {
		__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	for (i = 0; !rc->stop; i++) {
		if (tp_group_set_name(&p, rc->id, rc->group, rc->cfg[i % 2],
				      &r))
			__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		pnl_reply_free(&r);
		tp_msleep(20);	/* paces the re-bifurcations: reads between */
	}
	pnl_close(&p);
	return NULL;
}

static void *race_reader_sysfs(void *arg)
{
	struct race *rc = arg;
	struct vpd_raw raw;
	struct vpd_img v;

	while (!rc->stop) {
		const char *why;

		if (vpd_sysfs(rc->id, &raw)) {
			race_bad(rc, "sysfs vpd unreadable or in pieces");
			continue;
		}
		why = vpd_parse(raw.b, raw.len, &v);
		if (why)
			race_bad(rc, why);
		__atomic_add_fetch(&rc->reads, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *race_reader_nl(void *arg)
{
	struct race *rc = arg;
	struct pnl_obj *o = malloc(sizeof(*o));
	struct vpd_img v;
	struct pnl p;

	if (!o || pnl_open(&p)) {
		__atomic_add_fetch(&rc->errs, 1, __ATOMIC_RELAXED);
		free(o);
		return NULL;
	}
	while (!rc->stop) {
		const char *why;

		if (vpd_nl(&p, rc->id, o)) {
			race_bad(rc, "vpd-get failed");
			continue;
		}
		why = vpd_parse(o->bin, o->bin_len, &v);
		if (why)
			race_bad(rc, why);
		__atomic_add_fetch(&rc->reads, 1, __ATOMIC_RELAXED);
	}
	pnl_close(&p);
	free(o);
	return NULL;
}

TEST_F(vpd, readers_vs_writers)
{
	const struct exp_group *g = &self->exp->groups[self->exp->nr_groups - 1];
	void *(*fns[])(void *) = { race_writer, race_writer, race_reconfig,
				   race_reader_sysfs, race_reader_sysfs,
				   race_reader_nl };
	const unsigned int nt = sizeof(fns) / sizeof(fns[0]);
	struct race rc = { .id = ID, .group = g->name,
			   .cfg = { g->allowed[0], g->allowed[1] } };
	pthread_t th[8];
	struct vpd_raw raw;
	struct vpd_img v;
	unsigned int i;

	pthread_mutex_init(&rc.lock, NULL);
	for (i = 0; i < nt; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, fns[i], &rc));
	sleep(tp_slow() ? 4 : 2);	/* how long the race runs */
	rc.stop = true;
	for (i = 0; i < nt; i++)
		pthread_join(th[i], NULL);
	EXPECT_EQ(0U, rc.torn) TH_LOG("%u torn of %u reads, first: %s",
				      rc.torn, rc.reads, rc.torn_why);
	EXPECT_EQ(0U, rc.errs);
	EXPECT_LT(10U, rc.reads);
	EXPECT_LT(10U, rc.writes);
	TH_LOG("%u reads, %u writes", rc.reads, rc.writes);
	ASSERT_EQ(0, vpd_sysfs(ID, &raw));
	EXPECT_EQ(NULL, vpd_parse(raw.b, raw.len, &v));
}

TEST_HARNESS_MAIN
