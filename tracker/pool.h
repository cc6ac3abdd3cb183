/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pool.h - preallocated event slots: per-CPU caches over a lock-free stack,
 * and a pool that grows.
 *
 * The slots are allocated (and zeroed) in segments: lt_pool_init()
 * allocates the first one, and lt_pool_grow(), in process context, adds
 * one more at a time up to the pool's ceiling.  The probe path only moves
 * slot indices around and never allocates, sleeps or prints; when it
 * finds the pool running low it calls the owner's on_low hook, which
 * schedules the growth (see "Growth").
 *
 * Layout
 * ------
 * A slot is named by its index.  Segment 0 holds indices [0, nr0);
 * segment k >= 1 holds 2^(unit_shift + k - 1) indices from
 * nr0 + 2^unit_shift * (2^(k - 1) - 1) on, where 2^unit_shift is nr0
 * rounded up to a power of two: each growth at least doubles the pool
 * (unless LT_POOL_MAX_BYTES caps the segment), and an index's segment is
 * a compare, a shift and an fls() (lt_pool_seg_of()).  A segment may be
 * cut short by the ceiling, or by LT_POOL_MAX_BYTES (then every later one
 * too): its upper indices then never exist.  Each
 * segment is one allocation: its slots, then their links, next[] (one
 * atomic_t per slot).  The segment table, seg[], lives in struct lt_pool;
 * an entry is written once, when its segment is added, and read without
 * a lock (see "Growth").
 *
 * A free slot is in exactly one of two places:
 *
 *  - the shared reserve: a Treiber stack of slot indices.  The links live
 *    apart from the slots, in next[], so that the slot memory itself is
 *    never read by the stack while a user owns the slot.  The top of the
 *    stack is one 64-bit word, head = {index:32, tag:32}, replaced as a
 *    whole by atomic64_cmpxchg(); stack_nr counts the slots on it
 *    (updated after each push or pop: exact only when nothing moves);
 *  - a per-CPU cache: a small stack of indices, idx[], whose depth is in
 *    a 64-bit state word, state = {generation, busy, count}.  Every change
 *    of a cache replaces its state word as a whole, bumping the
 *    generation.  The cache also has a raw spinlock, which serialises
 *    everything but the fast path (puts, refill, steal, count).
 *
 * Fast path (the probe path's common case; inline, at the end of this
 * header): lt_pool_get() pops the top index of its own CPU's cache with
 * preemption disabled and one atomic64_cmpxchg() of the state word: read
 * state, read the entry below the count, then replace state by
 * {generation + 1, busy, count - 1}.  No interrupt is disabled and no
 * lock taken.  A pop only reads entries, so one that loses a race (its
 * cmpxchg fails) has changed nothing and starts again.  A push cannot be
 * done that way: it writes the entry at the count it read before it
 * publishes it, and an interrupt that pushed in between would have
 * published that very entry, which the resumed push would overwrite.
 * Puts are rarely on the probe path anyway: the core gives slots back
 * in batches, from its RCU callbacks, with lt_pool_put_chain(); one at a
 * time (lt_pool_put()) only when an extra reference (a get_event() user,
 * the timeout timer) outlives that.
 *
 * Slow paths, with interrupts off and the cache's lock held:
 * lt_pool_put() stores into the local cache; into a full one, it first
 * moves the cache's newest half to the shared stack, as one chain (one
 * cmpxchg).  lt_pool_put_chain() gives back a list of slots: it fills the
 * local cache and pushes the rest as one chain per round.  lt_pool_get()
 * with an empty cache pops one slot from the shared stack plus half a
 * cache worth to refill, again with one cmpxchg.  When the shared stack
 * is empty too, it steals one slot from another CPU's cache (under that
 * cache's lock, popping by a cmpxchg of its state word as the fast path
 * does).
 *
 * Who writes a cache.  Its own CPU, any context on it: pops (fast path,
 * preemption off) and the slow paths (interrupts off); and stealers from
 * other CPUs, under its lock.  Entries are written by the owner's slow
 * paths only, which run alone on the cache: interrupts off, so no pop of
 * that CPU runs meanwhile (one that was interrupted is suspended; its
 * cmpxchg fails if the slow path wrote anything, as every write of an
 * entry comes with a generation bump), and the lock held, so no stealer
 * does; they update
 * the state word with plain atomic64_set()s.  A pop may be interrupted,
 * between its read of state and its cmpxchg, by an interrupt that runs
 * any pool operation to its end, and it may race with a stealer
 * elsewhere (which races with the owner's pops in turn, hence the
 * stealer's cmpxchg): either changes the state word, so the cmpxchg
 * fails.  The generation is 54 bits wide: a cmpxchg could succeed wrongly
 * only after 2^54 changes of one cache during one read-to-cmpxchg window.
 *
 * The cache capacity is nr0 / (LT_POOL_CACHE_SHARE * nr_cpu_ids), at most
 * LT_POOL_CACHE_MAX, fixed at lt_pool_init(): the caches together never
 * hold more than a quarter of the first segment, and a small pool (fewer
 * than four slots per CPU at first, e.g. nr0 = 1) has no caches at all
 * and runs on the shared stack.
 *
 * Growth
 * ------
 * The low watermark: fewer than half the pool's slots on the shared
 * stack (stack_nr < low_mark = nr_slots / 2; the caches hold at most a
 * quarter of the first segment besides).  A get that refills its CPU's
 * cache from the stack, or pops from it (a pool without caches), looks at
 * stack_nr after its pop; below the mark, and below the ceiling, it sets
 * kicked (once: kicked is only cleared by lt_pool_rearm()) and calls
 * on_low(), with interrupts off, in the context of the get: the hook
 * must not sleep nor allocate (the core queues an irq_work, whose
 * handler queues the work that grows the pool).  The fast path (a pop
 * from the CPU's own cache) does not look: a CPU refills every
 * cache_cap / 2 gets, and a pool without caches pops on every get.
 *
 * lt_pool_grow() (process context; the caller serialises growths and
 * lt_pool_destroy()) allocates segment k = nr_segs, zeroed, links its
 * slots into one chain, then publishes it in this order: the entry's
 * slots, first, nr and bytes; the entry's next with a release store;
 * nr_segs with a release store; then the chain goes on the shared stack
 * with one push (a fully ordered cmpxchg, bumping the tag like any
 * push); then nr_slots and low_mark.  Every index of the segment is thus
 * published after its table entry, and whoever gets it got it through
 * an acquire of head (a refill or pop) or through a cache written after
 * one, so it sees the entry.  A pop that follows links may read a stale
 * link (its cmpxchg will fail): that index may belong to a segment whose
 * entry this CPU does not see yet; the pop reads the entry's next with
 * acquire, and on NULL drops the try and starts again from head (read
 * with acquire, where the entries of every index on the stack are seen,
 * see "Ordering").  lt_pool_index() finds a slot's segment by its address
 * among the nr_segs first entries, newest first.  A put relies on the get
 * that handed its slot out having happened before it (the core orders
 * them: a grace period before a slot is reclaimed, the fully ordered
 * drop of an event's last reference), so that it sees the slot's entry.
 *
 * The pool never shrinks: a segment could only go when every one of its
 * slots is free, and finding them would mean taking every free slot off
 * the shared stack and out of every CPU's cache.
 *
 * Exhaustion is exact
 * -------------------
 * lt_pool_get() returns NULL only if there was an instant during the call
 * at which no slot was free anywhere (among the slots the pool had then:
 * a growth may add some right after).  The failing path, run with irqs
 * off:
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
 * cache bumps the generation in its state word.  The sums cannot hide a
 * change: a state word is generation * 2^10 + busy * 2^9 + count, so
 * k >= 1 changes of one cache add k * 2^10 to it and change its low ten
 * bits by less than 2^10; over all caches, K >= 1 changes move the sum by
 * at least K * 2^10 minus less than K * 2^10, never by 0 (short of the sum
 * wrapping, which needs more than 2^53 changes).  So an unchanged head and
 * an unchanged sum mean nothing changed in between, and at the instant
 * between the two collects the stack and every cache were empty.  A slot
 * can also be in transit, neither on the stack nor in a cache, only inside
 * a refill, under that cache's lock: the refill marks the cache busy
 * before its pops, and the failing get read H after them (with acquire, or
 * from a failed cmpxchg followed by smp_rmb(): a failed cmpxchg orders
 * nothing), so step 2 sees the mark and waits for the lock.  A pop moves a
 * slot from a cache to its caller in one cmpxchg, with nothing in transit;
 * a spill pushes its half to the stack before it lowers the count (its
 * slots are never in neither place), and the slots of a put are not free
 * before the write that publishes them.  The slots of a new segment
 * become free all at once, by the push that puts them on the stack,
 * which changes head like any push.  So no slot is ever stranded in
 * another CPU's cache while a get fails.  A failing get costs two reads of
 * each CPU's state word; a pool without caches (see above) stops at
 * step 1.
 *
 * Why ABA cannot happen
 * ---------------------
 * Shared stack: a pop reads head = {i, t}, then next[i] = j, then
 * replaces {i, t} with {j, t + 1} (a pop of k slots follows k links, from
 * i to j, and replaces {i, t} with {j, t + 1}: the same argument holds for
 * every link read).  If meanwhile i was popped and pushed back (the ABA
 * case), each of those updates incremented the tag, so head is
 * {i, t' != t} and the cmpxchg fails.  It could only succeed wrongly after
 * a multiple of 2^32 updates of head within one pop's read-to-cmpxchg
 * window: at most about 2 x 129 dependent loads (a link and its
 * segment's entry) per try with interrupts off
 * (minutes of updates even if a hypervisor stalls the vCPU in between).
 * A push needs no tag (the pushed index is owned by the pusher) but bumps
 * it too, so that every change of the stack is visible to the exhaustion
 * check above.
 * Every value a link or head ever holds is LT_POOL_NIL or the index of a
 * slot of a segment published before that index was first pushed, so a
 * stale next[i] read by a pop that will fail names a segment whose entry
 * was written, though maybe not seen yet by this CPU: the pop checks the
 * entry (see "Growth") and dereferences nothing else through it.  Caches:
 * the same, with the generation of the state word as the tag (see "Who
 * writes a cache").
 *
 * Ordering: a push writes next[] (the links of its chain) before its
 * cmpxchg (fully ordered when it succeeds); every change of head is such a
 * cmpxchg, each reading the value the one before wrote, so a CPU that
 * reads head with acquire sees what every earlier pusher and popper did
 * before its cmpxchg, the links of the whole stack and the table entries
 * of every index on it included.  A pop reads head with acquire, or from
 * a failed cmpxchg (unordered), and then the links at addresses that
 * depend on it (see lt_pool_stack_pop()).  Cache entries
 * are written, and their count published, by the owner's slow paths
 * under the cache's lock; a stealer reads them under the same lock, the
 * owner's pops on the same CPU.  The slot
 * contents written by a putter are visible to the next getter through
 * the lock or the cmpxchgs above (fully ordered), or through program
 * order on the same CPU.
 *
 * Synchronisation table
 * ---------------------
 * (NMI: never.  The slow paths take a raw spinlock, and an NMI may have
 * interrupted the holder of that very lock on the same CPU: it would spin
 * forever; the fast path interrupted by an NMI that used the pool would
 * only retry, but the NMI's own slow path could spin.)
 *
 * operation              | process | softirq | hardirq | NMI | protected by
 * -----------------------+---------+---------+---------+-----+------------------
 * lt_pool_init/destroy   |   yes   |   no    |   no    | no  | caller: no other
 *                        | (sleeps)|         |         |     | user of the pool
 * lt_pool_grow           |   yes   |   no    |   no    | no  | caller serialises
 *                        | (sleeps)|         |         |     | growths; pushes:
 *                        |         |         |         |     | cmpxchg on head
 * lt_pool_rearm, _low    |   yes   |   yes   |   yes   | no  | atomics
 * lt_pool_get: own cache |   yes   |   yes   |   yes   | no  | preemption off,
 *                        |         |         |         |     | cmpxchg + gener-
 *                        |         |         |         |     | ation on state
 * lt_pool_get: pop/refill|   yes   |   yes   |   yes   | no  | cmpxchg + tag on
 *                        |         |         |         |     | head (own cache
 *                        |         |         |         |     | lock, irqs off)
 * lt_pool_get: steal     |   yes   |   yes   |   yes   | no  | victim's cache
 *                        |         |         |         |     | lock + cmpxchg on
 *                        |         |         |         |     | its state, irqs
 *                        |         |         |         |     | off
 * lt_pool_put: own cache |   yes   |   yes   |   yes   | no  | own cache lock,
 *                        |         |         |         |     | irqs off
 * lt_pool_put: spill/push|   yes   |   yes   |   yes   | no  | cmpxchg on head
 *                        |         |         |         |     | (own cache lock,
 *                        |         |         |         |     | irqs off)
 * lt_pool_put_chain      |   yes   |   yes   |   yes   | no  | as the spill,
 *                        |         |         |         |     | per round
 * lt_pool_nr_free        |   yes   |   yes   |   yes   | no  | each cache lock
 *                        |         |         |         |     | in turn (exact
 *                        |         |         |         |     | when quiescent)
 * on_low (the hook)      |   yes   |   yes   |   yes   | no  | kicked: once per
 *                        |         |         |         |     | rearm; irqs off
 * lt_pool_index,         |   yes   |   yes   |   yes   | yes | reads published
 *   lt_pool_capacity     |         |         |         |     | entries only
 * lt_pool_bytes_per_slot |   yes   |   yes   |   yes   | yes | constant
 *
 * Process context callers may be preemptible: the cache of "this CPU" is
 * looked up and used with preemption (the fast path) or interrupts (slow
 * paths) disabled, so no migration can come in between.  An interrupt
 * handler on another CPU that steals or counts takes the lock and is
 * serialised with the slow paths.  The locks are never nested (a stealer
 * drops its own lock before it takes the victim's), so there is no lock
 * order to respect.  stack_nr (atomic_add() after each push or pop)
 * lets lt_pool_nr_free() and the watermark count the shared stack without
 * walking it.
 */
#ifndef _LT_POOL_H
#define _LT_POOL_H

#include "lt_env.h"

/* Slots lt_pool_put_chain() gives back per interrupts-off section. */
#define LT_POOL_CHAIN_ROUND	64
/*
 * Most slot indices one per-CPU cache holds.  A refill pops half of it
 * from the shared stack in one run: the larger the run, the longer the
 * stretches of slots a CPU takes in the order they were given back, so
 * the less the order in which a CPU walks the pool's memory scatters as
 * the CPUs' batches interleave on the shared stack.  With 32, the bench's
 * per-pair cost grows round after round (a tracker made afresh each round
 * does not); with 256 it stays flat over a run of make bench.  The
 * price: a refill follows up to 129 links of next[] with interrupts off
 * (each try; a failed cmpxchg walks them again), and each cache is about
 * 1 KiB per CPU and pool, allocated even when cache_cap is 0.
 */
#define LT_POOL_CACHE_MAX	256
/* The caches together hold at most 1/LT_POOL_CACHE_SHARE of the pool. */
#define LT_POOL_CACHE_SHARE	4
/* Low bits of a cache's state word holding its count (up to CACHE_MAX). */
#define LT_POOL_NR_BITS		9
/* Slot sizes are rounded up to this (alignment of every slot). */
#define LT_POOL_SLOT_ALIGN	8
/* A cache's state word: generation | busy | count (see "Layout"). */
#define LT_POOL_NR_MASK		((1ULL << LT_POOL_NR_BITS) - 1)
#define LT_POOL_BUSY		(LT_POOL_NR_MASK + 1)
#define LT_POOL_GEN_ONE		(LT_POOL_BUSY << 1)
#define LT_POOL_GEN_MASK	(~(LT_POOL_BUSY | LT_POOL_NR_MASK))
/* "No slot": end of the shared stack, empty result. */
#define LT_POOL_NIL		U32_MAX
/* Entries of the segment table: enough for every index below 2^31. */
#define LT_POOL_MAX_SEGS	32
/* Indices stay below this (lt_pool_seg_of() computes in 32 bits). */
#define LT_POOL_MAX_INDEX	(U32_MAX >> 1)

/**
 * struct lt_pool_cache - one CPU's cache of free slot indices.
 * @lock: serialises the slow paths and stealers; taken with interrupts
 *	off.
 * @state: generation (high bits), busy mark (bit LT_POOL_NR_BITS) and the
 *	number of valid entries in @idx (low LT_POOL_NR_BITS bits).  Each
 *	change bumps the generation: by cmpxchg in pops (the fast path and
 *	stealers), by a plain set in the owner's slow paths (see "Who writes
 *	a cache").
 * @idx: the cached slot indices, as many as the count in @state
 *	(relaxed atomics: the fast path reads them without the lock).
 */
struct lt_pool_cache {
	raw_spinlock_t lock;
	atomic64_t state;
	atomic_t idx[LT_POOL_CACHE_MAX];
};

/**
 * struct lt_pool_seg - one segment of slots (an entry of the table).
 * @slots: its slot memory, @nr * stride bytes, then the links.
 * @next: the link of each of its slots while on the shared stack;
 *	written last, with release: the entry is published when it is set.
 * @first: index of its first slot.
 * @nr: number of its slots.
 * @bytes: @nr * stride.
 */
struct lt_pool_seg {
	char *slots;
	atomic_t *next;
	u32 first;
	u32 nr;
	size_t bytes;
};

struct lt_pool;
/* See "Growth": called once per rearm, any context but NMI, irqs off. */
typedef void (*lt_pool_low_fn)(struct lt_pool *pool);

/**
 * struct lt_pool - a pool of equally sized, preallocated slots.
 * @head: top of the shared stack, {index (low 32 bits), tag (high 32)}.
 * @stack_nr: slots on the shared stack (see "Layout").
 * @kicked: @on_low was called and the pool not rearmed since.
 * @cache: the per-CPU caches.
 * @stride: slot size rounded up to LT_POOL_SLOT_ALIGN.
 * @recip: multiplier that divides an offset by @stride (see pool.c).
 * @recip_shift: the shift that goes with @recip.
 * @cache_cap: capacity of each per-CPU cache (0: no caches).
 * @nr0: slots of segment 0.
 * @unit_shift: segment k >= 1 holds 2^(@unit_shift + k - 1) indices.
 * @nr_slots: slots allocated (the pool's capacity).
 * @max_slots: the ceiling of @nr_slots.
 * @low_mark: the watermark: @nr_slots / 2.  It, @nr_slots and @max_slots
 *	are written by lt_pool_init() and lt_pool_grow() only and read
 *	anywhere, as counts and a hint: nothing is ordered by them.
 * @nr_segs: entries of @seg in use.
 * @on_low: the owner's hook (see "Growth"), or NULL.
 * @seg: the segment table.
 *
 * Embeddable; all fields are private to pool.c and to the inline fast
 * path of lt_pool_get() below.  @head and the counters written by every
 * CPU's slow paths have a cache line of their own, away from what the
 * fast path reads.
 */
struct lt_pool {
	atomic64_t head ____cacheline_aligned_in_smp;
	atomic_t stack_nr;
	atomic_t kicked;
	struct lt_pool_cache __percpu *cache ____cacheline_aligned_in_smp;
	size_t stride;
	u64 recip;
	u32 recip_shift;
	u32 cache_cap;
	u32 nr0;
	u32 unit_shift;
	atomic_t nr_slots;
	atomic_t max_slots;
	atomic_t low_mark;
	u32 nr_segs;
	lt_pool_low_fn on_low;
	struct lt_pool_seg seg[LT_POOL_MAX_SEGS];
};

int lt_pool_init(struct lt_pool *pool, u32 nr_slots, u32 max_slots,
		 size_t slot_size);
int lt_pool_grow(struct lt_pool *pool);
bool lt_pool_low(struct lt_pool *pool);
bool lt_pool_rearm(struct lt_pool *pool);
void lt_pool_destroy(struct lt_pool *pool);
void *lt_pool_get_slow(struct lt_pool *pool);
void lt_pool_put(struct lt_pool *pool, void *slot);
void lt_pool_put_chain(struct lt_pool *pool, void *first, size_t link_off);
u32 lt_pool_index(const struct lt_pool *pool, const void *slot);
u32 lt_pool_nr_free(struct lt_pool *pool);
u32 lt_pool_capacity(const struct lt_pool *pool);
size_t lt_pool_bytes_per_slot(const struct lt_pool *pool);

/*
 * The fast path of lt_pool_get() is inline: it runs on every event_in.
 * Helpers shared with pool.c's slow paths come first.
 */

/* The segment of index @idx (see "Layout"); @idx < LT_POOL_MAX_INDEX. */
static inline u32 lt_pool_seg_of(const struct lt_pool *pool, u32 idx)
{
	if (likely(idx < pool->nr0))
		return 0;
	return (u32)fls(((idx - pool->nr0) >> pool->unit_shift) + 1);
}

/*
 * The slot of @idx, an index the caller owns or took from a cache or from
 * the shared stack through an acquire (see "Growth"): its entry is seen.
 */
static inline void *lt_pool_slot(const struct lt_pool *pool, u32 idx)
{
	const struct lt_pool_seg *s = &pool->seg[lt_pool_seg_of(pool, idx)];

	return s->slots + (size_t)(idx - s->first) * pool->stride;
}

/* Number of slots in a cache, from its state word. */
static inline u32 lt_pool_state_nr(u64 state)
{
	return (u32)(state & LT_POOL_NR_MASK);
}

/* @state with the next generation and the count @nr, not busy. */
static inline s64 lt_pool_state_next(u64 state, u32 nr)
{
	return (s64)(((state & LT_POOL_GEN_MASK) + LT_POOL_GEN_ONE) | nr);
}

static inline u32 lt_pool_cache_idx(struct lt_pool_cache *c, u32 i)
{
	return (u32)atomic_read(&c->idx[i]);
}

/*
 * Pop the top entry of @c by a cmpxchg of its state word, retried while
 * it holds slots.  For the owner's fast path (preemption off) and for
 * stealers (under @c->lock): both may race with the other, and the owner
 * with interrupts on its CPU.  The state word is read afresh (with
 * acquire) at each round, the entry after it.  Returns the index, or
 * LT_POOL_NIL with the last state read in *@last.
 */
static inline u32 lt_pool_cache_take(struct lt_pool_cache *c, u64 *last)
{
	u64 state;
	u32 nr, idx;

	for (;;) {
		state = (u64)atomic64_read_acquire(&c->state);
		nr = lt_pool_state_nr(state);
		if (!nr)
			break;
		idx = lt_pool_cache_idx(c, nr - 1);
		if ((u64)atomic64_cmpxchg(&c->state, (s64)state,
					  lt_pool_state_next(state, nr - 1)) ==
		    state)
			return idx;
	}
	*last = state;
	return LT_POOL_NIL;
}

/**
 * __lt_pool_get() - take a free slot, preemption already disabled.
 * @pool: the pool.
 *
 * The top of this CPU's cache (one cmpxchg; an empty or busy cache reads
 * as empty: busy is never seen here, since the owner's slow paths run
 * with interrupts off), else lt_pool_get_slow().  Never allocates, sleeps
 * or prints.  The slot keeps whatever its previous user left in it (all
 * zero the first time).
 *
 * Context: Any context except NMI (see the table above), with preemption
 * disabled (the probe path's rcu_read_lock_sched() section).
 * Return: a slot, or NULL when no slot is free anywhere in the pool.
 */
static inline void *__lt_pool_get(struct lt_pool *pool)
{
	u64 last;
	u32 idx;

	idx = lt_pool_cache_take(this_cpu_ptr(pool->cache), &last);
	if (likely(idx != LT_POOL_NIL))
		return lt_pool_slot(pool, idx);
	return lt_pool_get_slow(pool);
}

/**
 * lt_pool_get() - take a free slot.
 * @pool: the pool.
 *
 * __lt_pool_get() for callers that may be preemptible.
 *
 * Context: Any context except NMI (see the table above).
 * Return: a slot, or NULL when no slot is free anywhere in the pool.
 */
static inline void *lt_pool_get(struct lt_pool *pool)
{
	void *slot;

	preempt_disable_notrace();
	slot = __lt_pool_get(pool);
	preempt_enable_notrace();
	return slot;
}

#endif /* _LT_POOL_H */
