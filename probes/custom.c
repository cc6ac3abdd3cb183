// SPDX-License-Identifier: GPL-2.0-only
/*
 * custom.c - latency_tracker_custom: trackers defined at run time, without
 * writing C (docs/design.md, "Custom trackers").
 *
 * Loading the module creates /proc/latency_tracker/custom (root only,
 * 0600).  A write of one line defines or deletes a tracker (grammar and
 * canonical form: custom_def.h); a read lists the live definitions, one
 * per line, in canonical form.  At most LT_CUSTOM_TRACKERS_MAX (64) exist
 * at once.  A refused line changes nothing and logs one dmesg line
 * naming the reason: -EINVAL for bad syntax or a field that does not fit
 * (the token is named), or for a function that kprobes refuse (with their
 * reason); -ENOENT for an unknown function or tracepoint (and for `del`
 * of an unknown tracker); -EEXIST for a name in use or reserved; -ENOSPC
 * past 64 trackers.  Unloading the module removes every custom tracker.
 *
 * A custom tracker is a standard tracker: one struct lt_probe
 * (probes/common/) per tracker, allocated at definition, gives it
 * /proc/latency_tracker/NAME/ with every standard file and filter
 * (kthreads defaults to 1), alerts, histogram, stats and stack reports,
 * like the built-in trackers; custom_stats adds probe_missed (hits that
 * measured nothing: kprobes missed them, a kprobe hit while another
 * kprobe handler runs on that CPU or a call when all of a kretprobe's
 * instances are taken; or they came in NMI context, where the core cannot
 * run: an int3 kprobe, see custom_probes.c) and key_faults (argN+OFF
 * reads that faulted).  Keys are u64; each event
 * keeps the task at its in end (private data) for a timeout record.
 *
 * Ends (custom_probes.c).  kprobe:FUNC and kretprobe:FUNC are plain
 * kprobes and kretprobes on the function's entry, on every kernel line:
 * at a function's entry (its ftrace call site) kprobes use ftrace instead
 * of an int3 (CONFIG_KPROBES_ON_FTRACE, on every Debian kernel), which
 * costs what an fprobe's entry costs, and a kretprobe's return goes
 * through rethook there too; so fprobes (Linux 6.12 and 7.3 have them,
 * 6.1 does not, and their handlers' prototype changed in 6.14, from
 * pt_regs to ftrace_regs) would add a second implementation for no
 * saving.  Optimized (jump) kprobes apply to other addresses than a
 * function's ftrace site, which the grammar does not reach.
 *
 * fn=FUNC is one kretprobe with an entry handler, keyed by the calling
 * task (tid or tgid); its return is hooked only for a call the filters
 * keep (no return trampoline for the others).  Both ends of a call run in
 * the calling task and the kretprobe keeps data per call (its instance),
 * so a tracker without a timeout needs no event in the table while the
 * call runs: the entry reads the clock into the instance, the return
 * reads it again, and a call within the threshold is counted as a matched
 * event is (latency_tracker_event_record(): tracked, matched, histogram)
 * without a slot; one over it becomes an event started at the entry's
 * time and ended at once, which the callback reports.  Every call is then
 * measured, recursive ones too, and the calls in progress are not among
 * the `pending` events; like them, they are dropped when tracking stops
 * (enable=0: latency_tracker_run() differs at the return).  Only the
 * table's events time out: when the tracker has a timeout at a call's
 * entry (set at definition or later through its timeout file), the call
 * is an event of the table, started at the entry and ended at the
 * return; a task that calls FUNC again before it returns (recursion) then
 * replaces its event with the inner call's, as funclatency does (the
 * innermost call is measured), and a call that never returns (the task
 * exits inside it) leaves its event pending until it times out.  A
 * kretprobe has max_events instances (at most 4096): more calls in
 * progress at once are missed (probe_missed).
 *
 * A name that several functions share (static functions in several
 * files): kprobes resolve FUNC with kallsyms_lookup_name(), which gives
 * the first match (the kernel's before any module's); that one is
 * probed, the others are not.  /proc/kallsyms lists them all.
 *
 * Tracepoints.  tp:SYSTEM:EVENT is resolved with trace_get_event_file(),
 * which knows the event's system (the kernel's tracepoint table,
 * for_each_kernel_tracepoint(), has bare names and no module's
 * tracepoints) and holds the event's module while the probe is attached;
 * the struct tracepoint is the event's (TRACE_EVENT_FL_TRACEPOINT).
 * Events without a tracepoint (kprobe and synthetic events, the syscalls
 * system: use raw_syscalls) are unknown tracepoints.  A tracepoint end
 * takes tid or tgid: its probe is void (*)(void *data), attached to
 * tracepoints of any prototype; it reads current only.  That relies on
 * the calling convention (LT_TP_ANY_PROTO, latency_tracker_compat.h):
 * x86-64 without kCFI; elsewhere tracepoint ends are refused.
 *
 * Keys.  tid and tgid are current's; argN is the function's Nth argument
 * (regs_get_kernel_argument()); argN+OFF the u64 at argN plus OFF bytes,
 * read with copy_from_kernel_nofault(): a read that faults starts or ends
 * nothing and is counted (key_faults); ret the return value
 * (regs_return_value()).  Records show key= as the value for tid and tgid
 * keys (the in key's kind for a timeout; either's for a match: they are
 * equal), and as siphash_1u64() of the value under a random key drawn at
 * definition for the others: stable for the tracker's life, never a raw
 * kernel address.
 *
 * Records.  `pid tgid comm cpu key cgroup [stack]`: the task current at
 * the out end and its CPU; for a timeout (no out end), the task at the in
 * end and cpu -1.  The tracepoint latency_tracker:custom carries the
 * record, the tracker's name and, with stack=1, the stack.  In interrupt context
 * there is no task of interest at the in end: the filters then start the
 * event unless filter_tgid or filter_cgroup selects tasks.
 *
 * Stacks (stack=1).  The kernel stack of the out end, captured into the
 * record in the callback (this module's and the core's frames cut there,
 * kprobes', ftrace's and the tracepoint's frames when it is named:
 * latency_tracker_stack_first()), or for a timeout of a tid or tgid key
 * the in end's task's stack if it is blocked then; printed from a work
 * item like the offcpu tracker's (same dmesg format, `<name>: <comm>
 * (<pid>) <us> us` then one frame a line, and the same rate limit, per
 * tracker) and carried by the tracepoint.
 *
 * A module that unloads.  The module notifier (priority 1, before the
 * tracepoints' own at 0, which warns when a going module's tracepoint
 * still has a probe) finds the trackers with an end in the going module
 * (within_module() of the probed address, or of the tracepoint), detaches
 * their ends, disables them (enable 0, pending events dropped) and logs
 * one line each; they stay, disabled, until `del`.
 *
 * Synchronisation:
 *
 *	what			who					sync
 *	lt_custom_list,		the custom file's writers and readers,	lt_custom_lock
 *	lt_custom_nr, a		the module notifier, module exit	(mutex)
 *	tracker's ends, gone	(process context)
 *	a tracker's def, ends	handlers, callback, report work (any	read-only
 *				context)				while it lives
 *	a tracker's life	freed by a writer or module exit only	see below
 *				after its ends are detached
 *	key_faults, nmi_missed	handlers, any CPU			atomic
 *	stack reports		callback (producer), work item		common/report.h
 *
 * Handlers reach their tracker through their kprobe, kretprobe or
 * tracepoint data, never through the list.  A tracker is freed only once
 * no handler can run: unregister_kprobe() and unregister_kretprobe() wait
 * for running handlers (an RCU grace period; they run with preemption
 * disabled) and a kretprobe's pending return trampolines call nothing
 * once it is unregistered; tracepoint_synchronize_unregister() waits for
 * tracepoint probes.  Then lt_probe_stop() destroys the core tracker
 * (its timeout timer, the last caller of the callback, is stopped) and
 * flushes the stack reports.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <lt_records/custom.h>
#include "custom.h"
#include "lt_trace.h"

/* /proc/latency_tracker/custom */
#define LT_CUSTOM_FILE		"latency_tracker/custom"

