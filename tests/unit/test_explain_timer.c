// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_timer.c - timer sleeps in the explain analysis: a task whose
 * wait ended by a timer expiry is waiting for a timer, in the dependency
 * graph and in the classification, whatever the trace recorded of it:
 *
 *  - the hrtimer expiry events around the waking (the session's events);
 *  - only the TIMER softirq (a wheel timer, without timer_* events);
 *  - no interrupt events at all (an older session): a sleep system call
 *    woken from the idle task, or while another thread ran, or still
 *    asleep at the end of the trace, waited for its timer -- not for
 *    "unknown", not for the thread the timer interrupt happened to hit.
 *
 * And what must not change: a sleep woken by a thread (a signal) in a trace
 * that shows interrupts, a read woken by a device interrupt, a waking from
 * an interrupt the trace does not show (named so, not "unknown").  Time
 * the trace does not show at all (an interval starting before the
 * thread's first event: a ring overwritten before the snapshot) is
 * unknown, and says why.
 */
#include <stdio.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_depgraph.h"
#include "ex_model.h"
#include "ex_report.h"
#include "explain_feed.h"
#include "tap.h"

/* sched_waking of tid on cpu, from the context of thread ctx (-1: none). */
static void wake(uint64_t ts, int cpu, int tid, int ctx)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_WAKING, ts, cpu);
	ev.tid = tid;
	ev.target_cpu = cpu;
	ev.ctx_tid = ctx;
	ex_model_feed(&m, &ev);
}

/* An interrupt context entry or exit (name: as ex_trace.c writes it). */
static void ctx(enum ex_ev_type type, uint64_t ts, int cpu, const char *name)
{
	struct ex_ev ev;

	ex_ev_init(&ev, type, ts, cpu);
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ex_model_feed(&m, &ev);
}

static size_t nodes_of(const struct ex_graph *g, enum ex_node_type type)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nnodes; i++)
		n += g->nodes[i].type == type;
	return n;
}

/* The report of tid over [s, e) on the model fed so far. */
static void report(struct ex_report *r, int tid, uint64_t s, uint64_t e)
{
	ex_model_finish(&m);
	memset(r, 0, sizeof(*r));
	ex_report_build(r, &m, "synthetic", tid, s, e);
}

static void done(struct ex_report *r)
{
	ex_report_free(r);
	ex_model_free(&m);
}

/*
 * Thread 10 sleeps in clock_nanosleep on CPU 1 from 1100 (entry at 1000)
 * until a waking at 21010; it runs again at 21100 and returns at 21200.
 * The caller feeds the waking and its context.
 */
static void sleeper_start(void)
{
	ex_model_init(&m);
	sw(0, 1, 0, 0, 10);
	sw(0, 0, 0, 0, 30);
	sys(1000, 1, 10, true, "clock_nanosleep", -1);
	sw(1100, 1, 10, 1, 0);
}

static void sleeper_end(void)
{
	sw(21100, 1, 0, 0, 10);
	sys(21200, 1, 10, false, "clock_nanosleep", 0);
}

/* The sleeper's 19910 ns asleep are a timer wait, nothing unknown. */
static void check_timer_sleep(const struct ex_report *r, const char *what)
{
	tap_eq(edge(&r->g, "clock_nanosleep", "timer"), 19910,
	       "%s: clock_nanosleep -> timer over the sleep", what);
	tap_eq(nodes_of(&r->g, N_UNKNOWN), 0, "%s: no unknown in the graph", what);
	tap_eq(r->cr.class_ns[C_TIMER], 19910, "%s: classified timer", what);
	tap_eq(r->cr.class_ns[C_UNKNOWN], 0, "%s: nothing classified unknown", what);
}

static void test_hrtimer_events(void)
{
	struct ex_report r;

	sleeper_start();
	ctx(EV_TIMER_ENTRY, 21000, 1, "hrtimer");
	wake(21010, 1, 10, 0);
	ctx(EV_TIMER_EXIT, 21020, 1, "");
	sleeper_end();
	report(&r, 10, 0, 21200);
	check_timer_sleep(&r, "hrtimer expiry");
	tap_ok(r.cr.ncauses && !strcmp(r.cr.causes[0].what, "timer expiry in clock_nanosleep"),
	       "hrtimer expiry: the cause says so (%s)",
	       r.cr.ncauses ? r.cr.causes[0].what : "none");
	done(&r);
}

