// SPDX-License-Identifier: GPL-2.0
/*
 * The thermal model: five on-die sensors (the PEX89048 has five) that sit
 * at the inlet air temperature plus their idle rise, and warm with the
 * traffic through the switch.
 *
 * Per sensor i, first order with time constant tau:
 *
 *	target_i = ambient + idle_rise_i + heat_i * rate
 *	T_i += (target_i - T_i) * dt / tau	(T_i = target_i when dt >= tau)
 *
 * where rate is the bytes the switch sent (egress of all ports) per second
 * over dt, in GB/s.  Temperatures are kept in micro-degrees so that slow
 * approaches do not stall in integer steps; the heating part is computed
 * as heat_i * bytes / tau, which is the same thing without dividing by a
 * short dt first.  Defaults: ambient 35 °C, tau 30 s,
 *
 *	sensor		idle rise	heat
 *	core		10.0 °C		0.4 °C per GB/s
 *	serdes-host	 8.0 °C		0.3 °C per GB/s
 *	serdes-gpu	 8.5 °C		0.3 °C per GB/s
 *	serdes-nvme	 9.0 °C		0.3 °C per GB/s
 *	dma		 7.0 °C		0.5 °C per GB/s
 *
 * A delayed work advances the model every 250 ms, but only while something
 * moves (traffic in the last tick, or a sensor more than 50 m°C away from
 * its idle temperature): a settled switch has no timer.  Traffic that wakes
 * a settled model is taken to have come within its last tick.  Readers
 * bring the model up to date before they read.
 *
 * Each sensor has a warning (max) and a critical (crit) limit; an alarm is
 * raised when the temperature reaches the limit and cleared when it falls
 * PCIESW_TEMP_HYST below it, each change an event.  An override (fault
 * injection) replaces the modelled temperature; alarms follow the
 * temperature reported.  The NVMe drives' composite temperature is the
 * serdes-nvme sensor's: each check also sends a drive's asynchronous event
 * when its temperature crossed one of its thresholds (nvme/core.c).
 */

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "model/event.h"
#include "model/pciesw.h"
#include "nvme/nvme.h"

#define PCIESW_THERMAL_TICK_MS		250
/* closer than this to its idle temperature, a sensor is settled (µ°C) */
#define PCIESW_THERMAL_SETTLED_UC	50000
/* the model never goes beyond this (µ°C): silicon would be gone */
#define PCIESW_THERMAL_LIMIT_UC		(300000LL * 1000)
#define PCIESW_AMBIENT_DEFAULT		35000
#define PCIESW_TAU_DEFAULT_MS		30000
#define PCIESW_TEMP_MAX_DEFAULT		95000
#define PCIESW_TEMP_CRIT_DEFAULT	105000

/*
 * @idle_rise: above ambient with no traffic, m°C
 * @heat: further rise per GB/s through the switch, m°C
 */
struct pciesw_sensor_desc {
	const char *label;
	int idle_rise;
	int heat;
};

static const struct pciesw_sensor_desc pciesw_sensor_descs[] = {
	{ "core",	 10000, 400 },
	{ "serdes-host",  8000, 300 },
	{ "serdes-gpu",	  8500, 300 },
	{ "serdes-nvme",  9000, 300 },
	{ "dma",	  7000, 500 },
};

static_assert(ARRAY_SIZE(pciesw_sensor_descs) == PCIESW_NR_SENSORS);

const char *pciesw_sensor_label(unsigned int sensor)
{
	if (sensor >= PCIESW_NR_SENSORS)
		return NULL;
	return pciesw_sensor_descs[sensor].label;
}

/* Where sensor @i settles without traffic, µ°C. */
static s64 pciesw_sensor_idle_uc(const struct pciesw_thermal *th,
				 unsigned int i)
{
	return ((s64)th->ambient + pciesw_sensor_descs[i].idle_rise) * 1000;
}

/* @v * @mul / @div without overflow, for signed @v. */
static s64 pciesw_scale(s64 v, u64 mul, u64 div)
{
	u64 r = mul_u64_u64_div_u64(v < 0 ? -v : v, mul, div);

	return v < 0 ? -(s64)r : (s64)r;
}

