// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_critical.c - GAPP's criticality metric (ex_critical.c) on
 * synthetic traces, against values computed by hand (the arithmetic is in
 * the comments):
 *
 *  - a lock serialising four threads on two CPUs: the time slices and
 *    their active threads, the critical ones under N/2, each waiting
 *    period's criticality, the phase, the ranking by futex and by thread,
 *    what the most critical wait waited on and who released it;
 *  - the same with --critical-threshold 1 and 3;
 *  - the application chosen by pid and by thread name;
 *  - a thread appearing in the middle of the window (absent before, not
 *    waiting), a thread that exits (waits for nothing after), a window
 *    with no waiting (nothing critical);
 *  - the text section and the JSON object, alone and in explain's report;
 *  - end to end through lt_explain_main, on the lock trace as a synthetic
 *    snapshot (the trace reader replaced below): the report's application
 *    (the explained thread's process, --pid, --comm), --critical-threshold
 *    taken, and bad values refused with nothing written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ex_critical.h"
#include "ex_model.h"
#include "ex_report.h"
#include "ex_trace.h"
#include "explain.h"
#include "explain_feed.h"
#include "explain_run.h"
#include "tap.h"

/* sched_waking (or wakeup_new) of tid, from the context of thread ctx. */
static void wake(enum ex_ev_type type, uint64_t ts, int cpu, int tid, int ctx)
{
	struct ex_ev ev;

	ex_ev_init(&ev, type, ts, cpu);
	ev.tid = tid;
	ev.target_cpu = cpu;
	ev.ctx_tid = ctx;
	ex_model_feed(&m, &ev);
}

/* Thread tid belongs to process pid (sched_process_fork). */
static void fork_ev(uint64_t ts, int tid, int pid)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_FORK, ts, 0);
	ev.tid = tid;
	ev.pid = pid;
	snprintf(ev.comm, sizeof(ev.comm), "t%d", tid);
	ex_model_feed(&m, &ev);
}

/* sched_process_exit of tid. */
static void exit_ev(uint64_t ts, int cpu, int tid)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_EXIT, ts, cpu);
	ev.tid = tid;
	ex_model_feed(&m, &ev);
}

#define S_SLEEP 1		/* prev_state: TASK_INTERRUPTIBLE ('S') */
#define S_DEAD 0x10		/* prev_state: EXIT_DEAD ('X') */

/* Criticality in whole weighted ns (every expected value is an integer,
 * or rounded as said). */
static unsigned long long ns(double v)
{
	return (unsigned long long)(v + 0.5);
}

static const struct ex_crit_period *period_of(const struct ex_crit *c, int tid)
{
	for (size_t i = 0; i < c->nperiods; i++)
		if (c->periods[i].tid == tid)
			return &c->periods[i];
	return NULL;
}

/*
 * Process 10, threads 11-14, two CPUs; one lock, futex 0x1000.
 *
 *   ts     event                                   active  waiting
 *   0      11 runs on CPU 0, 12 on CPU 1,          4       0
 *          13 and 14 runnable
 *   1000   12 blocks in futex 0x1000 (13 runs)     3       1
 *   2000   13 blocks in futex 0x1000 (14 runs)     2       2
 *   3000   14 blocks in futex 0x1000 (CPU 1 idle)  1       3
 *   5000   11 wakes 12 (futex), 12 runnable,       2       2
 *          runs at 5500
 *   6000   11 blocks in futex 0x2000               1       3
 *   7000   12 wakes 13, 14 and 11                  4       0
 *   8000   end of the trace
 *
 * A thread 30 of another process (30) exists in the trace too.
 */
