// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracker.c - latency_tracker.ko: module init/exit, creating and
 * destroying trackers, small accessors.
 */
#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/thread_info.h>
#include <linux/time64.h>

#include "core.h"

/* Readers are woken at most once per second unless told otherwise. */
#define LT_WAKEUP_INTERVAL_DEFAULT	NSEC_PER_SEC

/* Names in use, so that a duplicate is refused before procfs sees it. */
static LIST_HEAD(lt_trackers);
static DEFINE_MUTEX(lt_trackers_lock);

struct lt_tracker_link {
	struct list_head list;
	struct latency_tracker *t;
};

/* The work queue of pool growths (unbound, high priority). */
static struct workqueue_struct *lt_wq;

/* A growth that failed for want of memory is retried after this... */
#define LT_GROW_RETRY_MIN	(HZ / 10)
/* ...doubled at each failure, up to this. */
#define LT_GROW_RETRY_MAX	(30 * HZ)

/*
 * Bucket count for @pending events: LT_HT_BUCKETS_PER_EVENT per event
 * rounded up to a power of two, kept while the load is within [1/32, 1/2]
 * (see LT_HT_MIN_BUCKETS in core.h).
 */
static unsigned long lt_ht_want(struct latency_tracker *t, u64 pending,
				unsigned long size)
{
	unsigned long min = min(LT_HT_MIN_BUCKETS, t->max_buckets);
	u64 want = pending * LT_HT_BUCKETS_PER_EVENT;

	if (pending * 2 <= size && pending * 32 >= size)
		return size;
	if (want >= t->max_buckets / 2)
		return t->max_buckets;
	return clamp_t(unsigned long, roundup_pow_of_two(want + 1), min,
		       t->max_buckets);
}

/*
 * Follows the number of pending events with the table size (see
 * LT_HT_MIN_BUCKETS in core.h).  A failed allocation leaves the table as
 * it was: it stays correct, only the walks get longer.  A pool still low
 * is given to grow_work again (a no-op while a retry after a failed
 * growth is pending: the retry keeps its delay).
 */
static void lt_ht_resize_fn(struct work_struct *work)
{
	struct latency_tracker *t =
		container_of(to_delayed_work(work), struct latency_tracker,
			     resize_work);
	unsigned long size = lt_lfht_nr_buckets(t->ht), want;
	struct latency_tracker_stats s;

	latency_tracker_get_stats(t, &s);
	want = lt_ht_want(t, s.pending, size);
	if (want != size)
		lt_lfht_resize(t->ht, want);
	if (lt_pool_low(&t->pool))
		queue_delayed_work(lt_wq, &t->grow_work, 0);
	schedule_delayed_work(&t->resize_work, LT_HT_RESIZE_PERIOD);
}

/*
 * The pool's watermark hook (pool.h, "Growth"): in the context of an
 * event_in, interrupts off, maybe under a scheduler probe's runqueue
 * lock.  An irq_work is safe there; a work item could wake a worker.
 */
static void lt_pool_low_hook(struct lt_pool *pool)
{
	struct latency_tracker *t =
		container_of(pool, struct latency_tracker, pool);

	irq_work_queue(&t->grow_kick);
}

/*
 * The irq_work: in hard interrupt context (in the irq_work thread on
 * PREEMPT_RT), no runqueue lock held any more: queueing the work is safe.
 */
static void lt_grow_kick_fn(struct irq_work *work)
{
	struct latency_tracker *t =
		container_of(work, struct latency_tracker, grow_kick);

	queue_delayed_work(lt_wq, &t->grow_work, 0);
}

/*
 * Grows the pool while it is low, one segment at a time, then rearms its
 * watermark (and goes on if it was found low meanwhile).  A failed
 * allocation leaves the pool kicked (no more hooks from the probe path)
 * and retries itself later, the delay doubled at each failure in a row
 * (LT_GROW_RETRY_MIN..LT_GROW_RETRY_MAX): a machine short of memory is
 * not asked again and again for a segment as large as the pool.  A pool
 * that cannot grow any more is not low (lt_pool_grow() lowers its
 * ceiling).  The work item never runs twice at once: growths are
 * serialised.
 */
