// SPDX-License-Identifier: GPL-2.0-only
/*
 * pool.c - preallocated event slots: per-CPU caches over a lock-free stack.
 *
 * The design, the exhaustion and ABA arguments and the synchronisation
 * table are in pool.h.
 */
#include "lt_env.h"
#include "pool.h"

/* Largest segment: kvmalloc() refuses more than INT_MAX bytes. */
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

/**
 * lt_pool_index() - the index of a slot.
 * @pool: the pool.
 * @slot: a slot of @pool (handed out by a get, or owned by the caller).
 *
 * The segment is found by the slot's address, newest (largest) first;
 * then the offset in it is divided by the stride, as a multiply and a
 * shift (a division is slow, and this runs for every slot given back).
 * With l = ceil(log2(stride)), s = LT_POOL_OFF_BITS + l and
 * m = ceil(2^s / stride) (lt_pool_init()): m * stride = 2^s + e with
 * 0 <= e < stride, so off * m / 2^s = off / stride + off * e / (stride *
 * 2^s), where off * e < 2^31 * 2^l = 2^s: the excess is below
 * 1 / stride and the floor is exact for every off < 2^31, and a segment
 * is at most LT_POOL_MAX_BYTES.  m <= 2^32, so off * m < 2^63.
 *
 * Context: any context.  Never sleeps.
 * Return: the index, or LT_POOL_NIL when @slot is no slot of @pool.
 */
u32 lt_pool_index(const struct lt_pool *pool, const void *slot)
{
	/* Pairs with lt_pool_grow(): the entries below nr_segs are seen. */
	u32 k = smp_load_acquire(&pool->nr_segs);
	const struct lt_pool_seg *seg;
	u64 off;

	while (k--) {
		seg = &pool->seg[k];
		off = (u64)((unsigned long)slot - (unsigned long)seg->slots);
		if (off < seg->bytes)
			return seg->first +
			       (u32)((off * pool->recip) >> pool->recip_shift);
	}
	return LT_POOL_NIL;
}

/* The link of @idx, an index the caller owns or got from head or a link. */
static inline atomic_t *lt_pool_link(const struct lt_pool *pool, u32 idx)
{
	const struct lt_pool_seg *s = &pool->seg[lt_pool_seg_of(pool, idx)];

	return &s->next[idx - s->first];
}

/*
 * The link of @idx, an index read by a pop that may be stale (see
 * "Growth" in pool.h), or NULL when this CPU does not see its segment's
 * entry yet: the pop then starts again.
 */