static void test_timer_softirq(void)
{
	struct ex_report r;

	/* poll(2) with a timeout: a wheel timer in the TIMER softirq. */
	ex_model_init(&m);
	sw(0, 1, 0, 0, 10);
	sw(0, 0, 0, 0, 30);
	sys(1000, 1, 10, true, "poll", -1);
	sw(1100, 1, 10, 1, 0);
	ctx(EV_SOFTIRQ_ENTRY, 50000, 0, "softirq TIMER");
	wake(50010, 0, 10, 30);
	ctx(EV_SOFTIRQ_EXIT, 50020, 0, "");
	sw(50100, 1, 0, 0, 10);
	sys(50200, 1, 10, false, "poll", 0);
	report(&r, 10, 0, 50200);
	tap_eq(edge(&r.g, "poll", "timer"), 48910, "TIMER softirq: poll -> timer");
	tap_eq(edge(&r.g, "poll", "t30 [30]"), 0,
	       "TIMER softirq: not woken by the thread it interrupted");
	tap_eq(r.cr.class_ns[C_TIMER], 48910, "TIMER softirq: classified timer");
	tap_eq(r.cr.class_ns[C_UNKNOWN], 0, "TIMER softirq: nothing unknown");
	done(&r);
}

static void test_no_irq_events_idle(void)
{
	struct ex_report r;

	/* No interrupt events: the waking comes from the idle task. */
	sleeper_start();
	wake(21010, 1, 10, 0);
	sleeper_end();
	report(&r, 10, 0, 21200);
	check_timer_sleep(&r, "sleep woken from idle, no irq events");
	done(&r);
}

static void test_no_irq_events_busy(void)
{
	struct ex_report r;

	/*
	 * A hog (20) runs on the sleeper's CPU; the timer interrupt that
	 * wakes the sleeper hits the hog, so the waking carries the hog's
	 * context.  The sleeper then waits for the CPU until 400000.
	 */
	ex_model_init(&m);
	sw(0, 1, 0, 0, 10);
	sys(1000, 1, 10, true, "clock_nanosleep", -1);
	sw(1100, 1, 10, 1, 20);
	wake(21010, 1, 10, 20);
	sw(400000, 1, 20, 1, 10);
	sys(400100, 1, 10, false, "clock_nanosleep", 0);
	report(&r, 10, 0, 400100);
	tap_eq(edge(&r.g, "clock_nanosleep", "timer"), 19910,
	       "sleep woken on a busy CPU, no irq events: clock_nanosleep -> timer");
	tap_eq(edge(&r.g, "clock_nanosleep", "t20 [20]"), 0,
	       "... not woken by the hog the interrupt hit");
	tap_eq(edge(&r.g, "CPU 1", "t20 [20]"), 378990,
	       "... then runnable: CPU 1 -> the hog");
	tap_eq(nodes_of(&r.g, N_UNKNOWN), 0, "... no unknown in the graph");
	tap_eq(r.cr.class_ns[C_TIMER], 19910, "... classified timer");
	tap_eq(r.cr.class_ns[C_CPU], 378990, "... and CPU contention");
	done(&r);
}

static void test_still_asleep(void)
{
	struct ex_report r;

	ex_model_init(&m);
	sw(0, 1, 0, 0, 10);
	sys(1000, 1, 10, true, "nanosleep", -1);
	sw(1100, 1, 10, 1, 0);
	sw(5000, 0, 0, 0, 30);		/* the trace ends at 5000 */
	report(&r, 10, 0, 5000);
	tap_eq(edge(&r.g, "nanosleep", "timer"), 3900,
	       "asleep at the end of the trace: nanosleep -> timer");
	tap_eq(nodes_of(&r.g, N_UNKNOWN), 0, "asleep at the end: no unknown");
	tap_eq(r.cr.class_ns[C_TIMER], 3900, "asleep at the end: classified timer");
	done(&r);
}

static void test_signal(void)
{
	struct ex_report r;

	/* The trace shows interrupts; thread 30 signals the sleeper. */
	sleeper_start();
	ctx(EV_IRQ_ENTRY, 500, 0, "irq 11 eth0");
	ctx(EV_IRQ_EXIT, 510, 0, "");
	wake(21010, 0, 10, 30);
	sleeper_end();
	report(&r, 10, 0, 21200);
	tap_eq(edge(&r.g, "clock_nanosleep", "t30 [30]"), 19910,
	       "signalled sleep: woken by the thread that signalled it");
	tap_eq(edge(&r.g, "clock_nanosleep", "timer"), 0,
	       "signalled sleep: not a timer in the graph");
	tap_eq(r.cr.class_ns[C_TIMER], 19910, "signalled sleep: still a sleep");
	done(&r);
}

