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
 * Each probe only counts its calls, per CPU (read-only parameter `events`,
 * the sum over CPUs): the bench checks that the probes ran.
 */
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
	return latency_tracker_tp_attach(ltf_tps, ARRAY_SIZE(ltf_tps));
}

static void __exit ltf_exit(void)
{
	latency_tracker_tp_detach(ltf_tps, ARRAY_SIZE(ltf_tps));
}

module_init(ltf_init);
module_exit(ltf_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Empty probes on the equal-work tracepoints (bench floor)");
