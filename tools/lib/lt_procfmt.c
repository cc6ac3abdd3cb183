// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_procfmt.c - parsing the stats and histogram files (see lt_procfmt.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lt_num.h"
#include "lt_proc.h"
#include "lt_procfmt.h"

/* Split s at blanks into at most max words; returns their number. */
static size_t words(char *s, char **w, size_t max)
{
	size_t n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = tok;
	}
	return n;
}

/*
 * Call fn on every non-empty line of text (a modified copy); stop at the
 * first line fn refuses and report its number.
 */
static int each_line(const char *text, size_t *line_no,
		     int (*fn)(char *line, void *arg), void *arg)
{
	char *copy = strdup(text), *line;
	size_t no = 0;
	int ret = 0;

	if (!copy)
		return -1;
	line = copy;
	while (line && !ret) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		no++;
		if (*line && fn(line, arg)) {
			*line_no = no;
			ret = -1;
		}
		line = nl ? nl + 1 : NULL;
	}
	free(copy);
	return ret;
}

static int stats_line(char *line, void *arg)
{
	struct lt_stats *s = arg;
	char *w[3];

	if (words(line, w, 2) != 2 || strlen(w[0]) >= LT_STAT_NAME ||
	    s->n == LT_STATS_MAX || lt_parse_u128(w[1], &s->wide[s->n]))
		return -1;
	s->val[s->n] = s->wide[s->n] > UINT64_MAX ? UINT64_MAX :
		       (uint64_t)s->wide[s->n];
	strcpy(s->name[s->n++], w[0]);
	return 0;
}

int lt_stats_parse(const char *text, struct lt_stats *s, size_t *line_no)
{
	memset(s, 0, sizeof(*s));
	return each_line(text, line_no, stats_line, s);
}

static int hist_line(char *line, void *arg)
{
	struct lt_hist *h = arg;
	struct lt_hist_bucket *b;
	char *w[4];

	if (h->n == LT_HIST_MAX || words(line, w, 3) != 3)
		return -1;
	b = &h->b[h->n];
	if (lt_parse_u64(w[0], &b->low) || lt_parse_u64(w[1], &b->high) ||
	    lt_parse_u64(w[2], &b->count) || b->high < b->low)
		return -1;
	h->n++;
	return 0;
}

int lt_hist_parse(const char *text, struct lt_hist *h, size_t *line_no)
{
	memset(h, 0, sizeof(*h));
	return each_line(text, line_no, hist_line, h);
}

static int load(const char *tracker, const char *file,
		int (*parse)(const char *, void *, size_t *), void *out)
{
	char *text = lt_proc_read_file(tracker, file);
	size_t line = 0;
	int ret;

	if (!text)
		return -errno;
	ret = parse(text, out, &line) ? -EPROTO : 0;
	free(text);
	return ret;
}

static int stats_parse_v(const char *t, void *s, size_t *l)
{
	return lt_stats_parse(t, s, l);
}

static int hist_parse_v(const char *t, void *h, size_t *l)
{
	return lt_hist_parse(t, h, l);
}

int lt_stats_load(const char *tracker, struct lt_stats *s)
{
	return load(tracker, "stats", stats_parse_v, s);
}

int lt_hist_load(const char *tracker, struct lt_hist *h)
{
	return load(tracker, "histogram", hist_parse_v, h);
}

uint64_t lt_stat(const struct lt_stats *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return s->val[i];
	return 0;
}

unsigned __int128 lt_stat_u128(const struct lt_stats *s, const char *name,
			       int *found)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->name[i], name)) {
			if (found)
				*found = 1;
			return s->wide[i];
		}
	}
	if (found)
		*found = 0;
	return 0;
}
