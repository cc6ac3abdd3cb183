/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_fdtab.h - the file descriptor tables of the traced processes over
 * time: what fd N of process P named at time T.
 *
 * Built from the system calls that create, copy and close descriptors
 * (open, openat, creat; dup, dup2, dup3, fcntl F_DUPFD; close,
 * close_range; socket, accept, pipe, eventfd, ...) and from the LTTng
 * statedump, which names the descriptors open when the session started
 * (or when it was regenerated).  A process created in the trace starts
 * with its parent's table as it was at the fork (and nothing of an earlier
 * process that had its pid).
 *
 * Each (process, fd) has a history of records: OPEN (a name, or the
 * kind of an anonymous file: "pipe", "socket"), DUP (a copy of another
 * fd at that time), CLOSE, and SEEN (a statedump's naming).  The name at
 * T comes from the last OPEN/DUP/CLOSE at or before T -- unless a
 * statedump saw the fd between that record and the next one: then the
 * statedump's name, which is the full one ("pipe:[1234]", a path for an
 * fd opened before the trace).  Not followed: descriptors closed by
 * execve (close-on-exec) and tables shared by clone(CLONE_FILES) between
 * processes.
 */
#ifndef LT_EX_FDTAB_H
#define LT_EX_FDTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ex_fd_rec { FDR_OPEN, FDR_DUP, FDR_CLOSE, FDR_SEEN };

struct ex_fdrec {
	int pid;
	int64_t fd;
	uint64_t ts;
	size_t seq;		/* arrival order: ties at one ts */
	enum ex_fd_rec kind;
	int64_t src;		/* FDR_DUP: the fd copied */
	char *name;		/* FDR_OPEN, FDR_SEEN */
	bool anon;		/* FDR_OPEN: a kind ("pipe"), not a path */
};

struct ex_fdfork {
	int pid, ppid;
	uint64_t ts;
};

struct ex_fdtab {
	struct ex_fdrec *r;
	size_t n, cap;
	struct ex_fdfork *forks;
	size_t nforks, cap_forks;
	bool sorted;
};

void ex_fdtab_free(struct ex_fdtab *t);
void ex_fdtab_add(struct ex_fdtab *t, enum ex_fd_rec kind, int pid, int64_t fd,
		  uint64_t ts, const char *name, int64_t src);
void ex_fdtab_fork(struct ex_fdtab *t, int pid, int ppid, uint64_t ts);

/*
 * A system call that returned ret at ts in process pid: the records it
 * implies.  fd, fd2, cmd: its entry's arguments (ex_event.h); path: the
 * file of open/openat/creat; fds: pipe/socketpair's new pair.
 */
void ex_fdtab_syscall(struct ex_fdtab *t, int pid, const char *name,
		      int64_t fd, int64_t fd2, int64_t cmd, const char *path,
		      int64_t ret, const int64_t fds[2], uint64_t ts);

/* Sort the records; then query. */
void ex_fdtab_finish(struct ex_fdtab *t);
/* The name of fd in process pid at ts ("" when unknown or closed). */
const char *ex_fdtab_name(const struct ex_fdtab *t, int pid, int64_t fd,
			  uint64_t ts);

#endif /* LT_EX_FDTAB_H */
