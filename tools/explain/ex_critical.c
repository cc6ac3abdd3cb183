// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_critical.c - GAPP's criticality metric (ex_critical.h), in the steps
 * of the GAPP thesis (gapp-classifying-bottlenecks.txt); each function says
 * which section it follows:
 *
 *   1. the application: the threads of its processes     (section 3.7.1)
 *   2. time slices and their active threads               (section 2.4.4)
 *   3. the critical threshold N_min                       (sections 1, 2.4.4)
 *   4. the criticality of each waiting period             (sections 1, 2.4.4)
 *   5. GAPP's per-thread metric over active time          (section 2.4.4,
 *                                                          Figure 3.1)
 *   6. what each waited on; the rankings                  (sections 3.6.2,
 *                                                          3.6.3)
 *
 * The thesis describes GAPP's online form: at each sched_switch of an
 * application thread, it counts the threads that are runnable and, while
 * that count is low (the thesis: "below a certain threshold"; GAPP's N_min,
 * at or below), weights the stack trace of the thread switched out by the
 * time spent so and inversely by the number of threads running.  Offline, over the state database, the same quantities
 * are exact: the slices between state changes are GAPP's intervals between
 * switches, and a waiting period collects the weight of every critical
 * slice it spans.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_critical.h"
#include "ex_util.h"

/* ---- 1. the application (section 3.7.1) ---- */

/*
 * Section 3.7.1: GAPP traces the application's processes and every thread
 * they create, chosen by pid or by name (ex_app.h: --pid, --comm, or the
 * explained thread's process).
 */
size_t ex_crit_app_threads(const struct ex_model *m, const struct ex_app *a,
			   int **tids)
{
	size_t n = 0;

	*tids = ex_xcalloc(m->nth ? m->nth : 1, sizeof(**tids));
	for (size_t i = 0; i < m->nth; i++)
		if (ex_app_has(m, a, m->th[i]))
			(*tids)[n++] = m->th[i]->tid;
	return n;
}

