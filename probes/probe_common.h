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
 * dmesg output is rate limited by lt_report_may_print() (a burst per
 * interval), decided by the producer so that no stack is captured for a
 * report nobody will see.
 */
#ifndef _LT_PROBE_COMMON_H
#define _LT_PROBE_COMMON_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <latency_tracker.h>
#include <latency_tracker_compat.h>

/* Frames kept per captured stack. */
#define LT_STACK_DEPTH		16
/* Reports that may wait for the work item at once, per tracker. */
#define LT_REPORT_SLOTS		32
/* Tracker-specific bytes of a report. */
#define LT_REPORT_DATA		96
/* dmesg: at most LT_PRINT_BURST stacks per LT_PRINT_INTERVAL_NS. */
#define LT_PRINT_BURST		10
#define LT_PRINT_INTERVAL_NS	(5ULL * NSEC_PER_SEC)
/* Text of a stack for a tracepoint: LT_STACK_DEPTH "sym+off/size" frames. */
#define LT_STACK_TEXT_MAX	(LT_STACK_DEPTH * 96)

/*
 * The three module parameters of every tracker module, in nanoseconds
 * (max_events: a count), with the tracker's defaults.  Read-only in sysfs:
 * the live values are in /proc/latency_tracker/<tracker>/.
 */
#define LT_PROBE_MODULE_PARAMS(thr, tmo, maxev)				\
	static ulong threshold = (thr);					\
	module_param(threshold, ulong, 0444);				\
	MODULE_PARM_DESC(threshold,					\
		"report delays above this, in ns (default " #thr ")");	\
	static ulong timeout = (tmo);					\
	module_param(timeout, ulong, 0444);				\
	MODULE_PARM_DESC(timeout,					\
		"report events pending longer, in ns, 0 = off (default "	\
		#tmo ")");							\
	static uint max_events = (maxev);				\
	module_param(max_events, uint, 0444);				\
	MODULE_PARM_DESC(max_events,					\
		"events pending at once; more are dropped (default " #maxev ")")

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
 * @print_window: start of the current rate-limit window (ns).
 * @printed: stacks printed in that window.
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
	atomic64_t print_window;
	atomic_t printed;
	char text[LT_STACK_TEXT_MAX];
};

void lt_reports_init(struct lt_reports *rs, lt_report_handle_t handle);
void lt_reports_flush(struct lt_reports *rs);
struct lt_report *lt_report_get(struct lt_reports *rs);
void lt_report_queue(struct lt_report *r);
bool lt_report_may_print(struct lt_reports *rs);
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
 * @params: creation parameters (threshold, timeout and max_events are
 *	taken from the module parameters by lt_probe_start()).
 * @tps: tracepoints to attach, by name.
 * @nr_tps: entries in @tps.
 * @reports: deferred reports of the tracker, or NULL.
 * @setup: optional, runs after the tracker exists and before the probes
 *	are attached (e.g. extra procfs files); may fail the load.
 * @t: the tracker, set by lt_probe_start().
 */
struct lt_probe {
	struct latency_tracker_params params;
	struct latency_tracker_tp *tps;
	unsigned int nr_tps;
	struct lt_reports *reports;
	int (*setup)(struct latency_tracker *t);
	struct latency_tracker *t;
};

int lt_probe_start(struct lt_probe *p, u64 threshold, u64 timeout,
		   u32 max_events);
void lt_probe_stop(struct lt_probe *p);

#endif /* _LT_PROBE_COMMON_H */
