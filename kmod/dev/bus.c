// SPDX-License-Identifier: GPL-2.0
/*
 * The pciesw bus: /sys/bus/pciesw/{new_device,del_device} (netdevsim style)
 * and the sysfs attributes of each pcieswN device.
 */

#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <pciesw_compat.h>
#include "instance.h"

static struct pciesw_switch *dev_to_sw(struct device *dev)
{
	return to_pciesw_dev(dev)->sw;
}

static ssize_t profile_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_sw(dev)->profile->name);
}
static DEVICE_ATTR_RO(profile);

static ssize_t description_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_sw(dev)->profile->description);
}
static DEVICE_ATTR_RO(description);

static ssize_t part_number_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_sw(dev)->profile->part_number);
}
static DEVICE_ATTR_RO(part_number);

static ssize_t lanes_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_sw(dev)->profile->nr_lanes);
}
static DEVICE_ATTR_RO(lanes);

/* root-only, like the VPD it is part of (the PCI core's vpd is 0600) */
static ssize_t serial_number_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_sw(dev)->serial);
}
static DEVICE_ATTR_ADMIN_RO(serial_number);

static ssize_t switch_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_sw(dev)->id);
}
static DEVICE_ATTR_RO(switch_id);

static ssize_t nr_ports_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct pciesw_switch *sw = dev_to_sw(dev);
	unsigned int n;

	mutex_lock(&sw->lock);
	n = sw->nr_ports;
	mutex_unlock(&sw->lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(nr_ports);

static ssize_t dma_inflight_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", pciesw_dma_inflight(dev_to_sw(dev)));
}
static DEVICE_ATTR_RO(dma_inflight);

/* switch settings, one per file; writes go through pciesw_switch_set() */
struct pciesw_setting_attr {
	struct device_attribute attr;
	enum pciesw_setting setting;
};

static ssize_t pciesw_setting_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct pciesw_setting_attr *sa = container_of(attr,
						      struct pciesw_setting_attr,
						      attr);
	struct pciesw_switch *sw = dev_to_sw(dev);
	u32 v;

	mutex_lock(&sw->lock);
	v = pciesw_switch_setting(sw, sa->setting);
	mutex_unlock(&sw->lock);
	return sysfs_emit(buf, "%u\n", v);
}

static ssize_t pciesw_setting_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct pciesw_setting_attr *sa = container_of(attr,
						      struct pciesw_setting_attr,
						      attr);
	struct pciesw_switch *sw = dev_to_sw(dev);
	struct pciesw_settings set = { .set = BIT(sa->setting) };
	enum pciesw_setting bad;
	const char *why = NULL;
	int err;

	/* as netlink's switch-set pci-view: the PCI view is a host bridge */
	if (sa->setting == PCIESW_SETTING_PCI_VIEW && !capable(CAP_SYS_ADMIN)) {
		dev_err(dev, "%s: toggling the PCI view needs CAP_SYS_ADMIN\n",
			attr->attr.name);
		return -EPERM;
	}
	err = kstrtou32(buf, 0, &set.val[sa->setting]);
	if (err)
		return err;
	mutex_lock(&sw->lock);
	err = pciesw_switch_set(sw, &set, &bad, &why);
	mutex_unlock(&sw->lock);
	pciesw_sysfs_sync(dev, attr, sw);
	if (!err && sa->setting == PCIESW_SETTING_PCI_VIEW &&
	    set.val[sa->setting]) {
		/* the view turns the setting back off if it cannot be made */
		mutex_lock(&sw->lock);
		if (!pciesw_switch_setting(sw, PCIESW_SETTING_PCI_VIEW)) {
			err = -ENOMEM;
			why = "the PCI view could not be created (out of memory)";
		}
		mutex_unlock(&sw->lock);
	}
	if (err) {
		dev_err(dev, "%s: %s\n", attr->attr.name, why);
		return err;
	}
	return count;
}

#define PCIESW_SETTING_ATTR(_name, _s)					\
static struct pciesw_setting_attr pciesw_setting_attr_##_name = {	\
	.attr = __ATTR(_name, 0644, pciesw_setting_show,		\
		       pciesw_setting_store),				\
	.setting = PCIESW_SETTING_##_s,					\
}

PCIESW_SETTING_ATTR(host_p2p, HOST_P2P);
PCIESW_SETTING_ATTR(dma_pacing, DMA_PACING);
PCIESW_SETTING_ATTR(mps, MPS);
PCIESW_SETTING_ATTR(dma_channels, DMA_CHANNELS);
PCIESW_SETTING_ATTR(pci_view, PCI_VIEW);

/*
 * the PCI domain the switch's PCI view uses (while pci_view is 1), as
 * lspci writes it; "none" if no domain was free of firmware's claims
 */
static ssize_t pci_domain_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	u32 d = pciesw_pci_domain(dev_to_sw(dev));

	if (d == PCIESW_PCI_DOMAIN_NONE)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%04x\n", d);
}
static DEVICE_ATTR_RO(pci_domain);

