// SPDX-License-Identifier: GPL-2.0
/*
 * Lane groups, ports and endpoints through the print layer (see
 * objprint.h).  Every attribute the module sends is printed in JSON, under
 * its spec name; the text shows them in columns or sentences.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "attr.h"
#include "objprint.h"
#include "print.h"

void lanes_text(char *buf, size_t len, const struct nlattr *first,
		const struct nlattr *nr)
{
	uint32_t f, n;

	if (!first || !nr || !nla_get_u32(nr)) {
		snprintf(buf, len, "-");
		return;
	}
	f = nla_get_u32(first);
	n = nla_get_u32(nr);
	snprintf(buf, len, "%u-%llu", f, (unsigned long long)f + n - 1);
}

void size_text(char *buf, size_t len, uint64_t bytes)
{
	static const char suffix[] = "KMGTPE";
	int i = -1;

	while (bytes && !(bytes & 1023) && i < (int)sizeof(suffix) - 2) {
		bytes >>= 10;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64, bytes);
	else
		snprintf(buf, len, "%" PRIu64 "%c", bytes, suffix[i]);
}

void mono_text(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%5" PRIu64 ".%06" PRIu64, ns / 1000000000,
		 ns % 1000000000 / 1000);
}

void lane_mask_text(char *buf, size_t len, uint32_t mask)
{
	if (mask)
		snprintf(buf, len, "0x%x", mask);
	else
		snprintf(buf, len, "none");
}

void switch_name(char *buf, size_t len, uint32_t id)
{
	snprintf(buf, len, "pciesw%u", id);
}

void temp_text(char *buf, size_t len, int64_t mc)
{
	uint64_t a = mc < 0 ? -(uint64_t)mc : (uint64_t)mc;

	/* rounded to tenths of a degree */
	a = (a + 50) / 100;
	snprintf(buf, len, "%s%" PRIu64 ".%" PRIu64 "\u00b0C",
		 mc < 0 && a ? "-" : "", a / 10, a % 10);
}

void ber_text(char *buf, size_t len, uint64_t ber)
{
	char digits[24];
	int n, exp;

	if (!ber) {
		snprintf(buf, len, "0");
		return;
	}
	/* ber * 1e-18 = d.ddd * 10^exp, trailing zeros dropped */
	exp = -18;
	while (!(ber % 10)) {
		ber /= 10;
		exp++;
	}
	n = snprintf(digits, sizeof(digits), "%" PRIu64, ber);
	exp += n - 1;
	if (n == 1)
		snprintf(buf, len, "%se%d", digits, exp);
	else
		snprintf(buf, len, "%c.%se%d", digits[0], digits + 1, exp);
}

void rate_text(char *buf, size_t len, uint64_t v, const char *unit)
{
	static const char prefix[] = " kMGTPE";
	uint64_t div = 1;
	int i = 0;

	while (v / div >= 1000 && prefix[i + 1]) {
		div *= 1000;
		i++;
	}
	if (!i)
		snprintf(buf, len, "%" PRIu64 " %s", v, unit);
	else if (v / div >= 100)
		snprintf(buf, len, "%" PRIu64 " %c%s", v / div, prefix[i],
			 unit);
	else if (v / div >= 10)
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 " %c%s", v / div,
			 v % div * 10 / div, prefix[i], unit);
	else
		snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 " %c%s", v / div,
			 v % div * 100 / div, prefix[i], unit);
}

void duration_text(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000000)
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000);
	else if (ns < 1000000000)
		snprintf(buf, len, "%" PRIu64 ".%03" PRIu64 "ms",
			 ns / 1000000, ns % 1000000 / 1000);
	else
		snprintf(buf, len, "%" PRIu64 ".%03" PRIu64 "s",
			 ns / 1000000000, ns % 1000000000 / 1000000);
}

/*
 * Attribute @a as a number in JSON, through @json (print_attr_u64() and
 * the like), and as @text in text (NULL when @a is absent: "-").
 */
static void print_attr_as_text(enum pmode mode, const char *key,
			       const char *fmt, const struct nlattr *a,
			       void (*json)(enum pmode mode, const char *key,
					    const char *fmt,
					    const struct nlattr *a),
			       const char *text)
{
	if (mode != PRINT_TEXT)
		json(PRINT_JSON, key, NULL, a);
	if (mode != PRINT_JSON)
		print_string(PRINT_TEXT, NULL, fmt, text);
}

void print_attr_bandwidth(enum pmode mode, const char *key, const char *fmt,
			  const struct nlattr *a)
{
	char buf[32];

	if (a)
		rate_text(buf, sizeof(buf), nla_get_u64(a), "B/s");
	print_attr_as_text(mode, key, fmt, a, print_attr_u64, a ? buf : NULL);
}

void print_ber(enum pmode mode, const char *fmt, const struct nlattr *a)
{
	char buf[32];

	if (a)
		ber_text(buf, sizeof(buf), nla_get_u64(a));
	print_attr_as_text(mode, "port-ber", fmt, a, print_attr_u64,
			   a ? buf : NULL);
}

