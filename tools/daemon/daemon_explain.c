// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_explain.c - latency-trackerd's `explain` option: after a local
 * snapshot, run `latency-tracker explain` on it in a child process, so a
 * slow analysis never delays the next alert or snapshot, and store the
 * report beside the snapshot: <snapshot>/explain/explain.txt, .json, .dot,
 * .svg.  The child execs the CLI rather than calling the analysis: the
 * daemon has threads (liblttng-ctl), and after fork() only exec is safe.
 */
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"

/*
 * The CLI: beside the daemon (the build tree), in ../bin (installed: the
 * daemon is in sbin), else from PATH.
 */
static void exec_cli(char **argv)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		char path[PATH_MAX + 32];

		self[n] = '\0';
		snprintf(path, sizeof(path), "%s/latency-tracker", dirname(self));
		execv(path, argv);
		snprintf(path, sizeof(path), "%s/../bin/latency-tracker", self);
		execv(path, argv);
	}
	execvp("latency-tracker", argv);
}

void ltd_explain_reap(bool wait_all)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, wait_all ? 0 : WNOHANG)) > 0) {
		ltd_log_begin("explain_done");
		ltd_log_u64("pid", (uint64_t)pid);
		ltd_log_s64("status", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		ltd_log_end();
	}
}

void ltd_explain_spawn(const char *snapshot_path)
{
	char out[LTD_PATH_MAX + 16];
	pid_t pid;

	ltd_explain_reap(false);
	snprintf(out, sizeof(out), "%s/explain", snapshot_path);
	pid = fork();
	if (pid < 0) {
		ltd_log_begin("explain_failed");
		ltd_log_str("path", snapshot_path);
		ltd_log_str("error", "fork failed");
		ltd_log_end();
		return;
	}
	if (pid == 0) {
		char *argv[] = { "latency-tracker", "explain",
				 (char *)snapshot_path, "-o", out, NULL };

		/* The report goes to files; the daemon's log stays its own. */
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
		exec_cli(argv);
		_exit(127);	/* no CLI found: explain_done logs status 127 */
	}
	ltd_log_begin("explain");
	ltd_log_str("path", snapshot_path);
	ltd_log_str("report", out);
	ltd_log_u64("pid", (uint64_t)pid);
	ltd_log_end();
}
