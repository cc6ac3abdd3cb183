// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_common.c - shared part of the tracker modules: load/unload
 * sequence and deferred stack reports (see probe_common.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>

#include "probe_common.h"

static void lt_reports_irq_work(struct irq_work *iw)
{
	struct lt_reports *rs = container_of(iw, struct lt_reports, iw);

	queue_work(system_unbound_wq, &rs->work);
}

static void lt_reports_work(struct work_struct *work)
{
	struct lt_reports *rs = container_of(work, struct lt_reports, work);
	struct llist_node *list;
	struct lt_report *r, *next;

	list = llist_reverse_order(llist_del_all(&rs->ready));
	llist_for_each_entry_safe(r, next, list, node) {
		rs->handle(r);
		clear_bit_unlock(r - rs->slots, rs->busy);
		cond_resched();
	}
}

/**
 * lt_reports_init() - prepare a tracker's report slots
 * @rs: the slots (module static storage).
 * @handle: called in process context for each report.
 *
 * Context: process context.
 */
void lt_reports_init(struct lt_reports *rs, lt_report_handle_t handle)
{
	unsigned int i;

	for (i = 0; i < LT_REPORT_SLOTS; i++)
		rs->slots[i].owner = rs;
	bitmap_zero(rs->busy, LT_REPORT_SLOTS);
	init_llist_head(&rs->ready);
	init_irq_work(&rs->iw, lt_reports_irq_work);
	INIT_WORK(&rs->work, lt_reports_work);
	rs->handle = handle;
	atomic_set(&rs->lost, 0);
	atomic64_set(&rs->print_window, 0);
	atomic_set(&rs->printed, 0);
}

/**
 * lt_reports_flush() - handle every queued report and wait for it
 * @rs: the slots.
 *
 * Once no producer can run any more (probes detached, tracker destroyed),
 * this leaves nothing of @rs running.
 *
 * Context: process context, sleeps.
 */
void lt_reports_flush(struct lt_reports *rs)
{
	irq_work_sync(&rs->iw);
	flush_work(&rs->work);
	/* A report queued after the irq_work last ran has no work queued. */
	if (!llist_empty(&rs->ready)) {
		queue_work(system_unbound_wq, &rs->work);
		flush_work(&rs->work);
	}
	if (atomic_read(&rs->lost))
		pr_info("%d stack reports lost (all %d slots busy)\n",
			atomic_read(&rs->lost), LT_REPORT_SLOTS);
}

/**
 * lt_report_get() - take a free report slot
 * @rs: the slots.
 *
 * Context: any context but NMI; never sleeps.
 * Return: a slot with @cause, @print and @nr_entries cleared, or NULL
 * (counted as lost) when all are busy.
 */
struct lt_report *lt_report_get(struct lt_reports *rs)
{
	struct lt_report *r;
	unsigned int i;

	for (i = 0; i < LT_REPORT_SLOTS; i++) {
		if (test_bit(i, rs->busy) || test_and_set_bit_lock(i, rs->busy))
			continue;
		r = &rs->slots[i];
		r->cause = LATENCY_TRACKER_CAUSE_THRESHOLD;
		r->print = false;
		r->delay_ns = 0;
		r->nr_entries = 0;
		return r;
	}
	atomic_inc(&rs->lost);
	return NULL;
}

/**
 * lt_report_queue() - hand a filled slot over to process context
 * @r: a slot from lt_report_get().
 *
 * Context: any context but NMI (irq_work, no wakeup here); never sleeps.
 */
void lt_report_queue(struct lt_report *r)
{
	llist_add(&r->node, &r->owner->ready);
	irq_work_queue(&r->owner->iw);
}

/**
 * lt_report_may_print() - ask the dmesg rate limiter for one stack
 * @rs: the slots whose limiter is asked.
 *
 * At most LT_PRINT_BURST yes per LT_PRINT_INTERVAL_NS window.  Two CPUs
 * opening a new window at once may let one more through; that is all.
 *
 * Context: any context but NMI; lock-free.
 * Return: true when the caller may print one stack.
 */
bool lt_report_may_print(struct lt_reports *rs)
{
	u64 now = ktime_get_mono_fast_ns();
	s64 start = atomic64_read(&rs->print_window);

	if (now - start >= LT_PRINT_INTERVAL_NS &&
	    atomic64_cmpxchg(&rs->print_window, start, now) == start)
		atomic_set(&rs->printed, 0);
	return atomic_inc_return(&rs->printed) <= LT_PRINT_BURST;
}

/*
 * Scheduler code a stack goes through when its task leaves the CPU:
 * __schedule, schedule*, io_schedule*, preempt_schedule*, and the
 * preemption points (_cond_resched, __cond_resched).
 */
static bool lt_is_sched_frame(unsigned long addr)
{
	static const char *const prefixes[] = {
		"__schedule", "schedule", "io_schedule", "preempt_schedule",
		"_cond_resched", "__cond_resched",
	};
	char name[KSYM_SYMBOL_LEN];
	unsigned int i;

	sprint_symbol_no_offset(name, addr);
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (str_has_prefix(name, prefixes[i]))
			return true;
	return false;
}

/*
 * The first frame of a report worth showing: the one after the outermost
 * scheduler frame.  A stack captured in our sched_switch probe on the
 * task itself starts with the probe, the tracepoint and __schedule(); one
 * saved from a blocked task starts at __schedule(): both are shown from
 * the code that blocked (do_nanosleep, pipe_read, ...), the same shape.
 * A stack with no scheduler frame is shown whole.
 */
static unsigned int lt_report_first_frame(const struct lt_report *r)
{
	unsigned int i, first = 0;

	for (i = 0; i < r->nr_entries; i++)
		if (lt_is_sched_frame(r->entries[i]))
			first = i + 1;
	return first < r->nr_entries ? first : 0;
}

/**
 * lt_report_stack_text() - the stack of a report as one line of text
 * @r: the report being handled.
 *
 * Frames as "%pS" separated by ';' (empty when there is no stack), for
 * the stack field of our tracepoints.  The buffer is the work item's and
 * is valid until the handler returns.
 *
 * Context: process context (the report handler).
 * Return: the text.
 */
const char *lt_report_stack_text(struct lt_report *r)
{
	char *buf = r->owner->text;
	unsigned int i, first = lt_report_first_frame(r);
	size_t len = 0;

	buf[0] = '\0';
	for (i = first; i < r->nr_entries && len < LT_STACK_TEXT_MAX - 1; i++)
		len += scnprintf(buf + len, LT_STACK_TEXT_MAX - len, "%s%pS",
				 i > first ? ";" : "", (void *)r->entries[i]);
	return buf;
}

/**
 * lt_report_print_stack() - print the frames of a report, one per line
 * @r: the report being handled.
 *
 * Context: process context (the report handler).
 */
void lt_report_print_stack(const struct lt_report *r)
{
	unsigned int i;

	for (i = lt_report_first_frame(r); i < r->nr_entries; i++)
		pr_info("  %pS\n", (void *)r->entries[i]);
}

/**
 * lt_stack_save_blocked() - capture the stack of a task that is blocked now
 * @pid: the task (global pid).
 * @r: the report whose @entries receive the stack.
 *
 * The task is looked up by pid and its stack saved only if it is off CPU
 * and not runnable, with its pi_lock held so that no wakeup can start it
 * meanwhile (try_to_wake_up() takes the pi_lock first): the stack is
 * frozen and stays allocated during the walk.
 *
 * Context: process context.
 * Return: true if a stack was saved.
 */
bool lt_stack_save_blocked(pid_t pid, struct lt_report *r)
{
	struct task_struct *p;
	unsigned long flags;
	bool saved = false;
	bool blocked;

	rcu_read_lock();
	p = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
	if (p)
		get_task_struct(p);
	rcu_read_unlock();
	if (!p)
		return false;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	/* Orders the on_rq/on_cpu reads as try_to_wake_up() does. */
	smp_mb__after_spinlock();
	/* Off CPU: its last switch-out is complete, the stack saved. */
	blocked = !smp_load_acquire(&p->on_cpu) && !lt_task_queued_runnable(p) &&
		  READ_ONCE(p->__state) != TASK_RUNNING &&
		  !(p->flags & PF_EXITING);
	if (blocked) {
		r->nr_entries = lt_stack_save_tsk(p, r->entries,
						  LT_STACK_DEPTH);
		saved = true;
	}
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	put_task_struct(p);
	return saved;
}

/**
 * lt_probe_start() - check the module parameters, create the tracker,
 *	attach the probes
 * @p: the tracker module's description.
 * @threshold: module parameter, ns.
 * @timeout: module parameter, ns (0 = off).
 * @max_events: module parameter.
 *
 * A bad parameter fails with one dmesg line naming it (the core's bounds,
 * the same as the procfs files').  Tracking starts when this returns 0.
 *
 * Context: process context (module init), sleeps.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int lt_probe_start(struct lt_probe *p, u64 threshold, u64 timeout,
		   u32 max_events)
{
	int ret;

	ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_THRESHOLD,
					  KBUILD_MODNAME, threshold);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_TIMEOUT,
						  KBUILD_MODNAME, timeout);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_MAX_EVENTS,
						  KBUILD_MODNAME, max_events);
	if (ret)
		return ret;

	p->params.threshold_ns = threshold;
	p->params.timeout_ns = timeout;
	p->params.max_events = max_events;
	p->t = latency_tracker_create(&p->params);
	if (IS_ERR(p->t)) {
		ret = PTR_ERR(p->t);
		pr_err("cannot create tracker %s: %d\n", p->params.name, ret);
		goto err;
	}
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
err:
	p->t = NULL;
	return ret;
}

/**
 * lt_probe_stop() - stop tracking and free everything, in order
 * @p: the description given to lt_probe_start().
 *
 * Detaches the probes and waits for running ones, destroys the tracker
 * (pending events are dropped; its timeout timer, the last producer of
 * reports, is stopped), then handles the reports still queued.
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
}
