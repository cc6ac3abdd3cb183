// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_critical.c - GAPP's criticality (ex_critical.h) as the text
 * report's "criticality" section and as explain.json's "criticality"
 * object.  Times in ns in JSON, with their unit in text (relative to the
 * window's start where they are instants); criticality, a weighted time
 * (ex_critical.h), the same way.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "ex_critical.h"
#include "ex_fmt.h"
#include "ex_report.h"
#include "ex_util.h"
#include "lt_json.h"

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* The processes of the application's threads, each once, in *procs. */
static size_t app_procs(const struct ex_model *m, const struct ex_crit *c,
			int **procs)
{
	size_t n = 0;

	*procs = ex_xcalloc(c->ntids ? c->ntids : 1, sizeof(**procs));
	for (size_t i = 0; i < c->ntids; i++) {
		int p = ex_app_pid_of(m, c->tids[i]);
		size_t j = 0;

		while (j < n && (*procs)[j] != p)
			j++;
		if (j == n)
			(*procs)[n++] = p;
	}
	return n;
}

/* A process's name: its main thread's, or (not in the trace) the first
 * of its threads'. */
static const char *proc_comm(const struct ex_model *m, const struct ex_crit *c,
			     int pid)
{
	if (ex_model_thread(m, pid))
		return ex_model_comm(m, pid);
	for (size_t i = 0; i < c->ntids; i++)
		if (ex_app_pid_of(m, c->tids[i]) == pid)
			return ex_model_comm(m, c->tids[i]);
	return ex_model_comm(m, pid);
}

static void text_sum(FILE *f, const struct ex_model *m,
		     const struct ex_crit_sum *s, size_t n)
{
	char line[sizeof(s->object) + 160];

	for (size_t i = 0; i < n && i < EX_CRIT_TOP; i++) {
		if (s[i].tid >= 0)
			fprintf(f, "    %s [%d]: criticality %s of running (%s of it critical);\n"
				"      of waits",
				ex_model_comm(m, s[i].tid), s[i].tid,
				ex_dur_f(s[i].active_criticality).s,
				ex_dur(s[i].active_critical_ns).s);
		else
			fprintf(f, "    ");
		snprintf(line, sizeof(line), "%s%s %s (%" PRIu64 " waits, %s waiting, %s of it critical)",
			 s[i].tid >= 0 ? "" : s[i].object, s[i].tid >= 0 ? "" : ":",
			 ex_dur_f(s[i].criticality).s, s[i].count,
			 ex_dur(s[i].waiting_ns).s, ex_dur(s[i].critical_ns).s);
		ex_text_wrapped(f, line, 6);
	}
}

void ex_out_critical_text(FILE *f, const struct ex_model *m,
			  const struct ex_crit *c)
{
	uint64_t window = c->end - c->start;
	char line[sizeof(c->periods->object) + sizeof(c->periods->waker) + 16];
	int *procs;
	size_t np = app_procs(m, c, &procs);

	fprintf(f, "\ncriticality (GAPP): application");
	for (size_t i = 0; i < np; i++)
		fprintf(f, "%s %s [%d]", i ? "," : "", proc_comm(m, c, procs[i]),
			procs[i]);
	free(procs);
	fprintf(f, ", %d threads\n", c->nthreads);
	fprintf(f, "  A time is critical when at most %d of them (%s) run or wait for a CPU\n"
		"  while others are blocked.  A wait's criticality is the critical time it\n"
		"  spans, each part divided by the threads active then: the waits that\n"
		"  held the application back the most rank first.\n",
		c->threshold, c->threshold_given ? "--critical-threshold" : "half");
	fprintf(f, "  window %s: critical %s (%.1f%%), criticality %s\n",
		ex_dur(window).s, ex_dur(c->critical_ns).s,
		pct(c->critical_ns, window), ex_dur_f(c->criticality).s);
	fprintf(f, "  time by number of active threads:");
	for (int k = 0; k <= c->nthreads; k++)
		if (c->active_ns[k])
			fprintf(f, " %d: %s (%.1f%%);", k, ex_dur(c->active_ns[k]).s,
				pct(c->active_ns[k], window));
	fputc('\n', f);
	if (!c->nphases) {
		fprintf(f, "  no critical period\n");
		return;
	}
	fprintf(f, "  most critical phases (of %zu), from the window's start:\n", c->nphases);
	for (size_t i = 0; i < c->nphases && i < EX_CRIT_TOP; i++) {
		const struct ex_crit_phase *p = &c->phases[i];

		fprintf(f, "    +%s for %s: %d-%d active, up to %d waiting, criticality %s\n",
			ex_dur(p->start - c->start).s, ex_dur(p->end - p->start).s,
			p->min_active, p->max_active, p->max_waiting,
			ex_dur_f(p->criticality).s);
	}
	fprintf(f, "  most critical waits (of %zu):\n", c->nperiods);
	for (size_t i = 0; i < c->nperiods && i < EX_CRIT_TOP; i++) {
		const struct ex_crit_period *p = &c->periods[i];

		if (p->criticality <= 0)
			break;
		fprintf(f, "    %s [%d] +%s for %s (%s critical, >= %d active): criticality %s;\n      ",
			ex_model_comm(m, p->tid), p->tid,
			ex_dur(p->start - c->start).s, ex_dur(p->end - p->start).s,
			ex_dur(p->critical_ns).s, p->min_active,
			ex_dur_f(p->criticality).s);
		snprintf(line, sizeof(line), "%s, woken by %s", p->object, p->waker);
		ex_text_wrapped(f, line, 6);
	}
	fprintf(f, "  criticality by what was waited on:\n");
	text_sum(f, m, c->objects, c->nobjects);
	fprintf(f, "  criticality by thread (GAPP's: of its running time, then of its waits):\n");
	text_sum(f, m, c->threads, c->nthreads_sum);
}

static void json_sums(FILE *f, const struct ex_model *m,
		      const struct ex_crit_sum *s, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n && i < EX_CRIT_TOP; i++) {
		fputs(i ? ",{" : "{", f);
		if (s[i].tid >= 0) {
			fprintf(f, "\"tid\":%d,\"comm\":", s[i].tid);
			lt_json_cstr(f, ex_model_comm(m, s[i].tid));
			fprintf(f, ",\"active_criticality_ns\":%.0f,\"active_critical_ns\":%" PRIu64,
				s[i].active_criticality, s[i].active_critical_ns);
		} else {
			fputs("\"object\":", f);
			lt_json_cstr(f, s[i].object);
		}
		fprintf(f, ",\"criticality_ns\":%.0f,\"waiting_ns\":%" PRIu64 ",\"critical_ns\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			s[i].criticality, s[i].waiting_ns, s[i].critical_ns, s[i].count);
	}
	fputc(']', f);
}

static void json_period(FILE *f, const struct ex_model *m,
			const struct ex_crit_period *p)
{
	const struct ex_thread *t = ex_model_thread(m, p->tid);
	const struct ex_syscall *sc = t && p->iv->sys >= 0 ? &t->sys[p->iv->sys] : NULL;

	fprintf(f, "{\"tid\":%d,\"comm\":", p->tid);
	lt_json_cstr(f, ex_model_comm(m, p->tid));
	fprintf(f, ",\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"waiting_ns\":%" PRIu64 ",\"critical_ns\":%" PRIu64 ",\"criticality_ns\":%.0f,\"min_active\":%d,\"syscall\":",
		p->start, p->end, p->end - p->start, p->critical_ns,
		p->criticality, p->min_active);
	lt_json_cstr(f, sc ? sc->name : "");
	if (sc && sc->uaddr >= 0)
		fprintf(f, ",\"uaddr\":\"0x%" PRIx64 "\"", (uint64_t)sc->uaddr);
	if (sc && sc->fd >= 0)
		fprintf(f, ",\"fd\":%" PRId64, sc->fd);
	fputs(",\"object\":", f);
	lt_json_cstr(f, p->object);
	fputs(",\"waker\":", f);
	lt_json_cstr(f, p->waker);
	fprintf(f, ",\"waker_tid\":%d}", p->waker_tid);
}

void ex_out_critical_json(FILE *f, const struct ex_model *m,
			  const struct ex_crit *c)
{
	int *procs;
	size_t np = app_procs(m, c, &procs);

	fprintf(f, "{\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"pids\":[",
		c->start, c->end);
	for (size_t i = 0; i < np; i++)
		fprintf(f, "%s%d", i ? "," : "", procs[i]);
	free(procs);
	fputs("],\"tids\":[", f);
	for (size_t i = 0; i < c->ntids; i++)
		fprintf(f, "%s%d", i ? "," : "", c->tids[i]);
	fprintf(f, "],\"threads\":%d,\"threshold\":%d,\"threshold_given\":%s,\"observed_ns\":%" PRIu64 ",\"critical_ns\":%" PRIu64 ",\"criticality_ns\":%.0f,\"active_ns\":[",
		c->nthreads, c->threshold, c->threshold_given ? "true" : "false",
		c->observed_ns, c->critical_ns, c->criticality);
	for (int k = 0; k <= c->nthreads; k++)
		fprintf(f, "%s%" PRIu64, k ? "," : "", c->active_ns[k]);
	fprintf(f, "],\"nphases\":%zu,\"phases\":[", c->nphases);
	for (size_t i = 0; i < c->nphases && i < EX_CRIT_TOP; i++) {
		const struct ex_crit_phase *p = &c->phases[i];

		fprintf(f, "%s{\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"min_active\":%d,\"max_active\":%d,\"max_waiting\":%d,\"criticality_ns\":%.0f}",
			i ? "," : "", p->start, p->end, p->min_active,
			p->max_active, p->max_waiting, p->criticality);
	}
	fprintf(f, "],\"nperiods\":%zu,\"periods\":[", c->nperiods);
	for (size_t i = 0; i < c->nperiods && i < EX_CRIT_TOP; i++) {
		if (i)
			fputc(',', f);
		json_period(f, m, &c->periods[i]);
	}
	fputs("],\"objects\":", f);
	json_sums(f, m, c->objects, c->nobjects);
	fputs(",\"per_thread\":", f);
	json_sums(f, m, c->threads, c->nthreads_sum);
	fputc('}', f);
}
