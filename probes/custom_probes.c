// SPDX-License-Identifier: GPL-2.0-only
/*
 * custom_probes.c - the ends of custom trackers: kprobes, kretprobes and
 * tracepoints, their handlers (the probe path) and how they are attached
 * and detached.  The design and the synchronisation are in custom.c.
 *
 * The handlers run with preemption disabled (kprobes: from ftrace's
 * callback, from the jump of an optimized kprobe, or from the int3
 * handler, in NMI context; kretprobes: the entry handler from the kprobe,
 * the return handler from the return trampoline) or from a tracepoint
 * (preemptible on kernels whose tracepoints are, see docs/design.md).
 * They allocate nothing, sleep nowhere and print nothing: a key, the
 * filters, then latency_tracker_event_in() or _out() (the callback,
 * custom.c, runs inside _out()), or for fn= the clock and
 * latency_tracker_event_record(); in NMI context, nothing but a count.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "custom.h"

#if !defined(CONFIG_KRETPROBES) || !defined(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API)
#error "latency_tracker_custom needs kretprobes and regs_get_kernel_argument()"
#endif

/*
 * Instances of a kretprobe (calls in progress at once, blocked ones
 * included): max_events, at most this many (kprobe_events' own bound).
 */
#define LT_CUSTOM_MAXACTIVE_MAX	4096

/*
 * The filters on the task at the in end.  In interrupt context there is
 * no task of interest (current is whatever ran): the event is started
 * unless filter_tgid or filter_cgroup selects tasks.
 */
static __always_inline bool lt_custom_track(struct lt_custom *c, u64 *cgid)
{
	if (likely(in_task()))
		return lt_probe_track_task(&c->probe, current, cgid);
	if (lt_probe_selects(&c->probe)) {
		latency_tracker_count_filtered(c->probe.t);
		return false;
	}
	if (cgid)
		*cgid = lt_task_cgroup_id(current);
	return true;
}

/*
 * Starts the event of @key for current, in cgroup @cgid, at @ts_ns (0:
 * now); true if it is pending now.
 */
static __always_inline bool lt_custom_event_in(struct lt_custom *c, u64 key,
					       u64 cgid, u64 ts_ns)
{
	/* Every byte is written below: no need to zero it first. */
	struct lt_custom_priv priv __uninitialized;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = sizeof(priv),
		.ts_ns = ts_ns,
	};

	priv.cgroup = cgid;
	priv.pid = current->pid;
	priv.tgid = current->tgid;
	memcpy(priv.comm, current->comm, TASK_COMM_LEN);
	return latency_tracker_event_in(c->probe.t, &key, sizeof(key),
					&opts) == LATENCY_TRACKER_OK;
}

/* An in end: starts the event of @key; true if it is pending now. */
static __always_inline bool lt_custom_start(struct lt_custom *c, u64 key)
{
	u64 cgid;

	if (!lt_custom_track(c, &cgid))
		return false;
	return lt_custom_event_in(c, key, cgid, 0);
}

/* An out end: ends the event of @key (the callback runs in there). */
static __always_inline void lt_custom_stop(struct lt_custom *c, u64 key)
{
	latency_tracker_event_out(c->probe.t, &key, sizeof(key), 0, NULL);
}

/*
 * The key of an end, from the probe's registers (NULL at a tracepoint,
 * whose keys are tid or tgid).  False when the u64 at argN+OFF cannot be
 * read (counted): the event is then neither started nor ended.
 */
static __always_inline bool lt_custom_key_read(struct lt_custom_end *e,
					       struct pt_regs *regs, u64 *key)
{
	unsigned long arg;

	switch (e->key.kind) {
	case LT_CUSTOM_KEY_TID:
		*key = current->pid;
		return true;
	case LT_CUSTOM_KEY_TGID:
		*key = current->tgid;
		return true;
	case LT_CUSTOM_KEY_ARG:
		*key = regs_get_kernel_argument(regs, e->key.arg - 1);
		return true;
	case LT_CUSTOM_KEY_ARG_MEM:
		arg = regs_get_kernel_argument(regs, e->key.arg - 1);
		if (!copy_from_kernel_nofault(key,
					      (const void *)(arg + e->key.off),
					      sizeof(*key)))
			return true;
		atomic_long_inc(&e->c->key_faults);
		return false;
	case LT_CUSTOM_KEY_RET:
		*key = regs_return_value(regs);
		return true;
	}
	return false;
}

