// SPDX-License-Identifier: GPL-2.0-only
/*
 * pool.c - preallocated event slots: per-CPU caches over a lock-free stack.
 *
 * The design, the exhaustion and ABA arguments and the synchronisation
 * table are in pool.h.
 */
#include "lt_env.h"
#include "pool.h"

/* Largest pool: kvmalloc() refuses more than INT_MAX bytes. */
#define LT_POOL_MAX_BYTES	((size_t)INT_MAX)
/* lt_pool_steal(): slots moved during the scan, try again. */
#define LT_POOL_RETRY		(U32_MAX - 1)
#define LT_POOL_TAG_SHIFT	32
/* lt_pool_index(): offsets are below 2^LT_POOL_OFF_BITS (INT_MAX bytes). */
#define LT_POOL_OFF_BITS	31

static inline s64 lt_pool_pack(u32 idx, u32 tag)
{
	return (s64)(((u64)tag << LT_POOL_TAG_SHIFT) | idx);
}

static inline u32 lt_pool_head_idx(s64 head)
{
	return (u32)(u64)head;
}

static inline u32 lt_pool_head_tag(s64 head)
{
	return (u32)((u64)head >> LT_POOL_TAG_SHIFT);
}

/*
 * Index of a slot: its offset divided by the stride, as a multiply and a
 * shift (a division is slow, and this runs for every slot given back).
 * With l = ceil(log2(stride)), s = LT_POOL_OFF_BITS + l and
 * m = ceil(2^s / stride) (lt_pool_init()): m * stride = 2^s + e with
 * 0 <= e < stride, so off * m / 2^s = off / stride + off * e / (stride *
 * 2^s), where off * e < 2^31 * 2^l = 2^s: the excess is below
 * 1 / stride and the floor is exact for every off < 2^31.  m <= 2^32, so
 * off * m < 2^63.
 */
static inline u32 lt_pool_index(const struct lt_pool *pool, const void *slot)
{
	u64 off = (u64)((const char *)slot - (const char *)pool->slots);

	return (u32)((off * pool->recip) >> pool->recip_shift);
}

static inline u64 lt_pool_state(struct lt_pool_cache *c)
{
	return (u64)atomic64_read(&c->state);
}

static inline u32 lt_pool_cache_nr(struct lt_pool_cache *c)
{
	return lt_pool_state_nr(lt_pool_state(c));
}

/*
 * Set the count of @c (and its busy mark: slots on their way into it) and
 * bump its generation.  Only for the owner's slow paths: on @c's CPU with
 * interrupts off (no fast path can run) and @c->lock held (no stealer),
 * so nothing else changes @c meanwhile (see "Who writes a cache").
 */
static inline void lt_pool_cache_set(struct lt_pool_cache *c, u32 nr,
				     u64 busy)
{
	atomic64_set(&c->state,
		     lt_pool_state_next(lt_pool_state(c), nr) | (s64)busy);
}

static inline void lt_pool_cache_set_nr(struct lt_pool_cache *c, u32 nr)
{
	lt_pool_cache_set(c, nr, 0);
}

static inline void lt_pool_cache_store(struct lt_pool_cache *c, u32 i,
				       u32 idx)
{
	atomic_set(&c->idx[i], (int)idx);
}

/*
 * Push the chain @first .. @last (already linked through next[], except
 * next[@last]) on the shared stack with one cmpxchg.  Called with irqs off.
 */
static void lt_pool_stack_push_chain(struct lt_pool *pool, u32 first,
				     u32 last)
{
	s64 old, seen;

	old = atomic64_read(&pool->head);
	for (;;) {
		atomic_set(&pool->next[last], (int)lt_pool_head_idx(old));
		seen = atomic64_cmpxchg(&pool->head, old,
					lt_pool_pack(first,
						     lt_pool_head_tag(old) + 1));
		if (seen == old)
			return;
		old = seen;
	}
}