static void lock_trace(void)
{
	ex_model_init(&m);
	for (int t = 11; t <= 14; t++)
		fork_ev(0, t, 10);
	fork_ev(0, 30, 30);
	sw(0, 0, 0, 0, 11);
	sw(0, 1, 0, 0, 12);
	wake(EV_WAKING, 0, 0, 13, -1);
	wake(EV_WAKING, 0, 0, 14, -1);
	sys(1000, 1, 12, true, "futex", 0x1000);
	sw(1000, 1, 12, S_SLEEP, 13);
	sys(2000, 1, 13, true, "futex", 0x1000);
	sw(2000, 1, 13, S_SLEEP, 14);
	sys(3000, 1, 14, true, "futex", 0x1000);
	sw(3000, 1, 14, S_SLEEP, 0);
	sys(5000, 0, 11, true, "futex", 0x1000);
	wake(EV_WAKING, 5000, 0, 12, 11);
	sys(5000, 0, 11, false, "futex", 1);
	sw(5500, 1, 0, 0, 12);
	sys(5500, 1, 12, false, "futex", 0);
	sys(6000, 0, 11, true, "futex", 0x2000);
	sw(6000, 0, 11, S_SLEEP, 0);
	sys(7000, 1, 12, true, "futex", 0x1000);
	wake(EV_WAKING, 7000, 1, 13, 12);
	wake(EV_WAKING, 7000, 1, 14, 12);
	wake(EV_WAKING, 7000, 1, 11, 12);
	sys(7000, 1, 12, false, "futex", 3);
	sw(8000, 0, 0, 0, 13);
	ex_model_finish(&m);
}

static const int lock_tids[] = { 11, 12, 13, 14 };

