/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_trace.h - read an LTTng kernel trace directory (libbabeltrace2) into
 * the state model.
 */
#ifndef LT_EX_TRACE_H
#define LT_EX_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct ex_model;
struct bt_message;

/* Read every CTF trace under path into m (initialised by the caller) and
 * finish the model.  -1 with a one-line message in err: not a directory,
 * no CTF metadata, unreadable, no scheduler events. */
int ex_trace_read(const char *path, struct ex_model *m, char *err,
		  size_t errlen);

/*
 * The reading alone, for other readers (ex_alerts.c): every event message
 * of the CTF traces under path, in time order, to fn; the events the
 * tracer discarded added to *discarded (when not NULL).  -1 with a
 * one-line message in err as above (the trace's contents unchecked).
 */
typedef void (*ex_trace_event_fn)(void *arg, const struct bt_message *msg);
int ex_trace_each(const char *path, ex_trace_event_fn fn, void *arg,
		  uint64_t *discarded, char *err, size_t errlen);
/* The event's time in ns (CLOCK_MONOTONIC, see ex_trace.c); -1 without. */
int ex_trace_msg_ns(const struct bt_message *msg, uint64_t *ns);

#endif /* LT_EX_TRACE_H */