static LIST_HEAD(lt_custom_list);
static unsigned int lt_custom_nr;
static DEFINE_MUTEX(lt_custom_lock);
/* A line of the custom file being read, under lt_custom_lock. */
static char lt_custom_line[LT_CUSTOM_LINE_MAX];

static struct lt_custom *lt_custom_of(struct latency_tracker *t)
{
	struct lt_probe *p = latency_tracker_owner_data(t);

	return container_of(p, struct lt_custom, probe);
}

/* The key a record shows (see the top of this file). */
static u64 lt_custom_key_shown(const struct lt_custom *c, u64 key,
			       enum latency_tracker_cause cause)
{
	if (lt_custom_key_is_task(&c->def.in_key) ||
	    (cause == LATENCY_TRACKER_CAUSE_THRESHOLD &&
	     lt_custom_key_is_task(&c->def.out_key)))
		return key;
	return siphash_1u64(key, &c->hash_key);
}

/* Report work (process context): the tracepoint with the stack, dmesg. */
static void lt_custom_handle(struct lt_report *r)
{
	struct lt_custom *c =
		container_of(r->owner, struct lt_custom_reports, rs)->c;
	const struct lt_custom_record *a = (const void *)r->data;

	trace_custom(r->cause, r->delay_ns, a, c->def.name,
		     lt_stack_text(r, 0, &a->stack));
	if (!r->print)
		return;
	lt_report_print_suppressed(r->owner);
	pr_info("%s: %s (%d) %llu us\n", c->def.name, a->comm, a->pid,
		div_u64(r->delay_ns, NSEC_PER_USEC));
	lt_report_print_stack(&a->stack);
}

