// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_fdtab.c - file descriptor tables over time (ex_fdtab.h): records
 * per (process, fd), the system calls that make them, the query.
 */
#include <stdlib.h>
#include <string.h>

#include "ex_fdtab.h"
#include "ex_util.h"

/* Linux's fcntl commands and close_range flag (uapi) that the table uses. */
#define EX_F_DUPFD 0
#define EX_F_DUPFD_CLOEXEC 1030
#define EX_CLOSE_RANGE_CLOEXEC 4
#define EX_EBADF 9
/* A DUP chain longer than this is taken as a cycle (corrupt input). */
#define EX_FD_MAX_HOPS 16

void ex_fdtab_free(struct ex_fdtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->r[i].name);
	free(t->r);
	free(t->forks);
	memset(t, 0, sizeof(*t));
}

static struct ex_fdrec *rec_add(struct ex_fdtab *t, enum ex_fd_rec kind,
				int pid, int64_t fd, uint64_t ts, const char *name,
				int64_t src)
{
	struct ex_fdrec *r;

	if (pid <= 0 || fd < 0)
		return NULL;
	r = EX_PUSH(t->r, t->n, t->cap);
	r->pid = pid;
	r->fd = fd;
	r->ts = ts;
	r->seq = t->n;
	r->kind = kind;
	r->src = src;
	r->name = name ? ex_xstrdup(name) : NULL;
	t->sorted = false;
	return r;
}

void ex_fdtab_add(struct ex_fdtab *t, enum ex_fd_rec kind, int pid, int64_t fd,
		  uint64_t ts, const char *name, int64_t src)
{
	rec_add(t, kind, pid, fd, ts, name, src);
}

/* An OPEN of an anonymous file: its kind, which a statedump may refine. */
static void add_anon(struct ex_fdtab *t, int pid, int64_t fd, uint64_t ts,
		     const char *kind)
{
	struct ex_fdrec *r = rec_add(t, FDR_OPEN, pid, fd, ts, kind, -1);

	if (r)
		r->anon = true;
}

void ex_fdtab_fork(struct ex_fdtab *t, int pid, int ppid, uint64_t ts)
{
	struct ex_fdfork *f;

	if (pid <= 0 || ppid <= 0 || pid == ppid)
		return;
	f = EX_PUSH(t->forks, t->nforks, t->cap_forks);
	f->pid = pid;
	f->ppid = ppid;
	f->ts = ts;
}

static bool in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

