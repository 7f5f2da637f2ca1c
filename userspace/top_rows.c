// SPDX-License-Identifier: GPL-2.0
/*
 * top's layout: the columns of the port and the endpoint tables, one
 * table each that the text, the JSON and the screen all render from (a
 * column's title, width, cell and JSON members in one place); the rows of
 * a card, built, sorted and filtered.
 */

#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "names.h"
#include "print.h"
#include "top.h"
#include "util.h"

/* Short LTSSM names for the LINK column. */
static const char *ltssm_short(uint32_t v)
{
	static const char *const names[] = {
		[PCIESW_LTSSM_DETECT] = "detect",
		[PCIESW_LTSSM_POLLING] = "polling",
		[PCIESW_LTSSM_CONFIGURATION] = "config",
		[PCIESW_LTSSM_L0] = "l0",
		[PCIESW_LTSSM_RECOVERY] = "recovery",
		[PCIESW_LTSSM_L1] = "l1",
		[PCIESW_LTSSM_DISABLED] = "disabled",
		[PCIESW_LTSSM_HOT_RESET] = "hotreset",
	};

	if (v < sizeof(names) / sizeof(names[0]) && names[v])
		return names[v];
	return "?";
}

/*
 * The state of the link: up, disabled (by software), dpc-contained,
 * surprise-down (down in Detect with its endpoint still there, after a
 * surprise down: it stays so until retrained), or down.
 */
static const char *link_state(struct nlattr **tb)
{
	if (flag_of(tb, TA_PORT_DPC_CONTAINED))
		return "dpc-contained";
	if (tb[TA_PORT_ENABLED] && !flag_of(tb, TA_PORT_ENABLED))
		return "disabled";
	if (flag_of(tb, TA_PORT_LINK_ACTIVE))
		return "up";
	if (u64_or(tb, TA_PORT_SURPRISE_DOWN, 0) && tb[TA_EP_NAME] &&
	    u32_or(tb, TA_PORT_LTSSM, 0) == PCIESW_LTSSM_DETECT)
		return "surprise-down";
	return "down";
}

/* A threshold of switch @sw crossed on @port (UINT32_MAX: switch-wide)? */
static bool threshold_crossed(uint32_t sw, uint32_t port)
{
	const struct tobjs *o = &top.cur.thresholds;
	size_t i;

	for (i = 0; i < o->n; i++) {
		struct nlattr **tb = o->tb[i];

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) == sw &&
		    u32_or(tb, TA_PORT_ID, UINT32_MAX) == port &&
		    flag_of(tb, TA_THRESHOLD_CROSSED))
			return true;
	}
	return false;
}

/*
 * A cell being built, as snprintf() into its CELL_LEN bytes would (cut
 * short alike), without a format to interpret: batch mode builds every
 * cell of every port of every card each refresh.
 */
struct cell {
	char *buf;
	size_t n;		/* its length */
};

static struct cell cell_at(char *buf)
{
	buf[0] = '\0';
	return (struct cell){ buf, 0 };
}

static void cell_mem(struct cell *c, const char *s, size_t len)
{
	if (len > CELL_LEN - 1 - c->n)
		len = CELL_LEN - 1 - c->n;
	memcpy(c->buf + c->n, s, len);
	c->n += len;
	c->buf[c->n] = '\0';
}

static void cell_str(struct cell *c, const char *s)
{
	cell_mem(c, s, strlen(s));
}

static void cell_char(struct cell *c, char ch)
{
	cell_mem(c, &ch, 1);
}

/* "%" PRIu64, at least @digits digits ("%02" PRIu64 with 2) */
static void cell_uint(struct cell *c, uint64_t v, size_t digits)
{
	char d[20];
	size_t i = sizeof(d);

	do {
		d[--i] = '0' + v % 10;
		v /= 10;
	} while (v || sizeof(d) - i < digits);
	cell_mem(c, d + i, sizeof(d) - i);
}

static void cell_set(char *buf, const char *s)
{
	struct cell c = cell_at(buf);

	cell_str(&c, s);
}

