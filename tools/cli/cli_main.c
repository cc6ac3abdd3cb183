// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_main.c - latency-tracker: the subcommand dispatcher, --help and
 * --version, option parsing and the checks every subcommand shares.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explain.h"
#include "ex_timeline.h"
#include "lt_proc.h"
#include "lt_version.h"

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *help;	/* NULL: the command prints its own */
};

static const struct cli_cmd cli_cmds[] = {
	{ "list", cli_list, "list [--json]",
	  "The loaded trackers with their threshold, timeout, state and counts.\n"
	  "  --json   one JSON object: {\"trackers\": [{\"tracker\", \"threshold\",\n"
	  "           \"timeout\", \"enable\", \"stats\": {...}}, ...]}\n" },
	{ "get", cli_get, "get <tracker> [knob] [--raw] [--json]",
	  "One knob of a tracker, or all of them (its filters too), times with units.\n"
	  "  --raw    times in ns; a filter that is off as an empty value\n"
	  "  --json   one JSON object: \"tracker\" and each knob as its /proc file\n"
	  "           has it (times in ns, 0/1, a filter's text)\n" },
	{ "set", cli_set, "set <tracker> <knob> <value>",
	  "Write a knob.  Times take units: 5ms, 200us, 1.5s, 100ns; a bare number\n"
	  "is nanoseconds (with a warning when it sets a time below 1us).  timeout\n"
	  "also takes off; enable and kthreads 1/0, on/off, yes/no; a filter takes\n"
	  "its text (latency-tracker(1), FILTERS), empty or none for all.\n" },
	{ "stats", cli_stats, "stats <tracker> [--raw] [--json]",
	  "The tracker's counters, times with units.\n"
	  "  --raw    as the kernel prints them (ns)\n"
	  "  --json   one JSON object: {\"tracker\", \"stats\": {name: value}}, times in\n"
	  "           ns, null while nothing was matched\n" },
	{ "hist", cli_hist, "hist <tracker> [--percentiles] [--json]",
	  "The log2 histogram of matched delays as bars sized to the terminal\n"
	  "(COLUMNS, else its width, else 80).\n"
	  "  --percentiles, -p  also p50, p90, p99 (estimated: linear inside the\n"
	  "                     log2 bucket of the rank, clamped to the exact min\n"
	  "                     and max of stats) and max (exact)\n"
	  "  --json   one JSON object: buckets, percentiles, max_ns\n" },
	{ "follow", cli_follow, "follow [--json] [-n N] [tracker...]",
	  "Print alert records as they come, from the trackers named (default: all,\n"
	  "also those loaded later).\n"
	  "  --json   one JSON object per record: \"type\" alert, lost or malformed,\n"
	  "           then the record's fields (numbers as numbers)\n"
	  "  -n N     stop after N records\n" },
	{ "add", cli_add, "add <name> <definition>... [--dry-run]",
	  "Define a custom tracker (module latency_tracker_custom): from the entry of a\n"
	  "kernel function to its return, or between two probes, matched by a key.\n"
	  "  <name> fn=FUNC [key=tid|tgid] [threshold=T] [timeout=T] [max_events=N] [stack=0|1]\n"
	  "  <name> in=PROBE out=PROBE (key=KEY | in_key=KEY out_key=KEY) [the same options]\n"
	  "  PROBE: kprobe:FUNC, kretprobe:FUNC or tp:SYSTEM:EVENT\n"
	  "  KEY:   tid, tgid; argN or argN+OFF (N = 1..6, OFF bytes, decimal or 0x hex:\n"
	  "         the u64 there) at a kprobe end; ret at a kretprobe end\n"
	  "  <name>: a lowercase letter, then up to 31 of a-z, 0-9, _; not a built-in\n"
	  "  or reserved name.  T takes units (10ms, 200us, 1.5ms, 5\u00b5s; bare: ns):\n"
	  "  threshold 1ns..1000s (default 1ms), timeout off (default) or 1ms..1000s;\n"
	  "  max_events 1..4194304 (default 4096); stack=1 prints the kernel stack at\n"
	  "  the out end to dmesg.\n"
	  "The definition is checked before anything is written, then written to\n"
	  "/proc/latency_tracker/custom with times in ns.\n"
	  "  --dry-run  print that line and write nothing\n"
	  "Examples: add slowsync fn=vfs_fsync threshold=10ms\n"
	  "          add blk in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request \\\n"
	  "              key=arg1 threshold=2ms stack=1\n" },
	{ "del", cli_del, "del <name>",
	  "Delete a custom tracker (its /proc/latency_tracker/<name>/ goes with it).\n" },
	{ "flamegraph", cli_flamegraph,
	  "flamegraph [--tracker T] [--pid P] [--since T0] [--until T1] [--mode offcpu|offwake|syscalls] [--folded] [-o FILE.svg] [--duration D] [--binary FILE]... [--debuginfod] [SOURCE]",
	  "A flame graph of the stacks of the alert records (stack=, waker_stack=,\n"
	  "ustack=): an interactive SVG (hover, click to zoom, search), or folded\n"
	  "stacks (comm;root;...;leaf weight) for other flame graph tools.  The\n"
	  "width of a stack is the sum of the delays of its records.\n"
	  "SOURCE: a latency-trackerd JSON log (or saved alert lines; - for stdin),\n"
	  "a snapshot directory, or none: the live alerts until Ctrl-C, SIGTERM\n"
	  "or --duration (root).\n"
	  "  --mode M       offcpu (tracker offcpu: the default when the source has\n"
	  "                 it), syscalls (tracker syscalls), offwake (offcpu with the\n"
	  "                 waker's stack above the blocked one, after a \"--\" frame)\n"
	  "  --tracker T    the records of tracker T (a custom one with stack=1...)\n"
	  "  --pid P        only the records whose pid or tgid is P\n"
	  "  --since T0     only the records with ts >= T0; --until T1: ts <= T1\n"
	  "                 (ns as in ts=, or seconds as follow prints them)\n"
	  "  --folded       folded stacks instead of the SVG\n"
	  "  -o FILE        write to FILE (default: standard output)\n"
	  "  --duration D   live: stop after D (10s, 500ms)\n"
	  "  --binary FILE  name the user frames (ustack=) of FILE's build id from\n"
	  "                 it (repeatable); else from /usr/lib/debug/.build-id/\n"
	  "                 (the -dbgsym packages)\n"
	  "  --debuginfod   also fetch the files of the other build ids from the\n"
	  "                 servers of DEBUGINFOD_URLS (default debuginfod.debian.net):\n"
	  "                 no network access without it\n"
	  "Lost-record notices and malformed lines are counted on stderr.\n" },
	/* The analysis of a snapshot (tools/explain/): no root needed. */
	{ "explain", lt_explain_main,
	  "explain <snapshot> [--tid T] [--at TS --window D] | explain --compare <snapshot>...",
	  NULL },
	{ "timeline", lt_timeline_main,
	  "timeline <snapshot> -o FILE.json|NAME.otf2|DIR [--format json|otf2] [--pid PID,...]",
	  NULL },
};

