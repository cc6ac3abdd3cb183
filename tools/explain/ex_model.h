/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_model.h - the state database of the explain analysis (DepGraph III-B):
 * built from the trace events in one pass, then queried by time.
 *
 *  - per thread: its state intervals (running / runnable / blocked) — each
 *    with the system call it was in, and for a blocked interval what ended
 *    it (the waking thread and its system call, or an interrupt, timer or
 *    softirq context) — and its system calls;
 *  - per CPU: which thread ran on it, as time slices;
 *  - block requests, from insertion (or issue) to completion, with the
 *    submitting thread;
 *  - the file descriptor tables over time (ex_fdtab.h), thread names;
 *  - latency_tracker alert events, with their stacks and breakdowns;
 *  - each CPU's time by kind (ex_breakdown.h).
 *
 * A thread's life ends at its sched_process_exit: after its last switch
 * out it has no state (not "blocked" until the end of the trace); a fork
 * that reuses its tid starts a new life.
 */
#ifndef LT_EX_MODEL_H
#define LT_EX_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ex_breakdown.h"
#include "ex_event.h"
#include "ex_fdtab.h"

#define EX_TS_OPEN UINT64_MAX	/* interval still open at the end of the trace */
#define EX_MAX_CPUS 1024
#define EX_IRQ_DEPTH 4

enum ex_state { ST_RUNNING, ST_RUNNABLE, ST_BLOCKED };

/* What ended a blocked interval. */
enum ex_wake {
	WK_NONE,	/* not woken in the trace (or no waking event) */
	WK_THREAD,	/* a thread, from process context */
	WK_TIMER,	/* hrtimer / timer expiry, or the TIMER/HRTIMER softirq */
	WK_IRQ,		/* hard interrupt handler (or EX_WAKER_UNTRACED_IRQ) */
	WK_SOFTIRQ,	/* softirq */
};

/*
 * The name of a WK_IRQ waker the trace does not show: the waking came from
 * the idle task's context with no interrupt open on that CPU, which only
 * an interrupt can do (the session recorded no irq/timer events, or the
 * interrupt has no tracepoint: IPIs, irq_work).
 */
#define EX_WAKER_UNTRACED_IRQ "interrupt (not in the trace)"

struct ex_syscall {
	uint64_t start, end;	/* end = EX_TS_OPEN when not returned */
	char name[EX_NAME_LEN];
	int64_t fd, fd2, uaddr, op, cmd, id, ret;	/* ex_event.h */
};

struct ex_interval {
	uint64_t start, end;
	enum ex_state state;
	int cpu;		/* running: its CPU; runnable: where it got a CPU */
	int sys;		/* index in the thread's syscalls, or -1 */
	char pstate;		/* blocked: 'S', 'D', ... */
	/* blocked intervals: */
	enum ex_wake wake;
	int waker_tid;		/* WK_THREAD */
	int waker_sys;		/* the waker's syscall index then, or -1 */
	char wname[EX_NAME_LEN]; /* WK_IRQ / WK_SOFTIRQ: handler, vector */
};

struct ex_irqctx {
	enum ex_wake kind;
	char name[EX_NAME_LEN];
};

struct ex_thread {
	int tid, pid;
	char comm[EX_COMM_LEN];
	struct ex_interval *iv;
	size_t niv, cap_iv;
	struct ex_syscall *sys;
	size_t nsys, cap_sys;
	int cur_sys;		/* open syscall index or -1 (while building) */
	int last_cpu;
	uint64_t first_seen, last_seen;
	uint64_t exit_ts;	/* its sched_process_exit, 0: none seen */
	bool dead;		/* switched out after its exit: no more state */
	uint64_t faults;	/* page fault events: their timestamps below */
	uint64_t *fault_ts;
	size_t cap_faults;
	char *pending_open;	/* openat in progress: its file name */
	/*
	 * Interrupt contexts it was switched out in: PREEMPT_RT runs softirqs
	 * (timers among them) in threads that can be preempted inside one;
	 * they are its own, not the CPU's, until it runs again.
	 */
	struct ex_irqctx irq[EX_IRQ_DEPTH];
	int irq_depth;
};

