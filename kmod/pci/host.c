// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view's hierarchies: each switch's host bridge and root bus, in a
 * PCI domain of its own that no IOMMU covers (domain.c;
 * pciesw_pci_add(), pciesw_pci_del()); a hierarchy built from the model,
 * put on the PCI bus, taken off it and released; the rescan lock around the view's own scans
 * and removals, as pciehp takes it; the end of the endpoints' placeholders
 * (pci_placeholder_ms); and the placeholder driver that claims the
 * endpoints, with its error handlers.
 */

#include <linux/aer.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "instance.h"

static bool pci_view = true;
module_param(pci_view, bool, 0444);
MODULE_PARM_DESC(pci_view,
		 "Show new switches on the PCI bus, default 1 (per switch: pcieswN/pci_view)");

static bool pci_hotplug = true;
module_param(pci_hotplug, bool, 0444);
MODULE_PARM_DESC(pci_hotplug,
		 "Downstream ports of new PCI views are hot-plug slots that pciehp drives, default 1");

/*
 * Broadcom's switches have a management endpoint (1000:00b2) behind a
 * downstream port of their own at device 0x1f of the internal bus; off by
 * default, as it is no model port.  Taken when a switch's view is made.
 */
static bool pci_mgmt_ep;
module_param(pci_mgmt_ep, bool, 0444);
MODULE_PARM_DESC(pci_mgmt_ep,
		 "New PCI views have the switch management endpoint 1000:00b2 behind a port at device 0x1f, default 0");

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

/* hierarchies whose host bridge is not released yet */
static atomic_t pciesw_pci_live = ATOMIC_INIT(0);
/* pciesw_pci_host_exit() waits here for pciesw_pci_live to reach 0 */
static DECLARE_WAIT_QUEUE_HEAD(pciesw_pci_released);

void pciesw_pci_vpd_load(struct pciesw_pci *h)
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
bool pciesw_pci_fns_add(struct pciesw_pci *h, const unsigned long *ports)
{
	struct pciesw_switch *sw = h->sw;
	struct pciesw_pci_fn *fn, *efn, *mdown, *mep;
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
			/* the management port and endpoint come with it */
			mdown = h->mgmt ? pciesw_pci_mgmt_new(h, PCIESW_PCI_DOWN,
							      port) : NULL;
			mep = mdown ? pciesw_pci_mgmt_new(h, PCIESW_PCI_EP,
							  port) : NULL;
			if (h->mgmt && !mep) {
				all = false;
				pciesw_pci_fn_free(mdown);
				mdown = NULL;
			}
			raw_spin_lock_irqsave(&h->lock, flags);
			pciesw_pci_fn_link(fn, port);
			if (h->rp)
				pciesw_pci_fn_link(h->rp, port);
			swap(h->up, fn);
			swap(h->mdown, mdown);
			swap(h->mep, mep);
			raw_spin_unlock_irqrestore(&h->lock, flags);
			pciesw_pci_fn_free(mep);
			pciesw_pci_fn_free(mdown);
			pciesw_pci_fn_free(fn);
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
		pciesw_pci_fn_free(fn);
		pciesw_pci_fn_free(efn);
	}
	return all;
}

/* With the rescan lock: the bus software numbered @busnr, if it exists. */
struct pci_bus *pciesw_pci_bus(struct pciesw_pci *h, unsigned int busnr)
{
	return busnr ? pci_find_bus(h->domain, busnr) : NULL;
}

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
void pciesw_pci_unbind_ports(struct pciesw_pci *h, unsigned int busnr,
			     const unsigned long *ports, bool all)
{
	struct pci_dev *dev, **devs;
	unsigned int n = 0, max = pciesw_pci_nr_bridges(h);
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
 * With the rescan lock, before the view's own scan: the drivers of the
 * bridges it adds are bound after it, without the lock.  pciehp's probe
 * takes its reset_lock, which its interrupt thread holds while it takes
 * the rescan lock: binding it under the rescan lock would close that cycle.
 * Only the view's own scans defer (pciehp's and sysfs rescans bind as
 * always); without memory the bridges bind at once.
 */
void pciesw_pci_later_begin(struct pciesw_pci *h)
{
	if (!h->hotplug)
		return;
	/* the Root Port, the upstream, downstream and management ports */
	h->later = kcalloc(pciesw_pci_nr_bridges(h), sizeof(*h->later),
			   GFP_KERNEL);
	h->nr_later = 0;
}

