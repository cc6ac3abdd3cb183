// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_session.c - the LTTng snapshot session, through liblttng-ctl.
 *
 * Either an existing snapshot session named by `session`, or one the
 * daemon creates (`session-name`): snapshot mode with no default output
 * (each snapshot names its own), one kernel channel in overwrite
 * (flight-recorder) mode with the scheduling, block, syscall and
 * latency_tracker events plus pid/tid/procname context, started.
 *
 * When sessiond is absent, or goes away, or the session vanishes (sessiond
 * restarted), the state goes DOWN, the reason is logged once, and
 * ltd_session_ensure() (called every retry-interval) sets it up again.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lttng/lttng.h>

#include "daemon.h"

#define LTD_CHANNEL	"latency-trackerd"

static const struct ltd_config *ltd_cfg;
static enum ltd_session_state ltd_state = LTD_SESSION_OFF;
static bool ltd_created;
/* Last reason logged for DOWN, so a persistent one is logged once. */
static char ltd_last_reason[512];

/*
 * Tracepoint events of the kernel channel (wildcards allowed): what a
 * latency analysis needs (who ran, who woke whom, task lifetimes, block
 * requests, our alerts), not the high-volume sched_stat_* family.
 */
static const char *const ltd_tracepoints[] = {
	"sched_switch",
	"sched_waking",
	"sched_wakeup",
	"sched_wakeup_new",
	"sched_migrate_task",
	"sched_process_fork",
	"sched_process_exec",
	"sched_process_exit",
	"sched_pi_setprio",
	"block_rq_*",
	"block_bio_queue",
	"latency_tracker_*",
};

