// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_json.c - the explanation as one JSON object: interval, states,
 * graph (nodes with weight and share, edges with weight, count, kind and
 * the locks a wait was on),
 * classification (classes, causes with the evidence of a synchronisation),
 * the application's lock view ("locks", ex_lockview.h) and the stacks of
 * our alerts on the graph nodes they explain.  Times in ns.
 */
#include <inttypes.h>
#include <string.h>

#include "ex_report.h"
#include "lt_json.h"

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

		fprintf(f, "%s{\"from\":%d,\"to\":%d,\"kind\":\"%s\",\"weight_ns\":%" PRIu64 ",\"count\":%" PRIu64 ",\"share\":%.4f",
			i ? "," : "", e->from, e->to, ex_edge_kind_name(e->kind),
			e->weight, e->count, ex_pct(e->weight, g->total) / 100.0);
		/* The locks waited on (woken_by), as the lock view names them. */
		if (e->locks.n) {
			fprintf(f, ",\"locks\":[");
			for (size_t k = 0; k < e->locks.n; k++) {
				if (k)
					fputc(',', f);
				ex_json_str(f, e->locks.v[k]);
			}
			fputc(']', f);
		}
		fputc('}', f);
	}
	fprintf(f, "]}");
}

/* Our alerts' stacks: the node each explains, its frames. */
static void stacks(FILE *f, const struct ex_report *r)
{
	fputc('[', f);
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct ex_rstack *s = &r->stacks[i];
		const char *p = s->frames;

		fprintf(f, "%s{\"node\":%d,\"tid\":%d,\"tracker\":", i ? "," : "",
			s->node, s->tid);
		ex_json_str(f, s->tracker);
		fprintf(f, ",\"context\":");
		ex_json_str(f, s->context);
		fprintf(f, ",\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"delay_ns\":%" PRIu64 ",\"frames\":[",
			s->start, s->end, s->delay);
		for (bool first = true; *p; first = false) {
			size_t n = strcspn(p, ";");

			if (!first)
				fputc(',', f);
			lt_json_str(f, p, n);
			p += n + (p[n] == ';');
		}
		fprintf(f, "]}");
	}
	fputc(']', f);
}

/*
 * "breakdown": a wakeup record's parts and tops against the snapshot's:
 * {"cpu","window_ns","tolerance_ns","covered","differ", "parts":{KIND:
 * {"record_ns","snapshot_ns","differs"}}, "tops":{KIND:{"record",
 * "snapshot","differs"}}}, then a comma.
 */
static void breakdown(FILE *f, const struct ex_bd_check *k)
{
	fprintf(f, "\"breakdown\":{\"cpu\":%d,\"window_ns\":%" PRIu64
		",\"tolerance_ns\":%" PRIu64 ",\"covered\":%s,\"differ\":%d,\"parts\":{",
		k->rec.cpu, k->window, k->tolerance,
		k->covered ? "true" : "false", k->ndiffer);
	for (int i = 0; i < EX_BD_KINDS; i++)
		fprintf(f, "%s\"%s\":{\"record_ns\":%" PRIu64 ",\"snapshot_ns\":%"
			PRIu64 ",\"differs\":%s}", i ? "," : "",
			ex_bd_kind_name(i), k->rec.ns[i], k->snap[i],
			k->differs[i] ? "true" : "false");
	fprintf(f, "},\"tops\":{");
	for (int i = 0; i <= EX_BD_THREAD; i++) {
		fprintf(f, "%s\"%s\":{\"record\":", i ? "," : "",
			ex_bd_kind_name(i));
		ex_json_str(f, k->rec.top[i]);
		fprintf(f, ",\"snapshot\":");
		ex_json_str(f, k->snap_top[i]);
		fprintf(f, ",\"differs\":%s}", k->top_differs[i] ? "true" : "false");
	}
	fprintf(f, "}},");
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
	if (r->has_bdc)
		breakdown(f, &r->bdc);
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
		if (cr->causes[i].evidence[0]) {
			fprintf(f, ",\"evidence\":");
			ex_json_str(f, cr->causes[i].evidence);
		}
		fprintf(f, ",\"ns\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			cr->causes[i].ns, cr->causes[i].count);
	}
	fprintf(f, "]},\"locks\":");
	ex_lockview_json(f, r->m, &r->lv);
	fprintf(f, ",\"lock_pids\":[");
	for (size_t i = 0; i < r->lv.npids; i++)
		fprintf(f, "%s%d", i ? "," : "", r->lv.pids[i]);
	fprintf(f, "],\"stacks\":");
	stacks(f, r);
	if (r->crit) {
		fprintf(f, ",\"criticality\":");
		ex_out_critical_json(f, r->m, r->crit);
	}
	fprintf(f, ",\"features\":{\"faults\":%" PRIu64 ",\"bytes_read\":%" PRIu64 ",\"bytes_written\":%" PRIu64 ",\"syscalls\":%" PRIu64 "},\"discarded_events\":%" PRIu64 "}\n",
		cr->faults, cr->bytes_read, cr->bytes_written, cr->syscalls,
		r->m->discarded);
}
