// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_session.c - latency-trackerd's LTTng session and the guest
 * tests' session are the same session: daemon_session.c runs here against
 * a fake liblttng-ctl that writes down what it is asked (channels, events,
 * contexts, the trace format), tests/guest/lttng-session.inc runs under
 * bash against a fake lttng command that writes down the same, and the two
 * records must be equal.  Both come from tools/daemon/session-events.def;
 * the test also checks that it holds what `latency-tracker explain` needs
 * (sched_waking, timer expiry, interrupts, the statedump, every system
 * call in a channel of its own) and that a liblttng-ctl able to choose the
 * trace format is asked for CTF 1.8.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "daemon.h"
#include "tap.h"

#define REC_MAX 256
#define LINE_MAX_LEN 160

/* ---- the record: one normalized line per request ---- */

struct rec {
	char lines[REC_MAX][LINE_MAX_LEN];
	int n;
};

static struct rec daemon_rec, shell_rec;
static char ready_format[32];

static void rec_add(struct rec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void rec_add(struct rec *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n == REC_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->lines[r->n++], LINE_MAX_LEN, fmt, ap);
	va_end(ap);
}

static int by_line(const void *a, const void *b)
{
	return strcmp(a, b);
}

static bool rec_has(const struct rec *r, const char *line)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->lines[i], line))
			return true;
	return false;
}

/* ---- a fake liblttng-ctl (only what daemon_session.c calls) ---- */

int lttng_session_daemon_alive(void)
{
	return 1;
}

int lttng_list_sessions(struct lttng_session **sessions)
{
	*sessions = calloc(1, sizeof(**sessions));
	return 0;
}

int lttng_destroy_session(const char *name)
{
	(void)name;
	return 0;
}

struct lttng_session_descriptor *lttng_session_descriptor_snapshot_create(const char *name)
{
	(void)name;
	return malloc(1);
}

void lttng_session_descriptor_destroy(struct lttng_session_descriptor *d)
{
	free(d);
}

enum lttng_error_code lttng_create_session_ext(struct lttng_session_descriptor *d)
{
	(void)d;
	return LTTNG_OK;
}

/* LTTng >= 2.15's; found by daemon_session.c with dlsym() (-rdynamic). */
int lttng_session_descriptor_set_trace_format(struct lttng_session_descriptor *d,
					      int format);
int lttng_session_descriptor_set_trace_format(struct lttng_session_descriptor *d,
					      int format)
{
	(void)d;
	rec_add(&daemon_rec, "format %s", format == 1 ? "ctf-1.8" :
		format == 2 ? "ctf-2" : "default");
	return 0;
}

struct lttng_handle *lttng_create_handle(const char *session,
					 struct lttng_domain *domain)
{
	(void)session;
	return domain->type == LTTNG_DOMAIN_KERNEL ? malloc(1) : NULL;
}

void lttng_destroy_handle(struct lttng_handle *h)
{
	free(h);
}

struct lttng_channel *lttng_channel_create(struct lttng_domain *domain)
{
	(void)domain;
	return calloc(1, sizeof(struct lttng_channel));
}

void lttng_channel_destroy(struct lttng_channel *ch)
{
	free(ch);
}

int lttng_enable_channel(struct lttng_handle *h, struct lttng_channel *ch)
{
	(void)h;
	rec_add(&daemon_rec, "channel %s overwrite=%d subbuf=%llu num=%llu output=%s",
		ch->name, ch->attr.overwrite,
		(unsigned long long)ch->attr.subbuf_size,
		(unsigned long long)ch->attr.num_subbuf,
		ch->attr.output == LTTNG_EVENT_MMAP ? "mmap" : "splice");
	return 0;
}

struct lttng_event *lttng_event_create(void)
{
	return calloc(1, sizeof(struct lttng_event));
}

void lttng_event_destroy(struct lttng_event *ev)
{
	free(ev);
}

