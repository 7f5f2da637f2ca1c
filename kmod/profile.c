// SPDX-License-Identifier: GPL-2.0
/*
 * Card models.  A profile is data, not code: adding a card is adding an
 * entry here; nothing else in the module knows profile names.
 */

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "pciesw.h"

#define BIF(n, w)	{ .nr_ports = (n), .width = (w) }

static const struct pciesw_profile pciesw_profiles[] = {
	{
		/* Rocket 7638D class: PEX 89048, 3 x16 groups */
		.name = "pex89048",
		.description = "PEX89048-class 48-lane PCIe 5.0 switch card",
		.part_number = "PSW-7638D",
		.serial_prefix = "PSW48",
		/* PEX890xx Gen 5 switch, PEX89048 subsystem */
		.pci_device = 0xc030,
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

/* The most ports the card can have: each group at its widest split. */
unsigned int pciesw_profile_max_ports(const struct pciesw_profile *p)
{
	unsigned int g, c, ports = 0;

	for (g = 0; g < p->nr_groups; g++) {
		unsigned int most = 0;

		for (c = 0; c < p->groups[g].nr_configs; c++)
			most = max_t(unsigned int, most,
				     p->groups[g].configs[c].nr_ports);
		ports += most;
	}
	return ports;
}

/* Refuse to load with a table that would build an impossible card. */
int pciesw_profiles_check(void)
{
	unsigned int i, g, c;

	for (i = 0; i < ARRAY_SIZE(pciesw_profiles); i++) {
		const struct pciesw_profile *p = &pciesw_profiles[i];
		unsigned int lane = 0, ports = 0;

		for (g = 0; g < p->nr_groups; g++) {
			const struct pciesw_group_desc *d = &p->groups[g];
			unsigned int most = 0;

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
				most = max_t(unsigned int, most, b->nr_ports);
			}
			lane += d->nr_lanes;
			ports += most;
		}
		/* the VPD image has room for this much (see vpd.c) */
		if (strlen(p->description) > PCIESW_VPD_ID_MAX ||
		    strlen(p->part_number) >= PCIESW_NAME_LEN ||
		    strlen(p->serial_prefix) >= PCIESW_NAME_LEN - 6)
			goto bad;
		if (lane != p->nr_lanes || ports > PCIESW_MAX_PORTS ||
		    p->groups[0].type != PCIESW_GROUP_TYPE_HOST)
			goto bad;
		continue;
bad:
		pr_err("pciesw: profile %s is inconsistent\n", p->name);
		return -EINVAL;
	}
	return 0;
}
