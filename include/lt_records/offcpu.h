/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/offcpu.h - the offcpu tracker's alert record (see record.h):
 * the blocked task, the CPU it got back (-1 for a timeout: still
 * blocked), the state it blocked in (D, S, ...), its first waker (pid 0
 * and an empty comm when nothing woke it yet), its cgroup v2 id (when
 * it blocked), its kernel stack where it blocked (taken at its switch-in;
 * for a timeout, at the timeout if it still sleeps then, else empty) and
 * the waker's kernel stack at the waking (taken only when the task had
 * been off CPU for the threshold by then, else empty: a wakeup that does
 * not end in an alert costs no stack), and, with the module parameter
 * ustack=1, its user stack (walked at its switch-out, named when the
 * record is read: no field without).  The tracepoint carries the kernel
 * stacks as text.
 */
#ifndef _LT_RECORDS_OFFCPU_H
#define _LT_RECORDS_OFFCPU_H

#include "record.h"

#define LT_OFFCPU_RECORD(X)						\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(INT, cpu)							\
	X(CHAR, state)							\
	X(PID, waker_pid)						\
	X(COMM, waker_comm)						\
	X(U64, cgroup)							\
	X(STACK, stack)							\
	X(STACK, waker_stack)						\
	X(USTACK, ustack)

#define LT_OFFCPU_TRACE_ONLY(X)						\
	X(STR, stack)							\
	X(STR, waker_stack)

struct lt_offcpu_record {
	LT_OFFCPU_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_OFFCPU_H */
