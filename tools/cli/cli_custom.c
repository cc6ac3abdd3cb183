// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_custom.c - `latency-tracker add NAME DEFINITION... [--dry-run]` and
 * `latency-tracker del NAME`: custom trackers, defined at run time by a
 * line written to /proc/latency_tracker/custom (tools/lib/lt_custom.h has
 * the grammar).  The definition is checked here first, with human units,
 * and written in the kernel's form (times in ns); bad input changes
 * nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lt_custom.h"
#include "lt_proc.h"

/* NAME and the definition's fields, given as arguments. */
#define CLI_ADD_ARGS	16

/*
 * The exit status of a refusal: the kernel refused the input (an unknown
 * function, a definition it does not take, a name in use) is bad input;
 * the module missing, permission, the 64 trackers are failures.
 */
static int custom_status(int err)
{
	return err == -ENOENT || err == -EINVAL || err == -EEXIST ||
	       err == -E2BIG ? CLI_USAGE : CLI_FAIL;
}

/* "kprobe:f, tp:s:e" or "vfs_fsync": what the kernel could not find. */
static void targets(const struct lt_custom_def *d, char *buf, size_t size)
{
	static const char *const kinds[] = {
		[LT_CUSTOM_KPROBE] = "kprobe", [LT_CUSTOM_KRETPROBE] = "kretprobe",
		[LT_CUSTOM_TP] = "tp",
	};

	if (d->fn)
		snprintf(buf, size, "%s", d->in.target);
	else
		snprintf(buf, size, "%s:%s, %s:%s", kinds[d->in.kind],
			 d->in.target, kinds[d->out.kind], d->out.target);
}

/* Why a name is in use: a custom tracker (with its definition) or another. */
static void in_use(const char *name)
{
	struct lt_custom_listed *v;
	const struct lt_custom_listed *e;
	int n = lt_custom_list(&v);

	e = n > 0 ? lt_custom_find(v, n, name) : NULL;
	if (e)
		cli_err("cannot add %s: a custom tracker of that name exists already (%s): latency-tracker del %s first",
			name, e->text, name);
	else if (lt_tracker_exists(name))
		cli_err("cannot add %s: a tracker of that name is loaded (not a custom one)",
			name);
	else
		cli_err("cannot add %s: %s", name, lt_custom_strerror(-EEXIST, false));
	free(v);
}

static void add_failed(const struct lt_custom_def *d, int err)
{
	char what[2 * LT_CUSTOM_FUNC_MAX + 32];

	switch (err) {
	case -EEXIST:
		in_use(d->name);
		break;
	case -ENOENT:
		targets(d, what, sizeof(what));
		cli_err("cannot add %s: %s: %s", d->name,
			lt_custom_strerror(err, false), what);
		break;
	case -EINVAL:
		cli_err("cannot add %s: %s: dmesg | tail -n 1", d->name,
			lt_custom_strerror(err, false));
		break;
	default:
		cli_err("cannot add %s: %s", d->name, lt_custom_strerror(err, false));
		break;
	}
}

/* The arguments joined by blanks: "NAME field=value ...". */
static int join(const char **pos, int n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		int w = snprintf(buf + len, size - len, "%s%s", i ? " " : "",
				 pos[i]);

		if (w < 0 || (size_t)w >= size - len)
			return -1;
		len += (size_t)w;
	}
	return 0;
}

int cli_add(int argc, char **argv)
{
	bool dry = false;
	const struct cli_opt opts[] = {
		{ "--dry-run", &dry, NULL },
		{ NULL, NULL, NULL },
	};
	const char *pos[CLI_ADD_ARGS];
	char text[2 * LT_CUSTOM_LINE_MAX], why[512];
	char line[LT_CUSTOM_LINE_MAX], human[LT_CUSTOM_LINE_MAX];
	struct lt_custom_def d;
	int ret, npos;

	ret = cli_args(argc, argv, opts, pos, 1, CLI_ADD_ARGS, &npos);
	if (ret)
		return ret;
	if (join(pos, npos, text, sizeof(text))) {
		cli_err("definition too long");
		return CLI_USAGE;
	}
	if (lt_custom_parse_line(text, &d, why, sizeof(why))) {
		cli_err("%s", why);
		return CLI_USAGE;
	}
	if (!*lt_custom_format(&d, LT_CUSTOM_FMT_KERNEL, line, sizeof(line) - 1)) {
		cli_err("%s", lt_custom_strerror(-E2BIG, false));
		return CLI_USAGE;
	}
	if (dry) {
		printf("%s\n", line);
		return CLI_OK;
	}
	ret = cli_check_access();
	if (ret)
		return ret;
	ret = lt_custom_add(&d);
	if (ret) {
		add_failed(&d, ret);
		return custom_status(ret);
	}
	printf("%s added: %s\n", d.name,
	       lt_custom_format(&d, LT_CUSTOM_FMT_HUMAN, human, sizeof(human)));
	return CLI_OK;
}

/* "a, b" or "none": the custom trackers, for an error message. */
static char *custom_names(char *buf, size_t size)
{
	struct lt_custom_listed *v;
	int n = lt_custom_list(&v);
	size_t len = 0;

	snprintf(buf, size, "none");
	for (int i = 0; i < n; i++) {
		int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				 v[i].name);

		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
	}
	free(v);
	return buf;
}

int cli_del(int argc, char **argv)
{
	const char *name;
	char why[256];
	int ret, npos;

	ret = cli_args(argc, argv, NULL, &name, 1, 1, &npos);
	if (ret)
		return ret;
	if (lt_custom_reserved(name)) {
		cli_err("%s is not a custom tracker (a built-in tracker goes with its module; the name is reserved)",
			name);
		return CLI_USAGE;
	}
	if (lt_custom_name_check(name, why, sizeof(why))) {
		cli_err("%s", why);
		return CLI_USAGE;
	}
	ret = cli_check_access();
	if (ret)
		return ret;
	ret = lt_custom_del(name);
	if (ret == -ENOENT) {
		char names[1024];

		cli_err("cannot delete %s: %s (custom trackers: %s)", name,
			lt_custom_strerror(ret, true),
			custom_names(names, sizeof(names)));
		return CLI_USAGE;
	}
	if (ret) {
		cli_err("cannot delete %s: %s", name, lt_custom_strerror(ret, true));
		return custom_status(ret);
	}
	printf("%s deleted\n", name);
	return CLI_OK;
}
