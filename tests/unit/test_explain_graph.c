// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_graph.c - the explain state model, waiting dependency graph
 * (DepGraph Algorithm 1) and GAPP classification on synthetic event
 * sequences with known answers: lock contention, CPU contention, disk
 * contention, a syscall entered before the trace began.
 */
#include <stdio.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_depgraph.h"
#include "ex_model.h"
#include "ex_report.h"
#include "explain_feed.h"
#include "tap.h"

static void feed(struct ex_ev *ev)
{
	ex_model_feed(&m, ev);
}

static void wake(uint64_t ts, int cpu, int tid)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_WAKING, ts, cpu);
	ev.tid = tid;
	ev.target_cpu = cpu;
	feed(&ev);
}

static void simple(enum ex_ev_type type, uint64_t ts, int cpu)
{
	struct ex_ev ev;

	ex_ev_init(&ev, type, ts, cpu);
	feed(&ev);
}

static void blk(enum ex_ev_type type, uint64_t ts, int cpu, uint64_t sector,
		int tid)
{
	struct ex_ev ev;

	ex_ev_init(&ev, type, ts, cpu);
	ev.dev = 251ULL << 20;	/* 251:0 */
	ev.sector = sector;
	ev.tid = tid;
	feed(&ev);
}

static void test_lock(void)
{
	struct ex_report r = { 0 };
	struct ex_class_report *cr = &r.cr;

	ex_model_init(&m);
	/* holder 10 on CPU 0, waiter 20 on CPU 1 */
	sw(0, 0, 0, 0, 10);
	sw(0, 1, 0, 0, 20);
	sys(1000, 0, 10, true, "clock_nanosleep", -1);
	sw(1100, 0, 10, 1, 0);
	sys(2000, 1, 20, true, "futex", 0x1000);
	sw(2100, 1, 20, 1, 0);
	simple(EV_TIMER_ENTRY, 101000, 0);
	wake(101000, 0, 10);
	simple(EV_TIMER_EXIT, 101050, 0);
	sw(101200, 0, 0, 0, 10);
	sys(101300, 0, 10, false, "clock_nanosleep", 0);
	sys(101400, 0, 10, true, "futex", 0x1000);
	wake(101500, 0, 20);
	sys(101600, 0, 10, false, "futex", 1);
	sw(101700, 1, 0, 0, 20);
	sys(101800, 1, 20, false, "futex", 0);
	sw(102000, 1, 20, 1, 0);
	ex_model_finish(&m);

	ex_report_build(&r, &m, "synthetic", 20, 2000, 101800);
	tap_eq(r.g.total, 99800, "lock: root total is the interval");
	tap_eq(edge(&r.g, "t20 [20]", "futex"), 99800, "lock: waiter -> futex over the whole interval");
	tap_eq(edge(&r.g, "futex", "t10 [10]"), 99400, "lock: futex -> holder = blocked time (direct dependency)");
	tap_eq(edge(&r.g, "t10 [10]", "clock_nanosleep"), 98900 + 200 + 100,
	       "lock: holder -> clock_nanosleep (followed recursively)");
	tap_eq(edge(&r.g, "clock_nanosleep", "timer"), 98900, "lock: holder's sleep ended by the timer");
	tap_eq(edge(&r.g, "CPU 1", "idle (CPU waking up)"), 200,
	       "lock: runnable on an idle CPU -> the CPU waking up");
	tap_eq(cr->state_ns[ST_BLOCKED], 99400, "lock: blocked time");
	tap_eq(cr->state_ns[ST_RUNNABLE], 200, "lock: runnable time");
	tap_eq(cr->state_ns[ST_RUNNING], 200, "lock: running time");
	tap_eq(cr->class_ns[C_SYNC], 99400, "lock: classified synchronisation");
	tap_eq(cr->class_ns[C_CPU], 200, "lock: runnable classified CPU");
	tap_ok(cr->ncauses && cr->causes[0].cls == C_SYNC &&
	       strstr(cr->causes[0].what, "0x1000") &&
	       strstr(cr->causes[0].what, "t10 [10]"),
	       "lock: main cause names the futex and the releaser (%s)",
	       cr->ncauses ? cr->causes[0].what : "none");
	/* The lock view is the application's: the waiter's process (10 and
	 * 20 have no known process: each is its own). */
	tap_eq(r.lv.n, 1, "lock view: one futex");
	tap_eq(r.lv.n ? (uint64_t)r.lv.locks[0].uaddr : 0, 0x1000, "lock view: its address");
	tap_eq(r.lv.n && r.lv.locks[0].nreleasers ? (uint64_t)r.lv.locks[0].releasers[0].tid : 0,
	       10, "lock view: released by the holder");
	tap_eq(r.lv.n && r.lv.locks[0].nwaiters ? (uint64_t)r.lv.locks[0].waiters[0].tid : 0,
	       20, "lock view: the waiter");

	/* The formats run and say the essentials. */
	{
		char buf[16384] = "";
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

		ex_out_text(f, &r, 0.005);
		ex_out_json(f, &r);
		ex_out_dot(f, &r, 0.005);
		fclose(f);
		tap_ok(strstr(buf, "futex (99800") == NULL &&
		       strstr(buf, "`- futex (99.80us, 100.0%") &&
		       strstr(buf, "`- t10 [10] (99.40us, 99.6%"),
		       "text tree shows thread -> futex -> holder, times with units");
		tap_ok(strstr(buf, "\"kind\":\"woken_by\"") != NULL, "JSON has the woken_by edge");
		tap_ok(strstr(buf, "digraph depgraph") != NULL, "DOT output");
	}
	ex_report_free(&r);
	ex_model_free(&m);
}

