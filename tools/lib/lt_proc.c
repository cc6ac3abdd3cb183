// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_proc.c - access to /proc/latency_tracker (see lt_proc.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt_num.h"
#include "lt_proc.h"

const struct lt_knob lt_knobs[] = {
	{ "threshold", LT_KNOB_DURATION, "report events slower than this" },
	{ "timeout", LT_KNOB_DURATION, "report pending events older than this (0 = off)" },
	{ "wakeup_interval", LT_KNOB_DURATION, "minimum interval between wakeups of alert readers" },
	{ "enable", LT_KNOB_BOOL, "1 = tracking, 0 = stopped" },
	{ "filter_cgroup", LT_KNOB_TEXT, "track this cgroup v2 and below (empty = all)" },
	{ "filter_tgid", LT_KNOB_TEXT, "track these processes (empty = all)" },
	{ "kthreads", LT_KNOB_BOOL, "1 = kernel threads tracked" },
	{ "filter_dev", LT_KNOB_TEXT, "block: track these disks (empty = all)" },
};
const size_t lt_nknobs = sizeof(lt_knobs) / sizeof(lt_knobs[0]);

/* Largest file we read whole (stats, histogram: a few hundred bytes). */
#define LT_PROC_FILE_MAX	(64 * 1024)

const char *lt_proc_root(void)
{
	const char *r = getenv("LT_PROC_ROOT");

	return r && *r ? r : LT_PROC_DEFAULT_ROOT;
}

/* A short file into buf (NUL-terminated): its length, or -errno. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	do {
		n = read(fd, buf, size - 1);
	} while (n < 0 && errno == EINTR);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return n;
}

int lt_proc_format(unsigned long *format)
{
	char path[4096], buf[32];
	uint64_t v;
	ssize_t n;

	if (snprintf(path, sizeof(path), "%s/%s", lt_proc_root(),
		     LT_PROC_VERSION_FILE) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	n = read_small(path, buf, sizeof(buf));
	if (n == -ENOENT) {
		/* No version file: the root without it, or no root. */
		int fd = open(lt_proc_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0)
			return -errno;
		close(fd);
		*format = LT_RECORD_FORMAT_NO_FILE;
		return 0;
	}
	if (n < 0)
		return (int)n;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	if (lt_parse_u64(buf, &v) || v > ULONG_MAX)
		return -EPROTO;
	*format = (unsigned long)v;
	return 0;
}

int lt_proc_check(char *why, size_t size)
{
	const char *root = lt_proc_root();
	unsigned long format = 0;
	int ret = lt_proc_format(&format);

	switch (ret) {
	case 0:
		if (format == LT_RECORD_FORMAT)
			return 0;
		snprintf(why, size, "the latency_tracker modules write alert record format %lu, these tools read format %d: install tools and modules of the same release",
			 format, LT_RECORD_FORMAT);
		return -EPROTONOSUPPORT;
	case -ENOENT:
		snprintf(why, size, "%s: %s (is the latency_tracker module loaded?)",
			 root, strerror(ENOENT));
		break;
	case -EACCES:
		snprintf(why, size, "%s: %s (its files are root-only: run as root)",
			 root, strerror(EACCES));
		break;
	case -EPROTO:
		snprintf(why, size, "%s/%s: not a record format number (tools and modules of different releases?)",
			 root, LT_PROC_VERSION_FILE);
		break;
	default:
		snprintf(why, size, "%s: %s", root, strerror(-ret));
		break;
	}
	return ret;
}

const struct lt_knob *lt_knob_find(const char *name)
{
	size_t i;

	for (i = 0; i < lt_nknobs; i++)
		if (!strcmp(lt_knobs[i].name, name))
			return &lt_knobs[i];
	return NULL;
}

bool lt_tracker_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..") && strlen(name) < 64;
}

