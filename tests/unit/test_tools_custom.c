// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_custom.c - host tests of tools/lib/lt_custom.c, the one parser
 * of custom trackers' definitions: good definitions and their canonical
 * kernel line (times in ns) and human form, read back; every kind of bad
 * input refused with the field named; what "the same definition" means
 * (fn= against its in=/out= spelling, the defaults); the
 * kernel's listing read from a fake root's custom file; the lines written
 * to it; the kernel's errors in words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt_custom.h"
#include "tap.h"

#define N(a)	(sizeof(a) / sizeof((a)[0]))

struct good_case {
	const char *name, *text;
	const char *kernel;	/* the canonical line */
	const char *human;	/* the human form */
};

static const struct good_case good[] = {
	{ "slowsync", "fn=vfs_fsync threshold=10ms",
	  "slowsync fn=vfs_fsync threshold=10000000",
	  "fn=vfs_fsync threshold=10ms" },
	{ "blk", "in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2ms stack=1",
	  "blk in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2000000 stack=1",
	  "in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2ms stack=1" },
	/* Any order, blanks and tabs: the grammar's order back. */
	{ "x", "  threshold=1.5ms\tkey=tgid   fn=do_sys_openat2 ",
	  "x fn=do_sys_openat2 key=tgid threshold=1500000",
	  "fn=do_sys_openat2 key=tgid threshold=1.5ms" },
	{ "mu", "fn=f threshold=5\xc2\xb5s", "mu fn=f threshold=5000",
	  "fn=f threshold=5us" },
	{ "bare", "fn=f threshold=2500", "bare fn=f threshold=2500",
	  "fn=f threshold=2.5us" },
	{ "ends", "in=kprobe:f out=kretprobe:f in_key=arg2+0x18 out_key=ret timeout=1s max_events=8192",
	  "ends in=kprobe:f out=kretprobe:f in_key=arg2+24 out_key=ret timeout=1000000000 max_events=8192",
	  "in=kprobe:f out=kretprobe:f in_key=arg2+0x18 out_key=ret timeout=1s max_events=8192" },
	{ "tp_pair", "in=tp:sched:sched_waking out=tp:sched:sched_switch key=tid",
	  "tp_pair in=tp:sched:sched_waking out=tp:sched:sched_switch key=tid",
	  "in=tp:sched:sched_waking out=tp:sched:sched_switch key=tid" },
	{ "same_keys", "in=kprobe:a out=kprobe:b in_key=tgid out_key=tgid",
	  "same_keys in=kprobe:a out=kprobe:b key=tgid",
	  "in=kprobe:a out=kprobe:b key=tgid" },
	{ "off", "fn=f timeout=off stack=on", "off fn=f timeout=0 stack=1",
	  "fn=f timeout=off stack=1" },
	{ "isra", "fn=ext4_sync_file.isra.0 max_events=1",
	  "isra fn=ext4_sync_file.isra.0 max_events=1",
	  "fn=ext4_sync_file.isra.0 max_events=1" },
	{ "a23456789_123456789_123456789_12", "in=tp:9p:p9_client_req out=kprobe:x in_key=tid out_key=arg6+2147483647",
	  "a23456789_123456789_123456789_12 in=tp:9p:p9_client_req out=kprobe:x in_key=tid out_key=arg6+2147483647",
	  "in=tp:9p:p9_client_req out=kprobe:x in_key=tid out_key=arg6+0x7fffffff" },
	/* An application tracker: app first, numbers only. */
	{ "checkout", "app threshold=20ms timeout=1s",
	  "checkout app threshold=20000000 timeout=1000000000",
	  "app threshold=20ms timeout=1s" },
	{ "req", " app\tmax_events=100", "req app max_events=100",
	  "app max_events=100" },
};

struct bad_case {
	const char *name, *text;
	const char *msg;	/* in the reason */
};

