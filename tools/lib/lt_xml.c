// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_xml.c - escaping bytes for XML text and attributes (see lt_xml.h).
 */
#include <string.h>

#include "lt_utf8.h"
#include "lt_xml.h"

#define LT_XML_REPLACEMENT	"\xef\xbf\xbd"

/* Length of the character at s (1 for a byte written as U+FFFD). */
static size_t char_len(const unsigned char *s, size_t len, int *ok)
{
	size_t n = lt_utf8_seq(s, len);

	*ok = n > 0;
	if (n == 1 && ((s[0] < 0x20 && s[0] != '\t' && s[0] != '\n') ||
		       s[0] == 0x7f))
		*ok = 0;
	/* U+FFFE, U+FFFF: EF BF BE, EF BF BF */
	if (n == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		*ok = 0;
	return n ? n : 1;
}

void lt_xml_str(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		int ok;
		size_t n = char_len(p + i, len - i, &ok);

		if (!ok) {
			fputs(LT_XML_REPLACEMENT, out);
		} else if (n > 1) {
			fwrite(p + i, 1, n, out);
		} else {
			switch (p[i]) {
			case '&': fputs("&amp;", out); break;
			case '<': fputs("&lt;", out); break;
			case '>': fputs("&gt;", out); break;
			case '"': fputs("&quot;", out); break;
			case '\'': fputs("&#39;", out); break;
			default: fputc(p[i], out); break;
			}
		}
		i += n;
	}
}

void lt_xml_cstr(FILE *out, const char *s)
{
	lt_xml_str(out, s, strlen(s));
}

size_t lt_xml_chars(const char *s, size_t len, size_t nchars, size_t *prefix)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, c = 0;

	if (prefix)
		*prefix = 0;
	while (i < len) {
		int ok;

		i += char_len(p + i, len - i, &ok);
		c++;
		if (prefix && c <= nchars)
			*prefix = i;
	}
	return c;
}
