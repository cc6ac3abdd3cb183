// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_utf8.c - well-formed UTF-8 sequences (see lt_utf8.h).
 */
#include <stdbool.h>

#include "lt_utf8.h"

static bool cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t lt_utf8_seq(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	/* Allowed range of the second byte (RFC 3629, section 4). */
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong below U+0800 */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates U+D800..U+DFFF */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong below U+10000 */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;	/* continuation byte, 0xc0, 0xc1, 0xf5..0xff */
	}
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (!cont(s[i]))
			return 0;
	return n;
}
