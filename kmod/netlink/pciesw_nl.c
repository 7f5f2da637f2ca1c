// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/pciesw.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "pciesw_nl.h"

#include <uapi/linux/pciesw_netlink.h>

/* Integer value ranges */
static const struct netlink_range_validation pciesw_a_port_ber_range = {
	.max	= 1000000000000000ULL,
};

static const struct netlink_range_validation pciesw_a_inject_count_range = {
	.min	= 1ULL,
	.max	= 1000000ULL,
};

static const struct netlink_range_validation_signed pciesw_a_thermal_ambient_range = {
	.min	= PCIESW_TEMP_MIN,
	.max	= 85000LL,
};

static const struct netlink_range_validation pciesw_a_thermal_time_constant_range = {
	.min	= 100ULL,
	.max	= 3600000ULL,
};

static const struct netlink_range_validation_signed pciesw_a_sensor_max_range = {
	.min	= PCIESW_TEMP_MIN,
	.max	= 150000LL,
};

static const struct netlink_range_validation_signed pciesw_a_sensor_crit_range = {
	.min	= PCIESW_TEMP_MIN,
	.max	= 150000LL,
};

static const struct netlink_range_validation_signed pciesw_a_sensor_override_range = {
	.min	= PCIESW_TEMP_MIN,
	.max	= 150000LL,
};

static const struct netlink_range_validation pciesw_a_ep_vendor_range = {
	.max	= 65535ULL,
};

static const struct netlink_range_validation pciesw_a_ep_device_range = {
	.max	= 65535ULL,
};

static const struct netlink_range_validation pciesw_a_ep_subsystem_vendor_range = {
	.max	= 65535ULL,
};

static const struct netlink_range_validation pciesw_a_ep_subsystem_device_range = {
	.max	= 65535ULL,
};

static const struct netlink_range_validation pciesw_a_ep_class_range = {
	.max	= 16777215ULL,
};

static const struct netlink_range_validation pciesw_a_nvme_count_range = {
	.min	= 1ULL,
	.max	= 1000000ULL,
};

static const struct netlink_range_validation_signed pciesw_a_nvme_temp_range = {
	.min	= PCIESW_TEMP_MIN,
	.max	= 150000LL,
};

/* PCIESW_CMD_SWITCH_GET - do */
static const struct nla_policy pciesw_switch_get_do_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_SWITCH_GET - dump */
static const struct nla_policy pciesw_switch_get_dump_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_SWITCH_NEW - do */
static const struct nla_policy pciesw_switch_new_nl_policy[PCIESW_A_SWITCH_PROFILE + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_SWITCH_PROFILE] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* PCIESW_CMD_SWITCH_DEL - do */
static const struct nla_policy pciesw_switch_del_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_GROUP_GET - do */
static const struct nla_policy pciesw_group_get_do_nl_policy[PCIESW_A_GROUP_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_GROUP_ID] = { .type = NLA_U32, },
};

/* PCIESW_CMD_GROUP_GET - dump */
static const struct nla_policy pciesw_group_get_dump_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_PORT_GET - do */
static const struct nla_policy pciesw_port_get_do_nl_policy[PCIESW_A_PORT_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
};

/* PCIESW_CMD_PORT_GET - dump */
static const struct nla_policy pciesw_port_get_dump_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_GROUP_SET - do */
static const struct nla_policy pciesw_group_set_nl_policy[PCIESW_A_GROUP_CONFIG + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_GROUP_ID] = { .type = NLA_U32, },
	[PCIESW_A_GROUP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[PCIESW_A_GROUP_CONFIG] = { .type = NLA_NUL_STRING, },
};

/* PCIESW_CMD_PORT_SET - do */
static const struct nla_policy pciesw_port_set_nl_policy[PCIESW_A_PORT_BER + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
	[PCIESW_A_PORT_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[PCIESW_A_PORT_TARGET_SPEED] = NLA_POLICY_RANGE(NLA_U32, 1, 5),
	[PCIESW_A_PORT_FAILED_LANES] = { .type = NLA_U32, },
	[PCIESW_A_PORT_ACS_REDIRECT] = NLA_POLICY_MAX(NLA_U8, 1),
	[PCIESW_A_PORT_RETRAIN] = { .type = NLA_FLAG, },
	[PCIESW_A_PORT_HOT_RESET] = { .type = NLA_FLAG, },
	[PCIESW_A_PORT_SURPRISE_DOWN_NOW] = { .type = NLA_FLAG, },
	[PCIESW_A_PORT_BER] = NLA_POLICY_FULL_RANGE(NLA_U64, &pciesw_a_port_ber_range),
};

/* PCIESW_CMD_EP_GET - do */
static const struct nla_policy pciesw_ep_get_do_nl_policy[PCIESW_A_EP_BRIEF + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_EP_ID] = { .type = NLA_U32, },
	[PCIESW_A_EP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[PCIESW_A_EP_BRIEF] = { .type = NLA_FLAG, },
};

/* PCIESW_CMD_EP_GET - dump */
static const struct nla_policy pciesw_ep_get_dump_nl_policy[PCIESW_A_EP_BRIEF + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_EP_BRIEF] = { .type = NLA_FLAG, },
};

