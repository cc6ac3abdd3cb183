/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - a tracker module on the probe layer: its module parameters
 * and their checks, its load/unload sequence (probe.c), its tracepoint
 * table (each probe type-checked at build time), its filters (filter.h)
 * and its deferred stack reports (report.h).  The layer's sources
 * (probes/common/, every .c) are compiled into each tracker module, see
 * probes/Kbuild; one tracker module may also hold several trackers, each
 * its own struct lt_probe.
 */
#ifndef _LT_PROBE_H
#define _LT_PROBE_H

#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <latency_tracker.h>
#include <latency_tracker_compat.h>

#include "filter.h"
#include "report.h"

/* Default capacity of a tracker's alert ring (alert_records). */
#define LT_ALERT_RECORDS	1024

/**
 * struct lt_probe_mparams - the module parameters of a tracker module
 * @threshold: ns.
 * @timeout: ns, 0 = off.
 * @max_events: the most event slots (the pool's ceiling; 0: from the
 *	machine's memory).
 * @initial_events: slots allocated at load (the pool's first segment;
 *	0: from the CPUs), at most @max_events when that is set.
 * @alert_records: capacity of the alert ring.
 * @print_interval: ns, the dmesg rate limit's interval.
 * @filter_cgroup: initial filter_cgroup (NULL or "" = none).
 * @filter_tgid: initial filter_tgid.
 * @filter_dev: initial filter_dev (block only).
 * @kthreads: initial kthreads.
 */
struct lt_probe_mparams {
	ulong threshold;
	ulong timeout;
	uint max_events;
	uint initial_events;
	uint alert_records;
	ulong print_interval;
	char *filter_cgroup;
	char *filter_tgid;
	char *filter_dev;
	int kthreads;
};

/*
 * The module parameters of every tracker module, in nanoseconds (counts
 * for max_events and alert_records), with the tracker's defaults, in
 * lt_mparams.  Read-only in sysfs: the live values are in
 * /proc/latency_tracker/<tracker>/ (the filters' sysfs copies are
 * root-only, like the procfs files).
 */
