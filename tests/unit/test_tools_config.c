// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_config.c - host tests of tools/daemon/daemon_config.c: defaults,
 * config file, command line precedence, and every error naming the file,
 * the line and the key; custom.NAME declarations of custom trackers and
 * the trackers list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"
#include "tap.h"

static char conf[] = "/tmp/lt-conf-XXXXXX";

static void write_conf(const char *text)
{
	FILE *f = fopen(conf, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Load with --config <conf> plus extra args. */
static int load(struct ltd_config *c, char *err, size_t errlen, int nextra,
		char **extra)
{
	char *argv[16] = { "latency-trackerd", "--config", conf };
	bool check;
	int i;

	for (i = 0; i < nextra; i++)
		argv[3 + i] = extra[i];
	return ltd_config_load(3 + nextra, argv, c, &check, err, errlen);
}

static void test_good(void)
{
	struct ltd_config c;
	char err[1024] = "";
	char *over[] = { "--rate-limit", "250ms", "--max-bytes=2G" };

	write_conf("# comment\n\noutput = /var/tmp/snaps\nrate-limit=2s\n"
		   "  max-snapshots = 5  \nsnapshot = on\nsubbuf-size = 1M\n"
		   "trackers = wakeup,offcpu\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0, "file loads: %s", err);
	tap_ok(!strcmp(c.output, "/var/tmp/snaps") && c.output_set, "output");
	tap_eq(c.rate_limit_ns, 2000000000, "rate-limit from the file");
	tap_eq(c.max_snapshots, 5, "max-snapshots, blanks trimmed");
	tap_eq(c.subbuf_size, 1 << 20, "subbuf-size 1M");
	tap_ok(!strcmp(c.trackers, "wakeup,offcpu"), "trackers");
	tap_ok(!strcmp(c.session_name, "latency-trackerd"), "default session-name");
	tap_eq(c.num_subbuf, 4, "default num-subbuf");
	tap_ok(c.metrics_bucket_min_ns == 1000 && c.metrics_bucket_max_ns == 10000000000ULL &&
	       c.metrics_bucket_step == 4, "default metrics buckets: 1us to 10s, x4");
	tap_ok(load(&c, err, sizeof(err), 3, over) == 0, "with overrides: %s", err);
	tap_eq(c.rate_limit_ns, 250000000, "command line wins (--key value)");
	tap_eq(c.max_bytes, 2ULL << 30, "--key=value form");
	write_conf("rate-limit = 3s  # three seconds\nsession-name = a#b\t# one\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0 && c.rate_limit_ns == 3000000000ULL &&
	       !strcmp(c.session_name, "a#b"),
	       "a comment after a value, from a '#' after a blank: %s", err);
	write_conf("output = net://127.0.0.1\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0 && ltd_output_is_net(&c),
	       "net:// output");
}

struct bad_case {
	const char *text;
	const char *msg;	/* expected in the error */
};

static const struct bad_case bad[] = {
	{ "rate-limit = 2x\n", ":1: rate-limit: '2x' is not a duration" },
	{ "\n# x\nbogus = 1\n", ":3: unknown key 'bogus'" },
	{ "output\n", ":1: expected 'key = value'" },
	{ "output = relative/dir\n", ":1: output:" },
	{ "output = net://\n", ":1: output: 'net://' has no host" },
	{ "snapshot = maybe\n", ":1: snapshot: 'maybe' is not on/off" },
	{ "max-bytes = 10Q\n", ":1: max-bytes:" },
	{ "max-snapshots = -1\n", ":1: max-snapshots:" },
	{ "subbuf-size = 3000\n", ":1: subbuf-size: 3000 is not a power of 2" },
	{ "num-subbuf = 3\n", ":1: num-subbuf:" },
	{ "retry-interval = 1ms\n", ":1: retry-interval: must be at least 100ms" },
	{ "session-name = a/b\n", ":1: session-name:" },
	{ "proc-root = proc\n", ":1: proc-root:" },
	{ "log =\n", ":1: log: empty" },
	{ "trackers = wakeup,a/b\n", ":1: trackers: 'a/b' is not a tracker name" },
	{ "custom.slow = fn=vfs_fsync threshold=10xs\n",
	  ":1: custom.slow: threshold=10xs: not a duration" },
	{ "\ncustom.slow = fn=vfs_fsync key=arg1\n",
	  ":2: custom.slow: key=arg1: fn= is keyed by the calling task" },
	{ "custom.Slow = fn=vfs_fsync\n", ":1: custom.Slow: 'Slow' is not a tracker name" },
	{ "custom.block = fn=vfs_fsync\n", ":1: custom.block: 'block' is reserved" },
	{ "custom.slow =\n", ":1: custom.slow: no fn= nor in=/out=" },
	{ "custom.slow = in=tp:sched:sched_waking out=kretprobe:f key=ret\n",
	  ":1: custom.slow: key=ret: a return value is read at a kretprobe end; the in end is a tracepoint" },
	{ "custom.slow = fn=a\n\ncustom.slow = fn=b\n",
	  ":3: custom.slow: declared twice (first on line 1)" },
	{ "rate-limit = 1s\nrate-limit = 2s\n", ":2: rate-limit set twice (first on line 1)" },
	{ "metrics-bucket-step = 3\n", ":1: metrics-bucket-step: 3 is not 2, 4, 8 or 16" },
	{ "metrics-bucket-min = 0\n", ":1: metrics-bucket-min: must be 1ns.." },
	{ "metrics-bucket-min = 1s\nmetrics-bucket-max = 1ms\n",
	  ": metrics-bucket-max (1000000 ns) is below metrics-bucket-min (1000000000 ns)" },
	{ "wakeup.filter_tgid = 1\n\nwakeup.filter_tgid = 2\n",
	  ":3: wakeup.filter_tgid set twice (first on line 1)" },
};

/* --check: a filter of a tracker neither built in, declared nor loaded. */
static void test_check_trackers(void)
{
	char dir[] = "/tmp/lt-conf-root-XXXXXX", root[64], sub[96];
	char *check[] = { "--check", root };
	struct ltd_config c;
	char err[1024] = "";

	if (!mkdtemp(dir))
		return;
	snprintf(root, sizeof(root), "--proc-root=%s", dir);
	check[1] = root;
	write_conf("\nnosuch.filter_tgid = 1\n");
	tap_ok(load(&c, err, sizeof(err), 2, check) == -1 &&
	       strstr(err, ":2: nosuch.filter_tgid: no tracker 'nosuch'"),
	       "--check: a filter of no tracker refused: %s", err);
	tap_ok(load(&c, err, sizeof(err), 1, &check[1]) == 0,
	       "... accepted without --check (the tracker may come later): %s", err);
	write_conf("custom.mine = fn=vfs_read\nmine.filter_tgid = 1\nwakeup.kthreads = 1\n");
	tap_ok(load(&c, err, sizeof(err), 2, check) == 0,
	       "--check: a declared custom tracker's and a built-in's filters: %s", err);
	snprintf(sub, sizeof(sub), "%s/other", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/other/threshold", dir);
	fclose(fopen(sub, "w"));
	write_conf("other.filter_tgid = 1\n");
	tap_ok(load(&c, err, sizeof(err), 2, check) == 0,
	       "--check: a loaded tracker's filter: %s", err);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/other", dir);
	rmdir(sub);
	rmdir(dir);
}

static void test_bad(void)
{
	struct ltd_config c;
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		memset(&c, 0x5a, sizeof(c));
		write_conf(bad[i].text);
		tap_ok(load(&c, err, sizeof(err), 0, NULL) == -1 &&
		       strstr(err, conf) && strstr(err, bad[i].msg) &&
		       ((unsigned char *)&c)[0] == 0x5a,
		       "bad config refused, config untouched: %s", err);
	}
}

static void test_cmdline(void)
{
	struct ltd_config c;
	char err[1024];
	char *unknown[] = { "--frobnicate", "1" };
	char *missing[] = { "--output" };
	char *badval[] = { "--rate-limit", "soon" };
	char *stray[] = { "stray" };
	char *noconf[] = { "latency-trackerd", "--config", "/nonexistent/lt.conf" };
	bool check;

	write_conf("");
	tap_ok(load(&c, err, sizeof(err), 2, unknown) == -1 &&
	       strstr(err, "unknown option '--frobnicate'"), "unknown option: %s", err);
	tap_ok(load(&c, err, sizeof(err), 1, missing) == -1 &&
	       strstr(err, "--output: missing value"), "missing value: %s", err);
	tap_ok(load(&c, err, sizeof(err), 2, badval) == -1 &&
	       strstr(err, "--rate-limit: 'soon'"), "bad value: %s", err);
	tap_ok(load(&c, err, sizeof(err), 1, stray) == -1 &&
	       strstr(err, "unexpected argument 'stray'"), "stray argument: %s", err);
	tap_ok(ltd_config_load(3, noconf, &c, &check, err, sizeof(err)) == -1 &&
	       strstr(err, "/nonexistent/lt.conf"),
	       "explicit missing config file is an error: %s", err);
}

/* <tracker>.<filter> = value: per-tracker filters, checked, replaced. */
static void test_filters(void)
{
	struct ltd_config c;
	char err[1024] = "";
	char *over[] = { "--offcpu.filter_tgid=7 8" };
	char *bad[] = { "--offcpu.filter_tgid=x" };

	write_conf("offcpu.filter_cgroup = system.slice/foo.service\n"
		   "offcpu.kthreads = off\nblock.filter_dev = 8:0, 8:16\n"
		   "offcpu.filter_tgid = 1\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0, "filters load: %s", err);
	tap_eq(c.nr_filters, 4, "four filter settings");
	tap_ok(!strcmp(c.filters[0].tracker, "offcpu") &&
	       !strcmp(c.filters[0].knob, "filter_cgroup") &&
	       !strcmp(c.filters[0].value, "/system.slice/foo.service"),
	       "a cgroup path from the root gets its '/': %s", c.filters[0].value);
	tap_ok(!strcmp(c.filters[1].value, "0"), "kthreads off -> 0");
	tap_ok(!strcmp(c.filters[2].value, "8:0,8:16"), "devices as a list: %s",
	       c.filters[2].value);
	tap_ok(load(&c, err, sizeof(err), 1, over) == 0 && c.nr_filters == 4 &&
	       !strcmp(c.filters[3].value, "7,8"),
	       "the command line replaces a filter: %s", c.filters[3].value);
	tap_ok(load(&c, err, sizeof(err), 1, bad) == -1 &&
	       strstr(err, "bad filter_tgid item 'x'"), "bad command line filter: %s", err);
	write_conf("offcpu.filter_dev = 8\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == -1 &&
	       strstr(err, ":1: bad filter_dev item '8'"), "bad filter names the line: %s", err);
	write_conf("offcpu.filter_nope = 1\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == -1 &&
	       strstr(err, "unknown key 'offcpu.filter_nope'"), "unknown filter: %s", err);
}

/* custom.NAME = definition: checked by lt_custom.h's parser, kept parsed. */
static void test_custom(void)
{
	struct ltd_config c;
	char err[1024] = "", line[LT_CUSTOM_LINE_MAX];
	char *over[] = { "--custom.slow=fn=vfs_fsync threshold=1ms" };
	char *more[] = { "--custom.blk", "in=kprobe:a out=kprobe:b key=arg1" };
	char *bad_cl[] = { "--custom.x=fn=a stack=2" };
	char text[LT_CUSTOM_MAX * 48 + 64];
	size_t len = 0;

	write_conf("custom.slow = fn=vfs_fsync threshold=10ms\n"
		   "custom.reads =   in=kprobe:vfs_read  out=kretprobe:vfs_read\tkey=tid stack=1\n"
		   "slow.filter_tgid = 12\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0, "custom trackers load: %s", err);
	tap_ok(c.nr_custom == 2 && c.custom[0].line == 1 && c.custom[1].line == 2 &&
	       !strcmp(lt_custom_format(&c.custom[0].def, LT_CUSTOM_FMT_KERNEL, line,
					sizeof(line)), "slow fn=vfs_fsync threshold=10000000"),
	       "custom.slow: its kernel line, times in ns (%s)", line);
	tap_ok(!strcmp(lt_custom_format(&c.custom[1].def, LT_CUSTOM_FMT_KERNEL, line,
					sizeof(line)),
		       "reads in=kprobe:vfs_read out=kretprobe:vfs_read key=tid stack=1"),
	       "custom.reads: blanks and tabs between fields (%s)", line);
	tap_ok(c.nr_filters == 1 && !strcmp(c.filters[0].tracker, "slow"),
	       "a custom tracker's filter is a filter");
	tap_ok(load(&c, err, sizeof(err), 1, over) == 0 && c.nr_custom == 2 &&
	       c.custom[0].def.threshold_ns == 1000000 && !c.custom[0].line,
	       "--custom.NAME=DEFINITION replaces the file's: %s", err);
	tap_ok(load(&c, err, sizeof(err), 2, more) == 0 && c.nr_custom == 3 &&
	       !strcmp(c.custom[2].def.name, "blk"),
	       "--custom.NAME DEFINITION adds one: %s", err);
	tap_ok(load(&c, err, sizeof(err), 1, bad_cl) == -1 &&
	       strstr(err, "--custom.x: stack=2: not 0/1"),
	       "a bad definition on the command line: %s", err);
	/* 64 custom trackers, then one more. */
	for (int i = 0; i <= LT_CUSTOM_MAX; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"custom.t%d = fn=f%d\n", i, i);
	write_conf(text);
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == -1 &&
	       strstr(err, ":65: custom.t64: more than 64 custom trackers"),
	       "65 custom trackers refused: %s", err);
	text[strlen(text) - strlen("custom.t64 = fn=f64\n")] = '\0';
	write_conf(text);
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0 && c.nr_custom == LT_CUSTOM_MAX,
	       "64 custom trackers: %s", err);
}

int main(void)
{
	int fd = mkstemp(conf);

	tap_plan(40 + 8 + 9 + 1 + 2 + 4 + 4);
	if (fd < 0)
		return 1;
	close(fd);
	test_good();
	test_bad();
	test_cmdline();
	test_filters();
	test_custom();
	test_check_trackers();
	unlink(conf);
	return tap_done();
}
