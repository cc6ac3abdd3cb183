// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_json.c - writing JSON strings (see lt_json.h).
 */
#include <stdbool.h>
#include <string.h>

#include "lt_json.h"
#include "lt_utf8.h"

/* \uXXXX for the code point cp (< 0x10000). */
static void u_escape(FILE *out, unsigned int cp)
{
	fprintf(out, "\\u%04x", cp);
}

/* Escape of an ASCII byte, or NULL when it is written as it is. */
static const char *ascii_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		return NULL;
	}
}

/* U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: E2 80 A8/A9. */
static bool js_separator(const unsigned char *s)
{
	return s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9);
}

void lt_json_str(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	fputc('"', out);
	while (i < len) {
		unsigned char c = s[i];
		size_t n = lt_utf8_seq(s + i, len - i);

		if (n == 1) {
			const char *esc = ascii_escape(c);

			if (esc)
				fputs(esc, out);
			else if (c < 0x20 || c == 0x7f)
				u_escape(out, c);
			else
				fputc(c, out);
		} else if (n == 3 && js_separator(s + i)) {
			u_escape(out, s[i + 2] == 0xa8 ? 0x2028 : 0x2029);
		} else if (n) {
			fwrite(s + i, 1, n, out);
		} else {
			u_escape(out, 0xdc00 + c);
			n = 1;
		}
		i += n;
	}
	fputc('"', out);
}

void lt_json_cstr(FILE *out, const char *s)
{
	lt_json_str(out, s, strlen(s));
}