void print_attr_temp(enum pmode mode, const char *key, const char *fmt,
		     const struct nlattr *a)
{
	char buf[32];

	if (a)
		temp_text(buf, sizeof(buf), nla_get_s32(a));
	print_attr_as_text(mode, key, fmt, a, print_attr_s32, a ? buf : NULL);
}

/*
 * A lane range: in JSON its first lane and number of lanes, as @first_key
 * and @nr_key; in text lanes_text() through @fmt.
 */
static void print_lane_range(const char *first_key, const struct nlattr *first,
			     const char *nr_key, const struct nlattr *nr,
			     const char *fmt)
{
	char buf[32];

	print_attr_u32(PRINT_JSON, first_key, NULL, first);
	print_attr_u32(PRINT_JSON, nr_key, NULL, nr);
	lanes_text(buf, sizeof(buf), first, nr);
	print_string(PRINT_TEXT, NULL, fmt, buf);
}

/* --- switch settings ------------------------------------------------------ */

void print_switch_settings(struct nlattr **tb)
{
	print_attr_flag(PRINT_ANY, "switch-host-p2p", "host-p2p %s",
			tb[PCIESW_A_SWITCH_HOST_P2P], "on", "off");
	print_attr_flag(PRINT_ANY, "switch-dma-pacing", " pacing %s",
			tb[PCIESW_A_SWITCH_DMA_PACING], "on", "off");
	print_attr_u32(PRINT_ANY, "switch-mps", " mps %s",
		       tb[PCIESW_A_SWITCH_MPS]);
	print_attr_u32(PRINT_ANY, "switch-dma-channels", " channels %s",
		       tb[PCIESW_A_SWITCH_DMA_CHANNELS]);
	print_attr_u32(PRINT_ANY, "switch-dma-inflight", " (dma in flight %s)",
		       tb[PCIESW_A_SWITCH_DMA_INFLIGHT]);
}

void print_pci_view(struct nlattr **tb)
{
	const struct nlattr *view = tb[PCIESW_A_SWITCH_PCI_VIEW];
	const struct nlattr *dom = tb[PCIESW_A_SWITCH_PCI_DOMAIN];
	char buf[16];

	print_attr_flag(PRINT_ANY, "switch-pci-view", "  pci-view %s",
			view, "on", "off");
	print_attr_u32(PRINT_JSON, "switch-pci-domain", NULL, dom);
	if (dom) {
		/* as lspci and dmesg write it: hex, at least 4 digits */
		snprintf(buf, sizeof(buf), "%04x", nla_get_u32(dom));
		print_string(PRINT_TEXT, NULL, ", domain %s", buf);
	}
	print_text("\n");
}

/* --- VPD ------------------------------------------------------------------ */