/*
 * NMI context: the core runs in any context but NMI (it queues RCU
 * callbacks, takes raw spinlocks).  A kprobe hit comes in NMI context when
 * it is an int3 (the kernel treats an int3 in kernel mode like an NMI):
 * a function ftrace cannot trace, until kprobes optimize its probe into a
 * jump; or code called from an NMI handler.  Such hits are counted and
 * measure nothing.
 */
static __always_inline bool lt_custom_in_nmi(struct lt_custom *c)
{
	if (likely(!in_nmi()))
		return false;
	atomic_long_inc(&c->nmi_missed);
	return true;
}

static __always_inline void lt_custom_hit(struct lt_custom_end *e,
					  struct pt_regs *regs)
{
	u64 key;

	if (lt_custom_in_nmi(e->c) || !lt_custom_key_read(e, regs, &key))
		return;
	if (e->starts)
		lt_custom_start(e->c, key);
	else
		lt_custom_stop(e->c, key);
}

/* A kprobe end, at the function's entry. */
static int lt_custom_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	lt_custom_hit(container_of(kp, struct lt_custom_end, kp), regs);
	return 0;
}

/* A kretprobe end, at the function's return. */
static int lt_custom_kretprobe_ret(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	lt_custom_hit(container_of(get_kretprobe(ri), struct lt_custom_end, rp),
		      regs);
	return 0;
}

/*
 * A fn= call, in its kretprobe instance's data (see custom.c, "fn="):
 * timed there (its start on the tracker's clock), or an event of the
 * table (in_table: the tracker had a timeout at the call's entry).
 */
struct lt_custom_call {
	u64 start_ns;
	u32 run;		/* latency_tracker_run() at the entry */
	bool in_table;
};

/*
 * fn=, at the function's entry: the call timed in its instance, or its
 * event started in the table when the tracker has a timeout (only the
 * table's events time out).  The return is hooked (0) only for a call
 * the filters keep, so the others cost no return trampoline.
 */
static int lt_custom_fn_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct lt_custom_end *e =
		container_of(get_kretprobe(ri), struct lt_custom_end, rp);
	struct lt_custom_call *call = (struct lt_custom_call *)ri->data;
	struct lt_custom *c = e->c;
	u64 key;

	if (lt_custom_in_nmi(c) || !lt_custom_key_read(e, regs, &key))
		return 1;
	call->in_table = latency_tracker_timeout(c->probe.t) != 0;
	if (call->in_table)
		return lt_custom_start(c, key) ? 0 : 1;
	call->run = latency_tracker_run(c->probe.t);
	if (!call->run || !lt_custom_track(c, NULL))
		return 1;
	call->start_ns = ktime_get_mono_fast_ns();
	return 0;
}

/*
 * fn=, at the function's return, in the calling task: a call timed in its
 * instance is counted like a matched event when within the threshold;
 * over it, it becomes an event started at its entry and ended at once,
 * for the callback to report.  A call in progress when tracking stopped
 * (enable=0) is dropped, as the pending events are then.
 */
static int lt_custom_fn_ret(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct lt_custom_end *e =
		container_of(get_kretprobe(ri), struct lt_custom_end, rp);
	const struct lt_custom_call *call =
		(const struct lt_custom_call *)ri->data;
	u64 now, key;

	if (call->in_table) {
		lt_custom_hit(e, regs);
		return 0;
	}
	/* Tracking stopped since the entry: dropped, as pending events are. */
	if (latency_tracker_run(e->c->probe.t) != call->run)
		return 0;
	now = ktime_get_mono_fast_ns();
	if (latency_tracker_event_record(e->c->probe.t,
					 now > call->start_ns ?
					 now - call->start_ns : 0))
		return 0;
	if (lt_custom_in_nmi(e->c) || !lt_custom_key_read(e, regs, &key))
		return 0;
	if (lt_custom_event_in(e->c, key, lt_task_cgroup_id(current),
			       call->start_ns))
		lt_custom_stop(e->c, key);
	return 0;
}

/*
 * A tracepoint end.  The probe takes the tracepoint's data pointer and
 * ignores its other arguments, whatever the tracepoint's prototype
 * (LT_TP_ANY_PROTO, latency_tracker_compat.h): its key is tid or tgid.
 */
static void lt_custom_tp_probe(void *data)
{
	struct lt_custom_end *e = data;
	u64 key = e->key.kind == LT_CUSTOM_KEY_TGID ? current->tgid :
		  current->pid;

	if (lt_custom_in_nmi(e->c))
		return;
	if (e->starts)
		lt_custom_start(e->c, key);
	else
		lt_custom_stop(e->c, key);
}

