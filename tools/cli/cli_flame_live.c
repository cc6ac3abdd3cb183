// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_flame_live.c - the live source of `latency-tracker flamegraph`: the
 * alert records of every tracker (or of the one named) as they come,
 * through lt_watch like `follow`, kept in the samples until SIGINT or
 * SIGTERM (taken from a signalfd: the graph is still written) or until
 * the duration has passed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_flame.h"
#include "lt_num.h"
#include "lt_record.h"
#include "lt_watch.h"

#define LIVE_RESCAN_MS	1000
#define LIVE_MAX_EVENTS	16

struct live {
	struct lt_samples *s;
	bool refused;		/* modules of another record format */
	bool oom;
};

static void on_line(void *ctx, const char *tracker, char *line)
{
	struct live *lv = ctx;
	struct lt_record r;
	const char *why;

	(void)tracker;
	if (lt_record_parse(line, &r, &why))
		lv->s->malformed++;
	else if (lt_samples_add(lv->s, &r))
		lv->oom = true;
}

static void on_error(void *ctx, const char *tracker, const char *what,
		     int err)
{
	struct live *lv = ctx;

	if (!strcmp(tracker, LT_WATCH_ALL)) {
		cli_err("%s", what);
		lv->refused = true;
		return;
	}
	cli_warn("%s: %s: %s", tracker, what, strerror(err));
}

static const struct lt_watch_ops live_ops = {
	.line = on_line,
	.error = on_error,
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * LT_NSEC_PER_SEC + (uint64_t)t.tv_nsec;
}

int cli_flame_live(struct lt_samples *s, const char *tracker,
		   uint64_t duration)
{
	struct live lv = { .s = s };
	struct lt_epoll_src sig = { .kind = LT_SRC_SIGNAL, .fd = -1 };
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &sig };
	struct epoll_event evs[LIVE_MAX_EVENTS];
	char *only[2] = { (char *)tracker, NULL };
	uint64_t end = duration ? now_ns() + duration : 0;
	sigset_t mask, old;
	struct lt_watch w;
	bool stop = false;
	int epfd, ret;

	ret = tracker ? cli_check_tracker(tracker) : cli_check_access();
	if (ret)
		return ret;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		cli_err("epoll: %s", strerror(errno));
		return CLI_FAIL;
	}
	sigprocmask(SIG_BLOCK, &mask, &old);
	sig.fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sig.fd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, sig.fd, &ev)) {
		cli_err("signalfd: %s", strerror(errno));
		ret = CLI_FAIL;
		goto out;
	}
	fprintf(stderr, "latency-tracker: following the alerts of %s%s; Ctrl-C ends and writes the graph\n",
		tracker ? "tracker " : "every tracker", tracker ? tracker : "");
	lt_watch_init(&w, epfd, &live_ops, &lv, tracker ? only : NULL);
	lt_watch_scan(&w);
	while (!stop && !lv.refused && !lv.oom) {
		int timeout = LIVE_RESCAN_MS, n;

		if (end) {
			uint64_t t = now_ns();

			if (t >= end)
				break;
			if ((end - t) / LT_NSEC_PER_MSEC + 1 < (uint64_t)timeout)
				timeout = (int)((end - t) / LT_NSEC_PER_MSEC + 1);
		}
		n = epoll_wait(epfd, evs, LIVE_MAX_EVENTS, timeout);
		if (n < 0 && errno != EINTR) {
			cli_err("epoll_wait: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++) {
			struct lt_epoll_src *src = evs[i].data.ptr;

			if (src->kind == LT_SRC_SIGNAL)
				stop = true;
			else
				lt_watch_ready(&w, evs[i].data.ptr,
					       evs[i].events);
		}
		if (n == 0)
			lt_watch_scan(&w);
	}
	lt_watch_close_all(&w, false);
	if (lv.oom) {
		cli_err("out of memory");
		ret = CLI_FAIL;
	} else if (lv.refused) {
		ret = CLI_FAIL;
	}
out:
	if (sig.fd >= 0) {
		struct signalfd_siginfo si;

		/* Taken: not delivered when the mask is restored. */
		while (read(sig.fd, &si, sizeof(si)) == sizeof(si))
			;
		close(sig.fd);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(epfd);
	return ret;
}
