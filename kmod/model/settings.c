// SPDX-License-Identifier: GPL-2.0
/*
 * Switch settings: host-p2p, DMA pacing, Max_Payload_Size, DMA channels and
 * the PCI view on/off, with their defaults, and Max_Read_Request_Size (set by
 * the endpoints' Device Control through the PCI view).
 *
 * Every view (dev/bus.c's sysfs files, netlink, pci/host.c at module load)
 * changes them through pciesw_switch_set(), which checks every value before it
 * changes any and sends one PCIESW_EV_SWITCH_CHANGE; they read them through
 * pciesw_switch_setting(). MPS and the DMA channels shape the DMA engine's
 * work, so they are refused while DMA is in flight; the engine applies a new
 * number of channels (pciesw_dma_set_channels()).
 */

#include <linux/kernel.h>
#include <linux/log2.h>

#include "model/event.h"
#include "model/pciesw.h"

/* At switch creation, before the DMA engine (which sizes its channels). */
void pciesw_settings_init(struct pciesw_switch *sw)
{
	sw->host_p2p = true;
	sw->dma_pacing = false;
	sw->mps = PCIESW_MPS_DEFAULT;
	sw->mrrs = PCIESW_MRRS_DEFAULT;
	sw->dma_channels = PCIESW_DMA_CHANNELS_DEFAULT;
	sw->pci_view = true;
}

static void pciesw_switch_changed(struct pciesw_switch *sw)
{
	struct pciesw_event ev = {
		.type = PCIESW_EV_SWITCH_CHANGE,
		.sw = sw,
	};

	pciesw_event(&ev);
}

u32 pciesw_switch_setting(const struct pciesw_switch *sw,
			  enum pciesw_setting s)
{
	lockdep_assert_held(&sw->lock);
	switch (s) {
	case PCIESW_SETTING_HOST_P2P:
		return sw->host_p2p;
	case PCIESW_SETTING_DMA_PACING:
		return sw->dma_pacing;
	case PCIESW_SETTING_MPS:
		return sw->mps;
	case PCIESW_SETTING_DMA_CHANNELS:
		return sw->dma_channels;
	case PCIESW_SETTING_PCI_VIEW:
		return sw->pci_view;
	default:
		return 0;
	}
}

static int pciesw_switch_check(struct pciesw_switch *sw, enum pciesw_setting s,
			       u32 v, const char **why)
{
	switch (s) {
	case PCIESW_SETTING_HOST_P2P:
		if (v > 1) {
			*why = "host-p2p must be 0 or 1";
			return -EINVAL;
		}
		return 0;
	case PCIESW_SETTING_DMA_PACING:
		if (v > 1) {
			*why = "DMA pacing must be 0 or 1";
			return -EINVAL;
		}
		return 0;
	case PCIESW_SETTING_PCI_VIEW:
		if (v > 1) {
			*why = "pci-view must be 0 or 1";
			return -EINVAL;
		}
		if (v && sw->pci_domain == PCIESW_PCI_DOMAIN_NONE) {
			*why = "every PCI domain is named by a bus or firmware: no PCI view";
			return -EBUSY;
		}
		return 0;
	case PCIESW_SETTING_MPS:
		if (v < PCIESW_MPS_MIN || v > PCIESW_MPS_MAX ||
		    !is_power_of_2(v)) {
			*why = "MPS must be a power of 2 from 128 to 4096";
			return -EINVAL;
		}
		break;
	case PCIESW_SETTING_DMA_CHANNELS:
		if (v < 1 || v > PCIESW_DMA_CHANNELS_MAX) {
			*why = "DMA channels must be 1 to 16";
			return -EINVAL;
		}
		break;
	default:
		*why = "unknown setting";
		return -EINVAL;
	}
	if (pciesw_dma_inflight(sw)) {
		*why = "DMA in flight on this switch";
		return -EBUSY;
	}
	return 0;
}

