// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_report.c - assemble one explanation: dependency graph + classification
 * of a thread over an interval; string helpers of the output formats.
 */
#include <stdlib.h>
#include <string.h>

#include "ex_depgraph.h"
#include "ex_report.h"
#include "ex_util.h"
#include "lt_dot.h"
#include "lt_json.h"

void ex_report_build_app(struct ex_report *r, const struct ex_model *m,
			 const char *trace, int tid, uint64_t s, uint64_t e,
			 const struct ex_app *app)
{
	struct ex_app dflt = { .pid = ex_app_pid_of(m, tid) };

	r->m = m;
	r->trace = trace;
	r->tid = tid;
	r->start = s;
	r->end = e;
	ex_graph_init(&r->g, false);
	ex_depgraph(m, &r->g, tid, s, e);
	ex_classify(m, tid, s, e, &r->cr);
	ex_lockview_build(&r->lv, m, app ? app : &dflt);
	r->nstacks = ex_stacks_attach(m, &r->g, s, e, &r->stacks);
}

void ex_report_build(struct ex_report *r, const struct ex_model *m,
		     const char *trace, int tid, uint64_t s, uint64_t e)
{
	ex_report_build_app(r, m, trace, tid, s, e, NULL);
}

bool ex_report_clip_exit(const struct ex_model *m, int tid, uint64_t s,
			 uint64_t *e, bool past_exit)
{
	const struct ex_thread *t = ex_model_thread(m, tid);
	uint64_t end = t ? ex_thread_end(t) : EX_TS_OPEN;

	if (past_exit || end >= *e || end <= s)
		return false;
	*e = end;
	return true;
}

void ex_report_free(struct ex_report *r)
{
	ex_graph_free(&r->g);
	ex_class_report_free(&r->cr);
	ex_lockview_free(&r->lv);
	free(r->stacks);
	r->stacks = NULL;
	r->nstacks = 0;
}

void ex_out_lockview_dot(FILE *f, const struct ex_report *r)
{
	ex_lockview_dot(f, r->m, &r->lv);
}

double ex_pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* One writer for each format, shared with the other tools (tools/lib). */
void ex_json_str(FILE *f, const char *s)
{
	lt_json_cstr(f, s);
}

void ex_dot_str(FILE *f, const char *s)
{
	lt_dot_cstr(f, s);
}
