// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_flame.c - what `latency-tracker flamegraph` is made of
 * (tools/lib): folding alert records into flame graph stacks (lt_folded:
 * root first, the comm at the root, user frames below kernel frames,
 * aggregation, weights adding up to the delays, the offwake layout, the
 * filters, empty and absent stacks, the default mode), escaping for XML
 * (lt_xml: every kind of byte), the SVG (lt_flamesvg: well-formed XML
 * read back by Python with hostile frame names, its frames' widths) and
 * reading records back from latency-trackerd's JSON log (lt_logread:
 * alert, lost, skipped and malformed lines).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt_flamesvg.h"
#include "lt_folded.h"
#include "lt_logread.h"
#include "lt_record.h"
#include "lt_xml.h"
#include "tap.h"
#include "tools_out.h"

/* Add one alert line (the kernel's text) to the samples. */
static void add(struct lt_samples *s, const char *line)
{
	char buf[2048];
	struct lt_record r;
	const char *why;

	snprintf(buf, sizeof(buf), "%s", line);
	if (lt_record_parse(buf, &r, &why)) {
		tap_diag("bad test line (%s): %s", why, line);
		return;
	}
	lt_samples_add(s, &r);
}

/* The folded text of the samples with these options. */
static char *folded(const struct lt_samples *s, const struct lt_fold_opts *o,
		    struct lt_folded *f)
{
	static char text[8192];
	FILE *m = fmemopen(text, sizeof(text), "w");

	lt_fold(s, o, f);
	lt_folded_write(m, f);
	fclose(m);
	return text;
}

#define SLEEP_STACK "do_nanosleep+0x7b/0x140;hrtimer_nanosleep+0x9e/0x170;do_syscall_64+0x5d/0xb0"
#define SLEEP_ROOT "do_syscall_64+0x5d/0xb0;hrtimer_nanosleep+0x9e/0x170;do_nanosleep+0x7b/0x140"

static void fill(struct lt_samples *s)
{
	add(s, "ts=1000 tracker=offcpu cause=threshold delay=700 pid=10 tgid=10 comm=sleep cpu=1 state=S waker_pid=0 waker_comm=swapper/1 cgroup=1 stack=" SLEEP_STACK " waker_stack=hrtimer_wakeup+0x1e/0x30;hrtimer_interrupt+0xf9/0x230");
	add(s, "ts=2000 tracker=offcpu cause=threshold delay=300 pid=11 tgid=11 comm=sleep cpu=0 state=S waker_pid=0 waker_comm=swapper/1 cgroup=1 stack=" SLEEP_STACK " waker_stack=hrtimer_wakeup+0x1e/0x30;hrtimer_interrupt+0xf9/0x230");
	/* Empty stack, empty waker: timeout. */
	add(s, "ts=3000 tracker=offcpu cause=timeout delay=50 pid=20 tgid=19 comm=db cpu=-1 state=D waker_pid=0 waker_comm= cgroup=1 stack= waker_stack=");
	/* No stack= at all (older modules), a user stack, unknown frames. */
	add(s, "ts=4000 tracker=offcpu cause=threshold delay=25 pid=30 tgid=30 comm=app cpu=0 state=S waker_pid=1 waker_comm=init cgroup=1");
	add(s, "ts=5000 tracker=offcpu cause=threshold delay=5 pid=31 tgid=30 comm=app cpu=0 state=S waker_pid=1 waker_comm=init cgroup=1 stack=futex_wait+0x1/0x2;? ustack=ab12+0x10;[unknown];ab12+0x99");
	add(s, "ts=6000 tracker=syscalls cause=threshold delay=40 pid=10 tgid=10 comm=cat nr=0 cgroup=1 stack=pipe_read+0x2f0/0x450;vfs_read+0x1f4/0x2d0");
	add(s, "ts=7000 tracker=slow cause=threshold delay=9 pid=40 tgid=40 comm=fs cpu=0 key=0x1 cgroup=1 stack=jbd2_log_wait_commit+0xb0/0x120;ext4_sync_file+0x1c5/0x3b0");
	add(s, "ts=8000 tracker=offcpu cause=lost count=3");
	add(s, "ts=9000 tracker=wakeup cause=lost count=4");
}

