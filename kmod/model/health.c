// SPDX-License-Identifier: GPL-2.0
/*
 * Port health: AER error and traffic counters, counter thresholds, error
 * injection and an injected bit-error rate.
 *
 * Counters are atomic64_t and updated without sw->lock: the DMA engine
 * accounts traffic from its workers through pciesw_stats_account(), the
 * one place traffic is counted.  They live in sw->stats, indexed by the
 * first lane of the port, so a port keeps its counters when its id changes
 * because an earlier lane group was re-bifurcated; re-bifurcating a group
 * zeroes the counters, BER and thresholds of its own lanes (its ports are
 * new).  Readers never see a counter go back except by a clear.
 *
 * Thresholds fire one PCIESW_EV_THRESHOLD when their counter goes from
 * below the value to at least the value, then stay quiet until re-armed
 * by a clear of the counter or by setting the threshold again.  They are
 * checked in one place, pciesw_health_check(), under sw->lock: by the
 * health work, which the lockless paths queue when the counter they
 * touched is armed, and directly by the locked paths that change counters
 * (inject, clear, threshold-set), so those notify before they return.
 *
 * BER: a link with an injected bit-error rate gets floor(bits carried since
 * the rate was set * rate / 10^18) bad-TLP errors, computed exactly from a
 * running bit count, so the number of errors is deterministic.  Every
 * 256th of them (a TLP replayed until REPLAY_NUM rolled over) also counts
 * a replay-num-rollover and the health work retrains the link.
 */

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "model/event.h"
#include "model/pciesw.h"

/* BER errors per replay-num-rollover and link retrain */
#define PCIESW_BER_ROLLOVER	256

static const char * const pciesw_counter_names[] = {
	[PCIESW_COUNTER_RECEIVER_ERROR] = "receiver-error",
	[PCIESW_COUNTER_BAD_TLP] = "bad-tlp",
	[PCIESW_COUNTER_BAD_DLLP] = "bad-dllp",
	[PCIESW_COUNTER_REPLAY_NUM_ROLLOVER] = "replay-num-rollover",
	[PCIESW_COUNTER_REPLAY_TIMER_TIMEOUT] = "replay-timer-timeout",
	[PCIESW_COUNTER_ADVISORY_NON_FATAL] = "advisory-non-fatal",
	[PCIESW_COUNTER_CORRECTED_INTERNAL] = "corrected-internal",
	[PCIESW_COUNTER_HEADER_LOG_OVERFLOW] = "header-log-overflow",
	[PCIESW_COUNTER_DATA_LINK_PROTOCOL] = "data-link-protocol",
	[PCIESW_COUNTER_SURPRISE_DOWN] = "surprise-down",
	[PCIESW_COUNTER_POISONED_TLP] = "poisoned-tlp",
	[PCIESW_COUNTER_FLOW_CONTROL_PROTOCOL] = "flow-control-protocol",
	[PCIESW_COUNTER_COMPLETION_TIMEOUT] = "completion-timeout",
	[PCIESW_COUNTER_COMPLETER_ABORT] = "completer-abort",
	[PCIESW_COUNTER_UNEXPECTED_COMPLETION] = "unexpected-completion",
	[PCIESW_COUNTER_RECEIVER_OVERFLOW] = "receiver-overflow",
	[PCIESW_COUNTER_MALFORMED_TLP] = "malformed-tlp",
	[PCIESW_COUNTER_ECRC] = "ecrc",
	[PCIESW_COUNTER_UNSUPPORTED_REQUEST] = "unsupported-request",
	[PCIESW_COUNTER_ACS_VIOLATION] = "acs-violation",
	[PCIESW_COUNTER_INGRESS_POSTED_BYTES] = "ingress-posted-bytes",
	[PCIESW_COUNTER_INGRESS_NON_POSTED_BYTES] = "ingress-non-posted-bytes",
	[PCIESW_COUNTER_INGRESS_COMPLETION_BYTES] = "ingress-completion-bytes",
	[PCIESW_COUNTER_EGRESS_POSTED_BYTES] = "egress-posted-bytes",
	[PCIESW_COUNTER_EGRESS_NON_POSTED_BYTES] = "egress-non-posted-bytes",
	[PCIESW_COUNTER_EGRESS_COMPLETION_BYTES] = "egress-completion-bytes",
	[PCIESW_COUNTER_INGRESS_POSTED_TLPS] = "ingress-posted-tlps",
	[PCIESW_COUNTER_INGRESS_NON_POSTED_TLPS] = "ingress-non-posted-tlps",
	[PCIESW_COUNTER_INGRESS_COMPLETION_TLPS] = "ingress-completion-tlps",
	[PCIESW_COUNTER_EGRESS_POSTED_TLPS] = "egress-posted-tlps",
	[PCIESW_COUNTER_EGRESS_NON_POSTED_TLPS] = "egress-non-posted-tlps",
	[PCIESW_COUNTER_EGRESS_COMPLETION_TLPS] = "egress-completion-tlps",
};

