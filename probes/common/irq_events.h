/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irq_events.h - the interrupt tracepoints' declarations, for the type
 * checks of the probes on them (LT_PROBE_TPS): device interrupt handlers
 * and softirqs (<trace/events/irq.h>) and, where they exist
 * (LT_HAVE_IRQ_VECTORS, latency_tracker_compat.h), the x86 vectors
 * without a handler of their own.
 */
#ifndef _LT_IRQ_EVENTS_H
#define _LT_IRQ_EVENTS_H

#include <linux/interrupt.h>
#include <trace/events/irq.h>

#include <latency_tracker_compat.h>
#ifdef LT_HAVE_IRQ_VECTORS
#include <asm/trace/irq_vectors.h>
#endif

#endif /* _LT_IRQ_EVENTS_H */