static void test_fold(void)
{
	struct lt_samples s = { 0 };
	struct lt_fold_opts o = { 0 };
	struct lt_folded f;
	char *t;
	uint64_t sum = 0;

	fill(&s);
	tap_eq(s.n, 7, "samples: every record kept, lost ones not");
	tap_ok(s.lost_lines == 2 && s.lost_records == 7,
	       "samples: lost notices and records counted");

	t = folded(&s, &o, &f);
	tap_ok(!strcmp(t,
		"app;[no stack] 25\n"
		"app;ab12+0x99;[unknown];ab12+0x10;?;futex_wait+0x1/0x2 5\n"
		"db;[no stack] 50\n"
		"sleep;" SLEEP_ROOT " 1000\n"),
	       "offcpu: comm at the root, frames root first, user frames below kernel ones, [no stack], merged");
	if (strncmp(t, "app", 3))
		tap_diag("got:\n%s", t);
	tap_ok(f.mode == LT_FOLD_OFFCPU && !strcmp(f.tracker, "offcpu"),
	       "default mode: offcpu when the source has offcpu records");
	for (size_t i = 0; i < f.n; i++)
		sum += f.v[i].weight;
	tap_ok(sum == 1080 && f.total == 1080 && f.used == 5,
	       "weights add up to the delays of the records used");
	tap_ok(f.n == 4 && f.v[3].count == 2, "two records of one stack: one line of count 2");
	tap_eq(f.other, 2, "records of other trackers counted apart");
	lt_folded_free(&f);

	o.mode = LT_FOLD_OFFWAKE;
	t = folded(&s, &o, &f);
	tap_ok(!strcmp(t,
		"app;[no stack];--;[no stack];init 25\n"
		"app;ab12+0x99;[unknown];ab12+0x10;?;futex_wait+0x1/0x2;--;[no stack];init 5\n"
		"db;[no stack];--;[no stack];[no waker] 50\n"
		"sleep;" SLEEP_ROOT ";--;hrtimer_wakeup+0x1e/0x30;hrtimer_interrupt+0xf9/0x230;swapper/1 1000\n"),
	       "offwake: blocked root to leaf, --, waker leaf to root, waker's comm");
	lt_folded_free(&f);

	o.mode = LT_FOLD_SYSCALLS;
	t = folded(&s, &o, &f);
	tap_ok(!strcmp(t, "cat;vfs_read+0x1f4/0x2d0;pipe_read+0x2f0/0x450 40\n") &&
	       !strcmp(f.tracker, "syscalls"), "syscalls mode: the syscalls records");
	lt_folded_free(&f);

	o.mode = LT_FOLD_AUTO;
	o.tracker = "slow";
	t = folded(&s, &o, &f);
	tap_ok(!strcmp(t, "fs;ext4_sync_file+0x1c5/0x3b0;jbd2_log_wait_commit+0xb0/0x120 9\n"),
	       "--tracker: a custom tracker's records");
	lt_folded_free(&f);

	o.tracker = NULL;
	o.pid_set = true;
	o.pid = 30;
	t = folded(&s, &o, &f);
	tap_ok(!strcmp(t, "app;[no stack] 25\napp;ab12+0x99;[unknown];ab12+0x10;?;futex_wait+0x1/0x2 5\n") &&
	       f.filtered == 3, "--pid: pid or tgid (a thread of the process too)");
	lt_folded_free(&f);

	o.pid_set = false;
	o.since_set = o.until_set = true;
	o.since = 2000;
	o.until = 4000;
	t = folded(&s, &o, &f);
	tap_ok(!strcmp(t, "app;[no stack] 25\ndb;[no stack] 50\nsleep;" SLEEP_ROOT " 300\n"),
	       "--since/--until: ts inside, both ends included");
	lt_folded_free(&f);
	lt_samples_free(&s);

	/* Without offcpu records: syscalls; without both: a tracker with stacks. */
	add(&s, "ts=1 tracker=syscalls cause=threshold delay=4 pid=1 tgid=1 comm=a nr=1 cgroup=1 stack=x");
	add(&s, "ts=2 tracker=zzz cause=threshold delay=4 pid=1 tgid=1 comm=a stack=y");
	memset(&o, 0, sizeof(o));
	lt_fold(&s, &o, &f);
	tap_ok(f.mode == LT_FOLD_SYSCALLS && !strcmp(f.tracker, "syscalls"),
	       "default mode: syscalls without offcpu records");
	lt_folded_free(&f);
	lt_samples_free(&s);
	add(&s, "ts=2 tracker=zzz cause=threshold delay=4 pid=1 tgid=1 comm=a stack=y");
	add(&s, "ts=2 tracker=mmm cause=threshold delay=4 pid=1 tgid=1 comm=a stack=y");
	add(&s, "ts=2 tracker=aaa cause=threshold delay=4 pid=1 tgid=1 comm=a");
	lt_fold(&s, &o, &f);
	tap_ok(!strcmp(f.tracker, "mmm"), "default mode: the first tracker with stack=");
	lt_folded_free(&f);
	lt_samples_free(&s);

	/* ';' and control bytes inside names; empty frames; no comm. */
	add(&s, "ts=1 tracker=offcpu cause=threshold delay=1 pid=1 tgid=1 comm=a\\x3bb\\x0ac stack=f1;;f2;");
	add(&s, "ts=1 tracker=offcpu cause=threshold delay=2 pid=1 tgid=1 stack=f");
	t = folded(&s, &o, &f);
	if (!tap_ok(!strcmp(t, "[offcpu];f 2\na\\x3bb\\x0ac;f2;f1 1\n"),
		    "';' and control bytes as \\xHH, empty frames left out, no comm: [tracker]"))
		tap_diag("got:\n%s", t);
	lt_folded_free(&f);
	lt_samples_free(&s);

	/* Frame by frame: "a" and its children stay together around "a b". */
	add(&s, "ts=1 tracker=offcpu cause=threshold delay=1 pid=1 tgid=1 comm=c stack=a");
	add(&s, "ts=1 tracker=offcpu cause=threshold delay=2 pid=1 tgid=1 comm=c stack=a\\x20b");
	add(&s, "ts=1 tracker=offcpu cause=threshold delay=4 pid=1 tgid=1 comm=c stack=z;a");
	t = folded(&s, &o, &f);
	tap_ok(!strcmp(t, "c;a 1\nc;a;z 4\nc;a b 2\n"),
	       "sorted frame by frame: a frame's lines together, parent first");
	lt_folded_free(&f);
	lt_samples_free(&s);

	tap_ok(lt_fold_mode_parse("offwake", &o.mode) == 0 && o.mode == LT_FOLD_OFFWAKE &&
	       lt_fold_mode_parse("auto", &o.mode) && lt_fold_mode_parse("", &o.mode),
	       "modes: offcpu, offwake, syscalls only");
}