/* Cause i of r is WHAT, for NS. */
static bool cause_is(const struct ex_report *r, size_t i, const char *what,
		     uint64_t ns)
{
	return i < r->cr.ncauses && !strcmp(r->cr.causes[i].what, what) &&
	       r->cr.causes[i].ns == ns;
}

static void test_cpu(void)
{
	struct ex_report r = { 0 };

	ex_model_init(&m);
	sw(0, 1, 0, 0, 30);
	/* preempted: LTTng's TASK_REPORT_MAX encoding */
	sw(100, 1, 30, 0x100, 40);
	sw(200100, 1, 40, 1, 30);
	sw(200200, 1, 30, 1, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 30, 0, 200200);
	tap_eq(r.cr.state_ns[ST_RUNNABLE], 200000, "cpu: preempted time is runnable");
	tap_eq(edge(&r.g, "user space", "CPU 1"), 200000, "cpu: runnable -> CPU 1");
	tap_eq(edge(&r.g, "CPU 1", "t40 [40]"), 200000, "cpu: CPU 1 -> the thread that ran");
	tap_eq(r.cr.class_ns[C_CPU], 200000, "cpu: classified CPU contention");
	tap_ok(r.cr.ncauses == 1 &&
	       cause_is(&r, 0, "waiting for CPU 1, held by t40 [40]", 200000),
	       "cpu: the cause names the thread that held the CPU");
	ex_report_free(&r);
	ex_model_free(&m);

	/* The holder an RT task (LTTng's next_prio -51: RT priority 50) for
	 * 150 us, then the CPU idle 50 us: two causes. */
	ex_model_init(&m);
	sw(0, 1, 0, 0, 30);
	sw_prio(100, 1, 30, 0x100, 41, -51);
	sw(150100, 1, 41, 1, 0);
	sw(200100, 1, 0, 0, 30);
	sw(200200, 1, 30, 1, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 30, 0, 200200);
	tap_ok(r.cr.ncauses == 2 &&
	       cause_is(&r, 0, "waiting for CPU 1, held by t41 [41], RT priority 50", 150000) &&
	       cause_is(&r, 1, "waiting for CPU 1, idle (waking up)", 50000),
	       "cpu: an RT holder named with its priority, then the CPU idle");
	ex_report_free(&r);
	ex_model_free(&m);

	/* The holder on CPU 1 since before the trace (no switch-in seen):
	 * its priority from the switch where it leaves (prev_prio). */
	ex_model_init(&m);
	sw(0, 0, 0, 0, 30);
	sw(50, 0, 30, 1, 0);
	event(EV_WAKING, 100, 1, 30, 0);
	sw_prios(150100, 1, 41, 1, 30, -51, EX_PRIO_NONE);
	sw(200100, 1, 30, 1, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 30, 50, 200100);
	tap_ok(r.cr.ncauses >= 1 &&
	       cause_is(&r, 0, "waiting for CPU 1, held by t41 [41], RT priority 50", 150000),
	       "cpu: a holder since before the trace named with the priority it leaves with");
	ex_report_free(&r);
	ex_model_free(&m);

	/* The holder switched in as a normal task (next_prio 20), then made
	 * itself SCHED_FIFO 50 while running: the priority it leaves with. */
	ex_model_init(&m);
	sw(0, 1, 0, 0, 30);
	sw_prios(100, 1, 30, 0x100, 41, EX_PRIO_NONE, 20);
	sw_prios(150100, 1, 41, 1, 30, -51, EX_PRIO_NONE);
	sw(200100, 1, 30, 1, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 30, 0, 200100);
	tap_ok(r.cr.ncauses >= 1 &&
	       cause_is(&r, 0, "waiting for CPU 1, held by t41 [41], RT priority 50", 150000),
	       "cpu: a holder that raised its priority while running named with the one it leaves with");
	ex_report_free(&r);
	ex_model_free(&m);
}

