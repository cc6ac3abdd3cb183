// SPDX-License-Identifier: GPL-2.0-only
/*
 * app.c - latency_tracker_app: application requests, marked by the
 * application with liblatency-tracker (lib/), each slow one recorded with
 * the kernel's breakdown of its time (docs/design.md, "Application
 * requests").
 *
 * The transport is one file, /proc/latency_tracker/app (lt_app_abi.h),
 * mode 0660, owner root, group the module parameter `group` (a gid of
 * the initial user namespace; default 0, root only).  It is the one file
 * of ours that a non-root user may open: the members of that group may
 * mark requests; others cannot open it (EACCES).  Root changes the group
 * at run time with chgrp, or, without CAP_CHOWN (latency-trackerd's
 * sandbox, its app-group key), with the line `group GID`.  Root, here, is
 * the global root uid (euid), with or without capabilities: as for the
 * other files of /proc/latency_tracker, whose modes are the check.
 *
 *	ioctl			who		what
 *	LT_APP_IOC_ATTACH	opener		binds the open file to the tracker
 *						named, creating it when it does
 *						not exist and the caller is root
 *						(else -ENOENT)
 *	LT_APP_IOC_REGISTER	bound file	gives the calling thread a block
 *						of the file's region: returns
 *						its index
 *	LT_APP_IOC_BEGIN	bound file	a request begins: arg = its cookie
 *	LT_APP_IOC_END		bound file	the request ends
 *
 * and mmap() of a bound file maps its region (lt_app_abi.h): the library
 * begins a request by writing it in its thread's block, with no system
 * call; BEGIN serves a thread without a block, or whose block is full.
 *
 * A write (root only) defines or deletes a tracker, or sets the file's
 * group, one line: `NAME app [threshold=NS] [timeout=NS] [max_events=N]`
 * (the custom trackers' grammar, its application kind), `del NAME`, or
 * `group GID`; a read lists the trackers as definitions, every field
 * given.  A refused line changes nothing: -EINVAL (bad syntax, a value out
 * of the core's bounds, a gid of no user namespace), -EEXIST (a name in
 * use or reserved), -ENOENT (`del` of an unknown tracker), -ENOSPC, -EPERM
 * (not root).  ATTACH errors: -EINVAL (a bad name
 * or value: the core's bounds), -EEXIST (a reserved name, or one another
 * module's tracker has), -ENOENT, -EBUSY (the file is bound already),
 * -ENOSPC (LT_APP_MAX trackers), -ENOMEM; the others: -ENOTCONN (not
 * bound); REGISTER: -EBUSY (the thread has a block in another file),
 * -ENOSPC (no free block, or no slot in the breakdown's table); BEGIN and
 * END: -ENOENT (the tracker was deleted; END: no request of this cookie
 * is open, counted as `unmatched`), -ENOSPC (BEGIN: no free event slot,
 * counted as `dropped`).  BEGIN and END never sleep nor allocate;
 * REGISTER takes lt_app_lock at a file's first block.
 *
 * Where a request is.  Begun in a block, it stays there while its thread
 * runs on: at the thread's next switch-out (sched_switch, the leave hook
 * of common/thread_time.h) it becomes a pending event of the tracker,
 * timed from its begin (or from the switch, if its timestamp was not
 * written yet) with its breakdown's start taken then, exactly as a BEGIN
 * at its timestamp would have (the thread was on CPU since).  The same
 * when the thread exits or execs (no breakdown: the thread is gone) and
 * when the file is released (requests still open stay pending, no
 * breakdown, the releasing thread's in the record).  An END looks in the
 * caller's block first (through any file of the tracker): a request
 * still there was on CPU throughout its span, which is all its
 * breakdown; within the threshold it is only counted
 * (latency_tracker_event_record()), over it an event is started and ended
 * at once for the record.  Then in the tracker (one lookup; an event of
 * another thread that began the cookie again in its block since gives
 * way to that request), then in the other blocks of the caller's process
 * in the tracker's files (a request begun on another thread that has not
 * left its CPU since).  A request that never leaves its CPU is timed out
 * only when it ends (no switch-out to take it).  Timestamps are the
 * process's CLOCK_MONOTONIC: its time namespace's offset, taken at
 * REGISTER, comes off.  The region is written by whoever maps the file:
 * the kernel takes an entry from BEGIN or OPEN to BUSY by cmpxchg, checks
 * the cookie again once it holds it, clamps a timestamp to the time since
 * the thread's last switch-out and within its current slice when it
 * knows it, and waits only on a flag of its own (a hook taking entries
 * on another CPU), at most LT_APP_TAKING_NS.  The region's pages are
 * charged to the memory cgroup of the process that bound the file.
 *
 * An application tracker is a standard tracker (the probe layer:
 * /proc/latency_tracker/NAME/ with every file and filter, kthreads 1) with
 * `unmatched` and `breakdown_full` (module-wide) in its stats.  An event
 * is keyed by (process, cookie), the process being its tgid and its start
 * time: processes sharing a tracker never collide, and a later process
 * given the same tgid never ends an earlier one's request; a begin on a
 * live key replaces it (in a block, the library begins the entry again;
 * in the tracker, unique mode; an END taken from a block cancels the key
 * in the tracker while the tracker may hold some, lt_app.kin).  The
 * filters apply to the thread that began the request when its request
 * becomes an event (BEGIN, its switch-out), else to the ending thread at
 * the END; a request not tracked (filtered, or tracking off) gets 0 at
 * its begin, and its END counts as `unmatched`.  A request never ended
 * (its process died) stays pending until the tracker's timeout: give
 * trackers that serve crash-prone processes a timeout.  Records: the
 * thread that ended the request (for a timeout, the one that began it),
 * its process, the cookie, its cgroup; and the breakdown when the request
 * began and ended on the same thread (lt_records/app.h).  Tracepoint
 * latency_tracker:app.
 *
 * Lifetime.  A tracker lives on lt_app_list until it is deleted or the
 * module unloads, and its memory until the last open file bound to it is
 * released (kref).  Deletion marks it dead under lt_app_lock, then waits
 * an RCU grace period: an ioctl or the leave hook runs with preemption
 * (or interrupts) disabled and checks `dead` first, so none touches the
 * core tracker once lt_probe_stop() destroys it.  A bound file's context
 * and region live until its release, which first takes its blocks off
 * the breakdown's table (lt_bd_ext_drop()) and waits a grace period (no
 * hook runs on them after).  The region's pages stay while a process
 * still maps them (the mapping's page references): the release drops
 * only the file's own (__free_page()).  Unloading removes
 * the file first: procfs waits for the ioctls in progress and releases
 * every open file, so an application that still holds one gets -EIO
 * from its ENDs afterwards (its begins go on in a region no one reads).
 *
 * Synchronisation:
 *
 *	what			who				sync
 *	lt_app_list, lt_app_nr	ATTACH, writes, reads, unload	lt_app_lock (mutex)
 *	a file's binding	ATTACH (set once, under the	release/acquire;
 *	(m->private)		lock), ioctls, mmap, release	the file's life
 *	app->dead		deletion (set), ioctls, hook	lt_app_lock; RCU
 *	app memory		kref: the list, bound files	kref
 *	unmatched		END, any CPU			atomic
 *	a block's owner		REGISTER (claim), the hook at	cmpxchg; release
 *				the owner's exit (free), END
 *				(read)
 *	a block's fields	REGISTER, before the block is	the fully ordered
 *	(the hook's view)	in the breakdown's table	lt_bd_ext_set()
 *	an entry's state	the block's thread (FREE ->	cmpxchg; the
 *				CLAIMED -> BEGIN -> OPEN, OPEN	kernel's BUSY ->
 *				-> BEGIN), the kernel (BEGIN or	FREE a release
 *				OPEN -> BUSY -> FREE)		store
 *	app->kin		event starts (+1), END, timeout	atomic
 *				(-1)
 *	app->files		REGISTER (add), release (del),	lt_app_lock; RCU
 *				END (walk)
 *	a block's live, start,	REGISTER (set, then live with	release/acquire
 *	tgid, pid, mono_off	release), END (live acquire)
 *	a block's last_out	REGISTER, the hook (its		READ_ONCE; the
 *				thread's), END (read)		thread's order
 *	a block's taking	the hook (set, release clear),	acquire
 *				END (wait)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/vmalloc.h>

#include <lt_app_abi.h>
#include <lt_records/app.h>
#include "common/thread_time.h"
#include "common/probe.h"
#include "custom_def.h"
#include "lt_trace.h"

/* Application trackers that may exist at once. */
#define LT_APP_MAX		64

