// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_common.c - shared part of the tracker modules: load/unload
 * sequence and deferred stack reports (see probe_common.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/blk-cgroup.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kdev_t.h>
#include <linux/ktime.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/uaccess.h>

#include "probe_common.h"

static void lt_reports_irq_work(struct irq_work *iw)
{
	struct lt_reports *rs = container_of(iw, struct lt_reports, iw);

	queue_work(system_unbound_wq, &rs->work);
}

static void lt_reports_work(struct work_struct *work)
{
	struct lt_reports *rs = container_of(work, struct lt_reports, work);
	struct llist_node *list;
	struct lt_report *r, *next;

	list = llist_reverse_order(llist_del_all(&rs->ready));
	llist_for_each_entry_safe(r, next, list, node) {
		rs->handle(r);
		clear_bit_unlock(r - rs->slots, rs->busy);
		cond_resched();
	}
}

/**
 * lt_reports_init() - prepare a tracker's report slots
 * @rs: the slots (module static storage).
 * @handle: called in process context for each report.
 *
 * Context: process context.
 */
void lt_reports_init(struct lt_reports *rs, lt_report_handle_t handle)
{
	unsigned int i;

	for (i = 0; i < LT_REPORT_SLOTS; i++)
		rs->slots[i].owner = rs;
	bitmap_zero(rs->busy, LT_REPORT_SLOTS);
	init_llist_head(&rs->ready);
	init_irq_work(&rs->iw, lt_reports_irq_work);
	INIT_WORK(&rs->work, lt_reports_work);
	rs->handle = handle;
	atomic_set(&rs->lost, 0);
	lt_print_budget_init(&rs->budget, LT_PRINT_INTERVAL_NS);
	atomic_set(&rs->suppressed, 0);
}

/**
 * lt_reports_flush() - handle every queued report and wait for it
 * @rs: the slots.
 *
 * Once no producer can run any more (probes detached, tracker destroyed),
 * this leaves nothing of @rs running.
 *
 * Context: process context, sleeps.
 */
void lt_reports_flush(struct lt_reports *rs)
{
	irq_work_sync(&rs->iw);
	flush_work(&rs->work);
	/* A report queued after the irq_work last ran has no work queued. */
	if (!llist_empty(&rs->ready)) {
		queue_work(system_unbound_wq, &rs->work);
		flush_work(&rs->work);
	}
	if (atomic_read(&rs->lost))
		pr_info("%d stack reports lost (all %d slots busy)\n",
			atomic_read(&rs->lost), LT_REPORT_SLOTS);
}

/**
 * lt_report_get() - take a free report slot
 * @rs: the slots.
 *
 * Context: any context but NMI; never sleeps.
 * Return: a slot with @cause, @print, @delay_ns, @start_ns and
 * @nr_entries cleared, or NULL (counted as lost) when all are busy.
 */
struct lt_report *lt_report_get(struct lt_reports *rs)
{
	struct lt_report *r;
	unsigned int i;

	for (i = 0; i < LT_REPORT_SLOTS; i++) {
		if (test_bit(i, rs->busy) || test_and_set_bit_lock(i, rs->busy))
			continue;
		r = &rs->slots[i];
		r->cause = LATENCY_TRACKER_CAUSE_THRESHOLD;
		r->print = false;
		r->delay_ns = 0;
		r->start_ns = 0;
		r->nr_entries = 0;
		return r;
	}
	atomic_inc(&rs->lost);
	return NULL;
}

/**
 * lt_report_queue() - hand a filled slot over to process context
 * @r: a slot from lt_report_get().
 *
 * Context: any context but NMI (irq_work, no wakeup here); never sleeps.
 */
void lt_report_queue(struct lt_report *r)
{
	llist_add(&r->node, &r->owner->ready);
	irq_work_queue(&r->owner->iw);
}

/**
 * lt_report_may_print() - ask the dmesg rate limiter for one stack
 * @rs: the slots whose limiter is asked.
 * @tgid: the process the stack belongs to.
 * @selected: the task was selected by a filter (lt_probe_selects()): it
 *	always gets its stack.
 *
 * Per print interval, at most LT_PRINT_TGID_BURST stacks of one process
 * and LT_PRINT_BURST in all; a process over its own budget does not use
 * up the global one.  A refusal is counted for
 * lt_report_print_suppressed().
 *
 * Context: any context but NMI; lock-free (cmpxchg loops over a bounded
 * number of slots).
 * Return: true when the caller may print one stack.
 */
bool lt_report_may_print(struct lt_reports *rs, pid_t tgid, bool selected)
{
	/* A tgid fits in the 24 bits print_budget.h keeps of it. */
	BUILD_BUG_ON(PID_MAX_LIMIT > (1 << 24));
	if (selected)
		return true;
	if (lt_print_budget_take(&rs->budget, ktime_get_mono_fast_ns(), tgid))
		return true;
	atomic_inc(&rs->suppressed);
	return false;
}

/**
 * lt_report_print_suppressed() - say how many stacks the limiter refused
 * @rs: the slots.
 *
 * Called by a report handler before it prints a stack: prints the number
 * of stack reports refused since the last one printed, if any.
 *
 * Context: process context (the report handler).
 */
void lt_report_print_suppressed(struct lt_reports *rs)
{
	int n = atomic_xchg(&rs->suppressed, 0);

	if (n)
		pr_info("%d stack reports suppressed (rate limit)\n", n);
}

/*
 * Scheduler code a stack goes through when its task leaves the CPU:
 * __schedule, schedule*, io_schedule*, preempt_schedule*, and the
 * preemption points (_cond_resched, __cond_resched).
 */
static bool lt_is_sched_frame(unsigned long addr)
{
	static const char *const prefixes[] = {
		"__schedule", "schedule", "io_schedule", "preempt_schedule",
		"_cond_resched", "__cond_resched",
	};
	char name[KSYM_SYMBOL_LEN];
	unsigned int i;

	sprint_symbol_no_offset(name, addr);
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (str_has_prefix(name, prefixes[i]))
			return true;
	return false;
}

/*
 * The first frame of a report worth showing: the one after the outermost
 * scheduler frame.  A stack captured in our sched_switch probe on the
 * task itself starts with the probe, the tracepoint and __schedule(); one
 * saved from a blocked task starts at __schedule(): both are shown from
 * the code that blocked (do_nanosleep, pipe_read, ...), the same shape.
 * A stack with no scheduler frame is shown whole.
 */
static unsigned int lt_report_first_frame(const struct lt_report *r)
{
	unsigned int i, first = 0;

	for (i = 0; i < r->nr_entries; i++)
		if (lt_is_sched_frame(r->entries[i]))
			first = i + 1;
	return first < r->nr_entries ? first : 0;
}

/*
 * One frame as "%pS" prints it (sprint_symbol(): function+off/size
 * [module]), or "?" for an address kallsyms cannot name, which "%pS"
 * would print raw: e.g. a module's init function once the init has
 * returned (do_init_module() drops the init symbols at once), while the
 * stack was saved inside it and is formatted later.  Also "?" for the
 * empty name of a kernel without kallsyms.  No kernel address reaches
 * dmesg or a trace.
 */
static const char *lt_frame_name(char name[KSYM_SYMBOL_LEN],
				 unsigned long addr)
{
	sprint_symbol(name, addr);
	return !name[0] || str_has_prefix(name, "0x") ? "?" : name;
}

/**
 * lt_report_stack_text() - the stack of a report as one line of text
 * @r: the report being handled.
 *
 * Frames as lt_frame_name() gives them, separated by ';' (empty when
 * there is no stack), for the stack field of our tracepoints.  The buffer
 * is the work item's and is valid until the handler returns.
 *
 * Context: process context (the report handler).
 * Return: the text.
 */
const char *lt_report_stack_text(struct lt_report *r)
{
	char *buf = r->owner->text, name[KSYM_SYMBOL_LEN];
	unsigned int i, first = lt_report_first_frame(r);
	size_t len = 0;

	buf[0] = '\0';
	for (i = first; i < r->nr_entries && len < LT_STACK_TEXT_MAX - 1; i++)
		len += scnprintf(buf + len, LT_STACK_TEXT_MAX - len, "%s%s",
				 i > first ? ";" : "",
				 lt_frame_name(name, r->entries[i]));
	return buf;
}

/**
 * lt_report_print_stack() - print the frames of a report, one per line
 * @r: the report being handled.
 *
 * Frames as lt_frame_name() gives them.
 *
 * Context: process context (the report handler).
 */
void lt_report_print_stack(const struct lt_report *r)
{
	char name[KSYM_SYMBOL_LEN];
	unsigned int i;

	for (i = lt_report_first_frame(r); i < r->nr_entries; i++)
		pr_info("  %s\n", lt_frame_name(name, r->entries[i]));
}

/**
 * lt_stack_save_blocked() - capture the stack of a task that is blocked now
 * @pid: the task (global pid).
 * @r: the report whose @entries receive the stack; its @start_ns is the
 *	start of the task's event.
 *
 * The task is looked up by pid, and taken for the report's task only if
 * it started (task_struct.start_time, CLOCK_MONOTONIC at fork, the
 * tracker's clock) no later than the event: the report's task was alive
 * at the event's start, and a task given its pid after it exited was
 * forked after that (while the task lives, no other has its pid).  An
 * exec by a thread that is not the leader keeps the leader's start time
 * with its pid (de_thread()).  The stack is saved only if that task is
 * off CPU and not runnable, with its pi_lock held so that no wakeup can
 * start it meanwhile (try_to_wake_up() takes the pi_lock first): the
 * stack is frozen and stays allocated during the walk.
 *
 * Context: process context.
 * Return: true if a stack was saved.
 */
bool lt_stack_save_blocked(pid_t pid, struct lt_report *r)
{
	struct task_struct *p;
	unsigned long flags;
	bool saved = false;
	bool blocked;

	rcu_read_lock();
	p = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
	if (p && p->start_time <= r->start_ns)
		get_task_struct(p);
	else
		p = NULL;
	rcu_read_unlock();
	if (!p)
		return false;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	/* Orders the on_rq/on_cpu reads as try_to_wake_up() does. */
	smp_mb__after_spinlock();
	/* Off CPU: its last switch-out is complete, the stack saved. */
	blocked = !smp_load_acquire(&p->on_cpu) && !lt_task_queued_runnable(p) &&
		  READ_ONCE(p->__state) != TASK_RUNNING &&
		  !(p->flags & PF_EXITING);
	if (blocked) {
		r->nr_entries = lt_stack_save_tsk(p, r->entries,
						  LT_STACK_DEPTH);
		saved = true;
	}
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	put_task_struct(p);
	return saved;
}

/* ---- filters ---------------------------------------------------------- */

/* Longest write to a filter file (filter_cgroup: a path). */
#define LT_FILTER_WRITE_MAX	PATH_MAX
/* The usual mount point of cgroup v2, accepted in front of a path. */
#define LT_CGROUP_MOUNT		"/sys/fs/cgroup"

/* Whether @cgrp is the filter's cgroup or below it; under RCU. */
static bool lt_filter_cgroup_match(const struct lt_filter_set *f,
				   struct cgroup *cgrp)
{
	struct cgroup *anc = cgroup_ancestor(cgrp, f->cgroup_level);

	return anc && cgroup_id(anc) == f->cgroup_id;
}

/**
 * lt_task_cgroup_id() - the cgroup v2 id of a task
 * @tsk: the task (current, or one the caller keeps from exiting).
 *
 * The id is the inode number of the cgroup's directory (`stat -c %i`).
 *
 * Context: any context but NMI.
 * Return: the id.
 */
u64 lt_task_cgroup_id(struct task_struct *tsk)
{
	u64 id;

	/* A preemption-disabled reader, as in lt_probe_track_task(). */
	rcu_read_lock_sched_notrace();
	id = cgroup_id(task_dfl_cgroup(tsk));
	rcu_read_unlock_sched_notrace();
	return id;
}

/**
 * lt_probe_track_task() - the filters' verdict on a task
 * @p: the tracker module.
 * @tsk: the task an event would be about (the woken task, the task that
 *	blocks, current in a system call).
 * @cgid: if not NULL, set to @tsk's cgroup v2 id when tracked.
 *
 * Idle tasks are never tracked (and not counted); a task kept out by a
 * filter is counted in `filtered`.
 *
 * Context: any context but NMI (tracepoint probes); no allocation, no
 * lock but RCU.
 * Return: true when an event may be started for @tsk.
 */
bool lt_probe_track_task(struct lt_probe *p, struct task_struct *tsk,
			 u64 *cgid)
{
	const struct lt_filter_set *f;
	struct cgroup *cgrp = NULL;
	bool track = true;
	u32 i;

	if (is_idle_task(tsk) || !tsk->pid)
		return false;
	/*
	 * On every system call and switch: a preemption-disabled reader
	 * costs a preempt count, where rcu_read_lock() is two calls on
	 * preemptible-RCU kernels.  Since the RCU flavours were merged (v5.0)
	 * the filter set's kfree_rcu() waits for such readers too.
	 */
	rcu_read_lock_sched_notrace();
	f = rcu_dereference_sched(p->filter);
	if (!f->kthreads && (tsk->flags & PF_KTHREAD))
		track = false;
	if (track && f->nr_tgids) {
		track = false;
		for (i = 0; i < f->nr_tgids; i++)
			if (f->tgids[i] == tsk->tgid)
				track = true;
	}
	if (track && (f->cgroup_id || cgid)) {
		cgrp = task_dfl_cgroup(tsk);
		if (f->cgroup_id)
			track = lt_filter_cgroup_match(f, cgrp);
		if (cgid)
			*cgid = cgroup_id(cgrp);
	}
	rcu_read_unlock_sched_notrace();
	if (!track)
		latency_tracker_count_filtered(p->t);
	return track;
}

/**
 * lt_probe_track_request() - the filters' verdict on a block request
 * @p: the block tracker.
 * @rq: the request being issued.
 * @dev: its disk.
 * @cgid: set to the cgroup v2 id of the request's blkcg (the cgroup
 *	its first bio is charged to), 0 when it has none (e.g. a flush).
 *
 * filter_dev selects disks, filter_cgroup the blkcg's cgroup and below.
 * A request kept out is counted in `filtered`.
 *
 * Context: any context but NMI (tracepoint probes); no allocation, no
 * lock but RCU.
 * Return: true when an event may be started for @rq.
 */
bool lt_probe_track_request(struct lt_probe *p, struct request *rq, u32 dev,
			    u64 *cgid)
{
	struct cgroup_subsys_state *css = NULL;
	const struct lt_filter_set *f;
	bool track = true;
	u32 i;

	rcu_read_lock();
	f = rcu_dereference(p->filter);
	if (f->nr_devs) {
		track = false;
		for (i = 0; i < f->nr_devs; i++)
			if (f->devs[i] == dev)
				track = true;
	}
	if (rq->bio)
		css = bio_blkcg_css(rq->bio);
	*cgid = css ? cgroup_id(css->cgroup) : 0;
	if (track && f->cgroup_id)
		track = css && lt_filter_cgroup_match(f, css->cgroup);
	rcu_read_unlock();
	if (!track)
		latency_tracker_count_filtered(p->t);
	return track;
}

/**
 * lt_probe_selects() - whether a filter selects tasks (or requests)
 * @p: the tracker module.
 *
 * True while filter_tgid or filter_cgroup is set: every event then
 * belongs to a task someone asked for, whose stack is always printed.
 *
 * Context: any context but NMI.
 * Return: true when filter_tgid or filter_cgroup is set.
 */
bool lt_probe_selects(struct lt_probe *p)
{
	const struct lt_filter_set *f;
	bool sel;

	rcu_read_lock();
	f = rcu_dereference(p->filter);
	sel = f->nr_tgids || f->cgroup_id;
	rcu_read_unlock();
	return sel;
}

/* The filter files; the file's proc data points to its entry. */
enum lt_filter_kind {
	LT_FILTER_CGROUP,
	LT_FILTER_TGID,
	LT_FILTER_KTHREADS,
	LT_FILTER_DEV,
};

struct lt_filter_file {
	const char *name;
	enum lt_filter_kind kind;
};

static const struct lt_filter_file lt_filter_files[] = {
	{ "filter_cgroup", LT_FILTER_CGROUP },
	{ "filter_tgid", LT_FILTER_TGID },
	{ "kthreads", LT_FILTER_KTHREADS },
	{ "filter_dev", LT_FILTER_DEV },
};

/*
 * Strict unsigned decimal of @len bytes: digits only, no sign, no leading
 * zero (but "0"), at most @max.
 */
static int lt_filter_parse_num(const char *s, size_t len, u32 max, u32 *out)
{
	u64 v = 0;
	size_t i;

	if (!len || (len > 1 && s[0] == '0'))
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -EINVAL;
	}
	*out = v;
	return 0;
}

