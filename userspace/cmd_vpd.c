// SPDX-License-Identifier: GPL-2.0
/*
 * VPD: vpd show (decoded fields, or the raw image), vpd set (a VPD-W
 * field).  The module decodes the image and checks writes; switchctl shows
 * what it says and never edits the image itself.
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "util.h"

/* The longest vpd-value the spec allows (a VPD field's length is a byte) */
#define VPD_VALUE_MAX	255

/* --raw: the image instead of the fields */
static bool vpd_raw;

/* "00000010  53 4e 0c 50 ...  |SN.P...|", like hexdump -C */
static void print_hexdump(const uint8_t *p, size_t len)
{
	size_t off, i;

	for (off = 0; off < len; off += 16) {
		print_text("  %08zx ", off);
		for (i = off; i < off + 16; i++) {
			if (i % 8 == 0)
				print_text(" ");
			if (i < len)
				print_text("%02x ", p[i]);
			else
				print_text("   ");
		}
		print_text(" |");
		for (i = off; i < off + 16 && i < len; i++)
			print_text("%c", isprint(p[i]) ? p[i] : '.');
		print_text("|\n");
	}
}

static void print_image(const struct nlattr *a)
{
	const uint8_t *p = a ? nla_data(a) : NULL;
	size_t i, len = a ? (size_t)nla_len(a) : 0;
	char *hex;

	if (!a) {
		print_null(PRINT_ANY, "vpd-image", " no image\n");
		return;
	}
	print_uint(PRINT_TEXT, NULL, " %s bytes\n", len);
	if (!print_is_json()) {
		print_hexdump(p, len);
		return;
	}
	hex = xmalloc(2 * len + 1);
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", p[i]);
	hex[2 * len] = '\0';
	print_string(PRINT_JSON, "vpd-image", NULL, hex);
	free(hex);
}

static void vpd_switch(struct nlattr **sw, const struct objs *vpd,
		       const struct objs *unused __attribute__((unused)))
{
	size_t i;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:",
			  sw[PCIESW_A_SWITCH_NAME]);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, sw[PCIESW_A_SWITCH_ID]);
	for (i = 0; i < vpd->n; i++)
		if (same_switch(vpd->tb[i], sw))
			break;
	if (i == vpd->n) {
		print_text(" no VPD\n");
	} else if (vpd_raw) {
		print_image(vpd->tb[i][PCIESW_A_VPD_IMAGE]);
	} else {
		print_text("\n");
		print_vpd_fields(objs_hdr(vpd, i), vpd->tb[i]);
	}
	close_object();
}

int cmd_vpd_show(int argc, char **argv)
{
	const struct cmd_opt opts[] = {
		{ "--raw", "-r", &vpd_raw, NULL },
		{ NULL, NULL, NULL, NULL },
	};
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	return per_switch_cmd(argc, argv, PCIESW_CMD_VPD_GET, "VPD", 0, NULL,
			      vpd_switch);
}

const char vpd_show_help[] =
	"Prints the identifier string and the text fields of VPD-R\n"
	"(read-only: PN part number, EC, SN serial, MN, V0 firmware,\n"
	"V1 production batch, V2 configuration) and VPD-W (writable:\n"
	"YA asset tag, Y0-Y9/YB-YZ), and the free space left in VPD-W.\n"
	"  -r, --raw   the image instead, as a hex dump (PCI VPD format,\n"
	"              as sysfs \"vpd\" holds it)\n"
	"With -j: {\"switch\", switch-id, vpd-id-string, \"vpd-field\":\n"
	"[{vpd-keyword, vpd-value, vpd-writable}], vpd-rw-free}; with\n"
	"--raw {\"switch\", switch-id, \"vpd-image\": hex string}.  Without\n"
	"SWITCH, an array of such objects.\n";

int cmd_vpd_set(int argc, char **argv)
{
	struct nl_session *s;
	struct nl_msg *req;
	const char *kw;
	uint32_t id;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	if (argc < 3)
		return usage_error("expected SWITCH FIELD TEXT");
	if (argc > 3)
		return usage_error("too many arguments: \"%s\"", argv[3]);
	ret = parse_switch_arg(argv[0], &id);
	if (ret)
		return ret;
	kw = !strcmp(argv[1], "asset-tag") ? "YA" : argv[1];
	/* which keywords may be written is the module's to say */
	if (strlen(kw) != 2)
		return usage_error("invalid field \"%s\": expected asset-tag or a two-character VPD keyword (YA, Y0-Y9, YB-YZ)",
				   argv[1]);
	/* the spec's limit; the module's own message says the same */
	if (strlen(argv[2]) > VPD_VALUE_MAX)
		return usage_error("invalid value: a VPD value is at most %d bytes",
				   VPD_VALUE_MAX);

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	req = nl_request_new(s, PCIESW_CMD_VPD_SET, false);
	nl_put_u32(req, PCIESW_A_SWITCH_ID, id);
	nl_put_string(req, PCIESW_A_VPD_KEYWORD, kw);
	nl_put_string(req, PCIESW_A_VPD_VALUE, argv[2]);
	ret = nl_request_run(s, req, NULL, "cannot set VPD field %s of switch %u",
			     kw, id);
	nl_session_close(s);
	return finish(ret);
}

const char vpd_set_help[] =
	"FIELD is asset-tag (the YA keyword) or a VPD-W keyword: YA,\n"
	"Y0-Y9, YB-YZ; TEXT printable ASCII (\"\" removes a Yx field).\n"
	"The module refuses anything else (read-only fields, a value that\n"
	"does not fit) and the image stays as it was.  Prints nothing on\n"
	"success.\n";
