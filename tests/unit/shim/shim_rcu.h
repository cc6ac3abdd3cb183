/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shim_rcu.h - RCU and hash-table pieces of the userspace shim (owned by
 * lfht).
 *
 * RCU is liburcu's memb flavour (the default one of <urcu.h>; link with
 * -lurcu -lurcu-cds -lpthread), the same flavour cds_lfht is tested and
 * measured with.  The kernel and liburcu already agree on most names
 * (rcu_read_lock, rcu_read_unlock, synchronize_rcu, call_rcu, rcu_barrier,
 * struct rcu_head); this file fixes the rest:
 *
 *  - rcu_dereference() and friends become C11 atomic loads (consume, which
 *    GCC implements as acquire: free on x86), so that ThreadSanitizer sees
 *    them as atomic; liburcu's own versions are volatile accesses, or even
 *    out-of-line calls without _LGPL_SOURCE.
 *  - ThreadSanitizer cannot see the happens-before edge a grace period
 *    gives (liburcu is not instrumented and uses membarrier/futex), so
 *    under -fsanitize=thread rcu_read_unlock() releases, and
 *    synchronize_rcu() and call_rcu() callbacks acquire, one shared
 *    annotation address.  Other builds are not changed.
 *
 * Every thread that calls rcu_read_lock() (and so every thread using the
 * hash tables) must first call rcu_register_thread().
 */
#ifndef _LT_SHIM_RCU_H
#define _LT_SHIM_RCU_H

#include <urcu.h>

/* -- kernel helpers the hash table uses ----------------------------------- */

#ifndef fls_long
static inline unsigned int fls_long(unsigned long x)
{
	return x ? 8 * sizeof(x) - __builtin_clzl(x) : 0;
}
#define fls_long fls_long
#endif

#define might_sleep()	do { } while (0)
#define cond_resched()	do { } while (0)

/* Lockdep-RCU checks: not available with liburcu; never evaluated. */
#define rcu_read_lock_any_held()	1
#define RCU_LOCKDEP_WARN(c, s)		do { } while (0)

/* -- pointer publication and access --------------------------------------- */

#undef rcu_dereference
#undef rcu_assign_pointer
#define rcu_dereference(p)	__atomic_load_n(&(p), __ATOMIC_CONSUME)
#define rcu_dereference_raw(p)	__atomic_load_n(&(p), __ATOMIC_CONSUME)
#define rcu_dereference_check(p, c)	rcu_dereference(p)
#define rcu_dereference_protected(p, c) \
	__atomic_load_n(&(p), __ATOMIC_RELAXED)
#define rcu_access_pointer(p)	__atomic_load_n(&(p), __ATOMIC_RELAXED)
#define rcu_assign_pointer(p, v) \
	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v) \
	__atomic_store_n(&(p), (v), __ATOMIC_RELAXED)

/* -- ThreadSanitizer view of grace periods -------------------------------- */

#if defined(__SANITIZE_THREAD__)
#define LT_SHIM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LT_SHIM_TSAN 1
#endif
#endif

#ifdef LT_SHIM_TSAN
#include <stdio.h>
#include <sanitizer/tsan_interface.h>

/*
 * One process-wide address standing for "a grace period ended after this"
 * (weak: one definition however many files include this header).
 */
__attribute__((__weak__)) char lt_shim_rcu_gp;

static inline void lt_shim_rcu_read_unlock(void)
{
	__tsan_release(&lt_shim_rcu_gp);
	urcu_memb_read_unlock();
}

static inline void lt_shim_synchronize_rcu(void)
{
	urcu_memb_synchronize_rcu();
	__tsan_acquire(&lt_shim_rcu_gp);
}

/*
 * call_rcu(): the callback runs in liburcu's worker thread, reached
 * through an uninstrumented queue; a small trampoline carries the
 * happens-before edges (caller -> callback, readers -> callback).
 */
struct lt_shim_rcu_thunk {
	struct rcu_head head;
	struct rcu_head *user;
	void (*func)(struct rcu_head *head);
};

static inline void lt_shim_rcu_thunk_run(struct rcu_head *head)
{
	struct lt_shim_rcu_thunk *t =
		caa_container_of(head, struct lt_shim_rcu_thunk, head);

	__tsan_acquire(t);
	__tsan_acquire(&lt_shim_rcu_gp);
	t->func(t->user);
	free(t);
}

static inline void lt_shim_call_rcu(struct rcu_head *head,
				    void (*func)(struct rcu_head *head))
{
	struct lt_shim_rcu_thunk *t = malloc(sizeof(*t));

	if (!t) {
		fprintf(stderr, "shim_rcu: out of memory in call_rcu\n");
		abort();
	}
	t->user = head;
	t->func = func;
	__tsan_release(t);
	urcu_memb_call_rcu(&t->head, lt_shim_rcu_thunk_run);
}

static inline void lt_shim_rcu_barrier(void)
{
	urcu_memb_barrier();
	__tsan_acquire(&lt_shim_rcu_gp);
}

#undef rcu_read_unlock
#undef synchronize_rcu
#undef call_rcu
#undef rcu_barrier
#define rcu_read_unlock()	lt_shim_rcu_read_unlock()
#define synchronize_rcu()	lt_shim_synchronize_rcu()
#define call_rcu(h, f)		lt_shim_call_rcu(h, f)
#define rcu_barrier()		lt_shim_rcu_barrier()
#endif /* LT_SHIM_TSAN */

#endif /* _LT_SHIM_RCU_H */
