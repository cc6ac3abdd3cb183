// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_flamesvg.c - folded stacks drawn as an interactive SVG flame graph
 * (see lt_flamesvg.h).  The frames are laid out here (the sorted folded
 * lines give each frame's lines contiguously); the script only moves and
 * relabels them when zooming, and colours them when searching.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt_flamesvg.h"
#include "lt_num.h"
#include "lt_xml.h"

#define PAD		10	/* left and right margins */
#define FRAME_H		16
#define FONT		12
#define CHAR_W		(FONT * 0.59)	/* a guess of a Verdana character */
#define TOP		70	/* title, subtitle, buttons */
#define BOTTOM		34	/* the details line */

struct node {
	const char *name;
	size_t len;
	uint64_t x, w;		/* in weight (ns) from the left */
	int depth;
	bool waker;		/* above a "--" frame (offwake's waker) */
};

struct nodes {
	struct node *v;
	size_t n, cap;
	int maxdepth;
};

static int push(struct nodes *ns, const struct node *nd)
{
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? 2 * ns->cap : 256;
		struct node *v = realloc(ns->v, cap * sizeof(*v));

		if (!v)
			return -1;
		ns->v = v;
		ns->cap = cap;
	}
	ns->v[ns->n++] = *nd;
	if (nd->depth > ns->maxdepth)
		ns->maxdepth = nd->depth;
	return 0;
}

static bool named(const struct node *nd, const char *s)
{
	return nd->len == strlen(s) && !memcmp(nd->name, s, nd->len);
}

/*
 * The frames of every line; a frame is one node for all the consecutive
 * lines that share the path to it.  open[d] is the node being built at
 * depth d (1 = the first frame); it is closed when a line leaves it.
 */
static int layout(const struct lt_folded *f, struct nodes *ns)
{
	struct node *open = NULL, root = { "all", 3, 0, f->total, 0, false };
	size_t nopen = 0, cap = 0;
	uint64_t x = 0;
	int ret = -1;

	for (size_t i = 0; i < f->n; i++) {
		const char *p = f->v[i].stack;
		size_t d = 0;

		for (;; d++) {
			const char *end = strchr(p, ';');
			size_t len = end ? (size_t)(end - p) : strlen(p);

			if (d < nopen && (open[d].len != len ||
					  memcmp(open[d].name, p, len))) {
				/* Another frame: close this one and above. */
				for (size_t k = nopen; k-- > d;)
					if (push(ns, &open[k]))
						goto out;
				nopen = d;
			}
			if (d == nopen) {
				if (nopen == cap) {
					size_t c = cap ? 2 * cap : 64;
					struct node *v = realloc(open, c * sizeof(*v));

					if (!v)
						goto out;
					open = v;
					cap = c;
				}
				open[nopen] = (struct node){ p, len, x, 0,
							     (int)d + 1, false };
				if (d)
					open[d].waker = open[d - 1].waker ||
						named(&open[d - 1], "--");
				nopen++;
			}
			open[d].w += f->v[i].weight;
			if (!end)
				break;
			p = end + 1;
		}
		/* Deeper frames of the previous line end here. */
		for (size_t k = nopen; k-- > d + 1;)
			if (push(ns, &open[k]))
				goto out;
		if (nopen > d + 1)
			nopen = d + 1;
		x += f->v[i].weight;
	}
	for (size_t k = nopen; k-- > 0;)
		if (push(ns, &open[k]))
			goto out;
	ret = push(ns, &root);
out:
	free(open);
	return ret;
}

/* FNV-1a of the name: the same frame has the same colour everywhere. */
static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static bool contains(const struct node *nd, const char *s)
{
	return memmem(nd->name, nd->len, s, strlen(s)) != NULL;
}

/*
 * Warm colours for kernel frames, green for user frames (build_id+0xoff:
 * no '/'), blue for the process names and the wakers (above "--"), grey
 * for the root, the separator and unknown frames.
 */
