// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by all of switchctl (see util.h).
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <linux/pciesw.h>

#include "util.h"

static struct {
	char *buf;
	size_t len;
} capture;

void message_capture(char *buf, size_t len)
{
	capture.buf = buf;
	capture.len = len;
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	int n;

	if (capture.buf) {
		n = snprintf(capture.buf, capture.len, "%s: ", prefix);
		if (n >= 0 && (size_t)n < capture.len)
			vsnprintf(capture.buf + n, capture.len - n, fmt, ap);
		return;
	}
	/* stdout first, so that output and message stay in order on a tty */
	fflush(stdout);
	fprintf(stderr, "%s: ", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("note", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning", fmt, ap);
	va_end(ap);
}

/* NULL: the top level */
static const char *usage_cmd;

void usage_context(const char *cmd)
{
	usage_cmd = cmd;
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try \"switchctl %s%s--help\".\n",
		usage_cmd ? usage_cmd : "", usage_cmd ? " " : "");
	return EXIT_USAGE;
}

static void *check_alloc(void *p)
{
	if (!p) {
		error("out of memory");
		exit(EXIT_FAIL);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check_alloc(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check_alloc(calloc(n ? n : 1, size ? size : 1));
}

void *xreallocarray(void *ptr, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		error("out of memory");
		exit(EXIT_FAIL);
	}
	/* realloc(p, 0) may free p and return NULL: never ask for 0 */
	return check_alloc(realloc(ptr, n && size ? n * size : 1));
}

char *xstrdup(const char *s)
{
	return check_alloc(strdup(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return check_alloc(n < 0 ? NULL : s);
}

bool parse_uint(const char *s, unsigned long max, unsigned long *val)
{
	unsigned long v;
	char *end;

	/* strtoul alone would accept " 1", "+1", "-1" (as a huge number) */
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*val = v;
	return true;
}

bool parse_uint_hex(const char *s, unsigned long max, unsigned long *val)
{
	unsigned long v;
	char *end;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return parse_uint(s, max, val);
	s += 2;
	if (!isxdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 16);
	if (errno || *end || v > max)
		return false;
	*val = v;
	return true;
}

bool parse_size(const char *s, uint64_t *val)
{
	static const char suffixes[] = "KMGT";
	unsigned long long v;
	const char *p;
	char *end;
	int shift;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (!*end) {
		*val = v;
		return true;
	}
	p = strchr(suffixes, toupper((unsigned char)*end));
	if (!p || !*p)
		return false;
	end++;
	if (*end && strcasecmp(end, "iB") && strcasecmp(end, "B"))
		return false;
	shift = 10 * (int)(p - suffixes + 1);
	if (v > (UINT64_MAX >> shift))
		return false;
	*val = (uint64_t)v << shift;
	return true;
}

bool parse_switch_id(const char *s, uint32_t *id)
{
	static const char prefix[] = "pciesw";
	unsigned long v;

	if (!strncmp(s, prefix, sizeof(prefix) - 1))
		s += sizeof(prefix) - 1;
	if (!parse_uint(s, PCIESW_MAX_SWITCH_ID, &v))
		return false;
	*id = v;
	return true;
}

bool parse_milli(const char *s, bool sign, int64_t *val)
{
	bool neg = false;
	uint64_t v = 0;
	int frac = -1;	/* decimals seen; -1 before the point */

	if (sign && *s == '-') {
		neg = true;
		s++;
	}
	if (*s < '0' || *s > '9')
		return false;
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac == 3)
			return false;
		if (frac >= 0)
			frac++;
		v = v * 10 + (*s - '0');
		if (v > (uint64_t)INT64_MAX / 1000)
			return false;
	}
	if (frac == 0)		/* "45." */
		return false;
	for (frac = frac < 0 ? 0 : frac; frac < 3; frac++)
		v *= 10;
	*val = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* v * 10^exp, false on overflow of a u64 */
static bool scale10(uint64_t *v, unsigned int exp)
{
	while (exp--)
		if (__builtin_mul_overflow(*v, 10, v))
			return false;
	return true;
}

bool parse_ber(const char *s, uint64_t *val)
{
	uint64_t m = 0;
	long exp = 0, e = 0;
	bool digits = false, point = false, eneg = false;

	/* mantissa: digits with an optional point; m = the digits, exp -= decimals */
	for (; (*s >= '0' && *s <= '9') || (*s == '.' && !point); s++) {
		if (*s == '.') {
			point = true;
			continue;
		}
		digits = true;
		/* leading and significant digits; trailing ones past u64 fail */
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, (uint64_t)(*s - '0'), &m))
			return false;
		if (point)
			exp--;
	}
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			eneg = *s++ == '-';
		if (*s < '0' || *s > '9')
			return false;
		for (; *s >= '0' && *s <= '9'; s++) {
			e = e * 10 + (*s - '0');
			if (e > 1000)
				return false;
		}
		exp += eneg ? -e : e;
	}
	if (*s)
		return false;
	/* per 10^18 bits: m * 10^(exp + 18) */
	exp += 18;
	while (exp < 0 && m && m % 10 == 0) {
		m /= 10;
		exp++;
	}
	if (!m) {
		*val = 0;
		return true;
	}
	if (exp < 0 || !scale10(&m, exp) || m > 1000000000000000000ULL)
		return false;
	*val = m;
	return true;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
