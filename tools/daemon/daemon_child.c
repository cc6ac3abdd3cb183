// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_child.c - the daemon's children (`latency-tracker explain`, and
 * the `dot` it runs): bounded in number and in time, at low priority.
 *
 * The daemon blocks SIGTERM/SIGINT/SIGHUP (they arrive on a signalfd) and
 * ignores SIGPIPE, and whoever started it may have left other signals
 * ignored (a disposition of SIG_IGN survives exec); a child would inherit
 * all of it, so it unblocks every signal and puts every disposition back
 * to default first -- the two glibc keeps for itself (SIGCANCEL and
 * SIGSETXID, 32 and 33) included, through the system call.  Each
 * child leads its own process group: the time limit and the daemon's exit
 * kill the group, grandchildren (dot) included.  Children are reaped by
 * pid only, never waitpid(-1): liblttng-ctl may have children of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "lt_num.h"

#define LTD_CHILD_SLOTS		64	/* upper bound of max-children */
#define LTD_CHILD_NICE		19
#define LTD_CHILD_POLL_NS	(10 * LT_NSEC_PER_MSEC)

struct ltd_child {
	pid_t pid;			/* 0: free slot */
	uint64_t deadline;		/* CLOCK_MONOTONIC ns */
	bool timed_out;
	ltd_child_done_fn done;
	void *arg;
};

static struct ltd_child ltd_children[LTD_CHILD_SLOTS];
static uint64_t ltd_child_max = 1;
static uint64_t ltd_child_timeout = 300 * LT_NSEC_PER_SEC;

void ltd_child_configure(uint64_t max_children, uint64_t timeout_ns)
{
	ltd_child_max = max_children < LTD_CHILD_SLOTS ? max_children :
							 LTD_CHILD_SLOTS;
	ltd_child_timeout = timeout_ns;
}

unsigned int ltd_child_running(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < LTD_CHILD_SLOTS; i++)
		n += ltd_children[i].pid != 0;
	return n;
}

/*
 * SIG_DFL for a signal glibc's sigaction() refuses (EINVAL for the ones it
 * reserves).  An all-zero struct sigaction of the kernel's is SIG_DFL with
 * no flags and an empty mask on every architecture, whatever its layout.
 */
static void child_default_raw(int sig)
{
	unsigned long ksa[8];

	memset(ksa, 0, sizeof(ksa));
	syscall(SYS_rt_sigaction, sig, ksa, NULL, (NSIG - 1) / 8);
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void child_setup(void)
{
	struct sched_param sp = { .sched_priority = 0 };
	struct sigaction sa;
	sigset_t none;
	int fd, sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (sigaction(sig, &sa, NULL) && errno == EINVAL)
			child_default_raw(sig);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	setpriority(PRIO_PROCESS, 0, LTD_CHILD_NICE);
	sched_setscheduler(0, SCHED_IDLE, &sp);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

int ltd_child_spawn(char *const argv[], void (*exec_fn)(char *const argv[]),
		    ltd_child_done_fn done, void *arg)
{
	struct ltd_child *c = NULL;
	unsigned int i;
	pid_t pid;

	ltd_child_poll();
	if (ltd_child_running() >= ltd_child_max)
		return -EBUSY;
	for (i = 0; i < LTD_CHILD_SLOTS && !c; i++)
		if (!ltd_children[i].pid)
			c = &ltd_children[i];
	if (!c)
		return -EBUSY;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		child_setup();
		if (exec_fn)
			exec_fn(argv);
		else
			execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);	/* also here: no window before a kill(-pid) */
	c->pid = pid;
	c->deadline = ltd_now_ns() + ltd_child_timeout;
	c->timed_out = false;
	c->done = done;
	c->arg = arg;
	return pid;
}

static void reaped(struct ltd_child *c, int status)
{
	struct ltd_child copy = *c;

	memset(c, 0, sizeof(*c));
	if (copy.done)
		copy.done(copy.pid, status, copy.timed_out, copy.arg);
}

void ltd_child_poll(void)
{
	uint64_t now = ltd_now_ns();
	unsigned int i;
	int status;

	for (i = 0; i < LTD_CHILD_SLOTS; i++) {
		struct ltd_child *c = &ltd_children[i];

		if (!c->pid)
			continue;
		if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
			/* The group may outlive its leader: dot, say. */
			kill(-c->pid, SIGKILL);
			reaped(c, status);
		} else if (ltd_child_timeout && now >= c->deadline &&
			   !c->timed_out) {
			c->timed_out = true;
			kill(-c->pid, SIGKILL);
		}
	}
}

void ltd_child_stop_all(uint64_t grace_ns)
{
	struct timespec nap = { 0, LTD_CHILD_POLL_NS };
	uint64_t end = ltd_now_ns() + grace_ns;
	unsigned int i;

	for (i = 0; i < LTD_CHILD_SLOTS; i++)
		if (ltd_children[i].pid)
			kill(-ltd_children[i].pid, SIGTERM);
	while (ltd_child_running() && ltd_now_ns() < end) {
		nanosleep(&nap, NULL);
		ltd_child_poll();
	}
	for (i = 0; i < LTD_CHILD_SLOTS; i++) {
		struct ltd_child *c = &ltd_children[i];
		int status = 0;

		if (!c->pid)
			continue;
		kill(-c->pid, SIGKILL);
		waitpid(c->pid, &status, 0);	/* prompt after SIGKILL */
		reaped(c, status);
	}
}
