/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_dot.h - Graphviz DOT strings (labels, node names) from kernel strings,
 * for `latency-tracker explain --format dot` and the graphs it renders.
 *
 * The DOT text is valid UTF-8 and the label Graphviz shows loses nothing,
 * with the alert records' notation (docs/design.md) for what is not text:
 *
 *   - printable ASCII and well-formed UTF-8 sequences (lt_utf8.h) are
 *     shown as they are; '"' is written \" and '&' &amp; (Graphviz reads
 *     entity references such as &lt; in every string);
 *   - '\', control characters (0x00-0x1f, 0x7f) and every byte outside a
 *     well-formed sequence are shown as \xHH (written \\xHH in the DOT
 *     text, since Graphviz reads \n, \l, \N... in labels).
 *
 * So every '\' in a shown label starts a \xHH that stands for one byte.
 */
#ifndef LT_DOT_H
#define LT_DOT_H

#include <stddef.h>
#include <stdio.h>

/* The escaped bytes s[0..len), without quotes (to build a label in parts). */
void lt_dot_text(FILE *out, const char *s, size_t len);
/* "..." with s[0..len) escaped; lt_dot_cstr for a NUL-terminated string. */
void lt_dot_str(FILE *out, const char *s, size_t len);
void lt_dot_cstr(FILE *out, const char *s);

#endif /* LT_DOT_H */
