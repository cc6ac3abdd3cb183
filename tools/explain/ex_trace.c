// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_trace.c - read an LTTng kernel trace (CTF) with libbabeltrace2 and feed
 * its events, decoded into struct ex_ev, to the model.
 *
 * Graph: source.ctf.fs (every directory under the given path holding a CTF
 * "metadata" file) -> filter.utils.muxer (time order across streams) -> a
 * simple sink that decodes each event message.  Timestamps are the raw
 * clock value converted to ns, without the clock class offset: for LTTng's
 * kernel "monotonic" clock that is CLOCK_MONOTONIC, the clock of our alert
 * records and of the --at option.
 */
#include <babeltrace2/babeltrace.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ex_model.h"
#include "ex_trace.h"
#include "ex_util.h"

/* ---- input discovery ---- */

static char **found_dirs;
static size_t nfound, capfound;

static int find_metadata(const char *path, const struct stat *st, int flag,
			 struct FTW *ftw)
{
	const char *base = path + ftw->base;

	(void)st;
	if (flag == FTW_F && !strcmp(base, "metadata")) {
		char *dir = ex_xstrdup(path), **slot;

		dir[ftw->base ? ftw->base - 1 : 0] = '\0';
		slot = EX_PUSH(found_dirs, nfound, capfound);
		*slot = dir;
	}
	return 0;
}

/* ---- field access ---- */

static const bt_field *member(const bt_field *st, const char *name)
{
	if (!st || bt_field_get_class_type(st) != BT_FIELD_CLASS_TYPE_STRUCTURE)
		return NULL;
	return bt_field_structure_borrow_member_field_by_name_const(st, name);
}

static bool field_int(const bt_field *f, int64_t *v)
{
	bt_field_class_type t;

	if (!f)
		return false;
	t = bt_field_get_class_type(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		*v = bt_field_integer_signed_get_value(f);
	else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		*v = (int64_t)bt_field_integer_unsigned_get_value(f);
	else
		return false;
	return true;
}

/* Strings, and LTTng's text arrays (comm fields). */
static bool field_str(const bt_field *f, char *buf, size_t size)
{
	bt_field_class_type t;

	if (!f)
		return false;
	t = bt_field_get_class_type(f);
	if (t == BT_FIELD_CLASS_TYPE_STRING) {
		ex_strlcpy(buf, bt_field_string_get_value(f), size);
		return true;
	}
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
		uint64_t n = bt_field_array_get_length(f), i;

		for (i = 0; i < n && i + 1 < size; i++) {
			int64_t c = 0;

			field_int(bt_field_array_borrow_element_field_by_index_const(f, i), &c);
			if (!c)
				break;
			buf[i] = (char)c;
		}
		buf[i] = '\0';
		return true;
	}
	return false;
}

struct ctx {
	const bt_field *payload, *common, *specific, *packet;
};

static bool get_int(const struct ctx *c, const char *name, int64_t *v)
{
	return field_int(member(c->payload, name), v);
}

static int get_i(const struct ctx *c, const char *name, int dflt)
{
	int64_t v;

	return get_int(c, name, &v) ? (int)v : dflt;
}

static void get_s(const struct ctx *c, const char *name, char *buf, size_t size)
{
	if (!field_str(member(c->payload, name), buf, size))
		buf[0] = '\0';
}

static bool ctx_int(const struct ctx *c, const char *name, int64_t *v)
{
	return field_int(member(c->common, name), v) ||
	       field_int(member(c->specific, name), v);
}

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

/*
 * x86's interrupt vectors that the wakeup breakdown counts (probes' compat
 * header, LT_IRQ_VECTORS): LTTng's x86_irq_vectors_<v>_entry/_exit as
 * hard interrupts named "vector <v>"; false for the others.
 */
