// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_tl_otf2.c - a timeline (ex_timeline_view.h) as an OTF2 archive, the
 * format lo2s and Score-P write and Vampir reads (libotf2; Debian:
 * libopen-trace-format2-dev), laid out as lo2s's system monitoring mode:
 *
 *   system tree   "machine" > "CPU n"
 *   locations     one per shown thread ("comm [tid]", CPU_THREAD) in a
 *                 location group per process ("comm [pid]"); one per CPU
 *                 ("CPU n") in a group of its own under its tree node;
 *                 one per lane of a disk ("disk 8:0 lane 0") in a group
 *                 per disk ("disk 8:0") under "machine"
 *   thread        Enter/Leave of a region per system call (the call's name,
 *   regions       role FUNCTION) and, nested in it, of a state region:
 *                 "running", "runnable", "blocked" (role ARTIFICIAL);
 *                 attributes on the state's Enter: "cpu" (running: its CPU,
 *                 runnable: the CPU it waited for) and "waker_tid" (the
 *                 first state after a waking by a thread: the waker)
 *   CPU regions   one per thread that ran there, "comm [tid]": the CPU
 *                 location enters it while the thread runs
 *   lane regions  a block request of a shown thread, insert .. complete:
 *                 region "block 8:0" (its disk) on the lane that
 *                 tl_requests() gave it (the first one free: the requests
 *                 of a lane never overlap, so its regions nest);
 *                 attributes on its Enter: "tid" (the submitter) and
 *                 "sector"
 *   markers       one per latency_tracker alert (group "latency_tracker",
 *                 category the tracker), on the thread's location, with
 *                 the alert's delay in its text
 *
 * Wakeups are not arrows: OTF2 links two locations only in its paradigms'
 * records (MPI messages and collectives, RMA, thread creation) and Vampir
 * draws lines between timelines only for MPI communication; a wakeup is
 * none of these and is not disguised as one.  The first state after a
 * waking carries the waker in its "waker_tid" attribute instead (the JSON
 * timeline draws flow arrows).
 *
 * Timestamps: the trace's CLOCK_MONOTONIC ns (timer resolution 1e9 per
 * second), the global offset its first event.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "ex_classify.h"
#include "ex_timeline_view.h"
#include "ex_util.h"

enum { A_CPU, A_WAKER, A_TID, A_SECTOR };

struct region {
	uint32_t name;			/* string id */
	OTF2_RegionRole role;
	const char *desc;
};

/* A lane of a disk: one OTF2 location (see tl_requests()). */
struct lane_ref {
	uint64_t dev;
	int lane;
};

struct writer {
	const struct tl_view *v;
	OTF2_Archive *ar;
	char **str;			/* string table: id = index */
	size_t nstr, capstr;
	uint32_t *hash;			/* its index (str_id()) */
	size_t hcap;
	struct region *reg;
	size_t nreg, capreg;
	uint32_t *reg_of;		/* string id -> region id + 1 */
	size_t cap_reg_of;
	const struct ex_thread **th;	/* shown threads: location = index */
	size_t nth, capth;
	struct tl_request *rq;		/* the requests shown (tl_requests()) */
	size_t nrq;
	struct lane_ref *lane;	/* lane location = nth + ncpu + index */
	size_t nlane, caplane;
	uint64_t *nevents;		/* per location */
	OTF2_AttributeList *attrs;
	char *err;
	size_t errlen;
};

/* ---- tables ---- */

static size_t str_hash(const char *s)
{
	size_t h = 14695981039346656037ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The string table's id of s, added when new (open addressing: a slot
 * holds id + 1, the table at most half full). */