static inline atomic_t *lt_pool_link_racy(const struct lt_pool *pool,
					  u32 idx)
{
	u32 k = lt_pool_seg_of(pool, idx);
	const struct lt_pool_seg *s;
	atomic_t *next;

	if (k >= LT_POOL_MAX_SEGS)
		return NULL;
	s = &pool->seg[k];
	/* Pairs with lt_pool_grow(): the entry is seen whole. */
	next = smp_load_acquire(&s->next);
	return next ? &next[idx - s->first] : NULL;
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
 * Push the chain @first .. @last of @n slots (already linked through
 * next[], except next[@last]) on the shared stack with one cmpxchg.
 * Called with irqs off, or by lt_pool_grow().
 */
static void lt_pool_stack_push_chain(struct lt_pool *pool, u32 first,
				     u32 last, u32 n)
{
	atomic_t *link = lt_pool_link(pool, last);
	s64 old, seen;

	old = atomic64_read(&pool->head);
	for (;;) {
		atomic_set(link, (int)lt_pool_head_idx(old));
		seen = atomic64_cmpxchg(&pool->head, old,
					lt_pool_pack(first,
						     lt_pool_head_tag(old) + 1));
		if (seen == old)
			break;
		old = seen;
	}
	atomic_add((int)n, &pool->stack_nr);
}

/* Push @idx on the shared stack.  Called with irqs off. */
static void lt_pool_stack_push(struct lt_pool *pool, u32 idx)
{
	lt_pool_stack_push_chain(pool, idx, idx, 1);
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
 * if it fails, what was read is dropped (a stale link names a slot of a
 * published segment, or LT_POOL_NIL).  A link whose segment entry this
 * CPU does not see yet can only be stale (see "Growth" in pool.h): the
 * try is dropped and head read again, with acquire.
 */
static u32 lt_pool_stack_pop(struct lt_pool *pool, atomic_t *out, u32 max,
			     s64 *empty_head)
{
	atomic_t *link = NULL;
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
			link = lt_pool_link_racy(pool, idx);
			if (!link)
				break;
			idx = (u32)atomic_read(link);
		}
		if (unlikely(!link)) {
			old = atomic64_read_acquire(&pool->head);
			continue;
		}
		seen = atomic64_cmpxchg(&pool->head, old,
					lt_pool_pack(idx,
						     lt_pool_head_tag(old) + 1));
		if (seen == old) {
			atomic_sub((int)n, &pool->stack_nr);
			return n;
		}
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
		atomic_set(lt_pool_link(pool, lt_pool_cache_idx(c, i)),
			   (int)lt_pool_cache_idx(c, i + 1));
	lt_pool_stack_push_chain(pool, lt_pool_cache_idx(c, keep),
				 lt_pool_cache_idx(c, nr - 1), nr - keep);
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

/*
 * After a pop from the shared stack (irqs off): below the watermark and
 * the ceiling, call the owner's hook, once until lt_pool_rearm() (see
 * "Growth" in pool.h).
 */
static void lt_pool_check_low(struct lt_pool *pool)
{
	if (atomic_read(&pool->stack_nr) >= atomic_read(&pool->low_mark) ||
	    atomic_read(&pool->nr_slots) >= atomic_read(&pool->max_slots) ||
	    !pool->on_low)
		return;
	/*
	 * The pop's count before the look at kicked: pairs with the barrier
	 * in lt_pool_rearm() (one of the two sees the other's write).
	 */
	smp_mb();
	if (atomic_read(&pool->kicked) || atomic_xchg(&pool->kicked, 1))
		return;
	pool->on_low(pool);
}

/* One attempt of lt_pool_get(), with irqs off. */
static u32 lt_pool_get_once(struct lt_pool *pool)
{
	struct lt_pool_cache *c = this_cpu_ptr(pool->cache);
	bool refilled = false;
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
		refilled = true;
	}
	raw_spin_unlock(&c->lock);
	if (refilled)
		lt_pool_check_low(pool);
	if (idx != LT_POOL_NIL || !pool->cache_cap)
		return idx;	/* without caches, the stack was all */
	return lt_pool_steal(pool, empty_head);
}

/*
 * Allocate segment @k of @nr slots from index @first, zeroed (quietly
 * allowed to fail for k >= 1, a growth), its slots
 * linked into one chain (the link of its last slot is set by the push),
 * and fill in its entry but for next, which the caller publishes.
 */
static atomic_t *lt_pool_seg_alloc(struct lt_pool *pool, u32 k, u32 first,
				   u32 nr)
{
	size_t size = nr * (pool->stride + sizeof(atomic_t));
	struct lt_pool_seg *seg = &pool->seg[k];
	atomic_t *next;
	char *mem;
	u32 i;

	/* A growth that fails leaves the pool as it was: no warning. */
	mem = k ? lt_zalloc_mayfail(size) : lt_zalloc(size);
	if (!mem)
		return NULL;
	next = (atomic_t *)(mem + nr * pool->stride);
	for (i = 0; i + 1 < nr; i++) {
		atomic_set(&next[i], (int)(first + i + 1));
		if (k && !(i & 0xffff))
			cond_resched();
	}
	seg->slots = mem;
	seg->first = first;
	seg->nr = nr;
	seg->bytes = nr * pool->stride;
	return next;
}

/* Most slots a segment of this pool may hold (LT_POOL_MAX_BYTES). */
static u32 lt_pool_seg_max(const struct lt_pool *pool)
{
	return (u32)min_t(size_t, LT_POOL_MAX_INDEX,
			  LT_POOL_MAX_BYTES / (pool->stride + sizeof(atomic_t)));
}

/**
 * lt_pool_init() - allocate a pool of zeroed slots that may grow.
 * @pool: the pool to set up (its previous contents are ignored).
 * @nr_slots: number of slots allocated now, at least 1.
 * @max_slots: the most slots lt_pool_grow() may bring it to; at least
 *	@nr_slots, at most LT_POOL_MAX_INDEX.
 * @slot_size: bytes per slot, at least 1; rounded up to a multiple of 8.
 *
 * The pool is not shared yet: the caller publishes it.  Set @pool->on_low
 * before it is, to be told when it runs low (see "Growth" in pool.h).
 *
 * Context: Process context; may sleep.
 * Return: 0, -EINVAL for a zero or too large size (each segment, slots
 * and links, is limited to INT_MAX bytes), or -ENOMEM.
 */
int lt_pool_init(struct lt_pool *pool, u32 nr_slots, u32 max_slots,
		 size_t slot_size)
{
	struct lt_pool_cache __percpu *cache;
	atomic_t *next;
	u32 cap, shift;
	size_t stride;
	int cpu;

	memset(pool, 0, sizeof(*pool));
	if (!nr_slots || max_slots < nr_slots ||
	    max_slots > LT_POOL_MAX_INDEX || !slot_size ||
	    slot_size > LT_POOL_MAX_BYTES)
		return -EINVAL;
	stride = (slot_size + LT_POOL_SLOT_ALIGN - 1) &
		 ~(size_t)(LT_POOL_SLOT_ALIGN - 1);
	if (stride + sizeof(*next) > LT_POOL_MAX_BYTES / nr_slots)
		return -EINVAL;
	pool->stride = stride;

	cache = alloc_percpu(struct lt_pool_cache);
	if (!cache)
		return -ENOMEM;
	next = lt_pool_seg_alloc(pool, 0, 0, nr_slots);
	if (!next) {
		free_percpu(cache);
		pool->stride = 0;
		return -ENOMEM;
	}
	BUILD_BUG_ON(LT_POOL_CACHE_MAX > LT_POOL_NR_MASK);	/* fits in state */
	BUILD_BUG_ON(LT_POOL_MAX_BYTES >= 1ULL << LT_POOL_OFF_BITS);
	BUILD_BUG_ON(LT_POOL_MAX_INDEX >= LT_POOL_NIL);
	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(cache, cpu)->lock);

	/* Every slot starts on the shared stack, slot 0 on top. */
	atomic_set(&next[nr_slots - 1], (int)LT_POOL_NIL);
	pool->seg[0].next = next;
	pool->nr_segs = 1;
	atomic64_set(&pool->head, lt_pool_pack(0, 0));
	atomic_set(&pool->stack_nr, (int)nr_slots);

	cap = nr_slots / (LT_POOL_CACHE_SHARE * nr_cpu_ids);
	pool->cache_cap = min_t(u32, cap, LT_POOL_CACHE_MAX);
	pool->cache = cache;
	/* See lt_pool_index(); stride <= INT_MAX, so shift <= 62. */
	shift = LT_POOL_OFF_BITS + fls64(stride - 1);
	pool->recip = div64_u64((1ULL << shift) + stride - 1, stride);
	pool->recip_shift = shift;
	pool->nr0 = nr_slots;
	pool->unit_shift = (u32)ilog2(roundup_pow_of_two(nr_slots));
	atomic_set(&pool->nr_slots, (int)nr_slots);
	atomic_set(&pool->max_slots, (int)max_slots);
	atomic_set(&pool->low_mark, (int)DIV_ROUND_UP(nr_slots, 2));
	return 0;
}

