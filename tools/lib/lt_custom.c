// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_custom.c - custom trackers' definitions: parsing, the canonical line,
 * comparison, the custom file (see lt_custom.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_custom.h"
#include "lt_num.h"
#include "lt_proc.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* The knobs' bounds (tracker/params.c) and the contract's. */
#define LT_CUSTOM_THRESHOLD_MAX	(1000 * LT_NSEC_PER_SEC)
#define LT_CUSTOM_TIMEOUT_MIN	LT_NSEC_PER_MSEC
#define LT_CUSTOM_TIMEOUT_MAX	(1000 * LT_NSEC_PER_SEC)

/*
 * The built-in trackers that filter tasks (a daemon's filter settings
 * name them), then the other names the contract reserves.
 */
static const char *const lt_builtin_names[] = {
	"wakeup", "offcpu", "syscalls", "block", "lock", "ttfb", "netrx",
};

static const char *const lt_custom_reserved_names[] = {
	"del", "custom", "version", "app", "irq",
};

enum lt_custom_field {
	F_FN, F_IN, F_OUT, F_KEY, F_IN_KEY, F_OUT_KEY,
	F_THRESHOLD, F_TIMEOUT, F_MAX_EVENTS, F_STACK,
	F_NR
};

static const char *const lt_custom_fields[F_NR] = {
	[F_FN] = "fn", [F_IN] = "in", [F_OUT] = "out", [F_KEY] = "key",
	[F_IN_KEY] = "in_key", [F_OUT_KEY] = "out_key",
	[F_THRESHOLD] = "threshold", [F_TIMEOUT] = "timeout",
	[F_MAX_EVENTS] = "max_events", [F_STACK] = "stack",
};

const char *lt_custom_field_name(size_t i)
{
	return i < F_NR ? lt_custom_fields[i] : NULL;
}

static int fail(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

bool lt_builtin_tracker(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(lt_builtin_names); i++)
		if (!strcmp(name, lt_builtin_names[i]))
			return true;
	return false;
}

char *lt_builtin_list(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(lt_builtin_names) && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				      lt_builtin_names[i]);
	return buf;
}

bool lt_custom_reserved(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(lt_custom_reserved_names); i++)
		if (!strcmp(name, lt_custom_reserved_names[i]))
			return true;
	return lt_builtin_tracker(name);
}

static bool lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool alpha(char c)
{
	return lower(c) || (c >= 'A' && c <= 'Z');
}

