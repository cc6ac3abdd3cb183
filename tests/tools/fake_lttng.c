// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake_lttng.c - a stand-in for lttng-sessiond, preloaded (LD_PRELOAD) into
 * latency-trackerd by the host tests (tests/tools/): the liblttng-ctl
 * calls that would talk to a session daemon are answered here, the ones
 * that only build objects (channels, events, snapshot outputs) stay the
 * real library's.
 *
 * Controlled by files in the directory $LT_FAKE_LTTNG, read at each call
 * so a test can change them while the daemon runs:
 *   sessiond        present: the session daemon is "alive"
 *   no-kernel       present: enabling the kernel channel fails (KERN_NA)
 *   snapshot-bytes  size of the stream file a snapshot writes (default
 *                   65536); a write error (ENOSPC) fails the snapshot and
 *                   leaves the partial file, as the consumer daemon does
 * and written:
 *   calls           one line per call: "<function> <argument>"
 *
 * $LT_FAKE_SIGIGN, a list of signal numbers, is read once at load: they
 * are set to SIG_IGN through the system call (glibc refuses 32 and 33), as
 * a parent that ignored them would leave them across exec; the variable
 * is then removed, so the daemon's children start without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <lttng/lttng.h>

#define FAKE_MAX_SESSIONS	8
#define FAKE_DEFAULT_BYTES	65536

struct fake_session {
	char name[LTTNG_NAME_MAX];
	int snapshot, started;
};

static struct fake_session fake_sessions[FAKE_MAX_SESSIONS];
static int fake_nr;

__attribute__((constructor)) static void fake_sigign(void)
{
	const char *list = getenv("LT_FAKE_SIGIGN");
	char *end;
	long sig;
	/* struct sigaction of the kernel (x86-64): handler first */
	unsigned long ksa[4] = { (unsigned long)SIG_IGN, 0, 0, 0 };

	while (list && *list) {
		sig = strtol(list, &end, 10);
		if (end == list)
			break;
		syscall(SYS_rt_sigaction, (int)sig, ksa, NULL, 8);
		list = end;
	}
	unsetenv("LT_FAKE_SIGIGN");	/* the daemon's children: not again */
}

static const char *ctl_path(char *buf, size_t size, const char *file)
{
	const char *dir = getenv("LT_FAKE_LTTNG");

	snprintf(buf, size, "%s/%s", dir ? dir : "/nonexistent", file);
	return buf;
}

static int ctl_exists(const char *file)
{
	char p[PATH_MAX];

	return access(ctl_path(p, sizeof(p), file), F_OK) == 0;
}

static long ctl_number(const char *file, long def)
{
	char p[PATH_MAX];
	FILE *f = fopen(ctl_path(p, sizeof(p), file), "r");
	long v = def;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = def;
		fclose(f);
	}
	return v;
}

static void note(const char *fn, const char *arg)
{
	char p[PATH_MAX];
	FILE *f = fopen(ctl_path(p, sizeof(p), "calls"), "a");

	if (f) {
		fprintf(f, "%s %s\n", fn, arg ? arg : "-");
		fclose(f);
	}
}

static struct fake_session *find(const char *name)
{
	int i;

	for (i = 0; i < fake_nr; i++)
		if (!strcmp(fake_sessions[i].name, name))
			return &fake_sessions[i];
	return NULL;
}

int lttng_session_daemon_alive(void)
{
	return ctl_exists("sessiond");
}

int lttng_list_sessions(struct lttng_session **out)
{
	struct lttng_session *s;
	int i;

	note("list_sessions", NULL);
	if (!ctl_exists("sessiond"))
		return -LTTNG_ERR_NO_SESSIOND;
	s = calloc(fake_nr ? fake_nr : 1, sizeof(*s));
	if (!s)
		return -LTTNG_ERR_NOMEM;
	for (i = 0; i < fake_nr; i++) {
		memcpy(s[i].name, fake_sessions[i].name, sizeof(s[i].name) - 1);
		s[i].snapshot_mode = fake_sessions[i].snapshot;
		s[i].enabled = fake_sessions[i].started;
	}
	*out = s;
	return fake_nr;
}

enum lttng_error_code lttng_create_session_ext(struct lttng_session_descriptor *d)
{
	const char *name = NULL;
	struct fake_session *s;

