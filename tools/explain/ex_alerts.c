// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_alerts.c - the latency_tracker events of a snapshot as alert records
 * (see ex_alerts.h), through ex_trace.c's reading.
 */
#include <babeltrace2/babeltrace.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ex_alerts.h"
#include "ex_trace.h"
#include "lt_num.h"

#define PREFIX		"latency_tracker_"
/* Room for the text of every field of one event. */
#define TEXT_MAX	8192

struct reader {
	void (*fn)(void *arg, const struct lt_record *r);
	void *arg;
	struct ex_alerts_stats *st;
	char text[TEXT_MAX];
	size_t used;
	struct lt_record r;
};

/* Append bytes as the value of a new field; false when out of room. */
static bool add(struct reader *rd, const char *key, const char *v, size_t len)
{
	size_t klen = strlen(key);
	struct lt_field *f;
	char *p;

	if (rd->r.nfields == LT_RECORD_MAX_FIELDS ||
	    rd->used + klen + len + 2 > sizeof(rd->text))
		return false;
	p = rd->text + rd->used;
	memcpy(p, key, klen + 1);
	memcpy(p + klen + 1, v, len);
	p[klen + 1 + len] = '\0';
	f = &rd->r.f[rd->r.nfields++];
	f->key = p;
	f->val = p + klen + 1;
	f->len = len;
	rd->used += klen + len + 2;
	return true;
}

/* A field's value as text: integers, strings, arrays of characters. */
static bool text_of(const bt_field *f, char *buf, size_t size, size_t *len)
{
	bt_field_class_type t = bt_field_get_class_type(f);

	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
		*len = (size_t)snprintf(buf, size, "%" PRId64,
					bt_field_integer_signed_get_value(f));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
		*len = (size_t)snprintf(buf, size, "%" PRIu64,
					bt_field_integer_unsigned_get_value(f));
	} else if (t == BT_FIELD_CLASS_TYPE_STRING) {
		const char *s = bt_field_string_get_value(f);

		*len = strlen(s);
		if (*len >= size)
			*len = size - 1;
		memcpy(buf, s, *len);
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
		uint64_t n = bt_field_array_get_length(f), i;

		for (i = 0; i < n && i + 1 < size; i++) {
			const bt_field *e =
				bt_field_array_borrow_element_field_by_index_const(f, i);
			bt_field_class_type et = bt_field_get_class_type(e);
			uint64_t c;

			if (!bt_field_class_type_is(et, BT_FIELD_CLASS_TYPE_INTEGER))
				return false;
			c = bt_field_class_type_is(et, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER) ?
			    (uint64_t)bt_field_integer_signed_get_value(e) :
			    bt_field_integer_unsigned_get_value(e);
			if (!(c & 0xff))
				break;
			buf[i] = (char)c;
		}
		*len = i;
	} else {
		return false;
	}
	if (*len >= size)
		*len = size - 1;
	buf[*len] = '\0';
	return true;
}

static const bt_field *member(const bt_field *st, const char *name)
{
	return bt_field_structure_borrow_member_field_by_name_const(st, name);
}

static void on_event(void *arg, const struct bt_message *msg)
{
	struct reader *rd = arg;
	const bt_event *e = bt_message_event_borrow_event_const(msg);
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(e));
	const bt_field *p = bt_event_borrow_payload_field_const(e);
	const bt_field_class *pc;
	char ts[24], buf[TEXT_MAX / 2];
	const char *tracker;
	uint64_t n;
	size_t len;

	if (!name || strncmp(name, PREFIX, strlen(PREFIX)) || !p ||
	    bt_field_get_class_type(p) != BT_FIELD_CLASS_TYPE_STRUCTURE)
		return;
	rd->st->events++;
	memset(&rd->r, 0, sizeof(rd->r));
	rd->used = 0;
	tracker = name + strlen(PREFIX);
	if (!strcmp(tracker, "syscall"))
		tracker = "syscalls";
	if (member(p, "tracker") && text_of(member(p, "tracker"), buf,
					      sizeof(buf), &len) && len)
		tracker = buf;
	if (ex_trace_msg_ns(msg, &rd->r.ts) ||
	    !member(p, "cause") || !member(p, "delay")) {
		rd->st->malformed++;
		return;
	}
	snprintf(ts, sizeof(ts), "%" PRIu64, rd->r.ts);
	add(rd, "ts", ts, strlen(ts));
	add(rd, "tracker", tracker, strlen(tracker));
	rd->r.tracker = rd->r.f[1].val;
	pc = bt_field_borrow_class_const(p);
	n = bt_field_class_structure_get_member_count(pc);
	if (text_of(member(p, "cause"), buf, sizeof(buf), &len))
		add(rd, "cause", buf, len);
	if (rd->r.nfields == 3 && text_of(member(p, "delay"), buf, sizeof(buf), &len))
		add(rd, "delay", buf, len);
	if (rd->r.nfields != 4 || lt_parse_u64(rd->r.f[3].val, &rd->r.delay) ||
	    (strcmp(rd->r.f[2].val, "threshold") && strcmp(rd->r.f[2].val, "timeout"))) {
		rd->st->malformed++;
		return;
	}
	rd->r.cause = !strcmp(rd->r.f[2].val, "timeout") ? LT_CAUSE_TIMEOUT :
							  LT_CAUSE_THRESHOLD;
	for (uint64_t i = 0; i < n; i++) {
		const char *k = bt_field_class_structure_member_get_name(
			bt_field_class_structure_borrow_member_by_index_const(pc, i));

		if (!strcmp(k, "cause") || !strcmp(k, "delay") ||
		    !strcmp(k, "tracker"))
			continue;
		if (text_of(bt_field_structure_borrow_member_field_by_index_const(p, i),
			    buf, sizeof(buf), &len))
			add(rd, k, buf, len);
	}
	rd->fn(rd->arg, &rd->r);
}

int ex_alerts_read(const char *path,
		   void (*fn)(void *arg, const struct lt_record *r), void *arg,
		   struct ex_alerts_stats *st, char *err, size_t errlen)
{
	struct reader rd;

	memset(st, 0, sizeof(*st));
	rd.fn = fn;
	rd.arg = arg;
	rd.st = st;
	return ex_trace_each(path, on_event, &rd, &st->discarded, err, errlen);
}
