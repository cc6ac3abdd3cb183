/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_tracker_compat.h - the one place where kernel versions (and
 * architectures) differ.
 *
 * Every other file of the project is written against the helpers below and
 * contains no LINUX_VERSION_CODE test.  Each branch names the upstream
 * change it follows, so that a branch can be dropped once the oldest
 * supported kernel (today 6.1.158, see below) contains that change.
 */
#ifndef _LATENCY_TRACKER_COMPAT_H
#define _LATENCY_TRACKER_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rtmutex.h>
#include <linux/rwsem.h>
#ifdef CONFIG_PREEMPT_RT
#include <linux/rwbase_rt.h>
#endif
#include <linux/timer.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <asm/unistd.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0) && defined(CONFIG_X86)
#include <asm/unwind.h>
#endif

/*
 * v6.2, "timers: Provide timer_shutdown[_sync]()": a timer stopped for
 * good, arming it afterwards is ignored (the timeout timer at destroy,
 * later kicks ignored: tracker/timeout.c).  The 6.1 stable series has it
 * since 6.1.158 (the backport of that series of timer changes); 6.1.0 to
 * 6.1.157 do not, so 6.1.158 is the oldest 6.1 release supported.  The
 * check reads the headers' version, sublevel included: a Debian release
 * name (6.1.0-NN-amd64) does not tell it.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 158)
#error "latency-tracker needs Linux 6.1.158 or newer (timer_shutdown_sync())"
#endif

/*
 * v6.13, "hrtimers: Introduce hrtimer_setup() to replace hrtimer_init()":
 * the callback is given at set-up time, and hrtimer_init() was removed in
 * v6.15.
 */
static inline void lt_hrtimer_setup(struct hrtimer *timer,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * v6.16, "treewide, timers: Rename from_timer() to timer_container_of()":
 * from_timer() is gone afterwards.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define lt_timer_container_of(var, t, field) timer_container_of(var, t, field)
#else
#define lt_timer_container_of(var, t, field) from_timer(var, t, field)
#endif

/*
 * v6.16, "sched/tracing: Add group_dead to the sched_process_exit
 * tracepoint": the probe of sched_process_exit takes the flag after the
 * task.  Use as the parameters after `void *data` of such a probe.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define LT_PROCESS_EXIT_PARAMS struct task_struct *p, bool group_dead
#else
#define LT_PROCESS_EXIT_PARAMS struct task_struct *p
#endif

/*
 * The skb tracepoints where the netrx tracker ends a packet's event
 * (probes/net.c): use as the parameters after `void *data` of their probes.
 * v6.3, "net: add location to trace_consume_skb()": consume_skb gives its
 * caller too.  v6.11, "net: add rx_sk to trace_kfree_skb": kfree_skb gives
 * the receiving socket after the drop reason; v7.2 made that socket a
 * const struct sock *.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define LT_CONSUME_SKB_PARAMS struct sk_buff *skb, void *location
#else
#define LT_CONSUME_SKB_PARAMS struct sk_buff *skb
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
#define LT_KFREE_SKB_PARAMS struct sk_buff *skb, void *location,	\
	enum skb_drop_reason reason, const struct sock *rx_sk
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define LT_KFREE_SKB_PARAMS struct sk_buff *skb, void *location,	\
	enum skb_drop_reason reason, struct sock *rx_sk
#else
#define LT_KFREE_SKB_PARAMS struct sk_buff *skb, void *location,	\
	enum skb_drop_reason reason
#endif

/*
 * v6.5, the end of ->sendpage() ("splice, net: Use sendmsg(MSG_SPLICE_PAGES)
 * rather than ->sendpage()" and the removal of tcp_sendpage()): before it,
 * sendfile() and splice() to a TCP socket send through tcp_sendpage(),
 * since through tcp_sendmsg() like every other send.  The ttfb tracker
 * (probes/net.c) probes tcp_sendpage() too where it exists.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#define LT_HAVE_TCP_SENDPAGE 1
#else
#define LT_HAVE_TCP_SENDPAGE 0
#endif

/*
 * v6.10, "tracing: Remove second parameter of __assign_str()": the source
 * is taken from the __string() declaration.  Used inside TP_fast_assign()
 * only, where __assign_str is defined by the trace event stages.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define lt_assign_str(dst, src) __assign_str(dst)
#else
#define lt_assign_str(dst, src) __assign_str(dst, src)
#endif

/*
 * v6.7, "stacktrace: Export stack_trace_save_tsk": before it, a module
 * cannot save the stack of another task with the generic helper, but the
 * x86 unwinder's entry points (__unwind_start, unwind_next_frame,
 * unwind_get_return_address) are exported and do the same walk.  The
 * caller keeps @task from running (and its stack alive) meanwhile: the
 * runqueue lock held by the scheduler, or @task's pi_lock held while it
 * is blocked.  Used by the probe modules (latency_tracker_offcpu).
 */
static inline unsigned int lt_stack_save_tsk(struct task_struct *task,
					     unsigned long *store,
					     unsigned int size)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	return stack_trace_save_tsk(task, store, size, 0);
#elif defined(CONFIG_X86)
	struct unwind_state state;
	unsigned long addr;
	unsigned int n = 0;

	for (unwind_start(&state, task, NULL, NULL);
	     n < size && !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		store[n++] = addr;
	}
	return n;
#else
	return 0;
#endif
}

