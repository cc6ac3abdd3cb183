// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - strict decimal parsing (see parse.h).
 */
#include "lt_env.h"
#include "parse.h"

/**
 * latency_tracker_parse_u64() - parse a decimal u64 within bounds, strictly
 * @buf: the text; need not be NUL-terminated.
 * @len: bytes of @buf to parse, all of them.
 * @min: smallest accepted value.
 * @max: largest accepted value.
 * @out: receives the value on success, untouched on error.
 *
 * Context: any context.
 * Return: 0, or -EINVAL for anything but "0" or digits without a leading
 * zero, plus at most one trailing newline, for an overflow, or for a
 * value outside [@min, @max].
 */
int latency_tracker_parse_u64(const char *buf, size_t len, u64 min, u64 max,
			      u64 *out)
{
	u64 val = 0;
	unsigned int digit;
	size_t i;

	if (!buf)
		return -EINVAL;
	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || (len > 1 && buf[0] == '0'))
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		digit = buf[i] - '0';
		if (val > (U64_MAX - digit) / 10)
			return -EINVAL;
		val = val * 10 + digit;
	}
	if (val < min || val > max)
		return -EINVAL;
	*out = val;
	return 0;
}

#ifdef __KERNEL__
EXPORT_SYMBOL_GPL(latency_tracker_parse_u64);
#endif
