/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lfht_ops.h - the operations of the hash table that run on the probe
 * path, as always-inline functions.
 *
 * lfht.c wraps them into the exported lt_lfht_*() functions (used by the
 * unit tests, the host benchmark and the slow paths).  event.c calls them
 * directly with its own match function: the compiler then calls (or
 * inlines) the match directly instead of through a pointer, which saves a
 * retpoline per node compared and a call per operation on the per-event
 * path.  Same code either way; the design and the rules are in lfht.h.
 * Only lfht.c and event.c include this header.
 */
#ifndef _LT_LFHT_OPS_H
#define _LT_LFHT_OPS_H

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

/*
 * Bucket storage.  A bucket node is the ->next word of a node alone,
 * LFHT_BUCKET_BYTES: walks reach it through a struct lt_lfht_node pointer
 * and read its ->next like any node's, but never its reverse_hash, which
 * is implicit (bitrev(its index)): lfht_cmp() knows a bucket by its
 * address, and the code that links or deletes buckets passes their hash.
 * Half the memory of a whole node, so a large table's random bucket
 * accesses touch half as many pages.
 *
 * Bucket index 0 is order 0; order o >= 1 holds indexes [2^(o-1), 2^o).
 * The buckets of the initial size live in one array (@flat); a growth
 * allocates the orders past what is allocated in one more array, a
 * chunk, so that a chunk holds a run of consecutive indexes, [first,
 * first + bytes / LFHT_BUCKET_BYTES).  Chunks are kept when the table
 * shrinks (a later growth links their buckets again) and freed by
 * lt_lfht_destroy().  @order[o] points to the first bucket of order o,
 * inside @flat or a chunk.
 *
 * A chunk's entry is written before any of its buckets is linked and
 * never changes afterwards, and @nr_chunks is raised with release after
 * it.  A walk that reached a bucket did so through a link written (by a
 * fully ordered cmpxchg) after that release; lfht_cmp() orders its read
 * of @nr_chunks after the load that gave it the node (smp_rmb()), so it
 * finds the bucket's array.  A regular node is never inside @flat or a
 * chunk, so the address test never mistakes one for a bucket.
 */
#define LFHT_BUCKET_BYTES	sizeof(struct lt_lfht_node *)
#define LFHT_MAX_CHUNKS		LFHT_LONG_BITS

struct lt_lfht_chunk {
	char *base;
	unsigned long first;		/* index of the bucket at base */
	unsigned long bytes;
};

