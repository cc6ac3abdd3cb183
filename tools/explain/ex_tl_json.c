// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_tl_json.c - a timeline (ex_timeline_view.h) in the Chrome/Perfetto
 * trace-event JSON format ("JSON Object Format": {"traceEvents": [...]}),
 * which ui.perfetto.dev, chrome://tracing and Trace Compass open:
 *
 *   per shown thread (pid = its process, tid = the thread):
 *     "X" cat syscall   a system call, name = the call; args fd, uaddr, ret
 *     "X" cat state     nested in it (or alone in user space): "running on
 *                       CPU n", "runnable", "blocked in <call>"; args state,
 *                       cpu, syscall, pstate, woken_by
 *     "i" cat alert     a latency_tracker alert event (args tracker,
 *                       delay_ns), on the thread it names
 *     "b"/"e" cat block a block request it submitted, insert .. complete,
 *                       "block M:m" (its disk); args sector, lane (the
 *                       OTF2 archive's lane of that disk)
 *   wakeups: "s" at the waker (bound to its running slice) and "f" at the
 *     wakee (bound to the next slice: the runnable one), one id per
 *     wakeup, cat wakeup
 *   per CPU: pid TL_CPU_PID ("CPUs"), tid TL_CPU_PID + 1 + cpu ("CPU n"):
 *     "X" cat cpu       the thread that ran, "comm [tid]"; args tid, pid
 *   "M" process_name / thread_name metadata for all of them.
 *
 * ts and dur are in microseconds with three decimals: the trace's
 * CLOCK_MONOTONIC nanoseconds, exactly (the clock of alert records and of
 * explain's --at).  Strings go through lt_json (any bytes, valid JSON).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "ex_classify.h"
#include "ex_timeline_view.h"
#include "lt_json.h"

/* ns as microseconds, exact: 1234567 -> 1234.567 */
static void us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

struct jw {
	FILE *f;
	bool first;
};

/* Start the next element of traceEvents: {"ph":PH,"pid":P,"tid":T */
static void ev_begin(struct jw *w, const char *ph, int pid, int tid)
{
	fprintf(w->f, "%s\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d", w->first ? "" : ",",
		ph, pid, tid);
	w->first = false;
}

static void key_str(FILE *f, const char *key, const char *val)
{
	fprintf(f, ",\"%s\":", key);
	lt_json_cstr(f, val);
}

static void key_ts(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":", key);
	us(f, ns);
}

static void meta(struct jw *w, const char *what, int pid, int tid,
		 const char *name)
{
	ev_begin(w, "M", pid, tid);
	key_str(w->f, "name", what);
	fputs(",\"args\":{\"name\":", w->f);
	lt_json_cstr(w->f, name);
	fputs("}}", w->f);
}

static void woken_by(FILE *f, const struct ex_model *m,
		     const struct ex_thread *t, const struct ex_interval *iv)
{
	char buf[EX_NAME_LEN + 32];

	switch (ex_blocked_wake(m, t, iv)) {
	case WK_THREAD:
		snprintf(buf, sizeof(buf), "%s [%d]", ex_model_comm(m, iv->waker_tid),
			 iv->waker_tid);
		break;
	case WK_TIMER:
		snprintf(buf, sizeof(buf), "timer");
		break;
	case WK_IRQ:
	case WK_SOFTIRQ:
		snprintf(buf, sizeof(buf), "%s", iv->wname);
		break;
	default:
		return;
	}
	key_str(f, "woken_by", buf);
}

static void span(struct jw *w, const struct tl_view *v,
		 const struct ex_thread *t, const struct tl_span *s)
{
	char name[EX_NAME_LEN + 32];
	FILE *f = w->f;

	tl_span_name(s, name, sizeof(name));
	ev_begin(w, "X", tl_pid(t), t->tid);
	key_str(f, "cat", s->kind == TL_SYSCALL ? "syscall" : "state");
	key_str(f, "name", name);
	key_ts(f, "ts", s->start);
	key_ts(f, "dur", s->end - s->start);
	fputs(",\"args\":{", f);
	if (s->kind == TL_SYSCALL) {
		if (s->sys->end != EX_TS_OPEN)
			fprintf(f, "\"ret\":%" PRId64, s->sys->ret);
		else
			fputs("\"open\":true", f);	/* not returned in the trace */
		if (s->sys->fd >= 0)
			fprintf(f, ",\"fd\":%" PRId64, s->sys->fd);
		if (s->sys->uaddr >= 0)
			fprintf(f, ",\"uaddr\":%" PRId64, s->sys->uaddr);
	} else {
		fprintf(f, "\"state\":\"%s\"", ex_state_name(s->iv->state));
		if (s->iv->state != ST_BLOCKED)
			fprintf(f, ",\"cpu\":%d", s->iv->cpu);
		if (s->sys)
			key_str(f, "syscall", s->sys->name);
		if (s->iv->state == ST_BLOCKED) {
			if (s->iv->pstate)
				fprintf(f, ",\"pstate\":\"%c\"", s->iv->pstate);
			woken_by(f, v->m, t, s->iv);
		}
	}
	fputs("}}", f);
}

static void threads(struct jw *w, const struct tl_view *v)
{
	const struct ex_model *m = v->m;

	for (size_t i = 0; i < m->nth; i++) {
		const struct ex_thread *t = m->th[i];
		struct tl_span *sp;
		size_t n;

		if (!tl_shown(v, t))
			continue;
		if (tl_first_of_process(v, i))
			meta(w, "process_name", tl_pid(t), tl_pid(t),
			     tl_process_name(v, tl_pid(t)));
		meta(w, "thread_name", tl_pid(t), t->tid,
		     t->comm[0] ? t->comm : "?");
		sp = tl_thread_spans(v, t, &n);
		for (size_t j = 0; j < n; j++)
			span(w, v, t, &sp[j]);
		free(sp);
	}
}

static void wakeups(struct jw *w, const struct tl_view *v)
{
	const struct ex_model *m = v->m;
	struct tl_wakeup *wk;
	size_t n;

	wk = tl_wakeups(v, &n);
	for (size_t i = 0; i < n; i++) {
		const struct ex_thread *a = ex_model_thread(m, wk[i].waker);
		const struct ex_thread *b = ex_model_thread(m, wk[i].wakee);

		ev_begin(w, "s", tl_pid(a), a->tid);
		fprintf(w->f, ",\"cat\":\"wakeup\",\"name\":\"wakeup\",\"id\":%zu",
			i + 1);
		key_ts(w->f, "ts", wk[i].ts);
		fputc('}', w->f);
		ev_begin(w, "f", tl_pid(b), b->tid);
		fprintf(w->f, ",\"cat\":\"wakeup\",\"name\":\"wakeup\",\"id\":%zu",
			i + 1);
		key_ts(w->f, "ts", wk[i].ts);
		fputc('}', w->f);
	}
	free(wk);
}

static void alerts(struct jw *w, const struct tl_view *v)
{
	const struct ex_model *m = v->m;
	char name[EX_NAME_LEN + 32];

	for (size_t i = 0; i < m->nalerts; i++) {
		const struct ex_alert *a = &m->alerts[i];
		const struct ex_thread *t = ex_model_thread(m, a->tid);

		if (!t || !tl_shown(v, t))
			continue;
		snprintf(name, sizeof(name), "latency_tracker %s alert", a->tracker);
		ev_begin(w, "i", tl_pid(t), t->tid);
		fputs(",\"s\":\"t\",\"cat\":\"alert\"", w->f);
		key_str(w->f, "name", name);
		key_ts(w->f, "ts", a->ts);
		fputs(",\"args\":{", w->f);
		fputs("\"tracker\":", w->f);
		lt_json_cstr(w->f, a->tracker);
		fprintf(w->f, ",\"delay_ns\":%" PRIu64 "}}", a->delay);
	}
}

static void requests(struct jw *w, const struct tl_view *v)
{
	struct tl_request *q;
	char name[64];
	size_t n;

	q = tl_requests(v, &n);
	for (size_t i = 0; i < n; i++) {
		const struct ex_request *r = q[i].r;
		const struct ex_thread *t = q[i].t;

		tl_request_name(r, name, sizeof(name));
		ev_begin(w, "b", tl_pid(t), t->tid);
		fprintf(w->f, ",\"cat\":\"block\",\"id\":\"rq%zu\"", i);
		key_str(w->f, "name", name);
		key_ts(w->f, "ts", r->start);
		fprintf(w->f, ",\"args\":{\"sector\":%" PRIu64 ",\"lane\":%d}}",
			r->sector, q[i].lane);
		ev_begin(w, "e", tl_pid(t), t->tid);
		fprintf(w->f, ",\"cat\":\"block\",\"id\":\"rq%zu\"", i);
		key_str(w->f, "name", name);
		key_ts(w->f, "ts", r->end);
		fputc('}', w->f);
	}
	free(q);
}

static void cpus(struct jw *w, const struct tl_view *v)
{
	const struct ex_model *m = v->m;
	char name[EX_COMM_LEN + 16];

	meta(w, "process_name", TL_CPU_PID, TL_CPU_PID, "CPUs");
	for (int c = 0; c < m->ncpu; c++) {
		const struct ex_cpu *cpu = &m->cpu[c];
		int tid = TL_CPU_PID + 1 + c;

		snprintf(name, sizeof(name), "CPU %d", c);
		meta(w, "thread_name", TL_CPU_PID, tid, name);
		ev_begin(w, "M", TL_CPU_PID, tid);
		fprintf(w->f, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}", c);
		for (size_t i = 0; i < cpu->nsl; i++) {
			const struct ex_slice *s = &cpu->sl[i];
			const struct ex_thread *t = ex_model_thread(m, s->tid);

			if (s->tid <= 0 || s->end <= s->start)
				continue;
			snprintf(name, sizeof(name), "%s [%d]", ex_model_comm(m, s->tid),
				 s->tid);
			ev_begin(w, "X", TL_CPU_PID, tid);
			fputs(",\"cat\":\"cpu\"", w->f);
			key_str(w->f, "name", name);
			key_ts(w->f, "ts", s->start);
			key_ts(w->f, "dur", s->end - s->start);
			fprintf(w->f, ",\"args\":{\"tid\":%d,\"pid\":%d}}", s->tid,
				t ? tl_pid(t) : s->tid);
		}
	}
}

int tl_write_json(FILE *out, const struct tl_view *v, const char *snapshot)
{
	struct jw w = { .f = out, .first = true };

	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"latency-tracker timeline\",\"snapshot\":", out);
	lt_json_cstr(out, snapshot);
	fprintf(out, ",\"first_ts_ns\":%" PRIu64 ",\"last_ts_ns\":%" PRIu64
		",\"clock\":\"CLOCK_MONOTONIC\"},\n\"traceEvents\":[", v->start, v->end);
	threads(&w, v);
	cpus(&w, v);
	wakeups(&w, v);
	alerts(&w, v);
	requests(&w, v);
	fputs("\n]}\n", out);
	return ferror(out) ? -1 : 0;
}
