// SPDX-License-Identifier: GPL-2.0-only
/*
 * event.c - the probe path: event_in, event_out, stateful lookups.
 *
 * Nothing here allocates, sleeps, prints or takes a sleeping lock.  Slots
 * come from the preallocated pool, the table is lock-free, and the only
 * locks are raw spinlocks: a per-CPU timeout FIFO's (taken only when the
 * tracker has a timeout) and, on the pool's slow paths only (refill,
 * spill, steal), a per-CPU cache's.  See core.h for the lifetime of an
 * event.
 *
 * The read-side critical sections of the probe path are
 * rcu_read_lock_sched() ones: since the RCU flavours were consolidated
 * (v5.0, older than any supported kernel), a grace period waits for
 * preemption-disabled regions too, so they protect the table and the
 * slots exactly as rcu_read_lock() would, and cost a preempt count
 * increment instead of a function call on PREEMPT_RCU kernels.  The
 * callback already ran with preemption disabled.
 */
#include <linux/export.h>
#include <linux/jhash.h>
#include <linux/ktime.h>

#include "core.h"
#include "lfht_ops.h"

DEFINE_PER_CPU(struct latency_tracker_switch_clock,
	       latency_tracker_switch_clock);
EXPORT_PER_CPU_SYMBOL_GPL(latency_tracker_switch_clock);

/* What the table's match function is given as the key. */
struct lt_key {
	const void *data;
	u32 len;
	const struct latency_tracker *t;
};

static inline struct latency_tracker_event *lt_node_event(struct lt_lfht_node *n)
{
	return container_of(n, struct latency_tracker_event, node);
}

static __always_inline bool lt_match(const struct lt_lfht_node *node,
				     const void *key)
{
	const struct latency_tracker_event *ev =
		container_of(node, struct latency_tracker_event, node);
	const struct lt_key *k = key;

	if (ev->key_len != k->len)
		return false;
	if (k->t->match)
		return k->t->match(ev->data, k->data, k->len);
	/*
	 * The common sizes as one word compare (ev->data is 8-byte aligned,
	 * the caller's key may be anywhere: a constant-size memcpy() is an
	 * unaligned load).
	 */
	switch (k->len) {
	case sizeof(u64): {
		u64 a;

		memcpy(&a, k->data, sizeof(a));
		return *(const u64 *)ev->data == a;
	}
	case sizeof(u32): {
		u32 a;

		memcpy(&a, k->data, sizeof(a));
		return *(const u32 *)ev->data == a;
	}
	default:
		return !memcmp(ev->data, k->data, k->len);
	}
}

/* Copies a key into an event (the common sizes inline, without a call). */
static inline void lt_key_copy(u8 *dst, const void *key, u32 len)
{
	switch (len) {
	case sizeof(u64):
		memcpy(dst, key, sizeof(u64));
		break;
	case sizeof(u32):
		memcpy(dst, key, sizeof(u32));
		break;
	default:
		memcpy(dst, key, len);
	}
}

/*
 * Private data of a new event: @len bytes copied from @src (any
 * alignment), the rest of the @size-byte area zeroed; @dst is 8-byte
 * aligned.  By 8-byte words where it can, inline: a probe's private data
 * is a few dozen bytes, for which memcpy() and memset() mostly pay their
 * call and the start-up of a string instruction (and under emulation,
 * TCG, where make bench runs, an iteration per byte).  The stores are
 * WRITE_ONCE()s so that the compiler keeps the loops instead of turning
 * them back into those calls.
 */
static __always_inline void lt_priv_init(u8 *dst, const u8 *src, u32 len,
					 u32 size)
{
	u32 i;
	u64 w;

	for (i = 0; i + sizeof(w) <= len; i += sizeof(w)) {
		memcpy(&w, src + i, sizeof(w));
		WRITE_ONCE(*(u64 *)(dst + i), w);
	}
	for (; i < len; i++)
		WRITE_ONCE(dst[i], src[i]);
	for (; i < size && (i & (sizeof(w) - 1)); i++)
		WRITE_ONCE(dst[i], 0);
	for (; i + sizeof(w) <= size; i += sizeof(w))
		WRITE_ONCE(*(u64 *)(dst + i), 0);
	for (; i < size; i++)
		WRITE_ONCE(dst[i], 0);
}

/*
 * Hash of a key of at most 8 bytes: the bytes as one word, the seed and
 * the length folded in, then two multiply/xor-shift rounds (the finalizer
 * of the MurmurHash3 family), so that every key bit reaches every hash
 * bit; the table uses the low bits for the bucket and all of them for the
 * order.  A bijection of the word for a given length and seed: distinct
 * keys of one length never collide.
 */
