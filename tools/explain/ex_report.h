/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_report.h - one explanation (a slow thread over a slow interval: its
 * graph and its classification) and the output formats: indented text tree
 * (DepGraph Figure 4), Graphviz DOT, JSON.
 */
#ifndef LT_EX_REPORT_H
#define LT_EX_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "ex_app.h"
#include "ex_classify.h"
#include "ex_critical.h"
#include "ex_graph.h"
#include "ex_lockview.h"
#include "ex_model.h"
#include "ex_stack.h"

struct ex_report {
	const struct ex_model *m;
	const char *trace;		/* the snapshot directory */
	char origin[96];		/* "latency_tracker_wakeup alert", "--at" */
	int tid;
	uint64_t start, end;
	struct ex_graph g;
	struct ex_class_report cr;
	struct ex_lockview lv;		/* the application's locks */
	const struct ex_crit *crit;	/* its criticality (the caller's), or NULL */
	struct ex_rstack *stacks;	/* our alerts' stacks on graph nodes */
	size_t nstacks;
	bool has_bdc;			/* a wakeup alert's breakdown, checked */
	struct ex_bd_check bdc;
};

/*
 * Build the graph, the classification, the stacks of tid over [s, e) and
 * the lock view of the application app (NULL: tid's process).
 */
void ex_report_build_app(struct ex_report *r, const struct ex_model *m,
			 const char *trace, int tid, uint64_t s, uint64_t e,
			 const struct ex_app *app);
/*
 * A thread's life ends at its sched_process_exit: *e is moved back to it
 * when [*s, *e) reaches past it (unless past_exit).  True when moved.
 */
bool ex_report_clip_exit(const struct ex_model *m, int tid, uint64_t s,
			 uint64_t *e, bool past_exit);
/* The same with the default application. */
void ex_report_build(struct ex_report *r, const struct ex_model *m,
		     const char *trace, int tid, uint64_t s, uint64_t e);
void ex_report_free(struct ex_report *r);

/* Edges below min_share (fraction of the total) are left out of the tree. */
void ex_out_text(FILE *f, const struct ex_report *r, double min_share);
/* Lines of the text report: at most this wide. */
#define EX_TEXT_COLS	100
/*
 * @text from column @col (already reached) to EX_TEXT_COLS, cut at spaces,
 * the next lines indented to @col, then a newline.  A word longer than a
 * line stays whole.
 */
void ex_text_wrapped(FILE *f, const char *text, int col);
void ex_out_dot(FILE *f, const struct ex_report *r, double min_share);
void ex_out_json(FILE *f, const struct ex_report *r);
/* The lock view alone as DOT (lockview.dot). */
void ex_out_lockview_dot(FILE *f, const struct ex_report *r);

/* Helpers shared by the formats. */
double ex_pct(uint64_t part, uint64_t total);
/*
 * A string as JSON (tools/lib/lt_json.h: UTF-8 as it is, other bytes as
 * \udcXX) and as a DOT string (tools/lib/lt_dot.h: other bytes shown as
 * \xHH); no byte is taken as a line break.
 */
void ex_json_str(FILE *f, const char *s);
void ex_dot_str(FILE *f, const char *s);

#endif /* LT_EX_REPORT_H */
