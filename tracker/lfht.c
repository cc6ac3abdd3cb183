// SPDX-License-Identifier: GPL-2.0-only
/*
 * lfht.c - lock-free, RCU-protected split-ordered hash table.
 *
 * The design, the flag bits, the memory-ordering and progress guarantees
 * and the caller contract are written down at the top of lfht.h; the
 * probe-path operations themselves are in lfht_ops.h.  This file
 * is built into latency_tracker.ko and, unchanged, into the host unit tests
 * and benchmarks (tests/unit, tests/bench) on top of liburcu.
 */
#include "lfht_ops.h"

/* Bucket nodes inserted (or removed) per RCU read-side section in resize. */
#define LFHT_RESIZE_BATCH	256UL

static inline void lfht_publish_size(struct lt_lfht *ht, unsigned long size)
{
	/* Pairs with lfht_bucket_of(): bucket init and linking come first. */
	smp_store_release(&ht->size, size);
}

/**
 * lt_lfht_new() - allocate an empty hash table.
 * @nr_buckets: initial number of buckets, a power of two.
 * @max_buckets: upper bound for lt_lfht_resize(), a power of two
 *	>= @nr_buckets, with at most INT_MAX bytes of buckets (2^27 on 64-bit).
 *
 * The buckets of @nr_buckets are allocated at once and stay allocated until
 * lt_lfht_destroy(), so a table that is never resized never allocates
 * again.
 *
 * Context: process context, may sleep.
 * Return: the table, or NULL on bad arguments or allocation failure.
 */
struct lt_lfht *lt_lfht_new(unsigned long nr_buckets,
			    unsigned long max_buckets)
{
	struct lt_lfht_node *prev, *b;
	struct lt_lfht *ht;
	unsigned int k, o;
	unsigned long i;

	BUILD_BUG_ON(__alignof__(struct lt_lfht_node) < 4);
	if (!is_power_of_2(nr_buckets) || !is_power_of_2(max_buckets) ||
	    nr_buckets > max_buckets ||
	    max_buckets > (unsigned long)INT_MAX / LFHT_BUCKET_BYTES)
		return NULL;

	ht = lt_zalloc(sizeof(*ht));
	if (!ht)
		return NULL;
	ht->flat = lt_zalloc(nr_buckets * LFHT_BUCKET_BYTES);
	if (!ht->flat) {
		lt_free(ht);
		return NULL;
	}
	ht->flat_nr = nr_buckets;
	ht->flat_bytes = nr_buckets * LFHT_BUCKET_BYTES;
	ht->max_buckets = max_buckets;
	k = fls_long(nr_buckets) - 1;
	ht->order[0] = ht->flat;
	for (o = 1; o <= k; o++)
		ht->order[o] = ht->flat + (1UL << (o - 1)) * LFHT_BUCKET_BYTES;

	/*
	 * Nobody sees the table yet: chain the buckets directly.  List
	 * position j holds the bucket whose k-bit index is j reversed.
	 */
	prev = lfht_bucket(ht, 0);
	for (i = 1; i < nr_buckets; i++) {
		b = lfht_bucket(ht, lfht_bitrev(i) >> (LFHT_LONG_BITS - k));
		prev->next = lfht_mark(b, LFHT_BUCKET);
		prev = b;
	}
	prev->next = lfht_mark(NULL, LFHT_BUCKET);
	ht->size = nr_buckets;
	return ht;
}

/**
 * lt_lfht_destroy() - free an empty hash table.
 * @ht: the table; no operation may run on it any more, and a grace period
 *	must have elapsed since the last one.
 *
 * Context: process context, may sleep.
 * Return: 0 when freed, -EBUSY (table untouched) when it still holds
 * nodes.
 */
int lt_lfht_destroy(struct lt_lfht *ht)
{
	struct lt_lfht_node *p, *next;
	unsigned int o;

	for (p = lfht_bucket(ht, 0); p; p = lfht_strip(next)) {
		next = lfht_load(p->next);
		if (!lfht_is_bucket(next))
			return -EBUSY;
	}
	for (o = 0; o < ht->nr_chunks; o++)
		lt_free(ht->chunk[o].base);
	lt_free(ht->flat);
	lt_free(ht);
	return 0;
}

/**
 * lt_lfht_lookup() - find the first live node matching a key.
 * @ht: the table.
 * @hash: hash of @key.
 * @match: key comparison.
 * @key: key passed to @match.
 * @iter: result; lt_lfht_iter_get_node() gives the node or NULL.
 *
 * Wait-free.  Continue with lt_lfht_next_duplicate() for duplicates.
 *
 * Context: under rcu_read_lock(); any context.
 */