static void colour(FILE *out, const struct node *nd, bool waker_side)
{
	uint32_t h = hash(nd->name, nd->len);
	unsigned v1 = h & 0xff, v2 = (h >> 8) & 0xff, v3 = (h >> 16) & 0xff;
	unsigned r, g, b;

	if (!nd->depth || named(nd, "--") || named(nd, "?") ||
	    (nd->len && nd->name[0] == '[')) {
		r = g = b = 160 + v1 % 40;
	} else if (nd->depth == 1 || waker_side) {
		r = 80 + v1 % 60;
		g = 140 + v2 % 60;
		b = 200 + v3 % 55;
	} else if (contains(nd, "+0x") && !memchr(nd->name, '/', nd->len)) {
		r = 90 + v1 % 60;
		g = 190 + v2 % 55;
		b = 60 + v3 % 60;
	} else {
		r = 205 + v1 % 50;
		g = v2 * 230 / 255;
		b = v3 * 55 / 255;
	}
	fprintf(out, "rgb(%u,%u,%u)", r, g, b);
}

/* The label of a frame w pixels wide: the name, cut with "..", or none. */
static void label(FILE *out, const struct node *nd, double w)
{
	double fit = (w - 3) / CHAR_W;
	size_t cut, n = lt_xml_chars(nd->name, nd->len, fit > 2 ? (size_t)fit - 2 : 0,
				     &cut);

	if (fit < 3)
		return;
	if ((double)n <= fit) {
		lt_xml_str(out, nd->name, nd->len);
		return;
	}
	lt_xml_str(out, nd->name, cut);
	fputs("..", out);
}

static const char css[] =
	"text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}\n"
	"#title{font-size:17px}\n"
	"#subtitle{fill:#444}\n"
	".btn{cursor:pointer;fill:#224;text-decoration:underline}\n"
	".hide{display:none}\n"
	"g.fr{cursor:pointer}\n"
	"g.fr:hover rect{stroke:#000;stroke-width:0.5}\n"
	"g.fr text{pointer-events:none}\n"
	"g.parent{opacity:0.5}\n"
	"g.match rect{fill:rgb(230,0,230)}\n";

/*
 * The script: the frames carry their place in weight units (data-x,
 * data-w), depth (data-d) and name (data-n).  Written for this file, in
 * the manner of FlameGraph's flamegraph.pl (zoom, search) but not from it.
 */
