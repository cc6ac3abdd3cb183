// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_main.c - latency-trackerd's event loop.
 *
 * One epoll set holds the alerts files (lt_watch), a signalfd (SIGTERM and
 * SIGINT: clean exit; SIGHUP: reload the configuration and reopen the
 * log), a periodic timerfd that rescans the trackers (new ones are picked
 * up, gone ones dropped), reaps and times out the children and, every
 * retry-interval, checks and re-creates the LTTng session, and the
 * metrics server's epoll fd when `metrics` is set.  Alerts are handled in
 * daemon_alerts.c; the custom trackers of the configuration are made at
 * start, on SIGHUP and by the rescan, and deleted at exit
 * (daemon_custom.c).
 *
 * A batch of events from one epoll_wait() carries pointers to watches:
 * whatever may free a watch (the timer's rescan, a reload, an alerts file
 * whose tracker went away, which frees only itself) ends the batch, and
 * the events left in it come back from the next epoll_wait() (level
 * triggered) or not at all (their file was closed).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "daemon.h"
#include "lt_num.h"
#include "lt_proc.h"
#include "lt_watch.h"

#define LTD_TICK_NS		(250 * LT_NSEC_PER_MSEC)
#define LTD_RESCAN_NS		LT_NSEC_PER_SEC
#define LTD_MAX_EVENTS		16
/* At exit, children get this long after SIGTERM before SIGKILL. */
#define LTD_EXIT_GRACE_NS	(300 * LT_NSEC_PER_MSEC)

struct ltd {
	struct ltd_config cfg;
	int argc;
	char **argv;
	int epfd;
	struct lt_epoll_src sig, timer, metrics;
	struct lt_watch watch;
	char trackers_buf[sizeof(((struct ltd_config *)0)->trackers)];
	char *only[LTD_MAX_TRACKERS + 1];
	uint64_t next_scan, next_retry;
	bool stop;
};

static void on_line(void *ctx, const char *tracker, char *line)
{
	(void)ctx;
	ltd_alerts_line(tracker, line);
}

static void on_tracker(void *ctx, const char *tracker, bool added)
{
	(void)ctx;
	ltd_log_begin(added ? "watch" : "unwatch");
	ltd_log_str("tracker", tracker);
	ltd_log_end();
}

static void on_root(void *ctx, bool present)
{
	struct ltd *d = ctx;

	if (present)
		ltd_log_msg("info", "%s present: following its trackers",
			    d->cfg.proc_root);
	else
		ltd_log_msg("error", "%s missing: the latency_tracker module is not loaded; retrying",
			    d->cfg.proc_root);
}

static void on_error(void *ctx, const char *tracker, const char *what, int err)
{
	(void)ctx;
	ltd_counters_of(tracker)->errors++;
	ltd_log_begin("error");
	ltd_log_str("tracker", tracker);
	ltd_log_str("msg", what);
	ltd_log_str("error", strerror(err));
	ltd_log_end();
}

static const struct lt_watch_ops ltd_watch_ops = {
	.line = on_line,
	.tracker = on_tracker,
	.root = on_root,
	.error = on_error,
};

/* The `trackers` list as a NULL-terminated array (NULL = all). */
static char *const *tracker_filter(struct ltd *d)
{
	char *save = NULL, *tok;
	size_t n = 0;

	if (!d->cfg.trackers[0])
		return NULL;
	snprintf(d->trackers_buf, sizeof(d->trackers_buf), "%s", d->cfg.trackers);
	for (tok = strtok_r(d->trackers_buf, ", ", &save);
	     tok && n < LTD_MAX_TRACKERS; tok = strtok_r(NULL, ", ", &save))
		d->only[n++] = tok;
	d->only[n] = NULL;
	return d->only;
}

void ltd_filters_apply(const struct ltd_config *cfg, const char *tracker)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_filters; i++) {
		const struct ltd_filter *f = &cfg->filters[i];
		int ret;

		if (tracker && strcmp(tracker, f->tracker))
			continue;
		ret = lt_text_write(f->tracker, f->knob, f->value);

		ltd_log_begin("filter");
		ltd_log_str("tracker", f->tracker);
		ltd_log_str("filter", f->knob);
		ltd_log_str("value", f->value);
		if (ret)
			ltd_log_str("error", ret == -EINVAL ?
				    "refused by the kernel" :
				    ret == -ENOENT ? "tracker not loaded" :
				    strerror(-ret));
		ltd_log_end();
	}
}

/*
 * Names in `trackers` that are not loaded now: warned once per
 * configuration (a typo would otherwise be silent forever; a tracker
 * loaded later is still picked up, with its "watch" line).
 */
static void warn_unknown_trackers(char *const *only)
{
	char *const *p;
	char known[512];

	for (p = only; *p; p++) {
		if (lt_tracker_exists(*p))
			continue;
		ltd_log_begin("warning");
		ltd_log_str("tracker", *p);
		ltd_log_str("msg", "trackers names a tracker that is not loaded; watching for it");
		ltd_log_str("loaded", lt_tracker_list_str(known, sizeof(known)));
		ltd_log_end();
	}
}

