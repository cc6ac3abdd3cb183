// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread_time.c - where a thread's time went during a request of its own:
 * on CPU, runnable and blocked from the scheduler's counters, and for
 * application requests the reason it blocked in most (see thread_time.h
 * for the design and its synchronisation).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <asm/syscall.h>
#include <trace/events/sched.h>

#include <latency_tracker_compat.h>
#include "probe.h"
#include "thread_time.h"

/*
 * The last switch-in on this CPU: its task (compared, never
 * dereferenced), its time, and the task's time on CPU then.
 */
struct lt_bd_in {
	const struct task_struct *task;
	u64 ns;
	u64 on_cpu;
};

static DEFINE_PER_CPU(struct lt_bd_in, lt_bd_in);

/**
 * lt_bd_switch_in() - note a switch-in for the breakdowns
 * @next: sched_switch's next.
 * @now: the switch's time (latency_tracker_switch_ns()).
 *
 * Context: a sched_switch probe (interrupts disabled).
 */
void lt_bd_switch_in(struct task_struct *next, u64 now)
{
	struct lt_bd_in *in = this_cpu_ptr(&lt_bd_in);

	in->task = next;
	in->ns = now;
	in->on_cpu = READ_ONCE(next->se.sum_exec_runtime);
}

/* Current's time on CPU at @now; preemption disabled. */
static u64 lt_bd_on_cpu_now(u64 now)
{
	const struct lt_bd_in *in = this_cpu_ptr(&lt_bd_in);

	if (in->task != current)
		return READ_ONCE(current->se.sum_exec_runtime);
	return in->on_cpu + (now > in->ns ? now - in->ns : 0);
}

/**
 * lt_bd_slice_start() - when @p's current slice on this CPU began
 * @p: current.
 *
 * Context: preemption disabled (a sched_switch probe: its prev, before
 * the note of next).
 * Return: the time of its switch-in, or 0 when this CPU has no note of it
 * (it has not switched in since the probes were attached).
 */
u64 lt_bd_slice_start(const struct task_struct *p)
{
	const struct lt_bd_in *in = this_cpu_ptr(&lt_bd_in);

	return in->task == p ? in->ns : 0;
}

static void lt_bd_snap_fill(struct lt_bd_snap *snap, struct task_struct *p,
			    u64 now, u64 on_cpu)
{
	snap->ns = now;
	snap->on_cpu = on_cpu;
	snap->waited = lt_task_run_delay(p);
	snap->start_time = p->start_time;
	snap->pid = p->pid;
}

/**
 * lt_bd_begin_switch() - a request of @prev begins as it leaves its CPU
 * @prev: sched_switch's prev.
 * @now: the switch's time.
 * @snap: set to @prev's counters.
 *
 * Context: a sched_switch probe (interrupts disabled), for its prev, whose
 * time on CPU the scheduler has just brought up to date.
 */
void lt_bd_begin_switch(struct task_struct *prev, u64 now,
			struct lt_bd_snap *snap)
{
	lt_bd_snap_fill(snap, prev, now, READ_ONCE(prev->se.sum_exec_runtime));
}

/**
 * lt_bd_begin_at() - a request of current began at @ts, in the slice it
 *	has been running since (on CPU from @ts to @now; @ts == @now: it
 *	begins now)
 * @ts: its start, ns (ktime_get_mono_fast_ns()), at most @now.
 * @now: now.
 * @snap: set to current's counters at @ts.
 *
 * Without a note of current's switch-in on this CPU, its time on CPU at
 * @ts is the scheduler's counter less the time since (exact at a
 * switch-out, when the counter was just brought up to date; at most a
 * tick behind elsewhere).
 *
 * Context: current, preemption disabled; a sched_switch probe for its
 * prev (before the note of next) or the running thread.
 */
