// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_main.c - `latency-tracker explain`: options, choice of the slow
 * interval(s) (--tid/--at/--window, or the latency_tracker alert events of
 * the snapshot), one report each, in the requested formats.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ex_app.h"
#include "ex_critical.h"
#include "ex_model.h"
#include "ex_opts.h"
#include "ex_report.h"
#include "ex_trace.h"
#include "ex_util.h"
#include "explain.h"
#include "lt_num.h"
#include "lt_version.h"

static const char usage[] =
"usage: latency-tracker explain SNAPSHOT [--tid T] [--at TS --window D]\n"
"                               [--format text|json|dot] [-o DIR] [--min-share PCT]\n"
"                               [--pid PID[,PID...]] [--comm NAME] [--past-exit]\n"
"                               [--critical-threshold N]\n"
"       latency-tracker explain --compare SNAPSHOT... [--tid T --between SYSCALL]\n"
"                               [-k 2..4] [--format text|json|dot] [-o DIR]\n"
"\n"
"Explain why a thread was slow, from an LTTng kernel snapshot: its states\n"
"(running, runnable, blocked per syscall), its waiting dependency graph and\n"
"the classification of its waiting time (synchronisation, I/O, CPU, timer).\n"
"Without --tid, every latency_tracker alert event of the snapshot is\n"
"explained; --at TS (CLOCK_MONOTONIC: the alert's ts in ns, or seconds as\n"
"follow prints them, 1234.567890) --window D gives the interval [TS-D, TS].\n"
"D takes ns or a unit: 100ms, 250us, 1.5s.  Times are printed with their\n"
"unit, instants in seconds as follow prints them.\n"
"--compare clusters executions (the alerts, or the spans of --tid between\n"
"consecutive calls of SYSCALL) with k-means and compares the fastest and\n"
"slowest clusters' graphs.  -o DIR also writes explain.txt, explain.json,\n"
"explain-N.dot and explain-N.svg (laid out by Graphviz's libraries) and\n"
"lockview.dot (waiter -> lock -> releaser; lockview.svg too).\n"
"The lock view covers the application: the processes of --pid and those\n"
"with a thread named --comm, or else the explained thread's process.  An\n"
"interval ends at the thread's sched_process_exit unless --past-exit.\n"
"Criticality (GAPP) over the interval, of the same application: a time is\n"
"critical when at most N of its threads are running or runnable while\n"
"others wait (default N: half its threads).\n";

int ex_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("latency-tracker explain: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EX_EXIT_BAD;
}

/* ex_render_svg(): ex_svg.c (Graphviz's libraries, in the process). */

/* "12,34,5" -> pids (allocated); -1 on error. */
static int parse_pids(const char *s, int **out, int *n)
{
	const char *p = s;
	int *pids = NULL, cnt = 0;

	if (!*s)
		return -1;
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > 0x3fffffff ||
		    (*end && *end != ',') || (*end == ',' && !end[1])) {
			free(pids);
			return -1;
		}
		pids = ex_xrealloc(pids, (size_t)(cnt + 1) * sizeof(*pids));
		pids[cnt++] = (int)v;
		p = *end ? end + 1 : end;
	}
	*out = pids;
	*n = cnt;
	return 0;
}

/*
 * --at: an instant of CLOCK_MONOTONIC in ns (an alert's ts), or in seconds
 * with up to 9 decimals as `latency-tracker follow` and this report print
 * it ("1234.567890"): lt_parse_instant().
 */
static int parse_at(const char *s, uint64_t *out)
{
	return lt_parse_instant(s, out);
}

struct interval {
	int tid;
	uint64_t s, e;
	char origin[96];
	const struct ex_alert *alert;	/* the alert it explains, or NULL */
};

/*
 * A thread's life ends at its sched_process_exit: an interval reaching
 * past it ends there (unless --past-exit), and says so.
 */
