// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_snapshot.c - record one LTTng snapshot of the session.
 *
 * Each snapshot gets its own name, lt-<UTC date>-<time>-<ms>-<seq> (LTTng
 * refuses a "." in a snapshot name: it becomes a trace chunk name), which
 * sorts by age (retention relies on it).  Locally it goes to
 * <output>/<name>/ (LTTng writes its own directory inside); over the
 * network to the relayd URL, where relayd files it under the host and
 * session names.  With an existing session and no explicit output, the
 * session's own snapshot output is used.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <lttng/lttng.h>

#include "daemon.h"

#define LTD_OUTPUT_DIR_MODE	0750

uint64_t ltd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char p[LTD_PATH_MAX];
	size_t i;

	snprintf(p, sizeof(p), "%s", path);
	for (i = 1; p[i]; i++) {
		if (p[i] != '/')
			continue;
		p[i] = '\0';
		if (mkdir(p, LTD_OUTPUT_DIR_MODE) && errno != EEXIST)
			return -errno;
		p[i] = '/';
	}
	if (mkdir(p, LTD_OUTPUT_DIR_MODE) && errno != EEXIST)
		return -errno;
	return 0;
}

static void snapshot_name(char *buf, size_t size)
{
	static unsigned int seq;
	struct timespec ts;
	struct tm tm;
	char date[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, size, "lt-%s-%03ld-%04u", date, ts.tv_nsec / 1000000,
		 seq++ % 10000);
}

int ltd_snapshot_take(const struct ltd_config *cfg,
		      struct ltd_snapshot_result *res)
{
	struct lttng_snapshot_output *out = NULL;
	bool explicit = cfg->output_set || !cfg->session[0];
	int ret;

	memset(res, 0, sizeof(*res));
	snapshot_name(res->name, sizeof(res->name));
	if (explicit) {
		out = lttng_snapshot_output_create();
		if (!out) {
			res->err = LTTNG_ERR_NOMEM;
			return -1;
		}
		lttng_snapshot_output_set_name(res->name, out);
		if (ltd_output_is_net(cfg)) {
			snprintf(res->path, sizeof(res->path), "%s", cfg->output);
			ret = lttng_snapshot_output_set_network_url(cfg->output,
								    out);
		} else {
			if (snprintf(res->path, sizeof(res->path), "%s/%s",
				     cfg->output, res->name) >=
			    (int)sizeof(res->path)) {
				lttng_snapshot_output_destroy(out);
				res->err = LTTNG_ERR_INVALID;
				return -1;
			}
			ret = make_dirs(cfg->output);
			if (ret) {
				ltd_log_msg("error", "cannot create %s: %s",
					    cfg->output, strerror(-ret));
				lttng_snapshot_output_destroy(out);
				res->err = LTTNG_ERR_INVALID;
				return -1;
			}
			ret = lttng_snapshot_output_set_local_path(res->path,
								   out);
		}
		if (ret < 0) {
			lttng_snapshot_output_destroy(out);
			res->err = -ret;
			return -1;
		}
	} else {
		snprintf(res->path, sizeof(res->path), "(output of session %s)",
			 cfg->session);
	}
	res->start_ns = ltd_now_ns();
	ret = lttng_snapshot_record(ltd_session_name(), out, 0);
	res->end_ns = ltd_now_ns();
	if (out)
		lttng_snapshot_output_destroy(out);
	if (ret < 0) {
		res->err = -ret;
		return -1;
	}
	return 0;
}
