// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_stack.c - match the stacks of our alert events to waits (ex_stack.h).
 */
#include <string.h>

#include "ex_stack.h"
#include "ex_util.h"

#define EX_STACK_SLACK_NS 100000ULL

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* offcpu: the blocked interval of t, before ts, whose off-CPU time (to
 * its next running interval) is closest to delay. */
static bool match_offcpu(const struct ex_thread *t, uint64_t ts, uint64_t delay,
			 uint64_t *s, uint64_t *e, int *sys)
{
	uint64_t best = UINT64_MAX;

	for (size_t i = 0; i < t->niv && t->iv[i].start < ts; i++) {
		const struct ex_interval *iv = &t->iv[i];
		uint64_t end = iv->end;

		if (iv->state != ST_BLOCKED)
			continue;
		for (size_t k = i + 1; k < t->niv; k++) {
			end = t->iv[k].start;
			if (t->iv[k].state == ST_RUNNING)
				break;
			end = t->iv[k].end;
		}
		if (absdiff(end - iv->start, delay) < best) {
			best = absdiff(end - iv->start, delay);
			*s = iv->start;
			*e = end;
			*sys = iv->sys;
		}
	}
	return best <= delay / 4 + EX_STACK_SLACK_NS;
}

/* syscall: the system call of t, before ts, whose length is closest. */
static bool match_syscall(const struct ex_thread *t, uint64_t ts, uint64_t delay,
			  uint64_t *s, uint64_t *e, int *sys)
{
	uint64_t best = UINT64_MAX;

	for (size_t i = 0; i < t->nsys && t->sys[i].start < ts; i++) {
		const struct ex_syscall *sc = &t->sys[i];
		uint64_t end = sc->end == EX_TS_OPEN ? ts : sc->end;

		if (absdiff(end - sc->start, delay) < best) {
			best = absdiff(end - sc->start, delay);
			*s = sc->start;
			*e = end;
			*sys = (int)i;
		}
	}
	return best <= delay / 4 + EX_STACK_SLACK_NS;
}

static int context_node(const struct ex_graph *g, const struct ex_thread *t,
			int sys, char *name, size_t size)
{
	enum ex_node_type type = sys >= 0 ? N_SYSCALL : N_USER;

	ex_strlcpy(name, sys >= 0 ? t->sys[sys].name : "user space", size);
	for (size_t i = 0; i < g->nnodes; i++)
		if (g->nodes[i].type == type && g->nodes[i].tid == t->tid &&
		    !strcmp(g->nodes[i].label, name))
			return (int)i;
	return -1;
}

size_t ex_stacks_attach(const struct ex_model *m, const struct ex_graph *g,
			uint64_t s, uint64_t e, struct ex_rstack **out)
{
	size_t n = 0, cap = 0;

	*out = NULL;
	for (size_t i = 0; i < m->nalerts; i++) {
		const struct ex_alert *a = &m->alerts[i];
		const struct ex_thread *t = ex_model_thread(m, a->tid);
		uint64_t ws = 0, we = 0;
		int sys = -1, node;
		bool ok;
		struct ex_rstack *r;
		char ctx[EX_NAME_LEN];

		if (!a->stack || !t)
			continue;
		if (!strcmp(a->tracker, "offcpu"))
			ok = match_offcpu(t, a->ts, a->delay, &ws, &we, &sys);
		else if (!strcmp(a->tracker, "syscall"))
			ok = match_syscall(t, a->ts, a->delay, &ws, &we, &sys);
		else
			continue;
		if (!ok || !ex_overlap(ws, we, s, e))
			continue;
		node = context_node(g, t, sys, ctx, sizeof(ctx));
		if (node < 0)
			continue;
		r = EX_PUSH(*out, n, cap);
		r->tid = t->tid;
		r->node = node;
		ex_strlcpy(r->tracker, a->tracker, sizeof(r->tracker));
		ex_strlcpy(r->context, ctx, sizeof(r->context));
		r->start = ws;
		r->end = we;
		r->delay = a->delay;
		r->frames = a->stack;
	}
	return n;
}
