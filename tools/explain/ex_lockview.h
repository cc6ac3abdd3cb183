/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_lockview.h - the application-wide lock view (GAPP's lock page): every
 * lock (futex, file lock, semaphore: ex_sync.h) that threads of the
 * application (ex_app.h) waited on in the snapshot, with its total and
 * longest wait, its waits and waiters, and its releasers -- the threads
 * whose wakings ended the waits -- with how long each held the lock before
 * releasing it and how long it ran meanwhile.  Sorted by total wait.
 *
 * Held: from the releaser's acquisition of that lock -- its last call on
 * the same lock before the release that acquires it (a futex wait or PI
 * lock; fcntl/flock on the same file; semop on the same set) -- to the
 * release (the waking).  A lock taken without a system call (an
 * uncontended futex) shows no acquisition: held is then counted from the
 * start of the wait it ended, a lower bound (the lock was held then), and
 * said so (held_exact < releases).
 */
#ifndef LT_EX_LOCKVIEW_H
#define LT_EX_LOCKVIEW_H

#include <stdio.h>

#include "ex_app.h"
#include "ex_model.h"
#include "ex_sync.h"

struct ex_lv_waiter {
	int tid;
	uint64_t ns, count, max_ns;
};

struct ex_lv_releaser {
	int tid;
	uint64_t ns;		/* the waits its releases ended */
	uint64_t releases;	/* distinct releases (one may wake several) */
	uint64_t held_ns, held_max_ns;
	uint64_t held_exact;	/* releases whose acquisition was seen */
	uint64_t ran_ns;	/* its running time while holding */
	uint64_t last_release;	/* building: the last release counted */
};

struct ex_lv_lock {
	enum ex_sync_kind kind;
	char key[EX_SYNC_TEXT], label[EX_SYNC_TEXT];
	int64_t uaddr;		/* futex address, -1 otherwise */
	uint64_t ns, max_ns, count;
	uint64_t unreleased_ns;	/* waits no thread ended (timeout, trace end) */
	struct ex_lv_waiter *waiters;		/* most waiting first */
	size_t nwaiters, cap_waiters;
	struct ex_lv_releaser *releasers;	/* most released first */
	size_t nreleasers, cap_releasers;
};

struct ex_lockview {
	struct ex_lv_lock *locks;	/* most waited first */
	size_t n, cap;
	int *pids;			/* the application's processes seen */
	size_t npids, cap_pids;
};

void ex_lockview_build(struct ex_lockview *lv, const struct ex_model *m,
		       const struct ex_app *app);
void ex_lockview_free(struct ex_lockview *lv);

/* The lock view as a text section, a JSON array (the caller writes the
 * key), a DOT graph waiter -> lock -> releaser. */
void ex_lockview_text(FILE *f, const struct ex_model *m,
		      const struct ex_lockview *lv);
void ex_lockview_json(FILE *f, const struct ex_model *m,
		      const struct ex_lockview *lv);
void ex_lockview_dot(FILE *f, const struct ex_model *m,
		     const struct ex_lockview *lv);

#endif /* LT_EX_LOCKVIEW_H */
