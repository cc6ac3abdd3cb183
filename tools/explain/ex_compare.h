/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_compare.h - groups of executions (DepGraph IV-A): features, k-means
 * clusters with a representative (merged) graph each, and the comparison
 * of two clusters edge by edge: only in the left (fast) cluster -> dashed,
 * only in the right (slow) cluster -> dotted, in both -> a boldness level
 * 1..5 from the difference of the means over the left standard deviation.
 */
#ifndef LT_EX_COMPARE_H
#define LT_EX_COMPARE_H

#include <stdio.h>

#include "ex_classify.h"
#include "ex_graph.h"

#define EX_NFEATURES 14
#define EX_MAX_K 4

extern const char *const ex_feature_names[EX_NFEATURES];

struct ex_exec {
	const char *trace;
	int tid;
	uint64_t start, end;
	double feat[EX_NFEATURES];
	struct ex_graph g;		/* threads by name */
	int cluster;
};

struct ex_cluster {
	size_t n;
	double mean[EX_NFEATURES];
	struct ex_graph g;		/* merged graphs of its executions */
};

enum ex_cmp_status { CMP_BOTH, CMP_ONLY_LEFT, CMP_ONLY_RIGHT };

struct ex_cmp_edge {
	const char *from, *to;		/* node keys (in a cluster graph) */
	const char *from_label, *to_label;
	enum ex_edge_kind kind;
	double mean_l, mean_r, sd_l;	/* ns per execution */
	size_t present_l, present_r;	/* executions having the edge */
	enum ex_cmp_status status;
	int level;
};

struct ex_compare {
	struct ex_exec *ex;
	size_t nex, cap_ex;
	int k;
	struct ex_cluster cl[EX_MAX_K];
	int left, right;		/* fastest, slowest cluster */
	struct ex_cmp_edge *edges;
	size_t nedges, cap_edges;
};

void ex_exec_features(const struct ex_class_report *cr, double *f);
/* Cluster cmp->ex (features and graphs filled) into k clusters. */
void ex_compare_cluster(struct ex_compare *cmp, int k);
/* Compare cluster left with cluster right, edge by edge. */
void ex_compare_edges(struct ex_compare *cmp);
int ex_boldness(double mean_l, double mean_r, double sd_l);
void ex_compare_free(struct ex_compare *cmp);

void ex_out_compare_text(FILE *f, const struct ex_compare *cmp, double min_share);
void ex_out_compare_dot(FILE *f, const struct ex_compare *cmp, double min_share);
void ex_out_compare_json(FILE *f, const struct ex_compare *cmp);

#endif /* LT_EX_COMPARE_H */
