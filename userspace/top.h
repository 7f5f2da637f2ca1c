/* SPDX-License-Identifier: GPL-2.0 */
/*
 * switchctl top's parts, what they share: the snapshot's parsed replies,
 * what is kept between snapshots (the state of top), the attributes'
 * accessors and what each file offers the others.
 *
 *   cmd_top.c       the command: its arguments, the loop, the events as
 *                   they come (and what top does, in its comment)
 *   top_snapshot.c  the dumps of each refresh, and the ports, firmware
 *                   and endpoints kept until they change
 *   top_rates.c     rates per second and error deltas between snapshots
 *   top_rows.c      the columns of the port and the endpoint tables, one
 *                   table each for all three outputs, and a card's rows
 *   top_header.c    the title and a card's header lines (text, screen)
 *   top_text.c      batch text (-b)
 *   top_json.c      batch JSON (-j)
 *   top_screen.c    the full screen (ncurses), its help and its keys
 *
 * The three outputs render the rows from the tables of top_rows.c: a
 * column is one entry there, its title, cell and JSON members together.
 */
#ifndef SWITCHCTL_TOP_H
#define SWITCHCTL_TOP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "nl.h"
#include "objs.h"

/* Events kept for the screen */
#define NR_EVENT_LINES	64
/* The longest cell of a row */
#define CELL_LEN	40

struct top_opts {
	struct target t;
	int64_t interval_ms;
	bool batch, json;
	unsigned long count;	/* 0: until q or a signal */
};

/*
 * The attributes top reads of the objects it fetches.  A snapshot holds
 * some 700 replies with 16 pex89144 cards: each is parsed into a compact
 * table of these (tb[TA_PORT_ID]) rather than one PCIESW_A_MAX wide.
 */
#define TOP_ATTRS(X) \
	X(SWITCH_ID) X(SWITCH_NAME) X(SWITCH_PROFILE) X(SWITCH_SERIAL) \
	X(SWITCH_PCI_VIEW) X(SWITCH_PCI_DOMAIN) X(SWITCH_DMA_INFLIGHT) \
	X(SWITCH_DMA_PACING) X(SWITCH_NR_PORTS) X(THERMAL_HIGHEST) \
	X(FW_RUNNING_VERSION) X(PORT_ID) X(GROUP_NAME) X(PORT_ROLE) \
	X(PORT_LTSSM) X(PORT_SPEED) X(PORT_MAX_SPEED) X(PORT_WIDTH) \
	X(PORT_MAX_WIDTH) X(PORT_DEGRADED) X(PORT_LINK_ACTIVE) \
	X(PORT_ENABLED) X(PORT_DPC_CONTAINED) X(PORT_SURPRISE_DOWN) \
	X(PORT_PCI_NAME) X(COUNTER_ID) X(THRESHOLD_CROSSED) X(EP_ID) \
	X(EP_NAME) X(EP_TYPE) X(EP_MEM_SIZE) X(EP_MEM_RESIDENT) \
	X(EP_PCI_NAME) X(EP_DISK_NAME) X(SENSOR_LABEL) X(SENSOR_TEMP) \
	X(SENSOR_MAX) X(SENSOR_CRIT) X(SENSOR_MAX_ALARM) X(SENSOR_CRIT_ALARM) \
	X(NVME_BYTES_READ) X(NVME_BYTES_WRITTEN) X(NVME_HOST_READS) \
	X(NVME_HOST_WRITES)

enum {
	TA_NONE,		/* the attributes top does not read */
#define TA_ENUM(name) TA_##name,
	TOP_ATTRS(TA_ENUM)
#undef TA_ENUM
	NR_TA
};

_Static_assert(NR_TA <= UINT8_MAX + 1, "a slot is a uint8_t");

/* The replies of one dump, each parsed into a compact table. */
struct tobjs {
	struct nl_dump d;
	struct nlattr *(*tb)[NR_TA];
	size_t n;
};

