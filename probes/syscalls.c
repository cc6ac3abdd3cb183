// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscalls.c - latency_tracker_syscalls: slow system calls, and where they
 * block.
 *
 * From sys_enter to sys_exit of a thread, key: pid.  Most calls never
 * leave the CPU and last microseconds, so sys_enter only notes the call in
 * a per-CPU slot (pid, number, start time); the tracker's event is started
 * (with that start time) only if the thread is switched out during the
 * call.  A call that ends on the CPU it started on, without leaving it, is
 * counted by latency_tracker_event_record() (or, in the rare case that it
 * still exceeded the threshold, started and ended on the spot, so that it
 * is reported like any other).  Per call on the fast path: one clock read
 * at each end, no table operation; where the kernel keeps time with the
 * CPU's cycle counter (latency_tracker_cycles_usable(): x86's TSC, the
 * usual case), the counter instead of the clock at both ends, the call's
 * start on the tracker's clock derived only if it becomes an event.
 *
 * The per-CPU slot: written by sys_enter and cleared by sys_exit of the
 * thread running on the CPU, with preemption disabled; moved into the
 * table and cleared by sched_switch when its thread is prev (interrupts
 * off, so it cannot interleave with the former on that CPU).  A thread
 * in the slot is therefore on that CPU, inside that call.  The slot names
 * the thread by its task_struct, not by its pid, which exec may change in
 * the middle of the call (below).
 *
 * Lookups at sched_switch.  A thread can have a pending event while it
 * runs only if its event was found (or its hint said so, below) when it
 * was switched in (the event of a call starts when its thread leaves the
 * CPU, so it is in the table before the thread can run again), on the
 * CPU it runs on; the slot's pending field says so (with the event's key,
 * which exec may make an old pid of the thread), until the next switch on
 * that CPU.  (A call found slow by its own sys_exit is started and ended
 * there, with preemption off: no switch sees it.)  So the switch probe
 * looks prev up only when pending names it (or it leaves the CPU slow in
 * a call noted in the slot), and next only when it is not a kernel thread
 * (which makes no system call); and either only when its hint (below)
 * does not already say what the lookup would (no pending event, or one
 * that cannot be slow yet): usually no lookup at all, and the time of the
 * switch that every tracker's sched_switch probe shares
 * (latency_tracker_switch_ns()).
 * sys_exit of a call not in the slot ends an event only when pending
 * names its thread (a task the filters keep out costs no lookup there).
 *
 * When a thread is switched out inside a system call that already lasted
 * longer than the threshold, its stack is saved once for that call
 * (stateful lookup of the pending event from sched_switch) and printed,
 * deferred and rate limited, with the pid and the syscall number; the
 * syscall tracepoint emitted at sys_exit carries it as text.  The filters
 * (common/filter.h) look at current at sys_enter: a call of a task they
 * keep out is not noted.
 *
 * Calls that do not end by sys_exit: exit and exit_group (native, ia32 or
 * x32 numbers) are not noted; whatever is still pending for a thread when
 * it exits is cancelled (sched_process_exit).  A call that a thread
 * enters under one pid and leaves under another (execve from a non-leader
 * thread, which takes the leader's pid in de_thread()) needs nothing while
 * it is in the slot; its pending event is moved to the new pid by the
 * first of the thread's sched_process_exec, switch-out, sys_exit and exit
 * that follow (an execve that fails after the point of no return has no
 * sched_process_exec: the thread returns from it under the new pid, then
 * dies of SIGSEGV).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/bitfield.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <asm/unistd.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

#include <lt_records/syscalls.h>
#include "common/probe.h"
#include "common/thread_time.h"
#include "lt_trace.h"

/*
 * 1 s: a blocking call (read on a socket, poll) is often legitimately
 * long; the stack says whether it should be.  One event per thread inside
 * a system call: max_events 0, a pool that grows up to one slot per
 * kernel stack the memory could hold.
 */
LT_PROBE_MODULE_PARAMS(1000000000, 0, 0, 1);

/*
 * Saved at sys_enter (stack: at the first slow switch-out).  stack_taken
 * is claimed (0 -> 1, cmpxchg) once per syscall, by the switch probe that
 * saves the stack or by a timeout that prints one; the stack's writer
 * publishes stack.nr with a release after stack.ip[], the callback reads
 * it with an acquire (possibly on another CPU).
 *
 * The breakdown (common/thread_time.h): a call that leaves the CPU notes
 * its thread's counters at that switch-out (snap), having run on CPU
 * until then (on_cpu_before); the callback of a slow call, at its
 * sys_exit on the thread, reads them again.  A call that never left the
 * CPU (on_cpu_only) was on CPU all along.  A timeout has no parts.
 */
struct lt_syscalls_priv {
	u64 cgroup;
	s32 nr;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
	u64 on_cpu_before;
	u32 on_cpu_only;
	struct lt_bd_snap snap;
	u32 stack_taken;
	struct lt_rec_stack stack;
};

enum lt_syscalls_kind {
	LT_SYSCALLS_REPORT_BLOCKED,	/* switched out while slow: dmesg */
	LT_SYSCALLS_REPORT_ALERT,	/* the alert's tracepoint */
};

/* Data of a report. */
struct lt_syscalls_report {
	struct lt_syscalls_record a;
	u32 kind;
};

static struct lt_probe lt_syscalls;
static struct lt_reports lt_syscalls_reports;

static void lt_syscalls_print(const struct lt_report *r,
			      const struct lt_syscalls_report *d)
{
	lt_report_print_suppressed(r->owner);
	pr_info("%s (%d) syscall %d blocked, %llu us so far\n",
		d->a.comm, d->a.pid, d->a.nr,
		div_u64(r->delay_ns, NSEC_PER_USEC));
	lt_report_print_stack(&d->a.stack);
}

/* Report work: a stack to print, or an alert's tracepoint with its stack. */
static void lt_syscalls_handle(struct lt_report *r)
{
	const struct lt_syscalls_report *d = (const void *)r->data;

	if (d->kind == LT_SYSCALLS_REPORT_BLOCKED) {
		lt_syscalls_print(r, d);
		return;
	}
	trace_syscall(r->cause, r->delay_ns, &d->a,
		      lt_stack_text(r, 0, &d->a.stack));
	if (r->print && d->a.stack.nr)
		lt_syscalls_print(r, d);
}

static void lt_syscalls_cb(const struct latency_tracker_report *r)
{
	struct lt_syscalls_priv *priv =
		latency_tracker_event_priv(r->event);
	struct lt_syscalls_report *d;
	struct lt_syscalls_record a = { };
	struct lt_bd_result res;
	struct lt_report *rep;
	unsigned int n;
	const pid_t *pid;
	bool print;
	u32 len;

	pid = latency_tracker_event_key(r->event, &len);
	a.pid = *pid;
	a.tgid = priv->tgid;
	memcpy(a.comm, priv->comm, TASK_COMM_LEN);
	a.nr = priv->nr;
	a.cgroup = priv->cgroup;
	/*
	 * Where its time went.  Not for a timeout (still in the call, on
	 * another thread); else this is the call's sys_exit, on its thread,
	 * preemption disabled.
	 */
	if (r->cause == LATENCY_TRACKER_CAUSE_TIMEOUT) {
		/* No parts. */
	} else if (priv->on_cpu_only) {
		a.on_cpu_ns = r->delay_ns;
	} else if (lt_bd_end(r->end_ns, &priv->snap, &res)) {
		a.on_cpu_ns = priv->on_cpu_before + res.on_cpu;
		a.runnable_ns = res.runnable;
		a.blocked_ns = res.blocked;
	}
	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		u64 parts[] = { a.on_cpu_ns, a.runnable_ns, a.blocked_ns };

		lt_probe_add_parts(&lt_syscalls, parts);
	}
	/*
	 * The stack, if taken: ip[0..n) are complete once nr is set
	 * (release in lt_syscalls_take_stack()) and never change after.
	 * A timeout without one: where the call blocks now, if it does.
	 */
	n = smp_load_acquire(&priv->stack.nr);
	a.stack.nr = min_t(u32, n, LT_REC_STACK_DEPTH);
	a.stack.modgen = priv->stack.modgen;
	memcpy(a.stack.ip, priv->stack.ip,
	       a.stack.nr * sizeof(a.stack.ip[0]));
	if (!n && r->cause == LATENCY_TRACKER_CAUSE_TIMEOUT)
		lt_stack_save_blocked(a.pid, r->start_ns, &a.stack);
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &a, sizeof(a));

	/* Still blocked at timeout, never printed: print where it blocks. */
	print = !n && a.stack.nr && !READ_ONCE(priv->stack_taken) &&
		lt_report_may_print(&lt_syscalls_reports, a.tgid,
				    lt_probe_selects(&lt_syscalls));
	if (!print && (!trace_syscall_enabled() || !a.stack.nr)) {
		/* No stack to format (or nobody to show it to). */
		trace_syscall(r->cause, r->delay_ns, &a, "");
		return;
	}
	/* Formatting the stack waits for process context. */
	rep = lt_report_get(&lt_syscalls_reports);
	if (!rep) {
		trace_syscall(r->cause, r->delay_ns, &a, "");
		return;
	}
	rep->cause = r->cause;
	rep->delay_ns = r->delay_ns;
	rep->start_ns = r->start_ns;
	rep->print = print;
	/* Printed once per syscall; a stack taken later is not printed. */
	if (print && cmpxchg(&priv->stack_taken, 0, 1))
		rep->print = false;
	BUILD_BUG_ON(sizeof(*d) > LT_REPORT_DATA);
	d = (void *)rep->data;
	d->a = a;
	d->kind = LT_SYSCALLS_REPORT_ALERT;
	lt_report_queue(rep);
}