static const struct bad_case bad[] = {
	{ "Slow", "fn=f", "'Slow' is not a tracker name" },
	{ "1abc", "fn=f", "is not a tracker name" },
	{ "a-b", "fn=f", "is not a tracker name" },
	{ "a23456789_123456789_123456789_123", "fn=f", "is not a tracker name" },
	{ "", "fn=f", "no tracker name" },
	{ "wakeup", "fn=f", "'wakeup' is reserved" },
	{ "custom", "fn=f", "'custom' is reserved" },
	{ "del", "fn=f", "'del' is reserved" },
	{ "netrx", "fn=f", "'netrx' is reserved" },
	{ "t", "fn=vfs_fsync threshold=10xs", "threshold=10xs: not a duration" },
	{ "t", "fn=vfs_fsync threshold=0", "threshold=0: out of range" },
	{ "t", "fn=vfs_fsync threshold=1001s", "threshold=1001s: out of range (1ns..1000s)" },
	{ "t", "fn=vfs_fsync timeout=500us", "timeout=500us: out of range" },
	{ "t", "fn=vfs_fsync timeout=never", "timeout=never: not a duration" },
	{ "t", "fn=vfs_fsync bogus=1", "'bogus=': no such field" },
	{ "t", "fn=vfs_fsync fn=x", "fn= given twice" },
	{ "t", "fn=vfs_fsync threshold", "'threshold': not field=value" },
	{ "t", "fn=vfs_fsync threshold=", "threshold=: no value" },
	{ "t", "fn=vfs_fsync key=arg1", "key=arg1: fn= is keyed by the calling task" },
	{ "t", "fn=vfs_fsync key=ret", "key=ret: fn= is keyed by the calling task" },
	{ "t", "fn=vfs_fsync in=kprobe:x", "fn= and in= together" },
	{ "t", "fn=vfs_fsync in_key=tid", "fn= and in_key= together" },
	{ "t", "fn=1abc", "fn=1abc: not a kernel function name" },
	{ "t", "fn=a/b", "not a kernel function name" },
	{ "t", "in=kprobe:a", "no out=" },
	{ "t", "out=kprobe:a key=tid", "no in=" },
	{ "t", "", "no fn= nor in=/out=" },
	{ "t", "threshold=1ms", "no fn= nor in=/out=" },
	{ "t", "in=kprobe:a out=kprobe:b", "no key=" },
	{ "t", "in=kprobe:a out=kprobe:b in_key=tid", "no out_key=" },
	{ "t", "in=kprobe:a out=kprobe:b out_key=tid", "no in_key=" },
	{ "t", "in=kprobe:a out=kprobe:b key=tid in_key=tid", "key= and in_key= together" },
	{ "t", "in=uprobe:a out=kprobe:b key=tid", "in=uprobe:a: not kprobe:FUNC, kretprobe:FUNC or tp:SYSTEM:EVENT" },
	{ "t", "in=kprobe: out=kprobe:b key=tid", "is not a kernel function name" },
	{ "t", "in=tp:sched out=kprobe:b key=tid", "in=tp:sched: not tp:SYSTEM:EVENT" },
	{ "t", "in=tp:sched:sched-switch out=kprobe:b key=tid", "not tp:SYSTEM:EVENT" },
	{ "t", "in=kprobe:a out=tp:latency_tracker:custom key=tid",
	  "out=tp:latency_tracker:custom: the trackers' own events cannot be an end" },
	{ "t", "in=tp:sched:sched_switch out=kprobe:b key=arg1",
	  "key=arg1: function arguments are read at a kprobe end; the in end is a tracepoint" },
	{ "t", "in=kprobe:a out=kretprobe:a key=arg1",
	  "key=arg1: function arguments are read at a kprobe end; the out end is a kretprobe" },
	{ "t", "in=kprobe:a out=kretprobe:a key=ret",
	  "key=ret: a return value is read at a kretprobe end; the in end is a kprobe" },
	{ "t", "in=kprobe:a out=tp:x:y in_key=arg1 out_key=ret",
	  "out_key=ret: a return value is read at a kretprobe end; the out end is a tracepoint" },
	{ "t", "in=kprobe:a out=kprobe:b key=arg7", "key=arg7: not a key" },
	{ "t", "in=kprobe:a out=kprobe:b key=arg0", "key=arg0: not a key" },
	{ "t", "in=kprobe:a out=kprobe:b key=pid", "key=pid: not a key" },
	{ "t", "in=kprobe:a out=kprobe:b key=arg1+0xzz", "key=arg1+0xzz: the offset" },
	{ "t", "in=kprobe:a out=kprobe:b key=arg1+", "key=arg1+: the offset" },
	{ "t", "in=kprobe:a out=kprobe:b key=arg1-8", "key=arg1-8: not a key" },
	{ "t", "in=kprobe:a out=kprobe:b key=arg1+2147483648", "the offset is not a decimal or 0x hex number of bytes up to 2147483647" },
	{ "t", "fn=a max_events=0", "max_events=0: not a whole number in 1..4194304" },
	{ "t", "fn=a max_events=4194305", "max_events=4194305: not a whole number" },
	{ "t", "fn=a max_events=4K", "max_events=4K: not a whole number" },
	{ "t", "fn=a stack=2", "stack=2: not 0/1" },
	{ "app", "fn=f", "'app' is reserved" },
	{ "t", "app fn=f", "app and fn= together" },
	{ "t", "app threshold=1ms stack=1", "app and stack= together" },
	{ "t", "threshold=1ms app", "'app': not field=value (app comes first)" },
	{ "t", "app app", "'app': not field=value (app comes first)" },
	{ "t", "app threshold=0", "threshold=0: out of range" },
};