/* The root of lt_proc.h's functions: proc-root. */
static void use_root(const struct ltd *d)
{
	setenv("LT_PROC_ROOT", d->cfg.proc_root, 1);
}

/* The trackers of `trackers` (all if empty) followed from now on. */
static void follow(struct ltd *d)
{
	char *const *only;

	use_root(d);
	only = tracker_filter(d);
	lt_watch_set_only(&d->watch, only);
	lt_watch_scan(&d->watch);
	if (only)
		warn_unknown_trackers(only);
}

static void log_start(const struct ltd *d, const char *type)
{
	ltd_log_begin(type);
	ltd_log_str("version", LTD_VERSION);
	ltd_log_str("config", d->cfg.config_file[0] ? d->cfg.config_file : "(none)");
	ltd_log_str("snapshot", d->cfg.snapshot ? "on" : "off");
	ltd_log_str("output", d->cfg.output);
	ltd_log_str("session", d->cfg.session[0] ? d->cfg.session : d->cfg.session_name);
	ltd_log_u64("rate_limit_ns", d->cfg.rate_limit_ns);
	ltd_log_u64("max_snapshots", d->cfg.max_snapshots);
	ltd_log_u64("max_bytes", d->cfg.max_bytes);
	ltd_log_str("explain", d->cfg.explain ? "on" : "off");
	ltd_log_u64("max_children", d->cfg.max_children);
	ltd_log_u64("child_timeout_ns", d->cfg.child_timeout_ns);
	ltd_log_str("metrics", d->cfg.metrics[0] ? d->cfg.metrics : "off");
	ltd_log_u64("custom", d->cfg.nr_custom);
	ltd_log_end();
}

static bool session_settings_differ(const struct ltd_config *a,
				    const struct ltd_config *b)
{
	return a->snapshot != b->snapshot || strcmp(a->session, b->session) ||
	       strcmp(a->session_name, b->session_name) ||
	       a->subbuf_size != b->subbuf_size || a->num_subbuf != b->num_subbuf;
}

static void reload(struct ltd *d)
{
	struct ltd_config c;
	char err[1024];
	bool check, new_root;
	int ret = ltd_config_load(d->argc, d->argv, &c, &check, err, sizeof(err));

	if (ret) {
		ltd_log_msg("error", "reload refused, configuration unchanged: %s",
			    ret < 0 ? err : "help/version asked");
		return;
	}
	/* Reopened even when its path is the same: logrotate moved it. */
	ret = ltd_log_open(c.log);
	if (ret) {
		ltd_log_msg("error", "reload refused: cannot open log %s: %s",
			    c.log, strerror(-ret));
		return;
	}
	if (strcmp(c.metrics, d->cfg.metrics)) {
		ltd_metrics_stop(d->epfd);
		ltd_metrics_start(&c, d->epfd, &d->metrics);
	}
	ltd_metrics_configure(&c);
	/* The trackers made under another root are deleted there. */
	new_root = strcmp(c.proc_root, d->cfg.proc_root) != 0;
	if (new_root)
		ltd_custom_teardown();
	if (session_settings_differ(&c, &d->cfg)) {
		ltd_session_teardown();
		d->cfg = c;
		ltd_session_init(&d->cfg);
	} else {
		d->cfg = c;
	}
	ltd_alerts_init(&d->cfg);
	ltd_child_configure(d->cfg.max_children, d->cfg.child_timeout_ns);
	ltd_snapshot_seq_init(&d->cfg);
	/*
	 * Another root: none of its trackers is followed yet.  Else the
	 * scan after the custom trackers' writes says which went away or
	 * are no longer in `trackers`, and follows the new ones.
	 */
	if (new_root)
		lt_watch_close_all(&d->watch, true);
	log_start(d, "reload");
	use_root(d);
	ltd_custom_configure(&d->cfg);
	follow(d);
	d->next_retry = 0;
	ltd_filters_apply(&d->cfg, NULL);
}

/* True when watches may have been freed (the batch must end). */
static bool tick(struct ltd *d)
{
	uint64_t now = ltd_now_ns(), exp;

	if (read(d->timer.fd, &exp, sizeof(exp)) < 0 && errno != EAGAIN)
		ltd_log_msg("warning", "timerfd read: %s", strerror(errno));
	ltd_child_poll();
	ltd_metrics_run();
	if (now >= d->next_retry) {
		ltd_session_check();
		d->next_retry = now + d->cfg.retry_ns;
	}
	ltd_session_try(now);	/* at most once per retry-interval */
	if (now >= d->next_scan) {
		ltd_custom_tick();		/* before the scan sees them */
		lt_watch_scan(&d->watch);	/* may free watches */
		d->next_scan = now + LTD_RESCAN_NS;
		return true;
	}
	return false;
}

static void on_signal(struct ltd *d)
{
	struct signalfd_siginfo si;

	while (read(d->sig.fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP && !d->stop) {
			reload(d);
		} else if (si.ssi_signo != SIGHUP) {
			ltd_log_msg("info", "signal %d: exiting", (int)si.ssi_signo);
			d->stop = true;
		}
	}
}