static bool vector_event(const char *rest, struct ex_ev *ev)
{
	static const char *const vectors[] = {
		"local_timer", "reschedule", "call_function",
		"call_function_single", "irq_work",
	};

	for (size_t i = 0; i < sizeof(vectors) / sizeof(*vectors); i++) {
		size_t n = strlen(vectors[i]);

		if (strncmp(rest, vectors[i], n))
			continue;
		if (!strcmp(rest + n, "_entry"))
			ev->type = EV_IRQ_ENTRY;
		else if (!strcmp(rest + n, "_exit"))
			ev->type = EV_IRQ_EXIT;
		else
			continue;
		snprintf(ev->name, sizeof(ev->name), "vector %s", vectors[i]);
		return true;
	}
	return false;
}

static bool prefixed(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	*rest = s + n;
	return true;
}

/* The first n elements of an integer array field (absent: unchanged). */
static void field_int_array(const bt_field *f, int64_t *out, uint64_t n)
{
	uint64_t len;

	if (!f || !bt_field_class_type_is(bt_field_get_class_type(f),
					  BT_FIELD_CLASS_TYPE_ARRAY))
		return;
	len = bt_field_array_get_length(f);
	for (uint64_t i = 0; i < n && i < len; i++)
		field_int(bt_field_array_borrow_element_field_by_index_const(f, i),
			  &out[i]);
}

/* The first integer field among names (NULL-terminated) into *out. */
static void get_first(const struct ctx *c, const char *const *names,
		      int64_t *out)
{
	for (; *names; names++)
		if (get_int(c, *names, out))
			return;
}

/*
 * The arguments of a system call entry the model uses, by LTTng's field
 * names (lttng-modules instrumentation/syscalls): the fd (fd; dup's
 * fildes; dup2/dup3's oldfd; epoll's epfd), dup2/dup3's newfd or
 * close_range's max_fd, the futex
 * address (futex_waitv: its waiters array), the futex op, fcntl's and
 * flock's cmd (an enumeration in LTTng's fcntl override: read as its
 * integer), the IPC id (semop, semtimedop: semid; msgrcv, msgsnd: msqid)
 * or wait4/waitid's upid, and the path of open, openat, creat.
 */
static void sys_args(const struct ctx *c, const char *sys, struct ex_ev *ev)
{
	static const char *const fd_names[] = { "fd", "fildes", "oldfd", "epfd", NULL };
	static const char *const id_names[] = { "semid", "msqid", "upid", NULL };
	static const char *const addr_names[] = { "uaddr", "waiters", NULL };
	int64_t v;

	get_first(c, fd_names, &ev->fd);
	get_first(c, id_names, &ev->id);
	get_first(c, addr_names, &ev->uaddr);
	if (get_int(c, "newfd", &v) || get_int(c, "max_fd", &v))
		ev->fd2 = v;
	if (get_int(c, "op", &v))
		ev->op = v;
	if (get_int(c, "cmd", &v))
		ev->cmd = v;
	if (!strcmp(sys, "openat") || !strcmp(sys, "open") ||
	    !strcmp(sys, "openat2"))
		get_s(c, "filename", ev->filename, sizeof(ev->filename));
	else if (!strcmp(sys, "creat"))
		get_s(c, "pathname", ev->filename, sizeof(ev->filename));
}

