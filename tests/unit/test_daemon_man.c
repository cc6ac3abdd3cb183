// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_daemon_man.c - latency-trackerd.8 against the code: every key of
 * the config parser and every option that is not a key
 * (tools/daemon/daemon_config.c, ltd_config_key_name() and
 * ltd_config_option_name()), every tracker filter (tools/lib/lt_filter.c),
 * every log line type the daemon's sources write (read from the .c files
 * of tools/daemon: the literals given to ltd_log_begin(), ltd_log_msg()
 * and log_start()) and no type they do not, the exit statuses (daemon.h)
 * and every channel, event and context of the snapshot session
 * (session-events.def); and the default each key's entry states; the
 * custom.NAME entry naming every field of a custom tracker's definition
 * (lt_custom.h), and every tracker's alert event, latency_tracker_custom
 * included, enabled by the session.
 *
 * The man page is read with "\-" as "-" and without font escapes; a word
 * counts in a section when it is a token of one of its lines (tokens are
 * split at blanks, quotes, commas, colons and parentheses), and as an
 * entry when it is a token of a .TP tag line (the line after .TP).
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "lt_custom.h"
#include "lt_filter.h"
#include "lt_proc.h"
#include "tap.h"

#define MAN_PATH	LT_TOP "/tools/daemon/latency-trackerd.8"
#define SRC_DIR		LT_TOP "/tools/daemon"
#define MAN_MAX		(128 * 1024)
#define SRC_MAX		(256 * 1024)
#define TYPES_MAX	64

static char man[MAN_MAX];

/* The file into buf, NUL-terminated; its length or -1. */
static long slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n == size - 1 ? -1 : (long)n;
}

/* In place: "\-" -> "-", font escapes (\fB, \fI, \fR, \fP) removed. */
static void unescape(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] == '-') {
			*w++ = '-';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'f' && s[2]) {
			s += 3;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

/* The text of section @name up to the next .SH (a copy), or NULL. */
static char *section(const char *name)
{
	char head[64];
	const char *s, *e;

	snprintf(head, sizeof(head), "\n.SH %s\n", name);
	s = strstr(man, head);
	if (!s)
		return NULL;
	s += strlen(head);
	e = strstr(s, "\n.SH ");
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

/* @word is a token of @line (its macro name, .B etc., is no token). */
static bool line_has(const char *line, size_t len, const char *word)
{
	static const char seps[] = " \t\",:()";
	size_t wl = strlen(word), i = 0;

	if (len && line[0] == '.')
		while (i < len && !strchr(seps, line[i]))
			i++;
	while (i < len) {
		size_t n;

		while (i < len && strchr(seps, line[i]))
			i++;
		n = 0;
		while (i + n < len && !strchr(seps, line[i + n]))
			n++;
		if (n == wl && !memcmp(line + i, word, n))
			return true;
		i += n;
	}
	return false;
}

/* @word in section text @sec: in any line, or only in .TP tag lines. */
static bool sec_has(const char *sec, const char *word, bool tags_only)
{
	bool after_tp = false;
	const char *l = sec;

	while (l && *l) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);

		if ((!tags_only || after_tp) && line_has(l, len, word))
			return true;
		after_tp = len == 3 && !memcmp(l, ".TP", 3);
		l = e ? e + 1 : NULL;
	}
	return false;
}

/* Call fn for every token of every .TP tag line of @sec. */
static void each_tag(const char *sec, void (*fn)(const char *tok, void *arg),
		     void *arg)
{
	static const char seps[] = " \t\",:()";
	bool after_tp = false;
	const char *l = sec;

	while (l && *l) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l), i = 0;

		if (after_tp) {
			if (len && l[0] == '.')
				while (i < len && !strchr(seps, l[i]))
					i++;
			while (i < len) {
				char tok[64];
				size_t n = 0;

				while (i < len && strchr(seps, l[i]))
					i++;
				while (i + n < len && !strchr(seps, l[i + n]))
					n++;
				if (n && n < sizeof(tok)) {
					memcpy(tok, l + i, n);
					tok[n] = '\0';
					fn(tok, arg);
				}
				i += n;
			}
		}
		after_tp = len == 3 && !memcmp(l, ".TP", 3);
		l = e ? e + 1 : NULL;
	}
}

/* ---- the log types the daemon's sources write ---- */

struct types {
	char name[TYPES_MAX][32];
	int n;
	bool unreadable;	/* a type given by a variable the scan does not follow */
};

static void type_add(struct types *t, const char *s, size_t n)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (strlen(t->name[i]) == n && !memcmp(t->name[i], s, n))
			return;
	if (n >= sizeof(t->name[0]) || t->n == TYPES_MAX) {
		tap_diag("log type %.*s: no room to keep it", (int)n, s);
		t->unreadable = true;
		return;
	}
	memcpy(t->name[t->n], s, n);
	t->name[t->n++][n] = '\0';
}

