// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_proto_check.c - shows that LT_PROBE_TPS (probes/common/probe.h)
 * checks a probe attached by name against its tracepoint's prototype at
 * build time.  tests/lint.sh builds it twice and never loads it:
 *   as is            its sched_switch probe has the tracepoint's prototype
 *                    (prev_state, since v5.18): it must build;
 *   LT_PROTO_WRONG=1 the probe has the prototype sched_switch had before
 *                    v5.18 (no prev_state), as a tracker written for
 *                    another kernel would: the build must fail with an
 *                    incompatible pointer type passed to
 *                    check_trace_callback_type_sched_switch().
 */
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <trace/events/sched.h>

#include "common/probe.h"

#ifdef LT_PROTO_WRONG
static void lt_proto_probe_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next)
{
}
#else
static void lt_proto_probe_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
}
#endif

#define LT_PROTO_TPS(X)	X(sched_switch, lt_proto_probe_switch)
LT_PROBE_TPS(lt_proto_tps, LT_PROTO_TPS);

static int __init lt_proto_check_init(void)
{
	return lt_proto_tps[0].probe ? 0 : -EINVAL;
}
module_init(lt_proto_check_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latency_tracker test: probe prototypes checked at build time (never loaded)");
