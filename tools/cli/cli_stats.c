// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_stats.c - `latency-tracker stats <tracker> [--raw]`: the counters,
 * times with units.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lt_num.h"
#include "lt_procfmt.h"

static bool is_time(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && !strcmp(name + n - 3, "_ns");
}

int cli_stats(int argc, char **argv)
{
	const char *tracker = NULL;
	struct lt_stats s;
	bool raw = false;
	char buf[32];
	size_t i;
	int ret;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--raw"))
			raw = true;
		else if (!tracker)
			tracker = argv[a];
		else
			tracker = NULL, a = argc;
	}
	if (!tracker) {
		cli_err("usage: latency-tracker stats <tracker> [--raw]");
		return CLI_USAGE;
	}
	ret = cli_check_tracker(tracker);
	if (ret)
		return ret;
	ret = lt_stats_load(tracker, &s);
	if (ret) {
		cli_err("cannot read %s/stats: %s", tracker, strerror(-ret));
		return CLI_FAIL;
	}
	for (i = 0; i < s.n; i++) {
		if (raw || !is_time(s.name[i])) {
			printf("%-16s %llu\n", s.name[i],
			       (unsigned long long)s.val[i]);
		} else {
			/* min_ns of a tracker that matched nothing yet. */
			bool none = s.val[i] == UINT64_MAX ||
				    !lt_stat(&s, "matched");

			printf("%-16s %s\n", s.name[i], none ? "-" :
			       lt_format_duration_short(s.val[i], buf,
							sizeof(buf)));
		}
	}
	return CLI_OK;
}