static void test_lock_default(void)
{
	struct ex_crit c;
	const struct ex_crit_period *p;

	lock_trace();
	ex_critical(&m, lock_tids, 4, 0, 8000, -1, &c);

	/* N = 4 threads in the window; N_min = N/2 = 2. */
	tap_eq(c.nthreads, 4, "lock: 4 application threads");
	tap_eq(c.threshold, 2, "lock: threshold N/2 = 2");
	tap_ok(!c.threshold_given, "lock: the threshold is the default");
	/*
	 * Slices (equal neighbours merged: 12 going from runnable to
	 * running at 5500 changes no count):
	 *   [0,1000) 4/0  [1000,2000) 3/1  [2000,3000) 2/2  [3000,5000) 1/3
	 *   [5000,6000) 2/2  [6000,7000) 1/3  [7000,8000) 4/0
	 */
	tap_eq(c.nsl, 7, "lock: 7 time slices");
	tap_ok(c.nsl == 7 && c.sl[3].start == 3000 && c.sl[3].end == 5000 &&
	       c.sl[3].active == 1 && c.sl[3].waiting == 3,
	       "lock: slice [3000,5000) has 1 active, 3 waiting");
	tap_ok(c.nsl == 7 && c.sl[4].start == 5000 && c.sl[4].end == 6000 &&
	       c.sl[4].active == 2 && c.sl[4].waiting == 2,
	       "lock: slice [5000,6000) has 2 active, 2 waiting (12 runnable, then running)");
	/* Time with k active: 1: 2000 + 1000 = 3000; 2: 1000 + 1000 = 2000;
	 * 3: 1000; 4: 1000 + 1000 = 2000. */
	tap_eq(c.active_ns[0], 0, "lock: never 0 active");
	tap_eq(c.active_ns[1], 3000, "lock: 3000 ns with 1 active");
	tap_eq(c.active_ns[2], 2000, "lock: 2000 ns with 2 active");
	tap_eq(c.active_ns[3], 1000, "lock: 1000 ns with 3 active");
	tap_eq(c.active_ns[4], 2000, "lock: 2000 ns with 4 active");
	tap_eq(c.observed_ns, 8000, "lock: 8000 ns observed");
	/* Critical (active <= 2, some waiting): [2000,7000) = 5000 ns; not
	 * [1000,2000) (3 active) nor the ends (nobody waits). */
	tap_eq(c.critical_ns, 5000, "lock: 5000 ns critical");
	/*
	 * Each waiting period: the critical slices it spans, length / active.
	 *   12 [1000,5000): 1000/2 + 2000/1                    = 2500
	 *   13 [2000,7000): 1000/2 + 2000/1 + 1000/2 + 1000/1  = 4000
	 *   14 [3000,7000): 2000/1 + 1000/2 + 1000/1           = 3500
	 *   11 [6000,7000): 1000/1                             = 1000
	 * Total 11000; by slice, length * waiting / active:
	 *   1000*2/2 + 2000*3/1 + 1000*2/2 + 1000*3/1 = 1000+6000+1000+3000.
	 */
	tap_eq(c.nperiods, 4, "lock: 4 waiting periods");
	p = period_of(&c, 12);
	tap_eq(p ? ns(p->criticality) : 0, 2500, "lock: 12's wait: criticality 2500");
	tap_eq(p ? p->critical_ns : 0, 3000, "lock: 12's wait: 3000 ns of it critical");
	tap_eq(p ? p->min_active : 9, 1, "lock: 12's wait: down to 1 active");
	p = period_of(&c, 14);
	tap_eq(p ? ns(p->criticality) : 0, 3500, "lock: 14's wait: criticality 3500");
	p = period_of(&c, 11);
	tap_eq(p ? ns(p->criticality) : 0, 1000, "lock: 11's wait: criticality 1000");
	tap_eq(ns(c.criticality), 11000, "lock: total criticality 11000");
	/* The most critical wait: 13's (4000 over 5000 ns), on the lock,
	 * released by 12 from its futex call. */
	p = &c.periods[0];
	tap_eq(p->tid, 13, "lock: the most critical wait is 13's");
	tap_eq(ns(p->criticality), 4000, "lock: ... criticality 4000");
	tap_eq(p->critical_ns, 5000, "lock: ... all its 5000 ns critical");
	tap_ok(!strcmp(p->object, "futex 0x1000"), "lock: ... waiting on futex 0x1000 (%s)", p->object);
	tap_ok(!strcmp(p->waker, "t12 [12] in futex"), "lock: ... released by t12 [12] in futex (%s)", p->waker);
	tap_eq(p->waker_tid, 12, "lock: ... waker tid 12");
	tap_ok(c.periods[1].tid == 14 && c.periods[2].tid == 12 && c.periods[3].tid == 11,
	       "lock: then 14 (3500), 12 (2500), 11 (1000)");
	/* By wait object: futex 0x1000: 2500 + 4000 + 3500 = 10000 over 3
	 * waits; futex 0x2000: 1000. */
	tap_eq(c.nobjects, 2, "lock: 2 wait objects");
	tap_ok(!strcmp(c.objects[0].object, "futex 0x1000"), "lock: futex 0x1000 ranks first");
	tap_eq(ns(c.objects[0].criticality), 10000, "lock: futex 0x1000: criticality 10000");
	tap_eq(c.objects[0].count, 3, "lock: futex 0x1000: 3 waits");
	/* Its waiting time: 4000 + 5000 + 4000 = 13000; critical 3000 + 5000 + 4000. */
	tap_eq(c.objects[0].waiting_ns, 13000, "lock: futex 0x1000: 13000 ns waited");
	tap_eq(c.objects[0].critical_ns, 12000, "lock: futex 0x1000: 12000 ns critical");
	/*
	 * GAPP's per-thread metric, over active time in critical slices,
	 * length / active:
	 *   11: [2000,3000) 1000/2 + [3000,5000) 2000/1 + [5000,6000) 1000/2 = 3000
	 *   12: [5000,6000) 1000/2 + [6000,7000) 1000/1                      = 1500
	 *   14: [2000,3000) 1000/2                                           =  500
	 *   13: never active in a critical slice                             =    0
	 * (sum 5000: every critical ns once, as each slice has an active
	 * thread).  The holder, 11, ranks first; its waits: 1000.
	 */
	tap_eq(c.nthreads_sum, 4, "lock: 4 threads summed");
	tap_ok(c.nthreads_sum == 4 && c.threads[0].tid == 11 && c.threads[1].tid == 12 &&
	       c.threads[2].tid == 14 && c.threads[3].tid == 13,
	       "lock: GAPP's per-thread ranking: 11, 12, 14, 13");
	tap_eq(ns(c.threads[0].active_criticality), 3000, "lock: 11 (the holder): 3000");
	tap_eq(c.threads[0].active_critical_ns, 4000, "lock: 11 active 4000 ns of the critical time");
	tap_eq(ns(c.threads[1].active_criticality), 1500, "lock: 12: 1500");
	tap_eq(ns(c.threads[2].active_criticality), 500, "lock: 14: 500");
	tap_eq(ns(c.threads[3].active_criticality), 0, "lock: 13: 0");
	tap_eq(ns(c.threads[0].criticality), 1000, "lock: 11's waits: 1000");
	tap_eq(ns(c.threads[3].criticality), 4000, "lock: 13's waits: 4000");
	/* One phase [2000,7000): 1-2 active, up to 3 waiting, criticality
	 * 11000 (every wait of the window falls in it). */
	tap_eq(c.nphases, 1, "lock: one critical phase");
	tap_ok(c.nphases == 1 && c.phases[0].start == 2000 && c.phases[0].end == 7000,
	       "lock: the phase is [2000,7000)");
	tap_ok(c.nphases == 1 && c.phases[0].min_active == 1 &&
	       c.phases[0].max_active == 2 && c.phases[0].max_waiting == 3,
	       "lock: the phase has 1-2 active, up to 3 waiting");
	tap_eq(c.nphases ? ns(c.phases[0].criticality) : 0, 11000,
	       "lock: the phase's criticality is the waits' (11000)");
	ex_crit_free(&c);
	ex_model_free(&m);
}

