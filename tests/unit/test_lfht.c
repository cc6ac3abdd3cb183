// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_lfht.c - functional tests of the lock-free hash table (tracker/lfht.c)
 * built in userspace: add/lookup/del, add_unique, add_replace, duplicates,
 * iteration, double delete, deletion from a lookup's position
 * (del_found), resize with contents intact, destroy when not empty.  Single-threaded; the concurrent checks are in test_lfht_diff.c.
 */
#include "lt_env.h"
#include "lfht.h"
#include "lfht_ops.h"
#include "lfht_test_util.h"
#include "tap.h"


struct item {
	struct lt_lfht_node node;
	unsigned long key;
	int seen;
};

static struct item *to_item(const struct lt_lfht_node *n)
{
	return container_of(n, struct item, node);
}

static bool match_key(const struct lt_lfht_node *node, const void *key)
{
	return to_item(node)->key == *(const unsigned long *)key;
}

/* A mixing hash, and a degenerate one that puts every key on one hash. */
static unsigned long hash_mix(unsigned long k)
{
	return lt_test_hash(k);
}

static unsigned long (*hashf)(unsigned long) = hash_mix;

static unsigned long hash_const(unsigned long k)
{
	(void)k;
	return 0x1234;
}

static struct item *new_item(unsigned long key)
{
	struct item *it = calloc(1, sizeof(*it));

	if (!it)
		abort();
	it->key = key;
	return it;
}

static struct item *lookup(struct lt_lfht *ht, unsigned long key)
{
	struct lt_lfht_iter iter;
	struct lt_lfht_node *n;

	rcu_read_lock();
	lt_lfht_lookup(ht, hashf(key), match_key, &key, &iter);
	n = lt_lfht_iter_get_node(&iter);
	rcu_read_unlock();
	return n ? to_item(n) : NULL;
}

static void add(struct lt_lfht *ht, struct item *it)
{
	rcu_read_lock();
	lt_lfht_add(ht, hashf(it->key), &it->node);
	rcu_read_unlock();
}

static int del(struct lt_lfht *ht, struct item *it)
{
	int ret;

	rcu_read_lock();
	ret = lt_lfht_del(ht, &it->node);
	rcu_read_unlock();
	return ret;
}

/* Number of live nodes seen by a full traversal; marks them ->seen. */
static unsigned long count_all(struct lt_lfht *ht, bool *sorted)
{
	struct lt_lfht_iter iter;
	struct lt_lfht_node *n;
	unsigned long nr = 0, last = 0;

	*sorted = true;
	rcu_read_lock();
	lt_lfht_for_each(ht, &iter, n) {
		if (n->reverse_hash < last)
			*sorted = false;
		last = n->reverse_hash;
		to_item(n)->seen++;
		nr++;
	}
	rcu_read_unlock();
	return nr;
}

static void test_args(void)
{
	struct lt_lfht *ht;

	tap_ok(!lt_lfht_new(0, 16), "new: 0 buckets refused");
	tap_ok(!lt_lfht_new(3, 16), "new: non power of two refused");
	tap_ok(!lt_lfht_new(16, 8), "new: nr_buckets > max_buckets refused");
	tap_ok(!lt_lfht_new(16, 24), "new: max not a power of two refused");
	tap_ok(!lt_lfht_new(1, 1UL << 40), "new: absurd max_buckets refused");
	ht = lt_lfht_new(1, 1UL << 20);
	tap_ok(ht != NULL, "new: large max_buckets, small initial size");
	tap_eq(lt_lfht_destroy(ht), 0, "destroy it");
	ht = lt_lfht_new(1, 1);
	tap_ok(ht != NULL, "new: 1 bucket");
	tap_eq(lt_lfht_nr_buckets(ht), 1, "nr_buckets of a 1-bucket table");
	tap_eq(lt_lfht_resize(ht, 2), (unsigned long)-EINVAL,
	       "resize beyond max_buckets refused");
	tap_eq(lt_lfht_resize(ht, 0), (unsigned long)-EINVAL, "resize to 0 refused");
	tap_eq(lt_lfht_destroy(ht), 0, "destroy empty table");
}

#define N_BASIC 2000

