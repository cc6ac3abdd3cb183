// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_main.c - latency-tracker: the subcommand dispatcher and the checks
 * every subcommand shares.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "explain.h"
#include "lt_proc.h"

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct cli_cmd cli_cmds[] = {
	{ "list", cli_list, "list" },
	{ "get", cli_get, "get <tracker> [knob] [--raw]" },
	{ "set", cli_set, "set <tracker> <knob> <value>" },
	{ "stats", cli_stats, "stats <tracker> [--raw]" },
	{ "hist", cli_hist, "hist <tracker>" },
	{ "follow", cli_follow, "follow [--json] [-n N] [tracker...]" },
	/* The analysis of a snapshot (tools/explain/): no root needed. */
	{ "explain", lt_explain_main,
	  "explain <snapshot> [--tid T] [--at TS --window D] | explain --compare <snapshot>..." },
};

#define CLI_NCMDS	(sizeof(cli_cmds) / sizeof(cli_cmds[0]))

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("latency-tracker: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_check_access(void)
{
	struct stat st;

	/* $LT_PROC_ROOT (a test tree) need not be root-only. */
	if (geteuid() != 0 && !getenv("LT_PROC_ROOT")) {
		cli_err("must be run as root (%s is root-only)",
			LT_PROC_DEFAULT_ROOT);
		return CLI_FAIL;
	}
	if (stat(lt_proc_root(), &st)) {
		cli_err("%s: %s (is the latency_tracker module loaded?)",
			lt_proc_root(), strerror(errno));
		return CLI_FAIL;
	}
	return CLI_OK;
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

	fprintf(out, "usage: latency-tracker <command> [args]\n\ncommands:\n");
	for (i = 0; i < CLI_NCMDS; i++)
		fprintf(out, "  latency-tracker %s\n", cli_cmds[i].usage);
	fprintf(out, "\nknobs:");
	for (i = 0; i < lt_nknobs; i++)
		fprintf(out, " %s", lt_knobs[i].name);
	fprintf(out, "\ntimes take units: 5ms, 200us, 1.5s, 100ns (a bare number is ns)\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_OK;
	}
	for (i = 0; i < CLI_NCMDS; i++)
		if (!strcmp(argv[1], cli_cmds[i].name))
			return cli_cmds[i].fn(argc - 1, argv + 1);
	cli_err("unknown command '%s' (try --help)", argv[1]);
	return CLI_USAGE;
}
