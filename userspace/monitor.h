/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the parts of monitor (its commands and what top shares of it are
 * in cmd.h): monitor_state.c keeps the last state of every port it saw and
 * says what a port-change notification changed, monitor_event.c prints one
 * notification, cmd_monitor.c is the command and its receive loop.
 */
#ifndef SWITCHCTL_MONITOR_H
#define SWITCHCTL_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "names.h"

struct nlattr;
struct nlmsghdr;

struct transition {
	uint64_t time;
	uint32_t from, to;
};

/* The LTSSM history of a port message. */
struct transitions {
	struct transition *t;
	size_t n, cap;
};

/* --- monitor_state.c ------------------------------------------------------ */

#define MAX_CHANGES	16

/* What a port-change notification changed, as cache_port_event() says. */
struct changes {
	const char *token[MAX_CHANGES];	/* JSON "changes" */
	char *text[MAX_CHANGES];	/* the text line */
	size_t n;
};

void changes_free(struct changes *c);

/* Spec names for the text, as the JSON has them; numbers when unknown. */
const char *spec_name(const struct enum_table *t, uint32_t v, char *buf,
		      size_t len);

#define SPEED(v, b)	spec_name(&link_speed_names, (v), (b), sizeof(b))
#define LTSSM(v, b)	spec_name(&ltssm_names, (v), (b), sizeof(b))

/* Every port forgotten: a port's next event says how it is. */
void cache_forget_all(void);
/*
 * What each notification changes in the cache, from its attributes @tb: a
 * switch created or deleted, a group re-bifurcated, an endpoint added or
 * removed.
 */
void cache_switch_event(struct nlattr **tb, bool created);
void cache_group_event(struct nlattr **tb);
void cache_ep_event(struct nlattr **tb, bool add);
/*
 * A port-change notification: what changed into @c, its LTSSM history
 * into @h; returns the first transition of @h that is new.
 */
size_t cache_port_event(const struct nlmsghdr *nlh, struct nlattr **tb,
			struct transitions *h, struct changes *c);

/*
 * The ports' state from a port dump, the caller's (its @n replies) or one
 * made now.  Print why they failed, return an exit code.
 */
int prime_from(const struct nlmsghdr *const *ports, size_t n);
int prime_cache(void);

/* --- monitor_event.c ------------------------------------------------------ */

/* The value of event @name ("port-change"), or -1. */
int event_by_name(const char *name);
/* "switch-create, switch-delete, ...": the events' names; free() it. */
char *event_name_list(void);
/* One notification, muted unless @shown; @wall: -t. */
void print_event(const struct nlmsghdr *nlh, struct nlattr **tb,
		 struct transitions *h, bool shown, bool wall);

#endif /* SWITCHCTL_MONITOR_H */
