/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers every part of switchctl uses: exit codes, error reporting,
 * allocation that cannot return NULL, strict number parsing.
 */
#ifndef SWITCHCTL_UTIL_H
#define SWITCHCTL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes scripts rely on; documented in --help. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* the operation failed */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_NOMODULE = 3,	/* pciesw module / netlink family absent */
};

/* "error: ..." on stderr. */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "note: ..." on stderr. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "warning: ..." on stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * While @buf is not NULL, error(), note() and warning() put their message
 * ("error: ...") in @buf, the last one only, instead of writing stderr: a
 * full-screen view shows it in its status line.  NULL: stderr again.
 */
void message_capture(char *buf, size_t len);
/*
 * "error: ..." plus a hint to the help of the command being parsed (see
 * usage_context()); returns EXIT_USAGE, so callers can "return usage_error()".
 */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The command whose --help usage_error() points to, e.g. "switch add". */
void usage_context(const char *cmd);

/* Allocation failure ends the program: there is nothing sane to go on with. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *ptr, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Decimal number, digits only (no sign, no blanks, no suffix), at most @max.
 * Returns false for anything else.
 */
bool parse_uint(const char *s, unsigned long max, unsigned long *val);

/* A number in decimal, or in hex with 0x, at most @max. */
bool parse_uint_hex(const char *s, unsigned long max, unsigned long *val);

/*
 * A size in bytes: digits with an optional binary suffix K, M, G or T
 * (case-insensitive, optionally followed by "iB" or "B").  False for
 * anything else, or more than UINT64_MAX.
 */
bool parse_size(const char *s, uint64_t *val);

/*
 * A decimal number with at most three decimals, optionally negative when
 * @sign, as thousandths: "45.5" -> 45500, "-5" -> -5000, "0.25" -> 250.
 * False for anything else or beyond +-(INT64_MAX / 1000).
 */
bool parse_milli(const char *s, bool sign, int64_t *val);

/*
 * A bit-error rate ("1e-9", "2.5E-12", "0.000001", "0") as bit errors per
 * 10^18 bits (1e-9 -> 1000000000), exactly: mantissa and exponent are read
 * as decimal digits, no floating point.  False for anything else, a rate
 * finer than 1e-18 or one above 1.
 */
bool parse_ber(const char *s, uint64_t *val);

/* A switch given as "pciesw<N>" or "<N>", N 0-255. */
bool parse_switch_id(const char *s, uint32_t *id);

/* CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void);

#endif /* SWITCHCTL_UTIL_H */
