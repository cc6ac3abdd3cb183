/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.h - the one strict decimal parser of the kernel side: the numbers
 * written to procfs files and given as module parameters, the filters'
 * numbers (probes/common/filter_parse.c) and custom trackers' definitions.
 *
 * Accepted: "0", or a non-zero digit followed by digits, optionally
 * followed by exactly one '\n', and nothing else (no sign, no blanks, no
 * leading zero, no "0x", no NUL, no second newline).  Any other input, an
 * overflow of u64 or a value outside [min, max] gives -EINVAL and leaves
 * the output untouched.  Pure function: any context.  Built into
 * latency_tracker.ko, which exports it, and into the host unit tests.
 */
#ifndef _LT_PARSE_H
#define _LT_PARSE_H

#include "lt_env.h"

int latency_tracker_parse_u64(const char *buf, size_t len, u64 min, u64 max,
			      u64 *out);

#endif /* _LT_PARSE_H */
