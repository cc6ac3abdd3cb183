// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_flame.c - `latency-tracker flamegraph`: the stacks of the alert
 * records (stack=, waker_stack=, ustack=; docs/design.md, "Stacks in
 * records") of a latency-trackerd log, of a snapshot or of the live
 * alerts, as folded stacks (--folded) or as an interactive SVG flame
 * graph.  Folding: lt_folded.c; the SVG: lt_flamesvg.c; the log:
 * lt_logread.c; the snapshot: ex_alerts.c; live: cli_flame_live.c; the
 * names of the user frames (--binary, --debuginfod): lt_usym.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_flame.h"
#include "ex_alerts.h"
#include "lt_flamesvg.h"
#include "lt_folded.h"
#include "lt_logread.h"
#include "lt_num.h"
#include "lt_usym.h"

/* The largest pid the kernel hands out (PID_MAX_LIMIT). */
#define FLAME_PID_MAX	4194304

struct flame_args {
	const char *tracker, *pid, *since, *until, *mode, *out, *duration;
	bool folded, debuginfod;
	const char *source;
	const char **binaries;	/* --binary, nbinaries of them */
	int nbinaries;
};

static int add_record(void *arg, const struct lt_record *r)
{
	return lt_samples_add(arg, r) ? -1 : 0;
}

static bool oom_snapshot;

static void add_event(void *arg, const struct lt_record *r)
{
	if (lt_samples_add(arg, r))
		oom_snapshot = true;
}

/* A log (or alert lines): a file, or standard input for "-". */
static int read_log(const char *path, struct lt_samples *s)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "re") : stdin;
	struct lt_logread_stats st;
	int ret;

	if (!in) {
		cli_err("%s: %s", path, strerror(errno));
		return CLI_FAIL;
	}
	ret = lt_logread(in, add_record, s, &st);
	if (ret)
		cli_err("%s: %s", path, ret < 0 && errno ? strerror(errno) :
			"out of memory");
	if (in != stdin)
		fclose(in);
	/* Said here with the first one (the summary counts live ones). */
	if (st.malformed)
		cli_warn("%s: %llu malformed line%s skipped (the first: line %llu, %s)",
			 path, (unsigned long long)st.malformed,
			 st.malformed == 1 ? "" : "s",
			 (unsigned long long)st.first_bad, st.first_why);
	return ret ? CLI_FAIL : CLI_OK;
}

static int read_snapshot(const char *path, struct lt_samples *s)
{
	struct ex_alerts_stats st;
	char err[512];

	oom_snapshot = false;
	if (ex_alerts_read(path, add_event, s, &st, err, sizeof(err))) {
		cli_err("%s", err);
		return CLI_FAIL;
	}
	if (oom_snapshot) {
		cli_err("out of memory");
		return CLI_FAIL;
	}
	if (st.malformed)
		cli_warn("%s: %llu latency_tracker event%s without cause or delay skipped",
			 path, (unsigned long long)st.malformed,
			 st.malformed == 1 ? "" : "s");
	if (st.discarded)
		cli_warn("%s: the tracer discarded %llu events: alerts may be missing",
			 path, (unsigned long long)st.discarded);
	return CLI_OK;
}