/* PCIESW_CMD_EP_ADD - do */
static const struct nla_policy pciesw_ep_add_nl_policy[PCIESW_A_EP_CLASS + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
	[PCIESW_A_EP_TYPE] = NLA_POLICY_RANGE(NLA_U32, 1, 3),
	[PCIESW_A_EP_MAX_SPEED] = NLA_POLICY_RANGE(NLA_U32, 1, 5),
	[PCIESW_A_EP_MAX_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 16),
	[PCIESW_A_EP_MEM_SIZE] = { .type = NLA_U64, },
	[PCIESW_A_EP_BLOCK_SIZE] = { .type = NLA_U32, },
	[PCIESW_A_EP_VENDOR] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_ep_vendor_range),
	[PCIESW_A_EP_DEVICE] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_ep_device_range),
	[PCIESW_A_EP_SUBSYSTEM_VENDOR] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_ep_subsystem_vendor_range),
	[PCIESW_A_EP_SUBSYSTEM_DEVICE] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_ep_subsystem_device_range),
	[PCIESW_A_EP_REVISION] = NLA_POLICY_MAX(NLA_U32, 255),
	[PCIESW_A_EP_CLASS] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_ep_class_range),
};

/* PCIESW_CMD_EP_DEL - do */
static const struct nla_policy pciesw_ep_del_nl_policy[PCIESW_A_EP_NAME + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_EP_ID] = { .type = NLA_U32, },
	[PCIESW_A_EP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* PCIESW_CMD_COUNTER_GET - do */
static const struct nla_policy pciesw_counter_get_do_nl_policy[PCIESW_A_COUNTER_PACKED + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
	[PCIESW_A_COUNTER_PACKED] = { .type = NLA_FLAG, },
};

/* PCIESW_CMD_COUNTER_GET - dump */
static const struct nla_policy pciesw_counter_get_dump_nl_policy[PCIESW_A_COUNTER_PACKED + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_COUNTER_PACKED] = { .type = NLA_FLAG, },
};

/* PCIESW_CMD_COUNTER_CLEAR - do */
static const struct nla_policy pciesw_counter_clear_nl_policy[PCIESW_A_PORT_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
};

/* PCIESW_CMD_THRESHOLD_GET - do */
static const struct nla_policy pciesw_threshold_get_do_nl_policy[PCIESW_A_COUNTER_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
	[PCIESW_A_COUNTER_ID] = NLA_POLICY_MAX(NLA_U32, 31),
};

/* PCIESW_CMD_THRESHOLD_GET - dump */
static const struct nla_policy pciesw_threshold_get_dump_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_THRESHOLD_SET - do */
static const struct nla_policy pciesw_threshold_set_nl_policy[PCIESW_A_THRESHOLD_VALUE + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
	[PCIESW_A_COUNTER_ID] = NLA_POLICY_MAX(NLA_U32, 31),
	[PCIESW_A_THRESHOLD_VALUE] = { .type = NLA_U64, },
};

/* PCIESW_CMD_INJECT - do */
static const struct nla_policy pciesw_inject_nl_policy[PCIESW_A_EP_AER_ERROR + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_PORT_ID] = { .type = NLA_U32, },
	[PCIESW_A_COUNTER_ID] = NLA_POLICY_MAX(NLA_U32, 31),
	[PCIESW_A_INJECT_COUNT] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_inject_count_range),
	[PCIESW_A_EP_ID] = { .type = NLA_U32, },
	[PCIESW_A_EP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[PCIESW_A_EP_AER_ERROR] = NLA_POLICY_MAX(NLA_U32, 5),
};

