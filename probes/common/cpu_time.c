// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu_time.c - each CPU's time by kind (hard interrupts, softirqs,
 * threads, idle), the last contributors of each kind, and the breakdown
 * of a task's wait for a CPU (see cpu_time.h for the rules and their
 * synchronisation).
 */
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/build_bug.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "cpu_time.h"

/*
 * One contributor that ended: its place [start, end) on its kind's
 * counter, who (interrupt: irq number, or -1 - vector; softirq: vector;
 * thread: pid) and, for interrupts and threads, its name.
 */
struct lt_ct_ent {
	u64 start;
	u64 end;
	s32 id;
	char name[LT_CT_NAME_LEN];
};

struct lt_ct_ring {
	unsigned int head;		/* next entry written */
	struct lt_ct_ent ent[LT_CT_RING];
};

/**
 * struct lt_ct_cpu - a CPU's time (written by the CPU only)
 * @seq: held by every writer, for lt_ct_read() on other CPUs.
 * @kind: the kind the CPU is in.
 * @task_kind: thread or idle: the kind of the task it runs.
 * @irq_depth: hard interrupts being handled (nested ones too).
 * @in_softirq: a counted softirq runs (under the interrupt, if any).
 * @since: when @kind began, ns.
 * @ns: ns in each kind, up to @since.
 * @irq_start: @ns[LT_CT_IRQ] when the innermost interrupt last began or
 *	resumed (an interrupt it handled itself ended).
 * @irq: the interrupts being handled, outermost first (the first
 *	LT_CT_NEST; deeper ones count as the last of them): id, as in
 *	struct lt_ct_ent, and name, the handler's (valid until the handler's
 *	exit, free_irq() waits for it) or a vector's (static).
 * @softirq_start: @ns[LT_CT_SOFTIRQ] at the softirq's entry.
 * @softirq_vec: its vector.
 * @slice_start: @ns[LT_CT_THREAD] at the running thread's switch-in.
 * @slice_known: a switch-in was seen (before, @slice_start means nothing).
 * @irqs: the last hard interrupts.
 * @softirqs: the last softirqs.
 * @slices: the last thread slices.
 */
struct lt_ct_cpu {
	seqcount_t seq;
	u8 kind;
	u8 task_kind;
	u8 irq_depth;
	bool in_softirq;
	u64 since;
	u64 ns[LT_CT_NR];
	u64 irq_start;
	struct {
		s32 id;
		const char *name;
	} irq[LT_CT_NEST];
	u64 softirq_start;
	u32 softirq_vec;
	u64 slice_start;
	bool slice_known;
	struct lt_ct_ring irqs;
	struct lt_ct_ring softirqs;
	struct lt_ct_ring slices;
};

/*
 * Allocated at the tracker's load (a module's static per-CPU data comes
 * from a small reserve shared by every module).
 */
static struct lt_ct_cpu __percpu *lt_ct_cpus;

/**
 * lt_ct_init() - allocate the accounting; every CPU in thread time from
 *	now, its task not known
 *
 * Context: process context, before the probes are attached; sleeps.
 * Return: 0 or -ENOMEM.
 */
int lt_ct_init(void)
{
	u64 now = ktime_get_mono_fast_ns();
	int cpu;

	/* The records name softirqs from LT_SOFTIRQS (lt_records/record.h). */
	BUILD_BUG_ON(NR_SOFTIRQS != 10);
	/* A top_thread, comm:pid, fits a record's name. */
	BUILD_BUG_ON(TASK_COMM_LEN + 12 > LT_CT_NAME_LEN);
	lt_ct_cpus = alloc_percpu(struct lt_ct_cpu);
	if (!lt_ct_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct lt_ct_cpu *c = per_cpu_ptr(lt_ct_cpus, cpu);

		/* alloc_percpu() zeroes: the rings empty, no interrupt. */
		seqcount_init(&c->seq);
		c->kind = LT_CT_THREAD;
		c->task_kind = LT_CT_THREAD;
		c->since = now;
	}
	return 0;
}

/**
 * lt_ct_exit() - free the accounting
 *
 * Context: process context, after the probes are detached and no longer
 * run (latency_tracker_tp_detach()).
 */
void lt_ct_exit(void)
{
	free_percpu(lt_ct_cpus);
	lt_ct_cpus = NULL;
}

