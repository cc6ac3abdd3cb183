// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_print_budget.c - host tests of probes/common/print_budget.h, the dmesg
 * stack budget of the tracker modules: per process and global caps per
 * interval, the slots' table, and the first interval of the clock
 * (interval 0: the first print_interval after boot).
 */
#include "lt_env.h"
#include "print_budget.h"
#include "tap.h"

#define MS		1000000ULL
#define INTERVAL	(5000 * MS)	/* the default print_interval */

static struct lt_print_budget b;

/* Stacks granted to @tgid at @now out of @tries asked. */
static int take_n(u64 now, pid_t tgid, int tries)
{
	int i, n = 0;

	for (i = 0; i < tries; i++)
		n += lt_print_budget_take(&b, now, tgid);
	return n;
}

/* The first interval of the clock, as a tracker loaded at boot sees it. */
static void test_interval_zero(void)
{
	lt_print_budget_init(&b, INTERVAL);
	tap_ok(lt_print_budget_take(&b, 3000 * MS, 1234),
	       "interval 0 (3 s after boot): a process's first stack granted");
	tap_eq(take_n(3700 * MS, 1234, 5), LT_PRINT_TGID_BURST - 1,
	       "interval 0: then the rest of its budget only");
	tap_eq(take_n(4000 * MS, 77, 5), LT_PRINT_TGID_BURST,
	       "interval 0: another process gets its own budget");
	lt_print_budget_init(&b, INTERVAL);
	tap_ok(lt_print_budget_take(&b, 0, 1), "time 0, tgid 1: granted");
	lt_print_budget_init(&b, 3600000 * MS);
	tap_ok(lt_print_budget_take(&b, 42 * 60000 * MS, 4000000),
	       "1 h interval, 42 min after boot: granted");
}

static void test_tgid_budget(void)
{
	u64 t = 12 * INTERVAL + 100 * MS;

	lt_print_budget_init(&b, INTERVAL);
	tap_eq(take_n(t, 500, 10), LT_PRINT_TGID_BURST,
	       "one process: %d stacks per interval", LT_PRINT_TGID_BURST);
	tap_eq(take_n(t + INTERVAL - 200 * MS, 500, 3), 0,
	       "none more until the interval ends");
	tap_eq(take_n(t + INTERVAL, 500, 3), LT_PRINT_TGID_BURST,
	       "the next interval: its budget again");
	tap_eq(take_n(t + 7 * INTERVAL, 500, 3), LT_PRINT_TGID_BURST,
	       "and after idle intervals");
}

static void test_global_cap(void)
{
	u64 t = 100 * INTERVAL;
	int granted = 0;
	pid_t tgid;

	lt_print_budget_init(&b, INTERVAL);
	/* A process over its own budget does not use up the global one. */
	tap_eq(take_n(t, 9, 100), LT_PRINT_TGID_BURST,
	       "a noisy process gets its budget only");
	for (tgid = 1000; tgid < 1000 + LT_PRINT_BURST; tgid++)
		granted += lt_print_budget_take(&b, t, tgid);
	tap_eq(granted, LT_PRINT_BURST - LT_PRINT_TGID_BURST,
	       "%d processes share the rest of the global cap of %d",
	       LT_PRINT_BURST, LT_PRINT_BURST);
	tap_ok(!lt_print_budget_take(&b, t, 1000),
	       "the cap reached: a process with budget left is refused");
	tap_ok(lt_print_budget_take(&b, t + INTERVAL, 1000),
	       "the next interval: granted again");
}

static void test_slots(void)
{
	u64 t = 7 * INTERVAL;
	int granted = 0;
	pid_t tgid;

	lt_print_budget_init(&b, INTERVAL);
	for (tgid = 1; tgid <= LT_PRINT_TGID_SLOTS; tgid++)
		granted += lt_print_budget_take(&b, t, tgid * 7919);
	tap_eq(granted, LT_PRINT_BURST,
	       "%d processes in one interval: the global cap of %d",
	       LT_PRINT_TGID_SLOTS, LT_PRINT_BURST);
	lt_print_budget_init(&b, INTERVAL);
	for (tgid = 1; tgid <= LT_PRINT_TGID_SLOTS; tgid++)
		take_n(t + INTERVAL * tgid, tgid, 1);
	tap_ok(lt_print_budget_take(&b, t + INTERVAL * 100, 99999),
	       "slots of past intervals are free again");
	lt_print_budget_init(&b, INTERVAL);
	for (tgid = 1; tgid <= LT_PRINT_TGID_SLOTS; tgid++)
		b.tgid_printed[tgid - 1].counter =
			LT_TGID_SLOT(3, tgid, LT_PRINT_TGID_BURST);
	tap_ok(!lt_print_budget_take(&b, 3 * INTERVAL, 99999),
	       "every slot held in this interval: a new process waits");
	tap_ok(lt_print_budget_take(&b, 4 * INTERVAL, 99999),
	       "and is granted in the next one");
}

int main(void)
{
	tap_plan(17);
	test_interval_zero();
	test_tgid_budget();
	test_global_cap();
	test_slots();
	return tap_done();
}