/*
 * A comma-separated list of at most LT_FILTER_LIST_MAX items, each parsed
 * by @item; "" is the empty list.  Returns the number of items or -EINVAL.
 */
static int lt_filter_parse_list(const char *s, size_t len,
				int (*item)(const char *s, size_t len, u32 *out),
				u32 *out)
{
	size_t start = 0, i;
	int n = 0, ret;

	if (!len)
		return 0;
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		if (n == LT_FILTER_LIST_MAX)
			return -EINVAL;
		ret = item(s + start, i - start, &out[n++]);
		if (ret)
			return ret;
		start = i + 1;
	}
	return n;
}

static int lt_filter_parse_pid(const char *s, size_t len, u32 *out)
{
	int ret = lt_filter_parse_num(s, len, PID_MAX_LIMIT, out);

	return ret ? ret : (*out ? 0 : -EINVAL);
}

/* "major:minor", as in /sys/block/<disk>/dev. */
static int lt_filter_parse_dev(const char *s, size_t len, u32 *out)
{
	const char *colon = memchr(s, ':', len);
	u32 major, minor;

	if (!colon ||
	    lt_filter_parse_num(s, colon - s, MAJOR(~0U), &major) ||
	    lt_filter_parse_num(colon + 1, len - (colon + 1 - s), MINORMASK,
				&minor))
		return -EINVAL;
	*out = MKDEV(major, minor);
	return 0;
}

