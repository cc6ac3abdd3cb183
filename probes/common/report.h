/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - deferred stack reports of a tracker module, and its dmesg
 * stack budget (print_budget.h).  Compiled into each tracker module.
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
 */
#ifndef _LT_REPORT_H
#define _LT_REPORT_H

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <latency_tracker.h>
#include <lt_records/record.h>

#include "print_budget.h"

/* Reports that may wait for the work item at once, per tracker. */
#define LT_REPORT_SLOTS		32
/* Tracker-specific bytes of a report: a record with three stacks. */
#define LT_REPORT_DATA		512
/* The print interval (module parameter print_interval): default, bounds. */
#define LT_PRINT_INTERVAL_NS	(5ULL * NSEC_PER_SEC)
#define LT_PRINT_INTERVAL_MIN	NSEC_PER_MSEC
#define LT_PRINT_INTERVAL_MAX	(3600ULL * NSEC_PER_SEC)
/* Text of a stack for a tracepoint: LT_REC_STACK_DEPTH "sym+off/size" frames. */
#define LT_STACK_TEXT_MAX	(LT_REC_STACK_DEPTH * 96)
/* Stacks a report handler may hold as text at once (stack, waker_stack). */
#define LT_STACK_TEXTS		2

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
 * @data: tracker-specific data (its record, with its stacks).
 */
struct lt_report {
	struct llist_node node;
	struct lt_reports *owner;
	u8 cause;
	bool print;
	u64 delay_ns;
	u64 start_ns;
	u8 data[LT_REPORT_DATA] __aligned(8);
};

/*
 * lt_report_fill() - a report slot's fields from the core's report @r,
 * whether to print its stack, and the tracker's record @rec of @len bytes
 * (copied into the slot's data; a constant @len is checked at build time
 * to fit).  Any context.
 */
static __always_inline void
lt_report_fill(struct lt_report *rep, const struct latency_tracker_report *r,
	       bool print, const void *rec, size_t len)
{
	BUILD_BUG_ON(len > LT_REPORT_DATA);
	rep->cause = r->cause;
	rep->delay_ns = r->delay_ns;
	rep->start_ns = r->start_ns;
	rep->print = print;
	memcpy(rep->data, rec, len);
}

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
 * @text: stack text buffers of the work item (lt_stack_text()).
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
	char text[LT_STACK_TEXTS][LT_STACK_TEXT_MAX];
};

void lt_reports_init(struct lt_reports *rs, lt_report_handle_t handle);
void lt_reports_flush(struct lt_reports *rs);
struct lt_report *lt_report_get(struct lt_reports *rs);
void lt_report_queue(struct lt_report *r);
bool lt_report_may_print(struct lt_reports *rs, pid_t tgid, bool selected);
void lt_report_print_suppressed(struct lt_reports *rs);
const char *lt_stack_text(struct lt_report *r, unsigned int i,
			  const struct lt_rec_stack *s);
void lt_report_print_stack(const struct lt_rec_stack *s);
void lt_stack_save_blocked(pid_t pid, u64 start_ns, struct lt_rec_stack *s);
unsigned int lt_stack_save_here(unsigned long *ip);
unsigned int lt_ustack_save_current(u64 *ip);

#endif /* _LT_REPORT_H */
