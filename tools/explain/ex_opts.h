/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_opts.h - options of `latency-tracker explain`, shared by the single
 * explanation (ex_main.c) and the comparison (ex_compare.c).
 */
#ifndef LT_EX_OPTS_H
#define LT_EX_OPTS_H

#include <stdbool.h>
#include <stdint.h>

enum ex_format { FMT_TEXT, FMT_JSON, FMT_DOT };

struct ex_opts {
	char **traces;
	int ntraces;
	int tid;			/* -1: not given */
	uint64_t at, window;		/* 0: not given */
	enum ex_format format;
	const char *outdir;		/* -o */
	double min_share;		/* fraction */
	bool compare;
	const char *between;		/* --between SYSCALL */
	int k;
	/*
	 * The application of the lock view and of the criticality: the
	 * processes --pid PID[,PID...] and those named --comm NAME (a thread
	 * of the process, or the process, has that comm); neither given:
	 * the process of the explained thread (ex_app.h).
	 */
	int *pids;			/* --pid, npids of them; NULL: none */
	int npids;
	const char *comm;		/* --comm, NULL: not given */
	bool past_exit;			/* --past-exit: keep the interval after
					 * the thread's sched_process_exit */
	int crit_threshold;		/* --critical-threshold N: critical at
					 * <= N active threads; -1: N/2 */
};

#define EX_EXIT_BAD 2

/* Print "latency-tracker explain: <msg>" on stderr; returns EX_EXIT_BAD. */
int ex_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Render a DOT file to SVG in the process (ex_svg.c: Graphviz's libcgraph
 * and libgvc, no `dot` program); 0 on success, -1 after saying on stderr
 * what failed (Graphviz's message: the DOT file is left as it is). */
int ex_render_svg(const char *dot, const char *svg);

int ex_compare_main(const struct ex_opts *o);

#endif /* LT_EX_OPTS_H */
