/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uAPI enums as strings: the spec's entry names (the JSON values, so
 * scripts see exactly what Documentation/netlink/specs/pciesw.yaml says) and
 * the forms people read in text output.
 */
#ifndef SWITCHCTL_NAMES_H
#define SWITCHCTL_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct enum_name {
	const char *spec;	/* JSON: the spec's entry name */
	const char *text;	/* text output */
};

/* Indexed by value; holes are NULL.  @text NULL: the spec names. */
struct enum_table {
	const char *const *spec;
	const char *const *text;
	size_t n;
};

extern const struct enum_table group_type_names;
extern const struct enum_table port_role_names;
extern const struct enum_table ltssm_names;
/* text form of a speed is its rate, "32GT/s" */
extern const struct enum_table link_speed_names;
extern const struct enum_table ep_type_names;
extern const struct enum_table nvme_fault_names;
extern const struct enum_table ep_aer_error_names;
/* counters and alarm levels: text = spec name */
extern const struct enum_table counter_names;
extern const struct enum_table alarm_names;
/* text of a route: "direct", "through the host bridge", "refused" */
extern const struct enum_table p2p_route_names;
/* text = spec name */
extern const struct enum_table dma_status_names;
/* text = spec name */
extern const struct enum_table fw_state_names;

/* The spec name of enum value @v, or NULL for a value this tool lacks. */
const char *enum_spec(const struct enum_table *t, uint32_t v);
/*
 * The value whose spec or text name is @s (case-insensitive); entries whose
 * value is below @min (e.g. link-speed "none") do not count.  False if none.
 */
bool enum_parse(const struct enum_table *t, const char *s, uint32_t min,
		uint32_t *v);
/* "a, b or c": the spec names from @min on, for usage messages. */
char *enum_choices(const struct enum_table *t, uint32_t min);

/* The names of @v in *@n; false for a value this switchctl does not know. */
bool enum_lookup(const struct enum_table *t, uint32_t v, struct enum_name *n);

/* The spec name of a netlink attribute ("switch-id"), "(unknown)" if none. */
const char *attr_name(uint32_t type);

#endif /* SWITCHCTL_NAMES_H */
