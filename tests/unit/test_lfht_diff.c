// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_lfht_diff.c - randomized, concurrent differential test of the
 * lock-free hash table (tracker/lfht.c) against liburcu's cds_lfht.
 *
 * Every item carries one node for each table.  Two worker threads apply
 * the same random operations to both tables and compare what they see:
 *
 *  - own range: each worker owns a disjoint key range (pairs of keys share
 *    a hash, so runs of equal hashes mix keys).  The results there depend
 *    only on the seed, so both tables must return the very same items, in
 *    the same order, and match a per-thread model.
 *  - shared range: both workers race add_unique / add_replace / lookup+del
 *    on a few keys of our table.  Checked: a deleted or replaced node has
 *    exactly one winner, a single lookup never sees two nodes of one key,
 *    and every published node is won exactly once by the end.
 *
 * Meanwhile a third thread resizes both tables up and down.  A final phase
 * makes both workers delete the same nodes at the same time.  Deleted
 * items are freed after a grace period, so ASan catches a node still
 * reachable after lt_lfht_del() returned, and TSan any missing ordering.
 *
 * The seed is printed; LT_SEED=<n> replays it.  LT_DIFF_OPS=<n> sets the
 * operations per worker (default: 500000, fewer under TSan).
 */
#include "lt_env.h"
#include "lfht.h"
#include "lfht_test_util.h"
#include "tap.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <urcu/rculfhash.h>


#if defined(__SANITIZE_THREAD__)
#define DEFAULT_OPS	250000UL
#else
#define DEFAULT_OPS	500000UL
#endif

#define NR_WORKERS	2
#define OWN_KEYS	512	/* per worker; keys 2k and 2k+1 share a hash */
#define DUP_MAX		3	/* duplicates per key kept by the model */
#define SHARED_KEYS	32
#define MAX_BUCKETS	4096UL
#define RETIRE_BATCH	512
#define RACE_ITEMS	20000

struct ditem {
	struct lt_lfht_node lt;
	struct cds_lfht_node cds;
	unsigned long key;
	bool in_lt, in_cds;	/* written by the thread that owns the item */
	bool drained;
	unsigned int lt_owners;	/* atomic: winners of its deletion (ours) */
	unsigned int cds_owners;	/* atomic: same, cds_lfht */
};

static struct lt_lfht *lt;
static struct cds_lfht *cds;
static uint64_t seed;
static unsigned long ops_per_worker;

static unsigned long failures;		/* atomic */
static unsigned long shared_published;	/* atomic */
static unsigned long shared_won;	/* atomic */
static bool stop_resizer;		/* atomic */
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static char first_failure[256];

static __attribute__((format(printf, 1, 2))) void fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&failures, 1, __ATOMIC_SEQ_CST) == 0) {
		pthread_mutex_lock(&fail_lock);
		va_start(ap, fmt);
		vsnprintf(first_failure, sizeof(first_failure), fmt, ap);
		va_end(ap);
		pthread_mutex_unlock(&fail_lock);
	}
}

static bool failed(void)
{
	return __atomic_load_n(&failures, __ATOMIC_RELAXED) != 0;
}

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static unsigned long hash_of(unsigned long key)
{
	return lt_test_hash(key >> 1);	/* pairs of keys share a hash */
}

static bool lt_match(const struct lt_lfht_node *node, const void *key)
{
	return container_of(node, struct ditem, lt)->key ==
	       *(const unsigned long *)key;
}

static int cds_match(struct cds_lfht_node *node, const void *key)
{
	return container_of(node, struct ditem, cds)->key ==
	       *(const unsigned long *)key;
}

static struct ditem *lt_item(struct lt_lfht_node *n)
{
	return n ? container_of(n, struct ditem, lt) : NULL;
}

static struct ditem *cds_item(struct cds_lfht_node *n)
{
	return n ? container_of(n, struct ditem, cds) : NULL;
}

static struct ditem *new_item(unsigned long key)
{
	struct ditem *it = calloc(1, sizeof(*it));

	if (!it)
		abort();
	it->key = key;
	return it;
}

