// SPDX-License-Identifier: GPL-2.0-only
/*
 * alert_fmt.c - building one alert text line (see alert_fmt.h).
 */
#include "lt_env.h"
#include "alert_fmt.h"

/* Bytes of the buffer kept for the final '\n' and the NUL. */
#define LT_FMT_RESERVE		2
/* Digits of the largest u64. */
#define LT_FMT_U64_DIGITS	20

/* Longest line the fields may take (the reserve excluded). */
static size_t lt_fmt_limit(const struct lt_fmt *f)
{
	return f->size >= LT_FMT_RESERVE ? f->size - LT_FMT_RESERVE : 0;
}

/*
 * Append one character of the current field.  Past the limit nothing is
 * stored but len still counts, so lt_fmt_field_end() sees the field did
 * not fit.
 */
static void lt_fmt_putc(struct lt_fmt *f, char c)
{
	if (f->len < lt_fmt_limit(f))
		f->buf[f->len] = c;
	f->len++;
}

static bool lt_fmt_full(const struct lt_fmt *f)
{
	return f->len > lt_fmt_limit(f);
}

/*
 * Start a field: separator, key, '='.  Returns false (write nothing) once
 * the line has overflowed; else *start is where the field began.
 */
static bool lt_fmt_field_begin(struct lt_fmt *f, const char *key,
			       size_t *start)
{
	if (f->overflow)
		return false;
	*start = f->len;
	if (f->len)
		lt_fmt_putc(f, ' ');
	while (*key)
		lt_fmt_putc(f, *key++);
	lt_fmt_putc(f, '=');
	return true;
}

/* Keep the field if it fit, else cut the line back to before it. */
static void lt_fmt_field_end(struct lt_fmt *f, size_t start)
{
	if (lt_fmt_full(f)) {
		f->len = start;
		f->overflow = true;
	}
	if (f->len < f->size)
		f->buf[f->len] = '\0';
}

static void lt_fmt_digits(struct lt_fmt *f, u64 v)
{
	char digits[LT_FMT_U64_DIGITS];
	unsigned int n = 0;

	do {
		digits[n++] = '0' + (char)(v % 10);
		v /= 10;
	} while (v);
	while (n)
		lt_fmt_putc(f, digits[--n]);
}

/**
 * lt_fmt_init() - start an empty line.
 * @f: the line.
 * @buf: the buffer to build it in.
 * @size: size of @buf; a line of N characters needs N + 2 bytes.
 *
 * Context: Any context.
 */
void lt_fmt_init(struct lt_fmt *f, char *buf, size_t size)
{
	f->buf = buf;
	f->size = size;
	f->len = 0;
	f->overflow = false;
	if (size)
		buf[0] = '\0';
}

/**
 * lt_fmt_u64() - append "key=<decimal>".
 * @f: the line.
 * @key: the field name.
 * @v: the value.
 *
 * Context: Any context.
 */
void lt_fmt_u64(struct lt_fmt *f, const char *key, u64 v)
{
	size_t start;

	if (!lt_fmt_field_begin(f, key, &start))
		return;
	lt_fmt_digits(f, v);
	lt_fmt_field_end(f, start);
}

/**
 * lt_fmt_s64() - append "key=<decimal>", with '-' when negative.
 * @f: the line.
 * @key: the field name.
 * @v: the value.
 *
 * Context: Any context.
 */
void lt_fmt_s64(struct lt_fmt *f, const char *key, s64 v)
{
	size_t start;

	if (!lt_fmt_field_begin(f, key, &start))
		return;
	if (v < 0) {
		lt_fmt_putc(f, '-');
		/* Negate in u64: correct for S64_MIN too. */
		lt_fmt_digits(f, 0 - (u64)v);
	} else {
		lt_fmt_digits(f, (u64)v);
	}
	lt_fmt_field_end(f, start);
}

/* Escaped bytes of a value being written (see lt_fmt_str()). */
static void lt_fmt_escaped(struct lt_fmt *f, const char *s, size_t maxlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;
	u8 c;

	for (i = 0; i < maxlen && s[i] && !lt_fmt_full(f); i++) {
		c = (u8)s[i];
		if (c < '!' || c > '~' || c == '\\' || c == '=') {
			lt_fmt_putc(f, '\\');
			lt_fmt_putc(f, 'x');
			lt_fmt_putc(f, hex[c >> 4]);
			lt_fmt_putc(f, hex[c & 0xf]);
		} else {
			lt_fmt_putc(f, (char)c);
		}
	}
}

/**
 * lt_fmt_str() - append "key=<escaped bytes>".
 * @f: the line.
 * @key: the field name.
 * @s: the value bytes (may be empty: "key=").
 * @maxlen: at most this many bytes of @s are used; a NUL ends it earlier.
 *
 * Bytes outside '!'..'~', and '\' and '=', are written as \xHH.
 *
 * Context: Any context.
 */
void lt_fmt_str(struct lt_fmt *f, const char *key, const char *s,
		size_t maxlen)
{
	size_t start;

	if (!lt_fmt_field_begin(f, key, &start))
		return;
	lt_fmt_escaped(f, s, maxlen);
	lt_fmt_field_end(f, start);
}

/**
 * lt_fmt_frames() - append "key=<frame>;<frame>;..." (a stack).
 * @f: the line.
 * @key: the field name.
 * @nr: how many frames, innermost first.
 * @name: names frame i of @ctx (escaped here like any value); @buf is
 *	@buf_len bytes the function may use.
 * @ctx: the stack, for @name.
 * @buf: scratch for @name.
 * @buf_len: its size.
 * @field_max: the most characters of the value.
 *
 * Frames are kept whole: the value ends at the last frame that fits in
 * @field_max and in the line, so a deep stack shortens the field, never
 * drops it; "key=" alone when not even one fits.
 *
 * Context: Any context (that of @name).
 */
void lt_fmt_frames(struct lt_fmt *f, const char *key, unsigned int nr,
		   lt_fmt_frame_name_t name, const void *ctx, char *buf,
		   size_t buf_len, size_t field_max)
{
	size_t start, value, mark;
	unsigned int i;

	if (!lt_fmt_field_begin(f, key, &start))
		return;
	value = f->len;
	for (i = 0; i < nr; i++) {
		mark = f->len;
		if (i)
			lt_fmt_putc(f, ';');
		lt_fmt_escaped(f, name(ctx, i, buf, buf_len), SIZE_MAX);
		if (lt_fmt_full(f) || f->len - value > field_max) {
			f->len = mark;
			break;
		}
	}
	lt_fmt_field_end(f, start);
}

/**
 * lt_fmt_raw() - append "key=<value>" for a trusted NUL-terminated value.
 * @f: the line.
 * @key: the field name.
 * @s: the value, e.g. "threshold"; escaped all the same.
 *
 * Context: Any context.
 */
void lt_fmt_raw(struct lt_fmt *f, const char *key, const char *s)
{
	lt_fmt_str(f, key, s, SIZE_MAX);
}

/**
 * lt_fmt_end() - end the line with '\n'.
 * @f: the line.
 *
 * Call once, after the last field.  The buffer then holds the line, its
 * '\n' and a NUL.  A buffer of fewer than 2 bytes cannot hold even the
 * '\n': then 0 is returned and the overflow flag set.
 *
 * Context: Any context.
 * Return: length of the line including the '\n' (not the NUL).
 */
size_t lt_fmt_end(struct lt_fmt *f)
{
	if (f->size < LT_FMT_RESERVE) {
		f->overflow = true;
		return 0;
	}
	f->buf[f->len++] = '\n';
	f->buf[f->len] = '\0';
	return f->len;
}
