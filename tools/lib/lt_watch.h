/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_watch.h - following the `alerts` files of every loaded tracker with
 * epoll.  Used by latency-trackerd and `latency-tracker follow`.
 *
 * lt_watch_scan() opens the alerts file of each tracker not watched yet
 * (call it periodically: trackers loaded later are picked up; procfs has
 * no inotify) and adds it to the caller's epoll set; lt_watch_ready()
 * reads the lines of one ready file.  A file whose tracker went away
 * (read error or EOF, EPOLLHUP), or that the list to follow no longer
 * names (lt_watch_set_only()), is closed and reported.  An alerts file
 * that cannot be opened is reported once, again only with another errno
 * or after the tracker went away, not at every scan.
 *
 * Each scan first checks the modules' record format (lt_proc_check()):
 * modules of another format are refused, with one error callback
 * (tracker LT_WATCH_ALL, what = the one-line reason, err =
 * EPROTONOSUPPORT or EPROTO) when that starts; their files are closed
 * and none is opened until a scan finds the right format again.
 *
 * Each epoll registration carries a pointer to a struct lt_epoll_src: the
 * caller's own fds use the same header with another kind.
 */
#ifndef LT_WATCH_H
#define LT_WATCH_H

#include <stdbool.h>
#include <stddef.h>

enum lt_src_kind {
	LT_SRC_ALERTS,
	LT_SRC_SIGNAL,
	LT_SRC_TIMER,
};

struct lt_epoll_src {
	enum lt_src_kind kind;
	int fd;
};

/* The "tracker" of an error about all of them (the record format). */
#define LT_WATCH_ALL		"*"

/* Largest line kept while waiting for its end. */
#define LT_WATCH_LINE_MAX	4096

struct lt_watch_file {
	struct lt_epoll_src src;	/* first: epoll data points here */
	struct lt_watch_file *next;
	char tracker[64];
	size_t len;			/* bytes of a partial line in buf */
	char buf[2 * LT_WATCH_LINE_MAX];
};

struct lt_watch_ops {
	/* One complete line (NUL-terminated, '\n' removed); may modify it. */
	void (*line)(void *ctx, const char *tracker, char *line);
	/* A tracker appeared (added) or went away (!added). */
	void (*tracker)(void *ctx, const char *tracker, bool added);
	/* The root appeared (present) or disappeared (!present). */
	void (*root)(void *ctx, bool present);
	/* Something failed (opening a file...). */
	void (*error)(void *ctx, const char *tracker, const char *what,
		      int err);
};

/* A tracker whose alerts file could not be opened: said once per errno. */
struct lt_watch_failed {
	struct lt_watch_failed *next;
	int err;
	char tracker[64];
};

struct lt_watch {
	int epfd;
	const struct lt_watch_ops *ops;
	void *ctx;
	char *const *only;	/* NULL-terminated names, or NULL = all */
	struct lt_watch_file *files;
	struct lt_watch_failed *failed;	/* opens that failed, reported */
	int root_state;		/* -1 unknown, 0 absent, 1 present */
	bool refused;		/* the modules' record format was refused */
};

void lt_watch_init(struct lt_watch *w, int epfd,
		   const struct lt_watch_ops *ops, void *ctx,
		   char *const *only);
/* Returns the number of files watched. */
size_t lt_watch_scan(struct lt_watch *w);
void lt_watch_ready(struct lt_watch *w, struct lt_watch_file *f,
		    unsigned int events);
/* The trackers to follow from the next scan on (NULL = all). */
void lt_watch_set_only(struct lt_watch *w, char *const *only);
/* Every file closed (reported if @report); the root's state unknown again. */
void lt_watch_close_all(struct lt_watch *w, bool report);

#endif /* LT_WATCH_H */
