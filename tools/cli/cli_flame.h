/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_flame.h - `latency-tracker flamegraph` (cli_flame.c) and its live
 * source (cli_flame_live.c).
 */
#ifndef LT_CLI_FLAME_H
#define LT_CLI_FLAME_H

#include <stdint.h>

#include "lt_folded.h"

/*
 * Keep the alert records of every tracker (or of @tracker only) in @s
 * until SIGINT or SIGTERM, or until @duration ns have passed (0: no
 * limit).  Returns CLI_OK or the exit status after printing the error.
 */
int cli_flame_live(struct lt_samples *s, const char *tracker,
		   uint64_t duration);

#endif /* LT_CLI_FLAME_H */
