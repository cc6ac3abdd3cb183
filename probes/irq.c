// SPDX-License-Identifier: GPL-2.0-only
/*
 * irq.c - latency_tracker_irq: hard interrupt handlers and softirqs that
 * run long, and softirqs that wait long between their raise and their
 * run (the predecessor's rt chain, bcc's hardirqs and softirqslower).
 *
 * Three intervals per CPU, timed by the probes in per-CPU slots:
 *
 *	kind		 from				to
 *	hardirq		 irq_handler_entry, or the	its exit
 *			 entry of an x86 vector without
 *			 a handler of its own (local
 *			 timer, IPIs, irq_work)
 *	softirq		 softirq_entry			softirq_exit
 *	softirq_latency	 the first softirq_raise of a	its softirq_entry
 *			 vector since it last ran
 *
 * An interval within the threshold is only counted
 * (latency_tracker_event_record(): no table work); a longer one becomes
 * an event, started at its start (keyed by CPU and kind) and ended at
 * once, whose callback appends the record.
 *
 * Slots.  Each CPU writes its own, with interrupts disabled: the hard
 * interrupt probes run so, softirq_raise too (raising needs them off),
 * the softirq entry and exit probes disable them.  Hard interrupts nest
 * only when a handler handles another interrupt itself (a chained or
 * demultiplexing handler: generic_handle_irq()): each level is timed on
 * its own, in a small stack.  An exit seen without its entry (the probes
 * attached meanwhile) is ignored, and the exits are attached before the
 * entries (see LT_IRQ_TPS) so that an entry never misses its exit.
 *
 * PREEMPT_RT: device interrupts are threaded, their primary handler only
 * wakes the thread (the handler's run is the thread's time: the wakeup
 * and offcpu trackers see it); softirqs run in threads, preemptible but
 * not migrated, so a softirq's run includes its preemptions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include <lt_records/irq.h>
#include "common/irq_events.h"
#include "common/probe.h"
#include "lt_trace.h"

/*
 * 100 us: a hard interrupt handler or a softirq that long, or a softirq
 * waiting that long, is an outlier on a real machine.  max_events 0, a
 * pool that grows: an event lives for an instant, but its slot is held
 * for a grace period after it (a storm of slow softirqs on a debug kernel
 * took more than 64).
 */
LT_PROBE_MODULE_PARAMS(100000, 0, 0, 1);

/* Hard interrupts timed at once on a CPU (a handler raising another). */
#define LT_IRQ_NEST	4

/* A hard interrupt being handled. */
struct lt_irq_hard {
	u64 start;
	const char *name;	/* valid until the handler's exit */
	s32 irq;		/* -1 for a vector */
};

/* A CPU's slots (written by that CPU only, interrupts disabled). */
struct lt_irq_cpu {
	u32 hard_depth;
	struct lt_irq_hard hard[LT_IRQ_NEST];
	u64 soft_start;
	u32 soft_vec;		/* LT_REC_NONE: no softirq running */
	u64 raised[NR_SOFTIRQS];	/* 0: not raised since it last ran */
};

static struct lt_irq_cpu __percpu *lt_irq_cpus;

struct lt_irq_key {
	u32 cpu;
	u32 kind;
};

static struct lt_probe lt_irq;

static void lt_irq_cb(const struct latency_tracker_report *r)
{
	const struct lt_irq_record *a = latency_tracker_event_priv(r->event);

	trace_irq(r->cause, r->delay_ns, a);
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      a, sizeof(*a));
}

static LT_RECORD_FMT(lt_irq_fmt, struct lt_irq_record, LT_IRQ_RECORD)

/*
 * An interval from @start to now: counted, or over the threshold an
 * event with its record @a.  Interrupts disabled.  The records are not
 * zeroed first (__uninitialized: the kernel's automatic zeroing of the
 * stack would clear them with a string instruction at every interrupt):
 * every field is written, a name up to its NUL.
 */
static void lt_irq_interval(u64 start, struct lt_irq_record *a)
{
	struct latency_tracker_in_opts opts = {
		.priv = a,
		.priv_len = sizeof(*a),
		.ts_ns = start,
	};
	struct lt_irq_key key = { .cpu = a->cpu, .kind = a->kind };
	u64 now = ktime_get_mono_fast_ns();

	if (latency_tracker_event_record(lt_irq.t, now > start ? now - start : 0))
		return;
	if (latency_tracker_event_in(lt_irq.t, &key, sizeof(key), &opts) !=
	    LATENCY_TRACKER_OK)
		return;
	latency_tracker_event_out(lt_irq.t, &key, sizeof(key), 0, NULL);
}

static void lt_irq_hard_in(s32 irq, const char *name)
{
	struct lt_irq_cpu *c = this_cpu_ptr(lt_irq_cpus);
	struct lt_irq_hard *h;

	/* Deeper than LT_IRQ_NEST: counted, not timed. */
	if (c->hard_depth++ >= LT_IRQ_NEST)
		return;
	h = &c->hard[c->hard_depth - 1];
	h->irq = irq;
	h->name = name;
	h->start = ktime_get_mono_fast_ns();
}

