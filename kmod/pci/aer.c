// SPDX-License-Identifier: GPL-2.0
/*
 * What the PCI view's functions signal.  Errors the model counts on a
 * port become AER status and Header Log, then an ERR_COR, ERR_NONFATAL or
 * ERR_FATAL message up through the bridges to the Root Port, whose Root
 * Error Status and Error Source Identification take it
 * (pciesw_pci_port_errors(), PCIe 6.2); an error that triggers DPC on a
 * downstream port contains its link instead.  An endpoint reports the
 * errors injected into it the same way (pciesw_pci_ep_errors()), and the
 * downstream port above it triggers DPC on the ERR_FATAL or ERR_NONFATAL
 * it receives if its Trigger Enable says so.  Every port sends an MSI when
 * its interrupt condition becomes true (hot-plug, bandwidth, DPC; the
 * Root Port's error and PME reporting): evaluated with the hierarchy's
 * lock held (pciesw_pci_msi_eval()), sent without it through the root
 * bus's MSI domain (pciesw_pci_msi_fire(), msi.c).
 */

#include <linux/kernel.h>

#include "instance.h"

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

/*
 * The Root Port's interrupt condition: a PME with PME Interrupt Enable, or
 * an error message received whose reporting Root Error Command enables.
 */
static bool pciesw_pci_rp_msi_cond(const struct pciesw_pci_fn *fn)
{
	u32 cmd = get32(fn->cfg, ECAP_AER + PCI_ERR_ROOT_COMMAND);
	u32 sta = get32(fn->cfg, ECAP_AER + PCI_ERR_ROOT_STATUS);

	if ((get16(fn->cfg, CAP_EXP + PCI_EXP_RTCTL) & PCI_EXP_RTCTL_PMEIE) &&
	    (get32(fn->cfg, CAP_EXP + PCI_EXP_RTSTA) & PCI_EXP_RTSTA_PME))
		return true;
	return ((cmd & PCI_ERR_ROOT_CMD_COR_EN) &&
		(sta & PCI_ERR_ROOT_COR_RCV)) ||
	       ((cmd & PCI_ERR_ROOT_CMD_NONFATAL_EN) &&
		(sta & PCI_ERR_ROOT_NONFATAL_RCV)) ||
	       ((cmd & PCI_ERR_ROOT_CMD_FATAL_EN) &&
		(sta & PCI_ERR_ROOT_FATAL_RCV));
}

/*
 * A downstream port's interrupt condition (PCIe 6.7.3.4, 7.5.3.7, 6.2.10):
 * an enabled hot-plug event's status bit with Hot-Plug Interrupt Enable,
 * DPC Interrupt Status with DPC Interrupt Enable, or a bandwidth status
 * with its interrupt enable in Link Control.
 */
static bool pciesw_pci_msi_cond(const struct pciesw_pci_fn *fn)
{
	u16 sltctl = get16(fn->cfg, CAP_EXP + PCI_EXP_SLTCTL);
	u16 sltsta = get16(fn->cfg, CAP_EXP + PCI_EXP_SLTSTA);
	u16 lnkctl = get16(fn->cfg, CAP_EXP + PCI_EXP_LNKCTL);
	u16 lnksta = get16(fn->cfg, CAP_EXP + PCI_EXP_LNKSTA);
	u16 hp = 0;

	if (fn->kind == PCIESW_PCI_RP)
		return pciesw_pci_rp_msi_cond(fn);
	if (fn->kind != PCIESW_PCI_DOWN)
		return false;
	if (sltctl & PCI_EXP_SLTCTL_PDCE)
		hp |= PCI_EXP_SLTSTA_PDC;
	if (sltctl & PCI_EXP_SLTCTL_DLLSCE)
		hp |= PCI_EXP_SLTSTA_DLLSC;
	if (sltctl & PCI_EXP_SLTCTL_CCIE)
		hp |= PCI_EXP_SLTSTA_CC;
	if ((sltctl & PCI_EXP_SLTCTL_HPIE) && (sltsta & hp))
		return true;
	if ((get16(fn->cfg, ECAP_DPC + PCI_EXP_DPC_CTL) & PCI_EXP_DPC_CTL_INT_EN) &&
	    (get16(fn->cfg, ECAP_DPC + PCI_EXP_DPC_STATUS) &
	     PCI_EXP_DPC_STATUS_INTERRUPT))
		return true;
	return ((lnkctl & PCI_EXP_LNKCTL_LBMIE) &&
		(lnksta & PCI_EXP_LNKSTA_LBMS)) ||
	       ((lnkctl & PCI_EXP_LNKCTL_LABIE) &&
		(lnksta & PCI_EXP_LNKSTA_LABS));
}

