/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * thread_time.h - where a thread's time goes while it has a request
 * open (an application request, app.c; a system call that left the CPU,
 * syscalls.c): on CPU, waiting for a CPU (runnable), blocked, and in what
 * it blocked (docs/design.md, "Application requests" and "Breakdown
 * fields").  Part of the probe layer; a module that uses it calls
 * lt_bd_init() and feeds it the scheduler's events: LT_BD_TPS attached
 * (app.c), or lt_bd_switch(), lt_bd_wakeup() and lt_bd_task_exit() called
 * from its own probes (syscalls.c, whose requests begin in its switch
 * probe: the order matters there).
 *
 * A thread that begins a request claims a slot in a fixed table (one per
 * module, LT_BD_SLOTS slots) and keeps it while it has requests open;
 * the scheduler probes (sched_switch, sched_wakeup) account its time in
 * its slot as running, runnable or blocked, with the time blocked per
 * reason (the system call it blocked in, io_schedule() when in_iowait,
 * or not in a system call) in a few (LT_BD_REASONS) reason counters.  A
 * request keeps a snapshot of its thread's counters at its begin
 * (struct lt_bd_snap, in the event's private data); at its end on the
 * same thread, the difference is the request's breakdown.  A thread
 * without a slot costs the probes one test when no slot is in use and
 * one look at one table line otherwise.
 *
 * States of a slot's thread, and what moves them:
 *
 *	from	  event			    to
 *	running   switch-out, blocked	    blocked (reason noted)
 *	running   switch-out, preempted	    ready
 *	blocked   sched_wakeup		    ready
 *	blocked   switch-in		    running (a wakeup not seen)
 *	ready     switch-in		    running
 *
 * Blocked is decided as the off-CPU tracker decides it (offcpu.c): not
 * preempted, a sleeping prev_state, and no longer queued and runnable.
 *
 * A slot's life.  Claimed by its thread at its first request
 * (lt_bd_begin(), owner NULL -> the task, cmpxchg), kept until the thread
 * exits (sched_process_exit releases it), so that a thread serving
 * requests one after another costs no claim per request.  The slot counts
 * the requests open on the thread; the probes account its time only
 * while some are.  A begin that finds none open starts a new generation
 * (counters and reasons reset, generation + 1).  The open count and the
 * generation are one atomic word: a request that ends (on its thread, or
 * elsewhere: lt_bd_forget()) takes itself off the count only if the slot
 * is still in the generation it began in.  A count that stays up (a begin
 * that replaced a live request of the same cookie, requests dropped with
 * their tracker or left open) only keeps the thread's time accounted; a
 * request's parts come from its own snapshot whatever the count.
 *
 * Synchronisation:
 *
 *	what		who					sync
 *	owner		the thread itself (claim, release)	cmpxchg; release
 *	(lt_bd_owners)
 *			probes (compare only)			READ_ONCE
 *	gen_open	the thread (begin: +1, restart), anyone	atomic64 cmpxchg
 *			(end: -1 if the generation matches)
 *	state, since,	the probes of the slot's thread and	one writer at a
 *	counters	the thread itself, with preemption	time: see below
 *			disabled
 *	lt_bd_used	claims and releases			atomic
 *
 * One writer at a time: the thread's own switch-out and switch-in run
 * under the runqueue lock of its CPU; its wakeup under the runqueue lock
 * it is queued on, after its switch-out is complete (try_to_wake_up()
 * waits for p->on_cpu to clear, with acquire, or queues the wakeup to
 * the CPU the task is leaving, or, for a task still queued, takes that
 * runqueue's lock, which the switch-out holds until p->on_cpu is clear);
 * the thread itself (begin, end, exit) runs with preemption disabled.  A
 * wakeup may be traced while the thread runs (it set a sleeping state and
 * ran on, or has not switched out yet): the wakeup probe skips a task
 * with p->on_cpu set, stable under that runqueue lock.  Each writer is
 * ordered after the previous one by the scheduler's own locks.  Readers
 * on other threads read gen_open only.
 */
#ifndef _LT_THREAD_TIME_H
#define _LT_THREAD_TIME_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <latency_tracker.h>

/*
 * (ready: runnable, waiting for a CPU.)
 * Slots of the table: threads with a request open at once.
 */
#define LT_BD_BITS		10
#define LT_BD_SLOTS		BIT(LT_BD_BITS)
/* Slots of a thread's bucket (its hash's, one cache line of owners). */
#define LT_BD_PROBE		8
/* Reasons counted per slot. */
#define LT_BD_REASONS		4

/* Reasons of a blocking. */
#define LT_BD_REASON_UNKNOWN	((s32)-4)	/* none had time in the span */
#define LT_BD_REASON_COMPAT	((s32)-3)	/* a 32-bit system call */
#define LT_BD_REASON_IO		((s32)-2)	/* io_schedule() */
#define LT_BD_REASON_KERNEL	((s32)-1)	/* not in a system call */
/* >= 0: a system call's number. */

/**
 * struct lt_bd_snap - a request's view of its thread at its begin
 * @slot: index of the thread's slot, or LT_BD_SLOTS for none.
 * @gen: the slot's generation then.
 * @on_cpu: the thread's counters then, ns.
 * @runnable: ns.
 * @blocked: ns.
 * @reason: the reasons counted then.
 * @reason_ns: their counters then, ns.
 */
struct lt_bd_snap {
	u32 slot;
	u32 gen;
	u64 on_cpu;
	u64 runnable;
	u64 blocked;
	s32 reason[LT_BD_REASONS];
	u64 reason_ns[LT_BD_REASONS];
};

/**
 * struct lt_bd_result - a request's breakdown
 * @on_cpu: ns.
 * @runnable: ns.
 * @blocked: ns.
 * @top: the reason of the most time blocked (valid if @blocked).
 */
struct lt_bd_result {
	u64 on_cpu;
	u64 runnable;
	u64 blocked;
	s32 top;
};

int lt_bd_init(void);
void lt_bd_exit(void);
int lt_bd_attach(void);
void lt_bd_switch(bool preempt, struct task_struct *prev,
		  struct task_struct *next, unsigned int prev_state);
void lt_bd_wakeup(struct task_struct *p);
void lt_bd_task_exit(void);
void lt_bd_begin(u64 now, struct lt_bd_snap *snap);
void lt_bd_begin_one(u64 now, struct lt_bd_snap *snap);
bool lt_bd_end(u64 now, const struct lt_bd_snap *snap,
	       struct lt_bd_result *res);
void lt_bd_forget(const struct lt_bd_snap *snap);
unsigned long lt_bd_full(void);

#endif /* _LT_THREAD_TIME_H */