/*
 * A rate for a narrow column: "1.05G", "512", "-": rate_text() without
 * the space before the prefix.
 */
static void rate_cell(char *buf, bool has, uint64_t v)
{
	static const char prefix[] = " kMGTPE";
	struct cell c = cell_at(buf);
	uint64_t div = 1;
	int i = 0;

	if (!has) {
		cell_char(&c, '-');
		return;
	}
	while (v / div >= 1000 && prefix[i + 1]) {
		div *= 1000;
		i++;
	}
	cell_uint(&c, v / div, 1);
	if (!i)
		return;
	if (v / div < 100) {
		cell_char(&c, '.');
		if (v / div >= 10)
			cell_uint(&c, v % div * 10 / div, 1);
		else
			cell_uint(&c, v % div * 100 / div, 2);
	}
	cell_char(&c, prefix[i]);
}

/* "+DELTA/TOTAL", "!" after it when a threshold was crossed */
static void err_cell(char *buf, uint64_t delta, uint64_t total, bool crossed)
{
	struct cell c = cell_at(buf);

	cell_char(&c, '+');
	cell_uint(&c, delta, 1);
	cell_char(&c, '/');
	cell_uint(&c, total, 1);
	if (crossed)
		cell_char(&c, '!');
}

/* "A/B", "-/B" when @a is not there */
static void ratio_cell(char *buf, const char *pre, bool has_a, uint32_t a,
		       uint32_t b, bool star)
{
	struct cell c = cell_at(buf);

	cell_str(&c, pre);
	if (has_a)
		cell_uint(&c, a, 1);
	else
		cell_char(&c, '-');
	cell_char(&c, '/');
	cell_uint(&c, b, 1);
	if (star)
		cell_char(&c, '*');
}

/* size_text() of @bytes, at most 15 characters of it */
static void size_cell(struct cell *c, uint64_t bytes)
{
	static const char suffix[] = "KMGTPE";
	char t[CELL_LEN];
	struct cell tc = cell_at(t);
	int i = -1;

	while (bytes && !(bytes & 1023) && i < (int)sizeof(suffix) - 2) {
		bytes >>= 10;
		i++;
	}
	cell_uint(&tc, bytes, 1);
	if (i >= 0)
		cell_char(&tc, suffix[i]);
	cell_mem(c, t, tc.n < 15 ? tc.n : 15);
}

/* A string attribute of a reply, "-" when it has none */
static const char *str_or_dash(const struct nlattr *a)
{
	return a ? nla_get_string(a) : "-";
}

/*
 * The columns of the port table and of the endpoint table, each in one
 * place: its title, width and alignment in the text and on the screen,
 * its cell of a row and how the cell stands out, and its members of the
 * row's JSON object.  A column without a title is in the JSON only.
 */

static int port_cell(const void *row, char *buf)
{
	const struct port_row *r = row;
	struct cell c = cell_at(buf);

	cell_uint(&c, r->port, 1);
	return M_NONE;
}

static void port_json(const void *row)
{
	const struct port_row *r = row;

	print_uint(PRINT_JSON, "port-id", NULL, r->port);
}

static int group_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	cell_set(buf, str_or_dash(r->tb[TA_GROUP_NAME]));
	return M_NONE;
}

static void group_json(const void *row)
{
	const struct port_row *r = row;

	json_attr_str("group-name", r->tb[TA_GROUP_NAME]);
}

static int role_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	cell_set(buf, u32_or(r->tb, TA_PORT_ROLE, 0) ==
		 PCIESW_PORT_ROLE_UPSTREAM ? "up" : "dn");
	return M_NONE;
}

static void role_json(const void *row)
{
	const struct port_row *r = row;

	print_attr_enum(PRINT_JSON, "port-role", NULL, r->tb[TA_PORT_ROLE],
			&port_role_names);
}

