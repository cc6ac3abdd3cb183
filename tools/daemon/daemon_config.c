// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_config.c - latency-trackerd's configuration: defaults, the
 * config file, the command line (which wins), validated as a whole.
 *
 * Config file: one `key = value` per line; blank lines and lines starting
 * with '#' are ignored, and so is a value's end from a '#' after a blank
 * (`rate-limit = 1s  # one a second`); keys are the long option names,
 * `<tracker>.<filter>` (a tracker's filter) and `custom.<name>` (a custom
 * tracker's definition, checked with lt_custom.h's parser), each once.
 * Any error names the file, the line and the key, and nothing is applied.
 * The parser is ours: libinih and GKeyFile have no line numbers in their
 * errors (inih: the first one only) and would still leave every value's
 * grammar to us.  --check also refuses a filter of a tracker that is
 * neither built in, nor declared in the file, nor loaded.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "lt_custom.h"
#include "lt_filter.h"
#include "lt_num.h"
#include "lt_proc.h"

enum ltd_key_type {
	KT_STRING,
	KT_DURATION,
	KT_SIZE,
	KT_COUNT,
	KT_BOOL,
};

struct ltd_key {
	const char *name;
	enum ltd_key_type type;
	size_t off;
	size_t size;		/* KT_STRING: buffer size */
	const char *help;
};

#define STR_KEY(n, field, h) \
	{ n, KT_STRING, offsetof(struct ltd_config, field), \
	  sizeof(((struct ltd_config *)0)->field), h }
#define NUM_KEY(n, t, field, h) \
	{ n, t, offsetof(struct ltd_config, field), 0, h }

static const struct ltd_key ltd_keys[] = {
	STR_KEY("output", output, "snapshot destination: an absolute directory or net://host[:ctrl[:data]]"),
	STR_KEY("session", session, "use this existing snapshot session instead of creating one"),
	STR_KEY("session-name", session_name, "name of the session the daemon creates"),
	NUM_KEY("snapshot", KT_BOOL, snapshot, "take snapshots (on) or only log alerts (off)"),
	NUM_KEY("explain", KT_BOOL, explain, "explain each local snapshot into <snapshot>/explain/ (latency-tracker explain)"),
	NUM_KEY("rate-limit", KT_DURATION, rate_limit_ns, "minimum interval between snapshots (0 = none)"),
	NUM_KEY("max-snapshots", KT_COUNT, max_snapshots, "keep at most N local snapshots (0 = no limit)"),
	NUM_KEY("max-bytes", KT_SIZE, max_bytes, "keep at most this much on disk (0 = no limit)"),
	STR_KEY("log", log, "JSON log file, - for stdout"),
	NUM_KEY("subbuf-size", KT_SIZE, subbuf_size, "kernel channel sub-buffer size (power of 2)"),
	NUM_KEY("num-subbuf", KT_COUNT, num_subbuf, "kernel channel sub-buffers per CPU (power of 2)"),
	NUM_KEY("retry-interval", KT_DURATION, retry_ns, "how often to retry sessiond and the modules"),
	STR_KEY("trackers", trackers, "comma-separated trackers to follow (default: all)"),
	STR_KEY("proc-root", proc_root, "the trackers' proc directory"),
	NUM_KEY("max-children", KT_COUNT, max_children, "explain children running at once (1..64; more alerts' explains are skipped)"),
	NUM_KEY("child-timeout", KT_DURATION, child_timeout_ns, "kill an explain child still running after this (0 = no limit)"),
	STR_KEY("metrics", metrics, "serve Prometheus metrics on [host:]port (numeric host; default 127.0.0.1), or off"),
	NUM_KEY("metrics-bucket-min", KT_DURATION, metrics_bucket_min_ns, "the metrics histogram's first bound, rounded up to the kernel's next (2^k - 1 ns; default 1us)"),
	NUM_KEY("metrics-bucket-max", KT_DURATION, metrics_bucket_max_ns, "its last finite bound, rounded up the same way (default 10s)"),
	NUM_KEY("metrics-bucket-step", KT_COUNT, metrics_bucket_step, "each bound this many times the last: 2, 4, 8 or 16 (default 4)"),
	STR_KEY("app-group", app_group, "the group (name or gid) whose members may mark application requests"),
};

