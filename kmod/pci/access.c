// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view's config accessors (pciesw_pci_ops).  A config cycle is
 * routed as the switch routes it, by the bus numbers software left in the
 * bridges, to a function's image (config.c).  A read returns the image
 * with its live fields; a write stores the bits software may write and
 * queues what has a meaning to the model (Link Disable, Retrain Link,
 * Target Link Speed, Secondary Bus Reset, ACS redirect, MPS/MRRS, slot
 * power, DPC, VPD) for the request queue (req.c).  The accessors may
 * run in atomic context (x86 has lockless config access): they take only
 * the hierarchy's raw spinlock, never sw->lock.
 */

#include <linux/kernel.h>
#include <linux/ktime.h>

#include "instance.h"

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

/*
 * VPD: a write of the address with F clear asks for the dword there, which
 * is ready at once (F set).  A write (F set) goes to the model, which
 * writes VPD-W by the rules of every view: F clears once it is written;
 * a write it refuses (VPD-R) leaves F set, and software times out rather
 * than believe it.
 */
static void pciesw_pci_vpd_addr(struct pciesw_pci *h, struct pciesw_pci_fn *fn,
				u16 addr)
{
	unsigned int a = addr & PCI_VPD_ADDR_MASK, i;

	if (addr & PCI_VPD_ADDR_F) {
		fn->vpd_addr = addr;
		pciesw_pci_req(h, fn, PCIESW_PCI_REQ_VPD, a, fn->vpd_data);
		return;
	}
	fn->vpd_data = 0;
	for (i = 0; i < 4; i++)
		if (a + i < h->vpd_len)
			fn->vpd_data |= (u32)h->vpd[a + i] << (8 * i);
	fn->vpd_addr = a | PCI_VPD_ADDR_F;
}

/* Bytes of Device Control's encoding (128 << n) */
static u32 pciesw_pci_decode(u32 field)
{
	return 128U << field;
}

/* ACS P2P Egress Control changed: the model takes it; h->lock held. */
static void pciesw_pci_req_egress(struct pciesw_pci *h,
				  struct pciesw_pci_fn *fn)
{
	u64 v = pciesw_pci_acs_egress(fn);

	pciesw_pci_req(h, fn, PCIESW_PCI_REQ_ACS_EGRESS, lower_32_bits(v),
		       upper_32_bits(v));
}

/*
 * The registers whose writes are the model's (Documentation/pci-view.md):
 * queue what they ask for; with h->lock held.  @old is the image before
 * the write; a stateful field is queued when it changes, an edge (Retrain
 * Link, Secondary Bus Reset rising) every time.
 */