static_assert(ARRAY_SIZE(pciesw_counter_names) == PCIESW_COUNTER_MAX + 1);
/* the armed masks have a bit per counter */
static_assert(PCIESW_COUNTER_MAX < BITS_PER_LONG);

/* The spec's name of counter @c ("bad-tlp"), NULL if there is none. */
const char *pciesw_counter_name(enum pciesw_counter c)
{
	if (c > PCIESW_COUNTER_MAX)
		return NULL;
	return pciesw_counter_names[c];
}

bool pciesw_counter_is_error(enum pciesw_counter c)
{
	return c <= PCIESW_COUNTER_LAST_UNCORRECTABLE;
}

static void pciesw_health_kick(struct pciesw_switch *sw)
{
	if (!READ_ONCE(sw->dead))
		queue_work(system_wq, &sw->health_work);
}

/* Queue the check if a threshold watches one of the @touched counters. */
static void pciesw_stats_touched(struct pciesw_switch *sw,
				 struct pciesw_port_stats *st,
				 unsigned long touched)
{
	if ((READ_ONCE(st->armed) | READ_ONCE(sw->armed)) & touched)
		pciesw_health_kick(sw);
}

/*
 * Count @n errors of type @c on the port of @st.  Lockless; the switch
 * must stay referenced.
 */
void pciesw_stats_error(struct pciesw_switch *sw,
			struct pciesw_port_stats *st, enum pciesw_counter c,
			u64 n)
{
	if (!n || !pciesw_counter_is_error(c))
		return;
	atomic64_add(n, &st->counters[c]);
	pciesw_stats_touched(sw, st, BIT(c));
}

/*
 * The bit errors @bytes more on the link produce: the exact count for all
 * bits since the BER was set, less those already produced.  Racing callers
 * agree through the cmpxchg on ber_errors: each error is counted once.
 */
static unsigned long pciesw_stats_ber(struct pciesw_port_stats *st, u64 ber,
				      u64 bytes)
{
	unsigned long touched = BIT(PCIESW_COUNTER_BAD_TLP);
	s64 done = atomic64_read(&st->ber_errors);
	u64 bits, want, rollovers;

	bits = atomic64_add_return(bytes * BITS_PER_BYTE, &st->ber_bits);
	want = mul_u64_u64_div_u64(bits, ber, PCIESW_BER_SCALE);
	do {
		if (want <= (u64)done)
			return 0;
	} while (!atomic64_try_cmpxchg(&st->ber_errors, &done, want));

	atomic64_add(want - done, &st->counters[PCIESW_COUNTER_BAD_TLP]);
	rollovers = div_u64(want, PCIESW_BER_ROLLOVER) -
		    div_u64(done, PCIESW_BER_ROLLOVER);
	if (rollovers) {
		atomic64_add(rollovers,
			     &st->counters[PCIESW_COUNTER_REPLAY_NUM_ROLLOVER]);
		set_bit(PCIESW_STATS_RETRAIN, &st->flags);
		touched |= BIT(PCIESW_COUNTER_REPLAY_NUM_ROLLOVER);
	}
	return touched;
}