static void test_lock_thresholds(void)
{
	struct ex_crit c;

	lock_trace();
	/*
	 * --critical-threshold 1: only [3000,5000) and [6000,7000) (1
	 * active): 3000 ns.  Criticality 2000*3/1 + 1000*3/1 = 9000; two
	 * phases, [3000,5000) (6000) first.
	 */
	ex_critical(&m, lock_tids, 4, 0, 8000, 1, &c);
	tap_ok(c.threshold == 1 && c.threshold_given, "threshold 1: given");
	tap_eq(c.critical_ns, 3000, "threshold 1: 3000 ns critical");
	tap_eq(ns(c.criticality), 9000, "threshold 1: criticality 9000");
	tap_eq(c.nphases, 2, "threshold 1: two phases");
	tap_ok(c.nphases == 2 && c.phases[0].start == 3000 &&
	       ns(c.phases[0].criticality) == 6000 && c.phases[1].start == 6000 &&
	       ns(c.phases[1].criticality) == 3000,
	       "threshold 1: [3000,5000) 6000, then [6000,7000) 3000");
	ex_crit_free(&c);
	/*
	 * --critical-threshold 3: [1000,2000) too (3 active, 1 waiting):
	 * 6000 ns; it adds 1000*1/3 = 333.3 to 12's wait (2833.3) and to the
	 * total (11333.3).
	 */
	ex_critical(&m, lock_tids, 4, 0, 8000, 3, &c);
	tap_eq(c.critical_ns, 6000, "threshold 3: 6000 ns critical");
	tap_eq(ns(c.criticality), 11333, "threshold 3: criticality 11333");
	tap_eq(period_of(&c, 12) ? ns(period_of(&c, 12)->criticality) : 0, 2833,
	       "threshold 3: 12's wait 2833");
	tap_eq(c.nphases, 1, "threshold 3: one phase [1000,7000)");
	ex_crit_free(&c);
	/* --critical-threshold 0: never fewer than 1 active: nothing. */
	ex_critical(&m, lock_tids, 4, 0, 8000, 0, &c);
	tap_eq(c.critical_ns, 0, "threshold 0: nothing critical");
	ex_crit_free(&c);
	ex_model_free(&m);
}