/*
 * v6.12, "sched/fair: Implement delayed dequeue" (EEVDF): a fair task that
 * blocks with negative lag stays on its runqueue (p->on_rq set,
 * p->se.sched_delayed) until it is picked or woken; it is not runnable.
 * Its wakeup goes through ttwu_runnable(), and it then waits for a CPU
 * like any woken task.  True when @p is queued and runnable: a wakeup
 * changes nothing for it.
 */
static inline bool lt_task_queued_runnable(struct task_struct *p)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return READ_ONCE(p->on_rq) && !READ_ONCE(p->se.sched_delayed);
#else
	return READ_ONCE(p->on_rq);
#endif
}

/*
 * Not a kernel version but a configuration: the time @p waited on
 * runqueues, ns, which the scheduler keeps with CONFIG_SCHED_INFO (added
 * at each arrival on a CPU, and at the dequeue of a queued task); 0
 * without it (Debian's kernels have it).
 */
static inline u64 lt_task_run_delay(const struct task_struct *p)
{
#ifdef CONFIG_SCHED_INFO
	return READ_ONCE(p->sched_info.run_delay);
#else
	return 0;
#endif
}

/*
 * v6.2, "rcu: Make call_rcu() lazy to save power" (CONFIG_RCU_LAZY): a
 * lazy callback may wait ~10 s for its grace period when callbacks are
 * offloaded (rcu_nocbs=); call_rcu_hurry() asks for the usual speed.
 * Before v6.2 call_rcu() is never lazy.
 */
static inline void lt_call_rcu_hurry(struct rcu_head *head, rcu_callback_t fn)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	call_rcu_hurry(head, fn);
#else
	call_rcu(head, fn);
#endif
}

/*
 * Not a kernel version but an ABI difference, kept here with the others:
 * on x86-64 with IA32 emulation a 32-bit task's system call numbers are
 * the ia32 ones (exit 1, exit_group 252; the native ones are 60 and 231),
 * and an x32 task's carry __X32_SYSCALL_BIT.  True for the calls that
 * never return (no sys_exit).
 */
static inline bool lt_syscall_never_returns(long id)
{
#if defined(CONFIG_X86_64) && defined(CONFIG_IA32_EMULATION)
	if (in_ia32_syscall())
		return id == __NR_ia32_exit || id == __NR_ia32_exit_group;
#endif
#ifdef __X32_SYSCALL_BIT
	id &= ~(long)__X32_SYSCALL_BIT;
#endif
	return id == __NR_exit || id == __NR_exit_group;
}

/*
 * Not a kernel version but an architecture's: the frame pointer among a
 * task's saved user registers, where a user stack walk starts
 * (lt_ustack_save_current()).  x86-64's rbp, for a 64-bit task; 0 (no
 * walk) for a 32-bit one and elsewhere.
 */
static inline unsigned long lt_user_frame_pointer(struct pt_regs *regs)
{
#ifdef CONFIG_X86_64
	return user_64bit_mode(regs) ? regs->bp : 0;
#else
	return 0;
#endif
}

