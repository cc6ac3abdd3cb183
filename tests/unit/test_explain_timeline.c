// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_timeline.c - `latency-tracker timeline` on a synthetic
 * snapshot, its two formats read back by readers that share no code with
 * the writers (check_timeline.py: Python's json; otf2-print):
 *
 *   CPU 0: t100 runs, enters read and blocks; t101 runs, enters futex and
 *          blocks; idle; t100 runs again (a block request), blocks; t200
 *   CPU 1: t200 (another process) runs and wakes t100 (at 2000) and t101
 *          (at 2100, CPU 1), stays on CPU 1 until 3000: t101 is runnable
 *          there 900 ns while t200 runs -- the hog scenario in small
 *   disks: 8:0 has t100's request 3600-4500 (lane 0), t101's 3800-4800
 *          overlapping it (lane 1) and t200's 4600-4900 (lane 0 again,
 *          free since 4500); 8:16 has t101's 3900-4100 (its lane 0)
 *
 * Every thread's running / runnable / blocked time, as explain's
 * classification reports it over the trace, is computed by hand below and
 * must be what both files show; the wakeups must connect t200 to t100 and
 * t101 at their times; both must show the four block requests (the OTF2
 * archive on the first free lane of their disk).  The checker is shown to
 * fail on a wrong total, on a wrong pair and on a wrong request.  Then the command itself (lt_timeline_main) with
 * ex_trace_read() replaced by this synthetic snapshot: format by the
 * output's name, --pid, and every bad argument exiting 2 with nothing
 * written.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ex_classify.h"
#include "ex_model.h"
#include "ex_timeline.h"
#include "ex_timeline_view.h"
#include "ex_trace.h"
#include "explain_feed.h"
#include "tap.h"

#define CHECK "python3 " LT_TOP "/tests/unit/check_timeline.py"

static char dir[] = "/tmp/lt_timeline_XXXXXX";

static void tl_event(enum ex_ev_type type, uint64_t ts, int cpu, int tid)
{
	struct ex_ev e;

	ex_ev_init(&e, type, ts, cpu);
	e.tid = tid;
	e.target_cpu = cpu;
	ex_model_feed(&m, &e);
}

/* The statedump's line for a thread of process pid. */
static void thread_of(int tid, int pid)
{
	struct ex_ev e;

	ex_ev_init(&e, EV_SD_PROCESS, 1000, 0);
	e.tid = tid;
	e.pid = pid;
	snprintf(e.comm, sizeof(e.comm), "t%d", tid);
	ex_model_feed(&m, &e);
}

/* sched_waking of tid for CPU target, by waker running on cpu. */
static void wake(uint64_t ts, int cpu, int target, int tid, int waker)
{
	struct ex_ev e;

	ex_ev_init(&e, EV_WAKING, ts, cpu);
	e.tid = tid;
	e.target_cpu = target;
	e.ctx_tid = waker;
	ex_model_feed(&m, &e);
}

/* block_rq_insert (start) or block_rq_complete (tid 0) of a request. */
static void block(enum ex_ev_type type, uint64_t ts, int cpu, int tid,
		  uint64_t dev, uint64_t sector)
{
	struct ex_ev e;

	ex_ev_init(&e, type, ts, cpu);
	e.tid = tid;
	e.dev = dev;
	e.sector = sector;
	ex_model_feed(&m, &e);
}

#define SDA (8ULL << 20)		/* 8:0 in the trace's dev_t */
#define SDB ((8ULL << 20) | 16)		/* 8:16 */

