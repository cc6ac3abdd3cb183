// SPDX-License-Identifier: GPL-2.0-only
/*
 * lfht.c - lock-free, RCU-protected split-ordered hash table.
 *
 * The design, the flag bits, the memory-ordering and progress guarantees
 * and the caller contract are written down at the top of lfht.h.  This file
 * is built into latency_tracker.ko and, unchanged, into the host unit tests
 * and benchmarks (tests/unit, tests/bench) on top of liburcu.
 */
#include "lt_env.h"
#include "lfht.h"

#define LFHT_REMOVED	1UL	/* node logically deleted, ->next frozen */
#define LFHT_BUCKET	2UL	/* node is a bucket (list marker) */
#define LFHT_FLAGS	(LFHT_REMOVED | LFHT_BUCKET)

#define LFHT_LONG_BITS	(8 * __SIZEOF_LONG__)

/*
 * Dependency-ordered load of a ->next field: pairs with the fully ordered
 * cmpxchg that linked the node it points to.  The _raw form because the
 * field is not __rcu annotated (it also carries flags and is updated with
 * cmpxchg); the callers' read-side critical section is checked by
 * lfht_assert_reader() at the entry points instead.
 */
#define lfht_load(p)		rcu_dereference_raw(p)

/* Every operation but new/destroy/resize runs in an RCU reader. */
#define lfht_assert_reader()						\
	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),			\
			 "lt_lfht used outside an RCU read-side section")

/* Bucket nodes inserted (or removed) per RCU read-side section in resize. */
#define LFHT_RESIZE_BATCH	256UL

/*
 * Bucket storage.  Bucket index 0 is order 0; order o >= 1 holds indexes
 * [2^(o-1), 2^o).  The buckets of the initial size live in one array
 * (@flat), the orders past it get one array each, allocated when the table
 * grows to them and freed when it shrinks below them.  @order[o] points to
 * the first bucket of order o, inside @flat for the initial orders.
 */
struct lt_lfht {
	/* Read by every operation: first cache line. */
	unsigned long size;		/* buckets in use (release/acquire) */
	struct lt_lfht_node *flat;	/* buckets [0, flat_nr) */
	unsigned long flat_nr;
	unsigned long flat_bytes;	/* flat_nr * sizeof(node) */
	unsigned long max_buckets;
	struct lt_lfht_node *order[LFHT_LONG_BITS + 1];
};

static inline unsigned long lfht_flags(const struct lt_lfht_node *p)
{
	return (unsigned long)p & LFHT_FLAGS;
}

static inline struct lt_lfht_node *lfht_strip(const struct lt_lfht_node *p)
{
	return (struct lt_lfht_node *)((unsigned long)p & ~LFHT_FLAGS);
}

static inline struct lt_lfht_node *lfht_mark(const struct lt_lfht_node *p,
					     unsigned long flags)
{
	return (struct lt_lfht_node *)((unsigned long)p | flags);
}

static inline bool lfht_is_removed(const struct lt_lfht_node *next)
{
	return (unsigned long)next & LFHT_REMOVED;
}

static inline bool lfht_is_bucket(const struct lt_lfht_node *next)
{
	return (unsigned long)next & LFHT_BUCKET;
}

/*
 * lfht_bitrev() - reverse the bits of an unsigned long (an involution:
 * it also turns a reverse_hash back into the hash).
 */
static inline unsigned long lfht_bitrev(unsigned long v)
{
	const unsigned long m1 = ~0UL / 3;	/* 0x5555... */
	const unsigned long m2 = ~0UL / 5;	/* 0x3333... */
	const unsigned long m4 = ~0UL / 17;	/* 0x0f0f... */

	v = ((v >> 1) & m1) | ((v & m1) << 1);
	v = ((v >> 2) & m2) | ((v & m2) << 2);
	v = ((v >> 4) & m4) | ((v & m4) << 4);
#if __SIZEOF_LONG__ == 8
	return __builtin_bswap64(v);
#else
	return __builtin_bswap32(v);
#endif
}

