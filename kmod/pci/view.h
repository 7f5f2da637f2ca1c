/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the PCI view share, as drivers/pci/pci-bridge-emul.h
 * holds what an emulated bridge is: the layout of config space, the
 * emulated functions and hierarchies, and the calls between the files.
 * Only those files include it, and only with PCI on x86 (the view is
 * absent otherwise).  The files, each calling only those before it (and
 * the model, msi.c):
 *
 * config.c: the config space images;
 * quirks.c: the real part's quirks, built on those images;
 * aer.c: error messages (AER), DPC and the ports' MSI;
 * access.c: the config accessors, where config reads and writes arrive;
 * req.c: the request queue, the config writes the model takes;
 * domain.c: the PCI domain each switch takes, one no IOMMU names;
 * host.c: host bridge, domain and endpoint driver;
 * view.c: the view itself, which follows the model's events.
 *
 * Locks: sw->lock (the model's) -> pciesw_pci.lock; see view.c.
 */
#ifndef _PCIESW_PCI_VIEW_H
#define _PCIESW_PCI_VIEW_H

#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "instance.h"
#include "msi.h"

/* Broadcom, maker of the PEX switches (endpoints: their own IDs) */
#define PCIESW_PCI_VENDOR	0x1000
/* the Root Port: no Broadcom part, the module's own */
#define PCIESW_PCI_RP_DEVICE	0xc0ff
#define PCIESW_PCI_REVISION	0xb0
/* the upper half of the switch ports' DSN, as Broadcom's parts have it */
#define PCIESW_PCI_DSN_HI	0x0080ee00
/*
 * Broadcom's own endpoints (pci.ids): the switch management endpoint, a
 * Serial Attached SCSI controller behind the downstream port at device
 * 0x1f of the internal bus (pci_mgmt_ep), and the placeholder a PEX890xx
 * in synthetic mode shows after a link reset (pci_placeholder_ms)
 */
#define PCIESW_PCI_MGMT_DEVICE	0x00b2
#define PCIESW_PCI_MGMT_CLASS	0x010700
#define PCIESW_PCI_MGMT_DEVFN	PCI_DEVFN(0x1f, 0)
#define PCIESW_PCI_MGMT_PORT	0x1f	/* its port's Port Number */
#define PCIESW_PCI_PH_DEVICE	0x02b2
#define PCIESW_PCI_PH_CLASS	0xff0000
/* the bus numbers a domain has */
#define PCIESW_PCI_NR_BUSES	256

/*
 * Where the capabilities are, the same in every function: the offsets of
 * Broadcom's PEX890xx family (Documentation/pci-view.md says why).  The
 * chain of the switch ports: PM, MSI, PCI Express, Subsystem ID (VPD on
 * the upstream port); DSN, AER, Secondary PCIe, VC, DLF, PL 16 GT/s, Lane
 * Margining, PL 32 GT/s, Vendor-Specific (ACS and DPC on downstream
 * ports).  Endpoints: PM, MSI, PCI Express; DSN, AER.  The Root Port has
 * a null capability at 0x100 whose next is AER.
 */
#define CAP_PM		0x40
#define CAP_MSI		0x48
#define CAP_EXP		0x68
#define CAP_SSVID	0xa4	/* bridges */
#define CAP_VPD		0xac	/* upstream port */
#define ECAP_DSN	0x100	/* ports, endpoints */
#define ECAP_VC		0x148	/* switch ports: VC0 only */
#define ECAP_DLF	0xaf4	/* Data Link Feature */
#define ECAP_DPC	0xb60	/* Downstream Port Containment (downstream ports) */
#define ECAP_VNDR	0xb70	/* Vendor-Specific, ID 0001 */
#define ECAP_PL16	0xd00	/* Physical Layer 16.0 GT/s */
#define ECAP_LMR	0xd40	/* Lane Margining at the Receiver */
#define ECAP_SECPCI	0xdb4	/* Secondary PCI Express */
#define ECAP_PL32	0xe40	/* Physical Layer 32.0 GT/s */
#define ECAP_ACS	0xf24	/* downstream ports */
#define ECAP_AER	0xfb4
#define PCIESW_PCI_LANES	16

/* not in every kernel's pci_regs.h */
#define PCIESW_DEVCAP2_10BIT_TAG_COMP	0x00010000
#define PCIESW_EXT_CAP_ID_PL_32GT	0x2a
#define PCIESW_EXT_CAP_ID_LMR		0x27

/*
 * ACS: what a downstream port has (P2P Egress Control with one bit per
 * port number, the upstream port's 0 among them), and the bits of its
 * Egress Control Vector, at most 64 (two dwords)
 */
#define ACS_CAPS		(PCI_ACS_SV | PCI_ACS_TB | PCI_ACS_RR | \
				 PCI_ACS_CR | PCI_ACS_UF | PCI_ACS_EC | \
				 PCI_ACS_DT)
