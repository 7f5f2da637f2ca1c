// SPDX-License-Identifier: GPL-2.0
/*
 * devlink: each switch is a devlink instance, pciesw/pcieswN (its bus and
 * device name), so the stock iproute2 `devlink` drives it:
 *
 *	devlink dev info	ASIC and board ids, board revision (VPD EC),
 *				running and stored firmware versions; no
 *				serial number (see pciesw_devlink_info_get())
 *	devlink dev flash	writes an image into the partition the switch
 *				does not run from, with progress
 *	devlink dev reload action fw_activate
 *				boots the other partition
 *	devlink health		reporters link, thermal and aer
 *				(health.c)
 *
 * This file holds the instance: its ops (info, flash, reload) and its
 * life (add, register, unregister, del), which creates and destroys the
 * health reporters with it; devlink.h is what it shares with
 * health.c.
 *
 * It is one more view of the model: every value comes from the model
 * (model/firmware.c holds the partitions, model/vpd.c the VPD) when devlink
 * asks, and every change goes through the model's own checks. The instance is
 * registered once the switch is published and unregistered before it is
 * unpublished (instance.c), so no devlink request ever meets a switch that is
 * not live. devlink calls its ops with the instance lock held, and they take
 * sw->lock inside it; nothing holds sw->lock while it takes the instance lock.
 */

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/kernel.h>
#include <net/devlink.h>

#include "devlink/devlink.h"
#include "instance.h"

/* progress is reported every chunk of the payload written */
#define PCIESW_FW_CHUNK		SZ_16K
/*
 * Flash timing as on the card's SPI NOR: erasing the partition takes a
 * while, each chunk a little (8 MB/s).  It also lets a client see the
 * progress: iproute2's devlink stops listening for status once the flash
 * request returned, and a flash with no time in it can return before the
 * client read its first status.
 */
#define PCIESW_FW_ERASE_MS	50
#define PCIESW_FW_CHUNK_US	2000
/* auto-recovery waits this long after the last one of a reporter (ms) */
#define PCIESW_HEALTH_GRACE_MS	1000

static struct pciesw_switch *pciesw_devlink_sw(struct devlink *devlink)
{
	struct pciesw_devlink *dl = devlink_priv(devlink);

	return dl->sw;
}

/* the generic version names dev info uses */
#define ASIC_ID		DEVLINK_INFO_VERSION_GENERIC_ASIC_ID
#define BOARD_ID	DEVLINK_INFO_VERSION_GENERIC_BOARD_ID
#define BOARD_REV	DEVLINK_INFO_VERSION_GENERIC_BOARD_REV
#define FW		DEVLINK_INFO_VERSION_GENERIC_FW

/* What dev info shows, taken from the model in one go. */
struct pciesw_devlink_info {
	char asic[16];
	char board[PCIESW_NAME_LEN];
	char rev[PCIESW_VPD_VALUE_MAX + 1];
	char running[PCIESW_FW_VERSION_LEN];
	char stored[PCIESW_FW_VERSION_LEN];
};

/*
 * No serial number: serials are root-only (the privilege table of
 * Documentation/architecture.md, as the PCI core keeps the VPD), and any
 * user may ask devlink for dev info.  The op cannot tell who asks: devlink
 * hands it no socket or request, only an opaque devlink_info_req, and
 * calls it for ethtool's drvinfo and flash component lookups too; the
 * caller's task (capable()) is not the socket's opener, which is what
 * netlink_capable() checks and what a reply reaches.  Root reads the
 * serial from sysfs serial_number, switch-get or PCIESW_IOC_INFO.
 */
static int pciesw_devlink_info_get(struct devlink *devlink,
				   struct devlink_info_req *req,
				   struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_devlink_sw(devlink);
	const struct pciesw_profile *prof = sw->profile;
	const struct pciesw_fw_part *stored;
	struct pciesw_devlink_info *info;
	struct pciesw_vpd_field *f;
	const char *why;
	int err;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!info || !f) {
		err = -ENOMEM;
		goto out;
	}
	mutex_lock(&sw->lock);
	err = pciesw_switch_live(sw, &why);
	if (!err) {
		snprintf(info->asic, sizeof(info->asic), "%04x:%04x",
			 prof->pci_device, prof->pci_subdevice);
		strscpy(info->board, prof->part_number, sizeof(info->board));
		if (!pciesw_vpd_find(sw, "EC", f))
			strscpy(info->rev, f->value, sizeof(info->rev));
		pciesw_fw_version_str(pciesw_fw_running_version(sw),
				      info->running, sizeof(info->running));
		stored = pciesw_fw_stored(sw);
		if (stored->state == PCIESW_FW_STATE_VALID)
			pciesw_fw_version_str(stored->version, info->stored,
					      sizeof(info->stored));
	}
	mutex_unlock(&sw->lock);
	if (err) {
		pciesw_devlink_msg(extack, why);
		goto out;
	}

