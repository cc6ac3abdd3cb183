/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print_budget.h - the dmesg stack budget of a tracker module: per print
 * interval, at most LT_PRINT_TGID_BURST stacks of one process (tgid) and
 * LT_PRINT_BURST in all, so that one noisy process cannot starve the
 * others.  Intervals are numbered from 0 on the tracker's clock (time /
 * interval): the first interval after boot is interval 0.
 *
 * Pure logic on atomics, given the time: compiled into each tracker
 * module (common/report.c) and into the host unit test
 * (tests/unit/test_print_budget.c), through lt_env.h.
 *
 * State, each word updated by cmpxchg loops (lock-free, any context but
 * NMI, any CPU):
 *
 *	@printed	interval number << 32 | stacks granted in it
 *	@tgid_printed[]	per process, open addressing by tgid:
 *			interval number (32 bits) << 32 | tgid << 8 |
 *			stacks granted (8 bits)
 *
 * Interval numbers are kept modulo 2^32 (5 s intervals: 680 years; the
 * 1 ms minimum: 49 days).  A slot that granted no stack (count 0: every
 * slot as initialised) belongs to no process and no interval, whatever
 * its other bits say: the zeroed slots are free in interval 0 too.
 */
#ifndef _LT_PRINT_BUDGET_H
#define _LT_PRINT_BUDGET_H

#include "lt_env.h"

#define LT_PRINT_BURST		48
#define LT_PRINT_TGID_BURST	2
/* Processes told apart per interval (the others wait for the next one). */
#define LT_PRINT_TGID_SLOTS	64
#define LT_PRINT_TGID_SLOT_BITS	6

#define LT_PRINT_GEN(v)		((u32)((u64)(v) >> 32))
#define LT_PRINT_COUNT(v)	((u32)(v))
#define LT_TGID_SLOT(gen, tgid, n)					\
	(((u64)(gen) << 32) | ((u64)(u32)(tgid) << 8) | (n))
#define LT_TGID_SLOT_TGID(v)	(((u32)(v) >> 8) & ((1U << 24) - 1))
#define LT_TGID_SLOT_COUNT(v)	((u32)(v) & 0xff)

/**
 * struct lt_print_budget - what a tracker module printed, per interval
 * @interval_ns: length of an interval (print_interval), > 0.
 * @printed: see the top of this file.
 * @tgid_printed: see the top of this file.
 */
struct lt_print_budget {
	u64 interval_ns;
	atomic64_t printed;
	atomic64_t tgid_printed[LT_PRINT_TGID_SLOTS];
};

/* Starts with nothing granted; before any taker, process context. */
static inline void lt_print_budget_init(struct lt_print_budget *b,
					u64 interval_ns)
{
	unsigned int i;

	b->interval_ns = interval_ns;
	atomic64_set(&b->printed, 0);
	for (i = 0; i < LT_PRINT_TGID_SLOTS; i++)
		atomic64_set(&b->tgid_printed[i], 0);
}

/* First slot of @tgid: the multiplicative hash of hash_32() (linux/hash.h). */
static inline unsigned int lt_print_tgid_hash(pid_t tgid)
{
	return ((u32)tgid * 0x61C88647U) >> (32 - LT_PRINT_TGID_SLOT_BITS);
}

/* Takes one of @tgid's stacks of interval @gen; false when spent. */
static inline bool lt_print_take_tgid(struct lt_print_budget *b, u32 gen,
				      pid_t tgid)
{
	unsigned int h = lt_print_tgid_hash(tgid), i;
	atomic64_t *slot;
	u64 old, new, seen;

	BUILD_BUG_ON(LT_PRINT_TGID_SLOTS != 1 << LT_PRINT_TGID_SLOT_BITS);
	BUILD_BUG_ON(LT_PRINT_TGID_BURST > 0xff);
	for (i = 0; i < LT_PRINT_TGID_SLOTS; i++) {
		slot = &b->tgid_printed[(h + i) % LT_PRINT_TGID_SLOTS];
		old = atomic64_read(slot);
		for (;;) {
			if (LT_PRINT_GEN(old) != gen ||
			    !LT_TGID_SLOT_COUNT(old)) {
				/* Of a past interval, or never used: free. */
				new = LT_TGID_SLOT(gen, tgid, 1);
			} else if (LT_TGID_SLOT_TGID(old) == (u32)tgid) {
				if (LT_TGID_SLOT_COUNT(old) >= LT_PRINT_TGID_BURST)
					return false;
				new = old + 1;
			} else {
				break;		/* another process's: next slot */
			}
			seen = atomic64_cmpxchg(slot, old, new);
			if (seen == old)
				return true;
			old = seen;
		}
	}
	return false;			/* every slot taken this interval */
}

/* Takes one stack of interval @gen from the global cap. */
static inline bool lt_print_take_global(struct lt_print_budget *b, u32 gen)
{
	u64 old = atomic64_read(&b->printed), new, seen;

	for (;;) {
		if (LT_PRINT_GEN(old) == gen &&
		    LT_PRINT_COUNT(old) >= LT_PRINT_BURST)
			return false;
		new = LT_PRINT_GEN(old) != gen ? ((u64)gen << 32) | 1 : old + 1;
		seen = atomic64_cmpxchg(&b->printed, old, new);
		if (seen == old)
			return true;
		old = seen;
	}
}

/**
 * lt_print_budget_take() - one stack of @tgid at time @now, if the budget
 *	allows it
 * @b: the budget.
 * @now_ns: the time, on the tracker's clock.
 * @tgid: the process the stack belongs to.
 *
 * A process over its own budget does not use up the global one.
 *
 * Context: any context but NMI; lock-free (cmpxchg loops over a bounded
 * number of slots).
 * Return: true when the caller may print one stack.
 */
static inline bool lt_print_budget_take(struct lt_print_budget *b, u64 now_ns,
					pid_t tgid)
{
	u32 gen = (u32)div64_u64(now_ns, b->interval_ns);

	return lt_print_take_tgid(b, gen, tgid) && lt_print_take_global(b, gen);
}

#endif /* _LT_PRINT_BUDGET_H */
