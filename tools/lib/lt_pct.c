// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_pct.c - percentiles from a log2 histogram (see lt_pct.h).
 */
#include "lt_pct.h"

#define LT_PCT_ALL	10000	/* p100, in hundredths of a percent */

uint64_t lt_hist_total(const struct lt_hist *h)
{
	uint64_t n = 0;

	for (size_t i = 0; i < h->n; i++)
		n += h->b[i].count;
	return n;
}

int lt_hist_percentile(const struct lt_hist *h, unsigned int p,
		       uint64_t min, uint64_t max, struct lt_pct *out)
{
	uint64_t total = lt_hist_total(h), rank, before = 0;

	if (!total || !p || p > LT_PCT_ALL)
		return -1;
	/* ceil(total * p / 10000), without overflow. */
	rank = (uint64_t)(((unsigned __int128)total * p + LT_PCT_ALL - 1) /
			  LT_PCT_ALL);
	if (!rank)
		rank = 1;
	for (size_t i = 0; i < h->n; i++) {
		const struct lt_hist_bucket *b = &h->b[i];

		if (before + b->count < rank) {
			before += b->count;
			continue;
		}
		out->low = b->low;
		out->high = b->high;
		out->ns = b->low + (uint64_t)((unsigned __int128)(b->high - b->low) *
					      (rank - before) / b->count);
		if (out->ns < min)
			out->ns = min;
		if (out->ns > max)
			out->ns = max;
		return 0;
	}
	return -1;	/* not reached: the counts add up to total */
}