/* What the PCI spec calls the VPD keywords pciesw uses */
static const char *vpd_keyword_text(const char *kw)
{
	static const char *const names[][2] = {
		{ "PN", "part number" },
		{ "EC", "engineering change" },
		{ "SN", "serial number" },
		{ "MN", "manufacturer id" },
		{ "V0", "firmware version" },
		{ "V1", "production batch" },
		{ "V2", "configuration" },
		{ "YA", "asset tag" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(kw, names[i][0]))
			return names[i][1];
	if (kw[0] == 'V')
		return "vendor specific";
	if (kw[0] == 'Y')
		return "system specific";
	return "";
}

static void print_vpd_field(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	const struct nlattr *kw;

	(void)arg;
	if (nl_parse_nest(nest, tb) < 0)
		memset(tb, 0, sizeof(tb));
	kw = tb[PCIESW_A_VPD_KEYWORD];
	open_object(NULL);
	print_attr_string(PRINT_ANY, "vpd-keyword", "  %-4s", kw);
	print_string(PRINT_TEXT, NULL, "%-20s ",
		     kw ? vpd_keyword_text(nla_get_string(kw)) : NULL);
	print_attr_flag(PRINT_ANY, "vpd-writable", "%-3s ",
			tb[PCIESW_A_VPD_WRITABLE], "rw", "ro");
	print_attr_string(PRINT_ANY, "vpd-value", "%s\n",
			  tb[PCIESW_A_VPD_VALUE]);
	close_object();
}

void print_vpd_fields(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	print_attr_string(PRINT_ANY, "vpd-id-string", "  ID string: %s\n",
			  tb[PCIESW_A_VPD_ID_STRING]);
	print_text("  %-4s%-20s %-3s %s\n", "KEY", "NAME", "RW", "VALUE");
	open_array("vpd-field");
	nl_for_each_attr(nlh, PCIESW_A_VPD_FIELD, print_vpd_field, NULL);
	close_array();
	print_attr_u32(PRINT_ANY, "vpd-rw-free",
		       "  VPD-W space left: %s bytes\n",
		       tb[PCIESW_A_VPD_RW_FREE]);
}

/* --- lane groups ---------------------------------------------------------- */

static void print_group_header(int indent, bool with_ports)
{
	print_text("%*s%-3s %-8s %-5s %-8s %-7s ", indent, "", "ID", "NAME",
		   "TYPE", "LANES", "CONFIG");
	if (with_ports)
		print_text("%-7s ", "PORTS");
	print_text("%s\n", "ALLOWED");
}

static void print_allowed(const struct nlattr *a, void *arg)
{
	bool *any = arg;

	print_string(PRINT_ANY, NULL, *any ? " %s" : "%s", nla_get_string(a));
	*any = true;
}

/* The ids of the ports of group @tb; text "2-17" (ranges, comma-separated). */
static void print_group_ports(struct nlattr **tb, const struct objs *ports)
{
	char text[128] = "", *p = text;
	size_t i, left = sizeof(text);
	long start = -1, prev = -1;
	uint32_t gid;
	int n;

	open_array("ports");
	if (!tb[PCIESW_A_GROUP_ID])
		goto done;
	gid = nla_get_u32(tb[PCIESW_A_GROUP_ID]);
	/* one past the end closes the last range */
	for (i = 0; i <= ports->n; i++) {
		struct nlattr **pt = i < ports->n ? ports->tb[i] : NULL;
		long id = -1;

		if (pt) {
			if (!same_switch(pt, tb) || !pt[PCIESW_A_GROUP_ID] ||
			    !pt[PCIESW_A_PORT_ID] ||
			    nla_get_u32(pt[PCIESW_A_GROUP_ID]) != gid)
				continue;
			id = nla_get_u32(pt[PCIESW_A_PORT_ID]);
			print_uint(PRINT_JSON, NULL, NULL, id);
			if (start >= 0 && id == prev + 1) {
				prev = id;
				continue;
			}
		}
		if (start >= 0) {
			n = start == prev ?
			    snprintf(p, left, "%s%ld", p == text ? "" : ",",
				     start) :
			    snprintf(p, left, "%s%ld-%ld",
				     p == text ? "" : ",", start, prev);
			if (n > 0 && (size_t)n < left) {
				p += n;
				left -= n;
			}
		}
		start = prev = id;
	}
done:
	close_array();
	print_string(PRINT_TEXT, NULL, "%-7s ", *text ? text : NULL);
}

void print_group_attrs(const struct nlmsghdr *nlh, struct nlattr **tb,
		       int indent, const struct objs *ports)
{
	bool any = false;

	print_text("%*s", indent, "");
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_ANY, "group-id", "%-3s ", tb[PCIESW_A_GROUP_ID]);
	print_attr_string(PRINT_ANY, "group-name", "%-8s ",
			  tb[PCIESW_A_GROUP_NAME]);
	print_attr_enum(PRINT_ANY, "group-type", "%-5s ",
			tb[PCIESW_A_GROUP_TYPE], &group_type_names);
	print_lane_range("group-first-lane", tb[PCIESW_A_GROUP_FIRST_LANE],
			 "group-nr-lanes", tb[PCIESW_A_GROUP_NR_LANES],
			 "%-8s ");
	print_attr_string(PRINT_ANY, "group-config", "%-7s ",
			  tb[PCIESW_A_GROUP_CONFIG]);
	if (ports)
		print_group_ports(tb, ports);

	/* multi-attr: tb[] holds only the last one, walk them all */
	open_array("group-allowed-config");
	nl_for_each_attr(nlh, PCIESW_A_GROUP_ALLOWED_CONFIG, print_allowed,
			 &any);
	if (!any)
		print_null(PRINT_TEXT, NULL, "%s");
	close_array();
	print_text("\n");
}

void print_switch_groups(struct nlattr **sw, const struct objs *groups,
			 int indent, const struct objs *ports)
{
	size_t i;

	print_group_header(indent, ports);
	open_array("groups");
	for (i = 0; i < groups->n; i++) {
		if (!same_switch(groups->tb[i], sw))
			continue;
		open_object(NULL);
		print_group_attrs(objs_hdr(groups, i), groups->tb[i], indent,
				  ports);
		close_object();
	}
	close_array();
}

/* --- ports ---------------------------------------------------------------- */

/* "x16/x8": configured vs negotiated width, "x16/-" while the link is down */
static void width_text(char *buf, size_t len, const struct nlattr *max,
		       const struct nlattr *cur)
{
	int n;

	n = max ? snprintf(buf, len, "x%u/", nla_get_u32(max)) :
		  snprintf(buf, len, "-/");
	if (n < 0 || (size_t)n >= len)
		return;
	if (cur && nla_get_u32(cur))
		snprintf(buf + n, len - n, "x%u", nla_get_u32(cur));
	else
		snprintf(buf + n, len - n, "-");
}

/*
 * "up", "down", "disabled" when software disabled the link, or "dpc" while
 * Downstream Port Containment holds it.
 */
