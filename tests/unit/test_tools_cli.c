// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_cli.c - the latency-tracker CLI (tools/cli) run in-process, in
 * a child each time, on a fake proc root ($LT_PROC_ROOT): --version and
 * --help of every subcommand (and the man page naming every option, knob,
 * record type and exit status); the --json outputs of list, get, stats,
 * hist and follow, read back by Python with names of every kind of byte
 * (tools_out.h); hist's percentiles (tools/lib/lt_pct.c); the warning for a
 * bare number below 1 us; EACCES reported from the open itself; the
 * record-format check (/proc/latency_tracker/version) in the CLI and in
 * lt_watch, the path latency-trackerd follows the alerts with; custom
 * trackers: add (checked before anything is written, the kernel's line
 * written to the fake root's custom file, the refusals and their exit
 * statuses), del, and list with their definitions.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "ex_alerts.h"
#include "explain.h"
#include "lt_custom.h"
#include "lt_pct.h"
#include "lt_proc.h"
#include "lt_version.h"
#include "lt_watch.h"
#include "tap.h"
#include "tools_out.h"

/* The CLI's explain and timeline subcommands need libbabeltrace2: not
 * tested here (timeline: test_explain_timeline). */
int lt_explain_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int lt_timeline_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* flamegraph's snapshot reader needs libbabeltrace2: not linked here
 * (tests/tools/cli-flamegraph.sh reads a snapshot with the real CLI). */
int ex_alerts_read(const char *path,
		   void (*fn)(void *arg, const struct lt_record *r), void *arg,
		   struct ex_alerts_stats *st, char *err, size_t errlen)
{
	(void)fn;
	(void)arg;
	memset(st, 0, sizeof(*st));
	snprintf(err, errlen, "%s: no snapshot reader (test)", path);
	return -1;
}

static char root[] = "/tmp/lt_cli_XXXXXX";
static char out_path[256], err_path[256];
static char out[65536], err[65536];
static char weird[64];		/* a tracker named with names[0], [1], [5] */

/* Who runs the command. */
enum as { AS_ME, AS_NOBODY };

static void slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

static void to_file(int fd, const char *path)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	dup2(f, fd);
	close(f);
}

/* Start cli_run(args) in a child, its stdout and stderr into files. */
static pid_t start(enum as as, char **args)
{
	int argc = 0;
	pid_t pid;

	while (args[argc])
		argc++;
	fflush(stdout);
	pid = fork();
	if (pid)
		return pid;
	alarm(20);
	to_file(STDOUT_FILENO, out_path);
	to_file(STDERR_FILENO, err_path);
	if (as == AS_NOBODY && (setgroups(0, NULL) || setgid(65534) ||
				setuid(65534)))
		_exit(99);
	argc = cli_run(argc, args);
	fflush(stdout);
	fflush(stderr);
	_exit(argc);
}

static int finish(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		return -1;
	slurp(out_path, out, sizeof(out));
	slurp(err_path, err, sizeof(err));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* latency-tracker ARGS...: its exit status; out and err hold its output. */
#define run(as, ...) ({							\
	char *__a[] = { "latency-tracker", __VA_ARGS__, NULL };		\
	finish(start(as, __a)); })

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", root, dir, file);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void tracker_dir(const char *name, const char *hist)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	mkdir(path, 0700);
	put(name, "threshold", "150000000\n");
	put(name, "timeout", "0\n");
	put(name, "wakeup_interval", "1000000000\n");
	put(name, "enable", "1\n");
	put(name, "filter_tgid", "\n");
	put(name, "kthreads", "1\n");
	put(name, "stats", "tracked 100\nmatched 90\nover_threshold 3\ntimeouts 0\n"
	    "dropped 0\npending 0\nalerts 3\nalerts_lost 0\nmin_ns 1500\n"
	    "max_ns 3000000\navg_ns 40000\nsum_ns 36893488147419103232\n"
	    "breakdown_irq_ns 1000000\nbreakdown_softirq_ns 0\n"
	    "breakdown_thread_ns 3000000\n");
	put(name, "histogram", hist);
	snprintf(path, sizeof(path), "%s/%s/alerts", root, name);
	mkfifo(path, 0600);
}

/* The root's version file: modules writing record format @v. */
static void put_format(int v)
{
	char version[16];

	snprintf(version, sizeof(version), "%d\n", v);
	put(".", "version", version);
}

static void setup(void)
{
	size_t n = 0;
	char cg[128];

	tracker_dir("wakeup", "1024 2047 50\n2048 4095 30\n2097152 4194303 10\n");
	/* filter_cgroup holds a path of any bytes: every name. */
	n = 0;
	for (size_t i = 0; i < NNAMES; i++) {
		memcpy(cg + n, names[i].s, names[i].len);
		n += names[i].len;
	}
	cg[n] = '\0';
	put("wakeup", "filter_cgroup", cg);
	/* A tracker whose name needs escaping, no '/', nothing matched. */
	snprintf(weird, sizeof(weird), "%s%s%s", names[0].s, names[1].s,
		 names[5].s);
	tracker_dir(weird, "");
	put(weird, "filter_cgroup", "\n");
	put(weird, "stats", "tracked 0\nmatched 0\nmin_ns 18446744073709551615\nmax_ns 0\n");
	put_format(LT_RECORD_FORMAT);
	setenv("LT_PROC_ROOT", root, 1);
}

