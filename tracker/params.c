// SPDX-License-Identifier: GPL-2.0-only
/*
 * params.c - the tunable values of a tracker: their bounds, declared once
 * here, and how a new value takes effect.
 *
 * The same table validates writes to the procfs knobs, the creation
 * parameters, and the module parameters of tracker modules
 * (latency_tracker_check_param()).
 */
#include <linux/bits.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/time64.h>
#include <linux/uaccess.h>

#include "core.h"
#include "parse.h"

/* Longest accepted write: 20 digits of U64_MAX plus a newline. */
#define LT_PARAM_WRITE_MAX	21

/**
 * struct lt_param_bounds - accepted values of one knob
 * @name: knob and module parameter name.
 * @min: smallest value, except 0 when @zero_ok.
 * @max: largest value.
 * @zero_ok: 0 is accepted too ("off").
 */
struct lt_param_bounds {
	const char *name;
	u64 min;
	u64 max;
	bool zero_ok;
};

static const struct lt_param_bounds lt_params[LATENCY_TRACKER_NR_PARAMS] = {
	[LATENCY_TRACKER_PARAM_THRESHOLD] = {
		.name = "threshold", .min = 1, .max = 1000 * NSEC_PER_SEC,
	},
	[LATENCY_TRACKER_PARAM_TIMEOUT] = {
		.name = "timeout", .min = NSEC_PER_MSEC,
		.max = 1000 * NSEC_PER_SEC, .zero_ok = true,
	},
	[LATENCY_TRACKER_PARAM_WAKEUP_INTERVAL] = {
		.name = "wakeup_interval", .min = 0, .max = 60 * NSEC_PER_SEC,
	},
	[LATENCY_TRACKER_PARAM_ENABLE] = {
		.name = "enable", .min = 0, .max = 1,
	},
	[LATENCY_TRACKER_PARAM_MAX_EVENTS] = {
		.name = "max_events", .min = 1, .max = LT_MAX_EVENTS_LIMIT,
		.zero_ok = true,
	},
	[LATENCY_TRACKER_PARAM_ALERT_RECORDS] = {
		.name = "alert_records", .min = LT_ALERT_RECORDS_MIN,
		.max = LT_ALERT_RECORDS_MAX,
	},
};

const char *lt_param_name(enum latency_tracker_param param)
{
	return lt_params[param].name;
}

int lt_param_valid(enum latency_tracker_param param, u64 value)
{
	const struct lt_param_bounds *b;

	if (param >= LATENCY_TRACKER_NR_PARAMS)
		return -EINVAL;
	b = &lt_params[param];
	if (value == 0 && b->zero_ok)
		return 0;
	if (value < b->min || value > b->max)
		return -EINVAL;
	return 0;
}

/* Strict decimal from a procfs write; *out untouched on error. */
int lt_param_parse(enum latency_tracker_param param, const char __user *ubuf,
		   size_t count, u64 *out)
{
	const struct lt_param_bounds *b = &lt_params[param];
	char buf[LT_PARAM_WRITE_MAX + 1];
	u64 v;
	int ret;

	if (!count || count > LT_PARAM_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = latency_tracker_parse_u64(buf, count, b->zero_ok ? 0 : b->min,
					b->max, &v);
	if (ret)
		return ret;
	ret = lt_param_valid(param, v);
	if (ret)
		return ret;
	*out = v;
	return 0;
}

/**
 * latency_tracker_check_param() - validate a tracker module parameter
 * @param: which knob the value is for.
 * @who: module name, for the error message.
 * @value: the value given at load time.
 *
 * Uses the bounds of the procfs knobs, so a module parameter accepts
 * exactly what the procfs file would.  On a bad value, logs one line
 * naming the module, the parameter and the accepted range.
 *
 * Context: process context.
 * Return: 0, or -EINVAL when the value is out of range.
 */
int latency_tracker_check_param(enum latency_tracker_param param,
				const char *who, u64 value)
{
	const struct lt_param_bounds *b;

	if (param >= LATENCY_TRACKER_NR_PARAMS)
		return -EINVAL;
	if (!lt_param_valid(param, value))
		return 0;
	b = &lt_params[param];
	pr_err("%s: invalid %s=%llu (accepted: %s%llu..%llu)\n", who, b->name,
	       value, b->zero_ok ? "0 or " : "", b->min, b->max);
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(latency_tracker_check_param);

u64 lt_param_get(struct latency_tracker *t, enum latency_tracker_param param)
{
	switch (param) {
	case LATENCY_TRACKER_PARAM_THRESHOLD:
		return READ_ONCE(t->threshold_ns);
	case LATENCY_TRACKER_PARAM_TIMEOUT:
		return READ_ONCE(t->timeout_ns);
	case LATENCY_TRACKER_PARAM_WAKEUP_INTERVAL:
		return READ_ONCE(t->wakeup_interval_ns);
	case LATENCY_TRACKER_PARAM_ENABLE:
		return READ_ONCE(t->enabled);
	case LATENCY_TRACKER_PARAM_MAX_EVENTS:
		return t->max_events;
	case LATENCY_TRACKER_PARAM_ALERT_RECORDS:
		return t->ring.mask + 1ULL;
	default:
		return 0;
	}
}

static void lt_set_enable(struct latency_tracker *t, bool on)
{
	if (on == t->enabled)
		return;
	if (on) {
		WRITE_ONCE(t->run, t->run + 1 ? t->run + 1 : 1);
		/* Pairs with latency_tracker_run()'s smp_rmb(). */
		smp_wmb();
		WRITE_ONCE(t->enabled, true);
		lt_timeout_kick(t);
		return;
	}
	WRITE_ONCE(t->enabled, false);
	/* Every event_in that saw enabled=1 has inserted its event. */
	synchronize_rcu();
	lt_event_drain(t);
}

/*
 * Applies a value already checked against the table.  Process context,
 * may sleep.  max_events (the pool's ceiling) and alert_records are fixed
 * at creation.
 */
int lt_param_set(struct latency_tracker *t, enum latency_tracker_param param,
		 u64 value)
{
	int ret = lt_param_valid(param, value);

	if (ret)
		return ret;
	mutex_lock(&t->ctl_lock);
	switch (param) {
	case LATENCY_TRACKER_PARAM_THRESHOLD:
		WRITE_ONCE(t->threshold_ns, value);
		break;
	case LATENCY_TRACKER_PARAM_TIMEOUT:
		WRITE_ONCE(t->timeout_ns, value);
		lt_timeout_kick(t);
		break;
	case LATENCY_TRACKER_PARAM_WAKEUP_INTERVAL:
		lt_alerts_set_interval(t, value);
		break;
	case LATENCY_TRACKER_PARAM_ENABLE:
		lt_set_enable(t, value);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	mutex_unlock(&t->ctl_lock);
	return ret;
}

/**
 * latency_tracker_set_enable() - start or stop tracking, as the enable file
 * @t: the tracker.
 * @on: true to start, false to stop.
 *
 * Stopping drops the pending events (without a callback); event_in then
 * refuses new ones (LATENCY_TRACKER_DISABLED) until tracking starts
 * again.  The `enable` file shows the new state.
 *
 * Context: process context, sleeps (an RCU grace period when stopping).
 */
void latency_tracker_set_enable(struct latency_tracker *t, bool on)
{
	lt_param_set(t, LATENCY_TRACKER_PARAM_ENABLE, on);
}
EXPORT_SYMBOL_GPL(latency_tracker_set_enable);
