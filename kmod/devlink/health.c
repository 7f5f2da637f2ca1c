// SPDX-License-Identifier: GPL-2.0
/*
 * devlink health: the reporters of each switch's devlink instance
 * (devlink.c creates them with it, devlink.h is what the two share),
 * each with diagnose, dump and recover:
 *
 *	link		degraded links, links down, surprise downs
 *	thermal		sensor alarms
 *	aer		error-counter thresholds crossed
 *
 * The health reporters follow the model's events as a view: the snapshot
 * takes a port's link state under sw->lock, the apply (in event order)
 * decides what is worth reporting.  devlink_health_report() may take the
 * instance lock (auto-dump, auto-recover), and a devlink op holding it may
 * wait for the event queue (pciesw_switch_sync()), so the apply only
 * queues the report; dl->report_work hands it to devlink.  The dumps
 * include the switch's event log.  Lock order as in devlink.c: sw->lock
 * inside the instance lock.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <net/devlink.h>

#include "devlink/devlink.h"
#include "instance.h"

/* the last event-log entries a dump carries */
#define PCIESW_HEALTH_LOG	32

/*
 * The fmsg calls return an error before 6.7 and keep it in the fmsg from
 * then on: pciesw_fm keeps the first one for the older kernels, so that
 * the callbacks can return it.
 */
struct pciesw_fm {
	struct devlink_fmsg *f;
	int err;
};

#ifdef PCIESW_DEVLINK_FMSG_VOID
#define PCIESW_FM(m, call)	do { (void)(m); call; } while (0)
#else
static inline void pciesw_fm_err(struct pciesw_fm *m, int err)
{
	if (!m->err)
		m->err = err;
}

#define PCIESW_FM(m, call)	pciesw_fm_err(m, call)
#endif

static void fm_u32(struct pciesw_fm *m, const char *name, u32 v)
{
	PCIESW_FM(m, devlink_fmsg_u32_pair_put(m->f, name, v));
}

static void fm_u64(struct pciesw_fm *m, const char *name, u64 v)
{
	PCIESW_FM(m, devlink_fmsg_u64_pair_put(m->f, name, v));
}

static void fm_bool(struct pciesw_fm *m, const char *name, bool v)
{
	PCIESW_FM(m, devlink_fmsg_bool_pair_put(m->f, name, v));
}

static void fm_str(struct pciesw_fm *m, const char *name, const char *v)
{
	PCIESW_FM(m, devlink_fmsg_string_pair_put(m->f, name, v));
}

static void fm_s32(struct pciesw_fm *m, const char *name, int v)
{
	char buf[16];

	/* fmsg has no signed type: temperatures are put as text */
	snprintf(buf, sizeof(buf), "%d", v);
	fm_str(m, name, buf);
}

static void fm_arr_start(struct pciesw_fm *m, const char *name)
{
	PCIESW_FM(m, devlink_fmsg_arr_pair_nest_start(m->f, name));
}

static void fm_arr_end(struct pciesw_fm *m)
{
	PCIESW_FM(m, devlink_fmsg_arr_pair_nest_end(m->f));
}

static void fm_obj_start(struct pciesw_fm *m)
{
	PCIESW_FM(m, devlink_fmsg_obj_nest_start(m->f));
}

static void fm_obj_end(struct pciesw_fm *m)
{
	PCIESW_FM(m, devlink_fmsg_obj_nest_end(m->f));
}

static struct pciesw_devlink *pciesw_rep_dl(struct devlink_health_reporter *r)
{
	return devlink_health_reporter_priv(r);
}

/* The port a dump or recover acts on: the report's, else the last one's. */
static u32 pciesw_rep_port(struct pciesw_devlink *dl, enum pciesw_reporter rep,
			   void *priv_ctx)
{
	const struct pciesw_devlink_report *r = priv_ctx;

	return r ? r->port : READ_ONCE(dl->port[rep]);
}

