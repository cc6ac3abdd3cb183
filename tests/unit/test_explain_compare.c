// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_compare.c - k-means on known groups, the boldness levels,
 * and the comparison of two clusters of executions (DepGraph IV-A): an
 * edge present only in the slow executions is reported only there.
 */
#include <string.h>

#include "ex_compare.h"
#include "ex_kmeans.h"
#include "ex_util.h"
#include "tap.h"

static void test_kmeans(void)
{
	/* Two groups of 2-D points, far apart; one more point near each. */
	double pts[] = {
		1, 1,  1.2, 0.9,  0.8, 1.1,  1, 1.05,
		10, 10,  10.5, 9.5,  9.7, 10.2,
	};
	int a[7];
	size_t n = 7;

	ex_kmeans_normalize(pts, n, 2);
	tap_ok(pts[8] > 0.9 && pts[8] <= 1.0, "normalize: largest value becomes <= 1");
	ex_kmeans(pts, n, 2, 2, a);
	tap_ok(a[0] == a[1] && a[1] == a[2] && a[2] == a[3], "k-means: first group together");
	tap_ok(a[4] == a[5] && a[5] == a[6], "k-means: second group together");
	tap_ok(a[0] != a[4], "k-means: groups apart");
	tap_eq(a[0], 0, "k-means: clusters numbered by first member");
	ex_kmeans(pts, n, 2, 3, a);
	tap_ok(a[0] != a[4], "k-means with k=3 keeps the groups apart");
}

static void test_boldness(void)
{
	tap_eq(ex_boldness(100, 100, 10), 1, "boldness: no difference -> 1");
	tap_eq(ex_boldness(100, 107, 10), 2, "boldness: 0.7 sd -> 2");
	tap_eq(ex_boldness(100, 150, 10), 5, "boldness: 5 sd -> 5");
	tap_eq(ex_boldness(100, 130, 10), 4, "boldness: 3 sd -> 4");
	tap_eq(ex_boldness(100, 200, 0), 5, "boldness: no deviation, a difference -> 5");
}

/* One execution: worker runs `run` ns in user space, and when wait > 0
 * waits `wait` ns in futex for the holder. */
static void exec_add(struct ex_compare *cmp, uint64_t run, uint64_t wait)
{
	struct ex_exec *x = ex_push(&cmp->ex, &cmp->nex, &cmp->cap_ex, sizeof(*x));
	struct ex_class_report cr = { 0 };
	int w, u;

	ex_graph_init(&x->g, true);
	w = ex_graph_node(&x->g, N_THREAD, 1, "ex_worker", "");
	u = ex_graph_node(&x->g, N_USER, 1, "ex_worker", "user space");
	x->g.root = w;
	x->g.total = run + wait;
	ex_graph_add(&x->g, w, u, E_CONTEXT, run);
	if (wait) {
		int f, h;

		f = ex_graph_node(&x->g, N_SYSCALL, 1, "ex_worker", "futex");
		h = ex_graph_node(&x->g, N_THREAD, 2, "ex_holder", "");
		ex_graph_add(&x->g, w, f, E_CONTEXT, wait);
		ex_graph_add(&x->g, f, h, E_WOKEN_BY, wait);
	}
	cr.start = 0;
	cr.end = run + wait;
	cr.class_ns[C_RUNNING] = run;
	cr.class_ns[C_SYNC] = wait;
	cr.class_count[C_SYNC] = wait ? 1 : 0;
	ex_exec_features(&cr, x->feat);
}

static void test_compare(void)
{
	struct ex_compare cmp = { 0 };
	const struct ex_cmp_edge *futex = NULL, *user = NULL;
	uint64_t runs[] = { 3000000, 3100000, 2900000, 3050000, 3200000, 2950000 };

	for (int i = 0; i < 6; i++)
		exec_add(&cmp, runs[i], 0);
	exec_add(&cmp, 3000000, 95000000);
	exec_add(&cmp, 3100000, 90000000);
	exec_add(&cmp, 2900000, 98000000);
	ex_compare_cluster(&cmp, 2);
	ex_compare_edges(&cmp);
	tap_eq(cmp.cl[cmp.left].n, 6, "compare: fast cluster has the 6 fast executions");
	tap_eq(cmp.cl[cmp.right].n, 3, "compare: slow cluster has the 3 slow ones");
	for (size_t i = 0; i < cmp.nedges; i++) {
		if (!strcmp(cmp.edges[i].from_label, "futex") &&
		    !strcmp(cmp.edges[i].to_label, "ex_holder"))
			futex = &cmp.edges[i];
		if (!strcmp(cmp.edges[i].to_label, "user space"))
			user = &cmp.edges[i];
	}
	tap_ok(futex && futex->status == CMP_ONLY_RIGHT, "compare: futex -> ex_holder only in the slow group");
	tap_ok(futex && futex->present_r == 3, "compare: in every slow execution");
	tap_ok(user && user->status == CMP_BOTH, "compare: user space in both groups");
	tap_ok(user && user->level <= 2, "compare: ... with about the same weight (level %d)",
	       user ? user->level : -1);
	{
		char buf[8192] = "";
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

		ex_out_compare_dot(f, &cmp, 0.005);
		fclose(f);
		tap_ok(strstr(buf, "\"syscall:ex_worker:futex\" -> \"thread:ex_holder\" [style=dotted") != NULL,
		       "compare DOT: the slow-only edge is dotted");
	}
	ex_compare_free(&cmp);
}

int main(void)
{
	tap_plan(18);
	test_kmeans();
	test_boldness();
	test_compare();
	return tap_done();
}
