// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_folded.c - keeping alert records with stacks and folding them into
 * flame graph stacks (see lt_folded.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lt_folded.h"

#define NO_STACK	"[no stack]"
#define NO_WAKER	"[no waker]"

/* ---- keeping records ---- */

static char *dup_field(const struct lt_record *r, const char *key, bool *oom)
{
	const struct lt_field *f = lt_record_get(r, key);
	char *v;

	if (!f)
		return NULL;
	v = strdup(f->val);
	if (!v)
		*oom = true;
	return v;
}

static int64_t id_field(const struct lt_record *r, const char *key)
{
	const struct lt_field *f = lt_record_get(r, key);
	char *end;
	long long v;

	if (!f || !f->len)
		return -1;
	errno = 0;
	v = strtoll(f->val, &end, 10);
	return errno || *end ? -1 : v;
}

static void sample_free(struct lt_sample *m)
{
	free(m->tracker);
	free(m->comm);
	free(m->stack);
	free(m->waker_stack);
	free(m->waker_comm);
	free(m->ustack);
}

int lt_samples_add(struct lt_samples *s, const struct lt_record *r)
{
	struct lt_sample m = { 0 };
	bool oom = false;

	if (r->cause == LT_CAUSE_LOST) {
		s->lost_lines++;
		s->lost_records += r->count;
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct lt_sample *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	m.ts = r->ts;
	m.delay = r->delay;
	m.pid = id_field(r, "pid");
	m.tgid = id_field(r, "tgid");
	m.tracker = strdup(r->tracker);
	oom = !m.tracker;
	m.comm = dup_field(r, "comm", &oom);
	m.stack = dup_field(r, "stack", &oom);
	m.waker_stack = dup_field(r, "waker_stack", &oom);
	m.waker_comm = dup_field(r, "waker_comm", &oom);
	m.ustack = dup_field(r, "ustack", &oom);
	if (oom) {
		sample_free(&m);
		return -1;
	}
	s->v[s->n++] = m;
	return 0;
}

void lt_samples_free(struct lt_samples *s)
{
	for (size_t i = 0; i < s->n; i++)
		sample_free(&s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- modes ---- */

static const char *const mode_names[] = {
	[LT_FOLD_AUTO] = "auto",
	[LT_FOLD_OFFCPU] = "offcpu",
	[LT_FOLD_OFFWAKE] = "offwake",
	[LT_FOLD_SYSCALLS] = "syscalls",
};

int lt_fold_mode_parse(const char *s, enum lt_fold_mode *mode)
{
	for (int i = LT_FOLD_OFFCPU; i <= LT_FOLD_SYSCALLS; i++) {
		if (!strcmp(s, mode_names[i])) {
			*mode = (enum lt_fold_mode)i;
			return 0;
		}
	}
	return -1;
}

const char *lt_fold_mode_name(enum lt_fold_mode mode)
{
	return mode <= LT_FOLD_SYSCALLS ? mode_names[mode] : "?";
}

static bool has_tracker(const struct lt_samples *s, const char *t)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].tracker, t))
			return true;
	return false;
}

/* The mode and tracker the options select, for these samples. */
static void resolve(const struct lt_samples *s, const struct lt_fold_opts *o,
		    struct lt_folded *f)
{
	const char *best = NULL;

	f->mode = o->mode;
	f->tracker = o->tracker;
	if (f->mode == LT_FOLD_AUTO) {
		if (f->tracker && strcmp(f->tracker, "offcpu"))
			f->mode = !strcmp(f->tracker, "syscalls") ?
				  LT_FOLD_SYSCALLS : LT_FOLD_OFFCPU;
		else if (f->tracker || has_tracker(s, "offcpu") ||
			 !has_tracker(s, "syscalls"))
			f->mode = LT_FOLD_OFFCPU;
		else
			f->mode = LT_FOLD_SYSCALLS;
	}
	if (f->tracker)
		return;
	f->tracker = f->mode == LT_FOLD_SYSCALLS ? "syscalls" : "offcpu";
	if (o->mode != LT_FOLD_AUTO || has_tracker(s, f->tracker))
		return;
	/* Neither offcpu nor syscalls: the first tracker with stacks. */
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].stack && (!best || strcmp(s->v[i].tracker, best) < 0))
			best = s->v[i].tracker;
	}
	if (best)
		f->tracker = best;
}

/* ---- building a line ---- */

struct buf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* One frame, after a ';' unless first; ';' and control bytes as \xHH. */
static void frame(struct buf *b, const char *s, size_t n)
{
	if (!n)
		return;
	if (b->len)
		put(b, ";", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ';' || c < 0x20 || c == 0x7f) {
			char esc[5];

			snprintf(esc, sizeof(esc), "\\x%02x", c);
			put(b, esc, 4);
		} else {
			put(b, s + i, 1);
		}
	}
}

