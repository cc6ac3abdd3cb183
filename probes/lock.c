// SPDX-License-Identifier: GPL-2.0-only
/*
 * lock.c - latency_tracker_lock: a task's wait for a contended kernel
 * lock, from its first lock:contention_begin to its contention_end
 * (Linux 5.19 and later; docs/design.md, "More trackers").
 *
 * Events.  One per waiting task, keyed by the task (its address, never
 * shown), which keeps the lock's address in the event.  A wait may emit
 * several begins before its end (a mutex: one before its optimistic
 * spin, one before it sleeps, again after each wakeup), and a wait may
 * contain another (the waiter spins on the lock's wait_lock; on
 * PREEMPT_RT an rwsem's or rwlock's reader waits on the rt_mutex inside
 * it): a begin while the task has a wait pending is ignored, and only
 * the end for the pending wait's lock ends it.  So a wait runs from its
 * first begin to its own end, and an inner wait is part of the outer
 * one.  The kernel emits an end for every begin of a task (each slow
 * path pairs them), so no wait stays pending.  The begin notes the
 * waiter, its cgroup, the lock's kind from the tracepoint's flags and
 * the owner the lock records then (the task that made the waiter wait:
 * a lock handed over meanwhile keeps the first), read with
 * get_kernel_nofault(): the owner word is read without the lock's
 * wait_lock and may name a task that is exiting.  The end looks the
 * lock's name up, only for a wait over the threshold: its symbol and
 * offset for a static lock (kallsyms, which Debian's kernels fill with
 * data symbols too: CONFIG_KALLSYMS_ALL), else a keyed hash of its
 * address, random per load.
 *
 * Only a task's waits: a begin in interrupt context (a spinlock an
 * interrupt handler or a softirq waits for) is not a task's and is
 * ignored, as in NMI context, where the core cannot run.
 *
 * Recursion.  The probes run inside the lock slow paths of the whole
 * kernel, some with the lock's wait_lock held and interrupts off, and the
 * core they call takes raw spinlocks of its own (an alert's ring, the
 * pool as it grows), which report their contention through the same
 * tracepoint: each CPU has a flag, set while a probe runs in task
 * context with preemption disabled, and a probe that finds it set (this
 * CPU's probe contended a lock) returns at once.  An interrupt that
 * comes meanwhile is not in task context and is ignored anyway.
 *
 * Stacks.  The waiter's kernel stack at the end (the callback runs in the
 * waiter, inside the lock's slow path); for a timeout, where the waiter
 * is blocked then.  The tracepoint's text form of the stack is made by a
 * deferred report (probes/common/report.h) when the tracepoint is
 * enabled; this tracker prints nothing to dmesg: a printk under a
 * contended console lock would report itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/siphash.h>
#include <linux/uaccess.h>
#include <trace/events/lock.h>

#include <lt_records/lock.h>
#include "common/probe.h"
#include "lt_trace.h"

/*
 * 1 ms: a task waiting that long for a kernel lock is an outlier on a
 * real machine.  max_events 0, a pool that grows.  kthreads 1: a kernel
 * thread waiting for a lock delays what it serves.
 */
LT_PROBE_MODULE_PARAMS(1000000, 0, 0, 1);

/* What the first begin saw: the record's fields but those of the end. */
struct lt_lock_priv {
	unsigned long lock;	/* compared and hashed, never shown */
	pid_t pid;
	pid_t tgid;
	u64 cgroup;
	u32 kind;
	pid_t owner_pid;	/* -1: none */
	char comm[TASK_COMM_LEN];
	char owner_comm[TASK_COMM_LEN];
};

static struct lt_probe lt_lock;
static struct lt_reports lt_lock_reports;
static siphash_key_t lt_lock_hash_key;

/* Set while this CPU runs a probe in task context (see the top). */
static DEFINE_PER_CPU(bool, lt_lock_busy);

/*
 * A kallsyms name of a lock, per CPU (callbacks run with preemption
 * disabled): one for the waiter's end, one for the timeout timer's
 * softirq, which may interrupt it.
 */
static DEFINE_PER_CPU(char [2][KSYM_SYMBOL_LEN], lt_lock_sym);

/*
 * Enters a probe: false when it must not run (not in task context, or
 * this CPU is in a probe already).  On true, preemption is disabled
 * until lt_lock_leave().
 */
