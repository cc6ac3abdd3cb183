// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_floor.c - the floor of the equal-work workloads (make bench; test-only,
 * never installed): one empty probe on each tracepoint that every
 * equal-work configuration needs (sched_waking, sched_switch, sys_enter,
 * sys_exit), so that the bench can say how much of a configuration's
 * slowdown is the price of having those tracepoints on at all (the static
 * keys flipped, the probe calls, and for the system call tracepoints the
 * slow path of every system call) and how much is its own work.
 *
 * With func=FUNC, the floor of the custom part instead: a kretprobe with
 * an entry handler on FUNC, both empty, every call's return hooked (as a
 * fn= tracker hooks every call whose event started), the price every
 * configuration of that part pays before doing any work (a kprobe on the
 * function's ftrace site, the return through rethook).
 *
 * Each probe only counts its calls, per CPU (read-only parameter `events`,
 * the sum over CPUs): the bench checks that the probes ran.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

#include <latency_tracker.h>

static DEFINE_PER_CPU(unsigned long, ltf_events);

static void ltf_waking(void *data, struct task_struct *p)
{
	this_cpu_inc(ltf_events);
}

static void ltf_switch(void *data, bool preempt, struct task_struct *prev,
		       struct task_struct *next, unsigned int prev_state)
{
	this_cpu_inc(ltf_events);
}

static void ltf_sys_enter(void *data, struct pt_regs *regs, long id)
{
	this_cpu_inc(ltf_events);
}

static void ltf_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	this_cpu_inc(ltf_events);
}

#define LTF_TPS(X)				\
	X(sched_waking, ltf_waking)		\
	X(sched_switch, ltf_switch)		\
	X(sys_enter, ltf_sys_enter)		\
	X(sys_exit, ltf_sys_exit)
#define LTF_CHECK(tp, fn)	check_trace_callback_type_##tp(fn);
#define LTF_ENTRY(tp, fn)	{ .name = #tp, .probe = fn },

/* Never called: a probe not of its tracepoint's type fails the build. */
static inline void __maybe_unused ltf_check_types(void)
{
	LTF_TPS(LTF_CHECK)
}

static struct latency_tracker_tp ltf_tps[] = { LTF_TPS(LTF_ENTRY) };

static char *func;
module_param(func, charp, 0400);
MODULE_PARM_DESC(func, "a function: an empty kretprobe on it, no tracepoint probe");

/* 0: the return is hooked. */
static int ltf_fn_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static int ltf_fn_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	this_cpu_inc(ltf_events);
	return 0;
}

/* As many instances as a custom tracker's kretprobe has at most. */
static struct kretprobe ltf_fn = {
	.entry_handler = ltf_fn_entry,
	.handler = ltf_fn_return,
	.maxactive = 4096,
};

static int ltf_events_get(char *buf, const struct kernel_param *kp)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(ltf_events, cpu);
	return sysfs_emit(buf, "%lu\n", sum);
}

static const struct kernel_param_ops ltf_events_ops = {
	.get = ltf_events_get,
};
module_param_cb(events, &ltf_events_ops, NULL, 0400);
MODULE_PARM_DESC(events, "probe calls so far (read-only)");

static int __init ltf_init(void)
{
	if (func) {
		ltf_fn.kp.symbol_name = func;
		return register_kretprobe(&ltf_fn);
	}
	return latency_tracker_tp_attach(ltf_tps, ARRAY_SIZE(ltf_tps));
}

static void __exit ltf_exit(void)
{
	if (func)
		unregister_kretprobe(&ltf_fn);
	else
		latency_tracker_tp_detach(ltf_tps, ARRAY_SIZE(ltf_tps));
}

module_init(ltf_init);
module_exit(ltf_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Empty probes on the equal-work tracepoints or a function (bench floor)");