static const char *link_text(struct nlattr **tb)
{
	if (tb[PCIESW_A_PORT_ENABLED] && !nla_get_u8(tb[PCIESW_A_PORT_ENABLED]))
		return "disabled";
	if (tb[PCIESW_A_PORT_DPC_CONTAINED] &&
	    nla_get_u8(tb[PCIESW_A_PORT_DPC_CONTAINED]))
		return "dpc";
	if (!tb[PCIESW_A_PORT_LINK_ACTIVE])
		return NULL;
	return nla_get_u8(tb[PCIESW_A_PORT_LINK_ACTIVE]) ? "up" : "down";
}

static bool is_upstream(struct nlattr **tb)
{
	return tb[PCIESW_A_PORT_ROLE] &&
	       nla_get_u32(tb[PCIESW_A_PORT_ROLE]) == PCIESW_PORT_ROLE_UPSTREAM;
}

/* port-failed-lanes: a number in JSON, "0x8000" / "none" in text */
static void print_failed_lanes(const char *fmt, const struct nlattr *a)
{
	char buf[16];

	if (a)
		lane_mask_text(buf, sizeof(buf), nla_get_u32(a));
	print_attr_as_text(PRINT_ANY, "port-failed-lanes", fmt, a,
			   print_attr_u32, a ? buf : NULL);
}

/* ACS P2P redirect is a downstream port's setting: "-" on the upstream one */
static void print_acs(const char *fmt, struct nlattr **tb)
{
	const struct nlattr *a = tb[PCIESW_A_PORT_ACS_REDIRECT];

	print_attr_flag(PRINT_JSON, "port-acs-redirect", NULL, a, NULL, NULL);
	if (is_upstream(tb))
		print_null(PRINT_TEXT, NULL, fmt);
	else
		print_attr_flag(PRINT_TEXT, NULL, fmt, a, "on", "off");
}

void print_port_header(void)
{
	print_text("%-4s %-6s %-10s %-7s %-8s %-7s %-7s %-7s %-13s %-8s %-4s %-8s %-6s %-14s %s\n",
		   "PORT", "GROUP", "ROLE", "LANES", "WIDTH", "SPEED", "TARGET",
		   "MAX", "LTSSM", "LINK", "ACS", "DEGRADED", "FAILED", "PCI",
		   "EP");
}

void print_port_line(struct nlattr **tb)
{
	char buf[32];

	open_object(NULL);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_ANY, "port-id", "%-4s ", tb[PCIESW_A_PORT_ID]);
	print_attr_u32(PRINT_JSON, "group-id", NULL, tb[PCIESW_A_GROUP_ID]);
	print_attr_string(PRINT_ANY, "group-name", "%-6s ",
			  tb[PCIESW_A_GROUP_NAME]);
	print_attr_enum(PRINT_ANY, "port-role", "%-10s ", tb[PCIESW_A_PORT_ROLE],
			&port_role_names);

	print_lane_range("port-first-lane", tb[PCIESW_A_PORT_FIRST_LANE],
			 "port-nr-lanes", tb[PCIESW_A_PORT_NR_LANES], "%-7s ");

	print_attr_u32(PRINT_JSON, "port-max-width", NULL,
		       tb[PCIESW_A_PORT_MAX_WIDTH]);
	print_attr_u32(PRINT_JSON, "port-width", NULL, tb[PCIESW_A_PORT_WIDTH]);
	width_text(buf, sizeof(buf), tb[PCIESW_A_PORT_MAX_WIDTH],
		   tb[PCIESW_A_PORT_WIDTH]);
	print_string(PRINT_TEXT, NULL, "%-8s ", buf);

	print_attr_enum(PRINT_ANY, "port-speed", "%-7s ",
			tb[PCIESW_A_PORT_SPEED], &link_speed_names);
	print_attr_enum(PRINT_ANY, "port-target-speed", "%-7s ",
			tb[PCIESW_A_PORT_TARGET_SPEED], &link_speed_names);
	print_attr_enum(PRINT_ANY, "port-max-speed", "%-7s ",
			tb[PCIESW_A_PORT_MAX_SPEED], &link_speed_names);
	print_attr_enum(PRINT_ANY, "port-ltssm", "%-13s ",
			tb[PCIESW_A_PORT_LTSSM], &ltssm_names);
	print_attr_flag(PRINT_JSON, "port-link-active", NULL,
			tb[PCIESW_A_PORT_LINK_ACTIVE], NULL, NULL);
	print_attr_flag(PRINT_JSON, "port-enabled", NULL,
			tb[PCIESW_A_PORT_ENABLED], NULL, NULL);
	print_attr_flag(PRINT_JSON, "port-dpc-contained", NULL,
			tb[PCIESW_A_PORT_DPC_CONTAINED], NULL, NULL);
	print_string(PRINT_TEXT, NULL, "%-8s ", link_text(tb));
	print_acs("%-4s ", tb);
	print_attr_flag(PRINT_ANY, "port-degraded", "%-8s ",
			tb[PCIESW_A_PORT_DEGRADED], "yes", "no");
	print_failed_lanes("%-6s ", tb[PCIESW_A_PORT_FAILED_LANES]);
	print_attr_u64(PRINT_JSON, "port-surprise-down", NULL,
		       tb[PCIESW_A_PORT_SURPRISE_DOWN]);
	print_ber(PRINT_JSON, NULL, tb[PCIESW_A_PORT_BER]);
	print_attr_u64(PRINT_JSON, "port-bandwidth", NULL,
		       tb[PCIESW_A_PORT_BANDWIDTH]);
	print_attr_string(PRINT_ANY, "port-pci-name", "%-14s ",
			  tb[PCIESW_A_PORT_PCI_NAME]);
	print_attr_u32(PRINT_JSON, "ep-id", NULL, tb[PCIESW_A_EP_ID]);
	print_attr_string(PRINT_ANY, "ep-name", "%s\n", tb[PCIESW_A_EP_NAME]);
	close_object();
}

