// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_report.c - assemble one explanation: dependency graph + classification
 * of a thread over an interval; string helpers of the output formats.
 */
#include <string.h>

#include "ex_depgraph.h"
#include "ex_report.h"
#include "ex_util.h"

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

void ex_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void ex_dot_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
	fputc('"', f);
}