#define CLI_NCMDS	(sizeof(cli_cmds) / sizeof(cli_cmds[0]))

/* The command running, for usage messages. */
static const struct cli_cmd *cli_cur;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fputs("latency-tracker: ", stderr);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

static const char *usage_of(void)
{
	return cli_cur ? cli_cur->usage : "<command> [args]";
}

/* getopt_long()'s code for the long option opts[i]. */
#define CLI_LONG_BASE	256

/* "--name" or "-c" of the option getopt_long() just refused. */
static const char *refused_opt(char **argv, char *buf, size_t len)
{
	if (optopt) {
		snprintf(buf, len, "-%c", optopt);
		return buf;
	}
	return argv[optind - 1];
}

/*
 * getopt_long() does the splitting: combined short options (-pn3), a value
 * stuck to its option (-n3, --opt=V), positionals before or after them,
 * and "--" before positionals that start with '-'.  Its own messages are
 * off (opterr = 0, a leading ':'): ours name the command's usage.  Option
 * i is opts[i], or multi[i - (the number of opts)] after them.
 */
int cli_args_multi(int argc, char **argv, const struct cli_opt *opts,
		   const struct cli_multi *multi, const char **pos,
		   int minpos, int maxpos, int *npos)
{
	struct option lopts[CLI_MAX_OPTS + 1] = { { 0 } };
	char shorts[2 * CLI_MAX_OPTS + 2] = ":", buf[8];
	const char *names[CLI_MAX_OPTS];
	size_t nl = 0, ns = 1, n = 0, nopts = 0, nall;
	int c;

	*npos = 0;
	for (; opts && opts[nopts].name; nopts++)
		if (nopts < CLI_MAX_OPTS)
			names[nopts] = opts[nopts].name;
	for (nall = nopts; multi && multi[nall - nopts].name; nall++) {
		if (nall < CLI_MAX_OPTS)
			names[nall] = multi[nall - nopts].name;
		*multi[nall - nopts].n = 0;
	}
	if (nall > CLI_MAX_OPTS) {
		cli_err("internal error: %zu options, at most %d (CLI_MAX_OPTS)",
			nall, CLI_MAX_OPTS);
		return CLI_FAIL;
	}
	for (; n < nall; n++) {
		bool val = n >= nopts || !opts[n].flag;

		if (names[n][1] != '-') {	/* "-c" */
			shorts[ns++] = names[n][1];
			if (val)
				shorts[ns++] = ':';
			continue;
		}
		lopts[nl].name = names[n] + 2;
		lopts[nl].has_arg = val ? required_argument : no_argument;
		lopts[nl].val = CLI_LONG_BASE + (int)n;
		nl++;
	}
	shorts[ns] = '\0';
	optind = 0;		/* glibc: start again from argv[1] */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
		size_t i = nall;

		if (c == '?' && optopt >= CLI_LONG_BASE) {
			cli_err("%s takes no value (usage: latency-tracker %s)",
				names[optopt - CLI_LONG_BASE], usage_of());
			return CLI_USAGE;
		}
		if (c == '?') {
			cli_err("unknown option '%s' (usage: latency-tracker %s)",
				refused_opt(argv, buf, sizeof(buf)), usage_of());
			return CLI_USAGE;
		}
		if (c == ':') {
			cli_err("%s needs a value (usage: latency-tracker %s)",
				refused_opt(argv, buf, sizeof(buf)), usage_of());
			return CLI_USAGE;
		}
		if (c >= CLI_LONG_BASE) {
			i = (size_t)(c - CLI_LONG_BASE);
		} else {
			for (size_t j = 0; j < nall && i == nall; j++)
				if (names[j][1] == c)
					i = j;
		}
		if (i >= nopts) {
			const struct cli_multi *m = &multi[i - nopts];

			m->values[(*m->n)++] = optarg;
		} else if (opts[i].flag) {
			*opts[i].flag = true;
		} else {
			*opts[i].value = optarg;
		}
	}
	for (; optind < argc; optind++) {
		if (*npos == maxpos) {
			cli_err("too many arguments (usage: latency-tracker %s)",
				usage_of());
			return CLI_USAGE;
		}
		pos[(*npos)++] = argv[optind];
	}
	if (*npos < minpos) {
		cli_err("usage: latency-tracker %s", usage_of());
		return CLI_USAGE;
	}
	return CLI_OK;
}

