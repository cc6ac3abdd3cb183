// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_json.c - the one JSON writer (tools/lib/lt_json.c) and the DOT
 * string writer (lt_dot.c): UTF-8 passes, every other byte is escaped
 * losslessly; then names with quotes, backslashes, newlines, control
 * characters, UTF-8 and invalid bytes through every output that writes
 * them: latency-trackerd's log of an alert record (daemon_log.c, as the
 * daemon writes it), explain's JSON report and its DOT graph.  Python's
 * json reads each output back and finds the names' bytes (tools_out.h,
 * check_outputs.py).  The CLI's outputs are in test_tools_cli.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "ex_model.h"
#include "ex_report.h"
#include "lt_dot.h"
#include "lt_json.h"
#include "lt_record.h"
#include "lt_utf8.h"
#include "tap.h"
#include "tools_out.h"

static char *written(void (*fn)(FILE *, const char *, size_t), const char *s,
		     size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	fn(f, s, len);
	fclose(f);
	return buf;
}

static void is_json(const char *in, size_t len, const char *want,
		    const char *what)
{
	char *got = written(lt_json_str, in, len);

	if (!tap_ok(!strcmp(got, want), "json: %s", what))
		tap_diag("got %s, want %s", got, want);
	free(got);
}

static void is_dot(const char *in, size_t len, const char *want,
		   const char *what)
{
	char *got = written(lt_dot_str, in, len);

	if (!tap_ok(!strcmp(got, want), "dot: %s", what))
		tap_diag("got %s, want %s", got, want);
	free(got);
}

