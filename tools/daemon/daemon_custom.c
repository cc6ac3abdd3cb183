// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon_custom.c - the custom trackers latency-trackerd's configuration
 * declares (custom.NAME = DEFINITION; the contract's "Custom trackers").
 *
 * Each declared tracker is in one state:
 *
 *   pending  to create: not tried yet, latency_tracker_custom not loaded,
 *            or gone since;
 *   owned    created by this daemon and live;
 *   kept     live with the same definition, not created by this daemon:
 *            left alone (never deleted by it);
 *   failed   refused by the kernel, or live with another definition:
 *            logged once, tried again on the next SIGHUP.
 *
 * At start and on SIGHUP (ltd_custom_configure()) the owned trackers the
 * new configuration no longer declares, or declares with another
 * definition, are deleted (a changed one is then created anew), and the
 * pending ones created.  Every second (ltd_custom_tick()) the daemon
 * notices the module unloaded, or an owned or kept tracker gone (both
 * make it pending again: what is created then is the daemon's), and
 * creates what is pending once the module is there, writing the
 * tracker's filters after it.  At exit (ltd_custom_teardown())
 * it deletes what it owns: its configuration is the one place they are
 * declared, and a restart creates them again.  The alerts, snapshots and
 * metrics of custom trackers are those of every tracker: they are found
 * under /proc/latency_tracker like the built-in ones.  Application
 * trackers (`custom.NAME = app ...`) are declared and kept the same way,
 * in latency_tracker_app's file; "the module" is then either module: a
 * tracker whose module is missing stays pending.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"
#include "lt_custom.h"
#include "lt_num.h"
#include "lt_proc.h"

enum ltd_custom_state {
	LTD_CUSTOM_PENDING,
	LTD_CUSTOM_OWNED,
	LTD_CUSTOM_KEPT,
	LTD_CUSTOM_FAILED,
};

struct ltd_custom_entry {
	struct lt_custom_def def;
	enum ltd_custom_state state;
	bool seen;	/* owned or kept: its directory seen by a tick */
};

/* The declared trackers (at most LT_CUSTOM_MAX), in the config's order. */
static struct ltd_custom_entry ltd_custom[LT_CUSTOM_MAX];
static unsigned int ltd_nr_custom;
static const struct ltd_config *ltd_custom_cfg;
/* The module's custom file was there at the last look. */
static bool ltd_custom_module;
/* "not loaded" said since the module was last seen (or the last reload). */
static bool ltd_custom_warned;

/* The definition in the kernel's form, without the name: for the log. */
static const char *kernel_text(const struct lt_custom_def *d, char *buf,
			       size_t size)
{
	char line[LT_CUSTOM_LINE_MAX];
	size_t n = strlen(d->name);

	lt_custom_format(d, LT_CUSTOM_FMT_KERNEL, line, sizeof(line));
	snprintf(buf, size, "%s", line[n] == ' ' ? line + n + 1 : line);
	return buf;
}

/* {"type":"custom","tracker":...,"action":...} and the definition. */
static void log_custom(const struct lt_custom_def *d, const char *action)
{
	char text[LT_CUSTOM_LINE_MAX];

	ltd_log_begin("custom");
	ltd_log_str("tracker", d->name);
	ltd_log_str("action", action);
	ltd_log_str("definition", kernel_text(d, text, sizeof(text)));
}

/* Two declarations alike: the same canonical line. */
static bool same_decl(const struct lt_custom_def *a,
		      const struct lt_custom_def *b)
{
	char la[LT_CUSTOM_LINE_MAX], lb[LT_CUSTOM_LINE_MAX];

	return !strcmp(lt_custom_format(a, LT_CUSTOM_FMT_KERNEL, la, sizeof(la)),
		       lt_custom_format(b, LT_CUSTOM_FMT_KERNEL, lb, sizeof(lb)));
}

/* latency_tracker_custom or latency_tracker_app is there. */
static bool module_loaded(void)
{
	char path[LTD_PATH_MAX], app[LTD_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", lt_proc_root(), LT_CUSTOM_FILE);
	snprintf(app, sizeof(app), "%s/%s", lt_proc_root(), LT_CUSTOM_APP_FILE);
	return !access(path, F_OK) || !access(app, F_OK);
}

static unsigned int count_state(enum ltd_custom_state state)
{
	unsigned int i, n = 0;

	for (i = 0; i < ltd_nr_custom; i++)
		n += ltd_custom[i].state == state;
	return n;
}

static void del_owned(struct ltd_custom_entry *e, const char *reason)
{
	int ret = lt_custom_del(e->def.name);

	log_custom(&e->def, ret ? "delete_failed" : "deleted");
	ltd_log_str("reason", reason);
	if (ret)
		ltd_log_str("error", lt_custom_strerror(ret, true));
	ltd_log_end();
	if (ret && ret != -ENOENT && ret != -ENODEV)
		ltd_counters_of(e->def.name)->errors++;
}

/* Create the pending trackers, given the live ones (listing v[n]). */
static void create_pending(const struct lt_custom_listed *v, int n,
			   bool filters)
{
	unsigned int i;

	for (i = 0; i < ltd_nr_custom; i++) {
		struct ltd_custom_entry *e = &ltd_custom[i];
		const struct lt_custom_listed *live;
		int ret;

		if (e->state != LTD_CUSTOM_PENDING)
			continue;
		live = lt_custom_find(v, n, e->def.name);
		if (live && live->parsed && lt_custom_same(&e->def, &live->def)) {
			e->state = LTD_CUSTOM_KEPT;
			log_custom(&e->def, "kept");
			ltd_log_str("reason", "live with this definition, not created by this daemon: left as it is");
			ltd_log_end();
			continue;
		}
		if (live) {
			e->state = LTD_CUSTOM_FAILED;
			ltd_counters_of(e->def.name)->errors++;
			log_custom(&e->def, "conflict");
			ltd_log_str("live", live->text);
			ltd_log_str("error", "a custom tracker of that name is live with another definition: left as it is (latency-tracker del it, then SIGHUP)");
			ltd_log_end();
			continue;
		}
		ret = lt_custom_add(&e->def);
		if (ret == -ENODEV)
			continue;	/* unloaded meanwhile: still pending */
		if (ret) {
			e->state = LTD_CUSTOM_FAILED;
			ltd_counters_of(e->def.name)->errors++;
			log_custom(&e->def, "failed");
			ltd_log_str("error", lt_custom_strerror(ret, false));
			ltd_log_end();
			continue;
		}
		e->state = LTD_CUSTOM_OWNED;
		log_custom(&e->def, "created");
		ltd_log_end();
		if (filters)
			ltd_filters_apply(ltd_custom_cfg, e->def.name);
	}
}

/*
 * Create what is pending, given the live trackers (v[n], or n -errno as
 * lt_custom_list() returned it): if the module is there, else say so once.
 */
static void try_pending(const struct lt_custom_listed *v, int n, bool filters)
{
	if (!count_state(LTD_CUSTOM_PENDING))
		return;
	if (n == -ENOENT) {
		ltd_custom_module = false;
		if (!ltd_custom_warned)
			ltd_log_msg("warning", "%u custom trackers declared; latency_tracker_custom is not loaded: they are created when it is",
				    count_state(LTD_CUSTOM_PENDING));
		ltd_custom_warned = true;
		return;
	}
	if (n < 0) {
		if (!ltd_custom_warned)
			ltd_log_msg("error", "cannot read %s/%s: %s; retrying",
				    lt_proc_root(), LT_CUSTOM_FILE, strerror(-n));
		ltd_custom_warned = true;
		return;
	}
	ltd_custom_module = true;
	ltd_custom_warned = false;
	create_pending(v, n, filters);
}

static const struct ltd_custom_decl *declared(const struct ltd_config *cfg,
					      const char *name)
{
	for (unsigned int i = 0; i < cfg->nr_custom; i++)
		if (!strcmp(cfg->custom[i].def.name, name))
			return &cfg->custom[i];
	return NULL;
}

/* The app file's group, as app-group says (logged when changed). */
static void app_group_apply(void)
{
	char path[LTD_PATH_MAX], line[32];
	struct stat st;
	long gid;
	int ret;

	if (!ltd_custom_cfg || !ltd_custom_cfg->app_group[0])
		return;
	gid = ltd_app_gid(ltd_custom_cfg->app_group);
	snprintf(path, sizeof(path), "%s/%s", lt_proc_root(), LT_CUSTOM_APP_FILE);
	if (gid < 0 || stat(path, &st) || st.st_gid == (gid_t)gid)
		return;
	/* The module's `group GID` line: no CAP_CHOWN in the sandbox. */
	snprintf(line, sizeof(line), "group %ld", gid);
	ret = lt_proc_root_write(LT_CUSTOM_APP_FILE, line);
	ltd_log_begin("app_group");
	ltd_log_str("file", path);
	ltd_log_str("group", ltd_custom_cfg->app_group);
	if (ret)
		ltd_log_str("error", strerror(-ret));
	ltd_log_end();
}

void ltd_custom_configure(const struct ltd_config *cfg)
{
	struct lt_custom_listed *live = NULL;
	struct ltd_custom_entry *next;
	unsigned int i, j;
	bool loaded = module_loaded();
	int n = -ENOENT;

	next = calloc(LT_CUSTOM_MAX, sizeof(*next));
	if (!next) {
		ltd_log_msg("error", "custom trackers: out of memory");
		return;
	}
	/*
	 * The live ones, read before anything is written: the fake trees
	 * of the tests stand in for the custom file with a FIFO, whose
	 * reader would take the lines written just before.
	 */
	if (cfg->nr_custom)
		n = lt_custom_list(&live);
	/* Owned ones undeclared or declared otherwise: deleted first. */
	for (i = 0; i < ltd_nr_custom; i++) {
		struct ltd_custom_entry *e = &ltd_custom[i];
		const struct ltd_custom_decl *d = declared(cfg, e->def.name);

		if (e->state != LTD_CUSTOM_OWNED || (d && same_decl(&d->def, &e->def)))
			continue;
		if (loaded)
			del_owned(e, d ? "definition changed" : "not in the configuration");
		e->state = LTD_CUSTOM_PENDING;
		/* No longer live (a changed one is then created anew). */
		for (int k = 0; k < n; k++)
			if (!strcmp(live[k].name, e->def.name))
				live[k].name[0] = '\0';
	}
	/* The new declarations; owned ones unchanged stay owned. */
	for (i = 0; i < cfg->nr_custom; i++) {
		next[i].def = cfg->custom[i].def;
		next[i].state = LTD_CUSTOM_PENDING;
		for (j = 0; j < ltd_nr_custom; j++)
			if (ltd_custom[j].state == LTD_CUSTOM_OWNED &&
			    !strcmp(ltd_custom[j].def.name, next[i].def.name))
				next[i] = ltd_custom[j];
	}
	memcpy(ltd_custom, next, LT_CUSTOM_MAX * sizeof(*next));
	free(next);
	ltd_nr_custom = cfg->nr_custom;
	ltd_custom_cfg = cfg;
	ltd_custom_module = loaded;
	ltd_custom_warned = false;
	app_group_apply();
	/* The caller writes every filter after this. */
	try_pending(live, n, false);
	free(live);
}

void ltd_custom_tick(void)
{
	bool loaded;
	unsigned int i;

	app_group_apply();
	if (!ltd_nr_custom)
		return;
	loaded = module_loaded();
	if (!loaded && ltd_custom_module) {
		unsigned int gone = count_state(LTD_CUSTOM_OWNED) +
				    count_state(LTD_CUSTOM_KEPT);

		ltd_log_msg("warning", "latency_tracker_custom was unloaded: %u custom trackers gone; created again when it is loaded",
			    gone);
		ltd_custom_warned = true;
		for (i = 0; i < ltd_nr_custom; i++)
			if (ltd_custom[i].state == LTD_CUSTOM_OWNED ||
			    ltd_custom[i].state == LTD_CUSTOM_KEPT) {
				ltd_custom[i].state = LTD_CUSTOM_PENDING;
				ltd_custom[i].seen = false;
			}
	}
	ltd_custom_module = loaded;
	if (!loaded)
		return;
	/*
	 * One deleted behind the daemon's back (or with the module unloaded
	 * and loaded again within a tick): created again.  Only once its
	 * directory was seen, so that one just created is never taken for
	 * one gone.
	 */
	for (i = 0; i < ltd_nr_custom; i++) {
		struct ltd_custom_entry *e = &ltd_custom[i];

		if (e->state != LTD_CUSTOM_OWNED && e->state != LTD_CUSTOM_KEPT)
			continue;
		if (lt_tracker_exists(e->def.name)) {
			e->seen = true;
			continue;
		}
		if (!e->seen)
			continue;
		e->state = LTD_CUSTOM_PENDING;
		e->seen = false;
		log_custom(&e->def, "gone");
		ltd_log_str("reason", "deleted while the configuration declares it: created again");
		ltd_log_end();
	}
	if (count_state(LTD_CUSTOM_PENDING)) {
		struct lt_custom_listed *live;
		int n = lt_custom_list(&live);

		try_pending(live, n, true);
		free(live);
	}
}

void ltd_custom_teardown(void)
{
	unsigned int i;

	if (!module_loaded())
		return;
	for (i = 0; i < ltd_nr_custom; i++) {
		if (ltd_custom[i].state != LTD_CUSTOM_OWNED)
			continue;
		del_owned(&ltd_custom[i], "exit");
		ltd_custom[i].state = LTD_CUSTOM_PENDING;
	}
}
