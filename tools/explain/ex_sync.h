/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_sync.h - is a blocked interval a synchronisation, and with what?
 * (GAPP, thesis chapter 3: the waiting classes; its lock view).
 *
 * From the system call the thread was blocked in, its arguments and what
 * woke it (ex_classify.h's ex_blocked_wake()):
 *
 *   a kernel lock wait          a lock: the thread's latency_tracker_lock
 *   (any call, a page fault)    alert covers the interval (the lock, its
 *                               kind, the owner when the kernel records
 *                               one); before any of the calls below
 *   futex, futex_waitv          a lock (futex address) -- unless the
 *                               waker was in exit: a thread join (the
 *                               kernel's clear_child_tid wake)
 *   fcntl F_SETLKW/F_OFD_SETLKW a file lock (the file, by the fd table
 *                               at that time), though it has an fd
 *   flock LOCK_SH/LOCK_EX       a file lock (without LOCK_NB)
 *   semop, semtimedop           a semaphore (semid)
 *   msgrcv                      a message queue (msqid): its sender
 *   wait4, waitid               a child's exit: the child
 *   epoll_wait, epoll_pwait(2), poll, ppoll, select, pselect6, and
 *   read, readv, recv* on a pipe, a socket or an eventfd
 *                               woken by a thread: synchronisation with
 *                               it (the writer); otherwise not (a timer,
 *                               the network softirq: I/O)
 *
 * Locks (futex, file locks, semaphores) go into the lock view; the
 * evidence (the call, its argument, the waker and its call) is kept for
 * the report.
 */
#ifndef LT_EX_SYNC_H
#define LT_EX_SYNC_H

#include <stdbool.h>

#include "ex_model.h"

enum ex_sync_kind {
	SY_NONE,
	SY_FUTEX,	/* lock */
	SY_FILE_LOCK,	/* lock: fcntl or flock */
	SY_SEM,		/* lock */
	SY_JOIN,	/* futex woken by an exiting thread */
	SY_MSGQ,
	SY_CHILD,
	SY_WAKER,	/* poll/epoll/select/pipe/socket: woken by a thread */
	SY_KLOCK,	/* lock: a kernel lock (latency_tracker_lock) */
};

/* Room for a file name (EX_PATH_LEN) and the words around it. */
#define EX_SYNC_TEXT (EX_PATH_LEN + 128)

struct ex_sync {
	enum ex_sync_kind kind;
	bool lock;		/* one of the lock view's */
	char key[EX_SYNC_TEXT];		/* the object's identity (locks) */
	char label[EX_SYNC_TEXT];		/* the object as shown */
	char evidence[EX_SYNC_TEXT + 128]; /* the call, its argument, the waker */
	int64_t uaddr;		/* SY_FUTEX: the address, else -1 */
};

/* Fill *s for the blocked interval iv of t; false (SY_NONE) when it is
 * not a synchronisation. */
bool ex_sync_of(const struct ex_model *m, const struct ex_thread *t,
		const struct ex_interval *iv, struct ex_sync *s);

/* The lock key a system call of t acts on (any call, blocking or not:
 * the acquisitions of the lock view), into key; false when none. */
bool ex_sync_sys_key(const struct ex_model *m, const struct ex_thread *t,
		     const struct ex_syscall *sc, char *key, size_t size);

/* Is this futex call one that acquires (a wait, a PI lock)? */
bool ex_sync_futex_acquires(const struct ex_syscall *sc);

const char *ex_sync_kind_name(enum ex_sync_kind k);

#endif /* LT_EX_SYNC_H */
