// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread_exec.c MS - a second thread sleeps MS milliseconds (a slow
 * system call), then calls execve("/bin/true") while the main thread is
 * blocked in a slow call (pthread_join: futex).  The kernel's de_thread()
 * kills the main thread inside its call and gives the exec'ing thread the
 * leader's pid: its execve returns under another pid than it entered with.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long ms = 200;

static void *run(void *arg)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	char *const argv[] = { "true", NULL };

	(void)arg;
	nanosleep(&ts, NULL);
	execv("/bin/true", argv);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		ms = atol(argv[1]);
	if (pthread_create(&t, NULL, run, NULL))
		return 1;
	pthread_join(t, NULL);
	return 1;	/* not reached: the exec replaces the process */
}
