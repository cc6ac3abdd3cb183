// SPDX-License-Identifier: GPL-2.0-only
/*
 * events.c - instantiates the latency_tracker tracepoints (lt_trace.h)
 * and exports them to the tracker modules, one per tracker of
 * lt_records/trackers.h.
 */
#include <linux/export.h>
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "lt_trace.h"

#define LT_TRACKER_EXPORT(module, event, record, TABLE)	EXPORT_TRACEPOINT_SYMBOL_GPL(event);
LT_TRACKERS(LT_TRACKER_EXPORT)