/* The LTSSM state while the link is up or down, else what holds it */
static int link_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	if (!strcmp(r->state, "up") || !strcmp(r->state, "down")) {
		cell_set(buf, ltssm_short(u32_or(r->tb, TA_PORT_LTSSM, 0)));
		return !strcmp(r->state, "up") ? M_GOOD : M_NONE;
	}
	cell_set(buf, !strcmp(r->state, "dpc-contained") ? "DPC" :
		 !strcmp(r->state, "surprise-down") ? "SURPRISE" : r->state);
	return !strcmp(r->state, "disabled") ? M_WARN : M_CRIT;
}

static void link_json(const void *row)
{
	const struct port_row *r = row;

	print_attr_enum(PRINT_JSON, "port-ltssm", NULL, r->tb[TA_PORT_LTSSM],
			&ltssm_names);
	print_string(PRINT_JSON, "link-state", NULL, r->state);
}

/* "5/5" while the link is up, "-/5" while it is down */
static int gen_cell(const void *row, char *buf)
{
	const struct port_row *r = row;
	uint32_t spd = u32_or(r->tb, TA_PORT_SPEED, 0);
	uint32_t max = u32_or(r->tb, TA_PORT_MAX_SPEED, 0);

	if (!flag_of(r->tb, TA_PORT_LINK_ACTIVE)) {
		ratio_cell(buf, "", false, 0, max, false);
		return M_NONE;
	}
	ratio_cell(buf, "", true, spd, max, false);
	return spd < max ? M_WARN : M_NONE;
}

static void gen_json(const void *row)
{
	const struct port_row *r = row;

	print_attr_enum(PRINT_JSON, "port-speed", NULL, r->tb[TA_PORT_SPEED],
			&link_speed_names);
	print_attr_enum(PRINT_JSON, "port-max-speed", NULL,
			r->tb[TA_PORT_MAX_SPEED], &link_speed_names);
}

/* "x8/16*" (degraded) while the link is up, "-/16" while it is down */
static int width_cell(const void *row, char *buf)
{
	const struct port_row *r = row;
	uint32_t w = u32_or(r->tb, TA_PORT_WIDTH, 0);
	uint32_t mw = u32_or(r->tb, TA_PORT_MAX_WIDTH, 0);
	bool degraded = flag_of(r->tb, TA_PORT_DEGRADED);

	if (!flag_of(r->tb, TA_PORT_LINK_ACTIVE)) {
		ratio_cell(buf, "", false, 0, mw, false);
		return M_NONE;
	}
	ratio_cell(buf, "x", true, w, mw, degraded);
	return degraded ? M_CRIT : w < mw ? M_WARN : M_NONE;
}

static void width_json(const void *row)
{
	const struct port_row *r = row;

	print_attr_u32(PRINT_JSON, "port-width", NULL, r->tb[TA_PORT_WIDTH]);
	print_attr_u32(PRINT_JSON, "port-max-width", NULL,
		       r->tb[TA_PORT_MAX_WIDTH]);
	print_bool(PRINT_JSON, "port-degraded", NULL,
		   flag_of(r->tb, TA_PORT_DEGRADED), NULL);
}

static int rx_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	rate_cell(buf, r->has_rate, r->rx);
	return M_NONE;
}

static void rx_json(const void *row)
{
	const struct port_row *r = row;

	json_rate("rx-bytes-per-sec", r->has_rate, r->rx);
}

static int tx_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	rate_cell(buf, r->has_rate, r->tx);
	return M_NONE;
}

static void tx_json(const void *row)
{
	const struct port_row *r = row;

	json_rate("tx-bytes-per-sec", r->has_rate, r->tx);
}

/* TLPs in and out together */
static int tlps_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	rate_cell(buf, r->has_rate, r->rx_tlps + r->tx_tlps);
	return M_NONE;
}

static void tlps_json(const void *row)
{
	const struct port_row *r = row;

	json_rate("rx-tlps-per-sec", r->has_rate, r->rx_tlps);
	json_rate("tx-tlps-per-sec", r->has_rate, r->tx_tlps);
}