void lt_bd_begin_at(u64 ts, u64 now, struct lt_bd_snap *snap)
{
	const struct lt_bd_in *in = this_cpu_ptr(&lt_bd_in);
	u64 on;

	if (in->task == current) {
		on = in->on_cpu + (ts > in->ns ? ts - in->ns : 0);
	} else {
		on = READ_ONCE(current->se.sum_exec_runtime);
		on -= min(on, now - ts);
	}
	lt_bd_snap_fill(snap, current, ts, on);
}

/**
 * lt_bd_end() - a request that began with @snap ends on current
 * @now: its end, ns (ktime_get_mono_fast_ns(), after @snap's begin).
 * @snap: its begin.
 * @res: set to its breakdown when it began on current: on CPU and
 *	runnable from the counters (each at most the span), blocked the rest.
 *
 * Context: process context of the ending thread, preemption disabled.
 * Return: true when @res was set: the request began on current (the same
 * pid and start time; a thread that exec()ed from another than its
 * group's leader took the leader's: none then).
 */
bool lt_bd_end(u64 now, const struct lt_bd_snap *snap,
	       struct lt_bd_result *res)
{
	u64 span, on, waited;

	if (snap->pid != current->pid ||
	    snap->start_time != current->start_time)
		return false;
	span = now > snap->ns ? now - snap->ns : 0;
	on = lt_bd_on_cpu_now(now);
	on = on > snap->on_cpu ? on - snap->on_cpu : 0;
	waited = lt_task_run_delay(current);
	waited = waited > snap->waited ? waited - snap->waited : 0;
	res->on_cpu = min(on, span);
	res->runnable = min(waited, span - res->on_cpu);
	res->blocked = span - res->on_cpu - res->runnable;
	return true;
}

/**
 * struct lt_bd_slot - a thread with application requests open (its
 *	owner: the same index of lt_bd_owners)
 * @gen_open: the claim's generation (high 32 bits) and the requests open
 *	on the thread (low 32 bits).
 * @blocked: blocked (else running or runnable: no reason counts then).
 * @nr_reasons: entries of @reasons in use.
 * @reason: what it blocked in (blocked only).
 * @since: when it entered its state, ns (ktime_get_mono_fast_ns()).
 * @reasons: the reasons counted, in the order first seen.
 * @reason_ns: ns blocked in each.
 * @ext: the thread's requests kept outside the kernel (lt_bd_ext_set()),
 *	or NULL.
 */
struct lt_bd_slot {
	void *ext;
	atomic64_t gen_open;
	bool blocked;
	u8 nr_reasons;
	s32 reason;
	u64 since;
	s32 reasons[LT_BD_REASONS];
	u64 reason_ns[LT_BD_REASONS];
} ____cacheline_aligned;

static struct lt_bd_slot *lt_bd_slots;
/*
 * The threads owning the slots (compared, never dereferenced), NULL for a
 * free slot: apart from the slots, so that the LT_BD_PROBE ways of a
 * thread's bucket are one cache line.
 */
static struct task_struct **lt_bd_owners;
static atomic_t lt_bd_used = ATOMIC_INIT(0);
static atomic_long_t lt_bd_nospace = ATOMIC_LONG_INIT(0);
static lt_bd_leave_t lt_bd_leave;

#define LT_BD_OPEN(go)		((u32)(go))
#define LT_BD_GEN(go)		((u32)((u64)(go) >> 32))

/* The first slot of @p's bucket (LT_BD_PROBE slots). */
static unsigned int lt_bd_bucket(const struct task_struct *p)
{
	return hash_ptr(p, LT_BD_BITS) & ~(LT_BD_PROBE - 1);
}

/* The slot of @p, or NULL; any context. */
static struct lt_bd_slot *lt_bd_find(const struct task_struct *p)
{
	unsigned int b = lt_bd_bucket(p), i;

	for (i = b; i < b + LT_BD_PROBE; i++)
		if (READ_ONCE(lt_bd_owners[i]) == p)
			return &lt_bd_slots[i];
	return NULL;
}