static void pciesw_pci_store_model(struct pciesw_pci *h,
				   struct pciesw_pci_fn *fn, unsigned int off,
				   u32 old, u32 val, u32 mask)
{
	bool down = fn->kind == PCIESW_PCI_DOWN;
	u32 v;

	/* no model port behind it: an FLR resets its image, that is all */
	if (fn->virt) {
		if (fn->kind == PCIESW_PCI_EP && off == CAP_EXP + PCI_EXP_DEVCTL &&
		    (mask & val & PCI_EXP_DEVCTL_BCR_FLR))
			pciesw_pci_flr(fn);
		return;
	}
	switch (off) {
	case PCI_COMMAND:
		if (fn->kind == PCIESW_PCI_EP && (mask & PCI_COMMAND_MASTER) &&
		    ((old ^ val) & PCI_COMMAND_MASTER))
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_BUS_MASTER,
				       !!(val & PCI_COMMAND_MASTER), 0);
		break;
	case CAP_EXP + PCI_EXP_DEVCTL:
		if (mask & PCI_EXP_DEVCTL_PAYLOAD) {
			v = pciesw_pci_decode((val & PCI_EXP_DEVCTL_PAYLOAD) >> 5);
			if (v != h->mps)
				pciesw_pci_req(h, fn, PCIESW_PCI_REQ_MPS, v, 0);
		}
		if (fn->kind == PCIESW_PCI_EP &&
		    (mask & PCI_EXP_DEVCTL_READRQ)) {
			v = pciesw_pci_decode((val & PCI_EXP_DEVCTL_READRQ) >> 12);
			if (v != h->mrrs)
				pciesw_pci_req(h, fn, PCIESW_PCI_REQ_MRRS, v, 0);
		}
		/* Initiate Function Level Reset: done at once, reads 0 */
		if (fn->kind == PCIESW_PCI_EP &&
		    (mask & val & PCI_EXP_DEVCTL_BCR_FLR)) {
			pciesw_pci_flr(fn);
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_FLR, 0, 0);
		}
		break;
	case CAP_EXP + PCI_EXP_LNKCTL:
		if (!down)
			break;
		if ((mask & PCI_EXP_LNKCTL_LD) &&
		    ((old ^ val) & PCI_EXP_LNKCTL_LD))
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_ENABLE,
				       !(val & PCI_EXP_LNKCTL_LD), 0);
		if ((mask & val & PCI_EXP_LNKCTL_RL) &&
		    !(val & PCI_EXP_LNKCTL_LD)) {
			fn->rl = true;
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_RETRAIN, 0, 0);
		}
		break;
	case CAP_EXP + PCI_EXP_LNKCTL2:
		if (fn->kind == PCIESW_PCI_EP || !(mask & PCI_EXP_LNKCTL2_TLS))
			break;
		v = val & PCI_EXP_LNKCTL2_TLS;
		if (v != fn->target)
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_TARGET, v, 0);
		break;
	case CAP_EXP + PCI_EXP_SLTCTL:
		if (down && (mask & PCI_EXP_SLTCTL_PCC) &&
		    ((old ^ val) & PCI_EXP_SLTCTL_PCC))
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_POWER,
				       !(val & PCI_EXP_SLTCTL_PCC), 0);
		break;
	case PCI_INTERRUPT_LINE:	/* Bridge Control is the upper half */
		v = PCI_BRIDGE_CTL_BUS_RESET << 16;
		if (down && (mask & val & v) && !(old & v))
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_HOT_RESET, 0, 0);
		break;
	case ECAP_ACS + PCI_ACS_CAP:	/* ACS Control is the upper half */
		v = (PCI_ACS_RR | PCI_ACS_CR) << 16;
		if (down && (mask & v) && !!(val & mask & v) != fn->acs)
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_ACS,
				       !!(val & mask & v), 0);
		if (down && (mask & PCI_ACS_EC << 16) &&
		    ((old ^ val) & PCI_ACS_EC << 16))
			pciesw_pci_req_egress(h, fn);
		break;
	case ECAP_ACS + PCI_ACS_EGRESS_CTL_V:
	case ECAP_ACS + PCI_ACS_EGRESS_CTL_V + 4:
		if (!down)
			break;
		/* one bit per port number: those beyond are not there */
		v = ACS_EGRESS_BITS(h) - 32 * (off != ECAP_ACS +
					       PCI_ACS_EGRESS_CTL_V);
		v = v >= 32 ? ~0U : (int)v > 0 ? (u32)BIT(v) - 1 : 0;
		put32(fn->cfg, off, get32(fn->cfg, off) & v);
		if (get32(fn->cfg, off) != old)
			pciesw_pci_req_egress(h, fn);
		break;
	case ECAP_DPC + PCI_EXP_DPC_CAP:	/* DPC Control is the upper half */
		v = get16(fn->cfg, ECAP_DPC + PCI_EXP_DPC_CTL);
		if (down && (mask & val & DPC_CTL_SW_TRIGGER << 16) &&
		    (v & DPC_CTL_EN))
			pciesw_pci_dpc_trigger(h, fn, DPC_RSN_SW);
		break;
	case ECAP_DPC + PCI_EXP_DPC_STATUS:
		/* Trigger Status cleared: the port leaves DPC, the link trains */
		v = PCI_EXP_DPC_STATUS_TRIGGER;
		if (down && (old & v) && (mask & val & v)) {
			put16(fn->cfg, off, get16(fn->cfg, off) & ~DPC_STATUS_REASON);
			pciesw_pci_req(h, fn, PCIESW_PCI_REQ_DPC, 0, 0);
		}
		break;
	}
}

