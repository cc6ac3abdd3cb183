/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_user_shim.h - the kernel primitives the core data structures use,
 * provided in userspace so that the very same sources (those of tracker/)
 * build into host unit tests and benchmarks.  RCU comes from liburcu (memb
 * flavour, the same one cds_lfht is measured with); atomics and barriers
 * from the GCC builtins with the kernel's semantics.
 *
 * Pieces owned by one data structure live in their own shim_*.h file,
 * included at the bottom.
 */
#ifndef _LT_USER_SHIM_H
#define _LT_USER_SHIM_H

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef U64_MAX
#define U64_MAX UINT64_MAX
#endif
#ifndef U32_MAX
#define U32_MAX UINT32_MAX
#endif

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#ifndef __always_inline /* glibc's sys/cdefs.h has one */
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __maybe_unused	__attribute__((__unused__))
#define __aligned(x)	__attribute__((__aligned__(x)))
#define ALIGN(x, a)	(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(64)))
#define SMP_CACHE_BYTES 64

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif
#define BIT_ULL(n)	(1ULL << (n))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)
#define WARN_ON_ONCE(cond) ({ int __c = !!(cond); __c; })
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) do { *(volatile __typeof__(x) *)&(x) = (v); } while (0)

#define barrier()	__asm__ __volatile__("" ::: "memory")
#ifdef __SANITIZE_THREAD__
/*
 * ThreadSanitizer does not model stand-alone fences (GCC refuses them
 * under -fsanitize=thread): a sequentially consistent read-modify-write
 * on one shared word orders like a full barrier and is understood by it.
 */
static int lt_shim_fence_word __maybe_unused;
#define smp_mb()	((void)__atomic_fetch_add(&lt_shim_fence_word, 0, __ATOMIC_SEQ_CST))
#define smp_rmb()	smp_mb()
#define smp_wmb()	smp_mb()
#else
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)

/* Kernel cmpxchg: full barrier, returns the old value. */
#define cmpxchg(ptr, o, n) ({						\
	__typeof__(*(ptr)) __old = (o);					\
	__atomic_compare_exchange_n(ptr, &__old, n, false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	__old; })
#define cmpxchg64(ptr, o, n)	cmpxchg(ptr, o, n)
#define xchg(ptr, v)	__atomic_exchange_n(ptr, v, __ATOMIC_SEQ_CST)

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
#define atomic_read(a)		__atomic_load_n(&(a)->counter, __ATOMIC_RELAXED)
#define atomic_set(a, v)	__atomic_store_n(&(a)->counter, v, __ATOMIC_RELAXED)
#define atomic_inc(a)		((void)__atomic_add_fetch(&(a)->counter, 1, __ATOMIC_RELAXED))
#define atomic_dec(a)		((void)__atomic_sub_fetch(&(a)->counter, 1, __ATOMIC_RELAXED))
#define atomic_add(i, a)	((void)__atomic_add_fetch(&(a)->counter, i, __ATOMIC_RELAXED))
#define atomic_sub(i, a)	((void)__atomic_sub_fetch(&(a)->counter, i, __ATOMIC_RELAXED))
#define atomic_add_return(i, a)	__atomic_add_fetch(&(a)->counter, i, __ATOMIC_SEQ_CST)
#define atomic_xchg(a, v)	__atomic_exchange_n(&(a)->counter, v, __ATOMIC_SEQ_CST)
#define atomic_dec_and_test(a)	(__atomic_sub_fetch(&(a)->counter, 1, __ATOMIC_SEQ_CST) == 0)
#define atomic_cmpxchg(a, o, n)	cmpxchg(&(a)->counter, o, n)
#define atomic64_read(a)	__atomic_load_n(&(a)->counter, __ATOMIC_RELAXED)
#define atomic64_set(a, v)	__atomic_store_n(&(a)->counter, v, __ATOMIC_RELAXED)
#define atomic64_inc(a)		((void)__atomic_add_fetch(&(a)->counter, 1, __ATOMIC_RELAXED))
#define atomic64_add(i, a)	((void)__atomic_add_fetch(&(a)->counter, i, __ATOMIC_RELAXED))
#define atomic64_cmpxchg(a, o, n)	cmpxchg(&(a)->counter, o, n)
#define atomic_read_acquire(a)	__atomic_load_n(&(a)->counter, __ATOMIC_ACQUIRE)
#define atomic64_read_acquire(a) __atomic_load_n(&(a)->counter, __ATOMIC_ACQUIRE)

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

#define ilog2(n)	(fls64(n) - 1)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline int ilog2_u64(u64 x)
{
	return fls64(x) - 1;
}

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

static inline void *lt_zalloc(size_t size)
{
	return calloc(1, size);
}

static inline void *lt_zalloc_mayfail(size_t size)
{
	return calloc(1, size);
}

static inline void lt_free(void *p)
{
	free(p);
}

/* Per-structure parts: each file is owned by the structure that needs it. */
#include "shim_rcu.h"
#include "shim_percpu.h"
#include "shim_sum.h"

#endif /* _LT_USER_SHIM_H */
