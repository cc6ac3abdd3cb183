/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_stack.h - the kernel stacks of the snapshot's latency_tracker:offcpu
 * and latency_tracker:syscall events, attached to the waiting they
 * explain (GAPP locates a bottleneck in code by its stacks).
 *
 * An offcpu event reports a thread that was off CPU for `delay` ns, with
 * the stack it blocked in; a syscall event, a system call that lasted
 * `delay` ns, with the stack where it blocked.  Both are emitted after the
 * fact (from the report work), so the event's time is not the end of the
 * wait: the wait is the thread's blocked interval (offcpu: to its next
 * run) or system call, starting before the event, whose length is closest
 * to `delay` -- within a quarter of it (plus 100 us of rounding), or the
 * stack is left unattached.  It is attached to the context node (the
 * system call) of that thread in the dependency graph, when the wait
 * overlaps the explained interval.
 */
#ifndef LT_EX_STACK_H
#define LT_EX_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "ex_graph.h"
#include "ex_model.h"

struct ex_rstack {
	int tid;
	int node;			/* graph node: the waiting context */
	char tracker[EX_NAME_LEN];	/* "offcpu", "syscall" */
	char context[EX_NAME_LEN];	/* the system call, or "user space" */
	uint64_t start, end;		/* the wait it explains */
	uint64_t delay;			/* as the tracker measured it */
	const char *frames;		/* the model's: ';'-separated */
};

/* The stacks of alerts whose wait overlaps [s, e) and whose thread's
 * context is a node of g; returns how many (*out: caller frees). */
size_t ex_stacks_attach(const struct ex_model *m, const struct ex_graph *g,
			uint64_t s, uint64_t e, struct ex_rstack **out);

#endif /* LT_EX_STACK_H */
