// SPDX-License-Identifier: GPL-2.0-only
/*
 * proc.c - /proc/latency_tracker/version (the alert record format) and
 * /proc/latency_tracker/<name>/: the knob files (threshold, timeout,
 * wakeup_interval, enable) and the read-only ones (stats, histogram,
 * alerts, whose file operations live with their data).
 *
 * Everything is root-only: the trackers' directories are 0500, knobs 0600,
 * read-only files 0400.  /proc/latency_tracker itself is 0511: anyone may
 * traverse it (not list it), for the one file in it that a non-root user
 * may open, latency_tracker_app's transport (probes/app.c).  Knob writes
 * are parsed strictly (params.c); a refused write returns -EINVAL and
 * leaves the value unchanged.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "core.h"
#include <lt_records/format.h>

#define LT_PROC_ROOT		"latency_tracker"
#define LT_PROC_DIR_MODE	0500
#define LT_PROC_TOP_MODE	0511
#define LT_PROC_RW_MODE		0600
#define LT_PROC_RO_MODE		0400

static struct proc_dir_entry *lt_proc_root;

/*
 * A knob file's proc data is the address of its lt_knob_files entry; the
 * tracker is the data of the parent directory.
 */
struct lt_knob_file {
	enum latency_tracker_param param;
};

static const struct lt_knob_file lt_knob_files[] = {
	{ LATENCY_TRACKER_PARAM_THRESHOLD },
	{ LATENCY_TRACKER_PARAM_TIMEOUT },
	{ LATENCY_TRACKER_PARAM_WAKEUP_INTERVAL },
	{ LATENCY_TRACKER_PARAM_ENABLE },
};

struct lt_knob_open {
	struct latency_tracker *t;
	enum latency_tracker_param param;
};

static int lt_knob_show(struct seq_file *m, void *v)
{
	struct lt_knob_open *k = m->private;

	seq_printf(m, "%llu\n", lt_param_get(k->t, k->param));
	return 0;
}

static int lt_knob_open(struct inode *inode, struct file *file)
{
	const struct lt_knob_file *kf = pde_data(inode);
	struct lt_knob_open *k;
	int ret;

	k = kmalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->t = proc_get_parent_data(inode);
	k->param = kf->param;
	ret = single_open(file, lt_knob_show, k);
	if (ret)
		kfree(k);
	return ret;
}

static int lt_knob_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kfree(m->private);
	return single_release(inode, file);
}

static ssize_t lt_knob_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct lt_knob_open *k = m->private;
	u64 v;
	int ret;

	ret = lt_param_parse(k->param, ubuf, count, &v);
	if (!ret)
		ret = lt_param_set(k->t, k->param, v);
	return ret ? ret : count;
}

static const struct proc_ops lt_knob_proc_ops = {
	.proc_open = lt_knob_open,
	.proc_read = seq_read,
	.proc_write = lt_knob_write,
	.proc_lseek = seq_lseek,
	.proc_release = lt_knob_release,
};

int lt_proc_tracker_add(struct latency_tracker *t)
{
	unsigned int i;

	t->dir = proc_mkdir_data(t->name, LT_PROC_DIR_MODE, lt_proc_root, t);
	if (!t->dir)
		return -EEXIST;	/* the likely cause: the name is taken */
	for (i = 0; i < ARRAY_SIZE(lt_knob_files); i++) {
		const char *name = lt_param_name(lt_knob_files[i].param);

		if (!proc_create_data(name, LT_PROC_RW_MODE, t->dir,
				      &lt_knob_proc_ops,
				      (void *)&lt_knob_files[i]))
			goto fail;
	}
	if (!proc_create_data("stats", LT_PROC_RO_MODE, t->dir,
			      &lt_stats_proc_ops, t) ||
	    !proc_create_data("histogram", LT_PROC_RO_MODE, t->dir,
			      &lt_hist_proc_ops, t) ||
	    !proc_create_data("alerts", LT_PROC_RO_MODE, t->dir,
			      &lt_alerts_proc_ops, t))
		goto fail;
	return 0;
fail:
	proc_remove(t->dir);
	t->dir = NULL;
	return -ENOMEM;
}

/* Waits for running file operations and releases open files. */
void lt_proc_tracker_remove(struct latency_tracker *t)
{
	proc_remove(t->dir);
	t->dir = NULL;
}

/* /proc/latency_tracker/version: the alert record format, for the tools. */
static int lt_version_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", LT_RECORD_FORMAT);
	return 0;
}

int lt_proc_init(void)
{
	lt_proc_root = proc_mkdir_mode(LT_PROC_ROOT, LT_PROC_TOP_MODE, NULL);
	if (!lt_proc_root)
		return -ENOMEM;
	if (!proc_create_single("version", LT_PROC_RO_MODE, lt_proc_root,
				lt_version_show)) {
		proc_remove(lt_proc_root);
		lt_proc_root = NULL;
		return -ENOMEM;
	}
	return 0;
}

void lt_proc_exit(void)
{
	proc_remove(lt_proc_root);
}
