// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_dot.c - the dependency graph as Graphviz DOT: one node per thread,
 * context or resource with its time and share of the slow interval, edges
 * labelled with their accumulated time, thicker when heavier.  Names are
 * escaped by tools/lib/lt_dot.h (bytes that are not text shown as \xHH).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ex_fmt.h"
#include "ex_report.h"
#include "lt_dot.h"

static const char *shape(enum ex_node_type t)
{
	switch (t) {
	case N_THREAD:
		return "box, style=\"rounded,filled\", fillcolor=\"#dde8f7\"";
	case N_SYSCALL:
	case N_USER:
		return "ellipse";
	case N_CPU:
	case N_DISK:
		return "box3d, style=filled, fillcolor=\"#f7e3d0\"";
	default:
		return "octagon";
	}
}

void ex_out_dot(FILE *f, const struct ex_report *r, double min_share)
{
	const struct ex_graph *g = &r->g;
	bool *used = calloc(g->nnodes + 1, sizeof(*used));

	if (!used)
		return;
	if (g->root >= 0)
		used[g->root] = true;
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].weight >= min_share * (double)g->total)
			used[g->edges[i].from] = used[g->edges[i].to] = true;
	fprintf(f, "digraph depgraph {\n\trankdir=LR;\n\tnode [fontname=\"Helvetica\", fontsize=10];\n");
	fprintf(f, "\tedge [fontname=\"Helvetica\", fontsize=9];\n");
	for (size_t i = 0; i < g->nnodes; i++) {
		uint64_t w = ex_graph_node_weight(g, (int)i);

		if (!used[i])
			continue;
		/* The name (escaped), a line break, its time and share. */
		fprintf(f, "\tn%zu [label=\"", i);
		lt_dot_text(f, g->nodes[i].label, strlen(g->nodes[i].label));
		fprintf(f, "\\n%s (%.1f%%)\"", ex_dur(w).s, ex_pct(w, g->total));
		fprintf(f, ", shape=%s%s];\n", shape(g->nodes[i].type),
			(int)i == g->root ? ", penwidth=2" : "");
	}
	for (size_t i = 0; i < g->nedges; i++) {
		const struct ex_edge *e = &g->edges[i];
		double share = ex_pct(e->weight, g->total);

		if (e->weight < min_share * (double)g->total)
			continue;
		fprintf(f, "\tn%d -> n%d [label=\"%s\", penwidth=%.1f, tooltip=\"%s\"];\n",
			e->from, e->to, ex_dur((uint64_t)e->weight).s,
			1.0 + share / 20.0, ex_edge_kind_name(e->kind));
	}
	fprintf(f, "}\n");
	free(used);
}
