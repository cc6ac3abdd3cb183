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
 *              their requests), followed recursively over those requests;
 *              woken by a thread ->
 *              context -> that thread (labelled with the lock when the
 *              wait was on one), followed recursively over the same span
 *              (what it was doing while we waited); woken by a timer,
 *              an interrupt or a softirq -> context -> that resource; not
 *              woken within the trace -> context -> unknown.  Who woke it
 *              is read through ex_blocked_wake() (ex_classify.h): a sleep
 *              system call waits for its timer.
 * Recursion stops at threads already on the current path (no cycles) and
 * at EX_DG_MAX_DEPTH; a call budget bounds the work on dense traces.
 * Every edge is added along its path too (ex_graph_add_path): a thread
 * is followed over a part of its parent edge's interval, so on a path a
 * child's time is within its parent's (ex_graph.h, struct ex_tedge).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_depgraph.h"
#include "ex_sync.h"
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

static void dgraph(struct dg *d, int tid, uint64_t s, uint64_t e, int up);

static bool on_path(const struct dg *d, int tid)
{
	for (int i = 0; i < d->depth; i++)
		if (d->path[i] == tid)
			return true;
	return false;
}

/* up: the tree edge into tid's node (ex_graph.h's paths). */
static void follow(struct dg *d, int tid, uint64_t s, uint64_t e, int up)
{
	if (tid <= 0 || e <= s || up < 0 || on_path(d, tid) ||
	    d->depth >= EX_DG_MAX_DEPTH)
		return;
	dgraph(d, tid, s, e, up);
}

/* An edge along the current path: under the tree edge up. */
static int add(struct dg *d, int up, int from, int to, enum ex_edge_kind kind,
	       uint64_t weight)
{
	return ex_graph_add_path(d->g, up, from, to, kind, weight, 1, NULL);
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

/* Append [a, b) to the pairs of *pieces; its length. */
static uint64_t piece(uint64_t **pieces, size_t *n, size_t *cap, uint64_t a,
		      uint64_t b)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		*pieces = ex_xrealloc(*pieces, 2 * *cap * sizeof(**pieces));
	}
	(*pieces)[2 * *n] = a;
	(*pieces)[2 * *n + 1] = b;
	(*n)++;
	return b - a;
}

/*
 * Union length of tid's in-flight requests on dev within [s, e); its
 * pieces (disjoint, in time order) into *pieces, pairs start, end
 * (allocated), *npieces of them.
 */
static uint64_t inflight(const struct ex_model *m, int tid, uint64_t dev,
			 uint64_t s, uint64_t e, uint64_t **pieces,
			 size_t *npieces)
{
	uint64_t total = 0, cur_s = 0, cur_e = 0;
	size_t cap = 0;
	bool open = false;

	*pieces = NULL;
	*npieces = 0;
	/* Requests are in start order: merge overlapping ones on the fly. */
	for (size_t i = 0; i < m->nrq; i++) {
		const struct ex_request *r = &m->rq[i];
		uint64_t a, b;

		if (r->tid != tid || r->dev != dev || !ex_overlap(r->start, r->end, s, e))
			continue;
		a = r->start < s ? s : r->start;
		b = r->end > e ? e : r->end;
		if (open && a <= cur_e) {
			if (b > cur_e)
				cur_e = b;
			continue;
		}
		if (open)
			total += piece(pieces, npieces, &cap, cur_s, cur_e);
		cur_s = a;
		cur_e = b;
		open = true;
	}
	if (open)
		total += piece(pieces, npieces, &cap, cur_s, cur_e);
	return total;
}

static void wait_disk(struct dg *d, int ctx, int up,
		      const struct ex_request *own, int self, uint64_t a,
		      uint64_t b)
{
	const struct ex_model *m = d->m;
	char name[32];
	int disk, *seen, tdisk;
	size_t nseen = 0;

	disk_name(own->dev, name, sizeof(name));
	disk = ex_graph_node(d->g, N_DISK, -1, "", name);
	tdisk = add(d, up, ctx, disk, E_WAIT_DISK, b - a);
	seen = ex_xcalloc(m->nrq + 1, sizeof(*seen));
	for (size_t i = 0; i < m->nrq; i++) {
		const struct ex_request *r = &m->rq[i];
		uint64_t w, *pieces;
		size_t npieces;
		bool dup = false;
		int tt;

		if (r->tid == self || r->tid <= 0 || r->dev != own->dev ||
		    !ex_overlap(r->start, r->end, a, b))
			continue;
		for (size_t j = 0; j < nseen; j++)
			dup |= seen[j] == r->tid;
		if (dup)
			continue;
		seen[nseen++] = r->tid;
		w = inflight(m, r->tid, own->dev, a, b, &pieces, &npieces);
		tt = add(d, tdisk, disk, ex_dg_thread_node(d->g, m, r->tid),
			 E_DISK_USED, w);
		/*
		 * Followed over its requests in flight only, not over the
		 * span from the first to the last: what it did meanwhile
		 * stays within the w of its edge (no child larger than it).
		 */
		for (size_t k = 0; k < npieces; k++)
			follow(d, r->tid, pieces[2 * k], pieces[2 * k + 1], tt);
		free(pieces);
	}
	free(seen);
}

