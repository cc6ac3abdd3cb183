// SPDX-License-Identifier: GPL-2.0-only
/*
 * ht_bench.c - host benchmark of the tracker's hash table (tracker/lfht.c)
 * against liburcu's cds_lfht and a mutex-protected chained hash table, in
 * one process, side by side.
 *
 * Workloads (per thread, on its own keys; 4096 live keys in total):
 *   tracker   the tracker's pattern: each operation inserts a new key and
 *             looks up and deletes the oldest live one (event_in/event_out)
 *   lookup90  90% lookups of a random live key, 10% tracker operations
 *
 * Fairness: the same 64-bit mixing hash, the same 4096 buckets (no
 * resize), the same 128-byte preallocated items (per-thread pools, as the
 * tracker's slots), the same liburcu flavour (memb, read lock inlined) and
 * the same reclamation for both RCU tables: deleted items go to a
 * per-thread deferred list that is recycled after synchronize_rcu() every
 * DEFER_BATCH items.  The mutex table needs no grace period and reuses
 * items at once.  Runs are interleaved (implementation order rotates every
 * repetition) and the medians are reported.
 *
 * Usage: ht_bench [--json] [--reps N] [--ms N] [--no-pin]
 *                 [--only IMPL:WORKLOAD:THREADS]   (one configuration, for
 *                                                   perf/callgrind)
 */
#include "lt_env.h"
#include "lfht.h"
#include "lfht_test_util.h"

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <urcu/rculfhash.h>

#define LIVE_KEYS	4096UL
#define NR_BUCKETS	4096UL	/* roundup_pow_of_two(max_events) */
#define DEFER_BATCH	1024U
#define MAX_THREADS	2

/* One tracker slot: the hash node first, the key right after. */
struct bitem {
	union {
		struct lt_lfht_node lt;
		struct cds_lfht_node cds;
		struct bitem *mnext;
	};
	uint64_t key;
	struct bitem *pool_next;
	char payload[128 - 16 - 8 - 8];
} __attribute__((aligned(64)));

enum impl { IMPL_LT, IMPL_CDS, IMPL_MUTEX, NR_IMPLS };
static const char *const impl_name[NR_IMPLS] = { "lfht", "cds_lfht", "mutex" };

enum workload { WL_TRACKER, WL_LOOKUP90, NR_WORKLOADS };
static const char *const wl_name[NR_WORKLOADS] = { "tracker", "lookup90" };

static inline unsigned long hash_key(uint64_t k)
{
	return lt_test_hash(k);
}

static bool lt_match(const struct lt_lfht_node *node, const void *key)
{
	return container_of(node, struct bitem, lt)->key == *(const uint64_t *)key;
}

static int cds_match(struct cds_lfht_node *node, const void *key)
{
	return container_of(node, struct bitem, cds)->key == *(const uint64_t *)key;
}

/* The mutex-protected chained table. */
struct mtable {
	pthread_mutex_t lock;
	struct bitem **bucket;
	unsigned long mask;
};

static struct mtable *mt_new(unsigned long nr)
{
	struct mtable *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->bucket = calloc(nr, sizeof(*t->bucket));
	if (!t->bucket)
		abort();
	t->mask = nr - 1;
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

static void mt_free(struct mtable *t)
{
	pthread_mutex_destroy(&t->lock);
	free(t->bucket);
	free(t);
}

static inline void mt_add(struct mtable *t, unsigned long h, struct bitem *it)
{
	struct bitem **b = &t->bucket[h & t->mask];

	pthread_mutex_lock(&t->lock);
	it->mnext = *b;
	*b = it;
	pthread_mutex_unlock(&t->lock);
}

static inline struct bitem *mt_lookup(struct mtable *t, unsigned long h,
				      uint64_t key)
{
	struct bitem *it;

	pthread_mutex_lock(&t->lock);
	for (it = t->bucket[h & t->mask]; it && it->key != key; it = it->mnext)
		;
	pthread_mutex_unlock(&t->lock);
	return it;
}

static inline struct bitem *mt_lookup_del(struct mtable *t, unsigned long h,
					  uint64_t key)
{
	struct bitem **pp, *it;

	pthread_mutex_lock(&t->lock);
	for (pp = &t->bucket[h & t->mask]; (it = *pp) && it->key != key;
	     pp = &it->mnext)
		;
	if (it)
		*pp = it->mnext;
	pthread_mutex_unlock(&t->lock);
	return it;
}

/* The three tables of one run. */
static struct lt_lfht *lt;
static struct cds_lfht *cds;
static struct mtable *mt;

/* Per-thread item pool with deferred (after grace period) reuse. */
struct pool {
	struct bitem *slots;
	struct bitem *free;
	struct bitem *deferred;
	unsigned int ndeferred;
	double gp_secs, gp_cpu_secs;	/* time spent waiting for grace periods */
};

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pool_init(struct pool *p, unsigned long nr)
{
	unsigned long i;

	p->slots = aligned_alloc(64, nr * sizeof(struct bitem));
	if (!p->slots)
		abort();
	memset(p->slots, 0, nr * sizeof(struct bitem));
	p->free = NULL;
	for (i = nr; i-- > 0;) {
		p->slots[i].pool_next = p->free;
		p->free = &p->slots[i];
	}
	p->deferred = NULL;
	p->ndeferred = 0;
	p->gp_secs = p->gp_cpu_secs = 0;
}

static __attribute__((noinline)) void pool_refill(struct pool *p)
{
	double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);