/* The output is JSON with the first n names (and the weird one) in it. */
static int json_ok(size_t n, bool with_weird)
{
	return !check_output("json", out_path, 0, n, with_weird ? weird : NULL);
}

static void test_version_help(void)
{
	static const char *const cmds[] = {
		"list", "get", "set", "stats", "hist", "follow", "add", "del",
		"flamegraph",
	};
	char mk[4096], want[128];

	tap_eq(run(AS_ME, "--version"), 0, "--version: exit 0");
	snprintf(want, sizeof(want), "latency-tracker %s (alert record format %d)\n",
		 LT_TOOLS_VERSION, LT_RECORD_FORMAT);
	tap_ok(!strcmp(out, want), "--version: release and record format");
	slurp(LT_TOP "/Makefile", mk, sizeof(mk));
	snprintf(want, sizeof(want), "\nVERSION := %s\n", LT_TOOLS_VERSION);
	tap_ok(strstr(mk, want) != NULL, "the version is the top Makefile's VERSION");
	tap_eq(run(AS_ME, "--help"), 0, "--help: exit 0");
	tap_ok(strstr(out, "latency-tracker <command> --help") != NULL,
	       "--help says how to get a command's help");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char head[64];

		snprintf(head, sizeof(head), "usage: latency-tracker %s", cmds[i]);
		tap_ok(run(AS_ME, (char *)cmds[i], "--help") == 0 &&
		       !strncmp(out, head, strlen(head)) && !*err,
		       "%s --help: its usage on stdout, exit 0", cmds[i]);
		tap_ok(run(AS_ME, "help", (char *)cmds[i]) == 0 &&
		       !strncmp(out, head, strlen(head)),
		       "help %s: the same", cmds[i]);
	}
	tap_eq(run(AS_ME, "help", "frob"), CLI_USAGE, "help of an unknown command: exit 2");
}

/* The man page has every option of every --help, every knob, ... */
static void test_man_page(void)
{
	static char man[65536];
	static const char *const cmds[] = {
		"list", "get", "set", "stats", "hist", "follow", "add", "del",
		"flamegraph",
	};
	static const char *const words[] = {
		/* follow --json record types */
		"alert", "lost", "malformed",
		/* environment */
		"LT_PROC_ROOT", "COLUMNS",
		/* the version file and its refusal */
		"/proc/latency_tracker/version", "record format",
		"EACCES", "p50", "p90", "p99",
		/* explain's options (its --help is not linked here) */
		"\\-\\-tid", "\\-\\-at", "\\-\\-window", "\\-\\-format",
		"\\-\\-output", "\\-\\-min\\-share", "\\-\\-compare",
		"\\-\\-between", "\\-\\-clusters", "\\-k",
		/* custom trackers: the file, the kernel's refusals */
		"/proc/latency_tracker/custom", "ENOENT", "EINVAL", "EEXIST",
		"ENOSPC", "dmesg", "kprobe:", "kretprobe:", "tp:",
	};
	const char *ex2;
	bool ok = true;

	slurp(LT_TOP "/tools/cli/latency-tracker.1", man, sizeof(man));
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run(AS_ME, "help", (char *)cmds[i]);
		for (char *p = out; (p = strstr(p, " -")); p++) {
			char opt[32], roff[64];
			size_t n = strspn(p + 1, "-abcdefghijklmnopqrstuvwxyz");
			size_t k = 0;

			if (n < 2 || n >= sizeof(opt))
				continue;
			memcpy(opt, p + 1, n);
			opt[n] = '\0';
			for (size_t j = 0; j < n; j++) {
				if (opt[j] == '-')
					roff[k++] = '\\';
				roff[k++] = opt[j];
			}
			roff[k] = '\0';
			if (!strstr(man, roff)) {
				tap_diag("%s: option %s not in the man page", cmds[i], opt);
				ok = false;
			}
		}
	}
	tap_ok(ok, "man page: every option of every command's --help");
	ok = true;
	for (size_t i = 0; i < lt_nknobs; i++) {
		if (!strstr(man, lt_knobs[i].name)) {
			tap_diag("knob %s not in the man page", lt_knobs[i].name);
			ok = false;
		}
	}
	tap_ok(ok, "man page: every knob");
	ok = true;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strstr(man, words[i])) {
			tap_diag("'%s' not in the man page", words[i]);
			ok = false;
		}
	}
	tap_ok(ok, "man page: record types, environment, version check, percentiles, explain's options, custom trackers");
	ok = true;
	for (size_t i = 0; lt_custom_field_name(i); i++) {
		char field[32];

		snprintf(field, sizeof(field), "%s=", lt_custom_field_name(i));
		if (!strstr(man, field)) {
			tap_diag("custom definition field %s not in the man page", field);
			ok = false;
		}
	}
	tap_ok(ok, "man page: every field of a custom tracker's definition");
	ex2 = strstr(man, "\n.SH EXIT STATUS");
	ex2 = ex2 ? strstr(ex2, "\n.B 2\n") : NULL;
	tap_ok(ex2 && strstr(ex2, "refused") &&
	       (!strstr(ex2, "\n.SH") || strstr(ex2, "refused") < strstr(ex2, "\n.SH")),
	       "man page: exit status 2 for a value the kernel refused");
}

