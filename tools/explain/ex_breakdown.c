// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_breakdown.c - a wakeup record's breakdown against the snapshot's (see
 * ex_breakdown.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_breakdown.h"
#include "ex_util.h"

/* A difference allowed per change of kind in the span (two clock reads). */
#define PER_CHANGE_NS	5000ULL
#define BASE_TOL_NS	100000ULL

const char *ex_bd_kind_name(int kind)
{
	static const char *const names[EX_BD_KINDS] = {
		[EX_BD_IRQ] = "irq", [EX_BD_SOFTIRQ] = "softirq",
		[EX_BD_THREAD] = "thread", [EX_BD_IDLE] = "idle",
	};

	return kind >= 0 && kind < EX_BD_KINDS ? names[kind] : "?";
}

void ex_bd_init(struct ex_bd *b)
{
	memset(b, 0, sizeof(*b));
}

void ex_bd_free(struct ex_bd *b)
{
	for (int i = 0; i < b->ncpu; i++)
		free(b->cpu[i].seg);
	free(b->cpu);
	free(b->names);
	memset(b, 0, sizeof(*b));
}

static struct ex_bd_cpu *cpu_of(struct ex_bd *b, int cpu)
{
	if (cpu < 0 || cpu >= EX_BD_MAX_CPUS)
		return NULL;
	if (cpu >= b->ncpu) {
		b->cpu = ex_xrealloc(b->cpu, (size_t)(cpu + 1) * sizeof(*b->cpu));
		for (int i = b->ncpu; i <= cpu; i++) {
			memset(&b->cpu[i], 0, sizeof(b->cpu[i]));
			b->cpu[i].tid = -1;
		}
		b->ncpu = cpu + 1;
	}
	return &b->cpu[cpu];
}

/* The index of a name (few: interrupt handlers, vectors, softirqs). */
static int32_t name_index(struct ex_bd *b, const char *name)
{
	char (*slot)[EX_NAME_LEN];

	for (size_t i = 0; i < b->nnames; i++)
		if (!strcmp(b->names[i], name))
			return (int32_t)i;
	slot = EX_PUSH(b->names, b->nnames, b->cap_names);
	ex_strlcpy(*slot, name, sizeof(*slot));
	return (int32_t)(b->nnames - 1);
}

/* What the record calls an interrupt: "irq N NAME" -> NAME, "vector V" -> V. */
static const char *irq_name(const char *ev_name)
{
	const char *p;

	if (!strncmp(ev_name, "vector ", 7))
		return ev_name + 7;
	if (!strncmp(ev_name, "irq ", 4) && (p = strchr(ev_name + 4, ' ')))
		return p + 1;
	return ev_name;
}

static const char *softirq_name(const char *ev_name)
{
	return strncmp(ev_name, "softirq ", 8) ? ev_name : ev_name + 8;
}

static void enter(struct ex_bd_cpu *c, uint64_t ts, int kind, int32_t who)
{
	struct ex_bd_seg *s;

	if (c->nseg && c->seg[c->nseg - 1].ts == ts) {
		s = &c->seg[c->nseg - 1];	/* nothing in between */
	} else {
		s = EX_PUSH(c->seg, c->nseg, c->cap_seg);
		s->ts = ts;
	}
	s->kind = (uint8_t)kind;
	s->who = who;
}

/* What runs below the interrupts: a softirq, or the task. */
static void below(struct ex_bd_cpu *c, uint64_t ts)
{
	if (c->in_softirq)
		enter(c, ts, EX_BD_SOFTIRQ, c->softirq);
	else
		enter(c, ts, c->tid == 0 ? EX_BD_IDLE : EX_BD_THREAD, c->tid);
}

void ex_bd_feed(struct ex_bd *b, const struct ex_ev *ev)
{
	struct ex_bd_cpu *c;
	int32_t who;

	switch (ev->type) {
	case EV_IRQ_ENTRY:
	case EV_IRQ_EXIT:
	case EV_SOFTIRQ_ENTRY:
	case EV_SOFTIRQ_EXIT:
	case EV_SWITCH:
		break;
	default:
		return;
	}
	c = cpu_of(b, ev->cpu);
	if (!c)
		return;
	switch (ev->type) {
	case EV_IRQ_ENTRY:
		who = name_index(b, irq_name(ev->name));
		if (c->depth < (int)(sizeof(c->irqs) / sizeof(c->irqs[0])))
			c->irqs[c->depth] = who;
		c->depth++;
		enter(c, ev->ts, EX_BD_IRQ, who);
		break;
	case EV_IRQ_EXIT:
		if (!c->depth)
			break;
		c->depth--;
		if (c->depth)
			enter(c, ev->ts, EX_BD_IRQ,
			      c->irqs[c->depth < 4 ? c->depth - 1 : 3]);
		else
			below(c, ev->ts);
		break;
	case EV_SOFTIRQ_ENTRY:
		/* In a thread: that thread's time. */
		if (b->rt || c->task_runs_softirqs)
			break;
		c->in_softirq = true;
		c->softirq = name_index(b, softirq_name(ev->name));
		if (!c->depth)
			enter(c, ev->ts, EX_BD_SOFTIRQ, c->softirq);
		break;
	case EV_SOFTIRQ_EXIT:
		if (!c->in_softirq)
			break;
		c->in_softirq = false;
		if (!c->depth)
			below(c, ev->ts);
		break;
	default:	/* EV_SWITCH */
		c->tid = ev->next_tid;
		c->task_runs_softirqs = !strncmp(ev->next_comm, "ksoftirqd/", 10);
		if (!c->depth && !c->in_softirq)
			below(c, ev->ts);
		break;
	}
}

