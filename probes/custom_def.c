// SPDX-License-Identifier: GPL-2.0-only
/*
 * custom_def.c - the parser and the canonical form of a custom tracker's
 * definition (see custom_def.h).
 */
#include "lt_env.h"
#include "parse.h"
#include "custom_def.h"

/* NAME and each field once (an app line has fewer). */
#define LT_CUSTOM_TOKENS_MAX	11

/*
 * The names of the contract's trackers, present and future, and of the
 * files of /proc/latency_tracker/: one namespace for all of them.
 */
static const char *const lt_custom_reserved[] = {
	"del", "custom", "version", "app", "wakeup", "offcpu", "syscalls",
	"block", "irq", "lock", "ttfb", "netrx",
};

enum lt_custom_field {
	LT_CF_FN,
	LT_CF_IN,
	LT_CF_OUT,
	LT_CF_KEY,
	LT_CF_IN_KEY,
	LT_CF_OUT_KEY,
	LT_CF_THRESHOLD,
	LT_CF_TIMEOUT,
	LT_CF_MAX_EVENTS,
	LT_CF_STACK,
	LT_CF_NR,
};

static const char *const lt_custom_fields[LT_CF_NR] = {
	[LT_CF_FN] = "fn",
	[LT_CF_IN] = "in",
	[LT_CF_OUT] = "out",
	[LT_CF_KEY] = "key",
	[LT_CF_IN_KEY] = "in_key",
	[LT_CF_OUT_KEY] = "out_key",
	[LT_CF_THRESHOLD] = "threshold",
	[LT_CF_TIMEOUT] = "timeout",
	[LT_CF_MAX_EVENTS] = "max_events",
	[LT_CF_STACK] = "stack",
};

/* A blank-separated token of the line. */
struct lt_custom_tok {
	const char *s;
	size_t len;
};

static int lt_custom_fail(struct lt_custom_err *err, int ret,
			  const struct lt_custom_tok *t, const char *why)
{
	err->tok = t ? t->s : NULL;
	err->tok_len = t ? t->len : 0;
	err->why = why;
	return ret;
}

static bool lt_custom_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

static bool lt_custom_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool lt_custom_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool lt_custom_ident(char c)
{
	return lt_custom_lower(c) || (c >= 'A' && c <= 'Z') ||
	       lt_custom_digit(c) || c == '_';
}

/* NAME: [a-z][a-z0-9_]{0,31}. */
static bool lt_custom_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len > LT_CUSTOM_NAME_MAX || !lt_custom_lower(s[0]))
		return false;
	for (i = 1; i < len; i++)
		if (!lt_custom_lower(s[i]) && !lt_custom_digit(s[i]) &&
		    s[i] != '_')
			return false;
	return true;
}

