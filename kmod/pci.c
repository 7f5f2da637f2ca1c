// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view: every switch is also a PCI hierarchy the PCI core, lspci and
 * /sys/bus/pci see.  Like the VMD driver, each switch gets a root bus in its
 * own domain (> 0xffff, see pciesw.h) whose config space is emulated by
 * pciesw_pci_ops: a Root Port (the one a card's slot hangs off, as
 * pci-bridge-emul emulates for host controllers), the card's upstream
 * port below it, a downstream port per model port and an endpoint behind
 * each populated downstream port.
 *
 * Errors the model counts on a port are signalled as PCIe does
 * (pciesw_pci_errors()): AER status and header log, then an ERR_COR,
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
 * The view follows the model from the switch's event queue (event.c): when
 * the model changes, with sw->lock held, config space changes at once and
 * the functions that go are detached; later, in event order and without
 * sw->lock, hot-plug, bifurcation and the pci_view setting change the PCI
 * devices as pciehp would: under pci_lock_rescan_remove(), removing the
 * devices below a port, or rescanning its bus.  The hierarchy is freed by
 * its host bridge's release, when the last of its devices is gone.  The
 * view keeps no pointer to a pci_dev or child bus (software may remove
 * them through sysfs at any time): it finds them by bus number when it
 * needs them.
 *
 * Lock order: sw->lock (snapshots) -> pciesw_pci.lock, and
 * pci_rescan_remove_lock -> the PCI core's locks -> pciesw_pci.lock; the
 * PCI core's locks are never taken with sw->lock held, and nothing called
 * by the PCI core takes sw->lock.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "dev.h"

static bool pci_view = true;
module_param(pci_view, bool, 0444);
MODULE_PARM_DESC(pci_view,
		 "Show new switches on the PCI bus, default 1 (per switch: pcieswN/pci_view)");

static bool pci_hotplug = true;
module_param(pci_hotplug, bool, 0444);
MODULE_PARM_DESC(pci_hotplug,
		 "Downstream ports of new PCI views are hot-plug slots that pciehp drives, default 1");

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

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "pci_view.h"

/* the PCI domains switches hold; the IDA has its own lock */
static DEFINE_IDA(pciesw_pci_domains);

/* hierarchies whose host bridge is not released yet */
static atomic_t pciesw_pci_live = ATOMIC_INIT(0);
/* pciesw_pci_exit() waits here for pciesw_pci_live to reach 0 */
static DECLARE_WAIT_QUEUE_HEAD(pciesw_pci_released);

static void pciesw_pci_vpd_load(struct pciesw_pci *h)
{
	u8 *img = kmalloc(PCIESW_VPD_MAX, GFP_KERNEL), *vpd = NULL;
	unsigned long flags;
	ssize_t n;

	if (!img)
		return;
	n = pciesw_vpd_read(h->sw, img, 0, PCIESW_VPD_MAX);
	/* kept at its size: the image is a few hundred bytes of the 1024 */
	if (n > 0)
		vpd = kmemdup(img, n, GFP_KERNEL);
	kfree(img);
	if (!vpd)
		return;
	raw_spin_lock_irqsave(&h->lock, flags);
	swap(h->vpd, vpd);
	h->vpd_len = n;
	raw_spin_unlock_irqrestore(&h->lock, flags);
	kfree(vpd);
}

/*
 * With sw->lock: the functions of the ports in @ports and their endpoints;
 * false if one of them could not be made (out of memory).
 */