/* Software writes the bytes @mask of @val at @off; with h->lock held. */
static void pciesw_pci_store(struct pciesw_pci *h, struct pciesw_pci_fn *fn,
			     unsigned int off, u32 val, u32 mask)
{
	u32 old, wm, w1c, v;

	switch (off) {
	case ECAP_AER + PCI_ERR_UNCOR_STATUS:
	case ECAP_AER + PCI_ERR_COR_STATUS:
		pciesw_pci_aer_clear(fn, off == ECAP_AER + PCI_ERR_COR_STATUS,
				     val & mask);
		/* what is still set is reported again; sent by the work */
		pciesw_pci_report(h, fn);
		if (h->rp && pciesw_pci_msi_eval(h->rp))
			queue_work(system_wq, &h->req_work);
		return;
	case CAP_VPD:
		if (fn->kind != PCIESW_PCI_UP)
			break;
		if (mask & 0xffff0000)
			pciesw_pci_vpd_addr(h, fn, val >> 16);
		return;
	case CAP_VPD + PCI_VPD_DATA:
		if (fn->kind != PCIESW_PCI_UP)
			break;
		fn->vpd_data = (fn->vpd_data & ~mask) | (val & mask);
		return;
	case ECAP_SECPCI + SECPCI_LANE_ERR:
		/* write 1 to clear: the BER's part; failed lanes stay */
		if (!pciesw_pci_switch_port(fn->kind))
			break;
		if (val & mask)
			fn->lane_err_base = pciesw_pci_ber_errors(fn);
		return;
	}
	if (pciesw_pci_switch_port(fn->kind) && off >= ECAP_LMR + LMR_LANE(0) &&
	    off < ECAP_LMR + LMR_LANE(PCIESW_PCI_LANES) && (mask & 0xffff)) {
		unsigned int lane = (off - ECAP_LMR - LMR_LANE(0)) / 4;
		u16 ctl = (get16(fn->cfg, off) & ~mask) | (val & mask);

		put16(fn->cfg, off, ctl);
		put16(fn->cfg, off + 2, pciesw_pci_margin(fn, lane, ctl));
		return;
	}
	if (off >= PCIESW_PCI_CFG_LEN)
		return;
	old = get32(fn->cfg, off);
	wm = get32(pciesw_pci_wmask[fn->kind], off) & mask;
	w1c = get32(pciesw_pci_w1cmask[fn->kind], off) & mask;
	v = (old & ~wm) | (val & wm);
	v &= ~(val & w1c);
	put32(fn->cfg, off, v);
	pciesw_pci_store_model(h, fn, off, old, val, mask);
	/* a hot-plug slot completes every Slot Control command at once */
	if (h->hotplug && fn->kind == PCIESW_PCI_DOWN && !fn->virt &&
	    off == CAP_EXP + PCI_EXP_SLTCTL && (mask & 0xffff))
		or16(fn->cfg, CAP_EXP + PCI_EXP_SLTSTA, PCI_EXP_SLTSTA_CC);
	/* the interrupt is sent from process context, by the request work */
	if (pciesw_pci_msi_eval(fn))
		queue_work(system_wq, &h->req_work);
}

/*
 * With h->lock: what answers for endpoint @fn, whose link is up: its
 * placeholder until the real endpoint's link is active (pci_placeholder_ms)
 */
static struct pciesw_pci_fn *pciesw_pci_ep_answers(struct pciesw_pci_fn *fn)
{
	if (fn && fn->ph && ktime_get_ns() < fn->ph_until)
		return fn->ph;
	return fn;
}

/*
 * The function a config cycle on bus @busnr reaches, routed as the switch
 * routes it: by the bus numbers software left in the bridges.
 */
