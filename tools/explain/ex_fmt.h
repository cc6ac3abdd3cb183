/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_fmt.h - durations and instants in the explanation's text, as the
 * CLI prints them: a duration with about 4 significant digits and its
 * unit ("437.2ms", lt_format_duration_short()), an instant of
 * CLOCK_MONOTONIC in seconds with microseconds ("1234.567890", as
 * `latency-tracker follow` prints an alert's ts; --at takes it back).
 *
 * Each returns a small struct whose array holds the text; used inside a
 * function call's arguments (ex_dur(ns).s), it lives until the end of
 * that full expression (C11 6.2.4p8), so several fit in one printf().
 */
#ifndef LT_EX_FMT_H
#define LT_EX_FMT_H

#include <stdint.h>
#include <stdio.h>

#include "lt_num.h"

struct ex_text {
	char s[32];
};

static inline struct ex_text ex_dur(uint64_t ns)
{
	struct ex_text t = { "" };

	lt_format_duration_short(ns, t.s, sizeof(t.s));
	return t;
}

/* A duration computed as a double (a mean, a weighted time), rounded. */
static inline struct ex_text ex_dur_f(double ns)
{
	return ex_dur(ns > 0 ? (uint64_t)(ns + 0.5) : 0);
}

static inline struct ex_text ex_ts(uint64_t ns)
{
	struct ex_text t = { "" };

	snprintf(t.s, sizeof(t.s), "%llu.%06llu",
		 (unsigned long long)(ns / 1000000000ULL),
		 (unsigned long long)(ns % 1000000000ULL / 1000));
	return t;
}

#endif /* LT_EX_FMT_H */
