/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * daemon.h - latency-trackerd: follows every tracker's alerts file, logs
 * each record as a JSON line and records LTTng snapshots of the kernel
 * trace around the outliers (docs/design.md, "Userspace").
 *
 * One file per job: daemon_config.c (options and config file),
 * daemon_log.c (the JSON log), daemon_alerts.c (records -> log, rate
 * limit, snapshot decision), daemon_session.c (the LTTng session through
 * liblttng-ctl), daemon_snapshot.c (one snapshot), daemon_retention.c
 * (bounded disk use), daemon_child.c (children: explain, bounded),
 * daemon_counters.c (the daemon's own counters, per tracker),
 * daemon_metrics.c (the Prometheus endpoint), daemon_main.c (the event
 * loop and signals).
 */
#ifndef LT_DAEMON_H
#define LT_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lt_custom.h"
#include "lt_record.h"
#include "lt_why.h"

#define LTD_NAME		"latency-trackerd"
#define LTD_VERSION		"0.1.0"
#define LTD_DEFAULT_CONFIG	"/etc/latency-trackerd.conf"
#define LTD_PATH_MAX		4096
#define LTD_NAME_MAX		128

/* Exit statuses. */
#define LTD_EXIT_OK		0
#define LTD_EXIT_FAIL		1
#define LTD_EXIT_CONFIG		2

/* Most <tracker>.<filter> settings in a configuration. */
#define LTD_FILTERS_MAX		32
/* Most names in `trackers` (the built-in and the custom ones fit). */
#define LTD_MAX_TRACKERS	128

/* One filter of a tracker, set at start and on SIGHUP (lt_filter.h). */
struct ltd_filter {
	char tracker[64];
	char knob[16];			/* filter_cgroup, filter_tgid, ... */
	char value[LTD_PATH_MAX];	/* the kernel's notation */
	unsigned int line;		/* of the config file; 0: command line */
};

/* A custom tracker the configuration declares (custom.NAME = ...). */
struct ltd_custom_decl {
	struct lt_custom_def def;	/* def.name is NAME */
	unsigned int line;		/* of the config file; 0: command line */
};

struct ltd_config {
	char output[LTD_PATH_MAX];	/* absolute dir, or net://... */
	bool output_set;		/* given explicitly */
	char session[LTD_NAME_MAX];	/* existing session to use */
	char session_name[LTD_NAME_MAX]; /* session the daemon creates */
	bool snapshot;			/* take snapshots at all */
	bool explain;			/* explain each local snapshot */
	uint64_t rate_limit_ns;		/* min interval between snapshots */
	uint64_t max_snapshots;		/* keep the newest N (0 = no limit) */
	uint64_t max_bytes;		/* at most this on disk (0 = no limit) */
	char log[LTD_PATH_MAX];		/* "-" = stdout */
	uint64_t subbuf_size;		/* kernel channel sub-buffer size */
	uint64_t num_subbuf;		/* and count (per CPU) */
	uint64_t retry_ns;		/* sessiond / module retry interval */
	char trackers[LTD_PATH_MAX];	/* comma list; empty = all */
	char proc_root[LTD_PATH_MAX];	/* /proc/latency_tracker */
	uint64_t max_children;		/* explain children at once */
	uint64_t child_timeout_ns;	/* a child is killed after this */
	char metrics[LTD_NAME_MAX];	/* host:port of /metrics; "" = off */
	/* The histogram's bounds: from min to max, each step times the last. */
	uint64_t metrics_bucket_min_ns;
	uint64_t metrics_bucket_max_ns;
	uint64_t metrics_bucket_step;
	char app_group[LTD_NAME_MAX];	/* group of the app file; "" = as is */
	char config_file[LTD_PATH_MAX];	/* where the file part came from */
	struct ltd_filter filters[LTD_FILTERS_MAX];
	unsigned int nr_filters;	/* <tracker>.<filter> = value */
	struct ltd_custom_decl custom[LT_CUSTOM_MAX];
	unsigned int nr_custom;		/* custom.<name> = definition */
};

/*
 * Defaults, then the config file (--config, or the default one when it
 * exists), then the command line.  Returns 0; or -1 with a one-line
 * message in err (naming the file, line and key); or 1 when only help or
 * version was asked (printed).  *check_only: --check was given.
 */
int ltd_config_load(int argc, char **argv, struct ltd_config *cfg,
		    bool *check_only, char *err, size_t errlen);
bool ltd_output_is_net(const struct ltd_config *cfg);
/*
 * The names the command line and the config file take, for the man page's
 * test (tests/unit/test_daemon_man.c): key i (NULL past the last; *on_off:
 * it also works as a flag), and the options that are not keys (--config,
 * --check, ...; *alias or NULL).
 */
const char *ltd_config_key_name(size_t i, bool *on_off);
/* Key i (below the number of keys) has the same value in a and b. */
bool ltd_config_key_equal(const struct ltd_config *a,
			  const struct ltd_config *b, size_t i);
const char *ltd_config_option_name(size_t i, const char **alias);
/*
 * Writes the configured filters into the trackers' files (only @tracker's
 * when not NULL), logging one "filter" line each (with the error when the
 * kernel refused it or the tracker is not loaded).
 */
void ltd_filters_apply(const struct ltd_config *cfg, const char *tracker);

/* ---- custom trackers (daemon_custom.c) ---- */
/*
 * Make the custom trackers cfg declares (at start, and on SIGHUP with
 * the new configuration): delete the ones the daemon created that cfg no
 * longer declares or declares otherwise, create the ones missing; a live
 * one with the same definition is kept as it is, one with another is an
 * error.  Logs a "custom" line for each thing done or refused.  cfg must
 * outlive the next call.
 */
void ltd_custom_configure(const struct ltd_config *cfg);
/*
 * Periodically: notice latency_tracker_custom unloaded, or a declared
 * tracker that was live gone, and create what is missing once it can
 * (the tracker's filters written after it).
 */
void ltd_custom_tick(void);
/* Delete every custom tracker the daemon created (at exit; before a
 * reload that changes proc-root). */
void ltd_custom_teardown(void);
/*
 * app-group: the gid of a group name or number, or -1; and the app file
 * given that group (chgrp) when it has another, at configure and each
 * tick (latency_tracker_app may be loaded at any time).
 */
long ltd_app_gid(const char *group);

/*
 * Run `latency-tracker explain` on a local snapshot in a child process
 * (daemon_child.c), writing its report into <snapshot>/explain/; logs an
 * "explain" line, or "explain_skipped" when max-children already run.
 */
void ltd_explain_spawn(const char *snapshot_path, const char *tracker);

/* ---- children (daemon_child.c) ---- */
/*
 * Fork and exec argv[0] (execvp; exec_fn, when given, is called instead
 * and must not return on success) with a clean signal mask, every signal
 * at its default action, its own process group, nice 19 and SCHED_IDLE,
 * stdin and stdout on /dev/null.  At most max-children run at once; one
 * running longer than child-timeout has its process group killed.
 * Returns the pid, -EBUSY when max-children run, or -errno.  done() is
 * called when it has been reaped (status as waitpid gives it; timed_out
 * when the daemon killed it).
 */
typedef void (*ltd_child_done_fn)(pid_t pid, int status, bool timed_out,
				  void *arg);
int ltd_child_spawn(char *const argv[], void (*exec_fn)(char *const argv[]),
		    ltd_child_done_fn done, void *arg);
void ltd_child_configure(uint64_t max_children, uint64_t timeout_ns);
/* Reap the finished, kill the late; call periodically. */
void ltd_child_poll(void);
/* At exit: SIGTERM every child's group, SIGKILL what is left after grace. */
void ltd_child_stop_all(uint64_t grace_ns);
unsigned int ltd_child_running(void);

/* ---- the JSON log ---- */
int ltd_log_open(const char *path);	/* 0 or -errno */
void ltd_log_close(void);
/*
 * A log line is built with begin / fields / end: begin writes
 * {"time":"<UTC ISO 8601>","type":"<type>" and end the closing brace.
 */
void ltd_log_begin(const char *type);
void ltd_log_str(const char *key, const char *val);
void ltd_log_u64(const char *key, uint64_t v);
void ltd_log_s64(const char *key, int64_t v);
void ltd_log_record(const struct lt_record *r);
/* ,"key":{<the record's fields>} */
void ltd_log_nested_record(const char *key, const struct lt_record *r);
void ltd_log_end(void);
/* {"type":"<level>","msg":"..."} */
void ltd_log_msg(const char *level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the LTTng session ---- */
enum ltd_session_state {
	LTD_SESSION_OFF,	/* snapshots disabled */
	LTD_SESSION_DOWN,	/* not usable now; retried */
	LTD_SESSION_READY,
};

void ltd_session_init(const struct ltd_config *cfg);
/* Make the session usable if it is not; log state changes. */
enum ltd_session_state ltd_session_ensure(void);
/* Check a ready session still exists (sessiond may have restarted). */
void ltd_session_check(void);
/* An operation failed with an lttng error: maybe mark the session down. */
void ltd_session_failed(int lttng_err);
const char *ltd_session_name(void);
/* Destroy the session if the daemon created it. */
void ltd_session_teardown(void);

/* ---- snapshots ---- */
struct ltd_snapshot_result {
	char path[LTD_PATH_MAX];	/* local dir or URL */
	char name[LTD_NAME_MAX];
	uint64_t start_ns;		/* CLOCK_MONOTONIC before recording */
	uint64_t end_ns;
	int err;			/* lttng error code, 0 = ok */
};

int ltd_snapshot_take(const struct ltd_config *cfg,
		      struct ltd_snapshot_result *res);

/*
 * Snapshot names: lt-<sequence, 10 digits>-<UTC date>-<time>.  The
 * sequence goes on from the highest one found in the output directory,
 * so names sort by the order they were taken whatever the wall clock did.
 */
void ltd_snapshot_seq_init(const struct ltd_config *cfg);
/* The sequence of one of our names; false for a name of another form. */
bool ltd_snapshot_seq_of(const char *name, uint64_t *seq);

/*
 * Remove the oldest local snapshots beyond the limits, and while the
 * output filesystem has less room than the newest snapshot took (the
 * next one would not fit); log removals.  keep: the snapshot just taken,
 * never removed (NULL after a failed one).
 */
void ltd_retention_apply(const struct ltd_config *cfg, const char *keep);
/* rm -r; 0 or -errno of the first failure. */
int ltd_remove_tree(const char *path);

/* ---- the daemon's own counters, per tracker (daemon_counters.c) ---- */
struct ltd_counters {
	uint64_t alerts, lost, malformed, snapshots, suppressed, failed,
		 unavailable, explain_runs, explain_failed, explain_skipped,
		 errors;
	/* The records' breakdowns summed, ns by kind (lt_why.h). */
	uint64_t breakdown_ns[LT_WHY_KINDS];
};

/* The counters of a tracker (created at first use); never NULL. */
struct ltd_counters *ltd_counters_of(const char *tracker);
/* The sum over every tracker. */
void ltd_counters_total(struct ltd_counters *sum);
/* Call fn for each tracker seen so far, in name order. */
void ltd_counters_each(void (*fn)(const char *tracker,
				  const struct ltd_counters *c, void *arg),
		       void *arg);

/* ---- alert handling ---- */
void ltd_alerts_init(const struct ltd_config *cfg);
void ltd_alerts_line(const char *tracker, char *line);
/*
 * The session made usable (ltd_session_ensure()) at most once per
 * retry-interval while it is down: alerts and the timer both go through
 * this, so a session that cannot be set up costs one attempt per
 * interval, not one per alert.
 */
enum ltd_session_state ltd_session_try(uint64_t now);

/* ---- Prometheus metrics (daemon_metrics.c) ---- */
/*
 * Parse a metrics address (daemon_config.c, which validates it): "host:port"
 * with a numeric IPv4 host, "[v6]:port", or a bare port (loopback,
 * 127.0.0.1).  0, or -1 with a reason in why.
 */
struct sockaddr_storage;
int ltd_metrics_parse(const char *text, struct sockaddr_storage *ss,
		      char *why, size_t whylen);
/* Serve cfg->metrics (nothing when empty); 0 or -1 (logged). */
int ltd_metrics_start(const struct ltd_config *cfg, int epfd, void *tag);
/* The histogram's buckets from cfg (start and every reload). */
void ltd_metrics_configure(const struct ltd_config *cfg);
void ltd_metrics_stop(int epfd);
/* Its epoll fd was ready, or the timer ticked: run the HTTP server. */
void ltd_metrics_run(void);
/* The /metrics text (also used by tests); a malloc'ed string. */
char *ltd_metrics_text(size_t *len);

uint64_t ltd_now_ns(void);	/* CLOCK_MONOTONIC */

#endif /* LT_DAEMON_H */