/* A drive's I/O counters in a snapshot (ep-brief's nvme-bytes-read...). */
struct ep_io {
	uint32_t sw, ep;
	uint64_t rbytes, wbytes, reads, writes;
};

/* The error and traffic sums of a counter-get reply. */
struct port_sums {
	uint64_t ce, ue, rx, tx, rx_tlps, tx_tlps;
};

/* One refresh: what changes without a notification, parsed. */
struct snap {
	uint64_t ns;		/* CLOCK_MONOTONIC when fetched */
	struct tobjs sw, thermal, counters, thresholds, eps;
	struct port_sums *sums;		/* of each of the counters */
	struct ep_io *io;		/* by switch and endpoint id */
	size_t nr_io;
};

/*
 * What changes only with a notification, kept across snapshots: the
 * ports (a port-change-ntf comes with every change of a link's state,
 * speed or width, of its settings, DPC and surprise down; ep-add/del,
 * group-change and switch-change for its endpoint, its group and its PCI
 * name) and the firmware (fw-change-ntf).  The LTSSM passes through
 * Detect, Polling, Configuration and Recovery without one, for a step of
 * 2 ms each, and ends in L0 with one (or, a retrain at the same speed and
 * width, where it was): a row shows where the link settled.  And the
 * endpoints but their resident memory (ep-add/del-ntf, ep-change-ntf,
 * switch-change-ntf for their PCI names), which each snapshot has.
 */
struct info {
	uint64_t ns;		/* CLOCK_MONOTONIC when fetched */
	struct tobjs fw, ports, eps;
	bool have, stale;
	unsigned long lost;	/* monitor_events_lost when fetched */
};

/* Where the error deltas count from, per switch and port. */
struct err_base {
	bool known;
	uint64_t ce, ue;
};

/* A drive's I/O rates between the last two snapshots. */
struct io_rates {
	bool has;
	uint64_t rbytes, wbytes, reads, writes;
};

/* How a cell or line stands out: on screen in colour, in text with marks. */
enum { M_NONE, M_GOOD, M_WARN, M_CRIT };

/* A port of a snapshot with what top computes for it. */
struct port_row {
	struct nlattr **tb;
	uint32_t port;
	bool has_rate;
	uint64_t rx, tx, rx_tlps, tx_tlps;	/* per second */
	uint64_t ce, ue, ce_delta, ue_delta;
	bool crossed;		/* a threshold on the port was crossed */
	const char *state;	/* link-state */
	struct nlattr *ep_pci;	/* its endpoint's PCI name */
};

/* An endpoint of a snapshot with what top computes for it. */
struct ep_row {
	struct nlattr **tb;
	struct nlattr *resident;	/* its ep-mem-resident (top.res) */
	struct io_rates io;
};

/*
 * A column of the port or the endpoint table (top_rows.c), in all three
 * outputs: the text and the screen show its title and its cells, the
 * JSON object of a row has its members, all in the table's order.
 */
struct column {
	const char *title;	/* NULL: in the JSON only */
	int width;		/* 0: the rest of the line */
	bool left;		/* left-aligned */
	int min_cols;		/* shown on screens at least this wide */
	/* the cell of a row, into CELL_LEN bytes; how it stands out */
	int (*cell)(const void *row, char *buf);
	/* the members of a row's JSON object */
	void (*json)(const void *row);
};

/* The columns of a table, in their order. */
struct table {
	const struct column *cols;
	size_t n;
};

/* The orders of the port rows (s on the screen). */
enum { SORT_PORT, SORT_TRAFFIC, SORT_ERRORS, NR_SORTS };

/* One line of a header, and how it stands out. */
struct hline {
	char text[512];
	int mark;
};

