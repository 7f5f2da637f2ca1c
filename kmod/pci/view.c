// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view: every switch is also a PCI hierarchy the PCI core, lspci and
 * /sys/bus/pci see.  Like the VMD driver, each switch gets a root bus in its
 * own domain (> 0xffff, see model/pciesw.h) whose config space is emulated by
 * pciesw_pci_ops: a Root Port (the one a card's slot hangs off, as
 * pci-bridge-emul emulates for host controllers), the card's upstream
 * port below it, a downstream port per model port and an endpoint behind
 * each populated downstream port.
 *
 * Errors the model counts on a port, or injects into an endpoint, are
 * signalled as PCIe does (pciesw_pci_errors(), pciesw_pci_ep_errors()):
 * AER status and header log, then an ERR_COR,
 * ERR_NONFATAL or ERR_FATAL message up to the Root Port, whose Root Error
 * Status and Error Source Identification take it and whose MSI the AER
 * driver handles.
 *
 * Config space is generated from the model: each function keeps a 4 KiB
 * image of what software wrote (command, bus numbers, windows, MSI, control
 * registers) and the live fields (LnkSta, LnkCtl2 target speed, SltSta
 * presence, DevSta and AER status, ACS control, VPD data) are filled in at
 * read time from a snapshot the model's events keep up to date, and from
 * the lockless error counters.  Config accessors may run in atomic context
 * (x86 has lockless config access), so they never touch sw->lock: the
 * snapshot and the images are protected by a raw spinlock of the hierarchy.
 *
 * Config writes with a meaning to the model (Link Disable, Retrain Link,
 * Target Link Speed, Secondary Bus Reset, ACS redirect, MPS/MRRS, VPD) are
 * queued by the accessor and applied by a work item, in order, with
 * sw->lock and through the model's setters (pciesw_pci_req_work()); the
 * model's events then bring config space along as for any other request.
 *
 * The view follows the model from the switch's event queue (model/event.c):
 * when the model changes, with sw->lock held, config space changes at once and
 * the functions that go are detached; later, in event order and without
 * sw->lock, hot-plug, bifurcation and the pci_view setting change the PCI
 * devices as pciehp would: under pci_lock_rescan_remove(), removing the devices
 * below a port, or rescanning its bus. The hierarchy is freed by its host
 * bridge's release, when the last of its devices is gone. The view keeps no
 * pointer to a pci_dev or child bus (software may remove them through sysfs at
 * any time): it finds them by bus number when it needs them.
 *
 * Lock order: pci_rescan_remove_lock -> device_lock -> sw->lock ->
 * pciesw_pci.lock, and the PCI core's config locks -> pciesw_pci.lock.
 * The endpoints' driver's probe takes sw->lock (pciesw_pci_probe() raises
 * an event through pciesw_ep_function()), and the PCI core calls it with
 * the device's lock held, in a scan also with the rescan lock.  So
 * nothing holding sw->lock calls into the PCI or device core, or waits
 * for a work that does (the switch's event work, pciesw_pci_ph_work()):
 * under sw->lock the view only changes config space and sends the ports'
 * MSI, whose hard interrupt handlers (pciehp's, AER's) only access config
 * space; devices are scanned and removed later, without it.
 *
 * This file follows the model's events; view.h says which file does
 * the rest.
 */

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "instance.h"

/*
 * After a reset or power-up an endpoint takes this long to initialise and
 * answers config requests with Configuration Request Retry Status until
 * then (PCIe 2.3.1): the kernel waits 100 ms after the link comes up
 * before it asks, and polls through the rest.
 */
static unsigned int pci_ready_ms = 200;
module_param(pci_ready_ms, uint, 0444);
MODULE_PARM_DESC(pci_ready_ms,
		 "An endpoint answers config reads with Retry Status for this long after its link comes up from a reset, ms (0-10000), default 200");

/*
 * Broadcom's PEX890xx in synthetic mode answers for an endpoint whose link
 * came up from a reset with a placeholder, 1000:02b2, until the link to
 * the real one is active; then it reports the change (Data Link Layer
 * State Changed).  Off by default; fixed for the module's life, so every
 * placeholder lasts as long (pciesw_pci_ph_work() relies on it).
 */
static unsigned int pci_placeholder_ms;
module_param(pci_placeholder_ms, uint, 0444);
MODULE_PARM_DESC(pci_placeholder_ms,
		 "After a link reset an endpoint answers as Broadcom's placeholder 1000:02b2 for this long before it shows, ms (0-10000), default 0 (off)");

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

/*
 * What a removal takes away: the functions already detached from the
 * hierarchy when the model changed (config cycles find no device there, as
 * after a surprise removal), freed once the PCI devices are gone.
 * @bus: the bus whose devices go (0: software numbered none, nothing goes)
 * @ports: with @bus the internal bus, only the downstream ports in it
 * @all: every device on @bus
 * @n: entries of @fns
 */
struct pciesw_pci_gone {
	unsigned int bus;
	DECLARE_BITMAP(ports, PCIESW_MAX_PORTS);
	bool all;
	unsigned int n;
	struct pciesw_pci_fn *fns[];
};

/*
 * As pciehp_unconfigure_device(): remove the devices on @g's bus, last
 * first, then free its functions.
 */
/* The functions a removal took out of the view, and its record. */
static void pciesw_pci_gone_free(struct pciesw_pci_gone *g)
{
	while (g->n--)
		pciesw_pci_fn_free(g->fns[g->n]);
	kfree(g);
}

static void pciesw_pci_gone_apply(struct pciesw_pci *h,
				  struct pciesw_pci_gone *g)
{
	struct pci_dev *dev, *tmp;
	struct pci_bus *bus;
	int k;

	if (g->bus)
		pciesw_pci_unbind_ports(h, g->bus, g->ports, g->all);
	pci_lock_rescan_remove();
	bus = pciesw_pci_bus(h, g->bus);
	if (bus) {
		list_for_each_entry_safe_reverse(dev, tmp, &bus->devices,
						 bus_list) {
			k = pciesw_pci_down_index(h->profile, dev->devfn);
			if (!g->all && (k < 0 || !test_bit(k + 1, g->ports)))
				continue;
			pci_dev_get(dev);
			pci_stop_and_remove_bus_device(dev);
			pci_dev_put(dev);
		}
	}
	pci_unlock_rescan_remove();
	pciesw_pci_gone_free(g);
}

/* With sw->lock: detach the functions of the ports in @ports. */
static struct pciesw_pci_gone *pciesw_pci_ports_detach(struct pciesw_pci *h,
						       const unsigned long *ports)
{
	struct pciesw_pci_gone *g;
	unsigned long flags, k;

	/* small, and a removal the view missed would leave stale devices */
	g = kzalloc(struct_size(g, fns, 2 * h->max_down + 3),
		    GFP_KERNEL | __GFP_NOFAIL);
	bitmap_copy(g->ports, ports, PCIESW_MAX_PORTS);
	raw_spin_lock_irqsave(&h->lock, flags);
	g->all = test_bit(0, ports);
	g->bus = pciesw_pci_secondary(g->all ? h->rp : h->up);
	for (k = 0; k < h->max_down; k++) {
		if (!g->all && !test_bit(k + 1, ports))
			continue;
		g->fns[g->n++] = h->down[k];
		g->fns[g->n++] = h->ep[k];
		h->down[k] = NULL;
		h->ep[k] = NULL;
	}
	if (g->all) {
		/* the management port and endpoint go with the upstream port */
		g->fns[g->n++] = h->mep;
		g->fns[g->n++] = h->mdown;
		g->fns[g->n++] = h->up;
		h->mep = NULL;
		h->mdown = NULL;
		h->up = NULL;
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
	return g;
}

/* With sw->lock: the endpoint's function, then a rescan finds it. */
static void *pciesw_pci_ep_attach(struct pciesw_pci *h,
				  const struct pciesw_event *ev)
{
	unsigned int k = ev->port_id - 1;
	struct pciesw_pci_fn *fn;
	unsigned long flags;

	if (k >= h->max_down || !h->down[k])
		return NULL;
	fn = pciesw_pci_fn_new(h, PCIESW_PCI_EP, k, ev->port, ev->ep);
	raw_spin_lock_irqsave(&h->lock, flags);
	pciesw_pci_fn_link(h->down[k], ev->port);
	/* a new endpoint's first link-up resets nothing */
	h->down[k]->ph_arm = false;
	if (fn) {
		pciesw_pci_fn_link(fn, ev->port);
		swap(h->ep[k], fn);
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
	pciesw_pci_fn_free(fn);
	return h;
}

/* With sw->lock: the endpoint leaves its slot; its devices go later. */
static struct pciesw_pci_gone *pciesw_pci_ep_detach(struct pciesw_pci *h,
						    const struct pciesw_event *ev)
{
	unsigned int k = ev->port_id - 1;
	struct pciesw_pci_gone *g;
	unsigned long flags;
	bool driven;

	if (k >= h->max_down || !h->down[k])
		return NULL;
	g = kzalloc(struct_size(g, fns, 1), GFP_KERNEL | __GFP_NOFAIL);
	raw_spin_lock_irqsave(&h->lock, flags);
	driven = pciesw_pci_slot_driven(h, k);
	g->all = true;
	g->bus = driven ? 0 : pciesw_pci_secondary(h->down[k]);
	g->fns[g->n++] = h->ep[k];
	h->ep[k] = NULL;
	/* the model still lists the endpoint on the port: it is leaving */
	h->down[k]->present = false;
	or16(h->down[k]->cfg, CAP_EXP + PCI_EXP_SLTSTA, PCI_EXP_SLTSTA_PDC);
	raw_spin_unlock_irqrestore(&h->lock, flags);
	if (!g->bus) {
		/*
		 * pciehp removes the devices on Presence Detect Changed, or
		 * software never numbered the slot's bus: nothing to remove
		 */
		pciesw_pci_fn_free(g->fns[0]);
		kfree(g);
		return NULL;
	}
	return g;
}

/*
 * With sw->lock and h->lock: the link of downstream port @k goes down, by
 * a hot reset, a disable or a surprise: the endpoint behind it is reset
 * (PCIe's DL_Down is a reset of what is below), its config space back to
 * what firmware left.
 */
static bool pciesw_pci_ep_resets(struct pciesw_pci *h, unsigned int k,
				 const struct pciesw_port *port)
{
	return h->down[k] && h->ep[k] && port->ep &&
	       (port->link.ltssm == PCIESW_LTSSM_HOT_RESET ||
		(h->down[k]->active && !pciesw_link_active(port)));
}

/*
 * With sw->lock and h->lock: the link of downstream port @k comes back up
 * to its endpoint after a link reset (not firmware's first training, not
 * a power-up, not a new endpoint's): its placeholder answers first.
 */
static bool pciesw_pci_ph_comes_up(struct pciesw_pci *h, unsigned int k,
				   const struct pciesw_port *port)
{
	return h->down[k] && h->ep[k] && port->ep && !h->down[k]->active &&
	       !h->down[k]->boot && h->down[k]->ph_arm &&
	       pciesw_link_active(port);
}

/*
 * With sw->lock: a port's link or setting, into its config space.  When a
 * downstream port's link came up to an endpoint that the module adds
 * itself (no pciehp drives the slot), the bus to scan now, else 0.  With
 * a placeholder (pci_placeholder_ms) nothing is scanned now: the scan
 * waits for the real endpoint, and pciesw_pci_ph_work() does it when the
 * placeholder's time is up, not the event work, which would keep every
 * view (and rmmod) waiting that long.
 */
static unsigned int pciesw_pci_port_change(struct pciesw_pci *h,
					   const struct pciesw_port *port)
{
	struct pciesw_pci_fn *fresh = NULL, *ph = NULL;
	unsigned int ph_ms = min(pci_placeholder_ms, 10000U);
	unsigned long flags;
	unsigned int k = port->id - 1;
	unsigned int scan = 0;
	bool reset = false, comes_up = false;
	u64 now;

	lockdep_assert_held(&h->sw->lock);
	if (port->role != PCIESW_PORT_ROLE_UPSTREAM && k < h->max_down) {
		/* only sw->lock holders change what it looks at */
		raw_spin_lock_irqsave(&h->lock, flags);
		reset = pciesw_pci_ep_resets(h, k, port);
		/*
		 * A link reset (hot reset, disable, DPC, surprise down) brings
		 * the placeholder, a power-up not: pciehp powers a slot off and
		 * on as it removes and adds a function, and would remove the
		 * one it added at the swap for ever
		 */
		if (h->down[k] && port->power_off)
			h->down[k]->ph_arm = false;
		else if (h->down[k] && reset)
			h->down[k]->ph_arm = true;
		comes_up = pciesw_pci_ph_comes_up(h, k, port);
		raw_spin_unlock_irqrestore(&h->lock, flags);
		if (reset)
			fresh = pciesw_pci_fn_new(h, PCIESW_PCI_EP, k, port,
						  port->ep);
		/* without memory the real endpoint answers at once */
		if (comes_up && ph_ms)
			ph = pciesw_pci_ph_new(h, k, port);
	}
	raw_spin_lock_irqsave(&h->lock, flags);
	if (port->role == PCIESW_PORT_ROLE_UPSTREAM) {
		pciesw_pci_fn_link(h->rp, port);
		if (h->up)
			pciesw_pci_fn_link(h->up, port);
	} else if (k < h->max_down && h->down[k]) {
		bool up = h->down[k]->active, boot = h->down[k]->boot;

		if (fresh && h->ep[k])
			swap(h->ep[k], fresh);
		pciesw_pci_fn_link(h->down[k], port);
		/*
		 * up from a reset or power-up that software saw: initialising,
		 * after its placeholder's time if it has one
		 */
		if (h->ep[k] && !up && !boot && h->down[k]->active) {
			h->down[k]->ph_arm = false;
			now = ktime_get_ns();
			if (ph) {
				now += (u64)ph_ms * NSEC_PER_MSEC;
				swap(h->ep[k]->ph, ph);
				pciesw_pci_fn_link(h->ep[k]->ph, port);
				h->ep[k]->ph_until = now;
				h->ep[k]->ph_due = true;
				queue_delayed_work(system_long_wq, &h->ph_work,
						   msecs_to_jiffies(ph_ms) + 1);
			}
			h->ep[k]->ready_at = now +
				(u64)min(pci_ready_ms, 10000U) * NSEC_PER_MSEC;
			if (!h->ep[k]->ph_due && !pciesw_pci_slot_driven(h, k))
				scan = pciesw_pci_secondary(h->down[k]);
		}
		if (h->ep[k])
			pciesw_pci_fn_link(h->ep[k], port);
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
	pciesw_pci_fn_free(fresh);
	pciesw_pci_fn_free(ph);
	return scan;
}

/* What the PCI view does for an event once sw->lock is dropped. */
enum pciesw_pci_op {
	PCIESW_PCI_RESCAN,	/* find what is new below @bus */
	PCIESW_PCI_REMOVE,	/* remove @gone's devices, free its functions */
	PCIESW_PCI_CREATE,	/* put @h on the PCI bus */
	PCIESW_PCI_DESTROY,	/* take @h off it */
};

struct pciesw_pci_job {
	enum pciesw_pci_op op;
	struct pciesw_pci *h;
	unsigned int bus;
	struct pciesw_pci_gone *gone;
};

/* The snapshot of an event whose view could not be made */
#define PCIESW_PCI_FAILED	ERR_PTR(-ENOMEM)

static struct pciesw_pci_job *pciesw_pci_job(enum pciesw_pci_op op,
					     struct pciesw_pci *h,
					     unsigned int bus,
					     struct pciesw_pci_gone *gone)
{
	/* as an event record (model/event.c): small, and must not be lost */
	struct pciesw_pci_job *job = kmalloc(sizeof(*job),
					     GFP_KERNEL | __GFP_NOFAIL);

	job->op = op;
	job->h = h;
	atomic_inc(&h->jobs);
	job->bus = bus;
	job->gone = gone;
	return job;
}

static unsigned int pciesw_pci_secondary_of(struct pciesw_pci *h,
					    struct pciesw_pci_fn **fn)
{
	unsigned long flags;
	unsigned int bus;

	raw_spin_lock_irqsave(&h->lock, flags);
	bus = pciesw_pci_secondary(*fn);
	raw_spin_unlock_irqrestore(&h->lock, flags);
	return bus;
}

/*
 * With sw->lock, when the model changes: config space follows at once (the
 * raw spinlock is all it takes), the PCI core's part is left for later.
 */
static void *pciesw_pci_snapshot_model(const struct pciesw_event *ev)
{
	struct pciesw_dev *pdev = pciesw_dev_of(ev->sw);
	struct pciesw_pci *h = pdev ? pdev->pci : NULL;
	struct pciesw_pci_gone *gone;
	unsigned long flags;
	unsigned int bus;
	bool on;

	if (!pdev)
		return NULL;
	if (ev->type == PCIESW_EV_SWITCH_CHANGE) {
		on = pciesw_switch_setting(ev->sw, PCIESW_SETTING_PCI_VIEW);
		if (on && !h) {
			h = pciesw_pci_new(pdev);
			if (!h) {
				dev_err(&pdev->dev, "cannot create the PCI view: out of memory\n");
				return PCIESW_PCI_FAILED;
			}
			pdev->pci = h;
			return pciesw_pci_job(PCIESW_PCI_CREATE, h, 0, NULL);
		}
		if (!on && h) {
			pdev->pci = NULL;
			return pciesw_pci_job(PCIESW_PCI_DESTROY, h, 0, NULL);
		}
		if (h) {
			raw_spin_lock_irqsave(&h->lock, flags);
			h->mps = pciesw_switch_setting(ev->sw,
						       PCIESW_SETTING_MPS);
			h->mrrs = pciesw_switch_mrrs(ev->sw);
			raw_spin_unlock_irqrestore(&h->lock, flags);
		}
		return NULL;
	}
	if (!h)
		return NULL;
	switch (ev->type) {
	case PCIESW_EV_PORTS_REMOVE:
		gone = pciesw_pci_ports_detach(h, ev->ports);
		return gone ? pciesw_pci_job(PCIESW_PCI_REMOVE, h, 0, gone) :
			      NULL;
	case PCIESW_EV_PORTS_ADD:
		/*
		 * The upstream port carries the hierarchy: its removal took
		 * every function, its return brings them all back.  Any other
		 * group's ports come and go alone, the others keep their
		 * addresses.
		 */
		if (test_bit(0, ev->ports)) {
			DECLARE_BITMAP(all, PCIESW_MAX_PORTS);

			bitmap_fill(all, PCIESW_MAX_PORTS);
			if (!pciesw_pci_fns_add(h, all))
				pr_warn("pciesw: %s: out of memory: ports missing from the PCI view\n",
					ev->sw->name);
		} else if (!pciesw_pci_fns_add(h, ev->ports)) {
			pr_warn("pciesw: %s: out of memory: ports missing from the PCI view\n",
				ev->sw->name);
		}
		bus = pciesw_pci_secondary_of(h, test_bit(0, ev->ports) ?
						 &h->rp : &h->up);
		return pciesw_pci_job(PCIESW_PCI_RESCAN, h, bus, NULL);
	case PCIESW_EV_EP_ADD:
		/*
		 * It answers once its link is up: pciehp adds it then, or the
		 * module does (PCIESW_EV_PORT_CHANGE)
		 */
		pciesw_pci_ep_attach(h, ev);
		return NULL;
	case PCIESW_EV_EP_DEL:
		gone = pciesw_pci_ep_detach(h, ev);
		return gone ? pciesw_pci_job(PCIESW_PCI_REMOVE, h, 0, gone) :
			      NULL;
	case PCIESW_EV_PORT_CHANGE:
	case PCIESW_EV_LINK_TRAINING:
		bus = pciesw_pci_port_change(h, ev->port);
		/* a surprise down counts its error as the link goes */
		if (ev->type == PCIESW_EV_PORT_CHANGE)
			pciesw_pci_port_errors(h, ev->port);
		return bus ? pciesw_pci_job(PCIESW_PCI_RESCAN, h, bus, NULL) :
			     NULL;
	case PCIESW_EV_PORT_ERRORS:
		pciesw_pci_port_errors(h, ev->port);
		return NULL;
	case PCIESW_EV_EP_ERRORS:
		pciesw_pci_ep_errors(h, ev->ep, ev->ep_aer);
		return NULL;
	case PCIESW_EV_VPD_CHANGE:
		pciesw_pci_vpd_load(h);
		return NULL;
	default:
		return NULL;
	}
}

/*
 * With sw->lock, when the model changes: config space follows, then the
 * ports signal what it latched (hot-plug events, bandwidth changes).
 */
static void *pciesw_pci_snapshot(const struct pciesw_event *ev)
{
	void *snap = pciesw_pci_snapshot_model(ev);
	struct pciesw_dev *pdev = pciesw_dev_of(ev->sw);

	if (pdev && pdev->pci)
		pciesw_pci_msi_fire(pdev->pci);
	return snap;
}

/*
 * The view could not be made: the model's pci_view goes back to 0, so that
 * the setting says what there is, and the request that turned it on, which
 * waits for this event, reports the failure (pciesw_pci_view_check()).
 */
static void pciesw_pci_view_failed(struct pciesw_switch *sw)
{
	struct pciesw_settings off = { .set = BIT(PCIESW_SETTING_PCI_VIEW) };
	enum pciesw_setting bad;
	const char *why;

	mutex_lock(&sw->lock);
	if (!sw->dead)
		pciesw_switch_set(sw, &off, &bad, &why);
	mutex_unlock(&sw->lock);
}

/*
 * @h could not be put on the PCI bus: it leaves the switch, so no job
 * names it from now on, but jobs queued after its CREATE (a rescan, a
 * removal, a DESTROY) may still: they do nothing, and the last of them
 * frees it.
 */
static void pciesw_pci_create_failed(struct pciesw_switch *sw,
				     struct pciesw_dev *pdev,
				     struct pciesw_pci *h)
{
	pr_err("pciesw: %s: cannot put the switch on the PCI bus\n", sw->name);
	mutex_lock(&sw->lock);
	if (pdev && pdev->pci == h)
		pdev->pci = NULL;
	mutex_unlock(&sw->lock);
	/* no event arms it now; its scans find no bus of @h */
	cancel_delayed_work_sync(&h->ph_work);
	h->failed = true;
	if (!atomic_read(&h->jobs))
		pciesw_pci_free(h);
	pciesw_pci_view_failed(sw);
}

/* A job naming a view that failed: what it detached goes, nothing else. */
static void pciesw_pci_job_drop(struct pciesw_pci_job *job)
{
	struct pciesw_pci *h = job->h;

	if (job->gone)
		pciesw_pci_gone_free(job->gone);
	kfree(job);
	if (atomic_dec_and_test(&h->jobs))
		pciesw_pci_free(h);
}

/* In event order, without sw->lock: the PCI core's part. */
static void pciesw_pci_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_pci_job *job = snap;
	struct pciesw_dev *pdev;
	struct pciesw_pci *h;

	if (snap == PCIESW_PCI_FAILED) {
		pciesw_pci_view_failed(ev->sw);
		return;
	}
	if (!job)
		return;
	h = job->h;
	if (h->failed) {
		pciesw_pci_job_drop(job);
		return;
	}
	/* before the job: a DESTROY can free @h (its bridge's release) */
	atomic_dec(&h->jobs);
	switch (job->op) {
	case PCIESW_PCI_RESCAN:
		pciesw_pci_rescan(h, job->bus);
		break;
	case PCIESW_PCI_REMOVE:
		pciesw_pci_gone_apply(h, job->gone);
		break;
	case PCIESW_PCI_CREATE:
		pdev = pciesw_dev_of(ev->sw);
		if (!pdev || pciesw_pci_attach(h))
			pciesw_pci_create_failed(ev->sw, pdev, h);
		break;
	case PCIESW_PCI_DESTROY:
		pciesw_pci_destroy(h);
		break;
	}
	kfree(job);
}

static const struct pciesw_view pciesw_pci_view = {
	.snapshot = pciesw_pci_snapshot,
	.apply = pciesw_pci_apply,
};

int pciesw_pci_init(void)
{
	unsigned int k;
	int err;

	err = pciesw_pci_domain_init();
	if (err)
		return err;
	for (k = 0; k < PCIESW_PCI_NR_KINDS; k++)
		pciesw_pci_masks_init(k);
	err = pciesw_pci_host_init();
	if (!err)
		pciesw_view_register(PCIESW_VIEW_PCI, &pciesw_pci_view);
	return err;
}

/* After every switch is gone: wait for the last hierarchy's release. */
void pciesw_pci_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_PCI);
	pciesw_pci_host_exit();
}

#else /* no PCI: the view is absent, the setting has no effect */

int pciesw_pci_init(void)
{
	return 0;
}

void pciesw_pci_exit(void)
{
}

#endif
