/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How lane groups, ports and endpoints print, text and JSON through the
 * same calls, for every command that shows them (show, status, lanes,
 * port, ep, monitor).  JSON keys are the spec's attribute names.
 */
#ifndef SWITCHCTL_OBJPRINT_H
#define SWITCHCTL_OBJPRINT_H

#include <stddef.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "objs.h"

/* Text helpers; each writes at most @len bytes, NUL included. */
/* "first-last" of a lane range, "-" when unknown. */
void lanes_text(char *buf, size_t len, const struct nlattr *first,
		const struct nlattr *nr);
/* "16G", "256M", "4096": bytes with the largest binary suffix that fits. */
void size_text(char *buf, size_t len, uint64_t bytes);
/* CLOCK_MONOTONIC ns as seconds.microseconds, "   12.345678". */
void mono_text(char *buf, size_t len, uint64_t ns);
/* "0x8000", "none" for 0. */
void lane_mask_text(char *buf, size_t len, uint32_t mask);
/* The switch name of an id, as the module names switches ("pciesw3"). */
void switch_name(char *buf, size_t len, uint32_t id);

/*
 * A lane group, one line (indented by @indent in text).  With @ports, also
 * the ids of its ports (text column PORTS, JSON "ports").
 */
void print_group_header(int indent, bool with_ports);
void print_group(const struct nlmsghdr *nlh, struct nlattr **tb, int indent,
		 const struct objs *ports);
/* The same without the enclosing JSON object. */
void print_group_attrs(const struct nlmsghdr *nlh, struct nlattr **tb,
		       int indent, const struct objs *ports);

/*
 * A port, one line (status); the line's JSON object leaves out the LTSSM
 * history (port show has it).
 */
void print_port_header(void);
void print_port_line(struct nlattr **tb);
/*
 * A port in detail, with its LTSSM history from the @first-th transition
 * on (0: all of it); no enclosing JSON object.
 */
void print_port_detail(const struct nlmsghdr *nlh, struct nlattr **tb,
		       size_t first);

/*
 * An endpoint, one line (ep list) or in detail (ep show, ep add; no
 * enclosing JSON object).
 */
void print_ep_header(void);
void print_ep_line(struct nlattr **tb);
void print_ep_detail(struct nlattr **tb);

#endif /* SWITCHCTL_OBJPRINT_H */