static uint lt_app_group;
module_param_named(group, lt_app_group, uint, 0444);
MODULE_PARM_DESC(group, "the gid whose members may mark requests (default 0)");

/* The system call names, from the kernel's <asm/unistd.h> (probes/Kbuild). */
static const char *const lt_app_syscalls[] = {
#include "app_syscalls.h"
};

/**
 * struct lt_app - an application tracker
 * @list: on lt_app_list.
 * @ref: the list's reference and one per bound file.
 * @probe: the standard tracker (the probe layer).
 * @dead: deleted: BEGIN and END refuse (see the top of this file).
 * @max_events: as created.
 * @unmatched: ENDs that found no request.
 * @kin: its events that may be pending (started by lt_app_start(), less
 *	those ended by an END or timed out); while not 0, an END taken from
 *	a block also cancels its key in the tracker (a pending request begun
 *	again).  It may overcount (an event replaced), never undercount.
 * @files: its files that have given a block (lt_app_file.node; RCU, added
 *	and removed under lt_app_lock).
 * @name: the tracker's name.
 */
struct lt_app {
	struct list_head list;
	struct kref ref;
	struct lt_probe probe;
	bool dead;
	u32 max_events;
	atomic_long_t unmatched;
	atomic_t kin;
	struct list_head files;
	char name[LT_APP_NAME_SIZE];
};

/*
 * The process is its tgid and its start (a later process given the same
 * tgid never ends an earlier one's request).
 */
struct lt_app_key {
	u64 cookie;
	u64 start;
	s32 tgid;
	u32 zero;
};

static void lt_app_key_init(struct lt_app_key *key, u64 cookie)
{
	key->cookie = cookie;
	key->start = current->group_leader->start_time;
	key->tgid = current->tgid;
	key->zero = 0;
}

/* Private data of a request: its thread at BEGIN, its breakdown's start. */
struct lt_app_priv {
	u64 cgroup;
	pid_t pid;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
	struct lt_bd_snap snap;
	struct lt_bd_rsnap rsnap;
};

/* What END hands to the callback (event_out's ctx): the blocking's top. */
struct lt_app_end {
	s32 top;
};

struct lt_app_file;

/* Pages of a file's region. */
#define LT_APP_PAGES		(LT_APP_REGION_SIZE / PAGE_SIZE)

/**
 * struct lt_app_blk - a block of a file's region, and its thread
 * @f: the file.
 * @owner: the thread (compared, never dereferenced), or NULL: claimed by
 *	REGISTER (cmpxchg), given back when the thread exits or execs.
 * @live: the fields below are its thread's (REGISTER sets it after them,
 *	release; the hook clears it as the thread exits).
 * @start: the thread's process at REGISTER: its leader's start time
 * @tgid: and its tgid (the key of its requests, as lt_app_key_init()),
 * @pid: its pid,
 * @mono_off: its time namespace's offset on CLOCK_MONOTONIC (what the
 *	region's timestamps carry more than the tracker's clock), ns.
 * @last_out: when the thread last left its CPU (the hook), ns: no entry
 *	it holds began before.
 * @taking: the hook is taking entries of the block (an END that finds
 *	one BUSY waits for it: the flag is the kernel's, where the region's
 *	BUSY could be written by the process).
 * @idx: the block's index.
 */