static inline unsigned long lt_hash_word(const struct latency_tracker *t,
					 const void *key, u32 len)
{
	u64 x = 0;
	u32 w;

	switch (len) {
	case sizeof(u64):
		memcpy(&x, key, sizeof(x));
		break;
	case sizeof(u32):
		memcpy(&w, key, sizeof(w));
		x = w;
		break;
	default:
		memcpy(&x, key, len);
	}
	x ^= ((u64)(t->seed ^ len) << 32) | t->seed;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (unsigned long)x;
}

static inline unsigned long lt_hash(const struct latency_tracker *t,
				    const void *key, u32 len)
{
	if (t->hash)
		return t->hash(key, len);
	if (len <= sizeof(u64))
		return lt_hash_word(t, key, len);
	return jhash(key, len, t->seed);
}

/* Caller removed @ev from the table: hand it to reclaim (preemption off). */
static void lt_event_unlinked(struct latency_tracker *t,
			      struct latency_tracker_event *ev)
{
	lt_timeout_remove(t, ev);
	this_cpu_inc(t->stats->unlinked);
	__lt_reclaim_free(t, ev);
}

/**
 * latency_tracker_event_in() - start a measurement
 * @t: the tracker.
 * @key: key bytes, matched by a later latency_tracker_event_out().
 * @len: key length, 1..key_size.
 * @opts: optional arguments (NULL: now, tracker threshold, unique mode,
 *	no private data).
 *
 * Takes a preallocated slot, stores the key, timestamp and private data,
 * and inserts the event in the lock-free table.  In unique mode a pending
 * event with the same key is replaced (and freed without a callback).
 *
 * Context: any context but NMI (see latency_tracker.h); never sleeps,
 * never allocates.
 * Return: LATENCY_TRACKER_OK, LATENCY_TRACKER_FULL (counted as dropped),
 * LATENCY_TRACKER_DISABLED, or LATENCY_TRACKER_ERROR for a bad length.
 */
enum latency_tracker_status
latency_tracker_event_in(struct latency_tracker *t, const void *key, u32 len,
			 const struct latency_tracker_in_opts *opts)
{
	struct latency_tracker_event *ev;
	struct lt_lfht_node *old;
	struct lt_key k = { .data = key, .len = len, .t = t };
	enum latency_tracker_status ret = LATENCY_TRACKER_OK;
	u32 priv_len = opts ? opts->priv_len : 0;
	unsigned long hash;

	if (unlikely(!len || len > t->key_size || priv_len > t->priv_size))
		return LATENCY_TRACKER_ERROR;

	/*
	 * The read-side section spans the enable check and the insertion:
	 * disabling waits for it (synchronize_rcu) before draining.
	 */
	rcu_read_lock_sched();
	if (unlikely(!READ_ONCE(t->enabled))) {
		ret = LATENCY_TRACKER_DISABLED;
		goto out;
	}
	ev = __lt_pool_get(&t->pool);
	if (unlikely(!ev)) {
		this_cpu_inc(t->stats->dropped);
		ret = LATENCY_TRACKER_FULL;
		goto out;
	}
	ev->t = t;
	ev->key_len = len;
	lt_key_copy(ev->data, key, len);
	ev->start_ns = (opts && opts->ts_ns) ? opts->ts_ns :
		       ktime_get_mono_fast_ns();
	ev->threshold_ns = opts ? opts->threshold_ns : 0;
	if (t->priv_size)
		lt_priv_init(ev->data + t->key_area, opts ? opts->priv : NULL,
			     priv_len, t->priv_size -
			     (opts ? min(opts->priv_keep,
					 t->priv_size - priv_len) : 0));
	atomic_set(&ev->ref, 1);
	ev->fifo_cpu = LT_NO_FIFO;
	/* On the FIFO before it is visible: whoever ends it finds it there. */
	if (READ_ONCE(t->timeout_ns))
		lt_timeout_add(t, ev);

	this_cpu_inc(t->stats->tracked);
	hash = lt_hash(t, key, len);
	if (opts && opts->mode == LATENCY_TRACKER_DUPLICATE) {
		if (unlikely(!READ_ONCE(t->has_duplicates)))
			WRITE_ONCE(t->has_duplicates, true);
		/* The flag is set before the node can be found: see event_out. */
		lfht_add_dup_op(t->ht, hash, &ev->node);
	} else {
		old = lfht_add_replace_op(t->ht, hash, lt_match, &k, &ev->node);
		if (old)
			lt_event_unlinked(t, lt_node_event(old));
	}
out:
	rcu_read_unlock_sched();
	return ret;
}
EXPORT_SYMBOL_GPL(latency_tracker_event_in);

