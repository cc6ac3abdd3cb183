// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_selftest_bad.c - a deliberately broken module for the harness
 * self-test.  Its mode parameter says how it misbehaves:
 *   oops           dereferences a bad pointer while loading;
 *   warn           WARNs while loading;
 *   deferred-warn  WARNs from a work item 1.5 s after it loaded,
 *                  when the test that loaded it has already ended;
 *   exit-warn      WARNs while it is unloaded;
 *   wedge          spins forever on every CPU with interrupts off (a guest
 *                  that prints nothing more and never ends).
 * tests/vm/selftest.sh checks that the harness reports each as a failure.
 * Never installed.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/processor.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/workqueue.h>

static char *mode = "none";
module_param(mode, charp, 0400);
MODULE_PARM_DESC(mode, "oops | warn | deferred-warn | exit-warn | wedge | none");

#define LT_SELFTEST_LATE_MS 1500

/* Never returns: no timer tick, so not even a soft lockup report. */
static void lt_selftest_spin(void *unused)
{
	local_irq_disable();
	for (;;)
		cpu_relax();
}

static void lt_selftest_late_warn(struct work_struct *work)
{
	WARN(1, "lt_selftest_bad: deliberate deferred warning\n");
}

static DECLARE_DELAYED_WORK(lt_selftest_late, lt_selftest_late_warn);

static int __init lt_selftest_bad_init(void)
{
	if (!strcmp(mode, "oops")) {
		/* An address no kernel mapping covers: a certain Oops. */
		int *bad = (int *)0x10;

		return READ_ONCE(*bad);
	}
	if (!strcmp(mode, "wedge")) {
		smp_call_function(lt_selftest_spin, NULL, 0);
		lt_selftest_spin(NULL);
	}
	if (!strcmp(mode, "deferred-warn"))
		schedule_delayed_work(&lt_selftest_late,
				      msecs_to_jiffies(LT_SELFTEST_LATE_MS));
	WARN(!strcmp(mode, "warn"), "lt_selftest_bad: deliberate warning\n");
	return 0;
}

static void __exit lt_selftest_bad_exit(void)
{
	/* A no-op unless deferred-warn queued it and it has not run yet. */
	cancel_delayed_work_sync(&lt_selftest_late);
	WARN(!strcmp(mode, "exit-warn"),
	     "lt_selftest_bad: deliberate warning on unload\n");
}

module_init(lt_selftest_bad_init);
module_exit(lt_selftest_bad_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latency-tracker harness self-test: a module that oopses, warns or wedges");
