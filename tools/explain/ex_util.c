// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_util.c - allocation helpers of the explain analysis (ex_util.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_event.h"
#include "ex_util.h"

static void oom(void)
{
	fputs("latency-tracker explain: out of memory\n", stderr);
	exit(2);
}

void *ex_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *ex_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *ex_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		oom();
	return p;
}

char *ex_xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom();
	return d;
}

void *ex_push(void *arr_p, size_t *n, size_t *cap, size_t elem)
{
	void **arr = arr_p;
	char *slot;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*arr = ex_xrealloc(*arr, *cap * elem);
	}
	slot = (char *)*arr + *n * elem;
	memset(slot, 0, elem);
	(*n)++;
	return slot;
}

void ex_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

void ex_ev_init(struct ex_ev *ev, enum ex_ev_type type, uint64_t ts, int cpu)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->ts = ts;
	ev->cpu = cpu;
	ev->ctx_tid = ev->ctx_pid = -1;
	ev->tid = ev->next_tid = ev->pid = ev->parent_tid = ev->target_cpu = -1;
	ev->state = -1;
	ev->fd = ev->fd2 = ev->uaddr = ev->op = ev->cmd = ev->id = ev->ret = -1;
	ev->fds[0] = ev->fds[1] = -1;
	ev->next_prio = ev->prev_prio = EX_PRIO_NONE;
	ev->owner_tid = -1;
}