static char *xml(const char *s, size_t len)
{
	static char text[1024];
	FILE *m = fmemopen(text, sizeof(text), "w");

	lt_xml_str(m, s, len);
	fclose(m);
	return text;
}

#define FFFD "\xef\xbf\xbd"

static void test_xml(void)
{
	size_t cut;

	tap_ok(!strcmp(xml("<a&b>\"'", 7), "&lt;a&amp;b&gt;&quot;&#39;"),
	       "xml: markup characters as references");
	tap_ok(!strcmp(xml("caf\xc3\xa9 \xe6\x97\xa5\t\n", 11), "caf\xc3\xa9 \xe6\x97\xa5\t\n"),
	       "xml: UTF-8, tab and newline as they are");
	tap_ok(!strcmp(xml("a\x01\x1b\x7f" "b", 5), "a" FFFD FFFD FFFD "b"),
	       "xml: control characters replaced");
	tap_ok(!strcmp(xml("\xff\xfe|\xe6\x97|\xed\xa0\x80|\xc0\xaf", 12),
		       FFFD FFFD "|" FFFD FFFD "|" FFFD FFFD FFFD "|" FFFD FFFD),
	       "xml: invalid, truncated, surrogate and overlong bytes replaced one by one");
	tap_ok(!strcmp(xml("\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd", 9), FFFD FFFD FFFD),
	       "xml: U+FFFE and U+FFFF replaced");
	tap_ok(!strcmp(xml("a\0b", 3), "a" FFFD "b"), "xml: NUL replaced");
	tap_ok(lt_xml_chars("ab\xc3\xa9\xff" "c", 6, 3, &cut) == 5 && cut == 4,
	       "xml: characters counted (a replaced byte is one), prefix cut on a character");
}