static void test_device_irq(void)
{
	struct ex_report r;

	/* A read on fd 3 woken by a network interrupt: I/O, not a timer. */
	ex_model_init(&m);
	sw(0, 1, 0, 0, 10);
	sys(1000, 1, 10, true, "read", 3);
	sw(1100, 1, 10, 1, 0);
	ctx(EV_IRQ_ENTRY, 9000, 1, "irq 11 eth0");
	wake(9010, 1, 10, 0);
	ctx(EV_IRQ_EXIT, 9020, 1, "");
	sw(9100, 1, 0, 0, 10);
	sys(9200, 1, 10, false, "read", 0);
	report(&r, 10, 0, 9200);
	tap_eq(edge(&r.g, "read", "irq 11 eth0"), 7910, "device irq: read -> the irq");
	tap_eq(r.cr.class_ns[C_TIMER], 0, "device irq: no timer");
	tap_eq(r.cr.class_ns[C_IO], 7910, "device irq: classified I/O");
	done(&r);
}

static void test_untraced_irq(void)
{
	struct ex_report r;

	/* A read woken from the idle task, no interrupt events recorded. */
	ex_model_init(&m);
	sw(0, 1, 0, 0, 10);
	sys(1000, 1, 10, true, "read", 3);
	sw(1100, 1, 10, 1, 0);
	wake(9010, 1, 10, 0);
	sw(9100, 1, 0, 0, 10);
	sys(9200, 1, 10, false, "read", 0);
	report(&r, 10, 0, 9200);
	tap_eq(edge(&r.g, "read", EX_WAKER_UNTRACED_IRQ), 7910,
	       "woken from idle: read -> an interrupt not in the trace");
	tap_eq(nodes_of(&r.g, N_UNKNOWN), 0, "woken from idle: not unknown");
	tap_eq(r.cr.class_ns[C_TIMER], 0, "woken from idle: a read is no timer");
	done(&r);
}

static void test_rt_softirq_preempted(void)
{
	struct ex_report r;

	/*
	 * PREEMPT_RT: the timer softirq runs in a thread (50) that an RT
	 * thread (60) preempts inside it; 60 wakes 70 from process context
	 * (a thread's waking, not a timer's), then 50 resumes and its timer
	 * wakes 10 (a timer's).
	 */
	ex_model_init(&m);
	sw(0, 0, 0, 0, 50);
	sw(0, 1, 0, 0, 10);
	sys(10, 1, 10, true, "poll", -1);
	sw(20, 1, 10, 1, 70);
	sys(30, 1, 70, true, "read", 3);
	sw(40, 1, 70, 1, 0);
	ctx(EV_SOFTIRQ_ENTRY, 100, 0, "softirq TIMER");
	sw(150, 0, 50, 0, 60);
	wake(200, 0, 70, 60);
	sw(300, 0, 60, 1, 50);
	wake(310, 0, 10, 50);
	ctx(EV_SOFTIRQ_EXIT, 320, 0, "");
	sw(400, 1, 0, 0, 70);
	sys(410, 1, 70, false, "read", 0);
	sw(420, 1, 70, 1, 10);
	sys(430, 1, 10, false, "poll", 0);
	report(&r, 70, 30, 410);
	tap_eq(edge(&r.g, "read", "t60 [60]"), 160,
	       "RT: a waking by the thread that preempted a softirq thread is that thread's");
	tap_eq(edge(&r.g, "read", "timer"), 0, "RT: ... not the preempted softirq's timer");
	ex_report_free(&r);
	memset(&r, 0, sizeof(r));
	ex_report_build(&r, &m, "synthetic", 10, 10, 430);
	tap_eq(edge(&r.g, "poll", "timer"), 290,
	       "RT: the softirq thread's own waking after it resumed is the timer's");
	done(&r);
}

static void test_not_covered(void)
{
	struct ex_report r;

	/*
	 * An alert's interval [1000, 9000) on a trace whose first event of
	 * the thread is its switch-in at 9000 (the ring of its CPU was
	 * overwritten): the 8000 ns before are named, not silently lost.
	 */
	ex_model_init(&m);
	sw(9000, 1, 0, 0, 10);
	sw(9500, 1, 10, 1, 0);
	report(&r, 10, 1000, 9500);
	tap_eq(r.cr.class_ns[C_UNKNOWN], 8000,
	       "interval before the thread's first event: unknown, named");
	tap_ok(r.cr.ncauses && strstr(r.cr.causes[0].what, "not in the trace") &&
	       strstr(r.cr.causes[0].what, "overwritten"),
	       "... as not in the trace (%s)", r.cr.ncauses ? r.cr.causes[0].what : "none");
	done(&r);
}

int main(void)
{
	tap_plan(36);
	test_hrtimer_events();
	test_timer_softirq();
	test_no_irq_events_idle();
	test_no_irq_events_busy();
	test_still_asleep();
	test_signal();
	test_device_irq();
	test_untraced_irq();
	test_rt_softirq_preempted();
	test_not_covered();
	return tap_done();
}