struct lt_lfht {
	/* Read by every operation: the first cache lines. */
	unsigned long size;		/* buckets in use (release/acquire) */
	char *flat;			/* buckets [0, flat_nr) */
	unsigned long flat_nr;
	unsigned long flat_bytes;	/* flat_nr * LFHT_BUCKET_BYTES */
	unsigned int nr_chunks;		/* entries of chunk[] (release) */
	struct lt_lfht_chunk chunk[LFHT_MAX_CHUNKS];
	char *order[LFHT_LONG_BITS + 1];
	unsigned long max_buckets;
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
 * @node: the node, reached through a link loaded before the call.
 * @rh: reverse_hash of the position.
 * @hash: the same, not reversed (lfht_bitrev(@rh)).
 *
 * A bucket node (found in @flat or a chunk, see struct lt_lfht) is
 * compared by its index, without loading it: walks end on the first node
 * past the wanted position, which often is the next bucket node, a random
 * one of a large table, and this saves that cache miss.  A regular node's
 * reverse_hash is loaded.  The reversed order of two values is decided by
 * the lowest bit in which the values differ: the one with that bit set is
 * the greater.
 *
 * Return: < 0, 0 or > 0 as @node's reverse_hash is below, equal to or
 * above @rh.
 */
static inline long lfht_cmp(const struct lt_lfht *ht,
			    const struct lt_lfht_node *node,
			    unsigned long rh, unsigned long hash)
{
	unsigned long off = (unsigned long)node - (unsigned long)ht->flat;
	unsigned long idx, d;
	unsigned int i, n;

	if (off < ht->flat_bytes) {
		idx = off / LFHT_BUCKET_BYTES;
		goto bucket;
	}
	/* The link that gave @node before the count (struct lt_lfht). */
	smp_rmb();
	/* The count before the entries it covers. */
	n = smp_load_acquire(&ht->nr_chunks);
	for (i = 0; i < n; i++) {
		off = (unsigned long)node - (unsigned long)ht->chunk[i].base;
		if (off < ht->chunk[i].bytes) {
			idx = ht->chunk[i].first + off / LFHT_BUCKET_BYTES;
			goto bucket;
		}
	}
	if (node->reverse_hash == rh)
		return 0;
	return node->reverse_hash < rh ? -1 : 1;
bucket:
	d = idx ^ hash;
	if (!d)
		return 0;
	return (hash & d & -d) ? -1 : 1;
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
		return (struct lt_lfht_node *)(ht->flat +
					       idx * LFHT_BUCKET_BYTES);
	o = fls_long(idx);
	return (struct lt_lfht_node *)(ht->order[o] +
				       (idx - (1UL << (o - 1))) *
				       LFHT_BUCKET_BYTES);
}

/* The bucket an operation on @hash starts from. */
static inline struct lt_lfht_node *lfht_bucket_of(const struct lt_lfht *ht,
						  unsigned long hash)
{
	/* Pairs with lfht_publish_size(): the buckets counted are linked. */
	unsigned long size = smp_load_acquire(&ht->size);

	return lfht_bucket(ht, hash & (size - 1));
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
 * @rh: @target's reverse_hash.
 * @hash: the same, not reversed (its index, for a bucket).
 *
 * Returns once @target is unreachable from the list: either this call
 * unlinked it, or it walked past the place @target would be at (first node
 * with a greater reverse_hash) without meeting it, only ever stepping from
 * nodes that were live when read; since a deleted node never becomes
 * reachable again, @target had been unlinked by a helper.
 *
 * Context: under rcu_read_lock().
 */
static inline void lfht_gc(const struct lt_lfht *ht,
			   struct lt_lfht_node *start,
			   struct lt_lfht_node *target, unsigned long rh,
			   unsigned long hash)
{
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
static __always_inline struct lt_lfht_node *
lfht_scan_run(const struct lt_lfht *ht, struct lt_lfht_node *node,
	      struct lt_lfht_node *next, unsigned long rh, unsigned long hash,
	      lt_lfht_match_fn match, const void *key,
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
 * lfht_add() - link @node (a regular one with its ->reverse_hash set, or
 * a bucket) into the list.
 * @ht: the table.
 * @start: bucket node at or before @node's place, on the list for the
 *	whole call.
 * @node: the node to link.
 * @hash: @node's hash (its index, for a bucket).
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
	/* A constant test in each inlined copy: no bit reversal for nodes. */
	const unsigned long rh = (node_flags & LFHT_BUCKET) ?
				 lfht_bitrev(hash) : node->reverse_hash;
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
	lfht_gc(ht, start, found, rh, hash);
	return found;
}

/*
 * lfht_find() - first live regular node matching @key, walking from the
 * raw ->next value @cur of @prev, among nodes of reverse_hash @rh.
 */
static __always_inline void
lfht_find(const struct lt_lfht *ht, struct lt_lfht_node *prev,
	  struct lt_lfht_node *cur, unsigned long rh, unsigned long hash,
	  lt_lfht_match_fn match, const void *key, struct lt_lfht_iter *iter)
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
			iter->prev = prev;
			iter->prev_next = cur;
			return;
		}
		prev = node;
		cur = next;
	}
	iter->node = NULL;
	iter->next = NULL;
}

/* Operations on a key; see the kernel-doc of their lt_lfht_*() wrappers. */

static __always_inline void
lfht_lookup_op(struct lt_lfht *ht, unsigned long hash, lt_lfht_match_fn match,
	       const void *key, struct lt_lfht_iter *iter)
{
	struct lt_lfht_node *bucket;

	lfht_assert_reader();
	bucket = lfht_bucket_of(ht, hash);
	lfht_find(ht, bucket, lfht_load(bucket->next), lfht_bitrev(hash),
		  hash, match, key, iter);
}

