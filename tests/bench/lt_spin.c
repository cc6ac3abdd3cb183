// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_spin.c - the spinner of make bench's irq part (tests/guest/bench.sh):
 * a fixed amount of computation on CPU 1 (200 batches of 200000 additions
 * to a volatile counter), while interrupts hit that CPU.  Prints the ms it
 * takes at the median batch's pace (lt_batches.h): the time the
 * interrupts, and what is hooked on them, take from it is in every batch.
 */
#include "lt_batches.h"

#define BATCHES		200
#define ADDS		200000

int main(void)
{
	static long long batch[BATCHES];
	volatile unsigned long counter = 0;
	int b, i;

	if (lt_pin_cpu(1)) {
		perror("lt_spin: sched_setaffinity");
		return 1;
	}
	for (b = 0; b < BATCHES; b++) {
		long long t0 = lt_now_ns();

		for (i = 0; i < ADDS; i++)
			counter = counter + 1;
		batch[b] = lt_now_ns() - t0;
	}
	lt_print_median_pace(batch, BATCHES);
	return 0;
}
