// SPDX-License-Identifier: GPL-2.0
/*
 * top's layout, what the text and the screen show alike: the title, the
 * header lines of a card, the port table's and the endpoint table's
 * columns and the cells of their rows, sorted and filtered.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "names.h"
#include "objprint.h"
#include "top.h"
#include "util.h"

const struct column port_cols[NR_COLS] = {
	[C_PORT] = { "PORT", 4, false, 0 },
	[C_GROUP] = { "GROUP", 5, true, 0 },
	[C_ROLE] = { "RL", 2, true, 0 },
	[C_LINK] = { "LINK", 8, true, 0 },
	[C_GEN] = { "GEN", 4, true, 0 },
	[C_WIDTH] = { "WIDTH", 7, true, 0 },
	[C_RX] = { "RX/s", 6, false, 0 },
	[C_TX] = { "TX/s", 6, false, 0 },
	[C_TLPS] = { "TLP/s", 6, false, 0 },
	[C_CERR] = { "CERR", 8, false, 0 },
	[C_UERR] = { "UERR", 8, false, 0 },
	[C_EP] = { "EP", 7, true, 0 },
	[C_EP_PCI] = { "EP-PCI", 14, true, 100 },
	[C_PORT_PCI] = { "PORT-PCI", 14, true, 116 },
};

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

static void fill_cells(struct port_row *r)
{
	struct nlattr **tb = r->tb;
	struct cell c;
	const char *role;

	c = cell_at(r->cell[C_PORT]);
	cell_uint(&c, r->port, 1);
	cell_set(r->cell[C_GROUP], tb[TA_GROUP_NAME] ?
		 nla_get_string(tb[TA_GROUP_NAME]) : "-");
	role = u32_or(tb, TA_PORT_ROLE, 0) == PCIESW_PORT_ROLE_UPSTREAM ?
	       "up" : "dn";
	cell_set(r->cell[C_ROLE], role);

	if (!strcmp(r->state, "up") || !strcmp(r->state, "down")) {
		cell_set(r->cell[C_LINK],
			 ltssm_short(u32_or(tb, TA_PORT_LTSSM, 0)));
		r->mark[C_LINK] = !strcmp(r->state, "up") ? M_GOOD : M_NONE;
	} else {
		cell_set(r->cell[C_LINK],
			 !strcmp(r->state, "dpc-contained") ? "DPC" :
			 !strcmp(r->state, "surprise-down") ? "SURPRISE" :
			 r->state);
		r->mark[C_LINK] = !strcmp(r->state, "disabled") ? M_WARN :
				  M_CRIT;
	}

	if (flag_of(tb, TA_PORT_LINK_ACTIVE)) {
		uint32_t spd = u32_or(tb, TA_PORT_SPEED, 0);
		uint32_t max = u32_or(tb, TA_PORT_MAX_SPEED, 0);
		uint32_t w = u32_or(tb, TA_PORT_WIDTH, 0);
		uint32_t mw = u32_or(tb, TA_PORT_MAX_WIDTH, 0);
		bool degraded = flag_of(tb, TA_PORT_DEGRADED);

		ratio_cell(r->cell[C_GEN], "", true, spd, max, false);
		r->mark[C_GEN] = spd < max ? M_WARN : M_NONE;
		ratio_cell(r->cell[C_WIDTH], "x", true, w, mw, degraded);
		r->mark[C_WIDTH] = degraded ? M_CRIT :
				   w < mw ? M_WARN : M_NONE;
	} else {
		ratio_cell(r->cell[C_GEN], "", false, 0,
			   u32_or(tb, TA_PORT_MAX_SPEED, 0), false);
		ratio_cell(r->cell[C_WIDTH], "", false, 0,
			   u32_or(tb, TA_PORT_MAX_WIDTH, 0), false);
	}
	rate_cell(r->cell[C_RX], r->has_rate, r->rx);
	rate_cell(r->cell[C_TX], r->has_rate, r->tx);
	rate_cell(r->cell[C_TLPS], r->has_rate, r->rx_tlps + r->tx_tlps);
	err_cell(r->cell[C_CERR], r->ce_delta, r->ce, r->crossed);
	err_cell(r->cell[C_UERR], r->ue_delta, r->ue, r->crossed);
	r->mark[C_CERR] = r->ce_delta ? M_WARN : M_NONE;
	r->mark[C_UERR] = r->ue_delta ? M_CRIT : r->ue ? M_WARN : M_NONE;
	if (r->crossed)
		r->mark[C_CERR] = r->mark[C_UERR] = M_CRIT;
	cell_set(r->cell[C_EP], tb[TA_EP_NAME] ?
		 nla_get_string(tb[TA_EP_NAME]) : "-");
	cell_set(r->cell[C_PORT_PCI], tb[TA_PORT_PCI_NAME] ?
		 nla_get_string(tb[TA_PORT_PCI_NAME]) : "-");
	cell_set(r->cell[C_EP_PCI], "-");
}

/* The endpoint of the row's port: its PCI name. */
static void fill_ep_pci(struct port_row *r, uint32_t sw)
{
	/* the ports come in the endpoints' order: the next one, mostly */
	static size_t hint;
	long i;

	if (!r->tb[TA_EP_ID])
		return;
	i = find_obj(shown_eps(), sw, r->port, hint);
	if (i >= 0)
		hint = i + 1;
	if (i >= 0 && shown_eps()->tb[i][TA_EP_PCI_NAME])
		cell_set(r->cell[C_EP_PCI],
			 nla_get_string(shown_eps()->tb[i][TA_EP_PCI_NAME]));
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
	/* not zeroed: fill_cells() writes every cell */
	*rows = xreallocarray(NULL, last > first ? last - first : 1,
			      sizeof(**rows));
	for (i = first; i < last; i++) {
		struct nlattr **tb = ports->tb[i];
		struct port_row *r = &(*rows)[n];

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != sw ||
		    !tb[TA_PORT_ID])
			continue;
		memset(r, 0, offsetof(struct port_row, cell));
		memset(r->mark, 0, sizeof(r->mark));
		r->tb = tb;
		r->port = nla_get_u32(tb[TA_PORT_ID]);
		r->state = link_state(tb);
		port_rates(r, sw, i);
		r->crossed = threshold_crossed(sw, r->port);
		fill_cells(r);
		fill_ep_pci(r, sw);
		if (filter && top.errors_only && !r->ce && !r->ue)
			continue;
		n++;
	}
	qsort(*rows, n, sizeof(**rows), cmp_rows);
	return n;
}

