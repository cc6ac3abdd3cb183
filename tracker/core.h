/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.h - internals of latency_tracker.ko shared by its files.
 *
 * File map:
 *	tracker.c	module init/exit, create/destroy, small accessors
 *	params.c	bounds of the knobs (one table) and their setters
 *	event.c		event_in / event_out / stateful lookup, event lifetime
 *	reclaim.c	ended events back to the pool, in per-CPU batches that
 *			wait for one RCU grace period each
 *	timeout.c	per-CPU FIFOs of pending events and the timeout timer
 *	stats.c		per-CPU counters and histogram, `stats`/`histogram`
 *	cycles.c	the cycle counter: usable or not (at load), ns conversion
 *	alerts.c	alert ring users: append, wakeups, `alerts` readers
 *	stack.c		stacks named for records, tracepoints and dmesg
 *	proc.c		/proc/latency_tracker/<name>/ and the knob files
 *	tracepoint.c	attaching probes to tracepoints by name
 *	events.c	our TRACE_EVENTs (lt_trace.h)
 *
 * Event lifetime.  A pending event holds one reference for its presence in
 * the hash table ("table reference").  Whoever removes it from the table
 * (the winner of lt_lfht_del(), or the replacer in unique mode, or a drain)
 * first unlinks it from its timeout FIFO, then hands it to reclaim.c
 * without touching the count: the table reference is dropped by the
 * reclaim batch's callback, one RCU grace period later, when no lock-free
 * lookup can find the event any more.  get_event() users take extra
 * references with atomic_inc() after a lookup under RCU (the count is at
 * least 1 until a grace period after the removal); the timeout timer
 * takes one with atomic_inc() under the FIFO lock: an event on a FIFO has
 * not been handed to reclaim yet (its remover unlinks it from the FIFO
 * first), so its table reference is held.  Neither can happen once the
 * grace period has passed (the timer's collection runs with interrupts
 * off, an RCU reader), so from then on the count only goes down: the
 * callback reads it (acquire), and a count of 1 means the table
 * reference is the last one, and the slot goes back to the pool with no
 * atomic operation; otherwise the callback drops the table reference with
 * atomic_dec_and_test(), and whoever drops the last one (callback,
 * put_event(), the timer) gives the slot back.  So ending an event costs
 * no atomic operation on its count.  The probe path's read-side sections
 * are rcu_read_lock_sched() ones (see event.c); grace periods wait for
 * them.  The reclaim link has its own storage: the timer may still walk
 * its private batch through tlist after the event was handed to reclaim.
 *
 * Reclaim batches (reclaim.c).  Each CPU keeps, per tracker, a list of
 * ended events ("next", filled by this_cpu_cmpxchg() by whoever removes
 * an event from the table on that CPU) and at most one batch in flight,
 * handed to call_rcu() as a whole: one call_rcu() per CPU and grace period
 * instead of one per event.  When nothing is in flight, an ended event is
 * handed over at once; when the batch's callback has dropped its table
 * references and returned the free slots to the pool (all at once,
 * lt_pool_put_chain()), the CPU's "next" list, if any, becomes the
 * following batch.  So a slot is free again one to two grace periods
 * after its event ended (or when its last extra reference drops, if
 * later), and is counted as in use meanwhile: the slots in use are the
 * pending events, the events ended during about the last two grace
 * periods and the ended events still referenced (see max_events in
 * latency_tracker.h).
 *
 * Synchronisation of the event's fields and lists (NMI: never anywhere,
 * the pool and the FIFOs take raw spinlocks):
 *
 * what                     | who, from which context      | protected by
 * -------------------------+------------------------------+------------------
 * key, start, threshold,   | event_in (any ctx) before    | publication by the
 *   t                      | the table insertion; then    | table's fully
 *                          | read-only                    | ordered insertion
 * priv                     | event_in initialises it      | publication as
 *                          | before the insertion; then   | above; after it,
 *                          | read and written by whoever  | the tracker module
 *                          | holds it: a reference (call- | serialises its own
 *                          | back, get_event users) or an | accesses (the core
 *                          | RCU read-side section (find_ | never reads priv)
 *                          | event users: wakeup's sched_ |
 *                          | wakeup and offcpu's sched_   |
 *                          | waking probes, syscalls'     |
 *                          | switch and exec probes)      |
 * table membership         | event_in adds; event_out,    | lock-free table;
 *                          | replace, drain delete (any   | one winner per
 *                          | ctx / process for drain)     | node (lt_lfht_del)
 * ref                      | table ref: set by event_in,  | atomic_t;
 *                          | dropped by the reclaim call- | inc after a lookup
 *                          | back a grace period after    | under RCU
 *                          | the end; extra refs: timer,  | (timer: inc under
 *                          | get_event; dropped by their  | the FIFO lock);
 *                          | holders (any ctx)            | only decrements
 *                          |                              | after that grace
 *                          |                              | period
 * tlist on a FIFO,         | event_in adds on its CPU;    | that FIFO's raw
 *   fifo_cpu               | winner / timer remove (any   | spinlock, irqs off
 *                          | CPU, any ctx)                | (an unlocked read
 *                          |                              | of fifo_cpu is a
 *                          |                              | hint only, re-
 *                          |                              | checked under the
 *                          |                              | lock it names:
 *                          |                              | lt_timeout_remove)
 * tlist on a timer batch   | the timeout timer only       | private list, ref
 * free_next                | the remover (any ctx), then  | reclaim lists (see
 *                          | reclaim.c                    | below)
 *                          |                              |
 * struct lt_reclaim (one per tracker and CPU):
 * next                     | the owning CPU only: pushed  | push: preemption
 *                          | by a remover (any            | off, this_cpu_
 *                          | ctx), taken whole by a       | cmpxchg(), retried
 *                          | submission (see busy); also  | if it moved; take:
 *                          | emptied by lt_reclaim_flush  | interrupts off;
 *                          | from any CPU                 | flush: only once
 *                          |                              | the CPU is idle
 *                          |                              | and nothing ends
 * busy                     | the owning CPU only: a sub-  | interrupts off on
 *                          | mission by a remover         | that CPU (busy is
 *                          | (any ctx), the batch call-   | also cleared by a
 *                          | back run there, or the kick  | callback elsewhere
 *                          | (IPI) sent to it by a call-  | when the owner is
 *                          | back run elsewhere           | offline)
 * inflight, rcu, kick      | set by the owner with busy;  | call_rcu(): one
 *                          | read by the batch callback   | batch in flight,
 *                          | (which may send the kick)    | so one kick
 * slot back to the pool    | batch callback (softirq, or  | grace period, then
 *                          | the rcuo kthread if offload) | the count (see
 *                          | or the last extra reference  | "Event lifetime")
 */
