// SPDX-License-Identifier: GPL-2.0
/*
 * Card models.  A profile is data, not code: adding a card is adding an
 * entry here; nothing else in the module knows profile names.
 *
 * The allowed port widths of each lane group (the BIF lists) follow the
 * PEX890xx station rules as this module models them, not a cited data
 * sheet: ports are made of 16-lane stations, a station splits into ports
 * of x16, x8, x4, x2 or x1 aligned to their width, and a group offers the
 * splits its connector is wired for (the host group x16 or x8 on one
 * port; a GPU connector x16, 2x8 or 4x4; an NVMe backplane any split down
 * to 16x1).  tiny8 applies the same rules to two 4-lane groups.
 *
 * Port numbers are physical, as a PEX890xx numbers its ports: every lane
 * at which some allowed bifurcation of a group starts a port is a slot,
 * and a slot's number never changes.  pciesw_profiles_check() numbers the
 * slots from this data at load: first the slots the groups' default
 * configurations use, in lane order (so a card at its defaults is numbered
 * 0 for the upstream port, then its downstream ports in lane order), then
 * every other slot in lane order.  pex89048 has 21 slots:
 *
 *	lane   0  16  20  24  28  32  33  34  35  36  37  38  39  40 ... 47
 *	port   0   1   6   7   8   2   9  10  11   3  12  13  14   4 ... 20
 *
 * so gpu 4x4 has ports 1, 6, 7, 8 and nvme 8x2 ports 2, 10, 3, 13, 4,
 * 16, 5, 19 (lanes 32, 34, ... 46).  pex89144 has 81 slots (0 upstream,
 * 1-4 gpu0-3, 5-20 nvme0-3 at 4x4, then the rest), tiny8 has 5 (0, 1-2
 * nvme 2x2, then lanes 5 and 7).
 */

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "model/pciesw.h"

#define BIF(n, w)	{ .nr_ports = (n), .width = (w) }

static const struct pciesw_profile pciesw_profiles[] = {
	{
		/* Rocket 7638D class: PEX 89048, 3 x16 groups */
		.name = "pex89048",
		.description = "PEX89048-class 48-lane PCIe 5.0 switch card",
		.part_number = "PSW-7638D",
		.serial_prefix = "PSW48",
		/*
		 * PEX890xx Gen 5 switch as pci.ids lists the lower lane
		 * count parts (PEX89024/32/48), PEX89048 subsystem
		 */
		.pci_device = 0xc034,
		.pci_subdevice = 0x0048,
		.nr_lanes = 48,
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.host_speed = PCIESW_LINK_SPEED_GEN5,
		.host_width = 16,
		.nr_groups = 3,
		.groups = {
			{ "host", PCIESW_GROUP_TYPE_HOST, 0, 16, 0, 2,
			  { BIF(1, 16), BIF(1, 8) } },
			{ "gpu", PCIESW_GROUP_TYPE_GPU, 16, 16, 0, 3,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4) } },
			{ "nvme", PCIESW_GROUP_TYPE_NVME, 32, 16, 2, 5,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4), BIF(8, 2),
			    BIF(16, 1) } },
		},
	},
	{
		/* PEX 89144 class: host x16, four GPU and four NVMe groups */
		.name = "pex89144",
		.description = "PEX89144-class 144-lane PCIe 5.0 switch card",
		.part_number = "PSW-144",
		.serial_prefix = "PSW144",
		.pci_device = 0xc030,
		.pci_subdevice = 0x0144,
		.nr_lanes = 144,
		.max_speed = PCIESW_LINK_SPEED_GEN5,
		.host_speed = PCIESW_LINK_SPEED_GEN5,
		.host_width = 16,
		.nr_groups = 9,
		.groups = {
			{ "host", PCIESW_GROUP_TYPE_HOST, 0, 16, 0, 2,
			  { BIF(1, 16), BIF(1, 8) } },
			{ "gpu0", PCIESW_GROUP_TYPE_GPU, 16, 16, 0, 3,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4) } },
			{ "gpu1", PCIESW_GROUP_TYPE_GPU, 32, 16, 0, 3,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4) } },
			{ "gpu2", PCIESW_GROUP_TYPE_GPU, 48, 16, 0, 3,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4) } },
			{ "gpu3", PCIESW_GROUP_TYPE_GPU, 64, 16, 0, 3,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4) } },
			{ "nvme0", PCIESW_GROUP_TYPE_NVME, 80, 16, 2, 5,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4), BIF(8, 2),
			    BIF(16, 1) } },
			{ "nvme1", PCIESW_GROUP_TYPE_NVME, 96, 16, 2, 5,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4), BIF(8, 2),
			    BIF(16, 1) } },
			{ "nvme2", PCIESW_GROUP_TYPE_NVME, 112, 16, 2, 5,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4), BIF(8, 2),
			    BIF(16, 1) } },
			{ "nvme3", PCIESW_GROUP_TYPE_NVME, 128, 16, 2, 5,
			  { BIF(1, 16), BIF(2, 8), BIF(4, 4), BIF(8, 2),
			    BIF(16, 1) } },
		},
	},
	{
		/* a small Gen4 part, so tests cover a second shape cheaply */
		.name = "tiny8",
		.description = "8-lane PCIe 4.0 test switch",
		.part_number = "PSW-T8",
		.serial_prefix = "PSWT8",
		/* PEX880xx Gen 4 switch, PEX88024 subsystem */
		.pci_device = 0xc010,
		.pci_subdevice = 0xa024,
		.nr_lanes = 8,
		.max_speed = PCIESW_LINK_SPEED_GEN4,
		.host_speed = PCIESW_LINK_SPEED_GEN4,
		.host_width = 4,
		.nr_groups = 2,
		.groups = {
			{ "host", PCIESW_GROUP_TYPE_HOST, 0, 4, 0, 2,
			  { BIF(1, 4), BIF(1, 2) } },
			{ "nvme", PCIESW_GROUP_TYPE_NVME, 4, 4, 1, 3,
			  { BIF(1, 4), BIF(2, 2), BIF(4, 1) } },
		},
	},
};