static bool type_in(const struct types *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], name))
			return true;
	return false;
}

/*
 * The log line types are the literals passed to ltd_log_begin() and to
 * the two functions that pass their argument on to it: ltd_log_msg()
 * (its first argument, the level) and log_start() in daemon_main.c (its
 * second, start or reload).  An ltd_log_begin() of anything else (a new
 * forwarder) is reported: the scan would miss its types.
 */
static const struct {
	const char *fn;		/* called as fn( */
	int arg;		/* which argument is the type, from 0 */
	const char *param;	/* the forwarder's own parameter, or NULL */
} log_calls[] = {
	{ "ltd_log_begin", 0, NULL },
	{ "ltd_log_msg", 0, "level" },
	{ "log_start", 1, "type" },
};

/* The forwarders' parameters, passed on to ltd_log_begin(). */
static bool forwarded(const char *arg, size_t n)
{
	for (size_t i = 0; i < sizeof(log_calls) / sizeof(log_calls[0]); i++)
		if (log_calls[i].param && strlen(log_calls[i].param) == n &&
		    !memcmp(log_calls[i].param, arg, n))
			return true;
	return false;
}

static void scan_call(struct types *t, const char *file, const char *p,
		      int want)
{
	const char *arg = p, *lit = NULL;
	int depth = 0, argno = 0;
	bool any = false;

	for (; *p; p++) {
		if (*p == '"') {
			lit = ++p;
			while (*p && *p != '"')
				p += *p == '\\' && p[1] ? 2 : 1;
			if (argno == want) {
				type_add(t, lit, p - lit);
				any = true;
			}
			continue;
		}
		if (*p == '(') {
			depth++;
		} else if (*p == ')' && depth-- == 0) {
			break;
		} else if (*p == ',' && !depth) {
			if (argno++ == want)
				break;
			arg = p + 1;
		}
	}
	if (any || argno < want)
		return;
	while (*arg == ' ')
		arg++;
	/*
	 * A mention in a comment (fn()), a declaration or definition (const
	 * char *type), or a forwarder passing its parameter on.
	 */
	if (*arg == ')' || !strncmp(arg, "const ", 6) ||
	    forwarded(arg, strcspn(arg, ",) ")))
		return;
	tap_diag("%s: a log type the scan cannot read: %.*s", file,
		 (int)strcspn(arg, ")\n"), arg);
	t->unreadable = true;
}