#ifndef _LT_CORE_H
#define _LT_CORE_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <latency_tracker.h>
#include <latency_tracker_compat.h>

#include "alert_ring.h"
#include "histogram.h"
#include "lfht.h"
#include "pool.h"
#include "ratelimit.h"
#include "stats_sum.h"

/*
 * Hash table sizing (tracker.c): the table starts with LT_HT_MIN_BUCKETS
 * (or its largest size, if smaller) and a deferrable work, every
 * LT_HT_RESIZE_PERIOD, resizes it to about LT_HT_BUCKETS_PER_EVENT
 * buckets per pending event (a load of 1/8 to 1/4), up to that many per
 * slot of max_events, rounded up: grown as soon as the pending events
 * fill half the buckets, shrunk when they fill less than 1/32 of them.
 * A low load because an event_in walks its bucket's run of events, each
 * one a cache miss at random in the slots, megabytes of them in a large
 * table, while a bucket is 8 bytes (lfht_ops.h): 32 bytes per pending
 * event.  Resizing runs in process context only, concurrently with the
 * probe path (lfht.h).
 */
#define LT_HT_MIN_BUCKETS	1024UL
#define LT_HT_BUCKETS_PER_EVENT	4UL
#define LT_HT_RESIZE_PERIOD	(HZ / 10)

