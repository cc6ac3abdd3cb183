/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * alert_fmt.h - building one alert text line: "key=value" fields separated
 * by single spaces, ended by '\n'.
 *
 * Values are escaped as the interface contract says: every byte outside
 * '!'..'~', and '\' and '=', is written as \xHH (two lowercase hex digits),
 * so a value never contains a blank, a newline or a '=' and the line
 * splits unambiguously.  Keys are trusted identifiers written as given.
 *
 * The line is built in a caller-provided buffer and is kept NUL-terminated
 * (two bytes of it are reserved for the final '\n' and the NUL).  A field
 * that does not fit is not written at all, the overflow flag is set and
 * every later field is dropped too: a truncated line ends at the last whole
 * field, and lt_fmt_end() still ends it with '\n'.
 *
 * Formatting happens at read time in process context; the functions only
 * write into the given buffer and work in any context.
 */
#ifndef _LT_ALERT_FMT_H
#define _LT_ALERT_FMT_H

#include "lt_env.h"

/**
 * struct lt_fmt - a line being built.
 * @buf: the buffer.
 * @size: size of @buf in bytes.
 * @len: length of the line so far (without the NUL).
 * @overflow: a field did not fit and was dropped (with all later ones).
 */
struct lt_fmt {
	char *buf;
	size_t size;
	size_t len;
	bool overflow;
};

void lt_fmt_init(struct lt_fmt *f, char *buf, size_t size);
void lt_fmt_u64(struct lt_fmt *f, const char *key, u64 v);
void lt_fmt_s64(struct lt_fmt *f, const char *key, s64 v);
void lt_fmt_str(struct lt_fmt *f, const char *key, const char *s,
		size_t maxlen);
void lt_fmt_raw(struct lt_fmt *f, const char *key, const char *s);

/*
 * Names frame @i of the stack @ctx (lt_fmt_frames()): returns @buf (@len
 * bytes) or a constant string.
 */
typedef const char *(*lt_fmt_frame_name_t)(const void *ctx, unsigned int i,
					   char *buf, size_t len);
void lt_fmt_frames(struct lt_fmt *f, const char *key, unsigned int nr,
		   lt_fmt_frame_name_t name, const void *ctx, char *buf,
		   size_t buf_len, size_t field_max);
size_t lt_fmt_end(struct lt_fmt *f);

#endif /* _LT_ALERT_FMT_H */