/*
 * lfht_cmp() - order of a node reached on the list against a position.
 * @node: the node.
 * @rh: reverse_hash of the position.
 * @hash: the same, not reversed (lfht_bitrev(@rh)).
 *
 * A bucket of the initial array has reverse_hash = bitrev(its index), which
 * never changes, so it is compared without loading it: walks end on the
 * first node past the wanted position, which usually is the next bucket
 * node, and this saves a cache miss on most operations.  The reversed
 * order of two values is decided by the lowest bit in which the values
 * differ: the one with that bit set is the greater.
 *
 * Return: < 0, 0 or > 0 as @node's reverse_hash is below, equal to or
 * above @rh.
 */
static inline long lfht_cmp(const struct lt_lfht *ht,
			    const struct lt_lfht_node *node,
			    unsigned long rh, unsigned long hash)
{
	unsigned long off = (unsigned long)node - (unsigned long)ht->flat;
	unsigned long d;

	if (off < ht->flat_bytes) {
		d = (off / sizeof(*node)) ^ hash;
		if (!d)
			return 0;
		return (hash & d & -d) ? -1 : 1;
	}
	if (node->reverse_hash == rh)
		return 0;
	return node->reverse_hash < rh ? -1 : 1;
}

/*
 * lfht_bucket() - the bucket node of index @idx.
 * The caller got @idx from a bucket count it loaded with acquire (or it is
 * the resizer), so the array of @idx's order is allocated and initialised.
 */
static inline struct lt_lfht_node *lfht_bucket(const struct lt_lfht *ht,
					       unsigned long idx)
{
	unsigned int o;

	if (likely(idx < ht->flat_nr))
		return &ht->flat[idx];
	o = fls_long(idx);
	return &ht->order[o][idx - (1UL << (o - 1))];
}

/* The bucket an operation on @hash starts from. */
static inline struct lt_lfht_node *lfht_bucket_of(const struct lt_lfht *ht,
						  unsigned long hash)
{
	/* Pairs with lfht_publish_size(): the buckets counted are linked. */
	unsigned long size = smp_load_acquire(&ht->size);

	return lfht_bucket(ht, hash & (size - 1));
}

static inline void lfht_publish_size(struct lt_lfht *ht, unsigned long size)
{
	/* Pairs with lfht_bucket_of(): bucket init and linking come first. */
	smp_store_release(&ht->size, size);
}

/*
 * lfht_unlink() - physically remove @cur (REMOVED, with frozen ->next
 * @next) from after @prev, where @cur is @prev->next as last read (it
 * carries @prev's own flags).
 *
 * Return: the new value of @prev->next if the unlinking cmpxchg succeeded,
 * otherwise a fresh read of it; either way, when that value has REMOVED set
 * @prev itself got deleted and the caller must restart from its bucket.
 */
static inline struct lt_lfht_node *lfht_unlink(struct lt_lfht_node *prev,
					       struct lt_lfht_node *cur,
					       struct lt_lfht_node *next)
{
	struct lt_lfht_node *want = lfht_mark(lfht_strip(next), lfht_flags(cur));

	if (cmpxchg(&prev->next, cur, want) == cur)
		return want;
	return lfht_load(prev->next);
}

/*
 * lfht_gc() - unlink every deleted node from @start up to @target.
 * @ht: the table.
 * @start: a bucket node that stays on the list during the call.
 * @target: a node whose REMOVED flag is set (regular or bucket).
 * @hash: lfht_bitrev(@target->reverse_hash).
 *
 * Returns once @target is unreachable from the list: either this call
 * unlinked it, or it walked past the place @target would be at (first node
 * with a greater reverse_hash) without meeting it, only ever stepping from
 * nodes that were live when read; since a deleted node never becomes
 * reachable again, @target had been unlinked by a helper.
 *
 * Context: under rcu_read_lock().
 */
