// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_procfmt.c - host tests of tools/lib/lt_procfmt.c and lt_proc.c:
 * the stats and histogram formats, and knob/list access on a fake
 * /proc/latency_tracker tree ($LT_PROC_ROOT).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt_proc.h"
#include "lt_procfmt.h"
#include "tap.h"

static void test_stats(void)
{
	struct lt_stats s;
	size_t line = 0;

	tap_ok(!lt_stats_parse("tracked 10\nmatched 9\n\nmin_ns 18446744073709551615\n",
			       &s, &line), "stats parse");
	tap_eq(s.n, 3, "three counters");
	tap_eq(lt_stat(&s, "matched"), 9, "matched");
	tap_eq(lt_stat(&s, "min_ns"), UINT64_MAX, "u64 max");
	tap_eq(lt_stat(&s, "absent"), 0, "absent counter is 0");
	tap_ok(lt_stats_parse("tracked 1\nmatched x\n", &s, &line) && line == 2,
	       "bad value refused at line 2");
	tap_ok(lt_stats_parse("tracked\n", &s, &line) && line == 1,
	       "missing value refused");
	tap_ok(lt_stats_parse("a 1 2\n", &s, &line) && line == 1,
	       "extra word refused");

	/* sum_ns passes 2^64 on a busy host: 2^65 and 2^128 - 1 are read. */
	tap_ok(!lt_stats_parse("matched 2\nsum_ns 36893488147419103232\nbig 340282366920938463463374607431768211455\n",
			       &s, &line), "stats parse: values above 2^64");
	tap_ok(lt_stat_u128(&s, "sum_ns", NULL) == (unsigned __int128)1 << 65,
	       "sum_ns 2^65 read exactly");
	tap_eq(lt_stat(&s, "sum_ns"), UINT64_MAX,
	       "as a u64 it saturates");
	tap_ok(lt_stat_u128(&s, "big", NULL) == ~(unsigned __int128)0,
	       "2^128 - 1 read exactly");
	{
		int found = 1;

		tap_ok(!lt_stat_u128(&s, "absent", &found) && !found,
		       "absent: 0, not found");
	}
	tap_ok(lt_stats_parse("sum_ns 340282366920938463463374607431768211456\n",
			      &s, &line) && line == 1,
	       "2^128 refused");
}

static void test_hist(void)
{
	struct lt_hist h;
	size_t line = 0;

	tap_ok(!lt_hist_parse("1024 2047 3\n4096 8191 20\n", &h, &line),
	       "histogram parse");
	tap_eq(h.n, 2, "two buckets");
	tap_eq(h.b[1].low, 4096, "low");
	tap_eq(h.b[1].high, 8191, "high");
	tap_eq(h.b[1].count, 20, "count");
	tap_ok(!lt_hist_parse("", &h, &line) && h.n == 0, "empty histogram");
	tap_ok(lt_hist_parse("10 5 1\n", &h, &line) && line == 1,
	       "high < low refused");
	tap_ok(lt_hist_parse("1 2\n", &h, &line), "two words refused");
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_fake_tree(void)
{
	char root[] = "/tmp/lt-proc-XXXXXX", dir[256], list[128], **names;
	uint64_t v = 0;
	int n;

	if (!mkdtemp(root)) {
		tap_ok(0, "mkdtemp");
		return;
	}
	setenv("LT_PROC_ROOT", root, 1);
	tap_ok(!strcmp(lt_proc_root(), root), "LT_PROC_ROOT honoured");
	snprintf(dir, sizeof(dir), "%s/wakeup", root);
	mkdir(dir, 0700);
	put(dir, "threshold", "5000000\n");
	snprintf(dir, sizeof(dir), "%s/block", root);
	mkdir(dir, 0700);
	put(dir, "threshold", "1\n");
	snprintf(dir, sizeof(dir), "%s/not-a-tracker", root);
	mkdir(dir, 0700);
	n = lt_tracker_list(&names);
	tap_eq(n, 2, "two trackers (a dir without threshold is not one)");
	tap_ok(n == 2 && !strcmp(names[0], "block") && !strcmp(names[1], "wakeup"),
	       "sorted names");
	lt_tracker_list_free(names);
	tap_ok(!strcmp(lt_tracker_list_str(list, sizeof(list)), "block, wakeup"),
	       "list string: %s", list);
	tap_ok(lt_tracker_exists("wakeup"), "wakeup exists");
	tap_ok(!lt_tracker_exists("offcpu"), "offcpu does not");
	tap_ok(!lt_tracker_exists("../wakeup") && !lt_tracker_exists(".."),
	       "path tricks refused");
	tap_ok(!lt_knob_read("wakeup", "threshold", &v) && v == 5000000,
	       "knob read");
	tap_ok(!lt_knob_write("wakeup", "threshold", 250000), "knob write");
	tap_ok(!lt_knob_read("wakeup", "threshold", &v) && v == 250000,
	       "knob reads back");
	tap_ok(lt_knob_read("wakeup", "timeout", &v) == -ENOENT,
	       "missing knob file: -ENOENT");
	tap_ok(lt_knob_write("offcpu", "threshold", 1) == -ENOENT,
	       "write to a missing tracker: -ENOENT, nothing created");
	tap_ok(!lt_tracker_exists("offcpu"), "offcpu still absent");
	snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
	tap_ok(system(dir) == 0, "cleanup");
	setenv("LT_PROC_ROOT", "/nonexistent-lt-root", 1);
	tap_ok(lt_tracker_list(&names) == -ENOENT, "no root: -ENOENT");
}

int main(void)
{
	tap_plan(37);
	test_stats();
	test_hist();
	test_fake_tree();
	return tap_done();
}
