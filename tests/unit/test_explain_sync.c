// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_explain_sync.c - the explain analysis on synthetic event sequences
 * (issue 17, items 2-4 and the defects of its introduction):
 *
 *  - the fd table over time: fd 4 named libc by the statedump, closed,
 *    then returned by openat for the lock file: a wait then names the lock
 *    file; dup2/dup3/fcntl(F_DUPFD) copies, close_range, pipe2 (named by
 *    a later statedump), a child process inheriting its parent's table;
 *  - a thread's life ends at sched_process_exit: no "blocked in
 *    exit_group, woken by nothing" for the rest of the trace, and the
 *    window ends there;
 *  - the synchronisation class of every blocking call of ex_sync.h, and
 *    what is not one;
 *  - the application-wide lock view (waiters, releasers, held time) in
 *    text, JSON and DOT, and the application chosen by pid or comm: a
 *    file lock, futexes, a System V semaphore (semop, semtimedop);
 *  - the stacks of our offcpu/syscall alert events on the node they
 *    explain;
 *  - a kernel lock wait (our lock alert): a lock on the wait edge, in the
 *    lock view and in the causes, with its owner.
 */
#include <stdio.h>
#include <string.h>

#include "ex_app.h"
#include "ex_classify.h"
#include "ex_lockview.h"
#include "ex_model.h"
#include "ex_report.h"
#include "ex_sync.h"
#include "explain_feed.h"
#include "tap.h"

/* Compare two strings and show both on failure. */
#define tap_is(got, want, ...) ({					\
	const char *__g = (got), *__w = (want);				\
	int __r = tap_ok(!strcmp(__g, __w), __VA_ARGS__);		\
	if (!__r)							\
		printf("#   got '%s', want '%s'\n", __g, __w);		\
	__r; })

#define F_SETLKW 7
#define F_SETLK 6
#define F_DUPFD 0
#define LOCK_EX 2
#define LOCK_NB 4

/* A system call entry with the arguments ex_trace.c decodes. */
struct args {
	int64_t fd, fd2, cmd, id, uaddr, op;
	const char *path;
};

static void enter(uint64_t ts, int cpu, int tid, int pid, const char *name,
		  struct args a)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_SYS_ENTRY, ts, cpu);
	ev.ctx_tid = tid;
	ev.ctx_pid = pid;
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ev.fd = a.fd;
	ev.fd2 = a.fd2;
	ev.cmd = a.cmd;
	ev.id = a.id;
	ev.uaddr = a.uaddr;
	ev.op = a.op;
	if (a.path)
		snprintf(ev.filename, sizeof(ev.filename), "%s", a.path);
	ex_model_feed(&m, &ev);
}

/* ARGS(...): every field absent (-1) but those given, which override the
 * defaults -- on purpose, hence the warning off. */
#pragma GCC diagnostic ignored "-Woverride-init"
#define ARGS(...) ((struct args){ .fd = -1, .fd2 = -1, .cmd = -1, .id = -1, \
				  .uaddr = -1, .op = -1, __VA_ARGS__ })

static void leave(uint64_t ts, int cpu, int tid, int pid, const char *name,
		  int64_t ret)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_SYS_EXIT, ts, cpu);
	ev.ctx_tid = tid;
	ev.ctx_pid = pid;
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ev.ret = ret;
	ex_model_feed(&m, &ev);
}

static void call(uint64_t ts, int cpu, int tid, int pid, const char *name,
		 struct args a, int64_t ret)
{
	enter(ts, cpu, tid, pid, name, a);
	leave(ts + 10, cpu, tid, pid, name, ret);
}

static void wake(uint64_t ts, int cpu, int tid, int ctx)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_WAKING, ts, cpu);
	ev.tid = tid;
	ev.target_cpu = cpu;
	ev.ctx_tid = ctx;
	ex_model_feed(&m, &ev);
}

/* A statedump fd by pid (LTTng < 2.11), or by fd table (pid -1). */
static void sd_fd_of(uint64_t ts, int pid, uint64_t ftable, int64_t fd,
		     const char *name)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_SD_FD, ts, 0);
	ev.pid = pid;
	ev.ftable = ftable;
	ev.fd = fd;
	snprintf(ev.filename, sizeof(ev.filename), "%s", name);
	ex_model_feed(&m, &ev);
}

static void sd_fd(uint64_t ts, int pid, int64_t fd, const char *name)
{
	sd_fd_of(ts, pid, 0, fd, name);
}

static void sd_process(uint64_t ts, int pid, uint64_t ftable)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_SD_PROCESS, ts, 0);
	ev.tid = ev.pid = pid;
	ev.ftable = ftable;
	snprintf(ev.comm, sizeof(ev.comm), "t%d", pid);
	ex_model_feed(&m, &ev);
}

static void proc_event(enum ex_ev_type type, uint64_t ts, int cpu, int tid,
		       int pid, int parent)
{
	struct ex_ev ev;

	ex_ev_init(&ev, type, ts, cpu);
	ev.tid = tid;
	ev.pid = pid;
	ev.parent_tid = parent;
	ex_model_feed(&m, &ev);
}

static void alert(uint64_t ts, int tid, const char *tracker, uint64_t delay,
		  const char *stack)
{
	struct ex_ev ev;

	ex_ev_init(&ev, EV_ALERT, ts, 0);
	ev.tid = tid;
	snprintf(ev.name, sizeof(ev.name), "%s", tracker);
	ev.delay = delay;
	ev.stack = stack;
	ex_model_feed(&m, &ev);
}

/* Render a report in the three formats into buf. */
static void render(const struct ex_report *r, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size - 1, "w");

	buf[0] = '\0';
	ex_out_text(f, r, 0.005);
	ex_out_json(f, r);
	ex_out_lockview_dot(f, r);
	fclose(f);
}

