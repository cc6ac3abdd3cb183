// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup.c - latency_tracker_wakeup: scheduling latency, from the wakeup
 * of a task (sched_waking) to the context switch that gives it a CPU
 * (sched_switch).
 *
 * Key: the woken task's pid, unique mode.  A wakeup of a task that never
 * left its runqueue (current, or preempted and still queued) starts
 * nothing: it did not make the task runnable.  The filters look at the
 * woken task.  The record
 * names the woken task, the waker (current at sched_waking), the task
 * that held the CPU until the woken one got it (prev at sched_switch) and
 * the holder: the task current on the woken task's CPU when it became
 * runnable (sched_wakeup, task_cpu()), e.g. the hog it waited behind.
 *
 * The holder comes from a per-CPU pointer to the task current on each
 * CPU, kept by our sched_switch probe (struct rq, where the scheduler
 * keeps it, is its own).  Both ends run under that CPU's runqueue lock:
 * sched_switch is emitted by __schedule() with it held, and sched_wakeup
 * with the lock of the woken task's runqueue (the CPU task_cpu() names)
 * held.  So at sched_wakeup the pointer is that CPU's current task (or
 * NULL before our probe saw a switch there), which cannot be switched
 * out, let alone freed, while the lock is held: its pid, prio (changed
 * under that lock too) and comm (which the task itself may be renaming:
 * a mix is possible) are read there, and copied into the pending event.
 * The sched_switch that ends the event takes the same runqueue lock
 * before it can pick the woken task, so it reads the holder after it was
 * written (a timeout report, from a timer on another CPU, may see it half
 * written).
 *
 * A wakeup that races the wakee's sleep.  sched_waking fires in
 * try_to_wake_up() before it takes the wakee's runqueue lock, which the
 * wakee's own __schedule() may hold while it blocks (dequeues itself, or
 * marks itself delayed since 6.12).  Whether the wakee blocked is decided
 * under that lock, and sched_wakeup fires under it in both of
 * try_to_wake_up()'s outcomes: the wakee never blocked (ttwu_runnable()
 * set it running: nothing to wait for), or blocked and made runnable
 * again (it waits for a switch-in).  So the probe at sched_waking reads
 * p->nvcsw, then p->on_cpu (acquire: the wakee's dequeue, or its delayed
 * mark, is written under its runqueue lock before on_cpu is cleared after
 * the switch), then its runqueue state:
 *
 *	on_cpu	queued and runnable	at sched_waking
 *	0	no			blocked: an event
 *	0	yes			preempted, still queued: nothing
 *	1	no			blocked, its switch not over: an event
 *	1	yes			running, about to block, or switched
 *					out preempted and on_cpu not yet
 *					cleared: a provisional event,
 *					decided at sched_wakeup
 *
 * __schedule() counts a blocking switch-out in p->nvcsw (a preemption in
 * p->nivcsw) under the wakee's runqueue lock, after the dequeue or the
 * delayed mark.  At sched_wakeup, under that lock (or, on the full path,
 * after try_to_wake_up() waited for on_cpu to clear), a provisional event
 * whose nvcsw is unchanged since sched_waking never blocked, whether it
 * still runs or was preempted before or after the waking: cancelled.  One
 * whose nvcsw moved blocked: it waits for a switch-in, measured from the
 * waking.
 *
 * The start is always the sched_waking's clock.  A provisional event that
 * sched_wakeup cancels is counted in `cancelled`.  Not covered, both
 * needing a switch of the wakee inside the few instructions between this
 * probe's reads and the waker taking its runqueue lock: a task preempted
 * in a sleeping state (on_cpu 0, queued) that runs and blocks in that
 * window is not tracked; nor is one whose blocking switch-out is under
 * way while the probe reads, if the read of nvcsw sees the increment and
 * the read of the runqueue state does not see the dequeue before it (the
 * two stores of one critical section: seen in that order on x86, whose
 * stores are not reordered with each other, the smp_rmb() ordering our
 * loads).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <trace/events/sched.h>

