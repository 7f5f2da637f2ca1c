/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the commands share: fetching objects (switches, lane groups, ports,
 * endpoints) with all their replies parsed before anything is printed,
 * parsing the arguments every command takes, and ending the output.
 */
#ifndef SWITCHCTL_OBJS_H
#define SWITCHCTL_OBJS_H

#include <stdbool.h>
#include <stdint.h>

#include "nl.h"

/* The replies of one request, parsed. */
struct objs {
	struct msg_list msgs;
	struct nlattr *(*tb)[PCIESW_A_MAX + 1];
	size_t n;
};

void objs_free(struct objs *o);
/* The netlink header of the @i-th object (for its multi-attr attributes). */
const struct nlmsghdr *objs_hdr(const struct objs *o, size_t i);

/*
 * Get objects of type @cmd: one (a do) or a dump of all, optionally only
 * those of switch @id (@filter).  @what begins the error message.
 */
int objs_fetch(struct nl_session *s, uint8_t cmd, bool dump, bool filter,
	       uint32_t id, struct objs *o, const char *what);

/*
 * Runs @req (built by the caller, attributes and all) and parses the one
 * object it answers with into @o.
 */
int objs_run(struct nl_session *s, struct nl_msg *req, struct objs *o,
	     const char *what);

/* Which switches a command is about: [SWITCH]. */
struct target {
	bool all;
	uint32_t id;
};

/* Parses [SWITCH] as a command's only argument. */
int parse_target(int argc, char **argv, struct target *t);
/* Parses the SWITCH argument of a command that needs one. */
int parse_switch_arg(const char *arg, uint32_t *id);
/* Commands take no options: "-x" is a wrong option, not an argument. */
int no_options(int argc, char **argv);

/*
 * The switches of @t and the objects of type @cmd (groups, ports,
 * endpoints) that belong to them.  One switch is asked for by id, so a
 * wrong id gets the kernel's "no such switch" rather than an empty list.
 */
int fetch_with_children(struct nl_session *s, const struct target *t,
			uint8_t cmd, struct objs *sw, struct objs *ch,
			const char *children);

/*
 * What show, status, lanes show and ep list share: parse [SWITCH], fetch the
 * switches with their objects of type @cmd (and, if @extra_cmd is not 0, a
 * dump of those too), then print each switch with @print_one; without
 * SWITCH the switches go into one JSON array.
 */
int per_switch_cmd(int argc, char **argv, uint8_t cmd, const char *children,
		   uint8_t extra_cmd, const char *extra_children,
		   void (*print_one)(struct nlattr **sw, const struct objs *ch,
				     const struct objs *extra));

/* Does the object @tb belong to switch @sw?  (Absent ids match nothing.) */
bool same_switch(struct nlattr **tb, struct nlattr **sw);

/* Ends the output: a write error turns success into EXIT_FAIL. */
int finish(int ret);

#endif /* SWITCHCTL_OBJS_H */
