/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h - minimal TAP producer for the host unit tests (run under prove).
 * Every test binary prints "1..N" at the end (done_testing style) and
 * exits non-zero when any assertion failed.
 */
#ifndef _LT_TAP_H
#define _LT_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count;
static int tap_failed;

static inline __attribute__((format(printf, 2, 3)))
int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

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

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif /* _LT_TAP_H */