static int scan_sources(struct types *t)
{
	static char src[SRC_MAX];
	DIR *dir = opendir(SRC_DIR);
	struct dirent *de;
	int files = 0;

	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		char path[512];
		size_t nl = strlen(de->d_name);

		if (nl < 3 || strcmp(de->d_name + nl - 2, ".c"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", SRC_DIR, de->d_name);
		if (slurp(path, src, sizeof(src)) < 0) {
			closedir(dir);
			return -1;
		}
		files++;
		for (size_t c = 0; c < sizeof(log_calls) / sizeof(log_calls[0]); c++) {
			const char *fn = log_calls[c].fn;
			size_t fl = strlen(fn);

			for (const char *p = src; (p = strstr(p, fn)); p += fl) {
				char before = p == src ? ' ' : p[-1];

				if (p[fl] != '(' || before == '_' ||
				    (before >= 'a' && before <= 'z') ||
				    (before >= 'A' && before <= 'Z') ||
				    (before >= '0' && before <= '9'))
					continue;
				scan_call(t, de->d_name, p + fl + 1,
					  log_calls[c].arg);
			}
		}
	}
	closedir(dir);
	return files;
}

/* ---- the checks ---- */

static void test_keys_options(const char *opts)
{
	const char *name, *alias;
	bool ok = true, on_off;
	size_t i;

	for (i = 0; (name = ltd_config_key_name(i, &on_off)); i++) {
		if (!sec_has(opts, name, true)) {
			tap_diag("key %s: no entry in OPTIONS", name);
			ok = false;
		}
	}
	tap_ok(ok && i > 0, "every key the parser takes (%zu) has an OPTIONS entry", i);

	ok = true;
	for (i = 0; (name = ltd_config_option_name(i, &alias)); i++) {
		if (!sec_has(opts, name, true) ||
		    (alias && !sec_has(opts, alias, true))) {
			tap_diag("option %s%s%s: no entry in OPTIONS", name,
				 alias ? " or " : "", alias ? alias : "");
			ok = false;
		}
	}
	tap_ok(ok && i > 0, "every option that is not a key (%zu) has an OPTIONS entry", i);

	/* An on/off key's entry says on|off; the --no- form is documented. */
	ok = sec_has(opts, "--no-explain", false);
	for (i = 0; (name = ltd_config_key_name(i, &on_off)); i++) {
		char tag[96];

		snprintf(tag, sizeof(tag), ".TP\n.BI %s \" on|off\"\n", name);
		if (on_off && !strstr(opts, tag)) {
			tap_diag("on/off key %s: its entry is not '%s'", name, tag);
			ok = false;
		}
	}
	tap_ok(ok, "on/off keys: entries say on|off, --no-KEY documented");

	ok = sec_has(opts, "tracker", true);
	for (i = 0; i < lt_nknobs; i++) {
		if (lt_filter_is(lt_knobs[i].name) &&
		    !sec_has(opts, lt_knobs[i].name, false)) {
			tap_diag("filter %s not in OPTIONS", lt_knobs[i].name);
			ok = false;
		}
	}
	tap_ok(ok, "the tracker.filter entry names every filter");

	/* custom.NAME: its entry (to the next .TP) names every field. */
	{
		const char *e = strstr(opts, ".TP\n.BI custom. name ");
		const char *end = e ? strstr(e + 4, "\n.TP\n") : NULL;
		char *entry = e ? strndup(e, end ? (size_t)(end - e) : strlen(e)) : NULL;

		ok = entry != NULL;
		for (i = 0; entry && lt_custom_field_name(i); i++) {
			char field[32];

			snprintf(field, sizeof(field), "%s=", lt_custom_field_name(i));
			if (!strstr(entry, field)) {
				tap_diag("custom.name entry: no %s", field);
				ok = false;
			}
		}
		tap_ok(ok, "the custom.name entry names every field of a definition");
		free(entry);
	}
}

/*
 * The value after "(default " in key i's entry (a macro line's name
 * skipped: "(default\n.IR /var/lib/..."), into buf; "" when the entry
 * states none ("(default: all)" or no default).
 */
static void entry_default(const char *opts, const char *key, char *buf,
			  size_t size)
{
	char head[96];
	const char *e, *end, *d;
	size_t n;

	buf[0] = '\0';
	snprintf(head, sizeof(head), ".TP\n.BI %s ", key);
	e = strstr(opts, head);
	if (!e)
		return;
	e += strlen(head);
	end = strstr(e, "\n.TP\n");
	d = strstr(e, "(default");
	if (!d || (end && d > end))
		return;
	d += strlen("(default");
	if (*d != ' ' && *d != '\n')
		return;
	d++;
	if (*d == '.')
		d += strcspn(d, " \n") + 1;
	n = strcspn(d, " ;,)\n");
	if (n < size)
		snprintf(buf, size, "%.*s", (int)n, d);
}

/*
 * Every key's entry states its default ("(default V": the parser given V
 * sets what the code's default is), unless that default is empty.
 */
static void test_defaults(const char *opts)
{
	char *dflt[] = { "d", "--config", "/dev/null" };
	struct ltd_config d, m;
	char err[1024], val[256], arg[300];
	const char *name;
	bool ok, check;
	size_t i;

	if (ltd_config_load(3, dflt, &d, &check, err, sizeof(err))) {
		tap_ok(0, "the defaults load: %s", err);
		return;
	}
	ok = true;
	for (i = 0; (name = ltd_config_key_name(i, NULL)); i++) {
		char *argv[] = { "d", "--config", "/dev/null", arg };

		entry_default(opts, name, val, sizeof(val));
		snprintf(arg, sizeof(arg), "--%s=%s", name, val);
		if (ltd_config_load(4, argv, &m, &check, err, sizeof(err)) ||
		    !ltd_config_key_equal(&d, &m, i)) {
			tap_diag("key %s: the man page's default '%s' is not the code's%s%s",
				 name, val, err[0] ? ": " : "", err);
			ok = false;
		}
		err[0] = '\0';
	}
	tap_ok(ok, "every key's entry states the code's default");
}

struct tag_check {
	const struct types *types;
	bool ok;
	int n;
};

static void log_tag(const char *tok, void *arg)
{
	struct tag_check *c = arg;

	c->n++;
	if (!type_in(c->types, tok)) {
		tap_diag("LOG entry %s: the daemon writes no such type", tok);
		c->ok = false;
	}
}

static void test_log_types(const char *log)
{
	struct types t = { .n = 0 };
	struct tag_check c = { .types = &t, .ok = true };
	int files = scan_sources(&t);
	bool ok = true;

	tap_ok(files > 0 && !t.unreadable && type_in(&t, "alert") &&
	       type_in(&t, "start") && type_in(&t, "warning"),
	       "log types read from %d sources in tools/daemon: %d", files, t.n);
	for (int i = 0; i < t.n; i++) {
		if (!sec_has(log, t.name[i], true)) {
			tap_diag("log type %s: no entry in LOG", t.name[i]);
			ok = false;
		}
	}
	tap_ok(ok && t.n > 0, "every log type the daemon writes has a LOG entry");
	each_tag(log, log_tag, &c);
	tap_ok(c.ok && c.n > 0, "every LOG entry (%d) is a type the daemon writes", c.n);
}

static void exit_tag(const char *tok, void *arg)
{
	struct tag_check *c = arg;
	char v[3][8];

	snprintf(v[0], sizeof(v[0]), "%d", LTD_EXIT_OK);
	snprintf(v[1], sizeof(v[1]), "%d", LTD_EXIT_FAIL);
	snprintf(v[2], sizeof(v[2]), "%d", LTD_EXIT_CONFIG);
	c->n++;
	if (strcmp(tok, v[0]) && strcmp(tok, v[1]) && strcmp(tok, v[2])) {
		tap_diag("EXIT STATUS %s: not one of daemon.h's", tok);
		c->ok = false;
	}
}

static void test_exit(const char *ex)
{
	struct tag_check c = { .ok = true };
	char tag[32];
	const char *cfg;

	each_tag(ex, exit_tag, &c);
	tap_ok(c.ok && c.n == 3, "EXIT STATUS: exactly daemon.h's three statuses (%d entries)",
	       c.n);
	snprintf(tag, sizeof(tag), ".TP\n.B %d\n", LTD_EXIT_CONFIG);
	cfg = strstr(ex, tag);
	tap_ok(cfg && sec_has(ex, "0", true) && sec_has(ex, "1", true) &&
	       strstr(cfg, "configuration") &&
	       (!strstr(cfg + 1, ".TP") ||
		strstr(cfg, "configuration") < strstr(cfg + 1, ".TP")),
	       "EXIT STATUS: %d is a bad configuration", LTD_EXIT_CONFIG);
}

/* What session-events.def names: its channels, events and contexts. */
static const struct {
	const char *kind, *name;
} session_names[] = {
#define LTD_CHANNEL(n, size, count) { "channel", n },
#define LTD_TRACEPOINT(ch, n) { "event", n },
#define LTD_CONTEXT(t, n) { "context", n },
#include "session-events.def"
};

static void test_session(const char *desc)
{
	bool ok = true;

	for (size_t i = 0; i < sizeof(session_names) / sizeof(session_names[0]); i++) {
		if (!sec_has(desc, session_names[i].name, false)) {
			tap_diag("%s %s not in DESCRIPTION", session_names[i].kind,
				 session_names[i].name);
			ok = false;
		}
	}
	tap_ok(ok, "DESCRIPTION names every channel, event and context of session-events.def");
}

/*
 * Each tracker's alert event (LTTng names them latency_tracker_<event>):
 * enabled by a tracepoint or glob of session-events.def in the sched
 * channel, the custom trackers' one too.
 */
static void test_alert_events(void)
{
	static const char *const events[] = {
		"latency_tracker_wakeup", "latency_tracker_offcpu",
		"latency_tracker_syscall", "latency_tracker_block",
		"latency_tracker_custom",
	};
	static const struct {
		const char *channel, *name;
	} tps[] = {
#define LTD_TRACEPOINT(ch, n) { ch, n },
#include "session-events.def"
	};
	bool ok = true;

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		bool found = false;

		for (size_t j = 0; j < sizeof(tps) / sizeof(tps[0]); j++)
			found |= !strcmp(tps[j].channel, "sched") &&
				 !fnmatch(tps[j].name, events[i], 0);
		if (!found) {
			tap_diag("%s: no event of the session enables it", events[i]);
			ok = false;
		}
	}
	tap_ok(ok, "the session enables every tracker's alert event, latency_tracker_custom included");
}

int main(void)
{
	char *opts, *log, *ex, *desc;
	char th[128];

	tap_ok(slurp(MAN_PATH, man, sizeof(man)) > 0, "read %s", MAN_PATH);
	unescape(man);
	opts = section("OPTIONS");
	log = section("LOG");
	ex = section("EXIT STATUS");
	desc = section("DESCRIPTION");
	snprintf(th, sizeof(th), "\"latency-tracker %s\"", LTD_VERSION);
	tap_ok(opts && log && ex && desc && strstr(man, th) &&
	       strstr(man, LTD_DEFAULT_CONFIG),
	       "sections OPTIONS, LOG, EXIT STATUS, DESCRIPTION; version %s; %s",
	       LTD_VERSION, LTD_DEFAULT_CONFIG);
	if (!opts || !log || !ex || !desc)
		return tap_done();
	test_keys_options(opts);
	test_defaults(opts);
	test_log_types(log);
	test_exit(ex);
	test_session(desc);
	test_alert_events();
	free(opts);
	free(log);
	free(ex);
	free(desc);
	return tap_done();
}