static LT_RECORD_FMT(lt_syscalls_fmt, struct lt_syscalls_record, LT_SYSCALLS_RECORD)

/*
 * The system call in progress on a CPU that has not left it, and whether
 * the thread running there has a pending event (see top).  Its start is
 * the cycle counter if @cycles (both ends are read on this CPU: the slot
 * is left before the thread leaves it), else the tracker's clock.  The
 * threads are named by their task_struct, which is only compared, never
 * dereferenced: a thread's pid can change under it (exec, see top), its
 * task_struct cannot, and a slot is cleared before its thread can be
 * freed (at the thread's switch-out, its last one included).
 */
struct lt_syscalls_cur {
	const struct task_struct *task;	/* NULL: none */
	s32 nr;
	u64 start;
	bool cycles;
	const struct task_struct *pending;	/* NULL: none */
	pid_t pending_pid;		/* pending's pid then: its event's key */
};

static DEFINE_PER_CPU(struct lt_syscalls_cur, lt_syscalls_cur);

/*
 * Hints: what a lookup at sched_switch would say, known without it for
 * most switches.  Direct mapped by pid: the index is the pid's low 12
 * bits, permuted so that consecutive pids (a process's threads) fall in
 * different cache lines, and threads whose pids are less than 4096 apart
 * never share a word.  A word holds a pid (LT_HINT_PID: pids are below
 * PID_MAX_LIMIT) and, in LT_HINT_START, 0 for "no pending event" or the
 * start of the thread's pending event in units of 2^LT_HINT_UNIT_SHIFT
 * ns, rounded down, at least 1, and modulo the field (it holds 9 years of
 * uptime; a start that wrapped reads back too early: a lookup).  Only on
 * 64-bit kernels, where a word is read and written whole; elsewhere every
 * switch looks up, as without hints.
 *
 * Writers.  A word that names a thread is written only by the thread, by
 * its own switch-out, or by a switch-in of it (it is not running):
 *  - the start of its event, before the event is in the table (event_in
 *    of the switch-out that moves the call into the table, of a sys_exit
 *    that finds its call slow, of a move of its event to its new pid
 *    after exec);
 *    if event_in fails, the word is cleared;
 *  - "none", after each of its system calls (sys_exit: the thread has no
 *    pending event then, see the top of the file), stored only if the
 *    word does not say so already;
 *  - what a lookup at its switch-in found: "none", or its event's start;
 *  - 0 at its exit, and for its old pid when its event moves to the new
 *    one after exec.
 * Other threads only overwrite it with a word that names them (same
 * index), or race a clear with its write: the word then names another
 * thread, or is 0, which costs a lookup.  The writes naming one thread
 * are thus in its program order, and a switch probe that reads its word
 * sees the last of them (the scheduler orders a task's switch-out before
 * its next switch-in, on any CPU).
 *
 * So a word that names a thread never says "none" while the thread has a
 * pending event, and never a start later than that event's (events of
 * one thread start in order; the table replaces events under one key,
 * LATENCY_TRACKER_UNIQUE).  It can announce an event that is not in the
 * table (yet, or any more: between a sys_exit's event_out and its "none"
 * when the probe is preemptible; after disabling the tracker emptied the
 * table): pending is then set for nothing, which costs one useless
 * lookup at sys_exit.
 *
 * Reading: "none" says that nothing is pending; a start less than the
 * threshold ago, that the event cannot be slow yet (no stack wanted).
 * At next's switch-in either saves the lookup (pending is set in the
 * second case); at the switch-out of a thread that pending names, either
 * says that no stack is wanted.  Any other word (another thread's, 0, an
 * older start) means a lookup.
 */
