// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - per-CPU counters and the log2 latency histogram of a tracker,
 * and the `stats` and `histogram` files that sum them.
 *
 * Writers use this_cpu_*() operations only: each is atomic with respect to
 * interrupts and preemption on the local CPU, so no increment is lost
 * whatever context the probe path runs in.  min/max use this_cpu_cmpxchg()
 * loops (the per-event writer, lt_stats_matched(), is inline in core.h).
 * The sum of the matched delays is exact, in 128 bits (stats_sum.h).
 * Readers sum every possible CPU without stopping writers: a line
 * may be a few events behind another, never wrong by more.
 */
#include <linux/export.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "core.h"

int lt_stats_init(struct latency_tracker *t)
{
	int cpu;

	t->stats = alloc_percpu(struct lt_stats);
	if (!t->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(t->stats, cpu)->min_ns = U64_MAX;
		lt_sum_init(&per_cpu_ptr(t->stats, cpu)->sum);
	}
	return 0;
}

void lt_stats_fini(struct latency_tracker *t)
{
	free_percpu(t->stats);
	t->stats = NULL;
}

/**
 * latency_tracker_get_stats() - sum the per-CPU counters of a tracker
 * @t: the tracker.
 * @s: filled with the `stats` file's values.
 *
 * Writers are not stopped: counters of events in flight may be one event
 * apart from each other.
 *
 * Context: any context (reads every possible CPU's counters).
 */
void latency_tracker_get_stats(struct latency_tracker *t,
			       struct latency_tracker_stats *s)
{
	struct lt_u128 sum = { 0, 0 };
	u64 ended = 0, min_ns = U64_MAX;
	int cpu;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		struct lt_stats *c = per_cpu_ptr(t->stats, cpu);

		s->tracked += READ_ONCE(c->tracked);
		ended += READ_ONCE(c->unlinked);
		s->matched += READ_ONCE(c->matched);
		s->over_threshold += READ_ONCE(c->over_threshold);
		s->timeouts += READ_ONCE(c->timeouts);
		s->dropped += READ_ONCE(c->dropped);
		s->cancelled += READ_ONCE(c->cancelled);
		s->filtered += READ_ONCE(c->filtered);
		s->alerts += READ_ONCE(c->alerts);
		s->alerts_lost += READ_ONCE(c->alerts_lost);
		lt_sum_read(&c->sum, &sum);
		min_ns = min(min_ns, READ_ONCE(c->min_ns));
		s->max_ns = max(s->max_ns, READ_ONCE(c->max_ns));
	}
	/* Records refused (bad payload) plus those the readers missed. */
	s->alerts_lost += lt_alert_ring_lost(&t->ring);
	ended += s->matched + s->cancelled;
	s->pending = s->tracked > ended ? s->tracked - ended : 0;
	s->slot_bytes = lt_pool_bytes_per_slot(&t->pool);
	s->alert_records = t->ring.mask + 1ULL;
	s->capacity = lt_pool_capacity(&t->pool);
	s->max_events = t->max_events;
	s->grown = READ_ONCE(t->grown);
	s->sum_ns_hi = sum.hi;
	s->sum_ns_lo = sum.lo;
	if (s->matched) {
		s->min_ns = min_ns;
		s->avg_ns = lt_u128_div_u64(sum, s->matched);
	}
}
EXPORT_SYMBOL_GPL(latency_tracker_get_stats);

/**
 * latency_tracker_count_filtered() - count an event a filter kept out
 * @t: the tracker.
 *
 * For tracker modules that filter what they track (the `filtered` line
 * of `stats`): one call per event not started because of a filter.
 *
 * Context: any context; one per-CPU increment, never sleeps.
 */
void latency_tracker_count_filtered(struct latency_tracker *t)
{
	this_cpu_inc(t->stats->filtered);
}
EXPORT_SYMBOL_GPL(latency_tracker_count_filtered);

static int lt_stats_show(struct seq_file *m, void *v)
{
	struct latency_tracker *t = m->private;
	struct lt_u128 sum;
	struct latency_tracker_stats s;
	char dec[LT_U128_DEC_SIZE];

	latency_tracker_get_stats(t, &s);
	sum.hi = s.sum_ns_hi;
	sum.lo = s.sum_ns_lo;
	lt_u128_to_dec(sum, dec);
	seq_printf(m, "tracked %llu\n", s.tracked);
	seq_printf(m, "matched %llu\n", s.matched);
	seq_printf(m, "over_threshold %llu\n", s.over_threshold);
	seq_printf(m, "timeouts %llu\n", s.timeouts);
	seq_printf(m, "dropped %llu\n", s.dropped);
	seq_printf(m, "pending %llu\n", s.pending);
	seq_printf(m, "alerts %llu\n", s.alerts);
	seq_printf(m, "alerts_lost %llu\n", s.alerts_lost);
	seq_printf(m, "min_ns %llu\n", s.min_ns);
	seq_printf(m, "max_ns %llu\n", s.max_ns);
	seq_printf(m, "avg_ns %llu\n", s.avg_ns);
	seq_printf(m, "cancelled %llu\n", s.cancelled);
	seq_printf(m, "filtered %llu\n", s.filtered);
	seq_printf(m, "alert_records %llu\n", s.alert_records);
	seq_printf(m, "sum_ns %s\n", dec);
	seq_printf(m, "capacity %llu\n", s.capacity);
	seq_printf(m, "max_events %llu\n", s.max_events);
	seq_printf(m, "grown %llu\n", s.grown);
	if (t->stats_show)
		t->stats_show(m, t);
	return 0;
}

static int lt_hist_show(struct seq_file *m, void *v)
{
	struct latency_tracker *t = m->private;
	unsigned int b;
	u64 count;
	int cpu;

	for (b = 0; b < LT_HIST_BUCKETS; b++) {
		count = 0;
		for_each_possible_cpu(cpu)
			count += READ_ONCE(per_cpu_ptr(t->stats, cpu)->hist[b]);
		if (count)
			seq_printf(m, "%llu %llu %llu\n",
				   (u64)lt_hist_low(b), (u64)lt_hist_high(b),
				   count);
	}
	return 0;
}

static int lt_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, lt_stats_show, pde_data(inode));
}

static int lt_hist_open(struct inode *inode, struct file *file)
{
	return single_open(file, lt_hist_show, pde_data(inode));
}

const struct proc_ops lt_stats_proc_ops = {
	.proc_open = lt_stats_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

const struct proc_ops lt_hist_proc_ops = {
	.proc_open = lt_hist_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};
