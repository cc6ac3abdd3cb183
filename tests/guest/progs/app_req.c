// SPDX-License-Identifier: GPL-2.0-only
/*
 * app_req - an application that marks its requests with liblatency-tracker,
 * built as a user builds one (pkg-config --cflags --libs latency-tracker),
 * for tests/guest/app.sh.
 *
 *   app_req TRACKER KIND COUNT MS [THRESHOLD_NS]
 *
 * Runs COUNT requests of KIND, each lasting about MS ms, on one thread
 * pinned to CPU 0, cookies 1..COUNT (KIND's first cookie: 1000 * its
 * index below, plus 1..COUNT):
 *
 *   sleep     blocked in nanosleep
 *   compute   on CPU (a clock_gettime loop)
 *   lock      blocked in futex: another thread holds the mutex MS ms
 *   hog       waiting for the CPU: a SCHED_FIFO thread on CPU 0 spins MS
 *             ms, then the request computes 1 ms
 *   xthread   begun on one thread, ended on another (on CPU 1) after MS
 *             ms; meanwhile the first thread waits for it (odd cookies:
 *             off CPU, its request taken into the tracker) or spins
 *             (even cookies: its request still in its block at the end)
 *   churn     COUNT begin/end pairs as fast as possible (MS unused),
 *             on 4 threads; errors are counted, not fatal (unload test)
 *   orphan    requests never ended: a thread begins one (cookie 6001)
 *             and exits, then the handle is closed with one open (6002);
 *             prints `orphan rb=RC rb=RC` (COUNT and MS unused)
 *   fork      a request (cookie 7001, a sleep of MS ms), then a forked
 *             child marks one (7002) with the handle it inherited; one
 *             `req` line each (COUNT unused)
 *   handles   on CPU for MS ms, begun through the handle, ended through
 *             a second handle of the same tracker
 *   restart   begun, off CPU for MS ms, begun again (`begin=` is then),
 *             and ended by another thread (on CPU 1, started before the
 *             second begin) after MS ms while this one spins: the second
 *             begin is still in this thread's block at the end
 *
 * Prints one line per request: `req cookie=C tid=T begin=NS end=NS
 * rb=RC re=RC` (CLOCK_MONOTONIC around the calls: begin just before
 * lt_app_begin(), end just after lt_app_end(); rb, re their return
 * values), or for churn `churn ok=N err=M`.  lt_app_open() failing
 * prints `open errno=E` and, to show the application goes on, the calls
 * with a NULL handle: `null rb=RC re=RC`; exit status 0 either way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <latency-tracker.h>

static struct lt_app *app;
static long ms;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void report(uint64_t cookie, uint64_t b, uint64_t e, int rb, int re)
{
	printf("req cookie=%llu tid=%d begin=%llu end=%llu rb=%d re=%d\n",
	       (unsigned long long)cookie, gettid(), (unsigned long long)b,
	       (unsigned long long)e, rb, re);
}

/* lock: the holder takes the mutex, lets the request start, holds MS ms. */
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static sem_t held, go;

static void *holder(void *arg)
{
	long n = (long)arg;

	for (long i = 0; i < n; i++) {
		sem_wait(&go);
		pthread_mutex_lock(&mtx);
		sem_post(&held);
		usleep(ms * 1000);
		pthread_mutex_unlock(&mtx);
	}
	return NULL;
}

/* hog: SCHED_FIFO on CPU 0, spins MS ms each time it is released. */
static void *hog(void *arg)
{
	long n = (long)arg;

	pin(0);
	for (long i = 0; i < n; i++) {
		sem_wait(&go);
		spin_ns(ms * 1000000ULL);
	}
	return NULL;
}

/* xthread: ends the request its creator began. */
struct xreq {
	uint64_t cookie;
	int re;
	uint64_t end;
	atomic_int done;
	int sync;		/* restart: on CPU 1 before the second begin */
	sem_t ready, go;
};

static void *ender(void *arg)
{
	struct xreq *x = arg;

	pin(1);
	if (x->sync) {
		sem_post(&x->ready);
		sem_wait(&x->go);
	}
	usleep(ms * 1000);
	x->re = lt_app_end(app, x->cookie);
	x->end = now_ns();
	atomic_store(&x->done, 1);
	return NULL;
}

/* orphan: a request begun by a thread that exits. */
static void *orphan(void *arg)
{
	*(int *)arg = lt_app_begin(app, 6001);
	return NULL;
}

static long churn_ok, churn_err;
static pthread_mutex_t churn_lock = PTHREAD_MUTEX_INITIALIZER;

