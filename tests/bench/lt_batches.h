/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_batches.h - what the bench's loops (lt_sysloop.c, lt_pingpong.c,
 * lt_spin.c) share: one CPU only, a batch timed on CLOCK_MONOTONIC (vDSO:
 * not a system call), and the total printed at the median batch's pace.
 */
#ifndef LT_BATCHES_H
#define LT_BATCHES_H

#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline long long lt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The calling thread on CPU @cpu only; 0 or -1 (errno set). */
static inline int lt_pin_cpu(int cpu)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	return sched_setaffinity(0, sizeof(cpus), &cpus);
}

static inline int lt_pin_cpu0(void)
{
	return lt_pin_cpu(0);
}

static int lt_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * Prints, in ms, n times the median of the n batch times (ns; sorted in
 * place): a batch the host interrupted moves the median by one rank only,
 * where it would add its whole delay to a total.
 */
static inline void lt_print_median_pace(long long *batch, int n)
{
	qsort(batch, n, sizeof(batch[0]), lt_cmp_ll);
	printf("%lld\n", batch[n / 2] * n / 1000000);
}

#endif /* LT_BATCHES_H */
