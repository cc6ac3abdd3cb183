// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_retention.c - bounded disk use: in a local output directory, keep
 * at most max-snapshots snapshots and max-bytes bytes; the oldest go
 * first (names sort by age), the one just taken always stays.  Only
 * entries named lt-* (ours) are considered.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"

#define LTD_NFTW_FDS	16

static uint64_t ltd_du_total;

static int du_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F)
		ltd_du_total += (uint64_t)st->st_size;
	return 0;
}

static uint64_t du(const char *path)
{
	ltd_du_total = 0;
	nftw(path, du_one, LTD_NFTW_FDS, FTW_PHYS);
	return ltd_du_total;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ltd_retention_apply(const struct ltd_config *cfg, const char *keep)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL, path[LTD_PATH_MAX + 512];
	uint64_t *sizes = NULL, total = 0;
	size_t n = 0, cap = 0, i, count;

	if (ltd_output_is_net(cfg) || (!cfg->max_snapshots && !cfg->max_bytes))
		return;
	d = opendir(cfg->output);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "lt-", 3))
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? 2 * cap : 32;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		names[n] = strdup(e->d_name);
		if (!names[n])
			break;
		n++;
	}
	closedir(d);
	if (!n)
		goto out;
	qsort(names, n, sizeof(*names), cmp_names);
	sizes = calloc(n, sizeof(*sizes));
	if (!sizes)
		goto out;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", cfg->output, names[i]);
		sizes[i] = du(path);
		total += sizes[i];
	}
	count = n;
	for (i = 0; i < n; i++) {
		bool over = (cfg->max_snapshots && count > cfg->max_snapshots) ||
			    (cfg->max_bytes && total > cfg->max_bytes);

		if (!over)
			break;
		if (keep && !strcmp(names[i], keep))
			continue;
		snprintf(path, sizeof(path), "%s/%s", cfg->output, names[i]);
		nftw(path, rm_one, LTD_NFTW_FDS, FTW_DEPTH | FTW_PHYS);
		ltd_log_begin("removed");
		ltd_log_str("path", path);
		ltd_log_u64("bytes", sizes[i]);
		ltd_log_str("reason", cfg->max_snapshots && count > cfg->max_snapshots ?
			    "max-snapshots" : "max-bytes");
		ltd_log_end();
		count--;
		total -= sizes[i];
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(sizes);
}