static void lfht_gc(const struct lt_lfht *ht, struct lt_lfht_node *start,
		    struct lt_lfht_node *target, unsigned long hash)
{
	const unsigned long rh = target->reverse_hash;
	struct lt_lfht_node *prev, *cur, *c, *next;

restart:
	prev = start;
	cur = lfht_load(prev->next);
	for (;;) {
		c = lfht_strip(cur);
		if (!c || lfht_cmp(ht, c, rh, hash) > 0)
			return;
		next = lfht_load(c->next);
		if (lfht_is_removed(next)) {
			struct lt_lfht_node *want;

			want = lfht_mark(lfht_strip(next), lfht_flags(cur));
			if (cmpxchg(&prev->next, cur, want) == cur) {
				if (c == target)
					return;
				cur = want;
			} else {
				cur = lfht_load(prev->next);
				if (lfht_is_removed(cur))
					goto restart;
			}
			continue;
		}
		prev = c;
		cur = next;
	}
}

/*
 * lfht_scan_run() - first live node matching @key among the run of regular
 * nodes of reverse_hash @rh that starts at @node, whose ->next was read as
 * @next.  Deleted nodes are stepped over through their frozen ->next.
 *
 * Return: the node (its ->next as read in *@nextp), or NULL.
 */
static inline struct lt_lfht_node *lfht_scan_run(const struct lt_lfht *ht,
						 struct lt_lfht_node *node,
						 struct lt_lfht_node *next,
						 unsigned long rh,
						 unsigned long hash,
						 lt_lfht_match_fn match,
						 const void *key,
						 struct lt_lfht_node **nextp)
{
	for (;;) {
		if (!lfht_flags(next) && match(node, key)) {
			*nextp = next;
			return node;
		}
		node = lfht_strip(next);
		if (!node || lfht_cmp(ht, node, rh, hash))
			return NULL;
		next = lfht_load(node->next);
	}
}

enum lfht_add_mode {
	LFHT_ADD_DUP,		/* append after equal reverse_hash */
	LFHT_ADD_UNIQUE,	/* return the live match if any */
	LFHT_ADD_REPLACE,	/* replace the live match if any */
	LFHT_ADD_BUCKET,	/* bucket node: before equal reverse_hash */
};

/*
 * lfht_add() - link @node (its ->reverse_hash set) into the list.
 * @ht: the table.
 * @start: bucket node at or before @node's place, on the list for the
 *	whole call.
 * @node: the node to link.
 * @hash: lfht_bitrev(@node->reverse_hash).
 * @node_flags: LFHT_BUCKET for a bucket node, else 0.
 * @mode: see enum lfht_add_mode.
 * @match, @key: for LFHT_ADD_UNIQUE and LFHT_ADD_REPLACE.
 *
 * Return: @node when it was linked; for LFHT_ADD_UNIQUE the live matching
 * node when there was one (@node not linked); for LFHT_ADD_REPLACE the
 * node that @node replaced (now deleted and unlinked), or @node when
 * nothing matched and @node was linked as a new key.
 *
 * Context: under rcu_read_lock().
 */
