// SPDX-License-Identifier: GPL-2.0-only
/*
 * filter_parse.c - the syntax of the filters' values (see filter_parse.h).
 */
#include "filter_parse.h"
#include "parse.h"

/* One number of @len bytes, no newline in it, at most @max. */
static int lt_filter_num(const char *s, size_t len, u64 min, u64 max,
			 u32 *out)
{
	u64 v;

	if (memchr(s, '\n', len) ||
	    latency_tracker_parse_u64(s, len, min, max, &v))
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * Calls @item on each comma-separated item of @s (at most
 * LT_FILTER_LIST_MAX, none empty); "" is the empty list.  Returns the
 * number of items, or -EINVAL.
 */
static int lt_filter_list(const char *s, size_t len,
			  int (*item)(const char *s, size_t len, int n,
				      void *out),
			  void *out)
{
	size_t start = 0, i;
	int n = 0;

	if (!len)
		return 0;
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		if (n == LT_FILTER_LIST_MAX ||
		    item(s + start, i - start, n, out))
			return -EINVAL;
		n++;
		start = i + 1;
	}
	return n;
}

static int lt_filter_pid_item(const char *s, size_t len, int n, void *out)
{
	return lt_filter_num(s, len, 1, LT_FILTER_PID_MAX, (u32 *)out + n);
}

/**
 * lt_filter_parse_pids() - parse a filter_tgid value
 * @s: the text (need not be NUL-terminated).
 * @len: its length, without the trailing newline.
 * @pids: receives the ids, LT_FILTER_LIST_MAX entries at most.
 *
 * Context: any context.
 * Return: the number of ids (0 for ""), or -EINVAL.
 */
int lt_filter_parse_pids(const char *s, size_t len, u32 *pids)
{
	return lt_filter_list(s, len, lt_filter_pid_item, pids);
}

struct lt_filter_devs {
	u32 *majors;
	u32 *minors;
};

/* "major:minor", as in /sys/block/<disk>/dev. */
static int lt_filter_dev_item(const char *s, size_t len, int n, void *out)
{
	const struct lt_filter_devs *d = out;
	const char *colon = memchr(s, ':', len);

	if (!colon ||
	    lt_filter_num(s, colon - s, 0, LT_FILTER_MAJOR_MAX, &d->majors[n]) ||
	    lt_filter_num(colon + 1, len - (colon + 1 - s), 0,
			  LT_FILTER_MINOR_MAX, &d->minors[n]))
		return -EINVAL;
	return 0;
}

/**
 * lt_filter_parse_devs() - parse a filter_dev value
 * @s: the text (need not be NUL-terminated).
 * @len: its length, without the trailing newline.
 * @majors: receives the major numbers, LT_FILTER_LIST_MAX at most.
 * @minors: receives the minor numbers, LT_FILTER_LIST_MAX at most.
 *
 * Context: any context.
 * Return: the number of disks (0 for ""), or -EINVAL.
 */
int lt_filter_parse_devs(const char *s, size_t len, u32 *majors, u32 *minors)
{
	struct lt_filter_devs d = { majors, minors };

	return lt_filter_list(s, len, lt_filter_dev_item, &d);
}

/**
 * lt_filter_parse_flag() - parse a kthreads value
 * @s: the text (need not be NUL-terminated).
 * @len: its length, without the trailing newline.
 * @out: receives 0 or 1.
 *
 * Context: any context.
 * Return: 0, or -EINVAL.
 */
int lt_filter_parse_flag(const char *s, size_t len, u32 *out)
{
	return lt_filter_num(s, len, 0, 1, out);
}