int lt_custom_name_check(const char *name, char *why, size_t whylen)
{
	size_t n = strlen(name);

	if (!n)
		return fail(why, whylen, "no tracker name");
	if (n > LT_CUSTOM_NAME_MAX || !lower(name[0]) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
		return fail(why, whylen,
			    "'%.64s' is not a tracker name: a lowercase letter, then up to %d lowercase letters, digits or _",
			    name, LT_CUSTOM_NAME_MAX - 1);
	if (lt_custom_reserved(name))
		return fail(why, whylen,
			    "'%s' is reserved (a built-in tracker's name, a future one's, or del, custom, version)",
			    name);
	return 0;
}

/* FUNC: a kernel symbol, [A-Za-z_][A-Za-z0-9_.]* (.isra.0, .cold...). */
static bool func_ok(const char *s, size_t n)
{
	if (!n || n > LT_CUSTOM_FUNC_MAX || !(alpha(s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!alpha(s[i]) && !digit(s[i]) && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/* SYSTEM or EVENT: [A-Za-z0-9_]+ (a system may start with a digit: 9p). */
static bool tp_part_ok(const char *s, size_t n)
{
	if (!n || n > LT_CUSTOM_TP_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!alpha(s[i]) && !digit(s[i]) && s[i] != '_')
			return false;
	return true;
}

static int parse_probe(const char *field, const char *v,
		       struct lt_custom_probe *p, char *why, size_t whylen)
{
	static const struct {
		const char *prefix;
		enum lt_custom_probe_kind kind;
	} kinds[] = {
		{ "kprobe:", LT_CUSTOM_KPROBE },
		{ "kretprobe:", LT_CUSTOM_KRETPROBE },
		{ "tp:", LT_CUSTOM_TP },
	};
	const char *rest = NULL;

	for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (!strncmp(v, kinds[i].prefix, n)) {
			p->kind = kinds[i].kind;
			rest = v + n;
			break;
		}
	}
	if (!rest)
		return fail(why, whylen,
			    "%s=%.200s: not kprobe:FUNC, kretprobe:FUNC or tp:SYSTEM:EVENT",
			    field, v);
	if (p->kind != LT_CUSTOM_TP) {
		if (!func_ok(rest, strlen(rest)))
			return fail(why, whylen,
				    "%s=%.200s: '%.140s' is not a kernel function name (letters, digits, _ and ., up to %d)",
				    field, v, rest, LT_CUSTOM_FUNC_MAX);
	} else {
		const char *colon = strchr(rest, ':');

		if (!colon || !tp_part_ok(rest, (size_t)(colon - rest)) ||
		    !tp_part_ok(colon + 1, strlen(colon + 1)))
			return fail(why, whylen,
				    "%s=%.200s: not tp:SYSTEM:EVENT (each letters, digits and _, up to %d)",
				    field, v, LT_CUSTOM_TP_MAX);
		if (!strncmp(rest, "latency_tracker:", 16))
			return fail(why, whylen,
				    "%s=%.200s: the trackers' own events cannot be an end",
				    field, v);
	}
	snprintf(p->target, sizeof(p->target), "%s", rest);
	return 0;
}

/* OFF: decimal, or 0x hex. */
static int parse_off(const char *s, uint64_t *off)
{
	uint64_t v = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return lt_parse_u64(s, off);
	s += 2;
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d;

		if (digit(*s))
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX >> 4))
			return -1;
		v = v << 4 | d;
	}
	*off = v;
	return 0;
}

static int parse_key(const char *field, const char *v, struct lt_custom_key *k,
		     char *why, size_t whylen)
{
	memset(k, 0, sizeof(*k));
	if (!strcmp(v, "tid")) {
		k->kind = LT_CUSTOM_KEY_TID;
	} else if (!strcmp(v, "tgid")) {
		k->kind = LT_CUSTOM_KEY_TGID;
	} else if (!strcmp(v, "ret")) {
		k->kind = LT_CUSTOM_KEY_RET;
	} else if (!strncmp(v, "arg", 3) && v[3] >= '1' &&
		   v[3] <= '0' + LT_CUSTOM_ARGS && (!v[4] || v[4] == '+')) {
		k->arg = (unsigned int)(v[3] - '0');
		k->kind = LT_CUSTOM_KEY_ARG;
		if (v[4] == '+') {
			k->kind = LT_CUSTOM_KEY_ARG_OFF;
			if (parse_off(v + 5, &k->off) ||
			    k->off > LT_CUSTOM_OFF_MAX)
				return fail(why, whylen,
					    "%s=%.200s: the offset is not a decimal or 0x hex number of bytes up to %llu",
					    field, v, LT_CUSTOM_OFF_MAX);
		}
	} else {
		return fail(why, whylen,
			    "%s=%.200s: not a key (tid, tgid, argN or argN+OFF with N = 1..%d, ret)",
			    field, v, LT_CUSTOM_ARGS);
	}
	return 0;
}

static const char *probe_kind_name(enum lt_custom_probe_kind k)
{
	return k == LT_CUSTOM_KPROBE ? "kprobe" :
	       k == LT_CUSTOM_KRETPROBE ? "kretprobe" : "tracepoint";
}

/* Key @k (written as field=v) can be read at end @end (in or out) @p. */
static int key_fits(const char *field, const char *v,
		    const struct lt_custom_key *k, const char *end,
		    const struct lt_custom_probe *p, char *why, size_t whylen)
{
	switch (k->kind) {
	case LT_CUSTOM_KEY_ARG:
	case LT_CUSTOM_KEY_ARG_OFF:
		if (p->kind == LT_CUSTOM_KPROBE)
			return 0;
		return fail(why, whylen,
			    "%s=%s: function arguments are read at a kprobe end; the %s end is a %s (%s)",
			    field, v, end, probe_kind_name(p->kind),
			    p->kind == LT_CUSTOM_TP ? "tracepoints take tid or tgid" :
			    "a kretprobe has the return value: ret");
	case LT_CUSTOM_KEY_RET:
		if (p->kind == LT_CUSTOM_KRETPROBE)
			return 0;
		return fail(why, whylen,
			    "%s=ret: a return value is read at a kretprobe end; the %s end is a %s",
			    field, end, probe_kind_name(p->kind));
	default:
		return 0;
	}
}

static int parse_bool(const char *field, const char *v, bool *b, char *why,
		      size_t whylen)
{
	if (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "yes")) {
		*b = true;
		return 0;
	}
	if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no")) {
		*b = false;
		return 0;
	}
	return fail(why, whylen, "%s=%.200s: not 0/1 (on/off)", field, v);
}

