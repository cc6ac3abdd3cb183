// SPDX-License-Identifier: GPL-2.0-only
/*
 * pool.c - a thread pool serialised by one lock (GAPP's case: few threads
 * runnable while the others wait): WORKERS threads ex_pool_w, not pinned
 * (the guest has 2 CPUs), in two phases:
 *
 *   parallel  each worker spins PAR_MS on its own (no lock);
 *   serial    each worker takes the pool's mutex ROUNDS times and spins
 *             HOLD_MS holding it: one runs, the others wait in futex().
 *
 * The main thread starts them, waits with them at a barrier before each
 * phase, then joins them.
 *
 * Usage: ex-pool [HOLD_MS [ROUNDS [PAR_MS]]]   (default 2 15 100)
 * Prints pid, worker_tid (one line each), mutex (its address), and the
 * phases from the workers' own CLOCK_MONOTONIC timestamps: par_start (the
 * first worker starting to spin), par_end (the last one done), ser_start
 * (the first lock attempt), ser_end (the last unlock), and last_tid, the
 * worker that unlocked last (it waited for the others: the slow thread).
 */
#include "common.h"

#define WORKERS 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t phase;
static unsigned int hold_ms = 2, rounds = 15, par_ms = 100;

struct worker {
	pthread_t th;
	pid_t tid;
	uint64_t par_start, par_end, ser_start, ser_end;
};

static struct worker w[WORKERS];

static void *work(void *arg)
{
	struct worker *me = arg;

	name_self("ex_pool_w");
	me->tid = gettid_();
	out("worker_tid=%d", me->tid);
	/* Run the code paths once (under TCG new code is slow the first
	 * time): the phases are then the spins and the lock alone. */
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	spin_ms(1);
	pthread_barrier_wait(&phase);
	me->par_start = now_ns();
	spin_ms(par_ms);
	me->par_end = now_ns();
	pthread_barrier_wait(&phase);
	me->ser_start = now_ns();
	for (unsigned int i = 0; i < rounds; i++) {
		pthread_mutex_lock(&lock);
		spin_ms(hold_ms);
		pthread_mutex_unlock(&lock);
	}
	me->ser_end = now_ns();
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t ps = UINT64_MAX, pe = 0, ss = UINT64_MAX, se = 0;
	pid_t last = 0;

	if (argc > 1)
		hold_ms = (unsigned int)strtoul(argv[1], NULL, 10);
	if (argc > 2)
		rounds = (unsigned int)strtoul(argv[2], NULL, 10);
	if (argc > 3)
		par_ms = (unsigned int)strtoul(argv[3], NULL, 10);
	if (!hold_ms || !rounds || !par_ms) {
		fprintf(stderr, "usage: ex-pool [HOLD_MS [ROUNDS [PAR_MS]]] (each > 0)\n");
		return 2;
	}
	out("pid=%d", (int)getpid());
	out("mutex=%p", (void *)&lock);
	pthread_barrier_init(&phase, NULL, WORKERS + 1);
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&w[i].th, NULL, work, &w[i]);
	pthread_barrier_wait(&phase);		/* parallel phase */
	pthread_barrier_wait(&phase);		/* serial phase */
	for (int i = 0; i < WORKERS; i++) {
		pthread_join(w[i].th, NULL);
		ps = w[i].par_start < ps ? w[i].par_start : ps;
		pe = w[i].par_end > pe ? w[i].par_end : pe;
		ss = w[i].ser_start < ss ? w[i].ser_start : ss;
		if (w[i].ser_end > se) {
			se = w[i].ser_end;
			last = w[i].tid;
		}
	}
	out("par_start=%llu", (unsigned long long)ps);
	out("par_end=%llu", (unsigned long long)pe);
	out("ser_start=%llu", (unsigned long long)ss);
	out("ser_end=%llu", (unsigned long long)se);
	out("last_tid=%d", (int)last);
	return 0;
}
