// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view's config space images: each emulated function (the Root
 * Port, the card's upstream and downstream ports, the endpoints) as
 * firmware leaves it (pciesw_pci_fn_new()), the bits software may write,
 * the link state the model's events bring in (pciesw_pci_fn_link()) and
 * the dword a config read returns, its live fields filled in
 * (pciesw_pci_dword()): AER status from the lockless error counters, Lane
 * Error Status, Lane Margining.  Nothing here takes a lock: the callers
 * hold the hierarchy's (struct pciesw_pci, view.h), own a function no
 * one sees yet, or are module init (the masks).
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "instance.h"

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

/*
 * Bits software can write, and bits it clears by writing 1, by kind: built
 * once at init, read-only afterwards.
 */
u8 pciesw_pci_wmask[PCIESW_PCI_NR_KINDS][PCIESW_PCI_CFG_LEN];
u8 pciesw_pci_w1cmask[PCIESW_PCI_NR_KINDS][PCIESW_PCI_CFG_LEN];

/* The AER status bit of each error counter. */
const u32 pciesw_pci_aer_bit[PCIESW_COUNTER_LAST_UNCORRECTABLE + 1] = {
	[PCIESW_COUNTER_RECEIVER_ERROR] = PCI_ERR_COR_RCVR,
	[PCIESW_COUNTER_BAD_TLP] = PCI_ERR_COR_BAD_TLP,
	[PCIESW_COUNTER_BAD_DLLP] = PCI_ERR_COR_BAD_DLLP,
	[PCIESW_COUNTER_REPLAY_NUM_ROLLOVER] = PCI_ERR_COR_REP_ROLL,
	[PCIESW_COUNTER_REPLAY_TIMER_TIMEOUT] = PCI_ERR_COR_REP_TIMER,
	[PCIESW_COUNTER_ADVISORY_NON_FATAL] = PCI_ERR_COR_ADV_NFAT,
	[PCIESW_COUNTER_CORRECTED_INTERNAL] = PCI_ERR_COR_INTERNAL,
	[PCIESW_COUNTER_HEADER_LOG_OVERFLOW] = PCI_ERR_COR_LOG_OVER,
	[PCIESW_COUNTER_DATA_LINK_PROTOCOL] = PCI_ERR_UNC_DLP,
	[PCIESW_COUNTER_SURPRISE_DOWN] = PCI_ERR_UNC_SURPDN,
	[PCIESW_COUNTER_POISONED_TLP] = PCI_ERR_UNC_POISON_TLP,
	[PCIESW_COUNTER_FLOW_CONTROL_PROTOCOL] = PCI_ERR_UNC_FCP,
	[PCIESW_COUNTER_COMPLETION_TIMEOUT] = PCI_ERR_UNC_COMP_TIME,
	[PCIESW_COUNTER_COMPLETER_ABORT] = PCI_ERR_UNC_COMP_ABORT,
	[PCIESW_COUNTER_UNEXPECTED_COMPLETION] = PCI_ERR_UNC_UNX_COMP,
	[PCIESW_COUNTER_RECEIVER_OVERFLOW] = PCI_ERR_UNC_RX_OVER,
	[PCIESW_COUNTER_MALFORMED_TLP] = PCI_ERR_UNC_MALF_TLP,
	[PCIESW_COUNTER_ECRC] = PCI_ERR_UNC_ECRC,
	[PCIESW_COUNTER_UNSUPPORTED_REQUEST] = PCI_ERR_UNC_UNSUP,
	[PCIESW_COUNTER_ACS_VIOLATION] = PCI_ERR_UNC_ACSV,
};