/* The caller won the removal of @ev: account it and report it. */
static __always_inline void lt_event_end(struct latency_tracker *t,
					 struct latency_tracker_event *ev,
					 u64 now, unsigned int out_id,
					 void *ctx)
{
	u64 thr = ev->threshold_ns ? ev->threshold_ns :
		  READ_ONCE(t->threshold_ns);
	u64 delay = now > ev->start_ns ? now - ev->start_ns : 0;

	lt_timeout_remove(t, ev);
	lt_stats_matched(t, delay);
	if (delay > thr) {
		this_cpu_inc(t->stats->over_threshold);
		if (t->callback) {
			struct latency_tracker_report r = {
				.tracker = t,
				.event = ev,
				.cause = LATENCY_TRACKER_CAUSE_THRESHOLD,
				.start_ns = ev->start_ns,
				.end_ns = now,
				.delay_ns = delay,
				.out_id = out_id,
				.ctx = ctx,
			};

			t->callback(&r);
		}
	}
	__lt_reclaim_free(t, ev);
}

/* The caller won the removal of @ev and ends it without a measurement. */
static void lt_event_cancelled(struct latency_tracker *t,
			       struct latency_tracker_event *ev)
{
	lt_timeout_remove(t, ev);
	this_cpu_inc(t->stats->cancelled);
	__lt_reclaim_free(t, ev);
}

/*
 * Removes every pending event with this key (one in unique mode, all the
 * duplicates otherwise) and ends each one this caller removed: measured
 * (event_out) or cancelled.  Measured at the context switch that takes
 * @prev off the CPU if @prev is not NULL (a sched_switch probe's), else
 * now.  Inlined into every caller, so event_out's path has no test of
 * @cancel or @prev.
 */
static __always_inline int lt_event_end_key(struct latency_tracker *t,
					    const void *key, u32 len,
					    unsigned int out_id, void *ctx,
					    bool cancel,
					    const struct task_struct *prev)
{
	struct lt_key k = { .data = key, .len = len, .t = t };
	struct lt_lfht_node *node;
	struct lt_lfht_iter iter;
	int ended = 0;
	bool dups;
	u64 now = 0;

	if (unlikely(!len || len > t->key_size))
		return -EINVAL;

	rcu_read_lock_sched();
	lfht_lookup_op(t->ht, lt_hash(t, key, len), lt_match, &k, &iter);
	node = lt_lfht_iter_get_node(&iter);
	if (!node)
		goto out;
	/*
	 * The clock is read once a pending event is found: a key that is
	 * not pending (the common case of many probes) costs no clock read.
	 * The lookup is a few hundred ns at most, well below any threshold.
	 * At a switch, the switch's time may have been read before, by an
	 * earlier probe of the same switch (with its own work in between).
	 */
	if (!cancel)
		now = prev ? latency_tracker_switch_ns(prev) :
			     ktime_get_mono_fast_ns();
	/*
	 * Duplicates exist only if some event_in asked for them; its flag
	 * store is ordered before the fully ordered cmpxchg that linked its
	 * node, and this read after the load that found our node: a
	 * duplicate that was already there is never skipped.
	 */
	smp_rmb();
	dups = READ_ONCE(t->has_duplicates);
	do {
		/* The lookup's position of node, for lfht_del_found_op(). */
		struct lt_lfht_iter at = iter;

		if (dups)
			lfht_next_duplicate_op(t->ht, lt_match, &k, &iter);
		if (!lfht_del_found_op(t->ht, &at)) {
			if (cancel)
				lt_event_cancelled(t, lt_node_event(node));
			else
				lt_event_end(t, lt_node_event(node), now,
					     out_id, ctx);
			ended++;
		}	/* else someone else ended it */
	} while (dups && (node = lt_lfht_iter_get_node(&iter)));
out:
	rcu_read_unlock_sched();
	return ended;
}

/**
 * latency_tracker_event_out() - end the measurements of a key
 * @t: the tracker.
 * @key: key bytes given to latency_tracker_event_in().
 * @len: key length.
 * @out_id: free value passed to the callback (e.g. which exit point).
 * @ctx: free pointer passed to the callback.
 *
 * Removes every pending event with this key (one in unique mode, all the
 * duplicates otherwise).  For each event whose delay exceeds its threshold
 * the callback runs with cause=threshold.  When several CPUs end the same
 * event at once, only the one whose removal succeeded reports it, so the
 * callback runs exactly once per event.
 *
 * Context: any context but NMI; never sleeps.
 * Return: the number of events ended (0 if the key was not pending), or
 * -EINVAL for a bad key length.
 */
