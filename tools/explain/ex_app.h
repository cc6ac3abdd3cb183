/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_app.h - "the application" of the application-wide views (the lock
 * view, GAPP's criticality): a set of processes, given by --pid and
 * --comm (struct ex_opts), or by default the process of the explained
 * thread.
 */
#ifndef LT_EX_APP_H
#define LT_EX_APP_H

#include <stdbool.h>

#include "ex_model.h"

/* The longest thread name (the kernel's TASK_COMM_LEN - 1). */
#define EX_APP_COMM_MAX 15

struct ex_app {
	const int *pids;	/* --pid: npids of them */
	int npids;
	const char *comm;	/* --comm, or NULL */
	int pid;		/* default: this process (when neither above) */
};

/* The process of thread tid (its tgid, or tid itself when unknown). */
int ex_app_pid_of(const struct ex_model *m, int tid);
/* Is thread t part of the application? */
bool ex_app_has(const struct ex_model *m, const struct ex_app *a,
		const struct ex_thread *t);

#endif /* LT_EX_APP_H */