/* What register_kprobe()'s errors mean (kernel/kprobes.c). */
static const char *lt_custom_kprobe_why(int err)
{
	switch (err) {
	case -EINVAL:
		/* /sys/kernel/debug/kprobes/blacklist lists the blacklist. */
		return "not kernel text, or on kprobes' blacklist, or reserved text";
	case -EILSEQ:
		return "not an instruction boundary";
	case -EBUSY:
		return "text in use by another patching";
	default:
		return "kprobes' error";
	}
}

/* One dmesg line for a kprobe or kretprobe that did not register. */
static int lt_custom_kprobe_err(struct lt_custom *c, const char *func,
				int err)
{
	const char *name = c->def.name;

	if (err == -ENOENT) {
		pr_err("%s: no function %s in kallsyms\n", name, func);
		return -ENOENT;
	}
	if (err == -ENOMEM) {
		pr_err("%s: no memory for a probe on %s\n", name, func);
		return -ENOMEM;
	}
	pr_err("%s: kprobes refuse %s: error %d: %s\n", name, func, err,
	       lt_custom_kprobe_why(err));
	return -EINVAL;
}

/*
 * A tracepoint by SYSTEM:EVENT, as tracefs names it: trace_get_event_file()
 * knows the system (the kernel's tracepoint table, for_each_kernel_
 * tracepoint(), has bare names and no module's tracepoints) and holds the
 * event's module while the probe is attached.  Events that are not
 * tracepoints (kprobe events, synthetic events, the syscalls system) have
 * none to attach to.
 */
static int lt_custom_tp_attach(struct lt_custom_end *e,
			       const struct lt_custom_end_def *d)
{
	const char *name = e->c->def.name;
	struct trace_event_file *file;
	struct tracepoint *tp = NULL;
	int ret;

	if (!LT_TP_ANY_PROTO) {
		pr_err("%s: tp:%s:%s: tracepoint ends need x86-64 without kCFI\n",
		       name, d->system, d->event);
		return -EINVAL;
	}
	file = trace_get_event_file(NULL, d->system, d->event);
	if (IS_ERR(file)) {
		pr_err("%s: no tracepoint %s:%s\n", name, d->system, d->event);
		return -ENOENT;
	}
	if (file->event_call->flags & TRACE_EVENT_FL_TRACEPOINT)
		tp = file->event_call->tp;
	if (!tp) {
		pr_err("%s: %s:%s is an event without a tracepoint\n", name,
		       d->system, d->event);
		ret = -ENOENT;
		goto out;
	}
	ret = tracepoint_probe_register(tp, (void *)lt_custom_tp_probe, e);
	if (ret) {
		pr_err("%s: cannot attach to tracepoint %s:%s: %d\n", name,
		       d->system, d->event, ret);
		goto out;
	}
	e->tp = tp;
	e->attached = true;
out:
	trace_put_event_file(file);
	return ret;
}

static int lt_custom_end_attach(struct lt_custom_end *e,
				const struct lt_custom_end_def *d)
{
	struct lt_custom *c = e->c;
	int ret;

	e->kind = d->kind;
	switch (d->kind) {
	case LT_CUSTOM_KPROBE:
		e->kp.symbol_name = d->func;
		e->kp.pre_handler = lt_custom_kprobe_pre;
		ret = register_kprobe(&e->kp);
		break;
	case LT_CUSTOM_KRETPROBE:
		e->rp.kp.symbol_name = d->func;
		e->rp.handler = lt_custom_kretprobe_ret;
		if (c->def.fn) {
			e->rp.entry_handler = lt_custom_fn_entry;
			e->rp.handler = lt_custom_fn_ret;
			e->rp.data_size = sizeof(struct lt_custom_call);
		}
		e->rp.maxactive = min_t(u32, c->def.max_events,
					LT_CUSTOM_MAXACTIVE_MAX);
		ret = register_kretprobe(&e->rp);
		break;
	default:
		return lt_custom_tp_attach(e, d);
	}
	if (ret)
		return lt_custom_kprobe_err(c, d->func, ret);
	e->attached = true;
	return 0;
}

static void lt_custom_end_init(struct lt_custom *c, struct lt_custom_end *e,
			       const struct lt_custom_key *key, bool starts)
{
	e->c = c;
	e->key = *key;
	e->starts = starts;
	e->attached = false;
}