/* Walking the LTSSM history. */
struct history {
	size_t index;		/* of the transition at hand */
	size_t first;		/* the first one to print */
	bool has_prev;
	uint64_t prev;		/* time of the one before */
};

/* "+2.058ms": the time since the previous transition */
static void delta_text(char *buf, size_t len, uint64_t ns)
{
	if (len < 2) {
		if (len)
			buf[0] = '\0';
		return;
	}
	buf[0] = '+';
	duration_text(buf + 1, len - 1, ns);
}

static void print_transition(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	struct history *h = arg;
	const struct nlattr *time;
	char buf[32];

	if (nl_parse_nest(nest, tb) < 0)
		memset(tb, 0, sizeof(tb));
	time = tb[PCIESW_A_TRANSITION_TIME];
	if (h->index++ < h->first)
		goto out;

	open_object(NULL);
	print_attr_u64(PRINT_JSON, "transition-time", NULL, time);
	if (time) {
		mono_text(buf, sizeof(buf), nla_get_u64(time));
		print_string(PRINT_TEXT, NULL, "    [%s] ", buf);
	} else {
		print_null(PRINT_TEXT, NULL, "    [%12s] ");
	}
	if (time && h->has_prev && nla_get_u64(time) >= h->prev)
		delta_text(buf, sizeof(buf), nla_get_u64(time) - h->prev);
	else
		buf[0] = '\0';
	print_string(PRINT_TEXT, NULL, "%10s  ", buf);
	print_attr_enum(PRINT_ANY, "transition-from", "%-13s -> ",
			tb[PCIESW_A_TRANSITION_FROM], &ltssm_names);
	print_attr_enum(PRINT_ANY, "transition-to", "%s\n",
			tb[PCIESW_A_TRANSITION_TO], &ltssm_names);
	close_object();
out:
	h->has_prev = time;
	if (time)
		h->prev = nla_get_u64(time);
}

void print_port_detail(const struct nlmsghdr *nlh, struct nlattr **tb,
		       size_t first)
{
	struct history h = { .first = first };
	const char *link = link_text(tb);
	bool up = link && !strcmp(link, "up");

	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_u32(PRINT_ANY, "port-id", "port %s:", tb[PCIESW_A_PORT_ID]);
	print_attr_enum(PRINT_ANY, "port-role", " %s,", tb[PCIESW_A_PORT_ROLE],
			&port_role_names);
	print_attr_u32(PRINT_JSON, "group-id", NULL, tb[PCIESW_A_GROUP_ID]);
	print_attr_string(PRINT_ANY, "group-name", " lane group %s,",
			  tb[PCIESW_A_GROUP_NAME]);
	print_lane_range("port-first-lane", tb[PCIESW_A_PORT_FIRST_LANE],
			 "port-nr-lanes", tb[PCIESW_A_PORT_NR_LANES],
			 " lanes %s");
	print_attr_string(PRINT_ANY, "port-pci-name", ", PCI %s\n",
			  tb[PCIESW_A_PORT_PCI_NAME]);

	/* link up: L0, 32GT/s x16, degraded no */
	print_string(PRINT_TEXT, NULL, "  link %s:", link);
	print_attr_flag(PRINT_JSON, "port-link-active", NULL,
			tb[PCIESW_A_PORT_LINK_ACTIVE], NULL, NULL);
	print_attr_flag(PRINT_JSON, "port-enabled", NULL,
			tb[PCIESW_A_PORT_ENABLED], NULL, NULL);
	print_attr_flag(PRINT_JSON, "port-dpc-contained", NULL,
			tb[PCIESW_A_PORT_DPC_CONTAINED], NULL, NULL);
	print_attr_enum(PRINT_ANY, "port-ltssm", " %s",
			tb[PCIESW_A_PORT_LTSSM], &ltssm_names);
	print_attr_enum(up ? PRINT_ANY : PRINT_JSON, "port-speed", ", %s",
			tb[PCIESW_A_PORT_SPEED], &link_speed_names);
	print_attr_u32(up ? PRINT_ANY : PRINT_JSON, "port-width", " x%s",
		       tb[PCIESW_A_PORT_WIDTH]);
	print_attr_flag(PRINT_ANY, "port-degraded", ", degraded %s",
			tb[PCIESW_A_PORT_DEGRADED], "yes", "no");
	/* modelled throughput: of a link that is up (0 when down) */
	print_attr_bandwidth(up && tb[PCIESW_A_PORT_BANDWIDTH] ? PRINT_ANY :
			     PRINT_JSON, "port-bandwidth", ", %s each way",
			     tb[PCIESW_A_PORT_BANDWIDTH]);
	print_text("\n");

	/* target speed 32GT/s, max 32GT/s x16, failed lanes none */
	print_attr_enum(PRINT_ANY, "port-target-speed", "  target speed %s",
			tb[PCIESW_A_PORT_TARGET_SPEED], &link_speed_names);
	print_attr_enum(PRINT_ANY, "port-max-speed", ", max %s",
			tb[PCIESW_A_PORT_MAX_SPEED], &link_speed_names);
	print_attr_u32(PRINT_ANY, "port-max-width", " x%s",
		       tb[PCIESW_A_PORT_MAX_WIDTH]);
	print_failed_lanes(", failed lanes %s",
			   tb[PCIESW_A_PORT_FAILED_LANES]);
	print_ber(PRINT_ANY, ", BER %s\n", tb[PCIESW_A_PORT_BER]);

	/* ACS redirect off, surprise downs 0, endpoint nvme0 (id 2) */
	print_acs("  ACS redirect %s,", tb);
	print_attr_u64(PRINT_ANY, "port-surprise-down", " surprise downs %s",
		       tb[PCIESW_A_PORT_SURPRISE_DOWN]);
	print_attr_string(PRINT_JSON, "ep-name", NULL, tb[PCIESW_A_EP_NAME]);
	print_attr_u32(PRINT_JSON, "ep-id", NULL, tb[PCIESW_A_EP_ID]);
	if (tb[PCIESW_A_EP_NAME]) {
		print_attr_string(PRINT_TEXT, NULL, ", endpoint %s",
				  tb[PCIESW_A_EP_NAME]);
		print_attr_u32(PRINT_TEXT, NULL, " (id %s)",
			       tb[PCIESW_A_EP_ID]);
	} else {
		print_text(", no endpoint");
	}
	print_text("\n");

	print_text("  LTSSM history (CLOCK_MONOTONIC seconds):\n");
	open_array("port-ltssm-transition");
	nl_for_each_attr(nlh, PCIESW_A_PORT_LTSSM_TRANSITION, print_transition,
			 &h);
	close_array();
	if (h.index <= first)
		print_text("    none\n");
}

