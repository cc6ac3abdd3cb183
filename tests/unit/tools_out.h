/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tools_out.h - what the host tests of the tools' outputs share: names
 * with every kind of byte, an alert record value escaped as the kernel
 * does, and the Python check of an output file (check_outputs.py).
 * Needs LT_TOP (the checkout) defined by the build.
 */
#ifndef LT_TOOLS_OUT_H
#define LT_TOOLS_OUT_H

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

#define LEN(a)	(sizeof(a) - 1)

/*
 * Quotes, backslash, newline, control characters, UTF-8, invalid bytes,
 * a truncated sequence, an entity reference, U+2028 (at most 15 bytes: a
 * comm).
 */
static const struct {
	const char *s;
	size_t len;
} names[] = {
	{ "q\"uo\"te", LEN("q\"uo\"te") },
	{ "back\\sl", LEN("back\\sl") },
	{ "new\nline", LEN("new\nline") },
	{ "ctl\x01\x1b\x7f", LEN("ctl\x01\x1b\x7f") },
	{ "caf\xc3\xa9-\xe6\x97\xa5", LEN("caf\xc3\xa9-\xe6\x97\xa5") },
	{ "bad\xff\xfe", LEN("bad\xff\xfe") },
	{ "cut\xe6\x97", LEN("cut\xe6\x97") },
	{ "amp&lt;", LEN("amp&lt;") },
	{ "ls\xe2\x80\xa8", LEN("ls\xe2\x80\xa8") },
};
#define NNAMES	(sizeof(names) / sizeof(names[0]))

/* A value as the kernel writes it in an alert record (design.md). */
static inline void record_escape(char *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < '!' || c > '~' || c == '\\' || c == '=')
			out += sprintf(out, "\\x%02x", c);
		else
			*out++ = (char)c;
	}
	*out = '\0';
}

static inline char *hex_of(const char *s, size_t len)
{
	char *h = malloc(2 * len + 1);

	for (size_t i = 0; i < len; i++)
		sprintf(h + 2 * i, "%02x", (unsigned char)s[i]);
	h[2 * len] = '\0';
	return h;
}

/*
 * check_outputs.py MODE FILE, with the bytes of names[first..first+n)
 * (and of extra, when not NULL) to be found in it: its exit status.
 */
static inline int check_output(const char *mode, const char *file,
			       size_t first, size_t n, const char *extra)
{
	char *argv[NNAMES + 6];
	size_t i, k = 4;
	pid_t pid;
	int st = -1;

	argv[0] = "python3";
	argv[1] = LT_TOP "/tests/unit/check_outputs.py";
	argv[2] = (char *)mode;
	argv[3] = (char *)file;
	for (i = first; i < first + n && i < NNAMES; i++)
		argv[k++] = hex_of(names[i].s, names[i].len);
	if (extra)
		argv[k++] = hex_of(extra, strlen(extra));
	argv[k] = NULL;
	fflush(stdout);
	if (posix_spawnp(&pid, "python3", NULL, NULL, argv, environ) ||
	    waitpid(pid, &st, 0) < 0)
		st = -1;
	for (i = 4; i < k; i++)
		free(argv[i]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif /* LT_TOOLS_OUT_H */
