// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuhog.c - CPU contention (DepGraph V-B): thread ex_victim (SCHED_OTHER,
 * CPU 1) alternates a little work and a wait on a pipe that thread
 * ex_waker (CPU 0) writes every 5 ms; after 100 ms thread ex_hog
 * (SCHED_FIFO 50, CPU 1) spins HOG_MS, so the victim stays runnable.
 * The victim is woken from the other CPU, not by a timer of its own: on
 * PREEMPT_RT timers expire in the ktimers/N threads, which the hog keeps
 * off CPU 1 too, and the victim would not be woken at all until the spin
 * ends.
 *
 * Usage: ex-cpuhog [HOG_MS]   (default 200)
 * Prints victim_tid, hog_tid, hog_start, hog_end (CLOCK_MONOTONIC ns).
 */
#include <stdatomic.h>

#include "common.h"

static atomic_int done;
static unsigned int hog_ms = 200;
static int kick[2];	/* ex_waker -> ex_victim */

static void *victim(void *arg)
{
	char c;

	(void)arg;
	name_self("ex_victim");
	pin_self(1);
	out("victim_tid=%d", gettid_());
	/* Mostly asleep: when the hog wakes up it finds the victim asleep,
	 * so the victim's next wakeup waits for the whole spin. */
	while (!atomic_load(&done)) {
		for (volatile unsigned int i = 0; i < 1000; i++)
			;
		if (read(kick[0], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void *waker(void *arg)
{
	(void)arg;
	name_self("ex_waker");
	pin_self(0);
	while (!atomic_load(&done)) {
		sleep_ms(5);
		if (write(kick[1], "k", 1) != 1)
			break;
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
	pthread_t v, w, h;

	if (argc > 1)
		hog_ms = (unsigned int)strtoul(argv[1], NULL, 10);
	if (pipe(kick)) {
		perror("pipe");
		return 1;
	}
	pthread_create(&v, NULL, victim, NULL);
	pthread_create(&w, NULL, waker, NULL);
	pthread_create(&h, NULL, hog, NULL);
	pthread_join(h, NULL);
	sleep_ms(50);
	atomic_store(&done, 1);
	pthread_join(w, NULL);
	/* The waker's last write, after which the victim sees done. */
	if (write(kick[1], "k", 1) != 1)
		perror("write");
	pthread_join(v, NULL);
	return 0;
}