#define LTD_NKEYS	(sizeof(ltd_keys) / sizeof(ltd_keys[0]))

/* The command-line options that are not keys (read before the keys). */
enum { OPT_CONFIG, OPT_CHECK, OPT_HELP, OPT_VERSION, OPT_NR };

static const struct ltd_option {
	const char *name, *alias, *arg, *help;
} ltd_options[OPT_NR] = {
	[OPT_CONFIG] = { "--config", NULL, "FILE", "configuration file (default " LTD_DEFAULT_CONFIG ", if it exists)" },
	[OPT_CHECK] = { "--check", NULL, NULL, "validate the configuration and exit" },
	[OPT_HELP] = { "--help", "-h", NULL, "print this help and exit" },
	[OPT_VERSION] = { "--version", NULL, NULL, "print the version and exit" },
};

const char *ltd_config_key_name(size_t i, bool *on_off)
{
	if (i >= LTD_NKEYS)
		return NULL;
	if (on_off)
		*on_off = ltd_keys[i].type == KT_BOOL;
	return ltd_keys[i].name;
}

bool ltd_config_key_equal(const struct ltd_config *a,
			  const struct ltd_config *b, size_t i)
{
	const struct ltd_key *k = &ltd_keys[i];
	const char *pa = (const char *)a + k->off, *pb = (const char *)b + k->off;

	switch (k->type) {
	case KT_STRING:
		return !strcmp(pa, pb);
	case KT_BOOL:
		return *(const bool *)pa == *(const bool *)pb;
	default:
		return *(const uint64_t *)pa == *(const uint64_t *)pb;
	}
}

const char *ltd_config_option_name(size_t i, const char **alias)
{
	if (i >= OPT_NR)
		return NULL;
	if (alias)
		*alias = ltd_options[i].alias;
	return ltd_options[i].name;
}

static bool is_option(const char *arg, int opt)
{
	const struct ltd_option *o = &ltd_options[opt];

	return !strcmp(arg, o->name) || (o->alias && !strcmp(arg, o->alias));
}

/* --config=FILE: the file, or NULL when @arg is not that form. */
static const char *option_value(const char *arg, int opt)
{
	size_t n = strlen(ltd_options[opt].name);

	if (strncmp(arg, ltd_options[opt].name, n) || arg[n] != '=')
		return NULL;
	return arg + n + 1;
}

/* Defaults. */
#define LTD_DEF_OUTPUT		"/var/lib/latency-tracker/snapshots"
#define LTD_DEF_SESSION_NAME	"latency-trackerd"
#define LTD_DEF_RATE_NS		LT_NSEC_PER_SEC
#define LTD_DEF_MAX_SNAPSHOTS	20
#define LTD_DEF_MAX_BYTES	(1ULL << 30)
#define LTD_DEF_SUBBUF_SIZE	(256ULL << 10)
#define LTD_DEF_NUM_SUBBUF	4
#define LTD_DEF_RETRY_NS	(2 * LT_NSEC_PER_SEC)
#define LTD_MIN_SUBBUF_SIZE	4096
#define LTD_MAX_NUM_SUBBUF	1024
#define LTD_MIN_RETRY_NS	(100 * LT_NSEC_PER_MSEC)
#define LTD_DEF_MAX_CHILDREN	1
#define LTD_MAX_CHILDREN	64
#define LTD_DEF_CHILD_TIMEOUT	(300 * LT_NSEC_PER_SEC)
#define LTD_METRICS_HOST	"127.0.0.1"

/* The metrics histogram: 1 us to 10 s, each bound 4 times the last. */
#define LTD_DEF_BUCKET_MIN	LT_NSEC_PER_USEC
#define LTD_DEF_BUCKET_MAX	(10 * LT_NSEC_PER_SEC)
#define LTD_DEF_BUCKET_STEP	4
/* A bound past 2^62 ns (146 years) would round up beyond the last bucket. */
#define LTD_BUCKET_BOUND_MAX	(1ULL << 62)