int lttng_enable_event_with_exclusions(struct lttng_handle *h,
				       struct lttng_event *ev,
				       const char *channel, const char *filter,
				       int nexcl, char **excl)
{
	(void)h;
	(void)excl;
	rec_add(&daemon_rec, "event %s %s %s%s", channel,
		ev->type == LTTNG_EVENT_SYSCALL ? "syscall" :
		ev->type == LTTNG_EVENT_TRACEPOINT ? "tracepoint" : "other",
		ev->name, filter || nexcl ? " filtered" : "");
	return 0;
}

int lttng_add_context(struct lttng_handle *h, struct lttng_event_context *ctx,
		      const char *event, const char *channel)
{
	static const struct { enum lttng_event_context_type t; const char *n; } names[] = {
		{ LTTNG_EVENT_CONTEXT_PID, "pid" },
		{ LTTNG_EVENT_CONTEXT_TID, "tid" },
		{ LTTNG_EVENT_CONTEXT_PROCNAME, "procname" },
	};
	const char *n = "other";

	(void)h;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].t == ctx->ctx)
			n = names[i].n;
	rec_add(&daemon_rec, "context %s %s%s", channel, n, event ? " one-event" : "");
	return 0;
}

int lttng_start_tracing(const char *name)
{
	(void)name;
	rec_add(&daemon_rec, "start");
	return 0;
}

const char *lttng_strerror(int code)
{
	(void)code;
	return "fake error";
}

/* ---- the daemon's log (daemon_log.c), reduced to what is checked ---- */

static bool in_session_line;

void ltd_log_begin(const char *type)
{
	in_session_line = !strcmp(type, "session");
}

void ltd_log_str(const char *key, const char *val)
{
	if (in_session_line && !strcmp(key, "trace_format"))
		snprintf(ready_format, sizeof(ready_format), "%s", val);
}

void ltd_log_u64(const char *key, uint64_t v)
{
	(void)key;
	(void)v;
}

void ltd_log_end(void)
{
	in_session_line = false;
}