/* With the rescan lock, after the scan: what pciesw_pci_bind_later() binds */
struct pci_dev **pciesw_pci_later_end(struct pciesw_pci *h,
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
void pciesw_pci_bind_later(struct pci_dev **later, unsigned int n)
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

/*
 * As pciehp_configure_device(): the view's own scan, which finds what is
 * new below bus @busnr (0: the root bus).
 */
void pciesw_pci_rescan(struct pciesw_pci *h, unsigned int busnr)
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

/*
 * A placeholder's time is up: the real endpoint's link is active, and the
 * downstream port says so as a PEX890xx does, with Data Link Layer State
 * Changed (and its interrupt, which the request work sends): pciehp, if
 * it drives the slot, removes the function and adds it again.  A slot no
 * pciehp drives the view scans, as it scans one whose link comes up
 * without a placeholder (pciesw_pci_port_change()).  Then the next
 * placeholder's end, if any.  Not in the switch's event work: every view
 * would wait behind the placeholder, up to 10 s.
 */
void pciesw_pci_ph_work(struct work_struct *work)
{
	struct pciesw_pci *h = container_of(to_delayed_work(work),
					    struct pciesw_pci, ph_work);
	DECLARE_BITMAP(scan, PCIESW_PCI_NR_BUSES);
	u64 now = ktime_get_ns(), next = 0;
	struct pciesw_pci_fn *ep, *d;
	unsigned int k, busnr;
	unsigned long flags;
	bool send = false;

	bitmap_zero(scan, PCIESW_PCI_NR_BUSES);
	raw_spin_lock_irqsave(&h->lock, flags);
	for (k = 0; k < h->max_down && !h->dead; k++) {
		ep = h->ep[k];
		d = h->down[k];
		if (!ep || !ep->ph_due)
			continue;
		if (now < ep->ph_until) {
			next = next ? min(next, ep->ph_until) : ep->ph_until;
			continue;
		}
		ep->ph_due = false;
		if (!d || !d->active)
			continue;
		or16(d->cfg, CAP_EXP + PCI_EXP_SLTSTA, PCI_EXP_SLTSTA_DLLSC);
		send |= pciesw_pci_msi_eval(d);
		busnr = pciesw_pci_secondary(d);
		if (busnr && !pciesw_pci_slot_driven(h, k))
			__set_bit(busnr, scan);
	}
	if (send && !h->dead)
		queue_work(system_wq, &h->req_work);
	if (next && !h->dead)
		queue_delayed_work(system_long_wq, &h->ph_work,
				   nsecs_to_jiffies(next - now) + 1);
	raw_spin_unlock_irqrestore(&h->lock, flags);
	/* the bus is found again under the rescan lock, if it still is */
	for_each_set_bit(busnr, scan, PCIESW_PCI_NR_BUSES)
		pciesw_pci_rescan(h, busnr);
}

/*
 * The serial as a DSN in Broadcom's format (a PEX89144 shows
 * 00-80-ee-00-00-00-41-80): 0080ee00 above the serial's number.
 */
static u64 pciesw_pci_dsn(const struct pciesw_switch *sw)
{
	size_t plen = strlen(sw->profile->serial_prefix);
	u32 lo = 0;

	if (kstrtou32(sw->serial + plen, 10, &lo))
		lo = sw->id;
	return (u64)PCIESW_PCI_DSN_HI << 32 | lo;
}

/*
 * Its works are idle: pciesw_pci_destroy() stopped them, or it never was
 * on the bus and whoever armed them cancelled them.  Also called with
 * sw->lock (pciesw_pci_new()) and from the bridge's release, which may run
 * under the PCI core's locks: no wait here.
 */
void pciesw_pci_free(struct pciesw_pci *h)
{
	unsigned int k;

	for (k = 0; k < h->max_down; k++) {
		pciesw_pci_fn_free(h->down[k]);
		pciesw_pci_fn_free(h->ep[k]);
	}
	pciesw_pci_fn_free(h->mep);
	pciesw_pci_fn_free(h->mdown);
	pciesw_pci_fn_free(h->up);
	pciesw_pci_fn_free(h->rp);
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
struct pciesw_pci *pciesw_pci_new(struct pciesw_dev *pdev)
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
	h->mgmt = pci_mgmt_ep;
	h->down = h->fns;
	h->ep = h->fns + max_down;
	h->sysdata.domain = h->domain;
	h->sysdata.node = NUMA_NO_NODE;
	h->dsn = pciesw_pci_dsn(sw);
	h->busn.name = "pciesw";
	h->busn.start = 0;
	/* the management endpoint's bus is the last */
	h->busn.end = PCIESW_PCI_EP_BUS(h->max_down - 1 + h->mgmt);
	h->busn.flags = IORESOURCE_BUS | IORESOURCE_PCI_FIXED;
	raw_spin_lock_init(&h->lock);
	INIT_WORK(&h->req_work, pciesw_pci_req_work);
	INIT_DELAYED_WORK(&h->ph_work, pciesw_pci_ph_work);
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

/*
 * Put @h on the PCI bus, as a host bridge driver would.  The host bridge
 * has no parent device, as a root complex's has none: it is
 * /sys/devices/pciDDDD:00, where topology tools (hwloc) look for the
 * first "/pci" of a device's path and read PCI addresses from there on,
 * and where the switch device's name (pcieswN) would come first.
 */
int pciesw_pci_attach(struct pciesw_pci *h)
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
	root = pci_create_root_bus(NULL, h->busn.start, &pciesw_pci_ops,
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
void pciesw_pci_destroy(struct pciesw_pci *h)
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
	/*
	 * no config cycle reaches it now: no new request; the placeholders'
	 * work queues none once it sees @dead
	 */
	cancel_delayed_work_sync(&h->ph_work);
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
	u32 d;
	int err;

	/* a domain no IOMMU covers, or no view (domain.c) */
	d = pciesw_pci_domain_get(sw->name);
	mutex_lock(&sw->lock);
	sw->pci_domain = d;
	if (!pci_view || d == PCIESW_PCI_DOMAIN_NONE)
		pciesw_switch_set(sw, &off, &bad, &why);
	if (pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW)) {
		h = pciesw_pci_new(pdev);
		if (!h) {
			mutex_unlock(&sw->lock);
			pciesw_pci_domain_put(d);
			return -ENOMEM;
		}
		pdev->pci = h;
	}
	mutex_unlock(&sw->lock);
	if (!h)
		return 0;
	err = pciesw_pci_attach(h);
	if (err) {
		mutex_lock(&sw->lock);
		pdev->pci = NULL;
		mutex_unlock(&sw->lock);
		pciesw_pci_free(h);
		pciesw_pci_domain_put(d);
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
	pciesw_pci_domain_put(sw->pci_domain);
}

/* The id of the downstream port endpoint function @dev is behind, or 0. */
static u32 pciesw_pci_ep_port(struct pci_dev *dev)
{
	struct pci_dev *port = dev->bus->self;
	int k;

	if (!port || port->bus->ops != &pciesw_pci_ops ||
	    pci_pcie_type(port) != PCI_EXP_TYPE_DOWNSTREAM ||
	    port->devfn == PCIESW_PCI_MGMT_DEVFN)
		return 0;
	k = pciesw_pci_down_index(pciesw_pci_of(dev->bus)->profile,
				  port->devfn);
	return k < 0 ? 0 : k + 1;
}

/*
 * Is @dev, behind downstream port @port_id, a placeholder (its IDs not the
 * endpoint's, pci_placeholder_ms) that pciehp or a scan found before the
 * real endpoint showed?
 */
static bool pciesw_pci_is_placeholder(struct pci_dev *dev, u32 port_id)
{
	struct pciesw_pci *h = pciesw_pci_of(dev->bus);
	struct pciesw_pci_fn *fn;
	unsigned long flags;
	bool ph = false;

	raw_spin_lock_irqsave(&h->lock, flags);
	fn = port_id <= h->max_down ? h->ep[port_id - 1] : NULL;
	if (fn)
		ph = get16(fn->cfg, PCI_VENDOR_ID) != dev->vendor ||
		     get16(fn->cfg, PCI_DEVICE_ID) != dev->device;
	raw_spin_unlock_irqrestore(&h->lock, flags);
	return ph;
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
	/*
	 * A placeholder is claimed too, so that no other driver takes it,
	 * but what hangs off the endpoint (a disk) waits for the endpoint
	 */
	if (port_id && pciesw_pci_is_placeholder(dev, port_id))
		port_id = 0;
	/*
	 * As a driver of a real part: the function masters the bus (a drive
	 * whose Bus Master Enable software clears again moves no data), and
	 * error recovery's pci_restore_state() brings that back.
	 */
	pci_set_master(dev);
#ifdef PCIESW_HAVE_PCI_ENABLE_ERR_REPORTING
	/*
	 * Before 6.4 a driver enables its function's error reporting (the
	 * AER driver does it only for the devices there when it probes), or
	 * the endpoint's errors send no message
	 */
	pci_enable_pcie_error_reporting(dev);
#endif
	pci_save_state(dev);
	if (port_id) {
		/*
		 * bound to the endpoint: remove says it goes; takes sw->lock
		 * under the device's lock (the lock order, view.c)
		 */
		pci_set_drvdata(dev, pciesw_pci_of(dev->bus));
		pciesw_ep_function(pciesw_pci_of(dev->bus)->sw, port_id, true);
	}
	return 0;
}

/* What hangs off the function (a drive's disk) goes first, as with nvme. */
static void pciesw_pci_remove(struct pci_dev *dev)
{
	u32 port_id = pciesw_pci_ep_port(dev);

	if (port_id && pci_get_drvdata(dev))
		pciesw_ep_function(pciesw_pci_of(dev->bus)->sw, port_id, false);
	pci_clear_master(dev);
}

/*
 * Error recovery (the AER and DPC drivers), as a driver of a real part
 * does it: a non-fatal error (channel normal) leaves the function working,
 * nothing to stop, and it recovers once its registers answer
 * (mmio_enabled); a frozen channel (a fatal error, DPC) needs the reset
 * of its link; a dead one is let go.
 */
static pci_ers_result_t pciesw_pci_error_detected(struct pci_dev *dev,
						  pci_channel_state_t state)
{
	pci_info(dev, "pciesw: error detected (channel state %d)\n", state);
	switch (state) {
	case pci_channel_io_normal:
		return PCI_ERS_RESULT_CAN_RECOVER;
	case pci_channel_io_frozen:
		return PCI_ERS_RESULT_NEED_RESET;
	default:
		return PCI_ERS_RESULT_DISCONNECT;
	}
}

/* after a non-fatal error: the function answers, nothing was lost */
static pci_ers_result_t pciesw_pci_mmio_enabled(struct pci_dev *dev)
{
	return pci_device_is_present(dev) ? PCI_ERS_RESULT_RECOVERED :
					    PCI_ERS_RESULT_DISCONNECT;
}

/*
 * The reset (the link went down) left config space at its defaults: back
 * to what the driver set up (Bus Master Enable, error reporting), saved
 * again for the next recovery, since pci_restore_state() uses it up
 */
static pci_ers_result_t pciesw_pci_slot_reset(struct pci_dev *dev)
{
	if (!pci_device_is_present(dev))
		return PCI_ERS_RESULT_DISCONNECT;
	pci_restore_state(dev);
	pci_save_state(dev);
	return PCI_ERS_RESULT_RECOVERED;
}

static void pciesw_pci_resume(struct pci_dev *dev)
{
	pci_info(dev, "pciesw: resumed after the error\n");
}

static const struct pci_error_handlers pciesw_pci_err_handler = {
	.error_detected = pciesw_pci_error_detected,
	.mmio_enabled = pciesw_pci_mmio_enabled,
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
		if (!h->later || h->nr_later >= pciesw_pci_nr_bridges(h))
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

/* The endpoints' driver, and the notifier that sets their override. */
int pciesw_pci_host_init(void)
{
	int err;

	err = bus_register_notifier(&pci_bus_type, &pciesw_pci_nb);
	if (err)
		return err;
	err = pci_register_driver(&pciesw_pci_driver);
	if (err)
		bus_unregister_notifier(&pci_bus_type, &pciesw_pci_nb);
	return err;
}

/* After every switch is gone: wait for the last hierarchy's release. */
void pciesw_pci_host_exit(void)
{
	while (!wait_event_timeout(pciesw_pci_released,
				   !atomic_read(&pciesw_pci_live), 10 * HZ))
		pr_warn("pciesw: unload waits for references to removed PCI devices\n");
	pci_unregister_driver(&pciesw_pci_driver);
	bus_unregister_notifier(&pci_bus_type, &pciesw_pci_nb);
}

#else /* no PCI: the view is absent, the setting has no effect */

int pciesw_pci_add(struct pciesw_dev *pdev)
{
	/* the names it would have; no PCI bus can take them */
	pdev->sw->pci_domain = 0xffff - pdev->sw->id;
	return 0;
}

void pciesw_pci_del(struct pciesw_dev *pdev)
{
}

#endif
