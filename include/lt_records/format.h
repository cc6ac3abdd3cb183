/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/format.h - the alert record format version, defined once for
 * the modules and the tools.
 *
 * The modules show it in /proc/latency_tracker/version (docs/design.md);
 * the tools (tools/lib/lt_proc.c) refuse modules that write another one.
 * Raise it when a record changes in a way an older reader would misread
 * (a field renamed, removed or given another meaning); a field added at
 * the end of a record keeps the format (readers take name=value pairs).
 * No include: the tools include this file as it is.
 */
#ifndef LT_RECORDS_FORMAT_H
#define LT_RECORDS_FORMAT_H

/*
 * 2: offcpu, syscalls and custom (stack=1) records carry their kernel
 * stacks, lines up to 4 KiB.
 */
#define LT_RECORD_FORMAT	2

#endif
