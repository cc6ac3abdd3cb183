/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/trackers.h - every tracker, once.
 *
 * X(module, event, record, TABLE): a tracker of the module
 * latency_tracker_<module>.ko, built from probes/<module>.c and the probe
 * layer (probes/Kbuild reads this list; a module that holds several
 * trackers has one line per tracker), its record struct
 * lt_<record>_record and field tables LT_<TABLE>_RECORD /
 * LT_<TABLE>_TRACE_ONLY (lt_records/<record>.h), and its tracepoint
 * latency_tracker:<event>.  The list drives the ftrace
 * events (tracker/lt_trace.h) and their exports (tracker/events.c), the
 * LTTng events (probes/lttng/latency_tracker_lttng.h), the modules that
 * kbuild builds (probes/Kbuild) and that DKMS installs (dkms.conf).
 * One line per tracker, "\tX(" first: the build files read it with sed.
 */
#ifndef _LT_RECORDS_TRACKERS_H
#define _LT_RECORDS_TRACKERS_H

#include "app.h"
#include "block.h"
#include "custom.h"
#include "irq.h"
#include "lock.h"
#include "net.h"
#include "offcpu.h"
#include "syscalls.h"
#include "wakeup.h"

#define LT_TRACKERS(X)							\
	X(wakeup, wakeup, wakeup, WAKEUP)				\
	X(offcpu, offcpu, offcpu, OFFCPU)				\
	X(syscalls, syscall, syscalls, SYSCALLS)			\
	X(block, block, block, BLOCK)					\
	X(custom, custom, custom, CUSTOM)				\
	X(app, app, app, APP)						\
	X(irq, irq, irq, IRQ)						\
	X(lock, lock, lock, LOCK)					\
	X(net, ttfb, ttfb, TTFB)					\
	X(net, netrx, netrx, NETRX)

#endif /* _LT_RECORDS_TRACKERS_H */