#include <lt_records/wakeup.h>
#include "common/cpu_time.h"
#include "common/probe.h"
#include "lt_trace.h"

/*
 * 5 ms: more than one scheduler tick (4 ms at HZ=250) spent runnable.
 * Kernel threads tracked by default: a kworker's wakeup latency matters.
 * max_events 0, a pool sized from the machine that grows: few wakeups
 * are pending at once, but they end at the rate of context switches, and
 * an ended event holds its slot for one to two grace periods (more than
 * 4096 slots under hackbench on a loaded host).
 */
LT_PROBE_MODULE_PARAMS(5000000, 0, 0, 1);

/*
 * A CPU's current task, as our sched_switch probe saw it switched in;
 * only dereferenced under that CPU's runqueue lock (see above).
 */
static DEFINE_PER_CPU(struct task_struct *, lt_wakeup_curr);

/* The holder, as saved in the event. */
struct lt_wakeup_holder {
	pid_t pid;
	int prio;
	char comm[TASK_COMM_LEN];
};

/*
 * Saved at sched_waking, in the event's private data; the holder (zeroed
 * by the core beyond priv_len) at sched_wakeup.  The wait: begun at
 * sched_waking, queued at sched_wakeup, moved at a migration; not begun
 * (zeroed) while the wakee is on its CPU at sched_waking: the end of its
 * own run is no part of it, and sched_wakeup comes after its switch-out.
 * provisional: the wakee was on its CPU at sched_waking; nvcsw: its count
 * of blocking switch-outs then (see the top of this file).
 */
struct lt_wakeup_priv {
	u64 cgroup;
	pid_t tgid;
	int prio;
	pid_t waker_pid;
	u32 provisional;
	unsigned long nvcsw;
	char comm[TASK_COMM_LEN];
	char waker_comm[TASK_COMM_LEN];
	struct lt_ct_wait wait;
	struct lt_wakeup_holder holder;
};

/* What sched_switch tells the callback (event_out's ctx). */
struct lt_wakeup_switch {
	struct task_struct *prev;
	struct task_struct *next;
};

static struct lt_probe lt_wakeup;

/*
 * Where the wait went (cpu_time.h): at the switch-in, on the CPU the task
 * got; for a timeout, the parts so far and no top contributor.
 */
static void lt_wakeup_breakdown(struct lt_wakeup_record *a,
				const struct lt_ct_wait *w, u64 now, bool done)
{
	struct lt_ct_breakdown bd;

	lt_ct_wait_end(w, now, done, &bd);
	a->irq_ns = bd.ns[LT_CT_IRQ];
	a->softirq_ns = bd.ns[LT_CT_SOFTIRQ];
	a->thread_ns = bd.ns[LT_CT_THREAD];
	a->idle_ns = bd.ns[LT_CT_IDLE];
	a->other_cpu_ns = bd.other_cpu_ns;
	a->migrated = bd.migrated;
	a->top_softirq = bd.tops.softirq;
	lt_ct_name_or_none(a->top_irq, bd.tops.irq);
	lt_ct_task_name(a->top_thread, bd.tops.thread_comm,
			bd.tops.thread_pid);
}