/* Decode one event into ev; false for events the analysis ignores. */
static bool decode(const char *name, const struct ctx *c, struct ex_ev *ev)
{
	const char *rest;
	int64_t v;

	if (!strcmp(name, "sched_switch")) {
		ev->type = EV_SWITCH;
		ev->tid = get_i(c, "prev_tid", -1);
		ev->next_tid = get_i(c, "next_tid", -1);
		ev->next_prio = get_i(c, "next_prio", EX_PRIO_NONE);
		ev->prev_prio = get_i(c, "prev_prio", EX_PRIO_NONE);
		ev->state = get_int(c, "prev_state", &v) ? (long)v : 0;
		get_s(c, "prev_comm", ev->comm, sizeof(ev->comm));
		get_s(c, "next_comm", ev->next_comm, sizeof(ev->next_comm));
	} else if (!strcmp(name, "sched_waking") || !strcmp(name, "sched_wakeup")) {
		ev->type = EV_WAKING;
		ev->tid = get_i(c, "tid", -1);
		ev->target_cpu = get_i(c, "target_cpu", -1);
		get_s(c, "comm", ev->comm, sizeof(ev->comm));
	} else if (!strcmp(name, "sched_wakeup_new")) {
		ev->type = EV_WAKEUP_NEW;
		ev->tid = get_i(c, "tid", -1);
		ev->target_cpu = get_i(c, "target_cpu", -1);
		get_s(c, "comm", ev->comm, sizeof(ev->comm));
	} else if (!strcmp(name, "sched_process_fork")) {
		ev->type = EV_FORK;
		ev->parent_tid = get_i(c, "parent_tid", -1);
		ev->tid = get_i(c, "child_tid", -1);
		ev->pid = get_i(c, "child_pid", -1);
		get_s(c, "child_comm", ev->comm, sizeof(ev->comm));
	} else if (!strcmp(name, "sched_process_exit")) {
		ev->type = EV_EXIT;
		ev->tid = get_i(c, "tid", -1);
	} else if (prefixed(name, "syscall_entry_", &rest) ||
		   prefixed(name, "compat_syscall_entry_", &rest)) {
		ev->type = EV_SYS_ENTRY;
		ex_strlcpy(ev->name, rest, sizeof(ev->name));
		sys_args(c, rest, ev);
	} else if (prefixed(name, "syscall_exit_", &rest) ||
		   prefixed(name, "compat_syscall_exit_", &rest)) {
		ev->type = EV_SYS_EXIT;
		ex_strlcpy(ev->name, rest, sizeof(ev->name));
		if (get_int(c, "ret", &v))
			ev->ret = v;
		/* pipe, pipe2 (LTTng's override: an array of 2), socketpair */
		field_int_array(member(c->payload, "fildes"), ev->fds, 2);
		field_int_array(member(c->payload, "usockvec"), ev->fds, 2);
	} else if (!strcmp(name, "irq_handler_entry")) {
		char h[EX_NAME_LEN - 16];

		ev->type = EV_IRQ_ENTRY;
		get_s(c, "name", h, sizeof(h));
		snprintf(ev->name, sizeof(ev->name), "irq %d %s",
			 get_i(c, "irq", -1), h);
	} else if (!strcmp(name, "irq_handler_exit")) {
		ev->type = EV_IRQ_EXIT;
	} else if (prefixed(name, "x86_irq_vectors_", &rest) &&
		   vector_event(rest, ev)) {
		/* Set by vector_event(). */
	} else if (prefixed(name, "irq_", &rest) &&
		   (!strcmp(rest, "softirq_entry") || !strcmp(rest, "softirq_exit"))) {
		/* LTTng's names of softirq_entry and softirq_exit. */
		int vec = get_i(c, "vec", -1);

		ev->type = !strcmp(rest, "softirq_entry") ? EV_SOFTIRQ_ENTRY :
			   EV_SOFTIRQ_EXIT;
		if (vec >= 0 && vec < (int)(sizeof(softirq_names) / sizeof(*softirq_names)))
			snprintf(ev->name, sizeof(ev->name), "softirq %s",
				 softirq_names[vec]);
		else
			snprintf(ev->name, sizeof(ev->name), "softirq %d", vec);
	} else if (!strcmp(name, "timer_hrtimer_expire_entry") ||
		   !strcmp(name, "timer_expire_entry")) {
		ev->type = EV_TIMER_ENTRY;
		ex_strlcpy(ev->name, strstr(name, "hrtimer") ? "hrtimer" : "timer",
			   sizeof(ev->name));
	} else if (!strcmp(name, "timer_hrtimer_expire_exit") ||
		   !strcmp(name, "timer_expire_exit")) {
		ev->type = EV_TIMER_EXIT;
	} else if (!strcmp(name, "block_rq_insert") ||
		   !strcmp(name, "block_rq_issue") ||
		   !strcmp(name, "block_rq_complete")) {
		ev->type = !strcmp(name, "block_rq_insert") ? EV_BLK_INSERT :
			   !strcmp(name, "block_rq_issue") ? EV_BLK_ISSUE :
			   EV_BLK_COMPLETE;
		if (get_int(c, "dev", &v))
			ev->dev = (uint64_t)v;
		if (get_int(c, "sector", &v))
			ev->sector = (uint64_t)v;
		ev->tid = get_i(c, "tid", -1);
	} else if (!strcmp(name, "lttng_statedump_process_state")) {
		ev->type = EV_SD_PROCESS;
		ev->tid = get_i(c, "tid", -1);
		ev->pid = get_i(c, "pid", -1);
		get_s(c, "name", ev->comm, sizeof(ev->comm));
		if (get_int(c, "file_table_address", &v))
			ev->ftable = (uint64_t)v;
	} else if (!strcmp(name, "lttng_statedump_file_descriptor")) {
		ev->type = EV_SD_FD;
		ev->pid = get_i(c, "pid", -1);
		if (get_int(c, "file_table_address", &v))
			ev->ftable = (uint64_t)v;
		ev->fd = get_i(c, "fd", -1);
		get_s(c, "filename", ev->filename, sizeof(ev->filename));
	} else if (prefixed(name, "latency_tracker_", &rest)) {
		const bt_field *st = member(c->payload, "stack");

		ev->type = EV_ALERT;
		ex_strlcpy(ev->name, rest, sizeof(ev->name));
		/* latency_tracker_custom, _app: the tracker's own name. */
		if (!strcmp(rest, "custom") || !strcmp(rest, "app"))
			field_str(member(c->payload, "tracker"), ev->name,
				  sizeof(ev->name));
		ev->tid = get_i(c, "pid", -1);
		if (get_int(c, "delay", &v))
			ev->delay = (uint64_t)v;
		if (st && bt_field_get_class_type(st) == BT_FIELD_CLASS_TYPE_STRING)
			ev->stack = bt_field_string_get_value(st);
		if (!strcmp(rest, "lock")) {
			get_s(c, "lock", ev->lock, sizeof(ev->lock));
			get_s(c, "kind", ev->lock_kind, sizeof(ev->lock_kind));
			ev->owner_tid = get_i(c, "owner_pid", -1);
			get_s(c, "owner_comm", ev->owner_comm,
			      sizeof(ev->owner_comm));
		}
	} else if (strstr(name, "page_fault")) {
		ev->type = EV_PAGE_FAULT;
	} else {
		return false;
	}
	return true;
}