static const struct ex_cause *cause(const struct ex_class_report *cr,
				    enum ex_class cls)
{
	for (size_t i = 0; i < cr->ncauses; i++)
		if (cr->causes[i].cls == cls)
			return &cr->causes[i];
	return NULL;
}

/*
 * The case.  Process 100 (thread 100, CPU 0): the statedump names
 * its fd 4 libc at 10; it closes 4 at 1000; openat returns 4 for
 * /tmp/lt.lock at 2000; it blocks in fcntl(4, F_SETLKW) from 3100 until
 * process 200 (CPU 1), which took the lock at 2500 through its own fd 3
 * and slept, unlocks at 153000.
 */
static void feed_flock_case(void)
{
	ex_model_init(&m);
	sw(0, 0, 0, 0, 100);
	sw(0, 1, 0, 0, 200);
	/* LTTng 2.11+: fds by the address of the process's fd table. */
	sd_process(5, 100, 0xa000);
	sd_fd_of(10, -1, 0xa000, 4, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	sd_fd(10, 200, 3, "/tmp/lt.lock");
	call(1000, 0, 100, 100, "close", ARGS(.fd = 4), 0);
	call(2000, 0, 100, 100, "openat", ARGS(.fd = -100, .path = "/tmp/lt.lock"), 4);
	call(2500, 1, 200, 200, "fcntl", ARGS(.fd = 3, .cmd = F_SETLKW), 0);
	enter(2600, 1, 200, 200, "clock_nanosleep", ARGS());
	sw(2700, 1, 200, 1, 0);
	enter(3000, 0, 100, 100, "fcntl", ARGS(.fd = 4, .cmd = F_SETLKW));
	sw(3100, 0, 100, 1, 0);
	wake(152000, 1, 200, -1);
	sw(152100, 1, 0, 0, 200);
	leave(152200, 1, 200, 200, "clock_nanosleep", 0);
	enter(152900, 1, 200, 200, "fcntl", ARGS(.fd = 3, .cmd = F_SETLK));
	wake(153000, 1, 100, 200);
	leave(153100, 1, 200, 200, "fcntl", 0);
	sw(153200, 0, 0, 0, 100);
	leave(153300, 0, 100, 100, "fcntl", 0);
}

static void test_fd_over_time(void)
{
	struct ex_report r = { 0 };
	const struct ex_cause *c;

	feed_flock_case();
	/* Copies and closes after the wait. */
	call(160000, 0, 100, 100, "dup2", ARGS(.fd = 4, .fd2 = 7), 7);
	call(160100, 0, 100, 100, "fcntl", ARGS(.fd = 4, .cmd = F_DUPFD), 9);
	call(160200, 0, 100, 100, "dup3", ARGS(.fd = 9, .fd2 = 11), 11);
	call(160300, 0, 100, 100, "close", ARGS(.fd = 4), 0);
	call(160400, 0, 100, 100, "close_range", ARGS(.fd = 9, .fd2 = 10, .cmd = 0), 0);
	{
		struct ex_ev ev;

		ex_ev_init(&ev, EV_SYS_ENTRY, 160500, 0);
		ev.ctx_tid = ev.ctx_pid = 100;
		snprintf(ev.name, sizeof(ev.name), "pipe2");
		ex_model_feed(&m, &ev);
		ex_ev_init(&ev, EV_SYS_EXIT, 160510, 0);
		ev.ctx_tid = ev.ctx_pid = 100;
		snprintf(ev.name, sizeof(ev.name), "pipe2");
		ev.ret = 0;
		ev.fds[0] = 12;
		ev.fds[1] = 13;
		ex_model_feed(&m, &ev);
	}
	/* A child process forked at 160600 (its parent's table then). */
	proc_event(EV_FORK, 160600, 0, 300, 300, 100);
	call(160700, 0, 100, 100, "close", ARGS(.fd = 7), 0);
	sd_fd(170000, 100, 12, "pipe:[4242]");
	/* A regenerated statedump: process 400 has the fd table address
	 * 100 had (its fd 4 is libm); and one naming 100's fd 4 otherwise. */
	sd_process(170010, 400, 0xa000);
	sd_fd_of(170020, -1, 0xa000, 4, "/usr/lib/x86_64-linux-gnu/libm.so.6");
	sd_fd(170030, 100, 4, "/bogus");
	sw(170100, 0, 100, 1, 0);
	ex_model_finish(&m);

	tap_is(ex_model_fdname(&m, 100, 4, 500), "/usr/lib/x86_64-linux-gnu/libc.so.6",
	       "fd: the statedump names fd 4 before its close");
	tap_is(ex_model_fdname(&m, 100, 4, 1500), "", "fd: nothing between close and openat");
	tap_is(ex_model_fdname(&m, 100, 4, 3000), "/tmp/lt.lock",
	       "fd: after openat returned 4, fd 4 is the lock file (not libc)");
	tap_is(ex_model_fdname(&m, 100, 7, 160050), "/tmp/lt.lock", "fd: dup2 copies the name");
	tap_is(ex_model_fdname(&m, 100, 9, 160150), "/tmp/lt.lock", "fd: fcntl(F_DUPFD) copies the name");
	tap_is(ex_model_fdname(&m, 100, 11, 160350), "/tmp/lt.lock",
	       "fd: dup3 of a dup, after the original's close");
	tap_is(ex_model_fdname(&m, 100, 9, 160450), "", "fd: close_range closed 9");
	tap_is(ex_model_fdname(&m, 100, 11, 160450), "/tmp/lt.lock", "fd: close_range left 11");
	tap_is(ex_model_fdname(&m, 100, 12, 160550), "pipe:[4242]",
	       "fd: a pipe2 fd gets the later statedump's full name");
	tap_is(ex_model_fdname(&m, 100, 13, 160550), "pipe", "fd: its other end: a pipe");
	tap_is(ex_model_fdname(&m, 300, 7, 160800), "/tmp/lt.lock",
	       "fd: a child inherits its parent's fds at the fork");
	tap_is(ex_model_fdname(&m, 100, 7, 160800), "", "fd: ... which the parent closes later");
	tap_is(ex_model_fdname(&m, 400, 4, 170040), "/usr/lib/x86_64-linux-gnu/libm.so.6",
	       "fd: a reused fd table address names the fds of its latest process");
	tap_is(ex_model_fdname(&m, 100, 4, 3000), "/tmp/lt.lock",
	       "fd: an openat's path stands, whatever a later statedump says");

	ex_report_build(&r, &m, "synthetic", 100, 3000, 153300);
	c = r.cr.ncauses ? &r.cr.causes[0] : NULL;
	tap_eq(r.cr.class_ns[C_SYNC], 153000 - 3100, "flock: the wait is synchronisation");
	tap_eq(r.cr.class_ns[C_IO], 0, "flock: not I/O although it has an fd");
	tap_ok(c && c->cls == C_SYNC && strstr(c->what, "/tmp/lt.lock") &&
	       !strstr(c->what, "libc") && strstr(c->what, "t200 [200]"),
	       "flock: the cause names the lock file and the releaser (%s)",
	       c ? c->what : "none");
	tap_ok(c && strstr(c->evidence, "F_SETLKW") && strstr(c->evidence, "fd 4") &&
	       strstr(c->evidence, "t200 [200] in fcntl"),
	       "flock: the evidence: the call, its cmd, the waker in its call (%s)",
	       c ? c->evidence : "none");
	tap_eq(r.lv.n, 1, "flock: lock view of process 100 has the file lock");
	ex_report_free(&r);
	ex_model_free(&m);
}

static void test_lockview_app(void)
{
	struct ex_report r = { 0 };
	const struct ex_lv_lock *l;
	const struct ex_lv_releaser *rl;
	int pids[] = { 100, 200 };
	struct ex_app app = { .pids = pids, .npids = 2 };
	static char buf[65536];

	feed_flock_case();
	sw(160000, 0, 100, 1, 0);
	ex_model_finish(&m);
	ex_report_build_app(&r, &m, "synthetic", 100, 3000, 153300, &app);
	l = r.lv.n ? &r.lv.locks[0] : NULL;
	tap_eq(r.lv.npids, 2, "lock view: the application is processes 100 and 200");
	tap_ok(l && !strcmp(l->label, "file lock /tmp/lt.lock (fcntl)"),
	       "lock view: the file lock by its name (%s)", l ? l->label : "none");
	tap_eq(l ? l->ns : 0, 153000 - 3100, "lock view: total wait");
	tap_eq(l ? l->max_ns : 0, 153000 - 3100, "lock view: longest wait");
	tap_eq(l ? l->nwaiters : 0, 1, "lock view: one waiter");
	rl = l && l->nreleasers ? &l->releasers[0] : NULL;
	tap_eq(rl ? (uint64_t)rl->tid : 0, 200, "lock view: released by the holder, 200");
	/* 200 acquired at 2510 (its fcntl F_SETLKW returned) and released at
	 * the waking, 153000: held 150490 ns; it ran 2510..2700 (190) and
	 * 152100..153000 (900). */
	tap_eq(rl ? rl->held_ns : 0, 153000 - 2510, "lock view: held from its acquisition");
	tap_eq(rl ? rl->held_exact : 0, 1, "lock view: the acquisition was seen");
	tap_eq(rl ? rl->ran_ns : 0, 190 + 900, "lock view: it ran 1090 ns of it");
	render(&r, buf, sizeof(buf));
	tap_ok(strstr(buf, "lock view (application: process 100, 200") &&
	       strstr(buf, "released by t200 [200]") && strstr(buf, "held 150.5us"),
	       "lock view: text");
	tap_ok(strstr(buf, "\"locks\":[{\"kind\":\"file lock\",\"name\":\"file lock /tmp/lt.lock (fcntl)\"") &&
	       strstr(buf, "\"held_ns\":150490"), "lock view: JSON");
	tap_ok(strstr(buf, "digraph lockview") && strstr(buf, "t100 -> l0") &&
	       strstr(buf, "l0 -> t200"), "lock view: DOT waiter -> lock -> releaser");
	ex_report_free(&r);

	/* By comm: t200 names process 200 only. */
	{
		struct ex_app by_comm = { .comm = "t200" };

		ex_report_build_app(&r, &m, "synthetic", 100, 3000, 153300, &by_comm);
		tap_ok(r.lv.npids == 1 && r.lv.pids[0] == 200 && r.lv.n == 0,
		       "lock view --comm t200: process 200, which waited on nothing");
		ex_report_free(&r);
	}
	ex_model_free(&m);
}

/*
 * Two waiters on one futex of process 1, and a join: the lock view is
 * sorted by total wait, counts the waiters, and leaves the join out.
 */
static void test_lockview_futex(void)
{
	struct ex_report r = { 0 };
	const struct ex_lv_lock *l;

	ex_model_init(&m);
	sw(0, 0, 0, 0, 1);
	sw(0, 1, 0, 0, 2);
	sw(0, 2, 0, 0, 3);
	/* 2 and 3 wait on 0xa0 (held by 1, which waited on it first: an
	 * acquisition at 510), 3 also on 0xb0 briefly. */
	enter(100, 0, 1, 1, "futex", ARGS(.uaddr = 0xa0, .op = 128));
	sw(110, 0, 1, 1, 0);
	wake(500, 0, 1, 3);
	sw(505, 0, 0, 0, 1);
	leave(510, 0, 1, 1, "futex", 0);
	enter(1000, 1, 2, 1, "futex", ARGS(.uaddr = 0xa0, .op = 128));
	sw(1010, 1, 2, 1, 0);
	enter(2000, 2, 3, 1, "futex", ARGS(.uaddr = 0xa0, .op = 128));
	sw(2010, 2, 3, 1, 0);
	enter(9000, 0, 1, 1, "futex", ARGS(.uaddr = 0xa0, .op = 129));
	wake(9100, 0, 2, 1);
	wake(9100, 0, 3, 1);
	leave(9200, 0, 1, 1, "futex", 2);
	sw(9300, 1, 0, 0, 2);
	sw(9300, 2, 0, 0, 3);
	enter(9400, 2, 3, 1, "futex", ARGS(.uaddr = 0xb0, .op = 128));
	sw(9410, 2, 3, 1, 0);
	/* 1 exits: its clear_child_tid wake of 2's join. */
	enter(9500, 1, 2, 1, "futex", ARGS(.uaddr = 0xc0, .op = 0));
	sw(9510, 1, 2, 1, 0);
	enter(9600, 0, 1, 1, "futex", ARGS(.uaddr = 0xb0, .op = 129));
	wake(9650, 0, 3, 1);
	leave(9660, 0, 1, 1, "futex", 1);
	enter(9700, 0, 1, 1, "exit", ARGS());
	proc_event(EV_EXIT, 9750, 0, 1, 1, -1);
	wake(9800, 0, 2, 1);
	sw(9900, 0, 1, 0x20, 2);
	sw(9950, 2, 3, 1, 0);
	ex_model_finish(&m);

	ex_report_build(&r, &m, "synthetic", 2, 1000, 9900);
	tap_eq(r.lv.n, 2, "futex lock view: two locks (the join is not one)");
	l = r.lv.n ? &r.lv.locks[0] : NULL;
	tap_eq(l ? (uint64_t)l->uaddr : 0, 0xa0, "futex lock view: the most waited first");
	/* waits: 1 110..500 (390), 2 1010..9100 (8090), 3 2010..9100 (7090) */
	tap_eq(l ? l->ns : 0, 390 + 8090 + 7090, "futex lock view: total wait");
	tap_eq(l ? l->max_ns : 0, 8090, "futex lock view: longest wait");
	tap_eq(l ? l->nwaiters : 0, 3, "futex lock view: three waiters");
	tap_eq(l && l->nwaiters ? (uint64_t)l->waiters[0].tid : 0, 2, "futex lock view: most waiting first");
	tap_eq(l && l->nreleasers ? (uint64_t)l->releasers[0].tid : 0, 1,
	       "futex lock view: 1 released it most");
	/* 1's one release at 9100 woke two waiters: counted once; held from
	 * its wait's return at 510. */
	tap_eq(l && l->nreleasers ? l->releasers[0].releases : 0, 1,
	       "futex lock view: a release waking two is one release");
	tap_eq(l && l->nreleasers ? l->releasers[0].held_ns : 0, 9100 - 510,
	       "futex lock view: held since its futex wait returned");
	tap_ok(r.cr.ncauses && cause(&r.cr, C_SYNC) &&
	       strstr(r.cr.causes[0].what, "futex 0xa0 released by t1 [1]"),
	       "futex: the cause (%s)", r.cr.ncauses ? r.cr.causes[0].what : "none");
	{
		const struct ex_cause *c = NULL;

		for (size_t i = 0; i < r.cr.ncauses; i++)
			if (strstr(r.cr.causes[i].what, "exit of t1 [1]"))
				c = &r.cr.causes[i];
		tap_ok(c && c->cls == C_SYNC && c->ns == 9800 - 9510 &&
		       strstr(c->evidence, "thread join"),
		       "futex woken by an exiting thread: a join (%s)",
		       c ? c->evidence : "none");
	}
	ex_report_free(&r);
	ex_model_free(&m);
}

/*
 * A System V semaphore (semid 7) shared by processes 500 and 600, each
 * thread on its own CPU (0: t500, 1: t501 of process 500, 2: t502 of
 * process 600):
 *
 *   1000-1010  t500 semop(7) acquires it (returns 0)
 *   2000       t501 semop(7) waits: blocked 2010 .. 5050
 *   3000       t502 semtimedop(7) waits: blocked 3010 .. 7050
 *   5000-5100  t500 semop(7) releases it: wakes t501 at 5050
 *   5200-5300  t501 runs, its semop returns (acquired at 5300)
 *   7000-7100  t501 semop(7) releases it: wakes t502 at 7050
 *   7200-7300  t502 runs, its semtimedop returns
 *
 * Lock view, by hand: one lock "semaphore 7"; waits 501: 5050 - 2010 =
 * 3040, 502: 7050 - 3010 = 4040; total 7080, longest 4040, two waiters
 * (502 first).  Releasers by the waits they ended: t501 (502's 4040) then
 * t500 (501's 3040).  t501 held it from its semop's return, 5300, to its
 * release at 7050: 1750 ns, all of it running (on CPU 1 since 5200); t500
 * from 1010 to 5050: 4040 ns, running throughout (never switched out).
 */
static void test_lockview_semaphore(void)
{
	struct ex_report r = { 0 };
	const struct ex_lv_lock *l;
	const struct ex_lv_releaser *r0, *r1;
	int pids[] = { 500, 600 };
	struct ex_app app = { .pids = pids, .npids = 2 };
	static char buf[65536];

	ex_model_init(&m);
	sw(0, 0, 0, 0, 500);
	sw(0, 1, 0, 0, 501);
	sw(0, 2, 0, 0, 502);
	call(1000, 0, 500, 500, "semop", ARGS(.id = 7), 0);
	enter(2000, 1, 501, 500, "semop", ARGS(.id = 7));
	sw(2010, 1, 501, 1, 0);
	enter(3000, 2, 502, 600, "semtimedop", ARGS(.id = 7));
	sw(3010, 2, 502, 1, 0);
	enter(5000, 0, 500, 500, "semop", ARGS(.id = 7));
	wake(5050, 1, 501, 500);
	leave(5100, 0, 500, 500, "semop", 0);
	sw(5200, 1, 0, 0, 501);
	leave(5300, 1, 501, 500, "semop", 0);
	enter(7000, 1, 501, 500, "semop", ARGS(.id = 7));
	wake(7050, 2, 502, 501);
	leave(7100, 1, 501, 500, "semop", 0);
	sw(7200, 2, 0, 0, 502);
	leave(7300, 2, 502, 600, "semtimedop", 0);
	sw(9000, 0, 500, 1, 0);
	sw(9000, 1, 501, 1, 0);
	sw(9000, 2, 502, 1, 0);
	ex_model_finish(&m);

	ex_report_build_app(&r, &m, "synthetic", 501, 2000, 5300, &app);
	l = r.lv.n ? &r.lv.locks[0] : NULL;
	tap_eq(r.lv.n, 1, "semaphore lock view: one lock");
	tap_ok(l && l->kind == SY_SEM && !strcmp(l->label, "semaphore 7"),
	       "semaphore lock view: semaphore 7 (%s)", l ? l->label : "none");
	tap_eq(l ? l->ns : 0, 3040 + 4040, "semaphore lock view: total wait 7080 ns");
	tap_eq(l ? l->max_ns : 0, 4040, "semaphore lock view: longest wait 4040 ns");
	tap_eq(l ? l->nwaiters : 0, 2, "semaphore lock view: two waiters (semop, semtimedop)");
	tap_ok(l && l->nwaiters == 2 && l->waiters[0].tid == 502 &&
	       l->waiters[0].ns == 4040 && l->waiters[1].tid == 501 &&
	       l->waiters[1].ns == 3040,
	       "semaphore lock view: waiters t502 4040 ns, t501 3040 ns");
	r0 = l && l->nreleasers > 0 ? &l->releasers[0] : NULL;
	r1 = l && l->nreleasers > 1 ? &l->releasers[1] : NULL;
	tap_eq(l ? l->nreleasers : 0, 2, "semaphore lock view: two releasers");
	tap_ok(r0 && r0->tid == 501 && r0->ns == 4040 && r0->releases == 1,
	       "semaphore lock view: t501 released it first by waits ended (4040 ns)");
	tap_ok(r0 && r0->held_ns == 7050 - 5300 && r0->held_exact == 1 &&
	       r0->ran_ns == 1750,
	       "semaphore lock view: t501 held it 1750 ns from its semop's return, running");
	tap_ok(r1 && r1->tid == 500 && r1->ns == 3040 && r1->releases == 1,
	       "semaphore lock view: then t500 (3040 ns)");
	tap_ok(r1 && r1->held_ns == 5050 - 1010 && r1->held_exact == 1 &&
	       r1->ran_ns == 4040,
	       "semaphore lock view: t500 held it 4040 ns from its semop at 1010");
	tap_ok(r.cr.ncauses && r.cr.causes[0].cls == C_SYNC &&
	       strstr(r.cr.causes[0].what, "semaphore 7 released by t500 [500]"),
	       "semaphore: t501's wait is synchronisation released by t500 (%s)",
	       r.cr.ncauses ? r.cr.causes[0].what : "none");
	render(&r, buf, sizeof(buf));
	tap_ok(strstr(buf, "\"kind\":\"semaphore\",\"name\":\"semaphore 7\"") &&
	       strstr(buf, "\"held_ns\":1750") && strstr(buf, "\"held_ns\":4040"),
	       "semaphore lock view: JSON");
	tap_ok(strstr(buf, "t501 -> l0") && strstr(buf, "t502 -> l0") &&
	       strstr(buf, "l0 -> t500") && strstr(buf, "l0 -> t501"),
	       "semaphore lock view: DOT waiters -> lock -> releasers");
	ex_report_free(&r);
	ex_model_free(&m);
}

/*
 * Thread 50 of process 50 calls exit_group at 5000 (sched_process_exit at
 * 5100, last switch at 5200 with prev_state Z); the trace goes on until
 * 1000000.
 */
static void test_exit(void)
{
	struct ex_report r = { 0 };
	uint64_t e = 1000000;
	const struct ex_thread *t;
	size_t n;

	ex_model_init(&m);
	sw(0, 0, 0, 0, 50);
	sys(1000, 0, 50, true, "write", 1);
	sys(1100, 0, 50, false, "write", 10);
	enter(5000, 0, 50, 50, "exit_group", ARGS());
	proc_event(EV_EXIT, 5100, 0, 50, 50, -1);
	/* On its way out it may still sleep (D) and be woken. */
	sw(5150, 0, 50, 2, 60);
	wake(5180, 0, 50, 60);
	sw(5190, 0, 60, 1, 50);
	sw(5200, 0, 50, 0x20, 60);
	wake(6000, 0, 50, 60);	/* nothing wakes a dead thread: ignored */
	sw(1000000, 0, 60, 1, 0);
	t = ex_model_thread(&m, 50);
	n = t ? t->niv : 0;
	tap_ok(n >= 2 && t->iv[n - 1].end == 5200 && t->iv[n - 1].state == ST_RUNNING &&
	       t->iv[n - 2].state == ST_RUNNABLE,
	       "exit: the thread's last state is its run until the last switch");
	tap_ok(n >= 3 && t->iv[n - 3].state == ST_BLOCKED && t->iv[n - 3].start == 5150 &&
	       t->iv[n - 3].end == 5180, "exit: a sleep in D after the exit event is kept");
	/* Its tid reused by a new thread of process 70 at 2000000, which
	 * blocks and is woken: a new life. */
	proc_event(EV_FORK, 2000000, 1, 50, 70, 70);
	sw(2000100, 1, 0, 0, 50);
	sw(2000200, 1, 50, 1, 0);
	wake(2000300, 1, 50, 60);
	sw(2000400, 1, 0, 0, 50);
	sw(2000500, 1, 50, 1, 0);
	ex_model_finish(&m);
	n = t ? t->niv : 0;
	/* ... blocked 2000200-2000300 (woken by 60), runnable, running,
	 * blocked from 2000500 to the end. */
	tap_ok(n >= 4 && t->iv[n - 3].state == ST_RUNNABLE && t->iv[n - 3].start == 2000300 &&
	       t->iv[n - 4].wake == WK_THREAD && t->iv[n - 4].waker_tid == 60,
	       "exit: a reused tid lives again (its waking counts)");
	tap_ok(ex_report_clip_exit(&m, 50, 0, &e, false) == false,
	       "exit: the new life has no exit yet");
	ex_model_free(&m);

	ex_model_init(&m);
	sw(0, 0, 0, 0, 50);
	enter(5000, 0, 50, 50, "exit_group", ARGS());
	proc_event(EV_EXIT, 5100, 0, 50, 50, -1);
	sw(5200, 0, 50, 0x20, 60);
	sw(1000000, 0, 60, 1, 0);
	ex_model_finish(&m);
	e = 1000000;
	tap_ok(ex_report_clip_exit(&m, 50, 0, &e, false) && e == 5100,
	       "exit: the window ends at sched_process_exit");
	e = 1000000;
	tap_ok(!ex_report_clip_exit(&m, 50, 0, &e, true) && e == 1000000,
	       "exit: --past-exit keeps it");
	ex_report_build(&r, &m, "synthetic", 50, 0, 1000000);
	tap_eq(r.cr.class_ns[C_UNKNOWN], 0,
	       "exit: not 'blocked in exit_group, woken by nothing' after it");
	tap_eq(r.cr.state_ns[ST_BLOCKED], 0, "exit: never blocked");
	ex_report_free(&r);
	ex_model_free(&m);
}

/* A pid reused by a new process: the old one's fds are not its own. */
static void test_pid_reuse(void)
{
	ex_model_init(&m);
	sw(0, 0, 0, 0, 500);
	call(1000, 0, 500, 500, "openat", ARGS(.fd = -100, .path = "/old"), 5);
	proc_event(EV_EXIT, 2000, 0, 500, 500, -1);
	sw(2100, 0, 500, 0x20, 100);
	call(3000, 0, 100, 100, "openat", ARGS(.fd = -100, .path = "/parent"), 6);
	proc_event(EV_FORK, 4000, 0, 500, 500, 100);
	sw(5000, 0, 100, 1, 0);
	ex_model_finish(&m);
	tap_is(ex_model_fdname(&m, 500, 5, 1500), "/old", "pid reuse: the old process's fd");
	tap_is(ex_model_fdname(&m, 500, 5, 4500), "", "pid reuse: not the new process's");
	tap_is(ex_model_fdname(&m, 500, 6, 4500), "/parent",
	       "pid reuse: the new process has its parent's fds");
	ex_model_free(&m);
}

/*
 * One blocking call of thread 10 (process 10, CPU 0) from 1000, off CPU
 * from 1100, woken at 51000 by thread 20 (process 20, CPU 1) inside its
 * call wsys (or by a timer, or by a NET_RX softirq), back at 52000,
 * returns at 52100.  The class and the first cause of its report.
 */
enum waker { BY_THREAD, BY_TIMER, BY_NET };

static enum ex_class one_wait(const char *sys, struct args a, enum waker by,
			      const char *wsys, const char *fdname,
			      char *what, size_t size)
{
	struct ex_report r = { 0 };
	enum ex_class cls;
	struct ex_ev ev;

	ex_model_init(&m);
	sw(0, 0, 0, 0, 10);
	sw(0, 1, 0, 0, 20);
	if (fdname)
		sd_fd(10, 10, a.fd, fdname);
	enter(1000, 0, 10, 10, sys, a);
	sw(1100, 0, 10, 1, 0);
	if (by == BY_THREAD) {
		enter(50000, 1, 20, 20, wsys, ARGS(.fd = 3));
		if (!strcmp(wsys, "exit_group"))
			proc_event(EV_EXIT, 50500, 1, 20, 20, -1);
		wake(51000, 1, 10, 20);
	} else {
		ex_ev_init(&ev, by == BY_TIMER ? EV_TIMER_ENTRY : EV_SOFTIRQ_ENTRY,
			   50900, 1);
		snprintf(ev.name, sizeof(ev.name), "%s",
			 by == BY_TIMER ? "hrtimer" : "softirq NET_RX");
		ex_model_feed(&m, &ev);
		wake(51000, 1, 10, -1);
		ev.type = by == BY_TIMER ? EV_TIMER_EXIT : EV_SOFTIRQ_EXIT;
		ev.ts = 51050;
		ex_model_feed(&m, &ev);
	}
	sw(52000, 0, 0, 0, 10);
	leave(52100, 0, 10, 10, sys, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 10, 1000, 52100);
	cls = C_RUNNING;
	for (size_t i = 0; i < r.cr.ncauses; i++)
		if (r.cr.causes[i].cls != C_CPU) {
			cls = r.cr.causes[i].cls;
			snprintf(what, size, "%s | %s", r.cr.causes[i].what,
				 r.cr.causes[i].evidence);
			break;
		}
	ex_report_free(&r);
	ex_model_free(&m);
	return cls;
}

static void test_classes(void)
{
	static const struct {
		const char *sys;
		struct args a;
		enum waker by;
		const char *wsys, *fdname;
		enum ex_class cls;
		const char *must;	/* in the cause or its evidence */
	} cases[] = {
		{ "futex", ARGS(.uaddr = 0x10, .op = 128), BY_THREAD, "futex", NULL,
		  C_SYNC, "futex 0x10 released by t20 [20]" },
		{ "futex_waitv", ARGS(.uaddr = 0x20), BY_THREAD, "futex", NULL,
		  C_SYNC, "futex_waitv 0x20" },
		{ "fcntl", ARGS(.fd = 5, .cmd = F_SETLKW), BY_THREAD, "close",
		  "/var/lock/a", C_SYNC, "file lock /var/lock/a (fcntl)" },
		{ "fcntl", ARGS(.fd = 5, .cmd = 38), BY_THREAD, "fcntl",
		  "/var/lock/a", C_SYNC, "F_OFD_SETLKW" },
		{ "fcntl", ARGS(.fd = 5, .cmd = 3), BY_THREAD, "write",
		  "/var/lock/a", C_IO, "file fcntl fd 5 /var/lock/a" },
		{ "flock", ARGS(.fd = 5, .cmd = LOCK_EX), BY_THREAD, "flock",
		  "/var/lock/b", C_SYNC, "LOCK_EX" },
		{ "flock", ARGS(.fd = 5, .cmd = LOCK_EX | LOCK_NB), BY_THREAD, "flock",
		  "/var/lock/b", C_IO, "file flock" },
		{ "semop", ARGS(.id = 7), BY_THREAD, "semop", NULL,
		  C_SYNC, "semaphore 7 released by t20 [20]" },
		{ "semtimedop", ARGS(.id = 8), BY_THREAD, "semtimedop", NULL,
		  C_SYNC, "semaphore 8" },
		{ "msgrcv", ARGS(.id = 9), BY_THREAD, "msgsnd", NULL,
		  C_SYNC, "sent by t20 [20] in msgsnd" },
		{ "wait4", ARGS(.id = -1), BY_THREAD, "exit_group", NULL,
		  C_SYNC, "exit of child t20 [20]" },
		{ "waitid", ARGS(.id = 20), BY_THREAD, "exit_group", NULL,
		  C_SYNC, "exit of child t20 [20]" },
		{ "epoll_wait", ARGS(.fd = 6), BY_THREAD, "write",
		  "anon_inode:[eventpoll]", C_SYNC, "woken by t20 [20] in write" },
		{ "epoll_pwait", ARGS(.fd = 6), BY_THREAD, "write", NULL,
		  C_SYNC, "epoll_pwait" },
		{ "poll", ARGS(), BY_THREAD, "sendto", NULL, C_SYNC,
		  "poll on its fds, woken by t20 [20]" },
		{ "ppoll", ARGS(), BY_THREAD, "write", NULL, C_SYNC, "ppoll" },
		{ "select", ARGS(), BY_THREAD, "write", NULL, C_SYNC, "select" },
		{ "pselect6", ARGS(), BY_THREAD, "write", NULL, C_SYNC, "pselect6" },
		{ "read", ARGS(.fd = 3), BY_THREAD, "write", "pipe:[99]", C_SYNC,
		  "read on pipe:[99], woken by t20 [20]" },
		{ "recvfrom", ARGS(.fd = 3), BY_THREAD, "sendto", "socket:[98]",
		  C_SYNC, "the writer" },
		{ "read", ARGS(.fd = 3), BY_THREAD, "write", "/home/x", C_IO,
		  "file read fd 3 /home/x" },
		{ "read", ARGS(.fd = 3), BY_NET, NULL, "socket:[98]", C_IO,
		  "network read fd 3 socket:[98], woken by softirq NET_RX" },
		{ "poll", ARGS(), BY_TIMER, NULL, NULL, C_TIMER, "timer expiry in poll" },
		{ "futex", ARGS(.uaddr = 0x30, .op = 128), BY_THREAD, "exit", NULL,
		  C_SYNC, "thread join" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char what[2048] = "";
		enum ex_class cls = one_wait(cases[i].sys, cases[i].a, cases[i].by,
					     cases[i].wsys, cases[i].fdname, what,
					     sizeof(what));

		tap_ok(cls == cases[i].cls && strstr(what, cases[i].must),
		       "class of %s (case %zu): %s, '%s' (%s)", cases[i].sys, i,
		       ex_class_name(cases[i].cls), cases[i].must, what);
	}
}

/*
 * Our alert events' stacks: thread 10 waits in futex (off CPU 1100 to
 * 52000: 50900 ns; the call 1000 to 52100: 51100 ns).  The offcpu event
 * (emitted later, at 60000, by the report work) and the syscall event
 * attach to the futex node; one whose delay matches nothing does not.
 */
static void test_stacks(void)
{
	struct ex_report r = { 0 };
	static char buf[65536];

	ex_model_init(&m);
	sw(0, 0, 0, 0, 10);
	sw(0, 1, 0, 0, 20);
	enter(1000, 0, 10, 10, "futex", ARGS(.uaddr = 0x10, .op = 128));
	sw(1100, 0, 10, 1, 0);
	wake(51000, 1, 10, 20);
	sw(52000, 0, 0, 0, 10);
	leave(52100, 0, 10, 10, "futex", 0);
	alert(60000, 10, "offcpu", 50900,
	      "futex_wait_queue+0x5a/0xa0;futex_wait+0x16b/0x270;do_futex+0x106/0x1b0");
	alert(60100, 10, "syscall", 51100, "futex_wait+0x16b/0x270;__x64_sys_futex+0x10/0x20");
	alert(60200, 10, "offcpu", 400000, "nowhere+0x1/0x2");
	alert(60300, 10, "wakeup", 900, NULL);
	sw(70000, 0, 10, 1, 0);
	ex_model_finish(&m);
	ex_report_build(&r, &m, "synthetic", 10, 1000, 52100);
	tap_eq(edge(&r.g, "futex", "t20 [20]"), 51000 - 1100, "stacks: the graph waited on t20");
	tap_eq(r.nstacks, 2, "stacks: the offcpu and syscall stacks attach, not the unmatched one");
	tap_ok(r.nstacks == 2 && !strcmp(r.g.nodes[r.stacks[0].node].label, "futex") &&
	       r.g.nodes[r.stacks[0].node].tid == 10 && r.stacks[0].start == 1100 &&
	       r.stacks[0].end == 52000, "stacks: offcpu on t10's futex node, its off-CPU span");
	tap_ok(r.nstacks == 2 && r.stacks[1].node == r.stacks[0].node &&
	       r.stacks[1].start == 1000 && r.stacks[1].end == 52100,
	       "stacks: syscall on the same node, the call's span");
	render(&r, buf, sizeof(buf));
	tap_ok(strstr(buf, "- futex (51.10ms") == NULL &&
	       strstr(buf, "[stack 1] [stack 2]") &&
	       strstr(buf, "      futex_wait_queue+0x5a/0xa0\n      futex_wait+0x16b/0x270\n"),
	       "stacks: text marks the node and lists the frames");
	tap_ok(strstr(buf, "\"stacks\":[{\"node\":") &&
	       strstr(buf, "\"frames\":[\"futex_wait_queue+0x5a/0xa0\",\"futex_wait+0x16b/0x270\",\"do_futex+0x106/0x1b0\"]"),
	       "stacks: JSON with the node and the frames");
	ex_report_free(&r);
	ex_model_free(&m);
}

/*
 * t10 writes (fd 3) and waits for a kernel mutex that t20 holds: blocked
 * 1100 .. 51000 (t20 wakes it), running at 52000, the write returns at
 * 52100.  Our lock alert comes from the report work at 53000: a wait of
 * 51000 ns, lt_lock_static+0x0, a mutex owned by t20.  A later blocked
 * interval of t10 (a futex, 3 ms .. 3.01 ms: past the 1 ms of slack) is
 * not the lock's.
 */
static void test_klock(void)
{
	struct ex_report r = { 0 };
	const struct ex_lv_lock *l = NULL;
	struct ex_sync sy;
	struct ex_ev ev;
	const struct ex_thread *t;
	static char buf[65536];

	ex_model_init(&m);
	sw(0, 0, 0, 0, 10);
	sw(0, 1, 0, 0, 20);
	enter(1000, 0, 10, 10, "write", ARGS(.fd = 3));
	sw(1100, 0, 10, 2, 0);
	wake(51000, 0, 10, 20);
	sw(52000, 0, 0, 0, 10);
	leave(52100, 0, 10, 10, "write", 1);
	ex_ev_init(&ev, EV_ALERT, 53000, 1);
	ev.tid = 10;
	snprintf(ev.name, sizeof(ev.name), "lock");
	ev.delay = 51000;
	snprintf(ev.lock, sizeof(ev.lock), "lt_lock_static+0x0");
	snprintf(ev.lock_kind, sizeof(ev.lock_kind), "mutex");
	ev.owner_tid = 20;
	snprintf(ev.owner_comm, sizeof(ev.owner_comm), "t20");
	ex_model_feed(&m, &ev);
	enter(2990000, 0, 10, 10, "futex", ARGS(.uaddr = 0x10, .op = 128));
	sw(3000000, 0, 10, 1, 0);
	wake(3010000, 0, 10, 20);
	sw(3010100, 0, 0, 0, 10);
	leave(3010200, 0, 10, 10, "futex", 0);
	sw(3100000, 0, 10, 1, 0);
	ex_model_finish(&m);

	t = ex_model_thread(&m, 10);
	/* Intervals: 2 is the write's blocked one, 7 the futex's. */
	tap_ok(t && t->niv > 7 && t->iv[2].state == ST_BLOCKED &&
	       t->iv[2].start == 1100 && t->iv[7].start == 3000000 &&
	       ex_sync_of(&m, t, &t->iv[2], &sy) && sy.kind == SY_KLOCK &&
	       sy.lock, "klock: the write's blocked interval is a kernel lock wait");
	tap_is(sy.label, "kernel lock lt_lock_static+0x0 (mutex)", "klock: its label");
	tap_ok(strstr(sy.evidence, "held by t20 [20] when the wait began; released by t20 [20]") != NULL,
	       "klock: the owner and the releaser in the evidence (%s)", sy.evidence);
	tap_ok(t && t->niv > 7 && ex_sync_of(&m, t, &t->iv[7], &sy) &&
	       sy.kind == SY_FUTEX, "klock: the later futex wait is not the lock's");
	ex_report_build(&r, &m, "synthetic", 10, 1000, 52100);
	for (size_t i = 0; i < r.lv.n; i++)
		if (r.lv.locks[i].kind == SY_KLOCK)
			l = &r.lv.locks[i];
	tap_ok(l && !strcmp(l->label, "kernel lock lt_lock_static+0x0 (mutex)") &&
	       l->ns == 51000 - 1100 && l->nwaiters == 1,
	       "klock: the lock view has the kernel lock, t10's wait");
	render(&r, buf, sizeof(buf));
	tap_ok(strstr(buf, "on kernel lock lt_lock_static+0x0 (mutex)") != NULL,
	       "klock: the wait edge to t20 names the lock");
	ex_report_free(&r);
	ex_model_free(&m);
}

int main(void)
{
	tap_plan(104);
	test_fd_over_time();
	test_lockview_app();
	test_lockview_futex();
	test_lockview_semaphore();
	test_exit();
	test_pid_reuse();
	test_classes();
	test_stacks();
	test_klock();
	return tap_done();
}
