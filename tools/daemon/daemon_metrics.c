// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_metrics.c - latency-trackerd's Prometheus endpoint: GET /metrics
 * on the `metrics` address, in the Prometheus text exposition format
 * (version 0.0.4), served by libmicrohttpd inside the daemon's own event
 * loop (MHD's epoll fd is one more source of the daemon's epoll set; no
 * thread, so no lock around the counters or the proc root).
 *
 * Per tracker (label tracker="<name>"), read from its proc files at each
 * scrape:
 *   latency_tracker_delay_seconds      histogram: cumulative counts of
 *       the `histogram` file's log2 buckets at the configured bounds
 *       (metrics-bucket-min, -max, -step: by default 1 us to 10 s, each 4
 *       times the last, 14 buckets), each rounded up to a kernel bucket's
 *       inclusive upper bound, (2^b - 1) ns, so that every count is
 *       exact; written as exact decimal seconds, then +Inf.  _count is
 *       the +Inf bucket.  _sum is the `sum_ns` line of `stats`, exact
 *       (it may pass 2^64 ns); with modules that print no sum_ns, avg_ns
 *       (the sum divided by matched, rounded down) x _count, low by less
 *       than 1 ns per event.
 *   latency_tracker_<counter>_total     the `stats` counters
 *   latency_tracker_pending_events      gauge: events in flight
 *   latency_tracker_pool_slots, latency_tracker_pool_max_slots (gauges)
 *   and latency_tracker_pool_grown_total: the event pool's capacity,
 *       its ceiling and its growths (`capacity`, `max_events`, `grown`;
 *       left out for modules whose stats have no such line)
 * and the daemon's own counters (daemon_counters.c) as
 * latency_trackerd_<what>_total, among them
 * latency_trackerd_breakdown_seconds_total{tracker=,kind=}: the alert
 * records' breakdowns (where their delays went: thread, irq, softirq,
 * idle, other_cpu, blocked, runnable, on_cpu; lt_why.h) summed, exact
 * decimal seconds, for the kinds seen.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "daemon.h"
#include "lt_num.h"
#include "lt_proc.h"
#include "lt_procfmt.h"

/* The kernel's log2 buckets (tracker/histogram.h): 0, then [2^(b-1), 2^b - 1]. */
#define LTD_HIST_BUCKETS	65
#define LTD_METRICS_TRACKERS	256	/* built-in, 64 custom, others */
#define LTD_METRICS_CONNS	16
#define LTD_METRICS_TIMEOUT_S	10
#define LTD_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

static struct MHD_Daemon *ltd_mhd;
static int ltd_mhd_fd = -1;

struct ltd_tracker_data {
	char *name;
	struct lt_stats st;
	struct lt_hist h;
	bool have_st, have_h;
};

/* A `stats` counter and its metric. */
struct ltd_stat_metric {
	const char *stat, *metric, *help;
};

static const struct ltd_stat_metric ltd_stat_counters[] = {
	{ "tracked", "latency_tracker_tracked_total", "Events started (event_in)." },
	{ "matched", "latency_tracker_matched_total", "Events ended and measured (event_out)." },
	{ "over_threshold", "latency_tracker_over_threshold_total", "Measured events slower than the threshold." },
	{ "timeouts", "latency_tracker_timeouts_total", "Events still pending at the timeout." },
	{ "dropped", "latency_tracker_dropped_total", "Events not tracked: the pool was empty." },
	{ "cancelled", "latency_tracker_cancelled_total", "Events ended without a measurement." },
	{ "filtered", "latency_tracker_filtered_total", "Events kept out by a filter." },
	{ "alerts", "latency_tracker_alerts_total", "Alert records written." },
	{ "alerts_lost", "latency_tracker_alerts_lost_total", "Alert records lost (refused, or overwritten before a reader read them)." },
};

/* The pool's lines of `stats`: present only with modules that grow it. */
static const struct ltd_stat_metric ltd_pool_gauges[] = {
	{ "capacity", "latency_tracker_pool_slots", "Event slots the pool has now, free or in use." },
	{ "max_events", "latency_tracker_pool_max_slots", "The most event slots the pool may grow to (max_events)." },
};
static const struct ltd_stat_metric ltd_pool_grown = {
	"grown", "latency_tracker_pool_grown_total", "Times the event pool grew.",
};

/* A daemon counter and its metric. */
struct ltd_own_metric {
	size_t off;
	const char *metric, *help;
};