int latency_tracker_event_out(struct latency_tracker *t, const void *key,
			      u32 len, unsigned int out_id, void *ctx)
{
	return lt_event_end_key(t, key, len, out_id, ctx, false, NULL);
}
EXPORT_SYMBOL_GPL(latency_tracker_event_out);

/**
 * latency_tracker_event_out_switch() - event_out at a context switch
 * @t: the tracker.
 * @key: key bytes given to latency_tracker_event_in().
 * @len: key length.
 * @prev: sched_switch's prev.
 * @out_id: free value passed to the callback.
 * @ctx: free pointer passed to the callback.
 *
 * latency_tracker_event_out() for a sched_switch probe: the events end at
 * latency_tracker_switch_ns(@prev), the clock read once for the switch by
 * whichever probe needed it first (none is read if nothing is pending
 * under @key and no other probe asked).
 *
 * Context: a sched_switch probe only, with the tracepoint's own @prev;
 * never sleeps.
 * Return: as latency_tracker_event_out().
 */
int latency_tracker_event_out_switch(struct latency_tracker *t,
				     const void *key, u32 len,
				     const struct task_struct *prev,
				     unsigned int out_id, void *ctx)
{
	return lt_event_end_key(t, key, len, out_id, ctx, false, prev);
}
EXPORT_SYMBOL_GPL(latency_tracker_event_out_switch);

/**
 * latency_tracker_event_cancel() - end the events of a key, unmeasured
 * @t: the tracker.
 * @key: key bytes given to latency_tracker_event_in().
 * @len: key length.
 *
 * Like latency_tracker_event_out(), but what ends is not a measurement
 * (e.g. a block request given back to the queue, to be issued again):
 * every pending event with this key is removed without a callback and
 * counted as cancelled, never as matched, in no histogram bucket.
 *
 * Context: any context but NMI; never sleeps.
 * Return: the number of events cancelled (0 if the key was not pending),
 * or -EINVAL for a bad key length.
 */
int latency_tracker_event_cancel(struct latency_tracker *t, const void *key,
				 u32 len)
{
	return lt_event_end_key(t, key, len, 0, NULL, true, NULL);
}
EXPORT_SYMBOL_GPL(latency_tracker_event_cancel);

/**
 * latency_tracker_event_record() - account an interval the caller timed
 * @t: the tracker.
 * @delay_ns: its length: the difference of two readings of the tracker's
 *	clock, or of the cycle counter (latency_tracker_cycles_to_ns()).
 *
 * For a probe that times short intervals itself and starts an event only
 * for those that last (the syscalls tracker keeps a call in a per-CPU
 * slot and starts an event only when its thread leaves the CPU): an
 * interval within the tracker's threshold is counted exactly as an
 * event_in/event_out pair would be (tracked, matched, histogram, min, max,
 * average), without touching the table or the pool.
 *
 * Context: any context but NMI; never sleeps.
 * Return: true when the interval was counted (or tracking is disabled:
 * nothing to count); false when it exceeds the threshold: nothing was
 * counted, and the caller ends it through latency_tracker_event_in() with
 * opts->ts_ns at its start on the tracker's clock and
 * latency_tracker_event_out(), so that the callback gets an event.
 */
bool latency_tracker_event_record(struct latency_tracker *t, u64 delay_ns)
{
	if (unlikely(!READ_ONCE(t->enabled)))
		return true;
	if (delay_ns > READ_ONCE(t->threshold_ns))
		return false;
	/* The caller may be preemptible (a system call tracepoint's probe). */
	preempt_disable_notrace();
	this_cpu_inc(t->stats->tracked);
	lt_stats_matched(t, delay_ns);
	preempt_enable_notrace();
	return true;
}
EXPORT_SYMBOL_GPL(latency_tracker_event_record);

/**
 * latency_tracker_find_event() - look up a pending event, without a reference
 * @t: the tracker.
 * @key: key bytes.
 * @len: key length.
 *
 * For probes that read or update a pending event's private data while
 * they run (e.g. on a wakeup, the waker of a blocked task): cheaper than
 * latency_tracker_get_event() and latency_tracker_put_event(), with no
 * atomic operation.  The event may be ended meanwhile, but its slot is
 * not reused before the caller's RCU read-side critical section ends.
 * In duplicate mode the first duplicate found is returned.
 *
 * The result holds no reference: never pass it to
 * latency_tracker_put_event().
 *
 * Context: any context but NMI, inside an RCU read-side critical section
 * that covers every use of the result: rcu_read_lock(), or preemption or
 * interrupts disabled.  A tracepoint probe is not in one by itself on
 * every kernel (on 7.3 tracepoints run their probes under SRCU-fast, the
 * system call ones under RCU Tasks Trace): sched_waking, sched_wakeup
 * and sched_switch fire with preemption disabled by the scheduler; a
 * probe on another tracepoint (sched_process_exec, ...) takes
 * rcu_read_lock_sched() or disables preemption itself.  Never sleeps.
 * Return: the event, or NULL if none is pending.
 */
