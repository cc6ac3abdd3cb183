// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_json.c - the explanation as one JSON object: interval, states,
 * graph (nodes with weight and share, edges with weight, count, kind),
 * classification (classes, causes) and locks.  Times in ns.
 */
#include <inttypes.h>

#include "ex_report.h"

static void who_list(FILE *f, const struct ex_report *r,
		     const struct ex_who *w, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s{\"tid\":%d,\"comm\":", i ? "," : "", w[i].tid);
		ex_json_str(f, ex_model_comm(r->m, w[i].tid));
		fprintf(f, ",\"ns\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			w[i].ns, w[i].count);
	}
	fputc(']', f);
}

static void graph(FILE *f, const struct ex_graph *g)
{
	fprintf(f, "\"graph\":{\"root\":%d,\"total_ns\":%" PRIu64 ",\"nodes\":[",
		g->root, g->total);
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct ex_node *n = &g->nodes[i];
		uint64_t w = ex_graph_node_weight(g, (int)i);

		fprintf(f, "%s{\"id\":%zu,\"type\":\"%s\",\"label\":", i ? "," : "",
			i, ex_node_type_name(n->type));
		ex_json_str(f, n->label);
		fprintf(f, ",\"tid\":%d,\"weight_ns\":%" PRIu64 ",\"share\":%.4f,\"running_ns\":%" PRIu64 "}",
			n->tid, w, ex_pct(w, g->total) / 100.0, n->run_ns);
	}
	fprintf(f, "],\"edges\":[");
	for (size_t i = 0; i < g->nedges; i++) {
		const struct ex_edge *e = &g->edges[i];

		fprintf(f, "%s{\"from\":%d,\"to\":%d,\"kind\":\"%s\",\"weight_ns\":%" PRIu64 ",\"count\":%" PRIu64 ",\"share\":%.4f}",
			i ? "," : "", e->from, e->to, ex_edge_kind_name(e->kind),
			e->weight, e->count, ex_pct(e->weight, g->total) / 100.0);
	}
	fprintf(f, "]}");
}

void ex_out_json(FILE *f, const struct ex_report *r)
{
	const struct ex_class_report *cr = &r->cr;

	fprintf(f, "{\"trace\":");
	ex_json_str(f, r->trace ? r->trace : "");
	fprintf(f, ",\"origin\":");
	ex_json_str(f, r->origin);
	fprintf(f, ",\"tid\":%d,\"comm\":", r->tid);
	ex_json_str(f, ex_model_comm(r->m, r->tid));
	fprintf(f, ",\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"duration_ns\":%" PRIu64,
		r->start, r->end, r->end - r->start);
	fprintf(f, ",\"states\":{\"running_ns\":%" PRIu64 ",\"runnable_ns\":%" PRIu64 ",\"blocked_ns\":%" PRIu64 ",\"contexts\":[",
		cr->state_ns[ST_RUNNING], cr->state_ns[ST_RUNNABLE],
		cr->state_ns[ST_BLOCKED]);
	for (size_t i = 0; i < cr->nctx; i++) {
		fprintf(f, "%s{\"name\":", i ? "," : "");
		ex_json_str(f, cr->ctx[i].name);
		fprintf(f, ",\"running_ns\":%" PRIu64 ",\"runnable_ns\":%" PRIu64 ",\"blocked_ns\":%" PRIu64 ",\"calls\":%" PRIu64 "}",
			cr->ctx[i].ns[ST_RUNNING], cr->ctx[i].ns[ST_RUNNABLE],
			cr->ctx[i].ns[ST_BLOCKED], cr->ctx[i].count);
	}
	fprintf(f, "]},");
	graph(f, &r->g);
	fprintf(f, ",\"classification\":{");
	for (int c = 0; c < C_NCLASS; c++)
		fprintf(f, "%s\"%s\":{\"ns\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			c ? "," : "", ex_class_name(c), cr->class_ns[c],
			cr->class_count[c]);
	fprintf(f, ",\"causes\":[");
	for (size_t i = 0; i < cr->ncauses; i++) {
		fprintf(f, "%s{\"class\":\"%s\",\"what\":", i ? "," : "",
			ex_class_name(cr->causes[i].cls));
		ex_json_str(f, cr->causes[i].what);
		fprintf(f, ",\"ns\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			cr->causes[i].ns, cr->causes[i].count);
	}
	fprintf(f, "]},\"locks\":[");
	for (size_t i = 0; i < cr->nlocks; i++) {
		const struct ex_lock *l = &cr->locks[i];

		fprintf(f, "%s{\"uaddr\":\"0x%" PRIx64 "\",\"ns\":%" PRIu64 ",\"count\":%" PRIu64 ",\"max_ns\":%" PRIu64 ",\"waiters\":",
			i ? "," : "", (uint64_t)l->uaddr, l->ns, l->count, l->max_ns);
		who_list(f, r, l->waiters, l->nwaiters);
		fprintf(f, ",\"releasers\":");
		who_list(f, r, l->releasers, l->nreleasers);
		fputc('}', f);
	}
	fprintf(f, "],\"features\":{\"faults\":%" PRIu64 ",\"bytes_read\":%" PRIu64 ",\"bytes_written\":%" PRIu64 ",\"syscalls\":%" PRIu64 "},\"discarded_events\":%" PRIu64 "}\n",
		cr->faults, cr->bytes_read, cr->bytes_written, cr->syscalls,
		r->m->discarded);
}