static void defaults(struct ltd_config *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->output, LTD_DEF_OUTPUT);
	strcpy(c->session_name, LTD_DEF_SESSION_NAME);
	c->snapshot = true;
	c->rate_limit_ns = LTD_DEF_RATE_NS;
	c->max_snapshots = LTD_DEF_MAX_SNAPSHOTS;
	c->max_bytes = LTD_DEF_MAX_BYTES;
	strcpy(c->log, "-");
	c->subbuf_size = LTD_DEF_SUBBUF_SIZE;
	c->num_subbuf = LTD_DEF_NUM_SUBBUF;
	c->retry_ns = LTD_DEF_RETRY_NS;
	strcpy(c->proc_root, LT_PROC_DEFAULT_ROOT);
	c->max_children = LTD_DEF_MAX_CHILDREN;
	c->metrics_bucket_min_ns = LTD_DEF_BUCKET_MIN;
	c->metrics_bucket_max_ns = LTD_DEF_BUCKET_MAX;
	c->metrics_bucket_step = LTD_DEF_BUCKET_STEP;
	c->child_timeout_ns = LTD_DEF_CHILD_TIMEOUT;
}

static const struct ltd_key *find_key(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < LTD_NKEYS; i++)
		if (strlen(ltd_keys[i].name) == len &&
		    !strncmp(ltd_keys[i].name, name, len))
			return &ltd_keys[i];
	return NULL;
}

static bool power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

bool ltd_output_is_net(const struct ltd_config *cfg)
{
	return !strncmp(cfg->output, "net://", 6) ||
	       !strncmp(cfg->output, "net6://", 7);
}

int ltd_metrics_parse(const char *text, struct sockaddr_storage *ss,
		      char *why, size_t whylen)
{
	char host[64];
	const char *port;
	unsigned long p;
	char *end;

	memset(ss, 0, sizeof(*ss));
	port = strrchr(text, ':');
	if (!port) {			/* a bare port: loopback */
		snprintf(host, sizeof(host), "%s", LTD_METRICS_HOST);
		port = text;
	} else if (text[0] == '[') {	/* [v6]:port */
		if (port == text || port[-1] != ']' ||
		    (size_t)(port - text - 2) >= sizeof(host))
			goto bad;
		snprintf(host, sizeof(host), "%.*s", (int)(port - text - 2), text + 1);
		port++;
	} else {
		if ((size_t)(port - text) >= sizeof(host) || port == text)
			goto bad;
		snprintf(host, sizeof(host), "%.*s", (int)(port - text), text);
		port++;
	}
	errno = 0;
	p = strtoul(port, &end, 10);
	if (!*port || *end || errno || p == 0 || p > 65535 || *port == '+' ||
	    *port == '-' || *port == ' ') {
		snprintf(why, whylen, "'%.100s': port must be 1..65535", text);
		return -1;
	}
	if (text[0] == '[') {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

		if (inet_pton(AF_INET6, host, &a6->sin6_addr) != 1)
			goto bad;
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)p);
	} else {
		struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

		if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
			goto bad;
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)p);
	}
	return 0;
bad:
	snprintf(why, whylen, "'%.100s' is not [host:]port with a numeric IPv4 host or [IPv6] (e.g. 127.0.0.1:9464, [::1]:9464, 9464)",
		 text);
	return -1;
}

/* The value just set for k is acceptable; else a reason in why. */
long ltd_app_gid(const char *group)
{
	struct group *g = getgrnam(group);
	uint64_t v;

	if (g)
		return g->gr_gid;
	if (!lt_parse_u64(group, &v) && v < (gid_t)-1)
		return (long)v;
	return -1;
}