static void test_good(void)
{
	for (size_t i = 0; i < N(good); i++) {
		struct lt_custom_def d, back;
		char why[256] = "", line[LT_CUSTOM_LINE_MAX], human[LT_CUSTOM_LINE_MAX];
		int ret = lt_custom_parse(good[i].name, good[i].text, &d, why,
					  sizeof(why));

		lt_custom_format(&d, LT_CUSTOM_FMT_KERNEL, line, sizeof(line));
		lt_custom_format(&d, LT_CUSTOM_FMT_HUMAN, human, sizeof(human));
		tap_ok(!ret && !strcmp(line, good[i].kernel),
		       "%s '%s': the kernel line '%s' (got '%s'%s%s)", good[i].name,
		       good[i].text, good[i].kernel, line, *why ? ": " : "", why);
		tap_ok(!strcmp(human, good[i].human), "%s: the human form '%s' (got '%s')",
		       good[i].name, good[i].human, human);
		tap_ok(!lt_custom_parse_line(line, &back, why, sizeof(why)) &&
		       lt_custom_same(&d, &back) && lt_custom_same(&back, &d),
		       "%s: the kernel line reads back as the same definition", good[i].name);
		tap_ok(!lt_custom_parse(good[i].name, human, &back, why, sizeof(why)) &&
		       lt_custom_same(&d, &back),
		       "%s: the human form reads back as the same definition", good[i].name);
	}
}

static void test_bad(void)
{
	for (size_t i = 0; i < N(bad); i++) {
		struct lt_custom_def d;
		char why[512] = "";
		int ret = lt_custom_parse(bad[i].name, bad[i].text, &d, why,
					  sizeof(why));

		tap_ok(ret == -1 && strstr(why, bad[i].msg) && !strchr(why, '\n'),
		       "%s '%s' refused: '%s' (got '%s')", bad[i].name, bad[i].text,
		       bad[i].msg, why);
	}
}

struct same_case {
	const char *want, *have;
	bool same;
};