static uint32_t str_id(struct writer *w, const char *s)
{
	size_t i;
	char **slot;

	if ((w->nstr + 1) * 2 > w->hcap) {
		w->hcap = w->hcap ? w->hcap * 2 : 256;
		free(w->hash);
		w->hash = ex_xcalloc(w->hcap, sizeof(*w->hash));
		for (size_t k = 0; k < w->nstr; k++) {
			for (i = str_hash(w->str[k]) & (w->hcap - 1); w->hash[i];
			     i = (i + 1) & (w->hcap - 1))
				;
			w->hash[i] = (uint32_t)k + 1;
		}
	}
	for (i = str_hash(s) & (w->hcap - 1); w->hash[i]; i = (i + 1) & (w->hcap - 1))
		if (!strcmp(w->str[w->hash[i] - 1], s))
			return w->hash[i] - 1;
	slot = EX_PUSH(w->str, w->nstr, w->capstr);
	*slot = ex_xstrdup(s);
	w->hash[i] = (uint32_t)w->nstr;
	return (uint32_t)(w->nstr - 1);
}

/* The region named name in this role (a name has one region per role:
 * reg_of[string id] is the first one's id + 1). */
static uint32_t region_id(struct writer *w, const char *name,
			  OTF2_RegionRole role, const char *desc)
{
	uint32_t s = str_id(w, name);
	struct region *r;

	if (s < w->cap_reg_of && w->reg_of[s] &&
	    w->reg[w->reg_of[s] - 1].role == role)
		return w->reg_of[s] - 1;
	for (size_t i = 0; i < w->nreg; i++)
		if (w->reg[i].name == s && w->reg[i].role == role)
			return (uint32_t)i;
	r = EX_PUSH(w->reg, w->nreg, w->capreg);
	r->name = s;
	r->role = role;
	r->desc = desc;
	if (s >= w->cap_reg_of) {
		size_t cap = w->cap_reg_of ? w->cap_reg_of : 64;

		while (cap <= s)
			cap *= 2;
		w->reg_of = ex_xrealloc(w->reg_of, cap * sizeof(*w->reg_of));
		memset(w->reg_of + w->cap_reg_of, 0,
		       (cap - w->cap_reg_of) * sizeof(*w->reg_of));
		w->cap_reg_of = cap;
	}
	if (!w->reg_of[s])
		w->reg_of[s] = (uint32_t)w->nreg;
	return (uint32_t)(w->nreg - 1);
}

static uint32_t thread_loc(const struct writer *w, int tid)
{
	for (size_t i = 0; i < w->nth; i++)
		if (w->th[i]->tid == tid)
			return (uint32_t)i;
	return OTF2_UNDEFINED_UINT32;
}

static uint32_t cpu_loc(const struct writer *w, int cpu)
{
	return (uint32_t)(w->nth + (size_t)cpu);
}

/* The index of the lane of q among w->lane, added when new. */
static size_t lane_index(struct writer *w, const struct tl_request *q)
{
	size_t k;

	struct lane_ref *l;

	for (k = 0; k < w->nlane; k++)
		if (w->lane[k].dev == q->r->dev && w->lane[k].lane == q->lane)
			return k;
	l = EX_PUSH(w->lane, w->nlane, w->caplane);
	l->dev = q->r->dev;
	l->lane = q->lane;
	return k;
}

static uint32_t lane_loc(const struct writer *w, size_t k)
{
	return (uint32_t)(w->nth + (size_t)w->v->m->ncpu + k);
}

/* ---- errors ---- */

static int fail(struct writer *w, const char *what, OTF2_ErrorCode e)
{
	if (!w->err[0])
		snprintf(w->err, w->errlen, "OTF2: %s: %s", what,
			 OTF2_Error_GetDescription(e));
	return -1;
}

/* libotf2 prints its errors on stderr; the message of the failing call
 * is ours (fail()). */
static OTF2_ErrorCode quiet(void *data, const char *file, uint64_t line,
			    const char *func, OTF2_ErrorCode e,
			    const char *fmt, va_list va)
{
	(void)data, (void)file, (void)line, (void)func, (void)fmt, (void)va;
	return e;
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type,
				OTF2_LocationRef loc, void *caller, bool final)
{
	(void)data, (void)type, (void)loc, (void)caller, (void)final;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_cb = { .otf2_pre_flush = pre_flush };

/* ---- events ---- */

/* One Enter or Leave of a thread's location. */
struct rec {
	uint64_t ts;
	int leave;
	int depth;
	const struct tl_span *s;
};

/* Time order; at one time every Leave before any Enter, the innermost
 * Leave first and the outermost Enter first: regions nest. */
static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->leave != y->leave)
		return y->leave - x->leave;
	return x->leave ? y->depth - x->depth : x->depth - y->depth;
}

