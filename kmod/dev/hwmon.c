// SPDX-License-Identifier: GPL-2.0
/*
 * hwmon view of the temperature sensors, so that `sensors` shows the card:
 * temp1..temp5 are the five sensors (input, label, max and crit writable
 * by root, max_hyst and crit_hyst, max_alarm and crit_alarm), temp6 is the
 * highest of them (input, label, and alarms that are the OR of the
 * sensors'; it has no limits of its own).
 *
 * libsensors ignores a hwmon device whose parent sits on a bus it does not
 * know, so the hwmon device hangs off a platform device, a child of
 * pcieswN: `sensors` shows it as pciesw-isa-000N.  The platform device is
 * named "pciesw_thermal.N", without a '-', because libsensors takes the
 * address of a platform device from the number after "[a-z0-9_]+.".
 *
 * Both are registered and unregistered explicitly in instance.c's setup and
 * teardown ladder: a devm registration on a device without a driver would
 * only be undone at its last put, possibly after the module is gone.
 */

#include <linux/hwmon.h>
#include <linux/platform_device.h>

#include "instance.h"

/* temp6: the highest of the sensors */
#define PCIESW_HWMON_HIGHEST	PCIESW_NR_SENSORS

#define PCIESW_HWMON_SENSOR	(HWMON_T_INPUT | HWMON_T_LABEL |	\
				 HWMON_T_MAX | HWMON_T_MAX_HYST |	\
				 HWMON_T_CRIT | HWMON_T_CRIT_HYST |	\
				 HWMON_T_MAX_ALARM | HWMON_T_CRIT_ALARM)

static const u32 pciesw_hwmon_temp_config[] = {
	PCIESW_HWMON_SENSOR,
	PCIESW_HWMON_SENSOR,
	PCIESW_HWMON_SENSOR,
	PCIESW_HWMON_SENSOR,
	PCIESW_HWMON_SENSOR,
	HWMON_T_INPUT | HWMON_T_LABEL | HWMON_T_MAX_ALARM | HWMON_T_CRIT_ALARM,
	0
};

static_assert(ARRAY_SIZE(pciesw_hwmon_temp_config) == PCIESW_NR_SENSORS + 2);

static const struct hwmon_channel_info pciesw_hwmon_temp = {
	.type = hwmon_temp,
	.config = pciesw_hwmon_temp_config,
};

static const struct hwmon_channel_info *pciesw_hwmon_info[] = {
	&pciesw_hwmon_temp,
	NULL
};

static umode_t pciesw_hwmon_is_visible(const void *data,
				       enum hwmon_sensor_types type, u32 attr,
				       int channel)
{
	if (type != hwmon_temp)
		return 0;
	switch (attr) {
	case hwmon_temp_max:
	case hwmon_temp_crit:
		return channel < PCIESW_NR_SENSORS ? 0644 : 0;
	default:
		return 0444;
	}
}