/* System calls returning a new fd of an anonymous file: the kind. */
static const char *anon_kind(const char *name)
{
	static const struct { const char *sys, *kind; } kinds[] = {
		{ "socket", "socket" }, { "accept", "socket" },
		{ "accept4", "socket" },
		{ "eventfd", "anon_inode:[eventfd]" },
		{ "eventfd2", "anon_inode:[eventfd]" },
		{ "epoll_create", "anon_inode:[eventpoll]" },
		{ "epoll_create1", "anon_inode:[eventpoll]" },
		{ "timerfd_create", "anon_inode:[timerfd]" },
		{ "signalfd", "anon_inode:[signalfd]" },
		{ "signalfd4", "anon_inode:[signalfd]" },
		{ "inotify_init", "anon_inode:inotify" },
		{ "inotify_init1", "anon_inode:inotify" },
		{ "pidfd_open", "anon_inode:[pidfd]" },
		{ "memfd_create", "memfd" },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (!strcmp(name, kinds[i].sys))
			return kinds[i].kind;
	return NULL;
}

static bool closed_at(const struct ex_fdtab *t, size_t from, int pid,
		      int64_t fd)
{
	for (size_t i = from; i < t->n; i++)
		if (t->r[i].pid == pid && t->r[i].fd == fd)
			return true;
	return false;
}

static void close_range(struct ex_fdtab *t, int pid, int64_t lo, int64_t hi,
			uint64_t ts)
{
	size_t n = t->n;

	/* Every fd of pid the table knows in [lo, hi], once: the records
	 * from n on are the closes added here. */
	for (size_t i = 0; i < n; i++) {
		int64_t fd = t->r[i].fd;

		if (t->r[i].pid != pid || fd < lo || fd > hi ||
		    closed_at(t, n, pid, fd))
			continue;
		ex_fdtab_add(t, FDR_CLOSE, pid, fd, ts, NULL, -1);
	}
}

void ex_fdtab_syscall(struct ex_fdtab *t, int pid, const char *name,
		      int64_t fd, int64_t fd2, int64_t cmd, const char *path,
		      int64_t ret, const int64_t fds[2], uint64_t ts)
{
	static const char *const opens[] = {
		"open", "openat", "openat2", "creat", NULL,
	};
	static const char *const dups[] = { "dup", "dup2", "dup3", NULL };
	const char *kind;

	if (!strcmp(name, "close")) {
		/* The fd is released whatever the error, unless it was none. */
		if (ret != -EX_EBADF)
			ex_fdtab_add(t, FDR_CLOSE, pid, fd, ts, NULL, -1);
		return;
	}
	if (!strcmp(name, "close_range")) {
		if (!ret && !(cmd & EX_CLOSE_RANGE_CLOEXEC) && fd >= 0 && fd2 >= fd)
			close_range(t, pid, fd, fd2, ts);
		return;
	}
	if (ret < 0)
		return;
	if (in_list(name, opens)) {
		if (path && path[0])
			ex_fdtab_add(t, FDR_OPEN, pid, ret, ts, path, -1);
		else
			add_anon(t, pid, ret, ts, "file");
	} else if (in_list(name, dups) ||
		   (!strcmp(name, "fcntl") &&
		    (cmd == EX_F_DUPFD || cmd == EX_F_DUPFD_CLOEXEC))) {
		/* dup2(fd, fd) changes nothing. */
		if (ret != fd)
			ex_fdtab_add(t, FDR_DUP, pid, ret, ts, NULL, fd);
	} else if (!strcmp(name, "pipe") || !strcmp(name, "pipe2") ||
		   !strcmp(name, "socketpair")) {
		kind = name[0] == 'p' ? "pipe" : "socket";
		for (int i = 0; i < 2; i++)
			if (fds && fds[i] >= 0)
				add_anon(t, pid, fds[i], ts, kind);
	} else if ((kind = anon_kind(name))) {
		add_anon(t, pid, ret, ts, kind);
	}
}

static int by_key(const void *a, const void *b)
{
	const struct ex_fdrec *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->fd != y->fd)
		return x->fd < y->fd ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void ex_fdtab_finish(struct ex_fdtab *t)
{
	if (t->n > 1)
		qsort(t->r, t->n, sizeof(*t->r), by_key);
	t->sorted = true;
}

/* The first record of (pid, fd) in the sorted table. */
static size_t first_of(const struct ex_fdtab *t, int pid, int64_t fd)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ex_fdrec *r = &t->r[mid];

		if (r->pid < pid || (r->pid == pid && r->fd < fd))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The name of fd at ts; *anon: the trace's records could only give a kind
 * (or nothing), which a statedump's name may replace.
 */
/* The latest fork that created process pid at or before ts, or NULL. */
static const struct ex_fdfork *fork_of(const struct ex_fdtab *t, int pid,
				       uint64_t ts)
{
	const struct ex_fdfork *f = NULL;

	for (size_t k = 0; k < t->nforks; k++)
		if (t->forks[k].pid == pid && t->forks[k].ts <= ts &&
		    (!f || t->forks[k].ts > f->ts))
			f = &t->forks[k];
	return f;
}

static const char *name_at(const struct ex_fdtab *t, int pid, int64_t fd,
			   uint64_t ts, int hops, bool *anon)
{
	const struct ex_fdrec *last = NULL, *before = NULL, *after = NULL, *seen;
	const struct ex_fdfork *born;
	const char *name = "";
	size_t i = first_of(t, pid, fd);

	*anon = true;
	if (hops > EX_FD_MAX_HOPS)
		return "";
	/* A process's life starts at its fork: what an earlier process of
	 * that pid did is not its own. */
	born = fork_of(t, pid, ts);
	for (; i < t->n && t->r[i].pid == pid && t->r[i].fd == fd; i++) {
		const struct ex_fdrec *r = &t->r[i];

		if (born && r->ts < born->ts)
			continue;
		if (r->kind == FDR_SEEN) {
			if (r->ts <= ts)
				before = r;
			else if (!after)
				after = r;
			continue;
		}
		if (r->ts > ts)
			break;		/* the next change: the window ends */
		last = r;
		before = NULL;		/* a statedump before it is stale */
	}
	seen = before ? before : after;
	if (last) {
		switch (last->kind) {
		case FDR_OPEN:
			name = last->name;
			*anon = last->anon;
			break;
		case FDR_DUP:
			name = name_at(t, pid, last->src, last->ts, hops + 1, anon);
			break;
		default:
			break;
		}
	} else if (!seen && born) {
		/* Nothing of its own: inherited from the parent at the fork. */
		return name_at(t, born->ppid, fd, born->ts, hops + 1, anon);
	}
	if (*anon && seen) {
		*anon = false;
		return seen->name;
	}
	return name;
}

const char *ex_fdtab_name(const struct ex_fdtab *t, int pid, int64_t fd,
			  uint64_t ts)
{
	bool anon;

	if (!t->sorted || fd < 0)
		return "";
	return name_at(t, pid, fd, ts, 0, &anon);
}
