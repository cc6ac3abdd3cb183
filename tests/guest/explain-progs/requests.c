// SPDX-License-Identifier: GPL-2.0-only
/*
 * requests.c - fast and slow executions of one workload (DepGraph IV-A):
 * thread ex_worker serves "requests" in a loop: sleep 10 ms (the idle
 * gap between requests), then 2 ms of work, a short critical section under
 * a mutex, 1 ms of work.  Thread ex_holder takes the same mutex for HOLD_MS
 * every PERIOD_MS, so the request that meets it waits in futex() — only
 * those are slow.
 *
 * Usage: ex-requests SECONDS [HOLD_MS [PERIOD_MS]]   (default 100, 400)
 * Prints worker_tid, holder_tid, requests (how many were served).
 */
#include <stdatomic.h>

#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int done;
static unsigned int hold_ms = 100, period_ms = 400;

static void *holder(void *arg)
{
	(void)arg;
	name_self("ex_holder");
	pin_self(0);
	out("holder_tid=%d", gettid_());
	while (!atomic_load(&done)) {
		sleep_ms(period_ms - hold_ms);
		pthread_mutex_lock(&lock);
		sleep_ms(hold_ms);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long requests = 0;
	uint64_t end;
	pthread_t h;

	if (argc < 2) {
		fprintf(stderr, "usage: ex-requests SECONDS [HOLD_MS [PERIOD_MS]]\n");
		return 2;
	}
	end = now_ns() + strtoull(argv[1], NULL, 10) * NSEC_PER_SEC;
	if (argc > 2)
		hold_ms = (unsigned int)strtoul(argv[2], NULL, 10);
	if (argc > 3)
		period_ms = (unsigned int)strtoul(argv[3], NULL, 10);
	name_self("ex_worker");
	pin_self(1);
	out("worker_tid=%d", gettid_());
	pthread_create(&h, NULL, holder, NULL);
	while (now_ns() < end) {
		sleep_ms(10);
		spin_ms(2);
		pthread_mutex_lock(&lock);
		requests++;
		pthread_mutex_unlock(&lock);
		spin_ms(1);
	}
	atomic_store(&done, 1);
	pthread_join(h, NULL);
	out("requests=%lu", requests);
	return 0;
}
