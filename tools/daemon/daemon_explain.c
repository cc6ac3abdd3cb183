// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_explain.c - latency-trackerd's `explain` option: after a local
 * snapshot, run `latency-tracker explain` on it in a child process
 * (daemon_child.c: bounded, low priority, time limited), so a slow
 * analysis never delays the next alert or snapshot, and store the report
 * beside the snapshot: <snapshot>/explain/explain.txt, .json, .dot, .svg.
 * The child execs the CLI rather than calling the analysis: the daemon
 * has threads (liblttng-ctl), and after fork() only exec is safe.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"

/*
 * The CLI: beside the daemon (the build tree), in ../bin (installed: the
 * daemon is in sbin), else from PATH.  Runs in the child.
 */
static void exec_cli(char *const argv[])
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

/* What a running explain child belongs to (its done() argument). */
struct ltd_explain_job {
	char tracker[64];
};

static void explain_done(pid_t pid, int status, bool timed_out, void *arg)
{
	struct ltd_explain_job *job = arg;
	bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;

	if (!ok)
		ltd_counters_of(job->tracker)->explain_failed++;
	ltd_log_begin("explain_done");
	ltd_log_u64("pid", (uint64_t)pid);
	ltd_log_s64("status", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (WIFSIGNALED(status))
		ltd_log_s64("signal", WTERMSIG(status));
	if (timed_out)
		ltd_log_str("error", "time limit (child-timeout) reached: killed");
	ltd_log_end();
	free(job);
}

void ltd_explain_spawn(const char *snapshot_path, const char *tracker)
{
	char out[LTD_PATH_MAX + 16];
	char *argv[] = { "latency-tracker", "explain", (char *)snapshot_path,
			 "-o", out, NULL };
	struct ltd_explain_job *job = calloc(1, sizeof(*job));
	int pid;

	if (!job)
		return;
	snprintf(job->tracker, sizeof(job->tracker), "%s", tracker);
	snprintf(out, sizeof(out), "%s/explain", snapshot_path);
	pid = ltd_child_spawn(argv, exec_cli, explain_done, job);
	if (pid < 0) {
		free(job);
		ltd_log_begin(pid == -EBUSY ? "explain_skipped" : "explain_failed");
		ltd_log_str("path", snapshot_path);
		if (pid == -EBUSY) {
			ltd_counters_of(tracker)->explain_skipped++;
			ltd_log_u64("running", ltd_child_running());
			ltd_log_str("reason", "max-children already running");
		} else {
			ltd_counters_of(tracker)->explain_failed++;
			ltd_log_str("error", strerror(-pid));
		}
		ltd_log_end();
		return;
	}
	ltd_counters_of(tracker)->explain_runs++;
	ltd_log_begin("explain");
	ltd_log_str("path", snapshot_path);
	ltd_log_str("report", out);
	ltd_log_u64("pid", (uint64_t)pid);
	ltd_log_end();
}