void lt_lfht_lookup(struct lt_lfht *ht, unsigned long hash,
		    lt_lfht_match_fn match, const void *key,
		    struct lt_lfht_iter *iter)
{
	lfht_lookup_op(ht, hash, match, key, iter);
}

/**
 * lt_lfht_next_duplicate() - next live node after @iter matching a key.
 * @ht: the table.
 * @match: key comparison.
 * @key: the key @iter's node matched.
 * @iter: position from lt_lfht_lookup() or a previous call; updated.
 *
 * Wait-free.
 *
 * Context: under the rcu_read_lock() section that filled @iter.
 */
void lt_lfht_next_duplicate(struct lt_lfht *ht, lt_lfht_match_fn match,
			    const void *key, struct lt_lfht_iter *iter)
{
	lfht_next_duplicate_op(ht, match, key, iter);
}

/* Position @iter on the first live regular node from raw ->next @cur on. */
static inline void lfht_next_live(struct lt_lfht_node *cur,
				  struct lt_lfht_iter *iter)
{
	struct lt_lfht_node *node, *next;

	for (node = lfht_strip(cur); node; node = lfht_strip(next)) {
		next = lfht_load(node->next);
		if (!lfht_flags(next)) {
			iter->node = node;
			iter->next = next;
			iter->prev = NULL;	/* lt_lfht_del_found() walks */
			return;
		}
	}
	iter->node = NULL;
	iter->next = NULL;
}

/**
 * lt_lfht_first() - start a traversal of every live node.
 * @ht: the table.
 * @iter: result; lt_lfht_iter_get_node() gives the node or NULL.
 *
 * Order: ascending bit-reversed hash.  Nodes added or deleted during the
 * traversal may or may not be seen; a node live for the whole traversal
 * is seen exactly once.  Wait-free.
 *
 * Context: under rcu_read_lock(); any context.
 */
void lt_lfht_first(struct lt_lfht *ht, struct lt_lfht_iter *iter)
{
	lfht_assert_reader();
	lfht_next_live(lfht_load(lfht_bucket(ht, 0)->next), iter);
}

/**
 * lt_lfht_next() - advance a traversal to the next live node.
 * @ht: the table.
 * @iter: position from lt_lfht_first(), lt_lfht_lookup() or a previous
 *	call; updated.
 *
 * Wait-free.
 *
 * Context: under the rcu_read_lock() section that filled @iter.
 */
void lt_lfht_next(struct lt_lfht *ht, struct lt_lfht_iter *iter)
{
	(void)ht;
	lfht_assert_reader();
	if (!iter->node) {
		iter->next = NULL;
		return;
	}
	lfht_next_live(iter->next, iter);
}

/**
 * lt_lfht_add() - add a node; duplicate keys are allowed.
 * @ht: the table.
 * @hash: hash of the node's key.
 * @node: node to add, not in any table; its enclosing object must be
 *	fully initialised (the add publishes it).
 *
 * Lock-free; never allocates.
 *
 * Context: under rcu_read_lock(); any context.
 */
void lt_lfht_add(struct lt_lfht *ht, unsigned long hash,
		 struct lt_lfht_node *node)
{
	lfht_add_dup_op(ht, hash, node);
}

/**
 * lt_lfht_add_unique() - add a node unless its key is already present.
 * @ht: the table.
 * @hash: hash of @key.
 * @match: key comparison.
 * @key: the node's key.
 * @node: node to add, not in any table, fully initialised.
 *
 * Among concurrent add_unique/add_replace callers, at most one node per
 * key is ever live.  Lock-free; never allocates.
 *
 * Context: under rcu_read_lock(); any context.
 * Return: @node if it was added; otherwise the live node holding @key
 * (@node was not added and is still the caller's).
 */
struct lt_lfht_node *lt_lfht_add_unique(struct lt_lfht *ht,
					unsigned long hash,
					lt_lfht_match_fn match,
					const void *key,
					struct lt_lfht_node *node)
{
	lfht_assert_reader();
	node->reverse_hash = lfht_bitrev(hash);
	return lfht_add(ht, lfht_bucket_of(ht, hash), node, hash, 0,
			LFHT_ADD_UNIQUE, match, key);
}

