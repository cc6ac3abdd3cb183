// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_lock_load.c - contended kernel locks on demand, for the lock
 * tracker's test (lock.sh).
 *
 * A write to /proc/lt_lock_load (0600) of one command, run in the
 * writer's context:
 *
 *	hold LOCK MS [N]
 *			take LOCK (for writing), wait (up to 10 s) until N
 *			more tasks (0 by default) began to take a lock,
 *			hold it MS ms more (0..10000, sleeping), release it
 *	take LOCK	take LOCK (for reading, an rwsem), release it
 *	sem N		N times (1..10^7): down_timeout() on a semaphore
 *			that is never up, with no time to wait: one
 *			contention_begin and its end each, on this CPU
 *			alone, no sleep (the bench's contended waits)
 *
 * LOCK is `static` (a mutex defined in this module: a symbol), `dyn` (a
 * mutex allocated at load: no symbol) or `rwsem` (a static rwsem).  The
 * waits happen in lt_lock_load_take(), a function of its own in the
 * waiters' stacks.  A read gives the number of holds that have taken
 * their lock so far (a test starts its waiters once it went up, and the
 * holder holds on until they wait, however slow the kernel), then the
 * nanoseconds the sem commands have taken so far.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define LTL_MS_MAX	10000
#define LTL_SEM_MAX	10000000
#define LTL_TAKERS_MAX	16

static DEFINE_MUTEX(lt_lock_static);
static DECLARE_RWSEM(lt_lock_rwsem);
static struct mutex *lt_lock_dyn;
static struct semaphore ltl_sem_empty;
static atomic_t ltl_held = ATOMIC_INIT(0);
static atomic_t ltl_takers = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(ltl_takers_wq);
static atomic64_t ltl_sem_ns = ATOMIC64_INIT(0);

static void ltl_lock(const char *which, bool write)
{
	if (!strcmp(which, "rwsem")) {
		if (write)
			down_write(&lt_lock_rwsem);
		else
			down_read(&lt_lock_rwsem);
	} else {
		mutex_lock(strcmp(which, "dyn") ? &lt_lock_static : lt_lock_dyn);
	}
}

static void ltl_unlock(const char *which, bool write)
{
	if (!strcmp(which, "rwsem")) {
		if (write)
			up_write(&lt_lock_rwsem);
		else
			up_read(&lt_lock_rwsem);
	} else {
		mutex_unlock(strcmp(which, "dyn") ? &lt_lock_static : lt_lock_dyn);
	}
}

/* Not inlined: a frame of its own in the waiters' stacks. */
static noinline void lt_lock_load_take(const char *which)
{
	atomic_inc(&ltl_takers);
	wake_up(&ltl_takers_wq);
	ltl_lock(which, false);
	ltl_unlock(which, false);
}

static void ltl_sem(unsigned int n)
{
	u64 t0 = ktime_get_ns();

	while (n--) {
		if (!down_timeout(&ltl_sem_empty, 0))
			up(&ltl_sem_empty);	/* never: it is never up */
		cond_resched();
	}
	atomic64_add(ktime_get_ns() - t0, &ltl_sem_ns);
}

static ssize_t ltl_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char buf[48], cmd[8], which[8];
	unsigned int ms = 0, takers = 0;
	int n, t0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "sem %u", &ms) == 1) {
		if (!ms || ms > LTL_SEM_MAX)
			return -EINVAL;
		ltl_sem(ms);
		return count;
	}
	n = sscanf(buf, "%7s %7s %u %u", cmd, which, &ms, &takers);
	if (n < 2 || (strcmp(which, "static") && strcmp(which, "dyn") &&
		      strcmp(which, "rwsem")) || ms > LTL_MS_MAX ||
	    takers > LTL_TAKERS_MAX)
		return -EINVAL;
	if (!strcmp(cmd, "hold") && n >= 3) {
		t0 = atomic_read(&ltl_takers);
		ltl_lock(which, true);
		atomic_inc(&ltl_held);
		wait_event_timeout(ltl_takers_wq,
				   atomic_read(&ltl_takers) - t0 >= (int)takers,
				   10 * HZ);
		msleep(ms);
		ltl_unlock(which, true);
	} else if (!strcmp(cmd, "take") && n == 2) {
		lt_lock_load_take(which);
	} else {
		return -EINVAL;
	}
	return count;
}

static ssize_t ltl_read(struct file *file, char __user *ubuf,
			size_t count, loff_t *ppos)
{
	char buf[48];
	int n = scnprintf(buf, sizeof(buf), "%d %lld\n", atomic_read(&ltl_held),
			  atomic64_read(&ltl_sem_ns));

	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static const struct proc_ops ltl_ops = {
	.proc_read = ltl_read,
	.proc_write = ltl_write,
};

static int __init ltl_init(void)
{
	lt_lock_dyn = kmalloc(sizeof(*lt_lock_dyn), GFP_KERNEL);
	if (!lt_lock_dyn)
		return -ENOMEM;
	mutex_init(lt_lock_dyn);
	sema_init(&ltl_sem_empty, 0);
	if (!proc_create("lt_lock_load", 0600, NULL, &ltl_ops)) {
		kfree(lt_lock_dyn);
		return -ENOMEM;
	}
	return 0;
}

static void __exit ltl_exit(void)
{
	remove_proc_entry("lt_lock_load", NULL);
	mutex_destroy(lt_lock_dyn);
	kfree(lt_lock_dyn);
}

module_init(ltl_init);
module_exit(ltl_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test load of latency_tracker_lock: contended locks on demand");
