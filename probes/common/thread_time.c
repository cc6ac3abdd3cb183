// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread_time.c - the time of threads with a request open, split into
 * running, runnable and blocked (see thread_time.h for the design and its
 * synchronisation).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <asm/syscall.h>
#include <trace/events/sched.h>

#include <latency_tracker_compat.h>
#include "probe.h"
#include "thread_time.h"

enum lt_bd_state {
	LT_BD_RUNNING,
	LT_BD_RUNNABLE,
	LT_BD_BLOCKED,
};

/**
 * struct lt_bd_slot - a thread with requests open (its owner: the
 *	same index of lt_bd_owners)
 * @gen_open: the claim's generation (high 32 bits) and the requests open
 *	on the thread (low 32 bits).
 * @state: running, runnable or blocked.
 * @reason: what it blocked in (blocked only).
 * @since: when it entered @state, ns (ktime_get_mono_fast_ns()).
 * @on_cpu: ns running since the claim.
 * @runnable: ns runnable since the claim.
 * @blocked: ns blocked since the claim.
 * @reasons: the reasons counted, in the order first seen.
 * @reason_ns: ns blocked in each.
 * @nr_reasons: entries of @reasons in use.
 */
struct lt_bd_slot {
	atomic64_t gen_open;
	u8 state;
	u8 nr_reasons;
	s32 reason;
	u64 since;
	u64 on_cpu;
	u64 runnable;
	u64 blocked;
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
	u64 d;

	/* A clock read on another CPU may be a little behind: no going back. */
	if (now <= s->since)
		return;
	d = now - s->since;
	switch (s->state) {
	case LT_BD_RUNNING:
		s->on_cpu += d;
		break;
	case LT_BD_RUNNABLE:
		s->runnable += d;
		break;
	default:
		s->blocked += d;
		lt_bd_add_reason(s, s->reason, d);
		break;
	}
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

/**
 * lt_bd_switch() - account a context switch
 * @preempt: sched_switch's preempt.
 * @prev: its prev.
 * @next: its next.
 * @prev_state: its prev_state.
 *
 * Context: a sched_switch probe (interrupts disabled, the runqueue lock
 * held).
 */
void lt_bd_switch(bool preempt, struct task_struct *prev,
		  struct task_struct *next, unsigned int prev_state)
{
	struct lt_bd_slot *s;
	u64 now;

	if (likely(!atomic_read(&lt_bd_used)))
		return;
	s = lt_bd_find(prev);
	if (s && LT_BD_OPEN(atomic64_read(&s->gen_open))) {
		now = latency_tracker_switch_ns(prev);
		lt_bd_settle(s, now);
		/* Blocked: as offcpu.c decides it (thread_time.h). */
		if (!preempt && prev_state != TASK_RUNNING &&
		    !(prev_state & TASK_DEAD) && !prev->exit_state &&
		    !lt_task_queued_runnable(prev)) {
			s->state = LT_BD_BLOCKED;
			s->reason = lt_bd_reason_of(prev);
		} else {
			s->state = LT_BD_RUNNABLE;
		}
	}
	s = lt_bd_find(next);
	if (s && LT_BD_OPEN(atomic64_read(&s->gen_open))) {
		now = latency_tracker_switch_ns(prev);
		lt_bd_settle(s, now);
		s->state = LT_BD_RUNNING;
	}
}

/**
 * lt_bd_wakeup() - account a wakeup
 * @p: sched_wakeup's task.
 *
 * Context: a sched_wakeup probe (the runqueue lock of @p's CPU held).
 */
void lt_bd_wakeup(struct task_struct *p)
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
	    s->state != LT_BD_BLOCKED)
		return;
	lt_bd_settle(s, ktime_get_mono_fast_ns());
	s->state = LT_BD_RUNNABLE;
}

/* Current's slot goes back to the table; preemption disabled. */
static void lt_bd_release(struct lt_bd_slot *s)
{
	/* The slot's data before another thread may claim it. */
	smp_store_release(&lt_bd_owners[s - lt_bd_slots], NULL);
	atomic_dec(&lt_bd_used);
}

/**
 * lt_bd_task_exit() - current exits: its slot goes back to the table
 *
 * Context: a sched_process_exit probe (may be preemptible).
 */
