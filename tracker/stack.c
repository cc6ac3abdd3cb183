// SPDX-License-Identifier: GPL-2.0-only
/*
 * stack.c - kernel stacks as text: the frames worth showing of a saved
 * stack and their names, for alert records (the STACK field kind of
 * lt_records/record.h), our tracepoints and dmesg.
 *
 * A stack is saved as return addresses (stack_trace_save*()) wherever the
 * tracker is, often under the runqueue lock; naming its frames (kallsyms)
 * waits for process context: the read of an alert record, a report's
 * work item.  A frame is named as "%pS" prints it without the module,
 * function+0xoff/0xsize, and "?" where kallsyms has no name: an address
 * is never shown.  A frame in module text is "?" too once a module came,
 * went live or went after the stack was saved (the modules' generation,
 * latency_tracker_module_gen()): the address may have been freed (an init
 * function's, once it returned; an unloaded module's) and be given
 * another name by then -- a later module's function there, or the name
 * ftrace keeps of a freed init function that was there before.
 */
#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/string.h>
#include <lt_records/record.h>
#include <latency_tracker_compat.h>

#include "alert_fmt.h"
#include "core.h"

/* Counted by the notifier below; read anywhere. */
atomic_t latency_tracker_modgen = ATOMIC_INIT(0);
EXPORT_SYMBOL_GPL(latency_tracker_modgen);

/*
 * Every change of module text: coming (the text is a new module's),
 * live (its init text is freed after), going.  The increment precedes the
 * change it announces: the notifiers run before the text is freed.  Two
 * modules may load at once (the chain's rwsem is taken for reading), so
 * the count is atomic.
 */
static int lt_module_notify(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	atomic_inc(&latency_tracker_modgen);
	/* Before the text changes: pairs with the reader's smp_mb(). */
	smp_mb__after_atomic();
	return NOTIFY_DONE;
}

static struct notifier_block lt_module_nb = {
	.notifier_call = lt_module_notify,
};

/* Called from the core's init and exit. */
int lt_stack_init(void)
{
	return register_module_notifier(&lt_module_nb);
}

void lt_stack_exit(void)
{
	unregister_module_notifier(&lt_module_nb);
}

/* Most characters of a stack field's value: 16 frames of ~60. */
#define LT_STACK_FIELD_MAX	1024

/*
 * Scheduler code a stack goes through when its task leaves the CPU:
 * __schedule, schedule*, io_schedule*, preempt_schedule*, and the
 * preemption points (_cond_resched, __cond_resched).
 */
static const char *const lt_sched_frames[] = {
	"__schedule", "schedule", "io_schedule", "preempt_schedule",
	"_cond_resched", "__cond_resched",
};

/*
 * The code between a traced event and a probe: kprobes and kretprobes,
 * ftrace, tracepoints (__traceiter_*), the int3 path of a kprobe.
 */
static const char *const lt_machinery_frames[] = {
	"kprobe", "__kprobe", "aggr_pre_handler", "opt_pre_handler",
	"optimized_callback", "optprobe", "pre_handler_kretprobe",
	"kretprobe", "__kretprobe", "rethook", "__rethook", "arch_rethook",
	"ftrace", "arch_ftrace", "__traceiter_", "asm_exc_int3", "exc_int3",
	"do_int3", "int3",
};

/* Module of our probes, as sprint_symbol() appends it. */
#define LT_OUR_MODULES	" [latency_tracker"

static bool lt_has_prefix(const char *name, const char *const *prefixes,
			  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (str_has_prefix(name, prefixes[i]))
			return true;
	return false;
}

/* A frame of ours or of the tracing machinery, or one without a name. */
static bool lt_frame_is_machinery(unsigned long addr)
{
	char name[KSYM_SYMBOL_LEN];

	sprint_symbol(name, addr);
	return !name[0] || str_has_prefix(name, "0x") ||
	       strstr(name, LT_OUR_MODULES) ||
	       lt_has_prefix(name, lt_machinery_frames,
			     ARRAY_SIZE(lt_machinery_frames));
}

