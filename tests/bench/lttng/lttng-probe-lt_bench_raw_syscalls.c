// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-probe-lt_bench_raw_syscalls.c - LTTng probes for the kernel's
 * raw_syscalls tracepoints, for make bench (test-only, never installed).
 *
 * lttng-modules records system calls only through its syscall tracer
 * (lttng enable-event -k --syscall), one event per system call with its
 * decoded arguments; it has no probe for the raw sys_enter and sys_exit
 * tracepoints.  The bench's LTTng configuration records exactly the
 * events its three latency pairs need, so this module gives LTTng those
 * two, with what the pair needs: the call number at entry, the return
 * value at exit.  Loaded (insmod) after lttng-tracer and before
 * lttng-sessiond starts; its events are raw_syscalls_sys_enter and
 * raw_syscalls_sys_exit.
 */
#include <linux/module.h>
#include <lttng/tracer.h>

/* The kernel's declarations first: a prototype mismatch fails the build. */
#include <trace/events/syscalls.h>

#include <wrapper/tracepoint.h>

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define LTTNG_PACKAGE_BUILD
#define CREATE_TRACE_POINTS
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE lt_bench_raw_syscalls

#include "lt_bench_raw_syscalls.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LTTng probes for the raw_syscalls tracepoints (latency-tracker bench)");
