// SPDX-License-Identifier: GPL-2.0-only
/*
 * alerts.c - alert records: appending them from the probe path, waking
 * readers (rate limited), and the `alerts` file.
 *
 * Append (any context but NMI): the record, binary, goes into the bounded
 * ring (alert_ring.c) and an irq_work is queued; nothing is formatted and
 * nobody is woken from the probe, which may run under the runqueue lock.
 *
 * Wake (irq_work, then hrtimer): the irq_work asks the rate limiter
 * (ratelimit.c, serialized here by rl_lock).  After a quiet period the
 * readers are woken at once (leading edge); otherwise an hrtimer is armed
 * for the next allowed time, and every record appended meanwhile is
 * delivered by that one wakeup.  The limiter delays wakeups, never drops
 * records.
 *
 * Read (process context, like /dev/kmsg): each open file has its own
 * cursor, starting at the ring head at open time.  read() blocks until a
 * record is there (or returns -EAGAIN with O_NONBLOCK) and returns whole
 * lines only; the record is formatted here, with the tracker's alert_fmt
 * callback appending its fields from the binary payload.  A reader that
 * fell behind the ring first gets a `cause=lost count=<n>` line.
 */
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/proc_fs.h>
#include <linux/sched/signal.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/ktime.h>
#include <linux/uaccess.h>
#include <lt_records/record.h>

#include "alert_fmt.h"
#include "core.h"

/*
 * Longest record line: the header and a record's fields, stacks included
 * (each at most LT_STACK_FIELD_MAX characters, latency_tracker_fmt_stack()).
 */
#define LT_ALERT_LINE_MAX	4096

struct lt_alert_reader {
	struct latency_tracker *t;
	struct mutex lock;		/* rd.cursor, rec, line */
	struct lt_alert_ring_reader rd;
	size_t len;			/* formatted line not yet read */
	struct lt_alert_buf rec;	/* the record being formatted */
	char line[LT_ALERT_LINE_MAX];
};

/* From LT_CAUSES (lt_records/record.h), as in our ftrace and LTTng events. */
static const char *const lt_cause_names[] = {
	LT_CAUSES(LT_REC_ENUM_STR)
};

/**
 * latency_tracker_alert() - append an alert record and wake readers
 * @t: the tracker.
 * @cause: threshold or timeout.
 * @ts_ns: time of the alert (ktime_get_mono_fast_ns() clock).
 * @delay_ns: the measured delay.
 * @payload: tracker-specific binary data, turned into text by the
 *	tracker's alert_fmt callback when a reader reads the record.
 * @len: payload length, at most the tracker's alert_payload (its
 *	latency_tracker_params).
 *
 * Meant to be called from the tracker's callback.  Copies the record into
 * the tracker's ring (overwriting the oldest when full) and queues an
 * irq_work that wakes readers, rate limited by wakeup_interval.
 *
 * Context: any context but NMI; never sleeps, never allocates.
 * Return: 0, or -EINVAL when the payload is too long.
 */
int latency_tracker_alert(struct latency_tracker *t,
			  enum latency_tracker_cause cause, u64 ts_ns,
			  u64 delay_ns, const void *payload, size_t len)
{
	struct lt_alert_rec hdr;

	if (unlikely(len > t->ring.payload_max ||
		     cause > LATENCY_TRACKER_CAUSE_TIMEOUT)) {
		this_cpu_inc(t->stats->alerts_lost);
		return -EINVAL;
	}
	hdr.ts_ns = ts_ns;
	hdr.delay_ns = delay_ns;
	hdr.cause = cause;
	hdr.payload_len = len;
	lt_alert_ring_push(&t->ring, &hdr, payload);
	this_cpu_inc(t->stats->alerts);
	irq_work_queue(&t->alert_work);
	return 0;
}
EXPORT_SYMBOL_GPL(latency_tracker_alert);

/**
 * latency_tracker_fmt_u64() - append ` key=<decimal>` to an alert line
 * @f: the formatter given to the alert_fmt callback.
 * @key: field name.
 * @v: value.
 *
 * Context: process context (inside an alert_fmt callback).
 */
void latency_tracker_fmt_u64(struct lt_fmt *f, const char *key, u64 v)
{
	lt_fmt_u64(f, key, v);
}
EXPORT_SYMBOL_GPL(latency_tracker_fmt_u64);

/**
 * latency_tracker_fmt_s64() - append ` key=<signed decimal>`
 * @f: the formatter given to the alert_fmt callback.
 * @key: field name.
 * @v: value.
 *
 * Context: process context (inside an alert_fmt callback).
 */
void latency_tracker_fmt_s64(struct lt_fmt *f, const char *key, s64 v)
{
	lt_fmt_s64(f, key, v);
}
EXPORT_SYMBOL_GPL(latency_tracker_fmt_s64);

