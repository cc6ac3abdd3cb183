/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu_time.h - where each CPU's time goes: hard interrupts, softirqs,
 * threads and idle, per CPU, for the breakdown of a wait on a CPU
 * (docs/design.md, "Breakdown fields").  Part of the probe layer; only a
 * tracker that attaches LT_CT_TPS (and calls lt_ct_switch() from its
 * sched_switch probe) pays for it.
 *
 * Each CPU keeps, in struct lt_ct_cpu, one counter of nanoseconds per
 * kind (enum lt_ct_kind), the kind it is in now and since when: the kinds
 * are disjoint, a CPU is in exactly one at a time.
 *
 *	kind	   from					to
 *	irq	   the outermost hard interrupt's entry	its exit
 *		   (irq_handler_entry, the x86 vectors:
 *		   local timer, IPIs, irq_work)
 *	softirq	   softirq_entry, outside ksoftirqd and	softirq_exit
 *		   on a kernel without PREEMPT_RT
 *	thread	   a switch to a task other than idle	the next switch
 *	idle	   a switch to the idle task		the next switch
 *
 * An interrupt inside a softirq counts as irq, and the softirq's time
 * stops meanwhile; a softirq inside a thread (on an interrupt's exit, or
 * at local_bh_enable()) counts as softirq.  Softirqs run by ksoftirqd,
 * and every softirq on PREEMPT_RT (run by the thread that raised them, or
 * by ksoftirqd and ktimers), count as their thread's time.
 *
 * Who did it: every hard interrupt, softirq and thread slice, as it ends,
 * goes into a small ring per kind (LT_CT_RING entries) with its place on
 * its kind's counter ([start, end) in counter nanoseconds).  An interrupt
 * handled by another's handler (generic_handle_irq()) has its own time:
 * the outer one's entries are its parts before and after it.  The largest
 * contributor to a window is found among those entries: the last
 * LT_CT_RING of each kind that ran on the CPU.
 *
 * A window: lt_ct_read() samples the counters of a CPU at a time (the
 * open interval included); the difference of two samples of one CPU is
 * the time of each kind between them, and lt_ct_tops() names the largest
 * contributors between a sample and now on the local CPU.
 *
 * The per-CPU data is allocated by lt_ct_init() before the probes are
 * attached and freed by lt_ct_exit() once they are detached.
 *
 * Synchronisation.  Only the CPU itself writes its struct lt_ct_cpu, from
 * the probes with interrupts disabled (hard interrupt and sched_switch
 * probes are; the softirq probes disable them), so writers never nest.
 * Readers on other CPUs (lt_ct_read()) use the seqcount, which every
 * writer holds across its update; a reader on the CPU itself, with
 * interrupts disabled, sees no writer.  lt_ct_tops() reads the rings,
 * which are not covered by the seqcount: local CPU, interrupts disabled.
 * A probe attached while a CPU is inside an interrupt or a softirq sees
 * an exit without its entry: ignored (the depth never goes below 0).
 * Until a CPU's first switch is seen, its task is not known: thread time,
 * with no slice named.  A thread slice is named at its end (a thread may
 * rename itself while it runs); the comm is copied without its lock, as
 * everywhere in the probes.
 */
#ifndef _LT_CPU_TIME_H
#define _LT_CPU_TIME_H

#include <linux/sched.h>
#include <linux/types.h>

#include "irq_events.h"

enum lt_ct_kind {
	LT_CT_IRQ,
	LT_CT_SOFTIRQ,
	LT_CT_THREAD,
	LT_CT_IDLE,
	LT_CT_NR
};

/* Entries of each ring: the contributors a top is chosen among. */
#define LT_CT_RING		16
/* Hard interrupts handled at once on a CPU whose own time is told apart. */
#define LT_CT_NEST		4
/* Bytes of an interrupt's name, NUL included (LT_REC_NAME_LEN). */
#define LT_CT_NAME_LEN		32

/**
 * struct lt_ct_sample - a CPU's counters at a time
 * @cpu: the CPU.
 * @ns: nanoseconds in each kind since the probes were attached.
 */
struct lt_ct_sample {
	s32 cpu;
	u64 ns[LT_CT_NR];
};

/**
 * struct lt_ct_tops - the largest contributor of each kind to a window
 * @irq: name of the hard interrupt ("" for none).
 * @softirq: softirq vector (LT_CT_NO_SOFTIRQ for none).
 * @thread_pid: pid of the thread (-1 for none).
 * @thread_comm: its comm.
 */
struct lt_ct_tops {
	char irq[LT_CT_NAME_LEN];
	u32 softirq;
	pid_t thread_pid;
	char thread_comm[TASK_COMM_LEN];
};

/* lt_ct_tops.softirq when no softirq ran in the window. */
#define LT_CT_NO_SOFTIRQ	U32_MAX

