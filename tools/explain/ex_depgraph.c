// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_depgraph.c - build the waiting dependency graph of a thread over an
 * interval (DepGraph Algorithm 1), from the state model.
 *
 * For each state interval of the thread, clipped to [s, e]:
 *   thread -> context (its syscall, or user space): the interval's length;
 *   running:   nothing more (the context's running time);
 *   runnable:  context -> CPU n (the CPU it got), CPU n -> every thread that
 *              ran on n meanwhile (overlap), each followed recursively over
 *              its overlap, or -> idle when n was idle (waking up);
 *   blocked:   a request of its own completed meanwhile -> context -> disk,
 *              disk -> threads with requests in flight meanwhile (union of
 *              their requests), followed recursively; woken by a thread ->
 *              context -> that thread, followed recursively over the same
 *              span (what it was doing while we waited); woken by a timer,
 *              an interrupt or a softirq -> context -> that resource; not
 *              woken within the trace -> context -> unknown.  Who woke it
 *              is read through ex_blocked_wake() (ex_classify.h): a sleep
 *              system call waits for its timer.
 * Recursion stops at threads already on the current path (no cycles) and
 * at EX_DG_MAX_DEPTH; a call budget bounds the work on dense traces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_depgraph.h"
#include "ex_util.h"

#define EX_DG_MAX_DEPTH 6
#define EX_DG_BUDGET 200000

struct dg {
	const struct ex_model *m;
	struct ex_graph *g;
	int path[EX_DG_MAX_DEPTH + 1];
	int depth;
	long budget;
};

static void dgraph(struct dg *d, int tid, uint64_t s, uint64_t e);

static bool on_path(const struct dg *d, int tid)
{
	for (int i = 0; i < d->depth; i++)
		if (d->path[i] == tid)
			return true;
	return false;
}

static void follow(struct dg *d, int tid, uint64_t s, uint64_t e)
{
	if (tid <= 0 || e <= s || on_path(d, tid) || d->depth >= EX_DG_MAX_DEPTH)
		return;
	dgraph(d, tid, s, e);
}

int ex_dg_thread_node(struct ex_graph *g, const struct ex_model *m, int tid)
{
	return ex_graph_node(g, N_THREAD, tid, ex_model_comm(m, tid), "");
}

int ex_dg_context_node(struct ex_graph *g, const struct ex_model *m,
		       const struct ex_thread *t, int sys)
{
	const char *comm = ex_model_comm(m, t->tid);

	if (sys >= 0)
		return ex_graph_node(g, N_SYSCALL, t->tid, comm, t->sys[sys].name);
	return ex_graph_node(g, N_USER, t->tid, comm, "user space");
}

static void disk_name(uint64_t dev, char *buf, size_t size)
{
	snprintf(buf, size, "disk %u:%u", ex_dev_major(dev), ex_dev_minor(dev));
}

const struct ex_request *ex_dg_own_request(const struct ex_model *m, int tid,
					   const struct ex_interval *iv)
{
	for (size_t i = 0; i < m->nrq; i++) {
		const struct ex_request *r = &m->rq[i];

		if (r->tid == tid && r->start <= iv->end && r->end >= iv->start &&
		    r->end <= iv->end)
			return r;
	}
	return NULL;
}

/* Union length of tid's in-flight requests on dev within [s, e); its span. */
static uint64_t inflight(const struct ex_model *m, int tid, uint64_t dev,
			 uint64_t s, uint64_t e, uint64_t *span_s, uint64_t *span_e)
{
	uint64_t total = 0, cur_s = 0, cur_e = 0;
	bool open = false;

	*span_s = UINT64_MAX;
	*span_e = 0;
	/* Requests are in start order: merge overlapping ones on the fly. */
	for (size_t i = 0; i < m->nrq; i++) {
		const struct ex_request *r = &m->rq[i];
		uint64_t a, b;

		if (r->tid != tid || r->dev != dev || !ex_overlap(r->start, r->end, s, e))
			continue;
		a = r->start < s ? s : r->start;
		b = r->end > e ? e : r->end;
		if (a < *span_s)
			*span_s = a;
		if (b > *span_e)
			*span_e = b;
		if (open && a <= cur_e) {
			if (b > cur_e)
				cur_e = b;
			continue;
		}
		if (open)
			total += cur_e - cur_s;
		cur_s = a;
		cur_e = b;
		open = true;
	}
	if (open)
		total += cur_e - cur_s;
	return total;
}

static void wait_disk(struct dg *d, int ctx, const struct ex_request *own,
		      int self, uint64_t a, uint64_t b)
{
	const struct ex_model *m = d->m;
	char name[32];
	int disk, *seen;
	size_t nseen = 0;

	disk_name(own->dev, name, sizeof(name));
	disk = ex_graph_node(d->g, N_DISK, -1, "", name);
	ex_graph_add(d->g, ctx, disk, E_WAIT_DISK, b - a);
	seen = ex_xcalloc(m->nrq + 1, sizeof(*seen));
	for (size_t i = 0; i < m->nrq; i++) {
		const struct ex_request *r = &m->rq[i];
		uint64_t w, ss, se;
		bool dup = false;

		if (r->tid == self || r->tid <= 0 || r->dev != own->dev ||
		    !ex_overlap(r->start, r->end, a, b))
			continue;
		for (size_t j = 0; j < nseen; j++)
			dup |= seen[j] == r->tid;
		if (dup)
			continue;
		seen[nseen++] = r->tid;
		w = inflight(m, r->tid, own->dev, a, b, &ss, &se);
		ex_graph_add(d->g, disk, ex_dg_thread_node(d->g, m, r->tid),
			     E_DISK_USED, w);
		follow(d, r->tid, ss, se);
	}
	free(seen);
}

static void wait_cpu(struct dg *d, int ctx, int cpu, int self, uint64_t a,
		     uint64_t b)
{
	const struct ex_model *m = d->m;
	const struct ex_cpu *c;
	char name[32];
	int node;

	if (cpu < 0 || cpu >= m->ncpu)
		cpu = 0;
	c = &m->cpu[cpu];
	snprintf(name, sizeof(name), "CPU %d", cpu);
	node = ex_graph_node(d->g, N_CPU, -1, "", name);
	ex_graph_add(d->g, ctx, node, E_WAIT_CPU, b - a);
	for (size_t i = ex_cpu_first_slice(c, a); i < c->nsl && c->sl[i].start < b; i++) {
		const struct ex_slice *sl = &c->sl[i];
		uint64_t w = ex_overlap(sl->start, sl->end, a, b);

		if (sl->tid == 0 && w) {
			/* Runnable on an idle CPU: the CPU was waking up. */
			ex_graph_add(d->g, node, ex_graph_node(d->g, N_IDLE, 0, "",
				     "idle (CPU waking up)"), E_CPU_USED, w);
			continue;
		}
		if (sl->tid < 0 || sl->tid == self || !w)
			continue;
		ex_graph_add(d->g, node, ex_dg_thread_node(d->g, m, sl->tid),
			     E_CPU_USED, w);
		follow(d, sl->tid, sl->start > a ? sl->start : a,
		       sl->end < b ? sl->end : b);
	}
}

static void wait_blocked(struct dg *d, const struct ex_thread *t, int ctx,
			 const struct ex_interval *iv, uint64_t a, uint64_t b)
{
	const struct ex_model *m = d->m;
	const struct ex_request *own = NULL;
	const char *sys = iv->sys >= 0 ? t->sys[iv->sys].name : "";
	int node;

	if (strcmp(sys, "futex"))
		own = ex_dg_own_request(m, t->tid, iv);
	if (own) {
		wait_disk(d, ctx, own, t->tid, a, b);
		return;
	}
	switch (ex_blocked_wake(m, t, iv)) {
	case WK_THREAD:
		node = ex_dg_thread_node(d->g, m, iv->waker_tid);
		ex_graph_add(d->g, ctx, node, E_WOKEN_BY, b - a);
		follow(d, iv->waker_tid, a, b);
		return;
	case WK_TIMER:
		node = ex_graph_node(d->g, N_TIMER, -1, "", "timer");
		ex_graph_add(d->g, ctx, node, E_WAIT_TIMER, b - a);
		return;
	case WK_IRQ:
		node = ex_graph_node(d->g, N_IRQ, -1, "", iv->wname);
		ex_graph_add(d->g, ctx, node, E_WAIT_IRQ, b - a);
		return;
	case WK_SOFTIRQ:
		node = ex_graph_node(d->g, N_SOFTIRQ, -1, "", iv->wname);
		ex_graph_add(d->g, ctx, node, E_WAIT_SOFTIRQ, b - a);
		return;
	case WK_NONE:
		break;
	}
	node = ex_graph_node(d->g, N_UNKNOWN, -1, "", "unknown");
	ex_graph_add(d->g, ctx, node, E_WAIT_UNKNOWN, b - a);
}

static void dgraph(struct dg *d, int tid, uint64_t s, uint64_t e)
{
	const struct ex_thread *t = ex_model_thread(d->m, tid);
	int self;

	if (!t || d->budget-- <= 0)
		return;
	d->path[d->depth++] = tid;
	self = ex_dg_thread_node(d->g, d->m, tid);
	for (size_t i = ex_thread_first_iv(t, s); i < t->niv && t->iv[i].start < e; i++) {
		const struct ex_interval *iv = &t->iv[i];
		uint64_t a = iv->start > s ? iv->start : s;
		uint64_t b = iv->end < e ? iv->end : e;
		int ctx;

		if (b <= a)
			continue;
		ctx = ex_dg_context_node(d->g, d->m, t, iv->sys);
		ex_graph_add(d->g, self, ctx, E_CONTEXT, b - a);
		switch (iv->state) {
		case ST_RUNNING:
			d->g->nodes[ctx].run_ns += b - a;
			break;
		case ST_RUNNABLE:
			wait_cpu(d, ctx, iv->cpu, tid, a, b);
			break;
		case ST_BLOCKED:
			wait_blocked(d, t, ctx, iv, a, b);
			break;
		}
	}
	d->depth--;
}

void ex_depgraph(const struct ex_model *m, struct ex_graph *g, int tid,
		 uint64_t s, uint64_t e)
{
	struct dg d = { .m = m, .g = g, .budget = EX_DG_BUDGET };

	g->root = ex_dg_thread_node(g, m, tid);
	g->total = e > s ? e - s : 0;
	dgraph(&d, tid, s, e);
}
