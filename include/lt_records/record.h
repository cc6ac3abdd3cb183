/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/record.h - an alert record defined once, as a field table.
 *
 * Each tracker describes the tracker-specific part of its alert record in
 * one table, lt_records/<tracker>.h: an X-macro that lists the fields in
 * the order of the alert line, one line per field, "X(kind, name)" (an
 * enumerated field also names its name function):
 *
 *	#define LT_WAKEUP_RECORD(X)		\
 *		X(PID, pid)			\
 *		X(COMM, comm)			\
 *		...
 *
 * Every form of the record is generated from that table:
 *
 *	binary payload	struct lt_<tracker>_record, one member per field,
 *			appended with latency_tracker_alert()	(LT_REC_MEMBER)
 *	alert text	" name=value" per field, the record format of
 *			docs/design.md				(LT_RECORD_FMT)
 *	tracepoint	cause, delay, the record (by pointer), then the
 *			tracepoint-only fields (the tracker's *_TRACE_ONLY
 *			table, e.g. the stack; LT_REC_PROTO, LT_REC_ARGNAME);
 *			ftrace fields and printk: tracker/lt_trace.h;
 *			LTTng fields: probes/lttng/latency_tracker_lttng.h
 *
 * So adding a field is one line in the table (and, in the tracker, the
 * line that sets its value): the holder_* fields of the wakeup record and
 * the cgroup field of every record are defined that way.
 * A payload must fit in LT_ALERT_PAYLOAD_MAX bytes (1024): LT_RECORD_FMT()
 * fails the build otherwise; a tracker whose payload is over 128 bytes
 * says so in its latency_tracker_params (alert_payload).  offcpu, with
 * two stacks, is the largest.
 *
 * Field kinds:
 *
 *	kind	payload		text
 *	PID	pid_t		signed decimal
 *	INT	s32		signed decimal
 *	U32	u32		decimal
 *	U64	u64		decimal
 *	COMM	char[16]	escaped, up to the NUL
 *	NAME	char[32]	escaped, up to the NUL (a kernel name)
 *	CHAR	char		one escaped character
 *	DEV	u32 (dev_t)	<major>:<minor>
 *	ENUM	u32 index	its name (escaped)
 *	HEX	u64		0x<lowercase hex digits>
 *	INET	u8[16]		an IP address: an IPv6 address in the
 *				RFC 5952 text form (lowercase, the longest
 *				run of two or more zero groups as ::); an
 *				IPv4 address is stored v4-mapped
 *				(::ffff:a.b.c.d) and written a.b.c.d
 *	STACK	struct lt_rec_stack	frames separated by ';', innermost
 *				first (latency_tracker_fmt_stack()); no
 *				field at all when nr is LT_REC_STACK_NONE
 *	USTACK	struct lt_rec_ustack	user frames, <build_id>+0x<off> or
 *				[unknown], separated by ';', innermost
 *				first (latency_tracker_fmt_ustack()); no
 *				field when nr is LT_REC_STACK_NONE
 *	OINT	s32		signed decimal; no field when negative
 *	ONAME	char[32]	as NAME; no field when empty
 *	OENUM	u32 index	as ENUM; no field for LT_REC_NONE
 *	STR	-		-	(tracepoint argument: const char *)
 *
 * ENUM takes a third argument, the name function made by
 * LT_REC_ENUM_NAME_FN() from a table of (value, "name") pairs whose last
 * entry also stands for every value out of range.  STR is for the
 * tracepoint-only fields; it has no payload nor text form, so a record
 * table that uses it does not build.  STACK has no tracepoint field (the
 * addresses are kernel pointers): a tracepoint gives a stack as text,
 * through a STR field of its *_TRACE_ONLY table.  USTACK has none either:
 * its text needs the task's mappings and the files' build ids, which only
 * the read of the record (process context) may look up.  A new kind needs its macros here
 * (LT_REC_MEMBER_, _FMT_), in tracker/lt_trace.h (LT_TP_*)
 * and in probes/lttng/latency_tracker_lttng.h (LT_LTTNG_*); a missing one
 * fails the build.
 *
 * The cause names (threshold, timeout) are defined here too, once, for
 * the alert line, ftrace and LTTng: LT_CAUSES.
 *
 * Host builds (tests/unit) include this after lt_env.h and provide
 * TASK_COMM_LEN, MAJOR() and MINOR() with the kernel's values.
 */
