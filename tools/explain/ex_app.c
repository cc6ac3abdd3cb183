// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_app.c - membership of a thread in the application (ex_app.h).  With
 * --comm, a process belongs when any of its threads bears the name (the
 * workers of a pool often rename themselves; their process is the same).
 */
#include <string.h>

#include "ex_app.h"

int ex_app_pid_of(const struct ex_model *m, int tid)
{
	const struct ex_thread *t = ex_model_thread(m, tid);

	return t && t->pid > 0 ? t->pid : tid;
}

static bool comm_in_process(const struct ex_model *m, int pid, const char *comm)
{
	for (size_t i = 0; i < m->nth; i++) {
		const struct ex_thread *t = m->th[i];

		if ((t->pid > 0 ? t->pid : t->tid) == pid &&
		    !strcmp(t->comm, comm))
			return true;
	}
	return false;
}

bool ex_app_has(const struct ex_model *m, const struct ex_app *a,
		const struct ex_thread *t)
{
	int pid = t->pid > 0 ? t->pid : t->tid;

	if (t->tid <= 0)
		return false;
	if (!a->npids && !a->comm)
		return pid == a->pid;
	for (int i = 0; i < a->npids; i++)
		if (a->pids[i] == pid)
			return true;
	return a->comm && comm_in_process(m, pid, a->comm);
}
