/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * custom_def.h - the definition of a custom or application tracker, as
 * written to /proc/latency_tracker/custom or /proc/latency_tracker/app:
 * its parser and its canonical form.
 *
 * One line defines or deletes a tracker (docs/design.md, "Custom
 * trackers" and "Application requests"):
 *
 *	NAME fn=FUNC [key=tid|tgid] [threshold=NS] [timeout=NS]
 *		[max_events=N] [stack=0|1]
 *	NAME in=PROBE out=PROBE (key=KEY | in_key=KEY out_key=KEY)
 *		[threshold=NS] [timeout=NS] [max_events=N] [stack=0|1]
 *	NAME app [threshold=NS] [timeout=NS] [max_events=N]
 *	del NAME
 *
 *	PROBE	kprobe:FUNC | kretprobe:FUNC | tp:SYSTEM:EVENT
 *	KEY	tid | tgid | argN | argN+OFF | ret
 *	NAME	[a-z][a-z0-9_]{0,31}
 *
 * The app kind (an application tracker, written to
 * /proc/latency_tracker/app and made by latency_tracker_app.ko; the
 * others go to /proc/latency_tracker/custom) comes right after NAME.
 * Fields are separated by blanks (spaces or tabs) and may come in any
 * order after NAME (and app); each at most once; one trailing newline is
 * allowed.
 * Times are decimal ns with the core's bounds (threshold 1 ns..1000 s,
 * timeout 0 or 1 ms..1000 s, as the procfs knobs, tracker/params.c),
 * max_events 1..2^22 (the module parameter's bounds but 0).  N is 1..6;
 * OFF is decimal or 0x hex, at most LT_CUSTOM_OFF_MAX.  argN and argN+OFF need a kprobe end, ret a
 * kretprobe end; fn= takes tid or tgid.  FUNC is a kernel symbol
 * ([A-Za-z_][A-Za-z0-9_.]*, as kallsyms spells GCC's .isra/.part/.cold
 * clones); SYSTEM and EVENT are trace event names ([A-Za-z0-9_]+), and
 * our own events (SYSTEM latency_tracker) cannot be an end.
 *
 * The canonical form (what a read of either file shows, one line per
 * tracker, and what writing it back would recreate) gives every
 * field, in the order of the grammar above, numbers in decimal without
 * leading zeros, and key= when both ends take the same key (in_key= and
 * out_key= otherwise).
 *
 * Pure logic, no kernel state: built into latency_tracker_custom.ko,
 * latency_tracker_app.ko and the host unit test
 * tests/unit/test_custom_def.c (through lt_env.h).
 * Any context; nothing is allocated.
 */
#ifndef _LT_CUSTOM_DEF_H
#define _LT_CUSTOM_DEF_H

#include "lt_env.h"

/* NAME: at most 32 characters (LATENCY_TRACKER_NAME_MAX). */
#define LT_CUSTOM_NAME_MAX	32
/* FUNC: at most this many characters (kallsyms' own limit is larger). */
#define LT_CUSTOM_FUNC_MAX	127
/* SYSTEM and EVENT of a tracepoint, each. */
#define LT_CUSTOM_TP_NAME_MAX	63
/* The largest OFF of argN+OFF. */
#define LT_CUSTOM_OFF_MAX	0x7fffffffULL
/* The longest definition line, its newline included. */
#define LT_CUSTOM_LINE_MAX	1024
/* Custom trackers that may exist at once. */
#define LT_CUSTOM_TRACKERS_MAX	64

/* Defaults of the optional fields. */
#define LT_CUSTOM_THRESHOLD_DEFAULT	1000000ULL	/* 1 ms */
#define LT_CUSTOM_MAX_EVENTS_DEFAULT	4096
/*
 * Those of an application tracker.  Requests end fast and their slots
 * come back one or two RCU grace periods later (the pool's sizing rule,
 * latency_tracker.h): room for a server's rate; the pool grows to it only
 * when used.
 */
#define LT_CUSTOM_APP_THRESHOLD_DEFAULT		10000000ULL	/* 10 ms */
#define LT_CUSTOM_APP_MAX_EVENTS_DEFAULT	65536

/* Bounds, the core's (tracker/params.c). */
#define LT_CUSTOM_THRESHOLD_MAX		1000000000000ULL	/* 1000 s */
#define LT_CUSTOM_TIMEOUT_MIN		1000000ULL		/* 1 ms */
#define LT_CUSTOM_TIMEOUT_MAX		1000000000000ULL
#define LT_CUSTOM_MAX_EVENTS_MAX	4194304U		/* 2^22 */

/** enum lt_custom_op - what a line asks for */
enum lt_custom_op {
	LT_CUSTOM_ADD,
	LT_CUSTOM_DEL,
};

/** enum lt_custom_probe_kind - the kinds of ends */
enum lt_custom_probe_kind {
	LT_CUSTOM_KPROBE,
	LT_CUSTOM_KRETPROBE,
	LT_CUSTOM_TP,
};

/**
 * enum lt_custom_key_kind - how an end finds the key
 * @LT_CUSTOM_KEY_TID: the current task's id.
 * @LT_CUSTOM_KEY_TGID: the current task's process id.
 * @LT_CUSTOM_KEY_ARG: the function's argument @arg (kprobe).
 * @LT_CUSTOM_KEY_ARG_MEM: the u64 at argument @arg plus @off (kprobe).
 * @LT_CUSTOM_KEY_RET: the function's return value (kretprobe).
 */
enum lt_custom_key_kind {
	LT_CUSTOM_KEY_TID,
	LT_CUSTOM_KEY_TGID,
	LT_CUSTOM_KEY_ARG,
	LT_CUSTOM_KEY_ARG_MEM,
	LT_CUSTOM_KEY_RET,
};

/**
 * struct lt_custom_key - a KEY
 * @kind: how it is found.
 * @arg: N of argN, 1..6.
 * @off: OFF of argN+OFF.
 */
struct lt_custom_key {
	enum lt_custom_key_kind kind;
	u32 arg;
	u64 off;
};

/**
 * struct lt_custom_end_def - a PROBE
 * @kind: kprobe, kretprobe or tracepoint.
 * @func: FUNC (kprobe, kretprobe).
 * @system: SYSTEM (tracepoint).
 * @event: EVENT (tracepoint).
 */
struct lt_custom_end_def {
	enum lt_custom_probe_kind kind;
	char func[LT_CUSTOM_FUNC_MAX + 1];
	char system[LT_CUSTOM_TP_NAME_MAX + 1];
	char event[LT_CUSTOM_TP_NAME_MAX + 1];
};

/**
 * struct lt_custom_def - a tracker's definition
 * @name: NAME.
 * @app: an application tracker: no ends, no keys, no stack (only
 *	@name, @threshold_ns, @timeout_ns and @max_events are set).
 * @fn: defined with fn=: @in is the kprobe and @out the kretprobe of
 *	that function, both keyed by @in_key (= @out_key, tid or tgid).
 * @in: the end that starts an event.
 * @out: the end that ends it.
 * @in_key: the key at @in.
 * @out_key: the key at @out.
 * @threshold_ns: threshold, ns.
 * @timeout_ns: timeout, ns (0: none).
 * @max_events: the most events pending at once (the pool's ceiling).
 * @stack: print the kernel stack at the out end (dmesg, tracepoint).
 */
struct lt_custom_def {
	char name[LT_CUSTOM_NAME_MAX + 1];
	bool app;
	bool fn;
	struct lt_custom_end_def in;
	struct lt_custom_end_def out;
	struct lt_custom_key in_key;
	struct lt_custom_key out_key;
	u64 threshold_ns;
	u64 timeout_ns;
	u32 max_events;
	bool stack;
};

/**
 * struct lt_custom_cmd - one parsed line
 * @op: define or delete.
 * @def: the definition; for a deletion, only its name.
 */
struct lt_custom_cmd {
	enum lt_custom_op op;
	struct lt_custom_def def;
};

/**
 * struct lt_custom_err - why a line was refused
 * @tok: the token at fault, inside the line; NULL when a field is missing.
 * @tok_len: its length.
 * @why: the reason, a constant string (for a missing field: which).
 */
struct lt_custom_err {
	const char *tok;
	size_t tok_len;
	const char *why;
};

int lt_custom_parse(const char *line, size_t len, struct lt_custom_cmd *cmd,
		    struct lt_custom_err *err);
size_t lt_custom_format(const struct lt_custom_def *def, char *buf,
			size_t size);
bool lt_custom_name_reserved(const char *name);
bool lt_custom_name_valid(const char *name);

#ifdef __KERNEL__
/* Says in the kernel log why a line was refused. */
static inline void lt_custom_refused(const struct lt_custom_err *err)
{
	if (err->tok)
		pr_err("refused: '%*pE': %s\n", (int)err->tok_len, err->tok,
		       err->why);
	else
		pr_err("refused: %s\n", err->why);
}
#endif

/* Whether a key is a task's id (shown as is in records). */
static inline bool lt_custom_key_is_task(const struct lt_custom_key *k)
{
	return k->kind == LT_CUSTOM_KEY_TID || k->kind == LT_CUSTOM_KEY_TGID;
}

#endif /* _LT_CUSTOM_DEF_H */
