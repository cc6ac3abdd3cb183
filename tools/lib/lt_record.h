/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_record.h - one alert record line of /proc/latency_tracker/<t>/alerts,
 * split into fields (docs/design.md, "Alert records").
 *
 * A line is `key=value` fields separated by single spaces; values are
 * escaped (bytes outside '!'..'~', '\' and '=' written as \xHH).  Every
 * record starts with ts= tracker= cause= and, for threshold/timeout,
 * delay=; a reader that fell behind gets `cause=lost count=<n>` instead.
 * lt_record_parse() checks all that and decodes the escapes in place.
 */
#ifndef LT_RECORD_H
#define LT_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LT_RECORD_MAX_FIELDS	32

enum lt_cause {
	LT_CAUSE_THRESHOLD,
	LT_CAUSE_TIMEOUT,
	LT_CAUSE_LOST,
};

struct lt_field {
	const char *key;
	const char *val;	/* decoded; may hold any byte but NUL */
	size_t len;		/* length of val */
};

struct lt_record {
	uint64_t ts;
	const char *tracker;
	enum lt_cause cause;
	uint64_t delay;		/* threshold/timeout records */
	uint64_t count;		/* lost records */
	size_t nfields;		/* all fields, the four above included */
	struct lt_field f[LT_RECORD_MAX_FIELDS];
};

/*
 * Parse one line (without or with its '\n'); the buffer is modified and
 * the record points into it.  Returns 0, or -1 with *why set to a short
 * static reason for a malformed line.
 */
int lt_record_parse(char *line, struct lt_record *r, const char **why);

/* The value of a field, or NULL. */
const struct lt_field *lt_record_get(const struct lt_record *r,
				     const char *key);

const char *lt_cause_name(enum lt_cause c);

/*
 * Write the record's fields as JSON members (no braces): "key":value,...
 * Numbers stay numbers; names (comm, tracker, cause, ...) are strings.
 */
void lt_record_json_members(FILE *out, const struct lt_record *r);

#endif /* LT_RECORD_H */