	synchronize_rcu();
	p->free = p->deferred;
	p->deferred = NULL;
	p->ndeferred = 0;
	if (!p->free)
		abort();
	p->gp_cpu_secs += now(CLOCK_THREAD_CPUTIME_ID) - c0;
	p->gp_secs += now(CLOCK_MONOTONIC) - t0;
}

/* Outside any read-side critical section (may wait for a grace period). */
static inline struct bitem *pool_get(struct pool *p)
{
	struct bitem *it = p->free;

	if (unlikely(!it)) {
		pool_refill(p);
		it = p->free;
	}
	p->free = it->pool_next;
	return it;
}

static inline void pool_put_now(struct pool *p, struct bitem *it)
{
	it->pool_next = p->free;
	p->free = it;
}

static inline void pool_put_deferred(struct pool *p, struct bitem *it)
{
	it->pool_next = p->deferred;
	p->deferred = it;
	p->ndeferred++;
}

struct thread {
	pthread_t tid;
	int id, cpu;
	enum impl impl;
	enum workload wl;
	unsigned long live;		/* keys this thread keeps live */
	struct pool pool;
	struct bitem **ring;		/* live items, oldest at ring[head] */
	unsigned long head;
	uint64_t next_key, rng;
	unsigned long ops, misses;
	double secs, cpu_secs, gp_secs, gp_cpu_secs;
} __attribute__((aligned(128)));	/* no false sharing between threads */

static pthread_barrier_t barrier;
static unsigned long last_run_ops;	/* operations of the last run */
static volatile int stop_flag;
static bool pin = true;

static inline uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static __always_inline void tbl_add(enum impl impl, struct bitem *it)
{
	unsigned long h = hash_key(it->key);

	switch (impl) {
	case IMPL_LT:
		lt_lfht_add(lt, h, &it->lt);
		break;
	case IMPL_CDS:
		cds_lfht_add(cds, h, &it->cds);
		break;
	default:
		mt_add(mt, h, it);
		break;
	}
}

static __always_inline struct bitem *tbl_lookup(enum impl impl, uint64_t key)
{
	unsigned long h = hash_key(key);
	struct lt_lfht_iter it;
	struct cds_lfht_iter cit;
	struct lt_lfht_node *n;
	struct cds_lfht_node *cn;

	switch (impl) {
	case IMPL_LT:
		lt_lfht_lookup(lt, h, lt_match, &key, &it);
		n = lt_lfht_iter_get_node(&it);
		return n ? container_of(n, struct bitem, lt) : NULL;
	case IMPL_CDS:
		cds_lfht_lookup(cds, h, cds_match, &key, &cit);
		cn = cds_lfht_iter_get_node(&cit);
		return cn ? container_of(cn, struct bitem, cds) : NULL;
	default:
		return mt_lookup(mt, h, key);
	}
}

static __always_inline struct bitem *tbl_lookup_del(enum impl impl, uint64_t key)
{
	struct bitem *it;

	switch (impl) {
	case IMPL_LT:
		it = tbl_lookup(impl, key);
		if (it && lt_lfht_del(lt, &it->lt) == 0)
			return it;
		return NULL;
	case IMPL_CDS:
		it = tbl_lookup(impl, key);
		if (it && cds_lfht_del(cds, &it->cds) == 0)
			return it;
		return NULL;
	default:
		return mt_lookup_del(mt, hash_key(key), key);
	}
}