/* Closes the current kind at @now and enters @kind; writers only. */
static void lt_ct_enter(struct lt_ct_cpu *c, u8 kind, u64 now)
{
	/* The clock may step back a little between two reads: no going back. */
	if (now > c->since) {
		c->ns[c->kind] += now - c->since;
		c->since = now;
	}
	c->kind = kind;
}

/* The kind the CPU returns to when an interrupt or a softirq ends. */
static u8 lt_ct_below(const struct lt_ct_cpu *c)
{
	return c->in_softirq ? LT_CT_SOFTIRQ : c->task_kind;
}

/* The next entry of @r, its place and id set; the caller names it. */
static struct lt_ct_ent *lt_ct_push(struct lt_ct_ring *r, u64 start, u64 end,
				    s32 id)
{
	struct lt_ct_ent *e = &r->ent[r->head++ % LT_CT_RING];

	e->start = start;
	e->end = end;
	e->id = id;
	return e;
}

/*
 * An interrupt's entry.  A handler's name may be freed with its handler:
 * copied.  A vector (id < 0) is named from its id when read
 * (lt_ct_irq_name()): no string walk at each of the timer's ticks.
 */
static void lt_ct_push_irq(struct lt_ct_cpu *c, s32 id, const char *name)
{
	struct lt_ct_ent *e = lt_ct_push(&c->irqs, c->irq_start,
					 c->ns[LT_CT_IRQ], id);

	if (id >= 0)
		strscpy(e->name, name ?: "?", LT_CT_NAME_LEN);
}

/* An interrupt entry's name (see lt_ct_push_irq()). */
static const char *lt_ct_irq_name(const struct lt_ct_ent *e)
{
	return e->id >= 0 ? e->name : lt_irq_vector_name(-1 - e->id);
}

/*
 * Each interrupt's own time: one handling another itself
 * (generic_handle_irq(): chained and demultiplexing handlers) hands the
 * time over to it, and gets it back at its exit.  Interrupts disabled (a
 * hard interrupt's probe).
 */
static void lt_ct_irq_in(s32 id, const char *name)
{
	struct lt_ct_cpu *c = this_cpu_ptr(lt_ct_cpus);
	u64 now = ktime_get_mono_fast_ns();
	unsigned int d = c->irq_depth;

	raw_write_seqcount_begin(&c->seq);
	lt_ct_enter(c, LT_CT_IRQ, now);
	if (d && d <= LT_CT_NEST)	/* the interrupted one's part ends */
		lt_ct_push_irq(c, c->irq[d - 1].id, c->irq[d - 1].name);
	if (d < LT_CT_NEST) {
		c->irq[d].id = id;
		c->irq[d].name = name;
	}
	if (d < U8_MAX)
		c->irq_depth++;
	c->irq_start = c->ns[LT_CT_IRQ];
	raw_write_seqcount_end(&c->seq);
}

static void lt_ct_irq_out(void)
{
	struct lt_ct_cpu *c = this_cpu_ptr(lt_ct_cpus);
	unsigned int d = c->irq_depth;
	u64 now;

	/* An exit whose entry came before the probes were attached. */
	if (!d)
		return;
	now = ktime_get_mono_fast_ns();
	raw_write_seqcount_begin(&c->seq);
	lt_ct_enter(c, d == 1 ? lt_ct_below(c) : LT_CT_IRQ, now);
	d = min_t(unsigned int, d, LT_CT_NEST);
	lt_ct_push_irq(c, c->irq[d - 1].id, c->irq[d - 1].name);
	c->irq_depth--;
	c->irq_start = c->ns[LT_CT_IRQ];	/* the outer one resumes */
	raw_write_seqcount_end(&c->seq);
}

void lt_ct_probe_irq_entry(void *data, int irq, struct irqaction *action)
{
	lt_ct_irq_in(irq, action->name);
}

void lt_ct_probe_irq_exit(void *data, int irq, struct irqaction *action,
			  int ret)
{
	lt_ct_irq_out();
}

void lt_ct_probe_vector_entry(void *data, int vector)
{
	lt_ct_irq_in(-1 - vector, lt_irq_vector_name(vector));
}

void lt_ct_probe_vector_exit(void *data, int vector)
{
	lt_ct_irq_out();
}