struct lt_app_blk {
	struct lt_app_file *f;
	struct task_struct *owner;
	bool live;
	u64 start;
	pid_t tgid;
	pid_t pid;
	s64 mono_off;
	u64 last_out;
	int taking;
	u32 idx;
};

/**
 * struct lt_app_file - a bound file (m->private of its seq_file)
 * @app: its tracker (a reference).
 * @pages: its region's pages (lt_app_abi.h), zeroed, charged to the
 *	memory cgroup of the process that bound it; mmap() maps them.
 * @region: the same pages in the kernel's address space (vmap()).
 * @node: on @app->files, once @listed.
 * @listed: a block was given (REGISTER).
 * @blk: the blocks.
 */
struct lt_app_file {
	struct lt_app *app;
	struct page *pages[LT_APP_PAGES];
	struct lt_app_req *region;
	struct list_head node;
	bool listed;
	struct lt_app_blk blk[LT_APP_BLOCKS];
};

static LIST_HEAD(lt_app_list);
static unsigned int lt_app_nr;
static DEFINE_MUTEX(lt_app_lock);
static struct proc_dir_entry *lt_app_pde;

/*
 * Root: the global root uid, capabilities or not (see the top), of the
 * file's opener (not of the caller: a root program handed a member's
 * open file must not act as root on its behalf).
 */
static bool lt_app_root(const struct file *file)
{
	return uid_eq(file->f_cred->euid, GLOBAL_ROOT_UID);
}

/* The name of a blocking reason (common/thread_time.h), into @buf. */
static void lt_app_reason_name(s32 reason, char *buf, size_t size)
{
	if (reason == LT_BD_REASON_IO)
		strscpy(buf, "io_schedule", size);
	else if (reason == LT_BD_REASON_COMPAT)
		strscpy(buf, "compat_syscall", size);
	else if (reason == LT_BD_REASON_KERNEL)
		strscpy(buf, "kernel", size);
	else if (reason < 0)
		strscpy(buf, "unknown", size);
	else if (reason < ARRAY_SIZE(lt_app_syscalls) &&
		 lt_app_syscalls[reason])
		strscpy(buf, lt_app_syscalls[reason], size);
	else
		snprintf(buf, size, "syscall_%d", reason);
}

static struct lt_app *lt_app_of(struct latency_tracker *t)
{
	struct lt_probe *p = latency_tracker_owner_data(t);

	return container_of(p, struct lt_app, probe);
}

/*
 * Threshold (in END's event_out) or timeout (the timeout timer):
 * preemption disabled, no sleeping, no printing.
 */
static void lt_app_cb(const struct latency_tracker_report *r)
{
	const struct lt_app_priv *priv = latency_tracker_event_priv(r->event);
	const struct lt_app_end *end = r->ctx;
	struct lt_app *a = lt_app_of(r->tracker);
	const struct lt_app_key *key;
	struct lt_app_record rec = { };
	struct lt_bd_result bd;
	u32 len;

	key = latency_tracker_event_key(r->event, &len);
	rec.cookie = key->cookie;
	/* Out of the tracker (an END's own decrement is its caller's). */
	if (r->cause == LATENCY_TRACKER_CAUSE_TIMEOUT)
		atomic_dec_if_positive(&a->kin);
	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		rec.pid = current->pid;
		rec.tgid = current->tgid;
		lt_comm_get(rec.comm, current);
		rec.cgroup = lt_task_cgroup_id(current);
	} else {
		rec.pid = priv->pid;
		rec.tgid = priv->tgid;
		memcpy(rec.comm, priv->comm, TASK_COMM_LEN);
		rec.cgroup = priv->cgroup;
	}
	/* END on the thread: its parts up to the event's own end. */
	if (end && lt_bd_end(r->end_ns, &priv->snap, &bd)) {
		lt_bd_fold_unblocked(&bd, end->top);
		rec.on_cpu_ns = bd.on_cpu;
		rec.runnable_ns = bd.runnable;
		rec.blocked_ns = bd.blocked;
		if (bd.blocked)
			lt_app_reason_name(end->top, rec.blocked_top,
					   sizeof(rec.blocked_top));
		else
			strscpy(rec.blocked_top, "-", sizeof(rec.blocked_top));
	}
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &rec, sizeof(rec));
	trace_app(r->cause, r->delay_ns, &rec, a->name);
}

static void lt_app_fmt_breakdown(struct lt_fmt *f,
				 const struct lt_app_record *rec)
{
	LT_APP_BREAKDOWN(LT_REC_FMT)
}

/* The alert line: the breakdown only when there is one. */
static void lt_app_fmt(struct lt_fmt *f, const void *payload, size_t len)
{
	const struct lt_app_record *rec = payload;

	BUILD_BUG_ON(sizeof(*rec) > LT_ALERT_PAYLOAD_MAX);
	if (len != sizeof(*rec))
		return;
	LT_APP_BASE(LT_REC_FMT)
	if (rec->blocked_top[0])
		lt_app_fmt_breakdown(f, rec);
}

static void lt_app_stats_show(struct seq_file *m, struct latency_tracker *t)
{
	seq_printf(m, "unmatched %ld\n",
		   atomic_long_read(&lt_app_of(t)->unmatched));
	seq_printf(m, "breakdown_full %lu\n", lt_bd_reasons_full());
}

static void lt_app_release_ref(struct kref *ref)
{
	kfree(container_of(ref, struct lt_app, ref));
}

static struct lt_app *lt_app_find(const char *name)
{
	struct lt_app *a;

