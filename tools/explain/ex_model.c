// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_model.c - the per-thread state machine that turns the event stream
 * into the state database of ex_model.h (DepGraph III-B, Figures 2-3):
 *
 *   sched_switch  prev: running -> runnable (preempted, prev_state has no
 *                 sleep bit) or blocked; next: -> running.  CPU slices.
 *                 Interrupt contexts still open (a softirq thread
 *                 preempted inside a softirq: PREEMPT_RT) go with prev.
 *   sched_waking  blocked -> runnable; the waker is the CPU's interrupt
 *                 context when one is open there (timer, irq, softirq;
 *                 the TIMER and HRTIMER softirqs run timer callbacks: a
 *                 timer), else the thread running on that CPU (with its
 *                 syscall) -- except the idle task, which wakes nobody
 *                 from process context: an interrupt the trace does not
 *                 show (EX_WAKER_UNTRACED_IRQ).
 *   syscalls      entry/exit per thread; a running interval is split at
 *                 each so running time is attributed to its syscall.
 *   block_rq_*    requests in flight, per submitter.
 *   sched_process_exit  the end of the thread's life: its last switch
 *                 (prev_state X or Z, too) opens no state after it.
 *   fd syscalls, statedump  the fd tables over time (ex_fdtab.h).
 *
 * Threads first seen in the middle of the trace get the state the first
 * event implies; a syscall whose entry predates the trace is opened at the
 * thread's first appearance when its exit is seen.
 */
#include <stdlib.h>
#include <string.h>

#include "ex_model.h"
#include "ex_util.h"

/* sched_switch prev_state as LTTng encodes it: 0 (TASK_RUNNING) or
 * TASK_REPORT_MAX (preempted) mean runnable; otherwise one bit per state
 * in the order of the kernel's task state letters. */
#define EX_STATE_SLEEP_MASK 0xffL
/* The exit states, X (EXIT_DEAD) and Z (EXIT_ZOMBIE), in that encoding. */
#define EX_STATE_DEAD_MASK 0x30L
static const char state_letters[] = "SDTtXZPI";

static char state_letter(long state)
{
	for (unsigned int i = 0; i < sizeof(state_letters) - 1; i++)
		if (state & (1L << i))
			return state_letters[i];
	return '?';
}

void ex_model_init(struct ex_model *m)
{
	memset(m, 0, sizeof(*m));
	ex_bd_init(&m->bd);
	for (int i = 0; i < EX_MAX_CPUS; i++) {
		m->cpu[i].cur = -1;
		m->cpu[i].cur_prio = EX_PRIO_NONE;
	}
}

void ex_model_free(struct ex_model *m)
{
	for (size_t i = 0; i < m->nth; i++) {
		struct ex_thread *t = m->th[i];

		free(t->iv);
		free(t->sys);
		free(t->fault_ts);
		free(t->pending_open);
		free(t);
	}
	free(m->th);
	free(m->th_index);
	for (int i = 0; i < EX_MAX_CPUS; i++)
		free(m->cpu[i].sl);
	free(m->rq);
	ex_fdtab_free(&m->fdt);
	free(m->ftab);
	for (size_t i = 0; i < m->nalerts; i++)
		free(m->alerts[i].stack);
	free(m->alerts);
	ex_bd_free(&m->bd);
	memset(m, 0, sizeof(*m));
}

/* ---- thread table (open addressing on tid) ---- */

static size_t tid_slot(const struct ex_model *m, int tid)
{
	size_t mask = m->th_index_cap - 1;
	size_t i = ((unsigned int)tid * 2654435761u) & mask;

	while (m->th_index[i] && m->th[m->th_index[i] - 1]->tid != tid)
		i = (i + 1) & mask;
	return i;
}

static void tid_rehash(struct ex_model *m)
{
	size_t cap = m->th_index_cap ? m->th_index_cap * 2 : 256;

	free(m->th_index);
	m->th_index = ex_xcalloc(cap, sizeof(*m->th_index));
	m->th_index_cap = cap;
	for (size_t i = 0; i < m->nth; i++)
		m->th_index[tid_slot(m, m->th[i]->tid)] = (int)i + 1;
}

struct ex_thread *ex_model_thread(const struct ex_model *m, int tid)
{
	size_t i;

	if (!m->th_index_cap)
		return NULL;
	i = tid_slot(m, tid);
	return m->th_index[i] ? m->th[m->th_index[i] - 1] : NULL;
}

