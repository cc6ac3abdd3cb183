// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_race_test.c - test-only module: wakeups that race the wakee's sleep,
 * made deterministic (tests/guest/wakeup-race.sh).
 *
 * A victim kernel thread (SCHED_FIFO 50, bound to victim_cpu: neither the
 * tick, nor ktimers and threaded interrupts on PREEMPT_RT, preempt its
 * busy wait where kernel code is preemptible) loops: it sets
 * itself TASK_INTERRUPTIBLE, asks the waker for a wakeup, busy-waits
 * busy_us on its CPU (still in that state, still on its runqueue), then
 * calls schedule().  The waker (bound to another CPU) wakes it during the
 * busy wait, so sched_waking fires while the victim is on its CPU and
 * queued.  This module's own sched_waking probe, attached after the
 * trackers' probes (probes run in the order they were attached), then
 * holds the waker inside try_to_wake_up() until the victim has left its
 * CPU: the trackers' probes saw it running, and the wakeup completes only
 * after it blocked -- the interleaving that a vCPU stall or a slow waker
 * gives by chance.  A waking held that way is counted in `raced`; one
 * that came after the victim had blocked already (the waker late) in
 * `blocked`; one whose victim left its CPU preempted, not blocked (still
 * queued and runnable: a tick preempts the busy wait where kernel code is
 * preemptible, as with PREEMPT_LAZY and PREEMPT_RT on Linux 7.x), in
 * `preempted`, during the hold or before it.
 *
 * With preempt=1, each held waking preempts the victim instead: the
 * module's probe sends the victim's CPU a function call (an IPI: hard
 * interrupt context, PREEMPT_RT too) that wakes a SCHED_FIFO 50 hog bound there,
 * the victim being SCHED_FIFO 1; the hog runs 2 ms and sleeps again.  The
 * victim leaves its CPU preempted during the hold, counted in
 * `preempted`: the trackers saw it running at sched_waking, and it never
 * blocked.
 *
 * With signal=1, the victim (nice 19) instead sleeps `rounds` times with a signal
 * pending (it sends itself SIGUSR1 first): schedule() keeps it runnable
 * (signal_pending_state()), and with a busy task on its CPU it is switched
 * out all the same -- before Linux 6.16 (upstream 8feb053d5319, in 6.12
 * since 6.12.34) sched_switch still names its sleeping state.  No waker:
 * nothing blocked, nothing to wake.
 *
 * Parameters (read back through /sys/module/lt_race_test/parameters/):
 * victim_cpu, rounds, busy_us, preempt, signal; victim_pid, waker_pid (set at load),
 * raced, blocked, preempted and done (rounds finished) while it runs.  The victim starts its
 * rounds once `go` is written 1 (the test sets its filters first).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/timekeeping.h>
#include <trace/events/sched.h>

#include <latency_tracker.h>
#include <latency_tracker_compat.h>

static int victim_cpu = 1;
module_param(victim_cpu, int, 0444);
MODULE_PARM_DESC(victim_cpu, "CPU of the victim (the waker runs on another)");
static int rounds = 40;
module_param(rounds, int, 0444);
MODULE_PARM_DESC(rounds, "sleeps of the victim");
static int busy_us = 40000;
module_param(busy_us, int, 0444);
MODULE_PARM_DESC(busy_us, "busy wait of the victim in TASK_INTERRUPTIBLE");
static bool signal;
module_param(signal, bool, 0444);
MODULE_PARM_DESC(signal, "1: sleeps kept runnable by a pending signal");
static bool preempt;
module_param(preempt, bool, 0444);
MODULE_PARM_DESC(preempt, "1: each held waking preempts the victim");
static int victim_pid;
module_param(victim_pid, int, 0444);
static int waker_pid;
module_param(waker_pid, int, 0444);
static int raced;
module_param(raced, int, 0444);
static int blocked;
module_param(blocked, int, 0444);
static int preempted;
module_param(preempted, int, 0444);
static int done;
module_param(done, int, 0444);
static int go;
static struct task_struct *lt_victim, *lt_waker, *lt_hog;

