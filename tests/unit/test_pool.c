// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pool.c - host tests of tracker/pool.c: exact exhaustion with slots
 * parked in other CPUs' caches, refill, cross-CPU put, lists of slots
 * given back at once (lt_pool_put_chain), concurrent get/put (single and
 * chained) without double hand-out, the bytes-per-slot budget, slot
 * indices of odd strides, a fast path that takes no lock, gets and puts
 * nested in others on the same CPU (the shim's interrupts), and a pool
 * that grows: segment by segment up to its ceiling, its watermark hook,
 * and growth while other threads get and put.
 */
#include "lt_env.h"
#include "pool.h"
#include "tap.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

/* The core's event: 8-byte key + 16-byte hash node + state, in one slot. */
#define EVENT_SLOT_SIZE		112
#define SLOT_BUDGET		128

/* Overridable (-D) for longer stress runs by hand. */
#ifndef CONC_THREADS
#define CONC_THREADS		2
#endif
#ifndef CONC_OPS
#define CONC_OPS		600000	/* per thread: >= 10^6 in all */
#endif
#ifndef CONC_SLOTS
#define CONC_SLOTS		256
#endif
#define CONC_MIGRATE_EVERY	4096
/* Yield now and then so the threads interleave even on a busy host. */
#define CONC_YIELD_EVERY	512
/* Second run: small pool, threads may hold 3/4 of it: gets fail often. */
#define TIGHT_OPS		300000
#define TIGHT_SLOTS		64

static u32 slot_index(const struct lt_pool *p, const void *slot)
{
	return lt_pool_index(p, slot);
}

/* One past the largest index the pool has now (its segments may leave holes). */
static u32 index_end(const struct lt_pool *p)
{
	const struct lt_pool_seg *last = &p->seg[p->nr_segs - 1];

	return last->first + last->nr;
}

static u32 cached_slots(struct lt_pool *p)
{
	u32 total = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		total += (u32)atomic64_read(&per_cpu_ptr(p->cache, cpu)->state) &
			 ((1U << LT_POOL_NR_BITS) - 1);
	return total;
}

static void test_init_errors(void)
{
	struct lt_pool p;

	tap_ok(lt_pool_init(&p, 0, 0, 64) == -EINVAL, "init: 0 slots refused");
	tap_ok(lt_pool_init(&p, 1, 1, 0) == -EINVAL, "init: 0-byte slots refused");
	tap_ok(lt_pool_init(&p, 4096, 4096, 1 << 20) == -EINVAL,
	       "init: a segment of more than INT_MAX bytes refused");
	tap_ok(lt_pool_init(&p, 8, 7, 64) == -EINVAL,
	       "init: a ceiling below the initial size refused");
	tap_ok(lt_pool_init(&p, 8, LT_POOL_MAX_INDEX + 1, 64) == -EINVAL,
	       "init: a ceiling above LT_POOL_MAX_INDEX refused");
	lt_pool_destroy(&p);	/* on a zeroed pool: must be harmless */
	tap_ok(1, "destroy of a pool whose init failed");
}

static void test_layout(void)
{
	const u32 nr = 16;
	struct lt_pool p;
	void *slot[16];
	bool distinct = true, zeroed = true, aligned = true;
	u32 i, j;

	tap_ok(lt_pool_init(&p, nr, nr, 13) == 0, "init 16 x 13 bytes");
	tap_eq(lt_pool_bytes_per_slot(&p), 16 + sizeof(atomic_t),
	       "13-byte slots round up to 16, + 4 bytes of link");
	for (i = 0; i < nr; i++) {
		slot[i] = lt_pool_get(&p);
		if (!slot[i])
			break;
		if ((uintptr_t)slot[i] % LT_POOL_SLOT_ALIGN)
			aligned = false;
		for (j = 0; j < 16; j++)
			if (((u8 *)slot[i])[j])
				zeroed = false;
		for (j = 0; j < i; j++)
			if (slot[j] == slot[i])
				distinct = false;
		memset(slot[i], 0xa5, 16);	/* ASan: stays in bounds */
	}
	tap_eq(i, nr, "all 16 slots handed out");
	tap_ok(distinct, "slots are distinct");
	tap_ok(aligned, "slots are 8-byte aligned");
	tap_ok(zeroed, "slots start zeroed");
	tap_ok(lt_pool_get(&p) == NULL, "17th get fails");
	for (i = 0; i < nr; i++)
		lt_pool_put(&p, slot[i]);
	tap_eq(lt_pool_nr_free(&p), nr, "all free again");
	lt_pool_destroy(&p);
}

static void test_budget(void)
{
	struct lt_pool p;
	size_t bytes;

	tap_ok(lt_pool_init(&p, 1024, 1024, EVENT_SLOT_SIZE) == 0,
	       "init 1024 x %d bytes", EVENT_SLOT_SIZE);
	bytes = lt_pool_bytes_per_slot(&p);
	tap_diag("bytes per slot for slot_size %d: %zu (budget %d)",
		 EVENT_SLOT_SIZE, bytes, SLOT_BUDGET);
	tap_ok(bytes <= SLOT_BUDGET, "bytes per slot %zu <= %d", bytes,
	       SLOT_BUDGET);
	lt_pool_destroy(&p);
}

/*
 * Get slots on @cpu until NULL (at most one more than the pool holds);
 * sets *@dup if a slot comes twice.  Returns the count; the first @max
 * slots are stored in @out.
 */
static u32 drain(struct lt_pool *p, int cpu, void **out, u32 max,
		 bool *dup)
{
	u32 end = index_end(p), n = 0, idx;
	u8 *seen = calloc(end, 1);
	void *s;

	lt_shim_set_cpu(cpu);
	*dup = false;
	while (n <= lt_pool_capacity(p) && (s = lt_pool_get(p))) {
		idx = slot_index(p, s);
		if (idx >= end || seen[idx])
			*dup = true;
		else
			seen[idx] = 1;
		if (n < max)
			out[n] = s;
		n++;
	}
	free(seen);
	return n;
}

/*
 * Park slots in the caches of CPUs 1..N-1 (get a few on each CPU and put
 * them back there, and some put on another CPU than the one that got
 * them), then drain everything from CPU 0: exactly nr_slots.
 */
static void test_exhaustion(u32 nr)
{
	void **got = calloc(nr, sizeof(*got));
	u32 park = min_t(u32, nr, nr / nr_cpu_ids + 3), n, i, k;
	struct lt_pool p;
	bool dup;
	int cpu;

	tap_ok(lt_pool_init(&p, nr, nr, 64) == 0, "nr=%u: init", nr);
	tap_diag("nr=%u: cache capacity %u per CPU, %u CPUs", nr,
		 p.cache_cap, nr_cpu_ids);
	for (cpu = 1; cpu < (int)nr_cpu_ids; cpu++) {
		lt_shim_set_cpu(cpu);
		for (k = 0; k < park && (got[k] = lt_pool_get(&p)); k++)
			;
		/* Every other CPU puts half of its slots on the next CPU. */
		for (i = 0; i < k; i++) {
			if (i % 2 && cpu % 2)
				lt_shim_set_cpu((cpu + 1) % (int)nr_cpu_ids);
			else
				lt_shim_set_cpu(cpu);
			lt_pool_put(&p, got[i]);
		}
	}
	if (p.cache_cap)
		tap_ok(cached_slots(&p) > 0,
		       "nr=%u: %u slots parked in per-CPU caches", nr,
		       cached_slots(&p));
	tap_eq(lt_pool_nr_free(&p), nr, "nr=%u: nr_free before drain", nr);

	n = drain(&p, 0, got, nr, &dup);
	tap_eq(n, nr, "nr=%u: get until NULL from CPU 0 gives every slot", nr);
	tap_ok(!dup, "nr=%u: no slot handed out twice", nr);
	tap_eq(lt_pool_nr_free(&p), 0, "nr=%u: nr_free 0 when exhausted", nr);
	for (cpu = 0, k = 0; cpu < (int)nr_cpu_ids; cpu++) {
		lt_shim_set_cpu(cpu);
		if (lt_pool_get(&p))
			k++;
	}
	tap_eq(k, 0, "nr=%u: every CPU sees the pool exhausted", nr);

	/* Refill: put everything back, spread over CPUs, then drain again. */
	for (i = 0; i < n && i < nr; i++) {
		lt_shim_set_cpu((int)(i % nr_cpu_ids));
		lt_pool_put(&p, got[i]);
	}
	tap_eq(lt_pool_nr_free(&p), nr, "nr=%u: nr_free after refill", nr);
	n = drain(&p, (int)nr_cpu_ids - 1, got, nr, &dup);
	tap_eq(n, nr, "nr=%u: drain again from the last CPU", nr);
	tap_ok(!dup, "nr=%u: no duplicate on second drain", nr);

	/* Put from another CPU than the one that got, one slot. */
	lt_shim_set_cpu(2 % (int)nr_cpu_ids);
	lt_pool_put(&p, got[0]);
	lt_shim_set_cpu(5 % (int)nr_cpu_ids);
	tap_ok(lt_pool_get(&p) == got[0],
	       "nr=%u: a slot put on CPU 2 is got on CPU 5", nr);
	tap_ok(lt_pool_get(&p) == NULL, "nr=%u: and then nothing", nr);
	for (i = 0; i < n && i < nr; i++)
		lt_pool_put(&p, got[i]);
	tap_eq(lt_pool_nr_free(&p), nr, "nr=%u: all back", nr);

	lt_shim_set_cpu(0);
	lt_pool_destroy(&p);
	free(got);
}

/* Where test lists link their slots (after the owner marks of conc). */
#define CHAIN_LINK_OFF		8

static void chain_link(void *slot, void *next)
{
	*(void **)((char *)slot + CHAIN_LINK_OFF) = next;
}

/*
 * Get every slot on CPU 0, give them all back as one list from CPU 1 (in
 * rounds, over the cache and the shared stack), then get them all again
 * from another CPU: exactly nr, no duplicate.
 */
static void test_chain(u32 nr)
{
	void **got = calloc(nr + 1, sizeof(*got));
	struct lt_pool p;
	bool dup;
	u32 n, i;

	tap_ok(lt_pool_init(&p, nr, nr, 64) == 0, "chain nr=%u: init", nr);
	n = drain(&p, 0, got, nr, &dup);
	tap_eq(n, nr, "chain nr=%u: all got", nr);
	for (i = 0; i < n; i++)
		chain_link(got[i], i + 1 < n ? got[i + 1] : NULL);
	lt_shim_set_cpu(1 % (int)nr_cpu_ids);
	lt_pool_put_chain(&p, got[0], CHAIN_LINK_OFF);
	lt_pool_put_chain(&p, NULL, CHAIN_LINK_OFF);
	tap_ok(cached_slots(&p) <= p.cache_cap,
	       "chain nr=%u: local cache filled to at most its capacity (%u)",
	       nr, cached_slots(&p));
	tap_eq(lt_pool_nr_free(&p), nr, "chain nr=%u: nr_free after put_chain",
	       nr);
	n = drain(&p, 2 % (int)nr_cpu_ids, got, nr, &dup);
	tap_eq(n, nr, "chain nr=%u: every slot got again elsewhere", nr);
	tap_ok(!dup, "chain nr=%u: no slot handed out twice", nr);
	lt_shim_set_cpu(0);
	lt_pool_destroy(&p);
	free(got);
}

/*
 * Slot indices of odd strides (lt_pool_index() divides by a multiply and
 * a shift): every slot got, given back one by one from several CPUs, and
 * got again exactly once, each at a slot boundary of the array.
 */
static void test_strides(void)
{
	static const size_t sizes[] = { 1, 24, 40, 72, 104, 1000, 4104,
					65544, 1 << 20 };
	const u32 nr = 96;
	void *got[96];
	bool dup, aligned;
	struct lt_pool p;
	unsigned int k;
	u32 n, i;

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		i = (u32)lt_pool_init(&p, nr, nr, sizes[k]);
		tap_ok(i == 0, "size %zu: init (stride %zu)", sizes[k],
		       p.stride);
		n = drain(&p, 0, got, nr, &dup);
		for (i = 0; i < n; i++) {
			lt_shim_set_cpu((int)(i % nr_cpu_ids));
			lt_pool_put(&p, got[i]);
		}
		n = drain(&p, 1, got, nr, &dup);
		aligned = true;
		for (i = 0; i < n && i < nr; i++)
			if (((char *)got[i] - p.seg[0].slots) % p.stride)
				aligned = false;
		tap_ok(n == nr && !dup && aligned,
		       "stride %zu: every slot back under its own index (%u got, dup %d, aligned %d)",
		       p.stride, n, dup, aligned);
		lt_shim_set_cpu(0);
		lt_pool_destroy(&p);
	}
}