/*
 * The raw VPD image, like a PCI device's vpd file, and root-only like it;
 * size 0: read to EOF.
 */
static ssize_t vpd_read(struct file *filp, struct kobject *kobj,
			struct bin_attribute *attr, char *buf, loff_t off,
			size_t count)
{
	struct pciesw_switch *sw = dev_to_sw(kobj_to_dev(kobj));
	ssize_t len;

	mutex_lock(&sw->lock);
	len = pciesw_vpd_read(sw, buf, off, count);
	mutex_unlock(&sw->lock);
	return len;
}
static BIN_ATTR_ADMIN_RO(vpd, 0);

static struct bin_attribute *pciesw_dev_bin_attrs[] = {
	&bin_attr_vpd,
	NULL
};

/* vpd_info/: one decoded VPD field per file, by keyword; root-only */
struct pciesw_vpd_attr {
	struct device_attribute attr;
	const char *keyword;
};

static ssize_t pciesw_vpd_attr_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct pciesw_vpd_attr *va = container_of(attr, struct pciesw_vpd_attr,
						  attr);
	struct pciesw_switch *sw = dev_to_sw(dev);
	struct pciesw_vpd_field *f;
	ssize_t len;

	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_lock(&sw->lock);
	if (!va->keyword)
		pciesw_vpd_id_string(sw, f->value, sizeof(f->value));
	else if (pciesw_vpd_find(sw, va->keyword, f))
		f->value[0] = '\0';
	mutex_unlock(&sw->lock);
	len = sysfs_emit(buf, "%s\n", f->value);
	kfree(f);
	return len;
}

static ssize_t asset_tag_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	struct pciesw_switch *sw = dev_to_sw(dev);
	const char *why = NULL;
	size_t len;
	char *tag;
	int err;

	/* one line: the newline echo adds is not part of the tag */
	tag = kstrndup(buf, count, GFP_KERNEL);
	if (!tag)
		return -ENOMEM;
	/* kstrndup() stops at a NUL: the copy may be shorter than count */
	len = strlen(tag);
	if (len && tag[len - 1] == '\n')
		tag[len - 1] = '\0';
	mutex_lock(&sw->lock);
	err = pciesw_vpd_set(sw, "YA", tag, &why);
	mutex_unlock(&sw->lock);
	pciesw_sysfs_sync(dev, attr, sw);
	if (err)
		dev_err(dev, "vpd_info/asset_tag: %s\n", why);
	kfree(tag);
	return err ?: count;
}

#define PCIESW_VPD_ATTR(_name, _kw, _mode, _store) \
	struct pciesw_vpd_attr pciesw_vpd_attr_##_name = { \
		.attr = __ATTR(_name, _mode, pciesw_vpd_attr_show, _store), \
		.keyword = _kw, \
	}

static PCIESW_VPD_ATTR(id_string, NULL, 0400, NULL);
static PCIESW_VPD_ATTR(part_number, "PN", 0400, NULL);
static PCIESW_VPD_ATTR(engineering_change, "EC", 0400, NULL);
static PCIESW_VPD_ATTR(serial_number, "SN", 0400, NULL);
static PCIESW_VPD_ATTR(manufacturer_id, "MN", 0400, NULL);
static PCIESW_VPD_ATTR(firmware_version, "V0", 0400, NULL);
static PCIESW_VPD_ATTR(batch, "V1", 0400, NULL);
static PCIESW_VPD_ATTR(config, "V2", 0400, NULL);
static PCIESW_VPD_ATTR(asset_tag, "YA", 0600, asset_tag_store);

static struct attribute *pciesw_vpd_attrs[] = {
	&pciesw_vpd_attr_id_string.attr.attr,
	&pciesw_vpd_attr_part_number.attr.attr,
	&pciesw_vpd_attr_engineering_change.attr.attr,
	&pciesw_vpd_attr_serial_number.attr.attr,
	&pciesw_vpd_attr_manufacturer_id.attr.attr,
	&pciesw_vpd_attr_firmware_version.attr.attr,
	&pciesw_vpd_attr_batch.attr.attr,
	&pciesw_vpd_attr_config.attr.attr,
	&pciesw_vpd_attr_asset_tag.attr.attr,
	NULL
};

static const struct attribute_group pciesw_vpd_group = {
	.name = "vpd_info",
	.attrs = pciesw_vpd_attrs,
};

static struct attribute *pciesw_dev_attrs[] = {
	&dev_attr_switch_id.attr,
	&dev_attr_profile.attr,
	&dev_attr_description.attr,
	&dev_attr_part_number.attr,
	&dev_attr_lanes.attr,
	&dev_attr_serial_number.attr,
	&dev_attr_nr_ports.attr,
	&pciesw_setting_attr_host_p2p.attr.attr,
	&pciesw_setting_attr_dma_pacing.attr.attr,
	&pciesw_setting_attr_mps.attr.attr,
	&pciesw_setting_attr_dma_channels.attr.attr,
	&dev_attr_dma_inflight.attr,
	&pciesw_setting_attr_pci_view.attr.attr,
	&dev_attr_pci_domain.attr,
	NULL
};