static void test_app_selection(void)
{
	struct ex_app by_pid = { .pids = (const int[]){ 10 }, .npids = 1 };
	struct ex_app by_comm = { .comm = "t13" };
	struct ex_app other = { .pids = (const int[]){ 30 }, .npids = 1, .comm = "nosuch" };
	struct ex_app dflt = { .pid = 10 };
	struct ex_crit c;
	int *tids;
	size_t n;

	lock_trace();
	n = ex_crit_app_threads(&m, &by_pid, &tids);
	tap_ok(n == 4 && tids[0] == 11 && tids[3] == 14,
	       "application by pid 10: threads 11-14, not 30 (%zu)", n);
	free(tids);
	n = ex_crit_app_threads(&m, &by_comm, &tids);
	tap_eq(n, 4, "application by a thread's name (t13): its process's 4 threads");
	free(tids);
	n = ex_crit_app_threads(&m, &other, &tids);
	tap_ok(n == 1 && tids[0] == 30, "application by pid 30: thread 30 alone");
	free(tids);
	/* The default, the explained thread's process: as test_lock_default. */
	ex_critical_app(&m, &dflt, 0, 8000, -1, &c);
	tap_ok(c.nthreads == 4 && c.critical_ns == 5000 && ns(c.criticality) == 11000,
	       "application of the explained thread (process 10): 4 threads, 5000 ns critical, 11000");
	ex_crit_free(&c);
	ex_model_free(&m);
}

/*
 * Process 20: 21 runs on CPU 0 from 0 and exits at 3500 (its
 * sched_process_exit, then its last switch, as EXIT_DEAD); 23 blocks in
 * futex 0x3000 at 0 and is woken by 21 at 3000; 22 is created at 2000
 * (wakeup_new), runs on CPU 1 at 2500.  Trace ends at 4000.
 *
 *   [0,2000)     21 active, 23 waiting, 22 not there   1 / 1
 *   [2000,3000)  21, 22 active; 23 waiting             2 / 1
 *   [3000,3500)  21, 22, 23 active                     3 / 0
 *   [3500,4000)  22, 23 active; 21 dead                2 / 0
 *
 * N = 3, N_min = 3/2 = 1: critical [0,2000) only.
 */
static void late_trace(bool exit_traced)
{
	ex_model_init(&m);
	sw(0, 0, 0, 0, 21);
	sys(0, 1, 23, true, "futex", 0x3000);
	sw(0, 1, 23, S_SLEEP, 0);
	wake(EV_WAKEUP_NEW, 2000, 1, 22, 21);
	sw(2500, 1, 0, 0, 22);
	wake(EV_WAKING, 3000, 0, 23, 21);
	if (exit_traced)
		exit_ev(3500, 0, 21);
	sw(3500, 0, 21, S_DEAD, 23);
	sw(4000, 1, 22, 0, 0);
	ex_model_finish(&m);
}

static const int late_tids[] = { 21, 22, 23 };

