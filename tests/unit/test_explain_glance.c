// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_glance.c - issue 33: an explanation that reads at a glance
 * (item 4) and its SVG rendered without `dot` (item 7), on synthetic
 * snapshots with known answers:
 *
 *  - the states table and the graph count the same calls the same way;
 *    what the tree leaves out is said;
 *  - in the text tree no child is larger than its parent, though the
 *    graph merges a thread reached along two paths (its DOT node says it
 *    sums several edges);
 *  - the DOT draws no node disconnected from the root when lighter edges
 *    are left out;
 *  - a wait on a lock names the lock on its edge (text, DOT, JSON), cut to
 *    100 columns in the text when long;
 *  - -o writes explain-1.svg and lockview.svg with PATH empty (no `dot`
 *    process), and a DOT text Graphviz cannot read is a clear error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ex_model.h"
#include "ex_report.h"
#include "ex_svg.h"
#include "ex_trace.h"
#include "explain_feed.h"
#include "explain_run.h"
#include "tap.h"

#define FUTEX_ADDR 0x5a5a10
#define LT_F_SETLKW 7

static void wake(uint64_t ts, int cpu, int tid, int waker)
{
	event(EV_WAKING, ts, cpu, tid, waker);
}

/*
 * Thread 1 (CPU 0) blocks in futex(FUTEX_ADDR) from 1100 to 50100, woken
 * by thread 2 (CPU 1, in futex); later thread 2 takes CPU 0 from it
 * (runnable 60000 to 160000).  Thread 1 makes three reads meanwhile, the
 * second one preempted in it (two running intervals, one runnable).
 * Thread 2 is reached along two paths: the futex wait and the CPU wait.
 */
static void two_paths(void)
{
	ex_model_init(&m);
	sw(0, 0, 0, 0, 1);
	sw(0, 1, 0, 0, 2);
	sys(1000, 0, 1, true, "futex", FUTEX_ADDR);
	sw(1100, 0, 1, 1, 0);
	sys(50000, 1, 2, true, "futex", FUTEX_ADDR);
	wake(50100, 0, 1, 2);
	sys(50150, 1, 2, false, "futex", 1);
	sw(50200, 0, 0, 0, 1);
	sys(50300, 0, 1, false, "futex", 0);
	sys(51000, 0, 1, true, "read", 3);
	sys(52000, 0, 1, false, "read", 1);
	sys(53000, 0, 1, true, "read", 3);
	sw(54000, 0, 1, 0, 3);		/* preempted in read by 3 */
	sw(55000, 0, 3, 1, 1);
	sys(56000, 0, 1, false, "read", 1);
	sys(57000, 0, 1, true, "read", 3);
	sys(58000, 0, 1, false, "read", 1);
	sw(59000, 1, 2, 1, 0);		/* 2 sleeps on CPU 1 */
	wake(59900, 0, 2, 1);
	sw(60000, 0, 1, 0, 2);		/* 2 takes CPU 0 from 1 */
	sw(160000, 0, 2, 1, 1);
	sw(170000, 0, 1, 0, 0);
	ex_model_finish(&m);
}

/* The tree's lines: each child's share at most its parent's, unless the
 * parent says its children overlap. */
static bool child_le_parent(const char *text, char *bad, size_t badlen)
{
	const char *p = strstr(text, "waiting dependency graph:\n");
	double share[64];
	bool overlaps[64] = { false };

	if (!p)
		return false;
	p = strchr(p, '\n') + 1;
	share[0] = 100.0;
	p = strchr(p, '\n') + 1;	/* the root line */
	while (*p == '|' || *p == '`' || *p == ' ') {
		size_t n = strcspn(p, "\n"), col = 0;
		const char *pc = memchr(p, '%', n);
		int depth;
		double pct = 0;

		/* "|  " or "   " per level above, then "|-" or "`-". */
		while (col + 1 < n && p[col + 1] != '-')
			col += 3;
		depth = (int)(col / 3) + 1;
		/* ", 12.3%": the share, after the duration. */
		while (pc && pc > p && pc[-1] != ',')
			pc--;
		if (!pc || pc == p || depth >= 64 || sscanf(pc, "%lf%%", &pct) != 1) {
			snprintf(bad, badlen, "unreadable: %.*s", (int)n, p);
			return false;
		}
		if (pct > share[depth - 1] && !overlaps[depth - 1]) {
			snprintf(bad, badlen, "%.*s (parent %.1f%%)", (int)n, p,
				 share[depth - 1]);
			return false;
		}
		share[depth] = pct;
		overlaps[depth] = memmem(p, n, "(overlaps: ", 11) != NULL;
		p += n + (p[n] == '\n');
	}
	return true;
}

