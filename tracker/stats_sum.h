/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats_sum.h - the exact sum of a tracker's matched delays, per CPU, and
 * the 128-bit arithmetic of its readers.
 *
 * The sum is never reset, and the per-task trackers add about (sleeping
 * threads x wall time) to it: 5000 threads asleep fill 64 bits in 43 days,
 * 100000 threads for 100 years add 3.2e23 ns.  So each CPU keeps its part
 * as a pair of 64-bit words, {lo, hi}, whose value is
 *
 *	hi * 2^63 + lo,	with lo < 2^63 whenever no add runs on that CPU,
 *
 * and readers add the CPUs' parts up in 128 bits (struct lt_u128): exact
 * up to 2^127 ns, 5e21 years at one second per nanosecond.
 *
 * Writer: lt_sum_add(), on the probe path (each matched event), in any
 * context but NMI, with preemption disabled, on this CPU's part only.
 *
 *  - Fast path: new = local64_add_return(d, &lo): one instruction on
 *    x86-64 (xadd without a lock prefix), atomic against interrupts on
 *    this CPU, which may run lt_sum_add() too.  Nothing else when
 *    new < 2^63 and d < LT_SUM_FAST_MAX (2^60 ns, 36 years).
 *  - Slow path, lt_sum_fold(), when new >= 2^63 (about once per 2^63 ns
 *    added: 292 years of delays) or for a delay >= LT_SUM_FAST_MAX:
 *    interrupts off, and inside a write section of the CPU's seqcount,
 *    the add (for a large delay), then hi += lo / 2^63, lo %= 2^63.  The
 *    value is the same before and after; with interrupts off no other
 *    writer runs on this CPU, and no other CPU writes this part.
 *
 * lo never wraps: at rest it is below 2^63; each add on the fast path is
 * below 2^60, and the context that made lo cross 2^63 folds it before it
 * returns.  Contexts nest on one CPU (task, softirq, hardirq; NMI never
 * adds), so at any instant at most as many adds as there are nested
 * contexts are unfolded: lo < 2^63 + 8 * 2^60 = 2^64 for up to eight
 * nesting levels.  hi counts units of 2^63 and stays below 2^64.
 *
 * Readers: lt_sum_read(), from any CPU, in any context but NMI, at any
 * time (procfs).  Per CPU, lo and hi are read inside a read section of
 * that CPU's seqcount, retried while a fold ran meanwhile.  An add on the
 * fast path changes lo alone, in one store: the pair read is the value of
 * the part at the instant lo was read (hi only changes inside a write
 * section, which makes the reader retry), so a reader never sees a value
 * that is half folded.  lo and hi are 64-bit words loaded and stored
 * whole: the synchronisation relies on it (a 32-bit kernel would tear
 * them), and lt_sum_read() checks it at build time.  A reader in an
 * interrupt cannot interrupt a fold on its own CPU (interrupts are off
 * there), so the retry loop always ends.
 *
 * Synchronisation table (one struct lt_sum per CPU):
 *
 * field | written by                          | read by
 * ------+-------------------------------------+------------------------------
 * lo    | this CPU: fast path (local64 add,    | this CPU's fold (interrupts
 *       | any context but NMI), fold (irqs off)| off); readers, in a seqcount
 *       |                                      | read section
 * hi    | this CPU's fold only (irqs off,      | readers, in a seqcount read
 *       | inside the write section)            | section
 * seq   | this CPU's fold only (irqs off)      | readers
 *
 * The 128-bit helpers (lt_u128_*()) are pure functions: any context.
 */
#ifndef _LT_STATS_SUM_H
#define _LT_STATS_SUM_H

#include "lt_env.h"

/* Delays at or above this take the slow path (see the bound above). */
#define LT_SUM_FAST_MAX		BIT_ULL(60)
/* lo is folded into hi in units of 2^63. */
#define LT_SUM_FOLD_SHIFT	63
#define LT_SUM_LO_MASK		(BIT_ULL(LT_SUM_FOLD_SHIFT) - 1)
/* Largest power of ten below 2^64: the decimal printer's chunk. */
#define LT_U128_DEC_CHUNK	10000000000000000000ULL
#define LT_U128_DEC_CHUNK_DIGITS	19
/* Characters of the largest lt_u128 in decimal (39 digits), with a NUL. */
#define LT_U128_DEC_SIZE	40

/**
 * struct lt_u128 - an unsigned 128-bit value, @hi * 2^64 + @lo.
 * @hi: high 64 bits.
 * @lo: low 64 bits.
 */
struct lt_u128 {
	u64 hi;
	u64 lo;
};

/**
 * struct lt_sum - one CPU's part of a sum: @hi * 2^63 + @lo.
 * @lo: low part, below 2^63 at rest (see the top of this file).
 * @hi: units of 2^63 folded out of @lo.
 * @seq: makes readers retry across a fold.
 */
struct lt_sum {
	local64_t lo;
	local64_t hi;
	seqcount_t seq;
};

/* @a += @v. */
static inline void lt_u128_add_u64(struct lt_u128 *a, u64 v)
{
	a->lo += v;
	if (a->lo < v)
		a->hi++;
}

/* @a += @b. */
static inline void lt_u128_add(struct lt_u128 *a, const struct lt_u128 *b)
{
	lt_u128_add_u64(a, b->lo);
	a->hi += b->hi;
}

