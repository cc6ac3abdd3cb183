// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_session.c - the LTTng snapshot session, through liblttng-ctl.
 *
 * Either an existing snapshot session named by `session`, or one the
 * daemon creates (`session-name`): snapshot mode with no default output
 * (each snapshot names its own), the kernel channels, events and contexts
 * of session-events.def (the one definition the guest tests' sessions use
 * too), in overwrite (flight-recorder) mode, started.  Where liblttng-ctl
 * lets a session choose its trace format (LTTng >= 2.15, whose default is
 * CTF 2), it asks for CTF 1.8, which every babeltrace2 reads (Debian 12's
 * 2.0 reads no CTF 2).
 *
 * When sessiond is absent, or goes away, or the session vanishes (sessiond
 * restarted), the state goes DOWN, the reason is logged once, and
 * ltd_session_ensure() (called every retry-interval) sets it up again.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lttng/lttng.h>

#include "daemon.h"

static const struct ltd_config *ltd_cfg;
static enum ltd_session_state ltd_state = LTD_SESSION_OFF;
static bool ltd_created;
/* Last reason logged for DOWN, so a persistent one is logged once. */
static char ltd_last_reason[512];
/* The trace format the created session asked for (the ready line). */
static const char *ltd_format = "";

struct ltd_channel_def {
	const char *name;
	uint64_t subbuf_size, num_subbuf;	/* 0: the configuration's */
};

struct ltd_event_def {
	const char *channel;
	enum lttng_event_type type;
	const char *name;
};

struct ltd_context_def {
	enum lttng_event_context_type type;
	const char *name;
};

static const struct ltd_channel_def ltd_channels[] = {
#define LTD_CHANNEL(n, size, count) { n, size, count },
#include "session-events.def"
};

static const struct ltd_event_def ltd_events[] = {
#define LTD_TRACEPOINT(ch, n) { ch, LTTNG_EVENT_TRACEPOINT, n },
#define LTD_SYSCALLS(ch) { ch, LTTNG_EVENT_SYSCALL, "*" },
#include "session-events.def"
};