static __always_inline struct lt_lfht_node *
lfht_add(const struct lt_lfht *ht, struct lt_lfht_node *start,
	 struct lt_lfht_node *node, unsigned long hash,
	 unsigned long node_flags,
	 enum lfht_add_mode mode, lt_lfht_match_fn match, const void *key)
{
	const unsigned long rh = node->reverse_hash;
	struct lt_lfht_node *prev, *cur, *c, *next, *found, *found_next;
	long cmp;

restart:
	prev = start;
	cur = lfht_load(prev->next);
walk:
	/* prev is live (or the start bucket), cur is prev->next as read. */
	for (;;) {
		c = lfht_strip(cur);
		if (!c)
			goto insert;
		cmp = lfht_cmp(ht, c, rh, hash);
		if (cmp > 0)
			goto insert;
		next = lfht_load(c->next);
		if (unlikely(lfht_is_removed(next))) {
			/* Help: unlink it, then look at what follows prev. */
			cur = lfht_unlink(prev, cur, next);
			if (lfht_is_removed(cur))
				goto restart;
			continue;
		}
		if (!cmp && !lfht_is_bucket(next)) {
			/* c starts the run of regular nodes equal to ours. */
			if (mode == LFHT_ADD_BUCKET)
				goto insert;
			if (mode != LFHT_ADD_DUP) {
				found = lfht_scan_run(ht, c, next, rh, hash,
						      match, key, &found_next);
				if (!found)
					goto insert;
				if (mode == LFHT_ADD_UNIQUE)
					return found;
				goto replace;
			}
		}
		prev = c;
		cur = next;
	}

insert:
	/* Between prev and c; cur still holds prev's own flags. */
	WRITE_ONCE(node->next, lfht_mark(c, node_flags));
	if (cmpxchg(&prev->next, cur, lfht_mark(node, lfht_flags(cur))) == cur)
		return node;
	cur = lfht_load(prev->next);
	if (lfht_is_removed(cur))
		goto restart;
	goto walk;

replace:
	/*
	 * One cmpxchg deletes @found and makes @node its frozen successor:
	 * walkers past @found either read its old ->next (and saw @found
	 * live) or read @node through it.
	 */
	WRITE_ONCE(node->next, found_next);
	if (cmpxchg(&found->next, found_next,
		    lfht_mark(node, LFHT_REMOVED)) != found_next)
		goto restart;
	lfht_gc(ht, start, found, hash);
	return found;
}

/**
 * lt_lfht_new() - allocate an empty hash table.
 * @nr_buckets: initial number of buckets, a power of two.
 * @max_buckets: upper bound for lt_lfht_resize(), a power of two
 *	>= @nr_buckets, with at most INT_MAX bytes of buckets (2^26 on 64-bit).
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
	    max_buckets > (unsigned long)INT_MAX / sizeof(struct lt_lfht_node))
		return NULL;

	ht = lt_zalloc(sizeof(*ht));
	if (!ht)
		return NULL;
	ht->flat = lt_zalloc(nr_buckets * sizeof(struct lt_lfht_node));
	if (!ht->flat) {
		lt_free(ht);
		return NULL;
	}
	ht->flat_nr = nr_buckets;
	ht->flat_bytes = nr_buckets * sizeof(struct lt_lfht_node);
	ht->max_buckets = max_buckets;
	k = fls_long(nr_buckets) - 1;
	ht->order[0] = ht->flat;
	for (o = 1; o <= k; o++)
		ht->order[o] = ht->flat + (1UL << (o - 1));

	/*
	 * Nobody sees the table yet: chain the buckets directly.  List
	 * position j holds the bucket whose k-bit index is j reversed.
	 */
	for (i = 0; i < nr_buckets; i++)
		ht->flat[i].reverse_hash = lfht_bitrev(i);
	prev = &ht->flat[0];
	for (i = 1; i < nr_buckets; i++) {
		b = &ht->flat[lfht_bitrev(i) >> (LFHT_LONG_BITS - k)];
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

	for (p = &ht->flat[0]; p; p = lfht_strip(next)) {
		next = lfht_load(p->next);
		if (!lfht_is_bucket(next))
			return -EBUSY;
	}
	for (o = fls_long(ht->flat_nr); o <= LFHT_LONG_BITS; o++)
		lt_free(ht->order[o]);
	lt_free(ht->flat);
	lt_free(ht);
	return 0;
}

/*
 * lfht_find() - first live regular node matching @key, walking from the
 * raw ->next value @cur, among nodes of reverse_hash @rh.
 */
static inline void lfht_find(const struct lt_lfht *ht,
			     struct lt_lfht_node *cur, unsigned long rh,
			     unsigned long hash,
			     lt_lfht_match_fn match, const void *key,
			     struct lt_lfht_iter *iter)
{
	struct lt_lfht_node *node, *next;
	long cmp;