/* Insert a new key, then look up and delete the oldest one. */
static __always_inline void op_update(struct thread *t, enum impl impl)
{
	struct bitem *it = pool_get(&t->pool), *old;
	uint64_t old_key = t->ring[t->head]->key;

	it->key = t->next_key++;
	if (impl != IMPL_MUTEX)
		rcu_read_lock();
	tbl_add(impl, it);
	old = tbl_lookup_del(impl, old_key);
	if (impl != IMPL_MUTEX)
		rcu_read_unlock();
	t->ring[t->head] = it;
	if (++t->head == t->live)
		t->head = 0;
	if (unlikely(!old)) {
		t->misses++;
		return;
	}
	if (impl == IMPL_MUTEX)
		pool_put_now(&t->pool, old);
	else
		pool_put_deferred(&t->pool, old);
}

static __always_inline void op_lookup(struct thread *t, enum impl impl)
{
	uint64_t key = t->ring[rnd(&t->rng) % t->live]->key;
	struct bitem *it;

	if (impl != IMPL_MUTEX)
		rcu_read_lock();
	it = tbl_lookup(impl, key);
	if (unlikely(!it || it->key != key))
		t->misses++;
	if (impl != IMPL_MUTEX)
		rcu_read_unlock();
}

static __always_inline void run_loop(struct thread *t, enum impl impl,
				     enum workload wl)
{
	unsigned long ops = 0, i;

	while (!stop_flag) {
		for (i = 0; i < 64; i++) {
			if (wl == WL_TRACKER || rnd(&t->rng) % 10 == 0)
				op_update(t, impl);
			else
				op_lookup(t, impl);
		}
		ops += 64;
	}
	t->ops = ops;
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	unsigned long i;
	double t0, c0;

	if (pin) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	rcu_register_thread();
	for (i = 0; i < t->live; i++) {
		struct bitem *it = pool_get(&t->pool);

		it->key = t->next_key++;
		rcu_read_lock();
		tbl_add(t->impl, it);
		rcu_read_unlock();
		t->ring[i] = it;
	}
	t->head = 0;
	pthread_barrier_wait(&barrier);
	t->pool.gp_secs = t->pool.gp_cpu_secs = 0;
	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_THREAD_CPUTIME_ID);
	switch (t->impl * NR_WORKLOADS + t->wl) {
	case IMPL_LT * NR_WORKLOADS + WL_TRACKER:
		run_loop(t, IMPL_LT, WL_TRACKER);
		break;
	case IMPL_LT * NR_WORKLOADS + WL_LOOKUP90:
		run_loop(t, IMPL_LT, WL_LOOKUP90);
		break;
	case IMPL_CDS * NR_WORKLOADS + WL_TRACKER:
		run_loop(t, IMPL_CDS, WL_TRACKER);
		break;
	case IMPL_CDS * NR_WORKLOADS + WL_LOOKUP90:
		run_loop(t, IMPL_CDS, WL_LOOKUP90);
		break;
	case IMPL_MUTEX * NR_WORKLOADS + WL_TRACKER:
		run_loop(t, IMPL_MUTEX, WL_TRACKER);
		break;
	default:
		run_loop(t, IMPL_MUTEX, WL_LOOKUP90);
		break;
	}
	t->cpu_secs = now(CLOCK_THREAD_CPUTIME_ID) - c0;
	t->secs = now(CLOCK_MONOTONIC) - t0;
	t->gp_secs = t->pool.gp_secs;
	t->gp_cpu_secs = t->pool.gp_cpu_secs;
	pthread_barrier_wait(&barrier);	/* everyone stopped: drain */
	for (i = 0; i < t->live; i++) {
		rcu_read_lock();
		if (!tbl_lookup_del(t->impl, t->ring[i]->key))
			t->misses++;
		rcu_read_unlock();
	}
	rcu_unregister_thread();
	return NULL;
}

/*
 * Rates of one run, operations per second summed over the threads:
 *  cpu  thread CPU time minus the CPU time spent waiting for grace periods
 *       to recycle items: the cost of the table operations themselves,
 *       insensitive to preemption by other load on a shared host.  This is
 *       the headline comparison of the two RCU tables (neither ever sleeps
 *       or spins outside those waits).  It is blind to blocking, so it
 *       flatters the mutex table under contention.
 *  net  wall-clock time minus the grace-period waits (the same code for
 *       both RCU tables; the tracker recycles slots asynchronously with
 *       call_rcu()): throughput on a quiet machine, and the fair figure
 *       for the mutex table.
 *  raw  wall-clock time, grace-period waits included.
 */