/* --- endpoints ------------------------------------------------------------ */

/* ep-mem-size: bytes in JSON, "16G" in text */
static void print_mem_size(const char *fmt, const struct nlattr *a,
			   bool bytes)
{
	char buf[32];

	if (a)
		size_text(buf, sizeof(buf), nla_get_u64(a));
	print_attr_as_text(PRINT_ANY, "ep-mem-size", fmt, a, print_attr_u64,
			   a ? buf : NULL);
	if (a && bytes && strspn(buf, "0123456789") != strlen(buf))
		print_attr_u64(PRINT_TEXT, NULL, " (%s bytes)", a);
}

/* the endpoint's PCI IDs: numbers in JSON, as lspci -n spells them in text */
static void print_ep_ident(struct nlattr **tb)
{
	static const struct {
		int attr;
		const char *key;
	} ids[] = {
		{ PCIESW_A_EP_VENDOR, "ep-vendor" },
		{ PCIESW_A_EP_DEVICE, "ep-device" },
		{ PCIESW_A_EP_SUBSYSTEM_VENDOR, "ep-subsystem-vendor" },
		{ PCIESW_A_EP_SUBSYSTEM_DEVICE, "ep-subsystem-device" },
		{ PCIESW_A_EP_REVISION, "ep-revision" },
		{ PCIESW_A_EP_CLASS, "ep-class" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		print_attr_u32(PRINT_JSON, ids[i].key, NULL, tb[ids[i].attr]);
		if (!tb[ids[i].attr])
			return;
	}
	print_text("\n  PCI IDs %04x:%04x subsystem %04x:%04x rev %02x class %06x",
		   nla_get_u32(tb[PCIESW_A_EP_VENDOR]),
		   nla_get_u32(tb[PCIESW_A_EP_DEVICE]),
		   nla_get_u32(tb[PCIESW_A_EP_SUBSYSTEM_VENDOR]),
		   nla_get_u32(tb[PCIESW_A_EP_SUBSYSTEM_DEVICE]),
		   nla_get_u32(tb[PCIESW_A_EP_REVISION]),
		   nla_get_u32(tb[PCIESW_A_EP_CLASS]));
}

void print_ep_header(void)
{
	print_text("%-10s %-4s %-8s %-5s %-9s %-9s %-7s %s\n", "EP", "ID",
		   "TYPE", "PORT", "MAX-SPEED", "MAX-WIDTH", "MEMORY", "PCI");
}

void print_ep_line(struct nlattr **tb)
{
	open_object(NULL);
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_ANY, "ep-name", "%-10s ", tb[PCIESW_A_EP_NAME]);
	print_attr_u32(PRINT_ANY, "ep-id", "%-4s ", tb[PCIESW_A_EP_ID]);
	print_attr_enum(PRINT_ANY, "ep-type", "%-8s ", tb[PCIESW_A_EP_TYPE],
			&ep_type_names);
	print_attr_u32(PRINT_ANY, "port-id", "%-5s ", tb[PCIESW_A_PORT_ID]);
	print_attr_enum(PRINT_ANY, "ep-max-speed", "%-9s ",
			tb[PCIESW_A_EP_MAX_SPEED], &link_speed_names);
	print_attr_u32(PRINT_JSON, "ep-max-width", NULL,
		       tb[PCIESW_A_EP_MAX_WIDTH]);
	if (tb[PCIESW_A_EP_MAX_WIDTH])
		print_attr_u32(PRINT_TEXT, NULL, "x%-8s ",
			       tb[PCIESW_A_EP_MAX_WIDTH]);
	else
		print_null(PRINT_TEXT, NULL, "%-9s ");
	print_mem_size("%-7s ", tb[PCIESW_A_EP_MEM_SIZE], false);
	print_attr_u32(PRINT_JSON, "ep-vendor", NULL, tb[PCIESW_A_EP_VENDOR]);
	print_attr_u32(PRINT_JSON, "ep-device", NULL, tb[PCIESW_A_EP_DEVICE]);
	print_attr_u32(PRINT_JSON, "ep-subsystem-vendor", NULL,
		       tb[PCIESW_A_EP_SUBSYSTEM_VENDOR]);
	print_attr_u32(PRINT_JSON, "ep-subsystem-device", NULL,
		       tb[PCIESW_A_EP_SUBSYSTEM_DEVICE]);
	print_attr_u32(PRINT_JSON, "ep-revision", NULL,
		       tb[PCIESW_A_EP_REVISION]);
	print_attr_u32(PRINT_JSON, "ep-class", NULL, tb[PCIESW_A_EP_CLASS]);
	print_attr_string(PRINT_ANY, "ep-pci-name", "%s\n",
			  tb[PCIESW_A_EP_PCI_NAME]);
	close_object();
}

