/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe_common.h - what the four tracker modules (wakeup, offcpu, syscalls,
 * block) share: module parameters and their checks, the load/unload
 * sequence, their tracepoint tables (probes type-checked at build time),
 * and the deferred reports that carry a kernel stack from a probe to
 * process context.
 *
 * probe_common.c is compiled into each tracker module (see Kbuild).
 *
 * Deferred reports.  A probe (scheduler tracepoint, timeout timer) may not
 * print, format or sleep, but an over-threshold event wants its stack in
 * dmesg and as text in our tracepoint.  So the probe takes one of a few
 * preallocated report slots, fills it (binary data, stack addresses) and
 * hands it over; an irq_work then queues a work item, which formats the
 * stack and calls the tracker's handler in process context:
 *
 *	slot			who				context
 *	lt_report_get()		probe, timeout callback		any but NMI
 *	lt_report_queue()	same, after filling the slot	any but NMI
 *	->handle()		the work item, one at a time	process
 *	slot freed		after ->handle() returns	process
 *
 * A slot is owned through its bit in the free-slot bitmap, a bit lock:
 * lt_report_get() takes it with test_and_set_bit_lock() (acquire) and the
 * work item releases it with clear_bit_unlock() (release) after ->handle()
 * returns, so the handler's accesses to the slot happen before those of
 * the slot's next owner.  The ready list is an llist (many producers, one
 * consumer that takes all); its cmpxchg/xchg order the producer's filling
 * of the slot before the handler's reads.  When every slot is busy the
 * report is refused and counted (lost); the alert record itself never
 * depends on a slot.
 *
 * dmesg output is rate limited by lt_report_may_print(), decided by the
 * producer so that no stack is captured for a report nobody will see:
 * each process (tgid) may print LT_PRINT_TGID_BURST stacks per interval
 * (the module parameter print_interval, default 5 s), and all of them
 * together LT_PRINT_BURST, so that one noisy process cannot starve the
 * others.  A report refused is counted, and the next printed one is
 * preceded by "<n> stack reports suppressed".  A task selected by a
 * filter (filter_tgid or filter_cgroup set) always gets its stack.
 *
 *	what			who				sync
 *	budgets, suppressed	producers, any CPU, any ctx	atomic64
 *				(lt_report_may_print())		cmpxchg
 *
 * Filters.  Which tasks (or, for block, which requests) a tracker starts
 * events for, decided in the probe before any table operation by
 * lt_probe_track_task() / lt_probe_track_request():
 *
 *	filter_cgroup	a cgroup v2 directory: tasks in it or below it
 *			(block: requests charged to it or below, blkcg)
 *	filter_tgid	up to LT_FILTER_LIST_MAX processes (global tgids;
 *			written in the writer's pid namespace)
 *	kthreads	0/1: kernel threads tracked (default: 0 for offcpu)
 *	filter_dev	block only: up to LT_FILTER_LIST_MAX disks
 *
 * The filters in force are one immutable struct lt_filter_set, published
 * with rcu_assign_pointer() by a writer (procfs write or module load,
 * serialised by lt_probe.filter_lock, process context) and freed with
 * kfree_rcu() when replaced; the probes read it inside rcu_read_lock(),
 * or rcu_read_lock_sched() in lt_probe_track_task() and
 * lt_task_cgroup_id() (since v5.0 one grace period covers both kinds of
 * reader).
 * The cgroup filter is the cgroup's id and level, never a pointer to it,
 * and a task's cgroup is compared through its ancestors[] under RCU (a
 * cgroup and its ancestors stay allocated for a grace period after the
 * last task left): when the cgroup is removed nothing dangles, it simply
 * matches no task (ids are never reused).
 *
 *	what		who					sync
 *	p->filter	writers (process ctx, filter_lock)	RCU publish
 *	*p->filter	readers: probes, callbacks (any ctx)	immutable
 *	cgroup_path	writers and the filter_cgroup reader	filter_lock
 */
#ifndef _LT_PROBE_COMMON_H
#define _LT_PROBE_COMMON_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <latency_tracker.h>
#include <latency_tracker_compat.h>

#include "print_budget.h"

/* Frames kept per captured stack. */
#define LT_STACK_DEPTH		16
/* Reports that may wait for the work item at once, per tracker. */
#define LT_REPORT_SLOTS		32
/* Tracker-specific bytes of a report. */
#define LT_REPORT_DATA		96
/*
 * dmesg, per print_interval (default LT_PRINT_INTERVAL_NS): at most
 * LT_PRINT_TGID_BURST stacks of one process, LT_PRINT_BURST in all
 * (print_budget.h).
 */
#define LT_PRINT_INTERVAL_NS	(5ULL * NSEC_PER_SEC)
#define LT_PRINT_INTERVAL_MIN	NSEC_PER_MSEC
#define LT_PRINT_INTERVAL_MAX	(3600ULL * NSEC_PER_SEC)
/* Processes in filter_tgid, and disks in filter_dev, at most. */
#define LT_FILTER_LIST_MAX	8
/* Default capacity of a tracker's alert ring (alert_records). */
#define LT_ALERT_RECORDS	1024
/* Text of a stack for a tracepoint: LT_STACK_DEPTH "sym+off/size" frames. */
#define LT_STACK_TEXT_MAX	(LT_STACK_DEPTH * 96)