/* Adds @ns blocked in @reason; the slot's writer only. */
static void lt_bd_add_reason(struct lt_bd_slot *s, s32 reason, u64 ns)
{
	unsigned int i, min = 0;

	for (i = 0; i < s->nr_reasons; i++) {
		if (s->reasons[i] == reason) {
			s->reason_ns[i] += ns;
			return;
		}
		if (s->reason_ns[i] < s->reason_ns[min])
			min = i;
	}
	if (s->nr_reasons < LT_BD_REASONS) {
		i = s->nr_reasons++;
	} else {
		/* Full: the least counted reason makes room. */
		i = min;
	}
	s->reasons[i] = reason;
	s->reason_ns[i] = ns;
}

/* Closes the slot's current state at @now; the slot's writer only. */
static void lt_bd_settle(struct lt_bd_slot *s, u64 now)
{
	/* A clock read on another CPU may be a little behind: no going back. */
	if (now <= s->since)
		return;
	if (s->blocked)
		lt_bd_add_reason(s, s->reason, now - s->since);
	s->since = now;
}

/* What @p, current and switching out blocked, blocks in. */
static s32 lt_bd_reason_of(struct task_struct *p)
{
	long nr;

	if (p->in_iowait)
		return LT_BD_REASON_IO;
	/* @p is current: its system call's ABI. */
	if (in_compat_syscall())
		return LT_BD_REASON_COMPAT;
	nr = syscall_get_nr(p, task_pt_regs(p));
	return nr >= 0 ? (s32)nr : LT_BD_REASON_KERNEL;
}

/* A context switch (sched_switch: interrupts off, the runqueue lock held). */
static void lt_bd_probe_switch(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state)
{
	u64 now = latency_tracker_switch_ns(prev);
	struct lt_bd_slot *s;
	void *ext;

	if (likely(!atomic_read(&lt_bd_used))) {
		lt_bd_switch_in(next, now);
		return;
	}
	s = lt_bd_find(prev);
	/* Before the note of next: the leave hook reads prev's. */
	if (s) {
		ext = READ_ONCE(s->ext);
		if (ext)
			lt_bd_leave(ext, prev, now, false);
	}
	lt_bd_switch_in(next, now);
	if (s && LT_BD_OPEN(atomic64_read(&s->gen_open))) {
		lt_bd_settle(s, now);
		/* Blocked: as offcpu.c decides it (thread_time.h). */
		if (!preempt && prev_state != TASK_RUNNING &&
		    !(prev_state & TASK_DEAD) && !prev->exit_state &&
		    !lt_task_queued_runnable(prev)) {
			s->blocked = true;
			s->reason = lt_bd_reason_of(prev);
		} else {
			s->blocked = false;
		}
	}
	s = lt_bd_find(next);
	if (s && LT_BD_OPEN(atomic64_read(&s->gen_open))) {
		lt_bd_settle(s, now);
		s->blocked = false;
	}
}

/* A wakeup (sched_wakeup: the runqueue lock of @p's CPU held). */
static void lt_bd_probe_wakeup(void *data, struct task_struct *p)
{
	struct lt_bd_slot *s;

	if (likely(!atomic_read(&lt_bd_used)))
		return;
	/*
	 * A wakeup of a task still on its CPU (it set a sleeping state, then
	 * ran again, or has not switched out yet): it never blocked, and it
	 * is the slot's writer.  Stable here: the runqueue lock is held.
	 */
	if (READ_ONCE(p->on_cpu))
		return;
	s = lt_bd_find(p);
	if (!s || !LT_BD_OPEN(atomic64_read(&s->gen_open)) ||
	    !s->blocked)
		return;
	lt_bd_settle(s, ktime_get_mono_fast_ns());
	s->blocked = false;
}

/* Current's ext, if any, off its slot @s and to the leave hook. */
static void lt_bd_ext_leave(struct lt_bd_slot *s)
{
	void *ext = xchg(&s->ext, NULL);

	if (ext)
		lt_bd_leave(ext, current, ktime_get_mono_fast_ns(), true);
}

