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

#include "pciesw.h"

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

bool pciesw_pci_multifunction(const struct pciesw_profile *profile)
{
	return pciesw_pci_max_down(profile) > 32;
}

/* devfn on the internal bus of downstream port k (port id k + 1) */
u8 pciesw_pci_down_devfn(const struct pciesw_profile *profile, unsigned int k)
{
	return pciesw_pci_multifunction(profile) ? k : PCI_DEVFN(k, 0);
}

/* k of the downstream port at @devfn on the internal bus, or -1 */
int pciesw_pci_down_index(const struct pciesw_profile *profile, u8 devfn)
{
	unsigned int k = pciesw_pci_multifunction(profile) ? devfn :
			 PCI_SLOT(devfn);

	if (!pciesw_pci_multifunction(profile) && PCI_FUNC(devfn))
		return -1;
	return k < pciesw_pci_max_down(profile) ? k : -1;
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
	snprintf(buf, len, "%05x:%02x:%02x.%u", pciesw_pci_domain(sw), bus,
		 PCI_SLOT(devfn), PCI_FUNC(devfn));
}

void pciesw_ep_pci_name(const struct pciesw_endpoint *ep, char *buf,
			size_t len)
{
	snprintf(buf, len, "%05x:%02x:00.0", pciesw_pci_domain(ep->sw),
		 PCIESW_PCI_EP_BUS(ep->port->id - 1));
}