/* Writable and write-1-to-clear bits of a kind of function. */
void pciesw_pci_masks_init(enum pciesw_pci_kind kind)
{
	u8 *w = pciesw_pci_wmask[kind], *c = pciesw_pci_w1cmask[kind];
	unsigned int i;

	put16(w, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
	      PCI_COMMAND_PARITY | PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE |
	      (pciesw_pci_bridge(kind) ? PCI_COMMAND_IO : 0));
	put16(c, PCI_STATUS, PCI_STATUS_PARITY | PCI_STATUS_SIG_TARGET_ABORT |
	      PCI_STATUS_REC_TARGET_ABORT | PCI_STATUS_REC_MASTER_ABORT |
	      PCI_STATUS_SIG_SYSTEM_ERROR | PCI_STATUS_DETECTED_PARITY);
	w[PCI_CACHE_LINE_SIZE] = 0xff;
	w[PCI_INTERRUPT_LINE] = 0xff;
	if (pciesw_pci_bridge(kind)) {
		w[PCI_PRIMARY_BUS] = 0xff;
		w[PCI_SECONDARY_BUS] = 0xff;
		w[PCI_SUBORDINATE_BUS] = 0xff;
		w[PCI_SEC_LATENCY_TIMER] = 0xff;
		/* windows: real registers, read as disabled until written */
		w[PCI_IO_BASE] = 0xf0;
		w[PCI_IO_LIMIT] = 0xf0;
		put16(c, PCI_SEC_STATUS, PCI_STATUS_PARITY |
		      PCI_STATUS_SIG_TARGET_ABORT | PCI_STATUS_REC_TARGET_ABORT |
		      PCI_STATUS_REC_MASTER_ABORT | PCI_STATUS_SIG_SYSTEM_ERROR |
		      PCI_STATUS_DETECTED_PARITY);
		put32(w, PCI_MEMORY_BASE, 0xfff0fff0);
		put32(w, PCI_PREF_MEMORY_BASE, 0xfff0fff0);
		put32(w, PCI_PREF_BASE_UPPER32, 0xffffffff);
		put32(w, PCI_PREF_LIMIT_UPPER32, 0xffffffff);
		put32(w, PCI_IO_BASE_UPPER16, 0xffffffff);
		put16(w, PCI_BRIDGE_CONTROL, PCI_BRIDGE_CTL_PARITY |
		      PCI_BRIDGE_CTL_SERR | PCI_BRIDGE_CTL_ISA |
		      PCI_BRIDGE_CTL_VGA | PCI_BRIDGE_CTL_MASTER_ABORT |
		      PCI_BRIDGE_CTL_BUS_RESET);
	}
	/* PM: power state, PME enable; PME status is write-1-to-clear */
	put16(w, CAP_PM + PCI_PM_CTRL, PCI_PM_CTRL_STATE_MASK |
	      PCI_PM_CTRL_PME_ENABLE);
	put16(c, CAP_PM + PCI_PM_CTRL, PCI_PM_CTRL_PME_STATUS);
	/* MSI: enable, one message, a 64-bit address */
	put16(w, CAP_MSI + PCI_MSI_FLAGS, PCI_MSI_FLAGS_ENABLE |
	      PCI_MSI_FLAGS_QSIZE);
	put32(w, CAP_MSI + PCI_MSI_ADDRESS_LO, 0xfffffffc);
	put32(w, CAP_MSI + PCI_MSI_ADDRESS_HI, 0xffffffff);
	put16(w, CAP_MSI + PCI_MSI_DATA_64, 0xffff);
	put32(w, CAP_MSI + PCI_MSI_MASK_64, 1);
	/* PCIe */
	put16(w, CAP_EXP + PCI_EXP_DEVCTL, 0x7fff);
	put16(w, CAP_EXP + PCI_EXP_LNKCTL, PCI_EXP_LNKCTL_ASPMC |
	      PCI_EXP_LNKCTL_RCB | PCI_EXP_LNKCTL_LD | PCI_EXP_LNKCTL_CCC |
	      PCI_EXP_LNKCTL_ES | PCI_EXP_LNKCTL_CLKREQ_EN |
	      PCI_EXP_LNKCTL_HAWD | PCI_EXP_LNKCTL_LBMIE |
	      PCI_EXP_LNKCTL_LABIE);
	if (kind == PCIESW_PCI_DOWN) {
		/* indicators are stored, the power controller is the model's */
		put16(w, CAP_EXP + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_DLLSCE |
		      PCI_EXP_SLTCTL_PDCE | PCI_EXP_SLTCTL_MRLSCE |
		      PCI_EXP_SLTCTL_AIC |
		      PCI_EXP_SLTCTL_PIC | PCI_EXP_SLTCTL_PCC |
		      PCI_EXP_SLTCTL_HPIE | PCI_EXP_SLTCTL_CCIE);
		put16(c, CAP_EXP + PCI_EXP_SLTSTA, PCI_EXP_SLTSTA_PDC |
		      PCI_EXP_SLTSTA_DLLSC | PCI_EXP_SLTSTA_CC |
		      PCI_EXP_SLTSTA_MRLSC);
		/* latched on bandwidth changes (pciesw_pci_fn_link()) */
		put16(c, CAP_EXP + PCI_EXP_LNKSTA, PCI_EXP_LNKSTA_LBMS |
		      PCI_EXP_LNKSTA_LABS);
	}
	if (kind == PCIESW_PCI_RP) {
		/* Root Control: stored; Root Status: PME Status */
		put16(w, CAP_EXP + PCI_EXP_RTCTL, PCI_EXP_RTCTL_SECEE |
		      PCI_EXP_RTCTL_SENFEE | PCI_EXP_RTCTL_SEFEE |
		      PCI_EXP_RTCTL_PMEIE | PCI_EXP_RTCTL_CRSSVE);
		put32(c, CAP_EXP + PCI_EXP_RTSTA, PCI_EXP_RTSTA_PME);
		/* Root Error Command; Root Error Status is write 1 to clear */
		put32(w, ECAP_AER + PCI_ERR_ROOT_COMMAND,
		      PCI_ERR_ROOT_CMD_COR_EN | PCI_ERR_ROOT_CMD_NONFATAL_EN |
		      PCI_ERR_ROOT_CMD_FATAL_EN);
		put32(c, ECAP_AER + PCI_ERR_ROOT_STATUS, 0x7f);
	}
	put16(w, CAP_EXP + PCI_EXP_DEVCTL2, 0x07ff);
	/*
	 * LnkCtl2: stored, and the target speed goes to the model (which
	 * Link Control 2 shows); the image keeps what was written, for
	 * pciesw_pci_req_resync()
	 */
	put16(w, CAP_EXP + PCI_EXP_LNKCTL2, 0xffff);
	/*
	 * AER: masks, severity (endpoints: Uncorrectable Internal Error's
	 * too); status is handled in pciesw_pci_store()
	 */
	put32(w, ECAP_AER + PCI_ERR_UNCOR_MASK, 0x003ff030 |
	      (kind == PCIESW_PCI_EP ? PCI_ERR_UNC_INTN : 0));
	put32(w, ECAP_AER + PCI_ERR_UNCOR_SEVER, 0x003ff030 |
	      (kind == PCIESW_PCI_EP ? PCI_ERR_UNC_INTN : 0));
	put32(w, ECAP_AER + PCI_ERR_COR_MASK, 0x0000f1c1);
	/* ECRC generation and checking: the switch ports have both */
	if (pciesw_pci_switch_port(kind))
		put32(w, ECAP_AER + PCI_ERR_CAP, PCI_ERR_CAP_ECRC_GENE |
		      PCI_ERR_CAP_ECRC_CHKE);
	/*
	 * Gen5: Link Control 3, 32 GT/s control, margining lane control;
	 * VC0's TC/VC Map but for TC0, which VC0 always carries
	 */
	if (pciesw_pci_switch_port(kind)) {
		put32(w, ECAP_VC + VC_RES_CTRL, 0xfe);
		put32(w, ECAP_SECPCI + SECPCI_LNKCTL3, 0x3);
		put32(w, ECAP_PL32 + PL_CTL, 0x703);
		for (i = 0; i < PCIESW_PCI_LANES; i++)
			put16(w, ECAP_LMR + LMR_LANE(i), 0xffff);
	}
	/*
	 * ACS: redirect and egress control go to the model (which shows the
	 * redirect), the rest is stored; the vector's bits beyond the
	 * switch's ports are cleared as written (pciesw_pci_store_model())
	 */
	if (kind == PCIESW_PCI_DOWN) {
		put16(w, ECAP_ACS + PCI_ACS_CTRL, ACS_CAPS);
		put32(w, ECAP_ACS + PCI_ACS_EGRESS_CTL_V, 0xffffffff);
		put32(w, ECAP_ACS + PCI_ACS_EGRESS_CTL_V + 4, 0xffffffff);
	}
	/*
	 * DPC: trigger and interrupt enables, Poisoned TLP Egress Blocking
	 * and DL_Active ERR_COR are stored (no ERR_COR goes: a message with
	 * no status bit leaks a device reference in Linux's AER driver,
	 * Documentation/pci-view.md); clearing Trigger Status
	 * releases the link (pciesw_pci_store_model()), Software Trigger
	 * reads 0
	 */
	if (kind == PCIESW_PCI_DOWN) {
		put16(w, ECAP_DPC + PCI_EXP_DPC_CTL, DPC_CTL_EN | DPC_CTL_COMPL |
		      PCI_EXP_DPC_CTL_INT_EN | DPC_CTL_POISONED_TLP |
		      DPC_CTL_DL_ACTIVE);
		put16(c, ECAP_DPC + PCI_EXP_DPC_STATUS,
		      PCI_EXP_DPC_STATUS_TRIGGER | PCI_EXP_DPC_STATUS_INTERRUPT);
	}
}