static void test_json(void)
{
	tap_eq(run(AS_ME, "list", "--json"), 0, "list --json");
	tap_ok(json_ok(0, true) && strstr(out, "\"tracker\":\"wakeup\",\"threshold\":150000000,\"timeout\":0,\"enable\":1,\"stats\":{\"tracked\":100,"),
	       "list --json: JSON, the weird name, knobs and stats");
	tap_eq(lines(out), 1, "list --json: one line");
	tap_eq(run(AS_ME, "get", "wakeup", "--json"), 0, "get --json");
	tap_ok(json_ok(NNAMES, false) &&
	       strstr(out, "{\"tracker\":\"wakeup\",\"threshold\":150000000,\"timeout\":0,\"wakeup_interval\":1000000000,\"enable\":1,\"filter_cgroup\":"),
	       "get --json: every knob, the filter's bytes back");
	tap_ok(!strstr(out, "filter_dev"), "get --json: a filter the tracker lacks is left out");
	tap_eq(run(AS_ME, "get", "wakeup", "timeout", "--json"), 0, "get <knob> --json");
	tap_ok(!strcmp(out, "{\"tracker\":\"wakeup\",\"timeout\":0}\n"), "get <knob> --json: that knob");
	tap_eq(run(AS_ME, "get", weird, "--json"), 0, "get --json, a name to escape");
	tap_ok(json_ok(0, true), "get --json: the name escaped");
	tap_eq(run(AS_ME, "stats", "wakeup", "--json"), 0, "stats --json");
	tap_ok(json_ok(0, false) && strstr(out, "\"min_ns\":1500,\"max_ns\":3000000"),
	       "stats --json: times in ns");
	tap_ok(strstr(out, "\"sum_ns\":36893488147419103232,\"breakdown_irq_ns\":1000000,") != NULL,
	       "stats --json: a sum_ns above 2^64, exact");
	tap_eq(run(AS_ME, "stats", "wakeup"), 0, "stats");
	tap_ok(strstr(out, "\nsum              36893488147419103232ns\n") &&
	       strstr(out, "\nmin              1.500us\n") &&
	       strstr(out, "tracked          100\n") && !strstr(out, "_ns "),
	       "stats: a sum above 2^64 in ns, exact; other times with units, named without _ns");
	tap_ok(strstr(out, "\nbreakdown_irq    1.000ms\n") &&
	       strstr(out, "\nbreakdown        irq 25.0%, softirq 0.0%, thread 75.0%\n"),
	       "stats: the breakdown's sums, and their shares on one line");
	tap_eq(run(AS_ME, "stats", "wakeup", "--raw"), 0, "stats --raw");
	tap_ok(strstr(out, "breakdown_thread_ns 3000000\n") &&
	       !strstr(out, "\nbreakdown "), "stats --raw: as the kernel prints them, no shares");
	tap_eq(run(AS_ME, "stats", weird, "--json"), 0, "stats --json, nothing matched");
	tap_ok(json_ok(0, true) && strstr(out, "\"min_ns\":null,\"max_ns\":null"),
	       "stats --json: times null before the first match");
	tap_eq(run(AS_ME, "stats", weird), 0, "stats, nothing matched");
	tap_ok(!strstr(out, "breakdown"), "stats: no breakdown line without its counters");
	tap_eq(run(AS_ME, "hist", "wakeup", "--json"), 0, "hist --json");
	tap_ok(json_ok(0, false) &&
	       strstr(out, "{\"low_ns\":1024,\"high_ns\":2047,\"count\":50}") &&
	       strstr(out, "\"p50\":{\"ns\":1944,\"low_ns\":1024,\"high_ns\":2047}") &&
	       strstr(out, "\"p99\":{\"ns\":3000000,") &&
	       strstr(out, "\"max_ns\":3000000,\"max_exact\":true"),
	       "hist --json: buckets, percentiles, exact max");
	tap_eq(run(AS_ME, "hist", weird, "--json"), 0, "hist --json, empty");
	tap_ok(json_ok(0, true) && strstr(out, "\"buckets\":[],\"percentiles\":{},\"max_ns\":null"),
	       "hist --json: no buckets, no percentiles");
	tap_eq(run(AS_ME, "list", "--jsn"), CLI_USAGE, "an unknown option: exit 2");
	tap_ok(lines(err) == 1 && strstr(err, "unknown option '--jsn' (usage: latency-tracker list [--json])"),
	       "an unknown option: one line with the usage");
	tap_eq(run(AS_ME, "stats", "wakeup", "extra"), CLI_USAGE, "too many arguments: exit 2");
}

/* The fake root's custom file: its text ("" when absent). */
static void custom_text(char *buf, size_t size)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/custom", root);
	buf[0] = '\0';
	if (!access(path, F_OK))
		slurp(path, buf, size);
}

/*
 * add, del and list of custom trackers against the fake root: its custom
 * file is a regular file here (the last line written), or /dev/full for a
 * refusal.
 */