static bool pciesw_pci_fns_add(struct pciesw_pci *h, const unsigned long *ports)
{
	struct pciesw_switch *sw = h->sw;
	struct pciesw_pci_fn *fn, *efn;
	struct pciesw_port *port;
	unsigned long flags;
	unsigned int k;
	bool all = true;

	lockdep_assert_held(&sw->lock);
	pciesw_for_each_port(sw, port) {
		if (!test_bit(port->id, ports))
			continue;
		if (port->role == PCIESW_PORT_ROLE_UPSTREAM) {
			fn = pciesw_pci_fn_new(h, PCIESW_PCI_UP, 0, port, NULL);
			if (!fn) {
				all = false;
				continue;
			}
			raw_spin_lock_irqsave(&h->lock, flags);
			pciesw_pci_fn_link(fn, port);
			if (h->rp)
				pciesw_pci_fn_link(h->rp, port);
			swap(h->up, fn);
			raw_spin_unlock_irqrestore(&h->lock, flags);
			kfree(fn);
			continue;
		}
		k = port->id - 1;
		if (k >= h->max_down)
			continue;
		fn = pciesw_pci_fn_new(h, PCIESW_PCI_DOWN, k, port, NULL);
		efn = fn && port->ep ?
		      pciesw_pci_fn_new(h, PCIESW_PCI_EP, k, port, port->ep) :
		      NULL;
		if (!fn || (port->ep && !efn))
			all = false;
		raw_spin_lock_irqsave(&h->lock, flags);
		if (fn) {
			pciesw_pci_fn_link(fn, port);
			/* a port that starts populated has nothing to latch */
			put16(fn->cfg, CAP_EXP + PCI_EXP_SLTSTA, 0);
			fn->boot = port->ep && !fn->active;
			swap(h->down[k], fn);
		}
		if (efn) {
			pciesw_pci_fn_link(efn, port);
			swap(h->ep[k], efn);
		}
		raw_spin_unlock_irqrestore(&h->lock, flags);
		kfree(fn);
		kfree(efn);
	}
	return all;
}

/* With the rescan lock: the bus software numbered @busnr, if it exists. */
static struct pci_bus *pciesw_pci_bus(struct pciesw_pci *h, unsigned int busnr)
{
	return busnr ? pci_find_bus(h->domain, busnr) : NULL;
}

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

/* what a bus that is gone has */
static LIST_HEAD(pciesw_pci_no_devs);

/* With the rescan lock: the bridges below @bus, each before its own. */
static void pciesw_pci_bridges_below(struct pci_bus *bus, struct pci_dev **devs,
				     unsigned int *n, unsigned int max)
{
	struct pci_dev *dev;

	list_for_each_entry(dev, &bus->devices, bus_list) {
		if (!dev->subordinate || *n >= max)
			continue;
		devs[(*n)++] = pci_dev_get(dev);
		pciesw_pci_bridges_below(dev->subordinate, devs, n, max);
	}
}

/*
 * Before the view removes ports: their drivers are unbound first, without
 * the rescan lock.  pciehp's remove waits for its interrupt thread, which
 * may be waiting for the rescan lock (a slot whose link went down as the
 * ports went), so removing a bound hot-plug port under that lock could
 * deadlock.  The bridges on bus @busnr (0: the root bus) that @ports
 * names (all with @all) and the bridges below them, deepest last in the
 * list and unbound first; a sysfs rescan that binds one again meanwhile
 * only brings that wait back.
 */
static void pciesw_pci_unbind_ports(struct pciesw_pci *h, unsigned int busnr,
				    const unsigned long *ports, bool all)
{
	struct pci_dev *dev, **devs;
	unsigned int n = 0, max = h->max_down + 2;
	struct pci_bus *bus;
	int k;

	if (!h->hotplug)
		return;
	devs = kcalloc(max, sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return;
	pci_lock_rescan_remove();
	bus = busnr ? pciesw_pci_bus(h, busnr) : h->root;
	list_for_each_entry(dev, bus ? &bus->devices : &pciesw_pci_no_devs,
			    bus_list) {
		k = pciesw_pci_down_index(h->profile, dev->devfn);
		if (!dev->subordinate || n >= max ||
		    (!all && (k < 0 || !test_bit(k + 1, ports))))
			continue;
		devs[n++] = pci_dev_get(dev);
		pciesw_pci_bridges_below(dev->subordinate, devs, &n, max);
	}
	pci_unlock_rescan_remove();
	while (n--) {
		device_release_driver(&devs[n]->dev);
		pci_dev_put(devs[n]);
	}
	kfree(devs);
}

/*
 * As pciehp_unconfigure_device(): remove the devices on @g's bus, last
 * first, then free its functions.
 */
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
	while (g->n--)
		kfree(g->fns[g->n]);
	kfree(g);
}

/*
 * With the rescan lock, before the view's own scan: the drivers of the
 * bridges it adds are bound after it, without the lock.  pciehp's probe
 * takes its reset_lock, which its interrupt thread holds while it takes
 * the rescan lock: binding it under the rescan lock would close that cycle.
 * Only the view's own scans defer (pciehp's and sysfs rescans bind as
 * always); without memory the bridges bind at once.
 */