/*
 * Not a kernel version but an ABI assumption, kept here with the others:
 * a custom tracker attaches one probe, void (*)(void *data), to
 * tracepoints of any prototype (it reads only current, never the
 * tracepoint's arguments).  A tracepoint calls each probe through a
 * pointer of its own prototype, (void *data, args...): calling a function
 * that takes fewer arguments is harmless where arguments are passed in
 * registers and then on a stack that the caller pops (x86-64's System V
 * ABI), unless the kernel checks the prototype of each indirect call:
 * kCFI (CONFIG_CFI_CLANG; CONFIG_CFI since v6.18, "kcfi: Rename
 * CONFIG_CFI_CLANG to CONFIG_CFI") traps on such a call.  Where this does
 * not hold, latency_tracker_custom refuses tracepoint ends (-EINVAL).
 */
#if defined(CONFIG_X86_64) && !defined(CONFIG_CFI_CLANG) && !defined(CONFIG_CFI)
#define LT_TP_ANY_PROTO		1
#else
#define LT_TP_ANY_PROTO		0
#endif

/*
 * v7.3, "timekeeping: Provide ktime_get_snapshot_id()" and the removal of
 * ktime_get_snapshot() once its users were converted: a snapshot names
 * the clock it is taken of.  Only the clocksource's reading (->cycles)
 * is used here.
 */
static inline u64 lt_clocksource_reading(void)
{
	struct system_time_snapshot snap = { };

#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 3, 0)
	ktime_get_snapshot_id(CLOCK_MONOTONIC, &snap);
#else
	ktime_get_snapshot(&snap);
#endif
	return snap.cycles;
}

/*
 * The cycle counter of latency_tracker_cycles_usable() (latency_tracker.h):
 * x86's TSC (rdtsc_ordered(): not executed before the loads ahead of it,
 * as the TSC clocksource reads it), its frequency tsc_khz (refined once
 * after boot; changed by cpufreq only on CPUs without a constant TSC,
 * which the kernel then marks unstable) and check_tsc_unstable().  Other
 * architectures have none here: lt_cycles_stable() is false and the
 * probes read the tracker's clock.
 */
#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
static __always_inline u64 lt_cycles(void)
{
	return rdtsc_ordered();
}

static __always_inline bool lt_cycles_stable(void)
{
	return !check_tsc_unstable();
}

static __always_inline u32 lt_cycles_khz(void)
{
	return READ_ONCE(tsc_khz);
}
#else
static __always_inline u64 lt_cycles(void)
{
	return 0;
}

static __always_inline bool lt_cycles_stable(void)
{
	return false;
}

static __always_inline u32 lt_cycles_khz(void)
{
	return 0;
}
#endif

/*
 * Hard interrupts without a handler of their own (no irq_handler_entry):
 * on x86 the local APIC timer, the scheduler's and function-call IPIs and
 * irq_work come through their vectors' tracepoints, irq_vectors:<v>_entry
 * and _exit (arch/x86/include/asm/trace/irq_vectors.h, the same five on
 * every supported kernel).  LT_IRQ_VECTORS(M, X) expands M(X, <v>) per
 * vector; lt_irq_vector_name() names a vector number as its tracepoint
 * does.  Other architectures: none here, their timer interrupt has a
 * handler.  LT_HAVE_IRQ_VECTORS: their tracepoints' header exists, for the
 * probes' type checks; included by probes/common/irq_events.h, never here
 * (a file that creates our own tracepoints includes this one).
 */
#ifdef CONFIG_X86
#include <asm/irq_vectors.h>
#define LT_HAVE_IRQ_VECTORS	1
#define LT_IRQ_VECTORS(M, X)						\
	M(X, local_timer)						\
	M(X, reschedule)						\
	M(X, call_function)						\
	M(X, call_function_single)					\
	M(X, irq_work)

static inline const char *lt_irq_vector_name(int vector)
{
	switch (vector) {
	case LOCAL_TIMER_VECTOR:
		return "local_timer";
	case RESCHEDULE_VECTOR:
		return "reschedule";
	case CALL_FUNCTION_VECTOR:
		return "call_function";
	case CALL_FUNCTION_SINGLE_VECTOR:
		return "call_function_single";
	case IRQ_WORK_VECTOR:
		return "irq_work";
	default:
		return "vector";
	}
}
#else
#define LT_IRQ_VECTORS(M, X)

static inline const char *lt_irq_vector_name(int vector)
{
	return "vector";
}
#endif