static void test_custom(void)
{
	char path[512], text[1024], dir[512];
	const char *def;

	snprintf(path, sizeof(path), "%s/custom", root);
	tap_ok(run(AS_ME, "add", "blk", "in=kprobe:blk_mq_start_request",
		   "out=kprobe:blk_mq_end_request", "key=arg1", "threshold=2ms",
		   "stack=1", "--dry-run") == 0 &&
	       !strcmp(out, "blk in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2000000 stack=1\n"),
	       "add --dry-run: the kernel's line, times in ns, on stdout");
	tap_eq(run(AS_ME, "add", "slowsync", "fn=vfs_fsync", "threshold=10xs"),
	       CLI_USAGE, "add, a bad duration: exit 2");
	tap_ok(lines(err) == 1 && strstr(err, "threshold=10xs: not a duration") &&
	       access(path, F_OK), "add, a bad duration: one line naming it, nothing written");
	tap_eq(run(AS_ME, "add", "wakeup", "fn=vfs_fsync"), CLI_USAGE,
	       "add, a built-in tracker's name: exit 2");
	tap_ok(strstr(err, "'wakeup' is reserved") != NULL, "add wakeup: the name is reserved");
	tap_eq(run(AS_ME, "add", "slowsync", "fn=vfs_fsync", "threshold=10ms"),
	       CLI_FAIL, "add, no custom file: exit 1");
	tap_ok(lines(err) == 1 &&
	       strstr(err, "the module latency_tracker_custom is not loaded") &&
	       access(path, F_OK), "add, no custom file: the module is not loaded, nothing written");
	put(".", "custom", "");
	tap_eq(run(AS_ME, "add", "slowsync", "fn=vfs_fsync", "threshold=10ms"), 0,
	       "add slowsync fn=vfs_fsync threshold=10ms: exit 0");
	custom_text(text, sizeof(text));
	tap_ok(!strcmp(text, "slowsync fn=vfs_fsync threshold=10000000\n") &&
	       !strcmp(out, "slowsync added: fn=vfs_fsync threshold=10ms\n"),
	       "add: the kernel's line written, the definition with units said");
	tap_eq(run(AS_ME, "add", "x", "in=tp:sched:sched_waking",
		   "out=tp:sched:sched_switch", "key=arg1"), CLI_USAGE,
	       "add, an argument key at a tracepoint end: exit 2");
	custom_text(text, sizeof(text));
	tap_ok(!strcmp(text, "slowsync fn=vfs_fsync threshold=10000000\n"),
	       "add refused: the custom file untouched");
	tap_eq(run(AS_ME, "del", "slowsync"), 0, "del slowsync: exit 0");
	custom_text(text, sizeof(text));
	tap_ok(!strcmp(text, "del slowsync\n") && !strcmp(out, "slowsync deleted\n"),
	       "del: 'del slowsync' written");
	tap_ok(run(AS_ME, "del", "wakeup") == CLI_USAGE &&
	       strstr(err, "wakeup is not a custom tracker"),
	       "del wakeup: not a custom tracker, exit 2");
	tap_eq(run(AS_ME, "del", "Slow-Sync"), CLI_USAGE, "del, a bad name: exit 2");
	tap_eq(run(AS_ME, "del"), CLI_USAGE, "del, no name: exit 2");

	/* list: a custom tracker loaded, with its definition. */
	snprintf(dir, sizeof(dir), "%s/slowsync", root);
	tracker_dir("slowsync", "");
	put(".", "custom", "slowsync fn=vfs_fsync key=tid threshold=10000000 timeout=0\n");
	tap_eq(run(AS_ME, "list", "--json"), 0, "list --json with a custom tracker");
	tap_ok(json_ok(0, true) &&
	       strstr(out, "\"definition\":\"fn=vfs_fsync key=tid threshold=10000000 timeout=0\"}") &&
	       strstr(out, "\"tracker\":\"wakeup\",") &&
	       strstr(out, "\"definition\":null}"),
	       "list --json: the custom tracker's definition as listed, null for the others");
	tap_eq(run(AS_ME, "list"), 0, "list with a custom tracker");
	def = strstr(out, "\nCUSTOM ");
	def = def ? strstr(def, "\nslowsync ") : NULL;
	tap_ok(def && !strncmp(def + 10 + strspn(def + 10, " "),
			       "fn=vfs_fsync key=tid threshold=10ms timeout=off\n", 48),
	       "list: the definitions of custom trackers, with units");

	/* The kernel refuses the write: /dev/full says ENOSPC. */
	unlink(path);
	if (symlink("/dev/full", path))
		tap_diag("symlink: %s", strerror(errno));
	tap_eq(run(AS_ME, "add", "more", "fn=vfs_read"), CLI_FAIL,
	       "add refused with ENOSPC: exit 1");
	tap_ok(lines(err) == 1 && strstr(err, "cannot add more: the module has its 64 custom trackers already"),
	       "ENOSPC: the 64 trackers, one line");
	unlink(path);
	snprintf(text, sizeof(text), "rm -rf '%s'", dir);
	if (system(text))
		tap_diag("could not remove %s", dir);
}

