// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_pingpong.c - the ping-pong loop of make bench (tests/guest/bench.sh):
 * two threads on CPU 0 hand a byte back and forth through two pipes,
 * 40000 round trips in 200 batches.  A round trip is four system calls,
 * two of them blocking: two wakeups, two switches, two off-CPU intervals
 * -- the path of every tracker at once, with nothing else.  Prints the ms
 * the 40000 round trips take at the median batch's pace (lt_batches.h).
 * Exits 1 if a call fails.
 *
 * Built a second time as lt_pingpong_app (LT_PINGPONG_APP, linked with
 * liblatency-tracker), `lt_pingpong_app TRACKER`: each thread has a
 * request of application tracker TRACKER open during the loop, so that
 * every switch and wakeup of the loop takes the breakdown's accounting
 * (bench.sh's app part: the cost per switch of a thread with a request
 * open).
 */
#include "lt_batches.h"

#include <pthread.h>
#include <unistd.h>

#ifdef LT_PINGPONG_APP
#include <latency-tracker.h>

static struct lt_app *app;
#define LT_OPEN(c)	(lt_app_begin(app, (c)) == 0)
#define LT_CLOSE(c)	(lt_app_end(app, (c)) == 0)
#else
#define LT_OPEN(c)	((void)(c), 1)
#define LT_CLOSE(c)	((void)(c), 1)
#endif

#define BATCHES		200
#define TRIPS		200	/* per batch: 200 * 200 = 40000 */

static int ping[2], pong[2];

/* The other end: returns every byte it gets, until the pipe closes. */
static void *echo(void *arg)
{
	char c;

	(void)arg;
	if (lt_pin_cpu0() || !LT_OPEN(2))
		return (void *)1;
	while (read(ping[0], &c, 1) == 1)
		if (write(pong[1], &c, 1) != 1)
			return (void *)1;
	return LT_CLOSE(2) ? NULL : (void *)1;
}

int main(int argc, char **argv)
{
	static long long batch[BATCHES];
	pthread_t th;
	void *ret;
	int b, i;
	char c = 0;

#ifdef LT_PINGPONG_APP
	/* Never over the threshold: 1000 s. */
	app = argc == 2 ? lt_app_open(argv[1], 1000000000000ULL, 0) : NULL;
	if (!app) {
		perror("lt_pingpong_app TRACKER: lt_app_open");
		return 1;
	}
#else
	(void)argc;
	(void)argv;
#endif
	if (lt_pin_cpu0() || pipe(ping) || pipe(pong) || !LT_OPEN(1)) {
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
	if (pthread_join(th, &ret) || ret || !LT_CLOSE(1)) {
		fprintf(stderr, "lt_pingpong: the echo thread failed\n");
		return 1;
	}
	lt_print_median_pace(batch, BATCHES);
	return 0;
}
