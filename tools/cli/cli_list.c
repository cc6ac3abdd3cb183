// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_list.c - `latency-tracker list [--json]`: the loaded trackers with
 * their threshold, timeout, state and counts, and the definitions of the
 * custom ones (as /proc/latency_tracker/custom lists them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lt_custom.h"
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

/* The live custom trackers (none without the module). */
struct custom_set {
	struct lt_custom_listed *v;
	int n;
};

static void custom_load(struct custom_set *c)
{
	c->n = lt_custom_list(&c->v);
	if (c->n == -ENOENT)
		c->n = 0;	/* latency_tracker_custom is not loaded */
	if (c->n < 0) {
		cli_warn("cannot read %s/%s: %s: custom trackers shown without their definition",
			 lt_proc_root(), LT_CUSTOM_FILE, strerror(-c->n));
		c->n = 0;
	}
}

static void print_json(char **names, int n, const struct custom_set *c)
{
	struct tracker_row r;

	printf("{\"trackers\":[");
	for (int i = 0; i < n; i++) {
		const struct lt_custom_listed *e = lt_custom_find(c->v, c->n, names[i]);

		row_load(names[i], &r);
		printf("%s{\"tracker\":", i ? "," : "");
		lt_json_cstr(stdout, names[i]);
		printf(",\"threshold\":%llu,\"timeout\":%llu,\"enable\":%llu,\"stats\":{",
		       (unsigned long long)r.threshold,
		       (unsigned long long)r.timeout,
		       (unsigned long long)r.enable);
		cli_json_stats(stdout, &r.s);
		/* A custom tracker's definition as the kernel lists it. */
		printf("},\"definition\":");
		if (e)
			lt_json_cstr(stdout, e->text);
		else
			printf("null");
		printf("}");
	}
	printf("]}\n");
}

/* The definitions of the custom trackers among names[], with units. */
static void print_definitions(char **names, int n, int width,
			      const struct custom_set *c)
{
	char human[LT_CUSTOM_LINE_MAX];
	bool head = false;

	for (int i = 0; i < n; i++) {
		const struct lt_custom_listed *e = lt_custom_find(c->v, c->n, names[i]);

		if (!e)
			continue;
		if (!head)
			printf("\n%-*s %s\n", width, "CUSTOM", "DEFINITION");
		head = true;
		printf("%-*s %s\n", width, names[i], e->parsed ?
		       lt_custom_format(&e->def, LT_CUSTOM_FMT_HUMAN, human,
					sizeof(human)) : e->text);
	}
}

static void print_table(char **names, int n, const struct custom_set *c)
{
	struct tracker_row r;
	char thr[32], tmo[32];
	int width = 14;

	if (n == 0) {
		printf("no trackers loaded\n");
		return;
	}
	for (int i = 0; i < n; i++)
		if ((int)strlen(names[i]) > width)
			width = (int)strlen(names[i]);
	printf("%-*s %10s %10s %-7s %12s %12s %10s %10s\n", width, "TRACKER",
	       "THRESHOLD", "TIMEOUT", "STATE", "TRACKED", "OVER", "TIMEOUTS",
	       "ALERTS");
	for (int i = 0; i < n; i++) {
		row_load(names[i], &r);
		printf("%-*s %10s %10s %-7s %12llu %12llu %10llu %10llu\n",
		       width, names[i],
		       lt_format_duration(r.threshold, thr, sizeof(thr)),
		       r.timeout ? lt_format_duration(r.timeout, tmo, sizeof(tmo)) : "off",
		       r.enable ? "on" : "off",
		       (unsigned long long)lt_stat(&r.s, "tracked"),
		       (unsigned long long)lt_stat(&r.s, "over_threshold"),
		       (unsigned long long)lt_stat(&r.s, "timeouts"),
		       (unsigned long long)lt_stat(&r.s, "alerts"));
	}
	print_definitions(names, n, width, c);
}

int cli_list(int argc, char **argv)
{
	bool json = false;
	const struct cli_opt opts[] = {
		{ "--json", &json, NULL },
		{ NULL, NULL, NULL },
	};
	struct custom_set custom;
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
	custom_load(&custom);
	if (json)
		print_json(names, n, &custom);
	else
		print_table(names, n, &custom);
	free(custom.v);
	lt_tracker_list_free(names);
	return CLI_OK;
}