static int pciesw_hwmon_read_highest(struct pciesw_switch *sw, u32 attr,
				     long *val)
{
	switch (attr) {
	case hwmon_temp_input:
		*val = pciesw_thermal_highest(sw);
		return 0;
	case hwmon_temp_max_alarm:
		*val = !!pciesw_thermal_alarms(sw, PCIESW_ALARM_WARNING);
		return 0;
	case hwmon_temp_crit_alarm:
		*val = !!pciesw_thermal_alarms(sw, PCIESW_ALARM_CRITICAL);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int pciesw_hwmon_read_sensor(struct pciesw_switch *sw, u32 attr,
				    unsigned int i, long *val)
{
	const struct pciesw_sensor *s = &sw->thermal.sensors[i];

	switch (attr) {
	case hwmon_temp_input:
		*val = pciesw_sensor_temp(sw, i);
		return 0;
	case hwmon_temp_max:
		*val = s->max;
		return 0;
	case hwmon_temp_crit:
		*val = s->crit;
		return 0;
	case hwmon_temp_max_hyst:
		*val = s->max - PCIESW_TEMP_HYST;
		return 0;
	case hwmon_temp_crit_hyst:
		*val = s->crit - PCIESW_TEMP_HYST;
		return 0;
	case hwmon_temp_max_alarm:
		*val = s->max_alarm;
		return 0;
	case hwmon_temp_crit_alarm:
		*val = s->crit_alarm;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/*
 * The hwmon device is never unregistered under sw->lock, so these may wait
 * for it.
 */
static int pciesw_hwmon_read(struct device *dev, enum hwmon_sensor_types type,
			     u32 attr, int channel, long *val)
{
	struct pciesw_switch *sw = dev_get_drvdata(dev);
	int ret;

	if (type != hwmon_temp || channel < 0 ||
	    channel > PCIESW_HWMON_HIGHEST)
		return -EOPNOTSUPP;
	mutex_lock(&sw->lock);
	pciesw_thermal_update(sw);
	if (channel == PCIESW_HWMON_HIGHEST)
		ret = pciesw_hwmon_read_highest(sw, attr, val);
	else
		ret = pciesw_hwmon_read_sensor(sw, attr, channel, val);
	mutex_unlock(&sw->lock);
	return ret;
}

static int pciesw_hwmon_read_string(struct device *dev,
				    enum hwmon_sensor_types type, u32 attr,
				    int channel, const char **str)
{
	if (type != hwmon_temp || attr != hwmon_temp_label || channel < 0 ||
	    channel > PCIESW_HWMON_HIGHEST)
		return -EOPNOTSUPP;
	*str = channel == PCIESW_HWMON_HIGHEST ? "highest" :
						 pciesw_sensor_label(channel);
	return 0;
}

/* Out-of-range limits are clamped, as hwmon drivers do. */
static int pciesw_hwmon_write(struct device *dev, enum hwmon_sensor_types type,
			      u32 attr, int channel, long val)
{
	struct pciesw_switch *sw = dev_get_drvdata(dev);
	int t = clamp_val(val, PCIESW_TEMP_MIN, PCIESW_TEMP_MAX);
	const char *why = NULL;
	int err;

	if (type != hwmon_temp || channel < 0 || channel >= PCIESW_NR_SENSORS ||
	    (attr != hwmon_temp_max && attr != hwmon_temp_crit))
		return -EOPNOTSUPP;
	mutex_lock(&sw->lock);
	err = pciesw_sensor_set_limits(sw, channel,
				       attr == hwmon_temp_max ? &t : NULL,
				       attr == hwmon_temp_crit ? &t : NULL,
				       &why);
	mutex_unlock(&sw->lock);
	if (err && why)
		dev_err(dev, "temp%d_%s: %s\n", channel + 1,
			attr == hwmon_temp_max ? "max" : "crit", why);
	return err;
}

static const struct hwmon_ops pciesw_hwmon_ops = {
	.is_visible = pciesw_hwmon_is_visible,
	.read = pciesw_hwmon_read,
	.read_string = pciesw_hwmon_read_string,
	.write = pciesw_hwmon_write,
};

static const struct hwmon_chip_info pciesw_hwmon_chip = {
	.ops = &pciesw_hwmon_ops,
	.info = pciesw_hwmon_info,
};

int pciesw_hwmon_add(struct pciesw_dev *pdev)
{
	struct platform_device *thermal;
	struct device *hwmon;
	int err;

	thermal = platform_device_alloc("pciesw_thermal", pdev->sw->id);
	if (!thermal)
		return -ENOMEM;
	thermal->dev.parent = &pdev->dev;
	err = platform_device_add(thermal);
	if (err) {
		platform_device_put(thermal);
		return err;
	}
	hwmon = hwmon_device_register_with_info(&thermal->dev, "pciesw",
						pdev->sw, &pciesw_hwmon_chip,
						NULL);
	if (IS_ERR(hwmon)) {
		platform_device_unregister(thermal);
		return PTR_ERR(hwmon);
	}
	pdev->thermal = thermal;
	pdev->hwmon = hwmon;
	return 0;
}

void pciesw_hwmon_del(struct pciesw_dev *pdev)
{
	hwmon_device_unregister(pdev->hwmon);
	pdev->hwmon = NULL;
	platform_device_unregister(pdev->thermal);
	pdev->thermal = NULL;
}

/* a snapshot that says temp6's alarm (the OR of all) changed too */
static const char pciesw_hwmon_or_changed;

/* With sw->lock held: did the OR change with this alarm? */
static void *pciesw_hwmon_snapshot(const struct pciesw_event *ev)
{
	if (ev->type != PCIESW_EV_THERMAL_ALARM)
		return NULL;
	/* it did if this is the only one now */
	if (pciesw_thermal_alarms(ev->sw, ev->level) == ev->active)
		return (void *)&pciesw_hwmon_or_changed;
	return NULL;
}

/* A sensor's alarm changed: wake pollers of the alarm files. */
static void pciesw_hwmon_apply(const struct pciesw_event *ev, void *snap)
{
	struct pciesw_dev *pdev;
	u32 attr;

	if (ev->type != PCIESW_EV_THERMAL_ALARM)
		return;
	pdev = pciesw_dev_of(ev->sw);
	if (!pdev || !pdev->hwmon)
		return;
	attr = ev->level == PCIESW_ALARM_CRITICAL ? hwmon_temp_crit_alarm :
						    hwmon_temp_max_alarm;
	hwmon_notify_event(pdev->hwmon, hwmon_temp, attr, ev->sensor);
	if (snap == &pciesw_hwmon_or_changed)
		hwmon_notify_event(pdev->hwmon, hwmon_temp, attr,
				   PCIESW_HWMON_HIGHEST);
}

static const struct pciesw_view pciesw_hwmon_view = {
	.snapshot = pciesw_hwmon_snapshot,
	.apply = pciesw_hwmon_apply,
};

void pciesw_hwmon_init(void)
{
	pciesw_view_register(PCIESW_VIEW_HWMON, &pciesw_hwmon_view);
}

void pciesw_hwmon_exit(void)
{
	pciesw_view_unregister(PCIESW_VIEW_HWMON);
}