#define ACS_EGRESS_BITS(h)	min((h)->max_down + 1, 64U)

/* Virtual Channel: VC0 Resource Capability, Control, Status */
#define VC_RES_CAP		0x10
#define VC_RES_CTRL		0x14
#define VC_RES_STATUS		0x18
#define VC_LEN			0x1c
/* Vendor-Specific: its header (ID, revision, length) */
#define VNDR_HEADER		0x04
#define VNDR_LEN		0x10

/* Secondary PCI Express: Link Control 3, Lane Error Status, Lane Eq Ctl */
#define SECPCI_LNKCTL3		0x04
#define SECPCI_LANE_ERR		0x08
#define SECPCI_LANE_EQ		0x0c
/* Data Link Feature: capabilities, status */
#define DLF_CAP			0x04
#define DLF_STA			0x08
#define DLF_SCALED_FC		0x00000001	/* Local Scaled Flow Control */
#define DLF_EXCHANGE		0x80000000	/* cap: exchange enable; sta: valid */
/* Physical Layer 16.0/32.0 GT/s: cap, control, status, lane eq control */
#define PL_CAP			0x04
#define PL_CTL			0x08
#define PL_STA			0x0c
#define PL_LANE_EQ		0x20
#define PL_STA_EQ		0x0000000f	/* complete, phases 1-3 */
#define PL32_CAP_EQ_BYPASS	0x00000001
/* Lane Margining: port capabilities/status, then per lane control/status */
#define LMR_PORT		0x04
#define LMR_LANE(i)		(0x08 + 4 * (i))
#define LMR_READY		0x0001
#define LMR_RECVN		0x0007
#define LMR_TYPE		0x0038
#define LMR_PAYLOAD		0xff00
#define LMR_TYPE_REPORT		1
#define LMR_TYPE_SET		2
#define LMR_TYPE_TIMING		3
#define LMR_TYPE_VOLTAGE	4
#define LMR_TYPE_NONE		7
/* DPC Control: Trigger Enable, Completion Control; Software Trigger */
#define DPC_CTL_EN		0x0003
#define DPC_CTL_COMPL		0x0004
#define DPC_CTL_SW_TRIGGER	0x0040
/* DPC Control: Poisoned TLP Egress Blocking, DL_Active ERR_COR Enable */
#define DPC_CTL_POISONED_TLP	0x0020
#define DPC_CTL_DL_ACTIVE	0x0080
/* DPC Status: Trigger Reason (and Extension); not all in 6.1's headers */
#define DPC_STATUS_REASON	(PCI_EXP_DPC_STATUS_TRIGGER_RSN | \
				 PCI_EXP_DPC_STATUS_TRIGGER_RSN_EXT)
#define DPC_RSN_UNCOR		0x0000	/* an unmasked uncorrectable error */
#define DPC_RSN_NFE		0x0002	/* ERR_NONFATAL received */
#define DPC_RSN_FE		0x0004	/* ERR_FATAL received */
#define DPC_RSN_SW		0x0026	/* in the extension: Software Trigger */
/* what the receivers report: steps and offsets (PCIe 5.0 8.4.4) */
#define LMR_TIMING_STEPS	16
#define LMR_VOLTAGE_STEPS	32

