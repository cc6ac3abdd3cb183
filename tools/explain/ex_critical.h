/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_critical.h - GAPP's criticality metric over an application (a set of
 * processes) in a time window, computed from the state database
 * (ex_model.h) after the GAPP thesis (gapp-classifying-bottlenecks.txt):
 *
 *  - time slices: the window cut at every state change of an application
 *    thread (GAPP reads the scheduler's switches: section 2.4.4); in each,
 *    the number of active threads (running or runnable) and of waiting
 *    ones (blocked);
 *  - a slice is critical when few threads are active while some wait
 *    (section 1 and 2.4.4: "when the fraction of runnable threads dips
 *    below a certain threshold"): active <= N_min, N_min = N/2 by default
 *    (N: the application's threads in the window; GAPP's -t default) or
 *    given (--critical-threshold);
 *  - every waiting period (a blocked interval of an application thread)
 *    gets the criticality of the critical slices it spans: their length
 *    weighted inversely by the number of active threads (section 2.4.4) --
 *    summed over the waiting threads of a slice, its length times the
 *    ratio of waiting to active threads (section 1);
 *  - per thread, GAPP's own metric (section 2.4.4, Figure 3.1): the
 *    critical slices' length divided by their active threads, over the
 *    time the thread was active in them -- who ran while the others
 *    waited (the serial work);
 *  - reported, as GAPP's front end does: the most critical individual
 *    waits (section 3.6.3: individual, not summed) with what the thread
 *    waited on (system call, futex address, file, the releaser), the
 *    criticality summed by what was waited on (section 3.6.2, the lock
 *    page's ranking) and per thread (Figure 3.1), and the critical phases
 *    (runs of consecutive critical slices).
 *
 * Pure functions over a finished model: no I/O but the renderers at the
 * end (ex_out_critical.c).
 */
#ifndef LT_EX_CRITICAL_H
#define LT_EX_CRITICAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ex_app.h"
#include "ex_model.h"
#include "ex_sync.h"

/* Entries of each ranked list kept in the reports (text and JSON). */
#define EX_CRIT_TOP 10

/* A time slice: the application's counts are constant over [start, end). */
struct ex_crit_slice {
	uint64_t start, end;
	int active;			/* running or runnable */
	int waiting;			/* blocked */
};

/* A waiting period: one blocked interval of an application thread. */
struct ex_crit_period {
	int tid;
	uint64_t start, end;		/* clipped to the window */
	uint64_t critical_ns;		/* the part in critical slices */
	double criticality;		/* ns, weighted (see above) */
	int min_active;			/* fewest active threads meanwhile */
	const struct ex_interval *iv;	/* the model's interval */
	char object[EX_SYNC_TEXT];	/* what it waited on (ex_crit_object) */
	char waker[120];		/* what ended the wait (ex_crit_waker) */
	int waker_tid;			/* the releasing thread, or -1 */
};

/* The criticality summed over a group (a wait object, a thread). */
struct ex_crit_sum {
	char object[EX_SYNC_TEXT];	/* wait object; "" for a thread */
	int tid;			/* thread; -1 for a wait object */
	uint64_t waiting_ns, critical_ns;
	uint64_t count;			/* waiting periods */
	double criticality;		/* of the waiting periods */
	/* threads: GAPP's per-thread metric, over its active time */
	uint64_t active_critical_ns;	/* active in critical slices */
	double active_criticality;	/* that time / the slices' active */
};

/* A run of consecutive critical slices. */
struct ex_crit_phase {
	uint64_t start, end;
	int min_active, max_active, max_waiting;
	double criticality;		/* of the waits within it */
};

struct ex_crit {
	uint64_t start, end;		/* the window */
	int *tids;			/* the application's threads in it */
	size_t ntids;
	int nthreads;			/* N = ntids */
	int threshold;			/* N_min: critical when active <= it */
	bool threshold_given;		/* false: N/2 */
	struct ex_crit_slice *sl;	/* in time order */
	size_t nsl, cap_sl;
	uint64_t *active_ns;		/* [0..N]: time with k threads active */
	uint64_t observed_ns;		/* time with any application thread */
	uint64_t critical_ns;		/* time in critical slices */
	double criticality;		/* summed over every waiting period */
	struct ex_crit_period *periods;	/* the most critical first */
	size_t nperiods, cap_periods;
	struct ex_crit_sum *objects;	/* by what was waited on, heaviest first */
	size_t nobjects, cap_objects;
	struct ex_crit_sum *threads;	/* by thread, GAPP's metric first */
	size_t nthreads_sum, cap_threads;
	struct ex_crit_phase *phases;	/* the most critical first */
	size_t nphases, cap_phases;
};

/*
 * The application's threads (section 3.7.1: the threads of the traced
 * processes): the threads of the model that ex_app_has() takes.  Returns
 * how many, in *tids (malloc).
 */
size_t ex_crit_app_threads(const struct ex_model *m, const struct ex_app *a,
			   int **tids);

/*
 * The criticality of the threads tids[0..ntids) over [s, e) of a finished
 * model.  threshold < 0: N/2.  Free with ex_crit_free().
 */
void ex_critical(const struct ex_model *m, const int *tids, size_t ntids,
		 uint64_t s, uint64_t e, int threshold, struct ex_crit *c);
void ex_crit_free(struct ex_crit *c);
/* The same for the threads of application a. */
void ex_critical_app(const struct ex_model *m, const struct ex_app *a,
		     uint64_t s, uint64_t e, int threshold, struct ex_crit *c);

/*
 * What a blocked interval iv of t waited on, in words: a synchronisation
 * object as ex_sync.h names it ("futex 0x7f..", "file lock /tmp/l
 * (fcntl)", "exit of w [42]"), else its call ("read fd 3 /var/log/x",
 * "clock_nanosleep", "no system call"); and what ended it: "ex_w [42] in
 * futex", "timer", "irq 14 ata", "not woken in the trace".
 */
void ex_crit_object(const struct ex_model *m, const struct ex_thread *t,
		    const struct ex_interval *iv, char *buf, size_t size);
void ex_crit_waker(const struct ex_model *m, const struct ex_thread *t,
		   const struct ex_interval *iv, char *buf, size_t size);

/* Is slice sl critical under c's threshold? */
bool ex_crit_slice_critical(const struct ex_crit *c,
			    const struct ex_crit_slice *sl);

/* Renderers (ex_out_critical.c): the "criticality" text section and the
 * "criticality" JSON object (a value: the caller writes the key). */
void ex_out_critical_text(FILE *f, const struct ex_model *m,
			  const struct ex_crit *c);
void ex_out_critical_json(FILE *f, const struct ex_model *m,
			  const struct ex_crit *c);

#endif /* LT_EX_CRITICAL_H */
