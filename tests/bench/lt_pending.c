// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_pending N - hold N threads asleep in a system call, for the scaling
 * part of make bench (tests/guest/bench.sh): each sleeping thread is a
 * pending event for every configuration that measures off-CPU and system
 * call latency (ours: one in the offcpu and one in the syscalls tracker;
 * ftrace and bpftrace: one entry in each pair's map).
 *
 * Prints "ready N" once the N threads sleep.  Then, for every line "wake"
 * on standard input, wakes all of them; each runs, counts itself and goes
 * back to sleep in futex(FUTEX_WAIT), so that whatever tracing was turned
 * on since sees each of them leave and enter the sleep again; "asleep N"
 * is printed once all N have counted (then 200 ms for the last ones to be
 * switched out).  Exits at end of input.  Stacks: 32 KiB per thread from
 * one mapping, small pages (one or two of them are ever touched).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define STACK_SIZE (32 * 1024)
#define MAX_THREADS 1000000L

static atomic_uint generation;	/* the futex word */
static atomic_ulong counted;

static long futex(atomic_uint *word, int op, unsigned int val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static void *sleeper(void *arg)
{
	unsigned int seen = atomic_load(&generation);

	(void)arg;
	for (;;) {
		atomic_fetch_add(&counted, 1);
		while (atomic_load(&generation) == seen)
			futex(&generation, FUTEX_WAIT_PRIVATE, seen);
		seen = atomic_load(&generation);
	}
	return NULL;
}

static void wait_counted(unsigned long target)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };

	while (atomic_load(&counted) < target)
		nanosleep(&tick, NULL);
	nanosleep(&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
}

int main(int argc, char **argv)
{
	unsigned long round = 1;
	pthread_attr_t attr;
	char line[64], *end;
	long n, i;
	char *stacks;
	int err;

	if (argc != 2)
		goto usage;
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || n < 1 || n > MAX_THREADS)
		goto usage;
	stacks = mmap(NULL, (size_t)n * STACK_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (stacks == MAP_FAILED) {
		perror("lt_pending: mmap");
		return 1;
	}
	/*
	 * Small pages: a transparent huge page would make every stack's
	 * first touch fault in 2 MiB, the whole mapping (10^5 threads: 3 GiB).
	 * EINVAL: a kernel without transparent huge pages (small pages only).
	 */
	if (madvise(stacks, (size_t)n * STACK_SIZE, MADV_NOHUGEPAGE) &&
	    errno != EINVAL) {
		perror("lt_pending: madvise");
		return 1;
	}
	pthread_attr_init(&attr);
	for (i = 0; i < n; i++) {
		pthread_t t;

		pthread_attr_setstack(&attr, stacks + i * STACK_SIZE, STACK_SIZE);
		err = pthread_create(&t, &attr, sleeper, NULL);
		if (err) {
			fprintf(stderr, "lt_pending: thread %ld of %ld: %s\n", i + 1,
				n, strerror(err));
			return 1;
		}
	}
	wait_counted((unsigned long)n);
	printf("ready %ld\n", n);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (strcmp(line, "wake\n")) {
			fprintf(stderr, "lt_pending: unknown command %s", line);
			return 1;
		}
		atomic_fetch_add(&generation, 1);
		futex(&generation, FUTEX_WAKE_PRIVATE, INT_MAX);
		wait_counted((unsigned long)n * ++round);
		printf("asleep %ld\n", n);
		fflush(stdout);
	}
	return 0;

usage:
	fprintf(stderr, "usage: lt_pending N (1..%ld threads)\n", MAX_THREADS);
	return 2;
}
