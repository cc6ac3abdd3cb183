// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_why.c - host tests of tools/lib/lt_why.c: a record's
 * breakdown in words (the wakeup, syscalls and application records'),
 * and the records without one.
 */
#include <stdio.h>
#include <string.h>

#include "lt_record.h"
#include "lt_why.h"
#include "tap.h"

static char line[1024], out[256];

/* lt_why() of a record line: its return, the words in out. */
static int why_of(const char *text, size_t size)
{
	struct lt_record r;
	const char *err;

	snprintf(line, sizeof(line), "%s", text);
	if (lt_record_parse(line, &r, &err)) {
		tap_diag("malformed: %s", err);
		return -2;
	}
	return lt_why(&r, out, size);
}

static void is(const char *text, const char *want, const char *what)
{
	int ret = why_of(text, sizeof(out));

	if (!tap_ok(!ret && !strcmp(out, want), "%s", what)) {
		tap_diag("got:  %d '%s'", ret, out);
		tap_diag("want: '%s'", want);
	}
}

int main(void)
{
	tap_plan(7);
	is("ts=1 tracker=wakeup cause=threshold delay=1000 pid=5 comm=v "
	   "irq_ns=30 softirq_ns=10 thread_ns=950 idle_ns=0 other_cpu_ns=0 "
	   "top_irq=local_timer top_softirq=RCU top_thread=lt_hog:425 "
	   "migrated=0 cgroup=1",
	   "thread 95% lt_hog:425, irq 3% local_timer, softirq 1% RCU",
	   "wakeup: largest first, each with its top; parts under 1% left out");
	is("ts=1 tracker=wakeup cause=threshold delay=2000 pid=5 comm=v "
	   "irq_ns=0 softirq_ns=0 thread_ns=0 idle_ns=500 other_cpu_ns=1500 "
	   "top_irq=- top_softirq=- top_thread=- migrated=1 cgroup=1",
	   "other CPUs 75%, idle 25%",
	   "wakeup: a migrated wait; no top named where the record says -");
	is("ts=1 tracker=syscalls cause=threshold delay=1000 pid=5 comm=c "
	   "nr=0 on_cpu_ns=10 runnable_ns=20 blocked_ns=970 cgroup=1",
	   "blocked 97%, runnable 2%, on CPU 1%", "syscalls: its three parts");
	is("ts=1 tracker=app cause=threshold delay=100 pid=5 comm=s "
	   "cookie=7 cgroup=1 on_cpu_ns=40 runnable_ns=0 blocked_ns=60 "
	   "blocked_top=read",
	   "blocked 60% read, on CPU 40%",
	   "application request: blocked_top names the blocked part");
	tap_eq(why_of("ts=1 tracker=syscalls cause=timeout delay=1000 pid=5 "
		      "comm=c nr=0 on_cpu_ns=0 runnable_ns=0 blocked_ns=0 "
		      "cgroup=1", sizeof(out)), -1,
	       "a timeout's zeros: no breakdown");
	tap_eq(why_of("ts=1 tracker=block cause=threshold delay=10 dev=8:0 "
		      "sector=0 nr_sectors=8 op=read cgroup=1", sizeof(out)),
	       -1, "a record without breakdown fields: none");
	why_of("ts=1 tracker=wakeup cause=threshold delay=1000 pid=5 "
	       "irq_ns=500 thread_ns=500 top_irq=local_timer "
	       "top_thread=lt_hog:425", 12);
	tap_eq(strlen(out), 11, "a short buffer: cut, NUL-terminated (%s)", out);
	return tap_done();
}