/*
 * Threshold (in the out end's handler) or timeout (the timeout timer):
 * preemption disabled, no sleeping, no printing.
 */
static void lt_custom_cb(const struct latency_tracker_report *r)
{
	const struct lt_custom_priv *priv =
		latency_tracker_event_priv(r->event);
	struct lt_custom *c = lt_custom_of(r->tracker);
	struct lt_custom_record a = { };
	struct lt_report *rep;
	const u64 *key;
	bool print;
	u32 len;

	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		a.pid = current->pid;
		a.tgid = current->tgid;
		lt_comm_get(a.comm, current);
		a.cpu = smp_processor_id();
		a.cgroup = lt_task_cgroup_id(current);
	} else {
		a.pid = priv->pid;
		a.tgid = priv->tgid;
		memcpy(a.comm, priv->comm, TASK_COMM_LEN);
		a.cpu = -1;
		a.cgroup = priv->cgroup;
	}
	key = latency_tracker_event_key(r->event, &len);
	a.key = lt_custom_key_shown(c, *key, r->cause);
	if (!c->def.stack) {
		a.stack.nr = LT_REC_STACK_NONE;
	} else if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		a.stack.modgen = latency_tracker_module_gen();
		a.stack.nr = lt_stack_save_here(a.stack.ip);
	} else if (lt_custom_key_is_task(&c->def.in_key)) {
		lt_stack_save_blocked(a.pid, r->start_ns, &a.stack);
	}
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &a, sizeof(a));
	if (!c->reports) {
		trace_custom(r->cause, r->delay_ns, &a, c->def.name, "");
		return;
	}

	/* Reports: for dmesg or for a tracepoint user only. */
	print = lt_report_may_print(&c->reports->rs, a.tgid,
				    lt_probe_selects(&c->probe));
	if (!print && !trace_custom_enabled())
		return;
	rep = lt_report_get(&c->reports->rs);
	if (!rep) {
		trace_custom(r->cause, r->delay_ns, &a, c->def.name, "");
		return;
	}
	lt_report_fill(rep, r, print, &a, sizeof(a));
	lt_report_queue(rep);
}