static bool in_set(int v, const int *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

/* ---- 2. time slices (section 2.4.4) ---- */

/*
 * A thread's part in the application at a time: active (running, or
 * runnable: GAPP counts "runnable threads", whether on a CPU or waiting
 * for one) or waiting (blocked: "non-runnable", section 1) -- or absent,
 * outside its intervals: not yet seen, or dead (the model ends a thread's
 * intervals at its last switch out, ex_model.h).
 */
enum presence { P_ACTIVE, P_WAITING };

static enum presence presence(const struct ex_interval *iv)
{
	return iv->state == ST_BLOCKED ? P_WAITING : P_ACTIVE;
}

struct delta {
	uint64_t ts;
	int da, dw;
};

static int delta_cmp(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The part [*is, *ie) of iv within [s, e); false when empty. */
static bool clip(const struct ex_interval *iv, uint64_t s, uint64_t e,
		 uint64_t *is, uint64_t *ie)
{
	*is = iv->start > s ? iv->start : s;
	*ie = iv->end < e ? iv->end : e;
	return *ie > *is;
}

static void slice_add(struct ex_crit *c, uint64_t s, uint64_t e, int a, int w)
{
	struct ex_crit_slice *last = c->nsl ? &c->sl[c->nsl - 1] : NULL;

	if (last && last->end == s && last->active == a && last->waiting == w) {
		last->end = e;
		return;
	}
	last = EX_PUSH(c->sl, c->nsl, c->cap_sl);
	last->start = s;
	last->end = e;
	last->active = a;
	last->waiting = w;
}

/*
 * Section 2.4.4: GAPP works at each sched_switch -- between two, the
 * number of the application's runnable threads is constant.  Here: the
 * window cut at every start and end of an application thread's state
 * interval (a sweep over +1/-1 steps); neighbours with the same counts are
 * one slice.  Also N, the application's threads present in the window.
 */
static void build_slices(const struct ex_model *m, const int *tids,
			 size_t ntids, struct ex_crit *c)
{
	struct delta *d = NULL;
	size_t nd = 0, cap = 0;
	int a = 0, w = 0;

	c->tids = ex_xcalloc(ntids ? ntids : 1, sizeof(*c->tids));
	for (size_t i = 0; i < ntids; i++) {
		const struct ex_thread *t = ex_model_thread(m, tids[i]);
		bool present = false;

		for (size_t k = t ? ex_thread_first_iv(t, c->start) : 0;
		     t && k < t->niv && t->iv[k].start < c->end; k++) {
			enum presence p = presence(&t->iv[k]);
			struct delta *x;
			uint64_t is, ie;

			if (!clip(&t->iv[k], c->start, c->end, &is, &ie))
				continue;
			present = true;
			x = EX_PUSH(d, nd, cap);
			x->ts = is;
			x->da = p == P_ACTIVE;
			x->dw = p == P_WAITING;
			x = EX_PUSH(d, nd, cap);
			x->ts = ie;
			x->da = -(p == P_ACTIVE);
			x->dw = -(p == P_WAITING);
		}
		if (present && !in_set(tids[i], c->tids, c->ntids))
			c->tids[c->ntids++] = tids[i];
	}
	c->nthreads = (int)c->ntids;
	if (nd)
		qsort(d, nd, sizeof(*d), delta_cmp);
	for (size_t i = 0; i < nd;) {
		uint64_t ts = d[i].ts;

		for (; i < nd && d[i].ts == ts; i++) {
			a += d[i].da;
			w += d[i].dw;
		}
		if (i < nd && (a || w))
			slice_add(c, ts, d[i].ts, a, w);
	}
	free(d);
}

/* ---- 3. the threshold (sections 1 and 2.4.4) ---- */

/*
 * Section 2.4.4: critical "when the fraction of runnable threads dips
 * below a certain threshold"; section 1: while "a significant number of
 * threads in an application are in a non-runnable state".  GAPP's
 * threshold N_min is a number of active threads, N/2 of the application's
 * N threads unless given (its -t; here --critical-threshold), and a slice
 * is critical at active <= N_min.  A slice where no thread waits has no
 * waiting period to weigh: not critical.
 */
bool ex_crit_slice_critical(const struct ex_crit *c,
			    const struct ex_crit_slice *sl)
{
	return sl->active <= c->threshold && sl->waiting > 0;
}

/* ---- 4. criticality of the waiting periods (sections 1 and 2.4.4) ---- */

/*
 * Section 2.4.4: the metric is "weighted by the length of time [...] as
 * well as inversely by the number of threads running": a waiting
 * period's criticality is the sum, over the critical slices it spans, of
 * the time spent in each divided by the slice's active threads (at least
 * 1: with none active, the application makes no progress at all, as with
 * one).  Summed over the w waiting threads of a slice of length d with a
 * active, that is d * w / a: section 1's weighting "by the ratio of
 * non-runnable threads, as well as the time this state has been
 * maintained for".
 */
static double slice_weight(const struct ex_crit_slice *sl, uint64_t ns)
{
	return (double)ns / (double)(sl->active > 0 ? sl->active : 1);
}

static size_t first_slice(const struct ex_crit *c, uint64_t ts)
{
	size_t lo = 0, hi = c->nsl;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->sl[mid].end <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void weigh_period(const struct ex_crit *c, struct ex_crit_period *p)
{
	p->min_active = -1;
	for (size_t k = first_slice(c, p->start);
	     k < c->nsl && c->sl[k].start < p->end; k++) {
		const struct ex_crit_slice *sl = &c->sl[k];
		uint64_t ov = ex_overlap(p->start, p->end, sl->start, sl->end);

		if (p->min_active < 0 || sl->active < p->min_active)
			p->min_active = sl->active;
		if (!ex_crit_slice_critical(c, sl))
			continue;
		p->critical_ns += ov;
		p->criticality += slice_weight(sl, ov);
	}
	if (p->min_active < 0)
		p->min_active = 0;
}

/* ---- 5. GAPP's per-thread metric (section 2.4.4, Figure 3.1) ---- */

/*
 * GAPP reports, at a thread's switch out during critical time, the time it
 * "has been running" weighted "inversely by the number of threads
 * running", and sums it per thread (Figure 3.1, "Criticality Metric for
 * each thread"): the thread that runs while the others wait -- the serial
 * work -- ranks first.  Over the active interval [s, e) of a thread: the
 * critical slices' overlap divided by their active threads.
 */
static void weigh_active(const struct ex_crit *c, uint64_t s, uint64_t e,
			 struct ex_crit_sum *t)
{
	for (size_t k = first_slice(c, s); k < c->nsl && c->sl[k].start < e; k++) {
		const struct ex_crit_slice *sl = &c->sl[k];
		uint64_t ov = ex_overlap(s, e, sl->start, sl->end);

		if (!ex_crit_slice_critical(c, sl))
			continue;
		t->active_critical_ns += ov;
		t->active_criticality += slice_weight(sl, ov);
	}
}

/* ---- 6. what was waited on, and the rankings (section 3.6) ---- */

void ex_crit_object(const struct ex_model *m, const struct ex_thread *t,
		    const struct ex_interval *iv, char *buf, size_t size)
{
	const struct ex_syscall *sc = iv->sys >= 0 ? &t->sys[iv->sys] : NULL;
	struct ex_sync sy;
	const char *fname;

	if (ex_sync_of(m, t, iv, &sy) && sy.kind != SY_WAKER) {
		/* A lock, a join, a child, a queue: its one name. */
		snprintf(buf, size, "%s", sy.label);
	} else if (!sc) {
		snprintf(buf, size, "no system call");
	} else if (sc->fd >= 0) {
		/* A file, a pipe or a socket (the writer: the waker). */
		fname = ex_model_fdname(m, ex_app_pid_of(m, t->tid), sc->fd,
					iv->start);
		snprintf(buf, size, "%s fd %" PRId64 "%s%s", sc->name, sc->fd,
			 *fname ? " " : "", fname);
	} else {
		snprintf(buf, size, "%s", sc->name);
	}
}

void ex_crit_waker(const struct ex_model *m, const struct ex_thread *t,
		   const struct ex_interval *iv, char *buf, size_t size)
{
	const struct ex_thread *w;

	switch (ex_blocked_wake(m, t, iv)) {
	case WK_THREAD:
		w = ex_model_thread(m, iv->waker_tid);
		if (w && iv->waker_sys >= 0 && (size_t)iv->waker_sys < w->nsys)
			snprintf(buf, size, "%s [%d] in %s", ex_model_comm(m, iv->waker_tid),
				 iv->waker_tid, w->sys[iv->waker_sys].name);
		else
			snprintf(buf, size, "%s [%d]", ex_model_comm(m, iv->waker_tid),
				 iv->waker_tid);
		break;
	case WK_TIMER:
		snprintf(buf, size, "timer");
		break;
	case WK_IRQ:
	case WK_SOFTIRQ:
		snprintf(buf, size, "%s", iv->wname[0] ? iv->wname : "interrupt");
		break;
	default:
		snprintf(buf, size, "not woken in the trace");
		break;
	}
}

static void sum_period(struct ex_crit_sum *s, const struct ex_crit_period *p)
{
	s->waiting_ns += p->end - p->start;
	s->critical_ns += p->critical_ns;
	s->count++;
	s->criticality += p->criticality;
}

static struct ex_crit_sum *object_sum(struct ex_crit *c, const char *object)
{
	struct ex_crit_sum *s;

	for (size_t i = 0; i < c->nobjects; i++)
		if (!strcmp(c->objects[i].object, object))
			return &c->objects[i];
	s = EX_PUSH(c->objects, c->nobjects, c->cap_objects);
	ex_strlcpy(s->object, object, sizeof(s->object));
	s->tid = -1;
	return s;
}

static int cmp_double_desc(double a, double b)
{
	return a > b ? -1 : a < b;
}

/* Section 3.6.3: the individual waits, the most critical first. */
static int period_cmp(const void *a, const void *b)
{
	const struct ex_crit_period *x = a, *y = b;
	int r = cmp_double_desc(x->criticality, y->criticality);

	if (r)
		return r;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->tid - y->tid;
}

/* Section 3.6.2: locks ranked by criticality (of their waits). */
static int sum_cmp(const void *a, const void *b)
{
	const struct ex_crit_sum *x = a, *y = b;
	int r = cmp_double_desc(x->criticality, y->criticality);

	if (r)
		return r;
	if (x->waiting_ns != y->waiting_ns)
		return x->waiting_ns > y->waiting_ns ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid - y->tid;
	return strcmp(x->object, y->object);
}

/* Figure 3.1: threads ranked by GAPP's metric, then by their waits'. */
static int thread_cmp(const void *a, const void *b)
{
	const struct ex_crit_sum *x = a, *y = b;
	int r = cmp_double_desc(x->active_criticality, y->active_criticality);

	return r ? r : sum_cmp(a, b);
}

static int phase_cmp(const void *a, const void *b)
{
	const struct ex_crit_phase *x = a, *y = b;
	int r = cmp_double_desc(x->criticality, y->criticality);

	if (r)
		return r;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Runs of consecutive critical slices (the time periods GAPP reports
 * stack traces in). */
static void build_phases(struct ex_crit *c)
{
	struct ex_crit_phase *ph = NULL;

	for (size_t k = 0; k < c->nsl; k++) {
		const struct ex_crit_slice *sl = &c->sl[k];

		if (!ex_crit_slice_critical(c, sl)) {
			ph = NULL;
			continue;
		}
		if (!ph || ph->end != sl->start) {
			ph = EX_PUSH(c->phases, c->nphases, c->cap_phases);
			ph->start = sl->start;
			ph->min_active = ph->max_active = sl->active;
		}
		ph->end = sl->end;
		if (sl->active < ph->min_active)
			ph->min_active = sl->active;
		if (sl->active > ph->max_active)
			ph->max_active = sl->active;
		if (sl->waiting > ph->max_waiting)
			ph->max_waiting = sl->waiting;
		ph->criticality += slice_weight(sl, sl->end - sl->start) *
				   sl->waiting;
	}
	if (c->nphases)
		qsort(c->phases, c->nphases, sizeof(*c->phases), phase_cmp);
}

void ex_critical(const struct ex_model *m, const int *tids, size_t ntids,
		 uint64_t s, uint64_t e, int threshold, struct ex_crit *c)
{
	memset(c, 0, sizeof(*c));
	c->start = s;
	c->end = e > s ? e : s;
	build_slices(m, tids, ntids, c);
	c->threshold_given = threshold >= 0;
	c->threshold = threshold >= 0 ? threshold : c->nthreads / 2;

	c->active_ns = ex_xcalloc((size_t)c->nthreads + 1, sizeof(*c->active_ns));
	for (size_t k = 0; k < c->nsl; k++) {
		const struct ex_crit_slice *sl = &c->sl[k];
		uint64_t d = sl->end - sl->start;

		c->active_ns[sl->active <= c->nthreads ? sl->active : c->nthreads] += d;
		c->observed_ns += d;
		if (ex_crit_slice_critical(c, sl))
			c->critical_ns += d;
	}

	c->threads = ex_xcalloc(c->ntids ? c->ntids : 1, sizeof(*c->threads));
	c->nthreads_sum = c->cap_threads = c->ntids;
	for (size_t i = 0; i < c->ntids; i++) {
		const struct ex_thread *t = ex_model_thread(m, c->tids[i]);
		struct ex_crit_sum *ts = &c->threads[i];

		ts->tid = t->tid;
		for (size_t k = ex_thread_first_iv(t, c->start);
		     k < t->niv && t->iv[k].start < c->end; k++) {
			const struct ex_interval *iv = &t->iv[k];
			struct ex_crit_period *p;
			uint64_t is, ie;

			if (!clip(iv, c->start, c->end, &is, &ie))
				continue;
			if (presence(iv) == P_ACTIVE)
				weigh_active(c, is, ie, ts);
			if (presence(iv) != P_WAITING)
				continue;
			p = EX_PUSH(c->periods, c->nperiods, c->cap_periods);
			p->tid = t->tid;
			p->start = is;
			p->end = ie;
			p->iv = iv;
			weigh_period(c, p);
			ex_crit_object(m, t, iv, p->object, sizeof(p->object));
			ex_crit_waker(m, t, iv, p->waker, sizeof(p->waker));
			p->waker_tid = ex_blocked_wake(m, t, iv) == WK_THREAD ?
				       iv->waker_tid : -1;
			c->criticality += p->criticality;
			sum_period(object_sum(c, p->object), p);
			sum_period(ts, p);
		}
	}
	if (c->nperiods) {
		qsort(c->periods, c->nperiods, sizeof(*c->periods), period_cmp);
		qsort(c->objects, c->nobjects, sizeof(*c->objects), sum_cmp);
	}
	if (c->nthreads_sum)
		qsort(c->threads, c->nthreads_sum, sizeof(*c->threads), thread_cmp);
	build_phases(c);
}

void ex_critical_app(const struct ex_model *m, const struct ex_app *a,
		     uint64_t s, uint64_t e, int threshold, struct ex_crit *c)
{
	int *tids;
	size_t n = ex_crit_app_threads(m, a, &tids);

	ex_critical(m, tids, n, s, e, threshold, c);
	free(tids);
}

void ex_crit_free(struct ex_crit *c)
{
	free(c->tids);
	free(c->sl);
	free(c->active_ns);
	free(c->periods);
	free(c->objects);
	free(c->threads);
	free(c->phases);
	memset(c, 0, sizeof(*c));
}
