// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_out_text.c - the explanation as text: state breakdown, the dependency
 * graph as an indented tree in the manner of DepGraph Figure 4
 * (thread (total) -> syscall (time, %) -> dependency (time, %)) along its
 * paths (ex_graph.h: a child within its parent), a wait's lock on its
 * line, the number of edges left out under --min-share; the
 * classification by class and cause (with the evidence of a
 * synchronisation), the application's lock view and the stacks of our
 * alerts (marked [stack N] on the node they explain).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ex_fmt.h"
#include "ex_report.h"
#include "ex_util.h"

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

/* A tree line's parts: what it may not cut, and the lock it may cut. */
struct tline {
	char head[512], lock[EX_SYNC_TEXT + 64], marks[128];
};

/* "on futex 0x7f..", "on futex 0x1 and 2 other locks". */
static void lock_text(char *buf, size_t size, const struct ex_locks *l)
{
	buf[0] = '\0';
	if (!l->n)
		return;
	if (l->n == 1)
		snprintf(buf, size, " on %s", l->v[0]);
	else
		snprintf(buf, size, " on %s and %zu other lock%s", l->v[0],
			 l->n - 1, l->n > 2 ? "s" : "");
}

/*
 * The line at most EX_TEXT_COLS wide: the lock's name is what gives way
 * (cut, "..." at its end), then the head, which is short in practice.
 */
static void tline_put(FILE *f, const struct tline *t)
{
	int room = EX_TEXT_COLS - (int)strlen(t->head) - (int)strlen(t->marks);
	int lock = (int)strlen(t->lock);

	if (lock > room && room > 8)
		fprintf(f, "%s%.*s...%s\n", t->head, room - 3, t->lock, t->marks);
	else if (lock > room)
		fprintf(f, "%s%s\n", t->head, t->marks);
	else
		fprintf(f, "%s%s%s\n", t->head, t->lock, t->marks);
}

/* Children of tree edge te overlapping in time (their sum is larger):
 * the reason, or NULL. */
static const char *overlap(const struct ex_graph *g, int te)
{
	const struct ex_tedge *t = &g->tedges[te];
	uint64_t sum = 0;

	for (int c = t->child; c >= 0; c = g->tedges[c].next)
		sum += g->tedges[c].weight;
	if (sum <= t->weight)
		return NULL;
	return g->nodes[t->to].type == N_DISK ? "requests in flight together"
					       : "children at the same time";
}

/*
 * The tree edges under te (-1: the root), heaviest first; those under
 * min_share of the interval are left out (with what is under them) and
 * counted in *hidden.  path[]: the nodes above, for cycles.
 */
