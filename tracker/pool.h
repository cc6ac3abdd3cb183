/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pool.h - preallocated event slots: per-CPU caches over a lock-free stack.
 *
 * All nr_slots slots are allocated (and zeroed) once, by lt_pool_init(), in
 * one array; the probe path only moves slot indices around and never
 * allocates, sleeps or prints.
 *
 * Layout
 * ------
 * A free slot is in exactly one of two places:
 *
 *  - the shared reserve: a Treiber stack of slot indices.  The links live
 *    in a separate array next[] (one atomic_t per slot) so that the slot
 *    memory itself is never read by the stack while a user owns the slot.
 *    The top of the stack is one 64-bit word, head = {index:32, tag:32},
 *    replaced as a whole by atomic64_cmpxchg();
 *  - a per-CPU cache: a small array of indices with a raw spinlock.  The
 *    lock is uncontended in the common case (only its own CPU takes it);
 *    other CPUs take it only to steal from the cache when everything else
 *    is empty, and lt_pool_nr_free() takes it to count.
 *
 * lt_pool_put() stores into the local cache; when the cache is full, half
 * of it goes to the shared stack first, as one chain (one cmpxchg).
 * lt_pool_put_chain() gives back a list of slots (the core's reclaim
 * batches): it fills the local cache and pushes the rest as one chain per
 * round.  lt_pool_get() takes from the local cache; when it is empty, it
 * pops one slot from the shared stack plus half a cache worth to refill,
 * again with one cmpxchg.  When the shared stack is empty too, it steals
 * one slot from another CPU's cache (under that cache's lock).
 *
 * The cache capacity is nr_slots / (LT_POOL_CACHE_SHARE * nr_cpu_ids),
 * at most LT_POOL_CACHE_MAX: the caches together never hold more than a
 * quarter of the pool, and a small pool (fewer than four slots per CPU,
 * e.g. nr_slots = 1) has no caches at all and runs on the shared stack.
 *
 * Exhaustion is exact
 * -------------------
 * lt_pool_get() returns NULL only if there was an instant during the call
 * at which no slot was free anywhere.  The failing path, run with irqs off:
 *
 *  1. pop from the shared stack fails: head H is seen empty;
 *  2. first collect over every CPU's cache: read its state word, and if it
 *     holds slots, or is marked busy (a refill is moving slots from the
 *     stack into it), take its lock and steal one; add up the state words
 *     read (the last one under the lock);
 *  3. second collect: head still H, and the state words add up to the same
 *     sum.  Otherwise something moved: start over (irqs on in between).
 *
 * Every change of the stack bumps the tag in head, and every change of a
 * cache bumps the generation in its state word, so an unchanged head and
 * an unchanged sum mean nothing changed in between, and at the instant
 * between the two collects the stack and every cache were empty.  A slot
 * can also be in transit, neither on the stack nor in a cache, only inside
 * a refill, under that cache's lock: the refill marks the cache busy
 * before its pops, and the failing get read H after them (with acquire),
 * so step 2 sees the mark and waits for the lock.  (False equality would
 * need 2^32 head updates, or ~2^25 changes of one cache, within one
 * irqs-off scan.)  So no slot is ever stranded in another CPU's cache while
 * a get fails.  A failing get costs two reads of each CPU's state word;
 * a pool without caches (see above) stops at step 1.
 *
 * Why ABA cannot happen
 * ---------------------
 * A pop reads head = {i, t}, then next[i] = j, then replaces {i, t} with
 * {j, t + 1} (a pop of k slots follows k links, from i to j, and
 * replaces {i, t} with {j, t + 1}: the same argument holds for every link
 * read).  If meanwhile i was popped and pushed back (the ABA case), each
 * of those updates incremented the tag, so head is {i, t' != t} and the
 * cmpxchg fails.  It could only succeed wrongly after exactly 2^32
 * updates of head within one pop's read-to-cmpxchg window, which is a few
 * instructions run with interrupts off.  A push needs no tag (the pushed
 * index is owned by the pusher) but bumps it too, so that every change of
 * the stack is visible to the exhaustion check above.  Indices are always
 * < nr_slots or LT_POOL_NIL, so a stale next[i] read by a pop that will
 * fail is still a valid array index: nothing is dereferenced through it.
 *
 * Ordering: a push writes next[] (the links of its chain) before its
 * cmpxchg (fully ordered); a pop reads head with acquire semantics, then
 * the links.  The slot
 * contents written by a putter are visible to the next getter through the
 * cmpxchg (shared stack) or the cache lock (per-CPU cache).
 *
 * Synchronisation table
 * ---------------------
 * (NMI: never.  Every operation that touches a cache takes a raw spinlock,
 * and an NMI may have interrupted the holder of that very lock on the same
 * CPU: it would spin forever.)
 *
 * operation              | process | softirq | hardirq | NMI | protected by
 * -----------------------+---------+---------+---------+-----+------------------
 * lt_pool_init/destroy   |   yes   |   no    |   no    | no  | caller: no other
 *                        | (sleeps)|         |         |     | user of the pool
 * lt_pool_get: own cache |   yes   |   yes   |   yes   | no  | own cache lock,
 *                        |         |         |         |     | irqs off
 * lt_pool_get: pop/refill|   yes   |   yes   |   yes   | no  | cmpxchg + tag on
 *                        |         |         |         |     | head (under own
 *                        |         |         |         |     | cache lock)
 * lt_pool_get: steal     |   yes   |   yes   |   yes   | no  | victim's cache
 *                        |         |         |         |     | lock, irqs off
 * lt_pool_put: own cache |   yes   |   yes   |   yes   | no  | own cache lock,
 *                        |         |         |         |     | irqs off
 * lt_pool_put: spill/push|   yes   |   yes   |   yes   | no  | cmpxchg on head
 *                        |         |         |         |     | (under own lock)
 * lt_pool_put_chain      |   yes   |   yes   |   yes   | no  | as lt_pool_put,
 *                        |         |         |         |     | per round
 * lt_pool_nr_free        |   yes   |   yes   |   yes   | no  | each cache lock
 *                        |         |         |         |     | in turn (exact
 *                        |         |         |         |     | when quiescent)
 * lt_pool_bytes_per_slot |   yes   |   yes   |   yes   | yes | constant
 *
 * Process context callers may be preemptible: the cache of "this CPU" is
 * looked up and used with interrupts disabled, so neither a migration nor
 * an interrupt on the same CPU can come in between.  An interrupt handler
 * on another CPU that steals or counts takes the lock and is serialised.
 * The locks are never nested (a stealer drops its own lock before it takes
 * the victim's), so there is no lock order to respect.  Each CPU also keeps
 * shared_delta, the number of slots it pushed to minus popped from the
 * shared stack, under its lock, so that lt_pool_nr_free() can count the
 * shared stack without walking it.
 */
#ifndef _LT_POOL_H
#define _LT_POOL_H

#include "lt_env.h"

/* Slots lt_pool_put_chain() gives back per interrupts-off section. */
#define LT_POOL_CHAIN_ROUND	64
/* Most slot indices one per-CPU cache holds. */
#define LT_POOL_CACHE_MAX	32
/* The caches together hold at most 1/LT_POOL_CACHE_SHARE of the pool. */
#define LT_POOL_CACHE_SHARE	4
/* Low bits of a cache's state word holding its count (up to CACHE_MAX). */
#define LT_POOL_NR_BITS		6
/* Slot sizes are rounded up to this (alignment of every slot). */
#define LT_POOL_SLOT_ALIGN	8

/**
 * struct lt_pool_cache - one CPU's cache of free slot indices.
 * @lock: protects everything below; taken with interrupts off.
 * @state: generation (high bits), busy mark (bit LT_POOL_NR_BITS) and the
 *	number of valid entries in @idx (low LT_POOL_NR_BITS bits).  Written
 *	under @lock only, each write bumps the generation; read without the
 *	lock by stealers (see "Exhaustion is exact").
 * @shared_delta: slots this CPU pushed to minus popped from the shared
 *	stack, for lt_pool_nr_free().
 * @idx: the cached slot indices, as many as the count in @state.
 */
struct lt_pool_cache {
	raw_spinlock_t lock;
	atomic_t state;
	s64 shared_delta;
	u32 idx[LT_POOL_CACHE_MAX];
};

/**
 * struct lt_pool - a pool of equally sized, preallocated slots.
 * @head: top of the shared stack, {index (low 32 bits), tag (high 32)}.
 * @next: link of each slot while it is on the shared stack.
 * @slots: the slot memory, nr_slots * @stride bytes.
 * @cache: the per-CPU caches.
 * @stride: slot size rounded up to LT_POOL_SLOT_ALIGN.
 * @nr_slots: number of slots.
 * @cache_cap: capacity of each per-CPU cache (0: no caches).
 *
 * Embeddable; all fields are private to pool.c.
 */
struct lt_pool {
	atomic64_t head;
	atomic_t *next;
	void *slots;
	struct lt_pool_cache __percpu *cache;
	size_t stride;
	u32 nr_slots;
	u32 cache_cap;
};

int lt_pool_init(struct lt_pool *pool, u32 nr_slots, size_t slot_size);
void lt_pool_destroy(struct lt_pool *pool);
void *lt_pool_get(struct lt_pool *pool);
void lt_pool_put(struct lt_pool *pool, void *slot);
void lt_pool_put_chain(struct lt_pool *pool, void *first, size_t link_off);
u32 lt_pool_nr_free(struct lt_pool *pool);
size_t lt_pool_bytes_per_slot(const struct lt_pool *pool);

#endif /* _LT_POOL_H */