static int cerr_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	err_cell(buf, r->ce_delta, r->ce, r->crossed);
	return r->crossed ? M_CRIT : r->ce_delta ? M_WARN : M_NONE;
}

static void cerr_json(const void *row)
{
	const struct port_row *r = row;

	print_uint(PRINT_JSON, "correctable-errors", NULL, r->ce);
}

static int uerr_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	err_cell(buf, r->ue_delta, r->ue, r->crossed);
	return r->crossed || r->ue_delta ? M_CRIT : r->ue ? M_WARN : M_NONE;
}

static void uerr_json(const void *row)
{
	const struct port_row *r = row;

	print_uint(PRINT_JSON, "uncorrectable-errors", NULL, r->ue);
}

/* JSON only: what CERR and UERR show beside the totals */
static void err_deltas_json(const void *row)
{
	const struct port_row *r = row;

	print_uint(PRINT_JSON, "correctable-errors-delta", NULL, r->ce_delta);
	print_uint(PRINT_JSON, "uncorrectable-errors-delta", NULL,
		   r->ue_delta);
	print_bool(PRINT_JSON, "threshold-crossed", NULL, r->crossed, NULL);
}

static int ep_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	cell_set(buf, str_or_dash(r->tb[TA_EP_NAME]));
	return M_NONE;
}

static void ep_json(const void *row)
{
	const struct port_row *r = row;

	json_attr_str("ep-name", r->tb[TA_EP_NAME]);
}

static int ep_pci_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	cell_set(buf, str_or_dash(r->ep_pci));
	return M_NONE;
}

static void ep_pci_json(const void *row)
{
	const struct port_row *r = row;

	json_attr_str("ep-pci-name", r->ep_pci);
}

static int port_pci_cell(const void *row, char *buf)
{
	const struct port_row *r = row;

	cell_set(buf, str_or_dash(r->tb[TA_PORT_PCI_NAME]));
	return M_NONE;
}

static void port_pci_json(const void *row)
{
	const struct port_row *r = row;

	json_attr_str("port-pci-name", r->tb[TA_PORT_PCI_NAME]);
}

static const struct column port_cols[] = {
	{ "PORT", 4, false, 0, port_cell, port_json },
	{ "GROUP", 5, true, 0, group_cell, group_json },
	{ "RL", 2, true, 0, role_cell, role_json },
	{ "LINK", 8, true, 0, link_cell, link_json },
	{ "GEN", 4, true, 0, gen_cell, gen_json },
	{ "WIDTH", 7, true, 0, width_cell, width_json },
	{ "RX/s", 6, false, 0, rx_cell, rx_json },
	{ "TX/s", 6, false, 0, tx_cell, tx_json },
	{ "TLP/s", 6, false, 0, tlps_cell, tlps_json },
	{ "CERR", 8, false, 0, cerr_cell, cerr_json },
	{ "UERR", 8, false, 0, uerr_cell, uerr_json },
	{ NULL, 0, false, 0, NULL, err_deltas_json },
	{ "EP", 7, true, 0, ep_cell, ep_json },
	{ "EP-PCI", 14, true, 100, ep_pci_cell, ep_pci_json },
	{ "PORT-PCI", 14, true, 116, port_pci_cell, port_pci_json },
};

const struct table port_table = {
	port_cols, sizeof(port_cols) / sizeof(port_cols[0])
};

static void ep_id_json(const void *row)
{
	const struct ep_row *r = row;

	print_attr_u32(PRINT_JSON, "ep-id", NULL, r->tb[TA_EP_ID]);
}

static int ep_name_cell(const void *row, char *buf)
{
	const struct ep_row *r = row;

	cell_set(buf, str_or_dash(r->tb[TA_EP_NAME]));
	return M_NONE;
}

static void ep_name_json(const void *row)
{
	const struct ep_row *r = row;

	json_attr_str("ep-name", r->tb[TA_EP_NAME]);
}

static int ep_type_cell(const void *row, char *buf)
{
	const struct ep_row *r = row;
	const char *type = enum_spec(&ep_type_names,
				     u32_or(r->tb, TA_EP_TYPE, 0));

	cell_set(buf, type ? type : "-");
	return M_NONE;
}