#ifdef PCIESW_HAVE_DEVLINK_DRIVER_NAME
	/* before 6.2 the driver puts its name; later the core does */
	err = devlink_info_driver_name_put(req, KBUILD_MODNAME);
	if (err)
		goto out;
#endif
	err = devlink_info_version_fixed_put(req, ASIC_ID, info->asic);
	if (!err)
		err = devlink_info_version_fixed_put(req, BOARD_ID, info->board);
	if (!err && info->rev[0])
		err = devlink_info_version_fixed_put(req, BOARD_REV, info->rev);
	if (!err)
		err = devlink_info_version_running_put(req, FW, info->running);
	/* an erased or half-written partition has no version to show */
	if (!err && info->stored[0])
		err = devlink_info_version_stored_put(req, FW, info->stored);
out:
	kfree(f);
	kfree(info);
	return err;
}

static int pciesw_devlink_flash_update(struct devlink *devlink,
				       struct devlink_flash_update_params *params,
				       struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_devlink_sw(devlink);
	const struct firmware *fw = params->fw;
	struct pciesw_fw_image img;
	char status[32];
	const char *why;
	u32 done = 0;
	int part, err;

	mutex_lock(&sw->lock);
	err = pciesw_fw_check(sw, fw->data, fw->size, &img, &why);
	part = err ? err : pciesw_fw_flash_begin(sw, &img, &why);
	mutex_unlock(&sw->lock);
	if (part < 0) {
		pciesw_devlink_msg(extack, why);
		return part;
	}
	snprintf(status, sizeof(status), "Erasing partition %c",
		 pciesw_fw_part_name(part));
	devlink_flash_update_status_notify(devlink, status, NULL, 0, 0);
	msleep(PCIESW_FW_ERASE_MS);
	snprintf(status, sizeof(status), "Writing partition %c",
		 pciesw_fw_part_name(part));
	while (done < img.len) {
		u32 n = min_t(u32, img.len - done, PCIESW_FW_CHUNK);

		mutex_lock(&sw->lock);
		err = pciesw_fw_flash_write(sw, n, &why);
		mutex_unlock(&sw->lock);
		if (err)
			break;
		done += n;
		devlink_flash_update_status_notify(devlink, status, NULL, done,
						   img.len);
		usleep_range(PCIESW_FW_CHUNK_US, 2 * PCIESW_FW_CHUNK_US);
	}
	mutex_lock(&sw->lock);
	if (!err)
		err = pciesw_fw_flash_end(sw, &why);
	mutex_unlock(&sw->lock);
	if (err) {
		pciesw_devlink_msg(extack, why);
	} else {
		snprintf(status, sizeof(status), "Partition %c verified",
			 pciesw_fw_part_name(part));
		devlink_flash_update_status_notify(devlink, status, NULL, 0, 0);
	}
	pciesw_switch_sync(sw);
	return err;
}

static int pciesw_devlink_reload_down(struct devlink *devlink,
				      bool netns_change,
				      enum devlink_reload_action action,
				      enum devlink_reload_limit limit,
				      struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_devlink_sw(devlink);
	const char *why;
	int err;

	if (netns_change) {
		pciesw_devlink_msg(extack, "a switch does not move between network namespaces");
		return -EOPNOTSUPP;
	}
	mutex_lock(&sw->lock);
	err = pciesw_fw_check_activate(sw, &why);
	mutex_unlock(&sw->lock);
	if (err)
		pciesw_devlink_msg(extack, why);
	return err;
}

/*
 * Boot the other partition.  A fallback to the running one is still a
 * firmware activation (the switch reset and booted), so it succeeds, with
 * a warning saying what happened.
 */
static int pciesw_devlink_reload_up(struct devlink *devlink,
				    enum devlink_reload_action action,
				    enum devlink_reload_limit limit,
				    u32 *actions_performed,
				    struct netlink_ext_ack *extack)
{
	struct pciesw_switch *sw = pciesw_devlink_sw(devlink);
	const char *why;
	int err;

