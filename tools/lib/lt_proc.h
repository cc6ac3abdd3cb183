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

#endif /* LT_PROC_H */
