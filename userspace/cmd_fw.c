// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware and the event log: fw show (what runs, what each partition
 * holds), fw toggle (boot the other partition), fw image (build an image
 * for `devlink dev flash`), log show and log clear.  Updating is devlink's
 * job; the image format is include/uapi/linux/pciesw_fw.h.
 */

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/pciesw.h>
#include <linux/pciesw_fw.h>

#include "attr.h"
#include "cmd.h"
#include "nl.h"
#include "objs.h"
#include "print.h"
#include "shared.h"
#include "util.h"

/* the part number of the default profile (pex89048) */
#define FW_DEFAULT_PART		"PSW-7638D"
#define FW_DEFAULT_SIZE		65536
/* fw image builds oversized images too, for tests: up to 16 MiB */
#define FW_IMAGE_MAX		(16U << 20)

/* --- fw show -------------------------------------------------------------- */

static void print_build_time(const struct nlattr *a)
{
	char buf[32] = "-";
	struct tm tm;
	time_t t;

	if (!a) {
		print_null(PRINT_ANY, "fw-part-build-time", " %s");
		return;
	}
	t = (time_t)nla_get_u64(a);
	if (gmtime_r(&t, &tm))
		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	print_uint(PRINT_JSON, "fw-part-build-time", NULL, nla_get_u64(a));
	print_string(PRINT_TEXT, NULL, " built %s UTC", buf);
}

static void print_fw_part(const struct nlattr *nest, void *arg)
{
	struct nlattr **top = arg;
	struct nlattr *tb[PCIESW_A_MAX + 1];
	bool running, pending;

	if (nl_parse_nest(nest, tb))
		return;
	running = tb[PCIESW_A_FW_PART_ID] && top[PCIESW_A_FW_RUNNING_PART] &&
		  nla_get_u32(tb[PCIESW_A_FW_PART_ID]) ==
		  nla_get_u32(top[PCIESW_A_FW_RUNNING_PART]);
	pending = !running && top[PCIESW_A_FW_PENDING] &&
		  nla_get_u8(top[PCIESW_A_FW_PENDING]);
	open_object(NULL);
	print_attr_u32(PRINT_JSON, "fw-part-id", NULL, tb[PCIESW_A_FW_PART_ID]);
	print_string(PRINT_ANY, "partition", "  partition %s:",
		     fw_part_name(tb[PCIESW_A_FW_PART_ID]));
	print_attr_enum(PRINT_ANY, "fw-part-state", " %s",
			tb[PCIESW_A_FW_PART_STATE], &fw_state_names);
	if (tb[PCIESW_A_FW_PART_VERSION]) {
		print_attr_string(PRINT_ANY, "fw-part-version", " %s",
				  tb[PCIESW_A_FW_PART_VERSION]);
		print_build_time(tb[PCIESW_A_FW_PART_BUILD_TIME]);
	}
	print_attr_u32(PRINT_ANY, "fw-part-len", ", %s bytes",
		       tb[PCIESW_A_FW_PART_LEN]);
	if (tb[PCIESW_A_FW_PART_CRC]) {
		print_uint(PRINT_JSON, "fw-part-crc", NULL,
			   nla_get_u32(tb[PCIESW_A_FW_PART_CRC]));
		print_text(", crc %08x", nla_get_u32(tb[PCIESW_A_FW_PART_CRC]));
	}
	print_bool(PRINT_JSON, "running", NULL, running, NULL);
	if (running)
		print_text(" (running)");
	if (pending)
		print_text(" (boots at the next activation)");
	print_text("\n");
	close_object();
}

