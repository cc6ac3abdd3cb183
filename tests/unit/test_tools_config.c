// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_config.c - host tests of tools/daemon/daemon_config.c: defaults,
 * config file, command line precedence, and every error naming the file,
 * the line and the key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "tap.h"

static char conf[] = "/tmp/lt-conf-XXXXXX";

static void write_conf(const char *text)
{
	FILE *f = fopen(conf, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Load with --config <conf> plus extra args. */
static int load(struct ltd_config *c, char *err, size_t errlen, int nextra,
		char **extra)
{
	char *argv[16] = { "latency-trackerd", "--config", conf };
	bool check;
	int i;

	for (i = 0; i < nextra; i++)
		argv[3 + i] = extra[i];
	return ltd_config_load(3 + nextra, argv, c, &check, err, errlen);
}

static void test_good(void)
{
	struct ltd_config c;
	char err[1024] = "";
	char *over[] = { "--rate-limit", "250ms", "--max-bytes=2G" };

	write_conf("# comment\n\noutput = /var/tmp/snaps\nrate-limit=2s\n"
		   "  max-snapshots = 5  \nsnapshot = on\nsubbuf-size = 1M\n"
		   "trackers = wakeup,offcpu\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0, "file loads: %s", err);
	tap_ok(!strcmp(c.output, "/var/tmp/snaps") && c.output_set, "output");
	tap_eq(c.rate_limit_ns, 2000000000, "rate-limit from the file");
	tap_eq(c.max_snapshots, 5, "max-snapshots, blanks trimmed");
	tap_eq(c.subbuf_size, 1 << 20, "subbuf-size 1M");
	tap_ok(!strcmp(c.trackers, "wakeup,offcpu"), "trackers");
	tap_ok(!strcmp(c.session_name, "latency-trackerd"), "default session-name");
	tap_eq(c.num_subbuf, 4, "default num-subbuf");
	tap_ok(load(&c, err, sizeof(err), 3, over) == 0, "with overrides: %s", err);
	tap_eq(c.rate_limit_ns, 250000000, "command line wins (--key value)");
	tap_eq(c.max_bytes, 2ULL << 30, "--key=value form");
	write_conf("output = net://127.0.0.1\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0 && ltd_output_is_net(&c),
	       "net:// output");
}

struct bad_case {
	const char *text;
	const char *msg;	/* expected in the error */
};

static const struct bad_case bad[] = {
	{ "rate-limit = 2x\n", ":1: rate-limit: '2x' is not a duration" },
	{ "\n# x\nbogus = 1\n", ":3: unknown key 'bogus'" },
	{ "output\n", ":1: expected 'key = value'" },
	{ "output = relative/dir\n", ":1: output:" },
	{ "output = net://\n", ":1: output: 'net://' has no host" },
	{ "snapshot = maybe\n", ":1: snapshot: 'maybe' is not on/off" },
	{ "max-bytes = 10Q\n", ":1: max-bytes:" },
	{ "max-snapshots = -1\n", ":1: max-snapshots:" },
	{ "subbuf-size = 3000\n", ":1: subbuf-size: 3000 is not a power of 2" },
	{ "num-subbuf = 3\n", ":1: num-subbuf:" },
	{ "retry-interval = 1ms\n", ":1: retry-interval: must be at least 100ms" },
	{ "session-name = a/b\n", ":1: session-name:" },
	{ "proc-root = proc\n", ":1: proc-root:" },
	{ "log =\n", ":1: log: empty" },
};

static void test_bad(void)
{
	struct ltd_config c;
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		memset(&c, 0x5a, sizeof(c));
		write_conf(bad[i].text);
		tap_ok(load(&c, err, sizeof(err), 0, NULL) == -1 &&
		       strstr(err, conf) && strstr(err, bad[i].msg) &&
		       ((unsigned char *)&c)[0] == 0x5a,
		       "bad config refused, config untouched: %s", err);
	}
}

static void test_cmdline(void)
{
	struct ltd_config c;
	char err[1024];
	char *unknown[] = { "--frobnicate", "1" };
	char *missing[] = { "--output" };
	char *badval[] = { "--rate-limit", "soon" };
	char *stray[] = { "stray" };
	char *noconf[] = { "latency-trackerd", "--config", "/nonexistent/lt.conf" };
	bool check;

	write_conf("");
	tap_ok(load(&c, err, sizeof(err), 2, unknown) == -1 &&
	       strstr(err, "unknown option '--frobnicate'"), "unknown option: %s", err);
	tap_ok(load(&c, err, sizeof(err), 1, missing) == -1 &&
	       strstr(err, "--output: missing value"), "missing value: %s", err);
	tap_ok(load(&c, err, sizeof(err), 2, badval) == -1 &&
	       strstr(err, "--rate-limit: 'soon'"), "bad value: %s", err);
	tap_ok(load(&c, err, sizeof(err), 1, stray) == -1 &&
	       strstr(err, "unexpected argument 'stray'"), "stray argument: %s", err);
	tap_ok(ltd_config_load(3, noconf, &c, &check, err, sizeof(err)) == -1 &&
	       strstr(err, "/nonexistent/lt.conf"),
	       "explicit missing config file is an error: %s", err);
}

/* <tracker>.<filter> = value: per-tracker filters, checked, replaced. */
static void test_filters(void)
{
	struct ltd_config c;
	char err[1024] = "";
	char *over[] = { "--offcpu.filter_tgid=7 8" };
	char *bad[] = { "--offcpu.filter_tgid=x" };

	write_conf("offcpu.filter_cgroup = system.slice/foo.service\n"
		   "offcpu.kthreads = off\nblock.filter_dev = 8:0, 8:16\n"
		   "offcpu.filter_tgid = 1\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == 0, "filters load: %s", err);
	tap_eq(c.nr_filters, 4, "four filter settings");
	tap_ok(!strcmp(c.filters[0].tracker, "offcpu") &&
	       !strcmp(c.filters[0].knob, "filter_cgroup") &&
	       !strcmp(c.filters[0].value, "/system.slice/foo.service"),
	       "a cgroup path from the root gets its '/': %s", c.filters[0].value);
	tap_ok(!strcmp(c.filters[1].value, "0"), "kthreads off -> 0");
	tap_ok(!strcmp(c.filters[2].value, "8:0,8:16"), "devices as a list: %s",
	       c.filters[2].value);
	tap_ok(load(&c, err, sizeof(err), 1, over) == 0 && c.nr_filters == 4 &&
	       !strcmp(c.filters[3].value, "7,8"),
	       "the command line replaces a filter: %s", c.filters[3].value);
	tap_ok(load(&c, err, sizeof(err), 1, bad) == -1 &&
	       strstr(err, "bad filter_tgid item 'x'"), "bad command line filter: %s", err);
	write_conf("offcpu.filter_dev = 8\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == -1 &&
	       strstr(err, ":1: bad filter_dev item '8'"), "bad filter names the line: %s", err);
	write_conf("offcpu.filter_nope = 1\n");
	tap_ok(load(&c, err, sizeof(err), 0, NULL) == -1 &&
	       strstr(err, "unknown key 'offcpu.filter_nope'"), "unknown filter: %s", err);
}

int main(void)
{
	int fd = mkstemp(conf);

	tap_plan(40);
	if (fd < 0)
		return 1;
	close(fd);
	test_good();
	test_bad();
	test_cmdline();
	test_filters();
	unlink(conf);
	return tap_done();
}