/* Advance every sensor by @dt_ns in which the switch sent @bytes. */
static void pciesw_thermal_advance(struct pciesw_thermal *th, u64 dt_ns,
				   u64 bytes)
{
	u64 tau_ns = (u64)th->tau_ms * NSEC_PER_MSEC;
	unsigned int i;

	if (!dt_ns)
		return;
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		struct pciesw_sensor *s = &th->sensors[i];
		/* heat is m°C per GB/s: µ°C per byte/ns is 1000 times it */
		u64 heat = (u64)pciesw_sensor_descs[i].heat * 1000;
		s64 idle = pciesw_sensor_idle_uc(th, i);
		s64 t;

		if (dt_ns >= tau_ns) {
			/* settled within dt: at the target of the mean rate */
			t = idle + mul_u64_u64_div_u64(bytes, heat, dt_ns);
		} else {
			t = s->temp_uc + pciesw_scale(idle - s->temp_uc, dt_ns,
						      tau_ns);
			t += mul_u64_u64_div_u64(bytes, heat, tau_ns);
		}
		s->temp_uc = clamp_t(s64, t, (s64)PCIESW_TEMP_MIN * 1000,
				     PCIESW_THERMAL_LIMIT_UC);
	}
}

static bool pciesw_thermal_settled(const struct pciesw_thermal *th)
{
	unsigned int i;

	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		s64 d = th->sensors[i].temp_uc - pciesw_sensor_idle_uc(th, i);

		if (d > PCIESW_THERMAL_SETTLED_UC ||
		    d < -PCIESW_THERMAL_SETTLED_UC)
			return false;
	}
	return true;
}

/* The temperature sensor @sensor reports, m°C. */
int pciesw_sensor_temp(const struct pciesw_switch *sw, unsigned int sensor)
{
	const struct pciesw_sensor *s = &sw->thermal.sensors[sensor];

	if (s->overridden)
		return s->override;
	return div_s64(s->temp_uc, 1000);
}

int pciesw_thermal_highest(const struct pciesw_switch *sw)
{
	int t = pciesw_sensor_temp(sw, 0);
	unsigned int i;

	for (i = 1; i < PCIESW_NR_SENSORS; i++)
		t = max(t, pciesw_sensor_temp(sw, i));
	return t;
}

/* How many sensors have their @level alarm raised. */
unsigned int pciesw_thermal_alarms(const struct pciesw_switch *sw,
				   enum pciesw_alarm level)
{
	unsigned int i, n = 0;

	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		const struct pciesw_sensor *s = &sw->thermal.sensors[i];

		n += level == PCIESW_ALARM_CRITICAL ? s->crit_alarm :
						      s->max_alarm;
	}
	return n;
}

static void pciesw_thermal_alarm(struct pciesw_switch *sw, unsigned int i,
				 enum pciesw_alarm level, bool *raised,
				 int limit, int temp)
{
	struct pciesw_event ev = {
		.type = PCIESW_EV_THERMAL_ALARM,
		.sw = sw,
		.sensor = i,
		.level = level,
		.temp = temp,
	};

	if (!*raised && temp >= limit)
		ev.active = true;
	else if (*raised && temp < limit - PCIESW_TEMP_HYST)
		ev.active = false;
	else
		return;
	*raised = ev.active;
	pciesw_event(&ev);
}

/* Raise and clear alarms for the temperatures as they are now. */
/* A sample of every sensor into the history ring (health dumps). */
static void pciesw_thermal_sample(struct pciesw_switch *sw)
{
	struct pciesw_thermal *th = &sw->thermal;
	struct pciesw_temp_sample *s;
	unsigned int i;

	s = &th->history[th->history_next++ % PCIESW_THERMAL_HISTORY];
	s->time_ns = ktime_get_ns();
	for (i = 0; i < PCIESW_NR_SENSORS; i++)
		s->temp[i] = pciesw_sensor_temp(sw, i);
}

/* The samples kept, oldest first, into @out; returns how many. */
unsigned int pciesw_thermal_history(const struct pciesw_switch *sw,
				    struct pciesw_temp_sample *out)
{
	const struct pciesw_thermal *th = &sw->thermal;
	u64 n = min_t(u64, th->history_next, PCIESW_THERMAL_HISTORY);
	u64 i;

