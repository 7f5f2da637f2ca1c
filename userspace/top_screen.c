// SPDX-License-Identifier: GPL-2.0
/*
 * top's full screen (ncurses): one card at a time, its header, the port
 * rows that fit (colours for what stands out), the endpoints when there
 * is room, the status line and the last events; the help screen and the
 * keys.
 */

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "top.h"

static const char *const sort_names[NR_SORTS] = { "port", "traffic", "errors" };

static bool curses_on;
/* The terminal's locale is UTF-8: the degree sign can be shown. */
static bool utf8;

void screen_end(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

/* A crash still gives the terminal back. */
static void on_fatal(int sig)
{
	screen_end();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int attr_of(int mark)
{
	if (!has_colors())
		return mark == M_CRIT ? A_REVERSE : mark == M_WARN ? A_BOLD :
		       A_NORMAL;
	switch (mark) {
	case M_GOOD:
		return COLOR_PAIR(1);
	case M_WARN:
		return COLOR_PAIR(2) | A_BOLD;
	case M_CRIT:
		return COLOR_PAIR(3) | A_BOLD;
	default:
		return A_NORMAL;
	}
}

void screen_start(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	size_t i;

	setlocale(LC_CTYPE, "");
	utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	initscr();
	curses_on = true;
	atexit(screen_end);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], on_fatal);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_GREEN, -1);
		init_pair(2, COLOR_YELLOW, -1);
		init_pair(3, COLOR_RED, -1);
	}
}

/* Draws @s at row @y from column @x, at most to the right edge. */
static void put(int y, int x, const char *s, int mark)
{
	char buf[512], *d = buf;
	int cols = COLS;

	if (y >= LINES || x >= cols)
		return;
	/* "45.0°C" is "45.0C" where the terminal cannot show the sign */
	for (; !utf8 && *s && d < buf + sizeof(buf) - 1; s++) {
		if (!strncmp(s, "\u00b0", 2)) {
			s++;
			continue;
		}
		*d++ = *s;
	}
	*d = '\0';
	attrset(attr_of(mark));
	mvaddnstr(y, x, utf8 ? s : buf, cols - x);
	attrset(A_NORMAL);
}

/*
 * The titles of table @t's columns (@row NULL, reversed) or the cells of
 * a row, the columns the screen has room for.
 */
static void put_row(int y, const struct table *t, const void *row)
{
	char cell[CELL_LEN], buf[CELL_LEN + 2];
	int x = 0, mark, attr = row ? 0 : A_REVERSE;
	size_t c;

	for (c = 0; c < t->n; c++) {
		const struct column *col = &t->cols[c];

		if (!col->title || col->min_cols > COLS)
			continue;
		mark = M_NONE;
		if (row)
			mark = col->cell(row, cell);
		else
			snprintf(cell, sizeof(cell), "%s", col->title);
		snprintf(buf, sizeof(buf), col->left ? "%-*s" : "%*s",
			 col->width, cell);
		if (attr)
			attron(attr);
		put(y, x, buf, mark);
		if (attr) {
			attron(attr);
			mvchgat(y, x, (int)strlen(buf) < COLS - x ?
				(int)strlen(buf) + 1 : COLS - x, attr, 0,
				NULL);
			attroff(attr);
		}
		x += (int)strlen(buf) + 1;
	}
}

/* The index in the snapshot of the card shown, or -1. */
static long shown_card(void)
{
	long i, best = -1;

	for (i = 0; i < (long)top.cur.sw.n; i++) {
		uint32_t id = u32_or(top.cur.sw.tb[i], TA_SWITCH_ID, 0);

		if ((int)id == top.card)
			return i;
		/* gone: the next one after it, or the first */
		if (best < 0 || ((int)id > top.card &&
				 (int)u32_or(top.cur.sw.tb[best],
					     TA_SWITCH_ID, 0) < top.card))
			best = i;
	}
	if (best >= 0)
		top.card = u32_or(top.cur.sw.tb[best], TA_SWITCH_ID, 0);
	return best;
}

static void next_card(int dir)
{
	long i = shown_card(), n = top.cur.sw.n;

	if (i < 0 || n < 2)
		return;
	i = (i + dir + n) % n;
	top.card = u32_or(top.cur.sw.tb[i], TA_SWITCH_ID, 0);
	top.scroll = 0;
}

