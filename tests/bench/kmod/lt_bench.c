// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_bench.c - per-pair cost of latency_tracker, side by side with the
 * kernel's own rhashtable and a spinlock-per-bucket hlist table, measured
 * in one module run (make bench; test-only, never installed).
 *
 * One kthread on each of the first `cpus` online CPUs, bound to it.  In
 * each round every implementation runs in turn on all of them at once
 * (same key pattern: a fresh 8-byte key per pair, `live` other keys
 * pending in every table):
 *	ours	latency_tracker_event_in + latency_tracker_event_out
 *		(below the threshold: no callback; two clock reads, the
 *		statistics and the histogram update)
 *	rht_ew	the same answer from rhashtable: a clock read stored in the
 *		object at insert, lookup, a second clock read, the delay
 *		accounted as ours accounts it (count, sum, log2 histogram,
 *		min, max, threshold compare), remove
 *	rht	rhashtable insert + lookup + remove (no clock, no accounting)
 *	hlist	hlist insert + lookup + remove, one spinlock per bucket
 *	clock2	two reads of the tracker's clock (not a peer)
 * With live_big set, two more: ours_big and rht_ew_big, ours and rht_ew
 * on a second tracker and a second rhashtable holding live_big pending
 * keys: a table's growth with its pending keys is then measured within
 * each round, side by side with the small tables, so that a change of the
 * host's pace from one round or run to the next moves all four alike.
 * The order of the implementations turns by one each round, and round 0
 * is a warm-up whose figures are discarded.
 *
 * Every pair is timed on its own: with preemption disabled for a batch of
 * LTB_BATCH pairs, the clock is read between two pairs, and a pair's time
 * is the difference of the reads around it less the cost of one clock
 * read (the per-CPU median of back-to-back reads, clock_read_ns_cpuN).
 * Interrupts that land inside a pair are in its time, as they would be in
 * a probe.  Each pair's time goes into a histogram per implementation,
 * measured round and CPU (32 buckets per power of two: a bucket's
 * midpoint is within 1.6 % of every value in it), which
 * tests/bench/report.py turns into the median, the p99 and the bootstrap
 * intervals (a round on a CPU is the unit it resamples).
 *
 * Between two phases, untimed, the RCU callbacks queued so far are waited
 * for (rcu_barrier()): the slots of our ended events go back to the pool
 * in per-CPU batches after a grace period, and the tail of one phase would
 * otherwise be run (and timed) inside the next implementation's pairs.
 * Ours is charged for the reclaim work that runs during its own phase;
 * the peers free nothing (their objects are a preallocated array, never
 * reused within a round; rounds are separated by synchronize_rcu()), so
 * no allocation is timed anywhere.  A refused event_in, an event_out that
 * finds nothing, a failed insert or a missed lookup is a failure, counted
 * per implementation (failures_<impl>): the bench fails on any.
 *
 * Results: /proc/lt_bench (0400): "name value" lines, then one line per
 * (implementation, round, CPU): "hist IMPL ROUND CPU MID:COUNT...".
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include <latency_tracker.h>

#define LTB_BATCH	64
#define LTB_HBITS	12	/* hlist table: 4096 buckets */
#define LTB_CLOCK_READS	1024
/* rcu_barrier()s between phases: a reclaim batch may chain one more. */
#define LTB_SETTLE_BARRIERS	3
/* Histogram: values below 2 * LTB_SUB exact, then LTB_SUB per octave. */
#define LTB_SUB_BITS	5
#define LTB_SUB		BIT(LTB_SUB_BITS)
#define LTB_NBUCKETS	(LTB_SUB + (32 - LTB_SUB_BITS) * LTB_SUB)
#define LTB_LIVE_MAX	BIT(18)
#define LTB_THRESHOLD_NS	(1000ULL * NSEC_PER_SEC)	/* never crossed */

static unsigned int pairs = 16384;
module_param(pairs, uint, 0400);
MODULE_PARM_DESC(pairs, "timed pairs per CPU per round and implementation");
static unsigned int rounds = 21;
module_param(rounds, uint, 0400);
MODULE_PARM_DESC(rounds, "measured rounds (implementations interleaved in each), after one warm-up round");
static unsigned int impls = ~0U;
module_param(impls, uint, 0400);
MODULE_PARM_DESC(impls, "bit mask of the implementations to run (profiling one alone)");
static unsigned int live = 4096;
module_param(live, uint, 0400);
MODULE_PARM_DESC(live, "keys pending in every table while pairs run");
static unsigned int live_big;
module_param(live_big, uint, 0400);
MODULE_PARM_DESC(live_big, "keys pending in the second tracker and rhashtable (0: none, no *_big implementation)");
static unsigned int cpus;
module_param(cpus, uint, 0400);
MODULE_PARM_DESC(cpus, "CPUs producing pairs at once (0: every online CPU)");