/**
 * struct lt_probe_mparams - the module parameters of a tracker module
 * @threshold: ns.
 * @timeout: ns, 0 = off.
 * @max_events: event slots.
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
		"events pending at once; more are dropped (default " #maxev ")"); \
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

/**
 * struct lt_filter_set - the filters in force (immutable once published)
 * @rcu: to free a replaced set.
 * @cgroup_id: the filter_cgroup's id, 0 = any cgroup.
 * @cgroup_level: its depth in the hierarchy (root: 0).
 * @nr_tgids: entries in @tgids, 0 = any process.
 * @tgids: global tgids.
 * @nr_devs: entries in @devs, 0 = any disk.
 * @devs: disks (dev_t).
 * @kthreads: kernel threads are tracked.
 */
struct lt_filter_set {
	struct rcu_head rcu;
	u64 cgroup_id;
	int cgroup_level;
	u32 nr_tgids;
	pid_t tgids[LT_FILTER_LIST_MAX];
	u32 nr_devs;
	u32 devs[LT_FILTER_LIST_MAX];
	bool kthreads;
};

/* Copies @p's comm; no lock, a comm changing meanwhile may mix. */
static inline void lt_comm_get(char comm[TASK_COMM_LEN],
			       const struct task_struct *p)
{
	memcpy(comm, p->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
}

struct lt_report;
struct lt_reports;

/**
 * struct lt_report - one deferred report
 * @node: on the ready list.
 * @owner: the set the slot belongs to.
 * @cause: threshold or timeout.
 * @print: print the stack to dmesg (the rate limiter said yes).
 * @delay_ns: measured delay.
 * @start_ns: the event's start (latency_tracker_report.start_ns), set
 *	by the producer: the task the report is about existed then, which
 *	tells it from a later task given the same pid
 *	(lt_stack_save_blocked()); 0 matches no task.
 * @nr_entries: frames in @entries (0: no stack).
 * @entries: return addresses, innermost first.
 * @data: tracker-specific data.
 */
struct lt_report {
	struct llist_node node;
	struct lt_reports *owner;
	u8 cause;
	bool print;
	u64 delay_ns;
	u64 start_ns;
	unsigned int nr_entries;
	unsigned long entries[LT_STACK_DEPTH];
	u8 data[LT_REPORT_DATA] __aligned(8);
};

/*
 * The handler of a tracker's reports: process context, may sleep; the
 * slot is freed when it returns.
 */
typedef void (*lt_report_handle_t)(struct lt_report *r);

/**
 * struct lt_reports - a tracker's report slots and the work that drains them
 * @slots: the preallocated slots.
 * @busy: bit i set = slots[i] is taken.
 * @ready: reports handed over, newest first.
 * @iw: queued by producers; queues @work.
 * @work: formats and handles the ready reports.
 * @handle: the tracker's handler.
 * @lost: reports refused because every slot was busy.
 * @budget: the dmesg rate limit (its interval: print_interval).
 * @suppressed: stacks refused by the rate limit since the last printed.
 * @text: stack text buffer of the work item.
 */
struct lt_reports {
	struct lt_report slots[LT_REPORT_SLOTS];
	unsigned long busy[BITS_TO_LONGS(LT_REPORT_SLOTS)];
	struct llist_head ready;
	struct irq_work iw;
	struct work_struct work;
	lt_report_handle_t handle;
	atomic_t lost;
	struct lt_print_budget budget;
	atomic_t suppressed;
	char text[LT_STACK_TEXT_MAX];
};

void lt_reports_init(struct lt_reports *rs, lt_report_handle_t handle);
void lt_reports_flush(struct lt_reports *rs);
struct lt_report *lt_report_get(struct lt_reports *rs);
void lt_report_queue(struct lt_report *r);
bool lt_report_may_print(struct lt_reports *rs, pid_t tgid, bool selected);
void lt_report_print_suppressed(struct lt_reports *rs);
const char *lt_report_stack_text(struct lt_report *r);
void lt_report_print_stack(const struct lt_report *r);
bool lt_stack_save_blocked(pid_t pid, struct lt_report *r);

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
	struct latency_tracker *t;
	struct lt_filter_set __rcu *filter;
	struct mutex filter_lock;	/* filter writers, cgroup_path */
	char *cgroup_path;
};

int lt_probe_start(struct lt_probe *p, const struct lt_probe_mparams *mp);
void lt_probe_stop(struct lt_probe *p);

struct request;
bool lt_probe_track_task(struct lt_probe *p, struct task_struct *tsk,
			 u64 *cgid);
bool lt_probe_track_request(struct lt_probe *p, struct request *rq, u32 dev,
			    u64 *cgid);
bool lt_probe_selects(struct lt_probe *p);
u64 lt_task_cgroup_id(struct task_struct *tsk);

#endif /* _LT_PROBE_COMMON_H */