/**
 * latency_tracker_fmt_str() - append ` key=<escaped string>`
 * @f: the formatter given to the alert_fmt callback.
 * @key: field name.
 * @s: string (need not be NUL-terminated within @maxlen).
 * @maxlen: at most this many bytes of @s.
 *
 * Bytes outside '!'..'~', and '\' and '=', are written as \xHH.
 *
 * Context: process context (inside an alert_fmt callback).
 */
void latency_tracker_fmt_str(struct lt_fmt *f, const char *key,
			     const char *s, size_t maxlen)
{
	lt_fmt_str(f, key, s, maxlen);
}
EXPORT_SYMBOL_GPL(latency_tracker_fmt_str);

static void lt_alert_wake(struct latency_tracker *t)
{
	wake_up_interruptible_all(&t->alert_wq);
}

static void lt_alert_work_fn(struct irq_work *work)
{
	struct latency_tracker *t =
		container_of(work, struct latency_tracker, alert_work);
	enum lt_rl_action action;
	unsigned long flags;
	u64 delay = 0;

	raw_spin_lock_irqsave(&t->rl_lock, flags);
	action = lt_ratelimit_request(&t->rl, ktime_get_mono_fast_ns(),
				      &delay);
	raw_spin_unlock_irqrestore(&t->rl_lock, flags);

	switch (action) {
	case LT_RL_WAKE_NOW:
		lt_alert_wake(t);
		break;
	case LT_RL_ARM_TIMER:
		hrtimer_start(&t->alert_timer, ns_to_ktime(delay),
			      HRTIMER_MODE_REL);
		break;
	case LT_RL_NOTHING:
		break;
	}
}

static enum hrtimer_restart lt_alert_timer_fn(struct hrtimer *timer)
{
	struct latency_tracker *t =
		container_of(timer, struct latency_tracker, alert_timer);
	unsigned long flags;

	raw_spin_lock_irqsave(&t->rl_lock, flags);
	lt_ratelimit_timer_fired(&t->rl, ktime_get_mono_fast_ns());
	raw_spin_unlock_irqrestore(&t->rl_lock, flags);
	lt_alert_wake(t);
	return HRTIMER_NORESTART;
}

void lt_alerts_set_interval(struct latency_tracker *t, u64 ns)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&t->rl_lock, flags);
	WRITE_ONCE(t->wakeup_interval_ns, ns);
	lt_ratelimit_set_interval(&t->rl, ns);
	raw_spin_unlock_irqrestore(&t->rl_lock, flags);
}

int lt_alerts_init(struct latency_tracker *t, u32 nr_records,
		   u32 payload_max)
{
	int ret;

	ret = lt_alert_ring_init(&t->ring, nr_records, payload_max);
	if (ret)
		return ret;
	init_irq_work(&t->alert_work, lt_alert_work_fn);
	lt_hrtimer_setup(&t->alert_timer, lt_alert_timer_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL);
	raw_spin_lock_init(&t->rl_lock);
	memset(&t->rl, 0, sizeof(t->rl));
	lt_ratelimit_set_interval(&t->rl, t->wakeup_interval_ns);
	init_waitqueue_head(&t->alert_wq);
	return 0;
}

/*
 * No more alerts will be appended: stop the wakeup machinery and release
 * blocked readers (their read returns 0) so the proc files can go away.
 */
void lt_alerts_stop(struct latency_tracker *t)
{
	WRITE_ONCE(t->dying, true);
	irq_work_sync(&t->alert_work);
	hrtimer_cancel(&t->alert_timer);
	wake_up_all(&t->alert_wq);
}

static bool lt_alert_wq_empty(struct wait_queue_head *wq)
{
	bool empty;

	spin_lock_irq(&wq->lock);
	empty = list_empty(&wq->head);
	spin_unlock_irq(&wq->lock);
	return empty;
}

/*
 * Unhook every poller from alert_wq before the tracker (and the wait queue
 * head in it) is freed.  Called after the proc files are gone: procfs
 * rundown has released every open file (lt_alerts_release()) and calls no
 * ->proc_poll() any more, so no new entry can join the queue.  What is
 * still on it:
 *
 *  - epoll (and aio/io_uring poll) entries, which stay until the watcher
 *    deletes them or closes its epoll file -- possibly long after the free.
 *    A wakeup with POLLFREE makes each remove itself and forget the queue
 *    (ep_poll_callback() clears its whead), but the watcher may still be
 *    reading whead under rcu_read_lock(): a grace period must pass before
 *    the free.  This is wake_up_pollfree(), which we cannot call as is: it
 *    warns when entries remain, and the next ones do.
 *  - poll()/select() entries of tasks blocked on the file: they ignore
 *    POLLFREE but are woken by its EPOLLHUP, and their poll_freewait()
 *    removes them before the syscall returns (a stopped or killed task
 *    gets there first too), so waiting for the queue to empty is bounded.
 *
 * Context: process context, may sleep.
 */
