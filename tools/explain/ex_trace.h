/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_trace.h - read an LTTng kernel trace directory (libbabeltrace2) into
 * the state model.
 */
#ifndef LT_EX_TRACE_H
#define LT_EX_TRACE_H

#include <stddef.h>

struct ex_model;

/* Read every CTF trace under path into m (initialised by the caller) and
 * finish the model.  -1 with a one-line message in err: not a directory,
 * no CTF metadata, unreadable, no scheduler events. */
int ex_trace_read(const char *path, struct ex_model *m, char *err,
		  size_t errlen);

#endif /* LT_EX_TRACE_H */
