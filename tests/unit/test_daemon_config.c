// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_daemon_config.c - host tests of latency-trackerd's options for its
 * lifecycle and metrics (tools/daemon/daemon_config.c): on/off keys as
 * flags, the metrics address, max-children and child-timeout, session=
 * needing output=, a tracker's filter as --TRACKER.FILTER VALUE or =VALUE.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon.h"
#include "tap.h"

#define ARGC(a)	((int)(sizeof(a) / sizeof((a)[0])))

static int load(int argc, char **argv, struct ltd_config *c, char *err,
		size_t errlen)
{
	bool check;

	err[0] = '\0';
	return ltd_config_load(argc, argv, c, &check, err, errlen);
}

static void test_flags(void)
{
	struct ltd_config c;
	char err[1024];
	char *alone[] = { "d", "--config", "/dev/null", "--explain" };
	char *then[] = { "d", "--config", "/dev/null", "--explain", "--snapshot", "off" };
	char *value[] = { "d", "--config", "/dev/null", "--explain", "off" };
	char *eq[] = { "d", "--config", "/dev/null", "--explain=on", "--explain=no" };
	char *neg[] = { "d", "--config", "/dev/null", "--no-snapshot" };
	char *junk[] = { "d", "--config", "/dev/null", "--explain", "maybe" };
	char *notbool[] = { "d", "--config", "/dev/null", "--no-output" };

	tap_ok(load(ARGC(alone), alone, &c, err, sizeof(err)) == 0 && c.explain,
	       "--explain alone is on: %s", err);
	tap_ok(load(ARGC(then), then, &c, err, sizeof(err)) == 0 && c.explain &&
	       !c.snapshot, "--explain followed by another option: on");
	tap_ok(load(ARGC(value), value, &c, err, sizeof(err)) == 0 && !c.explain,
	       "--explain off still takes its value");
	tap_ok(load(ARGC(eq), eq, &c, err, sizeof(err)) == 0 && !c.explain,
	       "--explain=no");
	tap_ok(load(ARGC(neg), neg, &c, err, sizeof(err)) == 0 && !c.snapshot,
	       "--no-snapshot is off");
	tap_ok(load(ARGC(junk), junk, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "maybe"), "--explain maybe: 'maybe' refused: %s", err);
	tap_ok(load(ARGC(notbool), notbool, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "--no-output"), "--no-<not on/off>: unknown: %s", err);
}

static void test_defaults(void)
{
	struct ltd_config c;
	char err[1024];
	char *argv[] = { "d", "--config", "/dev/null" };

	tap_ok(load(ARGC(argv), argv, &c, err, sizeof(err)) == 0, "defaults load");
	tap_ok(!c.metrics[0], "metrics off by default");
	tap_eq(c.max_children, 1, "max-children 1 by default");
	tap_eq(c.child_timeout_ns, 300000000000ULL, "child-timeout 300s by default");
}

static void test_metrics_addr(void)
{
	static const struct { const char *text; int ok; int family; int port; }
	cases[] = {
		{ "9464", 1, AF_INET, 9464 },
		{ "127.0.0.1:9464", 1, AF_INET, 9464 },
		{ "0.0.0.0:9100", 1, AF_INET, 9100 },
		{ "[::1]:9464", 1, AF_INET6, 9464 },
		{ "localhost:9464", 0, 0, 0 },
		{ "127.0.0.1:", 0, 0, 0 },
		{ "127.0.0.1:0", 0, 0, 0 },
		{ "127.0.0.1:65536", 0, 0, 0 },
		{ "127.0.0.1:+80", 0, 0, 0 },
		{ "[::1]", 0, 0, 0 },
		{ "::1:9464", 0, 0, 0 },
		{ ":9464", 0, 0, 0 },
		{ "", 0, 0, 0 },
	};
	struct sockaddr_storage ss;
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = ltd_metrics_parse(cases[i].text, &ss, why, sizeof(why));
		int port = ss.ss_family == AF_INET6 ?
			ntohs(((struct sockaddr_in6 *)&ss)->sin6_port) :
			ntohs(((struct sockaddr_in *)&ss)->sin_port);

		if (cases[i].ok)
			tap_ok(ret == 0 && ss.ss_family == cases[i].family &&
			       port == cases[i].port, "metrics '%s' accepted", cases[i].text);
		else
			tap_ok(ret < 0 && why[0], "metrics '%s' refused: %s",
			       cases[i].text, why);
	}
	tap_ok(!ltd_metrics_parse("9464", &ss, why, sizeof(why)) &&
	       ((struct sockaddr_in *)&ss)->sin_addr.s_addr == htonl(INADDR_LOOPBACK),
	       "a bare port listens on loopback");
}

