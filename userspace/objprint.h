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
#include "print.h"

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
/* Millidegrees Celsius as degrees, one decimal: "45.1°C", "-5.0°C". */
void temp_text(char *buf, size_t len, int64_t mc);
/*
 * A bit-error rate in errors per 10^18 bits, exactly, in the notation
 * parse_ber() reads: "1e-9", "2.5e-12", "0" for none.
 */
void ber_text(char *buf, size_t len, uint64_t ber);
/*
 * A rate per second with an SI prefix and three significant digits, then
 * @unit: "1.05 GB/s", "512 B/s", "4.10 kTLP/s".
 */
void rate_text(char *buf, size_t len, uint64_t per_sec, const char *unit);

/* A duration: "430us", "8.600ms", "13.498s". */
void duration_text(char *buf, size_t len, uint64_t ns);
/* A u64 bytes/s attribute: the number in JSON, "63.0 GB/s" in text. */
void print_attr_bandwidth(enum pmode mode, const char *key, const char *fmt,
			  const struct nlattr *a);
/*
 * The settings of a switch-get reply or switch-change notification (no
 * enclosing JSON object), text "host-p2p on pacing off mps 256 channels 4
 * (dma in flight 0)".
 */
void print_switch_settings(struct nlattr **tb);

/*
 * The PCI view of a switch-get reply: "  pci-view on, domain ffff\n";
 * JSON switch-pci-view (true/false) and switch-pci-domain (a number).
 */
void print_pci_view(struct nlattr **tb);

/*
 * port-ber: the number in JSON, ber_text() in text; "-" for a module that
 * does not send it.
 */
void print_ber(enum pmode mode, const char *fmt, const struct nlattr *a);
/* A temperature attribute: millidegrees in JSON, temp_text() in text. */
void print_attr_temp(enum pmode mode, const char *key, const char *fmt,
		     const struct nlattr *a);

/*
 * The decoded VPD of a vpd-get reply or vpd-change notification: the ID
 * string, the text fields (one line each in text) and the free VPD-W space;
 * no enclosing JSON object, no vpd-image.
 */
void print_vpd_fields(const struct nlmsghdr *nlh, struct nlattr **tb);

/*
 * The lane groups of @groups that belong to switch @sw (show, lanes show):
 * a header, then a line each (indented by @indent in text), JSON array
 * "groups".  With @ports, also the ids of each group's ports (text column
 * PORTS, JSON "ports").
 */
void print_switch_groups(struct nlattr **sw, const struct objs *groups,
			 int indent, const struct objs *ports);
/* A lane group's line without the enclosing JSON object. */
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
void print_nvme_health(struct nlattr **tb);

#endif /* SWITCHCTL_OBJPRINT_H */
