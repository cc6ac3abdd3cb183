/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_event.h - one kernel trace event, decoded into the few fields the
 * explain analysis uses.  The trace reader (ex_trace.c, libbabeltrace2)
 * produces them; the unit tests build them by hand.  Absent values are -1
 * (integers) or "" (strings).
 */
#ifndef LT_EX_EVENT_H
#define LT_EX_EVENT_H

#include <limits.h>
#include <stdint.h>

enum ex_ev_type {
	EV_OTHER,
	EV_SWITCH,		/* tid=prev, next_tid, state=prev_state */
	EV_WAKING,		/* tid woken, target_cpu (sched_waking/wakeup) */
	EV_WAKEUP_NEW,		/* tid, a new thread becomes runnable */
	EV_FORK,		/* parent_tid, tid=child, pid=child tgid */
	EV_EXIT,		/* tid: sched_process_exit */
	EV_SYS_ENTRY,		/* name, fd/fd2/uaddr/op/cmd/id/filename */
	EV_SYS_EXIT,		/* name, ret; pipe/pipe2/socketpair: fds */
	EV_IRQ_ENTRY,		/* name = handler name or irq number */
	EV_IRQ_EXIT,
	EV_SOFTIRQ_ENTRY,	/* name = vector */
	EV_SOFTIRQ_EXIT,
	EV_TIMER_ENTRY,		/* hrtimer / timer expiry */
	EV_TIMER_EXIT,
	EV_BLK_INSERT,		/* dev, sector, tid (submitter) */
	EV_BLK_ISSUE,
	EV_BLK_COMPLETE,	/* dev, sector */
	EV_SD_PROCESS,		/* statedump: tid, pid, comm, ftable */
	EV_SD_FD,		/* statedump: pid or ftable, fd, filename */
	EV_ALERT,		/* latency_tracker:*: name=tracker, tid, delay;
				 * offcpu, syscall, lock: stack; lock: the
				 * lock, its kind and owner */
	EV_PAGE_FAULT,
};

struct ex_bd_rec;

#define EX_COMM_LEN 24
#define EX_NAME_LEN 48
#define EX_PATH_LEN 256
/* No priority in the trace. */
#define EX_PRIO_NONE INT_MIN

struct ex_ev {
	enum ex_ev_type type;
	uint64_t ts;		/* CLOCK_MONOTONIC ns */
	int cpu;
	int ctx_tid;		/* "tid" context of the event, or -1 */
	int ctx_pid;		/* "pid" context, or -1 */
	int tid;
	int next_tid;
	/* sched_switch's next_prio as LTTng records it, prio - 100 (an RT
	 * priority P is -1 - P, a normal task 0..39); EX_PRIO_NONE without. */
	int next_prio;
	/* Its prev_prio, the same way: the priority of the task leaving. */
	int prev_prio;
	int pid;
	int parent_tid;
	int target_cpu;
	long state;
	char comm[EX_COMM_LEN];
	char next_comm[EX_COMM_LEN];
	char name[EX_NAME_LEN];
	char filename[EX_PATH_LEN];
	int64_t fd;		/* fd, fildes, oldfd, epfd */
	int64_t fd2;		/* newfd (dup2, dup3) */
	int64_t uaddr;		/* futex uaddr, futex_waitv waiters */
	int64_t op;		/* futex op */
	int64_t cmd;		/* fcntl, flock cmd */
	int64_t id;		/* semid, msqid, wait4/waitid upid */
	int64_t ret;
	int64_t fds[2];		/* pipe, pipe2, socketpair: the new fds */
	const char *stack;	/* alerts: the stack text (valid during the
				 * feed call only), or NULL */
	const struct ex_bd_rec *bd;	/* wakeup alerts: the breakdown (valid
					 * during the feed call only), or NULL */
	uint64_t dev;
	uint64_t sector;
	uint64_t delay;
	uint64_t ftable;
	/* lock alerts: the lock, its kind, its owner (-1: none). */
	char lock[EX_NAME_LEN];
	char lock_kind[EX_COMM_LEN];
	int owner_tid;
	char owner_comm[EX_COMM_LEN];
};

/* An event with every field absent. */
void ex_ev_init(struct ex_ev *ev, enum ex_ev_type type, uint64_t ts, int cpu);

#endif /* LT_EX_EVENT_H */
