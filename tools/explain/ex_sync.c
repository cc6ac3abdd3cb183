// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_sync.c - synchronisation of a blocked interval (ex_sync.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_sync.h"

/* Linux uapi values (x86-64, and the 32-bit fcntl64 ones). */
#define EX_FUTEX_CMD_MASK 0x7f		/* without PRIVATE, CLOCK_REALTIME */
#define EX_FUTEX_WAIT 0
#define EX_FUTEX_LOCK_PI 6
#define EX_FUTEX_WAIT_BITSET 9
#define EX_FUTEX_WAIT_REQUEUE_PI 11
#define EX_FUTEX_LOCK_PI2 13
#define EX_F_SETLK 6
#define EX_F_SETLKW 7
#define EX_F_SETLK64 13
#define EX_F_SETLKW64 14
#define EX_F_OFD_SETLK 37
#define EX_F_OFD_SETLKW 38
#define EX_LOCK_SH 1
#define EX_LOCK_EX 2
#define EX_LOCK_NB 4

static const char *const kind_names[] = {
	[SY_NONE] = "none", [SY_FUTEX] = "futex", [SY_FILE_LOCK] = "file lock",
	[SY_SEM] = "semaphore", [SY_JOIN] = "thread exit",
	[SY_MSGQ] = "message queue", [SY_CHILD] = "child exit",
	[SY_WAKER] = "woken by a thread", [SY_KLOCK] = "kernel lock",
};

/*
 * How far a blocked interval may lie outside a kernel lock wait as its
 * alert gives it: the wait's end is the end of a blocked interval, read
 * by the tracker an instant after the trace's wakeup; its start may
 * precede the thread's blocking (a mutex spins first).
 */
#define EX_KLOCK_SLACK 1000000		/* 1 ms */

/*
 * A latency_tracker_lock alert of t whose wait holds iv.  The alert's
 * event is emitted at the wait's end or after it (from the tracker's
 * report work): the wait ended with the last blocked interval of t that
 * ends before the event, and began delay before that.
 */
static const struct ex_alert *klock_alert(const struct ex_model *m,
					  const struct ex_thread *t,
					  const struct ex_interval *iv)
{
	for (size_t i = 0; i < m->nalerts; i++) {
		const struct ex_alert *a = &m->alerts[i];
		uint64_t end = 0, lo;

		if (a->tid != t->tid || strcmp(a->tracker, "lock"))
			continue;
		for (size_t j = 0; j < t->niv; j++)
			if (t->iv[j].state == ST_BLOCKED &&
			    t->iv[j].end <= a->ts + EX_KLOCK_SLACK &&
			    t->iv[j].end > end)
				end = t->iv[j].end;
		lo = end > a->delay + EX_KLOCK_SLACK ?
		     end - a->delay - EX_KLOCK_SLACK : 0;
		if (end && iv->start >= lo && iv->end <= end + EX_KLOCK_SLACK)
			return a;
	}
	return NULL;
}

static bool klock_of(const struct ex_model *m, const struct ex_thread *t,
		     const struct ex_interval *iv, const char *waker,
		     struct ex_sync *s)
{
	const struct ex_alert *a = klock_alert(m, t, iv);
	char owner[96];

	if (!a)
		return false;
	s->kind = SY_KLOCK;
	s->lock = true;
	snprintf(s->key, sizeof(s->key), "kernel lock %s", a->lock);
	snprintf(s->label, sizeof(s->label), "kernel lock %s (%s)", a->lock,
		 a->lock_kind);
	if (a->owner_tid >= 0)
		snprintf(owner, sizeof(owner), "held by %s [%d] when the wait began",
			 a->owner_comm, a->owner_tid);
	else
		snprintf(owner, sizeof(owner), "%s", "no owner recorded");
	snprintf(s->evidence, sizeof(s->evidence),
		 "%s %s, %s; released by %s", a->lock_kind, a->lock, owner,
		 waker);
	return true;
}

const char *ex_sync_kind_name(enum ex_sync_kind k)
{
	return kind_names[k];
}

static bool in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

static const char *const wait_any_calls[] = {
	"epoll_wait", "epoll_pwait", "epoll_pwait2", "poll", "ppoll", "select",
	"pselect6", NULL,
};
static const char *const read_calls[] = {
	"read", "readv", "recvfrom", "recvmsg", "recvmmsg", NULL,
};

static int pid_of(const struct ex_thread *t)
{
	return t->pid > 0 ? t->pid : t->tid;
}

static const char *fcntl_cmd_name(int64_t cmd)
{
	switch (cmd) {
	case EX_F_SETLKW:
		return "F_SETLKW";
	case EX_F_SETLKW64:
		return "F_SETLKW64";
	case EX_F_OFD_SETLKW:
		return "F_OFD_SETLKW";
	case EX_F_SETLK:
		return "F_SETLK";
	case EX_F_SETLK64:
		return "F_SETLK64";
	case EX_F_OFD_SETLK:
		return "F_OFD_SETLK";
	default:
		return NULL;
	}
}

