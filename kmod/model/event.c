// SPDX-License-Identifier: GPL-2.0
/*
 * Events: the one way state changes leave the model.
 *
 * The model raises an event with sw->lock held, at the moment of the
 * change.  Each view then takes what it needs of the model's state into a
 * snapshot, still under the lock (netlink builds its notification there),
 * and the event joins the switch's queue.  A work item per switch applies
 * the queued events to every view in order, without sw->lock: devices are
 * added and removed, uevents sent, the PCI hierarchy rescanned while the
 * model stays free for readers, the link, health and thermal work and the
 * other switches.  A request that changed the switch waits for the queue
 * with pciesw_switch_sync(), so it returns once every view shows the change.
 */

#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "model/event.h"
#include "model/pciesw.h"

/*
 * The views, by the order they apply an event in.  Set at module init
 * before any switch exists and cleared at exit after the last one is gone,
 * so they are read without a lock.
 */
static const struct pciesw_view *pciesw_views[PCIESW_NR_VIEWS];

/* Applies the switches' queues; one work item per switch keeps each in order */
static struct workqueue_struct *pciesw_event_wq;

/* Bumped by every event: a dump that spans a change can tell it did. */
static atomic_t pciesw_gen = ATOMIC_INIT(1);

/**
 * struct pciesw_event_rec - a queued event
 * @node: entry in sw->ev_queue
 * @ev: the event; its model pointers are cleared, its ids are not
 * @snap: what each view took of the model when it was raised
 */
struct pciesw_event_rec {
	struct list_head node;
	struct pciesw_event ev;
	void *snap[PCIESW_NR_VIEWS];
};

unsigned int pciesw_generation(void)
{
	return atomic_read(&pciesw_gen);
}

u32 pciesw_switch_generation(const struct pciesw_switch *sw)
{
	lockdep_assert_held(&sw->lock);
	return sw->generation;
}

void pciesw_view_register(enum pciesw_view_id id, const struct pciesw_view *v)
{
	pciesw_views[id] = v;
}

void pciesw_view_unregister(enum pciesw_view_id id)
{
	pciesw_views[id] = NULL;
}

/*
 * Tell the views what changed.  Called with sw->lock held so that events
 * leave in the order the changes happened.  Until the switch is published
 * the views learn its state by reading it.
 */
void pciesw_event(struct pciesw_event *ev)
{
	struct pciesw_switch *sw = ev->sw;
	struct pciesw_event_rec *rec;
	unsigned int v;

	lockdep_assert_held(&sw->lock);
	atomic_inc(&pciesw_gen);
	sw->generation++;
	if (!sw->published)
		return;

	ev->group_id = ev->group ? ev->group->id : 0;
	ev->port_id = ev->port ? ev->port->id : PCIESW_EV_NO_PORT;
	if (ev->ep) {
		ev->ep_id = ev->ep->id;
		ev->ep_serial = ev->ep->serial;
		ev->ep_map_pgoff = ev->ep->map_pgoff;
		ev->ep_map_pages = ev->ep->mem_size >> PAGE_SHIFT;
		strscpy(ev->ep_name, ev->ep->name, sizeof(ev->ep_name));
	}
	pciesw_log_event(ev);
	/*
	 * A view that misses an event no longer shows the model: the record
	 * is small and must not fail (a view's own snapshot may, and then
	 * only that view's notification is lost, as netlink's can be).
	 */
	rec = kmalloc(sizeof(*rec), GFP_KERNEL | __GFP_NOFAIL);
	for (v = 0; v < PCIESW_NR_VIEWS; v++) {
		const struct pciesw_view *view = pciesw_views[v];

		rec->snap[v] = view && view->snapshot ? view->snapshot(ev) :
							NULL;
	}
	rec->ev = *ev;
	rec->ev.group = NULL;
	rec->ev.port = NULL;
	rec->ev.ep = NULL;

	spin_lock(&sw->ev_lock);
	rec->ev.seq = ++sw->ev_queued;
	list_add_tail(&rec->node, &sw->ev_queue);
	spin_unlock(&sw->ev_lock);
	queue_work(pciesw_event_wq, &sw->ev_work);
}

