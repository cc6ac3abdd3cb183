// SPDX-License-Identifier: GPL-2.0-only
/*
 * offcpu.c - latency_tracker_offcpu: how long a task stays off CPU once it
 * blocks, and where it blocked.
 *
 * Starts at the sched_switch that takes a task off the CPU blocked (not a
 * preemption, not an exit), ends at the sched_switch that brings it back.
 * Blocked is decided where __schedule() decides it, under the runqueue
 * lock the probe runs under: a sleeping prev_state, and prev no longer
 * queued and runnable (dequeued, or delayed since 6.12).  Before 6.16
 * (upstream 8feb053d5319, backported to 6.12.34) a task that
 * signal_pending_state() kept runnable is passed with its sleeping state
 * all the same: it stays queued, so it is a preemption here, whatever
 * prev_state says.  Key: pid (idle tasks never tracked).  sched_waking
 * notes the waker in the pending event (stateful lookup).  The filters
 * look at the task that blocks; kernel threads are not tracked by default
 * (kthreads=0): idle kernel threads (khugepaged, kcompactd, ...) sleep for
 * seconds by design and would be noise.
 *
 * A waking that races the sleep.  sched_waking fires before the waker
 * takes the wakee's runqueue lock, so it may come while the wakee is still
 * on its way to the switch-out that starts its event: the lookup finds
 * nothing, and the record would name no waker.  So a waking of a task
 * still on a CPU (p->on_cpu, acquire: cleared after its switch-out, whose
 * event is then visible) first leaves the waker in a small table indexed
 * by the wakee (lt_offcpu_stash), then looks the event up; the switch-out
 * inserts its event, then looks in that table.  Both with a full barrier
 * between their write and their read, so one of them sees the other's
 * (the waker's event lookup, or the switch-out's stash lookup): the first
 * to note the waker wins (woken).  An entry left by a wakeup that found
 * its wakee still running (it did not block) is dropped at that wakeup's
 * sched_wakeup, before the wakee can block again.  Two wakees racing at
 * once on one entry: the second's waker is not noted (its record then
 * names none, as without the table).
 *
 *	what		who					sync
 *	entry owner	waker (claims a free one), switch-out	cmpxchg,
 *			(claims its own), sched_wakeup (drops)	release
 *	entry data	the owner that claimed it		owner word
 *
 * Stacks.  Over the threshold, the task's stack is saved at switch-in
 * into the record: it has not run yet, so the stack is still the one it
 * blocked with.  With a timeout, a task still blocked is reported while
 * blocked, its stack saved by the timeout callback if it still sleeps
 * then (lt_stack_save_blocked()).  The waker's stack is saved by the
 * waker at the waking, in the event, when the task has been off CPU for
 * the threshold by then (only then is an alert certain: a wake-up that
 * ends in none pays no stack walk); one waker writes it (the first,
 * woken) and publishes its nr with a release, read with an acquire by the
 * callback.  With ustack=1, the user stack is walked at the switch-out,
 * in the task's own context (the only one whose user memory can be read
 * without sleeping), and kept in the event.  Stacks are named in process
 * context only: when the record is read, and for dmesg (rate limited) and
 * our tracepoint.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <trace/events/sched.h>

#include <lt_records/offcpu.h>
#include "common/probe.h"
#include "lt_trace.h"

/*
 * 1 s: off-CPU time is long by nature (every idle daemon sleeps); lower
 * it for a task known to be latency-sensitive.  Every blocked thread holds
 * a pending event: max_events 0, a pool that grows up to one slot per
 * kernel stack the memory could hold.
 */
LT_PROBE_MODULE_PARAMS(1000000000, 0, 0, 0);

/*
 * User stacks: a frame-pointer walk of the user stack at each switch-out
 * of a tracked task (lt_ustack_save_current(): up to 16 reads of user
 * memory, without faulting), kept in its event; off by default for that
 * cost.
 */
static bool lt_offcpu_ustack;
module_param_named(ustack, lt_offcpu_ustack, bool, 0444);
MODULE_PARM_DESC(ustack, "records carry the user stack (a frame-pointer walk at each switch-out; default 0)");

/*
 * Saved at switch-out (and sched_waking), in the event's private data.
 * Every field up to wnr is written at switch-out (the waker's as zeros);
 * the two stacks' addresses come last, outside what event_in copies or
 * zeroes (priv_keep), valid up to their counts: uip, with ustack=1, is
 * copied from the walk at switch-out; wip is written by the waker.
 */