static void pciesw_pci_later_begin(struct pciesw_pci *h)
{
	if (!h->hotplug)
		return;
	/* the Root Port, the upstream port and the downstream ports */
	h->later = kcalloc(h->max_down + 2, sizeof(*h->later), GFP_KERNEL);
	h->nr_later = 0;
}

/* With the rescan lock, after the scan: what pciesw_pci_bind_later() binds */
static struct pci_dev **pciesw_pci_later_end(struct pciesw_pci *h,
					     unsigned int *n)
{
	struct pci_dev **later = h->later;

	*n = h->nr_later;
	h->later = NULL;
	h->nr_later = 0;
	return later;
}

/*
 * Without the rescan lock: bind the drivers of the bridges the scan added,
 * as a driver registered later would (and VMD does at probe time).  A
 * bridge removed meanwhile is dead to device_attach(); the references keep
 * it until then.
 */
static void pciesw_pci_bind_later(struct pci_dev **later, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct pci_dev *dev = later[i];

		if (pciesw_pci_set_override(dev, "") ||
		    device_attach(&dev->dev) < 0)
			pci_warn(dev, "cannot bind its driver\n");
		pci_dev_put(dev);
	}
	kfree(later);
}

/* As pciehp_configure_device(): find what is new below @busnr (0: root). */
static void pciesw_pci_rescan(struct pciesw_pci *h, unsigned int busnr)
{
	struct pci_dev **later;
	struct pci_bus *bus;
	unsigned int n;

	pci_lock_rescan_remove();
	pciesw_pci_later_begin(h);
	bus = busnr ? pciesw_pci_bus(h, busnr) : h->root;
	if (bus)
		pci_rescan_bus(bus);
	later = pciesw_pci_later_end(h, &n);
	pci_unlock_rescan_remove();
	pciesw_pci_bind_later(later, n);
}

