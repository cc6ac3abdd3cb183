/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * histogram.h - log2 latency buckets.
 *
 * Bucket 0 holds 0 ns; bucket b (1..64) holds [2^(b-1), 2^b - 1] ns, i.e.
 * the values whose highest set bit is bit b-1, so the bucket of a value is
 * fls64() of it.  Bucket 64 ends at U64_MAX.  Pure functions: any context.
 */
#ifndef _LT_HISTOGRAM_H
#define _LT_HISTOGRAM_H

#include "lt_env.h"

#define LT_HIST_BUCKETS		65

/* Bucket of a delay: 0 for 0, else the position of its highest set bit. */
static inline unsigned int lt_hist_bucket(u64 ns)
{
	return (unsigned int)fls64(ns);
}

/* Smallest value of bucket @b (0 <= @b < LT_HIST_BUCKETS). */
static inline u64 lt_hist_low(unsigned int b)
{
	return b ? 1ULL << (b - 1) : 0;
}

/* Largest value of bucket @b (0 <= @b < LT_HIST_BUCKETS), inclusive. */
static inline u64 lt_hist_high(unsigned int b)
{
	if (!b)
		return 0;
	if (b >= LT_HIST_BUCKETS - 1)
		return U64_MAX;
	return (1ULL << b) - 1;
}

#endif /* _LT_HISTOGRAM_H */
