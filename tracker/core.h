/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.h - internals of latency_tracker.ko shared by its files.
 *
 * File map:
 *	tracker.c	module init/exit, create/destroy, small accessors
 *	params.c	bounds of the knobs (one table) and their setters
 *	event.c		event_in / event_out / stateful lookup, event lifetime
 *	timeout.c	per-CPU FIFOs of pending events and the timeout timer
 *	stats.c		per-CPU counters and histogram, `stats`/`histogram`
 *	alerts.c	alert ring users: append, wakeups, `alerts` readers
 *	proc.c		/proc/latency_tracker/<name>/ and the knob files
 *	tracepoint.c	attaching probes to tracepoints by name
 *	events.c	our TRACE_EVENTs (lt_trace.h)
 *
 * Event lifetime.  A pending event holds one reference for its presence in
 * the hash table ("table reference").  Whoever removes it from the table
 * (the winner of lt_lfht_del(), or the replacer in unique mode, or a drain)
 * first unlinks it from its timeout FIFO, then drops that reference.  The
 * timeout timer and get_event() users take extra references with
 * atomic_inc_not_zero().  The last reference hands the slot back to the
 * pool after an RCU grace period (call_rcu), because lock-free lookups may
 * still be reading it.  The FIFO link and the rcu_head share storage: an
 * event is always off its FIFO before its last reference drops.
 *
 * Synchronisation of the event's fields and lists (NMI: never anywhere,
 * the pool and the FIFOs take raw spinlocks):
 *
 * what                     | who, from which context      | protected by
 * -------------------------+------------------------------+------------------
 * key, start, threshold,   | event_in (any ctx) before    | publication by the
 *   priv, t                | the table insertion; then    | table's fully
 *                          | read-only                    | ordered insertion
 * table membership         | event_in adds; event_out,    | lock-free table;
 *                          | replace, drain delete (any   | one winner per
 *                          | ctx / process for drain)     | node (lt_lfht_del)
 * ref                      | table ref: set by event_in,  | atomic_t;
 *                          | dropped by the winner; extra | inc_not_zero after
 *                          | refs: timer, get_event       | a lookup under RCU
 * tlist on a FIFO,         | event_in adds on its CPU;    | that FIFO's raw
 *   fifo_cpu               | winner / timer remove (any   | spinlock, irqs off
 *                          | CPU, any ctx)                |
 * tlist on a timer batch   | the timeout timer only       | private list, ref
 * rcu (same storage)       | last reference (any ctx)     | event off its FIFO
 * slot back to the pool    | RCU callback (softirq)       | grace period
 */
#ifndef _LT_CORE_H
#define _LT_CORE_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>

#include <latency_tracker.h>
#include <latency_tracker_compat.h>

#include "alert_ring.h"
#include "histogram.h"
#include "lfht.h"
#include "pool.h"
#include "ratelimit.h"

/* ev->fifo_cpu when the event is on no timeout FIFO. */
#define LT_NO_FIFO		U16_MAX

/* Default capacity of the alert ring (records). */
#define LT_ALERT_RECORDS_DEFAULT	1024
#define LT_ALERT_RECORDS_MAX		65536

struct latency_tracker_event {
	struct lt_lfht_node node;
	union {
		struct list_head tlist;	/* timeout FIFO (or timer batch) */
		struct rcu_head rcu;	/* after the last reference */
	};
	struct latency_tracker *t;
	u64 start_ns;
	u64 threshold_ns;		/* 0: the tracker's */
	atomic_t ref;
	u16 key_len;
	u16 fifo_cpu;			/* LT_NO_FIFO or the FIFO's CPU */
	u8 data[] __aligned(8);		/* key (key_area bytes), then priv */
};

/* Per-CPU pending events in start order, for the timeout scan. */
struct lt_fifo {
	raw_spinlock_t lock;
	struct list_head head;
};

/*
 * Per-CPU statistics.  Only the owning CPU writes (this_cpu_*() ops, which
 * are safe against interrupts on the same CPU); readers sum all CPUs.
 * pending = sum(tracked) - sum(removed).
 */
struct lt_stats {
	u64 tracked;
	u64 removed;
	u64 matched;
	u64 over_threshold;
	u64 timeouts;
	u64 dropped;
	u64 alerts;
	u64 alerts_lost;
	u64 min_ns;
	u64 max_ns;
	u64 sum_ns;
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
	u64 threshold_ns;
	u64 timeout_ns;
	latency_tracker_cb_t callback;
	u32 (*hash)(const void *key, u32 len);
	bool (*match)(const void *key_a, const void *key_b, u32 len);
	struct lt_stats __percpu *stats;
	struct lt_fifo __percpu *fifo;
	struct lt_pool pool;

	/* Timeouts. */
	struct timer_list timeout_timer;

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

	/* Control. */
	struct mutex ctl_lock;		/* serializes knob writes */
	struct proc_dir_entry *dir;
	void *owner_data;
	u32 max_events;
	char name[LATENCY_TRACKER_NAME_MAX + 1];
};

/* event.c */
void lt_event_put(struct latency_tracker_event *ev);
void lt_event_drain(struct latency_tracker *t);

/* timeout.c */
int lt_timeout_init(struct latency_tracker *t);
void lt_timeout_stop(struct latency_tracker *t);
void lt_timeout_fini(struct latency_tracker *t);
void lt_timeout_add(struct latency_tracker *t, struct latency_tracker_event *ev);
void lt_timeout_remove(struct latency_tracker *t,
		       struct latency_tracker_event *ev);
void lt_timeout_kick(struct latency_tracker *t);

/* stats.c */
int lt_stats_init(struct latency_tracker *t);
void lt_stats_fini(struct latency_tracker *t);
void lt_stats_matched(struct latency_tracker *t, u64 delay_ns);
extern const struct proc_ops lt_stats_proc_ops;
extern const struct proc_ops lt_hist_proc_ops;

/* alerts.c */
int lt_alerts_init(struct latency_tracker *t, u32 nr_records);
void lt_alerts_stop(struct latency_tracker *t);
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

/* proc.c */
int lt_proc_init(void);
void lt_proc_exit(void);
int lt_proc_tracker_add(struct latency_tracker *t);
void lt_proc_tracker_remove(struct latency_tracker *t);

#endif /* _LT_CORE_H */