	list_for_each_entry(a, &lt_app_list, list)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

/* Creates tracker @name; lt_app_lock held. */
static int lt_app_create(const char *name, u64 threshold, u64 timeout,
			 u32 max_events)
{
	const struct lt_probe_mparams mp = {
		.threshold = threshold,
		.timeout = timeout,
		.max_events = max_events,
		.alert_records = LT_ALERT_RECORDS,
		.print_interval = LT_PRINT_INTERVAL_NS,
		.kthreads = 1,
	};
	struct lt_app *a;
	int ret;

	lockdep_assert_held(&lt_app_lock);
	if (!lt_custom_name_valid(name)) {
		pr_err("refused: '%.40s': not a NAME ([a-z][a-z0-9_]{0,31})\n",
		       name);
		return -EINVAL;
	}
	/* group: a command of the app file, its lines start with it. */
	if (lt_custom_name_reserved(name) || !strcmp(name, "group")) {
		pr_err("refused: %s: a reserved name\n", name);
		return -EEXIST;
	}
	if (lt_app_find(name)) {
		pr_err("refused: %s: name in use\n", name);
		return -EEXIST;
	}
	if (lt_app_nr >= LT_APP_MAX) {
		pr_err("refused: %s: %d application trackers exist already\n",
		       name, LT_APP_MAX);
		return -ENOSPC;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	kref_init(&a->ref);
	a->max_events = max_events;
	atomic_long_set(&a->unmatched, 0);
	atomic_set(&a->kin, 0);
	INIT_LIST_HEAD(&a->files);
	strscpy(a->name, name, sizeof(a->name));
	a->probe.params.name = a->name;
	a->probe.params.key_size = sizeof(struct lt_app_key);
	a->probe.params.priv_size = sizeof(struct lt_app_priv);
	a->probe.params.callback = lt_app_cb;
	a->probe.params.alert_fmt = lt_app_fmt;
	a->probe.params.stats_show = lt_app_stats_show;
	ret = lt_probe_start(&a->probe, &mp);
	if (ret) {
		kfree(a);
		return ret;
	}
	list_add_tail(&a->list, &lt_app_list);
	lt_app_nr++;
	return 0;
}

/* Takes @a off the list and destroys its tracker; lt_app_lock held. */
static void lt_app_kill(struct lt_app *a)
{
	lockdep_assert_held(&lt_app_lock);
	list_del(&a->list);
	lt_app_nr--;
	WRITE_ONCE(a->dead, true);
	/* No BEGIN or END still inside the tracker after this. */
	synchronize_rcu();
	lt_probe_stop(&a->probe);
	kref_put(&a->ref, lt_app_release_ref);
}

static void lt_app_file_free(struct lt_app_file *f)
{
	unsigned int i;

	if (f->region)
		vunmap(f->region);
	/* Ours; a mapping that outlives the file holds references of its own. */
	for (i = 0; i < LT_APP_PAGES; i++)
		if (f->pages[i])
			__free_page(f->pages[i]);
	kfree(f);
}

/* A file's context and region, charged to the caller's memory cgroup. */
static struct lt_app_file *lt_app_file_alloc(void)
{
	struct lt_app_file *f;
	unsigned int i;

	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return NULL;
	for (i = 0; i < LT_APP_PAGES; i++) {
		/* Zeroed: every entry LT_APP_REQ_FREE. */
		f->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!f->pages[i])
			goto fail;
	}
	f->region = vmap(f->pages, LT_APP_PAGES, VM_MAP, PAGE_KERNEL);
	if (!f->region)
		goto fail;
	for (i = 0; i < LT_APP_BLOCKS; i++) {
		f->blk[i].f = f;
		f->blk[i].idx = i;
	}
	INIT_LIST_HEAD(&f->node);
	return f;
fail:
	lt_app_file_free(f);
	return NULL;
}

static long lt_app_attach(struct file *file, void __user *uarg)
{
	struct seq_file *m = file->private_data;
	struct lt_app_attach arg;
	struct lt_app_file *f;
	struct lt_app *a;
	int ret = 0;

	BUILD_BUG_ON(sizeof(arg) != 64);
	BUILD_BUG_ON(sizeof(struct lt_app_req) != 32);
	BUILD_BUG_ON(LT_APP_PAGES * PAGE_SIZE != LT_APP_REGION_SIZE);
	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (!memchr(arg.name, '\0', sizeof(arg.name)) || arg.flags ||
	    arg.reserved)
		return -EINVAL;
	f = lt_app_file_alloc();
	if (!f)
		return -ENOMEM;
	mutex_lock(&lt_app_lock);
	/* Bound files are bound under the lock: no tracker made for nothing. */
	if (m->private) {
		ret = -EBUSY;
		goto out;
	}
	a = lt_app_find(arg.name);
	if (!a) {
		if (!lt_app_root(file)) {
			ret = -ENOENT;
			goto out;
		}
		ret = lt_app_create(arg.name, arg.threshold_ns,
				    arg.timeout_ns,
				    LT_CUSTOM_APP_MAX_EVENTS_DEFAULT);
		if (ret)
			goto out;
		a = lt_app_find(arg.name);
	}
	kref_get(&a->ref);
	f->app = a;
	/* Pairs with the acquire of the other ioctls and mmap. */
	smp_store_release(&m->private, f);
	f = NULL;
out:
	mutex_unlock(&lt_app_lock);
	if (f)
		lt_app_file_free(f);
	return ret;
}

/*
 * Starts the event of a request of current begun at @ts (the tracker's
 * clock; current on CPU from @ts to @now when @bd): the filters, the
 * thread's data, and the breakdown's start when @bd (else none: the
 * record will have no breakdown).  Preemption disabled, @a not dead.
 * Return: 1 (started), 0 (not tracked: filtered or tracking off),
 * -ENOSPC (no free event slot).
 */
static int lt_app_start(struct lt_app *a, const struct lt_app_key *key,
			u64 ts, u64 now, bool bd)
{
	struct lt_app_priv priv;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = sizeof(priv),
		.ts_ns = ts,
	};
	enum latency_tracker_status st;

	if (!lt_probe_track_task(&a->probe, current, &priv.cgroup))
		return 0;
	priv.pid = current->pid;
	priv.tgid = current->tgid;
	lt_comm_get(priv.comm, current);
	if (bd) {
		lt_bd_begin_at(ts, now, &priv.snap);
		lt_bd_reasons_begin(ts, &priv.rsnap);
	} else {
		/* pid 0: lt_bd_end() finds no breakdown. */
		memset(&priv.snap, 0, sizeof(priv.snap));
		priv.rsnap.slot = LT_BD_SLOTS;
	}
	st = latency_tracker_event_in(a->probe.t, key, sizeof(*key), &opts);
	if (st == LATENCY_TRACKER_OK) {
		atomic_inc(&a->kin);
		return 1;
	}
	lt_bd_reasons_forget(&priv.rsnap);
	/* Tracking off (enable 0): not tracked, as when filtered. */
	return st == LATENCY_TRACKER_DISABLED ? 0 : -ENOSPC;
}