static struct ex_thread *thread_get(struct ex_model *m, int tid, uint64_t ts)
{
	struct ex_thread *t = ex_model_thread(m, tid), **slot;
	if (t)
		return t;
	if ((m->nth + 1) * 2 > m->th_index_cap)
		tid_rehash(m);
	t = ex_xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->pid = -1;
	t->cur_sys = -1;
	t->last_cpu = -1;
	t->first_seen = ts;
	slot = EX_PUSH(m->th, m->nth, m->cap_th);
	*slot = t;
	m->th_index[tid_slot(m, tid)] = (int)m->nth;
	return t;
}

const char *ex_model_comm(const struct ex_model *m, int tid)
{
	struct ex_thread *t = ex_model_thread(m, tid);

	if (tid == 0)
		return "swapper";
	return t && t->comm[0] ? t->comm : "?";
}

static void set_comm(struct ex_thread *t, const char *comm)
{
	if (comm && comm[0])
		ex_strlcpy(t->comm, comm, sizeof(t->comm));
}

/* ---- state intervals ---- */

static struct ex_interval *iv_cur(struct ex_thread *t)
{
	if (!t->niv || t->iv[t->niv - 1].end != EX_TS_OPEN)
		return NULL;
	return &t->iv[t->niv - 1];
}

static struct ex_interval *iv_open(struct ex_thread *t, enum ex_state st,
				   uint64_t ts, int cpu)
{
	struct ex_interval *iv = EX_PUSH(t->iv, t->niv, t->cap_iv);

	iv->start = ts;
	iv->end = EX_TS_OPEN;
	iv->state = st;
	iv->cpu = cpu;
	iv->sys = t->cur_sys;
	iv->wake = WK_NONE;
	iv->waker_tid = -1;
	iv->waker_sys = -1;
	return iv;
}

static void iv_close(struct ex_interval *iv, uint64_t ts)
{
	iv->end = ts < iv->start ? iv->start : ts;
}

/* Split the running interval of t at ts (its syscall changed). */
static void running_split(struct ex_thread *t, uint64_t ts)
{
	struct ex_interval *cur = iv_cur(t);
	int cpu;

	if (!cur || cur->state != ST_RUNNING)
		return;
	cpu = cur->cpu;
	if (ts == cur->start) {
		cur->sys = t->cur_sys;
		return;
	}
	iv_close(cur, ts);
	iv_open(t, ST_RUNNING, ts, cpu);
}

/* ---- CPU slices ---- */

/*
 * A slice's priority: the one its task leaves the CPU with (prev_prio),
 * which a task that raised its own while running (sched_setscheduler()
 * after its switch-in) or was boosted holds at the end; else the one it
 * got the CPU with (next_prio), or none.
 */
static void cpu_switch(struct ex_model *m, int cpu, int prev, int next,
		       int prev_prio, int next_prio, uint64_t ts)
{
	struct ex_cpu *c = &m->cpu[cpu];

	if (cpu + 1 > m->ncpu)
		m->ncpu = cpu + 1;
	if (c->cur >= 0 || c->nsl || prev >= 0) {
		struct ex_slice *s = EX_PUSH(c->sl, c->nsl, c->cap_sl);

		s->start = c->cur >= 0 ? c->cur_start : m->first_ts;
		s->end = ts;
		s->tid = c->cur >= 0 ? c->cur : prev;
		if (prev_prio != EX_PRIO_NONE && (c->cur < 0 || c->cur == prev))
			s->prio = prev_prio;
		else
			s->prio = c->cur >= 0 ? c->cur_prio : EX_PRIO_NONE;
	}
	c->cur = next;
	c->cur_prio = next_prio;
	c->cur_start = ts;
}

/* The thread a context-less event belongs to. */
static int event_tid(const struct ex_model *m, const struct ex_ev *ev)
{
	if (ev->ctx_tid >= 0)
		return ev->ctx_tid;
	if (ev->cpu >= 0 && ev->cpu < EX_MAX_CPUS)
		return m->cpu[ev->cpu].cur;
	return -1;
}

/* ---- handlers ---- */

/*
 * At a switch on a CPU with interrupt contexts open -- only a softirq
 * thread preempted inside a softirq (PREEMPT_RT) -- they go with the
 * thread switched out and come back when it runs again; wakings done
 * meanwhile by other threads are theirs.
 */
