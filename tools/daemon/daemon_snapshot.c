// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_snapshot.c - record one LTTng snapshot of the session.
 *
 * Each snapshot gets its own name, lt-<sequence>-<UTC date>-<time> (LTTng
 * refuses a "." in a snapshot name: it becomes a trace chunk name).  The
 * sequence, ten digits, goes on from the highest found in the output
 * directory at start and reload, so names sort by the order snapshots
 * were taken even when the wall clock steps back (retention relies on
 * it); the date is for people.  Locally it goes to <output>/<name>/ (LTTng
 * writes its own directory inside), and a failed snapshot's directory is
 * removed (a full disk leaves a partial trace); over the network to the
 * relayd URL, where relayd files it under the host and session names.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

#define LTD_SEQ_DIGITS	10

static uint64_t ltd_next_seq = 1;

bool ltd_snapshot_seq_of(const char *name, uint64_t *seq)
{
	uint64_t v = 0;
	int i;

	if (strncmp(name, "lt-", 3))
		return false;
	for (i = 0; i < LTD_SEQ_DIGITS; i++) {
		char ch = name[3 + i];

		if (ch < '0' || ch > '9')
			return false;
		v = v * 10 + (uint64_t)(ch - '0');
	}
	if (name[3 + LTD_SEQ_DIGITS] != '-')
		return false;
	*seq = v;
	return true;
}

void ltd_snapshot_seq_init(const struct ltd_config *cfg)
{
	struct dirent *e;
	uint64_t max = 0, v;
	DIR *d;

	if (ltd_output_is_net(cfg))
		return;
	d = opendir(cfg->output);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (ltd_snapshot_seq_of(e->d_name, &v) && v > max)
			max = v;
	closedir(d);
	if (max >= ltd_next_seq)
		ltd_next_seq = max + 1;
}

static void snapshot_name(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char date[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, size, "lt-%0*llu-%s", LTD_SEQ_DIGITS,
		 (unsigned long long)ltd_next_seq++, date);
}

/* The snapshot's own output (`session` needs `output`: config). */
static struct lttng_snapshot_output *make_output(const struct ltd_config *cfg,
						  struct ltd_snapshot_result *res)
{
	struct lttng_snapshot_output *out = lttng_snapshot_output_create();
	int ret;

	if (!out) {
		res->err = LTTNG_ERR_NOMEM;
		return NULL;
	}
	lttng_snapshot_output_set_name(res->name, out);
	if (ltd_output_is_net(cfg)) {
		snprintf(res->path, sizeof(res->path), "%s", cfg->output);
		ret = lttng_snapshot_output_set_network_url(cfg->output, out);
	} else {
		if (snprintf(res->path, sizeof(res->path), "%s/%s", cfg->output,
			     res->name) >= (int)sizeof(res->path)) {
			ret = -LTTNG_ERR_INVALID;
			goto fail;
		}
		ret = make_dirs(cfg->output);
		if (ret) {
			ltd_log_msg("error", "cannot create %s: %s", cfg->output,
				    strerror(-ret));
			ret = -LTTNG_ERR_INVALID;
			goto fail;
		}
		ret = lttng_snapshot_output_set_local_path(res->path, out);
	}
	if (ret >= 0)
		return out;
fail:
	lttng_snapshot_output_destroy(out);
	res->err = -ret;
	return NULL;
}

int ltd_snapshot_take(const struct ltd_config *cfg,
		      struct ltd_snapshot_result *res)
{
	struct lttng_snapshot_output *out;
	int ret;

	memset(res, 0, sizeof(*res));
	snapshot_name(res->name, sizeof(res->name));
	out = make_output(cfg, res);
	if (!out)
		return -1;
	res->start_ns = ltd_now_ns();
	ret = lttng_snapshot_record(ltd_session_name(), out, 0);
	res->end_ns = ltd_now_ns();
	lttng_snapshot_output_destroy(out);
	if (ret < 0) {
		res->err = -ret;
		/* A partial trace (ENOSPC) is no snapshot: leave nothing. */
		if (!ltd_output_is_net(cfg)) {
			int rm = ltd_remove_tree(res->path);

			if (rm && rm != -ENOENT)
				ltd_log_msg("error", "cannot remove the failed snapshot %s: %s",
					    res->path, strerror(-rm));
		}
		return -1;
	}
	return 0;
}
