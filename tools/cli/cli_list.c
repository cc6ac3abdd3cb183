// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_list.c - `latency-tracker list [--json]`: the loaded trackers with
 * their threshold, timeout, state and counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lt_json.h"
#include "lt_num.h"
#include "lt_proc.h"
#include "lt_procfmt.h"

struct tracker_row {
	uint64_t threshold, timeout, enable;
	struct lt_stats s;
};

static void row_load(const char *name, struct tracker_row *r)
{
	memset(r, 0, sizeof(*r));
	lt_knob_read(name, "threshold", &r->threshold);
	lt_knob_read(name, "timeout", &r->timeout);
	lt_knob_read(name, "enable", &r->enable);
	lt_stats_load(name, &r->s);
}

static void print_json(char **names, int n)
{
	struct tracker_row r;

	printf("{\"trackers\":[");
	for (int i = 0; i < n; i++) {
		row_load(names[i], &r);
		printf("%s{\"tracker\":", i ? "," : "");
		lt_json_cstr(stdout, names[i]);
		printf(",\"threshold\":%llu,\"timeout\":%llu,\"enable\":%llu,\"stats\":{",
		       (unsigned long long)r.threshold,
		       (unsigned long long)r.timeout,
		       (unsigned long long)r.enable);
		cli_json_stats(stdout, &r.s);
		printf("}}");
	}
	printf("]}\n");
}

static void print_table(char **names, int n)
{
	struct tracker_row r;
	char thr[32], tmo[32];

	if (n == 0) {
		printf("no trackers loaded\n");
		return;
	}
	printf("%-14s %10s %10s %-7s %12s %12s %10s %10s\n", "TRACKER",
	       "THRESHOLD", "TIMEOUT", "STATE", "TRACKED", "OVER", "TIMEOUTS",
	       "ALERTS");
	for (int i = 0; i < n; i++) {
		row_load(names[i], &r);
		printf("%-14s %10s %10s %-7s %12llu %12llu %10llu %10llu\n",
		       names[i], lt_format_duration(r.threshold, thr, sizeof(thr)),
		       r.timeout ? lt_format_duration(r.timeout, tmo, sizeof(tmo)) : "off",
		       r.enable ? "on" : "off",
		       (unsigned long long)lt_stat(&r.s, "tracked"),
		       (unsigned long long)lt_stat(&r.s, "over_threshold"),
		       (unsigned long long)lt_stat(&r.s, "timeouts"),
		       (unsigned long long)lt_stat(&r.s, "alerts"));
	}
}

int cli_list(int argc, char **argv)
{
	bool json = false;
	const struct cli_opt opts[] = {
		{ "--json", &json, NULL },
		{ NULL, NULL, NULL },
	};
	char **names;
	int n, ret, npos;

	ret = cli_args(argc, argv, opts, NULL, 0, 0, &npos);
	if (ret)
		return ret;
	ret = cli_check_access();
	if (ret)
		return ret;
	n = lt_tracker_list(&names);
	if (n < 0) {
		cli_err("cannot list %s: %s", lt_proc_root(), strerror(-n));
		return CLI_FAIL;
	}
	if (json)
		print_json(names, n);
	else
		print_table(names, n);
	lt_tracker_list_free(names);
	return CLI_OK;
}
