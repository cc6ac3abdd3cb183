// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_filter_parse.c - host tests of probes/common/filter_parse.c, the
 * syntax of the filters' values: filter_tgid (process ids), filter_dev
 * (major:minor), kthreads (0/1).  What the guest tests filters.sh,
 * filters-cgroup.sh and fuzz-procfs.sh write is refused or accepted here
 * the same way; they test the filters applied, once per kernel line.
 */
#include "lt_env.h"
#include "filter_parse.h"
#include "tap.h"

#define S(s)	s, sizeof(s) - 1

struct pid_case {
	const char *s;
	size_t len;
	int n;			/* items, or -EINVAL */
	u32 first, last;
	const char *what;
};

static const struct pid_case pid_cases[] = {
	{ S(""), 0, 0, 0, "empty: no filter" },
	{ S("1"), 1, 1, 1, "one pid" },
	{ S("12,34"), 2, 12, 34, "two pids" },
	{ S("1,2,3,4,5,6,7,8"), 8, 1, 8, "eight pids" },
	{ S("4194304"), 1, 4194304, 4194304, "PID_MAX_LIMIT" },
	{ S("1,2,3,4,5,6,7,8,9"), -EINVAL, 0, 0, "nine pids" },
	{ S("0"), -EINVAL, 0, 0, "pid 0" },
	{ S("4194305"), -EINVAL, 0, 0, "above PID_MAX_LIMIT" },
	{ S("abc"), -EINVAL, 0, 0, "letters" },
	{ S("-1"), -EINVAL, 0, 0, "a sign" },
	{ S("+5"), -EINVAL, 0, 0, "a plus sign" },
	{ S(" 5"), -EINVAL, 0, 0, "a leading blank" },
	{ S("5 "), -EINVAL, 0, 0, "a trailing blank" },
	{ S("1 2"), -EINVAL, 0, 0, "a blank separator" },
	{ S("1,,2"), -EINVAL, 0, 0, "an empty item" },
	{ S(",1"), -EINVAL, 0, 0, "a leading comma" },
	{ S("1,"), -EINVAL, 0, 0, "a trailing comma" },
	{ S("01"), -EINVAL, 0, 0, "a leading zero" },
	{ S("5x"), -EINVAL, 0, 0, "trailing garbage" },
	{ S("5\n"), -EINVAL, 0, 0, "a newline (the caller strips one)" },
	{ S("99999999999999999999999"), -EINVAL, 0, 0, "u64 overflow" },
};

struct dev_case {
	const char *s;
	size_t len;
	int n;
	u32 major, minor;	/* of the last item */
	const char *what;
};

static const struct dev_case dev_cases[] = {
	{ S(""), 0, 0, 0, "empty: no filter" },
	{ S("8:0"), 1, 8, 0, "one disk" },
	{ S("8:0,254:16"), 2, 254, 16, "two disks" },
	{ S("4095:1048575"), 1, 4095, 1048575, "the largest dev_t" },
	{ S("8"), -EINVAL, 0, 0, "no minor" },
	{ S("8:"), -EINVAL, 0, 0, "an empty minor" },
	{ S(":0"), -EINVAL, 0, 0, "an empty major" },
	{ S("8:0:1"), -EINVAL, 0, 0, "two colons" },
	{ S("a:b"), -EINVAL, 0, 0, "letters" },
	{ S("4096:0"), -EINVAL, 0, 0, "major above 12 bits" },
	{ S("8:1048576"), -EINVAL, 0, 0, "minor above 20 bits" },
	{ S("8:0,"), -EINVAL, 0, 0, "a trailing comma" },
	{ S("08:0"), -EINVAL, 0, 0, "a leading zero" },
	{ S("1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1"), -EINVAL, 0, 0,
	  "nine disks" },
};

struct flag_case {
	const char *s;
	size_t len;
	int ret;
	u32 v;
	const char *what;
};

static const struct flag_case flag_cases[] = {
	{ S("0"), 0, 0, "0" },
	{ S("1"), 0, 1, "1" },
	{ S("2"), -EINVAL, 0, "2" },
	{ S("-1"), -EINVAL, 0, "-1" },
	{ S("01"), -EINVAL, 0, "a leading zero" },
	{ S("1 "), -EINVAL, 0, "a trailing blank" },
	{ S("x"), -EINVAL, 0, "a letter" },
	{ S(""), -EINVAL, 0, "empty" },
};

int main(void)
{
	u32 ids[LT_FILTER_LIST_MAX], majors[LT_FILTER_LIST_MAX];
	u32 minors[LT_FILTER_LIST_MAX], v;
	unsigned int i;
	int n;

	tap_plan(2 * ARRAY_SIZE(pid_cases) + 2 * ARRAY_SIZE(dev_cases) +
		 2 * ARRAY_SIZE(flag_cases));
	for (i = 0; i < ARRAY_SIZE(pid_cases); i++) {
		const struct pid_case *c = &pid_cases[i];

		n = lt_filter_parse_pids(c->s, c->len, ids);
		tap_eq(n, c->n, "filter_tgid %s: %d", c->what, c->n);
		tap_ok(n <= 0 || (ids[0] == c->first && ids[n - 1] == c->last),
		       "filter_tgid %s: the ids", c->what);
	}
	for (i = 0; i < ARRAY_SIZE(dev_cases); i++) {
		const struct dev_case *c = &dev_cases[i];

		n = lt_filter_parse_devs(c->s, c->len, majors, minors);
		tap_eq(n, c->n, "filter_dev %s: %d", c->what, c->n);
		tap_ok(n <= 0 || (majors[n - 1] == c->major &&
				  minors[n - 1] == c->minor),
		       "filter_dev %s: major:minor", c->what);
	}
	for (i = 0; i < ARRAY_SIZE(flag_cases); i++) {
		const struct flag_case *c = &flag_cases[i];

		v = 7;
		n = lt_filter_parse_flag(c->s, c->len, &v);
		tap_eq(n, c->ret, "kthreads %s: %d", c->what, c->ret);
		tap_ok(n ? v == 7 : v == c->v, "kthreads %s: the value",
		       c->what);
	}
	return tap_done();
}
