/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_breakdown.h - a wakeup record's breakdown (irq_ns softirq_ns
 * thread_ns idle_ns and the top_* contributors, docs/design.md "Breakdown
 * fields") recomputed from the snapshot, and the two compared.
 *
 * The snapshot's hard interrupts (irq_handler_*, x86_irq_vectors_*),
 * softirqs (softirq_*) and switches split each CPU's time into kinds, by
 * the rules of probes/common/cpu_time.h: a CPU is in one kind at a time,
 * an interrupt nested in another has its own time, a softirq run in a
 * thread (ksoftirqd; every softirq on PREEMPT_RT) is that thread's time,
 * the idle task's is idle.  A record's parts on the CPU it ran on cover
 * the span before its switch-in that they add up to; other_cpu_ns is not
 * checked (the time queued elsewhere first).
 */
#ifndef LT_EX_BREAKDOWN_H
#define LT_EX_BREAKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ex_event.h"

enum ex_bd_kind { EX_BD_IRQ, EX_BD_SOFTIRQ, EX_BD_THREAD, EX_BD_IDLE, EX_BD_KINDS };

#define EX_BD_MAX_CPUS	1024

/* A wakeup record's breakdown, as the alert event carried it. */
struct ex_bd_rec {
	int cpu;			/* the CPU it ran on */
	uint64_t ns[EX_BD_KINDS];
	uint64_t other_cpu_ns;
	char top[EX_BD_THREAD + 1][EX_NAME_LEN];	/* irq, softirq, thread ("-": none) */
};

struct ex_bd_seg {
	uint64_t ts;
	uint8_t kind;
	int32_t who;		/* thread, idle: tid; irq, softirq: name index */
};

struct ex_bd_cpu {
	struct ex_bd_seg *seg;
	size_t nseg, cap_seg;
	int32_t irqs[4];	/* names of the nested interrupts */
	int depth;
	bool in_softirq;
	int32_t softirq;
	int tid;		/* the task switched in: 0 idle, -1 unknown */
	bool task_runs_softirqs;	/* ksoftirqd */
};

struct ex_bd {
	struct ex_bd_cpu *cpu;		/* ncpu entries, grown on demand */
	int ncpu;
	char (*names)[EX_NAME_LEN];	/* irq and softirq names */
	size_t nnames, cap_names;
	bool rt;			/* PREEMPT_RT: softirqs are threads' */
};

/* The comparison: each part's record and snapshot value, and verdicts. */
struct ex_bd_check {
	struct ex_bd_rec rec;
	uint64_t snap[EX_BD_KINDS];
	char snap_top[EX_BD_THREAD + 1][EX_NAME_LEN];
	uint64_t window;		/* the span compared, ns */
	uint64_t tolerance;		/* ns */
	bool differs[EX_BD_KINDS];
	bool top_differs[EX_BD_THREAD + 1];
	int ndiffer;			/* parts and tops that differ */
	bool covered;			/* the snapshot covers the span */
};

/* "irq", "softirq", "thread", "idle": the record's field is NAME_ns. */
const char *ex_bd_kind_name(int kind);
void ex_bd_init(struct ex_bd *b);
void ex_bd_free(struct ex_bd *b);
/* Feed an event in time order (the kinds above; others are ignored). */
void ex_bd_feed(struct ex_bd *b, const struct ex_ev *ev);
/*
 * Compare @rec, whose switch-in is at @end, with the snapshot; names the
 * top thread as comm:tid from @comm_of (may return NULL: the tid alone).
 */
void ex_bd_check(const struct ex_bd *b, const struct ex_bd_rec *rec,
		 uint64_t end, const char *(*comm_of)(void *arg, int tid),
		 void *arg, struct ex_bd_check *out);

#endif /* LT_EX_BREAKDOWN_H */
