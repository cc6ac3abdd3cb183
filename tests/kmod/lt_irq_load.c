// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_irq_load.c - test-only interrupt load on one CPU, for as long as the
 * module is loaded: every `period_us`, a pinned hard-irq hrtimer (the
 * local APIC timer's vector) schedules a tasklet that spins `softirq_us`
 * (TASKLET softirq: in interrupt context, or a thread on PREEMPT_RT),
 * spins `irq_us` in its callback, then raises a device interrupt of its
 * own whose handler, "lt_slow_handler", spins `handler_us` (an interrupt
 * of a one-line irq domain with no hardware, handled right there, never
 * threaded: irq_handler_entry/exit as for a device).  The counts are printed
 * at unload.  Used by wakeup-breakdown.sh and irq.sh.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/smp.h>

#include <latency_tracker_compat.h>

static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the CPU loaded (default 1)");
static uint period_us = 5000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "period of the load, us (default 5000)");
static uint irq_us;
module_param(irq_us, uint, 0444);
MODULE_PARM_DESC(irq_us, "spin in the hard interrupt, us (default 0)");
static uint softirq_us;
module_param(softirq_us, uint, 0444);
MODULE_PARM_DESC(softirq_us, "spin in the tasklet, us (default 0: none)");

static uint handler_us;
module_param(handler_us, uint, 0444);
MODULE_PARM_DESC(handler_us, "spin in the device interrupt handler, us (default 0: none)");

static struct hrtimer lt_load_timer;
static struct fwnode_handle *lt_load_fwnode;
static struct irq_domain *lt_load_domain;
static unsigned int lt_load_virq;
static unsigned long lt_load_handlers;
static struct tasklet_struct lt_load_tasklet;
static bool lt_load_stopping;
static unsigned long lt_load_irqs, lt_load_softirqs;

static void lt_load_spin(uint us)
{
	u64 end = ktime_get_mono_fast_ns() + (u64)us * NSEC_PER_USEC;

	while (ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

static void lt_load_tasklet_fn(struct tasklet_struct *t)
{
	lt_load_spin(softirq_us);
	lt_load_softirqs++;
}

static irqreturn_t lt_load_handler(int irq, void *dev)
{
	lt_load_spin(handler_us);
	lt_load_handlers++;
	return IRQ_HANDLED;
}

static enum hrtimer_restart lt_load_timer_fn(struct hrtimer *t)
{
	if (READ_ONCE(lt_load_stopping))
		return HRTIMER_NORESTART;
	/* Raised first: it waits for the spins below (softirq latency). */
	if (softirq_us)
		tasklet_schedule(&lt_load_tasklet);
	lt_load_spin(irq_us);
	lt_load_irqs++;
	if (lt_load_virq)
		generic_handle_irq(lt_load_virq);
	hrtimer_forward_now(t, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* On the loaded CPU: a pinned timer fires there. */
static void lt_load_start(void *unused)
{
	hrtimer_start(&lt_load_timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* The device interrupt: one line of an irq domain of our own. */
static int lt_load_irq_add(void)
{
	int ret = -ENOMEM;

	lt_load_fwnode = irq_domain_alloc_named_fwnode("lt_irq_load");
	if (!lt_load_fwnode)
		return -ENOMEM;
	lt_load_domain = irq_domain_create_linear(lt_load_fwnode, 1,
						  &irq_domain_simple_ops, NULL);
	if (!lt_load_domain)
		goto err_fwnode;
	lt_load_virq = irq_create_mapping(lt_load_domain, 0);
	if (!lt_load_virq)
		goto err_domain;
	irq_set_chip_and_handler(lt_load_virq, &dummy_irq_chip,
				 handle_simple_irq);
	/* Never threaded, on PREEMPT_RT too: a handler in hard irq context. */
	ret = request_irq(lt_load_virq, lt_load_handler, IRQF_NO_THREAD,
			  "lt_slow_handler", NULL);
	if (ret)
		goto err_mapping;
	return 0;

err_mapping:
	irq_dispose_mapping(lt_load_virq);
	lt_load_virq = 0;
err_domain:
	irq_domain_remove(lt_load_domain);
err_fwnode:
	irq_domain_free_fwnode(lt_load_fwnode);
	return ret;
}

static void lt_load_irq_del(void)
{
	if (!lt_load_virq)
		return;
	free_irq(lt_load_virq, NULL);
	irq_dispose_mapping(lt_load_virq);
	irq_domain_remove(lt_load_domain);
	irq_domain_free_fwnode(lt_load_fwnode);
	lt_load_virq = 0;
}

static int __init lt_load_init(void)
{
	int ret;

	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu) ||
	    period_us < 100 || irq_us + handler_us >= period_us ||
	    softirq_us >= period_us) {
		pr_err("invalid parameters (cpu online, period_us >= 100, spins shorter than the period)\n");
		return -EINVAL;
	}
	tasklet_setup(&lt_load_tasklet, lt_load_tasklet_fn);
	if (handler_us) {
		ret = lt_load_irq_add();
		if (ret)
			return ret;
	}
	lt_hrtimer_setup(&lt_load_timer, lt_load_timer_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
	ret = smp_call_function_single(cpu, lt_load_start, NULL, 1);
	if (ret) {
		lt_load_irq_del();
		return ret;
	}
	pr_info("cpu %d: every %u us, %u us in the timer interrupt, %u us in irq %u's handler, %u us in a tasklet\n",
		cpu, period_us, irq_us, lt_load_virq, handler_us, softirq_us);
	return 0;
}

static void __exit lt_load_exit(void)
{
	WRITE_ONCE(lt_load_stopping, true);
	hrtimer_cancel(&lt_load_timer);
	tasklet_kill(&lt_load_tasklet);
	lt_load_irq_del();
	pr_info("done: %lu timer interrupts, %lu handler runs, %lu tasklets\n",
		lt_load_irqs, lt_load_handlers, lt_load_softirqs);
}

module_init(lt_load_init);
module_exit(lt_load_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latency-tracker tests: interrupt and softirq load on one CPU");