static void test_utf8(void)
{
	static const struct {
		const char *s;
		size_t len, want;
		const char *what;
	} c[] = {
		{ "a", 1, 1, "ASCII" },
		{ "\x01", 1, 1, "a control character is ASCII" },
		{ "\xc3\xa9", 2, 2, "U+00E9" },
		{ "\xe6\x97\xa5", 3, 3, "U+65E5" },
		{ "\xf0\x9f\x98\x80", 4, 4, "U+1F600" },
		{ "\xf4\x8f\xbf\xbf", 4, 4, "U+10FFFF" },
		{ "\xc3", 1, 0, "truncated 2-byte" },
		{ "\xe6\x97", 2, 0, "truncated 3-byte" },
		{ "\xc3\x41", 2, 0, "bad continuation" },
		{ "\x80", 1, 0, "lone continuation" },
		{ "\xc0\xaf", 2, 0, "overlong '/' (C0)" },
		{ "\xc1\xbf", 2, 0, "overlong (C1)" },
		{ "\xe0\x80\xaf", 3, 0, "overlong 3-byte" },
		{ "\xf0\x80\x80\xaf", 4, 0, "overlong 4-byte" },
		{ "\xed\xa0\x80", 3, 0, "surrogate U+D800" },
		{ "\xed\xbf\xbf", 3, 0, "surrogate U+DFFF" },
		{ "\xed\x9f\xbf", 3, 3, "U+D7FF (below the surrogates)" },
		{ "\xf4\x90\x80\x80", 4, 0, "above U+10FFFF" },
		{ "\xf5\x80\x80\x80", 4, 0, "F5 lead byte" },
		{ "\xff", 1, 0, "FF" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		tap_eq(lt_utf8_seq((const unsigned char *)c[i].s, c[i].len),
		       c[i].want, "utf8: %s", c[i].what);
}

static void test_json_escapes(void)
{
	is_json("a\"b\\c", 5, "\"a\\\"b\\\\c\"", "quote and backslash");
	is_json("\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"", "short escapes");
	is_json("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"",
		"control characters and DEL as \\u00XX");
	is_json("a\0b", 3, "\"a\\u0000b\"", "NUL inside a value");
	is_json("caf\xc3\xa9 \xe6\x97\xa5\xf0\x9f\x98\x80", 13,
		"\"caf\xc3\xa9 \xe6\x97\xa5\xf0\x9f\x98\x80\"",
		"UTF-8 passes as it is (2, 3 and 4 bytes)");
	is_json("\xff\xfe", 2, "\"\\udcff\\udcfe\"",
		"invalid bytes as \\udcXX (surrogateescape)");
	is_json("x\xc3", 2, "\"x\\udcc3\"", "a truncated sequence at the end");
	is_json("\xc3(", 2, "\"\\udcc3(\"", "a lead byte then ASCII");
	is_json("\xc0\xaf", 2, "\"\\udcc0\\udcaf\"", "an overlong form, byte by byte");
	is_json("\xed\xa0\x80", 3, "\"\\udced\\udca0\\udc80\"",
		"an encoded surrogate, byte by byte");
	is_json("\xe2\x80\xa8\xe2\x80\xa9", 6, "\"\\u2028\\u2029\"",
		"U+2028 and U+2029 escaped");
}

static void test_dot_escapes(void)
{
	is_dot("a\"b", 3, "\"a\\\"b\"", "quote");
	is_dot("a\\b", 3, "\"a\\\\x5cb\"", "backslash shown as \\x5c");
	is_dot("a\nb\t", 4, "\"a\\\\x0ab\\\\x09\"",
		"newline and tab shown as \\xHH, not a line break");
	is_dot("&lt;", 4, "\"&amp;lt;\"", "& as &amp; (no entity reference)");
	is_dot("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"", "UTF-8 passes");
	is_dot("\xff\x7f", 2, "\"\\\\xff\\\\x7f\"", "invalid byte and DEL as \\xHH");
}

static char tmpdir[] = "/tmp/lt_json_XXXXXX";

static void test_daemon_log(void)
{
	char path[256], line[512], comm[128];
	struct lt_record r;
	const char *why = "";
	int ok = 1;

	snprintf(path, sizeof(path), "%s/daemon.jsonl", tmpdir);
	tap_ok(!ltd_log_open(path), "daemon log opened");
	for (size_t i = 0; i < NNAMES; i++) {
		record_escape(comm, names[i].s, names[i].len);
		snprintf(line, sizeof(line),
			 "ts=1 tracker=wakeup cause=threshold delay=5 pid=%zu comm=%s waker_comm=%s cgroup=1",
			 i + 1, comm, comm);
		if (lt_record_parse(line, &r, &why)) {
			tap_diag("record %zu: %s", i, why);
			ok = 0;
			continue;
		}
		ltd_log_begin("alert");
		ltd_log_record(&r);
		ltd_log_end();
		ltd_log_begin("snapshot");
		ltd_log_str("path", names[i].s);
		ltd_log_nested_record("alert", &r);
		ltd_log_end();
	}
	ltd_log_close();
	tap_ok(ok, "every record line parses");
	tap_ok(!check_output("json", path, 0, NNAMES, NULL),
	       "daemon log: every line is JSON with every name's bytes");
}

static struct ex_model m;

static void sw(uint64_t ts, int cpu, int prev, const char *pc, long state,
	       int next, const char *nc)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_SWITCH, ts, cpu);
	ev.tid = prev;
	ev.state = state;
	ev.next_tid = next;
	snprintf(ev.comm, sizeof(ev.comm), "%s", pc);
	snprintf(ev.next_comm, sizeof(ev.next_comm), "%s", nc);
	ex_model_feed(&m, &ev);
}

static void sys(uint64_t ts, int cpu, int tid, bool entry, int64_t v)
{
	struct ex_ev ev;

	ex_ev_init(&ev, entry ? EV_SYS_ENTRY : EV_SYS_EXIT, ts, cpu);
	ev.ctx_tid = tid;
	snprintf(ev.name, sizeof(ev.name), "read");
	if (entry)
		ev.fd = v;
	else
		ev.ret = v;
	ex_model_feed(&m, &ev);
}

/*
 * Victim 100 (names[0]) reads fd 3 (a file named names[4..]), woken by
 * 200 (names[1]) on CPU 0, then waits for CPU 1 held by 300 (names[2]).
 */
static void explain_model(const char *file)
{
	struct ex_ev ev;
	char n[3][EX_COMM_LEN];

	for (int i = 0; i < 3; i++)
		snprintf(n[i], sizeof(n[i]), "%.*s", (int)names[i].len,
			 names[i].s);
	ex_model_init(&m);
	sw(0, 1, 0, "swapper/1", 0, 100, n[0]);
	sw(0, 0, 0, "swapper/0", 0, 200, n[1]);
	ex_ev_init(&ev, EV_SD_FD, 0, 0);
	ev.pid = 100;
	ev.fd = 3;
	snprintf(ev.filename, sizeof(ev.filename), "%s", file);
	ex_model_feed(&m, &ev);
	sys(10, 1, 100, true, 3);
	sw(20, 1, 100, n[0], 1, 0, "swapper/1");
	sw(4000, 1, 0, "swapper/1", 0, 300, n[2]);
	ex_ev_init(&ev, EV_WAKING, 5000, 0);
	ev.tid = 100;
	ev.target_cpu = 1;
	ex_model_feed(&m, &ev);
	sw(9000, 1, 300, n[2], 0x100, 100, n[0]);
	sys(9100, 1, 100, false, 10);
	sw(9200, 1, 100, n[0], 1, 0, "swapper/1");
	ex_model_finish(&m);
}

static void test_explain(void)
{
	char file[EX_PATH_LEN] = "/tmp/", json[256], dot[256], trace[64];
	struct ex_report r = { 0 };
	size_t len = strlen(file);
	FILE *f;

	/* The file name holds every name from names[3] on. */
	for (size_t i = 3; i < NNAMES; i++) {
		memcpy(file + len, names[i].s, names[i].len);
		len += names[i].len;
		file[len++] = '/';
	}
	file[len] = '\0';
	explain_model(file);
	snprintf(trace, sizeof(trace), "/snap/%.*s", (int)names[5].len,
		 names[5].s);
	ex_report_build(&r, &m, trace, 100, 10, 9200);
	snprintf(r.origin, sizeof(r.origin), "%s", "latency_tracker wakeup alert");
	snprintf(json, sizeof(json), "%s/explain.json", tmpdir);
	snprintf(dot, sizeof(dot), "%s/explain.dot", tmpdir);
	f = fopen(json, "w");
	ex_out_json(f, &r);
	fclose(f);
	f = fopen(dot, "w");
	ex_out_dot(f, &r, 0.0);
	fclose(f);
	tap_ok(r.cr.ncauses > 0, "explain: the report has causes");
	/* Every name: comms (0-2), the file name (3 on) in a cause. */
	tap_ok(!check_output("json", json, 0, NNAMES, NULL),
	       "explain JSON: parses, with every comm and the file name");
	/* The graph's thread nodes: the three comms. */
	tap_ok(!check_output("dot", dot, 0, 3, NULL),
	       "explain DOT: labels decode to the comms, dot reads it");
	ex_report_free(&r);
	ex_model_free(&m);
}

int main(void)
{
	char cmd[300];

	tap_plan(43);
	test_utf8();
	test_json_escapes();
	test_dot_escapes();
	if (!mkdtemp(tmpdir)) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	test_daemon_log();
	test_explain();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		tap_diag("could not remove %s", tmpdir);
	return tap_done();
}
