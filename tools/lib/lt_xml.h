/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_xml.h - text and attribute values for XML (the flame graph's SVG).
 *
 * Kernel strings are bytes; XML 1.0 wants well-formed UTF-8 made of XML
 * characters.  The output is always both, whatever the input:
 *
 *   - '&', '<', '>', '"' and '\'' are written as entity references
 *     (&amp; &lt; &gt; &quot; &#39;), so the text may stand in element
 *     content and in single- or double-quoted attribute values;
 *   - a well-formed UTF-8 sequence (lt_utf8.h) is written as it is, except
 *     U+FFFE and U+FFFF, which are not XML characters;
 *   - control characters other than tab and newline (no XML 1.0 document
 *     may hold them, not even as references), those two non-characters,
 *     and every byte that does not start a well-formed sequence are each
 *     written as U+FFFD (the replacement character, "\xef\xbf\xbd").
 */
#ifndef LT_XML_H
#define LT_XML_H

#include <stddef.h>
#include <stdio.h>

/* The bytes s[0..len) escaped as above (a NUL byte: U+FFFD). */
void lt_xml_str(FILE *out, const char *s, size_t len);
/* Same for a NUL-terminated string. */
void lt_xml_cstr(FILE *out, const char *s);
/*
 * The number of characters lt_xml_str() shows for s[0..len) (each
 * replaced byte counts as one), and the length in bytes of the first
 * @nchars of them in *prefix (for cutting a label on a character).
 */
size_t lt_xml_chars(const char *s, size_t len, size_t nchars, size_t *prefix);

#endif /* LT_XML_H */
