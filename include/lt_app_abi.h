/* SPDX-License-Identifier: MIT */
/*
 * lt_app_abi.h - the transport of application requests, between
 * liblatency-tracker (lib/) and latency_tracker_app.ko (probes/app.c):
 * the file /proc/latency_tracker/app and its ioctls.  Included by both,
 * in the kernel and in userspace; nothing here is part of the library's
 * API (<latency-tracker.h>).
 *
 * One open file of LT_APP_FILE is bound to one application tracker by
 * LT_APP_IOC_ATTACH; then each LT_APP_IOC_BEGIN and LT_APP_IOC_END is one
 * ioctl whose argument is the request's cookie itself (no copy; 32 bits
 * from a 32-bit process).  Return
 * values: 0, or -1 with errno (the kernel's errors are listed in
 * probes/app.c).
 */
#ifndef _LT_APP_ABI_H
#define _LT_APP_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define LT_APP_FILE		"/proc/latency_tracker/app"

/* A tracker's name: [a-z][a-z0-9_]{0,31}, NUL-terminated. */
#define LT_APP_NAME_SIZE	40

/**
 * struct lt_app_attach - the argument of LT_APP_IOC_ATTACH
 * @name: the application tracker, NUL-terminated.
 * @threshold_ns: its threshold, if this call creates it (root only).
 * @timeout_ns: its timeout (0: none), if this call creates it.
 * @flags: 0 (for later extensions: anything else is -EINVAL).
 * @reserved: 0.
 *
 * 64 bytes, the same layout in 32- and 64-bit processes.
 */
struct lt_app_attach {
	char name[LT_APP_NAME_SIZE];
	__u64 threshold_ns;
	__u64 timeout_ns;
	__u32 flags;
	__u32 reserved;
};

/* A code the kernel's ioctl-number.rst does not list (0xb7 is nsfs's). */
#define LT_APP_IOC_MAGIC	0xb9
#define LT_APP_IOC_ATTACH	_IOW(LT_APP_IOC_MAGIC, 1, struct lt_app_attach)
#define LT_APP_IOC_BEGIN	_IO(LT_APP_IOC_MAGIC, 2)
#define LT_APP_IOC_END		_IO(LT_APP_IOC_MAGIC, 3)

#endif /* _LT_APP_ABI_H */