/*
 * Not a kernel version but a configuration, and private layouts: the task
 * recorded as the owner of a contended lock, or NULL.  Only the lock's
 * owner word is read, and the flag bits the kernel keeps in its low bits
 * are private to kernel/locking/ (MUTEX_FLAGS in mutex.c,
 * RWSEM_OWNER_FLAGS_MASK and RWSEM_READER_OWNED in rwsem.c,
 * RT_MUTEX_HAS_WAITERS in rtmutex_common.h), the same on every supported
 * kernel.  With PREEMPT_RT, mutexes, rwsems and rwlocks are built on
 * rt_mutexes (an rwsem's and an rwlock's in an rwbase_rt, which exists
 * only there): their own owner words do not exist.  The caller waits in the lock's
 * slow path, which keeps the lock alive; the owner is read without the
 * lock's wait_lock, a hint: read the task with get_kernel_nofault().
 */
#define LT_MUTEX_OWNER_FLAGS		0x07UL
#define LT_RWSEM_OWNER_FLAGS		0x03UL
#define LT_RWSEM_READER_OWNED		0x01UL
#define LT_RT_MUTEX_HAS_WAITERS		0x01UL

static inline struct task_struct *lt_rt_mutex_owner(void *lock)
{
	unsigned long o =
		(unsigned long)READ_ONCE(((struct rt_mutex_base *)lock)->owner);

	return (struct task_struct *)(o & ~LT_RT_MUTEX_HAS_WAITERS);
}

#ifdef CONFIG_PREEMPT_RT
/* An rwsem's or rwlock's rwbase_rt: the writer holds its rt_mutex. */
static inline struct task_struct *lt_rwbase_owner(void *lock)
{
	return lt_rt_mutex_owner(&((struct rwbase_rt *)lock)->rtmutex);
}

static inline struct task_struct *lt_mutex_owner(void *lock)
{
	return NULL;
}

static inline struct task_struct *lt_rwsem_owner(void *lock)
{
	return NULL;
}
#else
static inline struct task_struct *lt_rwbase_owner(void *lock)
{
	return NULL;
}

static inline struct task_struct *lt_mutex_owner(void *lock)
{
	unsigned long o = atomic_long_read(&((struct mutex *)lock)->owner);

	return (struct task_struct *)(o & ~LT_MUTEX_OWNER_FLAGS);
}

/* NULL for a read-held rwsem: the word then names a reader, maybe gone. */
static inline struct task_struct *lt_rwsem_owner(void *lock)
{
	unsigned long o =
		atomic_long_read(&((struct rw_semaphore *)lock)->owner);

	if (o & LT_RWSEM_READER_OWNED)
		return NULL;
	return (struct task_struct *)(o & ~LT_RWSEM_OWNER_FLAGS);
}
#endif

/*
 * Not a kernel version but an architecture: whether @addr lies where
 * module text is allocated (x86-64: MODULES_VADDR up to MODULES_END,
 * which holds BPF programs and ftrace trampolines too), for the naming of
 * stack frames (tracker/stack.c).  Where the range is not known, every
 * address counts as in it: a frame may be "?" more often, never misnamed.
 */
#include <linux/pgtable.h>
#if defined(MODULES_VADDR) && defined(MODULES_END)
static inline bool lt_in_module_area(unsigned long addr)
{
	return addr >= MODULES_VADDR && addr < MODULES_END;
}
#else
static inline bool lt_in_module_area(unsigned long addr)
{
	return true;
}
#endif

/*
 * v6.3, "mm: introduce vma->vm_flags wrapper functions": a vma's flags
 * are changed through vm_flags_mod() afterwards (in an mmap handler, the
 * mmap lock held for writing).
 */
#include <linux/mm.h>
static inline void lt_vm_flags_mod(struct vm_area_struct *vma,
				   vm_flags_t set, vm_flags_t clear)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * Not a kernel version but a configuration: the offset of current's time
 * namespace on CLOCK_MONOTONIC (what its vDSO and clock_gettime() add to
 * the clock the kernel reads), ns; 0 without CONFIG_TIME_NS.  Current's
 * own namespace: in process context, its nsproxy is stable.
 */
#include <linux/nsproxy.h>
#include <linux/time_namespace.h>
static inline s64 lt_timens_mono_offset(void)
{
#ifdef CONFIG_TIME_NS
	return timespec64_to_ns(&current->nsproxy->time_ns->offsets.monotonic);
#else
	return 0;
#endif
}

#endif /* _LATENCY_TRACKER_COMPAT_H */