/* Link Status 2: Equalization 8.0 GT/s Complete, Phase 1, 2 and 3 Successful */
#define PCIESW_LNKSTA2_EQ	0x001e
/*
 * Bytes of config space a function keeps: all of it, since AER, the last
 * capability, ends 0x4c bytes short of 4 KiB as on the real parts.
 */
#define PCIESW_PCI_CFG_LEN	PCI_CFG_SPACE_EXP_SIZE

enum pciesw_pci_kind {
	PCIESW_PCI_RP,
	PCIESW_PCI_UP,
	PCIESW_PCI_DOWN,
	PCIESW_PCI_EP,
	PCIESW_PCI_NR_KINDS
};

/**
 * struct pciesw_pci_fn - one emulated PCI function
 * @kind: upstream port, downstream port or endpoint
 * @speed: negotiated link speed (enum pciesw_link_speed), 0 when down
 * @width: negotiated link width
 * @target: Target Link Speed
 * @max_speed: fastest speed it supports (LnkCap)
 * @active: Data Link Layer Link Active
 * @present: a device is in the slot (downstream ports)
 * @acs: ACS P2P Request/Completion Redirect
 * @training: the model's LTSSM is in Configuration or Recovery
 * @rl: software wrote Retrain Link and the model has not taken it yet
 *	(Link Training reads 1 meanwhile, as on hardware)
 * @sw_retrain: a retrain software asked for through Retrain Link is under
 *	way: Link Bandwidth Management Status is set when it ends
 * @failed_lanes: the model's failed lanes when @speed and @width were taken
 * @lanes_changed: lanes failed or came back and the retrain that follows
 *	has not ended yet: the bandwidth change it brings is LBMS, not LABS
 * @port_id: the port it is or is behind (0: the upstream port and the
 *	Root Port)
 * @lane_err_base: the port's BER error count when software last cleared
 *	Lane Error Status
 * @lmr_limit: Lane Margining error count limit software set
 * @msi_line: an interrupt condition the port signals by MSI holds, MSI is
 *	enabled and the vector unmasked (a message is sent when it becomes
 *	true, as PCIe says for hot-plug and bandwidth notification)
 * @msi_send: the message is due (pciesw_pci_msi_fire() sends it)
 * @boot: a downstream port made with its endpoint whose link has not been
 *	up yet: its first training is firmware's, done before software
 *	looked, so it latches no Data Link Layer State Changed (pciehp would
 *	take it for a link that bounced and re-add the endpoint)
 * @ready_at: an endpoint answers config requests with Retry Status until
 *	then (ktime ns), after its link came up from a reset
 * @virt: a function of the switch's own with no model port behind it (the
 *	management port and endpoint, a placeholder): writes stay in its
 *	image, none goes to the model, it sends no message
 * @ph: an endpoint's placeholder (pci_placeholder_ms), which answers in
 *	its stead until @ph_until (ktime ns) after its link came up from a
 *	reset; kept until the next one or the endpoint's function goes
 * @ph_until: see @ph
 * @ph_due: the real endpoint's arrival at @ph_until is still to be
 *	signalled, or its slot scanned (pciesw_pci_ph_work())
 * @ph_arm: a downstream port whose link went down by a link reset, not
 *	by slot power: the placeholder answers when it comes back
 * @stats: the port's error counters, NULL for endpoints; they live as
 *	long as the switch, which the hierarchy references
 * @aer_base: counter values when software last cleared each status bit
 * @aer_seen: counter values when pciesw_pci_errors() last signalled them
 * @aer_sent_cor: correctable status bits an ERR_COR reported, set until
 *	software clears them (a message is outstanding while any is)
 * @aer_sent_unc: the same for uncorrectable ones (ERR_NONFATAL/FATAL)
 * @aer_adv: uncorrectable status bits of endpoint errors handled as
 *	Advisory Non-Fatal (reported by ERR_COR, not ERR_NONFATAL), until
 *	software clears them
 * @vpd_addr: the VPD address register, F bit included
 * @vpd_data: the VPD data register
 * @cfg: config space as software wrote it, up to %PCIESW_PCI_CFG_LEN;
 *	live fields are filled in on read (pciesw_pci_dword())
 * @cfg0: endpoints: config space as firmware left it, what a Function
 *	Level Reset brings back (pciesw_pci_flr()); NULL for the others
 */
