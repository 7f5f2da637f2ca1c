// SPDX-License-Identifier: GPL-2.0
/*
 * Text/JSON output (see print.h).  The JSON writer keeps a stack of open
 * containers so that it knows where commas go and how deep to indent; it
 * escapes every string, so whatever the kernel sends, the output parses.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "util.h"

struct frame {
	bool is_array;
	bool has_members;
};

static struct {
	bool json;
	bool pretty;
	bool top_done;		/* a complete top-level JSON value was written */
	bool muted;		/* print_mute(): nothing is written */
	FILE *f;		/* print_output(); NULL: stdout */
	struct frame *stack;
	size_t depth;
	size_t cap;
} out;

void print_init(bool json, bool pretty)
{
	out.json = json;
	out.pretty = json && pretty;
}

FILE *print_output(FILE *f)
{
	FILE *old = out.f;

	out.f = f;
	return old;
}

/* Where the output goes. */
#define OUT	(out.f ? out.f : stdout)

bool print_is_json(void)
{
	return out.json;
}

void print_mute(bool mute)
{
	out.muted = mute;
}

/* Wrong nesting is a bug in switchctl, not an input problem: stop loudly. */
static void json_bug(const char *what)
{
	fprintf(stderr, "switchctl: internal error: JSON %s\n", what);
	abort();
}

static void json_indent(void)
{
	size_t i;

	if (!out.pretty)
		return;
	fputc('\n', OUT);
	for (i = 0; i < out.depth; i++)
		fputs("  ", OUT);
}

/*
 * JSON strings must be valid UTF-8 with control characters escaped; bytes
 * that are not part of a well-formed UTF-8 sequence become U+FFFD.
 */
static size_t utf8_seq_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static void json_write_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', OUT);
	while (*s) {
		size_t n;

		switch (*s) {
		case '"':
			fputs("\\\"", OUT);
			break;
		case '\\':
			fputs("\\\\", OUT);
			break;
		case '\n':
			fputs("\\n", OUT);
			break;
		case '\t':
			fputs("\\t", OUT);
			break;
		case '\r':
			fputs("\\r", OUT);
			break;
		default:
			if (*s < 0x20) {
				fprintf(OUT, "\\u%04x", *s);
				break;
			}
			n = utf8_seq_len(s);
			if (!n) {
				fputs("\\ufffd", OUT);
				break;
			}
			fwrite(s, 1, n, OUT);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', OUT);
}

/* Starts a value: the comma, the indentation and the key, as needed. */
static void json_begin_value(const char *key)
{
	struct frame *f;

	if (!out.depth) {
		if (out.top_done)
			json_bug("has two top-level values");
		if (key)
			json_bug("key at top level");
		return;
	}
	f = &out.stack[out.depth - 1];
	if (f->is_array && key)
		json_bug("key inside an array");
	if (!f->is_array && !key)
		json_bug("member without a key");
	if (f->has_members)
		fputc(',', OUT);
	f->has_members = true;
	json_indent();
	if (key) {
		json_write_string(key);
		fputs(out.pretty ? ": " : ":", OUT);
	}
}

/* After a value: a complete top-level value ends the line. */
static void json_end_value(void)
{
	if (!out.depth) {
		out.top_done = true;
		fputc('\n', OUT);
	}
}

static void json_open(const char *key, bool is_array)
{
	json_begin_value(key);
	if (out.depth == out.cap) {
		out.cap = out.cap ? out.cap * 2 : 8;
		out.stack = xreallocarray(out.stack, out.cap,
					  sizeof(*out.stack));
	}
	out.stack[out.depth++] = (struct frame){ .is_array = is_array };
	fputc(is_array ? '[' : '{', OUT);
}

static void json_close(bool is_array)
{
	struct frame *f;

	if (!out.depth || out.stack[out.depth - 1].is_array != is_array)
		json_bug("container closed out of order");
	f = &out.stack[--out.depth];
	if (f->has_members)
		json_indent();
	fputc(is_array ? ']' : '}', OUT);
	json_end_value();
}

void open_object(const char *key)
{
	if (out.json && !out.muted)
		json_open(key, false);
}

void close_object(void)
{
	if (out.json && !out.muted)
		json_close(false);
}

void open_array(const char *key)
{
	if (out.json && !out.muted)
		json_open(key, true);
}

void close_array(void)
{
	if (out.json && !out.muted)
		json_close(true);
}

static bool want_json(enum pmode mode)
{
	return out.json && !out.muted && mode != PRINT_TEXT;
}

static bool want_text(enum pmode mode, const char *fmt)
{
	return !out.json && !out.muted && mode != PRINT_JSON && fmt;
}

/*
 * The format comes from the caller's string literal and takes one %s; see
 * print.h.  The pragma keeps -Wformat-nonliteral (if enabled) quiet here,
 * the single place where a non-literal format is used.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void text_value(const char *fmt, const char *value)
{
	fprintf(OUT, fmt, value);
}
#pragma GCC diagnostic pop

void print_string(enum pmode mode, const char *key, const char *fmt,
		  const char *value)
{
	if (want_json(mode)) {
		json_begin_value(key);
		if (value)
			json_write_string(value);
		else
			fputs("null", OUT);
		json_end_value();
	} else if (want_text(mode, fmt)) {
		text_value(fmt, value ? value : "-");
	}
}

/* A number already rendered in @buf: JSON as it is, text through @fmt. */
static void print_number(enum pmode mode, const char *key, const char *fmt,
			 const char *buf)
{
	if (want_json(mode)) {
		json_begin_value(key);
		fputs(buf, OUT);
		json_end_value();
	} else if (want_text(mode, fmt)) {
		text_value(fmt, buf);
	}
}

void print_uint(enum pmode mode, const char *key, const char *fmt,
		uint64_t value)
{
	/* 20 digits hold any uint64_t */
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)value);
	print_number(mode, key, fmt, buf);
}

void print_int(enum pmode mode, const char *key, const char *fmt,
	       int64_t value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)value);
	print_number(mode, key, fmt, buf);
}

void print_bool(enum pmode mode, const char *key, const char *fmt, bool value,
		const char *text)
{
	if (want_json(mode)) {
		json_begin_value(key);
		fputs(value ? "true" : "false", OUT);
		json_end_value();
	} else if (want_text(mode, fmt)) {
		text_value(fmt, text);
	}
}

void print_null(enum pmode mode, const char *key, const char *fmt)
{
	print_string(mode, key, fmt, NULL);
}

void print_text(const char *fmt, ...)
{
	va_list ap;

	if (out.json || out.muted)
		return;
	va_start(ap, fmt);
	vfprintf(OUT, fmt, ap);
	va_end(ap);
}

int print_finish(void)
{
	int err = 0;

	if (out.depth)
		json_bug("container left open");
	free(out.stack);
	out.stack = NULL;
	out.cap = 0;
	/* a full disk or closed pipe must not look like success */
	if (fflush(OUT) || ferror(OUT))
		err = -1;
	return err;
}

int print_next(void)
{
	if (out.depth)
		json_bug("container left open");
	out.top_done = false;
	if (fflush(OUT) || ferror(OUT))
		return -1;
	return 0;
}