static void test_basic(unsigned long nr_buckets)
{
	struct lt_lfht *ht = lt_lfht_new(nr_buckets, nr_buckets);
	struct item *items[N_BASIC];
	unsigned long i, missing = 0, wrong = 0, delok = 0, enoent = 0;
	unsigned long k;
	bool sorted;

	for (i = 0; i < N_BASIC; i++) {
		items[i] = new_item(i * 7);
		add(ht, items[i]);
	}
	for (i = 0; i < N_BASIC; i++) {
		struct item *it = lookup(ht, i * 7);

		if (!it)
			missing++;
		else if (it != items[i])
			wrong++;
	}
	tap_ok(!missing && !wrong, "[%lu buckets] lookup finds each of %d keys (missing %lu, wrong %lu)",
	       nr_buckets, N_BASIC, missing, wrong);
	k = 5;
	tap_ok(!lookup(ht, k), "[%lu buckets] lookup of an absent key gives NULL",
	       nr_buckets);
	tap_eq(count_all(ht, &sorted), N_BASIC, "[%lu buckets] full iteration count",
	       nr_buckets);
	tap_ok(sorted, "[%lu buckets] iteration in reverse-hash order", nr_buckets);
	for (i = 0; i < N_BASIC; i++)
		if (items[i]->seen != 1)
			wrong++;
	tap_eq(wrong, 0, "[%lu buckets] iteration sees every node exactly once",
	       nr_buckets);

	tap_eq(lt_lfht_destroy(ht), (unsigned long)-EBUSY,
	       "[%lu buckets] destroy of a non-empty table gives -EBUSY", nr_buckets);
	tap_ok(lookup(ht, 0) == items[0], "[%lu buckets] table intact after -EBUSY",
	       nr_buckets);

	for (i = 0; i < N_BASIC; i += 2)
		if (del(ht, items[i]) == 0)
			delok++;
	tap_eq(delok, N_BASIC / 2, "[%lu buckets] del of half the keys", nr_buckets);
	for (i = 0; i < N_BASIC; i += 2) {
		if (del(ht, items[i]) == -ENOENT)
			enoent++;
		if (!lt_lfht_is_node_deleted(&items[i]->node))
			wrong++;
	}
	tap_eq(enoent, N_BASIC / 2, "[%lu buckets] second del gives -ENOENT", nr_buckets);
	tap_eq(wrong, 0, "[%lu buckets] deleted nodes report deleted", nr_buckets);
	missing = wrong = 0;
	for (i = 0; i < N_BASIC; i++) {
		struct item *it = lookup(ht, i * 7);

		if (i % 2 == 0 && it)
			wrong++;
		if (i % 2 == 1 && it != items[i])
			missing++;
		if (i % 2 == 1 && lt_lfht_is_node_deleted(&items[i]->node))
			wrong++;
	}
	tap_ok(!missing && !wrong, "[%lu buckets] deleted keys gone, others intact",
	       nr_buckets);
	tap_eq(count_all(ht, &sorted), N_BASIC / 2,
	       "[%lu buckets] iteration count after deletes", nr_buckets);
	for (i = 1; i < N_BASIC; i += 2)
		del(ht, items[i]);
	tap_eq(count_all(ht, &sorted), 0, "[%lu buckets] empty after deleting all",
	       nr_buckets);
	tap_eq(lt_lfht_destroy(ht), 0, "[%lu buckets] destroy after emptying",
	       nr_buckets);
	synchronize_rcu();
	for (i = 0; i < N_BASIC; i++)
		free(items[i]);
}

