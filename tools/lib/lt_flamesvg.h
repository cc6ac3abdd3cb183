/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_flamesvg.h - a flame graph of folded stacks (lt_folded.h) as one
 * self-contained, interactive SVG file: no network, its CSS and script
 * inline.
 *
 * One rectangle per frame, the root ("all") at the bottom and each stack
 * growing upwards, its width proportional to the frame's weight (the
 * time of the records under it), its name inside when it fits.  In a
 * browser: hovering a frame shows its name, time (lt_format_duration_short
 * units: "437.2ms") and share of the whole below the graph (and as a
 * tooltip); a click zooms to that frame (its ancestors stay, faded, the
 * rest is hidden) and "Reset Zoom" (or Escape) goes back; "Search" (or
 * Ctrl-F) asks for a regular expression (a plain string when it is not
 * one), highlights the frames whose name matches and shows the share of
 * the whole they cover (a frame under another match counted once);
 * clicking the "Matched" line (or Escape) clears it.  Frame names are
 * escaped with lt_xml.h: the file is well-formed XML and UTF-8 whatever
 * their bytes.
 */
#ifndef LT_FLAMESVG_H
#define LT_FLAMESVG_H

#include <stdio.h>

#include "lt_folded.h"

struct lt_flamesvg_opts {
	const char *title;	/* the heading and the document's <title> */
	const char *subtitle;	/* a line under it, or NULL */
};

/* Frames narrower than this (pixels) are left out, as flamegraph.pl does. */
#define LT_FLAMESVG_MIN_WIDTH	0.1
#define LT_FLAMESVG_WIDTH	1200

/* Returns 0, or -1 when out of memory (nothing written then). */
int lt_flamesvg_write(FILE *out, const struct lt_folded *f,
		      const struct lt_flamesvg_opts *o);

#endif /* LT_FLAMESVG_H */