	lockdep_assert_held(&sw->lock);
	for (i = 0; i < n; i++)
		out[i] = th->history[(th->history_next - n + i) %
				     PCIESW_THERMAL_HISTORY];
	return n;
}

static void pciesw_thermal_check(struct pciesw_switch *sw)
{
	struct pciesw_endpoint *ep;
	unsigned int i;

	pciesw_thermal_sample(sw);
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		struct pciesw_sensor *s = &sw->thermal.sensors[i];
		int t = pciesw_sensor_temp(sw, i);

		pciesw_thermal_alarm(sw, i, PCIESW_ALARM_WARNING,
				     &s->max_alarm, s->max, t);
		pciesw_thermal_alarm(sw, i, PCIESW_ALARM_CRITICAL,
				     &s->crit_alarm, s->crit, t);
	}
	/*
	 * the NVMe drives' composite temperature is the serdes-nvme sensor's:
	 * one that crossed a drive's threshold is its asynchronous event
	 */
	list_for_each_entry(ep, &sw->endpoints, node)
		if (ep->nvme)
			pciesw_nvme_aen_check(ep);
}

/* Tick while the model moves; a settled switch has no timer. */
static void pciesw_thermal_schedule(struct pciesw_switch *sw, bool moving)
{
	struct pciesw_thermal *th = &sw->thermal;

	if (!moving)
		moving = !pciesw_thermal_settled(th);
	if (!moving || sw->dead) {
		th->idle = true;
		return;
	}
	th->idle = false;
	queue_delayed_work(system_wq, &sw->thermal_work,
			   msecs_to_jiffies(PCIESW_THERMAL_TICK_MS));
}

/* Bring the model up to now, then its alarms; sw->lock held. */
void pciesw_thermal_update(struct pciesw_switch *sw)
{
	struct pciesw_thermal *th = &sw->thermal;
	u64 tick = PCIESW_THERMAL_TICK_MS * NSEC_PER_MSEC;
	u64 now = ktime_get_ns(), total, dt, bytes;

	lockdep_assert_held(&sw->lock);
	total = atomic64_read(&sw->egress_bytes);
	dt = now - th->updated_ns;
	bytes = total - th->bytes_seen;
	if (th->idle && bytes && dt > tick) {
		pciesw_thermal_advance(th, dt - tick, 0);
		dt = tick;
	}
	pciesw_thermal_advance(th, dt, bytes);
	th->updated_ns = now;
	th->bytes_seen = total;
	pciesw_thermal_check(sw);
	pciesw_thermal_schedule(sw, bytes);
}

static void pciesw_thermal_work(struct work_struct *work)
{
	struct pciesw_switch *sw = container_of(to_delayed_work(work),
						struct pciesw_switch,
						thermal_work);

	mutex_lock(&sw->lock);
	if (!sw->dead)
		pciesw_thermal_update(sw);
	mutex_unlock(&sw->lock);
}

/*
 * Traffic moved: make sure the model ticks.  Lockless; the switch must stay
 * referenced (a work queued while it is being removed is cancelled at
 * release).
 */
void pciesw_thermal_kick(struct pciesw_switch *sw)
{
	if (!READ_ONCE(sw->dead) && !delayed_work_pending(&sw->thermal_work))
		queue_delayed_work(system_wq, &sw->thermal_work,
				   msecs_to_jiffies(PCIESW_THERMAL_TICK_MS));
}

int pciesw_thermal_set_ambient(struct pciesw_switch *sw, int ambient,
			       const char **why)
{
	lockdep_assert_held(&sw->lock);
	if (ambient < PCIESW_TEMP_MIN || ambient > PCIESW_AMBIENT_MAX) {
		*why = "ambient temperature out of range (-40000-85000 m°C)";
		return -EINVAL;
	}
	pciesw_thermal_update(sw);
	sw->thermal.ambient = ambient;
	pciesw_thermal_schedule(sw, false);
	return 0;
}