/* The scenario of the header, into the global model m (explain_feed.h). */
static void scenario(void)
{
	struct ex_ev e;

	ex_model_init(&m);
	thread_of(100, 100);
	thread_of(101, 100);
	thread_of(200, 200);
	thread_of(300, 300);		/* never runs: no track */
	thread_of(301, 300);		/* its thread, switched in at the end */
	sw(1000, 0, 0, 0, 100);
	sys(1100, 0, 100, true, "read", 3);
	sw(1200, 1, 0, 0, 200);
	sw(1500, 0, 100, 1, 101);	/* t100 blocked in read */
	sys(1600, 0, 101, true, "futex", 0x1000);
	sw(1700, 0, 101, 1, 0);		/* t101 blocked in futex */
	wake(2000, 1, 0, 100, 200);
	wake(2100, 1, 1, 101, 200);
	sw(2300, 0, 0, 0, 100);
	sys(2400, 0, 100, false, "read", 1);
	sw(3000, 1, 200, 0, 101);	/* t200 preempted: runnable */
	sys(3100, 1, 101, false, "futex", 0);
	ex_ev_init(&e, EV_ALERT, 3500, 1);
	e.tid = 101;
	e.delay = 1400;
	snprintf(e.name, sizeof(e.name), "wakeup");
	ex_model_feed(&m, &e);
	block(EV_BLK_INSERT, 3600, 0, 100, SDA, 2048);
	block(EV_BLK_INSERT, 3800, 1, 101, SDA, 4096);
	block(EV_BLK_INSERT, 3900, 1, 101, SDB, 64);
	sw(4000, 0, 100, 1, 200);	/* t100 blocked (no syscall) */
	block(EV_BLK_COMPLETE, 4100, 1, 0, SDB, 64);
	block(EV_BLK_COMPLETE, 4500, 0, 0, SDA, 2048);
	block(EV_BLK_INSERT, 4600, 0, 200, SDA, 8192);
	block(EV_BLK_COMPLETE, 4800, 1, 0, SDA, 4096);
	block(EV_BLK_COMPLETE, 4900, 1, 0, SDA, 8192);
	sw(5000, 1, 101, 1, 0);
	sw(5000, 0, 200, 0, 301);	/* t300 has no track, its process a name */
	tl_event(EV_OTHER, 5000, 0, -1);
	ex_model_finish(&m);
}

/*
 * By hand, over the trace [1000, 5000]:
 *   t100 running 1000-1500 (500) + 2300-4000 (1700) = 2200,
 *        runnable 2000-2300 = 300, blocked 1500-2000 (500) + 4000-5000
 *        (1000) = 1500;
 *   t101 running 1500-1700 (200) + 3000-5000 (2000) = 2200,
 *        runnable 2100-3000 = 900, blocked 1700-2100 = 400;
 *   t200 running 1200-3000 (1800) + 4000-5000 (1000) = 2800,
 *        runnable 3000-4000 = 1000, blocked 0.
 */
static const struct {
	int tid;
	uint64_t ns[3];		/* by enum ex_state */
} want[] = {
	{ 100, { 2200, 300, 1500 } },
	{ 101, { 2200, 900, 400 } },
	{ 200, { 2800, 1000, 0 } },
};
#define NWANT (sizeof(want) / sizeof(want[0]))

/* ex_trace_read() for lt_timeline_main: "synthetic" is the scenario,
 * anything else is not a trace. */
int ex_trace_read(const char *path, struct ex_model *out, char *err,
		  size_t errlen)
{
	if (strcmp(path, "synthetic")) {
		snprintf(err, errlen, "%s: no CTF trace (test)", path);
		return -1;
	}
	scenario();
	memcpy(out, &m, sizeof(m));
	ex_model_init(&m);		/* out owns it now */
	return 0;
}

/* The block requests of the header: [submitter, disk, sector, start, end]. */
static const char all_requests[] =
	"[[100,\"8:0\",2048,3600,4500],[101,\"8:0\",4096,3800,4800],"
	"[101,\"8:16\",64,3900,4100],[200,\"8:0\",8192,4600,4900]]";
/* Those of process 100 (t100, t101). */
static const char pid100_requests[] =
	"[[100,\"8:0\",2048,3600,4500],[101,\"8:0\",4096,3800,4800],"
	"[101,\"8:16\",64,3900,4100]]";

