// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_alerts.c - what latency-trackerd does with each line of an alerts
 * file: parse it, decide on a snapshot (rate limited), log it.
 *
 * Every alert is logged, snapshot or not ("action": snapshot, suppressed,
 * unavailable, failed, off).  The snapshot is recorded before the alert's
 * log line is written, to keep the delay from the alert to the snapshot
 * short; the snapshot line follows it and carries the alert.
 *
 * The rate limit counts snapshot attempts, not successes: a snapshot that
 * failed (a full disk) also starts a rate-limit interval, so a burst of
 * alerts during a failure costs one attempt per interval.  Setting a down
 * session up again is limited to once per retry-interval
 * (ltd_session_try()); an alert that finds it down ("unavailable") tries
 * no snapshot and starts no interval.
 */
#include <stdlib.h>
#include <string.h>

#include <lttng/lttng.h>

#include "daemon.h"
#include "lt_json.h"

static const struct ltd_config *ltd_cfg;
static uint64_t ltd_last_attempt_ns;
static bool ltd_have_last;
static uint64_t ltd_suppressed_since;	/* since the last snapshot */
static enum ltd_session_state ltd_gate_state = LTD_SESSION_DOWN;
static uint64_t ltd_gate_next;		/* no setup attempt before this */

void ltd_alerts_init(const struct ltd_config *cfg)
{
	ltd_cfg = cfg;
	ltd_gate_state = LTD_SESSION_DOWN;
	ltd_gate_next = 0;
}

enum ltd_session_state ltd_session_try(uint64_t now)
{
	if (ltd_gate_state == LTD_SESSION_DOWN && now < ltd_gate_next)
		return LTD_SESSION_DOWN;
	ltd_gate_state = ltd_session_ensure();
	if (ltd_gate_state == LTD_SESSION_DOWN)
		ltd_gate_next = now + ltd_cfg->retry_ns;
	return ltd_gate_state;
}

static void log_malformed(const char *tracker, const char *orig,
			  const char *why)
{
	struct ltd_counters *c = ltd_counters_of(tracker);

	c->malformed++;
	c->errors++;
	ltd_log_begin("malformed");
	ltd_log_str("tracker", tracker);
	ltd_log_str("error", why);
	ltd_log_str("line", orig);
	ltd_log_end();
}

static bool rate_limited(uint64_t now)
{
	return ltd_have_last && ltd_cfg->rate_limit_ns &&
	       now - ltd_last_attempt_ns < ltd_cfg->rate_limit_ns;
}

static void log_snapshot(const struct lt_record *r,
			 const struct ltd_snapshot_result *s,
			 uint64_t suppressed)
{
	ltd_log_begin("snapshot");
	ltd_log_str("session", ltd_session_name());
	ltd_log_str("name", s->name);
	ltd_log_str(ltd_output_is_net(ltd_cfg) ? "url" : "path", s->path);
	ltd_log_u64("start_ts", s->start_ns);
	ltd_log_u64("duration_ns", s->end_ns - s->start_ns);
	ltd_log_s64("latency_ns", (int64_t)(s->start_ns - r->ts));
	ltd_log_u64("suppressed_before", suppressed);
	ltd_log_nested_record("alert", r);
	ltd_log_end();
}

static void log_failed(const struct lt_record *r,
		       const struct ltd_snapshot_result *s)
{
	ltd_log_begin("snapshot_failed");
	ltd_log_str("session", ltd_session_name());
	ltd_log_str("name", s->name);
	ltd_log_str("error", lttng_strerror(-s->err));
	ltd_log_u64("alert_ts", r->ts);
	ltd_log_str("tracker", r->tracker);
	ltd_log_end();
}

void ltd_alerts_line(const char *tracker, char *line)
{
	struct ltd_snapshot_result snap;
	struct ltd_counters *c;
	const char *why, *action;
	struct lt_record r;
	char *orig = strdup(line);
	uint64_t now, suppressed = 0;
	bool attempted = false;

	if (!orig)
		return;
	if (lt_record_parse(line, &r, &why)) {
		log_malformed(tracker, orig, why);
		free(orig);
		return;
	}
	free(orig);
	c = ltd_counters_of(tracker);
	if (r.cause == LT_CAUSE_LOST) {
		c->lost += r.count;
		ltd_log_begin("lost");
		ltd_log_record(&r);
		ltd_log_end();
		return;
	}
	c->alerts++;
	lt_why_add(&r, c->breakdown_ns);
	now = ltd_now_ns();
	if (!ltd_cfg->snapshot) {
		action = "off";
	} else if (rate_limited(now)) {
		action = "suppressed";
		c->suppressed++;
		ltd_suppressed_since++;
	} else if (ltd_session_try(now) != LTD_SESSION_READY) {
		action = "unavailable";	/* no snapshot tried: no interval */
		c->unavailable++;
	} else {
		attempted = true;
		ltd_last_attempt_ns = now;
		ltd_have_last = true;
		if (ltd_snapshot_take(ltd_cfg, &snap)) {
			action = "failed";
			c->failed++;
		} else {
			action = "snapshot";
			c->snapshots++;
			suppressed = ltd_suppressed_since;
			ltd_suppressed_since = 0;
		}
	}
	ltd_log_begin("alert");
	ltd_log_record(&r);
	ltd_log_str("action", action);
	if (!strcmp(action, "suppressed")) {
		struct ltd_counters sum;

		ltd_counters_total(&sum);
		ltd_log_u64("suppressed_total", sum.suppressed);
	}
	ltd_log_end();
	if (!attempted)
		return;
	if (!strcmp(action, "snapshot")) {
		log_snapshot(&r, &snap, suppressed);
		if (ltd_cfg->explain && !ltd_output_is_net(ltd_cfg))
			ltd_explain_spawn(snap.path, tracker);
		ltd_retention_apply(ltd_cfg, snap.name);
	} else {
		log_failed(&r, &snap);
		ltd_session_failed(snap.err);
		ltd_retention_apply(ltd_cfg, NULL);
	}
}