static char *text_of(const struct ex_report *r, double min_share, bool dot)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (dot)
		ex_out_dot(f, r, min_share);
	else
		ex_out_text(f, r, min_share);
	fclose(f);
	return buf;
}

/* The graph edge from the root to its context labelled name. */
static const struct ex_edge *root_ctx(const struct ex_graph *g, const char *name)
{
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].from == g->root &&
		    !strcmp(g->nodes[g->edges[i].to].label, name))
			return &g->edges[i];
	return NULL;
}

static void test_counts(void)
{
	struct ex_report r = { 0 };
	const struct ex_edge *e;
	uint64_t ns;
	char *t;
	bool same = true;

	two_paths();
	ex_report_build(&r, &m, "synthetic", 1, 500, 170000);
	for (size_t i = 0; i < r.cr.nctx; i++) {
		const struct ex_ctx_time *c = &r.cr.ctx[i];

		e = root_ctx(&r.g, c->name);
		ns = c->ns[0] + c->ns[1] + c->ns[2];
		if (!e || e->weight != ns || e->count != c->count) {
			tap_diag("%s: states %llu ns, %llu calls; graph %llu ns, %llu",
				 c->name, (unsigned long long)ns,
				 (unsigned long long)c->count,
				 (unsigned long long)(e ? e->weight : 0),
				 (unsigned long long)(e ? e->count : 0));
			same = false;
		}
	}
	e = root_ctx(&r.g, "read");
	tap_ok(same && e && e->count == 3,
	       "states table and graph: each context's time and calls the same (read: 3 calls)");
	t = text_of(&r, 0.005, false);
	tap_ok(strstr(t, "  read             running 4.000us, runnable 1.000us, blocked 0ns (3 calls)\n") &&
	       strstr(t, "- read (5.000us, 2.9%; running 4.000us; 3 calls)\n"),
	       "text: the states table's '3 calls' on the tree's read line");
	tap_ok(strstr(t, "\n(2 smaller edges under 0.5% of the interval not shown: --min-share)\n") != NULL,
	       "text: the edges the tree leaves out are said");
	free(t);
	ex_report_free(&r);
	ex_model_free(&m);
}

static void test_child_le_parent(void)
{
	struct ex_report r = { 0 };
	char bad[256] = "", *t;
	int two = -1;

	two_paths();
	ex_report_build(&r, &m, "synthetic", 1, 500, 170000);
	t = text_of(&r, 0.0, false);
	tap_ok(child_le_parent(t, bad, sizeof(bad)), "text tree: no child larger than its parent (%s)",
	       bad);
	tap_ok(strstr(t, "|  |- t2 [2] (49.00us, 28.9%) on futex 0x5a5a10\n"
			 "|  |  |- user space (48.90us, 28.8%; running 48.90us)\n") &&
	       strstr(t, "|  `- CPU 0 (100.0us, 59.0%)\n"
			 "|     `- t2 [2] (100.0us, 59.0%)\n"
			 "|        `- user space (100.0us, 59.0%; running 100.0us)\n"),
	       "text tree: thread 2 under each wait with that wait's time only");
	free(t);
	for (size_t i = 0; i < r.g.nnodes; i++)
		if (!strcmp(r.g.nodes[i].label, "t2 [2]"))
			two = (int)i;
	t = text_of(&r, 0.0, true);
	{
		char want[64];

		snprintf(want, sizeof(want), "\tn%d [label=\"t2 [2]\\n149.0us (87.9%%)\\nsum of 2 incoming edges\"", two);
		tap_ok(two >= 0 && strstr(t, want), "DOT: thread 2 says it sums its 2 incoming edges");
	}
	free(t);
	ex_report_free(&r);
	ex_model_free(&m);
}