/* Per-thread deferred free: items wait for a grace period in batches. */
struct retire {
	struct ditem *items[RETIRE_BATCH];
	unsigned int nr;
};

static void retire_flush(struct retire *r)
{
	unsigned int i;

	synchronize_rcu();
	for (i = 0; i < r->nr; i++)
		free(r->items[i]);
	r->nr = 0;
}

/* Called outside any read-side critical section. */
static void retire(struct retire *r, struct ditem *it)
{
	r->items[r->nr++] = it;
	if (r->nr == RETIRE_BATCH)
		retire_flush(r);
}

/* All live nodes of @key, in table order, at most @max (+1 to see excess). */
static int chain_lt(unsigned long key, struct ditem **out, int max)
{
	struct lt_lfht_iter iter;
	struct lt_lfht_node *n;
	int nr = 0;

	lt_lfht_for_each_duplicate(lt, hash_of(key), lt_match, &key, &iter, n) {
		if (nr == max)
			return nr + 1;
		out[nr++] = lt_item(n);
	}
	return nr;
}

static int chain_cds(unsigned long key, struct ditem **out, int max)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	int nr = 0;

	cds_lfht_lookup(cds, hash_of(key), cds_match, &key, &iter);
	while ((n = cds_lfht_iter_get_node(&iter))) {
		if (nr == max)
			return nr + 1;
		out[nr++] = cds_item(n);
		cds_lfht_next_duplicate(cds, cds_match, &key, &iter);
	}
	return nr;
}

struct model_key {
	struct ditem *items[DUP_MAX];
	int nr;
};

struct worker {
	int id;
	pthread_t tid;
	uint64_t rng;
	unsigned long base;		/* first own key */
	struct model_key model[OWN_KEYS];
	unsigned long live;		/* own items in the model */
	struct retire retire;
	unsigned long nr_ops, nr_shared;
	unsigned long del_race_won_lt, del_race_won_cds;
};

static void model_remove(struct model_key *m, int i)
{
	for (; i < m->nr - 1; i++)
		m->items[i] = m->items[i + 1];
	m->nr--;
}

/* Compare one key's chain in both tables with the model. */
static void check_key(struct worker *w, unsigned long key, unsigned long op)
{
	struct model_key *m = &w->model[key - w->base];
	struct ditem *a[DUP_MAX + 1], *b[DUP_MAX + 1];
	int na, nb, i;

	rcu_read_lock();
	na = chain_lt(key, a, DUP_MAX);
	nb = chain_cds(key, b, DUP_MAX);
	rcu_read_unlock();
	if (na != m->nr || nb != m->nr) {
		fail("worker %d op %lu key %lu: %d nodes in lfht, %d in cds_lfht, model %d",
		     w->id, op, key, na, nb, m->nr);
		return;
	}
	for (i = 0; i < na; i++)
		if (a[i] != m->items[i] || b[i] != m->items[i])
			fail("worker %d op %lu key %lu: duplicate %d differs",
			     w->id, op, key, i);
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;

	return x < y ? -1 : x > y;
}

/* Whether @d is one of the @nr sorted pointers of @own (@d not dereferenced). */
static bool is_own(struct ditem **own, unsigned long nr, struct ditem *d)
{
	return bsearch(&d, own, nr, sizeof(*own), ptr_cmp) != NULL;
}

/*
 * Full traversal of both tables: every own item seen exactly once, and our
 * table in reverse-hash order.  Items are recognised by address, so the
 * other worker's items are never dereferenced here: cds_lfht publishes
 * them through liburcu's uninstrumented atomics, which TSan cannot see.
 */
