// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_follow.c - `latency-tracker follow [--json] [-n N] [tracker...]`:
 * print alert records as they come, from the trackers named (default:
 * all, including ones loaded later).  Pretty lines by default, one JSON
 * object per line with --json; -n N stops after N records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "cli.h"
#include "lt_json.h"
#include "lt_num.h"
#include "lt_record.h"
#include "lt_watch.h"
#include "lt_why.h"

/* Trackers loaded later are found by rescanning this often. */
#define FOLLOW_RESCAN_MS	1000
#define FOLLOW_MAX_EVENTS	16
#define FOLLOW_MAX_COUNT	1000000000

struct follow {
	bool json;
	bool refused;		/* the modules' record format changed */
	long left;		/* records still to print, -1 = no limit */
};

static void print_pretty(const struct lt_record *r, const char *orig)
{
	char d[32], why[256];
	const char *rest = orig;
	int skip = 4;

	/* The escaped text after the four leading fields, as read. */
	while (skip-- && rest)
		rest = strchr(rest, ' ') ? strchr(rest, ' ') + 1 : NULL;
	if (r->cause == LT_CAUSE_LOST) {
		printf("%llu.%06llu %-10s LOST %llu records\n",
		       (unsigned long long)(r->ts / LT_NSEC_PER_SEC),
		       (unsigned long long)(r->ts % LT_NSEC_PER_SEC / 1000),
		       r->tracker, (unsigned long long)r->count);
		return;
	}
	printf("%llu.%06llu %-10s %-9s %9s  %s\n",
	       (unsigned long long)(r->ts / LT_NSEC_PER_SEC),
	       (unsigned long long)(r->ts % LT_NSEC_PER_SEC / 1000),
	       r->tracker, lt_cause_name(r->cause),
	       lt_format_duration_short(r->delay, d, sizeof(d)),
	       rest ? rest : "");
	/* Where the delay went, under the record, when it says. */
	if (!lt_why(r, why, sizeof(why)) && why[0])
		printf("%*swhy: %s\n", 17, "", why);
}

static void on_line(void *ctx, const char *tracker, char *line)
{
	struct follow *fo = ctx;
	struct lt_record r;
	const char *why;
	char *orig;

	if (!fo->left)
		return;
	orig = strdup(line);
	if (!orig)
		return;
	if (lt_record_parse(line, &r, &why)) {
		if (fo->json) {
			printf("{\"type\":\"malformed\",\"tracker\":");
			lt_json_cstr(stdout, tracker);
			printf(",\"error\":");
			lt_json_cstr(stdout, why);
			printf(",\"line\":");
			lt_json_cstr(stdout, orig);
			printf("}\n");
		} else {
			printf("%s: malformed record (%s): %s\n", tracker, why,
			       orig);
		}
	} else if (fo->json) {
		printf("{\"type\":\"%s\",", r.cause == LT_CAUSE_LOST ?
		       "lost" : "alert");
		lt_record_json_members(stdout, &r);
		printf("}\n");
	} else {
		print_pretty(&r, orig);
	}
	free(orig);
	fflush(stdout);
	if (fo->left > 0)
		fo->left--;
}

static void on_tracker(void *ctx, const char *tracker, bool added)
{
	struct follow *fo = ctx;

	if (!fo->json && !fo->refused)
		fprintf(stderr, "latency-tracker: %s %s\n",
			added ? "following" : "lost tracker", tracker);
}

static void on_error(void *ctx, const char *tracker, const char *what,
		     int err)
{
	struct follow *fo = ctx;

	if (!strcmp(tracker, LT_WATCH_ALL)) {
		/* Modules of another record format: stop. */
		cli_err("%s", what);
		fo->refused = true;
		fo->left = 0;
		return;
	}
	cli_warn("%s: %s: %s", tracker, what, strerror(err));
}

static const struct lt_watch_ops follow_ops = {
	.line = on_line,
	.tracker = on_tracker,
	.error = on_error,
};

int cli_follow(int argc, char **argv)
{
	struct follow fo = { .json = false, .left = -1 };
	const char *count = NULL;
	const struct cli_opt opts[] = {
		{ "--json", &fo.json, NULL },
		{ "-n", NULL, &count },
		{ NULL, NULL, NULL },
	};
	const char **only = calloc((size_t)argc + 1, sizeof(*only));
	struct epoll_event evs[FOLLOW_MAX_EVENTS];
	struct lt_watch w;
	int epfd, ret, i, nonly = 0;
	uint64_t cnt;

	if (!only)
		return CLI_FAIL;
	ret = cli_args(argc, argv, opts, only, 0, argc, &nonly);
	if (!ret && count &&
	    (lt_parse_u64(count, &cnt) || !cnt || cnt > FOLLOW_MAX_COUNT)) {
		cli_err("bad count '%s' for -n", count);
		ret = CLI_USAGE;
	}
	if (count && !ret)
		fo.left = (long)cnt;
	for (i = 0; i < nonly && !ret; i++)
		ret = cli_check_tracker(only[i]);
	if (!nonly && !ret)
		ret = cli_check_access();
	if (ret) {
		free(only);
		return ret;
	}
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		cli_err("epoll: %s", strerror(errno));
		free(only);
		return CLI_FAIL;
	}
	lt_watch_init(&w, epfd, &follow_ops, &fo,
		      nonly ? (char *const *)only : NULL);
	lt_watch_scan(&w);
	while (fo.left) {
		int n = epoll_wait(epfd, evs, FOLLOW_MAX_EVENTS,
				   FOLLOW_RESCAN_MS);

		if (n < 0 && errno != EINTR) {
			cli_err("epoll_wait: %s", strerror(errno));
			break;
		}
		for (i = 0; i < n && fo.left; i++)
			lt_watch_ready(&w, evs[i].data.ptr, evs[i].events);
		if (n == 0)
			lt_watch_scan(&w);
	}
	lt_watch_close_all(&w, false);
	close(epfd);
	free(only);
	return fo.refused ? CLI_FAIL : CLI_OK;
}
