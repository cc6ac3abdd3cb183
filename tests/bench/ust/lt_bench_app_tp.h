/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_bench_app_tp.h - the LTTng-UST peer of lt_appbench.c: a request's
 * begin and end as two tracepoints with the cookie (provider lt_bench_app).
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER lt_bench_app

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./ust/lt_bench_app_tp.h"

#if !defined(LT_BENCH_APP_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LT_BENCH_APP_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(lt_bench_app, begin,
	LTTNG_UST_TP_ARGS(uint64_t, cookie),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(uint64_t, cookie, cookie)))

LTTNG_UST_TRACEPOINT_EVENT(lt_bench_app, end,
	LTTNG_UST_TP_ARGS(uint64_t, cookie),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(uint64_t, cookie, cookie)))

#endif /* LT_BENCH_APP_TP_H */

#include <lttng/tracepoint-event.h>