static void wait_cpu(struct dg *d, int ctx, int up, int cpu, int self,
		     uint64_t a, uint64_t b)
{
	const struct ex_model *m = d->m;
	const struct ex_cpu *c;
	char name[32];
	int node, tcpu;

	if (cpu < 0 || cpu >= m->ncpu)
		cpu = 0;
	c = &m->cpu[cpu];
	snprintf(name, sizeof(name), "CPU %d", cpu);
	node = ex_graph_node(d->g, N_CPU, -1, "", name);
	tcpu = add(d, up, ctx, node, E_WAIT_CPU, b - a);
	for (size_t i = ex_cpu_first_slice(c, a); i < c->nsl && c->sl[i].start < b; i++) {
		const struct ex_slice *sl = &c->sl[i];
		uint64_t w = ex_overlap(sl->start, sl->end, a, b);

		if (sl->tid == 0 && w) {
			/* Runnable on an idle CPU: the CPU was waking up. */
			add(d, tcpu, node, ex_graph_node(d->g, N_IDLE, 0, "",
			    "idle (CPU waking up)"), E_CPU_USED, w);
			continue;
		}
		if (sl->tid < 0 || sl->tid == self || !w)
			continue;
		follow(d, sl->tid, sl->start > a ? sl->start : a,
		       sl->end < b ? sl->end : b,
		       add(d, tcpu, node, ex_dg_thread_node(d->g, m, sl->tid),
			   E_CPU_USED, w));
	}
}

/*
 * Woken by a thread: the edge context -> that thread, labelled with the
 * lock waited on when the wait was on one (ex_sync.h: a futex, a file
 * lock, a semaphore), as the lock view names it.
 */
static void woken_by(struct dg *d, const struct ex_thread *t, int ctx, int up,
		     const struct ex_interval *iv, uint64_t a, uint64_t b)
{
	struct ex_sync *sy = ex_xcalloc(1, sizeof(*sy));
	int node = ex_dg_thread_node(d->g, d->m, iv->waker_tid), te;

	if (!ex_sync_of(d->m, t, iv, sy) || !sy->lock)
		sy->label[0] = '\0';
	te = ex_graph_add_path(d->g, up, ctx, node, E_WOKEN_BY, b - a, 1,
			       sy->label);
	free(sy);
	follow(d, iv->waker_tid, a, b, te);
}

static void wait_blocked(struct dg *d, const struct ex_thread *t, int ctx,
			 int up, const struct ex_interval *iv, uint64_t a,
			 uint64_t b)
{
	const struct ex_model *m = d->m;
	const struct ex_request *own = NULL;
	const char *sys = iv->sys >= 0 ? t->sys[iv->sys].name : "";
	int node;

	if (strcmp(sys, "futex"))
		own = ex_dg_own_request(m, t->tid, iv);
	if (own) {
		wait_disk(d, ctx, up, own, t->tid, a, b);
		return;
	}
	switch (ex_blocked_wake(m, t, iv)) {
	case WK_THREAD:
		woken_by(d, t, ctx, up, iv, a, b);
		return;
	case WK_TIMER:
		node = ex_graph_node(d->g, N_TIMER, -1, "", "timer");
		add(d, up, ctx, node, E_WAIT_TIMER, b - a);
		return;
	case WK_IRQ:
		node = ex_graph_node(d->g, N_IRQ, -1, "", iv->wname);
		add(d, up, ctx, node, E_WAIT_IRQ, b - a);
		return;
	case WK_SOFTIRQ:
		node = ex_graph_node(d->g, N_SOFTIRQ, -1, "", iv->wname);
		add(d, up, ctx, node, E_WAIT_SOFTIRQ, b - a);
		return;
	case WK_NONE:
		break;
	}
	node = ex_graph_node(d->g, N_UNKNOWN, -1, "", "unknown");
	add(d, up, ctx, node, E_WAIT_UNKNOWN, b - a);
}

/*
 * tid over [s, e), its node reached by the tree edge up (-1: the root).
 * A context edge counts the system calls (the intervals of one call
 * count once, user space not at all): the calls of the states table
 * (ex_classify.c counts the same intervals the same way).
 */
static void dgraph(struct dg *d, int tid, uint64_t s, uint64_t e, int up)
{
	const struct ex_thread *t = ex_model_thread(d->m, tid);
	int self, last_sys = -1;

	if (!t || d->budget-- <= 0)
		return;
	d->path[d->depth++] = tid;
	self = ex_dg_thread_node(d->g, d->m, tid);
	for (size_t i = ex_thread_first_iv(t, s); i < t->niv && t->iv[i].start < e; i++) {
		const struct ex_interval *iv = &t->iv[i];
		uint64_t a = iv->start > s ? iv->start : s;
		uint64_t b = iv->end < e ? iv->end : e;
		int ctx, tctx;

		if (b <= a)
			continue;
		ctx = ex_dg_context_node(d->g, d->m, t, iv->sys);
		tctx = ex_graph_add_path(d->g, up, self, ctx, E_CONTEXT, b - a,
					 iv->sys >= 0 && iv->sys != last_sys,
					 NULL);
		last_sys = iv->sys;
		switch (iv->state) {
		case ST_RUNNING:
			d->g->nodes[ctx].run_ns += b - a;
			if (tctx >= 0)
				d->g->tedges[tctx].run_ns += b - a;
			break;
		case ST_RUNNABLE:
			wait_cpu(d, ctx, tctx, iv->cpu, tid, a, b);
			break;
		case ST_BLOCKED:
			wait_blocked(d, t, ctx, tctx, iv, a, b);
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
	dgraph(&d, tid, s, e, -1);
}