/**
 * pciesw_stats_account - count traffic on a port
 * @sw: the switch; must stay referenced, sw->lock need not be held
 * @st: the port's stats (port->stats)
 * @dir: received (ingress) or sent (egress) by the switch on that port
 * @cls: TLP class
 * @bytes: posted and completion: payload bytes, one TLP per
 *	Max_Payload_Size; non-posted: the bytes memory read requests ask
 *	for, one request per Max_Read_Request_Size
 *
 * Adds payload bytes and TLPs, applies the port's bit-error rate to the
 * bits carried, feeds the thermal model and wakes the health work when a
 * threshold watches a counter that moved.  A read request carries no
 * payload: it adds its TLPs, not the bytes it asks for (their
 * completions carry those), as a switch's byte counters count payload.
 */
void pciesw_stats_account(struct pciesw_switch *sw,
			  struct pciesw_port_stats *st, enum pciesw_dir dir,
			  enum pciesw_tlp_class cls, u64 bytes)
{
	u64 tlps = pciesw_stats_tlps(sw, cls, bytes);

	if (cls == PCIESW_TLP_NON_POSTED)
		bytes = 0;
	pciesw_stats_account_tlps(sw, st, dir, cls, bytes, tlps);
}

/*
 * As pciesw_stats_account(), for traffic whose TLPs the caller counted:
 * @tlps of them carried @bytes of payload (the DMA engine adds up several
 * transfers' before it counts them); read requests carry none.
 */
void pciesw_stats_account_tlps(struct pciesw_switch *sw,
			       struct pciesw_port_stats *st,
			       enum pciesw_dir dir, enum pciesw_tlp_class cls,
			       u64 bytes, u64 tlps)
{
	enum pciesw_counter cb, ct;
	unsigned long touched;
	u64 ber;

	if ((!bytes && !tlps) || cls > PCIESW_TLP_COMPLETION)
		return;
	if (dir == PCIESW_DIR_EGRESS) {
		cb = PCIESW_COUNTER_EGRESS_POSTED_BYTES + cls;
		ct = PCIESW_COUNTER_EGRESS_POSTED_TLPS + cls;
	} else {
		cb = PCIESW_COUNTER_INGRESS_POSTED_BYTES + cls;
		ct = PCIESW_COUNTER_INGRESS_POSTED_TLPS + cls;
	}
	atomic64_add(tlps, &st->counters[ct]);
	touched = BIT(ct);
	/*
	 * Only payload meets bit errors and heats the die: read requests,
	 * which carry none, do neither.
	 */
	if (!bytes)
		goto out;
	atomic64_add(bytes, &st->counters[cb]);
	touched |= BIT(cb);

	ber = READ_ONCE(st->ber);
	if (ber)
		touched |= pciesw_stats_ber(st, ber, bytes);
	if (dir == PCIESW_DIR_EGRESS) {
		atomic64_add(bytes, &sw->egress_bytes);
		pciesw_thermal_kick(sw);
	}
out:
	if (test_bit(PCIESW_STATS_RETRAIN, &st->flags))
		pciesw_health_kick(sw);
	else
		pciesw_stats_touched(sw, st, touched);
}

/* Counter @c of @port, or its sum over all ports when @port is NULL. */
u64 pciesw_counter_read(struct pciesw_switch *sw,
			const struct pciesw_port *port, enum pciesw_counter c)
{
	struct pciesw_port *p;
	u64 sum = 0;

	if (port)
		return atomic64_read(&port->stats->counters[c]);
	lockdep_assert_held(&sw->lock);
	pciesw_for_each_port(sw, p)
		sum += atomic64_read(&p->stats->counters[c]);
	return sum;
}

