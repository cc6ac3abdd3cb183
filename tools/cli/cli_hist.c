// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_hist.c - `latency-tracker hist <tracker> [--percentiles] [--json]`:
 * the log2 histogram of matched delays as horizontal bars sized to the
 * terminal; p50, p90, p99 (estimates: lt_pct.h) and max (exact, from
 * stats).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "lt_json.h"
#include "lt_num.h"
#include "lt_pct.h"
#include "lt_procfmt.h"

#define HIST_DEFAULT_COLS	80
#define HIST_MIN_BAR		10
/* "  1.024ms -   2.048ms |" and " 123456789" around the bar. */
#define HIST_LABEL_COLS		23
#define HIST_COUNT_COLS		11

static const struct {
	const char *name;
	unsigned int p;
} hist_pcts[] = {
	{ "p50", LT_PCT(50) },
	{ "p90", LT_PCT(90) },
	{ "p99", LT_PCT(99) },
};
#define HIST_NPCTS	(sizeof(hist_pcts) / sizeof(hist_pcts[0]))

struct hist_view {
	const char *tracker;
	struct lt_hist h;
	uint64_t total;
	uint64_t min, max;	/* from stats */
	bool max_exact;		/* else max is the top bucket's end */
	struct lt_pct pct[HIST_NPCTS];
};

static int columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (env && atoi(env) > 0)
		return atoi(env);
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col)
		return ws.ws_col;
	return HIST_DEFAULT_COLS;
}

static void print_bar(uint64_t low, uint64_t high, uint64_t count,
		      uint64_t max, int width)
{
	int len = (int)((double)count * width / (double)max);
	char lo[32], hi[32];

	if (count && !len)
		len = 1;
	printf("%9s - %9s |", lt_format_duration_short(low, lo, sizeof(lo)),
	       lt_format_duration_short(high, hi, sizeof(hi)));
	for (int k = 0; k < len; k++)
		putchar('#');
	printf("%*s %llu\n", width - len, "", (unsigned long long)count);
}

static void print_bars(const struct hist_view *v)
{
	const struct lt_hist *h = &v->h;
	uint64_t max = 0;
	int width;
	size_t i;

	for (i = 0; i < h->n; i++)
		if (h->b[i].count > max)
			max = h->b[i].count;
	width = columns() - HIST_LABEL_COLS - HIST_COUNT_COLS;
	if (width < HIST_MIN_BAR)
		width = HIST_MIN_BAR;
	printf("%s: %llu matched events\n", v->tracker,
	       (unsigned long long)v->total);
	for (i = 0; i < h->n; i++) {
		uint64_t low;

		/*
		 * The kernel lists the non-empty buckets only: the empty
		 * ones between two of them are shown, log2 as theirs.
		 */
		for (low = i ? h->b[i - 1].high + 1 : h->b[0].low;
		     i && low && low < h->b[i].low;
		     low = low > UINT64_MAX / 2 ? 0 : 2 * low)
			print_bar(low, low * 2 - 1 < h->b[i].low ?
				  low * 2 - 1 : h->b[i].low - 1, 0, max, width);
		print_bar(h->b[i].low, h->b[i].high, h->b[i].count, max, width);
	}
}

static void print_pcts(const struct hist_view *v)
{
	char a[32], lo[32], hi[32];

	for (size_t i = 0; i < HIST_NPCTS; i++)
		printf("%-4s %9s  (in %s - %s)\n", hist_pcts[i].name,
		       lt_format_duration_short(v->pct[i].ns, a, sizeof(a)),
		       lt_format_duration_short(v->pct[i].low, lo, sizeof(lo)),
		       lt_format_duration_short(v->pct[i].high, hi, sizeof(hi)));
	printf("%-4s %9s  (%s)\n", "max",
	       lt_format_duration_short(v->max, a, sizeof(a)),
	       v->max_exact ? "exact" : "the top bucket's end");
}

static void print_json(const struct hist_view *v)
{
	const struct lt_hist *h = &v->h;

	printf("{\"tracker\":");
	lt_json_cstr(stdout, v->tracker);
	printf(",\"count\":%llu,\"buckets\":[", (unsigned long long)v->total);
	for (size_t i = 0; i < h->n; i++)
		printf("%s{\"low_ns\":%llu,\"high_ns\":%llu,\"count\":%llu}",
		       i ? "," : "", (unsigned long long)h->b[i].low,
		       (unsigned long long)h->b[i].high,
		       (unsigned long long)h->b[i].count);
	printf("],\"percentiles\":{");
	for (size_t i = 0; v->total && i < HIST_NPCTS; i++)
		printf("%s\"%s\":{\"ns\":%llu,\"low_ns\":%llu,\"high_ns\":%llu}",
		       i ? "," : "", hist_pcts[i].name,
		       (unsigned long long)v->pct[i].ns,
		       (unsigned long long)v->pct[i].low,
		       (unsigned long long)v->pct[i].high);
	if (v->total)
		printf("},\"max_ns\":%llu,\"max_exact\":%s}\n",
		       (unsigned long long)v->max, v->max_exact ? "true" : "false");
	else
		printf("},\"max_ns\":null,\"max_exact\":false}\n");
}

/* The histogram, the exact min and max, the percentiles. */
static int load(struct hist_view *v)
{
	struct lt_stats s;
	int ret = lt_hist_load(v->tracker, &v->h);

	if (ret) {
		cli_err("cannot read %s/histogram: %s", v->tracker,
			strerror(-ret));
		return CLI_FAIL;
	}
	ret = lt_stats_load(v->tracker, &s);
	if (ret) {
		cli_err("cannot read %s/stats: %s", v->tracker, strerror(-ret));
		return CLI_FAIL;
	}
	v->total = lt_hist_total(&v->h);
	if (!v->total)
		return CLI_OK;
	v->min = lt_stat(&s, "min_ns");
	v->max = lt_stat(&s, "max_ns");
	/* A stats file read between two updates, or without min/max. */
	v->max_exact = v->max >= v->min && v->max;
	if (!v->max_exact) {
		v->min = 0;
		v->max = UINT64_MAX;
	}
	for (size_t i = 0; i < HIST_NPCTS; i++)
		lt_hist_percentile(&v->h, hist_pcts[i].p, v->min, v->max,
				   &v->pct[i]);
	if (!v->max_exact)
		v->max = v->h.b[v->h.n - 1].high;
	return CLI_OK;
}

int cli_hist(int argc, char **argv)
{
	bool pcts = false, json = false;
	const struct cli_opt opts[] = {
		{ "--percentiles", &pcts, NULL },
		{ "-p", &pcts, NULL },
		{ "--json", &json, NULL },
		{ NULL, NULL, NULL },
	};
	struct hist_view v = { 0 };
	int ret, npos;

	ret = cli_args(argc, argv, opts, &v.tracker, 1, 1, &npos);
	if (ret)
		return ret;
	ret = cli_check_tracker(v.tracker);
	if (ret)
		return ret;
	ret = load(&v);
	if (ret)
		return ret;
	if (json) {
		print_json(&v);
		return CLI_OK;
	}
	if (!v.total) {
		printf("%s: no matched events yet\n", v.tracker);
		return CLI_OK;
	}
	print_bars(&v);
	if (pcts)
		print_pcts(&v);
	return CLI_OK;
}