static void test_late_thread(void)
{
	struct ex_crit c;

	late_trace(true);
	ex_critical(&m, late_tids, 3, 0, 4000, -1, &c);
	tap_eq(c.nthreads, 3, "late thread: 3 threads in the window");
	tap_eq(c.threshold, 1, "late thread: threshold 3/2 = 1");
	/*
	 * [0,2000): 1 active, 1 waiting -- 22, not there yet, is not
	 * waiting (counted so it would make 2 waiting, and 23's
	 * criticality would not change but the slice's would).
	 */
	tap_ok(c.nsl >= 1 && c.sl[0].start == 0 && c.sl[0].end == 2000 &&
	       c.sl[0].active == 1 && c.sl[0].waiting == 1,
	       "late thread: [0,2000) has 1 active, 1 waiting");
	tap_eq(c.critical_ns, 2000, "late thread: 2000 ns critical");
	/* 23's wait [0,3000): 2000/1 in [0,2000); [2000,3000) has 2 active. */
	tap_eq(c.nperiods, 1, "late thread: one waiting period (the dead 21 waits for nothing)");
	tap_eq(c.nperiods ? ns(c.periods[0].criticality) : 0, 2000,
	       "late thread: 23's wait: criticality 2000");
	tap_eq(c.nperiods ? c.periods[0].critical_ns : 0, 2000,
	       "late thread: 23's wait: 2000 ns critical of 3000");
	tap_ok(c.nperiods && !strcmp(c.periods[0].waker, "t21 [21]"),
	       "late thread: 23 released by t21 [21] (%s)",
	       c.nperiods ? c.periods[0].waker : "");
	/* Time with k active: 1: 2000; 2: 1000 + 500; 3: 500. */
	tap_ok(c.active_ns[1] == 2000 && c.active_ns[2] == 1500 && c.active_ns[3] == 500,
	       "late thread: 2000 ns with 1 active, 1500 with 2, 500 with 3");
	tap_eq(c.nphases, 1, "late thread: one phase");
	/* GAPP's metric: 21 alone active in [0,2000): 2000/1. */
	tap_ok(c.nthreads_sum == 3 && c.threads[0].tid == 21 &&
	       ns(c.threads[0].active_criticality) == 2000,
	       "late thread: 21 ran the critical 2000 ns alone: 2000");
	ex_crit_free(&c);
	ex_model_free(&m);
}

/*
 * The same without 21's sched_process_exit (a session without it, or the
 * event lost): its switch out as EXIT_DEAD alone ends its life -- after
 * it, 21 is not a waiting thread.  [3500,4000): 22 and 23 active, nobody
 * waiting; with 21 waiting it would be 2 active, 1 waiting.
 */
static void test_exit_untraced(void)
{
	struct ex_crit c;

	late_trace(false);
	ex_critical(&m, late_tids, 3, 0, 4000, -1, &c);
	tap_eq(c.nperiods, 1, "exit not traced: still one waiting period");
	tap_ok(c.nsl && c.sl[c.nsl - 1].start == 3500 && c.sl[c.nsl - 1].active == 2 &&
	       c.sl[c.nsl - 1].waiting == 0,
	       "exit not traced: [3500,4000) 2 active, none waiting");
	ex_crit_free(&c);
	ex_model_free(&m);
}

static void test_no_waiting(void)
{
	struct ex_crit c;

	/* [3000,4000) of the late trace: everybody active (or dead). */
	late_trace(true);
	ex_critical(&m, late_tids, 3, 3000, 4000, -1, &c);
	tap_eq(c.nthreads, 3, "no waiting: 3 threads in the window");
	tap_eq(c.nperiods, 0, "no waiting: no waiting period");
	tap_eq(c.critical_ns, 0, "no waiting: nothing critical");
	tap_eq(c.nphases, 0, "no waiting: no phase");
	tap_eq(ns(c.criticality), 0, "no waiting: criticality 0");
	tap_eq(c.observed_ns, 1000, "no waiting: 1000 ns observed");
	ex_crit_free(&c);
	/* The lock trace's [0,1000): 4 running or runnable, none waiting
	 * (and, with threshold 4, still not critical: nobody waits). */
	ex_model_free(&m);
	lock_trace();
	ex_critical(&m, lock_tids, 4, 0, 1000, 4, &c);
	tap_eq(c.critical_ns, 0, "no waiting, threshold 4: nothing critical");
	ex_crit_free(&c);
	/* An empty application. */
	ex_critical(&m, NULL, 0, 0, 8000, -1, &c);
	tap_ok(c.nthreads == 0 && c.nsl == 0 && c.nperiods == 0,
	       "no thread: no slice, no period");
	ex_crit_free(&c);
	ex_model_free(&m);
}

/* explain's report of 13 over the window carries the criticality: in its
 * text after the lock view, in its JSON as "criticality"; without it,
 * neither. */
