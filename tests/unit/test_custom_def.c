// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_custom_def.c - host tests of probes/custom_def.c, the definition
 * parser of custom trackers and their canonical form: lines accepted and
 * their canonical form (which parses back to itself), lines refused with
 * their errno and the token named, every bound, the reserved names,
 * `del`, the app kind, and a canonical form that does not fit its buffer.
 */
#include <stdio.h>

#include "lt_env.h"
#include "custom_def.h"
#include "tap.h"

#define FN_TAIL		" key=tid threshold=1000000 timeout=0 max_events=4096 stack=0\n"

struct good_case {
	const char *line;
	const char *canonical;
};

static const struct good_case good[] = {
	{ "fsync fn=vfs_fsync", "fsync fn=vfs_fsync" FN_TAIL },
	{ "fsync fn=vfs_fsync\n", "fsync fn=vfs_fsync" FN_TAIL },
	{ "  r \t fn=vfs_read\tkey=tgid  ",
	  "r fn=vfs_read key=tgid threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "a stack=1 max_events=7 timeout=1000000 threshold=1 fn=f.isra.0",
	  "a fn=f.isra.0 key=tid threshold=1 timeout=1000000 max_events=7 stack=1\n" },
	{ "blk in=kprobe:blk_mq_start_request key=arg1 out=kprobe:blk_mq_end_request",
	  "blk in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "m in=kretprobe:kmalloc in_key=ret out=kprobe:kfree out_key=arg1 threshold=1000000000000 timeout=1000000000000 max_events=4194304",
	  "m in=kretprobe:kmalloc out=kprobe:kfree in_key=ret out_key=arg1 threshold=1000000000000 timeout=1000000000000 max_events=4194304 stack=0\n" },
	{ "f in=kprobe:a in_key=arg2+0x10 out=kprobe:b out_key=arg2+16",
	  "f in=kprobe:a out=kprobe:b key=arg2+16 threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "g in=kprobe:a in_key=arg2+0x10 out=kprobe:b out_key=arg6",
	  "g in=kprobe:a out=kprobe:b in_key=arg2+16 out_key=arg6 threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "o in=kprobe:a key=arg3+0 out=kprobe:b",
	  "o in=kprobe:a out=kprobe:b key=arg3+0 threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "x in=kprobe:a key=arg1+0x7fffffff out=kprobe:b",
	  "x in=kprobe:a out=kprobe:b key=arg1+2147483647 threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "x in=kprobe:a key=arg1+0xaBcD out=kprobe:b",
	  "x in=kprobe:a out=kprobe:b key=arg1+43981 threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "sc in=tp:raw_syscalls:sys_enter out=tp:raw_syscalls:sys_exit key=tid",
	  "sc in=tp:raw_syscalls:sys_enter out=tp:raw_syscalls:sys_exit key=tid threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "t_1 in=tp:sched:sched_switch out=kretprobe:F_2 in_key=tgid out_key=tgid",
	  "t_1 in=tp:sched:sched_switch out=kretprobe:F_2 key=tgid threshold=1000000 timeout=0 max_events=4096 stack=0\n" },
	{ "abcdefghijklmnopqrstuvwxyz012345 fn=_x",
	  "abcdefghijklmnopqrstuvwxyz012345 fn=_x" FN_TAIL },
	{ "web app", "web app threshold=10000000 timeout=0 max_events=65536\n" },
	{ " \tw app\tmax_events=8 timeout=1000000 threshold=5\n",
	  "w app threshold=5 timeout=1000000 max_events=8\n" },
};

struct bad_case {
	const char *line;
	int ret;
	const char *tok;	/* NULL: no token (a field missing) */
	const char *what;
};

