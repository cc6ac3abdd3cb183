/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_tracker_lttng.h - the latency_tracker events described for
 * LTTng: same prototypes as tracker/lt_trace.h, same fields as the alert
 * records (docs/design.md, "Alert records").  LTTng event names carry the
 * provider as a prefix (lttng-modules requires it): the kernel tracepoint
 * `wakeup` is recorded as `latency_tracker_wakeup`, and so on.
 *
 * `cause` is written as text ("threshold" / "timeout"), like the alert
 * record, so babeltrace2 output needs no decoding.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency_tracker

#if !defined(LT_LTTNG_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define LT_LTTNG_EVENTS_H

#include <lttng/tracepoint-event.h>
#include <linux/kdev_t.h>

#ifndef LT_LTTNG_CAUSE
#define LT_LTTNG_CAUSE(c)	((c) ? "timeout" : "threshold")
#endif

LTTNG_TRACEPOINT_EVENT_MAP(wakeup, latency_tracker_wakeup,
	TP_PROTO(u8 cause, u64 delay_ns, pid_t pid, pid_t tgid,
		 const char *comm, int prio, int cpu, pid_t waker_pid,
		 const char *waker_comm, pid_t prev_pid,
		 const char *prev_comm),
	TP_ARGS(cause, delay_ns, pid, tgid, comm, prio, cpu, waker_pid,
		waker_comm, prev_pid, prev_comm),
	TP_FIELDS(
		ctf_string(cause, LT_LTTNG_CAUSE(cause))
		ctf_integer(u64, delay, delay_ns)
		ctf_integer(pid_t, pid, pid)
		ctf_integer(pid_t, tgid, tgid)
		ctf_string(comm, comm)
		ctf_integer(int, prio, prio)
		ctf_integer(int, cpu, cpu)
		ctf_integer(pid_t, waker_pid, waker_pid)
		ctf_string(waker_comm, waker_comm)
		ctf_integer(pid_t, prev_pid, prev_pid)
		ctf_string(prev_comm, prev_comm)
	)
)

LTTNG_TRACEPOINT_EVENT_MAP(offcpu, latency_tracker_offcpu,
	TP_PROTO(u8 cause, u64 delay_ns, pid_t pid, pid_t tgid,
		 const char *comm, int cpu, char state, pid_t waker_pid,
		 const char *waker_comm, const char *stack),
	TP_ARGS(cause, delay_ns, pid, tgid, comm, cpu, state, waker_pid,
		waker_comm, stack),
	TP_FIELDS(
		ctf_string(cause, LT_LTTNG_CAUSE(cause))
		ctf_integer(u64, delay, delay_ns)
		ctf_integer(pid_t, pid, pid)
		ctf_integer(pid_t, tgid, tgid)
		ctf_string(comm, comm)
		ctf_integer(int, cpu, cpu)
		ctf_array_text(char, state, &state, 1)
		ctf_integer(pid_t, waker_pid, waker_pid)
		ctf_string(waker_comm, waker_comm)
		ctf_string(stack, stack)
	)
)

LTTNG_TRACEPOINT_EVENT_MAP(syscall, latency_tracker_syscall,
	TP_PROTO(u8 cause, u64 delay_ns, pid_t pid, pid_t tgid,
		 const char *comm, long nr, const char *stack),
	TP_ARGS(cause, delay_ns, pid, tgid, comm, nr, stack),
	TP_FIELDS(
		ctf_string(cause, LT_LTTNG_CAUSE(cause))
		ctf_integer(u64, delay, delay_ns)
		ctf_integer(pid_t, pid, pid)
		ctf_integer(pid_t, tgid, tgid)
		ctf_string(comm, comm)
		ctf_integer(long, nr, nr)
		ctf_string(stack, stack)
	)
)

LTTNG_TRACEPOINT_EVENT_MAP(block, latency_tracker_block,
	TP_PROTO(u8 cause, u64 delay_ns, dev_t dev, u64 sector,
		 unsigned int nr_sectors, const char *op),
	TP_ARGS(cause, delay_ns, dev, sector, nr_sectors, op),
	TP_FIELDS(
		ctf_string(cause, LT_LTTNG_CAUSE(cause))
		ctf_integer(u64, delay, delay_ns)
		ctf_integer(unsigned int, dev_major, MAJOR(dev))
		ctf_integer(unsigned int, dev_minor, MINOR(dev))
		ctf_integer(u64, sector, sector)
		ctf_integer(unsigned int, nr_sectors, nr_sectors)
		ctf_string(op, op)
	)
)

#endif /* LT_LTTNG_EVENTS_H */

#include <lttng/define_trace.h>