struct pciesw_pci_fn {
	enum pciesw_pci_kind kind;
	u8 speed;
	u8 width;
	u8 target;
	u8 max_speed;
	bool active;
	bool present;
	bool acs;
	bool training;
	bool rl;
	bool sw_retrain;
	u32 failed_lanes;
	bool lanes_changed;
	unsigned int port_id;
	u64 lane_err_base;
	u8 lmr_limit;
	bool msi_line;
	bool msi_send;
	bool boot;
	u64 ready_at;
	bool virt;
	struct pciesw_pci_fn *ph;
	u64 ph_until;
	bool ph_due;
	bool ph_arm;
	struct pciesw_port_stats *stats;
	u64 aer_base[PCIESW_COUNTER_LAST_UNCORRECTABLE + 1];
	u64 aer_seen[PCIESW_COUNTER_LAST_UNCORRECTABLE + 1];
	u32 aer_sent_cor;
	u32 aer_sent_unc;
	u32 aer_adv;
	u16 vpd_addr;
	u32 vpd_data;
	u8 cfg[PCIESW_PCI_CFG_LEN];
	u8 *cfg0;
};

/*
 * What a config write asks of the model.  The config accessors may run in
 * atomic context and must not take sw->lock, so they queue these and a
 * work item applies them in order, through the model's setters, as any
 * other view's request is; config space then follows from the model's
 * events like every view.
 */
enum pciesw_pci_req_op {
	PCIESW_PCI_REQ_ENABLE,		/* Link Disable: @a is the new enabled */
	PCIESW_PCI_REQ_RETRAIN,		/* Retrain Link */
	PCIESW_PCI_REQ_TARGET,		/* Target Link Speed @a */
	PCIESW_PCI_REQ_HOT_RESET,	/* Secondary Bus Reset */
	PCIESW_PCI_REQ_ACS,		/* ACS P2P Request/Completion Redirect @a */
	PCIESW_PCI_REQ_ACS_EGRESS,	/* ACS P2P Egress Control: ports @b:@a */
	PCIESW_PCI_REQ_MPS,		/* Max_Payload_Size @a bytes */
	PCIESW_PCI_REQ_MRRS,		/* Max_Read_Request_Size @a bytes */
	PCIESW_PCI_REQ_VPD,		/* VPD write: dword @b at address @a */
	PCIESW_PCI_REQ_POWER,		/* Power Controller Control: @a is on */
	PCIESW_PCI_REQ_DPC,		/* DPC triggered (@a 1) or released */
	PCIESW_PCI_REQ_BUS_MASTER,	/* an endpoint's Bus Master Enable @a */
	PCIESW_PCI_REQ_FLR,		/* the endpoint's Function Level Reset */
};

struct pciesw_pci_req {
	u8 op;
	u8 port_id;
	u32 a;
	u32 b;
};

/* requests queued at most; beyond, pciesw_pci.req_lost says so */
#define PCIESW_PCI_NR_REQS	64