static void irq_switch(struct ex_cpu *c, struct ex_thread *prev,
		       struct ex_thread *next)
{
	int n;

	if (c->depth > 0 && prev) {
		n = c->depth < EX_IRQ_DEPTH ? c->depth : EX_IRQ_DEPTH;
		memcpy(prev->irq, c->irq, n * sizeof(c->irq[0]));
		prev->irq_depth = c->depth;
	}
	c->depth = 0;
	if (next && next->irq_depth) {
		n = next->irq_depth < EX_IRQ_DEPTH ? next->irq_depth : EX_IRQ_DEPTH;
		memcpy(c->irq, next->irq, n * sizeof(c->irq[0]));
		c->depth = next->irq_depth;
		next->irq_depth = 0;
	}
}

/*
 * The switch out of a thread for good: prev_state X or Z, or, after its
 * sched_process_exit, any sleeping state but S and D (an encoding without
 * the exit states: the kernel's TASK_DEAD).  A thread may still sleep in
 * S or D, or be preempted, on its way out after the exit event.
 */
static bool last_switch(const struct ex_thread *p, long state)
{
	if (state & EX_STATE_DEAD_MASK)
		return true;
	return p->exit_ts && (state & EX_STATE_SLEEP_MASK) && !(state & 0x3L);
}

static void on_switch(struct ex_model *m, const struct ex_ev *ev)
{
	struct ex_thread *p = NULL, *n = NULL;
	struct ex_interval *cur;

	m->nsched++;
	if (ev->tid > 0) {
		p = thread_get(m, ev->tid, ev->ts);
		set_comm(p, ev->comm);
		cur = iv_cur(p);
		if (!cur) {
			uint64_t s = m->cpu[ev->cpu].cur == ev->tid ?
				m->cpu[ev->cpu].cur_start : p->first_seen;

			cur = iv_open(p, ST_RUNNING, s, ev->cpu);
		}
		iv_close(cur, ev->ts);
		if (last_switch(p, ev->state)) {
			p->dead = true;		/* its last switch: no more state */
		} else if ((ev->state & EX_STATE_SLEEP_MASK) == 0) {
			iv_open(p, ST_RUNNABLE, ev->ts, ev->cpu);
		} else {
			cur = iv_open(p, ST_BLOCKED, ev->ts, ev->cpu);
			cur->pstate = state_letter(ev->state);
		}
		p->last_cpu = ev->cpu;
		p->last_seen = ev->ts;
	}
	if (ev->next_tid > 0) {
		n = thread_get(m, ev->next_tid, ev->ts);
		set_comm(n, ev->next_comm);
		cur = iv_cur(n);
		if (cur) {
			if (cur->state == ST_RUNNABLE)
				cur->cpu = ev->cpu;
			iv_close(cur, ev->ts);
		}
		iv_open(n, ST_RUNNING, ev->ts, ev->cpu);
		n->last_cpu = ev->cpu;
		n->last_seen = ev->ts;
	}
	irq_switch(&m->cpu[ev->cpu], p, n);
	cpu_switch(m, ev->cpu, ev->tid, ev->next_tid, ev->prev_prio,
		   ev->next_prio, ev->ts);
}

static void on_waking(struct ex_model *m, const struct ex_ev *ev)
{
	struct ex_thread *t;
	struct ex_interval *cur;
	struct ex_cpu *c;

	if (ev->tid <= 0)
		return;
	t = thread_get(m, ev->tid, ev->ts);
	set_comm(t, ev->comm);
	if (t->dead)
		return;
	cur = iv_cur(t);
	if (cur && cur->state != ST_BLOCKED)
		return;			/* already runnable (waking, then wakeup) */
	if (cur && ev->type == EV_WAKING) {
		c = &m->cpu[ev->cpu];
		if (c->depth > 0) {
			cur->wake = c->irq[c->depth - 1].kind;
			ex_strlcpy(cur->wname, c->irq[c->depth - 1].name,
				   sizeof(cur->wname));
		} else {
			int w = ev->ctx_tid >= 0 ? ev->ctx_tid : c->cur;
			struct ex_thread *wt = w > 0 ? ex_model_thread(m, w) : NULL;

			if (w > 0) {
				cur->wake = WK_THREAD;
				cur->waker_tid = w;
				cur->waker_sys = wt ? wt->cur_sys : -1;
			} else if (w == 0) {
				cur->wake = WK_IRQ;
				ex_strlcpy(cur->wname, EX_WAKER_UNTRACED_IRQ,
					   sizeof(cur->wname));
			}
		}
	}
	if (cur)
		iv_close(cur, ev->ts);
	iv_open(t, ST_RUNNABLE, ev->ts,
		ev->target_cpu >= 0 ? ev->target_cpu : ev->cpu);
}