/* BEGIN: a request begins, in the tracker. */
static long lt_app_begin(struct lt_app_file *f, u64 cookie)
{
	struct lt_app_key key;
	long ret;
	u64 now;

	lt_app_key_init(&key, cookie);
	preempt_disable();
	if (READ_ONCE(f->app->dead)) {
		ret = -ENOENT;
		goto out;
	}
	now = ktime_get_mono_fast_ns();
	ret = lt_app_start(f->app, &key, now, now, true);
	if (ret > 0)
		ret = 0;
out:
	preempt_enable();
	return ret;
}

/* The entries of block @b. */
static struct lt_app_req *lt_app_reqs(const struct lt_app_blk *b)
{
	return b->f->region + b->idx * LT_APP_BLOCK_REQS;
}

/*
 * The begin of entry @r of block @b, as its thread wrote it (its time
 * namespace's CLOCK_MONOTONIC), on the tracker's clock, within
 * [@from, @now]; @from: not before the thread's last switch-out (the
 * entry would have been taken then) nor the slice of its, if known.
 */
static u64 lt_app_ts(const struct lt_app_blk *b, const struct lt_app_req *r,
		     u64 from, u64 now)
{
	u64 ts = READ_ONCE(r->ts_ns) - b->mono_off;

	from = max(from, READ_ONCE(b->last_out));
	if (ts > now)
		return now;
	return ts < from ? from : ts;
}

static void lt_app_key_of(struct lt_app_key *key, u64 cookie,
			  const struct lt_app_blk *b)
{
	key->cookie = cookie;
	key->start = b->start;
	key->tgid = b->tgid;
	key->zero = 0;
}

/*
 * The leave hook (thread_time.h): the requests open in the block of @p
 * (current) become events of the tracker, timed from their begin within
 * the slice @p is ending (from now if not stamped yet), with their
 * breakdown's start unless @p is exiting or execing.
 */
static void lt_app_leave(void *ext, struct task_struct *p, u64 now,
			 bool exiting)
{
	struct lt_app_blk *b = ext;
	struct lt_app *a = b->f->app;
	struct lt_app_req *r = lt_app_reqs(b);
	u64 from = lt_bd_slice_start(p);
	struct lt_app_key key;
	unsigned int i;
	u32 st;
	u64 ts;

	/* Ordered before any BUSY of ours by the cmpxchg (fully ordered). */
	WRITE_ONCE(b->taking, 1);
	for (i = 0; i < LT_APP_BLOCK_REQS; i++, r++) {
		st = READ_ONCE(r->state);
		if (st != LT_APP_REQ_BEGIN && st != LT_APP_REQ_OPEN)
			continue;
		if (cmpxchg(&r->state, st, LT_APP_REQ_BUSY) != st)
			continue;
		ts = st == LT_APP_REQ_OPEN ? lt_app_ts(b, r, from, now) : now;
		lt_app_key_of(&key, READ_ONCE(r->cookie), b);
		if (!READ_ONCE(a->dead))
			lt_app_start(a, &key, ts, now, !exiting);
		/* In the tracker before an END that sees the entry free. */
		smp_store_release(&r->state, LT_APP_REQ_FREE);
	}
	WRITE_ONCE(b->last_out, now);
	/* An END that waited for us then finds the events in the tracker. */
	smp_store_release(&b->taking, 0);
	if (exiting) {
		/* The entries free before an END sees the block gone. */
		smp_store_release(&b->live, false);
		/* Not live before another REGISTER may claim the block. */
		smp_store_release(&b->owner, NULL);
	}
}

/* REGISTER: current's block in @f's region. */
static long lt_app_register(struct lt_app_file *f)
{
	struct lt_app_blk *b;
	struct lt_app_req *r;
	unsigned int i;
	long ret;

	/* On the tracker's files once a block is in use (lt_app_end_other()). */
	if (!READ_ONCE(f->listed)) {
		mutex_lock(&lt_app_lock);
		if (!f->listed) {
			list_add_rcu(&f->node, &f->app->files);
			WRITE_ONCE(f->listed, true);
		}
		mutex_unlock(&lt_app_lock);
	}
	preempt_disable();
	b = lt_bd_ext_get();
	if (b) {
		ret = b->f == f ? b->idx : -EBUSY;
		goto out;
	}
	for (i = 0; i < LT_APP_BLOCKS; i++)
		if (!READ_ONCE(f->blk[i].owner) &&
		    !cmpxchg(&f->blk[i].owner, NULL, current))
			break;
	if (i == LT_APP_BLOCKS) {
		ret = -ENOSPC;
		goto out;
	}
	b = &f->blk[i];
	b->start = current->group_leader->start_time;
	b->tgid = current->tgid;
	b->pid = current->pid;
	b->mono_off = lt_timens_mono_offset();
	WRITE_ONCE(b->last_out, ktime_get_mono_fast_ns());
	/*
	 * What an earlier thread's process may have left (not an entry an
	 * END is still ending: it frees it).
	 */
	for (r = lt_app_reqs(b); r < lt_app_reqs(b) + LT_APP_BLOCK_REQS; r++)
		if (READ_ONCE(r->state) != LT_APP_REQ_BUSY)
			WRITE_ONCE(r->state, LT_APP_REQ_FREE);
	/* The fields above before an END that sees the block live. */
	smp_store_release(&b->live, true);
	/* Fully ordered: the hook sees the block as written above. */
	ret = lt_bd_ext_set(b);
	if (ret) {
		/* As the hook gives a block back at an exit. */
		smp_store_release(&b->live, false);
		/* Not live before another REGISTER may claim the block. */
		smp_store_release(&b->owner, NULL);
		goto out;
	}
	ret = i;
out:
	preempt_enable();
	return ret;
}

