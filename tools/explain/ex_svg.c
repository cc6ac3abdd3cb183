// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_svg.c - explain's SVG files (explain-N.svg, lockview.svg,
 * compare.svg) rendered in the process by Graphviz's libraries from the
 * DOT files just written: agmemread() (libcgraph), gvLayout(..., "dot")
 * and gvRenderFilename(..., "svg", ...) (libgvc).  Graphviz's messages
 * are caught (agseterrf) and said once, after what failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gvc.h>

#include "ex_opts.h"
#include "ex_svg.h"

/* Graphviz's error messages of the current rendering, as agerr() writes
 * them (in pieces: "Error", ": ", the message and its newline). */
static char gv_msg[512];

static int gv_err(char *msg)
{
	size_t len = strlen(gv_msg);

	snprintf(gv_msg + len, sizeof(gv_msg) - len, "%s", msg);
	return 0;
}

/* The messages on one line: newlines as "; ", none at the end. */
static void gv_msg_line(void)
{
	size_t n = strlen(gv_msg);

	while (n && (gv_msg[n - 1] == '\n' || gv_msg[n - 1] == ' '))
		gv_msg[--n] = '\0';
	for (char *p = strchr(gv_msg, '\n'); p; p = strchr(p, '\n'))
		*p = ';';
}

static int fail(char *err, size_t errlen, const char *what)
{
	gv_msg_line();
	snprintf(err, errlen, "Graphviz: %s%s%s", what, gv_msg[0] ? ": " : "",
		 gv_msg);
	return -1;
}

/*
 * One Graphviz context for the process, made at the first rendering and
 * freed at exit: Graphviz 2.42's text layout (the pango plugin) keeps
 * the last font name of a context it has freed, and reads it in the
 * next one (a use after free that AddressSanitizer reports).
 */
static GVC_t *gv_ctx;

static void gv_ctx_free(void)
{
	if (gv_ctx)
		gvFreeContext(gv_ctx);
	gv_ctx = NULL;
}

static GVC_t *gv_context(void)
{
	if (!gv_ctx && (gv_ctx = gvContext()))
		atexit(gv_ctx_free);
	return gv_ctx;
}

int ex_svg_render(const char *dot, const char *svg, char *err, size_t errlen)
{
	agusererrf old;
	agerrlevel_t old_level;
	GVC_t *gvc;
	Agraph_t *g;
	int ret = 0;

	gv_msg[0] = '\0';
	old = agseterrf(gv_err);
	old_level = agseterr(AGERR);	/* errors only, no warnings */
	gvc = gv_context();
	if (!gvc) {
		ret = fail(err, errlen, "no context (libgvc)");
		goto out;
	}
	g = agmemread(dot);
	if (!g) {
		ret = fail(err, errlen, "the DOT text does not parse");
	} else if (gvLayout(gvc, g, "dot")) {
		ret = fail(err, errlen, "layout (dot engine) failed");
	} else {
		if (gvRenderFilename(gvc, g, "svg", svg)) {
			ret = fail(err, errlen, "SVG rendering failed");
			unlink(svg);
		}
		gvFreeLayout(gvc, g);
	}
	if (g)
		agclose(g);
out:
	agseterr(old_level);
	agseterrf(old);
	return ret;
}

/* The DOT file into memory (NUL-terminated); NULL with errno. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *p = realloc(buf, cap + 65536);

			if (!p) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = p;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

int ex_render_svg(const char *dot, const char *svg)
{
	char err[768], *text = slurp(dot);
	int ret;

	if (!text) {
		ex_fail("%s: %s", dot, strerror(errno));
		return -1;
	}
	ret = ex_svg_render(text, svg, err, sizeof(err));
	free(text);
	if (ret)
		ex_fail("%s: %s", svg, err);
	return ret;
}