/* PCIESW_CMD_THERMAL_GET - do */
static const struct nla_policy pciesw_thermal_get_do_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_THERMAL_GET - dump */
static const struct nla_policy pciesw_thermal_get_dump_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_THERMAL_SET - do */
static const struct nla_policy pciesw_thermal_set_nl_policy[PCIESW_A_SENSOR_OVERRIDE_CLEAR + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_THERMAL_AMBIENT] = NLA_POLICY_FULL_RANGE(NLA_S32, &pciesw_a_thermal_ambient_range),
	[PCIESW_A_THERMAL_TIME_CONSTANT] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_thermal_time_constant_range),
	[PCIESW_A_SENSOR_ID] = { .type = NLA_U32, },
	[PCIESW_A_SENSOR_MAX] = NLA_POLICY_FULL_RANGE(NLA_S32, &pciesw_a_sensor_max_range),
	[PCIESW_A_SENSOR_CRIT] = NLA_POLICY_FULL_RANGE(NLA_S32, &pciesw_a_sensor_crit_range),
	[PCIESW_A_SENSOR_OVERRIDE] = NLA_POLICY_FULL_RANGE(NLA_S32, &pciesw_a_sensor_override_range),
	[PCIESW_A_SENSOR_OVERRIDE_CLEAR] = { .type = NLA_FLAG, },
};

/* PCIESW_CMD_VPD_GET - do */
static const struct nla_policy pciesw_vpd_get_do_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_VPD_GET - dump */
static const struct nla_policy pciesw_vpd_get_dump_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_VPD_SET - do */
static const struct nla_policy pciesw_vpd_set_nl_policy[PCIESW_A_VPD_VALUE + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_VPD_KEYWORD] = { .type = NLA_NUL_STRING, .len = 2, },
	[PCIESW_A_VPD_VALUE] = { .type = NLA_NUL_STRING, .len = 255, },
};

/* PCIESW_CMD_SWITCH_SET - do */
static const struct nla_policy pciesw_switch_set_nl_policy[PCIESW_A_SWITCH_PCI_VIEW + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_SWITCH_HOST_P2P] = NLA_POLICY_MAX(NLA_U8, 1),
	[PCIESW_A_SWITCH_DMA_PACING] = NLA_POLICY_MAX(NLA_U8, 1),
	[PCIESW_A_SWITCH_MPS] = NLA_POLICY_RANGE(NLA_U32, 128, 4096),
	[PCIESW_A_SWITCH_DMA_CHANNELS] = NLA_POLICY_RANGE(NLA_U32, 1, 16),
	[PCIESW_A_SWITCH_PCI_VIEW] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* PCIESW_CMD_P2P_CHECK - do */
