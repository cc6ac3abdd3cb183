/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_filter.h - the filters of a tracker (docs/design.md, "Filters"), as
 * the CLI and the daemon write them: a value as a person types it, made
 * into what the kernel's file takes.
 *
 *	filter_cgroup	a cgroup v2 path: /sys/fs/cgroup/a/b, /a/b, or a/b
 *			(from the cgroup root) -> as given, or /a/b
 *	filter_tgid	process ids separated by commas or blanks -> 12,34
 *	filter_dev	major:minor or a block device node (/dev/sda),
 *			separated by commas or blanks -> 8:0,8:16
 *	kthreads	1/0, on/off, yes/no -> 1 or 0
 *
 * An empty value (or "none", "off" for the lists) clears the filter.
 */
#ifndef LT_FILTER_H
#define LT_FILTER_H

#include <stdbool.h>
#include <stddef.h>

/* True for the name of a filter file. */
bool lt_filter_is(const char *knob);

/*
 * The kernel's form of @in for filter @knob into @out; 0, or -1 with a
 * one-line reason in @err.
 */
int lt_filter_value(const char *knob, const char *in, char *out, size_t size,
		    char *err, size_t errlen);

#endif /* LT_FILTER_H */