static int parse_numbers(char *const *val, struct lt_custom_def *d, char *why,
			 size_t whylen)
{
	char a[32];

	if (val[F_THRESHOLD]) {
		d->has_threshold = true;
		if (lt_parse_duration(val[F_THRESHOLD], &d->threshold_ns))
			return fail(why, whylen,
				    "threshold=%.200s: not a duration (examples: 10ms, 200us, 1.5ms, 5µs; a bare number is ns)",
				    val[F_THRESHOLD]);
		if (!d->threshold_ns || d->threshold_ns > LT_CUSTOM_THRESHOLD_MAX)
			return fail(why, whylen,
				    "threshold=%s: out of range (1ns..%s)",
				    val[F_THRESHOLD],
				    lt_format_duration(LT_CUSTOM_THRESHOLD_MAX, a, sizeof(a)));
	}
	if (val[F_TIMEOUT]) {
		d->has_timeout = true;
		if (!strcmp(val[F_TIMEOUT], "off"))
			d->timeout_ns = 0;
		else if (lt_parse_duration(val[F_TIMEOUT], &d->timeout_ns))
			return fail(why, whylen,
				    "timeout=%.200s: not a duration (examples: 1s, 500ms; 0 or off: none)",
				    val[F_TIMEOUT]);
		if (d->timeout_ns && (d->timeout_ns < LT_CUSTOM_TIMEOUT_MIN ||
				      d->timeout_ns > LT_CUSTOM_TIMEOUT_MAX)) {
			char b[32];

			return fail(why, whylen,
				    "timeout=%s: out of range (0 for none, or %s..%s)",
				    val[F_TIMEOUT],
				    lt_format_duration(LT_CUSTOM_TIMEOUT_MIN, a, sizeof(a)),
				    lt_format_duration(LT_CUSTOM_TIMEOUT_MAX, b, sizeof(b)));
		}
	}
	if (val[F_MAX_EVENTS]) {
		d->has_max_events = true;
		if (lt_parse_u64(val[F_MAX_EVENTS], &d->max_events) ||
		    !d->max_events || d->max_events > LT_CUSTOM_MAX_EVENTS_MAX)
			return fail(why, whylen,
				    "max_events=%.200s: not a whole number in 1..%llu",
				    val[F_MAX_EVENTS], LT_CUSTOM_MAX_EVENTS_MAX);
	}
	if (val[F_STACK]) {
		d->has_stack = true;
		return parse_bool("stack", val[F_STACK], &d->stack, why, whylen);
	}
	return 0;
}