enum { R_CPU, R_NET, R_RAW, NR_RATES };
static const char *const rate_name[NR_RATES] = { "cpu", "net", "raw" };

static void run(enum impl impl, enum workload wl, int nthreads, int ms,
		double rate[NR_RATES], unsigned long *misses)
{
	struct thread th[MAX_THREADS];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int i;

	rate[R_NET] = rate[R_RAW] = rate[R_CPU] = 0;
	last_run_ops = 0;
	switch (impl) {
	case IMPL_LT:
		lt = lt_lfht_new(NR_BUCKETS, NR_BUCKETS);
		if (!lt)
			abort();
		break;
	case IMPL_CDS:
		cds = cds_lfht_new(NR_BUCKETS, NR_BUCKETS, NR_BUCKETS, 0, NULL);
		if (!cds)
			abort();
		break;
	default:
		mt = mt_new(NR_BUCKETS);
		break;
	}
	stop_flag = 0;
	pthread_barrier_init(&barrier, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		struct thread *t = &th[i];

		memset(t, 0, sizeof(*t));
		t->id = i;
		t->cpu = ncpu > 0 ? i % ncpu : 0;
		t->impl = impl;
		t->wl = wl;
		t->live = LIVE_KEYS / nthreads;
		t->next_key = (uint64_t)(i + 1) << 40;
		t->rng = 0x9e3779b97f4a7c15ULL * (i + 1);
		pool_init(&t->pool, t->live + 2 * DEFER_BATCH + 64);
		t->ring = calloc(t->live, sizeof(*t->ring));
		if (!t->ring)
			abort();
		if (pthread_create(&t->tid, NULL, thread_main, t))
			abort();
	}
	pthread_barrier_wait(&barrier);
	usleep(ms * 1000);
	stop_flag = 1;
	pthread_barrier_wait(&barrier);
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i].tid, NULL);
		rate[R_NET] += th[i].ops / (th[i].secs - th[i].gp_secs);
		rate[R_RAW] += th[i].ops / th[i].secs;
		last_run_ops += th[i].ops;
		rate[R_CPU] += th[i].ops / (th[i].cpu_secs - th[i].gp_cpu_secs);
		*misses += th[i].misses;
	}
	pthread_barrier_destroy(&barrier);
	synchronize_rcu();
	for (i = 0; i < nthreads; i++) {
		free(th[i].pool.slots);
		free(th[i].ring);
	}
	switch (impl) {
	case IMPL_LT:
		if (lt_lfht_destroy(lt))
			abort();
		break;
	case IMPL_CDS:
		if (cds_lfht_destroy(cds, NULL))
			abort();
		break;
	default:
		mt_free(mt);
		break;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAX_REPS 99

static double res[NR_RATES][NR_WORKLOADS][MAX_THREADS][NR_IMPLS][MAX_REPS];
static double med[NR_RATES][NR_WORKLOADS][MAX_THREADS][NR_IMPLS];

static double ratio(int rt, int w, int n)
{
	return med[rt][w][n][IMPL_LT] / med[rt][w][n][IMPL_CDS];
}

int main(int argc, char **argv)
{
	int reps = 7, ms = 300, w, n, i, r, k, rt;
	double load[2] = { -1, -1 }, rate[NR_RATES];
	unsigned long misses = 0;
	const char *only = NULL;
	bool json = false;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--no-pin"))
			pin = false;
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--ms") && i + 1 < argc)
			ms = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--json] [--reps N] [--ms N] [--no-pin] [--only IMPL:WORKLOAD:THREADS]\n",
				argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS || ms < 1)
		return 2;

	rcu_register_thread();
	if (only) {
		char in[32], wn[32];
		int nt;

		if (sscanf(only, "%31[^:]:%31[^:]:%d", in, wn, &nt) != 3 ||
		    nt < 1 || nt > MAX_THREADS)
			return 2;
		for (i = 0; i < NR_IMPLS && strcmp(in, impl_name[i]); i++)
			;
		for (w = 0; w < NR_WORKLOADS && strcmp(wn, wl_name[w]); w++)
			;
		if (i == NR_IMPLS || w == NR_WORKLOADS)
			return 2;
		for (r = 0; r < reps; r++) {
			run(i, w, nt, ms, rate, &misses);
			printf("%s %s %dt: net %.2f raw %.2f cpu %.2f Mops/s, %lu ops\n",
			       in, wn, nt, rate[R_NET] / 1e6, rate[R_RAW] / 1e6,
			       rate[R_CPU] / 1e6, last_run_ops);
		}
		rcu_unregister_thread();
		return misses ? 1 : 0;
	}
	if (getloadavg(load, 1) != 1)
		load[0] = -1;
	for (r = 0; r < reps; r++)
		for (w = 0; w < NR_WORKLOADS; w++)
			for (n = 1; n <= MAX_THREADS; n++)
				for (k = 0; k < NR_IMPLS; k++) {
					i = (k + r) % NR_IMPLS;
					run(i, w, n, ms, rate, &misses);
					for (rt = 0; rt < NR_RATES; rt++)
						res[rt][w][n - 1][i][r] = rate[rt];
				}
	rcu_unregister_thread();
	if (getloadavg(load + 1, 1) != 1)
		load[1] = -1;

	for (rt = 0; rt < NR_RATES; rt++)
		for (w = 0; w < NR_WORKLOADS; w++)
			for (n = 0; n < MAX_THREADS; n++)
				for (i = 0; i < NR_IMPLS; i++)
					med[rt][w][n][i] = median(res[rt][w][n][i], reps);

	if (json) {
		printf("{\"unit\": \"ops/s\", \"reps\": %d, \"ms_per_run\": %d, \"live_keys\": %lu, \"buckets\": %lu, \"misses\": %lu, \"loadavg_before\": %.2f, \"loadavg_after\": %.2f",
		       reps, ms, LIVE_KEYS, NR_BUCKETS, misses, load[0], load[1]);
		for (w = 0; w < NR_WORKLOADS; w++)
			for (n = 0; n < MAX_THREADS; n++)
				for (rt = 0; rt < NR_RATES; rt++) {
					for (i = 0; i < NR_IMPLS; i++)
						printf(", \"%s_%s_%s_%dt\": %.0f",
						       wl_name[w], rate_name[rt],
						       impl_name[i], n + 1,
						       med[rt][w][n][i]);
					printf(", \"%s_%s_ratio_vs_cds_lfht_%dt\": %.3f",
					       wl_name[w], rate_name[rt], n + 1,
					       ratio(rt, w, n));
				}
		for (n = 0; n < MAX_THREADS; n++)
			printf(", \"ht_ratio_vs_cds_lfht_%dt\": %.3f", n + 1,
			       ratio(R_CPU, WL_TRACKER, n));
		printf("}\n");
	} else {
		printf("hash tables, %lu live keys, %lu buckets, median of %d interleaved runs of %d ms, load average %.2f -> %.2f\n",
		       LIVE_KEYS, NR_BUCKETS, reps, ms, load[0], load[1]);
		printf("Mops/s per CPU-second (cpu) and per wall-clock second (net: grace-period waits excluded; raw: included)\n");
		printf("%-9s %3s | %8s %8s %8s | %8s %8s %8s %8s | %8s %9s\n",
		       "workload", "thr", "cpu:lfht", "cds_lfht", "ratio",
		       "net:lfht", "cds_lfht", "mutex", "ratio", "raw:ratio",
		       "lfht/mutex");
		for (w = 0; w < NR_WORKLOADS; w++)
			for (n = 0; n < MAX_THREADS; n++)
				printf("%-9s %3d | %8.2f %8.2f %7.3fx | %8.2f %8.2f %8.2f %7.3fx | %7.3fx %8.3fx\n",
				       wl_name[w], n + 1,
				       med[R_CPU][w][n][IMPL_LT] / 1e6,
				       med[R_CPU][w][n][IMPL_CDS] / 1e6,
				       ratio(R_CPU, w, n),
				       med[R_NET][w][n][IMPL_LT] / 1e6,
				       med[R_NET][w][n][IMPL_CDS] / 1e6,
				       med[R_NET][w][n][IMPL_MUTEX] / 1e6,
				       ratio(R_NET, w, n), ratio(R_RAW, w, n),
				       med[R_NET][w][n][IMPL_LT] / med[R_NET][w][n][IMPL_MUTEX]);
		if (misses)
			printf("ERROR: %lu lookups missed a live key\n", misses);
	}
	return misses ? 1 : 0;
}