/* Supported Link Speeds Vector: bit n for generation n */
static u32 pciesw_pci_speeds(u8 max)
{
	return max ? GENMASK(max, 1) : 0;
}

static u16 pciesw_pci_encode(u32 bytes)
{
	return bytes >= 128 ? ilog2(bytes) - 7 : 0;
}

/*
 * The extended capabilities of a switch port after AER, in the order of
 * the real parts' chain: their live fields are filled in on read, from
 * the link.  A downstream port goes on to ACS and DPC.
 */
static void pciesw_pci_port_caps(struct pciesw_pci *h, u8 *cfg,
				 enum pciesw_pci_kind kind,
				 const struct pciesw_port *port)
{
	unsigned int i;

	put32(cfg, ECAP_SECPCI, PCI_EXT_CAP_ID_SECPCI | 1 << 16 |
	      ECAP_VC << 20);
	/* per lane: transmitter preset P7 and receiver hint 2 both ways */
	for (i = 0; i < PCIESW_PCI_LANES; i++)
		put16(cfg, ECAP_SECPCI + SECPCI_LANE_EQ + 2 * i, 0x2727);
	/*
	 * Virtual Channel: VC0 alone, fixed arbitration, one time slot;
	 * VC0 is enabled and carries every traffic class
	 */
	put32(cfg, ECAP_VC, PCI_EXT_CAP_ID_VC | 1 << 16 | ECAP_DLF << 20);
	put32(cfg, ECAP_VC + VC_RES_CAP, 0x1);
	put32(cfg, ECAP_VC + VC_RES_CTRL, PCI_VC_RES_CTRL_ENABLE | 0xff);
	put32(cfg, ECAP_DLF, PCI_EXT_CAP_ID_DLF | 1 << 16 | ECAP_PL16 << 20);
	put32(cfg, ECAP_DLF + DLF_CAP, DLF_SCALED_FC | DLF_EXCHANGE);
	put32(cfg, ECAP_PL16, PCI_EXT_CAP_ID_PL_16GT | 1 << 16 |
	      ECAP_LMR << 20);
	put32(cfg, ECAP_LMR, PCIESW_EXT_CAP_ID_LMR | 1 << 16 |
	      ECAP_PL32 << 20);
	put32(cfg, ECAP_PL32, PCIESW_EXT_CAP_ID_PL_32GT | 1 << 16 |
	      ECAP_VNDR << 20);
	put32(cfg, ECAP_PL32 + PL_CAP, PL32_CAP_EQ_BYPASS);
	for (i = 0; i < PCIESW_PCI_LANES; i++) {
		cfg[ECAP_PL16 + PL_LANE_EQ + i] = 0x77;
		cfg[ECAP_PL32 + PL_LANE_EQ + i] = 0x77;
	}
	/* Broadcom's: ID 0001, revision 0, 16 bytes; what it holds is theirs */
	put32(cfg, ECAP_VNDR, PCI_EXT_CAP_ID_VNDR | 1 << 16 |
	      (kind == PCIESW_PCI_DOWN ? ECAP_ACS : 0) << 20);
	put32(cfg, ECAP_VNDR + VNDR_HEADER, VNDR_LEN << 20 | 0x0001);
	if (kind != PCIESW_PCI_DOWN)
		return;
	/*
	 * ACS: all a switch's downstream port can have; egress control as
	 * the model has it (the view may come after software set it)
	 */
	put32(cfg, ECAP_ACS, PCI_EXT_CAP_ID_ACS | 1 << 16 | ECAP_DPC << 20);
	put16(cfg, ECAP_ACS + PCI_ACS_CAP, ACS_CAPS |
	      (ACS_EGRESS_BITS(h) & 0xff) << 8);
	if (port->acs_egress) {
		put16(cfg, ECAP_ACS + PCI_ACS_CTRL, PCI_ACS_EC);
		put32(cfg, ECAP_ACS + PCI_ACS_EGRESS_CTL_V,
		      lower_32_bits(port->acs_egress));
		put32(cfg, ECAP_ACS + PCI_ACS_EGRESS_CTL_V + 4,
		      upper_32_bits(port->acs_egress));
	}
	/*
	 * DPC: Poisoned TLP Egress Blocking, Software Triggering, DL_Active
	 * ERR_COR signaling; no Root Port extensions
	 */
	put32(cfg, ECAP_DPC, PCI_EXT_CAP_ID_DPC | 1 << 16);
	put16(cfg, ECAP_DPC + PCI_EXP_DPC_CAP, PCI_EXP_DPC_CAP_POISONED_TLP |
	      PCI_EXP_DPC_CAP_SW_TRIGGER | PCI_EXP_DPC_CAP_DL_ACTIVE);
}

/*
 * A function as firmware leaves it.  @k: the downstream index; @port: the
 * port it is or is behind (the Root Port: the upstream port, the other end
 * of its link); @ep: the endpoint (PCIESW_PCI_EP).
 */