#define LT_PROBE_MODULE_PARAMS(thr, tmo, maxev, kthr)			\
	static struct lt_probe_mparams lt_mparams = {			\
		.threshold = (thr),					\
		.timeout = (tmo),					\
		.max_events = (maxev),					\
		.alert_records = LT_ALERT_RECORDS,			\
		.print_interval = LT_PRINT_INTERVAL_NS,			\
		.kthreads = (kthr),					\
	};								\
	module_param_named(threshold, lt_mparams.threshold, ulong, 0444); \
	MODULE_PARM_DESC(threshold,					\
		"report delays above this, in ns (default " #thr ")");	\
	module_param_named(timeout, lt_mparams.timeout, ulong, 0444);	\
	MODULE_PARM_DESC(timeout,					\
		"report events pending longer, in ns, 0 = off (default "	\
		#tmo ")");						\
	module_param_named(max_events, lt_mparams.max_events, uint, 0444); \
	MODULE_PARM_DESC(max_events,					\
		"most events pending at once, the pool's ceiling, "	\
		"0 = from the memory (default " #maxev ")");		\
	module_param_named(initial_events, lt_mparams.initial_events,	\
			   uint, 0444);					\
	MODULE_PARM_DESC(initial_events,				\
		"event slots allocated at load, the pool's first "	\
		"segment, 0 = from the CPUs (default 0)");		\
	module_param_named(alert_records, lt_mparams.alert_records, uint, 0444); \
	MODULE_PARM_DESC(alert_records,					\
		"alert ring capacity, 16..65536 records (default 1024)"); \
	module_param_named(print_interval, lt_mparams.print_interval,	\
			   ulong, 0444);				\
	MODULE_PARM_DESC(print_interval,				\
		"dmesg stack rate limit interval, ns (default 5 s)");	\
	module_param_named(filter_cgroup, lt_mparams.filter_cgroup,	\
			   charp, 0400);				\
	MODULE_PARM_DESC(filter_cgroup,					\
		"track only this cgroup v2 path and below (default: all)"); \
	module_param_named(filter_tgid, lt_mparams.filter_tgid, charp, 0400); \
	MODULE_PARM_DESC(filter_tgid,					\
		"track only these processes, e.g. 12,34 (default: all)"); \
	module_param_named(kthreads, lt_mparams.kthreads, int, 0444);	\
	MODULE_PARM_DESC(kthreads,					\
		"track kernel threads, 0/1 (default " #kthr ")")

/* The block tracker's own filter parameter. */
#define LT_PROBE_MODULE_PARAM_DEV()					\
	module_param_named(filter_dev, lt_mparams.filter_dev, charp, 0400); \
	MODULE_PARM_DESC(filter_dev,					\
		"track only these disks, major:minor[,...] (default: all)")

/* Copies @p's comm; no lock, a comm changing meanwhile may mix. */
static inline void lt_comm_get(char comm[TASK_COMM_LEN],
			       const struct task_struct *p)
{
	memcpy(comm, p->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
}

/*
 * The tracepoints of a tracker, attached by name (latency_tracker_tp_attach()
 * hands the probe to the tracepoint as a plain pointer), each probe
 * type-checked against its tracepoint's prototype at build time.  LIST(X)
 * expands X(tracepoint, probe) once per tracepoint:
 *
 *	#define LT_FOO_TPS(X)				\
 *		X(sched_switch, lt_foo_probe_switch)	\
 *		X(sched_waking, lt_foo_probe_waking)
 *	LT_PROBE_TPS(lt_foo_tps, LT_FOO_TPS);
 *
 * defines the array lt_foo_tps of struct latency_tracker_tp and a never
 * called function that passes each probe to the kernel's
 * check_trace_callback_type_<tracepoint>(), declared by the tracepoint's
 * header (<trace/events/sched.h>, ...), which the tracker includes: a probe
 * whose prototype is not the tracepoint's, e.g. on a kernel that changed
 * it, fails the build (incompatible pointer type) instead of being called
 * with the wrong arguments.
 */
#define LT_PROBE_TP_CHECK(tp, fn)	check_trace_callback_type_##tp(fn);
#define LT_PROBE_TP_ENTRY(tp, fn)	{ .name = #tp, .probe = fn },
#define LT_PROBE_TPS(tps, LIST)						\
static inline void __maybe_unused tps##_check_types(void)		\
{									\
	LIST(LT_PROBE_TP_CHECK)						\
}									\
static struct latency_tracker_tp tps[] = { LIST(LT_PROBE_TP_ENTRY) }

#define LT_PROBE_PARTS	5

/**
 * struct lt_probe - a tracker module: its tracker and its probes
 * @params: creation parameters (threshold, timeout, max_events and
 *	alert_records are taken from the module parameters by
 *	lt_probe_start(), owner_data is set to the lt_probe).
 * @tps: tracepoints to attach, by name.
 * @nr_tps: entries in @tps.
 * @reports: deferred reports of the tracker, or NULL.
 * @setup: optional, runs after the tracker exists and before the probes
 *	are attached (e.g. extra procfs files); may fail the load.
 * @requests: the tracker filters block requests (filter_cgroup by the
 *	request's blkcg, filter_dev), not tasks: filter_tgid and kthreads
 *	do not apply (they accept only their defaults, empty and 1).
 * @taskless: the tracker's events belong to no task (interrupts): none
 *	of the filters applies (each accepts only its default: empty, and
 *	kthreads 1).
 * @parts: optional, the names of the parts of the delay its records
 *	break down into (at most LT_PROBE_PARTS, NULL after the last):
 *	their sums over the threshold records (lt_probe_add_parts()) are
 *	`breakdown_<name>_ns` lines of `stats` (@params.stats_show then
 *	stays unset).
 * @part_ns: those sums, ns.
 * @t: the tracker, set by lt_probe_start().
 * @filter: the filters in force (see the top of this file).
 * @filter_lock: serialises the filter writers.
 * @cgroup_path: filter_cgroup as written, or NULL.
 */
struct lt_probe {
	struct latency_tracker_params params;
	struct latency_tracker_tp *tps;
	unsigned int nr_tps;
	struct lt_reports *reports;
	int (*setup)(struct latency_tracker *t);
	bool requests;
	bool taskless;
	const char *const *parts;
	atomic64_t part_ns[LT_PROBE_PARTS];
	struct latency_tracker *t;
	struct lt_filter_set __rcu *filter;
	struct mutex filter_lock;	/* filter writers, cgroup_path */
	char *cgroup_path;
};

int lt_probe_start(struct lt_probe *p, const struct lt_probe_mparams *mp);
void lt_probe_stop(struct lt_probe *p);
void lt_probe_add_parts(struct lt_probe *p, const u64 *ns);

#endif /* _LT_PROBE_H */