/*
 * Current execs: its ext (requests of the old image) goes, as at an
 * exit; its slot stays (preemptible).
 */
static void lt_bd_probe_exec(void *data, struct task_struct *p,
			     pid_t old_pid, struct linux_binprm *bprm)
{
	struct lt_bd_slot *s;

	if (likely(!atomic_read(&lt_bd_used)))
		return;
	preempt_disable_notrace();
	s = lt_bd_find(current);
	if (s)
		lt_bd_ext_leave(s);
	preempt_enable_notrace();
}

/* Current exits: its slot goes back to the table (may be preemptible). */
static void lt_bd_probe_exit(void *data, LT_PROCESS_EXIT_PARAMS)
{
	struct lt_bd_slot *s;

	if (likely(!atomic_read(&lt_bd_used)))
		return;
	/* No switch meanwhile. */
	preempt_disable_notrace();
	s = lt_bd_find(current);
	if (s) {
		/* No ext left on a slot another thread may claim. */
		lt_bd_ext_leave(s);
		/* The slot's data before another thread may claim it. */
		smp_store_release(&lt_bd_owners[s - lt_bd_slots], NULL);
		atomic_dec(&lt_bd_used);
	}
	preempt_enable_notrace();
}

#define LT_BD_TPS(X)							\
	X(sched_switch, lt_bd_probe_switch)				\
	X(sched_wakeup, lt_bd_probe_wakeup)				\
	X(sched_process_exec, lt_bd_probe_exec)				\
	X(sched_process_exit, lt_bd_probe_exit)
LT_PROBE_TPS(lt_bd_tps, LT_BD_TPS);

/*
 * A new generation of @s, counting from @now with current running: its
 * reasons reset, open 0.  Current owns @s and has no request open on it
 * (copies of older generations no longer match it).
 */
static void lt_bd_restart(struct lt_bd_slot *s, u64 now)
{
	u64 go = atomic64_read(&s->gen_open);

	s->blocked = false;
	s->since = now;
	s->nr_reasons = 0;
	atomic64_set(&s->gen_open, (u64)(LT_BD_GEN(go) + 1) << 32);
}

/* Claims a slot for current; preemption disabled.  NULL when full. */
static struct lt_bd_slot *lt_bd_claim(u64 now)
{
	unsigned int b = lt_bd_bucket(current), i;
	struct lt_bd_slot *s;

	for (i = b; i < b + LT_BD_PROBE; i++) {
		if (READ_ONCE(lt_bd_owners[i]) ||
		    cmpxchg(&lt_bd_owners[i], NULL, current))
			continue;
		s = &lt_bd_slots[i];
		atomic_inc(&lt_bd_used);
		lt_bd_restart(s, now);
		return s;
	}
	atomic_long_inc(&lt_bd_nospace);
	return NULL;
}

/**
 * lt_bd_reasons_begin() - a request begins on current: its reasons
 * @now: its start, ns (ktime_get_mono_fast_ns()).
 * @rs: set to current's reasons (slot LT_BD_SLOTS: none, the table is
 *	full).
 *
 * Context: process context of the requesting thread, preemption disabled.
 */
void lt_bd_reasons_begin(u64 now, struct lt_bd_rsnap *rs)
{
	struct lt_bd_slot *s = lt_bd_find(current);
	u64 go;

	if (!s) {
		s = lt_bd_claim(now);
		if (!s) {
			rs->slot = LT_BD_SLOTS;
			return;
		}
	} else if (!LT_BD_OPEN(atomic64_read(&s->gen_open))) {
		/* Not accounted while no request was open: restart. */
		lt_bd_restart(s, now);
	}
	lt_bd_settle(s, now);
	go = atomic64_inc_return(&s->gen_open);
	rs->slot = s - lt_bd_slots;
	rs->gen = LT_BD_GEN(go);
	memcpy(rs->reason, s->reasons, sizeof(rs->reason));
	memcpy(rs->reason_ns, s->reason_ns, sizeof(rs->reason_ns));
	if (s->nr_reasons < LT_BD_REASONS)
		rs->reason_ns[s->nr_reasons] = U64_MAX;	/* end mark */
}