/* An SVG whose frames and comms are every hostile name, read by Python. */
static void test_svg(void)
{
	char path[] = "/tmp/lt_flame_XXXXXX", line[512], esc[128];
	struct lt_samples s = { 0 };
	struct lt_fold_opts o = { 0 };
	struct lt_flamesvg_opts so = { "t\xff<&>\"itle", "sub" };
	struct lt_folded f;
	char *argv_hex[NNAMES];
	int fd = mkstemp(path), rc;
	FILE *out = fdopen(fd, "w");
	char *text = NULL;
	size_t len = 0;

	for (size_t i = 0; i < NNAMES; i++) {
		record_escape(esc, names[i].s, names[i].len);
		snprintf(line, sizeof(line),
			 "ts=1 tracker=offcpu cause=threshold delay=%zu pid=1 tgid=1 comm=%s stack=leaf;%s",
			 1000 + i, esc, esc);
		add(&s, line);
	}
	lt_fold(&s, &o, &f);
	tap_ok(lt_flamesvg_write(out, &f, &so) == 0, "svg: written");
	fclose(out);
	/* What a frame of each name shows: folded (\xHH for control bytes),
	 * then invalid bytes as U+FFFD. */
	for (size_t i = 0; i < NNAMES; i++)
		argv_hex[i] = NULL;
	{
		static const char *const shown[NNAMES] = {
			"q\"uo\"te", "back\\sl", "new\\x0aline",
			"ctl\\x01\\x1b\\x7f", "caf\xc3\xa9-\xe6\x97\xa5",
			"bad" FFFD FFFD, "cut" FFFD FFFD, "amp&lt\\x3b",
			"ls\xe2\x80\xa8",
		};
		char *cmd;
		size_t n = 0;

		for (size_t i = 0; i < NNAMES; i++)
			n += 2 * strlen(shown[i]) + 2;
		cmd = malloc(n + 256);
		n = (size_t)sprintf(cmd, "python3 %s/tests/unit/check_outputs.py svg %s",
				    LT_TOP, path);
		for (size_t i = 0; i < NNAMES; i++) {
			argv_hex[i] = hex_of(shown[i], strlen(shown[i]));
			n += (size_t)sprintf(cmd + n, " %s", argv_hex[i]);
		}
		fflush(stdout);
		rc = system(cmd);
		free(cmd);
	}
	tap_ok(rc == 0, "svg: well-formed XML and UTF-8 (Python), every name shown as a frame and as a comm");
	for (size_t i = 0; i < NNAMES; i++)
		free(argv_hex[i]);
	out = open_memstream(&text, &len);
	lt_flamesvg_write(out, &f, &so);
	fclose(out);
	tap_ok(strstr(text, "<title>t" FFFD "&lt;&amp;&gt;&quot;itle</title>") != NULL,
	       "svg: the title escaped");
	tap_ok(strstr(text, "data-n=\"all\"") && strstr(text, "<script>") &&
	       !strstr(text, "http://www.w3.org/1999") && !strstr(text, "src="),
	       "svg: a root frame, an inline script, nothing loaded from elsewhere");
	free(text);
	lt_folded_free(&f);
	lt_samples_free(&s);
	unlink(path);
}

/* The widths: a frame of weight w is w / total of the inner width. */
static void test_svg_layout(void)
{
	struct lt_samples s = { 0 };
	struct lt_fold_opts o = { 0 };
	struct lt_flamesvg_opts so = { "t", NULL };
	struct lt_folded f;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	add(&s, "ts=1 tracker=offcpu cause=threshold delay=750 pid=1 tgid=1 comm=c stack=b;a");
	add(&s, "ts=1 tracker=offcpu cause=threshold delay=250 pid=1 tgid=1 comm=c stack=x;a");
	add(&s, "ts=1 tracker=offcpu cause=threshold delay=1000 pid=1 tgid=1 comm=d stack=y");
	lt_fold(&s, &o, &f);
	out = open_memstream(&text, &len);
	lt_flamesvg_write(out, &f, &so);
	fclose(out);
	/* 1180 px inside: c = 590, a = 590 (shared), b = 442.5, x = 147.5 */
	tap_ok(strstr(text, "data-x=\"0\" data-w=\"2000\" data-d=\"0\" data-n=\"all\"") &&
	       strstr(text, "data-x=\"0\" data-w=\"1000\" data-d=\"1\" data-n=\"c\"") &&
	       strstr(text, "data-x=\"0\" data-w=\"1000\" data-d=\"2\" data-n=\"a\"") &&
	       strstr(text, "data-x=\"0\" data-w=\"750\" data-d=\"3\" data-n=\"b\"") &&
	       strstr(text, "data-x=\"750\" data-w=\"250\" data-d=\"3\" data-n=\"x\"") &&
	       strstr(text, "data-x=\"1000\" data-w=\"1000\" data-d=\"1\" data-n=\"d\""),
	       "svg: one frame per node, merged where stacks share a path");
	tap_ok(strstr(text, "width=\"442.50\"") && strstr(text, "x=\"452.50\" y=\"70\" width=\"147.50\""),
	       "svg: widths proportional to the weights");
	free(text);
	lt_folded_free(&f);
	lt_samples_free(&s);
}

