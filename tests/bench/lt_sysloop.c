// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_sysloop.c - the system-call loop of make bench (tests/guest/bench.sh):
 * 600000 system calls, a read of one byte from /dev/zero and a write of it
 * to /dev/null 300000 times, in 400 batches on one CPU (CPU 0).
 *
 * Prints the milliseconds the 600000 calls take at the median batch's
 * pace (400 times the median batch): a batch that the host interrupted
 * (the guest's vCPU descheduled, the emulator busy elsewhere) is an
 * outlier and moves the median by one rank only, where it would add its
 * whole delay to a total.  Exits 1 if a call fails.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define BATCHES		400
#define PAIRS		750	/* per batch: 2 * 750 * 400 = 600000 calls */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);	/* vDSO: not a system call */
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static long long batch[BATCHES];
	cpu_set_t cpus;
	int in, out, b, i;
	char c;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("lt_sysloop: sched_setaffinity");
		return 1;
	}
	in = open("/dev/zero", O_RDONLY);
	out = open("/dev/null", O_WRONLY);
	if (in < 0 || out < 0) {
		perror("lt_sysloop: open");
		return 1;
	}
	for (b = 0; b < BATCHES; b++) {
		long long t0 = now_ns();

		for (i = 0; i < PAIRS; i++) {
			if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1) {
				perror("lt_sysloop: read/write");
				return 1;
			}
		}
		batch[b] = now_ns() - t0;
	}
	qsort(batch, BATCHES, sizeof(batch[0]), cmp);
	printf("%lld\n", batch[BATCHES / 2] * BATCHES / 1000000);
	return 0;
}