static void happend(struct hline *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void happend(struct hline *h, const char *fmt, ...)
{
	size_t n = strlen(h->text);
	va_list ap;

	if (n >= sizeof(h->text) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(h->text + n, sizeof(h->text) - n, fmt, ap);
	va_end(ap);
}

/* "core 45.1 host 43.0 ... °C (max 95.0 crit 105.0)", marked */
static void thermal_line(struct hline *h, uint32_t sw)
{
	long ti = find_obj(&top.cur.thermal, sw, UINT32_MAX, 0);
	struct nlattr *tb[NR_TA];
	const struct nlmsghdr *nlh;
	struct nlattr *a;
	int rem, max = 0, crit = 0;
	bool same = true, first = true;
	char t[32];

	snprintf(h->text, sizeof(h->text), "  temp");
	if (ti < 0) {
		happend(h, " -");
		return;
	}
	nlh = tobjs_hdr(&top.cur.thermal, ti);
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		const char *label;
		int tmax, tcrit, temp;

		if (nla_type(a) != PCIESW_A_THERMAL_SENSOR ||
		    nl_parse_nest_slots(a, ta_slot, tb, NR_TA) < 0 ||
		    !tb[TA_SENSOR_TEMP])
			continue;
		temp = nla_get_s32(tb[TA_SENSOR_TEMP]);
		tmax = tb[TA_SENSOR_MAX] ?
		       nla_get_s32(tb[TA_SENSOR_MAX]) : 0;
		tcrit = tb[TA_SENSOR_CRIT] ?
			nla_get_s32(tb[TA_SENSOR_CRIT]) : 0;
		if (!first && (tmax != max || tcrit != crit))
			same = false;
		max = tmax;
		crit = tcrit;
		label = tb[TA_SENSOR_LABEL] ?
			nla_get_string(tb[TA_SENSOR_LABEL]) : "?";
		if (!strncmp(label, "serdes-", 7))
			label += 7;
		temp_text(t, sizeof(t), temp);
		happend(h, " %s %s", label, t);
		if (flag_of(tb, TA_SENSOR_CRIT_ALARM) ||
		    (tcrit && temp >= tcrit)) {
			happend(h, " CRIT");
			h->mark = M_CRIT;
		} else if (flag_of(tb, TA_SENSOR_MAX_ALARM) ||
			   (tmax && temp >= tmax)) {
			happend(h, " WARN");
			if (h->mark < M_WARN)
				h->mark = M_WARN;
		}
		if (!same)
			happend(h, " (max %d.%d crit %d.%d)", tmax / 1000,
				abs(tmax % 1000) / 100, tcrit / 1000,
				abs(tcrit % 1000) / 100);
		first = false;
	}
	if (!first && same) {
		temp_text(t, sizeof(t), max);
		happend(h, "  max %s", t);
		temp_text(t, sizeof(t), crit);
		happend(h, " crit %s", t);
	}
}

/* The header lines of switch @sw (index @i of the snapshot's switches). */
size_t header_lines(size_t i, struct hline *h, size_t max)
{
	struct nlattr **sw = top.cur.sw.tb[i];
	uint32_t id = u32_or(sw, TA_SWITCH_ID, 0);
	const struct tobjs *th = &top.cur.thresholds;
	size_t n = 0, k;
	long fi;

	if (max < 3)
		return 0;
	memset(h, 0, max * sizeof(*h));
	happend(&h[0], "%s %s",
		sw[TA_SWITCH_NAME] ?
		nla_get_string(sw[TA_SWITCH_NAME]) : "?",
		sw[TA_SWITCH_PROFILE] ?
		nla_get_string(sw[TA_SWITCH_PROFILE]) : "?");
	if (sw[TA_SWITCH_SERIAL])
		happend(&h[0], "  serial %s",
			nla_get_string(sw[TA_SWITCH_SERIAL]));
	fi = find_obj(&top.info.fw, id, UINT32_MAX, i);
	if (fi >= 0 && top.info.fw.tb[fi][TA_FW_RUNNING_VERSION])
		happend(&h[0], "  fw %s",
			nla_get_string(top.info.fw.tb[fi][TA_FW_RUNNING_VERSION]));
	if (flag_of(sw, TA_SWITCH_PCI_VIEW))
		happend(&h[0], "  domain %x",
			u32_or(sw, TA_SWITCH_PCI_DOMAIN, 0));
	else
		happend(&h[0], "  pci-view off");
	n++;
	thermal_line(&h[n++], id);
	happend(&h[n], "  dma in flight %u  pacing %s",
		u32_or(sw, TA_SWITCH_DMA_INFLIGHT, 0),
		flag_of(sw, TA_SWITCH_DMA_PACING) ? "on" : "off");
	for (k = 0; k < th->n; k++) {
		struct nlattr **tb = th->tb[k];
		const char *name;

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != id ||
		    !flag_of(tb, TA_THRESHOLD_CROSSED))
			continue;
		name = enum_spec(&counter_names,
				 u32_or(tb, TA_COUNTER_ID, 0));
		if (tb[TA_PORT_ID])
			happend(&h[n], "  threshold %s port %u!", name ? name : "?",
				nla_get_u32(tb[TA_PORT_ID]));
		else
			happend(&h[n], "  threshold %s switch!", name ? name : "?");
		h[n].mark = M_CRIT;
	}
	n++;
	return n;
}