#ifndef _LT_RECORDS_RECORD_H
#define _LT_RECORDS_RECORD_H

#ifdef __KERNEL__
#include <linux/kdev_t.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>
#endif

#include <latency_tracker.h>
/* LT_ALERT_PAYLOAD_MAX */
#include <alert_ring.h>

/* Bytes of a NAME field, its NUL included. */
#define LT_REC_NAME_LEN		32

/* An OENUM field's value when the record has no such field. */
#define LT_REC_NONE		U32_MAX

/* Bytes of an INET field: an IPv6 address, or an IPv4 one v4-mapped. */
#define LT_REC_INET_LEN		16

/* Return addresses kept of a stack, and the nr of a stack not taken. */
#define LT_REC_STACK_DEPTH	16
#define LT_REC_STACK_NONE	U32_MAX

/**
 * struct lt_rec_stack - a kernel stack in a record (kind STACK)
 * @nr: addresses in @ip; LT_REC_STACK_NONE: the record has no such field
 *	(e.g. a custom tracker without stack=1).
 * @modgen: latency_tracker_module_gen() read before the stack was saved:
 *	its frames in module text are named only if no module came, went
 *	live or went since (latency_tracker_frame_name()).
 * @ip: return addresses, innermost first, as stack_trace_save() gives
 *	them; the frames of the scheduler and of the tracing machinery on
 *	top are dropped when the record is read (latency_tracker_fmt_stack()).
 */
struct lt_rec_stack {
	u32 nr;
	u32 modgen;
	unsigned long ip[LT_REC_STACK_DEPTH];
};

/* A user frame the walk could not follow (lt_rec_ustack.ip). */
#define LT_REC_USTACK_BROKEN	0

/**
 * struct lt_rec_ustack - a user-space stack in a record (kind USTACK)
 * @nr: addresses in @ip; LT_REC_STACK_NONE: no such field.
 * @pid: the task whose address space @ip are in.
 * @start_ns: a time the task existed at (its event's start): a later task
 *	given its pid started after it and is never taken for it.
 * @exec_id: the task's self_exec_id at the walk: after an exec the
 *	addresses are another program's.
 * @ip: user addresses, innermost first (the instruction pointer, then the
 *	return addresses of a frame-pointer walk); LT_REC_USTACK_BROKEN where
 *	the walk met a frame it could not follow (code without frame
 *	pointers): shown as [unknown].
 */
struct lt_rec_ustack {
	u32 nr;
	pid_t pid;
	u64 start_ns;
	u64 exec_id;
	u64 ip[LT_REC_STACK_DEPTH];
};

/*
 * An enumeration's names: TABLE(X) lists X(value, "name"), in value order
 * from 0.  The function returns the name of @v, the last one when @v is
 * out of range.
 */
#define LT_REC_ENUM_ID(id, str)		id,
#define LT_REC_ENUM_STR(id, str)	[id] = str,
#define LT_REC_ENUM_NAME_FN(fn, TABLE)					\
static inline const char *fn(u32 v)					\
{									\
	static const char *const names[] = { TABLE(LT_REC_ENUM_STR) };	\
									\
	return names[min_t(u32, v, ARRAY_SIZE(names) - 1)];		\
}

/* Why an alert exists: the names of enum latency_tracker_cause. */
#define LT_CAUSES(X)							\
	X(LATENCY_TRACKER_CAUSE_THRESHOLD, "threshold")			\
	X(LATENCY_TRACKER_CAUSE_TIMEOUT, "timeout")

LT_REC_ENUM_NAME_FN(lt_cause_name, LT_CAUSES)

/*
 * The softirq vectors, as the kernel names them (its softirq_to_name[],
 * not exported; the same ten on every supported kernel), and "-" for
 * none (any other value).
 */