/* ---- the sink ---- */

struct sink {
	bt_message_iterator *it;
	ex_trace_event_fn fn;
	void *arg;
	uint64_t discarded;
};

static bt_graph_simple_sink_component_initialize_func_status
sink_init(bt_message_iterator *it, void *data)
{
	struct sink *s = data;

	s->it = it;
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_INITIALIZE_FUNC_STATUS_OK;
}

static uint64_t snapshot_ns(const bt_clock_snapshot *cs)
{
	const bt_clock_class *cc = bt_clock_snapshot_borrow_clock_class_const(cs);
	uint64_t v = bt_clock_snapshot_get_value(cs);
	uint64_t f = bt_clock_class_get_frequency(cc);

	if (f == 1000000000ULL)
		return v;
	return (uint64_t)((unsigned __int128)v * 1000000000ULL / f);
}

int ex_trace_msg_ns(const bt_message *msg, uint64_t *ns)
{
	if (!bt_message_event_borrow_stream_class_default_clock_class_const(msg))
		return -1;
	*ns = snapshot_ns(bt_message_event_borrow_default_clock_snapshot_const(msg));
	return 0;
}

/*
 * A wakeup alert's breakdown (docs/design.md, "Breakdown fields"); false
 * when the event has none (an older record format).
 */
static bool wakeup_breakdown(const struct ctx *c, struct ex_bd_rec *bd)
{
	char key[32];
	int64_t v;

	memset(bd, 0, sizeof(*bd));
	bd->cpu = get_i(c, "cpu", -1);
	for (int i = 0; i < EX_BD_KINDS; i++) {
		snprintf(key, sizeof(key), "%s_ns", ex_bd_kind_name(i));
		if (!get_int(c, key, &v))
			return false;
		bd->ns[i] = (uint64_t)v;
	}
	if (get_int(c, "other_cpu_ns", &v))
		bd->other_cpu_ns = (uint64_t)v;
	for (int i = 0; i <= EX_BD_THREAD; i++) {
		snprintf(key, sizeof(key), "top_%s", ex_bd_kind_name(i));
		if (!field_str(member(c->payload, key), bd->top[i],
			       sizeof(bd->top[i])))
			ex_strlcpy(bd->top[i], "-", sizeof(bd->top[i]));
	}
	return bd->cpu >= 0;
}

