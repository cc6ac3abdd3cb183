// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread_exec.c - a second thread calls execve: the kernel's de_thread()
 * gives it the leader's pid, so its execve returns (or fails) under
 * another pid than it entered with.
 *
 * thread_exec MS [PROGRAM]
 *	The second thread sleeps MS milliseconds (a slow system call), then
 *	execs PROGRAM (default /bin/true) while the main thread is blocked
 *	in a slow call (pthread_join: futex).  de_thread() kills the main
 *	thread inside its call, and the exec'ing thread sleeps until it is
 *	gone.  A PROGRAM that fails after the point of no return (see
 *	syscalls-ends.sh) kills the process with SIGSEGV.
 *
 * thread_exec -m MB MS [PROGRAM]
 *	The main thread touches MB MiB, prints pid=<its pid> and
 *	t0=<CLOCK_MONOTONIC ns> (before the second thread starts: its
 *	execve ends later, the one that started this program earlier),
 *	starts the second thread and leaves by
 *	pthread_exit() (the leader is then a zombie: de_thread() has no
 *	thread to wait for); the second thread, pinned to CPU 0, sleeps MS
 *	milliseconds, then execs PROGRAM.  The exec frees the old address
 *	space after de_thread() exchanged the pids (exec_mmap()), which
 *	takes long enough for a task runnable on CPU 0 to preempt it there;
 *	with a PROGRAM that needs no file read before it (no interpreter, on
 *	tmpfs), the execve does not leave the CPU before that.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long ms = 200;
static const char *program = "/bin/true";
static int pin = -1;

static void *run(void *arg)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	char *const argv[] = { "thread_exec-child", NULL };
	cpu_set_t set;

	(void)arg;
	if (pin >= 0) {
		CPU_ZERO(&set);
		CPU_SET(pin, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
	}
	nanosleep(&ts, NULL);
	execv(program, argv);
	perror(program);
	exit(1);
}

int main(int argc, char **argv)
{
	struct timespec now;
	size_t mb = 0;
	pthread_t t;
	char *mem;

	if (argc > 3 && !strcmp(argv[1], "-m")) {
		mb = strtoul(argv[2], NULL, 10);
		ms = atol(argv[3]);
		if (argc > 4)
			program = argv[4];
		pin = 0;
	} else if (argc > 1) {
		ms = atol(argv[1]);
		if (argc > 2)
			program = argv[2];
	}
	if (mb) {
		/* Small pages: freeing them takes long (not so huge ones). */
		mem = mmap(NULL, mb << 20, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		madvise(mem, mb << 20, MADV_NOHUGEPAGE);
		memset(mem, 1, mb << 20);
		clock_gettime(CLOCK_MONOTONIC, &now);
		printf("pid=%d\nt0=%lld\n", getpid(),
		       now.tv_sec * 1000000000LL + now.tv_nsec);
		fflush(stdout);
	}
	if (pthread_create(&t, NULL, run, NULL))
		return 1;
	if (mb)
		pthread_exit(NULL);
	pthread_join(t, NULL);
	return 1;	/* not reached: the exec replaces the process */
}
