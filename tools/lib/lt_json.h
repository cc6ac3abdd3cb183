/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_json.h - writing JSON strings.  Output is always valid JSON and valid
 * UTF-8: control characters, '"' and '\' are escaped, and bytes >= 0x80
 * (kernel strings such as comm are bytes, not UTF-8) are written as
 * \u00XX, i.e. read as Latin-1.
 */
#ifndef LT_JSON_H
#define LT_JSON_H

#include <stddef.h>
#include <stdio.h>

/* "..." with the bytes s[0..len) escaped. */
void lt_json_str(FILE *out, const char *s, size_t len);
/* Same for a NUL-terminated string. */
void lt_json_cstr(FILE *out, const char *s);

#endif /* LT_JSON_H */
