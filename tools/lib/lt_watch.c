// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_watch.c - following the alerts files (see lt_watch.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "lt_proc.h"
#include "lt_watch.h"

void lt_watch_init(struct lt_watch *w, int epfd,
		   const struct lt_watch_ops *ops, void *ctx,
		   char *const *only)
{
	memset(w, 0, sizeof(*w));
	w->epfd = epfd;
	w->ops = ops;
	w->ctx = ctx;
	w->only = only;
	w->root_state = -1;
}

static bool wanted(const struct lt_watch *w, const char *name)
{
	char *const *p;

	if (!w->only)
		return true;
	for (p = w->only; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

static struct lt_watch_file *find(struct lt_watch *w, const char *name)
{
	struct lt_watch_file *f;

	for (f = w->files; f; f = f->next)
		if (!strcmp(f->tracker, name))
			return f;
	return NULL;
}

static void drop(struct lt_watch *w, struct lt_watch_file *f, bool report)
{
	struct lt_watch_file **pp;

	for (pp = &w->files; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	epoll_ctl(w->epfd, EPOLL_CTL_DEL, f->src.fd, NULL);
	close(f->src.fd);
	if (report && w->ops->tracker)
		w->ops->tracker(w->ctx, f->tracker, false);
	free(f);
}

/* True if the failure to open @name's file with @err is new (noted). */
static bool failure_is_new(struct lt_watch *w, const char *name, int err)
{
	struct lt_watch_failed *fl;

	for (fl = w->failed; fl; fl = fl->next) {
		if (strcmp(fl->tracker, name))
			continue;
		if (fl->err == err)
			return false;
		fl->err = err;
		return true;
	}
	fl = calloc(1, sizeof(*fl));
	if (fl) {
		fl->err = err;
		snprintf(fl->tracker, sizeof(fl->tracker), "%s", name);
		fl->next = w->failed;
		w->failed = fl;
	}
	return true;
}

/* Forget the failures of @name (opened now), or of every tracker not in
 * @names (gone: a failure when it comes back is new again). */
static void failures_forget(struct lt_watch *w, const char *name,
			    char **names, int count)
{
	struct lt_watch_failed **pp = &w->failed, *fl;

	while ((fl = *pp)) {
		bool forget = name && !strcmp(fl->tracker, name);

		if (!name) {
			forget = true;
			for (int i = 0; i < count; i++)
				forget &= !!strcmp(names[i], fl->tracker);
		}
		if (forget) {
			*pp = fl->next;
			free(fl);
		} else {
			pp = &fl->next;
		}
	}
}

static void add(struct lt_watch *w, const char *name)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct lt_watch_file *f;
	char path[4096];
	int fd;

	if (lt_proc_path(path, sizeof(path), name, "alerts"))
		return;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		if (failure_is_new(w, name, err) && w->ops->error)
			w->ops->error(w->ctx, name, "open alerts", err);
		return;
	}
	failures_forget(w, name, NULL, 0);
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(fd);
		return;
	}
	f->src.kind = LT_SRC_ALERTS;
	f->src.fd = fd;
	snprintf(f->tracker, sizeof(f->tracker), "%s", name);
	ev.data.ptr = f;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		if (w->ops->error)
			w->ops->error(w->ctx, name, "epoll alerts", errno);
		close(fd);
		free(f);
		return;
	}
	f->next = w->files;
	w->files = f;
	if (w->ops->tracker)
		w->ops->tracker(w->ctx, name, true);
}

/* False (files closed, reported once) when the record format is refused. */
static bool format_ok(struct lt_watch *w)
{
	char why[256];
	int ret = lt_proc_check(why, sizeof(why));

	if (ret != -EPROTONOSUPPORT && ret != -EPROTO) {
		w->refused = false;
		return true;
	}
	while (w->files)
		drop(w, w->files, true);
	if (!w->refused && w->ops->error)
		w->ops->error(w->ctx, LT_WATCH_ALL, why, -ret);
	w->refused = true;
	return false;
}

size_t lt_watch_scan(struct lt_watch *w)
{
	struct lt_watch_file *f, *next;
	char **names;
	size_t n = 0;
	int count, i;

	if (!format_ok(w))
		return 0;
	count = lt_tracker_list(&names);
	if (w->root_state != (count >= 0)) {
		w->root_state = count >= 0;
		if (w->ops->root)
			w->ops->root(w->ctx, count >= 0);
	}
	if (count < 0)
		names = NULL;
	/*
	 * Files of trackers that went away (unloaded, maybe reloaded) or
	 * are no longer in the list to follow.
	 */
	for (f = w->files; f; f = next) {
		bool present = false;

		next = f->next;
		for (i = 0; i < count; i++)
			present |= !strcmp(names[i], f->tracker);
		if (!present || !wanted(w, f->tracker))
			drop(w, f, true);
	}
	failures_forget(w, NULL, names, count < 0 ? 0 : count);
	for (i = 0; i < count; i++)
		if (wanted(w, names[i]) && !find(w, names[i]))
			add(w, names[i]);
	for (f = w->files; f; f = f->next)
		n++;
	lt_tracker_list_free(names);
	return n;
}

/* Hand every complete line of f->buf to the callback; keep the rest. */
static void split_lines(struct lt_watch *w, struct lt_watch_file *f)
{
	char *start = f->buf, *nl;
	size_t left = f->len;

	while ((nl = memchr(start, '\n', left))) {
		*nl = '\0';
		w->ops->line(w->ctx, f->tracker, start);
		left -= (size_t)(nl + 1 - start);
		start = nl + 1;
	}
	if (left >= LT_WATCH_LINE_MAX) {
		/* No newline in a whole line's worth: give it as it is. */
		f->buf[f->len] = '\0';
		w->ops->line(w->ctx, f->tracker, start);
		left = 0;
	}
	memmove(f->buf, start, left);
	f->len = left;
}

void lt_watch_ready(struct lt_watch *w, struct lt_watch_file *f,
		    unsigned int events)
{
	for (;;) {
		ssize_t r = read(f->src.fd, f->buf + f->len,
				 sizeof(f->buf) - 1 - f->len);

		if (r > 0) {
			f->len += (size_t)r;
			split_lines(w, f);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN) {
			if (events & EPOLLHUP && !(events & EPOLLIN))
				drop(w, f, true);
			return;
		}
		/* EOF (tracker going away) or an error (entry removed). */
		drop(w, f, true);
		return;
	}
}

void lt_watch_set_only(struct lt_watch *w, char *const *only)
{
	w->only = only;
}

void lt_watch_close_all(struct lt_watch *w, bool report)
{
	while (w->files)
		drop(w, w->files, report);
	failures_forget(w, NULL, NULL, 0);
	w->root_state = -1;
}