/*
 * The errors the endpoint detected (ep-aer-counts): an object of the
 * spec's names in JSON, one line in text; entries this switchctl does not
 * know are left out
 */
static void print_ep_aer_counts(const struct nlattr *a)
{
	const char *sep = "  AER errors: ";
	size_t n, i;
	uint64_t v;

	if (!a)
		return;
	n = nla_len(a) / sizeof(uint64_t);
	open_object("ep-aer-counts");
	for (i = 0; i < n; i++) {
		const char *name = enum_spec(&ep_aer_error_names, i);

		if (!name)
			continue;
		memcpy(&v, (const char *)nla_data(a) + i * sizeof(v), sizeof(v));
		print_text("%s%s ", sep, name);
		print_uint(PRINT_ANY, name, "%s", v);
		sep = ", ";
	}
	close_object();
	if (n)
		print_text("\n");
}

void print_ep_detail(struct nlattr **tb)
{
	print_attr_u32(PRINT_JSON, "switch-id", NULL, tb[PCIESW_A_SWITCH_ID]);
	print_attr_string(PRINT_ANY, "ep-name", "%s:", tb[PCIESW_A_EP_NAME]);
	print_attr_u32(PRINT_ANY, "ep-id", " id %s,", tb[PCIESW_A_EP_ID]);
	print_attr_enum(PRINT_ANY, "ep-type", " type %s,", tb[PCIESW_A_EP_TYPE],
			&ep_type_names);
	print_attr_u32(PRINT_ANY, "port-id", " port %s\n", tb[PCIESW_A_PORT_ID]);
	print_attr_enum(PRINT_ANY, "ep-max-speed", "  max speed %s,",
			tb[PCIESW_A_EP_MAX_SPEED], &link_speed_names);
	print_attr_u32(PRINT_ANY, "ep-max-width", " max width x%s,",
		       tb[PCIESW_A_EP_MAX_WIDTH]);
	print_mem_size(" memory window %s", tb[PCIESW_A_EP_MEM_SIZE], true);
	print_ep_ident(tb);
	print_attr_string(PRINT_ANY, "ep-pci-name", "\n  PCI %s",
			  tb[PCIESW_A_EP_PCI_NAME]);
	/* software cleared Bus Master Enable: it moves no data */
	print_attr_flag(PRINT_ANY, "ep-bus-master", ", bus master %s",
			tb[PCIESW_A_EP_BUS_MASTER], "on", "off");
	print_text("\n");
	print_ep_aer_counts(tb[PCIESW_A_EP_AER_COUNTS]);
	/* NVMe drives: the block device they are while their link is up */
	if (tb[PCIESW_A_EP_DISK_NAME])
		print_attr_string(PRINT_ANY, "ep-disk-name", "  disk /dev/%s,",
				  tb[PCIESW_A_EP_DISK_NAME]);
	if (tb[PCIESW_A_EP_BLOCK_SIZE])
		print_attr_u32(PRINT_ANY, "ep-block-size",
			       " logical block size %s bytes\n",
			       tb[PCIESW_A_EP_BLOCK_SIZE]);
	if (tb[PCIESW_A_NVME_MODEL])
		print_nvme_health(tb);
}