void lt_bd_task_exit(void)
{
	struct lt_bd_slot *s;

	if (likely(!atomic_read(&lt_bd_used)))
		return;
	/* Preemptible on some kernels (syscalls.c): no switch meanwhile. */
	preempt_disable_notrace();
	s = lt_bd_find(current);
	if (s)
		lt_bd_release(s);
	preempt_enable_notrace();
}

static void lt_bd_probe_switch(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state)
{
	lt_bd_switch(preempt, prev, next, prev_state);
}

static void lt_bd_probe_wakeup(void *data, struct task_struct *p)
{
	lt_bd_wakeup(p);
}

static void lt_bd_probe_exit(void *data, LT_PROCESS_EXIT_PARAMS)
{
	lt_bd_task_exit();
}

/* For a module whose requests do not begin in a switch probe (app.c). */
#define LT_BD_TPS(X)							\
	X(sched_switch, lt_bd_probe_switch)				\
	X(sched_wakeup, lt_bd_probe_wakeup)				\
	X(sched_process_exit, lt_bd_probe_exit)
LT_PROBE_TPS(lt_bd_tps, LT_BD_TPS);

/* Whether lt_bd_attach() attached LT_BD_TPS. */
static bool lt_bd_attached;

/*
 * A new generation of @s, counting from @now with current running: its
 * counters and reasons reset, open 0.  Current owns @s and has no request
 * open on it (snapshots of older generations no longer match it).
 */
static void lt_bd_restart(struct lt_bd_slot *s, u64 now)
{
	u64 go = atomic64_read(&s->gen_open);

	s->state = LT_BD_RUNNING;
	s->since = now;
	s->on_cpu = 0;
	s->runnable = 0;
	s->blocked = 0;
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
 * lt_bd_begin() - a request begins on current
 * @now: its start, ns (ktime_get_mono_fast_ns()).
 * @snap: set to current's counters (slot LT_BD_SLOTS: no breakdown, the
 *	table is full).
 *
 * Context: process context of the requesting thread, preemption disabled.
 */
void lt_bd_begin(u64 now, struct lt_bd_snap *snap)
{
	struct lt_bd_slot *s = lt_bd_find(current);
	u64 go;

	if (!s) {
		s = lt_bd_claim(now);
		if (!s) {
			snap->slot = LT_BD_SLOTS;
			return;
		}
	} else if (!LT_BD_OPEN(atomic64_read(&s->gen_open))) {
		/* Not accounted while no request was open: restart. */
		lt_bd_restart(s, now);
	}
	lt_bd_settle(s, now);
	go = atomic64_inc_return(&s->gen_open);
	snap->slot = s - lt_bd_slots;
	snap->gen = LT_BD_GEN(go);
	snap->on_cpu = s->on_cpu;
	snap->runnable = s->runnable;
	snap->blocked = s->blocked;
	memcpy(snap->reason, s->reasons, sizeof(snap->reason));
	memcpy(snap->reason_ns, s->reason_ns, sizeof(snap->reason_ns));
	if (s->nr_reasons < LT_BD_REASONS)
		snap->reason_ns[s->nr_reasons] = U64_MAX;	/* end mark */
}

/**
 * lt_bd_begin_one() - a request begins on current, which has at most one
 *	open at a time (a system call)
 * @now: its start, ns (ktime_get_mono_fast_ns()).
 * @snap: as for lt_bd_begin().
 *
 * A request still counted open on current's slot (one that ended without
 * lt_bd_end() or lt_bd_forget(): a call within the threshold) is replaced:
 * the slot counts this one only, so that such requests never pile up.
 *
 * Context: as lt_bd_begin().
 */
void lt_bd_begin_one(u64 now, struct lt_bd_snap *snap)
{
	struct lt_bd_slot *s = lt_bd_find(current);

	if (s && LT_BD_OPEN(atomic64_read(&s->gen_open)))
		atomic64_set(&s->gen_open, (u64)LT_BD_GEN(atomic64_read(&s->gen_open)) << 32);
	lt_bd_begin(now, snap);
}

/*
 * Takes one request off the count of the slot @snap names, if that slot
 * still belongs to the claim it began in.  Returns the count after.
 */
static long lt_bd_put(const struct lt_bd_snap *snap)
{
	struct lt_bd_slot *s;
	s64 go, old;

	if (snap->slot >= LT_BD_SLOTS)
		return -1;
	s = &lt_bd_slots[snap->slot];
	go = atomic64_read(&s->gen_open);
	do {
		if (LT_BD_GEN(go) != snap->gen || !LT_BD_OPEN(go))
			return -1;
		old = go;
		go = atomic64_cmpxchg(&s->gen_open, old, old - 1);
	} while (go != old);
	return LT_BD_OPEN(old - 1);
}

