/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_kmeans.h - k-means clustering of execution feature vectors
 * (DepGraph IV-A), deterministic: farthest-point seeding, Lloyd iterations.
 */
#ifndef LT_EX_KMEANS_H
#define LT_EX_KMEANS_H

#include <stddef.h>

/* Scale every dimension of the n x d row-major points to [0, 1] by its
 * largest absolute value (dimensions that are all zero stay zero). */
void ex_kmeans_normalize(double *pts, size_t n, size_t d);

/* Cluster n points of dimension d into k clusters (1 <= k <= n); writes
 * each point's cluster to assign[] and returns the within-cluster sum of
 * squared distances.  Clusters are numbered by their first member. */
double ex_kmeans(const double *pts, size_t n, size_t d, int k, int *assign);

#endif /* LT_EX_KMEANS_H */