/* The last entries of the event log; sw->lock held. */
static void pciesw_fm_log(struct pciesw_fm *m, struct pciesw_switch *sw)
{
	const struct pciesw_log_entry *e;
	u64 seq = sw->log.last > PCIESW_HEALTH_LOG ?
		  sw->log.last - PCIESW_HEALTH_LOG + 1 : 0;

	fm_arr_start(m, "event_log");
	while ((e = pciesw_log_find(sw, &seq))) {
		fm_obj_start(m);
		fm_u64(m, "seq", e->seq);
		fm_u64(m, "time_ns", e->time_ns);
		fm_str(m, "object", e->object);
		fm_str(m, "message", e->message);
		fm_obj_end(m);
		seq++;
	}
	fm_arr_end(m);
}

static void pciesw_fm_port(struct pciesw_fm *m, const struct pciesw_port *port)
{
	const struct pciesw_link *link = &port->link;

	fm_u32(m, "port", port->id);
	fm_str(m, "role", port->role == PCIESW_PORT_ROLE_UPSTREAM ?
			  "upstream" : "downstream");
	fm_str(m, "ltssm", pciesw_ltssm_name(link->ltssm));
	fm_bool(m, "up", pciesw_link_active(port));
	fm_bool(m, "enabled", link->enabled);
	fm_u32(m, "speed_gen", link->speed);
	fm_u32(m, "width", link->width);
	fm_u32(m, "max_width", port->nr_lanes);
	fm_bool(m, "degraded", link->degraded);
	fm_u32(m, "failed_lanes", link->failed_lanes);
	fm_u64(m, "surprise_down", link->surprise_down);
}

static void pciesw_fm_counters(struct pciesw_fm *m, struct pciesw_switch *sw,
			       const struct pciesw_port *port)
{
	enum pciesw_counter c;

	fm_arr_start(m, "error_counters");
	for (c = 0; c <= PCIESW_COUNTER_MAX; c++) {
		if (!pciesw_counter_is_error(c))
			continue;
		fm_obj_start(m);
		fm_str(m, "counter", pciesw_counter_name(c));
		fm_u64(m, "value", pciesw_counter_read(sw, port, c));
		fm_obj_end(m);
	}
	fm_arr_end(m);
}

static int pciesw_link_diagnose(struct devlink_health_reporter *r,
				struct devlink_fmsg *fmsg,
				struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_rep_dl(r)->sw;
	struct pciesw_fm m = { .f = fmsg };
	struct pciesw_port *port;

	mutex_lock(&sw->lock);
	fm_arr_start(&m, "ports");
	pciesw_for_each_port(sw, port) {
		fm_obj_start(&m);
		pciesw_fm_port(&m, port);
		fm_obj_end(&m);
	}
	fm_arr_end(&m);
	mutex_unlock(&sw->lock);
	return m.err;
}

static int pciesw_link_dump(struct devlink_health_reporter *r,
			    struct devlink_fmsg *fmsg, void *priv_ctx,
			    struct netlink_ext_ack *extack)
{
	struct pciesw_devlink *dl = pciesw_rep_dl(r);
	struct pciesw_switch *sw = dl->sw;
	u32 id = pciesw_rep_port(dl, PCIESW_REP_LINK, priv_ctx);
	struct pciesw_ltssm_transition *h;
	struct pciesw_fm m = { .f = fmsg };
	struct pciesw_port *port;
	unsigned int i, n;

