/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_classify.h - where the slow thread's time went, classified after GAPP
 * (thesis chapter 3): its state breakdown (running / runnable / blocked,
 * per system call), the waiting time by class (synchronisation, I/O, CPU
 * contention, timers and sleeps, unknown) with the detail of each cause
 * (the synchronisation object and its evidence (ex_sync.h), file name,
 * disk, CPU).  The lock view is the application's (ex_lockview.h).  Also the per-execution features of the comparison (DepGraph IV-A).
 */
#ifndef LT_EX_CLASSIFY_H
#define LT_EX_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "ex_model.h"

enum ex_class { C_RUNNING, C_SYNC, C_IO, C_CPU, C_TIMER, C_UNKNOWN, C_NCLASS };

struct ex_ctx_time {		/* one context: a syscall or user space */
	char name[EX_NAME_LEN];
	uint64_t ns[3];		/* by enum ex_state */
	uint64_t count;		/* calls with time in the interval (as the
				 * graph's context edges count them) */
};

struct ex_cause {
	enum ex_class cls;
	char what[EX_PATH_LEN + 256];
	char evidence[EX_PATH_LEN + 256]; /* synchronisation: why (first wait) */
	uint64_t ns, count;
};

struct ex_class_report {
	int tid;
	uint64_t start, end;
	uint64_t state_ns[3];
	struct ex_ctx_time *ctx;
	size_t nctx, cap_ctx;
	uint64_t class_ns[C_NCLASS], class_count[C_NCLASS];
	struct ex_cause *causes;	/* heaviest first */
	size_t ncauses, cap_causes;
	uint64_t faults, bytes_read, bytes_written, syscalls;
};

/*
 * What ended a blocked interval of t (or ends it, when still open), as the
 * classification and the dependency graph read it: iv->wake, but a sleep
 * system call waits for its timer unless a thread woke it.
 */
enum ex_wake ex_blocked_wake(const struct ex_model *m, const struct ex_thread *t,
			     const struct ex_interval *iv);

/* Classify tid's time over [s, e). */
void ex_classify(const struct ex_model *m, int tid, uint64_t s, uint64_t e,
		 struct ex_class_report *r);
void ex_class_report_free(struct ex_class_report *r);

const char *ex_class_name(enum ex_class c);
const char *ex_state_name(enum ex_state s);

#endif /* LT_EX_CLASSIFY_H */