/* fn=FUNC [key=tid|tgid] */
static int parse_fn(char *const *val, struct lt_custom_def *d, char *why,
		    size_t whylen)
{
	static const enum lt_custom_field pair_only[] = { F_IN, F_OUT, F_IN_KEY, F_OUT_KEY };

	for (size_t i = 0; i < ARRAY_LEN(pair_only); i++)
		if (val[pair_only[i]])
			return fail(why, whylen,
				    "fn= and %s= together: fn=FUNC is the pair kprobe:FUNC to kretprobe:FUNC keyed by the calling task; give either fn= or in= and out=",
				    lt_custom_fields[pair_only[i]]);
	d->fn = true;
	d->in.kind = LT_CUSTOM_KPROBE;
	if (!func_ok(val[F_FN], strlen(val[F_FN])))
		return fail(why, whylen,
			    "fn=%.200s: not a kernel function name (letters, digits, _ and ., up to %d)",
			    val[F_FN], LT_CUSTOM_FUNC_MAX);
	snprintf(d->in.target, sizeof(d->in.target), "%s", val[F_FN]);
	if (!val[F_KEY])
		return 0;
	d->one_key = true;
	if (parse_key("key", val[F_KEY], &d->in_key, why, whylen))
		return -1;
	if (d->in_key.kind != LT_CUSTOM_KEY_TID &&
	    d->in_key.kind != LT_CUSTOM_KEY_TGID)
		return fail(why, whylen,
			    "key=%s: fn= is keyed by the calling task, tid or tgid (for an argument or the return value, use in=kprobe:%s out=kretprobe:%s with in_key= and out_key=)",
			    val[F_KEY], d->in.target, d->in.target);
	return 0;
}

/* in=PROBE out=PROBE (key=KEY | in_key=KEY out_key=KEY) */
static int parse_pair(char *const *val, struct lt_custom_def *d, char *why,
		      size_t whylen)
{
	if (!val[F_IN] || !val[F_OUT])
		return fail(why, whylen,
			    "%s: a tracker is fn=FUNC, or in=PROBE and out=PROBE",
			    val[F_IN] || val[F_OUT] ? (val[F_IN] ? "no out=" : "no in=") :
			    "no fn= nor in=/out=");
	if (parse_probe("in", val[F_IN], &d->in, why, whylen) ||
	    parse_probe("out", val[F_OUT], &d->out, why, whylen))
		return -1;
	if (val[F_KEY]) {
		if (val[F_IN_KEY] || val[F_OUT_KEY])
			return fail(why, whylen,
				    "key= and %s= together: key= is the key of both ends, in_key= and out_key= each end's",
				    val[F_IN_KEY] ? "in_key" : "out_key");
		d->one_key = true;
		if (parse_key("key", val[F_KEY], &d->in_key, why, whylen) ||
		    key_fits("key", val[F_KEY], &d->in_key, "in", &d->in, why, whylen) ||
		    key_fits("key", val[F_KEY], &d->in_key, "out", &d->out, why, whylen))
			return -1;
		d->out_key = d->in_key;
		return 0;
	}
	if (!val[F_IN_KEY] || !val[F_OUT_KEY])
		return fail(why, whylen,
			    "%s: a pair needs key= (both ends), or in_key= and out_key=",
			    val[F_IN_KEY] ? "no out_key=" : val[F_OUT_KEY] ?
			    "no in_key=" : "no key=");
	if (parse_key("in_key", val[F_IN_KEY], &d->in_key, why, whylen) ||
	    key_fits("in_key", val[F_IN_KEY], &d->in_key, "in", &d->in, why, whylen) ||
	    parse_key("out_key", val[F_OUT_KEY], &d->out_key, why, whylen) ||
	    key_fits("out_key", val[F_OUT_KEY], &d->out_key, "out", &d->out, why, whylen))
		return -1;
	return 0;
}

int lt_custom_parse(const char *name, const char *text,
		    struct lt_custom_def *d, char *why, size_t whylen)
{
	char buf[4 * LT_CUSTOM_LINE_MAX], *val[F_NR] = { NULL }, *p;
	size_t n = strlen(text);

