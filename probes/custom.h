/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * custom.h - what the parts of latency_tracker_custom share: a custom
 * tracker (custom.c: definitions, records, reports) and its ends
 * (custom_probes.c: kprobes, kretprobes, tracepoints).  See custom.c for
 * the design and the synchronisation.
 */
#ifndef _LT_CUSTOM_H
#define _LT_CUSTOM_H

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/siphash.h>
#include <linux/tracepoint.h>

#include "custom_def.h"
#include "common/probe.h"

struct lt_custom;
struct module;

/**
 * struct lt_custom_end - one end of a custom tracker, as attached
 * @c: the tracker.
 * @kind: kprobe, kretprobe or tracepoint.
 * @key: how the end finds the key (a copy of the definition's).
 * @starts: the end starts events (else it ends them); for a fn= tracker's
 *	kretprobe, its return ends them and its entry handler starts them.
 * @attached: registered (kprobe, kretprobe) or attached (tracepoint).
 * @kp: the kprobe of a kprobe end.
 * @rp: the kretprobe of a kretprobe end (and of fn=).
 * @tp: the tracepoint of a tracepoint end, once resolved.
 */
struct lt_custom_end {
	struct lt_custom *c;
	enum lt_custom_probe_kind kind;
	struct lt_custom_key key;
	bool starts;
	bool attached;
	union {
		struct kprobe kp;
		struct kretprobe rp;
		struct tracepoint *tp;
	};
};

/*
 * The slots of a tracker's stack reports (stack=1 only), with the way
 * back from a report to its tracker.
 */
struct lt_custom_reports {
	struct lt_reports rs;
	struct lt_custom *c;
};

/**
 * struct lt_custom - a custom tracker
 * @list: on the definition list (custom.c), under its mutex.
 * @def: the definition, as parsed.
 * @probe: the standard tracker and its filters (the probe layer, common/).
 * @ends: the ends: [0] the in end, [1] the out end; a fn= tracker has one
 *	end, [0], its kretprobe.
 * @nr_ends: 1 or 2.
 * @hash_key: the key of the keyed hash that records show for keys that are
 *	not task ids (random, drawn at definition).
 * @reports: the stack reports, stack=1 only (else NULL).
 * @key_faults: argN+OFF reads that faulted (the event was not started or
 *	ended).
 * @nmi_missed: hits in NMI context, where the core cannot run (skipped).
 * @gone: a module that held one of its ends unloaded: the ends are
 *	detached and tracking is off for good.
 */
struct lt_custom {
	struct list_head list;
	struct lt_custom_def def;
	struct lt_probe probe;
	struct lt_custom_end ends[2];
	unsigned int nr_ends;
	siphash_key_t hash_key;
	struct lt_custom_reports *reports;
	atomic_long_t key_faults;
	atomic_long_t nmi_missed;
	bool gone;
};

/* Private data of an event: the task at the in end. */
struct lt_custom_priv {
	u64 cgroup;
	pid_t pid;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
};

int lt_custom_attach(struct lt_custom *c);
void lt_custom_detach(struct lt_custom *c);
bool lt_custom_in_module(const struct lt_custom *c, const struct module *mod);
unsigned long lt_custom_missed(const struct lt_custom *c);

#endif /* _LT_CUSTOM_H */