/**
 * pciesw_switch_set - change switch settings
 * @sw: the switch, sw->lock held
 * @s: the settings to change
 * @bad: set to the setting refused, on failure
 * @why: set to a static message on failure
 *
 * Every value is checked before any changes: MPS and DMA channels are
 * refused with -EBUSY while DMA is in flight.  A change of any value sends
 * one PCIESW_EV_SWITCH_CHANGE.
 */
int pciesw_switch_set(struct pciesw_switch *sw, const struct pciesw_settings *s,
		      enum pciesw_setting *bad, const char **why)
{
	bool changed = false;
	unsigned int i;
	int err;

	lockdep_assert_held(&sw->lock);
	err = pciesw_switch_live(sw, why);
	if (err)
		return err;
	for (i = 0; i < PCIESW_NR_SETTINGS; i++) {
		if (!(s->set & BIT(i)))
			continue;
		err = pciesw_switch_check(sw, i, s->val[i], why);
		if (err) {
			*bad = i;
			return err;
		}
	}
	for (i = 0; i < PCIESW_NR_SETTINGS; i++) {
		u32 v = s->val[i];

		if (!(s->set & BIT(i)) || pciesw_switch_setting(sw, i) == v)
			continue;
		changed = true;
		switch (i) {
		case PCIESW_SETTING_HOST_P2P:
			sw->host_p2p = v;
			break;
		case PCIESW_SETTING_DMA_PACING:
			WRITE_ONCE(sw->dma_pacing, v);
			break;
		case PCIESW_SETTING_MPS:
			WRITE_ONCE(sw->mps, v);
			break;
		case PCIESW_SETTING_DMA_CHANNELS:
			sw->dma_channels = v;
			pciesw_dma_set_channels(sw, v);
			break;
		case PCIESW_SETTING_PCI_VIEW:
			sw->pci_view = v;
			break;
		}
	}
	if (changed)
		pciesw_switch_changed(sw);
	/*
	 * Containment is the PCI view's DPC, Bus Master Enable its functions'
	 * bit: what they hold goes with the view.
	 */
	if (changed && !sw->pci_view) {
		struct pciesw_endpoint *ep;
		struct pciesw_port *port;

		pciesw_for_each_port(sw, port)
			if (port->link.contained)
				pciesw_port_set_contained(port, false, why);
		list_for_each_entry(ep, &sw->endpoints, node)
			pciesw_ep_set_bus_master(ep, true);
	}
	return 0;
}

/**
 * pciesw_switch_mrrs - Max_Read_Request_Size the bandwidth model splits
 *	reads by, in bytes
 * @sw: the switch, sw->lock held
 */
u32 pciesw_switch_mrrs(const struct pciesw_switch *sw)
{
	lockdep_assert_held(&sw->lock);
	return sw->mrrs;
}

/**
 * pciesw_switch_set_mrrs - change Max_Read_Request_Size
 * @sw: the switch, sw->lock held
 * @v: bytes, a power of 2 from 128 to 4096
 * @why: set to a static message on failure
 *
 * The endpoints' Device Control sets it (the PCI view); refused like MPS
 * while DMA is in flight.  A change sends a PCIESW_EV_SWITCH_CHANGE.
 */
int pciesw_switch_set_mrrs(struct pciesw_switch *sw, u32 v, const char **why)
{
	int err;

	lockdep_assert_held(&sw->lock);
	err = pciesw_switch_live(sw, why);
	if (err)
		return err;
	if (v < PCIESW_MPS_MIN || v > PCIESW_MPS_MAX || !is_power_of_2(v)) {
		*why = "MRRS must be a power of 2 from 128 to 4096";
		return -EINVAL;
	}
	if (v == sw->mrrs)
		return 0;
	if (pciesw_dma_inflight(sw)) {
		*why = "DMA in flight on this switch";
		return -EBUSY;
	}
	WRITE_ONCE(sw->mrrs, v);
	pciesw_switch_changed(sw);
	return 0;
}