/* What a wait has seen (struct lt_ct_wait.state). */
enum lt_ct_wait_state {
	LT_CT_WAIT_NONE,	/* zeroed: no sample */
	LT_CT_WAIT_WAKING,	/* sampled at the waking */
	LT_CT_WAIT_QUEUED,	/* queued on @at.cpu */
};

/**
 * struct lt_ct_wait - a task's wait for a CPU, in its event
 * @at: the counters of the CPU it waits on, at the window's start @t.
 * @t: the window's start: the waking, its queueing, or its last
 *	migration.
 * @other_cpu_ns: time queued on CPUs it left before.
 * @state: enum lt_ct_wait_state.
 * @migrated: it moved to another CPU's queue at least once.
 *
 * Written at the waking (in the event's private data, before the event
 * exists), then under the runqueue lock of the CPU the task is queued on
 * (sched_wakeup, sched_migrate_task), read at its switch-in under the
 * lock of the CPU it runs on: the scheduler's locks order them (a
 * migration releases the old runqueue's lock, then takes the new one's
 * to queue the task, before that CPU can pick it).  A timeout report,
 * from a timer, reads it without those locks: a mix is possible.
 */
struct lt_ct_wait {
	struct lt_ct_sample at;
	u64 t;
	u64 other_cpu_ns;
	u32 state;
	u32 migrated;
};

/*
 * A wait with no sample yet (sampled when queued): only the fields that
 * lt_ct_wait_queued() does not write (no string instruction on the probe
 * path).
 */
static inline void lt_ct_wait_none(struct lt_ct_wait *w)
{
	w->other_cpu_ns = 0;
	w->state = LT_CT_WAIT_NONE;
	w->migrated = 0;
}

/**
 * struct lt_ct_breakdown - where a wait went
 * @ns: ns of each kind on the CPU where the wait ended.
 * @other_cpu_ns: ns queued on other CPUs before.
 * @migrated: 1 if it moved between CPUs' queues.
 * @tops: the largest contributors on the CPU where it ended.
 */
struct lt_ct_breakdown {
	u64 ns[LT_CT_NR];
	u64 other_cpu_ns;
	u32 migrated;
	struct lt_ct_tops tops;
};

void lt_ct_switch(const struct task_struct *prev,
		  const struct task_struct *next, u64 now);
int lt_ct_init(void);
void lt_ct_name_or_none(char *out, const char *name);
void lt_ct_task_name(char *out, const char *comm, pid_t pid);
void lt_ct_exit(void);
void lt_ct_wait_begin(struct lt_ct_wait *w, int cpu, u64 now);
void lt_ct_wait_queued(struct lt_ct_wait *w, int cpu, u64 now);
void lt_ct_wait_migrate(struct lt_ct_wait *w, int cpu, u64 now);
void lt_ct_wait_end(const struct lt_ct_wait *w, u64 now, bool done,
		    struct lt_ct_breakdown *bd);

void lt_ct_probe_irq_entry(void *data, int irq, struct irqaction *action);
void lt_ct_probe_irq_exit(void *data, int irq, struct irqaction *action,
			  int ret);
void lt_ct_probe_vector_entry(void *data, int vector);
void lt_ct_probe_vector_exit(void *data, int vector);
void lt_ct_probe_softirq_entry(void *data, unsigned int vec_nr);
void lt_ct_probe_softirq_exit(void *data, unsigned int vec_nr);

/*
 * The tracepoints to attach (with LT_PROBE_TPS, in the tracker's table,
 * before its sched_switch probe): device interrupt handlers, the x86
 * interrupt vectors that have no handler of their own (LT_IRQ_VECTORS,
 * latency_tracker_compat.h), softirqs.  Every exit before every entry:
 * attached in table order, an entry attached first could be seen on a
 * CPU whose exit is attached too late, and that CPU would stay in the
 * interrupt for good; an exit without its entry is ignored.
 */
#define LT_CT_VECTOR_EXIT(X, v)		X(v##_exit, lt_ct_probe_vector_exit)
#define LT_CT_VECTOR_ENTRY(X, v)	X(v##_entry, lt_ct_probe_vector_entry)
#define LT_CT_TPS(X)							\
	X(irq_handler_exit, lt_ct_probe_irq_exit)			\
	LT_IRQ_VECTORS(LT_CT_VECTOR_EXIT, X)				\
	X(softirq_exit, lt_ct_probe_softirq_exit)			\
	X(irq_handler_entry, lt_ct_probe_irq_entry)			\
	LT_IRQ_VECTORS(LT_CT_VECTOR_ENTRY, X)				\
	X(softirq_entry, lt_ct_probe_softirq_entry)

#endif /* _LT_CPU_TIME_H */
