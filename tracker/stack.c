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
 * is never shown.
 */
#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <lt_records/record.h>

#include "alert_fmt.h"

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
 *
 * "function+0xoff/0xsize" (what "%pS" prints, without the module), or "?"
 * for an address kallsyms cannot name, which "%pS" would print raw (a
 * module's init function once its init returned, an unloaded module, a
 * kernel without kallsyms): no kernel address reaches userspace.
 *
 * Context: any context but NMI (meant for process context).
 * Return: @buf or a constant string.
 */
const char *latency_tracker_frame_name(char *buf, size_t len,
				       unsigned long addr)
{
	char *sp;

	if (len < KSYM_SYMBOL_LEN)
		return "?";
	sprint_symbol(buf, addr);
	if (!buf[0] || str_has_prefix(buf, "0x"))
		return "?";
	sp = strchr(buf, ' ');
	if (sp)
		*sp = '\0';
	return buf;
}
EXPORT_SYMBOL_GPL(latency_tracker_frame_name);

/* Frame @i of the addresses @ctx (lt_fmt_frames()). */
static const char *lt_stack_frame_name(const void *ctx, unsigned int i,
				       char *buf, size_t len)
{
	const unsigned long *ip = ctx;

	return latency_tracker_frame_name(buf, len, ip[i]);
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
	unsigned int nr, first;

	if (s->nr == LT_REC_STACK_NONE)
		return;
	nr = min_t(u32, s->nr, LT_REC_STACK_DEPTH);
	first = latency_tracker_stack_first(s->ip, nr);
	lt_fmt_frames(f, key, nr - first, lt_stack_frame_name, s->ip + first,
		      name, sizeof(name), LT_STACK_FIELD_MAX);
}
EXPORT_SYMBOL_GPL(latency_tracker_fmt_stack);
