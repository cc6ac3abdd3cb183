/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_timeline.h - entry point of `latency-tracker timeline` (tools/explain/):
 * the per-thread timeline of an LTTng kernel snapshot -- states, system
 * calls, wakeups, alerts, block requests, one track per CPU -- as
 * Chrome/Perfetto trace-event JSON or as an OTF2 archive.
 *
 * The CLI's dispatcher calls lt_timeline_main() with argv[0] = "timeline"
 * and the subcommand's arguments after it; it returns the exit status (0
 * written, 1 writing failed, 2 bad usage or bad input: nothing written).
 * Link with libexplain.a, -lbabeltrace2, -lopen-trace-format2 -lm and the
 * tools' lt_json, lt_utf8.
 */
#ifndef LT_EX_TIMELINE_H
#define LT_EX_TIMELINE_H

int lt_timeline_main(int argc, char **argv);

#endif /* LT_EX_TIMELINE_H */
