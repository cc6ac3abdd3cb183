/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shim_percpu.h - per-CPU data and irq-safe locks of the userspace shim
 * (owned by the pool).
 *
 * The host has no notion of "the CPU this code runs on" that stays put, so
 * the shim emulates a fixed set of LT_SHIM_NR_CPUS CPUs: every test thread
 * says which emulated CPU it is with lt_shim_set_cpu() (default 0), and
 * smp_processor_id(), this_cpu_ptr() and friends follow that.
 *
 * Two threads may say they are the same CPU, but not at the same time in
 * a section that the kernel runs with preemption or interrupts disabled:
 * there, nothing else runs on that CPU, and the pool's per-CPU caches rely
 * on it (their fast paths take no lock).  So preempt_disable() and
 * local_irq_save() claim the emulated CPU (a lock per CPU, recursive
 * within a thread; acquire/release, which ThreadSanitizer understands)
 * and preempt_enable()/local_irq_restore() give it back.
 *
 * Interrupts: a test may send LT_SHIM_IRQ_SIGNAL to a thread whose handler
 * then runs on that thread's CPU, nested like an interrupt handler, e.g.
 * in the middle of a pool fast path.  local_irq_save()/disable() block
 * that signal (the outermost call saves the thread's mask, the matching
 * restore puts it back), as the kernel's would block interrupts; the
 * handler itself runs with it blocked.  Send it only to threads that do
 * not share their CPU with another thread (a handler that came between
 * the two steps of a claim would not wait for the CPU).  The raw spinlock
 * is a plain test-and-test-and-set lock built on the GCC atomics.
 */
#ifndef _LT_SHIM_PERCPU_H
#define _LT_SHIM_PERCPU_H

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LT_SHIM_NR_CPUS
#define LT_SHIM_NR_CPUS		8
#endif

#define __percpu

/* Emulated CPU of the calling thread (one object for the whole program). */
__attribute__((weak)) __thread int lt_shim_cpu;
/* Depth of the calling thread's claim on its CPU (see above). */
__attribute__((weak)) __thread int lt_shim_claim_depth;
/* Depth of local_irq_save()/disable() and the mask they saved. */
__attribute__((weak)) __thread int lt_shim_irq_depth;
__attribute__((weak)) __thread sigset_t lt_shim_irq_saved;

/* The "interrupt" of the shim (see above). */
#define LT_SHIM_IRQ_SIGNAL	SIGUSR1
/* Per emulated CPU: 1 while a thread has claimed it. */
__attribute__((weak)) int lt_shim_claimed[LT_SHIM_NR_CPUS];

#define LT_SHIM_CLAIM_YIELD	64

static inline void lt_shim_set_cpu(int cpu)
{
	/* A thread inside a claimed section stays on its CPU. */
	if (cpu < 0 || cpu >= LT_SHIM_NR_CPUS || lt_shim_claim_depth)
		abort();
	lt_shim_cpu = cpu;
}

static inline void lt_shim_claim_cpu(void)
{
	unsigned int spins = 0;
	int free;

	if (lt_shim_claim_depth++)
		return;
	for (;;) {
		free = 0;
		if (__atomic_compare_exchange_n(&lt_shim_claimed[lt_shim_cpu],
						&free, 1, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		if (++spins % LT_SHIM_CLAIM_YIELD == 0)
			sched_yield();
	}
}

static inline void lt_shim_release_cpu(void)
{
	if (lt_shim_claim_depth <= 0)
		abort();
	/*
	 * Give the CPU back before the depth drops to 0: an "interrupt" in
	 * between then nests (it sees a depth) instead of waiting for a
	 * claim that its own thread holds.
	 */
	if (lt_shim_claim_depth == 1)
		__atomic_store_n(&lt_shim_claimed[lt_shim_cpu], 0,
				 __ATOMIC_RELEASE);
	lt_shim_claim_depth--;
}

#define nr_cpu_ids		((unsigned int)LT_SHIM_NR_CPUS)
#define num_possible_cpus()	nr_cpu_ids
#define num_online_cpus()	nr_cpu_ids
#define smp_processor_id()	(lt_shim_cpu)
#define raw_smp_processor_id()	(lt_shim_cpu)
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)
#define for_each_online_cpu(cpu)	for_each_possible_cpu(cpu)

/*
 * Per-CPU areas: one block holding a header (the stride) followed by one
 * copy per emulated CPU, each copy on its own cache lines, zeroed like the
 * kernel's alloc_percpu().
 */
#define LT_SHIM_PERCPU_ALIGN	64

static inline void *lt_shim_alloc_percpu(size_t size)
{
	size_t stride = (size + LT_SHIM_PERCPU_ALIGN - 1) &
			~(size_t)(LT_SHIM_PERCPU_ALIGN - 1);
	size_t total = LT_SHIM_PERCPU_ALIGN + stride * LT_SHIM_NR_CPUS;
	char *base = aligned_alloc(LT_SHIM_PERCPU_ALIGN, total);

	if (!base)
		return NULL;
	memset(base, 0, total);
	*(size_t *)base = stride;
	return base + LT_SHIM_PERCPU_ALIGN;
}

static inline void *lt_shim_per_cpu_ptr(const void *ptr, int cpu)
{
	const char *p = ptr;
	size_t stride = *(const size_t *)(p - LT_SHIM_PERCPU_ALIGN);

	if (cpu < 0 || cpu >= LT_SHIM_NR_CPUS)
		abort();
	return (void *)(p + (size_t)cpu * stride);
}

static inline void lt_shim_free_percpu(void *ptr)
{
	if (ptr)
		free((char *)ptr - LT_SHIM_PERCPU_ALIGN);
}

#define alloc_percpu(type) \
	((type *)lt_shim_alloc_percpu(sizeof(type)))
#define free_percpu(ptr)	lt_shim_free_percpu(ptr)
#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))lt_shim_per_cpu_ptr((ptr), (cpu)))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, smp_processor_id())
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)

