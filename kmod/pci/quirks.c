// SPDX-License-Identifier: GPL-2.0
/*
 * The real part's quirks, off by default (module parameters pci_mgmt_ep and
 * pci_placeholder_ms, see host.c and view.c): the config images of the
 * switch management endpoint Broadcom's switches put behind port 0x1f, and
 * of the placeholder endpoint a PEX890xx in synthetic mode answers with
 * after a link reset, before the real device.  Built on the functions of
 * config.c; pci-view.md says what software sees of each.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "instance.h"

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

/*
 * The management port (@kind PCIESW_PCI_DOWN) or endpoint (PCIESW_PCI_EP)
 * of pci_mgmt_ep, as firmware leaves them; @up is the upstream port, whose
 * fastest speed they run at.  The port is the switch's own, at device
 * 0x1f of the internal bus with Port Number 0x1f: no slot (not
 * hot-pluggable), no DPC, no counters; its x1 link to the endpoint is
 * always up.  The endpoint: PM, MSI, PCI Express; the switch's DSN, AER.
 */
struct pciesw_pci_fn *pciesw_pci_mgmt_new(struct pciesw_pci *h,
					  enum pciesw_pci_kind kind,
					  const struct pciesw_port *up)
{
	struct pciesw_pci_fn *fn;
	u8 *cfg;

	fn = pciesw_pci_fn_new(h, kind, h->max_down, up, NULL);
	if (!fn)
		return NULL;
	cfg = fn->cfg;
	fn->virt = true;
	fn->stats = NULL;
	fn->active = true;
	fn->speed = fn->max_speed;
	fn->width = 1;
	fn->target = fn->max_speed;
	if (kind == PCIESW_PCI_DOWN) {
		cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_BRIDGE;
		put16(cfg, CAP_EXP + PCI_EXP_FLAGS,
		      get16(cfg, CAP_EXP + PCI_EXP_FLAGS) & ~PCI_EXP_FLAGS_SLOT);
		put32(cfg, CAP_EXP + PCI_EXP_SLTCAP, 0);
		put16(cfg, CAP_EXP + PCI_EXP_SLTCTL, 0);
		put32(cfg, CAP_EXP + PCI_EXP_LNKCAP, fn->max_speed | 1 << 4 |
		      PCI_EXP_LNKCAP_DLLLARC | PCI_EXP_LNKCAP_LBNC |
		      PCIESW_PCI_MGMT_PORT << 24);
		put16(cfg, CAP_EXP + PCI_EXP_LNKCTL2, fn->target);
		put32(cfg, ECAP_AER + PCI_ERR_UNCOR_MASK, 0);
		/* ACS ends the chain: no containment of a link that stays */
		put32(cfg, ECAP_ACS, PCI_EXT_CAP_ID_ACS | 1 << 16);
		put32(cfg, ECAP_DPC, 0);
		put16(cfg, ECAP_DPC + PCI_EXP_DPC_CAP, 0);
	}
	return fn;
}

/*
 * The placeholder Broadcom's PEX890xx shows in synthetic mode after a
 * link reset, before the link to the real endpoint behind downstream port
 * @k is active: 1000:02b2, class ff:00, the switch's revision, no
 * subsystem and no DSN (the extended capabilities start with a null one,
 * as the Root Port's); an endpoint otherwise, which takes software's
 * writes into its own image.
 */
struct pciesw_pci_fn *pciesw_pci_ph_new(struct pciesw_pci *h, unsigned int k,
					const struct pciesw_port *port)
{
	struct pciesw_pci_fn *fn;
	u8 *cfg;

	fn = pciesw_pci_fn_new(h, PCIESW_PCI_EP, k, port, port->ep);
	if (!fn)
		return NULL;
	cfg = fn->cfg;
	fn->virt = true;
	put16(cfg, PCI_VENDOR_ID, PCIESW_PCI_VENDOR);
	put16(cfg, PCI_DEVICE_ID, PCIESW_PCI_PH_DEVICE);
	put32(cfg, PCI_CLASS_REVISION,
	      PCIESW_PCI_PH_CLASS << 8 | PCIESW_PCI_REVISION);
	put32(cfg, PCI_SUBSYSTEM_VENDOR_ID, 0);
	put32(cfg, ECAP_DSN, ECAP_AER << 20);
	put32(cfg, ECAP_DSN + 4, 0);
	put32(cfg, ECAP_DSN + 8, 0);
	memcpy(fn->cfg0, cfg, PCIESW_PCI_CFG_LEN);
	return fn;
}

#endif