/*
 * After a change of @fn's config space, with h->lock held: a message is
 * due when the condition, MSI Enable and the unmasked vector become true
 * together; a masked one is Pending meanwhile.  True if one is due.
 */
bool pciesw_pci_msi_eval(struct pciesw_pci_fn *fn)
{
	u16 flags = get16(fn->cfg, CAP_MSI + PCI_MSI_FLAGS);
	bool masked = get32(fn->cfg, CAP_MSI + PCI_MSI_MASK_64) & 1;
	bool line = (flags & PCI_MSI_FLAGS_ENABLE) && pciesw_pci_msi_cond(fn);

	put32(fn->cfg, CAP_MSI + PCI_MSI_PENDING_64, line && masked);
	line = line && !masked;
	if (line && !fn->msi_line)
		fn->msi_send = true;
	fn->msi_line = line;
	if (!(flags & PCI_MSI_FLAGS_ENABLE))
		fn->msi_send = false;
	return fn->msi_send;
}

/* the errors whose TLP the Header Log keeps (those aer.c reads it for) */
#define PCIESW_PCI_TLP_ERRORS	(PCI_ERR_UNC_POISON_TLP | PCI_ERR_UNC_ECRC | \
				 PCI_ERR_UNC_UNSUP | PCI_ERR_UNC_COMP_ABORT | \
				 PCI_ERR_UNC_UNX_COMP | PCI_ERR_UNC_MALF_TLP)

enum pciesw_pci_msg {
	PCIESW_PCI_ERR_COR,
	PCIESW_PCI_ERR_NONFATAL,
	PCIESW_PCI_ERR_FATAL,
};

/* @fn's requester ID, by the bus numbers software left; h->lock held */
static u16 pciesw_pci_fn_id(struct pciesw_pci *h, const struct pciesw_pci_fn *fn)
{
	unsigned int k = fn->port_id - 1;

	switch (fn->kind) {
	case PCIESW_PCI_RP:
		return PCI_DEVID(h->busn.start, 0);
	case PCIESW_PCI_UP:
		return PCI_DEVID(h->rp->cfg[PCI_SECONDARY_BUS], 0);
	case PCIESW_PCI_DOWN:
		return PCI_DEVID(pciesw_pci_secondary(h->up),
				 pciesw_pci_down_devfn(h->profile, k));
	default:
		return PCI_DEVID(pciesw_pci_secondary(h->down[k]), 0);
	}
}

/* A bridge forwards error messages from below with SERR# Enable. */
static bool pciesw_pci_forwards(const struct pciesw_pci_fn *bridge)
{
	return bridge &&
	       (get16(bridge->cfg, PCI_BRIDGE_CONTROL) & PCI_BRIDGE_CTL_SERR);
}

/*
 * The Root Port receives error message @msg from @id (PCIe 6.2.4.1.2,
 * 7.8.4.10-11): Root Error Status takes the first of each class (and the
 * source's ID) or says there were several; its interrupt follows.  With
 * h->lock held.
 */
static void pciesw_pci_rp_receive(struct pciesw_pci *h, enum pciesw_pci_msg msg,
				  u16 id)
{
	u8 *cfg = h->rp->cfg;
	u32 sta = get32(cfg, ECAP_AER + PCI_ERR_ROOT_STATUS);
	u32 src = get32(cfg, ECAP_AER + PCI_ERR_ROOT_ERR_SRC);

	if (msg == PCIESW_PCI_ERR_COR) {
		if (sta & PCI_ERR_ROOT_COR_RCV) {
			sta |= PCI_ERR_ROOT_MULTI_COR_RCV;
		} else {
			sta |= PCI_ERR_ROOT_COR_RCV;
			src = (src & 0xffff0000) | id;
		}
	} else {
		if (sta & PCI_ERR_ROOT_UNCOR_RCV) {
			sta |= PCI_ERR_ROOT_MULTI_UNCOR_RCV;
		} else {
			sta |= PCI_ERR_ROOT_UNCOR_RCV;
			if (msg == PCIESW_PCI_ERR_FATAL)
				sta |= PCI_ERR_ROOT_FIRST_FATAL;
			src = (src & 0xffff) | (u32)id << 16;
		}
		sta |= msg == PCIESW_PCI_ERR_FATAL ? PCI_ERR_ROOT_FATAL_RCV :
						     PCI_ERR_ROOT_NONFATAL_RCV;
	}
	put32(cfg, ECAP_AER + PCI_ERR_ROOT_STATUS, sta);
	put32(cfg, ECAP_AER + PCI_ERR_ROOT_ERR_SRC, src);
	pciesw_pci_msi_eval(h->rp);
}

