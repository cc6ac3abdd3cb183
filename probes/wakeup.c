// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup.c - latency_tracker_wakeup: scheduling latency, from the wakeup
 * of a task (sched_waking) to the context switch that gives it a CPU
 * (sched_switch).
 *
 * Key: the woken task's pid, unique mode.  A wakeup of a task that is
 * still on a runqueue (it never left, or is current) starts nothing: no
 * switch will end it.  The record names the woken task, the waker (current
 * at sched_waking) and the task that held the CPU until the woken one got
 * it (prev at sched_switch).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <trace/events/sched.h>

#include <lt_records/wakeup.h>
#include "probe_common.h"
#include "lt_trace.h"

/* 5 ms: more than one scheduler tick (4 ms at HZ=250) spent runnable. */
LT_PROBE_MODULE_PARAMS(5000000, 0, 4096);

/* Saved at sched_waking, in the event's private data. */
struct lt_wakeup_priv {
	pid_t tgid;
	int prio;
	pid_t waker_pid;
	char comm[TASK_COMM_LEN];
	char waker_comm[TASK_COMM_LEN];
};

/* What sched_switch tells the callback (event_out's ctx). */
struct lt_wakeup_switch {
	struct task_struct *prev;
	struct task_struct *next;
};

static struct lt_probe lt_wakeup;

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
	struct lt_wakeup_priv priv;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = sizeof(priv),
	};
	pid_t pid = p->pid;

	/*
	 * Already running, or queued and runnable: no switch will bring it
	 * in.  A task kept on its runqueue by delayed dequeue (Linux >= 6.12)
	 * blocked all the same and waits for a CPU once woken: tracked.
	 */
	if (p == current || lt_task_queued_runnable(p) || !pid)
		return;
	priv.tgid = p->tgid;
	priv.prio = p->prio;
	priv.waker_pid = current->pid;
	memcpy(priv.comm, p->comm, TASK_COMM_LEN);
	memcpy(priv.waker_comm, current->comm, TASK_COMM_LEN);
	latency_tracker_event_in(lt_wakeup.t, &pid, sizeof(pid), &opts);
}

static void lt_wakeup_probe_switch(void *data, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state)
{
	struct lt_wakeup_switch sw = { .prev = prev, .next = next };
	pid_t pid = next->pid;

	if (!pid)
		return;		/* idle is never woken */
	latency_tracker_event_out(lt_wakeup.t, &pid, sizeof(pid), 0, &sw);
}

#define LT_WAKEUP_TPS(X)						\
	X(sched_waking, lt_wakeup_probe_waking)				\
	X(sched_switch, lt_wakeup_probe_switch)
LT_PROBE_TPS(lt_wakeup_tps, LT_WAKEUP_TPS);

static struct lt_probe lt_wakeup = {
	.params = {
		.name = "wakeup",
		.key_size = sizeof(pid_t),
		.priv_size = sizeof(struct lt_wakeup_priv),
		.callback = lt_wakeup_cb,
		.alert_fmt = lt_wakeup_fmt,
	},
	.tps = lt_wakeup_tps,
	.nr_tps = ARRAY_SIZE(lt_wakeup_tps),
};

static int __init lt_wakeup_init(void)
{
	return lt_probe_start(&lt_wakeup, threshold, timeout, max_events);
}

static void __exit lt_wakeup_exit(void)
{
	lt_probe_stop(&lt_wakeup);
}

module_init(lt_wakeup_init);
module_exit(lt_wakeup_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Scheduling latency: from a task's wakeup until it runs");
