// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_breakdown.c - a wakeup record's breakdown against the
 * snapshot's (tools/explain/ex_breakdown.c), fed through the model as
 * ex_trace.c feeds it: a CPU's time split into kinds by the rules of
 * probes/common/cpu_time.h (nested interrupts each with their own time,
 * an interrupt inside a softirq counted as interrupt, a softirq in
 * ksoftirqd or on PREEMPT_RT counted as the thread's, the idle task's as
 * idle), the parts compared within the tolerance, the tops by the time
 * the snapshot gives the record's one, the alert's breakdown kept.
 */
#include <stdio.h>
#include <string.h>

#include "ex_breakdown.h"
#include "ex_model.h"
#include "tap.h"

#define US 1000ULL

static struct ex_model m;

static void ctx(enum ex_ev_type type, uint64_t ts, int cpu, const char *name)
{
	struct ex_ev ev;

	ex_ev_init(&ev, type, ts, cpu);
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ex_model_feed(&m, &ev);
}

static void sw_comm(uint64_t ts, int cpu, int prev, int next, const char *comm)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_SWITCH, ts, cpu);
	ev.tid = prev;
	ev.state = 1;
	ev.next_tid = next;
	snprintf(ev.next_comm, sizeof(ev.next_comm), "%s", comm);
	ex_model_feed(&m, &ev);
}

static const char *comm_of(void *arg, int tid)
{
	(void)arg;
	return tid == 100 ? "hold" : tid == 200 ? "other" : NULL;
}

static struct ex_bd_rec rec_of(uint64_t irq, uint64_t softirq, uint64_t thread,
			       uint64_t idle, const char *ti, const char *ts,
			       const char *tt)
{
	struct ex_bd_rec r = { .cpu = 1 };

	r.ns[EX_BD_IRQ] = irq * US;
	r.ns[EX_BD_SOFTIRQ] = softirq * US;
	r.ns[EX_BD_THREAD] = thread * US;
	r.ns[EX_BD_IDLE] = idle * US;
	snprintf(r.top[EX_BD_IRQ], sizeof(r.top[0]), "%s", ti);
	snprintf(r.top[EX_BD_SOFTIRQ], sizeof(r.top[0]), "%s", ts);
	snprintf(r.top[EX_BD_THREAD], sizeof(r.top[0]), "%s", tt);
	return r;
}

/*
 * CPU 1, the victim (tid 300) waiting over [1000, 11000) us:
 *    500  thread hold:100
 *   3000  vector local_timer, 3400 its handler lt_slow_handler to 4600,
 *         exit at 5000 (local_timer 800, handler 1200)
 *   5000  thread hold:100
 *   6000  softirq TASKLET, 6500 vector reschedule to 6700 (200), to 8000
 *   8000  idle
 *  10000  thread other:200
 *  11000  the victim switched in
 * irq 2200, softirq 1800, thread 4000 (hold 3000), idle 2000; the CPU's
 * first event at 500 us.
 */
static void feed_window(void)
{
	sw_comm(500 * US, 1, 0, 100, "hold");
	ctx(EV_IRQ_ENTRY, 3000 * US, 1, "vector local_timer");
	ctx(EV_IRQ_ENTRY, 3400 * US, 1, "irq 28 lt_slow_handler");
	ctx(EV_IRQ_EXIT, 4600 * US, 1, "");
	ctx(EV_IRQ_EXIT, 5000 * US, 1, "");
	ctx(EV_SOFTIRQ_ENTRY, 6000 * US, 1, "softirq TASKLET");
	ctx(EV_IRQ_ENTRY, 6500 * US, 1, "vector reschedule");
	ctx(EV_IRQ_EXIT, 6700 * US, 1, "");
	ctx(EV_SOFTIRQ_EXIT, 8000 * US, 1, "softirq TASKLET");
	sw_comm(8000 * US, 1, 100, 0, "swapper/1");
	sw_comm(10000 * US, 1, 0, 200, "other");
	sw_comm(11000 * US, 1, 200, 300, "victim");
}

