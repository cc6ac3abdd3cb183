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
 *
 * A begin without a system call.  A bound file maps LT_APP_REGION_SIZE
 * bytes (mmap, offset 0, shared, read and write): LT_APP_BLOCKS blocks of
 * LT_APP_BLOCK_REQS requests.  LT_APP_IOC_REGISTER gives the calling
 * thread a block of its own (it returns the block's index; a thread has
 * one block, in one file, until it exits or execs or the file is
 * released).  The
 * thread then begins a request by writing it in a free entry of its
 * block:
 *
 *	cmpxchg(state, FREE, CLAIMED); cookie = C;
 *	state = LT_APP_REQ_BEGIN (release);
 *	ts_ns = CLOCK_MONOTONIC now; cmpxchg(state, BEGIN, OPEN)
 *
 * (a live entry of the same cookie is begun again in place: cmpxchg(state,
 * OPEN, BEGIN), then the last two steps).  Only the block's thread moves
 * an entry out of LT_APP_REQ_FREE; only the kernel moves one back to it,
 * through LT_APP_REQ_BUSY: at the thread's next switch-out (the request
 * becomes a pending event of the tracker, timed from ts_ns, or from the
 * switch if the entry was still BEGIN), at its end (LT_APP_IOC_END, as
 * for a request begun by LT_APP_IOC_BEGIN: the kernel looks in the
 * thread's block first), when the thread exits or execs, or when the file
 * is released.  The kernel trusts nothing in the region: it clamps a
 * timestamp to the time since the thread's last switch-out (and to its
 * current slice where it knows it), and never waits on a state the
 * process may write.  Any process that maps the file (a forked child)
 * may write every block of it: the trust boundary is the open file.
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

/* The region of a bound file. */
#define LT_APP_BLOCKS		64
#define LT_APP_BLOCK_REQS	8

#define LT_APP_REQ_FREE		0
#define LT_APP_REQ_BEGIN	1	/* cookie written, ts_ns not yet */
#define LT_APP_REQ_OPEN		2	/* cookie and ts_ns written */
#define LT_APP_REQ_BUSY		3	/* the kernel is taking it */
#define LT_APP_REQ_CLAIMED	4	/* the thread is writing a cookie */

/**
 * struct lt_app_req - a request in a thread's block
 * @state: LT_APP_REQ_*.
 * @reserved: 0.
 * @cookie: the request's cookie.
 * @ts_ns: its begin, CLOCK_MONOTONIC, ns.
 * @reserved2: 0.
 *
 * 32 bytes, the same layout in 32- and 64-bit processes.
 */
struct lt_app_req {
	__u32 state;
	__u32 reserved;
	__u64 cookie;
	__u64 ts_ns;
	__u64 reserved2;
};

#define LT_APP_REGION_SIZE \
	(LT_APP_BLOCKS * LT_APP_BLOCK_REQS * sizeof(struct lt_app_req))

/* A code the kernel's ioctl-number.rst does not list (0xb7 is nsfs's). */
#define LT_APP_IOC_MAGIC	0xb9
#define LT_APP_IOC_ATTACH	_IOW(LT_APP_IOC_MAGIC, 1, struct lt_app_attach)
#define LT_APP_IOC_BEGIN	_IO(LT_APP_IOC_MAGIC, 2)
#define LT_APP_IOC_END		_IO(LT_APP_IOC_MAGIC, 3)
#define LT_APP_IOC_REGISTER	_IO(LT_APP_IOC_MAGIC, 4)

#endif /* _LT_APP_ABI_H */