struct lt_offcpu_priv {
	u64 cgroup;
	u64 exec_id;
	pid_t tgid;
	char state;
	char comm[TASK_COMM_LEN];
	u32 unr;
	/* Set by sched_waking. */
	u32 woken;
	pid_t waker_pid;
	char waker_comm[TASK_COMM_LEN];
	u32 wnr;
	u32 wgen;	/* by the waker: latency_tracker_module_gen() before wip */
	u64 uip[LT_REC_STACK_DEPTH];
	unsigned long wip[LT_REC_STACK_DEPTH];
};

/*
 * The record being made, per CPU: too large for the stack of a probe
 * under __schedule().  [0] for the switch-in (interrupts off), [1] for a
 * timeout (the timer, preemption off): neither nests in itself.
 */
static DEFINE_PER_CPU(struct lt_offcpu_record, lt_offcpu_rec[2]);

static struct lt_probe lt_offcpu;
static struct lt_reports lt_offcpu_reports;

/*
 * The waker of a task that was still on a CPU at its waking (see the top
 * of this file).  owner: the wakee (compared, never dereferenced), NULL
 * when free, LT_STASH_BUSY while its owner writes or reads it.
 */
#define LT_STASH_BITS	8
#define LT_STASH_BUSY	((struct task_struct *)1UL)

struct lt_offcpu_stash {
	struct task_struct *owner;
	pid_t waker_pid;
	char waker_comm[TASK_COMM_LEN];
};

static struct lt_offcpu_stash lt_offcpu_stash[1 << LT_STASH_BITS];

static struct lt_offcpu_stash *lt_stash_of(const struct task_struct *p)
{
	return &lt_offcpu_stash[hash_ptr(p, LT_STASH_BITS)];
}

/* A waking of @p while @p is on a CPU: leave the waker (current). */
static void lt_stash_put(struct task_struct *p)
{
	struct lt_offcpu_stash *e = lt_stash_of(p);

	if (cmpxchg(&e->owner, NULL, LT_STASH_BUSY))
		return;		/* taken by another wakee */
	e->waker_pid = current->pid;
	memcpy(e->waker_comm, current->comm, TASK_COMM_LEN);
	/* Publishes the waker: pairs with the claiming cmpxchg. */
	smp_store_release(&e->owner, p);
}

/* Drops @p's entry, if it has one. */
static void lt_stash_drop(struct task_struct *p)
{
	struct lt_offcpu_stash *e = lt_stash_of(p);

	if (unlikely(READ_ONCE(e->owner) == p))
		cmpxchg(&e->owner, p, NULL);
}

/* Report work: tracepoint with the stacks as text, then dmesg. */
static void lt_offcpu_handle(struct lt_report *r)
{
	const struct lt_offcpu_record *a = (const void *)r->data;

	trace_offcpu(r->cause, r->delay_ns, a, lt_stack_text(r, 0, &a->stack),
		     lt_stack_text(r, 1, &a->waker_stack));
	if (!r->print)
		return;
	lt_report_print_suppressed(r->owner);
	pr_info("%s (%d) %llu us\n", a->comm, a->pid,
		div_u64(r->delay_ns, NSEC_PER_USEC));
	lt_report_print_stack(&a->stack);
}

static void lt_offcpu_cb(const struct latency_tracker_report *r)
{
	const struct lt_offcpu_priv *priv =
		latency_tracker_event_priv(r->event);
	struct task_struct *next = r->ctx;
	struct lt_offcpu_record *a;
	struct lt_report *rep;
	const pid_t *pid;
	bool print;
	u32 len, n;

	a = this_cpu_ptr(&lt_offcpu_rec[next ? 0 : 1]);
	memset(a, 0, sizeof(*a));
	pid = latency_tracker_event_key(r->event, &len);
	a->pid = *pid;
	a->tgid = priv->tgid;
	memcpy(a->comm, priv->comm, TASK_COMM_LEN);
	a->waker_pid = priv->waker_pid;
	memcpy(a->waker_comm, priv->waker_comm, TASK_COMM_LEN);
	a->state = priv->state;
	a->cgroup = priv->cgroup;
	/* The CPU the task gets back; unknown while it still sleeps. */
	a->cpu = next ? smp_processor_id() : -1;
	/* Switch-in: next has not run yet, the runqueue lock pins it. */
	if (next) {
		a->stack.modgen = latency_tracker_module_gen();
		a->stack.nr = lt_stack_save_tsk(next, a->stack.ip,
						LT_REC_STACK_DEPTH);
	} else {
		lt_stack_save_blocked(a->pid, r->start_ns, &a->stack);
	}
	/* wip[0..n) written before n (lt_offcpu_note_waker()). */
	n = smp_load_acquire(&priv->wnr);
	a->waker_stack.nr = min_t(u32, n, LT_REC_STACK_DEPTH);
	a->waker_stack.modgen = priv->wgen;
	memcpy(a->waker_stack.ip, priv->wip,
	       a->waker_stack.nr * sizeof(a->waker_stack.ip[0]));
	a->ustack.nr = LT_REC_STACK_NONE;
	if (lt_offcpu_ustack) {
		a->ustack.nr = min_t(u32, priv->unr, LT_REC_STACK_DEPTH);
		a->ustack.pid = a->pid;
		a->ustack.start_ns = r->start_ns;
		a->ustack.exec_id = priv->exec_id;
		memcpy(a->ustack.ip, priv->uip,
		       a->ustack.nr * sizeof(a->ustack.ip[0]));
	}
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      a, sizeof(*a));

	/* Reports: for dmesg or for a tracepoint user only. */
	print = lt_report_may_print(&lt_offcpu_reports, a->tgid,
				    lt_probe_selects(&lt_offcpu));
	if (!print && !trace_offcpu_enabled())
		return;
	rep = lt_report_get(&lt_offcpu_reports);
	if (!rep) {
		trace_offcpu(r->cause, r->delay_ns, a, "", "");
		return;
	}
	lt_report_fill(rep, r, print, a, sizeof(*a));
	lt_report_queue(rep);
}