static void lt_wakeup_cb(const struct latency_tracker_report *r)
{
	const struct lt_wakeup_priv *priv =
		latency_tracker_event_priv(r->event);
	const struct lt_wakeup_switch *sw = r->ctx;
	struct lt_wakeup_record a = { };
	const pid_t *pid;
	u32 len;

	pid = latency_tracker_event_key(r->event, &len);
	a.pid = *pid;
	a.tgid = priv->tgid;
	memcpy(a.comm, priv->comm, TASK_COMM_LEN);
	a.waker_pid = priv->waker_pid;
	memcpy(a.waker_comm, priv->waker_comm, TASK_COMM_LEN);
	a.holder_pid = priv->holder.pid;
	memcpy(a.holder_comm, priv->holder.comm, TASK_COMM_LEN);
	a.holder_prio = priv->holder.prio;
	a.cgroup = priv->cgroup;
	lt_wakeup_breakdown(&a, &priv->wait, r->end_ns, sw);
	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		u64 parts[] = { a.irq_ns, a.softirq_ns, a.thread_ns,
				a.idle_ns, a.other_cpu_ns };

		lt_probe_add_parts(&lt_wakeup, parts);
	}
	if (sw) {
		/* Ended by the switch: the task is next, on this CPU. */
		a.prio = sw->next->prio;
		a.cpu = smp_processor_id();
		a.prev_pid = sw->prev->pid;
		lt_comm_get(a.prev_comm, sw->prev);
	} else {
		/* Timeout: still waiting for a CPU, no prev yet. */
		a.prio = priv->prio;
		a.cpu = -1;
	}
	trace_wakeup(r->cause, r->delay_ns, &a);
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &a, sizeof(a));
}

static LT_RECORD_FMT(lt_wakeup_fmt, struct lt_wakeup_record, LT_WAKEUP_RECORD)

static void lt_wakeup_probe_waking(void *data, struct task_struct *p)
{
	/*
	 * Not zeroed first (__uninitialized): the kernel's automatic zeroing
	 * of the stack (INIT_STACK_ALL_ZERO, Debian's kernels) would clear
	 * it with a string instruction at every wakeup.  Every field up to
	 * priv_len is written before event_in copies them; the core zeroes
	 * the rest.
	 */
	struct lt_wakeup_priv priv __uninitialized;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = offsetof(struct lt_wakeup_priv, holder),
	};
	pid_t pid = p->pid;
	bool on_cpu;
	u64 now;

	if (p == current || !pid)
		return;
	/*
	 * nvcsw, then on_cpu, then the runqueue state (see the top of this
	 * file): the smp_rmb() orders the first two reads, the acquire the
	 * last two.  A task kept on its runqueue by delayed dequeue (Linux
	 * >= 6.12) blocked all the same and waits for a CPU once woken: not
	 * "queued and runnable".
	 */
	priv.nvcsw = READ_ONCE(p->nvcsw);
	smp_rmb(); /* nvcsw before on_cpu */
	on_cpu = smp_load_acquire(&p->on_cpu); /* before the queued state */
	priv.provisional = 0;
	if (lt_task_queued_runnable(p)) {
		if (!on_cpu)
			return;
		priv.provisional = 1;
	}
	if (!lt_probe_track_task(&lt_wakeup, p, &priv.cgroup))
		return;
	now = ktime_get_mono_fast_ns();
	opts.ts_ns = now;
	if (on_cpu)
		lt_ct_wait_none(&priv.wait);
	else
		lt_ct_wait_begin(&priv.wait, task_cpu(p), now);
	priv.tgid = p->tgid;
	priv.prio = p->prio;
	priv.waker_pid = current->pid;
	memcpy(priv.comm, p->comm, TASK_COMM_LEN);
	memcpy(priv.waker_comm, current->comm, TASK_COMM_LEN);
	latency_tracker_event_in(lt_wakeup.t, &pid, sizeof(pid), &opts);
}

/*
 * The woken task is runnable on task_cpu(p), whose runqueue lock is held:
 * decide a provisional event, and note who runs there now (see the top of
 * this file).
 */
/*
 * The private data of @pid's pending event, or NULL.  The caller is an
 * RCU reader (preemption disabled), in which the event stays valid.
 */
static struct lt_wakeup_priv *lt_wakeup_pending(pid_t pid)
{
	struct latency_tracker_event *ev;

	if (!pid)
		return NULL;
	ev = latency_tracker_find_event(lt_wakeup.t, &pid, sizeof(pid));
	return ev ? latency_tracker_event_priv(ev) : NULL;
}

