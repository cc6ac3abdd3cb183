// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_why.c - a record's breakdown in words (lt_why.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_num.h"
#include "lt_why.h"

/*
 * The breakdown fields of every record kind (kind: the field without
 * "_ns"), the words, their tops.
 */
static const struct {
	const char *key;
	const char *kind;
	const char *word;
	const char *top;	/* the field naming its largest part, or NULL */
} parts[] = {
	{ "thread_ns", "thread", "thread", "top_thread" },
	{ "irq_ns", "irq", "irq", "top_irq" },
	{ "softirq_ns", "softirq", "softirq", "top_softirq" },
	{ "idle_ns", "idle", "idle", NULL },
	{ "other_cpu_ns", "other_cpu", "other CPUs", NULL },
	{ "blocked_ns", "blocked", "blocked", "blocked_top" },
	{ "runnable_ns", "runnable", "runnable", NULL },
	{ "on_cpu_ns", "on_cpu", "on CPU", NULL },
};
#define NPARTS (sizeof(parts) / sizeof(parts[0]))
_Static_assert(NPARTS == LT_WHY_KINDS, "LT_WHY_KINDS is the table's size");

const char *lt_why_kind(size_t k)
{
	return k < NPARTS ? parts[k].kind : "?";
}

int lt_why_add(const struct lt_record *r, uint64_t ns[LT_WHY_KINDS])
{
	int any = 0;

	if (r->cause == LT_CAUSE_LOST)
		return 0;
	for (size_t i = 0; i < NPARTS; i++) {
		const struct lt_field *f = lt_record_get(r, parts[i].key);
		uint64_t v;

		if (!f || lt_parse_u64(f->val, &v))
			continue;
		ns[i] += v;
		any = 1;
	}
	return any;
}

struct part {
	size_t i;
	uint64_t ns;
};

static int by_ns(const void *a, const void *b)
{
	const struct part *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;	/* the table's order */
}

int lt_why(const struct lt_record *r, char *buf, size_t size)
{
	struct part p[NPARTS];
	size_t n = 0, len = 0;
	uint64_t total = 0;

	if (size)
		buf[0] = '\0';
	if (r->cause == LT_CAUSE_LOST || !r->delay)
		return -1;
	for (size_t i = 0; i < NPARTS; i++) {
		const struct lt_field *f = lt_record_get(r, parts[i].key);
		uint64_t v;

		if (!f || lt_parse_u64(f->val, &v))
			continue;
		p[n].i = i;
		p[n++].ns = v;
		total += v;
	}
	if (!total)
		return -1;
	qsort(p, n, sizeof(p[0]), by_ns);
	for (size_t k = 0; k < n; k++) {
		/* Shares of the delay, rounded; under 1% left out. */
		uint64_t pct = (p[k].ns * 100 + r->delay / 2) / r->delay;
		const struct lt_field *top = parts[p[k].i].top ?
			lt_record_get(r, parts[p[k].i].top) : NULL;
		int w;

		if (!pct)
			continue;
		w = snprintf(buf + len, size > len ? size - len : 0,
			     "%s%s %" PRIu64 "%%%s%.*s", len ? ", " : "",
			     parts[p[k].i].word, pct,
			     top && strcmp(top->val, "-") ? " " : "",
			     top && strcmp(top->val, "-") ? (int)top->len : 0,
			     top ? top->val : "");
		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (size && len >= size)
		buf[size - 1] = '\0';
	return 0;
}