struct pciesw_pci_fn *pciesw_pci_fn_new(struct pciesw_pci *h,
					enum pciesw_pci_kind kind,
					unsigned int k,
					const struct pciesw_port *port,
					const struct pciesw_endpoint *ep)
{
	const struct pciesw_profile *prof = h->profile;
	struct pciesw_pci_fn *fn;
	u8 *cfg, max_width, type;
	unsigned int i;
	u32 lnkcap;

	fn = kzalloc(sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return NULL;
	fn->kind = kind;
	fn->port_id = kind == PCIESW_PCI_UP || kind == PCIESW_PCI_RP ? 0 :
		      k + 1;
	fn->lmr_limit = 4;	/* the default error count limit */
	cfg = fn->cfg;
	put16(cfg, PCI_VENDOR_ID, PCIESW_PCI_VENDOR);
	put16(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST);
	cfg[PCI_REVISION_ID] = PCIESW_PCI_REVISION;
	cfg[PCI_CAPABILITY_LIST] = CAP_PM;
	if (kind == PCIESW_PCI_EP && !ep) {
		/* the switch's management endpoint (pciesw_pci_mgmt_new()) */
		put16(cfg, PCI_DEVICE_ID, PCIESW_PCI_MGMT_DEVICE);
		put32(cfg, PCI_CLASS_REVISION,
		      PCIESW_PCI_MGMT_CLASS << 8 | PCIESW_PCI_REVISION);
		cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_NORMAL;
		put16(cfg, PCI_SUBSYSTEM_VENDOR_ID, PCIESW_PCI_VENDOR);
		put16(cfg, PCI_SUBSYSTEM_ID, prof->pci_subdevice);
		fn->max_speed = port->max_speed;
		max_width = 1;
		type = PCI_EXP_TYPE_ENDPOINT;
	} else if (kind == PCIESW_PCI_EP) {
		const struct pciesw_ep_ident *id = &ep->ident;

		/* the IDs it was plugged in with (the type's by default) */
		put16(cfg, PCI_VENDOR_ID, id->vendor);
		put16(cfg, PCI_DEVICE_ID, id->device);
		put32(cfg, PCI_CLASS_REVISION,
		      id->class_code << 8 | id->revision);
		cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_NORMAL;
		put16(cfg, PCI_SUBSYSTEM_VENDOR_ID, id->subsys_vendor);
		put16(cfg, PCI_SUBSYSTEM_ID, id->subsys_device);
		fn->max_speed = ep->max_speed;
		max_width = ep->max_width;
		type = PCI_EXP_TYPE_ENDPOINT;
	} else {
		put16(cfg, PCI_DEVICE_ID, kind == PCIESW_PCI_RP ?
		      PCIESW_PCI_RP_DEVICE : prof->pci_device);
		put32(cfg, PCI_CLASS_REVISION,
		      PCI_CLASS_BRIDGE_PCI << 16 | PCIESW_PCI_REVISION);
		cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_BRIDGE;
		/* SERR# Enable: firmware lets error messages through */
		put16(cfg, PCI_BRIDGE_CONTROL, PCI_BRIDGE_CTL_SERR);
		if (kind == PCIESW_PCI_RP) {
			cfg[PCI_PRIMARY_BUS] = 0;
			cfg[PCI_SECONDARY_BUS] = PCIESW_PCI_UP_BUS;
			cfg[PCI_SUBORDINATE_BUS] = h->busn.end;
			type = PCI_EXP_TYPE_ROOT_PORT;
		} else if (kind == PCIESW_PCI_UP) {
			cfg[PCI_PRIMARY_BUS] = PCIESW_PCI_UP_BUS;
			cfg[PCI_SECONDARY_BUS] = PCIESW_PCI_INT_BUS;
			cfg[PCI_SUBORDINATE_BUS] = h->busn.end;
			type = PCI_EXP_TYPE_UPSTREAM;
		} else {
			if (pciesw_pci_multifunction(prof) && !(k % 8))
				cfg[PCI_HEADER_TYPE] |= 0x80;
			cfg[PCI_PRIMARY_BUS] = PCIESW_PCI_INT_BUS;
			cfg[PCI_SECONDARY_BUS] = PCIESW_PCI_EP_BUS(k);
			cfg[PCI_SUBORDINATE_BUS] = PCIESW_PCI_EP_BUS(k);
			type = PCI_EXP_TYPE_DOWNSTREAM;
		}
		/* no windows: I/O F0/00, memory FFF0/0000, prefetchable 64-bit */
		cfg[PCI_IO_BASE] = 0xf0;
		cfg[PCI_IO_LIMIT] = 0x00;
		put16(cfg, PCI_MEMORY_BASE, 0xfff0);
		put16(cfg, PCI_MEMORY_LIMIT, 0x0000);
		put16(cfg, PCI_PREF_MEMORY_BASE, 0xfff1);
		put16(cfg, PCI_PREF_MEMORY_LIMIT, 0x0001);
		fn->max_speed = port->max_speed;
		max_width = port->nr_lanes;
		if (kind != PCIESW_PCI_RP)
			fn->stats = port->stats;
	}

	/* PM: D0, no soft reset from D3hot */
	cfg[CAP_PM] = PCI_CAP_ID_PM;
	cfg[CAP_PM + PCI_CAP_LIST_NEXT] = CAP_MSI;
	put16(cfg, CAP_PM + PCI_PM_PMC, 3);
	put16(cfg, CAP_PM + PCI_PM_CTRL, PCI_PM_CTRL_NO_SOFT_RESET);
	/* MSI: one message, 64-bit, per-vector masking */
	cfg[CAP_MSI] = PCI_CAP_ID_MSI;
	cfg[CAP_MSI + PCI_CAP_LIST_NEXT] = CAP_EXP;
	put16(cfg, CAP_MSI + PCI_MSI_FLAGS, PCI_MSI_FLAGS_64BIT |
	      PCI_MSI_FLAGS_MASKBIT);

	/* PCI Express */
	cfg[CAP_EXP] = PCI_CAP_ID_EXP;
	cfg[CAP_EXP + PCI_CAP_LIST_NEXT] = kind == PCIESW_PCI_EP ? 0 : CAP_SSVID;
	put16(cfg, CAP_EXP + PCI_EXP_FLAGS, 2 | type << 4 |
	      (kind == PCIESW_PCI_DOWN ? PCI_EXP_FLAGS_SLOT : 0));
	/* the switch ports take TLPs of up to 512 bytes, as Broadcom's */
	put32(cfg, CAP_EXP + PCI_EXP_DEVCAP,
	      pciesw_pci_encode(pciesw_pci_switch_port(kind) ? 512 :
				PCIESW_MPS_MAX) | PCI_EXP_DEVCAP_RBER);
	/*
	 * a switch port routes AtomicOps and completes 10-bit tags; a
	 * downstream port forwards ARI
	 */
	if (pciesw_pci_switch_port(kind))
		put32(cfg, CAP_EXP + PCI_EXP_DEVCAP2,
		      PCI_EXP_DEVCAP2_ATOMIC_ROUTE |
		      PCIESW_DEVCAP2_10BIT_TAG_COMP |
		      (kind == PCIESW_PCI_DOWN ? PCI_EXP_DEVCAP2_ARI : 0));
	if (kind == PCIESW_PCI_EP) {
		/*
		 * An endpoint as Gen5 GPUs and drives are: 8-bit tags, Function
		 * Level Reset (pciesw_pci_flr()); completion timeouts of every
		 * range, which can be disabled, and 10-bit tags as completer
		 */
		put32(cfg, CAP_EXP + PCI_EXP_DEVCAP,
		      get32(cfg, CAP_EXP + PCI_EXP_DEVCAP) |
		      PCI_EXP_DEVCAP_EXT_TAG | PCI_EXP_DEVCAP_FLR);
		put32(cfg, CAP_EXP + PCI_EXP_DEVCAP2,
		      PCI_EXP_DEVCAP2_COMP_TMOUT_DIS | 0xf |
		      PCIESW_DEVCAP2_10BIT_TAG_COMP);
	}
	put16(cfg, CAP_EXP + PCI_EXP_DEVCTL, PCI_EXP_DEVCTL_RELAX_EN |
	      PCI_EXP_DEVCTL_NOSNOOP_EN |
	      pciesw_pci_encode(PCIESW_MPS_DEFAULT) << 5 |
	      pciesw_pci_encode(PCIESW_MRRS_DEFAULT) << 12);
	lnkcap = fn->max_speed | max_width << 4;
	if (kind == PCIESW_PCI_DOWN || kind == PCIESW_PCI_RP)
		lnkcap |= PCI_EXP_LNKCAP_DLLLARC | PCI_EXP_LNKCAP_LBNC;
	/* a downstream port reports a surprise down (and DPC contains it) */
	if (kind == PCIESW_PCI_DOWN)
		lnkcap |= PCI_EXP_LNKCAP_SDERC;
	if (pciesw_pci_switch_port(kind))
		lnkcap |= port->id << 24;
	put32(cfg, CAP_EXP + PCI_EXP_LNKCAP, lnkcap);
	if (kind == PCIESW_PCI_DOWN) {
		/*
		 * hot-plug: a power controller, an MRL sensor (the latch is
		 * always closed), indicators, no attention button; the device
		 * may go without warning (Hot-Plug Surprise), as on
		 * Broadcom's downstream ports
		 */
		put32(cfg, CAP_EXP + PCI_EXP_SLTCAP, port->id << 19 |
		      PCI_EXP_SLTCAP_PCP | PCI_EXP_SLTCAP_MRLSP |
		      PCI_EXP_SLTCAP_AIP |
		      PCI_EXP_SLTCAP_PIP |
		      (h->hotplug ? PCI_EXP_SLTCAP_HPC |
				    PCI_EXP_SLTCAP_HPS : 0));
		/* indicators on: the slot is powered */
		put16(cfg, CAP_EXP + PCI_EXP_SLTCTL, PCI_EXP_SLTCTL_ATTN_IND_OFF |
		      PCI_EXP_SLTCTL_PWR_IND_ON);
	}
	put32(cfg, CAP_EXP + PCI_EXP_LNKCAP2, pciesw_pci_speeds(fn->max_speed));
	/* Retry Status of a resetting endpoint can be shown to software */
	if (kind == PCIESW_PCI_RP)
		put16(cfg, CAP_EXP + PCI_EXP_RTCAP, PCI_EXP_RTCAP_CRSVIS);

	if (kind != PCIESW_PCI_EP) {
		cfg[CAP_SSVID] = PCI_CAP_ID_SSVID;
		cfg[CAP_SSVID + PCI_CAP_LIST_NEXT] =
			kind == PCIESW_PCI_UP ? CAP_VPD : 0;
		put16(cfg, CAP_SSVID + 4, PCIESW_PCI_VENDOR);
		put16(cfg, CAP_SSVID + 6, prof->pci_subdevice);
	}
	if (kind == PCIESW_PCI_UP) {
		cfg[CAP_VPD] = PCI_CAP_ID_VPD;
		cfg[CAP_VPD + PCI_CAP_LIST_NEXT] = 0;
	}

	/*
	 * extended: DSN (the Root Port: a null capability, for AER must
	 * be reached from 0x100), AER, the switch ports' others
	 */
	if (kind == PCIESW_PCI_RP)
		put32(cfg, ECAP_DSN, ECAP_AER << 20);
	/* the management endpoint is the switch's too: its DSN */
	if (pciesw_pci_switch_port(kind) || (kind == PCIESW_PCI_EP && !ep)) {
		put32(cfg, ECAP_DSN, PCI_EXT_CAP_ID_DSN | 1 << 16 |
		      ECAP_AER << 20);
		put32(cfg, ECAP_DSN + 4, lower_32_bits(h->dsn));
		put32(cfg, ECAP_DSN + 8, upper_32_bits(h->dsn));
	}
	/*
	 * An endpoint's DSN: the card's serial number above the endpoint's
	 * (unique in the switch for ever), as a part's DSN is its own
	 */
	if (kind == PCIESW_PCI_EP && ep) {
		put32(cfg, ECAP_DSN, PCI_EXT_CAP_ID_DSN | 1 << 16 |
		      ECAP_AER << 20);
		put32(cfg, ECAP_DSN + 4, lower_32_bits(ep->serial));
		put32(cfg, ECAP_DSN + 8, lower_32_bits(h->dsn));
	}
	put32(cfg, ECAP_AER, PCI_EXT_CAP_ID_ERR | 2 << 16 |
	      (pciesw_pci_switch_port(kind) ? ECAP_SECPCI : 0) << 20);
	put32(cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER, PCI_ERR_UNC_DLP |
	      PCI_ERR_UNC_SURPDN | PCI_ERR_UNC_FCP | PCI_ERR_UNC_RX_OVER |
	      PCI_ERR_UNC_MALF_TLP);
	put32(cfg, ECAP_AER + PCI_ERR_COR_MASK, PCI_ERR_COR_ADV_NFAT);
	/*
	 * An endpoint detects internal errors (PCIe 6.2.9), fatal by
	 * default, and has the spec's default masks: internal errors,
	 * Advisory Non-Fatal and Header Log Overflow masked (software
	 * unmasks what it wants reported)
	 */
	if (kind == PCIESW_PCI_EP) {
		put32(cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER,
		      get32(cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER) |
		      PCI_ERR_UNC_INTN);
		put32(cfg, ECAP_AER + PCI_ERR_UNCOR_MASK, PCI_ERR_UNC_INTN);
		put32(cfg, ECAP_AER + PCI_ERR_COR_MASK, PCI_ERR_COR_ADV_NFAT |
		      PCI_ERR_COR_INTERNAL | PCI_ERR_COR_LOG_OVER);
	}
	if (pciesw_pci_switch_port(kind))
		put32(cfg, ECAP_AER + PCI_ERR_CAP, PCI_ERR_CAP_ECRC_GENC |
		      PCI_ERR_CAP_ECRC_CHKC);
	/*
	 * A surprise removal from a hot-plug slot is the hot-plug driver's
	 * to handle, not an error (PCIe r6.0 6.7.6): firmware masks Surprise
	 * Down there, so no ERR_FATAL (or DPC) races pciehp over the slot.
	 */
	if (kind == PCIESW_PCI_DOWN && h->hotplug)
		put32(cfg, ECAP_AER + PCI_ERR_UNCOR_MASK, PCI_ERR_UNC_SURPDN);
	if (pciesw_pci_switch_port(kind))
		pciesw_pci_port_caps(h, cfg, kind, port);
	/* only errors from now on are signalled */
	if (fn->stats)
		for (i = 0; i < ARRAY_SIZE(fn->aer_seen); i++)
			fn->aer_seen[i] =
				atomic64_read(&fn->stats->counters[i]);
	/* what a Function Level Reset brings back */
	if (kind == PCIESW_PCI_EP) {
		fn->cfg0 = kmemdup(cfg, PCIESW_PCI_CFG_LEN, GFP_KERNEL);
		if (!fn->cfg0) {
			kfree(fn);
			return NULL;
		}
	}
	return fn;
}

void pciesw_pci_fn_free(struct pciesw_pci_fn *fn)
{
	if (fn) {
		pciesw_pci_fn_free(fn->ph);
		kfree(fn->cfg0);
	}
	kfree(fn);
}

/*
 * Function Level Reset of endpoint @fn (Initiate Function Level Reset in
 * Device Control); with h->lock held.  Config space is back to what
 * firmware left (Command, the MSI and Device Control enables, power
 * state...) but for what FLR leaves alone (PCIe r6.0 6.6.2): the sticky
 * AER registers and Link Control, the link's.  The model logs it.
 */
void pciesw_pci_flr(struct pciesw_pci_fn *fn)
{
	u8 aer[PCIESW_PCI_CFG_LEN - ECAP_AER];
	u16 lnkctl;

	memcpy(aer, fn->cfg + ECAP_AER, sizeof(aer));
	lnkctl = get16(fn->cfg, CAP_EXP + PCI_EXP_LNKCTL);
	memcpy(fn->cfg, fn->cfg0, PCIESW_PCI_CFG_LEN);
	memcpy(fn->cfg + ECAP_AER, aer, sizeof(aer));
	put16(fn->cfg, CAP_EXP + PCI_EXP_LNKCTL, lnkctl);
	fn->msi_line = false;
	fn->msi_send = false;
}

/*
 * A downstream port's Link Status latches bandwidth changes of a link that
 * stays up: Link Bandwidth Management Status when software's retrain
 * ended or lanes failed or came back (unreliable operation), Link
 * Autonomous Bandwidth Status when the switch changed it for another
 * reason (a target speed or retrain from its management interface).
 */
static void pciesw_pci_fn_bandwidth(struct pciesw_pci_fn *fn,
				    const struct pciesw_port *port, bool active)
{
	const struct pciesw_link *link = &port->link;
	bool changed = fn->active && active &&
		       (fn->speed != link->speed || fn->width != link->width);
	bool settled = active && !pciesw_link_training(port);
	u16 bits = 0;

	/*
	 * The view may first see the new lanes while the old width still
	 * holds, and the narrower link only when the retrain ends.
	 */
	if (fn->failed_lanes != link->failed_lanes)
		fn->lanes_changed = true;
	if (changed)
		bits = fn->sw_retrain || fn->lanes_changed ?
		       PCI_EXP_LNKSTA_LBMS : PCI_EXP_LNKSTA_LABS;
	if (fn->sw_retrain && settled) {
		bits |= PCI_EXP_LNKSTA_LBMS;
		fn->sw_retrain = false;
	}
	/* the retrain the lanes caused is over (@training: it was under way) */
	if (settled && (changed || fn->training))
		fn->lanes_changed = false;
	or16(fn->cfg, CAP_EXP + PCI_EXP_LNKSTA, bits);
}

/*
 * Take the link state of @port into @fn; with h->lock held.  A downstream
 * port latches presence and link-active changes in its Slot Status, and
 * its Link Control, Link Control 2 and ACS Control show the model's link
 * enable, target speed and redirect (which software's writes go to).
 */
void pciesw_pci_fn_link(struct pciesw_pci_fn *fn,
			const struct pciesw_port *port)
{
	const struct pciesw_link *link = &port->link;
	bool active = pciesw_link_active(port);
	u16 v;

	if (fn->kind == PCIESW_PCI_DOWN) {
		if (fn->boot && active)
			fn->boot = false;
		else if (active != fn->active)
			or16(fn->cfg, CAP_EXP + PCI_EXP_SLTSTA,
			     PCI_EXP_SLTSTA_DLLSC);
		if (!port->ep)
			fn->boot = false;
		if (!!port->ep != fn->present)
			or16(fn->cfg, CAP_EXP + PCI_EXP_SLTSTA,
			     PCI_EXP_SLTSTA_PDC);
		fn->present = !!port->ep;
		fn->acs = port->acs_redirect;
		pciesw_pci_fn_bandwidth(fn, port, active);
		fn->training = pciesw_link_training(port);
		v = get16(fn->cfg, CAP_EXP + PCI_EXP_LNKCTL) &
		    ~PCI_EXP_LNKCTL_LD;
		put16(fn->cfg, CAP_EXP + PCI_EXP_LNKCTL,
		      v | (link->enabled ? 0 : PCI_EXP_LNKCTL_LD));
		v = get16(fn->cfg, CAP_EXP + PCI_EXP_SLTCTL) &
		    ~PCI_EXP_SLTCTL_PCC;
		put16(fn->cfg, CAP_EXP + PCI_EXP_SLTCTL,
		      v | (port->power_off ? PCI_EXP_SLTCTL_PCC : 0));
		v = get16(fn->cfg, ECAP_ACS + PCI_ACS_CTRL) &
		    ~(PCI_ACS_RR | PCI_ACS_CR);
		put16(fn->cfg, ECAP_ACS + PCI_ACS_CTRL,
		      v | (fn->acs ? PCI_ACS_RR | PCI_ACS_CR : 0));
	}
	fn->failed_lanes = link->failed_lanes;
	fn->active = active;
	fn->speed = active ? link->speed : 0;
	fn->width = active ? link->width : 0;
	fn->target = link->target_speed ? link->target_speed :
					  port->max_speed;
	if (fn->kind != PCIESW_PCI_EP) {
		v = get16(fn->cfg, CAP_EXP + PCI_EXP_LNKCTL2) &
		    ~PCI_EXP_LNKCTL2_TLS;
		put16(fn->cfg, CAP_EXP + PCI_EXP_LNKCTL2, v | fn->target);
	}
}

/*
 * AER status from the counters: bits whose counter moved since cleared,
 * and those an error message reported, until software clears them (the
 * AER driver must find what the message said, whatever the counters do).
 * An endpoint, which has no counters, keeps its status in the image
 * (pciesw_pci_ep_error()).
 */
u32 pciesw_pci_aer_status(struct pciesw_pci_fn *fn, bool corr)
{
	unsigned int first = corr ? PCIESW_COUNTER_FIRST_CORRECTABLE :
				    PCIESW_COUNTER_FIRST_UNCORRECTABLE;
	unsigned int last = corr ? PCIESW_COUNTER_LAST_CORRECTABLE :
				   PCIESW_COUNTER_LAST_UNCORRECTABLE;
	unsigned int c;
	u32 status = 0;

	if (fn->kind == PCIESW_PCI_EP)
		return get32(fn->cfg, ECAP_AER + (corr ? PCI_ERR_COR_STATUS :
						  PCI_ERR_UNCOR_STATUS));
	if (!fn->stats)
		return 0;
	for (c = first; c <= last; c++) {
		u64 v = atomic64_read(&fn->stats->counters[c]);

		/* the counters were cleared: so is the status */
		if (v < fn->aer_base[c])
			fn->aer_base[c] = v;
		if (v > fn->aer_base[c])
			status |= pciesw_pci_aer_bit[c];
	}
	return status | (corr ? fn->aer_sent_cor : fn->aer_sent_unc);
}

void pciesw_pci_aer_clear(struct pciesw_pci_fn *fn, bool corr, u32 bits)
{
	unsigned int first = corr ? PCIESW_COUNTER_FIRST_CORRECTABLE :
				    PCIESW_COUNTER_FIRST_UNCORRECTABLE;
	unsigned int last = corr ? PCIESW_COUNTER_LAST_CORRECTABLE :
				   PCIESW_COUNTER_LAST_UNCORRECTABLE;
	unsigned int c;

	if (corr)
		fn->aer_sent_cor &= ~bits;
	else
		fn->aer_sent_unc &= ~bits;
	if (!corr)
		fn->aer_adv &= ~bits;
	if (fn->kind == PCIESW_PCI_EP) {
		c = ECAP_AER + (corr ? PCI_ERR_COR_STATUS : PCI_ERR_UNCOR_STATUS);
		put32(fn->cfg, c, get32(fn->cfg, c) & ~bits);
		return;
	}
	if (!fn->stats)
		return;
	for (c = first; c <= last; c++)
		if (bits & pciesw_pci_aer_bit[c])
			fn->aer_base[c] =
				atomic64_read(&fn->stats->counters[c]);
}

/* BER errors of @fn's link so far (the count restarts with a new rate) */
u64 pciesw_pci_ber_errors(struct pciesw_pci_fn *fn)
{
	u64 v = fn->stats ? atomic64_read(&fn->stats->ber_errors) : 0;

	if (v < fn->lane_err_base)
		fn->lane_err_base = v;
	return v;
}

/*
 * Secondary PCI Express Lane Error Status: the failed lanes of the port,
 * and every lane of the link once the injected bit-error rate has made an
 * error since software last cleared it.
 */
static u32 pciesw_pci_lane_errors(struct pciesw_pci_fn *fn)
{
	u32 v = fn->failed_lanes;

	if (fn->width && pciesw_pci_ber_errors(fn) > fn->lane_err_base)
		v |= GENMASK(fn->width - 1, 0);
	return v;
}

/*
 * Lane Margining at the Receiver: carry out the command software wrote to
 * @lane's Lane Control, answering from the model's link, and return the
 * Lane Status.  A lane's eye is as wide as its bit-error rate allows (a
 * healthy lane passes 3/4 of the steps the receiver reports, a rate of
 * 1e-12, 1e-9, 1e-6 narrows it to 1/2, 1/4, 1/8); a step beyond it makes
 * errors, 8 a step, which past the error count limit stop the margining.
 * A lane that is not in a 16 or 32 GT/s link (failed, beyond the width)
 * answers a step with NAK.
 */
u16 pciesw_pci_margin(struct pciesw_pci_fn *fn, unsigned int lane,
		      u16 ctl)
{
	unsigned int type = FIELD_GET(LMR_TYPE, ctl);
	unsigned int pl = FIELD_GET(LMR_PAYLOAD, ctl);
	u64 ber = fn->stats ? READ_ONCE(fn->stats->ber) : 0;
	unsigned int steps, eye, errors, resp = pl;
	bool up = fn->speed >= PCIESW_LINK_SPEED_GEN4 && lane < fn->width &&
		  !(fn->failed_lanes & BIT(lane));

	switch (type) {
	case LMR_TYPE_REPORT:
		switch (pl) {
		case 0x88:	/* voltage supported, independent left/right */
			resp = 0x05;
			break;
		case 0x89:
			resp = LMR_VOLTAGE_STEPS;
			break;
		case 0x8a:
			resp = LMR_TIMING_STEPS;
			break;
		case 0x8b:	/* % of a UI */
			resp = 50;
			break;
		case 0x8c:	/* 10 mV units */
			resp = 50;
			break;
		case 0x8d:
		case 0x8e:
			resp = 63;
			break;
		case 0x8f:
			resp = 0;
			break;
		case 0x90:	/* every lane at once, encoded as lanes - 1 */
			resp = PCIESW_PCI_LANES - 1;
			break;
		default:
			return 0;
		}
		break;
	case LMR_TYPE_SET:
		if ((pl & 0xc0) == 0xc0)
			fn->lmr_limit = pl & 0x3f;
		else if (pl != 0x0f && pl != 0x55)
			return 0;
		break;
	case LMR_TYPE_TIMING:
	case LMR_TYPE_VOLTAGE:
		if (!up) {
			resp = 0xc0;	/* NAK */
			break;
		}
		steps = type == LMR_TYPE_TIMING ? pl & 0x3f : pl & 0x7f;
		eye = type == LMR_TYPE_TIMING ? LMR_TIMING_STEPS :
						LMR_VOLTAGE_STEPS;
		if (ber >= PCIESW_BER_SCALE / 1000000)
			eye /= 8;
		else if (ber >= PCIESW_BER_SCALE / 1000000000)
			eye /= 4;
		else if (ber >= PCIESW_BER_SCALE / 1000000000000ULL)
			eye /= 2;
		else
			eye = eye * 3 / 4;
		errors = steps > eye ? min(63U, (steps - eye) * 8) : 0;
		/* 10b: margining in progress, 00b: too many errors */
		resp = (errors > fn->lmr_limit ? 0 : 0x80) | errors;
		break;
	case LMR_TYPE_NONE:
		if (pl != 0x9c)
			return 0;
		break;
	default:
		return 0;
	}
	return (ctl & (LMR_RECVN | LMR_TYPE | BIT(6))) |
	       FIELD_PREP(LMR_PAYLOAD, resp);
}

/* The dword at @off as software reads it; with h->lock held. */
u32 pciesw_pci_dword(struct pciesw_pci *h, struct pciesw_pci_fn *fn,
		     unsigned int off)
{
	u32 v = off < PCIESW_PCI_CFG_LEN ? get32(fn->cfg, off) : 0;
	u32 uncor, cor;
	u16 sta;

	switch (off) {
	case CAP_EXP + PCI_EXP_DEVCTL:
		cor = pciesw_pci_aer_status(fn, true) &
		      ~get32(fn->cfg, ECAP_AER + PCI_ERR_COR_MASK);
		uncor = pciesw_pci_aer_status(fn, false) &
			~get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_MASK);
		sta = 0;
		if (cor)
			sta |= PCI_EXP_DEVSTA_CED;
		if (uncor & get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER))
			sta |= PCI_EXP_DEVSTA_FED;
		/* an advisory one is a correctable error (PCIe 6.2.3.2.4) */
		if (uncor & ~fn->aer_adv &
		    ~get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_SEVER))
			sta |= PCI_EXP_DEVSTA_NFED;
		if (uncor & PCI_ERR_UNC_UNSUP)
			sta |= PCI_EXP_DEVSTA_URD;
		/* one Max_Payload_Size, the endpoints' one MRRS: the model's */
		v = (v & ~PCI_EXP_DEVCTL_PAYLOAD) |
		    pciesw_pci_encode(h->mps) << 5;
		if (fn->kind == PCIESW_PCI_EP)
			v = (v & ~PCI_EXP_DEVCTL_READRQ) |
		     pciesw_pci_encode(h->mrrs) << 12;
		return (v & 0xffff) | sta << 16;
	case CAP_EXP + PCI_EXP_LNKCTL:
		/* LBMS and LABS are latched in the image */
		sta = (v >> 16 & (PCI_EXP_LNKSTA_LBMS | PCI_EXP_LNKSTA_LABS)) |
		      fn->speed | fn->width << 4;
		if ((fn->kind == PCIESW_PCI_DOWN || fn->kind == PCIESW_PCI_RP) &&
		    fn->active)
			sta |= PCI_EXP_LNKSTA_DLLLA;
		if (fn->kind == PCIESW_PCI_DOWN && (fn->training || fn->rl))
			sta |= PCI_EXP_LNKSTA_LT;
		return (v & 0xffff) | sta << 16;
	case CAP_EXP + PCI_EXP_SLTCTL:
		if (fn->kind == PCIESW_PCI_DOWN && fn->present)
			v |= PCI_EXP_SLTSTA_PDS << 16;
		return v;
	case CAP_EXP + PCI_EXP_LNKCTL2:
		/* Link Status 2: equalization done, at 8 GT/s and above */
		sta = fn->speed >= PCIESW_LINK_SPEED_GEN3 ? PCIESW_LNKSTA2_EQ : 0;
		return (v & 0xffff & ~PCI_EXP_LNKCTL2_TLS) | fn->target |
		       sta << 16;
	case ECAP_AER + PCI_ERR_UNCOR_STATUS:
		return pciesw_pci_aer_status(fn, false);
	case ECAP_AER + PCI_ERR_COR_STATUS:
		return pciesw_pci_aer_status(fn, true);
	case ECAP_AER + PCI_ERR_CAP:
		/* First Error Pointer: a masked error is not logged */
		uncor = pciesw_pci_aer_status(fn, false) &
			~get32(fn->cfg, ECAP_AER + PCI_ERR_UNCOR_MASK);
		return (v & ~PCI_ERR_CAP_FEP(0x1f)) |
		       (uncor ? __ffs(uncor) : 0);
	case ECAP_ACS + PCI_ACS_CAP:
		if (fn->kind != PCIESW_PCI_DOWN)
			return v;
		v &= ~((PCI_ACS_RR | PCI_ACS_CR) << 16);
		if (fn->acs)
			v |= (PCI_ACS_RR | PCI_ACS_CR) << 16;
		return v;
	case ECAP_SECPCI + SECPCI_LANE_ERR:
		return pciesw_pci_switch_port(fn->kind) ?
		       pciesw_pci_lane_errors(fn) : v;
	case ECAP_DLF + DLF_STA:
		if (!pciesw_pci_switch_port(fn->kind) || !fn->active)
			return v;
		return DLF_EXCHANGE | DLF_SCALED_FC;
	case ECAP_PL16 + PL_STA:
		if (!pciesw_pci_switch_port(fn->kind) ||
		    fn->speed < PCIESW_LINK_SPEED_GEN4)
			return v;
		return v | PL_STA_EQ;
	case ECAP_PL32 + PL_STA:
		if (!pciesw_pci_switch_port(fn->kind) ||
		    fn->speed < PCIESW_LINK_SPEED_GEN5)
			return v;
		return v | PL_STA_EQ;
	case ECAP_LMR + LMR_PORT:
		if (!pciesw_pci_switch_port(fn->kind) ||
		    fn->speed < PCIESW_LINK_SPEED_GEN4)
			return v;
		return v | LMR_READY << 16;
	case CAP_VPD:
		if (fn->kind != PCIESW_PCI_UP)
			return v;
		return (v & 0xffff) | fn->vpd_addr << 16;
	case CAP_VPD + PCI_VPD_DATA:
		return fn->kind == PCIESW_PCI_UP ? fn->vpd_data : v;
	default:
		return v;
	}
}

#endif
