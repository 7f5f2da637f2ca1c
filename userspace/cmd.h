/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command handlers.  Each gets the arguments after its command words
 * (argv[0] is the first argument, not the command) with --help already
 * handled by the dispatcher, and returns an exit code (util.h).
 */
#ifndef SWITCHCTL_CMD_H
#define SWITCHCTL_CMD_H

/* cmd_switch.c */
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_switch_add(int argc, char **argv);
int cmd_switch_del(int argc, char **argv);

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

/* cmd_monitor.c */
int cmd_monitor(int argc, char **argv);

/* cmd_module.c */
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);

#endif /* SWITCHCTL_CMD_H */