	h = kcalloc(PCIESW_LTSSM_HISTORY, sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	mutex_lock(&sw->lock);
	port = id == PCIESW_EV_NO_PORT ? NULL : pciesw_port_find(sw, id);
	if (port) {
		pciesw_fm_port(&m, port);
		n = pciesw_link_history(port, h);
		fm_arr_start(&m, "ltssm_history");
		for (i = 0; i < n; i++) {
			fm_obj_start(&m);
			fm_u64(&m, "time_ns", h[i].time_ns);
			fm_str(&m, "from", pciesw_ltssm_name(h[i].from));
			fm_str(&m, "to", pciesw_ltssm_name(h[i].to));
			fm_obj_end(&m);
		}
		fm_arr_end(&m);
		pciesw_fm_counters(&m, sw, port);
	} else {
		fm_str(&m, "port", "none reported, or gone");
	}
	pciesw_fm_log(&m, sw);
	mutex_unlock(&sw->lock);
	kfree(h);
	return m.err;
}

/*
 * Retrain the reporting port's link, when asked to (devlink health
 * recover).  An automatic recovery (the report's context is set) leaves
 * the link as the fault left it, as the model does without devlink: a
 * surprise down stays down until retrained, dead lanes stay dead.  The
 * reporter stays in error until the link is back up at full width.
 */
static int pciesw_link_recover(struct devlink_health_reporter *r,
			       void *priv_ctx, struct netlink_ext_ack *extack)
{
	struct pciesw_devlink *dl = pciesw_rep_dl(r);
	struct pciesw_switch *sw = dl->sw;
	u32 id = pciesw_rep_port(dl, PCIESW_REP_LINK, priv_ctx);
	const char *why = "the reporting port no longer exists";
	struct pciesw_port *port;
	int err = -ENODEV;

	if (priv_ctx)
		return -EOPNOTSUPP;
	mutex_lock(&sw->lock);
	port = id == PCIESW_EV_NO_PORT ? NULL : pciesw_port_find(sw, id);
	if (port)
		err = pciesw_port_retrain(port, &why);
	mutex_unlock(&sw->lock);
	if (err)
		pciesw_devlink_msg(extack, why);
	return err;
}

static const struct devlink_health_reporter_ops pciesw_link_ops = {
	.name = "link",
	.diagnose = pciesw_link_diagnose,
	.dump = pciesw_link_dump,
	.recover = pciesw_link_recover,
};

static void pciesw_fm_sensors(struct pciesw_fm *m, struct pciesw_switch *sw)
{
	unsigned int i;

	fm_s32(m, "ambient_mC", sw->thermal.ambient);
	fm_arr_start(m, "sensors");
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		const struct pciesw_sensor *s = &sw->thermal.sensors[i];

		fm_obj_start(m);
		fm_u32(m, "sensor", i);
		fm_str(m, "label", pciesw_sensor_label(i));
		fm_s32(m, "temp_mC", pciesw_sensor_temp(sw, i));
		fm_s32(m, "max_mC", s->max);
		fm_s32(m, "crit_mC", s->crit);
		fm_bool(m, "max_alarm", s->max_alarm);
		fm_bool(m, "crit_alarm", s->crit_alarm);
		fm_bool(m, "overridden", s->overridden);
		fm_obj_end(m);
	}
	fm_arr_end(m);
}

static int pciesw_thermal_diagnose(struct devlink_health_reporter *r,
				   struct devlink_fmsg *fmsg,
				   struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_rep_dl(r)->sw;
	struct pciesw_fm m = { .f = fmsg };

	mutex_lock(&sw->lock);
	pciesw_fm_sensors(&m, sw);
	mutex_unlock(&sw->lock);
	return m.err;
}