/**
 * struct pciesw_pci - the PCI hierarchy of one switch
 * @sysdata: x86's bus->sysdata: the domain number lives here
 * @sw: the switch, referenced until the hierarchy is freed
 * @profile: sw->profile
 * @domain: PCI domain number
 * @max_down: downstream ports the profile can have (bounds @down, @ep)
 * @hotplug: the downstream ports are hot-plug slots (pci_hotplug)
 * @mgmt: the hierarchy has the management port and endpoint (pci_mgmt_ep)
 * @later: with the rescan lock: the ports the view's own scan added,
 *	whose drivers pciesw_pci_bind_later() binds after it (NULL: not
 *	scanning); the references are the view's
 * @nr_later: entries of @later
 * @busn: the root bus's bus number range
 * @root: the root bus, from creation until removal
 * @msi: the root bus's MSI irq domain (msi.c), removed with @bridge
 * @bridge: the host bridge; the hierarchy owns its first reference until
 *	it is destroyed, and the bridge's release frees the hierarchy
 * @module_ref: the removed hierarchy holds a reference to the module
 * @jobs: the event jobs queued that name it (pciesw_pci_job())
 * @failed: pciesw_pci_attach() failed: the last job frees it
 * @req_work: applies @req to the model (pciesw_pci_req_work())
 * @ph_work: signals the real endpoints' arrival when their placeholders'
 *	time is up, and scans the slots no pciehp drives
 *	(pciesw_pci_ph_work())
 * @lock: protects everything below it; taken by the config accessors,
 *	which may run in atomic context, so a raw spinlock
 * @dead: the root bus is gone: config cycles find no device
 * @req: config writes for the model, a ring: @req_head - @req_tail queued
 * @req_head: requests ever queued
 * @req_tail: requests ever taken by @req_work
 * @req_lost: the ring was full: @req_work makes the model follow the
 *	stateful registers (Link Disable, Target Link Speed, ACS, DPC, MPS,
 *	MRRS, the endpoints' Bus Master Enable) once more; the lost edges
 *	(retrain, reset, VPD) time out as a lost request does on hardware
 * @mps: the switch's Max_Payload_Size, every function's Device Control
 * @mrrs: the switch's Max_Read_Request_Size, the endpoints' Device Control
 * @dsn: Device Serial Number of the switch ports
 * @vpd: the card's VPD image, as the model last built it
 * @vpd_len: bytes of @vpd in use
 * @rp: the Root Port, from pciesw_pci_new() to pciesw_pci_free()
 * @up: the upstream port
 * @mdown: the management port at %PCIESW_PCI_MGMT_DEVFN of the internal
 *	bus, with @mgmt; it comes and goes with @up
 * @mep: the management endpoint behind @mdown, on the hierarchy's last bus
 * @down: downstream port k (port id k + 1), @max_down entries of @fns
 * @ep: the endpoint behind downstream port k, the @max_down after them
 * @fns: @down and @ep, as many as the profile can have
 */
struct pciesw_pci {
	struct pci_sysdata sysdata;
	struct pciesw_switch *sw;
	const struct pciesw_profile *profile;
	u32 domain;
	unsigned int max_down;
	bool hotplug;
	bool mgmt;
	struct pci_dev **later;
	unsigned int nr_later;
	struct resource busn;
	struct pci_bus *root;
	struct irq_domain *msi;
	struct pci_host_bridge *bridge;
	bool module_ref;
	atomic_t jobs;		/* event jobs queued that name it */
	bool failed;		/* not put on the bus; only the event work */
	struct work_struct req_work;
	struct delayed_work ph_work;
	raw_spinlock_t lock;	/* protects all fields below */
	bool dead;
	struct pciesw_pci_req req[PCIESW_PCI_NR_REQS];
	unsigned int req_head;
	unsigned int req_tail;
	bool req_lost;
	u32 mps;
	u32 mrrs;
	u64 dsn;
	u8 *vpd;
	unsigned int vpd_len;
	struct pciesw_pci_fn *rp;
	struct pciesw_pci_fn *up;
	struct pciesw_pci_fn *mdown;
	struct pciesw_pci_fn *mep;
	struct pciesw_pci_fn **down;
	struct pciesw_pci_fn **ep;
	struct pciesw_pci_fn *fns[];
};

static inline u32 get32(const u8 *b, unsigned int off)
{
	return b[off] | b[off + 1] << 8 | b[off + 2] << 16 | (u32)b[off + 3] << 24;
}