static int check_value(const struct ltd_config *c, const struct ltd_key *k,
		       char *why, size_t whylen)
{
	const char *n = k->name;

	if (!strcmp(n, "output")) {
		bool net = ltd_output_is_net(c);

		if (c->output[0] != '/' && !net)
			snprintf(why, whylen, "'%.200s' is neither an absolute directory nor net://host",
				 c->output);
		else if (net && !c->output[c->output[3] == '6' ? 7 : 6])
			snprintf(why, whylen, "'%.200s' has no host", c->output);
		else
			return 0;
	} else if (!strcmp(n, "session-name") || !strcmp(n, "session")) {
		const char *v = (const char *)c + k->off;

		if ((!strcmp(n, "session-name") && !*v) || strchr(v, '/') ||
		    strchr(v, ' '))
			snprintf(why, whylen, "'%.100s' is not a valid session name", v);
		else
			return 0;
	} else if (!strcmp(n, "app-group")) {
		if (c->app_group[0] && ltd_app_gid(c->app_group) < 0)
			snprintf(why, whylen, "'%.100s' is no group of this system",
				 c->app_group);
		else
			return 0;
	} else if (!strcmp(n, "subbuf-size")) {
		if (c->subbuf_size < LTD_MIN_SUBBUF_SIZE || !power_of_2(c->subbuf_size))
			snprintf(why, whylen, "%llu is not a power of 2 >= %d",
				 (unsigned long long)c->subbuf_size,
				 LTD_MIN_SUBBUF_SIZE);
		else
			return 0;
	} else if (!strcmp(n, "num-subbuf")) {
		if (!power_of_2(c->num_subbuf) || c->num_subbuf < 2 ||
		    c->num_subbuf > LTD_MAX_NUM_SUBBUF)
			snprintf(why, whylen, "%llu is not a power of 2 in 2..%d",
				 (unsigned long long)c->num_subbuf,
				 LTD_MAX_NUM_SUBBUF);
		else
			return 0;
	} else if (!strcmp(n, "retry-interval")) {
		if (c->retry_ns < LTD_MIN_RETRY_NS)
			snprintf(why, whylen, "must be at least 100ms");
		else
			return 0;
	} else if (!strcmp(n, "proc-root")) {
		if (c->proc_root[0] != '/')
			snprintf(why, whylen, "'%.200s' is not an absolute path",
				 c->proc_root);
		else
			return 0;
	} else if (!strcmp(n, "max-children")) {
		if (c->max_children < 1 || c->max_children > LTD_MAX_CHILDREN)
			snprintf(why, whylen, "%llu is not in 1..%d",
				 (unsigned long long)c->max_children,
				 LTD_MAX_CHILDREN);
		else
			return 0;
	} else if (!strcmp(n, "metrics-bucket-step")) {
		uint64_t st = c->metrics_bucket_step;

		if (st < 2 || st > 16 || !power_of_2(st))
			snprintf(why, whylen, "%llu is not 2, 4, 8 or 16",
				 (unsigned long long)st);
		else
			return 0;
	} else if (!strcmp(n, "metrics-bucket-min") ||
		   !strcmp(n, "metrics-bucket-max")) {
		uint64_t v = *(const uint64_t *)((const char *)c + k->off);

		if (!v || v > LTD_BUCKET_BOUND_MAX)
			snprintf(why, whylen, "must be 1ns..%llus",
				 (unsigned long long)(LTD_BUCKET_BOUND_MAX / LT_NSEC_PER_SEC));
		else
			return 0;
	} else if (!strcmp(n, "metrics")) {
		struct sockaddr_storage ss;

		if (!c->metrics[0] ||
		    !ltd_metrics_parse(c->metrics, &ss, why, whylen))
			return 0;
	} else if (!strcmp(n, "trackers")) {
		char list[sizeof(c->trackers)], *save = NULL, *tok;
		unsigned int count = 0;

		snprintf(list, sizeof(list), "%s", c->trackers);
		for (tok = strtok_r(list, ", ", &save); tok;
		     tok = strtok_r(NULL, ", ", &save)) {
			if (!lt_tracker_name_ok(tok)) {
				snprintf(why, whylen, "'%.100s' is not a tracker name", tok);
				return -1;
			}
			count++;
		}
		if (count <= LTD_MAX_TRACKERS)
			return 0;
		snprintf(why, whylen, "%u trackers named, at most %d", count,
			 LTD_MAX_TRACKERS);
	} else if (!strcmp(n, "log")) {
		if (!c->log[0])
			snprintf(why, whylen, "empty (use - for stdout)");
		else
			return 0;
	} else {
		return 0;
	}
	return -1;
}

