// SPDX-License-Identifier: GPL-2.0-only
/*
 * events.c - instantiates the latency_tracker tracepoints (lt_trace.h)
 * and exports them to the tracker modules.
 */
#include <linux/export.h>
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "lt_trace.h"

EXPORT_TRACEPOINT_SYMBOL_GPL(wakeup);
EXPORT_TRACEPOINT_SYMBOL_GPL(offcpu);
EXPORT_TRACEPOINT_SYMBOL_GPL(syscall);
EXPORT_TRACEPOINT_SYMBOL_GPL(block);
EXPORT_TRACEPOINT_SYMBOL_GPL(custom);
