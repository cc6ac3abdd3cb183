/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_procfmt.h - the text formats of the `stats` file (one `name value`
 * per line) and of the `histogram` file (one `<low_ns> <high_ns> <count>`
 * per non-empty log2 bucket).
 */
#ifndef LT_PROCFMT_H
#define LT_PROCFMT_H

#include <stddef.h>
#include <stdint.h>

#define LT_STATS_MAX	32
#define LT_STAT_NAME	32
#define LT_HIST_MAX	65

/*
 * A parsed stats file.  Every value may be up to 2^128 - 1 (`sum_ns`, the
 * sum of the matched delays, passes 2^64 on a busy host): @wide holds it
 * exactly, @val the same saturated to UINT64_MAX.
 */
struct lt_stats {
	size_t n;
	char name[LT_STATS_MAX][LT_STAT_NAME];
	uint64_t val[LT_STATS_MAX];
	unsigned __int128 wide[LT_STATS_MAX];
};

struct lt_hist_bucket {
	uint64_t low, high, count;
};

struct lt_hist {
	size_t n;
	struct lt_hist_bucket b[LT_HIST_MAX];
};

/* Parse the text; 0, or -1 with *line_no set to the first bad line. */
int lt_stats_parse(const char *text, struct lt_stats *s, size_t *line_no);
int lt_hist_parse(const char *text, struct lt_hist *h, size_t *line_no);

/* Read and parse a tracker's file: 0, -errno, or -EPROTO (bad format). */
int lt_stats_load(const char *tracker, struct lt_stats *s);
int lt_hist_load(const char *tracker, struct lt_hist *h);

/* Value of a counter, 0 when absent (UINT64_MAX when above it). */
uint64_t lt_stat(const struct lt_stats *s, const char *name);
/* Exact value of a counter, 0 when absent; *found says whether it is there. */
unsigned __int128 lt_stat_u128(const struct lt_stats *s, const char *name,
			       int *found);

#endif /* LT_PROCFMT_H */