/* The port threshold @t watches; NULL for a switch-wide one. */
struct pciesw_port *pciesw_threshold_port(struct pciesw_switch *sw,
					  const struct pciesw_threshold *t)
{
	lockdep_assert_held(&sw->lock);
	if (t->lane == PCIESW_THRESHOLD_SWITCH)
		return NULL;
	return pciesw_port_by_lane(sw, t->lane);
}

struct pciesw_threshold *pciesw_threshold_find(struct pciesw_switch *sw,
					       const struct pciesw_port *port,
					       enum pciesw_counter c)
{
	u16 lane = port ? port->first_lane : PCIESW_THRESHOLD_SWITCH;
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	for (i = 0; i < sw->nr_thresholds; i++) {
		struct pciesw_threshold *t = &sw->thresholds[i];

		if (t->lane == lane && t->counter == c)
			return t;
	}
	return NULL;
}

/*
 * Publish which counters uncrossed thresholds watch.  Each mask is computed
 * whole and written once, so the hot path never sees a watched counter
 * unarmed.
 */
static void pciesw_thresholds_arm(struct pciesw_switch *sw)
{
	struct pciesw_port *port;
	unsigned long all = 0;
	unsigned int t;

	for (t = 0; t < sw->nr_thresholds; t++)
		if (!sw->thresholds[t].crossed &&
		    sw->thresholds[t].lane == PCIESW_THRESHOLD_SWITCH)
			all |= BIT(sw->thresholds[t].counter);
	WRITE_ONCE(sw->armed, all);

	pciesw_for_each_port(sw, port) {
		unsigned long mask = 0;

		for (t = 0; t < sw->nr_thresholds; t++)
			if (!sw->thresholds[t].crossed &&
			    sw->thresholds[t].lane == port->first_lane)
				mask |= BIT(sw->thresholds[t].counter);
		WRITE_ONCE(port->stats->armed, mask);
	}
}

/*
 * The one place thresholds are checked and BER retrains happen; sw->lock
 * held.
 */
static void pciesw_health_check(struct pciesw_switch *sw)
{
	struct pciesw_event ev = { .type = PCIESW_EV_THRESHOLD, .sw = sw };
	struct pciesw_port *port;
	bool fired = false;
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	pciesw_for_each_port(sw, port) {
		const char *why;

		/* a replay-num rollover: the link goes through Recovery */
		if (test_and_clear_bit(PCIESW_STATS_RETRAIN,
				       &port->stats->flags) &&
		    pciesw_link_active(port))
			pciesw_port_retrain(port, &why);
	}

	for (i = 0; i < sw->nr_thresholds; i++) {
		struct pciesw_threshold *t = &sw->thresholds[i];

		if (t->crossed)
			continue;
		ev.port = pciesw_threshold_port(sw, t);
		if (!ev.port && t->lane != PCIESW_THRESHOLD_SWITCH)
			continue;
		ev.value = pciesw_counter_read(sw, ev.port, t->counter);
		if (ev.value < t->value)
			continue;
		t->crossed = true;
		fired = true;
		ev.counter = t->counter;
		ev.threshold = t->value;
		pciesw_event(&ev);
	}
	if (fired)
		pciesw_thresholds_arm(sw);
}

void pciesw_health_work(struct work_struct *work)
{
	struct pciesw_switch *sw = container_of(work, struct pciesw_switch,
						health_work);

	mutex_lock(&sw->lock);
	if (!sw->dead)
		pciesw_health_check(sw);
	mutex_unlock(&sw->lock);
}

/**
 * pciesw_threshold_set - set, change or (@value 0) remove a threshold
 * @sw: the switch, locked
 * @port: the port, or NULL for the sum over all ports
 * @c: the counter
 * @value: fires when the counter reaches it; 0 removes the threshold
 * @why: what was wrong, on failure
 *
 * Setting (also to the same value) re-arms it; a counter already at the
 * value notifies at once.
 */
