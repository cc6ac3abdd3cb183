// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_logread.c - alert records from latency-trackerd's JSON log or from
 * alert lines (see lt_logread.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lt_logread.h"
#include "lt_num.h"

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

static int reserve(struct lt_logline_buf *b, size_t n)
{
	char *p;

	if (n <= b->cap)
		return 0;
	p = realloc(b->mem, n);
	if (!p)
		return -1;
	b->mem = p;
	b->cap = n;
	return 0;
}

/* An alert line as the kernel writes it. */
static enum lt_logline text_line(struct lt_logline_buf *b, const char *line,
				 size_t len, const char **why)
{
	if (reserve(b, len + 1)) {
		*why = "out of memory";
		return LT_LOGLINE_MALFORMED;
	}
	memcpy(b->mem, line, len);
	b->mem[len] = '\0';
	if (strlen(b->mem) != len) {
		*why = "NUL byte in the line";
		return LT_LOGLINE_MALFORMED;
	}
	return lt_record_parse(b->mem, &b->r, why) ? LT_LOGLINE_MALFORMED :
						      LT_LOGLINE_RECORD;
}

static bool scalar(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_string:
	case json_type_int:
	case json_type_double:
	case json_type_boolean:
		return true;
	default:
		return false;
	}
}

/* The text of a scalar member (a string's bytes, a number as written). */
static const char *text_of(json_object *v, size_t *len)
{
	if (json_object_get_type(v) == json_type_string) {
		*len = (size_t)json_object_get_string_len(v);
		return json_object_get_string(v);
	}
	*len = strlen(json_object_get_string(v));
	return json_object_get_string(v);
}

/* A member's text, copied into mem at *off, as a field. */
static void add_field(struct lt_logline_buf *b, size_t *off, const char *key,
		      json_object *v)
{
	struct lt_field *f;
	size_t klen = strlen(key), vlen;
	const char *val = text_of(v, &vlen);
	char *p = b->mem + *off;

	if (b->r.nfields == LT_RECORD_MAX_FIELDS)
		return;
	f = &b->r.f[b->r.nfields++];
	memcpy(p, key, klen + 1);
	f->key = p;
	p += klen + 1;
	memcpy(p, val, vlen);
	p[vlen] = '\0';
	f->val = p;
	f->len = vlen;
	*off += klen + 1 + vlen + 1;
}

static const char *const lead[] = { "ts", "tracker", "cause", NULL };

static bool is_lead(const char *key)
{
	for (int i = 0; lead[i]; i++)
		if (!strcmp(key, lead[i]))
			return true;
	return !strcmp(key, "delay") || !strcmp(key, "count");
}

/* The JSON members of an alert or lost line into b->r. */
static enum lt_logline json_record(struct lt_logline_buf *b, json_object *o,
				   const char **why)
{
	struct lt_record *r = &b->r;
	json_object *v;
	size_t need = 0, off = 0, vlen;
	const char *num;
	bool lost;

	json_object_object_foreach(o, key, val) {
		if (scalar(val)) {
			text_of(val, &vlen);
			need += strlen(key) + 1 + vlen + 1;
		}
	}
	if (reserve(b, need + 1)) {
		*why = "out of memory";
		return LT_LOGLINE_MALFORMED;
	}
	memset(r, 0, sizeof(*r));
	for (int i = 0; lead[i]; i++) {
		if (!json_object_object_get_ex(o, lead[i], &v) || !scalar(v)) {
			*why = "record without ts, tracker and cause";
			return LT_LOGLINE_MALFORMED;
		}
		add_field(b, &off, lead[i], v);
	}
	if (lt_parse_u64(r->f[0].val, &r->ts)) {
		*why = "ts is not a decimal number";
		return LT_LOGLINE_MALFORMED;
	}
	if (!r->f[1].len || strlen(r->f[1].val) != r->f[1].len) {
		*why = "bad tracker name";
		return LT_LOGLINE_MALFORMED;
	}
	r->tracker = r->f[1].val;
	if (!strcmp(r->f[2].val, "threshold"))
		r->cause = LT_CAUSE_THRESHOLD;
	else if (!strcmp(r->f[2].val, "timeout"))
		r->cause = LT_CAUSE_TIMEOUT;
	else if (!strcmp(r->f[2].val, "lost"))
		r->cause = LT_CAUSE_LOST;
	else {
		*why = "unknown cause";
		return LT_LOGLINE_MALFORMED;
	}
	lost = r->cause == LT_CAUSE_LOST;
	if (!json_object_object_get_ex(o, lost ? "count" : "delay", &v) ||
	    !scalar(v)) {
		*why = lost ? "lost record without count" :
			      "record without delay";
		return LT_LOGLINE_MALFORMED;
	}
	add_field(b, &off, lost ? "count" : "delay", v);
	num = r->f[3].val;
	if (lt_parse_u64(num, lost ? &r->count : &r->delay)) {
		*why = lost ? "count is not a decimal number" :
			      "delay is not a decimal number";
		return LT_LOGLINE_MALFORMED;
	}
	json_object_object_foreach(o, k, m) {
		if (scalar(m) && !is_lead(k))
			add_field(b, &off, k, m);
	}
	return LT_LOGLINE_RECORD;
}

