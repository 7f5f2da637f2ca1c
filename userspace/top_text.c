// SPDX-License-Identifier: GPL-2.0
/*
 * top's batch text (-b): each snapshot as plain lines on stdout, the
 * header and the rows of every card padded to their columns, then the
 * events since the snapshot before.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "top.h"

/*
 * The text line being built: batch mode writes every port of every card
 * each snapshot, a line is one fwrite() rather than a call a cell.
 */
static struct {
	char buf[1024];
	size_t n;
} tline;

static void text_put(const char *s, size_t len)
{
	if (len > sizeof(tline.buf) - tline.n) {
		fwrite(tline.buf, 1, tline.n, stdout);
		tline.n = 0;
		if (len > sizeof(tline.buf)) {
			fwrite(s, 1, len, stdout);
			return;
		}
	}
	memcpy(tline.buf + tline.n, s, len);
	tline.n += len;
}

/* Ends the line and writes it. */
static void text_end(void)
{
	text_put("\n", 1);
	fwrite(tline.buf, 1, tline.n, stdout);
	tline.n = 0;
}

/* @n spaces (n < 0: none) */
static void text_pad(int n)
{
	static const char spaces[] = "                                ";
	const int max = sizeof(spaces) - 1;

	for (; n > 0; n -= max)
		text_put(spaces, n < max ? n : max);
}

/*
 * One cell padded to its column (text); what printf's "%-*s " would
 * write, without a format to interpret.
 */
static void text_cell(const struct column *c, const char *s, bool last)
{
	int len = strlen(s);

	if (!c->left)
		text_pad(c->width - len);
	text_put(s, len);
	if (last)
		return;
	if (c->left)
		text_pad(c->width - len);
	text_put(" ", 1);
}

static void batch_text_switch(size_t i)
{
	struct nlattr **sw = top.cur.sw.tb[i];
	uint32_t id = u32_or(sw, TA_SWITCH_ID, 0);
	struct port_row *rows;
	struct hline h[3];
	size_t n, k, nh;
	int c;

	nh = header_lines(i, h, 3);
	for (k = 0; k < nh; k++)
		printf("%s\n", h[k].text);
	for (c = 0; c < NR_COLS; c++)
		text_cell(&port_cols[c], port_cols[c].title,
			  c == NR_COLS - 1);
	text_end();
	n = port_rows(id, &rows, false);
	for (k = 0; k < n; k++) {
		for (c = 0; c < NR_COLS; c++)
			text_cell(&port_cols[c], rows[k].cell[c],
				  c == NR_COLS - 1);
		text_end();
	}
	free(rows);
	for (k = 0, n = 0; k < shown_eps()->n; k++) {
		struct nlattr **tb = shown_eps()->tb[k];
		char cell[NR_ECOLS][CELL_LEN];

		if (u32_or(tb, TA_SWITCH_ID, UINT32_MAX) != id ||
		    !shows_ep(tb))
			continue;
		if (!n++) {
			for (c = 0; c < NR_ECOLS; c++)
				text_cell(&ep_cols[c], ep_cols[c].title,
					  c == NR_ECOLS - 1);
			text_end();
		}
		ep_cells(k, cell);
		for (c = 0; c < NR_ECOLS; c++)
			text_cell(&ep_cols[c], cell[c],
				  c == NR_ECOLS - 1);
		text_end();
	}
}

void batch_text(bool ok)
{
	char title[160];
	size_t i;

	title_text(title, sizeof(title));
	printf("%s\n", title);
	if (ok && !top.o.t.all && !top.cur.sw.n)
		printf("pciesw%u: not present\n", top.o.t.id);
	for (i = 0; ok && i < top.cur.sw.n; i++) {
		printf("\n");
		batch_text_switch(i);
	}
	if (top.nr_pending) {
		printf("\nevents:\n");
		for (i = 0; i < top.nr_pending; i++) {
			monitor_print_event(top.pending[i]);
			free(top.pending[i]);
		}
		top.nr_pending = 0;
	}
	printf("\n");
}