enum ltb_impl {
	LTB_OURS, LTB_RHT_EW, LTB_RHT, LTB_HLIST, LTB_CLOCK,
	LTB_OURS_BIG, LTB_RHT_EW_BIG, LTB_NR_IMPL
};
static const char *const ltb_names[LTB_NR_IMPL] = {
	"ours", "rht_ew", "rht", "hlist", "clock2", "ours_big", "rht_ew_big"
};
#define LTB_BIG_IMPLS	(BIT(LTB_OURS_BIG) | BIT(LTB_RHT_EW_BIG))

struct ltb_obj {
	struct rhash_head rnode;
	struct hlist_node hnode;
	u64 key;
	u64 start_ns;
};

struct ltb_bucket {
	spinlock_t lock;		/* protects head */
	struct hlist_head head;
};

/* The equal-work peer's statistics: what ours keeps per CPU. */
struct ltb_ew_stats {
	u64 matched;
	u64 over_threshold;
	u64 sum_ns;
	u64 min_ns;
	u64 max_ns;
	u64 hist[65];
};

static const struct rhashtable_params ltb_rht_params = {
	.key_len = sizeof(u64),
	.key_offset = offsetof(struct ltb_obj, key),
	.head_offset = offsetof(struct ltb_obj, rnode),
};

static struct latency_tracker *ltb_tracker, *ltb_tracker_big;
static struct rhashtable ltb_rht, ltb_rht_big;
static struct ltb_bucket *ltb_hlist;
static struct ltb_obj *ltb_live;	/* the live keys of the peers */
static struct ltb_obj *ltb_live_big;	/* those of ltb_rht_big */
static bool ltb_rht_init, ltb_rht_big_init;	/* rhashtable_init() done */
static struct ltb_ew_stats __percpu *ltb_ew;

/* Per-CPU run state. */
struct ltb_cpu {
	unsigned int cpu;
	struct ltb_obj *objs;		/* pairs objects, one per pair */
	u32 *hist[LTB_NR_IMPL];		/* rounds * LTB_NBUCKETS counts */
	unsigned long failures[LTB_NR_IMPL];
	u64 clock_ns;			/* one clock read, median */
	u64 seq;
};

static struct ltb_cpu *ltb_cpus;
static unsigned int ltb_nr_cpus;
static atomic_t ltb_arrived;
static atomic_t ltb_done;
static DECLARE_COMPLETION(ltb_all_done);
static char *ltb_header;
static struct task_struct **ltb_threads;

static unsigned int ltb_bucket_of(u64 ns)
{
	unsigned int shift;

	if (ns < 2 * LTB_SUB)
		return ns;
	if (ns > U32_MAX)
		ns = U32_MAX;
	shift = ilog2(ns) - LTB_SUB_BITS;
	return LTB_SUB + shift * LTB_SUB + (unsigned int)(ns >> shift) - LTB_SUB;
}

/* Midpoint of a bucket (its lowest value for the exact ones). */
static u64 ltb_bucket_mid(unsigned int b)
{
	unsigned int shift;

	if (b < 2 * LTB_SUB)
		return b;
	shift = (b - LTB_SUB) / LTB_SUB;
	return ((u64)(LTB_SUB + (b - LTB_SUB) % LTB_SUB) << shift) +
	       (1ULL << shift) / 2;
}

static struct ltb_bucket *ltb_bucket(u64 key)
{
	return &ltb_hlist[hash_64(key, LTB_HBITS)];
}

static void ltb_hlist_add(struct ltb_obj *o)
{
	struct ltb_bucket *b = ltb_bucket(o->key);
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	hlist_add_head(&o->hnode, &b->head);
	spin_unlock_irqrestore(&b->lock, flags);
}

