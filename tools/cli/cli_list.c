// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_list.c - `latency-tracker list`: the loaded trackers with their
 * threshold, timeout, state and counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lt_procfmt.h"
#include "lt_num.h"
#include "lt_proc.h"

int cli_list(int argc, char **argv)
{
	char **names, thr[32], tmo[32];
	int n, i, ret;

	(void)argv;
	if (argc != 1) {
		cli_err("usage: latency-tracker list");
		return CLI_USAGE;
	}
	ret = cli_check_access();
	if (ret)
		return ret;
	n = lt_tracker_list(&names);
	if (n < 0) {
		cli_err("cannot list %s", lt_proc_root());
		return CLI_FAIL;
	}
	if (n == 0) {
		printf("no trackers loaded\n");
		lt_tracker_list_free(names);
		return CLI_OK;
	}
	printf("%-14s %10s %10s %-7s %12s %12s %10s %10s\n", "TRACKER",
	       "THRESHOLD", "TIMEOUT", "STATE", "TRACKED", "OVER", "TIMEOUTS",
	       "ALERTS");
	for (i = 0; i < n; i++) {
		uint64_t t = 0, to = 0, en = 0;
		struct lt_stats s = { 0 };

		lt_knob_read(names[i], "threshold", &t);
		lt_knob_read(names[i], "timeout", &to);
		lt_knob_read(names[i], "enable", &en);
		lt_stats_load(names[i], &s);
		printf("%-14s %10s %10s %-7s %12llu %12llu %10llu %10llu\n",
		       names[i], lt_format_duration(t, thr, sizeof(thr)),
		       to ? lt_format_duration(to, tmo, sizeof(tmo)) : "off",
		       en ? "on" : "off", (unsigned long long)lt_stat(&s, "tracked"),
		       (unsigned long long)lt_stat(&s, "over_threshold"),
		       (unsigned long long)lt_stat(&s, "timeouts"),
		       (unsigned long long)lt_stat(&s, "alerts"));
	}
	lt_tracker_list_free(names);
	return CLI_OK;
}