/* Push @idx on the shared stack.  Called with irqs off. */
static void lt_pool_stack_push(struct lt_pool *pool, u32 idx)
{
	lt_pool_stack_push_chain(pool, idx, idx);
}

/*
 * Pop up to @max (>= 1) indices from the shared stack into @out with one
 * cmpxchg; returns how many, 0 when empty: then *empty_head is the head
 * value that was seen empty.  @out[] may be written several times (once
 * per try) and is nobody else's meanwhile.  Called with irqs off.
 *
 * Ordering.  The first load of head is an acquire.  A failed cmpxchg
 * orders nothing (Documentation/atomic_t.txt; arm64's LL/SC and POWER
 * skip their barrier on failure), so the head value it returns is only
 * used through dependencies: the next[] links are read at addresses that
 * depend on it (the pushes wrote them before their fully ordered
 * cmpxchg), and a head seen empty is followed by smp_rmb() before it is
 * returned, so that the caller's later loads (lt_pool_steal() reading the
 * caches' state words) see at least what the popper that emptied the
 * stack did before its cmpxchg (a refill marks its cache busy first).
 * The links are read between the load of head and the cmpxchg: if the
 * cmpxchg succeeds, head (tag included) did not change meanwhile, so no
 * push or pop ran and the links read were those of the stack as it was;
 * if it fails, what was read is dropped (a stale link is still <
 * nr_slots or LT_POOL_NIL, a valid array index).
 */
static u32 lt_pool_stack_pop(struct lt_pool *pool, atomic_t *out, u32 max,
			     s64 *empty_head)
{
	s64 old, seen;
	u32 idx, n;

	old = atomic64_read_acquire(&pool->head);
	for (;;) {
		idx = lt_pool_head_idx(old);
		if (idx == LT_POOL_NIL) {
			/* old may come from a failed cmpxchg: order it. */
			smp_rmb();
			*empty_head = old;
			return 0;
		}
		for (n = 0; n < max && idx != LT_POOL_NIL; n++) {
			atomic_set(&out[n], (int)idx);
			idx = (u32)atomic_read(&pool->next[idx]);
		}
		seen = atomic64_cmpxchg(&pool->head, old,
					lt_pool_pack(idx,
						     lt_pool_head_tag(old) + 1));
		if (seen == old)
			return n;
		old = seen;
	}
}

/*
 * The local cache @c is empty: pop one slot to hand out, and up to half a
 * cache worth to refill @c, all with one pop.  Called with @c->lock held,
 * irqs off.
 */
static u32 lt_pool_refill(struct lt_pool *pool, struct lt_pool_cache *c,
			  s64 *empty_head)
{
	u32 batch = pool->cache_cap / 2;
	atomic_t one;
	s64 head;
	u32 n;

	if (!batch) {
		if (!lt_pool_stack_pop(pool, &one, 1, empty_head))
			return LT_POOL_NIL;
		c->shared_delta--;
		return (u32)atomic_read(&one);
	}
	/*
	 * An empty stack leaves @c untouched (its generation too), as a
	 * failing pop would: failing gets on several CPUs must not keep
	 * each other retrying.
	 */
	head = atomic64_read_acquire(&pool->head);
	if (lt_pool_head_idx(head) == LT_POOL_NIL) {
		*empty_head = head;
		return LT_POOL_NIL;
	}
	/*
	 * Popped slots are in neither place until the final count is
	 * written: say so first (ordered before the pop by its cmpxchg).
	 * c->idx[] is empty and only ours (interrupts off, lock held: no
	 * pop on this CPU, no stealer): the pop writes the slots straight
	 * into it, and the last one is handed out.
	 */
	lt_pool_cache_set(c, 0, LT_POOL_BUSY);
	n = lt_pool_stack_pop(pool, c->idx, batch + 1, empty_head);
	lt_pool_cache_set_nr(c, n ? n - 1 : 0);
	if (!n)
		return LT_POOL_NIL;
	c->shared_delta -= n;
	return lt_pool_cache_idx(c, n - 1);
}