static void log_exit(void)
{
	struct ltd_counters c;

	ltd_counters_total(&c);
	ltd_log_begin("exit");
	ltd_log_u64("alerts", c.alerts);
	ltd_log_u64("snapshots", c.snapshots);
	ltd_log_u64("suppressed", c.suppressed);
	ltd_log_u64("failed", c.failed);
	ltd_log_u64("unavailable", c.unavailable);
	ltd_log_u64("lost", c.lost);
	ltd_log_u64("malformed", c.malformed);
	ltd_log_u64("explain_runs", c.explain_runs);
	ltd_log_end();
}

/* One batch of ready events; stops where a watch may have been freed. */
static void handle_batch(struct ltd *d, struct epoll_event *evs, int n)
{
	int i;

	for (i = 0; i < n && !d->stop; i++) {
		struct lt_epoll_src *src = evs[i].data.ptr;

		if (src == &d->metrics) {
			ltd_metrics_run();
			continue;
		}
		switch (src->kind) {
		case LT_SRC_ALERTS:
			/* May free this watch only: the others stay valid. */
			lt_watch_ready(&d->watch, (struct lt_watch_file *)src,
				       evs[i].events);
			break;
		case LT_SRC_SIGNAL:
			on_signal(d);
			return;		/* a reload closed every watch */
		case LT_SRC_TIMER:
			if (tick(d))
				return;
			break;
		}
	}
}

static int setup_fds(struct ltd *d)
{
	struct itimerspec its = {
		.it_interval = { 0, (long)LTD_TICK_NS },
		.it_value = { 0, (long)LTD_TICK_NS },
	};
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -1;
	/* liblttng-ctl writes to sockets a dead sessiond may have closed. */
	signal(SIGPIPE, SIG_IGN);
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	d->sig.kind = LT_SRC_SIGNAL;
	d->sig.fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	d->timer.kind = LT_SRC_TIMER;
	d->timer.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->epfd < 0 || d->sig.fd < 0 || d->timer.fd < 0 ||
	    timerfd_settime(d->timer.fd, 0, &its, NULL))
		return -1;
	ev.data.ptr = &d->sig;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->sig.fd, &ev))
		return -1;
	ev.data.ptr = &d->timer;
	return epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->timer.fd, &ev);
}

int main(int argc, char **argv)
{
	static struct ltd d;
	struct epoll_event evs[LTD_MAX_EVENTS];
	char err[1024];
	bool check;
	int ret;

	d.argc = argc;
	d.argv = argv;
	ret = ltd_config_load(argc, argv, &d.cfg, &check, err, sizeof(err));
	if (ret > 0)
		return LTD_EXIT_OK;
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", LTD_NAME, err);
		return LTD_EXIT_CONFIG;
	}
	if (check) {
		printf("%s: configuration OK\n", LTD_NAME);
		return LTD_EXIT_OK;
	}
	ret = ltd_log_open(d.cfg.log);
	if (ret) {
		fprintf(stderr, "%s: cannot open log %s: %s\n", LTD_NAME,
			d.cfg.log, strerror(-ret));
		return LTD_EXIT_FAIL;
	}
	if (setup_fds(&d)) {
		fprintf(stderr, "%s: setup: %s\n", LTD_NAME, strerror(errno));
		return LTD_EXIT_FAIL;
	}
	if (ltd_metrics_start(&d.cfg, d.epfd, &d.metrics)) {
		fprintf(stderr, "%s: cannot serve metrics on %s (see the log)\n",
			LTD_NAME, d.cfg.metrics);
		return LTD_EXIT_FAIL;
	}
	log_start(&d, "start");
	ltd_alerts_init(&d.cfg);
	ltd_child_configure(d.cfg.max_children, d.cfg.child_timeout_ns);
	ltd_snapshot_seq_init(&d.cfg);
	ltd_session_init(&d.cfg);
	ltd_session_try(ltd_now_ns());
	d.next_retry = ltd_now_ns() + d.cfg.retry_ns;
	use_root(&d);
	ltd_custom_configure(&d.cfg);
	lt_watch_init(&d.watch, d.epfd, &ltd_watch_ops, &d, NULL);
	follow(&d);
	ltd_filters_apply(&d.cfg, NULL);
	d.next_scan = ltd_now_ns() + LTD_RESCAN_NS;
	while (!d.stop) {
		int n = epoll_wait(d.epfd, evs, LTD_MAX_EVENTS, -1);

		if (n < 0 && errno != EINTR) {
			ltd_log_msg("error", "epoll_wait: %s", strerror(errno));
			break;
		}
		if (n > 0)
			handle_batch(&d, evs, n);
	}
	/* Within a second of SIGTERM, whatever the children are doing. */
	lt_watch_close_all(&d.watch, false);
	ltd_custom_teardown();
	ltd_metrics_stop(d.epfd);
	ltd_child_stop_all(LTD_EXIT_GRACE_NS);
	ltd_session_teardown();
	log_exit();
	ltd_log_close();
	return LTD_EXIT_OK;
}
