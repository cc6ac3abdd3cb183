// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_counters.c - latency-trackerd's own counters, per tracker: what
 * it did with the alerts (snapshots taken, suppressed, failed...), its
 * explain children, its errors.  Logged at exit (summed) and served as
 * metrics (per tracker).  Kept in name order.
 */
#include <stdio.h>
#include <string.h>

#include "daemon.h"

#define LTD_COUNTED_MAX	256	/* trackers; more share the last slot */

struct ltd_counted {
	char tracker[64];
	struct ltd_counters c;
};

static struct ltd_counted ltd_counted[LTD_COUNTED_MAX];
static unsigned int ltd_nr_counted;

struct ltd_counters *ltd_counters_of(const char *tracker)
{
	unsigned int i;

	for (i = 0; i < ltd_nr_counted; i++) {
		int cmp = strcmp(ltd_counted[i].tracker, tracker);

		if (!cmp)
			return &ltd_counted[i].c;
		if (cmp > 0)
			break;
	}
	if (ltd_nr_counted == LTD_COUNTED_MAX)
		return &ltd_counted[LTD_COUNTED_MAX - 1].c;
	memmove(&ltd_counted[i + 1], &ltd_counted[i],
		(ltd_nr_counted - i) * sizeof(ltd_counted[0]));
	memset(&ltd_counted[i], 0, sizeof(ltd_counted[0]));
	snprintf(ltd_counted[i].tracker, sizeof(ltd_counted[i].tracker), "%s",
		 tracker);
	ltd_nr_counted++;
	return &ltd_counted[i].c;
}

void ltd_counters_total(struct ltd_counters *sum)
{
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < ltd_nr_counted; i++) {
		const struct ltd_counters *c = &ltd_counted[i].c;

		sum->alerts += c->alerts;
		sum->lost += c->lost;
		sum->malformed += c->malformed;
		sum->snapshots += c->snapshots;
		sum->suppressed += c->suppressed;
		sum->failed += c->failed;
		sum->unavailable += c->unavailable;
		sum->explain_runs += c->explain_runs;
		sum->explain_failed += c->explain_failed;
		sum->explain_skipped += c->explain_skipped;
		sum->errors += c->errors;
		for (size_t k = 0; k < LT_WHY_KINDS; k++)
			sum->breakdown_ns[k] += c->breakdown_ns[k];
	}
}

void ltd_counters_each(void (*fn)(const char *tracker,
				  const struct ltd_counters *c, void *arg),
		       void *arg)
{
	unsigned int i;

	for (i = 0; i < ltd_nr_counted; i++)
		fn(ltd_counted[i].tracker, &ltd_counted[i].c, arg);
}
