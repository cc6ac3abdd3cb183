// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - deferred stack reports of a tracker module (see report.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "report.h"

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
	lt_print_budget_init(&rs->budget, LT_PRINT_INTERVAL_NS);
	atomic_set(&rs->suppressed, 0);
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
 * Return: a slot with @cause, @print, @delay_ns, @start_ns and
 * @nr_entries cleared, or NULL (counted as lost) when all are busy.
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
		r->start_ns = 0;
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
 * @tgid: the process the stack belongs to.
 * @selected: the task was selected by a filter (lt_probe_selects()): it
 *	always gets its stack.
 *
 * Per print interval, at most LT_PRINT_TGID_BURST stacks of one process
 * and LT_PRINT_BURST in all; a process over its own budget does not use
 * up the global one.  A refusal is counted for
 * lt_report_print_suppressed().
 *
 * Context: any context but NMI; lock-free (cmpxchg loops over a bounded
 * number of slots).
 * Return: true when the caller may print one stack.
 */
bool lt_report_may_print(struct lt_reports *rs, pid_t tgid, bool selected)
{
	/* A tgid fits in the 24 bits print_budget.h keeps of it. */
	BUILD_BUG_ON(PID_MAX_LIMIT > (1 << 24));
	if (selected)
		return true;
	if (lt_print_budget_take(&rs->budget, ktime_get_mono_fast_ns(), tgid))
		return true;
	atomic_inc(&rs->suppressed);
	return false;
}

/**
 * lt_report_print_suppressed() - say how many stacks the limiter refused
 * @rs: the slots.
 *
 * Called by a report handler before it prints a stack: prints the number
 * of stack reports refused since the last one printed, if any.
 *
 * Context: process context (the report handler).
 */
void lt_report_print_suppressed(struct lt_reports *rs)
{
	int n = atomic_xchg(&rs->suppressed, 0);

	if (n)
		pr_info("%d stack reports suppressed (rate limit)\n", n);
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

/*
 * One frame as "%pS" prints it (sprint_symbol(): function+off/size
 * [module]), or "?" for an address kallsyms cannot name, which "%pS"
 * would print raw: e.g. a module's init function once the init has
 * returned (do_init_module() drops the init symbols at once), while the
 * stack was saved inside it and is formatted later.  Also "?" for the
 * empty name of a kernel without kallsyms.  No kernel address reaches
 * dmesg or a trace.
 */
static const char *lt_frame_name(char name[KSYM_SYMBOL_LEN],
				 unsigned long addr)
{
	sprint_symbol(name, addr);
	return !name[0] || str_has_prefix(name, "0x") ? "?" : name;
}

/**
 * lt_report_stack_text() - the stack of a report as one line of text
 * @r: the report being handled.
 *
 * Frames as lt_frame_name() gives them, separated by ';' (empty when
 * there is no stack), for the stack field of our tracepoints.  The buffer
 * is the work item's and is valid until the handler returns.
 *
 * Context: process context (the report handler).
 * Return: the text.
 */
const char *lt_report_stack_text(struct lt_report *r)
{
	char *buf = r->owner->text, name[KSYM_SYMBOL_LEN];
	unsigned int i, first = lt_report_first_frame(r);
	size_t len = 0;

	buf[0] = '\0';
	for (i = first; i < r->nr_entries && len < LT_STACK_TEXT_MAX - 1; i++)
		len += scnprintf(buf + len, LT_STACK_TEXT_MAX - len, "%s%s",
				 i > first ? ";" : "",
				 lt_frame_name(name, r->entries[i]));
	return buf;
}

/**
 * lt_report_print_stack() - print the frames of a report, one per line
 * @r: the report being handled.
 *
 * Frames as lt_frame_name() gives them.
 *
 * Context: process context (the report handler).
 */
void lt_report_print_stack(const struct lt_report *r)
{
	char name[KSYM_SYMBOL_LEN];
	unsigned int i;

	for (i = lt_report_first_frame(r); i < r->nr_entries; i++)
		pr_info("  %s\n", lt_frame_name(name, r->entries[i]));
}

/**
 * lt_stack_save_blocked() - capture the stack of a task that is blocked now
 * @pid: the task (global pid).
 * @r: the report whose @entries receive the stack; its @start_ns is the
 *	start of the task's event.
 *
 * The task is looked up by pid, and taken for the report's task only if
 * it started (task_struct.start_time, CLOCK_MONOTONIC at fork, the
 * tracker's clock) no later than the event: the report's task was alive
 * at the event's start, and a task given its pid after it exited was
 * forked after that (while the task lives, no other has its pid).  An
 * exec by a thread that is not the leader keeps the leader's start time
 * with its pid (de_thread()).  The stack is saved only if that task is
 * off CPU and not runnable, with its pi_lock held so that no wakeup can
 * start it meanwhile (try_to_wake_up() takes the pi_lock first): the
 * stack is frozen and stays allocated during the walk.
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
	if (p && p->start_time <= r->start_ns)
		get_task_struct(p);
	else
		p = NULL;
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