#define LT_HINT_ORDER		12
#define LT_HINT_PID		GENMASK_ULL(21, 0)
#define LT_HINT_START		GENMASK_ULL(63, 22)
#define LT_HINT_UNIT_SHIFT	16

static u64 lt_syscalls_hints[1 << LT_HINT_ORDER] __cacheline_aligned;

enum lt_hint_says { LT_HINT_UNKNOWN, LT_HINT_NONE, LT_HINT_NOT_SLOW };

static u64 *lt_hint(pid_t pid)
{
	/* Bits 0-2 of the pid pick the cache line, bits 3-11 the word. */
	return &lt_syscalls_hints[(pid & 7) << 9 | (pid >> 3 & 511)];
}

static void lt_hint_set(pid_t pid, u64 start_ns)
{
	u64 units = (start_ns >> LT_HINT_UNIT_SHIFT) & FIELD_MAX(LT_HINT_START);

	if (IS_ENABLED(CONFIG_64BIT))
		WRITE_ONCE(*lt_hint(pid), FIELD_PREP(LT_HINT_START, units ?: 1) |
					  FIELD_PREP(LT_HINT_PID, pid));
}

static void lt_hint_none(pid_t pid)
{
	u64 *h = lt_hint(pid);

	if (IS_ENABLED(CONFIG_64BIT) && READ_ONCE(*h) != (u64)pid)
		WRITE_ONCE(*h, pid);
}

