/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_utf8.h - finding well-formed UTF-8 in bytes.  Kernel strings (comm,
 * file names) are bytes: usually UTF-8 or ASCII, but anything but NUL is
 * possible.  The text writers (lt_json.h, lt_dot.h) pass well-formed
 * sequences through and escape every other byte.
 */
#ifndef LT_UTF8_H
#define LT_UTF8_H

#include <stddef.h>

/*
 * Length (1 to 4) of the well-formed UTF-8 sequence that starts at s[0]
 * (len > 0 bytes available), or 0 when s[0] does not start one.  Well
 * formed as RFC 3629 says: no overlong form, no surrogate (U+D800 to
 * U+DFFF), nothing above U+10FFFF, no truncated sequence.  ASCII bytes
 * (control characters included) are sequences of length 1.
 */
size_t lt_utf8_seq(const unsigned char *s, size_t len);

#endif /* LT_UTF8_H */
