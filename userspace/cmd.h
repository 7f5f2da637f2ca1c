/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands.  Each cmd_*.c defines its commands, with their help, next
 * to their handlers; main.c lists them in the order of --help and
 * dispatches.  A handler gets the arguments after its command words
 * (argv[0] is the first argument, not the command) with --help already
 * handled by the dispatcher, and returns an exit code (util.h).
 */
#ifndef SWITCHCTL_CMD_H
#define SWITCHCTL_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct nl_session;
struct nlattr;

struct command {
	const char *object;	/* NULL for a top-level command */
	const char *name;
	const char *args;	/* argument synopsis */
	const char *summary;	/* one line for the command list */
	int (*run)(int argc, char **argv);
	/*
	 * The object's default: "OBJECT [ARGS]" runs it when ARGS do not
	 * begin with one of the object's commands ("errors pciesw0").
	 */
	bool dflt;
	bool own_options;	/* takes -j/-p after the command too */
	const char *help;	/* the rest of "COMMAND --help" */
};

/* cmd_switch.c */
extern const struct command list_cmd;
extern const struct command show_cmd;
extern const struct command status_cmd;
extern const struct command switch_add_cmd;
extern const struct command switch_del_cmd;
extern const struct command switch_show_cmd;
extern const struct command switch_set_cmd;

/* cmd_lanes.c */
extern const struct command lanes_show_cmd;
extern const struct command lanes_set_cmd;

/* cmd_port.c */
extern const struct command port_show_cmd;
extern const struct command port_set_cmd;

/* cmd_ep.c */
extern const struct command ep_list_cmd;
extern const struct command ep_show_cmd;
extern const struct command ep_add_cmd;
extern const struct command ep_del_cmd;
extern const struct command ep_discard_cmd;

/* cmd_thermal.c */
extern const struct command temp_cmd;
extern const struct command inject_cmd;
/* A thermal-sensor nest as temp prints it; for nl_for_each_attr(). */
void print_thermal_sensor(const struct nlattr *nest, void *arg);

/* cmd_errors.c */
extern const struct command errors_show_cmd;
extern const struct command errors_clear_cmd;
extern const struct command errors_threshold_cmd;
extern const struct command errors_thresholds_cmd;
extern const struct command bw_cmd;

/* cmd_vpd.c */
extern const struct command vpd_show_cmd;
extern const struct command vpd_set_cmd;

/* cmd_fw.c */
extern const struct command fw_show_cmd;
extern const struct command fw_toggle_cmd;
extern const struct command fw_image_cmd;
extern const struct command log_show_cmd;
extern const struct command log_clear_cmd;

/* cmd_p2p.c */
extern const struct command p2p_check_cmd;

/* cmd_dma.c */
extern const struct command dma_copy_cmd;
extern const struct command dma_bench_cmd;

/* cmd_gds.c */
extern const struct command gds_check_cmd;
extern const struct command gds_read_cmd;
extern const struct command gds_write_cmd;
extern const struct command gds_bench_cmd;

/* cmd_monitor.c */
extern const struct command monitor_cmd;
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
int monitor_receive(int fd, int family, char **buf, size_t *cap,
		    bool (*fn)(const struct nlmsghdr *nlh, void *arg),
		    void *arg);

/* cmd_top.c */
extern const struct command top_cmd;

/* cmd_export.c */
extern const struct command export_cmd;

/* cmd_verify.c */
extern const struct command verify_cmd;

/* cmd_module.c */
extern const struct command load_cmd;
extern const struct command unload_cmd;

#endif /* SWITCHCTL_CMD_H */
