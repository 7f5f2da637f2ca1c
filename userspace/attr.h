/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink attributes through the print layer: one call prints an attribute
 * as text and JSON, and prints a missing attribute as "-" / null, so no
 * command has to special-case what an older or newer module leaves out.
 */
#ifndef SWITCHCTL_ATTR_H
#define SWITCHCTL_ATTR_H

#include <netlink/attr.h>

#include "names.h"
#include "print.h"

void print_attr_u32(enum pmode mode, const char *key, const char *fmt,
		    const struct nlattr *a);
void print_attr_u8(enum pmode mode, const char *key, const char *fmt,
		   const struct nlattr *a);
void print_attr_u64(enum pmode mode, const char *key, const char *fmt,
		    const struct nlattr *a);
void print_attr_s32(enum pmode mode, const char *key, const char *fmt,
		    const struct nlattr *a);
void print_attr_string(enum pmode mode, const char *key, const char *fmt,
		       const struct nlattr *a);
/* u8 flag: JSON true/false; text @on or @off. */
void print_attr_flag(enum pmode mode, const char *key, const char *fmt,
		     const struct nlattr *a, const char *on, const char *off);
/*
 * u32 enum: JSON the spec's entry name, text the table's text form.  A value
 * this switchctl does not know is printed as its number in JSON and as
 * "?N" in text.
 */
void print_attr_enum(enum pmode mode, const char *key, const char *fmt,
		     const struct nlattr *a, const struct enum_table *t);

#endif /* SWITCHCTL_ATTR_H */
