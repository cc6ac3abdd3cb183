// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_filter.c - host tests of tools/lib/lt_filter.c: the filters'
 * values as people write them, made into the kernel's notation, and the
 * values refused before the kernel sees them.
 */
#include <string.h>

#include "lt_filter.h"
#include "tap.h"

struct filter_case {
	const char *knob, *in, *out;	/* out NULL: refused */
};

static const struct filter_case cases[] = {
	{ "filter_cgroup", "/sys/fs/cgroup/system.slice/a.service",
	  "/sys/fs/cgroup/system.slice/a.service" },
	{ "filter_cgroup", "system.slice/a.service", "/system.slice/a.service" },
	{ "filter_cgroup", "/", "/" },
	{ "filter_cgroup", "", "" },
	{ "filter_cgroup", "none", "" },
	{ "filter_cgroup", "/a\nb", NULL },
	{ "filter_tgid", "12", "12" },
	{ "filter_tgid", "12 34,56", "12,34,56" },
	{ "filter_tgid", " 12 ,  34 ", "12,34" },
	{ "filter_tgid", "", "" },
	{ "filter_tgid", "none", "" },
	{ "filter_tgid", "0", NULL },
	{ "filter_tgid", "012", NULL },
	{ "filter_tgid", "12x", NULL },
	{ "filter_tgid", "-1", NULL },
	{ "filter_tgid", "99999999", NULL },
	{ "filter_dev", "8:0", "8:0" },
	{ "filter_dev", "8:0 259:1", "8:0,259:1" },
	{ "filter_dev", "/dev/null", NULL },	/* a character device */
	{ "filter_dev", "/nonexistent", NULL },
	{ "filter_dev", "8", NULL },
	{ "filter_dev", "8:", NULL },
	{ "filter_dev", ":0", NULL },
	{ "filter_dev", "8:0:1", NULL },
	{ "kthreads", "on", "1" },
	{ "kthreads", "no", "0" },
	{ "kthreads", "2", NULL },
	{ "threshold", "5", NULL },
};

/* @s with newlines shown as \n, for a one-line description. */
static const char *shown(const char *s)
{
	static char buf[128];
	size_t n = 0;

	for (; *s && n < sizeof(buf) - 3; s++) {
		if (*s == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

int main(void)
{
	char out[256], err[256];
	size_t i;
	int ret;

	tap_plan(29);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct filter_case *c = &cases[i];

		err[0] = '\0';
		strcpy(out, "untouched");
		ret = lt_filter_value(c->knob, c->in, out, sizeof(out), err,
				      sizeof(err));
		if (c->out)
			tap_ok(!ret && !strcmp(out, c->out), "%s '%s' -> '%s' (got '%s' %s)",
			       c->knob, c->in, c->out, out, err);
		else
			tap_ok(ret == -1 && err[0], "%s '%s' refused: %s",
			       c->knob, shown(c->in), err);
	}
	tap_ok(lt_filter_is("filter_dev") && lt_filter_is("kthreads") &&
	       !lt_filter_is("threshold"), "lt_filter_is");
	return tap_done();
}
