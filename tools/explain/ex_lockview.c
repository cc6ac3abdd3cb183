// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_lockview.c - the application-wide lock view (ex_lockview.h): built
 * from every blocked interval of the application's threads that
 * ex_sync_of() calls a lock; rendered as text, JSON and DOT.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_fmt.h"
#include "ex_lockview.h"
#include "ex_report.h"
#include "ex_util.h"
#include "lt_dot.h"

/* How far back a releaser's calls are searched for its acquisition. */
#define EX_LV_MAX_LOOKBACK 4096

static struct ex_lv_lock *lock_get(struct ex_lockview *lv,
				   const struct ex_sync *sy)
{
	struct ex_lv_lock *l;

	for (size_t i = 0; i < lv->n; i++)
		if (!strcmp(lv->locks[i].key, sy->key))
			return &lv->locks[i];
	l = EX_PUSH(lv->locks, lv->n, lv->cap);
	l->kind = sy->kind;
	ex_strlcpy(l->key, sy->key, sizeof(l->key));
	ex_strlcpy(l->label, sy->label, sizeof(l->label));
	l->uaddr = sy->uaddr;
	return l;
}

static void add_waiter(struct ex_lv_lock *l, int tid, uint64_t ns)
{
	struct ex_lv_waiter *w = NULL;

	for (size_t i = 0; i < l->nwaiters; i++)
		if (l->waiters[i].tid == tid)
			w = &l->waiters[i];
	if (!w) {
		w = EX_PUSH(l->waiters, l->nwaiters, l->cap_waiters);
		w->tid = tid;
	}
	w->ns += ns;
	w->count++;
	if (ns > w->max_ns)
		w->max_ns = ns;
}