static void test_disk(void)
{
	struct ex_report r = { 0 };
	struct ex_ev ev;

	ex_model_init(&m);
	sw(0, 1, 0, 0, 50);
	sw(0, 0, 0, 0, 60);
	ex_ev_init(&ev, EV_SD_FD, 0, 0);
	ev.pid = 50;
	ev.fd = 3;
	snprintf(ev.filename, sizeof(ev.filename), "/dev/nullb0");
	feed(&ev);
	sys(1, 1, 50, true, "pwrite64", 3);
	blk(EV_BLK_INSERT, 5, 0, 8, 60);
	sw(6, 0, 60, 2, 0);
	blk(EV_BLK_INSERT, 10, 1, 0, 50);
	blk(EV_BLK_ISSUE, 11, 1, 0, 50);
	sw(20, 1, 50, 2, 0);
	simple(EV_TIMER_ENTRY, 100010, 0);
	blk(EV_BLK_COMPLETE, 100010, 0, 0, -1);
	wake(100010, 0, 50);
	blk(EV_BLK_COMPLETE, 100020, 0, 8, -1);
	wake(100020, 0, 60);
	simple(EV_TIMER_EXIT, 100030, 0);
	sw(100100, 1, 0, 0, 50);
	sys(100200, 1, 50, false, "pwrite64", 4096);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 50, 0, 100200);
	tap_eq(edge(&r.g, "pwrite64", "disk 251:0"), 99990, "disk: blocked -> disk (own request)");
	tap_eq(edge(&r.g, "disk 251:0", "t60 [60]"), 99990, "disk: disk -> the other writer in flight");
	tap_eq(r.cr.class_ns[C_IO], 99990, "disk: classified I/O");
	tap_ok(r.cr.ncauses && strstr(r.cr.causes[0].what, "/dev/nullb0") != NULL,
	       "disk: the cause names the file (%s)", r.cr.ncauses ? r.cr.causes[0].what : "none");
	tap_eq(r.cr.bytes_written, 4096, "disk: bytes written");
	ex_report_free(&r);
	ex_model_free(&m);
}

static void test_syscall_before_trace(void)
{
	struct ex_report r = { 0 };

	ex_model_init(&m);
	sw(0, 0, 70, 1, 0);		/* blocked since before the trace */
	sw(50, 0, 0, 0, 80);
	wake(1000, 0, 70);		/* woken by 80 */
	sw(1100, 0, 80, 1, 70);
	sys(1200, 0, 70, false, "read", 10);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 70, 0, 1200);
	tap_eq(edge(&r.g, "t70 [70]", "read"), 1200, "open syscall at trace start gets the time before its exit");
	tap_eq(edge(&r.g, "read", "t80 [80]"), 1000, "its blocked time depends on the waker");
	tap_eq(r.cr.class_ns[C_UNKNOWN] + r.cr.class_ns[C_IO], 1000,
	       "read without fd is classified (unknown)");
	ex_report_free(&r);
	ex_model_free(&m);
}

static void test_graph_merge(void)
{
	struct ex_graph a, b;
	int x, y;

	ex_graph_init(&a, true);
	ex_graph_init(&b, true);
	x = ex_graph_node(&a, N_THREAD, 1, "w", "");
	y = ex_graph_node(&a, N_SYSCALL, 1, "w", "futex");
	ex_graph_add(&a, x, y, E_CONTEXT, 10);
	ex_graph_add(&a, x, y, E_CONTEXT, 5);
	tap_eq(a.nedges, 1, "Algorithm 2: an existing edge is not duplicated");
	tap_eq(a.edges[0].weight, 15, "Algorithm 2: its weight is summed");
	x = ex_graph_node(&b, N_THREAD, 2, "w", "");	/* same name: same node */
	y = ex_graph_node(&b, N_SYSCALL, 2, "w", "futex");
	ex_graph_add(&b, x, y, E_CONTEXT, 7);
	ex_graph_merge(&a, &b);
	tap_eq(a.nnodes, 2, "merge by name: nodes shared");
	tap_eq(a.edges[0].weight, 22, "merge: weights summed");
	tap_eq(a.edges[0].count, 3, "merge: counts summed");
	ex_graph_free(&a);
	ex_graph_free(&b);
}

int main(void)
{
	tap_plan(40);
	test_lock();
	test_cpu();
	test_disk();
	test_syscall_before_trace();
	test_graph_merge();
	return tap_done();
}
