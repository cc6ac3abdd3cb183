/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_trace.h - the latency_tracker tracepoints, one per tracker of
 * lt_records/trackers.h, with
 * the fields of the tracker's alert record (see the interface contract in
 * docs/design.md).  Emitted by the tracker modules from their callbacks;
 * defined (CREATE_TRACE_POINTS) and exported by tracker/events.c.
 *
 * Each event is generated from its tracker's field table
 * (include/lt_records/<tracker>.h, see record.h there): its arguments are
 * the cause, the delay, the alert record (the payload struct) and the
 * tracepoint-only fields (the stack); its fields are the cause, the delay,
 * the record's fields and the tracepoint-only ones.  This file says how
 * each kind of field becomes an ftrace field (LT_TP_*).
 *
 * Arguments are plain data, not task pointers, so that a tracker can emit
 * an event from data it saved earlier (e.g. a timeout on another CPU).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency_tracker

#ifndef _LT_TRACE_KINDS_H
#define _LT_TRACE_KINDS_H

#include <lt_records/trackers.h>

/*
 * The ftrace field of each kind: entry, assignment, printk format, value.
 * Record fields come from the record `rec`, tracepoint-only (STR) ones
 * from the argument of that name.
 */
#define LT_TP_ENTRY_PID(n, ...)		__field(pid_t, n)
#define LT_TP_ENTRY_INT(n, ...)		__field(int, n)
#define LT_TP_ENTRY_U32(n, ...)		__field(u32, n)
#define LT_TP_ENTRY_U64(n, ...)		__field(u64, n)
#define LT_TP_ENTRY_HEX(n, ...)		__field(u64, n)
#define LT_TP_ENTRY_INET(n, ...)	__array(u8, n, LT_REC_INET_LEN)
#define LT_TP_ENTRY_COMM(n, ...)	__array(char, n, TASK_COMM_LEN)
#define LT_TP_ENTRY_NAME(n, ...)	__array(char, n, LT_REC_NAME_LEN)
#define LT_TP_ENTRY_CHAR(n, ...)	__field(char, n)
#define LT_TP_ENTRY_DEV(n, ...)		__field(dev_t, n)
#define LT_TP_ENTRY_ENUM(n, name_fn)	__string(n, name_fn(rec->n))
#define LT_TP_ENTRY_STR(n, ...)		__string(n, n)
/* A stack is given as text, by a STR field (lt_records/record.h). */
#define LT_TP_ENTRY_OINT(n, ...)	LT_TP_ENTRY_INT(n)
#define LT_TP_ENTRY_ONAME(n, ...)	LT_TP_ENTRY_NAME(n)
#define LT_TP_ENTRY_OENUM(n, name_fn)	LT_TP_ENTRY_ENUM(n, name_fn)
#define LT_TP_ENTRY_STACK(n, ...)
#define LT_TP_ENTRY_USTACK(n, ...)

#define LT_TP_ASSIGN_PID(n, ...)	__entry->n = rec->n
#define LT_TP_ASSIGN_INT(n, ...)	__entry->n = rec->n
#define LT_TP_ASSIGN_U32(n, ...)	__entry->n = rec->n
#define LT_TP_ASSIGN_U64(n, ...)	__entry->n = rec->n
#define LT_TP_ASSIGN_HEX(n, ...)	__entry->n = rec->n
#define LT_TP_ASSIGN_INET(n, ...)	memcpy(__entry->n, rec->n, LT_REC_INET_LEN)
#define LT_TP_ASSIGN_COMM(n, ...)	strscpy(__entry->n, rec->n, TASK_COMM_LEN)
#define LT_TP_ASSIGN_NAME(n, ...)	strscpy(__entry->n, rec->n, LT_REC_NAME_LEN)
#define LT_TP_ASSIGN_CHAR(n, ...)	__entry->n = rec->n
#define LT_TP_ASSIGN_DEV(n, ...)	__entry->n = rec->n
#define LT_TP_ASSIGN_ENUM(n, name_fn)	lt_assign_str(n, name_fn(rec->n))
#define LT_TP_ASSIGN_STR(n, ...)	lt_assign_str(n, n)
#define LT_TP_ASSIGN_OINT(n, ...)	LT_TP_ASSIGN_INT(n)
#define LT_TP_ASSIGN_ONAME(n, ...)	LT_TP_ASSIGN_NAME(n)
#define LT_TP_ASSIGN_OENUM(n, name_fn)	LT_TP_ASSIGN_ENUM(n, name_fn)
#define LT_TP_ASSIGN_STACK(n, ...)
#define LT_TP_ASSIGN_USTACK(n, ...)