/* Lookup and removal of one key, as a tracker's event_out would do. */
static bool ltb_hlist_take(u64 key)
{
	struct ltb_bucket *b = ltb_bucket(key);
	struct ltb_obj *o;
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&b->lock, flags);
	hlist_for_each_entry(o, &b->head, hnode) {
		if (o->key == key) {
			hlist_del(&o->hnode);
			found = true;
			break;
		}
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return found;
}

/* The equal-work peer's accounting of one delay (any context). */
static void ltb_ew_account(u64 delay)
{
	u64 old, prev;

	this_cpu_inc(ltb_ew->matched);
	this_cpu_add(ltb_ew->sum_ns, delay);
	this_cpu_inc(ltb_ew->hist[fls64(delay)]);
	old = this_cpu_read(ltb_ew->min_ns);
	while (delay < old) {
		prev = this_cpu_cmpxchg(ltb_ew->min_ns, old, delay);
		if (prev == old)
			break;
		old = prev;
	}
	old = this_cpu_read(ltb_ew->max_ns);
	while (delay > old) {
		prev = this_cpu_cmpxchg(ltb_ew->max_ns, old, delay);
		if (prev == old)
			break;
		old = prev;
	}
	if (delay > LTB_THRESHOLD_NS)
		this_cpu_inc(ltb_ew->over_threshold);
}

static bool ltb_rht_ew(struct rhashtable *ht, struct ltb_obj *o, u64 key)
{
	u64 now;

	o->key = key;
	o->start_ns = ktime_get_mono_fast_ns();
	if (rhashtable_insert_fast(ht, &o->rnode, ltb_rht_params))
		return false;
	o = rhashtable_lookup_fast(ht, &key, ltb_rht_params);
	if (!o)
		return false;
	now = ktime_get_mono_fast_ns();
	ltb_ew_account(now > o->start_ns ? now - o->start_ns : 0);
	return !rhashtable_remove_fast(ht, &o->rnode, ltb_rht_params);
}

static bool ltb_ours(struct latency_tracker *t, u64 key)
{
	return latency_tracker_event_in(t, &key, sizeof(key), NULL) ==
	       LATENCY_TRACKER_OK &&
	       latency_tracker_event_out(t, &key, sizeof(key), 0, NULL) == 1;
}

static bool ltb_pair(struct ltb_cpu *c, enum ltb_impl impl, unsigned int i)
{
	u64 key = ((u64)c->cpu << 48) | c->seq++;
	struct ltb_obj *o = &c->objs[i];

	switch (impl) {
	case LTB_OURS:
		return ltb_ours(ltb_tracker, key);
	case LTB_OURS_BIG:
		return ltb_ours(ltb_tracker_big, key);
	case LTB_RHT_EW:
		return ltb_rht_ew(&ltb_rht, o, key);
	case LTB_RHT_EW_BIG:
		return ltb_rht_ew(&ltb_rht_big, o, key);
	case LTB_RHT:
		o->key = key;
		if (rhashtable_insert_fast(&ltb_rht, &o->rnode, ltb_rht_params))
			return false;
		o = rhashtable_lookup_fast(&ltb_rht, &key, ltb_rht_params);
		return o && !rhashtable_remove_fast(&ltb_rht, &o->rnode,
						    ltb_rht_params);
	case LTB_HLIST:
		o->key = key;
		ltb_hlist_add(o);
		return ltb_hlist_take(key);
	case LTB_CLOCK:
		/* Not a peer: the two clock reads that ours does per pair. */
		o->key = ktime_get_mono_fast_ns();
		return ktime_get_mono_fast_ns() >= o->key;
	default:
		return false;
	}
}

/*
 * All CPUs start each implementation together.  The wait yields: a CPU
 * spinning here without a scheduling point would hold off stop_machine()
 * (e.g. a clocksource change) and RCU on a non-preemptible kernel.
 */
static void ltb_barrier(unsigned int *generation)
{
	unsigned int target = ++(*generation) * ltb_nr_cpus;

	atomic_inc(&ltb_arrived);
	while (atomic_read(&ltb_arrived) < target)
		cond_resched();
}