/*
 * Does this softirq count as softirq time?  Not on PREEMPT_RT (it runs
 * in a thread, preemptible) nor in ksoftirqd (a thread too; its comm is
 * set at its creation and no one else can change it), where it is the
 * thread's time.
 */
static bool lt_ct_softirq_counted(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return false;
	return !((current->flags & PF_KTHREAD) &&
		 !strncmp(current->comm, "ksoftirqd/", 10));
}

void lt_ct_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	struct lt_ct_cpu *c;
	unsigned long flags;
	u64 now;

	if (!lt_ct_softirq_counted())
		return;
	/* Softirqs run with interrupts enabled: no writer may nest. */
	local_irq_save(flags);
	c = this_cpu_ptr(lt_ct_cpus);
	now = ktime_get_mono_fast_ns();
	raw_write_seqcount_begin(&c->seq);
	lt_ct_enter(c, LT_CT_SOFTIRQ, now);
	c->in_softirq = true;
	c->softirq_start = c->ns[LT_CT_SOFTIRQ];
	c->softirq_vec = vec_nr;
	raw_write_seqcount_end(&c->seq);
	local_irq_restore(flags);
}

void lt_ct_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	struct lt_ct_cpu *c;
	unsigned long flags;
	u64 now;

	local_irq_save(flags);
	c = this_cpu_ptr(lt_ct_cpus);
	if (!c->in_softirq)
		goto out;
	now = ktime_get_mono_fast_ns();
	raw_write_seqcount_begin(&c->seq);
	c->in_softirq = false;
	lt_ct_enter(c, lt_ct_below(c), now);
	lt_ct_push(&c->softirqs, c->softirq_start, c->ns[LT_CT_SOFTIRQ],
		   c->softirq_vec);
	raw_write_seqcount_end(&c->seq);
out:
	local_irq_restore(flags);
}

/**
 * lt_ct_switch() - account a context switch on this CPU
 * @prev: sched_switch's prev.
 * @next: sched_switch's next.
 * @now: the switch's time (latency_tracker_switch_ns()).
 *
 * Ends @prev's slice (into the ring of thread slices, with its pid and
 * comm now, unless idle) and starts @next's.  To be called by the tracker's sched_switch probe
 * before it ends any event at this switch.
 *
 * Context: a sched_switch probe (interrupts disabled).
 */
void lt_ct_switch(const struct task_struct *prev,
		  const struct task_struct *next, u64 now)
{
	struct lt_ct_cpu *c = this_cpu_ptr(lt_ct_cpus);
	u8 kind = is_idle_task(next) ? LT_CT_IDLE : LT_CT_THREAD;

	raw_write_seqcount_begin(&c->seq);
	if (!c->irq_depth && !c->in_softirq)
		lt_ct_enter(c, kind, now);
	/*
	 * Named as it leaves: a thread may rename itself while it runs.  A
	 * comm is TASK_COMM_LEN bytes: copied whole, no string walk.
	 */
	if (c->task_kind == LT_CT_THREAD && c->slice_known) {
		struct lt_ct_ent *e = lt_ct_push(&c->slices, c->slice_start,
						 c->ns[LT_CT_THREAD], prev->pid);

		memcpy(e->name, prev->comm, TASK_COMM_LEN);
		e->name[TASK_COMM_LEN - 1] = '\0';
	}
	c->task_kind = kind;
	c->slice_start = c->ns[LT_CT_THREAD];
	c->slice_known = true;
	raw_write_seqcount_end(&c->seq);
}

/**
 * lt_ct_read() - a CPU's counters at a time
 * @cpu: the CPU (any, this one included).
 * @now: the time (the tracker's clock), normally just read.
 * @s: the sample.
 *
 * Context: any but NMI; spins while @cpu's own probe updates it.
 */
static void lt_ct_read(int cpu, u64 now, struct lt_ct_sample *s)
{
	const struct lt_ct_cpu *c = per_cpu_ptr(lt_ct_cpus, cpu);
	unsigned int seq;
	u64 since;
	u8 kind;

	do {
		seq = raw_read_seqcount_begin(&c->seq);
		memcpy(s->ns, c->ns, sizeof(s->ns));
		kind = c->kind;
		since = c->since;
	} while (read_seqcount_retry(&c->seq, seq));
	if (now > since)
		s->ns[kind] += now - since;
	s->cpu = cpu;
}

