// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI view's domains: a segment number that nothing else on the
 * machine names, held by a switch for its life.
 *
 * Why below 0x10000, where VMD starts: the IOMMU drivers keep the PCI
 * segment in 16 bits (Intel's device_lookup_iommu() and
 * dmar_pci_notify_info, AMD's get_device_segment() and
 * PCI_SEG_DEVID_TO_SBDF), so domain 0x10000 is segment 0 to them and the
 * card's functions would take, and on release clear, the context or
 * device-table entries of the real devices at the same bus/devfn.  VMD is
 * rescued on Intel by pci_real_dma_dev(); a card has no real device to
 * point at.  hwloc, and the tools built on it, keep 16 bits too and drop
 * such a domain.
 *
 * Why not any segment below it: the IOMMU drivers decide what they cover
 * from ACPI tables, per segment (DMAR's DRHD, with INCLUDE_PCI_ALL, and
 * AMD's IVHD cover whole segments; VIOT names segment ranges), and host
 * bridges come from MCFG and _SEG.  A segment that no PCI bus uses and no
 * such table lists is covered by no IOMMU: the card's functions get no
 * IOMMU group, use dma-direct, and nothing done to them reaches another
 * device's IOMMU state, whatever the IOMMU mode.  The view counts down
 * from 0xffff, where firmware never goes, and skips every segment that is
 * named; if it finds none, the card works without its PCI view.
 */

#include <linux/acpi.h>
#include <linux/bitmap.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "instance.h"

#if IS_ENABLED(CONFIG_PCI) && defined(CONFIG_X86)

#include "view.h"

#define PCIESW_PCI_SEGMENTS	0x10000

static int pci_domain = -1;
module_param(pci_domain, int, 0444);
MODULE_PARM_DESC(pci_domain,
		 "The PCI domain of the first switch's PCI view (0-0xffff; later switches count down from it); insmod fails if a PCI bus or a firmware table (MCFG, DMAR, IVRS, VIOT) names it. Default -1: the highest free one below 0x10000");

/* protects pciesw_pci_domains_held */
static DEFINE_MUTEX(pciesw_pci_domains_lock);
/* the domains switches hold (their PCI names stay while the view is off) */
static DECLARE_BITMAP(pciesw_pci_domains_held, PCIESW_PCI_SEGMENTS);

/* what names a segment, in the order the claims are looked for */
enum pciesw_pci_claim {
	PCIESW_CLAIM_NONE,
	PCIESW_CLAIM_BUS,
	PCIESW_CLAIM_MCFG,
	PCIESW_CLAIM_DMAR,
	PCIESW_CLAIM_IVRS,
	PCIESW_CLAIM_VIOT,
	PCIESW_CLAIM_SWITCH,
};

static const char *const pciesw_pci_claim_names[] = {
	[PCIESW_CLAIM_NONE] = "nothing",
	[PCIESW_CLAIM_BUS] = "a PCI bus in it",
	[PCIESW_CLAIM_MCFG] = "ACPI MCFG (a host bridge's ECAM)",
	[PCIESW_CLAIM_DMAR] = "ACPI DMAR (Intel VT-d)",
	[PCIESW_CLAIM_IVRS] = "ACPI IVRS (AMD-Vi)",
	[PCIESW_CLAIM_VIOT] = "ACPI VIOT (virtio-iommu)",
	[PCIESW_CLAIM_SWITCH] = "another pciesw switch",
};

/* the claims of all segments: one byte each, PCIESW_CLAIM_NONE if free */
struct pciesw_pci_claims {
	u8 by[PCIESW_PCI_SEGMENTS];
};

/* ACPI tables are little-endian and their subtables unaligned */
static u16 pciesw_le16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

static void pciesw_claim(struct pciesw_pci_claims *c, u32 seg,
			 enum pciesw_pci_claim by)
{
	if (seg < PCIESW_PCI_SEGMENTS && c->by[seg] == PCIESW_CLAIM_NONE)
		c->by[seg] = by;
}

#ifdef CONFIG_ACPI
/*
 * Calls @fn for each subtable of table @sig: those after @skip bytes, each
 * starting with a length of @len_size bytes at @len_off.  A subtable that
 * is shorter than its header or runs past the table ends the walk.
 */
static void pciesw_acpi_walk(char *sig, size_t skip, size_t len_off,
			     size_t len_size, struct pciesw_pci_claims *c,
			     void (*fn)(const u8 *sub, size_t len,
					struct pciesw_pci_claims *c))
{
	struct acpi_table_header *t;
	const u8 *p, *end;
	size_t len;

	if (ACPI_FAILURE(acpi_get_table(sig, 0, &t)))
		return;
	p = (const u8 *)t + skip;
	end = (const u8 *)t + t->length;
	while (p + len_off + len_size <= end) {
		len = len_size == 1 ? p[len_off] :
				      pciesw_le16(p + len_off);
		if (len < len_off + len_size || len > end - p)
			break;
		fn(p, len, c);
		p += len;
	}
	acpi_put_table(t);
}

/* DRHD, RMRR, ATSR and SATC have the segment at the same offset */
static void pciesw_acpi_dmar(const u8 *sub, size_t len,
			     struct pciesw_pci_claims *c)
{
	u16 type = pciesw_le16(sub);

	if (len < 8)
		return;
	if (type == ACPI_DMAR_TYPE_HARDWARE_UNIT ||
	    type == ACPI_DMAR_TYPE_RESERVED_MEMORY ||
	    type == ACPI_DMAR_TYPE_ROOT_ATS || type == ACPI_DMAR_TYPE_SATC)
		pciesw_claim(c, pciesw_le16(sub + 6), PCIESW_CLAIM_DMAR);
}

static void pciesw_acpi_ivrs(const u8 *sub, size_t len,
			     struct pciesw_pci_claims *c)
{
	const size_t off = offsetof(struct acpi_ivrs_hardware_10,
				    pci_segment_group);

	if ((sub[0] == ACPI_IVRS_TYPE_HARDWARE1 ||
	     sub[0] == ACPI_IVRS_TYPE_HARDWARE2 ||
	     sub[0] == ACPI_IVRS_TYPE_HARDWARE3) && len >= off + 2)
		pciesw_claim(c, pciesw_le16(sub + off),
			     PCIESW_CLAIM_IVRS);
}

static void pciesw_acpi_viot(const u8 *sub, size_t len,
			     struct pciesw_pci_claims *c)
{
	const size_t off = offsetof(struct acpi_viot_pci_range, segment_start);
	u32 s, first, last;

	if (sub[0] != ACPI_VIOT_NODE_PCI_RANGE ||
	    len < sizeof(struct acpi_viot_pci_range))
		return;
	/* segment_end follows segment_start */
	first = pciesw_le16(sub + off);
	last = pciesw_le16(sub + off + 2);
	for (s = first; s <= last; s++)
		pciesw_claim(c, s, PCIESW_CLAIM_VIOT);
}

static void pciesw_acpi_claims(struct pciesw_pci_claims *c)
{
	const size_t seg = offsetof(struct acpi_mcfg_allocation, pci_segment);
	struct acpi_table_header *t;
	const u8 *a;
	size_t n, i;

	if (acpi_disabled)
		return;
	if (ACPI_SUCCESS(acpi_get_table(ACPI_SIG_MCFG, 0, &t))) {
		n = t->length > sizeof(struct acpi_table_mcfg) ?
		    (t->length - sizeof(struct acpi_table_mcfg)) /
		    sizeof(struct acpi_mcfg_allocation) : 0;
		a = (const u8 *)t + sizeof(struct acpi_table_mcfg);
		for (i = 0; i < n; i++)
			pciesw_claim(c, pciesw_le16(a + i *
				     sizeof(struct acpi_mcfg_allocation) + seg),
				     PCIESW_CLAIM_MCFG);
		acpi_put_table(t);
	}
	pciesw_acpi_walk(ACPI_SIG_DMAR, sizeof(struct acpi_table_dmar),
			 offsetof(struct acpi_dmar_header, length), 2, c,
			 pciesw_acpi_dmar);
	pciesw_acpi_walk(ACPI_SIG_IVRS, sizeof(struct acpi_table_ivrs),
			 offsetof(struct acpi_ivrs_header, length), 2, c,
			 pciesw_acpi_ivrs);
	/* VIOT says where its nodes start */
	if (ACPI_SUCCESS(acpi_get_table(ACPI_SIG_VIOT, 0, &t))) {
		n = t->length >= sizeof(struct acpi_table_viot) ?
		    pciesw_le16((const u8 *)t +
				offsetof(struct acpi_table_viot,
					 node_offset)) : 0;
		acpi_put_table(t);
		if (n >= sizeof(struct acpi_table_viot))
			pciesw_acpi_walk(ACPI_SIG_VIOT, n,
					 offsetof(struct acpi_viot_header,
						  length), 2, c,
					 pciesw_acpi_viot);
	}
}
#else
static void pciesw_acpi_claims(struct pciesw_pci_claims *c)
{
}
#endif

/* Every segment's claim now; with pciesw_pci_domains_lock. */
static struct pciesw_pci_claims *pciesw_pci_claims_read(void)
{
	struct pciesw_pci_claims *c = kvzalloc(sizeof(*c), GFP_KERNEL);
	struct pci_bus *bus = NULL;
	unsigned int d;

	lockdep_assert_held(&pciesw_pci_domains_lock);
	if (!c)
		return NULL;
	while ((bus = pci_find_next_bus(bus)))
		pciesw_claim(c, pci_domain_nr(bus), PCIESW_CLAIM_BUS);
	pciesw_acpi_claims(c);
	for_each_set_bit(d, pciesw_pci_domains_held, PCIESW_PCI_SEGMENTS)
		pciesw_claim(c, d, PCIESW_CLAIM_SWITCH);
	return c;
}

/**
 * pciesw_pci_domain_get - hold a PCI domain for a new switch
 * @name: the switch's name, for the message if there is none
 *
 * The highest segment at or below pci_domain (0xffff by default) that no
 * PCI bus, no firmware table and no other switch names (0 only if asked
 * for: it is the firmware's first).  Like VMD's choice
 * it cannot reserve the domain against a host bridge added later; such a
 * bridge's segment comes from firmware, which is read here.
 *
 * Return: the domain, or PCIESW_PCI_DOMAIN_NONE (said in the log).
 */
u32 pciesw_pci_domain_get(const char *name)
{
	struct pciesw_pci_claims *c;
	u32 start = pci_domain < 0 ? PCIESW_PCI_SEGMENTS - 1 : pci_domain;
	/* segment 0 is the firmware's first: only when asked for */
	s32 i, lowest = pci_domain < 0 ? 1 : 0;
	u32 d = PCIESW_PCI_DOMAIN_NONE;

	mutex_lock(&pciesw_pci_domains_lock);
	c = pciesw_pci_claims_read();
	if (!c) {
		mutex_unlock(&pciesw_pci_domains_lock);
		pr_err("pciesw: %s: out of memory choosing a PCI domain: no PCI view\n",
		       name);
		return PCIESW_PCI_DOMAIN_NONE;
	}
	for (i = start; i >= lowest; i--) {
		if (c->by[i] == PCIESW_CLAIM_NONE) {
			d = i;
			set_bit(d, pciesw_pci_domains_held);
			break;
		}
	}
	mutex_unlock(&pciesw_pci_domains_lock);
	kvfree(c);
	if (d == PCIESW_PCI_DOMAIN_NONE) {
		pr_err("pciesw: %s: every PCI domain from %04x down is named by a PCI bus or a firmware table: no PCI view\n",
		       name, start);
		return PCIESW_PCI_DOMAIN_NONE;
	}
	return d;
}

/* The switch that held @d is gone. */
void pciesw_pci_domain_put(u32 d)
{
	if (d >= PCIESW_PCI_SEGMENTS)
		return;
	mutex_lock(&pciesw_pci_domains_lock);
	clear_bit(d, pciesw_pci_domains_held);
	mutex_unlock(&pciesw_pci_domains_lock);
}

/*
 * At load: a pci_domain asked for must be a segment, and free; insmod says
 * what names it rather than let the view alias another device.
 */
int pciesw_pci_domain_init(void)
{
	struct pciesw_pci_claims *c;
	u8 by;

	if (pci_domain == -1)
		return 0;
	if (pci_domain < 0 || pci_domain >= PCIESW_PCI_SEGMENTS) {
		pr_err("pciesw: pci_domain=%d: must be 0-0xffff, or -1 for the highest free one (the IOMMU drivers and hwloc keep 16 bits of a PCI domain)\n",
		       pci_domain);
		return -EINVAL;
	}
	mutex_lock(&pciesw_pci_domains_lock);
	c = pciesw_pci_claims_read();
	mutex_unlock(&pciesw_pci_domains_lock);
	if (!c)
		return -ENOMEM;
	by = c->by[pci_domain];
	kvfree(c);
	if (by != PCIESW_CLAIM_NONE) {
		pr_err("pciesw: pci_domain=%04x is taken: %s names it\n",
		       pci_domain, pciesw_pci_claim_names[by]);
		return -EBUSY;
	}
	return 0;
}

#endif /* CONFIG_PCI && CONFIG_X86 */