/* The waker of the state starting at iv, when the state before it (the
 * zero-length ones skipped, as the spans skip them) was a blocked one
 * ended by a thread; else -1. */
static int waker_of(const struct ex_model *m, const struct ex_thread *t,
		    const struct ex_interval *iv)
{
	size_t j = (size_t)(iv - t->iv);

	while (j > 0 && t->iv[j - 1].end <= t->iv[j - 1].start)
		j--;
	if (!j || t->iv[j - 1].state != ST_BLOCKED ||
	    ex_blocked_wake(m, t, &t->iv[j - 1]) != WK_THREAD)
		return -1;
	return t->iv[j - 1].waker_tid;
}

static uint32_t span_region(struct writer *w, const struct tl_span *s,
			    const uint32_t *state_reg)
{
	if (s->kind == TL_SYSCALL)
		return region_id(w, s->sys->name, OTF2_REGION_ROLE_FUNCTION,
				 "system call");
	return state_reg[s->iv->state];
}

static int thread_events(struct writer *w, uint32_t loc,
			 const uint32_t *state_reg)
{
	const struct ex_thread *t = w->th[loc];
	OTF2_EvtWriter *ew = OTF2_Archive_GetEvtWriter(w->ar, loc);
	struct tl_span *sp;
	struct rec *r;
	size_t n;
	int ret = 0;

	if (!ew)
		return fail(w, "event writer", OTF2_ERROR_MEM_ALLOC_FAILED);
	sp = tl_thread_spans(w->v, t, &n);
	r = ex_xcalloc(2 * n + 1, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		r[2 * i] = (struct rec){ sp[i].start, 0, sp[i].depth, &sp[i] };
		r[2 * i + 1] = (struct rec){ sp[i].end, 1, sp[i].depth, &sp[i] };
	}
	qsort(r, 2 * n, sizeof(*r), by_time);
	for (size_t i = 0; i < 2 * n && !ret; i++) {
		const struct tl_span *s = r[i].s;
		uint32_t reg = span_region(w, s, state_reg);
		OTF2_ErrorCode e;

		if (r[i].leave) {
			e = OTF2_EvtWriter_Leave(ew, NULL, r[i].ts, reg);
		} else {
			if (s->kind == TL_STATE && s->iv->state != ST_BLOCKED)
				OTF2_AttributeList_AddUint32(w->attrs, A_CPU,
							     (uint32_t)s->iv->cpu);
			if (s->kind == TL_STATE && waker_of(w->v->m, t, s->iv) > 0)
				OTF2_AttributeList_AddUint32(w->attrs, A_WAKER,
					(uint32_t)waker_of(w->v->m, t, s->iv));
			e = OTF2_EvtWriter_Enter(ew, w->attrs, r[i].ts, reg);
		}
		if (e != OTF2_SUCCESS)
			ret = fail(w, "thread event", e);
	}
	w->nevents[loc] = 2 * n;
	free(r);
	free(sp);
	if (OTF2_Archive_CloseEvtWriter(w->ar, ew) != OTF2_SUCCESS && !ret)
		ret = fail(w, "closing an event writer", OTF2_ERROR_FILE_INTERACTION);
	return ret;
}

static int cpu_events(struct writer *w, int cpu)
{
	const struct ex_model *m = w->v->m;
	const struct ex_cpu *c = &m->cpu[cpu];
	uint32_t loc = cpu_loc(w, cpu);
	OTF2_EvtWriter *ew = OTF2_Archive_GetEvtWriter(w->ar, loc);
	char name[EX_COMM_LEN + 16];
	int ret = 0;

	if (!ew)
		return fail(w, "event writer", OTF2_ERROR_MEM_ALLOC_FAILED);
	for (size_t i = 0; i < c->nsl && !ret; i++) {
		const struct ex_slice *s = &c->sl[i];
		uint32_t reg;

		if (s->tid <= 0 || s->end <= s->start)
			continue;
		snprintf(name, sizeof(name), "%s [%d]", ex_model_comm(m, s->tid),
			 s->tid);
		reg = region_id(w, name, OTF2_REGION_ROLE_ARTIFICIAL,
				"thread running on the CPU");
		if (OTF2_EvtWriter_Enter(ew, NULL, s->start, reg) != OTF2_SUCCESS ||
		    OTF2_EvtWriter_Leave(ew, NULL, s->end, reg) != OTF2_SUCCESS)
			ret = fail(w, "CPU event", OTF2_ERROR_FILE_INTERACTION);
		w->nevents[loc] += 2;
	}
	if (OTF2_Archive_CloseEvtWriter(w->ar, ew) != OTF2_SUCCESS && !ret)
		ret = fail(w, "closing an event writer", OTF2_ERROR_FILE_INTERACTION);
	return ret;
}