static void pciesw_event_work(struct work_struct *work)
{
	struct pciesw_switch *sw = container_of(work, struct pciesw_switch,
						ev_work);
	struct pciesw_event_rec *rec;
	unsigned int v;

	for (;;) {
		spin_lock(&sw->ev_lock);
		rec = list_first_entry_or_null(&sw->ev_queue,
					       struct pciesw_event_rec, node);
		if (rec)
			list_del(&rec->node);
		spin_unlock(&sw->ev_lock);
		if (!rec)
			return;

		for (v = 0; v < PCIESW_NR_VIEWS; v++) {
			const struct pciesw_view *view = pciesw_views[v];

			if (view)
				view->apply(&rec->ev, rec->snap[v]);
		}

		spin_lock(&sw->ev_lock);
		sw->ev_done = rec->ev.seq;
		spin_unlock(&sw->ev_lock);
		wake_up_all(&sw->ev_wait);
		kfree(rec);
		cond_resched();
	}
}

static bool pciesw_event_done(struct pciesw_switch *sw, u64 seq)
{
	bool done;

	spin_lock(&sw->ev_lock);
	done = sw->ev_done >= seq;
	spin_unlock(&sw->ev_lock);
	return done;
}

/**
 * pciesw_switch_sync_unless - wait until every view shows every change so far
 * @sw: the switch, its lock not held
 * @stop: if not NULL, the wait also ends once it reads true; whoever sets it
 *	calls pciesw_switch_wake()
 *
 * A fatal signal ends the wait early; the views still catch up.
 */
void pciesw_switch_sync_unless(struct pciesw_switch *sw, const bool *stop)
{
	u64 seq;

	lockdep_assert_not_held(&sw->lock);
	might_sleep();
	spin_lock(&sw->ev_lock);
	seq = sw->ev_queued;
	spin_unlock(&sw->ev_lock);
	wait_event_killable(sw->ev_wait, pciesw_event_done(sw, seq) ||
			    (stop && READ_ONCE(*stop)));
}

/* Wait until every view shows every change made so far. */
void pciesw_switch_sync(struct pciesw_switch *sw)
{
	pciesw_switch_sync_unless(sw, NULL);
}

/* Lets pciesw_switch_sync_unless() look at its @stop again. */
void pciesw_switch_wake(struct pciesw_switch *sw)
{
	wake_up_all(&sw->ev_wait);
}

/**
 * pciesw_ep_function - an endpoint's PCI function is bound or goes
 * @sw: the switch, its lock not held
 * @port_id: the downstream port the endpoint is behind
 * @bound: bound to the PCI view's driver (probe), or unbound (remove)
 *
 * What hangs off the function follows it as a driver's devices follow a
 * real device: the views are told at once (the block view removes the
 * disk before the function goes, as nvme's remove does), and a binding is
 * also an event, so that what waits for the function is added in event
 * order, whoever (pciehp, a rescan, the view itself) added it.
 */
void pciesw_ep_function(struct pciesw_switch *sw, u32 port_id, bool bound)
{
	struct pciesw_event ev = {
		.type = PCIESW_EV_EP_FUNCTION,
		.sw = sw,
	};
	unsigned int v;

	lockdep_assert_not_held(&sw->lock);
	for (v = 0; v < PCIESW_NR_VIEWS; v++) {
		const struct pciesw_view *view = pciesw_views[v];

		if (view && view->ep_function)
			view->ep_function(sw, port_id, bound);
	}
	if (!bound)
		return;
	mutex_lock(&sw->lock);
	ev.port = pciesw_port_find(sw, port_id);
	if (ev.port && !sw->dead)
		pciesw_event(&ev);
	mutex_unlock(&sw->lock);
}

/* Before the switch can raise its first event. */
void pciesw_event_init(struct pciesw_switch *sw)
{
	spin_lock_init(&sw->ev_lock);
	INIT_LIST_HEAD(&sw->ev_queue);
	init_waitqueue_head(&sw->ev_wait);
	INIT_WORK(&sw->ev_work, pciesw_event_work);
}

/* After the switch is unpublished: apply what is left, uninterruptibly. */
void pciesw_event_drain(struct pciesw_switch *sw)
{
	flush_work(&sw->ev_work);
	WARN_ON(!list_empty(&sw->ev_queue));
}

int pciesw_event_wq_init(void)
{
	/* the views wait for the device and PCI cores: not on system_wq */
	pciesw_event_wq = alloc_workqueue("pciesw_events", WQ_UNBOUND, 0);
	return pciesw_event_wq ? 0 : -ENOMEM;
}

void pciesw_event_wq_exit(void)
{
	destroy_workqueue(pciesw_event_wq);
}