#define FAST_GETS		16	/* what the first get leaves cached */

struct fast_arg {
	struct lt_pool *pool;
	int cpu;
	int done;
	void *got[FAST_GETS];
};

static void *fast_worker(void *arg)
{
	struct fast_arg *a = arg;
	int i;

	lt_shim_set_cpu(a->cpu);
	for (i = 0; i < FAST_GETS; i++) {
		a->got[i] = lt_pool_get(a->pool);
		if (!a->got[i])
			break;
	}
	__atomic_store_n(&a->done, i == FAST_GETS ? 1 : -1,
			 __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The fast path takes no lock: with a CPU's cache filled and its lock
 * held elsewhere (as a stealer or lt_pool_nr_free() would), gets on that
 * CPU from its cache still complete.
 */
static void test_fast_path_lockless(void)
{
	struct fast_arg a = { .cpu = 3 };
	struct lt_pool p;
	raw_spinlock_t *lock;
	pthread_t tid;
	int i, done = 0;

	i = lt_pool_init(&p, 4096, 4096, EVENT_SLOT_SIZE);
	tap_ok(i == 0, "fast path: init (cache capacity %u)", p.cache_cap);
	lt_shim_set_cpu(a.cpu);
	lt_pool_put(&p, lt_pool_get(&p));	/* refills CPU 3's cache */
	lt_shim_set_cpu(0);
	tap_ok(cached_slots(&p) >= FAST_GETS,
	       "fast path: %u slots cached on CPU %d", cached_slots(&p),
	       a.cpu);
	a.pool = &p;
	lock = &per_cpu_ptr(p.cache, a.cpu)->lock;
	raw_spin_lock(lock);
	pthread_create(&tid, NULL, fast_worker, &a);
	for (i = 0; i < 5000 && !done; i++) {
		usleep(1000);
		done = __atomic_load_n(&a.done, __ATOMIC_ACQUIRE);
	}
	tap_ok(done == 1,
	       "fast path: %d gets on CPU %d while its cache lock is held (%d)",
	       FAST_GETS, a.cpu, done);
	raw_spin_unlock(lock);
	pthread_join(tid, NULL);
	lt_shim_set_cpu(a.cpu);
	for (i = 0; i < FAST_GETS; i++)
		if (a.got[i])
			lt_pool_put(&p, a.got[i]);
	lt_shim_set_cpu(0);
	tap_eq(lt_pool_nr_free(&p), 4096, "fast path: every slot free after");
	lt_pool_destroy(&p);
}

/* Concurrent get/put: ownership tracked with one atomic flag per slot. */
struct conc {
	struct lt_pool pool;
	pthread_barrier_t start;
	long nr_ops;		/* per thread */
	u32 max_held;		/* per thread */
	int *owner;		/* slot index -> 0 free, else thread id + 1 */
	long ops;		/* total get + put */
	long fails;		/* gets that returned NULL */
	int double_handout;
	int bad_fail;		/* get failed although a slot was free */
	int wrong_content;
};

struct conc_thread {
	struct conc *c;
	int id;
	long ops;
};

static u32 xorshift(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static void *conc_worker(void *arg)
{
	struct conc_thread *t = arg;
	struct conc *c = t->c;
	u32 max_held = c->max_held;
	void **held = calloc(max_held, sizeof(*held));
	u32 nheld = 0, rnd = 0x9e3779b9u * (u32)(t->id + 1), idx, pick;
	int cpu = t->id, expect;
	long i;
	void *s;

	lt_shim_set_cpu(cpu);
	pthread_barrier_wait(&c->start);
	for (i = 0; i < c->nr_ops; i++) {
		/* "Migrate" now and then: puts land on another CPU. */
		if (i % CONC_MIGRATE_EVERY == 0) {
			cpu = (cpu + CONC_THREADS) % (int)nr_cpu_ids;
			lt_shim_set_cpu(cpu);
		}
		if (i % CONC_YIELD_EVERY == 0)
			sched_yield();
		if (nheld < max_held && (nheld == 0 || xorshift(&rnd) & 1)) {
			/*
			 * This thread holds fewer than max_held: if all the
			 * threads' max_held add up to at most the pool, a slot
			 * is free at every instant and get must not fail.
			 */
			s = lt_pool_get(&c->pool);
			if (!s) {
				if (max_held * CONC_THREADS <=
				    lt_pool_capacity(&c->pool))
					__atomic_add_fetch(&c->bad_fail, 1,
							   __ATOMIC_RELAXED);
				__atomic_add_fetch(&c->fails, 1,
						   __ATOMIC_RELAXED);
				t->ops++;
				continue;
			}
			idx = slot_index(&c->pool, s);
			expect = 0;
			if (!__atomic_compare_exchange_n(&c->owner[idx],
							 &expect, t->id + 1,
							 false,
							 __ATOMIC_ACQ_REL,
							 __ATOMIC_RELAXED))
				__atomic_add_fetch(&c->double_handout, 1,
						   __ATOMIC_RELAXED);
			/* Plain writes: TSan checks the hand-over ordering. */
			*(u32 *)s = idx;
			((u32 *)s)[1] = (u32)t->id;
			held[nheld++] = s;
		} else {
			void *list = NULL;
			u32 k, nput = 1;

			/* One time in eight, give back a list of slots. */
			if ((xorshift(&rnd) & 7) == 0)
				nput = 1 + xorshift(&rnd) % nheld;
			for (k = 0; k < nput; k++) {
				pick = xorshift(&rnd) % nheld;
				s = held[pick];
				held[pick] = held[--nheld];
				idx = slot_index(&c->pool, s);
				if (*(u32 *)s != idx ||
				    ((u32 *)s)[1] != (u32)t->id)
					__atomic_add_fetch(&c->wrong_content, 1,
							   __ATOMIC_RELAXED);
				__atomic_store_n(&c->owner[idx], 0,
						 __ATOMIC_RELEASE);
				chain_link(s, list);
				list = s;
			}
			if (nput == 1)
				lt_pool_put(&c->pool, list);
			else
				lt_pool_put_chain(&c->pool, list,
						  CHAIN_LINK_OFF);
		}
		t->ops++;
	}
	while (nheld) {
		s = held[--nheld];
		__atomic_store_n(&c->owner[slot_index(&c->pool, s)], 0,
				 __ATOMIC_RELEASE);
		lt_pool_put(&c->pool, s);
		t->ops++;
	}
	free(held);
	return NULL;
}

static void run_concurrent(const char *name, u32 nr_slots, u32 max_held,
			   long nr_ops, long min_ops)
{
	struct conc_thread th[CONC_THREADS];
	pthread_t tid[CONC_THREADS];
	struct conc c;
	bool dup;
	int i;

	memset(&c, 0, sizeof(c));
	c.nr_ops = nr_ops;
	c.max_held = max_held;
	i = lt_pool_init(&c.pool, nr_slots, nr_slots, EVENT_SLOT_SIZE);
	tap_ok(i == 0, "%s: init %u slots, %u CPUs, cache capacity %u", name,
	       nr_slots, nr_cpu_ids, c.pool.cache_cap);
	c.owner = calloc(nr_slots, sizeof(*c.owner));
	pthread_barrier_init(&c.start, NULL, CONC_THREADS);
	for (i = 0; i < CONC_THREADS; i++) {
		th[i] = (struct conc_thread){ .c = &c, .id = i };
		pthread_create(&tid[i], NULL, conc_worker, &th[i]);
	}
	for (i = 0; i < CONC_THREADS; i++) {
		pthread_join(tid[i], NULL);
		c.ops += th[i].ops;
	}
	pthread_barrier_destroy(&c.start);
	tap_ok(c.ops >= min_ops, "%s: %ld get/put operations (%ld failed gets)",
	       name, c.ops, c.fails);
	tap_eq(c.double_handout, 0, "%s: no slot handed out twice", name);
	tap_eq(c.bad_fail, 0, "%s: get never failed while a slot was free",
	       name);
	tap_eq(c.wrong_content, 0, "%s: slot contents kept by owner", name);
	tap_eq(lt_pool_nr_free(&c.pool), nr_slots,
	       "%s: every slot free at the end (counts conserved)", name);
	tap_eq(drain(&c.pool, 0, NULL, 0, &dup), nr_slots,
	       "%s: and all can be got again", name);
	tap_ok(!dup, "%s: without duplicates", name);
	free(c.owner);
	lt_pool_destroy(&c.pool);
}

static void test_concurrent(void)
{
	/* Each thread holds at most half the pool: get must never fail. */
	run_concurrent("concurrent", CONC_SLOTS, CONC_SLOTS / CONC_THREADS,
		       CONC_OPS, 1000000);
	/* Over-subscribed: gets fail, stealing and retries race. */
	run_concurrent("exhausting", TIGHT_SLOTS, TIGHT_SLOTS * 3 / 4,
		       TIGHT_OPS, TIGHT_OPS * CONC_THREADS);
}

/*
 * Interrupts: two threads on CPUs of their own get and put slots while a
 * third sends them the shim's "interrupt" signal, whose handler gets and
 * puts slots on the same CPU, nested inside whatever the thread was doing
 * (a fast path between its read of the state word and its cmpxchg, most
 * often: the slow paths block the signal as the kernel's block
 * interrupts).  Ownership is tracked per slot as in the concurrent test.
 */
#define IRQ_SLOTS		128	/* cache capacity 4 with 8 CPUs */
#define IRQ_THREAD_HELD		40
#define IRQ_HANDLER_HELD	8
#ifndef IRQ_OPS
#define IRQ_OPS			400000	/* per thread */
#endif

struct irq_test {
	struct lt_pool pool;
	int owner[IRQ_SLOTS];
	int stop;
	long irqs;		/* handler runs */
	long nested;		/* handler ran inside a thread's fast path */
	int bad;		/* double hand-out, lost slot, bad content */
	int bad_fail;		/* get failed while slots were free */
};

static struct irq_test irq_t;
static __thread volatile sig_atomic_t irq_in_fast;	/* inside get/put */

static void irq_take(void **s, int who)
{
	u32 idx = slot_index(&irq_t.pool, *s);
	int expect = 0;

	if (!__atomic_compare_exchange_n(&irq_t.owner[idx], &expect, who,
					 false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED))
		__atomic_add_fetch(&irq_t.bad, 1, __ATOMIC_RELAXED);
	*(u32 *)*s = idx ^ (u32)who;
}

static void irq_give(void *s, int who)
{
	u32 idx = slot_index(&irq_t.pool, s);

	if (*(u32 *)s != (idx ^ (u32)who))
		__atomic_add_fetch(&irq_t.bad, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&irq_t.owner[idx], 0, __ATOMIC_RELEASE);
}

static void irq_handler(int sig)
{
	void *held[IRQ_HANDLER_HELD];
	int who = 100 + lt_shim_cpu, i, n;

	(void)sig;
	__atomic_add_fetch(&irq_t.irqs, 1, __ATOMIC_RELAXED);
	if (irq_in_fast)
		__atomic_add_fetch(&irq_t.nested, 1, __ATOMIC_RELAXED);
	/* At most 2 * 40 + 2 * 8 slots held in all: get never fails. */
	for (n = 0; n < IRQ_HANDLER_HELD; n++) {
		held[n] = lt_pool_get(&irq_t.pool);
		if (!held[n]) {
			__atomic_add_fetch(&irq_t.bad_fail, 1,
					   __ATOMIC_RELAXED);
			break;
		}
		irq_take(&held[n], who);
	}
	for (i = 0; i < n; i++) {
		irq_give(held[i], who);
		lt_pool_put(&irq_t.pool, held[i]);
	}
}

static void *irq_worker(void *arg)
{
	int cpu = (int)(long)arg, who = cpu + 1, n = 0;
	void *held[IRQ_THREAD_HELD];
	u32 rnd = 0x9e3779b9u * (u32)who;
	long i;

	lt_shim_set_cpu(cpu);
	for (i = 0; i < IRQ_OPS; i++) {
		if (n < IRQ_THREAD_HELD && (!n || xorshift(&rnd) & 1)) {
			irq_in_fast = 1;
			held[n] = lt_pool_get(&irq_t.pool);
			irq_in_fast = 0;
			if (!held[n]) {
				__atomic_add_fetch(&irq_t.bad_fail, 1,
						   __ATOMIC_RELAXED);
				continue;
			}
			irq_take(&held[n], who);
			n++;
		} else {
			int pick = (int)(xorshift(&rnd) % (u32)n);
			void *s = held[pick];

			held[pick] = held[--n];
			irq_give(s, who);
			irq_in_fast = 1;
			lt_pool_put(&irq_t.pool, s);
			irq_in_fast = 0;
		}
	}
	while (n) {
		irq_give(held[--n], who);
		lt_pool_put(&irq_t.pool, held[n]);
	}
	return NULL;
}

/*
 * After a concurrent test, from CPU 0: every one of the @nr slots is free
 * and can be got again, none twice (three assertions).
 */
static void all_free_at_end(struct lt_pool *p, u32 nr, const char *what)
{
	bool dup;

	lt_shim_set_cpu(0);
	tap_eq(lt_pool_nr_free(p), nr, "%s: every slot free at the end", what);
	tap_eq(drain(p, 0, NULL, 0, &dup), nr,
	       "%s: and all can be got again", what);
	tap_ok(!dup, "%s: without duplicates", what);
}

static void test_interrupts(void)
{
	struct sigaction sa;
	bool done[2] = { false, false };
	pthread_t tid[2];
	int i, alive;

	memset(&irq_t, 0, sizeof(irq_t));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = irq_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(LT_SHIM_IRQ_SIGNAL, &sa, NULL);
	i = lt_pool_init(&irq_t.pool, IRQ_SLOTS, IRQ_SLOTS, EVENT_SLOT_SIZE);
	tap_ok(i == 0, "interrupts: init %u slots, cache capacity %u",
	       IRQ_SLOTS, irq_t.pool.cache_cap);
	for (i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, irq_worker,
			       (void *)(long)(i + 1));
	/* Interrupt both until they are done. */
	do {
		alive = 0;
		for (i = 0; i < 2; i++) {
			if (done[i])
				continue;
			if (!pthread_tryjoin_np(tid[i], NULL)) {
				done[i] = true;
				continue;
			}
			pthread_kill(tid[i], LT_SHIM_IRQ_SIGNAL);
			alive++;
		}
		sched_yield();
	} while (alive);
	signal(LT_SHIM_IRQ_SIGNAL, SIG_IGN);
	tap_diag("interrupts: %ld handler runs, %ld inside a get or put",
		 irq_t.irqs, irq_t.nested);
	tap_ok(irq_t.nested > 0, "interrupts: some came inside a get or put");
	tap_eq(irq_t.bad, 0,
	       "interrupts: no slot handed out twice, contents kept");
	tap_eq(irq_t.bad_fail, 0,
	       "interrupts: get never failed while slots were free");
	all_free_at_end(&irq_t.pool, IRQ_SLOTS, "interrupts");
	lt_pool_destroy(&irq_t.pool);
}

/*
 * Growth, one thread: 4 slots up to 100, segment after segment (4, 4, 8,
 * 16, 32 and the last cut to 36 by the ceiling), each growth giving new
 * slots that are distinct, aligned, zeroed and found again by their
 * index; at the ceiling -ENOSPC; every slot got, given back, got again.
 */
#define GROW_INIT	4
#define GROW_MAX	100
#define GROW_SIZE	40

static void test_grow_basic(void)
{
	static const u32 caps[] = { 8, 16, 32, 64, 100 };
	void *got[GROW_MAX + 1];
	bool distinct = true, aligned = true, zeroed = true, indexed = true;
	struct lt_pool p;
	u32 n = 0, i, j, k, idx;
	bool dup;
	void *s;

	tap_ok(lt_pool_init(&p, GROW_INIT, GROW_MAX, GROW_SIZE) == 0,
	       "grow: init %d slots, ceiling %d", GROW_INIT, GROW_MAX);
	tap_ok(!lt_pool_low(&p), "grow: a full pool is not low");
	for (k = 0; k <= ARRAY_SIZE(caps); k++) {
		while (n <= GROW_MAX && (s = lt_pool_get(&p)))
			got[n++] = s;
		if (k == ARRAY_SIZE(caps))
			break;
		tap_eq(n, k ? caps[k - 1] : GROW_INIT,
		       "grow: every slot got before growth %u", k + 1);
		tap_ok(lt_pool_low(&p), "grow: an empty pool is low");
		tap_eq(lt_pool_grow(&p), 0, "grow: growth %u", k + 1);
		tap_eq(lt_pool_capacity(&p), caps[k],
		       "grow: capacity %u after growth %u", caps[k], k + 1);
	}
	tap_eq(n, GROW_MAX, "grow: %d slots got in all", GROW_MAX);
	tap_ok(lt_pool_grow(&p) == -ENOSPC, "grow: -ENOSPC at the ceiling");
	tap_ok(!lt_pool_low(&p), "grow: at the ceiling, never low");
	for (i = 0; i < n; i++) {
		idx = slot_index(&p, got[i]);
		if (idx >= index_end(&p) || lt_pool_slot(&p, idx) != got[i])
			indexed = false;
		if ((uintptr_t)got[i] % LT_POOL_SLOT_ALIGN)
			aligned = false;
		for (j = 0; j < GROW_SIZE; j++)
			if (((u8 *)got[i])[j])
				zeroed = false;
		for (j = 0; j < i; j++)
			if (got[j] == got[i])
				distinct = false;
		memset(got[i], 0x5a, GROW_SIZE);	/* ASan: in bounds */
	}
	tap_ok(distinct, "grow: slots are distinct");
	tap_ok(aligned, "grow: slots are 8-byte aligned");
	tap_ok(zeroed, "grow: new slots start zeroed");
	tap_ok(indexed, "grow: every slot is found again by its index");
	tap_eq(p.seg[p.nr_segs - 1].nr, 36, "grow: the last segment is cut by the ceiling");
	tap_eq(slot_index(&p, &dup), LT_POOL_NIL, "grow: no index for a foreign address");
	for (i = 0; i < n; i++) {
		lt_shim_set_cpu((int)(i % nr_cpu_ids));
		lt_pool_put(&p, got[i]);
	}
	tap_eq(lt_pool_nr_free(&p), GROW_MAX, "grow: all free again");
	tap_eq(drain(&p, 1, got, GROW_MAX, &dup), GROW_MAX,
	       "grow: drained again: every slot");
	tap_ok(!dup, "grow: without duplicates");
	lt_shim_set_cpu(0);
	lt_pool_destroy(&p);
}

/*
 * The watermark hook: called once when a get finds fewer than half the
 * slots on the shared stack, not again until rearmed; the rearm says
 * whether to grow again.
 */
static int low_calls;

static void low_hook(struct lt_pool *pool)
{
	(void)pool;
	low_calls++;
}

#define LOW_INIT	64
#define LOW_MAX		1024

static void test_grow_low(void)
{
	void *got[LOW_MAX];
	struct lt_pool p;
	u32 n = 0, at;
	bool dup;

	low_calls = 0;
	tap_ok(lt_pool_init(&p, LOW_INIT, LOW_MAX, GROW_SIZE) == 0,
	       "low: init %d slots, ceiling %d", LOW_INIT, LOW_MAX);
	p.on_low = low_hook;
	lt_shim_set_cpu(0);
	while (!low_calls && n < LOW_INIT && (got[n] = lt_pool_get(&p)))
		n++;
	at = n;
	tap_ok(low_calls == 1 && at >= LOW_INIT / 2 - p.cache_cap &&
	       at <= LOW_INIT / 2 + p.cache_cap,
	       "low: the hook runs once half the slots are out (%u got)", at);
	while (n < LOW_INIT && (got[n] = lt_pool_get(&p)))
		n++;
	tap_eq(low_calls, 1, "low: not again before the rearm (%u got)", n);
	tap_ok(lt_pool_rearm(&p), "low: rearm says grow again (still low)");
	tap_eq(lt_pool_grow(&p), 0, "low: grown to %u", lt_pool_capacity(&p));
	tap_ok(!lt_pool_rearm(&p), "low: rearm after growth: not low");
	while (low_calls == 1 && n < LOW_MAX && (got[n] = lt_pool_get(&p)))
		n++;
	tap_ok(low_calls == 2 && n > LOW_INIT,
	       "low: rearmed, the hook runs again (%u got)", n);
	while (!lt_pool_grow(&p))
		;
	tap_eq(lt_pool_capacity(&p), LOW_MAX, "low: grown to the ceiling");
	while (n < LOW_MAX && (got[n] = lt_pool_get(&p)))
		n++;
	tap_ok(n == LOW_MAX && low_calls == 2 && !lt_pool_rearm(&p),
	       "low: at the ceiling, every slot got, no hook, no growth (%u got, %d calls)",
	       n, low_calls);
	while (n)
		lt_pool_put(&p, got[--n]);
	tap_eq(drain(&p, 0, got, LOW_MAX, &dup), LOW_MAX,
	       "low: all got again");
	lt_pool_destroy(&p);

	/* One slot: its watermark is one free slot, not none. */
	low_calls = 0;
	tap_ok(lt_pool_init(&p, 1, LOW_MAX, GROW_SIZE) == 0,
	       "low: init 1 slot, ceiling %d", LOW_MAX);
	p.on_low = low_hook;
	got[0] = lt_pool_get(&p);
	tap_ok(got[0] && low_calls == 1 && lt_pool_low(&p),
	       "low: 1 slot: its get runs the hook (%d calls)", low_calls);
	tap_eq(lt_pool_grow(&p), 0, "low: 1 slot grows (to %u)",
	       lt_pool_capacity(&p));
	lt_pool_put(&p, got[0]);
	lt_pool_destroy(&p);
}

/*
 * Growth under load: worker threads get and put slots (ownership tracked
 * per index, contents checked) holding up to half the ceiling each, so
 * more than the first segment; the hook wakes a grower thread that grows
 * and rearms, as the core's work item does.  Once the pool is at its
 * ceiling, every get must succeed (the threads hold at most the ceiling
 * together).
 */
#define GC_INIT		64
#define GC_MAX		4096
#ifndef GC_OPS
#define GC_OPS		300000	/* per thread */
#endif

struct gc {
	struct lt_pool pool;
	pthread_barrier_t start;
	int *owner;
	int kick, stop, workers_done;
	long grows, kicks;
	int double_handout, wrong_content, bad_fail;
	long fails;
};

static struct gc gc;

static void gc_hook(struct lt_pool *pool)
{
	(void)pool;
	__atomic_add_fetch(&gc.kicks, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&gc.kick, 1, __ATOMIC_RELEASE);
}

static void *gc_grower(void *arg)
{
	(void)arg;
	lt_shim_set_cpu(7);
	while (!__atomic_load_n(&gc.stop, __ATOMIC_ACQUIRE)) {
		if (!__atomic_exchange_n(&gc.kick, 0, __ATOMIC_ACQ_REL)) {
			sched_yield();
			continue;
		}
		do {
			while (lt_pool_low(&gc.pool) && !lt_pool_grow(&gc.pool))
				gc.grows++;
		} while (lt_pool_rearm(&gc.pool));
	}
	return NULL;
}

static void *gc_worker(void *arg)
{
	int id = (int)(long)arg, cpu = id, expect;
	u32 max_held = GC_MAX / 2, nheld = 0, rnd = 0x9e3779b9u * (u32)(id + 1);
	void **held = calloc(max_held, sizeof(*held));
	bool at_max;
	long i;
	u32 idx;
	void *s;

	lt_shim_set_cpu(cpu);
	pthread_barrier_wait(&gc.start);
	for (i = 0; i < GC_OPS; i++) {
		if (i % CONC_MIGRATE_EVERY == 0) {
			cpu = (cpu + 2) % 6;	/* 0..5: not the grower's */
			lt_shim_set_cpu(cpu);
		}
		if (i % CONC_YIELD_EVERY == 0)
			sched_yield();
		/* Mostly gets at first, so the pool has to grow. */
		if (nheld < max_held && (!nheld || xorshift(&rnd) % 8 < 5)) {
			at_max = lt_pool_capacity(&gc.pool) == GC_MAX;
			s = lt_pool_get(&gc.pool);
			if (!s) {
				if (at_max)
					__atomic_add_fetch(&gc.bad_fail, 1,
							   __ATOMIC_RELAXED);
				__atomic_add_fetch(&gc.fails, 1,
						   __ATOMIC_RELAXED);
				continue;
			}
			idx = slot_index(&gc.pool, s);
			expect = 0;
			if (idx >= GC_MAX ||
			    !__atomic_compare_exchange_n(&gc.owner[idx], &expect,
							 id + 1, false,
							 __ATOMIC_ACQ_REL,
							 __ATOMIC_RELAXED)) {
				__atomic_add_fetch(&gc.double_handout, 1,
						   __ATOMIC_RELAXED);
				continue;
			}
			*(u32 *)s = idx;
			((u32 *)s)[1] = (u32)id;
			held[nheld++] = s;
		} else {
			u32 pick = xorshift(&rnd) % nheld;

			s = held[pick];
			held[pick] = held[--nheld];
			idx = slot_index(&gc.pool, s);
			if (*(u32 *)s != idx || ((u32 *)s)[1] != (u32)id)
				__atomic_add_fetch(&gc.wrong_content, 1,
						   __ATOMIC_RELAXED);
			__atomic_store_n(&gc.owner[idx], 0, __ATOMIC_RELEASE);
			lt_pool_put(&gc.pool, s);
		}
	}
	while (nheld) {
		s = held[--nheld];
		__atomic_store_n(&gc.owner[slot_index(&gc.pool, s)], 0,
				 __ATOMIC_RELEASE);
		lt_pool_put(&gc.pool, s);
	}
	free(held);
	return NULL;
}

static void test_grow_concurrent(void)
{
	pthread_t tid[2], grower;
	int i;

	memset(&gc, 0, sizeof(gc));
	i = lt_pool_init(&gc.pool, GC_INIT, GC_MAX, EVENT_SLOT_SIZE);
	tap_ok(i == 0, "grow under load: init %d slots, ceiling %d", GC_INIT,
	       GC_MAX);
	gc.pool.on_low = gc_hook;
	gc.owner = calloc(GC_MAX, sizeof(*gc.owner));
	pthread_barrier_init(&gc.start, NULL, 2);
	pthread_create(&grower, NULL, gc_grower, NULL);
	for (i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, gc_worker, (void *)(long)i);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	__atomic_store_n(&gc.stop, 1, __ATOMIC_RELEASE);
	pthread_join(grower, NULL);
	pthread_barrier_destroy(&gc.start);
	tap_diag("grow under load: %ld hook calls, %ld growths, %ld failed gets",
		 gc.kicks, gc.grows, gc.fails);
	tap_eq(lt_pool_capacity(&gc.pool), GC_MAX,
	       "grow under load: grown to the ceiling");
	tap_eq(gc.double_handout, 0, "grow under load: no slot handed out twice");
	tap_eq(gc.wrong_content, 0, "grow under load: slot contents kept");
	tap_eq(gc.bad_fail, 0,
	       "grow under load: at the ceiling, no get failed");
	all_free_at_end(&gc.pool, GC_MAX, "grow under load");
	free(gc.owner);
	lt_pool_destroy(&gc.pool);
}

int main(void)
{
	static const u32 sizes[] = { 1, 2, 7, 64, 100, 4096, 16384 };
	unsigned int i, cached = 0;

	/*
	 * 113 assertions, and 18 per size (test_exhaustion(), test_chain());
	 * test_exhaustion() checks the per-CPU caches of the sizes that have
	 * any (cache_cap > 0): one assertion more for each of them.  16384
	 * slots fill caches to LT_POOL_CACHE_MAX on up to 16 CPUs.
	 */
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		cached += sizes[i] / (LT_POOL_CACHE_SHARE * nr_cpu_ids) > 0;
	tap_plan(116 + 18 * ARRAY_SIZE(sizes) + cached);
	test_init_errors();
	test_layout();
	test_budget();
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		test_exhaustion(sizes[i]);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		test_chain(sizes[i]);
	test_strides();
	test_fast_path_lockless();
	test_concurrent();
	test_interrupts();
	test_grow_basic();
	test_grow_low();
	test_grow_concurrent();
	return tap_done();
}