/**
 * lt_lfht_add_replace() - add a node, atomically replacing a live node
 * with the same key.
 * @ht: the table.
 * @hash: hash of @key.
 * @match: key comparison.
 * @key: the node's key.
 * @node: node to add, not in any table, fully initialised.
 *
 * There is no instant at which both nodes, or neither, are visible.
 * Lock-free; never allocates.
 *
 * Context: under rcu_read_lock(); any context.
 * Return: the replaced node, deleted and unlinked (free it after a grace
 * period; a concurrent lt_lfht_del() of it returns -ENOENT), or NULL when
 * no live node matched and @node was added as a new key.
 */
struct lt_lfht_node *lt_lfht_add_replace(struct lt_lfht *ht,
					 unsigned long hash,
					 lt_lfht_match_fn match,
					 const void *key,
					 struct lt_lfht_node *node)
{
	return lfht_add_replace_op(ht, hash, match, key, node);
}

/**
 * lt_lfht_del() - delete a node.
 * @ht: the table.
 * @node: a node that was added to @ht.
 *
 * On success the node is unreachable from the table when this returns;
 * readers that found it before may still use it until they leave their
 * RCU read-side critical section, so free or reuse it only after a grace
 * period.  Lock-free; never allocates.
 *
 * Context: under rcu_read_lock(); any context.
 * Return: 0 if this call deleted the node; -ENOENT if it was already
 * deleted (by lt_lfht_del() or lt_lfht_add_replace()).  Of concurrent
 * callers on one node, exactly one gets 0.
 */
int lt_lfht_del(struct lt_lfht *ht, struct lt_lfht_node *node)
{
	return lfht_del_op(ht, node);
}

/**
 * lt_lfht_del_found() - delete the node a lookup just found.
 * @ht: the table.
 * @iter: filled by lt_lfht_lookup() or lt_lfht_next_duplicate() in the
 *	current read-side critical section, on a node (not at the end).
 *
 * Same result as lt_lfht_del(ht, lt_lfht_iter_get_node(iter)), usually
 * without walking the bucket again: the node is unlinked from the
 * predecessor the lookup went through when that one did not change.
 *
 * Context: under the rcu_read_lock() section that filled @iter.
 * Return: as lt_lfht_del().
 */
int lt_lfht_del_found(struct lt_lfht *ht, struct lt_lfht_iter *iter)
{
	return lfht_del_found_op(ht, iter);
}

/**
 * lt_lfht_is_node_deleted() - whether a node was deleted.
 * @node: a node that was added to a table.
 *
 * Context: under rcu_read_lock(), or on a node the caller owns.
 * Return: true once lt_lfht_del() or lt_lfht_add_replace() deleted @node.
 */
bool lt_lfht_is_node_deleted(const struct lt_lfht_node *node)
{
	/* Pairs with the cmpxchg setting REMOVED in del/add_replace. */
	return lfht_is_removed(smp_load_acquire(&node->next));
}

/**
 * lt_lfht_nr_buckets() - current number of buckets.
 * @ht: the table.
 *
 * Context: any context.
 * Return: the bucket count in use (a power of two).
 */
unsigned long lt_lfht_nr_buckets(struct lt_lfht *ht)
{
	/* Pairs with lfht_publish_size(). */
	return smp_load_acquire(&ht->size);
}

/*
 * lfht_alloc_orders() - make sure the bucket arrays of orders up to @hi
 * exist: the orders not allocated yet (those above every allocated one)
 * get one chunk together, published before any of its buckets is linked
 * (see struct lt_lfht).
 */
static int lfht_alloc_orders(struct lt_lfht *ht, unsigned int hi)
{
	unsigned int lo = fls_long(ht->flat_nr), o;
	struct lt_lfht_chunk *c;
	unsigned long first;

	while (lo <= hi && ht->order[lo])
		lo++;
	if (lo > hi)
		return 0;
	if (WARN_ON_ONCE(ht->nr_chunks == LFHT_MAX_CHUNKS))
		return -ENOMEM;
	c = &ht->chunk[ht->nr_chunks];
	first = 1UL << (lo - 1);
	c->bytes = ((1UL << hi) - first) * LFHT_BUCKET_BYTES;
	c->base = lt_zalloc(c->bytes);
	if (!c->base) {
		c->bytes = 0;
		return -ENOMEM;
	}
	c->first = first;
	for (o = lo; o <= hi; o++)
		ht->order[o] = c->base +
			       ((1UL << (o - 1)) - first) * LFHT_BUCKET_BYTES;
	/* Pairs with lfht_cmp(): the entry before the count. */
	smp_store_release(&ht->nr_chunks, ht->nr_chunks + 1);
	return 0;
}