static LT_RECORD_FMT(lt_offcpu_fmt, struct lt_offcpu_record, LT_OFFCPU_RECORD)

/*
 * The first waker of this blocking period is the one that counts.  A
 * waker that is current (@here) leaves its stack too when the task @ev
 * has been off CPU for the threshold already (see the top of this file).
 */
static void lt_offcpu_note_waker(struct latency_tracker_event *ev, pid_t pid,
				 const char *comm, bool here)
{
	struct lt_offcpu_priv *priv = latency_tracker_event_priv(ev);
	unsigned int n;

	if (xchg(&priv->woken, 1))
		return;
	priv->waker_pid = pid;
	memcpy(priv->waker_comm, comm, TASK_COMM_LEN);
	if (!here || ktime_get_mono_fast_ns() - latency_tracker_event_start(ev) <
		     latency_tracker_threshold(lt_offcpu.t))
		return;
	/* Its only writer (woken). */
	priv->wgen = latency_tracker_module_gen();
	n = lt_stack_save_here(priv->wip);
	/* wip[] and wgen before wnr: pairs with the acquire in lt_offcpu_cb(). */
	smp_store_release(&priv->wnr, n);
}

/*
 * @prev just got its event: a waker that ran before the event existed
 * left itself in the stash (see the top of this file).
 */
static void lt_offcpu_stash_take(struct task_struct *prev)
{
	struct lt_offcpu_stash *e = lt_stash_of(prev);
	struct latency_tracker_event *ev;
	pid_t pid = prev->pid;

	if (cmpxchg(&e->owner, prev, LT_STASH_BUSY) != prev)
		return;
	/* Preemption is off: an RCU reader, in which ev stays valid. */
	ev = latency_tracker_find_event(lt_offcpu.t, &pid, sizeof(pid));
	if (ev)
		lt_offcpu_note_waker(ev, e->waker_pid, e->waker_comm, false);
	/* The reads above before the entry is free for another wakee. */
	smp_store_release(&e->owner, NULL);
}

/*
 * prev blocks: its event starts.  Apart (noinline) so that its private
 * data, a few hundred bytes, is off the stack before next's switch-in
 * goes down into the core and the callback.
 */
static noinline void lt_offcpu_switch_out(struct task_struct *prev,
					  unsigned int prev_state)
{
	/*
	 * Not zeroed first (see lt_wakeup_probe_waking()): every field up to
	 * wnr is written below; the padding between fields, and with
	 * ustack=1 uip[] beyond unr, are copied as the stack left them:
	 * never read (unr bounds uip).
	 */
	struct lt_offcpu_priv priv __uninitialized;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = lt_offcpu_ustack ?
			    offsetofend(struct lt_offcpu_priv, uip) :
			    offsetofend(struct lt_offcpu_priv, wnr),
		.priv_keep = lt_offcpu_ustack ?
			     sizeof(priv.wip) : sizeof(priv.uip) + sizeof(priv.wip),
	};
	unsigned int state_index;
	pid_t pid = prev->pid;

	if (!lt_probe_track_task(&lt_offcpu, prev, &priv.cgroup))
		return;
	priv.tgid = prev->tgid;
	state_index = __task_state_index(prev_state, prev->exit_state);
	priv.state = task_index_to_char(state_index);
	memcpy(priv.comm, prev->comm, TASK_COMM_LEN);
	/* prev is current: its user memory is readable. */
	priv.unr = lt_offcpu_ustack ? lt_ustack_save_current(priv.uip) : 0;
	priv.exec_id = prev->self_exec_id;
	/* No waker yet. */
	priv.woken = 0;
	priv.waker_pid = 0;
	memset(priv.waker_comm, 0, TASK_COMM_LEN);
	priv.wnr = 0;
	/* The clock of this switch, shared with the other trackers. */
	opts.ts_ns = latency_tracker_switch_ns(prev);
	if (latency_tracker_event_in(lt_offcpu.t, &pid, sizeof(pid),
				     &opts) == LATENCY_TRACKER_OK) {
		/* The insertion before the stash's read. */
		smp_mb();
		if (unlikely(READ_ONCE(lt_stash_of(prev)->owner) == prev))
			lt_offcpu_stash_take(prev);
	}
}

