// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parse.c - host tests of tracker/parse.c: a table of good and bad
 * inputs; the output must be untouched on every error.
 */
#include "lt_env.h"
#include "parse.h"
#include "tap.h"

#define UNTOUCHED	0x5a5a5a5a5a5a5a5aULL
#define S(lit)		lit, sizeof(lit) - 1	/* buffer, length */

struct parse_case {
	const char *buf;
	size_t len;
	u64 min, max;
	int ret;
	u64 val;
	const char *what;
};

static const struct parse_case cases[] = {
	{ S("0"), 0, U64_MAX, 0, 0, "zero" },
	{ S("5"), 0, U64_MAX, 0, 5, "one digit" },
	{ S("5\n"), 0, U64_MAX, 0, 5, "one trailing newline" },
	{ S("1000000000"), 0, U64_MAX, 0, 1000000000, "1e9" },
	{ S("007"), 0, U64_MAX, -EINVAL, 0, "leading zeros" },
	{ S("00"), 0, U64_MAX, -EINVAL, 0, "two zeros" },
	{ S("0\n"), 0, U64_MAX, 0, 0, "zero and a newline" },
	{ S("18446744073709551615"), 0, U64_MAX, 0, U64_MAX, "U64_MAX" },
	{ S("18446744073709551615\n"), 0, U64_MAX, 0, U64_MAX,
	  "U64_MAX + newline" },
	{ S("18446744073709551616"), 0, U64_MAX, -EINVAL, 0,
	  "U64_MAX + 1 overflows" },
	{ S("99999999999999999999"), 0, U64_MAX, -EINVAL, 0,
	  "20 nines overflow" },
	{ S("184467440737095516150"), 0, U64_MAX, -EINVAL, 0,
	  "U64_MAX * 10 overflows" },
	{ S("abc"), 0, U64_MAX, -EINVAL, 0, "letters" },
	{ S("-5"), 0, U64_MAX, -EINVAL, 0, "minus sign" },
	{ S("+5"), 0, U64_MAX, -EINVAL, 0, "plus sign" },
	{ S(" 5"), 0, U64_MAX, -EINVAL, 0, "leading space" },
	{ S("5 "), 0, U64_MAX, -EINVAL, 0, "trailing space" },
	{ S("\t5"), 0, U64_MAX, -EINVAL, 0, "leading tab" },
	{ S("5\t"), 0, U64_MAX, -EINVAL, 0, "trailing tab" },
	{ S("5 \n"), 0, U64_MAX, -EINVAL, 0, "space before newline" },
	{ S("5\n\n"), 0, U64_MAX, -EINVAL, 0, "two newlines" },
	{ S("\n5"), 0, U64_MAX, -EINVAL, 0, "leading newline" },
	{ S("5\r\n"), 0, U64_MAX, -EINVAL, 0, "CR LF" },
	{ S("5x"), 0, U64_MAX, -EINVAL, 0, "trailing garbage" },
	{ S("5\nx"), 0, U64_MAX, -EINVAL, 0, "garbage after newline" },
	{ S(""), 0, U64_MAX, -EINVAL, 0, "empty" },
	{ S("\n"), 0, U64_MAX, -EINVAL, 0, "newline only" },
	{ S("0x10"), 0, U64_MAX, -EINVAL, 0, "hex prefix" },
	{ S("1e3"), 0, U64_MAX, -EINVAL, 0, "exponent" },
	{ S("1.5"), 0, U64_MAX, -EINVAL, 0, "decimal point" },
	{ S("1,000"), 0, U64_MAX, -EINVAL, 0, "thousands separator" },
	{ S("5\0" "0"), 0, U64_MAX, -EINVAL, 0, "embedded NUL" },
	{ S("5\0"), 0, U64_MAX, -EINVAL, 0, "trailing NUL" },
	{ S("\0" "5"), 0, U64_MAX, -EINVAL, 0, "leading NUL" },
	{ S("5\n\0"), 0, U64_MAX, -EINVAL, 0, "NUL after newline" },
	{ S("\xc2\xb5"), 0, U64_MAX, -EINVAL, 0, "non-ASCII bytes" },
	{ S("\xb9"), 0, U64_MAX, -EINVAL, 0, "Latin-1 superscript one" },
	/* Bounds [10, 20]. */
	{ S("10"), 10, 20, 0, 10, "at min" },
	{ S("20"), 10, 20, 0, 20, "at max" },
	{ S("9"), 10, 20, -EINVAL, 0, "min - 1" },
	{ S("21"), 10, 20, -EINVAL, 0, "max + 1" },
	{ S("15\n"), 10, 20, 0, 15, "inside, with newline" },
	{ S("0"), 1, U64_MAX, -EINVAL, 0, "0 below min 1" },
	{ S("1"), 1, 1, 0, 1, "min == max, at it" },
	{ S("2"), 1, 1, -EINVAL, 0, "min == max, above" },
	{ S("18446744073709551615"), 0, U64_MAX - 1, -EINVAL, 0,
	  "U64_MAX above max U64_MAX - 1" },
	{ S("18446744073709551614"), 0, U64_MAX - 1, 0, U64_MAX - 1,
	  "U64_MAX - 1 at max" },
};

int main(void)
{
	const struct parse_case *c;
	unsigned int i;
	u64 out;
	int ret;

	tap_plan(2 * ARRAY_SIZE(cases) + 2);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		c = &cases[i];
		out = UNTOUCHED;
		ret = latency_tracker_parse_u64(c->buf, c->len, c->min, c->max,
						&out);
		tap_eq(ret, c->ret, "%s: return %d", c->what, c->ret);
		if (c->ret)
			tap_eq(out, UNTOUCHED, "%s: output untouched",
			       c->what);
		else
			tap_eq(out, c->val, "%s: value", c->what);
	}

	/* Only len bytes are looked at: a longer buffer is fine. */
	out = UNTOUCHED;
	ret = latency_tracker_parse_u64("42junk", 2, 0, U64_MAX, &out);
	tap_ok(ret == 0 && out == 42, "only the first len bytes are parsed");
	out = UNTOUCHED;
	ret = latency_tracker_parse_u64(NULL, 0, 0, U64_MAX, &out);
	tap_ok(ret == -EINVAL && out == UNTOUCHED, "NULL buffer refused");
	return tap_done();
}
