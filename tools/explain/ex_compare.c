// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_compare.c - groups of executions (DepGraph IV-A): per-execution
 * features, k-means clusters, a representative graph per cluster (the
 * merge of its executions' graphs), and the edge by edge comparison of
 * the fastest and the slowest cluster.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_compare.h"
#include "ex_depgraph.h"
#include "ex_kmeans.h"
#include "ex_util.h"

const char *const ex_feature_names[EX_NFEATURES] = {
	"duration_ns", "running_ns", "sync_ns", "io_ns", "cpu_ns", "timer_ns",
	"unknown_ns", "sync_count", "io_count", "cpu_count", "timer_count",
	"faults", "bytes_read", "bytes_written",
};

void ex_exec_features(const struct ex_class_report *cr, double *f)
{
	f[0] = (double)(cr->end - cr->start);
	f[1] = (double)cr->class_ns[C_RUNNING];
	f[2] = (double)cr->class_ns[C_SYNC];
	f[3] = (double)cr->class_ns[C_IO];
	f[4] = (double)cr->class_ns[C_CPU];
	f[5] = (double)cr->class_ns[C_TIMER];
	f[6] = (double)cr->class_ns[C_UNKNOWN];
	f[7] = (double)cr->class_count[C_SYNC];
	f[8] = (double)cr->class_count[C_IO];
	f[9] = (double)cr->class_count[C_CPU];
	f[10] = (double)cr->class_count[C_TIMER];
	f[11] = (double)cr->faults;
	f[12] = (double)cr->bytes_read;
	f[13] = (double)cr->bytes_written;
}

void ex_compare_cluster(struct ex_compare *cmp, int k)
{
	size_t n = cmp->nex;
	double *pts = ex_xmalloc(n * EX_NFEATURES * sizeof(double));
	int *assign = ex_xmalloc(n * sizeof(int));

	cmp->k = k;
	for (size_t i = 0; i < n; i++)
		memcpy(&pts[i * EX_NFEATURES], cmp->ex[i].feat, sizeof(cmp->ex[i].feat));
	ex_kmeans_normalize(pts, n, EX_NFEATURES);
	ex_kmeans(pts, n, EX_NFEATURES, k, assign);
	memset(cmp->cl, 0, sizeof(cmp->cl));
	for (int c = 0; c < k; c++)
		ex_graph_init(&cmp->cl[c].g, true);
	for (size_t i = 0; i < n; i++) {
		struct ex_cluster *c = &cmp->cl[assign[i]];

		cmp->ex[i].cluster = assign[i];
		c->n++;
		for (int j = 0; j < EX_NFEATURES; j++)
			c->mean[j] += cmp->ex[i].feat[j];
		ex_graph_merge(&c->g, &cmp->ex[i].g);
	}
	for (int c = 0; c < k; c++)
		for (int j = 0; j < EX_NFEATURES && cmp->cl[c].n; j++)
			cmp->cl[c].mean[j] /= (double)cmp->cl[c].n;
	/* Compare the fastest and the slowest cluster (mean duration). */
	cmp->left = cmp->right = 0;
	for (int c = 1; c < k; c++) {
		if (cmp->cl[c].n && cmp->cl[c].mean[0] < cmp->cl[cmp->left].mean[0])
			cmp->left = c;
		if (cmp->cl[c].n && cmp->cl[c].mean[0] > cmp->cl[cmp->right].mean[0])
			cmp->right = c;
	}
	free(pts);
	free(assign);
}

/* Weight of edge (from_key -> to_key) in one execution's graph. */
static double exec_weight(const struct ex_graph *g, const char *from,
			  const char *to)
{
	int a = ex_graph_find(g, from), b = ex_graph_find(g, to), e;

	if (a < 0 || b < 0)
		return 0;
	e = ex_graph_edge(g, a, b);
	return e < 0 ? 0 : (double)g->edges[e].weight;
}

static void edge_stats(const struct ex_compare *cmp, int cl, const char *from,
		       const char *to, double *mean, double *sd, size_t *present)
{
	double s = 0, s2 = 0;
	size_t n = 0;

	*present = 0;
	for (size_t i = 0; i < cmp->nex; i++) {
		double w;

		if (cmp->ex[i].cluster != cl)
			continue;
		w = exec_weight(&cmp->ex[i].g, from, to);
		*present += w > 0;
		s += w;
		s2 += w * w;
		n++;
	}
	*mean = n ? s / (double)n : 0;
	*sd = n ? s2 / (double)n - *mean * *mean : 0;
	*sd = *sd > 0 ? __builtin_sqrt(*sd) : 0;
}

/* Boldness level 1..5 from the mean difference over the left deviation. */
int ex_boldness(double mean_l, double mean_r, double sd_l)
{
	double diff = mean_r > mean_l ? mean_r - mean_l : mean_l - mean_r, z;

	if (sd_l <= 0)
		return diff > 0.01 * (mean_l > mean_r ? mean_l : mean_r) ? 5 : 1;
	z = diff / sd_l;
	return z < 0.5 ? 1 : z < 1 ? 2 : z < 2 ? 3 : z < 4 ? 4 : 5;
}

static void add_cmp_edge(struct ex_compare *cmp, const struct ex_graph *g,
			 const struct ex_edge *e)
{
	const char *from = g->nodes[e->from].key, *to = g->nodes[e->to].key;
	struct ex_cmp_edge *c;
	size_t pl, pr;
	double sdr;

	for (size_t i = 0; i < cmp->nedges; i++)
		if (!strcmp(cmp->edges[i].from, from) && !strcmp(cmp->edges[i].to, to))
			return;
	c = EX_PUSH(cmp->edges, cmp->nedges, cmp->cap_edges);
	c->from = from;
	c->to = to;
	c->from_label = g->nodes[e->from].label;
	c->to_label = g->nodes[e->to].label;
	c->kind = e->kind;
	edge_stats(cmp, cmp->left, from, to, &c->mean_l, &c->sd_l, &pl);
	edge_stats(cmp, cmp->right, from, to, &c->mean_r, &sdr, &pr);
	c->present_l = pl;
	c->present_r = pr;
	if (pl && !pr)
		c->status = CMP_ONLY_LEFT;
	else if (pr && !pl)
		c->status = CMP_ONLY_RIGHT;
	else
		c->status = CMP_BOTH;
	c->level = ex_boldness(c->mean_l, c->mean_r, c->sd_l);
}

void ex_compare_edges(struct ex_compare *cmp)
{
	const struct ex_graph *gl = &cmp->cl[cmp->left].g;
	const struct ex_graph *gr = &cmp->cl[cmp->right].g;

	for (size_t i = 0; i < gl->nedges; i++)
		add_cmp_edge(cmp, gl, &gl->edges[i]);
	for (size_t i = 0; i < gr->nedges; i++)
		add_cmp_edge(cmp, gr, &gr->edges[i]);
}

void ex_compare_free(struct ex_compare *cmp)
{
	for (size_t i = 0; i < cmp->nex; i++)
		ex_graph_free(&cmp->ex[i].g);
	free(cmp->ex);
	for (int c = 0; c < cmp->k; c++)
		ex_graph_free(&cmp->cl[c].g);
	free(cmp->edges);
	memset(cmp, 0, sizeof(*cmp));
}