#define OWN(field, m, h) { offsetof(struct ltd_counters, field), m, h }
static const struct ltd_own_metric ltd_own_counters[] = {
	OWN(alerts, "latency_trackerd_alerts_total", "Alert records the daemon read."),
	OWN(snapshots, "latency_trackerd_snapshots_taken_total", "LTTng snapshots recorded."),
	OWN(suppressed, "latency_trackerd_snapshots_suppressed_total", "Alerts with no snapshot: rate limit."),
	OWN(failed, "latency_trackerd_snapshots_failed_total", "Snapshots that failed (e.g. a full disk)."),
	OWN(unavailable, "latency_trackerd_snapshots_unavailable_total", "Alerts with no snapshot: the session was not usable."),
	OWN(explain_runs, "latency_trackerd_explain_runs_total", "Explain children started."),
	OWN(explain_failed, "latency_trackerd_explain_failures_total", "Explain children that failed, were killed or could not start."),
	OWN(explain_skipped, "latency_trackerd_explain_skipped_total", "Explains skipped: max-children were running."),
	OWN(lost, "latency_trackerd_records_lost_total", "Alert records lost before the daemon read them."),
	OWN(errors, "latency_trackerd_errors_total", "Errors: malformed records, alerts files that could not be opened."),
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* A label value: backslash, double quote and line feed escaped. */
static void put_label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void put_family(FILE *f, const char *name, const char *type,
		       const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{tracker="t"<,extra>} value */
static void put_sample(FILE *f, const char *name, const char *tracker,
		       const char *le, const char *value)
{
	fprintf(f, "%s{tracker=\"", name);
	put_label(f, tracker);
	if (le)
		fprintf(f, "\",le=\"%s", le);
	fprintf(f, "\"} %s\n", value);
}

/* ns as exact decimal seconds: 1023 -> 0.000001023, 2e9 -> 2. */
static void ns_seconds(unsigned __int128 ns, char *buf, size_t size)
{
	unsigned long long sec = (unsigned long long)(ns / 1000000000u);
	unsigned long long frac = (unsigned long long)(ns % 1000000000u);
	size_t len;

	if (!frac) {
		snprintf(buf, size, "%llu", sec);
		return;
	}
	snprintf(buf, size, "%llu.%09llu", sec, frac);
	len = strlen(buf);
	while (buf[len - 1] == '0')
		buf[--len] = '\0';
}

static unsigned int bucket_of(uint64_t low)
{
	return low ? 64u - (unsigned int)__builtin_clzll(low) : 0;
}

/* The exported bounds: kernel buckets first_b, first_b + shift, ... last_b. */
static unsigned int ltd_first_b = 10, ltd_last_b = 34, ltd_shift = 2;

/* The kernel bucket whose upper bound, 2^b - 1 ns, is the first >= @ns. */
static unsigned int bucket_up(uint64_t ns)
{
	unsigned int b = 1;

	while (b < LTD_HIST_BUCKETS - 1 && (1ULL << b) - 1 < ns)
		b++;
	return b;
}

void ltd_metrics_configure(const struct ltd_config *cfg)
{
	ltd_first_b = bucket_up(cfg->metrics_bucket_min_ns);
	ltd_shift = (unsigned int)__builtin_ctzll(cfg->metrics_bucket_step);
	ltd_last_b = ltd_first_b;
	while (ltd_last_b + ltd_shift < LTD_HIST_BUCKETS - 1 &&
	       (1ULL << ltd_last_b) - 1 < cfg->metrics_bucket_max_ns)
		ltd_last_b += ltd_shift;
}

/* The sum of the delays counted: sum_ns, else avg_ns x @count. */
static unsigned __int128 delay_sum(const struct ltd_tracker_data *t,
				   uint64_t count)
{
	unsigned __int128 sum;
	int found;

	if (!t->have_st)
		return 0;
	sum = lt_stat_u128(&t->st, "sum_ns", &found);
	if (found)
		return sum;
	return (unsigned __int128)lt_stat(&t->st, "avg_ns") * count;
}

static void put_histogram(FILE *f, const struct ltd_tracker_data *t, size_t n)
{
	const char *name = "latency_tracker_delay_seconds";
	char le[48], val[48];
	size_t i, j;

	put_family(f, name, "histogram",
		   "Delays of the matched events, per tracker (bounds on the kernel's log2 buckets).");
	for (i = 0; i < n; i++) {
		uint64_t counts[LTD_HIST_BUCKETS] = { 0 }, cum = 0;
		unsigned int b;

		if (!t[i].have_h)
			continue;
		for (j = 0; j < t[i].h.n; j++) {
			b = bucket_of(t[i].h.b[j].low);
			if (b < LTD_HIST_BUCKETS)
				counts[b] += t[i].h.b[j].count;
		}
		for (b = 0; b < LTD_HIST_BUCKETS; b++) {
			cum += counts[b];
			if (b == LTD_HIST_BUCKETS - 1)
				snprintf(le, sizeof(le), "+Inf");
			else if (b >= ltd_first_b && b <= ltd_last_b &&
				 !((b - ltd_first_b) % ltd_shift))
				ns_seconds((1ULL << b) - 1, le, sizeof(le));
			else
				continue;
			snprintf(val, sizeof(val), "%llu", (unsigned long long)cum);
			put_sample(f, "latency_tracker_delay_seconds_bucket",
				   t[i].name, le, val);
		}
		ns_seconds(delay_sum(&t[i], cum), val, sizeof(val));
		put_sample(f, "latency_tracker_delay_seconds_sum", t[i].name,
			   NULL, val);
		snprintf(val, sizeof(val), "%llu", (unsigned long long)cum);
		put_sample(f, "latency_tracker_delay_seconds_count", t[i].name,
			   NULL, val);
	}
}

/* A metric of a `stats` line, for the trackers whose stats have it. */
static void put_optional(FILE *f, const struct ltd_stat_metric *sm,
			 const char *type, const struct ltd_tracker_data *t,
			 size_t n)
{
	unsigned __int128 v;
	bool family = false;
	char val[48];
	size_t i;
	int found;

	for (i = 0; i < n; i++) {
		if (!t[i].have_st)
			continue;
		v = lt_stat_u128(&t[i].st, sm->stat, &found);
		if (!found)
			continue;
		if (!family)
			put_family(f, sm->metric, type, sm->help);
		family = true;
		put_sample(f, sm->metric, t[i].name, NULL,
			   lt_format_u128(v, val, sizeof(val)));
	}
}

static void put_stats(FILE *f, const struct ltd_tracker_data *t, size_t n)
{
	char val[32];
	size_t m, i;

	for (m = 0; m < ARRAY_LEN(ltd_stat_counters); m++) {
		const struct ltd_stat_metric *sm = &ltd_stat_counters[m];

		put_family(f, sm->metric, "counter", sm->help);
		for (i = 0; i < n; i++) {
			if (!t[i].have_st)
				continue;
			snprintf(val, sizeof(val), "%llu",
				 (unsigned long long)lt_stat(&t[i].st, sm->stat));
			put_sample(f, sm->metric, t[i].name, NULL, val);
		}
	}
	for (m = 0; m < ARRAY_LEN(ltd_pool_gauges); m++)
		put_optional(f, &ltd_pool_gauges[m], "gauge", t, n);
	put_optional(f, &ltd_pool_grown, "counter", t, n);
	put_family(f, "latency_tracker_pending_events", "gauge",
		   "Events started and not ended yet.");
	for (i = 0; i < n; i++) {
		if (!t[i].have_st)
			continue;
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)lt_stat(&t[i].st, "pending"));
		put_sample(f, "latency_tracker_pending_events", t[i].name, NULL,
			   val);
	}
}