	memset(d, 0, sizeof(*d));
	if (lt_custom_name_check(name, why, whylen))
		return -1;
	snprintf(d->name, sizeof(d->name), "%s", name);
	if (n && text[n - 1] == '\n')
		n--;
	if (n >= sizeof(buf))
		return fail(why, whylen, "definition too long (%zu bytes)", n);
	memcpy(buf, text, n);
	buf[n] = '\0';
	for (p = buf; *p;) {
		char *tok, *eq;
		size_t f;

		p += strspn(p, " \t");
		if (!*p)
			break;
		tok = p;
		p += strcspn(p, " \t");
		if (*p)
			*p++ = '\0';
		eq = strchr(tok, '=');
		if (!eq && !strcmp(tok, "app") && tok == buf + strspn(buf, " \t")) {
			d->app = true;
			continue;
		}
		if (!eq)
			return fail(why, whylen, "'%.200s': not field=value%s",
				    tok, strcmp(tok, "app") ? "" :
				    " (app comes first)");
		*eq = '\0';
		for (f = 0; f < F_NR; f++)
			if (!strcmp(tok, lt_custom_fields[f]))
				break;
		if (f == F_NR)
			return fail(why, whylen,
				    "'%.100s=': no such field (fn, in, out, key, in_key, out_key, threshold, timeout, max_events, stack)",
				    tok);
		if (val[f])
			return fail(why, whylen, "%s= given twice", tok);
		if (!eq[1])
			return fail(why, whylen, "%s=: no value", tok);
		val[f] = eq + 1;
	}
	if (d->app) {
		for (size_t f = 0; f < F_NR; f++)
			if (val[f] && f != F_THRESHOLD && f != F_TIMEOUT &&
			    f != F_MAX_EVENTS)
				return fail(why, whylen,
					    "app and %s= together: an application tracker takes threshold=, timeout= and max_events= only",
					    lt_custom_fields[f]);
	} else if (val[F_FN] ? parse_fn(val, d, why, whylen) :
		   parse_pair(val, d, why, whylen)) {
		return -1;
	}
	return parse_numbers(val, d, why, whylen);
}

int lt_custom_parse_line(const char *line, struct lt_custom_def *d,
			 char *why, size_t whylen)
{
	char name[LT_CUSTOM_NAME_MAX + 2];
	size_t n;

	line += strspn(line, " \t");
	n = strcspn(line, " \t\n");
	if (n >= sizeof(name)) {
		memset(d, 0, sizeof(*d));
		return fail(why, whylen, "'%.*s...' is not a tracker name (at most %d characters)",
			    LT_CUSTOM_NAME_MAX, line, LT_CUSTOM_NAME_MAX);
	}
	memcpy(name, line, n);
	name[n] = '\0';
	return lt_custom_parse(name, line + n, d, why, whylen);
}

/* ---- the canonical line ---- */

struct out {
	char *buf;
	size_t size, len;
	bool full;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len)
		o->full = true;
	else
		o->len += (size_t)n;
}

static void put_probe(struct out *o, const char *field,
		      const struct lt_custom_probe *p)
{
	put(o, " %s=%s:%s", field,
	    p->kind == LT_CUSTOM_KPROBE ? "kprobe" :
	    p->kind == LT_CUSTOM_KRETPROBE ? "kretprobe" : "tp", p->target);
}

static void put_key(struct out *o, const char *field,
		    const struct lt_custom_key *k, bool human)
{
	switch (k->kind) {
	case LT_CUSTOM_KEY_TID:
		put(o, " %s=tid", field);
		break;
	case LT_CUSTOM_KEY_TGID:
		put(o, " %s=tgid", field);
		break;
	case LT_CUSTOM_KEY_RET:
		put(o, " %s=ret", field);
		break;
	case LT_CUSTOM_KEY_ARG:
		put(o, " %s=arg%u", field, k->arg);
		break;
	case LT_CUSTOM_KEY_ARG_OFF:
		put(o, human ? " %s=arg%u+0x%llx" : " %s=arg%u+%llu", field,
		    k->arg, (unsigned long long)k->off);
		break;
	case LT_CUSTOM_KEY_NONE:
		break;
	}
}

static bool key_eq(const struct lt_custom_key *a, const struct lt_custom_key *b)
{
	return a->kind == b->kind &&
	       (a->kind != LT_CUSTOM_KEY_ARG || a->arg == b->arg) &&
	       (a->kind != LT_CUSTOM_KEY_ARG_OFF ||
		(a->arg == b->arg && a->off == b->off));
}