static __always_inline bool lt_lock_enter(void)
{
	if (!in_task())
		return false;
	preempt_disable_notrace();
	if (unlikely(__this_cpu_read(lt_lock_busy))) {
		preempt_enable_notrace();
		return false;
	}
	__this_cpu_write(lt_lock_busy, true);
	barrier();
	return true;
}

static __always_inline void lt_lock_leave(void)
{
	barrier();
	__this_cpu_write(lt_lock_busy, false);
	preempt_enable_notrace();
}

static u32 lt_lock_kind(unsigned int flags)
{
	if (flags & LCB_F_RT)
		return LT_LOCK_KIND_RT;
	if (flags & LCB_F_PERCPU)
		return flags & LCB_F_WRITE ? LT_LOCK_KIND_PERCPU_RWSEM_WRITE :
		       LT_LOCK_KIND_PERCPU_RWSEM_READ;
	if (flags & LCB_F_MUTEX)
		return LT_LOCK_KIND_MUTEX;
	if (flags & LCB_F_SPIN)
		return flags & LCB_F_READ ? LT_LOCK_KIND_RWLOCK_READ :
		       flags & LCB_F_WRITE ? LT_LOCK_KIND_RWLOCK_WRITE :
		       LT_LOCK_KIND_SPINLOCK;
	if (flags & LCB_F_READ)
		return LT_LOCK_KIND_RWSEM_READ;
	if (flags & LCB_F_WRITE)
		return LT_LOCK_KIND_RWSEM_WRITE;
	return LT_LOCK_KIND_SEMAPHORE;
}

/* The owner @lock records (see lt_lock_owner() in the compat header). */
static pid_t lt_lock_owner_get(void *lock, unsigned int flags,
			       char comm[TASK_COMM_LEN])
{
	struct task_struct *o = NULL;
	pid_t pid;

	if (flags == LCB_F_RT)
		o = lt_rt_mutex_owner(lock);
	else if (flags & LCB_F_RT)	/* with READ or WRITE */
		o = lt_rwbase_owner(lock);
	else if (flags & LCB_F_PERCPU)
		o = NULL;
	else if (flags & LCB_F_MUTEX)	/* spinning (SPIN) or not */
		o = lt_mutex_owner(lock);
	else if (!(flags & LCB_F_SPIN) && (flags & (LCB_F_READ | LCB_F_WRITE)))
		o = lt_rwsem_owner(lock);
	if (!o || o == current)
		return -1;
	if (get_kernel_nofault(pid, &o->pid) ||
	    copy_from_kernel_nofault(comm, o->comm, TASK_COMM_LEN))
		return -1;
	comm[TASK_COMM_LEN - 1] = '\0';
	return pid;
}

static void lt_lock_probe_begin(void *data, void *lock, unsigned int flags)
{
	unsigned long key = (unsigned long)current;
	/*
	 * Not zeroed first (__uninitialized: the kernel's automatic zeroing
	 * of the stack would clear it with a string instruction at every
	 * contention): every field is written, a name up to its NUL.
	 */
	struct lt_lock_priv priv __uninitialized;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = sizeof(priv),
	};

	if (!lt_lock_enter())
		return;
	/* The wait starts at the tracepoint, not after the lookups below. */
	opts.ts_ns = ktime_get_mono_fast_ns();
	/* Preemption disabled: an RCU read-side section for the lookup. */
	if (latency_tracker_find_event(lt_lock.t, &key, sizeof(key)))
		goto out;	/* a later begin of the wait, or an inner wait */
	if (!lt_probe_track_task(&lt_lock, current, &priv.cgroup))
		goto out;
	priv.lock = (unsigned long)lock;
	priv.pid = current->pid;
	priv.tgid = current->tgid;
	lt_comm_get(priv.comm, current);
	priv.kind = lt_lock_kind(flags);
	priv.owner_pid = lt_lock_owner_get(lock, flags, priv.owner_comm);
	if (priv.owner_pid < 0)
		priv.owner_comm[0] = '\0';
	latency_tracker_event_in(lt_lock.t, &key, sizeof(key), &opts);
out:
	lt_lock_leave();
}

static void lt_lock_probe_end(void *data, void *lock, int ret)
{
	unsigned long key = (unsigned long)current;
	struct latency_tracker_event *ev;
	const struct lt_lock_priv *priv;

	if (!lt_lock_enter())
		return;
	/*
	 * Only the task itself ends its wait (the timeout timer reports it
	 * and leaves it pending): the event found is still pending at the
	 * event_out() below.
	 */
	ev = latency_tracker_find_event(lt_lock.t, &key, sizeof(key));
	if (ev) {
		priv = latency_tracker_event_priv(ev);
		if (priv->lock == (unsigned long)lock)
			latency_tracker_event_out(lt_lock.t, &key, sizeof(key),
						  0, NULL);
	}
	lt_lock_leave();
}