static void ep_type_json(const void *row)
{
	const struct ep_row *r = row;

	print_attr_enum(PRINT_JSON, "ep-type", NULL, r->tb[TA_EP_TYPE],
			&ep_type_names);
}

static int ep_port_cell(const void *row, char *buf)
{
	const struct ep_row *r = row;
	struct cell c = cell_at(buf);

	if (r->tb[TA_PORT_ID])
		cell_uint(&c, nla_get_u32(r->tb[TA_PORT_ID]), 1);
	else
		cell_char(&c, '-');
	return M_NONE;
}

static void ep_port_json(const void *row)
{
	const struct ep_row *r = row;

	print_attr_u32(PRINT_JSON, "port-id", NULL, r->tb[TA_PORT_ID]);
}

/* "RESIDENT/SIZE" of the window */
static int resident_cell(const void *row, char *buf)
{
	const struct ep_row *r = row;
	struct cell c = cell_at(buf);

	size_cell(&c, r->resident ? nla_get_u64(r->resident) : 0);
	cell_char(&c, '/');
	size_cell(&c, u64_or(r->tb, TA_EP_MEM_SIZE, 0));
	return M_NONE;
}

static void resident_json(const void *row)
{
	const struct ep_row *r = row;

	print_attr_u64(PRINT_JSON, "ep-mem-size", NULL,
		       r->tb[TA_EP_MEM_SIZE]);
	print_attr_u64(PRINT_JSON, "ep-mem-resident", NULL, r->resident);
}

static void ep_pci_name_json(const void *row)
{
	const struct ep_row *r = row;

	json_attr_str("ep-pci-name", r->tb[TA_EP_PCI_NAME]);
}

static int disk_cell(const void *row, char *buf)
{
	const struct ep_row *r = row;

	cell_set(buf, str_or_dash(r->tb[TA_EP_DISK_NAME]));
	return M_NONE;
}

static void disk_json(const void *row)
{
	const struct ep_row *r = row;

	json_attr_str("ep-disk-name", r->tb[TA_EP_DISK_NAME]);
}

static int read_cell(const void *row, char *buf)
{
	const struct ep_row *r = row;

	rate_cell(buf, r->io.has, r->io.rbytes);
	return M_NONE;
}

static void read_json(const void *row)
{
	const struct ep_row *r = row;

	json_rate("nvme-bytes-read-per-sec", r->io.has, r->io.rbytes);
}

static int write_cell(const void *row, char *buf)
{
	const struct ep_row *r = row;

	rate_cell(buf, r->io.has, r->io.wbytes);
	return M_NONE;
}

static void write_json(const void *row)
{
	const struct ep_row *r = row;

	json_rate("nvme-bytes-written-per-sec", r->io.has, r->io.wbytes);
}

/* JSON only: the drive's commands, beside its bytes */
static void commands_json(const void *row)
{
	const struct ep_row *r = row;

	json_rate("nvme-host-reads-per-sec", r->io.has, r->io.reads);
	json_rate("nvme-host-writes-per-sec", r->io.has, r->io.writes);
}

static const struct column ep_cols[] = {
	{ NULL, 0, false, 0, NULL, ep_id_json },
	{ "ENDPOINT", 8, true, 0, ep_name_cell, ep_name_json },
	{ "TYPE", 4, true, 0, ep_type_cell, ep_type_json },
	{ "PORT", 4, false, 0, ep_port_cell, ep_port_json },
	{ "RESIDENT", 13, false, 0, resident_cell, resident_json },
	{ NULL, 0, false, 0, NULL, ep_pci_name_json },
	{ "DISK", 12, true, 0, disk_cell, disk_json },
	{ "READ/s", 7, false, 0, read_cell, read_json },
	{ "WRITE/s", 7, false, 0, write_cell, write_json },
	{ NULL, 0, false, 0, NULL, commands_json },
};