static void test_keys(void)
{
	struct ltd_config c;
	char err[1024];
	char *m[] = { "d", "--config", "/dev/null", "--metrics", "127.0.0.1:9464",
		      "--max-children", "4", "--child-timeout", "10s" };
	char *off[] = { "d", "--config", "/dev/null", "--metrics", "off" };
	char *badm[] = { "d", "--config", "/dev/null", "--metrics", "host:1" };
	char *mc0[] = { "d", "--config", "/dev/null", "--max-children", "0" };
	char *mc65[] = { "d", "--config", "/dev/null", "--max-children", "65" };
	char *sess[] = { "d", "--config", "/dev/null", "--session", "mine" };
	char *sess_out[] = { "d", "--config", "/dev/null", "--session", "mine",
			     "--output", "/var/tmp/s" };

	tap_ok(load(ARGC(m), m, &c, err, sizeof(err)) == 0 &&
	       !strcmp(c.metrics, "127.0.0.1:9464") && c.max_children == 4 &&
	       c.child_timeout_ns == 10000000000ULL, "metrics, max-children, child-timeout: %s", err);
	tap_ok(load(ARGC(off), off, &c, err, sizeof(err)) == 0 && !c.metrics[0],
	       "metrics off");
	tap_ok(load(ARGC(badm), badm, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "--metrics") && strstr(err, "numeric"),
	       "a metrics host name refused, naming the key: %s", err);
	tap_ok(load(ARGC(mc0), mc0, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "1..64"), "max-children 0 refused: %s", err);
	tap_ok(load(ARGC(mc65), mc65, &c, err, sizeof(err)) < 0,
	       "max-children 65 refused");
	tap_ok(load(ARGC(sess), sess, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "session 'mine' needs an explicit output"),
	       "session= without output= refused: %s", err);
	tap_ok(load(ARGC(sess_out), sess_out, &c, err, sizeof(err)) == 0 &&
	       !strcmp(c.session, "mine"), "session= with output= accepted: %s", err);
}

static void test_file(void)
{
	char path[] = "/tmp/lt-dconf-XXXXXX";
	int fd = mkstemp(path);
	struct ltd_config c;
	char err[1024];
	char *argv[] = { "d", "--config", path };
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		tap_ok(0, "temporary config file");
		return;
	}
	fputs("rate-limit = 1s\nexplain = on\nmax-children = 2\n"
	      "metrics = 127.0.0.1:99999\n", f);
	fclose(f);
	tap_ok(load(ARGC(argv), argv, &c, err, sizeof(err)) < 0 &&
	       strstr(err, ":4: metrics:"),
	       "bad metrics in the file: file, line and key named: %s", err);
	unlink(path);
}

static void test_filter_opts(void)
{
	struct ltd_config c;
	char err[1024];
	char *space[] = { "d", "--config", "/dev/null", "--wakeup.filter_tgid", "123" };
	char *eq[] = { "d", "--config", "/dev/null", "--wakeup.filter_tgid=123" };
	char *last[] = { "d", "--config", "/dev/null", "--wakeup.filter_tgid" };
	char *bad[] = { "d", "--config", "/dev/null", "--wakeup.filter_tgid", "x1" };
	char *nofilter[] = { "d", "--config", "/dev/null", "--wakeup.threshold", "5" };

	tap_ok(load(ARGC(space), space, &c, err, sizeof(err)) == 0 &&
	       c.nr_filters == 1 && !strcmp(c.filters[0].tracker, "wakeup") &&
	       !strcmp(c.filters[0].knob, "filter_tgid") &&
	       !strcmp(c.filters[0].value, "123"),
	       "--wakeup.filter_tgid 123 (value apart): %s", err);
	tap_ok(load(ARGC(eq), eq, &c, err, sizeof(err)) == 0 &&
	       c.nr_filters == 1 && !strcmp(c.filters[0].value, "123"),
	       "--wakeup.filter_tgid=123: %s", err);
	tap_ok(load(ARGC(last), last, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "missing value"),
	       "--wakeup.filter_tgid last: missing value: %s", err);
	tap_ok(load(ARGC(bad), bad, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "--wakeup.filter_tgid"),
	       "--wakeup.filter_tgid x1: refused, the option named: %s", err);
	tap_ok(load(ARGC(nofilter), nofilter, &c, err, sizeof(err)) < 0 &&
	       strstr(err, "wakeup.threshold"),
	       "--wakeup.threshold 5: not a filter, unknown: %s", err);
}

int main(void)
{
	tap_plan(38);
	test_flags();
	test_filter_opts();
	test_defaults();
	test_metrics_addr();
	test_keys();
	test_file();
	return tap_done();
}
