/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * filter_parse.h - the syntax of the filters' values (filter_tgid,
 * filter_dev, kthreads), written to their files or given as module
 * parameters: pure functions on the text, built into each tracker module
 * (filter.c applies the values) and into the host unit test
 * (tests/unit/test_filter_parse.c).  Numbers are the core's strict
 * decimals (latency_tracker_parse_u64(), tracker/parse.c).
 *
 *	filter_tgid	"" (none), or up to LT_FILTER_LIST_MAX process ids
 *			1..LT_FILTER_PID_MAX separated by commas
 *	filter_dev	"" (none), or up to LT_FILTER_LIST_MAX "major:minor"
 *			separated by commas, major <= LT_FILTER_MAJOR_MAX,
 *			minor <= LT_FILTER_MINOR_MAX
 *	kthreads	"0" or "1"
 *
 * The text is @len bytes, the caller's single trailing newline already
 * removed: any other byte than digits, ',' and (filter_dev) ':' is
 * refused, as are empty items, leading zeros and too many items.
 */
#ifndef _LT_FILTER_PARSE_H
#define _LT_FILTER_PARSE_H

#include "lt_env.h"

#define LT_FILTER_LIST_MAX	8
/* PID_MAX_LIMIT on 64-bit kernels; dev_t's 12-bit major, 20-bit minor. */
#define LT_FILTER_PID_MAX	4194304
#define LT_FILTER_MAJOR_MAX	4095
#define LT_FILTER_MINOR_MAX	1048575

int lt_filter_parse_pids(const char *s, size_t len, u32 *pids);
int lt_filter_parse_devs(const char *s, size_t len, u32 *majors,
			 u32 *minors);
int lt_filter_parse_flag(const char *s, size_t len, u32 *out);

#endif /* _LT_FILTER_PARSE_H */