static u64 lt_ct_overlap(const struct lt_ct_ent *e, u64 lo, u64 hi)
{
	u64 a = max(e->start, lo), b = min(e->end, hi);

	return b > a ? b - a : 0;
}

/*
 * The entry of the id with the most time in [lo, hi) of the ring's
 * kind's counter, all its entries summed; NULL when none had any.
 */
static const struct lt_ct_ent *lt_ct_top(const struct lt_ct_ring *r,
					 u64 lo, u64 hi)
{
	const struct lt_ct_ent *best = NULL;
	u64 best_ns = 0;
	unsigned int i, j;

	for (i = 0; i < LT_CT_RING; i++) {
		u64 sum = 0;

		if (!lt_ct_overlap(&r->ent[i], lo, hi))
			continue;
		for (j = 0; j < LT_CT_RING; j++)
			if (r->ent[j].id == r->ent[i].id)
				sum += lt_ct_overlap(&r->ent[j], lo, hi);
		if (sum > best_ns) {
			best_ns = sum;
			best = &r->ent[i];
		}
	}
	return best;
}

/**
 * lt_ct_tops() - the largest contributor of each kind between two samples
 * @from: the window's start, a sample of this CPU.
 * @to: its end, a sample of this CPU taken after every contributor ended
 *	(e.g. at a switch, after lt_ct_switch()).
 * @tops: the names, or none (also when @from is of another CPU).
 *
 * Among the last LT_CT_RING contributors of each kind (cpu_time.h).
 *
 * Context: interrupts disabled, on the CPU of the samples.
 */
static void lt_ct_tops(const struct lt_ct_sample *from,
		       const struct lt_ct_sample *to, struct lt_ct_tops *tops)
{
	const struct lt_ct_cpu *c = this_cpu_ptr(lt_ct_cpus);
	const struct lt_ct_ent *e;

	tops->irq[0] = '\0';
	tops->softirq = LT_CT_NO_SOFTIRQ;
	tops->thread_pid = -1;
	tops->thread_comm[0] = '\0';
	if (from->cpu != smp_processor_id() || to->cpu != from->cpu)
		return;
	e = lt_ct_top(&c->irqs, from->ns[LT_CT_IRQ], to->ns[LT_CT_IRQ]);
	if (e)
		strscpy(tops->irq, lt_ct_irq_name(e), LT_CT_NAME_LEN);
	e = lt_ct_top(&c->softirqs, from->ns[LT_CT_SOFTIRQ],
		      to->ns[LT_CT_SOFTIRQ]);
	if (e)
		tops->softirq = e->id;
	e = lt_ct_top(&c->slices, from->ns[LT_CT_THREAD],
		      to->ns[LT_CT_THREAD]);
	if (e) {
		tops->thread_pid = e->id;
		strscpy(tops->thread_comm, e->name, TASK_COMM_LEN);
	}
}

static void lt_ct_wait_sample(struct lt_ct_wait *w, int cpu, u64 now)
{
	lt_ct_read(cpu, now, &w->at);
	w->t = now;
}

/**
 * lt_ct_wait_begin() - a task is being woken: sample the CPU it last ran on
 * @w: the wait (every field written).
 * @cpu: task_cpu() of the task at its waking.
 * @now: the waking's time (the event's start).
 *
 * The wakeup usually queues the task on that CPU: the window then starts
 * at the waking, the start of the measured delay (a remote wakeup may
 * reach the CPU much later, after its interrupts, in an IPI).
 *
 * Context: any but NMI (sched_waking).
 */
void lt_ct_wait_begin(struct lt_ct_wait *w, int cpu, u64 now)
{
	lt_ct_wait_sample(w, cpu, now);
	w->other_cpu_ns = 0;
	w->state = LT_CT_WAIT_WAKING;
	w->migrated = 0;
}

/**
 * lt_ct_wait_queued() - the woken task is queued on @cpu
 * @w: the wait.
 * @cpu: the CPU it is queued on.
 * @now: the time.
 *
 * On the CPU sampled at the waking, the window keeps its start there;
 * on another (the wakeup chose it), it starts now: the time from the
 * waking to now, the waker choosing a CPU, is in no part.
 *
 * Context: any but NMI (sched_wakeup, under @cpu's runqueue lock).
 */