static int pciesw_thermal_dump(struct devlink_health_reporter *r,
			       struct devlink_fmsg *fmsg, void *priv_ctx,
			       struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_rep_dl(r)->sw;
	struct pciesw_fm m = { .f = fmsg };
	struct pciesw_temp_sample *h;
	unsigned int i, j, n;

	h = kcalloc(PCIESW_THERMAL_HISTORY, sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	mutex_lock(&sw->lock);
	pciesw_fm_sensors(&m, sw);
	n = pciesw_thermal_history(sw, h);
	fm_arr_start(&m, "history");
	for (i = 0; i < n; i++) {
		fm_obj_start(&m);
		fm_u64(&m, "time_ns", h[i].time_ns);
		fm_arr_start(&m, "temp_mC");
		for (j = 0; j < PCIESW_NR_SENSORS; j++)
			PCIESW_FM(&m, devlink_fmsg_u32_put(m.f, h[i].temp[j]));
		fm_arr_end(&m);
		fm_obj_end(&m);
	}
	fm_arr_end(&m);
	pciesw_fm_log(&m, sw);
	mutex_unlock(&sw->lock);
	kfree(h);
	return m.err;
}

/* Healthy again once no sensor is above its limits. */
static int pciesw_thermal_recover(struct devlink_health_reporter *r,
				  void *priv_ctx, struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_rep_dl(r)->sw;
	unsigned int alarms;

	mutex_lock(&sw->lock);
	alarms = pciesw_thermal_alarms(sw, PCIESW_ALARM_WARNING) +
		 pciesw_thermal_alarms(sw, PCIESW_ALARM_CRITICAL);
	mutex_unlock(&sw->lock);
	if (alarms) {
		pciesw_devlink_msg(extack, "a sensor is still above its limit");
		return -EBUSY;
	}
	return 0;
}

static const struct devlink_health_reporter_ops pciesw_thermal_ops = {
	.name = "thermal",
	.diagnose = pciesw_thermal_diagnose,
	.dump = pciesw_thermal_dump,
	.recover = pciesw_thermal_recover,
};

static int pciesw_aer_diagnose(struct devlink_health_reporter *r,
			       struct devlink_fmsg *fmsg,
			       struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_rep_dl(r)->sw;
	struct pciesw_fm m = { .f = fmsg };
	unsigned int i;

	mutex_lock(&sw->lock);
	fm_arr_start(&m, "thresholds");
	for (i = 0; i < sw->nr_thresholds; i++) {
		const struct pciesw_threshold *t = &sw->thresholds[i];
		struct pciesw_port *port = pciesw_threshold_port(sw, t);

		fm_obj_start(&m);
		if (t->lane == PCIESW_THRESHOLD_SWITCH)
			fm_str(&m, "port", "switch");
		else if (port)
			fm_u32(&m, "port", port->id);
		fm_str(&m, "counter", pciesw_counter_name(t->counter));
		fm_u64(&m, "threshold", t->value);
		fm_u64(&m, "value", t->lane == PCIESW_THRESHOLD_SWITCH || port ?
			   pciesw_counter_read(sw, port, t->counter) : 0);
		fm_bool(&m, "crossed", t->crossed);
		fm_obj_end(&m);
	}
	fm_arr_end(&m);
	mutex_unlock(&sw->lock);
	return m.err;
}

static int pciesw_aer_dump(struct devlink_health_reporter *r,
			   struct devlink_fmsg *fmsg, void *priv_ctx,
			   struct netlink_ext_ack *extack)
{
	struct pciesw_devlink *dl = pciesw_rep_dl(r);
	struct pciesw_switch *sw = dl->sw;
	u32 id = pciesw_rep_port(dl, PCIESW_REP_AER, priv_ctx);
	struct pciesw_fm m = { .f = fmsg };
	struct pciesw_port *port;

	mutex_lock(&sw->lock);
	port = id == PCIESW_EV_NO_PORT ? NULL : pciesw_port_find(sw, id);
	if (port)
		fm_u32(&m, "port", port->id);
	else
		fm_str(&m, "port", "switch");
	/* NULL: the sums over every port */
	pciesw_fm_counters(&m, sw, port);
	pciesw_fm_log(&m, sw);
	mutex_unlock(&sw->lock);
	return m.err;
}

/*
 * Errors already counted cannot be undone: recovering acknowledges them.
 * A crossed threshold stays quiet until the operator clears the counter
 * or sets the threshold again (as without devlink), so an auto-recovery
 * does not make it fire again at once.
 */
static int pciesw_aer_recover(struct devlink_health_reporter *r,
			      void *priv_ctx, struct netlink_ext_ack *extack)
{
	return 0;
}

static const struct devlink_health_reporter_ops pciesw_aer_ops = {
	.name = "aer",
	.diagnose = pciesw_aer_diagnose,
	.dump = pciesw_aer_dump,
	.recover = pciesw_aer_recover,
};

const struct devlink_health_reporter_ops *const pciesw_rep_ops[] = {
	[PCIESW_REP_LINK] = &pciesw_link_ops,
	[PCIESW_REP_THERMAL] = &pciesw_thermal_ops,
	[PCIESW_REP_AER] = &pciesw_aer_ops,
};

#define HEALTHY		DEVLINK_HEALTH_REPORTER_STATE_HEALTHY

/* Hands the queued reports to devlink while the instance is registered. */
void pciesw_devlink_report_work(struct work_struct *work)
{
	struct pciesw_devlink *dl = container_of(work, struct pciesw_devlink,
						 report_work);
	struct pciesw_devlink_report *r;

	for (;;) {
		spin_lock(&dl->report_lock);
		r = list_first_entry_or_null(&dl->reports,
					     struct pciesw_devlink_report,
					     node);
		if (r)
			list_del(&r->node);
		spin_unlock(&dl->report_lock);
		if (!r)
			return;
		mutex_lock(&dl->lock);
		if (dl->registered) {
			struct devlink_health_reporter *rep =
				dl->reporters[r->rep];

			if (r->healthy) {
				devlink_health_reporter_state_update(rep, HEALTHY);
			} else {
				WRITE_ONCE(dl->port[r->rep], r->port);
				devlink_health_report(rep, r->msg, r);
			}
		}
		mutex_unlock(&dl->lock);
		kfree(r);
		cond_resched();
	}
}

static __printf(4, 5)
void pciesw_devlink_queue(struct pciesw_devlink *dl, enum pciesw_reporter rep,
			  u32 port, const char *fmt, ...)
{
	struct pciesw_devlink_report *r;
	va_list args;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return;
	r->rep = rep;
	r->port = port;
	if (fmt) {
		va_start(args, fmt);
		vsnprintf(r->msg, sizeof(r->msg), fmt, args);
		va_end(args);
	} else {
		r->healthy = true;
	}
	spin_lock(&dl->report_lock);
	list_add_tail(&r->node, &dl->reports);
	spin_unlock(&dl->report_lock);
	queue_work(system_wq, &dl->report_work);
}

/* What apply needs of the model at the time of the event. */
struct pciesw_devlink_snap {
	bool up;
	bool lost;
	enum pciesw_ltssm ltssm;
	bool degraded;
	u8 width;
	u8 max_width;
	u64 surprise_down;
	unsigned int alarms;
};

static void *pciesw_devlink_snapshot(const struct pciesw_event *ev)
{
	struct pciesw_devlink_snap *s;

	if (ev->type != PCIESW_EV_PORT_CHANGE &&
	    ev->type != PCIESW_EV_THERMAL_ALARM)
		return NULL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	if (ev->type == PCIESW_EV_PORT_CHANGE) {
		s->up = pciesw_link_active(ev->port);
		/* down while enabled, and nothing is training it again */
		s->lost = !s->up && ev->port->link.enabled &&
			  ev->port->link.goal == PCIESW_LINK_IDLE;
		s->ltssm = ev->port->link.ltssm;
		s->degraded = ev->port->link.degraded;
		s->width = ev->port->link.width;
		s->max_width = ev->port->nr_lanes;
		s->surprise_down = ev->port->link.surprise_down;
	} else {
		s->alarms = pciesw_thermal_alarms(ev->sw, PCIESW_ALARM_WARNING) +
			    pciesw_thermal_alarms(ev->sw, PCIESW_ALARM_CRITICAL);
	}
	return s;
}

static void pciesw_devlink_port(struct pciesw_devlink *dl, u32 id,
				const struct pciesw_devlink_snap *s)
{
	bool was = test_bit(id, dl->degraded);
	bool was_up = test_bit(id, dl->up);

	assign_bit(id, dl->up, s->up);
	if (s->surprise_down > dl->surprise_down[id]) {
		__set_bit(id, dl->bad);
		pciesw_devlink_queue(dl, PCIESW_REP_LINK, id,
				     "port %u: surprise link down", id);
	} else if (was_up && s->lost) {
		__set_bit(id, dl->bad);
		pciesw_devlink_queue(dl, PCIESW_REP_LINK, id,
				     "port %u: link down (%s)", id,
				     pciesw_ltssm_name(s->ltssm));
	}
	dl->surprise_down[id] = s->surprise_down;
	if (!s->up)
		return;
	if (s->degraded && !was) {
		__set_bit(id, dl->bad);
		pciesw_devlink_queue(dl, PCIESW_REP_LINK, id,
				     "port %u: link degraded to x%u of x%u",
				     id, s->width, s->max_width);
	}
	assign_bit(id, dl->degraded, s->degraded);
	/* the last reported port back at full width: healthy again */
	if (!s->degraded && test_and_clear_bit(id, dl->bad) &&
	    bitmap_empty(dl->bad, PCIESW_MAX_PORTS))
		pciesw_devlink_queue(dl, PCIESW_REP_LINK, id, NULL);
}

static void pciesw_devlink_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_dev *pdev = pciesw_dev_of(ev->sw);
	struct pciesw_devlink_snap *s = snap;
	struct pciesw_devlink *dl;

	if (!pdev || !pdev->devlink)
		goto out;
	dl = devlink_priv(pdev->devlink);
	switch (ev->type) {
	case PCIESW_EV_PORT_CHANGE:
		if (s && ev->port_id < PCIESW_MAX_PORTS)
			pciesw_devlink_port(dl, ev->port_id, s);
		break;
	case PCIESW_EV_PORTS_REMOVE:
		/* a port that comes back starts afresh */
		bitmap_andnot(dl->degraded, dl->degraded, ev->ports,
			      PCIESW_MAX_PORTS);
		bitmap_andnot(dl->up, dl->up, ev->ports, PCIESW_MAX_PORTS);
		bitmap_andnot(dl->bad, dl->bad, ev->ports, PCIESW_MAX_PORTS);
		break;
	case PCIESW_EV_THERMAL_ALARM:
		if (ev->active)
			pciesw_devlink_queue(dl, PCIESW_REP_THERMAL,
					     PCIESW_EV_NO_PORT,
					     "sensor %u (%s): %s alarm at %d mC",
					     ev->sensor,
					     pciesw_sensor_label(ev->sensor),
					     ev->level == PCIESW_ALARM_CRITICAL ?
					     "critical" : "warning", ev->temp);
		else if (s && !s->alarms)
			pciesw_devlink_queue(dl, PCIESW_REP_THERMAL,
					     PCIESW_EV_NO_PORT, NULL);
		break;
	case PCIESW_EV_THRESHOLD:
		if (ev->port_id == PCIESW_EV_NO_PORT)
			pciesw_devlink_queue(dl, PCIESW_REP_AER, ev->port_id,
					     "switch: %s reached %llu (threshold %llu)",
					     pciesw_counter_name(ev->counter),
					     ev->value, ev->threshold);
		else
			pciesw_devlink_queue(dl, PCIESW_REP_AER, ev->port_id,
					     "port %u: %s reached %llu (threshold %llu)",
					     ev->port_id,
					     pciesw_counter_name(ev->counter),
					     ev->value, ev->threshold);
		break;
	default:
		break;
	}
out:
	kfree(s);
}

static const struct pciesw_view pciesw_devlink_view = {
	.snapshot = pciesw_devlink_snapshot,
	.apply = pciesw_devlink_apply,
};

void pciesw_devlink_init(void)
{
	pciesw_view_register(PCIESW_VIEW_DEVLINK, &pciesw_devlink_view);
}

void pciesw_devlink_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_DEVLINK);
}
