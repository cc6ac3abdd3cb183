// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_timeline.c - `latency-tracker timeline SNAPSHOT -o FILE`: options,
 * the output's format and place, the snapshot read as explain reads it
 * (ex_trace_read), one of the two writers (ex_tl_json.c, ex_tl_otf2.c).
 *
 * Everything the arguments can get wrong is checked before anything is
 * written: a JSON file is written beside its name and renamed into place,
 * an OTF2 archive that fails half-way is removed.
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ex_model.h"
#include "ex_timeline.h"
#include "ex_timeline_view.h"
#include "ex_trace.h"
#include "ex_util.h"

#define TL_EXIT_FAIL 1
#define TL_EXIT_BAD 2
#define TL_MAX_PIDS 64

/* The archive name inside a directory given to -o, as lo2s names it. */
#define TL_OTF2_NAME "traces"

static const char usage[] =
"usage: latency-tracker timeline SNAPSHOT -o FILE [--format json|otf2]\n"
"                                [--pid PID[,PID...]]\n"
"\n"
"Write the per-thread timeline of an LTTng kernel snapshot: every thread's\n"
"states (running on CPU n, runnable, blocked in a system call), its system\n"
"calls, block requests, latency_tracker alerts, wakeups as arrows from waker\n"
"to wakee, and one track per CPU.\n"
"  -o FILE.json   Chrome/Perfetto trace-event JSON: open it in\n"
"                 ui.perfetto.dev, chrome://tracing or Trace Compass\n"
"  -o NAME.otf2   an OTF2 archive (NAME.otf2, NAME.def, NAME/) for Vampir,\n"
"                 otf2-print; the directory it is in must exist\n"
"  -o DIR         an OTF2 archive in DIR (created; a name without a suffix\n"
"                 is a DIR): DIR/" TL_OTF2_NAME ".otf2\n"
"  --format F     json or otf2, whatever FILE's name (otf2: FILE is a\n"
"                 directory unless it ends in .otf2)\n"
"  --pid LIST     only the threads of these processes (the CPU tracks\n"
"                 still show every thread that ran)\n"
"An existing OTF2 archive is not overwritten; a JSON file is replaced.\n"
"Exit status: 0 written, 1 writing failed, 2 bad arguments or snapshot\n"
"(nothing written).\n";

enum tl_format { TL_UNSET, TL_JSON, TL_OTF2 };

struct tl_opts {
	const char *snapshot, *out;
	enum tl_format format;
	int pids[TL_MAX_PIDS];
	size_t npids;
	/* OTF2: the archive DIR/NAME.otf2 */
	char dir[4096], name[256];
};

