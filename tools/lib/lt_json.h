/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_json.h - the one JSON string writer of the tools: latency-trackerd's
 * log, `latency-tracker follow --json` and the other --json outputs of the
 * CLI, and `latency-tracker explain --format json` all write strings with
 * it.
 *
 * Kernel strings (comm, file names) are bytes, not text.  The output is
 * always valid JSON and valid UTF-8, and loses nothing:
 *
 *   - '"' and '\' are escaped as \" and \\; control characters as \b \f
 *     \n \r \t or \u00XX (0x00-0x1f), and DEL as \u007f;
 *   - a well-formed UTF-8 sequence (lt_utf8.h) is written as it is, so
 *     "café" stays "café"; except U+2028 and U+2029, written \u2028 and
 *     \u2029 (JSON allows them raw, JavaScript source does not);
 *   - every other byte B (0x80-0xff outside a well-formed sequence) is
 *     written \udcXX, XX = B in hex: the code point U+DC00 + B, a lone
 *     low surrogate that no UTF-8 text can contain.
 *
 * Getting the bytes back: after parsing, a code point from U+DC80 to
 * U+DCFF stands for the byte (code point - 0xDC00); every other code point
 * is UTF-8 encoded.  This is Python's "surrogateescape" (PEP 383):
 *
 *     raw = json.loads(line)["comm"].encode("utf-8", "surrogateescape")
 *
 * RFC 8259 (section 8.2) allows lone surrogates in JSON strings; some
 * parsers (Go's encoding/json, jq) turn them into U+FFFD, so they still
 * read the line, with the invalid bytes replaced.
 */
#ifndef LT_JSON_H
#define LT_JSON_H

#include <stddef.h>
#include <stdio.h>

/* "..." with the bytes s[0..len) escaped as above (NUL: \u0000). */
void lt_json_str(FILE *out, const char *s, size_t len);
/* Same for a NUL-terminated string. */
void lt_json_cstr(FILE *out, const char *s);

#endif /* LT_JSON_H */