const struct pciesw_profile *pciesw_profile_default(void)
{
	return &pciesw_profiles[0];
}

unsigned int pciesw_profile_count(void)
{
	return ARRAY_SIZE(pciesw_profiles);
}

const struct pciesw_profile *pciesw_profile_get(unsigned int i)
{
	return i < ARRAY_SIZE(pciesw_profiles) ? &pciesw_profiles[i] : NULL;
}

const struct pciesw_profile *pciesw_profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pciesw_profiles); i++)
		if (!strcmp(pciesw_profiles[i].name, name))
			return &pciesw_profiles[i];
	return NULL;
}

/*
 * The slots of each profile (see the top of this file), computed from the
 * data by pciesw_profiles_check() before any switch exists and read-only
 * after that.
 */
#define PCIESW_NO_SLOT	0xff

struct pciesw_slot_map {
	unsigned int nr_slots;
	/* port number of the slot at each lane, PCIESW_NO_SLOT if none */
	u8 port_at[PCIESW_MAX_LANES];
	/* first lane of each port number */
	u16 lane_of[PCIESW_MAX_PORTS];
};

static struct pciesw_slot_map pciesw_slot_maps[ARRAY_SIZE(pciesw_profiles)];

static const struct pciesw_slot_map *
pciesw_slots(const struct pciesw_profile *p)
{
	return &pciesw_slot_maps[p - pciesw_profiles];
}

/* Port numbers the card has: one per slot. */
unsigned int pciesw_profile_nr_slots(const struct pciesw_profile *p)
{
	return pciesw_slots(p)->nr_slots;
}

/* The number of the port whose first lane is @lane, -1 if no port can. */
int pciesw_profile_port_at(const struct pciesw_profile *p, unsigned int lane)
{
	const struct pciesw_slot_map *m = pciesw_slots(p);

	if (lane >= p->nr_lanes || m->port_at[lane] == PCIESW_NO_SLOT)
		return -1;
	return m->port_at[lane];
}

