// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_pingpong.c - the ping-pong loop of make bench (tests/guest/bench.sh):
 * two threads on CPU 0 hand a byte back and forth through two pipes,
 * 40000 round trips in 200 batches.  A round trip is four system calls,
 * two of them blocking: two wakeups, two switches, two off-CPU intervals
 * -- the path of every tracker at once, with nothing else.  Prints the ms
 * the 40000 round trips take at the median batch's pace (lt_batches.h).
 * Exits 1 if a call fails.
 */
#include "lt_batches.h"

#include <pthread.h>
#include <unistd.h>

#define BATCHES		200
#define TRIPS		200	/* per batch: 200 * 200 = 40000 */

static int ping[2], pong[2];

/* The other end: returns every byte it gets, until the pipe closes. */
static void *echo(void *arg)
{
	char c;

	(void)arg;
	if (lt_pin_cpu0())
		return (void *)1;
	while (read(ping[0], &c, 1) == 1)
		if (write(pong[1], &c, 1) != 1)
			return (void *)1;
	return NULL;
}

int main(void)
{
	static long long batch[BATCHES];
	pthread_t th;
	void *ret;
	int b, i;
	char c = 0;

	if (lt_pin_cpu0() || pipe(ping) || pipe(pong)) {
		perror("lt_pingpong: setup");
		return 1;
	}
	if (pthread_create(&th, NULL, echo, NULL)) {
		fprintf(stderr, "lt_pingpong: cannot start the echo thread\n");
		return 1;
	}
	for (b = 0; b < BATCHES; b++) {
		long long t0 = lt_now_ns();

		for (i = 0; i < TRIPS; i++) {
			if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) {
				perror("lt_pingpong: write/read");
				return 1;
			}
		}
		batch[b] = lt_now_ns() - t0;
	}
	close(ping[1]);
	if (pthread_join(th, &ret) || ret) {
		fprintf(stderr, "lt_pingpong: the echo thread failed\n");
		return 1;
	}
	lt_print_median_pace(batch, BATCHES);
	return 0;
}