static int count_cb(void *arg, const struct lt_record *r)
{
	struct lt_samples *s = arg;

	return lt_samples_add(s, r);
}

static void test_logread(void)
{
	static const char log[] =
		"{\"time\":\"x\",\"type\":\"start\"}\n"
		"{\"time\":\"x\",\"type\":\"alert\",\"ts\":18446744073709551615,\"tracker\":\"offcpu\",\"cause\":\"threshold\",\"delay\":700,\"pid\":5,\"tgid\":4,\"comm\":\"a\\udcffb\\u00e9\",\"cpu\":-1,\"stack\":\"f;g\",\"action\":\"snapshot\"}\n"
		"\n"
		"{\"type\":\"snapshot\",\"alert\":{\"ts\":1,\"tracker\":\"offcpu\",\"cause\":\"threshold\",\"delay\":700}}\n"
		"{\"type\":\"lost\",\"ts\":2,\"tracker\":\"offcpu\",\"cause\":\"lost\",\"count\":9}\n"
		"ts=3 tracker=syscalls cause=timeout delay=8 pid=1 tgid=1 comm=x nr=3 stack=s\n"
		"{\"type\":\"alert\",\"ts\":4,\"tracker\":\"offcpu\",\"cause\":\"threshold\"}\n"
		"{\"type\":\"alert\",\"ts\":4,\"tracker\":\"offcpu\",\"cause\":\"bogus\",\"delay\":1}\n"
		"{\"type\":\"alert\",\"ts\":-4,\"tracker\":\"offcpu\",\"cause\":\"threshold\",\"delay\":1}\n"
		"{\"type\":\"alert\",\"ts\":4,\"tracker\":\"offc\n"
		"{\"type\":\"alert\"} trailing\n"
		"[1,2]\n"
		"not json at all\n"
		"{\"type\":\"malformed\",\"tracker\":\"offcpu\",\"error\":\"x\",\"line\":\"y\"}\n"
		"{'type':'alert'}\n";
	struct lt_logread_stats st;
	struct lt_samples s = { 0 };
	FILE *in = fmemopen((void *)log, sizeof(log) - 1, "r");
	int ret = lt_logread(in, count_cb, &s, &st);

	fclose(in);
	tap_ok(ret == 0 && st.lines == 15 && st.records == 3,
	       "log: alert, lost and alert-line records read, others skipped");
	tap_eq(st.malformed, 9, "log: malformed lines counted (missing delay, bad cause, bad ts, cut, trailing text, not an object, not JSON, type malformed, not strict JSON)");
	tap_ok(st.first_bad == 7 && st.first_why && strstr(st.first_why, "delay"),
	       "log: the first malformed line and why");
	tap_ok(s.n == 2 && s.v[0].ts == UINT64_MAX && s.v[0].delay == 700 &&
	       s.v[0].pid == 5 && s.v[0].tgid == 4 && !strcmp(s.v[0].stack, "f;g"),
	       "log: the alert's fields, numbers (u64 too) as text");
	tap_ok(s.n == 2 && !strcmp(s.v[0].comm, "a" FFFD "b\xc3\xa9"),
	       "log: strings decoded (a byte written as a lone surrogate: U+FFFD)");
	tap_ok(s.n == 2 && !strcmp(s.v[1].tracker, "syscalls") && s.v[1].delay == 8 &&
	       s.lost_lines == 1 && s.lost_records == 9,
	       "log: alert lines of the kernel's text, lost records counted");
	lt_samples_free(&s);
}

int main(void)
{
	tap_plan(36);
	test_fold();
	test_xml();
	test_svg();
	test_svg_layout();
	test_logread();
	return tap_done();
}
