/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_num.h - numbers as people write them: strict decimals, durations with
 * units ("5ms", "200us", "1.5s", "100ns"; "5µs" with a micro sign or a
 * Greek mu, in UTF-8, is "5us"; a bare number is nanoseconds) and sizes ("512", "64K", "100M", "2G"; powers of 1024).
 *
 * Parsers accept the whole string or nothing: no blanks, no sign, no
 * trailing garbage; overflow of uint64_t is an error.  They return 0, or
 * -1 and leave *out unchanged.
 */
#ifndef LT_NUM_H
#define LT_NUM_H

#include <stddef.h>
#include <stdint.h>

#define LT_NSEC_PER_USEC	1000ULL
#define LT_NSEC_PER_MSEC	1000000ULL
#define LT_NSEC_PER_SEC		1000000000ULL

int lt_parse_u64(const char *s, uint64_t *out);
/* A decimal up to 2^128 - 1 (the `sum_ns` line of stats). */
int lt_parse_u128(const char *s, unsigned __int128 *out);
/* @v in decimal into @buf (40 bytes hold any value).  Returns buf. */
char *lt_format_u128(unsigned __int128 v, char *buf, size_t size);
int lt_parse_duration(const char *s, uint64_t *ns);
int lt_parse_size(const char *s, uint64_t *bytes);

/*
 * An instant of CLOCK_MONOTONIC, as the tools print one: in ns (an alert
 * record's ts, a bare number), or in seconds with up to 9 decimals as
 * `latency-tracker follow` prints it ("1234.567890"); also any duration
 * with its unit ("1234s", "1500ms": that long after boot).
 */
int lt_parse_instant(const char *s, uint64_t *ns);

/*
 * "5ms", "1.5s", "200us", "17ns": the largest unit in which the value has
 * at most 3 decimals, trailing zeros dropped.  Returns buf.
 */
char *lt_format_duration(uint64_t ns, char *buf, size_t size);

/* "1.235ms": about 4 significant digits, for display only. */
char *lt_format_duration_short(uint64_t ns, char *buf, size_t size);

/* The value of a hex digit (either case), or -1. */
int lt_hexval(char c);

#endif /* LT_NUM_H */