/* the bytes are masked: sparse sees the inlined constants otherwise */
static inline void put32(u8 *b, unsigned int off, u32 v)
{
	b[off] = v & 0xff;
	b[off + 1] = (v >> 8) & 0xff;
	b[off + 2] = (v >> 16) & 0xff;
	b[off + 3] = v >> 24;
}

static inline u16 get16(const u8 *b, unsigned int off)
{
	return b[off] | b[off + 1] << 8;
}

static inline void put16(u8 *b, unsigned int off, u16 v)
{
	b[off] = v & 0xff;
	b[off + 1] = v >> 8;
}

static inline void or16(u8 *b, unsigned int off, u16 v)
{
	put16(b, off, get16(b, off) | v);
}

static inline bool pciesw_pci_bridge(enum pciesw_pci_kind kind)
{
	return kind != PCIESW_PCI_EP;
}

/* the card's ports: the Gen5 capabilities, DSN, the error counters */
static inline bool pciesw_pci_switch_port(enum pciesw_pci_kind kind)
{
	return kind == PCIESW_PCI_UP || kind == PCIESW_PCI_DOWN;
}

/* The secondary bus number software gave @fn, 0 if none (h->lock held). */
static inline unsigned int pciesw_pci_secondary(const struct pciesw_pci_fn *fn)
{
	return fn ? fn->cfg[PCI_SECONDARY_BUS] : 0;
}

/*
 * With h->lock: software drives downstream port @k's slot (pciehp enabled
 * its hot-plug interrupt), so it adds and removes what is in it.
 */
static inline bool pciesw_pci_slot_driven(struct pciesw_pci *h,
					  unsigned int k)
{
	return h->hotplug && h->down[k] &&
	       (get16(h->down[k]->cfg, CAP_EXP + PCI_EXP_SLTCTL) &
		PCI_EXP_SLTCTL_HPIE);
}

/*
 * The ports a downstream port's ACS P2P Egress Control names, 0 when it is
 * off (h->lock held): the vector is one or two dwords
 */
static inline u64 pciesw_pci_acs_egress(const struct pciesw_pci_fn *fn)
{
	if (!(get16(fn->cfg, ECAP_ACS + PCI_ACS_CTRL) & PCI_ACS_EC))
		return 0;
	return get32(fn->cfg, ECAP_ACS + PCI_ACS_EGRESS_CTL_V) |
	       (u64)get32(fn->cfg, ECAP_ACS + PCI_ACS_EGRESS_CTL_V + 4) << 32;
}

/* The bridges a hierarchy can have: Root Port, ports, management port */
static inline unsigned int pciesw_pci_nr_bridges(const struct pciesw_pci *h)
{
	return h->max_down + 2 + h->mgmt;
}

/* Queue a request for the model; with h->lock held. */
static inline void pciesw_pci_req(struct pciesw_pci *h,
				  const struct pciesw_pci_fn *fn,
				  enum pciesw_pci_req_op op, u32 a, u32 b)
{
	struct pciesw_pci_req *r;

	if (h->req_head - h->req_tail >= PCIESW_PCI_NR_REQS) {
		h->req_lost = true;
	} else {
		r = &h->req[h->req_head++ % PCIESW_PCI_NR_REQS];
		r->op = op;
		r->port_id = fn->port_id;
		r->a = a;
		r->b = b;
	}
	queue_work(system_wq, &h->req_work);
}

static inline struct pciesw_pci *pciesw_pci_of(struct pci_bus *bus)
{
	return container_of(bus->sysdata, struct pciesw_pci, sysdata);
}

/* config.c: the config space images */
extern u8 pciesw_pci_wmask[PCIESW_PCI_NR_KINDS][PCIESW_PCI_CFG_LEN];
extern u8 pciesw_pci_w1cmask[PCIESW_PCI_NR_KINDS][PCIESW_PCI_CFG_LEN];
extern const u32 pciesw_pci_aer_bit[PCIESW_COUNTER_LAST_UNCORRECTABLE + 1];
void pciesw_pci_masks_init(enum pciesw_pci_kind kind);
struct pciesw_pci_fn *pciesw_pci_fn_new(struct pciesw_pci *h,
					enum pciesw_pci_kind kind,
					unsigned int k,
					const struct pciesw_port *port,
					const struct pciesw_endpoint *ep);
