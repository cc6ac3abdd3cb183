/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/syscalls.h - the syscalls tracker's alert record (see
 * record.h): the thread, its system call number, where the call's time
 * went (on CPU, runnable, blocked: probes/common/thread_time.h; all 0 for
 * a timeout, and when the breakdown table was full), its cgroup v2 id (at
 * the call's start) and its kernel stack where the call blocked (taken at
 * its first switch-out once the call was over the threshold, or for a
 * timeout at the timeout if it blocks then; empty when the call never
 * blocked that long).  The tracepoint (named syscall) carries the stack
 * as text.
 */
#ifndef _LT_RECORDS_SYSCALLS_H
#define _LT_RECORDS_SYSCALLS_H

#include "record.h"

#define LT_SYSCALLS_RECORD(X)						\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(INT, nr)							\
	X(U64, on_cpu_ns)						\
	X(U64, runnable_ns)						\
	X(U64, blocked_ns)						\
	X(U64, cgroup)							\
	X(STACK, stack)

#define LT_SYSCALLS_TRACE_ONLY(X)					\
	X(STR, stack)

struct lt_syscalls_record {
	LT_SYSCALLS_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_SYSCALLS_H */