/**
 * lt_custom_attach() - attach the ends of a custom tracker
 * @c: the tracker; its definition is set and its tracker created.
 *
 * The out end first: no event starts before the end that ends it is
 * there.  On a failure nothing stays attached, and one dmesg line says
 * why.
 *
 * Context: process context, under the definition list's mutex; sleeps.
 * Return: 0; -ENOENT for a function or tracepoint that does not exist;
 * -EINVAL for one that cannot be probed; -ENOMEM.
 */
int lt_custom_attach(struct lt_custom *c)
{
	const struct lt_custom_def *d = &c->def;
	int ret;

	if (d->fn) {
		c->nr_ends = 1;
		lt_custom_end_init(c, &c->ends[0], &d->in_key, false);
		return lt_custom_end_attach(&c->ends[0], &d->out);
	}
	c->nr_ends = 2;
	lt_custom_end_init(c, &c->ends[0], &d->in_key, true);
	lt_custom_end_init(c, &c->ends[1], &d->out_key, false);
	ret = lt_custom_end_attach(&c->ends[1], &d->out);
	if (!ret)
		ret = lt_custom_end_attach(&c->ends[0], &d->in);
	if (ret)
		lt_custom_detach(c);
	return ret;
}

/**
 * lt_custom_detach() - detach the ends of a custom tracker and wait
 * @c: the tracker.
 *
 * The in end first.  On return no handler of @c runs, nor will (a
 * kretprobe's return trampolines still pending call nothing once it is
 * unregistered).  Ends not attached are skipped.
 *
 * Context: process context, under the definition list's mutex; sleeps.
 */
void lt_custom_detach(struct lt_custom *c)
{
	void *probe = lt_custom_tp_probe;
	struct lt_custom_end *e;
	bool tps = false;
	unsigned int i;
	int ret;

	for (i = 0; i < c->nr_ends; i++) {
		e = &c->ends[i];
		if (!e->attached)
			continue;
		switch (e->kind) {
		case LT_CUSTOM_KPROBE:
			unregister_kprobe(&e->kp);
			break;
		case LT_CUSTOM_KRETPROBE:
			unregister_kretprobe(&e->rp);
			break;
		case LT_CUSTOM_TP:
			ret = tracepoint_probe_unregister(e->tp, probe, e);
			WARN_ON_ONCE(ret);
			tps = true;
			break;
		}
		e->attached = false;
	}
	if (tps)
		tracepoint_synchronize_unregister();
}

/* The address that places an attached end in a module. */
static unsigned long lt_custom_end_addr(const struct lt_custom_end *e)
{
	switch (e->kind) {
	case LT_CUSTOM_KPROBE:
		return (unsigned long)e->kp.addr;
	case LT_CUSTOM_KRETPROBE:
		return (unsigned long)e->rp.kp.addr;
	default:
		return (unsigned long)e->tp;
	}
}

/**
 * lt_custom_in_module() - whether an end of a tracker lives in a module
 * @c: the tracker.
 * @mod: the module.
 *
 * Context: process context, under the definition list's mutex.
 * Return: true when an attached end probes @mod's text or a tracepoint
 * of @mod.
 */
bool lt_custom_in_module(const struct lt_custom *c, const struct module *mod)
{
	unsigned int i;

	for (i = 0; i < c->nr_ends; i++)
		if (c->ends[i].attached &&
		    within_module(lt_custom_end_addr(&c->ends[i]), mod))
			return true;
	return false;
}

/**
 * lt_custom_missed() - hits of a tracker's ends that measured nothing
 * @c: the tracker.
 *
 * A kprobe misses a hit while another kprobe handler runs on that CPU; a
 * kretprobe misses a call when all its instances are taken (maxactive
 * calls in progress); a hit in NMI context is skipped (lt_custom_in_nmi()).
 *
 * Context: process context.
 * Return: the sum over the tracker's kprobes and kretprobes, and the hits
 * skipped in NMI context.
 */
unsigned long lt_custom_missed(const struct lt_custom *c)
{
	const struct lt_custom_end *e;
	unsigned long n = atomic_long_read(&c->nmi_missed);
	unsigned int i;

	for (i = 0; i < c->nr_ends; i++) {
		e = &c->ends[i];
		if (e->kind == LT_CUSTOM_KPROBE)
			n += READ_ONCE(e->kp.nmissed);
		else if (e->kind == LT_CUSTOM_KRETPROBE)
			n += READ_ONCE(e->rp.kp.nmissed) +
			     READ_ONCE(e->rp.nmissed);
	}
	return n;
}