static void test_percentiles(void)
{
	struct lt_hist h = { 0 };
	struct lt_pct p = { 0 };

	tap_eq(lt_hist_percentile(&h, LT_PCT(50), 0, UINT64_MAX, &p), (uint64_t)-1,
	       "percentile of nothing: -1");
	h.n = 1;
	h.b[0] = (struct lt_hist_bucket){ 1024, 2047, 1 };
	tap_ok(!lt_hist_percentile(&h, LT_PCT(50), 0, UINT64_MAX, &p) &&
	       p.ns == 2047 && p.low == 1024 && p.high == 2047,
	       "one delay: the bucket's high end");
	lt_hist_percentile(&h, LT_PCT(50), 1500, 1500, &p);
	tap_eq(p.ns, 1500, "clamped to the exact max");
	/* Ten delays, one per bucket: p50 is the 5th (nearest rank). */
	h.n = 10;
	for (int i = 0; i < 10; i++)
		h.b[i] = (struct lt_hist_bucket){ 1ULL << (i + 1), (1ULL << (i + 2)) - 1, 1 };
	lt_hist_percentile(&h, LT_PCT(50), 0, UINT64_MAX, &p);
	tap_eq(p.low, 32, "p50 of 10: the 5th delay's bucket");
	lt_hist_percentile(&h, LT_PCT(90), 0, UINT64_MAX, &p);
	tap_eq(p.low, 512, "p90 of 10: the 9th");
	lt_hist_percentile(&h, LT_PCT(99), 0, UINT64_MAX, &p);
	tap_eq(p.low, 1024, "p99 of 10: the 10th");
	lt_hist_percentile(&h, LT_PCT(0.01), 0, UINT64_MAX, &p);
	tap_eq(p.low, 2, "p0.01: the 1st");
	/* 100 in one bucket: evenly spread. */
	h.n = 1;
	h.b[0] = (struct lt_hist_bucket){ 1000, 2000, 100 };
	lt_hist_percentile(&h, LT_PCT(50), 0, UINT64_MAX, &p);
	tap_eq(p.ns, 1500, "linear inside the bucket: 50th of 100 in [1000, 2000]");
	tap_eq(lt_hist_percentile(&h, 10001, 0, UINT64_MAX, &p), (uint64_t)-1,
	       "above p100: -1");
	tap_eq(run(AS_ME, "hist", "wakeup", "--percentiles"), 0, "hist --percentiles");
	tap_ok(strstr(out, "\np50    1.944us  (in 1.024us - 2.047us)\n") &&
	       strstr(out, "\np99    3.000ms  (in 2.097ms - 4.194ms)\n") &&
	       strstr(out, "\nmax    3.000ms  (exact)\n"),
	       "hist --percentiles: p50, p99 with their bucket, exact max");
	tap_eq(run(AS_ME, "hist", "wakeup", "-p"), 0, "hist -p");
}

/* Options as getopt_long() takes them; --proc-root; what set echoes. */
static void test_options(void)
{
	char other[] = "/nonexistent-lt-root";

	tap_eq(run(AS_ME, "hist", "-pq", "wakeup"), CLI_USAGE, "hist -pq: exit 2");
	tap_ok(lines(err) == 1 && strstr(err, "unknown option '-q' (usage: latency-tracker hist"),
	       "hist -pq: the unknown one of combined short options named");
	tap_eq(run(AS_ME, "list", "--json=1"), CLI_USAGE, "list --json=1: exit 2");
	tap_ok(strstr(err, "--json takes no value") != NULL, "--json=1: takes no value, said");
	tap_eq(run(AS_ME, "follow", "wakeup", "-n"), CLI_USAGE, "follow -n at the end: exit 2");
	tap_ok(strstr(err, "-n needs a value") != NULL, "-n without its value: said");
	tap_eq(run(AS_ME, "get", "--raw", "--", "wakeup", "threshold"), 0,
	       "get --raw -- wakeup threshold: positionals after --");
	tap_ok(!strcmp(out, "150000000\n"), "... the raw threshold");
	/* The tracker's empty log2 buckets between two non-empty ones. */
	tap_eq(run(AS_ME, "hist", "wakeup"), 0, "hist");
	tap_ok(lines(out) == 1 + 12 &&
	       strstr(out, "\n  4.096us -   8.191us |") &&
	       strstr(out, "\n  1.049ms -   2.097ms |") && strstr(out, " 10\n"),
	       "hist: every log2 bucket from the first to the last, empty ones at 0");
	if (lines(out) != 1 + 12)
		tap_diag("%s", out);
	setenv("LT_PROC_ROOT", other, 1);
	tap_eq(run(AS_ME, "--proc-root", root, "get", "wakeup", "threshold", "--raw"), 0,
	       "--proc-root DIR: that directory, not LT_PROC_ROOT's");
	tap_eq(run(AS_ME, "list"), CLI_FAIL, "... which the command had otherwise");
	{
		char opt[600];

		snprintf(opt, sizeof(opt), "--proc-root=%s", root);
		tap_eq(run(AS_ME, opt, "stats", "wakeup"), 0, "--proc-root=DIR");
	}
	tap_eq(run(AS_ME, "--proc-root"), CLI_USAGE, "--proc-root without a directory: exit 2");
	setenv("LT_PROC_ROOT", root, 1);
	tap_eq(run(AS_ME, "set", "wakeup", "timeout", "off"), 0, "set timeout off");
	tap_ok(!strcmp(out, "wakeup timeout = 0 (off)\n"), "set timeout off: echoed as get shows it");
	run(AS_ME, "set", "wakeup", "enable", "on");
	tap_ok(!strcmp(out, "wakeup enable = 1\n"), "set enable on: 1");
}

