// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_hist.c - `latency-tracker hist <tracker>`: the log2 histogram of
 * matched delays as horizontal bars sized to the terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "lt_num.h"
#include "lt_procfmt.h"

#define HIST_DEFAULT_COLS	80
#define HIST_MIN_BAR		10
/* "  1.024ms -   2.048ms |" and " 123456789" around the bar. */
#define HIST_LABEL_COLS		23
#define HIST_COUNT_COLS		11

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

int cli_hist(int argc, char **argv)
{
	struct lt_hist h;
	uint64_t max = 0, total = 0;
	char lo[32], hi[32];
	int ret, width;
	size_t i;

	if (argc != 2) {
		cli_err("usage: latency-tracker hist <tracker>");
		return CLI_USAGE;
	}
	ret = cli_check_tracker(argv[1]);
	if (ret)
		return ret;
	ret = lt_hist_load(argv[1], &h);
	if (ret) {
		cli_err("cannot read %s/histogram: %s", argv[1],
			strerror(-ret));
		return CLI_FAIL;
	}
	for (i = 0; i < h.n; i++) {
		total += h.b[i].count;
		if (h.b[i].count > max)
			max = h.b[i].count;
	}
	if (!total) {
		printf("%s: no matched events yet\n", argv[1]);
		return CLI_OK;
	}
	width = columns() - HIST_LABEL_COLS - HIST_COUNT_COLS;
	if (width < HIST_MIN_BAR)
		width = HIST_MIN_BAR;
	printf("%s: %llu matched events\n", argv[1],
	       (unsigned long long)total);
	for (i = 0; i < h.n; i++) {
		int len = (int)((double)h.b[i].count * width / (double)max);

		if (h.b[i].count && !len)
			len = 1;
		printf("%9s - %9s |", lt_format_duration_short(h.b[i].low, lo, sizeof(lo)),
		       lt_format_duration_short(h.b[i].high, hi, sizeof(hi)));
		for (int k = 0; k < len; k++)
			putchar('#');
		printf("%*s %llu\n", width - len, "",
		       (unsigned long long)h.b[i].count);
	}
	return CLI_OK;
}