/*
 * PREEMPT_RT, from the trace's environment (uname -v): softirqs run in
 * threads there.
 */
static void read_rt(struct ex_model *m, const bt_event *e)
{
	const bt_stream *st = bt_event_borrow_stream_const(e);
	const bt_value *v;

	m->bd_env_read = true;
	if (!st)
		return;
	v = bt_trace_borrow_environment_entry_value_by_name_const(
		bt_stream_borrow_trace_const(st), "kernel_version");
	m->bd.rt = v && bt_value_is_string(v) &&
		   strstr(bt_value_string_get(v), "PREEMPT_RT");
}

/* The explain model's reading of an event. */
static void on_event(void *arg, const bt_message *msg)
{
	const bt_event *e = bt_message_event_borrow_event_const(msg);
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(e));
	const bt_packet *pkt = bt_event_borrow_packet_const(e);
	struct ctx c = {
		.payload = bt_event_borrow_payload_field_const(e),
		.common = bt_event_borrow_common_context_field_const(e),
		.specific = bt_event_borrow_specific_context_field_const(e),
		.packet = pkt ? bt_packet_borrow_context_field_const(pkt) : NULL,
	};
	struct ex_model *m = arg;
	struct ex_bd_rec bd;
	struct ex_ev ev;
	int64_t v;

	if (!name)
		return;
	if (!m->bd_env_read)
		read_rt(m, e);
	ex_ev_init(&ev, EV_OTHER, 0, -1);
	if (!decode(name, &c, &ev))
		return;
	if (ev.type == EV_ALERT && !strcmp(ev.name, "wakeup") &&
	    wakeup_breakdown(&c, &bd))
		ev.bd = &bd;
	if (ex_trace_msg_ns(msg, &ev.ts))
		return;
	if (field_int(member(c.packet, "cpu_id"), &v))
		ev.cpu = (int)v;
	if (ctx_int(&c, "tid", &v))
		ev.ctx_tid = (int)v;
	if (ctx_int(&c, "pid", &v))
		ev.ctx_pid = (int)v;
	ex_model_feed(m, &ev);
}