static const struct ltd_context_def ltd_contexts[] = {
#define LTD_CONTEXT(t, n) { t, n },
#include "session-events.def"
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * liblttng-ctl >= 2.15: lttng_session_descriptor_set_trace_format(), and
 * its enum lttng_trace_format (session-descriptor.h: DEFAULT 0, CTF_1_8 1,
 * CTF_2 2; LTTNG_SESSION_DESCRIPTOR_STATUS_OK 0).  Looked up at run time:
 * the library installed may be newer than the headers built against.
 */
#define LTD_TRACE_FORMAT_CTF_1_8	1
typedef int (*ltd_set_format_fn)(struct lttng_session_descriptor *, int);

static ltd_set_format_fn set_format_fn(void)
{
	ltd_set_format_fn f;

	*(void **)&f = dlsym(RTLD_DEFAULT,
			     "lttng_session_descriptor_set_trace_format");
	return f;
}

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
	if (ltd_created) {
		ltd_log_str("trace_format", ltd_format);
		ltd_log_u64("subbuf_size", ltd_cfg->subbuf_size);
		ltd_log_u64("num_subbuf", ltd_cfg->num_subbuf);
	}
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

static int enable_channel(struct lttng_handle *h, struct lttng_domain *dom,
			  const struct ltd_channel_def *def)
{
	struct lttng_channel *ch = lttng_channel_create(dom);
	int ret;

	if (!ch)
		return -LTTNG_ERR_NOMEM;
	snprintf(ch->name, sizeof(ch->name), "%s", def->name);
	ch->attr.overwrite = 1;
	ch->attr.subbuf_size = def->subbuf_size ? def->subbuf_size :
			       ltd_cfg->subbuf_size;
	ch->attr.num_subbuf = def->num_subbuf ? def->num_subbuf :
			      ltd_cfg->num_subbuf;
	ch->attr.output = LTTNG_EVENT_MMAP;
	ret = lttng_enable_channel(h, ch);
	lttng_channel_destroy(ch);
	return ret;
}

/* Enable one event; failures of single events are logged, not fatal. */
static void enable_event(struct lttng_handle *h, const struct ltd_event_def *def)
{
	struct lttng_event *ev = lttng_event_create();
	int ret;

	if (!ev)
		return;
	ev->type = def->type;
	snprintf(ev->name, sizeof(ev->name), "%s", def->name);
	ret = lttng_enable_event_with_exclusions(h, ev, def->channel,
						 NULL, 0, NULL);
	if (ret < 0)
		ltd_log_msg("warning", "cannot enable kernel event%s %s in channel %s: %s",
			    def->type == LTTNG_EVENT_SYSCALL ? " syscall" : "",
			    def->name, def->channel, lttng_strerror(ret));
	lttng_event_destroy(ev);
}

/* Create the session, in CTF 1.8 when this LTTng can choose. */
static enum lttng_error_code create_descriptor_session(void)
{
	ltd_set_format_fn set_format = set_format_fn();
	struct lttng_session_descriptor *d;
	enum lttng_error_code code;
	bool asked = false;

	d = lttng_session_descriptor_snapshot_create(name());
	if (!d)
		return LTTNG_ERR_NOMEM;
	if (set_format)
		asked = set_format(d, LTD_TRACE_FORMAT_CTF_1_8) == 0;
	code = lttng_create_session_ext(d);
	lttng_session_descriptor_destroy(d);
	ltd_format = asked ? "ctf-1.8" : "sessiond-default";
	if (code != LTTNG_OK && asked) {
		/* A sessiond that cannot do CTF 1.8: take its default. */
		ltd_log_msg("warning", "session %s: CTF 1.8 refused (%s), using the session daemon's trace format",
			    name(), lttng_strerror(-(int)code));
		d = lttng_session_descriptor_snapshot_create(name());
		if (!d)
			return LTTNG_ERR_NOMEM;
		code = lttng_create_session_ext(d);
		lttng_session_descriptor_destroy(d);
		ltd_format = "sessiond-default";
	}
	return code;
}

static int create_session(void)
{
	struct lttng_domain dom = { .type = LTTNG_DOMAIN_KERNEL,
				    .buf_type = LTTNG_BUFFER_GLOBAL };
	struct lttng_handle *h;
	enum lttng_error_code code;
	bool snap;
	size_t i, c;
	int ret;

	/* A session of ours left by an earlier run (crash, kill -9). */
	if (find_session(name(), &snap) == 1)
		lttng_destroy_session(name());
	code = create_descriptor_session();
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
	for (c = 0; c < ARRAY_LEN(ltd_channels); c++) {
		ret = enable_channel(h, &dom, &ltd_channels[c]);
		if (ret < 0) {
			set_down("cannot create the kernel channel %s: %s (is the LTTng kernel tracer available: lttng-modules installed, sessiond running as root?)",
				 ltd_channels[c].name, lttng_strerror(ret));
			lttng_destroy_handle(h);
			goto fail;
		}
	}
	for (i = 0; i < ARRAY_LEN(ltd_events); i++)
		enable_event(h, &ltd_events[i]);
	for (c = 0; c < ARRAY_LEN(ltd_channels); c++) {
		for (i = 0; i < ARRAY_LEN(ltd_contexts); i++) {
			struct lttng_event_context ctx = {
				.ctx = ltd_contexts[i].type
			};

			ret = lttng_add_context(h, &ctx, NULL,
						ltd_channels[c].name);
			if (ret < 0)
				ltd_log_msg("warning", "cannot add context %s to channel %s: %s",
					    ltd_contexts[i].name,
					    ltd_channels[c].name,
					    lttng_strerror(ret));
		}
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