static void on_sys_entry(struct ex_model *m, const struct ex_ev *ev)
{
	int tid = event_tid(m, ev);
	struct ex_thread *t;
	struct ex_syscall *s;

	if (tid <= 0)
		return;
	t = thread_get(m, tid, ev->ts);
	if (ev->ctx_pid >= 0)
		t->pid = ev->ctx_pid;
	if (t->cur_sys >= 0)
		t->sys[t->cur_sys].end = ev->ts;	/* exit lost */
	s = EX_PUSH(t->sys, t->nsys, t->cap_sys);
	s->start = ev->ts;
	s->end = EX_TS_OPEN;
	ex_strlcpy(s->name, ev->name, sizeof(s->name));
	s->fd = ev->fd;
	s->fd2 = ev->fd2;
	s->uaddr = ev->uaddr;
	s->op = ev->op;
	s->cmd = ev->cmd;
	s->id = ev->id;
	s->ret = -1;
	t->cur_sys = (int)t->nsys - 1;
	free(t->pending_open);
	t->pending_open = ev->filename[0] ? ex_xstrdup(ev->filename) : NULL;
	running_split(t, ev->ts);
}

static void on_sys_exit(struct ex_model *m, const struct ex_ev *ev)
{
	int tid = event_tid(m, ev);
	struct ex_thread *t;
	struct ex_syscall *s;

	if (tid <= 0)
		return;
	t = thread_get(m, tid, ev->ts);
	if (t->cur_sys < 0) {
		/* Entered before the trace began: it covers all we saw. */
		if (t->nsys)
			return;
		s = EX_PUSH(t->sys, t->nsys, t->cap_sys);
		s->start = t->first_seen;
		ex_strlcpy(s->name, ev->name, sizeof(s->name));
		s->fd = s->fd2 = s->uaddr = s->op = s->cmd = s->id = -1;
		t->cur_sys = 0;
		for (size_t i = 0; i < t->niv; i++)
			if (t->iv[i].sys < 0)
				t->iv[i].sys = 0;
	}
	s = &t->sys[t->cur_sys];
	s->end = ev->ts;
	s->ret = ev->ret;
	ex_fdtab_syscall(&m->fdt, t->pid > 0 ? t->pid : t->tid, s->name, s->fd,
			 s->fd2, s->cmd, t->pending_open, ev->ret, ev->fds,
			 ev->ts);
	free(t->pending_open);
	t->pending_open = NULL;
	t->cur_sys = -1;
	running_split(t, ev->ts);
}

/* The softirqs that run expired timers' callbacks (ex_trace.c's names). */
static bool timer_softirq(const char *name)
{
	return !strcmp(name, "softirq TIMER") || !strcmp(name, "softirq HRTIMER");
}

static void irq_push(struct ex_model *m, const struct ex_ev *ev,
		     enum ex_wake kind)
{
	struct ex_cpu *c = &m->cpu[ev->cpu];

	m->nirq++;
	if (kind == WK_SOFTIRQ && timer_softirq(ev->name))
		kind = WK_TIMER;
	if (c->depth < EX_IRQ_DEPTH) {
		c->irq[c->depth].kind = kind;
		ex_strlcpy(c->irq[c->depth].name, ev->name,
			   sizeof(c->irq[c->depth].name));
	}
	c->depth++;
}

static void irq_pop(struct ex_model *m, const struct ex_ev *ev)
{
	struct ex_cpu *c = &m->cpu[ev->cpu];

	if (c->depth > 0)
		c->depth--;
}

static struct ex_request *rq_find_open(struct ex_model *m, uint64_t dev,
				       uint64_t sector)
{
	for (size_t i = m->nrq; i-- > 0;)
		if (m->rq[i].end == EX_TS_OPEN && m->rq[i].dev == dev &&
		    m->rq[i].sector == sector)
			return &m->rq[i];
	return NULL;
}