/* The requests of lane k, in their order (tl_requests(): by start; a lane's
 * next request starts when its last one ended, or later). */
static int lane_events(struct writer *w, size_t k)
{
	uint32_t loc = lane_loc(w, k);
	OTF2_EvtWriter *ew = OTF2_Archive_GetEvtWriter(w->ar, loc);
	char name[64];
	int ret = 0;

	if (!ew)
		return fail(w, "event writer", OTF2_ERROR_MEM_ALLOC_FAILED);
	for (size_t i = 0; i < w->nrq && !ret; i++) {
		const struct tl_request *q = &w->rq[i];
		uint32_t reg;

		if (q->r->dev != w->lane[k].dev || q->lane != w->lane[k].lane)
			continue;
		tl_request_name(q->r, name, sizeof(name));
		reg = region_id(w, name, OTF2_REGION_ROLE_ARTIFICIAL,
				"block request in flight: insert (or issue) to complete");
		OTF2_AttributeList_AddUint32(w->attrs, A_TID, (uint32_t)q->t->tid);
		OTF2_AttributeList_AddUint64(w->attrs, A_SECTOR, q->r->sector);
		if (OTF2_EvtWriter_Enter(ew, w->attrs, q->r->start, reg) != OTF2_SUCCESS ||
		    OTF2_EvtWriter_Leave(ew, NULL, q->r->end, reg) != OTF2_SUCCESS)
			ret = fail(w, "block request event", OTF2_ERROR_FILE_INTERACTION);
		w->nevents[loc] += 2;
	}
	if (OTF2_Archive_CloseEvtWriter(w->ar, ew) != OTF2_SUCCESS && !ret)
		ret = fail(w, "closing an event writer", OTF2_ERROR_FILE_INTERACTION);
	return ret;
}

static int markers(struct writer *w)
{
	const struct ex_model *m = w->v->m;
	OTF2_MarkerWriter *mw = OTF2_Archive_GetMarkerWriter(w->ar);
	const char **cat = NULL;
	char text[128];
	size_t ncat = 0, capcat = 0;
	int ret = 0;

	if (!mw)
		return fail(w, "marker writer", OTF2_ERROR_MEM_ALLOC_FAILED);
	for (size_t i = 0; i < m->nalerts && !ret; i++) {
		const struct ex_alert *a = &m->alerts[i];
		uint32_t loc = thread_loc(w, a->tid);
		size_t k;

		if (loc == OTF2_UNDEFINED_UINT32)
			continue;
		for (k = 0; k < ncat && strcmp(cat[k], a->tracker); k++)
			;
		if (k == ncat) {
			const char **slot = EX_PUSH(cat, ncat, capcat);

			*slot = a->tracker;
			if (OTF2_MarkerWriter_WriteDefMarker(mw, (uint32_t)k,
					"latency_tracker", a->tracker,
					OTF2_SEVERITY_HIGH) != OTF2_SUCCESS)
				ret = fail(w, "marker definition", OTF2_ERROR_FILE_INTERACTION);
		}
		snprintf(text, sizeof(text), "%s alert: %s [%d] delay %" PRIu64 " ns",
			 a->tracker, ex_model_comm(m, a->tid), a->tid, a->delay);
		if (!ret && OTF2_MarkerWriter_WriteMarker(mw, a->ts, 0, (uint32_t)k,
				OTF2_MARKER_SCOPE_LOCATION, loc, text) != OTF2_SUCCESS)
			ret = fail(w, "marker", OTF2_ERROR_FILE_INTERACTION);
	}
	free(cat);
	if (OTF2_Archive_CloseMarkerWriter(w->ar, mw) != OTF2_SUCCESS && !ret)
		ret = fail(w, "closing the marker writer", OTF2_ERROR_FILE_INTERACTION);
	return ret;
}