/*
 * Does downstream port @fn trigger DPC on receiving @msg (PCIe 6.2.10)?
 * Trigger Enable 01b: on ERR_FATAL, 10b: on ERR_NONFATAL or ERR_FATAL.
 */
static bool pciesw_pci_dpc_receives(const struct pciesw_pci_fn *fn,
				    enum pciesw_pci_msg msg)
{
	u16 en = get16(fn->cfg, ECAP_DPC + PCI_EXP_DPC_CTL) & DPC_CTL_EN;

	if (msg == PCIESW_PCI_ERR_COR)
		return false;
	return en == PCI_EXP_DPC_CTL_EN_NONFATAL ||
	       (en == PCI_EXP_DPC_CTL_EN_FATAL && msg == PCIESW_PCI_ERR_FATAL);
}

/*
 * @fn sends @msg upstream, with h->lock held: through the bridges above it
 * (the downstream port above an endpoint, the upstream port), each of
 * which forwards it with SERR# Enable, over the upstream port's link to
 * the Root Port.  A downstream port whose DPC triggers on the message
 * contains its link instead of forwarding it, its DPC Error Source ID
 * the endpoint's.
 */
static void pciesw_pci_signal(struct pciesw_pci *h, struct pciesw_pci_fn *fn,
			      enum pciesw_pci_msg msg)
{
	struct pciesw_pci_fn *down;

	if (fn->kind == PCIESW_PCI_EP) {
		down = h->down[fn->port_id - 1];
		if (down && pciesw_pci_dpc_receives(down, msg)) {
			put16(down->cfg, ECAP_DPC + PCI_EXP_DPC_SOURCE_ID,
			      pciesw_pci_fn_id(h, fn));
			pciesw_pci_dpc_trigger(h, down,
					       msg == PCIESW_PCI_ERR_FATAL ?
					       DPC_RSN_FE : DPC_RSN_NFE);
			return;
		}
		if (!pciesw_pci_forwards(down))
			return;
	}
	if ((fn->kind == PCIESW_PCI_EP || fn->kind == PCIESW_PCI_DOWN) &&
	    !pciesw_pci_forwards(h->up))
		return;
	if (fn->kind != PCIESW_PCI_RP && !h->rp->active)
		return;
	pciesw_pci_rp_receive(h, msg, pciesw_pci_fn_id(h, fn));
}

/*
 * The Header Log of an uncorrectable TLP error: the TLP it was found in,
 * a one-dword memory write (3DW header, first byte enables 1111b) from
 * the other end of the function's link (the endpoint below a downstream
 * port, the Root Port above the upstream port) to address 0.  An
 * endpoint's: a request of the host's (the Root Port's requester ID, as
 * the CPU's accesses carry), a one-dword memory write, poisoned (EP) for
 * a Poisoned TLP, or the memory read it completed with UR for an
 * advisory Unsupported Request (@err, the error logged).
 */
