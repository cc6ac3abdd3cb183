// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_stats.c - `latency-tracker stats <tracker> [--raw] [--json]`: the
 * counters, times with units, and the shares of the records' breakdown.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lt_json.h"
#include "lt_num.h"
#include "lt_procfmt.h"

static bool is_time(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && !strcmp(name + n - 3, "_ns");
}

/* A time counter with no value yet (min_ns before the first match). */
static bool no_time(const struct lt_stats *s, size_t i)
{
	return is_time(s->name[i]) &&
	       (s->wide[i] == UINT64_MAX || !lt_stat(s, "matched"));
}

void cli_json_stats(FILE *out, const struct lt_stats *s)
{
	char num[40];

	for (size_t i = 0; i < s->n; i++) {
		if (i)
			fputc(',', out);
		lt_json_cstr(out, s->name[i]);
		if (no_time(s, i))
			fputs(":null", out);
		else
			fprintf(out, ":%s",
				lt_format_u128(s->wide[i], num, sizeof(num)));
	}
}

/*
 * The shares of the records' breakdown (breakdown_<part>_ns counters:
 * wakeup, syscalls), on one line; nothing without them or before any.
 */
static void print_shares(const struct lt_stats *s)
{
	static const char prefix[] = "breakdown_";
	long double total = 0;
	bool first = true;

	for (size_t i = 0; i < s->n; i++)
		if (!strncmp(s->name[i], prefix, sizeof(prefix) - 1) &&
		    is_time(s->name[i]))
			total += s->wide[i];
	if (total <= 0)
		return;
	printf("%-16s", "breakdown");
	for (size_t i = 0; i < s->n; i++) {
		const char *part = s->name[i] + sizeof(prefix) - 1;

		if (strncmp(s->name[i], prefix, sizeof(prefix) - 1) ||
		    !is_time(s->name[i]))
			continue;
		printf("%s %.*s %.1Lf%%", first ? "" : ",",
		       (int)strlen(part) - 3, part, 100.0L * s->wide[i] / total);
		first = false;
	}
	putchar('\n');
}

int cli_stats(int argc, char **argv)
{
	bool raw = false, json = false;
	const struct cli_opt opts[] = {
		{ "--raw", &raw, NULL },
		{ "--json", &json, NULL },
		{ NULL, NULL, NULL },
	};
	const char *tracker;
	struct lt_stats s;
	char buf[40];
	int ret, npos;

	ret = cli_args(argc, argv, opts, &tracker, 1, 1, &npos);
	if (ret)
		return ret;
	ret = cli_check_tracker(tracker);
	if (ret)
		return ret;
	ret = lt_stats_load(tracker, &s);
	if (ret) {
		cli_err("cannot read %s/stats: %s", tracker, strerror(-ret));
		return CLI_FAIL;
	}
	if (json) {
		printf("{\"tracker\":");
		lt_json_cstr(stdout, tracker);
		printf(",\"stats\":{");
		cli_json_stats(stdout, &s);
		printf("}}\n");
		return CLI_OK;
	}
	for (size_t i = 0; i < s.n; i++) {
		/* A time with its unit: its name without "_ns" (min, avg). */
		int len = raw || !is_time(s.name[i]) ?
			  (int)strlen(s.name[i]) : (int)strlen(s.name[i]) - 3;

		if (raw || !is_time(s.name[i]))
			printf("%-16s %s\n", s.name[i],
			       lt_format_u128(s.wide[i], buf, sizeof(buf)));
		else if (no_time(&s, i))
			printf("%-*.*s -\n", 16, len, s.name[i]);
		else if (s.wide[i] > UINT64_MAX)	/* sum_ns, after years */
			printf("%-*.*s %sns\n", 16, len, s.name[i],
			       lt_format_u128(s.wide[i], buf, sizeof(buf)));
		else
			printf("%-*.*s %s\n", 16, len, s.name[i],
			       lt_format_duration_short(s.val[i], buf,
							sizeof(buf)));
	}
	if (!raw)
		print_shares(&s);
	return CLI_OK;
}