static LT_RECORD_FMT(lt_custom_fmt, struct lt_custom_record, LT_CUSTOM_RECORD)

static int lt_custom_stats_show(struct seq_file *m, void *v)
{
	struct lt_custom *c = m->private;

	seq_printf(m, "probe_missed %lu\nkey_faults %ld\n",
		   lt_custom_missed(c), atomic_long_read(&c->key_faults));
	return 0;
}

/* lt_probe.setup: the tracker's own file, next to the standard ones. */
static int lt_custom_setup(struct latency_tracker *t)
{
	if (!proc_create_single_data("custom_stats", 0400,
				     latency_tracker_proc_dir(t),
				     lt_custom_stats_show, lt_custom_of(t)))
		return -ENOMEM;
	return 0;
}

static struct lt_custom *lt_custom_find(const char *name)
{
	struct lt_custom *c;

	list_for_each_entry(c, &lt_custom_list, list)
		if (!strcmp(c->def.name, name))
			return c;
	return NULL;
}

/* Detaches, destroys and frees a tracker that is off the list. */
static void lt_custom_free(struct lt_custom *c)
{
	lt_custom_detach(c);
	lt_probe_stop(&c->probe);
	kvfree(c->reports);
	kfree(c);
}

static int lt_custom_add(const struct lt_custom_def *def)
{
	const struct lt_probe_mparams mp = {
		.threshold = def->threshold_ns,
		.timeout = def->timeout_ns,
		.max_events = def->max_events,
		.alert_records = LT_ALERT_RECORDS,
		.print_interval = LT_PRINT_INTERVAL_NS,
		.kthreads = 1,
	};
	struct lt_custom *c;
	int ret;

	lockdep_assert_held(&lt_custom_lock);
	if (lt_custom_find(def->name)) {
		pr_err("refused: %s: name in use\n", def->name);
		return -EEXIST;
	}
	if (lt_custom_nr >= LT_CUSTOM_TRACKERS_MAX) {
		pr_err("refused: %s: %d custom trackers exist already\n",
		       def->name, LT_CUSTOM_TRACKERS_MAX);
		return -ENOSPC;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->def = *def;
	get_random_bytes(&c->hash_key, sizeof(c->hash_key));
	atomic_long_set(&c->key_faults, 0);
	atomic_long_set(&c->nmi_missed, 0);
	if (def->stack) {
		c->reports = kvzalloc(sizeof(*c->reports), GFP_KERNEL);
		if (!c->reports) {
			ret = -ENOMEM;
			goto err_free;
		}
		c->reports->c = c;
		lt_reports_init(&c->reports->rs, lt_custom_handle);
		c->probe.reports = &c->reports->rs;
	}
	c->probe.params.name = c->def.name;
	c->probe.params.key_size = sizeof(u64);
	c->probe.params.priv_size = sizeof(struct lt_custom_priv);
	c->probe.params.alert_payload = sizeof(struct lt_custom_record);
	c->probe.params.callback = lt_custom_cb;
	c->probe.params.alert_fmt = lt_custom_fmt;
	c->probe.setup = lt_custom_setup;
	ret = lt_probe_start(&c->probe, &mp);
	if (ret)
		goto err_free;
	ret = lt_custom_attach(c);
	if (ret)
		goto err_stop;
	list_add_tail(&c->list, &lt_custom_list);
	lt_custom_nr++;
	return 0;

err_stop:
	lt_probe_stop(&c->probe);
err_free:
	kvfree(c->reports);
	kfree(c);
	return ret;
}

static int lt_custom_del(const char *name)
{
	struct lt_custom *c;

	lockdep_assert_held(&lt_custom_lock);
	c = lt_custom_find(name);
	if (!c) {
		pr_err("refused: del %s: no such custom tracker\n", name);
		return -ENOENT;
	}
	list_del(&c->list);
	lt_custom_nr--;
	lt_custom_free(c);
	return 0;
}

static ssize_t lt_custom_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct lt_custom_cmd *cmd = NULL;
	struct lt_custom_err err;
	char *buf;
	int ret;

	/* One whole line per write(), like the other files. */
	if (count > LT_CUSTOM_LINE_MAX) {
		pr_err("refused: a line longer than %d bytes\n",
		       LT_CUSTOM_LINE_MAX);
		return -EINVAL;
	}
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	if (!cmd) {
		ret = -ENOMEM;
		goto out;
	}
	ret = lt_custom_parse(buf, count, cmd, &err);
	if (ret) {
		lt_custom_refused(&err);
		goto out;
	}
	if (cmd->op == LT_CUSTOM_ADD && cmd->def.app) {
		pr_err("refused: %s: an application tracker, made by writing it to /proc/latency_tracker/app\n",
		       cmd->def.name);
		ret = -EINVAL;
		goto out;
	}
	mutex_lock(&lt_custom_lock);
	if (cmd->op == LT_CUSTOM_ADD)
		ret = lt_custom_add(&cmd->def);
	else
		ret = lt_custom_del(cmd->def.name);
	mutex_unlock(&lt_custom_lock);
out:
	kfree(cmd);
	kfree(buf);
	return ret ? ret : count;
}

