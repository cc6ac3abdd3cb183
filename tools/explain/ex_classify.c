// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_classify.c - GAPP-style classification of the slow thread's waiting
 * time, one state interval at a time:
 *
 *   runnable                              -> CPU contention (the CPU)
 *   blocked in a synchronisation          -> synchronisation (ex_sync.h:
 *     (futex, file lock, semaphore, a       the object, the waker, the
 *     child, a pipe's writer, ...)          evidence; locks: the lock view)
 *   blocked while an own block request    -> I/O block (disk, file name)
 *     completed
 *   woken by a timer expiry (any call),   -> timers / sleeps
 *     or blocked in a sleep syscall
 *   blocked in a syscall on an fd         -> I/O file / pipe / network (name
 *                                            from the fd table at that time,
 *                                            ex_fdtab.h)
 *   anything else                         -> unknown (with what woke it)
 *   before the thread's first event       -> unknown: not in the trace (a
 *                                            ring overwritten before the
 *                                            snapshot)
 *
 * What woke a blocked interval is read through ex_blocked_wake(), which
 * the dependency graph uses too, so both say the same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_classify.h"
#include "ex_depgraph.h"
#include "ex_sync.h"
#include "ex_util.h"

static const char *const class_names[] = {
	[C_RUNNING] = "running", [C_SYNC] = "synchronisation", [C_IO] = "io",
	[C_CPU] = "cpu", [C_TIMER] = "timer", [C_UNKNOWN] = "unknown",
};

const char *ex_class_name(enum ex_class c)
{
	return class_names[c];
}

const char *ex_state_name(enum ex_state s)
{
	static const char *const names[] = { "running", "runnable", "blocked" };

	return names[s];
}

static bool in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

static const char *const sleep_calls[] = {
	"nanosleep", "clock_nanosleep", "pause", NULL,
};
static const char *const net_calls[] = {
	"recvfrom", "recvmsg", "recvmmsg", "sendto", "sendmsg", "sendmmsg",
	"accept", "accept4", "connect", NULL,
};
static const char *const read_calls[] = {
	"read", "pread64", "readv", "preadv", "preadv2", "recvfrom", "recvmsg", NULL,
};
static const char *const write_calls[] = {
	"write", "pwrite64", "writev", "pwritev", "pwritev2", "sendto", "sendmsg", NULL,
};

static struct ex_cause *add_cause(struct ex_class_report *r, enum ex_class cls,
				   const char *what, uint64_t ns)
{
	struct ex_cause *c;

	r->class_ns[cls] += ns;
	r->class_count[cls]++;
	for (size_t i = 0; i < r->ncauses; i++)
		if (r->causes[i].cls == cls && !strcmp(r->causes[i].what, what)) {
			r->causes[i].ns += ns;
			r->causes[i].count++;
			return &r->causes[i];
		}
	c = EX_PUSH(r->causes, r->ncauses, r->cap_causes);
	c->cls = cls;
	ex_strlcpy(c->what, what, sizeof(c->what));
	c->ns = ns;
	c->count = 1;
	return c;
}

static struct ex_ctx_time *ctx_time(struct ex_class_report *r, const char *name)
{
	struct ex_ctx_time *c;

	for (size_t i = 0; i < r->nctx; i++)
		if (!strcmp(r->ctx[i].name, name))
			return &r->ctx[i];
	c = EX_PUSH(r->ctx, r->nctx, r->cap_ctx);
	ex_strlcpy(c->name, name, sizeof(c->name));
	return c;
}


/*
 * Runnable on a CPU: who held it meanwhile (the CPU's slices), each its own
 * cause: "waiting for CPU 1, held by lt_hog [311], RT priority 50" (the
 * priority where the trace shows an RT one, "deadline" for a deadline
 * task: LTTng records prio - 100, -1 - P for RT priority P, -101 for
 * SCHED_DEADLINE), the CPU idle (waking up), and
 * what no slice covers as "waiting for CPU 1".
 */
static void cpu_causes(const struct ex_model *m, int self,
		       const struct ex_interval *iv, uint64_t s, uint64_t e,
		       struct ex_class_report *r)
{
	uint64_t a = iv->start > s ? iv->start : s;
	uint64_t b = iv->end < e ? iv->end : e, held = 0;
	char what[EX_COMM_LEN + 96];

	if (iv->cpu >= 0 && iv->cpu < m->ncpu) {
		const struct ex_cpu *c = &m->cpu[iv->cpu];

		for (size_t i = ex_cpu_first_slice(c, a); i < c->nsl && c->sl[i].start < b; i++) {
			const struct ex_slice *sl = &c->sl[i];
			uint64_t w = ex_overlap(sl->start, sl->end, a, b);

			if (!w || sl->tid < 0 || sl->tid == self)
				continue;
			if (!sl->tid)
				snprintf(what, sizeof(what), "waiting for CPU %d, idle (waking up)",
					 iv->cpu);
			else if (sl->prio != EX_PRIO_NONE && sl->prio < -100)
				snprintf(what, sizeof(what), "waiting for CPU %d, held by %s [%d], deadline",
					 iv->cpu, ex_model_comm(m, sl->tid), sl->tid);
			else if (sl->prio != EX_PRIO_NONE && sl->prio < 0)
				snprintf(what, sizeof(what), "waiting for CPU %d, held by %s [%d], RT priority %d",
					 iv->cpu, ex_model_comm(m, sl->tid), sl->tid,
					 -1 - sl->prio);
			else
				snprintf(what, sizeof(what), "waiting for CPU %d, held by %s [%d]",
					 iv->cpu, ex_model_comm(m, sl->tid), sl->tid);
			add_cause(r, C_CPU, what, w);
			held += w;
		}
	}
	if (held < b - a) {
		snprintf(what, sizeof(what), "waiting for CPU %d", iv->cpu);
		add_cause(r, C_CPU, what, b - a - held);
	}
}
/*
 * A sleep system call ends by its timer unless a thread woke it (a
 * signal).  So a sleep not woken within the trace (still sleeping at its
 * end), or woken from an interrupt the trace does not show, waited for its
 * timer; and in a trace with no interrupt events at all, the "thread" a
 * waking names is only the one the timer interrupt hit.
 */
enum ex_wake ex_blocked_wake(const struct ex_model *m, const struct ex_thread *t,
			     const struct ex_interval *iv)
{
	const char *sys = iv->sys >= 0 ? t->sys[iv->sys].name : "";

	if (iv->wake == WK_TIMER || !in_list(sys, sleep_calls))
		return iv->wake;
	switch (iv->wake) {
	case WK_NONE:
		return WK_TIMER;
	case WK_IRQ:
		return strcmp(iv->wname, EX_WAKER_UNTRACED_IRQ) ? WK_IRQ : WK_TIMER;
	case WK_THREAD:
		return m->nirq ? WK_THREAD : WK_TIMER;
	default:
		return iv->wake;
	}
}

static void waker_text(const struct ex_model *m, const struct ex_interval *iv,
		       enum ex_wake wake, char *buf, size_t size)
{
	switch (wake) {
	case WK_THREAD:
		snprintf(buf, size, "%s [%d]", ex_model_comm(m, iv->waker_tid),
			 iv->waker_tid);
		break;
	case WK_TIMER:
		snprintf(buf, size, "timer");
		break;
	case WK_IRQ:
	case WK_SOFTIRQ:
		snprintf(buf, size, "%s", iv->wname);
		break;
	default:
		snprintf(buf, size, "nothing in the trace");
		break;
	}
}

static void classify_blocked(const struct ex_model *m, const struct ex_thread *t,
			     const struct ex_interval *iv, uint64_t ns,
			     struct ex_class_report *r)
{
	const struct ex_syscall *sc = iv->sys >= 0 ? &t->sys[iv->sys] : NULL;
	const char *sys = sc ? sc->name : "";
	int pid = t->pid > 0 ? t->pid : t->tid;
	const struct ex_request *own;
	char what[sizeof(((struct ex_cause *)0)->what)], waker[96];
	const char *fname;
	enum ex_wake wake = ex_blocked_wake(m, t, iv);
	struct ex_sync sy;

	waker_text(m, iv, wake, waker, sizeof(waker));
	if (ex_sync_of(m, t, iv, &sy)) {
		struct ex_cause *c;

		if (sy.lock)
			snprintf(what, sizeof(what), "%s released by %s", sy.label,
				 waker);
		else
			snprintf(what, sizeof(what), "%s", sy.label);
		c = add_cause(r, C_SYNC, what, ns);
		if (!c->evidence[0])
			ex_strlcpy(c->evidence, sy.evidence, sizeof(c->evidence));
		return;
	}
	own = ex_dg_own_request(m, t->tid, iv);
	fname = sc && sc->fd >= 0 ? ex_model_fdname(m, pid, sc->fd, iv->start) : "";
	if (own) {
		snprintf(what, sizeof(what), "block disk %u:%u in %s%s%s",
			 ex_dev_major(own->dev), ex_dev_minor(own->dev),
			 sys[0] ? sys : "kernel",
			 fname[0] ? " on " : "", fname);
		add_cause(r, C_IO, what, ns);
		return;
	}
	if (wake == WK_TIMER || in_list(sys, sleep_calls)) {
		snprintf(what, sizeof(what), "%s in %s", wake == WK_TIMER ?
			 "timer expiry" : "sleep", sys[0] ? sys : "kernel");
		add_cause(r, C_TIMER, what, ns);
		return;
	}
	if ((sc && sc->fd >= 0) || in_list(sys, net_calls)) {
		const char *kind = "file";

		if (!strncmp(fname, "socket", 6) || in_list(sys, net_calls))
			kind = "network";
		else if (!strncmp(fname, "pipe", 4))
			kind = "pipe";
		snprintf(what, sizeof(what), "%s %s fd %" PRId64 "%s%s, woken by %s",
			 kind, sys, sc ? sc->fd : -1, fname[0] ? " " : "", fname,
			 waker);
		add_cause(r, C_IO, what, ns);
		return;
	}
	snprintf(what, sizeof(what), "blocked in %s, woken by %s",
		 sys[0] ? sys : "kernel (no syscall)", waker);
	add_cause(r, C_UNKNOWN, what, ns);
}

static int by_cause(const void *a, const void *b)
{
	const struct ex_cause *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

void ex_classify(const struct ex_model *m, int tid, uint64_t s, uint64_t e,
		 struct ex_class_report *r)
{
	const struct ex_thread *t = ex_model_thread(m, tid);
	int last_sys = -1;

	memset(r, 0, sizeof(*r));
	r->tid = tid;
	r->start = s;
	r->end = e;
	if (!t)
		return;
	if (t->niv && t->iv[0].start > s) {
		/*
		 * The interval starts before anything the trace shows of the
		 * thread: a snapshot whose ring did not cover it (an alert's
		 * interval starts at the thread's own event).
		 */
		add_cause(r, C_UNKNOWN, "not in the trace: before the thread's first event (the ring of its CPU was overwritten before the snapshot, or the thread did not exist yet)",
			  (t->iv[0].start < e ? t->iv[0].start : e) - s);
	}
	for (size_t i = ex_thread_first_iv(t, s); i < t->niv && t->iv[i].start < e; i++) {
		const struct ex_interval *iv = &t->iv[i];
		uint64_t ns = ex_overlap(iv->start, iv->end, s, e);
		struct ex_ctx_time *c;

		if (!ns)
			continue;
		r->state_ns[iv->state] += ns;
		c = ctx_time(r, iv->sys >= 0 ? t->sys[iv->sys].name : "user space");
		c->ns[iv->state] += ns;
		/* A call counts once, by its intervals in [s, e): as the
		 * graph's context edges count (ex_depgraph.c). */
		c->count += iv->sys >= 0 && iv->sys != last_sys;
		last_sys = iv->sys;
		switch (iv->state) {
		case ST_RUNNING:
			r->class_ns[C_RUNNING] += ns;
			break;
		case ST_RUNNABLE:
			cpu_causes(m, tid, iv, s, e, r);
			break;
		case ST_BLOCKED:
			classify_blocked(m, t, iv, ns, r);
			break;
		}
	}
	for (size_t i = 0; i < t->nsys; i++) {
		const struct ex_syscall *sc = &t->sys[i];

		if (sc->start < s || sc->start >= e)
			continue;
		r->syscalls++;
		if (sc->ret > 0 && sc->end != EX_TS_OPEN) {
			if (in_list(sc->name, read_calls))
				r->bytes_read += (uint64_t)sc->ret;
			else if (in_list(sc->name, write_calls))
				r->bytes_written += (uint64_t)sc->ret;
		}
	}
	for (uint64_t i = 0; i < t->faults; i++)
		r->faults += t->fault_ts[i] >= s && t->fault_ts[i] < e;
	if (r->ncauses > 1)
		qsort(r->causes, r->ncauses, sizeof(*r->causes), by_cause);
}

void ex_class_report_free(struct ex_class_report *r)
{
	free(r->causes);
	free(r->ctx);
	memset(r, 0, sizeof(*r));
}