static inline void lt_shim_irq_off(void)
{
	sigset_t set;

	if (!lt_shim_irq_depth++) {
		sigemptyset(&set);
		sigaddset(&set, LT_SHIM_IRQ_SIGNAL);
		pthread_sigmask(SIG_BLOCK, &set, &lt_shim_irq_saved);
	}
	lt_shim_claim_cpu();
}

static inline void lt_shim_irq_on(void)
{
	lt_shim_release_cpu();
	if (lt_shim_irq_depth <= 0)
		abort();
	if (!--lt_shim_irq_depth)
		pthread_sigmask(SIG_SETMASK, &lt_shim_irq_saved, NULL);
}

/* Sections that the kernel runs alone on its CPU: claim the CPU. */
#define local_irq_save(flags)	do { (flags) = 0; lt_shim_irq_off(); } while (0)
#define local_irq_restore(flags) do { (void)(flags); lt_shim_irq_on(); } while (0)
#define local_irq_disable()	lt_shim_irq_off()
#define local_irq_enable()	lt_shim_irq_on()
#ifndef preempt_disable
#define preempt_disable()	lt_shim_claim_cpu()
#define preempt_enable()	lt_shim_release_cpu()
#endif
#ifndef preempt_disable_notrace
#define preempt_disable_notrace()	lt_shim_claim_cpu()
#define preempt_enable_notrace()	lt_shim_release_cpu()
#endif

#ifndef cpu_relax
#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()		__builtin_ia32_pause()
#else
#define cpu_relax()		barrier()
#endif
#endif

/*
 * raw_spinlock_t: test-and-test-and-set; yields the host CPU now and then
 * so that a test with more threads than host CPUs still makes progress
 * when the holder was preempted.
 */
typedef struct {
	int locked;
} raw_spinlock_t;

#define LT_SHIM_SPIN_YIELD	64
#define DEFINE_RAW_SPINLOCK(name)	raw_spinlock_t name = { 0 }

static inline void raw_spin_lock_init(raw_spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELAXED);
}

static inline bool raw_spin_trylock(raw_spinlock_t *lock)
{
	return !__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE);
}

static inline void raw_spin_lock(raw_spinlock_t *lock)
{
	unsigned int spins = 0;

	while (!raw_spin_trylock(lock)) {
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED)) {
			if (++spins % LT_SHIM_SPIN_YIELD == 0)
				sched_yield();
			else
				cpu_relax();
		}
	}
}

static inline bool raw_spin_is_locked(raw_spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED);
}

static inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define raw_spin_lock_irqsave(lock, flags) do {				\
	local_irq_save(flags);						\
	raw_spin_lock(lock);						\
} while (0)

#define raw_spin_unlock_irqrestore(lock, flags) do {			\
	raw_spin_unlock(lock);						\
	local_irq_restore(flags);					\
} while (0)

#define raw_spin_lock_irq(lock) do {					\
	local_irq_disable();						\
	raw_spin_lock(lock);						\
} while (0)

#define raw_spin_unlock_irq(lock) do {					\
	raw_spin_unlock(lock);						\
	local_irq_enable();						\
} while (0)

#endif /* _LT_SHIM_PERCPU_H */
