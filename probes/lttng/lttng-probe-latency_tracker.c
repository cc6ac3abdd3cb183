// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-probe-latency_tracker.c - LTTng probes for the latency_tracker
 * tracepoints (exported by latency_tracker.ko).
 *
 * lttng-sessiond loads this module with
 *	lttng-sessiond --extra-kmod-probes=latency_tracker
 * and the events appear as latency_tracker_wakeup, _offcpu, _syscall,
 * _block and _custom.  lttng-modules attaches them by tracepoint name when
 * latency_tracker.ko is (or later gets) loaded; this module does not link
 * against it.
 */
#include <linux/module.h>
#include <lttng/tracer.h>

/*
 * The kernel-side declarations first: a mismatch between them and the
 * prototypes in latency_tracker_lttng.h fails the build.
 */
#include <lt_trace.h>

#include <wrapper/tracepoint.h>

/* lt_trace.h left its own include path and file defined. */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define LTTNG_PACKAGE_BUILD
#define CREATE_TRACE_POINTS
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE latency_tracker_lttng

#include "latency_tracker_lttng.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LTTng probes for the latency_tracker events");