/* FUNC into @out: [A-Za-z_][A-Za-z0-9_.]*, LT_CUSTOM_FUNC_MAX at most. */
static bool lt_custom_func(const char *s, size_t len, char *out)
{
	size_t i;

	if (!len || len > LT_CUSTOM_FUNC_MAX || lt_custom_digit(s[0]) ||
	    !lt_custom_ident(s[0]))
		return false;
	for (i = 1; i < len; i++)
		if (!lt_custom_ident(s[i]) && s[i] != '.')
			return false;
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

/* SYSTEM or EVENT into @out: [A-Za-z0-9_]+, LT_CUSTOM_TP_NAME_MAX. */
static bool lt_custom_tp_name(const char *s, size_t len, char *out)
{
	size_t i;

	if (!len || len > LT_CUSTOM_TP_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!lt_custom_ident(s[i]))
			return false;
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

/* @s starts with @prefix: advances @s and @len past it. */
static bool lt_custom_skip(const char **s, size_t *len, const char *prefix)
{
	size_t n = strlen(prefix);

	if (*len < n || memcmp(*s, prefix, n))
		return false;
	*s += n;
	*len -= n;
	return true;
}

/* PROBE; NULL, or why it is not one. */
static const char *lt_custom_probe(const char *s, size_t len,
				   struct lt_custom_end_def *end)
{
	const char *colon;

	memset(end, 0, sizeof(*end));
	if (lt_custom_skip(&s, &len, "kprobe:")) {
		end->kind = LT_CUSTOM_KPROBE;
	} else if (lt_custom_skip(&s, &len, "kretprobe:")) {
		end->kind = LT_CUSTOM_KRETPROBE;
	} else if (lt_custom_skip(&s, &len, "tp:")) {
		end->kind = LT_CUSTOM_TP;
		colon = memchr(s, ':', len);
		if (!colon || !lt_custom_tp_name(s, colon - s, end->system) ||
		    !lt_custom_tp_name(colon + 1, len - (colon + 1 - s),
				       end->event))
			return "not a tracepoint (tp:SYSTEM:EVENT)";
		if (!strcmp(end->system, "latency_tracker"))
			return "our own events cannot be an end";
		return NULL;
	} else {
		return "not a probe (kprobe:FUNC, kretprobe:FUNC, tp:SYSTEM:EVENT)";
	}
	if (!lt_custom_func(s, len, end->func))
		return "not a function name";
	return NULL;
}

/* OFF of argN+OFF: decimal (parse.c), or 0x and 1 to 8 hex digits. */
static bool lt_custom_off(const char *s, size_t len, u64 *off)
{
	u64 v = 0;
	size_t i;
	char c;

	if (!lt_custom_skip(&s, &len, "0x"))
		return len && lt_custom_digit(s[len - 1]) &&
		       !latency_tracker_parse_u64(s, len, 0, LT_CUSTOM_OFF_MAX, off);
	if (!len || len > 8)
		return false;
	for (i = 0; i < len; i++) {
		c = s[i];
		if (lt_custom_digit(c))
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return false;
	}
	if (v > LT_CUSTOM_OFF_MAX)
		return false;
	*off = v;
	return true;
}

/* KEY into @key. */
static bool lt_custom_key(const char *s, size_t len, struct lt_custom_key *key)
{
	memset(key, 0, sizeof(*key));
	if (lt_custom_is(s, len, "tid")) {
		key->kind = LT_CUSTOM_KEY_TID;
	} else if (lt_custom_is(s, len, "tgid")) {
		key->kind = LT_CUSTOM_KEY_TGID;
	} else if (lt_custom_is(s, len, "ret")) {
		key->kind = LT_CUSTOM_KEY_RET;
	} else if (lt_custom_skip(&s, &len, "arg")) {
		if (!len || s[0] < '1' || s[0] > '6')
			return false;
		key->arg = s[0] - '0';
		key->kind = LT_CUSTOM_KEY_ARG;
		if (len == 1)
			return true;
		if (s[1] != '+')
			return false;
		key->kind = LT_CUSTOM_KEY_ARG_MEM;
		return lt_custom_off(s + 2, len - 2, &key->off);
	} else {
		return false;
	}
	return true;
}

/* Whether @key can be found at @end; NULL, or why not. */
static const char *lt_custom_key_fits(const struct lt_custom_key *key,
				      const struct lt_custom_end_def *end)
{
	switch (key->kind) {
	case LT_CUSTOM_KEY_ARG:
	case LT_CUSTOM_KEY_ARG_MEM:
		return end->kind == LT_CUSTOM_KPROBE ? NULL :
		       "argN and argN+OFF need a kprobe end";
	case LT_CUSTOM_KEY_RET:
		return end->kind == LT_CUSTOM_KRETPROBE ? NULL :
		       "ret needs a kretprobe end";
	default:
		return NULL;
	}
}

/* Splits @line (@len bytes) into @toks; the number of tokens, or -1. */
static int lt_custom_split(const char *line, size_t len,
			   struct lt_custom_tok *toks, struct lt_custom_err *err)
{
	struct lt_custom_tok bad;
	size_t i = 0, start;
	int n = 0;

	while (i < len) {
		if (line[i] == ' ' || line[i] == '\t') {
			i++;
			continue;
		}
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t') {
			if (line[i] < '!' || line[i] > '~') {
				bad.s = line + i;
				bad.len = 1;
				lt_custom_fail(err, -EINVAL, &bad,
					       "a byte that is not printable ASCII");
				return -1;
			}
			i++;
		}
		if (n == LT_CUSTOM_TOKENS_MAX) {
			bad.s = line + start;
			bad.len = i - start;
			lt_custom_fail(err, -EINVAL, &bad, "too many fields");
			return -1;
		}
		toks[n].s = line + start;
		toks[n].len = i - start;
		n++;
	}
	return n;
}

/* A field's value into @def; NULL, or why it is not one. */
static const char *lt_custom_value(struct lt_custom_def *def,
				   enum lt_custom_field field,
				   const char *v, size_t len)
{
	u64 n;

	switch (field) {
	case LT_CF_FN:
		def->fn = true;
		def->in.kind = LT_CUSTOM_KPROBE;
		def->out.kind = LT_CUSTOM_KRETPROBE;
		if (!lt_custom_func(v, len, def->in.func))
			return "not a function name";
		memcpy(def->out.func, def->in.func, sizeof(def->out.func));
		return NULL;
	case LT_CF_IN:
		return lt_custom_probe(v, len, &def->in);
	case LT_CF_OUT:
		return lt_custom_probe(v, len, &def->out);
	case LT_CF_KEY:
		if (!lt_custom_key(v, len, &def->in_key))
			return "not a key (tid, tgid, argN, argN+OFF, ret)";
		def->out_key = def->in_key;
		return NULL;
	case LT_CF_IN_KEY:
		return lt_custom_key(v, len, &def->in_key) ? NULL :
		       "not a key (tid, tgid, argN, argN+OFF, ret)";
	case LT_CF_OUT_KEY:
		return lt_custom_key(v, len, &def->out_key) ? NULL :
		       "not a key (tid, tgid, argN, argN+OFF, ret)";
	case LT_CF_THRESHOLD:
		return latency_tracker_parse_u64(v, len, 1, LT_CUSTOM_THRESHOLD_MAX,
				    &def->threshold_ns) ?
		       "not a decimal of 1..1000000000000 (ns)" : NULL;
	case LT_CF_TIMEOUT:
		if (latency_tracker_parse_u64(v, len, 0, LT_CUSTOM_TIMEOUT_MAX, &n) ||
		    (n && n < LT_CUSTOM_TIMEOUT_MIN))
			return "not 0 or a decimal of 1000000..1000000000000 (ns)";
		def->timeout_ns = n;
		return NULL;
	case LT_CF_MAX_EVENTS:
		if (latency_tracker_parse_u64(v, len, 1, LT_CUSTOM_MAX_EVENTS_MAX, &n))
			return "not a decimal of 1..4194304";
		def->max_events = n;
		return NULL;
	case LT_CF_STACK:
		if (latency_tracker_parse_u64(v, len, 0, 1, &n))
			return "not 0 or 1";
		def->stack = n;
		return NULL;
	default:
		return "unknown field";
	}
}

/*
 * The fields of a definition (every token after NAME) into @def, then
 * their combination.
 */
static int lt_custom_fields_parse(const struct lt_custom_tok *toks, int n,
				  struct lt_custom_def *def,
				  struct lt_custom_err *err)
{
	const struct lt_custom_tok *seen[LT_CF_NR] = { NULL };
	const struct lt_custom_tok *t, *key;
	const char *eq, *why;
	unsigned int f;
	int i;

	for (i = def->app ? 2 : 1; i < n; i++) {
		t = &toks[i];
		eq = memchr(t->s, '=', t->len);
		if (!eq)
			return lt_custom_fail(err, -EINVAL, t,
					      "not a field (FIELD=VALUE)");
		for (f = 0; f < LT_CF_NR; f++)
			if (lt_custom_is(t->s, eq - t->s, lt_custom_fields[f]))
				break;
		if (f == LT_CF_NR)
			return lt_custom_fail(err, -EINVAL, t, "unknown field");
		if (seen[f])
			return lt_custom_fail(err, -EINVAL, t, "given twice");
		if (def->app && f != LT_CF_THRESHOLD && f != LT_CF_TIMEOUT &&
		    f != LT_CF_MAX_EVENTS)
			return lt_custom_fail(err, -EINVAL, t,
					      "cannot go with app");
		seen[f] = t;
		why = lt_custom_value(def, f, eq + 1, t->len - (eq + 1 - t->s));
		if (why)
			return lt_custom_fail(err, -EINVAL, t, why);
	}

	if (def->app)
		return 0;
	if (seen[LT_CF_FN]) {
		for (f = LT_CF_IN; f <= LT_CF_OUT_KEY; f++)
			if (f != LT_CF_KEY && seen[f])
				return lt_custom_fail(err, -EINVAL, seen[f],
						      "cannot go with fn=");
		if (!lt_custom_key_is_task(&def->in_key))
			return lt_custom_fail(err, -EINVAL, seen[LT_CF_KEY],
					      "fn= takes key=tid or key=tgid");
		return 0;
	}
	if (!seen[LT_CF_IN] || !seen[LT_CF_OUT])
		return lt_custom_fail(err, -EINVAL, NULL,
				      seen[LT_CF_IN] ? "out= missing" :
				      "fn= or in= missing");
	if (seen[LT_CF_KEY] && (seen[LT_CF_IN_KEY] || seen[LT_CF_OUT_KEY]))
		return lt_custom_fail(err, -EINVAL,
				      seen[LT_CF_IN_KEY] ?: seen[LT_CF_OUT_KEY],
				      "cannot go with key=");
	if (!seen[LT_CF_KEY]) {
		if (!seen[LT_CF_IN_KEY] && !seen[LT_CF_OUT_KEY])
			return lt_custom_fail(err, -EINVAL, NULL,
					      "key= (or in_key= and out_key=) missing");
		if (!seen[LT_CF_IN_KEY] || !seen[LT_CF_OUT_KEY])
			return lt_custom_fail(err, -EINVAL, NULL,
					      seen[LT_CF_IN_KEY] ?
					      "out_key= missing" :
					      "in_key= missing");
	}
	key = seen[LT_CF_KEY] ?: seen[LT_CF_IN_KEY];
	why = lt_custom_key_fits(&def->in_key, &def->in);
	if (why)
		return lt_custom_fail(err, -EINVAL, key, why);
	key = seen[LT_CF_KEY] ?: seen[LT_CF_OUT_KEY];
	why = lt_custom_key_fits(&def->out_key, &def->out);
	if (why)
		return lt_custom_fail(err, -EINVAL, key, why);
	return 0;
}

/**
 * lt_custom_parse() - parse one line written to /proc/latency_tracker/custom
 *	or /proc/latency_tracker/app
 * @line: the line (need not be NUL-terminated).
 * @len: its length, a trailing newline included.
 * @cmd: receives the command.  On error, @cmd->op is LT_CUSTOM_DEL for
 *	a del line (LT_CUSTOM_ADD otherwise) and @cmd->def.app tells whether
 *	the line's second token is app (an application tracker's line); the
 *	rest is undefined.
 * @err: receives the reason of a refusal.
 *
 * Context: any context; nothing is allocated.
 * Return: 0; -EINVAL for a line that does not follow the grammar of
 * custom_def.h (@err names the token at fault, or the field missing);
 * -EEXIST for a definition whose NAME is reserved (lt_custom_name_reserved()).
 */
int lt_custom_parse(const char *line, size_t len, struct lt_custom_cmd *cmd,
		    struct lt_custom_err *err)
{
	struct lt_custom_tok toks[LT_CUSTOM_TOKENS_MAX];
	struct lt_custom_def *def = &cmd->def;
	int n, ret;

	memset(cmd, 0, sizeof(*cmd));
	if (len > LT_CUSTOM_LINE_MAX)
		return lt_custom_fail(err, -EINVAL, NULL,
				      "line longer than 1024 bytes");
	if (len && line[len - 1] == '\n')
		len--;
	n = lt_custom_split(line, len, toks, err);
	if (n < 0)
		return -EINVAL;
	if (!n)
		return lt_custom_fail(err, -EINVAL, NULL, "empty line");

	if (lt_custom_is(toks[0].s, toks[0].len, "del") &&
	    (n < 2 || !memchr(toks[1].s, '=', toks[1].len))) {
		cmd->op = LT_CUSTOM_DEL;
		if (n < 2)
			return lt_custom_fail(err, -EINVAL, &toks[0],
					      "NAME missing");
		if (n > 2)
			return lt_custom_fail(err, -EINVAL, &toks[2],
					      "del takes one NAME");
		if (!lt_custom_name_ok(toks[1].s, toks[1].len))
			return lt_custom_fail(err, -EINVAL, &toks[1],
					      "not a NAME ([a-z][a-z0-9_]{0,31})");
		memcpy(def->name, toks[1].s, toks[1].len);
		return 0;
	}

	cmd->op = LT_CUSTOM_ADD;
	def->app = n > 1 && lt_custom_is(toks[1].s, toks[1].len, "app");
	if (!lt_custom_name_ok(toks[0].s, toks[0].len))
		return lt_custom_fail(err, -EINVAL, &toks[0],
				      "not a NAME ([a-z][a-z0-9_]{0,31})");
	memcpy(def->name, toks[0].s, toks[0].len);
	def->threshold_ns = def->app ? LT_CUSTOM_APP_THRESHOLD_DEFAULT :
				       LT_CUSTOM_THRESHOLD_DEFAULT;
	def->max_events = def->app ? LT_CUSTOM_APP_MAX_EVENTS_DEFAULT :
				     LT_CUSTOM_MAX_EVENTS_DEFAULT;
	ret = lt_custom_fields_parse(toks, n, def, err);
	if (ret)
		return ret;
	if (lt_custom_name_reserved(def->name))
		return lt_custom_fail(err, -EEXIST, &toks[0], "a reserved name");
	return 0;
}

/**
 * lt_custom_name_reserved() - whether a tracker name is reserved
 * @name: the name.
 *
 * Context: any context.
 * Return: true for the names of the contract's trackers (present and
 * future) and of the files of /proc/latency_tracker/.
 */
bool lt_custom_name_reserved(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lt_custom_reserved); i++)
		if (!strcmp(name, lt_custom_reserved[i]))
			return true;
	return false;
}