static __always_inline void
lfht_next_duplicate_op(struct lt_lfht *ht, lt_lfht_match_fn match,
		       const void *key, struct lt_lfht_iter *iter)
{
	unsigned long rh;

	lfht_assert_reader();
	if (!iter->node) {
		iter->next = NULL;
		return;
	}
	rh = iter->node->reverse_hash;
	lfht_find(ht, iter->node, iter->next, rh, lfht_bitrev(rh), match, key,
		  iter);
}

static __always_inline void
lfht_add_dup_op(struct lt_lfht *ht, unsigned long hash,
		struct lt_lfht_node *node)
{
	lfht_assert_reader();
	node->reverse_hash = lfht_bitrev(hash);
	lfht_add(ht, lfht_bucket_of(ht, hash), node, hash, 0, LFHT_ADD_DUP,
		 NULL, NULL);
}

static __always_inline struct lt_lfht_node *
lfht_add_replace_op(struct lt_lfht *ht, unsigned long hash,
		    lt_lfht_match_fn match, const void *key,
		    struct lt_lfht_node *node)
{
	struct lt_lfht_node *ret;

	lfht_assert_reader();
	node->reverse_hash = lfht_bitrev(hash);
	ret = lfht_add(ht, lfht_bucket_of(ht, hash), node, hash, 0,
		       LFHT_ADD_REPLACE, match, key);
	return ret == node ? NULL : ret;
}

/*
 * lfht_set_removed() - logical deletion: set REMOVED in @node->next, whose
 * value was last read as @next.
 * Return: the frozen ->next (with REMOVED), or NULL if another caller
 * deleted @node first (or it is a bucket, which callers never delete).
 */
static __always_inline struct lt_lfht_node *
lfht_set_removed(struct lt_lfht_node *node, struct lt_lfht_node *next)
{
	struct lt_lfht_node *old;

	for (;;) {
		if (lfht_is_removed(next))
			return NULL;
		if (WARN_ON_ONCE(lfht_is_bucket(next)))
			return NULL;
		old = cmpxchg(&node->next, next, lfht_mark(next, LFHT_REMOVED));
		if (old == next)
			return lfht_mark(next, LFHT_REMOVED);
		next = lfht_load(node->next);	/* see "Unlinking" in lfht.h */
	}
}

static __always_inline int lfht_del_op(struct lt_lfht *ht,
				       struct lt_lfht_node *node)
{
	unsigned long hash;

	lfht_assert_reader();
	if (!lfht_set_removed(node, lfht_load(node->next)))
		return -ENOENT;
	hash = lfht_bitrev(node->reverse_hash);
	lfht_gc(ht, lfht_bucket_of(ht, hash), node, node->reverse_hash, hash);
	return 0;
}

/*
 * The predecessor seen by the lookup is tried first: if its ->next still
 * holds the value read then (so it is live: REMOVED would have changed
 * the value, and within the read-side section it cannot have been freed
 * and reused), unlinking there is exactly what lfht_gc() would do.
 * Otherwise the bucket is walked as in lfht_del_op().
 */
static __always_inline int lfht_del_found_op(struct lt_lfht *ht,
					     struct lt_lfht_iter *iter)
{
	struct lt_lfht_node *node = iter->node, *prev_next = iter->prev_next;
	struct lt_lfht_node *frozen, *want;
	unsigned long hash;

	lfht_assert_reader();
	frozen = lfht_set_removed(node, iter->next);
	if (!frozen)
		return -ENOENT;
	if (iter->prev && !lfht_is_removed(prev_next)) {
		want = lfht_mark(lfht_strip(frozen), lfht_flags(prev_next));
		if (cmpxchg(&iter->prev->next, prev_next, want) == prev_next)
			return 0;
	}
	hash = lfht_bitrev(node->reverse_hash);
	lfht_gc(ht, lfht_bucket_of(ht, hash), node, node->reverse_hash, hash);
	return 0;
}

#endif /* _LT_LFHT_OPS_H */
