// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view's request queue: the config writes the model takes
 * (access.c queues them), applied in the order software made them by a
 * work item, with sw->lock and through the model's setters, as any other
 * view's request is (pciesw_pci_req_work()); the model's events then bring
 * config space along.  The work also sends the MSI that writes made due.
 */

#include <linux/kernel.h>
#include <linux/workqueue.h>

#include "instance.h"
#include "nvme/nvme.h"

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

/*
 * With sw->lock, after software's Retrain Link or Target Link Speed: the
 * model took it (@ok) and its retrain, if any, is under way: Link Training
 * follows the model from now on, and its end sets LBMS.
 */
static void pciesw_pci_retrain_taken(struct pciesw_pci *h,
				     const struct pciesw_port *port, bool ok)
{
	struct pciesw_pci_fn *fn;
	unsigned long flags;

	if (!port || port->role != PCIESW_PORT_ROLE_DOWNSTREAM ||
	    port->id > h->max_down)
		return;
	raw_spin_lock_irqsave(&h->lock, flags);
	fn = h->down[port->id - 1];
	if (fn) {
		fn->rl = false;
		fn->sw_retrain = ok && (pciesw_link_training(port) ||
					port->link.goal != PCIESW_LINK_IDLE);
		/* a retrain that changes nothing raises no port event */
		pciesw_pci_fn_link(fn, port);
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/*
 * With sw->lock: apply a request to the registers of downstream port
 * @port, through the setter a netlink request of the same change takes.
 */
static int pciesw_pci_req_port(struct pciesw_port *port,
			       const struct pciesw_pci_req *r, const char **why)
{
	switch (r->op) {
	case PCIESW_PCI_REQ_ENABLE:
		return pciesw_port_set_enabled(port, r->a, why);
	case PCIESW_PCI_REQ_RETRAIN:
		return pciesw_port_retrain(port, why);
	case PCIESW_PCI_REQ_TARGET:
		return pciesw_port_set_target_speed(port, r->a, why);
	case PCIESW_PCI_REQ_HOT_RESET:
		return pciesw_port_hot_reset(port, why);
	case PCIESW_PCI_REQ_ACS:
		return pciesw_port_set_acs(port, r->a, why);
	case PCIESW_PCI_REQ_ACS_EGRESS:
		return pciesw_port_set_acs_egress(port,
						  (u64)r->b << 32 | r->a, why);
	case PCIESW_PCI_REQ_POWER:
		return pciesw_port_set_slot_power(port, r->a, why);
	case PCIESW_PCI_REQ_DPC:
		return pciesw_port_set_contained(port, r->a, why);
	case PCIESW_PCI_REQ_BUS_MASTER:
		/*
		 * The function outlived its endpoint, or the view: a driver
		 * unbound as the view goes must not stop the endpoint.
		 */
		if (port->ep && pciesw_switch_setting(port->group->sw,
						      PCIESW_SETTING_PCI_VIEW))
			pciesw_ep_set_bus_master(port->ep, r->a);
		return 0;
	default:
		return -ENODEV;
	}
}

/* With sw->lock: apply one request, as a netlink request would be. */
static void pciesw_pci_req_apply(struct pciesw_pci *h,
				 const struct pciesw_pci_req *r)
{
	struct pciesw_switch *sw = h->sw;
	struct pciesw_settings set = { .set = BIT(PCIESW_SETTING_MPS) };
	struct pciesw_port *port = pciesw_port_find(sw, r->port_id);
	enum pciesw_setting bad;
	const char *why = "no such port";
	unsigned long flags;
	unsigned int k;
	u8 buf[4];
	int err = -ENODEV;

	switch (r->op) {
	case PCIESW_PCI_REQ_MPS:
		set.val[PCIESW_SETTING_MPS] = r->a;
		err = pciesw_switch_set(sw, &set, &bad, &why);
		break;
	case PCIESW_PCI_REQ_MRRS:
		err = pciesw_switch_set_mrrs(sw, r->a, &why);
		break;
	case PCIESW_PCI_REQ_FLR:
		/*
		 * its config space was reset at once; the model logs it, an
		 * NVMe drive's controller resets
		 */
		if (port && port->ep) {
			pciesw_log_ep_flr(port->ep);
			pciesw_nvme_reset(port->ep);
		}
		err = 0;
		break;
	case PCIESW_PCI_REQ_VPD:
		for (k = 0; k < sizeof(buf); k++)
			buf[k] = r->b >> (8 * k);
		err = pciesw_vpd_write(sw, r->a, buf, sizeof(buf), &why);
		/* done: F clears, unless software asked for another since */
		raw_spin_lock_irqsave(&h->lock, flags);
		if (!err && h->up && h->up->vpd_addr == (r->a | PCI_VPD_ADDR_F))
			h->up->vpd_addr = r->a;
		raw_spin_unlock_irqrestore(&h->lock, flags);
		break;
	default:
		if (port)
			err = pciesw_pci_req_port(port, r, &why);
		/* a Retrain Link taken or refused, a Target Link Speed taken */
		if (r->op == PCIESW_PCI_REQ_RETRAIN)
			pciesw_pci_retrain_taken(h, port, !err);
		else if (r->op == PCIESW_PCI_REQ_TARGET && !err)
			pciesw_pci_retrain_taken(h, port, true);
		break;
	}
	if (err)
		pr_info_ratelimited("pciesw: %s: config write (%u) for port %u refused: %s\n",
				    sw->name, r->op, r->port_id, why);
}

/*
 * With sw->lock, after requests were lost: the model takes the stateful
 * fields as the images now hold them.
 */
static void pciesw_pci_req_resync(struct pciesw_pci *h)
{
	struct pciesw_pci_req reqs[6];
	unsigned int k, i, n;
	unsigned long flags;
	u16 ctl, ctl2, acs, dpc, cmd;
	u64 egress;

	pr_warn_ratelimited("pciesw: %s: config writes came faster than the model took them; retrains, resets and VPD writes among them were lost\n",
			    h->sw->name);
	for (k = 0; k < h->max_down; k++) {
		n = 0;
		raw_spin_lock_irqsave(&h->lock, flags);
		if (h->down[k]) {
			ctl = get16(h->down[k]->cfg, CAP_EXP + PCI_EXP_LNKCTL);
			ctl2 = get16(h->down[k]->cfg, CAP_EXP + PCI_EXP_LNKCTL2);
			acs = get16(h->down[k]->cfg, ECAP_ACS + PCI_ACS_CTRL);
			dpc = get16(h->down[k]->cfg,
				    ECAP_DPC + PCI_EXP_DPC_STATUS);
			reqs[n++] = (struct pciesw_pci_req){
				PCIESW_PCI_REQ_ENABLE, k + 1,
				!(ctl & PCI_EXP_LNKCTL_LD), 0 };
			if (ctl2 & PCI_EXP_LNKCTL2_TLS)
				reqs[n++] = (struct pciesw_pci_req){
					PCIESW_PCI_REQ_TARGET, k + 1,
					ctl2 & PCI_EXP_LNKCTL2_TLS, 0 };
			reqs[n++] = (struct pciesw_pci_req){
				PCIESW_PCI_REQ_ACS, k + 1,
				!!(acs & (PCI_ACS_RR | PCI_ACS_CR)), 0 };
			egress = pciesw_pci_acs_egress(h->down[k]);
			reqs[n++] = (struct pciesw_pci_req){
				PCIESW_PCI_REQ_ACS_EGRESS, k + 1,
				lower_32_bits(egress), upper_32_bits(egress) };
			reqs[n++] = (struct pciesw_pci_req){
				PCIESW_PCI_REQ_DPC, k + 1,
				!!(dpc & PCI_EXP_DPC_STATUS_TRIGGER), 0 };
		}
		if (h->ep[k]) {
			cmd = get16(h->ep[k]->cfg, PCI_COMMAND);
			reqs[n++] = (struct pciesw_pci_req){
				PCIESW_PCI_REQ_BUS_MASTER, k + 1,
				!!(cmd & PCI_COMMAND_MASTER), 0 };
		}
		raw_spin_unlock_irqrestore(&h->lock, flags);
		for (i = 0; i < n; i++)
			pciesw_pci_req_apply(h, &reqs[i]);
	}
}

/*
 * The config writes the model takes, in the order software made them,
 * without the config lock; the model's events bring config space along.
 */
void pciesw_pci_req_work(struct work_struct *work)
{
	struct pciesw_pci *h = container_of(work, struct pciesw_pci, req_work);
	struct pciesw_switch *sw = h->sw;
	struct pciesw_pci_req r;
	unsigned long flags;
	const char *why;
	bool lost, live;

	mutex_lock(&sw->lock);
	live = !pciesw_switch_live(sw, &why);
	for (;;) {
		raw_spin_lock_irqsave(&h->lock, flags);
		lost = h->req_lost;
		if (h->req_head == h->req_tail) {
			h->req_lost = false;
			raw_spin_unlock_irqrestore(&h->lock, flags);
			break;
		}
		r = h->req[h->req_tail++ % PCIESW_PCI_NR_REQS];
		raw_spin_unlock_irqrestore(&h->lock, flags);
		if (live)
			pciesw_pci_req_apply(h, &r);
	}
	if (lost && live)
		pciesw_pci_req_resync(h);
	pciesw_pci_msi_fire(h);
	mutex_unlock(&sw->lock);
}

#endif
