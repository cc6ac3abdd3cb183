/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * filter.h - the filters of a tracker module (their syntax:
 * filter_parse.h).  Compiled into each tracker module.
 *
 *
 * Filters.  Which tasks (or, for block, which requests) a tracker starts
 * events for, decided in the probe before any table operation by
 * lt_probe_track_task() / lt_probe_track_request():
 *
 *	filter_cgroup	a cgroup v2 directory: tasks in it or below it
 *			(block: requests charged to it or below, blkcg)
 *	filter_tgid	up to LT_FILTER_LIST_MAX processes (global tgids;
 *			written in the writer's pid namespace)
 *	kthreads	0/1: kernel threads tracked (default: 0 for offcpu)
 *	filter_dev	block only: up to LT_FILTER_LIST_MAX disks
 *
 * The filters in force are one immutable struct lt_filter_set, published
 * with rcu_assign_pointer() by a writer (procfs write or module load,
 * serialised by lt_probe.filter_lock, process context) and freed with
 * kfree_rcu() when replaced; the probes read it inside rcu_read_lock(),
 * or rcu_read_lock_sched() in lt_probe_track_task() and
 * lt_task_cgroup_id() (since v5.0 one grace period covers both kinds of
 * reader).
 * The cgroup filter is the cgroup's id and level, never a pointer to it,
 * and a task's cgroup is compared through its ancestors[] under RCU (a
 * cgroup and its ancestors stay allocated for a grace period after the
 * last task left): when the cgroup is removed nothing dangles, it simply
 * matches no task (ids are never reused).
 *
 *	what		who					sync
 *	p->filter	writers (process ctx, filter_lock)	RCU publish
 *	*p->filter	readers: probes, callbacks (any ctx)	immutable
 *	cgroup_path	writers and the filter_cgroup reader	filter_lock
 */
#ifndef _LT_FILTER_H
#define _LT_FILTER_H

#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "filter_parse.h"

/**
 * struct lt_filter_set - the filters in force (immutable once published)
 * @rcu: to free a replaced set.
 * @cgroup_id: the filter_cgroup's id, 0 = any cgroup.
 * @cgroup_level: its depth in the hierarchy (root: 0).
 * @nr_tgids: entries in @tgids, 0 = any process.
 * @tgids: global tgids.
 * @nr_devs: entries in @devs, 0 = any disk.
 * @devs: disks (dev_t).
 * @kthreads: kernel threads are tracked.
 */
struct lt_filter_set {
	struct rcu_head rcu;
	u64 cgroup_id;
	int cgroup_level;
	u32 nr_tgids;
	pid_t tgids[LT_FILTER_LIST_MAX];
	u32 nr_devs;
	u32 devs[LT_FILTER_LIST_MAX];
	bool kthreads;
};

struct lt_probe;
struct lt_probe_mparams;
struct request;

bool lt_probe_track_task(struct lt_probe *p, struct task_struct *tsk,
			 u64 *cgid);
bool lt_probe_track_request(struct lt_probe *p, struct request *rq, u32 dev,
			    u64 *cgid);
bool lt_probe_selects(struct lt_probe *p);
u64 lt_task_cgroup_id(struct task_struct *tsk);

/* For probe.c: set up from the module parameters, files, tear down. */
int lt_filter_init(struct lt_probe *p, const struct lt_probe_mparams *mp);
int lt_filter_files_add(struct lt_probe *p);
void lt_filter_fini(struct lt_probe *p);

#endif /* _LT_FILTER_H */
