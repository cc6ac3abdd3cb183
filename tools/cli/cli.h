/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - the latency-tracker command: one file per subcommand
 * (cli_<name>.c), dispatched by cli_main.c (cli_run(); main() is in
 * cli_bin.c, so the host tests run the command in-process).
 */
#ifndef LT_CLI_H
#define LT_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "lt_procfmt.h"

/* Exit statuses (latency-tracker(1), EXIT STATUS). */
#define CLI_OK		0
/* The operation failed: no permission, the modules not loaded or of
 * another record format, a file that cannot be read. */
#define CLI_FAIL	1
/* Bad input, nothing changed: usage, unknown command, tracker, knob or
 * option, a bad value, or a value the kernel refused (EINVAL). */
#define CLI_USAGE	2

int cli_run(int argc, char **argv);

void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Options of a subcommand: flags ("--json", "-p") and options with a
 * value ("-n N", "-nN", "--name=V"), at most CLI_MAX_OPTS.  cli_args()
 * splits argv[1..] into them (getopt_long(): short ones may be combined,
 * "--" ends them) and at most maxpos positional arguments (at least
 * minpos); an unknown option, a missing value or a wrong count prints one
 * line with the command's usage and returns CLI_USAGE.
 */
#define CLI_MAX_OPTS	16

struct cli_opt {
	const char *name;
	bool *flag;		/* set when given, or: */
	const char **value;	/* the next argument */
};

int cli_args(int argc, char **argv, const struct cli_opt *opts,
	     const char **pos, int minpos, int maxpos, int *npos);

/*
 * cli_args() with options that may be given more than once, each with a
 * value ("--binary A --binary B"): multi (ended by a NULL name) has their
 * values in order in values[], which has room for argc of them (each one
 * takes an argument at least).  opts and multi count together against
 * CLI_MAX_OPTS.
 */
struct cli_multi {
	const char *name;
	const char **values;
	int *n;
};

int cli_args_multi(int argc, char **argv, const struct cli_opt *opts,
		   const struct cli_multi *multi, const char **pos,
		   int minpos, int maxpos, int *npos);

/*
 * Checks shared by subcommands that touch a tracker, by trying the files
 * (no uid check): /proc/latency_tracker readable, its record format the
 * one these tools read (lt_proc_check()), the tracker known.  Return
 * CLI_OK or the exit status after printing the error.
 */
int cli_check_access(void);
int cli_check_tracker(const char *name);

/* The counters of a stats file as JSON members "name":value,... ; times
 * (*_ns) of a tracker that matched nothing yet are null. */
void cli_json_stats(FILE *out, const struct lt_stats *s);

int cli_list(int argc, char **argv);
int cli_get(int argc, char **argv);
int cli_set(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_hist(int argc, char **argv);
int cli_follow(int argc, char **argv);
int cli_add(int argc, char **argv);
int cli_del(int argc, char **argv);
int cli_flamegraph(int argc, char **argv);

#endif /* LT_CLI_H */