void lt_alerts_release_pollers(struct latency_tracker *t)
{
	struct wait_queue_head *wq = &t->alert_wq;
	unsigned long warn_at = jiffies + 10 * HZ;
	bool warned = false;

	for (;;) {
		__wake_up(wq, TASK_NORMAL, 0, poll_to_key(EPOLLHUP | POLLFREE));
		if (lt_alert_wq_empty(wq))
			break;
		usleep_range(1000, 2000);
		if (!warned && time_after(jiffies, warn_at)) {
			warned = true;
			pr_warn("latency_tracker: %s: waiting for poll() callers to leave the alerts file\n",
				t->name);
		}
	}
	synchronize_rcu();
}

void lt_alerts_fini(struct latency_tracker *t)
{
	lt_alert_ring_destroy(&t->ring);
}

/* Formats the next line for @r into r->line; returns its length or 0. */
static size_t lt_alert_next_line(struct lt_alert_reader *r)
{
	struct latency_tracker *t = r->t;
	struct lt_alert_rec *rec = &r->rec.rec;
	struct lt_fmt f;
	u64 lost = 0;

	lt_fmt_init(&f, r->line, sizeof(r->line));
	switch (lt_alert_ring_read(&t->ring, &r->rd, rec, &lost)) {
	case LT_RING_EMPTY:
		return 0;
	case LT_RING_LOST:
		/* Counted once in the ring's total, not per reader. */
		lt_fmt_u64(&f, "ts", ktime_get_mono_fast_ns());
		lt_fmt_raw(&f, "tracker", t->name);
		lt_fmt_raw(&f, "cause", "lost");
		lt_fmt_u64(&f, "count", lost);
		break;
	case LT_RING_RECORD:
		lt_fmt_u64(&f, "ts", rec->ts_ns);
		lt_fmt_raw(&f, "tracker", t->name);
		lt_fmt_raw(&f, "cause", lt_cause_names[rec->cause ?
				LATENCY_TRACKER_CAUSE_TIMEOUT :
				LATENCY_TRACKER_CAUSE_THRESHOLD]);
		lt_fmt_u64(&f, "delay", rec->delay_ns);
		if (t->alert_fmt)
			t->alert_fmt(&f, rec->payload, rec->payload_len);
		break;
	}
	return lt_fmt_end(&f);
}

static bool lt_alert_readable(struct lt_alert_reader *r)
{
	return READ_ONCE(r->len) ||
	       lt_alert_ring_has_data(&r->t->ring, READ_ONCE(r->rd.cursor));
}

static ssize_t lt_alerts_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct lt_alert_reader *r = file->private_data;
	struct latency_tracker *t = r->t;
	size_t done = 0;
	ssize_t ret;

	if (!count)
		return 0;
	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	for (;;) {
		if (!r->len)
			r->len = lt_alert_next_line(r);
		if (r->len)
			break;
		mutex_unlock(&r->lock);
		if (READ_ONCE(t->dying))
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(t->alert_wq,
					       lt_alert_readable(r) ||
					       READ_ONCE(t->dying));
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&r->lock))
			return -ERESTARTSYS;
	}
	/* Whole lines only; a line that does not fit stays for next time. */
	while (r->len && r->len <= count - done) {
		if (copy_to_user(ubuf + done, r->line, r->len)) {
			ret = done ? done : -EFAULT;
			goto out;
		}
		done += r->len;
		r->len = lt_alert_next_line(r);
	}
	ret = done ? done : -EINVAL;
out:
	mutex_unlock(&r->lock);
	return ret;
}

static __poll_t lt_alerts_poll(struct file *file, poll_table *wait)
{
	struct lt_alert_reader *r = file->private_data;

	poll_wait(file, &r->t->alert_wq, wait);
	if (lt_alert_readable(r))
		return EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(r->t->dying))
		return EPOLLHUP;
	return 0;
}

static int lt_alerts_open(struct inode *inode, struct file *file)
{
	struct latency_tracker *t = pde_data(inode);
	struct lt_alert_reader *r;

	r = kvzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->t = t;
	mutex_init(&r->lock);
	lt_alert_ring_attach(&t->ring, &r->rd);
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int lt_alerts_release(struct inode *inode, struct file *file)
{
	struct lt_alert_reader *r = file->private_data;

	lt_alert_ring_detach(&r->t->ring, &r->rd);
	kvfree(r);
	return 0;
}

const struct proc_ops lt_alerts_proc_ops = {
	.proc_open = lt_alerts_open,
	.proc_read = lt_alerts_read,
	.proc_poll = lt_alerts_poll,
	.proc_release = lt_alerts_release,
};