/*
 * The pool's size (tracker.c).  max_events is its ceiling: the most
 * events a tracker may hold at once, 1..LT_MAX_EVENTS_LIMIT, or 0 for one
 * slot per kernel stack the memory could hold (RAM / THREAD_SIZE: no
 * more tasks can exist, and each sleeping or running task is at most one
 * pending event of the per-task trackers), at least
 * LT_INITIAL_EVENTS_MIN.  initial_events is allocated at creation, 0 for
 * LT_INITIAL_EVENTS_PER_CPU per online CPU within [LT_INITIAL_EVENTS_MIN,
 * LT_INITIAL_EVENTS_MAX], never more than the ceiling.  The pool grows in
 * between (pool.h, "Growth"): its watermark hook queues grow_kick, an
 * irq_work (never a work item from the probe: queue_work() may wake a
 * worker, under a scheduler probe's runqueue lock), whose handler queues
 * grow_work on lt_wq, which allocates in process context.  A growth that
 * failed for want of memory retries itself after a delay that doubles
 * with each failure; the table work (resize_work) also queues grow_work
 * when it finds the pool low.
 */
#define LT_MAX_EVENTS_LIMIT		LATENCY_TRACKER_EVENTS_MAX
#define LT_INITIAL_EVENTS_PER_CPU	1024U
#define LT_INITIAL_EVENTS_MIN		4096U
#define LT_INITIAL_EVENTS_MAX		65536U

/* ev->fifo_cpu when the event is on no timeout FIFO. */
#define LT_NO_FIFO		U16_MAX

/* Capacity of the alert ring (records): default and bounds. */
#define LT_ALERT_RECORDS_DEFAULT	1024
#define LT_ALERT_RECORDS_MIN		16
#define LT_ALERT_RECORDS_MAX		65536

struct latency_tracker_event {
	struct lt_lfht_node node;
	struct list_head tlist;		/* timeout FIFO (or timer batch) */
	struct latency_tracker *t;
	u64 start_ns;
	u64 threshold_ns;		/* 0: the tracker's */
	/* once removed from the table: next in a reclaim list */
	struct latency_tracker_event *free_next;
	atomic_t ref;
	u16 key_len;
	u16 fifo_cpu;			/* LT_NO_FIFO or the FIFO's CPU */
	u8 data[] __aligned(8);		/* key (key_area bytes), then priv */
};

/*
 * One CPU's ended events waiting to go back to the pool (reclaim.c; the
 * rules are in the table above).
 */
struct lt_reclaim {
	struct latency_tracker_event *next;	/* ended, not yet in flight */
	struct latency_tracker_event *inflight;	/* waiting for its GP */
	bool busy;				/* inflight is in call_rcu() */
	int cpu;				/* the owner */
	struct latency_tracker *t;
	struct rcu_head rcu;
	call_single_data_t kick;		/* resubmit on the owner */
};

/* Per-CPU pending events in start order, for the timeout scan. */
struct lt_fifo {
	raw_spinlock_t lock;
	struct list_head head;
};

/*
 * Per-CPU statistics.  Only the owning CPU writes (this_cpu_*() ops, which
 * are safe against interrupts on the same CPU; the sum of the matched
 * delays through stats_sum.h, whose header gives its rules); readers sum
 * all CPUs.  Every event counted in tracked leaves as exactly one of
 * matched (ended by event_out, or an interval of event_record), cancelled,
 * or unlinked (replaced in unique mode, or drained), so pending =
 * sum(tracked) - sum(matched + cancelled + unlinked): no counter of its
 * own on the paths that end events.
 */
struct lt_stats {
	u64 tracked;
	u64 unlinked;
	u64 matched;
	u64 over_threshold;
	u64 timeouts;
	u64 dropped;
	u64 cancelled;
	u64 filtered;
	u64 alerts;
	u64 alerts_lost;
	u64 min_ns;
	u64 max_ns;
	struct lt_sum sum;		/* of the matched delays */
	u64 hist[LT_HIST_BUCKETS];
};