static const enum lttng_event_context_type ltd_contexts[] = {
	LTTNG_EVENT_CONTEXT_PID,
	LTTNG_EVENT_CONTEXT_TID,
	LTTNG_EVENT_CONTEXT_PROCNAME,
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static const char *name(void)
{
	return ltd_cfg->session[0] ? ltd_cfg->session : ltd_cfg->session_name;
}

const char *ltd_session_name(void)
{
	return name();
}

static void set_down(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_down(const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	ltd_state = LTD_SESSION_DOWN;
	if (strcmp(reason, ltd_last_reason)) {
		snprintf(ltd_last_reason, sizeof(ltd_last_reason), "%s", reason);
		ltd_log_begin("session");
		ltd_log_str("state", "down");
		ltd_log_str("session", name());
		ltd_log_str("reason", reason);
		ltd_log_str("msg", "snapshots paused, alerts still logged; retrying");
		ltd_log_end();
	}
}

static void set_ready(void)
{
	ltd_state = LTD_SESSION_READY;
	ltd_last_reason[0] = '\0';
	ltd_log_begin("session");
	ltd_log_str("state", "ready");
	ltd_log_str("session", name());
	ltd_log_str("owner", ltd_created ? "daemon" : "existing");
	ltd_log_end();
}

void ltd_session_init(const struct ltd_config *cfg)
{
	ltd_cfg = cfg;
	ltd_created = false;
	ltd_last_reason[0] = '\0';
	ltd_state = cfg->snapshot ? LTD_SESSION_DOWN : LTD_SESSION_OFF;
}

/* 1: found (*snapshot_mode set), 0: not found, <0: lttng error. */
static int find_session(const char *n, bool *snapshot_mode)
{
	struct lttng_session *s = NULL;
	int count = lttng_list_sessions(&s), i, found = 0;

	if (count < 0)
		return count;
	for (i = 0; i < count; i++) {
		if (!strcmp(s[i].name, n)) {
			*snapshot_mode = s[i].snapshot_mode;
			found = 1;
		}
	}
	free(s);
	return found;
}

static int enable_channel(struct lttng_handle *h, struct lttng_domain *dom)
{
	struct lttng_channel *ch = lttng_channel_create(dom);
	int ret;

	if (!ch)
		return -LTTNG_ERR_NOMEM;
	snprintf(ch->name, sizeof(ch->name), "%s", LTD_CHANNEL);
	ch->attr.overwrite = 1;
	ch->attr.subbuf_size = ltd_cfg->subbuf_size;
	ch->attr.num_subbuf = ltd_cfg->num_subbuf;
	ch->attr.output = LTTNG_EVENT_MMAP;
	ret = lttng_enable_channel(h, ch);
	lttng_channel_destroy(ch);
	return ret;
}

/* Enable one event; failures of single events are logged, not fatal. */
static void enable_event(struct lttng_handle *h, enum lttng_event_type type,
			 const char *ev_name)
{
	struct lttng_event *ev = lttng_event_create();
	int ret;

	if (!ev)
		return;
	ev->type = type;
	snprintf(ev->name, sizeof(ev->name), "%s", ev_name);
	ret = lttng_enable_event_with_exclusions(h, ev, LTD_CHANNEL, NULL, 0,
						 NULL);
	if (ret < 0)
		ltd_log_msg("warning", "cannot enable kernel event%s %s: %s",
			    type == LTTNG_EVENT_SYSCALL ? " syscall" : "",
			    ev_name, lttng_strerror(ret));
	lttng_event_destroy(ev);
}

static int create_session(void)
{
	struct lttng_domain dom = { .type = LTTNG_DOMAIN_KERNEL,
				    .buf_type = LTTNG_BUFFER_GLOBAL };
	struct lttng_session_descriptor *d;
	struct lttng_handle *h;
	enum lttng_error_code code;
	bool snap;
	size_t i;
	int ret;

	/* A session of ours left by an earlier run (crash, kill -9). */
	if (find_session(name(), &snap) == 1)
		lttng_destroy_session(name());
	d = lttng_session_descriptor_snapshot_create(name());
	if (!d) {
		set_down("cannot create a session descriptor");
		return -1;
	}
	code = lttng_create_session_ext(d);
	lttng_session_descriptor_destroy(d);
	if (code != LTTNG_OK) {
		set_down("cannot create session %s: %s", name(),
			 lttng_strerror(-(int)code));
		return -1;
	}
	ltd_created = true;
	h = lttng_create_handle(name(), &dom);
	if (!h) {
		set_down("cannot get a handle on session %s", name());
		goto fail;
	}
	ret = enable_channel(h, &dom);
	if (ret < 0) {
		set_down("cannot create the kernel channel: %s (is the LTTng kernel tracer available: lttng-modules installed, sessiond running as root?)",
			 lttng_strerror(ret));
		lttng_destroy_handle(h);
		goto fail;
	}
	for (i = 0; i < ARRAY_LEN(ltd_tracepoints); i++)
		enable_event(h, LTTNG_EVENT_TRACEPOINT, ltd_tracepoints[i]);
	enable_event(h, LTTNG_EVENT_SYSCALL, "*");
	for (i = 0; i < ARRAY_LEN(ltd_contexts); i++) {
		struct lttng_event_context ctx = { .ctx = ltd_contexts[i] };

		ret = lttng_add_context(h, &ctx, NULL, LTD_CHANNEL);
		if (ret < 0)
			ltd_log_msg("warning", "cannot add context %d: %s",
				    (int)ltd_contexts[i], lttng_strerror(ret));
	}
	lttng_destroy_handle(h);
	ret = lttng_start_tracing(name());
	if (ret < 0) {
		set_down("cannot start session %s: %s", name(),
			 lttng_strerror(ret));
		goto fail;
	}
	return 0;
fail:
	lttng_destroy_session(name());
	ltd_created = false;
	return -1;
}

static int use_existing(void)
{
	bool snap = false;
	int ret = find_session(name(), &snap);

	if (ret < 0) {
		set_down("cannot list sessions: %s", lttng_strerror(ret));
		return -1;
	}
	if (!ret) {
		set_down("session %s does not exist", name());
		return -1;
	}
	if (!snap) {
		set_down("session %s is not in snapshot mode (lttng create --snapshot)",
			 name());
		return -1;
	}
	return 0;
}

enum ltd_session_state ltd_session_ensure(void)
{
	if (ltd_state != LTD_SESSION_DOWN)
		return ltd_state;
	if (lttng_session_daemon_alive() != 1) {
		set_down("lttng-sessiond is not running");
		return ltd_state;
	}
	if (ltd_cfg->session[0] ? use_existing() : create_session())
		return ltd_state;
	set_ready();
	return ltd_state;
}

void ltd_session_check(void)
{
	bool snap;
	int ret;

	if (ltd_state != LTD_SESSION_READY)
		return;
	if (lttng_session_daemon_alive() != 1) {
		ltd_created = false;
		set_down("lttng-sessiond went away");
		return;
	}
	ret = find_session(name(), &snap);
	if (ret == 0) {
		ltd_created = false;
		set_down("session %s disappeared (sessiond restarted?)", name());
	} else if (ret < 0) {
		set_down("cannot list sessions: %s", lttng_strerror(ret));
	}
}

void ltd_session_failed(int lttng_err)
{
	(void)lttng_err;
	ltd_session_check();
}

void ltd_session_teardown(void)
{
	if (ltd_created && lttng_session_daemon_alive() == 1) {
		int ret = lttng_destroy_session(name());

		if (ret < 0)
			ltd_log_msg("warning", "cannot destroy session %s: %s",
				    name(), lttng_strerror(ret));
	}
	ltd_created = false;
	ltd_state = LTD_SESSION_OFF;
}