static void put_time(struct out *o, const char *field, uint64_t ns, bool human)
{
	char t[32];

	if (!human)
		put(o, " %s=%llu", field, (unsigned long long)ns);
	else if (!ns && !strcmp(field, "timeout"))
		put(o, " %s=off", field);
	else
		put(o, " %s=%s", field, lt_format_duration(ns, t, sizeof(t)));
}

char *lt_custom_format(const struct lt_custom_def *d, enum lt_custom_fmt how,
		       char *buf, size_t size)
{
	bool human = how == LT_CUSTOM_FMT_HUMAN;
	struct out o = { .buf = buf, .size = size };

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!human)
		put(&o, "%s", d->name);
	if (d->app) {
		put(&o, " app");
	} else if (d->fn) {
		put(&o, " fn=%s", d->in.target);
		put_key(&o, "key", &d->in_key, human);
	} else {
		put_probe(&o, "in", &d->in);
		put_probe(&o, "out", &d->out);
		if (d->one_key || key_eq(&d->in_key, &d->out_key)) {
			put_key(&o, "key", &d->in_key, human);
		} else {
			put_key(&o, "in_key", &d->in_key, human);
			put_key(&o, "out_key", &d->out_key, human);
		}
	}
	if (d->has_threshold)
		put_time(&o, "threshold", d->threshold_ns, human);
	if (d->has_timeout)
		put_time(&o, "timeout", d->timeout_ns, human);
	if (d->has_max_events)
		put(&o, " max_events=%llu", (unsigned long long)d->max_events);
	if (d->has_stack)
		put(&o, " stack=%d", d->stack ? 1 : 0);
	if (o.full) {
		buf[0] = '\0';
		return buf;
	}
	/* The human form has no name: no leading blank. */
	if (human && buf[0] == ' ')
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

/* ---- sameness ---- */

struct lt_custom_norm {
	struct lt_custom_probe in, out;
	struct lt_custom_key in_key, out_key;
	uint64_t threshold_ns, timeout_ns, max_events;
	bool stack;
};

static void normalise(const struct lt_custom_def *d, struct lt_custom_norm *n)
{
	memset(n, 0, sizeof(*n));
	n->in = d->in;
	n->out = d->out;
	n->in_key = d->in_key;
	n->out_key = d->one_key ? d->in_key : d->out_key;
	if (d->fn) {
		n->out.kind = LT_CUSTOM_KRETPROBE;
		snprintf(n->out.target, sizeof(n->out.target), "%s", d->in.target);
		if (n->in_key.kind == LT_CUSTOM_KEY_NONE)
			n->in_key.kind = LT_CUSTOM_KEY_TID;
		n->out_key = n->in_key;
	}
	n->threshold_ns = d->has_threshold ? d->threshold_ns :
			  d->app ? LT_CUSTOM_DEF_APP_THRESHOLD :
			  LT_CUSTOM_DEF_THRESHOLD;
	n->timeout_ns = d->has_timeout ? d->timeout_ns : 0;
	n->max_events = d->has_max_events ? d->max_events :
			d->app ? LT_CUSTOM_DEF_APP_MAX_EVENTS :
			LT_CUSTOM_DEF_MAX_EVENTS;
	n->stack = d->has_stack && d->stack;
}

static bool probe_eq(const struct lt_custom_probe *a,
		     const struct lt_custom_probe *b)
{
	return a->kind == b->kind && !strcmp(a->target, b->target);
}

bool lt_custom_same(const struct lt_custom_def *want,
		    const struct lt_custom_def *have)
{
	struct lt_custom_norm w, h;

	normalise(want, &w);
	normalise(have, &h);
	return !strcmp(want->name, have->name) && want->app == have->app &&
	       probe_eq(&w.in, &h.in) &&
	       probe_eq(&w.out, &h.out) && key_eq(&w.in_key, &h.in_key) &&
	       key_eq(&w.out_key, &h.out_key) &&
	       w.threshold_ns == h.threshold_ns && w.timeout_ns == h.timeout_ns &&
	       w.max_events == h.max_events && w.stack == h.stack;
}

/* ---- the custom file ---- */

