// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_appbench.c - the application-request part of make bench
 * (tests/guest/bench.sh, part "app"): the cost of marking one request,
 * its begin and its end, on CPU 0, in 200 batches of 500 requests.
 *
 *   lt_appbench floor       two empty system calls (getppid): the floor
 *   lt_appbench ioctl       one empty ioctl on the transport file (a
 *                           command it does not know: ENOTTY), what the
 *                           system call ours makes costs before our work
 *   lt_appbench ours NAME   lt_app_begin() + lt_app_end() on application
 *                           tracker NAME (a begin in the thread's block,
 *                           an end one ioctl)
 *   lt_appbench_ust         two LTTng-UST tracepoints (begin, end; one
 *                           64-bit field each) recorded by whatever
 *                           session is active (ust/, built only with
 *                           liblttng-ust-dev)
 *
 * Prints the ns per request at the median batch's pace, or exits 1 when a
 * call fails.
 */
#include "lt_batches.h"

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef LT_APPBENCH_UST
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ust/lt_bench_app_tp.h"
#else
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <latency-tracker.h>
#include "../../include/lt_app_abi.h"
#endif

#define BATCHES		200
#define REQS		500

int main(int argc, char **argv)
{
	static long long batch[BATCHES];
#ifndef LT_APPBENCH_UST
	struct lt_app *app = NULL;
	int ours = argc > 2 && !strcmp(argv[1], "ours");
	int empty = argc == 2 && !strcmp(argv[1], "ioctl");
	int fd = -1;

	if (!ours && !empty && (argc != 2 || strcmp(argv[1], "floor"))) {
		fprintf(stderr, "usage: lt_appbench floor | ioctl | ours NAME\n");
		return 2;
	}
	if (empty) {
		fd = open(LT_APP_FILE, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			perror("lt_appbench: " LT_APP_FILE);
			return 1;
		}
	}
	if (ours) {
		/* Never over the threshold: 1000 s. */
		app = lt_app_open(argv[2], 1000000000000ULL, 0);
		if (!app) {
			perror("lt_appbench: lt_app_open");
			return 1;
		}
	}
#else
	(void)argc;
	(void)argv;
#endif
	if (lt_pin_cpu0()) {
		perror("lt_appbench: sched_setaffinity");
		return 1;
	}
	for (int b = 0; b < BATCHES; b++) {
		long long t0 = lt_now_ns();

		for (uint64_t i = 0; i < REQS; i++) {
			uint64_t cookie = (uint64_t)b * REQS + i;
#ifdef LT_APPBENCH_UST
			lttng_ust_tracepoint(lt_bench_app, begin, cookie);
			lttng_ust_tracepoint(lt_bench_app, end, cookie);
#else
			if (ours) {
				int rb = lt_app_begin(app, cookie);
				int re = lt_app_end(app, cookie);

				if (rb || re) {
					fprintf(stderr, "lt_appbench: begin %d, end %d\n",
						rb, re);
					return 1;
				}
			} else if (empty) {
				/* Command 0 of our code: not one of ours. */
				if (ioctl(fd, _IO(LT_APP_IOC_MAGIC, 0)) != -1 ||
				    errno != ENOTTY) {
					perror("lt_appbench: an empty ioctl did not fail with ENOTTY");
					return 1;
				}
			} else {
				syscall(SYS_getppid);
				syscall(SYS_getppid);
			}
#endif
		}
		batch[b] = lt_now_ns() - t0;
	}
	qsort(batch, BATCHES, sizeof(batch[0]), lt_cmp_ll);
	printf("%lld\n", batch[BATCHES / 2] / REQS);
	return 0;
}