/* The ends first: a begin never misses its end (see probe.h). */
#define LT_LOCK_TPS(X)							\
	X(contention_end, lt_lock_probe_end)				\
	X(contention_begin, lt_lock_probe_begin)
LT_PROBE_TPS(lt_lock_tps, LT_LOCK_TPS);

/*
 * The record's lock: "symbol+0xoff" of a static lock, else "id:" and a
 * keyed hash of its address.  Preemption disabled (the per-CPU buffers).
 */
static void lt_lock_name(char name[LT_REC_NAME_LEN], unsigned long lock)
{
	char *sym = this_cpu_ptr(lt_lock_sym)[in_task() ? 0 : 1];
	char *end;

	sprint_symbol(sym, lock);
	if (strncmp(sym, "0x", 2)) {
		/* "sym+0xoff/0xsize [module]": up to the size. */
		end = strchr(sym, '/');
		if (end)
			*end = '\0';
		strscpy(name, sym, LT_REC_NAME_LEN);
		return;
	}
	snprintf(name, LT_REC_NAME_LEN, "id:%016llx",
		 siphash_1u64(lock, &lt_lock_hash_key));
}

/* Report work (process context): the tracepoint with the stack as text. */
static void lt_lock_handle(struct lt_report *r)
{
	const struct lt_lock_record *a = (const void *)r->data;

	trace_lock(r->cause, r->delay_ns, a, lt_stack_text(r, 0, &a->stack));
}

/*
 * Threshold (in the waiter's contention_end, inside lt_lock_enter()) or
 * timeout (the timeout timer: softirq or its thread, preemption
 * disabled by the core's callback).  No sleeping, no printing.
 */
static void lt_lock_cb(const struct latency_tracker_report *r)
{
	const struct lt_lock_priv *priv = latency_tracker_event_priv(r->event);
	struct lt_lock_record a;
	struct lt_report *rep;

	a.pid = priv->pid;
	a.tgid = priv->tgid;
	memcpy(a.comm, priv->comm, TASK_COMM_LEN);
	a.cgroup = priv->cgroup;
	a.kind = priv->kind;
	a.owner_pid = priv->owner_pid;
	strscpy(a.owner_comm, priv->owner_comm, sizeof(a.owner_comm));
	lt_lock_name(a.lock, priv->lock);
	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		a.cpu = smp_processor_id();
		a.stack.modgen = latency_tracker_module_gen();
		a.stack.nr = lt_stack_save_here(a.stack.ip);
	} else {
		a.cpu = -1;
		lt_stack_save_blocked(a.pid, r->start_ns, &a.stack);
	}
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &a, sizeof(a));
	if (!trace_lock_enabled())
		return;
	rep = lt_report_get(&lt_lock_reports);
	if (!rep) {
		trace_lock(r->cause, r->delay_ns, &a, "");
		return;
	}
	lt_report_fill(rep, r, false, &a, sizeof(a));
	lt_report_queue(rep);
}

static LT_RECORD_FMT(lt_lock_fmt, struct lt_lock_record, LT_LOCK_RECORD)

static struct lt_probe lt_lock = {
	.params = {
		.name = "lock",
		.key_size = sizeof(unsigned long),
		.priv_size = sizeof(struct lt_lock_priv),
		.alert_payload = sizeof(struct lt_lock_record),
		.callback = lt_lock_cb,
		.alert_fmt = lt_lock_fmt,
	},
	.tps = lt_lock_tps,
	.nr_tps = ARRAY_SIZE(lt_lock_tps),
	.reports = &lt_lock_reports,
};

static int __init lt_lock_init(void)
{
	get_random_bytes(&lt_lock_hash_key, sizeof(lt_lock_hash_key));
	lt_reports_init(&lt_lock_reports, lt_lock_handle);
	return lt_probe_start(&lt_lock, &lt_mparams);
}

static void __exit lt_lock_exit(void)
{
	lt_probe_stop(&lt_lock);
}

module_init(lt_lock_init);
module_exit(lt_lock_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Tasks waiting long for contended kernel locks");
