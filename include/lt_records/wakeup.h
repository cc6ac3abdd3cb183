/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/wakeup.h - the wakeup tracker's alert record (see record.h):
 * the woken task, its priority and the CPU it got (-1 for a timeout), the
 * waker (current at sched_waking), prev, the task that ran on that CPU
 * just before it (pid 0 and an empty comm for a timeout), the holder, the
 * task current on the woken task's CPU (task_cpu()) when it became
 * runnable (sched_wakeup; the idle task, pid 0, when that CPU was idle),
 * the breakdown of its wait (probes/common/cpu_time.h): from its waking
 * (or its queueing on another CPU than it last ran on), the time in hard
 * interrupts, softirqs, other threads and idle on the CPU it got, the time
 * queued on other CPUs before a migration, and the largest contributor of
 * each kind there (top_irq: the handler's or vector's name, top_thread:
 * comm:pid, "-" for none), and the woken task's cgroup v2 id.
 */
#ifndef _LT_RECORDS_WAKEUP_H
#define _LT_RECORDS_WAKEUP_H

#include "record.h"

#define LT_WAKEUP_RECORD(X)						\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(INT, prio)							\
	X(INT, cpu)							\
	X(PID, waker_pid)						\
	X(COMM, waker_comm)						\
	X(PID, prev_pid)						\
	X(COMM, prev_comm)						\
	X(PID, holder_pid)						\
	X(COMM, holder_comm)						\
	X(INT, holder_prio)						\
	X(U64, irq_ns)							\
	X(U64, softirq_ns)						\
	X(U64, thread_ns)						\
	X(U64, idle_ns)							\
	X(U64, other_cpu_ns)						\
	X(NAME, top_irq)						\
	X(ENUM, top_softirq, lt_softirq_name)				\
	X(NAME, top_thread)						\
	X(U32, migrated)						\
	X(U64, cgroup)

/* Fields of the wakeup tracepoint that are not in the record. */
#define LT_WAKEUP_TRACE_ONLY(X)	/* none */

struct lt_wakeup_record {
	LT_WAKEUP_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_WAKEUP_H */