struct latency_tracker {
	/* Read by the probe path. */
	struct lt_lfht *ht;
	u32 key_size;
	u32 key_area;			/* key_size rounded up to 8 */
	u32 priv_size;
	u32 seed;
	bool enabled;
	/*
	 * The run of tracking in progress: 1 at creation, one more each time
	 * tracking starts again (lt_set_enable(), under ctl_lock, written
	 * before enabled with smp_wmb(); latency_tracker_run() reads them in
	 * the other order with smp_rmb()).
	 */
	u32 run;
	/*
	 * Set for good by the first duplicate-mode event_in (before its node
	 * is linked); while false, event_out stops at the first match.
	 */
	bool has_duplicates;
	u64 threshold_ns;
	u64 timeout_ns;
	latency_tracker_cb_t callback;
	u32 (*hash)(const void *key, u32 len);
	bool (*match)(const void *key_a, const void *key_b, u32 len);
	struct lt_stats __percpu *stats;
	struct lt_fifo __percpu *fifo;
	struct lt_reclaim __percpu *reclaim;
	struct lt_pool pool;

	/* Timeouts. */
	struct timer_list timeout_timer;

	/* Table sizing. */
	struct delayed_work resize_work;
	unsigned long max_buckets;

	/* Pool growth (see LT_MAX_EVENTS_LIMIT above). */
	struct irq_work grow_kick;
	struct delayed_work grow_work;
	unsigned long grow_retry;	/* jiffies; grow_work only */
	u32 grown;			/* growths: grow_work only writes */

	/* Alerts. */
	struct lt_alert_ring ring;
	struct irq_work alert_work;
	struct hrtimer alert_timer;
	raw_spinlock_t rl_lock;
	struct lt_ratelimit rl;
	u64 wakeup_interval_ns;
	wait_queue_head_t alert_wq;
	bool dying;
	latency_tracker_fmt_t alert_fmt;
	void (*stats_show)(struct seq_file *m, struct latency_tracker *t);

	/* Control. */
	struct mutex ctl_lock;		/* serializes knob writes */
	struct proc_dir_entry *dir;
	void *owner_data;
	u32 max_events;			/* the pool's ceiling, resolved */
	char name[LATENCY_TRACKER_NAME_MAX + 1];
};

/* event.c */
void lt_event_drain(struct latency_tracker *t);

/* reclaim.c */
int lt_reclaim_init(struct latency_tracker *t);
void lt_reclaim_start(struct lt_reclaim *r);
void lt_reclaim_flush(struct latency_tracker *t);
void lt_reclaim_fini(struct latency_tracker *t);

/**
 * __lt_reclaim_free() - hand a removed event to reclaim.
 * @t: the event's tracker.
 * @ev: the event: off the table and off its timeout FIFO; the caller
 *	owns its table reference (it won the removal).
 *
 * Pushes @ev on this CPU's next list (this_cpu_cmpxchg(), retried when an
 * interrupt on this CPU changed the list meanwhile: reclaim.c says why
 * that is ABA-free) and, if no batch is in flight, starts one.  The table
 * reference is dropped by the batch's callback, one or two RCU grace
 * periods later; the slot goes back to the pool then, or with the last
 * extra reference (see "Event lifetime" above).
 *
 * Context: any context but NMI, preemption disabled; never sleeps.
 */
static inline void __lt_reclaim_free(struct latency_tracker *t,
				     struct latency_tracker_event *ev)
{
	struct latency_tracker_event *old, *seen;
	struct lt_reclaim *r;

	r = this_cpu_ptr(t->reclaim);
	old = READ_ONCE(r->next);
	for (;;) {
		ev->free_next = old;
		seen = this_cpu_cmpxchg(t->reclaim->next, old, ev);
		if (seen == old)
			break;
		old = seen;
	}
	/*
	 * After the push: a batch callback (or kick) that ran on this CPU
	 * before this read and found nothing to submit left busy false;
	 * one that runs after it finds the event on next.  Pairs with the
	 * release of a callback run elsewhere (reclaim.c).
	 */
	if (unlikely(!smp_load_acquire(&r->busy)))
		lt_reclaim_start(r);
}

