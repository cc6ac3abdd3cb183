// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_bench.c - per-event cost of latency_tracker, side by side with the
 * kernel's own rhashtable and a spinlock-per-bucket hlist table, measured
 * in one module run (make bench; test-only, never installed).
 *
 * One kthread per online CPU, bound to it.  In each round every
 * implementation runs in turn on all CPUs at once (same keys pattern: a
 * fresh 8-byte key per pair, 4096 other keys live in the table):
 *	ours	latency_tracker_event_in + latency_tracker_event_out
 *		(below the threshold: no callback)
 *	rht	rhashtable insert + lookup + remove
 *	hlist	hlist insert + lookup + remove, one spinlock per bucket
 *	clock2	two reads of the tracker's clock, the part of ours that
 *		depends most on the clock source (not a peer)
 * Batches of LTB_BATCH pairs are timed with preemption disabled; the cost
 * of a pair is a batch's time divided by LTB_BATCH, and the median and p99
 * are taken over all batches of all CPUs and rounds.  Between two phases,
 * untimed, the RCU callbacks queued so far are waited for (rcu_barrier()):
 * the slots of our ended events go back to the pool in per-CPU batches
 * after a grace period, and the tail of one phase would otherwise be run
 * (and timed) inside the next implementation's batches.  Ours is charged
 * for the reclaim work that runs during its own phase; the peers free
 * nothing (their objects are a preallocated array).  The peers' objects
 * come from a per-CPU array never reused within a round (rounds are
 * separated by synchronize_rcu()), so no allocation is timed anywhere.
 *
 * Results: /proc/lt_bench (0400), one "name value" per line.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include <latency_tracker.h>

#define LTB_BATCH	64
#define LTB_LIVE	4096
#define LTB_HBITS	12	/* hlist table: 4096 buckets */
#define LTB_CLOCK_READS	4096
/* rcu_barrier()s between phases: a reclaim batch may chain one more. */
#define LTB_SETTLE_BARRIERS	3

static unsigned int pairs = 16384;
module_param(pairs, uint, 0400);
MODULE_PARM_DESC(pairs, "timed pairs per CPU per round and implementation");
static unsigned int rounds = 5;
module_param(rounds, uint, 0400);
MODULE_PARM_DESC(rounds, "rounds (implementations interleaved in each)");
static unsigned int impls = ~0U;
module_param(impls, uint, 0400);
MODULE_PARM_DESC(impls, "bit mask of the implementations to run (profiling one alone)");

enum ltb_impl { LTB_OURS, LTB_RHT, LTB_HLIST, LTB_CLOCK, LTB_NR_IMPL };
static const char *const ltb_names[LTB_NR_IMPL] = {
	"ours", "rht", "hlist", "clock2"
};

struct ltb_obj {
	struct rhash_head rnode;
	struct hlist_node hnode;
	u64 key;
};

struct ltb_bucket {
	spinlock_t lock;
	struct hlist_head head;
};

static const struct rhashtable_params ltb_rht_params = {
	.key_len = sizeof(u64),
	.key_offset = offsetof(struct ltb_obj, key),
	.head_offset = offsetof(struct ltb_obj, rnode),
};

static struct latency_tracker *ltb_tracker;
static struct rhashtable ltb_rht;
static struct ltb_bucket *ltb_hlist;
static struct ltb_obj *ltb_live;	/* the LTB_LIVE keys of the peers */

/* Per-CPU run state. */
struct ltb_cpu {
	unsigned int cpu;
	struct ltb_obj *objs;		/* pairs objects, one per pair */
	u32 *samples[LTB_NR_IMPL];	/* ns per batch */
	unsigned int nr_samples[LTB_NR_IMPL];
	u64 seq;
	unsigned long failures;
};

static struct ltb_cpu *ltb_cpus;
static unsigned int ltb_nr_cpus;
static atomic_t ltb_arrived;
static atomic_t ltb_done;
static DECLARE_COMPLETION(ltb_all_done);
static char *ltb_report;

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