/*
 * Takes one request off the count of the slot @rs names, if that slot
 * still belongs to the claim it began in.  Returns the count after.
 */
static long lt_bd_put(const struct lt_bd_rsnap *rs)
{
	struct lt_bd_slot *s;
	s64 go, old;

	if (rs->slot >= LT_BD_SLOTS)
		return -1;
	s = &lt_bd_slots[rs->slot];
	go = atomic64_read(&s->gen_open);
	do {
		if (LT_BD_GEN(go) != rs->gen || !LT_BD_OPEN(go))
			return -1;
		old = go;
		go = atomic64_cmpxchg(&s->gen_open, old, old - 1);
	} while (go != old);
	return LT_BD_OPEN(old - 1);
}

/**
 * lt_bd_reasons_forget() - a request that began with @rs ends without a
 *	breakdown (on another thread), or never started (no event slot)
 * @rs: the request's reasons at its begin.
 *
 * Context: any but NMI.
 */
void lt_bd_reasons_forget(const struct lt_bd_rsnap *rs)
{
	lt_bd_put(rs);
}

/**
 * lt_bd_reasons_end() - a request that began with @rs ends on current
 * @now: its end, ns.
 * @rs: its reasons at its begin.
 *
 * Context: process context of the ending thread, preemption disabled.
 * Return: the reason current blocked in longest since @rs,
 * LT_BD_REASON_NONE when it never blocked since, or LT_BD_REASON_UNKNOWN
 * (no slot, or another generation of it).
 */
s32 lt_bd_reasons_end(u64 now, const struct lt_bd_rsnap *rs)
{
	s32 top = LT_BD_REASON_UNKNOWN;
	struct lt_bd_slot *s;
	unsigned int i, j;
	u64 best = 0, d;

	if (rs->slot >= LT_BD_SLOTS ||
	    READ_ONCE(lt_bd_owners[rs->slot]) != current) {
		lt_bd_put(rs);
		return top;
	}
	s = &lt_bd_slots[rs->slot];
	if (lt_bd_put(rs) < 0)
		return top;	/* another generation of the slot */
	lt_bd_settle(s, now);
	top = LT_BD_REASON_NONE;
	for (i = 0; i < s->nr_reasons; i++) {
		d = s->reason_ns[i];
		for (j = 0; j < LT_BD_REASONS; j++) {
			if (rs->reason_ns[j] == U64_MAX)
				break;
			if (rs->reason[j] == s->reasons[i]) {
				d -= min(d, rs->reason_ns[j]);
				break;
			}
		}
		if (d > best) {
			best = d;
			top = s->reasons[i];
		}
	}
	return top;
}

/**
 * lt_bd_fold_unblocked() - a request whose thread never blocked has no
 *	blocked part
 * @res: its breakdown (lt_bd_end()).
 * @top: its lt_bd_reasons_end().
 *
 * What the scheduler's counters leave over (their clocks and ours differ
 * by a few microseconds at each switch) counts as on CPU.
 *
 * Context: any.
 */
void lt_bd_fold_unblocked(struct lt_bd_result *res, s32 top)
{
	if (top != LT_BD_REASON_NONE)
		return;
	res->on_cpu += res->blocked;
	res->blocked = 0;
}

/**
 * lt_bd_reasons_full() - begins that found the table full (no reasons)
 *
 * Context: any.
 */
unsigned long lt_bd_reasons_full(void)
{
	return atomic_long_read(&lt_bd_nospace);
}