static void lt_hint_clear(pid_t pid)
{
	u64 *h = lt_hint(pid);

	if (IS_ENABLED(CONFIG_64BIT) &&
	    FIELD_GET(LT_HINT_PID, READ_ONCE(*h)) == pid)
		WRITE_ONCE(*h, 0);
}

/*
 * What @pid's word says at a switch after @prev (@pid: prev's or next's),
 * see above.
 */
static enum lt_hint_says lt_hint_read(pid_t pid, struct task_struct *prev)
{
	u64 h, start, now;

	if (!IS_ENABLED(CONFIG_64BIT))
		return LT_HINT_UNKNOWN;
	h = READ_ONCE(*lt_hint(pid));
	if (FIELD_GET(LT_HINT_PID, h) != pid)
		return LT_HINT_UNKNOWN;
	start = FIELD_GET(LT_HINT_START, h) << LT_HINT_UNIT_SHIFT;
	if (!start)
		return LT_HINT_NONE;
	now = latency_tracker_switch_ns(prev);
	if (now >= start &&
	    now - start <= latency_tracker_threshold(lt_syscalls.t))
		return LT_HINT_NOT_SLOW;
	return LT_HINT_UNKNOWN;
}

/* Starts @pid's event as @opts say, its word first (see above). */
static void lt_syscalls_event_in(pid_t pid,
				 const struct latency_tracker_in_opts *opts)
{
	BUILD_BUG_ON(FIELD_MAX(LT_HINT_PID) + 1 < PID_MAX_LIMIT);
	lt_hint_set(pid, opts->ts_ns);
	if (latency_tracker_event_in(lt_syscalls.t, &pid, sizeof(pid),
				     opts) != LATENCY_TRACKER_OK)
		lt_hint_clear(pid);
}