static void fw_switch(struct nlattr **sw, const struct objs *fw,
		      const struct objs *unused __attribute__((unused)))
{
	size_t i;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:", sw[PCIESW_A_SWITCH_NAME]);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, sw[PCIESW_A_SWITCH_ID]);
	for (i = 0; i < fw->n; i++)
		if (same_switch(fw->tb[i], sw))
			break;
	if (i == fw->n) {
		print_text(" no firmware information\n");
		close_object();
		return;
	}
	print_attr_string(PRINT_ANY, "fw-running-version", " running %s",
			  fw->tb[i][PCIESW_A_FW_RUNNING_VERSION]);
	print_string(PRINT_TEXT, NULL, " from partition %s",
		     fw_part_name(fw->tb[i][PCIESW_A_FW_RUNNING_PART]));
	print_attr_u32(PRINT_JSON, "fw-running-part", NULL,
		       fw->tb[i][PCIESW_A_FW_RUNNING_PART]);
	print_attr_flag(PRINT_JSON, "fw-pending", NULL,
			fw->tb[i][PCIESW_A_FW_PENDING], "yes", "no");
	print_attr_u64(PRINT_ANY, "fw-boots", ", %s boots\n",
		       fw->tb[i][PCIESW_A_FW_BOOTS]);
	open_array("fw-part");
	nl_for_each_attr(objs_hdr(fw, i), PCIESW_A_FW_PART, print_fw_part,
			 fw->tb[i]);
	close_array();
	close_object();
}

int cmd_fw_show(int argc, char **argv)
{
	return per_switch_cmd(argc, argv, PCIESW_CMD_FW_GET, "firmware", 0,
			      NULL, fw_switch);
}

const char fw_show_help[] =
	"Prints the running version, the partition it booted from\n"
	"(A or B) and the boots so far, then per partition its state\n"
	"(valid, empty: erased or being written, invalid: a write cut\n"
	"short), version, build time (UTC), payload bytes and CRC-32.\n"
	"Updating is devlink's job: \"devlink dev flash pciesw/pcieswN\n"
	"file NAME\" writes /lib/firmware/NAME into the partition the\n"
	"switch does not run from, \"devlink dev reload pciesw/pcieswN\n"
	"action fw_activate\" (or fw toggle) boots it.\n"
	"With -j: {\"switch\", switch-id, fw-running-version,\n"
	"fw-running-part, fw-pending, fw-boots, \"fw-part\": [{fw-part-id,\n"
	"\"partition\", fw-part-state, fw-part-version,\n"
	"fw-part-build-time, fw-part-len, fw-part-crc, \"running\"}]};\n"
	"without SWITCH an array of such objects.\n";

/* --- fw toggle ------------------------------------------------------------ */

/*
 * A request that names one switch and nothing else (fw toggle, log clear):
 * WHAT says what failed, with the switch id.
 */
static int switch_request(int argc, char **argv, uint8_t cmd, const char *what)
{
	uint32_t id;
	int ret;

	if (no_options(&argc, argv))
		return EXIT_USAGE;
	if (argc < 1)
		return usage_error("expected SWITCH");
	if (argc > 1)
		return usage_error("too many arguments: \"%s\"", argv[1]);
	ret = parse_switch_arg(argv[0], &id);
	if (ret)
		return ret;
	return switch_request_run(cmd, id, NULL, what);
}

int cmd_fw_toggle(int argc, char **argv)
{
	return switch_request(argc, argv, PCIESW_CMD_FW_TOGGLE,
			      "cannot boot the other firmware partition of switch %u");
}

const char fw_toggle_help[] =
	"As devlink's reload action fw_activate: the switch boots the\n"
	"partition it does not run from and every link retrains; the\n"
	"running version and VPD V0 change.  When that partition holds\n"
	"no valid image the switch boots the running one again and a\n"
	"warning says so.  Refused while a flash is in progress.\n";

/* --- fw image ------------------------------------------------------------- */

/* CRC-32 as zlib's crc32() and the kernel's crc32_le(~0, ...) ^ ~0 */
static uint32_t crc32_ieee(const uint8_t *p, size_t len)
{
	uint32_t crc = ~0U;
	size_t i;
	int k;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return ~crc;
}

