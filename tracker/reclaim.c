// SPDX-License-Identifier: GPL-2.0-only
/*
 * reclaim.c - ended events go back to the pool after an RCU grace period,
 * in per-CPU batches: one call_rcu() per CPU and grace period, whatever the
 * event rate, instead of one per event.
 *
 * Per tracker and CPU, struct lt_reclaim (core.h) holds the events ended
 * on that CPU that are not in flight yet ("next", a list linked through
 * ev->free_next) and at most one batch in flight ("inflight", waiting in
 * call_rcu() with the structure's own rcu_head).  The owning CPU is the
 * only one that touches next and busy (but for the offline case below,
 * and lt_reclaim_flush(), which empties every CPU's next once nothing can
 * end events any more).  The probe path pays one this_cpu_cmpxchg() with
 * preemption off (on x86-64, the measured target, one instruction without
 * a lock prefix and no interrupt disabled; the generic version disables
 * interrupts around it):
 *
 *  - __lt_reclaim_free() (core.h, inline: whoever removed an event from
 *    the table, any context but NMI): push on next with
 *    this_cpu_cmpxchg(); an interrupt on the same CPU that pushes too, or
 *    takes next as a batch, makes it retry.  If no batch is in flight,
 *    next becomes the batch at once (lt_reclaim_start(), with interrupts
 *    off: once per batch), so that a lone event is back one grace period
 *    later.
 *  - the batch callback: drops the table reference of each event of the
 *    batch (lt_reclaim_release()), returns the free ones to the pool with
 *    one pool operation, then, on the owning CPU, makes next (if not empty)
 *    the following batch, or marks the CPU idle.  A callback that runs on
 *    another CPU (callbacks offloaded to rcuo kthreads, or migrated off a
 *    CPU going offline) asks the owner to do that with an IPI
 *    (smp_call_function_single_async(), the "kick"); if the owner is
 *    offline it only marks it idle: its next list, which nothing adds to
 *    while it is offline, becomes a batch at its first event after it
 *    comes back (or is given back by lt_reclaim_flush()): until then the
 *    usable pool is smaller by what that CPU had ended and not submitted.
 *    (The same holds, until that CPU's next push, if it comes back online
 *    between the check and the callback's clearing of busy, and pushes
 *    while it still reads busy set.)  Interrupts stay
 *    off from the online check to the IPI being queued, so the owner
 *    cannot go offline in between (stop_machine waits for every CPU to
 *    enable interrupts).
 *
 * The push cannot suffer ABA.  The list only grows at its top or is
 * taken whole, so a push that read next = A and finds A there at its
 * cmpxchg links onto the same list, unless A left and came back
 * meanwhile: taken in a batch, given back to the pool, ended again.  But
 * A goes back only after the grace period of a batch submitted after the
 * push read it, and the push runs with preemption disabled, which holds
 * that grace period off until the push is done.  (next = NULL read and
 * found again is an empty list either way.)
 *
 * A slot thus waits one or two grace periods (one batch in flight, one
 * filling) after its event ended, or later if a get_event() reference
 * outlives that.  lt_reclaim_flush() waits until every ended event's table
 * reference is dropped (so every unreferenced one is back in the pool); it
 * needs no new ones to be coming.
 */
#include <linux/cpumask.h>
#include <linux/smp.h>

#include "core.h"

static void lt_reclaim_rcu(struct rcu_head *head);

/*
 * Drops the table reference of each event of @batch, a grace period after
 * they left the table: no lookup can find them, so nobody can take a
 * reference any more and the counts only go down (core.h, "Event
 * lifetime").  A count of 1 is the table reference alone: read with
 * acquire, which orders the slot's reuse after the accesses of the holder
 * that dropped the count to 1.  Returns the events that are now free, as a
 * list for lt_pool_put_chain(); the others are given back by the holder of
 * their last reference (lt_event_put()).
 */
static struct latency_tracker_event *
lt_reclaim_release(struct latency_tracker_event *batch)
{
	struct latency_tracker_event *ev, *free = NULL, **tail = &free;

	while ((ev = batch)) {
		batch = ev->free_next;
		if (atomic_read_acquire(&ev->ref) != 1 &&
		    !atomic_dec_and_test(&ev->ref))
			continue;
		*tail = ev;
		tail = &ev->free_next;
	}
	*tail = NULL;
	return free;
}