int lt_proc_path(char *buf, size_t size, const char *tracker,
		 const char *file)
{
	int n = snprintf(buf, size, "%s/%s/%s", lt_proc_root(), tracker, file);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool lt_tracker_exists(const char *name)
{
	char path[4096];
	struct stat st;

	return lt_tracker_name_ok(name) &&
	       !lt_proc_path(path, sizeof(path), name, "threshold") &&
	       !stat(path, &st);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int lt_tracker_list(char ***names)
{
	DIR *d = opendir(lt_proc_root());
	struct dirent *e;
	char **v = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !lt_tracker_exists(e->d_name))
			continue;
		if (n + 2 > cap) {
			char **nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		v[n] = strdup(e->d_name);
		if (!v[n])
			goto nomem;
		n++;
	}
	closedir(d);
	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v)
			return -ENOMEM;
	}
	v[n] = NULL;
	qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return (int)n;
nomem:
	closedir(d);
	if (v) {
		v[n] = NULL;
		lt_tracker_list_free(v);
	}
	return -ENOMEM;
}

void lt_tracker_list_free(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

char *lt_tracker_list_str(char *buf, size_t size)
{
	char **names;
	int n = lt_tracker_list(&names), i;
	size_t len = 0;

	buf[0] = '\0';
	if (n <= 0) {
		snprintf(buf, size, "%s", n == 0 ? "none" :
			 "none: latency_tracker is not loaded");
		return buf;
	}
	for (i = 0; i < n && len < size; i++) {
		int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				 names[i]);

		if (w < 0)
			break;
		len += (size_t)w;
	}
	lt_tracker_list_free(names);
	return buf;
}

/* Whole file into a NUL-terminated malloc'ed buffer; NULL + errno. */
static char *read_whole(const char *path, int flags)
{
	char *buf;
	size_t len = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return NULL;
	buf = malloc(LT_PROC_FILE_MAX + 1);
	if (!buf) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	for (;;) {
		ssize_t r = read(fd, buf + len, LT_PROC_FILE_MAX - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			free(buf);
			close(fd);
			errno = err;
			return NULL;
		}
		if (r == 0 || (len += (size_t)r) == LT_PROC_FILE_MAX)
			break;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

char *lt_proc_read_file(const char *tracker, const char *file)
{
	char path[4096];

	if (lt_proc_path(path, sizeof(path), tracker, file)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return read_whole(path, 0);
}

/* <root>/<file>. */
static int root_path(char *buf, size_t size, const char *file)
{
	int n = snprintf(buf, size, "%s/%s", lt_proc_root(), file);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

char *lt_proc_root_read(const char *file)
{
	char path[4096];

	if (root_path(path, sizeof(path), file)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	/* O_NONBLOCK: a fake tree's FIFO with no writer reads as empty. */
	return read_whole(path, O_NONBLOCK);
}

int lt_knob_read(const char *tracker, const char *knob, uint64_t *v)
{
	char *s = lt_proc_read_file(tracker, knob);
	size_t n;
	int ret = 0;

	if (!s)
		return -errno;
	n = strlen(s);
	if (n && s[n - 1] == '\n')
		s[n - 1] = '\0';
	if (lt_parse_u64(s, v))
		ret = -EPROTO;
	free(s);
	return ret;
}

int lt_knob_write(const char *tracker, const char *knob, uint64_t v)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
	return lt_text_write(tracker, knob, val);
}

/* @v and a newline in one write(); 0 or -errno. */
static int write_text(const char *path, const char *v, int flags)
{
	char val[4200];
	int fd, n, ret = 0;
	ssize_t w;

	n = snprintf(val, sizeof(val), "%s\n", v);
	if (n < 0 || (size_t)n >= sizeof(val))
		return -ENAMETOOLONG;
	/* O_TRUNC for a fake tree of regular files; procfs ignores it. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	do {
		w = write(fd, val, (size_t)n);
	} while (w < 0 && errno == EINTR);
	if (w < 0)
		ret = -errno;
	else if (w != n)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int lt_text_write(const char *tracker, const char *knob, const char *v)
{
	char path[4096];

	if (lt_proc_path(path, sizeof(path), tracker, knob))
		return -ENAMETOOLONG;
	return write_text(path, v, 0);
}

int lt_proc_root_write(const char *file, const char *v)
{
	char path[4096];

	if (root_path(path, sizeof(path), file))
		return -ENAMETOOLONG;
	/*
	 * O_NONBLOCK: a fake tree's FIFO with no reader fails (ENXIO)
	 * instead of blocking; procfs ignores it.
	 */
	return write_text(path, v, O_NONBLOCK);
}
