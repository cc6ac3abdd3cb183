/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common.h - helpers shared by the explain scenario programs: pinning,
 * thread ids, CLOCK_MONOTONIC timestamps (the clock of LTTng's kernel
 * trace and of our alert records), busy loops and sleeps, key=value output.
 */
#ifndef EX_PROG_COMMON_H
#define EX_PROG_COMMON_H

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static inline pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static inline void name_self(const char *name)
{
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static inline void pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

static inline void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/* Spin on the CPU for ms of CLOCK_MONOTONIC time.  The clock is read
 * every few thousand iterations only: in a TCG guest clock_gettime is a
 * real system call (no usable TSC for the vDSO), and a traced syscall per
 * iteration would flood the trace. */
static inline void spin_ms(unsigned int ms)
{
	uint64_t end = now_ns() + ms * NSEC_PER_MSEC;

	while (now_ns() < end)
		for (volatile unsigned int i = 0; i < 20000; i++)
			;
}

/* One "key=value" line, written at once with a single write(2): threads
 * print concurrently and their lines must not interleave. */
static inline __attribute__((format(printf, 1, 2)))
void out(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, (size_t)n) != n)
		perror("write");
}

#endif /* EX_PROG_COMMON_H */