static void clip_at_exit(const struct ex_opts *o, const struct ex_model *m,
			 struct interval *iv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(iv[i].origin);

		if (ex_report_clip_exit(m, iv[i].tid, iv[i].s, &iv[i].e,
					o->past_exit))
			snprintf(iv[i].origin + len, sizeof(iv[i].origin) - len,
				 ", to its exit");
	}
}

static int pick_intervals(const struct ex_opts *o, const struct ex_model *m,
			  struct interval **out, size_t *n)
{
	size_t cap = 0;
	struct interval *iv;

	*out = NULL;
	*n = 0;
	if (o->tid >= 0) {
		const struct ex_thread *t = ex_model_thread(m, o->tid);

		if (!t || !t->niv)
			return ex_fail("thread %d does not appear in the trace", o->tid);
	}
	if (o->at) {
		if (o->tid < 0 || !o->window)
			return ex_fail("--at needs --tid and --window");
		if (o->window > o->at)
			return ex_fail("--window is longer than --at");
		if (o->at <= m->first_ts || o->at - o->window >= m->last_ts)
			return ex_fail("interval [%" PRIu64 ", %" PRIu64 "] is outside the trace [%" PRIu64 ", %" PRIu64 "]",
				       o->at - o->window, o->at, m->first_ts, m->last_ts);
		iv = EX_PUSH(*out, *n, cap);
		iv->tid = o->tid;
		iv->e = o->at;
		iv->s = o->at - o->window;
		snprintf(iv->origin, sizeof(iv->origin), "--at --window");
		return 0;
	}
	for (size_t i = 0; i < m->nalerts; i++) {
		const struct ex_alert *a = &m->alerts[i];

		if (o->tid >= 0 && a->tid != o->tid)
			continue;
		if (!ex_model_thread(m, a->tid))
			continue;
		iv = EX_PUSH(*out, *n, cap);
		iv->tid = a->tid;
		iv->e = a->ts;
		iv->s = a->delay < a->ts ? a->ts - a->delay : 0;
		snprintf(iv->origin, sizeof(iv->origin), "latency_tracker %s alert",
			 a->tracker);
		iv->alert = a;
	}
	if (*n)
		return 0;
	if (o->tid < 0)
		return ex_fail("no latency_tracker alert event in the snapshot: give --tid (and --at/--window)");
	{
		const struct ex_thread *t = ex_model_thread(m, o->tid);

		iv = EX_PUSH(*out, *n, cap);
		iv->tid = o->tid;
		iv->s = t->iv[0].start;
		iv->e = t->iv[t->niv - 1].end;
		snprintf(iv->origin, sizeof(iv->origin), "the whole trace");
	}
	return 0;
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		ex_fail("%s: %s", path, strerror(errno));
	return f;
}

static int write_outdir(const struct ex_opts *o, struct ex_report *r, size_t n)
{
	char path[4096], svg[4096], name[64];
	FILE *f;

	if (mkdir(o->outdir, 0755) && errno != EEXIST)
		return ex_fail("%s: %s", o->outdir, strerror(errno));
	if (!(f = open_out(o->outdir, "explain.txt", path, sizeof(path))))
		return EX_EXIT_BAD;
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs("\n====\n\n", f);
		ex_out_text(f, &r[i], o->min_share);
	}
	fclose(f);
	if (!(f = open_out(o->outdir, "explain.json", path, sizeof(path))))
		return EX_EXIT_BAD;
	fputs("{\"reports\":[", f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		ex_out_json(f, &r[i]);
	}
	fputs("]}\n", f);
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "explain-%zu.dot", i + 1);
		if (!(f = open_out(o->outdir, name, path, sizeof(path))))
			return EX_EXIT_BAD;
		ex_out_dot(f, &r[i], o->min_share);
		fclose(f);
		snprintf(svg, sizeof(svg), "%s/explain-%zu.svg", o->outdir, i + 1);
		if (!ex_render_svg(path, svg) && o->format == FMT_TEXT)
			printf("graph: %s\n", svg);
		/* The lock view: lockview.dot (of the first report), and
		 * its SVG as the graph's. */
		if (i)
			snprintf(name, sizeof(name), "lockview-%zu", i + 1);
		else
			snprintf(name, sizeof(name), "lockview");
		snprintf(name + strlen(name), sizeof(name) - strlen(name), ".dot");
		if (!(f = open_out(o->outdir, name, path, sizeof(path))))
			return EX_EXIT_BAD;
		ex_out_lockview_dot(f, &r[i]);
		fclose(f);
		snprintf(svg, sizeof(svg), "%.*s.svg", (int)strlen(path) - 4, path);
		if (!ex_render_svg(path, svg) && o->format == FMT_TEXT)
			printf("lock view: %s\n", svg);
	}
	return 0;
}