/*
 * An NVMe drive's identity and SMART health (ep-get); its serial number
 * only for a caller with CAP_SYS_ADMIN, as the module sends it.
 */
void print_nvme_health(struct nlattr **tb)
{
	uint8_t cw = 0;
	char buf[8];

	print_attr_string(PRINT_ANY, "nvme-model", "  model %s",
			  tb[PCIESW_A_NVME_MODEL]);
	if (tb[PCIESW_A_NVME_SERIAL])
		print_attr_string(PRINT_ANY, "nvme-serial", ", serial %s",
				  tb[PCIESW_A_NVME_SERIAL]);
	print_attr_string(PRINT_ANY, "nvme-firmware", ", firmware %s\n",
			  tb[PCIESW_A_NVME_FIRMWARE]);
	print_attr_temp(PRINT_ANY, "nvme-temp", "  temperature %s",
			tb[PCIESW_A_NVME_TEMP]);
	print_attr_temp(PRINT_ANY, "nvme-temp-over", " (threshold %s,",
			tb[PCIESW_A_NVME_TEMP_OVER]);
	print_attr_temp(PRINT_ANY, "nvme-temp-crit", " critical %s),",
			tb[PCIESW_A_NVME_TEMP_CRIT]);
	print_attr_u8(PRINT_ANY, "nvme-spare", " spare %s%%",
		      tb[PCIESW_A_NVME_SPARE]);
	print_attr_u8(PRINT_ANY, "nvme-spare-threshold", " (threshold %s%%),",
		      tb[PCIESW_A_NVME_SPARE_THRESHOLD]);
	print_attr_u8(PRINT_ANY, "nvme-percent-used", " used %s%%\n",
		      tb[PCIESW_A_NVME_PERCENT_USED]);
	if (tb[PCIESW_A_NVME_CRITICAL_WARNING])
		cw = nla_get_u8(tb[PCIESW_A_NVME_CRITICAL_WARNING]);
	snprintf(buf, sizeof(buf), "0x%02x", cw);
	print_attr_u8(PRINT_JSON, "nvme-critical-warning", NULL,
		      tb[PCIESW_A_NVME_CRITICAL_WARNING]);
	print_string(PRINT_TEXT, NULL, "  critical warning %s",
		     tb[PCIESW_A_NVME_CRITICAL_WARNING] ? buf : NULL);
	if (cw & 0x1f) {
		static const char *const bits[] = {
			"spare", "temperature", "reliability", "read-only",
			"backup",
		};
		const char *sep = " (";
		unsigned int b;

		for (b = 0; b < sizeof(bits) / sizeof(bits[0]); b++) {
			if (!(cw & 1U << b))
				continue;
			print_text("%s%s", sep, bits[b]);
			sep = ", ";
		}
		print_text(")");
	}
	print_attr_flag(PRINT_ANY, "nvme-read-only", ", media %s",
			tb[PCIESW_A_NVME_READ_ONLY], "read-only", "writable");
	print_attr_u64(PRINT_ANY, "nvme-media-errors", ", media errors %s\n",
		       tb[PCIESW_A_NVME_MEDIA_ERRORS]);
	print_attr_u64(PRINT_ANY, "nvme-unsafe-shutdowns",
		       "  unsafe shutdowns %s,",
		       tb[PCIESW_A_NVME_UNSAFE_SHUTDOWNS]);
	print_attr_u64(PRINT_ANY, "nvme-power-cycles", " power cycles %s,",
		       tb[PCIESW_A_NVME_POWER_CYCLES]);
	print_attr_u64(PRINT_ANY, "nvme-error-entries", " error log entries %s\n",
		       tb[PCIESW_A_NVME_ERROR_ENTRIES]);
	print_attr_u64(PRINT_ANY, "nvme-data-units-read",
		       "  data units read %s,",
		       tb[PCIESW_A_NVME_DATA_UNITS_READ]);
	print_attr_u64(PRINT_ANY, "nvme-data-units-written", " written %s\n",
		       tb[PCIESW_A_NVME_DATA_UNITS_WRITTEN]);
	print_attr_u64(PRINT_ANY, "nvme-bytes-read", "  bytes read %s,",
		       tb[PCIESW_A_NVME_BYTES_READ]);
	print_attr_u64(PRINT_ANY, "nvme-bytes-written", " written %s,",
		       tb[PCIESW_A_NVME_BYTES_WRITTEN]);
	print_attr_u64(PRINT_ANY, "nvme-host-reads", " read commands %s,",
		       tb[PCIESW_A_NVME_HOST_READS]);
	print_attr_u64(PRINT_ANY, "nvme-host-writes", " write commands %s\n",
		       tb[PCIESW_A_NVME_HOST_WRITES]);
}
