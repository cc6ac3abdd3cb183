// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_retention.c - bounded disk use: in a local output directory, keep
 * at most max-snapshots snapshots and max-bytes bytes, and room on the
 * filesystem for one more snapshot of the size of the newest; the oldest
 * go first, the one just taken always stays.  Only entries named lt-*
 * (ours) are considered; they are ordered by their sequence
 * (daemon_snapshot.c), never by the date in the name, and names of the
 * older form (lt-<date>-..., no sequence) count as older than any.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "daemon.h"

#define LTD_NFTW_FDS	16

struct ltd_snap {
	char *name;
	uint64_t size;
};

static uint64_t ltd_du_total;
static int ltd_rm_err;

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
	if (remove(path) && !ltd_rm_err)
		ltd_rm_err = -errno;
	return 0;
}

int ltd_remove_tree(const char *path)
{
	ltd_rm_err = 0;
	if (nftw(path, rm_one, LTD_NFTW_FDS, FTW_DEPTH | FTW_PHYS))
		return -errno;
	return ltd_rm_err;
}

/* Oldest first: the older form of name, then by sequence. */
static int cmp_age(const void *a, const void *b)
{
	const char *x = ((const struct ltd_snap *)a)->name;
	const char *y = ((const struct ltd_snap *)b)->name;
	uint64_t sx, sy;
	bool hx = ltd_snapshot_seq_of(x, &sx), hy = ltd_snapshot_seq_of(y, &sy);

	if (hx != hy)
		return hx ? 1 : -1;
	if (hx && sx != sy)
		return sx < sy ? -1 : 1;
	return strcmp(x, y);
}

/* Our entries of the output directory, oldest first; their number. */
static size_t list(const char *dir, struct ltd_snap **out)
{
	struct ltd_snap *s = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "lt-", 3))
			continue;
		if (n == cap) {
			struct ltd_snap *ns;

			cap = cap ? 2 * cap : 32;
			ns = realloc(s, cap * sizeof(*s));
			if (!ns)
				break;
			s = ns;
		}
		s[n].name = strdup(e->d_name);
		if (!s[n].name)
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(s, n, sizeof(*s), cmp_age);
	*out = s;
	return n;
}

/* Bytes free for us on the output filesystem; UINT64_MAX if unknown. */
static uint64_t room(const char *dir)
{
	struct statvfs sv;

	if (statvfs(dir, &sv))
		return UINT64_MAX;
	return (uint64_t)sv.f_bavail * sv.f_frsize;
}

static void remove_one(const struct ltd_config *cfg, struct ltd_snap *s,
		       const char *reason)
{
	char path[LTD_PATH_MAX + 512];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", cfg->output, s->name);
	ret = ltd_remove_tree(path);
	ltd_log_begin("removed");
	ltd_log_str("path", path);
	ltd_log_u64("bytes", s->size);
	ltd_log_str("reason", reason);
	if (ret)
		ltd_log_str("error", strerror(-ret));
	ltd_log_end();
}

void ltd_retention_apply(const struct ltd_config *cfg, const char *keep)
{
	struct ltd_snap *s;
	char path[LTD_PATH_MAX + 512];
	uint64_t total = 0, need;
	size_t n, i, count;

	if (ltd_output_is_net(cfg))
		return;
	n = list(cfg->output, &s);
	if (!n)
		goto out;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", cfg->output, s[i].name);
		s[i].size = du(path);
		total += s[i].size;
	}
	need = s[n - 1].size;	/* the next one is likely as large */
	count = n;
	for (i = 0; i < n; i++) {
		const char *reason = NULL;

		if (keep && !strcmp(s[i].name, keep))
			continue;
		if (cfg->max_snapshots && count > cfg->max_snapshots)
			reason = "max-snapshots";
		else if (cfg->max_bytes && total > cfg->max_bytes)
			reason = "max-bytes";
		else if (i + 1 < n && room(cfg->output) < need)
			reason = "free-space";
		if (!reason)
			break;
		remove_one(cfg, &s[i], reason);
		count--;
		total -= s[i].size;
	}
out:
	for (i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}
