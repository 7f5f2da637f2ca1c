/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command handlers.  Each gets the arguments after its command words
 * (argv[0] is the first argument, not the command) with --help already
 * handled by the dispatcher, and returns an exit code (util.h).
 */
#ifndef SWITCHCTL_CMD_H
#define SWITCHCTL_CMD_H

#include <stdbool.h>
#include <stdint.h>

struct nlattr;
struct objs;

/* cmd_switch.c */
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_switch_add(int argc, char **argv);
int cmd_switch_del(int argc, char **argv);
int cmd_switch_set(int argc, char **argv);

/* cmd_p2p.c */
int cmd_p2p_check(int argc, char **argv);

/* cmd_dma.c */
int cmd_dma_copy(int argc, char **argv);
int cmd_dma_bench(int argc, char **argv);
struct nl_session;
/* The upstream port of switch @id. */
int find_upstream(struct nl_session *s, uint32_t id, uint32_t *port);
/* Payload bytes (posted and completion) port @port counted, both ways. */
int port_bytes(struct nl_session *s, uint32_t id, uint32_t port,
	       uint64_t *bytes);

/* cmd_gds.c */
int cmd_gds_check(int argc, char **argv);
int cmd_gds_read(int argc, char **argv);
int cmd_gds_write(int argc, char **argv);
int cmd_gds_bench(int argc, char **argv);

/* cmd_lanes.c */
int cmd_lanes_show(int argc, char **argv);
int cmd_lanes_set(int argc, char **argv);

/* cmd_port.c */
int cmd_port_show(int argc, char **argv);
int cmd_port_set(int argc, char **argv);

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

void port_settings_init(struct port_settings *ps);
/* SWITCH PORT, the first two arguments of port set and inject. */
int parse_switch_port(int argc, char **argv, uint32_t *id, uint32_t *port);
/* SWITCH [PORT], all the arguments (port show, errors clear). */
int parse_switch_opt_port(int argc, char **argv, uint32_t *id,
			  uint32_t *port);
/* A bit-error rate argument ("1e-9"), usage error if it is not one. */
int parse_ber_arg(const char *arg, uint64_t *ber);
/* Sends one port-set with @ps; prints nothing on success. */
int port_set_run(uint32_t id, uint32_t port, const struct port_settings *ps);

/* cmd_ep.c */
int cmd_ep_list(int argc, char **argv);
int cmd_ep_show(int argc, char **argv);
int cmd_ep_add(int argc, char **argv);
int cmd_ep_del(int argc, char **argv);
int cmd_ep_discard(int argc, char **argv);

/* cmd_errors.c */
int cmd_errors_show(int argc, char **argv);
int cmd_errors_clear(int argc, char **argv);
int cmd_errors_threshold(int argc, char **argv);
int cmd_errors_thresholds(int argc, char **argv);
int cmd_bw(int argc, char **argv);

/* cmd_thermal.c */
int cmd_temp(int argc, char **argv);
int cmd_inject(int argc, char **argv);
/* A thermal-sensor nest as temp prints it; for nl_for_each_attr(). */
void print_thermal_sensor(const struct nlattr *nest, void *arg);

/* cmd_fw.c */
int cmd_fw_show(int argc, char **argv);
int cmd_fw_toggle(int argc, char **argv);
int cmd_fw_image(int argc, char **argv);
int cmd_log_show(int argc, char **argv);
int cmd_log_clear(int argc, char **argv);
void print_fw_summary(const struct objs *fw, struct nlattr **sw);

/* cmd_vpd.c */
int cmd_vpd_show(int argc, char **argv);
int cmd_vpd_set(int argc, char **argv);

/* cmd_monitor.c */
int cmd_monitor(int argc, char **argv);
/*
 * What top shares of monitor: the state events are compared with, primed
 * with a port dump (prints why it failed, returns an exit code) or
 * forgotten; one event (a netlink message of the family) printed through
 * the print layer as monitor prints it, a JSON object or a text line.
 */
int monitor_prime(void);
void monitor_forget(void);
struct nlmsghdr;
void monitor_print_event(const struct nlmsghdr *nlh);
/*
 * Joins the monitor group and the controller's (which says when the family
 * goes) on @s, with a large receive buffer.  Prints why not, exit code.
 */
int monitor_subscribe(struct nl_session *s);
/*
 * Reads one datagram of @fd (the socket of a subscribed session) and gives
 * each message of the family @family to @fn (false: stop, EXIT_FAIL).
 * Returns EXIT_OK to go on, MONITOR_GONE when the family went away (module
 * unloaded), or EXIT_FAIL (said why).  Lost events are warned about and
 * forget the state events are compared with.
 */
enum { MONITOR_GONE = -1 };
/* How many times monitor_receive() found events lost, since start. */
extern unsigned long monitor_events_lost;
int monitor_receive(int fd, int family, char **buf, size_t *cap,
		    bool (*fn)(const struct nlmsghdr *nlh, void *arg),
		    void *arg);

/* cmd_top.c */
int cmd_top(int argc, char **argv);
extern const char top_help[];

/* cmd_export.c */
int cmd_export(int argc, char **argv);

/* cmd_verify.c */
int cmd_verify(int argc, char **argv);

/* cmd_module.c */
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);

#endif /* SWITCHCTL_CMD_H */