const struct table ep_table = {
	ep_cols, sizeof(ep_cols) / sizeof(ep_cols[0])
};

/* The PCI name of the endpoint of row @r's port, of switch @sw. */
static struct nlattr *ep_pci_of(const struct port_row *r, uint32_t sw)
{
	/* the ports come in the endpoints' order: the next one, mostly */
	static size_t hint;
	long i;

	if (!r->tb[TA_EP_ID])
		return NULL;
	i = find_obj(shown_eps(), sw, r->port, hint);
	if (i < 0)
		return NULL;
	hint = i + 1;
	return shown_eps()->tb[i][TA_EP_PCI_NAME];
}

static int cmp_rows(const void *a, const void *b)
{
	const struct port_row *x = a, *y = b;
	uint64_t vx, vy;

	switch (top.sort) {
	case SORT_TRAFFIC:
		vx = x->rx + x->tx;
		vy = y->rx + y->tx;
		break;
	case SORT_ERRORS:
		vx = x->ce_delta + x->ue_delta;
		vy = y->ce_delta + y->ue_delta;
		if (vx == vy) {
			vx = x->ce + x->ue;
			vy = y->ce + y->ue;
		}
		break;
	default:
		vx = vy = 0;
		break;
	}
	if (vx != vy)
		return vx < vy ? 1 : -1;
	return x->port < y->port ? -1 : x->port > y->port;
}

/*
 * The rows of switch @sw in the current snapshot, sorted, into *@rows
 * (freed by the caller); their number.  @filter: only ports with errors
 * when the view asks so.
 */
size_t port_rows(uint32_t sw, struct port_row **rows, bool filter)
{
	const struct tobjs *ports = &top.info.ports;
	size_t i, n = 0, first = ports->n, last = 0;

	/* the switch's ports, next to each other in the dump */
	for (i = 0; i < ports->n; i++) {
		if (u32_or(ports->tb[i], TA_SWITCH_ID, UINT32_MAX) != sw)
			continue;
		if (first == ports->n)
			first = i;
		last = i + 1;
	}
	*rows = xreallocarray(NULL, last > first ? last - first : 1,
			      sizeof(**rows));
	for (i = first; i < last; i++) {
		struct nlattr **tb = ports->tb[i];
		struct port_row *r = &(*rows)[n];

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != sw ||
		    !tb[TA_PORT_ID])
			continue;
		memset(r, 0, sizeof(*r));
		r->tb = tb;
		r->port = nla_get_u32(tb[TA_PORT_ID]);
		r->state = link_state(tb);
		port_rates(r, sw, i);
		r->crossed = threshold_crossed(sw, r->port);
		r->ep_pci = ep_pci_of(r, sw);
		if (filter && top.errors_only && !r->ce && !r->ue)
			continue;
		n++;
	}
	qsort(*rows, n, sizeof(**rows), cmp_rows);
	return n;
}

/* Is the endpoint of @tb one the text and the screen show (a GPU, a drive)? */
static bool shows_ep(struct nlattr **tb)
{
	uint32_t type = u32_or(tb, TA_EP_TYPE, 0);

	return type == PCIESW_EP_TYPE_GPU || type == PCIESW_EP_TYPE_NVME;
}

/*
 * The endpoints of switch @sw shown now into *@rows (freed by the
 * caller), in the order of shown_eps(): all of them (@all, the JSON), or
 * the GPUs and drives (the text, the screen); their number.
 */
size_t ep_rows(uint32_t sw, bool all, struct ep_row **rows)
{
	const struct tobjs *e = shown_eps();
	size_t k, n = 0;

	*rows = xreallocarray(NULL, e->n ? e->n : 1, sizeof(**rows));
	for (k = 0; k < e->n; k++) {
		struct nlattr **tb = e->tb[k];
		struct ep_row *r = &(*rows)[n];

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != sw ||
		    (!all && !shows_ep(tb)))
			continue;
		r->tb = tb;
		r->resident = top.res[k];
		io_rates(tb, &r->io);
		n++;
	}
	return n;
}
