/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_trace.h - the latency_tracker tracepoints, one per tracker, with
 * the fields of the tracker's alert record (see the interface contract in
 * docs/design.md).  Emitted by the tracker modules from their callbacks;
 * defined (CREATE_TRACE_POINTS) and exported by tracker/events.c.
 *
 * Arguments are plain values, not task pointers, so that a tracker can emit
 * an event from data it saved earlier (e.g. a timeout on another CPU).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency_tracker

#if !defined(_LT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LT_TRACE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

#include <latency_tracker_compat.h>

#define LT_TRACE_CAUSE(c)	((c) ? "timeout" : "threshold")

TRACE_EVENT(wakeup,
	TP_PROTO(u8 cause, u64 delay_ns, pid_t pid, pid_t tgid,
		 const char *comm, int prio, int cpu, pid_t waker_pid,
		 const char *waker_comm, pid_t prev_pid,
		 const char *prev_comm),
	TP_ARGS(cause, delay_ns, pid, tgid, comm, prio, cpu, waker_pid,
		waker_comm, prev_pid, prev_comm),
	TP_STRUCT__entry(
		__field(u8, cause)
		__field(u64, delay)
		__field(pid_t, pid)
		__field(pid_t, tgid)
		__array(char, comm, TASK_COMM_LEN)
		__field(int, prio)
		__field(int, cpu)
		__field(pid_t, waker_pid)
		__array(char, waker_comm, TASK_COMM_LEN)
		__field(pid_t, prev_pid)
		__array(char, prev_comm, TASK_COMM_LEN)
	),
	TP_fast_assign(
		__entry->cause = cause;
		__entry->delay = delay_ns;
		__entry->pid = pid;
		__entry->tgid = tgid;
		strscpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->prio = prio;
		__entry->cpu = cpu;
		__entry->waker_pid = waker_pid;
		strscpy(__entry->waker_comm, waker_comm, TASK_COMM_LEN);
		__entry->prev_pid = prev_pid;
		strscpy(__entry->prev_comm, prev_comm, TASK_COMM_LEN);
	),
	TP_printk("cause=%s delay=%llu pid=%d tgid=%d comm=%s prio=%d cpu=%d waker_pid=%d waker_comm=%s prev_pid=%d prev_comm=%s",
		  LT_TRACE_CAUSE(__entry->cause), __entry->delay, __entry->pid,
		  __entry->tgid, __entry->comm, __entry->prio, __entry->cpu,
		  __entry->waker_pid, __entry->waker_comm, __entry->prev_pid,
		  __entry->prev_comm)
);

TRACE_EVENT(offcpu,
	TP_PROTO(u8 cause, u64 delay_ns, pid_t pid, pid_t tgid,
		 const char *comm, int cpu, char state, pid_t waker_pid,
		 const char *waker_comm, const char *stack),
	TP_ARGS(cause, delay_ns, pid, tgid, comm, cpu, state, waker_pid,
		waker_comm, stack),
	TP_STRUCT__entry(
		__field(u8, cause)
		__field(u64, delay)
		__field(pid_t, pid)
		__field(pid_t, tgid)
		__array(char, comm, TASK_COMM_LEN)
		__field(int, cpu)
		__field(char, state)
		__field(pid_t, waker_pid)
		__array(char, waker_comm, TASK_COMM_LEN)
		__string(stack, stack)
	),
	TP_fast_assign(
		__entry->cause = cause;
		__entry->delay = delay_ns;
		__entry->pid = pid;
		__entry->tgid = tgid;
		strscpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->cpu = cpu;
		__entry->state = state;
		__entry->waker_pid = waker_pid;
		strscpy(__entry->waker_comm, waker_comm, TASK_COMM_LEN);
		lt_assign_str(stack, stack);
	),
	TP_printk("cause=%s delay=%llu pid=%d tgid=%d comm=%s cpu=%d state=%c waker_pid=%d waker_comm=%s stack=%s",
		  LT_TRACE_CAUSE(__entry->cause), __entry->delay, __entry->pid,
		  __entry->tgid, __entry->comm, __entry->cpu, __entry->state,
		  __entry->waker_pid, __entry->waker_comm, __get_str(stack))
);

TRACE_EVENT(syscall,
	TP_PROTO(u8 cause, u64 delay_ns, pid_t pid, pid_t tgid,
		 const char *comm, long nr, const char *stack),
	TP_ARGS(cause, delay_ns, pid, tgid, comm, nr, stack),
	TP_STRUCT__entry(
		__field(u8, cause)
		__field(u64, delay)
		__field(pid_t, pid)
		__field(pid_t, tgid)
		__array(char, comm, TASK_COMM_LEN)
		__field(long, nr)
		__string(stack, stack)
	),
	TP_fast_assign(
		__entry->cause = cause;
		__entry->delay = delay_ns;
		__entry->pid = pid;
		__entry->tgid = tgid;
		strscpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->nr = nr;
		lt_assign_str(stack, stack);
	),
	TP_printk("cause=%s delay=%llu pid=%d tgid=%d comm=%s nr=%ld stack=%s",
		  LT_TRACE_CAUSE(__entry->cause), __entry->delay, __entry->pid,
		  __entry->tgid, __entry->comm, __entry->nr, __get_str(stack))
);

TRACE_EVENT(block,
	TP_PROTO(u8 cause, u64 delay_ns, dev_t dev, u64 sector,
		 unsigned int nr_sectors, const char *op),
	TP_ARGS(cause, delay_ns, dev, sector, nr_sectors, op),
	TP_STRUCT__entry(
		__field(u8, cause)
		__field(u64, delay)
		__field(dev_t, dev)
		__field(u64, sector)
		__field(unsigned int, nr_sectors)
		__string(op, op)
	),
	TP_fast_assign(
		__entry->cause = cause;
		__entry->delay = delay_ns;
		__entry->dev = dev;
		__entry->sector = sector;
		__entry->nr_sectors = nr_sectors;
		lt_assign_str(op, op);
	),
	TP_printk("cause=%s delay=%llu dev=%u:%u sector=%llu nr_sectors=%u op=%s",
		  LT_TRACE_CAUSE(__entry->cause), __entry->delay,
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->sector,
		  __entry->nr_sectors, __get_str(op))
);

#endif /* _LT_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lt_trace
#include <trace/define_trace.h>
