// SPDX-License-Identifier: GPL-2.0
/*
 * pciesw netlink: the thermal model (temperatures, limits, overrides).
 */

#include "netlink/netlink.h"

/* Brings the model up to date first, so every view reads it current. */
static int pciesw_nl_fill_thermal(struct sk_buff *msg,
				  struct pciesw_switch *sw)
{
	const struct pciesw_thermal *th = &sw->thermal;
	unsigned int i;

	lockdep_assert_held(&sw->lock);
	pciesw_thermal_update(sw);
	if (nla_put_u32(msg, PCIESW_A_SWITCH_ID, sw->id) ||
	    nla_put_s32(msg, PCIESW_A_THERMAL_AMBIENT, th->ambient) ||
	    nla_put_u32(msg, PCIESW_A_THERMAL_TIME_CONSTANT, th->tau_ms) ||
	    nla_put_s32(msg, PCIESW_A_THERMAL_HIGHEST,
			pciesw_thermal_highest(sw)))
		return -EMSGSIZE;
	for (i = 0; i < PCIESW_NR_SENSORS; i++) {
		const struct pciesw_sensor *s = &th->sensors[i];
		struct nlattr *nest;

		nest = nla_nest_start(msg, PCIESW_A_THERMAL_SENSOR);
		if (!nest ||
		    nla_put_u32(msg, PCIESW_A_SENSOR_ID, i) ||
		    nla_put_string(msg, PCIESW_A_SENSOR_LABEL,
				   pciesw_sensor_label(i)) ||
		    nla_put_s32(msg, PCIESW_A_SENSOR_TEMP,
				pciesw_sensor_temp(sw, i)) ||
		    nla_put_s32(msg, PCIESW_A_SENSOR_MAX, s->max) ||
		    nla_put_s32(msg, PCIESW_A_SENSOR_CRIT, s->crit) ||
		    nla_put_u32(msg, PCIESW_A_SENSOR_HYST, PCIESW_TEMP_HYST) ||
		    nla_put_u8(msg, PCIESW_A_SENSOR_MAX_ALARM, s->max_alarm) ||
		    nla_put_u8(msg, PCIESW_A_SENSOR_CRIT_ALARM,
			       s->crit_alarm) ||
		    (s->overridden &&
		     nla_put_s32(msg, PCIESW_A_SENSOR_OVERRIDE, s->override)))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int pciesw_nl_fill_thermal_dump(struct sk_buff *msg,
				       struct pciesw_switch *sw,
				       const void *obj,
				       enum pciesw_nl_form form)
{
	return pciesw_nl_fill_thermal(msg, sw);
}

static int pciesw_nl_fill_thermal_any(struct sk_buff *msg, const void *obj)
{
	return pciesw_nl_fill_thermal(msg, (struct pciesw_switch *)obj);
}

static const struct pciesw_nl_obj pciesw_nl_thermal_obj = {
	.cmd = PCIESW_CMD_THERMAL_GET,
	.find = pciesw_nl_find_switch,
	.fill = pciesw_nl_fill_thermal_dump,
};

int pciesw_nl_thermal_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pciesw_nl_reply(info, PCIESW_CMD_THERMAL_GET,
			       pciesw_nl_fill_thermal_any, pciesw_nl_sw(info));
}

int pciesw_nl_thermal_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return pciesw_nl_dumpit(&pciesw_nl_thermal_obj, PCIESW_NL_FORM_PLAIN,
				skb, cb);
}

/*
 * Check every value before changing anything, so a refused request
 * leaves the model as it was.
 */
int pciesw_nl_thermal_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pciesw_switch *sw = pciesw_nl_sw(info);
	struct nlattr **tb = info->attrs;
	int sensor = -1, max = 0, crit = 0, ovr = 0;
	const char *why = NULL;
	int err = 0;

	if (!tb[PCIESW_A_THERMAL_AMBIENT] &&
	    !tb[PCIESW_A_THERMAL_TIME_CONSTANT] &&
	    !tb[PCIESW_A_SENSOR_MAX] && !tb[PCIESW_A_SENSOR_CRIT] &&
	    !tb[PCIESW_A_SENSOR_OVERRIDE] &&
	    !tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR]) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	if (tb[PCIESW_A_SENSOR_ID]) {
		if (nla_get_u32(tb[PCIESW_A_SENSOR_ID]) >= PCIESW_NR_SENSORS) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[PCIESW_A_SENSOR_ID],
					    "no such sensor");
			return -ENOENT;
		}
		sensor = nla_get_u32(tb[PCIESW_A_SENSOR_ID]);
	}
	if (tb[PCIESW_A_SENSOR_OVERRIDE] && tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR]) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR],
				    "sensor-override and sensor-override-clear do not go together");
		return -EINVAL;
	}
	if (tb[PCIESW_A_SENSOR_MAX])
		max = nla_get_s32(tb[PCIESW_A_SENSOR_MAX]);
	if (tb[PCIESW_A_SENSOR_CRIT])
		crit = nla_get_s32(tb[PCIESW_A_SENSOR_CRIT]);
	if (tb[PCIESW_A_SENSOR_OVERRIDE])
		ovr = nla_get_s32(tb[PCIESW_A_SENSOR_OVERRIDE]);
	err = pciesw_sensor_check_limits(sw, sensor,
					 tb[PCIESW_A_SENSOR_MAX] ? &max : NULL,
					 tb[PCIESW_A_SENSOR_CRIT] ? &crit : NULL,
					 &why);
	if (err) {
		pciesw_nl_err(info->extack, tb[PCIESW_A_SENSOR_CRIT] ?:
			      tb[PCIESW_A_SENSOR_MAX], why);
		return err;
	}

	/* the policies checked the ranges: none of these can fail now */
	if (tb[PCIESW_A_THERMAL_AMBIENT])
		err = pciesw_thermal_set_ambient(sw,
						 nla_get_s32(tb[PCIESW_A_THERMAL_AMBIENT]),
						 &why);
	if (!err && tb[PCIESW_A_THERMAL_TIME_CONSTANT])
		err = pciesw_thermal_set_tau(sw,
					     nla_get_u32(tb[PCIESW_A_THERMAL_TIME_CONSTANT]),
					     &why);
	if (!err && (tb[PCIESW_A_SENSOR_MAX] || tb[PCIESW_A_SENSOR_CRIT]))
		err = pciesw_sensor_set_limits(sw, sensor,
					       tb[PCIESW_A_SENSOR_MAX] ? &max : NULL,
					       tb[PCIESW_A_SENSOR_CRIT] ? &crit : NULL,
					       &why);
	if (!err && tb[PCIESW_A_SENSOR_OVERRIDE])
		err = pciesw_sensor_set_override(sw, sensor, &ovr, &why);
	else if (!err && tb[PCIESW_A_SENSOR_OVERRIDE_CLEAR])
		err = pciesw_sensor_set_override(sw, sensor, NULL, &why);
	if (err)
		pciesw_nl_err(info->extack, NULL, why);
	return err;
}