static void tree(FILE *f, const struct ex_report *r, int te, char *prefix,
		 size_t plen, int *path, int depth, double min_share,
		 size_t *hidden)
{
	const struct ex_graph *g = &r->g;
	int *out;
	size_t n = ex_graph_tree_children(g, te, &out), shown = 0;
	struct tline *t = ex_xcalloc(1, sizeof(*t));

	for (size_t i = 0; i < n; i++)
		shown += g->tedges[out[i]].weight >= min_share * (double)g->total;
	*hidden += n - shown;
	for (size_t i = 0, k = 0; i < n; i++) {
		const struct ex_tedge *e = &g->tedges[out[i]];
		const struct ex_node *c = &g->nodes[e->to];
		const char *why = overlap(g, out[i]);
		bool last, loop = false;
		size_t len;

		if (e->weight < min_share * (double)g->total)
			continue;
		last = ++k == shown;
		for (int d = 0; d < depth; d++)
			loop |= path[d] == e->to;
		len = (size_t)snprintf(t->head, sizeof(t->head), "%s%s %s (%s, %.1f%%",
				       prefix, last ? "`-" : "|-", c->label,
				       ex_dur((uint64_t)e->weight).s,
				       ex_pct(e->weight, g->total));
		/* Its running time on this path (the node's is of all). */
		if (e->run_ns && (c->type == N_SYSCALL || c->type == N_USER) &&
		    len < sizeof(t->head))
			len += (size_t)snprintf(t->head + len, sizeof(t->head) - len,
						"; running %s", ex_dur(e->run_ns).s);
		/* A context counts calls, as the states table does. */
		if (e->kind == E_CONTEXT && e->count && len < sizeof(t->head))
			len += (size_t)snprintf(t->head + len, sizeof(t->head) - len,
						"; %" PRIu64 " call%s", e->count,
						e->count > 1 ? "s" : "");
		else if (e->count > 1 && len < sizeof(t->head))
			len += (size_t)snprintf(t->head + len, sizeof(t->head) - len,
						"; x%" PRIu64, e->count);
		if (len < sizeof(t->head))
			snprintf(t->head + len, sizeof(t->head) - len, ")");
		lock_text(t->lock, sizeof(t->lock), &e->locks);
		len = (size_t)snprintf(t->marks, sizeof(t->marks), "%s",
				       loop ? " (cycle)" : "");
		if (why && len < sizeof(t->marks))
			len += (size_t)snprintf(t->marks + len, sizeof(t->marks) - len,
						" (overlaps: %s)", why);
		for (size_t s = 0; s < r->nstacks && len < sizeof(t->marks); s++)
			if (r->stacks[s].node == e->to)
				len += (size_t)snprintf(t->marks + len,
							sizeof(t->marks) - len,
							" [stack %zu]", s + 1);
		tline_put(f, t);
		if (loop || depth + 1 >= EX_TREE_MAX_DEPTH || plen + 4 >= 256)
			continue;
		snprintf(prefix + plen, 256 - plen, "%s", last ? "   " : "|  ");
		path[depth] = e->to;
		tree(f, r, out[i], prefix, plen + 3, path, depth + 1, min_share,
		     hidden);
		prefix[plen] = '\0';
	}
	free(t);
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

/* A wakeup record's breakdown against the snapshot's (ex_breakdown.h). */
static void breakdown(FILE *f, const struct ex_bd_check *k)
{
	fprintf(f, "\nbreakdown (the record's against the snapshot's, CPU %d, the %s before the switch-in):\n",
		k->rec.cpu, ex_dur(k->window).s);
	if (!k->covered) {
		fprintf(f, "  not checked: the snapshot does not cover that span of CPU %d\n",
			k->rec.cpu);
		return;
	}
	for (int i = 0; i < EX_BD_KINDS; i++)
		fprintf(f, "  %-8s record %9s  snapshot %9s%s\n", ex_bd_kind_name(i),
			ex_dur(k->rec.ns[i]).s, ex_dur(k->snap[i]).s,
			k->differs[i] ? "  DIFFERS" : "");
	for (int i = 0; i <= EX_BD_THREAD; i++)
		fprintf(f, "  top_%-8s record %s  snapshot %s%s\n", ex_bd_kind_name(i),
			k->rec.top[i], k->snap_top[i],
			k->top_differs[i] ? "  DIFFERS" : "");
	if (k->ndiffer)
		fprintf(f, "  %d of %d differ by more than %s\n", k->ndiffer,
			EX_BD_KINDS + EX_BD_THREAD + 1,
			ex_dur(k->tolerance).s);
	else
		fprintf(f, "  all agree within %s\n", ex_dur(k->tolerance).s);
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
			fprintf(f, " (%" PRIu64 " call%s)", c->count,
				c->count > 1 ? "s" : "");
		fputc('\n', f);
	}
	if (r->has_bdc)
		breakdown(f, &r->bdc);

	fprintf(f, "\nwaiting dependency graph:\n");
	if (r->g.root >= 0) {
		char prefix[256] = "";
		int path[EX_TREE_MAX_DEPTH];

		size_t hidden = 0;

		fprintf(f, "%s (%s)\n", r->g.nodes[r->g.root].label, ex_dur(total).s);
		path[0] = r->g.root;
		tree(f, r, -1, prefix, 0, path, 1, min_share, &hidden);
		/* Why the tree shows less than the states table. */
		if (hidden)
			fprintf(f, "(%zu smaller edge%s under %.1f%% of the interval not shown: --min-share)\n",
				hidden, hidden > 1 ? "s" : "", 100.0 * min_share);
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