#define LT_TP_FMT_PID(n)	" " #n "=%d"
#define LT_TP_FMT_INT(n)	" " #n "=%d"
#define LT_TP_FMT_U32(n)	" " #n "=%u"
#define LT_TP_FMT_U64(n)	" " #n "=%llu"
#define LT_TP_FMT_HEX(n)	" " #n "=0x%llx"
/* %pI6c: an IPv4 address is shown v4-mapped (::ffff:a.b.c.d) here. */
#define LT_TP_FMT_INET(n)	" " #n "=%pI6c"
#define LT_TP_FMT_COMM(n)	" " #n "=%s"
#define LT_TP_FMT_NAME(n)	" " #n "=%s"
#define LT_TP_FMT_CHAR(n)	" " #n "=%c"
#define LT_TP_FMT_DEV(n)	" " #n "=%u:%u"
#define LT_TP_FMT_STR(n)	" " #n "=%s"
#define LT_TP_FMT_ENUM(n)	LT_TP_FMT_STR(n)
#define LT_TP_FMT_OINT(n)	LT_TP_FMT_INT(n)
#define LT_TP_FMT_ONAME(n)	LT_TP_FMT_NAME(n)
#define LT_TP_FMT_OENUM(n)	LT_TP_FMT_ENUM(n)
#define LT_TP_FMT_STACK(n)
#define LT_TP_FMT_USTACK(n)

#define LT_TP_PRINT_PID(n)	, __entry->n
#define LT_TP_PRINT_INT(n)	, __entry->n
#define LT_TP_PRINT_U32(n)	, __entry->n
#define LT_TP_PRINT_U64(n)	, __entry->n
#define LT_TP_PRINT_HEX(n)	, __entry->n
#define LT_TP_PRINT_INET(n)	, __entry->n
#define LT_TP_PRINT_COMM(n)	, __entry->n
#define LT_TP_PRINT_NAME(n)	, __entry->n
#define LT_TP_PRINT_CHAR(n)	, __entry->n
#define LT_TP_PRINT_DEV(n)	, MAJOR(__entry->n), MINOR(__entry->n)
#define LT_TP_PRINT_STR(n)	, __get_str(n)
#define LT_TP_PRINT_ENUM(n)	LT_TP_PRINT_STR(n)
#define LT_TP_PRINT_OINT(n)	LT_TP_PRINT_INT(n)
#define LT_TP_PRINT_ONAME(n)	LT_TP_PRINT_NAME(n)
#define LT_TP_PRINT_OENUM(n)	LT_TP_PRINT_ENUM(n)
#define LT_TP_PRINT_STACK(n)
#define LT_TP_PRINT_USTACK(n)

/* Table walkers. */
#define LT_TP_ENTRY(kind, n, ...)	LT_TP_ENTRY_##kind(n, __VA_ARGS__)
#define LT_TP_ASSIGN(kind, n, ...)	LT_TP_ASSIGN_##kind(n, __VA_ARGS__);
#define LT_TP_FMT(kind, n, ...)		LT_TP_FMT_##kind(n)
#define LT_TP_PRINT(kind, n, ...)	LT_TP_PRINT_##kind(n)

/* The cause as text; TRACE_DEFINE_ENUM() below lets userspace decode it. */
#define LT_TP_CAUSE_SYMBOL(id, str)	, { id, str }
#define LT_TP_CALL(fn, ...)		fn(__VA_ARGS__)
#define LT_TP_PRINT_CAUSE(c)						\
	LT_TP_CALL(__print_symbolic, c LT_CAUSES(LT_TP_CAUSE_SYMBOL))
#define LT_TP_DEFINE_ENUM(id, str)	TRACE_DEFINE_ENUM(id);

/**
 * LT_TRACE_EVENT() - the tracepoint of a tracker, from its tables
 * @event: the event name.
 * @type: the record's type.
 * @TABLE: the record's field table.
 * @EXTRA: the tracepoint-only fields' table.
 */
#define LT_TRACE_EVENT(event, type, TABLE, EXTRA)			\
TRACE_EVENT(event,							\
	TP_PROTO(u8 cause, u64 delay_ns, const type *rec		\
		 EXTRA(LT_REC_PROTO)),					\
	TP_ARGS(cause, delay_ns, rec EXTRA(LT_REC_ARGNAME)),		\
	TP_STRUCT__entry(						\
		__field(u8, cause)					\
		__field(u64, delay)					\
		TABLE(LT_TP_ENTRY) EXTRA(LT_TP_ENTRY)			\
	),								\
	TP_fast_assign(							\
		__entry->cause = cause;					\
		__entry->delay = delay_ns;				\
		TABLE(LT_TP_ASSIGN) EXTRA(LT_TP_ASSIGN)			\
	),								\
	TP_printk("cause=%s delay=%llu"					\
		  TABLE(LT_TP_FMT) EXTRA(LT_TP_FMT),			\
		  LT_TP_PRINT_CAUSE(__entry->cause), __entry->delay	\
		  TABLE(LT_TP_PRINT) EXTRA(LT_TP_PRINT))		\
)

#endif /* _LT_TRACE_KINDS_H */

#if !defined(_LT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LT_TRACE_H

#include <linux/kdev_t.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include <latency_tracker_compat.h>

LT_CAUSES(LT_TP_DEFINE_ENUM)

/* One event per tracker of lt_records/trackers.h. */
#define LT_TRACKER_EVENT(module, event, record, TABLE)				\
	LT_TRACE_EVENT(event, struct lt_##record##_record,		\
		       LT_##TABLE##_RECORD, LT_##TABLE##_TRACE_ONLY)
LT_TRACKERS(LT_TRACKER_EVENT)

#endif /* _LT_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lt_trace
#include <trace/define_trace.h>