/*
 * Takes the entry of @cookie from block @b, OPEN -> BUSY, or NULL; *@busy
 * set when an entry of that cookie is BUSY (the hook may be taking it).
 */
static struct lt_app_req *lt_app_take(const struct lt_app_blk *b, u64 cookie,
				      bool *busy)
{
	struct lt_app_req *r = lt_app_reqs(b);
	unsigned int i;
	u32 st;

	for (i = 0; i < LT_APP_BLOCK_REQS; i++, r++) {
		if (READ_ONCE(r->cookie) != cookie)
			continue;
		/* Pairs with the hook's release of FREE. */
		st = smp_load_acquire(&r->state);
		if (st == LT_APP_REQ_BUSY && busy)
			*busy = true;
		if (st != LT_APP_REQ_OPEN ||
		    cmpxchg(&r->state, st, LT_APP_REQ_BUSY) != st)
			continue;
		/* Another request begun in it since our look (only ours now). */
		if (READ_ONCE(r->cookie) == cookie)
			return r;
		/* Given back as found (nothing of it was written). */
		smp_store_release(&r->state, LT_APP_REQ_OPEN);
	}
	return NULL;
}

static long lt_app_end_taken(struct lt_app *a, const struct lt_app_blk *b,
			     struct lt_app_req *r,
			     const struct lt_app_key *key, bool own);
static struct lt_app_req *lt_app_find_other(struct lt_app *a,
					    const struct lt_app_key *key,
					    const struct lt_app_blk *skip,
					    pid_t pid,
					    struct lt_app_blk **in,
					    struct lt_app_blk **wait);

/*
 * Ends the request of event @key in the tracker.  Ended by another
 * thread than its own: if its thread began the cookie again in its block
 * since (a restart its thread has not left its CPU after), that one ends
 * and the event is dropped.  Return: 0, or -ENOENT (none pending).
 */
static long lt_app_end_event(struct lt_app *a, const struct lt_app_key *key)
{
	struct latency_tracker *t = a->probe.t;
	struct lt_app_blk *b = NULL, *wait = NULL;
	struct latency_tracker_event *ev;
	struct lt_app_priv *priv;
	struct lt_app_end end;
	struct lt_app_req *r;

	/* Preemption is off: an RCU reader, in which ev stays valid. */
	ev = latency_tracker_find_event(t, key, sizeof(*key));
	if (!ev)
		return -ENOENT;
	priv = latency_tracker_event_priv(ev);
	if (priv->pid != current->pid) {
		r = lt_app_find_other(a, key, NULL, priv->pid, &b, &wait);
		if (r) {
			if (latency_tracker_event_cancel(t, key, sizeof(*key)) > 0)
				atomic_dec_if_positive(&a->kin);
			return lt_app_end_taken(a, b, r, key, false);
		}
	}
	end.top = lt_bd_reasons_end(ktime_get_mono_fast_ns(), &priv->rsnap);
	/* 0: ended meanwhile by another END of the same cookie. */
	if (latency_tracker_event_out(t, key, sizeof(*key), 0, &end) <= 0)
		return -ENOENT;
	atomic_dec_if_positive(&a->kin);
	return 0;
}

/*
 * Ends request @r of block @b, taken by the caller (BUSY); @own: @b is
 * current's, whose thread has not left its CPU since the begin (all of
 * the request was on CPU).
 */
static long lt_app_end_taken(struct lt_app *a, const struct lt_app_blk *b,
			     struct lt_app_req *r,
			     const struct lt_app_key *key, bool own)
{
	struct latency_tracker *t = a->probe.t;
	u64 now = ktime_get_mono_fast_ns();
	u64 ts;

	ts = lt_app_ts(b, r, own ? lt_bd_slice_start(current) : 0, now);
	/* Our reads of the entry before its thread may reuse it. */
	smp_store_release(&r->state, LT_APP_REQ_FREE);
	/* The cookie's older request, begun again before its end. */
	if (atomic_read(&a->kin) &&
	    latency_tracker_event_cancel(t, key, sizeof(*key)) > 0)
		atomic_dec_if_positive(&a->kin);
	if (!latency_tracker_enabled(t) ||
	    !lt_probe_track_task(&a->probe, current, NULL))
		return -ENOENT;
	if (latency_tracker_event_record(t, now - ts))
		return 0;
	/* Over the threshold: an event, ended at once, for its record. */
	if (lt_app_start(a, key, ts, now, own) <= 0)
		return 0;
	return lt_app_end_event(a, key);
}

/*
 * The entry of @key's cookie in a live block of @key's process other than
 * @skip, in any of @a's files, if @pid (0: any thread) is its thread's;
 * taken.  *@wait set to a block whose hook is taking an entry of that
 * cookie.  Preemption disabled (the files' list: RCU).
 */
static struct lt_app_req *lt_app_find_other(struct lt_app *a,
					    const struct lt_app_key *key,
					    const struct lt_app_blk *skip,
					    pid_t pid,
					    struct lt_app_blk **in,
					    struct lt_app_blk **wait)
{
	struct lt_app_file *f;
	struct lt_app_blk *b;
	struct lt_app_req *r;
	bool busy;

	list_for_each_entry_rcu(f, &a->files, node) {
		for (b = f->blk; b < f->blk + LT_APP_BLOCKS; b++) {
			/* Pairs with REGISTER's release. */
			if (b == skip || !smp_load_acquire(&b->live) ||
			    b->tgid != key->tgid || b->start != key->start ||
			    (pid && b->pid != pid))
				continue;
			busy = false;
			r = lt_app_take(b, key->cookie, &busy);
			if (r) {
				*in = b;
				return r;
			}
			/* Pairs with the hook's release of taking. */
			if (busy && smp_load_acquire(&b->taking))
				*wait = b;
		}
	}
	return NULL;
}