void ltd_log_msg(const char *level, const char *fmt, ...)
{
	va_list ap;

	printf("# daemon %s: ", level);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- the shell side ---- */

/*
 * lt_session_create of lttng-session.inc with a fake lttng (a shell
 * function) that prints the same normalized lines on fd 3 (the function
 * sends lttng's output to /dev/null); this lttng can choose the trace
 * format (its create --list-options names --trace-format).
 */
static const char shell_script[] =
	"set -u\n"
	"LT_TOP=$1\n"
	". \"$LT_TOP/tests/guest/lttng-session.inc\"\n"
	"exec 3>&1\n"
	"lttng() {\n"
	"	if [ \"$*\" = 'create --list-options' ]; then printf -- '--snapshot\\n--trace-format\\n'\n"
	"	else fake_lttng \"$@\" >&3; fi\n"
	"}\n"
	"fake_lttng() {\n"
	"	local cmd=$1 ch='' a kind=tracepoint out=mmap s='' n='' ow=0; shift\n"
	"	case $cmd in\n"
	"	create)\n"
	"		for a; do case $a in --trace-format=*) echo \"format ${a#*=}\";; esac; done ;;\n"
	"	enable-channel)\n"
	"		for a; do case $a in --overwrite) ow=1;; --subbuf-size=*) s=${a#*=};;\n"
	"			--num-subbuf=*) n=${a#*=};; --output=*) out=${a#*=};; -*) ;; *) ch=$a;; esac; done\n"
	"		echo \"channel $ch overwrite=$ow subbuf=$s num=$n output=$out\" ;;\n"
	"	enable-event)\n"
	"		while [ $# -gt 0 ]; do case $1 in -c) ch=$2; shift;; -s) shift;; --syscall) kind=syscall;;\n"
	"			-a) a='*';; -*) ;; *) a=$1;; esac; shift; done\n"
	"		tr , '\\n' <<<\"$a\" | sed \"s/^/event $ch $kind /\" ;;\n"
	"	add-context)\n"
	"		while [ $# -gt 0 ]; do case $1 in -c) ch=$2; shift;; -s) shift;;\n"
	"			-t) echo \"context $ch $2\"; shift;; esac; shift; done ;;\n"
	"	start) echo start ;;\n"
	"	esac\n"
	"}\n"
	"lt_session_create test /tmp/unused 262144 4\n";

static int run_shell(void)
{
	char path[64], cmd[sizeof(path) + sizeof(LT_TOP) + 16], line[LINE_MAX_LEN];
	FILE *f, *p;
	int st;

	snprintf(path, sizeof(path), "/tmp/lt-session-test.%d.sh", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(shell_script, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "bash %s '%s'", path, LT_TOP);
	p = popen(cmd, "r");
	if (!p) {
		unlink(path);
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		rec_add(&shell_rec, "%s", line);
	}
	st = pclose(p);
	unlink(path);
	return st;
}

static void compare(void)
{
	int i = 0, j = 0, diffs = 0;

	qsort(daemon_rec.lines, daemon_rec.n, LINE_MAX_LEN, by_line);
	qsort(shell_rec.lines, shell_rec.n, LINE_MAX_LEN, by_line);
	while (i < daemon_rec.n || j < shell_rec.n) {
		int c = i == daemon_rec.n ? 1 : j == shell_rec.n ? -1 :
			strcmp(daemon_rec.lines[i], shell_rec.lines[j]);

		if (!c) {
			i++;
			j++;
			continue;
		}
		diffs++;
		if (c < 0)
			tap_diag("only the daemon: %s", daemon_rec.lines[i++]);
		else
			tap_diag("only the tests:  %s", shell_rec.lines[j++]);
	}
	tap_ok(daemon_rec.n > 0 && !diffs,
	       "the daemon's session and the guest tests' session are the same (%d requests, %d differences)",
	       daemon_rec.n, diffs);
}

int main(void)
{
	static const char *const needed[] = {
		"event sched tracepoint sched_switch",
		"event sched tracepoint sched_waking",
		"event sched tracepoint timer_hrtimer_expire_entry",
		"event sched tracepoint timer_hrtimer_expire_exit",
		"event sched tracepoint timer_expire_entry",
		"event sched tracepoint irq_handler_entry",
		"event sched tracepoint irq_softirq_entry",
		"event sched tracepoint block_rq_complete",
		"event sched tracepoint latency_tracker_*",
		"event statedump tracepoint lttng_statedump_process_state",
		"event statedump tracepoint lttng_statedump_file_descriptor",
		"event syscalls syscall *",
		"context sched tid",
		"context syscalls tid",
		"channel sched overwrite=1 subbuf=262144 num=4 output=mmap",
		"channel syscalls overwrite=1 subbuf=262144 num=4 output=mmap",
		"format ctf-1.8",
		"start",
	};
	struct ltd_config cfg;
	int st;

	tap_plan(23);
	memset(&cfg, 0, sizeof(cfg));
	cfg.snapshot = true;
	snprintf(cfg.session_name, sizeof(cfg.session_name), "latency-trackerd");
	cfg.subbuf_size = 262144;
	cfg.num_subbuf = 4;
	ltd_session_init(&cfg);
	tap_eq(ltd_session_ensure(), LTD_SESSION_READY, "the daemon sets its session up");
	tap_ok(!strcmp(ready_format, "ctf-1.8"),
	       "its ready line says it asked for CTF 1.8 (%s)", ready_format);
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		tap_ok(rec_has(&daemon_rec, needed[i]), "the daemon asks: %s", needed[i]);
	tap_ok(!rec_has(&daemon_rec, "event sched syscall *"),
	       "no system call in the sched channel (a syscall flood overwrites only its own ring)");

	st = run_shell();
	tap_eq(st, 0, "lt_session_create runs under the fake lttng");
	compare();
	return tap_done();
}
