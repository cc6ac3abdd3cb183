// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_alert_fmt.c - host tests of tracker/alert_fmt.c: field layout,
 * escaping of every byte value, truncation at whole fields, final '\n',
 * stacks cut at whole frames.
 */
#include "lt_env.h"
#include "alert_fmt.h"
#include "tap.h"

#define LINE_MAX_TEST	1500

/* The contract's escaping, written independently of alert_fmt.c. */
static void expect_escaped(char *dst, const u8 *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (src[i] >= 0x21 && src[i] <= 0x7e && src[i] != '\\' &&
		    src[i] != '=')
			*dst++ = (char)src[i];
		else
			dst += sprintf(dst, "\\x%02x", src[i]);
	}
	*dst = '\0';
}

static void test_fields(void)
{
	char buf[256];
	struct lt_fmt f;
	size_t n;

	lt_fmt_init(&f, buf, sizeof(buf));
	lt_fmt_u64(&f, "ts", 1234567890123ULL);
	lt_fmt_raw(&f, "tracker", "wakeup");
	lt_fmt_raw(&f, "cause", "threshold");
	lt_fmt_u64(&f, "delay", 0);
	lt_fmt_s64(&f, "neg", -42);
	lt_fmt_s64(&f, "pos", 42);
	lt_fmt_str(&f, "comm", "my task", 16);
	lt_fmt_str(&f, "empty", "", 16);
	n = lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "ts=1234567890123 tracker=wakeup cause=threshold "
		       "delay=0 neg=-42 pos=42 comm=my\\x20task empty=\n"),
	       "fields, spaces, escaping of a blank, empty value");
	tap_eq(n, strlen(buf), "returned length includes the newline");
	tap_ok(!f.overflow, "no overflow");

	lt_fmt_init(&f, buf, sizeof(buf));
	lt_fmt_u64(&f, "max", U64_MAX);
	lt_fmt_s64(&f, "smin", INT64_MIN);
	lt_fmt_s64(&f, "smax", INT64_MAX);
	lt_fmt_str(&f, "cut", "abcdef", 3);
	lt_fmt_str(&f, "nul", "ab\0cd", 5);
	lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "max=18446744073709551615 "
		       "smin=-9223372036854775808 smax=9223372036854775807 "
		       "cut=abc nul=ab\n"),
	       "extremes of u64/s64, maxlen, stop at NUL");

	lt_fmt_init(&f, buf, sizeof(buf));
	n = lt_fmt_end(&f);
	tap_ok(n == 1 && !strcmp(buf, "\n"), "no field: just the newline");
}

static void test_every_byte(void)
{
	static char buf[LINE_MAX_TEST], want[LINE_MAX_TEST];
	u8 all[256], one;
	bool each = true;
	char line[32], exp[32];
	struct lt_fmt f;
	unsigned int i;
	size_t n;

	/* Each byte alone (1..255; 0 ends the string, tested above). */
	for (i = 1; i < 256; i++) {
		one = (u8)i;
		lt_fmt_init(&f, line, sizeof(line));
		lt_fmt_str(&f, "k", (const char *)&one, 1);
		lt_fmt_end(&f);
		strcpy(exp, "k=");
		expect_escaped(exp + 2, &one, 1);
		strcat(exp, "\n");
		if (strcmp(line, exp)) {
			each = false;
			tap_diag("byte 0x%02x: got '%s'", i, line);
		}
	}
	tap_ok(each, "every byte 0x01..0xff escaped per the contract");

	lt_fmt_init(&f, line, sizeof(line));
	lt_fmt_str(&f, "k", "\\=a ~!\x7f\x80", 8);
	lt_fmt_end(&f);
	tap_ok(!strcmp(line, "k=\\x5c\\x3da\\x20~!\\x7f\\x80\n"),
	       "'\\\\' and '=' escaped, '!' and '~' kept, lowercase hex");

	/* All 256 values in one value, 0 included (maxlen, not NUL, ends). */
	for (i = 0; i < 256; i++)
		all[i] = (u8)((i + 1) & 0xff);	/* 0x01..0xff then 0x00 */
	lt_fmt_init(&f, buf, sizeof(buf));
	lt_fmt_str(&f, "all", (const char *)all, 255);
	n = lt_fmt_end(&f);
	strcpy(want, "all=");
	expect_escaped(want + 4, all, 255);
	strcat(want, "\n");
	tap_ok(!strcmp(buf, want) && n == strlen(want),
	       "255 bytes in one value: %zu characters", n);
	for (i = 0, each = true; i + 1 < n; i++)
		if ((u8)buf[i] < 0x20 || (u8)buf[i] > 0x7e)
			each = false;
	tap_ok(each && !strchr(buf + 4, ' ') && !strchr(buf + 4, '='),
	       "escaped value: printable only, no blank, no '='");
}