struct latency_tracker_event *
latency_tracker_find_event(struct latency_tracker *t, const void *key, u32 len)
{
	struct lt_key k = { .data = key, .len = len, .t = t };
	struct lt_lfht_node *node;
	struct lt_lfht_iter iter;

	if (unlikely(!len || len > t->key_size))
		return NULL;
	lfht_lookup_op(t->ht, lt_hash(t, key, len), lt_match, &k, &iter);
	node = lt_lfht_iter_get_node(&iter);
	return node ? lt_node_event(node) : NULL;
}
EXPORT_SYMBOL_GPL(latency_tracker_find_event);

/**
 * latency_tracker_get_event() - look up a pending event and reference it
 * @t: the tracker.
 * @key: key bytes.
 * @len: key length.
 *
 * For stateful tracing ("is this task in a slow syscall right now?").  The
 * event stays readable (key, private data, start time) until
 * latency_tracker_put_event(), even if it is ended meanwhile.  In
 * duplicate mode the first duplicate found is returned.
 *
 * Context: any context but NMI; never sleeps.
 * Return: the event with a reference held, or NULL if none is pending.
 */
struct latency_tracker_event *
latency_tracker_get_event(struct latency_tracker *t, const void *key, u32 len)
{
	struct latency_tracker_event *ev;

	rcu_read_lock_sched();
	ev = latency_tracker_find_event(t, key, len);
	/*
	 * Found under RCU: its table reference is dropped only a grace
	 * period after its removal (core.h), so the count is at least 1.
	 */
	if (ev)
		atomic_inc(&ev->ref);
	rcu_read_unlock_sched();
	return ev;
}
EXPORT_SYMBOL_GPL(latency_tracker_get_event);

/**
 * latency_tracker_put_event() - drop a reference from get_event()
 * @ev: the event.
 *
 * Context: any context but NMI; never sleeps.
 */
void latency_tracker_put_event(struct latency_tracker_event *ev)
{
	lt_event_put(ev);
}
EXPORT_SYMBOL_GPL(latency_tracker_put_event);

/**
 * latency_tracker_event_priv() - private data of an event
 * @ev: an event the caller holds (callback argument, get_event result,
 *	or find_event result within the caller's RCU read-side section).
 *
 * Context: any context.
 * Return: the priv_size bytes of private data (NULL if priv_size is 0).
 */
void *latency_tracker_event_priv(struct latency_tracker_event *ev)
{
	return ev->t->priv_size ? ev->data + ev->t->key_area : NULL;
}
EXPORT_SYMBOL_GPL(latency_tracker_event_priv);

/**
 * latency_tracker_event_key() - key of an event
 * @ev: an event the caller holds.
 * @len: set to the key length.
 *
 * Context: any context.
 * Return: the key bytes.
 */
const void *latency_tracker_event_key(struct latency_tracker_event *ev,
				      u32 *len)
{
	*len = ev->key_len;
	return ev->data;
}
EXPORT_SYMBOL_GPL(latency_tracker_event_key);

/**
 * latency_tracker_event_start() - start timestamp of an event
 * @ev: an event the caller holds.
 *
 * Context: any context.
 * Return: the event_in timestamp (ktime_get_mono_fast_ns() clock).
 */
u64 latency_tracker_event_start(struct latency_tracker_event *ev)
{
	return ev->start_ns;
}
EXPORT_SYMBOL_GPL(latency_tracker_event_start);

/*
 * Removes every pending event without a callback (enable=0, destroy).
 * Process context; new event_in calls must already be refused and
 * in-flight ones waited for (synchronize_rcu()).
 */
void lt_event_drain(struct latency_tracker *t)
{
	struct lt_lfht_node *node;
	struct lt_lfht_iter iter;

	rcu_read_lock();
	lt_lfht_first(t->ht, &iter);
	while ((node = lt_lfht_iter_get_node(&iter))) {
		lt_lfht_next(t->ht, &iter);
		if (!lt_lfht_del(t->ht, node)) {
			preempt_disable();
			lt_event_unlinked(t, lt_node_event(node));
			preempt_enable();
		}
	}
	rcu_read_unlock();
}