/* The file of fd: its name at ts, or "fd N of process P". */
static void file_of(const struct ex_model *m, const struct ex_thread *t,
		    int64_t fd, uint64_t ts, char *buf, size_t size)
{
	const char *name = ex_model_fdname(m, pid_of(t), fd, ts);

	if (name[0])
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "fd %" PRId64 " of process %d", fd, pid_of(t));
}

bool ex_sync_futex_acquires(const struct ex_syscall *sc)
{
	int64_t op = sc->op & EX_FUTEX_CMD_MASK;

	if (strcmp(sc->name, "futex") || sc->op < 0)
		return !strcmp(sc->name, "futex_waitv");
	return op == EX_FUTEX_WAIT || op == EX_FUTEX_WAIT_BITSET ||
	       op == EX_FUTEX_LOCK_PI || op == EX_FUTEX_LOCK_PI2 ||
	       op == EX_FUTEX_WAIT_REQUEUE_PI;
}

static bool flock_locks(int64_t cmd)
{
	return cmd >= 0 && (cmd & (EX_LOCK_SH | EX_LOCK_EX));
}

bool ex_sync_sys_key(const struct ex_model *m, const struct ex_thread *t,
		     const struct ex_syscall *sc, char *key, size_t size)
{
	if ((!strcmp(sc->name, "futex") || !strcmp(sc->name, "futex_waitv")) &&
	    sc->uaddr >= 0) {
		snprintf(key, size, "%s %d:0x%" PRIx64, sc->name, pid_of(t),
			 (uint64_t)sc->uaddr);
		return true;
	}
	if ((!strcmp(sc->name, "fcntl") && fcntl_cmd_name(sc->cmd)) ||
	    (!strcmp(sc->name, "flock") && flock_locks(sc->cmd))) {
		char file[EX_PATH_LEN + 32];

		file_of(m, t, sc->fd, sc->start, file, sizeof(file));
		snprintf(key, size, "%s %s", sc->name, file);
		return true;
	}
	if ((!strcmp(sc->name, "semop") || !strcmp(sc->name, "semtimedop")) &&
	    sc->id >= 0) {
		snprintf(key, size, "semaphore %" PRId64, sc->id);
		return true;
	}
	return false;
}

/* "comm [tid] in syscall" of the waker, or what woke it. */
static void waker_of(const struct ex_model *m, const struct ex_interval *iv,
		     char *buf, size_t size)
{
	const struct ex_thread *w = ex_model_thread(m, iv->waker_tid);

	if (w && iv->waker_sys >= 0 && (size_t)iv->waker_sys < w->nsys)
		snprintf(buf, size, "%s [%d] in %s", ex_model_comm(m, iv->waker_tid),
			 iv->waker_tid, w->sys[iv->waker_sys].name);
	else
		snprintf(buf, size, "%s [%d]", ex_model_comm(m, iv->waker_tid),
			 iv->waker_tid);
}

static const char *waker_call(const struct ex_model *m,
			      const struct ex_interval *iv)
{
	const struct ex_thread *w = ex_model_thread(m, iv->waker_tid);

	if (!w || iv->waker_sys < 0 || (size_t)iv->waker_sys >= w->nsys)
		return "";
	return w->sys[iv->waker_sys].name;
}

/* A pipe, a socket, an eventfd: a thread at the other end writes. */
static bool channel_file(const char *name)
{
	return !strncmp(name, "pipe", 4) || !strncmp(name, "socket", 6) ||
	       !strcmp(name, "anon_inode:[eventfd]") || !strncmp(name, "UNIX", 4);
}

static bool file_lock(const struct ex_model *m, const struct ex_thread *t,
		      const struct ex_syscall *sc, const struct ex_interval *iv,
		      const char *waker, struct ex_sync *s)
{
	char file[EX_PATH_LEN + 32], cmd[32];
	const char *cname;

	if (!strcmp(sc->name, "fcntl")) {
		if (sc->cmd != EX_F_SETLKW && sc->cmd != EX_F_SETLKW64 &&
		    sc->cmd != EX_F_OFD_SETLKW)
			return false;
		cname = fcntl_cmd_name(sc->cmd);
	} else if (!strcmp(sc->name, "flock")) {
		if (!flock_locks(sc->cmd) || (sc->cmd & EX_LOCK_NB))
			return false;
		cname = sc->cmd & EX_LOCK_EX ? "LOCK_EX" : "LOCK_SH";
	} else {
		return false;
	}
	snprintf(cmd, sizeof(cmd), "%s", cname);
	file_of(m, t, sc->fd, iv->start, file, sizeof(file));
	s->kind = SY_FILE_LOCK;
	s->lock = true;
	snprintf(s->key, sizeof(s->key), "%s %s", sc->name, file);
	snprintf(s->label, sizeof(s->label), "file lock %s (%s)", file, sc->name);
	snprintf(s->evidence, sizeof(s->evidence),
		 "%s(fd %" PRId64 ", %s = %" PRId64 ") on %s; released by %s",
		 sc->name, sc->fd, cmd, sc->cmd, file, waker);
	return true;
}