/*
 * The writer's process ids (in its pid namespace) into global tgids: each
 * must be a running process.
 */
static int lt_filter_tgids_global(u32 *ids, int n)
{
	struct pid *pid;
	int i, ret = 0;

	rcu_read_lock();
	for (i = 0; i < n && !ret; i++) {
		pid = find_vpid(ids[i]);
		if (!pid || !pid_task(pid, PIDTYPE_TGID))
			ret = -EINVAL;
		else
			ids[i] = pid_nr(pid);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * A cgroup v2 path: "/" is the root; the same with /sys/fs/cgroup in
 * front is accepted.  Sets the filter's id and level.
 */
static int lt_filter_resolve_cgroup(struct lt_filter_set *f, const char *path)
{
	size_t mlen = strlen(LT_CGROUP_MOUNT);
	struct cgroup *cgrp;

	if (path[0] != '/')
		return -EINVAL;
	if (!strncmp(path, LT_CGROUP_MOUNT, mlen) &&
	    (path[mlen] == '/' || !path[mlen]))
		path += mlen;
	cgrp = cgroup_get_from_path(path[0] ? path : "/");
	if (IS_ERR(cgrp))
		return -EINVAL;
	f->cgroup_id = cgroup_id(cgrp);
	f->cgroup_level = cgrp->level;
	cgroup_put(cgrp);
	return 0;
}

/*
 * Applies one filter value (@len bytes at @s, NUL-terminated, one
 * trailing newline allowed): the new set replaces the old one, or nothing
 * changes and -EINVAL is returned.  Process context.
 */
static int lt_filter_apply(struct lt_probe *p, enum lt_filter_kind kind,
			   const char *s, size_t len)
{
	u32 ids[LT_FILTER_LIST_MAX], v = 0;
	struct lt_filter_set *old, *f;
	char *path = NULL;
	int i, n, ret = 0;

	if (len && s[len - 1] == '\n')
		len--;
	if (strnlen(s, len) != len || memchr(s, '\n', len))
		return -EINVAL;
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_lock(&p->filter_lock);
	old = rcu_dereference_protected(p->filter,
					lockdep_is_held(&p->filter_lock));
	*f = *old;
	switch (kind) {
	case LT_FILTER_CGROUP:
		f->cgroup_id = 0;
		f->cgroup_level = 0;
		if (!len)
			break;
		path = kmemdup_nul(s, len, GFP_KERNEL);
		ret = path ? lt_filter_resolve_cgroup(f, path) : -ENOMEM;
		break;
	case LT_FILTER_TGID:
		n = lt_filter_parse_list(s, len, lt_filter_parse_pid, ids);
		if (n < 0 || (n && p->requests))
			ret = -EINVAL;
		else
			ret = lt_filter_tgids_global(ids, n);
		for (i = 0; i < n && !ret; i++)
			f->tgids[i] = ids[i];
		f->nr_tgids = ret ? 0 : n;
		break;
	case LT_FILTER_KTHREADS:
		ret = lt_filter_parse_num(s, len, 1, &v);
		if (!ret && p->requests && !v)
			ret = -EINVAL;
		f->kthreads = v;
		break;
	case LT_FILTER_DEV:
		n = lt_filter_parse_list(s, len, lt_filter_parse_dev, f->devs);
		ret = n < 0 ? -EINVAL : 0;
		f->nr_devs = n;
		break;
	}
	if (ret) {
		mutex_unlock(&p->filter_lock);
		kfree(path);
		kfree(f);
		return ret;
	}
	if (kind == LT_FILTER_CGROUP) {
		kfree(p->cgroup_path);
		p->cgroup_path = path;
	}
	rcu_assign_pointer(p->filter, f);
	mutex_unlock(&p->filter_lock);
	kfree_rcu(old, rcu);
	return 0;
}

/* The value of a filter file, as read back ("" when off). */
static size_t lt_filter_show(struct lt_probe *p, enum lt_filter_kind kind,
			     char *buf, size_t size)
{
	const struct lt_filter_set *f;
	size_t len = 0;
	pid_t nr;
	u32 i;

	mutex_lock(&p->filter_lock);
	f = rcu_dereference_protected(p->filter,
				      lockdep_is_held(&p->filter_lock));
	switch (kind) {
	case LT_FILTER_CGROUP:
		if (p->cgroup_path)
			len = scnprintf(buf, size, "%s\n", p->cgroup_path);
		break;
	case LT_FILTER_TGID:
		/* In the reader's pid namespace; processes gone are shown as 0. */
		rcu_read_lock();
		for (i = 0; i < f->nr_tgids; i++) {
			nr = pid_vnr(find_pid_ns(f->tgids[i], &init_pid_ns));
			len += scnprintf(buf + len, size - len, "%s%d",
					 i ? "," : "", nr);
		}
		rcu_read_unlock();
		if (f->nr_tgids)
			len += scnprintf(buf + len, size - len, "\n");
		break;
	case LT_FILTER_KTHREADS:
		len = scnprintf(buf, size, "%d\n", f->kthreads);
		break;
	case LT_FILTER_DEV:
		for (i = 0; i < f->nr_devs; i++)
			len += scnprintf(buf + len, size - len, "%s%u:%u",
					 i ? "," : "", MAJOR(f->devs[i]),
					 MINOR(f->devs[i]));
		if (f->nr_devs)
			len += scnprintf(buf + len, size - len, "\n");
		break;
	}
	mutex_unlock(&p->filter_lock);
	return len;
}

static struct lt_probe *lt_filter_probe(struct file *file)
{
	return latency_tracker_owner_data(proc_get_parent_data(file_inode(file)));
}

static ssize_t lt_filter_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct lt_filter_file *ff = pde_data(file_inode(file));
	size_t len;
	ssize_t ret;
	char *buf;

	buf = kmalloc(LT_FILTER_WRITE_MAX + 2, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	len = lt_filter_show(lt_filter_probe(file), ff->kind, buf,
			     LT_FILTER_WRITE_MAX + 2);
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, len);
	kfree(buf);
	return ret;
}

static ssize_t lt_filter_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	const struct lt_filter_file *ff = pde_data(file_inode(file));
	char *buf;
	int ret;

	/* One whole value per write(), like the core's knobs. */
	if (*ppos || count > LT_FILTER_WRITE_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = lt_filter_apply(lt_filter_probe(file), ff->kind, buf, count);
	kfree(buf);
	return ret ? ret : count;
}

static const struct proc_ops lt_filter_proc_ops = {
	.proc_read = lt_filter_read,
	.proc_write = lt_filter_write,
	.proc_lseek = default_llseek,
};

/* The filters from the module parameters; one dmesg line for a bad one. */
static int lt_filter_init(struct lt_probe *p, const struct lt_probe_mparams *mp)
{
	const char *const vals[] = {
		[LT_FILTER_CGROUP] = mp->filter_cgroup,
		[LT_FILTER_TGID] = mp->filter_tgid,
		[LT_FILTER_DEV] = mp->filter_dev,
	};
	struct lt_filter_set *f;
	unsigned int i;
	int ret;

	mutex_init(&p->filter_lock);
	p->cgroup_path = NULL;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->kthreads = true;
	RCU_INIT_POINTER(p->filter, f);
	if (mp->kthreads != 0 && mp->kthreads != 1) {
		ret = -EINVAL;
		goto bad_kthreads;
	}
	ret = lt_filter_apply(p, LT_FILTER_KTHREADS, mp->kthreads ? "1" : "0",
			      1);
	if (ret)
		goto bad_kthreads;
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		if (!vals[i])
			continue;
		ret = lt_filter_apply(p, i, vals[i], strlen(vals[i]));
		if (ret) {
			pr_err("invalid %s=%s\n", lt_filter_files[i].name,
			       vals[i]);
			return ret;
		}
	}
	return 0;

bad_kthreads:
	pr_err("invalid kthreads=%d (accepted: %s)\n", mp->kthreads,
	       p->requests ? "1" : "0 or 1");
	return ret;
}