const struct column ep_cols[NR_ECOLS] = {
	[E_NAME] = { "ENDPOINT", 8, true, 0 },
	[E_TYPE] = { "TYPE", 4, true, 0 },
	[E_PORT] = { "PORT", 4, false, 0 },
	[E_RESIDENT] = { "RESIDENT", 13, false, 0 },
	[E_DISK] = { "DISK", 12, true, 0 },
	[E_READ] = { "READ/s", 7, false, 0 },
	[E_WRITE] = { "WRITE/s", 7, false, 0 },
};

bool shows_ep(struct nlattr **tb)
{
	uint32_t type = u32_or(tb, TA_EP_TYPE, 0);

	return type == PCIESW_EP_TYPE_GPU || type == PCIESW_EP_TYPE_NVME;
}

/* size_text() of @bytes, into 16 bytes as ep_cells() had it */
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

/* The cells of endpoint @k of shown_eps(). */
void ep_cells(size_t k, char cell[][CELL_LEN])
{
	struct nlattr **tb = shown_eps()->tb[k];
	struct io_rates dr;
	struct cell c;
	const char *type = enum_spec(&ep_type_names,
				     u32_or(tb, TA_EP_TYPE, 0));

	cell_set(cell[E_NAME], tb[TA_EP_NAME] ?
		 nla_get_string(tb[TA_EP_NAME]) : "-");
	cell_set(cell[E_TYPE], type ? type : "-");
	c = cell_at(cell[E_PORT]);
	if (tb[TA_PORT_ID])
		cell_uint(&c, nla_get_u32(tb[TA_PORT_ID]), 1);
	else
		cell_char(&c, '-');
	c = cell_at(cell[E_RESIDENT]);
	size_cell(&c, top.res[k] ? nla_get_u64(top.res[k]) : 0);
	cell_char(&c, '/');
	size_cell(&c, u64_or(tb, TA_EP_MEM_SIZE, 0));
	cell_set(cell[E_DISK], tb[TA_EP_DISK_NAME] ?
		 nla_get_string(tb[TA_EP_DISK_NAME]) : "-");
	io_rates(tb, &dr);
	rate_cell(cell[E_READ], dr.has, dr.rbytes);
	rate_cell(cell[E_WRITE], dr.has, dr.wbytes);
}

/* "switchctl top  12:00:01  2 switches  every 1.0 s" */
void title_text(char *buf, size_t len)
{
	char stamp[16];
	struct tm tm;
	time_t t = time(NULL);

	if (!localtime_r(&t, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm))
		snprintf(stamp, sizeof(stamp), "?");
	if (!top.loaded)
		snprintf(buf, len,
			 "switchctl top - %s  pciesw module not loaded: waiting for it",
			 stamp);
	else
		snprintf(buf, len,
			 "switchctl top - %s  %zu switch%s  every %" PRId64 ".%" PRId64 " s",
			 stamp, top.cur.sw.n, top.cur.sw.n == 1 ? "" : "es",
			 top.o.interval_ms / 1000,
			 top.o.interval_ms % 1000 / 100);
}
