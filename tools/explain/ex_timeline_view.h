/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_timeline_view.h - what `latency-tracker timeline` shows of a state
 * model (ex_model.h), the same for both output formats:
 *
 *  - the threads shown: every thread the trace shows doing something
 *    (a state or a system call), or those of the processes given with
 *    --pid; per thread, its spans over the trace: its system calls
 *    (depth 0) and, nested in them, its states (running on CPU n,
 *    runnable, blocked; depth 1 inside a system call, 0 in user space);
 *  - the wakeups: a blocked interval of a shown thread ended by a shown
 *    thread (ex_blocked_wake() says WK_THREAD, as for explain);
 *  - per CPU, the threads that ran on it (every thread, shown or not);
 *  - alerts and block requests of the shown threads; a request holds a
 *    lane of its disk from insert to complete: the first lane (0, 1, ...)
 *    of that disk free when it starts, so the requests of one lane never
 *    overlap (OTF2's regions must nest; JSON's async slices need no lane).
 *
 * The state spans are the model's intervals unchanged (zero-length ones
 * left out, one still open ending with the trace), so a thread's summed
 * running / runnable / blocked time is what ex_classify() reports for it
 * over [first_ts, last_ts].
 */
#ifndef LT_EX_TIMELINE_VIEW_H
#define LT_EX_TIMELINE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ex_model.h"

/* The pid of no process (above the kernel's PID_MAX_LIMIT, 2^22): the
 * JSON format's pseudo-process that holds the CPU tracks. */
#define TL_CPU_PID (1 << 22)

struct tl_view {
	const struct ex_model *m;
	uint64_t start, end;		/* the trace: first_ts .. last_ts */
	const int *pids;		/* processes shown; npids 0: all */
	size_t npids;
};

enum tl_kind { TL_SYSCALL, TL_STATE };

struct tl_span {
	uint64_t start, end;
	enum tl_kind kind;
	int depth;			/* 0 outermost */
	const struct ex_syscall *sys;	/* the system call (or the state's), or NULL */
	const struct ex_interval *iv;	/* TL_STATE */
};

struct tl_wakeup {
	uint64_t ts;
	int waker, wakee;
	const struct ex_interval *iv;	/* the wakee's blocked interval */
};

void tl_view_init(struct tl_view *v, const struct ex_model *m,
		  const int *pids, size_t npids);

/* The process of t (its pid, or its tid when the trace did not say). */
int tl_pid(const struct ex_thread *t);
bool tl_shown(const struct tl_view *v, const struct ex_thread *t);
/* Name of a process: its main thread's comm, else one of its threads'. */
const char *tl_process_name(const struct tl_view *v, int pid);
/* The model's thread i is the first shown thread of its process. */
bool tl_first_of_process(const struct tl_view *v, size_t i);

/* t's spans in the order of their start (an outer one before the inner
 * one starting with it); *n of them, to free(). */
struct tl_span *tl_thread_spans(const struct tl_view *v,
				const struct ex_thread *t, size_t *n);
/* "running on CPU 1", "runnable", "blocked in read", "blocked". */
void tl_span_name(const struct tl_span *s, char *buf, size_t size);

struct tl_request {
	const struct ex_request *r;
	const struct ex_thread *t;	/* its submitter */
	int lane;			/* of its disk, from 0 */
};

/* The block requests of shown threads, in the order of their start, each
 * on its lane; *n of them, to free(). */
struct tl_request *tl_requests(const struct tl_view *v, size_t *n);
/* "block 8:0": a request's name (its disk). */
void tl_request_name(const struct ex_request *r, char *buf, size_t size);

/* The wakeups between shown threads, in time order; to free(). */
struct tl_wakeup *tl_wakeups(const struct tl_view *v, size_t *n);

/* End of a system call for display: open ones end with the trace. */
uint64_t tl_sys_end(const struct tl_view *v, const struct ex_syscall *s);

/* End of a state for display: the open one ends with the trace. */
uint64_t tl_iv_end(const struct tl_view *v, const struct ex_interval *iv);

/*
 * The writers.  JSON: the Chrome/Perfetto trace-event format to out
 * (ex_tl_json.c); 0, or -1 when the stream failed.  OTF2: an archive
 * DIR/NAME.otf2, DIR/NAME.def, DIR/NAME/ (ex_tl_otf2.c); 0, or -1 with a
 * message in err (the caller removes what was written).
 */
int tl_write_json(FILE *out, const struct tl_view *v, const char *snapshot);
int tl_write_otf2(const char *dir, const char *name, const struct tl_view *v,
		  char *err, size_t errlen);

#endif /* LT_EX_TIMELINE_VIEW_H */
