// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_cli.c - `latency-tracker explain`'s options of issue 17 end
 * to end (lt_explain_main), on a synthetic snapshot: the trace reader is
 * replaced by one that feeds a known event sequence (ex_trace_read below),
 * so the options, the window and the files written are those of the real
 * command.
 *
 *  - the whole-trace window of a thread ends at its sched_process_exit,
 *    and --past-exit keeps it to its last switch;
 *  - --pid PID[,PID...] and --comm NAME choose the application of the
 *    lock view; -o writes lockview.dot (waiter -> lock -> releaser);
 *  - bad --pid/--comm values are refused (exit 2, a message) and change
 *    nothing (no output directory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ex_model.h"
#include "ex_trace.h"
#include "explain.h"
#include "explain_feed.h"
#include "explain_run.h"
#include "tap.h"

/* Linux's x86-64 values, as the trace carries them. */
#define LT_F_SETLKW 7
#define LT_F_SETLK 6
#define EXIT_TS 160100
#define LAST_SWITCH 160300

/*
 * Process 100 (CPU 0) opens /tmp/cli.lock as fd 4 and waits in
 * fcntl(F_SETLKW) from 2100 to 150000 for process 200 (CPU 1), which took
 * the lock at 1510; 100 exits at EXIT_TS (last switch LAST_SWITCH); the
 * trace goes on to 900000.
 */
int ex_trace_read(const char *path, struct ex_model *out, char *err,
		  size_t errlen)
{
	if (strcmp(path, "synthetic")) {
		snprintf(err, errlen, "%s: not a trace directory", path);
		return -1;
	}
	ex_model_init(&m);
	sw(0, 0, 0, 0, 100);
	sw(0, 1, 0, 0, 200);
	sys_call(1000, 0, 100, "openat", true, -100, -1, "/tmp/cli.lock", 0);
	sys_call(1010, 0, 100, "openat", false, -1, -1, NULL, 4);
	sys_call(1500, 1, 200, "fcntl", true, 3, LT_F_SETLKW, NULL, 0);
	sys_call(1510, 1, 200, "fcntl", false, -1, -1, NULL, 0);
	sys_call(2000, 0, 100, "fcntl", true, 4, LT_F_SETLKW, NULL, 0);
	sw(2100, 0, 100, 1, 0);
	sys_call(149000, 1, 200, "fcntl", true, 3, LT_F_SETLK, NULL, 0);
	event(EV_WAKING, 150000, 1, 100, 200);
	sys_call(150100, 1, 200, "fcntl", false, -1, -1, NULL, 0);
	sw(150200, 0, 0, 0, 100);
	sys_call(150300, 0, 100, "fcntl", false, -1, -1, NULL, 0);
	sys_call(160000, 0, 100, "exit_group", true, -1, -1, NULL, 0);
	event(EV_EXIT, EXIT_TS, 0, 100, -1);
	sw(LAST_SWITCH, 0, 100, 0x20, 0);
	sw(900000, 1, 200, 1, 0);
	ex_model_finish(&m);
	*out = m;
	memset(&m, 0, sizeof(m));
	return 0;
}

static char outbuf[1 << 16], errbuf[4096];

/* Run lt_explain_main with args; stdout and stderr into the buffers. */
static int run(const char *const *args)
{
	return explain_run(args, outbuf, sizeof(outbuf), errbuf, sizeof(errbuf));
}

static bool slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return true;
}

/* A figure followed by " us": the old way of the text report. */
static bool bare_us(const char *s)
{
	for (const char *p = strstr(s, " us"); p; p = strstr(p + 1, " us"))
		if (p > s && p[-1] >= '0' && p[-1] <= '9')
			return true;
	return false;
}

static void test_window(void)
{
	int ret;

	ret = run((const char *[]){ "synthetic", "--tid", "100", "--format", "json", NULL });
	tap_eq(ret, 0, "whole trace: exit 0 (%s)", errbuf);
	tap_ok(strstr(outbuf, "\"origin\":\"the whole trace, to its exit\"") &&
	       strstr(outbuf, "\"end\":160100,"),
	       "whole trace: the window ends at sched_process_exit");
	tap_ok(strstr(outbuf, "exit_group, woken by") == NULL &&
	       strstr(outbuf, "\"unknown\":{\"ns\":0,"),
	       "whole trace: nothing 'blocked in exit_group' after the exit");
	ret = run((const char *[]){ "synthetic", "--tid", "100", "--format", "json",
				    "--past-exit", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"origin\":\"the whole trace\"") &&
	       strstr(outbuf, "\"end\":160300,"),
	       "--past-exit: to the thread's last switch");
	ret = run((const char *[]){ "synthetic", "--tid", "100", "--at", "200000",
				    "--window", "199000", "--format", "json", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"end\":160100,") &&
	       strstr(outbuf, "--at --window, to its exit"),
	       "--at/--window past the exit: ends at the exit too");
	/* --at as follow prints an instant, --window with a unit. */
	ret = run((const char *[]){ "synthetic", "--tid", "100", "--at", "0.000200",
				    "--window", "199us", "--format", "json", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"start\":1000,") &&
	       strstr(outbuf, "\"end\":160100,"),
	       "--at 0.000200 (seconds) --window 199us: the same interval (%d %s)", ret, errbuf);
	ret = run((const char *[]){ "synthetic", "--tid", "100", "--at", "1.2.3", NULL });
	tap_ok(ret == 2 && strstr(errbuf, "--at: not an instant"), "--at 1.2.3: refused");
	ret = run((const char *[]){ "synthetic", "--tid", "100", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "t100 [100] from 0.000") && !bare_us(outbuf) &&
	       strstr(outbuf, "(160.1us, "), "text: instants in seconds, durations with their unit: %.120s",
	       outbuf);

}