/* A thread's name in the snapshot (the breakdown's top thread). */
static const char *model_comm(void *arg, int tid)
{
	const struct ex_thread *t = ex_model_thread(arg, tid);

	return t && t->comm[0] ? t->comm : NULL;
}

static int explain_one(const struct ex_opts *o)
{
	struct ex_model m;
	struct interval *iv = NULL;
	struct ex_report *r;
	struct ex_crit *crit;
	size_t n = 0;
	char err[512];
	int ret;

	ex_model_init(&m);
	if (ex_trace_read(o->traces[0], &m, err, sizeof(err))) {
		ex_model_free(&m);
		return ex_fail("%s", err);
	}
	ret = pick_intervals(o, &m, &iv, &n);
	if (ret) {
		ex_model_free(&m);
		return ret;
	}
	clip_at_exit(o, &m, iv, n);
	r = ex_xcalloc(n, sizeof(*r));
	crit = ex_xcalloc(n, sizeof(*crit));
	for (size_t i = 0; i < n; i++) {
		struct ex_app app = {
			.pids = o->pids, .npids = o->npids, .comm = o->comm,
			.pid = ex_app_pid_of(&m, iv[i].tid),
		};

		ex_report_build_app(&r[i], &m, o->traces[0], iv[i].tid, iv[i].s,
				    iv[i].e, &app);
		ex_strlcpy(r[i].origin, iv[i].origin, sizeof(r[i].origin));
		if (iv[i].alert && iv[i].alert->has_bd) {
			ex_bd_check(&m.bd, &iv[i].alert->bd, iv[i].alert->ts,
				    model_comm, &m, &r[i].bdc);
			r[i].has_bdc = true;
		}
		ex_critical_app(&m, &app, iv[i].s, iv[i].e, o->crit_threshold,
				&crit[i]);
		r[i].crit = &crit[i];
	}
	if (o->format == FMT_JSON)
		fputs("{\"reports\":[", stdout);
	for (size_t i = 0; i < n; i++) {
		switch (o->format) {
		case FMT_TEXT:
			if (i)
				fputs("\n====\n\n", stdout);
			ex_out_text(stdout, &r[i], o->min_share);
			break;
		case FMT_JSON:
			if (i)
				fputc(',', stdout);
			ex_out_json(stdout, &r[i]);
			break;
		case FMT_DOT:
			ex_out_dot(stdout, &r[i], o->min_share);
			break;
		}
	}
	if (o->format == FMT_JSON)
		fputs("]}\n", stdout);
	fflush(stdout);
	if (o->outdir)
		ret = write_outdir(o, r, n);
	for (size_t i = 0; i < n; i++) {
		ex_report_free(&r[i]);
		ex_crit_free(&crit[i]);
	}
	free(r);
	free(crit);
	free(iv);
	ex_model_free(&m);
	return ret;
}

static int run(struct ex_opts *o, int argc, char **argv);