static void test_bare_ns(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/wakeup/threshold", root);
	tap_eq(run(AS_ME, "set", "wakeup", "threshold", "500"), 0,
	       "set threshold 500: done");
	tap_ok(strstr(err, "warning: threshold 500 is 500 ns: a bare number is nanoseconds") &&
	       lines(err) == 1, "set threshold 500: one warning line");
	slurp(path, out, sizeof(out));
	tap_ok(!strcmp(out, "500\n"), "set threshold 500: 500 ns written");
	tap_eq(run(AS_ME, "set", "wakeup", "threshold", "0"), 0, "set threshold 0");
	tap_ok(strstr(err, "warning: threshold 0 is 0 ns") != NULL, "threshold 0: warned");
	run(AS_ME, "set", "wakeup", "threshold", "500us");
	tap_ok(!*err, "500us: no warning");
	run(AS_ME, "set", "wakeup", "threshold", "1000");
	tap_ok(!*err, "a bare 1000 (1 us): no warning");
	run(AS_ME, "set", "wakeup", "timeout", "0");
	tap_ok(!*err, "timeout 0 (off): no warning");
	run(AS_ME, "set", "wakeup", "timeout", "999");
	tap_ok(strstr(err, "warning: timeout 999 is 999 ns") != NULL, "timeout 999: warned");
	run(AS_ME, "set", "wakeup", "threshold", "150ms");
	run(AS_ME, "set", "wakeup", "timeout", "off");
}

static void test_access(void)
{
	char path[512];

	if (geteuid() == 0) {
		tap_eq(run(AS_NOBODY, "list"), CLI_FAIL, "not root: list exits 1");
	} else {
		chmod(root, 0);
		tap_eq(run(AS_ME, "list"), CLI_FAIL, "no access: list exits 1");
		chmod(root, 0700);
	}
	tap_ok(lines(err) == 1 &&
	       strstr(err, "Permission denied (its files are root-only: run as root)"),
	       "EACCES from the open, one line");
	if (geteuid() == 0) {
		tap_eq(run(AS_NOBODY, "get", "wakeup"), CLI_FAIL, "not root: get exits 1");
		tap_ok(strstr(err, "Permission denied") != NULL, "get: EACCES");
	}
	snprintf(path, sizeof(path), "%s/nosuch", root);
	setenv("LT_PROC_ROOT", path, 1);
	tap_eq(run(AS_ME, "list"), CLI_FAIL, "no root: exit 1");
	tap_ok(strstr(err, "is the latency_tracker module loaded?") != NULL,
	       "no root: the module is not loaded");
	setenv("LT_PROC_ROOT", root, 1);
}

static void test_version_file(void)
{
	char path[512];

	char want[128];

	snprintf(path, sizeof(path), "%s/version", root);
	put_format(LT_RECORD_FORMAT);
	tap_eq(run(AS_ME, "list"), 0, "the tools' version: list works");
	put_format(LT_RECORD_FORMAT + 1);
	tap_eq(run(AS_ME, "list"), CLI_FAIL, "a later version: list exits 1");
	snprintf(want, sizeof(want),
		 "write alert record format %d, these tools read format %d",
		 LT_RECORD_FORMAT + 1, LT_RECORD_FORMAT);
	tap_ok(lines(err) == 1 && !*out && strstr(err, want),
	       "a later version: one line naming both formats");
	tap_eq(run(AS_ME, "set", "wakeup", "threshold", "1ms"), CLI_FAIL,
	       "a later version: set refused");
	tap_eq(run(AS_ME, "follow", "-n", "1"), CLI_FAIL,
	       "a later version: follow refused");
	put(".", "version", "x\n");
	tap_eq(run(AS_ME, "stats", "wakeup"), CLI_FAIL, "a version file without a number: exit 1");
	tap_ok(strstr(err, "not a record format number") != NULL, "says so");
	unlink(path);
	snprintf(want, sizeof(want),
		 "write alert record format 1, these tools read format %d",
		 LT_RECORD_FORMAT);
	tap_ok(run(AS_ME, "get", "wakeup", "threshold") == CLI_FAIL &&
	       strstr(err, want),
	       "no version file (modules of format 1, records without stacks): refused");
	put_format(LT_RECORD_FORMAT);
}

struct watch_seen {
	int errors, added;
	char what[512];
	int err;
};

static void w_line(void *ctx, const char *tracker, char *line)
{
	(void)ctx;
	(void)tracker;
	(void)line;
}

static void w_tracker(void *ctx, const char *tracker, bool added)
{
	struct watch_seen *s = ctx;

	(void)tracker;
	s->added += added ? 1 : -1;
}

static void w_error(void *ctx, const char *tracker, const char *what, int err)
{
	struct watch_seen *s = ctx;

	if (strcmp(tracker, LT_WATCH_ALL))
		return;
	s->errors++;
	s->err = err;
	snprintf(s->what, sizeof(s->what), "%s", what);
}

