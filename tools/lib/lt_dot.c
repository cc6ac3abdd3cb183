// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_dot.c - Graphviz DOT strings (see lt_dot.h).
 */
#include <string.h>

#include "lt_dot.h"
#include "lt_utf8.h"

void lt_dot_text(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n = lt_utf8_seq(s + i, len - i);

		if (n > 1) {
			fwrite(s + i, 1, n, out);
			i += n;
			continue;
		}
		if (c == '"')
			fputs("\\\"", out);
		else if (c == '&')
			fputs("&amp;", out);
		else if (!n || c == '\\' || c < 0x20 || c == 0x7f)
			fprintf(out, "\\\\x%02x", c);
		else
			fputc(c, out);
		i++;
	}
}

void lt_dot_str(FILE *out, const char *s, size_t len)
{
	fputc('"', out);
	lt_dot_text(out, s, len);
	fputc('"', out);
}

void lt_dot_cstr(FILE *out, const char *s)
{
	lt_dot_str(out, s, strlen(s));
}