static int parse(const struct flame_args *a, struct lt_fold_opts *o,
		 uint64_t *duration)
{
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->tracker = a->tracker;
	if (a->tracker && !*a->tracker) {
		cli_err("empty tracker name for --tracker");
		return CLI_USAGE;
	}
	if (a->mode && lt_fold_mode_parse(a->mode, &o->mode)) {
		cli_err("bad mode '%s' for --mode (offcpu, offwake or syscalls)",
			a->mode);
		return CLI_USAGE;
	}
	if (a->pid) {
		if (lt_parse_u64(a->pid, &v) || !v || v > FLAME_PID_MAX) {
			cli_err("bad pid '%s' for --pid", a->pid);
			return CLI_USAGE;
		}
		o->pid_set = true;
		o->pid = (int64_t)v;
	}
	if (a->since) {
		if (lt_parse_instant(a->since, &o->since)) {
			cli_err("bad time '%s' for --since (an alert's ts in ns, or seconds as follow prints them: 1234.567890)",
				a->since);
			return CLI_USAGE;
		}
		o->since_set = true;
	}
	if (a->until) {
		if (lt_parse_instant(a->until, &o->until)) {
			cli_err("bad time '%s' for --until (an alert's ts in ns, or seconds as follow prints them: 1234.567890)",
				a->until);
			return CLI_USAGE;
		}
		o->until_set = true;
	}
	if (o->since_set && o->until_set && o->since > o->until) {
		cli_err("--since %s is after --until %s", a->since, a->until);
		return CLI_USAGE;
	}
	*duration = 0;
	if (a->duration) {
		if (a->source) {
			cli_err("--duration is for the live alerts, not with a source");
			return CLI_USAGE;
		}
		if (lt_parse_duration(a->duration, duration) || !*duration) {
			cli_err("bad duration '%s' for --duration (e.g. 10s, 500ms)",
				a->duration);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

static int read_source(const struct flame_args *a, struct lt_samples *s,
		       uint64_t duration)
{
	struct stat st;

	if (!a->source)
		return cli_flame_live(s, a->tracker, duration);
	if (!strcmp(a->source, "-"))
		return read_log(a->source, s);
	if (stat(a->source, &st)) {
		cli_err("%s: %s", a->source, strerror(errno));
		return CLI_FAIL;
	}
	if (S_ISDIR(st.st_mode))
		return read_snapshot(a->source, s);
	return read_log(a->source, s);
}

/* The symbolizer, with the --binary files indexed. */
static int usym_open(const struct flame_args *a, struct lt_usym **u)
{
	char why[1024];

	*u = lt_usym_new(a->debuginfod);
	if (!*u) {
		cli_err("out of memory");
		return CLI_FAIL;
	}
	for (int i = 0; i < a->nbinaries; i++) {
		if (!lt_usym_add_binary(*u, a->binaries[i], why, sizeof(why)))
			continue;
		cli_err("--binary %s", why);
		/* A file that is not ELF or has no build id: a bad value. */
		return errno == ENOEXEC || errno == ENODATA ? CLI_USAGE : CLI_FAIL;
	}
	return CLI_OK;
}

/* The user frames (ustack=) named before folding, so that they merge. */
static int symbolize(struct lt_usym *u, struct lt_samples *s)
{
	for (size_t i = 0; i < s->n; i++) {
		char *v;

		if (!s->v[i].ustack || !*s->v[i].ustack)
			continue;
		v = lt_usym_stack(u, s->v[i].ustack);
		if (!v) {
			cli_err("out of memory");
			return CLI_FAIL;
		}
		free(s->v[i].ustack);
		s->v[i].ustack = v;
	}
	return CLI_OK;
}

static const char *what(const struct lt_folded *f)
{
	switch (f->mode) {
	case LT_FOLD_OFFWAKE:
		return "Off-CPU time with wakers";
	case LT_FOLD_SYSCALLS:
		if (!strcmp(f->tracker, "syscalls"))
			return "Blocked system calls";
		break;
	default:
		if (!strcmp(f->tracker, "offcpu"))
			return "Off-CPU time";
		break;
	}
	return "Alert stacks";
}

static int write_svg(FILE *out, const struct flame_args *a,
		     const struct lt_fold_opts *o, const struct lt_folded *f)
{
	struct lt_flamesvg_opts so;
	char title[1024], sub[1024], t[32];
	size_t n;

	snprintf(title, sizeof(title), "%s \xe2\x80\x94 tracker %s \xe2\x80\x94 %s%s",
		 what(f), f->tracker,
		 !a->source ? "live alerts" : "", a->source ? a->source : "");
	n = (size_t)snprintf(sub, sizeof(sub), "mode %s, %zu record%s, total %s",
			     lt_fold_mode_name(f->mode), f->used,
			     f->used == 1 ? "" : "s",
			     lt_format_duration_short(f->total, t, sizeof(t)));
	if (o->pid_set && n < sizeof(sub))
		n += (size_t)snprintf(sub + n, sizeof(sub) - n, ", pid %lld",
				      (long long)o->pid);
	if (o->since_set && n < sizeof(sub))
		n += (size_t)snprintf(sub + n, sizeof(sub) - n, ", since %llu.%09llu",
				      (unsigned long long)(o->since / LT_NSEC_PER_SEC),
				      (unsigned long long)(o->since % LT_NSEC_PER_SEC));
	if (o->until_set && n < sizeof(sub))
		snprintf(sub + n, sizeof(sub) - n, ", until %llu.%09llu",
			 (unsigned long long)(o->until / LT_NSEC_PER_SEC),
			 (unsigned long long)(o->until % LT_NSEC_PER_SEC));
	so.title = title;
	so.subtitle = sub;
	return lt_flamesvg_write(out, f, &so);
}

static int write_output(const struct flame_args *a,
			const struct lt_fold_opts *o, const struct lt_folded *f)
{
	FILE *out = a->out ? fopen(a->out, "we") : stdout;
	int ret = 0;

	if (!out) {
		cli_err("%s: %s", a->out, strerror(errno));
		return CLI_FAIL;
	}
	if (a->folded)
		lt_folded_write(out, f);
	else
		ret = write_svg(out, a, o, f);
	if (ret)
		cli_err("out of memory");
	if (fflush(out) || ferror(out)) {
		cli_err("%s: %s", a->out ? a->out : "standard output",
			strerror(errno));
		ret = -1;
	}
	if (out != stdout && fclose(out) && !ret) {
		cli_err("%s: %s", a->out, strerror(errno));
		ret = -1;
	}
	return ret ? CLI_FAIL : CLI_OK;
}

/* What was used and what was not, on stderr. */
static void summary(const struct lt_samples *s, const struct lt_folded *f,
		    const struct lt_usym *u)
{
	uint64_t named, unnamed;

	if (!f->used) {
		cli_warn("no record of tracker %s%s", f->tracker,
			 f->filtered ? " matched --pid, --since and --until" : "");
	} else {
		char t[32];

		fprintf(stderr, "latency-tracker: %zu record%s of tracker %s, total %s, %zu stack%s\n",
			f->used, f->used == 1 ? "" : "s", f->tracker,
			lt_format_duration_short(f->total, t, sizeof(t)),
			f->n, f->n == 1 ? "" : "s");
	}
	if (s->malformed)
		cli_warn("%llu malformed record%s skipped",
			 (unsigned long long)s->malformed,
			 s->malformed == 1 ? "" : "s");
	if (s->lost_lines)
		cli_warn("%llu lost-record notice%s: %llu record%s lost by the reader",
			 (unsigned long long)s->lost_lines,
			 s->lost_lines == 1 ? "" : "s",
			 (unsigned long long)s->lost_records,
			 s->lost_records == 1 ? "" : "s");
	lt_usym_counts(u, &named, &unnamed);
	if (unnamed)
		cli_warn("%llu of %llu user frames not named: no ELF file of their build id found, or no symbol there (--binary FILE, the -dbgsym package, --debuginfod)",
			 (unsigned long long)unnamed,
			 (unsigned long long)(named + unnamed));
}

int cli_flamegraph(int argc, char **argv)
{
	struct flame_args a = { 0 };
	const struct cli_opt opts[] = {
		{ "--tracker", NULL, &a.tracker },
		{ "--pid", NULL, &a.pid },
		{ "--since", NULL, &a.since },
		{ "--until", NULL, &a.until },
		{ "--mode", NULL, &a.mode },
		{ "--folded", &a.folded, NULL },
		{ "-o", NULL, &a.out },
		{ "--duration", NULL, &a.duration },
		{ "--debuginfod", &a.debuginfod, NULL },
		{ NULL, NULL, NULL },
	};
	const char **binaries = calloc((size_t)(argc > 0 ? argc : 1),
				       sizeof(*binaries));
	const struct cli_multi multi[] = {
		{ "--binary", binaries, &a.nbinaries },
		{ NULL, NULL, NULL },
	};
	struct lt_usym *u = NULL;
	struct lt_samples s = { 0 };
	struct lt_fold_opts o;
	struct lt_folded f = { 0 };
	const char *pos[1];
	uint64_t duration;
	int ret, npos;

	if (!binaries) {
		cli_err("out of memory");
		return CLI_FAIL;
	}
	a.binaries = binaries;
	ret = cli_args_multi(argc, argv, opts, multi, pos, 0, 1, &npos);
	if (ret) {
		free(binaries);
		return ret;
	}
	a.source = npos ? pos[0] : NULL;
	ret = parse(&a, &o, &duration);
	if (!ret)
		ret = usym_open(&a, &u);
	if (!ret)
		ret = read_source(&a, &s, duration);
	if (!ret)
		ret = symbolize(u, &s);
	if (!ret && lt_fold(&s, &o, &f)) {
		cli_err("out of memory");
		ret = CLI_FAIL;
	}
	if (!ret)
		ret = write_output(&a, &o, &f);
	if (!ret)
		summary(&s, &f, u);
	lt_folded_free(&f);
	lt_samples_free(&s);
	lt_usym_free(u);
	free(binaries);
	return ret;
}
