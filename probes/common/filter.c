// SPDX-License-Identifier: GPL-2.0-only
/*
 * filter.c - the filters of a tracker module: the probes' checks, the
 * filter files and module parameters (see filter.h).  Their syntax is
 * filter_parse.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-cgroup.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kdev_t.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "probe.h"
#include "filter_parse.h"

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
	u32 ids[LT_FILTER_LIST_MAX], minors[LT_FILTER_LIST_MAX], v = 0;
	struct lt_filter_set *old, *f;
	char *path = NULL;
	int i, n, ret = 0;

	/* filter_parse.h's bounds are the kernel's (differences of 0). */
	BUILD_BUG_ON(LT_FILTER_PID_MAX - PID_MAX_LIMIT);
	BUILD_BUG_ON(LT_FILTER_MAJOR_MAX - MAJOR(~0U));
	BUILD_BUG_ON(LT_FILTER_MINOR_MAX - MINORMASK);
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
		if (p->taskless) {
			ret = -EINVAL;
			break;
		}
		path = kmemdup_nul(s, len, GFP_KERNEL);
		ret = path ? lt_filter_resolve_cgroup(f, path) : -ENOMEM;
		break;
	case LT_FILTER_TGID:
		n = lt_filter_parse_pids(s, len, ids);
		if (n < 0 || (n && (p->requests || p->taskless)))
			ret = -EINVAL;
		else
			ret = lt_filter_tgids_global(ids, n);
		for (i = 0; i < n && !ret; i++)
			f->tgids[i] = ids[i];
		f->nr_tgids = ret ? 0 : n;
		break;
	case LT_FILTER_KTHREADS:
		ret = lt_filter_parse_flag(s, len, &v);
		if (!ret && (p->requests || p->taskless) && !v)
			ret = -EINVAL;
		f->kthreads = v;
		break;
	case LT_FILTER_DEV:
		n = lt_filter_parse_devs(s, len, ids, minors);
		ret = n < 0 ? -EINVAL : 0;
		for (i = 0; i < n; i++)
			f->devs[i] = MKDEV(ids[i], minors[i]);
		f->nr_devs = ret ? 0 : n;
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

/**
 * lt_filter_init() - the filters from the module parameters
 * @p: the tracker module.
 * @mp: its module parameters.
 *
 * A bad value fails with one dmesg line naming the parameter.
 *
 * Context: process context (module load), sleeps.
 * Return: 0 or a negative errno.
 */
int lt_filter_init(struct lt_probe *p, const struct lt_probe_mparams *mp)
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
	       p->requests || p->taskless ? "1" : "0 or 1");
	return ret;
}

/**
 * lt_filter_fini() - free the filters (no probe may read them any more)
 * @p: the tracker module.
 *
 * Context: process context.
 */
void lt_filter_fini(struct lt_probe *p)
{
	kfree(rcu_dereference_protected(p->filter, 1));
	RCU_INIT_POINTER(p->filter, NULL);
	kfree(p->cgroup_path);
	p->cgroup_path = NULL;
}

/**
 * lt_filter_files_add() - the filter files in the tracker's directory
 * @p: the tracker module, its tracker created.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int lt_filter_files_add(struct lt_probe *p)
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
