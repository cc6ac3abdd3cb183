// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - the load/unload sequence of a tracker module (see probe.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/seq_file.h>

#include "probe.h"

/* stats: the sums of the records' parts (struct lt_probe, @parts). */
static void lt_probe_parts_show(struct seq_file *m, struct latency_tracker *t)
{
	struct lt_probe *p = latency_tracker_owner_data(t);
	unsigned int i;

	for (i = 0; i < LT_PROBE_PARTS && p->parts[i]; i++)
		seq_printf(m, "breakdown_%s_ns %llu\n", p->parts[i],
			   (u64)atomic64_read(&p->part_ns[i]));
}

/**
 * lt_probe_add_parts() - add a threshold record's parts to the sums
 * @p: a tracker module with @parts.
 * @ns: the record's parts, in the order of @p->parts.
 *
 * Context: any (the tracker's callback).
 */
void lt_probe_add_parts(struct lt_probe *p, const u64 *ns)
{
	unsigned int i;

	for (i = 0; i < LT_PROBE_PARTS && p->parts[i]; i++)
		atomic64_add(ns[i], &p->part_ns[i]);
}

/**
 * lt_probe_start() - check the module parameters, create the tracker,
 *	attach the probes
 * @p: the tracker module's description.
 * @mp: its module parameters.
 *
 * A bad parameter fails with one dmesg line naming it (the core's bounds,
 * the same as the procfs files'; the filters' syntax, the same as their
 * files').  Tracking starts when this returns 0.
 *
 * Context: process context (module init), sleeps.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int lt_probe_start(struct lt_probe *p, const struct lt_probe_mparams *mp)
{
	int ret;

	ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_THRESHOLD,
					  KBUILD_MODNAME, mp->threshold);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_TIMEOUT,
						  KBUILD_MODNAME, mp->timeout);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_MAX_EVENTS,
						  KBUILD_MODNAME,
						  mp->max_events);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_ALERT_RECORDS,
						  KBUILD_MODNAME,
						  mp->alert_records);
	if (ret)
		return ret;
	if (mp->initial_events > LATENCY_TRACKER_EVENTS_MAX ||
	    (mp->max_events && mp->initial_events > mp->max_events)) {
		pr_err("invalid initial_events=%u (accepted: 0..%u, at most max_events when it is set)\n",
		       mp->initial_events, LATENCY_TRACKER_EVENTS_MAX);
		return -EINVAL;
	}
	if (mp->print_interval < LT_PRINT_INTERVAL_MIN ||
	    mp->print_interval > LT_PRINT_INTERVAL_MAX) {
		pr_err("invalid print_interval=%lu (accepted: %llu..%llu)\n",
		       mp->print_interval, (u64)LT_PRINT_INTERVAL_MIN,
		       (u64)LT_PRINT_INTERVAL_MAX);
		return -EINVAL;
	}
	ret = lt_filter_init(p, mp);
	if (ret)
		goto err_filter;
	if (p->reports)
		p->reports->budget.interval_ns = mp->print_interval;

	p->params.threshold_ns = mp->threshold;
	p->params.timeout_ns = mp->timeout;
	p->params.max_events = mp->max_events;
	p->params.initial_events = mp->initial_events;
	p->params.alert_records = mp->alert_records;
	p->params.owner_data = p;
	if (p->parts)
		p->params.stats_show = lt_probe_parts_show;
	p->t = latency_tracker_create(&p->params);
	if (IS_ERR(p->t)) {
		ret = PTR_ERR(p->t);
		pr_err("cannot create tracker %s: %d\n", p->params.name, ret);
		goto err_filter;
	}
	ret = lt_filter_files_add(p);
	if (ret)
		goto err_destroy;
	if (p->setup) {
		ret = p->setup(p->t);
		if (ret)
			goto err_destroy;
	}
	ret = latency_tracker_tp_attach(p->tps, p->nr_tps);
	if (ret)
		goto err_destroy;
	return 0;

err_destroy:
	latency_tracker_destroy(p->t);
	if (p->reports)
		lt_reports_flush(p->reports);
err_filter:
	lt_filter_fini(p);
	p->t = NULL;
	return ret;
}

/**
 * lt_probe_stop() - stop tracking and free everything, in order
 * @p: the description given to lt_probe_start().
 *
 * Detaches the probes and waits for running ones, destroys the tracker
 * (pending events are dropped; its timeout timer, the last producer of
 * reports, is stopped; the filter files are removed), then handles the
 * reports still queued and frees the filters.
 *
 * Context: process context (module exit), sleeps.
 */
void lt_probe_stop(struct lt_probe *p)
{
	latency_tracker_tp_detach(p->tps, p->nr_tps);
	latency_tracker_destroy(p->t);
	p->t = NULL;
	if (p->reports)
		lt_reports_flush(p->reports);
	lt_filter_fini(p);
}