static void on_block(struct ex_model *m, const struct ex_ev *ev)
{
	struct ex_request *r = rq_find_open(m, ev->dev, ev->sector);
	int tid = ev->tid > 0 ? ev->tid : event_tid(m, ev);

	switch (ev->type) {
	case EV_BLK_INSERT:
	case EV_BLK_ISSUE:
		if (r)
			return;		/* issue after insert: same request */
		r = EX_PUSH(m->rq, m->nrq, m->cap_rq);
		r->start = ev->ts;
		r->end = EX_TS_OPEN;
		r->dev = ev->dev;
		r->sector = ev->sector;
		r->tid = tid;
		break;
	case EV_BLK_COMPLETE:
		if (r)
			r->end = ev->ts;
		break;
	default:
		break;
	}
}

static int ftable_pid(const struct ex_model *m, uint64_t ftable)
{
	for (size_t i = 0; i < m->nftab; i++)
		if (m->ftab[i].ftable == ftable)
			return m->ftab[i].pid;
	return -1;
}

/*
 * The statedump lists a process's fds right after its process_state
 * event, by the address of its fd table: the latest process with that
 * address owns them (an address is reused by later processes, and a
 * regenerated statedump must not give their fds to the first owner).
 */
static void ftable_set(struct ex_model *m, uint64_t ftable, int pid)
{
	for (size_t i = 0; i < m->nftab; i++)
		if (m->ftab[i].ftable == ftable) {
			m->ftab[i].pid = pid;
			return;
		}
	m->nftab++;
	if (m->nftab > m->cap_ftab) {
		m->cap_ftab = m->cap_ftab ? m->cap_ftab * 2 : 64;
		m->ftab = ex_xrealloc(m->ftab, m->cap_ftab * sizeof(*m->ftab));
	}
	m->ftab[m->nftab - 1].ftable = ftable;
	m->ftab[m->nftab - 1].pid = pid;
}

static void on_statedump(struct ex_model *m, const struct ex_ev *ev)
{
	if (ev->type == EV_SD_PROCESS) {
		struct ex_thread *t;

		if (ev->tid <= 0)
			return;
		t = thread_get(m, ev->tid, ev->ts);
		if (ev->pid > 0)
			t->pid = ev->pid;
		set_comm(t, ev->comm);
		if (ev->ftable && ev->pid > 0)
			ftable_set(m, ev->ftable, ev->pid);
	} else {
		int pid = ev->pid > 0 ? ev->pid : ftable_pid(m, ev->ftable);

		if (pid > 0 && ev->fd >= 0 && ev->filename[0])
			ex_fdtab_add(&m->fdt, FDR_SEEN, pid, ev->fd, ev->ts,
				     ev->filename, -1);
	}
}

/* A new thread; a new process starts with its parent's fd table. */
static void on_fork(struct ex_model *m, const struct ex_ev *ev)
{
	struct ex_thread *t, *parent;
	int ppid = ev->ctx_pid;

	if (ev->tid <= 0)
		return;
	t = thread_get(m, ev->tid, ev->ts);
	if (t->dead || t->exit_ts) {
		/* Its tid reused: a new thread's life. */
		t->dead = false;
		t->exit_ts = 0;
	}
	if (ev->pid > 0)
		t->pid = ev->pid;
	set_comm(t, ev->comm);
	if (ppid <= 0 && ev->parent_tid > 0 &&
	    (parent = ex_model_thread(m, ev->parent_tid)))
		ppid = parent->pid > 0 ? parent->pid : parent->tid;
	if (ppid <= 0)
		ppid = ev->parent_tid;
	if (ev->pid > 0 && ev->pid != ppid)
		ex_fdtab_fork(&m->fdt, ev->pid, ppid, ev->ts);
}

static void on_alert(struct ex_model *m, const struct ex_ev *ev)
{
	struct ex_alert *a;

	if (ev->tid <= 0)
		return;
	a = EX_PUSH(m->alerts, m->nalerts, m->cap_alerts);
	a->ts = ev->ts;
	a->delay = ev->delay;
	a->tid = ev->tid;
	ex_strlcpy(a->tracker, ev->name, sizeof(a->tracker));
	a->stack = ev->stack && ev->stack[0] ? ex_xstrdup(ev->stack) : NULL;
	if (ev->bd) {
		a->has_bd = true;
		a->bd = *ev->bd;
	}
	ex_strlcpy(a->lock, ev->lock, sizeof(a->lock));
	ex_strlcpy(a->lock_kind, ev->lock_kind, sizeof(a->lock_kind));
	a->owner_tid = ev->owner_tid;
	ex_strlcpy(a->owner_comm, ev->owner_comm, sizeof(a->owner_comm));
}

