// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_selftest_bad.c - a deliberately broken module for the harness
 * self-test: loading it with mode=oops dereferences a bad pointer, with
 * mode=warn it triggers a WARN, with mode=wedge every CPU spins forever
 * with interrupts off (a guest that prints nothing more and never ends).
 * tests/vm/selftest.sh checks that the harness reports each as a failure.
 * Never installed.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/processor.h>
#include <linux/smp.h>
#include <linux/string.h>

static char *mode = "none";
module_param(mode, charp, 0400);
MODULE_PARM_DESC(mode, "oops | warn | wedge | none");

/* Never returns: no timer tick, so not even a soft lockup report. */
static void lt_selftest_spin(void *unused)
{
	local_irq_disable();
	for (;;)
		cpu_relax();
}

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
	WARN(!strcmp(mode, "warn"), "lt_selftest_bad: deliberate warning\n");
	return 0;
}

static void __exit lt_selftest_bad_exit(void)
{
}

module_init(lt_selftest_bad_init);
module_exit(lt_selftest_bad_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latency-tracker harness self-test: a module that oopses, warns or wedges");
