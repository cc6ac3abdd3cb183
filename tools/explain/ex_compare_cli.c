// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_compare_cli.c - `explain --compare`: read the snapshots, collect the
 * executions (the alerts, or the spans of --tid between consecutive calls
 * of --between SYSCALL) with their features and graphs (threads identified
 * by name, so that executions merge), cluster, compare, write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ex_compare.h"
#include "ex_depgraph.h"
#include "ex_opts.h"
#include "ex_report.h"
#include "ex_trace.h"
#include "ex_util.h"

static void add_exec(struct ex_compare *cmp, const struct ex_model *m,
		     const char *trace, int tid, uint64_t s, uint64_t e)
{
	struct ex_exec *x;
	struct ex_class_report cr;

	if (e <= s)
		return;
	x = EX_PUSH(cmp->ex, cmp->nex, cmp->cap_ex);
	x->trace = trace;
	x->tid = tid;
	x->start = s;
	x->end = e;
	ex_graph_init(&x->g, true);
	ex_depgraph(m, &x->g, tid, s, e);
	ex_classify(m, tid, s, e, &cr);
	ex_exec_features(&cr, x->feat);
	ex_class_report_free(&cr);
}

static int collect(struct ex_compare *cmp, const struct ex_opts *o,
		   const struct ex_model *m, const char *trace)
{
	size_t before = cmp->nex;

	if (o->between) {
		const struct ex_thread *t;
		const struct ex_syscall *prev = NULL;

		if (o->tid < 0)
			return ex_fail("--between needs --tid");
		t = ex_model_thread(m, o->tid);
		if (!t || !t->niv)
			return ex_fail("%s: thread %d does not appear in the trace",
				       trace, o->tid);
		for (size_t i = 0; i < t->nsys; i++) {
			const struct ex_syscall *sc = &t->sys[i];

			if (strcmp(sc->name, o->between))
				continue;
			if (prev && prev->end != EX_TS_OPEN)
				add_exec(cmp, m, trace, t->tid, prev->end, sc->start);
			prev = sc;
		}
		if (cmp->nex == before)
			return ex_fail("%s: no execution of thread %d between two %s calls",
				       trace, o->tid, o->between);
		return 0;
	}
	for (size_t i = 0; i < m->nalerts; i++) {
		const struct ex_alert *a = &m->alerts[i];

		if ((o->tid >= 0 && a->tid != o->tid) || !ex_model_thread(m, a->tid))
			continue;
		add_exec(cmp, m, trace, a->tid,
			 a->delay < a->ts ? a->ts - a->delay : 0, a->ts);
	}
	return 0;
}

static int write_outputs(const struct ex_opts *o, const struct ex_compare *cmp)
{
	char path[4096], svg[4096];
	FILE *f;

	switch (o->format) {
	case FMT_TEXT:
		ex_out_compare_text(stdout, cmp, o->min_share);
		break;
	case FMT_JSON:
		ex_out_compare_json(stdout, cmp);
		break;
	case FMT_DOT:
		ex_out_compare_dot(stdout, cmp, o->min_share);
		break;
	}
	if (!o->outdir)
		return 0;
	if (mkdir(o->outdir, 0755) && errno != EEXIST)
		return ex_fail("%s: %s", o->outdir, strerror(errno));
	snprintf(path, sizeof(path), "%s/compare.txt", o->outdir);
	if (!(f = fopen(path, "w")))
		return ex_fail("%s: %s", path, strerror(errno));
	ex_out_compare_text(f, cmp, o->min_share);
	fclose(f);
	snprintf(path, sizeof(path), "%s/compare.json", o->outdir);
	if (!(f = fopen(path, "w")))
		return ex_fail("%s: %s", path, strerror(errno));
	ex_out_compare_json(f, cmp);
	fclose(f);
	snprintf(path, sizeof(path), "%s/compare.dot", o->outdir);
	if (!(f = fopen(path, "w")))
		return ex_fail("%s: %s", path, strerror(errno));
	ex_out_compare_dot(f, cmp, o->min_share);
	fclose(f);
	snprintf(svg, sizeof(svg), "%s/compare.svg", o->outdir);
	if (!ex_render_svg(path, svg) && o->format == FMT_TEXT)
		printf("graph: %s\n", svg);
	return 0;
}

int ex_compare_main(const struct ex_opts *o)
{
	struct ex_model *m = ex_xcalloc((size_t)o->ntraces, sizeof(*m));
	struct ex_compare cmp = { 0 };
	char err[512];
	int ret = 0;

	for (int i = 0; i < o->ntraces && !ret; i++) {
		ex_model_init(&m[i]);
		if (ex_trace_read(o->traces[i], &m[i], err, sizeof(err)))
			ret = ex_fail("%s", err);
		else
			ret = collect(&cmp, o, &m[i], o->traces[i]);
	}
	if (!ret && cmp.nex < (size_t)o->k)
		ret = ex_fail("%zu executions found, fewer than the %d clusters asked (alerts in the snapshots, or --tid with --between)",
			      cmp.nex, o->k);
	if (!ret) {
		ex_compare_cluster(&cmp, o->k);
		ex_compare_edges(&cmp);
		ret = write_outputs(o, &cmp);
	}
	ex_compare_free(&cmp);
	for (int i = 0; i < o->ntraces; i++)
		ex_model_free(&m[i]);
	free(m);
	return ret;
}
