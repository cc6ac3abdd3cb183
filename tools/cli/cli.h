/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - the latency-tracker command: one file per subcommand
 * (cli_<name>.c), dispatched by cli_main.c.
 */
#ifndef LT_CLI_H
#define LT_CLI_H

/* Exit statuses. */
#define CLI_OK		0
#define CLI_FAIL	1	/* the operation failed (permission, kernel refused) */
#define CLI_USAGE	2	/* bad input: unknown tracker/knob, bad value, usage */

void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Checks shared by subcommands that touch a tracker: root, the core module
 * loaded, the tracker known.  Return CLI_OK or the exit status after
 * printing the error.
 */
int cli_check_access(void);
int cli_check_tracker(const char *name);

int cli_list(int argc, char **argv);
int cli_get(int argc, char **argv);
int cli_set(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_hist(int argc, char **argv);
int cli_follow(int argc, char **argv);

#endif /* LT_CLI_H */