int cli_args(int argc, char **argv, const struct cli_opt *opts,
	     const char **pos, int minpos, int maxpos, int *npos)
{
	return cli_args_multi(argc, argv, opts, NULL, pos, minpos, maxpos,
			      npos);
}

int cli_check_access(void)
{
	char why[512];
	int ret = lt_proc_check(why, sizeof(why));

	if (!ret)
		return CLI_OK;
	cli_err("%s", why);
	return CLI_FAIL;
}

int cli_check_tracker(const char *name)
{
	int ret = cli_check_access();

	if (ret)
		return ret;
	if (!lt_tracker_exists(name)) {
		char known[512];

		cli_err("unknown tracker '%s' (loaded: %s)", name,
			lt_tracker_list_str(known, sizeof(known)));
		return CLI_USAGE;
	}
	return CLI_OK;
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: latency-tracker [--proc-root DIR] <command> [args]\n\ncommands:\n");
	for (i = 0; i < CLI_NCMDS; i++)
		fprintf(out, "  latency-tracker %s\n", cli_cmds[i].usage);
	fprintf(out, "\nlatency-tracker <command> --help: what it does, its options\n"
		"latency-tracker --version\n"
		"--proc-root DIR: the trackers' directory (default /proc/latency_tracker,\n"
		"or LT_PROC_ROOT)\n\nknobs:");
	for (i = 0; i < lt_nknobs; i++)
		fprintf(out, " %s", lt_knobs[i].name);
	fprintf(out, "\ntimes take units: 5ms, 200us, 1.5s, 100ns (a bare number is ns)\n"
		"exit status: 0 done, 1 failed (permission, modules missing or of another\n"
		"record format), 2 bad input (also a value the kernel refused)\n");
}