/**
 * lt_custom_name_valid() - whether a string is a NAME
 * @name: a NUL-terminated string.
 *
 * Context: any context.
 * Return: true when @name follows [a-z][a-z0-9_]{0,31} (reserved or not).
 */
bool lt_custom_name_valid(const char *name)
{
	return lt_custom_name_ok(name, strnlen(name, LT_CUSTOM_NAME_MAX + 1));
}

/* The canonical form is built with these; past @size only counted. */
struct lt_custom_out {
	char *buf;
	size_t size;
	size_t len;
};

static void lt_custom_put(struct lt_custom_out *o, const char *s)
{
	for (; *s; s++, o->len++)
		if (o->len + 1 < o->size)
			o->buf[o->len] = *s;
}

static void lt_custom_put_u64(struct lt_custom_out *o, u64 v)
{
	char digits[24];
	unsigned int n = sizeof(digits) - 1;

	digits[n] = '\0';
	do {
		digits[--n] = '0' + (char)(v % 10);
		v /= 10;
	} while (v);
	lt_custom_put(o, digits + n);
}

static void lt_custom_put_end(struct lt_custom_out *o,
			      const struct lt_custom_end_def *end)
{
	switch (end->kind) {
	case LT_CUSTOM_KPROBE:
		lt_custom_put(o, "kprobe:");
		lt_custom_put(o, end->func);
		break;
	case LT_CUSTOM_KRETPROBE:
		lt_custom_put(o, "kretprobe:");
		lt_custom_put(o, end->func);
		break;
	case LT_CUSTOM_TP:
		lt_custom_put(o, "tp:");
		lt_custom_put(o, end->system);
		lt_custom_put(o, ":");
		lt_custom_put(o, end->event);
		break;
	}
}

