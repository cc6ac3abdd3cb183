/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_svg.h - DOT to SVG in the process, with Graphviz's libraries
 * (libcgraph reads the DOT text, libgvc lays it out with the dot engine
 * and writes SVG): no `dot` program is run.
 */
#ifndef LT_EX_SVG_H
#define LT_EX_SVG_H

#include <stddef.h>

/*
 * Lay out the DOT text @dot (NUL-terminated) with the dot engine and
 * write it as SVG to @svg.  0 on success; -1 with Graphviz's message (or
 * ours) in @err when the text does not parse, the layout or the rendering
 * fails (the SVG file is then removed).
 */
int ex_svg_render(const char *dot, const char *svg, char *err, size_t errlen);

#endif /* LT_EX_SVG_H */