/* Appends the listing of @text to v[*n] (room for it is there). */
static void list_parse(char *text, struct lt_custom_listed *v, size_t *n)
{
	char *line, *next;

	for (line = text; *line; line = next) {
		struct lt_custom_listed *e = &v[*n];
		size_t len, nl;
		char why[256];

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		line += strspn(line, " \t");
		if (!*line)
			continue;
		nl = strcspn(line, " \t");
		if (nl > LT_CUSTOM_NAME_MAX)
			continue;	/* no name of ours */
		memcpy(e->name, line, nl);
		e->name[nl] = '\0';
		line += nl;
		line += strspn(line, " \t");
		len = strlen(line);
		if (len >= sizeof(e->text))
			len = sizeof(e->text) - 1;
		memcpy(e->text, line, len);
		e->text[len] = '\0';
		e->parsed = !lt_custom_parse(e->name, line, &e->def, why,
					     sizeof(why));
		(*n)++;
	}
}

int lt_custom_list(struct lt_custom_listed **out)
{
	char *text[2] = { lt_proc_root_read(LT_CUSTOM_FILE), NULL };
	int err = errno;
	struct lt_custom_listed *v;
	size_t cap = 1, n = 0;
	const char *p;

	*out = NULL;
	text[1] = lt_proc_root_read(LT_CUSTOM_APP_FILE);
	if (!text[0] && !text[1])
		return err == ENOENT ? -errno : -err;
	for (int i = 0; i < 2; i++)
		for (p = text[i]; p && *p; p++)
			cap += *p == '\n';
	v = calloc(cap + 1, sizeof(*v));
	if (!v) {
		free(text[0]);
		free(text[1]);
		return -ENOMEM;
	}
	for (int i = 0; i < 2; i++) {
		if (text[i])
			list_parse(text[i], v, &n);
		free(text[i]);
	}
	*out = v;
	return (int)n;
}

const struct lt_custom_listed *lt_custom_find(const struct lt_custom_listed *v,
					      int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

static int write_line(const char *file, const char *line)
{
	int ret = lt_proc_root_write(file, line);

	return ret == -ENOENT || ret == -ENXIO ? -ENODEV : ret;
}

const char *lt_custom_file(const struct lt_custom_def *d)
{
	return d->app ? LT_CUSTOM_APP_FILE : LT_CUSTOM_FILE;
}

int lt_custom_add(const struct lt_custom_def *d)
{
	char line[LT_CUSTOM_LINE_MAX];

	if (!*lt_custom_format(d, LT_CUSTOM_FMT_KERNEL, line, sizeof(line) - 1))
		return -E2BIG;
	return write_line(lt_custom_file(d), line);
}

int lt_custom_del(const char *name)
{
	char line[LT_CUSTOM_NAME_MAX + 8];
	int ret;

	if (strlen(name) > LT_CUSTOM_NAME_MAX)
		return -EINVAL;
	snprintf(line, sizeof(line), "del %s", name);
	ret = write_line(LT_CUSTOM_FILE, line);
	if (ret == -ENOENT || ret == -ENODEV) {
		int app = write_line(LT_CUSTOM_APP_FILE, line);

		if (app != -ENODEV)
			ret = app;
	}
	return ret;
}

const char *lt_custom_strerror(int err, bool del)
{
	switch (err) {
	case -ENODEV:
		return "the module latency_tracker_custom is not loaded (latency_tracker_app, for an application tracker; modprobe it)";
	case -ENOENT:
		return del ? "no custom tracker of that name" :
		       "the kernel has no such function or tracepoint (see /proc/kallsyms, /sys/kernel/tracing/events)";
	case -EINVAL:
		return del ? "the kernel refused the request (its reason is in dmesg)" :
		       "the kernel refused the definition: kprobes cannot probe that function, or a field the module does not take (its reason is in dmesg)";
	case -EEXIST:
		return "the name is in use by a loaded tracker, or reserved";
	case -ENOSPC:
		return "the module has its 64 custom trackers already (delete one first)";
	case -EACCES:
		return "permission denied (root only)";
	case -EPERM:
		return "not permitted (root only)";
	case -E2BIG:
		return "the definition is too long for one line";
	default:
		return strerror(-err);
	}
}