/*
 * Thread 1 waits for CPU 0, held by thread 9, twice 3000 ns in user space
 * and twice 3000 ns in read (each edge 0.3% of 1 ms): CPU 0 -> 9 weighs
 * 1.2%, its edges in 0.6% each.  With --min-share 1%, the edges into
 * CPU 0 are left out: CPU 0 and 9 are too.
 */
static void test_connected(void)
{
	struct ex_report r = { 0 };
	char *t, *p;
	bool *drawn, *reach, ok = true;
	int root;

	ex_model_init(&m);
	sw(0, 0, 0, 0, 1);
	sw(100000, 0, 1, 0, 9);
	sw(103000, 0, 9, 1, 1);
	sys(200000, 0, 1, true, "read", 3);
	sw(201000, 0, 1, 0, 9);
	sw(204000, 0, 9, 1, 1);
	sys(205000, 0, 1, false, "read", 1);
	sw(300000, 0, 1, 0, 9);
	sw(303000, 0, 9, 1, 1);
	sys(400000, 0, 1, true, "read", 3);
	sw(401000, 0, 1, 0, 9);
	sw(404000, 0, 9, 1, 1);
	sys(405000, 0, 1, false, "read", 1);
	sw(1000000, 0, 1, 0, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 1, 0, 1000000);
	t = text_of(&r, 0.01, true);
	drawn = calloc(r.g.nnodes, sizeof(*drawn));
	reach = calloc(r.g.nnodes, sizeof(*reach));
	root = r.g.root;
	/* The nodes drawn, then those the drawn edges reach from the root. */
	for (p = strstr(t, "\tn"); p; p = strstr(p + 1, "\tn")) {
		int a, b;

		if (sscanf(p, "\tn%d -> n%d", &a, &b) == 2)
			continue;
		if (sscanf(p, "\tn%d [", &a) == 1 && a >= 0 && (size_t)a < r.g.nnodes)
			drawn[a] = true;
	}
	reach[root] = true;
	for (int round = 0; round < 8; round++)
		for (p = strstr(t, "\tn"); p; p = strstr(p + 1, "\tn")) {
			int a, b;

			if (sscanf(p, "\tn%d -> n%d", &a, &b) == 2 && reach[a])
				reach[b] = true;
		}
	for (size_t i = 0; i < r.g.nnodes; i++)
		if (drawn[i] && !reach[i]) {
			tap_diag("drawn but not connected to the root: %s", r.g.nodes[i].label);
			ok = false;
		}
	tap_ok(ok && !strstr(t, "label=\"CPU 0"), "DOT: no node disconnected from the root");
	free(t);
	free(drawn);
	free(reach);
	ex_report_free(&r);
	ex_model_free(&m);
}

/* Thread 1 waits in fcntl(F_SETLKW) on a file with a long name, released
 * by thread 2: the tree's line names the lock, cut to 100 columns. */
