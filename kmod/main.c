// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw: a virtual PCIe 5.0 switch card.
 *
 * Load order: the views' infrastructure first (char device region, bus,
 * netlink family, PCI driver), then the switches, so that nothing is
 * reachable before the code that serves it; unload runs the same steps
 * backwards.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "model/event.h"
#include "model/pciesw.h"

static unsigned int nr_switches = 1;
module_param(nr_switches, uint, 0444);
MODULE_PARM_DESC(nr_switches,
		 "Number of switches (pciesw0..N-1) created at load, default 1, at most 256");

static int __init pciesw_init(void)
{
	const char *why = NULL;
	unsigned int i;
	int err;

	if (nr_switches > PCIESW_MAX_SWITCH_ID + 1) {
		pr_err("pciesw: nr_switches=%u is more than %u\n", nr_switches,
		       PCIESW_MAX_SWITCH_ID + 1);
		return -EINVAL;
	}
	err = pciesw_profiles_check();
	if (err)
		return err;

	err = pciesw_dma_cache_init();
	if (err)
		return err;
	pciesw_dma_file_init();
	err = pciesw_event_wq_init();
	if (err)
		goto err_cache;
	err = pciesw_chardev_init();
	if (err)
		goto err_event;
	err = pciesw_bus_init();
	if (err)
		goto err_chardev;
	err = pciesw_netlink_init();
	if (err)
		goto err_bus;
	err = pciesw_pci_init();
	if (err)
		goto err_netlink;
	err = pciesw_instance_init();
	if (err)
		goto err_pci;

	for (i = 0; i < nr_switches; i++) {
		err = pciesw_instance_new(i, NULL, &why);
		if (err) {
			pr_err("pciesw: cannot create pciesw%u: %s\n", i, why);
			goto err_devs;
		}
	}
	return 0;

err_devs:
	pciesw_instance_exit();
err_pci:
	pciesw_pci_exit();
err_netlink:
	pciesw_netlink_exit();
err_bus:
	pciesw_bus_exit();
err_chardev:
	pciesw_chardev_exit();
err_event:
	pciesw_event_wq_exit();
err_cache:
	pciesw_dma_file_exit();
	pciesw_dma_cache_exit();
	return err;
}

static void __exit pciesw_exit(void)
{
	pciesw_instance_exit();
	pciesw_mem_exit();
	pciesw_pci_exit();
	pciesw_netlink_exit();
	pciesw_bus_exit();
	pciesw_chardev_exit();
	pciesw_event_wq_exit();
	pciesw_dma_file_exit();
	pciesw_dma_cache_exit();
}

module_init(pciesw_init);
module_exit(pciesw_exit);

MODULE_DESCRIPTION("Virtual PCIe 5.0 switch card");
MODULE_LICENSE("GPL");
