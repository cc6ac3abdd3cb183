/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/app.h - the alert record of an application tracker (see
 * record.h; docs/design.md, "Application requests").
 *
 * The thread that ended the request (for a timeout, which has no end:
 * the thread that began it), its process, the request's cookie and the
 * thread's cgroup v2 id; then, when the request began and ended on the
 * same thread, the kernel's breakdown of its span (probes/common/thread_time.h):
 * on CPU, waiting for a CPU, blocked, and what it was blocked in the
 * longest (a system call's name, io_schedule, or "-" for nothing).  The
 * alert line leaves the breakdown out when there is none; the tracepoint
 * always carries its fields (0, and an empty blocked_top, when there is
 * none) and the tracker's name.
 */
#ifndef _LT_RECORDS_APP_H
#define _LT_RECORDS_APP_H

#include "record.h"

#define LT_APP_BASE(X)							\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(U64, cookie)							\
	X(U64, cgroup)

#define LT_APP_BREAKDOWN(X)						\
	X(U64, on_cpu_ns)						\
	X(U64, runnable_ns)						\
	X(U64, blocked_ns)						\
	X(NAME, blocked_top)

#define LT_APP_RECORD(X)	LT_APP_BASE(X) LT_APP_BREAKDOWN(X)

#define LT_APP_TRACE_ONLY(X)						\
	X(STR, tracker)

struct lt_app_record {
	LT_APP_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_APP_H */
