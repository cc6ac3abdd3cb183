/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_env.h - build environment of the core data structures.
 *
 * The hash table, the pool, the alert ring, the rate limiter and the
 * parsers are compiled twice: into latency_tracker.ko, and into the host
 * unit tests and benchmarks (tests/unit), where liburcu provides RCU.
 * Those sources include only this header; it maps to the kernel here and
 * to the userspace shim (tests/unit/shim/lt_user_shim.h) elsewhere.
 * This is a build-environment switch, not a kernel-version one: kernel
 * version differences live in include/latency_tracker_compat.h only.
 */
#ifndef _LT_ENV_H
#define _LT_ENV_H

#ifdef __KERNEL__
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/vmalloc.h>
#include <linux/mm.h>
#include <asm/local64.h>

/* Zeroed allocation for set-up paths (process context, may sleep). */
static inline void *lt_zalloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

/*
 * Zeroed allocation that may fail quietly (no warning, no OOM killer):
 * for what the code can do without, such as a pool's growth.  Process
 * context, may sleep.
 */
static inline void *lt_zalloc_mayfail(size_t size)
{
	return kvzalloc(size, GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
}

static inline void lt_free(void *p)
{
	kvfree(p);
}
#else
#include <lt_user_shim.h>
#endif

#endif /* _LT_ENV_H */