static const struct bad_case bad[] = {
	{ "", -EINVAL, NULL, "empty line" },
	{ "\n", -EINVAL, NULL, "a newline alone" },
	{ "a fn=f\n\n", -EINVAL, "\n", "two newlines" },
	{ "a fn=f\r", -EINVAL, "\r", "a carriage return" },
	{ "a fn=\xe9", -EINVAL, "\xe9", "a high byte" },
	{ "A fn=f", -EINVAL, "A", "NAME in capitals" },
	{ "1a fn=f", -EINVAL, "1a", "NAME starting with a digit" },
	{ "a-b fn=f", -EINVAL, "a-b", "NAME with a dash" },
	{ "abcdefghijklmnopqrstuvwxyz0123456 fn=f", -EINVAL,
	  "abcdefghijklmnopqrstuvwxyz0123456", "NAME of 33 characters" },
	{ "fn=f", -EINVAL, "fn=f", "NAME missing" },
	{ "a", -EINVAL, NULL, "no field" },
	{ "a fn", -EINVAL, "fn", "a field without =" },
	{ "a fn=f colour=red", -EINVAL, "colour=red", "unknown field" },
	{ "a fn=f threshold=5 threshold=6", -EINVAL, "threshold=6",
	  "a field twice" },
	{ "a fn=f max_events=007", -EINVAL, "max_events=007",
	  "a number with leading zeros (one number grammar, tracker/parse.c)" },
	{ "a fn=", -EINVAL, "fn=", "empty function" },
	{ "a fn=1f", -EINVAL, "fn=1f", "function starting with a digit" },
	{ "a fn=f:g", -EINVAL, "fn=f:g", "function with a colon" },
	{ "a fn=f key=arg1", -EINVAL, "key=arg1", "fn= with an argument key" },
	{ "a fn=f key=ret", -EINVAL, "key=ret", "fn= with ret" },
	{ "a fn=f in=kprobe:g", -EINVAL, "in=kprobe:g", "fn= with in=" },
	{ "a fn=f in_key=tid", -EINVAL, "in_key=tid", "fn= with in_key=" },
	{ "a in=kprobe:f key=tid", -EINVAL, NULL, "out= missing" },
	{ "a out=kprobe:f key=tid", -EINVAL, NULL, "in= missing" },
	{ "a in=kprobe:f out=kprobe:g", -EINVAL, NULL, "no key" },
	{ "a in=kprobe:f out=kprobe:g in_key=tid", -EINVAL, NULL,
	  "out_key= missing" },
	{ "a in=kprobe:f out=kprobe:g out_key=tid", -EINVAL, NULL,
	  "in_key= missing" },
	{ "a in=kprobe:f out=kprobe:g key=tid in_key=tid", -EINVAL,
	  "in_key=tid", "key= with in_key=" },
	{ "a in=uprobe:f out=kprobe:g key=tid", -EINVAL, "in=uprobe:f",
	  "unknown probe kind" },
	{ "a in=kprobe: out=kprobe:g key=tid", -EINVAL, "in=kprobe:",
	  "kprobe without a function" },
	{ "a in=tp:sched out=kprobe:g key=tid", -EINVAL, "in=tp:sched",
	  "tracepoint without an event" },
	{ "a in=tp::x out=kprobe:g key=tid", -EINVAL, "in=tp::x",
	  "tracepoint without a system" },
	{ "a in=tp:a:b:c out=kprobe:g key=tid", -EINVAL, "in=tp:a:b:c",
	  "tracepoint with a third part" },
	{ "a in=tp:latency_tracker:offcpu out=kprobe:g key=tid", -EINVAL,
	  "in=tp:latency_tracker:offcpu", "our own event" },
	{ "a in=tp:s:e out=tp:s:f key=arg1", -EINVAL, "key=arg1",
	  "argument key at a tracepoint" },
	{ "a in=kretprobe:f out=kprobe:g key=arg1", -EINVAL, "key=arg1",
	  "argument key at a kretprobe" },
	{ "a in=kprobe:f out=kprobe:g key=ret", -EINVAL, "key=ret",
	  "ret at a kprobe" },
	{ "a in=kprobe:f out=tp:s:e in_key=arg1 out_key=ret", -EINVAL,
	  "out_key=ret", "ret at a tracepoint" },
	{ "a in=kprobe:f out=kprobe:g key=arg0", -EINVAL, "key=arg0", "arg0" },
	{ "a in=kprobe:f out=kprobe:g key=arg7", -EINVAL, "key=arg7", "arg7" },
	{ "a in=kprobe:f out=kprobe:g key=arg12", -EINVAL, "key=arg12",
	  "arg12" },
	{ "a in=kprobe:f out=kprobe:g key=arg1+", -EINVAL, "key=arg1+",
	  "an empty offset" },
	{ "a in=kprobe:f out=kprobe:g key=arg1-8", -EINVAL, "key=arg1-8",
	  "a negative offset" },
	{ "a in=kprobe:f out=kprobe:g key=arg1+0x", -EINVAL, "key=arg1+0x",
	  "0x without digits" },
	{ "a in=kprobe:f out=kprobe:g key=arg1+0x80000000", -EINVAL,
	  "key=arg1+0x80000000", "offset above 2^31 - 1 (hex)" },
	{ "a in=kprobe:f out=kprobe:g key=arg1+2147483648", -EINVAL,
	  "key=arg1+2147483648", "offset above 2^31 - 1 (decimal)" },
	{ "a in=kprobe:f out=kprobe:g key=arg1+0X10", -EINVAL,
	  "key=arg1+0X10", "0X (the prefix is 0x)" },
	{ "a in=kprobe:f out=kprobe:g key=arg1+0x1g", -EINVAL,
	  "key=arg1+0x1g", "a bad hex digit" },
	{ "a in=kprobe:f out=kprobe:g key=pid", -EINVAL, "key=pid",
	  "unknown key" },
	{ "a fn=f threshold=0", -EINVAL, "threshold=0", "threshold 0" },
	{ "a fn=f threshold=1000000000001", -EINVAL,
	  "threshold=1000000000001", "threshold above 1000 s" },
	{ "a fn=f threshold=1ms", -EINVAL, "threshold=1ms", "a unit" },
	{ "a fn=f threshold=-1", -EINVAL, "threshold=-1", "a sign" },
	{ "a fn=f threshold=18446744073709551616", -EINVAL,
	  "threshold=18446744073709551616", "an overflow" },
	{ "a fn=f timeout=999999", -EINVAL, "timeout=999999",
	  "timeout under 1 ms" },
	{ "a fn=f timeout=1000000000001", -EINVAL, "timeout=1000000000001",
	  "timeout above 1000 s" },
	{ "a fn=f max_events=0", -EINVAL, "max_events=0", "max_events 0" },
	{ "a fn=f max_events=4194305", -EINVAL, "max_events=4194305",
	  "max_events above 2^22" },
	{ "a fn=f stack=2", -EINVAL, "stack=2", "stack 2" },
	{ "a fn=f stack=yes", -EINVAL, "stack=yes", "stack yes" },
	{ "a fn=f key=tid threshold=1 timeout=0 max_events=1 stack=0 fn=g",
	  -EINVAL, "fn=g", "twelve tokens, fn twice" },
	{ "a fn=f key=tid threshold=1 timeout=0 max_events=1 stack=0 x",
	  -EINVAL, "x", "a token that is not a field" },
	{ "a b c d e f g h i j k l", -EINVAL, "l", "twelve tokens" },
	{ "del", -EINVAL, "del", "del without NAME" },
	{ "del a b", -EINVAL, "b", "del with two names" },
	{ "del A", -EINVAL, "A", "del of a bad NAME" },
	{ "del fn=f", -EEXIST, "del", "a tracker named del" },
	{ "wakeup fn=f", -EEXIST, "wakeup", "a built-in tracker's name" },
	{ "netrx fn=f", -EEXIST, "netrx", "a future tracker's name" },
	{ "custom fn=f", -EEXIST, "custom", "the custom file's name" },
	{ "version fn=f", -EEXIST, "version", "the version file's name" },
	{ "wakeup fn=f threshold=0", -EINVAL, "threshold=0",
	  "bad syntax goes before a reserved name" },
	{ "a app fn=f", -EINVAL, "fn=f", "app with fn=" },
	{ "a app in=kprobe:f", -EINVAL, "in=kprobe:f", "app with in=" },
	{ "a app key=tid", -EINVAL, "key=tid", "app with key=" },
	{ "a app stack=1", -EINVAL, "stack=1", "app with stack=" },
	{ "a app app", -EINVAL, "app", "app twice" },
	{ "a threshold=5 app", -EINVAL, "app", "app after a field" },
	{ "a app threshold=0", -EINVAL, "threshold=0", "app, threshold 0" },
	{ "a app timeout=12", -EINVAL, "timeout=12", "app, timeout under 1 ms" },
	{ "a app max_events=0", -EINVAL, "max_events=0", "app, max_events 0" },
	{ "a app timeout=1000000 timeout=1000000", -EINVAL, "timeout=1000000",
	  "app, a field twice" },
	{ "app app", -EEXIST, "app", "an application tracker named app" },
	{ "wakeup app", -EEXIST, "wakeup", "an application tracker with a tracker's name" },
};