struct ex_slice {
	uint64_t start, end;
	int tid;
	int prio;		/* its next_prio at the switch-in (ex_event.h) */
};

struct ex_cpu {
	struct ex_slice *sl;
	size_t nsl, cap_sl;
	int cur;		/* running tid, -1 unknown (while building) */
	int cur_prio;
	uint64_t cur_start;
	struct ex_irqctx irq[EX_IRQ_DEPTH];
	int depth;
};

struct ex_request {
	uint64_t start, end;	/* insert (or issue) .. complete */
	uint64_t dev, sector;	/* dev: the kernel's dev_t (ex_dev_major/minor) */
	int tid;		/* submitter */
};

/* The kernel's dev_t in the trace's block events: 12-bit major, 20-bit
 * minor (MINORBITS). */
static inline unsigned int ex_dev_major(uint64_t dev)
{
	return (unsigned int)(dev >> 20);
}

static inline unsigned int ex_dev_minor(uint64_t dev)
{
	return (unsigned int)(dev & 0xfffff);
}

struct ex_alert {
	uint64_t ts, delay;
	int tid;
	char tracker[EX_NAME_LEN];
	char *stack;		/* offcpu, syscall: frames ';'-separated, or NULL */
	bool has_bd;		/* wakeup: its breakdown */
	struct ex_bd_rec bd;
	/* lock: the kernel lock, its kind, its owner (-1: none) */
	char lock[EX_NAME_LEN];
	char lock_kind[EX_COMM_LEN];
	int owner_tid;
	char owner_comm[EX_COMM_LEN];
};

struct ex_model {
	struct ex_thread **th;		/* one allocation each (stable pointers) */
	size_t nth, cap_th;
	int *th_index;			/* open hash tid -> index + 1 */
	size_t th_index_cap;
	struct ex_cpu cpu[EX_MAX_CPUS];
	int ncpu;
	struct ex_request *rq;
	size_t nrq, cap_rq;
	struct ex_fdtab fdt;
	struct { uint64_t ftable; int pid; } *ftab;	/* statedump's */
	size_t nftab, cap_ftab;
	struct ex_alert *alerts;
	size_t nalerts, cap_alerts;
	uint64_t first_ts, last_ts;
	uint64_t nevents, nsched;
	uint64_t nirq;			/* irq, softirq and timer entries */
	uint64_t discarded;		/* events lost by the tracer */
	struct ex_bd bd;		/* each CPU's time by kind */
	bool bd_env_read;		/* bd.rt read from the trace */
	bool finished;
};

void ex_model_init(struct ex_model *m);
void ex_model_free(struct ex_model *m);
/* Feed events in time order. */
void ex_model_feed(struct ex_model *m, const struct ex_ev *ev);
/* Close what is still open at the end of the trace; then query. */
void ex_model_finish(struct ex_model *m);

struct ex_thread *ex_model_thread(const struct ex_model *m, int tid);
const char *ex_model_comm(const struct ex_model *m, int tid);
/* Name of fd of process pid at time ts ("" when unknown): ex_fdtab.h. */
const char *ex_model_fdname(const struct ex_model *m, int pid, int64_t fd,
			    uint64_t ts);
/* The first interval of t ending after ts (binary search). */
size_t ex_thread_first_iv(const struct ex_thread *t, uint64_t ts);
size_t ex_cpu_first_slice(const struct ex_cpu *c, uint64_t ts);
/* The end of t's life: its sched_process_exit, or EX_TS_OPEN. */
uint64_t ex_thread_end(const struct ex_thread *t);

static inline uint64_t ex_overlap(uint64_t a0, uint64_t a1, uint64_t b0,
				  uint64_t b1)
{
	uint64_t s = a0 > b0 ? a0 : b0, e = a1 < b1 ? a1 : b1;

	return e > s ? e - s : 0;
}

#endif /* LT_EX_MODEL_H */