static void test_lock_label(void)
{
	struct ex_report r = { 0 };
	char path[200], *t;
	size_t longest = 0;
	const char *line;

	memset(path, 'x', sizeof(path) - 1);
	memcpy(path, "/tmp/", 5);
	path[sizeof(path) - 1] = '\0';
	ex_model_init(&m);
	sw(0, 0, 0, 0, 1);
	sw(0, 1, 0, 0, 2);
	sys_call(1000, 0, 1, "openat", true, -100, -1, path, 0);
	sys_call(1010, 0, 1, "openat", false, -1, -1, NULL, 4);
	sys_call(2000, 0, 1, "fcntl", true, 4, LT_F_SETLKW, NULL, 0);
	sw(2100, 0, 1, 1, 0);
	sys_call(149000, 1, 2, "fcntl", true, 3, 6, NULL, 0);
	wake(150000, 0, 1, 2);
	sys_call(150100, 1, 2, "fcntl", false, -1, -1, NULL, 0);
	sw(150200, 0, 0, 0, 1);
	sys_call(150300, 0, 1, "fcntl", false, -1, -1, NULL, 0);
	sw(160000, 0, 1, 0, 0);
	sw(160000, 1, 2, 1, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 1, 0, 160000);
	t = text_of(&r, 0.005, false);
	/* The tree's lines (a long file name is whole in the others). */
	for (const char *p = strstr(t, "waiting dependency graph:"); p && *p &&
	     strncmp(p, "\nclassification:", 16);) {
		size_t n = strcspn(p, "\n");

		longest = n > longest ? n : longest;
		p += n + (p[n] == '\n');
	}
	line = strstr(t, "`- t2 [2] (147.9us, 92.4%) on file lock /tmp/xxxx");
	tap_ok(line && strstr(line, "...\n") && longest <= 100,
	       "text tree: the file lock on its wait edge, cut to 100 columns (longest %zu)", longest);
	free(t);
	t = text_of(&r, 0.005, true);
	tap_ok(strstr(t, "[label=\"147.9us\\non file lock /tmp/xxxx") != NULL,
	       "DOT: the file lock on the wait edge's label");
	free(t);
	ex_report_free(&r);
	ex_model_free(&m);
}

/* The CLI's snapshot: two_paths(). */
int ex_trace_read(const char *path, struct ex_model *out, char *err,
		  size_t errlen)
{
	if (strcmp(path, "synthetic")) {
		snprintf(err, errlen, "%s: not a trace directory", path);
		return -1;
	}
	two_paths();
	*out = m;
	memset(&m, 0, sizeof(m));
	return 0;
}

static char outbuf[1 << 16], errbuf[4096];

/* A well-formed SVG file: the XML prolog, <svg, and </svg> at its end. */
static bool svg_file(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return !strncmp(buf, "<?xml", 5) && strstr(buf, "<svg") &&
	       n > 6 && !strcmp(buf + n - 6, "</svg>");
}

static void test_svg(void)
{
	char dir[] = "/tmp/lt-explain-glance.XXXXXX", out[128], path[192];
	char err[512], *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	int ret;

	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp");
		return;
	}
	snprintf(out, sizeof(out), "%s/out", dir);
	setenv("PATH", "", 1);		/* no `dot` to run */
	ret = explain_run((const char *[]){ "synthetic", "--tid", "1", "-o", out, NULL },
			  outbuf, sizeof(outbuf), errbuf, sizeof(errbuf));
	snprintf(path, sizeof(path), "%s/explain-1.svg", out);
	tap_ok(ret == 0 && svg_file(path) && strstr(outbuf, "graph: "),
	       "-o with PATH empty: explain-1.svg rendered in the process (%d: %s)", ret, errbuf);
	snprintf(path, sizeof(path), "%s/lockview.svg", out);
	tap_ok(svg_file(path) && strstr(outbuf, "lock view: "),
	       "-o with PATH empty: lockview.svg rendered as the graph is");
	snprintf(path, sizeof(path), "%s/bad.svg", dir);
	ret = ex_svg_render("digraph g { a -> ", path, err, sizeof(err));
	tap_ok(ret == -1 && strstr(err, "Graphviz: the DOT text does not parse") &&
	       strstr(err, "syntax error") && access(path, F_OK) != 0,
	       "DOT Graphviz cannot read: a clear error (%s), no file", err);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		tap_diag("could not remove %s", dir);
}

int main(void)
{
	tap_plan(12);
	(void)edge;
	test_counts();
	test_child_le_parent();
	test_connected();
	test_lock_label();
	test_svg();
	return tap_done();
}
