/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * explain_run.h - run `latency-tracker explain ARGS...` in the test
 * process (lt_explain_main(), the CLI's entry point) with its stdout and
 * stderr captured: what the tests of explain's command line share.
 */
#ifndef LT_EXPLAIN_RUN_H
#define LT_EXPLAIN_RUN_H

#include <stdio.h>
#include <unistd.h>

#include "explain.h"

#define EXPLAIN_RUN_MAX_ARGS	32

/*
 * -o renders SVG in the process (ex_svg.c): Graphviz's context keeps
 * caches for the life of the process (libgvc, fontconfig through its
 * text layout) that LeakSanitizer would report.  Their leaks only: what
 * libcgraph allocates for a graph (agclose) is still checked.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libgvc.so\nleak:libfontconfig.so\nleak:libpango\n"
	       "leak:libcairo.so\n";
}

/* Read a captured stream into buf (NUL-terminated) and close it. */
static inline void explain_run_slurp(FILE *f, char *buf, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * explain_run() - lt_explain_main("explain", ARGS...), ARGS ending with
 * NULL (at most EXPLAIN_RUN_MAX_ARGS - 2); its stdout into out, its stderr
 * into err.  Returns its exit status.
 */
static inline int explain_run(const char *const *args, char *out,
			      size_t outsize, char *err, size_t errsize)
{
	char *argv[EXPLAIN_RUN_MAX_ARGS];
	int argc = 0, ret, so = dup(1), se = dup(2);
	FILE *o = tmpfile(), *e = tmpfile();

	argv[argc++] = "explain";
	for (; *args && argc < EXPLAIN_RUN_MAX_ARGS - 1; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(o), 1);
	dup2(fileno(e), 2);
	ret = lt_explain_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	explain_run_slurp(o, out, outsize);
	explain_run_slurp(e, err, errsize);
	return ret;
}

#endif /* LT_EXPLAIN_RUN_H */
