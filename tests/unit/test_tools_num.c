// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_num.c - host tests of tools/lib/lt_num.c: durations and sizes
 * with units, strict decimals, printing durations.
 */
#include <string.h>

#include "lt_num.h"
#include "tap.h"

#define UNTOUCHED	0x5a5a5a5a5a5a5a5aULL

struct num_case {
	const char *s;
	int ret;
	uint64_t val;
};

static const struct num_case durations[] = {
	{ "0", 0, 0 },
	{ "100", 0, 100 },
	{ "100ns", 0, 100 },
	{ "200us", 0, 200000 },
	{ "5ms", 0, 5000000 },
	{ "1s", 0, 1000000000 },
	{ "1.5s", 0, 1500000000 },
	{ "2.25ms", 0, 2250000 },
	{ "0.001us", 0, 1 },
	{ "0.0001us", -1, 0 },		/* below 1 ns */
	{ "1.5ns", -1, 0 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -1, 0 },
	{ "18446744074s", -1, 0 },	/* overflow after scaling */
	{ "", -1, 0 },
	{ "ms", -1, 0 },
	{ "5 ms", -1, 0 },
	{ " 5ms", -1, 0 },
	{ "5ms ", -1, 0 },
	{ "-5ms", -1, 0 },
	{ "+5ms", -1, 0 },
	{ "5MS", -1, 0 },
	{ "5m", -1, 0 },
	{ "5.ms", -1, 0 },
	{ ".5ms", -1, 0 },
	{ "0x10", -1, 0 },
	{ "5msx", -1, 0 },
	/* Microseconds with a mu: the micro sign (U+00B5), the Greek letter
	 * (U+03BC), in UTF-8; a lone mu or one in Latin-1 is no unit. */
	{ "5\xc2\xb5s", 0, 5000 },
	{ "1.5\xce\xbcs", 0, 1500 },
	{ "5\xc2\xb5", -1, 0 },
	{ "5\xb5s", -1, 0 },
};

static const struct num_case sizes[] = {
	{ "0", 0, 0 },
	{ "512", 0, 512 },
	{ "64K", 0, 65536 },
	{ "64KB", 0, 65536 },
	{ "64KiB", 0, 65536 },
	{ "100M", 0, 100ULL << 20 },
	{ "1.5G", 0, 3ULL << 29 },
	{ "2T", 0, 2ULL << 40 },
	{ "1k", -1, 0 },
	{ "1X", -1, 0 },
	{ "M", -1, 0 },
	{ "1 M", -1, 0 },
	{ "16777216T", -1, 0 },
};

static const struct num_case decimals[] = {
	{ "0", 0, 0 },
	{ "007", 0, 7 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -1, 0 },
	{ "", -1, 0 },
	{ "1 ", -1, 0 },
	{ "-1", -1, 0 },
	{ "1e3", -1, 0 },
};

static void run(const char *kind, const struct num_case *c, size_t n,
		int (*fn)(const char *, uint64_t *))
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = UNTOUCHED;
		int ret = fn(c[i].s, &v);

		if (c[i].ret)
			tap_ok(ret == -1 && v == UNTOUCHED,
			       "%s '%s' refused, output untouched", kind, c[i].s);
		else
			tap_ok(ret == 0 && v == c[i].val, "%s '%s' = %llu (got %llu)",
			       kind, c[i].s, (unsigned long long)c[i].val,
			       (unsigned long long)v);
	}
}

struct fmt_case {
	uint64_t ns;
	const char *exact, *shrt;
};

static const struct fmt_case fmts[] = {
	{ 0, "0ns", "0ns" },
	{ 999, "999ns", "999ns" },
	{ 1000, "1us", "1.000us" },
	{ 5000000, "5ms", "5.000ms" },
	{ 2500000, "2.5ms", "2.500ms" },
	{ 1234567, "1234.567us", "1.235ms" },
	{ 1000000000, "1s", "1.000s" },
	{ 90000000000ULL, "90s", "90.00s" },
	{ 1001, "1.001us", "1.001us" },
};

static void test_format(void)
{
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		uint64_t back = 0;

		lt_format_duration(fmts[i].ns, buf, sizeof(buf));
		tap_ok(!strcmp(buf, fmts[i].exact), "format %llu = %s (got %s)",
		       (unsigned long long)fmts[i].ns, fmts[i].exact, buf);
		tap_ok(!lt_parse_duration(buf, &back) && back == fmts[i].ns,
		       "exact format of %llu parses back", (unsigned long long)fmts[i].ns);
		lt_format_duration_short(fmts[i].ns, buf, sizeof(buf));
		tap_ok(!strcmp(buf, fmts[i].shrt), "short format %llu = %s (got %s)",
		       (unsigned long long)fmts[i].ns, fmts[i].shrt, buf);
	}
}

#define N(a)	(sizeof(a) / sizeof((a)[0]))

/* 128-bit decimals (the stats file's sum_ns): parsed and printed back. */
static void test_u128(void)
{
	static const char *const good[] = {
		"0", "18446744073709551616", "36893488147419103232",
		"340282366920938463463374607431768211455",
	};
	static const char *const bad[] = {
		"340282366920938463463374607431768211456", "", "-1", "1x",
		" 1",
	};
	unsigned __int128 v;
	char buf[40];
	size_t i;

	for (i = 0; i < N(good); i++) {
		v = 7;
		buf[0] = '\0';
		tap_ok(!lt_parse_u128(good[i], &v) &&
		       !strcmp(lt_format_u128(v, buf, sizeof(buf)), good[i]),
		       "u128 %s parsed and printed back (got %s)", good[i], buf);
	}
	for (i = 0; i < N(bad); i++) {
		v = 7;
		tap_ok(lt_parse_u128(bad[i], &v) && v == 7,
		       "u128 '%s' refused, value untouched", bad[i]);
	}
	lt_format_u128((unsigned __int128)1 << 64, buf, 6);
	tap_ok(!strcmp(buf, "18446"), "u128 printing truncated to the buffer");
}

int main(void)
{
	tap_plan((int)(N(durations) + N(sizes) + N(decimals) + 3 * N(fmts)) +
		 4 + 5 + 1);
	run("duration", durations, N(durations), lt_parse_duration);
	run("size", sizes, N(sizes), lt_parse_size);
	run("decimal", decimals, N(decimals), lt_parse_u64);
	test_format();
	test_u128();
	return tap_done();
}