/* Index of the last system call of t starting before ts, or -1. */
static long last_sys_before(const struct ex_thread *t, uint64_t ts)
{
	size_t lo = 0, hi = t->nsys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->sys[mid].start < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/*
 * When releaser r acquired the lock key it released at rel (its release
 * call: index skip): the end of its last call on that lock before, that
 * acquires it; 0 when not seen.
 */
static uint64_t acquisition(const struct ex_model *m, const struct ex_thread *r,
			    const char *key, bool futex, uint64_t rel, int skip)
{
	char k[EX_SYNC_TEXT];
	long n = 0;

	for (long i = last_sys_before(r, rel); i >= 0 && n < EX_LV_MAX_LOOKBACK;
	     i--, n++) {
		const struct ex_syscall *sc = &r->sys[i];

		if (i == skip || sc->end == EX_TS_OPEN || sc->end > rel ||
		    sc->ret < 0)
			continue;
		if (!ex_sync_sys_key(m, r, sc, k, sizeof(k)) || strcmp(k, key))
			continue;
		/* A futex call that does not acquire is an earlier release:
		 * the lock was taken again since, without a system call. */
		if (futex && !ex_sync_futex_acquires(sc))
			return 0;
		return sc->end;
	}
	return 0;
}

static uint64_t running_in(const struct ex_thread *t, uint64_t s, uint64_t e)
{
	uint64_t ns = 0;

	for (size_t i = ex_thread_first_iv(t, s); i < t->niv && t->iv[i].start < e; i++)
		if (t->iv[i].state == ST_RUNNING)
			ns += ex_overlap(t->iv[i].start, t->iv[i].end, s, e);
	return ns;
}

static void add_release(const struct ex_model *m, struct ex_lv_lock *l,
			const struct ex_interval *iv, uint64_t ns)
{
	const struct ex_thread *r = ex_model_thread(m, iv->waker_tid);
	struct ex_lv_releaser *rl = NULL;
	uint64_t rel = iv->end, acq, from;

	for (size_t i = 0; i < l->nreleasers; i++)
		if (l->releasers[i].tid == iv->waker_tid)
			rl = &l->releasers[i];
	if (!rl) {
		rl = EX_PUSH(l->releasers, l->nreleasers, l->cap_releasers);
		rl->tid = iv->waker_tid;
	}
	rl->ns += ns;
	if (rl->releases && rl->last_release == rel)
		return;			/* one release waking several */
	rl->releases++;
	rl->last_release = rel;
	acq = r ? acquisition(m, r, l->key, l->kind == SY_FUTEX, rel,
			      iv->waker_sys) : 0;
	from = acq && acq <= rel ? acq : iv->start;
	rl->held_exact += acq != 0;
	rl->held_ns += rel - from;
	if (rel - from > rl->held_max_ns)
		rl->held_max_ns = rel - from;
	if (r)
		rl->ran_ns += running_in(r, from, rel);
}

static void add_pid(struct ex_lockview *lv, int pid)
{
	int *slot;

	for (size_t i = 0; i < lv->npids; i++)
		if (lv->pids[i] == pid)
			return;
	slot = EX_PUSH(lv->pids, lv->npids, lv->cap_pids);
	*slot = pid;
}

static int by_lock(const void *a, const void *b)
{
	const struct ex_lv_lock *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int by_waiter(const void *a, const void *b)
{
	const struct ex_lv_waiter *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->tid - y->tid;
}

static int by_releaser(const void *a, const void *b)
{
	const struct ex_lv_releaser *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->tid - y->tid;
}

static int by_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

void ex_lockview_build(struct ex_lockview *lv, const struct ex_model *m,
		       const struct ex_app *app)
{
	memset(lv, 0, sizeof(*lv));
	for (size_t i = 0; i < m->nth; i++) {
		const struct ex_thread *t = m->th[i];

		if (!ex_app_has(m, app, t))
			continue;
		add_pid(lv, t->pid > 0 ? t->pid : t->tid);
		for (size_t k = 0; k < t->niv; k++) {
			const struct ex_interval *iv = &t->iv[k];
			uint64_t ns = iv->end - iv->start;
			struct ex_lv_lock *l;
			struct ex_sync sy;

			if (iv->state != ST_BLOCKED || !ns ||
			    !ex_sync_of(m, t, iv, &sy) || !sy.lock)
				continue;
			l = lock_get(lv, &sy);
			l->ns += ns;
			l->count++;
			if (ns > l->max_ns)
				l->max_ns = ns;
			add_waiter(l, t->tid, ns);
			if (ex_blocked_wake(m, t, iv) == WK_THREAD &&
			    iv->waker_tid > 0)
				add_release(m, l, iv, ns);
			else
				l->unreleased_ns += ns;
		}
	}
	if (lv->n > 1)
		qsort(lv->locks, lv->n, sizeof(*lv->locks), by_lock);
	for (size_t i = 0; i < lv->n; i++) {
		struct ex_lv_lock *l = &lv->locks[i];

		if (l->nwaiters > 1)
			qsort(l->waiters, l->nwaiters, sizeof(*l->waiters), by_waiter);
		if (l->nreleasers > 1)
			qsort(l->releasers, l->nreleasers, sizeof(*l->releasers),
			      by_releaser);
	}
	if (lv->npids > 1)
		qsort(lv->pids, lv->npids, sizeof(*lv->pids), by_int);
}

void ex_lockview_free(struct ex_lockview *lv)
{
	for (size_t i = 0; i < lv->n; i++) {
		free(lv->locks[i].waiters);
		free(lv->locks[i].releasers);
	}
	free(lv->locks);
	free(lv->pids);
	memset(lv, 0, sizeof(*lv));
}

/* ---- renderers ---- */

void ex_lockview_text(FILE *f, const struct ex_model *m,
		      const struct ex_lockview *lv)
{
	fprintf(f, "\nlock view (application: process");
	for (size_t i = 0; i < lv->npids; i++)
		fprintf(f, "%s %d", i ? "," : "", lv->pids[i]);
	fprintf(f, "; %zu locks waited on in the snapshot)\n", lv->n);
	for (size_t i = 0; i < lv->n; i++) {
		const struct ex_lv_lock *l = &lv->locks[i];

		char line[sizeof(l->label) + 128];

		snprintf(line, sizeof(line), "%s: %s waited, %" PRIu64 " waits by %zu threads, longest %s",
			 l->label, ex_dur(l->ns).s, l->count, l->nwaiters,
			 ex_dur(l->max_ns).s);
		fprintf(f, "  ");
		ex_text_wrapped(f, line, 4);
		for (size_t j = 0; j < l->nwaiters; j++)
			fprintf(f, "    waiter      %s [%d] %s (%" PRIu64 " waits, longest %s)\n",
				ex_model_comm(m, l->waiters[j].tid), l->waiters[j].tid,
				ex_dur(l->waiters[j].ns).s, l->waiters[j].count,
				ex_dur(l->waiters[j].max_ns).s);
		for (size_t j = 0; j < l->nreleasers; j++) {
			const struct ex_lv_releaser *r = &l->releasers[j];

			fprintf(f, "    released by %s [%d] %s of waits (%" PRIu64 " releases);\n",
				ex_model_comm(m, r->tid), r->tid, ex_dur(r->ns).s,
				r->releases);
			fprintf(f, "                held %s%s (longest %s), running %s of it\n",
				r->held_exact < r->releases ? ">= " : "",
				ex_dur(r->held_ns).s, ex_dur(r->held_max_ns).s,
				ex_dur(r->ran_ns).s);
		}
		if (l->unreleased_ns)
			fprintf(f, "    not released by a thread: %s (timeout, or still waiting at the end)\n",
				ex_dur(l->unreleased_ns).s);
	}
}

void ex_lockview_json(FILE *f, const struct ex_model *m,
		      const struct ex_lockview *lv)
{
	fputc('[', f);
	for (size_t i = 0; i < lv->n; i++) {
		const struct ex_lv_lock *l = &lv->locks[i];

		fprintf(f, "%s{\"kind\":\"%s\",\"name\":", i ? "," : "",
			ex_sync_kind_name(l->kind));
		ex_json_str(f, l->label);
		fprintf(f, ",\"key\":");
		ex_json_str(f, l->key);
		if (l->uaddr >= 0)
			fprintf(f, ",\"uaddr\":\"0x%" PRIx64 "\"", (uint64_t)l->uaddr);
		fprintf(f, ",\"ns\":%" PRIu64 ",\"count\":%" PRIu64 ",\"max_ns\":%" PRIu64 ",\"unreleased_ns\":%" PRIu64 ",\"nwaiters\":%zu,\"waiters\":[",
			l->ns, l->count, l->max_ns, l->unreleased_ns, l->nwaiters);
		for (size_t j = 0; j < l->nwaiters; j++) {
			const struct ex_lv_waiter *w = &l->waiters[j];

			fprintf(f, "%s{\"tid\":%d,\"comm\":", j ? "," : "", w->tid);
			ex_json_str(f, ex_model_comm(m, w->tid));
			fprintf(f, ",\"pid\":%d,\"ns\":%" PRIu64 ",\"count\":%" PRIu64 ",\"max_ns\":%" PRIu64 "}",
				ex_app_pid_of(m, w->tid), w->ns, w->count, w->max_ns);
		}
		fprintf(f, "],\"releasers\":[");
		for (size_t j = 0; j < l->nreleasers; j++) {
			const struct ex_lv_releaser *r = &l->releasers[j];

			fprintf(f, "%s{\"tid\":%d,\"comm\":", j ? "," : "", r->tid);
			ex_json_str(f, ex_model_comm(m, r->tid));
			fprintf(f, ",\"pid\":%d,\"ns\":%" PRIu64 ",\"count\":%" PRIu64 ",\"held_ns\":%" PRIu64 ",\"held_max_ns\":%" PRIu64 ",\"held_exact\":%" PRIu64 ",\"ran_ns\":%" PRIu64 "}",
				ex_app_pid_of(m, r->tid), r->ns, r->releases,
				r->held_ns, r->held_max_ns, r->held_exact, r->ran_ns);
		}
		fprintf(f, "]}");
	}
	fputc(']', f);
}

static void thread_node(FILE *f, const struct ex_model *m, int tid, bool *done,
			size_t ndone)
{
	char label[64];

	/* done[] is indexed by the model's thread index + 1 (0: unknown). */
	for (size_t i = 0; i < m->nth && i + 1 < ndone; i++)
		if (m->th[i]->tid == tid) {
			if (done[i + 1])
				return;
			done[i + 1] = true;
		}
	snprintf(label, sizeof(label), "%s [%d]", ex_model_comm(m, tid), tid);
	fprintf(f, "\tt%d [label=\"", tid);
	lt_dot_text(f, label, strlen(label));
	fprintf(f, "\", shape=box, style=\"rounded,filled\", fillcolor=\"#dde8f7\"];\n");
}

void ex_lockview_dot(FILE *f, const struct ex_model *m,
		     const struct ex_lockview *lv)
{
	bool *done = ex_xcalloc(m->nth + 2, sizeof(*done));

	fprintf(f, "digraph lockview {\n\trankdir=LR;\n\tnode [fontname=\"Helvetica\", fontsize=10];\n");
	fprintf(f, "\tedge [fontname=\"Helvetica\", fontsize=9];\n");
	for (size_t i = 0; i < lv->n; i++) {
		const struct ex_lv_lock *l = &lv->locks[i];

		fprintf(f, "\tl%zu [label=\"", i);
		lt_dot_text(f, l->label, strlen(l->label));
		fprintf(f, "\\n%s waited, %" PRIu64 " waits\", shape=octagon, style=filled, fillcolor=\"#f7d0d0\"];\n",
			ex_dur(l->ns).s, l->count);
		for (size_t j = 0; j < l->nwaiters; j++) {
			thread_node(f, m, l->waiters[j].tid, done, m->nth + 1);
			fprintf(f, "\tt%d -> l%zu [label=\"waited %s\"];\n",
				l->waiters[j].tid, i, ex_dur(l->waiters[j].ns).s);
		}
		for (size_t j = 0; j < l->nreleasers; j++) {
			const struct ex_lv_releaser *r = &l->releasers[j];

			thread_node(f, m, r->tid, done, m->nth + 1);
			fprintf(f, "\tl%zu -> t%d [label=\"released %" PRIu64 "x, held %s%s\", style=dashed];\n",
				i, r->tid, r->releases,
				r->held_exact < r->releases ? ">= " : "",
				ex_dur(r->held_ns).s);
		}
	}
	fprintf(f, "}\n");
	free(done);
}