static int lt_custom_show(struct seq_file *m, void *v)
{
	struct lt_custom *c;

	mutex_lock(&lt_custom_lock);
	list_for_each_entry(c, &lt_custom_list, list) {
		lt_custom_format(&c->def, lt_custom_line,
				 sizeof(lt_custom_line));
		seq_puts(m, lt_custom_line);
	}
	mutex_unlock(&lt_custom_lock);
	return 0;
}

static int lt_custom_open(struct inode *inode, struct file *file)
{
	return single_open(file, lt_custom_show, NULL);
}

static const struct proc_ops lt_custom_proc_ops = {
	.proc_open = lt_custom_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = lt_custom_write,
};

/* A going module takes the trackers with an end in it out of service. */
static int lt_custom_module_notify(struct notifier_block *nb,
				   unsigned long action, void *data)
{
	struct module *mod = data;
	struct lt_custom *c;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&lt_custom_lock);
	list_for_each_entry(c, &lt_custom_list, list) {
		if (c->gone || !lt_custom_in_module(c, mod))
			continue;
		lt_custom_detach(c);
		latency_tracker_set_enable(c->probe.t, false);
		c->gone = true;
		pr_warn("%s: module %s unloaded: tracker disabled\n",
			c->def.name, mod->name);
	}
	mutex_unlock(&lt_custom_lock);
	return NOTIFY_DONE;
}

static struct notifier_block lt_custom_module_nb = {
	.notifier_call = lt_custom_module_notify,
	/* Before the tracepoints' notifier (0): see the top of this file. */
	.priority = 1,
};

static int __init lt_custom_init(void)
{
	int ret;

	ret = register_module_notifier(&lt_custom_module_nb);
	if (ret)
		return ret;
	if (!proc_create(LT_CUSTOM_FILE, 0600, NULL, &lt_custom_proc_ops)) {
		pr_err("cannot create /proc/%s\n", LT_CUSTOM_FILE);
		unregister_module_notifier(&lt_custom_module_nb);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The file first (no writer after it), then every tracker; the notifier
 * last, so that no module can go unseen while a tracker still has an
 * end in it.
 */
static void __exit lt_custom_exit(void)
{
	struct lt_custom *c, *next;

	remove_proc_entry(LT_CUSTOM_FILE, NULL);
	mutex_lock(&lt_custom_lock);
	list_for_each_entry_safe(c, next, &lt_custom_list, list) {
		list_del(&c->list);
		lt_custom_free(c);
	}
	lt_custom_nr = 0;
	mutex_unlock(&lt_custom_lock);
	unregister_module_notifier(&lt_custom_module_nb);
}

module_init(lt_custom_init);
module_exit(lt_custom_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Trackers defined at run time on kprobes and tracepoints");