int main(void)
{
	struct ex_bd_check k;
	struct ex_bd_rec r;
	struct ex_ev ev;

	tap_plan(25);

	ex_model_init(&m);
	feed_window();
	r = rec_of(2200, 1800, 4000, 2000, "lt_slow_handler", "TASKLET", "hold:100");
	ex_bd_check(&m.bd, &r, 11000 * US, comm_of, NULL, &k);
	tap_ok(k.covered, "the snapshot covers the window");
	tap_eq(k.snap[EX_BD_IRQ] / US, 2200, "irq: nested handler and vector, and the vector inside the softirq");
	tap_eq(k.snap[EX_BD_SOFTIRQ] / US, 1800, "softirq: less the interrupt inside it");
	tap_eq(k.snap[EX_BD_THREAD] / US, 4000, "thread: the holder's and the other's time");
	tap_eq(k.snap[EX_BD_IDLE] / US, 2000, "idle: the idle task's time");
	tap_ok(!strcmp(k.snap_top[EX_BD_IRQ], "lt_slow_handler"), "top irq: the handler (%s)", k.snap_top[EX_BD_IRQ]);
	tap_ok(!strcmp(k.snap_top[EX_BD_SOFTIRQ], "TASKLET"), "top softirq (%s)", k.snap_top[EX_BD_SOFTIRQ]);
	tap_ok(!strcmp(k.snap_top[EX_BD_THREAD], "hold:100"), "top thread: comm:tid (%s)", k.snap_top[EX_BD_THREAD]);
	tap_eq(k.ndiffer, 0, "a record that matches: nothing differs");
	tap_eq(k.tolerance / US, 100 + 5 * 9, "tolerance: 100 us and 5 us per change of kind");

	/* Within the tolerance: agrees; beyond: differs, that part only. */
	r.ns[EX_BD_THREAD] += 140 * US;
	r.ns[EX_BD_IDLE] -= 140 * US;
	ex_bd_check(&m.bd, &r, 11000 * US, comm_of, NULL, &k);
	tap_eq(k.ndiffer, 0, "140 us off: within the tolerance");
	r.ns[EX_BD_THREAD] += 500 * US;
	r.ns[EX_BD_IDLE] -= 500 * US;
	ex_bd_check(&m.bd, &r, 11000 * US, comm_of, NULL, &k);
	tap_ok(k.differs[EX_BD_THREAD] && k.differs[EX_BD_IDLE] &&
	       !k.differs[EX_BD_IRQ] && !k.differs[EX_BD_SOFTIRQ] && k.ndiffer == 2,
	       "640 us moved from idle to thread: those two differ");

	/* Tops: the record's contributor against the snapshot's largest. */
	r = rec_of(2200, 1800, 4000, 2000, "local_timer", "TASKLET", "other:200");
	ex_bd_check(&m.bd, &r, 11000 * US, comm_of, NULL, &k);
	tap_ok(k.top_differs[EX_BD_IRQ] && k.top_differs[EX_BD_THREAD] &&
	       !k.top_differs[EX_BD_SOFTIRQ] && k.ndiffer == 2,
	       "a smaller contributor named: its top differs");
	r = rec_of(2200, 1800, 4000, 2000, "lt_slow_handler", "-", "hold:100");
	ex_bd_check(&m.bd, &r, 11000 * US, comm_of, NULL, &k);
	tap_ok(k.top_differs[EX_BD_SOFTIRQ], "no softirq named where one ran 1.8 ms: differs");

	/* A span the snapshot does not reach back to. */
	r = rec_of(2200, 1800, 4000, 2000 + 600, "lt_slow_handler", "TASKLET", "hold:100");
	ex_bd_check(&m.bd, &r, 11000 * US, comm_of, NULL, &k);
	tap_ok(!k.covered, "a window from before the CPU's first event: not covered");
	r.cpu = 5;
	ex_bd_check(&m.bd, &r, 11000 * US, comm_of, NULL, &k);
	tap_ok(!k.covered, "a CPU without events: not covered");

	/* The alert's breakdown stays with the alert. */
	r = rec_of(2200, 1800, 4000, 2000, "lt_slow_handler", "TASKLET", "hold:100");
	ex_ev_init(&ev, EV_ALERT, 11000 * US, 1);
	ev.tid = 300;
	ev.delay = 10000 * US;
	snprintf(ev.name, sizeof(ev.name), "wakeup");
	ev.bd = &r;
	ex_model_feed(&m, &ev);
	tap_ok(m.nalerts == 1 && m.alerts[0].has_bd &&
	       m.alerts[0].bd.ns[EX_BD_SOFTIRQ] == 1800 * US &&
	       !strcmp(m.alerts[0].bd.top[EX_BD_THREAD], "hold:100"),
	       "the alert keeps its breakdown");
	ex_model_free(&m);

	/* ksoftirqd runs softirqs as a thread. */
	ex_model_init(&m);
	sw_comm(0, 1, 0, 21, "ksoftirqd/1");
	ctx(EV_SOFTIRQ_ENTRY, 1000 * US, 1, "softirq TIMER");
	ctx(EV_SOFTIRQ_EXIT, 3000 * US, 1, "softirq TIMER");
	sw_comm(4000 * US, 1, 21, 300, "victim");
	r = rec_of(0, 0, 4000, 0, "-", "-", "ksoftirqd/1:21");
	ex_bd_check(&m.bd, &r, 4000 * US, NULL, NULL, &k);
	tap_eq(k.snap[EX_BD_SOFTIRQ], 0, "ksoftirqd: no softirq time");
	tap_eq(k.snap[EX_BD_THREAD] / US, 4000, "ksoftirqd: the thread's");
	tap_ok(!strcmp(k.snap_top[EX_BD_THREAD], "?:21") && !k.top_differs[EX_BD_THREAD],
	       "a thread without a name: ?:tid, compared by tid (%s)", k.snap_top[EX_BD_THREAD]);
	ex_model_free(&m);

	/* PREEMPT_RT: every softirq is a thread's. */
	ex_model_init(&m);
	m.bd.rt = true;
	sw_comm(0, 1, 0, 100, "hold");
	ctx(EV_SOFTIRQ_ENTRY, 1000 * US, 1, "softirq NET_RX");
	ctx(EV_IRQ_ENTRY, 1500 * US, 1, "irq 30 eth0");
	ctx(EV_IRQ_EXIT, 1700 * US, 1, "");
	ctx(EV_SOFTIRQ_EXIT, 3000 * US, 1, "softirq NET_RX");
	sw_comm(4000 * US, 1, 100, 300, "victim");
	r = rec_of(200, 0, 3800, 0, "eth0", "-", "hold:100");
	ex_bd_check(&m.bd, &r, 4000 * US, comm_of, NULL, &k);
	tap_eq(k.snap[EX_BD_SOFTIRQ], 0, "PREEMPT_RT: no softirq time");
	tap_eq(k.snap[EX_BD_IRQ] / US, 200, "PREEMPT_RT: the interrupt inside it still counts as interrupt");
	tap_eq(k.snap[EX_BD_THREAD] / US, 3800, "PREEMPT_RT: the rest is the thread's");
	tap_eq(k.ndiffer, 0, "PREEMPT_RT: the record agrees");
	tap_ok(!strcmp(ex_bd_kind_name(EX_BD_IDLE), "idle") &&
	       !strcmp(ex_bd_kind_name(9), "?"), "kind names");
	ex_model_free(&m);
	return tap_done();
}
