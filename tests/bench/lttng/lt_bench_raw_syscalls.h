/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_bench_raw_syscalls.h - the kernel's sys_enter and sys_exit
 * tracepoints described for LTTng (see lttng-probe-lt_bench_raw_syscalls.c):
 * the call number at entry, the return value at exit, nothing else.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM raw_syscalls

#if !defined(LT_BENCH_RAW_SYSCALLS_H) || defined(TRACE_HEADER_MULTI_READ)
#define LT_BENCH_RAW_SYSCALLS_H

#include <lttng/tracepoint-event.h>

LTTNG_TRACEPOINT_EVENT_MAP(sys_enter, raw_syscalls_sys_enter,
	TP_PROTO(struct pt_regs *regs, long id),
	TP_ARGS(regs, id),
	TP_FIELDS(
		ctf_integer(long, id, id)
	)
)

LTTNG_TRACEPOINT_EVENT_MAP(sys_exit, raw_syscalls_sys_exit,
	TP_PROTO(struct pt_regs *regs, long ret),
	TP_ARGS(regs, ret),
	TP_FIELDS(
		ctf_integer(long, ret, ret)
	)
)

#endif /* LT_BENCH_RAW_SYSCALLS_H */

#include <lttng/define_trace.h>