#define LT_SOFTIRQS(X)							\
	X(0, "HI")							\
	X(1, "TIMER")							\
	X(2, "NET_TX")							\
	X(3, "NET_RX")							\
	X(4, "BLOCK")							\
	X(5, "IRQ_POLL")						\
	X(6, "TASKLET")							\
	X(7, "SCHED")							\
	X(8, "HRTIMER")							\
	X(9, "RCU")							\
	X(10, "-")

LT_REC_ENUM_NAME_FN(lt_softirq_name, LT_SOFTIRQS)

/* Text of the kinds that need more than one helper call. */
static inline void lt_rec_fmt_char(struct lt_fmt *f, const char *key, char c)
{
	char s[2] = { c, '\0' };

	latency_tracker_fmt_str(f, key, s, sizeof(s));
}

static inline void lt_rec_fmt_dev(struct lt_fmt *f, const char *key, u32 dev)
{
	char s[24];

	snprintf(s, sizeof(s), "%u:%u", MAJOR(dev), MINOR(dev));
	latency_tracker_fmt_str(f, key, s, sizeof(s));
}

static inline void lt_rec_fmt_hex(struct lt_fmt *f, const char *key, u64 v)
{
	char s[24];

	snprintf(s, sizeof(s), "0x%llx", (unsigned long long)v);
	latency_tracker_fmt_str(f, key, s, sizeof(s));
}

