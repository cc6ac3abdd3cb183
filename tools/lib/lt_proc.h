/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_proc.h - the /proc/latency_tracker/<tracker>/ files (docs/design.md,
 * "Procfs"): listing trackers, reading and writing knobs, reading whole
 * files.  The root is /proc/latency_tracker, or $LT_PROC_ROOT (a fake tree
 * for tests).
 */
#ifndef LT_PROC_H
#define LT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_PROC_DEFAULT_ROOT	"/proc/latency_tracker"

/*
 * The alert record format these tools read (docs/design.md, "Alert
 * records").  <root>/version holds the format the modules write: one
 * decimal number and a newline.  Modules older than that file write
 * format 1.  A tool that finds another number refuses to work with one
 * line saying so (lt_proc_check()).
 */
#include "../../include/lt_records/format.h"	/* LT_RECORD_FORMAT */
#define LT_RECORD_FORMAT_NO_FILE	1
#define LT_PROC_VERSION_FILE	"version"

enum lt_knob_kind {
	LT_KNOB_DURATION,	/* ns, shown with units */
	LT_KNOB_BOOL,		/* 0/1 */
	LT_KNOB_TEXT,		/* a filter's text (lt_filter.h) */
};

struct lt_knob {
	const char *name;
	enum lt_knob_kind kind;
	const char *help;
};

extern const struct lt_knob lt_knobs[];
extern const size_t lt_nknobs;

const char *lt_proc_root(void);

/*
 * The record format of the modules: 0 and *format, or -errno: -ENOENT
 * (no root: the core module is not loaded), -EACCES (the root is
 * root-only), -EPROTO (the version file holds no number).  A root without
 * a version file (modules older than that file) gives
 * LT_RECORD_FORMAT_NO_FILE.
 */
int lt_proc_format(unsigned long *format);

/*
 * Whether the tools can use the root, by trying it (an open, no uid
 * check): 0, or -errno with one line in why[size] (no newline):
 * -ENOENT, -EACCES, -EPROTO as above, -EPROTONOSUPPORT (the modules
 * write another record format than LT_RECORD_FORMAT).
 */
int lt_proc_check(char *why, size_t size);

const struct lt_knob *lt_knob_find(const char *name);

/* A tracker name is one path component, not "." or "..". */
bool lt_tracker_name_ok(const char *name);
bool lt_tracker_exists(const char *name);

/*
 * Sorted names of the loaded trackers (*names NULL-terminated; free with
 * lt_tracker_list_free).  Returns their number, or -errno (-ENOENT: the
 * core module is not loaded).
 */
int lt_tracker_list(char ***names);
void lt_tracker_list_free(char **names);

/* "wakeup, offcpu" into buf, for error messages. */
char *lt_tracker_list_str(char *buf, size_t size);

/* Path of <root>/<tracker>/<file>. */
int lt_proc_path(char *buf, size_t size, const char *tracker,
		 const char *file);

/* Whole file into a NUL-terminated malloc'ed buffer; NULL + errno. */
char *lt_proc_read_file(const char *tracker, const char *file);

int lt_knob_read(const char *tracker, const char *knob, uint64_t *v);
/* Returns 0 or -errno (-EINVAL: the kernel refused the value). */
int lt_knob_write(const char *tracker, const char *knob, uint64_t v);
/* A text knob: @val and a newline, in one write(); 0 or -errno. */
int lt_text_write(const char *tracker, const char *knob, const char *val);

/*
 * A file of the root itself, <root>/<file> (custom): read whole (NULL +
 * errno), or written as @val and a newline in one write() (0 or -errno).
 * Both open it with O_NONBLOCK, so that a FIFO standing in for it in a
 * fake tree never blocks them.
 */
char *lt_proc_root_read(const char *file);
int lt_proc_root_write(const char *file, const char *val);

#endif /* LT_PROC_H */
