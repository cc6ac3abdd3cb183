// SPDX-License-Identifier: GPL-2.0-only
/*
 * lock.c - lock contention (DepGraph V-A): thread ex_holder (CPU 0) takes a
 * pthread mutex and sleeps HOLD_MS inside it; thread ex_waiter (CPU 1)
 * spins until the mutex is taken, then blocks on it in futex().
 *
 * Usage: ex-lock [HOLD_MS]   (default 100)
 * Prints holder_tid, waiter_tid, waiter_start, waiter_end (CLOCK_MONOTONIC
 * ns around the waiter's pthread_mutex_lock) and mutex (its address).
 */
#include <stdatomic.h>

#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t warm = PTHREAD_MUTEX_INITIALIZER;
static atomic_int held;
static unsigned int hold_ms = 100;

static void *holder(void *arg)
{
	(void)arg;
	name_self("ex_holder");
	pin_self(0);
	out("holder_tid=%d", gettid_());
	/* Run the code paths once first (under TCG the first run of new code
	 * is slow): the hold is then the sleep alone. */
	sleep_ms(1);
	pthread_mutex_lock(&warm);
	pthread_mutex_unlock(&warm);
	pthread_mutex_lock(&lock);
	atomic_store(&held, 1);
	sleep_ms(hold_ms);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *waiter(void *arg)
{
	uint64_t start, end;

	(void)arg;
	name_self("ex_waiter");
	pin_self(1);
	out("waiter_tid=%d", gettid_());
	pthread_mutex_lock(&warm);
	pthread_mutex_unlock(&warm);
	(void)now_ns();
	while (!atomic_load(&held))
		;
	start = now_ns();
	pthread_mutex_lock(&lock);
	end = now_ns();
	pthread_mutex_unlock(&lock);
	out("waiter_start=%llu", (unsigned long long)start);
	out("waiter_end=%llu", (unsigned long long)end);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1)
		hold_ms = (unsigned int)strtoul(argv[1], NULL, 10);
	out("mutex=%p", (void *)&lock);
	pthread_create(&b, NULL, waiter, NULL);
	pthread_create(&a, NULL, holder, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