static void *churner(void *arg)
{
	long n = (long)arg, ok = 0, err = 0;
	uint64_t base = (uint64_t)gettid() << 32;

	for (long i = 0; i < n; i++) {
		if (lt_app_begin(app, base + i) || lt_app_end(app, base + i))
			err++;
		else
			ok++;
	}
	pthread_mutex_lock(&churn_lock);
	churn_ok += ok;
	churn_err += err;
	pthread_mutex_unlock(&churn_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = {
		"sleep", "compute", "lock", "hog", "xthread", "churn",
		"orphan", "fork", "handles", "restart",
	};
	unsigned long long threshold = 1000000;
	struct lt_app *app2 = NULL;
	pthread_t t[4];
	int kind = -1;
	long count;

	if (argc < 5) {
		fprintf(stderr, "usage: app_req TRACKER KIND COUNT MS [THRESHOLD_NS]\n");
		return 2;
	}
	for (unsigned int i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(argv[2], kinds[i]))
			kind = i;
	count = atol(argv[3]);
	ms = atol(argv[4]);
	if (argc > 5)
		threshold = strtoull(argv[5], NULL, 10);
	if (kind < 0 || count <= 0 || ms < 0) {
		fprintf(stderr, "app_req: bad arguments\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	app = lt_app_open(argv[1], threshold, 0);
	if (!app) {
		printf("open errno=%d\n", errno);
		printf("null rb=%d re=%d\n", lt_app_begin(NULL, 1),
		       lt_app_end(NULL, 1));
		return 0;
	}
	if (!strcmp(argv[2], "handles")) {
		app2 = lt_app_open(argv[1], threshold, 0);
		if (!app2) {
			printf("open2 errno=%d\n", errno);
			return 1;
		}
	}
	pin(0);
	sem_init(&held, 0, 0);
	sem_init(&go, 0, 0);
	if (!strcmp(argv[2], "lock"))
		pthread_create(&t[0], NULL, holder, (void *)count);
	if (!strcmp(argv[2], "hog")) {
		pthread_attr_t attr;
		struct sched_param sp = { .sched_priority = 50 };

		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
		if (pthread_create(&t[0], &attr, hog, (void *)count)) {
			fprintf(stderr, "app_req: no SCHED_FIFO thread\n");
			return 1;
		}
	}
	if (!strcmp(argv[2], "churn")) {
		for (int i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, churner, (void *)count);
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		printf("churn ok=%ld err=%ld\n", churn_ok, churn_err);
		lt_app_close(app);
		return 0;
	}
	if (!strcmp(argv[2], "orphan")) {
		int rb1, rb2;

		pthread_create(&t[0], NULL, orphan, &rb1);
		pthread_join(t[0], NULL);
		rb2 = lt_app_begin(app, 6002);
		lt_app_close(app);
		printf("orphan rb=%d rb=%d\n", rb1, rb2);
		return 0;
	}
	if (!strcmp(argv[2], "fork")) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
		uint64_t cookie = 7001, b, e;
		pid_t child;
		int rb, re;

		for (;;) {
			b = now_ns();
			rb = lt_app_begin(app, cookie);
			nanosleep(&ts, NULL);
			re = lt_app_end(app, cookie);
			e = now_ns();
			report(cookie, b, e, rb, re);
			if (cookie == 7002)
				_exit(0);
			fflush(stdout);
			child = fork();
			if (child < 0)
				return 1;
			if (child > 0)
				break;
			cookie = 7002;
		}
		waitpid(child, NULL, 0);
		lt_app_close(app);
		return 0;
	}

	/*
	 * A pair far under the threshold first: the first calls bind the
	 * library's symbols and fault its pages in, between the clock read
	 * and the kernel's (10 ms on the debug kernel, outside the record).
	 */
	now_ns();
	lt_app_begin(app, 1000 * (uint64_t)kind + 999);
	lt_app_end(app, 1000 * (uint64_t)kind + 999);
	for (long i = 1; i <= count; i++) {
		uint64_t cookie = 1000 * (uint64_t)kind + i, b, e;
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
		struct xreq x = { .cookie = cookie };
		pthread_t th;
		int rb, re = 0;

		if (!strcmp(argv[2], "lock")) {
			sem_post(&go);
			sem_wait(&held);
		}
		b = now_ns();
		rb = lt_app_begin(app, cookie);
		if (!strcmp(argv[2], "restart")) {
			nanosleep(&ts, NULL);
			x.sync = 1;
			sem_init(&x.ready, 0, 0);
			sem_init(&x.go, 0, 0);
			pthread_create(&th, NULL, ender, &x);
			sem_wait(&x.ready);
			b = now_ns();
			rb = lt_app_begin(app, cookie);
			sem_post(&x.go);
			while (!atomic_load(&x.done))
				;
			pthread_join(th, NULL);
		}
		if (!strcmp(argv[2], "sleep")) {
			nanosleep(&ts, NULL);
		} else if (!strcmp(argv[2], "compute") ||
			   !strcmp(argv[2], "handles")) {
			spin_ns(ms * 1000000ULL);
		} else if (!strcmp(argv[2], "lock")) {
			pthread_mutex_lock(&mtx);
			pthread_mutex_unlock(&mtx);
		} else if (!strcmp(argv[2], "hog")) {
			sem_post(&go);
			spin_ns(1000000);
		} else if (!strcmp(argv[2], "xthread")) {
			pthread_create(&th, NULL, ender, &x);
			while (i % 2 == 0 && !atomic_load(&x.done))
				;
			pthread_join(th, NULL);
		}
		if (!strcmp(argv[2], "xthread") ||
		    !strcmp(argv[2], "restart")) {
			re = x.re;
			e = x.end;
		} else if (app2) {
			re = lt_app_end(app2, cookie);
			e = now_ns();
		} else {
			re = lt_app_end(app, cookie);
			e = now_ns();
		}
		report(cookie, b, e, rb, re);
		/* Let the hog's or holder's round end before the next. */
		usleep(20000);
	}
	lt_app_close(app2);
	lt_app_close(app);
	return 0;
}
