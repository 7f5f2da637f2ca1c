// SPDX-License-Identifier: GPL-2.0
/*
 * top's batch text (-b): each snapshot as plain lines on stdout, the
 * header and the rows of every card padded to their columns, then the
 * events since the snapshot before.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * The titles of table @t's columns (@row NULL) or the cells of a row,
 * each padded to its column: what printf's "%-*s " would write, without
 * a format to interpret, and nothing after the last.
 */
static void text_row(const struct table *t, const void *row)
{
	char cell[CELL_LEN];
	const char *s;
	int len, pad = -1;	/* after the cell before; -1: none before */
	size_t c;

	for (c = 0; c < t->n; c++) {
		const struct column *col = &t->cols[c];

		if (!col->title)
			continue;
		if (pad >= 0) {
			text_pad(pad);
			text_put(" ", 1);
		}
		s = col->title;
		if (row) {
			col->cell(row, cell);
			s = cell;
		}
		len = strlen(s);
		if (!col->left)
			text_pad(col->width - len);
		text_put(s, len);
		pad = col->left ? col->width - len : 0;
	}
	text_end();
}

static void batch_text_switch(size_t i)
{
	struct nlattr **sw = top.cur.sw.tb[i];
	uint32_t id = u32_or(sw, TA_SWITCH_ID, 0);
	struct port_row *rows;
	struct ep_row *eps;
	struct hline h[3];
	size_t n, k, nh;

	nh = header_lines(i, h, 3);
	for (k = 0; k < nh; k++)
		printf("%s\n", h[k].text);
	text_row(&port_table, NULL);
	n = port_rows(id, &rows, false);
	for (k = 0; k < n; k++)
		text_row(&port_table, &rows[k]);
	free(rows);
	n = ep_rows(id, false, &eps);
	if (n)
		text_row(&ep_table, NULL);
	for (k = 0; k < n; k++)
		text_row(&ep_table, &eps[k]);
	free(eps);
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
		print_pending();
	}
	printf("\n");
}