int pciesw_thermal_set_tau(struct pciesw_switch *sw, u32 tau_ms,
			   const char **why)
{
	lockdep_assert_held(&sw->lock);
	if (tau_ms < PCIESW_TAU_MIN_MS || tau_ms > PCIESW_TAU_MAX_MS) {
		*why = "time constant out of range (100-3600000 ms)";
		return -EINVAL;
	}
	pciesw_thermal_update(sw);
	sw->thermal.tau_ms = tau_ms;
	return 0;
}

static bool pciesw_temp_valid(int t)
{
	return t >= PCIESW_TEMP_MIN && t <= PCIESW_TEMP_MAX;
}

/*
 * Would setting these limits on @sensor (-1: every sensor) be accepted?
 * NULL leaves a limit as it is.
 */
int pciesw_sensor_check_limits(struct pciesw_switch *sw, int sensor,
			       const int *max, const int *crit,
			       const char **why)
{
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	if (sensor >= PCIESW_NR_SENSORS) {
		*why = "no such sensor";
		return -EINVAL;
	}
	if ((max && !pciesw_temp_valid(*max)) ||
	    (crit && !pciesw_temp_valid(*crit))) {
		*why = "limit out of range (-40000-150000 m°C)";
		return -EINVAL;
	}
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		const struct pciesw_sensor *s = &sw->thermal.sensors[i];

		if (sensor >= 0 && i != sensor)
			continue;
		if ((crit ? *crit : s->crit) < (max ? *max : s->max)) {
			*why = "crit must not be below max";
			return -EINVAL;
		}
	}
	return 0;
}

/* Set the max and/or crit limit of @sensor (-1: every sensor). */
int pciesw_sensor_set_limits(struct pciesw_switch *sw, int sensor,
			     const int *max, const int *crit, const char **why)
{
	unsigned int i;
	int err;

	err = pciesw_sensor_check_limits(sw, sensor, max, crit, why);
	if (err)
		return err;
	pciesw_thermal_update(sw);
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		struct pciesw_sensor *s = &sw->thermal.sensors[i];

		if (sensor >= 0 && i != sensor)
			continue;
		if (max)
			s->max = *max;
		if (crit)
			s->crit = *crit;
	}
	pciesw_thermal_check(sw);
	return 0;
}

/*
 * Force @sensor (-1: every sensor) to *@temp, or with @temp NULL give it
 * back to the model.
 */
int pciesw_sensor_set_override(struct pciesw_switch *sw, int sensor,
			       const int *temp, const char **why)
{
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	if (sensor >= PCIESW_NR_SENSORS) {
		*why = "no such sensor";
		return -EINVAL;
	}
	if (temp && !pciesw_temp_valid(*temp)) {
		*why = "override out of range (-40000-150000 m°C)";
		return -EINVAL;
	}
	pciesw_thermal_update(sw);
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		struct pciesw_sensor *s = &sw->thermal.sensors[i];

		if (sensor >= 0 && i != sensor)
			continue;
		s->overridden = temp;
		s->override = temp ? *temp : 0;
	}
	pciesw_thermal_check(sw);
	return 0;
}

/*
 * At switch creation, before anything that can fail (the release path
 * stops the work): idle and settled, so nothing ticks.
 */
void pciesw_thermal_init(struct pciesw_switch *sw)
{
	struct pciesw_thermal *th = &sw->thermal;
	unsigned int i;

	INIT_DELAYED_WORK(&sw->thermal_work, pciesw_thermal_work);
	th->ambient = PCIESW_AMBIENT_DEFAULT;
	th->tau_ms = PCIESW_TAU_DEFAULT_MS;
	th->updated_ns = ktime_get_ns();
	th->bytes_seen = 0;
	th->idle = true;
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		struct pciesw_sensor *s = &th->sensors[i];

		s->temp_uc = pciesw_sensor_idle_uc(th, i);
		s->max = PCIESW_TEMP_MAX_DEFAULT;
		s->crit = PCIESW_TEMP_CRIT_DEFAULT;
	}
}

/*
 * After sw->dead is set (the work sees it and stops re-arming), and again
 * at release: a lockless kick that raced with unpublish may have queued
 * the work since, holding a reference; wait for it.
 */
void pciesw_thermal_stop(struct pciesw_switch *sw)
{
	cancel_delayed_work_sync(&sw->thermal_work);
}
