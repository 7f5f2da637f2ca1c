// SPDX-License-Identifier: GPL-2.0
/*
 * The card's PCI addresses, a service of the model: its domain, the devfn
 * of each downstream port on the internal bus and the PCI names of ports
 * and endpoints, which the views report (netlink, sysfs, the block view)
 * so that users find the devices lspci, dmesg and AER lines name, and by
 * which the PCI view (pci*.c) lays out its hierarchy.  Built without PCI
 * support too: the names are the card's, the bus may be absent.  The
 * domain is the one the PCI view found free when the switch was created
 * (sw->pci_domain).  See the layout in pciesw.h.
 */

#include <linux/kernel.h>
#include <uapi/linux/pci.h>

#include "model/pciesw.h"

u32 pciesw_pci_domain(const struct pciesw_switch *sw)
{
	return sw->pci_domain;
}

/*
 * Downstream port numbers of @profile: every slot but the upstream port's
 * (port 0, the host group's only slot), so downstream port k is port
 * number k + 1 whatever the bifurcation.
 */
unsigned int pciesw_pci_max_down(const struct pciesw_profile *profile)
{
	return pciesw_profile_nr_slots(profile) - 1;
}

/*
 * A PEX890xx's downstream ports sit at device number = their port number
 * on the internal bus, with gaps where a bifurcation has no port (a DGX
 * A100's PEX88096 shows 02:00.0, 02:04.0, 02:08.0, 02:1c.0).  The card's
 * port numbers are its slots, fixed whatever the bifurcation, so port
 * number n is device n: what switchctl calls port 6 lspci calls 02:06.0,
 * and no address moves when a group is re-bifurcated.  Device 0 stays free
 * (port 0 is the upstream port) and so does device 0x1f, where Broadcom
 * puts its management endpoint's port.  Only profiles with more port
 * numbers than that (pex89144) fall back to 8 functions per device, in
 * port order from 02:00.0.
 */
#define PCIESW_PCI_MAX_DEVNUM	0x1e

bool pciesw_pci_multifunction(const struct pciesw_profile *profile)
{
	return pciesw_pci_max_down(profile) > PCIESW_PCI_MAX_DEVNUM;
}

/* devfn on the internal bus of downstream port k (port id k + 1) */
u8 pciesw_pci_down_devfn(const struct pciesw_profile *profile, unsigned int k)
{
	return pciesw_pci_multifunction(profile) ? k : PCI_DEVFN(k + 1, 0);
}

/* k of the downstream port at @devfn on the internal bus, or -1 */
int pciesw_pci_down_index(const struct pciesw_profile *profile, u8 devfn)
{
	int k = devfn;

	if (!pciesw_pci_multifunction(profile))
		k = PCI_FUNC(devfn) ? -1 : PCI_SLOT(devfn) - 1;
	return k >= 0 && k < pciesw_pci_max_down(profile) ? k : -1;
}

void pciesw_port_pci_name(const struct pciesw_port *port, char *buf,
			  size_t len)
{
	const struct pciesw_switch *sw = port->group->sw;
	u8 devfn = 0, bus = PCIESW_PCI_UP_BUS;

	if (port->role == PCIESW_PORT_ROLE_DOWNSTREAM) {
		bus = PCIESW_PCI_INT_BUS;
		devfn = pciesw_pci_down_devfn(sw->profile, port->id - 1);
	}
	snprintf(buf, len, "%04x:%02x:%02x.%u", pciesw_pci_domain(sw), bus,
		 PCI_SLOT(devfn), PCI_FUNC(devfn));
}

void pciesw_ep_pci_name(const struct pciesw_endpoint *ep, char *buf,
			size_t len)
{
	snprintf(buf, len, "%04x:%02x:00.0", pciesw_pci_domain(ep->sw),
		 PCIESW_PCI_EP_BUS(ep->port->id - 1));
}