static struct pciesw_pci_fn *pciesw_pci_fn_find(struct pciesw_pci *h,
						unsigned int busnr,
						unsigned int devfn)
{
	struct pciesw_pci_fn *rp = h->rp, *up = h->up;
	unsigned int sec, sub, k;
	int i;

	if (h->dead || !rp)
		return NULL;
	if (busnr == h->busn.start)
		return devfn ? NULL : rp;
	sec = rp->cfg[PCI_SECONDARY_BUS];
	sub = rp->cfg[PCI_SUBORDINATE_BUS];
	if (!sec || busnr < sec || busnr > sub || !up)
		return NULL;
	if (busnr == sec)
		return devfn ? NULL : up;
	sec = up->cfg[PCI_SECONDARY_BUS];
	sub = up->cfg[PCI_SUBORDINATE_BUS];
	if (!sec || busnr < sec || busnr > sub)
		return NULL;
	if (busnr == sec) {
		if (h->mdown && devfn == PCIESW_PCI_MGMT_DEVFN)
			return h->mdown;
		i = pciesw_pci_down_index(h->profile, devfn);
		return i < 0 ? NULL : h->down[i];
	}
	if (h->mdown && busnr == h->mdown->cfg[PCI_SECONDARY_BUS])
		return devfn ? NULL : h->mep;
	/*
	 * An endpoint behind a link that is down does not answer; one whose
	 * first training is firmware's (@boot) was up before software looked
	 */
	for (k = 0; k < h->max_down; k++) {
		struct pciesw_pci_fn *d = h->down[k];

		if (d && d->cfg[PCI_SECONDARY_BUS] == busnr)
			return devfn || !(d->active || d->boot) ? NULL :
				pciesw_pci_ep_answers(h->ep[k]);
	}
	return NULL;
}

/*
 * With h->lock: @fn is an endpoint still initialising after a reset; it
 * completes config requests with Retry Status (pciesw_pci_read()).
 */
static bool pciesw_pci_retry(const struct pciesw_pci_fn *fn)
{
	return fn->kind == PCIESW_PCI_EP && fn->ready_at &&
	       ktime_get_ns() < fn->ready_at;
}

static int pciesw_pci_read(struct pci_bus *bus, unsigned int devfn, int where,
			   int size, u32 *val)
{
	struct pciesw_pci *h = pciesw_pci_of(bus);
	struct pciesw_pci_fn *fn;
	unsigned long flags;
	u32 v;

	if (where < 0 || where + size > PCI_CFG_SPACE_EXP_SIZE) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_BAD_REGISTER_NUMBER;
	}
	raw_spin_lock_irqsave(&h->lock, flags);
	fn = pciesw_pci_fn_find(h, bus->number, devfn);
	/*
	 * Retry Status: with Software Visibility on at the Root Port a read
	 * of the Vendor ID completes as 0001h (the rest of the dword all
	 * ones); the Root Port retries any other until it gives up, all ones
	 */
	if (fn && pciesw_pci_retry(fn))
		v = !where && size >= 2 &&
		    (get16(h->rp->cfg, CAP_EXP + PCI_EXP_RTCTL) &
		     PCI_EXP_RTCTL_CRSSVE) ? 0xffff0001 : ~0U;
	else if (fn)
		v = pciesw_pci_dword(h, fn, where & ~3);
	raw_spin_unlock_irqrestore(&h->lock, flags);
	if (!fn) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	v >>= 8 * (where & 3);
	if (size < 4)
		v &= BIT(8 * size) - 1;
	*val = v;
	return PCIBIOS_SUCCESSFUL;
}

static int pciesw_pci_write(struct pci_bus *bus, unsigned int devfn, int where,
			    int size, u32 val)
{
	struct pciesw_pci *h = pciesw_pci_of(bus);
	unsigned int shift = 8 * (where & 3);
	struct pciesw_pci_fn *fn;
	unsigned long flags;
	u32 mask;

	if (where < 0 || where + size > PCI_CFG_SPACE_EXP_SIZE)
		return PCIBIOS_BAD_REGISTER_NUMBER;
	mask = (size == 4 ? ~0U : BIT(8 * size) - 1) << shift;
	raw_spin_lock_irqsave(&h->lock, flags);
	fn = pciesw_pci_fn_find(h, bus->number, devfn);
	/* a write that only ever gets Retry Status is lost */
	if (fn && !pciesw_pci_retry(fn))
		pciesw_pci_store(h, fn, where & ~3, val << shift, mask);
	raw_spin_unlock_irqrestore(&h->lock, flags);
	return fn ? PCIBIOS_SUCCESSFUL : PCIBIOS_DEVICE_NOT_FOUND;
}

struct pci_ops pciesw_pci_ops = {
	.read = pciesw_pci_read,
	.write = pciesw_pci_write,
};

#endif