/*
 * Starts the event of @p's call @nr (@p: current or prev), at @start_ns
 * on the tracker's clock, under @p's pid now.  priv is not zeroed first
 * (__uninitialized: the kernel's automatic zeroing of the stack would
 * clear the whole stack array): event_in copies the fields written here,
 * up to stack_taken, and zeroes the rest up to the stack's addresses,
 * which are left as they are (priv_keep), valid up to the stack's depth.
 * @left_ns: the switch-out at which the call leaves the CPU (@p is prev
 * there: its breakdown begins), or 0 for a call found slow at its
 * sys_exit, on CPU all along.
 */
static void lt_syscalls_start(struct task_struct *p, s32 nr, u64 start_ns,
			      u64 left_ns)
{
	struct lt_syscalls_priv priv __uninitialized;
	struct latency_tracker_in_opts opts = {
		.ts_ns = start_ns,
		.priv = &priv,
		.priv_len = offsetof(struct lt_syscalls_priv, stack_taken),
		.priv_keep = sizeof(priv.stack.ip),
	};

	priv.cgroup = lt_task_cgroup_id(p);
	priv.nr = nr;
	priv.tgid = p->tgid;
	memcpy(priv.comm, p->comm, TASK_COMM_LEN);
	priv.on_cpu_only = !left_ns;
	if (left_ns) {
		priv.on_cpu_before = left_ns > start_ns ? left_ns - start_ns : 0;
		lt_bd_begin_switch(p, left_ns, &priv.snap);
	}
	lt_syscalls_event_in(p->pid, &opts);
}

/*
 * @p (current, or prev at its switch-out) runs on this CPU, noted as
 * pending (it may have an event: see top) under a pid that is no longer
 * its own.  If exec's de_thread() gave it the leader's (it is the group
 * leader now: the old leader, whose pid changed too, is dying and gets
 * nothing), its event moves to that pid: started anew with the same
 * start time and data (a stack already saved included; a timeout already
 * reported is reported again), the old key cancelled.  So the event ends
 * under the pid that the thread's sys_exit comes with, or is cancelled at
 * its exit.  The first of the thread's sched_process_exec, switch-out,
 * sys_exit and exit does it: an exec that fails after the point of no
 * return has no sched_process_exec.  An event under the old pid of
 * another thread group (the pid freed and reused meanwhile) is left
 * alone.  Preemption disabled (an RCU reader).
 */
static noinline void lt_syscalls_follow_exec_slow(struct lt_syscalls_cur *c,
						  struct task_struct *p)
{
	struct latency_tracker_event *ev;
	struct lt_syscalls_priv priv;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = sizeof(priv),
	};
	pid_t old_pid = c->pending_pid;

	c->pending_pid = p->pid;
	if (p->pid != p->tgid)
		return;
	lt_hint_clear(old_pid);
	ev = latency_tracker_find_event(lt_syscalls.t, &old_pid,
					sizeof(old_pid));
	if (!ev)
		return;
	/* Its only writer of the stack is this CPU (p runs here). */
	memcpy(&priv, latency_tracker_event_priv(ev), sizeof(priv));
	if (priv.tgid != p->tgid)
		return;
	opts.ts_ns = latency_tracker_event_start(ev);
	latency_tracker_event_cancel(lt_syscalls.t, &old_pid, sizeof(old_pid));
	lt_syscalls_event_in(p->pid, &opts);
}

/* The common case, on every switch: @p is not pending, or its pid is. */
static inline void lt_syscalls_follow_exec(struct lt_syscalls_cur *c,
					   struct task_struct *p)
{
	if (unlikely(c->pending == p && c->pending_pid != p->pid))
		lt_syscalls_follow_exec_slow(c, p);
}

static void lt_syscalls_probe_enter(void *data, struct pt_regs *regs, long id)
{
	struct lt_syscalls_cur *c;

	/* These never reach sys_exit (any ABI: ia32 numbers differ). */
	if (lt_syscall_never_returns(id))
		return;
	if (!lt_probe_track_task(&lt_syscalls, current, NULL))
		return;
	/* Probes may run preemptible (faultable syscall tracepoints). */
	preempt_disable_notrace();
	c = this_cpu_ptr(&lt_syscalls_cur);
	c->task = current;
	c->nr = id;
	c->cycles = latency_tracker_cycles_usable();
	c->start = c->cycles ? latency_tracker_cycles() :
			       ktime_get_mono_fast_ns();
	preempt_enable_notrace();
}

