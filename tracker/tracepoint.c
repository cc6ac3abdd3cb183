// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracepoint.c - attaching probes to kernel tracepoints by name.
 *
 * The scheduler, syscall and block tracepoints are not exported to
 * modules, so their struct tracepoint is found by walking the kernel's
 * tracepoint table (for_each_kernel_tracepoint()) and matching the name.
 */
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "core.h"

struct lt_tp_lookup {
	const char *name;
	struct tracepoint *found;
};

static void lt_tp_match(struct tracepoint *tp, void *priv)
{
	struct lt_tp_lookup *l = priv;

	if (!l->found && !strcmp(tp->name, l->name))
		l->found = tp;
}

static struct tracepoint *lt_tp_find(const char *name)
{
	struct lt_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(lt_tp_match, &l);
	return l.found;
}

/**
 * latency_tracker_tp_detach() - unregister probes and wait for them
 * @tps: the table given to latency_tracker_tp_attach().
 * @n: number of entries.
 *
 * Unregisters the attached entries from the last to the first, the
 * reverse of the order latency_tracker_tp_attach() registers them in:
 * the entries still attached are always a prefix of the table, so what a
 * tracker attaches first (e.g. the probe that clears per-task state the
 * later ones fill) stays attached as long as any later one.  Then waits
 * until no probe of the table can still be running
 * (tracepoint_synchronize_unregister()), so the caller may free what its
 * probes use.  Entries not attached are skipped.
 *
 * Context: process context, sleeps.
 */
void latency_tracker_tp_detach(struct latency_tracker_tp *tps, unsigned int n)
{
	bool any = false;
	unsigned int i;

	for (i = n; i-- > 0;) {
		if (!tps[i].tp)
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(tps[i].tp, tps[i].probe,
							 tps[i].data));
		tps[i].tp = NULL;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();
}
EXPORT_SYMBOL_GPL(latency_tracker_tp_detach);

/**
 * latency_tracker_tp_attach() - register probes on tracepoints by name
 * @tps: table of {name, probe, data}; each tp field is filled.
 * @n: number of entries.
 *
 * Registers the entries in the order of the table.  Attaches all
 * entries or none: on a failure, the entries already attached are
 * detached again (latency_tracker_tp_detach(), last first), and one error
 * line names the tracepoint that is missing or refused.
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOENT when a tracepoint does not exist in this kernel, or
 * the error of tracepoint_probe_register().
 */
int latency_tracker_tp_attach(struct latency_tracker_tp *tps, unsigned int n)
{
	struct tracepoint *tp;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++)
		tps[i].tp = NULL;
	for (i = 0; i < n; i++) {
		tp = lt_tp_find(tps[i].name);
		if (!tp) {
			pr_err("latency_tracker: tracepoint %s not found in this kernel\n",
			       tps[i].name);
			ret = -ENOENT;
			goto unwind;
		}
		ret = tracepoint_probe_register(tp, tps[i].probe, tps[i].data);
		if (ret) {
			pr_err("latency_tracker: cannot attach to tracepoint %s: %d\n",
			       tps[i].name, ret);
			goto unwind;
		}
		tps[i].tp = tp;
	}
	return 0;

unwind:
	latency_tracker_tp_detach(tps, i);
	return ret;
}
EXPORT_SYMBOL_GPL(latency_tracker_tp_attach);
