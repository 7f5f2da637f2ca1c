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

/*
 * As objs_run(), but the error @quiet_err is not printed: -@quiet_err is
 * returned instead (see nl_request_try()).
 */
int objs_try(struct nl_session *s, struct nl_msg *req, struct objs *o,
	     int quiet_err, const char *what);

/* Which switches a command is about: [SWITCH]. */
struct target {
	bool all;
	uint32_t id;
};

/*
 * The arguments a command needs, once its options are out of argv: each
 * of the NULL-terminated names ("switch", "port") is one, and the first
 * that argv[0..@argc) lacks is a usage error "missing NAME"; so is more
 * than @max of them (@max -1: any number).
 */
int need_args(int argc, char **argv, int max, ...)
	__attribute__((sentinel));
/* Parses [SWITCH] as a command's only argument. */
int parse_target(int argc, char **argv, struct target *t);
/* Parses the SWITCH argument of a command that needs one. */
int parse_switch_arg(const char *arg, uint32_t *id);
/* Parses the PORT argument (a port number). */
int parse_port_arg(const char *arg, uint32_t *port);
/* An endpoint named by id (a number) or by name (nvme0). */
struct ep_ref {
	bool by_id;
	uint32_t id;
	const char *name;
};
/* Parses the EP argument: an endpoint name or id. */
int parse_ep_arg(const char *arg, struct ep_ref *ep);
/* Puts ep-id or ep-name (with @peer: peer-ep-id or peer-ep-name). */
void put_ep_ref(struct nl_msg *req, const struct ep_ref *ep, bool peer);
/*
 * A request (not a dump) @cmd about endpoint @ep of switch @id: switch-id
 * and the endpoint put, the rest for the caller to add.
 */
struct nl_msg *ep_request_new(struct nl_session *s, uint8_t cmd, uint32_t id,
			      const struct ep_ref *ep);
/*
 * The id, window size and type of endpoint @ep of switch @id, by ep-get;
 * @what heads the error of a failed request.
 */
int ep_get_window(struct nl_session *s, uint32_t id, const struct ep_ref *ep,
		  const char *what, uint32_t *ep_id, uint64_t *mem_size,
		  uint32_t *type);
/* The value of setting @word: @on sets *@val to 1, @off to 0. */
int parse_on_off(const char *word, const char *arg, const char *on,
		 const char *off, int *val);
/* Parses a lane mask: a number (0x8000: lane 15 of the port) or "none". */
int parse_lane_mask(const char *arg, uint32_t *mask);
/*
 * Commands take no options: "-x" is a wrong option, not an argument.  A
 * "--" ends the check and is taken out of argv[0..*argc).
 */
int no_options(int *argc, char **argv);

/*
 * The options of a command that has some, anywhere among its arguments.
 * @name is the long form ("--all"), @alias a short one ("-a") or NULL.
 * Options with a value (@value not NULL) take the next argument; the
 * others set *@set.
 */
struct cmd_opt {
	const char *name;
	const char *alias;
	bool *set;
	const char **value;
};

/*
 * Takes the options of @opts (a NULL-named entry ends it) out of
 * argv[0..*argc), leaving the other arguments in order and *argc their
 * number.  "-" followed by a digit is an argument (a negative number);
 * any other "-x" is a usage error, as is an option given twice or without
 * its value.  A value goes in the next argument or after '='
 * ("--interval=0.5").  "--" ends the options.
 */
int take_options(int *argc, char **argv, const struct cmd_opt *opts);

/*
 * -j/--json and -p/--pretty after the command (those with own_options in
 * main.c), as entries of its options; output_options() then adds them to
 * those given before the command.
 */
#define JSON_OPTIONS(json, pretty) \
	{ "--json", "-j", &(json), NULL }, \
	{ "--pretty", "-p", &(pretty), NULL }
void output_options(bool json, bool pretty);

/*
 * The counters of a counter-get reply or notification, nested (a counter
 * nest each) or packed (counter-values).
 */
struct counter_set {
	uint64_t v[PCIESW_COUNTER_MAX + 1];
	bool has[PCIESW_COUNTER_MAX + 1];
};
void counters_read(const struct nlmsghdr *nlh, struct counter_set *c);

/*
 * The switches of @t and the objects of type @cmd (groups, ports,
 * endpoints) that belong to them.  One switch is asked for by id, so a
 * wrong id gets the kernel's "no such switch" rather than an empty list.
 */
int fetch_with_children(struct nl_session *s, const struct target *t,
			uint8_t cmd, struct objs *sw, struct objs *ch,
			const char *children);

/* One kind of object fetch_with_parts() gets, into base + @off. */
struct objs_part {
	uint8_t cmd;
	const char *what;	/* "ports": names it in errors */
	size_t off;		/* of its struct objs in the caller's struct */
};

/*
 * As fetch_with_children(), with several kinds: the switches of @t into
 * @sw, then each of the @n @parts into the struct objs at @base +
 * part->off.  On an error what was fetched stays for the caller to free.
 */
int fetch_with_parts(struct nl_session *s, const struct target *t,
		     struct objs *sw, void *base, const struct objs_part *parts,
		     size_t n);

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

/*
 * The printing half of per_switch_cmd(), for commands that fetch more
 * (bw): @print_one for each switch of @sw, in a JSON array without SWITCH.
 */
void print_per_switch(const struct target *t, const struct objs *sw,
		      const struct objs *ch, const struct objs *extra,
		      void (*print_one)(struct nlattr **sw,
					const struct objs *ch,
					const struct objs *extra));

/* Does the object @tb belong to switch @sw?  (Absent ids match nothing.) */
bool same_switch(struct nlattr **tb, struct nlattr **sw);

/* Ends the output: a write error turns success into EXIT_FAIL. */
int finish(int ret);

#endif /* SWITCHCTL_OBJS_H */