static void lt_grow_fn(struct work_struct *work)
{
	struct latency_tracker *t =
		container_of(to_delayed_work(work), struct latency_tracker,
			     grow_work);
	int ret;

	do {
		while (lt_pool_low(&t->pool)) {
			ret = lt_pool_grow(&t->pool);
			if (ret == -ENOMEM) {
				t->grow_retry = clamp(t->grow_retry * 2,
						      LT_GROW_RETRY_MIN,
						      LT_GROW_RETRY_MAX);
				queue_delayed_work(lt_wq, &t->grow_work,
						   t->grow_retry);
				return;
			}
			if (ret)
				break;
			t->grow_retry = 0;
			WRITE_ONCE(t->grown, t->grown + 1);
		}
	} while (lt_pool_rearm(&t->pool));
}

/* Default ceiling: one slot per kernel stack the memory could hold. */
static u32 lt_default_max_events(void)
{
	u64 stacks = div64_u64((u64)totalram_pages() << PAGE_SHIFT,
			       THREAD_SIZE);

	return (u32)clamp_t(u64, stacks, LT_INITIAL_EVENTS_MIN,
			    LT_MAX_EVENTS_LIMIT);
}

/* Default initial size, from the CPUs; never above the ceiling. */
static u32 lt_default_initial_events(u32 max_events)
{
	u32 n = clamp_t(u32, num_online_cpus() * LT_INITIAL_EVENTS_PER_CPU,
			LT_INITIAL_EVENTS_MIN, LT_INITIAL_EVENTS_MAX);

	return min(n, max_events);
}