static void check_traversal(struct worker *w, unsigned long op)
{
	static __thread struct ditem *own[OWN_KEYS * DUP_MAX];
	struct lt_lfht_iter it;
	struct cds_lfht_iter cit;
	struct lt_lfht_node *n;
	struct cds_lfht_node *cn;
	unsigned long nlt = 0, ncds = 0, last = 0, nr = 0, k;
	bool sorted = true;
	int i;

	for (k = 0; k < OWN_KEYS; k++)
		for (i = 0; i < w->model[k].nr; i++)
			own[nr++] = w->model[k].items[i];
	qsort(own, nr, sizeof(*own), ptr_cmp);

	rcu_read_lock();
	lt_lfht_for_each(lt, &it, n) {
		if (n->reverse_hash < last)
			sorted = false;
		last = n->reverse_hash;
		nlt += is_own(own, nr, lt_item(n));
	}
	cds_lfht_for_each(cds, &cit, cn)
		ncds += is_own(own, nr, cds_item(cn));
	rcu_read_unlock();
	if (!sorted)
		fail("worker %d op %lu: traversal not in reverse-hash order",
		     w->id, op);
	if (nlt != w->live || ncds != w->live)
		fail("worker %d op %lu: traversal saw %lu own nodes in lfht, %lu in cds_lfht, model %lu",
		     w->id, op, nlt, ncds, w->live);
}

static void own_op(struct worker *w, unsigned long op)
{
	unsigned long key = w->base + rnd(&w->rng) % OWN_KEYS;
	struct model_key *m = &w->model[key - w->base];
	unsigned int kind = rnd(&w->rng) % 100;
	unsigned long h = hash_of(key);
	struct ditem *it, *x, *y;
	struct cds_lfht_node *cn;
	struct lt_lfht_node *ln;
	int i, ra, rb;

	if (kind < 22 && m->nr < DUP_MAX) {			/* add */
		it = new_item(key);
		it->in_lt = it->in_cds = true;
		rcu_read_lock();
		lt_lfht_add(lt, h, &it->lt);
		cds_lfht_add(cds, h, &it->cds);
		rcu_read_unlock();
		m->items[m->nr++] = it;
		w->live++;
	} else if (kind < 36) {					/* add_unique */
		it = new_item(key);
		rcu_read_lock();
		x = lt_item(lt_lfht_add_unique(lt, h, lt_match, &key, &it->lt));
		y = cds_item(cds_lfht_add_unique(cds, h, cds_match, &key, &it->cds));
		rcu_read_unlock();
		it->in_lt = x == it;
		it->in_cds = y == it;
		if (x != y || x != (m->nr ? m->items[0] : it)) {
			fail("worker %d op %lu key %lu: add_unique returned %p (lfht) %p (cds_lfht), model %p",
			     w->id, op, key, (void *)x, (void *)y,
			     (void *)(m->nr ? m->items[0] : it));
			return;
		}
		if (x == it) {
			m->items[m->nr++] = it;
			w->live++;
		} else {
			free(it);	/* never published */
		}
	} else if (kind < 50) {					/* add_replace */
		it = new_item(key);
		it->in_lt = it->in_cds = true;
		rcu_read_lock();
		ln = lt_lfht_add_replace(lt, h, lt_match, &key, &it->lt);
		cn = cds_lfht_add_replace(cds, h, cds_match, &key, &it->cds);
		x = lt_item(ln);
		y = cds_item(cn);
		if (x && !lt_lfht_is_node_deleted(&x->lt))
			fail("worker %d op %lu: node replaced in lfht not deleted",
			     w->id, op);
		rcu_read_unlock();
		if (x != y || x != (m->nr ? m->items[0] : NULL)) {
			fail("worker %d op %lu key %lu: add_replace returned %p (lfht) %p (cds_lfht)",
			     w->id, op, key, (void *)x, (void *)y);
			return;
		}
		if (x) {
			m->items[0] = it;
			x->in_lt = x->in_cds = false;
			retire(&w->retire, x);
		} else {
			m->items[m->nr++] = it;
			w->live++;
		}
	} else if (kind < 72) {					/* del */
		if (!m->nr)
			goto lookup;
		i = rnd(&w->rng) % m->nr;
		it = m->items[i];
		rcu_read_lock();
		ra = lt_lfht_del(lt, &it->lt);
		rb = cds_lfht_del(cds, &it->cds);
		rcu_read_unlock();
		if (ra || rb) {
			fail("worker %d op %lu key %lu: del returned %d (lfht) %d (cds_lfht)",
			     w->id, op, key, ra, rb);
			return;
		}
		/* A second del must fail in both (before the grace period). */
		if (rnd(&w->rng) % 8 == 0) {
			rcu_read_lock();
			ra = lt_lfht_del(lt, &it->lt);
			rb = cds_lfht_del(cds, &it->cds);
			rcu_read_unlock();
			if (ra != -ENOENT || rb != -ENOENT)
				fail("worker %d op %lu: second del returned %d (lfht) %d (cds_lfht)",
				     w->id, op, ra, rb);
		}
		it->in_lt = it->in_cds = false;
		model_remove(m, i);
		w->live--;
		retire(&w->retire, it);
	} else {
lookup:
		check_key(w, key, op);
	}
}

