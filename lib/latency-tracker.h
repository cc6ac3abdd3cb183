/* SPDX-License-Identifier: MIT */
/*
 * <latency-tracker.h> - mark an application's requests for
 * latency-tracker (liblatency-tracker; pkg-config name latency-tracker).
 *
 * An application tracker, NAME, times each request from lt_app_begin()
 * to lt_app_end() and records the slow ones in
 * /proc/latency_tracker/NAME/alerts, each with where its time went in
 * the kernel (on CPU, waiting for a CPU, blocked, and in what) when it
 * began and ended on the same thread.  The module latency_tracker_app
 * must be loaded; the caller must be root or in the group it names.
 *
 *	struct lt_app *app = lt_app_open("checkout", 20000000, 0);
 *	...
 *	lt_app_begin(app, request_id);
 *	handle(request);
 *	lt_app_end(app, request_id);
 *	...
 *	lt_app_close(app);
 *
 * Nothing here aborts, blocks on the application's behalf or allocates
 * after lt_app_open(): an error (no module, a full table, an unknown
 * cookie) is returned and the application goes on.  Thread-safe: any
 * thread may begin or end any request of its process; a request is
 * keyed by (process, cookie).  Linked with -llatency-tracker.
 */
#ifndef LATENCY_TRACKER_H
#define LATENCY_TRACKER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lt_app;

/*
 * Attach to application tracker NAME ([a-z][a-z0-9_]{0,31}), creating it
 * with this threshold and timeout (ns; timeout 0: none) if it does not
 * exist and the caller may (root).  Returns NULL with errno set on error:
 * ENOENT (no such tracker and the caller may not create it, or the module
 * is not loaded), EACCES (not in the module's group), EINVAL (a bad name
 * or value), EEXIST (a reserved name), ENOSPC (too many trackers),
 * ENOMEM, or what open() may say of /proc/latency_tracker/app.
 */
struct lt_app *lt_app_open(const char *name, uint64_t threshold_ns,
			   uint64_t timeout_ns);

/*
 * A request begins (lt_app_begin) or ends (lt_app_end) on this thread.
 * A begin is no system call (a thread's first begin on a handle is one,
 * and a begin while 8 requests of the thread are open); an end is one.
 * 0, or -errno: -EINVAL (app is NULL), -ENOENT (end: no such request
 * open; or the tracker was deleted), -ENOSPC (begin: the tracker's table
 * is full), -EIO (end: the module was unloaded), -EOVERFLOW (a cookie
 * over 32 bits in a 32-bit process).  A begin with the cookie of a
 * request still open restarts it; a request the tracker's filters leave
 * out is not recorded (its end returns -ENOENT).  A process that forks
 * may mark requests in the child with the handles it inherited.
 */
int lt_app_begin(struct lt_app *app, uint64_t cookie);
int lt_app_end(struct lt_app *app, uint64_t cookie);

/* Detach; requests still open stay pending in the tracker. */
void lt_app_close(struct lt_app *app);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_TRACKER_H */