static const struct attribute_group pciesw_dev_group = {
	.attrs = pciesw_dev_attrs,
	.bin_attrs = pciesw_dev_bin_attrs,
};

const struct attribute_group *pciesw_dev_groups[] = {
	&pciesw_dev_group,
	&pciesw_vpd_group,
	NULL
};

const struct device_type pciesw_switch_devtype = {
	.name = "pciesw_switch",
};

/*
 * Split "ID [PROFILE]" (or "ID" when @profile is NULL) strictly: one
 * decimal id, at most one profile word, nothing else.
 */
static int pciesw_bus_parse(const char *op, const char *buf, u32 *id,
			    char *profile, size_t profile_len)
{
	char line[64], *p = line, *tok;
	int err;

	if (strscpy(line, buf, sizeof(line)) < 0) {
		pr_err("pciesw: %s: input too long\n", op);
		return -EINVAL;
	}
	p = strim(line);
	tok = strsep(&p, " \t");
	/* kstrtou32() would also take a sign */
	err = isdigit(tok[0]) ? kstrtou32(tok, 10, id) : -EINVAL;
	if (err || *id > PCIESW_MAX_SWITCH_ID) {
		pr_err("pciesw: %s: switch id must be a number 0-%u, got \"%s\"\n",
		       op, PCIESW_MAX_SWITCH_ID, tok);
		return -EINVAL;
	}
	if (p)
		p = skip_spaces(p);
	if (!p || !*p) {
		if (profile)
			profile[0] = '\0';
		return 0;
	}
	if (!profile) {
		pr_err("pciesw: %s: expected \"ID\", got extra \"%s\"\n", op, p);
		return -EINVAL;
	}
	if (strpbrk(p, " \t") || strscpy(profile, p, profile_len) < 0) {
		pr_err("pciesw: %s: expected \"ID [PROFILE]\", got extra \"%s\"\n",
		       op, p);
		return -EINVAL;
	}
	return 0;
}

static ssize_t new_device_store(pciesw_bus_t *bus,
				const char *buf, size_t count)
{
	char profile[PCIESW_NAME_LEN];
	const char *why = NULL;
	u32 id;
	int err;

	if (!capable(CAP_SYS_ADMIN)) {
		pr_err("pciesw: new_device: creating a switch needs CAP_SYS_ADMIN\n");
		return -EPERM;
	}
	err = pciesw_bus_parse("new_device", buf, &id, profile,
			       sizeof(profile));
	if (err)
		return err;
	err = pciesw_instance_new(id, profile[0] ? profile : NULL, &why);
	if (err) {
		pr_err("pciesw: new_device %u%s%s: %s\n", id,
		       profile[0] ? " " : "", profile, why);
		return err;
	}
	return count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(pciesw_bus_t *bus,
				const char *buf, size_t count)
{
	const char *why = NULL;
	u32 id;
	int err;

	if (!capable(CAP_SYS_ADMIN)) {
		pr_err("pciesw: del_device: deleting a switch needs CAP_SYS_ADMIN\n");
		return -EPERM;
	}
	err = pciesw_bus_parse("del_device", buf, &id, NULL, 0);
	if (err)
		return err;
	err = pciesw_instance_del(id, &why);
	if (err) {
		pr_err("pciesw: del_device %u: %s\n", id, why);
		return err;
	}
	return count;
}
static BUS_ATTR_WO(del_device);

/* the profile names new_device accepts, one per line, default first */
static ssize_t profiles_show(pciesw_bus_t *bus, char *buf)
{
	unsigned int i;
	ssize_t len = 0;

	for (i = 0; i < pciesw_profile_count(); i++)
		len += sysfs_emit_at(buf, len, "%s\n",
				     pciesw_profile_get(i)->name);
	return len;
}
static BUS_ATTR_RO(profiles);

static struct attribute *pciesw_bus_attrs[] = {
	&bus_attr_profiles.attr,
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(pciesw_bus);

pciesw_bus_t pciesw_bus_type = {
	.name = "pciesw",
	.bus_groups = pciesw_bus_groups,
};

/*
 * The switches' driver: it binds to each switch device so that the device
 * names its driver (devlink dev info reports it); ports and endpoints stay
 * unbound.  Binding does nothing else, and cannot be undone from sysfs.
 */
static int pciesw_switch_probe(struct device *dev)
{
	return dev->type == &pciesw_switch_devtype ? 0 : -ENODEV;
}

static struct device_driver pciesw_switch_driver = {
	.name = "pciesw",
	.bus = &pciesw_bus_type,
	.probe = pciesw_switch_probe,
	.suppress_bind_attrs = true,
};

int pciesw_bus_init(void)
{
	int err = bus_register(&pciesw_bus_type);

	if (err)
		return err;
	err = driver_register(&pciesw_switch_driver);
	if (err)
		bus_unregister(&pciesw_bus_type);
	return err;
}

void pciesw_bus_exit(void)
{
	driver_unregister(&pciesw_switch_driver);
	bus_unregister(&pciesw_bus_type);
}