static void help(const struct cli_cmd *c)
{
	size_t i;

	printf("usage: latency-tracker %s\n\n%s", c->usage, c->help);
	if (c->fn != cli_get && c->fn != cli_set)
		return;
	printf("\nknobs:\n");
	for (i = 0; i < lt_nknobs; i++)
		printf("  %-16s %s\n", lt_knobs[i].name, lt_knobs[i].help);
}

static bool help_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static const struct cli_cmd *find(const char *name)
{
	for (size_t i = 0; i < CLI_NCMDS; i++)
		if (!strcmp(name, cli_cmds[i].name))
			return &cli_cmds[i];
	return NULL;
}

int cli_run(int argc, char **argv)
{
	const struct cli_cmd *c;

	cli_cur = NULL;
	/* --proc-root DIR (or =DIR) before the command: as LT_PROC_ROOT. */
	while (argc >= 2 && !strncmp(argv[1], "--proc-root", 11) &&
	       (!argv[1][11] || argv[1][11] == '=')) {
		int used = argv[1][11] ? 1 : 2;
		const char *dir = used == 1 ? argv[1] + 12 : argv[2];

		if (!dir || !*dir) {
			cli_err("--proc-root needs a directory (usage: latency-tracker --proc-root DIR <command> [args])");
			return CLI_USAGE;
		}
		setenv("LT_PROC_ROOT", dir, 1);
		argc -= used;
		argv += used;
	}
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("latency-tracker %s (alert record format %d)\n",
		       LT_TOOLS_VERSION, LT_RECORD_FORMAT);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "help")) {
		c = find(argv[2]);
		if (!c) {
			cli_err("unknown command '%s' (try --help)", argv[2]);
			return CLI_USAGE;
		}
		if (!c->help) {
			char *h[] = { argv[2], "--help", NULL };

			return c->fn(2, h);
		}
		help(c);
		return CLI_OK;
	}
	c = find(argv[1]);
	if (!c) {
		cli_err("unknown command '%s' (try --help)", argv[1]);
		return CLI_USAGE;
	}
	cli_cur = c;
	if (c->help && help_asked(argc - 1, argv + 1)) {
		help(c);
		return CLI_OK;
	}
	return c->fn(argc - 1, argv + 1);
}