/*
 * EXPECT for check_timeline.py: the threads of pids (NULL: all) with their
 * state totals as explain's classification reports them over the trace,
 * and the wakeups and block requests given.  bump: add 1 ns to t101's
 * blocked time (a wrong expectation the checker must refuse).
 */
static void write_expect(const char *path, const int *pids, size_t npids,
			 const char *wakeups, const char *requests, bool bump)
{
	FILE *f = fopen(path, "w");
	bool first = true;

	fputs("{\"threads\":{", f);
	for (size_t i = 0; i < NWANT; i++) {
		struct ex_class_report r;
		const struct ex_thread *t = ex_model_thread(&m, want[i].tid);
		bool shown = !npids;

		for (size_t j = 0; j < npids; j++)
			shown |= tl_pid(t) == pids[j];
		if (!shown)
			continue;
		ex_classify(&m, want[i].tid, m.first_ts, m.last_ts, &r);
		fprintf(f, "%s\"%d\":{\"running\":%llu,\"runnable\":%llu,\"blocked\":%llu}",
			first ? "" : ",", want[i].tid,
			(unsigned long long)r.state_ns[ST_RUNNING],
			(unsigned long long)r.state_ns[ST_RUNNABLE],
			(unsigned long long)r.state_ns[ST_BLOCKED] +
			(bump && want[i].tid == 101));
		first = false;
		ex_class_report_free(&r);
	}
	fprintf(f, "},\"wakeups\":%s,\"requests\":%s}\n", wakeups, requests);
	fclose(f);
}

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fflush(stdout);
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* The summary line of check_timeline.py for t101 on CPU 1 against t200. */
static void summary(const char *fmt, const char *file, char *out, size_t size)
{
	char cmd[600];
	FILE *p;

	snprintf(cmd, sizeof(cmd), CHECK " summary %s %s 101 1 200", fmt, file);
	out[0] = '\0';
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p)
		return;
	if (fgets(out, (int)size, p))
		out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

static const char both_wakeups[] = "[[200,100,2000],[200,101,2100]]";

static void test_model(void)
{
	scenario();
	tap_eq(m.first_ts, 1000, "the trace starts at 1000");
	tap_eq(m.last_ts, 5000, "the trace ends at 5000");
	for (size_t i = 0; i < NWANT; i++) {
		struct ex_class_report r;

		ex_classify(&m, want[i].tid, m.first_ts, m.last_ts, &r);
		for (int s = ST_RUNNING; s <= ST_BLOCKED; s++)
			tap_eq(r.state_ns[s], want[i].ns[s], "explain: t%d %s %llu ns",
			       want[i].tid, ex_state_name(s),
			       (unsigned long long)want[i].ns[s]);
		ex_class_report_free(&r);
	}
}