static void pciesw_pci_header_log(struct pciesw_pci *h, struct pciesw_pci_fn *fn,
				  u32 err)
{
	unsigned int k = fn->port_id - 1;
	u32 dw0 = 0x40000001;	/* MWr, 3DW header, length 1 */
	u16 req = 0;

	if (fn->kind == PCIESW_PCI_DOWN)
		req = PCI_DEVID(pciesw_pci_secondary(h->down[k]), 0);
	if (fn->kind == PCIESW_PCI_EP) {
		req = pciesw_pci_fn_id(h, h->rp);
		if (err == PCI_ERR_UNC_POISON_TLP)
			dw0 |= 0x4000;		/* EP: poisoned */
		else if (err & fn->aer_adv)
			dw0 = 0x00000001;	/* MRd, 3DW, length 1 */
	}
	put32(fn->cfg, ECAP_AER + PCI_ERR_HEADER_LOG, dw0);
	put32(fn->cfg, ECAP_AER + PCI_ERR_HEADER_LOG + 4, (u32)req << 16 | 0xf);
	put32(fn->cfg, ECAP_AER + PCI_ERR_HEADER_LOG + 8, 0);
	put32(fn->cfg, ECAP_AER + PCI_ERR_HEADER_LOG + 12, 0);
}

/*
 * The uncorrectable errors @fn does not signal: those masked, and Surprise
 * Down on a port not Surprise Down Error Reporting Capable (LnkCap; the
 * downstream ports are)
 */
static u32 pciesw_pci_unc_mask(const struct pciesw_pci_fn *fn)
{
	u32 m = get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_MASK);

	if (!(get32(fn->cfg, CAP_EXP + PCI_EXP_LNKCAP) & PCI_EXP_LNKCAP_SDERC))
		m |= PCI_ERR_UNC_SURPDN;
	return m;
}

/*
 * With h->lock: @fn reports its unmasked AER status, one message of each
 * class at a time: ERR_COR with Correctable Error Reporting Enable, and by
 * severity ERR_FATAL or ERR_NONFATAL with its reporting enable in Device
 * Control or SERR# Enable in Command.  While a message's bits are set
 * (software has not cleared them) no other of its class goes: the AER
 * driver reads the whole status when it handles the first, and a message
 * whose status it then finds clear would cost it a device reference.
 */
void pciesw_pci_report(struct pciesw_pci *h, struct pciesw_pci_fn *fn)
{
	u16 devctl = get16(fn->cfg, CAP_EXP + PCI_EXP_DEVCTL);
	u16 cmd = get16(fn->cfg, PCI_COMMAND);
	u32 sev = get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER);
	u32 cor, unc;

	/* the switch's own functions detect no errors */
	if (fn->virt || (!fn->stats && fn->kind != PCIESW_PCI_EP))
		return;
	cor = pciesw_pci_aer_status(fn, true) &
	      ~get32(fn->cfg, ECAP_AER + PCI_ERR_COR_MASK);
	/* an advisory error is reported by ERR_COR alone (PCIe 6.2.3.2.4) */
	unc = pciesw_pci_aer_status(fn, false) & ~pciesw_pci_unc_mask(fn) &
	      ~fn->aer_adv;
	if (cor && !fn->aer_sent_cor && (devctl & PCI_EXP_DEVCTL_CERE)) {
		fn->aer_sent_cor = cor;
		pciesw_pci_signal(h, fn, PCIESW_PCI_ERR_COR);
	}
	if (!unc || fn->aer_sent_unc)
		return;
	if ((unc & sev) &&
	    ((devctl & PCI_EXP_DEVCTL_FERE) || (cmd & PCI_COMMAND_SERR))) {
		fn->aer_sent_unc = unc;
		pciesw_pci_signal(h, fn, PCIESW_PCI_ERR_FATAL);
	} else if ((unc & ~sev) &&
		   ((devctl & PCI_EXP_DEVCTL_NFERE) ||
		    (cmd & PCI_COMMAND_SERR))) {
		fn->aer_sent_unc = unc;
		pciesw_pci_signal(h, fn, PCIESW_PCI_ERR_NONFATAL);
	}
}

/*
 * With h->lock: DPC triggers on downstream port @fn for @reason, unless it
 * is already triggered: Trigger and Interrupt Status are set, and the
 * model holds the link in Disabled until software clears Trigger Status.
 */
void pciesw_pci_dpc_trigger(struct pciesw_pci *h,
			    struct pciesw_pci_fn *fn, u16 reason)
{
	u16 sta = get16(fn->cfg, ECAP_DPC + PCI_EXP_DPC_STATUS);

	if (sta & PCI_EXP_DPC_STATUS_TRIGGER)
		return;
	put16(fn->cfg, ECAP_DPC + PCI_EXP_DPC_STATUS,
	      PCI_EXP_DPC_STATUS_TRIGGER | PCI_EXP_DPC_STATUS_INTERRUPT | reason);
	pciesw_pci_req(h, fn, PCIESW_PCI_REQ_DPC, 1, 0);
}