static bool ltb_pair(struct ltb_cpu *c, enum ltb_impl impl, unsigned int i)
{
	u64 key = ((u64)c->cpu << 48) | c->seq++;
	struct ltb_obj *o = &c->objs[i];

	switch (impl) {
	case LTB_OURS:
		if (latency_tracker_event_in(ltb_tracker, &key, sizeof(key),
					     NULL) != LATENCY_TRACKER_OK)
			return false;
		return latency_tracker_event_out(ltb_tracker, &key,
						 sizeof(key), 0, NULL) == 1;
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

static int ltb_thread(void *arg)
{
	struct ltb_cpu *c = arg;
	unsigned int gen = 0, r, impl, b, i;

	for (r = 0; r < rounds; r++) {
		for (impl = 0; impl < LTB_NR_IMPL; impl++) {
			if (!(impls & BIT(impl)))
				continue;
			/*
			 * Settle the deferred work of the previous phase
			 * (our reclaim batches, one or two chained
			 * callbacks per CPU), untimed, so that it does not
			 * land in the next implementation's batches.
			 */
			ltb_barrier(&gen);
			if (c->cpu == ltb_cpus[0].cpu)
				for (i = 0; i < LTB_SETTLE_BARRIERS; i++)
					rcu_barrier();
			ltb_barrier(&gen);
			for (b = 0; b < pairs / LTB_BATCH; b++) {
				u64 t0, t1;

				preempt_disable();
				t0 = ktime_get_mono_fast_ns();
				for (i = 0; i < LTB_BATCH; i++)
					if (!ltb_pair(c, impl, b * LTB_BATCH + i))
						c->failures++;
				t1 = ktime_get_mono_fast_ns();
				preempt_enable();
				c->samples[impl][c->nr_samples[impl]++] =
					min_t(u64, t1 - t0, U32_MAX);
				cond_resched();
			}
		}
		/* The peers' objects may be reused once readers are gone. */
		ltb_barrier(&gen);
		if (c->cpu == ltb_cpus[0].cpu)
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

static int ltb_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Median and p99 of the per-pair cost, in ns, over every CPU's batches. */
static void ltb_stats(enum ltb_impl impl, u64 *median, u64 *p99)
{
	unsigned int n = 0, c, k;
	u32 *all;

	for (c = 0; c < ltb_nr_cpus; c++)
		n += ltb_cpus[c].nr_samples[impl];
	all = n ? vmalloc(array_size(n, sizeof(*all))) : NULL;
	if (!all) {
		*median = *p99 = 0;
		return;
	}
	for (c = 0, k = 0; c < ltb_nr_cpus; c++) {
		memcpy(all + k, ltb_cpus[c].samples[impl],
		       ltb_cpus[c].nr_samples[impl] * sizeof(*all));
		k += ltb_cpus[c].nr_samples[impl];
	}
	sort(all, n, sizeof(*all), ltb_cmp_u32, NULL);
	*median = all[n / 2] / LTB_BATCH;
	*p99 = all[min(n - 1, n * 99 / 100)] / LTB_BATCH;
	vfree(all);
}

static int ltb_show(struct seq_file *m, void *v)
{
	seq_puts(m, ltb_report);
	return 0;
}

/*
 * Cost of one read of the tracker's clock (two per pair in ours, none in
 * the peers): under emulation it depends a lot on the clock source.
 */
static u64 ltb_clock_ns(void)
{
	u64 t0, t1, sink = 0;
	unsigned int i;

	preempt_disable();
	t0 = ktime_get_mono_fast_ns();
	for (i = 0; i < LTB_CLOCK_READS; i++)
		sink += ktime_get_mono_fast_ns();
	t1 = ktime_get_mono_fast_ns();
	preempt_enable();
	return sink ? (t1 - t0) / LTB_CLOCK_READS : 0;
}

static void ltb_make_report(void)
{
	struct latency_tracker_stats st;
	unsigned long failures = 0;
	size_t len = 0, size = 2048;
	unsigned int c, impl;
	u64 med, p99;

	ltb_report = kzalloc(size, GFP_KERNEL);
	if (!ltb_report)
		return;
	for (c = 0; c < ltb_nr_cpus; c++)
		failures += ltb_cpus[c].failures;
	latency_tracker_get_stats(ltb_tracker, &st);
	len += scnprintf(ltb_report + len, size - len,
			 "cpus %u\nrounds %u\npairs_per_cpu_round %u\nbatch %u\nlive_keys %u\nslot_bytes %llu\nfailures %lu\nclock_read_ns %llu\n",
			 ltb_nr_cpus, rounds, pairs, LTB_BATCH, LTB_LIVE,
			 (unsigned long long)st.slot_bytes, failures,
			 ltb_clock_ns());
	for (impl = 0; impl < LTB_NR_IMPL; impl++) {
		ltb_stats(impl, &med, &p99);
		len += scnprintf(ltb_report + len, size - len,
				 "%s_median_ns %llu\n%s_p99_ns %llu\n",
				 ltb_names[impl], med, ltb_names[impl], p99);
	}
}

static int ltb_setup(void)
{
	struct latency_tracker_params p = {
		.name = "lt_bench",
		.threshold_ns = 1000ULL * NSEC_PER_SEC,	/* never crossed */
		/* Live keys + pairs waiting for their grace period. */
		.max_events = LTB_LIVE + 64 * 1024,
		.key_size = sizeof(u64),
	};
	unsigned int i;
	u64 key;
	int ret;

	ltb_tracker = latency_tracker_create(&p);
	if (IS_ERR(ltb_tracker))
		return PTR_ERR(ltb_tracker);
	ret = rhashtable_init(&ltb_rht, &ltb_rht_params);
	if (ret)
		goto err_tracker;
	ret = -ENOMEM;
	ltb_hlist = kvcalloc(1 << LTB_HBITS, sizeof(*ltb_hlist), GFP_KERNEL);
	ltb_live = kvcalloc(LTB_LIVE, sizeof(*ltb_live), GFP_KERNEL);
	if (!ltb_hlist || !ltb_live)
		goto err_tables;
	for (i = 0; i < (1 << LTB_HBITS); i++) {
		spin_lock_init(&ltb_hlist[i].lock);
		INIT_HLIST_HEAD(&ltb_hlist[i].head);
	}
	/* The same 4096 live keys in every table. */
	for (i = 0; i < LTB_LIVE; i++) {
		key = (0xfffULL << 48) | i;
		ltb_live[i].key = key;
		if (latency_tracker_event_in(ltb_tracker, &key, sizeof(key),
					     NULL) != LATENCY_TRACKER_OK ||
		    rhashtable_insert_fast(&ltb_rht, &ltb_live[i].rnode,
					   ltb_rht_params))
			goto err_tables;
		ltb_hlist_add(&ltb_live[i]);
	}
	return 0;

err_tables:
	kvfree(ltb_live);
	kvfree(ltb_hlist);
	rhashtable_destroy(&ltb_rht);
err_tracker:
	latency_tracker_destroy(ltb_tracker);
	return ret;
}

static struct task_struct **ltb_threads;

static void ltb_free_cpus(void)
{
	unsigned int c, impl;

	for (c = 0; c < ltb_nr_cpus; c++) {
		for (impl = 0; impl < LTB_NR_IMPL; impl++)
			vfree(ltb_cpus[c].samples[impl]);
		vfree(ltb_cpus[c].objs);
	}
	kfree(ltb_cpus);
	kfree(ltb_threads);
}

static int __init ltb_init(void)
{
	unsigned int c = 0, cpu, impl, nbatch;
	int ret;

	if (!pairs || pairs % LTB_BATCH || pairs > 1 << 20 || !rounds || rounds > 100) {
		pr_err("lt_bench: pairs must be a multiple of %d up to 2^20, rounds 1..100\n",
		       LTB_BATCH);
		return -EINVAL;
	}
	ret = ltb_setup();
	if (ret)
		return ret;
	ltb_nr_cpus = num_online_cpus();
	ret = -ENOMEM;
	ltb_cpus = kcalloc(ltb_nr_cpus, sizeof(*ltb_cpus), GFP_KERNEL);
	ltb_threads = kcalloc(ltb_nr_cpus, sizeof(*ltb_threads), GFP_KERNEL);
	if (!ltb_cpus || !ltb_threads)
		goto err;
	nbatch = rounds * (pairs / LTB_BATCH);
	for_each_online_cpu(cpu) {
		if (c == ltb_nr_cpus)
			break;
		ltb_cpus[c].cpu = cpu;
		ltb_cpus[c].objs = vzalloc(array_size(pairs, sizeof(struct ltb_obj)));
		if (!ltb_cpus[c].objs)
			goto err;
		for (impl = 0; impl < LTB_NR_IMPL; impl++) {
			ltb_cpus[c].samples[impl] = vmalloc(array_size(nbatch, sizeof(u32)));
			if (!ltb_cpus[c].samples[impl])
				goto err;
		}
		c++;
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
	ltb_make_report();
	if (!ltb_report || !proc_create_single("lt_bench", 0400, NULL, ltb_show)) {
		ret = -ENOMEM;
		goto err_threads;
	}
	return 0;

err_threads:
	for (c = 0; c < ltb_nr_cpus; c++)
		if (ltb_threads[c])
			kthread_stop(ltb_threads[c]);
err:
	kfree(ltb_report);
	ltb_free_cpus();
	latency_tracker_destroy(ltb_tracker);
	rhashtable_destroy(&ltb_rht);
	kvfree(ltb_hlist);
	kvfree(ltb_live);
	return ret;
}

static void __exit ltb_exit(void)
{
	unsigned int c;

	remove_proc_entry("lt_bench", NULL);
	for (c = 0; c < ltb_nr_cpus; c++)
		kthread_stop(ltb_threads[c]);
	latency_tracker_destroy(ltb_tracker);
	/* Every peer object is in a caller-owned array: just empty them. */
	rhashtable_destroy(&ltb_rht);
	kvfree(ltb_hlist);
	kvfree(ltb_live);
	ltb_free_cpus();
	kfree(ltb_report);
}

module_init(ltb_init);
module_exit(ltb_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latency-tracker benchmark: event_in/out pairs vs rhashtable and a locked hlist table");
