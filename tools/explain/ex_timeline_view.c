// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_timeline_view.c - the spans and wakeups a timeline shows of the state
 * model (ex_timeline_view.h); the JSON and OTF2 writers both read them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_timeline_view.h"
#include "ex_util.h"

void tl_view_init(struct tl_view *v, const struct ex_model *m,
		  const int *pids, size_t npids)
{
	v->m = m;
	v->start = m->first_ts;
	v->end = m->last_ts;
	v->pids = pids;
	v->npids = npids;
}

int tl_pid(const struct ex_thread *t)
{
	return t->pid > 0 ? t->pid : t->tid;
}

bool tl_shown(const struct tl_view *v, const struct ex_thread *t)
{
	if (!t->niv && !t->nsys)
		return false;		/* only named (statedump): no track */
	if (!v->npids)
		return true;
	for (size_t i = 0; i < v->npids; i++)
		if (v->pids[i] == tl_pid(t))
			return true;
	return false;
}

const char *tl_process_name(const struct tl_view *v, int pid)
{
	const struct ex_thread *main = ex_model_thread(v->m, pid);

	if (main && main->comm[0])
		return main->comm;
	for (size_t i = 0; i < v->m->nth; i++) {
		const struct ex_thread *t = v->m->th[i];

		if (tl_pid(t) == pid && t->comm[0])
			return t->comm;
	}
	return "?";
}

bool tl_first_of_process(const struct tl_view *v, size_t i)
{
	const struct ex_thread *t = v->m->th[i];

	if (!tl_shown(v, t))
		return false;
	for (size_t j = 0; j < i; j++)
		if (tl_pid(v->m->th[j]) == tl_pid(t) && tl_shown(v, v->m->th[j]))
			return false;
	return true;
}

uint64_t tl_sys_end(const struct tl_view *v, const struct ex_syscall *s)
{
	return s->end == EX_TS_OPEN ? v->end : s->end;
}

uint64_t tl_iv_end(const struct tl_view *v, const struct ex_interval *iv)
{
	return iv->end == EX_TS_OPEN ? v->end : iv->end;
}

/* Start order; at the same start the outer span first. */
static int by_start(const void *a, const void *b)
{
	const struct tl_span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->depth - y->depth;
}

struct tl_span *tl_thread_spans(const struct tl_view *v,
				const struct ex_thread *t, size_t *n)
{
	struct tl_span *sp = NULL, *s;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < t->nsys; i++) {
		const struct ex_syscall *sc = &t->sys[i];
		uint64_t end = tl_sys_end(v, sc);

		if (end <= sc->start)
			continue;
		s = EX_PUSH(sp, *n, cap);
		s->start = sc->start;
		s->end = end;
		s->kind = TL_SYSCALL;
		s->sys = sc;
	}
	for (size_t i = 0; i < t->niv; i++) {
		const struct ex_interval *iv = &t->iv[i];
		uint64_t end = tl_iv_end(v, iv);

		if (end <= iv->start)
			continue;
		s = EX_PUSH(sp, *n, cap);
		s->start = iv->start;
		s->end = end;
		s->kind = TL_STATE;
		s->iv = iv;
		s->sys = iv->sys >= 0 ? &t->sys[iv->sys] : NULL;
		s->depth = s->sys && tl_sys_end(v, s->sys) > s->sys->start;
	}
	if (*n > 1)
		qsort(sp, *n, sizeof(*sp), by_start);
	return sp;
}

void tl_span_name(const struct tl_span *s, char *buf, size_t size)
{
	if (s->kind == TL_SYSCALL) {
		snprintf(buf, size, "%s", s->sys->name);
		return;
	}
	switch (s->iv->state) {
	case ST_RUNNING:
		snprintf(buf, size, "running on CPU %d", s->iv->cpu);
		break;
	case ST_RUNNABLE:
		snprintf(buf, size, "runnable");
		break;
	case ST_BLOCKED:
		if (s->sys)
			snprintf(buf, size, "blocked in %s", s->sys->name);
		else
			snprintf(buf, size, "blocked");
		break;
	}
}

static int by_ts(const void *a, const void *b)
{
	const struct tl_wakeup *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

struct tl_wakeup *tl_wakeups(const struct tl_view *v, size_t *n)
{
	const struct ex_model *m = v->m;
	struct tl_wakeup *w = NULL, *x;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < m->nth; i++) {
		const struct ex_thread *t = m->th[i];

		if (!tl_shown(v, t))
			continue;
		for (size_t j = 0; j < t->niv; j++) {
			const struct ex_interval *iv = &t->iv[j];
			const struct ex_thread *wt;

			/* A wakeup at the trace's last instant: the state it
			 * starts has no span to bind the arrow's head to. */
			if (iv->state != ST_BLOCKED || j + 1 == t->niv ||
			    tl_iv_end(v, &t->iv[j + 1]) <= t->iv[j + 1].start ||
			    ex_blocked_wake(m, t, iv) != WK_THREAD)
				continue;
			wt = ex_model_thread(m, iv->waker_tid);
			if (!wt || !tl_shown(v, wt))
				continue;
			x = EX_PUSH(w, *n, cap);
			x->ts = iv->end;
			x->waker = iv->waker_tid;
			x->wakee = t->tid;
			x->iv = iv;
		}
	}
	if (*n > 1)
		qsort(w, *n, sizeof(*w), by_ts);
	return w;
}

void tl_request_name(const struct ex_request *r, char *buf, size_t size)
{
	snprintf(buf, size, "block %u:%u", ex_dev_major(r->dev),
		 ex_dev_minor(r->dev));
}

static int by_rq_start(const void *a, const void *b)
{
	const struct tl_request *x = a, *y = b;

	if (x->r->start != y->r->start)
		return x->r->start < y->r->start ? -1 : 1;
	return x->r < y->r ? -1 : x->r > y->r;	/* the trace's order */
}

struct tl_request *tl_requests(const struct tl_view *v, size_t *n)
{
	const struct ex_model *m = v->m;
	struct tl_request *q = NULL, *x;
	struct { uint64_t dev, end; } *lanes = NULL, *l;	/* in lane order per disk */
	size_t cap = 0, nl = 0, capl = 0;

	*n = 0;
	for (size_t i = 0; i < m->nrq; i++) {
		const struct ex_request *r = &m->rq[i];
		const struct ex_thread *t = r->tid > 0 ? ex_model_thread(m, r->tid) : NULL;

		if (!t || !tl_shown(v, t))
			continue;
		x = EX_PUSH(q, *n, cap);
		x->r = r;
		x->t = t;
	}
	if (*n > 1)
		qsort(q, *n, sizeof(*q), by_rq_start);
	/* Lanes: a lane of a disk is free at a request's start when the last
	 * request it held has ended by then; the request takes the lowest
	 * free one, or a new one. */
	for (size_t i = 0; i < *n; i++) {
		int lane = 0;
		size_t k;

		for (k = 0; k < nl; k++) {
			if (lanes[k].dev != q[i].r->dev)
				continue;
			if (lanes[k].end <= q[i].r->start)
				break;
			lane++;
		}
		if (k == nl) {
			l = EX_PUSH(lanes, nl, capl);
			l->dev = q[i].r->dev;
		}
		lanes[k].end = q[i].r->end;
		q[i].lane = lane;
	}
	free(lanes);
	return q;
}