static bool parse_version(const char *s, uint32_t *v)
{
	unsigned long major, minor, patch;
	char *end;

	errno = 0;
	major = strtoul(s, &end, 10);
	if (end == s || *end != '.' || major > 255)
		return false;
	s = end + 1;
	minor = strtoul(s, &end, 10);
	if (end == s || *end != '.' || minor > 255)
		return false;
	s = end + 1;
	patch = strtoul(s, &end, 10);
	if (end == s || *end || patch > 65535 || errno)
		return false;
	*v = PCIESW_FW_VERSION(major, minor, patch);
	return true;
}

int cmd_fw_image(int argc, char **argv)
{
	const char *version = NULL, *part = NULL, *out = NULL;
	const char *size_arg = NULL, *time_arg = NULL;
	const struct cmd_opt opts[] = {
		{ "--version", NULL, NULL, &version },
		{ "--part", NULL, NULL, &part },
		{ "--size", NULL, NULL, &size_arg },
		{ "--build-time", NULL, NULL, &time_arg },
		{ "--output", "-o", NULL, &out },
		{ NULL, NULL, NULL, NULL },
	};
	struct pciesw_fw_header h;
	uint64_t size = FW_DEFAULT_SIZE, state;
	unsigned long build = (unsigned long)time(NULL);
	uint8_t *payload;
	uint32_t v;
	size_t i;
	FILE *f;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	if (argc)
		return usage_error("unexpected argument \"%s\"", argv[0]);
	if (!version || !out)
		return usage_error("fw image needs --version X.Y.Z and -o FILE");
	if (!part)
		part = FW_DEFAULT_PART;
	if (!parse_version(version, &v))
		return usage_error("invalid version \"%s\": expected MAJOR.MINOR.PATCH (0-255.0-255.0-65535)",
				   version);
	if (!*part || strlen(part) >= PCIESW_FW_PART_LEN)
		return usage_error("invalid part number \"%s\": 1 to %u characters",
				   part, PCIESW_FW_PART_LEN - 1);
	if (size_arg && (!parse_size(size_arg, &size) || !size ||
			 size > FW_IMAGE_MAX))
		return usage_error("invalid payload size \"%s\": 1 byte to 16M",
				   size_arg);
	if (time_arg && !parse_uint(time_arg, ~0UL, &build))
		return usage_error("invalid build time \"%s\": seconds since 1970",
				   time_arg);

	/* a payload that differs per version, the same for each build */
	payload = xmalloc(size);
	state = 0x9e3779b97f4a7c15ULL ^ v;
	for (i = 0; i < size; i++) {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		payload[i] = (uint8_t)state;
	}
	memset(&h, 0, sizeof(h));
	h.magic = htole32(PCIESW_FW_MAGIC);
	h.hdr_version = htole16(PCIESW_FW_HDR_VERSION);
	h.hdr_len = htole16(sizeof(h));
	memcpy(h.part, part, strlen(part));
	h.version = htole32(v);
	h.payload_len = htole32((uint32_t)size);
	h.build_time = htole64(build);
	h.payload_crc = htole32(crc32_ieee(payload, size));

	f = fopen(out, "wb");
	if (!f) {
		error("cannot create %s: %s", out, strerror(errno));
		free(payload);
		return EXIT_FAIL;
	}
	if (fwrite(&h, sizeof(h), 1, f) != 1 ||
	    fwrite(payload, size, 1, f) != 1) {
		error("cannot write %s: %s", out, strerror(errno));
		fclose(f);
		free(payload);
		return EXIT_FAIL;
	}
	free(payload);
	if (fclose(f)) {
		error("cannot write %s: %s", out, strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

const char fw_image_help[] =
	"Writes an image (include/uapi/linux/pciesw_fw.h: a 64-byte\n"
	"header with magic, target part number, version, build time,\n"
	"payload length and the payload's CRC-32, then the payload) to\n"
	"FILE.  Talks to no module.\n"
	"  --version X.Y.Z  the image's version (0-255.0-255.0-65535)\n"
	"  --part P         the card's part number (VPD PN), default\n"
	"                   PSW-7638D (profile pex89048)\n"
	"  --size N         payload bytes (K, M suffixes), default 64K;\n"
	"                   a card takes at most 1M\n"
	"  --build-time T   seconds since 1970, default now\n"
	"Copy FILE under /lib/firmware and flash it with devlink.\n";

/* --- log show / clear ----------------------------------------------------- */

/* --since: seconds since 1970 (date +%s), as ns; 0 shows everything */
static uint64_t log_since;

static void log_switch(struct nlattr **sw, const struct objs *log,
		       const struct objs *unused __attribute__((unused)))
{
	size_t i;

	open_object(NULL);
	print_attr_string(PRINT_ANY, "switch", "%s:\n", sw[PCIESW_A_SWITCH_NAME]);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, sw[PCIESW_A_SWITCH_ID]);
	open_array("log");
	for (i = 0; i < log->n; i++) {
		struct nlattr **tb = log->tb[i];
		uint64_t t;
		char buf[40] = "-";
		struct tm tm;
		time_t sec;

		if (!same_switch(tb, sw) || !tb[PCIESW_A_LOG_TIME])
			continue;
		t = nla_get_u64(tb[PCIESW_A_LOG_TIME]);
		if (t < log_since)
			continue;
		sec = (time_t)(t / 1000000000);
		if (gmtime_r(&sec, &tm)) {
			size_t n = strftime(buf, sizeof(buf),
					    "%Y-%m-%d %H:%M:%S", &tm);

			snprintf(buf + n, sizeof(buf) - n, ".%06u",
				 (unsigned int)(t % 1000000000 / 1000));
		}
		open_object(NULL);
		print_attr_u64(PRINT_ANY, "log-seq", "  %6s", tb[PCIESW_A_LOG_SEQ]);
		print_uint(PRINT_JSON, "log-time", NULL, t);
		print_string(PRINT_TEXT, NULL, "  %s", buf);
		print_attr_string(PRINT_ANY, "log-object", "  %-10s",
				  tb[PCIESW_A_LOG_OBJECT]);
		print_attr_string(PRINT_ANY, "log-message", " %s\n",
				  tb[PCIESW_A_LOG_MESSAGE]);
		close_object();
	}
	close_array();
	close_object();
}

int cmd_log_show(int argc, char **argv)
{
	const char *since = NULL;
	bool json = false, pretty = false;
	const struct cmd_opt opts[] = {
		{ "--since", NULL, NULL, &since },
		JSON_OPTIONS(json, pretty),
		{ NULL, NULL, NULL, NULL },
	};
	int64_t ms;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	output_options(json, pretty);
	if (since) {
		if (!parse_milli(since, false, &ms))
			return usage_error("invalid time \"%s\": expected seconds since 1970 (date +%%s), fractions allowed",
					   since);
		log_since = (uint64_t)ms * 1000000;
	}
	return per_switch_cmd(argc, argv, PCIESW_CMD_LOG_GET, "log entries", 0,
			      NULL, log_switch);
}

const char log_show_help[] =
	"One line per event, oldest first: number, time (UTC), the\n"
	"object that changed (switch, group NAME, portN, an endpoint,\n"
	"sensorN, vpd, fw) and what happened.  Links are logged when they\n"
	"come up, go down or change their degraded state.\n"
	"  --since T   only events at or after T, seconds since 1970\n"
	"              (date +%s), fractions allowed\n"
	"With -j: {\"switch\", switch-id, \"log\": [{log-seq, log-time (ns\n"
	"since 1970), log-object, log-message}]}; without SWITCH an array\n"
	"of such objects.\n";

int cmd_log_clear(int argc, char **argv)
{
	return switch_request(argc, argv, PCIESW_CMD_LOG_CLEAR,
			      "cannot clear the event log of switch %u");
}

const char log_clear_help[] =
	"Later events are numbered on from the last one.  Prints\n"
	"nothing on success.\n";
