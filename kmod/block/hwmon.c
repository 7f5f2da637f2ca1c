// SPDX-License-Identifier: GPL-2.0
/*
 * The drives' sensors in hwmon, part of the block view, as the nvme driver
 * registers them (drivers/nvme/host/hwmon.c): one hwmon device named
 * "nvme" per drive, hanging off the device its disk hangs off (the
 * drive's PCI function while the PCI view is on, so that `sensors` shows
 * nvme-pci-XXXX; else the pciesw endpoint device), with the Composite
 * temperature: temp1_input from the SMART log, temp1_min and temp1_max the
 * under and over thresholds of the Temperature Threshold feature (FID 4,
 * writable as nvme's: Set Features), temp1_crit the controller's CCTEMP
 * and temp1_alarm the SMART critical warning's temperature bit.
 *
 * It lives as long as the disk: disk.c registers it once the disk is added
 * and unregisters it before the disk goes, with blk->attach_lock held as
 * for the disk (so its parent is there), never sw->lock or a spinlock.  Its
 * callbacks take sw->lock (the card's sensor) and the drive's spinlock only
 * inside the model, and never attach_lock, so unregistering, which waits
 * for them, cannot wait on itself.
 */

#include <linux/hwmon.h>
#include <linux/nvme.h>

#include "block/blk.h"

static const struct hwmon_channel_info *pciesw_blk_hwmon_info[] = {
	HWMON_CHANNEL_INFO(temp,
			   HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_MIN |
			   HWMON_T_CRIT | HWMON_T_LABEL | HWMON_T_ALARM),
	NULL
};

static umode_t pciesw_blk_hwmon_is_visible(const void *data,
					   enum hwmon_sensor_types type,
					   u32 attr, int channel)
{
	if (type != hwmon_temp || channel)
		return 0;
	switch (attr) {
	case hwmon_temp_max:
	case hwmon_temp_min:
		return 0644;
	case hwmon_temp_input:
	case hwmon_temp_crit:
	case hwmon_temp_label:
	case hwmon_temp_alarm:
		return 0444;
	default:
		return 0;
	}
}

static int pciesw_blk_hwmon_read(struct device *dev,
				 enum hwmon_sensor_types type, u32 attr,
				 int channel, long *val)
{
	struct pciesw_blk_disk *d = dev_get_drvdata(dev);
	struct pciesw_nvme_health h;

	if (type != hwmon_temp || channel)
		return -EOPNOTSUPP;
	pciesw_nvme_health(d->nvme, d->sw, &h);
	switch (attr) {
	case hwmon_temp_input:
		*val = h.temp;
		return 0;
	case hwmon_temp_max:
		*val = h.temp_over;
		return 0;
	case hwmon_temp_min:
		*val = h.temp_under;
		return 0;
	case hwmon_temp_crit:
		*val = h.temp_crit;
		return 0;
	case hwmon_temp_alarm:
		*val = !!(h.critical_warning & NVME_SMART_CRIT_TEMPERATURE);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int pciesw_blk_hwmon_read_string(struct device *dev,
					enum hwmon_sensor_types type,
					u32 attr, int channel, const char **str)
{
	if (type != hwmon_temp || attr != hwmon_temp_label || channel)
		return -EOPNOTSUPP;
	*str = "Composite";
	return 0;
}

static int pciesw_blk_hwmon_write(struct device *dev,
				  enum hwmon_sensor_types type, u32 attr,
				  int channel, long val)
{
	struct pciesw_blk_disk *d = dev_get_drvdata(dev);

	if (type != hwmon_temp || channel ||
	    (attr != hwmon_temp_max && attr != hwmon_temp_min))
		return -EOPNOTSUPP;
	return pciesw_nvme_set_temp_thresh(d->nvme, d->sw,
					   attr == hwmon_temp_min, val);
}

static const struct hwmon_ops pciesw_blk_hwmon_ops = {
	.is_visible = pciesw_blk_hwmon_is_visible,
	.read = pciesw_blk_hwmon_read,
	.read_string = pciesw_blk_hwmon_read_string,
	.write = pciesw_blk_hwmon_write,
};

static const struct hwmon_chip_info pciesw_blk_hwmon_chip = {
	.ops = &pciesw_blk_hwmon_ops,
	.info = pciesw_blk_hwmon_info,
};

/*
 * After the disk of @d is added, off the same parent: a drive without
 * its sensors still has its disk, so a failure is only logged.
 */
void pciesw_blk_hwmon_add(struct pciesw_blk_disk *d)
{
	struct device *hwmon;

	hwmon = hwmon_device_register_with_info(d->parent, "nvme", d,
						&pciesw_blk_hwmon_chip, NULL);
	if (IS_ERR(hwmon)) {
		pr_warn("pciesw: %s: no hwmon device: %ld\n", d->name,
			PTR_ERR(hwmon));
		return;
	}
	d->hwmon = hwmon;
}

/* Before the disk goes: its callbacks have returned when this does. */
void pciesw_blk_hwmon_del(struct pciesw_blk_disk *d)
{
	if (d->hwmon)
		hwmon_device_unregister(d->hwmon);
	d->hwmon = NULL;
}
