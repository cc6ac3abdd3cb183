// SPDX-License-Identifier: GPL-2.0-only
/* lt_bench_app_tp.c - the probes of the lt_bench_app provider. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "lt_bench_app_tp.h"