/*
 * Move the newest half of the full cache @c to the shared stack (one
 * chain, one cmpxchg); returns the new count.  Called with @c->lock held,
 * irqs off.
 */
static u32 lt_pool_spill(struct lt_pool *pool, struct lt_pool_cache *c,
			 u32 nr)
{
	u32 keep = nr / 2, i;

	for (i = keep; i + 1 < nr; i++)
		atomic_set(&pool->next[lt_pool_cache_idx(c, i)],
			   (int)lt_pool_cache_idx(c, i + 1));
	lt_pool_stack_push_chain(pool, lt_pool_cache_idx(c, keep),
				 lt_pool_cache_idx(c, nr - 1));
	c->shared_delta += nr - keep;
	lt_pool_cache_set_nr(c, keep);
	return keep;
}

/*
 * Everything else is empty: take one slot from any CPU's cache, or prove
 * that there was an instant with no free slot (see "Exhaustion is exact"
 * in pool.h).  Returns the index, LT_POOL_NIL, or LT_POOL_RETRY when slots
 * moved meanwhile.  Called with irqs off; @empty_head is the head value
 * that lt_pool_stack_pop() saw empty.
 */
static u32 lt_pool_steal(struct lt_pool *pool, s64 empty_head)
{
	struct lt_pool_cache *c;
	u64 state, sum = 0;
	u32 idx;
	int cpu;

	/*
	 * First collect.  A refill that popped before empty_head was read
	 * is seen busy (empty_head was read with acquire, or ordered by
	 * smp_rmb() after a failed cmpxchg); its lock is then
	 * held until the slots are in.  The state words are read with
	 * acquire so that the second collect cannot be satisfied before the
	 * first.  Under the lock, the owner's pops still run: take a slot
	 * by cmpxchg of the state word.
	 */
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(pool->cache, cpu);
		state = (u64)atomic64_read_acquire(&c->state);
		if (state & (LT_POOL_NR_MASK | LT_POOL_BUSY)) {
			raw_spin_lock(&c->lock);
			idx = lt_pool_cache_take(c, &state);
			raw_spin_unlock(&c->lock);
			if (idx != LT_POOL_NIL)
				return idx;
		}
		sum += state;
	}

	/* Second collect: did anything change since the first one? */
	if (atomic64_read(&pool->head) != empty_head)
		return LT_POOL_RETRY;
	for_each_possible_cpu(cpu)
		sum -= lt_pool_state(per_cpu_ptr(pool->cache, cpu));
	return sum ? LT_POOL_RETRY : LT_POOL_NIL;
}

/* One attempt of lt_pool_get(), with irqs off. */
static u32 lt_pool_get_once(struct lt_pool *pool)
{
	struct lt_pool_cache *c = this_cpu_ptr(pool->cache);
	s64 empty_head = 0;
	u32 idx, nr;

	raw_spin_lock(&c->lock);
	nr = lt_pool_cache_nr(c);
	if (nr) {
		/*
		 * Not empty any more: an interrupt put slots here since the
		 * fast path saw it empty (the fast path and this run with
		 * preemption off: no migration in between).
		 */
		idx = lt_pool_cache_idx(c, nr - 1);
		lt_pool_cache_set_nr(c, nr - 1);
	} else {
		idx = lt_pool_refill(pool, c, &empty_head);
	}
	raw_spin_unlock(&c->lock);
	if (idx != LT_POOL_NIL || !pool->cache_cap)
		return idx;	/* without caches, the stack was all */
	return lt_pool_steal(pool, empty_head);
}

/**
 * lt_pool_init() - allocate a pool of zeroed slots.
 * @pool: the pool to set up (its previous contents are ignored).
 * @nr_slots: number of slots, at least 1.
 * @slot_size: bytes per slot, at least 1; rounded up to a multiple of 8.
 *
 * Context: Process context; may sleep.
 * Return: 0, -EINVAL for a zero or too large size (the slot array is
 * limited to INT_MAX bytes), or -ENOMEM.
 */