/*
 * With h->lock: do the uncorrectable errors @unc, unmasked, trigger DPC on
 * @fn?  Trigger Enable says which: 01b fatal ones (by severity), 10b all.
 */
static bool pciesw_pci_dpc_triggers(const struct pciesw_pci_fn *fn, u32 unc)
{
	u16 en = get16(fn->cfg, ECAP_DPC + PCI_EXP_DPC_CTL) & DPC_CTL_EN;

	if (fn->kind != PCIESW_PCI_DOWN || !unc)
		return false;
	if (en == PCI_EXP_DPC_CTL_EN_FATAL)
		return unc & get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER);
	return en == PCI_EXP_DPC_CTL_EN_NONFATAL;
}

/*
 * With h->lock: @fn detected the errors @cor and @unc (their status bits
 * set), @before the uncorrectable status it had, as PCIe's error flow
 * goes (6.2.5): a masked error does nothing more; the first unmasked
 * uncorrectable one (no unmasked status before) of a TLP type fills the
 * Header Log; an error that triggers DPC contains the link; then @fn
 * reports (pciesw_pci_report()).
 */
static void pciesw_pci_detected(struct pciesw_pci *h, struct pciesw_pci_fn *fn,
				u32 cor, u32 unc, u32 before)
{
	u32 umask;

	cor &= ~get32(fn->cfg, ECAP_AER + PCI_ERR_COR_MASK);
	umask = pciesw_pci_unc_mask(fn);
	unc &= ~umask;
	if ((unc & PCIESW_PCI_TLP_ERRORS) && !(before & ~umask) &&
	    !fn->aer_sent_unc && __ffs(unc) == __ffs(unc & PCIESW_PCI_TLP_ERRORS))
		pciesw_pci_header_log(h, fn, BIT(__ffs(unc)));
	/*
	 * An error that triggers DPC is logged but sends no message (PCIe
	 * 6.2.10): the DPC driver reads the status and clears it, until
	 * then no uncorrectable message goes
	 */
	if (pciesw_pci_dpc_triggers(fn, unc)) {
		pciesw_pci_dpc_trigger(h, fn, DPC_RSN_UNCOR);
		fn->aer_sent_unc |= pciesw_pci_aer_status(fn, false) & ~umask;
		unc = 0;
	}
	if (cor || unc)
		pciesw_pci_report(h, fn);
}

/*
 * With h->lock: the errors @fn's counters took since the last call, as
 * PCIe's error flow goes (6.2.5): every error sets its status bit (the
 * counters did), then pciesw_pci_detected().
 */
static void pciesw_pci_errors(struct pciesw_pci *h, struct pciesw_pci_fn *fn)
{
	u32 cor = 0, unc = 0, before = 0, bit;
	unsigned int c;

	if (!fn || !fn->stats)
		return;
	for (c = 0; c < ARRAY_SIZE(fn->aer_seen); c++) {
		u64 v = atomic64_read(&fn->stats->counters[c]);

		bit = pciesw_pci_aer_bit[c];
		/* cleared counters clear the status (pciesw_pci_aer_status()) */
		if (v < fn->aer_base[c])
			fn->aer_base[c] = v;
		if (v < fn->aer_seen[c])
			fn->aer_seen[c] = v;
		if (c > PCIESW_COUNTER_LAST_CORRECTABLE &&
		    fn->aer_seen[c] > fn->aer_base[c])
			before |= bit;
		if (v > fn->aer_seen[c]) {
			if (c <= PCIESW_COUNTER_LAST_CORRECTABLE)
				cor |= bit;
			else
				unc |= bit;
		}
		fn->aer_seen[c] = v;
	}
	pciesw_pci_detected(h, fn, cor, unc, before);
}