/*
 * The slot's fields are read one by one, not as a copy of the struct:
 * with the kernel's automatic zeroing of the stack (INIT_STACK_ALL_ZERO,
 * Debian's kernels) a local copy is cleared first, by a string
 * instruction, at every system call.
 */
static void lt_syscalls_probe_exit(void *data, struct pt_regs *regs, long ret)
{
	struct task_struct *curr = current;
	pid_t pid = curr->pid;
	struct lt_syscalls_cur *c;
	bool mine, pending, cycles = false;
	u64 end = 0, delay, start = 0;
	s32 nr = 0;

	preempt_disable_notrace();
	c = this_cpu_ptr(&lt_syscalls_cur);
	mine = c->task == curr;
	pending = c->pending == curr;
	if (mine) {
		c->task = NULL;
		nr = c->nr;
		start = c->start;
		cycles = c->cycles;
		/* On the CPU of the start: a preemptible probe may move. */
		if (cycles)
			end = latency_tracker_cycles();
	} else if (pending) {
		lt_syscalls_follow_exec(c, curr);
		c->pending = NULL;	/* ended below */
	}
	preempt_enable_notrace();
	if (!mine) {
		/*
		 * It left the CPU: its event is in the table, and pending
		 * says so (see top).  Neither: a call not noted (a task the
		 * filters keep out, a call entered before the tracker was
		 * loaded), with nothing to end and no lookup to pay.
		 */
		if (pending) {
			/* The callback's breakdown wants it (thread_time.h). */
			preempt_disable_notrace();
			latency_tracker_event_out(lt_syscalls.t, &pid,
						  sizeof(pid), 0, NULL);
			preempt_enable_notrace();
		}
		lt_hint_none(pid);
		return;
	}
	if (cycles) {
		delay = latency_tracker_cycles_to_ns(start, end);
	} else {
		end = ktime_get_mono_fast_ns();
		delay = end > start ? end - start : 0;
	}
	if (latency_tracker_event_record(lt_syscalls.t, delay)) {
		lt_hint_none(pid);
		return;
	}
	/*
	 * Slow without leaving the CPU: report it like the others, from its
	 * start on the tracker's clock (read after the counter: never early),
	 * started and ended without a switch between (a preemptible probe):
	 * no switch probe sees the event.
	 */
	if (cycles)
		start = ktime_get_mono_fast_ns() - delay;
	preempt_disable_notrace();
	lt_syscalls_start(curr, nr, start, 0);
	latency_tracker_event_out(lt_syscalls.t, &pid, sizeof(pid), 0, NULL);
	lt_hint_none(pid);
	preempt_enable_notrace();
}

/*
 * Saves the stack of @p, in a syscall pending as @ev, once per syscall and
 * only when the syscall already lasted longer than the threshold at @now
 * (read after @ev started), and queues its printing (rate limited).  @p is
 * current (switched out) or about to run (switched in, its stack still
 * the one it blocked with).
 */
static void lt_syscalls_take_stack(struct latency_tracker_event *ev,
				   struct task_struct *p, u64 now)
{
	struct lt_syscalls_priv *priv = latency_tracker_event_priv(ev);
	struct lt_syscalls_report *d;
	struct lt_report *rep;
	unsigned int n;
	u64 elapsed;