/* What latency-trackerd does: lt_watch_scan() every second. */
static void test_watch_format(void)
{
	static const struct lt_watch_ops ops = {
		.line = w_line, .tracker = w_tracker, .error = w_error,
	};
	struct watch_seen s = { 0 };
	char *only[] = { "wakeup", NULL };
	struct lt_watch w;
	int epfd = epoll_create1(EPOLL_CLOEXEC);
	char want[64];

	snprintf(want, sizeof(want), "format 7, these tools read format %d",
		 LT_RECORD_FORMAT);
	lt_watch_init(&w, epfd, &ops, &s, only);
	tap_eq(lt_watch_scan(&w), 1, "watch: the alerts file followed");
	put(".", "version", "7\n");
	tap_eq(lt_watch_scan(&w), 0, "watch, format 7: nothing followed");
	tap_ok(s.errors == 1 && s.err == EPROTONOSUPPORT && s.added == 0 &&
	       strstr(s.what, want),
	       "watch, format 7: one error naming both formats, file closed");
	lt_watch_scan(&w);
	tap_eq(s.errors, 1, "watch: the error is reported once");
	put_format(LT_RECORD_FORMAT);
	tap_ok(lt_watch_scan(&w) == 1 && s.errors == 1 && s.added == 1,
	       "watch: followed again once the format is right");
	lt_watch_close_all(&w, false);
	close(epfd);
}

/*
 * The wakeup tracker's alerts (a FIFO) opened for writing, once a reader
 * started meanwhile has it open (ENXIO before): 10 s at most.  NULL with
 * errno set when it is not.
 */
static FILE *alerts_writer(void)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/wakeup/alerts", root);
	for (int i = 0; (fd = open(path, O_WRONLY | O_NONBLOCK)) < 0 &&
	     errno == ENXIO && i < 1000; i++)
		usleep(10000);
	if (fd < 0)
		return NULL;
	fcntl(fd, F_SETFL, 0);
	return fdopen(fd, "w");
}

/* follow --json on the wakeup tracker's alerts (a FIFO here). */
static void test_follow(void)
{
	char n[16], line[512], comm[128], *args[7];
	pid_t pid;
	FILE *f;
	int rc;

	/* The count stuck to its option: -nN. */
	snprintf(n, sizeof(n), "-n%zu", NNAMES + 2);
	args[0] = "latency-tracker";
	args[1] = "follow";
	args[2] = "--json";
	args[3] = n;
	args[4] = "wakeup";
	args[5] = NULL;
	pid = start(AS_ME, args);
	f = alerts_writer();
	if (!f) {
		tap_ok(0, "follow opens the alerts file: %s", strerror(errno));
		kill(pid, SIGKILL);
		finish(pid);
		return;
	}
	for (size_t i = 0; i < NNAMES; i++) {
		record_escape(comm, names[i].s, names[i].len);
		snprintf(line, sizeof(line),
			 "ts=%zu tracker=wakeup cause=threshold delay=5000000 pid=%zu tgid=1 comm=%s prio=120 cpu=1 waker_pid=0 waker_comm=%s cgroup=1\n",
			 i + 1, i + 100, comm, comm);
		fputs(line, f);
	}
	fputs("ts=99 tracker=wakeup cause=lost count=7\n", f);
	fputs("ts=100 tracker=wakeup bad\\line\n", f);
	fflush(f);
	rc = finish(pid);
	fclose(f);
	tap_eq(rc, 0, "follow --json %s: exit 0", n);
	tap_eq(lines(out), NNAMES + 2, "follow --json: one line per record");
	tap_ok(json_ok(NNAMES, false), "follow --json: JSON lines, every comm's bytes back");
	tap_ok(strstr(out, "{\"type\":\"lost\",\"ts\":99,\"tracker\":\"wakeup\",\"cause\":\"lost\",\"count\":7}\n") &&
	       strstr(out, "{\"type\":\"malformed\",\"tracker\":\"wakeup\",\"error\":"),
	       "follow --json: lost and malformed records");
}

/* follow (pretty): a record with a breakdown gets its why: line. */
static void test_follow_why(void)
{
	char *args[] = { "latency-tracker", "follow", "-n", "2", "wakeup", NULL };
	pid_t pid = start(AS_ME, args);
	FILE *f = alerts_writer();
	int rc;

	if (!f) {
		tap_ok(0, "follow opens the alerts file: %s", strerror(errno));
		kill(pid, SIGKILL);
		finish(pid);
		return;
	}
	fputs("ts=1000 tracker=wakeup cause=threshold delay=1000000 pid=5 tgid=5 comm=v prio=120 cpu=1 irq_ns=30000 softirq_ns=0 thread_ns=970000 idle_ns=0 other_cpu_ns=0 top_irq=local_timer top_softirq=- top_thread=lt_hog:425 migrated=0 cgroup=1\n", f);
	fputs("ts=2000 tracker=wakeup cause=threshold delay=1000000 pid=5 tgid=5 comm=v prio=120 cpu=1 cgroup=1\n", f);
	fflush(f);
	rc = finish(pid);
	fclose(f);
	tap_eq(rc, 0, "follow -n 2: exit 0");
	tap_ok(lines(out) == 3 &&
	       strstr(out, "\n                 why: thread 97% lt_hog:425, irq 3% local_timer\n0.000002 "),
	       "follow: the breakdown's why: line under its record, none under a record without one");
}