	lttng_session_descriptor_get_session_name(d, &name);
	note("create_session", name);
	if (!ctl_exists("sessiond"))
		return LTTNG_ERR_NO_SESSIOND;
	if (!name || find(name))
		return LTTNG_ERR_EXIST_SESS;
	if (fake_nr == FAKE_MAX_SESSIONS)
		return LTTNG_ERR_NOMEM;
	s = &fake_sessions[fake_nr++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->snapshot = 1;
	return LTTNG_OK;
}

int lttng_destroy_session(const char *name)
{
	struct fake_session *s;

	note("destroy_session", name);
	if (!ctl_exists("sessiond"))
		return -LTTNG_ERR_NO_SESSIOND;
	s = find(name);
	if (!s)
		return -LTTNG_ERR_SESS_NOT_FOUND;
	*s = fake_sessions[--fake_nr];
	return 0;
}

int lttng_enable_channel(struct lttng_handle *h, struct lttng_channel *ch)
{
	(void)h;
	note("enable_channel", ch->name);
	if (!ctl_exists("sessiond"))
		return -LTTNG_ERR_NO_SESSIOND;
	if (ctl_exists("no-kernel"))
		return -LTTNG_ERR_KERN_NA;
	return 0;
}

int lttng_enable_event_with_exclusions(struct lttng_handle *h,
				       struct lttng_event *ev,
				       const char *channel,
				       const char *filter, int nexcl,
				       char **excl)
{
	(void)h;
	(void)channel;
	(void)filter;
	(void)nexcl;
	(void)excl;
	note("enable_event", ev->name);
	return ctl_exists("sessiond") ? 0 : -LTTNG_ERR_NO_SESSIOND;
}

int lttng_add_context(struct lttng_handle *h, struct lttng_event_context *c,
		      const char *event, const char *channel)
{
	(void)h;
	(void)c;
	(void)event;
	(void)channel;
	return ctl_exists("sessiond") ? 0 : -LTTNG_ERR_NO_SESSIOND;
}

int lttng_start_tracing(const char *name)
{
	struct fake_session *s = find(name);

	note("start_tracing", name);
	if (!ctl_exists("sessiond"))
		return -LTTNG_ERR_NO_SESSIOND;
	if (!s)
		return -LTTNG_ERR_SESS_NOT_FOUND;
	s->started = 1;
	return 0;
}

/* mkdir -p of dir; 0 or -1. */
static int mkdirs(const char *dir)
{
	char p[PATH_MAX];
	size_t i;

	snprintf(p, sizeof(p), "%s", dir);
	for (i = 1; p[i]; i++) {
		if (p[i] != '/')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0750) && errno != EEXIST)
			return -1;
		p[i] = '/';
	}
	return mkdir(p, 0750) && errno != EEXIST ? -1 : 0;
}

/* A trace of snapshot-bytes bytes in <path>/kernel/. */
static int write_trace(const char *path)
{
	static char block[4096];
	long left = ctl_number("snapshot-bytes", FAKE_DEFAULT_BYTES);
	char p[PATH_MAX];
	int fd, ret = 0;

	snprintf(p, sizeof(p), "%s/kernel", path);
	if (mkdirs(p))
		return -1;
	snprintf(p, sizeof(p), "%s/kernel/metadata", path);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0)
		return -1;
	if (write(fd, "/* CTF 1.8 */\n", 14) != 14)
		ret = -1;
	close(fd);
	if (ret)
		return -1;
	snprintf(p, sizeof(p), "%s/kernel/channel0_0", path);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0)
		return -1;
	memset(block, 0xc1, sizeof(block));
	while (left > 0 && !ret) {
		size_t n = left < (long)sizeof(block) ? (size_t)left : sizeof(block);

		if (write(fd, block, n) != (ssize_t)n)
			ret = -1;
		left -= (long)n;
	}
	if (close(fd))
		ret = -1;
	return ret;
}

int lttng_snapshot_record(const char *name, struct lttng_snapshot_output *out,
			  int wait)
{
	const char *url = out ? lttng_snapshot_output_get_ctrl_url(out) : NULL;
	struct fake_session *s = find(name);

	(void)wait;
	note("snapshot_record", url);
	if (!ctl_exists("sessiond"))
		return -LTTNG_ERR_NO_SESSIOND;
	if (!s)
		return -LTTNG_ERR_SESS_NOT_FOUND;
	if (!s->started)
		return -LTTNG_ERR_SNAPSHOT_FAIL;
	if (!url || !*url)
		return 0;	/* the session's own output: nothing to write */
	if (!strncmp(url, "file://", 7))
		url += 7;
	if (url[0] != '/')
		return 0;	/* network: nothing local */
	return write_trace(url) ? -LTTNG_ERR_SNAPSHOT_FAIL : 0;
}