static const char *const reserved[] = {
	"del", "custom", "version", "app", "wakeup", "offcpu", "syscalls",
	"block", "irq", "lock", "ttfb", "netrx",
};

static struct lt_custom_cmd cmd;
static char out[LT_CUSTOM_LINE_MAX];

static void test_good(void)
{
	struct lt_custom_err err;
	char again[LT_CUSTOM_LINE_MAX];
	unsigned int i;
	int ret;
	bool ok;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ret = lt_custom_parse(good[i].line, strlen(good[i].line), &cmd,
				      &err);
		ok = !ret && cmd.op == LT_CUSTOM_ADD;
		if (ok) {
			lt_custom_format(&cmd.def, out, sizeof(out));
			ok = !strcmp(out, good[i].canonical);
		}
		/* The canonical form parses back to itself. */
		if (ok) {
			ret = lt_custom_parse(out, strlen(out), &cmd, &err);
			ok = !ret;
			lt_custom_format(&cmd.def, again, sizeof(again));
			ok = ok && !strcmp(again, out);
		}
		if (!tap_ok(ok, "accepted: '%.*s'",
			    (int)strcspn(good[i].line, "\n"), good[i].line)) {
			tap_diag("ret %d (%s)", ret, ret ? err.why : "-");
			tap_diag("got:  %s", out);
			tap_diag("want: %s", good[i].canonical);
		}
	}
}