static void lt_wakeup_probe_wakeup(void *data, struct task_struct *p)
{
	struct lt_wakeup_priv *priv;
	struct task_struct *curr;
	pid_t pid = p->pid;

	/*
	 * sched_wakeup fires with preemption disabled (in try_to_wake_up(),
	 * or in the IPI that ends a remote wakeup; also on PREEMPT_RT).
	 */
	priv = lt_wakeup_pending(pid);
	if (!priv)
		return;
	if (unlikely(priv->provisional)) {
		/* No blocking switch-out since the waking: it never slept. */
		if (READ_ONCE(p->nvcsw) == priv->nvcsw) {
			latency_tracker_event_cancel(lt_wakeup.t, &pid,
						     sizeof(pid));
			return;
		}
		WRITE_ONCE(priv->provisional, 0);
	}
	lt_ct_wait_queued(&priv->wait, task_cpu(p), ktime_get_mono_fast_ns());
	curr = per_cpu(lt_wakeup_curr, task_cpu(p));
	if (!curr)
		return;
	priv->holder.pid = curr->pid;
	priv->holder.prio = curr->prio;
	lt_comm_get(priv->holder.comm, curr);
}

/*
 * A task moves to another CPU's queue (under the runqueue lock it is
 * queued on): its wait continues there.  Also fired by the wakeup itself
 * when it picks another CPU, before sched_wakeup: the wait is not queued
 * yet, and lt_ct_wait_migrate() leaves it alone.
 */
static void lt_wakeup_probe_migrate(void *data, struct task_struct *p,
				    int dest_cpu)
{
	/* Preemption disabled (a runqueue lock held). */
	struct lt_wakeup_priv *priv = lt_wakeup_pending(p->pid);

	if (priv)
		lt_ct_wait_migrate(&priv->wait, dest_cpu,
				   ktime_get_mono_fast_ns());
}

static void lt_wakeup_probe_switch(void *data, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state)
{
	struct lt_wakeup_switch sw = { .prev = prev, .next = next };
	pid_t pid = next->pid;

	/* The CPU's time first: the event ending here reads it. */
	lt_ct_switch(prev, next, latency_tracker_switch_ns(prev));
	/* Under this CPU's runqueue lock, like the reader. */
	this_cpu_write(lt_wakeup_curr, next);
	if (!pid)
		return;		/* idle is never woken */
	latency_tracker_event_out_switch(lt_wakeup.t, &pid, sizeof(pid), prev, 0,
					 &sw);
}

#define LT_WAKEUP_TPS(X)						\
	LT_CT_TPS(X)							\
	X(sched_waking, lt_wakeup_probe_waking)				\
	X(sched_wakeup, lt_wakeup_probe_wakeup)				\
	X(sched_migrate_task, lt_wakeup_probe_migrate)			\
	X(sched_switch, lt_wakeup_probe_switch)
LT_PROBE_TPS(lt_wakeup_tps, LT_WAKEUP_TPS);

static struct lt_probe lt_wakeup = {
	.params = {
		.name = "wakeup",
		.key_size = sizeof(pid_t),
		.priv_size = sizeof(struct lt_wakeup_priv),
		.alert_payload = sizeof(struct lt_wakeup_record),
		.callback = lt_wakeup_cb,
		.alert_fmt = lt_wakeup_fmt,
	},
	.parts = (const char *const []){ "irq", "softirq", "thread", "idle",
					 "other_cpu", NULL },
	.tps = lt_wakeup_tps,
	.nr_tps = ARRAY_SIZE(lt_wakeup_tps),
};

static int __init lt_wakeup_init(void)
{
	int ret;

	ret = lt_ct_init();
	if (ret)
		return ret;
	ret = lt_probe_start(&lt_wakeup, &lt_mparams);
	if (ret)
		lt_ct_exit();
	return ret;
}

static void __exit lt_wakeup_exit(void)
{
	lt_probe_stop(&lt_wakeup);
	lt_ct_exit();
}

module_init(lt_wakeup_init);
module_exit(lt_wakeup_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Scheduling latency: from a task's wakeup until it runs");