static void shared_claim(struct ditem *it, const char *how)
{
	if (__atomic_fetch_add(&it->lt_owners, 1, __ATOMIC_SEQ_CST) != 0)
		fail("shared key %lu: second winner (%s)", it->key, how);
	__atomic_fetch_add(&shared_won, 1, __ATOMIC_SEQ_CST);
}

static void shared_op(struct worker *w, unsigned long op)
{
	unsigned long key = rnd(&w->rng) % SHARED_KEYS;
	unsigned long h = hash_of(key);
	struct ditem *it, *x, *chain[3];
	struct lt_lfht_iter iter;
	struct lt_lfht_node *n;
	int nr;

	switch (rnd(&w->rng) % 4) {
	case 0:
		it = new_item(key);
		rcu_read_lock();
		x = lt_item(lt_lfht_add_unique(lt, h, lt_match, &key, &it->lt));
		rcu_read_unlock();
		if (x == it)
			__atomic_fetch_add(&shared_published, 1, __ATOMIC_SEQ_CST);
		else
			free(it);
		break;
	case 1:
		it = new_item(key);
		rcu_read_lock();
		x = lt_item(lt_lfht_add_replace(lt, h, lt_match, &key, &it->lt));
		__atomic_fetch_add(&shared_published, 1, __ATOMIC_SEQ_CST);
		if (x) {
			if (x->key != key)
				fail("worker %d op %lu: replaced a node of key %lu for key %lu",
				     w->id, op, x->key, key);
			shared_claim(x, "add_replace");
		}
		rcu_read_unlock();
		if (x)
			retire(&w->retire, x);
		break;
	case 2:
		rcu_read_lock();
		lt_lfht_lookup(lt, h, lt_match, &key, &iter);
		n = lt_lfht_iter_get_node(&iter);
		x = NULL;
		/* Both deletions: by node, and from the lookup's position. */
		if (n && (op & 1 ? lt_lfht_del_found(lt, &iter) :
			  lt_lfht_del(lt, n)) == 0) {
			x = lt_item(n);
			shared_claim(x, op & 1 ? "del_found" : "del");
		}
		rcu_read_unlock();
		if (x)
			retire(&w->retire, x);
		break;
	default:
		rcu_read_lock();
		nr = chain_lt(key, chain, 1);
		rcu_read_unlock();
		if (nr > 1)
			fail("worker %d op %lu: one lookup saw two nodes of unique shared key %lu",
			     w->id, op, key);
		break;
	}
}

static pthread_barrier_t start_barrier;

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned long op;

	rcu_register_thread();
	pthread_barrier_wait(&start_barrier);
	for (op = 0; op < ops_per_worker && !failed(); op++) {
		if (rnd(&w->rng) % 8 == 0) {
			shared_op(w, op);
			w->nr_shared++;
		} else {
			own_op(w, op);
		}
		if (op % 8192 == 8191)
			check_traversal(w, op);
	}
	w->nr_ops = op;
	if (!failed())
		check_traversal(w, op);
	retire_flush(&w->retire);
	rcu_unregister_thread();
	return NULL;
}

static unsigned long nr_resizes;