int pciesw_threshold_set(struct pciesw_switch *sw, struct pciesw_port *port,
			 enum pciesw_counter c, u64 value, const char **why)
{
	struct pciesw_threshold *t;

	lockdep_assert_held(&sw->lock);
	if (c > PCIESW_COUNTER_MAX) {
		*why = "no such counter";
		return -EINVAL;
	}
	t = pciesw_threshold_find(sw, port, c);
	if (!value) {
		unsigned int i;

		if (!t) {
			*why = "no threshold on this counter";
			return -ENOENT;
		}
		i = t - sw->thresholds;
		memmove(t, t + 1, (sw->nr_thresholds - i - 1) * sizeof(*t));
		sw->nr_thresholds--;
		pciesw_thresholds_arm(sw);
		return 0;
	}
	if (!t) {
		if (sw->nr_thresholds == PCIESW_MAX_THRESHOLDS) {
			*why = "too many thresholds (at most 64 per switch)";
			return -ENOSPC;
		}
		if (!sw->thresholds) {
			sw->thresholds = kcalloc(PCIESW_MAX_THRESHOLDS,
						 sizeof(*sw->thresholds),
						 GFP_KERNEL);
			if (!sw->thresholds) {
				*why = "out of memory";
				return -ENOMEM;
			}
		}
		t = &sw->thresholds[sw->nr_thresholds++];
		t->lane = port ? port->first_lane : PCIESW_THRESHOLD_SWITCH;
		t->counter = c;
	}
	t->value = value;
	t->crossed = false;
	pciesw_thresholds_arm(sw);
	pciesw_health_check(sw);
	return 0;
}

static void pciesw_stats_zero(struct pciesw_port_stats *st)
{
	unsigned int c;

	for (c = 0; c <= PCIESW_COUNTER_MAX; c++)
		atomic64_set(&st->counters[c], 0);
}

/*
 * After a clear: the thresholds of the cleared ports re-arm; switch-wide
 * ones re-arm once the sum is below them again, so that reaching them is a
 * new crossing.
 */
static void pciesw_thresholds_rearm(struct pciesw_switch *sw,
				    const struct pciesw_port *port)
{
	unsigned int i;

	for (i = 0; i < sw->nr_thresholds; i++) {
		struct pciesw_threshold *t = &sw->thresholds[i];

		if (!t->crossed)
			continue;
		if (t->lane == PCIESW_THRESHOLD_SWITCH)
			t->crossed = pciesw_counter_read(sw, NULL, t->counter) >=
				     t->value;
		else if (!port || t->lane == port->first_lane)
			t->crossed = false;
	}
	pciesw_thresholds_arm(sw);
	pciesw_health_check(sw);
}

/* Zero every counter of @port; sw->lock held. */
void pciesw_port_counters_clear(struct pciesw_port *port)
{
	struct pciesw_switch *sw = port->group->sw;

	lockdep_assert_held(&sw->lock);
	pciesw_stats_zero(port->stats);
	pciesw_thresholds_rearm(sw, port);
}

/* Zero every counter of every port of @sw; sw->lock held. */
void pciesw_switch_counters_clear(struct pciesw_switch *sw)
{
	struct pciesw_port *port;

	lockdep_assert_held(&sw->lock);
	pciesw_for_each_port(sw, port)
		pciesw_stats_zero(port->stats);
	pciesw_thresholds_rearm(sw, NULL);
}

/*
 * Fault injection: @port detected @count errors of type @c.  Only counted;
 * the link is not affected.
 */
int pciesw_port_inject(struct pciesw_port *port, enum pciesw_counter c,
		       u32 count, const char **why)
{
	struct pciesw_switch *sw = port->group->sw;
	struct pciesw_event ev = {
		.type = PCIESW_EV_PORT_ERRORS,
		.sw = sw,
		.port = port,
	};

	lockdep_assert_held(&sw->lock);
	if (!pciesw_counter_is_error(c)) {
		*why = "only error counters can be injected";
		return -EINVAL;
	}
	if (!count || count > PCIESW_INJECT_MAX) {
		*why = "inject count must be 1-1000000";
		return -EINVAL;
	}
	pciesw_stats_error(sw, port->stats, c, count);
	/* the PCI view sends the port's error messages (AER) */
	pciesw_event(&ev);
	pciesw_health_check(sw);
	return 0;
}