static void cframe(struct buf *b, const char *s)
{
	frame(b, s, strlen(s));
}

/* Is there a non-empty frame in the ';'-separated list? */
static bool any_frame(const char *list)
{
	for (; list && *list; list++)
		if (*list != ';')
			return true;
	return false;
}

/* The frames of a list (innermost first) root first, or as they are. */
static void frames(struct buf *b, const char *list, bool reverse)
{
	const char *end;

	if (!list)
		return;
	if (!reverse) {
		for (const char *p = list;; p = end + 1) {
			end = strchr(p, ';');
			frame(b, p, end ? (size_t)(end - p) : strlen(p));
			if (!end)
				return;
		}
	}
	/* Backwards: each frame from the byte after its ';' to its end. */
	for (size_t e = strlen(list), i = e + 1; i-- > 0;) {
		if (i == 0 || list[i - 1] == ';') {
			frame(b, list + i, e - i);
			e = i ? i - 1 : 0;
		}
	}
}

static void fold_one(struct buf *b, const struct lt_sample *m, bool offwake)
{
	b->len = 0;
	if (m->comm && *m->comm) {
		cframe(b, m->comm);
	} else {
		char name[128];

		snprintf(name, sizeof(name), "[%s]", m->tracker);
		cframe(b, name);
	}
	frames(b, m->ustack, true);
	frames(b, m->stack, true);
	if (!any_frame(m->ustack) && !any_frame(m->stack))
		cframe(b, NO_STACK);
	if (!offwake)
		return;
	cframe(b, "--");
	frames(b, m->waker_stack, false);
	if (!any_frame(m->waker_stack))
		cframe(b, NO_STACK);
	cframe(b, m->waker_comm && *m->waker_comm ? m->waker_comm : NO_WAKER);
}

/*
 * Frame by frame: ';' ends a frame and sorts before any byte, so that the
 * lines of a frame are contiguous and a parent comes before its children.
 */
static int frame_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = *a == ';' ? 0 : *a ? (unsigned char)*a + 1 : -1;
		int cb = *b == ';' ? 0 : *b ? (unsigned char)*b + 1 : -1;

		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (ca < 0)
			return 0;
	}
}

static int line_cmp(const void *x, const void *y)
{
	const struct lt_folded_line *a = x, *b = y;

	return frame_cmp(a->stack, b->stack);
}

static bool selected(const struct lt_sample *m, const struct lt_fold_opts *o)
{
	if (o->pid_set && m->pid != o->pid && m->tgid != o->pid)
		return false;
	if (o->since_set && m->ts < o->since)
		return false;
	return !o->until_set || m->ts <= o->until;
}

int lt_fold(const struct lt_samples *s, const struct lt_fold_opts *o,
	    struct lt_folded *f)
{
	struct buf b = { 0 };
	size_t n = 0;

	memset(f, 0, sizeof(*f));
	resolve(s, o, f);
	f->v = calloc(s->n ? s->n : 1, sizeof(*f->v));
	if (!f->v)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct lt_sample *m = &s->v[i];

		if (strcmp(m->tracker, f->tracker)) {
			f->other++;
			continue;
		}
		if (!selected(m, o)) {
			f->filtered++;
			continue;
		}
		fold_one(&b, m, f->mode == LT_FOLD_OFFWAKE);
		if (b.oom)
			break;
		f->v[n].stack = strdup(b.p);
		if (!f->v[n].stack) {
			b.oom = true;
			break;
		}
		f->v[n].weight = m->delay;
		f->v[n].count = 1;
		f->total += m->delay;
		f->used++;
		n++;
	}
	free(b.p);
	f->n = n;
	if (b.oom)
		return -1;
	/* Sorted, then the records with the same stack merged. */
	qsort(f->v, n, sizeof(*f->v), line_cmp);
	f->n = 0;
	for (size_t i = 0; i < n; i++) {
		struct lt_folded_line *last = f->n ? &f->v[f->n - 1] : NULL;

		if (last && !strcmp(last->stack, f->v[i].stack)) {
			last->weight += f->v[i].weight;
			last->count += f->v[i].count;
			free(f->v[i].stack);
		} else {
			f->v[f->n++] = f->v[i];
		}
	}
	return 0;
}

void lt_folded_write(FILE *out, const struct lt_folded *f)
{
	for (size_t i = 0; i < f->n; i++)
		fprintf(out, "%s %llu\n", f->v[i].stack,
			(unsigned long long)f->v[i].weight);
}

void lt_folded_free(struct lt_folded *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].stack);
	free(f->v);
	memset(f, 0, sizeof(*f));
}