static void test_overflow(void)
{
	char buf[64];
	struct lt_fmt f;
	size_t n, size, i;
	bool ok = true, whole = true;
	char ref[64];

	/* "a=1 b=22 c=333\n" is 15 characters + NUL. */
	for (size = 0; size <= 20; size++) {
		memset(buf, '#', sizeof(buf));
		lt_fmt_init(&f, buf, size);
		lt_fmt_u64(&f, "a", 1);
		lt_fmt_u64(&f, "b", 22);
		lt_fmt_u64(&f, "c", 333);
		n = lt_fmt_end(&f);
		if (size >= 16)
			strcpy(ref, "a=1 b=22 c=333\n");
		else if (size >= 10)
			strcpy(ref, "a=1 b=22\n");
		else if (size >= 5)
			strcpy(ref, "a=1\n");
		else if (size >= 2)
			strcpy(ref, "\n");
		else
			ref[0] = '\0';
		if (size < 2 ? n != 0 : strcmp(buf, ref) || n != strlen(ref))
			ok = false;
		if (f.overflow != (size < 16))
			ok = false;
		for (i = size; i < sizeof(buf); i++)
			if (buf[i] != '#')
				whole = false;	/* wrote past the buffer */
		if (!ok) {
			tap_diag("size %zu: got '%.*s' (%zu)", size,
				 (int)n, buf, n);
			break;
		}
	}
	tap_ok(ok, "sizes 0..20: truncated at the last whole field, '\\n' kept, "
	       "overflow flagged");
	tap_ok(whole, "nothing written past the buffer");

	/* A later small field is not added after a dropped one. */
	lt_fmt_init(&f, buf, 12);
	lt_fmt_u64(&f, "a", 1);
	lt_fmt_raw(&f, "long", "xxxxxxxxxxxx");
	lt_fmt_u64(&f, "b", 2);
	n = lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "a=1\n") && n == 4 && f.overflow,
	       "fields after an overflow are dropped too");

	/* An escaped value that does not fit is dropped whole. */
	lt_fmt_init(&f, buf, 14);
	lt_fmt_u64(&f, "a", 1);
	lt_fmt_str(&f, "s", "  ", 2);	/* " s=\x20\x20" = 11 chars */
	n = lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "a=1\n") && f.overflow,
	       "escape sequences are never cut in the middle");
	lt_fmt_init(&f, buf, 16);
	lt_fmt_u64(&f, "a", 1);
	lt_fmt_str(&f, "s", "  ", 2);
	n = lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "a=1 s=\\x20\\x20\n") && n == 15 && !f.overflow,
	       "and fit exactly in 16 bytes (15 + NUL)");
}

/* Frame names of the stack tests: "f<hex>", 0x5 a name to escape. */
static const char *frame_name(const void *ctx, unsigned int i, char *buf,
			      size_t len)
{
	unsigned long addr = ((const unsigned long *)ctx)[i];

	if (addr == 0x5)
		return "a b=c";
	snprintf(buf, len, "f%lx", addr);
	return buf;
}

static void test_frames(void)
{
	static const unsigned long ips[] = { 0x1, 0x22, 0x333, 0x5 };
	char buf[256], name[32];
	struct lt_fmt f;

	lt_fmt_init(&f, buf, sizeof(buf));
	lt_fmt_u64(&f, "a", 1);
	lt_fmt_frames(&f, "stack", 4, frame_name, ips, name, sizeof(name),
		      100);
	lt_fmt_frames(&f, "none", 0, frame_name, ips, name, sizeof(name),
		      100);
	lt_fmt_u64(&f, "b", 2);
	lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "a=1 stack=f1;f22;f333;a\\x20b\\x3dc none= b=2\n"),
	       "stack: frames innermost first, ';' between, names escaped; "
	       "no frame is an empty value");

	/* "f1;f22;f333" is 11 characters: a limit of 10 keeps two frames. */
	lt_fmt_init(&f, buf, sizeof(buf));
	lt_fmt_frames(&f, "s", 3, frame_name, ips, name, sizeof(name),
		      10);
	lt_fmt_u64(&f, "b", 2);
	lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "s=f1;f22 b=2\n") && !f.overflow,
	       "stack: cut at the last whole frame within its limit, later "
	       "fields kept");

	/* A line of 16 bytes holds "s=f1;f22" + " b=2" + '\n' + NUL. */
	lt_fmt_init(&f, buf, 16);
	lt_fmt_frames(&f, "s", 3, frame_name, ips, name, sizeof(name),
		      100);
	lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "s=f1;f22;f333\n") && !f.overflow,
	       "stack: fits the line exactly");
	lt_fmt_init(&f, buf, 12);
	lt_fmt_frames(&f, "s", 3, frame_name, ips, name, sizeof(name),
		      100);
	lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "s=f1;f22\n") && !f.overflow,
	       "stack: a line too short for every frame keeps the whole ones");
	lt_fmt_init(&f, buf, 4);
	lt_fmt_frames(&f, "s", 3, frame_name, ips, name, sizeof(name),
		      100);
	lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "s=\n") && !f.overflow,
	       "stack: no room for one frame: an empty value");
	lt_fmt_init(&f, buf, 3);
	lt_fmt_frames(&f, "s", 3, frame_name, ips, name, sizeof(name),
		      100);
	lt_fmt_end(&f);
	tap_ok(!strcmp(buf, "\n") && f.overflow,
	       "stack: no room for the key: dropped like any field");
}

int main(void)
{
	tap_plan(20);
	test_fields();
	test_every_byte();
	test_overflow();
	test_frames();
	return tap_done();
}