static void output_in_report(const struct ex_crit *c)
{
	struct ex_report r = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ex_report_build(&r, &m, "synthetic", 13, 0, 8000);
	f = open_memstream(&buf, &len);
	ex_out_text(f, &r, 0.0);
	ex_out_json(f, &r);
	fclose(f);
	tap_ok(!strstr(buf, "criticality"), "report without criticality: no section, no key");
	free(buf);
	r.crit = c;
	f = open_memstream(&buf, &len);
	ex_out_text(f, &r, 0.0);
	fclose(f);
	tap_ok(strstr(buf, "\ncriticality (GAPP): application") != NULL,
	       "report text: the criticality section");
	free(buf);
	f = open_memstream(&buf, &len);
	ex_out_json(f, &r);
	fclose(f);
	tap_ok(strstr(buf, ",\"criticality\":{\"start\":0,\"end\":8000,\"pids\":[10]") != NULL,
	       "report JSON: the criticality object");
	tap_ok(buf[0] == '{' && strstr(buf, "}\n") == buf + strlen(buf) - 2,
	       "report JSON: still one object");
	free(buf);
	ex_report_free(&r);
}

static void test_outputs(void)
{
	struct ex_crit c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	lock_trace();
	ex_critical(&m, lock_tids, 4, 0, 8000, -1, &c);
	f = open_memstream(&buf, &len);
	ex_out_critical_text(f, &m, &c);
	fclose(f);
	tap_ok(strstr(buf, "criticality (GAPP): application t11 [10]") != NULL,
	       "text: the section names the application's process (main thread not traced: its first thread's name)");
	tap_ok(strstr(buf, "4 threads\n  A time is critical when at most 2 of them (half) run") != NULL,
	       "text: threads and threshold");
	tap_ok(strstr(buf, "window 8.000us: critical 5.000us (62.5%), criticality 11.00us") != NULL,
	       "text: critical time and criticality");
	tap_ok(strstr(buf, "t13 [13] +2.000us for 5.000us (5.000us critical, >= 1 active): criticality 4.000us;\n"
			   "      futex 0x1000, woken by t12 [12] in futex") != NULL,
	       "text: the most critical wait, what it waited on, the releaser");
	tap_ok(strstr(buf, "    futex 0x1000: 10.00us (3 waits") != NULL,
	       "text: the lock ranked by criticality");
	if (tap_failed)
		fputs(buf, stdout);
	free(buf);
	f = open_memstream(&buf, &len);
	ex_out_critical_json(f, &m, &c);
	fclose(f);
	tap_ok(strstr(buf, "\"pids\":[10],\"tids\":[11,12,13,14],\"threads\":4,\"threshold\":2,\"threshold_given\":false") != NULL,
	       "json: application and threshold");
	tap_ok(strstr(buf, "\"critical_ns\":5000,\"criticality_ns\":11000,\"active_ns\":[0,3000,2000,1000,2000]") != NULL,
	       "json: critical time, criticality, time per active count");
	tap_ok(strstr(buf, "\"periods\":[{\"tid\":13,\"comm\":\"t13\",\"start\":2000,\"end\":7000,\"waiting_ns\":5000,\"critical_ns\":5000,\"criticality_ns\":4000,\"min_active\":1,\"syscall\":\"futex\",\"uaddr\":\"0x1000\",\"object\":\"futex 0x1000\",\"waker\":\"t12 [12] in futex\",\"waker_tid\":12}") != NULL,
	       "json: the most critical wait");
	tap_ok(strstr(buf, "\"objects\":[{\"object\":\"futex 0x1000\",\"criticality_ns\":10000") != NULL,
	       "json: the objects ranked");
	if (tap_failed)
		fputs(buf, stdout);
	free(buf);
	output_in_report(&c);
	ex_crit_free(&c);
	ex_model_free(&m);
}

/* ---- end to end ---- */

#define SNAPSHOT "lock-snapshot"