static void test_bad(void)
{
	struct lt_custom_err err;
	unsigned int i;
	bool ok;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&err, 0, sizeof(err));
		ret = lt_custom_parse(bad[i].line, strlen(bad[i].line), &cmd,
				      &err);
		ok = ret == bad[i].ret && err.why;
		if (bad[i].tok)
			ok = ok && err.tok && err.tok_len == strlen(bad[i].tok) &&
			     !memcmp(err.tok, bad[i].tok, err.tok_len);
		else
			ok = ok && !err.tok;
		if (!tap_ok(ok, "refused (%s): %s", bad[i].ret == -EEXIST ?
			    "EEXIST" : "EINVAL", bad[i].what))
			tap_diag("ret %d, token '%.*s', why %s", ret,
				 err.tok ? (int)err.tok_len : 4,
				 err.tok ? err.tok : "NULL",
				 err.why ? err.why : "NULL");
	}
}

static void test_del_and_names(void)
{
	struct lt_custom_err err;
	char line[64];
	unsigned int i;
	bool each = true;
	int ret;

	ret = lt_custom_parse("del my_fsync\n", 13, &cmd, &err);
	tap_ok(!ret && cmd.op == LT_CUSTOM_DEL &&
	       !strcmp(cmd.def.name, "my_fsync"), "del NAME");
	for (i = 0; i < ARRAY_SIZE(reserved); i++) {
		snprintf(line, sizeof(line), "%s fn=f", reserved[i]);
		each &= lt_custom_name_reserved(reserved[i]) &&
			lt_custom_parse(line, strlen(line), &cmd, &err) ==
			-EEXIST;
	}
	tap_ok(each, "every reserved name is refused with EEXIST");
	tap_ok(!lt_custom_name_reserved("wakeup2") &&
	       !lt_custom_name_reserved("blk") &&
	       !lt_custom_name_reserved(""), "other names are not reserved");
	tap_ok(lt_custom_name_valid("a") && lt_custom_name_valid("a_1") &&
	       lt_custom_name_valid("abcdefghijklmnopqrstuvwxyz012345") &&
	       !lt_custom_name_valid("abcdefghijklmnopqrstuvwxyz0123456") &&
	       !lt_custom_name_valid("") && !lt_custom_name_valid("A") &&
	       !lt_custom_name_valid("1a") && !lt_custom_name_valid("a-b") &&
	       !lt_custom_name_valid("a b"),
	       "a NAME as a C string: [a-z][a-z0-9_]{0,31}");
	ret = lt_custom_parse("a fn=f", 7, &cmd, &err);
	tap_ok(ret == -EINVAL && err.tok && err.tok_len == 1 && !*err.tok,
	       "a NUL byte inside the line is refused");
}

