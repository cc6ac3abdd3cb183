// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_sysloop.c - the system-call loop of make bench (tests/guest/bench.sh):
 * 600000 system calls, a read of one byte from /dev/zero and a write of it
 * to /dev/null 300000 times, in 400 batches on CPU 0.  Prints the ms the
 * 600000 calls take at the median batch's pace (lt_batches.h).  Exits 1
 * if a call fails.
 */
#include "lt_batches.h"

#include <fcntl.h>
#include <unistd.h>

#define BATCHES		400
#define PAIRS		750	/* per batch: 2 * 750 * 400 = 600000 calls */

int main(void)
{
	static long long batch[BATCHES];
	int in, out, b, i;
	char c;

	if (lt_pin_cpu0()) {
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
		long long t0 = lt_now_ns();

		for (i = 0; i < PAIRS; i++) {
			if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1) {
				perror("lt_sysloop: read/write");
				return 1;
			}
		}
		batch[b] = lt_now_ns() - t0;
	}
	lt_print_median_pace(batch, BATCHES);
	return 0;
}
