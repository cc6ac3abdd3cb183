// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_record.c - host tests of tools/lib/lt_record.c and lt_json.c:
 * alert record lines (escapes, lost records, malformed lines) and the
 * JSON they are logged as (the writer's rules: test_tools_json.c).
 */
#include <stdlib.h>
#include <string.h>

#include "lt_json.h"
#include "lt_record.h"
#include "tap.h"

static int parse(const char *text, struct lt_record *r, char *buf,
		 size_t size, const char **why)
{
	snprintf(buf, size, "%s", text);
	return lt_record_parse(buf, r, why);
}

/* JSON of a record's members, malloc'ed. */
static char *json_of(const struct lt_record *r)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	lt_record_json_members(f, r);
	fclose(f);
	return s;
}

static char *json_str(const char *v, size_t len)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	lt_json_str(f, v, len);
	fclose(f);
	return s;
}

static void test_good(void)
{
	char buf[1024], *j;
	struct lt_record r;
	const struct lt_field *f;
	const char *why = NULL;

	tap_ok(!parse("ts=100 tracker=wakeup cause=threshold delay=5000000 pid=42 tgid=41 comm=my\\x20task\\x3d1 prio=120 cpu=1 waker_pid=0 waker_comm=swapper/0 prev_pid=7 prev_comm=hog\n",
		      &r, buf, sizeof(buf), &why), "wakeup record parses");
	tap_eq(r.ts, 100, "ts");
	tap_ok(!strcmp(r.tracker, "wakeup"), "tracker");
	tap_eq(r.cause, LT_CAUSE_THRESHOLD, "cause threshold");
	tap_eq(r.delay, 5000000, "delay");
	tap_eq(r.nfields, 13, "13 fields");
	f = lt_record_get(&r, "comm");
	tap_ok(f && f->len == 9 &&
	       !strcmp(f->val, "my task=1"), "comm unescaped (blank, '=')");
	f = lt_record_get(&r, "waker_comm");
	tap_ok(f && !strcmp(f->val, "swapper/0"), "waker_comm");
	tap_ok(!lt_record_get(&r, "nope"), "absent key");
	j = json_of(&r);
	tap_ok(strstr(j, "\"ts\":100,\"tracker\":\"wakeup\",\"cause\":\"threshold\",\"delay\":5000000,\"pid\":42") != NULL,
	       "JSON: header and numbers");
	tap_ok(strstr(j, "\"comm\":\"my task=1\"") != NULL, "JSON: comm string");
	tap_ok(strstr(j, "\"waker_pid\":0") != NULL, "JSON: zero is a number");
	free(j);

	tap_ok(!parse("ts=5 tracker=offcpu cause=timeout delay=9 pid=1 comm=123 state=D",
		      &r, buf, sizeof(buf), &why), "timeout record, no newline");
	tap_eq(r.cause, LT_CAUSE_TIMEOUT, "cause timeout");
	j = json_of(&r);
	tap_ok(strstr(j, "\"comm\":\"123\"") && strstr(j, "\"state\":\"D\""),
	       "JSON: numeric-looking comm and state stay strings");
	free(j);

	tap_ok(!parse("ts=7 tracker=wakeup cause=lost count=12\n", &r, buf,
		      sizeof(buf), &why), "lost record parses");
	tap_eq(r.cause, LT_CAUSE_LOST, "cause lost");
	tap_eq(r.count, 12, "lost count");

	tap_ok(!parse("ts=1 tracker=block cause=threshold delay=2 dev=8:0 op=write empty=",
		      &r, buf, sizeof(buf), &why), "empty value allowed");
	f = lt_record_get(&r, "empty");
	tap_ok(f && f->len == 0, "empty value has length 0");
	j = json_of(&r);
	tap_ok(strstr(j, "\"dev\":\"8:0\"") != NULL, "JSON: dev string");
	free(j);

	tap_ok(!parse("ts=1 tracker=x cause=threshold delay=2 raw=\\xff\\x01\\x22\\x5c",
		      &r, buf, sizeof(buf), &why), "high and control bytes");
	f = lt_record_get(&r, "raw");
	tap_ok(f && f->len == 4 && (unsigned char)f->val[0] == 0xff &&
	       f->val[1] == 1 && f->val[2] == '"' && f->val[3] == '\\',
	       "bytes decoded");
	j = json_of(&r);
	tap_ok(strstr(j, "\"raw\":\"\\udcff\\u0001\\\"\\\\\"") != NULL,
	       "JSON escapes them (\\udcff, \\u0001, \\\", \\\\)");
	free(j);
	tap_ok(!parse("ts=1 tracker=x cause=threshold delay=2 nul=a\\x00b", &r, buf,
		      sizeof(buf), &why), "escaped NUL inside a value");
	f = lt_record_get(&r, "nul");
	tap_ok(f && f->len == 3, "its length counts the NUL");
	j = json_of(&r);
	tap_ok(strstr(j, "\"nul\":\"a\\u0000b\"") != NULL, "JSON keeps it escaped");
	free(j);
	tap_ok(!parse("ts=18446744073709551615 tracker=x cause=threshold delay=18446744073709551615",
		      &r, buf, sizeof(buf), &why), "u64 max values");
	j = json_of(&r);
	tap_ok(strstr(j, "\"ts\":18446744073709551615") &&
	       strstr(j, "\"delay\":\"18446744073709551615\""),
	       "JSON: ts as u64, a 20-digit delay as a string");
	free(j);
}