/* Whether an INET field holds an IPv4 address (::ffff:a.b.c.d). */
static inline bool lt_rec_inet_is_v4(const u8 *a)
{
	static const u8 v4mapped[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	return !memcmp(a, v4mapped, sizeof(v4mapped));
}

/*
 * An INET field's text (record.h's table): a.b.c.d, or the RFC 5952 form
 * of an IPv6 address, the same in the kernel and in host builds (the
 * kernel's %pI6c is not in userspace's printf).
 */
static inline void lt_rec_fmt_inet(struct lt_fmt *f, const char *key,
				   const u8 *a)
{
	int i, run, zero = -1, zero_len = 1, n = 0;
	/* 8 groups of 4 hex digits and 7 colons, or "::" and fewer. */
	char s[40];

	if (lt_rec_inet_is_v4(a)) {
		snprintf(s, sizeof(s), "%u.%u.%u.%u", a[12], a[13], a[14],
			 a[15]);
		latency_tracker_fmt_str(f, key, s, sizeof(s));
		return;
	}
	/* The longest run of two or more zero groups, the first of equals. */
	for (i = 0; i < 8; i += run ? run : 1) {
		for (run = 0; i + run < 8 && !a[2 * (i + run)] &&
		     !a[2 * (i + run) + 1]; run++)
			;
		if (run > zero_len) {
			zero = i;
			zero_len = run;
		}
	}
	for (i = 0; i < 8; i++) {
		if (i == zero) {
			n += snprintf(s + n, sizeof(s) - n, "::");
			i += zero_len - 1;
			continue;
		}
		n += snprintf(s + n, sizeof(s) - n, "%s%x",
			      i && i != zero + zero_len ? ":" : "",
			      (a[2 * i] << 8) | a[2 * i + 1]);
	}
	latency_tracker_fmt_str(f, key, s, sizeof(s));
}

/* Payload member of a field. */
#define LT_REC_MEMBER_PID(n, ...)	pid_t n
#define LT_REC_MEMBER_INT(n, ...)	s32 n
#define LT_REC_MEMBER_U32(n, ...)	u32 n
#define LT_REC_MEMBER_U64(n, ...)	u64 n
#define LT_REC_MEMBER_COMM(n, ...)	char n[TASK_COMM_LEN]
#define LT_REC_MEMBER_NAME(n, ...)	char n[LT_REC_NAME_LEN]
#define LT_REC_MEMBER_CHAR(n, ...)	char n
#define LT_REC_MEMBER_DEV(n, ...)	u32 n
#define LT_REC_MEMBER_ENUM(n, ...)	u32 n
#define LT_REC_MEMBER_HEX(n, ...)	u64 n
#define LT_REC_MEMBER_INET(n, ...)	u8 n[LT_REC_INET_LEN]
#define LT_REC_MEMBER_OINT(n, ...)	s32 n
#define LT_REC_MEMBER_ONAME(n, ...)	char n[LT_REC_NAME_LEN]
#define LT_REC_MEMBER_OENUM(n, ...)	u32 n
#define LT_REC_MEMBER_STACK(n, ...)	struct lt_rec_stack n
#define LT_REC_MEMBER_USTACK(n, ...)	struct lt_rec_ustack n

/* Type of a tracepoint-only field's argument. */
#define LT_REC_PTYPE_STR		const char *

/* The field's text, from the payload `rec` into the line `f`. */
#define LT_REC_FMT_PID(n, ...)	latency_tracker_fmt_s64(f, #n, rec->n)
#define LT_REC_FMT_INT(n, ...)	latency_tracker_fmt_s64(f, #n, rec->n)
#define LT_REC_FMT_U32(n, ...)	latency_tracker_fmt_u64(f, #n, rec->n)
#define LT_REC_FMT_U64(n, ...)	latency_tracker_fmt_u64(f, #n, rec->n)
#define LT_REC_FMT_COMM(n, ...)						\
	latency_tracker_fmt_str(f, #n, rec->n, TASK_COMM_LEN)
#define LT_REC_FMT_NAME(n, ...)						\
	latency_tracker_fmt_str(f, #n, rec->n, LT_REC_NAME_LEN)
#define LT_REC_FMT_CHAR(n, ...)	lt_rec_fmt_char(f, #n, rec->n)
#define LT_REC_FMT_DEV(n, ...)	lt_rec_fmt_dev(f, #n, rec->n)
#define LT_REC_FMT_ENUM(n, name_fn)					\
	latency_tracker_fmt_str(f, #n, name_fn(rec->n), SIZE_MAX)
#define LT_REC_FMT_HEX(n, ...)	lt_rec_fmt_hex(f, #n, rec->n)
#define LT_REC_FMT_INET(n, ...)	lt_rec_fmt_inet(f, #n, rec->n)
#define LT_REC_FMT_OINT(n, ...)						\
	do {								\
		if (rec->n >= 0)					\
			latency_tracker_fmt_s64(f, #n, rec->n);		\
	} while (0)
#define LT_REC_FMT_ONAME(n, ...)					\
	do {								\
		if (rec->n[0])						\
			LT_REC_FMT_NAME(n);				\
	} while (0)
#define LT_REC_FMT_OENUM(n, name_fn)					\
	do {								\
		if (rec->n != LT_REC_NONE)				\
			LT_REC_FMT_ENUM(n, name_fn);			\
	} while (0)
#define LT_REC_FMT_STACK(n, ...)	latency_tracker_fmt_stack(f, #n, &rec->n)
#define LT_REC_FMT_USTACK(n, ...)	latency_tracker_fmt_ustack(f, #n, &rec->n)

/* Table walkers: pass one of these as the X of a table. */
#define LT_REC_MEMBER(kind, n, ...)	LT_REC_MEMBER_##kind(n, __VA_ARGS__);
#define LT_REC_PROTO(kind, n, ...)	, LT_REC_PTYPE_##kind n
#define LT_REC_ARGNAME(kind, n, ...)	, n
#define LT_REC_FMT(kind, n, ...)	LT_REC_FMT_##kind(n, __VA_ARGS__);

/**
 * LT_RECORD_FMT() - define a tracker's alert_fmt callback from its table
 * @fn: name of the function (a latency_tracker_fmt_t).
 * @type: the payload type, e.g. struct lt_wakeup_record.
 * @TABLE: the field table, e.g. LT_WAKEUP_RECORD.
 *
 * The function appends " name=value" for each field, in table order; a
 * payload of another length gets no field.  Fails the build if @type is
 * larger than an alert record's payload.
 */
#define LT_RECORD_FMT(fn, type, TABLE)					\
void fn(struct lt_fmt *f, const void *payload, size_t len)		\
{									\
	const type *rec = payload;					\
									\
	BUILD_BUG_ON(sizeof(*rec) > LT_ALERT_PAYLOAD_MAX);		\
	if (len != sizeof(*rec))					\
		return;							\
	TABLE(LT_REC_FMT)						\
}

#endif /* _LT_RECORDS_RECORD_H */
