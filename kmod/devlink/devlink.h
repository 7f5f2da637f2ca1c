/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the devlink instance (devlink.c) and its health reporters
 * (health.c) share: the instance's private data, the reports the
 * view queues, the reporters' ops, which devlink.c creates the reporters
 * with, and the work that hands the reports to devlink, which it sets up
 * and cancels.  Nothing else includes this: the rest of the module knows
 * the instance through instance.h.
 */
#ifndef _PCIESW_DEVLINK_H
#define _PCIESW_DEVLINK_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/devlink.h>

#include "model/pciesw.h"

enum pciesw_reporter {
	PCIESW_REP_LINK,
	PCIESW_REP_THERMAL,
	PCIESW_REP_AER,
	PCIESW_NR_REPORTERS
};

/**
 * struct pciesw_devlink - the devlink instance's private data
 * @sw: the switch, referenced for the instance's life
 * @devlink: the instance
 * @reporters: the health reporters, from creation to destruction
 * @lock: protects @registered; held while a report is handed to devlink,
 *	so that none is once the instance is being unregistered
 * @registered: the instance is registered: reports may reach devlink
 * @report_lock: protects @reports; the view's apply takes only this one,
 *	never @lock, which waits for the instance lock
 * @reports: reports queued by the view, for @report_work
 * @report_work: hands @reports to devlink
 * @port: per reporter, the port of its last report (PCIESW_EV_NO_PORT:
 *	none), which dump and recover act on (READ_ONCE)
 * @up: bit p: port p's link was last seen up (the view's, changed only in
 *	event order)
 * @degraded: bit p: port p was last seen up and degraded (likewise)
 * @bad: bit p: port p was reported and is not up at full width again
 * @surprise_down: per port, its surprise-down count as last seen
 */
struct pciesw_devlink {
	struct pciesw_switch *sw;
	struct devlink *devlink;
	struct devlink_health_reporter *reporters[PCIESW_NR_REPORTERS];
	struct mutex lock;	/* protects registered */
	bool registered;
	spinlock_t report_lock;	/* protects reports */
	struct list_head reports;
	struct work_struct report_work;
	u32 port[PCIESW_NR_REPORTERS];
	DECLARE_BITMAP(up, PCIESW_MAX_PORTS);
	DECLARE_BITMAP(degraded, PCIESW_MAX_PORTS);
	DECLARE_BITMAP(bad, PCIESW_MAX_PORTS);
	u64 surprise_down[PCIESW_MAX_PORTS];
};

/**
 * struct pciesw_devlink_report - a report the view queued
 * @node: in dl->reports
 * @rep: which reporter
 * @healthy: not a report: the condition is gone, the reporter is healthy
 * @port: the port it is about, or PCIESW_EV_NO_PORT
 * @msg: what happened
 */
struct pciesw_devlink_report {
	struct list_head node;
	enum pciesw_reporter rep;
	bool healthy;
	u32 port;
	char msg[96];
};

/* NL_SET_ERR_MSG() of a static message chosen at run time (the model's) */
static inline void pciesw_devlink_msg(struct netlink_ext_ack *extack,
				      const char *msg)
{
	if (extack)
		extack->_msg = msg;
}

/* health.c: the reporters, by enum pciesw_reporter */
extern const struct devlink_health_reporter_ops *const pciesw_rep_ops[];
void pciesw_devlink_report_work(struct work_struct *work);

#endif /* _PCIESW_DEVLINK_H */
