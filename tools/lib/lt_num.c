// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_num.c - parsing and printing durations and sizes (see lt_num.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lt_num.h"

struct lt_unit {
	const char *name;
	uint64_t mult;
};

static const struct lt_unit lt_time_units[] = {
	{ "ns", 1 },
	{ "us", LT_NSEC_PER_USEC },
	{ "ms", LT_NSEC_PER_MSEC },
	{ "s", LT_NSEC_PER_SEC },
};

/*
 * What durations are parsed with: the units above, and microseconds
 * written with a mu in UTF-8, the micro sign U+00B5 or the Greek letter
 * U+03BC (printed as "us").
 */
static const struct lt_unit lt_time_parse_units[] = {
	{ "ns", 1 },
	{ "us", LT_NSEC_PER_USEC },
	{ "\xc2\xb5s", LT_NSEC_PER_USEC },
	{ "\xce\xbcs", LT_NSEC_PER_USEC },
	{ "ms", LT_NSEC_PER_MSEC },
	{ "s", LT_NSEC_PER_SEC },
};

static const struct lt_unit lt_size_units[] = {
	{ "", 1 },
	{ "K", 1ULL << 10 },
	{ "M", 1ULL << 20 },
	{ "G", 1ULL << 30 },
	{ "T", 1ULL << 40 },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* Decimal digits at s; *end after them.  -1 on no digit or overflow. */
static int digits(const char *s, const char **end, uint64_t *out)
{
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*end = s;
	*out = v;
	return 0;
}

int lt_parse_u64(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;

	if (digits(s, &end, &v) || *end)
		return -1;
	*out = v;
	return 0;
}

int lt_parse_u128(const char *s, unsigned __int128 *out)
{
	const unsigned __int128 max = ~(unsigned __int128)0;
	unsigned __int128 v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*p)
		return -1;
	*out = v;
	return 0;
}

char *lt_format_u128(unsigned __int128 v, char *buf, size_t size)
{
	char tmp[40];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	if (!size)
		return buf;
	for (i = 0; i < n && i + 1 < size; i++)
		buf[i] = tmp[n - 1 - i];
	buf[i] = '\0';
	return buf;
}

/*
 * <int>[.<frac>]<unit>, unit from the table (exact match).  The fraction
 * must be representable exactly in the unit's base (no rounding).
 */
static int parse_scaled(const char *s, const struct lt_unit *units,
			size_t nunits, const char *bare, uint64_t *out)
{
	const char *p, *unit;
	uint64_t ip, frac = 0, scale = 1, mult = 0, v;
	size_t i, nfrac = 0;

	if (digits(s, &p, &ip))
		return -1;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++, nfrac++) {
			if (nfrac == 18)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	unit = *p ? p : bare;
	for (i = 0; i < nunits; i++)
		if (!strcmp(unit, units[i].name))
			mult = units[i].mult;
	if (!mult)
		return -1;
	if (ip > UINT64_MAX / mult)
		return -1;
	v = ip * mult;
	if (nfrac) {
		uint64_t part;

		if (frac > UINT64_MAX / mult || (frac * mult) % scale)
			return -1;
		part = frac * mult / scale;
		if (v > UINT64_MAX - part)
			return -1;
		v += part;
	}
	*out = v;
	return 0;
}

int lt_parse_duration(const char *s, uint64_t *ns)
{
	return parse_scaled(s, lt_time_parse_units,
			    ARRAY_LEN(lt_time_parse_units), "ns", ns);
}

int lt_parse_instant(const char *s, uint64_t *ns)
{
	size_t n = strlen(s);
	char secs[40];

	/* A bare number with decimals: seconds, the duration's "s" added. */
	if (!strchr(s, '.') || !n || s[n - 1] < '0' || s[n - 1] > '9')
		return lt_parse_duration(s, ns);
	if (n + 2 > sizeof(secs))
		return -1;
	snprintf(secs, sizeof(secs), "%ss", s);
	return lt_parse_duration(secs, ns);
}

int lt_parse_size(const char *s, uint64_t *bytes)
{
	char buf[32];
	size_t n = strlen(s);

	/* Accept "64K", "64KB", "64KiB" alike. */
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	if (n > 3 && !strcmp(buf + n - 2, "iB"))
		buf[n - 2] = '\0';
	else if (n > 2 && buf[n - 1] == 'B' && buf[n - 2] >= 'A' &&
		 buf[n - 2] <= 'Z')
		buf[n - 1] = '\0';
	return parse_scaled(buf, lt_size_units, ARRAY_LEN(lt_size_units), "",
			    bytes);
}

char *lt_format_duration(uint64_t ns, char *buf, size_t size)
{
	int i;

	for (i = (int)ARRAY_LEN(lt_time_units) - 1; i > 0; i--) {
		uint64_t m = lt_time_units[i].mult;
		uint64_t ip = ns / m, rest = ns % m;
		uint64_t milli = m / 1000;

		if (!ip || rest % milli)
			continue;
		rest /= milli;
		if (!rest) {
			snprintf(buf, size, "%llu%s", (unsigned long long)ip,
				 lt_time_units[i].name);
		} else {
			char frac[24];

			snprintf(frac, sizeof(frac), "%03llu",
				 (unsigned long long)rest);
			for (int k = 2; k > 0 && frac[k] == '0'; k--)
				frac[k] = '\0';
			snprintf(buf, size, "%llu.%s%s", (unsigned long long)ip,
				 frac, lt_time_units[i].name);
		}
		return buf;
	}
	snprintf(buf, size, "%lluns", (unsigned long long)ns);
	return buf;
}

char *lt_format_duration_short(uint64_t ns, char *buf, size_t size)
{
	int i;

	for (i = (int)ARRAY_LEN(lt_time_units) - 1; i > 0; i--) {
		uint64_t m = lt_time_units[i].mult;

		if (ns >= m) {
			double v = (double)ns / (double)m;
			int prec = v >= 100 ? 1 : v >= 10 ? 2 : 3;

			snprintf(buf, size, "%.*f%s", prec, v,
				 lt_time_units[i].name);
			return buf;
		}
	}
	snprintf(buf, size, "%lluns", (unsigned long long)ns);
	return buf;
}

int lt_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