int lt_pool_init(struct lt_pool *pool, u32 nr_slots, size_t slot_size)
{
	struct lt_pool_cache __percpu *cache;
	u32 i, cap, shift;
	atomic_t *next;
	size_t stride;
	void *slots;
	int cpu;

	memset(pool, 0, sizeof(*pool));
	if (!nr_slots || !slot_size || slot_size > LT_POOL_MAX_BYTES)
		return -EINVAL;
	stride = (slot_size + LT_POOL_SLOT_ALIGN - 1) &
		 ~(size_t)(LT_POOL_SLOT_ALIGN - 1);
	if (stride > LT_POOL_MAX_BYTES / nr_slots)
		return -EINVAL;

	slots = lt_zalloc(stride * nr_slots);
	if (!slots)
		goto err;
	next = lt_zalloc(sizeof(*next) * nr_slots);
	if (!next)
		goto err_slots;
	cache = alloc_percpu(struct lt_pool_cache);
	if (!cache)
		goto err_next;
	BUILD_BUG_ON(LT_POOL_CACHE_MAX > LT_POOL_NR_MASK);	/* fits in state */
	BUILD_BUG_ON(LT_POOL_MAX_BYTES >= 1ULL << LT_POOL_OFF_BITS);
	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(cache, cpu)->lock);

	/* Every slot starts on the shared stack, slot 0 on top. */
	for (i = 0; i < nr_slots - 1; i++)
		atomic_set(&next[i], (int)(i + 1));
	atomic_set(&next[nr_slots - 1], (int)LT_POOL_NIL);
	atomic64_set(&pool->head, lt_pool_pack(0, 0));

	cap = nr_slots / (LT_POOL_CACHE_SHARE * nr_cpu_ids);
	pool->cache_cap = min_t(u32, cap, LT_POOL_CACHE_MAX);
	pool->next = next;
	pool->slots = slots;
	pool->cache = cache;
	pool->stride = stride;
	/* See lt_pool_index(); stride <= INT_MAX, so shift <= 62. */
	shift = LT_POOL_OFF_BITS + fls64(stride - 1);
	pool->recip = div64_u64((1ULL << shift) + stride - 1, stride);
	pool->recip_shift = shift;
	pool->nr_slots = nr_slots;
	return 0;

err_next:
	lt_free(next);
err_slots:
	lt_free(slots);
err:
	return -ENOMEM;
}

/**
 * lt_pool_destroy() - free the memory of a pool.
 * @pool: a pool set up by lt_pool_init() (or zeroed by a failed one).
 *
 * Slots still handed out become invalid.
 *
 * Context: Process context; no other user of the pool may remain.
 */
void lt_pool_destroy(struct lt_pool *pool)
{
	free_percpu(pool->cache);
	lt_free(pool->next);
	lt_free(pool->slots);
	memset(pool, 0, sizeof(*pool));
}

/**
 * lt_pool_get_slow() - lt_pool_get() when this CPU's cache is empty.
 * @pool: the pool.
 *
 * Refills the cache from the shared stack, or steals from another CPU's
 * cache, or proves the pool empty (see "Exhaustion is exact").
 *
 * Context: Any context except NMI (see the table in pool.h).
 * Return: a slot, or NULL when no slot is free anywhere in the pool.
 */
void *lt_pool_get_slow(struct lt_pool *pool)
{
	unsigned long flags;
	u32 idx;

	do {
		local_irq_save(flags);
		idx = lt_pool_get_once(pool);
		local_irq_restore(flags);
	} while (idx == LT_POOL_RETRY);
	return idx == LT_POOL_NIL ? NULL : lt_pool_slot(pool, idx);
}

/**
 * lt_pool_put() - give a slot back.
 * @pool: the pool @slot was taken from.
 * @slot: a slot returned by lt_pool_get() on any CPU, not yet put.
 *
 * Never allocates, sleeps or prints.
 *
 * Context: Any context except NMI (see the table in pool.h).
 */