static void test_writers(void)
{
	char json[128], otf2[128], exp[128], bad[128], s[256];
	struct tl_view v;
	FILE *f;

	snprintf(json, sizeof(json), "%s/all.json", dir);
	snprintf(otf2, sizeof(otf2), "%s/all.otf2", dir);
	snprintf(exp, sizeof(exp), "%s/all.expect", dir);
	snprintf(bad, sizeof(bad), "%s/bad.expect", dir);
	tl_view_init(&v, &m, NULL, 0);
	f = fopen(json, "w");
	tap_ok(f && !tl_write_json(f, &v, "synthetic"), "JSON written");
	if (f)
		fclose(f);
	tap_ok(!tl_write_otf2(dir, "all", &v, s, sizeof(s)), "OTF2 written %s", s);
	write_expect(exp, NULL, 0, both_wakeups, all_requests, false);
	tap_eq(run(CHECK " json %s %s", json, exp), 0,
	       "JSON (Python json): t100, t101, t200 with explain's state totals; flows t200 -> t100 at 2000, t200 -> t101 at 2100; the 4 block requests on their submitters; slices nest");
	tap_eq(run(CHECK " otf2 %s %s", otf2, exp), 0,
	       "OTF2 (otf2-print): the same totals, wakers and block requests (disk 8:0 lanes 0, 1, 0; 8:16 lane 0: each on the first free lane); regions nest");
	tap_eq(run(CHECK " compare %s %s >/dev/null", json, otf2), 0,
	       "JSON and OTF2: every thread, wakeup, CPU slice and block request the same");
	tap_eq(run(CHECK " requests %s %s | grep -v '^[0-9]' | tr '\\n' ' ' | "
		   "grep -qx 'requests 100 1 requests 101 2 requests 200 1 lanes 8:0 2 lanes 8:16 1 '",
		   json, otf2), 0,
	       "check_timeline.py requests (the guest's question): per submitter 1, 2, 1; disk 8:0 2 lanes, 8:16 1");
	summary("json", json, s, sizeof(s));
	tap_ok(!strcmp(s, "running=2200 runnable=900 blocked=400 overlap=900"),
	       "JSON: t101 runnable on CPU 1 while t200 ran there: 900 ns (%s)", s);
	summary("otf2", otf2, s, sizeof(s));
	tap_ok(!strcmp(s, "running=2200 runnable=900 blocked=400 overlap=900"),
	       "OTF2: the same (%s)", s);

	/* The checker can fail. */
	write_expect(bad, NULL, 0, both_wakeups, all_requests, true);
	tap_eq(run(CHECK " json %s %s 2>/dev/null", json, bad), 1,
	       "checker: a blocked time 1 ns off fails (JSON)");
	tap_eq(run(CHECK " otf2 %s %s 2>/dev/null", otf2, bad), 1,
	       "checker: a blocked time 1 ns off fails (OTF2)");
	write_expect(bad, NULL, 0, "[[200,100,2000],[100,101,2100]]",
		     all_requests, false);
	tap_eq(run(CHECK " json %s %s 2>/dev/null", json, bad), 1,
	       "checker: a wrong waker fails (JSON)");
	tap_eq(run(CHECK " otf2 %s %s 2>/dev/null", otf2, bad), 1,
	       "checker: a wrong waker fails (OTF2)");
	write_expect(bad, NULL, 0, both_wakeups, pid100_requests, false);
	tap_eq(run(CHECK " json %s %s 2>/dev/null", json, bad), 1,
	       "checker: a missing block request fails (JSON)");
	tap_eq(run(CHECK " otf2 %s %s 2>/dev/null", otf2, bad), 1,
	       "checker: a missing block request fails (OTF2)");

	/* The JSON's other events. */
	tap_eq(run("python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[\"traceEvents\"]; "
		   "a=[e for e in d if e[\"ph\"]==\"i\"]; "
		   "n={(e[\"pid\"],e[\"tid\"]):e[\"args\"][\"name\"] for e in d if e[\"ph\"]==\"M\" and e[\"name\"]!=\"thread_sort_index\"}; "
		   "sys.exit(not (len(a)==1 and a[0][\"tid\"]==101 and a[0][\"ts\"]==3.5 and a[0][\"args\"][\"delay_ns\"]==1400 "
		   "and n[(100,100)]==\"t100\" and n[(100,101)]==\"t101\" and n[(200,200)]==\"t200\" "
		   "and n[(300,300)]==\"t300\" and n[(300,301)]==\"t301\" and n[(%d,%d)]==\"CPU 1\"))' %s", TL_CPU_PID, TL_CPU_PID + 2, json), 0,
	       "JSON: the alert an instant on t101 at 3.5 us, process (also t300's, which has no track), thread and CPU names");
	tap_eq(run("otf2-marker %s | grep -q 'Scope: LOCATION:1, Text: \"wakeup alert: t101 \\[101\\] delay 1400 ns\"'",
		   otf2), 0, "OTF2: the alert a marker on t101's location");

	/* --pid 100: t100 and t101; t200 woke them but has no track. */
	{
		static const int pids[] = { 100 };

		snprintf(json, sizeof(json), "%s/pid.json", dir);
		snprintf(otf2, sizeof(otf2), "%s/pid.otf2", dir);
		tl_view_init(&v, &m, pids, 1);
		f = fopen(json, "w");
		tap_ok(f && !tl_write_json(f, &v, "synthetic"), "--pid 100: JSON written");
		if (f)
			fclose(f);
		tap_ok(!tl_write_otf2(dir, "pid", &v, s, sizeof(s)),
		       "--pid 100: OTF2 written %s", s);
		write_expect(exp, pids, 1, "[]", pid100_requests, false);
		tap_eq(run(CHECK " json %s %s", json, exp), 0,
		       "--pid 100, JSON: only t100 and t101, no flow from t200, not t200's block request");
		tap_eq(run(CHECK " otf2 %s %s", otf2, exp), 0,
		       "--pid 100, OTF2: the same");
		summary("json", json, s, sizeof(s));
		tap_ok(!strcmp(s, "running=2200 runnable=900 blocked=400 overlap=900"),
		       "--pid 100: the CPU tracks still show t200 (%s)", s);
	}
	ex_model_free(&m);
}