/* What top keeps from one refresh to the next. */
struct top_state {
	struct top_opts o;
	struct nl_session *s;		/* requests */
	struct nl_session *ev;		/* events */
	int ev_fd, family;
	char *ev_buf;
	size_t ev_cap;
	bool loaded;			/* the family is there */
	bool nested;			/* it refused counter-packed */
	bool primed;			/* monitor's port states are */
	bool full_eps;			/* it refused ep-brief */
	struct nlattr **res;		/* each shown endpoint's resident */
	bool said_gone;			/* batch: "unloaded" said once */
	struct snap cur, prev;
	bool have_cur, have_prev;
	struct info info;		/* ports, firmware */
	bool rebase;			/* deltas count from the next snapshot */
	struct {
		struct err_base *p;
		size_t n;
	} base[PCIESW_MAX_SWITCH_ID + 1];
	char msg[256];			/* the last error, for the status line */
	/* events: lines for the screen, messages for batch output */
	char *lines[NR_EVENT_LINES];
	size_t nr_lines;
	struct nlmsghdr **pending;
	size_t nr_pending, cap_pending;
	/* the screen */
	bool screen;
	int card;			/* the card shown: its switch id */
	int sort;
	bool errors_only, help;
	int scroll;
	unsigned long snapshots;
};

/*
 * The values of attributes parsed into a table (their lengths checked),
 * read inline: nla_get_u32() is a call into libnl (through its PLT) for
 * a load, and a refresh reads some ten thousand of them, most of them a
 * switch id to find a card's objects.
 */
static inline const void *attr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static inline uint32_t u32_or(struct nlattr **tb, int attr, uint32_t def)
{
	uint32_t v;

	if (!tb[attr])
		return def;
	memcpy(&v, attr_data(tb[attr]), sizeof(v));
	return v;
}

static inline uint64_t u64_or(struct nlattr **tb, int attr, uint64_t def)
{
	uint64_t v;

	if (!tb[attr])
		return def;
	memcpy(&v, attr_data(tb[attr]), sizeof(v));
	return v;
}

static inline bool flag_of(struct nlattr **tb, int attr)
{
	return tb[attr] && *(const uint8_t *)attr_data(tb[attr]);
}

/* cmd_top.c: the loop, the events */
extern struct top_state top;
void print_pending(void);

/* top_snapshot.c: the snapshot */
extern uint8_t ta_slot[PCIESW_A_MAX + 1];
void ta_init(void);
const struct nlmsghdr *tobjs_hdr(const struct tobjs *o, size_t i);
void snap_free(struct snap *sn);
void info_free(struct info *in);
long find_obj(const struct tobjs *o, uint32_t sw, uint32_t port,
	      size_t hint);
int cmp_io(const void *a, const void *b);
void close_sessions(void);
const struct tobjs *shown_eps(void);
bool take_snapshot(void);

/* top_rates.c: rates and deltas */
void forget_bases(uint32_t sw);
void port_sums(const struct nlmsghdr *nlh, struct port_sums *ps);
void port_rates(struct port_row *r, uint32_t sw, size_t hint);
void update_bases(void);
void clear_deltas(void);
void io_rates(struct nlattr **tb, struct io_rates *r);

/* top_rows.c: the layout */
extern const struct table port_table, ep_table;
size_t port_rows(uint32_t sw, struct port_row **rows, bool filter);
size_t ep_rows(uint32_t sw, bool all, struct ep_row **rows);

/* top_header.c: above the rows */
size_t header_lines(size_t i, struct hline *h, size_t max);
void title_text(char *buf, size_t len);

/* top_text.c: batch text */
void batch_text(bool ok);

/* top_json.c: batch JSON; a value as a member, for the columns too */
void json_attr_str(const char *key, const struct nlattr *a);
void json_rate(const char *key, bool has, uint64_t v);
void batch_json(bool ok);

/* top_screen.c: the screen */
void screen_end(void);
void screen_start(void);
void screen_draw(void);
bool screen_key(int ch);

#endif /* SWITCHCTL_TOP_H */