/**
 * lt_pool_grow() - add the next segment of slots to a pool.
 * @pool: the pool, in use or not.
 *
 * Allocates segment nr_segs (as many slots as the pool had before it, at
 * least, up to the ceiling), publishes its entry and pushes all its slots
 * on the shared stack (see "Growth" in pool.h).  Concurrent gets and puts
 * go on meanwhile.
 *
 * Context: Process context; may sleep.  The caller serialises
 * lt_pool_grow() calls, and never runs one concurrently with
 * lt_pool_destroy().
 * Return: 0, -ENOSPC when the pool is at its ceiling (or at the largest
 * segment or index it can have: the ceiling is then lowered to its
 * size), or -ENOMEM.
 */
int lt_pool_grow(struct lt_pool *pool)
{
	u32 k = pool->nr_segs, nr, cap = (u32)atomic_read(&pool->nr_slots);
	atomic_t *next;
	u64 first, size;

	if (cap >= (u32)atomic_read(&pool->max_slots))
		return -ENOSPC;
	size = 1ULL << (pool->unit_shift + k - 1);
	first = pool->nr0 + (1ULL << pool->unit_shift) * ((1ULL << (k - 1)) - 1);
	nr = (u32)min_t(u64, size, (u32)atomic_read(&pool->max_slots) - cap);
	nr = min_t(u32, nr, lt_pool_seg_max(pool));
	if (k >= LT_POOL_MAX_SEGS || first + size > LT_POOL_MAX_INDEX || !nr) {
		/* As large as it can be: the ceiling comes down to it. */
		atomic_set(&pool->max_slots, (int)cap);
		return -ENOSPC;
	}
	next = lt_pool_seg_alloc(pool, k, (u32)first, nr);
	if (!next)
		return -ENOMEM;
	/* The entry's fields before its next (lt_pool_link_racy()). */
	smp_store_release(&pool->seg[k].next, next);
	/* The entry before the count of entries (lt_pool_index()). */
	smp_store_release(&pool->nr_segs, k + 1);
	/* The slots are free once pushed: a fully ordered cmpxchg. */
	lt_pool_stack_push_chain(pool, (u32)first, (u32)first + nr - 1, nr);
	atomic_set(&pool->nr_slots, (int)(cap + nr));
	atomic_set(&pool->low_mark, (int)DIV_ROUND_UP(cap + nr, 2));
	return 0;
}

