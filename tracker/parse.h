/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.h - strict parsing of numbers written to procfs files and given as
 * module parameters.
 *
 * Accepted: one or more decimal digits, optionally followed by exactly one
 * '\n', and nothing else (no sign, no blanks, no "0x", no NUL, no second
 * newline).  Leading zeros are allowed.  Any other input, an overflow of
 * u64 or a value outside [min, max] gives -EINVAL and leaves the output
 * untouched.  Pure function: any context.
 */
#ifndef _LT_PARSE_H
#define _LT_PARSE_H

#include "lt_env.h"

int lt_parse_u64(const char *buf, size_t len, u64 min, u64 max, u64 *out);

#endif /* _LT_PARSE_H */