static const char script[] =
	"'use strict';\n"
	"var root, frames = [], W, PAD, CW, inner, total, details, matched, resetbtn;\n"
	"var term = null;\n"
	"function $(id) { return document.getElementById(id); }\n"
	"function fmt(ns) {\n"
	"  var units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'us']];\n"
	"  for (var i = 0; i < units.length; i++) {\n"
	"    if (ns >= units[i][0]) {\n"
	"      var v = ns / units[i][0];\n"
	"      return v.toFixed(v >= 100 ? 1 : v >= 10 ? 2 : 3) + units[i][1];\n"
	"    }\n"
	"  }\n"
	"  return Math.round(ns) + 'ns';\n"
	"}\n"
	"function share(w) { return total > 0 ? (100 * w / total).toFixed(2) + '%' : '0%'; }\n"
	"function describe(g) { return g.fn + ' (' + fmt(g.fw) + ', ' + share(g.fw) + ')'; }\n"
	"function label(g, w) {\n"
	"  var fit = Math.floor((w - 3) / CW);\n"
	"  var t = g.querySelector('text'), n = Array.from(g.fn);\n"
	"  t.textContent = fit < 3 ? '' : n.length <= fit ? g.fn : n.slice(0, fit - 2).join('') + '..';\n"
	"}\n"
	"function place(g, x, w) {\n"
	"  var r = g.querySelector('rect');\n"
	"  r.setAttribute('x', x.toFixed(2));\n"
	"  r.setAttribute('width', w.toFixed(2));\n"
	"  g.querySelector('text').setAttribute('x', (x + 3).toFixed(2));\n"
	"  label(g, w);\n"
	"}\n"
	"function zoom(z) {\n"
	"  frames.forEach(function (f) {\n"
	"    var inside = f.fd >= z.fd && f.fx >= z.fx && f.fx + f.fw <= z.fx + z.fw;\n"
	"    var parent = f.fd < z.fd && f.fx <= z.fx && f.fx + f.fw >= z.fx + z.fw;\n"
	"    f.classList.toggle('hide', !inside && !parent);\n"
	"    f.classList.toggle('parent', parent);\n"
	"    if (parent) place(f, PAD, inner);\n"
	"    else if (inside) place(f, PAD + (f.fx - z.fx) / z.fw * inner, f.fw / z.fw * inner);\n"
	"  });\n"
	"  resetbtn.classList.remove('hide');\n"
	"}\n"
	"function unzoom() {\n"
	"  frames.forEach(function (f) {\n"
	"    f.classList.remove('hide', 'parent');\n"
	"    place(f, PAD + f.fx / total * inner, f.fw / total * inner);\n"
	"  });\n"
	"  resetbtn.classList.add('hide');\n"
	"}\n"
	"function search(t) {\n"
	"  var re, hits = [], sum = 0, end = -1;\n"
	"  try { re = new RegExp(t); }\n"
	"  catch (e) { re = new RegExp(t.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&')); }\n"
	"  term = t;\n"
	"  frames.forEach(function (f) {\n"
	"    var m = re.test(f.fn);\n"
	"    f.classList.toggle('match', m);\n"
	"    if (m) hits.push(f);\n"
	"  });\n"
	"  hits.sort(function (a, b) { return a.fx - b.fx || a.fd - b.fd; });\n"
	"  hits.forEach(function (h) {\n"
	"    if (h.fx >= end) { sum += h.fw; end = h.fx + h.fw; }\n"
	"  });\n"
	"  matched.textContent = 'Matched: ' + share(sum) + ' (' + fmt(sum) + ', ' +\n"
	"    hits.length + ' frame' + (hits.length == 1 ? '' : 's') + ')';\n"
	"  matched.classList.remove('hide');\n"
	"}\n"
	"function clearSearch() {\n"
	"  term = null;\n"
	"  frames.forEach(function (f) { f.classList.remove('match'); });\n"
	"  matched.textContent = '';\n"
	"  matched.classList.add('hide');\n"
	"}\n"
	"function askSearch() {\n"
	"  var t = window.prompt('Search frames (regular expression)', term || '');\n"
	"  if (t) search(t); else if (t !== null) clearSearch();\n"
	"}\n"
	"function init() {\n"
	"  root = document.documentElement;\n"
	"  W = +root.getAttribute('width');\n"
	"  PAD = +root.getAttribute('data-pad');\n"
	"  CW = +root.getAttribute('data-charw');\n"
	"  inner = W - 2 * PAD;\n"
	"  total = +root.getAttribute('data-total');\n"
	"  details = $('details');\n"
	"  matched = $('matched');\n"
	"  resetbtn = $('reset');\n"
	"  frames = Array.from(document.querySelectorAll('g.fr'));\n"
	"  frames.forEach(function (g) {\n"
	"    g.fx = +g.getAttribute('data-x');\n"
	"    g.fw = +g.getAttribute('data-w');\n"
	"    g.fd = +g.getAttribute('data-d');\n"
	"    g.fn = g.getAttribute('data-n');\n"
	"    g.addEventListener('click', function () { zoom(g); });\n"
	"    g.addEventListener('mouseover', function () { details.textContent = describe(g); });\n"
	"    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"  });\n"
	"  resetbtn.addEventListener('click', unzoom);\n"
	"  $('search').addEventListener('click', askSearch);\n"
	"  matched.addEventListener('click', clearSearch);\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key == 'f') { e.preventDefault(); askSearch(); }\n"
	"    else if (e.key == 'Escape') { clearSearch(); unzoom(); }\n"
	"  });\n"
	"}\n"
	"window.addEventListener('load', init);\n";

