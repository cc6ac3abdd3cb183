/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lfht.h - lock-free, RCU-protected hash table of the tracker core.
 *
 * DESIGN
 *
 * Algorithm.  A split-ordered list (Shalev & Shavit, J. ACM 2006) with the
 * list-based set of Harris (2001) / Michael (2002) underneath, the family of
 * userspace-rcu's rculfhash.  Every node of the table lives on ONE singly
 * linked list, kept sorted by ascending ->reverse_hash, which is the hash
 * with its bits reversed (bit 0 becomes the most significant one).  For a
 * table of 2^k buckets, the nodes of bucket i (hash & (2^k - 1) == i) are
 * thus contiguous in the list, and splitting bucket i into i and i + 2^k
 * only needs a marker inserted in the middle of that run: no node ever
 * moves.  Those markers are the bucket nodes: one per bucket index, with
 * reverse_hash = bit-reversed index, stored in arrays owned by the table
 * (a bucket node is a ->next word alone; its reverse_hash is implicit,
 * see struct lt_lfht in lfht_ops.h).
 * An operation on hash h starts at bucket (h & (nr_buckets - 1)), which is
 * on the list, before every node of that bucket.
 *
 * Ordering of the list: ascending reverse_hash; among equal reverse_hash,
 * the bucket node (if any) comes first, then the regular nodes.
 * lt_lfht_add() appends after the regular nodes of equal reverse_hash
 * (duplicates keep insertion order); lt_lfht_add_unique() and the "no
 * match" case of lt_lfht_add_replace() insert before them, so that a
 * concurrent forward traversal never meets two nodes of one unique key;
 * lt_lfht_add_replace() puts the new node exactly where the old one was.
 *
 * Deletion is in two steps.  Logical: a cmpxchg sets the REMOVED flag in
 * the node's own ->next; from then on that ->next never changes again (it
 * is "frozen"), no node can be linked after it, and lookups skip it.
 * Physical: the node is unlinked by a cmpxchg on its predecessor's ->next.
 * The deleter walks its bucket from the start, unlinking every REMOVED
 * node it meets, until it has passed the node's position; every updater
 * walking a bucket helps the same way.  lt_lfht_del_found() first tries
 * the predecessor its lookup came through: if that one's ->next still
 * holds the value read then, it is live (REMOVED would have changed the
 * value) and one cmpxchg there unlinks the node; otherwise it walks like
 * lt_lfht_del().  Both return only once the node is unreachable from the
 * list.  add_replace sets REMOVED on the
 * old node and points its frozen ->next to the new node in one cmpxchg, so
 * at every instant exactly one of the two is visible.
 *
 * Flag bits in ->next (they describe the node that holds the field, not
 * the one it points to; nodes are at least 4-byte aligned):
 *
 *   bit 0  REMOVED  logically deleted; ->next frozen; set once, never
 *                   cleared while the node is reachable.
 *   bit 1  BUCKET   a bucket node (internal marker, never handed to the
 *                   caller nor to the match function); constant.
 *
 * The end of the list is NULL (plus the last node's own flags).  Regular
 * nodes carry no flag while they are live.
 *
 * Resize (process context only, callers serialise resizes).  Grow: the
 * bucket nodes of each new order are inserted into the list like regular
 * nodes (starting from their parent bucket, i.e. the index without its top
 * bit), then the new bucket count is published with a release store.
 * Shrink: the smaller count is published, synchronize_rcu() makes sure no
 * operation still starts from a bucket about to go, the buckets are
 * deleted (REMOVED + unlinked, as above), and after a second grace period
 * no walk holds one of them: their arrays are kept, for a later growth to
 * initialise and link them again, and freed by lt_lfht_destroy().  All
 * other operations run concurrently with a resize and stay correct during
 * it.  The bucket arrays past the initial ones are allocated in chunks of
 * consecutive orders, so that walks can tell a bucket node by its address
 * (see struct lt_lfht in lfht_ops.h).
 *
 * Memory ordering (kernel memory model; the userspace shim maps the same
 * primitives onto C11 atomics):
 *
 *  - Publication.  The cmpxchg that links a node (add, add_unique,
 *    add_replace, bucket insertion) is fully ordered, so everything the
 *    caller wrote into the node and its enclosing object before the call
 *    is visible to any CPU that reaches the node through a ->next field.
 *    Pairs with: the dependency-ordered loads of ->next in every traversal
 *    (rcu_dereference_raw(): the field is not __rcu annotated, so lockdep
 *    checks the caller's RCU read-side section at each entry point
 *    instead).
 *  - Deletion.  The cmpxchg that sets REMOVED (del, add_replace) is fully
 *    ordered: stores before lt_lfht_del()/lt_lfht_add_replace() are visible
 *    to whoever observes the node as deleted (lt_lfht_is_node_deleted()
 *    uses an acquire load and pairs with it).  Exactly one caller sets the
 *    flag on a given node, hence exactly one gets 0 from lt_lfht_del() (or
 *    the node back from lt_lfht_add_replace()).
 *  - Unlinking uses fully ordered cmpxchg; a failed cmpxchg implies no
 *    ordering, so the code re-reads the field with a dependency-ordered
 *    load.
 *  - Bucket count.  smp_store_release() of the count in resize pairs with
 *    smp_load_acquire() at the start of every operation: an operation that
 *    sees 2^k buckets sees all 2^k bucket nodes initialised and linked.
 *  - Grace periods.  Shrink waits for a grace period between publishing
 *    the smaller count and deleting buckets, and another one before the
 *    deleted buckets may be reused; the caller does the same for its own
 *    nodes.
 *
 * Linearisation: a lookup that returns a node saw it live at the moment it
 * read that node's ->next; add/add_unique/add_replace take effect at their
 * successful linking cmpxchg, del at the cmpxchg that sets REMOVED.
 * Concurrent reads of the same key may return different nodes.  Uniqueness
 * holds among add_unique/add_replace callers only (a plain lt_lfht_add()
 * may always create a duplicate).
 *
 * Progress: lookup, next_duplicate, first and next are wait-free (they only
 * move forward on an acyclic list and never retry; their cost is bounded
 * by the nodes they pass).  add, add_unique, add_replace and del are
 * lock-free: they retry only after a cmpxchg failed because another
 * operation changed the list.  None of them allocates, sleeps or prints.
 * new, destroy and resize allocate and/or sleep.
 *
 * CALLER CONTRACT
 *
 *  - lookup, next_duplicate, first, next, add, add_unique, add_replace,
 *    del, del_found, is_node_deleted and nr_buckets: under rcu_read_lock() (in the
 *    kernel with preemption disabled is fine: process, softirq or hardirq
 *    context); the node pointers they return stay valid until the matching
 *    rcu_read_unlock().  In userspace, the thread must be registered with
 *    liburcu (rcu_register_thread()).
 *  - new, destroy and resize: process context, may sleep, NOT under
 *    rcu_read_lock().  Resizes must be serialised by the caller; destroy
 *    requires that no other operation is running or will run, and that a
 *    grace period elapsed since the last one.
 *  - A node may be freed or reused (even re-added) only after a grace
 *    period (synchronize_rcu(), call_rcu(), kfree_rcu()) that started after
 *    the lt_lfht_del() that returned 0 on it, or after the
 *    lt_lfht_add_replace() that returned it.  Deleting it again in the
 *    meantime is allowed and returns -ENOENT.
 *  - A node must not be added while it is still in a table.
 *  - The match function runs under the caller's rcu_read_lock(), may be
 *    called on nodes being deleted, more than once per operation, and must
 *    not sleep; it is never called on bucket nodes.
 */
#ifndef _LT_LFHT_H
#define _LT_LFHT_H

#include "lt_env.h"

/**
 * struct lt_lfht_node - hash table linkage, embedded in the caller's object.
 * @next: next node of the split-ordered list; the low bits carry flags.
 * @reverse_hash: the node's hash, bit-reversed (set by the add functions).
 */
struct lt_lfht_node {
	struct lt_lfht_node *next;	/* low bits carry flags */
	unsigned long reverse_hash;
};

/**
 * struct lt_lfht_iter - position of a lookup or a traversal.
 * @node: current node, NULL at the end (read with lt_lfht_iter_get_node()).
 * @next: @node's ->next as read when @node was found live; the traversal
 *	goes on from there, even if @node is deleted in the meantime.
 * @prev: after a lookup or next_duplicate, the node whose ->next led to
 *	@node (NULL after a traversal step).
 * @prev_next: @prev's ->next as read then (@node plus @prev's own flags);
 *	lt_lfht_del_found() unlinks @node from there with one cmpxchg when
 *	nothing changed meanwhile, instead of walking the bucket again.
 */
struct lt_lfht_iter {
	struct lt_lfht_node *node, *next;
	struct lt_lfht_node *prev, *prev_next;
};

/*
 * Key comparison: true when @node (a regular node, embedded in the caller's
 * object) holds @key.  See "CALLER CONTRACT" above.
 */
typedef bool (*lt_lfht_match_fn)(const struct lt_lfht_node *node,
				 const void *key);

struct lt_lfht;

struct lt_lfht *lt_lfht_new(unsigned long nr_buckets,
			    unsigned long max_buckets);
int lt_lfht_destroy(struct lt_lfht *ht);

void lt_lfht_lookup(struct lt_lfht *ht, unsigned long hash,
		    lt_lfht_match_fn match, const void *key,
		    struct lt_lfht_iter *iter);
void lt_lfht_next_duplicate(struct lt_lfht *ht, lt_lfht_match_fn match,
			    const void *key, struct lt_lfht_iter *iter);
void lt_lfht_first(struct lt_lfht *ht, struct lt_lfht_iter *iter);
void lt_lfht_next(struct lt_lfht *ht, struct lt_lfht_iter *iter);

/**
 * lt_lfht_iter_get_node() - node at the iterator's position.
 * @iter: iterator filled by a lookup or traversal function.
 *
 * Context: under rcu_read_lock(), like the call that filled @iter.
 * Return: the node, or NULL at the end of the lookup or traversal.
 */
static inline struct lt_lfht_node *lt_lfht_iter_get_node(struct lt_lfht_iter *iter)
{
	return iter->node;
}

void lt_lfht_add(struct lt_lfht *ht, unsigned long hash,
		 struct lt_lfht_node *node);
struct lt_lfht_node *lt_lfht_add_unique(struct lt_lfht *ht,
					unsigned long hash,
					lt_lfht_match_fn match,
					const void *key,
					struct lt_lfht_node *node);
struct lt_lfht_node *lt_lfht_add_replace(struct lt_lfht *ht,
					 unsigned long hash,
					 lt_lfht_match_fn match,
					 const void *key,
					 struct lt_lfht_node *node);
int lt_lfht_del(struct lt_lfht *ht, struct lt_lfht_node *node);
int lt_lfht_del_found(struct lt_lfht *ht, struct lt_lfht_iter *iter);
bool lt_lfht_is_node_deleted(const struct lt_lfht_node *node);

int lt_lfht_resize(struct lt_lfht *ht, unsigned long new_nr_buckets);
unsigned long lt_lfht_nr_buckets(struct lt_lfht *ht);

#endif /* _LT_LFHT_H */