/* How long an END waits for a hook taking a request on another CPU. */
#define LT_APP_TAKING_NS	(100 * NSEC_PER_USEC)

/*
 * END of a request in another thread's block of current's process (in
 * any file of the tracker), not in the tracker (yet): taken here, or by
 * that thread's switch-out on another CPU (then in the tracker once the
 * hook is done).
 */
static long lt_app_end_other(struct lt_app *a, const struct lt_app_blk *own,
			     const struct lt_app_key *key)
{
	struct lt_app_blk *b = NULL, *wait = NULL;
	struct lt_app_req *r;
	u64 deadline;

	r = lt_app_find_other(a, key, own, 0, &b, &wait);
	if (r)
		return lt_app_end_taken(a, b, r, key, false);
	deadline = ktime_get_mono_fast_ns() + LT_APP_TAKING_NS;
	/*
	 * Bounded: the flag is the kernel's, the hook quick.  Its release
	 * pairs with this acquire: the hook's events are in the tracker.
	 */
	while (wait && smp_load_acquire(&wait->taking) &&
	       ktime_get_mono_fast_ns() < deadline)
		cpu_relax();
	/* Taken into the tracker since the first look there. */
	return lt_app_end_event(a, key);
}

/*
 * END: the request ends; it is in current's block, the tracker, or
 * another thread's block, looked for in that order.
 */
static long lt_app_end(struct lt_app_file *f, u64 cookie)
{
	struct lt_app *a = f->app;
	struct lt_app_blk *own;
	struct lt_app_key key;
	struct lt_app_req *r;
	long ret;

	lt_app_key_init(&key, cookie);
	preempt_disable();
	if (READ_ONCE(a->dead)) {
		ret = -ENOENT;
		goto out;
	}
	/* Current's block, through whichever file of the tracker. */
	own = lt_bd_ext_get();
	if (own && own->f->app != a)
		own = NULL;
	if (own) {
		r = lt_app_take(own, cookie, NULL);
		if (r) {
			ret = lt_app_end_taken(a, own, r, &key, true);
			goto counted;
		}
	}
	ret = lt_app_end_event(a, &key);
	if (ret == -ENOENT)
		ret = lt_app_end_other(a, own, &key);
counted:
	if (ret == -ENOENT)
		atomic_long_inc(&a->unmatched);
out:
	preempt_enable();
	return ret;
}

static long lt_app_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct seq_file *m = file->private_data;
	struct lt_app_file *f;

	if (cmd == LT_APP_IOC_ATTACH)
		return lt_app_attach(file, (void __user *)arg);
	if (cmd != LT_APP_IOC_BEGIN && cmd != LT_APP_IOC_END &&
	    cmd != LT_APP_IOC_REGISTER)
		return -ENOTTY;
	/* Pairs with ATTACH's release. */
	f = smp_load_acquire(&m->private);
	if (!f)
		return -ENOTCONN;
	if (cmd == LT_APP_IOC_REGISTER)
		return lt_app_register(f);
	return cmd == LT_APP_IOC_BEGIN ? lt_app_begin(f, arg) :
					 lt_app_end(f, arg);
}

/*
 * The region, mapped whole, shared, never executable (lt_app_abi.h); a
 * bound file only.
 */
