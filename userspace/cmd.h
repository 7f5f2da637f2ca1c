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

/* cmd_module.c */
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);

#endif /* SWITCHCTL_CMD_H */
