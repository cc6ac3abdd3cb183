// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_knob.c - `latency-tracker get <tracker> [knob] [--raw] [--json]` and
 * `latency-tracker set <tracker> <knob> <value>`: the rw files of a
 * tracker, times with units (a bare number is ns), filters as people
 * write them (lt_filter.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lt_filter.h"
#include "lt_json.h"
#include "lt_num.h"
#include "lt_proc.h"

static int check_knob(const char *name, const struct lt_knob **k)
{
	size_t i;
	char known[256] = "";

	*k = lt_knob_find(name);
	if (*k)
		return CLI_OK;
	for (i = 0; i < lt_nknobs; i++) {
		strcat(known, i ? ", " : "");
		strcat(known, lt_knobs[i].name);
	}
	cli_err("unknown knob '%s' (knobs: %s)", name, known);
	return CLI_USAGE;
}

/* How get prints: text (with units unless raw), or JSON members. */
struct show_fmt {
	bool raw, json, named;
};

/* ,"name": after the members before it ("tracker" is the first). */
static void json_key(const char *name)
{
	printf(",");
	lt_json_cstr(stdout, name);
	printf(":");
}

/* A filter's text; "(all)" when it is off, unless raw. */
static int show_text(const char *tracker, const struct lt_knob *k,
		     struct show_fmt *fm)
{
	char *s = lt_proc_read_file(tracker, k->name);
	size_t n;

	if (!s) {
		if (fm->named && errno == ENOENT)
			return CLI_OK;	/* not a filter of this tracker */
		cli_err("cannot read %s/%s: %s", tracker, k->name,
			strerror(errno));
		return CLI_FAIL;
	}
	n = strlen(s);
	if (n && s[n - 1] == '\n')
		s[--n] = '\0';
	if (fm->json) {
		json_key(k->name);
		lt_json_str(stdout, s, n);
	} else {
		if (fm->named)
			printf("%-16s ", k->name);
		printf("%s\n", n || fm->raw ? s : "(all)");
	}
	free(s);
	return CLI_OK;
}

/* A knob's value as get shows it and set echoes it. */
static const char *knob_text(const struct lt_knob *k, uint64_t v, char *buf,
			     size_t len)
{
	if (k->kind == LT_KNOB_BOOL)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (!v && !strcmp(k->name, "timeout"))
		snprintf(buf, len, "0 (off)");
	else
		lt_format_duration(v, buf, len);
	return buf;
}

static int show(const char *tracker, const struct lt_knob *k,
		struct show_fmt *fm)
{
	uint64_t v;
	int ret;

	if (k->kind == LT_KNOB_TEXT)
		return show_text(tracker, k, fm);
	ret = lt_knob_read(tracker, k->name, &v);
	if (ret == -ENOENT && fm->named && lt_filter_is(k->name))
		return CLI_OK;		/* an older module: no filters */
	if (ret) {
		cli_err("cannot read %s/%s: %s", tracker, k->name,
			strerror(-ret));
		return CLI_FAIL;
	}
	if (fm->json) {
		json_key(k->name);
		printf("%llu", (unsigned long long)v);
		return CLI_OK;
	}
	if (fm->named)
		printf("%-16s ", k->name);
	if (fm->raw) {
		printf("%llu\n", (unsigned long long)v);
	} else {
		char buf[32];

		printf("%s\n", knob_text(k, v, buf, sizeof(buf)));
	}
	return CLI_OK;
}

int cli_get(int argc, char **argv)
{
	struct show_fmt fm = { .raw = false };
	const struct cli_opt opts[] = {
		{ "--raw", &fm.raw, NULL },
		{ "--json", &fm.json, NULL },
		{ NULL, NULL, NULL },
	};
	const char *pos[2];
	const struct lt_knob *k = NULL;
	int ret, npos;

	ret = cli_args(argc, argv, opts, pos, 1, 2, &npos);
	if (ret)
		return ret;
	if (npos == 2 && (ret = check_knob(pos[1], &k)))
		return ret;
	ret = cli_check_tracker(pos[0]);
	if (ret)
		return ret;
	if (fm.json) {
		printf("{\"tracker\":");
		lt_json_cstr(stdout, pos[0]);
	}
	if (k) {
		ret = show(pos[0], k, &fm);
	} else {
		fm.named = true;
		for (size_t j = 0; j < lt_nknobs && !ret; j++)
			ret = show(pos[0], &lt_knobs[j], &fm);
	}
	/* A failed read leaves the object open: not valid JSON. */
	if (fm.json)
		printf("%s\n", ret ? "" : "}");
	return ret;
}

static int parse_value(const struct lt_knob *k, const char *s, uint64_t *v)
{
	if (k->kind == LT_KNOB_BOOL) {
		if (!strcmp(s, "1") || !strcmp(s, "on") || !strcmp(s, "yes")) {
			*v = 1;
			return 0;
		}
		if (!strcmp(s, "0") || !strcmp(s, "off") || !strcmp(s, "no")) {
			*v = 0;
			return 0;
		}
		cli_err("bad value '%s' for %s (want 1/0, on/off)", s, k->name);
		return -1;
	}
	if (!strcmp(s, "off") && !strcmp(k->name, "timeout")) {
		*v = 0;
		return 0;
	}
	if (lt_parse_duration(s, v)) {
		cli_err("bad duration '%s' for %s (examples: 5ms, 200us, 1.5s, 100ns)",
			s, k->name);
		return -1;
	}
	return 0;
}

/*
 * A bare number is nanoseconds (as in the /proc files); one that sets a
 * time below 1 us is most likely a unit forgotten: say so, after the
 * write.  0 is a setting of its own for timeout (off) and
 * wakeup_interval (no rate limit), not for threshold.
 */
static void warn_bare_ns(const struct lt_knob *k, const char *s, uint64_t v)
{
	uint64_t n;

	if (k->kind != LT_KNOB_DURATION || lt_parse_u64(s, &n) ||
	    v >= LT_NSEC_PER_USEC || (!v && strcmp(k->name, "threshold")))
		return;
	cli_warn("%s %s is %llu ns: a bare number is nanoseconds (a unit forgotten? %sus, %sms)",
		 k->name, s, (unsigned long long)v, s, s);
}

/* set for a filter given as text (filter_cgroup, filter_tgid, filter_dev). */
static int set_text(const char *tracker, const struct lt_knob *k,
		    const char *in)
{
	char val[4096], why[256];
	int ret;

	if (lt_filter_value(k->name, in, val, sizeof(val), why, sizeof(why))) {
		cli_err("%s", why);
		return CLI_USAGE;
	}
	ret = cli_check_tracker(tracker);
	if (ret)
		return ret;
	ret = lt_text_write(tracker, k->name, val);
	if (ret == -EINVAL) {
		cli_err("%s: the kernel refused %s '%s' (%s)", tracker, k->name,
			val, !strcmp(k->name, "filter_cgroup") ?
			"no such cgroup v2 directory" :
			!strcmp(k->name, "filter_tgid") ?
			"no such process, or more than 8, or not for this tracker" :
			"bad device, or more than 8");
		return CLI_USAGE;
	}
	if (ret == -ENOENT) {
		cli_err("%s has no %s", tracker, k->name);
		return CLI_USAGE;
	}
	if (ret) {
		cli_err("cannot write %s/%s: %s", tracker, k->name,
			strerror(-ret));
		return CLI_FAIL;
	}
	printf("%s %s = %s\n", tracker, k->name, *val ? val : "(all)");
	return CLI_OK;
}

int cli_set(int argc, char **argv)
{
	const struct lt_knob *k;
	uint64_t v;
	int ret;

	if (argc != 4 && !(argc == 3 && !strncmp(argv[2], "filter_", 7))) {
		cli_err("usage: latency-tracker set <tracker> <knob> <value>");
		return CLI_USAGE;
	}
	ret = check_knob(argv[2], &k);
	if (ret)
		return ret;
	if (k->kind == LT_KNOB_TEXT)
		return set_text(argv[1], k, argc == 4 ? argv[3] : "");
	if (argc != 4) {
		cli_err("usage: latency-tracker set <tracker> <knob> <value>");
		return CLI_USAGE;
	}
	if (parse_value(k, argv[3], &v))
		return CLI_USAGE;
	ret = cli_check_tracker(argv[1]);
	if (ret)
		return ret;
	ret = lt_knob_write(argv[1], k->name, v);
	if (ret == -EINVAL && k->kind == LT_KNOB_BOOL) {
		cli_err("%s: the kernel refused %s = %llu", argv[1], k->name,
			(unsigned long long)v);
		return CLI_USAGE;
	}
	if (ret == -EINVAL) {
		cli_err("%s: the kernel refused %s = %llu ns (out of range)",
			argv[1], k->name, (unsigned long long)v);
		return CLI_USAGE;
	}
	if (ret) {
		cli_err("cannot write %s/%s: %s", argv[1], k->name,
			strerror(-ret));
		return CLI_FAIL;
	}
	{
		char buf[32];

		printf("%s %s = %s\n", argv[1], k->name,
		       knob_text(k, v, buf, sizeof(buf)));
	}
	if (k->kind != LT_KNOB_BOOL) {
		fflush(stdout);
		warn_bare_ns(k, argv[3], v);
	}
	return CLI_OK;
}
