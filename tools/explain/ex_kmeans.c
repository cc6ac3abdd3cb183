// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_kmeans.c - k-means over execution features.  Seeding: the point
 * nearest the origin (a "fast" execution: least time everywhere), then
 * repeatedly the point farthest from every chosen centroid, so the result
 * does not depend on a random generator.  Then Lloyd's iterations until
 * the assignment is stable.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ex_kmeans.h"
#include "ex_util.h"

#define EX_KMEANS_MAX_ITER 100

void ex_kmeans_normalize(double *pts, size_t n, size_t d)
{
	for (size_t j = 0; j < d; j++) {
		double mx = 0;

		for (size_t i = 0; i < n; i++)
			if (fabs(pts[i * d + j]) > mx)
				mx = fabs(pts[i * d + j]);
		if (mx > 0)
			for (size_t i = 0; i < n; i++)
				pts[i * d + j] /= mx;
	}
}

static double dist2(const double *a, const double *b, size_t d)
{
	double s = 0;

	for (size_t j = 0; j < d; j++)
		s += (a[j] - b[j]) * (a[j] - b[j]);
	return s;
}

static void seed(const double *pts, size_t n, size_t d, int k, double *cent)
{
	double *zero = ex_xcalloc(d, sizeof(double));
	double *near = ex_xmalloc(n * sizeof(double));
	size_t first = 0;

	for (size_t i = 1; i < n; i++)
		if (dist2(&pts[i * d], zero, d) < dist2(&pts[first * d], zero, d))
			first = i;
	memcpy(cent, &pts[first * d], d * sizeof(double));
	for (size_t i = 0; i < n; i++)
		near[i] = dist2(&pts[i * d], cent, d);
	for (int c = 1; c < k; c++) {
		size_t far = 0;

		for (size_t i = 1; i < n; i++)
			if (near[i] > near[far])
				far = i;
		memcpy(&cent[c * d], &pts[far * d], d * sizeof(double));
		for (size_t i = 0; i < n; i++) {
			double x = dist2(&pts[i * d], &cent[c * d], d);

			if (x < near[i])
				near[i] = x;
		}
	}
	free(zero);
	free(near);
}

/* Renumber clusters in order of first appearance. */
static void renumber(int *assign, size_t n, int k)
{
	int *map = ex_xmalloc((size_t)k * sizeof(int)), next = 0;

	for (int c = 0; c < k; c++)
		map[c] = -1;
	for (size_t i = 0; i < n; i++) {
		if (map[assign[i]] < 0)
			map[assign[i]] = next++;
		assign[i] = map[assign[i]];
	}
	free(map);
}

double ex_kmeans(const double *pts, size_t n, size_t d, int k, int *assign)
{
	double *cent = ex_xcalloc((size_t)k * d, sizeof(double));
	size_t *cnt = ex_xcalloc((size_t)k, sizeof(size_t));
	double inertia = 0;

	seed(pts, n, d, k, cent);
	for (size_t i = 0; i < n; i++)
		assign[i] = -1;
	for (int it = 0; it < EX_KMEANS_MAX_ITER; it++) {
		bool changed = false;

		for (size_t i = 0; i < n; i++) {
			int best = 0;

			for (int c = 1; c < k; c++)
				if (dist2(&pts[i * d], &cent[c * d], d) <
				    dist2(&pts[i * d], &cent[best * d], d))
					best = c;
			changed |= assign[i] != best;
			assign[i] = best;
		}
		if (!changed)
			break;
		memset(cnt, 0, (size_t)k * sizeof(size_t));
		for (int c = 0; c < k; c++)
			for (size_t j = 0; j < d; j++)
				cent[c * d + j] = 0;
		for (size_t i = 0; i < n; i++) {
			cnt[assign[i]]++;
			for (size_t j = 0; j < d; j++)
				cent[assign[i] * d + j] += pts[i * d + j];
		}
		for (int c = 0; c < k; c++)
			for (size_t j = 0; j < d && cnt[c]; j++)
				cent[c * d + j] /= (double)cnt[c];
	}
	for (size_t i = 0; i < n; i++)
		inertia += dist2(&pts[i * d], &cent[assign[i] * d], d);
	renumber(assign, n, k);
	free(cent);
	free(cnt);
	return inertia;
}