static const struct same_case sames[] = {
	{ "t fn=vfs_fsync threshold=10ms",
	  "t fn=vfs_fsync key=tid threshold=10000000 timeout=0 max_events=4096 stack=0", true },
	{ "t fn=vfs_fsync threshold=10ms",
	  "t in=kprobe:vfs_fsync out=kretprobe:vfs_fsync key=tid threshold=10000000", true },
	/* The module lists every field; a default one is its default. */
	{ "t fn=vfs_fsync", "t fn=vfs_fsync key=tid threshold=1000000 timeout=0 max_events=4096 stack=0", true },
	{ "t in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2ms stack=1",
	  "t in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2000000 timeout=0 max_events=4096 stack=1", true },
	{ "t fn=vfs_fsync", "t fn=vfs_fsync threshold=5", false },
	{ "t fn=vfs_fsync threshold=1ms", "t fn=vfs_fsync", true },
	{ "t fn=vfs_fsync threshold=10ms", "t fn=vfs_fsync threshold=5000000", false },
	{ "t fn=vfs_fsync threshold=10ms", "t fn=vfs_fsync", false },
	{ "t fn=vfs_fsync key=tgid", "t fn=vfs_fsync", false },
	{ "t fn=vfs_fsync key=tid", "t fn=vfs_fsync", true },
	{ "t fn=vfs_fsync", "t fn=vfs_read", false },
	{ "t fn=vfs_fsync stack=1", "t fn=vfs_fsync", false },
	{ "t fn=vfs_fsync max_events=8192", "t fn=vfs_fsync", false },
	{ "t fn=vfs_fsync timeout=1s", "t fn=vfs_fsync timeout=1000000000", true },
	{ "t fn=vfs_fsync timeout=1s", "t fn=vfs_fsync", false },
	{ "t in=kprobe:a out=kprobe:b key=arg1", "t in=kprobe:a out=kprobe:b in_key=arg1 out_key=arg1", true },
	{ "t in=kprobe:a out=kprobe:b key=arg1+0x10", "t in=kprobe:a out=kprobe:b key=arg1+16", true },
	{ "t in=kprobe:a out=kprobe:b key=arg1", "t in=kprobe:a out=kprobe:b key=arg1+0", false },
	{ "t in=kprobe:a out=kprobe:b key=arg1", "t in=kprobe:a out=kprobe:b key=arg2", false },
	{ "t in=kprobe:a out=kprobe:b key=tid", "t in=kprobe:a out=kretprobe:b key=tid", false },
	{ "t fn=a", "u fn=a", false },
	/* An application tracker's defaults: 10 ms, 65536 (the module's). */
	{ "t app", "t app threshold=10000000 timeout=0 max_events=65536", true },
	{ "t app threshold=1ms", "t app threshold=1000000 timeout=0 max_events=65536", true },
	{ "t app", "t app threshold=1000000 timeout=0 max_events=65536", false },
	{ "t app", "t app threshold=10000000 timeout=0 max_events=4096", false },
	{ "t app threshold=1ms", "t fn=t threshold=1ms", false },
};

static void test_same(void)
{
	for (size_t i = 0; i < N(sames); i++) {
		struct lt_custom_def w, h;
		char why[256] = "";
		bool ok = !lt_custom_parse_line(sames[i].want, &w, why, sizeof(why)) &&
			  !lt_custom_parse_line(sames[i].have, &h, why, sizeof(why));

		tap_ok(ok && lt_custom_same(&w, &h) == sames[i].same,
		       "'%s' %s live '%s'%s%s", sames[i].want,
		       sames[i].same ? "is" : "is not", sames[i].have,
		       *why ? ": " : "", why);
	}
}

static char root[] = "/tmp/lt_custom_XXXXXX";