	elapsed = now - latency_tracker_event_start(ev);
	if (READ_ONCE(priv->stack_taken) ||
	    elapsed <= latency_tracker_threshold(lt_syscalls.t))
		return;
	/* One writer per syscall: the one that claims stack_taken. */
	if (cmpxchg(&priv->stack_taken, 0, 1))
		return;
	priv->stack.modgen = latency_tracker_module_gen();
	if (p == current)
		n = stack_trace_save(priv->stack.ip, LT_REC_STACK_DEPTH, 0);
	else
		n = lt_stack_save_tsk(p, priv->stack.ip, LT_REC_STACK_DEPTH);
	/* Publishes ip[0..n) to lt_syscalls_cb() on another CPU. */
	smp_store_release(&priv->stack.nr, n);
	if (!lt_report_may_print(&lt_syscalls_reports, priv->tgid,
				 lt_probe_selects(&lt_syscalls)))
		return;
	rep = lt_report_get(&lt_syscalls_reports);
	if (!rep)
		return;
	rep->delay_ns = elapsed;
	rep->print = true;
	d = (void *)rep->data;
	d->a.stack.nr = n;
	d->a.stack.modgen = priv->stack.modgen;
	memcpy(d->a.stack.ip, priv->stack.ip, n * sizeof(d->a.stack.ip[0]));
	d->a.pid = p->pid;
	d->a.tgid = priv->tgid;
	memcpy(d->a.comm, priv->comm, TASK_COMM_LEN);
	d->a.nr = priv->nr;
	d->a.cgroup = priv->cgroup;
	d->kind = LT_SYSCALLS_REPORT_BLOCKED;
	lt_report_queue(rep);
}

/*
 * A slow syscall going off CPU (prev), or coming back after blocking
 * longer than the threshold (next: a single long sleep is switched out
 * before it is slow), gets its stack saved.  The runqueue lock keeps next
 * from running meanwhile.  The time of the switch serves both (read once
 * for every tracker's probes, latency_tracker_switch_ns()): an event
 * found here started before the switch (prev's: at its sys_enter or an
 * earlier switch; next's: when next left a CPU, which completed before
 * this switch could pick it).
 */
static void lt_syscalls_switch(struct task_struct *prev,
			       struct task_struct *next)
{
	struct lt_syscalls_cur *c = this_cpu_ptr(&lt_syscalls_cur);
	struct latency_tracker_event *ev;
	bool prev_pending;
	u64 now, start;
	pid_t pid;

	/*
	 * prev had a pending event when switched in; under its pid then,
	 * which exec may have changed since.
	 */
	prev_pending = c->pending == prev;
	lt_syscalls_follow_exec(c, prev);
	c->pending = NULL;
	/* A slot that is not prev's: a call whose sys_exit never came. */
	if (c->task) {
		if (c->task == prev) {
			now = latency_tracker_switch_ns(prev);
			start = c->start;
			if (c->cycles)
				start = now - latency_tracker_cycles_to_ns(c->start,
					latency_tracker_switch_cycles(prev));
			lt_syscalls_start(prev, c->nr, start, now);
			/* Freshly started: slow (stack wanted) only if long. */
			prev_pending = now - start >
				       latency_tracker_threshold(lt_syscalls.t);
		}
		c->task = NULL;
	}
	/*
	 * Interrupts are off here (an RCU reader): events found stay valid.
	 * Its stack is wanted only if it is slow, which the hint may rule
	 * out (a thread preempted again before its sys_exit).
	 */
	if (prev_pending && lt_hint_read(prev->pid, prev) == LT_HINT_UNKNOWN) {
		pid = prev->pid;
		ev = latency_tracker_find_event(lt_syscalls.t, &pid,
						sizeof(pid));
		if (ev)
			lt_syscalls_take_stack(ev, prev,
					       latency_tracker_switch_ns(prev));
	}
	pid = next->pid;
	if (!pid || (next->flags & PF_KTHREAD))
		return;
	switch (lt_hint_read(pid, prev)) {
	case LT_HINT_NONE:
		return;
	case LT_HINT_NOT_SLOW:
		c->pending = next;
		c->pending_pid = pid;
		return;
	case LT_HINT_UNKNOWN:
		break;
	}
	ev = latency_tracker_find_event(lt_syscalls.t, &pid, sizeof(pid));
	if (!ev) {
		lt_hint_none(pid);
		return;
	}
	lt_hint_set(pid, latency_tracker_event_start(ev));
	/* next runs here with its event pending: see prev_pending. */
	c->pending = next;
	c->pending_pid = pid;
	lt_syscalls_take_stack(ev, next, latency_tracker_switch_ns(prev));
}

