// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_custom_target.c - a module that custom trackers probe in the tests
 * (custom-refusals.sh, custom-unload.sh): a function of a module, and
 * tracepoints of a module, both gone when it unloads.
 *
 * A write of N (decimal, 0..10000) to /proc/lt_custom_target (0200) calls
 * lt_custom_target_work(N) in the writer's context: it emits
 * lt_custom_target:lt_target_begin, sleeps N ms and emits
 * lt_custom_target:lt_target_end.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include "lt_custom_target.h"

#define LTT_TARGET_MS_MAX	10000

/* Not inlined and not static: a function of its own in kallsyms. */
noinline int lt_custom_target_work(unsigned int ms)
{
	trace_lt_target_begin(ms);
	msleep(ms);
	trace_lt_target_end(ms);
	return ms;
}

static ssize_t ltt_target_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &ms);
	if (ret)
		return ret;
	if (ms > LTT_TARGET_MS_MAX)
		return -EINVAL;
	lt_custom_target_work(ms);
	return count;
}

static const struct proc_ops ltt_target_ops = {
	.proc_write = ltt_target_write,
};

static int __init ltt_target_init(void)
{
	if (!proc_create("lt_custom_target", 0200, NULL, &ltt_target_ops))
		return -ENOMEM;
	return 0;
}

static void __exit ltt_target_exit(void)
{
	remove_proc_entry("lt_custom_target", NULL);
}

module_init(ltt_target_init);
module_exit(ltt_target_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test target of latency_tracker_custom: a function and tracepoints");
