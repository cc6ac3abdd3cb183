// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_text.c - the explanation as text: state breakdown, the dependency
 * graph as an indented tree in the manner of DepGraph Figure 4
 * (thread (total) -> syscall (time, %) -> dependency (time, %)), the
 * classification by class and cause (with the evidence of a
 * synchronisation), the application's lock view and the stacks of our
 * alerts (marked [stack N] on the node they explain).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ex_fmt.h"
#include "ex_report.h"

#define EX_TREE_MAX_DEPTH 12
/* A cause's text starts here. */
#define EX_CAUSE_COL	22

void ex_text_wrapped(FILE *f, const char *text, int col)
{
	int room = EX_TEXT_COLS - col, used = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (used && used + 1 + (int)n > room) {
			fprintf(f, "\n%*s", col, "");
			used = 0;
		} else if (used) {
			fputc(' ', f);
			used++;
		}
		fprintf(f, "%.*s", (int)n, text);
		used += (int)n;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

static void tree(FILE *f, const struct ex_report *r, int node, char *prefix,
		 size_t plen, int *path, int depth, double min_share)
{
	const struct ex_graph *g = &r->g;
	int *out;
	size_t n = ex_graph_out_edges(g, node, &out), shown = 0;

	for (size_t i = 0; i < n; i++)
		shown += g->edges[out[i]].weight >= min_share * (double)g->total;
	for (size_t i = 0, k = 0; i < n; i++) {
		const struct ex_edge *e = &g->edges[out[i]];
		const struct ex_node *c = &g->nodes[e->to];
		bool last, loop = false;

		if (e->weight < min_share * (double)g->total)
			continue;
		last = ++k == shown;
		for (int d = 0; d < depth; d++)
			loop |= path[d] == e->to;
		fprintf(f, "%s%s %s (%s, %.1f%%", prefix, last ? "`-" : "|-",
			c->label, ex_dur((uint64_t)e->weight).s,
			ex_pct(e->weight, g->total));
		if (c->run_ns && (c->type == N_SYSCALL || c->type == N_USER))
			fprintf(f, "; running %s", ex_dur(c->run_ns).s);
		if (e->count > 1)
			fprintf(f, "; x%" PRIu64, e->count);
		fprintf(f, ")%s", loop ? " (cycle)" : "");
		for (size_t k = 0; k < r->nstacks; k++)
			if (r->stacks[k].node == e->to)
				fprintf(f, " [stack %zu]", k + 1);
		fputc('\n', f);
		if (loop || depth + 1 >= EX_TREE_MAX_DEPTH || plen + 4 >= 256)
			continue;
		snprintf(prefix + plen, 256 - plen, "%s", last ? "   " : "|  ");
		path[depth] = e->to;
		tree(f, r, e->to, prefix, plen + 3, path, depth + 1, min_share);
		prefix[plen] = '\0';
	}
	free(out);
}

/* The stacks of our alerts, numbered as marked in the tree. */
static void stacks(FILE *f, const struct ex_report *r)
{
	if (r->nstacks)
		fprintf(f, "\nstacks:\n");
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct ex_rstack *s = &r->stacks[i];
		const char *p = s->frames;

		fprintf(f, "  [stack %zu] %s of %s [%d], %s alert (%s, from %s to %s):\n",
			i + 1, s->context, ex_model_comm(r->m, s->tid), s->tid,
			s->tracker, ex_dur(s->delay).s, ex_ts(s->start).s,
			ex_ts(s->end).s);
		while (*p) {
			size_t n = strcspn(p, ";");

			fprintf(f, "      %.*s\n", (int)n, p);
			p += n + (p[n] == ';');
		}
	}
}

void ex_out_text(FILE *f, const struct ex_report *r, double min_share)
{
	const struct ex_class_report *cr = &r->cr;
	uint64_t total = r->end - r->start;

	fprintf(f, "%s [%d] from %s to %s (%s, %s)\n",
		ex_model_comm(r->m, r->tid), r->tid, ex_ts(r->start).s,
		ex_ts(r->end).s, ex_dur(total).s, r->origin);
	fprintf(f, "\nstates: running %s (%.1f%%), runnable %s (%.1f%%), blocked %s (%.1f%%)\n",
		ex_dur(cr->state_ns[ST_RUNNING]).s, ex_pct(cr->state_ns[ST_RUNNING], total),
		ex_dur(cr->state_ns[ST_RUNNABLE]).s, ex_pct(cr->state_ns[ST_RUNNABLE], total),
		ex_dur(cr->state_ns[ST_BLOCKED]).s, ex_pct(cr->state_ns[ST_BLOCKED], total));
	for (size_t i = 0; i < cr->nctx; i++) {
		const struct ex_ctx_time *c = &cr->ctx[i];

		fprintf(f, "  %-16s running %s, runnable %s, blocked %s",
			c->name, ex_dur(c->ns[ST_RUNNING]).s,
			ex_dur(c->ns[ST_RUNNABLE]).s, ex_dur(c->ns[ST_BLOCKED]).s);
		if (c->count)
			fprintf(f, " (%" PRIu64 " calls)", c->count);
		fputc('\n', f);
	}

	fprintf(f, "\nwaiting dependency graph:\n");
	if (r->g.root >= 0) {
		char prefix[256] = "";
		int path[EX_TREE_MAX_DEPTH];

		fprintf(f, "%s (%s)\n", r->g.nodes[r->g.root].label, ex_dur(total).s);
		path[0] = r->g.root;
		tree(f, r, r->g.root, prefix, 0, path, 1, min_share);
	}

	fprintf(f, "\nclassification:\n");
	for (int c = 0; c < C_NCLASS; c++) {
		if (!cr->class_ns[c])
			continue;
		fprintf(f, "  %-16s %9s %5.1f%%\n", ex_class_name(c),
			ex_dur(cr->class_ns[c]).s, ex_pct(cr->class_ns[c], total));
		for (size_t i = 0; i < cr->ncauses; i++) {
			const struct ex_cause *k = &cr->causes[i];
			char what[sizeof(k->what) + 16];

			if ((int)k->cls != c)
				continue;
			snprintf(what, sizeof(what), "%s", k->what);
			if (k->count > 1)
				snprintf(what + strlen(what), sizeof(what) - strlen(what),
					 " (x%" PRIu64 ")", k->count);
			fprintf(f, "    %9s %5.1f%%  ", ex_dur(k->ns).s,
				ex_pct(k->ns, total));
			ex_text_wrapped(f, what, EX_CAUSE_COL);
			if (k->evidence[0]) {
				fprintf(f, "%*sevidence: ", EX_CAUSE_COL, "");
				ex_text_wrapped(f, k->evidence, EX_CAUSE_COL + 10);
			}
		}
	}

	ex_lockview_text(f, r->m, &r->lv);
	stacks(f, r);
	if (r->crit)
		ex_out_critical_text(f, r->m, r->crit);
	if (r->m->discarded)
		fprintf(f, "\nnote: the tracer discarded %" PRIu64 " events; dependencies may be missing\n",
			r->m->discarded);
}
