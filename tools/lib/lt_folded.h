/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_folded.h - alert records with stacks, folded into the "folded stacks"
 * of flame graphs (latency-tracker flamegraph; docs/design.md, "Stacks in
 * records").
 *
 * Records are first kept (lt_samples_add(): the fields a flame graph uses,
 * copied), then folded (lt_fold()) once the source is read, so that the
 * default mode can depend on what the source holds.  A folded line is
 *
 *	comm;frame;frame;...;frame weight
 *
 * root first: the process's comm, the user frames (ustack=) root to leaf,
 * then the kernel frames (stack=) root to leaf -- the records have them
 * innermost first, so both are reversed, as bcc's offcputime -f prints
 * them.  The weight is the sum of the delays (ns) of the records with that
 * stack, so the weights add up to the delays of the records used.  A
 * record without frames (stack= empty or absent, no ustack=) has the one
 * frame "[no stack]"; a record without comm= is named "[<tracker>]".
 *
 * The offwake layout (offcpu records) adds the waker above the blocked
 * stack, as bcc's offwaketime -f does:
 *
 *	comm;blocked root..leaf;--;waker leaf..root;waker_comm weight
 *
 * ("[no stack]" for an empty waker_stack=, "[no waker]" for an empty
 * waker_comm=).  Frames never hold ';' or a control character: such a
 * byte is written \xHH (two lowercase hex digits); empty frames are left
 * out.  Lines are sorted frame by frame (a frame's lines are contiguous,
 * parents before children), bytewise inside a frame.
 */
#ifndef LT_FOLDED_H
#define LT_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lt_record.h"

/* One record's parts (NUL-terminated copies; NULL when absent). */
struct lt_sample {
	uint64_t ts;
	uint64_t delay;
	int64_t pid, tgid;	/* -1 when absent */
	char *tracker;
	char *comm;
	char *stack;
	char *waker_stack;
	char *waker_comm;
	char *ustack;
};

struct lt_samples {
	struct lt_sample *v;
	size_t n, cap;
	uint64_t lost_lines;	/* cause=lost records */
	uint64_t lost_records;	/* the sum of their count= */
	uint64_t malformed;	/* lines that did not parse (the reader's) */
};

/* Keep one record (a lost one is counted).  -1 when out of memory. */
int lt_samples_add(struct lt_samples *s, const struct lt_record *r);
void lt_samples_free(struct lt_samples *s);

enum lt_fold_mode {
	LT_FOLD_AUTO,		/* offcpu when the source has offcpu records,
				 * else syscalls, else the first tracker
				 * whose records carry stack= */
	LT_FOLD_OFFCPU,
	LT_FOLD_OFFWAKE,
	LT_FOLD_SYSCALLS,
};

struct lt_fold_opts {
	enum lt_fold_mode mode;
	const char *tracker;	/* records of this tracker (NULL: the mode's) */
	bool pid_set;		/* only records whose pid or tgid is pid */
	int64_t pid;
	bool since_set, until_set;	/* only since <= ts <= until */
	uint64_t since, until;
};

/* "offcpu", "offwake", "syscalls" -> mode; -1 for another name. */
int lt_fold_mode_parse(const char *s, enum lt_fold_mode *mode);
const char *lt_fold_mode_name(enum lt_fold_mode mode);

struct lt_folded_line {
	char *stack;		/* frames separated by ';' */
	uint64_t weight;	/* ns */
	uint64_t count;		/* records */
};

struct lt_folded {
	struct lt_folded_line *v;
	size_t n;
	enum lt_fold_mode mode;	/* the mode used (never AUTO) */
	const char *tracker;	/* the tracker used (points into opts or a
				 * sample, or a static name) */
	uint64_t total;		/* sum of the weights */
	size_t used;		/* records folded */
	size_t other;		/* records of other trackers */
	size_t filtered;	/* records of the tracker left out by
				 * --pid, --since, --until */
};

/*
 * Fold the samples that the options select.  Returns 0, or -1 when out of
 * memory.  *out is to be freed with lt_folded_free() either way.
 */
int lt_fold(const struct lt_samples *s, const struct lt_fold_opts *o,
	    struct lt_folded *out);
/* The folded lines: "stack weight\n" each. */
void lt_folded_write(FILE *out, const struct lt_folded *f);
void lt_folded_free(struct lt_folded *f);

#endif /* LT_FOLDED_H */