/* The trace reader of lt_explain_main: SNAPSHOT is the lock trace. */
int ex_trace_read(const char *path, struct ex_model *out, char *err,
		  size_t errlen)
{
	if (strcmp(path, SNAPSHOT)) {
		snprintf(err, errlen, "%s: not a trace directory (test)", path);
		return -1;
	}
	lock_trace();
	*out = m;		/* the caller owns the allocations now */
	memset(&m, 0, sizeof(m));
	return 0;
}

static char outbuf[1 << 17], errbuf[4096];

/* lt_explain_main(explain SNAPSHOT args...); its stdout and stderr into
 * the buffers. */
static int explain(const char *const *args)
{
	return explain_run(args, outbuf, sizeof(outbuf), errbuf, sizeof(errbuf));
}

#define WINDOW SNAPSHOT, "--tid", "13", "--at", "8000", "--window", "8000"

static void test_cli(void)
{
	char dir[] = "/tmp/lt_crit_XXXXXX", out[64];
	struct stat st;
	int ret;

	/* The explained thread's process (10): the values of test_lock_default. */
	ret = explain((const char *[]){ WINDOW, "--format", "json", NULL });
	tap_eq(ret, 0, "cli: explain exits 0");
	tap_ok(strstr(outbuf, ",\"criticality\":{\"start\":0,\"end\":8000,\"pids\":[10],\"tids\":[11,12,13,14],\"threads\":4,\"threshold\":2,\"threshold_given\":false,\"observed_ns\":8000,\"critical_ns\":5000,\"criticality_ns\":11000") != NULL,
	       "cli: the report's criticality: process 10, N/2, 5000 ns critical, 11000");
	ret = explain((const char *[]){ WINDOW, NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\ncriticality (GAPP): application t11 [10], 4 threads\n  A time is critical when at most 2 of them (half)"),
	       "cli: the text report's criticality section");
	/* --critical-threshold 1: 3000 ns critical, 9000 (test_lock_thresholds). */
	ret = explain((const char *[]){ WINDOW, "--format", "json",
					"--critical-threshold", "1", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"threshold\":1,\"threshold_given\":true,\"observed_ns\":8000,\"critical_ns\":3000,\"criticality_ns\":9000"),
	       "cli: --critical-threshold 1 taken");
	/* --pid 30: a process with no state in the window; --comm t12: 10. */
	ret = explain((const char *[]){ WINDOW, "--format", "json", "--pid", "30", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"pids\":[],\"tids\":[],\"threads\":0,"),
	       "cli: --pid 30: the criticality of process 30 (no thread in the window)");
	ret = explain((const char *[]){ WINDOW, "--format", "json", "--comm", "t12", NULL });
	tap_ok(ret == 0 && strstr(outbuf, "\"pids\":[10],\"tids\":[11,12,13,14],\"threads\":4,"),
	       "cli: --comm t12: process 10");
	/* Bad values: exit 2, a message, no output directory. */
	if (!mkdtemp(dir))
		return;
	snprintf(out, sizeof(out), "%s/out", dir);
	for (size_t i = 0; i < 4; i++) {
		static const char *const bad[] = { "many", "-1", "", "2x" };

		ret = explain((const char *[]){ WINDOW, "-o", out,
						"--critical-threshold", bad[i], NULL });
		tap_ok(ret == 2 && strstr(errbuf, "--critical-threshold: a number of active threads, not ") &&
		       stat(out, &st) && !outbuf[0],
		       "cli: --critical-threshold '%s' refused, nothing written", bad[i]);
	}
	rmdir(dir);
}

int main(void)
{
	tap_plan(104);
	(void)edge;		/* explain_feed.h's graph helper: no graph here */
	test_lock_default();
	test_lock_thresholds();
	test_app_selection();
	test_late_thread();
	test_exit_untraced();
	test_no_waiting();
	test_outputs();
	test_cli();
	return tap_done();
}