static void test_limits(void)
{
	char line[LT_CUSTOM_LINE_MAX + 2];
	struct lt_custom_err err;
	size_t n;
	int ret;

	/* 1024 bytes with the newline: accepted; 1025: refused. */
	memset(line, ' ', sizeof(line));
	memcpy(line, "a fn=f", 6);
	line[LT_CUSTOM_LINE_MAX - 1] = '\n';
	ret = lt_custom_parse(line, LT_CUSTOM_LINE_MAX, &cmd, &err);
	tap_ok(!ret, "a line of 1024 bytes (blanks) is accepted");
	line[LT_CUSTOM_LINE_MAX] = '\n';
	ret = lt_custom_parse(line, LT_CUSTOM_LINE_MAX + 1, &cmd, &err);
	tap_ok(ret == -EINVAL && !err.tok, "a line of 1025 bytes is refused");

	/* A 127-character function is accepted, 128 refused. */
	memset(line, 'f', sizeof(line));
	memcpy(line, "a fn=", 5);
	ret = lt_custom_parse(line, 5 + LT_CUSTOM_FUNC_MAX, &cmd, &err);
	tap_ok(!ret && strlen(cmd.def.in.func) == LT_CUSTOM_FUNC_MAX,
	       "a function name of 127 characters");
	ret = lt_custom_parse(line, 5 + LT_CUSTOM_FUNC_MAX + 1, &cmd, &err);
	tap_ok(ret == -EINVAL, "a function name of 128 characters is refused");

	/* A canonical form that does not fit: cut, NUL-terminated, counted. */
	lt_custom_parse("a fn=vfs_read", 13, &cmd, &err);
	n = lt_custom_format(&cmd.def, out, sizeof(out));
	memset(line, 'x', sizeof(line));
	tap_ok(lt_custom_format(&cmd.def, line, 10) == n && !line[9] &&
	       !memcmp(line, out, 9) && line[10] == 'x',
	       "a short buffer gets the start of the line, NUL-terminated");
	tap_ok(n == strlen(out) && out[n - 1] == '\n',
	       "the length of the whole line, newline included");
}

int main(void)
{
	tap_plan(ARRAY_SIZE(good) + ARRAY_SIZE(bad) + 5 + 6);
	test_good();
	test_bad();
	test_del_and_names();
	test_limits();
	return tap_done();
}