static void put_named(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void put_file(const char *text)
{
	put_named("custom", text);
}

static void get_named(const char *name, char *buf, size_t size)
{
	char path[256];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

static void get_file(char *buf, size_t size)
{
	get_named("custom", buf, size);
}

static void get_app(char *buf, size_t size)
{
	get_named("app", buf, size);
}

static void put_app(const char *text)
{
	put_named("app", text);
}

static void test_file(void)
{
	struct lt_custom_listed *v = NULL;
	const struct lt_custom_listed *e;
	struct lt_custom_def d;
	char path[256], buf[1024], why[256];
	int n;

	if (!mkdtemp(root)) {
		tap_ok(0, "mkdtemp");
		return;
	}
	setenv("LT_PROC_ROOT", root, 1);
	n = lt_custom_list(&v);
	tap_ok(n == -ENOENT && !v, "no custom file: -ENOENT (module not loaded)");
	tap_eq(lt_custom_del("x"), -ENODEV, "no custom file: a write says -ENODEV, not -ENOENT");
	put_file("");
	n = lt_custom_list(&v);
	tap_ok(n == 0 && v, "an empty custom file: no tracker");
	free(v);
	put_file("slowsync fn=vfs_fsync key=tid threshold=10000000 timeout=0 max_events=4096 stack=0\n"
		 "\n"
		 "blk in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2000000\n"
		 "newer fn=x threshold=1 colour=blue\n");
	n = lt_custom_list(&v);
	tap_eq(n, 3, "the listing: three trackers, the blank line skipped");
	e = lt_custom_find(v, n, "slowsync");
	lt_custom_parse("slowsync", "fn=vfs_fsync threshold=10ms", &d, why, sizeof(why));
	tap_ok(e && e->parsed && lt_custom_same(&d, &e->def) &&
	       !strcmp(e->text, "fn=vfs_fsync key=tid threshold=10000000 timeout=0 max_events=4096 stack=0"),
	       "slowsync listed: its text without the name, parsed, the same as declared");
	e = lt_custom_find(v, n, "newer");
	tap_ok(e && !e->parsed && !strcmp(e->text, "fn=x threshold=1 colour=blue"),
	       "a field these tools do not know: listed, its text kept, not parsed");
	tap_ok(lt_custom_find(v, n, "blk") && !lt_custom_find(v, n, "nosuch"),
	       "lt_custom_find");
	free(v);
	put_app("checkout app threshold=20000000 timeout=0 max_events=4096\n");
	n = lt_custom_list(&v);
	e = lt_custom_find(v, n, "checkout");
	tap_ok(n == 4 && e && e->parsed && e->def.app,
	       "the app file's trackers listed after the custom file's");
	free(v);
	lt_custom_parse("checkout", "app threshold=20ms", &d, why, sizeof(why));
	tap_eq(lt_custom_add(&d), 0, "add of an application tracker: written");
	get_app(buf, sizeof(buf));
	if (!tap_ok(!strcmp(buf, "checkout app threshold=20000000\n"),
		    "... to the app file"))
		tap_diag("got '%s'", buf);

	lt_custom_parse("blk", "in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2ms stack=1",
			&d, why, sizeof(why));
	tap_eq(lt_custom_add(&d), 0, "add: written");
	get_file(buf, sizeof(buf));
	if (!tap_ok(!strcmp(buf, "blk in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2000000 stack=1\n"),
		    "add: the canonical line and a newline, one write"))
		tap_diag("got '%s'", buf);
	tap_eq(lt_custom_del("blk"), 0, "del: written");
	get_file(buf, sizeof(buf));
	if (!tap_ok(!strcmp(buf, "del blk\n"), "del: 'del NAME' and a newline"))
		tap_diag("got '%s'", buf);

	/* The kernel's refusal reaches the caller as -errno. */
	snprintf(path, sizeof(path), "%s/custom", root);
	unlink(path);
	if (symlink("/dev/full", path))
		tap_diag("symlink: %s", strerror(errno));
	tap_eq(lt_custom_add(&d), -ENOSPC, "a refused write returns the write's -errno (/dev/full: -ENOSPC)");
	unlink(path);
	snprintf(path, sizeof(path), "%s/app", root);
	unlink(path);
	rmdir(root);
}

static void test_strerror(void)
{
	tap_ok(strstr(lt_custom_strerror(-ENOENT, false), "no such function or tracepoint") &&
	       strstr(lt_custom_strerror(-ENOENT, true), "no custom tracker"),
	       "ENOENT: an unknown function for add, an unknown tracker for del");
	tap_ok(strstr(lt_custom_strerror(-EINVAL, false), "kprobes cannot probe") &&
	       strstr(lt_custom_strerror(-EINVAL, false), "dmesg"),
	       "EINVAL: kprobes refused it or a bad field; dmesg has the reason");
	tap_ok(strstr(lt_custom_strerror(-EEXIST, false), "in use") &&
	       strstr(lt_custom_strerror(-EEXIST, false), "reserved"),
	       "EEXIST: a name in use or reserved");
	tap_ok(strstr(lt_custom_strerror(-ENOSPC, false), "64 custom trackers") != NULL,
	       "ENOSPC: the 64 trackers");
	tap_ok(strstr(lt_custom_strerror(-ENODEV, false), "latency_tracker_custom is not loaded (latency_tracker_app, for an application tracker") != NULL,
	       "ENODEV: the module is not loaded");
}

static void test_fields(void)
{
	static const char *const want[] = {
		"fn", "in", "out", "key", "in_key", "out_key", "threshold",
		"timeout", "max_events", "stack",
	};
	size_t i;
	bool ok = true;

	for (i = 0; lt_custom_field_name(i); i++)
		ok &= i < N(want) && !strcmp(lt_custom_field_name(i), want[i]);
	tap_ok(ok && i == N(want), "the contract's ten fields, in its order");
}

int main(void)
{
	tap_plan((int)(4 * N(good) + N(bad) + N(sames)) + 15 + 5 + 1);
	test_good();
	test_bad();
	test_same();
	test_file();
	test_strerror();
	test_fields();
	return tap_done();
}