static size_t entries(const char *path)
{
	DIR *d = opendir(path);
	size_t n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

#define ARGV(...) ((char *[]){ "timeline", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "timeline", __VA_ARGS__ }) / sizeof(char *)))
#define TIMELINE(...) lt_timeline_main(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void test_cli(void)
{
	char cli[128], a[160], b[160], c[160], exp[160], p[200];
	size_t n;

	snprintf(cli, sizeof(cli), "%s/cli", dir);
	mkdir(cli, 0755);
	snprintf(a, sizeof(a), "%s/a.json", cli);
	snprintf(b, sizeof(b), "%s/b.otf2", cli);
	snprintf(c, sizeof(c), "%s/c", cli);
	snprintf(exp, sizeof(exp), "%s/expect", dir);

	tap_eq(TIMELINE("synthetic", "-o", a), 0, "timeline -o a.json: exit 0");
	tap_eq(TIMELINE("synthetic", "-o", b), 0, "timeline -o b.otf2: exit 0");
	tap_eq(TIMELINE("synthetic", "--format", "otf2", "-o", c), 0,
	       "timeline --format otf2 -o c: exit 0");
	scenario();
	write_expect(exp, NULL, 0, both_wakeups, all_requests, false);
	tap_eq(run(CHECK " json %s %s", a, exp), 0, "a.json: JSON by its name, checked");
	tap_eq(run(CHECK " otf2 %s %s", b, exp), 0, "b.otf2: OTF2 by its name, checked");
	snprintf(p, sizeof(p), "%s/traces.otf2", c);
	tap_eq(run(CHECK " otf2 %s %s", p, exp), 0,
	       "c/: an OTF2 archive c/traces.otf2 (lo2s's name), checked");
	ex_model_free(&m);
	tap_eq(TIMELINE("synthetic", "--pid", "100,200", "-o", a), 0,
	       "--pid 100,200: exit 0 (a.json replaced)");

	n = entries(cli);
	tap_eq(TIMELINE("synthetic", "-o", b), 2, "b.otf2 again: exit 2 (not overwritten)");
	tap_eq(TIMELINE("synthetic", "-o", c), 2, "c/ again: exit 2 (c/traces.otf2 exists)");
	snprintf(p, sizeof(p), "%s/d.json", cli);
	tap_eq(TIMELINE("synthetic", "--format", "xml", "-o", p), 2, "--format xml: exit 2");
	tap_eq(TIMELINE("synthetic", "--pid", "abc", "-o", p), 2, "--pid abc: exit 2");
	tap_eq(TIMELINE("synthetic", "--pid", "100,", "-o", p), 2, "--pid 100,: exit 2");
	tap_eq(TIMELINE("synthetic", "--pid", "0", "-o", p), 2, "--pid 0: exit 2");
	tap_eq(TIMELINE("synthetic", "--pid", "999", "-o", p), 2,
	       "--pid 999 (not in the snapshot): exit 2");
	tap_eq(TIMELINE("synthetic"), 2, "no -o: exit 2");
	tap_eq(TIMELINE("-o", p), 2, "no snapshot: exit 2");
	tap_eq(TIMELINE("synthetic", "synthetic", "-o", p), 2, "two snapshots: exit 2");
	tap_eq(TIMELINE("nosuch", "-o", p), 2, "not a trace: exit 2");
	tap_eq(TIMELINE("synthetic", "-o", p, "--bogus"), 2, "unknown option: exit 2");
	tap_eq(TIMELINE("synthetic", "-o"), 2, "-o without a value: exit 2");
	snprintf(p, sizeof(p), "%s/d.txt", cli);
	tap_eq(TIMELINE("synthetic", "-o", p), 2, "-o d.txt (which format?): exit 2");
	snprintf(p, sizeof(p), "%s/e", dir);
	tap_eq(TIMELINE("synthetic", "-o", p), 0, "-o e (no such directory, no suffix): exit 0");
	snprintf(p, sizeof(p), "%s/e/traces.otf2", dir);
	tap_ok(access(p, F_OK) == 0, "-o e: the directory created, its archive e/traces.otf2");
	snprintf(p, sizeof(p), "%s/nodir/d.otf2", cli);
	tap_eq(TIMELINE("synthetic", "-o", p), 2, "-o nodir/d.otf2: exit 2");
	snprintf(p, sizeof(p), "%s/nodir/d.json", cli);
	tap_eq(TIMELINE("synthetic", "-o", p), 2, "-o nodir/d.json: exit 2");
	tap_eq(TIMELINE("synthetic", "--format", "json", "-o", c), 2,
	       "--format json -o a directory: exit 2");
	tap_eq(TIMELINE("synthetic", "--format", "otf2", "-o", a), 2,
	       "--format otf2 -o an existing file: exit 2");
	snprintf(p, sizeof(p), "%s/.otf2", cli);
	tap_eq(TIMELINE("synthetic", "-o", p), 2, "-o .otf2 (no name): exit 2");
	tap_eq(entries(cli), n, "nothing written by the refused commands (%zu entries)", n);
	tap_eq(TIMELINE("--help"), 0, "--help: exit 0");
}

/*
 * A waking at the trace's last instant (the guest's ksoftirqd once): the
 * runnable state it starts is empty, so neither writer draws it, and a
 * wakeup arrow would have no state to point at.  Both writers agree and
 * the JSON's flows all end at a state.
 */
static void test_last_instant_wakeup(void)
{
	char json[128], otf2[128], s[256];
	struct tl_view v;
	FILE *f;

	ex_model_init(&m);
	thread_of(100, 100);
	thread_of(200, 200);
	sw(1000, 0, 0, 0, 100);
	sw(1200, 1, 0, 0, 200);
	sw(1500, 0, 100, 1, 0);		/* t100 blocked */
	wake(2000, 1, 0, 100, 200);	/* the trace's last event */
	ex_model_finish(&m);
	snprintf(json, sizeof(json), "%s/last.json", dir);
	snprintf(otf2, sizeof(otf2), "%s/last.otf2", dir);
	tl_view_init(&v, &m, NULL, 0);
	f = fopen(json, "w");
	tap_ok(f && !tl_write_json(f, &v, "synthetic"), "last-instant wakeup: JSON written");
	if (f)
		fclose(f);
	tap_ok(!tl_write_otf2(dir, "last", &v, s, sizeof(s)),
	       "last-instant wakeup: OTF2 written %s", s);
	tap_eq(run(CHECK " compare %s %s >/dev/null", json, otf2), 0,
	       "a waking at the trace's last instant: no arrow in either format (JSON and OTF2 agree)");
	ex_model_free(&m);
}

int main(void)
{
	tap_plan(65);
	(void)edge;			/* explain_feed.h's, for graph tests */
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	test_model();
	test_writers();
	test_last_instant_wakeup();
	test_cli();
	if (run("rm -rf %s", dir))
		tap_diag("could not remove %s", dir);
	return tap_done();
}
