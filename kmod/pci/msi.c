// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view's interrupts: like the VMD driver, every hierarchy's root
 * bus gets an MSI irq domain of its own, "PCIESW-MSI", which the PCI core
 * allocates the ports' MSI vectors from (pcieport, pciehp).  The irq chip
 * composes a message naming the vector (data = the function's requester
 * ID, its hwirq here; one vector per function) at an address of its own,
 * and the PCI core writes it into the function's MSI capability, whose
 * enable and mask bits the config space emulation keeps (config.c).
 *
 * When a port signals an interrupt the model sends the message it finds in
 * the port's MSI capability, as the hardware would write it, and this
 * "interrupt controller" decodes it: pciesw_msi_send() finds the vector the
 * data names and runs its handlers with generic_handle_irq_safe(), from
 * process context.  A message to another address, or naming no vector,
 * goes nowhere (a lost write).
 *
 * The domain has no parent: its interrupts are raised by software only, so
 * they have no CPU vector, no affinity and no ack; the flow handler is
 * handle_simple_irq.  No lock of its own: the irq core's locks protect the
 * mappings, and a vector freed while its message is sent is looked up
 * under local_irq_save() (an RCU read side), as the irq core frees
 * descriptors after a grace period.
 */

#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/msi.h>
#include <linux/pci.h>

#include "instance.h"

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "msi.h"

/* hwirq: the function's requester ID (vector 0, the only one) */
static void pciesw_msi_set_desc(msi_alloc_info_t *arg, struct msi_desc *desc)
{
	arg->desc = desc;
	arg->hwirq = pci_dev_id(msi_desc_to_pci_dev(desc));
}

static void pciesw_msi_compose(struct irq_data *data, struct msi_msg *msg)
{
	msg->address_hi = 0;
	msg->address_lo = PCIESW_MSI_ADDRESS;
	msg->data = irqd_to_hwirq(data);
}

#ifndef PCIESW_HAVE_MSI_NO_AFFINITY
/*
 * Without MSI_FLAG_NO_AFFINITY (6.1) the default chip ops would set the
 * affinity through a parent domain, which there is none of: a software
 * raised vector runs wherever it is raised, any mask will do.
 */
static int pciesw_msi_set_affinity(struct irq_data *data,
				   const struct cpumask *mask, bool force)
{
	irq_data_update_effective_affinity(data, mask);
	return IRQ_SET_MASK_OK_DONE;
}
#endif

/* mask, unmask and the message write are the PCI core's (config space) */
static struct irq_chip pciesw_msi_chip = {
	.name = "PCIESW-MSI",
	.irq_compose_msi_msg = pciesw_msi_compose,
#ifndef PCIESW_HAVE_MSI_NO_AFFINITY
	.irq_set_affinity = pciesw_msi_set_affinity,
#endif
};

static struct msi_domain_ops pciesw_msi_ops = {
	.set_desc = pciesw_msi_set_desc,
};

/* MSI only (no MSI-X, one vector): what the ports' capabilities offer */
static struct msi_domain_info pciesw_msi_info = {
	.flags = MSI_FLAG_USE_DEF_DOM_OPS | MSI_FLAG_USE_DEF_CHIP_OPS |
		 PCIESW_MSI_FLAG_NO_AFFINITY,
	.ops = &pciesw_msi_ops,
	.chip = &pciesw_msi_chip,
	.handler = handle_simple_irq,
	.handler_name = "simple",
};

/**
 * pciesw_msi_domain_create - the MSI irq domain of a hierarchy
 * @id: the PCI domain number, which names the domain's fwnode
 *
 * Return: the domain, NULL if it cannot be made.
 */
struct irq_domain *pciesw_msi_domain_create(int id)
{
	struct fwnode_handle *fn;
	struct irq_domain *d;

	fn = irq_domain_alloc_named_id_fwnode("PCIESW-MSI", id);
	if (!fn)
		return NULL;
	d = pci_msi_create_irq_domain(fn, &pciesw_msi_info, NULL);
	if (!d) {
		irq_domain_free_fwnode(fn);
		return NULL;
	}
	/*
	 * Not the platform's PCI/MSI, as VMD's is not: with interrupt
	 * remapping (on by default wherever DMAR offers it), 6.1's
	 * intel_irq_remap_add_device() gives every device whose MSI domain
	 * is a DOMAIN_BUS_PCI_MSI one the remapping domain of its DRHD
	 * instead (pci_dev_has_special_msi_domain()), and a segment no DRHD
	 * covers has none: the ports lost their MSI ("Cannot get irq").
	 */
	irq_domain_update_bus_token(d, DOMAIN_BUS_VMD_MSI);
	return d;
}

/**
 * pciesw_msi_domain_remove - remove a domain no device has vectors of
 * @d: the domain, or NULL
 */
void pciesw_msi_domain_remove(struct irq_domain *d)
{
	struct fwnode_handle *fn;

	if (!d)
		return;
	fn = d->fwnode;
	irq_domain_remove(d);
	irq_domain_free_fwnode(fn);
}

/**
 * pciesw_msi_send - a function writes its MSI message
 * @d: the hierarchy's domain
 * @addr: the message address from the function's MSI capability
 * @data: the message data
 *
 * Process context, no lock that an interrupt handler of the PCI view takes
 * (they read and write config space).
 *
 * Return: true if a vector took it.
 */
bool pciesw_msi_send(struct irq_domain *d, u64 addr, u16 data)
{
	unsigned int virq;

	if (!d || addr != PCIESW_MSI_ADDRESS)
		return false;
	virq = irq_find_mapping(d, data);
	return virq && !generic_handle_irq_safe(virq);
}

#endif