static int tl_fail(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int tl_fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("latency-tracker timeline: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static int parse_pids(struct tl_opts *o, const char *arg)
{
	const char *p = arg;
	char *end;

	do {
		long v;

		if (o->npids == TL_MAX_PIDS)
			return tl_fail(TL_EXIT_BAD, "--pid: at most %d processes",
				       TL_MAX_PIDS);
		errno = 0;
		v = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : 0;
		if (errno || v <= 0 || v >= TL_CPU_PID || (*end && *end != ','))
			return tl_fail(TL_EXIT_BAD, "--pid: not a list of process ids: %s",
				       arg);
		o->pids[o->npids++] = (int)v;
		p = end + 1;
	} while (*end);
	return 0;
}

/* The format and, for OTF2, the archive's directory and name; refuses
 * what it would overwrite. */
static int resolve_output(struct tl_opts *o)
{
	const char *out = o->out;

	if (o->format == TL_UNSET) {
		const char *slash = strrchr(out, '/');

		if (ends_with(out, ".json"))
			o->format = TL_JSON;
		else if (ends_with(out, ".otf2") || ends_with(out, "/") || is_dir(out) ||
			 !strchr(slash ? slash + 1 : out, '.'))
			o->format = TL_OTF2;	/* a name without a suffix: DIR */
		else
			return tl_fail(TL_EXIT_BAD, "-o %s: name a .json file, a .otf2 archive or a directory, or give --format json|otf2",
				       out);
	}
	if (o->format == TL_JSON) {
		const char *slash = strrchr(out, '/');

		if (is_dir(out))
			return tl_fail(TL_EXIT_BAD, "-o %s: a directory; JSON goes to a file",
				       out);
		if (slash && slash > out && (size_t)(slash - out) < sizeof(o->dir)) {
			snprintf(o->dir, sizeof(o->dir), "%.*s", (int)(slash - out), out);
			if (!is_dir(o->dir))
				return tl_fail(TL_EXIT_BAD, "-o %s: directory %s does not exist",
					       out, o->dir);
		}
		return 0;
	}
	if (ends_with(out, ".otf2")) {
		const char *slash = strrchr(out, '/');
		const char *base = slash ? slash + 1 : out;
		size_t dlen = slash ? (size_t)(slash - out) : 0;

		if (strlen(base) - 5 >= sizeof(o->name) || dlen >= sizeof(o->dir))
			return tl_fail(TL_EXIT_BAD, "-o %s: name too long", out);
		if (!slash)
			snprintf(o->dir, sizeof(o->dir), ".");
		else
			snprintf(o->dir, sizeof(o->dir), "%.*s", dlen ? (int)dlen : 1,
				 dlen ? out : "/");
		snprintf(o->name, sizeof(o->name), "%.*s", (int)(strlen(base) - 5), base);
		if (!o->name[0] || !strcmp(o->name, ".") || !strcmp(o->name, ".."))
			return tl_fail(TL_EXIT_BAD, "-o %s: no archive name before .otf2", out);
		if (!is_dir(o->dir))
			return tl_fail(TL_EXIT_BAD, "-o %s: directory %s does not exist",
				       out, o->dir);
	} else {
		if (strlen(out) >= sizeof(o->dir))
			return tl_fail(TL_EXIT_BAD, "-o %s: name too long", out);
		if (exists(out) && !is_dir(out))
			return tl_fail(TL_EXIT_BAD, "-o %s: exists and is not a directory (an OTF2 archive is a directory, or give NAME.otf2)",
				       out);
		snprintf(o->dir, sizeof(o->dir), "%s", out);
		snprintf(o->name, sizeof(o->name), TL_OTF2_NAME);
	}
	{
		static const char *const parts[] = { ".otf2", ".def", "" };
		char path[4400];

		for (size_t i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s%s", o->dir, o->name, parts[i]);
			if (exists(path))
				return tl_fail(TL_EXIT_BAD, "%s exists: not overwriting an OTF2 archive (remove it first)",
					       path);
		}
	}
	return 0;
}

static int parse_args(struct tl_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:f:p:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!optarg[0])
				return tl_fail(TL_EXIT_BAD, "-o: an empty name");
			o->out = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				o->format = TL_JSON;
			else if (!strcmp(optarg, "otf2"))
				o->format = TL_OTF2;
			else
				return tl_fail(TL_EXIT_BAD, "--format: json or otf2, not %s",
					       optarg);
			break;
		case 'p':
			ret = parse_pids(o, optarg);
			if (ret)
				return ret;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		case ':':
			return tl_fail(TL_EXIT_BAD, "%s needs a value (--help for usage)",
				       argv[optind - 1]);
		default:
			return tl_fail(TL_EXIT_BAD, "unknown option %s (--help for usage)",
				       argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return tl_fail(TL_EXIT_BAD, argc > optind ?
			       "one snapshot at a time (--help for usage)" :
			       "no snapshot given (--help for usage)");
	o->snapshot = argv[optind];
	if (!o->out)
		return tl_fail(TL_EXIT_BAD, "no output: give -o FILE.json, -o NAME.otf2 or -o DIR");
	return resolve_output(o);
}

static int check_pids(const struct tl_opts *o, const struct ex_model *m)
{
	for (size_t i = 0; i < o->npids; i++) {
		bool found = false;

		for (size_t j = 0; j < m->nth && !found; j++)
			found = tl_pid(m->th[j]) == o->pids[i];
		if (!found)
			return tl_fail(TL_EXIT_BAD, "--pid %d: no thread of that process in the snapshot",
				       o->pids[i]);
	}
	return 0;
}

static int write_json(const struct tl_opts *o, const struct tl_view *v)
{
	size_t len = strlen(o->out) + 16;
	char *tmp = ex_xmalloc(len);
	FILE *f;
	int fd, ret = 0;

	snprintf(tmp, len, "%s.XXXXXX", o->out);
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = tl_fail(TL_EXIT_FAIL, "%s: %s", o->out, strerror(errno));
		free(tmp);
		return ret;
	}
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f || tl_write_json(f, v, o->snapshot) || fflush(f) || fsync(fd)) {
		ret = tl_fail(TL_EXIT_FAIL, "%s: %s", o->out, strerror(errno ? errno : EIO));
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
	} else if (fclose(f) || rename(tmp, o->out)) {
		ret = tl_fail(TL_EXIT_FAIL, "%s: %s", o->out, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static int write_otf2(const struct tl_opts *o, const struct tl_view *v)
{
	bool created = false;
	char err[512], path[4400];

	if (!is_dir(o->dir)) {
		if (mkdir(o->dir, 0755))
			return tl_fail(TL_EXIT_FAIL, "%s: %s", o->dir, strerror(errno));
		created = true;
	}
	if (!tl_write_otf2(o->dir, o->name, v, err, sizeof(err)))
		return 0;
	/* Remove the half-written archive. */
	snprintf(path, sizeof(path), "%s/%s.otf2", o->dir, o->name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s.def", o->dir, o->name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", o->dir, o->name);
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (created)
		rmdir(o->dir);
	return tl_fail(TL_EXIT_FAIL, "%s: %s", o->out, err);
}

int lt_timeline_main(int argc, char **argv)
{
	struct tl_opts o = { 0 };
	struct ex_model m;
	struct tl_view v;
	char err[512];
	int ret;

	ret = parse_args(&o, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	ex_model_init(&m);
	if (ex_trace_read(o.snapshot, &m, err, sizeof(err))) {
		ex_model_free(&m);
		return tl_fail(TL_EXIT_BAD, "%s", err);
	}
	ret = check_pids(&o, &m);
	if (!ret) {
		tl_view_init(&v, &m, o.pids, o.npids);
		ret = o.format == TL_JSON ? write_json(&o, &v) : write_otf2(&o, &v);
	}
	if (!ret) {
		size_t nshown = 0;

		for (size_t i = 0; i < m.nth; i++)
			nshown += tl_shown(&v, m.th[i]);
		if (o.format == TL_JSON)
			printf("timeline: %s (trace-event JSON: ui.perfetto.dev, Trace Compass): %zu threads, %d CPUs\n",
			       o.out, nshown, m.ncpu);
		else
			printf("timeline: %s/%s.otf2 (OTF2: Vampir, otf2-print): %zu threads, %d CPUs\n",
			       o.dir, o.name, nshown, m.ncpu);
	}
	ex_model_free(&m);
	return ret;
}
