/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_pct.h - percentiles from a log2 histogram (lt_procfmt.h).
 *
 * The histogram keeps counts per bucket [low, high], not the delays, so a
 * percentile is an estimate, made as follows:
 *
 *   - the rank of the p-th percentile of N delays is ceil(p / 100 * N)
 *     (nearest rank: p50 of 1..10 is the 5th), at least 1;
 *   - the bucket holding that rank, with `before` delays below it and
 *     `count` in it, is assumed filled evenly: the estimate is
 *     low + (high - low) * (rank - before) / count, so the last delay of
 *     a bucket is at its high end;
 *   - the estimate is then clamped to [min, max], the exact smallest and
 *     largest delays (stats: min_ns, max_ns) when the caller has them.
 *
 * The true value always lies inside the bucket: [low, high] is returned
 * too.
 */
#ifndef LT_PCT_H
#define LT_PCT_H

#include <stdint.h>

#include "lt_procfmt.h"

struct lt_pct {
	uint64_t ns;		/* the estimate */
	uint64_t low, high;	/* the bucket holding the rank */
};

/* The delays counted by h. */
uint64_t lt_hist_total(const struct lt_hist *h);

/* p in hundredths of a percent: 5000 is p50, 9990 is p99.9. */
#define LT_PCT(p)	((unsigned int)((p) * 100 + 0.5))

/*
 * The percentile p (1 to 10000 hundredths of a percent) of h, clamped to
 * [min, max] (pass 0, UINT64_MAX for no clamp).  Returns 0, or -1 for an
 * empty histogram or a p out of range.  Integer arithmetic only.
 */
int lt_hist_percentile(const struct lt_hist *h, unsigned int p,
		       uint64_t min, uint64_t max, struct lt_pct *out);

#endif /* LT_PCT_H */
