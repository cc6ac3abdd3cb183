// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_filter.c - the filters' values as the kernel takes them (see
 * lt_filter.h).  The kernel checks everything again (a process that does
 * not exist, a cgroup that does not): here only the notation.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "lt_filter.h"

static const char *const lt_filters[] = {
	"filter_cgroup", "filter_tgid", "filter_dev", "kthreads",
};

bool lt_filter_is(const char *knob)
{
	size_t i;

	for (i = 0; i < sizeof(lt_filters) / sizeof(lt_filters[0]); i++)
		if (!strcmp(knob, lt_filters[i]))
			return true;
	return false;
}

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

/* Appends @s to @out (used: *len); false when it does not fit. */
static bool put(char *out, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > size)
		return false;
	memcpy(out + *len, s, n + 1);
	*len += n;
	return true;
}

/* One item of filter_tgid or filter_dev into @buf (kernel notation). */
static int item(const char *knob, const char *s, size_t n, char *buf,
		size_t size, char *err, size_t errlen)
{
	char path[4096];
	struct stat st;
	size_t i, colon = 0;

	if (!strcmp(knob, "filter_tgid")) {
		for (i = 0; i < n; i++)
			if (!isdigit((unsigned char)s[i]))
				goto bad;
		if (s[0] == '0' || n > 7)
			goto bad;
	} else if (s[0] == '/') {
		/* A block device node: its major:minor. */
		if (n >= sizeof(path))
			goto bad;
		memcpy(path, s, n);
		path[n] = '\0';
		if (stat(path, &st)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		if (!S_ISBLK(st.st_mode)) {
			snprintf(err, errlen, "%s: not a block device", path);
			return -1;
		}
		snprintf(buf, size, "%u:%u", major(st.st_rdev),
			 minor(st.st_rdev));
		return 0;
	} else {
		for (i = 0; i < n; i++) {
			if (s[i] == ':' && !colon && i)
				colon = i;
			else if (!isdigit((unsigned char)s[i]))
				goto bad;
		}
		if (!colon || colon == n - 1)
			goto bad;
	}
	if (n >= size)
		goto bad;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
bad:
	snprintf(err, errlen, "bad %s item '%.*s' (want %s)", knob, (int)n, s,
		 strcmp(knob, "filter_tgid") ? "major:minor or /dev/<disk>" :
		 "a process id");
	return -1;
}

static int list(const char *knob, const char *in, char *out, size_t size,
		char *err, size_t errlen)
{
	char one[64];
	size_t len = 0, n;
	const char *p = in;

	out[0] = '\0';
	if (!strcmp(in, "none") || !strcmp(in, "off"))
		return 0;
	while (*p) {
		while (is_sep(*p))
			p++;
		if (!*p)
			break;
		for (n = 0; p[n] && !is_sep(p[n]); n++)
			;
		if (item(knob, p, n, one, sizeof(one), err, errlen))
			return -1;
		if ((len && !put(out, size, &len, ",")) ||
		    !put(out, size, &len, one)) {
			snprintf(err, errlen, "%s: too long", knob);
			return -1;
		}
		p += n;
	}
	return 0;
}

int lt_filter_value(const char *knob, const char *in, char *out, size_t size,
		    char *err, size_t errlen)
{
	if (!strcmp(knob, "kthreads")) {
		if (!strcmp(in, "1") || !strcmp(in, "on") || !strcmp(in, "yes"))
			in = "1";
		else if (!strcmp(in, "0") || !strcmp(in, "off") ||
			 !strcmp(in, "no"))
			in = "0";
		else {
			snprintf(err, errlen, "bad kthreads '%s' (want 1/0, on/off)", in);
			return -1;
		}
		snprintf(out, size, "%s", in);
		return 0;
	}
	if (!strcmp(knob, "filter_cgroup")) {
		if (!strcmp(in, "none"))
			in = "";
		if (strchr(in, '\n')) {
			snprintf(err, errlen, "a cgroup path is one line");
			return -1;
		}
		/* A path from the cgroup root may omit its leading '/'. */
		int n = snprintf(out, size, "%s%s", *in && *in != '/' ? "/" : "", in);
		if (n < 0 || (size_t)n >= size) {
			snprintf(err, errlen, "cgroup path too long");
			return -1;
		}
		return 0;
	}
	if (!strcmp(knob, "filter_tgid") || !strcmp(knob, "filter_dev"))
		return list(knob, in, out, size, err, errlen);
	snprintf(err, errlen, "'%s' is not a filter", knob);
	return -1;
}