static void frame(FILE *out, const struct node *nd, uint64_t total,
		  int maxdepth, bool waker_side)
{
	double inner = LT_FLAMESVG_WIDTH - 2 * PAD;
	double x = PAD + (double)nd->x / (double)total * inner;
	double w = (double)nd->w / (double)total * inner;
	int y = TOP + (maxdepth - nd->depth) * FRAME_H;
	char d[32];

	fprintf(out, "<g class=\"fr\" data-x=\"%llu\" data-w=\"%llu\" data-d=\"%d\" data-n=\"",
		(unsigned long long)nd->x, (unsigned long long)nd->w,
		nd->depth);
	lt_xml_str(out, nd->name, nd->len);
	fputs("\"><title>", out);
	lt_xml_str(out, nd->name, nd->len);
	fprintf(out, " (%s, %.2f%%)</title>",
		lt_format_duration_short(nd->w, d, sizeof(d)),
		100.0 * (double)nd->w / (double)total);
	fprintf(out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		x, y, w, FRAME_H - 1);
	colour(out, nd, waker_side);
	fprintf(out, "\"/><text x=\"%.2f\" y=\"%d\">", x + 3, y + FRAME_H - 4);
	label(out, nd, w);
	fputs("</text></g>\n", out);
}

int lt_flamesvg_write(FILE *out, const struct lt_folded *f,
		      const struct lt_flamesvg_opts *o)
{
	struct nodes ns = { 0 };
	double min_w = LT_FLAMESVG_MIN_WIDTH * (double)f->total /
		       (LT_FLAMESVG_WIDTH - 2 * PAD);
	bool waker = f->mode == LT_FOLD_OFFWAKE;
	int height, maxdepth = 0;

	if (layout(f, &ns)) {
		free(ns.v);
		return -1;
	}
	for (size_t i = 0; i < ns.n; i++)
		if (ns.v[i].w && (double)ns.v[i].w >= min_w &&
		    ns.v[i].depth > maxdepth)
			maxdepth = ns.v[i].depth;
	height = TOP + (maxdepth + 1) * FRAME_H + BOTTOM;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-total=\"%llu\" "
		"data-pad=\"%d\" data-charw=\"%.2f\">\n<title>",
		LT_FLAMESVG_WIDTH, height, LT_FLAMESVG_WIDTH, height,
		(unsigned long long)f->total, PAD, CHAR_W);
	lt_xml_cstr(out, o->title);
	fprintf(out, "</title>\n<style>\n%s</style>\n<script><![CDATA[\n%s]]></script>\n",
		css, script);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f4\"/>\n");
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">",
		LT_FLAMESVG_WIDTH / 2);
	lt_xml_cstr(out, o->title);
	fprintf(out, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"44\" text-anchor=\"middle\">",
		LT_FLAMESVG_WIDTH / 2);
	if (o->subtitle)
		lt_xml_cstr(out, o->subtitle);
	fprintf(out, "</text>\n<text id=\"reset\" class=\"btn hide\" x=\"%d\" y=\"62\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"btn\" x=\"%d\" y=\"62\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"matched\" class=\"btn hide\" x=\"%d\" y=\"%d\" text-anchor=\"end\"></text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		PAD, LT_FLAMESVG_WIDTH - PAD, LT_FLAMESVG_WIDTH - PAD,
		height - 12, PAD, height - 12);
	if (!f->n)
		fprintf(out, "<text id=\"empty\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">No record to show</text>\n",
			LT_FLAMESVG_WIDTH / 2, TOP + FRAME_H);
	fputs("<g id=\"frames\">\n", out);
	for (size_t i = 0; i < ns.n && f->total; i++) {
		const struct node *nd = &ns.v[i];

		if (!nd->w || (double)nd->w < min_w)
			continue;
		frame(out, nd, f->total, maxdepth, waker && nd->waker);
	}
	fputs("</g>\n</svg>\n", out);
	free(ns.v);
	return 0;
}
