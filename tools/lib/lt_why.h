/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_why.h - where a record's delay went, in words: its breakdown fields
 * (docs/design.md, "Breakdown fields"; the application records' too) as
 * shares of the delay, largest first, each with its largest contributor
 * where the record names one:
 *
 *	thread 95% lt_hog:425, irq 3% local_timer, softirq 1% RCU
 *	blocked 97% read, runnable 2%, on CPU 1%
 */
#ifndef LT_WHY_H
#define LT_WHY_H

#include <stddef.h>
#include <stdint.h>

#include "lt_record.h"

/*
 * Write the words into buf (always NUL-terminated when size > 0).
 * Returns 0, or -1 when the record has no breakdown (no such fields, or
 * all zero: a timeout's) and buf is left empty.  Parts under 1% of the
 * delay are left out.
 */
int lt_why(const struct lt_record *r, char *buf, size_t size);

/* The kinds of time a breakdown holds (thread, irq, ... on_cpu). */
#define LT_WHY_KINDS	8

/* The name of kind k (< LT_WHY_KINDS): its field's, without "_ns". */
const char *lt_why_kind(size_t k);

/*
 * Add the record's parts to ns[], by kind; returns 1 if it had any
 * breakdown field, else 0.
 */
int lt_why_add(const struct lt_record *r, uint64_t ns[LT_WHY_KINDS]);

#endif /* LT_WHY_H */
