/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_custom.h - custom trackers (docs/design.md, "Custom trackers"): the
 * one parser of their definitions, used by `latency-tracker add`, by
 * latency-trackerd's `custom.NAME` keys and to read back the kernel's
 * listing; the canonical line written to /proc/latency_tracker/custom;
 * what two definitions being "the same" means; the kernel's errors in
 * words.
 *
 * The grammar (the interface contract's):
 *
 *   NAME fn=FUNC [key=tid|tgid] [threshold=T] [timeout=T] [max_events=N] [stack=0|1]
 *   NAME in=PROBE out=PROBE (key=KEY | in_key=KEY out_key=KEY)
 *        [threshold=T] [timeout=T] [max_events=N] [stack=0|1]
 *   NAME app [threshold=T] [timeout=T] [max_events=N]
 *   PROBE := kprobe:FUNC | kretprobe:FUNC | tp:SYSTEM:EVENT
 *   KEY   := tid | tgid | argN | argN+OFF | ret
 *   NAME  := [a-z][a-z0-9_]{0,31}, not a reserved name
 *
 * argN (N = 1..6) and argN+OFF (OFF in bytes, decimal or 0x hex) only at a
 * kprobe end, ret only at a kretprobe end, tracepoint ends tid or tgid;
 * key= is the key of both ends, so it must suit both.  Fields are
 * separated by blanks, in any order, each at most once.  T is a duration
 * with a unit (5ms, 200us, 1.5ms, 5µs; a bare number is ns, so the
 * kernel's own lines parse): threshold 1ns..1000s, timeout 0 (or off) or
 * 1ms..1000s (the bounds of the knobs of the same name); N 1..2^22.
 * stack takes 0/1, on/off, yes/no.  A tracepoint of the trackers' own
 * system (latency_tracker) cannot be an end.  `app`, the first field, makes
 * an application tracker (the contract's "Application requests"): it is
 * defined in /proc/latency_tracker/app (module latency_tracker_app), not in
 * the custom file, and takes no end nor key.
 *
 * The canonical line (lt_custom_format(), LT_CUSTOM_FMT_KERNEL) is what
 * the tools write: the fields given, in the grammar's order, times in ns,
 * OFF in decimal, key= when both ends have the same key.  The module
 * (probes/custom_def.h) lists its trackers in the same form with every
 * field given.
 */
#ifndef LT_CUSTOM_H
#define LT_CUSTOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* /proc/latency_tracker/custom: write a definition or `del NAME`; read
 * the live definitions, one per line. */
#define LT_CUSTOM_FILE		"custom"
/* /proc/latency_tracker/app: the same for application trackers. */
#define LT_CUSTOM_APP_FILE	"app"
#define LT_CUSTOM_MAX		64	/* custom trackers the module takes */
#define LT_CUSTOM_NAME_MAX	32	/* NAME's characters */
#define LT_CUSTOM_FUNC_MAX	127	/* FUNC's characters */
#define LT_CUSTOM_TP_MAX	63	/* SYSTEM's, EVENT's characters */
#define LT_CUSTOM_ARGS		6	/* argN: N = 1..LT_CUSTOM_ARGS */
#define LT_CUSTOM_OFF_MAX	2147483647ULL
#define LT_CUSTOM_MAX_EVENTS_MAX (1ULL << 22)
/*
 * The defaults of the optional fields, for lt_custom_same(): the
 * contract's max_events, and the module's threshold (probes/custom_def.h,
 * LT_CUSTOM_THRESHOLD_DEFAULT; the contract states none).
 */
#define LT_CUSTOM_DEF_MAX_EVENTS 4096
#define LT_CUSTOM_DEF_THRESHOLD	1000000ULL	/* 1 ms */
/* An application tracker's (probes/app.c, LT_APP_THRESHOLD_DEFAULT). */
#define LT_CUSTOM_DEF_APP_THRESHOLD 10000000ULL	/* 10 ms */
#define LT_CUSTOM_DEF_APP_MAX_EVENTS 65536
/* A canonical line's longest, its newline and NUL included. */
#define LT_CUSTOM_LINE_MAX	512

enum lt_custom_probe_kind {
	LT_CUSTOM_KPROBE = 1,
	LT_CUSTOM_KRETPROBE,
	LT_CUSTOM_TP,
};

struct lt_custom_probe {
	enum lt_custom_probe_kind kind;
	/* FUNC, or SYSTEM:EVENT for a tracepoint */
	char target[LT_CUSTOM_FUNC_MAX + 1];
};

enum lt_custom_key_kind {
	LT_CUSTOM_KEY_NONE,	/* not given */
	LT_CUSTOM_KEY_TID,
	LT_CUSTOM_KEY_TGID,
	LT_CUSTOM_KEY_ARG,	/* argN */
	LT_CUSTOM_KEY_ARG_OFF,	/* argN+OFF */
	LT_CUSTOM_KEY_RET,
};

struct lt_custom_key {
	enum lt_custom_key_kind kind;
	unsigned int arg;	/* N */
	uint64_t off;		/* OFF */
};

struct lt_custom_def {
	char name[LT_CUSTOM_NAME_MAX + 1];
	bool app;			/* an application tracker */
	bool fn;			/* fn=: in.target is FUNC */
	struct lt_custom_probe in, out;	/* out: unset with fn= */
	bool one_key;			/* key= (in_key holds it) */
	struct lt_custom_key in_key, out_key;
	bool has_threshold, has_timeout, has_max_events, has_stack;
	uint64_t threshold_ns, timeout_ns, max_events;
	bool stack;
};

/*
 * NAME's syntax and not reserved: 0, or -1 with a reason in why.
 * lt_custom_reserved(): one of the names the contract reserves (the
 * built-in trackers', the future ones', del, custom, version).
 */
int lt_custom_name_check(const char *name, char *why, size_t whylen);
bool lt_custom_reserved(const char *name);
/*
 * One of the built-in trackers with filters (wakeup, offcpu, syscalls,
 * block, ttfb, netrx).
 */
bool lt_builtin_tracker(const char *name);

/*
 * The definition @text (without the name) of tracker @name into *d: 0, or
 * -1 with one line in why naming the field at fault (*d then undefined).
 */
int lt_custom_parse(const char *name, const char *text,
		    struct lt_custom_def *d, char *why, size_t whylen);
/* A whole line, "NAME definition" (a trailing newline allowed). */
int lt_custom_parse_line(const char *line, struct lt_custom_def *d,
			 char *why, size_t whylen);

enum lt_custom_fmt {
	LT_CUSTOM_FMT_KERNEL,	/* "NAME fn=... threshold=10000000" */
	LT_CUSTOM_FMT_HUMAN,	/* "fn=... threshold=10ms": no name, units */
};

/* *d as text into buf (no newline); returns buf, "" if it does not fit. */
char *lt_custom_format(const struct lt_custom_def *d, enum lt_custom_fmt how,
		       char *buf, size_t size);

/*
 * Whether the live tracker @have (the kernel's listing) is what @want
 * declares: the same ends and keys (fn=FUNC being in=kprobe:FUNC
 * out=kretprobe:FUNC keyed by tid), and the same threshold, timeout,
 * max_events and stack, a field absent on one side taken at its default
 * (threshold 1 ms, timeout 0, max_events 4096, stack 0).  The kernel
 * lists every field.
 */
bool lt_custom_same(const struct lt_custom_def *want,
		    const struct lt_custom_def *have);

/* The definition's field names, i from 0 (NULL past the last): for the
 * man pages' tests. */
const char *lt_custom_field_name(size_t i);

/* ---- /proc/latency_tracker/custom ---- */

/* A live custom tracker as the kernel lists it. */
struct lt_custom_listed {
	char name[LT_CUSTOM_NAME_MAX + 1];
	char text[LT_CUSTOM_LINE_MAX];	/* its definition, as listed */
	bool parsed;			/* def holds it (else: a field these
					 * tools do not know) */
	struct lt_custom_def def;
};

/*
 * The live custom trackers, then the application trackers, into a
 * malloc'ed array (*out; free() it): their number, or -errno: -ENOENT when
 * there is neither a custom file nor an app file (neither
 * latency_tracker_custom nor latency_tracker_app is loaded).
 */
int lt_custom_list(struct lt_custom_listed **out);
/* The entry of @name in a listing, or NULL. */
const struct lt_custom_listed *lt_custom_find(const struct lt_custom_listed *v,
					      int n, const char *name);

/*
 * Write a definition (*d, canonical form) or `del NAME` into the custom
 * file (the app file for an application tracker; `del` tries the custom
 * file, then the app file), in one write: 0 or -errno.  -ENOENT from the
 * open (no such file) is returned as -ENODEV, so that it is not read as
 * the kernel's -ENOENT for an unknown function.
 */
int lt_custom_add(const struct lt_custom_def *d);
int lt_custom_del(const char *name);
/* The file that defines *d: LT_CUSTOM_FILE or LT_CUSTOM_APP_FILE. */
const char *lt_custom_file(const struct lt_custom_def *d);

/*
 * The kernel's refusal in words (the contract's errors): for an add,
 * -ENOENT an unknown function or tracepoint, -EINVAL a function kprobes
 * refuse or a field the module does not take, -EEXIST a name in use or
 * reserved, -ENOSPC the 64 trackers, -EACCES or -EPERM not root; for a
 * del (@del), -ENOENT no such custom tracker.
 * -ENODEV: the module is not loaded.
 */
const char *lt_custom_strerror(int err, bool del);

#endif /* LT_CUSTOM_H */
