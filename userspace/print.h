/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one output layer of switchctl: every command prints through these
 * calls, which write either text or JSON, so that a command has a single
 * code path for both (the iproute2 json_print idea).
 *
 * In text mode the keys are ignored and only @fmt is used; in JSON mode only
 * the key and the value are used.  Text formats receive the value already
 * rendered as a string, so every @fmt takes exactly one "%s" (with optional
 * width and flags, e.g. "%-8s "): that way a missing value prints as "-" in
 * the same column as a present one.
 */
#ifndef SWITCHCTL_PRINT_H
#define SWITCHCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Which output a print call is for. */
enum pmode {
	PRINT_ANY,	/* text and JSON */
	PRINT_JSON,	/* JSON only: values the text shows differently */
	PRINT_TEXT,	/* text only: columns composed of several values */
};

void print_init(bool json, bool pretty);
bool print_is_json(void);
/*
 * While muted, every print call writes nothing (and opens or closes
 * nothing): monitor runs the events it filters out through the same code,
 * for the state it keeps, without printing them.
 */
void print_mute(bool mute);
/*
 * Where the output goes from now on (NULL: stdout, the default); returns
 * the previous stream.  top renders events into a string with it.
 */
FILE *print_output(FILE *f);
/* Ends the output; returns 0, or -1 if writing stdout failed. */
int print_finish(void);
/*
 * For a stream of top-level values (monitor): ends the one just printed,
 * flushes stdout and lets another one follow.  Returns 0, or -1 if writing
 * stdout failed.
 */
int print_next(void);

/*
 * Containers.  @key names the member inside an object and must be NULL
 * inside an array or at the top level.  They print nothing in text mode.
 */
void open_object(const char *key);
void close_object(void);
void open_array(const char *key);
void close_array(void);

/* A string value; NULL is a missing value: "-" in text, null in JSON. */
void print_string(enum pmode mode, const char *key, const char *fmt,
		  const char *value);
/* A number. */
void print_uint(enum pmode mode, const char *key, const char *fmt,
		uint64_t value);
/* A signed number. */
void print_int(enum pmode mode, const char *key, const char *fmt,
	       int64_t value);
/* A flag: JSON true/false, text @text (e.g. "up"/"down", chosen by caller). */
void print_bool(enum pmode mode, const char *key, const char *fmt, bool value,
		const char *text);
/* A missing value: "-" in text, null in JSON. */
void print_null(enum pmode mode, const char *key, const char *fmt);

/* Text only: separators, headers, line ends.  Nothing in JSON mode. */
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* SWITCHCTL_PRINT_H */