static void lt_syscalls_probe_switch(void *data, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	lt_syscalls_switch(prev, next);
	/* For the breakdown at next's sys_exit. */
	lt_bd_switch_in(next, latency_tracker_switch_ns(prev));
}

/*
 * A thread that exits ends nothing: its exit/exit_group call is not noted
 * (lt_syscall_never_returns()), but a call can still be pending for it
 * (e.g. one that left the CPU in exit_group before this point): cancel it,
 * and forget the per-CPU slot if the call noted there is its own (it runs
 * here, on its last CPU).
 */
static void lt_syscalls_probe_process_exit(void *data, LT_PROCESS_EXIT_PARAMS)
{
	struct lt_syscalls_cur *c;
	pid_t pid = p->pid;

	/*
	 * Preemptible here on kernels whose tracepoints no longer disable
	 * preemption (7.3: SRCU-fast): the slot is this CPU's only with
	 * preemption off, as in the sys_enter/sys_exit probes.
	 */
	preempt_disable_notrace();
	c = this_cpu_ptr(&lt_syscalls_cur);
	if (c->task == p)
		c->task = NULL;
	/* Pending under a pid exec took from it (no sys_exit came). */
	lt_syscalls_follow_exec(c, p);
	if (c->pending == p)
		c->pending = NULL;
	preempt_enable_notrace();
	lt_hint_clear(pid);
	latency_tracker_event_cancel(lt_syscalls.t, &pid, sizeof(pid));
}

/*
 * execve from a thread that is not the group leader: de_thread() gave it
 * the leader's pid, so its execve returns (sys_exit) under another pid
 * than it entered with.  A call noted in the slot is the thread's
 * whatever its pid; a pending event is moved to the new pid, here or at
 * the thread's switch-out, sys_exit or exit if that came first (see
 * lt_syscalls_follow_exec()).
 */
static void lt_syscalls_probe_exec(void *data, struct task_struct *p,
				   pid_t old_pid, struct linux_binprm *bprm)
{
	struct lt_syscalls_cur *c;

	if (old_pid == p->pid)
		return;
	/* Preemptible on 7.3, as sched_process_exit above. */
	preempt_disable_notrace();
	c = this_cpu_ptr(&lt_syscalls_cur);
	lt_syscalls_follow_exec(c, p);
	preempt_enable_notrace();
}

/*
 * Attached in this order, sys_enter last, so that from the start every
 * thread a slot names is seen leaving the CPU (the slot cleared) or
 * exiting: no slot names a task_struct freed, and possibly reused,
 * meanwhile.  (Detached in the same order: a slot written while the
 * probes go can outlive its thread; it is only ever compared.)
 */
#define LT_SYSCALLS_TPS(X)						\
	X(sched_switch, lt_syscalls_probe_switch)			\
	X(sched_process_exit, lt_syscalls_probe_process_exit)		\
	X(sched_process_exec, lt_syscalls_probe_exec)			\
	X(sys_exit, lt_syscalls_probe_exit)				\
	X(sys_enter, lt_syscalls_probe_enter)
LT_PROBE_TPS(lt_syscalls_tps, LT_SYSCALLS_TPS);

static struct lt_probe lt_syscalls = {
	.params = {
		.name = "syscalls",
		.key_size = sizeof(pid_t),
		.priv_size = sizeof(struct lt_syscalls_priv),
		.alert_payload = sizeof(struct lt_syscalls_record),
		.callback = lt_syscalls_cb,
		.alert_fmt = lt_syscalls_fmt,
	},
	.parts = (const char *const []){ "on_cpu", "runnable", "blocked", NULL },
	.tps = lt_syscalls_tps,
	.nr_tps = ARRAY_SIZE(lt_syscalls_tps),
	.reports = &lt_syscalls_reports,
};

static int __init lt_syscalls_init(void)
{
	lt_reports_init(&lt_syscalls_reports, lt_syscalls_handle);
	return lt_probe_start(&lt_syscalls, &lt_mparams);
}

static void __exit lt_syscalls_exit(void)
{
	lt_probe_stop(&lt_syscalls);
}

module_init(lt_syscalls_init);
module_exit(lt_syscalls_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Slow system calls, with the stack where they block");