static void lt_irq_hard_out(void)
{
	struct lt_irq_cpu *c = this_cpu_ptr(lt_irq_cpus);
	struct lt_irq_record a __uninitialized;
	struct lt_irq_hard *h;

	if (!c->hard_depth || --c->hard_depth >= LT_IRQ_NEST)
		return;
	h = &c->hard[c->hard_depth];
	a.kind = LT_IRQ_KIND_HARDIRQ;
	a.cpu = smp_processor_id();
	a.irq = h->irq;
	strscpy(a.name, h->name ?: "?", sizeof(a.name));
	a.vec = LT_REC_NONE;
	lt_irq_interval(h->start, &a);
}

static void lt_irq_probe_irq_entry(void *data, int irq,
				   struct irqaction *action)
{
	lt_irq_hard_in(irq, action->name);
}

static void lt_irq_probe_irq_exit(void *data, int irq,
				  struct irqaction *action, int ret)
{
	lt_irq_hard_out();
}

static void lt_irq_probe_vector_entry(void *data, int vector)
{
	lt_irq_hard_in(-1, lt_irq_vector_name(vector));
}

static void lt_irq_probe_vector_exit(void *data, int vector)
{
	lt_irq_hard_out();
}

static void lt_irq_probe_raise(void *data, unsigned int vec_nr)
{
	struct lt_irq_cpu *c;
	unsigned long flags;

	if (vec_nr >= NR_SOFTIRQS)
		return;
	/* Raised with interrupts off; the probe may be preemptible (7.3). */
	local_irq_save(flags);
	c = this_cpu_ptr(lt_irq_cpus);
	if (!c->raised[vec_nr])
		c->raised[vec_nr] = ktime_get_mono_fast_ns();
	local_irq_restore(flags);
}

static void lt_irq_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	struct lt_irq_record a __uninitialized;
	struct lt_irq_cpu *c;
	unsigned long flags;
	u64 raised;

	if (vec_nr >= NR_SOFTIRQS)
		return;
	local_irq_save(flags);
	c = this_cpu_ptr(lt_irq_cpus);
	raised = c->raised[vec_nr];
	c->raised[vec_nr] = 0;
	if (raised) {
		a.kind = LT_IRQ_KIND_SOFTIRQ_LATENCY;
		a.cpu = smp_processor_id();
		a.irq = -1;
		a.name[0] = '\0';
		a.vec = vec_nr;
		lt_irq_interval(raised, &a);
	}
	c->soft_vec = vec_nr;
	c->soft_start = ktime_get_mono_fast_ns();
	local_irq_restore(flags);
}

static void lt_irq_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	struct lt_irq_record a __uninitialized;
	struct lt_irq_cpu *c;
	unsigned long flags;

	local_irq_save(flags);
	c = this_cpu_ptr(lt_irq_cpus);
	if (c->soft_vec != vec_nr)
		goto out;	/* its entry came before the probes */
	c->soft_vec = LT_REC_NONE;
	a.kind = LT_IRQ_KIND_SOFTIRQ;
	a.cpu = smp_processor_id();
	a.irq = -1;
	a.name[0] = '\0';
	a.vec = vec_nr;
	lt_irq_interval(c->soft_start, &a);
out:
	local_irq_restore(flags);
}

/* Every exit before every entry: see the top of this file. */
#define LT_IRQ_VECTOR_EXIT(X, v)	X(v##_exit, lt_irq_probe_vector_exit)
#define LT_IRQ_VECTOR_ENTRY(X, v)	X(v##_entry, lt_irq_probe_vector_entry)
#define LT_IRQ_TPS(X)							\
	X(irq_handler_exit, lt_irq_probe_irq_exit)			\
	LT_IRQ_VECTORS(LT_IRQ_VECTOR_EXIT, X)				\
	X(softirq_exit, lt_irq_probe_softirq_exit)			\
	X(irq_handler_entry, lt_irq_probe_irq_entry)			\
	LT_IRQ_VECTORS(LT_IRQ_VECTOR_ENTRY, X)				\
	X(softirq_entry, lt_irq_probe_softirq_entry)			\
	X(softirq_raise, lt_irq_probe_raise)
LT_PROBE_TPS(lt_irq_tps, LT_IRQ_TPS);

static struct lt_probe lt_irq = {
	.params = {
		.name = "irq",
		.key_size = sizeof(struct lt_irq_key),
		.priv_size = sizeof(struct lt_irq_record),
		.callback = lt_irq_cb,
		.alert_fmt = lt_irq_fmt,
	},
	.tps = lt_irq_tps,
	.nr_tps = ARRAY_SIZE(lt_irq_tps),
	.taskless = true,
};

static int __init lt_irq_init(void)
{
	int cpu, ret;

	lt_irq_cpus = alloc_percpu(struct lt_irq_cpu);
	if (!lt_irq_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(lt_irq_cpus, cpu)->soft_vec = LT_REC_NONE;
	ret = lt_probe_start(&lt_irq, &lt_mparams);
	if (ret)
		free_percpu(lt_irq_cpus);
	return ret;
}

static void __exit lt_irq_exit(void)
{
	lt_probe_stop(&lt_irq);
	free_percpu(lt_irq_cpus);
}

module_init(lt_irq_init);
module_exit(lt_irq_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Long hard interrupt handlers and softirqs, and softirqs waiting long");
