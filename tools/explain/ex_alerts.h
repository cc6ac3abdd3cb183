/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_alerts.h - the latency_tracker alert events of an LTTng snapshot, as
 * the alert records they were (`latency-tracker flamegraph` reads
 * snapshots with it).
 *
 * Each event latency_tracker_<event> (probes/lttng/) becomes the struct
 * lt_record of its alert line: ts (the event's time, CLOCK_MONOTONIC
 * ns), tracker (the event's "tracker" field for custom and app, else the
 * event's name; "syscall" is tracker syscalls), cause, delay, then the
 * other fields of the payload as text: integers in decimal, strings and
 * text arrays (comm, state) as they are; stack and waker_stack are
 * strings there.
 */
#ifndef LT_EX_ALERTS_H
#define LT_EX_ALERTS_H

#include <stddef.h>
#include <stdint.h>

#include "lt_record.h"

struct ex_alerts_stats {
	uint64_t events;	/* latency_tracker events read */
	uint64_t malformed;	/* without cause or delay */
	uint64_t discarded;	/* events the tracer discarded (all kinds) */
};

/*
 * Every alert event of the snapshot at path to fn, in time order.
 * Returns 0, or -1 with a one-line message in err (not a trace, not
 * readable: ex_trace_each()).
 */
int ex_alerts_read(const char *path,
		   void (*fn)(void *arg, const struct lt_record *r), void *arg,
		   struct ex_alerts_stats *st, char *err, size_t errlen);

#endif /* LT_EX_ALERTS_H */