static void lt_offcpu_probe_switch(void *data, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state)
{
	pid_t pid = next->pid;

	/*
	 * prev first: its off-CPU time starts now, not after next's report
	 * (the callback of the event_out below saves next's stack and
	 * queues irq_work), and a wakeup of prev meanwhile finds its event.
	 * Blocked: not preempted, in a sleeping state, not exiting, and no
	 * longer queued and runnable (see the top of this file).
	 */
	if (!preempt && prev->pid && prev_state != TASK_RUNNING &&
	    !(prev_state & TASK_DEAD) && !prev->exit_state &&
	    !lt_task_queued_runnable(prev))
		lt_offcpu_switch_out(prev, prev_state);
	if (pid)
		latency_tracker_event_out_switch(lt_offcpu.t, &pid, sizeof(pid),
						 prev, 0, next);
}

static void lt_offcpu_probe_waking(void *data, struct task_struct *p)
{
	struct latency_tracker_event *ev;
	bool on_cpu;
	pid_t pid = p->pid;

	if (!pid)
		return;
	/*
	 * Still on a CPU: its switch-out may not have started its event
	 * yet.  Leave the waker in the stash before the lookup (see the top
	 * of this file).
	 */
	on_cpu = smp_load_acquire(&p->on_cpu);
	if (on_cpu) {
		lt_stash_put(p);
		/* Stash before lookup: pairs with the switch-out. */
		smp_mb();
	}
	/*
	 * try_to_wake_up() runs with preemption disabled (also on
	 * PREEMPT_RT): an RCU reader, in which ev stays valid.  The waker
	 * may be an idle task, pid 0, when an interrupt wakes.
	 */
	ev = latency_tracker_find_event(lt_offcpu.t, &pid, sizeof(pid));
	if (!ev)
		return;
	lt_offcpu_note_waker(ev, current->pid, current->comm, true);
	if (on_cpu)
		lt_stash_drop(p);
}

/*
 * The wakeup is over: a stash entry still naming @p was left by a waking
 * that found @p running (it did not block: its switch-out would have
 * taken the entry); it must not name the waker of @p's next sleep.
 */
static void lt_offcpu_probe_wakeup(void *data, struct task_struct *p)
{
	lt_stash_drop(p);
}

#define LT_OFFCPU_TPS(X)						\
	X(sched_waking, lt_offcpu_probe_waking)				\
	X(sched_wakeup, lt_offcpu_probe_wakeup)				\
	X(sched_switch, lt_offcpu_probe_switch)
LT_PROBE_TPS(lt_offcpu_tps, LT_OFFCPU_TPS);

static struct lt_probe lt_offcpu = {
	.params = {
		.name = "offcpu",
		.key_size = sizeof(pid_t),
		.priv_size = sizeof(struct lt_offcpu_priv),
		.alert_payload = sizeof(struct lt_offcpu_record),
		.callback = lt_offcpu_cb,
		.alert_fmt = lt_offcpu_fmt,
	},
	.tps = lt_offcpu_tps,
	.nr_tps = ARRAY_SIZE(lt_offcpu_tps),
	.reports = &lt_offcpu_reports,
};

static int __init lt_offcpu_init(void)
{
	lt_reports_init(&lt_offcpu_reports, lt_offcpu_handle);
	return lt_probe_start(&lt_offcpu, &lt_mparams);
}

static void __exit lt_offcpu_exit(void)
{
	lt_probe_stop(&lt_offcpu);
}

module_init(lt_offcpu_init);
module_exit(lt_offcpu_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Off-CPU time of blocked tasks, with their kernel stacks");