/* With sw->lock: detach the functions of the ports in @ports. */
static struct pciesw_pci_gone *pciesw_pci_ports_detach(struct pciesw_pci *h,
						       const unsigned long *ports)
{
	struct pciesw_pci_gone *g;
	unsigned long flags, k;

	/* small, and a removal the view missed would leave stale devices */
	g = kzalloc(struct_size(g, fns, 2 * h->max_down + 1),
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
		g->fns[g->n++] = h->up;
		h->up = NULL;
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
	return g;
}

/*
 * With h->lock: software drives downstream port @k's slot (pciehp enabled
 * its hot-plug interrupt), so it adds and removes what is in it.
 */
static bool pciesw_pci_slot_driven(struct pciesw_pci *h, unsigned int k)
{
	return h->hotplug && h->down[k] &&
	       (get16(h->down[k]->cfg, CAP_EXP + PCI_EXP_SLTCTL) &
		PCI_EXP_SLTCTL_HPIE);
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
	if (fn) {
		pciesw_pci_fn_link(fn, ev->port);
		swap(h->ep[k], fn);
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
	kfree(fn);
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
		kfree(g->fns[0]);
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
 * With sw->lock: a port's link or setting, into its config space.  When a
 * downstream port's link came up to an endpoint that the module adds
 * itself (no pciehp drives the slot), the bus to scan, else 0.
 */
static unsigned int pciesw_pci_port_change(struct pciesw_pci *h,
					   const struct pciesw_port *port)
{
	struct pciesw_pci_fn *fresh = NULL;
	unsigned long flags;
	unsigned int k = port->id - 1;
	unsigned int scan = 0;
	bool reset = false;

	lockdep_assert_held(&h->sw->lock);
	if (port->role != PCIESW_PORT_ROLE_UPSTREAM && k < h->max_down) {
		/* only sw->lock holders change what it looks at */
		raw_spin_lock_irqsave(&h->lock, flags);
		reset = pciesw_pci_ep_resets(h, k, port);
		raw_spin_unlock_irqrestore(&h->lock, flags);
		if (reset)
			fresh = pciesw_pci_fn_new(h, PCIESW_PCI_EP, k, port,
						  port->ep);
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
		/* up from a reset or power-up that software saw: initialising */
		if (h->ep[k] && !up && !boot && h->down[k]->active) {
			h->ep[k]->ready_at = ktime_get_ns() +
				(u64)min(pci_ready_ms, 10000U) * NSEC_PER_MSEC;
			if (!pciesw_pci_slot_driven(h, k))
				scan = pciesw_pci_secondary(h->down[k]);
		}
		if (h->ep[k])
			pciesw_pci_fn_link(h->ep[k], port);
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
	kfree(fresh);
	return scan;
}

/* The serial as a DSN: "PSW4" in ASCII above the serial's number. */
static u64 pciesw_pci_dsn(const struct pciesw_switch *sw)
{
	size_t plen = strlen(sw->profile->serial_prefix);
	u32 hi = 0, lo = 0;
	unsigned int i;

	for (i = 0; i < 4 && sw->serial[i]; i++)
		hi = hi << 8 | sw->serial[i];
	if (kstrtou32(sw->serial + plen, 10, &lo))
		lo = sw->id;
	return (u64)hi << 32 | lo;
}

static void pciesw_pci_free(struct pciesw_pci *h)
{
	unsigned int k;

	for (k = 0; k < h->max_down; k++) {
		kfree(h->down[k]);
		kfree(h->ep[k]);
	}
	kfree(h->up);
	kfree(h->rp);
	kfree(h->vpd);
	pciesw_msi_domain_remove(h->msi);
	pciesw_switch_put(h->sw);
	kfree(h);
}

/*
 * The host bridge's release: the last pci_dev and bus of the hierarchy are
 * gone, nothing can reach the config accessors any more.
 */
static void pciesw_pci_bridge_release(struct pci_host_bridge *bridge)
{
	struct pciesw_pci *h = bridge->release_data;
	bool ref = h->module_ref;

	pciesw_pci_free(h);
	if (atomic_dec_and_test(&pciesw_pci_live))
		wake_up_all(&pciesw_pci_released);
	/* last, as a release callback's module_put() must be */
	if (ref)
		module_put(THIS_MODULE);
}

/* With sw->lock: a hierarchy from the model, not yet on the PCI bus. */
static struct pciesw_pci *pciesw_pci_new(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	DECLARE_BITMAP(all, PCIESW_MAX_PORTS);
	struct pciesw_port *up = pciesw_port_find(sw, 0);
	unsigned int max_down;
	struct pciesw_pci *h;

	lockdep_assert_held(&sw->lock);
	if (!up || up->role != PCIESW_PORT_ROLE_UPSTREAM)
		return NULL;
	max_down = min_t(unsigned int, pciesw_pci_max_down(sw->profile),
			 PCIESW_MAX_PORTS);
	h = kzalloc(struct_size(h, fns, 2 * max_down), GFP_KERNEL);
	if (!h)
		return NULL;
	kref_get(&sw->refs);
	h->sw = sw;
	h->profile = sw->profile;
	h->domain = pciesw_pci_domain(sw);
	h->max_down = max_down;
	h->hotplug = pci_hotplug;
	h->down = h->fns;
	h->ep = h->fns + max_down;
	h->sysdata.domain = h->domain;
	h->sysdata.node = NUMA_NO_NODE;
	h->dsn = pciesw_pci_dsn(sw);
	h->busn.name = "pciesw";
	h->busn.start = 0;
	h->busn.end = PCIESW_PCI_EP_BUS(h->max_down - 1);
	h->busn.flags = IORESOURCE_BUS | IORESOURCE_PCI_FIXED;
	raw_spin_lock_init(&h->lock);
	INIT_WORK(&h->req_work, pciesw_pci_req_work);
	h->mps = pciesw_switch_setting(sw, PCIESW_SETTING_MPS);
	h->mrrs = pciesw_switch_mrrs(sw);
	pciesw_pci_vpd_load(h);
	/* the Root Port stays as long as the hierarchy; no one else sees it yet */
	h->rp = pciesw_pci_fn_new(h, PCIESW_PCI_RP, 0, up, NULL);
	bitmap_fill(all, PCIESW_MAX_PORTS);
	/* the whole hierarchy or none: a partial view would show a lie */
	if (!h->rp || !pciesw_pci_fns_add(h, all) || !h->up) {
		pciesw_pci_free(h);
		return NULL;
	}
	return h;
}

/* Put @h on the PCI bus below @parent, as a host bridge driver would. */
static int pciesw_pci_attach(struct pciesw_pci *h, struct device *parent)
{
	struct pci_bus *root, *child;
	struct pci_dev **later;
	LIST_HEAD(resources);
	unsigned int n;

	/* without its own domain, MSI is the platform's (and never fires) */
	h->msi = pciesw_msi_domain_create(h->domain);
	if (!h->msi)
		pr_warn("pciesw: %s: no MSI domain: the ports' interrupts never fire\n",
			h->sw->name);
	pci_add_resource(&resources, &h->busn);
	pci_lock_rescan_remove();
	pciesw_pci_later_begin(h);
	root = pci_create_root_bus(parent, h->busn.start, &pciesw_pci_ops,
				   &h->sysdata, &resources);
	if (!root) {
		kfree(pciesw_pci_later_end(h, &n));
		pci_unlock_rescan_remove();
		pci_free_resource_list(&resources);
		return -ENODEV;
	}
	h->root = root;
	h->bridge = to_pci_host_bridge(root->bridge);
	/* from here on the bridge's release frees @h */
	atomic_inc(&pciesw_pci_live);
	pci_set_host_bridge_release(h->bridge, pciesw_pci_bridge_release, h);
	/* as VMD does: the ports' vectors come from the root bus's domain */
	if (h->msi)
		dev_set_msi_domain(&root->dev, h->msi);
	pci_scan_child_bus(root);
	pci_assign_unassigned_bus_resources(root);
	/* the root bus is not PCIe: configure MPS from the ports below it */
	list_for_each_entry(child, &root->children, node)
		pcie_bus_configure_settings(child);
	pci_bus_add_devices(root);
	later = pciesw_pci_later_end(h, &n);
	pci_unlock_rescan_remove();
	pciesw_pci_bind_later(later, n);
	return 0;
}

/* Take @h off the PCI bus; it is freed when its last device is released. */
static void pciesw_pci_destroy(struct pciesw_pci *h)
{
	DECLARE_BITMAP(all, PCIESW_MAX_PORTS);
	unsigned long flags;

	bitmap_fill(all, PCIESW_MAX_PORTS);
	pciesw_pci_unbind_ports(h, 0, all, true);
	pci_lock_rescan_remove();
	pci_stop_root_bus(h->root);
	pci_remove_root_bus(h->root);
	pci_unlock_rescan_remove();
	raw_spin_lock_irqsave(&h->lock, flags);
	h->dead = true;
	h->root = NULL;
	raw_spin_unlock_irqrestore(&h->lock, flags);
	/* no config cycle reaches it now: no new request */
	cancel_work_sync(&h->req_work);
	/*
	 * If something still holds one of its pci_devs, they read as absent
	 * and the module stays (rmmod says it is in use) until the release;
	 * only while the module is already unloading does this fail, and
	 * pciesw_pci_exit() waits instead.
	 */
	h->module_ref = try_module_get(THIS_MODULE);
	/* the bridge's first reference, ours since pci_create_root_bus() */
	put_device(&h->bridge->dev);
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
	/* as an event record (event.c): small, and must not be lost */
	struct pciesw_pci_job *job = kmalloc(sizeof(*job),
					     GFP_KERNEL | __GFP_NOFAIL);

	job->op = op;
	job->h = h;
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

/* In event order, without sw->lock: the PCI core's part. */
static void pciesw_pci_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_pci_job *job = snap;
	struct pciesw_dev *pdev;

	if (snap == PCIESW_PCI_FAILED) {
		pciesw_pci_view_failed(ev->sw);
		return;
	}
	if (!job)
		return;
	switch (job->op) {
	case PCIESW_PCI_RESCAN:
		pciesw_pci_rescan(job->h, job->bus);
		break;
	case PCIESW_PCI_REMOVE:
		pciesw_pci_gone_apply(job->h, job->gone);
		break;
	case PCIESW_PCI_CREATE:
		pdev = pciesw_dev_of(ev->sw);
		if (pdev && !pciesw_pci_attach(job->h, &pdev->dev))
			break;
		pr_err("pciesw: %s: cannot put the switch on the PCI bus\n",
		       ev->sw->name);
		mutex_lock(&ev->sw->lock);
		if (pdev && pdev->pci == job->h)
			pdev->pci = NULL;
		mutex_unlock(&ev->sw->lock);
		pciesw_pci_free(job->h);
		pciesw_pci_view_failed(ev->sw);
		break;
	case PCIESW_PCI_DESTROY:
		pciesw_pci_destroy(job->h);
		break;
	}
	kfree(job);
}

static const struct pciesw_view pciesw_pci_view = {
	.snapshot = pciesw_pci_snapshot,
	.apply = pciesw_pci_apply,
};

/* Is there a PCI bus in domain @d (another driver's, VMD's say)? */
static bool pciesw_pci_domain_used(int d)
{
	struct pci_bus *bus = NULL;

	while ((bus = pci_find_next_bus(bus)))
		if (pci_domain_nr(bus) == d)
			return true;
	return false;
}

/*
 * The lowest domain above 0xffff that no PCI bus and no other switch uses,
 * held for the switch's life so that its PCI names stay while the view is
 * off.  Like VMD's choice it cannot reserve the domain against a driver
 * that picks one after the check; such a driver (VMD) takes the highest
 * plus one, which is never a free one below ours.
 */
static int pciesw_pci_domain_get(void)
{
	int d = PCIESW_PCI_DOMAIN_MIN;

	for (;;) {
		d = ida_alloc_range(&pciesw_pci_domains, d,
				    PCIESW_PCI_DOMAIN_MAX, GFP_KERNEL);
		if (d < 0 || !pciesw_pci_domain_used(d))
			return d;
		ida_free(&pciesw_pci_domains, d);
		d++;
	}
}

/**
 * pciesw_pci_add - put a new switch on the PCI bus, unless it is off
 * @pdev: the switch instance, not yet published
 */
int pciesw_pci_add(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	struct pciesw_settings off = { .set = BIT(PCIESW_SETTING_PCI_VIEW) };
	enum pciesw_setting bad;
	struct pciesw_pci *h = NULL;
	const char *why;
	int err, d;

	d = pciesw_pci_domain_get();
	if (d < 0)
		return d;
	mutex_lock(&sw->lock);
	sw->pci_domain = d;
	if (!pci_view)
		pciesw_switch_set(sw, &off, &bad, &why);
	if (pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW)) {
		h = pciesw_pci_new(pdev);
		if (!h) {
			mutex_unlock(&sw->lock);
			ida_free(&pciesw_pci_domains, d);
			return -ENOMEM;
		}
		pdev->pci = h;
	}
	mutex_unlock(&sw->lock);
	if (!h)
		return 0;
	err = pciesw_pci_attach(h, &pdev->dev);
	if (err) {
		mutex_lock(&sw->lock);
		pdev->pci = NULL;
		mutex_unlock(&sw->lock);
		pciesw_pci_free(h);
		ida_free(&pciesw_pci_domains, d);
	}
	return err;
}

/* Take the switch off the PCI bus; it is unpublished, its events applied. */
void pciesw_pci_del(struct pciesw_dev *pdev)
{
	struct pciesw_switch *sw = pdev->sw;
	struct pciesw_pci *h;

	mutex_lock(&sw->lock);
	h = pdev->pci;
	pdev->pci = NULL;
	mutex_unlock(&sw->lock);
	if (h)
		pciesw_pci_destroy(h);
	ida_free(&pciesw_pci_domains, sw->pci_domain);
}

/* The id of the downstream port endpoint function @dev is behind, or 0. */
static u32 pciesw_pci_ep_port(struct pci_dev *dev)
{
	struct pci_dev *port = dev->bus->self;
	int k;

	if (!port || port->bus->ops != &pciesw_pci_ops ||
	    pci_pcie_type(port) != PCI_EXP_TYPE_DOWNSTREAM)
		return 0;
	k = pciesw_pci_down_index(pciesw_pci_of(dev->bus)->profile,
				  port->devfn);
	return k < 0 ? 0 : k + 1;
}

/*
 * The endpoints are claimed by this placeholder driver: a driver override
 * set before the PCI core matches drivers keeps nvme (class 01:08:02) and
 * the like from probing devices that have no registers behind them.
 */
static int pciesw_pci_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	u32 port_id;

	if (dev->bus->ops != &pciesw_pci_ops)
		return -ENODEV;
	port_id = pciesw_pci_ep_port(dev);
	if (port_id)
		pciesw_ep_function(pciesw_pci_of(dev->bus)->sw, port_id, true);
	return 0;
}

/* What hangs off the function (a drive's disk) goes first, as with nvme. */
static void pciesw_pci_remove(struct pci_dev *dev)
{
	u32 port_id = pciesw_pci_ep_port(dev);

	if (port_id)
		pciesw_ep_function(pciesw_pci_of(dev->bus)->sw, port_id, false);
}

/*
 * Error recovery (the AER and DPC drivers): nothing to stop or restart,
 * the endpoint has no registers; a reset (frozen link) is asked for.
 */
static pci_ers_result_t pciesw_pci_error_detected(struct pci_dev *dev,
						  pci_channel_state_t state)
{
	pci_info(dev, "pciesw: error detected (channel state %d)\n", state);
	return state == pci_channel_io_normal ? PCI_ERS_RESULT_CAN_RECOVER :
						PCI_ERS_RESULT_NEED_RESET;
}

/* the reset (the link went down) left config space at its defaults */
static pci_ers_result_t pciesw_pci_slot_reset(struct pci_dev *dev)
{
	pci_restore_state(dev);
	return PCI_ERS_RESULT_RECOVERED;
}

static void pciesw_pci_resume(struct pci_dev *dev)
{
	pci_info(dev, "pciesw: resumed after the error\n");
}

static const struct pci_error_handlers pciesw_pci_err_handler = {
	.error_detected = pciesw_pci_error_detected,
	.slot_reset = pciesw_pci_slot_reset,
	.resume = pciesw_pci_resume,
};

static struct pci_driver pciesw_pci_driver = {
	.name = "pciesw",
	.probe = pciesw_pci_probe,
	.remove = pciesw_pci_remove,
	.err_handler = &pciesw_pci_err_handler,
};

static int pciesw_pci_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct pci_dev *dev = to_pci_dev(data);
	struct pciesw_pci *h;

	if (action != BUS_NOTIFY_ADD_DEVICE || dev->bus->ops != &pciesw_pci_ops)
		return NOTIFY_DONE;
	if (dev->hdr_type != PCI_HEADER_TYPE_NORMAL) {
		/* in the view's own scan (rescan lock): bound after it */
		h = pciesw_pci_of(dev->bus);
		if (!h->later || h->nr_later >= h->max_down + 2)
			return NOTIFY_DONE;
		if (pciesw_pci_set_override(dev, "pciesw-later"))
			return NOTIFY_DONE;
		h->later[h->nr_later++] = pci_dev_get(dev);
		return NOTIFY_OK;
	}
	if (pciesw_pci_set_override(dev, pciesw_pci_driver.name))
		pci_warn(dev, "cannot set the driver override\n");
	return NOTIFY_OK;
}

static struct notifier_block pciesw_pci_nb = {
	.notifier_call = pciesw_pci_notify,
};

int pciesw_pci_init(void)
{
	unsigned int k;
	int err;

	for (k = 0; k < PCIESW_PCI_NR_KINDS; k++)
		pciesw_pci_masks_init(k);
	err = bus_register_notifier(&pci_bus_type, &pciesw_pci_nb);
	if (err)
		return err;
	err = pci_register_driver(&pciesw_pci_driver);
	if (err) {
		bus_unregister_notifier(&pci_bus_type, &pciesw_pci_nb);
		return err;
	}
	pciesw_view_register(PCIESW_VIEW_PCI, &pciesw_pci_view);
	return 0;
}

/* After every switch is gone: wait for the last hierarchy's release. */
void pciesw_pci_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_PCI);
	while (!wait_event_timeout(pciesw_pci_released,
				   !atomic_read(&pciesw_pci_live), 10 * HZ))
		pr_warn("pciesw: unload waits for references to removed PCI devices\n");
	pci_unregister_driver(&pciesw_pci_driver);
	bus_unregister_notifier(&pci_bus_type, &pciesw_pci_nb);
	ida_destroy(&pciesw_pci_domains);
}

#else /* no PCI: the view is absent, the setting has no effect */

int pciesw_pci_add(struct pciesw_dev *pdev)
{
	/* the names it would have; no PCI bus can take them */
	pdev->sw->pci_domain = PCIESW_PCI_DOMAIN_MIN + pdev->sw->id;
	return 0;
}

void pciesw_pci_del(struct pciesw_dev *pdev)
{
}

int pciesw_pci_init(void)
{
	return 0;
}

void pciesw_pci_exit(void)
{
}

#endif
