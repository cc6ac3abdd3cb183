/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_custom_target.h - the tracepoints of the test module
 * lt_custom_target.ko (lt_custom_target.c): a module's own tracepoints,
 * which the kernel's tracepoint table does not list, for custom trackers
 * to find by SYSTEM:EVENT and to lose when the module unloads.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lt_custom_target

#if !defined(_LT_CUSTOM_TARGET_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LT_CUSTOM_TARGET_H

#include <linux/tracepoint.h>

/* Emits lt_target_begin, sleeps @ms ms, emits lt_target_end. */
int lt_custom_target_work(unsigned int ms);

DECLARE_EVENT_CLASS(lt_target_work,
	TP_PROTO(unsigned int ms),
	TP_ARGS(ms),
	TP_STRUCT__entry(
		__field(unsigned int, ms)
	),
	TP_fast_assign(
		__entry->ms = ms;
	),
	TP_printk("ms=%u", __entry->ms)
);

DEFINE_EVENT(lt_target_work, lt_target_begin,
	TP_PROTO(unsigned int ms),
	TP_ARGS(ms)
);

DEFINE_EVENT(lt_target_work, lt_target_end,
	TP_PROTO(unsigned int ms),
	TP_ARGS(ms)
);

#endif /* _LT_CUSTOM_TARGET_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lt_custom_target
#include <trace/define_trace.h>