static int ltb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median cost of one clock read on this CPU: back-to-back reads. */
static u64 ltb_clock_cost(void)
{
	u64 *d, t0, t1, med;
	unsigned int i;

	d = vmalloc(array_size(LTB_CLOCK_READS, sizeof(*d)));
	if (!d)
		return 0;
	preempt_disable();
	t0 = ktime_get_mono_fast_ns();
	for (i = 0; i < LTB_CLOCK_READS; i++) {
		t1 = ktime_get_mono_fast_ns();
		d[i] = t1 - t0;
		t0 = t1;
	}
	preempt_enable();
	sort(d, LTB_CLOCK_READS, sizeof(*d), ltb_cmp_u64, NULL);
	med = d[LTB_CLOCK_READS / 2];
	vfree(d);
	return med;
}

/* One implementation's pairs on this CPU, each timed on its own. */
static void ltb_phase(struct ltb_cpu *c, enum ltb_impl impl, u32 *hist)
{
	unsigned int b, i;

	for (b = 0; b < pairs / LTB_BATCH; b++) {
		u64 t0, t1, d;

		preempt_disable();
		t0 = ktime_get_mono_fast_ns();
		for (i = 0; i < LTB_BATCH; i++) {
			if (!ltb_pair(c, impl, b * LTB_BATCH + i))
				c->failures[impl]++;
			t1 = ktime_get_mono_fast_ns();
			d = t1 - t0;
			d = d > c->clock_ns ? d - c->clock_ns : 0;
			if (hist)
				hist[ltb_bucket_of(d)]++;
			t0 = t1;
		}
		preempt_enable();
		cond_resched();
	}
}