struct contrib {
	int kind;
	int32_t who;
	uint64_t ns;
};

/* The parts of CPU c over [a, z): per kind, per contributor. */
static unsigned int parts(const struct ex_bd_cpu *c, uint64_t a, uint64_t z,
			  uint64_t ns[EX_BD_KINDS], struct contrib **out,
			  size_t *nout, bool *covered)
{
	size_t lo = 0, hi = c->nseg, cap = 0;
	unsigned int changes = 0;

	memset(ns, 0, EX_BD_KINDS * sizeof(*ns));
	*out = NULL;
	*nout = 0;
	/* The last segment starting at or before a. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->seg[mid].ts <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	*covered = lo > 0;
	for (size_t i = lo ? lo - 1 : 0; i < c->nseg && c->seg[i].ts < z; i++) {
		uint64_t s0 = c->seg[i].ts > a ? c->seg[i].ts : a;
		uint64_t s1 = i + 1 < c->nseg && c->seg[i + 1].ts < z ?
			      c->seg[i + 1].ts : z;
		struct contrib *k = NULL;

		if (s1 <= s0)
			continue;
		changes += c->seg[i].ts > a;
		ns[c->seg[i].kind] += s1 - s0;
		for (size_t j = 0; j < *nout; j++)
			if ((*out)[j].kind == c->seg[i].kind &&
			    (*out)[j].who == c->seg[i].who)
				k = &(*out)[j];
		if (!k) {
			k = EX_PUSH(*out, *nout, cap);
			k->kind = c->seg[i].kind;
			k->who = c->seg[i].who;
		}
		k->ns += s1 - s0;
	}
	return changes;
}

/* A contributor as the record names it. */
static void contrib_name(const struct ex_bd *b, const struct contrib *k,
			 const char *(*comm_of)(void *arg, int tid), void *arg,
			 char *buf, size_t size)
{
	const char *comm;

	if (k->kind != EX_BD_THREAD) {
		ex_strlcpy(buf, b->names[k->who], size);
		return;
	}
	comm = comm_of ? comm_of(arg, k->who) : NULL;
	snprintf(buf, size, "%s:%d", comm ? comm : "?", k->who);
}

/* Whether the record's top @name is the contributor @k. */
static bool same(const struct ex_bd *b, const struct contrib *k,
		 const char *name)
{
	const char *colon;

	if (k->kind != EX_BD_THREAD)
		return !strcmp(b->names[k->who], name);
	colon = strrchr(name, ':');
	return colon && atoi(colon + 1) == k->who;
}

void ex_bd_check(const struct ex_bd *b, const struct ex_bd_rec *rec,
		 uint64_t end, const char *(*comm_of)(void *arg, int tid),
		 void *arg, struct ex_bd_check *out)
{
	struct contrib *k = NULL;
	unsigned int changes = 0;
	size_t nk = 0;

	memset(out, 0, sizeof(*out));
	out->rec = *rec;
	for (int i = 0; i < EX_BD_KINDS; i++)
		out->window += rec->ns[i];
	for (int i = 0; i <= EX_BD_THREAD; i++)
		ex_strlcpy(out->snap_top[i], "-", sizeof(out->snap_top[i]));
	if (rec->cpu >= 0 && rec->cpu < b->ncpu && out->window <= end)
		changes = parts(&b->cpu[rec->cpu], end - out->window, end,
				out->snap, &k, &nk, &out->covered);
	out->tolerance = BASE_TOL_NS + PER_CHANGE_NS * changes;
	for (int i = 0; i < EX_BD_KINDS; i++) {
		uint64_t r = rec->ns[i], s = out->snap[i];

		out->differs[i] = (r > s ? r - s : s - r) > out->tolerance;
		out->ndiffer += out->differs[i];
	}
	/*
	 * A top differs when the snapshot's largest contributor of its kind
	 * had more time than the one the record names, beyond the tolerance.
	 */
	for (int i = 0; i <= EX_BD_THREAD; i++) {
		const struct contrib *best = NULL;
		uint64_t named = 0;

		for (size_t j = 0; j < nk; j++) {
			if (k[j].kind != i)
				continue;
			if (!best || k[j].ns > best->ns)
				best = &k[j];
			if (same(b, &k[j], rec->top[i]))
				named = k[j].ns;
		}
		if (best)
			contrib_name(b, best, comm_of, arg, out->snap_top[i],
				     sizeof(out->snap_top[i]));
		out->top_differs[i] = best && best->ns > named + out->tolerance;
		out->ndiffer += out->top_differs[i];
	}
	free(k);
}
