/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shim_sum.h - local64_t, seqcount_t and the 64-bit division with
 * remainder of the userspace shim (owned by tracker/stats_sum.h).
 *
 * local64_t: the kernel's are atomic against interrupts on the local CPU
 * only; here every operation is a relaxed C11 atomic, which is that and
 * more, and which ThreadSanitizer understands.  seqcount_t: the kernel's
 * protocol (the count odd during a write section, readers retry when it
 * was odd or changed), the count read with acquire and its last store a
 * release, the shim's smp_wmb()/smp_rmb() where the kernel has them.
 * Writers are serialised by their caller, as in the kernel.
 */
#ifndef _LT_SHIM_SUM_H
#define _LT_SHIM_SUM_H

typedef struct {
	s64 counter;
} local64_t;

#define local64_read(l)		__atomic_load_n(&(l)->counter, __ATOMIC_RELAXED)
#define local64_set(l, v)	__atomic_store_n(&(l)->counter, (v), __ATOMIC_RELAXED)
#define local64_add_return(i, l) \
	__atomic_add_fetch(&(l)->counter, (i), __ATOMIC_RELAXED)

typedef struct {
	unsigned int sequence;
} seqcount_t;

static inline void seqcount_init(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, 0, __ATOMIC_RELAXED);
}

static inline void raw_write_seqcount_begin(seqcount_t *s)
{
	unsigned int v = __atomic_load_n(&s->sequence, __ATOMIC_RELAXED);

	__atomic_store_n(&s->sequence, v + 1, __ATOMIC_RELAXED);
	smp_wmb();	/* the odd count before the data stores */
}

static inline void raw_write_seqcount_end(seqcount_t *s)
{
	unsigned int v = __atomic_load_n(&s->sequence, __ATOMIC_RELAXED);

	__atomic_store_n(&s->sequence, v + 1, __ATOMIC_RELEASE);
}

static inline unsigned int read_seqcount_begin(seqcount_t *s)
{
	unsigned int v;

	while ((v = __atomic_load_n(&s->sequence, __ATOMIC_ACQUIRE)) & 1)
		cpu_relax();
	return v;
}

static inline int read_seqcount_retry(seqcount_t *s, unsigned int start)
{
	smp_rmb();	/* the data loads before the count's */
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED) != start;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

#endif /* _LT_SHIM_SUM_H */
