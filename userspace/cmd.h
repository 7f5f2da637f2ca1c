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
int cmd_switch_set(int argc, char **argv);

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

/* cmd_errors.c */
int cmd_errors_show(int argc, char **argv);
int cmd_errors_clear(int argc, char **argv);
int cmd_errors_threshold(int argc, char **argv);
int cmd_errors_thresholds(int argc, char **argv);
int cmd_bw(int argc, char **argv);

/* cmd_thermal.c */
int cmd_temp(int argc, char **argv);
int cmd_inject(int argc, char **argv);

/* cmd_fw.c */
int cmd_fw_show(int argc, char **argv);
int cmd_fw_toggle(int argc, char **argv);
int cmd_fw_image(int argc, char **argv);
int cmd_log_show(int argc, char **argv);
int cmd_log_clear(int argc, char **argv);

/* cmd_vpd.c */
int cmd_vpd_show(int argc, char **argv);
int cmd_vpd_set(int argc, char **argv);

/* cmd_monitor.c */
int cmd_monitor(int argc, char **argv);

/* cmd_export.c */
int cmd_export(int argc, char **argv);

/* cmd_verify.c */
int cmd_verify(int argc, char **argv);

/* cmd_module.c */
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);

#endif /* SWITCHCTL_CMD_H */
