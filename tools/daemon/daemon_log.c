// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_log.c - latency-trackerd's log: one JSON object per line, on
 * stdout (journald under systemd) or appended to a file.  Every line has
 * "time" (UTC, ISO 8601 with ms) and "type"; the others depend on the type
 * (see latency-trackerd(8)).  Lines are flushed as they are written.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon.h"
#include "lt_json.h"

static FILE *ltd_log_out;
static FILE *ltd_log_file;	/* owned, when not stdout */

int ltd_log_open(const char *path)
{
	FILE *f;

	if (!strcmp(path, "-")) {
		ltd_log_close();
		ltd_log_out = stdout;
		return 0;
	}
	f = fopen(path, "ae");
	if (!f)
		return -errno;
	ltd_log_close();
	ltd_log_file = f;
	ltd_log_out = f;
	return 0;
}

void ltd_log_close(void)
{
	if (ltd_log_file)
		fclose(ltd_log_file);
	ltd_log_file = NULL;
	ltd_log_out = NULL;
}

static FILE *out(void)
{
	return ltd_log_out ? ltd_log_out : stdout;
}

void ltd_log_begin(const char *type)
{
	struct timespec ts;
	struct tm tm;
	char buf[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(out(), "{\"time\":\"%s.%03ldZ\",\"type\":", buf,
		ts.tv_nsec / 1000000);
	lt_json_cstr(out(), type);
}

void ltd_log_str(const char *key, const char *val)
{
	fputc(',', out());
	lt_json_cstr(out(), key);
	fputc(':', out());
	lt_json_cstr(out(), val);
}

void ltd_log_u64(const char *key, uint64_t v)
{
	fputc(',', out());
	lt_json_cstr(out(), key);
	fprintf(out(), ":%llu", (unsigned long long)v);
}

void ltd_log_s64(const char *key, int64_t v)
{
	fputc(',', out());
	lt_json_cstr(out(), key);
	fprintf(out(), ":%lld", (long long)v);
}

void ltd_log_record(const struct lt_record *r)
{
	fputc(',', out());
	lt_record_json_members(out(), r);
}

void ltd_log_nested_record(const char *key, const struct lt_record *r)
{
	fputc(',', out());
	lt_json_cstr(out(), key);
	fputs(":{", out());
	lt_record_json_members(out(), r);
	fputc('}', out());
}

void ltd_log_end(void)
{
	fputs("}\n", out());
	fflush(out());
}

void ltd_log_msg(const char *level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ltd_log_begin(level);
	ltd_log_str("msg", msg);
	ltd_log_end();
}