/**
 * lt_pool_low() - whether the pool should grow.
 * @pool: the pool.
 *
 * Context: Any context except NMI.
 * Return: true when the shared stack is below the watermark (see
 * "Growth" in pool.h) and the pool below its ceiling.
 */
bool lt_pool_low(struct lt_pool *pool)
{
	return atomic_read(&pool->stack_nr) < atomic_read(&pool->low_mark) &&
	       atomic_read(&pool->nr_slots) < atomic_read(&pool->max_slots);
}

/**
 * lt_pool_rearm() - let the watermark call on_low() again.
 * @pool: the pool.
 *
 * For the owner, once it has grown the pool (or found it need not): the
 * next get that finds the pool low calls on_low() again.  A get that found
 * it low before the rearm did not call it; so when the pool is still low
 * after it, this takes the call over: it marks the pool kicked again and
 * returns true, and the caller grows again (or retries later).
 *
 * Context: Any context except NMI.
 * Return: true when the caller must grow the pool again.
 */
bool lt_pool_rearm(struct lt_pool *pool)
{
	atomic_set(&pool->kicked, 0);
	/* The clear before the look: pairs with lt_pool_check_low(). */
	smp_mb();
	return lt_pool_low(pool) && !atomic_xchg(&pool->kicked, 1);
}

/**
 * lt_pool_destroy() - free the memory of a pool.
 * @pool: a pool set up by lt_pool_init() (or zeroed by a failed one).
 *
 * Slots still handed out become invalid.
 *
 * Context: Process context; no other user of the pool may remain, and no
 * lt_pool_grow() may run.
 */
void lt_pool_destroy(struct lt_pool *pool)
{
	u32 k;

	free_percpu(pool->cache);
	for (k = 0; k < pool->nr_segs; k++)
		lt_free(pool->seg[k].slots);
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
 * @slot: a slot returned by lt_pool_get() on any CPU, not yet put; the
 *	get must happen before this call (see "Growth" in pool.h).
 *
 * Never allocates or sleeps; prints nothing but one warning, once, for a
 * slot that is not the pool's (the caller's bug: it is then ignored).
 *
 * Context: Any context except NMI (see the table in pool.h).
 */
void lt_pool_put(struct lt_pool *pool, void *slot)
{
	u32 idx = lt_pool_index(pool, slot);
	struct lt_pool_cache *c;
	unsigned long flags;
	u32 nr;

	if (WARN_ON_ONCE(idx == LT_POOL_NIL))
		return;
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
 * read before the slot is given back.  Never allocates or sleeps; prints
 * only as lt_pool_put() does, for a slot that is not the pool's.
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
			if (WARN_ON_ONCE(idx == LT_POOL_NIL))
				continue;
			if (nr < pool->cache_cap) {
				lt_pool_cache_store(c, nr++, idx);
				continue;
			}
			if (over_n++)
				atomic_set(lt_pool_link(pool, over_last),
					   (int)idx);
			else
				over_first = idx;
			over_last = idx;
		}
		if (over_n)
			lt_pool_stack_push_chain(pool, over_first, over_last,
						 over_n);
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
	s64 total = atomic_read(&pool->stack_nr);
	u32 cap = (u32)atomic_read(&pool->nr_slots);
	struct lt_pool_cache *c;
	unsigned long flags;
	int cpu;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(pool->cache, cpu);
		raw_spin_lock_irqsave(&c->lock, flags);
		total += lt_pool_cache_nr(c);
		raw_spin_unlock_irqrestore(&c->lock, flags);
	}
	if (total < 0)
		return 0;
	if (total > cap)
		return cap;
	return (u32)total;
}

/**
 * lt_pool_capacity() - the slots a pool has now.
 * @pool: the pool.
 *
 * Context: Any context.
 * Return: the number of slots allocated (free or not).
 */
u32 lt_pool_capacity(const struct lt_pool *pool)
{
	return (u32)atomic_read(&pool->nr_slots);
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
	return pool->stride + sizeof(atomic_t);
}