static void lt_custom_put_key(struct lt_custom_out *o,
			      const struct lt_custom_key *key)
{
	switch (key->kind) {
	case LT_CUSTOM_KEY_TID:
		lt_custom_put(o, "tid");
		break;
	case LT_CUSTOM_KEY_TGID:
		lt_custom_put(o, "tgid");
		break;
	case LT_CUSTOM_KEY_RET:
		lt_custom_put(o, "ret");
		break;
	case LT_CUSTOM_KEY_ARG:
	case LT_CUSTOM_KEY_ARG_MEM:
		lt_custom_put(o, "arg");
		lt_custom_put_u64(o, key->arg);
		if (key->kind == LT_CUSTOM_KEY_ARG)
			break;
		lt_custom_put(o, "+");
		lt_custom_put_u64(o, key->off);
		break;
	}
}

static bool lt_custom_same_key(const struct lt_custom_key *a,
			       const struct lt_custom_key *b)
{
	return a->kind == b->kind && a->arg == b->arg && a->off == b->off;
}

/**
 * lt_custom_format() - the canonical form of a definition
 * @def: a definition, as lt_custom_parse() gives (or made alike).
 * @buf: receives the line, with its newline, NUL-terminated (truncated
 *	to @size - 1 bytes if it does not fit).
 * @size: size of @buf.
 *
 * The canonical form gives every field (custom_def.h); parsed again, it
 * gives @def back.
 *
 * Context: any context.
 * Return: the length of the whole line (as snprintf() counts).
 */
