// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuhog.c - CPU contention (DepGraph V-B): thread ex_victim (SCHED_OTHER,
 * CPU 1) alternates a little work and 5 ms of sleep; after 100 ms thread
 * ex_hog (SCHED_FIFO 50, CPU 1) spins HOG_MS, so the victim stays runnable.
 *
 * Usage: ex-cpuhog [HOG_MS]   (default 200)
 * Prints victim_tid, hog_tid, hog_start, hog_end (CLOCK_MONOTONIC ns).
 */
#include <stdatomic.h>

#include "common.h"

static atomic_int done;
static unsigned int hog_ms = 200;

static void *victim(void *arg)
{
	(void)arg;
	name_self("ex_victim");
	pin_self(1);
	out("victim_tid=%d", gettid_());
	/* Mostly asleep: when the hog wakes up it finds the victim asleep,
	 * so the victim's next wakeup waits for the whole spin. */
	while (!atomic_load(&done)) {
		for (volatile unsigned int i = 0; i < 1000; i++)
			;
		sleep_ms(5);
	}
	return NULL;
}

static void *hog(void *arg)
{
	struct sched_param sp = { .sched_priority = 50 };
	uint64_t start, end;

	(void)arg;
	name_self("ex_hog");
	pin_self(1);
	out("hog_tid=%d", gettid_());
	sleep_ms(100);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("sched_setscheduler");
	start = now_ns();
	spin_ms(hog_ms);
	end = now_ns();
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	out("hog_start=%llu", (unsigned long long)start);
	out("hog_end=%llu", (unsigned long long)end);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t v, h;

	if (argc > 1)
		hog_ms = (unsigned int)strtoul(argv[1], NULL, 10);
	pthread_create(&v, NULL, victim, NULL);
	pthread_create(&h, NULL, hog, NULL);
	pthread_join(h, NULL);
	sleep_ms(50);
	atomic_store(&done, 1);
	pthread_join(v, NULL);
	return 0;
}
