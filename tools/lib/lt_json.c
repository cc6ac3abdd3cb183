// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_json.c - writing JSON strings (see lt_json.h).
 */
#include <string.h>

#include "lt_json.h"

void lt_json_str(FILE *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (c < 0x20 || c >= 0x7f) {
				fputs("\\u00", out);
				fputc(hex[c >> 4], out);
				fputc(hex[c & 0xf], out);
			} else {
				fputc(c, out);
			}
		}
	}
	fputc('"', out);
}

void lt_json_cstr(FILE *out, const char *s)
{
	lt_json_str(out, s, strlen(s));
}