void lt_ct_wait_queued(struct lt_ct_wait *w, int cpu, u64 now)
{
	if (w->state != LT_CT_WAIT_WAKING || w->at.cpu != cpu)
		lt_ct_wait_sample(w, cpu, now);
	w->state = LT_CT_WAIT_QUEUED;
}

/**
 * lt_ct_wait_migrate() - the waiting task moves to another CPU's queue
 * @w: the wait.
 * @cpu: the CPU it moves to.
 * @now: the time.
 *
 * The time queued so far becomes other-CPU time.  A wait not queued yet
 * (a migration of the wakeup itself, before it queues the task) is left
 * alone.
 *
 * Context: any but NMI (sched_migrate_task, under the runqueue lock the
 * task is queued on).
 */
void lt_ct_wait_migrate(struct lt_ct_wait *w, int cpu, u64 now)
{
	if (w->state != LT_CT_WAIT_QUEUED || w->at.cpu == cpu)
		return;
	if (now > w->t)
		w->other_cpu_ns += now - w->t;
	w->migrated = 1;
	lt_ct_wait_sample(w, cpu, now);
}

/**
 * lt_ct_wait_end() - the breakdown of a wait that ends now
 * @w: the wait.
 * @now: its end (the switch-in's time, after lt_ct_switch()), or the time
 *	of a report while the task still waits.
 * @done: the task is switched in on this CPU now; false: a report from
 *	another context (a timeout), which names no top contributor.
 * @bd: the breakdown.
 *
 * The kinds' parts are the time since the wait's (last) start on the CPU
 * it ends on (or since the waking, see lt_ct_wait_queued()); the time
 * before, on other CPUs, is @bd->other_cpu_ns.  A wait never sampled has
 * no parts; one that ends on another CPU than its
 * last start (a migration not seen) counts all its time as other-CPU time.
 *
 * Context: @done: interrupts disabled, on the CPU it ends on; otherwise
 * any but NMI (the wait may be updated meanwhile: a mix is possible).
 */
void lt_ct_wait_end(const struct lt_ct_wait *w, u64 now, bool done,
		    struct lt_ct_breakdown *bd)
{
	struct lt_ct_sample to;
	int cpu = w->at.cpu, i;

	memset(bd, 0, sizeof(*bd));
	bd->tops.softirq = LT_CT_NO_SOFTIRQ;
	bd->tops.thread_pid = -1;
	if (w->state == LT_CT_WAIT_NONE)
		return;
	bd->other_cpu_ns = w->other_cpu_ns;
	bd->migrated = w->migrated;
	if (done && cpu != smp_processor_id()) {
		if (now > w->t)
			bd->other_cpu_ns += now - w->t;
		bd->migrated = 1;
		return;
	}
	lt_ct_read(cpu, now, &to);
	for (i = 0; i < LT_CT_NR; i++)
		bd->ns[i] = to.ns[i] > w->at.ns[i] ? to.ns[i] - w->at.ns[i] : 0;
	if (done)
		lt_ct_tops(&w->at, &to, &bd->tops);
}

/**
 * lt_ct_name_or_none() - a top's name for a record, "-" for none
 * @out: LT_CT_NAME_LEN bytes.
 * @name: the name, "" for none.
 *
 * Context: any.
 */
void lt_ct_name_or_none(char *out, const char *name)
{
	strscpy(out, name[0] ? name : "-", LT_CT_NAME_LEN);
}

/**
 * lt_ct_task_name() - "<comm>:<pid>" for a record, "-" for none
 * @out: LT_CT_NAME_LEN bytes.
 * @comm: the task's comm.
 * @pid: its pid, < 0 for none.
 *
 * Built by hand: called from a probe, where no printf-like formatting
 * is done.
 *
 * Context: any.
 */
void lt_ct_task_name(char *out, const char *comm, pid_t pid)
{
	char digits[12];
	size_t n, d = 0;

	if (pid < 0) {
		strscpy(out, "-", LT_CT_NAME_LEN);
		return;
	}
	n = strnlen(comm, TASK_COMM_LEN - 1);
	memcpy(out, comm, n);
	out[n++] = ':';
	do {
		digits[d++] = '0' + pid % 10;
		pid /= 10;
	} while (pid);
	while (d)
		out[n++] = digits[--d];
	out[n] = '\0';
}