static void lt_filter_fini(struct lt_probe *p)
{
	kfree(rcu_dereference_protected(p->filter, 1));
	RCU_INIT_POINTER(p->filter, NULL);
	kfree(p->cgroup_path);
	p->cgroup_path = NULL;
}

static int lt_filter_files_add(struct lt_probe *p)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lt_filter_files); i++) {
		if (lt_filter_files[i].kind == LT_FILTER_DEV && !p->requests)
			continue;
		if (!proc_create_data(lt_filter_files[i].name, 0600,
				      latency_tracker_proc_dir(p->t),
				      &lt_filter_proc_ops,
				      (void *)&lt_filter_files[i]))
			return -ENOMEM;
	}
	return 0;
}

/**
 * lt_probe_start() - check the module parameters, create the tracker,
 *	attach the probes
 * @p: the tracker module's description.
 * @mp: its module parameters.
 *
 * A bad parameter fails with one dmesg line naming it (the core's bounds,
 * the same as the procfs files'; the filters' syntax, the same as their
 * files').  Tracking starts when this returns 0.
 *
 * Context: process context (module init), sleeps.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int lt_probe_start(struct lt_probe *p, const struct lt_probe_mparams *mp)
{
	int ret;

	ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_THRESHOLD,
					  KBUILD_MODNAME, mp->threshold);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_TIMEOUT,
						  KBUILD_MODNAME, mp->timeout);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_MAX_EVENTS,
						  KBUILD_MODNAME,
						  mp->max_events);
	if (!ret)
		ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_ALERT_RECORDS,
						  KBUILD_MODNAME,
						  mp->alert_records);
	if (ret)
		return ret;
	if (mp->print_interval < LT_PRINT_INTERVAL_MIN ||
	    mp->print_interval > LT_PRINT_INTERVAL_MAX) {
		pr_err("invalid print_interval=%lu (accepted: %llu..%llu)\n",
		       mp->print_interval, (u64)LT_PRINT_INTERVAL_MIN,
		       (u64)LT_PRINT_INTERVAL_MAX);
		return -EINVAL;
	}
	ret = lt_filter_init(p, mp);
	if (ret)
		goto err_filter;
	if (p->reports)
		p->reports->budget.interval_ns = mp->print_interval;

	p->params.threshold_ns = mp->threshold;
	p->params.timeout_ns = mp->timeout;
	p->params.max_events = mp->max_events;
	p->params.alert_records = mp->alert_records;
	p->params.owner_data = p;
	p->t = latency_tracker_create(&p->params);
	if (IS_ERR(p->t)) {
		ret = PTR_ERR(p->t);
		pr_err("cannot create tracker %s: %d\n", p->params.name, ret);
		goto err_filter;
	}
	ret = lt_filter_files_add(p);
	if (ret)
		goto err_destroy;
	if (p->setup) {
		ret = p->setup(p->t);
		if (ret)
			goto err_destroy;
	}
	ret = latency_tracker_tp_attach(p->tps, p->nr_tps);
	if (ret)
		goto err_destroy;
	return 0;

err_destroy:
	latency_tracker_destroy(p->t);
	if (p->reports)
		lt_reports_flush(p->reports);
err_filter:
	lt_filter_fini(p);
	p->t = NULL;
	return ret;
}

/**
 * lt_probe_stop() - stop tracking and free everything, in order
 * @p: the description given to lt_probe_start().
 *
 * Detaches the probes and waits for running ones, destroys the tracker
 * (pending events are dropped; its timeout timer, the last producer of
 * reports, is stopped; the filter files are removed), then handles the
 * reports still queued and frees the filters.
 *
 * Context: process context (module exit), sleeps.
 */
void lt_probe_stop(struct lt_probe *p)
{
	latency_tracker_tp_detach(p->tps, p->nr_tps);
	latency_tracker_destroy(p->t);
	p->t = NULL;
	if (p->reports)
		lt_reports_flush(p->reports);
	lt_filter_fini(p);
}
