// SPDX-License-Identifier: GPL-2.0-only
/*
 * timeout.c - reporting events that stay pending longer than the timeout.
 *
 * When the tracker has a timeout, event_in appends the event to a FIFO of
 * the CPU it runs on; every event of a tracker shares the same timeout, so
 * each FIFO is in the order of expiry as long as each event's start is
 * no earlier than that of the events queued before it.  A timer scans each
 * FIFO from its head and stops at the first event not yet expired: the
 * cost of a scan is the number of expired events plus one per CPU,
 * whatever the number pending.
 *
 * A start given by the caller (latency_tracker_in_opts.ts_ns, a time
 * already past) may be earlier than that of an event queued before it on
 * the same FIFO.  Such an event waits behind it: it is reported later
 * than an event in order would be, by at most its age at event_in (the
 * time from its ts_ns to its event_in) plus one timer period, since every
 * event ahead of it started before that event_in and so has expired one
 * timeout after it.
 *
 * Synchronisation: a FIFO is protected by its raw spinlock, taken with
 * interrupts off, from any context (event_in on the local CPU, event_out
 * and drains on any CPU, the timer).  An expired event leaves its FIFO
 * (so it is reported at most once), gets a reference for the duration of
 * its callback, and stays in the table: a later event_out still reports it.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>

#include "core.h"

/* Events reported per CPU and per timer run, to bound the softirq time. */
#define LT_TIMEOUT_BATCH	256
/* The timer runs a few times per timeout, but at least every 100 ms. */
#define LT_TIMEOUT_SCANS	4
#define LT_TIMEOUT_MAX_PERIOD	(HZ / 10)

static unsigned long lt_timeout_period(u64 timeout_ns)
{
	unsigned long j = nsecs_to_jiffies(timeout_ns / LT_TIMEOUT_SCANS);

	return clamp_t(unsigned long, j, 1, LT_TIMEOUT_MAX_PERIOD);
}

void lt_timeout_add(struct latency_tracker *t, struct latency_tracker_event *ev)
{
	struct lt_fifo *f;
	unsigned long flags;

	local_irq_save(flags);
	f = this_cpu_ptr(t->fifo);
	raw_spin_lock(&f->lock);
	list_add_tail(&ev->tlist, &f->head);
	WRITE_ONCE(ev->fifo_cpu, smp_processor_id());
	raw_spin_unlock(&f->lock);
	local_irq_restore(flags);
}

/* The slow part of lt_timeout_remove() (core.h): @ev was seen on @cpu's. */
void lt_timeout_unlink(struct latency_tracker *t,
		       struct latency_tracker_event *ev, u16 cpu)
{
	struct lt_fifo *f = per_cpu_ptr(t->fifo, cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&f->lock, flags);
	if (ev->fifo_cpu == cpu) {
		list_del(&ev->tlist);
		WRITE_ONCE(ev->fifo_cpu, LT_NO_FIFO);
	}
	raw_spin_unlock_irqrestore(&f->lock, flags);
}

/* Moves up to LT_TIMEOUT_BATCH expired events of @f to @batch. */
static bool lt_timeout_collect(struct lt_fifo *f, u64 now, u64 timeout,
			       struct list_head *batch)
{
	struct latency_tracker_event *ev;
	unsigned long flags;
	unsigned int n = 0;
	bool more = false;

	raw_spin_lock_irqsave(&f->lock, flags);
	while (!list_empty(&f->head)) {
		ev = list_first_entry(&f->head, struct latency_tracker_event,
				      tlist);
		if ((s64)(now - ev->start_ns) < (s64)timeout)
			break;
		if (n == LT_TIMEOUT_BATCH) {
			more = true;
			break;
		}
		list_del(&ev->tlist);
		WRITE_ONCE(ev->fifo_cpu, LT_NO_FIFO);
		/*
		 * An event on a FIFO still holds its table reference: whoever
		 * removes it from the table unlinks it from this FIFO, under
		 * this lock, before handing it to reclaim, whose callback
		 * drops that reference a grace period later (core.h).  So the
		 * count is at least one here, and a plain increment is enough.
		 */
		atomic_inc(&ev->ref);
		list_add_tail(&ev->tlist, batch);
		n++;
	}
	raw_spin_unlock_irqrestore(&f->lock, flags);
	return more;
}

static void lt_timeout_report(struct latency_tracker *t,
			      struct list_head *batch, u64 now)
{
	struct latency_tracker_event *ev, *next;

	rcu_read_lock();
	list_for_each_entry_safe(ev, next, batch, tlist) {
		this_cpu_inc(t->stats->timeouts);
		if (t->callback) {
			struct latency_tracker_report r = {
				.tracker = t,
				.event = ev,
				.cause = LATENCY_TRACKER_CAUSE_TIMEOUT,
				.start_ns = ev->start_ns,
				.end_ns = now,
				.delay_ns = now - ev->start_ns,
			};

			/*
			 * Callbacks run with preemption disabled
			 * (latency_tracker.h); the timer's softirq does not
			 * disable it on PREEMPT_RT, where it runs in a thread.
			 */
			preempt_disable();
			t->callback(&r);
			preempt_enable();
		}
		/* May be the last reference: ev->tlist is dead after this. */
		lt_event_put(ev);
	}
	rcu_read_unlock();
}

static void lt_timeout_fn(struct timer_list *tl)
{
	struct latency_tracker *t =
		lt_timer_container_of(t, tl, timeout_timer);
	u64 timeout = READ_ONCE(t->timeout_ns);
	unsigned long period;
	bool more = false;
	int cpu;

	if (!timeout)
		return;		/* re-armed by lt_timeout_kick() */
	period = lt_timeout_period(timeout);

	if (READ_ONCE(t->enabled)) {
		u64 now = ktime_get_mono_fast_ns();

		for_each_possible_cpu(cpu) {
			LIST_HEAD(batch);

			more |= lt_timeout_collect(per_cpu_ptr(t->fifo, cpu),
						   now, timeout, &batch);
			lt_timeout_report(t, &batch, now);
		}
	}
	mod_timer(tl, jiffies + (more ? 1 : period));
}

/* (Re)starts the scan after the timeout changed; process context. */
void lt_timeout_kick(struct latency_tracker *t)
{
	u64 timeout = READ_ONCE(t->timeout_ns);

	if (timeout)
		mod_timer(&t->timeout_timer,
			  jiffies + lt_timeout_period(timeout));
}

int lt_timeout_init(struct latency_tracker *t)
{
	int cpu;

	t->fifo = alloc_percpu(struct lt_fifo);
	if (!t->fifo)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct lt_fifo *f = per_cpu_ptr(t->fifo, cpu);

		raw_spin_lock_init(&f->lock);
		INIT_LIST_HEAD(&f->head);
	}
	timer_setup(&t->timeout_timer, lt_timeout_fn, 0);
	return 0;
}

/* Stops the timer for good (later kicks are ignored); process context. */
void lt_timeout_stop(struct latency_tracker *t)
{
	timer_shutdown_sync(&t->timeout_timer);
}

/* The timer is stopped and the FIFOs drained. */
void lt_timeout_fini(struct latency_tracker *t)
{
	free_percpu(t->fifo);
	t->fifo = NULL;
}