/**
 * lt_bd_ext_set() - give current's slot its requests kept outside the
 *	kernel
 * @ext: the caller's, handed to the leave hook (lt_bd_reasons_init()).
 *
 * Claims current's slot if it has none.
 *
 * Context: process context of the thread, preemption disabled.
 * Return: 0 (set, or @ext was set already), -EBUSY (another is set),
 * -ENOSPC (no slot).
 */
int lt_bd_ext_set(void *ext)
{
	struct lt_bd_slot *s = lt_bd_find(current);
	void *old;

	if (!s) {
		s = lt_bd_claim(ktime_get_mono_fast_ns());
		if (!s)
			return -ENOSPC;
	}
	old = cmpxchg(&s->ext, NULL, ext);
	return !old || old == ext ? 0 : -EBUSY;
}

/**
 * lt_bd_ext_get() - current's requests kept outside the kernel
 *
 * Context: process context of the thread, preemption disabled.
 * Return: what lt_bd_ext_set() set, or NULL.
 */
void *lt_bd_ext_get(void)
{
	struct lt_bd_slot *s;

	if (!atomic_read(&lt_bd_used))
		return NULL;
	s = lt_bd_find(current);
	return s ? READ_ONCE(s->ext) : NULL;
}

/**
 * lt_bd_ext_drop() - take back every slot's ext within [@lo, @hi)
 * @lo: the first byte of the caller's range.
 * @hi: the first byte after it.
 *
 * The leave hook may still be running on one of them: the caller waits
 * for a grace period (synchronize_rcu()) before freeing them.
 *
 * Context: process context.
 */
void lt_bd_ext_drop(const void *lo, const void *hi)
{
	unsigned int i;
	void *ext;

	for (i = 0; i < LT_BD_SLOTS; i++) {
		ext = READ_ONCE(lt_bd_slots[i].ext);
		if (ext && ext >= lo && ext < hi)
			cmpxchg(&lt_bd_slots[i].ext, ext, NULL);
	}
}

/**
 * lt_bd_reasons_init() - allocate the table and attach its scheduler
 *	probes (which also note the switch-ins for lt_bd_begin_at())
 * @leave: called for a thread whose slot has an ext (lt_bd_ext_set()) as
 *	it leaves its CPU (@exiting false: a sched_switch probe, its prev,
 *	with this CPU's switch-in note still its, interrupts disabled) or
 *	exits or execs (@exiting true: current, preemption disabled, the ext
 *	taken off the slot first).
 *
 * Context: process context (module load), before any lt_bd_reasons_*()
 * call.
 * Return: 0 or -errno.
 */
int lt_bd_reasons_init(lt_bd_leave_t leave)
{
	int ret;

	lt_bd_slots = kvcalloc(LT_BD_SLOTS, sizeof(*lt_bd_slots), GFP_KERNEL);
	/* Page-aligned (kmalloc of a power of two): one bucket a line. */
	lt_bd_owners = kcalloc(LT_BD_SLOTS, sizeof(*lt_bd_owners), GFP_KERNEL);
	if (!lt_bd_slots || !lt_bd_owners) {
		ret = -ENOMEM;
		goto err;
	}
	atomic_set(&lt_bd_used, 0);
	lt_bd_leave = leave;
	ret = latency_tracker_tp_attach(lt_bd_tps, ARRAY_SIZE(lt_bd_tps));
	if (ret)
		goto err;
	return 0;
err:
	kvfree(lt_bd_slots);
	kfree(lt_bd_owners);
	lt_bd_slots = NULL;
	lt_bd_owners = NULL;
	return ret;
}

/**
 * lt_bd_reasons_exit() - detach the probes and free the table
 *
 * Context: process context (module unload), after every path that may
 * call lt_bd_*() has ended.
 */
void lt_bd_reasons_exit(void)
{
	latency_tracker_tp_detach(lt_bd_tps, ARRAY_SIZE(lt_bd_tps));
	kvfree(lt_bd_slots);
	kfree(lt_bd_owners);
	lt_bd_slots = NULL;
	lt_bd_owners = NULL;
}
