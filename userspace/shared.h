/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What more than one command file needs beyond objs.h (shared.c): a
 * request that names one switch and no more (switch add and del, fw
 * toggle, log clear), the start of a request about one port (port set, ep add, errors, inject,
 * dma bench), the port settings that port set and inject send, the
 * upstream port and its payload bytes (dma bench, gds), the firmware
 * summary (show, fw show), the error counters' names in the help of
 * errors threshold and inject.
 */
#ifndef SWITCHCTL_SHARED_H
#define SWITCHCTL_SHARED_H

#include <stdbool.h>
#include <stdint.h>

struct nlattr;
struct nl_msg;
struct nl_session;
struct objs;

/*
 * The error counters by their spec names, correctable then uncorrectable:
 * the list the help of errors threshold and of inject give after
 * "correctable: ".
 */
#define ERROR_COUNTER_NAMES_HELP \
	"receiver-error, bad-tlp,\n" \
	"  bad-dllp, replay-num-rollover, replay-timer-timeout,\n" \
	"  advisory-non-fatal, corrected-internal, header-log-overflow;\n" \
	"uncorrectable: data-link-protocol, surprise-down, poisoned-tlp,\n" \
	"  flow-control-protocol, completion-timeout, completer-abort,\n" \
	"  unexpected-completion, receiver-overflow, malformed-tlp, ecrc,\n" \
	"  unsupported-request, acs-violation.\n"

/* What "port set" asks for (inject too); each setting may be given once. */
struct port_settings {
	int enabled;		/* -1: unchanged */
	int acs;		/* -1: unchanged */
	uint32_t speed;		/* 0: unchanged */
	bool has_failed;
	uint32_t failed;
	bool has_ber;
	uint64_t ber;		/* bit errors per 10^18 bits */
	bool retrain, hot_reset, surprise_down;
};

/* The largest port-ber the spec allows: 1e-3. */
#define PORT_BER_MAX	1000000000000000ULL

/*
 * Sends @cmd about switch @id (with switch add's @profile, if not NULL);
 * @what, a format with %u for the id, says what failed.  Prints nothing
 * on success.
 */
int switch_request_run(uint8_t cmd, uint32_t id, const char *profile,
		       const char *what);

void port_settings_init(struct port_settings *ps);
/* SWITCH PORT, the first two arguments of port set and inject. */
int parse_switch_port(int argc, char **argv, uint32_t *id, uint32_t *port);
/* Which ports a command is about: SWITCH [PORT]. */
struct port_target {
	uint32_t id;
	uint32_t port;
	bool one;		/* PORT given; else every port of the switch */
};

/* SWITCH [PORT], all the arguments, no options (port show, errors clear). */
int parse_switch_opt_port(int argc, char **argv, struct port_target *t);
/* A bit-error rate argument ("1e-9"), usage error if it is not one. */
int parse_ber_arg(const char *arg, uint64_t *ber);
/*
 * A request (not a dump) @cmd about port @port of switch @id: switch-id
 * and port-id put, the rest for the caller to add.
 */
struct nl_msg *port_request_new(struct nl_session *s, uint8_t cmd,
				uint32_t id, uint32_t port);
/*
 * The same about the port or ports of @t: for every port of the switch,
 * switch-id only, and a dump if @dump.
 */
struct nl_msg *port_target_request_new(struct nl_session *s, uint8_t cmd,
				       bool dump, const struct port_target *t);
/* Sends one port-set with @ps; prints nothing on success. */
int port_set_run(uint32_t id, uint32_t port, const struct port_settings *ps);

/* The upstream port of switch @id. */
int find_upstream(struct nl_session *s, uint32_t id, uint32_t *port);
/* Payload bytes (posted and completion) port @port counted, both ways. */
int port_bytes(struct nl_session *s, uint32_t id, uint32_t port,
	       uint64_t *bytes);

/* "A" or "B": the partition an fw-part-id or fw-running-part names. */
const char *fw_part_name(const struct nlattr *a);
/* show's firmware line, from the fw-get replies @fw for switch @sw. */
void print_fw_summary(const struct objs *fw, struct nlattr **sw);

#endif /* SWITCHCTL_SHARED_H */