/* The first lane of port number @port (< the slot count). */
unsigned int pciesw_profile_port_lane(const struct pciesw_profile *p,
				      unsigned int port)
{
	return pciesw_slots(p)->lane_of[port];
}

/* Does a port of group @d start at @lane in configuration @c? */
static bool pciesw_config_starts(const struct pciesw_group_desc *d,
				 unsigned int c, unsigned int lane)
{
	const struct pciesw_bifurcation *b = &d->configs[c];
	unsigned int off = lane - d->first_lane;

	return off % b->width == 0 && off / b->width < b->nr_ports;
}

/* Number the slots of @p (see the top of this file); false if too many. */
static bool pciesw_profile_number(const struct pciesw_profile *p,
				  struct pciesw_slot_map *m)
{
	unsigned int g, c, lane, pass;

	memset(m->port_at, PCIESW_NO_SLOT, sizeof(m->port_at));
	m->nr_slots = 0;
	/* pass 0: the default configurations' slots; pass 1: the rest */
	for (pass = 0; pass < 2; pass++) {
		for (g = 0; g < p->nr_groups; g++) {
			const struct pciesw_group_desc *d = &p->groups[g];

			for (lane = d->first_lane;
			     lane < d->first_lane + d->nr_lanes; lane++) {
				bool used = false;

				if (m->port_at[lane] != PCIESW_NO_SLOT)
					continue;
				for (c = 0; c < d->nr_configs; c++)
					if ((pass || c == d->default_config) &&
					    pciesw_config_starts(d, c, lane))
						used = true;
				if (!used)
					continue;
				if (m->nr_slots >= PCIESW_MAX_PORTS)
					return false;
				m->port_at[lane] = m->nr_slots;
				m->lane_of[m->nr_slots++] = lane;
			}
		}
	}
	return true;
}

/* Refuse to load with a table that would build an impossible card. */
int pciesw_profiles_check(void)
{
	unsigned int i, g, c;

	for (i = 0; i < ARRAY_SIZE(pciesw_profiles); i++) {
		const struct pciesw_profile *p = &pciesw_profiles[i];
		unsigned int lane = 0;

		for (g = 0; g < p->nr_groups; g++) {
			const struct pciesw_group_desc *d = &p->groups[g];

			if (d->first_lane != lane || !d->nr_configs ||
			    d->default_config >= d->nr_configs)
				goto bad;
			for (c = 0; c < d->nr_configs; c++) {
				const struct pciesw_bifurcation *b = &d->configs[c];

				if (!b->nr_ports || !b->width ||
				    b->nr_ports > PCIESW_MAX_GROUP_PORTS ||
				    b->width > 16 || !is_power_of_2(b->width) ||
				    b->nr_ports * b->width > d->nr_lanes ||
				    (d->type == PCIESW_GROUP_TYPE_HOST &&
				     b->nr_ports != 1))
					goto bad;
			}
			lane += d->nr_lanes;
		}
		/* the VPD image has room for this much (see vpd.c) */
		if (strlen(p->description) > PCIESW_VPD_ID_MAX ||
		    strlen(p->part_number) >= PCIESW_NAME_LEN ||
		    strlen(p->serial_prefix) >= PCIESW_NAME_LEN - 6)
			goto bad;
		if (lane != p->nr_lanes || lane > PCIESW_MAX_LANES ||
		    p->groups[0].type != PCIESW_GROUP_TYPE_HOST)
			goto bad;
		/*
		 * at most PCIESW_MAX_PORTS slots (pex89144 has 81), and the
		 * upstream port is port 0 whatever its width: one slot only
		 */
		if (!pciesw_profile_number(p, &pciesw_slot_maps[i]))
			goto bad;
		for (lane = 1; lane < p->groups[0].nr_lanes; lane++)
			if (pciesw_slot_maps[i].port_at[lane] != PCIESW_NO_SLOT)
				goto bad;
		continue;
bad:
		pr_err("pciesw: profile %s is inconsistent\n", p->name);
		return -EINVAL;
	}
	return 0;
}
