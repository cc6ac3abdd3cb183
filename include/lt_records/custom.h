/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/custom.h - the alert record of a custom tracker (see
 * record.h), defined at run time through /proc/latency_tracker/custom.
 *
 * The task at the out end (for a timeout, which has no out end: the task
 * at the in end, and cpu -1), the CPU of the out end, the event's key and
 * the task's cgroup v2 id.  The key is the value itself for a tid or tgid
 * key; any other key (an argument, a field, a return value: maybe a
 * kernel address) is shown as a keyed hash, stable for the tracker's life
 * (latency_tracker_custom's header comment).  With stack=1, the kernel
 * stack of the out end (for a timeout of a tid or tgid key: of the in
 * end's task if it is blocked then, else empty); no stack field without.
 * The tracepoint also carries the tracker's name and the stack as text.
 */
#ifndef _LT_RECORDS_CUSTOM_H
#define _LT_RECORDS_CUSTOM_H

#include "record.h"

#define LT_CUSTOM_RECORD(X)						\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(INT, cpu)							\
	X(HEX, key)							\
	X(U64, cgroup)							\
	X(STACK, stack)

#define LT_CUSTOM_TRACE_ONLY(X)						\
	X(STR, tracker)							\
	X(STR, stack)

struct lt_custom_record {
	LT_CUSTOM_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_CUSTOM_H */