/* The text report: its categories once, their causes under them, lines of
 * at most 100 columns. */
static void test_text_layout(void)
{
	int ret = run((const char *[]){ "synthetic", "--tid", "100", NULL });
	size_t longest = 0;

	for (const char *p = outbuf; *p;) {
		size_t n = strcspn(p, "\n");

		longest = n > longest ? n : longest;
		p += n + (p[n] == '\n');
	}
	tap_ok(ret == 0 && longest <= 100, "text: no line over 100 columns (%zu)", longest);
	tap_ok(strstr(outbuf, "\n  synchronisation    147.9us  92.4%\n"
			      "      147.9us  92.4%  file lock /tmp/cli.lock (fcntl) released by t200 [200]\n"
			      "                      evidence: fcntl(fd 4, F_SETLKW = 7) on /tmp/cli.lock;") &&
	       strstr(outbuf, "\n  cpu                  200ns   0.1%\n"
			      "        200ns   0.1%  waiting for CPU 0, idle (waking up)\n"),
	       "text: each category once, its causes indented under it");
}

static void test_app(void)
{
	char dir[] = "/tmp/lt-explain-cli.XXXXXX", out[128], path[192];
	static char dot[16384];
	int ret;

	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp");
		return;
	}
	snprintf(out, sizeof(out), "%s/out", dir);
	ret = run((const char *[]){ "synthetic", "--tid", "100", "--pid", "100,200",
				    "-o", out, NULL });
	tap_eq(ret, 0, "--pid 100,200 -o: exit 0 (%s)", errbuf);
	tap_ok(strstr(outbuf, "lock view (application: process 100, 200; 1 locks") &&
	       strstr(outbuf, "file lock /tmp/cli.lock (fcntl)") &&
	       strstr(outbuf, "released by t200 [200]"),
	       "--pid: the lock view of both processes names the file and the holder");
	snprintf(path, sizeof(path), "%s/lockview.dot", out);
	tap_ok(slurp(path, dot, sizeof(dot)) && strstr(dot, "digraph lockview") &&
	       strstr(dot, "t100 -> l0") && strstr(dot, "l0 -> t200") &&
	       strstr(dot, "cli.lock"), "-o: lockview.dot, waiter -> lock -> releaser");
	snprintf(path, sizeof(path), "%s/lockview.svg", out);
	tap_ok(slurp(path, dot, sizeof(dot)) && strstr(dot, "<svg"),
	       "-o: lockview.svg rendered as the graph is (Graphviz's libraries)");
	snprintf(path, sizeof(path), "%s/explain.json", out);
	tap_ok(slurp(path, dot, sizeof(dot)) && strstr(dot, "\"lock_pids\":[100,200]"),
	       "-o: explain.json has the application's processes");
	ret = run((const char *[]){ "synthetic", "--tid", "100", "--comm", "t200",
				    "--format", "json", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"locks\":[],\"lock_pids\":[200]"),
	       "--comm t200: process 200, which waited on no lock");
	ret = run((const char *[]){ "synthetic", "--tid", "100", "--format", "json", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"lock_pids\":[100]") &&
	       strstr(outbuf, "\"releasers\":[{\"tid\":200,"),
	       "default: the explained thread's process");

	/* Refused, and nothing written. */
	{
		static const char *const bad[][2] = {
			{ "--pid", "1,,2" }, { "--pid", "0" }, { "--pid", "abc" },
			{ "--pid", "12," }, { "--pid", "-3" }, { "--pid", "" },
			{ "--comm", "" }, { "--comm", "sixteen-bytes-xx" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
			snprintf(out, sizeof(out), "%s/bad%zu", dir, i);
			ret = run((const char *[]){ "synthetic", "--tid", "100", "-o", out,
						    bad[i][0], bad[i][1], NULL });
			tap_ok(ret == 2 && strstr(errbuf, bad[i][0]) &&
			       access(out, F_OK) != 0,
			       "%s '%s': refused (exit %d: %s), nothing written",
			       bad[i][0], bad[i][1], ret, strtok(errbuf, "\n"));
		}
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		tap_diag("could not remove %s", dir);
}

/* --version: the release, exit 0. */
static void test_version(void)
{
	int ret = run((const char *[]){ "--version", NULL });

	tap_ok(ret == 0 && !strncmp(outbuf, "latency-tracker-explain ", 24),
	       "--version: exit 0, the release (%d: %s%s)", ret, outbuf, errbuf);
}

int main(void)
{
	tap_plan(26);
	(void)edge;
	(void)sys;
	test_window();
	test_app();
	test_version();
	test_text_layout();
	return tap_done();
}