static int lt_app_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct seq_file *m = file->private_data;
	/* Pairs with ATTACH's release. */
	struct lt_app_file *f = smp_load_acquire(&m->private);
	unsigned int i;
	int ret;

	if (!f)
		return -ENOTCONN;
	if (vma->vm_pgoff ||
	    vma->vm_end - vma->vm_start != LT_APP_REGION_SIZE ||
	    !(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_EXEC))
		return -EINVAL;
	lt_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, VM_MAYEXEC);
	for (i = 0; i < LT_APP_PAGES; i++) {
		ret = vm_insert_page(vma, vma->vm_start + i * PAGE_SIZE,
				     f->pages[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The file is released: its region's requests still open stay pending
 * in the tracker (no breakdown; their thread may be gone: the filters
 * and the record's thread are the releasing one's).  Process context, no
 * hook on its blocks any more.
 */
static void lt_app_keep_open(struct lt_app_file *f)
{
	struct lt_app_key key;
	struct lt_app_blk *b;
	struct lt_app_req *r;
	u64 now, ts;
	u32 st;

	for (b = f->blk; b < f->blk + LT_APP_BLOCKS; b++) {
		if (!READ_ONCE(b->live))
			continue;
		for (r = lt_app_reqs(b); r < lt_app_reqs(b) + LT_APP_BLOCK_REQS;
		     r++) {
			st = READ_ONCE(r->state);
			if ((st != LT_APP_REQ_BEGIN && st != LT_APP_REQ_OPEN) ||
			    cmpxchg(&r->state, st, LT_APP_REQ_BUSY) != st)
				continue;
			lt_app_key_of(&key, READ_ONCE(r->cookie), b);
			preempt_disable();
			now = ktime_get_mono_fast_ns();
			ts = st == LT_APP_REQ_OPEN ? lt_app_ts(b, r, 0, now) : now;
			if (!READ_ONCE(f->app->dead))
				lt_app_start(f->app, &key, ts, now, false);
			preempt_enable();
			WRITE_ONCE(r->state, LT_APP_REQ_FREE);
		}
	}
}

static int lt_app_delete(const char *name)
{
	struct lt_app *a;
	int ret = 0;

	mutex_lock(&lt_app_lock);
	a = lt_app_find(name);
	if (a) {
		lt_app_kill(a);
	} else {
		pr_err("refused: del %.40s: no such application tracker\n",
		       name);
		ret = -ENOENT;
	}
	mutex_unlock(&lt_app_lock);
	return ret;
}

/*
 * `group GID`: the file's group, in the proc entry (new inodes) and in its
 * inode (kept while the entry is cached), as a chgrp would set both.
 */
static int lt_app_set_group(struct inode *inode, const char *val)
{
	kgid_t gid;
	u32 v;

	if (kstrtou32(val, 10, &v))
		goto bad;
	gid = make_kgid(&init_user_ns, v);
	if (!gid_valid(gid))
		goto bad;
	inode_lock(inode);
	inode->i_gid = gid;
	proc_set_user(lt_app_pde, GLOBAL_ROOT_UID, gid);
	inode_unlock(inode);
	return 0;
bad:
	pr_err("refused: 'group %.20s': not a gid\n", val);
	return -EINVAL;
}

/*
 * A line of the custom grammar (custom_def.h) of the app kind, or a del;
 * @count bytes of @buf, a trailing newline included.
 */
static int lt_app_command(const char *buf, size_t count)
{
	struct lt_custom_cmd *cmd;
	struct lt_custom_err err;
	int ret;

	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	ret = lt_custom_parse(buf, count, cmd, &err);
	if (cmd->op == LT_CUSTOM_ADD && !cmd->def.app) {
		/* Another kind, or no kind: what this file takes. */
		pr_err("refused: not NAME app [threshold=NS] [timeout=NS] [max_events=N] (nor del NAME, group GID; a custom tracker is made by writing it to /proc/latency_tracker/custom)\n");
		ret = -EINVAL;
	} else if (ret) {
		lt_custom_refused(&err);
	} else if (cmd->op == LT_CUSTOM_DEL) {
		ret = lt_app_delete(cmd->def.name);
	} else {
		mutex_lock(&lt_app_lock);
		ret = lt_app_create(cmd->def.name, cmd->def.threshold_ns,
				    cmd->def.timeout_ns, cmd->def.max_events);
		mutex_unlock(&lt_app_lock);
	}
	kfree(cmd);
	return ret;
}

static ssize_t lt_app_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	if (!lt_app_root(file))
		return -EPERM;
	if (!count || count > LT_CUSTOM_LINE_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (str_has_prefix(buf, "group ") || str_has_prefix(buf, "group\t")) {
		if (buf[count - 1] == '\n')
			buf[count - 1] = '\0';
		ret = lt_app_set_group(file_inode(file), skip_spaces(buf + 6));
	} else {
		ret = lt_app_command(buf, count);
	}
	kfree(buf);
	return ret ? ret : count;
}

static int lt_app_show(struct seq_file *m, void *v)
{
	struct lt_app *a;

	mutex_lock(&lt_app_lock);
	list_for_each_entry(a, &lt_app_list, list) {
		struct lt_custom_def def = {
			.app = true,
			.threshold_ns = latency_tracker_threshold(a->probe.t),
			.timeout_ns = latency_tracker_timeout(a->probe.t),
			.max_events = a->max_events,
		};
		/* A name of 32, 20 + 20 + 10 digits: 119 bytes and a NUL. */
		char line[128];

		strscpy(def.name, a->name, sizeof(def.name));
		if (!WARN_ON_ONCE(lt_custom_format(&def, line, sizeof(line)) >=
				  sizeof(line)))
			seq_puts(m, line);
	}
	mutex_unlock(&lt_app_lock);
	return 0;
}

static int lt_app_open(struct inode *inode, struct file *file)
{
	/* m->private: the tracker the file is bound to, none yet. */
	return single_open(file, lt_app_show, NULL);
}

static int lt_app_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct lt_app_file *f = m->private;

	/* A file that never gave a block: nothing of it is shared. */
	if (f && f->listed) {
		mutex_lock(&lt_app_lock);
		list_del_rcu(&f->node);
		mutex_unlock(&lt_app_lock);
		lt_bd_ext_drop(f->blk, f->blk + LT_APP_BLOCKS);
		/*
		 * No hook, and no END of another file, still on a block (the
		 * file's own ioctls: procfs waits for them).
		 */
		synchronize_rcu();
		lt_app_keep_open(f);
	}
	if (f) {
		kref_put(&f->app->ref, lt_app_release_ref);
		/* Pages still mapped stay with the mapping (their references). */
		lt_app_file_free(f);
	}
	return single_release(inode, file);
}

#ifdef CONFIG_COMPAT
/*
 * A 32-bit process: the cookie as it came (32 bits, zero-extended; not
 * compat_ptr_ioctl(), which would clear bit 31 on s390), ATTACH's
 * argument a user pointer (same layout).
 */
static long lt_app_compat_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	if (cmd == LT_APP_IOC_ATTACH)
		arg = (unsigned long)compat_ptr(arg);
	return lt_app_ioctl(file, cmd, arg);
}
#endif

static const struct proc_ops lt_app_proc_ops = {
	.proc_open = lt_app_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = lt_app_release,
	.proc_write = lt_app_write,
	.proc_ioctl = lt_app_ioctl,
	.proc_mmap = lt_app_mmap,
#ifdef CONFIG_COMPAT
	.proc_compat_ioctl = lt_app_compat_ioctl,
#endif
};

static int __init lt_app_init(void)
{
	kgid_t gid = make_kgid(&init_user_ns, lt_app_group);
	int ret;

	if (!gid_valid(gid)) {
		pr_err("invalid group=%u\n", lt_app_group);
		return -EINVAL;
	}
	ret = lt_bd_reasons_init(lt_app_leave);
	if (ret)
		return ret;
	lt_app_pde = proc_create("latency_tracker/app", 0660, NULL,
				 &lt_app_proc_ops);
	if (!lt_app_pde) {
		pr_err("cannot create /proc/latency_tracker/app\n");
		lt_bd_reasons_exit();
		return -ENOMEM;
	}
	proc_set_user(lt_app_pde, GLOBAL_ROOT_UID, gid);
	return 0;
}

/* The file first: no ioctl runs after it (see the top of this file). */
static void __exit lt_app_exit(void)
{
	struct lt_app *a, *next;

	proc_remove(lt_app_pde);
	mutex_lock(&lt_app_lock);
	list_for_each_entry_safe(a, next, &lt_app_list, list)
		lt_app_kill(a);
	mutex_unlock(&lt_app_lock);
	lt_bd_reasons_exit();
}

module_init(lt_app_init);
module_exit(lt_app_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Application requests, with the kernel's breakdown of each");