/* With sw->lock: signal the errors @port counted (by its function). */
void pciesw_pci_port_errors(struct pciesw_pci *h,
			    const struct pciesw_port *port)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&h->lock, flags);
	if (port->role == PCIESW_PORT_ROLE_UPSTREAM)
		pciesw_pci_errors(h, h->up);
	else if (port->id && port->id - 1 < h->max_down)
		pciesw_pci_errors(h, h->down[port->id - 1]);
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/*
 * With sw->lock: endpoint @ep detected @err (injected), as PCIe's error
 * flow goes (6.2.5): its status bit is set, then pciesw_pci_detected().
 * An Advisory Non-Fatal Error (6.2.3.2.4.1: it completed a request it
 * does not support with UR) sets Unsupported Request status and, if that
 * error's severity is non-fatal, Advisory Non-Fatal status, which ERR_COR
 * reports; with a fatal severity it is an uncorrectable error as any.
 * An endpoint the view does not show (its link down, not scanned yet)
 * signals nothing.
 */
void pciesw_pci_ep_errors(struct pciesw_pci *h,
			  const struct pciesw_endpoint *ep,
			  enum pciesw_ep_aer_error err)
{
	static const u32 bits[] = {
		[PCIESW_EP_AER_ERROR_COMPLETION_TIMEOUT] = PCI_ERR_UNC_COMP_TIME,
		[PCIESW_EP_AER_ERROR_UNSUPPORTED_REQUEST] = PCI_ERR_UNC_UNSUP,
		[PCIESW_EP_AER_ERROR_POISONED_TLP] = PCI_ERR_UNC_POISON_TLP,
		[PCIESW_EP_AER_ERROR_UNCORRECTABLE_INTERNAL] = PCI_ERR_UNC_INTN,
		[PCIESW_EP_AER_ERROR_CORRECTED_INTERNAL] = PCI_ERR_COR_INTERNAL,
		[PCIESW_EP_AER_ERROR_ADVISORY_NON_FATAL] = PCI_ERR_UNC_UNSUP,
	};
	unsigned int k = ep->port->id - 1;
	struct pciesw_pci_fn *fn;
	u32 cor = 0, unc = 0, sta, before;
	unsigned long flags;

	lockdep_assert_held(&h->sw->lock);
	if (err >= ARRAY_SIZE(bits) || k >= h->max_down)
		return;
	raw_spin_lock_irqsave(&h->lock, flags);
	fn = h->ep[k];
	if (!fn || !fn->active)
		goto out;
	if (err == PCIESW_EP_AER_ERROR_CORRECTED_INTERNAL)
		cor = bits[err];
	else
		unc = bits[err];
	sta = pciesw_pci_aer_status(fn, false);
	before = sta & ~fn->aer_adv;
	if (err == PCIESW_EP_AER_ERROR_ADVISORY_NON_FATAL &&
	    !(unc & get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER))) {
		/* a status bit an error already set stays that error's */
		fn->aer_adv |= unc & ~sta;
		cor = PCI_ERR_COR_ADV_NFAT;
	}
	put32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_STATUS, sta | unc);
	put32(fn->cfg, ECAP_AER + PCI_ERR_COR_STATUS,
	      pciesw_pci_aer_status(fn, true) | cor);
	pciesw_pci_detected(h, fn, cor, unc, before);
out:
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/*
 * With sw->lock (which keeps the functions), after the model or software
 * changed config space: the Root Port and the downstream ports send their
 * due messages, without h->lock, which the handlers take through config
 * space.
 */
void pciesw_pci_msi_fire(struct pciesw_pci *h)
{
	struct pciesw_pci_fn *fn;
	unsigned long flags;
	unsigned int k;
	bool send;
	u64 addr = 0;
	u16 data = 0;

	lockdep_assert_held(&h->sw->lock);
	/* the Root Port (k == 0), then downstream port k - 1 */
	for (k = 0; k <= h->max_down; k++) {
		send = false;
		raw_spin_lock_irqsave(&h->lock, flags);
		fn = k ? h->down[k - 1] : h->rp;
		if (fn && pciesw_pci_msi_eval(fn)) {
			fn->msi_send = false;
			addr = (u64)get32(fn->cfg, CAP_MSI + PCI_MSI_ADDRESS_HI) << 32 |
			       get32(fn->cfg, CAP_MSI + PCI_MSI_ADDRESS_LO);
			data = get16(fn->cfg, CAP_MSI + PCI_MSI_DATA_64);
			send = true;
		}
		raw_spin_unlock_irqrestore(&h->lock, flags);
		if (send)
			pciesw_msi_send(h->msi, addr, data);
	}
}

#endif