static enum lt_logline json_line(struct lt_logline_buf *b, const char *line,
				 size_t len, const char **why)
{
	struct json_tokener *tok = json_tokener_new();
	enum lt_logline ret = LT_LOGLINE_MALFORMED;
	json_object *o, *type;
	const char *t;

	if (!tok) {
		*why = "out of memory";
		return ret;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (!o) {
		*why = json_tokener_get_error(tok) == json_tokener_continue ?
		       "JSON object cut short" : "not JSON";
		goto out;
	}
	if (!blank(line + json_tokener_get_parse_end(tok),
		   len - json_tokener_get_parse_end(tok))) {
		*why = "text after the JSON object";
		goto out;
	}
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "type", &type) ||
	    !json_object_is_type(type, json_type_string)) {
		*why = "not an object with a \"type\"";
		goto out;
	}
	t = json_object_get_string(type);
	if (!strcmp(t, "alert") || !strcmp(t, "lost")) {
		ret = json_record(b, o, why);
	} else if (!strcmp(t, "malformed")) {
		*why = "a record the daemon could not parse";
	} else {
		ret = LT_LOGLINE_SKIP;
	}
out:
	json_object_put(o);
	json_tokener_free(tok);
	return ret;
}

enum lt_logline lt_logline_parse(struct lt_logline_buf *b, const char *line,
				 size_t len, const char **why)
{
	size_t i = 0;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (blank(line, len))
		return LT_LOGLINE_SKIP;
	while (line[i] == ' ' || line[i] == '\t')
		i++;
	if (len > INT32_MAX) {
		*why = "line too long";
		return LT_LOGLINE_MALFORMED;
	}
	if (line[i] == '{')
		return json_line(b, line, len, why);
	return text_line(b, line, len, why);
}

void lt_logline_free(struct lt_logline_buf *b)
{
	free(b->mem);
	b->mem = NULL;
	b->cap = 0;
}

int lt_logread(FILE *in, int (*fn)(void *arg, const struct lt_record *r),
	       void *arg, struct lt_logread_stats *st)
{
	struct lt_logline_buf b = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	errno = 0;
	while ((n = getline(&line, &cap, in)) >= 0) {
		const char *why = NULL;

		st->lines++;
		switch (lt_logline_parse(&b, line, (size_t)n, &why)) {
		case LT_LOGLINE_RECORD:
			st->records++;
			ret = fn(arg, &b.r);
			break;
		case LT_LOGLINE_MALFORMED:
			if (!st->malformed++) {
				st->first_bad = st->lines;
				st->first_why = why;
			}
			break;
		case LT_LOGLINE_SKIP:
			break;
		}
		if (ret)
			break;
	}
	if (!ret && ferror(in))
		ret = -1;
	free(line);
	lt_logline_free(&b);
	return ret;
}