static void draw_help(void)
{
	static const char *const lines[] = {
		"switchctl top: keys",
		"",
		"  q        quit",
		"  n / p    next / previous card",
		"  s        sort the ports: by port, traffic, errors",
		"  e        only the ports with errors (on/off)",
		"  c        clear the deltas: count errors from now",
		"  up/down  scroll the ports",
		"  h        this help; any key goes back",
		"",
		"LINK: LTSSM state, disabled, DPC (contained), SURPRISE (down)",
		"GEN, WIDTH: now/max, * degraded; CERR, UERR: +delta/total,",
		"! a threshold crossed; WARN/CRIT: a sensor over max/crit",
	};
	size_t i;

	erase();
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		put(i, 0, lines[i], i ? M_NONE : M_GOOD);
	refresh();
}

/* The screen again: the card shown (or the help), the events. */
void screen_draw(void)
{
	char title[200], buf[CELL_LEN];
	struct port_row *rows = NULL;
	struct ep_row *eps = NULL;
	struct hline h[3];
	int y = 0, events, room, k;
	size_t n = 0, ne, nh, i;
	long ci;

	if (top.help) {
		draw_help();
		return;
	}
	erase();
	title_text(title, sizeof(title));
	ci = top.loaded && top.have_cur ? shown_card() : -1;
	if (ci >= 0 && top.cur.sw.n > 1)
		snprintf(title + strlen(title), sizeof(title) - strlen(title),
			 "  card %ld/%zu (n/p)", ci + 1, top.cur.sw.n);
	put(y++, 0, title, M_NONE);
	/* the events take the bottom lines, at least 3 and at most 8 */
	events = LINES / 4;
	events = events < 3 ? 3 : events > 8 ? 8 : events;
	room = LINES - events - 1;
	if (ci < 0) {
		if (top.loaded && top.have_cur)
			put(y++, 0, top.o.t.all ? "no switches" :
			    "the switch is not present; waiting for it",
			    M_WARN);
	} else {
		uint32_t id = u32_or(top.cur.sw.tb[ci], TA_SWITCH_ID, 0);

		nh = header_lines(ci, h, 3);
		for (i = 0; i < nh; i++)
			put(y++, 0, h[i].text, h[i].mark);
		put_row(y++, &port_table, NULL);
		n = port_rows(id, &rows, true);
		ne = ep_rows(id, false, &eps);
		if (top.scroll > (int)n - 1)
			top.scroll = n ? n - 1 : 0;
		for (i = top.scroll; i < n && y < room; i++) {
			if (y == room - 1 && i + 1 < n) {
				snprintf(buf, sizeof(buf), "... %zu more (up/down)",
					 n - i);
				put(y++, 0, buf, M_NONE);
				break;
			}
			put_row(y++, &port_table, &rows[i]);
		}
		/* the endpoints, when there is room left */
		if (ne && room - y >= 2) {
			put_row(y++, &ep_table, NULL);
			for (i = 0; i < ne && y < room; i++)
				put_row(y++, &ep_table, &eps[i]);
		}
		free(rows);
		free(eps);
	}
	/* the status line and the events */
	y = LINES - events - 1;
	snprintf(title, sizeof(title), "events  sort: %s%s  h: help  q: quit",
		 sort_names[top.sort], top.errors_only ? "  errors only" : "");
	put(y++, 0, *top.msg ? top.msg : title, *top.msg ? M_WARN : M_NONE);
	mvchgat(y - 1, 0, -1, A_REVERSE, 0, NULL);
	k = top.nr_lines > (size_t)events ? (int)top.nr_lines - events : 0;
	for (; k < (int)top.nr_lines; k++)
		put(y++, 0, top.lines[k], M_NONE);
	refresh();
}

/* A key typed; false to quit. */
bool screen_key(int ch)
{
	if (top.help && ch != ERR && ch != KEY_RESIZE) {
		top.help = false;
		return true;
	}
	switch (ch) {
	case 'q':
	case 'Q':
		return false;
	case 'n':
		next_card(1);
		break;
	case 'p':
		next_card(-1);
		break;
	case 's':
		top.sort = (top.sort + 1) % NR_SORTS;
		break;
	case 'e':
		top.errors_only = !top.errors_only;
		top.scroll = 0;
		break;
	case 'c':
		clear_deltas();
		if (take_snapshot())
			update_bases();
		break;
	case 'h':
	case '?':
		top.help = true;
		break;
	case KEY_DOWN:
		top.scroll++;
		break;
	case KEY_UP:
		if (top.scroll)
			top.scroll--;
		break;
	case KEY_RESIZE:
	default:
		break;
	}
	return true;
}