static bool lt_name_valid(const char *name)
{
	size_t i, len;

	if (!name)
		return false;
	len = strnlen(name, LATENCY_TRACKER_NAME_MAX + 1);
	if (!len || len > LATENCY_TRACKER_NAME_MAX)
		return false;
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

static int lt_params_check(const struct latency_tracker_params *p)
{
	if (!lt_name_valid(p->name))
		return -EINVAL;
	if (lt_param_valid(LATENCY_TRACKER_PARAM_THRESHOLD, p->threshold_ns) ||
	    lt_param_valid(LATENCY_TRACKER_PARAM_TIMEOUT, p->timeout_ns) ||
	    lt_param_valid(LATENCY_TRACKER_PARAM_MAX_EVENTS, p->max_events) ||
	    p->initial_events > LT_MAX_EVENTS_LIMIT ||
	    (p->max_events && p->initial_events > p->max_events))
		return -EINVAL;
	if (!p->key_size || p->key_size > LATENCY_TRACKER_KEY_MAX ||
	    p->priv_size > LATENCY_TRACKER_PRIV_MAX ||
	    p->alert_payload > LT_ALERT_PAYLOAD_MAX ||
	    (p->alert_records &&
	     lt_param_valid(LATENCY_TRACKER_PARAM_ALERT_RECORDS,
			    p->alert_records)))
		return -EINVAL;
	return 0;
}

static int lt_register_name(struct latency_tracker *t,
			    struct lt_tracker_link *link)
{
	struct lt_tracker_link *it;

	list_for_each_entry(it, &lt_trackers, list)
		if (!strcmp(it->t->name, t->name))
			return -EEXIST;
	link->t = t;
	list_add(&link->list, &lt_trackers);
	return 0;
}

static struct lt_tracker_link *lt_unregister_name(struct latency_tracker *t)
{
	struct lt_tracker_link *it;

	list_for_each_entry(it, &lt_trackers, list) {
		if (it->t == t) {
			list_del(&it->list);
			return it;
		}
	}
	return NULL;
}

/**
 * latency_tracker_create() - create a tracker and its procfs directory
 * @p: parameters; see struct latency_tracker_params.  The threshold,
 *	timeout and max_events must be within the bounds of the procfs knobs,
 *	initial_events at most max_events (when set).
 *
 * Preallocates initial_events event slots (the pool then grows in the
 * background, up to max_events; both sized from the machine when 0),
 * sets up the hash table (small at first, then resized in the background
 * with the number of pending events, up to 4 buckets per slot of
 * max_events), allocates
 * the per-CPU statistics and the alert ring, and creates
 * /proc/latency_tracker/<name>/.  Tracking is enabled on return.
 *
 * Context: process context, may sleep.
 * Return: the tracker, or an ERR_PTR(): -EINVAL for bad parameters,
 * -EEXIST when the name is taken, -ENOMEM.
 */
struct latency_tracker *
latency_tracker_create(const struct latency_tracker_params *p)
{
	struct lt_tracker_link *link;
	struct latency_tracker *t;
	u32 nr_records, nr_buckets, max_events, initial;
	int ret;

	ret = lt_params_check(p);
	if (ret)
		return ERR_PTR(ret);
	/* A ceiling from the memory is never below the initial size asked. */
	max_events = p->max_events ? p->max_events :
		     max(lt_default_max_events(), p->initial_events);
	initial = p->initial_events ? p->initial_events :
		  lt_default_initial_events(max_events);

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!t || !link) {
		ret = -ENOMEM;
		goto err_free;
	}
	strscpy(t->name, p->name, sizeof(t->name));
	t->key_size = p->key_size;
	t->key_area = round_up(p->key_size, 8);
	t->priv_size = p->priv_size;
	t->max_events = max_events;
	t->threshold_ns = p->threshold_ns;
	t->timeout_ns = p->timeout_ns;
	t->wakeup_interval_ns = LT_WAKEUP_INTERVAL_DEFAULT;
	t->callback = p->callback;
	t->hash = p->hash;
	t->match = p->match;
	t->alert_fmt = p->alert_fmt;
	t->stats_show = p->stats_show;
	t->owner_data = p->owner_data;
	t->seed = get_random_u32();
	mutex_init(&t->ctl_lock);

	mutex_lock(&lt_trackers_lock);
	ret = lt_register_name(t, link);
	mutex_unlock(&lt_trackers_lock);
	if (ret)
		goto err_free;

	ret = lt_stats_init(t);
	if (ret)
		goto err_name;
	ret = lt_timeout_init(t);
	if (ret)
		goto err_stats;
	ret = lt_reclaim_init(t);
	if (ret)
		goto err_timeout;
	ret = lt_pool_init(&t->pool, initial, max_events,
			   sizeof(struct latency_tracker_event) + t->key_area +
			   t->priv_size);
	if (ret)
		goto err_reclaim;
	t->pool.on_low = lt_pool_low_hook;
	init_irq_work(&t->grow_kick, lt_grow_kick_fn);
	INIT_DELAYED_WORK(&t->grow_work, lt_grow_fn);
	t->max_buckets = roundup_pow_of_two(max_events) *
			 LT_HT_BUCKETS_PER_EVENT;
	nr_buckets = min(LT_HT_MIN_BUCKETS, t->max_buckets);
	t->ht = lt_lfht_new(nr_buckets, t->max_buckets);
	if (!t->ht) {
		ret = -ENOMEM;
		goto err_pool;
	}
	nr_records = p->alert_records ?
		     roundup_pow_of_two(p->alert_records) :
		     LT_ALERT_RECORDS_DEFAULT;
	ret = lt_alerts_init(t, nr_records, p->alert_payload ?:
			     LT_ALERT_PAYLOAD_DEFAULT);
	if (ret)
		goto err_ht;
	ret = lt_proc_tracker_add(t);
	if (ret)
		goto err_alerts;

	t->run = 1;
	t->enabled = true;
	lt_timeout_kick(t);
	INIT_DEFERRABLE_WORK(&t->resize_work, lt_ht_resize_fn);
	schedule_delayed_work(&t->resize_work, LT_HT_RESIZE_PERIOD);
	return t;

err_alerts:
	lt_alerts_stop(t);
	lt_alerts_fini(t);
err_ht:
	lt_lfht_destroy(t->ht);
err_pool:
	lt_pool_destroy(&t->pool);
err_reclaim:
	lt_reclaim_fini(t);
err_timeout:
	lt_timeout_stop(t);
	lt_timeout_fini(t);
err_stats:
	lt_stats_fini(t);
err_name:
	mutex_lock(&lt_trackers_lock);
	lt_unregister_name(t);
	mutex_unlock(&lt_trackers_lock);
err_free:
	kfree(link);
	kfree(t);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(latency_tracker_create);

/**
 * latency_tracker_destroy() - stop a tracker and free everything
 * @t: the tracker (NULL or an ERR_PTR() are ignored).
 *
 * Pending events are dropped without a callback.  The caller must have
 * stopped every caller of the probe-path functions first (for tracepoint
 * probes: latency_tracker_tp_detach()).  Blocked `alerts` readers are
 * released (their read returns 0), the procfs directory is removed,
 * including files added by the owner, and every slot is back in the pool
 * (the reclaim batches have completed; the caller dropped its get_event()
 * references) before the memory is freed.
 *
 * Context: process context, may sleep.
 */
void latency_tracker_destroy(struct latency_tracker *t)
{
	struct lt_tracker_link *link;

	if (IS_ERR_OR_NULL(t))
		return;

	mutex_lock(&t->ctl_lock);
	WRITE_ONCE(t->enabled, false);
	mutex_unlock(&t->ctl_lock);
	synchronize_rcu();
	cancel_delayed_work_sync(&t->resize_work);	/* it re-arms itself */
	/* No event_in runs any more: nothing kicks the pool's growth. */
	irq_work_sync(&t->grow_kick);
	cancel_delayed_work_sync(&t->grow_work);	/* it re-arms itself */
	lt_timeout_stop(t);
	lt_alerts_stop(t);
	lt_proc_tracker_remove(t);
	lt_alerts_release_pollers(t);

	lt_event_drain(t);
	lt_reclaim_flush(t);	/* every unreferenced slot is back */
	WARN_ON_ONCE(lt_lfht_destroy(t->ht));
	lt_pool_destroy(&t->pool);
	lt_reclaim_fini(t);
	lt_alerts_fini(t);
	lt_timeout_fini(t);
	lt_stats_fini(t);

	mutex_lock(&lt_trackers_lock);
	link = lt_unregister_name(t);
	mutex_unlock(&lt_trackers_lock);
	kfree(link);
	kfree(t);
}
EXPORT_SYMBOL_GPL(latency_tracker_destroy);

/**
 * latency_tracker_threshold() - current threshold of a tracker
 * @t: the tracker.
 *
 * Context: any context.
 * Return: the threshold in ns (may change at any time through procfs).
 */
u64 latency_tracker_threshold(struct latency_tracker *t)
{
	return READ_ONCE(t->threshold_ns);
}
EXPORT_SYMBOL_GPL(latency_tracker_threshold);

/**
 * latency_tracker_enabled() - whether a tracker is tracking (its enable)
 * @t: the tracker.
 *
 * Context: any context.
 * Return: true when tracking is on (may change at any time through
 * procfs).
 */
bool latency_tracker_enabled(struct latency_tracker *t)
{
	return READ_ONCE(t->enabled);
}
EXPORT_SYMBOL_GPL(latency_tracker_enabled);

/**
 * latency_tracker_timeout() - current timeout of a tracker
 * @t: the tracker.
 *
 * Context: any context.
 * Return: the timeout in ns, 0 when events never time out (may change at
 * any time through procfs).
 */
u64 latency_tracker_timeout(struct latency_tracker *t)
{
	return READ_ONCE(t->timeout_ns);
}
EXPORT_SYMBOL_GPL(latency_tracker_timeout);

/**
 * latency_tracker_run() - which run of tracking is in progress
 * @t: the tracker.
 *
 * For a probe that times an interval itself (latency_tracker_event_record()):
 * read at the interval's start and again at its end, both equal and not 0
 * say that tracking ran all along.  Stopping tracking (enable=0) drops the
 * pending events; an interval that began before a stop is dropped the same
 * way by its caller when the two differ.
 *
 * Context: any context.
 * Return: 0 while tracking is stopped, else the number of the run, which
 * changes each time tracking starts again.
 */
u32 latency_tracker_run(struct latency_tracker *t)
{
	if (!READ_ONCE(t->enabled))
		return 0;
	/* Pairs with lt_set_enable()'s smp_wmb(): this run's number or later. */
	smp_rmb();
	return READ_ONCE(t->run);
}
EXPORT_SYMBOL_GPL(latency_tracker_run);

/**
 * latency_tracker_owner_data() - the owner_data given at creation
 * @t: the tracker.
 *
 * Context: any context.
 * Return: params->owner_data.
 */
void *latency_tracker_owner_data(struct latency_tracker *t)
{
	return t->owner_data;
}
EXPORT_SYMBOL_GPL(latency_tracker_owner_data);

/**
 * latency_tracker_proc_dir() - the tracker's procfs directory
 * @t: the tracker.
 *
 * Lets a tracker module add its own files next to the core ones (with
 * proc_create_data(); keep them root-only).  They are removed by
 * latency_tracker_destroy(); in their file operations,
 * proc_get_parent_data(inode) returns @t.
 *
 * Context: any context.
 * Return: /proc/latency_tracker/<name>/.
 */
struct proc_dir_entry *latency_tracker_proc_dir(struct latency_tracker *t)
{
	return t->dir;
}
EXPORT_SYMBOL_GPL(latency_tracker_proc_dir);

/**
 * latency_tracker_queue_work() - queue a tracker module's work item
 * @work: the work item.
 *
 * On the core's workqueue (unbound, high priority), which outlives every
 * tracker module: a module flushes its work before it unloads.  The
 * kernel's own unbound workqueue is system_unbound_wq before v6.17 and
 * system_dfl_wq since ("workqueue: Add system_percpu_wq and
 * system_dfl_wq"; v7.2 warns once on the former, "workqueue: Add
 * warnings and fallback if system_{unbound}_wq is used"): the core's has
 * one name on every supported kernel.
 *
 * Context: any context but NMI (an irq_work's handler, process context).
 * Return: false if @work was already queued.
 */
bool latency_tracker_queue_work(struct work_struct *work)
{
	return queue_work(lt_wq, work);
}
EXPORT_SYMBOL_GPL(latency_tracker_queue_work);

static int __init latency_tracker_init(void)
{
	int ret;

	lt_cycles_init();
	/* High priority: a pool that runs low must grow before it is dry. */
	lt_wq = alloc_workqueue("latency_tracker", WQ_UNBOUND | WQ_HIGHPRI, 0);
	if (!lt_wq)
		return -ENOMEM;
	ret = lt_stack_init();
	if (ret)
		goto err_wq;
	ret = lt_proc_init();
	if (ret)
		goto err_stack;
	return 0;

err_stack:
	lt_stack_exit();
err_wq:
	destroy_workqueue(lt_wq);
	return ret;
}

static void __exit latency_tracker_exit(void)
{
	lt_proc_exit();
	lt_stack_exit();
	destroy_workqueue(lt_wq);
}

module_init(latency_tracker_init);
module_exit(latency_tracker_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Keyed in/out latency matcher with alerts and procfs control");

/**
 * latency_tracker_event_task() - the task of an event, found by its pid
 * @pid: the task's pid (global), as an event keeps it.
 * @start_ns: a time the task existed at, e.g. its event's start (the
 *	tracker's clock, CLOCK_MONOTONIC).
 *
 * The task with @pid now, if it started (task_struct.start_time, the
 * same clock) no later than @start_ns: a task given the pid after the
 * event's task exited was forked after that (while a task lives, no
 * other has its pid).  An exec by a thread that is not the leader keeps
 * the leader's start time with its pid (de_thread()).
 *
 * Context: inside an RCU read-side section, which keeps the task_struct
 * (take a reference to keep it beyond); any context but NMI.
 * Return: the task, or NULL.
 */
struct task_struct *latency_tracker_event_task(pid_t pid, u64 start_ns)
{
	struct task_struct *p;

	p = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
	return p && p->start_time <= start_ns ? p : NULL;
}
EXPORT_SYMBOL_GPL(latency_tracker_event_task);
