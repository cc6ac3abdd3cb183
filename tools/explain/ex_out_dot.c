// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_dot.c - the dependency graph as Graphviz DOT: one node per thread,
 * context or resource with its time and share of the slow interval, edges
 * labelled with their accumulated time and the lock waited on, thicker
 * when heavier; only what is connected to the root.  Names are
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

/*
 * The graph merges what several paths reach (ex_graph.h): a node's time
 * is the sum of its incoming edges, each at most the time of the node it
 * leaves; a node with several is said so, since its time may then be
 * larger than that of one of its parents.  The edges under min_share of
 * the interval are left out, and with them what only they reach: every
 * node drawn is connected to the root.
 */
void ex_out_dot(FILE *f, const struct ex_report *r, double min_share)
{
	const struct ex_graph *g = &r->g;
	double min_w = min_share * (double)g->total;
	bool *used = calloc(g->nnodes + 1, sizeof(*used));
	size_t *nin = calloc(g->nnodes + 1, sizeof(*nin));

	if (!used || !nin) {
		free(used);
		free(nin);
		return;
	}
	ex_graph_reach(g, min_w, used);
	for (size_t i = 0; i < g->nedges; i++)
		nin[g->edges[i].to]++;
	fprintf(f, "digraph depgraph {\n\trankdir=LR;\n\tnode [fontname=\"Helvetica\", fontsize=10];\n");
	fprintf(f, "\tedge [fontname=\"Helvetica\", fontsize=9];\n");
	for (size_t i = 0; i < g->nnodes; i++) {
		uint64_t w = ex_graph_node_weight(g, (int)i);

		if (!used[i])
			continue;
		/* The name (escaped), a line break, its time and share. */
		fprintf(f, "\tn%zu [label=\"", i);
		lt_dot_text(f, g->nodes[i].label, strlen(g->nodes[i].label));
		fprintf(f, "\\n%s (%.1f%%)", ex_dur(w).s, ex_pct(w, g->total));
		if ((int)i != g->root && nin[i] > 1)
			fprintf(f, "\\nsum of %zu incoming edges", nin[i]);
		fprintf(f, "\", shape=%s%s];\n", shape(g->nodes[i].type),
			(int)i == g->root ? ", penwidth=2" : "");
	}
	for (size_t i = 0; i < g->nedges; i++) {
		const struct ex_edge *e = &g->edges[i];
		double share = ex_pct(e->weight, g->total);

		if ((double)e->weight < min_w || !used[e->from])
			continue;
		fprintf(f, "\tn%d -> n%d [label=\"%s", e->from, e->to,
			ex_dur((uint64_t)e->weight).s);
		/* The lock waited on (a futex, a file lock, a semaphore). */
		for (size_t k = 0; k < e->locks.n && k < 3; k++) {
			fputs("\\non ", f);
			lt_dot_text(f, e->locks.v[k], strlen(e->locks.v[k]));
		}
		if (e->locks.n > 3)
			fprintf(f, "\\nand %zu other locks", e->locks.n - 3);
		fprintf(f, "\", penwidth=%.1f, tooltip=\"%s\"];\n",
			1.0 + share / 20.0, ex_edge_kind_name(e->kind));
	}
	fprintf(f, "}\n");
	free(used);
	free(nin);
}