/*
 * Drops an extra reference (get_event(), the timer).  The last one gives
 * the slot back: it can be the last only after the reclaim callback
 * dropped the table reference, a grace period after the event left the
 * table, so nothing can find the event any more.
 */
static inline void lt_event_put(struct latency_tracker_event *ev)
{
	if (atomic_dec_and_test(&ev->ref))
		lt_pool_put(&ev->t->pool, ev);
}

/* timeout.c */
int lt_timeout_init(struct latency_tracker *t);
void lt_timeout_stop(struct latency_tracker *t);
void lt_timeout_fini(struct latency_tracker *t);
void lt_timeout_add(struct latency_tracker *t, struct latency_tracker_event *ev);
void lt_timeout_unlink(struct latency_tracker *t,
		       struct latency_tracker_event *ev, u16 cpu);
void lt_timeout_kick(struct latency_tracker *t);

/* Takes an ended event off its timeout FIFO, if it is on one. */
static inline void lt_timeout_remove(struct latency_tracker *t,
				     struct latency_tracker_event *ev)
{
	u16 cpu = READ_ONCE(ev->fifo_cpu);

	if (cpu != LT_NO_FIFO)
		lt_timeout_unlink(t, ev, cpu);
}

/* stats.c */
int lt_stats_init(struct latency_tracker *t);
void lt_stats_fini(struct latency_tracker *t);
extern const struct proc_ops lt_stats_proc_ops;

/*
 * A matched event with this delay.  Any context but NMI, preemption
 * disabled (the sum's part is this CPU's from its add to its fold).
 */
static inline void lt_stats_matched(struct latency_tracker *t, u64 delay_ns)
{
	u64 old, prev;

	this_cpu_inc(t->stats->matched);
	lt_sum_add(this_cpu_ptr(&t->stats->sum), delay_ns);
	this_cpu_inc(t->stats->hist[lt_hist_bucket(delay_ns)]);

	old = this_cpu_read(t->stats->min_ns);
	while (delay_ns < old) {
		prev = this_cpu_cmpxchg(t->stats->min_ns, old, delay_ns);
		if (prev == old)
			break;
		old = prev;
	}
	old = this_cpu_read(t->stats->max_ns);
	while (delay_ns > old) {
		prev = this_cpu_cmpxchg(t->stats->max_ns, old, delay_ns);
		if (prev == old)
			break;
		old = prev;
	}
}

extern const struct proc_ops lt_hist_proc_ops;

/* alerts.c */
int lt_alerts_init(struct latency_tracker *t, u32 nr_records,
		   u32 payload_max);
void lt_alerts_stop(struct latency_tracker *t);
void lt_alerts_release_pollers(struct latency_tracker *t);
void lt_alerts_fini(struct latency_tracker *t);
void lt_alerts_set_interval(struct latency_tracker *t, u64 ns);
extern const struct proc_ops lt_alerts_proc_ops;

/* params.c */
int lt_param_parse(enum latency_tracker_param param, const char __user *ubuf,
		   size_t count, u64 *out);
int lt_param_valid(enum latency_tracker_param param, u64 value);
u64 lt_param_get(struct latency_tracker *t, enum latency_tracker_param param);
int lt_param_set(struct latency_tracker *t, enum latency_tracker_param param,
		 u64 value);
const char *lt_param_name(enum latency_tracker_param param);

/* cycles.c */
void lt_cycles_init(void);

/* proc.c */
int lt_proc_init(void);
void lt_proc_exit(void);
int lt_stack_init(void);
void lt_stack_exit(void);
int lt_proc_tracker_add(struct latency_tracker *t);
void lt_proc_tracker_remove(struct latency_tracker *t);

#endif /* _LT_CORE_H */