void ex_model_feed(struct ex_model *m, const struct ex_ev *ev)
{
	if (ev->cpu < 0 || ev->cpu >= EX_MAX_CPUS)
		return;
	if (!m->nevents++)
		m->first_ts = ev->ts;
	if (ev->ts > m->last_ts)
		m->last_ts = ev->ts;
	if (ev->cpu + 1 > m->ncpu)
		m->ncpu = ev->cpu + 1;
	ex_bd_feed(&m->bd, ev);

	switch (ev->type) {
	case EV_SWITCH:
		on_switch(m, ev);
		break;
	case EV_WAKING:
	case EV_WAKEUP_NEW:
		on_waking(m, ev);
		break;
	case EV_FORK:
		on_fork(m, ev);
		break;
	case EV_EXIT:
		if (ev->tid > 0) {
			struct ex_thread *t = thread_get(m, ev->tid, ev->ts);

			if (!t->exit_ts)
				t->exit_ts = ev->ts;
		}
		break;
	case EV_SYS_ENTRY:
		on_sys_entry(m, ev);
		break;
	case EV_SYS_EXIT:
		on_sys_exit(m, ev);
		break;
	case EV_IRQ_ENTRY:
		irq_push(m, ev, WK_IRQ);
		break;
	case EV_SOFTIRQ_ENTRY:
		irq_push(m, ev, WK_SOFTIRQ);
		break;
	case EV_TIMER_ENTRY:
		irq_push(m, ev, WK_TIMER);
		break;
	case EV_IRQ_EXIT:
	case EV_SOFTIRQ_EXIT:
	case EV_TIMER_EXIT:
		irq_pop(m, ev);
		break;
	case EV_BLK_INSERT:
	case EV_BLK_ISSUE:
	case EV_BLK_COMPLETE:
		on_block(m, ev);
		break;
	case EV_SD_PROCESS:
	case EV_SD_FD:
		on_statedump(m, ev);
		break;
	case EV_ALERT:
		on_alert(m, ev);
		break;
	case EV_PAGE_FAULT: {
		int tid = event_tid(m, ev);
		struct ex_thread *t;

		if (tid <= 0)
			break;
		t = thread_get(m, tid, ev->ts);
		t->faults++;
		if (t->faults > t->cap_faults) {
			t->cap_faults = t->cap_faults ? t->cap_faults * 2 : 64;
			t->fault_ts = ex_xrealloc(t->fault_ts,
					t->cap_faults * sizeof(*t->fault_ts));
		}
		t->fault_ts[t->faults - 1] = ev->ts;
		break;
	}
	default:
		break;
	}
	/* Threads named by a context (procname) get it when they have none. */
	if (ev->ctx_tid > 0 && ev->type != EV_SWITCH) {
		struct ex_thread *t = ex_model_thread(m, ev->ctx_tid);

		if (t && ev->ctx_pid > 0)
			t->pid = ev->ctx_pid;
	}
}

void ex_model_finish(struct ex_model *m)
{
	for (size_t i = 0; i < m->nth; i++) {
		struct ex_interval *cur = iv_cur(m->th[i]);

		if (cur)
			iv_close(cur, m->last_ts);
	}
	for (int c = 0; c < m->ncpu; c++)
		if (m->cpu[c].cur >= 0)
			cpu_switch(m, c, -1, -1, EX_PRIO_NONE, EX_PRIO_NONE,
				   m->last_ts);
	for (size_t i = 0; i < m->nrq; i++)
		if (m->rq[i].end == EX_TS_OPEN)
			m->rq[i].end = m->last_ts;
	ex_fdtab_finish(&m->fdt);
	m->finished = true;
}

const char *ex_model_fdname(const struct ex_model *m, int pid, int64_t fd,
			    uint64_t ts)
{
	return ex_fdtab_name(&m->fdt, pid, fd, ts);
}

uint64_t ex_thread_end(const struct ex_thread *t)
{
	return t->exit_ts ? t->exit_ts : EX_TS_OPEN;
}

size_t ex_thread_first_iv(const struct ex_thread *t, uint64_t ts)
{
	size_t lo = 0, hi = t->niv;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->iv[mid].end <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t ex_cpu_first_slice(const struct ex_cpu *c, uint64_t ts)
{
	size_t lo = 0, hi = c->nsl;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->sl[mid].end <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