static bool lt_frame_is_sched(unsigned long addr)
{
	char name[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(name, addr);
	return lt_has_prefix(name, lt_sched_frames,
			     ARRAY_SIZE(lt_sched_frames));
}

/**
 * latency_tracker_stack_first() - the first frame of a stack worth showing
 * @ips: return addresses, innermost first.
 * @nr: how many.
 *
 * The frames on top that belong to our probes or to the tracing machinery
 * that called them (a stack saved in a probe, of the current task) are
 * skipped, then every frame up to the outermost scheduler one (a stack of
 * a task that left the CPU: saved in our sched_switch probe, it starts
 * with the probe and __schedule(); saved from a blocked task, at
 * __schedule()): both show from the code that blocked (do_nanosleep,
 * pipe_read, ...).  A stack made only of such frames is shown whole.
 *
 * Context: any context but NMI (kallsyms lookups: meant for process
 * context, where stacks are formatted).
 * Return: the index of that frame, < @nr unless @nr is 0.
 */
unsigned int latency_tracker_stack_first(const unsigned long *ips,
					 unsigned int nr)
{
	unsigned int i, top = 0, first;

	while (top < nr && lt_frame_is_machinery(ips[top]))
		top++;
	first = top;
	for (i = top; i < nr; i++)
		if (lt_frame_is_sched(ips[i]))
			first = i + 1;
	return first < nr ? first : 0;
}
EXPORT_SYMBOL_GPL(latency_tracker_stack_first);

/**
 * latency_tracker_frame_name() - the name of one frame
 * @buf: scratch, at least KSYM_SYMBOL_LEN bytes.
 * @len: its size.
 * @addr: a return address.
 * @modgen: latency_tracker_module_gen() read before the stack was saved.
 *
 * "function+0xoff/0xsize" (what "%pS" prints, without the module), or "?"
 * for an address kallsyms cannot name, which "%pS" would print raw (an
 * unloaded module, a kernel without kallsyms), and for one in module text
 * when the modules' generation moved since @modgen (a module's init
 * function once its init returned, an unloaded module, a module loaded
 * after: the name may not be the frame's): no kernel address reaches
 * userspace, no frame is given a name that was not its own.
 *
 * Context: any context but NMI (meant for process context).
 * Return: @buf or a constant string.
 */
const char *latency_tracker_frame_name(char *buf, size_t len,
				       unsigned long addr, u32 modgen)
{
	char *sp;

	if (len < KSYM_SYMBOL_LEN)
		return "?";
	sprint_symbol(buf, addr);
	/* The name before the generation: pairs with lt_module_notify(). */
	smp_mb();
	if (!buf[0] || str_has_prefix(buf, "0x") ||
	    (lt_in_module_area(addr) &&
	     (u32)atomic_read(&latency_tracker_modgen) != modgen))
		return "?";
	sp = strchr(buf, ' ');
	if (sp)
		*sp = '\0';
	return buf;
}
EXPORT_SYMBOL_GPL(latency_tracker_frame_name);

/* Frame @i of the stack @ctx from its first frame shown (lt_fmt_frames()). */
struct lt_stack_from {
	const struct lt_rec_stack *s;
	unsigned int first;
};

static const char *lt_stack_frame_name(const void *ctx, unsigned int i,
				       char *buf, size_t len)
{
	const struct lt_stack_from *from = ctx;

	return latency_tracker_frame_name(buf, len, from->s->ip[from->first + i],
					  from->s->modgen);
}

/**
 * latency_tracker_fmt_stack() - append ` key=<frame>;<frame>;...`
 * @f: the formatter given to the alert_fmt callback.
 * @key: field name.
 * @s: the stack; nothing is appended when its nr is LT_REC_STACK_NONE.
 *
 * The frames from latency_tracker_stack_first() on, innermost first,
 * named by latency_tracker_frame_name(), at most LT_STACK_FIELD_MAX
 * characters of them (whole frames); empty for a stack of no frame.
 *
 * Context: process context (inside an alert_fmt callback).
 */
void latency_tracker_fmt_stack(struct lt_fmt *f, const char *key,
			       const struct lt_rec_stack *s)
{
	char name[KSYM_SYMBOL_LEN];
	struct lt_stack_from from = { .s = s };
	unsigned int nr;

	if (s->nr == LT_REC_STACK_NONE)
		return;
	nr = min_t(u32, s->nr, LT_REC_STACK_DEPTH);
	from.first = latency_tracker_stack_first(s->ip, nr);
	lt_fmt_frames(f, key, nr - from.first, lt_stack_frame_name, &from,
		      name, sizeof(name), LT_STACK_FIELD_MAX);
}
EXPORT_SYMBOL_GPL(latency_tracker_fmt_stack);