	for (;;) {
		node = lfht_strip(cur);
		if (!node)
			break;
		cmp = lfht_cmp(ht, node, rh, hash);
		if (cmp > 0)
			break;
		next = lfht_load(node->next);
		if (!cmp && !lfht_flags(next) &&
		    match(node, key)) {
			iter->node = node;
			iter->next = next;
			return;
		}
		cur = next;
	}
	iter->node = NULL;
	iter->next = NULL;
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
	struct lt_lfht_node *bucket;

	lfht_assert_reader();
	bucket = lfht_bucket_of(ht, hash);
	lfht_find(ht, lfht_load(bucket->next), lfht_bitrev(hash), hash,
		  match, key, iter);
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
	unsigned long rh;

	lfht_assert_reader();
	if (!iter->node) {
		iter->next = NULL;
		return;
	}
	rh = iter->node->reverse_hash;
	lfht_find(ht, iter->next, rh, lfht_bitrev(rh), match, key, iter);
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
	lfht_next_live(lfht_load(ht->flat[0].next), iter);
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
	lfht_assert_reader();
	node->reverse_hash = lfht_bitrev(hash);
	lfht_add(ht, lfht_bucket_of(ht, hash), node, hash, 0, LFHT_ADD_DUP,
		 NULL, NULL);
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
	struct lt_lfht_node *ret;

	lfht_assert_reader();
	node->reverse_hash = lfht_bitrev(hash);
	ret = lfht_add(ht, lfht_bucket_of(ht, hash), node, hash, 0,
		       LFHT_ADD_REPLACE, match, key);
	return ret == node ? NULL : ret;
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
	struct lt_lfht_node *next, *old;
	unsigned long hash;

	lfht_assert_reader();
	next = lfht_load(node->next);
	for (;;) {
		if (lfht_is_removed(next))
			return -ENOENT;
		if (WARN_ON_ONCE(lfht_is_bucket(next)))
			return -EINVAL;
		old = cmpxchg(&node->next, next, lfht_mark(next, LFHT_REMOVED));
		if (old == next)
			break;
		next = lfht_load(node->next);
	}
	hash = lfht_bitrev(node->reverse_hash);
	lfht_gc(ht, lfht_bucket_of(ht, hash), node, hash);
	return 0;
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

/* Free the arrays of orders [@lo, @hi] that lie outside @flat. */
static void lfht_free_orders(struct lt_lfht *ht, unsigned int lo,
			     unsigned int hi)
{
	unsigned int o;

	for (o = max_t(unsigned int, lo, fls_long(ht->flat_nr)); o <= hi; o++) {
		lt_free(ht->order[o]);
		ht->order[o] = NULL;
	}
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

	for (o = lo; o <= hi; o++) {
		if (ht->order[o])
			continue;
		ht->order[o] = lt_zalloc((1UL << (o - 1)) * sizeof(*b));
		if (!ht->order[o]) {
			lfht_free_orders(ht, lo, o);
			return -ENOMEM;
		}
	}
	for (o = lo; o <= hi; o++) {
		len = 1UL << (o - 1);
		for (i = 0; i < len; i++) {
			b = &ht->order[o][i];
			b->reverse_hash = lfht_bitrev(len + i);
			WRITE_ONCE(b->next, lfht_mark(NULL, LFHT_BUCKET));
		}
		for (i = 0; i < len; i = j) {
			rcu_read_lock();
			for (j = i; j < len && j < i + LFHT_RESIZE_BATCH; j++)
				lfht_add(ht, lfht_bucket(ht, j), &ht->order[o][j],
					 len + j, LFHT_BUCKET, LFHT_ADD_BUCKET,
					 NULL, NULL);
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
	lfht_gc(ht, parent, b, idx);
}

/*
 * lfht_shrink() - go from @old to @new buckets: publish the smaller count,
 * wait until no operation can start from the buckets above it, delete them
 * (highest order first, so a parent always outlives its children), and
 * free their arrays after a second grace period.
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
						&ht->order[o][j], len + j);
			rcu_read_unlock();
			cond_resched();
		}
	}
	synchronize_rcu();
	lfht_free_orders(ht, lo, hi);
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