struct ltd_own_ctx {
	FILE *f;
	const struct ltd_own_metric *m;
};

static void put_own_one(const char *tracker, const struct ltd_counters *c,
			void *arg)
{
	struct ltd_own_ctx *ctx = arg;
	char val[32];

	snprintf(val, sizeof(val), "%llu", (unsigned long long)
		 *(const uint64_t *)((const char *)c + ctx->m->off));
	put_sample(ctx->f, ctx->m->metric, tracker, NULL, val);
}

static void put_breakdown_one(const char *tracker,
			      const struct ltd_counters *c, void *arg)
{
	FILE *f = arg;
	char val[48];

	for (size_t k = 0; k < LT_WHY_KINDS; k++) {
		if (!c->breakdown_ns[k])
			continue;
		ns_seconds(c->breakdown_ns[k], val, sizeof(val));
		fputs("latency_trackerd_breakdown_seconds_total{tracker=\"", f);
		put_label(f, tracker);
		fprintf(f, "\",kind=\"%s\"} %s\n", lt_why_kind(k), val);
	}
}

static void put_own(FILE *f)
{
	struct ltd_own_ctx ctx = { .f = f };
	size_t m;

	for (m = 0; m < ARRAY_LEN(ltd_own_counters); m++) {
		ctx.m = &ltd_own_counters[m];
		put_family(f, ctx.m->metric, "counter", ctx.m->help);
		ltd_counters_each(put_own_one, &ctx);
	}
	put_family(f, "latency_trackerd_breakdown_seconds_total", "counter",
		   "Where the alert records' delays went, summed by kind.");
	ltd_counters_each(put_breakdown_one, f);
}