/* ---- definitions ---- */

static int local_defs(struct writer *w, size_t nloc)
{
	if (OTF2_Archive_OpenDefFiles(w->ar) != OTF2_SUCCESS)
		return fail(w, "definition files", OTF2_ERROR_FILE_INTERACTION);
	for (size_t i = 0; i < nloc; i++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(w->ar, i);

		if (!dw || OTF2_Archive_CloseDefWriter(w->ar, dw) != OTF2_SUCCESS)
			return fail(w, "local definitions", OTF2_ERROR_FILE_INTERACTION);
	}
	if (OTF2_Archive_CloseDefFiles(w->ar) != OTF2_SUCCESS)
		return fail(w, "definition files", OTF2_ERROR_FILE_INTERACTION);
	return 0;
}

static int global_defs(struct writer *w)
{
	const struct tl_view *v = w->v;
	const struct ex_model *m = v->m;
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->ar);
	uint32_t machine, cpu_class, ncpu = (uint32_t)m->ncpu;
	uint32_t *gname, *lname, *cname, *pdesc, *grp, ngrp = 0;
	uint32_t a_cpu[2], a_waker[2], a_tid[2], a_sector[2];
	uint32_t *dname, *lnname, ndisk = 0, *dgrp;
	char buf[EX_COMM_LEN + 24];
	int ret = 0;

	if (!g)
		return fail(w, "global definitions", OTF2_ERROR_MEM_ALLOC_FAILED);
	/* Every string first: the definitions below refer to them. */
	machine = str_id(w, "machine");
	cpu_class = str_id(w, "cpu");
	a_cpu[0] = str_id(w, "cpu");
	a_cpu[1] = str_id(w, "running: the CPU; runnable: the CPU it waited for");
	a_waker[0] = str_id(w, "waker_tid");
	a_waker[1] = str_id(w, "the thread whose waking ended the blocked state before");
	a_tid[0] = str_id(w, "tid");
	a_tid[1] = str_id(w, "the thread that submitted the block request");
	a_sector[0] = str_id(w, "sector");
	a_sector[1] = str_id(w, "the block request's first sector");
	gname = ex_xcalloc(w->nth + 1, sizeof(*gname));
	lname = ex_xcalloc(w->nth + 1, sizeof(*lname));
	cname = ex_xcalloc(ncpu + 1, sizeof(*cname));
	pdesc = ex_xcalloc(w->nreg + 1, sizeof(*pdesc));
	grp = ex_xcalloc(w->nth + 1, sizeof(*grp));
	for (size_t i = 0; i < w->nth; i++) {
		const struct ex_thread *t = w->th[i];

		snprintf(buf, sizeof(buf), "%s [%d]", tl_process_name(v, tl_pid(t)),
			 tl_pid(t));
		gname[i] = str_id(w, buf);
		snprintf(buf, sizeof(buf), "%s [%d]", t->comm[0] ? t->comm : "?",
			 t->tid);
		lname[i] = str_id(w, buf);
	}
	for (uint32_t c = 0; c < ncpu; c++) {
		snprintf(buf, sizeof(buf), "CPU %u", c);
		cname[c] = str_id(w, buf);
	}
	/* Disks: a location group per disk (numbered in the order of their
	 * first lane), a location per lane. */
	dname = ex_xcalloc(w->nlane + 1, sizeof(*dname));
	lnname = ex_xcalloc(w->nlane + 1, sizeof(*lnname));
	dgrp = ex_xcalloc(w->nlane + 1, sizeof(*dgrp));
	for (size_t k = 0; k < w->nlane; k++) {
		size_t first = k;

		snprintf(buf, sizeof(buf), "disk %u:%u", ex_dev_major(w->lane[k].dev),
			 ex_dev_minor(w->lane[k].dev));
		dname[k] = str_id(w, buf);
		snprintf(buf, sizeof(buf), "disk %u:%u lane %d",
			 ex_dev_major(w->lane[k].dev), ex_dev_minor(w->lane[k].dev),
			 w->lane[k].lane);
		lnname[k] = str_id(w, buf);
		for (size_t j = 0; j < k && first == k; j++)
			if (w->lane[j].dev == w->lane[k].dev)
				first = j;
		dgrp[k] = first < k ? dgrp[first] : ndisk++;
	}
	for (size_t i = 0; i < w->nreg; i++)
		pdesc[i] = str_id(w, w->reg[i].desc);

	ret |= OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000ULL,
			v->start, v->end - v->start + 1, OTF2_UNDEFINED_TIMESTAMP);
	for (size_t i = 0; i < w->nstr; i++)
		ret |= OTF2_GlobalDefWriter_WriteString(g, (uint32_t)i, w->str[i]);
	ret |= OTF2_GlobalDefWriter_WriteAttribute(g, A_CPU, a_cpu[0], a_cpu[1],
						   OTF2_TYPE_UINT32);
	ret |= OTF2_GlobalDefWriter_WriteAttribute(g, A_WAKER, a_waker[0],
						   a_waker[1], OTF2_TYPE_UINT32);
	ret |= OTF2_GlobalDefWriter_WriteAttribute(g, A_TID, a_tid[0], a_tid[1],
						   OTF2_TYPE_UINT32);
	ret |= OTF2_GlobalDefWriter_WriteAttribute(g, A_SECTOR, a_sector[0],
						   a_sector[1], OTF2_TYPE_UINT64);
	ret |= OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, machine, machine,
			OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (uint32_t c = 0; c < ncpu; c++)
		ret |= OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 1 + c, cname[c],
				cpu_class, 0);
	/* Location groups, numbered in order: one per process, then one per
	 * CPU, then one per disk; then the locations. */
	for (size_t i = 0; i < w->nth; i++) {
		size_t first = i;

		/* w->th: the shown threads, in the model's order. */
		for (size_t j = 0; j < i && first == i; j++)
			if (tl_pid(w->th[j]) == tl_pid(w->th[i]))
				first = j;
		if (first < i) {
			grp[i] = grp[first];
			continue;
		}
		grp[i] = ngrp++;
		ret |= OTF2_GlobalDefWriter_WriteLocationGroup(g, grp[i], gname[i],
				OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
				OTF2_UNDEFINED_LOCATION_GROUP);
	}
	for (uint32_t c = 0; c < ncpu; c++)
		ret |= OTF2_GlobalDefWriter_WriteLocationGroup(g, ngrp + c, cname[c],
				OTF2_LOCATION_GROUP_TYPE_PROCESS, 1 + c,
				OTF2_UNDEFINED_LOCATION_GROUP);
	for (size_t k = 0; k < w->nlane; k++)
		if (!k || dgrp[k] > dgrp[k - 1])	/* a disk's first lane */
			ret |= OTF2_GlobalDefWriter_WriteLocationGroup(g,
					ngrp + ncpu + dgrp[k], dname[k],
					OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
					OTF2_UNDEFINED_LOCATION_GROUP);
	for (size_t i = 0; i < w->nth; i++)
		ret |= OTF2_GlobalDefWriter_WriteLocation(g, i, lname[i],
				OTF2_LOCATION_TYPE_CPU_THREAD, w->nevents[i], grp[i]);
	for (uint32_t c = 0; c < ncpu; c++)
		ret |= OTF2_GlobalDefWriter_WriteLocation(g, cpu_loc(w, (int)c),
				cname[c], OTF2_LOCATION_TYPE_CPU_THREAD,
				w->nevents[cpu_loc(w, (int)c)], ngrp + c);
	for (size_t k = 0; k < w->nlane; k++)
		ret |= OTF2_GlobalDefWriter_WriteLocation(g, lane_loc(w, k),
				lnname[k], OTF2_LOCATION_TYPE_CPU_THREAD,
				w->nevents[lane_loc(w, k)], ngrp + ncpu + dgrp[k]);
	for (size_t i = 0; i < w->nreg; i++)
		ret |= OTF2_GlobalDefWriter_WriteRegion(g, (uint32_t)i,
				w->reg[i].name, w->reg[i].name, pdesc[i],
				w->reg[i].role, OTF2_PARADIGM_NONE,
				OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0);
	free(gname);
	free(lname);
	free(cname);
	free(pdesc);
	free(grp);
	free(dname);
	free(lnname);
	free(dgrp);
	return ret ? fail(w, "global definitions", OTF2_ERROR_FILE_INTERACTION) : 0;
}