bool ex_sync_of(const struct ex_model *m, const struct ex_thread *t,
		const struct ex_interval *iv, struct ex_sync *s)
{
	const struct ex_syscall *sc = iv->sys >= 0 ? &t->sys[iv->sys] : NULL;
	bool by_thread = ex_blocked_wake(m, t, iv) == WK_THREAD;
	char waker[96];

	memset(s, 0, sizeof(*s));
	s->uaddr = -1;
	if (by_thread)
		waker_of(m, iv, waker, sizeof(waker));
	else
		snprintf(waker, sizeof(waker), "%s", "nothing in the trace");
	if (klock_of(m, t, iv, waker, s))
		return true;
	if (!sc)
		return false;
	if (!strcmp(sc->name, "futex") || !strcmp(sc->name, "futex_waitv")) {
		if (by_thread && (!strcmp(waker_call(m, iv), "exit") ||
				  !strcmp(waker_call(m, iv), "exit_group"))) {
			s->kind = SY_JOIN;
			snprintf(s->label, sizeof(s->label), "exit of %s [%d]",
				 ex_model_comm(m, iv->waker_tid), iv->waker_tid);
			snprintf(s->evidence, sizeof(s->evidence),
				 "%s on 0x%" PRIx64 " woken by %s (the kernel's clear_child_tid wake: a thread join)",
				 sc->name, (uint64_t)sc->uaddr, waker);
			return true;
		}
		s->kind = SY_FUTEX;
		s->lock = true;
		s->uaddr = sc->uaddr;
		ex_sync_sys_key(m, t, sc, s->key, sizeof(s->key));
		snprintf(s->label, sizeof(s->label), "%s 0x%" PRIx64, sc->name,
			 (uint64_t)sc->uaddr);
		snprintf(s->evidence, sizeof(s->evidence),
			 "%s(0x%" PRIx64 ", op %" PRId64 "); released by %s",
			 sc->name, (uint64_t)sc->uaddr, sc->op, waker);
		return true;
	}
	if (file_lock(m, t, sc, iv, waker, s))
		return true;
	if ((!strcmp(sc->name, "semop") || !strcmp(sc->name, "semtimedop"))) {
		s->kind = SY_SEM;
		s->lock = true;
		snprintf(s->key, sizeof(s->key), "semaphore %" PRId64, sc->id);
		snprintf(s->label, sizeof(s->label), "semaphore %" PRId64, sc->id);
		snprintf(s->evidence, sizeof(s->evidence),
			 "%s(semid %" PRId64 "); released by %s", sc->name,
			 sc->id, waker);
		return true;
	}
	if (!strcmp(sc->name, "msgrcv")) {
		s->kind = SY_MSGQ;
		snprintf(s->label, sizeof(s->label), "message queue %" PRId64,
			 sc->id);
		snprintf(s->evidence, sizeof(s->evidence),
			 "msgrcv(msqid %" PRId64 "); sent by %s", sc->id, waker);
		return true;
	}
	if (!by_thread)
		return false;
	if (!strcmp(sc->name, "wait4") || !strcmp(sc->name, "waitid")) {
		s->kind = SY_CHILD;
		snprintf(s->label, sizeof(s->label), "exit of child %s [%d]",
			 ex_model_comm(m, iv->waker_tid), iv->waker_tid);
		snprintf(s->evidence, sizeof(s->evidence),
			 "%s(upid %" PRId64 ") woken by %s", sc->name, sc->id,
			 waker);
		return true;
	}
	if (in_list(sc->name, wait_any_calls) ||
	    (in_list(sc->name, read_calls) && sc->fd >= 0 &&
	     channel_file(ex_model_fdname(m, pid_of(t), sc->fd, iv->start)))) {
		char file[EX_PATH_LEN + 32];

		s->kind = SY_WAKER;
		if (sc->fd >= 0)
			file_of(m, t, sc->fd, iv->start, file, sizeof(file));
		else
			snprintf(file, sizeof(file), "its fds");
		snprintf(s->label, sizeof(s->label), "%s on %s, woken by %s [%d]",
			 sc->name, file, ex_model_comm(m, iv->waker_tid),
			 iv->waker_tid);
		snprintf(s->evidence, sizeof(s->evidence),
			 "%s(fd %" PRId64 ") on %s woken by %s (the writer)",
			 sc->name, sc->fd, file, waker);
		return true;
	}
	return false;
}