/* The value of a part read as (@hi units of 2^63, @lo), as 128 bits. */
static inline struct lt_u128 lt_sum_value(u64 hi, u64 lo)
{
	struct lt_u128 v = {
		.hi = hi >> (64 - LT_SUM_FOLD_SHIFT),
		.lo = hi << LT_SUM_FOLD_SHIFT,
	};

	lt_u128_add_u64(&v, lo);
	return v;
}

/*
 * lt_u128_divmod() - @a /= @d, returning the remainder; @d must not be 0.
 * The high word by a 64-bit division, the low word bit by bit (64 rounds):
 * for readers, not for the probe path.
 */
static inline u64 lt_u128_divmod(struct lt_u128 *a, u64 d)
{
	u64 r, q_lo = 0, top;
	int i;

	a->hi = div64_u64_rem(a->hi, d, &r);
	for (i = 63; i >= 0; i--) {
		/* r < d, so 2r + 1 < 2^65: its bit 64 is top. */
		top = r >> 63;
		r = (r << 1) | ((a->lo >> i) & 1);
		if (top || r >= d) {
			r -= d;
			q_lo |= 1ULL << i;
		}
	}
	a->lo = q_lo;
	return r;
}

/* @a / @d (@d not 0), or U64_MAX when the quotient does not fit. */
static inline u64 lt_u128_div_u64(struct lt_u128 a, u64 d)
{
	lt_u128_divmod(&a, d);
	return a.hi ? U64_MAX : a.lo;
}

/*
 * lt_u128_to_dec() - @a in decimal, without leading zeros, NUL-terminated,
 * into @buf of at least LT_U128_DEC_SIZE bytes.
 * Return: the number of characters written, the NUL excluded.
 */
static inline int lt_u128_to_dec(struct lt_u128 a, char *buf)
{
	u64 chunk[3];
	int n = 0, len;

	/* 2^128 < 10^57: at most three chunks of 19 digits. */
	do {
		chunk[n++] = lt_u128_divmod(&a, LT_U128_DEC_CHUNK);
	} while (a.hi || a.lo);
	len = snprintf(buf, LT_U128_DEC_SIZE, "%llu",
		       (unsigned long long)chunk[--n]);
	while (n--)
		len += snprintf(buf + len, LT_U128_DEC_SIZE - len, "%0*llu",
				LT_U128_DEC_CHUNK_DIGITS,
				(unsigned long long)chunk[n]);
	return len;
}

/* Sets a part to 0; before any writer or reader uses it. */
static inline void lt_sum_init(struct lt_sum *s)
{
	local64_set(&s->lo, 0);
	local64_set(&s->hi, 0);
	seqcount_init(&s->seq);
}

/*
 * lt_sum_fold() - the slow path of lt_sum_add(): add @d to this CPU's part
 * @s and fold lo into hi, interrupts off, in a write section of its
 * seqcount.  Any context but NMI, preemption disabled.
 */
static inline void lt_sum_fold(struct lt_sum *s, u64 d)
{
	unsigned long flags;
	u64 lo, hi;

	local_irq_save(flags);
	raw_write_seqcount_begin(&s->seq);
	lo = (u64)local64_read(&s->lo);
	hi = (u64)local64_read(&s->hi);
	/* lo < 2^64 (see the bound above) and d < 2^64: 2^65 in two steps. */
	hi += lo >> LT_SUM_FOLD_SHIFT;
	lo &= LT_SUM_LO_MASK;
	hi += d >> LT_SUM_FOLD_SHIFT;
	lo += d & LT_SUM_LO_MASK;
	hi += lo >> LT_SUM_FOLD_SHIFT;
	lo &= LT_SUM_LO_MASK;
	local64_set(&s->hi, (s64)hi);
	local64_set(&s->lo, (s64)lo);
	raw_write_seqcount_end(&s->seq);
	local_irq_restore(flags);
}

/**
 * lt_sum_add() - add a delay to this CPU's part of a sum.
 * @s: this CPU's part.
 * @d: the delay, in ns.
 *
 * Context: any context but NMI, with preemption disabled (@s stays this
 * CPU's); never sleeps.  One local add, plus a fold about once per 2^63
 * ns added.
 */
static inline void lt_sum_add(struct lt_sum *s, u64 d)
{
	if (unlikely(d >= LT_SUM_FAST_MAX)) {
		lt_sum_fold(s, d);
		return;
	}
	if (unlikely((u64)local64_add_return((s64)d, &s->lo) >>
		     LT_SUM_FOLD_SHIFT))
		lt_sum_fold(s, 0);
}

/**
 * lt_sum_read() - add one CPU's part of a sum to a total.
 * @s: the part, of any CPU.
 * @total: the 128-bit total to add it to.
 *
 * Context: any context but NMI; never sleeps (retries while that CPU
 * folds, a few instructions with interrupts off).
 */
static inline void lt_sum_read(struct lt_sum *s, struct lt_u128 *total)
{
	struct lt_u128 v;
	unsigned int seq;
	u64 lo, hi;

	BUILD_BUG_ON(sizeof(long) < sizeof(u64));	/* see "Readers" */
	do {
		seq = read_seqcount_begin(&s->seq);
		lo = (u64)local64_read(&s->lo);
		hi = (u64)local64_read(&s->hi);
	} while (read_seqcount_retry(&s->seq, seq));
	v = lt_sum_value(hi, lo);
	lt_u128_add(total, &v);
}

#endif /* _LT_STATS_SUM_H */