/* ---- the archive ---- */

static int write_all(struct writer *w)
{
	const struct ex_model *m = w->v->m;
	uint32_t state_reg[3];		/* by enum ex_state */
	size_t nloc;

	state_reg[ST_RUNNING] = region_id(w, "running", OTF2_REGION_ROLE_ARTIFICIAL,
					  "running on a CPU");
	state_reg[ST_RUNNABLE] = region_id(w, "runnable", OTF2_REGION_ROLE_ARTIFICIAL,
					   "runnable: waiting for a CPU");
	state_reg[ST_BLOCKED] = region_id(w, "blocked", OTF2_REGION_ROLE_ARTIFICIAL,
					  "blocked: waiting (sleep, lock, I/O)");
	w->rq = tl_requests(w->v, &w->nrq);
	for (size_t i = 0; i < w->nrq; i++)
		lane_index(w, &w->rq[i]);
	nloc = w->nth + (size_t)m->ncpu + w->nlane;
	w->nevents = ex_xcalloc(nloc + 1, sizeof(*w->nevents));
	if (OTF2_Archive_SetFlushCallbacks(w->ar, &flush_cb, NULL) != OTF2_SUCCESS ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(w->ar) != OTF2_SUCCESS ||
	    OTF2_Archive_SetCreator(w->ar, "latency-tracker timeline") != OTF2_SUCCESS ||
	    OTF2_Archive_OpenEvtFiles(w->ar) != OTF2_SUCCESS)
		return fail(w, "opening the archive", OTF2_ERROR_FILE_INTERACTION);
	for (size_t i = 0; i < w->nth; i++)
		if (thread_events(w, (uint32_t)i, state_reg))
			return -1;
	for (int c = 0; c < m->ncpu; c++)
		if (cpu_events(w, c))
			return -1;
	for (size_t k = 0; k < w->nlane; k++)
		if (lane_events(w, k))
			return -1;
	if (OTF2_Archive_CloseEvtFiles(w->ar) != OTF2_SUCCESS)
		return fail(w, "event files", OTF2_ERROR_FILE_INTERACTION);
	if (markers(w) || local_defs(w, nloc) || global_defs(w))
		return -1;
	return 0;
}