/**
 * lt_bd_forget() - a request that began with @snap ends without a
 * breakdown (on another thread), or never started (no event slot)
 * @snap: the request's snapshot.
 *
 * Context: any but NMI.
 */
void lt_bd_forget(const struct lt_bd_snap *snap)
{
	lt_bd_put(snap);
}

/**
 * lt_bd_end() - a request that began with @snap ends on current
 * @now: its end, ns.
 * @snap: its snapshot.
 * @res: set to its breakdown when it began on current.
 *
 * Context: process context of the ending thread, preemption disabled.
 * Return: true when @res was set (the request began on current).
 */
bool lt_bd_end(u64 now, const struct lt_bd_snap *snap,
	       struct lt_bd_result *res)
{
	struct lt_bd_slot *s;
	unsigned int i, j;
	u64 best = 0, d;

	if (snap->slot >= LT_BD_SLOTS ||
	    READ_ONCE(lt_bd_owners[snap->slot]) != current) {
		lt_bd_forget(snap);
		return false;
	}
	s = &lt_bd_slots[snap->slot];
	if (lt_bd_put(snap) < 0)
		return false;	/* another generation of the slot */
	lt_bd_settle(s, now);
	res->on_cpu = s->on_cpu - snap->on_cpu;
	res->runnable = s->runnable - snap->runnable;
	res->blocked = s->blocked - snap->blocked;
	res->top = LT_BD_REASON_UNKNOWN;
	for (i = 0; i < s->nr_reasons; i++) {
		d = s->reason_ns[i];
		for (j = 0; j < LT_BD_REASONS; j++) {
			if (snap->reason_ns[j] == U64_MAX)
				break;
			if (snap->reason[j] == s->reasons[i]) {
				d -= min(d, snap->reason_ns[j]);
				break;
			}
		}
		if (d > best) {
			best = d;
			res->top = s->reasons[i];
		}
	}
	return true;
}

/**
 * lt_bd_full() - begins that found the table full (no breakdown)
 *
 * Context: any.
 */
unsigned long lt_bd_full(void)
{
	return atomic_long_read(&lt_bd_nospace);
}

/**
 * lt_bd_init() - allocate the table
 *
 * Context: process context (module load), before any lt_bd_*() call.
 * Return: 0 or -ENOMEM.
 */
int lt_bd_init(void)
{
	lt_bd_slots = kvcalloc(LT_BD_SLOTS, sizeof(*lt_bd_slots), GFP_KERNEL);
	/* Page-aligned (kmalloc of a power of two): one bucket a line. */
	lt_bd_owners = kcalloc(LT_BD_SLOTS, sizeof(*lt_bd_owners), GFP_KERNEL);
	if (!lt_bd_slots || !lt_bd_owners) {
		kvfree(lt_bd_slots);
		kfree(lt_bd_owners);
		lt_bd_slots = NULL;
		lt_bd_owners = NULL;
		return -ENOMEM;
	}
	atomic_set(&lt_bd_used, 0);
	return 0;
}

/**
 * lt_bd_attach() - attach the scheduler probes of LT_BD_TPS
 *
 * For a module that does not call lt_bd_switch(), lt_bd_wakeup() and
 * lt_bd_task_exit() from probes of its own.
 *
 * Context: process context (module load), after lt_bd_init().
 * Return: 0 or -errno.
 */
int lt_bd_attach(void)
{
	int ret = latency_tracker_tp_attach(lt_bd_tps, ARRAY_SIZE(lt_bd_tps));

	lt_bd_attached = !ret;
	return ret;
}

/**
 * lt_bd_exit() - detach the probes (if attached) and free the table
 *
 * Context: process context (module unload), after every path that may
 * call lt_bd_*() has ended.
 */
void lt_bd_exit(void)
{
	if (lt_bd_attached)
		latency_tracker_tp_detach(lt_bd_tps, ARRAY_SIZE(lt_bd_tps));
	lt_bd_attached = false;
	kvfree(lt_bd_slots);
	kfree(lt_bd_owners);
	lt_bd_slots = NULL;
	lt_bd_owners = NULL;
}