struct bad_case {
	const char *line;
	const char *what;
};

static const struct bad_case bad[] = {
	{ "", "empty line" },
	{ "\n", "only a newline" },
	{ "garbage", "no key=value" },
	{ "ts=1 tracker=w cause=threshold", "no delay" },
	{ "ts=1 tracker=w cause=lost", "lost without count" },
	{ "ts=1 tracker=w cause=lost count=x", "lost with bad count" },
	{ "tracker=w ts=1 cause=threshold delay=1", "fields out of order" },
	{ "ts=-1 tracker=w cause=threshold delay=1", "negative ts" },
	{ "ts=1x tracker=w cause=threshold delay=1", "ts trailing garbage" },
	{ "ts=18446744073709551616 tracker=w cause=threshold delay=1", "ts overflow" },
	{ "ts=1 tracker= cause=threshold delay=1", "empty tracker" },
	{ "ts=1 tracker=w cause=slow delay=1", "unknown cause" },
	{ "ts=1 tracker=w cause=threshold delay=1 pid=1 pid=2", "duplicate key" },
	{ "ts=1 tracker=w cause=threshold delay=1  pid=1", "two blanks" },
	{ "ts=1 tracker=w cause=threshold delay=1 ", "trailing blank" },
	{ "ts=1 tracker=w cause=threshold delay=1 comm=a=b", "unescaped '='" },
	{ "ts=1 tracker=w cause=threshold delay=1 comm=a\tb", "unescaped tab" },
	{ "ts=1 tracker=w cause=threshold delay=1 comm=\\x4", "short escape" },
	{ "ts=1 tracker=w cause=threshold delay=1 comm=\\y41", "bad escape letter" },
	{ "ts=1 tracker=w cause=threshold delay=1 comm=\\xg1", "bad hex digit" },
	{ "ts=1 tracker=w cause=threshold delay=1 Pid=1", "uppercase key" },
	{ "ts=1 tracker=w cause=threshold delay=1 =1", "empty key" },
	{ "ts=1 tracker=w\\x00x cause=threshold delay=1", "NUL in tracker" },
	{ "ts=1 tracker=w cause=threshold delay=1 a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1 j=1 k=1 l=1 m=1 n=1 o=1 p=1 q=1 r=1 s=1 t=1 u=1 v=1 w=1 x=1 y=1 z=1 aa=1 ab=1 ac=1",
	  "too many fields" },
};

static void test_bad(void)
{
	char buf[1024];
	struct lt_record r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;
		int ret = parse(bad[i].line, &r, buf, sizeof(buf), &why);

		tap_ok(ret == -1 && why && *why, "malformed: %s (%s)",
		       bad[i].what, why ? why : "accepted!");
	}
}

static void test_json_str(void)
{
	char *s;

	s = json_str("a\"b\\c\n\t\r\x1f\x7f", 10);
	tap_ok(!strcmp(s, "\"a\\\"b\\\\c\\n\\t\\r\\u001f\\u007f\""),
	       "JSON string escapes: %s", s);
	free(s);
	s = json_str("caf\xc3\xa9 \xff", 7);
	tap_ok(!strcmp(s, "\"caf\xc3\xa9 \\udcff\""),
	       "UTF-8 as it is, an invalid byte as \\udcXX (lt_json.h)");
	free(s);
}

int main(void)
{
	tap_plan(55);
	test_good();
	test_bad();
	test_json_str();
	return tap_done();
}
