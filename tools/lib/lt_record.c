// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_record.c - parsing alert record lines (see lt_record.h).
 */
#include <stdbool.h>
#include <string.h>

#include "lt_json.h"
#include "lt_num.h"
#include "lt_record.h"

static const char *const lt_cause_names[] = {
	[LT_CAUSE_THRESHOLD] = "threshold",
	[LT_CAUSE_TIMEOUT] = "timeout",
	[LT_CAUSE_LOST] = "lost",
};

const char *lt_cause_name(enum lt_cause c)
{
	return c <= LT_CAUSE_LOST ? lt_cause_names[c] : "?";
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Decode the \xHH escapes of v in place; *len gets the decoded length. */
static int unescape(char *v, size_t *len, const char **why)
{
	char *w = v;
	const char *s = v;

	while (*s) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\') {
			int hi, lo;

			if (s[1] != 'x' || (hi = lt_hexval(s[2])) < 0 ||
			    (lo = lt_hexval(s[3])) < 0) {
				*why = "bad escape (want \\xHH)";
				return -1;
			}
			*w++ = (char)(hi << 4 | lo);
			s += 4;
		} else if (c < '!' || c > '~' || c == '=') {
			*why = "unescaped byte in a value";
			return -1;
		} else {
			*w++ = *s++;
		}
	}
	*len = (size_t)(w - v);
	*w = '\0';
	return 0;
}

static int split_fields(char *line, struct lt_record *r, const char **why)
{
	char *p = line;

	r->nfields = 0;
	for (;;) {
		char *end = strchr(p, ' ');
		char *eq;
		struct lt_field *f;
		size_t i;

		if (end)
			*end = '\0';
		eq = strchr(p, '=');
		if (!*p) {
			*why = end ? "empty field (two blanks?)" : "empty line";
			return -1;
		}
		if (!eq || eq == p) {
			*why = "field without key=value";
			return -1;
		}
		*eq = '\0';
		for (i = 0; p[i]; i++) {
			if (!key_char(p[i])) {
				*why = "bad character in a key";
				return -1;
			}
		}
		if (r->nfields == LT_RECORD_MAX_FIELDS) {
			*why = "too many fields";
			return -1;
		}
		for (i = 0; i < r->nfields; i++) {
			if (!strcmp(r->f[i].key, p)) {
				*why = "duplicate key";
				return -1;
			}
		}
		f = &r->f[r->nfields++];
		f->key = p;
		f->val = eq + 1;
		if (unescape(eq + 1, &f->len, why))
			return -1;
		if (!end)
			return 0;
		p = end + 1;
	}
}

static bool field_is(const struct lt_record *r, size_t i, const char *key)
{
	return i < r->nfields && !strcmp(r->f[i].key, key);
}

int lt_record_parse(char *line, struct lt_record *r, const char **why)
{
	size_t n = strlen(line);
	const struct lt_field *c;

	if (n && line[n - 1] == '\n')
		line[--n] = '\0';
	memset(r, 0, sizeof(*r));
	if (split_fields(line, r, why))
		return -1;
	if (!field_is(r, 0, "ts") || !field_is(r, 1, "tracker") ||
	    !field_is(r, 2, "cause")) {
		*why = "does not start with ts= tracker= cause=";
		return -1;
	}
	if (lt_parse_u64(r->f[0].val, &r->ts)) {
		*why = "ts is not a decimal number";
		return -1;
	}
	if (!r->f[1].len || strlen(r->f[1].val) != r->f[1].len) {
		*why = "bad tracker name";
		return -1;
	}
	r->tracker = r->f[1].val;
	c = &r->f[2];
	if (!strcmp(c->val, "threshold")) {
		r->cause = LT_CAUSE_THRESHOLD;
	} else if (!strcmp(c->val, "timeout")) {
		r->cause = LT_CAUSE_TIMEOUT;
	} else if (!strcmp(c->val, "lost")) {
		r->cause = LT_CAUSE_LOST;
	} else {
		*why = "unknown cause";
		return -1;
	}
	if (r->cause == LT_CAUSE_LOST) {
		if (!field_is(r, 3, "count") ||
		    lt_parse_u64(r->f[3].val, &r->count)) {
			*why = "lost record without count=<n>";
			return -1;
		}
	} else if (!field_is(r, 3, "delay") ||
		   lt_parse_u64(r->f[3].val, &r->delay)) {
		*why = "record without delay=<ns>";
		return -1;
	}
	return 0;
}

const struct lt_field *lt_record_get(const struct lt_record *r,
				     const char *key)
{
	size_t i;

	for (i = 0; i < r->nfields; i++)
		if (!strcmp(r->f[i].key, key))
			return &r->f[i];
	return NULL;
}

/* Fields that are names even when they look like numbers. */
static bool string_key(const char *key)
{
	static const char *const names[] = {
		"tracker", "cause", "state", "dev", "op", "stack",
	};
	size_t n = strlen(key), i;

	if (n >= 4 && !strcmp(key + n - 4, "comm"))
		return true;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(key, names[i]))
			return true;
	return false;
}

/* A JSON integer: -?(0|[1-9][0-9]*), at most 19 digits (fits int64). */
static bool json_integer(const char *v, size_t len)
{
	size_t i = 0;

	if (len && v[0] == '-')
		i++;
	if (i == len || len - i > 19 || (v[i] == '0' && len - i > 1))
		return false;
	for (; i < len; i++)
		if (v[i] < '0' || v[i] > '9')
			return false;
	return true;
}

void lt_record_json_members(FILE *out, const struct lt_record *r)
{
	size_t i;

	for (i = 0; i < r->nfields; i++) {
		const struct lt_field *f = &r->f[i];

		if (i)
			fputc(',', out);
		lt_json_cstr(out, f->key);
		fputc(':', out);
		if (i == 0) /* ts: u64, may exceed 19 digits in theory */
			fprintf(out, "%llu", (unsigned long long)r->ts);
		else if (!string_key(f->key) && json_integer(f->val, f->len))
			fwrite(f->val, 1, f->len, out);
		else
			lt_json_str(out, f->val, f->len);
	}
}
