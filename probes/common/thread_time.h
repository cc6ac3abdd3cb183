/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * thread_time.h - where a thread's time went during a request of its own
 * (an application request, app.c; a system call that left the CPU,
 * syscalls.c): on CPU, waiting for a CPU (runnable), blocked, and for
 * application requests what it blocked in most (docs/design.md,
 * "Application requests" and "Breakdown fields").  Part of the probe
 * layer.
 *
 * The parts come from two counters the scheduler keeps for every task,
 * read at the request's begin and at its end, on its thread:
 *
 *  - on CPU: p->se.sum_exec_runtime, which the scheduler brings up to date
 *    when the task leaves a CPU (before sched_switch is traced) and at its
 *    ticks; for the running thread, the time since its last switch-in is
 *    added from the per-CPU note of that switch-in (lt_bd_switch_in(),
 *    called by the module's sched_switch probe: the task, the time, and
 *    the counter then);
 *  - runnable: the time the task waited on runqueues, p->sched_info.run_delay
 *    (lt_task_run_delay(): CONFIG_SCHED_INFO, else 0 and that wait counts
 *    as blocked), added at each arrival on a CPU (after sched_switch is
 *    traced: complete for a running thread) and at the dequeue of a queued
 *    task; a task preempted while it had set a sleeping state is not
 *    queued for it, and its wait counts as blocked;
 *  - blocked: the rest of the request's time.
 *
 * The scheduler's counters run on its clock (rq_clock_task(), which leaves
 * out interrupt and steal time where CONFIG_IRQ_TIME_ACCOUNTING or
 * CONFIG_PARAVIRT_TIME_ACCOUNTING are set: on CPU is then short by the
 * interrupts it served in slices before the last, which count as
 * blocked); the request's own span and the current slice run on the
 * tracker's (ktime_get_mono_fast_ns()): both count nanoseconds.
 *
 * No probe of the scheduler's looks anything up for this: the cost is a
 * store of the switch-in note at each switch, and the reads at the
 * request's begin and end.
 *
 * The per-CPU note is written by the sched_switch probe of its CPU
 * (interrupts disabled) and read only on its CPU by the running thread,
 * preemption disabled: a switch cannot happen between the note and the
 * read.  A thread that has not switched in since the module's probe was
 * attached has no note: begun then (an application request of a thread
 * that never left its CPU since), its time on CPU counts from the
 * scheduler's counter as last brought up to date (at most one tick
 * behind).
 *
 * Blocking reasons (application requests only: lt_bd_reasons_*()).  A
 * thread that begins a request claims a slot in a fixed table (one per
 * module, LT_BD_SLOTS slots) and keeps it while it has requests open;
 * the scheduler probes (sched_switch, sched_wakeup) account the time the
 * thread spends blocked, per reason (the system call it blocked in,
 * io_schedule() when in_iowait, or not in a system call), in a few
 * (LT_BD_REASONS) counters.  A request keeps a copy of its thread's
 * counters at its begin (struct lt_bd_rsnap); at its end on the same
 * thread, the reason whose counter grew most is its blocked_top, or none
 * when the thread never blocked (its blocked part, then only what the
 * two counters' clocks leave over, a few microseconds a switch, counts as
 * on CPU: lt_bd_fold_unblocked()).  A
 * thread without a slot costs the probes one test when no slot is in use
 * and one look at one table line otherwise.
 *
 * A slot's thread is blocked or not (running or runnable: the parts
 * come from the counters, only blockings need the slot); what moves it:
 *
 *	from	  event			    to
 *	not	  switch-out, blocked	    blocked (reason noted)
 *	blocked   sched_wakeup		    not
 *	blocked   switch-in		    not (a wakeup not seen)
 *
 * Blocked is decided as the off-CPU tracker decides it (offcpu.c): not
 * preempted, a sleeping prev_state, and no longer queued and runnable.
 *
 * A slot's life.  Claimed by its thread at its first request
 * (lt_bd_reasons_begin(), owner NULL -> the task, cmpxchg), kept until
 * the thread exits (sched_process_exit releases it), so that a thread
 * serving requests one after another costs no claim per request.  The
 * slot counts the requests open on the thread; the probes account its
 * time only while some are.  A begin that finds none open starts a new
 * generation (counters reset, generation + 1).  The open count and the
 * generation are one atomic word: a request that ends (on its thread, or
 * elsewhere: lt_bd_reasons_forget()) takes itself off the count only if
 * the slot is still in the generation it began in.  A count that stays
 * up (a begin that replaced a live request of the same cookie, requests
 * dropped with their tracker or left open) only keeps the thread's time
 * accounted; a request's top comes from its own copy whatever the count.
 *
 * Requests kept outside the kernel (app.c's blocks).  A slot may carry
 * its thread's `ext` (lt_bd_ext_set(), by the thread itself): the
 * sched_switch probe then calls the leave hook (lt_bd_reasons_init()) for
 * the thread as it switches out, before it notes the switch-in of next
 * (the hook reads the thread's note) and before it accounts the switch
 * (a request the hook starts counts the blocking that follows); the exit
 * probe takes the ext off the slot and calls the hook before the slot
 * goes back (the exec probe too, the slot staying).  Whoever owns what
 * ext points to takes it back with
 * lt_bd_ext_drop() and waits for a grace period before freeing it.
 *
 * Synchronisation of the table:
 *
 *	what		who					sync
 *	owner		the thread itself (claim, release)	cmpxchg; release
 *	(lt_bd_owners)
 *			probes (compare only)			READ_ONCE
 *	ext		the thread (set), its exit (xchg),	cmpxchg, xchg;
 *			lt_bd_ext_drop() (cmpxchg to NULL),	RCU (the hook
 *			sched_switch probe (read)		runs in a reader)
 *	gen_open	the thread (begin: +1, restart), anyone	atomic64 cmpxchg
 *			(end: -1 if the generation matches)
 *	blocked, since,	the probes of the slot's thread and	one writer at a
 *	reasons		the thread itself, with preemption	time: see below
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

/* Slots of the table: threads with an application request open at once. */
#define LT_BD_BITS		10
#define LT_BD_SLOTS		BIT(LT_BD_BITS)
/* Slots of a thread's bucket (its hash's, one cache line of owners). */
#define LT_BD_PROBE		8
/* Reasons counted per slot. */
#define LT_BD_REASONS		4

/* Reasons of a blocking. */
#define LT_BD_REASON_NONE	((s32)-5)	/* the thread never blocked */
#define LT_BD_REASON_UNKNOWN	((s32)-4)	/* no slot to tell */
#define LT_BD_REASON_COMPAT	((s32)-3)	/* a 32-bit system call */
#define LT_BD_REASON_IO		((s32)-2)	/* io_schedule() */
#define LT_BD_REASON_KERNEL	((s32)-1)	/* not in a system call */
/* >= 0: a system call's number. */

/**
 * struct lt_bd_snap - a request's thread at its begin
 * @ns: the begin, ns (ktime_get_mono_fast_ns()).
 * @on_cpu: the thread's time on CPU then, ns.
 * @waited: its time waiting on runqueues then, ns.
 * @start_time: its p->start_time (with @pid: the same thread at the end).
 * @pid: its pid then.
 */
struct lt_bd_snap {
	u64 ns;
	u64 on_cpu;
	u64 waited;
	u64 start_time;
	pid_t pid;
};

/**
 * struct lt_bd_result - a request's breakdown
 * @on_cpu: ns.
 * @runnable: ns.
 * @blocked: ns.
 */
struct lt_bd_result {
	u64 on_cpu;
	u64 runnable;
	u64 blocked;
};

/**
 * struct lt_bd_rsnap - a request's view of its thread's blocking reasons
 *	at its begin
 * @slot: index of the thread's slot, or LT_BD_SLOTS for none.
 * @gen: the slot's generation then.
 * @reason: the reasons counted then.
 * @reason_ns: their counters then, ns (U64_MAX after the last).
 */
struct lt_bd_rsnap {
	u32 slot;
	u32 gen;
	s32 reason[LT_BD_REASONS];
	u64 reason_ns[LT_BD_REASONS];
};

void lt_bd_switch_in(struct task_struct *next, u64 now);
void lt_bd_begin_switch(struct task_struct *prev, u64 now,
			struct lt_bd_snap *snap);
u64 lt_bd_slice_start(const struct task_struct *p);
void lt_bd_begin_at(u64 ts, u64 now, struct lt_bd_snap *snap);
bool lt_bd_end(u64 now, const struct lt_bd_snap *snap,
	       struct lt_bd_result *res);

/* See lt_bd_reasons_init(). */
typedef void (*lt_bd_leave_t)(void *ext, struct task_struct *p, u64 now,
			      bool exiting);

int lt_bd_reasons_init(lt_bd_leave_t leave);
int lt_bd_ext_set(void *ext);
void *lt_bd_ext_get(void);
void lt_bd_ext_drop(const void *lo, const void *hi);
void lt_bd_reasons_exit(void);
void lt_bd_reasons_begin(u64 now, struct lt_bd_rsnap *rs);
s32 lt_bd_reasons_end(u64 now, const struct lt_bd_rsnap *rs);
void lt_bd_fold_unblocked(struct lt_bd_result *res, s32 top);
void lt_bd_reasons_forget(const struct lt_bd_rsnap *rs);
unsigned long lt_bd_reasons_full(void);

#endif /* _LT_THREAD_TIME_H */