int lt_explain_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tid", required_argument, NULL, 't' },
		{ "at", required_argument, NULL, 'a' },
		{ "window", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "min-share", required_argument, NULL, 'm' },
		{ "compare", no_argument, NULL, 'c' },
		{ "between", required_argument, NULL, 'b' },
		{ "clusters", required_argument, NULL, 'k' },
		{ "pid", required_argument, NULL, 'P' },
		{ "comm", required_argument, NULL, 'C' },
		{ "past-exit", no_argument, NULL, 'X' },
		{ "critical-threshold", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ex_opts o = { .tid = -1, .min_share = 0.005, .k = 2,
			     .crit_threshold = -1 };
	char *end;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:a:w:f:o:m:cb:k:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			o.tid = (int)strtol(optarg, &end, 10);
			if (*end || o.tid <= 0) {
				ret = ex_fail("--tid: not a thread id: %s", optarg);
				goto out;
			}
			break;
		case 'a':
			if (parse_at(optarg, &o.at) || !o.at) {
				ret = ex_fail("--at: not an instant (ns, or seconds as follow prints them): %s",
					      optarg);
				goto out;
			}
			break;
		case 'w':
			if (lt_parse_duration(optarg, &o.window) || !o.window) {
				ret = ex_fail("--window: not a duration: %s", optarg);
				goto out;
			}
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				o.format = FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				o.format = FMT_JSON;
			else if (!strcmp(optarg, "dot"))
				o.format = FMT_DOT;
			else
				{
				ret = ex_fail("--format: text, json or dot, not %s", optarg);
				goto out;
			}
			break;
		case 'o':
			o.outdir = optarg;
			break;
		case 'm':
			o.min_share = strtod(optarg, &end) / 100.0;
			if (*end || o.min_share < 0 || o.min_share > 1) {
				ret = ex_fail("--min-share: a percentage, not %s", optarg);
				goto out;
			}
			break;
		case 'c':
			o.compare = true;
			break;
		case 'b':
			o.between = optarg;
			break;
		case 'k':
			o.k = (int)strtol(optarg, &end, 10);
			if (*end || o.k < 2 || o.k > 4) {
				ret = ex_fail("-k: 2 to 4 clusters, not %s", optarg);
				goto out;
			}
			break;
		case 'P':
			free(o.pids);
			o.pids = NULL;
			if (parse_pids(optarg, &o.pids, &o.npids)) {
				ret = ex_fail("--pid: process ids separated by commas, not %s", optarg);
				goto out;
			}
			break;
		case 'C':
			if (!optarg[0] || strlen(optarg) > EX_APP_COMM_MAX) {
				ret = ex_fail("--comm: a thread name of 1 to %d bytes, not '%s'",
					      EX_APP_COMM_MAX, optarg);
				goto out;
			}
			o.comm = optarg;
			break;
		case 'X':
			o.past_exit = true;
			break;
		case 'T': {
			long v = strtol(optarg, &end, 10);

			if (!optarg[0] || *end || v < 0 || v > INT_MAX) {
				ret = ex_fail("--critical-threshold: a number of active threads, not '%s'",
					      optarg);
				goto out;
			}
			o.crit_threshold = (int)v;
			break;
		}
		case 'h':
			fputs(usage, stdout);
			ret = 0;
			goto out;
		case 'V':
			printf("latency-tracker-explain %s\n", LT_TOOLS_VERSION);
			ret = 0;
			goto out;
		default:
			fputs(usage, stderr);
			ret = EX_EXIT_BAD;
			goto out;
		}
	}
	ret = run(&o, argc, argv);
out:
	free(o.pids);
	return ret;
}

static int run(struct ex_opts *o, int argc, char **argv)
{
	o->traces = argv + optind;
	o->ntraces = argc - optind;
	if (o->ntraces < 1) {
		fputs(usage, stderr);
		return EX_EXIT_BAD;
	}
	if (o->compare)
		return ex_compare_main(o);
	if (o->ntraces > 1)
		return ex_fail("one snapshot at a time (several only with --compare)");
	if (o->between)
		return ex_fail("--between goes with --compare");
	return explain_one(o);
}