	mutex_lock(&sw->lock);
	err = pciesw_fw_activate(sw, &why);
	mutex_unlock(&sw->lock);
	if (err && err != -ENOEXEC) {
		pciesw_devlink_msg(extack, why);
		return err;
	}
	if (err)
		pciesw_devlink_msg(extack, why);
	*actions_performed = BIT(DEVLINK_RELOAD_ACTION_FW_ACTIVATE);
	pciesw_switch_sync(sw);
	return 0;
}

static const struct devlink_ops pciesw_devlink_ops = {
	.reload_actions = BIT(DEVLINK_RELOAD_ACTION_FW_ACTIVATE),
	.reload_down = pciesw_devlink_reload_down,
	.reload_up = pciesw_devlink_reload_up,
	.info_get = pciesw_devlink_info_get,
	.flash_update = pciesw_devlink_flash_update,
};

static void pciesw_devlink_reporters_del(struct pciesw_devlink *dl)
{
	unsigned int i;

	for (i = 0; i < PCIESW_NR_REPORTERS; i++) {
		if (!IS_ERR_OR_NULL(dl->reporters[i]))
			devlink_health_reporter_destroy(dl->reporters[i]);
		dl->reporters[i] = NULL;
	}
}

/*
 * Before the switch is published: the instance and its reporters, not yet
 * registered.
 */
int pciesw_devlink_add(struct pciesw_dev *pdev)
{
	struct pciesw_devlink *dl;
	struct devlink *devlink;
	unsigned int i;

	devlink = devlink_alloc(&pciesw_devlink_ops, sizeof(*dl), &pdev->dev);
	if (!devlink)
		return -ENOMEM;
	dl = devlink_priv(devlink);
	kref_get(&pdev->sw->refs);
	dl->sw = pdev->sw;
	dl->devlink = devlink;
	mutex_init(&dl->lock);
	spin_lock_init(&dl->report_lock);
	INIT_LIST_HEAD(&dl->reports);
	INIT_WORK(&dl->report_work, pciesw_devlink_report_work);
	for (i = 0; i < PCIESW_NR_REPORTERS; i++) {
		dl->port[i] = PCIESW_EV_NO_PORT;
		dl->reporters[i] =
			devlink_health_reporter_create(devlink,
						       pciesw_rep_ops[i],
						       PCIESW_HEALTH_GRACE_MS,
						       dl);
		if (IS_ERR(dl->reporters[i])) {
			int err = PTR_ERR(dl->reporters[i]);

			pdev->devlink = devlink;
			pciesw_devlink_del(pdev);
			return err;
		}
	}
#ifdef PCIESW_HAVE_DEVLINK_SET_FEATURES
	devlink_set_features(devlink, DEVLINK_F_RELOAD);
#endif
	pdev->devlink = devlink;
	return 0;
}

/* Once the switch is published and every view shows it. */
void pciesw_devlink_register(struct pciesw_dev *pdev)
{
	struct pciesw_devlink *dl = devlink_priv(pdev->devlink);

	devlink_register(pdev->devlink);
	mutex_lock(&dl->lock);
	dl->registered = true;
	mutex_unlock(&dl->lock);
}

/*
 * First thing at teardown: no report and no devlink request reaches the
 * switch after this.
 */
void pciesw_devlink_unregister(struct pciesw_dev *pdev)
{
	struct pciesw_devlink *dl = devlink_priv(pdev->devlink);

	mutex_lock(&dl->lock);
	dl->registered = false;
	mutex_unlock(&dl->lock);
	cancel_work_sync(&dl->report_work);
	devlink_unregister(pdev->devlink);
}

/* After the switch is unpublished: its events have all been applied. */
void pciesw_devlink_del(struct pciesw_dev *pdev)
{
	struct pciesw_devlink *dl = devlink_priv(pdev->devlink);
	struct pciesw_devlink_report *r, *tmp;

	cancel_work_sync(&dl->report_work);
	list_for_each_entry_safe(r, tmp, &dl->reports, node) {
		list_del(&r->node);
		kfree(r);
	}
	pciesw_devlink_reporters_del(dl);
	mutex_destroy(&dl->lock);
	pciesw_switch_put(dl->sw);
	devlink_free(pdev->devlink);
	pdev->devlink = NULL;
}
