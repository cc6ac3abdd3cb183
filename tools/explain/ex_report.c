// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_report.c - assemble one explanation: dependency graph + classification
 * of a thread over an interval; string helpers of the output formats.
 */
#include <string.h>

#include "ex_depgraph.h"
#include "ex_report.h"
#include "ex_util.h"
#include "lt_dot.h"
#include "lt_json.h"

void ex_report_build(struct ex_report *r, const struct ex_model *m,
		     const char *trace, int tid, uint64_t s, uint64_t e)
{
	r->m = m;
	r->trace = trace;
	r->tid = tid;
	r->start = s;
	r->end = e;
	ex_graph_init(&r->g, false);
	ex_depgraph(m, &r->g, tid, s, e);
	ex_classify(m, tid, s, e, &r->cr);
}

void ex_report_free(struct ex_report *r)
{
	ex_graph_free(&r->g);
	ex_class_report_free(&r->cr);
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