/*
 * lfht_grow() - go from @old to @new buckets, one order at a time: link the
 * order's bucket nodes (each after its parent bucket), then publish the
 * larger count.
 */
static int lfht_grow(struct lt_lfht *ht, unsigned long old, unsigned long new)
{
	unsigned int lo = fls_long(old), hi = fls_long(new) - 1, o;
	unsigned long len, i, j;
	struct lt_lfht_node *b;

	if (lfht_alloc_orders(ht, hi))
		return -ENOMEM;
	for (o = lo; o <= hi; o++) {
		len = 1UL << (o - 1);
		for (i = 0; i < len; i++) {
			b = lfht_bucket(ht, len + i);
			WRITE_ONCE(b->next, lfht_mark(NULL, LFHT_BUCKET));
		}
		for (i = 0; i < len; i = j) {
			rcu_read_lock();
			for (j = i; j < len && j < i + LFHT_RESIZE_BATCH; j++)
				lfht_add(ht, lfht_bucket(ht, j),
					 lfht_bucket(ht, len + j), len + j,
					 LFHT_BUCKET, LFHT_ADD_BUCKET, NULL,
					 NULL);
			rcu_read_unlock();
			cond_resched();
		}
		lfht_publish_size(ht, 1UL << o);
	}
	return 0;
}

/*
 * lfht_del_bucket() - delete bucket node @b, of index @idx (REMOVED, then
 * unlinked); its @parent bucket stays linked.  Only the resizer deletes buckets, so the
 * cmpxchg loop only retries when a node was inserted right after @b.
 */
static void lfht_del_bucket(const struct lt_lfht *ht,
			    struct lt_lfht_node *parent, struct lt_lfht_node *b,
			    unsigned long idx)
{
	struct lt_lfht_node *next = lfht_load(b->next), *old;

	for (;;) {
		old = cmpxchg(&b->next, next, lfht_mark(next, LFHT_REMOVED));
		if (old == next)
			break;
		next = lfht_load(b->next);
	}
	lfht_gc(ht, parent, b, lfht_bitrev(idx), idx);
}

/*
 * lfht_shrink() - go from @old to @new buckets: publish the smaller count,
 * wait until no operation can start from the buckets above it, delete them
 * (highest order first, so a parent always outlives its children), and
 * wait a second grace period: then no walk holds one of them any more,
 * and a later growth may initialise and link them again (their arrays
 * stay allocated until lt_lfht_destroy()).
 */
static void lfht_shrink(struct lt_lfht *ht, unsigned long old,
			unsigned long new)
{
	unsigned int lo = fls_long(new), hi = fls_long(old) - 1, o;
	unsigned long len, i, j;

	lfht_publish_size(ht, new);
	synchronize_rcu();
	for (o = hi; o >= lo; o--) {
		len = 1UL << (o - 1);
		for (i = 0; i < len; i = j) {
			rcu_read_lock();
			for (j = i; j < len && j < i + LFHT_RESIZE_BATCH; j++)
				lfht_del_bucket(ht, lfht_bucket(ht, j),
						lfht_bucket(ht, len + j),
						len + j);
			rcu_read_unlock();
			cond_resched();
		}
	}
	synchronize_rcu();
}

/**
 * lt_lfht_resize() - change the number of buckets.
 * @ht: the table.
 * @new_nr_buckets: power of two, at most the table's max_buckets.
 *
 * Runs concurrently with every other operation except lt_lfht_destroy()
 * and another resize (the caller serialises resizes).  Growing allocates
 * the new bucket arrays first: on failure the table is left unchanged.
 *
 * Context: process context, may sleep (allocation, synchronize_rcu()); not
 * under rcu_read_lock().
 * Return: 0, -EINVAL for a bad count, -ENOMEM.
 */
int lt_lfht_resize(struct lt_lfht *ht, unsigned long new_nr_buckets)
{
	/* Only resizes write it; the caller orders them (pairs with release). */
	unsigned long old = smp_load_acquire(&ht->size);

	might_sleep();
	if (!is_power_of_2(new_nr_buckets) ||
	    new_nr_buckets > ht->max_buckets)
		return -EINVAL;
	if (new_nr_buckets > old)
		return lfht_grow(ht, old, new_nr_buckets);
	if (new_nr_buckets < old)
		lfht_shrink(ht, old, new_nr_buckets);
	return 0;
}