static int ltb_thread(void *arg)
{
	struct ltb_cpu *c = arg;
	unsigned int gen = 0, r, k, impl, i;

	c->clock_ns = ltb_clock_cost();
	for (r = 0; r <= rounds; r++) {
		for (k = 0; k < LTB_NR_IMPL; k++) {
			impl = (k + r) % LTB_NR_IMPL;
			if (!(impls & BIT(impl)))
				continue;
			/*
			 * Settle the deferred work of the previous phase
			 * (our reclaim batches, one or two chained
			 * callbacks per CPU), untimed, so that it does not
			 * land in the next implementation's pairs.
			 */
			ltb_barrier(&gen);
			if (c == &ltb_cpus[0])
				for (i = 0; i < LTB_SETTLE_BARRIERS; i++)
					rcu_barrier();
			ltb_barrier(&gen);
			/* Round 0 warms up: timed like the others, not kept. */
			ltb_phase(c, impl, r ? c->hist[impl] +
				  (size_t)(r - 1) * LTB_NBUCKETS : NULL);
		}
		/* The peers' objects may be reused once readers are gone. */
		ltb_barrier(&gen);
		if (c == &ltb_cpus[0])
			synchronize_rcu();
		ltb_barrier(&gen);
	}
	if (atomic_inc_return(&ltb_done) == ltb_nr_cpus)
		complete(&ltb_all_done);
	/* Park until the module is unloaded. */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int ltb_show(struct seq_file *m, void *v)
{
	unsigned int impl, r, c, b;
	const u32 *h;

	seq_puts(m, ltb_header);
	for (impl = 0; impl < LTB_NR_IMPL; impl++) {
		if (!(impls & BIT(impl)))
			continue;
		for (r = 0; r < rounds; r++) {
			for (c = 0; c < ltb_nr_cpus; c++) {
				h = ltb_cpus[c].hist[impl] +
				    (size_t)r * LTB_NBUCKETS;
				seq_printf(m, "hist %s %u %u", ltb_names[impl],
					   r + 1, ltb_cpus[c].cpu);
				for (b = 0; b < LTB_NBUCKETS; b++)
					if (h[b])
						seq_printf(m, " %llu:%u",
							   ltb_bucket_mid(b),
							   h[b]);
				seq_putc(m, '\n');
			}
		}
	}
	return 0;
}

static int ltb_make_header(void)
{
	struct latency_tracker_stats st;
	size_t len = 0, size = 2048;
	unsigned int c, impl;
	u64 ew_matched = 0;
	int cpu;

	ltb_header = kzalloc(size, GFP_KERNEL);
	if (!ltb_header)
		return -ENOMEM;
	latency_tracker_get_stats(ltb_tracker, &st);
	for_each_possible_cpu(cpu)
		ew_matched += per_cpu_ptr(ltb_ew, cpu)->matched;
	len += scnprintf(ltb_header + len, size - len,
			 "cpus %u\nrounds %u\nwarmup_rounds 1\npairs_per_cpu_round %u\nlive_keys %u\nlive_big_keys %u\nslot_bytes %llu\nours_matched %llu\nrht_ew_matched %llu\nhist_sub_buckets %lu\n",
			 ltb_nr_cpus, rounds, pairs, live, live_big,
			 (unsigned long long)st.slot_bytes,
			 (unsigned long long)st.matched, ew_matched, LTB_SUB);
	for (c = 0; c < ltb_nr_cpus; c++)
		len += scnprintf(ltb_header + len, size - len,
				 "clock_read_ns_cpu%u %llu\n", ltb_cpus[c].cpu,
				 ltb_cpus[c].clock_ns);
	for (impl = 0; impl < LTB_NR_IMPL; impl++) {
		unsigned long f = 0;

		if (!(impls & BIT(impl)))
			continue;
		for (c = 0; c < ltb_nr_cpus; c++)
			f += ltb_cpus[c].failures[impl];
		len += scnprintf(ltb_header + len, size - len,
				 "failures_%s %lu\n", ltb_names[impl], f);
	}
	return 0;
}

/*
 * A tracker NAME and an rhashtable, with @n keys pending in both (and in
 * the hlist table when @hl), tagged @tag in their top bits.  The tracker
 * has room for them and for the pairs waiting for their grace period, all
 * allocated at once: the pairs measure the table, not growth.
 */
static int ltb_fill(const char *name, unsigned int n, u64 tag,
		    struct latency_tracker **t, struct rhashtable *ht,
		    bool *ht_init, struct ltb_obj **objs, bool hl)
{
	struct latency_tracker_params p = {
		.name = name,
		.threshold_ns = LTB_THRESHOLD_NS,
		.max_events = n + 64 * 1024,
		.initial_events = n + 64 * 1024,
		.key_size = sizeof(u64),
	};
	struct latency_tracker *tr;
	unsigned int i;
	int ret;
	u64 key;

	tr = latency_tracker_create(&p);
	if (IS_ERR(tr))
		return PTR_ERR(tr);
	*t = tr;
	ret = rhashtable_init(ht, &ltb_rht_params);
	if (ret)
		return ret;
	*ht_init = true;
	*objs = kvcalloc(n, sizeof(**objs), GFP_KERNEL);
	if (!*objs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		key = (tag << 48) | i;
		(*objs)[i].key = key;
		if (latency_tracker_event_in(tr, &key, sizeof(key), NULL) !=
		    LATENCY_TRACKER_OK ||
		    rhashtable_insert_fast(ht, &(*objs)[i].rnode,
					   ltb_rht_params)) {
			pr_err("lt_bench: cannot insert live key %u of %s\n",
			       i, name);
			return -ENOSPC;
		}
		if (hl)
			ltb_hlist_add(&(*objs)[i]);
		if (!(i % 1024))
			cond_resched();
	}
	return 0;
}


/* What ltb_setup() set up, whatever it got to (any of it may be absent). */
static void ltb_free_tables(void)
{
	if (ltb_tracker_big)
		latency_tracker_destroy(ltb_tracker_big);
	if (ltb_tracker)
		latency_tracker_destroy(ltb_tracker);
	/* Every peer object is in a caller-owned array: just empty them. */
	if (ltb_rht_big_init)
		rhashtable_destroy(&ltb_rht_big);
	if (ltb_rht_init)
		rhashtable_destroy(&ltb_rht);
	kvfree(ltb_hlist);
	kvfree(ltb_live_big);
	kvfree(ltb_live);
	free_percpu(ltb_ew);
}

static int ltb_setup(void)
{
	unsigned int i;
	int cpu, ret;

	ltb_ew = alloc_percpu(struct ltb_ew_stats);
	ltb_hlist = kvcalloc(1 << LTB_HBITS, sizeof(*ltb_hlist), GFP_KERNEL);
	if (!ltb_ew || !ltb_hlist) {
		ret = -ENOMEM;
		goto err;
	}
	for_each_possible_cpu(cpu)
		per_cpu_ptr(ltb_ew, cpu)->min_ns = U64_MAX;
	for (i = 0; i < (1 << LTB_HBITS); i++) {
		spin_lock_init(&ltb_hlist[i].lock);
		INIT_HLIST_HEAD(&ltb_hlist[i].head);
	}
	/* The same live keys in every table. */
	ret = ltb_fill("lt_bench", live, 0xfff, &ltb_tracker, &ltb_rht,
		       &ltb_rht_init, &ltb_live, true);
	if (!ret && live_big)
		ret = ltb_fill("lt_bench_big", live_big, 0xffe,
			       &ltb_tracker_big, &ltb_rht_big,
			       &ltb_rht_big_init, &ltb_live_big, false);
	if (ret)
		goto err;
	return 0;

err:
	ltb_free_tables();
	return ret;
}

static void ltb_free_cpus(void)
{
	unsigned int c, impl;

	for (c = 0; ltb_cpus && c < ltb_nr_cpus; c++) {
		for (impl = 0; impl < LTB_NR_IMPL; impl++)
			vfree(ltb_cpus[c].hist[impl]);
		vfree(ltb_cpus[c].objs);
	}
	kfree(ltb_cpus);
	kfree(ltb_threads);
}

static void ltb_teardown(void)
{
	ltb_free_tables();
	ltb_free_cpus();
	kfree(ltb_header);
}

static int __init ltb_init(void)
{
	unsigned int c = 0, cpu, impl;
	int ret;

	if (!pairs || pairs % LTB_BATCH || pairs > 1 << 20 || !rounds ||
	    rounds > 100 || live > LTB_LIVE_MAX || live_big > LTB_LIVE_MAX ||
	    cpus > num_online_cpus()) {
		pr_err("lt_bench: pairs must be a multiple of %d up to 2^20, rounds 1..100, live and live_big up to %lu, cpus up to the online CPUs\n",
		       LTB_BATCH, LTB_LIVE_MAX);
		return -EINVAL;
	}
	if (!live_big)
		impls &= ~LTB_BIG_IMPLS;
	ret = ltb_setup();
	if (ret)
		return ret;
	ltb_nr_cpus = cpus ? cpus : num_online_cpus();
	ret = -ENOMEM;
	ltb_cpus = kcalloc(ltb_nr_cpus, sizeof(*ltb_cpus), GFP_KERNEL);
	ltb_threads = kcalloc(ltb_nr_cpus, sizeof(*ltb_threads), GFP_KERNEL);
	if (!ltb_cpus || !ltb_threads)
		goto err;
	for_each_online_cpu(cpu) {
		if (c == ltb_nr_cpus)
			break;
		ltb_cpus[c].cpu = cpu;
		ltb_cpus[c].objs = vzalloc(array_size(pairs, sizeof(struct ltb_obj)));
		if (!ltb_cpus[c].objs)
			goto err;
		for (impl = 0; impl < LTB_NR_IMPL; impl++) {
			ltb_cpus[c].hist[impl] =
				vzalloc(array3_size(rounds, LTB_NBUCKETS, sizeof(u32)));
			if (!ltb_cpus[c].hist[impl])
				goto err;
		}
		c++;
	}
	if (c < ltb_nr_cpus) {	/* a CPU went offline meanwhile */
		ret = -EBUSY;
		goto err;
	}
	for (c = 0; c < ltb_nr_cpus; c++) {
		ltb_threads[c] = kthread_create_on_cpu(ltb_thread, &ltb_cpus[c],
						       ltb_cpus[c].cpu, "lt_bench/%u");
		if (IS_ERR(ltb_threads[c])) {
			ret = PTR_ERR(ltb_threads[c]);
			ltb_threads[c] = NULL;
			goto err_threads;
		}
	}
	for (c = 0; c < ltb_nr_cpus; c++)
		wake_up_process(ltb_threads[c]);
	wait_for_completion(&ltb_all_done);
	ret = ltb_make_header();
	if (ret)
		goto err_threads;
	if (!proc_create_single("lt_bench", 0400, NULL, ltb_show)) {
		ret = -ENOMEM;
		goto err_threads;
	}
	return 0;

err_threads:
	for (c = 0; c < ltb_nr_cpus; c++)
		if (ltb_threads[c])
			kthread_stop(ltb_threads[c]);
err:
	ltb_teardown();
	return ret;
}

static void __exit ltb_exit(void)
{
	unsigned int c;

	remove_proc_entry("lt_bench", NULL);
	for (c = 0; c < ltb_nr_cpus; c++)
		kthread_stop(ltb_threads[c]);
	ltb_teardown();
}

module_init(ltb_init);
module_exit(ltb_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latency-tracker benchmark: event_in/out pairs vs rhashtable (bare and equal-work) and a locked hlist table");