static void *resizer_main(void *arg)
{
	uint64_t rng = seed ^ 0x5eed;
	unsigned long n;
	int ret;

	(void)arg;
	rcu_register_thread();
	while (!__atomic_load_n(&stop_resizer, __ATOMIC_ACQUIRE)) {
		n = 1UL << (rnd(&rng) % 13);	/* 1 .. 4096 */
		ret = lt_lfht_resize(lt, n);
		if (ret)
			fail("lt_lfht_resize(%lu) returned %d", n, ret);
		else if (lt_lfht_nr_buckets(lt) != n)
			fail("lt_lfht_resize(%lu) left %lu buckets", n,
			     lt_lfht_nr_buckets(lt));
		cds_lfht_resize(cds, 1UL << (rnd(&rng) % 13));
		nr_resizes++;
	}
	rcu_unregister_thread();
	return NULL;
}

/* Both workers delete the same nodes, in the same order, at once. */
static struct ditem **race_items;

static void *racer_main(void *arg)
{
	struct worker *w = arg;
	unsigned long i;

	rcu_register_thread();
	pthread_barrier_wait(&start_barrier);
	for (i = 0; i < RACE_ITEMS; i++) {
		struct ditem *it = race_items[i];

		rcu_read_lock();
		if (lt_lfht_del(lt, &it->lt) == 0) {
			__atomic_fetch_add(&it->lt_owners, 1, __ATOMIC_SEQ_CST);
			w->del_race_won_lt++;
		}
		if (cds_lfht_del(cds, &it->cds) == 0) {
			__atomic_fetch_add(&it->cds_owners, 1, __ATOMIC_SEQ_CST);
			w->del_race_won_cds++;
		}
		rcu_read_unlock();
	}
	rcu_unregister_thread();
	return NULL;
}

static void start_resizer(pthread_t *tid)
{
	__atomic_store_n(&stop_resizer, false, __ATOMIC_RELEASE);
	if (pthread_create(tid, NULL, resizer_main, NULL))
		abort();
}

static void stop_resizer_thread(pthread_t tid)
{
	__atomic_store_n(&stop_resizer, true, __ATOMIC_RELEASE);
	pthread_join(tid, NULL);
}

static void phase_race(struct worker *w)
{
	unsigned long i, bad_lt = 0, bad_cds = 0, won_lt = 0, won_cds = 0;
	pthread_t rtid;
	int t;

	race_items = calloc(RACE_ITEMS, sizeof(*race_items));
	if (!race_items)
		abort();
	rcu_read_lock();
	for (i = 0; i < RACE_ITEMS; i++) {
		struct ditem *it = new_item(3000000 + i);

		race_items[i] = it;
		lt_lfht_add(lt, hash_of(it->key), &it->lt);
		cds_lfht_add(cds, hash_of(it->key), &it->cds);
	}
	rcu_read_unlock();
	pthread_barrier_init(&start_barrier, NULL, NR_WORKERS);
	start_resizer(&rtid);
	for (t = 0; t < NR_WORKERS; t++)
		if (pthread_create(&w[t].tid, NULL, racer_main, &w[t]))
			abort();
	for (t = 0; t < NR_WORKERS; t++) {
		pthread_join(w[t].tid, NULL);
		won_lt += w[t].del_race_won_lt;
		won_cds += w[t].del_race_won_cds;
	}
	stop_resizer_thread(rtid);
	pthread_barrier_destroy(&start_barrier);
	for (i = 0; i < RACE_ITEMS; i++) {
		bad_lt += race_items[i]->lt_owners != 1;
		bad_cds += race_items[i]->cds_owners != 1;
	}
	tap_eq(bad_lt, 0, "del race: every node has exactly one winner in lfht (%lu/%lu won by worker 0)",
	       w[0].del_race_won_lt, won_lt);
	tap_eq(bad_cds, 0, "del race: every node has exactly one winner in cds_lfht");
	synchronize_rcu();
	for (i = 0; i < RACE_ITEMS; i++)
		free(race_items[i]);
	free(race_items);
}