static bt_graph_simple_sink_component_consume_func_status
sink_consume(bt_message_iterator *it, void *data)
{
	struct sink *s = data;
	bt_message_array_const msgs;
	uint64_t count;

	switch (bt_message_iterator_next(it, &msgs, &count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	for (uint64_t i = 0; i < count; i++) {
		const bt_message *msg = msgs[i];
		uint64_t n;

		if (bt_message_get_type(msg) == BT_MESSAGE_TYPE_EVENT)
			s->fn(s->arg, msg);
		else if (bt_message_get_type(msg) == BT_MESSAGE_TYPE_DISCARDED_EVENTS &&
			 bt_message_discarded_events_get_count(msg, &n) ==
				BT_PROPERTY_AVAILABILITY_AVAILABLE)
			s->discarded += n;
		bt_message_put_ref(msg);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* ---- graph set-up ---- */

static const bt_plugin *load_plugin(const char *name)
{
	const bt_plugin *p = NULL;

	if (bt_plugin_find(name, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   &p) != BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	return p;
}

static int run_graph(struct sink *s, char *err, size_t errlen)
{
	const bt_plugin *ctf = load_plugin("ctf"), *utils = load_plugin("utils");
	const bt_component_source *src = NULL;
	const bt_component_filter *mux = NULL;
	const bt_component_sink *snk = NULL;
	bt_value *params = NULL, *inputs = NULL;
	bt_graph *g = NULL;
	bt_graph_run_status st;
	int ret = -1;
	uint64_t nout;

	if (!ctf || !utils) {
		snprintf(err, errlen, "babeltrace2 plugins 'ctf' and 'utils' not found (install babeltrace2)");
		goto out;
	}
	g = bt_graph_create(0);
	params = bt_value_map_create();
	if (!g || !params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs))
		goto oom;
	for (size_t i = 0; i < nfound; i++)
		if (bt_value_array_append_string_element(inputs, found_dirs[i]))
			goto oom;
	if (bt_graph_add_source_component(g,
			bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs"),
			"src", params, BT_LOGGING_LEVEL_NONE, &src) ||
	    bt_graph_add_filter_component(g,
			bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer"),
			"mux", NULL, BT_LOGGING_LEVEL_NONE, &mux)) {
		snprintf(err, errlen, "cannot open the trace (not a readable CTF trace)");
		goto out;
	}
	if (bt_graph_add_simple_sink_component(g, "sink", sink_init, sink_consume,
					       NULL, s, &snk))
		goto oom;
	nout = bt_component_source_get_output_port_count(src);
	for (uint64_t i = 0; i < nout; i++)
		if (bt_graph_connect_ports(g,
				bt_component_source_borrow_output_port_by_index_const(src, i),
				bt_component_filter_borrow_input_port_by_index_const(mux, i),
				NULL))
			goto graph_err;
	if (bt_graph_connect_ports(g,
			bt_component_filter_borrow_output_port_by_index_const(mux, 0),
			bt_component_sink_borrow_input_port_by_index_const(snk, 0),
			NULL))
		goto graph_err;
	do {
		st = bt_graph_run(g);
	} while (st == BT_GRAPH_RUN_STATUS_AGAIN);
	if (st != BT_GRAPH_RUN_STATUS_OK) {
		snprintf(err, errlen, "error while reading the trace (corrupt CTF data?)");
		goto out;
	}
	ret = 0;
	goto out;
graph_err:
	snprintf(err, errlen, "cannot build the trace reading graph");
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	bt_value_put_ref(params);
	bt_graph_put_ref(g);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	return ret;
}

int ex_trace_each(const char *path, ex_trace_event_fn fn, void *arg,
		  uint64_t *discarded, char *err, size_t errlen)
{
	struct sink s = { .fn = fn, .arg = arg };
	struct stat st;
	int ret;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a trace directory", path);
		return -1;
	}
	nfound = 0;
	nftw(path, find_metadata, 16, FTW_PHYS);
	if (!nfound) {
		snprintf(err, errlen, "%s: not a trace directory (no CTF metadata under it)", path);
		return -1;
	}
	ret = run_graph(&s, err, errlen);
	for (size_t i = 0; i < nfound; i++)
		free(found_dirs[i]);
	free(found_dirs);
	found_dirs = NULL;
	nfound = capfound = 0;
	if (discarded)
		*discarded += s.discarded;
	return ret;
}

int ex_trace_read(const char *path, struct ex_model *m, char *err,
		  size_t errlen)
{
	if (ex_trace_each(path, on_event, m, &m->discarded, err, errlen))
		return -1;
	ex_model_finish(m);
	if (!m->nsched) {
		snprintf(err, errlen, "%s: the trace has no scheduler events (record sched_switch and sched_waking)", path);
		return -1;
	}
	return 0;
}