static const struct nla_policy pciesw_p2p_check_nl_policy[PCIESW_A_PEER_EP_NAME + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_EP_ID] = { .type = NLA_U32, },
	[PCIESW_A_EP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[PCIESW_A_PEER_EP_ID] = { .type = NLA_U32, },
	[PCIESW_A_PEER_EP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* PCIESW_CMD_FW_GET - do */
static const struct nla_policy pciesw_fw_get_do_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_FW_GET - dump */
static const struct nla_policy pciesw_fw_get_dump_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_FW_TOGGLE - do */
static const struct nla_policy pciesw_fw_toggle_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_LOG_GET - dump */
static const struct nla_policy pciesw_log_get_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_LOG_CLEAR - do */
static const struct nla_policy pciesw_log_clear_nl_policy[PCIESW_A_SWITCH_ID + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
};

/* PCIESW_CMD_NVME_INJECT - do */
static const struct nla_policy pciesw_nvme_inject_nl_policy[PCIESW_A_NVME_READ_ONLY + 1] = {
	[PCIESW_A_SWITCH_ID] = NLA_POLICY_MAX(NLA_U32, PCIESW_MAX_SWITCH_ID),
	[PCIESW_A_EP_ID] = { .type = NLA_U32, },
	[PCIESW_A_EP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[PCIESW_A_NVME_FAULT] = NLA_POLICY_RANGE(NLA_U32, 1, 5),
	[PCIESW_A_NVME_LBA] = { .type = NLA_U64, },
	[PCIESW_A_NVME_COUNT] = NLA_POLICY_FULL_RANGE(NLA_U32, &pciesw_a_nvme_count_range),
	[PCIESW_A_NVME_TEMP] = NLA_POLICY_FULL_RANGE(NLA_S32, &pciesw_a_nvme_temp_range),
	[PCIESW_A_NVME_TEMP_CLEAR] = { .type = NLA_FLAG, },
	[PCIESW_A_NVME_SPARE] = NLA_POLICY_MAX(NLA_U8, 100),
	[PCIESW_A_NVME_READ_ONLY] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* Ops table for pciesw */
const struct genl_split_ops pciesw_nl_ops[35] = {
	{
		.cmd		= PCIESW_CMD_SWITCH_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_switch_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_switch_get_do_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_SWITCH_GET,
		.dumpit		= pciesw_nl_switch_get_dumpit,
		.policy		= pciesw_switch_get_dump_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_SWITCH_NEW,
		.doit		= pciesw_nl_switch_new_doit,
		.policy		= pciesw_switch_new_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_PROFILE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_SWITCH_DEL,
		.doit		= pciesw_nl_switch_del_doit,
		.policy		= pciesw_switch_del_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_GROUP_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_group_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_group_get_do_nl_policy,
		.maxattr	= PCIESW_A_GROUP_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_GROUP_GET,
		.dumpit		= pciesw_nl_group_get_dumpit,
		.policy		= pciesw_group_get_dump_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_PORT_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_port_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_port_get_do_nl_policy,
		.maxattr	= PCIESW_A_PORT_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_PORT_GET,
		.dumpit		= pciesw_nl_port_get_dumpit,
		.policy		= pciesw_port_get_dump_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_GROUP_SET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_group_set_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_group_set_nl_policy,
		.maxattr	= PCIESW_A_GROUP_CONFIG,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_PORT_SET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_port_set_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_port_set_nl_policy,
		.maxattr	= PCIESW_A_PORT_BER,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_EP_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_ep_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_ep_get_do_nl_policy,
		.maxattr	= PCIESW_A_EP_BRIEF,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_EP_GET,
		.dumpit		= pciesw_nl_ep_get_dumpit,
		.policy		= pciesw_ep_get_dump_nl_policy,
		.maxattr	= PCIESW_A_EP_BRIEF,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_EP_ADD,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_ep_add_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_ep_add_nl_policy,
		.maxattr	= PCIESW_A_EP_CLASS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_EP_DEL,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_ep_del_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_ep_del_nl_policy,
		.maxattr	= PCIESW_A_EP_NAME,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_COUNTER_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_counter_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_counter_get_do_nl_policy,
		.maxattr	= PCIESW_A_COUNTER_PACKED,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_COUNTER_GET,
		.dumpit		= pciesw_nl_counter_get_dumpit,
		.policy		= pciesw_counter_get_dump_nl_policy,
		.maxattr	= PCIESW_A_COUNTER_PACKED,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_COUNTER_CLEAR,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_counter_clear_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_counter_clear_nl_policy,
		.maxattr	= PCIESW_A_PORT_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_THRESHOLD_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_threshold_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_threshold_get_do_nl_policy,
		.maxattr	= PCIESW_A_COUNTER_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_THRESHOLD_GET,
		.dumpit		= pciesw_nl_threshold_get_dumpit,
		.policy		= pciesw_threshold_get_dump_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_THRESHOLD_SET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_threshold_set_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_threshold_set_nl_policy,
		.maxattr	= PCIESW_A_THRESHOLD_VALUE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_INJECT,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_inject_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_inject_nl_policy,
		.maxattr	= PCIESW_A_EP_AER_ERROR,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_THERMAL_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_thermal_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_thermal_get_do_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_THERMAL_GET,
		.dumpit		= pciesw_nl_thermal_get_dumpit,
		.policy		= pciesw_thermal_get_dump_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_THERMAL_SET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_thermal_set_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_thermal_set_nl_policy,
		.maxattr	= PCIESW_A_SENSOR_OVERRIDE_CLEAR,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_VPD_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_vpd_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_vpd_get_do_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_VPD_GET,
		.dumpit		= pciesw_nl_vpd_get_dumpit,
		.policy		= pciesw_vpd_get_dump_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_VPD_SET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_vpd_set_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_vpd_set_nl_policy,
		.maxattr	= PCIESW_A_VPD_VALUE,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_SWITCH_SET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_switch_set_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_switch_set_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_PCI_VIEW,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_P2P_CHECK,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_p2p_check_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_p2p_check_nl_policy,
		.maxattr	= PCIESW_A_PEER_EP_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_FW_GET,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_fw_get_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_fw_get_do_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_FW_GET,
		.dumpit		= pciesw_nl_fw_get_dumpit,
		.policy		= pciesw_fw_get_dump_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_FW_TOGGLE,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_fw_toggle_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_fw_toggle_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_LOG_GET,
		.dumpit		= pciesw_nl_log_get_dumpit,
		.policy		= pciesw_log_get_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= PCIESW_CMD_LOG_CLEAR,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_log_clear_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_log_clear_nl_policy,
		.maxattr	= PCIESW_A_SWITCH_ID,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= PCIESW_CMD_NVME_INJECT,
		.pre_doit	= pciesw_nl_pre_doit,
		.doit		= pciesw_nl_nvme_inject_doit,
		.post_doit	= pciesw_nl_post_doit,
		.policy		= pciesw_nvme_inject_nl_policy,
		.maxattr	= PCIESW_A_NVME_READ_ONLY,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group pciesw_nl_mcgrps[] = {
	[PCIESW_NLGRP_MONITOR] = { "monitor", },
};