char *ltd_metrics_text(size_t *len)
{
	struct ltd_tracker_data *t;
	char **names = NULL, *buf = NULL;
	int count = lt_tracker_list(&names);
	size_t n = 0, i;
	FILE *f;

	if (count < 0)
		count = 0;	/* the core module is not loaded: own counters */
	t = calloc((size_t)count + 1, sizeof(*t));
	if (!t) {
		lt_tracker_list_free(names);
		return NULL;
	}
	for (i = 0; i < (size_t)count && n < LTD_METRICS_TRACKERS; i++) {
		t[n].name = names[i];
		t[n].have_st = !lt_stats_load(names[i], &t[n].st);
		t[n].have_h = !lt_hist_load(names[i], &t[n].h);
		if (t[n].have_st || t[n].have_h)
			n++;	/* else unloaded meanwhile */
	}
	f = open_memstream(&buf, len);
	if (f) {
		put_histogram(f, t, n);
		put_stats(f, t, n);
		put_own(f);
		if (fclose(f)) {
			free(buf);
			buf = NULL;
		}
	}
	free(t);
	lt_tracker_list_free(names);
	return buf;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int code,
			     char *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				code == MHD_HTTP_OK ? LTD_CONTENT_TYPE :
						      "text/plain; charset=utf-8");
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req_cls)
{
	size_t len = 0;
	char *body;

	(void)cls;
	(void)version;
	(void)upload;
	(void)upload_size;
	(void)req_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		static char bad_method[] = "method not allowed: GET /metrics\n";

		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, bad_method,
			     strlen(bad_method), MHD_RESPMEM_PERSISTENT);
	}
	if (strcmp(url, "/metrics")) {
		static char not_found[] = "not found: the metrics are at /metrics\n";

		return reply(conn, MHD_HTTP_NOT_FOUND, not_found,
			     strlen(not_found), MHD_RESPMEM_PERSISTENT);
	}
	body = ltd_metrics_text(&len);
	if (!body)
		return MHD_NO;
	return reply(conn, MHD_HTTP_OK, body, len, MHD_RESPMEM_MUST_FREE);
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t len;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	len = strlen(msg);
	while (len && msg[len - 1] == '\n')
		msg[--len] = '\0';
	ltd_log_msg("warning", "metrics: %s", msg);
}

/* A listening TCP socket on @ss, or -1 with the reason in @why. */
static int listen_on(const struct sockaddr_storage *ss, char *why, size_t len)
{
	socklen_t sl = ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
			sizeof(struct sockaddr_in);
	int one = 1, fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (ss->ss_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one))) ||
	    bind(fd, (const struct sockaddr *)ss, sl) || listen(fd, 16)) {
		snprintf(why, len, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int ltd_metrics_start(const struct ltd_config *cfg, int epfd, void *tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = tag };
	const union MHD_DaemonInfo *info;
	struct sockaddr_storage ss;
	char why[256];
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	int lfd;

	ltd_metrics_configure(cfg);
	if (!cfg->metrics[0])
		return 0;
	if (ltd_metrics_parse(cfg->metrics, &ss, why, sizeof(why))) {
		ltd_log_msg("error", "metrics: %s", why);
		return -1;
	}
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/*
	 * The socket is ours (MHD closes it at stop): a bind that fails is
	 * said with its address, where MHD would name port 0 (the port it
	 * was given beside MHD_OPTION_SOCK_ADDR).
	 */
	lfd = listen_on(&ss, why, sizeof(why));
	if (lfd < 0) {
		ltd_log_msg("error", "metrics: cannot listen on %s: %s",
			    cfg->metrics, why);
		return -1;
	}
	/* The logger first: MHD warns (to stderr) of any option before it. */
	ltd_mhd = MHD_start_daemon(flags, 0, NULL, NULL, on_request, NULL,
				   MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				   MHD_OPTION_LISTEN_SOCKET, lfd,
				   MHD_OPTION_CONNECTION_LIMIT, (unsigned int)LTD_METRICS_CONNS,
				   MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)LTD_METRICS_TIMEOUT_S,
				   MHD_OPTION_END);
	if (!ltd_mhd) {
		close(lfd);
		ltd_log_msg("error", "metrics: cannot serve on %s (see the warning before)",
			    cfg->metrics);
		return -1;
	}
	info = MHD_get_daemon_info(ltd_mhd, MHD_DAEMON_INFO_EPOLL_FD);
	ltd_mhd_fd = info ? info->epoll_fd : -1;
	if (ltd_mhd_fd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, ltd_mhd_fd, &ev)) {
		ltd_log_msg("error", "metrics: cannot poll the HTTP server: %s",
			    strerror(errno));
		MHD_stop_daemon(ltd_mhd);
		ltd_mhd = NULL;
		ltd_mhd_fd = -1;
		return -1;
	}
	ltd_log_begin("metrics");
	ltd_log_str("listen", cfg->metrics);
	ltd_log_str("path", "/metrics");
	ltd_log_end();
	return 0;
}

void ltd_metrics_stop(int epfd)
{
	if (!ltd_mhd)
		return;
	epoll_ctl(epfd, EPOLL_CTL_DEL, ltd_mhd_fd, NULL);
	MHD_stop_daemon(ltd_mhd);
	ltd_mhd = NULL;
	ltd_mhd_fd = -1;
}

void ltd_metrics_run(void)
{
	if (ltd_mhd)
		MHD_run(ltd_mhd);
}
