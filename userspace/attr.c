// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink attributes through the print layer (see attr.h).  The attributes
 * were type-checked by nl_parse_reply(), so the getters are safe here.
 */

#include <stdio.h>

#include "attr.h"

void print_attr_u32(enum pmode mode, const char *key, const char *fmt,
		    const struct nlattr *a)
{
	if (a)
		print_uint(mode, key, fmt, nla_get_u32(a));
	else
		print_null(mode, key, fmt);
}

void print_attr_u8(enum pmode mode, const char *key, const char *fmt,
		   const struct nlattr *a)
{
	if (a)
		print_uint(mode, key, fmt, nla_get_u8(a));
	else
		print_null(mode, key, fmt);
}

void print_attr_u64(enum pmode mode, const char *key, const char *fmt,
		    const struct nlattr *a)
{
	if (a)
		print_uint(mode, key, fmt, nla_get_u64(a));
	else
		print_null(mode, key, fmt);
}

void print_attr_s32(enum pmode mode, const char *key, const char *fmt,
		    const struct nlattr *a)
{
	if (a)
		print_int(mode, key, fmt, nla_get_s32(a));
	else
		print_null(mode, key, fmt);
}

void print_attr_string(enum pmode mode, const char *key, const char *fmt,
		       const struct nlattr *a)
{
	print_string(mode, key, fmt,
		     a ? nla_get_string(a) : NULL);
}

void print_attr_flag(enum pmode mode, const char *key, const char *fmt,
		     const struct nlattr *a, const char *on, const char *off)
{
	bool v;

	if (!a) {
		print_null(mode, key, fmt);
		return;
	}
	v = nla_get_u8(a);
	print_bool(mode, key, fmt, v, v ? on : off);
}

void print_attr_enum(enum pmode mode, const char *key, const char *fmt,
		     const struct nlattr *a, const struct enum_table *t)
{
	struct enum_name n;
	char unknown[16];
	uint32_t v;

	if (!a) {
		print_null(mode, key, fmt);
		return;
	}
	v = nla_get_u32(a);
	if (enum_lookup(t, v, &n)) {
		/* JSON and text may spell it differently: two calls */
		if (mode != PRINT_TEXT)
			print_string(PRINT_JSON, key, NULL, n.spec);
		if (mode != PRINT_JSON)
			print_string(PRINT_TEXT, NULL, fmt, n.text);
		return;
	}
	if (mode != PRINT_TEXT)
		print_uint(PRINT_JSON, key, NULL, v);
	snprintf(unknown, sizeof(unknown), "?%u", v);
	if (mode != PRINT_JSON)
		print_string(PRINT_TEXT, NULL, fmt, unknown);
}