/* Make next the batch in flight, or mark idle.  Owner CPU, irqs off. */
static void lt_reclaim_submit(struct lt_reclaim *r)
{
	struct latency_tracker_event *batch = READ_ONCE(r->next);

	if (!batch) {
		WRITE_ONCE(r->busy, false);
		return;
	}
	/* A push interrupted here sees next change: it retries. */
	WRITE_ONCE(r->next, NULL);
	r->inflight = batch;
	WRITE_ONCE(r->busy, true);
	/*
	 * Not lazy: with CONFIG_RCU_LAZY and offloaded callbacks a lazy
	 * callback may wait ~10 s, and these slots are what event_in needs.
	 */
	lt_call_rcu_hurry(&r->rcu, lt_reclaim_rcu);
}

static void lt_reclaim_rcu(struct rcu_head *head)
{
	struct lt_reclaim *r = container_of(head, struct lt_reclaim, rcu);
	unsigned long flags;

	lt_pool_put_chain(&r->t->pool, lt_reclaim_release(r->inflight),
			  offsetof(struct latency_tracker_event, free_next));
	local_irq_save(flags);
	if (r->cpu == smp_processor_id())
		lt_reclaim_submit(r);
	else if (smp_call_function_single_async(r->cpu, &r->kick) == -ENXIO)
		/* The owner is offline; it may reuse r once it sees this. */
		smp_store_release(&r->busy, false);
	local_irq_restore(flags);
}

/*
 * The batch callback ran on another CPU: the owner takes over here, in
 * its IPI handler (hardirq, interrupts off).  The kick is in use at most
 * once at a time: it is sent only by the callback of the batch in flight,
 * and only this handler starts the next batch.
 */
static void lt_reclaim_kick(void *arg)
{
	lt_reclaim_submit(arg);
}

/**
 * lt_reclaim_start() - make this CPU's ended events a batch, if none is in
 * flight.
 * @r: this CPU's reclaim state, on which __lt_reclaim_free() just pushed an
 *	event and saw no batch in flight.
 *
 * Context: any context but NMI, preemption disabled; never sleeps.
 */
void lt_reclaim_start(struct lt_reclaim *r)
{
	unsigned long flags;

	local_irq_save(flags);
	/* A callback or kick may have run since: busy says what to do. */
	if (!r->busy)
		lt_reclaim_submit(r);
	local_irq_restore(flags);
}

/**
 * lt_reclaim_init() - set up the per-CPU reclaim state of a tracker.
 * @t: the tracker (its pool may be set up later, before the first event).
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int lt_reclaim_init(struct latency_tracker *t)
{
	int cpu;

	t->reclaim = alloc_percpu(struct lt_reclaim);
	if (!t->reclaim)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct lt_reclaim *r = per_cpu_ptr(t->reclaim, cpu);

		r->cpu = cpu;
		r->t = t;
		INIT_CSD(&r->kick, lt_reclaim_kick, r);
	}
	return 0;
}

/**
 * lt_reclaim_flush() - wait until every ended event's table reference is
 * dropped.
 * @t: the tracker; nothing may end events any more (probes stopped,
 *	tracking disabled and drained).
 *
 * Each round waits for the batches in flight (rcu_barrier()); a callback,
 * or the kick it sent, may have started one more batch from what ended
 * meanwhile, so go round until every CPU is idle (a CPU is busy from the
 * submission of a batch until the callback or kick that finds nothing
 * more to submit).  With no new events that takes at most two rounds.
 * What is left on an idle CPU's next list (its owner was offline when its
 * last batch completed) is given back here, after a grace period.  The
 * final grace period also waits for a kick that was still returning
 * (an IPI handler runs with interrupts off).
 *
 * Context: process context; sleeps.
 */
void lt_reclaim_flush(struct latency_tracker *t)
{
	struct latency_tracker_event *left = NULL, *ev;
	struct lt_reclaim *r;
	bool busy;
	int cpu;

	do {
		rcu_barrier();
		busy = false;
		for_each_possible_cpu(cpu) {
			r = per_cpu_ptr(t->reclaim, cpu);
			/* Pairs with the callback's or kick's last store. */
			smp_mb();
			if (READ_ONCE(r->busy)) {
				busy = true;
				continue;
			}
			/* Idle, so nobody touches next any more. */
			while ((ev = r->next)) {
				r->next = ev->free_next;
				ev->free_next = left;
				left = ev;
			}
		}
	} while (busy);
	synchronize_rcu();
	lt_pool_put_chain(&t->pool, lt_reclaim_release(left),
			  offsetof(struct latency_tracker_event, free_next));
}

/* No batch in flight nor kick pending (lt_reclaim_flush() returned). */
void lt_reclaim_fini(struct latency_tracker *t)
{
	free_percpu(t->reclaim);
	t->reclaim = NULL;
}