void lt_pool_put(struct lt_pool *pool, void *slot)
{
	u32 idx = lt_pool_index(pool, slot);
	struct lt_pool_cache *c;
	unsigned long flags;
	u32 nr;

	local_irq_save(flags);
	c = this_cpu_ptr(pool->cache);
	raw_spin_lock(&c->lock);
	nr = lt_pool_cache_nr(c);
	if (nr >= pool->cache_cap && nr)
		nr = lt_pool_spill(pool, c, nr);
	if (nr < pool->cache_cap) {
		lt_pool_cache_store(c, nr++, idx);
		lt_pool_cache_set_nr(c, nr);
	} else {
		lt_pool_stack_push(pool, idx);
		c->shared_delta++;
	}
	raw_spin_unlock(&c->lock);
	local_irq_restore(flags);
}

/**
 * lt_pool_put_chain() - give back a list of slots.
 * @pool: the pool the slots were taken from.
 * @first: the first slot of the list (NULL: nothing to do).
 * @link_off: offset, inside each slot, of a pointer to the next slot of
 *	the list (NULL at the end).
 *
 * Fills the local cache, and pushes what does not fit on the shared stack
 * as one chain (one cmpxchg), by rounds of at most LT_POOL_CHAIN_ROUND
 * slots, so that interrupts are never off for long.  Each slot's link is
 * read before the slot is given back.  Never allocates, sleeps or prints.
 *
 * Context: Any context except NMI (see the table in pool.h).
 */
void lt_pool_put_chain(struct lt_pool *pool, void *first, size_t link_off)
{
	u32 nr, n, idx, over_first, over_last, over_n;
	struct lt_pool_cache *c;
	unsigned long flags;
	void *slot = first;

	while (slot) {
		over_first = LT_POOL_NIL;
		over_last = LT_POOL_NIL;
		over_n = 0;
		local_irq_save(flags);
		c = this_cpu_ptr(pool->cache);
		raw_spin_lock(&c->lock);
		nr = lt_pool_cache_nr(c);
		for (n = 0; slot && n < LT_POOL_CHAIN_ROUND; n++) {
			idx = lt_pool_index(pool, slot);
			slot = *(void **)((char *)slot + link_off);
			if (nr < pool->cache_cap) {
				lt_pool_cache_store(c, nr++, idx);
				continue;
			}
			if (over_n++)
				atomic_set(&pool->next[over_last], (int)idx);
			else
				over_first = idx;
			over_last = idx;
		}
		if (over_n) {
			lt_pool_stack_push_chain(pool, over_first, over_last);
			c->shared_delta += over_n;
		}
		lt_pool_cache_set_nr(c, nr);
		raw_spin_unlock(&c->lock);
		local_irq_restore(flags);
	}
}

/**
 * lt_pool_nr_free() - count the free slots.
 * @pool: the pool.
 *
 * Context: Any context except NMI.  Exact when no get or put runs
 * concurrently; otherwise an approximation (each CPU is counted under its
 * lock, not all at the same instant).
 * Return: the number of free slots.
 */
u32 lt_pool_nr_free(struct lt_pool *pool)
{
	s64 total = pool->nr_slots;	/* the shared stack at init */
	struct lt_pool_cache *c;
	unsigned long flags;
	int cpu;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(pool->cache, cpu);
		raw_spin_lock_irqsave(&c->lock, flags);
		total += lt_pool_cache_nr(c) + c->shared_delta;
		raw_spin_unlock_irqrestore(&c->lock, flags);
	}
	if (total < 0)
		return 0;
	if (total > pool->nr_slots)
		return pool->nr_slots;
	return (u32)total;
}

/**
 * lt_pool_bytes_per_slot() - memory cost of one slot.
 * @pool: the pool.
 *
 * The slot size as rounded up plus the per-slot bookkeeping (the stack
 * link).  The per-CPU caches are a fixed cost per pool, not per slot.
 *
 * Context: Any context.
 * Return: bytes per slot.
 */
size_t lt_pool_bytes_per_slot(const struct lt_pool *pool)
{
	return pool->stride + sizeof(*pool->next);
}
