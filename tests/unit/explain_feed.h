/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * explain_feed.h - the explain unit tests' event builders: a model fed
 * event by event as ex_trace.c would (sched_switch, system call entry and
 * exit), and the weight of a graph edge by its labels.  Included once by
 * each test program (static definitions).
 */
#ifndef EXPLAIN_FEED_H
#define EXPLAIN_FEED_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ex_graph.h"
#include "ex_model.h"

static struct ex_model m;

/*
 * A sched_switch; prev's and next's priorities as LTTng records them
 * (EX_PRIO_NONE: none).
 */
static void sw_prios(uint64_t ts, int cpu, int prev, long state, int next,
		     int prev_prio, int next_prio)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_SWITCH, ts, cpu);
	ev.tid = prev;
	ev.state = state;
	ev.next_tid = next;
	ev.prev_prio = prev_prio;
	ev.next_prio = next_prio;
	snprintf(ev.comm, sizeof(ev.comm), "t%d", prev);
	snprintf(ev.next_comm, sizeof(ev.next_comm), "t%d", next);
	ex_model_feed(&m, &ev);
}

static void sw_prio(uint64_t ts, int cpu, int prev, long state, int next,
		    int next_prio)
{
	sw_prios(ts, cpu, prev, state, next, EX_PRIO_NONE, next_prio);
}

static void sw(uint64_t ts, int cpu, int prev, long state, int next)
{
	sw_prio(ts, cpu, prev, state, next, EX_PRIO_NONE);
}

/* ARG: a futex entry's uaddr, another entry's fd, an exit's return value. */
static void sys(uint64_t ts, int cpu, int tid, bool entry, const char *name,
		int64_t arg)
{
	struct ex_ev ev;

	ex_ev_init(&ev, entry ? EV_SYS_ENTRY : EV_SYS_EXIT, ts, cpu);
	ev.ctx_tid = tid;
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	if (entry && !strcmp(name, "futex"))
		ev.uaddr = arg;
	else if (entry)
		ev.fd = arg;
	else
		ev.ret = arg;
	ex_model_feed(&m, &ev);
}

/* An event of task @tid (its own process) on @cpu, in @ctx's context. */
static __attribute__((unused)) void
event(enum ex_ev_type type, uint64_t ts, int cpu, int tid, int ctx)
{
	struct ex_ev ev;

	ex_ev_init(&ev, type, ts, cpu);
	ev.tid = tid;
	ev.pid = tid;
	ev.target_cpu = cpu;
	ev.ctx_tid = ctx;
	ex_model_feed(&m, &ev);
}

/*
 * A system call with its fd/cmd and file name (entry) or return value
 * (exit), as the lock tests need them.
 */
static __attribute__((unused)) void
sys_call(uint64_t ts, int cpu, int tid, const char *name, bool entry, int64_t fd,
	 int64_t cmd, const char *path, int64_t ret)
{
	struct ex_ev ev;

	ex_ev_init(&ev, entry ? EV_SYS_ENTRY : EV_SYS_EXIT, ts, cpu);
	ev.ctx_tid = ev.ctx_pid = tid;
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	if (entry) {
		ev.fd = fd;
		ev.cmd = cmd;
		if (path)
			snprintf(ev.filename, sizeof(ev.filename), "%s", path);
	} else {
		ev.ret = ret;
	}
	ex_model_feed(&m, &ev);
}

/* Weight of the edges from the node labelled a to the node labelled b. */
static uint64_t edge(const struct ex_graph *g, const char *a, const char *b)
{
	uint64_t w = 0;

	for (size_t i = 0; i < g->nedges; i++)
		if (!strcmp(g->nodes[g->edges[i].from].label, a) &&
		    !strcmp(g->nodes[g->edges[i].to].label, b))
			w += g->edges[i].weight;
	return w;
}

#endif