size_t lt_custom_format(const struct lt_custom_def *def, char *buf,
			size_t size)
{
	struct lt_custom_out o = { .buf = buf, .size = size };

	lt_custom_put(&o, def->name);
	if (def->app) {
		lt_custom_put(&o, " app threshold=");
		lt_custom_put_u64(&o, def->threshold_ns);
		lt_custom_put(&o, " timeout=");
		lt_custom_put_u64(&o, def->timeout_ns);
		lt_custom_put(&o, " max_events=");
		lt_custom_put_u64(&o, def->max_events);
		lt_custom_put(&o, "\n");
		goto out;
	}
	if (def->fn) {
		lt_custom_put(&o, " fn=");
		lt_custom_put(&o, def->in.func);
	} else {
		lt_custom_put(&o, " in=");
		lt_custom_put_end(&o, &def->in);
		lt_custom_put(&o, " out=");
		lt_custom_put_end(&o, &def->out);
	}
	if (def->fn || lt_custom_same_key(&def->in_key, &def->out_key)) {
		lt_custom_put(&o, " key=");
		lt_custom_put_key(&o, &def->in_key);
	} else {
		lt_custom_put(&o, " in_key=");
		lt_custom_put_key(&o, &def->in_key);
		lt_custom_put(&o, " out_key=");
		lt_custom_put_key(&o, &def->out_key);
	}
	lt_custom_put(&o, " threshold=");
	lt_custom_put_u64(&o, def->threshold_ns);
	lt_custom_put(&o, " timeout=");
	lt_custom_put_u64(&o, def->timeout_ns);
	lt_custom_put(&o, " max_events=");
	lt_custom_put_u64(&o, def->max_events);
	lt_custom_put(&o, def->stack ? " stack=1\n" : " stack=0\n");
out:
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}
