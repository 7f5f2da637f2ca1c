/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands' handlers and help texts.  Each cmd_*.c holds its commands'
 * handlers and, by each handler, its help text (NAME_help); main.c's table
 * gives each command its words, synopsis and summary, in the order of
 * --help, and dispatches.  A handler gets the arguments after its command
 * words (argv[0] is the first argument, not the command) with --help
 * already handled by the dispatcher, and returns an exit code (util.h).
 */
#ifndef SWITCHCTL_CMD_H
#define SWITCHCTL_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct nl_session;
struct nlattr;

/*
 * The help texts, the rest of "COMMAND --help", in the order of main.c's
 * table; each is defined by its command's handler.
 */
extern const char list_help[], show_help[], status_help[], lanes_show_help[],
	lanes_set_help[], port_show_help[], port_set_help[], ep_list_help[],
	ep_show_help[], ep_add_help[], ep_del_help[], ep_discard_help[], temp_help[],
	errors_show_help[], errors_clear_help[], errors_threshold_help[],
	errors_thresholds_help[], bw_help[], inject_help[], vpd_show_help[],
	vpd_set_help[], fw_show_help[], fw_toggle_help[], fw_image_help[],
	log_show_help[], log_clear_help[], p2p_check_help[], dma_copy_help[],
	dma_bench_help[], gds_check_help[], gds_read_help[], gds_write_help[],
	gds_bench_help[], monitor_help[], top_help[], switch_add_help[],
	switch_del_help[], switch_set_help[], export_help[], verify_help[],
	load_help[], unload_help[];

/* cmd_switch.c */
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_switch_add(int argc, char **argv);
int cmd_switch_del(int argc, char **argv);
int cmd_switch_set(int argc, char **argv);

/* cmd_lanes.c */
int cmd_lanes_show(int argc, char **argv);
int cmd_lanes_set(int argc, char **argv);

/* cmd_port.c */
int cmd_port_show(int argc, char **argv);
int cmd_port_set(int argc, char **argv);

/* cmd_ep.c */
int cmd_ep_list(int argc, char **argv);
int cmd_ep_show(int argc, char **argv);
int cmd_ep_add(int argc, char **argv);
int cmd_ep_del(int argc, char **argv);
int cmd_ep_discard(int argc, char **argv);

/* cmd_thermal.c */
int cmd_temp(int argc, char **argv);
int cmd_inject(int argc, char **argv);
/* A thermal-sensor nest as temp prints it; for nl_for_each_attr(). */
void print_thermal_sensor(const struct nlattr *nest, void *arg);

/* cmd_errors.c */
int cmd_errors_show(int argc, char **argv);
int cmd_errors_clear(int argc, char **argv);
int cmd_errors_threshold(int argc, char **argv);
int cmd_errors_thresholds(int argc, char **argv);
int cmd_bw(int argc, char **argv);

/* cmd_vpd.c */
int cmd_vpd_show(int argc, char **argv);
int cmd_vpd_set(int argc, char **argv);

/* cmd_fw.c */
int cmd_fw_show(int argc, char **argv);
int cmd_fw_toggle(int argc, char **argv);
int cmd_fw_image(int argc, char **argv);
int cmd_log_show(int argc, char **argv);
int cmd_log_clear(int argc, char **argv);

/* cmd_p2p.c */
int cmd_p2p_check(int argc, char **argv);

/* cmd_dma.c */
int cmd_dma_copy(int argc, char **argv);
int cmd_dma_bench(int argc, char **argv);

/* cmd_gds.c */
int cmd_gds_check(int argc, char **argv);
int cmd_gds_read(int argc, char **argv);
int cmd_gds_write(int argc, char **argv);
int cmd_gds_bench(int argc, char **argv);

/* cmd_monitor.c */
int cmd_monitor(int argc, char **argv);
/*
 * What top shares of monitor: the state events are compared with, primed
 * with a port dump (prints why it failed, returns an exit code) or
 * forgotten; one event (a netlink message of the family) printed through
 * the print layer as monitor prints it, a JSON object or a text line.
 */
struct nlmsghdr;
int monitor_prime(void);
/* The same with a dump of every switch's ports the caller made (@n replies). */
int monitor_prime_with(const struct nlmsghdr *const *ports, size_t n);
void monitor_forget(void);
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

/* cmd_export.c */
int cmd_export(int argc, char **argv);

/* cmd_verify.c */
int cmd_verify(int argc, char **argv);

/* cmd_module.c */
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);

#endif /* SWITCHCTL_CMD_H */