/* Quiescent: drain both tables, check the shared accounting, free all. */
static void drain(void)
{
	struct lt_lfht_iter it;
	struct cds_lfht_iter cit;
	struct lt_lfht_node *n;
	struct cds_lfht_node *cn;
	struct ditem **list;
	unsigned long nr = 0, cap = 4096, i, errs = 0;

	list = malloc(cap * sizeof(*list));
	if (!list)
		abort();
	rcu_read_lock();
	lt_lfht_for_each(lt, &it, n) {
		struct ditem *d = lt_item(n);

		if (lt_lfht_del(lt, n)) {
			errs++;
			continue;
		}
		if (d->key < SHARED_KEYS)
			shared_claim(d, "drain");
		d->drained = true;
		if (nr == cap) {
			cap *= 2;
			list = realloc(list, cap * sizeof(*list));
			if (!list)
				abort();
		}
		list[nr++] = d;
	}
	cds_lfht_for_each(cds, &cit, cn) {
		struct ditem *d = cds_item(cn);

		if (cds_lfht_del(cds, cn)) {
			errs++;
			continue;
		}
		if (d->drained)
			continue;
		if (nr == cap) {
			cap *= 2;
			list = realloc(list, cap * sizeof(*list));
			if (!list)
				abort();
		}
		list[nr++] = d;
	}
	rcu_read_unlock();
	tap_eq(errs, 0, "drain: every node found by iteration deletes");
	tap_eq(__atomic_load_n(&shared_won, __ATOMIC_SEQ_CST),
	       __atomic_load_n(&shared_published, __ATOMIC_SEQ_CST),
	       "shared keys: every published node won exactly once");
	synchronize_rcu();
	for (i = 0; i < nr; i++)
		free(list[i]);
	free(list);
}

int main(void)
{
	static struct worker w[NR_WORKERS];
	const char *env;
	pthread_t rtid;
	unsigned long total = 0, shared = 0;
	struct timespec t0, t1;
	int t;

	tap_plan(8);
	env = getenv("LT_SEED");
	seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	if (!seed)
		seed = 1;
	env = getenv("LT_DIFF_OPS");
	ops_per_worker = env ? strtoul(env, NULL, 0) : DEFAULT_OPS;
	tap_diag("seed=%" PRIu64 " (replay: LT_SEED=%" PRIu64 "), %lu operations per worker, %d workers",
		 seed, seed, ops_per_worker, NR_WORKERS);

	rcu_register_thread();
	lt = lt_lfht_new(16, MAX_BUCKETS);
	cds = cds_lfht_new(16, 1, MAX_BUCKETS, 0, NULL);
	if (!lt || !cds)
		abort();

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (t = 0; t < NR_WORKERS; t++) {
		w[t].id = t;
		w[t].rng = seed * (t + 1) * 0x9e3779b97f4a7c15ULL + t;
		if (!w[t].rng)
			w[t].rng = 1;
		w[t].base = (unsigned long)(t + 1) << 20;
	}
	pthread_barrier_init(&start_barrier, NULL, NR_WORKERS);
	start_resizer(&rtid);
	for (t = 0; t < NR_WORKERS; t++)
		if (pthread_create(&w[t].tid, NULL, worker_main, &w[t]))
			abort();
	for (t = 0; t < NR_WORKERS; t++) {
		pthread_join(w[t].tid, NULL);
		total += w[t].nr_ops;
		shared += w[t].nr_shared;
	}
	stop_resizer_thread(rtid);
	pthread_barrier_destroy(&start_barrier);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	tap_diag("%lu operations (%lu on shared keys), %lu concurrent resizes, %.2f s",
		 total, shared, nr_resizes,
		 (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (failed())
		tap_diag("first failure: %s", first_failure);
	tap_eq(__atomic_load_n(&failures, __ATOMIC_SEQ_CST), 0,
	       "differential run: same results as cds_lfht, invariants hold");
	tap_eq(total, NR_WORKERS * ops_per_worker, "all operations ran");

	if (!failed())
		phase_race(w);
	drain();
	tap_eq(lt_lfht_destroy(lt), 0, "lt_lfht_destroy after drain");
	tap_eq(cds_lfht_destroy(cds, NULL), 0, "cds_lfht_destroy after drain");
	rcu_unregister_thread();
	return tap_done();
}