int tl_write_otf2(const char *dir, const char *name, const struct tl_view *v,
		  char *err, size_t errlen)
{
	struct writer w = { .v = v, .err = err, .errlen = errlen };
	const struct ex_model *m = v->m;
	int ret;

	err[0] = '\0';
	for (size_t i = 0; i < m->nth; i++) {
		const struct ex_thread **slot;

		if (!tl_shown(v, m->th[i]))
			continue;
		slot = EX_PUSH(w.th, w.nth, w.capth);
		*slot = m->th[i];
	}
	OTF2_Error_RegisterCallback(quiet, NULL);
	w.ar = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
				 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!w.ar) {
		snprintf(err, errlen, "OTF2: cannot create the archive %s/%s", dir, name);
		ret = -1;
	} else {
		w.attrs = OTF2_AttributeList_New();
		ret = write_all(&w);
		OTF2_AttributeList_Delete(w.attrs);
		if (OTF2_Archive_Close(w.ar) != OTF2_SUCCESS && !ret)
			ret = fail(&w, "closing the archive", OTF2_ERROR_FILE_INTERACTION);
	}
	for (size_t i = 0; i < w.nstr; i++)
		free(w.str[i]);
	free(w.str);
	free(w.hash);
	free(w.reg);
	free(w.reg_of);
	free(w.th);
	free(w.rq);
	free(w.lane);
	free(w.nevents);
	return ret;
}
