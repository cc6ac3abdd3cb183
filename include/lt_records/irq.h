/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/irq.h - the irq tracker's alert record (see record.h): what
 * took long (kind: a hard interrupt handler's run, a softirq's run, or a
 * softirq's wait from its first raise to its run), the CPU, and for a
 * hard interrupt its number (none for an x86 vector without a handler of
 * its own) and its handler's name (the vector's for those), for a softirq
 * its vector.  No cgroup: no task of interest in interrupt context.
 */
#ifndef _LT_RECORDS_IRQ_H
#define _LT_RECORDS_IRQ_H

#include "record.h"

#define LT_IRQ_KIND_HARDIRQ		0
#define LT_IRQ_KIND_SOFTIRQ		1
#define LT_IRQ_KIND_SOFTIRQ_LATENCY	2

#define LT_IRQ_KINDS(X)							\
	X(LT_IRQ_KIND_HARDIRQ, "hardirq")				\
	X(LT_IRQ_KIND_SOFTIRQ, "softirq")				\
	X(LT_IRQ_KIND_SOFTIRQ_LATENCY, "softirq_latency")		\
	X(3, "?")

LT_REC_ENUM_NAME_FN(lt_irq_kind_name, LT_IRQ_KINDS)

#define LT_IRQ_RECORD(X)						\
	X(ENUM, kind, lt_irq_kind_name)					\
	X(INT, cpu)							\
	X(OINT, irq)							\
	X(ONAME, name)							\
	X(OENUM, vec, lt_softirq_name)

/* Fields of the irq tracepoint that are not in the record. */
#define LT_IRQ_TRACE_ONLY(X)	/* none */

struct lt_irq_record {
	LT_IRQ_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_IRQ_H */
