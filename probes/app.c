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
 *	LT_APP_IOC_BEGIN	bound file	a request begins: arg = its cookie
 *	LT_APP_IOC_END		bound file	the request ends
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
 * -ENOSPC (LT_APP_MAX trackers); BEGIN and END: -ENOTCONN (not bound),
 * -ENOENT (the tracker was deleted; END: no request of this cookie is
 * open, counted as `unmatched`), -ENOSPC (BEGIN: no free event slot,
 * counted as `dropped`).  Neither ever sleeps nor allocates: each is one
 * lookup in the tracker (two for an END) and the breakdown's bookkeeping
 * (common/thread_time.c).
 *
 * An application tracker is a standard tracker (the probe layer:
 * /proc/latency_tracker/NAME/ with every file and filter, kthreads 1) with
 * `unmatched` and `breakdown_full` (module-wide) in its stats.  An event
 * is keyed by (process, cookie), the process being its tgid and its start
 * time: processes sharing a tracker never collide, and a later process
 * given the same tgid never ends an earlier one's request; a BEGIN on a
 * live key replaces its event (unique mode).  The filters apply at BEGIN,
 * to the calling thread; a BEGIN not tracked (filtered, or tracking off)
 * returns 0, and its END counts as `unmatched`.  A request never ended
 * (its process died) stays pending until the tracker's timeout: give
 * trackers that serve crash-prone processes a timeout.  Records: the thread that ended the
 * request (for a timeout, the one that began it), its process, the
 * cookie, its cgroup; and the breakdown when the request began and ended
 * on the same thread (lt_records/app.h).  Tracepoint latency_tracker:app.
 *
 * Lifetime.  A tracker lives on lt_app_list until it is deleted or the
 * module unloads, and its memory until the last open file bound to it is
 * closed (kref).  Deletion marks it dead under lt_app_lock, then waits an
 * RCU grace period: a BEGIN or END runs with preemption disabled and
 * checks `dead` first, so none touches the core tracker once
 * lt_probe_stop() destroys it.  Unloading removes the file first: procfs
 * waits for the ioctls in progress and releases every open file, so an
 * application that still holds one gets -EIO afterwards.
 *
 * Synchronisation:
 *
 *	what			who				sync
 *	lt_app_list, lt_app_nr	ATTACH, writes, reads, unload	lt_app_lock (mutex)
 *	a file's binding	ATTACH (set once), release	cmpxchg; the file's
 *				BEGIN, END (read)		life
 *	app->dead		deletion (set), BEGIN, END	lt_app_lock; RCU
 *	app memory		kref: the list, bound files	kref
 *	unmatched		END, any CPU			atomic
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
 * @name: the tracker's name.
 */
struct lt_app {
	struct list_head list;
	struct kref ref;
	struct lt_probe probe;
	bool dead;
	u32 max_events;
	atomic_long_t unmatched;
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

static long lt_app_attach(struct file *file, void __user *uarg)
{
	struct seq_file *m = file->private_data;
	struct lt_app_attach arg;
	struct lt_app *a;
	int ret = 0;

	BUILD_BUG_ON(sizeof(arg) != 64);
	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (!memchr(arg.name, '\0', sizeof(arg.name)) || arg.flags ||
	    arg.reserved)
		return -EINVAL;
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
	/* Read locklessly by BEGIN and END. */
	WRITE_ONCE(m->private, a);
out:
	mutex_unlock(&lt_app_lock);
	return ret;
}

static long lt_app_begin(struct lt_app *a, u64 cookie)
{
	struct lt_app_key key;
	struct lt_app_priv priv;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = sizeof(priv),
	};
	enum latency_tracker_status st;
	long ret = 0;

	lt_app_key_init(&key, cookie);
	preempt_disable();
	if (READ_ONCE(a->dead)) {
		ret = -ENOENT;
		goto out;
	}
	if (!lt_probe_track_task(&a->probe, current, &priv.cgroup))
		goto out;
	priv.pid = current->pid;
	priv.tgid = current->tgid;
	lt_comm_get(priv.comm, current);
	opts.ts_ns = ktime_get_mono_fast_ns();
	lt_bd_begin(opts.ts_ns, &priv.snap);
	lt_bd_reasons_begin(opts.ts_ns, &priv.rsnap);
	st = latency_tracker_event_in(a->probe.t, &key, sizeof(key), &opts);
	if (st != LATENCY_TRACKER_OK) {
		lt_bd_reasons_forget(&priv.rsnap);
		/* Tracking off (enable 0): not tracked, as when filtered. */
		ret = st == LATENCY_TRACKER_DISABLED ? 0 : -ENOSPC;
	}
out:
	preempt_enable();
	return ret;
}

static long lt_app_end(struct lt_app *a, u64 cookie)
{
	struct lt_app_key key;
	struct latency_tracker_event *ev;
	struct lt_app_priv *priv;
	struct lt_app_end end;
	long ret = 0;

	lt_app_key_init(&key, cookie);
	preempt_disable();
	if (READ_ONCE(a->dead)) {
		ret = -ENOENT;
		goto out;
	}
	/* Preemption is off: an RCU reader, in which ev stays valid. */
	ev = latency_tracker_find_event(a->probe.t, &key, sizeof(key));
	if (!ev) {
		atomic_long_inc(&a->unmatched);
		ret = -ENOENT;
		goto out;
	}
	priv = latency_tracker_event_priv(ev);
	end.top = lt_bd_reasons_end(ktime_get_mono_fast_ns(), &priv->rsnap);
	if (latency_tracker_event_out(a->probe.t, &key, sizeof(key), 0,
				      &end) <= 0) {
		/* Ended meanwhile by another END of the same cookie. */
		atomic_long_inc(&a->unmatched);
		ret = -ENOENT;
	}
out:
	preempt_enable();
	return ret;
}

static long lt_app_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct seq_file *m = file->private_data;
	struct lt_app *a;

	if (cmd == LT_APP_IOC_ATTACH)
		return lt_app_attach(file, (void __user *)arg);
	if (cmd != LT_APP_IOC_BEGIN && cmd != LT_APP_IOC_END)
		return -ENOTTY;
	a = READ_ONCE(m->private);
	if (!a)
		return -ENOTCONN;
	return cmd == LT_APP_IOC_BEGIN ? lt_app_begin(a, arg) :
					 lt_app_end(a, arg);
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
	struct lt_app *a = m->private;

	if (a)
		kref_put(&a->ref, lt_app_release_ref);
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
	ret = lt_bd_reasons_init();
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
