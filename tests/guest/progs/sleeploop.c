// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleeploop.c - a process that sleeps SLEEP_MS, then spins BUSY_MS (on
 * CPU, so that the gap is not one more off-CPU interval), COUNT times
 * (0: until killed), with its comm set to NAME; prints "pid=<pid>" first.
 * The noisy neighbours and the watched task of the stack budget tests.
 *
 * usage: sleeploop NAME SLEEP_MS BUSY_MS COUNT
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct timespec nap;
	long sleep_ms, busy_ms, count, i;
	long long end;

	if (argc != 5) {
		fprintf(stderr, "usage: %s NAME SLEEP_MS BUSY_MS COUNT\n", argv[0]);
		return 2;
	}
	sleep_ms = atol(argv[2]);
	busy_ms = atol(argv[3]);
	count = atol(argv[4]);
	if (prctl(PR_SET_NAME, argv[1], 0, 0, 0))
		perror("prctl");
	printf("pid=%d\n", (int)getpid());
	fflush(stdout);
	nap.tv_sec = sleep_ms / 1000;
	nap.tv_nsec = (sleep_ms % 1000) * 1000000L;
	for (i = 0; !count || i < count; i++) {
		nanosleep(&nap, NULL);
		end = now_ns() + busy_ms * 1000000LL;
		while (now_ns() < end)
			;
	}
	return 0;
}
