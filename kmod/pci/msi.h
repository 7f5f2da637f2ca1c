/* SPDX-License-Identifier: GPL-2.0 */
/* The PCI view's MSI irq domain (msi.c), used by host.c and aer.c */
#ifndef _PCIESW_PCI_MSI_H
#define _PCIESW_PCI_MSI_H

#include <linux/types.h>

struct irq_domain;

/* where the ports' messages go: the x86 interrupt address range's base */
#define PCIESW_MSI_ADDRESS	0xfee00000U

struct irq_domain *pciesw_msi_domain_create(int id);
void pciesw_msi_domain_remove(struct irq_domain *d);
bool pciesw_msi_send(struct irq_domain *d, u64 addr, u16 data);

#endif /* _PCIESW_PCI_MSI_H */