u64 pciesw_port_ber(const struct pciesw_port *port)
{
	return READ_ONCE(port->stats->ber);
}

/*
 * Inject a bit-error rate on the link of @port (errors per 10^18 bits, 0
 * for none).  Setting it, also to the value it has, restarts its count.
 */
int pciesw_port_set_ber(struct pciesw_port *port, u64 ber, const char **why)
{
	struct pciesw_port_stats *st = port->stats;
	struct pciesw_event ev = {
		.type = PCIESW_EV_PORT_CHANGE,
		.sw = port->group->sw,
		.port = port,
	};
	u64 old = READ_ONCE(st->ber);

	lockdep_assert_held(&ev.sw->lock);
	if (ber > PCIESW_BER_MAX) {
		*why = "bit-error rate above 1e-3 (1000000000000000)";
		return -EINVAL;
	}
	WRITE_ONCE(st->ber, 0);
	atomic64_set(&st->ber_bits, 0);
	atomic64_set(&st->ber_errors, 0);
	clear_bit(PCIESW_STATS_RETRAIN, &st->flags);
	WRITE_ONCE(st->ber, ber);
	if (ber != old)
		pciesw_event(&ev);
	return 0;
}

/*
 * Lanes @first..@first+@nr-1 get new ports (re-bifurcation): their
 * counters, BER and thresholds start from zero.  sw->lock held, no DMA on
 * them.
 */
void pciesw_health_lanes_reset(struct pciesw_switch *sw, unsigned int first,
			       unsigned int nr)
{
	unsigned int i, n = 0;

	lockdep_assert_held(&sw->lock);
	for (i = first; i < first + nr; i++) {
		struct pciesw_port_stats *st = &sw->stats[i];

		pciesw_stats_zero(st);
		WRITE_ONCE(st->ber, 0);
		atomic64_set(&st->ber_bits, 0);
		atomic64_set(&st->ber_errors, 0);
		WRITE_ONCE(st->armed, 0);
		clear_bit(PCIESW_STATS_RETRAIN, &st->flags);
	}
	for (i = 0; i < sw->nr_thresholds; i++) {
		const struct pciesw_threshold *t = &sw->thresholds[i];

		if (t->lane != PCIESW_THRESHOLD_SWITCH &&
		    t->lane >= first && t->lane < first + nr)
			continue;
		sw->thresholds[n++] = *t;
	}
	sw->nr_thresholds = n;
}

/*
 * At switch creation, before its ports are built.  On failure there is
 * nothing to undo: pciesw_health_release() is only for a switch whose
 * pciesw_health_init() succeeded.
 */
int pciesw_health_init(struct pciesw_switch *sw)
{
	INIT_WORK(&sw->health_work, pciesw_health_work);
	atomic64_set(&sw->egress_bytes, 0);
	sw->stats = kvcalloc(sw->profile->nr_lanes, sizeof(*sw->stats),
			     GFP_KERNEL);
	if (!sw->stats)
		return -ENOMEM;
	return 0;
}

/* After sw->dead is set: the work sees it and stops; wait for it. */
void pciesw_health_stop(struct pciesw_switch *sw)
{
	cancel_work_sync(&sw->health_work);
}

/*
 * At release.  A lockless caller that raced with unpublish may have queued
 * the work after pciesw_health_stop(): it held a reference, so that work
 * is cancelled here, before the switch is freed.
 */
void pciesw_health_release(struct pciesw_switch *sw)
{
	pciesw_health_stop(sw);
	kfree(sw->thresholds);
	kvfree(sw->stats);
}