/* flamegraph's refusals: exit 2, one line naming the problem. */
static void test_flame_args(void)
{
	tap_eq(run(AS_ME, "flamegraph", "--mode", "bogus", "x"), CLI_USAGE,
	       "flamegraph --mode bogus: exit 2");
	tap_ok(strstr(err, "bad mode 'bogus'") != NULL, "flamegraph: the bad mode named");
	tap_eq(run(AS_ME, "flamegraph", "--pid", "0", "x"), CLI_USAGE, "flamegraph --pid 0: exit 2");
	tap_eq(run(AS_ME, "flamegraph", "--since", "soon", "x"), CLI_USAGE,
	       "flamegraph --since soon: exit 2");
	tap_eq(run(AS_ME, "flamegraph", "--since", "2.5", "--until", "2000000000", "x"),
	       CLI_USAGE, "flamegraph: --since (seconds) after --until (ns): exit 2");
	tap_eq(run(AS_ME, "flamegraph", "--duration", "1s", "x"), CLI_USAGE,
	       "flamegraph --duration with a source: exit 2");
	tap_eq(run(AS_ME, "flamegraph", "a", "b"), CLI_USAGE, "flamegraph: two sources: exit 2");
	tap_eq(run(AS_ME, "flamegraph", "--folded", "/nonexistent/log"), CLI_FAIL,
	       "flamegraph: a source that cannot be read: exit 1");
}

/* flamegraph live, on the wakeup tracker's alerts (a FIFO), until SIGINT. */
static void test_flame_live(void)
{
	char path[512], *args[] = { "latency-tracker", "flamegraph", "--folded",
				    "--tracker", "wakeup", NULL };
	pid_t pid;
	FILE *f;
	int rc;

	pid = start(AS_ME, args);
	f = alerts_writer();
	if (!f) {
		tap_ok(0, "flamegraph opens the alerts file: %s", strerror(errno));
		kill(pid, SIGKILL);
		finish(pid);
		tap_ok(0, "flamegraph live: skipped");
		tap_ok(0, "flamegraph live: skipped");
	} else {
		fputs("ts=1 tracker=wakeup cause=threshold delay=5 pid=7 tgid=7 comm=w stack=b;a\n", f);
		fputs("ts=2 tracker=wakeup cause=threshold delay=6 pid=8 tgid=8 comm=w stack=b;a\n", f);
		fputs("ts=3 tracker=wakeup cause=lost count=2\n", f);
		fputs("ts=4 tracker=wakeup bad\\line\n", f);
		fclose(f);
		/* The lines are read before the signal is (one epoll_wait). */
		usleep(300000);
		kill(pid, SIGINT);
		rc = finish(pid);
		tap_eq(rc, 0, "flamegraph live: SIGINT ends it, exit 0");
		tap_ok(!strcmp(out, "w;a;b 11\n"), "flamegraph live: the records folded when it ends");
		if (strcmp(out, "w;a;b 11\n"))
			tap_diag("out: %s", out);
		tap_ok(strstr(err, "1 malformed record") && strstr(err, "2 records lost"),
		       "flamegraph live: malformed and lost records said on stderr");
	}
	/* --duration: ends by itself; nothing came: a warning, an empty SVG. */
	rc = run(AS_ME, "flamegraph", "--duration", "200ms", "--tracker", "wakeup");
	tap_eq(rc, 0, "flamegraph live --duration: ends by itself, exit 0");
	tap_ok(strstr(out, "<svg") && strstr(out, "No record to show") &&
	       strstr(err, "no record of tracker wakeup"),
	       "flamegraph live: no record, an SVG saying so, a warning");
	/* A log file: alert lines, as cat of an alerts file saves them. */
	snprintf(path, sizeof(path), "%s.log", root);
	f = fopen(path, "w");
	fputs("ts=1 tracker=offcpu cause=threshold delay=5 pid=7 tgid=7 comm=w stack=b;a\n"
	      "ts=2 tracker=syscalls cause=threshold delay=9 pid=7 tgid=7 comm=w stack=c\n", f);
	fclose(f);
	rc = run(AS_ME, "flamegraph", "--folded", "-o", out_path, path);
	tap_ok(rc == 0 && !strcmp(out, "w;a;b 5\n"), "flamegraph FILE -o OUT: folded into OUT");
	unlink(path);
}

int main(void)
{
	char cmd[1024];

	/* test_access() makes two more assertions as root (run as nobody). */
	tap_plan(geteuid() == 0 ? 157 : 155);
	if (!mkdtemp(root)) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	snprintf(out_path, sizeof(out_path), "%s.out", root);
	snprintf(err_path, sizeof(err_path), "%s.err", root);
	setup();
	test_version_help();
	test_man_page();
	test_json();
	test_custom();
	test_percentiles();
	test_options();
	test_bare_ns();
	test_access();
	test_version_file();
	test_watch_format();
	test_follow();
	test_follow_why();
	test_flame_args();
	test_flame_live();
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s %s", root, out_path, err_path);
	if (system(cmd))
		tap_diag("could not remove %s", root);
	return tap_done();
}