/* Writing `go` wakes the victim, waiting for it (one wakeup). */
static int lt_race_set_go(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_int(val, kp);

	if (!ret && READ_ONCE(go) && lt_victim)
		wake_up_process(lt_victim);
	return ret;
}

static const struct kernel_param_ops lt_race_go_ops = {
	.set = lt_race_set_go,
	.get = param_get_int,
};
module_param_cb(go, &lt_race_go_ops, &go, 0600);
MODULE_PARM_DESC(go, "1: the victim starts its rounds");

/* How long the probe holds a waker at most. */
#define LT_RACE_HOLD_NS	(200 * NSEC_PER_MSEC)

static DECLARE_COMPLETION(lt_armed);

/*
 * On the clock, not udelay(): its calibration under emulation varies.
 * resched: a preemption point (cond_resched(): where kernel code is not
 * preemptible, as with PREEMPT_VOLUNTARY, a switch there is a preemption
 * all the same, the task's state kept).
 */
static void lt_busy_wait(u64 ns, bool resched)
{
	u64 t0 = ktime_get_mono_fast_ns();

	while (ktime_get_mono_fast_ns() - t0 < ns) {
		if (resched)
			cond_resched();
		cpu_relax();
	}
}

static int lt_victim_fn(void *unused)
{
	int i;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(go) || kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	if (signal)
		allow_signal(SIGUSR1);
	for (i = 0; signal && i < rounds && !kthread_should_stop(); i++) {
		/* Its share of the CPU used: the busy task comes next. */
		lt_busy_wait(2 * NSEC_PER_MSEC, false);
		send_sig(SIGUSR1, current, 0);
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
		__set_current_state(TASK_RUNNING);
		flush_signals(current);
		WRITE_ONCE(done, i + 1);
	}
	for (i = 0; !signal && i < rounds && !kthread_should_stop(); i++) {
		set_current_state(TASK_INTERRUPTIBLE);
		complete(&lt_armed);
		lt_busy_wait(busy_us * NSEC_PER_USEC, preempt);
		schedule();
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(done, i + 1);
	}
	/* Woken by the waker's last round, if any, then by kthread_stop(). */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* preempt=1: the hog, woken on the victim's CPU, takes it 2 ms. */
static int lt_hog_fn(void *unused)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
		__set_current_state(TASK_RUNNING);
		lt_busy_wait(2 * NSEC_PER_MSEC, false);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Set while a call is on its way: the module's text must outlive it. */
static atomic_t lt_hog_calls = ATOMIC_INIT(0);

static void lt_hog_wake(void *unused)
{
	wake_up_process(lt_hog);
	atomic_dec(&lt_hog_calls);
}

/* An IPI, hard interrupt context on PREEMPT_RT too: the hog preempts. */
static call_single_data_t lt_hog_csd = CSD_INIT(lt_hog_wake, NULL);

static int lt_waker_fn(void *unused)
{
	while (!kthread_should_stop()) {
		if (wait_for_completion_interruptible_timeout(&lt_armed, HZ) <= 0)
			continue;
		/* Into the victim's busy wait, well before its end. */
		usleep_range(busy_us / 40, busy_us / 40 + 100);
		wake_up_process(lt_victim);
	}
	return 0;
}

/* Kept on its runqueue by delayed dequeue (Linux >= 6.12): blocked. */
static bool lt_delayed(struct task_struct *p)
{
	return READ_ONCE(p->on_rq) && !lt_task_queued_runnable(p);
}

/* Registered after the trackers': runs after their probes. */
static void lt_race_probe_waking(void *data, struct task_struct *p)
{
	u64 t0;

	if (p != lt_victim || current != lt_waker)
		return;
	/* Acquire: its dequeue, or delayed mark, came before on_cpu = 0. */
	if (!smp_load_acquire(&p->on_cpu)) {
		/* Off its CPU and no longer queued: it blocked already. */
		if (!READ_ONCE(p->on_rq) || lt_delayed(p))
			WRITE_ONCE(blocked, blocked + 1);
		else
			WRITE_ONCE(preempted, preempted + 1);
		return;
	}
	/* Not from here: the victim's pi_lock is held, the hog's nests. */
	if (preempt) {
		atomic_inc(&lt_hog_calls);
		if (smp_call_function_single_async(victim_cpu, &lt_hog_csd))
			atomic_dec(&lt_hog_calls);	/* one still pending */
	}
	t0 = ktime_get_mono_fast_ns();
	while (smp_load_acquire(&p->on_cpu)) {	/* as above */
		if (ktime_get_mono_fast_ns() - t0 > LT_RACE_HOLD_NS)
			return;
		cpu_relax();
	}
	/*
	 * Nothing else wakes it, and its switch-out came before on_cpu = 0:
	 * still queued and runnable, it was preempted.
	 */
	if (READ_ONCE(p->on_rq) && !lt_delayed(p))
		WRITE_ONCE(preempted, preempted + 1);
	else
		WRITE_ONCE(raced, raced + 1);
}

static struct latency_tracker_tp lt_race_tps[] = {
	{ .name = "sched_waking", .probe = lt_race_probe_waking },
};

/* Never called: type-checks the probe against its tracepoint. */
static inline void __maybe_unused lt_race_check_types(void)
{
	check_trace_callback_type_sched_waking(lt_race_probe_waking);
}

static int __init lt_race_init(void)
{
	int waker_cpu = victim_cpu ? 0 : 1;
	int ret;

	if (rounds < 1 || busy_us < 500 || busy_us > 100000 ||
	    (preempt && signal) ||
	    victim_cpu < 0 || victim_cpu >= nr_cpu_ids ||
	    !cpu_online(victim_cpu) || !cpu_online(waker_cpu)) {
		pr_err("bad parameters (rounds, busy_us, victim_cpu, preempt with signal)\n");
		return -EINVAL;
	}
	ret = latency_tracker_tp_attach(lt_race_tps, ARRAY_SIZE(lt_race_tps));
	if (ret)
		return ret;
	lt_victim = kthread_create(lt_victim_fn, NULL, "lt_race_victim");
	if (IS_ERR(lt_victim)) {
		ret = PTR_ERR(lt_victim);
		goto out_detach;
	}
	lt_waker = kthread_create(lt_waker_fn, NULL, "lt_race_waker");
	if (IS_ERR(lt_waker)) {
		ret = PTR_ERR(lt_waker);
		goto out_victim;
	}
	if (preempt) {
		lt_hog = kthread_create(lt_hog_fn, NULL, "lt_race_hog");
		if (IS_ERR(lt_hog)) {
			ret = PTR_ERR(lt_hog);
			goto out_waker;
		}
		kthread_bind(lt_hog, victim_cpu);
		sched_set_fifo(lt_hog);
	}
	kthread_bind(lt_victim, victim_cpu);
	kthread_bind(lt_waker, waker_cpu);
	if (signal)
		set_user_nice(lt_victim, MAX_NICE);	/* the busy task runs */
	else if (preempt)
		sched_set_fifo_low(lt_victim);		/* below the hog */
	else
		sched_set_fifo(lt_victim);
	victim_pid = lt_victim->pid;
	waker_pid = lt_waker->pid;
	if (lt_hog)
		wake_up_process(lt_hog);
	wake_up_process(lt_waker);
	wake_up_process(lt_victim);
	return 0;

out_waker:
	kthread_stop(lt_waker);
out_victim:
	kthread_stop(lt_victim);
out_detach:
	latency_tracker_tp_detach(lt_race_tps, ARRAY_SIZE(lt_race_tps));
	return ret;
}

static void __exit lt_race_exit(void)
{
	kthread_stop(lt_waker);
	kthread_stop(lt_victim);
	latency_tracker_tp_detach(lt_race_tps, ARRAY_SIZE(lt_race_tps));
	/*
	 * The probe is gone (detach waits for it): no call sent after.  One
	 * sent runs with interrupts off, which synchronize_rcu() waits for
	 * once the count says it began.
	 */
	if (lt_hog) {
		while (atomic_read(&lt_hog_calls))
			usleep_range(1000, 2000);
		synchronize_rcu();
		kthread_stop(lt_hog);
	}
}

module_init(lt_race_init);
module_exit(lt_race_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Test: wakeups that race the wakee's sleep, made deterministic");
