// SPDX-License-Identifier: MIT
/*
 * lt_app.c - liblatency-tracker: <latency-tracker.h> over the transport
 * of lt_app_abi.h (one open file per struct lt_app, one ioctl per begin
 * or end).
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "latency-tracker.h"
#include "lt_app_abi.h"

struct lt_app {
	int fd;
};

struct lt_app *lt_app_open(const char *name, uint64_t threshold_ns,
			   uint64_t timeout_ns)
{
	struct lt_app_attach arg = {
		.threshold_ns = threshold_ns,
		.timeout_ns = timeout_ns,
	};
	struct lt_app *app;
	int err;

	if (!name || strlen(name) >= sizeof(arg.name)) {
		errno = EINVAL;
		return NULL;
	}
	strcpy(arg.name, name);
	app = malloc(sizeof(*app));
	if (!app)
		return NULL;
	app->fd = open(LT_APP_FILE, O_RDWR | O_CLOEXEC);
	if (app->fd < 0)
		goto fail;
	if (ioctl(app->fd, LT_APP_IOC_ATTACH, &arg) < 0)
		goto fail_close;
	return app;

fail_close:
	err = errno;
	close(app->fd);
	errno = err;
fail:
	err = errno;
	free(app);
	errno = err;
	return NULL;
}

/* One ioctl; errno left as it was. */
static int lt_app_call(struct lt_app *app, unsigned long cmd, uint64_t cookie)
{
	int saved = errno, ret = 0;

	if (!app)
		return -EINVAL;
#if ULONG_MAX < UINT64_MAX
	if (cookie > ULONG_MAX)
		return -EOVERFLOW;	/* a 32-bit process: 32-bit cookies */
#endif
	if (ioctl(app->fd, cmd, (unsigned long)cookie) < 0)
		ret = -errno;
	errno = saved;
	return ret;
}

int lt_app_begin(struct lt_app *app, uint64_t cookie)
{
	return lt_app_call(app, LT_APP_IOC_BEGIN, cookie);
}

int lt_app_end(struct lt_app *app, uint64_t cookie)
{
	return lt_app_call(app, LT_APP_IOC_END, cookie);
}

void lt_app_close(struct lt_app *app)
{
	if (!app)
		return;
	close(app->fd);
	free(app);
}