/* 1 for on/yes/true/1, 0 for off/no/false/0, -1 for anything else. */
static int bool_word(const char *val)
{
	if (!strcmp(val, "on") || !strcmp(val, "yes") ||
	    !strcmp(val, "true") || !strcmp(val, "1"))
		return 1;
	if (!strcmp(val, "off") || !strcmp(val, "no") ||
	    !strcmp(val, "false") || !strcmp(val, "0"))
		return 0;
	return -1;
}

/* Set one key from text; on error a reason (no key, no place) in why. */
static int set_key(struct ltd_config *c, const struct ltd_key *k,
		   const char *val, char *why, size_t whylen)
{
	char *base = (char *)c + k->off;
	uint64_t v;

	switch (k->type) {
	case KT_STRING:
		if (strlen(val) >= k->size) {
			snprintf(why, whylen, "value too long (max %zu bytes)",
				 k->size - 1);
			return -1;
		}
		strcpy(base, val);
		if (!strcmp(k->name, "output"))
			c->output_set = true;
		if (!strcmp(k->name, "metrics") && !strcmp(val, "off"))
			base[0] = '\0';
		return check_value(c, k, why, whylen);
	case KT_BOOL:
		switch (bool_word(val)) {
		case 1:
			*(bool *)base = true;
			return 0;
		case 0:
			*(bool *)base = false;
			return 0;
		}
		snprintf(why, whylen, "'%s' is not on/off", val);
		return -1;
	case KT_DURATION:
		if (lt_parse_duration(val, &v)) {
			snprintf(why, whylen, "'%s' is not a duration (e.g. 1s, 500ms)",
				 val);
			return -1;
		}
		break;
	case KT_SIZE:
		if (lt_parse_size(val, &v)) {
			snprintf(why, whylen, "'%s' is not a size (e.g. 512K, 100M, 1G)",
				 val);
			return -1;
		}
		break;
	case KT_COUNT:
		if (lt_parse_u64(val, &v)) {
			snprintf(why, whylen, "'%s' is not a whole number", val);
			return -1;
		}
		break;
	}
	*(uint64_t *)base = v;
	return check_value(c, k, why, whylen);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/*
 * "<tracker>.<filter>": a filter setting (offcpu.filter_cgroup = ...).
 * Returns 1 when @key is one (set, or an error in @why: -1), 0 if not.
 */
static int filter_key(struct ltd_config *c, const char *key, const char *val,
		      unsigned int line, char *why, size_t whylen)
{
	const char *dot = strrchr(key, '.');
	struct ltd_filter f = { .line = line };
	unsigned int i;

	if (!dot || !lt_filter_is(dot + 1))
		return 0;
	if (dot == key || (size_t)(dot - key) >= sizeof(f.tracker) ||
	    memchr(key, '/', dot - key)) {
		snprintf(why, whylen, "bad tracker name in '%s'", key);
		return -1;
	}
	memcpy(f.tracker, key, dot - key);
	snprintf(f.knob, sizeof(f.knob), "%s", dot + 1);
	if (lt_filter_value(f.knob, val, f.value, sizeof(f.value), why, whylen))
		return -1;
	/* A later setting of the same filter replaces the earlier one. */
	for (i = 0; i < c->nr_filters; i++)
		if (!strcmp(c->filters[i].tracker, f.tracker) &&
		    !strcmp(c->filters[i].knob, f.knob))
			break;
	if (i == LTD_FILTERS_MAX) {
		snprintf(why, whylen, "more than %d filter settings",
			 LTD_FILTERS_MAX);
		return -1;
	}
	c->filters[i] = f;
	if (i == c->nr_filters)
		c->nr_filters++;
	return 1;
}

/* The prefix of a custom tracker's key: custom.<name>. */
#define LTD_CUSTOM_PREFIX	"custom."

/*
 * "custom.<name>": a custom tracker's definition (custom.slowsync =
 * fn=vfs_fsync threshold=10ms).  Returns 1 when @key is one (declared, or
 * an error in @why: -1), 0 if not.  @line: of the config file, 0 for the
 * command line, whose declaration replaces the file's; the file declaring
 * one name twice is an error.
 */
static int custom_key(struct ltd_config *c, const char *key, const char *val,
		      unsigned int line, char *why, size_t whylen)
{
	size_t plen = strlen(LTD_CUSTOM_PREFIX);
	struct ltd_custom_decl decl = { .line = line };
	char reason[512];
	unsigned int i;

	if (strncmp(key, LTD_CUSTOM_PREFIX, plen))
		return 0;
	if (lt_custom_parse(key + plen, val, &decl.def, reason, sizeof(reason))) {
		snprintf(why, whylen, "%.60s: %s", key, reason);
		return -1;
	}
	for (i = 0; i < c->nr_custom; i++)
		if (!strcmp(c->custom[i].def.name, decl.def.name))
			break;
	if (i < c->nr_custom && line && c->custom[i].line) {
		snprintf(why, whylen, "%.60s: declared twice (first on line %u)",
			 key, c->custom[i].line);
		return -1;
	}
	if (i == LT_CUSTOM_MAX) {
		snprintf(why, whylen, "%.60s: more than %d custom trackers", key,
			 LT_CUSTOM_MAX);
		return -1;
	}
	c->custom[i] = decl;
	if (i == c->nr_custom)
		c->nr_custom++;
	return 1;
}

/* A value's end from a '#' after a blank: a comment, cut off. */
static char *strip_comment(char *v)
{
	for (char *p = v; *p; p++) {
		if (*p == '#' && (p == v || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			break;
		}
	}
	return v;
}

/* Keys a file may set: every option, filter and custom tracker once. */
#define LTD_SEEN_MAX	(2 * (LTD_FILTERS_MAX + LT_CUSTOM_MAX) + 64)

static int load_file(struct ltd_config *c, const char *path, bool must,
		     char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char line[LTD_PATH_MAX + 128], why[1024];
	struct {
		char key[128];
		unsigned int line;
	} *seen = calloc(LTD_SEEN_MAX, sizeof(*seen));
	unsigned int no = 0, nseen = 0, i;

	if (!f || !seen) {
		int e = errno;

		if (f)
			fclose(f);
		free(seen);
		if (!must && e == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -1;
	}
	snprintf(c->config_file, sizeof(c->config_file), "%s", path);
	while (fgets(line, sizeof(line), f)) {
		char *s, *eq, *key, *val;
		const struct ltd_key *k;

		no++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line too long", path, no);
			goto fail;
		}
		s = trim(line);
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%u: expected 'key = value'",
				 path, no);
			goto fail;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(strip_comment(eq + 1));
		/* (custom.NAME: custom_key() says which line declared it.) */
		for (i = 0; i < nseen; i++)
			if (!strcmp(seen[i].key, key))
				break;
		if (i < nseen) {
			snprintf(err, errlen, "%s:%u: %s set twice (first on line %u)",
				 path, no, key, seen[i].line);
			goto fail;
		}
		if (nseen < LTD_SEEN_MAX && strlen(key) < sizeof(seen[0].key) &&
		    strncmp(key, LTD_CUSTOM_PREFIX, strlen(LTD_CUSTOM_PREFIX))) {
			snprintf(seen[nseen].key, sizeof(seen[0].key), "%s", key);
			seen[nseen++].line = no;
		}
		switch (custom_key(c, key, val, no, why, sizeof(why))) {
		case 1:
			continue;
		case -1:
			snprintf(err, errlen, "%s:%u: %s", path, no, why);
			goto fail;
		}
		switch (filter_key(c, key, val, no, why, sizeof(why))) {
		case 1:
			continue;
		case -1:
			snprintf(err, errlen, "%s:%u: %s", path, no, why);
			goto fail;
		}
		k = find_key(key, strlen(key));
		if (!k) {
			snprintf(err, errlen, "%s:%u: unknown key '%s'", path,
				 no, key);
			goto fail;
		}
		if (set_key(c, k, val, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%u: %s: %s", path, no, key,
				 why);
			goto fail;
		}
	}
	fclose(f);
	free(seen);
	return 0;
fail:
	fclose(f);
	free(seen);
	return -1;
}


static void usage(void)
{
	size_t i;

	printf("usage: %s [--config FILE] [--check] [--KEY VALUE]...\n\n", LTD_NAME);
	printf("Logs every latency_tracker alert as a JSON line and records an LTTng\n");
	printf("snapshot of the kernel trace around it.  Keys (command line: --KEY VALUE\n");
	printf("or --KEY=VALUE; config file, default %s: KEY = VALUE):\n",
	       LTD_DEFAULT_CONFIG);
	for (i = 0; i < LTD_NKEYS; i++)
		printf("  %-15s %s\n", ltd_keys[i].name, ltd_keys[i].help);
	printf("  TRACKER.FILTER  a tracker's filter (offcpu.filter_tgid = 1234)\n");
	printf("  custom.NAME     a custom tracker, created at start and on SIGHUP\n");
	printf("                  (custom.slowsync = fn=vfs_fsync threshold=10ms;\n");
	printf("                  an application tracker: custom.checkout = app threshold=20ms)\n");
	printf("On/off keys also work as flags: --explain alone means on, --no-explain off.\n");
	printf("Options:\n");
	for (i = 0; i < OPT_NR; i++) {
		const struct ltd_option *o = &ltd_options[i];
		char name[32];

		snprintf(name, sizeof(name), "%s%s%s%s%s", o->alias ? o->alias : "",
			 o->alias ? ", " : "", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		printf("  %-15s %s\n", name, o->help);
	}
}

/*
 * --check: a filter of a tracker that is not built in, not declared here
 * (custom.NAME) and not loaded under proc-root now is refused (a typo
 * would otherwise only show as an error in the log at start).
 */
static int unknown_filter_tracker(const struct ltd_config *c, char *err,
				  size_t errlen)
{
	setenv("LT_PROC_ROOT", c->proc_root, 1);
	for (unsigned int i = 0; i < c->nr_filters; i++) {
		const struct ltd_filter *f = &c->filters[i];
		bool known = lt_builtin_tracker(f->tracker) ||
			     lt_tracker_exists(f->tracker);
		char where[LTD_PATH_MAX + 16];

		for (unsigned int j = 0; j < c->nr_custom && !known; j++)
			known = !strcmp(c->custom[j].def.name, f->tracker);
		if (known)
			continue;
		if (f->line)
			snprintf(where, sizeof(where), "%s:%u: ", c->config_file,
				 f->line);
		else
			snprintf(where, sizeof(where), "--");
		snprintf(err, errlen, "%s%s.%s: no tracker '%s': not built in (wakeup, offcpu, syscalls, block, ttfb, netrx), not declared (custom.%s) and not loaded under %s",
			 where, f->tracker, f->knob, f->tracker, f->tracker,
			 c->proc_root);
		return -1;
	}
	return 0;
}

int ltd_config_load(int argc, char **argv, struct ltd_config *cfg,
		    bool *check_only, char *err, size_t errlen)
{
	struct ltd_config c;
	const char *file = NULL;
	char why[1024];
	int i;

	*check_only = false;
	defaults(&c);
	/* First pass: --config, --help, --version, --check. */
	for (i = 1; i < argc; i++) {
		if (is_option(argv[i], OPT_HELP)) {
			usage();
			return 1;
		}
		if (is_option(argv[i], OPT_VERSION)) {
			printf("%s %s\n", LTD_NAME, LTD_VERSION);
			return 1;
		}
		if (is_option(argv[i], OPT_CHECK)) {
			*check_only = true;
		} else if (is_option(argv[i], OPT_CONFIG)) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "--config: missing file name");
				return -1;
			}
			file = argv[++i];
		} else if (option_value(argv[i], OPT_CONFIG)) {
			file = option_value(argv[i], OPT_CONFIG);
		}
	}
	if (load_file(&c, file ? file : LTD_DEFAULT_CONFIG, file != NULL, err,
		      errlen))
		return -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val;
		const struct ltd_key *k;

		if (is_option(a, OPT_CHECK))
			continue;
		if (is_option(a, OPT_CONFIG)) {
			i++;
			continue;
		}
		if (option_value(a, OPT_CONFIG))
			continue;
		if (strncmp(a, "--", 2)) {
			snprintf(err, errlen, "unexpected argument '%s' (see --help)", a);
			return -1;
		}
		a += 2;
		eq = strchr(a, '=');
		if (strchr(a, '.') && (!eq || strchr(a, '.') < eq)) {
			/*
			 * --TRACKER.FILTER=VALUE or --TRACKER.FILTER VALUE;
			 * --custom.NAME=DEFINITION or --custom.NAME DEFINITION
			 */
			size_t klen = eq ? (size_t)(eq - a) : strlen(a);
			const char *v;
			char key[128];
			int ret;

			why[0] = '\0';
			snprintf(key, sizeof(key), "%.*s", (int)klen, a);
			if (!eq && i + 1 >= argc) {
				snprintf(err, errlen, "--%s: missing value", key);
				return -1;
			}
			v = eq ? eq + 1 : argv[i + 1];
			ret = custom_key(&c, key, v, 0, why, sizeof(why));
			if (ret == -1) {
				snprintf(err, errlen, "--%s", why);
				return -1;
			}
			if (ret == 1 ||
			    filter_key(&c, key, v, 0, why, sizeof(why)) == 1) {
				i += !eq;
				continue;
			}
			snprintf(err, errlen, "--%s: %s", key,
				 why[0] ? why : "unknown option");
			return -1;
		}
		k = find_key(a, eq ? (size_t)(eq - a) : strlen(a));
		if (!k && !eq && !strncmp(a, "no-", 3)) {
			/* --no-explain: an on/off key turned off */
			k = find_key(a + 3, strlen(a + 3));
			if (k && k->type == KT_BOOL) {
				*(bool *)((char *)&c + k->off) = false;
				continue;
			}
			k = NULL;
		}
		if (!k) {
			snprintf(err, errlen, "unknown option '%s' (see --help)", argv[i]);
			return -1;
		}
		if (eq) {
			val = eq + 1;
		} else if (k->type == KT_BOOL) {
			/* A flag: --explain alone is on; a following on/off is its value. */
			if (i + 1 < argc && bool_word(argv[i + 1]) >= 0)
				val = argv[++i];
			else
				val = "on";
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			snprintf(err, errlen, "--%s: missing value", k->name);
			return -1;
		}
		if (set_key(&c, k, val, why, sizeof(why))) {
			snprintf(err, errlen, "--%s: %s", k->name, why);
			return -1;
		}
	}
	if (c.metrics_bucket_max_ns < c.metrics_bucket_min_ns) {
		snprintf(err, errlen, "%s: metrics-bucket-max (%llu ns) is below metrics-bucket-min (%llu ns)",
			 c.config_file[0] ? c.config_file : "command line",
			 (unsigned long long)c.metrics_bucket_max_ns,
			 (unsigned long long)c.metrics_bucket_min_ns);
		return -1;
	}
	if (*check_only && unknown_filter_tracker(&c, err, errlen))
		return -1;
	if (c.session[0] && !c.output_set) {
		snprintf(err, errlen, "session '%s' needs an explicit output too (a directory or net:// URL): the daemon names each snapshot, and explain and retention need to find it",
			 c.session);
		return -1;
	}
	*cfg = c;
	return 0;
}
