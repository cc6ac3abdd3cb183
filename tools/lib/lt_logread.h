/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_logread.h - reading alert records back from text: latency-trackerd's
 * JSON log (latency-trackerd(8), LOG: one object per line), or alert
 * lines as /proc/latency_tracker/<tracker>/alerts gives them (saved with
 * cat), or both mixed.  JSON is parsed with json-c.
 *
 * A JSON line of "type" "alert" or "lost" is turned into the struct
 * lt_record that lt_record_parse() gives for the alert line: ts, tracker,
 * cause, delay (count for lost) first, then every other member whose
 * value is a string, a number or a boolean, as text (numbers as written,
 * strings decoded: bytes the daemon wrote as lone surrogates \udcXX
 * arrive as U+FFFD, json-c's reading of them).  Lines of other types
 * ("snapshot", whose "alert" repeats an alert line; "filter", ...) are
 * skipped; a line of type "malformed" (a record the daemon could not
 * parse), a line that is not JSON or not an object, and an alert without
 * ts, tracker, cause and delay are malformed.  Blank lines are skipped.
 */
#ifndef LT_LOGREAD_H
#define LT_LOGREAD_H

#include <stdint.h>
#include <stdio.h>

#include "lt_record.h"

enum lt_logline {
	LT_LOGLINE_RECORD,	/* *r is an alert or a lost record */
	LT_LOGLINE_SKIP,	/* blank, or another type */
	LT_LOGLINE_MALFORMED,	/* *why says why */
};

/* A parsed line: the record points into mem (kept until the next parse). */
struct lt_logline_buf {
	struct lt_record r;
	char *mem;
	size_t cap;
};

enum lt_logline lt_logline_parse(struct lt_logline_buf *b, const char *line,
				 size_t len, const char **why);
void lt_logline_free(struct lt_logline_buf *b);

struct lt_logread_stats {
	uint64_t lines;
	uint64_t records;	/* given to the callback */
	uint64_t malformed;
	uint64_t first_bad;	/* line number of the first malformed one */
	const char *first_why;	/* and why (static) */
};

/*
 * Every line of @in: each record to @fn (a non-zero return stops the
 * reading and is returned).  Returns 0, the callback's value, or -1 with
 * errno when reading failed or memory ran out.
 */
int lt_logread(FILE *in, int (*fn)(void *arg, const struct lt_record *r),
	       void *arg, struct lt_logread_stats *st);

#endif /* LT_LOGREAD_H */
