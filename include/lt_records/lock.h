/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/lock.h - the lock tracker's alert record (see record.h): a
 * task's wait for a contended kernel lock, from its first
 * lock:contention_begin to its contention_end.
 *
 * The waiter (for a timeout, which has no end: cpu -1), its cgroup v2 id,
 * the lock (its symbol and offset when it is a static lock, else a keyed
 * hash of its address, id:<16 hex digits>, stable while the module is
 * loaded: never the address), its kind as the tracepoint's flags tell it
 * (lt_lock_kind_name(); "rt" for every lock built on an rt_mutex, which on
 * PREEMPT_RT is every spinlock, mutex, rwsem and rwlock), the owner when
 * the lock records one (a mutex, a write-held rwsem, an rt_mutex, and on
 * PREEMPT_RT a write-held rwsem or rwlock: no owner_* fields otherwise),
 * and the waiter's kernel stack at the end of
 * the wait (for a timeout: where it waits then, if it still does).  The
 * tracepoint carries the stack as text.
 */
#ifndef _LT_RECORDS_LOCK_H
#define _LT_RECORDS_LOCK_H

#include "record.h"

#define LT_LOCK_KIND_SPINLOCK		0
#define LT_LOCK_KIND_RWLOCK_READ	1
#define LT_LOCK_KIND_RWLOCK_WRITE	2
#define LT_LOCK_KIND_MUTEX		3
#define LT_LOCK_KIND_RWSEM_READ		4
#define LT_LOCK_KIND_RWSEM_WRITE	5
#define LT_LOCK_KIND_PERCPU_RWSEM_READ	6
#define LT_LOCK_KIND_PERCPU_RWSEM_WRITE	7
#define LT_LOCK_KIND_SEMAPHORE		8
#define LT_LOCK_KIND_RT			9

#define LT_LOCK_KINDS(X)						\
	X(LT_LOCK_KIND_SPINLOCK, "spinlock")				\
	X(LT_LOCK_KIND_RWLOCK_READ, "rwlock_read")			\
	X(LT_LOCK_KIND_RWLOCK_WRITE, "rwlock_write")			\
	X(LT_LOCK_KIND_MUTEX, "mutex")					\
	X(LT_LOCK_KIND_RWSEM_READ, "rwsem_read")			\
	X(LT_LOCK_KIND_RWSEM_WRITE, "rwsem_write")			\
	X(LT_LOCK_KIND_PERCPU_RWSEM_READ, "percpu_rwsem_read")		\
	X(LT_LOCK_KIND_PERCPU_RWSEM_WRITE, "percpu_rwsem_write")	\
	X(LT_LOCK_KIND_SEMAPHORE, "semaphore")				\
	X(LT_LOCK_KIND_RT, "rt")					\
	X(10, "?")

LT_REC_ENUM_NAME_FN(lt_lock_kind_name, LT_LOCK_KINDS)

#define LT_LOCK_RECORD(X)						\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(INT, cpu)							\
	X(U64, cgroup)							\
	X(NAME, lock)							\
	X(ENUM, kind, lt_lock_kind_name)				\
	X(OINT, owner_pid)						\
	X(ONAME, owner_comm)						\
	X(STACK, stack)

#define LT_LOCK_TRACE_ONLY(X)						\
	X(STR, stack)

struct lt_lock_record {
	LT_LOCK_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_LOCK_H */