void pciesw_pci_fn_free(struct pciesw_pci_fn *fn);
void pciesw_pci_fn_link(struct pciesw_pci_fn *fn,
			const struct pciesw_port *port);
u32 pciesw_pci_aer_status(struct pciesw_pci_fn *fn, bool corr);
void pciesw_pci_aer_clear(struct pciesw_pci_fn *fn, bool corr, u32 bits);
u64 pciesw_pci_ber_errors(struct pciesw_pci_fn *fn);
u16 pciesw_pci_margin(struct pciesw_pci_fn *fn, unsigned int lane,
		      u16 ctl);
u32 pciesw_pci_dword(struct pciesw_pci *h, struct pciesw_pci_fn *fn,
		     unsigned int off);
void pciesw_pci_flr(struct pciesw_pci_fn *fn);

/* quirks.c: the real part's quirks (off by default) */
struct pciesw_pci_fn *pciesw_pci_mgmt_new(struct pciesw_pci *h,
					  enum pciesw_pci_kind kind,
					  const struct pciesw_port *up);
struct pciesw_pci_fn *pciesw_pci_ph_new(struct pciesw_pci *h, unsigned int k,
					const struct pciesw_port *port);

/* aer.c: error messages (AER), DPC and the ports' MSI */
bool pciesw_pci_msi_eval(struct pciesw_pci_fn *fn);
void pciesw_pci_report(struct pciesw_pci *h, struct pciesw_pci_fn *fn);
void pciesw_pci_dpc_trigger(struct pciesw_pci *h,
			    struct pciesw_pci_fn *fn, u16 reason);
void pciesw_pci_port_errors(struct pciesw_pci *h,
			    const struct pciesw_port *port);
void pciesw_pci_ep_errors(struct pciesw_pci *h,
			  const struct pciesw_endpoint *ep,
			  enum pciesw_ep_aer_error err);
void pciesw_pci_msi_fire(struct pciesw_pci *h);

/* access.c: the config accessors, where config reads and writes arrive */
extern struct pci_ops pciesw_pci_ops;

/* req.c: the request queue, the config writes the model takes */
void pciesw_pci_req_work(struct work_struct *work);

/* host.c: host bridge, domain and endpoint driver */
void pciesw_pci_vpd_load(struct pciesw_pci *h);
bool pciesw_pci_fns_add(struct pciesw_pci *h, const unsigned long *ports);
struct pci_bus *pciesw_pci_bus(struct pciesw_pci *h, unsigned int busnr);
void pciesw_pci_unbind_ports(struct pciesw_pci *h, unsigned int busnr,
			     const unsigned long *ports, bool all);
void pciesw_pci_later_begin(struct pciesw_pci *h);
struct pci_dev **pciesw_pci_later_end(struct pciesw_pci *h,
				      unsigned int *n);
void pciesw_pci_bind_later(struct pci_dev **later, unsigned int n);
void pciesw_pci_rescan(struct pciesw_pci *h, unsigned int busnr);
void pciesw_pci_ph_work(struct work_struct *work);
void pciesw_pci_free(struct pciesw_pci *h);
struct pciesw_pci *pciesw_pci_new(struct pciesw_dev *pdev);
int pciesw_pci_attach(struct pciesw_pci *h);
void pciesw_pci_destroy(struct pciesw_pci *h);
int pciesw_pci_host_init(void);
void pciesw_pci_host_exit(void);

/* domain.c */
int pciesw_pci_domain_init(void);
u32 pciesw_pci_domain_get(const char *name);
void pciesw_pci_domain_put(u32 d);

#endif /* _PCIESW_PCI_VIEW_H */
