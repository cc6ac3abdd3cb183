// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_compare.c - the comparison of execution groups as text, DOT
 * (dashed: only in the fast cluster, dotted: only in the slow one, solid
 * with a pen width from the boldness level otherwise) and JSON.
 */
#include <inttypes.h>

#include "ex_compare.h"
#include "ex_fmt.h"
#include "ex_report.h"

static const char *const status_names[] = {
	[CMP_BOTH] = "both", [CMP_ONLY_LEFT] = "only_fast",
	[CMP_ONLY_RIGHT] = "only_slow",
};

/* Edges too light to matter in both clusters are left out. */
static bool shown(const struct ex_compare *cmp, const struct ex_cmp_edge *e,
		  double min_share)
{
	double dl = cmp->cl[cmp->left].mean[0], dr = cmp->cl[cmp->right].mean[0];

	return e->mean_l >= min_share * dl || e->mean_r >= min_share * dr;
}

void ex_out_compare_text(FILE *f, const struct ex_compare *cmp, double min_share)
{
	fprintf(f, "%zu executions, %d clusters (k-means on %d features)\n",
		cmp->nex, cmp->k, EX_NFEATURES);
	for (int c = 0; c < cmp->k; c++) {
		const struct ex_cluster *cl = &cmp->cl[c];

		fprintf(f, "cluster %d%s: %zu executions, mean %s:\n"
			"  running %s, sync %s, io %s, cpu %s, timer %s, unknown %s\n",
			c, c == cmp->left ? " (fast)" : c == cmp->right ? " (slow)" : "",
			cl->n, ex_dur_f(cl->mean[0]).s, ex_dur_f(cl->mean[1]).s,
			ex_dur_f(cl->mean[2]).s, ex_dur_f(cl->mean[3]).s, ex_dur_f(cl->mean[4]).s,
			ex_dur_f(cl->mean[5]).s, ex_dur_f(cl->mean[6]).s);
	}
	fprintf(f, "\ncomparison of cluster %d (fast) with cluster %d (slow), mean per execution:\n",
		cmp->left, cmp->right);
	for (int pass = CMP_ONLY_RIGHT; pass >= CMP_BOTH; pass--) {
		for (size_t i = 0; i < cmp->nedges; i++) {
			const struct ex_cmp_edge *e = &cmp->edges[i];

			if ((int)e->status != pass || !shown(cmp, e, min_share))
				continue;
			fprintf(f, "  %-9s %s -> %s: fast %s, slow %s",
				status_names[e->status], e->from_label, e->to_label,
				ex_dur_f(e->mean_l).s, ex_dur_f(e->mean_r).s);
			if (e->status == CMP_BOTH)
				fprintf(f, " (level %d)", e->level);
			fprintf(f, " [in %zu/%zu fast, %zu/%zu slow]\n",
				e->present_l, cmp->cl[cmp->left].n, e->present_r,
				cmp->cl[cmp->right].n);
		}
	}
}

void ex_out_compare_dot(FILE *f, const struct ex_compare *cmp, double min_share)
{
	fprintf(f, "digraph compare {\n\trankdir=LR;\n\tnode [fontname=\"Helvetica\", fontsize=10];\n");
	fprintf(f, "\tlabel=\"cluster %d (fast, %zu executions) vs cluster %d (slow, %zu): dashed = only fast, dotted = only slow\";\n",
		cmp->left, cmp->cl[cmp->left].n, cmp->right, cmp->cl[cmp->right].n);
	for (size_t i = 0; i < cmp->nedges; i++) {
		const struct ex_cmp_edge *e = &cmp->edges[i];
		const char *style = e->status == CMP_ONLY_LEFT ? "dashed" :
				    e->status == CMP_ONLY_RIGHT ? "dotted" : "solid";
		char label[128];

		if (!shown(cmp, e, min_share))
			continue;
		fprintf(f, "\t");
		ex_dot_str(f, e->from);
		fprintf(f, " [label=");
		ex_dot_str(f, e->from_label);
		fprintf(f, "];\n\t");
		ex_dot_str(f, e->to);
		fprintf(f, " [label=");
		ex_dot_str(f, e->to_label);
		fprintf(f, "];\n\t");
		ex_dot_str(f, e->from);
		fprintf(f, " -> ");
		ex_dot_str(f, e->to);
		snprintf(label, sizeof(label), "%s / %s", ex_dur_f(e->mean_l).s,
			 ex_dur_f(e->mean_r).s);
		fprintf(f, " [style=%s, penwidth=%d, label=", style,
			e->status == CMP_BOTH ? e->level : 2);
		ex_dot_str(f, label);
		fprintf(f, "];\n");
	}
	fprintf(f, "}\n");
}

void ex_out_compare_json(FILE *f, const struct ex_compare *cmp)
{
	fprintf(f, "{\"k\":%d,\"fast\":%d,\"slow\":%d,\"executions\":[", cmp->k,
		cmp->left, cmp->right);
	for (size_t i = 0; i < cmp->nex; i++) {
		const struct ex_exec *x = &cmp->ex[i];

		fprintf(f, "%s{\"trace\":", i ? "," : "");
		ex_json_str(f, x->trace);
		fprintf(f, ",\"tid\":%d,\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"cluster\":%d,\"features\":{",
			x->tid, x->start, x->end, x->cluster);
		for (int j = 0; j < EX_NFEATURES; j++)
			fprintf(f, "%s\"%s\":%.0f", j ? "," : "", ex_feature_names[j],
				x->feat[j]);
		fprintf(f, "}}");
	}
	fprintf(f, "],\"clusters\":[");
	for (int c = 0; c < cmp->k; c++) {
		fprintf(f, "%s{\"id\":%d,\"n\":%zu,\"mean\":{", c ? "," : "", c,
			cmp->cl[c].n);
		for (int j = 0; j < EX_NFEATURES; j++)
			fprintf(f, "%s\"%s\":%.0f", j ? "," : "", ex_feature_names[j],
				cmp->cl[c].mean[j]);
		fprintf(f, "}}");
	}
	fprintf(f, "],\"edges\":[");
	for (size_t i = 0; i < cmp->nedges; i++) {
		const struct ex_cmp_edge *e = &cmp->edges[i];

		fprintf(f, "%s{\"from\":", i ? "," : "");
		ex_json_str(f, e->from_label);
		fprintf(f, ",\"to\":");
		ex_json_str(f, e->to_label);
		fprintf(f, ",\"from_key\":");
		ex_json_str(f, e->from);
		fprintf(f, ",\"to_key\":");
		ex_json_str(f, e->to);
		fprintf(f, ",\"kind\":\"%s\",\"status\":\"%s\",\"level\":%d,\"mean_fast_ns\":%.0f,\"mean_slow_ns\":%.0f,\"sd_fast_ns\":%.0f,\"in_fast\":%zu,\"in_slow\":%zu}",
			ex_edge_kind_name(e->kind), status_names[e->status], e->level,
			e->mean_l, e->mean_r, e->sd_l, e->present_l, e->present_r);
	}
	fprintf(f, "]}\n");
}
