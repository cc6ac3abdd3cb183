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
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/stacktrace.h>
#include <linux/threads.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>

#include "report.h"

static void lt_reports_irq_work(struct irq_work *iw)
{
	struct lt_reports *rs = container_of(iw, struct lt_reports, iw);

	latency_tracker_queue_work(&rs->work);
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
		latency_tracker_queue_work(&rs->work);
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
 * Return: a slot with @cause, @print, @delay_ns and @start_ns cleared, or
 * NULL (counted as lost) when all are busy.
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

/**
 * lt_stack_text() - a stack as one line of text
 * @r: the report being handled.
 * @i: which of the handler's text buffers (< LT_STACK_TEXTS).
 * @s: the stack, e.g. in the report's record.
 *
 * The frames from latency_tracker_stack_first() on, named by
 * latency_tracker_frame_name(), separated by ';' (empty when there is
 * none), for the stack fields of our tracepoints.  The buffer is the work
 * item's and is valid until the handler returns.
 *
 * Context: process context (the report handler).
 * Return: the text.
 */
const char *lt_stack_text(struct lt_report *r, unsigned int i,
			  const struct lt_rec_stack *s)
{
	char *buf, name[KSYM_SYMBOL_LEN];
	unsigned int j, first, nr;
	size_t len = 0;

	if (WARN_ON_ONCE(i >= LT_STACK_TEXTS))
		i = 0;
	buf = r->owner->text[i];
	buf[0] = '\0';
	if (s->nr == LT_REC_STACK_NONE)
		return buf;
	nr = min_t(u32, s->nr, LT_REC_STACK_DEPTH);
	first = latency_tracker_stack_first(s->ip, nr);
	for (j = first; j < nr && len < LT_STACK_TEXT_MAX - 1; j++)
		len += scnprintf(buf + len, LT_STACK_TEXT_MAX - len, "%s%s",
				 j > first ? ";" : "",
				 latency_tracker_frame_name(name, sizeof(name),
							    s->ip[j], s->modgen));
	return buf;
}

/**
 * lt_report_print_stack() - print the frames of a stack, one per line
 * @s: the stack, e.g. in the report's record.
 *
 * Frames as lt_stack_text() gives them.
 *
 * Context: process context (the report handler).
 */
void lt_report_print_stack(const struct lt_rec_stack *s)
{
	char name[KSYM_SYMBOL_LEN];
	unsigned int i, nr;

	if (s->nr == LT_REC_STACK_NONE)
		return;
	nr = min_t(u32, s->nr, LT_REC_STACK_DEPTH);
	for (i = latency_tracker_stack_first(s->ip, nr); i < nr; i++)
		pr_info("  %s\n", latency_tracker_frame_name(name, sizeof(name),
							     s->ip[i], s->modgen));
}

/**
 * lt_stack_save_blocked() - capture the stack of a task that is blocked now
 * @pid: the task (global pid).
 * @start_ns: the start of the task's event (tracker clock).
 * @s: receives the stack, or no frame (nr 0) when it is not blocked.
 *
 * The event's task (latency_tracker_event_task()).  The stack is saved
 * only if that task is off CPU and not runnable, with its pi_lock held so
 * that no wakeup can start it meanwhile (try_to_wake_up() takes the
 * pi_lock first): the stack is frozen during the walk, and the task, not
 * exiting, keeps it (the RCU read section keeps the task_struct).
 *
 * Context: any context but NMI (a timeout callback: timer softirq); the
 * pi_lock is a raw spinlock taken with interrupts saved.
 */
void lt_stack_save_blocked(pid_t pid, u64 start_ns, struct lt_rec_stack *s)
{
	struct task_struct *p;
	unsigned long flags;

	s->nr = 0;
	s->modgen = latency_tracker_module_gen();
	rcu_read_lock();
	p = latency_tracker_event_task(pid, start_ns);
	if (!p)
		goto out;
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	/* Orders the on_rq/on_cpu reads as try_to_wake_up() does. */
	smp_mb__after_spinlock();
	/* Off CPU: its last switch-out is complete, the stack saved. */
	if (!smp_load_acquire(&p->on_cpu) && !lt_task_queued_runnable(p) &&
	    READ_ONCE(p->__state) != TASK_RUNNING &&
	    !(p->flags & PF_EXITING))
		s->nr = lt_stack_save_tsk(p, s->ip, LT_REC_STACK_DEPTH);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
out:
	rcu_read_unlock();
}

/* Frames of this module, at most, atop a stack saved in its probe. */
#define LT_STACK_OURS	16

/**
 * lt_stack_save_here() - capture the stack of the current task
 * @ip: receives it (LT_REC_STACK_DEPTH addresses at most), innermost
 *	first, without the frames of this module (the probe that asks) on
 *	top.
 *
 * Context: any context but NMI (a probe: no allocation, no lock).
 * Return: the number of addresses saved.
 */
unsigned int lt_stack_save_here(unsigned long *ip)
{
	unsigned long raw[LT_REC_STACK_DEPTH + LT_STACK_OURS];
	unsigned int n, i, first = 0;

	n = stack_trace_save(raw, ARRAY_SIZE(raw), 0);
	for (i = 0; i < n && i < LT_STACK_OURS; i++)
		if (within_module(raw[i], THIS_MODULE))
			first = i + 1;
	n = min_t(unsigned int, n - first, LT_REC_STACK_DEPTH);
	memcpy(ip, raw + first, n * sizeof(*ip));
	return n;
}

/**
 * lt_ustack_save_current() - walk the user stack of the current task
 * @ip: receives LT_REC_STACK_DEPTH addresses at most, innermost first.
 *
 * The user instruction pointer, then the return addresses of the frame
 * pointer chain from the saved user registers, each frame read with
 * copy_from_user_nofault() (no fault taken: a page not present ends the
 * walk).  The chain ends at a frame whose saved frame pointer or return
 * address is null (the outermost); a frame that cannot be followed (no
 * frame pointer in the registers, misaligned, unreadable, or not further
 * up the stack than the one before: code built without frame pointers)
 * ends it with LT_REC_USTACK_BROKEN.  Nothing for a kernel thread or an
 * io_uring worker (no user registers).
 *
 * Context: the task's own context, e.g. a sched_switch probe for prev;
 * any context but NMI, never sleeps.
 * Return: the number of addresses saved.
 */
unsigned int lt_ustack_save_current(u64 *ip)
{
	unsigned long fp, frame[2];
	struct pt_regs *regs;
	unsigned int n = 0;

	/* An io_uring worker has an mm but no user registers of its own. */
	if ((current->flags & (PF_KTHREAD | PF_IO_WORKER)) || !current->mm)
		return 0;
	regs = task_pt_regs(current);
	if (!user_mode(regs))
		return 0;
	fp = lt_user_frame_pointer(regs);
	ip[n++] = instruction_pointer(regs);
	while (n < LT_REC_STACK_DEPTH) {
		if (!fp || (fp & (sizeof(long) - 1)) ||
		    copy_from_user_nofault(frame, (const void __user *)fp,
					   sizeof(frame))) {
			ip[n++] = LT_REC_USTACK_BROKEN;
			break;
		}
		if (!frame[1])
			break;
		ip[n++] = frame[1];
		if (!frame[0])
			break;
		if (frame[0] <= fp) {
			if (n < LT_REC_STACK_DEPTH)
				ip[n++] = LT_REC_USTACK_BROKEN;
			break;
		}
		fp = frame[0];
	}
	return n;
}
