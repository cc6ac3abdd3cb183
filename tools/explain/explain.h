/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * explain.h - entry point of `latency-tracker explain` (tools/explain/):
 * explain an outlier from an LTTng kernel snapshot — state breakdown,
 * waiting dependency graph (DepGraph), bottleneck classification (GAPP) —
 * or compare groups of executions (--compare).
 *
 * The CLI's dispatcher calls lt_explain_main() with argv[0] = "explain"
 * and the subcommand's arguments after it; it returns the exit status
 * (0 ok, 2 bad usage or bad input: not a trace, no scheduler events,
 * unknown thread, ...).  Link with libexplain.a and -lbabeltrace2 -lm.
 */
#ifndef LT_EXPLAIN_H
#define LT_EXPLAIN_H

int lt_explain_main(int argc, char **argv);

#endif /* LT_EXPLAIN_H */