static void test_unique_replace(void)
{
	struct lt_lfht *ht = lt_lfht_new(8, 8);
	struct item *a = new_item(42), *b = new_item(42), *c = new_item(42);
	struct item *d = new_item(43), *e = new_item(42);
	struct lt_lfht_node *ret;
	unsigned long k = 42, nr;
	struct lt_lfht_iter iter;
	struct lt_lfht_node *n;

	rcu_read_lock();
	ret = lt_lfht_add_unique(ht, hashf(42), match_key, &k, &a->node);
	tap_ok(ret == &a->node, "add_unique on an absent key adds the node");
	ret = lt_lfht_add_unique(ht, hashf(42), match_key, &k, &b->node);
	tap_ok(ret == &a->node, "add_unique on a present key returns the existing node");
	nr = 0;
	lt_lfht_for_each_duplicate(ht, hashf(42), match_key, &k, &iter, n)
		nr++;
	tap_eq(nr, 1, "add_unique did not add a duplicate");

	ret = lt_lfht_add_replace(ht, hashf(42), match_key, &k, &c->node);
	tap_ok(ret == &a->node, "add_replace returns the replaced node");
	tap_ok(lt_lfht_is_node_deleted(&a->node), "replaced node is deleted");
	tap_ok(!lt_lfht_is_node_deleted(&c->node), "replacing node is live");
	tap_eq(lt_lfht_del(ht, &a->node), (unsigned long)-ENOENT,
	       "del of the replaced node gives -ENOENT");
	lt_lfht_lookup(ht, hashf(42), match_key, &k, &iter);
	tap_ok(lt_lfht_iter_get_node(&iter) == &c->node, "lookup finds the new node");
	nr = 0;
	lt_lfht_for_each_duplicate(ht, hashf(42), match_key, &k, &iter, n)
		nr++;
	tap_eq(nr, 1, "one node for the key after replace");

	k = 43;
	ret = lt_lfht_add_replace(ht, hashf(43), match_key, &k, &d->node);
	tap_ok(ret == NULL, "add_replace on an absent key returns NULL");
	lt_lfht_lookup(ht, hashf(43), match_key, &k, &iter);
	tap_ok(lt_lfht_iter_get_node(&iter) == &d->node, "... and adds the node");

	/* add_replace after del of the only match: plain insertion. */
	tap_eq(lt_lfht_del(ht, &c->node), 0, "del of the current node");
	k = 42;
	ret = lt_lfht_add_replace(ht, hashf(42), match_key, &k, &e->node);
	tap_ok(ret == NULL, "add_replace after del returns NULL");
	tap_eq(lt_lfht_del(ht, &e->node), 0, "del e");
	tap_eq(lt_lfht_del(ht, &d->node), 0, "del d");
	rcu_read_unlock();
	tap_eq(lt_lfht_destroy(ht), 0, "destroy");
	synchronize_rcu();
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

/*
 * Duplicates, with every key on the same hash so that the run of equal
 * reverse hashes mixes keys: only matching nodes come back, in insertion
 * order, and add_unique/add_replace look at the whole run.
 */
static void test_duplicates(void)
{
	struct lt_lfht *ht = lt_lfht_new(4, 4);
	struct item *it[12], *u, *r;
	struct lt_lfht_iter iter;
	struct lt_lfht_node *n, *ret;
	unsigned long k, i, nr, order_ok = 1;

	hashf = hash_const;
	for (i = 0; i < 12; i++) {
		it[i] = new_item(i % 3);	/* keys 0,1,2,0,1,2,... */
		add(ht, it[i]);
	}
	rcu_read_lock();
	for (k = 0; k < 3; k++) {
		nr = 0;
		lt_lfht_for_each_duplicate(ht, hashf(k), match_key, &k, &iter, n) {
			if (n != &it[k + 3 * nr]->node)
				order_ok = 0;
			nr++;
		}
		tap_eq(nr, 4, "key %lu: 4 duplicates found", k);
	}
	tap_ok(order_ok, "duplicates come back in insertion order, only matching ones");

	k = 2;
	u = new_item(2);
	ret = lt_lfht_add_unique(ht, hashf(2), match_key, &k, &u->node);
	tap_ok(ret == &it[2]->node, "add_unique in a mixed run returns the first match");
	k = 7;
	u->key = 7;
	ret = lt_lfht_add_unique(ht, hashf(7), match_key, &k, &u->node);
	tap_ok(ret == &u->node, "add_unique of a new key sharing the hash adds it");
	lt_lfht_lookup(ht, hashf(7), match_key, &k, &iter);
	tap_ok(lt_lfht_iter_get_node(&iter) == &u->node, "new key found");

	/* Delete the middle duplicates of key 1 while iterating over them. */
	k = 1;
	nr = 0;
	lt_lfht_for_each_duplicate(ht, hashf(k), match_key, &k, &iter, n) {
		if (nr == 1 || nr == 2)
			tap_eq(lt_lfht_del(ht, n), 0, "del duplicate %lu during iteration", nr);
		nr++;
	}
	tap_eq(nr, 4, "iteration over duplicates survives deleting them");
	nr = 0;
	lt_lfht_for_each_duplicate(ht, hashf(k), match_key, &k, &iter, n)
		nr++;
	tap_eq(nr, 2, "2 duplicates of key 1 left");

	/* add_replace replaces the first match of the run, in place. */
	k = 0;
	r = new_item(0);
	ret = lt_lfht_add_replace(ht, hashf(0), match_key, &k, &r->node);
	tap_ok(ret == &it[0]->node, "add_replace in a mixed run replaces the first match");
	nr = 0;
	order_ok = 1;
	lt_lfht_for_each_duplicate(ht, hashf(k), match_key, &k, &iter, n) {
		if (n != (nr ? &it[3 * nr]->node : &r->node))
			order_ok = 0;
		nr++;
	}
	tap_ok(nr == 4 && order_ok, "replacing node took the replaced one's place");
	rcu_read_unlock();

	/* Drain: every live node exactly once, then the table is empty. */
	nr = 0;
	rcu_read_lock();
	lt_lfht_for_each(ht, &iter, n) {
		if (lt_lfht_del(ht, n) == 0)
			nr++;
	}
	rcu_read_unlock();
	/* 12 added, 2 deleted, key 7 added, it[0] replaced by r: 11 live. */
	tap_eq(nr, 11, "drain by iteration deletes every live node");
	tap_eq(lt_lfht_destroy(ht), 0, "destroy after drain");
	synchronize_rcu();
	for (i = 0; i < 12; i++)
		free(it[i]);
	free(u);
	free(r);
	hashf = hash_mix;
}

#define N_RESIZE 5000

static void check_contents(struct lt_lfht *ht, struct item **items,
			   const char *what)
{
	unsigned long i, bad = 0;
	bool sorted;

	for (i = 0; i < N_RESIZE; i++) {
		items[i]->seen = 0;
		if (lookup(ht, items[i]->key) != items[i])
			bad++;
	}
	tap_eq(bad, 0, "%s: every key found", what);
	tap_eq(count_all(ht, &sorted), N_RESIZE, "%s: iteration count", what);
	for (i = 0; i < N_RESIZE; i++)
		if (items[i]->seen != 1)
			bad++;
	tap_ok(sorted && !bad, "%s: iteration sorted, each node once", what);
}

/* Whether a lookup of @key finds @want (NULL: finds nothing). */
static bool finds(struct lt_lfht *ht, unsigned long key, struct item *want)
{
	struct item *got = lookup(ht, key);

	return got == want;
}

/*
 * lt_lfht_del_found(): from a lookup's position, with the predecessor
 * unchanged (one cmpxchg), after the predecessor was deleted meanwhile
 * (falls back to walking), on a node deleted meanwhile (-ENOENT), and from
 * a next_duplicate position.  Every key on one hash, so that the nodes
 * follow each other on the list.
 */
static void test_del_found(void)
{
	struct lt_lfht *ht = lt_lfht_new(4, 4);
	struct item *a = new_item(1), *b = new_item(2), *c = new_item(3);
	struct item *d = new_item(4), *e1 = new_item(5), *e2 = new_item(5);
	struct lt_lfht_iter iter;
	unsigned long k;
	bool sorted;

	hashf = hash_const;
	add(ht, a);
	add(ht, b);
	add(ht, c);
	add(ht, d);
	add(ht, e1);
	add(ht, e2);

	rcu_read_lock();
	k = 2;
	lt_lfht_lookup(ht, hashf(k), match_key, &k, &iter);
	tap_ok(iter.node == &b->node && iter.prev == &a->node,
	       "lookup of b: found, through a");
	tap_eq(lt_lfht_del_found(ht, &iter), 0, "del_found of b");
	tap_ok(a->node.next == &c->node, "b unlinked from a directly");
	rcu_read_unlock();
	tap_ok(finds(ht, 2, NULL) && finds(ht, 1, a) && finds(ht, 3, c),
	       "b gone, its neighbours found");

	rcu_read_lock();
	k = 3;
	lt_lfht_lookup(ht, hashf(k), match_key, &k, &iter);
	tap_ok(iter.node == &c->node && iter.prev == &a->node,
	       "lookup of c: found, through a");
	tap_eq(lt_lfht_del(ht, &a->node), 0, "its predecessor a deleted meanwhile");
	tap_eq(lt_lfht_del_found(ht, &iter), 0, "del_found of c still succeeds");
	rcu_read_unlock();
	tap_ok(finds(ht, 3, NULL) && finds(ht, 1, NULL) && finds(ht, 4, d),
	       "c and a gone, d found");
	tap_eq(count_all(ht, &sorted), 3, "traversal: d, e1, e2 left");
	tap_ok(sorted, "list still sorted");

	rcu_read_lock();
	k = 4;
	lt_lfht_lookup(ht, hashf(k), match_key, &k, &iter);
	tap_eq(lt_lfht_del(ht, &d->node), 0, "d deleted by node after the lookup");
	tap_eq(lt_lfht_del_found(ht, &iter), (unsigned long)-ENOENT,
	       "del_found of d gives -ENOENT");

	k = 5;
	lt_lfht_lookup(ht, hashf(k), match_key, &k, &iter);
	tap_ok(iter.node == &e1->node, "lookup of key 5: first duplicate");
	lt_lfht_next_duplicate(ht, match_key, &k, &iter);
	tap_ok(iter.node == &e2->node && iter.prev == &e1->node,
	       "next_duplicate: second one, through the first");
	tap_eq(lt_lfht_del_found(ht, &iter), 0, "del_found of the second duplicate");
	rcu_read_unlock();
	tap_ok(finds(ht, 5, e1), "the first duplicate stays");
	tap_eq(count_all(ht, &sorted), 1, "traversal: only e1 left");

	rcu_read_lock();
	lt_lfht_first(ht, &iter);
	tap_eq(lt_lfht_del_found(ht, &iter), 0,
	       "del_found from a traversal position (walks)");
	rcu_read_unlock();
	tap_eq(count_all(ht, &sorted), 0, "table empty");
	tap_eq(lt_lfht_destroy(ht), 0, "destroy");
	hashf = hash_mix;
	synchronize_rcu();
	free(a);
	free(b);
	free(c);
	free(d);
	free(e1);
	free(e2);
}

static void test_resize(void)
{
	struct lt_lfht *ht = lt_lfht_new(4, 1024);
	struct item *items[N_RESIZE];
	unsigned long i;

	for (i = 0; i < N_RESIZE; i++) {
		items[i] = new_item(i * 3 + 1);
		add(ht, items[i]);
	}
	check_contents(ht, items, "initial 4 buckets");
	tap_eq(lt_lfht_resize(ht, 2048), (unsigned long)-EINVAL, "resize above max refused");
	tap_eq(lt_lfht_resize(ht, 96), (unsigned long)-EINVAL, "resize to non power of two refused");
	tap_eq(lt_lfht_nr_buckets(ht), 4, "refused resizes left the size");
	tap_eq(lt_lfht_resize(ht, 1024), 0, "grow 4 -> 1024");
	tap_eq(lt_lfht_nr_buckets(ht), 1024, "nr_buckets 1024");
	check_contents(ht, items, "grown to 1024");
	tap_eq(lt_lfht_resize(ht, 1024), 0, "resize to the same size");
	tap_eq(lt_lfht_resize(ht, 1), 0, "shrink 1024 -> 1 (below the initial size)");
	tap_eq(lt_lfht_nr_buckets(ht), 1, "nr_buckets 1");
	check_contents(ht, items, "shrunk to 1");
	tap_eq(lt_lfht_resize(ht, 256), 0, "grow 1 -> 256");
	check_contents(ht, items, "grown to 256");
	tap_eq(lt_lfht_resize(ht, 16), 0, "shrink 256 -> 16");
	check_contents(ht, items, "shrunk to 16");
	for (i = 0; i < N_RESIZE; i += 2)
		del(ht, items[i]);
	tap_eq(lt_lfht_resize(ht, 512), 0, "grow 16 -> 512 after deleting half");
	for (i = 1; i < N_RESIZE; i += 2)
		if (lookup(ht, items[i]->key) != items[i])
			break;
	tap_ok(i >= N_RESIZE, "remaining half intact after grow");
	tap_eq(ht->nr_chunks, 1,
	       "one chunk of buckets: the growths after a shrink reused it");
	{
		/* Every bucket node is found by its address (lfht_cmp()). */
		unsigned long b, bad = 0;

		for (b = 0; b < 512; b++)
			if (lfht_cmp(ht, lfht_bucket(ht, b), lfht_bitrev(b), b))
				bad++;
		tap_eq(bad, 0, "every bucket compares equal to its index");
	}
	tap_eq(lt_lfht_destroy(ht), (unsigned long)-EBUSY, "destroy non-empty grown table: -EBUSY");
	for (i = 1; i < N_RESIZE; i += 2)
		del(ht, items[i]);
	tap_eq(lt_lfht_destroy(ht), 0, "destroy the emptied grown table");
	synchronize_rcu();
	for (i = 0; i < N_RESIZE; i++)
		free(items[i]);
}

int main(void)
{
	tap_plan(136);
	rcu_register_thread();
	test_args();
	test_basic(1);
	test_basic(64);
	test_basic(4096);
	test_unique_replace();
	test_duplicates();
	test_del_found();
	test_resize();
	rcu_unregister_thread();
	return tap_done();
}
