/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h - minimal TAP producer for the host unit tests (run by run.sh).
 *
 * A test declares how many assertions it makes before the first one:
 * tap_plan(N) prints "1..N" first (computed where the count depends on the
 * build or the machine).  tap_done() fails the test unless exactly N
 * assertions ran, none failing, so a test that stops early or skips a loop
 * fails even when every assertion it reached passed.
 *
 * A test whose count is a constant may declare it next to its build rule
 * instead (test_x_CFLAGS += -DTAP_PLAN=N in its .mk): the plan is then
 * printed before main() runs.  One of the two, never both.
 */
#ifndef _LT_TAP_H
#define _LT_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count;
static int tap_failed;
static int tap_planned = -1;
static int tap_misuse;

/* tap_plan(n): the number of assertions this test makes; once, first. */
static inline void tap_plan(int n)
{
	if (tap_planned >= 0 || tap_count || n < 0) {
		printf("# tap_plan(%d): must be called once, with a count, before any assertion\n",
		       n);
		tap_misuse = 1;
		return;
	}
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

#ifdef TAP_PLAN
__attribute__((constructor)) static void tap_plan_from_build(void)
{
	tap_plan(TAP_PLAN);
}
#endif

static inline __attribute__((format(printf, 2, 3)))
int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	if (tap_planned < 0 && !tap_misuse) {
		printf("# assertion before tap_plan()\n");
		tap_misuse = 1;
	}
	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

/* Compare two unsigned values and show both on failure. */
#define tap_eq(got, want, ...) ({					\
	unsigned long long __g = (got), __w = (want);			\
	int __r = tap_ok(__g == __w, __VA_ARGS__);			\
	if (!__r)							\
		printf("#   got %llu, want %llu\n", __g, __w);		\
	__r; })

static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* tap_done(): the exit status: 0 when exactly the planned assertions ran
 * and passed. */
static inline int tap_done(void)
{
	if (tap_planned < 0)
		printf("# ran %d, no plan declared\n", tap_count);
	else
		printf("# ran %d of %d planned\n", tap_count, tap_planned);
	fflush(stdout);
	return tap_failed || tap_misuse || tap_count != tap_planned ? 1 : 0;
}

#endif /* _LT_TAP_H */
