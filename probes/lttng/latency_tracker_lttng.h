/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_tracker_lttng.h - the latency_tracker events described for
 * LTTng, generated like the ftrace ones (tracker/lt_trace.h) from the
 * trackers' field tables (include/lt_records/, see record.h there): same
 * prototypes, same fields as the alert records (docs/design.md, "Alert
 * records").  LTTng event names carry the provider as a prefix
 * (lttng-modules requires it): the kernel tracepoint `wakeup` is recorded
 * as `latency_tracker_wakeup`, and so on.
 *
 * `cause` is written as text ("threshold" / "timeout"), like the alert
 * record, so babeltrace2 output needs no decoding.  A DEV field becomes
 * two integers, <name>_major and <name>_minor.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency_tracker

#ifndef LT_LTTNG_KINDS_H
#define LT_LTTNG_KINDS_H

#include <linux/kdev_t.h>
#include <lt_records/trackers.h>

/*
 * The LTTng field(s) of each kind: record fields from the record `rec`,
 * tracepoint-only (STR) ones from the argument of that name.
 */
#define LT_LTTNG_FIELD_PID(n, ...)	ctf_integer(pid_t, n, rec->n)
#define LT_LTTNG_FIELD_INT(n, ...)	ctf_integer(int, n, rec->n)
#define LT_LTTNG_FIELD_U32(n, ...)	ctf_integer(u32, n, rec->n)
#define LT_LTTNG_FIELD_U64(n, ...)	ctf_integer(u64, n, rec->n)
#define LT_LTTNG_FIELD_HEX(n, ...)	ctf_integer_hex(u64, n, rec->n)
/* The 16 bytes in network order (an IPv4 address v4-mapped). */
#define LT_LTTNG_FIELD_INET(n, ...)					\
	ctf_array_network(u8, n, rec->n, LT_REC_INET_LEN)
#define LT_LTTNG_FIELD_COMM(n, ...)	ctf_string(n, rec->n)
#define LT_LTTNG_FIELD_NAME(n, ...)	ctf_string(n, rec->n)
#define LT_LTTNG_FIELD_CHAR(n, ...)	ctf_array_text(char, n, &rec->n, 1)
#define LT_LTTNG_FIELD_DEV(n, ...)					\
	ctf_integer(unsigned int, n##_major, MAJOR(rec->n))		\
	ctf_integer(unsigned int, n##_minor, MINOR(rec->n))
#define LT_LTTNG_FIELD_ENUM(n, name_fn)	ctf_string(n, name_fn(rec->n))
#define LT_LTTNG_FIELD_STR(n, ...)	ctf_string(n, n)
/* The optional kinds: always a field in a trace (-1, "", "-" for none). */
#define LT_LTTNG_FIELD_OINT(n, ...)	LT_LTTNG_FIELD_INT(n)
#define LT_LTTNG_FIELD_ONAME(n, ...)	LT_LTTNG_FIELD_NAME(n)
#define LT_LTTNG_FIELD_OENUM(n, name_fn)	LT_LTTNG_FIELD_ENUM(n, name_fn)
/* A stack is given as text, by a STR field (lt_records/record.h). */
#define LT_LTTNG_FIELD_STACK(n, ...)
/* A user stack is named when its record is read, never in a trace. */
#define LT_LTTNG_FIELD_USTACK(n, ...)

#define LT_LTTNG_FIELD(kind, n, ...)	LT_LTTNG_FIELD_##kind(n, __VA_ARGS__)

/**
 * LT_LTTNG_EVENT() - the LTTng event of a tracker, from its tables
 * @event: the kernel tracepoint's name.
 * @type: the record's type.
 * @TABLE: the record's field table.
 * @EXTRA: the tracepoint-only fields' table.
 */
#define LT_LTTNG_EVENT(event, type, TABLE, EXTRA)			\
LTTNG_TRACEPOINT_EVENT_MAP(event, latency_tracker_##event,		\
	TP_PROTO(u8 cause, u64 delay_ns, const type *rec		\
		 EXTRA(LT_REC_PROTO)),					\
	TP_ARGS(cause, delay_ns, rec EXTRA(LT_REC_ARGNAME)),		\
	TP_FIELDS(							\
		ctf_string(cause, lt_cause_name(cause))			\
		ctf_integer(u64, delay, delay_ns)			\
		TABLE(LT_LTTNG_FIELD) EXTRA(LT_LTTNG_FIELD)		\
	)								\
)

#endif /* LT_LTTNG_KINDS_H */

#if !defined(LT_LTTNG_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define LT_LTTNG_EVENTS_H

#include <lttng/tracepoint-event.h>

/* One event per tracker of lt_records/trackers.h. */
#define LT_LTTNG_TRACKER_EVENT(module, event, record, TABLE)			\
	LT_LTTNG_EVENT(event, struct lt_##record##_record,		\
		       LT_##TABLE##_RECORD, LT_##TABLE##_TRACE_ONLY)
LT_TRACKERS(LT_LTTNG_TRACKER_EVENT)

#endif /* LT_LTTNG_EVENTS_H */

#include <lttng/define_trace.h>
